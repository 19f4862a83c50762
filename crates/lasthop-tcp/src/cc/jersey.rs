//! TCP-Jersey (Kai Xu, Ye Tian, Nirwan Ansari, "TCP-Jersey for wireless IP
//! communications", IEEE JSAC 22(4):747-756, May 2004), as seed 004 Sec. 2.2
//! describes it and shared/reference/yun-004.md Sec. 3 reads it. Two parts:
//! this sender-side controller, and the routers' congestion warning (CW),
//! a DropTail queue that marks every ECN-capable packet while its RED-style
//! average exceeds a threshold (lasthop-net `queue/cw.rs`, the `jersey_cw`
//! table of a `queue`); the receiver echoes the marks as ECN-Echo
//! ([`AckSample::ece`]).
//!
//! The available bandwidth estimator (ABE), per ack n arriving at t_n and
//! delivering L_n bytes (the paper's eq. (1) as the reference gives it):
//!
//! ```text
//! R_n = (RTT · R_(n-1) + L_n) / ((t_n - t_(n-1)) + RTT)
//! ownd = R_n · RTT / MSS            (the optimal window, in segments)
//! ```
//!
//! a time-sliding-window average over one RTT. Rules (seed 004 Sec. 2.2):
//!
//! - in congestion avoidance, an ack of new data carrying CW: rate control,
//!   ssthresh = cwnd = ownd (the ack does not open the window);
//! - a fast retransmit whose duplicate acks carry CW: rate control as the
//!   loss's cut (ssthresh = ownd; the recovery's window rule follows, and
//!   its exit leaves cwnd = ssthresh = ownd);
//! - a fast retransmit whose duplicate acks carry no CW: retransmit, cwnd
//!   and ssthresh kept ([`Controller::judge`] answers
//!   [`LossCause::Corruption`]);
//! - a timeout: Reno's ("it has no solution against timeouts due to
//!   wireless losses", seed 004 Sec. 2.2); slow start as Reno.
//!
//! An ECN-Echo event the sender raises (RFC 3168's once-per-window answer)
//! asks this controller's ssthresh too: ownd in congestion avoidance (the
//! same rate control), the current ssthresh in slow start (no cut, as the
//! rule applies in congestion avoidance only).
//!
//! Readings and departures (the paper's own text could not be read here:
//! only the seed's summary, the reference's reading and the abstract, and
//! the ns-3 student port Vivek-anand-jain/Implementation-of-TCP-Jersey-in-ns-3
//! `src/internet/model/tcp-jersey.cc`, read, not copied):
//!
//! - RTT in the ABE and in ownd is "the RTT estimate": a smoothed RTT kept
//!   here from the samples ([`AckSample::rtt_ns`]) with gain `rtt_gain`
//!   (default 1/8, RFC 6298's alpha; 1 takes the latest sample, as the
//!   ns-3 port does). Unverified which the paper uses.
//! - The ABE's averaging window is `window_rtts` · RTT (default 1: eq. (1)
//!   as given; the ns-3 port calls it K, default 1). The ns-3 port updates
//!   the estimate at most once per RTT; here every ack updates it, as eq.
//!   (1) is written per ack.
//! - L_n is the growth of [`AckSample::delivered_bytes`] (cumulatively and
//!   selectively acknowledged bytes): a duplicate ack without SACK
//!   delivers 0 and lowers the estimate by the time it took. The first ack
//!   with an RTT estimate is taken with t_n - t_(n-1) = 0 (R_1 = L_1/RTT,
//!   R_0 = 0); before any RTT sample the estimate waits.
//! - ownd is rounded down to whole segments, at least 2 (RFC 5681's floor,
//!   as the ns-3 port); with no estimate yet a loss takes Reno's cut.
//! - "Three CW-marked duplicate acks": the loss is judged congestion if at
//!   least min(3, d) of the d duplicate acks since the last new ack carried
//!   CW (3 = the paper's n, RFC 5681's DupThresh; fewer when the sender
//!   detected the loss after fewer duplicates); with no duplicate ack, the
//!   latest ack's CW decides.
//! - Rate control sets cwnd = ownd even above the current cwnd (the rule
//!   as stated); the sender's own ECN-Echo cut (if it runs) never raises.
//! - CW constants (the queue's weight and threshold) are the router's,
//!   unverified; see `queue/cw.rs`.

