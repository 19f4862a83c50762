//! TCP Vegas (Brakmo & Peterson, "TCP Vegas: end to end congestion
//! avoidance on a global Internet", IEEE JSAC 13(8), Oct. 1995, Sec. 3.2
//! "Congestion avoidance" and Sec. 3.3 "Modified slow-start"), as Linux's
//! `net/ipv4/tcp_vegas.c` (mainline, read from raspberrypi/linux 656a52a)
//! and ns-3's `src/internet/model/tcp-vegas.cc` keep it.
//!
//! Once per round trip (see [`super::rounds`]), with enough samples (more
//! than two RTT samples in the round, "to insure that at least 1 of those
//! samples wasn't from a delayed ACK"):
//! - RTT = the minimum RTT sampled in the round, BaseRTT = the minimum ever;
//! - target = ⌊cwnd·BaseRTT/RTT⌋ (the window the actual rate needs) and
//!   diff = ⌊cwnd·(RTT − BaseRTT)/BaseRTT⌋, cwnd in whole segments (Linux's
//!   form of the paper's Diff, see the departures);
//! - in slow start, diff > γ leaves it: cwnd = min(cwnd, target + 1),
//!   ssthresh = min(ssthresh, cwnd) (Linux `tcp_vegas_ssthresh`); else
//!   Reno's slow start on this ack;
//! - in congestion avoidance: diff > β: cwnd −= 1 segment and ssthresh =
//!   min(ssthresh, cwnd); diff < α: cwnd += 1 segment; otherwise unchanged;
//! - cwnd at least 2 segments, then ssthresh = max(ssthresh, ¾·cwnd) (Linux
//!   `tcp_current_ssthresh` outside a window reduction).
//!
//! With two samples or fewer the round-end ack grows the window as Reno's;
//! between round ends only slow start grows it. A loss is cut as Reno's
//! (Linux: `.ssthresh = tcp_reno_ssthresh`). Vegas is off (Reno's growth)
//! from a cut until the recovery ends, as Linux's `tcp_vegas_state`
//! disables it outside `TCP_CA_Open`; it restarts (round, sample count and
//! minimum reset) when it comes back on. After a timeout or an ECN cut, for
//! which lasthop has no recovery episode, "back on" is when the data
//! outstanding at the cut has been delivered (Linux's Loss and CWR states
//! end when `snd_una` passes `high_seq`).
//!
//! Departures and what could not be verified:
//! - The paper's Diff is (Expected − Actual)·BaseRTT = cwnd·(RTT −
//!   BaseRTT)/RTT "extra buffers"; ns-3 computes that (segCwnd −
//!   ⌊segCwnd·BaseRTT/RTT⌋). Linux, and lasthop, use cwnd·(RTT −
//!   BaseRTT)/BaseRTT, which is larger by RTT/BaseRTT: ns-3's test case
//!   "alpha <= diff <= beta" (cwnd 20, RTT 109 ms) has diff 2 in ns-3 and 1
//!   here, so lasthop grows where ns-3 holds (pinned in the tests).
//! - The slow-start exit's ssthresh is min(ssthresh, cwnd) (mainline Linux);
//!   ns-3, like 3.x kernels, takes one segment less (pinned in the tests).
//! - Windows are in bytes: ±1 segment and the exit round cwnd down to whole
//!   segments (ns-3's `segCwnd · segmentSize`), ¾·cwnd is taken in bytes
//!   (ns-3's `3 * m_cWnd / 4`, where Linux rounds in segments).
//! - Samples: each ack's RTT of the newest segment it delivered, as Linux
//!   feeds `pkts_acked` (`ca_rtt_us`); ns-3 passes the smoothed RTT
//!   (`m_tcb->m_srtt`), also on duplicate acks. Linux adds 1 µs to every
//!   sample ("never allow zero rtt"); samples here are in ns, at least 1.
//! - Linux restarts Vegas after idle (`CA_EVENT_TX_START`,
//!   `CA_EVENT_CWND_RESTART`, with BaseRTT forgotten); the sender reports no
//!   idle restart, so lasthop does not.
//! - α = 2, β = 4, γ = 1 are Linux's and ns-3's defaults; the paper's
//!   experiments used α = 1, β = 3 (Sec. 3.2, as recalled: the paper was not
//!   re-read here).

use super::rounds::Rounds;
use super::{AckSample, CongestionEvent, CongestionKind, Controller, Param, Window, MAX_PARAMS};
use lasthop_core::time::Time;

pub const NAME: &str = "vegas";

/// Reads no timestamps.
pub const NEEDS_TIMESTAMPS: bool = false;

