//! Loss recovery by duplicate-ack counting: the [`DupAck`] member of
//! [`super::Recovery`].
//!
//! - Tahoe: fast retransmit on the third duplicate ack, then go-back-N from the
//!   hole in slow start. This is ns-2's Tahoe (`Agent/TCP`, used by seed 002),
//!   which resends everything after the hole; 4.3BSD-Tahoe instead restored
//!   `snd_nxt` after the one retransmission. A fast retransmit is taken only
//!   for acks above `recover`, the highest sequence sent at the previous loss
//!   (as ns-2's `recover_`), so one window's losses cause one window cut.
//! - Reno, RFC 5681 3.2: fast retransmit and fast recovery; the first ack of
//!   new data ends recovery, even a partial one.
//! - TCP-DCR ([`super::dcr`]): NewReno's rules, its fast retransmit held.
//! - NewReno, RFC 6582 3.2: recovery lasts until an ack covers `recover`; each
//!   partial ack retransmits the next hole at once. Fast retransmit is entered
//!   only when the ack is above `recover` (step 2, the "careful" variant, so a
//!   timeout's go-back-N does not trigger a second cut).
//!
//! Options of the member: ELN (seed 000 Sec. III-A): duplicate acks that
//! carry an ELN mark make the sender retransmit at the first or third of
//! them without touching cwnd or ssthresh; unmarked duplicates are handled
//! as the variant does. The fast-retransmit request ([`crate::fr_request`]).
//! Limited transmit (seed 000 Sec. V-C, RFC 3042): a new segment beyond the
//! window on each of the first two duplicate acks. 4.4BSD's header
//! prediction for Reno (see [`crate::sender`]): a predicted ack neither
//! opens nor deflates the window and leaves the count (`t_dupacks`) alone.
//!
//! Two counts are kept: BSD's `t_dupacks` (the threshold's, not counted in
//! recovery nor for ELN-marked duplicates, left by a predicted ack), and
//! every duplicate since the last new ack (the segments limited transmit
//! releases). The decisions on the first ([`DupAck::on_dupack`] and its
//! kin) answer an [`AckVerdict`], which [`DupAck::on_ack`] turns into the
//! family's [`AckAnswer`].

use super::dcr::{DelayedResponse, Held};
use super::{AckAnswer, AckInfo, Cut, ExitRule, Retransmit, WindowStep};
use crate::cc::LossCause;
use crate::config::{ElnResponse, HeaderPredictionGuard, SenderConfig, Variant};
use crate::rtt::RttEstimator;
use lasthop_core::Time;

/// What the count makes of an ack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckVerdict {
    /// New data acknowledged, no recovery involved.
    NewAck,
    /// A duplicate ack below the threshold, or one that must be ignored.
    Dupack,
    /// The threshold was reached: retransmit the first unacknowledged segment.
    FastRetransmit,
    /// A duplicate ack during fast recovery: inflate the window.
    DupackInRecovery,
    /// NewReno: new data acked but not all of it: retransmit the next hole.
    /// `first` is true for the first partial ack of this recovery.
    PartialAck { first: bool },
    /// Fast recovery ends.
    RecoveryExit,
}

/// The duplicate-ack member: Tahoe, Reno, NewReno and TCP-DCR. Its fields
/// are flat (40 bytes, a hot part of the sender's lines).
#[derive(Clone, Debug)]
pub struct DupAck {
    /// Highest sequence sent (one past) when the last loss was detected
    /// (meaningful once `recover_set`).
    recover: u64,
    /// TCP-DCR's held response (never holding for the other variants).
    dcr: DelayedResponse,
    dupack_threshold: u32,
    /// BSD's `t_dupacks`: the threshold's count.
    counted: u32,
    /// Duplicate acks since the last new ack, whatever was made of them.
    dupacks: u32,
    /// ELN-marked duplicate acks since the last new ack.
    eln_dupacks: u32,
    variant: Variant,
    in_recovery: bool,
    /// A partial ack was seen in this recovery.
    partial_ack_seen: bool,
    recover_set: bool,
    /// `cfg.eln`, `cfg.fr_request`, `cfg.limited_transmit` (copied).
    eln: ElnResponse,
    fr_request: bool,
    limited_transmit: bool,
    /// Reno with header prediction: the fast path's guard.
    header_prediction: Option<HeaderPredictionGuard>,
}

