//! How a [`Sender`] takes seed 004's LL-ELSN (Yun 2009, Secs. 3.1, 4.1,
//! 4.2, 5.3): the two link-layer notifications, which are never acks, and
//! the sender's part of what they cause (counters, trace events, the timer,
//! the parameters a disconnection freezes). What the notifications and the
//! acks mean to the response is the recovery's LL-ELSN member
//! ([`crate::recovery::ll_elsn`]); the mechanisms are in [`crate::ll_elsn`].
//! This file is a child of the sender so that it reaches the sender's state
//! without widening its fields.

use super::Sender;
use crate::config::Variant;
use crate::ll_elsn::{ElnVerdict, LlElsn, LlElsnConfig, ResponseState};
use crate::recovery::{DupAck, Recovery};
use lasthop_core::trace::{SenderEventKind, Trace, TraceEvent};
use lasthop_core::Time;

impl Sender {
    /// Makes this sender an LL-ELSN sender (seed 004). It must be a SACK
    /// sender and be configured before it starts.
    pub fn with_ll_elsn(mut self, cfg: LlElsnConfig) -> Sender {
        assert_eq!(self.cfg.variant, Variant::Sack, "LL-ELSN runs over the SACK sender");
        let ll = LlElsn::new(cfg, self.cfg.mss_bytes, self.cfg.dupack_threshold);
        // A placeholder while the SACK member becomes the LL-ELSN member.
        let placeholder = Recovery::DupAck(DupAck::new(&self.cfg));
        let recovery = std::mem::replace(&mut self.recovery, placeholder);
        self.recovery = recovery.with_ll_elsn(ll, u64::from(self.cfg.mss_bytes));
        self.ll_elsn_on = true;
        self
    }

    /// The LL-ELSN configuration, if any.
    pub fn ll_elsn(&self) -> Option<LlElsnConfig> {
        self.recovery.ll_elsn().map(|l| l.config())
    }

    /// True while ELN filtering holds a disconnection (seed 004 Sec. 4.2).
    pub fn is_disconnected(&self) -> bool {
        self.recovery.ll_elsn().is_some_and(|l| l.is_disconnected())
    }

    /// The duplicate-ack count (the SACK sender's, or ESACK's Algorithm 1).
    pub fn dupacks(&self) -> u32 {
        self.recovery.dupacks()
    }

    /// ESACK's retransmission queue, first bytes in sending order.
    pub fn esack_order(&self) -> Option<Vec<u64>> {
        match self.recovery.ll_elsn()?.response() {
            ResponseState::Esack(q) => Some(q.order()),
            _ => None,
        }
    }

    /// The LHP packet list, (first byte, duplicate-ack counter) in sending order.
    pub fn lhp_counters(&self) -> Option<Vec<(u64, u32)>> {
        match self.recovery.ll_elsn()?.response() {
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
        let (snd_una, snd_max) = (self.snd_una, self.snd_max);
        if let Some(l) = self.recovery.ll_elsn_mut() {
            l.on_ersn(seq, snd_una, snd_max);
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
        let (snd_una, snd_max) = (self.snd_una, self.snd_max);
        let Some(l) = self.recovery.ll_elsn_mut() else { return };
        let Some(verdict) = l.on_link_eln(seq, snd_una, snd_max) else { return };
        if verdict == ElnVerdict::Disconnect {
            // "freezes all the TCP-related parameters".
            self.stats.disconnections += 1;
            l.freeze(self.cc.clone(), self.rtt.clone());
            trace.record(now, TraceEvent::Sender { flow: self.flow, kind: SenderEventKind::Disconnection });
        }
        self.event(now, SenderEventKind::ElnRetransmit, trace);
        if seq == self.snd_una {
            self.arm_rto(now);
        }
    }

    /// A segment chosen by `choose` leaves: the member records the sending
    /// order. True if it is an ELN resend.
    pub(super) fn on_ll_elsn_sent(&mut self, seq: u64, len: u64, retransmit: bool) -> bool {
        let eln = self.recovery.on_sent(seq, len, retransmit);
        if eln {
            self.stats.ll_eln_retransmits += 1;
        }
        eln
    }

    /// The retransmission timer expired with data outstanding: true if an
    /// ERSN defers it (re-armed for one RTO, nothing else).
    pub(super) fn on_ll_elsn_timeout(&mut self, now: Time, trace: &mut Trace) -> bool {
        if !self.recovery.defers_timeout(self.snd_una) {
            return false;
        }
        self.stats.ersn_deferred_timeouts += 1;
        trace.record(now, TraceEvent::Sender { flow: self.flow, kind: SenderEventKind::TimeoutDeferred });
        self.arm_rto(now);
        true
    }

    /// A new ack ended a disconnection: "the TCP sender restores the
    /// parameters and resumes data service".
    #[cold]
    pub(super) fn resume(&mut self) {
        if let Some((cc, rtt)) = self.recovery.ll_elsn_mut().and_then(|l| l.take_frozen()) {
            self.cc = cc;
            self.rtt = rtt;
        }
    }
}
