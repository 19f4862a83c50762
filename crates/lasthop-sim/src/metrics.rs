//! What a run reports: the measures of seed 000 Sec. IV-A (throughput at the
//! receiver, wired and wireless goodput, retransmissions, coarse timeouts),
//! per flow and per link direction, and those of seed 001 Secs. 3.2, 4.2 and
//! 7.1 (the normalized bandwidth ratio k, throughput over the interval when
//! all transfers are active, Jain's fairness index, the time-averaged
//! congestion window).
//!
//! Goodput of a link direction (seed 000: "the ratio of useful data to the
//! data actually transmitted"): payload bytes crossing that direction for the
//! first time, over all payload bytes put on it. A source retransmission of a
//! segment lost further on crosses the wired link again and lowers its
//! goodput; a local retransmission lowers only the wireless link's.

use lasthop_core::Time;
use serde::Serialize;
use std::sync::Arc;

/// A name every run of a scenario reports (a flow's, a link's, a link
/// direction's "a->b"): made once when the scenario loads and shared by
/// count, so that a run of thousands of links does not format and allocate
/// each name again (issue 9). Reads, compares and serializes as a string.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(Arc<str>);

impl std::ops::Deref for Label {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}
impl AsRef<str> for Label {
    fn as_ref(&self) -> &str {
        &self.0
    }
}
impl From<&str> for Label {
    fn from(s: &str) -> Label {
        Label(s.into())
    }
}
impl From<String> for Label {
    fn from(s: String) -> Label {
        Label(s.into())
    }
}
impl std::fmt::Debug for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}
impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}
impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}
impl PartialEq<String> for Label {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}
impl Serialize for Label {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowSummary {
    pub name: Label,
    pub mss_bytes: u32,
    /// In-order bytes handed to the receiving application.
    pub bytes_delivered: u64,
    /// `bytes_delivered` × 8 / `transfer_time_s`, in bit/s.
    pub throughput_bps: f64,
    /// Start to last byte delivered (bulk), or the duration (timed), in s.
    pub transfer_time_s: f64,
    pub retransmits: u64,
    pub timeouts: u64,
    /// Timeouts whose segment had an earlier transmission still on the path
    /// (queued, or retried by a link layer) that later reached the receiver:
    /// seed 004 Fig. 13's spurious timeouts (yun-004.md Sec. 4.1), counted
    /// by an exact oracle ([`crate::spurious`]). 0 when none.
    pub spurious_timeouts: u64,
    pub fast_retransmits: u64,
    /// Retransmissions on ELN-marked duplicate acks (window left alone).
    pub eln_retransmits: u64,
    /// Segments retransmitted by snoop-family agents (at the base station,
    /// or at an uplink's sending station), apart from the source's
    /// `retransmits` (seed 000 Sec. IV-B counts losses "retransmitted by
    /// both the source and the base station").
    pub local_retransmits: u64,
    /// Duplicate acks absorbed by a TCP-aware snoop agent.
    pub dupacks_suppressed: u64,
    /// Segments retransmitted both by a snoop-family agent and by the
    /// source, each counted once (seed 000 Sec. IV-B: "about 90% of the lost
    /// packets are retransmitted by both the source and the base station");
    /// absent when the flow has no such agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_retransmits: Option<u64>,
    /// Duplicate acks that reached the source.
    pub dupacks_at_source: u64,
    /// Acks made by ACK reconstructors (seed 001 Sec. 6.4) on the flow's
    /// ack path; absent when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acks_reconstructed: Option<u64>,
    /// NACKs the base station sent the mobile sender (scheme `snoop-nack`);
    /// absent for other schemes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nacks: Option<NackSummary>,
    /// True when a bulk transfer delivered every byte, or a timed one ran its course.
    pub completed: bool,
    /// When the flow started in this run, in s (drawn per seed when the
    /// scenario gives `start_max_s`).
    pub start_s: f64,
    /// The normalized bandwidth ratio of seed 001 Sec. 4.2 on this flow's
    /// paths: k = (C_fwd / C_rev) / (S_data / S_ack), with C_fwd and C_rev
    /// the slowest link directions of its data and ack paths, S_data a
    /// full-sized segment and S_ack a pure ack as it crosses the reverse
    /// bottleneck (6 bytes where header compression applies). More than one
    /// ack per k segments saturates the reverse bottleneck first.
    pub k: f64,
    /// The sender's congestion window averaged over the time the flow ran,
    /// in segments (seed 001 Table T2's "average cwnd").
    pub mean_cwnd_segments: f64,
    /// Its time-weighted standard deviation, in segments (Sec. 7.1, Fig. F8:
    /// how much the window fluctuates).
    pub cwnd_std_segments: f64,
    /// Mean of the sender's round-trip samples, in ms (seed 001 Table T2's
    /// "average RTT"; from timestamp echoes on every new ack when the flow
    /// has timestamps, else from its timed segments); absent with none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_rtt_ms: Option<f64>,
    /// Standard deviation of the same samples, in ms (seed 001 Sec. 5: the
    /// RTT's variability under latency asymmetry); absent with none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rtt_std_ms: Option<f64>,
    /// Bytes delivered × 8 / length of the interval in which every flow of
    /// the run was active (seed 001 Sec. 7.1: two transfers are measured
    /// "over the time both are active"), in bit/s; absent with one flow or
    /// when the flows never overlapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlap_throughput_bps: Option<f64>,
    /// Split flows only (schemes `split`, `split-smart`): the base station's
    /// relay and its wireless connection. The fields above are then the
    /// source's (the wired connection) and the mobile host's application's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<SplitSummary>,
    /// Flows with a handshake only (`tcp.handshake`): when the connection
    /// opened, became established and closed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connection: Option<ConnectionSummary>,
    /// Background sources only (`pareto`): datagrams sent and received, and
    /// bursts begun. `bytes_delivered` counts the datagrams' bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub datagrams: Option<DatagramSummary>,
    /// Senders with an LL-ELSN response only (`tcp.ll_elsn`, seed 004).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ll_elsn: Option<LlElsnSummary>,
    /// Flows whose base station reports a bad link (schemes `ebsn` and
    /// `ecn-bs`, seed 002 Sec. 5.2) only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bad_state: Option<BadStateSummary>,
}

/// What a base station's bad-state notices did (seed 002 Sec. 5.2).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BadStateSummary {
    /// EBSNs the base station sent, and those that reached the source
    /// (each restarted its retransmission timer).
    pub ebsns_sent: u64,
    pub ebsns_received: u64,
    /// Acks the base station marked with ECN-Echo (ECN-BS), and the
    /// source's window cuts for ECN-Echo.
    pub acks_marked: u64,
    pub ecn_reductions: u64,
}

