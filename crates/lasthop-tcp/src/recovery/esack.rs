//! ESACK, ELN-capable SACK (seed 004, Yun 2009, Sec. 4.1 and Algorithm 1):
//! the retransmission queue in sending order and the duplicate-ack rule that
//! reads it, over the RFC 6675 sender ([`crate::sack`]), and ESACK's ack
//! path as a response of the LL-ELSN member ([`super::ll_elsn`]).
//!
//! "ESACK adopts a similar approach except that the retransmission queue is
//! aligned in a sending order. [...] it can store only the start and end
//! bytes of a segment." FirstUnsacked is "the sequence number of the first
//! segment which is not SACKed in the retransmission queue", HighSACK "the
//! highest sequence number which is SACKed", HighACK the cumulative ack. "If
//! the segment is lost in a wireless link, it will be notified by an ELN and
//! the entry of the segment will be moved to the tail of the retransmission
//! queue after being retransmitted." Algorithm 1, on a duplicate ack:
//!
//! ```text
//! if (HighACK == FirstUnsacked)        dupacks++
//! else if (FirstUnsacked < HighSACK)
//!     if (FirstUnsacked is changed)    dupacks = 1
//!     else                             dupacks++
//! else if (HighACK segment is SACKed)  retransmit(HighACK)
//! if (dupacks >= DupThresh) typical TCP operation for DupThresh duplicate ACKs
//! ```
//!
//! and "In fast retransmit phase, the sender retransmits the FirstUnsacked
//! segment. The other operations of ESACK are equal to SACK."
//!
//! Readings and departures (see also yun-004 Sec. 7 #12, #13):
//! - Only an ELN retransmission moves an entry: the paper names no other move,
//!   and with it the queue stays in sequence order until an ELN arrives, so
//!   without wireless loss FirstUnsacked is always HighACK's segment and ESACK
//!   is the SACK sender exactly (Sec. 4.1: "if there is no wireless loss,
//!   ESACK behaves just like SACK"). A timeout puts the queue back in
//!   sequence order (go-back-N resends everything from HighACK), as it
//!   expunges SACK information.
//! - "FirstUnsacked < HighSACK" compares sequence numbers, as written.
//! - "FirstUnsacked is changed": differs from its value at the previous
//!   duplicate ack (none after a new ack).
//! - The SACKed flags are read off the scoreboard: an entry is SACKed when a
//!   SACKed range covers it whole. A duplicate ack is one the SACK sender
//!   counts (RFC 6675 Sec. 2: it SACKs new data).
//! - "Typical TCP operation" is the lasthop SACK sender's: recovery also
//!   starts when IsLost holds for the segment, but IsLost is taken in sending
//!   order, over the SACKed entries queued after FirstUnsacked (more than
//!   (DupThresh - 1)·SMSS bytes or DupThresh entries). In sequence order, as
//!   without ELNs, this is RFC 6675's IsLost(HighACK + 1) for whole segments;
//!   a resent segment at the tail has nothing queued after it, so the SACKs
//!   of segments sent before its resend never condemn it (the paper's Fig. 4
//!   ELN variant; a sequence-order IsLost would start recovery there).
//! - An entry the link layer is retrying (ERSN-marked, see
//!   [`crate::ll_elsn`]) is never FirstUnsacked: FirstUnsacked is the first
//!   entry that is neither SACKed nor marked. Sec. 3.1 ("neither invokes
//!   congestion control due to the packet 1 nor retransmits it") over
//!   Algorithm 1's letter; Algorithm 1's logic, that FirstUnsacked is the
//!   segment whose absence means congestion once the link layer's losses
//!   are out of its way, is what keeps it. So duplicate acks for segments
//!   that overtook a marked one count nothing (FirstUnsacked is then at or
//!   above HighSACK), and a congestion loss sent after it is FirstUnsacked
//!   below HighSACK: counted, and fast retransmitted at DupThresh.

