//! Congestion control: owns cwnd and ssthresh, and nothing else.
//!
//! RFC 5681 window rules: slow start (3.1: cwnd += min(N, SMSS) per ack while
//! cwnd < ssthresh), congestion avoidance (cwnd += SMSS·SMSS/cwnd per ack, the
//! per-ack form of 3.1 eq. 3), ssthresh = max(FlightSize/2, 2·SMSS) on a loss
//! (eq. 4), a one-segment loss window after a timeout. Counting is per ack,
//! not per byte (no RFC 3465 ABC), as in 4.4BSD; BSD's extra `maxseg/8` term in
//! congestion avoidance is left out.
//!
//! The algorithms differ only on a fast retransmit: Tahoe restarts slow start
//! from one segment (Jacobson 1988), Reno sets cwnd = ssthresh + 3·SMSS and
//! inflates it per duplicate ack (RFC 5681 3.2 steps 4–5). A loss whose cause
//! is corruption (ELN, ELSN: seed 000 Sec. III-A, seed 004) leaves the window
//! alone; that is how later schemes plug in.

use crate::config::WindowGrowth;

/// What kind of loss signal the loss-recovery part reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongestionKind {
    FastRetransmit,
    Timeout,
}

/// What the sender believes caused a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossCause {
    Congestion,
    /// Told by an explicit notification that the segment was corrupted.
    Corruption,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CongestionEvent {
    pub kind: CongestionKind,
    pub cause: LossCause,
    /// Data outstanding when the loss was detected, in bytes.
    pub flight_bytes: u64,
}

/// The window rules a sender uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcAlgorithm {
    Tahoe,
    Reno,
}

#[derive(Clone, Debug)]
pub struct CongestionControl {
    algo: CcAlgorithm,
    growth: WindowGrowth,
    mss: u64,
    /// Congestion window, in bytes.
    cwnd: u64,
    /// Slow-start threshold, in bytes.
    ssthresh: u64,
    /// Largest window growth may reach, in bytes.
    max_cwnd: u64,
}

impl CongestionControl {
    pub fn new(algo: CcAlgorithm, mss_bytes: u32, initial_cwnd_segments: u32, ssthresh_bytes: u64) -> Self {
        let mss = u64::from(mss_bytes);
        CongestionControl {
            algo,
            growth: WindowGrowth::Rfc5681,
            mss,
            cwnd: mss * u64::from(initial_cwnd_segments.max(1)),
            ssthresh: ssthresh_bytes,
            max_cwnd: u64::MAX,
        }
    }

    /// Cap window growth at `bytes`, as 4.4BSD caps it at the largest window
    /// it can advertise (tcp_input: `snd_cwnd = min(cw + incr,
    /// TCP_MAXWIN << snd_scale)`). Fast-recovery inflation is not capped
    /// there either.
    pub fn with_max_cwnd(mut self, bytes: u64) -> Self {
        self.max_cwnd = bytes.max(self.mss);
        self
    }

    pub fn with_growth(mut self, growth: WindowGrowth) -> Self {
        self.growth = growth;
        self
    }

    pub fn cwnd(&self) -> u64 {
        self.cwnd
    }
    pub fn ssthresh(&self) -> u64 {
        self.ssthresh
    }

    /// New data acknowledged outside loss recovery.
    pub fn on_ack(&mut self, acked_bytes: u64) {
        match self.growth {
            WindowGrowth::Rfc5681 if self.cwnd < self.ssthresh => self.cwnd += acked_bytes.min(self.mss),
            WindowGrowth::Rfc5681 => self.cwnd += (self.mss * self.mss / self.cwnd).max(1),
            // tcp_input: `if (cw > snd_ssthresh) incr = incr*incr/cw + incr/8`.
            WindowGrowth::Bsd44 if self.cwnd <= self.ssthresh => self.cwnd += self.mss,
            WindowGrowth::Bsd44 => self.cwnd += self.mss * self.mss / self.cwnd + self.mss / 8,
        }
        self.cwnd = self.cwnd.min(self.max_cwnd);
    }

    pub fn on_congestion(&mut self, ev: &CongestionEvent, dupack_threshold: u32) {
        if ev.cause == LossCause::Corruption {
            return;
        }
        // RFC 5681 eq. 4, rounded down to whole segments as BSD does.
        let half = (ev.flight_bytes / 2) / self.mss * self.mss;
        self.ssthresh = half.max(2 * self.mss);
        self.cwnd = match (ev.kind, self.algo) {
            (CongestionKind::Timeout, _) | (CongestionKind::FastRetransmit, CcAlgorithm::Tahoe) => self.mss,
            (CongestionKind::FastRetransmit, CcAlgorithm::Reno) => {
                self.ssthresh + u64::from(dupack_threshold) * self.mss
            }
        };
    }

