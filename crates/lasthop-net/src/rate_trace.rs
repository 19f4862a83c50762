//! A link direction whose rate is a recorded trace of delivery
//! opportunities, in Mahimahi's `mm-link` format (Netravali et al.,
//! "Mahimahi: Accurate Record-and-Replay for HTTP", USENIX ATC 2015,
//! Sec. 3 "LinkShell"; the rules as read in mahimahi's
//! `src/frontend/link_queue.cc`, `LinkQueue::LinkQueue`, `rationalize` and
//! `use_a_delivery_opportunity`, at commit 18915b6).
//!
//! The format: one integer per line, a time in milliseconds at which one
//! delivery opportunity of [`OPPORTUNITY_BYTES`] (1504: mahimahi's
//! `PACKET_SIZE`, an MTU and the TUN header's 4 bytes) occurs. Several
//! lines may give the same millisecond (several opportunities at once).
//! The times never decrease, there is at least one, and the last is
//! positive: it is the trace's period, after which the trace starts again
//! (mahimahi's `base_timestamp_ += schedule_.back()` at the wrap, so a
//! trace whose first line is 0 has two opportunities at each multiple of
//! the period). mahimahi refuses an empty line, a decreasing time, an empty
//! trace and a last time of 0; so does [`RateTrace::parse`], naming the
//! line and the reason.
//!
//! The rule at each opportunity (`rationalize`): the link releases up to
//! 1504 bytes from the head of its queue. A packet larger than what is left
//! of an opportunity is partly sent and its remainder waits for the next
//! opportunity; a packet that finishes with bytes to spare leaves them to
//! the packets queued behind it, within the same opportunity; an
//! opportunity that finds the queue empty is wasted. A packet that arrives
//! in the millisecond of an opportunity cannot use it (mahimahi moves the
//! link up to `now` before it queues the packet): here, a frame that
//! starts on an idle direction at `now` uses the opportunities strictly
//! after `now`.
//!
//! [`TraceShaper`] answers, sans IO, when the transmission of a frame that
//! starts on the direction ends: at the opportunity that releases its last
//! byte. The direction holds one frame on its medium at a time, so the
//! queue behind it is the direction's own (its discipline decides the
//! order; mahimahi's default is a FIFO without limit, lasthop's is the
//! direction's queue limit). Integer nanoseconds throughout; a frame costs
//! a binary search over the trace at most, and no allocation.
//!
//! Where lasthop departs from mahimahi:
//! - Phase: the trace's time 0 is the run's time 0 (mahimahi's is the
//!   moment the shell starts). A trace runs from the start of the run,
//!   whatever the flows do.
//! - Clock: mahimahi reads a millisecond clock, so a packet that arrives
//!   at 5.9 ms is queued as if at 5 ms and the opportunities of the 5 ms
//!   line are already spent; here time is in ns, and "after `now`" is the
//!   same rule without the truncation (a frame at 5.9 ms cannot use a 5 ms
//!   opportunity either way; the two differ only in what is one
//!   millisecond).
//! - Bytes left in an opportunity go to the next frame if it was waiting
//!   when the frame before it finished (the direction's queue was not
//!   empty); a frame that arrives at the very nanosecond of the
//!   opportunity, the queue empty, gets the next opportunity, as in
//!   mahimahi's millisecond clock.
//! - Packets larger than 1504 bytes are allowed (mahimahi refuses them):
//!   they take as many opportunities as they need.
//! - The propagation delay is the direction's own and applies after the
//!   release, as mahimahi's `mm-delay` shell nested inside `mm-link` would
//!   (on the uplink); there is no separate delay shell.
//! - Mahimahi can stop at the end of a trace (without `--once` it loops);
//!   here a trace always loops.

use lasthop_core::time::NS_PER_MS;
use lasthop_core::Time;
use std::fmt;
use std::sync::Arc;

/// Bytes one delivery opportunity releases: mahimahi's `PACKET_SIZE`
/// (1500 bytes of MTU and the 4 bytes of the TUN device's header).
pub const OPPORTUNITY_BYTES: u32 = 1504;

/// The latest time a trace line may give, in ms (about 31.7 years): its
/// nanoseconds, and a run's worth of loops of it, stay within a `u64`.
pub const MAX_TRACE_MS: u64 = 1_000_000_000_000;

/// The most opportunities (lines) one period of a trace may have.
pub const MAX_TRACE_LINES: usize = 1 << 24;

/// What is wrong with a trace: the line (1-based; 0 for the trace as a
/// whole) and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for TraceError {}

