//! FQ-CoDel (Hoeiland-Joergensen, McKenney, Taht, Gettys, Dumazet, RFC
//! 8290, January 2018): flows hashed into queues, served by deficit round
//! robin with a preference for new (sparse) flows, each queue under its
//! own CoDel ([`super::codel::CodelState`]).
//!
//! - Classification (Sec. 4.1.1): the packet's connection id (lasthop's
//!   `flow`, which stands for the 5-tuple: data and acks of a connection
//!   share it, but travel on different link directions), modulo `flows`
//!   (default 1024, Sec. 5.2.5). Departure: no perturbed hash, so runs are
//!   deterministic and a scenario's consecutive ids never collide until
//!   there are more than `flows` of them.
//! - Enqueue (Sec. 4.1): a packet joins its flow's queue, stamped; a flow
//!   that was in neither list joins the tail of `new_flows` with a deficit
//!   of one quantum. When the direction's limit (the link's
//!   `queue_packets` / `queue_bytes`, instead of the RFC's 10240 packets,
//!   Sec. 5.2.3) has no room, the head of the flow with the most bytes
//!   waiting is dropped (cause `Queue`), one packet at a time until the
//!   arrival fits (Linux drops a batch of up to 64, half the fattest
//!   flow's backlog, at once: not done). An arrival whose own flow is
//!   empty and fattest is refused.
//! - Dequeue (Sec. 4.2): the first flow of `new_flows`, else of
//!   `old_flows`; a flow whose deficit is spent gets a quantum (default
//!   1514 bytes, an Ethernet MTU with its header: Sec. 5.2.4) and moves
//!   to the tail of `old_flows`; otherwise CoDel dequeues from it, and the
//!   packet's size is charged to its deficit. A flow found empty moves
//!   from `new_flows` to the tail of `old_flows` (so that it cannot come
//!   back as new at once and starve the old ones), or leaves `old_flows`.
//! - CoDel per flow: the sojourn time of the flow's head, against
//!   `target_ms` / `interval_ms` (defaults 5 and 100 ms), the MTU test on
//!   the flow's own bytes (Linux tests the whole queue's).
//!
//! The packets wait in the direction's [`DropTail`] in arrival order (so
//! its length, bytes and limit hold), and each flow queue keeps the
//! handles and stamps of its own, in order: the packet served or dropped
//! is found in the FIFO and taken out (a scan, cheap for a last hop's
//! buffer of tens to hundreds of packets).

use super::codel::{
    check_codel, default_interval_ms, default_mtu_bytes, default_target_ms, default_true, CodelParams, CodelQueue,
    CodelState,
};
use super::{DropTail, QueueLimit, Removal, Waiting};
use lasthop_core::trace::DropCause;
use lasthop_core::{PacketPool, PacketRef, Time};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// FQ-CoDel settings of a link direction (the `fq_codel` table of its `queue`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FqCodelConfig {
    /// Flow queues (default 1024: RFC 8290 Sec. 5.2.5).
    #[serde(default = "default_flows")]
    pub flows: u32,
    /// Bytes a flow may send per round (default 1514: RFC 8290 Sec. 5.2.4).
    #[serde(default = "default_quantum_bytes")]
    pub quantum_bytes: u32,
    /// CoDel's target per flow queue, in ms (default 5).
    #[serde(default = "default_target_ms")]
    pub target_ms: f64,
    /// CoDel's interval, in ms (default 100).
    #[serde(default = "default_interval_ms")]
    pub interval_ms: f64,
    /// CoDel drops nothing from a flow with at most this many bytes waiting
    /// (default 1500).
    #[serde(default = "default_mtu_bytes")]
    pub mtu_bytes: u32,
    /// Mark ECN-capable packets CE instead of dropping them (default true).
    #[serde(default = "default_true")]
    pub ecn: bool,
}

fn default_flows() -> u32 {
    1024
}
fn default_quantum_bytes() -> u32 {
    1514
}

impl Default for FqCodelConfig {
    fn default() -> FqCodelConfig {
        FqCodelConfig {
            flows: default_flows(),
            quantum_bytes: default_quantum_bytes(),
            target_ms: default_target_ms(),
            interval_ms: default_interval_ms(),
            mtu_bytes: default_mtu_bytes(),
            ecn: true,
        }
    }
}

impl FqCodelConfig {
    /// Check the settings; an error names the field (relative to the
    /// `fq_codel` table) and says why.
    pub fn validate(&self, _limit: QueueLimit) -> Result<(), (String, String)> {
        if !(1..=65_536).contains(&self.flows) {
            return Err(("flows".into(), format!("must be in 1..=65536, got {}", self.flows)));
        }
        if self.quantum_bytes == 0 {
            return Err(("quantum_bytes".into(), "must be at least 1".into()));
        }
        check_codel(self.target_ms, self.interval_ms, self.mtu_bytes)
    }
}

/// Which list a flow is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum List {
    #[default]
    None,
    New,
    Old,
}

#[derive(Clone, Debug, Default)]
struct Flow {
    /// The flow's packets waiting, head first, with when each joined.
    packets: VecDeque<(PacketRef, Time)>,
    bytes: u64,
    deficit: i64,
    list: List,
    codel: CodelState,
}

/// FQ-CoDel's state on one link direction.
#[derive(Clone, Debug)]
pub struct FqCodel {
    params: CodelParams,
    quantum: i64,
    flows: Vec<Flow>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
}

