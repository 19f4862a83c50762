//! TCP Santa Cruz (Parsa & Garcia-Luna-Aceves, "Improving TCP congestion
//! control over internets with heterogeneous transmission media", ICNP
//! 1999) with the loss labelling of their WCNC 2000 paper ("Differentiating
//! congestion vs. random loss"), as seed 004 (Yun 2009) Sec. 2.2 describes
//! it: "uses the measurement technique of Vegas to estimate the number of
//! backlogged segments N in the network. It updates a three-state machine
//! based on the changes of N ... an increase of N during two consecutive
//! intervals leads to the transition to the congestion state. TCP-Santa
//! Cruz classifies a packet loss as a congestion loss and invokes
//! congestion control against it only in the congestion state."
//!
//! - Delay: from the timestamps ([`AckSample::peer_ts`]: the receiver's
//!   TSval, its clock when it acked, and the sender's stamp it echoes), each
//!   ack gives R − S; the relative forward delay of packet j to packet i,
//!   D = (R_j − R_i) − (S_j − S_i), needs no synchronised clocks.
//! - Per window (a round trip, see [`super::rounds`]): the relative delays
//!   summed over the window, D_W (they telescope to the last sample's R − S
//!   minus the window's first), become the window's added queueing in
//!   packets, M_W = D_W / Δ, with Δ the time per packet at the receiver over
//!   the window (the span of R over the window divided by the segments
//!   delivered in it, i.e. the flow's delivery rate); N = Σ M_W since the
//!   first sample ("summing the relative delays from the beginning of a
//!   session ... at intervals equal to the amount of time to transmit a
//!   windowful of data and receive the corresponding ACKs", the paper's
//!   Sec. 3 as published at www.cse.ucsc.edu/~chris/sctcp/node6.html).
//! - Window: at each window's end, cwnd += 1 segment if N < n_op, −= 1 if N >
//!   n_op (at least 2 segments), nothing in between. Slow start is Reno's,
//!   and ends at a window's end once N > n_op (ssthresh = cwnd).
//! - Loss labelling: a state 0, 1, 2 moved by each window's M_W: up one for
//!   an increase (M_W > 0), to 0 for a decrease, unchanged otherwise; 2 is
//!   the congestion state. A loss found by duplicate acks is congestion in
//!   state 2, otherwise random ([`Controller::judge`] answers
//!   [`LossCause::Corruption`]: retransmitted without a cut). A congestion
//!   loss is cut as Reno's.
//!
//! Not verified (neither paper was read here; yun-004.md Sec. 3 marks them
//! recalled): n_op = 1.5 packets; the per-window ±1 (the paper may apply
//! ±1/cwnd per ack); the slow-start exit on N > n_op; Δ (the paper's
//! estimate of the bottleneck's per-packet time was not seen); the state
//! machine's moves on a decrease (to 0) and on no change (stay): the seed
//! only says two consecutive increases reach the congestion state.
//!
//! Departures: the paper's receiver stamps each packet's arrival and its
//! sender times every packet, retransmissions included; here the receiver's
//! TSval is its ack time and TSecr the stamp RFC 7323's TS.Recent rule
//! picks (with delayed acks the first unacknowledged segment's), so delayed
//! acks add their delay to R. Duplicate acks (which echo the last in-order
//! segment) give no sample. Until the first timestamped ack the window
//! grows as Reno's (a flow without the option is Reno); a timeout, and a
//! loss before a window has been measured, is congestion.

use super::rounds::Rounds;
use super::{AckSample, CongestionEvent, CongestionKind, Controller, LossCause, Param, Window, MAX_PARAMS};
use lasthop_core::time::Time;

pub const NAME: &str = "santa-cruz";

/// Reads the peer's timestamps (relative forward delay): a flow must use the option.
pub const NEEDS_TIMESTAMPS: bool = true;

pub const PARAMS: &[Param] = &[Param {
    name: "n_op",
    default: 1.5,
    source: "NOT VERIFIED: the operating point, packets of the flow queued at the bottleneck, Parsa & \
             Garcia-Luna-Aceves ICNP 1999 as recalled in yun-004.md Sec. 3 (the paper not read)",
}];

/// The congestion state of the loss labelling.
const CONGESTED: u8 = 2;

/// A delay sample: R − S and R, in ns.
#[derive(Clone, Copy, Debug)]
struct DelaySample {
    relative_ns: i64,
    receiver_ns: u64,
}

#[derive(Clone, Debug)]
pub struct SantaCruz {
    /// The operating point: packets of this flow to keep queued.
    n_op: f64,
    rounds: Rounds,
    /// The newest delay sample.
    latest: Option<DelaySample>,
    /// The sample and the total delivered (bytes) at the current window's start.
    window_start: Option<(DelaySample, u64)>,
    /// N: packets queued since the first sample.
    queued: f64,
    /// A window's queueing has been measured.
    measured: bool,
    /// The loss labelling's state (0, 1, or 2: congestion).
    state: u8,
}

