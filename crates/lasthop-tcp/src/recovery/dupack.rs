//! Loss recovery: duplicate-ack counting and the decision to retransmit.
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
//! What to send is the sender's business; this part only returns a verdict.

use crate::config::Variant;

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

#[derive(Clone, Debug)]
pub struct LossRecovery {
    variant: Variant,
    dupack_threshold: u32,
    dupacks: u32,
    in_recovery: bool,
    partial_acks_seen: u32,
    /// Highest sequence sent (one past) when the last loss was detected.
    recover: Option<u64>,
}

impl LossRecovery {
    pub fn new(variant: Variant, dupack_threshold: u32) -> LossRecovery {
        LossRecovery { variant, dupack_threshold, dupacks: 0, in_recovery: false, partial_acks_seen: 0, recover: None }
    }

    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }

    fn above_recover(&self, ack: u64) -> bool {
        self.recover.is_none_or(|r| ack > r)
    }

    /// An ack that advances `snd_una` to `ack`.
    pub fn on_new_ack(&mut self, ack: u64) -> AckVerdict {
        self.dupacks = 0;
        if !self.in_recovery {
            return AckVerdict::NewAck;
        }
        match self.variant {
            Variant::Newreno | Variant::Dcr if self.recover.is_some_and(|r| ack < r) => {
                self.partial_acks_seen += 1;
                AckVerdict::PartialAck { first: self.partial_acks_seen == 1 }
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
        self.dupacks += 1;
        if self.dupacks != self.dupack_threshold {
            return AckVerdict::Dupack;
        }
        let guarded = matches!(self.variant, Variant::Tahoe | Variant::Newreno | Variant::Dcr);
        if guarded && !self.above_recover(ack) {
            return AckVerdict::Dupack;
        }
        self.recover = Some(snd_max);
        self.in_recovery = self.variant != Variant::Tahoe;
        self.partial_acks_seen = 0;
        AckVerdict::FastRetransmit
    }

    /// A duplicate ack carrying the receiver's fast-retransmit request
    /// (seed 001 Sec. 6.3): as [`LossRecovery::on_dupack`], but the first
    /// such ack outside recovery retransmits whatever the count, under the
    /// same `recover` guard (so Tahoe's go-back-N is not restarted by the
    /// marked duplicates that follow it).
    pub fn on_requested_dupack(&mut self, ack: u64, snd_max: u64) -> AckVerdict {
        if self.in_recovery {
            return AckVerdict::DupackInRecovery;
        }
        self.dupacks += 1;
        let guarded = matches!(self.variant, Variant::Tahoe | Variant::Newreno | Variant::Dcr);
        if self.dupacks > self.dupack_threshold || (guarded && !self.above_recover(ack)) {
            // Past the threshold a counting sender has already acted on
            // this loss (Tahoe, which leaves no recovery state behind).
            return AckVerdict::Dupack;
        }
        self.dupacks = self.dupack_threshold;
        self.recover = Some(snd_max);
        self.in_recovery = self.variant != Variant::Tahoe;
        self.partial_acks_seen = 0;
        AckVerdict::FastRetransmit
    }

    /// TCP-DCR ([`crate::recovery::dcr`]): a duplicate counted while the
    /// response is held.
    pub fn on_held_dupack(&mut self) {
        self.dupacks += 1;
    }

    /// TCP-DCR: the held response is due with the hole at `ack` still
    /// open: fast retransmit as NewReno would at its threshold, under the
    /// same `recover` guard.
    pub fn on_delay_expired(&mut self, ack: u64, snd_max: u64) -> AckVerdict {
        if self.in_recovery || !self.above_recover(ack) {
            return AckVerdict::Dupack;
        }
        self.recover = Some(snd_max);
        self.in_recovery = true;
        self.partial_acks_seen = 0;
        AckVerdict::FastRetransmit
    }

    /// A retransmission timeout: recovery is abandoned (RFC 6582 Sec. 4).
    pub fn on_timeout(&mut self, snd_max: u64) {
        self.dupacks = 0;
        self.in_recovery = false;
        self.recover = Some(snd_max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn third_dupack_triggers_and_reno_exits_on_partial() {
        let mut r = LossRecovery::new(Variant::Reno, 3);
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::Dupack);
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::Dupack);
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::FastRetransmit);
        assert_eq!(r.on_dupack(0, 5000), AckVerdict::DupackInRecovery);
        assert_eq!(r.on_new_ack(1000), AckVerdict::RecoveryExit);
    }

    #[test]
    fn newreno_stays_until_recover_is_acked() {
        let mut r = LossRecovery::new(Variant::Newreno, 3);
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
        let mut r = LossRecovery::new(Variant::Newreno, 3);
        r.on_timeout(9000);
        for _ in 0..2 {
            r.on_dupack(4000, 9000);
        }
        assert_eq!(r.on_dupack(4000, 9000), AckVerdict::Dupack);
        // Reno has no such guard (RFC 5681).
        let mut reno = LossRecovery::new(Variant::Reno, 3);
        reno.on_timeout(9000);
        for _ in 0..2 {
            reno.on_dupack(4000, 9000);
        }
        assert_eq!(reno.on_dupack(4000, 9000), AckVerdict::FastRetransmit);
    }
}
