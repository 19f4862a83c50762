//! How a [`Sender`] runs seed 004's LL-ELSN (Yun 2009, Secs. 3.1, 4.1, 4.2,
//! 5.3): the two link-layer notifications, the ack path of each response, the
//! segments they send at once, and the timer's ERSN deferral. The mechanisms
//! are in [`crate::ll_elsn`] (ERSN marks, ELN filtering), [`crate::esack`],
//! [`crate::hack`] and [`crate::lhp`]; this file is a child of the sender so
//! that it reaches the sender's state without widening its fields.
//!
//! An LL-ELSN sender is a SACK sender ([`Variant::Sack`]; the paper's
//! receivers are unmodified SACK receivers, and LHP's also echoes the
//! triggering segment). What every response shares:
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

use super::Sender;
use crate::cc::{CongestionEvent, CongestionKind, LossCause};
use crate::config::Variant;
use crate::esack::DupackBranch;
use crate::ll_elsn::{ElnVerdict, LlElsn, LlElsnConfig, LlElsnResponse, ResponseState};
use lasthop_core::trace::{SenderEventKind, Trace, TraceEvent};
use lasthop_core::{TcpHeader, Time};

impl Sender {
    /// Makes this sender an LL-ELSN sender (seed 004). It must be a SACK
    /// sender and be configured before it starts.
    pub fn with_ll_elsn(mut self, cfg: LlElsnConfig) -> Sender {
        assert_eq!(self.cfg.variant, Variant::Sack, "LL-ELSN runs over the SACK sender");
        self.ll_elsn = Some(Box::new(LlElsn::new(cfg, self.cfg.mss_bytes, self.cfg.dupack_threshold)));
        self.ll_elsn_on = true;
        self
    }

    /// The LL-ELSN configuration, if any.
    pub fn ll_elsn(&self) -> Option<LlElsnConfig> {
        self.ll_elsn.as_ref().map(|l| l.cfg)
    }

    /// True while ELN filtering holds a disconnection (seed 004 Sec. 4.2).
    pub fn is_disconnected(&self) -> bool {
        self.ll_elsn.as_ref().is_some_and(|l| l.filter.disconnected())
    }

    /// The duplicate-ack count (the SACK sender's, or ESACK's Algorithm 1).
    pub fn dupacks(&self) -> u32 {
        match self.recovery {
            crate::recovery::Recovery::Sender => self.dupacks,
            _ => self.recovery.dupacks(),
        }
    }

    /// ESACK's retransmission queue, first bytes in sending order.
    pub fn esack_order(&self) -> Option<Vec<u64>> {
        match &self.ll_elsn.as_ref()?.response {
            ResponseState::Esack(q) => Some(q.order()),
            _ => None,
        }
    }

    /// The LHP packet list, (first byte, duplicate-ack counter) in sending order.
    pub fn lhp_counters(&self) -> Option<Vec<(u64, u32)>> {
        match &self.ll_elsn.as_ref()?.response {
            ResponseState::Lhp(l) => Some(l.counters()),
            _ => None,
        }
    }

    /// ERSN (seed 004 Sec. 3.1): the link layer is retransmitting the segment
    /// starting at `seq` for the first time. Marks it (see
    /// [`crate::ll_elsn`]); a no-op for a sender without LL-ELSN.
    pub fn on_ersn(&mut self, now: Time, seq: u64, trace: &mut Trace) {
        if self.stopped || !self.ll_elsn_on {
            return;
        }
        self.stats.ersns_received += 1;
        self.event(now, SenderEventKind::ErsnReceived, trace);
        if self.cfg.mutations.ignore_ersn {
            return;
        }
        let Some(l) = self.ll_elsn.as_deref_mut() else { return };
        let sacked = self.sack.as_ref().is_some_and(|sb| sb.is_sacked(seq));
        // No deferrals allowed: the sender ignores ERSNs (LL-ELSN without ERSN).
        if seq >= self.snd_una && seq < self.snd_max && !sacked && l.cfg.ersn_max_deferrals > 0 {
            l.ersn.mark(seq);
        }
    }