use super::ll_elsn::LlElsnRecovery;
use super::{AckAnswer, AckInfo, Retransmit};
use crate::ersn_marks::ErsnMarks;
use crate::ll_elsn::{LlElsn, ResponseState};
use crate::sack::Scoreboard;
use std::collections::VecDeque;

/// What Algorithm 1 made of a duplicate ack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupackBranch {
    /// HighACK == FirstUnsacked: dupacks++.
    AtHighAck,
    /// FirstUnsacked < HighSACK and FirstUnsacked changed: dupacks = 1.
    Restart,
    /// FirstUnsacked < HighSACK, unchanged: dupacks++.
    Same,
    /// The HighACK segment is SACKed (the receiver reneged): retransmit it.
    Reneged,
    /// None of the three: dupacks unchanged.
    Nothing,
}

impl DupackBranch {
    /// The duplicate-ack count after this branch.
    pub fn apply(self, dupacks: u32) -> u32 {
        match self {
            DupackBranch::AtHighAck | DupackBranch::Same => dupacks + 1,
            DupackBranch::Restart => 1,
            DupackBranch::Reneged | DupackBranch::Nothing => dupacks,
        }
    }
}

/// ESACK's retransmission queue.
#[derive(Clone, Debug)]
pub struct EsackQueue {
    /// Outstanding segments [start, end) in sending order.
    entries: VecDeque<(u64, u64)>,
    /// SMSS, in bytes.
    mss_bytes: u64,
    dupthresh: u32,
    /// FirstUnsacked at the previous duplicate ack.
    prev_first_unsacked: Option<u64>,
}

/// True if a SACKed range of `sb` covers [start, end).
fn covered(sb: &Scoreboard, start: u64, end: u64) -> bool {
    let ranges = sb.sacked_ranges();
    let i = ranges.partition_point(|&(_, e)| e <= start);
    ranges.get(i).is_some_and(|&(s, e)| s <= start && e >= end)
}

impl EsackQueue {
    pub fn new(mss_bytes: u32, dupthresh: u32) -> EsackQueue {
        EsackQueue {
            entries: VecDeque::with_capacity(64),
            mss_bytes: u64::from(mss_bytes),
            dupthresh,
            prev_first_unsacked: None,
        }
    }

    /// The queue's entries, first bytes in sending order (for tests and traces).
    pub fn order(&self) -> Vec<u64> {
        self.entries.iter().map(|&(s, _)| s).collect()
    }

    /// A first transmission of [seq, seq + len).
    pub fn on_new_segment(&mut self, seq: u64, len: u64) {
        self.entries.push_back((seq, seq + len));
    }

    /// The segment at `seq` was resent on an ELN: to the tail.
    pub fn on_eln_retransmit(&mut self, seq: u64) {
        if let Some(i) = self.entries.iter().position(|&(s, _)| s == seq) {
            let e = self.entries.remove(i).expect("index found");
            self.entries.push_back(e);
        }
    }

    /// A new cumulative ack: acked entries leave, FirstUnsacked starts afresh.
    pub fn on_new_ack(&mut self, snd_una: u64) {
        self.entries.retain(|&(_, e)| e > snd_una);
        self.prev_first_unsacked = None;
    }

    /// A timeout: back to sequence order.
    pub fn on_timeout(&mut self) {
        self.entries.make_contiguous().sort_unstable();
        self.prev_first_unsacked = None;
    }

    /// FirstUnsacked, as the position in the queue and the first byte: the
    /// first entry neither SACKed nor marked by an ERSN.
    fn first_unsacked_at(&self, sb: &Scoreboard, marks: &ErsnMarks) -> Option<(usize, u64)> {
        self.entries
            .iter()
            .enumerate()
            .find(|(_, &(s, e))| !covered(sb, s, e) && !marks.any_in(s, e))
            .map(|(i, &(s, _))| (i, s))
    }

    pub fn first_unsacked(&self, sb: &Scoreboard, marks: &ErsnMarks) -> Option<u64> {
        self.first_unsacked_at(sb, marks).map(|(_, s)| s)
    }

