//! Round-trip estimation and the retransmission timeout.
//!
//! Two modes:
//! - RFC 6298: SRTT/RTTVAR with alpha = 1/8, beta = 1/4, RTO = SRTT +
//!   max(G, 4·RTTVAR), clamped to [min, max], doubled on each timeout (5.5) and
//!   reset by the next valid sample.
//! - BSD (BSD/OS 2.1, the 1997 testbed's stack, i.e. 4.4BSD-Lite
//!   `tcp_xmit_timer`): the RTT is counted in 500 ms slow-timer ticks (`t_rtt`
//!   starts at 1 and grows at every tick), SRTT is kept scaled by 8 and RTTVAR
//!   by 4 in ticks, RTO = (srtt >> 3) + rttvar ticks, at least TCPTV_MIN = 2
//!   ticks, backed off by `tcp_backoff[]` and capped at 128 ticks. The timer
//!   itself counts down at the host's tick, so it fires at the N-th tick after
//!   it was armed: a "2-tick" timeout waits between 0.5 and 1 s.
//! - ns-2 (`TcpAgent::rtt_update`, `rtt_timeout`, `rtt_backoff` in ns-2.35
//!   tcp/tcp.cc, the simulator of seed 001): a sample is rounded to the
//!   nearest clock tick `tcpTick_` (the configured granularity), at least
//!   one; SRTT (ticks × 8) and RTTVAR (ticks × 4) follow BSD's integer
//!   arithmetic; RTO = (SRTT + 4·RTTVAR) ticks (`rttvar_exp_` 2), times the
//!   backoff, no less than `minrto_` times the backoff (`rfc2988_`), no more
//!   than `maxrto_`, at least two ticks; the timer fires exactly that long
//!   after it is armed. After the fourth consecutive backoff (`t_backoff_ >
//!   8`) SRTT is folded into RTTVAR and forgotten. With a 64 ms round trip
//!   and 100 ms ticks the samples are one tick and the RTO settles at three
//!   ticks (300 ms), where RFC 6298 with G = 100 ms gives its 200 ms floor.
//!   Departure: ns-2 with timestamps takes a sample from every new ack; the
//!   sender here times one segment at a time (Karn), as in the other modes.
//! - ns-2 legacy (the agent around 2000 with `rfc2988_` false and no
//!   timestamps, elaarag-002.md F7): the same estimator, but a sample is
//!   `int((tao + fmod(sendtime + boot_time_, tcpTick_)) / tcpTick_)`, the
//!   ticks crossed since the segment left on the agent's tick train, at
//!   least one (`rtt_update` without `ts_option_`); the timeout is
//!   `t_rtxcur_ · t_backoff_`, `t_backoff_` doubling only while below 64
//!   (`rtt_backoff`), then raised to `minrto_`, cut to `maxrto_`, at least
//!   two ticks (`rtt_timeout`'s branch for `rfc2988_` false).
//!
//! Karn's algorithm (a retransmitted segment is never timed) lives with the
//! sender, which decides what to time.

use crate::config::{RtoConfig, RtoMode};
use lasthop_core::rtt::SmoothedRtt;
use lasthop_core::Time;

/// RFC 6298 Sec. 5.7: the RTO data transmission starts with after a SYN
/// timed out (3 s).
const RFC6298_SYN_TIMEOUT_RTO_NS: u64 = 3_000_000_000;
/// 4.4BSD `tcp_backoff[]`.
pub(crate) const BSD_BACKOFF: [u64; 13] = [1, 2, 4, 8, 16, 32, 64, 64, 64, 64, 64, 64, 64];
/// 4.4BSD TCPTV_REXMTMAX, in ticks (64 s at PR_SLOWHZ = 2).
const BSD_REXMT_MAX_TICKS: u64 = 128;

