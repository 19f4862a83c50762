//! Explicit Congestion Notification end to end (RFC 3168 Sec. 6.1), and the
//! ack-mark echo that seed 001's ACK congestion control adds (Sec. 6.1).
//!
//! Data direction, RFC 3168:
//! - The sender marks first transmissions ECT. Sec. 6.1.5: "the TCP data
//!   sender MUST NOT set either ECT codepoint in the IP header of
//!   retransmitted data packets".
//! - The receiver, on a CE-marked data segment, sets ECE on its acks "in a
//!   series of ACK packets" until a segment with CWR arrives (Sec. 6.1.3); a
//!   CE on the CWR segment itself starts a new series.
//! - The sender, on an ack with ECE, halves its window: ssthresh =
//!   max(FlightSize/2, 2·SMSS) (or the configured `window_cut` rule) and cwnd =
//!   ssthresh, no retransmission, and "should not react to congestion
//!   indications more than once every window of data" (Sec. 6.1.2): an ECE
//!   is answered only for an ack above the highest sequence sent at the
//!   previous reduction, and not during loss recovery. A fast retransmit or
//!   a timeout is a reduction too (as Linux's `tcp_ecn_queue_cwr`): the next
//!   new segment carries CWR and the window's later ECEs are not answered
//!   again. An ack with ECE does not open the window (ns-2 `TcpAgent`,
//!   `recv_newack_helper`, with `old_ecn_` false).
//!
//! Ack direction, seed 001 Sec. 6.1 and ns-2 `TcpAsymAgent`: the reverse
//! router marks acks; the data sender does not cut its own window for a
//! marked ack (ns-2's `recv_helper` only sets `ecn_to_echo_`) but copies the
//! mark into its next data segment, retransmissions included (ns-2's
//! `output_helper`). Representation: ECE set on a *data* segment means "an
//! ack of yours was marked"; RFC 3168 gives ECE no meaning on a data segment
//! of a one-way transfer, and ns-2 uses the same bit (`ecnecho` on data).
//! Marks arriving between two data segments are echoed once, as in ns-2.
//!
//! Departures: no ECN negotiation (flows start established); with cwnd at
//! one segment RFC 3168 Sec. 6.1.2 slows the sender further by resetting
//! the retransmission timer, which is not modelled; a cut never raises cwnd
//! (cwnd = min(cwnd, ssthresh), which differs from cwnd = ssthresh only when
//! cwnd is already below the 2-segment floor).

use lasthop_core::{Ecn, TcpHeader};

/// The data sender's ECN state.
#[derive(Clone, Copy, Debug, Default)]
pub struct EcnSender {
    /// RFC 3168 on the data.
    enabled: bool,
    /// Echo CE marks on acks as ECE on data (seed 001 ACC).
    echo_ack_marks: bool,
    /// Highest sequence sent (one past) at the last window reduction.
    reduced_at: Option<u64>,
    /// The next new data segment carries CWR.
    cwr_pending: bool,
    /// The next data segment carries ECE: an ack was marked.
    ack_mark_pending: bool,
    /// ECN-Echo reductions made.
    reductions: u64,
}

impl EcnSender {
    pub fn new(enabled: bool, echo_ack_marks: bool) -> EcnSender {
        EcnSender { enabled, echo_ack_marks, ..EcnSender::default() }
    }

    /// Window reductions made in answer to ECN-Echo.
    pub fn reductions(&self) -> u64 {
        self.reductions
    }

    /// The IP ECN field of a data segment (RFC 3168 Sec. 6.1.5).
    pub fn ip_ecn(&self, retransmit: bool) -> Ecn {
        if self.enabled && !retransmit {
            Ecn::Ect
        } else {
            Ecn::NotEct
        }
    }

    /// An ack arrived with CE: echo it on the next data segment.
    pub fn on_ack_ce(&mut self) {
        if self.echo_ack_marks {
            self.ack_mark_pending = true;
        }
    }

    /// An ack for `ack` carries ECE: true if the window is to be cut now
    /// (the first ECE of a new window, outside loss recovery).
    pub fn on_ece(&mut self, ack: u64, snd_max: u64, in_recovery: bool) -> bool {
        if !self.enabled || in_recovery || self.reduced_at.is_some_and(|r| ack <= r) {
            return false;
        }
        self.reductions += 1;
        self.on_window_reduced(snd_max);
        true
    }

    /// The window was cut (by ECE, a fast retransmit or a timeout) with
    /// data up to `snd_max` sent: later ECEs for that window are not
    /// answered, and the next new segment tells the receiver (CWR).
    pub fn on_window_reduced(&mut self, snd_max: u64) {
        if self.enabled {
            self.reduced_at = Some(snd_max);
            self.cwr_pending = true;
        }
    }

