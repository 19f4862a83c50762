//! The LL-ELSN member of [`super::Recovery`] (seed 004, Yun 2009, Secs.
//! 3.1, 4.1, 4.2, 5.3): the RFC 6675 sender ([`super::sack`]) with one of
//! the four responses to link-layer loss notification, and what they share.
//! The mechanisms are in [`crate::ll_elsn`] (ERSN marks, ELN filtering, the
//! configuration); each response's ack path is in its own file, an `impl`
//! of this member: [`super::esack`], [`super::hack`] (HACK and HACK-fixed)
//! and [`super::lhp`]. The sender (`crate::sender`, its `ll_elsn_hooks`)
//! takes the link layer's ERSN and ELN and forwards them here.
//!
//! An LL-ELSN sender is a SACK sender (the paper's receivers are unmodified
//! SACK receivers, and LHP's also echoes the triggering segment). What
//! every response shares:
//! - ELN(s) for an outstanding, unSACKed s: unless the filter holds it back,
//!   s is resent at once, ahead of anything else and whatever cwnd allows
//!   (Sec. 4.1: "the immediate retransmission ensures that the TCP connection
//!   remains ACK-clocked"; the original has left the network, so the window
//!   accounting is unchanged); cwnd, ssthresh and the duplicate-ack count are
//!   left alone; the timer restarts if s is the oldest outstanding segment.
//! - The resend is not entered on the RFC 6675 scoreboard: HighRxt is one
//!   pointer, and moving it past an ELN'd hole would mark the holes below it
//!   as retransmitted too. So during a SACK recovery a hole resent on an ELN
//!   counts in `pipe` only while IsLost does not condemn it, and NextSeg may
//!   resend it again once IsLost does (a departure: the paper's ns-2 Sack1
//!   kept a per-segment retransmitted flag).
//! - ERSN and ELN are never acks: they touch neither `snd_una`, nor the
//!   advertised window, nor any duplicate-ack count (but HACK-fixed's reset).
//! - ERSN (Sec. 3.1, "Upon reception of ERSN, the TCP sender neither invokes
//!   congestion control due to the packet 1 nor retransmits it"), on the
//!   duplicate-ack path as on the timer's: Algorithm 1 (Sec. 4.1) would fast
//!   retransmit FirstUnsacked at DupThresh duplicate acks even while the
//!   link layer retries it; Sec. 3.1 is followed, and why is in
//!   [`crate::ll_elsn`]. Per response: ESACK's FirstUnsacked is the first
//!   entry neither SACKed nor marked ([`crate::esack`]), so acks for
//!   segments that overtook a marked one count nothing and a congestion
//!   loss behind it is still counted and fast retransmitted; HACK and
//!   HACK-fixed count no duplicate ack while HighACK's segment is marked
//!   (RFC 6675 counts against HighACK + 1 only: a congestion loss behind it
//!   waits for the mark to clear); the LHP list leaves a marked packet's
//!   counter where it is; a SACK recovery's NextSeg passes marked segments
//!   over. What was not counted is not counted later either: an ELN that
//!   clears the mark finds the count as it was before the mark.
//! - ELN filtering's disconnection freezes the sender's window and RTO
//!   estimator; the copies are kept here, and the new ack that ends the
//!   disconnection answers `resume` for the sender to take them back.

use super::sack::SackRecovery;
use super::{AckAnswer, AckInfo, SendQuery};
use crate::cc::CongestionControl;
use crate::ll_elsn::{ElnVerdict, LlElsn, LlElsnConfig, LlElsnResponse, ResponseState};
use crate::rtt::RttEstimator;

/// SACK with an LL-ELSN response.
#[derive(Clone, Debug)]
pub struct LlElsnRecovery {
    pub(crate) sack: SackRecovery,
    pub(crate) ll: LlElsn,
    /// SMSS, in bytes.
    pub(crate) mss_bytes: u64,
}

impl LlElsnRecovery {
    pub fn new(sack: SackRecovery, ll: LlElsn, mss_bytes: u64) -> LlElsnRecovery {
        LlElsnRecovery { sack, ll, mss_bytes }
    }

    pub fn config(&self) -> LlElsnConfig {
        self.ll.cfg
    }
    pub fn is_disconnected(&self) -> bool {
        self.ll.filter.disconnected()
    }
    pub fn response(&self) -> &ResponseState {
        &self.ll.response
    }

    /// An ack: what all responses share, then the response's own ack path.
    pub fn on_ack(&mut self, a: &AckInfo) -> AckAnswer {
        let snd_una = a.snd_una;
        let l = &mut self.ll;
        l.order.on_ack(snd_una);
        l.eln_rexmit.retain(|&s| s >= snd_una);
        // "If the TCP sender receives a new ACK, the TCP sender restores
        // the parameters and resumes data service."
        let resume = a.acked_bytes > 0 && l.filter.on_new_ack();
        if a.acked_bytes > 0 {
            self.sack.dupacks = 0;
        }
        let answer = match l.cfg.response {
            LlElsnResponse::Esack => self.on_ack_esack(a),
            LlElsnResponse::Hack => self.on_ack_hack(a),
            LlElsnResponse::HackFixed => self.on_ack_hack_fixed(a),
            LlElsnResponse::LhpList => self.on_ack_lhp(a),
        }
        .resuming(resume);
        let sb = &self.sack.board;
        self.ll.ersn.on_ack(snd_una, a.acked_bytes > 0, |s| sb.is_sacked(s));
        answer
    }

    /// What a disconnection froze, taken back (see [`AckAnswer::resumes`]).
    pub fn take_frozen(&mut self) -> Option<(CongestionControl, RttEstimator)> {
        self.ll.frozen.take()
    }