/// The RTO is computed when the estimate changes (a sample, a timeout),
/// not each time the timer is armed (every ack of new data): `rto` comes
/// first (`repr(C)`) so that a sender arming its timer reads one word.
/// What an RFC 6298 sample reads and writes follows in one cache line (a
/// sender puts `rto` at the end of a line, so the sample's line is the
/// next; a run of thousands of flows has neither in the cache): the
/// smoothed RTT, the backoff, the mode and the RTO's bounds. The
/// configuration is kept field by field for that; the tick, BSD's and
/// ns-2's scaled estimate and the fine-grained SRTT of the other modes come
/// after.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct RttEstimator {
    /// The current RTO in ns ([`RttEstimator::rto_ns`]).
    rto: u64,
    /// RFC mode: smoothed RTT and variance.
    rfc: SmoothedRtt,
    /// Number of consecutive timeouts (`t_rxtshift`).
    backoff: u32,
    mode: RtoMode,
    granularity_ns: u64,
    min_ns: u64,
    max_ns: u64,
    initial_ns: u64,
    tick_ns: u64,
    tick_phase_ns: u64,
    /// BSD mode: `t_srtt` (ticks × 8) and `t_rttvar` (ticks × 4); 0 = no sample.
    bsd_srtt: i64,
    bsd_rttvar: i64,
    /// BSD and ns-2 modes: a smoothed RTT in ns (gain 1/8), the
    /// fine-grained round trip that SMART's "not retransmitted within the
    /// last round-trip time" needs, which BSD's 500 ms ticks cannot give.
    /// RFC mode's SRTT is that same average (same first value, same gain,
    /// same integer arithmetic), so it is not kept twice.
    fine_srtt_ns: Option<u64>,
}

impl RttEstimator {
    pub fn new(cfg: RtoConfig) -> RttEstimator {
        let RtoConfig { mode, min_ns, max_ns, initial_ns, granularity_ns, tick_ns, tick_phase_ns } = cfg;
        let mut r = RttEstimator {
            rto: 0,
            rfc: SmoothedRtt::default(),
            backoff: 0,
            mode,
            granularity_ns,
            min_ns,
            max_ns,
            initial_ns,
            tick_ns,
            // The phase within one tick, taken once (the deadline on every
            // ack of a BSD sender reads it).
            tick_phase_ns: {
                let tick = if mode == RtoMode::Ns2Legacy { granularity_ns } else { tick_ns };
                if tick > 0 {
                    tick_phase_ns % tick
                } else {
                    tick_phase_ns
                }
            },
            bsd_srtt: 0,
            bsd_rttvar: 0,
            fine_srtt_ns: None,
        };
        r.rto = r.compute_rto_ns();
        r
    }

    /// Smoothed RTT in ns at nanosecond resolution, in every mode.
    pub fn fine_srtt_ns(&self) -> Option<u64> {
        match self.mode {
            RtoMode::Rfc6298 => self.rfc.srtt_ns(),
            RtoMode::Bsd | RtoMode::Ns2 | RtoMode::Ns2Legacy => self.fine_srtt_ns,
        }
    }

    /// Smoothed RTT in ns, if any sample was taken.
    pub fn srtt_ns(&self) -> Option<u64> {
        match self.mode {
            RtoMode::Rfc6298 => self.rfc.srtt_ns(),
            RtoMode::Bsd => (self.bsd_srtt > 0).then(|| self.bsd_srtt as u64 * self.tick_ns / 8),
            RtoMode::Ns2 | RtoMode::Ns2Legacy => {
                (self.bsd_srtt > 0).then(|| self.bsd_srtt as u64 * self.granularity_ns / 8)
            }
        }
    }

    /// The number of the host's tick instants (phase + k·tick, k >= 0) at or before `t`.
    fn ticks_up_to(&self, t: Time) -> u64 {
        let phase = self.tick_phase_ns;
        if t.ns() < phase {
            0
        } else {
            (t.ns() - phase) / self.tick_ns + 1
        }
    }

    /// The number of tick instants in (from, to].
    fn ticks_between(&self, from: Time, to: Time) -> u64 {
        self.ticks_up_to(to).saturating_sub(self.ticks_up_to(from))
    }