/// What a sender made of link-layer loss notifications (seed 004 Secs. 3-4).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LlElsnSummary {
    pub ersns_received: u64,
    pub elns_received: u64,
    /// Segments resent at once on an ELN, without a window cut.
    pub eln_retransmits: u64,
    /// Retransmission timeouts held off because the link layer was still
    /// retrying the segment.
    pub deferred_timeouts: u64,
    /// Disconnections declared by ELN filtering.
    pub disconnections: u64,
    /// The notices the link layers sent about this flow's segments (seed
    /// 004 Sec. 3.1): ERSNs and ELNs raised (downlink: ack-format packets
    /// from the access point; uplink: upcalls to the station's own TCP),
    /// and the bytes they put on the wire (their IP size, the flow's
    /// `ack_bytes`; 0 for an upcall). Beside them the IP bytes of the data
    /// segments the sender sent (retransmissions included), so that the
    /// overhead of Sec. 3.2, Eqs. (2)-(4), is measured:
    /// R/r = (ersn_bytes_sent + eln_bytes_sent) / data_bytes_sent.
    pub ersns_sent: u64,
    pub elns_sent: u64,
    pub ersn_bytes_sent: u64,
    pub eln_bytes_sent: u64,
    pub data_bytes_sent: u64,
    /// ELN delay (Table 1; yun-004.md A27): per ELN that reached the
    /// sender, the time from the link layer's discard to the sender acting
    /// on it, in ms: downlink the access point-to-sender one-way delay of a
    /// notice (T_wrd: propagation, serialization, queueing), uplink 0.
    /// Mean, least and most; absent when no ELN arrived.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eln_delay_ms_mean: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eln_delay_ms_min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eln_delay_ms_max: Option<f64>,
}

