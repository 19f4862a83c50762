//! Sender adaptation, SA (seed 001 Secs. 6.3, 8.3): a sender that stays
//! well behaved when acks are few and far between (ACC, ACK filtering).
//!
//! 1. Window growth by data acknowledged, not by ack count: "an ack that
//!    acknowledges n segments grows the window as if n separate acks had
//!    arrived" (ns-2 `TcpAsymAgent::recv_newack_helper` calls `opencwnd()`
//!    once per segment acked). The testbed's pseudocode counts one increase
//!    per two segments (`incr_count = acked / (2 * MSS)`, "equivalent to TCP
//!    Reno with standard delayed acks"; the "2" is lost from the seed text,
//!    ambiguity 5): `segments_per_increase` is 1 (simulation, ns-2) or 2
//!    (testbed). Bytes short of a whole increase carry over to the next ack
//!    (the testbed's integer division would drop them, so that an ack per
//!    segment would never open the window with 2).
//! 2. Burst limiting with pacing: never more than `maxburst` segments back
//!    to back (at one instant); if the window allows more, a burst timer is
//!    set for maxburst · srtt_exact / window, "bursts of size maxburst at the
//!    connection's rate cwnd/srtt", and the next burst leaves when it fires.
//!    While it is pending an arriving ack does not trigger transmission
//!    (the testbed pseudocode's "if burst timer pending: return"; ns-2
//!    `send_much`). The window is min(cwnd, rwnd) in bytes, as ns-2's
//!    `window()` (the paper writes cwnd), not truncated to whole segments.
//!    A retransmission the loss recovery has queued (fast retransmit, a
//!    partial ack's hole) is not held back by the timer (ns-2 sends those
//!    with `output()`, outside `send_much`), but counts toward the burst.
//!    With `timer` set (the testbed, Sec. 9.1.1), the burst timer is a BSD
//!    kernel timeout on the host's coarse clock ([`KernelClock::timeout`]):
//!    the wait maxburst · srtt_exact / window truncated to whole ticks, at
//!    least one, counted from the next tick; never on the tick it was armed
//!    in, so at most one burst leaves per tick: "the throughput is limited by the 10 ms granularity of the
//!    software timer used to schedule bursts: with maxburst 1 the maximum
//!    is one segment every 10 ms, 1.17 Mb/s with 1460-byte segments" [T,
//!    digits D]. Without it (the simulations, ns-2) the timer is exact.
//! 3. srtt_exact: an EWMA with gain g = 1/8 (ns-2 `Agent/TCP/Asym set g_
//!    0.125`) of the timestamp-echo round trip, sampled on every ack of new
//!    data (ns-2); the timestamp option carries the sender's clock in ns.
//!    Before the first sample the wait is 0, as ns-2 with `t_exact_srtt_`
//!    still 0 (in practice the first ack of new data takes a sample before
//!    any burst can be cut). srtt_exact paces bursts only: it does not feed
//!    the retransmission timer, which keeps its one-timed-segment (Karn)
//!    estimator so that enabling SA leaves the RTO rules unchanged
//!    (departure: the testbed also converted srtt_exact into coarse ticks
//!    as the RTO's srtt).
//!
//! The fast-retransmit request (Sec. 6.3, part 4) is a separate option of
//! the sender and receiver (see [`crate::receiver`] and [`crate::sender`]).

use lasthop_core::tick::KernelClock;
use lasthop_core::Time;

/// SA parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdaptationConfig {
    /// Most segments sent back to back (>= 1).
    pub maxburst: u32,
    /// Segments acknowledged per window increase: 1 (ns-2, the
    /// simulations) or 2 (the testbed pseudocode).
    pub segments_per_increase: u32,
    /// The host's kernel clock, on whose ticks the burst timer fires (the
    /// testbed); `None`: an exact timer (the simulations).
    pub timer: Option<KernelClock>,
}

/// The sender's SA state.
#[derive(Clone, Copy, Debug)]
pub struct SenderAdaptation {
    cfg: AdaptationConfig,
    /// srtt_exact, in ns, once a sample was taken.
    srtt_exact_ns: Option<u64>,
    /// Acknowledged bytes not yet worth a whole increase.
    carry_bytes: u64,
    /// When the burst timer fires, or NEVER.
    burst_at: Time,
    /// The instant of the current burst and the segments sent in it.
    burst_started: Time,
    burst_sent: u32,
}

impl SenderAdaptation {
    pub fn new(cfg: AdaptationConfig) -> SenderAdaptation {
        SenderAdaptation {
            cfg,
            srtt_exact_ns: None,
            carry_bytes: 0,
            burst_at: Time::NEVER,
            burst_started: Time::ZERO,
            burst_sent: 0,
        }
    }

    pub fn srtt_exact_ns(&self) -> Option<u64> {
        self.srtt_exact_ns
    }

    /// A round-trip sample from a timestamp echo, in ns: srtt_exact = g·sample
    /// + (1 - g)·srtt_exact, g = 1/8; the first sample is taken as it is.
    pub fn on_rtt_sample(&mut self, sample_ns: u64) {
        self.srtt_exact_ns = Some(self.srtt_exact_ns.map_or(sample_ns, |s| (7 * s + sample_ns) / 8));
    }

