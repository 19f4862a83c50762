//! SMART loss detection: the sender's map of delivered segments, built from
//! the echo each ack carries, and the choice of what to retransmit.
//!
//! Seed 000 (Balakrishnan et al. 1997) Sec. II, after Keshav & Morgan's SMART:
//! each ack carries "the cumulative acknowledgment and the sequence number of
//! the packet that caused the receiver to generate the acknowledgment". "The
//! sender uses this information to create a bitmask of packets that have been
//! delivered successfully to the receiver. When the sender detects a gap in
//! the bitmask, it immediately assumes that the missing packets have been lost
//! without considering the possibility that they simply may have been
//! reordered." Sec. III-A (E2E-SMART): "The sender retransmits a packet when it
//! receives a SMART acknowledgment only if the same packet was not
//! retransmitted within the last round-trip time. If no further SMART
//! acknowledgments arrive, the sender falls back to the coarse timeout
//! mechanism to recover from the loss." Like the 1997 implementation, and
//! unlike Keshav & Morgan, there is no special detection of a lost
//! retransmission. The same board serves LL-SMART (Sec. III-B), where the base
//! station reads the echo off the TCP acks it forwards.
//!
//! [`SmartRecovery`] is the member of [`super::Recovery`] that runs on the
//! board (seed 000 Sec. III-A's E2E-SMART): every gap in the echoes is a
//! loss; one retransmission per SMART ack (its credit, spent by
//! [`SmartRecovery::next_seg`]), a segment at most once per round trip; the
//! window is cut once per loss episode (until the ack of what was sent when
//! the episode began), without inflation, and opens only outside it; the
//! coarse timeout remains the fallback.
//!
//! How a caller drives the board: on every ack, [`SmartBoard::on_ack`]; then, if the
//! ack carried an echo, ask [`SmartBoard::next_retransmission`] and record each
//! resend with [`SmartBoard::on_retransmit`] until it answers `None` (or the
//! window is full). Asking only on a SMART ack is what makes the timeout the
//! fallback: the board keeps no timer. Whether to cut the window, and how
//! often, is the congestion controller's business, not this module's.
//!
//! Departures and choices the paper leaves open:
//! - The echo names a segment's first byte, not its length: a delivered
//!   segment is taken to span `mss` bytes, which holds because lasthop senders
//!   only send full segments except the last one of a transfer (and a range
//!   running past the end of the data covers nothing that could be missing).
//! - "Within the last round-trip time" is `now - last_retransmit < rtt_ns`, with
//!   the RTT the caller's (e.g. its smoothed RTT): at exactly one RTT a
//!   segment may go again.
//! - A coarse timeout forgets the retransmission times but keeps the map of
//!   delivered segments: lasthop receivers never renege on out-of-order data,
//!   so RFC 2018's advice to clear the map after a timeout buys nothing here.
//!
//! The map is a sorted Vec of disjoint delivered byte ranges above the
//! cumulative ack, and the retransmission times a Vec sorted by sequence: a
//! few hundred segments at most, and no allocation once their capacity has
//! grown to the largest window seen.

use super::{AckAnswer, AckInfo, Cut, ExitRule, NextSeg, SendQuery, WindowStep};
use crate::cc::LossCause;
use crate::config::{ElnResponse, SenderConfig};
use lasthop_core::Time;

/// Ranges and retransmission records preallocated for a typical window, in entries.
const INITIAL_CAPACITY: usize = 64;

/// A SMART sender's scoreboard (the paper's "bitmask" of delivered packets).
#[derive(Clone, Debug)]
pub struct SmartBoard {
    /// Segment size, in bytes: the span assumed for each echoed segment.
    mss_bytes: u64,
    /// Highest cumulative ack seen, in bytes: everything below is forgotten.
    cum_ack: u64,
    /// Byte ranges `[start, end)` reported delivered by echoes, above `cum_ack`,
    /// sorted, disjoint and not touching.
    delivered: Vec<(u64, u64)>,
    /// `(seq, when it was last retransmitted)`, sorted by seq, seq >= `cum_ack`.
    rexmit_at: Vec<(u64, Time)>,
}

impl SmartBoard {
    pub fn new(mss_bytes: u32) -> SmartBoard {
        SmartBoard {
            // A zero step would never leave a gap.
            mss_bytes: u64::from(mss_bytes.max(1)),
            cum_ack: 0,
            delivered: Vec::with_capacity(INITIAL_CAPACITY),
            rexmit_at: Vec::with_capacity(INITIAL_CAPACITY),
        }
    }