/// One connection's LL-ELSN notices as the world counts them (see
/// [`LlElsnSummary`]): touched only on notices, and for the data bytes
/// once per segment in runs with an LL-ELSN medium.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoticeCounters {
    pub ersns_sent: u64,
    pub elns_sent: u64,
    pub ersn_bytes_sent: u64,
    pub eln_bytes_sent: u64,
    pub data_bytes_sent: u64,
    /// EBSNs sent (seed 002 Sec. 5.2).
    pub ebsns_sent: u64,
    /// ELNs that reached the sender, and their delays' sum, least and most, in ns.
    pub elns_arrived: u64,
    pub eln_delay_sum_ns: u64,
    pub eln_delay_min_ns: u64,
    pub eln_delay_max_ns: u64,
}

impl NoticeCounters {
    /// The link layer raised a notice of `kind` that puts `bytes` on the wire.
    pub fn on_sent(&mut self, kind: lasthop_core::LlNotice, bytes: u32) {
        let bytes = u64::from(bytes);
        match kind {
            lasthop_core::LlNotice::Ersn => {
                (self.ersns_sent, self.ersn_bytes_sent) = (self.ersns_sent + 1, self.ersn_bytes_sent + bytes)
            }
            lasthop_core::LlNotice::Eln => {
                (self.elns_sent, self.eln_bytes_sent) = (self.elns_sent + 1, self.eln_bytes_sent + bytes)
            }
            lasthop_core::LlNotice::Ebsn => self.ebsns_sent += 1,
            lasthop_core::LlNotice::None => {}
        }
    }

    /// An ELN reached the sender `delay_ns` after its discard.
    pub fn on_eln_arrived(&mut self, delay_ns: u64) {
        self.eln_delay_min_ns = if self.elns_arrived == 0 { delay_ns } else { self.eln_delay_min_ns.min(delay_ns) };
        self.elns_arrived += 1;
        self.eln_delay_sum_ns += delay_ns;
        self.eln_delay_max_ns = self.eln_delay_max_ns.max(delay_ns);
    }

    /// (mean, least, most) ELN delay in ms; `None` with no ELN arrived.
    pub fn eln_delay_ms(&self) -> Option<(f64, f64, f64)> {
        let ms = |ns: u64| ns as f64 / 1e6;
        (self.elns_arrived > 0).then(|| {
            let mean = self.eln_delay_sum_ns as f64 / self.elns_arrived as f64 / 1e6;
            (mean, ms(self.eln_delay_min_ns), ms(self.eln_delay_max_ns))
        })
    }
}

/// A background source's datagrams ([`crate::traffic`]).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DatagramSummary {
    pub sent: u64,
    pub received: u64,
    pub bursts: u64,
}