/// One period of a trace: the times of its delivery opportunities, in ms,
/// in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateTrace {
    times_ms: Box<[u64]>,
}

impl RateTrace {
    /// Read a trace in mahimahi's text format: one whole number of
    /// milliseconds per line (surrounding blanks allowed); a final line
    /// break is not an empty line.
    pub fn parse(text: &str) -> Result<RateTrace, TraceError> {
        let mut times = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let s = line.trim();
            if s.is_empty() {
                return Err(TraceError { line: line_no, reason: "empty line".into() });
            }
            let ms = if s.bytes().all(|b| b.is_ascii_digit()) { s.parse::<u64>().ok() } else { None };
            let Some(ms) = ms else {
                return Err(TraceError {
                    line: line_no,
                    reason: format!("'{}' is not a whole number of milliseconds", shorten(s)),
                });
            };
            times.push(ms);
            if times.len() > MAX_TRACE_LINES {
                return Err(TraceError { line: line_no, reason: format!("more than {MAX_TRACE_LINES} lines") });
            }
        }
        RateTrace::from_ms(times)
    }

    /// A trace from its times in ms (line `i + 1` is `times[i]`), checked
    /// as [`RateTrace::parse`] checks a file's.
    pub fn from_ms(times: Vec<u64>) -> Result<RateTrace, TraceError> {
        if times.len() > MAX_TRACE_LINES {
            return Err(TraceError { line: 0, reason: format!("more than {MAX_TRACE_LINES} lines") });
        }
        for (i, &ms) in times.iter().enumerate() {
            if ms > MAX_TRACE_MS {
                return Err(TraceError {
                    line: i + 1,
                    reason: format!("{ms} ms is past the latest time a trace may give ({MAX_TRACE_MS} ms)"),
                });
            }
            if i > 0 && ms < times[i - 1] {
                return Err(TraceError {
                    line: i + 1,
                    reason: format!(
                        "{ms} ms is before the time before it, {} ms (times must not decrease)",
                        times[i - 1]
                    ),
                });
            }
        }
        match times.last() {
            None => Err(TraceError { line: 0, reason: "no times: a trace needs at least one line".into() }),
            Some(0) => Err(TraceError {
                line: times.len(),
                reason: "the last time is 0 ms: a trace must last a nonzero time (its last time is its period)".into(),
            }),
            Some(_) => Ok(RateTrace { times_ms: times.into_boxed_slice() }),
        }
    }

    /// The period, in ms: the last line's time.
    pub fn period_ms(&self) -> u64 {
        *self.times_ms.last().expect("a trace has a line")
    }

    /// The delivery opportunities of one period (its lines).
    pub fn opportunities(&self) -> usize {
        self.times_ms.len()
    }

    /// The times of one period's opportunities, in ms.
    pub fn times_ms(&self) -> &[u64] {
        &self.times_ms
    }

    /// The trace's mean rate, in bit/s (rounded, at least 1): every
    /// opportunity's bytes over the period. What a trace direction
    /// reports as its bandwidth.
    pub fn mean_rate_bps(&self) -> u64 {
        let bits = self.times_ms.len() as u128 * u128::from(OPPORTUNITY_BYTES) * 8 * 1000;
        let p = u128::from(self.period_ms());
        u64::try_from((bits + p / 2) / p).unwrap_or(u64::MAX).max(1)
    }

    /// How many opportunities occur at or before `t`, from the run's start
    /// (the trace looping).
    pub fn opportunities_until(&self, t: Time) -> u64 {
        let period_ns = self.period_ms() * NS_PER_MS;
        let loops = t.ns() / period_ns;
        let r_ms = (t.ns() % period_ns) / NS_PER_MS;
        let within = self.times_ms.partition_point(|&ms| ms <= r_ms) as u64;
        loops.saturating_mul(self.times_ms.len() as u64).saturating_add(within)
    }
}

/// The first characters of a bad line, for an error message.
fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// A direction's transmitter driven by a [`RateTrace`]: which
/// opportunities its frames have used, and what is left of the latest.
///
/// Opportunities are numbered from the run's start across the trace's
/// loops: opportunity `g` is line `g % n` of loop `g / n` (`n` lines), at
/// `(g / n) · period + time[g % n]`.
#[derive(Clone, Debug)]
pub struct TraceShaper {
    trace: Arc<RateTrace>,
    /// The period, in ns.
    period_ns: u64,
    /// The opportunity that released the latest frame's last byte (`None`
    /// before the first frame).
    last: Option<u64>,
    /// Bytes of opportunity `last` that the latest frame left.
    left_bytes: u32,
    /// A frame was waiting when the latest one finished: the next frame
    /// starts at that opportunity and may take what it left.
    backlogged: bool,
}