    /// A disconnection is declared: the sender's parameters, frozen.
    pub fn freeze(&mut self, cc: CongestionControl, rtt: RttEstimator) {
        self.ll.frozen = Some((cc, rtt));
    }

    /// The first question when the sender may send: a segment a response
    /// sends now, ahead of the window rules (ELN resends, LHP fast
    /// retransmits), or the LHP list's own window rule for the next
    /// segment; `None`: the sender goes on.
    #[inline(never)]
    pub fn send_first(&self, q: SendQuery) -> Option<(u64, u64)> {
        let l = &self.ll;
        let end = q.end_of_data;
        let lhp = match &l.response {
            ResponseState::Lhp(list) => Some(list),
            _ => None,
        };
        let lhp_rexmit = lhp.map_or(&[][..], |list| list.rexmit.as_slice());
        let at_once = l.eln_rexmit.iter().chain(lhp_rexmit).find(|&&s| s >= q.snd_una && s < q.snd_max);
        if let Some(&seq) = at_once {
            return Some((seq, q.mss_bytes.min(end - seq)));
        }
        let list = lhp?;
        // LHP: the listed bytes are what is outstanding.
        if q.pending || q.snd_nxt >= end || list.outstanding_bytes() + q.mss_bytes > q.cwnd_bytes {
            return None;
        }
        let len = q.mss_bytes.min(end - q.snd_nxt);
        if q.snd_nxt + len > q.rwnd_limit || (len < q.mss_bytes && q.app_limited) {
            return None;
        }
        Some((q.snd_nxt, len))
    }

    /// A segment leaves: the sending order is recorded. True if it is an
    /// ELN resend.
    pub fn on_sent(&mut self, seq: u64, len: u64, retransmit: bool) -> bool {
        let l = &mut self.ll;
        l.order.on_sent(seq);
        let eln = match l.eln_rexmit.iter().position(|&s| s == seq) {
            Some(i) => {
                l.eln_rexmit.remove(i);
                true
            }
            None => false,
        };
        match &mut l.response {
            ResponseState::Esack(q) if !retransmit => q.on_new_segment(seq, len),
            ResponseState::Lhp(list) => list.on_sent(seq, len),
            _ => {}
        }
        eln
    }

    /// The retransmission timer expired with `snd_una` outstanding: true
    /// if an ERSN defers it (Sec. 3.1: "neither invokes congestion control
    /// due to the packet 1 nor retransmits it": no retransmission, no cut,
    /// no backoff).
    pub fn defers_timeout(&mut self, snd_una: u64) -> bool {
        self.ll.ersn.defer(snd_una, self.ll.cfg.ersn_max_deferrals)
    }

    /// FlightSize as the response counts it: the LHP list's bytes (the
    /// packets whose trigger has not arrived), else the SACK sender's.
    pub fn flight_bytes(&self, snd_una: u64, snd_max: u64) -> u64 {
        match &self.ll.response {
            ResponseState::Lhp(list) => list.outstanding_bytes(),
            _ => snd_max - snd_una,
        }
    }

    /// A timeout goes ahead: the LL-ELSN state forgets what the go-back-N
    /// resends supersede, and the SACK sender's.
    pub fn on_timeout(&mut self, snd_una: u64, snd_max: u64) {
        let l = &mut self.ll;
        l.ersn.on_timeout();
        l.eln_rexmit.clear();
        match &mut l.response {
            ResponseState::Esack(q) => q.on_timeout(),
            ResponseState::Hack(holes) => holes.on_timeout(),
            ResponseState::Lhp(list) => list.on_timeout(),
        }
        self.sack.on_timeout(snd_una, snd_max);
    }

    /// ERSN for the segment at `seq`: marked if outstanding and unSACKed
    /// (and deferrals are allowed at all: LL-ELSN without ERSN otherwise).
    pub fn on_ersn(&mut self, seq: u64, snd_una: u64, snd_max: u64) {
        let sacked = self.sack.board.is_sacked(seq);
        if seq >= snd_una && seq < snd_max && !sacked && self.ll.cfg.ersn_max_deferrals > 0 {
            self.ll.ersn.mark(seq);
        }
    }

    /// ELN for the segment at `seq`: `None` if stale (already delivered)
    /// or held back by the filter; else the filter's verdict (a
    /// disconnection to declare, or not), the segment queued to be resent
    /// at once and the response told.
    pub fn on_link_eln(&mut self, seq: u64, snd_una: u64, snd_max: u64) -> Option<ElnVerdict> {
        let l = &mut self.ll;
        l.ersn.clear(seq);
        let sacked = self.sack.board.is_sacked(seq);
        if seq < snd_una || seq >= snd_max || sacked {
            return None; // stale: already delivered
        }
        let verdict = l.filter.on_eln(l.order.index_of(seq));
        if verdict == ElnVerdict::Skip {
            return None;
        }
        if !l.eln_rexmit.contains(&seq) {
            l.eln_rexmit.push(seq);
        }
        match &mut l.response {
            // "the entry of the segment will be moved to the tail of the
            // retransmission queue after being retransmitted".
            ResponseState::Esack(q) => q.on_eln_retransmit(seq),
            ResponseState::Hack(holes) if l.cfg.response == LlElsnResponse::HackFixed => {
                holes.on_eln_retransmit(seq);
                if seq == snd_una {
                    self.sack.dupacks = 0;
                }
            }
            // The list moves the packet when it leaves (any retransmission does).
            ResponseState::Hack(_) | ResponseState::Lhp(_) => {}
        }
        Some(verdict)
    }
}