    /// A valid RTT sample: a segment first sent at `sent_at` was acked at `now`.
    pub fn on_sample(&mut self, sent_at: Time, now: Time) {
        self.backoff = 0;
        let r = now.since(sent_at);
        if self.mode != RtoMode::Rfc6298 {
            self.fine_srtt_ns = Some(self.fine_srtt_ns.map_or(r, |s| (7 * s + r) / 8));
        }
        match self.mode {
            RtoMode::Rfc6298 => {
                self.rfc.on_sample(r);
            }
            RtoMode::Ns2 => {
                // int(tao / tcp_tick_ + 0.5), at least one tick.
                let tick = self.granularity_ns.max(1);
                let rtt = ((r + tick / 2) / tick).max(1) as i64;
                self.update_scaled(rtt, rtt);
            }
            RtoMode::Ns2Legacy => {
                // int((tao + fmod(sendtime + boot_time_, tick)) / tick): the
                // ticks at instants k·tick - boot_time_ in (sent_at, now].
                let tick = self.granularity_ns.max(1);
                let off = (sent_at.ns() + self.tick_phase_ns) % tick;
                let rtt = ((r + off) / tick).max(1) as i64;
                self.update_scaled(rtt, rtt);
            }
            RtoMode::Bsd => {
                // t_rtt: 1 when timing starts, +1 at every slow tick since.
                let rtt = 1 + self.ticks_between(sent_at, now) as i64;
                // 4.4BSD smooths rtt - 1 ("t_rtt" counted from 1) but seeds
                // "the unsmoothed rtt ... variance to half the rtt" with rtt.
                self.update_scaled(rtt - 1, rtt);
            }
        }
        self.rto = self.compute_rto_ns();
    }

    /// BSD's and ns-2's update of the scaled SRTT (ticks × 8) and RTTVAR
    /// (ticks × 4) by a sample of `rtt` ticks, or their first values from
    /// `first` ticks when there is no estimate.
    fn update_scaled(&mut self, rtt: i64, first: i64) {
        if self.bsd_srtt != 0 {
            let mut delta = rtt - (self.bsd_srtt >> 3);
            self.bsd_srtt += delta;
            if self.bsd_srtt <= 0 {
                self.bsd_srtt = 1;
            }
            delta = delta.abs() - (self.bsd_rttvar >> 2);
            self.bsd_rttvar += delta;
            if self.bsd_rttvar <= 0 {
                self.bsd_rttvar = 1;
            }
        } else {
            self.bsd_srtt = first << 3;
            self.bsd_rttvar = first << 1;
        }
    }

    /// A retransmission timeout fired: back off (RFC 6298 5.5, BSD t_rxtshift).
    pub fn on_timeout(&mut self) {
        self.backoff = (self.backoff + 1).min(BSD_BACKOFF.len() as u32 - 1);
        let ns2 = matches!(self.mode, RtoMode::Ns2 | RtoMode::Ns2Legacy);
        if ns2 && self.backoff > 3 && self.bsd_srtt != 0 {
            // rtt_backoff: "if backed off this far, clobber the srtt value,
            // storing it in the mean deviation instead".
            self.bsd_rttvar += self.bsd_srtt >> 3;
            self.bsd_srtt = 0;
        }
        self.rto = self.compute_rto_ns();
    }

    /// The backoff cleared, the RTO back to the current estimate (a
    /// sender reset on a move, elaarag-002.md F6).
    pub fn clear_backoff(&mut self) {
        self.backoff = 0;
        self.rto = self.compute_rto_ns();
    }

    /// The SYN-ACK arrived after the SYN was retransmitted (no sample:
    /// Karn). RFC 6298 mode follows Sec. 5.7: "If the timer expires awaiting
    /// the ACK of a SYN segment and the TCP implementation is using an RTO
    /// less than 3 seconds, the RTO MUST be re-initialized to 3 seconds when
    /// data transmission begins": the backoff is cleared and the RTO before
    /// the first sample is at least 3 s. BSD and ns-2 modes keep their
    /// backed-off timer until the first valid sample clears it, as
    /// 4.4BSD-Lite does (`tcp_input` in SYN_SENT calls `tcp_xmit_timer`,
    /// which zeroes `t_rxtshift`, only when the SYN was timed, and
    /// `tcp_timer` stops the timing of a retransmitted SYN).
    pub fn on_established_after_syn_timeout(&mut self) {
        if self.mode == RtoMode::Rfc6298 {
            self.backoff = 0;
            self.initial_ns = self.initial_ns.max(RFC6298_SYN_TIMEOUT_RTO_NS);
        }
        self.rto = self.compute_rto_ns();
    }

    /// The current RTO in ns, with backoff (for BSD, the tick count × tick).
    #[inline]
    pub fn rto_ns(&self) -> u64 {
        self.rto
    }

