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
    /// Retransmissions on ELN-marked duplicate acks (window left alone).
    pub eln_retransmits: u64,
    /// Segments retransmitted by base-station agents (snoop family), apart
    /// from the source's `retransmits` (seed 000 Sec. IV-B counts losses
    /// "retransmitted by both the source and the base station").
    pub local_retransmits: u64,
    /// Duplicate acks absorbed by a TCP-aware base station.
    pub dupacks_suppressed: u64,
    /// Duplicate acks that reached the source.
    pub dupacks_at_source: u64,
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
    /// The published cell this run reproduces, with the measured values
    /// beside it; null when the scenario has none for its parameters.
    pub published: Option<PublishedComparison>,
}

/// A published cell and this run's measure of the same quantities.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PublishedComparison {
    pub source: String,
    /// "param=value" that selected the cell.
    pub cell: String,
    pub throughput_mbps: f64,
    pub wireless_goodput_pct: Option<f64>,
    pub wired_goodput_pct: Option<f64>,
    pub measured_throughput_mbps: f64,
    pub measured_wireless_goodput_pct: Option<f64>,
    pub measured_wired_goodput_pct: Option<f64>,
    /// Measured over published throughput.
    pub ratio: f64,
}
