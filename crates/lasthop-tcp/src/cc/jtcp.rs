//! JTCP, jitter-based TCP (Eric Hsiao-Kuang Wu, Mei-Zhen Chen, "JTCP:
//! jitter-based TCP for heterogeneous wireless networks", IEEE JSAC
//! 22(4):757-766, May 2004), as seed 004 Sec. 2.2 describes it and
//! shared/reference/yun-004.md Sec. 3 reads it: loss differentiation by the
//! jitter of the data's one-way transit, the RTP jitter (RFC 3550 Sec. 6.4.1)
//! of consecutive segments.
//!
//! For segment i sent at S_i and received at R_i:
//!
//! ```text
//! J_i = (R_i - R_(i-1)) - (S_i - S_(i-1))
//! J_r = sum J_i / sum (S_i - S_(i-1))      over the last window
//! ```
//!
//! J_r, the growth of the transit time over the time the window took to
//! send, is read as the fraction of the window queued in the network: the
//! path is congested when J_r > k / cwnd (k queued segments, cwnd in
//! segments). On a loss:
//!
//! - congested: Reno's response (fast retransmit and recovery, timeouts);
//! - not congested: a loss found by duplicate acks is retransmitted with
//!   ssthresh and cwnd kept ([`Controller::judge`] answers
//!   [`LossCause::Corruption`]); a timeout halves them, ssthresh = cwnd =
//!   cwnd / 2 (at least 2 segments), instead of Reno's one-segment window.
//!
//! Where the times come from: the timestamp option ([`AckSample::peer_ts`]).
//! The receiver's TSval is its clock when it sent the ack (R_i) and its
//! TSecr echoes the stamp of the segment that the ack answers (S_i, RFC 7323
//! Sec. 4.3's TS.Recent). A sample is taken only when the echo advances
//! (S_i > S_(i-1)): duplicate acks echo the last in-order segment again and
//! add nothing. The sums telescope, sum J_i = (R_n - S_n) - (R_(n-W) -
//! S_(n-W)) over W samples, so the window's two end points give J_r; a
//! ring of the last samples is kept, made once.
//!
//! Readings and departures (the paper's text could not be read here; only
//! the seed's summary and the reference's reading, and the abstract):
//!
//! - k is unverified: default 1, the reference's placeholder (yun-004.md
//!   Sec. 7 row 23). "The last window" is read as the last cwnd (in
//!   segments, at least 1) samples, at most 256.
//! - The paper has the receiver report each segment's receive time; TSval
//!   is when the ack left, so a delayed ack's wait adds to R_i (and with
//!   TS.Recent a delayed ack echoes the first segment it covers).
//! - With fewer than two samples (no timestamps, or before the first two
//!   acks) J_r is unknown and the path is taken as congested: Reno's
//!   answer.
//! - The congested state's fast retransmit "only when n duplicate ACKs have
//!   been received over several RTTs" (seed 004 Sec. 2.2) is the loss
//!   recovery's to decide (when a fast retransmit is raised), not
//!   modelled here: a congested loss is Reno's.
//! - "Halves ssthresh and cwnd" on an uncongested timeout is read as both
//!   set to half the window (ssthresh = cwnd = cwnd/2, not rounded to whole
//!   segments); halving ssthresh from its own value is the other reading.

use super::{AckSample, CongestionEvent, CongestionKind, Controller, LossCause, Param, Window, MAX_PARAMS};
use lasthop_core::time::Time;

pub const NAME: &str = "jtcp";

/// Reads the peer's timestamps (the jitter): a flow must use the option.
pub const NEEDS_TIMESTAMPS: bool = true;

pub const PARAMS: &[Param] = &[Param {
    name: "k",
    default: 1.0,
    source: "congestion threshold J_r > k / cwnd: Wu & Chen 2004 not checked (unverified); 1 is yun-004.md Sec. 7 \
             row 23's placeholder",
}];

