//! The composed queue of a link direction with a `queue` table (after ns-2's
//! `PacketQueue/Semantic`, on which seed 001's simulations ran AF and
//! acks-first, under `Queue/DropTail` or `Queue/RED`).
//!
//! Packets wait in arrival order. An arrival goes through, in this order:
//!
//! 1. ACK filtering, if on and the arrival is a pure ack
//!    ([`super::ack_filter`]): the stale acks of its connection leave
//!    (cause `Filtered`);
//! 2. RED, if on ([`super::red`]): the average is updated from the packets
//!    then waiting; a mark goes to the arrival or to a random waiting
//!    packet, and a packet that is not ECN-capable is dropped instead
//!    (cause `Early`);
//! 3. admission: while the limit has no room for the arrival, the overflow
//!    policy picks a victim, the arrival or a waiting packet
//!    ([`super::overflow`], cause `Queue`);
//! 4. the arrival joins at the tail (or, with `replace_head`, in the place
//!    of the oldest ack it filtered).
//!
//! ns-2 runs RED's test before its filter (RED computes the average, then
//! hands the packet to the semantic queue, which filters); here the filter
//! runs first so that RED sees the queue the arrival joins, and a mark is
//! never given to an ack about to be purged. The paper does not combine
//! RED with AF.
//!
//! With an AQM (validated: no filter, no RED, fifo, drop-tail overflow),
//! an arrival goes instead through PIE's test ([`super::pie`]; a drop is
//! cause `Early`, an ECN-capable packet is marked while PIE allows), then
//! admission (FQ-CoDel's victim is the head of the fattest flow,
//! [`super::fq_codel`]), and joins with its time stamped by the AQM. At
//! service, CoDel ([`super::codel`]) or FQ-CoDel drops at the head (cause
//! `Early`) and brings the packet it serves to the head; PIE measures the
//! leaving packet's sojourn time. Jersey's CW ([`super::cw`]) updates its
//! average on each arrival and marks an admitted ECN-capable arrival while
//! the average is above its threshold; it drops nothing itself.
//!
//! Service ([`super::acks_first`]) takes the head, or with `acks_first`
//! the oldest pure ack, which is brought to the head just before the pop.
//! Statistics: marks, and the time integrals of the packets and of the
//! pure acks waiting, from which the run reports their time averages.

use super::pie::PieVerdict;
use super::{
    AckFilterPosition, Codel, Cw, DropTail, FqCodel, MarkVictim, Overflow, Pie, QueueConfig, QueueStats, Red, Removal,
    Service, Waiting,
};
use lasthop_core::rng::RngStream;
use lasthop_core::trace::DropCause;
use lasthop_core::{PacketPool, Time};

/// The AQM of a composed queue, if any (each keeps its packets' stamps).
#[derive(Clone, Debug)]
enum Aqm {
    Codel(Codel),
    Pie(Pie),
    FqCodel(FqCodel),
    Cw(Cw),
}

/// The parts of a composed queue; the packets wait in the [`DropTail`]
/// it is handed (see [`super::Queue`]).
#[derive(Clone, Debug)]
pub struct Semantic {
    service: Service,
    overflow: Overflow,
    ack_filter: Option<AckFilterPosition>,
    red: Option<Red>,
    aqm: Option<Aqm>,
    /// Made only if the discipline draws (random overflow, RED, PIE).
    rng: Option<RngStream>,
    /// Pure acks waiting.
    acks: usize,
    marks: u64,
    /// Time integrals of the packets and of the pure acks waiting, in
    /// packet-ns, up to `since`.
    area_packets: u128,
    area_acks: u128,
    since: Time,
}

impl Semantic {
    /// See [`super::Queue::semantic`].
    pub fn new(cfg: &QueueConfig, packet_time_ns: impl Fn(u32) -> u64, rng: impl FnOnce() -> RngStream) -> Semantic {
        Semantic {
            service: cfg.discipline,
            overflow: cfg.overflow,
            ack_filter: cfg.ack_filter.then(|| cfg.ack_filter_position.unwrap_or_default()),
            red: cfg.red.as_ref().map(|r| Red::new(r, packet_time_ns(r.idle_packet_bytes))),
            aqm: match (&cfg.codel, &cfg.pie, &cfg.fq_codel, &cfg.jersey_cw) {
                (Some(c), _, _, _) => Some(Aqm::Codel(Codel::new(c))),
                (_, Some(c), _, _) => Some(Aqm::Pie(Pie::new(c))),
                (_, _, Some(c), _) => Some(Aqm::FqCodel(FqCodel::new(c))),
                (_, _, _, Some(c)) => Some(Aqm::Cw(Cw::new(c, packet_time_ns(c.idle_packet_bytes)))),
                _ => None,
            },
            rng: cfg.draws().then(rng),
            acks: 0,
            marks: 0,
            area_packets: 0,
            area_acks: 0,
            since: Time::ZERO,
        }
    }

