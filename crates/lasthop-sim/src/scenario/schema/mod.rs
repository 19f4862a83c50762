//! The scenario file format: these serde types are its single source of
//! truth; `lasthop schema` prints the JSON Schema generated from them.
//!
//! Units are in field names (`_bps`, `_ms`, `_s`, `_bytes`). Unknown fields are
//! errors, so a typo never silently falls back to a default.

// The doc comments here are also the JSON Schema's descriptions (schemars), and their
// [T], [R], [N] are the readings' source marks, not links: rustdoc is told so rather
// than the schema's text being escaped.
#![allow(rustdoc::broken_intra_doc_links)]

use lasthop_net::error::ErrorModelConfig;
use lasthop_net::queue::QueueConfig;
use lasthop_tcp::Variant;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod media;
mod tcp;
pub use media::*;
pub use tcp::*;

/// A lasthop scenario: a topology, its links' models, and the flows that run over it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Short name, printed with results.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Where the scenario comes from (paper, section, figure).
    #[serde(default)]
    pub source: String,
    /// Named parameters with their defaults. Any string value elsewhere that
    /// is exactly `"${name}"` is replaced by the parameter's value; `--set
    /// name=value` overrides it.
    #[serde(default)]
    pub params: BTreeMap<String, serde_json::Value>,
    /// Per-parameter cases: `[cases.P."V"]` holds a table merged into the
    /// scenario when parameter P has value V (e.g. the error-model settings
    /// of each bit-error rate of a published table). Tables merge key by
    /// key; a table whose keys are indices patches a list's elements
    /// (`[cases.P."V".flows.0.tcp]`), and indices just past its end append
    /// to it (`[cases.P."V".flows.1]` in a scenario of one flow).
    #[serde(default)]
    pub cases: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
    /// Simulated time after which the run stops even if flows are unfinished, in seconds.
    #[serde(default = "default_stop_s")]
    pub stop_s: f64,
    /// Event budget: a run that needs more events than this fails with an
    /// error instead of producing results (a guard for long sweeps against a
    /// scenario that runs away). Unlimited when absent.
    #[serde(default)]
    pub max_events: Option<u64>,
    /// A named topology template; the alternative to `nodes` and `links`.
    #[serde(default)]
    pub topology: Option<Template>,
    /// Nodes of the general form.
    #[serde(default)]
    pub nodes: Vec<NodeSpec>,
    /// Links of the general form.
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    /// Shared media (seed 001 Sec. 5's packet radio): radios on nodes, and
    /// the hops between them. A template may add one.
    #[serde(default)]
    pub media: Vec<MediumSpec>,
    /// The transfers.
    pub flows: Vec<FlowSpec>,
    /// Published figures this scenario reproduces, printed beside the
    /// measured ones.
    pub published: Option<PublishedSpec>,
    /// Mechanisms broken on purpose, for the mutation tests of the
    /// reproductions (issue 28: a paper's claims that all still hold with a
    /// mechanism broken check nothing about it). Empty in every real run.
    #[serde(default)]
    pub mutations: Vec<Mutation>,
    /// Bounds on the scenario's size, raised here by a scenario that means to
    /// be that large (see [`LimitsSpec`]).
    #[serde(default)]
    pub limits: LimitsSpec,
    /// Scheduled link outages (seed 002: disconnections of the mobile host;
    /// elaarag-002.md Secs. 2.2-2.3).
    #[serde(default)]
    pub outages: Vec<OutageSpec>,
    /// Scheduled changes of a link's rate (seed 002: a wireless rate that
    /// drops and recovers without a disconnection; elaarag-002.md Sec. 2.2).
    #[serde(default)]
    pub rate_changes: Vec<RateChangeSpec>,
    /// Scheduled changes of a link's error model (seed 002: a wireless
    /// channel that worsens and recovers; elaarag-002.md Sec. 2.2).
    #[serde(default)]
    pub error_changes: Vec<ErrorChangeSpec>,
    /// Mobile hosts moving between base stations (seed 002; elaarag-002.md
    /// Sec. 2.2, primitives 1, 3 and 4).
    #[serde(default)]
    pub mobility: Vec<MobilitySpec>,
}