    /// The highest cumulative ack seen, in bytes.
    pub fn cum_ack(&self) -> u64 {
        self.cum_ack
    }

    /// Delivered byte ranges `[start, end)` above the cumulative ack (for tests and traces).
    pub fn delivered(&self) -> &[(u64, u64)] {
        &self.delivered
    }

    /// One past the highest byte known delivered (echoed or cumulatively acked).
    pub fn highest_delivered_end(&self) -> u64 {
        self.delivered.last().map_or(self.cum_ack, |r| r.1).max(self.cum_ack)
    }

    /// A SMART ack: cumulative `ack` and `echo` (seq of the segment that caused
    /// it, None if the ack carried no echo). Records the echoed segment as
    /// delivered, forgets everything below `ack`. Returns true if this ack
    /// revealed at least one new gap (a segment below the highest delivered one
    /// that is neither acked nor delivered).
    ///
    /// A false answer does not mean there is nothing to resend: a hole found
    /// earlier may have outlived its one-RTT hold-off, so a caller asks
    /// [`SmartBoard::next_retransmission`] on every SMART ack.
    pub fn on_ack(&mut self, ack: u64, echo: Option<u64>) -> bool {
        // Acks may arrive out of order; an old one must not resurrect state.
        self.cum_ack = self.cum_ack.max(ack);
        self.forget_below_cum_ack();
        let Some(seq) = echo else {
            return false;
        };
        // Nothing above the old highest delivered byte was known delivered, so
        // an echo beyond it leaves [old highest, seq) uncovered: new holes.
        // Holes below it can only shrink, so no other echo reveals one.
        let new_gap = seq > self.highest_delivered_end();
        let (start, end) = (seq.max(self.cum_ack), seq.saturating_add(self.mss_bytes));
        if end > start {
            self.insert_delivered(start, end);
        }
        new_gap
    }

    fn forget_below_cum_ack(&mut self) {
        let cum = self.cum_ack;
        let gone = self.delivered.partition_point(|r| r.1 <= cum);
        self.delivered.drain(..gone);
        if let Some(first) = self.delivered.first_mut() {
            first.0 = first.0.max(cum);
        }
        let gone = self.rexmit_at.partition_point(|r| r.0 < cum);
        self.rexmit_at.drain(..gone);
    }

    /// Adds `[start, end)` to the delivered ranges, merging what it overlaps
    /// or touches so that gaps are exactly the spaces between ranges.
    fn insert_delivered(&mut self, start: u64, end: u64) {
        let i = self.delivered.partition_point(|r| r.1 < start);
        let mut j = i;
        let (mut s, mut e) = (start, end);
        while j < self.delivered.len() && self.delivered[j].0 <= e {
            s = s.min(self.delivered[j].0);
            e = e.max(self.delivered[j].1);
            j += 1;
        }
        if i == j {
            self.delivered.insert(i, (s, e));
        } else {
            self.delivered[i] = (s, e);
            self.delivered.drain(i + 1..j);
        }
    }

    /// The lowest segment (seq, len) between `snd_una` and the highest delivered
    /// segment that is missing (not delivered) and was not retransmitted within
    /// the last `rtt_ns` before `now` — the next one to retransmit, or None.
    /// `end_of_data` bounds the last segment's length.
    pub fn next_retransmission(&self, now: Time, rtt_ns: u64, snd_una: u64, end_of_data: u64) -> Option<(u64, u32)> {
        // Both lists are sorted by seq: one merge walk, no per-hole search.
        let mut records = self.rexmit_at.iter().peekable();
        for seq in self.missing(snd_una) {
            if seq >= end_of_data {
                return None;
            }
            while records.next_if(|r| r.0 < seq).is_some() {}
            let held = records.peek().is_some_and(|&&(s, at)| s == seq && now.since(at) < rtt_ns);
            if !held {
                let len = self.mss_bytes.min(end_of_data - seq);
                return Some((seq, len as u32));
            }
        }
        None
    }

    /// Record that segment `seq` was retransmitted at `now`.
    pub fn on_retransmit(&mut self, now: Time, seq: u64) {
        if seq < self.cum_ack {
            return; // already acked: nothing to hold back
        }
        match self.rexmit_at.binary_search_by_key(&seq, |r| r.0) {
            Ok(i) => self.rexmit_at[i].1 = now,
            Err(i) => self.rexmit_at.insert(i, (seq, now)),
        }
    }