impl TraceShaper {
    pub fn new(trace: Arc<RateTrace>) -> TraceShaper {
        let period_ns = trace.period_ms() * NS_PER_MS;
        TraceShaper { trace, period_ns, last: None, left_bytes: 0, backlogged: false }
    }

    pub fn trace(&self) -> &RateTrace {
        &self.trace
    }

    /// When opportunity `g` occurs.
    #[inline]
    fn at(&self, g: u64) -> Time {
        let n = self.trace.times_ms.len() as u64;
        let ms = self.trace.times_ms[(g % n) as usize];
        Time((g / n).saturating_mul(self.period_ns).saturating_add(ms * NS_PER_MS))
    }

    /// The first opportunity strictly after `now`.
    #[inline]
    fn first_after(&self, now: Time) -> u64 {
        let n = self.trace.times_ms.len() as u64;
        let loops = now.ns() / self.period_ns;
        let r_ms = (now.ns() % self.period_ns) / NS_PER_MS;
        // An opportunity at r_ms ms is at or before `now` (r_ms is
        // truncated): the first later line is past r_ms.
        let i = self.trace.times_ms.partition_point(|&ms| ms <= r_ms) as u64;
        loops.saturating_mul(n).saturating_add(i)
    }

    /// A frame of `size_bytes` starts at `now` on the idle direction.
    /// Returns when its last byte is released (never before `now`; `now`
    /// itself when what the latest opportunity left holds it).
    pub fn start(&mut self, now: Time, size_bytes: u32) -> Time {
        let backlogged = std::mem::take(&mut self.backlogged);
        let mut need = u64::from(size_bytes);
        let first = match self.last {
            // Behind the frame that finished at `now`: what it left of
            // that opportunity, then the opportunities after it (some
            // may be at the same millisecond).
            Some(last) if backlogged && self.at(last) == now => {
                let left = u64::from(self.left_bytes);
                if need <= left && need > 0 {
                    self.left_bytes -= size_bytes;
                    return now;
                }
                need = need.saturating_sub(left);
                last + 1
            }
            // An idle direction: the opportunities since the latest were
            // wasted; those at `now` are past.
            _ => self.first_after(now),
        };
        let per = u64::from(OPPORTUNITY_BYTES);
        let used = need.div_ceil(per).max(1);
        let g = first.saturating_add(used - 1);
        self.last = Some(g);
        self.left_bytes = (used * per - need) as u32;
        self.at(g)
    }