/// A mobile host and the base stations it moves between (elaarag-002.md
/// Sec. 2.2): one point-to-point link joins it to each, and it is attached
/// to one at a time. A handoff at `t` from station `a` to `b` takes `a`'s
/// link down at `t` (with `semantics`) and brings `b`'s up at `t + L`,
/// when the routes of the mobile's flows switch to `b` and its TCP is told
/// the handoff is complete, with `L` = the beacon wait (uniform in [0,
/// `beacon_period_s`], when beacons are modelled) + the registration's
/// round trip from `b` to `anchor` on the wired path (propagation) +
/// `latency_s`. Packets reaching `a` after the switch are dropped (cause
/// `handoff`). The schedule: listed `handoffs` (or a `trace` of them), or periodic (`every_s`
/// from `start_s`), or exponential residences (`residence_mean_s`, from
/// each attachment to the next handoff); the next station is the next in
/// `stations`' order (listed handoffs name it), or, with `grid`, a
/// neighbouring cell at random (a random walk), or with exponential
/// residences and no grid, any other station at random.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MobilitySpec {
    /// The mobile host, by node name: every link it has joins it to one of
    /// its `stations`.
    pub mobile: String,
    /// Its base stations, by node name (at least two), each joined to it by
    /// exactly one point-to-point link.
    pub stations: Vec<String>,
    /// The station it is attached to at the start (default: the first).
    pub initial: Option<String>,
    /// What becomes of the packets on the old station's link (default
    /// `flush`: a hard handoff).
    #[serde(default)]
    pub semantics: LinkDownSpec,
    /// The fixed part of the handoff latency, in seconds (default 0).
    #[serde(default)]
    pub latency_s: f64,
    /// The period of the new station's beacons, in seconds: the mobile
    /// host hears one after a wait uniform in [0, period] (default: no
    /// beacons, no wait).
    pub beacon_period_s: Option<f64>,
    /// Where registration goes (the home agent or supervisor host), by node
    /// name (default: the first node on the wired path from the new station
    /// towards the old one that is not one of the stations; the old station
    /// if every node there is one).
    pub anchor: Option<String>,
    /// Handoffs at listed times.
    #[serde(default)]
    pub handoffs: Vec<HandoffSpec>,
    /// Handoffs from a trace (elaarag-002.md Sec. 2.2, "a trace file"): one
    /// line per handoff, its time in seconds and the new station's name,
    /// separated by white space, in time order; blank lines and `#`
    /// comments are ignored. A recorded or generated trace is pasted in as
    /// a multi-line string (`"""..."""`), not named as a file, so that the
    /// scenario stays whole and a stored run's hash covers its schedule.
    pub trace: Option<String>,
    /// The first of periodic handoffs, in seconds (default `every_s`).
    pub start_s: Option<f64>,
    /// The period of periodic handoffs, start to start, in seconds.
    pub every_s: Option<f64>,
    /// The mean residence in a cell, in seconds, drawn from an exponential
    /// distribution (from the attachment to the next handoff).
    pub residence_mean_s: Option<f64>,
    /// The stations as cells of a grid, `[columns, rows]`, row by row: each
    /// handoff goes to one of the cell's neighbours (up, down, left, right)
    /// at random.
    pub grid: Option<[u32; 2]>,
    /// M-TCP's supervisor hosts over the grid (Brown and Singh 1997;
    /// elaarag-002.md Sec. 1.12): each controls a block of `[columns, rows]`
    /// cells of `grid`, which they tile. A handoff between cells of two
    /// supervisor hosts is an SH-level one, the only kind where M-TCP moves
    /// its connections' state (each handoff's `supervisor_change`).
    pub supervisor_cells: Option<[u32; 2]>,
    /// I-TCP's handoff (scheme `split` to this mobile host): the state
    /// transfer's fixed part, in seconds, once the mobile host is attached
    /// to the new station (default 0.265: Bakre and Badrinath 1995's
    /// handoff with empty buffers, elaarag-002.md Sec. 1.11). With the
    /// bytes' part it is the packing at the old station; the state then
    /// travels to the new one as messages on the wired links.
    pub state_transfer_s: Option<f64>,
    /// I-TCP's handoff: the rate at which the buffered bytes move with the
    /// state, in bytes per second (default 28127: the same source's 1430 ms
    /// with 32 KB buffers, a straight line through its two points).
    pub state_transfer_bytes_per_s: Option<f64>,
    /// Make-before-break (elaarag-002.md Sec. 2.2, primitive 3): the old
    /// station's link goes down this long after the handoff begins, in
    /// seconds, while the mobile host still hears it; never after the next
    /// handoff begins (default 0: it goes down as the handoff begins).
    pub overlap_s: Option<f64>,
    /// What snoop on a flow to this mobile host does at a handoff (the
    /// snoop 1995 paper, Secs. 4-6; elaarag-002.md Sec. 1.7): `hard` (the
    /// default: each station has its own cache, the new one's starts
    /// empty) or `multicast` (the stations not attached buffer the flow's
    /// last packets; the new primary sends what the mobile host has not
    /// received from them at the handoff's completion).
    #[serde(default)]
    pub snoop_handoff: SnoopHandoffSpec,
    /// `multicast`: the packets each buffering station keeps (default 12,
    /// the paper's implementation).
    pub buffer_packets: Option<u32>,
    /// How the handoff's registration (elaarag-002.md Sec. 2.2, primitive
    /// 4: the new station's round trip to the anchor) is made: `delay`
    /// (the default: the wired path's propagation there and back) or
    /// `message` (a Mobile IP request and reply on the wired links, 52 and
    /// 48 bytes, RFC 5944 Sec. 3.3 and 3.4 over UDP: they queue, and are
    /// sent again if lost; the handoff completes when the reply arrives).
    #[serde(default)]
    pub registration: RegistrationSpec,
    /// What the stations' link layer does at a handoff, when the stations'
    /// links are AIRMAIL circuits (seed 002 Sec. 5.1; elaarag-002.md Sec.
    /// 1.6): `keep` (the default: each station's circuit keeps what its
    /// link layer holds, sent if the mobile host comes back; the new
    /// station's starts as it was) or `transfer` (AIRMAIL's handoff with
    /// state transfer: once the mobile host is attached, the old station
    /// sends its link-layer state, the window with its packets and the
    /// receive state, to the new one as messages on the wired links, paced
    /// and resent as I-TCP's (`state_transfer_s` and
    /// `state_transfer_bytes_per_s` its packing); when the last arrives
    /// the new station carries on from it and the mobile host's
    /// connections move there).
    #[serde(default)]
    pub link_handoff: LinkHandoffSpec,
}