pub const PARAMS: &[Param] = &[
    Param {
        name: "alpha",
        default: 2.0,
        source: "Linux tcp_vegas.c `alpha = 2` and ns-3 TcpVegas Alpha (segments); Brakmo & Peterson 1995 Sec. 3.2 \
                 used 1 (not re-read)",
    },
    Param {
        name: "beta",
        default: 4.0,
        source: "Linux tcp_vegas.c `beta = 4` and ns-3 TcpVegas Beta (segments); Brakmo & Peterson 1995 Sec. 3.2 \
                 used 3 (not re-read)",
    },
    Param {
        name: "gamma",
        default: 1.0,
        source: "Linux tcp_vegas.c `gamma = 1` and ns-3 TcpVegas Gamma (segments): the slow-start exit, Brakmo & \
                 Peterson 1995 Sec. 3.3 (not re-read)",
    },
];

#[derive(Clone, Debug)]
pub struct Vegas {
    /// Fewest extra segments in the network before cwnd grows.
    alpha: f64,
    /// Most extra segments in the network before cwnd shrinks.
    beta: f64,
    /// Extra segments that end slow start.
    gamma: f64,
    /// The smallest RTT ever sampled, in ns (`u64::MAX` before any).
    base_rtt_ns: u64,
    /// The smallest RTT sampled in this round, in ns (`u64::MAX`: none).
    min_rtt_ns: u64,
    /// RTT samples in this round (Linux `cntRTT`).
    samples: u32,
    rounds: Rounds,
    /// Vegas runs (Linux `doing_vegas_now`); off from a cut to the end of
    /// its recovery.
    enabled: bool,
    /// After a timeout or ECN cut: Vegas comes back on once this much has
    /// been delivered, in bytes.
    reenable_at_delivered_bytes: Option<u64>,
}

impl Vegas {
    pub fn new(params: &[f64; MAX_PARAMS], _w: &Window) -> Self {
        Vegas {
            alpha: params[0],
            beta: params[1],
            gamma: params[2],
            base_rtt_ns: u64::MAX,
            min_rtt_ns: u64::MAX,
            samples: 0,
            rounds: Rounds::new(),
            enabled: true,
            reenable_at_delivered_bytes: None,
        }
    }

    /// The smallest RTT sampled so far (BaseRTT), in ns.
    pub fn base_rtt_ns(&self) -> Option<u64> {
        (self.base_rtt_ns != u64::MAX).then_some(self.base_rtt_ns)
    }

    /// Linux `vegas_enable`: on, a round begins now, its samples afresh.
    fn enable(&mut self) {
        self.enabled = true;
        self.reenable_at_delivered_bytes = None;
        self.rounds.restart();
        self.samples = 0;
        self.min_rtt_ns = u64::MAX;
    }

    /// The once-per-round adjustment, with more than two samples.
    fn adjust(&mut self, w: &mut Window, s: &AckSample) {
        let mss = w.mss();
        let seg = w.cwnd() / mss;
        let (rtt, base) = (u128::from(self.min_rtt_ns), u128::from(self.base_rtt_ns));
        // tcp_vegas_cong_avoid: "target_cwnd = cwnd * baseRTT / rtt" and
        // "diff = cwnd * (rtt - baseRTT) / baseRTT" (the round's minimum is
        // never below the minimum ever).
        let target = (u128::from(seg) * base / rtt) as u64;
        let diff = (u128::from(seg) * (rtt - base) / base) as f64;
        if diff > self.gamma && w.in_slow_start() {
            // "Going too fast. Time to slow down and switch to congestion
            // avoidance": the actual rate's window, plus one for truncation.
            w.set_cwnd(seg.min(target + 1) * mss);
            w.set_ssthresh(w.ssthresh().min(w.cwnd()));
        } else if w.in_slow_start() {
            w.grow(s.acked_bytes, s.flight_bytes);
        } else if diff > self.beta {
            w.set_cwnd(seg.saturating_sub(1) * mss);
            w.set_ssthresh(w.ssthresh().min(w.cwnd()));
        } else if diff < self.alpha {
            w.set_cwnd((seg + 1) * mss);
        }
        if w.cwnd() < 2 * mss {
            w.set_cwnd(2 * mss);
        }
        // tcp_current_ssthresh: max(ssthresh, 3/4 cwnd), here in bytes.
        w.set_ssthresh(w.ssthresh().max(3 * w.cwnd() / 4));
    }
}