use super::{AckSample, CongestionEvent, CongestionKind, Controller, LossCause, Param, Window, MAX_PARAMS};
use lasthop_core::time::Time;

pub const NAME: &str = "jersey";

/// Reads no timestamps.
pub const NEEDS_TIMESTAMPS: bool = false;

pub const PARAMS: &[Param] = &[
    Param {
        name: "window_rtts",
        default: 1.0,
        source: "ABE averaging window in RTTs: eq. (1) of Xu, Tian, Ansari 2004 as seed 004 / yun-004.md Sec. 3 give it \
                 (window = RTT); the paper's text not checked; the ns-3 port's K, default 1",
    },
    Param {
        name: "rtt_gain",
        default: 0.125,
        source: "gain of the RTT estimate the ABE and ownd use: RFC 6298's alpha = 1/8 (the paper's 'RTT estimate', \
                 not checked; 1 = the latest sample, as the ns-3 port)",
    },
];

/// Duplicate acks that make "n duplicate ACKs with CW" (the paper's n; RFC
/// 5681's DupThresh).
const MARKED_DUPS: u32 = 3;

#[derive(Clone, Debug)]
pub struct Jersey {
    window_rtts: f64,
    rtt_gain: f64,
    /// Smoothed RTT, in ns (0: no sample yet).
    srtt_ns: f64,
    /// R_n, in bytes per second.
    rate: f64,
    /// t_(n-1): the last ack the estimate took.
    last_ack: Option<Time>,
    /// Bytes delivered at the last ack.
    delivered: u64,
    /// Duplicate acks since the last ack of new data, and how many carried CW.
    dups: u32,
    marked_dups: u32,
    /// The latest ack carried CW.
    last_ece: bool,
    /// The latest ack made rate control: it does not open the window.
    held: bool,
}

impl Jersey {
    pub fn new(params: &[f64; MAX_PARAMS], _w: &Window) -> Self {
        Jersey {
            window_rtts: params[0],
            rtt_gain: params[1].clamp(0.0, 1.0),
            srtt_ns: 0.0,
            rate: 0.0,
            last_ack: None,
            delivered: 0,
            dups: 0,
            marked_dups: 0,
            last_ece: false,
            held: false,
        }
    }

    /// R_n, the available bandwidth estimate, in bytes per second.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The RTT estimate the ABE uses, in seconds (0 before any sample).
    pub fn rtt_secs(&self) -> f64 {
        self.srtt_ns / 1e9
    }

    /// ownd in bytes: R_n · RTT / MSS whole segments, at least 2; `None`
    /// before the estimate has a value.
    pub fn ownd_bytes(&self, w: &Window) -> Option<u64> {
        if self.rate <= 0.0 || self.srtt_ns <= 0.0 {
            return None;
        }
        let segments = (self.rate * self.rtt_secs() / w.mss() as f64).floor() as u64;
        Some(segments.max(2) * w.mss())
    }

    /// Rate control: ssthresh = cwnd = ownd.
    fn rate_control(&mut self, w: &mut Window) {
        if let Some(ownd) = self.ownd_bytes(w) {
            w.set_ssthresh(ownd);
            w.set_cwnd(w.ssthresh());
        }
    }