    /// The frame on the medium left it; `waiting`: another frame waits
    /// behind it, and starts now.
    pub fn finish(&mut self, waiting: bool) {
        self.backlogged = waiting;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = NS_PER_MS;

    fn shaper(text: &str) -> TraceShaper {
        TraceShaper::new(Arc::new(RateTrace::parse(text).expect("a valid trace")))
    }

    fn err(text: &str) -> String {
        RateTrace::parse(text).expect_err("must be rejected").to_string()
    }

    #[test]
    fn parse_reads_mahimahis_format_and_names_the_bad_line() {
        let t = RateTrace::parse("0\n3\n3\n10\n").unwrap();
        assert_eq!((t.times_ms(), t.period_ms(), t.opportunities()), (&[0, 3, 3, 10][..], 10, 4));
        assert_eq!(RateTrace::parse(" 5 \r\n7").unwrap().times_ms(), &[5, 7]);
        assert_eq!(err("1\nx2\n3"), "line 2: 'x2' is not a whole number of milliseconds");
        assert_eq!(err("1\n-2\n3"), "line 2: '-2' is not a whole number of milliseconds");
        assert_eq!(err("1\n2.5\n3"), "line 2: '2.5' is not a whole number of milliseconds");
        assert_eq!(err("1\n\n3"), "line 2: empty line");
        assert_eq!(err("4\n5\n3"), "line 3: 3 ms is before the time before it, 5 ms (times must not decrease)");
        assert_eq!(err(""), "no times: a trace needs at least one line");
        assert_eq!(
            err("0\n0"),
            "line 2: the last time is 0 ms: a trace must last a nonzero time (its last time is its period)"
        );
        assert_eq!(
            err("99999999999999999999999"),
            "line 1: '99999999999999999999999' is not a whole number of milliseconds"
        );
        assert!(err("1000000000001").starts_with("line 1: 1000000000001 ms is past the latest time"));
        assert!(err(&"7".repeat(100)).ends_with("...' is not a whole number of milliseconds"));
    }

    #[test]
    fn the_mean_rate_is_every_opportunitys_bytes_over_the_period() {
        // One opportunity per ms: 1504 bytes/ms = 12.032 Mb/s.
        let t = RateTrace::parse(&(1..=1000).map(|i| format!("{i}\n")).collect::<String>()).unwrap();
        assert_eq!(t.mean_rate_bps(), 12_032_000);
        assert_eq!(RateTrace::parse("1000").unwrap().mean_rate_bps(), 12_032);
    }

    #[test]
    fn opportunities_until_counts_across_loops() {
        let t = RateTrace::parse("0\n3\n3\n10").unwrap();
        let until = |ns: u64| t.opportunities_until(Time(ns));
        assert_eq!(until(0), 1, "the 0 ms line");
        assert_eq!((until(3 * MS - 1), until(3 * MS)), (1, 3));
        assert_eq!(until(10 * MS - 1), 3);
        // 10 ms: loop 0's last line and loop 1's first, both at 10 ms.
        assert_eq!(until(10 * MS), 5);
        assert_eq!(until(20 * MS), 9);
    }

    #[test]
    fn a_frame_larger_than_an_opportunity_finishes_at_a_later_one() {
        // Opportunities at 1, 2, 3, ... ms.
        let mut s = shaper("1\n2\n3\n4\n5\n6\n7\n8\n9\n10");
        // t = 0.5 ms: a 2000-byte frame on an idle direction: 1504 bytes
        // at 1 ms, its last 496 at 2 ms.
        assert_eq!(s.start(Time(MS / 2), 2000), Time(2 * MS));
        // t = 2 ms, a frame waiting behind it: the 1008 bytes left of the
        // 2 ms opportunity hold a 1000-byte frame: it leaves at once.
        s.finish(true);
        assert_eq!(s.start(Time(2 * MS), 1000), Time(2 * MS));
        // Then 8 bytes are left: a 1500-byte frame takes them and 1492 of
        // the 3 ms opportunity.
        s.finish(true);
        assert_eq!(s.start(Time(2 * MS), 1500), Time(3 * MS));
        // Nothing waits at 3 ms: its 12 bytes are wasted, and a frame
        // offered at 3 ms (the same nanosecond) takes the 4 ms one.
        s.finish(false);
        assert_eq!(s.start(Time(3 * MS), 12), Time(4 * MS));
    }

    #[test]
    fn several_opportunities_in_one_millisecond_release_several_frames_at_once() {
        // Three opportunities at 5 ms, one at 8 ms.
        let mut s = shaper("5\n5\n5\n8");
        // t = 1 ms: three 1500-byte frames queued. The first takes the
        // first 5 ms opportunity; each next one, waiting, the rest of the
        // one before (4 bytes) and most of the next at the same 5 ms.
        assert_eq!(s.start(Time(MS), 1500), Time(5 * MS));
        s.finish(true);
        assert_eq!(s.start(Time(5 * MS), 1500), Time(5 * MS));
        s.finish(true);
        assert_eq!(s.start(Time(5 * MS), 1500), Time(5 * MS));
        // A fourth, 1504 bytes: 12 bytes left at 5 ms, the rest at 8 ms.
        s.finish(true);
        assert_eq!(s.start(Time(5 * MS), 1504), Time(8 * MS));
    }

    #[test]
    fn the_trace_loops_with_its_last_time_as_its_period() {
        // Period 10 ms, opportunities at 0, 4 and 10 ms of each loop: the
        // 10 ms line and the next loop's 0 ms line both fall at 10, 20, ...
        let mut s = shaper("0\n4\n10");
        // t = 5 ms: a 4000-byte frame takes the 10 ms line, the next loop's
        // first line (also 10 ms) and its 4 ms line: 14 ms.
        assert_eq!(s.start(Time(5 * MS), 4000), Time(14 * MS));
        s.finish(false);
        // t = 25 ms (loop 2, 5 ms in): the next is loop 2's 10 ms line, at 30 ms.
        assert_eq!(s.start(Time(25 * MS), 100), Time(30 * MS));
        s.finish(false);
        // t = 1,000,001 ms: loop 100,000, past its 0 ms line: its 4 ms line.
        assert_eq!(s.start(Time(1_000_001 * MS), 100), Time(1_000_004 * MS));
    }

    #[test]
    fn an_idle_period_wastes_its_opportunities() {
        // One opportunity per ms for 10 ms, looping.
        let mut s = shaper("1\n2\n3\n4\n5\n6\n7\n8\n9\n10");
        // t = 0: a 3008-byte frame uses the 1 and 2 ms opportunities.
        assert_eq!(s.start(Time::ZERO, 3008), Time(2 * MS));
        s.finish(false);
        // Idle until 6.5 ms: the 3 to 6 ms opportunities pass unused; a
        // frame then cannot have them (no credit is saved): it takes the
        // 7 and 8 ms ones.
        assert_eq!(s.start(Time(6 * MS + MS / 2), 3008), Time(8 * MS));
    }

    #[test]
    fn a_traced_link_direction_releases_frames_at_opportunities_then_delays_them() {
        use crate::error::ErrorModel;
        use crate::mac::point_to_point::LinkDir;
        use crate::mac::test_support::{plain_dir, queued_link, send_back_to_back};
        // Opportunities at 1, 2, 3, 4 ms (looping), 5 ms of propagation;
        // three 1000-byte frames queued at t = 0.
        let trace = Arc::new(RateTrace::parse("1\n2\n3\n4").unwrap());
        let p = plain_dir(trace.mean_rate_bps(), 5 * MS);
        let ab = LinkDir::new(p, ErrorModel::none()).with_rate_trace(Some(TraceShaper::new(trace)));
        let (mut link, mut pool) = queued_link(ab, p, &[1000, 1000, 1000]);
        // The first leaves at 1 ms (504 bytes left over); the second takes
        // those and 496 of the 2 ms opportunity; the third fits in the
        // 1008 left: it leaves at 2 ms too. Each arrives 5 ms later.
        let times = send_back_to_back(&mut link, &mut pool, 3);
        assert_eq!(times, vec![(MS, 6 * MS), (2 * MS, 7 * MS), (2 * MS, 7 * MS)]);
        for (uid, &(_, arrive)) in times.iter().enumerate() {
            let a = link.take_arrival(Time(arrive), 3, 0, &mut pool);
            assert_eq!(pool.take(a.pkt).uid, uid as u64);
        }
        // Idle since 2 ms: a frame offered at 2.5 ms takes the 3 ms opportunity.
        let w = crate::queue::tests::data(&mut pool, 0, 9, 100);
        let s = link.start_at_once(Time(2 * MS + MS / 2), 0, w, &pool).expect("idle");
        assert_eq!(s.done, Time(3 * MS));
    }

    proptest::proptest! {
        /// Under a backlog from `start`, frame k ends at the opportunity
        /// that carries the k-th frame's last byte when the opportunities
        /// after `start` are filled back to back, whatever the trace (gaps
        /// between lines, repeated lines, its loop) and the frame sizes.
        #[test]
        fn a_backlog_fills_every_opportunity_in_order(
            gaps in proptest::collection::vec(0u64..5, 1..40),
            sizes in proptest::collection::vec(1u32..5000, 1..200),
            start_us in 0u64..100_000,
        ) {
            let mut times = Vec::new();
            let mut t = 0;
            for g in &gaps {
                t += g;
                times.push(t);
            }
            // The last time must be positive.
            if t == 0 {
                times.push(1);
            }
            let trace = Arc::new(RateTrace::from_ms(times).unwrap());
            let mut s = TraceShaper::new(trace.clone());
            let start = Time(start_us * 1_000);
            let before = trace.opportunities_until(start);
            let (mut now, mut bytes) = (start, 0u64);
            for (k, &size) in sizes.iter().enumerate() {
                let done = s.start(now, size);
                proptest::prop_assert!(done >= now);
                bytes += u64::from(size);
                // The opportunity that carries byte `bytes`: the
                // ceil(bytes / 1504)-th after `start`.
                let nth = bytes.div_ceil(u64::from(OPPORTUNITY_BYTES));
                // `done` is that opportunity's time: it has occurred by
                // `done`, and not a nanosecond before.
                let g = before + nth;
                proptest::prop_assert!(trace.opportunities_until(done) >= g, "frame {}", k);
                proptest::prop_assert!(trace.opportunities_until(Time(done.ns() - 1)) < g, "frame {}", k);
                s.finish(true);
                now = done;
            }
        }
    }

    #[test]
    fn a_frame_on_an_idle_direction_cannot_use_an_opportunity_at_its_own_instant() {
        let mut s = shaper("2\n4");
        assert_eq!(s.start(Time(2 * MS), 10), Time(4 * MS), "the 2 ms opportunity is past");
        s.finish(false);
        // Exactly one loop later, the same.
        assert_eq!(s.start(Time(6 * MS), 10), Time(8 * MS));
    }
}
