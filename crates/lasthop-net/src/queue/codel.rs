//! CoDel, "Controlled Delay" (Nichols, Jacobson, McGregor, Iyengar, RFC
//! 8289, January 2018): the AQM that today's satellite and cellular
//! last hops are compared with. It watches the sojourn time of the
//! packet at the head, not the queue's length, and drops at dequeue.
//!
//! - Each packet is stamped as it joins (RFC 8289 Sec. 3.1, "sojourn
//!   time"); the stamps are kept here, beside the packets the queue's
//!   [`DropTail`] holds, so that a direction without a discipline pays
//!   nothing for them (a [`super::Waiting`] stays 24 bytes).
//! - `target` (default 5 ms, Sec. 4.4) and `interval` (default 100 ms,
//!   Sec. 4.5): once the sojourn time has stayed at or above `target` for
//!   `interval` (and more than one MTU waits, the pseudocode's
//!   `bytes() <= maxpacket_` test), CoDel enters its dropping state and
//!   drops the head.
//! - In the dropping state the next drop comes `interval / sqrt(count)`
//!   after the previous one (the control law, Sec. 3.3), until a head's
//!   sojourn time is below `target` again.
//! - Entering the dropping state soon after leaving it (within 16
//!   intervals) reuses the drop rate of the previous cycle: `count`
//!   restarts at the number of drops of that cycle instead of 1 (the
//!   count reuse rule of Sec. 5's pseudocode, which is Linux's).
//!
//! The state machine ([`CodelState`]) works on any queue that can hand
//! over its head with its stamp (`CodelQueue`): [`Codel`] here serves a
//! direction's whole queue with it, and FQ-CoDel ([`super::fq_codel`])
//! one per flow queue.
//!
//! ECN (Sec. 5 leaves it to the implementation; this follows RED here and
//! Linux's `codel_dequeue`): with `ecn = true` (default), a packet CoDel
//! would drop is marked CE instead if it is ECN-capable, and served; the
//! next drop is then scheduled by the control law as after a drop. A packet
//! that is not ECN-capable is dropped (cause `Early`, as RED's).
//!
//! Departures: the control law uses an exact square root (the pseudocode's
//! `INTERVAL / sqrt(count)`; Linux uses a Newton step on a cached inverse
//! square root); `mtu_bytes` is a setting (default 1500, the IP MTU, in
//! the sizes lasthop counts; the pseudocode's `maxpacket_`, which it says
//! should be the interface MTU). A packet that overflows the limit is
//! refused at the tail (Sec. 5: "drop-tail on overflow").

use super::{DropTail, QueueLimit, Removal, Waiting};
use lasthop_core::trace::DropCause;
use lasthop_core::{PacketPool, Time};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// CoDel settings of a link direction (the `codel` table of its `queue`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodelConfig {
    /// Acceptable standing queue delay, in ms (default 5: RFC 8289 Sec. 4.4).
    #[serde(default = "default_target_ms")]
    pub target_ms: f64,
    /// Sliding window over which the sojourn time must stay above target
    /// before a drop, in ms (default 100: RFC 8289 Sec. 4.5).
    #[serde(default = "default_interval_ms")]
    pub interval_ms: f64,
    /// With at most this many bytes waiting nothing is dropped (the
    /// pseudocode's `maxpacket_`; default 1500).
    #[serde(default = "default_mtu_bytes")]
    pub mtu_bytes: u32,
    /// Mark ECN-capable packets CE instead of dropping them (default true,
    /// as RED here marks).
    #[serde(default = "default_true")]
    pub ecn: bool,
}

impl Default for CodelConfig {
    fn default() -> CodelConfig {
        CodelConfig {
            target_ms: default_target_ms(),
            interval_ms: default_interval_ms(),
            mtu_bytes: default_mtu_bytes(),
            ecn: true,
        }
    }
}

pub(super) fn default_target_ms() -> f64 {
    5.0
}
pub(super) fn default_interval_ms() -> f64 {
    100.0
}
pub(super) fn default_mtu_bytes() -> u32 {
    1500
}
pub(super) fn default_true() -> bool {
    true
}