/// A connection's start-up and close (flows with `tcp.handshake`; see
/// `lasthop_tcp::handshake`), in seconds of simulated time. The flow's
/// `transfer_time_s` runs from its start (the first SYN) to the last byte
/// reaching the receiving application, so it includes the handshake.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ConnectionSummary {
    /// The first SYN left the sender (the flow's start).
    pub syn_sent_s: f64,
    /// The SYN-ACK reached the sender (ESTABLISHED); absent if it never did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub established_s: Option<f64>,
    /// The last byte reached the receiving application.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_byte_delivered_s: Option<f64>,
    /// The ack of the last byte and the FIN riding it reached the sender.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_byte_acked_s: Option<f64>,
    /// The transaction's completion time, from the first SYN to the ack of
    /// the last byte (seed 001 Sec. 7.3; ns-2's agents finish when the last
    /// segment is acked), in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_time_s: Option<f64>,
    /// SYN retransmissions (each after a timeout; lost SYNs or SYN-ACKs).
    pub syn_retransmits: u32,
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
    /// With scheme `mtcp` over SRP these four are SRP's: its
    /// retransmissions (on a SACK or a timeout), its timeouts, its
    /// retransmissions on a SACK, and the SACKs (acks naming a missing
    /// packet) that reached the base station.
    pub wireless_retransmits: u64,
    pub wireless_timeouts: u64,
    pub wireless_fast_retransmits: u64,
    /// Duplicate acks that reached the base station's sender.
    pub wireless_dupacks: u64,
    /// M-TCP only: how often the supervisor host's low-bandwidth rule
    /// closed the source's window (`lasthop_tcp::mtcp`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_chokes: Option<u32>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkSummary {
    pub name: Label,
    /// "from->to" by node names.
    pub direction: Label,
    /// Useful payload bytes / payload bytes sent; null if no data crossed.
    pub goodput: Option<f64>,
    pub drops_error: u64,
    pub drops_queue: u64,
    /// Links with scheduled outages only: packets lost to them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drops_outage: Option<u64>,
    pub packets_sent: u64,
    pub bytes_sent: u64,
    /// Directions with a `queue` table only: its discipline's measures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue: Option<QueueSummary>,
}

/// What the queue discipline of a link direction saw (seed 001 S7: the
/// reverse channel's marks, filtered acks and occupancy).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct QueueSummary {
    /// Packets RED, CoDel, PIE or FQ-CoDel marked CE.
    pub marks: u64,
    /// Packets RED chose for a mark that were not ECN-capable, dropped; and
    /// CoDel's, PIE's and FQ-CoDel's drops (or those not ECN-capable).
    pub drops_early: u64,
    /// Pure acks purged by ACK filtering.
    pub drops_filtered: u64,
    /// Packets waiting (the one on the medium excluded), averaged over the
    /// run's time.
    pub mean_queue_packets: f64,
    /// The share of that occupancy that is pure acks: time-averaged acks
    /// waiting over time-averaged packets waiting; null if nothing waited.
    pub ack_share: Option<f64>,
    /// Medium time of the direction's frames over the run's time, 0..1.
    pub utilisation: f64,
    /// RED's average queue size at the end, in packets (RED only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub red_average_packets: Option<f64>,
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
    /// Jain's fairness index over the flows' `overlap_throughput_bps` (seed
    /// 001 Sec. 3.2): (Σx)² / (n·Σx²), from 1/n (one flow takes all) to 1
    /// (equal shares); absent with one flow or no overlap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jain_index: Option<f64>,
    pub links: Vec<LinkSummary>,
    /// The published cell this run reproduces, with the measured values
    /// beside it; null when the scenario has none for its parameters.
    pub published: Option<PublishedComparison>,
    /// Shared media (packet radio), with each radio's counters; absent
    /// when the scenario has none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub media: Vec<MediumSummary>,
    /// Each handoff of the mobile hosts (seed 002), in time order per
    /// mobile host; absent when the scenario has none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub handoffs: Vec<HandoffSummary>,
    /// Each scheduled outage (`[[outages]]`) that began before the run
    /// ended, in each entry's time order; absent when there is none. With
    /// `handoffs`, the run's mobility timeline (`lasthop.plots.add_timeline`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub outages: Vec<OutageSummary>,
    /// Each `wap` workload's page fetches (seed 002 Sec. 5.3,
    /// `crate::traffic::wap`); absent when the scenario has none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wap: Vec<WapSummary>,
}