    /// The first byte of each missing segment below the highest delivered one,
    /// from `max(snd_una, cum_ack)` upward, in `mss` steps through each gap
    /// (for tests and traces; `.count()` gives the number of missing segments).
    pub fn missing(&self, snd_una: u64) -> impl Iterator<Item = u64> + '_ {
        Missing { ranges: &self.delivered, cursor: snd_una.max(self.cum_ack), mss_bytes: self.mss_bytes }
    }

    /// Coarse timeout: forget the retransmission times (everything may be resent).
    pub fn on_timeout(&mut self) {
        self.rexmit_at.clear();
    }
}

/// Walks the gaps between `cursor` and the delivered ranges, one segment at a time.
struct Missing<'a> {
    /// Delivered ranges not yet passed.
    ranges: &'a [(u64, u64)],
    /// The next byte that may start a missing segment.
    cursor: u64,
    mss_bytes: u64,
}

impl Iterator for Missing<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        while let Some((&(start, end), rest)) = self.ranges.split_first() {
            if self.cursor < start {
                // A segment sent from here covers [cursor, cursor + mss), so
                // stepping by mss skips no byte even if a gap is not aligned.
                let seq = self.cursor;
                self.cursor = self.cursor.saturating_add(self.mss_bytes);
                return Some(seq);
            }
            self.cursor = self.cursor.max(end);
            self.ranges = rest;
        }
        None
    }
}

/// The SMART member of [`super::Recovery`].
#[derive(Clone, Debug)]
pub struct SmartRecovery {
    board: SmartBoard,
    /// A loss episode lasts until this byte is acked.
    recover: Option<u64>,
    /// Duplicate acks since the last new ack (limited transmit).
    dupacks: u32,
    /// One retransmission per SMART ack: the last ack carried an echo.
    credit: bool,
    /// `cfg.eln` is on: a loss on an ELN-marked ack is corruption.
    eln: bool,
    /// `cfg.mutations.ignore_smart_echo`.
    ignore_echo: bool,
    limited_transmit: bool,
}

impl SmartRecovery {
    pub fn new(cfg: &SenderConfig) -> SmartRecovery {
        SmartRecovery {
            board: SmartBoard::new(cfg.mss_bytes),
            recover: None,
            dupacks: 0,
            credit: false,
            eln: cfg.eln != ElnResponse::Off,
            ignore_echo: cfg.mutations.ignore_smart_echo,
            limited_transmit: cfg.limited_transmit,
        }
    }