/// What a station's link layer does at a handoff
/// ([`MobilitySpec::link_handoff`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LinkHandoffSpec {
    /// Each station's circuit keeps its own state.
    #[default]
    Keep,
    /// AIRMAIL's state transfer to the new station.
    Transfer,
}

/// How a handoff's registration is made ([`MobilitySpec::registration`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RegistrationSpec {
    /// The round trip's propagation, added to the handoff's latency.
    #[default]
    Delay,
    /// A request and a reply on the wired links.
    Message,
}

/// Snoop's handoff between base stations ([`MobilitySpec::snoop_handoff`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SnoopHandoffSpec {
    /// Each station's snoop has its own cache; the new station's is empty.
    #[default]
    Hard,
    /// The snoop paper's handoff: multicast to buffering stations, which
    /// keep the last packets; the new primary sends those the mobile host
    /// has not received.
    Multicast,
}

/// One listed handoff.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandoffSpec {
    /// When it begins (the old station's link goes down), in seconds.
    pub at_s: f64,
    /// The new station, by node name.
    pub to: String,
}

/// A link's scheduled outages: both directions go down at each start and
/// come up `down_s` later. The starts are listed (`at_s`) or periodic
/// (`start_s`, then every `every_s`, `count` times or until the run's
/// stop). Outages of one link never overlap.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutageSpec {
    /// The link, by name (a point-to-point link, not a medium's hop).
    pub link: String,
    /// What becomes of the packets (default `flush`).
    #[serde(default)]
    pub semantics: LinkDownSpec,
    /// How long each outage lasts, in seconds.
    pub down_s: f64,
    /// When the outages start, in seconds.
    #[serde(default)]
    pub at_s: Vec<f64>,
    /// The first of periodic outages, in seconds (with `every_s`).
    pub start_s: Option<f64>,
    /// The period of periodic outages, start to start, in seconds (more
    /// than `down_s`).
    pub every_s: Option<f64>,
    /// How many periodic outages (default: until the run's stop).
    pub count: Option<u32>,
}

/// A scheduled change of a point-to-point link's rate (elaarag-002.md
/// Sec. 2.2, "rate changes"; MTCPSH-7's tenfold drop): from `at_s`, each
/// frame that starts on the link's direction takes its time at
/// `bandwidth_bps` (a frame being sent keeps the time it started with);
/// propagation, overheads and the queue are unchanged. A change back is
/// another entry.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateChangeSpec {
    /// The link, by name (a point-to-point link, not a medium's hop).
    pub link: String,
    /// Which of its directions (default: both).
    #[serde(default)]
    pub direction: RateDirection,
    /// When, in seconds.
    pub at_s: f64,
    /// The new rate, in bits per second.
    pub bandwidth_bps: f64,
}

