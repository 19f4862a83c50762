//! What a run reports: the measures of seed 000 Sec. IV-A (throughput at the
//! receiver, wired and wireless goodput, retransmissions, coarse timeouts),
//! per flow and per link direction.
//!
//! Goodput of a link direction (seed 000: "the ratio of useful data to the
//! data actually transmitted"): payload bytes crossing that direction for the
//! first time, over all payload bytes put on it. A source retransmission of a
//! segment lost further on crosses the wired link again and lowers its
//! goodput; a local retransmission lowers only the wireless link's.

use serde::Serialize;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowSummary {
    pub name: String,
    pub mss_bytes: u32,
    /// In-order bytes handed to the receiving application.
    pub bytes_delivered: u64,
    /// `bytes_delivered` × 8 / `transfer_time_s`, in bit/s.
    pub throughput_bps: f64,
    /// Start to last byte delivered (bulk), or the duration (timed), in s.
    pub transfer_time_s: f64,
    pub retransmits: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    /// True when a bulk transfer delivered every byte, or a timed one ran its course.
    pub completed: bool,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkSummary {
    pub name: String,
    /// "from->to" by node names.
    pub direction: String,
    /// Useful payload bytes / payload bytes sent; null if no data crossed.
    pub goodput: Option<f64>,
    pub drops_error: u64,
    pub drops_queue: u64,
    pub packets_sent: u64,
    pub bytes_sent: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunSummary {
    pub seed: u64,
    pub scenario: String,
    /// Simulated time when the run ended, in s.
    pub sim_time_s: f64,
    /// Events processed by the scheduler.
    pub events: u64,
    pub flows: Vec<FlowSummary>,
    pub links: Vec<LinkSummary>,
}

/// Byte ranges of one flow that have crossed one link direction, kept as
/// sorted disjoint intervals. In a bulk transfer they collapse to one or two
/// ranges, so an insert is usually an extension of the last one.
#[derive(Clone, Debug, Default)]
pub struct CoverSet {
    ranges: Vec<(u64, u64)>,
}

impl CoverSet {
    /// Add [start, end); returns how many of its bytes were not yet covered.
    pub fn insert(&mut self, start: u64, end: u64) -> u64 {
        if start >= end {
            return 0;
        }
        // Fast path: at or beyond the end of the last range.
        if let Some(last) = self.ranges.last_mut() {
            if start >= last.0 && start <= last.1 {
                let new = end.saturating_sub(last.1);
                last.1 = last.1.max(end);
                return new;
            }
        }
        let i = self.ranges.partition_point(|r| r.1 < start);
        let mut j = i;
        let (mut s, mut e) = (start, end);
        let mut covered = 0;
        while j < self.ranges.len() && self.ranges[j].0 <= e {
            let (rs, re) = self.ranges[j];
            covered += re.min(end).saturating_sub(rs.max(start));
            s = s.min(rs);
            e = e.max(re);
            j += 1;
        }
        self.ranges.splice(i..j, std::iter::once((s, e)));
        (end - start) - covered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cover_set_counts_new_bytes_once() {
        let mut c = CoverSet::default();
        assert_eq!(c.insert(0, 100), 100);
        assert_eq!(c.insert(100, 200), 100);
        assert_eq!(c.insert(50, 150), 0);
        assert_eq!(c.insert(300, 400), 100);
        assert_eq!(c.insert(150, 350), 100);
        assert_eq!(c.insert(0, 400), 0);
        assert_eq!(c.ranges, vec![(0, 400)]);
    }
}
