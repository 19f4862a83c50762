//! The "ideal BWE" of seed 004 Sec. 5.2 (Fig. 12): a Westwood-style loss
//! response that "knows the exact available bandwidth and RTT". The seed
//! gives no more; Capone, Fratta and Martignon (IEEE TMC 3(2), 2004) study
//! the same idea as an upper bound for every bandwidth-estimation scheme.
//!
//! **lasthop's reading** (the reference reading's item 20, not the paper's
//! words): on a loss, ssthresh = max(2 MSS, B_true x RTT_min), where B_true
//! is the flow's true delivery rate over the last round trip, taken from
//! [`AckSample::delivered_bytes`] (every byte acknowledged cumulatively or
//! selectively, so a lost ack loses nothing: the next one reports it), with
//! no filter; RTT_min is the parameter `rtt_min_ms` (the propagation RTT a
//! scenario knows), or with 0 the smallest RTT sample seen. cwnd follows
//! Westwood's rule (cwnd = ssthresh only if cwnd > ssthresh, the recovery's
//! window on top; a timeout leaves 1 MSS), shared from `westwood.rs`.
//! Growth is Reno's.
//!
//! "The last round trip" is the newest RTT sample's length, ending at the
//! newest ack that delivered data: (delivered then - delivered at that time
//! minus the RTT) / RTT. After a timeout that is the round trip before the
//! deliveries stopped, not the silent one before the timer fired (which
//! would answer 2 MSS whatever the path). The deliveries are kept as
//! (time, total) marks in a ring preallocated for [`MARKS`] acks per round
//! trip; a flow younger than a round trip, or one with more acks per round
//! trip than that, is measured over the span its marks cover (still an
//! exact delivery rate, over a shorter interval). ssthresh is rounded down
//! to whole segments, as Westwood's.

use super::westwood::{bdp_ssthresh, BweCut};
use super::window::Window;
use super::{AckSample, CongestionEvent, Controller, Param, MAX_PARAMS};
use lasthop_core::time::{Time, NS_PER_MS, NS_PER_S};

pub const NAME: &str = "ideal-bwe";

/// Reads no timestamps.
pub const NEEDS_TIMESTAMPS: bool = false;

pub const PARAMS: &[Param] = &[Param {
    name: "rtt_min_ms",
    default: 0.0,
    source: "seed 004 Sec. 5.2 ('knows the exact ... RTT'); lasthop's reading: the propagation RTT when given, 0 = \
             the smallest RTT sample seen",
}];

/// Acks per round trip the delivery marks hold (16 bytes each).
pub const MARKS: usize = 2048;

#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    t_ns: u64,
    delivered_bytes: u64,
}

#[derive(Clone, Debug)]
pub struct IdealBwe {
    /// RTT_min given, in ns (0: measure it).
    rtt_min_given_ns: u64,
    /// The smallest RTT sample, in ns (u64::MAX: none yet).
    rtt_min_seen_ns: u64,
    /// The newest RTT sample, in ns (0: none yet).
    rtt_ns: u64,
    /// Delivery marks, oldest at `head`: exactly one at or before the
    /// window's start, when the flow is that old.
    marks: Box<[Mark]>,
    head: usize,
    len: usize,
    cut: BweCut,
}

impl IdealBwe {
    pub fn new(params: &[f64; MAX_PARAMS], _w: &Window) -> Self {
        IdealBwe {
            rtt_min_given_ns: (params[0] * NS_PER_MS as f64).round() as u64,
            rtt_min_seen_ns: u64::MAX,
            rtt_ns: 0,
            marks: vec![Mark::default(); MARKS].into_boxed_slice(),
            head: 0,
            len: 0,
            cut: BweCut::default(),
        }
    }

    fn mark(&self, i: usize) -> Mark {
        self.marks[(self.head + i) % MARKS]
    }

    fn push(&mut self, m: Mark) {
        if self.len == MARKS {
            self.head = (self.head + 1) % MARKS;
            self.len -= 1;
        }
        self.marks[(self.head + self.len) % MARKS] = m;
        self.len += 1;
        let start_ns = m.t_ns.saturating_sub(self.rtt_ns);
        while self.len >= 2 && self.mark(1).t_ns <= start_ns {
            self.head = (self.head + 1) % MARKS;
            self.len -= 1;
        }
    }

