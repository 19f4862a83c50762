//! The LHP packet list (Gao et al., as seed 004, Yun 2009, Sec. 4.1 and
//! Fig. 4 describe it): "a data structure of a packet list which keeps the
//! information of sent packets, that is, sequence number and duplicate ACK
//! counter, in the sending order". An ack that names the packet that
//! triggered it removes that packet and adds one to the counter of every
//! packet sent before it and still listed; a counter reaching DupThresh
//! starts a fast retransmit and fast recovery for that packet, "in which the
//! congestion window size is reduced to half". Hence Fig. 4: 14, 16 and 18
//! lost from 14..19 cost three fast recoveries.
//!
//! Readings (yun-004 Sec. 7 #18 and the paper's "If SMART \[20\] is used for
//! LHP ... the SMART ACK only contains the information of the single packet
//! which has been successfully received and has triggered the ACK"):
//! - The trigger's identity is the ack's SMART echo
//!   ([`lasthop_core::TcpHeader::smart_echo`]; the receiver needs
//!   `smart_echo` on). SACK blocks are not read by the list: with one trigger
//!   per ack a lost ack leaves its packet listed, and later acks count it
//!   towards a spurious fast retransmit, the weakness the paper names. An ack
//!   without an echo only removes what it acknowledges cumulatively.
//! - Any retransmission (on an ELN, a fast retransmit, after a timeout) moves
//!   the packet to the tail with its counter at zero: the list is in sending
//!   order. A timeout sorts the list back into sequence order and zeroes the
//!   counters (go-back-N resends from the cumulative ack).
//! - The data outstanding is the list's bytes (a packet leaves it when its
//!   trigger arrives): the sender sends while they leave room for a segment
//!   in cwnd, so an ack for a packet above a hole releases new data as
//!   Fig. 4's narrative needs (the ack "(14, 20)" acknowledges a packet sent
//!   during the episode). The window cut takes this as FlightSize:
//!   ssthresh = cwnd = max(list bytes / 2, 2 SMSS), once per packet whose
//!   counter reaches DupThresh, with no recovery phase between cuts.
//!
//! - A packet the link layer is retrying (ERSN-marked, see
//!   [`crate::ll_elsn`]) is not counted against: Sec. 3.1, "Upon reception
//!   of ERSN, the TCP sender neither invokes congestion control due to the
//!   packet 1 nor retransmits it". Its counter stands still until the mark
//!   clears; the packets around it count as before.
//!
//! The list is a VecDeque of at most a window of entries; removing a trigger
//! and counting the packets before it is one pass. Its ack path, as a
//! response of the LL-ELSN member ([`super::ll_elsn`]), is here too; its
//! resends and its window rule are the member's `send_first`.

use super::ll_elsn::LlElsnRecovery;
use super::{AckAnswer, AckInfo, Cut, WindowStep};
use crate::cc::LossCause;
use crate::ersn_marks::ErsnMarks;
use crate::ll_elsn::{LlElsn, ResponseState};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    start: u64,
    end: u64,
    /// Duplicate acks counted against this packet.
    dups: u32,
}

/// The packet list of one connection.
#[derive(Clone, Debug)]
pub struct LhpList {
    entries: VecDeque<Entry>,
    dupthresh: u32,
    /// Packets whose counter reached DupThresh, to be retransmitted at once.
    pub rexmit: Vec<u64>,
}

impl LhpList {
    pub fn new(dupthresh: u32) -> LhpList {
        LhpList { entries: VecDeque::with_capacity(64), dupthresh, rexmit: Vec::new() }
    }

    /// (first byte, counter) of each listed packet, in sending order.
    pub fn counters(&self) -> Vec<(u64, u32)> {
        self.entries.iter().map(|e| (e.start, e.dups)).collect()
    }

    /// Bytes of the listed packets: the data the list takes as outstanding.
    pub fn outstanding_bytes(&self) -> u64 {
        self.entries.iter().map(|e| e.end - e.start).sum()
    }

    /// [seq, seq + len) left the sender: a new packet joins the tail, a
    /// retransmitted one moves there with its counter at zero.
    pub fn on_sent(&mut self, seq: u64, len: u64) {
        if let Some(i) = self.entries.iter().position(|e| e.start == seq) {
            self.entries.remove(i);
        }
        self.entries.push_back(Entry { start: seq, end: seq + len, dups: 0 });
        self.rexmit.retain(|&s| s != seq);
    }

