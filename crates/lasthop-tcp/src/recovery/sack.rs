//! The SACK scoreboard and the loss recovery that runs on it: RFC 6675 ("A
//! Conservative Loss Recovery Algorithm Based on Selective Acknowledgment
//! (SACK) for TCP"), Sec. 3–5: Update(), IsLost(), SetPipe(), NextSeg(), and
//! the RecoveryPoint, HighRxt and RescueRxt they share.
//!
//! The RFC counts octets by their own numbers ("HighACK is the sequence number
//! of the highest byte of data that has been cumulatively ACKed"); lasthop
//! counts half-open byte offsets. So HighACK + 1 is `snd_una`, HighData + 1 is
//! `snd_max`, and this module stores HighRxt, RescueRxt and RecoveryPoint one
//! past the octet the RFC names: "S2 > HighRxt" reads `s2 >= high_rxt`, "S1 <=
//! HighRxt" reads `s1 < high_rxt`, "HighACK > RescueRxt" reads `snd_una >
//! rescue_rxt`.
//!
//! How a caller drives it: every ack goes to [`Scoreboard::on_ack`] (its
//! answer tells an RFC 6675 duplicate ack: one that SACKs new data); at
//! DupThresh such acks, or when `is_lost(snd_una)`, the caller cuts its window
//! and calls [`Scoreboard::enter_recovery`]; then, while `cwnd - pipe >= 1
//! SMSS` (step C), it sends what [`Scoreboard::next_seg`] names and reports
//! each resend to [`Scoreboard::on_retransmit`]; [`Scoreboard::recovery_done`]
//! tells the ack that ends recovery. Window arithmetic stays with the caller.
//!
//! Departures and choices the RFC leaves open:
//! - Granularity. The RFC walks octets; SetPipe here walks the unSACKed holes
//!   between SACKed ranges, which gives the same count because IsLost is the
//!   same for every octet of a hole (no SACK edge lies inside it). NextSeg
//!   returns segments cut at multiples of `mss` from `snd_una`, the boundaries
//!   a lasthop sender uses (full segments except the last of the transfer).
//! - Step (4.3), "Retransmit the first data segment presumed dropped -- the
//!   segment starting with sequence number HighACK + 1", is NextSeg's first
//!   answer in a recovery, whatever IsLost says: recovery entered on DupAcks
//!   with sub-MSS SACK blocks may not find `snd_una` lost.
//! - Outside recovery NextSeg offers only new data: before recovery that is
//!   step (3.3), Limited Transmit governed by pipe; after a timeout, "NextSeg
//!   () is inappropriate during slow start after an RTO" (Sec. 5.1).
//! - New data goes in whole segments only: rule (2)'s "the receiver's
//!   advertised window allows" means the whole segment fits, the sender's
//!   silly-window avoidance.
//! - Rule (4), the rescue retransmission, can be turned off
//!   ([`Scoreboard::with_rescue`]); on by default.
//! - [`Scoreboard::on_retransmit`] is not told which rule chose a segment; it
//!   tells them apart by position (rules 1 and 3 only pick octets above HighRxt
//!   and below the highest SACKed octet; anything else is a rescue).
//! - After a timeout the SACK information is discarded, as RFC 2018 asks and
//!   Sec. 5.1 leaves in force, although lasthop receivers never renege.
//! - SACK blocks are trusted as far as `snd_max`: `on_ack` is not told
//!   `snd_max`, and `pipe` and `next_seg` ignore SACKed bytes at or above it.
//!
//! [`SackRecovery`] is the member of [`super::Recovery`] that runs RFC 6675
//! Sec. 5 on the scoreboard: a duplicate ack is one that SACKs new data
//! (Sec. 2); recovery starts at DupThresh of them, when IsLost(HighACK + 1)
//! holds, or on the receiver's fast-retransmit request (seed 001 Sec. 6.3),
//! but not before RecoveryPoint is acked after a timeout (Sec. 5.1); the
//! window is cut once (step 4.2: "ssthresh = cwnd = (FlightSize / 2)", no
//! inflation), an ELN mark on the ack that starts it making it leave the
//! window alone (SACK with ELN, seed 000's future work); in recovery the
//! sender sends while `cwnd - pipe >= SMSS`, choosing by NextSeg; the ack
//! of RecoveryPoint ends it, cwnd = ssthresh. Outside recovery limited
//! transmit may extend the window by the duplicates counted.
//!
//! Cost: every query is O(SACKed ranges) (pipe, NextSeg) or O(log ranges)
//! (`is_sacked`); the ranges live in one Vec that stops allocating once it has
//! held the most ranges a run needs.

use super::{AckAnswer, AckInfo, Cut, ExitRule, NextSeg, Retransmit, SendQuery};
use crate::cc::LossCause;
use crate::config::{ElnResponse, SenderConfig};

/// RFC 6675 sender state for one connection.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    /// SACKed byte ranges above the cumulative ack, sorted, disjoint and never
    /// touching (adjacent blocks are merged, so each range is one of IsLost's
    /// "discontiguous SACKed sequences").
    sacked: Vec<(u64, u64)>,
    /// SMSS, in bytes.
    mss_bytes: u64,
    /// DupThresh, in duplicate acks (and in SACKed sequences for IsLost).
    dupthresh: u32,
    /// One past HighRxt, "the highest sequence number which has been
    /// retransmitted during the current loss recovery phase"; at most
    /// `snd_una` when nothing has been.
    high_rxt: u64,
    /// One past RescueRxt, "the highest sequence number which has been
    /// optimistically retransmitted"; `None` while undefined.
    rescue_rxt: Option<u64>,
    /// One past RecoveryPoint (HighData when recovery began, or at the last
    /// timeout during recovery).
    recovery_point: u64,
    in_recovery: bool,
    /// Step (4.3) is still owed: no retransmission yet in this recovery.
    entry_rxt_pending: bool,
    /// Whether NextSeg rule (4) may answer.
    rescue_enabled: bool,
}