/// Check a duration in ms: finite, above zero, at most an hour.
pub(super) fn check_ms(field: &str, ms: f64) -> Result<(), (String, String)> {
    if !(ms.is_finite() && ms > 0.0 && ms <= 3_600_000.0) {
        return Err((field.to_string(), format!("must be a duration in ms above 0 and at most 3600000, got {ms}")));
    }
    Ok(())
}

/// Milliseconds to whole nanoseconds.
pub(super) fn ms_to_ns(ms: f64) -> u64 {
    (ms * 1e6).round() as u64
}

/// The settings CoDel's state machine reads, in ns and bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodelParams {
    pub target_ns: u64,
    pub interval_ns: u64,
    pub mtu_bytes: u32,
    pub ecn: bool,
}

impl CodelParams {
    /// From settings that passed `check_codel`.
    pub fn of(target_ms: f64, interval_ms: f64, mtu_bytes: u32, ecn: bool) -> CodelParams {
        CodelParams { target_ns: ms_to_ns(target_ms), interval_ns: ms_to_ns(interval_ms), mtu_bytes, ecn }
    }
}

/// Check CoDel's settings; an error names the field and says why.
pub(super) fn check_codel(target_ms: f64, interval_ms: f64, mtu_bytes: u32) -> Result<(), (String, String)> {
    check_ms("target_ms", target_ms)?;
    check_ms("interval_ms", interval_ms)?;
    if mtu_bytes == 0 {
        return Err(("mtu_bytes".into(), "must be at least 1".into()));
    }
    Ok(())
}

impl CodelConfig {
    /// Check the settings; an error names the field (relative to the
    /// `codel` table) and says why.
    pub fn validate(&self, _limit: QueueLimit) -> Result<(), (String, String)> {
        check_codel(self.target_ms, self.interval_ms, self.mtu_bytes)
    }

    pub fn params(&self) -> CodelParams {
        CodelParams::of(self.target_ms, self.interval_ms, self.mtu_bytes, self.ecn)
    }
}

/// A queue CoDel serves: it hands over its head, with the time it joined,
/// and drops or marks what CoDel says.
pub(super) trait CodelQueue {
    /// Take the head out: the packet and when it joined.
    fn take(&mut self) -> Option<(Waiting, Time)>;
    /// Bytes still waiting (after the head was taken).
    fn bytes(&self) -> u64;
    /// Drop `w`, taken out (cause `Early`).
    fn drop_taken(&mut self, w: Waiting);
    /// Set CE on `w` if it is ECN-capable; whether it was.
    fn mark(&mut self, w: Waiting) -> bool;
}

/// CoDel's state on one queue (RFC 8289 Sec. 5's `codel_queue_t` without
/// the queue itself).
#[derive(Clone, Debug, Default)]
pub struct CodelState {
    /// When the sojourn time, above target since, will have been so for an
    /// interval (`first_above_time_`; `None`: below target).
    first_above: Option<Time>,
    /// When the next drop is due in the dropping state.
    drop_next: Time,
    /// Drops (and marks) since the dropping state was entered.
    count: u32,
    /// `count` when the dropping state was last entered.
    lastcount: u32,
    dropping: bool,
}

impl CodelState {
    /// Whether CoDel is in its dropping state.
    pub fn dropping(&self) -> bool {
        self.dropping
    }

    /// Drops and marks in the current (or last) dropping state.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The pseudocode's `control_law`: `t + interval / sqrt(count)`.
    fn control_law(p: &CodelParams, t: Time, count: u32) -> Time {
        t.plus_ns((p.interval_ns as f64 / f64::from(count.max(1)).sqrt()) as u64)
    }

    /// The pseudocode's `dodequeue`: take the head and say whether it may
    /// be dropped (its sojourn time has been at or above target for an
    /// interval, and more than an MTU is left waiting).
    fn do_dequeue(&mut self, p: &CodelParams, now: Time, q: &mut impl CodelQueue) -> (Option<Waiting>, bool) {
        let Some((w, joined)) = q.take() else {
            self.first_above = None;
            return (None, false);
        };
        if now.since(joined) < p.target_ns || q.bytes() <= u64::from(p.mtu_bytes) {
            self.first_above = None;
            return (Some(w), false);
        }
        match self.first_above {
            None => {
                self.first_above = Some(now.plus_ns(p.interval_ns));
                (Some(w), false)
            }
            Some(t) => (Some(w), now >= t),
        }
    }

