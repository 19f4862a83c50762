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
    /// Acks made by ACK reconstructors (seed 001 Sec. 6.4) on the flow's
    /// ack path; absent when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acks_reconstructed: Option<u64>,
    /// True when a bulk transfer delivered every byte, or a timed one ran its course.
    pub completed: bool,
    /// Split flows only (schemes `split`, `split-smart`): the base station's
    /// relay and its wireless connection. The fields above are then the
    /// source's (the wired connection) and the mobile host's application's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<SplitSummary>,
}

/// The two connections of a split flow (seed 000 Sec. IV-D, Table IV, Figs.
/// 10-11): the wired one is the flow's own sender (its `retransmits` and
/// `timeouts`); the wireless one, from the base station to the mobile host,
/// is summarised here. Its trace events (segments sent, acks, windows,
/// timeouts) carry flow id `wireless_flow_id` = number of flows + k for the
/// k-th split flow of the scenario (k from 0), so both connections' time
/// series sit in the existing trace tables.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SplitSummary {
    pub wireless_flow_id: u32,
    /// Bytes the wired connection delivered in order at the base station.
    pub bytes_at_base_station: u64,
    pub relay_buffer_bytes: u64,
    /// Most bytes the relay held (acked to the source, not yet by the mobile host).
    pub relay_max_occupancy_bytes: u64,
    pub wireless_retransmits: u64,
    pub wireless_timeouts: u64,
    pub wireless_fast_retransmits: u64,
    /// Duplicate acks that reached the base station's sender.
    pub wireless_dupacks: u64,
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
