//! TCP Veno (Fu & Liew, "TCP Veno: TCP enhancement for transmission over
//! wireless access networks", IEEE JSAC 21(2), Feb. 2003), as Linux's
//! `net/ipv4/tcp_veno.c` keeps it (read from kernel-patches/bpf b930a81, the
//! mainline file): Vegas's backlog estimate decides how Reno grows and how
//! it cuts.
//!
//! - Backlog: N = cwnd·(RTT − BaseRTT)/RTT (seed 004 Sec. 2.2, "the
//!   estimated backlogged segments N from the Vegas measurement"), BaseRTT
//!   the smallest RTT ever sampled, RTT the smallest since the previous
//!   ack of new data. Linux keeps N as `diff` in half segments: diff = 2·cwnd
//!   − ⌊2·cwnd·BaseRTT/RTT⌋ (cwnd in whole segments), compared with
//!   `beta = 3 << 1`; lasthop computes the same integer, so N is rounded up
//!   to a half segment as in Linux.
//! - Growth (`tcp_veno_cong_avoid`), once more than two RTT samples have
//!   been taken on the connection: slow start as Reno's; in congestion
//!   avoidance, N < β ("non-congestive state") Reno's +1 segment per window;
//!   N ≥ β ("congestive state") +1 segment every other window: acked bytes
//!   are counted and, when a whole window has been counted, the window
//!   grows if `inc` is set and `inc` flips (Linux's `snd_cwnd_cnt` and
//!   `inc`). With two samples or fewer, Reno's growth.
//! - Cut (`tcp_veno_ssthresh`), for any loss: N < β ("random loss due to
//!   bit errors is most likely") ssthresh = cwnd·4/5, else cwnd/2, at least
//!   2 segments; the recovery's window rule follows (RFC 5681 3.2 for Reno).
//! - Veno is off (Reno's growth) from a cut until its recovery ends (Linux
//!   `tcp_veno_state`); coming back on forgets the RTT minimum. After a
//!   timeout or ECN cut, "ends" is when the data outstanding at the cut has
//!   been delivered (Linux's Loss and CWR states end at `high_seq`).
//!
//! Linux, not ns-3: ns-3's `TcpVeno` zeroes its sample count on every
//! `IncreaseWindow`, so with one sample per ack the count never passes two
//! and its every-other-window growth never runs; Linux's count (`cntrtt`)
//! is never reset ("/* veno->cntrtt = 0; */"). ns-3 also computes N on every
//! ack before checking the count, Linux only once the count passes two:
//! ns-3's third test case cuts by half where Linux, with N not yet
//! computed (0), cuts by a fifth (pinned in the tests).
//!
//! Departures:
//! - Windows are in bytes: the cut is cwnd·4/5 or cwnd/2 of the window in
//!   bytes (ns-3's arithmetic, where Linux rounds in segments); the
//!   congestive growth counts acked bytes against cwnd in bytes.
//! - Linux's RTT is the minimum "within last rtt" by its comment but is
//!   reset on every call of `cong_avoid`, i.e. every ack of new data; so
//!   is lasthop's. An ack of new data with no sample since the previous one
//!   (only retransmitted data acknowledged) keeps the previous N; Linux
//!   would divide by its reset value 0x7fffffff µs and find the full window
//!   backlogged.
//! - Samples: each ack's RTT of the newest segment it delivered, as Linux
//!   feeds `pkts_acked` (`ca_rtt_us`); ns-3 passes the smoothed RTT
//!   (`m_tcb->m_srtt`), also on duplicate acks.
//! - Linux adds 1 µs to every sample and counts samples in a u16 that wraps
//!   after 65,535; samples here are in ns (at least 1) and the count
//!   saturates.
//! - Linux's idle restart (`CA_EVENT_TX_START`, `CA_EVENT_CWND_RESTART`:
//!   BaseRTT forgotten) has no event here.
//! - β = 3 is Linux's; the paper's value is recalled as 3 (its Sec. III
//!   was not re-read here).
//! - The non-congestive branch uses lasthop's per-ack Reno increase
//!   (SMSS·SMSS/cwnd per ack), where Linux counts whole segments
//!   (`tcp_cong_avoid_ai`); the congestive counter restarts when the state
//!   changes.