impl Controller for Vegas {
    fn on_every_ack(&mut self, _w: &mut Window, _now: Time, s: &AckSample) {
        self.rounds.on_every_ack(s);
        if let Some(rtt) = s.rtt_ns {
            let rtt = rtt.max(1);
            self.base_rtt_ns = self.base_rtt_ns.min(rtt);
            self.min_rtt_ns = self.min_rtt_ns.min(rtt);
            self.samples = self.samples.saturating_add(1);
        }
        if self.reenable_at_delivered_bytes.is_some_and(|d| self.rounds.delivered_bytes() >= d) {
            self.enable();
        }
    }

    fn on_ack(&mut self, w: &mut Window, _now: Time, s: &AckSample) {
        if !self.enabled {
            w.grow(s.acked_bytes, s.flight_bytes);
            return;
        }
        if self.rounds.round_ends(s) {
            if self.samples <= 2 {
                // "We don't have enough RTT samples to do the Vegas
                // calculation, so we'll behave like Reno."
                w.grow(s.acked_bytes, s.flight_bytes);
            } else {
                self.adjust(w, s);
            }
            self.samples = 0;
            self.min_rtt_ns = u64::MAX;
        } else if w.in_slow_start() {
            w.grow(s.acked_bytes, s.flight_bytes);
        }
    }

    fn on_cut(&mut self, _w: &mut Window, _now: Time, ev: &CongestionEvent) {
        self.enabled = false;
        self.reenable_at_delivered_bytes = match ev.kind {
            CongestionKind::FastRetransmit => None,
            CongestionKind::Timeout | CongestionKind::Ecn => {
                Some(self.rounds.delivered_bytes().saturating_add(ev.flight_bytes))
            }
        };
    }