impl Scoreboard {
    pub fn new(mss_bytes: u32, dupthresh: u32) -> Scoreboard {
        assert!(mss_bytes > 0 && dupthresh > 0, "SMSS and DupThresh must be positive");
        Scoreboard {
            sacked: Vec::with_capacity(8),
            mss_bytes: u64::from(mss_bytes),
            dupthresh,
            high_rxt: 0,
            rescue_rxt: None,
            recovery_point: 0,
            in_recovery: false,
            entry_rxt_pending: false,
            rescue_enabled: true,
        }
    }

    /// Turns NextSeg rule (4), the rescue retransmission, on or off.
    pub fn with_rescue(mut self, enabled: bool) -> Scoreboard {
        self.rescue_enabled = enabled;
        self
    }

    pub fn sacked_ranges(&self) -> &[(u64, u64)] {
        &self.sacked
    }
    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }
    /// One past RecoveryPoint: the ack that reaches it ends recovery.
    pub fn recovery_point(&self) -> u64 {
        self.recovery_point
    }
    /// One past HighRxt.
    pub fn high_rxt(&self) -> u64 {
        self.high_rxt
    }
    /// One past RescueRxt, if defined.
    pub fn rescue_rxt(&self) -> Option<u64> {
        self.rescue_rxt
    }

    /// Process an ack: cumulative `ack` (the new `snd_una`) and its SACK
    /// blocks. Returns the bytes newly SACKed by this ack: above zero, it is an
    /// RFC 6675 duplicate ack.
    pub fn on_ack(&mut self, ack: u64, blocks: &[(u64, u64)]) -> u64 {
        // Update(): "each octet that is cumulatively ACKed or SACKed should be
        // marked accordingly in the scoreboard": what is cumulatively acked
        // needs no mark, it leaves the scoreboard.
        let gone = self.sacked.partition_point(|&(_, end)| end <= ack);
        self.sacked.drain(..gone);
        if let Some(first) = self.sacked.first_mut() {
            first.0 = first.0.max(ack);
        }
        if !self.in_recovery {
            // Step (3.1), before every SetPipe outside recovery: "Set HighRxt
            // to HighACK."
            self.high_rxt = ack;
        }
        // A block below the cumulative ack (a D-SACK, RFC 2883) tells nothing
        // about what is missing; only its part above `ack` counts. Sec. 2: a
        // duplicate ack carries "a SACK block that identifies previously
        // unacknowledged and un-SACKed octets between HighACK and HighData".
        blocks.iter().map(|&(start, end)| self.insert(start.max(ack), end)).sum()
    }

    /// Marks [start, end) SACKed; returns how many of its bytes were not yet.
    fn insert(&mut self, start: u64, end: u64) -> u64 {
        if start >= end {
            return 0;
        }
        // Ranges i..j overlap or touch [start, end).
        let i = self.sacked.partition_point(|&(_, e)| e < start);
        let j = self.sacked.partition_point(|&(s, _)| s <= end);
        if i == j {
            self.sacked.insert(i, (start, end));
            return end - start;
        }
        let already: u64 = self.sacked[i..j].iter().map(|&(s, e)| e.min(end).saturating_sub(s.max(start))).sum();
        self.sacked[i] = (start.min(self.sacked[i].0), end.max(self.sacked[j - 1].1));
        self.sacked.drain(i + 1..j);
        end - start - already
    }

    /// `seq`, or the end of the SACKed range holding it: the first byte
    /// from `seq` on that no SACK block covers.
    pub fn first_unsacked_from(&self, seq: u64) -> u64 {
        let i = self.sacked.partition_point(|&(_, end)| end <= seq);
        match self.sacked.get(i) {
            Some(&(start, end)) if start <= seq => end,
            _ => seq,
        }
    }

    pub fn is_sacked(&self, seq: u64) -> bool {
        let i = self.sacked.partition_point(|&(_, end)| end <= seq);
        self.sacked.get(i).is_some_and(|&(start, _)| start <= seq)
    }

    /// IsLost(SeqNum): "The routine returns true when either DupThresh
    /// discontiguous SACKed sequences have arrived above 'SeqNum' or more than
    /// (DupThresh - 1) * SMSS bytes with sequence numbers greater than 'SeqNum'
    /// have been SACKed."
    pub fn is_lost(&self, seq: u64) -> bool {
        let above = seq.saturating_add(1);
        let first = self.sacked.partition_point(|&(_, end)| end <= above);
        let ranges = &self.sacked[first..];
        let bytes = ranges.iter().map(|&(s, e)| e - s.max(above)).sum();
        self.lost_by(ranges.len() as u64, bytes)
    }

    /// IsLost's verdict for an octet with `ranges` SACKed sequences and
    /// `bytes` SACKed bytes above it.
    fn lost_by(&self, ranges: u64, bytes: u64) -> bool {
        let threshold = u64::from(self.dupthresh);
        ranges >= threshold || bytes > (threshold - 1) * self.mss_bytes
    }

    /// SetPipe(): bytes in the pipe between `snd_una` and `snd_max`.
    pub fn pipe(&self, snd_una: u64, snd_max: u64) -> u64 {
        if snd_max <= snd_una {
            return 0;
        }
        let lo = self.sacked.partition_point(|&(_, end)| end <= snd_una);
        let hi = self.sacked.partition_point(|&(start, _)| start < snd_max);
        let clip = |&(s, e): &(u64, u64)| (s.max(snd_una), e.min(snd_max));
        let mut ranges_above = (hi - lo) as u64;
        let mut bytes_above: u64 = self.sacked[lo..hi].iter().map(clip).map(|(s, e)| e - s).sum();
        // "the following steps are taken for each octet 'S1' in the sequence
        // space between HighACK and HighData that has not been SACKed": hole by
        // hole, with the SACKed ranges above each hole counted down as we pass.
        let mut pipe = 0;
        let mut cursor = snd_una;
        for (s, e) in self.sacked[lo..hi].iter().map(clip) {
            pipe += self.hole_pipe(cursor, s, ranges_above, bytes_above);
            ranges_above -= 1;
            bytes_above -= e - s;
            cursor = e;
        }
        pipe + self.hole_pipe(cursor, snd_max, 0, 0)
    }

    /// SetPipe's share of the unSACKed hole [start, end).
    fn hole_pipe(&self, start: u64, end: u64, ranges_above: u64, bytes_above: u64) -> u64 {
        if end <= start {
            return 0;
        }
        let mut pipe = 0;
        // "(a) If IsLost (S1) returns false: Pipe is incremented by 1 octet."
        if !self.lost_by(ranges_above, bytes_above) {
            pipe += end - start;
        }
        // "(b) If S1 <= HighRxt: Pipe is incremented by 1 octet." The
        // retransmission is in flight too; "octets retransmitted without being
        // considered lost are counted twice".
        pipe += self.high_rxt.min(end).saturating_sub(start);
        pipe
    }

    /// NextSeg(): what to send next, as (seq, len, is_retransmission), or
    /// `None`. `end_of_data` is one past the application's last byte
    /// (`u64::MAX` for unbounded); `rwnd_limit` is `snd_una` + the receiver's
    /// window (no new byte at or beyond it may be sent). The caller checks
    /// `cwnd - pipe >= 1 SMSS` (step C) before asking.
    ///
    /// `retrying`: first bytes (sorted) of segments of up to SMSS that the
    /// link layer is retrying (seed 004's ERSN marks; empty for any other
    /// sender). Rules (1), (3) and (4) never name an octet of one: "Upon
    /// reception of ERSN, the TCP sender neither invokes congestion control
    /// due to the packet 1 nor retransmits it" (Yun 2009 Sec. 3.1). Rules (1)
    /// and (3) take the smallest unSACKed octet above HighRxt outside them.
    pub fn next_seg(
        &self,
        snd_una: u64,
        snd_max: u64,
        end_of_data: u64,
        rwnd_limit: u64,
        retrying: &[u64],
    ) -> Option<(u64, u32, bool)> {
        let mut rule3 = None;
        if self.in_recovery && snd_una < snd_max {
            if self.entry_rxt_pending {
                // Step (4.3): "Retransmit the first data segment presumed
                // dropped -- the segment starting with sequence number HighACK
                // + 1."
                let hole_end = self.hole_end(snd_una, snd_max);
                return Some(self.retransmission(snd_una, snd_una, hole_end));
            }
            // Rules (1) and (3) look at the smallest unSACKed octet above
            // HighRxt: IsLost only weakens going up, so if that one is not
            // lost no higher one is.
            let mut from = self.high_rxt.max(snd_una);
            let mut s2 = if self.is_sacked(from) { self.hole_end(from, u64::MAX) } else { from };
            while let Some(end) = self.retrying_end(retrying, s2) {
                from = end;
                s2 = if self.is_sacked(from) { self.hole_end(from, u64::MAX) } else { from };
            }
            // "(1.b) S2 is less than the highest octet covered by any received
            // SACK."
            let highest_sacked = self.sacked.last().map_or(0, |&(_, end)| end.min(snd_max));
            if s2 < highest_sacked {
                let seg = self.retransmission(snd_una, s2, self.hole_end(s2, snd_max));
                // "(1) If there exists a smallest unSACKed sequence number 'S2'
                // that meets the following three criteria for determining loss,
                // the sequence range of one segment of up to SMSS octets
                // starting with S2 MUST be returned." (1.a) "S2 is greater than
                // HighRxt", (1.c) "IsLost (S2) returns true".
                if self.is_lost(s2) {
                    return Some(seg);
                }
                rule3 = Some(seg);
            }
        }
        // "(2) If no sequence number 'S2' per rule (1) exists but there exists
        // available unsent data and the receiver's advertised window allows,
        // the sequence range of one segment of up to SMSS octets of previously
        // unsent data starting with sequence number HighData+1 MUST be
        // returned."
        if snd_max < end_of_data {
            let len = self.mss_bytes.min(end_of_data - snd_max);
            if snd_max + len <= rwnd_limit {
                return Some((snd_max, len as u32, false));
            }
        }
        if !self.in_recovery {
            return None;
        }
        // "(3) If the conditions for rules (1) and (2) fail, but there exists an
        // unSACKed sequence number 'S3' that meets the criteria for detecting
        // loss given in steps (1.a) and (1.b) above (specifically excluding step
        // (1.c)), then one segment of up to SMSS octets starting with S3 SHOULD
        // be returned."
        if rule3.is_some() {
            return rule3;
        }
        // "(4) If the conditions for (1), (2), and (3) fail, but there exists
        // outstanding unSACKed data, we provide the opportunity for a single
        // "rescue" retransmission per entry into loss recovery. If HighACK is
        // greater than RescueRxt (or RescueRxt is undefined), then one segment
        // of up to SMSS octets that MUST include the highest outstanding
        // unSACKed sequence number SHOULD be returned"
        if self.rescue_enabled && self.rescue_rxt.is_none_or(|r| snd_una > r) {
            return self.rescue(snd_una, snd_max).filter(|&(seq, _, _)| self.retrying_end(retrying, seq).is_none());
        }
        // "(5) If the conditions for each of (1), (2), (3), and (4) are not
        // met, then NextSeg () MUST indicate failure"
        None
    }

    /// One past the segment in `retrying` (first bytes, sorted; SMSS long)
    /// that holds `seq`, if one does.
    fn retrying_end(&self, retrying: &[u64], seq: u64) -> Option<u64> {
        let i = retrying.partition_point(|&m| m <= seq);
        let m = *retrying.get(i.checked_sub(1)?)?;
        (seq < m + self.mss_bytes).then_some(m + self.mss_bytes)
    }

    /// The end of the unSACKed hole holding `seq`, at most `limit`.
    fn hole_end(&self, seq: u64, limit: u64) -> u64 {
        let i = self.sacked.partition_point(|&(_, end)| end <= seq);
        match self.sacked.get(i) {
            Some(&(start, end)) if start <= seq => end, // `seq` is SACKed: the hole after its range
            Some(&(start, _)) => start.min(limit),
            None => limit,
        }
    }

    /// A retransmission starting at `seq`, cut at the hole's end and at the
    /// next segment boundary (multiples of SMSS from `snd_una`).
    fn retransmission(&self, snd_una: u64, seq: u64, hole_end: u64) -> (u64, u32, bool) {
        let boundary = snd_una + ((seq - snd_una) / self.mss_bytes + 1) * self.mss_bytes;
        (seq, (hole_end.min(boundary) - seq) as u32, true)
    }

    /// Rule (4)'s segment: the one holding the highest unSACKed octet below
    /// `snd_max`, trimmed to its hole.
    fn rescue(&self, snd_una: u64, snd_max: u64) -> Option<(u64, u32, bool)> {
        let k = self.sacked.partition_point(|&(start, _)| start < snd_max);
        // `top` is one past the highest unSACKed octet; `floor` the start of its hole.
        let (top, floor) = match k.checked_sub(1).map(|i| (i, self.sacked[i])) {
            Some((i, (start, end))) if end >= snd_max => (start, i.checked_sub(1).map_or(0, |h| self.sacked[h].1)),
            Some((_, (_, end))) => (snd_max, end),
            None => (snd_max, 0),
        };
        let floor = floor.max(snd_una);
        if top <= floor {
            return None; // nothing outstanding is unSACKed
        }
        let segment_start = snd_una + (top - 1 - snd_una) / self.mss_bytes * self.mss_bytes;
        let seq = segment_start.max(floor);
        Some((seq, (top - seq) as u32, true))
    }

    /// Record that [seq, seq + len) was just retransmitted.
    pub fn on_retransmit(&mut self, seq: u64, len: u32) {
        if !self.in_recovery {
            // After a timeout HighRxt stays at HighACK: go-back-N resends are
            // not recovery retransmissions.
            return;
        }
        let end = seq + u64::from(len);
        if self.entry_rxt_pending {
            // (4.3): "To prevent repeated retransmission of the same data or a
            // premature rescue retransmission, set both HighRxt and RescueRxt
            // to the highest sequence number in the retransmitted segment."
            self.entry_rxt_pending = false;
            self.high_rxt = end;
            self.rescue_rxt = Some(end);
            return;
        }
        let highest_sacked = self.sacked.last().map_or(0, |&(_, e)| e);
        if seq >= self.high_rxt && seq < highest_sacked {
            // Rule (1) or (3). (C.2): "If any of the data octets sent in (C.1)
            // are below HighData, HighRxt MUST be set to the highest sequence
            // number of the retransmitted segment unless NextSeg () rule (4)
            // was invoked for this retransmission."
            self.high_rxt = end;
        } else {
            // Rule (4): "RescueRxt set to RecoveryPoint. HighRxt MUST NOT be
            // updated."
            self.rescue_rxt = Some(self.recovery_point);
        }
    }

    /// Entering loss recovery, Sec. 5 step (4): "(4.1) RecoveryPoint =
    /// HighData".
    pub fn enter_recovery(&mut self, snd_max: u64) {
        self.in_recovery = true;
        self.recovery_point = snd_max;
        self.high_rxt = 0;
        self.rescue_rxt = None;
        self.entry_rxt_pending = true;
    }

    /// True when `ack` ends recovery: "An incoming cumulative ACK for a
    /// sequence number greater than RecoveryPoint signals the end of loss
    /// recovery" (step A).
    pub fn recovery_done(&self, ack: u64) -> bool {
        self.in_recovery && ack >= self.recovery_point
    }

    /// Leaving recovery, step (A): "Any information contained in the scoreboard
    /// for sequence numbers greater than the new value of HighACK SHOULD NOT be
    /// cleared when leaving the loss recovery phase."
    pub fn exit_recovery(&mut self) {
        self.in_recovery = false;
        self.entry_rxt_pending = false;
    }

    /// Sec. 5.1, "\[RFC2018\] suggests that a TCP sender SHOULD expunge the SACK
    /// information gathered from a receiver upon a retransmission timeout
    /// (RTO) "since the timeout might indicate that the data receiver has
    /// reneged." Additionally, a TCP sender MUST "ignore prior SACK information
    /// in determining which data to retransmit."" Some suggest keeping it
    /// where reneging is tested for, but "this document does not change the
    /// specification in \[RFC2018\]": the scoreboard is emptied. "the loss
    /// recovery algorithm outlined in this document MUST be terminated", and
    /// HighRxt falls back to HighACK, RescueRxt to undefined.
    ///
    /// RecoveryPoint is left alone: the RFC sets it to HighData, which this
    /// call is not given; use [`Scoreboard::on_timeout_at`] for that.
    pub fn on_timeout(&mut self, snd_una: u64) {
        self.sacked.clear();
        self.in_recovery = false;
        self.entry_rxt_pending = false;
        self.high_rxt = snd_una;
        self.rescue_rxt = None;
    }

    /// [`Scoreboard::on_timeout`] and the rest of Sec. 5.1: "If an RTO occurs
    /// during loss recovery as specified in this document, RecoveryPoint MUST
    /// be set to HighData. Further, the new value of RecoveryPoint MUST be
    /// preserved". See [`Scoreboard::may_enter_recovery`].
    pub fn on_timeout_at(&mut self, snd_una: u64, snd_max: u64) {
        if self.in_recovery {
            self.recovery_point = snd_max;
        }
        self.on_timeout(snd_una);
    }

    /// Sec. 5.1: "a new recovery phase (as described in Section 5) MUST NOT be
    /// initiated until HighACK is greater than or equal to the new value of
    /// RecoveryPoint." True at once after a recovery that ran to its end.
    pub fn may_enter_recovery(&self, snd_una: u64) -> bool {
        snd_una >= self.recovery_point
    }
}