/// A `wap` workload's page fetches, WAP's or HTTP's.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WapSummary {
    /// The flow's name.
    pub flow: String,
    /// `wap` (WSP/WTP class 2 to the gateway) or `http` (TCP end to end).
    pub protocol: String,
    /// Pages fetched, aborted, and asked for but not ended by the run's end.
    pub fetched: u64,
    pub aborted: u64,
    pub unfinished: u64,
    /// Mean time from asking for a page to having it, fetched pages only, in s.
    pub mean_fetch_s: Option<f64>,
    /// Mean frames on the bearer (both directions) per page, every page
    /// that started.
    pub mean_bearer_frames: Option<f64>,
    /// WSP Connects and Resumes the handset made; sessions the gateway held
    /// at the end (WAP only: 0 for HTTP).
    pub connects: u64,
    pub resumes: u64,
    pub gateway_sessions: u64,
    /// Hold-on Acks the gateway sent (a late result, WTP's timer A).
    pub hold_on_acks: u64,
    pub pages: Vec<PageSummary>,
}

/// One page of a `wap` workload.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PageSummary {
    /// When the handset asked for it (WAP: its Invoke; HTTP: its SYN), in s.
    pub start_s: f64,
    /// When it ended, in s; absent if it had not by the run's end.
    pub end_s: Option<f64>,
    /// `fetched`, `aborted`, or absent.
    pub outcome: Option<String>,
    /// Frames on the bearer, both ways, from its start to the next page's.
    pub bearer_frames: u64,
}

/// One scheduled outage of a link: both its directions down.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct OutageSummary {
    pub link: String,
    /// When it went down, in s.
    pub start_s: f64,
    /// When it came up, in s (after the run's end if it was still down).
    pub end_s: f64,
}

/// One handoff of a mobile host between base stations.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HandoffSummary {
    pub mobile: String,
    /// When the handoff began, in s (the old station's link goes down
    /// then, or `overlap_s` later).
    pub start_s: f64,
    /// When the new station's link came up and the routes switched, in s
    /// (registration by messages: when the reply arrived; the attachment's
    /// time if a later handoff overtook it).
    pub complete_s: f64,
    pub from: String,
    pub to: String,
    /// Packets queued on the old station's link, both ways, when it went
    /// down: lost (`flush`), kept (`hold`) or sent into the void
    /// (`blackhole`).
    pub queued: u64,
    /// Packets lost to the old link's going down (cause `outage`) until the
    /// mobile host's next handoff.
    pub lost: u64,
    /// Packets dropped at the old station after the switch (cause
    /// `handoff`).
    pub stranded: u64,
    /// I-TCP's state transfer to the new station (split flows to the
    /// mobile host): the bytes buffered that it moved, and when it was
    /// installed there, in s (missing: not installed before the run
    /// ended, or overtaken by the next handoff).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_installed_s: Option<f64>,
    /// With supervisor hosts over the grid (M-TCP): whether the two
    /// stations are under different ones (an SH-level handoff).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supervisor_change: Option<bool>,
    /// Snoop's multicast handoff: the segments the new station sent from
    /// its buffer at the completion (what the mobile host had not received
    /// of its copies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replayed: Option<u64>,
}

/// Snoop's NACKs for a mobile sender's data, by what sent them.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct NackSummary {
    /// Sent when `tcp.nack_threshold_packets` segments came past a hole.
    pub threshold: u64,
    /// Sent when no new segment came for `tcp.nack_idle_rtts` round trips.
    pub idle: u64,
}

/// A shared medium and its radios.
#[derive(Clone, Serialize, PartialEq)]
pub struct MediumSummary {
    pub name: String,
    /// A packet-radio medium's radios (seed 001).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub radios: Vec<RadioSummary>,
    /// An 802.11 DCF medium's stations (seed 004).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stations: Vec<DcfSummary>,
    /// An RLP circuit's two stations (seed 002 Sec. 5.1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub circuit: Vec<CircuitSummary>,
}

// Debug by hand: `circuit` shown only when present, so that the summaries
// of the media before it print as they did (the digest's bytes).
impl std::fmt::Debug for MediumSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("MediumSummary");
        d.field("name", &self.name).field("radios", &self.radios).field("stations", &self.stations);
        if !self.circuit.is_empty() {
            d.field("circuit", &self.circuit);
        }
        d.finish()
    }
}