    /// Bring the occupancy integrals up to `now` (before any change to `q`).
    #[inline]
    fn advance(&mut self, q: &DropTail, now: Time) {
        let dt = u128::from(now.since(self.since));
        self.area_packets += q.len() as u128 * dt;
        self.area_acks += self.acks as u128 * dt;
        self.since = now;
    }

    /// Take out the packet at `i`; `at`, where the arrival will be put, moves
    /// with the packets behind it.
    fn remove_at(&mut self, q: &mut DropTail, i: usize, at: &mut Option<usize>) -> Waiting {
        let w = q.remove(i);
        self.acks -= usize::from(w.is_pure_ack());
        if let Some(a) = at.as_mut() {
            if *a > i {
                *a -= 1;
            }
        }
        w
    }

    /// See [`super::Queue::enqueue`]; `q` holds the packets waiting. True
    /// if the arrival joined the queue.
    #[inline(never)]
    pub fn enqueue(
        &mut self,
        q: &mut DropTail,
        now: Time,
        w: Waiting,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
        idle_since: Option<Time>,
    ) -> bool {
        self.advance(q, now);
        if self.aqm.is_some() {
            return self.enqueue_aqm(q, now, w, pool, out, idle_since);
        }
        // Where the arrival joins: `None` = the tail.
        let mut at: Option<usize> = None;

        // 1. ACK filtering.
        if let Some(position) = self.ack_filter {
            if let Some((flow, ack)) = pool.pure_ack(w.pkt) {
                let acks = &mut self.acks;
                let first = super::ack_filter::purge(q, pool, flow, ack, |p| {
                    *acks -= 1;
                    out.push(Removal { pkt: p.pkt, cause: DropCause::Filtered });
                });
                if position == AckFilterPosition::ReplaceHead {
                    at = first;
                }
            }
        }

        // 2. RED.
        if let Some(red) = self.red.as_mut() {
            let rng = self.rng.as_mut().expect("RED has a stream");
            red.on_arrival(now, q.len(), idle_since);
            let arrival_is_candidate = red.mark_acks || !w.is_pure_ack();
            let queued_candidates = match red.mark {
                MarkVictim::Arriving => 0,
                MarkVictim::Random if red.mark_acks => q.len(),
                MarkVictim::Random => q.len() - self.acks,
            };
            let candidates = queued_candidates + usize::from(arrival_is_candidate);
            if red.should_mark(candidates > 0, rng) {
                // The k-th candidate in queue order, the arrival last.
                let k = match red.mark {
                    MarkVictim::Arriving => queued_candidates,
                    MarkVictim::Random => rng.below(candidates as u64) as usize,
                };
                if k == queued_candidates {
                    if pool.mark_ce(w.pkt) {
                        self.marks += 1;
                    } else {
                        out.push(Removal { pkt: w.pkt, cause: DropCause::Early });
                        return false;
                    }
                } else {
                    let mark_acks = red.mark_acks;
                    let i = q
                        .waiting()
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| mark_acks || !p.is_pure_ack())
                        .nth(k)
                        .map(|(i, _)| i)
                        .expect("k counts candidates waiting");
                    if pool.mark_ce(q.waiting()[i].pkt) {
                        self.marks += 1;
                    } else {
                        let v = self.remove_at(q, i, &mut at);
                        out.push(Removal { pkt: v.pkt, cause: DropCause::Early });
                    }
                }
            }
        }

        // 3. Admission.
        while q.is_full(w.size_bytes) {
            match self.overflow.victim(q.len(), self.rng.as_mut()) {
                None => {
                    out.push(Removal { pkt: w.pkt, cause: DropCause::Queue });
                    return false;
                }
                Some(i) => {
                    let v = self.remove_at(q, i, &mut at);
                    out.push(Removal { pkt: v.pkt, cause: DropCause::Queue });
                }
            }
        }