impl DupAck {
    pub fn new(cfg: &SenderConfig) -> DupAck {
        DupAck {
            recover: 0,
            dcr: DelayedResponse::default(),
            dupack_threshold: cfg.dupack_threshold,
            counted: 0,
            dupacks: 0,
            eln_dupacks: 0,
            variant: cfg.variant,
            in_recovery: false,
            partial_ack_seen: false,
            recover_set: false,
            eln: cfg.eln,
            fr_request: cfg.fr_request,
            limited_transmit: cfg.limited_transmit,
            header_prediction: (cfg.variant == Variant::Reno && cfg.header_prediction)
                .then_some(cfg.header_prediction_guard),
        }
    }

    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }
    /// Duplicate acks since the last new ack.
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }
    /// BSD's `t_dupacks`.
    pub fn counted(&self) -> u32 {
        self.counted
    }

    /// An ack (see [`AckInfo`]).
    #[inline]
    pub fn on_ack(&mut self, a: &AckInfo) -> AckAnswer {
        if a.acked_bytes > 0 {
            self.dupacks = 0;
            self.eln_dupacks = 0;
            self.dcr.cancel();
            // The fast path frees the acked data and restarts the timer
            // only: cwnd is neither opened nor deflated, t_dupacks is kept.
            if a.predictable && self.header_prediction.is_some_and(|g| g.allows(self.counted, self.dupack_threshold)) {
                return AckAnswer::RESTART_RTO;
            }
            return match self.on_new_ack(a.snd_una) {
                AckVerdict::PartialAck { first } => {
                    let answer =
                        AckAnswer::NONE.with_window(WindowStep::PartialAck).with_retransmit(Retransmit::Seq(a.snd_una));
                    // RFC 6582 3.2 step 5: reset the timer on the first partial ack only.
                    if first {
                        answer.restarting_rto()
                    } else {
                        answer
                    }
                }
                AckVerdict::RecoveryExit => {
                    let rule = if self.variant == Variant::Reno { ExitRule::Reno } else { ExitRule::Deflate };
                    AckAnswer::NONE.with_exit(rule).restarting_rto()
                }
                _ => AckAnswer::OPEN,
            };
        }
        if a.dup {
            // Out of line, with what a duplicate needs of the ack, in
            // registers (a copy of the whole ack made every ack load the
            // SACK and SMART fields no member of this family reads).
            let marks = u8::from(a.eln) | (u8::from(a.fr_request) << 1);
            return self.on_dup(a.now, a.snd_una, a.snd_max, marks, a.rtt);
        }
        AckAnswer::NONE
    }

    /// `a`, a duplicate carrying a fast-retransmit request, taken as a
    /// requested duplicate whether or not the flow honours requests (see
    /// [`super::Recovery::on_local_request`]).
    pub fn on_local_request(&mut self, a: &AckInfo) -> AckAnswer {
        let honoured = std::mem::replace(&mut self.fr_request, true);
        let answer = self.on_ack(a);
        self.fr_request = honoured;
        answer
    }

    /// A duplicate ack; `marks`: bit 0 its ELN mark, bit 1 its
    /// fast-retransmit request.
    #[inline(never)]
    fn on_dup(&mut self, now: Time, snd_una: u64, snd_max: u64, marks: u8, rtt: &RttEstimator) -> AckAnswer {
        self.dupacks += 1;
        if let Some(answer) = self.on_eln_dupack(marks & 1 != 0, snd_una) {
            return answer;
        }
        let requested = self.fr_request && marks & 2 != 0;
        if self.variant == Variant::Dcr && !requested && !self.in_recovery {
            // TCP-DCR: a duplicate outside recovery is held for one
            // smoothed RTT from the first; one arriving after that responds.
            let tau = rtt.fine_srtt_ns().unwrap_or(rtt.rto_ns());
            return match self.dcr.on_dupack(now, tau) {
                Held::Holding => {
                    self.on_held_dupack();
                    AckAnswer::NONE
                }
                Held::Respond => self.respond(snd_una, snd_max).unwrap_or(AckAnswer::NONE),
            };
        }
        let verdict =
            if requested { self.on_requested_dupack(snd_una, snd_max) } else { self.on_dupack(snd_una, snd_max) };
        match verdict {
            AckVerdict::FastRetransmit => self.fast_retransmit(snd_una, requested),
            AckVerdict::DupackInRecovery => AckAnswer::NONE.with_window(WindowStep::DupackInRecovery),
            _ => AckAnswer::NONE,
        }
    }

    /// ELN (seed 000 Sec. III-A) on a marked duplicate ack: `Some` if handled.
    fn on_eln_dupack(&mut self, eln: bool, snd_una: u64) -> Option<AckAnswer> {
        let threshold = match self.eln {
            ElnResponse::Off => return None,
            ElnResponse::ThirdDupack => self.dupack_threshold,
            ElnResponse::FirstDupack => 1,
        };
        if !eln {
            return None;
        }
        self.eln_dupacks += 1;
        if self.eln_dupacks != threshold {
            return Some(AckAnswer::NONE);
        }
        // "retransmissions without invoking the associated congestion-
        // control procedures": resend the hole, leave cwnd and ssthresh.
        Some(
            AckAnswer::NONE
                .with_eln_retransmit()
                .stopping_timing()
                .with_retransmit(Retransmit::Seq(snd_una))
                .restarting_rto(),
        )
    }

    /// Fast retransmit (RFC 5681 3.2 steps 2-3): the window is cut with
    /// Reno's inflation (Tahoe's slow start), the hole is resent (Tahoe:
    /// go-back-N), and the timer restarts: BSD clears it and `tcp_output`
    /// re-arms it for the retransmission.
    fn fast_retransmit(&self, snd_una: u64, requested: bool) -> AckAnswer {
        let go_back_n = self.variant == Variant::Tahoe; // go-back-N in slow start
        AckAnswer::NONE
            .with_cut(Cut { inflate: true, cause: LossCause::Congestion, count: 1 })
            .with_requested(requested)
            .stopping_timing()
            .with_retransmit(if go_back_n { Retransmit::GoBackN } else { Retransmit::Seq(snd_una) })
            .restarting_rto()
    }

    /// TCP-DCR's held response is due: NewReno's fast retransmit.
    fn respond(&mut self, snd_una: u64, snd_max: u64) -> Option<AckAnswer> {
        (self.on_delay_expired(snd_una, snd_max) == AckVerdict::FastRetransmit)
            .then(|| self.fast_retransmit(snd_una, false))
    }

    /// The sender's timer at `now` (see [`super::Recovery::on_timer`]).
    #[inline]
    pub fn on_timer(&mut self, now: Time, snd_una: u64, snd_max: u64, sending: bool) -> Option<AckAnswer> {
        if self.variant != Variant::Dcr {
            return None;
        }
        if self.dcr.on_timer(now) && sending {
            return self.respond(snd_una, snd_max);
        }
        None
    }

    /// When TCP-DCR's held response is due (NEVER when none is held).
    #[inline]
    pub fn wakeup(&self) -> Time {
        self.dcr.deadline()
    }

    /// Segments beyond cwnd the duplicates release: RFC 3042's limited
    /// transmit (outstanding data may reach cwnd + 2 SMSS), or TCP-DCR's
    /// extended limited transmit (RFC 4653 Sec. 3: a new segment for each
    /// duplicate while the response is held).
    #[inline]
    pub fn window_extension(&self) -> u32 {
        if self.dupacks == 0 {
            return 0;
        }
        let limited = self.limited_transmit && !self.in_recovery && self.dupacks <= 2;
        if limited || self.dcr.holding() {
            self.dupacks
        } else {
            0
        }
    }

    fn above_recover(&self, ack: u64) -> bool {
        !self.recover_set || ack > self.recover
    }

    fn enter(&mut self, snd_max: u64) {
        self.recover = snd_max;
        self.recover_set = true;
        self.partial_ack_seen = false;
    }

    /// An ack that advances `snd_una` to `ack`.
    pub fn on_new_ack(&mut self, ack: u64) -> AckVerdict {
        self.counted = 0;
        if !self.in_recovery {
            return AckVerdict::NewAck;
        }
        match self.variant {
            Variant::Newreno | Variant::Dcr if self.recover_set && ack < self.recover => {
                let first = !self.partial_ack_seen;
                self.partial_ack_seen = true;
                AckVerdict::PartialAck { first }
            }
            _ => {
                self.in_recovery = false;
                AckVerdict::RecoveryExit
            }
        }
    }

    /// A duplicate ack (RFC 5681 Sec. 2 definition) for `ack` while data up to
    /// `snd_max` is outstanding.
    pub fn on_dupack(&mut self, ack: u64, snd_max: u64) -> AckVerdict {
        if self.in_recovery {
            return AckVerdict::DupackInRecovery;
        }
        self.counted += 1;
        if self.counted != self.dupack_threshold {
            return AckVerdict::Dupack;
        }
        let guarded = matches!(self.variant, Variant::Tahoe | Variant::Newreno | Variant::Dcr);
        if guarded && !self.above_recover(ack) {
            return AckVerdict::Dupack;
        }
        self.enter(snd_max);
        self.in_recovery = self.variant != Variant::Tahoe;
        AckVerdict::FastRetransmit
    }

    /// A duplicate ack carrying the receiver's fast-retransmit request
    /// (seed 001 Sec. 6.3): as [`DupAck::on_dupack`], but the first
    /// such ack outside recovery retransmits whatever the count, under the
    /// same `recover` guard (so Tahoe's go-back-N is not restarted by the
    /// marked duplicates that follow it).
    pub fn on_requested_dupack(&mut self, ack: u64, snd_max: u64) -> AckVerdict {
        if self.in_recovery {
            return AckVerdict::DupackInRecovery;
        }
        self.counted += 1;
        let guarded = matches!(self.variant, Variant::Tahoe | Variant::Newreno | Variant::Dcr);
        if self.counted > self.dupack_threshold || (guarded && !self.above_recover(ack)) {
            // Past the threshold a counting sender has already acted on
            // this loss (Tahoe, which leaves no recovery state behind).
            return AckVerdict::Dupack;
        }
        self.counted = self.dupack_threshold;
        self.enter(snd_max);
        self.in_recovery = self.variant != Variant::Tahoe;
        AckVerdict::FastRetransmit
    }

    /// TCP-DCR ([`crate::recovery::dcr`]): a duplicate counted while the
    /// response is held.
    pub fn on_held_dupack(&mut self) {
        self.counted += 1;
    }

    /// TCP-DCR: the held response is due with the hole at `ack` still
    /// open: fast retransmit as NewReno would at its threshold, under the
    /// same `recover` guard.
    pub fn on_delay_expired(&mut self, ack: u64, snd_max: u64) -> AckVerdict {
        if self.in_recovery || !self.above_recover(ack) {
            return AckVerdict::Dupack;
        }
        self.enter(snd_max);
        self.in_recovery = true;
        AckVerdict::FastRetransmit
    }

    /// A retransmission timeout: recovery is abandoned (RFC 6582 Sec. 4);
    /// nothing is held, nothing counted.
    pub fn on_timeout(&mut self, snd_max: u64) {
        self.counted = 0;
        self.in_recovery = false;
        self.recover = snd_max;
        self.recover_set = true;
        self.dcr.cancel();
        self.dupacks = 0;
        self.eln_dupacks = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(variant: Variant) -> DupAck {
        DupAck::new(&SenderConfig { variant, dupack_threshold: 3, ..SenderConfig::reno(1000) })
    }

    #[test]
    fn third_dupack_triggers_and_reno_exits_on_partial() {
        let mut r = member(Variant::Reno);
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::Dupack);
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::Dupack);
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::FastRetransmit);
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::DupackInRecovery);
        assert_eq!(r.on_new_ack(1000), AckVerdict::RecoveryExit);
    }

    #[test]
    fn newreno_stays_until_recover_is_acked() {
        let mut r = member(Variant::Newreno);
        for _ in 0..2 {
            r.on_dupack(0, 5000);
        }
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::FastRetransmit);
        assert_eq!(r.on_new_ack(1000), AckVerdict::PartialAck { first: true });
        assert_eq!(r.on_new_ack(2000), AckVerdict::PartialAck { first: false });
        assert_eq!(r.on_new_ack(5000), AckVerdict::RecoveryExit);
    }

    #[test]
    fn no_second_fast_retransmit_below_recover_after_timeout() {
        let mut r = member(Variant::Newreno);
        r.on_timeout(9000);
        for _ in 0..2 {
            r.on_dupack(4000, 9000);
        }
        assert_eq!(r.on_dupack(4000, 9000), AckVerdict::Dupack);
        // Reno has no such guard (RFC 5681).
        let mut reno = member(Variant::Reno);
        reno.on_timeout(9000);
        for _ in 0..2 {
            reno.on_dupack(4000, 9000);
        }
        assert_eq!(reno.on_dupack(4000, 9000), AckVerdict::FastRetransmit);
    }
}
