//! ACK filtering, AF (seed 001 S6.2 and S8.4; reading Sec. 1.8; the idea
//! is credited to Karn).
//!
//! Acks are cumulative, so when a pure ack of a connection with cumulative
//! ack `a` joins the reverse bottleneck's queue, the pure acks of the same
//! connection still waiting there with a smaller cumulative ack are
//! redundant: the filter removes all of them (the paper's experiments
//! remove every preceding ack; its general policy of removing a fraction is
//! not modelled). What it leaves alone:
//!
//! - duplicate acks (cumulative ack equal to `a`): they drive fast
//!   retransmit (seed 001 S6.2, "currently [do not] filter duplicate
//!   acks"; ns-2 keeps them too, except with `replace_head_`, see below);
//! - data packets, even those carrying an ack (ns-2's filter looks only at
//!   `PT_ACK`);
//! - other connections' packets;
//! - the ack on the medium, which has left the queue (seed 001: "the ack
//!   currently being transmitted is not eligible").
//!
//! The window field is ignored: a newer ack's window update subsumes the
//! older ones (seed 001 S6.2). The router keeps no per-connection state;
//! everything is read from the queued packets (here from the pool, and
//! only on this path: a queue without AF never reads a waiting packet).
//!
//! Where the new ack goes is not said in the paper. `tail` (the default)
//! is ns-2's default; `replace_head` is ns-2's `replace_head_`: the new ack
//! takes the place of the oldest ack it purged, nearer the head. Departure:
//! ns-2 with `replace_head_` also purges acks equal to the new one; here
//! duplicate acks are kept in both positions, as the paper says.
//!
//! Departure in order of steps: ns-2's DropTail refuses an ack at a full
//! queue before its filter runs (so the newest ack is lost and the stale
//! ones stay); here the filter runs first, so an ack that makes older acks
//! redundant finds the room they held.

use super::{DropTail, Waiting};
use lasthop_core::PacketPool;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where an ack that filtered others joins the queue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AckFilterPosition {
    /// At the tail, as any arrival (ns-2's default).
    #[default]
    Tail,
    /// In the place of the oldest ack it purged; at the tail if it purged
    /// none (ns-2's `replace_head_`).
    ReplaceHead,
}

/// Remove from `queue` every pure ack of connection `flow` whose
/// cumulative ack is below `ack`, handing each to `on_purge` in queue
/// order; return the index the first of them had (where a `replace_head`
/// arrival goes), or `None` if none was purged.
pub fn purge(
    queue: &mut DropTail,
    pool: &PacketPool,
    flow: u32,
    ack: u64,
    on_purge: impl FnMut(Waiting),
) -> Option<usize> {
    // The cheap test first: a data packet is never read back.
    queue.remove_where(|w| w.is_pure_ack() && pool.pure_ack(w.pkt).is_some_and(|(f, a)| f == flow && a < ack), on_purge)
}
