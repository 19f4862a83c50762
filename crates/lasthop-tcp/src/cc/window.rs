//! The window every controller shares: cwnd, ssthresh and their bounds,
//! with the RFC 5681 rules (Reno's, the family's default member) as shared
//! helpers: slow start then additive increase ([`Window::grow`]), the loss
//! cut ([`Window::reno_ssthresh`]), and the window rules of loss recovery
//! (Reno's inflation, NewReno's partial-ack deflation, the exit).
//!
//! RFC 5681 window rules: slow start (3.1: cwnd += min(N, SMSS) per ack while
//! cwnd < ssthresh), congestion avoidance (cwnd += SMSS·SMSS/cwnd per ack, the
//! per-ack form of 3.1 eq. 3), ssthresh = max(FlightSize/2, 2·SMSS) on a loss
//! (eq. 4), a one-segment loss window after a timeout. Counting is per ack,
//! not per byte (no RFC 3465 ABC), as in 4.4BSD.
//!
//! 4.4BSD-Lite's rules (BSD/OS 2.1, the 1997 testbed's stack) are options,
//! each quoting the line it follows: [`WindowGrowth::Bsd44`] (the extra
//! `maxseg/8` in congestion avoidance), [`WindowCut::Bsd44`] (ssthresh from
//! half of min(snd_wnd, cwnd), not of the data outstanding) and
//! [`RecoveryExit::Bsd44`] (Reno's deflation only of an inflated window,
//! followed by the ack's own growth).
//!
//! The window rules of loss recovery (the cut's cwnd, Reno's inflation,
//! NewReno's partial-ack deflation, the exit) are loss recovery's, in
//! `crate::recovery::window_rules`, on this same state.
//!
//! A fast retransmit leaves a window by the recovery's rule
//! ([`RetransmitWindow`]): Tahoe restarts slow start from one segment
//! (Jacobson 1988), Reno sets cwnd = ssthresh + 3·SMSS and inflates it per
//! duplicate ack (RFC 5681 3.2 steps 4–5). A loss whose cause is corruption
//! (ELN, ELSN: seed 000 Sec. III-A, seed 004) leaves the window alone.

use super::CongestionEvent;
use crate::config::{CwndBound, RecoveryExit, WindowCut, WindowGrowth};

/// The window a fast retransmit leaves: the loss-recovery rule's part of
/// the window (Tahoe has no fast recovery).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetransmitWindow {
    /// Tahoe (Jacobson 1988): slow start again from one segment.
    SlowStart,
    /// Reno (RFC 5681 3.2 steps 4-5): ssthresh + 3·SMSS, inflated per duplicate.
    Inflate,
}

#[derive(Clone, Debug)]
pub struct Window {
    pub(crate) algo: RetransmitWindow,
    pub(crate) growth: WindowGrowth,
    pub(crate) cut: WindowCut,
    pub(crate) exit: RecoveryExit,
    pub(crate) bound: CwndBound,
    /// Fast recovery has inflated cwnd beyond ssthresh + threshold·SMSS
    /// (4.4BSD: `t_dupacks > tcprexmtthresh`).
    pub(crate) inflated: bool,
    pub(crate) mss: u64,
    /// Congestion window, in bytes.
    pub(crate) cwnd: u64,
    /// Slow-start threshold, in bytes.
    pub(crate) ssthresh: u64,
    /// Largest window growth may reach, in bytes.
    pub(crate) max_cwnd: u64,
    /// The window a recovery began with when it began without a cut (an
    /// ELN-marked ack started it, [`LossCause::Corruption`]), in whole
    /// segments, 0 for none: its exit returns there, the ssthresh no loss
    /// reduced being no window to deflate to (issue 29: SACK with ELN left
    /// recovery at u32::MAX). Segments in a u16 (rounded down, at most
    /// 65,535) keep this struct at 40 bytes, and the sender's hot fields
    /// within their four cache lines (`sender.rs`'s layout test).
    pub(crate) uncut_segments: u16,
}

