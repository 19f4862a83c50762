//! The window rules of loss recovery, on the shared window
//! ([`crate::cc::Window`]): what cwnd becomes when a loss is cut (the
//! ssthresh being the congestion controller's answer), Reno's inflation by
//! duplicate acks (RFC 5681 3.2 steps 3-4), NewReno's partial-ack
//! deflation (RFC 6582 3.2 step 5), and the exit (RFC 5681 3.2 step 6, or
//! 4.4BSD's, [`crate::config::RecoveryExit`]). A loss whose cause is
//! corruption (ELN, ELSN, a controller's loss differentiation) is not cut:
//! the recovery that follows returns to the window it began with.

use crate::cc::window::RetransmitWindow;
use crate::cc::{CongestionEvent, CongestionKind, LossCause, Window};
use crate::config::RecoveryExit;

impl Window {
    /// A loss begins: true if it leaves the window uncut (its cause is
    /// corruption), the window remembered for the recovery's exit; false
    /// (any uncut window forgotten) if the caller is to cut.
    pub(crate) fn begin_loss(&mut self, ev: &CongestionEvent) -> bool {
        self.uncut(ev)
    }

    /// The cut of a loss: ssthresh as the controller decided it, cwnd by
    /// the kind of loss and the recovery's rule: a timeout's one-segment
    /// loss window, Tahoe's slow start or Reno's ssthresh +
    /// `dupack_threshold`·SMSS (RFC 5681 3.2 step 3).
    pub fn cut(&mut self, ev: &CongestionEvent, ssthresh: u64, dupack_threshold: u32) {
        self.ssthresh = ssthresh;
        self.inflated = false;
        self.cwnd = match (ev.kind, self.algo) {
            (CongestionKind::Timeout, _) | (_, RetransmitWindow::SlowStart) => self.mss,
            (_, RetransmitWindow::Inflate) => self.ssthresh + u64::from(dupack_threshold) * self.mss,
        };
    }

    /// Entering SACK-based recovery (RFC 6675 Sec. 5 step 4.2: "ssthresh =
    /// cwnd = (FlightSize / 2)"), also SMART's once-per-episode cut: no
    /// inflation by the duplicate acks already seen.
    pub fn cut_no_inflation(&mut self, ssthresh: u64) {
        self.ssthresh = ssthresh;
        self.cwnd = self.ssthresh;
    }

    /// A further duplicate ack during fast recovery (RFC 5681 3.2 step 4).
    pub fn on_dupack_in_recovery(&mut self) {
        self.cwnd += self.mss;
        self.inflated = true;
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
    /// deflate the window to ssthresh; a recovery that began without a cut
    /// returns to the window it began with.
    pub fn on_recovery_exit(&mut self) {
        self.cwnd = self.take_uncut().unwrap_or(self.ssthresh);
        self.inflated = false;
    }

    /// A recovery begins on `ev`: true if without a cut (a corruption loss),
    /// its window remembered; false (and any uncut window forgotten) if the
    /// caller is to cut.
    fn uncut(&mut self, ev: &CongestionEvent) -> bool {
        let uncut = ev.cause == LossCause::Corruption;
        self.uncut_segments = if uncut { (self.cwnd / self.mss).clamp(1, u64::from(u16::MAX)) as u16 } else { 0 };
        uncut
    }

    /// The window an uncut recovery began with, forgotten.
    fn take_uncut(&mut self) -> Option<u64> {
        let segments = std::mem::take(&mut self.uncut_segments);
        (segments > 0).then(|| u64::from(segments) * self.mss)
    }

    /// Reno's fast recovery ends on an ack of `acked_bytes` new bytes.
    pub fn on_reno_recovery_exit(&mut self, acked_bytes: u64, flight_bytes: u64) {
        if let Some(cwnd) = self.take_uncut() {
            self.cwnd = cwnd;
            self.inflated = false;
            return;
        }
        match self.exit {
            RecoveryExit::Rfc5681 => self.on_recovery_exit(),
            RecoveryExit::Bsd44 => {
                // tcp_input: "If the congestion window was inflated to account
                // for the other side's cached packets, retract it", then the
                // ack opens the window ("When new data is acked, open the
                // congestion window"): cwnd = ssthresh is not above ssthresh,
                // so that opening is a whole segment.
                if self.inflated && self.cwnd > self.ssthresh {
                    self.cwnd = self.ssthresh;
                }
                self.inflated = false;
                self.grow(acked_bytes, flight_bytes);
            }
        }
    }
}