    /// Algorithm 1's three branches on a duplicate ack whose SACK blocks
    /// `sb` already holds; HighACK is `snd_una`; `marks` are the segments the
    /// link layer is retrying.
    pub fn on_dupack(&mut self, snd_una: u64, sb: &Scoreboard, marks: &ErsnMarks) -> DupackBranch {
        let first = self.first_unsacked(sb, marks);
        self.on_dupack_with(snd_una, sb, first)
    }

    /// [`Self::on_dupack`] with FirstUnsacked (`first`) already found, as
    /// the ack path finds it once for all its uses.
    fn on_dupack_with(&mut self, snd_una: u64, sb: &Scoreboard, first: Option<u64>) -> DupackBranch {
        // One past the highest SACKed octet: FirstUnsacked, never SACKed
        // itself, lies below HighSACK exactly when it lies below this.
        let high_sack_end = sb.sacked_ranges().last().map(|&(_, e)| e);
        let changed = first != self.prev_first_unsacked;
        self.prev_first_unsacked = first;
        match (first, high_sack_end) {
            (Some(f), _) if f == snd_una => DupackBranch::AtHighAck,
            (Some(f), Some(h)) if f < h => {
                if changed {
                    DupackBranch::Restart
                } else {
                    DupackBranch::Same
                }
            }
            _ if sb.is_sacked(snd_una) => DupackBranch::Reneged,
            _ => DupackBranch::Nothing,
        }
    }

    /// IsLost(FirstUnsacked) in sending order: the SACKed entries queued
    /// after it hold more than (DupThresh - 1)·SMSS bytes or number DupThresh.
    pub fn first_unsacked_is_lost(&self, sb: &Scoreboard, marks: &ErsnMarks) -> bool {
        self.first_unsacked_at(sb, marks).is_some_and(|(i, _)| self.lost_after(sb, i))
    }

    /// IsLost of the entry at position `i` (FirstUnsacked): the SACKed
    /// entries after it reach the threshold (the count stops as soon as
    /// they do: both sums only grow).
    fn lost_after(&self, sb: &Scoreboard, i: usize) -> bool {
        let t = u64::from(self.dupthresh);
        let max_bytes = (t - 1) * self.mss_bytes;
        let (mut n, mut bytes) = (0u64, 0u64);
        for &(s, e) in self.entries.iter().skip(i + 1) {
            if covered(sb, s, e) {
                n += 1;
                bytes += e - s;
                if n >= t || bytes > max_bytes {
                    return true;
                }
            }
        }
        false
    }
}