/// The SACK member of [`super::Recovery`] (RFC 6675 Sec. 5), and the
/// base of seed 004's LL-ELSN responses ([`super::ll_elsn`]).
#[derive(Clone, Debug)]
pub struct SackRecovery {
    pub(crate) board: Scoreboard,
    /// DupAcks: duplicate acks (Sec. 2) since the last new ack.
    pub(crate) dupacks: u32,
    /// DupThresh.
    pub(crate) dupthresh: u32,
    /// `cfg.eln` is on: a loss on an ELN-marked ack is corruption.
    eln: bool,
    /// `cfg.fr_request`, `cfg.limited_transmit` (copied).
    pub(crate) fr_request: bool,
    limited_transmit: bool,
}

impl SackRecovery {
    pub fn new(cfg: &SenderConfig) -> SackRecovery {
        SackRecovery {
            board: Scoreboard::new(cfg.mss_bytes, cfg.dupack_threshold),
            dupacks: 0,
            dupthresh: cfg.dupack_threshold,
            eln: cfg.eln != ElnResponse::Off,
            fr_request: cfg.fr_request,
            limited_transmit: cfg.limited_transmit,
        }
    }

    pub fn board(&self) -> &Scoreboard {
        &self.board
    }
    pub fn in_recovery(&self) -> bool {
        self.board.in_recovery()
    }
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }

    /// What caused a loss found on ack `a`.
    pub(crate) fn cause(&self, a: &AckInfo) -> LossCause {
        if a.eln && self.eln {
            LossCause::Corruption
        } else {
            LossCause::Congestion
        }
    }

    /// An ack (Sec. 5): its SACK blocks on the scoreboard, then as an ack
    /// of new data or as a duplicate.
    pub fn on_ack(&mut self, a: &AckInfo) -> AckAnswer {
        let cause = self.cause(a);
        let newly_sacked = self.board.on_ack(a.snd_una, a.sack);
        if a.acked_bytes > 0 {
            self.dupacks = 0;
            return self.on_new_ack(a.snd_una);
        }
        // Sec. 2: a DupAck also carries SACK information not known before.
        if !a.dup || (newly_sacked == 0 && !self.board.in_recovery()) {
            return AckAnswer::NONE;
        }
        self.dupacks += 1;
        if self.board.in_recovery() {
            return AckAnswer::NONE;
        }
        // Step 4: "DupAcks >= DupThresh" or "IsLost (HighACK + 1)"; or the
        // receiver's fast-retransmit request (seed 001 Sec. 6.3).
        // Sec. 5.1: after an RTO, no new recovery until RecoveryPoint is acked.
        let requested = self.fr_request && a.fr_request;
        // HighACK + 1, unless a SACK block covers it: a receiver never
        // reports one there (it would ack it), but a base station's NACK
        // does (lasthop_agents::snoop_nack: what it forwarded, not yet acked
        // by the fixed host), and a segment SACKed is not "presumed
        // dropped". With any end-to-end receiver `first` is HighACK + 1.
        let first = self.board.first_unsacked_from(a.snd_una);
        let lost = self.board.is_lost(first);
        if (self.dupacks >= self.dupthresh || lost || requested) && self.board.may_enter_recovery(a.snd_una) {
            let requested_only = requested && self.dupacks < self.dupthresh && !lost;
            // Step 4.3: "Retransmit the first data segment presumed dropped".
            return self.enter_recovery(a, first, requested_only, cause);
        }
        AckAnswer::NONE
    }

    /// An ack of new data (its SACK blocks already on the scoreboard):
    /// recovery ends once RecoveryPoint is acked (step A: cwnd =
    /// ssthresh); outside recovery the window opens; the timer restarts.
    pub(crate) fn on_new_ack(&mut self, snd_una: u64) -> AckAnswer {
        if !self.board.in_recovery() {
            return AckAnswer::OPEN;
        }
        if self.board.recovery_done(snd_una) {
            self.board.exit_recovery();
            return AckAnswer::NONE.with_exit(ExitRule::Deflate).restarting_rto();
        }
        AckAnswer::RESTART_RTO
    }

    /// Step 4: enter loss recovery (RecoveryPoint = HighData), cut the
    /// window once, and resend `first` (HighACK's segment; ESACK's
    /// FirstUnsacked). `requested_only`: entered on the receiver's
    /// fast-retransmit request alone (seed 001 Sec. 6.3).
    pub(crate) fn enter_recovery(
        &mut self,
        a: &AckInfo,
        first: u64,
        requested_only: bool,
        cause: LossCause,
    ) -> AckAnswer {
        self.board.enter_recovery(a.snd_max);
        AckAnswer::NONE
            .with_cut(Cut { inflate: false, cause, count: 1 })
            .with_requested(requested_only)
            .stopping_timing()
            .with_retransmit(Retransmit::Seq(first))
            .restarting_rto()
    }

    /// The next segment: in recovery (step C), "while (cwnd - pipe) >= 1
    /// SMSS" NextSeg's answer, passing over `retrying` (seed 004's ERSN
    /// marks); outside it the sender's window rule, with limited transmit.
    pub fn next_seg(&self, q: &SendQuery, retrying: &[u64]) -> NextSeg {
        if !self.board.in_recovery() {
            let limited = self.limited_transmit && self.dupacks <= 2;
            let extra_segments = if self.dupacks > 0 && limited { self.dupacks } else { 0 };
            return NextSeg::Window { extra_segments };
        }
        if q.cwnd_bytes < self.board.pipe(q.snd_una, q.snd_max) + q.mss_bytes {
            return NextSeg::Wait;
        }
        match self.board.next_seg(q.snd_una, q.snd_max, q.end_of_data, q.rwnd_limit, retrying) {
            Some((seq, len, _)) => NextSeg::Segment(seq, u64::from(len)),
            None => NextSeg::Wait,
        }
    }

    /// [seq, seq + len) is being resent.
    pub fn on_retransmit(&mut self, seq: u64, len: u64) {
        self.board.on_retransmit(seq, len as u32);
    }

    /// A retransmission timeout (Sec. 5.1).
    pub fn on_timeout(&mut self, snd_una: u64, snd_max: u64) {
        self.board.on_timeout_at(snd_una, snd_max);
        self.dupacks = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;
    const UNBOUNDED: u64 = u64::MAX;

    fn board() -> Scoreboard {
        Scoreboard::new(MSS as u32, 3)
    }

    #[test]
    fn update_merges_blocks_and_forgets_below_the_cumulative_ack() {
        // Segments 0..10 (1000 bytes each) are out; 0, 2 and 4 are lost.
        let mut sb = board();
        // Segment 1 arrives: a duplicate ack of 0 carrying its block.
        assert_eq!(sb.on_ack(0, &[(1000, 2000)]), 1000);
        // The same ack again (say, duplicated by the link): no new SACK
        // information, so not an RFC 6675 duplicate ack.
        assert_eq!(sb.on_ack(0, &[(1000, 2000)]), 0);
        // Segment 3: a second range, above a hole.
        assert_eq!(sb.on_ack(0, &[(3000, 4000), (1000, 2000)]), 1000);
        assert_eq!(sb.sacked_ranges(), &[(1000, 2000), (3000, 4000)]);
        // Segments 5 and 6 in one ack whose blocks overlap: 2000 new bytes, not 3000.
        assert_eq!(sb.on_ack(0, &[(5000, 7000), (6000, 7000), (3000, 4000)]), 2000);
        assert_eq!(sb.sacked_ranges(), &[(1000, 2000), (3000, 4000), (5000, 7000)]);
        // The retransmission of 2 fills the first hole: touching ranges merge
        // into one, and 4 is still missing.
        assert_eq!(sb.on_ack(0, &[(1000, 4000), (5000, 7000)]), 1000);
        assert_eq!(sb.sacked_ranges(), &[(1000, 4000), (5000, 7000)]);
        assert!(sb.is_sacked(1000) && sb.is_sacked(3999) && !sb.is_sacked(4000) && !sb.is_sacked(0));
        // 0 arrives: the cumulative ack jumps to 4000 and what lay below it leaves the board.
        assert_eq!(sb.on_ack(4000, &[(5000, 7000)]), 0);
        assert_eq!(sb.sacked_ranges(), &[(5000, 7000)]);
        // A D-SACK below the cumulative ack tells nothing new.
        assert_eq!(sb.on_ack(4000, &[(0, 1000), (5000, 7000)]), 0);
        // A cumulative ack inside a range trims it.
        assert_eq!(sb.on_ack(6000, &[]), 0);
        assert_eq!(sb.sacked_ranges(), &[(6000, 7000)]);
        // Everything acked: the board is empty.
        assert_eq!(sb.on_ack(10_000, &[]), 0);
        assert!(sb.sacked_ranges().is_empty());
    }

    #[test]
    fn is_lost_by_discontiguous_sequences_or_by_bytes() {
        // Three discontiguous SACKed segments above segment 0 (1, 3, 5): 0 is lost.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 2000), (3000, 4000), (5000, 6000)]);
        assert!(sb.is_lost(0));
        // Segment 2 has two ranges (2000 bytes) above it: neither rule holds.
        assert!(!sb.is_lost(2000));

        // The sequence rule alone: three 100-byte SACKed pieces are far below
        // (DupThresh - 1) * SMSS bytes, yet three discontiguous sequences.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 1100), (2000, 2100), (3000, 3100)]);
        assert!(sb.is_lost(0));
        assert!(!sb.is_lost(1100), "two sequences and 200 bytes above");

        // The byte rule alone: one contiguous range of 3 segments is "more
        // than (DupThresh - 1) * SMSS bytes"; 2 segments are not.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 4000)]);
        assert!(sb.is_lost(0));
        let mut sb = board();
        sb.on_ack(0, &[(1000, 3000)]);
        assert!(!sb.is_lost(0), "exactly 2000 bytes is not more than 2000");
        // Only octets above SeqNum count: from inside the range, less lies above.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 4000)]);
        assert!(!sb.is_lost(2000));
    }

    #[test]
    fn set_pipe_counts_neither_sacked_nor_lost_plus_retransmissions() {
        // t0: 10 segments out, 0..10_000. t1: 0 is lost; 1..=3 arrive and are SACKed.
        let mut sb = board();
        for end in [2000, 3000, 4000] {
            sb.on_ack(0, &[(1000, end)]);
        }
        // 0 is lost (3000 bytes SACKed above it), 1..=3 are SACKed: only 4..=9 are in the pipe.
        assert!(sb.is_lost(0));
        assert_eq!(sb.pipe(0, 10_000), 6000);
        // t2: the third duplicate ack: recovery, and 0 is retransmitted ((b): S1 <= HighRxt).
        sb.enter_recovery(10_000);
        assert_eq!(sb.next_seg(0, 10_000, 10_000, 20_000, &[]), Some((0, 1000, true)));
        sb.on_retransmit(0, 1000);
        assert_eq!(sb.pipe(0, 10_000), 7000);
        // t3: segment 4 is SACKed: it leaves the pipe.
        sb.on_ack(0, &[(1000, 5000)]);
        assert_eq!(sb.pipe(0, 10_000), 6000);
        // t4: the retransmission of 0 arrives: the ack jumps to 5000, and 5..=9 remain.
        sb.on_ack(5000, &[]);
        assert_eq!(sb.pipe(5000, 10_000), 5000);
        // Nothing outstanding, nothing in the pipe.
        assert_eq!(sb.pipe(10_000, 10_000), 0);
    }

    #[test]
    fn next_seg_rule_1_lowest_lost_hole_above_high_rxt_then_rule_2_new_data() {
        // t0: 10 segments out; 0 and 4 are lost, 1..=3 and 5..=9 SACKed.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 4000)]);
        sb.on_ack(0, &[(5000, 10_000), (1000, 4000)]);
        assert!(sb.is_lost(0) && sb.is_lost(4000));
        sb.enter_recovery(10_000);
        // Step (4.3) first: the segment at HighACK + 1.
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &[]), Some((0, 1000, true)));
        sb.on_retransmit(0, 1000);
        assert_eq!((sb.high_rxt(), sb.rescue_rxt()), (1000, Some(1000)));
        // Rule (1): the lowest unSACKed lost octet above HighRxt is 4000.
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &[]), Some((4000, 1000, true)));
        sb.on_retransmit(4000, 1000);
        assert_eq!(sb.high_rxt(), 5000);
        // No hole qualifies any more: rule (2) sends new data if the window allows...
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &[]), Some((10_000, 1000, false)));
        // ... and the last, short segment of a bounded transfer...
        assert_eq!(sb.next_seg(0, 10_000, 10_500, 20_000, &[]), Some((10_000, 500, false)));
        // ... but never a piece of a segment to fit the receiver's window.
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 10_999, &[]), None);
        // Everything is SACKed or sent and the rescue is not yet due: nothing.
        assert_eq!(sb.next_seg(0, 10_000, 10_000, 20_000, &[]), None);
    }

    #[test]
    fn next_seg_passes_over_segments_the_link_layer_is_retrying() {
        // As above, 0, 4 and 6 lost; 4 is being retried by the link layer
        // (ERSN): rule (1) passes it over for 6, and does not come back to it.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 4000)]);
        sb.on_ack(0, &[(5000, 6000), (1000, 4000)]);
        sb.on_ack(0, &[(7000, 10_000), (5000, 6000), (1000, 4000)]);
        sb.enter_recovery(10_000);
        let retrying = [4000];
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &retrying), Some((0, 1000, true)));
        sb.on_retransmit(0, 1000);
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &retrying), Some((6000, 1000, true)));
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &[]), Some((4000, 1000, true)), "unmarked");
        sb.on_retransmit(6000, 1000);
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &retrying), Some((10_000, 1000, false)));
        // Rule (3) passes it over too: 0 lost, 4 retried and not lost, 1..=3
        // and 5 SACKed; at the end of the data rule (3) would offer 4.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 4000)]);
        sb.on_ack(0, &[(5000, 6000), (1000, 4000)]);
        assert!(!sb.is_lost(4000));
        sb.enter_recovery(6000);
        sb.on_retransmit(0, 1000);
        assert_eq!(sb.next_seg(0, 6000, 6000, 20_000, &[]), Some((4000, 1000, true)));
        assert_eq!(sb.next_seg(0, 6000, 6000, 20_000, &retrying), None);
    }

    #[test]
    fn next_seg_rule_3_unsacked_not_lost_when_no_new_data_may_go() {
        // t0: 10 segments out; 0 and 7 are lost, 1..=6 and 8 SACKed, 9 still in flight.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 7000)]);
        sb.on_ack(0, &[(8000, 9000), (1000, 7000)]);
        assert!(!sb.is_lost(7000), "one sequence, 1000 bytes above 7000");
        sb.enter_recovery(10_000);
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &[]), Some((0, 1000, true)));
        sb.on_retransmit(0, 1000);
        // Rule (2) comes before rule (3) while new data may go.
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 20_000, &[]), Some((10_000, 1000, false)));
        // The receiver's window is full: rule (3) offers 7, below the highest SACK.
        assert_eq!(sb.next_seg(0, 10_000, UNBOUNDED, 10_000, &[]), Some((7000, 1000, true)));
        // So does the end of the data.
        assert_eq!(sb.next_seg(0, 10_000, 10_000, 20_000, &[]), Some((7000, 1000, true)));
        sb.on_retransmit(7000, 1000);
        assert_eq!(sb.high_rxt(), 8000);
        // 7 was retransmitted without being lost: counted twice ((a) and (b)).
        // 0 counts once ((b) only, it is lost), 9 once: 1000 + 2000 + 1000.
        assert_eq!(sb.pipe(0, 10_000), 4000);
        // 9 lies above the highest SACK: neither rule (1) nor (3) may take it,
        // and the rescue is premature (HighACK has not passed RescueRxt).
        assert_eq!(sb.next_seg(0, 10_000, 10_000, 20_000, &[]), None);
    }

    #[test]
    fn next_seg_rule_4_rescues_the_tail_once_per_recovery() {
        // t0: 10 segments out, the whole transfer; 0 and 9 are lost, 1..=8 SACKed.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 9000)]);
        sb.enter_recovery(10_000);
        assert_eq!(sb.next_seg(0, 10_000, 10_000, 20_000, &[]), Some((0, 1000, true)));
        sb.on_retransmit(0, 1000);
        // Nothing SACKed above 9: no rule (1) or (3); HighACK is not past RescueRxt.
        assert_eq!(sb.next_seg(0, 10_000, 10_000, 20_000, &[]), None);
        // t1: the retransmission of 0 arrives: a partial ack to 9000, no SACK left.
        sb.on_ack(9000, &[]);
        assert!(!sb.recovery_done(9000));
        // Rule (4): one segment holding the highest unSACKed octet (9999).
        assert_eq!(sb.next_seg(9000, 10_000, 10_000, 20_000, &[]), Some((9000, 1000, true)));
        sb.on_retransmit(9000, 1000);
        assert_eq!(sb.rescue_rxt(), Some(10_000), "RescueRxt = RecoveryPoint");
        assert_eq!(sb.high_rxt(), 1000, "HighRxt MUST NOT be updated");
        // Once per recovery.
        assert_eq!(sb.next_seg(9000, 10_000, 10_000, 20_000, &[]), None);
        // t2: the rescue arrives and ends recovery.
        sb.on_ack(10_000, &[]);
        assert!(sb.recovery_done(10_000));
        sb.exit_recovery();

        // With the rescue turned off, the tail waits for the retransmission timer.
        let mut sb = board().with_rescue(false);
        sb.on_ack(0, &[(1000, 9000)]);
        sb.enter_recovery(10_000);
        sb.on_retransmit(0, 1000);
        sb.on_ack(9000, &[]);
        assert_eq!(sb.next_seg(9000, 10_000, 10_000, 20_000, &[]), None);
    }

    #[test]
    fn rescue_resends_a_hole_already_retransmitted_when_everything_above_is_sacked() {
        // t0: segments 0..6 out, the whole transfer; 0 and 2 are lost, 1, 3, 4, 5 SACKed.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 2000)]);
        sb.on_ack(0, &[(3000, 6000), (1000, 2000)]);
        sb.enter_recovery(6000);
        sb.on_retransmit(0, 1000); // (4.3)
        assert_eq!(sb.next_seg(0, 6000, 6000, 20_000, &[]), Some((2000, 1000, true)));
        sb.on_retransmit(2000, 1000); // rule (1)
        assert_eq!(sb.next_seg(0, 6000, 6000, 20_000, &[]), None);
        // t1: 0 arrives, the ack reaches 2000; 2's retransmission is lost.
        sb.on_ack(2000, &[(3000, 6000)]);
        // The highest unSACKed octet is 2999, at or below HighRxt: only the rescue may send it.
        assert_eq!(sb.next_seg(2000, 6000, 6000, 20_000, &[]), Some((2000, 1000, true)));
        sb.on_retransmit(2000, 1000);
        assert_eq!((sb.high_rxt(), sb.rescue_rxt()), (3000, Some(6000)));
        assert_eq!(sb.next_seg(2000, 6000, 6000, 20_000, &[]), None);
    }

    #[test]
    fn fig1_both_holes_repaired_in_the_first_recovery_round_trip() {
        // Balakrishnan et al. 1997, Fig. 1: a window of five segments, 0..5000;
        // 0 and 1000 are lost on the wireless link; 2000, 3000 and 4000 arrive,
        // each answered by a duplicate ack of 0 with a growing SACK block.
        let mut sb = board();
        let mut dupacks = 0;
        for block in [(2000, 3000), (2000, 4000), (2000, 5000)] {
            assert_eq!(sb.on_ack(0, &[block]), 1000, "each ack SACKs one new segment");
            dupacks += 1;
        }
        // After the third: DupThresh reached, and both holes are IsLost (3000
        // SACKed bytes above each).
        assert_eq!(dupacks, 3);
        assert!(sb.is_lost(0) && sb.is_lost(1000));
        assert!(sb.may_enter_recovery(0));
        sb.enter_recovery(5000);
        assert_eq!(sb.recovery_point(), 5000);
        // The whole transfer is these five segments: NextSeg repairs 0, then 1000.
        assert_eq!(sb.next_seg(0, 5000, 5000, 8000, &[]), Some((0, 1000, true)));
        sb.on_retransmit(0, 1000);
        assert_eq!(sb.next_seg(0, 5000, 5000, 8000, &[]), Some((1000, 1000, true)));
        sb.on_retransmit(1000, 1000);
        assert_eq!(sb.next_seg(0, 5000, 5000, 8000, &[]), None);
        // Both retransmissions in flight, nothing else: the pipe holds two segments.
        assert_eq!(sb.pipe(0, 5000), 2000);
        // One round trip later: the first retransmission brings a partial ack,
        // the second the ack that ends recovery.
        sb.on_ack(1000, &[(2000, 5000)]);
        assert!(!sb.recovery_done(1000));
        sb.on_ack(5000, &[]);
        assert!(sb.recovery_done(5000));
        sb.exit_recovery();
        assert!(!sb.in_recovery());
    }

    #[test]
    fn leaving_recovery_keeps_sack_information_above_the_ack() {
        // Recovery for 0..5000 while new data 5000..8000 went out; 6 is SACKed above a hole at 5.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 5000)]);
        sb.enter_recovery(5000);
        sb.on_retransmit(0, 1000);
        sb.on_ack(5000, &[(6000, 7000)]);
        assert!(sb.recovery_done(5000));
        sb.exit_recovery();
        assert_eq!(sb.sacked_ranges(), &[(6000, 7000)], "SHOULD NOT be cleared");
        // Outside recovery NextSeg only offers new data (Limited Transmit).
        assert_eq!(sb.next_seg(5000, 8000, UNBOUNDED, 8000, &[]), None);
        assert_eq!(sb.next_seg(5000, 8000, UNBOUNDED, 9000, &[]), Some((8000, 1000, false)));
    }

    #[test]
    fn timeout_discards_sack_information_and_guards_the_recovery_point() {
        // t0: recovery over 0..10_000 with 1..=3 SACKed; 0 retransmitted.
        let mut sb = board();
        sb.on_ack(0, &[(1000, 4000)]);
        sb.enter_recovery(10_000);
        sb.on_retransmit(0, 1000);
        // t1: new data went out meanwhile (HighData 12_000); the timer fires.
        sb.on_timeout_at(0, 12_000);
        assert!(sb.sacked_ranges().is_empty() && !sb.in_recovery());
        assert_eq!((sb.high_rxt(), sb.rescue_rxt()), (0, None));
        // Nothing is known to be lost or SACKed: the whole flight is in the pipe.
        assert!(!sb.is_lost(0));
        assert_eq!(sb.pipe(0, 12_000), 12_000);
        // Go-back-N resends are not recovery retransmissions.
        sb.on_retransmit(0, 1000);
        assert_eq!(sb.pipe(0, 12_000), 12_000);
        // RecoveryPoint = HighData at the timeout: no new recovery below it.
        assert_eq!(sb.recovery_point(), 12_000);
        assert!(!sb.may_enter_recovery(11_000));
        assert!(sb.may_enter_recovery(12_000));
    }
}