/// What one end of an RLP circuit did, as the sender of its direction
/// (`frames_corrupted`: frames it received corrupted).
#[derive(Clone, Serialize, PartialEq)]
pub struct CircuitSummary {
    /// The node the station is on.
    pub node: String,
    pub packets_enqueued: u64,
    pub frames_sent: u64,
    pub frame_retransmissions: u64,
    pub status_frames: u64,
    pub frames_corrupted: u64,
    pub packets_delivered: u64,
    pub drops_queue: u64,
    pub drops_filtered: u64,
    pub drops_retry_limit: u64,
    /// AIRMAIL's own counters (an AIRMAIL circuit only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub airmail: Option<AirmailSummary>,
}

// Debug by hand: `airmail` shown only when present, so that RLP's
// summaries print as they did (the digest's bytes).
impl std::fmt::Debug for CircuitSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("CircuitSummary");
        d.field("node", &self.node)
            .field("packets_enqueued", &self.packets_enqueued)
            .field("frames_sent", &self.frames_sent)
            .field("frame_retransmissions", &self.frame_retransmissions)
            .field("status_frames", &self.status_frames)
            .field("frames_corrupted", &self.frames_corrupted)
            .field("packets_delivered", &self.packets_delivered)
            .field("drops_queue", &self.drops_queue)
            .field("drops_filtered", &self.drops_filtered)
            .field("drops_retry_limit", &self.drops_retry_limit);
        if let Some(a) = &self.airmail {
            d.field("airmail", a);
        }
        d.finish()
    }
}

/// AIRMAIL's own counters at one end of its circuit (seed 002 Sec. 5.1):
/// its receiver's statuses by cause, its sender's polls, its FEC.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AirmailSummary {
    /// Statuses its receiver decided on at the end of a block of `N`
    /// frames (the mobile).
    pub status_block: u64,
    /// ... on a frame with the poll bit (the mobile).
    pub status_poll: u64,
    /// ... on its timer (the base station's period, the mobile's gap timer).
    pub status_timer: u64,
    /// Frames its sender sent with the poll bit (the base station).
    pub polls: u64,
    /// Retransmissions by the poll timer (the base station).
    pub poll_resends: u64,
    /// Times its FEC level (or the packet code's `m`) changed.
    pub fec_changes: u64,
    /// Its FEC level at the end: none, byte or packet.
    pub fec_level: String,
    /// Parity frames it sent (packet level).
    pub parity_frames: u64,
    /// Its frames the channel hit that the byte code repaired.
    pub fec_byte_repaired: u64,
    /// Its lost data frames a block's parity recovered.
    pub fec_block_recovered: u64,
}

/// What one 802.11 station did (seed 004): its attempts and their fates,
/// and where its time went.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DcfSummary {
    /// The node the station is on.
    pub node: String,
    /// Frames handed to it (refused ones included).
    pub frames_enqueued: u64,
    /// Transmission attempts of data frames (retries included).
    pub attempts: u64,
    /// Attempts after a failed one.
    pub retries: u64,
    /// Attempts lost to another station's frame in the same slot.
    pub collisions: u64,
    /// Attempts the error model spoiled.
    pub corrupted: u64,
    pub delivered_up: u64,
    /// Retransmitted data frames it received again and did not hand up: its
    /// peer retried a frame it already had, the MAC ack having been lost.
    pub duplicates_suppressed: u64,
    pub backoff_s: f64,
    pub airtime_s: f64,
    pub drops_queue: u64,
    pub drops_filtered: u64,
    pub drops_retry_limit: u64,
}