impl SantaCruz {
    pub fn new(params: &[f64; MAX_PARAMS], _w: &Window) -> Self {
        SantaCruz {
            n_op: params[0],
            rounds: Rounds::new(),
            latest: None,
            window_start: None,
            queued: 0.0,
            measured: false,
            state: 0,
        }
    }

    /// N, the packets of this flow estimated queued.
    pub fn queued_packets(&self) -> f64 {
        self.queued
    }

    /// The loss labelling's state is the congestion state.
    pub fn congested(&self) -> bool {
        self.state == CONGESTED
    }

    /// A window ends with `delivered_bytes` delivered: its queueing M_W is
    /// added to N and moves the state. Whether M_W was measured.
    fn close_window(&mut self, delivered_bytes: u64, mss: u64) -> bool {
        let Some(now) = self.latest else {
            return false;
        };
        let mut measured = false;
        if let Some((start, start_delivered)) = self.window_start {
            let span_ns = now.receiver_ns.saturating_sub(start.receiver_ns);
            let bytes = delivered_bytes.saturating_sub(start_delivered);
            if span_ns > 0 && bytes > 0 {
                // M_W = D_W / Δ, Δ = span · mss / bytes.
                let added = (now.relative_ns - start.relative_ns) as f64 * bytes as f64 / (span_ns as f64 * mss as f64);
                self.queued += added;
                self.state = if added > 0.0 {
                    (self.state + 1).min(CONGESTED)
                } else if added < 0.0 {
                    0
                } else {
                    self.state
                };
                self.measured = true;
                measured = true;
            }
        }
        self.window_start = Some((now, delivered_bytes));
        measured
    }
}

impl Controller for SantaCruz {
    fn on_every_ack(&mut self, _w: &mut Window, _now: Time, s: &AckSample) {
        self.rounds.on_every_ack(s);
        if s.dup {
            return;
        }
        if let Some(ts) = s.peer_ts {
            self.latest = Some(DelaySample {
                relative_ns: ts.val_ns as i64 - ts.ecr_ns as i64,
                receiver_ns: ts.val_ns,
            });
        }
    }

    fn on_ack(&mut self, w: &mut Window, _now: Time, s: &AckSample) {
        let window_ends = self.rounds.round_ends(s);
        if self.latest.is_none() {
            w.grow(s.acked_bytes, s.flight_bytes);
            return;
        }
        let measured = window_ends && self.close_window(s.delivered_bytes, w.mss());
        if w.in_slow_start() {
            if measured && self.queued > self.n_op {
                w.set_ssthresh(w.cwnd());
            } else {
                w.grow(s.acked_bytes, s.flight_bytes);
            }
        } else if measured {
            if self.queued < self.n_op {
                if w.may_grow(s.flight_bytes) {
                    w.set_cwnd(w.cwnd() + w.mss());
                }
            } else if self.queued > self.n_op {
                w.set_cwnd(w.cwnd().saturating_sub(w.mss()).max(2 * w.mss()));
            }
        }
    }