    /// An ack: cumulative `snd_una`, and the packet that triggered it;
    /// `marks`, the packets the link layer is retrying (not counted).
    /// Returns how many packets reached DupThresh (queued in `rexmit`).
    pub fn on_ack(&mut self, snd_una: u64, trigger: Option<u64>, marks: &ErsnMarks) -> u32 {
        self.entries.retain(|e| e.end > snd_una);
        self.rexmit.retain(|&s| s >= snd_una);
        let Some(t) = trigger else { return 0 };
        let Some(pos) = self.entries.iter().position(|e| e.start == t) else { return 0 };
        self.entries.remove(pos);
        let mut fired = 0;
        for e in self.entries.iter_mut().take(pos).filter(|e| !marks.any_in(e.start, e.end)) {
            e.dups += 1;
            if e.dups == self.dupthresh {
                self.rexmit.push(e.start);
                fired += 1;
            }
        }
        fired
    }

    pub fn on_timeout(&mut self) {
        self.entries.make_contiguous().sort_unstable_by_key(|e| e.start);
        for e in self.entries.iter_mut() {
            e.dups = 0;
        }
        self.rexmit.clear();
    }
}

impl LlElsnRecovery {
    /// The LHP packet list: the window opens per ack of new data; each
    /// packet whose counter reaches DupThresh is a fast retransmit and a
    /// halving of the window (the list's bytes as FlightSize).
    pub(super) fn on_ack_lhp(&mut self, a: &AckInfo) -> AckAnswer {
        self.sack.board.on_ack(a.snd_una, a.sack); // kept current for ERSN/ELN checks
        let LlElsn { response: ResponseState::Lhp(list), ersn: marks, .. } = &mut self.ll else {
            unreachable!("an LHP sender has its list")
        };
        let fired = list.on_ack(a.snd_una, a.smart_echo, marks);
        let mut answer = AckAnswer::NONE;
        if a.acked_bytes > 0 {
            answer = answer.with_window(WindowStep::Open).restarting_rto();
        }
        if fired > 0 {
            // FlightSize is the list's bytes (`Recovery::flight_bytes`).
            let cut = Cut { inflate: false, cause: LossCause::Congestion, count: fired };
            answer = answer.with_cut(cut).stopping_timing().restarting_rto();
        }
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: ErsnMarks = ErsnMarks::new();

    #[test]
    fn fig4_counters() {
        // The list holds 14..19; 14, 16, 18 are lost.
        let mut l = LhpList::new(3);
        for k in 14..20 {
            l.on_sent(k, 1);
        }
        // ACK (14, 15): 15 leaves, 14 counts one.
        assert_eq!(l.on_ack(14, Some(15), &NONE), 0);
        assert_eq!(l.counters(), vec![(14, 1), (16, 0), (17, 0), (18, 0), (19, 0)]);
        // ACKs for 17 and 19: 14 reaches three.
        assert_eq!(l.on_ack(14, Some(17), &NONE), 0);
        assert_eq!(l.on_ack(14, Some(19), &NONE), 1);
        assert_eq!(l.rexmit, vec![14]);
        assert_eq!(l.counters(), vec![(14, 3), (16, 2), (18, 1)]);
        // The retransmission moves 14 to the tail, its counter at zero.
        l.on_sent(14, 1);
        assert!(l.rexmit.is_empty());
        assert_eq!(l.counters(), vec![(16, 2), (18, 1), (14, 0)]);
        assert_eq!(l.outstanding_bytes(), 3);
        // A cumulative ack takes everything below it; no echo, no count.
        assert_eq!(l.on_ack(17, None, &NONE), 0);
        assert_eq!(l.counters(), vec![(18, 1)]);
        l.on_timeout();
        assert_eq!(l.counters(), vec![(18, 0)]);
    }

    #[test]
    fn a_marked_packet_is_not_counted_against() {
        let mut l = LhpList::new(3);
        for k in 14..20 {
            l.on_sent(k, 1);
        }
        let mut marks = ErsnMarks::new();
        marks.mark(14);
        for t in [15, 16, 17] {
            assert_eq!(l.on_ack(14, Some(t), &marks), 0);
        }
        assert_eq!(l.counters(), vec![(14, 0), (18, 0), (19, 0)]);
        // The mark gone (an ELN, say), counting resumes from where it stood.
        assert_eq!(l.on_ack(14, Some(18), &NONE), 0);
        assert_eq!(l.counters(), vec![(14, 1), (19, 0)]);
    }
}