    /// The ABE's step for an ack at `now` that brought the total delivered
    /// to `delivered`.
    fn estimate(&mut self, now: Time, delivered: u64) {
        let l = delivered.saturating_sub(self.delivered) as f64;
        self.delivered = self.delivered.max(delivered);
        if self.srtt_ns <= 0.0 {
            return;
        }
        let dt = self.last_ack.map_or(0.0, |t| now.since(t) as f64 / 1e9);
        let tw = self.window_rtts * self.rtt_secs();
        if dt + tw > 0.0 {
            self.rate = (tw * self.rate + l) / (dt + tw);
        }
        self.last_ack = Some(now);
    }
}

impl Controller for Jersey {
    fn on_every_ack(&mut self, w: &mut Window, now: Time, s: &AckSample) {
        if let Some(r) = s.rtt_ns {
            let r = r as f64;
            self.srtt_ns = if self.srtt_ns <= 0.0 { r } else { self.srtt_ns + self.rtt_gain * (r - self.srtt_ns) };
        }
        self.estimate(now, s.delivered_bytes);
        self.last_ece = s.ece;
        self.held = false;
        if s.dup {
            self.dups += 1;
            self.marked_dups += u32::from(s.ece);
            return;
        }
        if s.acked_bytes > 0 {
            self.dups = 0;
            self.marked_dups = 0;
            // A CW-marked new ack in congestion avoidance: rate control.
            if s.ece && !s.in_recovery && !w.in_slow_start() {
                self.rate_control(w);
                self.held = true;
            }
        }
    }

    fn on_ack(&mut self, w: &mut Window, _now: Time, s: &AckSample) {
        if !self.held {
            w.grow(s.acked_bytes, s.flight_bytes);
        }
    }