use super::{AckSample, CongestionEvent, CongestionKind, Controller, Param, Window, MAX_PARAMS};
use lasthop_core::time::Time;

pub const NAME: &str = "veno";

/// Reads no timestamps.
pub const NEEDS_TIMESTAMPS: bool = false;

pub const PARAMS: &[Param] = &[Param {
    name: "beta",
    default: 3.0,
    source: "Linux tcp_veno.c `beta = 3 << V_PARAM_SHIFT` (segments of backlog); Fu & Liew 2003 Sec. III (not re-read)",
}];

#[derive(Clone, Debug)]
pub struct Veno {
    /// Backlog, in segments, at and above which the path is judged congested.
    beta: f64,
    /// The smallest RTT ever sampled, in ns (`u64::MAX` before any).
    base_rtt_ns: u64,
    /// The smallest RTT sampled since the last ack of new data, in ns.
    min_rtt_ns: u64,
    /// RTT samples taken on the connection (Linux `cntrtt`).
    samples: u32,
    /// The backlog N in half segments (Linux `diff`); 0 until first computed.
    diff_half_segments: u64,
    /// Grow at the next whole window counted (Linux `inc`).
    inc: bool,
    /// Bytes acked in the congestive state since the last whole window
    /// (Linux `snd_cwnd_cnt`, in bytes).
    counted_bytes: u64,
    /// Veno runs (Linux `doing_veno_now`).
    enabled: bool,
    /// After a timeout or ECN cut: Veno comes back on once this much has
    /// been delivered, in bytes.
    reenable_at_delivered_bytes: Option<u64>,
    /// The running total delivered, in bytes.
    delivered_bytes: u64,
}

impl Veno {
    pub fn new(params: &[f64; MAX_PARAMS], _w: &Window) -> Self {
        Veno {
            beta: params[0],
            base_rtt_ns: u64::MAX,
            min_rtt_ns: u64::MAX,
            samples: 0,
            diff_half_segments: 0,
            inc: true,
            counted_bytes: 0,
            enabled: true,
            reenable_at_delivered_bytes: None,
            delivered_bytes: 0,
        }
    }

    /// The backlog N last computed, in segments (to a half segment).
    pub fn backlog_segments(&self) -> f64 {
        self.diff_half_segments as f64 / 2.0
    }

    /// N ≥ β: the path is congested (Linux `veno->diff >= beta`).
    pub fn congestive(&self) -> bool {
        self.diff_half_segments as f64 >= 2.0 * self.beta
    }

    /// Linux `veno_enable`.
    fn enable(&mut self) {
        self.enabled = true;
        self.reenable_at_delivered_bytes = None;
        self.min_rtt_ns = u64::MAX;
    }

    fn estimate_backlog(&mut self, w: &Window) {
        if self.min_rtt_ns == u64::MAX {
            return;
        }
        let seg = u128::from(w.cwnd() / w.mss());
        // target_cwnd = (cwnd * basertt << 1) / rtt; diff = (cwnd << 1) - target_cwnd.
        let target = 2 * seg * u128::from(self.base_rtt_ns) / u128::from(self.min_rtt_ns);
        self.diff_half_segments = (2 * seg).saturating_sub(target) as u64;
    }
}

impl Controller for Veno {
    fn on_every_ack(&mut self, _w: &mut Window, _now: Time, s: &AckSample) {
        self.delivered_bytes = self.delivered_bytes.max(s.delivered_bytes);
        if let Some(rtt) = s.rtt_ns {
            let rtt = rtt.max(1);
            self.base_rtt_ns = self.base_rtt_ns.min(rtt);
            self.min_rtt_ns = self.min_rtt_ns.min(rtt);
            self.samples = self.samples.saturating_add(1);
        }
        if self.reenable_at_delivered_bytes.is_some_and(|d| self.delivered_bytes >= d) {
            self.enable();
        }
    }

