//! What mobility asks of a [`Sender`] (elaarag-002.md Sec. 1.0): the hooks
//! the mechanisms of seed 002 call on an endpoint, each a rule of the
//! primary paper behind it.
//!
//! - F3 [`Sender::freeze`] / [`Sender::unfreeze`]: the M-TCP client at the
//!   mobile host stops its timers when its link goes down and resumes them
//!   with their remaining durations when it comes back (Brown and Singh
//!   1997). While frozen nothing is sent and the retransmission (or
//!   persist) deadline is held as a remaining duration; an ack that
//!   arrives meanwhile is taken, and the deadline it sets is held too.
//!   Departure: the other deadlines (SA's burst timer, TCP-DCR's held
//!   response, pacing) are absolute and are not shifted: one that came due
//!   while frozen acts at the thaw.
//! - F5 [`Sender::local_fast_retransmit`]: fast-retransmit handoff
//!   (Caceres and Iftode 1995): "the mobile host invokes fast retransmit"
//!   when a handoff completes, acting as if the third duplicate ack had
//!   arrived: the variant's own rule (Tahoe's go-back-N in slow start,
//!   Reno's and NewReno's fast recovery, SACK's entry), through
//!   [`crate::recovery::Recovery::on_local_request`].
//! - F6 [`Sender::reset_on_move`]: I-TCP's wireless side and MHP after a
//!   move (Bakre and Badrinath 1995; Yavatkar and Bhagwat 1994): "the
//!   timers are cleared, consequently immediately entering slow start":
//!   the backoff cleared (the RTO back to the current estimate), cwnd one
//!   segment with ssthresh kept, and everything from `snd_una` sent again.

use super::Sender;
use crate::recovery::AckInfo;
use lasthop_core::trace::{SenderEventKind, Trace};
use lasthop_core::Time;

/// A frozen sender's held state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Frozen {
    /// What was left of the retransmission (or persist) timer, if armed.
    remaining_ns: Option<u64>,
    /// Whether the application had started (frozen, the sender reads as
    /// not started: its one test per segment stops it).
    started: bool,
}

impl Sender {
    /// Stop every timer and all sending (F3); a second call changes
    /// nothing.
    pub fn freeze(&mut self, now: Time) {
        if self.frozen.is_some() {
            return;
        }
        self.frozen = Some(Box::new(Frozen { remaining_ns: None, started: self.started }));
        self.started = false;
        self.hold_deadline(now);
    }

    /// Resume the timers with what remained of them, and sending (F3).
    pub fn unfreeze(&mut self, now: Time) {
        let Some(f) = self.frozen.take() else { return };
        self.started = f.started || self.started;
        if let Some(ns) = f.remaining_ns {
            self.rto_at = now.plus_ns(ns);
            if self.persist.active {
                self.persist.at = self.rto_at;
            }
        }
    }

    /// Whether the sender is frozen.
    pub fn is_frozen(&self) -> bool {
        self.frozen.is_some()
    }

    /// While frozen: the deadline the timer slot holds becomes a remaining
    /// duration (the slot is emptied). Called at the freeze and after
    /// anything that may arm the slot (an ack).
    pub(super) fn hold_deadline(&mut self, now: Time) {
        let Some(f) = self.frozen.as_mut() else { return };
        if self.rto_at != Time::NEVER {
            f.remaining_ns = Some(self.rto_at.ns().saturating_sub(now.ns()));
            self.rto_at = Time::NEVER;
        }
    }

    /// `start` on a frozen sender: it starts at the thaw.
    pub(super) fn start_frozen(&mut self) {
        if let Some(f) = self.frozen.as_mut() {
            f.started = true;
            self.started = false;
        }
    }

    /// Fast retransmit now, as if the threshold-th duplicate ack had
    /// arrived (F5). Nothing outstanding, in recovery, persisting, stopped,
    /// frozen or still opening the connection: nothing happens. Returns
    /// whether a fast retransmit began (the variant's `recover` guard may
    /// refuse it; SMART has no duplicate-ack rule).
    pub fn local_fast_retransmit(&mut self, now: Time, trace: &mut Trace) -> bool {
        let outstanding = self.snd_max > self.snd_una;
        if !outstanding || self.stopped || self.frozen.is_some() || self.persist.active || self.in_recovery() {
            return false;
        }
        if self.is_syn_sent() {
            return false;
        }
        let info = AckInfo {
            now,
            snd_una: self.snd_una,
            snd_max: self.snd_max,
            acked_bytes: 0,
            dup: true,
            predictable: false,
            sack: &[],
            smart_echo: None,
            eln: false,
            fr_request: true,
            rtt: &self.rtt,
        };
        let Some(answer) = self.recovery.on_local_request(&info) else { return false };
        let began = answer.cut().is_some();
        if began {
            self.stats.local_fast_retransmits += 1;
        }
        let before = (self.cc.cwnd(), self.cc.ssthresh());
        // Not a receiver's request: not counted as one.
        self.apply(now, 0, answer.with_requested(false), trace);
        if before != (self.cc.cwnd(), self.cc.ssthresh()) {
            self.trace_window(now, trace);
        }
        began
    }

    /// Reset on a move (F6): the backoff cleared, cwnd one segment
    /// (ssthresh kept), recovery abandoned as after a timeout, and
    /// everything from `snd_una` sent again, the timer armed with the
    /// current estimate. Nothing outstanding or stopped: only the backoff
    /// and the window.
    pub fn reset_on_move(&mut self, now: Time, trace: &mut Trace) {
        self.stats.move_resets += 1;
        self.event(now, SenderEventKind::MoveReset, trace);
        self.rtt.clear_backoff();
        self.cc.restart_from_one_segment();
        self.trace_window(now, trace);
        if self.stopped || self.snd_max <= self.snd_una || self.persist.active {
            return;
        }
        self.recovery.on_timeout(self.snd_una, self.snd_max);
        self.timing = None;
        self.pending_rexmit = None;
        self.snd_nxt = self.snd_una;
        self.arm_rto(now);
        self.hold_deadline(now);
    }
}