    /// The persist timer's base interval, srtt + 2·rttvar in ns (4.4BSD
    /// `tcp_setpersist`: `((t_srtt >> 2) + t_rttvar) >> 1` in ticks, its
    /// `t_srtt` scaled by 8 and `t_rttvar` by 4); before any sample, the
    /// initial RTO ([`crate::persist`] says where that departs).
    pub fn persist_base_ns(&self) -> u64 {
        match self.mode {
            RtoMode::Rfc6298 => match self.rfc.srtt_ns() {
                None => self.initial_ns,
                Some(srtt) => srtt + 2 * self.rfc.rttvar_ns(),
            },
            RtoMode::Bsd | RtoMode::Ns2 | RtoMode::Ns2Legacy if self.bsd_srtt == 0 => self.initial_ns,
            RtoMode::Bsd | RtoMode::Ns2 | RtoMode::Ns2Legacy => {
                let tick = if self.mode == RtoMode::Bsd { self.tick_ns } else { self.granularity_ns.max(1) };
                (((self.bsd_srtt >> 2) + self.bsd_rttvar) >> 1).max(0) as u64 * tick
            }
        }
    }

    fn compute_rto_ns(&self) -> u64 {
        match self.mode {
            RtoMode::Rfc6298 => {
                let base = match self.rfc.srtt_ns() {
                    None => self.initial_ns,
                    Some(srtt) => srtt + self.granularity_ns.max(4 * self.rfc.rttvar_ns()),
                };
                let base = base.clamp(self.min_ns, self.max_ns);
                base.saturating_mul(1u64 << self.backoff.min(20)).min(self.max_ns)
            }
            RtoMode::Bsd => self.bsd_rto_ticks() * self.tick_ns,
            RtoMode::Ns2 => {
                let backoff = 1u64 << self.backoff.min(20);
                let timeout = self.ns2_rtxcur_ns().max(self.min_ns).saturating_mul(backoff).min(self.max_ns);
                timeout.max(2 * self.granularity_ns.max(1))
            }
            RtoMode::Ns2Legacy => {
                // t_backoff_ stops doubling at 64; minrto_ after the backoff.
                let backoff = 1u64 << self.backoff.min(6);
                let timeout = self.ns2_rtxcur_ns().saturating_mul(backoff).max(self.min_ns).min(self.max_ns);
                timeout.max(2 * self.granularity_ns.max(1))
            }
        }
    }

    /// ns-2's `t_rtxcur_`, in ns: `rtxcur_init_` before any sample, else
    /// (SRTT + 2^`rttvar_exp_`·RTTVAR) ticks. After the fourth backoff
    /// folds SRTT into RTTVAR this gives the same value, which ns-2 keeps
    /// because only a sample recomputes it: (8·v + s) >> 3 = v + (s >> 3).
    fn ns2_rtxcur_ns(&self) -> u64 {
        if self.bsd_srtt == 0 && self.bsd_rttvar == 0 {
            return self.initial_ns;
        }
        (((self.bsd_rttvar << 3) + self.bsd_srtt) >> 3).max(0) as u64 * self.granularity_ns.max(1)
    }

    fn bsd_rto_ticks(&self) -> u64 {
        let tick = self.tick_ns;
        // TCPTV_REXMTMAX bounds the minimum too (a minimum above 64 s once
        // made this clamp panic).
        let min_ticks = self.min_ns.div_ceil(tick).clamp(1, BSD_REXMT_MAX_TICKS);
        let max_ticks = (self.max_ns / tick).clamp(min_ticks, BSD_REXMT_MAX_TICKS);
        let base = if self.bsd_srtt == 0 {
            self.initial_ns.div_ceil(tick)
        } else {
            ((self.bsd_srtt >> 3) + self.bsd_rttvar).max(0) as u64
        };
        (base * BSD_BACKOFF[self.backoff as usize]).clamp(min_ticks, max_ticks)
    }

