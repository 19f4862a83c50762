//! HACK and HACK-fixed, the ELN responses seed 004 compares ESACK with (Yun
//! 2009, Secs. 2.1 and 5.3, Fig. 14), over the RFC 6675 sender
//! ([`crate::sack`]).
//!
//! HACK (Sec. 2.1): "HACK assumes that SACK is used basically and the
//! sender, upon reception of the ACK with the ELN bit set, immediately
//! retransmits the lost packet without triggering congestion control." Under
//! LL-ELSN the ELN comes from the link layer instead of an ack; the sender
//! resends the segment at once and leaves cwnd and ssthresh alone, but its
//! duplicate-ack counting is the SACK sender's: "even with wireless losses,
//! congestion control can be invoked by following duplicate ACKs" (Sec. 5.3).
//!
//! HACK-fixed is named in Sec. 5.3 and never defined. The reference's
//! reading (yun-004 Sec. 7 #16) is taken: the duplicate-ack count of a hole
//! resent on an ELN is reset at the ELN, and duplicate acks that arrive while
//! that hole is HighACK's segment are not counted (nor does IsLost condemn it)
//! until a new ack moves HighACK past it; a timeout forgets the holes. Its
//! SACK blocks still enter the scoreboard. A congestion loss of the resend
//! itself is then left to the timer: the "somewhat aggressive behavior" the
//! paper blames for HACK-fixed's collapse beyond ten connections.
//!
//! The two are one mechanism with one switch, so they share this file: the
//! only state is HACK-fixed's list of holes resent on an ELN (HACK keeps it
//! empty and never reads it). Their ack paths, as responses of the LL-ELSN
//! member ([`super::ll_elsn`]), are here too.

use super::ll_elsn::LlElsnRecovery;
use super::{AckAnswer, AckInfo};
use crate::ll_elsn::ResponseState;

/// First bytes of segments resent on an ELN and not yet acked, sorted.
#[derive(Clone, Debug, Default)]
pub struct ElnHoles {
    holes: Vec<u64>,
}

impl ElnHoles {
    pub fn on_eln_retransmit(&mut self, seq: u64) {
        if let Err(i) = self.holes.binary_search(&seq) {
            self.holes.insert(i, seq);
        }
    }
    pub fn contains(&self, seq: u64) -> bool {
        self.holes.binary_search(&seq).is_ok()
    }
    /// Holes below the cumulative ack are repaired.
    pub fn on_ack(&mut self, snd_una: u64) {
        let gone = self.holes.partition_point(|&s| s < snd_una);
        self.holes.drain(..gone);
    }
    pub fn on_timeout(&mut self) {
        self.holes.clear();
    }
}

impl LlElsnRecovery {
    /// HACK: the SACK sender's ack processing, but a duplicate ack while
    /// HighACK's segment is marked by an ERSN is not counted (Sec. 3.1: no
    /// congestion control "due to the packet 1").
    pub(super) fn on_ack_hack(&mut self, a: &AckInfo) -> AckAnswer {
        if a.acked_bytes == 0 && a.dup && self.hack_skips_dupack(a, false) {
            return AckAnswer::NONE;
        }
        self.sack.on_ack(a)
    }

    /// HACK-fixed: a duplicate ack while HighACK's segment is a hole resent
    /// on an ELN, or is marked by an ERSN, is not counted.
    pub(super) fn on_ack_hack_fixed(&mut self, a: &AckInfo) -> AckAnswer {
        let ResponseState::Hack(holes) = &mut self.ll.response else {
            unreachable!("a HACK-fixed sender has its holes")
        };
        holes.on_ack(a.snd_una);
        let resent_on_eln = holes.contains(a.snd_una);
        if a.acked_bytes == 0 && a.dup && self.hack_skips_dupack(a, resent_on_eln) {
            return AckAnswer::NONE;
        }
        self.sack.on_ack(a)
    }

    /// A HACK or HACK-fixed duplicate ack outside recovery that is not to be
    /// counted, because HighACK's segment is marked by an ERSN (or, for
    /// HACK-fixed, `resent_on_eln`): its SACK blocks go on the scoreboard
    /// and nothing else happens. False otherwise (the caller goes on).
    fn hack_skips_dupack(&mut self, a: &AckInfo, resent_on_eln: bool) -> bool {
        let marked = self.ll.ersn.any_in(a.snd_una, a.snd_una + self.mss_bytes);
        let sb = &mut self.sack.board;
        if (resent_on_eln || marked) && !sb.in_recovery() {
            sb.on_ack(a.snd_una, a.sack);
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_are_forgotten_once_acked() {
        let mut h = ElnHoles::default();
        h.on_eln_retransmit(3000);
        h.on_eln_retransmit(1000);
        assert!(h.contains(1000) && h.contains(3000) && !h.contains(2000));
        h.on_ack(2000);
        assert!(!h.contains(1000) && h.contains(3000));
        h.on_timeout();
        assert!(!h.contains(3000));
    }
}