/// What one packet radio did (seed 001 Sec. 5: where the latency
/// asymmetry's time goes: turnarounds, RTS/CTS polling, backoff).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RadioSummary {
    /// The node the radio is on.
    pub node: String,
    /// Frames handed to it (data and TCP acks; refused ones included).
    pub frames_enqueued: u64,
    /// Data frames put on the air, link retransmissions included.
    pub data_frames_sent: u64,
    pub link_retransmissions: u64,
    /// Frames handed up (to the node's IP), first copies only.
    pub frames_delivered_up: u64,
    pub rts_sent: u64,
    pub cts_sent: u64,
    /// Polls that went unanswered (peer busy or not listening).
    pub poll_timeouts: u64,
    /// RTSs it heard while busy with another station, left unanswered.
    pub rts_ignored_busy: u64,
    pub link_acks_sent: u64,
    pub link_acks_piggybacked: u64,
    /// Time changing mode (both ways), in s.
    pub turnaround_s: f64,
    /// Time from each RTS to its CTS or poll timeout, in s.
    pub rts_cts_s: f64,
    /// Time backing off, in s.
    pub backoff_s: f64,
    /// Time on the air, in s.
    pub airtime_s: f64,
    pub drops_queue: u64,
    pub drops_filtered: u64,
    pub drops_retry_limit: u64,
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

/// Jain's fairness index of `x` (R. Jain, D. Chiu, W. Hawe, DEC-TR-301,
/// 1984): (Σx)² / (n·Σx²); 1 when all are equal (all zero included: nobody
/// is favoured), 1/n when one takes everything. `None` for no values.
pub fn jain_index(x: &[f64]) -> Option<f64> {
    if x.is_empty() {
        return None;
    }
    let sum: f64 = x.iter().sum();
    let sum_sq: f64 = x.iter().map(|v| v * v).sum();
    Some(if sum_sq == 0.0 { 1.0 } else { sum * sum / (x.len() as f64 * sum_sq) })
}

/// A congestion window integrated over time: the average is the area under
/// the step function cwnd(t) from its first observation. One cache line
/// (every ack updates it; unaligned, it straddled two).
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
pub struct CwndAverage {
    /// Σ cwnd · dt, in byte·ns (u128: 2^64 byte-ns is only 18 GB·s).
    area: u128,
    /// Σ cwnd² · dt, in byte²·ns (f64: for the spread only).
    area_sq: f64,
    /// First observation, and the latest change.
    first: Option<Time>,
    since: Time,
    last_bytes: u64,
}

impl CwndAverage {
    /// The window is `cwnd_bytes` from `now` on (the first call starts the clock).
    #[inline]
    pub fn on_change(&mut self, now: Time, cwnd_bytes: u64) {
        if self.first.is_some() {
            let dt = now.since(self.since);
            self.area += u128::from(self.last_bytes) * u128::from(dt);
            self.area_sq += (self.last_bytes as f64).powi(2) * dt as f64;
        } else {
            self.first = Some(now);
        }
        self.since = now;
        self.last_bytes = cwnd_bytes;
    }

    /// Average window over [first observation, `until`], in bytes (0 if
    /// never observed; the last value if no time passed).
    pub fn mean_bytes(&self, until: Time) -> f64 {
        self.moments(until).0
    }

    /// Time-weighted standard deviation of the window over the same span,
    /// in bytes (seed 001 Sec. 7.1 compares how much windows "fluctuate").
    pub fn std_bytes(&self, until: Time) -> f64 {
        let (mean, mean_sq) = self.moments(until);
        (mean_sq - mean * mean).max(0.0).sqrt()
    }

    /// (E[cwnd], E[cwnd²]) over [first observation, `until`].
    fn moments(&self, until: Time) -> (f64, f64) {
        let Some(first) = self.first else { return (0.0, 0.0) };
        let tail = until.max(self.since).since(self.since);
        let last = self.last_bytes as f64;
        let area = self.area + u128::from(self.last_bytes) * u128::from(tail);
        let area_sq = self.area_sq + last * last * tail as f64;
        let span = until.max(self.since).since(first);
        if span == 0 {
            (last, last * last)
        } else {
            (area as f64 / span as f64, area_sq / span as f64)
        }
    }
}

/// The interval in which every flow is active, and what each delivered in it.
#[derive(Clone, Debug)]
pub struct Overlap {
    /// When the last flow starts.
    last_start: Time,
    flows: usize,
    started: usize,
    from: Option<(Time, Vec<u64>)>,
    until: Option<(Time, Vec<u64>)>,
}