    /// When a retransmission timer armed at `now` expires.
    pub fn deadline(&self, now: Time) -> Time {
        match self.mode {
            RtoMode::Rfc6298 | RtoMode::Ns2 | RtoMode::Ns2Legacy => now.plus_ns(self.rto),
            RtoMode::Bsd => {
                // The N-th slow tick strictly after `now`: tick instant number
                // ticks_up_to(now) + N, counting from 1.
                let phase = self.tick_phase_ns;
                let n = self.ticks_up_to(now) + self.bsd_rto_ticks();
                Time(phase + (n - 1) * self.tick_ns)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::time::NS_PER_MS;

    #[test]
    fn an_rfc6298_sample_touches_the_line_after_the_rto() {
        use std::mem::{offset_of, size_of};
        // The sender puts `rto` in the last word of a line (its layout test).
        for (field, end) in [
            ("rfc", offset_of!(RttEstimator, rfc) + size_of::<SmoothedRtt>()),
            ("backoff", offset_of!(RttEstimator, backoff) + 4),
            ("mode", offset_of!(RttEstimator, mode) + 1),
            ("granularity_ns", offset_of!(RttEstimator, granularity_ns) + 8),
            ("min_ns", offset_of!(RttEstimator, min_ns) + 8),
            ("max_ns", offset_of!(RttEstimator, max_ns) + 8),
            ("initial_ns", offset_of!(RttEstimator, initial_ns) + 8),
        ] {
            assert!(offset_of!(RttEstimator, rto) + 8 < end && end <= 8 + 64, "{field} ends at {end}");
        }
    }

    #[test]
    fn the_fine_srtt_is_the_same_average_in_every_mode() {
        // Gain 1/8 from the first sample, in integer ns: RFC 6298's SRTT in
        // RFC mode, a separate average in the others.
        let samples = [100_000_123u64, 37_000_001, 250_000_007, 99, 64_000_000];
        for cfg in [RtoConfig::rfc6298(), RtoConfig::bsd(), RtoConfig { mode: RtoMode::Ns2, ..RtoConfig::rfc6298() }] {
            let mut r = RttEstimator::new(cfg);
            assert_eq!(r.fine_srtt_ns(), None);
            let mut avg: Option<u64> = None;
            let mut now = Time::ZERO;
            for s in samples {
                r.on_sample(now, now.plus_ns(s));
                now = now.plus_ns(s);
                avg = Some(avg.map_or(s, |a| (7 * a + s) / 8));
                assert_eq!(r.fine_srtt_ns(), avg, "{:?}", cfg.mode);
            }
        }
    }

    #[test]
    fn rfc6298_first_sample_and_update() {
        let mut r = RttEstimator::new(RtoConfig { min_ns: 0, ..RtoConfig::rfc6298() });
        assert_eq!(r.rto_ns(), 1_000 * NS_PER_MS, "initial RTO is 1 s (2.1)");
        r.on_sample(Time::ZERO, Time::from_ms(100));
        // 2.2: SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR = 300 ms.
        assert_eq!(r.rto_ns(), 300 * NS_PER_MS);
        r.on_sample(Time::ZERO, Time::from_ms(200));
        // RTTVAR = 3/4·50 + 1/4·100 = 62.5 ms; SRTT = 7/8·100 + 1/8·200 = 112.5 ms.
        assert_eq!(r.rto_ns(), 112_500_000 + 250_000_000);
    }

    #[test]
    fn rfc6298_backoff_doubles_and_clamps() {
        let mut r = RttEstimator::new(RtoConfig::rfc6298());
        r.on_sample(Time::ZERO, Time::from_ms(10));
        assert_eq!(r.rto_ns(), 1_000 * NS_PER_MS, "min RTO 1 s (2.4)");
        r.on_timeout();
        assert_eq!(r.rto_ns(), 2_000 * NS_PER_MS);
        for _ in 0..10 {
            r.on_timeout();
        }
        assert_eq!(r.rto_ns(), 60_000 * NS_PER_MS, "max 60 s");
        r.on_sample(Time::ZERO, Time::from_ms(10));
        assert_eq!(r.rto_ns(), 1_000 * NS_PER_MS, "a new sample resets the backoff");
    }

    #[test]
    fn bsd_lan_rtt_settles_at_three_ticks() {
        let mut r = RttEstimator::new(RtoConfig::bsd());
        assert_eq!(r.rto_ns(), 6_000 * NS_PER_MS, "initial t_rxtcur is 12 ticks");
        // A 20 ms RTT that crosses no tick: t_rtt = 1.
        r.on_sample(Time::from_ms(100), Time::from_ms(120));
        // srtt = 8, rttvar = 2 -> (8 >> 3) + 2 = 3 ticks.
        assert_eq!(r.rto_ns(), 1_500 * NS_PER_MS);
        for _ in 0..20 {
            r.on_sample(Time::from_ms(100), Time::from_ms(120));
        }
        // 4.4BSD's integer arithmetic settles at t_srtt = 7, t_rttvar = 3 for
        // sub-tick RTTs: (7 >> 3) + 3 = 3 ticks, not the 2-tick minimum.
        assert_eq!(r.rto_ns(), 1_500 * NS_PER_MS);
        // Armed at 0.1 s, ticks at 0.5, 1.0 and 1.5 s: fires at 1.5 s.
        assert_eq!(r.deadline(Time::from_ms(100)), Time::from_ms(1_500));
        // Armed just after a tick, it waits almost the full three ticks.
        assert_eq!(r.deadline(Time::from_ms(501)), Time::from_ms(2_000));
        // Armed exactly on a tick, the tick at that instant does not count.
        assert_eq!(r.deadline(Time::from_ms(500)), Time::from_ms(2_000));
        r.on_timeout();
        assert_eq!(r.rto_ns(), 3_000 * NS_PER_MS, "tcp_backoff[1] = 2");
        // The minimum clamps: with a 4-tick minimum the same estimator gives 4.
        let mut r = RttEstimator::new(RtoConfig { min_ns: 2_000 * NS_PER_MS, ..RtoConfig::bsd() });
        for _ in 0..20 {
            r.on_sample(Time::from_ms(100), Time::from_ms(120));
        }
        assert_eq!(r.rto_ns(), 2_000 * NS_PER_MS);
    }

    #[test]
    fn bsd_ticks_follow_the_phase() {
        let cfg = RtoConfig { tick_phase_ns: 200 * NS_PER_MS, ..RtoConfig::bsd() };
        let mut r = RttEstimator::new(cfg);
        for _ in 0..20 {
            r.on_sample(Time::from_ms(100), Time::from_ms(120));
        }
        // Ticks at 0.2, 0.7, 1.2 s: armed at 0.1 s, the third tick is 1.2 s.
        assert_eq!(r.deadline(Time::from_ms(100)), Time::from_ms(1_200));
        // A sample that crosses the tick at 0.2 s counts t_rtt = 2.
        let mut r = RttEstimator::new(cfg);
        r.on_sample(Time::from_ms(190), Time::from_ms(210));
        assert_eq!(r.rto_ns(), (2 + 4) * 500 * NS_PER_MS);
    }

    #[test]
    fn ns2_rounds_samples_to_ticks_and_settles_at_three_ticks() {
        let mut r = RttEstimator::new(RtoConfig::ns2());
        assert_eq!(r.rto_ns(), 3_000 * NS_PER_MS, "rtxcur_init_ 3 s");
        // seed 001's 64 ms round trip: int(0.64 + 0.5) = 1 tick of 100 ms;
        // srtt = 8, rttvar = 2: (16 + 8) >> 3 = 3 ticks.
        r.on_sample(Time::ZERO, Time::from_ms(64));
        assert_eq!(r.rto_ns(), 300 * NS_PER_MS);
        for _ in 0..50 {
            r.on_sample(Time::ZERO, Time::from_ms(64));
        }
        // rttvar >> 2 is 0 while rttvar < 4, so it never decays: still 3 ticks.
        assert_eq!(r.rto_ns(), 300 * NS_PER_MS);
        // A 340 ms round trip (a 1 KB reverse packet at 28.8 kb/s in the way):
        // 3 ticks, delta 2: srtt 10, rttvar 2 + (2 - 0) = 4 -> (32 + 10) >> 3 = 5.
        r.on_sample(Time::ZERO, Time::from_ms(340));
        assert_eq!(r.rto_ns(), 500 * NS_PER_MS);
    }

    #[test]
    fn ns2_backoff_doubles_from_the_floor_and_forgets_srtt_after_four() {
        let mut r = RttEstimator::new(RtoConfig { min_ns: 400 * NS_PER_MS, ..RtoConfig::ns2() });
        r.on_sample(Time::ZERO, Time::from_ms(20)); // at least one tick: 3 ticks
        assert_eq!(r.rto_ns(), 400 * NS_PER_MS, "minrto_ above rtxcur");
        r.on_timeout();
        assert_eq!(r.rto_ns(), 800 * NS_PER_MS, "rfc2988_: minrto_ * t_backoff_");
        for _ in 0..3 {
            r.on_timeout();
        }
        assert_eq!(r.srtt_ns(), None, "t_backoff_ 16 > 8 clobbers srtt");
        assert_eq!(r.rto_ns(), 16 * 400 * NS_PER_MS);
        for _ in 0..20 {
            r.on_timeout();
        }
        assert_eq!(r.rto_ns(), 60 * 1_000 * NS_PER_MS, "maxrto_ 60 s");
        let t = Time::from_ms(1_000);
        r.on_sample(Time::ZERO, Time::from_ms(120));
        assert_eq!(r.deadline(t), t.plus_ns(r.rto_ns()), "an exact timer, no tick alignment");
        assert_eq!(r.rto_ns(), 400 * NS_PER_MS, "a new sample resets the backoff");
    }

    /// elaarag-002.md F7: ns-2's agent of about 2000 without timestamps
    /// counts the ticks crossed since the segment left (on its own tick
    /// train, `boot_time_`), where `ns2` rounds the round trip to the
    /// nearest tick.
    #[test]
    fn ns2_legacy_counts_the_ticks_crossed_on_the_agents_train() {
        let srtt_ticks = |phase_ms: u64, sent_ms: u64, acked_ms: u64| {
            let cfg = RtoConfig { tick_phase_ns: phase_ms * NS_PER_MS, ..RtoConfig::ns2_legacy() };
            let mut r = RttEstimator::new(cfg);
            r.on_sample(Time::from_ms(sent_ms), Time::from_ms(acked_ms));
            r.srtt_ns().unwrap() / (100 * NS_PER_MS)
        };
        // int((tao + fmod(sendtime + boot, 0.1)) / 0.1), at least one.
        assert_eq!(srtt_ticks(0, 50, 120), 1, "one tick (at 100 ms) crossed");
        assert_eq!(srtt_ticks(0, 10, 80), 1, "none crossed: at least one");
        assert_eq!(srtt_ticks(0, 95, 205), 2, "ticks at 100 and 200 ms");
        assert_eq!(srtt_ticks(0, 0, 160), 1, "160 ms from a tick: one (ns2 rounds it to two)");
        assert_eq!(srtt_ticks(30, 50, 90), 1, "the tick at 70 ms (boot_time_ 30 ms)");
        assert_eq!(srtt_ticks(30, 65, 265), 2, "the ticks at 70 and 170 ms (270 ms is later)");
        assert_eq!(srtt_ticks(30, 75, 265), 1, "the tick at 170 ms only");
        let mut rounded = RttEstimator::new(RtoConfig::ns2());
        rounded.on_sample(Time::ZERO, Time::from_ms(160));
        assert_eq!(rounded.srtt_ns(), Some(200 * NS_PER_MS));
    }

    /// With `rfc2988_` false `t_backoff_` stops doubling at 64 and
    /// `minrto_` bounds the backed-off timeout, not the base; ns-2.35's
    /// RFC 2988 branch doubles on to `maxrto_` and backs off from the
    /// raised base.
    #[test]
    fn ns2_legacy_backs_off_to_64_times_and_raises_to_minrto_after_the_backoff() {
        let mut r = RttEstimator::new(RtoConfig::ns2_legacy());
        assert_eq!(r.rto_ns(), 6_000 * NS_PER_MS, "rtxcur_init_ 6 s");
        let s = 1_000 * NS_PER_MS;
        let mut modern = RttEstimator::new(RtoConfig { initial_ns: 6 * s, max_ns: 100_000 * s, ..RtoConfig::ns2() });
        for _ in 0..8 {
            r.on_timeout();
            modern.on_timeout();
        }
        assert_eq!(r.rto_ns(), 64 * 6_000 * NS_PER_MS, "t_backoff_ caps at 64");
        assert_eq!(modern.rto_ns(), 256 * 6_000 * NS_PER_MS, "rfc2988_ doubles on");
        let cfg = RtoConfig { min_ns: 1_000 * NS_PER_MS, ..RtoConfig::ns2_legacy() };
        let mut r = RttEstimator::new(cfg);
        r.on_sample(Time::ZERO, Time::from_ms(50)); // one tick: 300 ms
        assert_eq!(r.rto_ns(), 1_000 * NS_PER_MS, "raised to minrto_");
        r.on_timeout();
        assert_eq!(r.rto_ns(), 1_000 * NS_PER_MS, "600 ms backed off, raised to minrto_ again");
        r.on_timeout();
        assert_eq!(r.rto_ns(), 1_200 * NS_PER_MS, "4 x 300 ms");
        let mut r = RttEstimator::new(RtoConfig::ns2_legacy());
        r.on_sample(Time::ZERO, Time::from_ms(50));
        assert_eq!(r.rto_ns(), 300 * NS_PER_MS, "no minrto_: three ticks");
        let t = Time::from_ms(1_234);
        assert_eq!(r.deadline(t), t.plus_ns(300 * NS_PER_MS), "an exact timer");
    }
}