/// A scheduled change of a point-to-point link's error model
/// (elaarag-002.md Sec. 2.2, "error-model changes"): from `at_s`, each frame
/// that starts on the link's direction draws its fate from `error`, a fresh
/// model with its own stream (`link:NAME:DIR:error:change:K`, K the entry's
/// index), its state process starting at `at_s`; a frame being sent keeps
/// the fate it drew. A two-state model in packet times (`unit =
/// "packet_times"`) takes its packet time at the link's configured rate, as
/// the link's own model does. A change back is another entry.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorChangeSpec {
    /// The link, by name (a point-to-point link, not a medium's hop).
    pub link: String,
    /// Which of its directions (default: both).
    #[serde(default)]
    pub direction: RateDirection,
    /// When, in seconds.
    pub at_s: f64,
    /// The new error model (as a link's `error`; `{ model = "none" }` for
    /// none).
    pub error: ErrorModelConfig,
}

/// The directions a rate or error-model change applies to: `ab` from the
/// link's `a` end to its `b` end, `ba` back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RateDirection {
    #[default]
    Both,
    Ab,
    Ba,
}

/// Freeze-TCP's prediction of an outage (elaarag-002.md Sec. 1.15: "about
/// one RTT before" [K]; the predictor is exact, no error).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FreezeSpec {
    /// How long before each outage the receiver is told of it, in seconds.
    pub warning_s: f64,
}

/// What a link going down does to the packets on it (elaarag-002.md Sec.
/// 2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LinkDownSpec {
    /// Queued packets and those on the medium or propagating are lost, and
    /// so is every packet offered while down (ns-2's `rtmodel-at ... down`:
    /// the queue reset, the link's packets dropped; seed 002's Fig. 2).
    #[default]
    Flush,
    /// Packets on the medium or propagating are lost; the queue is kept and
    /// the transmitter paused until the link comes up (a base station that
    /// buffers for the mobile host).
    Hold,
    /// Nothing is lost at the start; the queue keeps draining and every
    /// frame whose transmission ends while down is lost (a 100 %-loss error
    /// model at transmission).
    Blackhole,
}

/// Bounds on what a scenario may ask for. The defaults keep a slip such as
/// `copies = 1000000` from taking gigabytes before anything says so; a
/// scenario that means it raises them (`limits.flows = 500000`, or `--set
/// limits.flows=500000`), up to a hard bound.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitsSpec {
    /// Most flows, copies included. Default 100000: a flow takes about 5.7 KB
    /// from loading to the printed summary (measured: 590 MB for 100000
    /// copies of a LAN flow, 5.7 GB for 1000000), so the default bounds a
    /// run at about 0.6 GB. At most 1048576.
    pub flows: Option<u32>,
}

/// One mechanism broken on purpose (see [`ScenarioFile::mutations`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mutation {
    /// Every queue's ACK filter (seed 001 Sec. 6.2) is off.
    AckFilterOff,
    /// Senders count ERSNs (seed 004 Sec. 3.1) and ignore them.
    ErsnIgnored,
    /// Snoop-family agents (seed 000) decide their local retransmissions
    /// and never send one.
    SnoopNeverRetransmits,
    /// Senders ignore ELN: seed 000's ELN-marked duplicate acks are plain
    /// duplicates, seed 004's link-layer ELNs are counted and ignored.
    ElnIgnored,
    /// The SMART echo (seed 000 Sec. II) is ignored by SMART senders and
    /// by LL-SMART agents (which fall back to duplicate acks).
    SmartEchoIgnored,
}

/// Published figures, one cell per value of a parameter (e.g. per `scheme`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedSpec {
    /// Where the figures come from (paper, table).
    pub source: String,
    /// The parameter whose value selects the cell.
    pub key: String,
    /// The flow whose throughput the cells give.
    pub flow: String,
    /// The link whose a→b goodput is the paper's wireless goodput.
    pub wireless_link: Option<String>,
    /// The link whose a→b goodput is the paper's wired goodput.
    pub wired_link: Option<String>,
    /// Cells by parameter value.
    pub cells: BTreeMap<String, PublishedCell>,
}

/// One published cell: throughput (wireless goodput, wired goodput).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedCell {
    /// Throughput at the receiver, in Mb/s.
    pub throughput_mbps: f64,
    /// Wireless goodput, in percent.
    pub wireless_goodput_pct: Option<f64>,
    /// Wired goodput, in percent.
    pub wired_goodput_pct: Option<f64>,
}

fn default_stop_s() -> f64 {
    3600.0
}