    /// Set CWR and ECE on a data segment about to leave.
    pub fn stamp(&mut self, hdr: &mut TcpHeader, new_data: bool) {
        if self.cwr_pending && new_data {
            hdr.cwr = true;
            self.cwr_pending = false;
        }
        if self.ack_mark_pending {
            hdr.ece = true;
            self.ack_mark_pending = false;
        }
    }
}

/// The data receiver's ECN state.
#[derive(Clone, Copy, Debug, Default)]
pub struct EcnReceiver {
    enabled: bool,
    ect_acks: bool,
    /// Set ECE on acks until CWR arrives.
    ece_pending: bool,
}

impl EcnReceiver {
    pub fn new(enabled: bool, ect_acks: bool) -> EcnReceiver {
        EcnReceiver { enabled, ect_acks, ece_pending: false }
    }

    /// A data segment arrived (its CE mark, if any, comes after through
    /// [`EcnReceiver::on_ce`]).
    pub fn on_segment(&mut self, hdr: &TcpHeader) {
        if hdr.cwr {
            self.ece_pending = false;
        }
    }

    /// The data segment just received was CE-marked.
    pub fn on_ce(&mut self) {
        if self.enabled {
            self.ece_pending = true;
        }
    }

    pub fn stamp(&self, hdr: &mut TcpHeader) {
        hdr.ece = self.ece_pending;
    }

    /// The IP ECN field of an ack.
    pub fn ip_ecn(&self) -> Ecn {
        if self.ect_acks {
            Ecn::Ect
        } else {
            Ecn::NotEct
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receiver_echoes_until_cwr_and_a_mark_on_the_cwr_segment_restarts() {
        let mut r = EcnReceiver::new(true, false);
        let mut ack = TcpHeader::default();
        r.stamp(&mut ack);
        assert!(!ack.ece);
        r.on_segment(&TcpHeader::default());
        r.on_ce();
        for _ in 0..3 {
            r.stamp(&mut ack);
            assert!(ack.ece, "a series of ECE acks");
        }
        let cwr = TcpHeader { cwr: true, ..TcpHeader::default() };
        r.on_segment(&cwr);
        r.stamp(&mut ack);
        assert!(!ack.ece, "CWR ends the series");
        r.on_segment(&cwr);
        r.on_ce();
        r.stamp(&mut ack);
        assert!(ack.ece, "CE on a CWR segment starts a new series");
        // Off: a CE mark is ignored.
        let mut off = EcnReceiver::new(false, true);
        off.on_ce();
        off.stamp(&mut ack);
        assert!(!ack.ece);
        assert_eq!(off.ip_ecn(), Ecn::Ect, "ECT acks are independent of data ECN");
    }

    #[test]
    fn sender_cuts_once_per_window_and_never_marks_retransmissions_ect() {
        let mut s = EcnSender::new(true, false);
        assert_eq!(s.ip_ecn(false), Ecn::Ect);
        assert_eq!(s.ip_ecn(true), Ecn::NotEct);
        assert!(s.on_ece(1000, 10_000, false), "first ECE");
        assert!(!s.on_ece(5000, 12_000, false), "same window");
        assert!(!s.on_ece(10_000, 12_000, false), "up to the highest byte sent at the cut");
        assert!(!s.on_ece(10_001, 12_000, true), "not during loss recovery");
        assert!(s.on_ece(10_001, 12_000, false), "the next window");
        assert_eq!(s.reductions(), 2);
        // CWR goes on the next new segment only.
        let mut h = TcpHeader::default();
        s.stamp(&mut h, false);
        assert!(!h.cwr);
        s.stamp(&mut h, true);
        assert!(h.cwr);
        let mut h = TcpHeader::default();
        s.stamp(&mut h, true);
        assert!(!h.cwr, "once");
    }

    #[test]
    fn ack_marks_are_echoed_once_on_the_next_data_segment() {
        let mut s = EcnSender::new(false, true);
        assert_eq!(s.ip_ecn(false), Ecn::NotEct);
        s.on_ack_ce();
        s.on_ack_ce();
        let mut h = TcpHeader::default();
        s.stamp(&mut h, false);
        assert!(h.ece, "a retransmission carries the echo too");
        let mut h = TcpHeader::default();
        s.stamp(&mut h, true);
        assert!(!h.ece, "two marks between data segments: one echo");
        assert!(!s.on_ece(1000, 2000, false), "the sender's own ECN is off");
    }
}