    /// Window increases an ack of `acked_bytes` new bytes is worth: as many
    /// as separate acks of `segments_per_increase` segments each would give.
    pub fn increases(&mut self, acked_bytes: u64, mss_bytes: u64) -> u64 {
        let unit = mss_bytes * u64::from(self.cfg.segments_per_increase.max(1));
        let total = self.carry_bytes + acked_bytes;
        self.carry_bytes = total % unit;
        total / unit
    }

    /// Called before each transmission attempt at `now`: a due burst timer
    /// expires, and a new instant starts a new burst.
    pub fn on_instant(&mut self, now: Time) {
        if self.burst_at != Time::NEVER && now >= self.burst_at {
            self.burst_at = Time::NEVER;
            self.burst_sent = 0;
            self.burst_started = now;
        } else if now != self.burst_started {
            self.burst_started = now;
            self.burst_sent = 0;
        }
    }

    /// The burst timer is pending: new transmissions wait for it.
    pub fn timer_pending(&self) -> bool {
        self.burst_at != Time::NEVER
    }

    /// `maxburst` segments have left at this instant.
    pub fn burst_full(&self) -> bool {
        self.burst_sent >= self.cfg.maxburst
    }

    /// A segment left.
    pub fn on_sent(&mut self) {
        self.burst_sent += 1;
    }

    /// maxburst · srtt_exact / window, in ns, for a window of `window_bytes`.
    pub fn burst_wait_ns(&self, mss_bytes: u64, window_bytes: u64) -> u64 {
        let srtt = u128::from(self.srtt_exact_ns.unwrap_or(0));
        let window = u128::from(window_bytes.max(mss_bytes).max(1));
        let wait = u128::from(self.cfg.maxburst) * srtt * u128::from(mss_bytes) / window;
        wait.min(u128::from(u64::MAX / 2)) as u64
    }

    /// More is sendable after a full burst: the next burst leaves after
    /// [`SenderAdaptation::burst_wait_ns`].
    pub fn arm(&mut self, now: Time, mss_bytes: u64, window_bytes: u64) {
        let due = now.plus_ns(self.burst_wait_ns(mss_bytes, window_bytes));
        self.burst_at = match self.cfg.timer {
            None => due,
            Some(clock) => clock.timeout(now, due),
        };
    }

    /// When the burst timer fires, or NEVER.
    pub fn poll_at(&self) -> Time {
        self.burst_at
    }

    /// Stop the burst timer (the transfer stopped, or a timeout resends at once).
    pub fn cancel(&mut self) {
        self.burst_at = Time::NEVER;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_counts_segments_acknowledged_with_carry() {
        let mut sa = SenderAdaptation::new(AdaptationConfig { maxburst: 3, segments_per_increase: 2, timer: None });
        assert_eq!(sa.increases(1000, 1000), 0, "one segment: half an increase");
        assert_eq!(sa.increases(1000, 1000), 1, "the carried half completes it");
        assert_eq!(sa.increases(5000, 1000), 2);
        assert_eq!(sa.increases(1000, 1000), 1, "5000 left 1000 over");
        let mut sim = SenderAdaptation::new(AdaptationConfig { maxburst: 3, segments_per_increase: 1, timer: None });
        assert_eq!(sim.increases(4000, 1000), 4);
    }

    #[test]
    fn srtt_exact_is_an_eighth_gain_ewma() {
        let mut sa = SenderAdaptation::new(AdaptationConfig { maxburst: 3, segments_per_increase: 1, timer: None });
        sa.on_rtt_sample(80);
        assert_eq!(sa.srtt_exact_ns(), Some(80));
        sa.on_rtt_sample(160);
        assert_eq!(sa.srtt_exact_ns(), Some(90));
        // 3 · 90 ns · 1000 / 4500 bytes = 60 ns.
        assert_eq!(sa.burst_wait_ns(1000, 4500), 60);
    }

    #[test]
    fn a_ticked_burst_timer_fires_on_the_next_tick_at_the_earliest() {
        // Ticks every 10 ms at phase 2 ms; srtt_exact 80 ms, window 40
        // segments: the exact wait for maxburst 1 is 2 ms.
        let clock = KernelClock::new(10_000_000, 2_000_000);
        let cfg = AdaptationConfig { maxburst: 1, segments_per_increase: 2, timer: Some(clock) };
        let mut sa = SenderAdaptation::new(cfg);
        sa.on_rtt_sample(80_000_000);
        assert_eq!(sa.burst_wait_ns(1460, 40 * 1460), 2_000_000);
        // t = 12 ms (a tick): the timer fires at 22 ms, not 14 ms.
        sa.arm(Time(12_000_000), 1460, 40 * 1460);
        assert_eq!(sa.poll_at(), Time(22_000_000));
        // t = 19 ms: the coming tick, 22 ms.
        sa.arm(Time(19_000_000), 1460, 40 * 1460);
        assert_eq!(sa.poll_at(), Time(22_000_000));
        // A window of 2 segments: 40 ms, four whole ticks from the coming
        // one: 52 ms (7 ms early, as hzto() truncates).
        sa.arm(Time(19_000_000), 1460, 2 * 1460);
        assert_eq!(sa.poll_at(), Time(52_000_000));
        // Exact (the simulations): 19 + 2 ms.
        let mut exact = SenderAdaptation::new(AdaptationConfig { timer: None, ..cfg });
        exact.on_rtt_sample(80_000_000);
        exact.arm(Time(19_000_000), 1460, 40 * 1460);
        assert_eq!(exact.poll_at(), Time(21_000_000));
    }
}