        // 4. Join.
        self.acks += usize::from(w.is_pure_ack());
        q.insert(at, w);
        true
    }

    /// [`Semantic::enqueue`] with an AQM (nothing else composed with it).
    fn enqueue_aqm(
        &mut self,
        q: &mut DropTail,
        now: Time,
        w: Waiting,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
        idle_since: Option<Time>,
    ) -> bool {
        let aqm = self.aqm.as_mut().expect("called with an AQM");
        let mut fq_flow = 0;
        let mut warn = false;
        match aqm {
            Aqm::Pie(pie) => {
                let rng = self.rng.as_mut().expect("PIE has a stream");
                if let PieVerdict::Drop { may_mark } = pie.on_arrival(now, q.bytes(), rng) {
                    if may_mark && pool.mark_ce(w.pkt) {
                        self.marks += 1;
                    } else {
                        out.push(Removal { pkt: w.pkt, cause: DropCause::Early });
                        return false;
                    }
                }
            }
            Aqm::FqCodel(fq) => {
                fq_flow = fq.queue_of(pool.get(w.pkt).flow);
                if !fq.make_room(q, fq_flow, w.size_bytes, out, &mut self.acks) {
                    out.push(Removal { pkt: w.pkt, cause: DropCause::Queue });
                    return false;
                }
            }
            Aqm::Cw(cw) => warn = cw.on_arrival(now, q.len(), idle_since),
            Aqm::Codel(_) => {}
        }
        if q.is_full(w.size_bytes) {
            out.push(Removal { pkt: w.pkt, cause: DropCause::Queue });
            return false;
        }
        match aqm {
            Aqm::Codel(c) => c.on_join(now),
            Aqm::Pie(p) => p.on_join(now),
            Aqm::FqCodel(fq) => fq.on_join(now, fq_flow, &w),
            Aqm::Cw(_) => {
                if warn && pool.mark_ce(w.pkt) {
                    self.marks += 1;
                }
            }
        }
        self.acks += usize::from(w.is_pure_ack());
        q.insert(None, w);
        true
    }

    /// Before `q`'s head leaves at `now` (see [`super::Queue::dequeue`]):
    /// bring the packet the service order picks to the head, and account
    /// for its leaving. CoDel and FQ-CoDel may drop on the way (into `out`;
    /// they need `pool` for their marks), and leave nothing to serve.
    pub fn before_dequeue(
        &mut self,
        q: &mut DropTail,
        now: Time,
        pool: Option<&mut PacketPool>,
        out: &mut Vec<Removal>,
    ) {
        if q.is_empty() {
            return;
        }
        self.advance(q, now);
        let (acks, marks) = (&mut self.acks, &mut self.marks);
        let pool = || pool.expect("a queue that drops at dequeue is given the pool");
        match &mut self.aqm {
            None => {
                let i = self.service.next(q.waiting(), *acks);
                if i > 0 {
                    let w = q.remove(i);
                    q.insert_front(w);
                }
            }
            Some(Aqm::Pie(p)) => p.on_departure(now, q.len() - 1),
            Some(Aqm::Cw(_)) => {}
            Some(Aqm::Codel(c)) => c.before_dequeue(q, now, pool(), out, acks, marks),
            Some(Aqm::FqCodel(f)) => f.before_dequeue(q, now, pool(), out, acks, marks),
        }
        if let Some(head) = q.waiting().front() {
            self.acks -= usize::from(head.is_pure_ack());
        }
    }

    /// PIE's state, if PIE serves the queue (for tests).
    #[cfg(test)]
    pub(crate) fn pie(&self) -> Option<&Pie> {
        match &self.aqm {
            Some(Aqm::Pie(p)) => Some(p),
            _ => None,
        }
    }

    /// Jersey's CW, if it serves the queue (for tests).
    #[cfg(test)]
    pub(crate) fn cw(&self) -> Option<&Cw> {
        match &self.aqm {
            Some(Aqm::Cw(c)) => Some(c),
            _ => None,
        }
    }

    /// CoDel's state machine, if CoDel serves the queue (for tests).
    #[cfg(test)]
    pub(crate) fn codel(&self) -> Option<&super::codel::CodelState> {
        match &self.aqm {
            Some(Aqm::Codel(c)) => Some(c.state()),
            _ => None,
        }
    }

    /// Statistics from time zero up to `end` (not before the last change).
    pub fn stats(&self, q: &DropTail, end: Time) -> QueueStats {
        let dt = u128::from(end.since(self.since));
        let area_packets = self.area_packets + q.len() as u128 * dt;
        let area_acks = self.area_acks + self.acks as u128 * dt;
        let mean = |area: u128| if end.ns() > 0 { area as f64 / end.ns() as f64 } else { 0.0 };
        QueueStats {
            marks: self.marks,
            mean_packets: mean(area_packets),
            mean_acks: mean(area_acks),
            red_average: self.red.as_ref().map(Red::average),
        }
    }
}