    fn on_recovery_exit(&mut self, _w: &mut Window, _now: Time) {
        self.enable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::rounds::clock::AckClock;
    use crate::cc::{CcConfig, CongestionControl, LossCause, RateSample, RetransmitWindow};

    const MS: u64 = 1_000_000;

    fn defaults() -> [f64; MAX_PARAMS] {
        CcConfig::named(NAME, &[]).unwrap().params
    }

    /// ns-3 `src/internet/test/tcp-vegas-test.cc` (nsnam/ns-3-dev-git
    /// 1406464), one case: cwnd and ssthresh in bytes, BaseRTT 100 ms from a
    /// first sample, Vegas re-enabled (`CongestionStateSet(CA_OPEN)`), three
    /// samples of `rtt_ms`, then `IncreaseWindow` for one acked segment.
    /// Here: the first sample on an ack during recovery, the recovery's end,
    /// two duplicate acks whose SACKed segments give the next two samples,
    /// and the ack of new data that ends the round.
    fn ns3_case(cwnd_segments: u32, mss: u32, ssthresh_segments: u64, rtt_ms: u64) -> (u64, u64) {
        let mss64 = u64::from(mss);
        let w0 = Window::new(RetransmitWindow::Inflate, mss, cwnd_segments, ssthresh_segments * mss64);
        let mut w = w0.clone();
        let mut v = Vegas::new(&defaults(), &w);
        let t = Time::from_ms(1000);
        let sample = |delivered: u64, rtt_ms: u64, new_data: bool| AckSample {
            acked_bytes: if new_data { mss64 } else { 0 },
            sacked_bytes: if new_data { 0 } else { mss64 },
            dup: !new_data,
            flight_bytes: u64::from(cwnd_segments) * mss64,
            rtt_ns: Some(rtt_ms * MS),
            delivered_bytes: delivered * mss64,
            rate: Some(RateSample {
                prior_delivered_bytes: if new_data { mss64 } else { 0 },
                ..RateSample::default()
            }),
            ..AckSample::default()
        };
        v.on_every_ack(&mut w, t, &AckSample { in_recovery: true, ..sample(1, 100, false) });
        v.on_recovery_exit(&mut w, t);
        v.on_every_ack(&mut w, t, &sample(2, rtt_ms, false));
        v.on_every_ack(&mut w, t, &sample(3, rtt_ms, false));
        let last = sample(4, rtt_ms, true);
        v.on_every_ack(&mut w, t, &last);
        v.on_ack(&mut w, t, &last);
        (w.cwnd(), w.ssthresh())
    }

    /// ns-3 case 1, "slow start and diff > gamma": cwnd 38 × 1446, ssthresh
    /// 40 × 1446, RTT 106 ms. diff = ⌊38·6/100⌋ = 2 > γ: target = ⌊38·100/106⌋
    /// = 35, cwnd = min(38, 36) = 36 segments = 52,056 bytes. Linux:
    /// ssthresh = min(57,840, 52,056) = 52,056, then max(52,056, ¾·52,056 =
    /// 39,042) = 52,056. ns-3 pins 50,610 (35 segments): its GetSsThresh
    /// takes min(ssthresh, cwnd − 1 segment), as 3.x kernels did; mainline
    /// Linux dropped the − 1, and lasthop follows Linux.
    #[test]
    fn ns3_vegas_slow_start_exit_when_diff_exceeds_gamma() {
        assert_eq!(ns3_case(38, 1446, 40, 106), (52_056, 52_056));
    }

    /// ns-3 case 2, "slow start and diff < gamma": cwnd 5 × 536, ssthresh 10 ×
    /// 536, RTT 118 ms. diff = ⌊5·18/100⌋ = 0 (ns-3: 5 − ⌊4.24⌋ = 1; neither
    /// exceeds γ = 1): slow start, 2,680 + 536 = 3,216; ssthresh = max(5,360,
    /// ¾·3,216 = 2,412) = 5,360. As ns-3.
    #[test]
    fn ns3_vegas_slow_start_continues_when_diff_below_gamma() {
        assert_eq!(ns3_case(5, 536, 10, 118), (3216, 5360));
    }

    /// ns-3 case 3, "diff > beta": cwnd 60 × 346, ssthresh 40 × 346, RTT 206
    /// ms. diff = ⌊60·106/100⌋ = 63 > β (ns-3: 60 − 29 = 31): cwnd = 59 × 346
    /// = 20,414; ssthresh = min(13,840, 20,414) = 13,840, then max(13,840,
    /// ⌊¾·20,414⌋ = 15,310) = 15,310. As ns-3.
    #[test]
    fn ns3_vegas_decrease_when_diff_exceeds_beta() {
        assert_eq!(ns3_case(60, 346, 40, 206), (20_414, 15_310));
    }

    /// ns-3 case 4, "diff < alpha": cwnd 15 × 1446, ssthresh 10 × 1446, RTT
    /// 106 ms. diff = ⌊15·6/100⌋ = 0 < α (ns-3: 15 − 14 = 1): cwnd = 16 ×
    /// 1446 = 23,136; ssthresh = max(14,460, ¾·23,136 = 17,352) = 17,352. As
    /// ns-3.
    #[test]
    fn ns3_vegas_increase_when_diff_below_alpha() {
        assert_eq!(ns3_case(15, 1446, 10, 106), (23_136, 17_352));
    }

    /// ns-3 case 5, "alpha <= diff <= beta": cwnd 20 × 746, ssthresh 10 × 746,
    /// RTT 109 ms. ns-3's diff is 20 − ⌊20·100/109⌋ = 20 − 18 = 2, within
    /// [α, β]: it holds cwnd at 14,920 and pins ssthresh max(7,460, 11,190) =
    /// 11,190. Linux's diff is ⌊20·9/100⌋ = 1 < α: cwnd grows to 21 × 746 =
    /// 15,666 and ssthresh = max(7,460, ⌊¾·15,666⌋ = 11,749) = 11,749. The
    /// two diffs differ by the factor RTT/BaseRTT (see the module header);
    /// lasthop follows Linux.
    #[test]
    fn ns3_vegas_case_within_alpha_beta_follows_linux_diff() {
        assert_eq!(ns3_case(20, 746, 10, 109), (15_666, 11_749));
    }

    fn vegas(mss: u32, icw: u32, ssthresh: u64) -> CongestionControl {
        CongestionControl::new(RetransmitWindow::Inflate, mss, icw, ssthresh)
            .with_controller(&CcConfig::named(NAME, &[]).unwrap())
    }

    /// A flow from 2 segments, one RTT per round (each round acks the data
    /// the previous one released; the first ack of a round is Vegas's round
    /// end, with the previous round's later samples and its own).
    #[test]
    fn slow_start_exit_then_one_segment_per_round() {
        let mut cc = vegas(1000, 2, u64::MAX / 4);
        let mut clock = AckClock::start(&cc);
        // Round 1 (2 acks): round end at ack 1 with one sample: Reno, 3000;
        // ack 2 slow start: 4000. Round 2 (4 acks): its end has 2 samples
        // (round 1's second, its own): Reno; slow start to 8000.
        assert_eq!(clock.round(&mut cc, 100 * MS), 4000);
        assert_eq!(clock.round(&mut cc, 100 * MS), 8000);
        // Round 3 (8): 4 samples, all 100 ms: diff 0, slow start: 16,000.
        // Round 4 (16) at 130 ms: its end's minimum is round 3's 100 ms: diff
        // 0 again, slow start: 32,000.
        assert_eq!(clock.round(&mut cc, 100 * MS), 16_000);
        assert_eq!(clock.round(&mut cc, 130 * MS), 32_000);
        // Round 5 at 130 ms: minimum 130 ms, cwnd 32 segments: diff =
        // ⌊32·30/100⌋ = 9 > γ: target = ⌊32·100/130⌋ = 24, cwnd = 25 segments,
        // ssthresh = min(huge, 25,000) = 25,000 (¾ of it is less). Slow
        // start is over: the rest of the round leaves cwnd alone.
        assert_eq!(clock.round(&mut cc, 130 * MS), 25_000);
        assert_eq!(cc.ssthresh(), 25_000);
        // Congestion avoidance at 130 ms: diff = ⌊c·0.3⌋ > β = 4 takes one
        // segment a round until c = 16 (⌊4.8⌋ = 4), where it holds; each
        // decrease sets ssthresh = min(ssthresh, cwnd), never below ¾·cwnd.
        let expected = [24_000, 23_000, 22_000, 21_000, 20_000, 19_000, 18_000, 17_000, 16_000, 16_000, 16_000];
        for want in expected {
            assert_eq!(clock.round(&mut cc, 130 * MS), want);
            assert_eq!(cc.ssthresh(), want, "ssthresh follows the decrease");
        }
        // The queue drains (100 ms): the round end's own sample is 100 ms, so
        // diff = 0 < α: one segment a round; ssthresh stays (¾·cwnd is below).
        assert_eq!(clock.round(&mut cc, 100 * MS), 17_000);
        assert_eq!(clock.round(&mut cc, 100 * MS), 18_000);
        assert_eq!(clock.round(&mut cc, 100 * MS), 19_000);
        assert_eq!(cc.ssthresh(), 16_000);
    }

    /// A timeout: Reno's cut, then Reno's growth (slow start from one
    /// segment) until the data outstanding at the timeout is delivered;
    /// then Vegas again, from a fresh round.
    #[test]
    fn a_timeout_turns_vegas_off_until_its_flight_is_delivered() {
        let mut cc = vegas(1000, 20, 10_000);
        let mut clock = AckClock::start(&cc);
        // Round 1 (20 acks): its end (ack 1) has one sample: Reno's
        // 1000²/20,000 = 50 bytes. Round 2: 20 samples at 100 ms: diff 0 < α:
        // 21 segments, ssthresh = max(10,000, ¾·21,000) = 15,750.
        assert_eq!(clock.round(&mut cc, 100 * MS), 20_050);
        assert_eq!(clock.round(&mut cc, 100 * MS), 21_000);
        assert_eq!(cc.ssthresh(), 15_750);
        // 40 segments delivered; a timeout with 21 outstanding: ssthresh =
        // 21,000 / 2 rounded down to segments, cwnd one segment. Vegas is off
        // until 40,000 + 21,000 bytes have been delivered.
        let ev = CongestionEvent::new(CongestionKind::Timeout, LossCause::Congestion, 21_000, u64::MAX);
        cc.on_congestion(Time::from_ms(5000), &ev, 3);
        assert_eq!((cc.ssthresh(), cc.cwnd()), (10_000, 1000));
        let ack = |k: u64, prior: u64| AckSample {
            acked_bytes: 1000,
            flight_bytes: 1 << 30,
            rtt_ns: Some(100 * MS),
            delivered_bytes: 40_000 + 1000 * k,
            rate: Some(RateSample { prior_delivered_bytes: prior, ..RateSample::default() }),
            ..AckSample::default()
        };
        let mut cwnd = Vec::new();
        for k in 1..=21 {
            let now = Time::from_ms(5000 + 10 * k);
            cc.on_every_ack(now, &ack(k, 40_000));
            cc.on_ack(now, &ack(k, 40_000));
            cwnd.push(cc.cwnd());
        }
        // Acks 1-9: Reno's slow start to ssthresh; ack 10: Reno's avoidance,
        // 1000²/10,000 = 100 bytes (Vegas would wait for a round end).
        assert_eq!(cwnd[8], 10_000);
        assert_eq!(cwnd[9], 10_100);
        // Ack 21 delivers the 61,000th byte: Vegas is back on, a round begins
        // there, and the ack (data sent before it) leaves cwnd alone.
        assert!(cwnd[19] > cwnd[9]);
        assert_eq!(cwnd[20], cwnd[19], "Vegas on: no growth between round ends");
        // Ack 22 delivers data sent after that: the round ends with two
        // samples (acks 21 and 22): Reno's growth once.
        let before = cc.cwnd();
        cc.on_every_ack(Time::from_ms(5300), &ack(22, 61_000));
        cc.on_ack(Time::from_ms(5300), &ack(22, 61_000));
        assert_eq!(cc.cwnd(), before + 1000 * 1000 / before);
    }
}