impl Overlap {
    pub fn new(starts: &[Time]) -> Overlap {
        Overlap {
            last_start: starts.iter().copied().max().unwrap_or(Time::ZERO),
            flows: starts.len(),
            started: 0,
            from: None,
            until: None,
        }
    }

    /// Flow `_flow` started at `now`; `delivered` gives every flow's count,
    /// asked for only when the last flow starts (asking at every start
    /// made a run's cost grow with the square of its flows).
    pub fn on_start(&mut self, now: Time, _flow: usize, delivered: impl FnOnce() -> Vec<u64>) {
        self.started += 1;
        if self.flows > 1 && self.started == self.flows && self.from.is_none() {
            debug_assert_eq!(now, self.last_start);
            self.from = Some((now, delivered()));
        }
    }

    /// True while the overlap has begun and not yet ended.
    pub fn wants_end(&self) -> bool {
        self.from.is_some() && self.until.is_none()
    }

    /// The first flow to finish or stop ends the overlap.
    pub fn on_end(&mut self, now: Time, delivered: &[u64]) {
        self.until = Some((now, delivered.to_vec()));
    }

    /// Per flow, bytes·8 / overlap length in bit/s; `end` closes an overlap
    /// still open when the run ended. `None` with one flow or no overlap.
    pub fn throughputs_bps(&self, end: Time, delivered_at_end: &[u64]) -> Option<Vec<f64>> {
        let (t0, d0) = self.from.as_ref()?;
        let (t1, d1) = match &self.until {
            Some((t, d)) => (*t, d.as_slice()),
            None => (end, delivered_at_end),
        };
        let secs = t1.since(*t0) as f64 / 1e9;
        (secs > 0.0).then(|| d0.iter().zip(d1).map(|(a, b)| (b - a) as f64 * 8.0 / secs).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_index_spans_one_over_n_to_one() {
        assert_eq!(jain_index(&[]), None);
        assert_eq!(jain_index(&[3.0, 3.0, 3.0]), Some(1.0));
        assert_eq!(jain_index(&[5.0, 0.0, 0.0, 0.0]), Some(0.25));
        let j = jain_index(&[1.0, 2.0]).unwrap();
        assert!((j - 9.0 / 10.0).abs() < 1e-12, "{j}");
    }

    #[test]
    fn cwnd_average_weights_each_value_by_its_duration() {
        // t0: 1000 B for 1 s; t1: 3000 B for 3 s -> (1000 + 9000) / 4 = 2500.
        let mut c = CwndAverage::default();
        c.on_change(Time(1_000_000_000), 1000);
        c.on_change(Time(2_000_000_000), 3000);
        c.on_change(Time(3_000_000_000), 3000);
        assert_eq!(c.mean_bytes(Time(5_000_000_000)), 2500.0);
        // E[x²] = (1e6·1 + 9e6·3) / 4 = 7e6; variance 7e6 - 2500² = 750,000.
        assert!((c.std_bytes(Time(5_000_000_000)) - 750_000f64.sqrt()).abs() < 1e-6);
    }

    #[test]
    fn overlap_runs_from_the_last_start_to_the_first_end() {
        let mut o = Overlap::new(&[Time(0), Time(5_000_000_000)]);
        o.on_start(Time(0), 0, || unreachable!("the counts are read at the last start only"));
        assert!(!o.wants_end(), "one flow alone is no overlap");
        o.on_start(Time(5_000_000_000), 1, || vec![1000, 0]);
        assert!(o.wants_end());
        o.on_end(Time(7_000_000_000), &[3000, 500]);
        assert!(!o.wants_end());
        // 2000 B and 500 B over 2 s.
        assert_eq!(o.throughputs_bps(Time(9_000_000_000), &[0, 0]), Some(vec![8000.0, 2000.0]));
        let single = Overlap::new(&[Time(0)]);
        assert_eq!(single.throughputs_bps(Time(1), &[5]), None);
    }
}