/// Samples in the jitter window at most (the ring holds one more point).
pub const MAX_WINDOW: usize = 256;
const RING: usize = MAX_WINDOW + 1;

#[derive(Clone, Debug)]
pub struct Jtcp {
    k: f64,
    /// (R_i - S_i, S_i) of the latest samples, in ns, in ring order.
    points: Box<[(i64, u64)]>,
    /// Where the next point goes, and how many are held.
    head: usize,
    len: usize,
    /// The timeout being handled was judged uncongested: halve, not reset.
    halve: bool,
}

impl Jtcp {
    pub fn new(params: &[f64; MAX_PARAMS], _w: &Window) -> Self {
        Jtcp { k: params[0], points: vec![(0, 0); RING].into_boxed_slice(), head: 0, len: 0, halve: false }
    }

    /// The point `back` samples before the newest.
    fn point(&self, back: usize) -> (i64, u64) {
        self.points[(self.head + RING - 1 - back) % RING]
    }

    /// J_r over the last cwnd samples; `None` with fewer than two points.
    pub fn jitter_ratio(&self, w: &Window) -> Option<f64> {
        if self.len < 2 {
            return None;
        }
        let window = ((w.cwnd() / w.mss()).max(1) as usize).min(self.len - 1);
        let (d_new, s_new) = self.point(0);
        let (d_old, s_old) = self.point(window);
        Some((d_new - d_old) as f64 / (s_new - s_old) as f64)
    }

    /// J_r > k / cwnd (cwnd in segments); unknown J_r counts as congested.
    pub fn congested(&self, w: &Window) -> bool {
        match self.jitter_ratio(w) {
            None => true,
            Some(jr) => jr > self.k / (w.cwnd() as f64 / w.mss() as f64),
        }
    }
}

impl Controller for Jtcp {
    fn on_every_ack(&mut self, _w: &mut Window, _now: Time, s: &AckSample) {
        let Some(ts) = s.peer_ts else { return };
        if ts.ecr_ns == 0 || (self.len > 0 && ts.ecr_ns <= self.point(0).1) {
            return;
        }
        let d = (ts.val_ns as i64).wrapping_sub(ts.ecr_ns as i64);
        self.points[self.head] = (d, ts.ecr_ns);
        self.head = (self.head + 1) % RING;
        self.len = (self.len + 1).min(RING);
    }