    pub fn in_recovery(&self) -> bool {
        self.recover.is_some()
    }
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }

    /// An ack: its echo goes on the board; a new gap outside an episode
    /// starts one (a cut, as a fast retransmit would); the ack that covers
    /// the episode's end ends it.
    pub fn on_ack(&mut self, a: &AckInfo) -> AckAnswer {
        let cause = if a.eln && self.eln { LossCause::Corruption } else { LossCause::Congestion };
        let echo = if self.ignore_echo { None } else { a.smart_echo };
        let gap = self.board.on_ack(a.snd_una, echo);
        if a.acked_bytes > 0 {
            self.dupacks = 0;
        }
        if a.dup {
            self.dupacks += 1;
        }
        // "retransmits a packet when it receives a SMART acknowledgment".
        self.credit = echo.is_some();
        let mut answer = AckAnswer::NONE;
        if a.acked_bytes > 0 {
            if self.recover.is_some_and(|r| a.snd_una >= r) {
                self.recover = None;
                answer = answer.with_exit(ExitRule::Keep);
            }
            if self.recover.is_none() {
                answer = answer.with_window(WindowStep::Open);
            }
            answer = answer.restarting_rto();
        }
        if gap && self.recover.is_none() {
            // One window cut per loss episode, as a fast retransmit would.
            self.recover = Some(a.snd_max);
            answer = answer.with_cut(Cut { inflate: false, cause, count: 1 }).stopping_timing();
        }
        answer
    }

    /// The next segment: the board's next hole when the last ack was a
    /// SMART ack (its credit spent unless `q.peek`), else the sender's
    /// window rule.
    pub fn next_seg(&mut self, q: &SendQuery) -> NextSeg {
        if self.credit {
            if !q.peek {
                self.credit = false;
            }
            let rtt = q.rtt.fine_srtt_ns().unwrap_or(q.rtt.rto_ns());
            if let Some((seq, len)) = self.board.next_retransmission(q.now, rtt, q.snd_una, q.end_of_data) {
                return NextSeg::Segment(seq, u64::from(len));
            }
        }
        NextSeg::Window { extra_segments: self.window_extension() }
    }

    /// Limited transmit (RFC 3042) outside an episode.
    fn window_extension(&self) -> u32 {
        let limited = self.limited_transmit && self.recover.is_none() && self.dupacks <= 2;
        if self.dupacks > 0 && limited {
            self.dupacks
        } else {
            0
        }
    }

    /// A segment at `seq` was resent at `now`.
    pub fn on_retransmit(&mut self, now: Time, seq: u64) {
        self.board.on_retransmit(now, seq);
    }

    /// A retransmission timeout: the episode and the credit end.
    pub fn on_timeout(&mut self) {
        self.board.on_timeout();
        self.recover = None;
        self.credit = false;
        self.dupacks = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::time::NS_PER_MS;

    const MSS: u32 = 1000;
    const RTT_NS: u64 = 100 * NS_PER_MS;
    const END: u64 = 5000;

    fn board() -> SmartBoard {
        SmartBoard::new(MSS)
    }

    fn next(b: &SmartBoard, ms: u64, snd_una: u64) -> Option<(u64, u32)> {
        b.next_retransmission(Time::from_ms(ms), RTT_NS, snd_una, END)
    }

    fn missing(b: &SmartBoard, snd_una: u64) -> Vec<u64> {
        b.missing(snd_una).collect()
    }

    /// Seed 000 Fig. 1: a window of five segments, the first two lost on the
    /// wireless hop. SMART repairs both holes on the first ack that shows them.
    #[test]
    fn fig1_two_losses_in_a_window_are_both_resent_on_the_first_smart_ack() {
        let mut b = board();
        // t=0: segments 0, 1000, 2000, 3000, 4000 sent; 0 and 1000 are lost.
        // t=100 ms: the ack caused by 2000 arrives (ack 0, echo 2000).
        assert!(b.on_ack(0, Some(2000)), "a gap below the echoed segment");
        assert_eq!(missing(&b, 0), [0, 1000]);
        // No wait for three duplicates: the hole at 0 goes at once...
        assert_eq!(next(&b, 100, 0), Some((0, MSS)));
        b.on_retransmit(Time::from_ms(100), 0);
        // ...and so does the one at 1000, within the same ack's processing.
        assert_eq!(next(&b, 100, 0), Some((1000, MSS)));
        b.on_retransmit(Time::from_ms(100), 1000);
        assert_eq!(next(&b, 100, 0), None, "both holes are being repaired");

        // t=101 ms, 102 ms: the acks echoing 3000 and 4000 show the same holes,
        // but both were resent within the last RTT: nothing goes again.
        assert!(!b.on_ack(0, Some(3000)), "no hole the board did not know");
        assert_eq!(next(&b, 101, 0), None);
        assert!(!b.on_ack(0, Some(4000)));
        assert_eq!(next(&b, 102, 0), None);
        assert_eq!(missing(&b, 0), [0, 1000], "still missing, only held back");

        // t=150 ms: the resent 1000 arrives, the resent 0 is lost again; the
        // sender has meanwhile sent 5000. 0 is still held until 200 ms.
        assert!(!b.on_ack(0, Some(1000)));
        assert_eq!(missing(&b, 0), [0]);
        assert_eq!(next(&b, 150, 0), None);
        assert_eq!(next(&b, 199, 0), None, "one RTT after 100 ms is 200 ms");

        // t=250 ms, more than an RTT after the retransmission: a new SMART ack
        // (echo 5000) arrives with 0 still missing, and 0 is offered again.
        assert!(!b.on_ack(0, Some(5000)), "5000 follows 4000: no new hole");
        assert_eq!(b.next_retransmission(Time::from_ms(250), RTT_NS, 0, 6000), Some((0, MSS)));
    }

    #[test]
    fn cumulative_acks_forget_what_they_cover() {
        let mut b = board();
        // t=100 ms: ack 0 echo 2000 -> 0 and 1000 resent.
        b.on_ack(0, Some(2000));
        b.on_retransmit(Time::from_ms(100), 0);
        b.on_retransmit(Time::from_ms(100), 1000);
        b.on_ack(0, Some(3000));
        assert_eq!(b.delivered(), [(2000, 4000)]);
        // t=150 ms: the resent 0 arrives -> ack 1000 echo 0: the record of 0
        // and the acked byte range are forgotten, 1000 is still held back.
        assert!(!b.on_ack(1000, Some(0)));
        assert_eq!(b.cum_ack(), 1000);
        assert_eq!(b.rexmit_at, [(1000, Time::from_ms(100))]);
        assert_eq!(missing(&b, 1000), [1000]);
        assert_eq!(next(&b, 150, 1000), None);
        // t=151 ms: the resent 1000 arrives -> ack 4000 (it filled the hole up
        // to the delivered 2000..4000) echo 1000: nothing below 4000 remains.
        assert!(!b.on_ack(4000, Some(1000)));
        assert!(b.delivered().is_empty());
        assert!(b.rexmit_at.is_empty());
        assert_eq!(missing(&b, 4000), [] as [u64; 0]);
        // t=152 ms: a late, reordered ack 1000 does not move the point back.
        assert!(!b.on_ack(1000, Some(2000)));
        assert_eq!(b.cum_ack(), 4000);
        assert!(b.delivered().is_empty());
        // An ack landing inside a delivered range trims it rather than drop it.
        b.on_ack(4000, Some(6000));
        b.on_ack(4000, Some(7000));
        assert_eq!(b.delivered(), [(6000, 8000)]);
        b.on_ack(6500, None);
        assert_eq!(b.delivered(), [(6500, 8000)]);
        assert_eq!(missing(&b, 6500), [] as [u64; 0]);
    }

    /// Seed 000 Sec. II: SMART "immediately assumes that the missing packets
    /// have been lost without considering the possibility that they simply may
    /// have been reordered" — the price of a one-number echo.
    #[test]
    fn reordering_is_taken_as_loss() {
        let mut b = board();
        // t=0: 0, 1000, 2000 sent. t=50 ms: 0 arrives -> ack 1000 echo 0.
        assert!(!b.on_ack(1000, Some(0)));
        // t=51 ms: 2000 overtakes 1000 -> ack 1000 echo 2000: 1000 is "lost".
        assert!(b.on_ack(1000, Some(2000)));
        assert_eq!(next(&b, 51, 1000), Some((1000, MSS)), "a spurious retransmission, at once");
        b.on_retransmit(Time::from_ms(51), 1000);
        // t=52 ms: the original 1000 arrives after all -> ack 3000 echo 1000.
        assert!(!b.on_ack(3000, Some(1000)));
        assert_eq!(missing(&b, 3000), [] as [u64; 0]);
        assert_eq!(next(&b, 52, 3000), None);
    }

    #[test]
    fn an_ack_without_echo_only_moves_the_cumulative_point() {
        let mut b = board();
        b.on_ack(0, Some(2000));
        b.on_ack(0, Some(4000));
        assert_eq!(b.delivered(), [(2000, 3000), (4000, 5000)]);
        // A plain duplicate ack: no echo, nothing learned, no gap.
        assert!(!b.on_ack(0, None));
        assert_eq!(b.delivered(), [(2000, 3000), (4000, 5000)]);
        assert_eq!(missing(&b, 0), [0, 1000, 3000]);
        // A plain ack of new data forgets below it and nothing else.
        assert!(!b.on_ack(2000, None));
        assert_eq!(b.cum_ack(), 2000);
        assert_eq!(b.delivered(), [(2000, 3000), (4000, 5000)]);
        assert_eq!(missing(&b, 2000), [3000]);
        assert!(!b.on_ack(3000, None));
        assert_eq!(b.delivered(), [(4000, 5000)]);
        assert_eq!(missing(&b, 3000), [3000]);
    }

    #[test]
    fn a_timeout_clears_the_retransmission_hold_off() {
        let mut b = board();
        // t=100 ms: ack 0 echo 1000 -> 0 resent.
        assert!(b.on_ack(0, Some(1000)));
        b.on_retransmit(Time::from_ms(100), 0);
        assert_eq!(next(&b, 110, 0), None, "held back for one RTT");
        // t=110 ms: the coarse timer fires (the fallback when no SMART ack
        // comes). The hold-off goes; the delivered map stays.
        b.on_timeout();
        assert_eq!(next(&b, 110, 0), Some((0, MSS)));
        assert_eq!(b.delivered(), [(1000, 2000)]);
    }

    #[test]
    fn end_of_data_bounds_what_is_offered() {
        let mut b = board();
        // Segments 0 and 1000 sent, 0 lost: ack 0 echo 1000.
        b.on_ack(0, Some(1000));
        assert_eq!(b.next_retransmission(Time::ZERO, RTT_NS, 0, 2000), Some((0, MSS)));
        // The echo carries no length, so the board cannot know where the data
        // ends: the caller's end_of_data clips the resend and nothing is
        // offered at or past it.
        assert_eq!(b.next_retransmission(Time::ZERO, RTT_NS, 0, 600), Some((0, 600)));
        assert_eq!(b.next_retransmission(Time::ZERO, RTT_NS, 0, 0), None);
    }
}