/// Topology templates for the papers' shapes.
// Parsed once per scenario and expanded at once: the size of the largest
// variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "template", rename_all = "snake_case", deny_unknown_fields)]
pub enum Template {
    /// Fixed host `fh` — base station `bs` — mobile host `mh`, with links
    /// `wired` (fh–bs) and `wireless` (bs–mh) (seed 000 Fig. 2, seed 002 Fig. 1).
    WirelessLastHop { wired: LinkSpec, wireless: LinkSpec },
    /// `src` — `mid` — `dst` with links `first` and `second`.
    TwoLinkPath { first: LinkSpec, second: LinkSpec },
    /// The wireless-cable shape of seed 001 (Sec. 4.1, the simulated topology
    /// of Sec. 7.1): `server` — `r1` — `r2` — `client`, with links `wired`
    /// (server–r1), `cable` (r1–r2: its `ab` direction is the fast forward
    /// channel, its `ba` direction the slow reverse channel, each with its
    /// own rate, delay and buffer) and `lan` (r2–client).
    WirelessCable { wired: LinkSpec, cable: LinkSpec, lan: LinkSpec },
    /// Seed 001 Sec. 5 and Fig. F4 (the Metricom Ricochet network): a fixed
    /// host `fh`, a wired link `wired` to the gateway `gw`, then a chain of
    /// `hops` packet-radio hops `gw` — `pt1` — ... — `mh` (pole-top relays
    /// `pt1`..`pt{hops-1}`, the mobile host `mh`), on the medium `radio`
    /// whose settings are the `radio` table.
    RadioChain {
        /// Wireless hops between the gateway and the mobile host (at least 1).
        hops: u32,
        wired: LinkSpec,
        #[serde(default)]
        radio: RadioSpec,
    },
    /// Seed 004's cell (Fig. 5): wired senders `s1`..`s{n}` (links
    /// `wired{i}`) to router `r`, link `backbone` to access point `ap`, and
    /// the 802.11 medium `wlan` from `ap` to stations `d1`..`d{n}`; with
    /// `background`, a Pareto source `bg` and its sink `bgsink` (see
    /// [`WlanCellSpec`]).
    WlanCell(WlanCellSpec),
}

/// Seed 004's cell (Fig. 5, as read in yun-004.md Sec. 4.1: the image
/// is lost): wired senders `s1`..`s{n}` each on a link `wired{i}` to
/// the router `r`, a link `backbone` from `r` to the access point `ap`,
/// and the 802.11 medium `wlan` (mac `dcf`, stations `ap`, `d1`..`d{n}`,
/// hops `ap`-`d{i}`, named `wlan/ap-d{i}`), one receiving station per
/// sender. With `background`, a Pareto source's nodes: `bg` on link
/// `bg_access` to `r`, and its sink `bgsink` on link `bg_egress` behind
/// `ap` on the wired side, so its traffic shares `r`->`ap` with the TCP
/// flows (Sec. 5.2: "along the TCP path").
// Its own struct, not a struct variant: serde reads a template through a
// buffer that loses the field path, and a struct can be read again alone
// for the path (scenario::load).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WlanCellSpec {
    /// Senders and stations, n (at least 1).
    pub stations: u32,
    /// Every sender's link to the router, and the background links. [T]
    /// 10 Mb/s full duplex, d_off, DropTail 50.
    pub wired: LinkSpec,
    /// Router to access point. Absent: the same as `wired` ([R] Fig. 5
    /// read as two wired hops alike, yun-004.md Sec. 4.1: "wired: full
    /// duplex 10 Mb/s, delay d_off per link").
    #[serde(default)]
    pub backbone: Option<LinkSpec>,
    /// The medium's 802.11 DCF settings.
    #[serde(default)]
    pub dcf: DcfSpec,
    /// The medium's frame errors, each hop direction its own state and
    /// stream (see [`MediumSpec::error`]).
    #[serde(default)]
    pub error: ErrorModelConfig,
    /// The access point's LL-ELSN agent (see [`MediumSpec::ll_elsn`]).
    #[serde(default)]
    pub ll_elsn: bool,
    /// EBSN from the access point (see [`MediumSpec::ebsn`]).
    #[serde(default)]
    pub ebsn: bool,
    /// Add the background source's nodes and links.
    #[serde(default)]
    pub background: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
}

/// Whether the two directions of a link have a medium each or share one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DuplexSpec {
    #[default]
    Full,
    /// One frame at a time for both directions (a shared radio channel).
    Half,
}