    fn judge(&mut self, w: &Window, _now: Time, ev: &CongestionEvent) -> LossCause {
        self.halve = false;
        if ev.cause == LossCause::Corruption || self.congested(w) {
            return ev.cause;
        }
        match ev.kind {
            CongestionKind::FastRetransmit => LossCause::Corruption,
            CongestionKind::Timeout => {
                self.halve = true;
                LossCause::Congestion
            }
            CongestionKind::Ecn => ev.cause,
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: Time, ev: &CongestionEvent) -> u64 {
        if self.halve && ev.kind == CongestionKind::Timeout {
            (w.cwnd() / 2).max(2 * w.mss())
        } else {
            w.reno_ssthresh(ev)
        }
    }

    fn on_cut(&mut self, w: &mut Window, _now: Time, ev: &CongestionEvent) {
        if std::mem::take(&mut self.halve) && ev.kind == CongestionKind::Timeout {
            w.set_cwnd(w.ssthresh());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{CcConfig, CongestionControl, RetransmitWindow};
    use lasthop_core::packet::Timestamps;

    const MS: u64 = 1_000_000;

    /// An ack of new data whose timestamps say: segment sent at `s_ns`
    /// (TSecr), ack sent at `r_ns` (TSval).
    fn ack(s_ns: u64, r_ns: u64) -> AckSample {
        AckSample {
            acked_bytes: 1000,
            flight_bytes: 1 << 40,
            peer_ts: Some(Timestamps { val_ns: r_ns, ecr_ns: s_ns }),
            ..AckSample::default()
        }
    }

    /// mss 1000, cwnd 10 segments, ssthresh far above.
    fn jtcp() -> CongestionControl {
        CongestionControl::new(RetransmitWindow::Inflate, 1000, 10, 1 << 30)
            .with_controller(&CcConfig::named(NAME, &[]).unwrap())
    }

    /// Segments i = `from`..`to` sent every 10 ms from t = 1 s, each
    /// crossing in 50 ms plus `extra(i)` of queueing.
    fn train(j: &mut Jtcp, w: &mut Window, from: u64, to: u64, extra: impl Fn(u64) -> u64) {
        for i in from..to {
            let s = 1_000 * MS + 10 * MS * i;
            let r = s + 50 * MS + extra(i);
            j.on_every_ack(w, Time::from_ns(r), &ack(s, r));
        }
    }

    fn ev(kind: CongestionKind, flight: u64) -> CongestionEvent {
        CongestionEvent::new(kind, LossCause::Congestion, flight, u64::MAX)
    }

    /// J_r on a known train, cwnd 10 segments (the window: 10 samples,
    /// 11 points), k = 1: congested above 1/10.
    #[test]
    fn jitter_ratio_on_a_known_train() {
        let mut w = Window::new(RetransmitWindow::Inflate, 1000, 10, 1 << 30);
        let mut j = Jtcp::new(&CcConfig::named(NAME, &[]).unwrap().params, &w);
        assert_eq!(j.jitter_ratio(&w), None);
        assert!(j.congested(&w), "no samples: Reno's answer");
        // Segments 0..=10, each queued 2 ms longer than the one before: J_i
        // = (R_i - R_(i-1)) - (S_i - S_(i-1)) = 12 ms - 10 ms = 2 ms; over
        // the last 10: sum J_i = 20 ms, sum (S_i - S_(i-1)) = 100 ms: J_r =
        // 0.2 > 1/10: congested (two segments queued per window).
        train(&mut j, &mut w, 0, 11, |i| 2 * MS * i);
        assert_eq!(j.jitter_ratio(&w), Some(0.2));
        assert!(j.congested(&w));
        // A duplicate ack echoes segment 10's stamp again, later: no sample.
        let s10 = 1_000 * MS + 100 * MS;
        j.on_every_ack(&mut w, Time::from_ns(s10 + 200 * MS), &AckSample { dup: true, ..ack(s10, s10 + 200 * MS) });
        assert_eq!(j.jitter_ratio(&w), Some(0.2));
        // Segments 11..=15 cross with segment 10's delay (70 ms): the last
        // 10 samples are 6..=15, of which 5 grew by 2 ms: J_r = 10 ms / 100
        // ms = 0.1, not above 1/10 (the test is strict).
        train(&mut j, &mut w, 11, 16, |_| 20 * MS);
        assert_eq!(j.jitter_ratio(&w), Some(0.1));
        assert!(!j.congested(&w));
        // Five more at the same delay: the window is flat, J_r = 0.
        train(&mut j, &mut w, 16, 21, |_| 20 * MS);
        assert_eq!(j.jitter_ratio(&w), Some(0.0));
        // The queue drains 1 ms a segment: J_i = -1 ms, J_r = -0.1.
        train(&mut j, &mut w, 21, 31, |i| 20 * MS - (i - 20) * MS);
        assert_eq!(j.jitter_ratio(&w), Some(-0.1));
        assert!(!j.congested(&w));
        // k = 3 and the growing train: 0.2 < 3/10, not congested.
        let mut j3 = Jtcp::new(&CcConfig::named(NAME, &[("k", 3.0)]).unwrap().params, &w);
        train(&mut j3, &mut w, 0, 11, |i| 2 * MS * i);
        assert!(!j3.congested(&w));
        // A larger window looks further back: cwnd 20 segments holds only
        // the 11 points there are (10 samples): J_r = 0.2 > 3/20 = 0.15.
        let w20 = Window::new(RetransmitWindow::Inflate, 1000, 20, 1 << 30);
        assert_eq!(j3.jitter_ratio(&w20), Some(0.2));
        assert!(j3.congested(&w20));
    }

    /// Not congested: a fast retransmit keeps cwnd and ssthresh, a timeout
    /// halves them. Congested: Reno.
    #[test]
    fn losses_by_state() {
        let flat = |cc: &mut CongestionControl| {
            for i in 0..11u64 {
                let s = 1_000 * MS + 10 * MS * i;
                cc.on_every_ack(Time::from_ns(s + 50 * MS), &ack(s, s + 50 * MS));
            }
        };
        let growing = |cc: &mut CongestionControl| {
            for i in 0..11u64 {
                let s = 1_000 * MS + 10 * MS * i;
                let r = s + 50 * MS + 2 * MS * i;
                cc.on_every_ack(Time::from_ns(r), &ack(s, r));
            }
        };
        let t = Time::from_ms(2_000);
        // Flat train (J_r = 0): fast retransmit without a cut.
        let mut cc = jtcp();
        flat(&mut cc);
        cc.on_congestion(t, &ev(CongestionKind::FastRetransmit, 10_000), 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (10_000, 1 << 30));
        // Flat train, timeout: ssthresh = cwnd = 10,000 / 2.
        let mut cc = jtcp();
        flat(&mut cc);
        cc.on_congestion(t, &ev(CongestionKind::Timeout, 10_000), 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (5000, 5000));
        // Growing train (J_r = 0.2 > 0.1): Reno. Fast retransmit: ssthresh =
        // FlightSize / 2 = 5000, cwnd = 5000 + 3 MSS.
        let mut cc = jtcp();
        growing(&mut cc);
        cc.on_congestion(t, &ev(CongestionKind::FastRetransmit, 10_000), 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (8000, 5000));
        // Timeout: ssthresh 5000, one segment.
        let mut cc = jtcp();
        growing(&mut cc);
        cc.on_congestion(t, &ev(CongestionKind::Timeout, 10_000), 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (1000, 5000));
        // The halving is the uncongested timeout's only: after it (cwnd 5
        // segments, a window of 5 samples) segments sent from t = 3 s queue
        // 3 ms more each: J_r = 15 ms / 50 ms = 0.3 > 1/5; the next timeout
        // is Reno's: ssthresh = 5000 / 2 in whole segments = 2000, one segment.
        let mut cc = jtcp();
        flat(&mut cc);
        cc.on_congestion(t, &ev(CongestionKind::Timeout, 10_000), 3);
        for i in 0..6u64 {
            let s = 3_000 * MS + 10 * MS * i;
            let r = s + 50 * MS + 3 * MS * i;
            cc.on_every_ack(Time::from_ns(r), &ack(s, r));
        }
        cc.on_congestion(Time::from_ms(4_000), &ev(CongestionKind::Timeout, 5000), 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (1000, 2000));
        // No timestamps: no samples, Reno.
        let mut cc = jtcp();
        cc.on_congestion(t, &ev(CongestionKind::FastRetransmit, 10_000), 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (8000, 5000));
    }

    /// The ring keeps the last 256 samples: a window of 300 segments
    /// reads 256 of them.
    #[test]
    fn the_window_is_at_most_the_ring() {
        let mut w = Window::new(RetransmitWindow::Inflate, 1000, 300, 1 << 30);
        let mut j = Jtcp::new(&CcConfig::named(NAME, &[]).unwrap().params, &w);
        // 400 samples: the first 100 grow by 1 ms each, then flat.
        train(&mut j, &mut w, 0, 400, |i| MS * i.min(100));
        // The last 256 samples (144..=399) are flat.
        assert_eq!(j.jitter_ratio(&w), Some(0.0));
        // 44 more samples, 1 ms each: 44 ms over 2560 ms.
        train(&mut j, &mut w, 400, 444, |i| MS * (100 + i - 399));
        assert_eq!(j.jitter_ratio(&w), Some(44.0 * MS as f64 / (2560.0 * MS as f64)));
    }
}