    fn judge(&mut self, _w: &Window, _now: Time, ev: &CongestionEvent) -> LossCause {
        if ev.kind != CongestionKind::FastRetransmit || ev.cause != LossCause::Congestion || !self.measured {
            return ev.cause;
        }
        if self.congested() {
            LossCause::Congestion
        } else {
            LossCause::Corruption
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{CcConfig, CongestionControl, RateSample, RetransmitWindow};
    use lasthop_core::packet::Timestamps;

    const MS: u64 = 1_000_000;

    fn santa_cruz(icw: u32, ssthresh: u64) -> CongestionControl {
        CongestionControl::new(RetransmitWindow::Inflate, 1000, icw, ssthresh)
            .with_controller(&CcConfig::named(NAME, &[]).unwrap())
    }

    /// An ack of one segment: `delivered` bytes delivered in all, the acked
    /// segment sent with `prior` delivered and stamped `sent_us`; the
    /// receiver's TSval `recv_us` (µs, to keep half milliseconds exact).
    fn ack(cc: &mut CongestionControl, delivered: u64, prior: u64, sent_us: u64, recv_us: u64) {
        let s = AckSample {
            acked_bytes: 1000,
            flight_bytes: 1 << 30,
            rtt_ns: Some(100 * MS),
            delivered_bytes: delivered,
            rate: Some(RateSample { prior_delivered_bytes: prior, ..RateSample::default() }),
            peer_ts: Some(Timestamps { val_ns: recv_us * 1000, ecr_ns: sent_us * 1000 }),
            ..AckSample::default()
        };
        let now = Time::from_ns(recv_us * 1000 + 50 * MS);
        cc.on_every_ack(now, &s);
        cc.on_ack(now, &s);
    }

    fn dupack_loss(flight: u64) -> CongestionEvent {
        CongestionEvent::new(CongestionKind::FastRetransmit, LossCause::Congestion, flight, u64::MAX)
    }

    /// Congestion avoidance (cwnd 4 segments = ssthresh), forward delay 50 ms
    /// plus queueing, one window a round trip of 100 ms at the receiver.
    #[test]
    fn window_follows_queued_packets_and_labels_losses() {
        let mut cc = santa_cruz(4, 4000);
        // Window 0: ack 1 ends the first round (prior 0): the first sample,
        // R − S = 50 ms at R = 50 ms, 1000 delivered. Acks 2-4 (prior 0):
        // same delay; nothing changes within a window.
        ack(&mut cc, 1000, 0, 0, 50_000);
        for k in 1..=3u64 {
            ack(&mut cc, 1000 + 1000 * k, 0, 1000 * k, 50_000 + 1000 * k);
        }
        assert_eq!(cc.cwnd(), 4000);
        // Window 1 ends (prior 1000): R = 150 ms, R − S = 52.5 ms, 5000
        // delivered. D_W = 2.5 ms; Δ = 100 ms / 4 segments = 25 ms; M_W = 0.1,
        // N = 0.1 < 1.5: +1 segment. An increase: state 1.
        ack(&mut cc, 5000, 1000, 97_500, 150_000);
        assert_eq!(cc.cwnd(), 5000);
        // Window 2 ends: R = 250, R − S = 72.5, 10,000 delivered: D_W = 20 ms,
        // Δ = 100 / 5 = 20 ms, M_W = 1, N = 1.1 < 1.5: +1 (6000). A second
        // increase: the congestion state.
        ack(&mut cc, 7000, 1000, 147_500, 200_000); // within the window: nothing
        assert_eq!(cc.cwnd(), 5000);
        ack(&mut cc, 10_000, 5000, 177_500, 250_000);
        assert_eq!(cc.cwnd(), 6000);
        let mut congested = cc.clone();
        congested.on_congestion(Time::from_ms(400), &dupack_loss(6000), 3);
        assert_eq!((congested.ssthresh(), congested.cwnd()), (3000, 6000), "congestion: Reno's cut, 3000 + 3 segments");
        // Window 3 ends: R = 350, R − S = 92.5, 16,000 delivered: D_W = 20 ms,
        // Δ = 100 / 6 ms, M_W = 1.2, N = 2.3 > 1.5: −1 segment (5000).
        ack(&mut cc, 16_000, 10_000, 257_500, 350_000);
        assert_eq!(cc.cwnd(), 5000);
        // Window 4 ends: R = 450, R − S = 75.5, 21,000 delivered: D_W = −17 ms,
        // Δ = 20 ms, M_W = −0.85, N = 1.45 < 1.5: +1 (6000). A decrease: state 0.
        ack(&mut cc, 21_000, 16_000, 374_500, 450_000);
        assert_eq!(cc.cwnd(), 6000);
        // The same loss now is random: retransmitted, no cut.
        cc.on_congestion(Time::from_ms(600), &dupack_loss(6000), 3);
        assert_eq!((cc.ssthresh(), cc.cwnd()), (4000, 6000));
    }

    /// Slow start is Reno's until a window's end finds N > n_op.
    #[test]
    fn slow_start_ends_when_the_queue_passes_the_operating_point() {
        let mut cc = santa_cruz(2, u64::MAX / 4);
        // Window 0 (2 acks, prior 0): R − S = 50 ms; slow start: 3000, 4000.
        ack(&mut cc, 1000, 0, 0, 50_000);
        ack(&mut cc, 2000, 0, 1000, 51_000);
        assert_eq!(cc.cwnd(), 4000);
        // Window 1 ends (prior 1000): R = 150, R − S = 60 ms, 3000 delivered:
        // Δ = 100 / 2 = 50 ms, M_W = 0.2, N = 0.2: slow start goes on (5000).
        ack(&mut cc, 3000, 1000, 90_000, 150_000);
        assert_eq!(cc.cwnd(), 5000);
        ack(&mut cc, 4000, 1000, 91_000, 151_000);
        ack(&mut cc, 5000, 2000, 92_000, 152_000);
        ack(&mut cc, 6000, 2000, 93_000, 153_000);
        assert_eq!(cc.cwnd(), 8000);
        // Window 2 ends (prior 3000): R = 250, R − S = 120 ms, 7000 delivered:
        // Δ = 100 / 4 = 25 ms, M_W = 60 / 25 = 2.4, N = 2.6 > 1.5: slow start
        // ends at this window (ssthresh = cwnd = 8000), no growth on the ack.
        ack(&mut cc, 7000, 3000, 130_000, 250_000);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (8000, 8000));
        ack(&mut cc, 8000, 3000, 131_000, 251_000);
        assert_eq!(cc.cwnd(), 8000, "avoidance: nothing within a window");
    }

    /// Without timestamps the window grows as Reno's and every loss is
    /// congestion.
    #[test]
    fn without_timestamps_it_is_reno() {
        let mut cc = santa_cruz(4, 4000);
        let s = AckSample { acked_bytes: 1000, flight_bytes: 4000, ..AckSample::default() };
        cc.on_every_ack(Time::ZERO, &s);
        cc.on_ack(Time::ZERO, &s);
        assert_eq!(cc.cwnd(), 4250, "Reno: 1000²/4000");
        cc.on_congestion(Time::ZERO, &dupack_loss(4000), 3);
        assert_eq!(cc.ssthresh(), 2000);
    }
}