/// Take the packet `pkt` out of the FIFO.
fn take_from(q: &mut DropTail, pkt: PacketRef) -> Waiting {
    let i = q.waiting().iter().position(|w| w.pkt == pkt).expect("a flow's packet waits in the FIFO");
    q.remove(i)
}

/// One flow queue as CoDel sees it at a dequeue.
struct FlowView<'a> {
    flow: &'a mut Flow,
    q: &'a mut DropTail,
    pool: &'a mut PacketPool,
    out: &'a mut Vec<Removal>,
    acks: &'a mut usize,
    marks: &'a mut u64,
}

impl CodelQueue for FlowView<'_> {
    fn take(&mut self) -> Option<(Waiting, Time)> {
        let (pkt, joined) = self.flow.packets.pop_front()?;
        let w = take_from(self.q, pkt);
        self.flow.bytes -= u64::from(w.size_bytes);
        Some((w, joined))
    }
    fn bytes(&self) -> u64 {
        self.flow.bytes
    }
    fn drop_taken(&mut self, w: Waiting) {
        *self.acks -= usize::from(w.is_pure_ack());
        self.out.push(Removal { pkt: w.pkt, cause: DropCause::Early });
    }
    fn mark(&mut self, w: Waiting) -> bool {
        let marked = self.pool.mark_ce(w.pkt);
        *self.marks += u64::from(marked);
        marked
    }
}

impl FqCodel {
    pub fn new(cfg: &FqCodelConfig) -> FqCodel {
        FqCodel {
            params: CodelParams::of(cfg.target_ms, cfg.interval_ms, cfg.mtu_bytes, cfg.ecn),
            quantum: i64::from(cfg.quantum_bytes),
            flows: vec![Flow::default(); cfg.flows as usize],
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
        }
    }

    /// The flow queue of connection `flow`.
    pub fn queue_of(&self, flow: u32) -> u32 {
        flow % self.flows.len() as u32
    }

    /// Make room for an arrival of `size_bytes` in flow queue `f`: while
    /// `q` is full, the head of the fattest flow leaves (cause `Queue`).
    /// False if the arrival is refused (its own empty flow is the fattest).
    pub(super) fn make_room(
        &mut self,
        q: &mut DropTail,
        f: u32,
        size_bytes: u32,
        out: &mut Vec<Removal>,
        acks: &mut usize,
    ) -> bool {
        while q.is_full(size_bytes) {
            // The arrival counts toward its flow's bytes; the first of equals wins.
            let bytes = |i: usize| self.flows[i].bytes + if i == f as usize { u64::from(size_bytes) } else { 0 };
            let fattest = (0..self.flows.len()).fold(0, |best, i| if bytes(i) > bytes(best) { i } else { best });
            let flow = &mut self.flows[fattest];
            let Some((pkt, _)) = flow.packets.pop_front() else {
                return false;
            };
            let w = take_from(q, pkt);
            flow.bytes -= u64::from(w.size_bytes);
            *acks -= usize::from(w.is_pure_ack());
            out.push(Removal { pkt: w.pkt, cause: DropCause::Queue });
        }
        true
    }

    /// `w` joined the FIFO's tail at `now`, for flow queue `f`.
    pub(super) fn on_join(&mut self, now: Time, f: u32, w: &Waiting) {
        let flow = &mut self.flows[f as usize];
        flow.packets.push_back((w.pkt, now));
        flow.bytes += u64::from(w.size_bytes);
        if flow.list == List::None {
            flow.list = List::New;
            flow.deficit = self.quantum;
            self.new_flows.push_back(f);
        }
    }

    /// Before `q`'s head leaves at `now`: the scheduler picks a flow, its
    /// CoDel drops (or marks) what it says, and the packet to serve is
    /// brought to the FIFO's head, if one is left.
    pub(super) fn before_dequeue(
        &mut self,
        q: &mut DropTail,
        now: Time,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
        acks: &mut usize,
        marks: &mut u64,
    ) {
        loop {
            let (f, from_new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&f), _) => (f, true),
                (None, Some(&f)) => (f, false),
                (None, None) => return,
            };
            let flow = &mut self.flows[f as usize];
            if flow.deficit <= 0 {
                flow.deficit += self.quantum;
                flow.list = List::Old;
                self.pop_front(from_new);
                self.old_flows.push_back(f);
                continue;
            }
            let mut view =
                FlowView { flow, q: &mut *q, pool: &mut *pool, out: &mut *out, acks: &mut *acks, marks: &mut *marks };
            let mut codel = std::mem::take(&mut view.flow.codel);
            let served = codel.dequeue(&self.params, now, &mut view);
            view.flow.codel = codel;
            match served {
                Some(w) => {
                    view.flow.deficit -= i64::from(w.size_bytes);
                    view.q.insert_front(w);
                    return;
                }
                None => {
                    // Empty: a new flow goes to the old list once, so that
                    // it cannot starve the old flows by coming back as new.
                    self.pop_front(from_new);
                    if from_new && !self.old_flows.is_empty() {
                        self.flows[f as usize].list = List::Old;
                        self.old_flows.push_back(f);
                    } else {
                        self.flows[f as usize].list = List::None;
                    }
                }
            }
        }
    }

    fn pop_front(&mut self, from_new: bool) {
        if from_new {
            self.new_flows.pop_front();
        } else {
            self.old_flows.pop_front();
        }
    }

    /// Bytes waiting in flow queue `f`.
    pub fn flow_bytes(&self, f: u32) -> u64 {
        self.flows[f as usize].bytes
    }
}