    fn on_ack(&mut self, w: &mut Window, _now: Time, s: &AckSample) {
        if !self.enabled {
            w.grow(s.acked_bytes, s.flight_bytes);
            return;
        }
        // "limited by applications": no growth, and the minimum carries on.
        if !w.may_grow(s.flight_bytes) {
            return;
        }
        if self.samples <= 2 {
            // "We don't have enough rtt samples to do the Veno calculation,
            // so we'll behave like Reno."
            w.grow(s.acked_bytes, s.flight_bytes);
        } else {
            self.estimate_backlog(w);
            if w.in_slow_start() || !self.congestive() {
                self.counted_bytes = 0;
                w.grow(s.acked_bytes, s.flight_bytes);
            } else if self.counted_bytes >= w.cwnd() {
                // "In the congestive state, increase cwnd every other rtt."
                if self.inc {
                    w.set_cwnd(w.cwnd() + w.mss());
                }
                self.inc = !self.inc;
                self.counted_bytes = 0;
            } else {
                self.counted_bytes += s.acked_bytes;
            }
        }
        // "Wipe the slate clean for the next rtt."
        self.min_rtt_ns = u64::MAX;
    }

    fn ssthresh(&mut self, w: &Window, _now: Time, _ev: &CongestionEvent) -> u64 {
        let cut = if self.congestive() { w.cwnd() / 2 } else { w.cwnd() * 4 / 5 };
        cut.max(2 * w.mss())
    }

    fn on_cut(&mut self, _w: &mut Window, _now: Time, ev: &CongestionEvent) {
        self.enabled = false;
        self.reenable_at_delivered_bytes = match ev.kind {
            CongestionKind::FastRetransmit => None,
            CongestionKind::Timeout | CongestionKind::Ecn => Some(self.delivered_bytes.saturating_add(ev.flight_bytes)),
        };
    }