    /// The pseudocode's `dequeue` at `now`: the packet to serve, if any;
    /// the packets dropped on the way went to `q.drop_taken`.
    pub(super) fn dequeue(&mut self, p: &CodelParams, now: Time, q: &mut impl CodelQueue) -> Option<Waiting> {
        let (mut r, mut ok_to_drop) = self.do_dequeue(p, now, q);
        if self.dropping {
            if !ok_to_drop {
                // The sojourn time went below target: leave the dropping state.
                self.dropping = false;
            }
            // "A large backlog might result in drop rates so high that the
            // next drop should happen now, hence the 'while' loop."
            while self.dropping && now >= self.drop_next {
                let w = r.expect("ok_to_drop has a packet");
                self.count += 1;
                if p.ecn && q.mark(w) {
                    self.drop_next = Self::control_law(p, self.drop_next, self.count);
                    return Some(w);
                }
                q.drop_taken(w);
                (r, ok_to_drop) = self.do_dequeue(p, now, q);
                if ok_to_drop {
                    self.drop_next = Self::control_law(p, self.drop_next, self.count);
                } else {
                    self.dropping = false;
                }
            }
        } else if ok_to_drop {
            let w = r.expect("ok_to_drop has a packet");
            if p.ecn && q.mark(w) {
                r = Some(w);
            } else {
                q.drop_taken(w);
                r = self.do_dequeue(p, now, q).0;
            }
            self.dropping = true;
            // "If min went above TARGET close to when it last went below,
            // assume that the drop rate that controlled the queue on the
            // last cycle is a good starting point to control it now."
            let delta = self.count.wrapping_sub(self.lastcount);
            self.count = if delta > 1 && now.since(self.drop_next) < 16 * p.interval_ns { delta } else { 1 };
            self.drop_next = Self::control_law(p, now, self.count);
            self.lastcount = self.count;
        }
        r
    }
}

/// A direction's whole queue under CoDel: the state, and the time each
/// packet waiting joined (head first, as the packets in the
/// [`DropTail`]).
#[derive(Clone, Debug)]
pub struct Codel {
    params: CodelParams,
    state: CodelState,
    stamps: VecDeque<Time>,
}

/// The direction's queue as CoDel sees it at a dequeue.
struct Whole<'a> {
    q: &'a mut DropTail,
    stamps: &'a mut VecDeque<Time>,
    pool: &'a mut PacketPool,
    out: &'a mut Vec<Removal>,
    acks: &'a mut usize,
    marks: &'a mut u64,
}

