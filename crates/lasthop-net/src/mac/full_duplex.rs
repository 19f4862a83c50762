//! Full duplex: the simplest MAC. Two stations joined by a wire with a
//! channel per direction (a serial line, a wired LAN segment between a
//! router and a host): a direction transmits whenever it is idle and a
//! frame waits, whatever the other does. No control frames, no link-level
//! retransmission; the frame path itself (queue, error model, propagation
//! FIFO) is the wire's ([`super::point_to_point`]).
//!
//! Both rules here are what the 1997 LAN and WAN links did (seed 000
//! Sec. IV: the wired hops of the testbed), and what ns-2's `duplex-link`
//! does: its two `simplex-link`s never interact.

use super::point_to_point::{Link, Started};
use crate::queue::{Removal, Waiting};
use lasthop_core::{PacketPool, Time};

/// Start direction `dir`'s next frame after `dir` changed (a frame joined
/// its queue, or left its medium): `dir` alone is looked at. The other
/// direction cannot have become ready, as it was served when it last
/// changed (no direction is left idle with a frame waiting), so with
/// thousands of links its state is not brought into the cache for nothing
/// (issue 9).
#[inline]
pub(super) fn start_after(
    link: &mut Link,
    now: Time,
    dir: usize,
    pool: &mut PacketPool,
    out: &mut Vec<Removal>,
) -> Option<Started> {
    let other = &link.dirs[1 - dir];
    debug_assert!(
        other.busy() || other.queue.is_empty() || other.held(),
        "a full-duplex direction left idle with a frame waiting"
    );
    let d = &link.dirs[dir];
    debug_assert!(d.waiting != d.queue.is_empty() || d.held());
    // Whether a frame waits is read beside the medium, not in the queue's
    // line (issue 9).
    if d.busy() || !d.waiting {
        return None;
    }
    link.start(now, dir, pool, out)
}

/// Put `w`, just offered to direction `dir`, on the medium at once if it
/// would leave the queue as it joined it: `dir` idle, its DropTail queue
/// (empty: an idle direction has nothing waiting, see [`start_after`])
/// with room for `w`. The frame then does not pass through the queue's
/// buffer, and the queue's line is not read: with thousands of links it is
/// rarely in the cache (issue 9). What is started, and when, is the same.
#[inline]
pub(super) fn start_at_once(link: &mut Link, now: Time, dir: usize, w: Waiting, pool: &PacketPool) -> Option<Started> {
    let d = &link.dirs[dir];
    if d.busy() || !d.passes_at_once(&w) {
        return None;
    }
    Some(link.start_frame(now, dir, w, pool))
}