/// A link between nodes `a` and `b`. Its settings apply to both directions;
/// `ab` and `ba` override them for one direction.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Link name (general form only; templates name their links).
    pub name: Option<String>,
    /// First end node (general form only).
    pub a: Option<String>,
    /// Second end node (general form only).
    pub b: Option<String>,
    /// Raw bit rate of each direction, in bit/s. Required unless the
    /// direction's rate is a trace (`rate_trace_ms`).
    #[serde(default)]
    pub bandwidth_bps: Option<f64>,
    /// One-way propagation delay, in milliseconds.
    #[serde(default)]
    pub delay_ms: f64,
    #[serde(default)]
    pub duplex: DuplexSpec,
    /// Queue limit in packets waiting, whatever their size (default 50 when
    /// no limit is given: ns-2's `Queue set limit_ 50`, 4.4BSD's
    /// `IFQ_MAXLEN`). The packet on the medium is not counted.
    pub queue_packets: Option<u32>,
    /// Queue limit in bytes waiting.
    pub queue_bytes: Option<u64>,
    /// Queue discipline of both directions (seed 001 Secs. 6.1-6.5): a
    /// table such as `{ discipline = "acks_first", overflow = "random",
    /// ack_filter = true, red = { min_packets = 2, max_packets = 6 } }`.
    /// Absent: a FIFO that drops the arriving packet when full, with no
    /// queue statistics. Present (even empty): the composed queue, whose
    /// statistics the run summary reports under the link's `queue`. The
    /// limit is `queue_packets` / `queue_bytes`.
    pub queue: Option<QueueConfig>,
    /// Extra bytes per frame on the medium (link-layer header and trailer).
    #[serde(default)]
    pub frame_overhead_bytes: u32,
    /// Extra medium time per frame, in microseconds (preamble, gaps, contention).
    #[serde(default)]
    pub frame_overhead_us: f64,
    /// Mean of an exponentially distributed extra one-way delay per frame, in
    /// milliseconds (queueing in the hops the link stands for); frames never
    /// overtake each other. 0 = none.
    #[serde(default)]
    pub jitter_ms: f64,
    /// Error model of both directions.
    #[serde(default)]
    pub error: ErrorModelConfig,
    /// TCP/IP header compression on this link (seed 001 Secs. 4.2, 7.1, 9):
    /// what a pure ack occupies on it.
    #[serde(default)]
    pub header_compression: HeaderCompression,
    /// ACK reconstruction (seed 001 Sec. 6.4) at the far end of each
    /// direction that some connection's acks cross (absent: none). A
    /// direction's own setting replaces it.
    #[serde(default)]
    pub ack_reconstruction: Option<AckReconsSpec>,
    /// The testbed's link emulator (seed 001 Sec. 8.1) in both directions
    /// instead of a wire: e.g. `emulation = { tick_ms = 10 }`. A direction's
    /// own setting replaces it.
    #[serde(default)]
    pub emulation: Option<EmulationSpec>,
    /// Both directions' rate as a recorded trace of delivery opportunities
    /// instead of `bandwidth_bps` (Mahimahi's `mm-link` format, Netravali
    /// et al., USENIX ATC 2015; see `lasthop_net::rate_trace`): the times
    /// in ms of the trace file's lines, in order, each an opportunity to
    /// send 1504 bytes; the trace loops with its last time as its period,
    /// and its time 0 is the run's. A frame's transmission ends at the
    /// opportunity that sends its last byte (a larger frame spans several;
    /// what a frame leaves of one goes to the frame waiting behind it;
    /// opportunities with nothing waiting are lost); the delay applies
    /// after. The trace is written in the scenario, not named as a file,
    /// so that the scenario stays whole (a stored run's hash covers it, an
    /// embedded scenario runs anywhere): `scripts/mm_trace.py` turns a
    /// trace file into this list. The link's reported bandwidth is the
    /// trace's mean rate. Full-duplex links, without frame overheads, rate
    /// changes or an emulator. A direction's own `bandwidth_bps` or
    /// `rate_trace_ms` replaces it.
    pub rate_trace_ms: Option<Vec<u64>>,
    /// Overrides for the a→b direction.
    pub ab: Option<DirSpec>,
    /// Overrides for the b→a direction.
    pub ba: Option<DirSpec>,
}

/// Per-direction overrides of a link's settings.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DirSpec {
    pub bandwidth_bps: Option<f64>,
    pub delay_ms: Option<f64>,
    pub queue_packets: Option<u32>,
    pub queue_bytes: Option<u64>,
    /// Queue discipline of this direction; replaces the link's whole
    /// `queue` table.
    pub queue: Option<QueueConfig>,
    pub frame_overhead_bytes: Option<u32>,
    pub frame_overhead_us: Option<f64>,
    pub jitter_ms: Option<f64>,
    pub error: Option<ErrorModelConfig>,
    pub header_compression: Option<HeaderCompression>,
    /// ACK reconstruction at this direction's far end, for every connection
    /// whose acks cross it.
    pub ack_reconstruction: Option<AckReconsSpec>,
    /// The shared medium that carries this direction (its two ends must be
    /// stations of it): its frames wait in the sending radio's queue and
    /// take the radio's rate, RTS/CTS and turnarounds instead of this
    /// link's (seed 001 Sec. 7.3: a wireless-cable forward channel with a
    /// packet-radio return).
    pub medium: Option<String>,
    /// The testbed's link emulator on this direction.
    pub emulation: Option<EmulationSpec>,
    /// This direction's rate as a trace of delivery opportunities (see the
    /// link's `rate_trace_ms`).
    pub rate_trace_ms: Option<Vec<u64>>,
}

