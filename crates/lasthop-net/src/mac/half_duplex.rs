//! Half duplex: two stations on one channel (seed 000 Sec. IV-A: the
//! WaveLAN hop is "a shared-medium wireless LAN"). One frame at a time, so
//! data and acks contend; a direction may start only while the other is
//! silent. When both have frames waiting they take turns, a deterministic
//! stand-in for CSMA/CA's random contention: the 1997 model charges the
//! contention as a fixed per-frame overhead instead (the wire's
//! `frame_overhead_ns`), and a real contention MAC is the 802.11 member's
//! job. No control frames, no link-level retransmission; the frame path
//! itself is the wire's ([`super::point_to_point`]).

use super::point_to_point::{Link, Started};
use crate::queue::Removal;
use lasthop_core::{PacketPool, Time};

/// Start the next frame on the channel if it is silent and a frame waits,
/// whichever direction changed: the direction not served last goes first.
#[inline]
pub(super) fn start_next(link: &mut Link, now: Time, pool: &mut PacketPool, out: &mut Vec<Removal>) -> Option<Started> {
    if link.dirs.iter().any(|d| d.busy()) {
        return None;
    }
    loop {
        let first = 1 - link.last_served;
        let dir = [first, 1 - first].into_iter().find(|&d| link.dirs[d].waiting)?;
        link.last_served = dir;
        // A queue whose drops (CoDel) left nothing to send is now empty:
        // the other direction's turn.
        if let Some(s) = link.start(now, dir, pool, out) {
            return Some(s);
        }
    }
}