impl CodelQueue for Whole<'_> {
    fn take(&mut self) -> Option<(Waiting, Time)> {
        let w = self.q.dequeue()?;
        Some((w, self.stamps.pop_front().expect("a stamp per packet")))
    }
    fn bytes(&self) -> u64 {
        self.q.bytes()
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

impl Codel {
    pub fn new(cfg: &CodelConfig) -> Codel {
        Codel { params: cfg.params(), state: CodelState::default(), stamps: VecDeque::new() }
    }

    /// A packet joined the tail at `now`.
    pub(super) fn on_join(&mut self, now: Time) {
        self.stamps.push_back(now);
    }

    /// Before `q`'s head leaves at `now`: drop (or mark) what CoDel says and
    /// bring the packet to serve to the head, if one is left. `acks` (pure
    /// acks waiting) and `marks` are the composed queue's counts.
    pub(super) fn before_dequeue(
        &mut self,
        q: &mut DropTail,
        now: Time,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
        acks: &mut usize,
        marks: &mut u64,
    ) {
        let mut whole = Whole { q, stamps: &mut self.stamps, pool, out, acks, marks };
        // The packet served is put back at the head, to leave at once as
        // DropTail's head; its stamp, taken with it, is not.
        if let Some(w) = self.state.dequeue(&self.params, now, &mut whole) {
            whole.q.insert_front(w);
        }
    }

    /// The state machine (for tests).
    pub fn state(&self) -> &CodelState {
        &self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A queue of packets given as (join time ns, size), for the state
    /// machine alone.
    struct Fake {
        packets: VecDeque<(Waiting, Time)>,
        dropped: Vec<u32>,
        marked: Vec<u32>,
        ect: bool,
    }

    impl CodelQueue for Fake {
        fn take(&mut self) -> Option<(Waiting, Time)> {
            self.packets.pop_front()
        }
        fn bytes(&self) -> u64 {
            self.packets.iter().map(|(w, _)| u64::from(w.size_bytes)).sum()
        }
        fn drop_taken(&mut self, w: Waiting) {
            self.dropped.push(w.tag);
        }
        fn mark(&mut self, w: Waiting) -> bool {
            if self.ect {
                self.marked.push(w.tag);
            }
            self.ect
        }
    }

    fn waiting(pool: &mut PacketPool, tag: u32) -> Waiting {
        Waiting { tag, ..super::super::tests::data(pool, 0, u64::from(tag), 1000) }
    }

    #[test]
    fn the_control_law_spaces_drops_by_interval_over_sqrt_count() {
        let p = CodelParams::of(5.0, 100.0, 1500, false);
        let t = Time::from_ms(1000);
        assert_eq!(CodelState::control_law(&p, t, 1), Time::from_ms(1100));
        assert_eq!(CodelState::control_law(&p, t, 4), Time::from_ms(1050));
        assert_eq!(CodelState::control_law(&p, t, 100), Time::from_ms(1010));
    }

    #[test]
    fn marks_instead_of_drops_when_ecn_capable() {
        // t0..: a standing queue of 200 packets all joined at 0; heads
        // leave every ms. Past 5 ms + 100 ms the first head above target
        // for an interval is marked (ECT) and still served.
        let p = CodelParams::of(5.0, 100.0, 1500, true);
        let mut pool = PacketPool::new();
        let mut q = Fake {
            packets: (0..200).map(|i| (waiting(&mut pool, i), Time::ZERO)).collect(),
            dropped: vec![],
            marked: vec![],
            ect: true,
        };
        let mut s = CodelState::default();
        let mut served = 0;
        for ms in 0..150 {
            served += usize::from(s.dequeue(&p, Time::from_ms(ms), &mut q).is_some());
        }
        assert!(q.dropped.is_empty(), "ECT packets are marked, never dropped");
        assert!(!q.marked.is_empty());
        assert_eq!(served, 150, "a marked packet is served");
    }

    /// An endless queue whose head has waited `sojourn` at `now`.
    struct Endless {
        now: Time,
        sojourn_ns: u64,
        head: Waiting,
        drops: Vec<u64>,
    }

    impl CodelQueue for Endless {
        fn take(&mut self) -> Option<(Waiting, Time)> {
            Some((self.head, Time(self.now.ns() - self.sojourn_ns)))
        }
        fn bytes(&self) -> u64 {
            1_000_000
        }
        fn drop_taken(&mut self, _: Waiting) {
            self.drops.push(self.now.ns() / 1_000_000);
        }
        fn mark(&mut self, _: Waiting) -> bool {
            false
        }
    }

    #[test]
    fn a_dropping_state_entered_again_soon_reuses_the_last_drop_rate() {
        // RFC 8289 Sec. 5: re-entering the dropping state within 16
        // intervals of the last drop due starts `count` at the drops of the
        // last cycle beyond its first (here 5 - 1 = 4), not at 1.
        let p = CodelParams::of(5.0, 100.0, 1500, false);
        let mut pool = PacketPool::new();
        let head = waiting(&mut pool, 1);
        let mut q = Endless { now: Time::ZERO, sojourn_ns: 0, head, drops: vec![] };
        let mut s = CodelState::default();
        for ms in 0..1000 {
            // 20 ms of sojourn, but 1 ms from 400 to 499 ms.
            q.sojourn_ns = if (400..500).contains(&ms) { 1_000_000 } else { 20_000_000 };
            q.now = Time::from_ms(100 + ms);
            s.dequeue(&p, q.now, &mut q);
        }
        // Cycle 1 (entered at 200 ms): drops at 200, 300, 371, 429, 479
        // ms (count 5 when it is left at 500 ms). Cycle 2 (above target
        // again from 600 ms, entered at 700): count starts at 4, so the next
        // drop comes 100 / sqrt(4) = 50 ms later (not 100 ms).
        assert_eq!(q.drops[..9], [200, 300, 371, 429, 479, 700, 750, 795, 836], "{:?}", q.drops);
    }
}