/// The link emulator of seed 001's testbed (Sec. 8.1, Fig. F16; see
/// `lasthop_net::emulation`): a bandwidth-emulation queue (the direction's
/// queue and discipline; its head's transmission time is size / bandwidth)
/// then a FIFO delay-emulation queue adding `delay_ms`, both timers BSD
/// timeouts on the sending host's coarse kernel clock (whole ticks, up to a
/// tick early or late), whose phase is drawn per host and seed; over a
/// backlog the errors cancel. Full-duplex links only.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EmulationSpec {
    /// The kernel clock's tick, in ms (> 0): 10, BSD's hz = 100 [R: the
    /// seed lost the digits of "the granularity of the software clock,
    /// [10] ms"].
    #[serde(default = "default_kernel_tick_ms")]
    pub tick_ms: f64,
}

fn default_kernel_tick_ms() -> f64 {
    10.0
}

/// ACK reconstruction, AR (seed 001 Sec. 6.4): where acks come out of a
/// constrained link, one reconstructor per connection whose acks cross it
/// fills the gaps between consecutive acks with acks delta_a segments apart,
/// spaced in time, the real ack last (see `lasthop_agents::ack_recons`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AckReconsSpec {
    /// delta_a: acks further apart than this many segments get acks in
    /// between, this many segments apart (seed 001: "typically 2"). At least 1.
    #[serde(default = "default_delta_a")]
    pub delta_a_segments: u32,
    /// Gain of the moving average of the interval between real acks, in
    /// (0, 1] (ns-2.35 asym.tcl `alpha_`: 0.25).
    #[serde(default = "default_ar_gain")]
    pub gain: f64,
    /// Spacing of the acks: `paper` ((delta_a / Delta_a) · Delta_t),
    /// `ns2_adaptive` (Delta_t) or `ns2_sample` (the last interval over the
    /// number of steps).
    #[serde(default)]
    pub spacing: AckReconsSpacing,
}

/// How far apart reconstructed acks leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AckReconsSpacing {
    #[default]
    Paper,
    Ns2Adaptive,
    Ns2Sample,
}

fn default_delta_a() -> u32 {
    2
}
fn default_ar_gain() -> f64 {
    0.25
}

/// Header compression on a link direction, modelled as the size of a pure
/// ack on it (seed 001 Sec. 7.1: "ack size set to 40 bytes and 6 bytes
/// without and with header compression" [R: the digits are lost; ns-2's
/// `tcl/ex/asym` scripts use `ackSize 6`]). Data packets keep their size, as
/// in the paper's simulations. A compressed ack is restored to its full size
/// at the far end of the link (compression is hop by hop).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HeaderCompression {
    /// Every packet keeps its size.
    #[default]
    None,
    /// Van Jacobson compression (RFC 1144) as seed 001's testbed met it on
    /// SLIP and PPP (Sec. 9): a pure ack becomes 6 bytes, unless it carries
    /// a TCP option whose value changes from segment to segment (the
    /// timestamp option), which RFC 1144 sends uncompressed.
    Vj,
    /// The simulations' model (Sec. 7.1, ns-2's `ackSize 6`): every pure
    /// ack is 6 bytes, timestamps or not.
    Ideal,
}

/// Size of a compressed pure ack, in bytes (seed 001 Sec. 7.1 [R: ns-2's
/// `ackSize 6`]; RFC 1144 Sec. 3.2.3: a compressed ack is 3 to 6 bytes).
pub const COMPRESSED_ACK_BYTES: u32 = 6;