    /// ELN (seed 004 Sec. 3.1): the link layer discarded the segment starting
    /// at `seq`. Resent at once unless ELN filtering holds it back; a no-op
    /// for a sender without LL-ELSN.
    pub fn on_link_eln(&mut self, now: Time, seq: u64, trace: &mut Trace) {
        if self.stopped || !self.ll_elsn_on {
            return;
        }
        self.stats.elns_received += 1;
        self.event(now, SenderEventKind::ElnReceived, trace);
        if self.cfg.mutations.ignore_link_eln {
            return;
        }
        let Some(l) = self.ll_elsn.as_deref_mut() else { return };
        l.ersn.clear(seq);
        let sacked = self.sack.as_ref().is_some_and(|sb| sb.is_sacked(seq));
        if seq < self.snd_una || seq >= self.snd_max || sacked {
            return; // stale: already delivered
        }
        match l.filter.on_eln(l.order.index_of(seq)) {
            ElnVerdict::Skip => return,
            ElnVerdict::Retransmit => {}
            ElnVerdict::Disconnect => {
                // "freezes all the TCP-related parameters".
                self.stats.disconnections += 1;
                l.frozen = Some((self.cc.clone(), self.rtt.clone()));
                trace.record(now, TraceEvent::Sender { flow: self.flow, kind: SenderEventKind::Disconnection });
            }
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
                if seq == self.snd_una {
                    self.dupacks = 0;
                }
            }
            // The list moves the packet when it leaves (any retransmission does).
            ResponseState::Hack(_) | ResponseState::Lhp(_) => {}
        }
        self.event(now, SenderEventKind::ElnRetransmit, trace);
        if seq == self.snd_una {
            self.arm_rto(now);
        }
    }

    /// `choose`'s first question: a segment an LL-ELSN response sends now,
    /// ahead of the window rules (ELN resends, LHP fast retransmits), or the
    /// LHP list's own window rule for the next segment.
    pub(super) fn choose_ll_elsn(&self) -> Option<(u64, u64)> {
        let l = self.ll_elsn.as_deref()?;
        let end = self.end_of_data();
        let lhp = match &l.response {
            ResponseState::Lhp(list) => Some(list),
            _ => None,
        };
        let lhp_rexmit = lhp.map_or(&[][..], |list| list.rexmit.as_slice());
        let at_once = l.eln_rexmit.iter().chain(lhp_rexmit).find(|&&s| s >= self.snd_una && s < self.snd_max);
        if let Some(&seq) = at_once {
            return Some((seq, self.cc.mss().min(end - seq)));
        }
        let list = lhp?;
        // LHP: the listed bytes are what is outstanding.
        if self.pending_rexmit.is_some()
            || self.snd_nxt >= end
            || list.outstanding_bytes() + self.cc.mss() > self.cc.cwnd()
        {
            return None;
        }
        let limit_rwnd = self.snd_una + self.rwnd.min(self.send_buffer_bytes);
        let len = self.cc.mss().min(end - self.snd_nxt);
        if self.snd_nxt + len > limit_rwnd || (len < self.cc.mss() && self.app_limited) {
            return None;
        }
        Some((self.snd_nxt, len))
    }

    /// A segment chosen by `choose` leaves: the sending order is recorded.
    /// True if it is an ELN resend.
    pub(super) fn on_ll_elsn_sent(&mut self, seq: u64, len: u64, retransmit: bool) -> bool {
        let Some(l) = self.ll_elsn.as_deref_mut() else { return false };
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
        if eln {
            self.stats.ll_eln_retransmits += 1;
        }
        eln
    }

    /// The retransmission timer expired with data outstanding: true if an
    /// ERSN defers it; otherwise the timeout goes ahead and the LL-ELSN
    /// state forgets what the go-back-N resends supersede.
    pub(super) fn on_ll_elsn_timeout(&mut self, now: Time, trace: &mut Trace) -> bool {
        let Some(l) = self.ll_elsn.as_deref_mut() else { return false };
        // Sec. 3.1: "neither invokes congestion control due to the packet 1
        // nor retransmits it": no retransmission, no cut, no backoff.
        if l.ersn.defer(self.snd_una, l.cfg.ersn_max_deferrals) {
            self.stats.ersn_deferred_timeouts += 1;
            trace.record(now, TraceEvent::Sender { flow: self.flow, kind: SenderEventKind::TimeoutDeferred });
            self.arm_rto(now);
            return true;
        }
        l.ersn.on_timeout();
        l.eln_rexmit.clear();
        match &mut l.response {
            ResponseState::Esack(q) => q.on_timeout(),
            ResponseState::Hack(holes) => holes.on_timeout(),
            ResponseState::Lhp(list) => list.on_timeout(),
        }
        false
    }

    /// An ack at an LL-ELSN sender: what all responses share, then the
    /// response's own ack path.
    pub(super) fn on_ack_ll_elsn(&mut self, now: Time, hdr: &TcpHeader, acked: u64, dup: bool, trace: &mut Trace) {
        let snd_una = self.snd_una;
        let l = self.ll_elsn.as_deref_mut().expect("an LL-ELSN sender");
        l.order.on_ack(snd_una);
        l.eln_rexmit.retain(|&s| s >= snd_una);
        if acked > 0 && l.filter.on_new_ack() {
            // "If the TCP sender receives a new ACK, the TCP sender restores
            // the parameters and resumes data service."
            if let Some((cc, rtt)) = l.frozen.take() {
                self.cc = cc;
                self.rtt = rtt;
            }
        }
        match l.cfg.response {
            LlElsnResponse::Esack => self.on_ack_esack(now, hdr, acked, dup, trace),
            LlElsnResponse::Hack => self.on_ack_hack(now, hdr, acked, dup, trace),
            LlElsnResponse::HackFixed => self.on_ack_hack_fixed(now, hdr, acked, dup, trace),
            LlElsnResponse::LhpList => self.on_ack_lhp(now, hdr, acked, trace),
        }
        let sb = self.sack.as_deref().expect("SACK variant has a scoreboard");
        if let Some(l) = self.ll_elsn.as_deref_mut() {
            l.ersn.on_ack(self.snd_una, acked > 0, |s| sb.is_sacked(s));
        }
    }

    /// ESACK (Sec. 4.1, Algorithm 1): the SACK sender's ack processing with
    /// Algorithm 1's duplicate-ack count and FirstUnsacked as the fast
    /// retransmission.
    fn on_ack_esack(&mut self, now: Time, hdr: &TcpHeader, acked: u64, dup: bool, trace: &mut Trace) {
        let cause = self.loss_cause(hdr);
        let snd_una = self.snd_una;
        let sb = self.sack.as_mut().expect("SACK variant has a scoreboard");
        let newly_sacked = sb.on_ack(snd_una, hdr.sack.as_slice());
        let Some(LlElsn { response: ResponseState::Esack(q), ersn: marks, .. }) = self.ll_elsn.as_deref_mut() else {
            unreachable!("an ESACK sender has its queue")
        };
        if acked > 0 {
            q.on_new_ack(snd_una);
            // As the SACK sender (RFC 6675 Sec. 5).
            self.on_sack_new_ack(now, acked, trace);
            return;
        }
        // The SACK sender's duplicate ack: one that SACKs new data.
        if !dup || (newly_sacked == 0 && !sb.in_recovery()) {
            return;
        }
        let branch = q.on_dupack(snd_una, sb, marks);
        self.dupacks = branch.apply(self.dupacks);
        if branch == DupackBranch::Reneged {
            // "If the segment of HighACK is already SACKed, it means that the
            // segment was dropped in the receiver queue. Therefore, the
            // segment needs to be transmitted again": no congestion response.
            self.pending_rexmit = Some(snd_una);
            self.timing = None;
        }
        if sb.in_recovery() {
            return;
        }
        // FirstUnsacked is never a segment the link layer is retrying
        // (Sec. 3.1); with every unSACKed segment marked there is none, and
        // nothing to fast retransmit.
        let Some(first) = q.first_unsacked(sb, marks) else { return };
        let lost = q.first_unsacked_is_lost(sb, marks);
        let requested = self.cfg.fr_request && hdr.fr_request;
        if (self.dupacks >= self.cfg.dupack_threshold || lost || requested) && sb.may_enter_recovery(snd_una) {
            let requested_only = requested && self.dupacks < self.cfg.dupack_threshold && !lost;
            // "In fast retransmit phase, the sender retransmits the
            // FirstUnsacked segment." The scoreboard takes it as step (4.3)'s
            // retransmission: HighRxt moves past it, and the holes below it,
            // resent on ELNs, count as in flight.
            self.enter_sack_recovery(now, first, requested_only, cause, trace);
        }
    }

    /// HACK (see [`crate::hack`]): the SACK sender's ack processing, but a
    /// duplicate ack while HighACK's segment is marked by an ERSN is not
    /// counted (Sec. 3.1: no congestion control "due to the packet 1").
    fn on_ack_hack(&mut self, now: Time, hdr: &TcpHeader, acked: u64, dup: bool, trace: &mut Trace) {
        if acked == 0 && dup && self.hack_skips_dupack(hdr, false) {
            return;
        }
        self.on_ack_sack(now, hdr, acked, dup, trace);
    }

    /// HACK-fixed (see [`crate::hack`]): a duplicate ack while HighACK's
    /// segment is a hole resent on an ELN, or is marked by an ERSN, is not
    /// counted.
    fn on_ack_hack_fixed(&mut self, now: Time, hdr: &TcpHeader, acked: u64, dup: bool, trace: &mut Trace) {
        let snd_una = self.snd_una;
        let Some(ResponseState::Hack(holes)) = self.ll_elsn.as_deref_mut().map(|l| &mut l.response) else {
            unreachable!("a HACK-fixed sender has its holes")
        };
        holes.on_ack(snd_una);
        let resent_on_eln = holes.contains(snd_una);
        if acked == 0 && dup && self.hack_skips_dupack(hdr, resent_on_eln) {
            return;
        }
        self.on_ack_sack(now, hdr, acked, dup, trace);
    }

    /// A HACK or HACK-fixed duplicate ack outside recovery that is not to be
    /// counted, because HighACK's segment is marked by an ERSN (or, for
    /// HACK-fixed, `resent_on_eln`): its SACK blocks go on the scoreboard
    /// and nothing else happens. False otherwise (the caller goes on).
    fn hack_skips_dupack(&mut self, hdr: &TcpHeader, resent_on_eln: bool) -> bool {
        let snd_una = self.snd_una;
        let end = snd_una + self.cc.mss();
        let marked = self.ll_elsn.as_deref().is_some_and(|l| l.ersn.any_in(snd_una, end));
        let sb = self.sack.as_mut().expect("SACK variant has a scoreboard");
        if (resent_on_eln || marked) && !sb.in_recovery() {
            sb.on_ack(snd_una, hdr.sack.as_slice());
            return true;
        }
        false
    }

    /// The LHP packet list (see [`crate::lhp`]): the window opens per ack of
    /// new data; each packet whose counter reaches DupThresh is a fast
    /// retransmit and a halving of the window.
    fn on_ack_lhp(&mut self, now: Time, hdr: &TcpHeader, acked: u64, trace: &mut Trace) {
        let snd_una = self.snd_una;
        if let Some(sb) = self.sack.as_mut() {
            sb.on_ack(snd_una, hdr.sack.as_slice()); // kept current for ERSN/ELN checks
        }
        let Some(LlElsn { response: ResponseState::Lhp(list), ersn: marks, .. }) = self.ll_elsn.as_deref_mut() else {
            unreachable!("an LHP sender has its list")
        };
        let fired = list.on_ack(snd_una, hdr.smart_echo, marks);
        if acked > 0 {
            self.open_window(now, acked);
            self.arm_rto(now);
        }
        for _ in 0..fired {
            let Some(ResponseState::Lhp(list)) = self.ll_elsn.as_deref().map(|l| &l.response) else { break };
            let ev = CongestionEvent {
                kind: CongestionKind::FastRetransmit,
                cause: LossCause::Congestion,
                flight_bytes: list.outstanding_bytes(),
                peer_window_bytes: self.rwnd,
                cut_rule: None,
            };
            self.cc.on_congestion_no_inflation(now, &ev);
            self.ecn.on_window_reduced(self.snd_max);
            self.stats.fast_retransmits += 1;
            self.event(now, SenderEventKind::FastRetransmit, trace);
            self.timing = None;
            self.arm_rto(now);
        }
    }
}