impl LlElsnRecovery {
    /// ESACK (Sec. 4.1, Algorithm 1): the SACK sender's ack processing
    /// with Algorithm 1's duplicate-ack count and FirstUnsacked as the fast
    /// retransmission.
    pub(super) fn on_ack_esack(&mut self, a: &AckInfo) -> AckAnswer {
        let cause = self.sack.cause(a);
        let snd_una = a.snd_una;
        let s = &mut self.sack;
        let newly_sacked = s.board.on_ack(snd_una, a.sack);
        let LlElsn { response: ResponseState::Esack(q), ersn: marks, .. } = &mut self.ll else {
            unreachable!("an ESACK sender has its queue")
        };
        if a.acked_bytes > 0 {
            q.on_new_ack(snd_una);
            // As the SACK sender (RFC 6675 Sec. 5).
            return s.on_new_ack(snd_una);
        }
        // The SACK sender's duplicate ack: one that SACKs new data.
        if !a.dup || (newly_sacked == 0 && !s.board.in_recovery()) {
            return AckAnswer::NONE;
        }
        // FirstUnsacked, found once: nothing below changes the scoreboard
        // or the marks before its last use.
        let at = q.first_unsacked_at(&s.board, marks);
        let branch = q.on_dupack_with(snd_una, &s.board, at.map(|(_, f)| f));
        s.dupacks = branch.apply(s.dupacks);
        let mut answer = AckAnswer::NONE;
        if branch == DupackBranch::Reneged {
            // "If the segment of HighACK is already SACKed, it means that the
            // segment was dropped in the receiver queue. Therefore, the
            // segment needs to be transmitted again": no congestion response.
            answer = answer.with_retransmit(Retransmit::Seq(snd_una)).stopping_timing();
        }
        if s.board.in_recovery() {
            return answer;
        }
        // FirstUnsacked is never a segment the link layer is retrying
        // (Sec. 3.1); with every unSACKed segment marked there is none, and
        // nothing to fast retransmit.
        let Some((i, first)) = at else { return answer };
        let lost = q.lost_after(&s.board, i);
        let requested = s.fr_request && a.fr_request;
        if (s.dupacks >= s.dupthresh || lost || requested) && s.board.may_enter_recovery(snd_una) {
            let requested_only = requested && s.dupacks < s.dupthresh && !lost;
            // "In fast retransmit phase, the sender retransmits the
            // FirstUnsacked segment." The scoreboard takes it as step (4.3)'s
            // retransmission: HighRxt moves past it, and the holes below it,
            // resent on ELNs, count as in flight.
            return s.enter_recovery(a, first, requested_only, cause);
        }
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;
    /// No segment marked by an ERSN.
    const NONE: ErsnMarks = ErsnMarks::new();

    fn queue(segments: std::ops::Range<u64>) -> EsackQueue {
        let mut q = EsackQueue::new(MSS as u32, 3);
        for k in segments {
            q.on_new_segment(k * MSS, MSS);
        }
        q
    }

    #[test]
    fn fig4_congestion_drops_count_at_high_ack() {
        // Queue 14..19; 14, 16, 18 lost: acks (14; 15), (14; 15, 17), (14; 15, 17, 19).
        let mut q = queue(14..20);
        let mut sb = Scoreboard::new(MSS as u32, 3);
        let mut dupacks = 0;
        for blocks in [&[(15_000, 16_000)][..], &[(17_000, 18_000)], &[(19_000, 20_000)]] {
            sb.on_ack(14_000, blocks);
            let b = q.on_dupack(14_000, &sb, &NONE);
            assert_eq!(b, DupackBranch::AtHighAck);
            dupacks = b.apply(dupacks);
        }
        assert_eq!(dupacks, 3);
        assert_eq!(q.first_unsacked(&sb, &NONE), Some(14_000));
        assert!(q.first_unsacked_is_lost(&sb, &NONE));
    }

    #[test]
    fn fig4_eln_variant_first_unsacked_runs_ahead_of_high_sack() {
        // 14 is resent on an ELN before any duplicate ack: it moves behind 19.
        let mut q = queue(14..20);
        q.on_eln_retransmit(14_000);
        assert_eq!(q.order(), vec![15_000, 16_000, 17_000, 18_000, 19_000, 14_000]);
        let mut sb = Scoreboard::new(MSS as u32, 3);
        let mut dupacks = 0;
        let mut branches = Vec::new();
        for end in [16_000, 17_000, 18_000, 19_000, 20_000] {
            sb.on_ack(14_000, &[(15_000, end)]);
            let b = q.on_dupack(14_000, &sb, &NONE);
            branches.push(b);
            dupacks = b.apply(dupacks);
            assert!(!q.first_unsacked_is_lost(&sb, &NONE));
        }
        use DupackBranch::*;
        assert_eq!(branches, vec![Nothing, Nothing, Nothing, Nothing, AtHighAck]);
        assert_eq!(dupacks, 1);
    }

    #[test]
    fn a_congestion_loss_behind_an_eln_resend_restarts_when_first_unsacked_moves() {
        // 0..7 out; 0 resent on an ELN (to the tail); 1 and 3 missing.
        let mut q = queue(0..7);
        q.on_eln_retransmit(0);
        let mut sb = Scoreboard::new(MSS as u32, 3);
        let mut dupacks = 0;
        let mut branches = Vec::new();
        // (0; 2), (0; 2, 4); then 1 arrives late: (0; 1..3, 4), (0; 1..3, 4..6).
        for blocks in [&[(2000, 3000)][..], &[(4000, 5000)], &[(1000, 2000)], &[(5000, 6000)]] {
            sb.on_ack(0, blocks);
            let b = q.on_dupack(0, &sb, &NONE);
            branches.push(b);
            dupacks = b.apply(dupacks);
        }
        use DupackBranch::*;
        // FirstUnsacked 1 lies below HighSACK: a new FirstUnsacked restarts
        // the count at 1, the same one adds to it; then it moves on to 3.
        assert_eq!(branches, vec![Restart, Same, Restart, Same]);
        assert_eq!(dupacks, 2);
        assert_eq!(q.first_unsacked(&sb, &NONE), Some(3000));
    }

    #[test]
    fn a_marked_segment_is_never_first_unsacked() {
        // 0..7 out; the link layer retries 0 (ERSN) while 1.. overtake it.
        let q0 = queue(0..7);
        let mut marks = ErsnMarks::new();
        marks.mark(0);
        let mut sb = Scoreboard::new(MSS as u32, 3);
        let (mut q, mut dupacks) = (q0.clone(), 0);
        for end in [2000, 3000, 4000, 5000] {
            sb.on_ack(0, &[(1000, end)]);
            let b = q.on_dupack(0, &sb, &marks);
            // FirstUnsacked (the next segment in flight) is at HighSACK.
            assert_eq!(b, DupackBranch::Nothing);
            dupacks = b.apply(dupacks);
            assert!(!q.first_unsacked_is_lost(&sb, &marks));
        }
        assert_eq!((dupacks, q.first_unsacked(&sb, &marks)), (0, Some(5000)));
        // Unmarked, the same acks count against 0 (Algorithm 1 as written).
        let (mut q, mut sb) = (q0.clone(), Scoreboard::new(MSS as u32, 3));
        let mut dupacks = 0;
        for end in [2000, 3000, 4000] {
            sb.on_ack(0, &[(1000, end)]);
            dupacks = q.on_dupack(0, &sb, &NONE).apply(dupacks);
        }
        assert_eq!(dupacks, 3);
        // Marked 0 and a congestion loss of 2 behind it: (0; 1), (0; 1, 3),
        // (0; 1, 3..5), (0; 1, 3..6): 2 is FirstUnsacked below HighSACK.
        let (mut q, mut sb) = (q0, Scoreboard::new(MSS as u32, 3));
        let mut branches = Vec::new();
        for blocks in [&[(1000, 2000)][..], &[(3000, 4000)], &[(4000, 5000)], &[(5000, 6000)]] {
            sb.on_ack(0, blocks);
            branches.push(q.on_dupack(0, &sb, &marks));
        }
        use DupackBranch::*;
        assert_eq!(branches, vec![Nothing, Same, Same, Same]);
        assert_eq!(q.first_unsacked(&sb, &marks), Some(2000));
        assert!(q.first_unsacked_is_lost(&sb, &marks));
    }

    #[test]
    fn reneged_high_ack_segment_is_retransmitted() {
        let mut q = queue(0..3);
        let mut sb = Scoreboard::new(MSS as u32, 3);
        // The receiver SACKs 0..3000 yet acks 0: everything SACKed, HighACK among it.
        sb.on_ack(0, &[(0, 3000)]);
        assert_eq!(q.on_dupack(0, &sb, &NONE), DupackBranch::Reneged);
    }

    #[test]
    fn timeout_restores_sequence_order() {
        let mut q = queue(0..4);
        q.on_eln_retransmit(1000);
        q.on_eln_retransmit(0);
        assert_eq!(q.order(), vec![2000, 3000, 1000, 0]);
        q.on_timeout();
        assert_eq!(q.order(), vec![0, 1000, 2000, 3000]);
        q.on_new_ack(2000);
        assert_eq!(q.order(), vec![2000, 3000]);
    }
}