    fn judge(&mut self, _w: &Window, _now: Time, ev: &CongestionEvent) -> LossCause {
        if ev.cause == LossCause::Corruption || ev.kind != CongestionKind::FastRetransmit {
            return ev.cause;
        }
        let marked =
            if self.dups == 0 { self.last_ece } else { self.marked_dups >= MARKED_DUPS.min(self.dups) };
        if marked {
            LossCause::Congestion
        } else {
            LossCause::Corruption
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: Time, ev: &CongestionEvent) -> u64 {
        match ev.kind {
            CongestionKind::Timeout => w.reno_ssthresh(ev),
            CongestionKind::Ecn if w.in_slow_start() => w.ssthresh(),
            CongestionKind::Ecn | CongestionKind::FastRetransmit => {
                self.ownd_bytes(w).unwrap_or_else(|| w.reno_ssthresh(ev))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{CcConfig, CongestionControl, RetransmitWindow};

    const MS: u64 = 1_000_000;
    /// RTT 125 ms and acks every 15.625 ms (RTT/8): both exact in binary
    /// seconds, so that the estimator's arithmetic below is exact.
    const RTT: u64 = 125 * MS;
    const GAP: u64 = 15_625_000;

    fn at(ns: u64) -> Time {
        Time::from_ns(ns)
    }

    /// An ack of new data delivering up to `delivered` bytes in total.
    fn new_ack(acked: u64, delivered: u64, ece: bool) -> AckSample {
        AckSample {
            acked_bytes: acked,
            delivered_bytes: delivered,
            rtt_ns: Some(RTT),
            flight_bytes: 1 << 40,
            ece,
            ..AckSample::default()
        }
    }

    fn dup_ack(delivered: u64, ece: bool) -> AckSample {
        AckSample { dup: true, delivered_bytes: delivered, flight_bytes: 1 << 40, ece, ..AckSample::default() }
    }

    fn params() -> [f64; MAX_PARAMS] {
        CcConfig::named(NAME, &[]).unwrap().params
    }

    /// mss 1000, cwnd 20 segments, ssthresh 10 segments: congestion avoidance.
    fn jersey_in_ca() -> CongestionControl {
        CongestionControl::new(RetransmitWindow::Inflate, 1000, 20, 10_000)
            .with_controller(&CcConfig::named(NAME, &[]).unwrap())
    }

    fn ev(kind: CongestionKind, flight: u64) -> CongestionEvent {
        CongestionEvent::new(kind, LossCause::Congestion, flight, u64::MAX)
    }

    /// At t0 an ack delivering 8000 bytes (RTT 125 ms): R = 64,000 B/s,
    /// ownd 8 segments. Then acks of 1000 bytes every 15.625 ms until `t`.
    fn steady_train(cc: &mut CongestionControl, t0: u64, acks: u64) -> (u64, u64) {
        cc.on_every_ack(at(t0), &new_ack(8000, 8000, false));
        cc.on_ack(at(t0), &new_ack(8000, 8000, false));
        let mut delivered = 8000;
        let mut t = t0;
        for _ in 0..acks {
            t += GAP;
            delivered += 1000;
            let s = new_ack(1000, delivered, false);
            cc.on_every_ack(at(t), &s);
            cc.on_ack(at(t), &s);
        }
        (t, delivered)
    }

    /// Eq. (1) on a known ack train, RTT 125 ms throughout (so the RTT
    /// estimate is 0.125 s exactly).
    #[test]
    fn abe_follows_eq_1_on_a_known_train() {
        let mut w = Window::new(RetransmitWindow::Inflate, 1000, 20, 10_000);
        let mut j = Jersey::new(&params(), &w);
        // t = 1 s: the first ack, 8000 bytes: t_n - t_(n-1) taken as 0, R_0
        // = 0: R_1 = (0.125 · 0 + 8000) / (0 + 0.125) = 64,000 B/s.
        j.on_every_ack(&mut w, at(1_000 * MS), &new_ack(8000, 8000, false));
        assert_eq!(j.rate(), 64_000.0);
        // ownd = 64,000 · 0.125 / 1000 = 8 segments.
        assert_eq!(j.ownd_bytes(&w), Some(8000));
        // 15.625 ms later, 1000 bytes: (0.125 · 64,000 + 1000) / (0.015625
        // + 0.125) = 9000 / 0.140625 = 64,000: the rate L/dt = 1000 /
        // 0.015625 = 64,000 B/s is the estimate's fixed point.
        let mut t = 1_000 * MS + GAP;
        j.on_every_ack(&mut w, at(t), &new_ack(1000, 9000, false));
        assert_eq!(j.rate(), 64_000.0);
        // 15.625 ms later, 2000 bytes: (8000 + 2000) / 0.140625 = 71,111.1.
        t += GAP;
        j.on_every_ack(&mut w, at(t), &new_ack(2000, 11_000, false));
        assert!((j.rate() - 10_000.0 / 0.140625).abs() < 1e-6, "{}", j.rate());
        // ownd = 71,111.1 · 0.125 / 1000 = 8.89: 8 whole segments.
        assert_eq!(j.ownd_bytes(&w), Some(8000));
        // A whole RTT with no ack, then 1000 bytes: (0.125 · 71,111.1 + 1000)
        // / (0.125 + 0.125) = 9888.9 / 0.25 = 39,555.6 B/s.
        t += RTT;
        j.on_every_ack(&mut w, at(t), &new_ack(1000, 12_000, false));
        let expected = (0.125 * (10_000.0 / 0.140625) + 1000.0) / 0.25;
        assert!((j.rate() - expected).abs() < 1e-6, "{} vs {expected}", j.rate());
        assert_eq!(expected.round(), 39_556.0);
        // ownd = 39,555.6 · 0.125 / 1000 = 4.94: 4 segments.
        assert_eq!(j.ownd_bytes(&w), Some(4000));
        // Three duplicate acks (no SACK: nothing delivered), 15.625 ms apart:
        // each multiplies R by 0.125 / 0.140625 = 8/9.
        for _ in 0..3 {
            t += GAP;
            j.on_every_ack(&mut w, at(t), &dup_ack(12_000, false));
        }
        assert!((j.rate() - expected * 512.0 / 729.0).abs() < 1e-6);
        // R = 39,555.6 · 512/729 = 27,781.1; ownd = 27,781.1 · 0.125 / 1000 = 3.47: 3 segments.
        assert_eq!(j.ownd_bytes(&w), Some(3000));
    }

    #[test]
    fn abe_waits_for_an_rtt_and_ownd_keeps_two_segments() {
        let mut w = Window::new(RetransmitWindow::Inflate, 1000, 20, 10_000);
        let mut j = Jersey::new(&params(), &w);
        // No RTT sample yet (a retransmitted segment's ack): no estimate.
        let s = AckSample { acked_bytes: 1000, delivered_bytes: 1000, ..AckSample::default() };
        j.on_every_ack(&mut w, at(MS), &s);
        assert_eq!((j.rate(), j.ownd_bytes(&w)), (0.0, None));
        // The next ack has one: 1000 new bytes over 0.125 s: 8000 B/s, ownd
        // = 8000 · 0.125 / 1000 = 1 segment, raised to 2.
        j.on_every_ack(&mut w, at(2 * MS), &new_ack(1000, 2000, false));
        assert_eq!(j.rate(), 8000.0);
        assert_eq!(j.ownd_bytes(&w), Some(2000));
    }

    /// The RTT the ABE uses is the smoothed one (gain 1/8): samples 125 ms
    /// then 250 ms give 125 + (250 - 125) / 8 = 140.625 ms; gain 1 takes
    /// the latest sample.
    #[test]
    fn the_rtt_estimate_is_smoothed_by_rtt_gain() {
        let mut w = Window::new(RetransmitWindow::Inflate, 1000, 20, 10_000);
        let mut j = Jersey::new(&params(), &w);
        j.on_every_ack(&mut w, at(MS), &new_ack(1000, 1000, false));
        let s = AckSample { rtt_ns: Some(250 * MS), ..new_ack(1000, 2000, false) };
        j.on_every_ack(&mut w, at(2 * MS), &s);
        assert_eq!(j.rtt_secs(), 0.140625);
        let mut latest = Jersey::new(&CcConfig::named(NAME, &[("rtt_gain", 1.0)]).unwrap().params, &w);
        latest.on_every_ack(&mut w, at(MS), &new_ack(1000, 1000, false));
        latest.on_every_ack(&mut w, at(2 * MS), &s);
        assert_eq!(latest.rtt_secs(), 0.25);
    }

    /// In congestion avoidance a CW-marked ack of new data sets ssthresh =
    /// cwnd = ownd, and does not open the window; in slow start it does not.
    #[test]
    fn a_marked_new_ack_in_congestion_avoidance_is_rate_control() {
        let mut cc = jersey_in_ca();
        let (mut t, mut delivered) = steady_train(&mut cc, 1_000 * MS, 4);
        // Unmarked acks grew cwnd by Reno's rule: 20,000 + 50 + 49 + 49 + 49 + 49.
        assert_eq!(cc.cwnd(), 20_246);
        // A marked new ack at the fixed point: R = 64,000 B/s, ownd = 8.
        t += GAP;
        delivered += 1000;
        let s = new_ack(1000, delivered, true);
        cc.on_every_ack(at(t), &s);
        cc.on_ack(at(t), &s);
        assert_eq!((cc.ssthresh(), cc.cwnd()), (8000, 8000));
        // The next, unmarked, opens the window again: 8000 + 1000·1000/8000.
        t += GAP;
        delivered += 1000;
        let s = new_ack(1000, delivered, false);
        cc.on_every_ack(at(t), &s);
        cc.on_ack(at(t), &s);
        assert_eq!(cc.cwnd(), 8125);

        // Slow start (cwnd 4 segments < ssthresh): a marked ack opens it.
        let mut ss = CongestionControl::new(RetransmitWindow::Inflate, 1000, 4, 1 << 30)
            .with_controller(&CcConfig::named(NAME, &[]).unwrap());
        let s = new_ack(1000, 1000, true);
        ss.on_every_ack(at(MS), &s);
        ss.on_ack(at(MS), &s);
        assert_eq!((ss.cwnd(), ss.ssthresh()), (5000, 1 << 30));
        // Nor does the sender's ECN-Echo cut apply there.
        ss.on_ecn_echo(at(MS), &ev(CongestionKind::Ecn, 5000));
        assert_eq!((ss.cwnd(), ss.ssthresh()), (5000, 1 << 30));
        // In congestion avoidance the ECN-Echo event is the same rate control.
        let mut ca = jersey_in_ca();
        steady_train(&mut ca, 1_000 * MS, 2);
        ca.on_ecn_echo(at(1_100 * MS), &ev(CongestionKind::Ecn, 20_000));
        assert_eq!((ca.ssthresh(), ca.cwnd()), (8000, 8000));
    }

    /// Three unmarked duplicate acks: a wireless loss, retransmitted with
    /// cwnd and ssthresh kept. Three marked: rate control, ssthresh = ownd.
    #[test]
    fn an_unmarked_loss_keeps_the_window_a_marked_one_is_rate_control() {
        let mut cc = jersey_in_ca();
        let (mut t, delivered) = steady_train(&mut cc, 1_000 * MS, 4);
        let (cwnd, ssthresh) = (cc.cwnd(), cc.ssthresh());
        for _ in 0..3 {
            t += GAP;
            cc.on_every_ack(at(t), &dup_ack(delivered, false));
        }
        cc.on_congestion(at(t), &ev(CongestionKind::FastRetransmit, 20_000), 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (cwnd, ssthresh));
        cc.on_recovery_exit(at(t + RTT));
        // The uncut recovery returns to its window, in whole segments (the
        // shared window's rule): 20,246 -> 20 segments.
        assert_eq!(cc.cwnd(), 20_000);

        let mut cc = jersey_in_ca();
        let (mut t, delivered) = steady_train(&mut cc, 1_000 * MS, 4);
        // Three marked duplicate acks, 15.625 ms apart: R = 64,000 ·
        // (8/9)^3 = 44,949.2 B/s; ownd = 44,949.2 · 0.125 / 1000 = 5.62: 5.
        for _ in 0..3 {
            t += GAP;
            cc.on_every_ack(at(t), &dup_ack(delivered, true));
        }
        cc.on_congestion(at(t), &ev(CongestionKind::FastRetransmit, 20_000), 3);
        // ssthresh = 5 segments; Reno's recovery: cwnd = ssthresh + 3 MSS.
        assert_eq!((cc.ssthresh(), cc.cwnd()), (5000, 8000));
        cc.on_recovery_exit(at(t + RTT));
        assert_eq!(cc.cwnd(), 5000, "after recovery, cwnd = ssthresh = ownd");

        // Only one of the three marked: not the paper's "n marked duplicates".
        let mut cc = jersey_in_ca();
        let (mut t, delivered) = steady_train(&mut cc, 1_000 * MS, 4);
        let before = (cc.cwnd(), cc.ssthresh());
        for ece in [false, false, true] {
            t += GAP;
            cc.on_every_ack(at(t), &dup_ack(delivered, ece));
        }
        cc.on_congestion(at(t), &ev(CongestionKind::FastRetransmit, 20_000), 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), before);
    }

    /// A timeout is Reno's whatever the marks: ssthresh = FlightSize / 2,
    /// cwnd one segment.
    #[test]
    fn a_timeout_is_renos() {
        let mut cc = jersey_in_ca();
        let (t, _) = steady_train(&mut cc, 1_000 * MS, 4);
        cc.on_congestion(at(t + 4 * RTT), &ev(CongestionKind::Timeout, 20_000), 3);
        assert_eq!((cc.ssthresh(), cc.cwnd()), (10_000, 1000));
    }
}