    /// Entering SACK-based recovery (RFC 6675 Sec. 5 step 4.2: "ssthresh =
    /// cwnd = (FlightSize / 2)"), also SMART's once-per-episode cut: no
    /// inflation by the duplicate acks already seen.
    pub fn on_congestion_no_inflation(&mut self, ev: &CongestionEvent) {
        if ev.cause == LossCause::Corruption {
            return;
        }
        let half = (ev.flight_bytes / 2) / self.mss * self.mss;
        self.ssthresh = half.max(2 * self.mss);
        self.cwnd = self.ssthresh;
    }

    /// A further duplicate ack during fast recovery (RFC 5681 3.2 step 4).
    pub fn on_dupack_in_recovery(&mut self) {
        self.cwnd += self.mss;
    }

    /// RFC 6582 3.2 step 5: deflate by the amount acked, add back one SMSS if
    /// at least one SMSS was acked.
    pub fn on_partial_ack(&mut self, acked_bytes: u64) {
        self.cwnd = self.cwnd.saturating_sub(acked_bytes);
        if acked_bytes >= self.mss {
            self.cwnd += self.mss;
        }
        self.cwnd = self.cwnd.max(self.mss);
    }

    /// Fast recovery ends (RFC 5681 3.2 step 6, RFC 6582 3.2 step 4 option 1):
    /// deflate the window to ssthresh.
    pub fn on_recovery_exit(&mut self) {
        self.cwnd = self.ssthresh;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: CongestionKind, cause: LossCause, flight: u64) -> CongestionEvent {
        CongestionEvent { kind, cause, flight_bytes: flight }
    }

    /// The 4.4BSD cap (seed 000 Fig. 11: a loss-free sender "maintains a
    /// 64-kbyte congestion window").
    #[test]
    fn growth_stops_at_the_cap() {
        let mut cc = CongestionControl::new(CcAlgorithm::Reno, 1000, 60, 1 << 30).with_max_cwnd(65_535);
        for _ in 0..10 {
            cc.on_ack(1000);
        }
        assert_eq!(cc.cwnd(), 65_535);
    }

    #[test]
    fn slow_start_then_avoidance() {
        let mut cc = CongestionControl::new(CcAlgorithm::Reno, 1000, 1, 4000);
        for _ in 0..3 {
            cc.on_ack(1000);
        }
        assert_eq!(cc.cwnd(), 4000);
        cc.on_ack(1000);
        assert_eq!(cc.cwnd(), 4250, "SMSS*SMSS/cwnd in avoidance");
    }

    #[test]
    fn bsd44_growth_adds_an_eighth_segment_per_ack() {
        let mut cc = CongestionControl::new(CcAlgorithm::Reno, 1000, 4, 4000).with_growth(WindowGrowth::Bsd44);
        cc.on_ack(1000);
        assert_eq!(cc.cwnd(), 5000, "cwnd <= ssthresh is still slow start in 4.4BSD");
        cc.on_ack(1000);
        assert_eq!(cc.cwnd(), 5000 + 200 + 125);
    }

    #[test]
    fn loss_responses_differ_only_on_fast_retransmit() {
        let mut reno = CongestionControl::new(CcAlgorithm::Reno, 1000, 10, 1 << 30);
        reno.on_congestion(&ev(CongestionKind::FastRetransmit, LossCause::Congestion, 10_000), 3);
        assert_eq!((reno.cwnd(), reno.ssthresh()), (8000, 5000));
        reno.on_dupack_in_recovery();
        assert_eq!(reno.cwnd(), 9000);
        reno.on_recovery_exit();
        assert_eq!(reno.cwnd(), 5000);

        let mut tahoe = CongestionControl::new(CcAlgorithm::Tahoe, 1000, 10, 1 << 30);
        tahoe.on_congestion(&ev(CongestionKind::FastRetransmit, LossCause::Congestion, 10_000), 3);
        assert_eq!((tahoe.cwnd(), tahoe.ssthresh()), (1000, 5000));

        reno.on_congestion(&ev(CongestionKind::Timeout, LossCause::Congestion, 3000), 3);
        assert_eq!((reno.cwnd(), reno.ssthresh()), (1000, 2000), "2 SMSS floor, 1 SMSS loss window");
    }

    #[test]
    fn corruption_leaves_the_window_alone() {
        let mut cc = CongestionControl::new(CcAlgorithm::Reno, 1000, 10, 1 << 30);
        cc.on_congestion(&ev(CongestionKind::FastRetransmit, LossCause::Corruption, 10_000), 3);
        assert_eq!(cc.cwnd(), 10_000);
    }

    #[test]
    fn partial_ack_deflation() {
        let mut cc = CongestionControl::new(CcAlgorithm::Reno, 1000, 10, 1 << 30);
        cc.on_congestion(&ev(CongestionKind::FastRetransmit, LossCause::Congestion, 10_000), 3);
        cc.on_partial_ack(3000);
        assert_eq!(cc.cwnd(), 8000 - 3000 + 1000);
    }
}