impl Window {
    pub fn new(algo: RetransmitWindow, mss_bytes: u32, initial_cwnd_segments: u32, ssthresh_bytes: u64) -> Self {
        let mss = u64::from(mss_bytes);
        Window {
            algo,
            growth: WindowGrowth::Rfc5681,
            cut: WindowCut::Rfc5681,
            exit: RecoveryExit::Rfc5681,
            bound: CwndBound::None,
            inflated: false,
            mss,
            cwnd: mss * u64::from(initial_cwnd_segments.max(1)),
            ssthresh: ssthresh_bytes,
            max_cwnd: u64::MAX,
            uncut_segments: 0,
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

    /// Bound growth by the rule of the stack modelled (see [`CwndBound`]);
    /// `peer_buffer_bytes` is the peer's socket buffer, whose window-scale
    /// shift sets 4.4BSD's `TCP_MAXWIN << snd_scale`.
    pub fn with_bound(mut self, bound: CwndBound, peer_buffer_bytes: u64) -> Self {
        self.bound = bound;
        if bound == CwndBound::MaxWindow {
            self.max_cwnd = self.max_cwnd.min(crate::window_scale::max_window(peer_buffer_bytes)).max(self.mss);
        }
        self
    }

    pub fn with_growth(mut self, growth: WindowGrowth) -> Self {
        self.growth = growth;
        self
    }

    pub fn with_cut(mut self, cut: WindowCut) -> Self {
        self.cut = cut;
        self
    }

    pub fn with_recovery_exit(mut self, exit: RecoveryExit) -> Self {
        self.exit = exit;
        self
    }

    pub fn cwnd(&self) -> u64 {
        self.cwnd
    }
    pub fn ssthresh(&self) -> u64 {
        self.ssthresh
    }
    pub fn mss(&self) -> u64 {
        self.mss
    }
    /// Set cwnd (a controller that computes its own window: CUBIC, BBR,
    /// Vegas), kept within one segment and the cap.
    pub fn set_cwnd(&mut self, bytes: u64) {
        self.cwnd = bytes.clamp(self.mss, self.max_cwnd.max(self.mss));
    }
    /// Set ssthresh (at least two segments, RFC 5681 eq. 4's floor).
    pub fn set_ssthresh(&mut self, bytes: u64) {
        self.ssthresh = bytes.max(2 * self.mss);
    }
    /// In slow start by the configured growth rule (4.4BSD: cwnd <= ssthresh).
    pub fn in_slow_start(&self) -> bool {
        match self.growth {
            WindowGrowth::Rfc5681 => self.cwnd < self.ssthresh,
            WindowGrowth::Bsd44 => self.cwnd <= self.ssthresh,
        }
    }
    /// Whether the bound lets an ack with `flight_bytes` outstanding open
    /// the window (see [`CwndBound`]); shared by every controller's growth.
    #[inline]
    pub fn may_grow(&self, flight_bytes: u64) -> bool {
        self.bound != CwndBound::CwndLimited || self.cwnd_limited(flight_bytes)
    }

    /// New data acknowledged outside loss recovery; `flight_bytes` were
    /// outstanding when the ack arrived: slow start, then additive
    /// increase, by the configured growth rule (Reno's; the default every
    /// controller may fall back to).
    #[inline]
    pub fn grow(&mut self, acked_bytes: u64, flight_bytes: u64) {
        if !self.may_grow(flight_bytes) {
            return;
        }
        match self.growth {
            WindowGrowth::Rfc5681 if self.cwnd < self.ssthresh => self.cwnd += acked_bytes.min(self.mss),
            WindowGrowth::Rfc5681 => self.cwnd += (self.mss * self.mss / self.cwnd).max(1),
            // tcp_input: `if (cw > snd_ssthresh) incr = incr*incr/cw + incr/8`.
            WindowGrowth::Bsd44 if self.cwnd <= self.ssthresh => self.cwnd += self.mss,
            WindowGrowth::Bsd44 => self.cwnd += self.mss * self.mss / self.cwnd + self.mss / 8,
        }
        self.cwnd = self.cwnd.min(self.max_cwnd);
    }

    /// Linux `tcp_is_cwnd_limited()`: in slow start "ensure cwnd grows to
    /// twice what was ACKed" (`snd_cwnd < 2 * max_packets_out`), after it
    /// only if the flight filled the window (`packets_in_flight >=
    /// snd_cwnd`, in whole segments as Linux counts them).
    fn cwnd_limited(&self, flight_bytes: u64) -> bool {
        if self.in_slow_start() {
            self.cwnd < flight_bytes.saturating_mul(2)
        } else {
            flight_bytes >= self.cwnd / self.mss * self.mss
        }
    }

    /// An ECN-Echo (RFC 3168 Sec. 6.1.2): ssthresh as decided, cwnd =
    /// ssthresh, never raised by the cut.
    pub fn ecn_cut(&mut self, ssthresh: u64) {
        self.uncut_segments = 0;
        self.ssthresh = ssthresh;
        self.inflated = false;
        self.cwnd = self.cwnd.min(self.ssthresh);
    }

    /// Reno's slow-start threshold after a loss, by the event's rule or
    /// else the configured one (RFC 5681 eq. 4: max(FlightSize/2, 2·SMSS);
    /// 4.4BSD: half of min(snd_wnd, cwnd)).
    pub fn reno_ssthresh(&self, ev: &CongestionEvent) -> u64 {
        let window = match ev.cut_rule.unwrap_or(self.cut) {
            WindowCut::Rfc5681 => ev.flight_bytes,
            // tcp_input and tcp_timer: `min(tp->snd_wnd, tp->snd_cwnd)`.
            WindowCut::Bsd44 => ev.peer_window_bytes.min(self.cwnd),
        };
        // RFC 5681 eq. 4, rounded down to whole segments as BSD does
        // (`win = window / 2 / t_maxseg; if (win < 2) win = 2`).
        let half = (window / 2) / self.mss * self.mss;
        half.max(2 * self.mss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{CongestionKind, LossCause};

    /// A flight that fills any window: growth not held back by the bound.
    const FILLED: u64 = 1 << 40;

    /// The default controller's cut (what `CongestionControl` does for Reno).
    fn reno_cut(w: &mut Window, ev: &CongestionEvent, dupack_threshold: u32) {
        if !w.begin_loss(ev) {
            let ssthresh = w.reno_ssthresh(ev);
            w.cut(ev, ssthresh, dupack_threshold);
        }
    }

    fn ev(kind: CongestionKind, cause: LossCause, flight: u64) -> CongestionEvent {
        CongestionEvent { kind, cause, flight_bytes: flight, peer_window_bytes: u64::MAX, cut_rule: None }
    }

    /// The 4.4BSD cap (seed 000 Fig. 11: a loss-free sender "maintains a
    /// 64-kbyte congestion window").
    #[test]
    fn growth_stops_at_the_cap() {
        let mut cc = Window::new(RetransmitWindow::Inflate, 1000, 60, 1 << 30).with_max_cwnd(65_535);
        for _ in 0..10 {
            cc.grow(1000, FILLED);
        }
        assert_eq!(cc.cwnd(), 65_535);
    }

    /// Issue 29 item 2, Linux `tcp_is_cwnd_limited()`: a sender whose
    /// window is not what limits it (the peer's window, its socket buffer)
    /// stops opening cwnd: in slow start at twice the flight, in congestion
    /// avoidance at the flight.
    #[test]
    fn cwnd_limited_opens_only_a_window_that_limits_sending() {
        let mut cc = Window::new(RetransmitWindow::Inflate, 1000, 4, 1 << 30).with_bound(CwndBound::CwndLimited, 0);
        // t0: slow start, 3 segments in flight: 4000 < 6000, the ack opens it.
        cc.grow(1000, 3000);
        assert_eq!(cc.cwnd(), 5000);
        cc.grow(1000, 3000);
        assert_eq!(cc.cwnd(), 6000, "5000 < 2 * 3000");
        cc.grow(1000, 3000);
        assert_eq!(cc.cwnd(), 6000, "twice what was in flight: held");
        // Congestion avoidance: only a full window opens it.
        let mut cc = Window::new(RetransmitWindow::Inflate, 1000, 10, 5000).with_bound(CwndBound::CwndLimited, 0);
        cc.grow(1000, 9000);
        assert_eq!(cc.cwnd(), 10_000, "9 segments in flight of a 10-segment window");
        cc.grow(1000, 10_000);
        assert_eq!(cc.cwnd(), 10_100, "a full window opens it");
        cc.grow(1000, 10_000);
        assert_eq!(cc.cwnd(), 10_199, "10,100 counts as 10 whole segments, as Linux counts packets");
        // Without the bound, the same acks open it every time (ns-2).
        let mut ns2 = Window::new(RetransmitWindow::Inflate, 1000, 4, 1 << 30);
        for _ in 0..3 {
            ns2.grow(1000, 3000);
        }
        assert_eq!(ns2.cwnd(), 7000);
    }

    /// Issue 29 item 2, 4.4BSD: cwnd at most `TCP_MAXWIN << snd_scale`, the
    /// scale the peer's 1 MB socket buffer asks for (5: 2,097,120 bytes).
    #[test]
    fn max_window_is_the_scaled_tcp_maxwin() {
        let mut cc =
            Window::new(RetransmitWindow::Inflate, 1000, 2090, 1 << 40).with_bound(CwndBound::MaxWindow, 1 << 20);
        for _ in 0..20 {
            cc.grow(1000, FILLED);
        }
        assert_eq!(cc.cwnd(), 2_097_120);
        let small = Window::new(RetransmitWindow::Inflate, 1000, 70, 1 << 40).with_bound(CwndBound::MaxWindow, 32_768);
        let mut small = small;
        small.grow(1000, FILLED);
        assert_eq!(small.cwnd(), 65_535, "no scaling for a 32 KB buffer");
        // An explicit cap below it still holds.
        let mut capped = Window::new(RetransmitWindow::Inflate, 1000, 70, 1 << 40)
            .with_max_cwnd(40_000)
            .with_bound(CwndBound::MaxWindow, 1 << 20);
        capped.grow(1000, FILLED);
        assert_eq!(capped.cwnd(), 40_000);
    }

    #[test]
    fn slow_start_then_avoidance() {
        let mut cc = Window::new(RetransmitWindow::Inflate, 1000, 1, 4000);
        for _ in 0..3 {
            cc.grow(1000, FILLED);
        }
        assert_eq!(cc.cwnd(), 4000);
        cc.grow(1000, FILLED);
        assert_eq!(cc.cwnd(), 4250, "SMSS*SMSS/cwnd in avoidance");
    }

    #[test]
    fn bsd44_growth_adds_an_eighth_segment_per_ack() {
        let mut cc = Window::new(RetransmitWindow::Inflate, 1000, 4, 4000).with_growth(WindowGrowth::Bsd44);
        cc.grow(1000, FILLED);
        assert_eq!(cc.cwnd(), 5000, "cwnd <= ssthresh is still slow start in 4.4BSD");
        cc.grow(1000, FILLED);
        assert_eq!(cc.cwnd(), 5000 + 200 + 125);
    }

    /// Issue 10: the 4.4BSD-Lite increment, `incr*incr/cw + incr/8` with C's
    /// integer division, per ack once cwnd is above ssthresh.
    #[test]
    fn bsd44_increment_per_ack_is_the_source_form() {
        let mss = 1400u64;
        let mut cc = Window::new(RetransmitWindow::Inflate, 1400, 8, 8 * 1400).with_growth(WindowGrowth::Bsd44);
        cc.grow(1400, FILLED); // cw = ssthresh: `cw > snd_ssthresh` fails, a whole segment
        assert_eq!(cc.cwnd(), 9 * mss);
        for _ in 0..200 {
            let cw = cc.cwnd();
            cc.grow(1400, FILLED);
            assert_eq!(cc.cwnd(), cw + mss * mss / cw + mss / 8, "cw = {cw}");
        }
        // TCP_MAXWIN << snd_scale caps it.
        let mut cc = cc.with_max_cwnd(20_000);
        cc.grow(1400, FILLED);
        assert_eq!(cc.cwnd(), 20_000);
    }

    /// Issue 10: 4.4BSD cuts from min(snd_wnd, snd_cwnd), not from the data
    /// outstanding: a timeout after a timeout (cwnd one segment) leaves the
    /// 2-segment floor, where RFC 5681's FlightSize keeps half the window.
    #[test]
    fn bsd44_cut_halves_min_of_window_and_cwnd() {
        let mut ev = ev(CongestionKind::Timeout, LossCause::Congestion, 20_000);
        ev.peer_window_bytes = 32_768;
        let mut bsd = Window::new(RetransmitWindow::Inflate, 1000, 30, 1 << 30).with_cut(WindowCut::Bsd44);
        reno_cut(&mut bsd, &ev, 3);
        // min(32768, 30000) / 2 / 1000 = 15 segments.
        assert_eq!((bsd.cwnd(), bsd.ssthresh()), (1000, 15_000));
        reno_cut(&mut bsd, &ev, 3);
        assert_eq!(bsd.ssthresh(), 2000, "min(32768, 1000) / 2 / 1000 = 0, raised to 2");
        let mut rfc = Window::new(RetransmitWindow::Inflate, 1000, 30, 1 << 30);
        reno_cut(&mut rfc, &ev, 3);
        reno_cut(&mut rfc, &ev, 3);
        assert_eq!(rfc.ssthresh(), 10_000, "FlightSize / 2");
        // The advertised window bounds it too.
        let mut small = Window::new(RetransmitWindow::Inflate, 1000, 30, 1 << 30).with_cut(WindowCut::Bsd44);
        ev.kind = CongestionKind::FastRetransmit;
        ev.peer_window_bytes = 8192;
        reno_cut(&mut small, &ev, 3);
        assert_eq!((small.ssthresh(), small.cwnd()), (4000, 4000 + 3000));
    }

    /// Issue 10: 4.4BSD deflates only a window inflated past ssthresh +
    /// 3 segments (`t_dupacks > tcprexmtthresh`), then opens it as any ack.
    #[test]
    fn bsd44_recovery_exit() {
        let fr = ev(CongestionKind::FastRetransmit, LossCause::Congestion, 10_000);
        let mk = || {
            Window::new(RetransmitWindow::Inflate, 1000, 10, 1 << 30)
                .with_growth(WindowGrowth::Bsd44)
                .with_recovery_exit(RecoveryExit::Bsd44)
        };
        // Exactly three duplicates: cwnd = ssthresh + 3 segments stays, and
        // the ack's avoidance increment comes on top.
        let mut cc = mk();
        reno_cut(&mut cc, &fr, 3);
        cc.on_reno_recovery_exit(1000, FILLED);
        assert_eq!(cc.cwnd(), 8000 + 1000 * 1000 / 8000 + 1000 / 8);
        // A fourth: deflated to ssthresh, then a whole segment (cw = ssthresh).
        let mut cc = mk();
        reno_cut(&mut cc, &fr, 3);
        cc.on_dupack_in_recovery();
        cc.on_reno_recovery_exit(1000, FILLED);
        assert_eq!(cc.cwnd(), 5000 + 1000);
        // RFC 5681 3.2 step 6 for comparison.
        let mut rfc = Window::new(RetransmitWindow::Inflate, 1000, 10, 1 << 30);
        reno_cut(&mut rfc, &fr, 3);
        rfc.on_reno_recovery_exit(1000, FILLED);
        assert_eq!(rfc.cwnd(), 5000);
    }

    #[test]
    fn loss_responses_differ_only_on_fast_retransmit() {
        let mut reno = Window::new(RetransmitWindow::Inflate, 1000, 10, 1 << 30);
        reno_cut(&mut reno, &ev(CongestionKind::FastRetransmit, LossCause::Congestion, 10_000), 3);
        assert_eq!((reno.cwnd(), reno.ssthresh()), (8000, 5000));
        reno.on_dupack_in_recovery();
        assert_eq!(reno.cwnd(), 9000);
        reno.on_recovery_exit();
        assert_eq!(reno.cwnd(), 5000);

        let mut tahoe = Window::new(RetransmitWindow::SlowStart, 1000, 10, 1 << 30);
        reno_cut(&mut tahoe, &ev(CongestionKind::FastRetransmit, LossCause::Congestion, 10_000), 3);
        assert_eq!((tahoe.cwnd(), tahoe.ssthresh()), (1000, 5000));

        reno_cut(&mut reno, &ev(CongestionKind::Timeout, LossCause::Congestion, 3000), 3);
        assert_eq!((reno.cwnd(), reno.ssthresh()), (1000, 2000), "2 SMSS floor, 1 SMSS loss window");
    }

    #[test]
    fn corruption_leaves_the_window_alone() {
        let mut cc = Window::new(RetransmitWindow::Inflate, 1000, 10, 1 << 30);
        reno_cut(&mut cc, &ev(CongestionKind::FastRetransmit, LossCause::Corruption, 10_000), 3);
        assert_eq!(cc.cwnd(), 10_000);
    }

    #[test]
    fn partial_ack_deflation() {
        let mut cc = Window::new(RetransmitWindow::Inflate, 1000, 10, 1 << 30);
        reno_cut(&mut cc, &ev(CongestionKind::FastRetransmit, LossCause::Congestion, 10_000), 3);
        cc.on_partial_ack(3000);
        assert_eq!(cc.cwnd(), 8000 - 3000 + 1000);
    }
}