    /// The delivery rate over the last round trip, in bytes per second.
    pub fn delivery_rate_bytes_per_s(&self) -> f64 {
        if self.len < 2 {
            return 0.0;
        }
        let (oldest, newest) = (self.mark(0), self.mark(self.len - 1));
        let from_ns = oldest.t_ns.max(newest.t_ns.saturating_sub(self.rtt_ns));
        let span_ns = newest.t_ns - from_ns;
        if span_ns == 0 {
            return 0.0;
        }
        (newest.delivered_bytes - oldest.delivered_bytes) as f64 * NS_PER_S as f64 / span_ns as f64
    }

    /// RTT_min, in ns: the one given, else the smallest sample (0: none).
    pub fn rtt_min_ns(&self) -> u64 {
        match (self.rtt_min_given_ns, self.rtt_min_seen_ns) {
            (0, u64::MAX) => 0,
            (0, seen) => seen,
            (given, _) => given,
        }
    }
}

impl Controller for IdealBwe {
    fn on_every_ack(&mut self, _w: &mut Window, now: Time, s: &AckSample) {
        if let Some(rtt) = s.rtt_ns.filter(|&r| r > 0) {
            self.rtt_ns = rtt;
            self.rtt_min_seen_ns = self.rtt_min_seen_ns.min(rtt);
        }
        let newer = self.len == 0 || s.delivered_bytes > self.mark(self.len - 1).delivered_bytes;
        if newer {
            self.push(Mark { t_ns: now.ns(), delivered_bytes: s.delivered_bytes });
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: Time, _ev: &CongestionEvent) -> u64 {
        self.cut.at_loss(w);
        bdp_ssthresh(self.delivery_rate_bytes_per_s(), self.rtt_min_ns(), w.mss())
    }

    fn on_cut(&mut self, w: &mut Window, _now: Time, ev: &CongestionEvent) {
        self.cut.on_cut(w, ev);
    }

    fn on_recovery_exit(&mut self, w: &mut Window, _now: Time) {
        self.cut.on_recovery_exit(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{Algo, CcConfig, CongestionControl, CongestionKind, LossCause, RetransmitWindow};

    const MSS: u32 = 1000;

    fn new_cc(icw_segments: u32, params: &[(&str, f64)]) -> CongestionControl {
        CongestionControl::new(RetransmitWindow::Inflate, MSS, icw_segments, 1 << 30)
            .with_controller(&CcConfig::named(NAME, params).unwrap())
    }

    fn member(cc: &CongestionControl) -> &IdealBwe {
        match cc.algo.as_deref() {
            Some(Algo::IdealBwe(m)) => m,
            _ => panic!("not ideal-bwe"),
        }
    }

    /// Acks every `every_ms` from `from_ms` to `to_ms`, each delivering
    /// `bytes` more, RTT sample `rtt_ms`; returns the total delivered.
    fn train(cc: &mut CongestionControl, from_ms: u64, to_ms: u64, every_ms: u64, bytes: u64, rtt_ms: u64, delivered: u64) -> u64 {
        let mut delivered = delivered;
        for t in (from_ms..=to_ms).step_by(every_ms as usize) {
            delivered += bytes;
            let s = AckSample {
                acked_bytes: bytes,
                delivered_bytes: delivered,
                rtt_ns: Some(rtt_ms * NS_PER_MS),
                ..AckSample::default()
            };
            cc.on_every_ack(Time::from_ms(t), &s);
        }
        delivered
    }

    fn ev(kind: CongestionKind) -> CongestionEvent {
        CongestionEvent::new(kind, LossCause::Congestion, 150_000, u64::MAX)
    }

    /// 1000 B delivered per ms, RTT 50 ms: at t = 200 the last round trip
    /// (150, 200] holds 50 acks, 50,000 B / 50 ms = 1e6 B/s; RTT_min = 50 ms
    /// (measured): ssthresh = 50,000 B. cwnd 150 segments > ssthresh: cwnd =
    /// ssthresh + 3 MSS in recovery, ssthresh after it.
    #[test]
    fn three_dupacks_set_ssthresh_to_the_true_rate_times_rtt_min() {
        let mut cc = new_cc(150, &[]);
        train(&mut cc, 0, 200, 1, 1000, 50, 0);
        assert_eq!(member(&cc).delivery_rate_bytes_per_s(), 1e6);
        let t = Time::from_ms(200);
        cc.on_congestion(t, &ev(CongestionKind::FastRetransmit), 3);
        assert_eq!((cc.ssthresh(), cc.cwnd()), (50_000, 53_000));
        cc.on_recovery_exit(t);
        assert_eq!(cc.cwnd(), 50_000);
    }

    /// Three acks in four lost: every 4 ms one ack reports 4000 B more.
    /// With RTT 48 ms, (152, 200] holds 12 acks: 48,000 B / 48 ms = 1e6 B/s,
    /// the same rate, so ssthresh = 1e6 x 48 ms = 48,000 B.
    #[test]
    fn ack_loss_loses_nothing() {
        let mut cc = new_cc(150, &[]);
        train(&mut cc, 0, 200, 4, 4000, 48, 0);
        assert_eq!(member(&cc).delivery_rate_bytes_per_s(), 1e6);
        cc.on_congestion(Time::from_ms(200), &ev(CongestionKind::FastRetransmit), 3);
        assert_eq!(cc.ssthresh(), 48_000);
    }

    /// No filter: 500 B/ms until t = 200 ms, then 1000 B/ms. At t = 225 the
    /// last round trip (175, 225] is half each: (25 x 500 + 25 x 1000) B /
    /// 50 ms = 750,000 B/s; at t = 250, (200, 250] is all at the new rate:
    /// 1e6 B/s at once (Westwood's cascade would still be at 5e5 plus one
    /// sixty-fourth of the step).
    /// RTT_min given as 20 ms: ssthresh = 1e6 x 20 ms = 20,000 B.
    #[test]
    fn the_rate_is_the_last_round_trips_and_rtt_min_may_be_given() {
        let mut cc = new_cc(150, &[("rtt_min_ms", 20.0)]);
        let d = train(&mut cc, 0, 200, 1, 500, 50, 0);
        assert_eq!(member(&cc).delivery_rate_bytes_per_s(), 5e5);
        let d = train(&mut cc, 201, 225, 1, 1000, 50, d);
        assert_eq!(member(&cc).delivery_rate_bytes_per_s(), 750_000.0);
        train(&mut cc, 226, 250, 1, 1000, 50, d);
        assert_eq!(member(&cc).delivery_rate_bytes_per_s(), 1e6);
        assert_eq!(member(&cc).rtt_min_ns(), 20 * NS_PER_MS);
        cc.on_congestion(Time::from_ms(250), &ev(CongestionKind::FastRetransmit), 3);
        assert_eq!(cc.ssthresh(), 20_000);
    }

    /// A timeout a second after the deliveries stopped: the round trip
    /// before they stopped, 1e6 B/s x 50 ms = 50,000 B; cwnd 1 MSS. A flow
    /// with no delivery yet gets the 2-MSS floor.
    #[test]
    fn timeout_uses_the_round_trip_before_the_deliveries_stopped() {
        let mut fresh = new_cc(150, &[]);
        fresh.on_congestion(Time::from_ms(1000), &ev(CongestionKind::Timeout), 3);
        assert_eq!((fresh.ssthresh(), fresh.cwnd()), (2000, 1000));

        let mut cc = new_cc(150, &[]);
        train(&mut cc, 0, 200, 1, 1000, 50, 0);
        cc.on_congestion(Time::from_ms(1200), &ev(CongestionKind::Timeout), 3);
        assert_eq!((cc.ssthresh(), cc.cwnd()), (50_000, 1000));
    }

    /// Fewer marks than a round trip: a 20 ms old flow (RTT 50 ms) is
    /// measured over (0, 20], 20,000 B / 20 ms; 3001 acks inside a 10 s RTT
    /// overflow the 2048 marks, measured over the newest 2047 intervals:
    /// 2,047,000 B / 2047 ms. Both 1e6 B/s.
    #[test]
    fn short_histories_are_measured_over_what_they_cover() {
        let mut young = new_cc(10, &[]);
        train(&mut young, 0, 20, 1, 1000, 50, 0);
        assert_eq!(member(&young).delivery_rate_bytes_per_s(), 1e6);
        let mut long = new_cc(10, &[]);
        train(&mut long, 0, 3000, 1, 1000, 10_000, 0);
        assert_eq!(member(&long).len, MARKS);
        assert_eq!(member(&long).delivery_rate_bytes_per_s(), 1e6);
    }
}