    fn on_recovery_exit(&mut self, _w: &mut Window, _now: Time) {
        self.enable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{CcConfig, CongestionControl, LossCause, RetransmitWindow};

    const MS: u64 = 1_000_000;

    fn fast_retransmit(flight: u64) -> CongestionEvent {
        CongestionEvent::new(CongestionKind::FastRetransmit, LossCause::Congestion, flight, u64::MAX)
    }

    /// ns-3 `src/internet/test/tcp-veno-test.cc` (nsnam/ns-3-dev-git
    /// 1406464), one case: BaseRTT 100 ms from a first sample, Veno
    /// re-enabled (`CongestionStateSet(CA_OPEN)`), then `rounds` times a
    /// sample of `rtt_ms` and `IncreaseWindow` for one segment; the ssthresh
    /// a loss would take after the first. Here: the first sample on an ack
    /// during recovery, the recovery's end, then acks of one segment each.
    /// Returns (ssthresh after the first ack, cwnd after the last, N).
    fn ns3_case(cwnd_segments: u32, mss: u32, ssthresh_segments: u64, rtt_ms: u64, rounds: u32) -> (u64, u64, f64) {
        let mss64 = u64::from(mss);
        let mut w = Window::new(RetransmitWindow::Inflate, mss, cwnd_segments, ssthresh_segments * mss64);
        let mut v = Veno::new(&CcConfig::named(NAME, &[]).unwrap().params, &w);
        let t = Time::from_ms(1000);
        let ack = |rtt_ms: u64| AckSample {
            acked_bytes: mss64,
            flight_bytes: 1 << 40,
            rtt_ns: Some(rtt_ms * MS),
            ..AckSample::default()
        };
        v.on_every_ack(&mut w, t, &AckSample { in_recovery: true, dup: true, ..ack(100) });
        v.on_recovery_exit(&mut w, t);
        let mut ssthresh = 0;
        for i in 0..rounds {
            v.on_every_ack(&mut w, t, &ack(rtt_ms));
            v.on_ack(&mut w, t, &ack(rtt_ms));
            if i == 0 {
                ssthresh = v.ssthresh(&w, t, &fast_retransmit(w.cwnd()));
            }
        }
        (ssthresh, w.cwnd(), v.backlog_segments())
    }

    /// ns-3 case 1, "cWnd in slow start and non-congestive loss": cwnd 38 ×
    /// 1446, ssthresh 40 × 1446, RTT 100 ms. Two samples: Reno's slow start,
    /// 54,948 + 1446 = 56,394; N not yet computed (0 < β): ssthresh =
    /// ⌊56,394·4/5⌋ = 45,115. As ns-3.
    #[test]
    fn ns3_veno_slow_start_and_non_congestive_loss() {
        assert_eq!(ns3_case(38, 1446, 40, 100, 1), (45_115, 56_394, 0.0));
    }

    /// ns-3 case 2, "cWnd with diff < beta": cwnd 30 × 536, ssthresh 20 × 536,
    /// RTT 106 ms. Reno's avoidance: 16,080 + ⌊536²/16,080⌋ = 16,080 + 17 =
    /// 16,097; a fifth cut: ⌊16,097·4/5⌋ = 12,877. As ns-3 (whose N = 30 −
    /// ⌊28.3⌋ = 2 < 3 also chooses the fifth).
    #[test]
    fn ns3_veno_avoidance_with_diff_below_beta() {
        assert_eq!(ns3_case(30, 536, 20, 106, 1), (12_877, 16_097, 0.0));
    }

    /// ns-3 case 3, "increment test on cWnd with diff > beta": cwnd 60 × 536,
    /// ssthresh 40 × 536, RTT 106 ms, three acks. ns-3 computes N = 60 −
    /// ⌊56.6⌋ = 4 ≥ 3 on the first ack and pins a halving, 32,168 / 2 =
    /// 16,084, and Reno's growth on all three acks (its count never passes
    /// two): 32,160 + 8 + 8 + 8 = 32,184. Linux (lasthop):
    /// - ack 1: two samples: Reno, 32,160 + ⌊536²/32,160⌋ = 32,168; N not
    ///   computed yet (0): the cut would be a fifth, ⌊32,168·4/5⌋ = 25,734;
    /// - ack 2: three samples: N = (120 − ⌊120·100/106⌋)/2 = (120 − 113)/2 =
    ///   3.5 ≥ 3, congestive: 536 bytes counted, no growth;
    /// - ack 3: 1072 counted (< 32,168): no growth. cwnd 32,168.
    #[test]
    fn ns3_veno_congestive_case_follows_linux_sample_count() {
        assert_eq!(ns3_case(60, 536, 40, 106, 3), (25_734, 32_168, 3.5));
    }

    fn veno(icw: u32, ssthresh: u64) -> CongestionControl {
        CongestionControl::new(RetransmitWindow::Inflate, 1000, icw, ssthresh)
            .with_controller(&CcConfig::named(NAME, &[]).unwrap())
    }

    fn ack(rtt_ms: u64) -> AckSample {
        AckSample { acked_bytes: 1000, flight_bytes: 1 << 40, rtt_ns: Some(rtt_ms * MS), ..AckSample::default() }
    }

    fn feed(cc: &mut CongestionControl, t_ms: u64, rtt_ms: u64) {
        cc.on_every_ack(Time::from_ms(t_ms), &ack(rtt_ms));
        cc.on_ack(Time::from_ms(t_ms), &ack(rtt_ms));
    }

    /// The backlog N and the cut it chooses. mss 1000, cwnd 10 segments in
    /// congestion avoidance (ssthresh 5000), BaseRTT 100 ms.
    #[test]
    fn backlog_chooses_a_fifth_or_a_half() {
        // t = 0-20 ms: three acks at 100 ms; the first two grow as Reno
        // (1000²/10,000 = 100, then ⌊10⁶/10,100⌋ = 99): 10,199; the third
        // computes N with 10 segments, RTT = BaseRTT: 0 < 3, Reno: +98.
        let mut cc = veno(10, 5000);
        for t in [0, 10, 20] {
            feed(&mut cc, t, 100);
        }
        assert_eq!(cc.cwnd(), 10_297);
        // A loss now: N = 0, random loss: ssthresh = ⌊10,297·4/5⌋ = 8237, cwnd
        // = 8237 + 3 segments.
        let mut random = cc.clone();
        random.on_congestion(Time::from_ms(30), &fast_retransmit(10_297), 3);
        assert_eq!((random.ssthresh(), random.cwnd()), (8237, 11_237));
        // t = 30 ms: an ack at 120 ms: N = (20 − ⌊20·100/120⌋)/2 = (20 − 16)/2
        // = 2 < 3: still non-congestive (Reno, +97: 10,394): a fifth.
        let mut mild = cc.clone();
        feed(&mut mild, 30, 120);
        assert_eq!(mild.cwnd(), 10_394);
        mild.on_congestion(Time::from_ms(40), &fast_retransmit(10_394), 3);
        assert_eq!(mild.ssthresh(), 10_394 * 4 / 5);
        // t = 30 ms: an ack at 150 ms instead: N = (20 − ⌊20·100/150⌋)/2 =
        // (20 − 13)/2 = 3.5 ≥ 3: congestive (no growth: 1000 bytes counted);
        // the loss is congestion: ssthresh = ⌊10,297/2⌋ = 5148, cwnd 8148.
        let mut congested = cc.clone();
        feed(&mut congested, 30, 150);
        assert_eq!(congested.cwnd(), 10_297);
        congested.on_congestion(Time::from_ms(40), &fast_retransmit(10_297), 3);
        assert_eq!((congested.ssthresh(), congested.cwnd()), (5148, 8148));
        // The same backlog judged with β = 4 is non-congestive: a fifth.
        let mut lenient = CongestionControl::new(RetransmitWindow::Inflate, 1000, 10, 5000)
            .with_controller(&CcConfig::named(NAME, &[("beta", 4.0)]).unwrap());
        for t in [0, 10, 20] {
            feed(&mut lenient, t, 100);
        }
        feed(&mut lenient, 30, 150);
        lenient.on_congestion(Time::from_ms(40), &fast_retransmit(10_394), 3);
        assert_eq!(lenient.ssthresh(), 10_394 * 4 / 5);
    }

    /// N ≥ β: one segment every other window (Linux's `inc` toggle), where
    /// N < β gives Reno's segment per window. cwnd 10 segments, avoidance,
    /// BaseRTT 100 ms then RTT 200 ms (N = (20 − 10)/2 = 5 and more).
    #[test]
    fn congestive_state_grows_every_other_window() {
        let mut cc = veno(10, 5000);
        // Two acks at 100 ms (Reno: 10,100, then 10,199), from then on 200 ms.
        feed(&mut cc, 0, 100);
        feed(&mut cc, 1, 100);
        assert_eq!(cc.cwnd(), 10_199);
        let mut grew_at = Vec::new();
        for k in 1..=60u64 {
            let before = cc.cwnd();
            feed(&mut cc, 1 + k, 200);
            if cc.cwnd() != before {
                grew_at.push((k, cc.cwnd()));
            }
        }
        // Acks 1-11 count 11,000 bytes (the count is checked before adding:
        // at ack 11 it is 10,000 < 10,199); ack 12 finds 11,000 >= 10,199 and
        // `inc` set: +1 segment (11,199). Acks 13-24 count 12,000 (ack 24
        // finds 11,000 < 11,199); ack 25 finds 12,000: `inc` clear, no growth,
        // set again. Acks 26-37 count 12,000; ack 38: +1 (12,199). Acks
        // 39-51 count 13,000; ack 52 toggles only.
        assert_eq!(grew_at, vec![(12, 11_199), (38, 12_199)]);
        // Reno from the same window over the same 62 acks: about five segments
        // (the per-ack sum of 1000²/cwnd from 10,000 reaches 14,958).
        let mut reno = CongestionControl::new(RetransmitWindow::Inflate, 1000, 10, 5000);
        reno.on_ack_bytes(Time::ZERO, 1000, 1 << 40);
        reno.on_ack_bytes(Time::ZERO, 1000, 1 << 40);
        for _ in 0..60 {
            reno.on_ack_bytes(Time::ZERO, 1000, 1 << 40);
        }
        assert_eq!(reno.cwnd(), 14_958);
    }

    /// A cut turns Veno off (Reno's growth) until recovery ends; back on,
    /// the RTT minimum starts afresh, the sample count does not.
    #[test]
    fn recovery_pauses_veno() {
        let mut cc = veno(10, 5000);
        for t in [0, 10, 20] {
            feed(&mut cc, t, 100);
        }
        feed(&mut cc, 30, 200); // N = 5: congestive
        cc.on_congestion(Time::from_ms(40), &fast_retransmit(10_000), 3);
        assert_eq!(cc.ssthresh(), 5148, "⌊10,297/2⌋");
        cc.on_recovery_exit(Time::from_ms(250));
        assert_eq!(cc.cwnd(), 5148);
        // Back on; an ack at 100 ms: N = (10 − ⌊10·100/100⌋)/2 = 0: Reno,
        // +⌊10⁶/5148⌋ = 194.
        feed(&mut cc, 260, 100);
        assert_eq!(cc.cwnd(), 5342);
    }
}