/// One TCP transfer from `from` to `to`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    pub name: String,
    /// Sending node. With `copies`, the token `{copy}` stands for each
    /// copy's 1-based number: `from = "s{copy}"`, `to = "d{copy}"` and
    /// `copies = 3` make three flows s1 -> d1, s2 -> d2, s3 -> d3 (named
    /// `name#0`, `name#1`, `name#2`).
    pub from: String,
    /// Receiving node (`{copy}` as in `from`).
    pub to: String,
    /// When the application starts writing, in seconds.
    #[serde(default)]
    pub start_s: f64,
    /// When given, the start is drawn for each seed uniformly in
    /// [`start_s`, `start_max_s`] (seed 001 Sec. 7.1: the second transfer
    /// "starts at a random time"; ns-2's `tcl/ex/asym` scripts draw it in
    /// U[5, 10] s), from the flow's own random stream.
    pub start_max_s: Option<f64>,
    /// Bytes to transfer (a bulk transfer); exclusive with `duration_s`.
    pub bytes: Option<u64>,
    /// How long an unbounded transfer runs, in seconds; exclusive with `bytes`.
    pub duration_s: Option<f64>,
    /// A scheme of the source documents by its paper name (e.g. `e2e`,
    /// `e2e-newreno`); it chooses the TCP variant.
    pub scheme: Option<String>,
    /// This many flows alike (at least 1; default 1), named `name#0`,
    /// `name#1`, ...; each draws its own start when `start_max_s` is given
    /// (seed 001 Sec. 7.2: "n connections starting at random times").
    #[serde(default = "default_copies")]
    pub copies: u32,
    /// The number `{copy}` takes in the first copy's `from` and `to` (at
    /// least 1; default 1): copies after it count on from there.
    #[serde(default = "default_copies")]
    pub first_copy: u32,
    /// Replace the last `copies` of this flow's copies by another scheme
    /// (seed 004 Sec. 5.3, Fig. 12's friendliness test: k of n Reno
    /// connections replaced by the variant). The other keys of the table
    /// are merged into this flow (e.g. `tcp = { variant = "sack" }`, or
    /// `scheme`) to make a flow `name` (default `<flow>-replaced`) that is
    /// appended to the list, keeps the same ends (`{copy}` counting on
    /// where this flow's copies stop) and has that many copies.
    pub replace: Option<ReplaceSpec>,
    /// Start when the named flow completes (its last byte delivered, or
    /// with a handshake its FIN acknowledged), `start_s` later; not with
    /// `start_max_s`. Copy i of a flow follows copy i of the named one
    /// when both have the same number of copies (seed 001 Sec. 7.3: a
    /// request's completion starts its replies, ns-2 webbench.tcl).
    pub start_after: Option<String>,
    #[serde(default)]
    pub tcp: TcpSpec,
    /// Not TCP: a Pareto on/off source of datagrams (ns-2's
    /// `Application/Traffic/Pareto`; background traffic of seed 004 Sec.
    /// 5.2), sending from its start until `duration_s` or the end of the
    /// run; its `tcp` table is not used, and it takes no `bytes` or
    /// `scheme`.
    pub pareto: Option<ParetoSpec>,
    /// Page fetches from the handset (`from`) through a WAP gateway to the
    /// server (`to`), or by HTTP over TCP end to end (seed 002 Sec. 5.3;
    /// [`crate::traffic::wap`]); its `tcp` table is the fetches' TCP, and
    /// it takes no `bytes`, `duration_s` or `scheme`.
    pub wap: Option<crate::traffic::wap::WapSpec>,
}

fn default_copies() -> u32 {
    1
}

/// A flow's `replace` table (see [`FlowSpec::replace`]); the loader turns
/// it into a flow of its own before the scenario is read.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ReplaceSpec {
    /// How many of the flow's copies the replacement takes (0 to `copies`).
    pub copies: u32,
    /// The replacement flow's name; default `<flow>-replaced`.
    pub name: Option<String>,
    /// The rest: keys of a flow (`tcp`, `scheme`, ...), merged into it.
    #[serde(flatten)]
    pub overrides: BTreeMap<String, serde_json::Value>,
}

/// A Pareto on/off source's settings; defaults are ns-2.35's
/// (tcl/lib/ns-default.tcl, `Application/Traffic/Pareto`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParetoSpec {
    /// Sending rate during a burst, in bits per second. [N] 64 kb/s.
    #[serde(default = "pareto_rate")]
    pub rate_bps: f64,
    /// Mean burst length, in ms. [N] 500.
    #[serde(default = "pareto_time")]
    pub burst_ms: f64,
    /// Mean idle time, in ms. [N] 500.
    #[serde(default = "pareto_time")]
    pub idle_ms: f64,
    /// Pareto shape, above 1. [N] 1.5.
    #[serde(default = "pareto_shape")]
    pub shape: f64,
    /// Datagram size on the wire, in bytes. [N] 210.
    #[serde(default = "pareto_packet")]
    pub packet_bytes: u32,
}

fn pareto_rate() -> f64 {
    64e3
}
fn pareto_time() -> f64 {
    500.0
}
fn pareto_shape() -> f64 {
    1.5
}
fn pareto_packet() -> u32 {
    210
}
