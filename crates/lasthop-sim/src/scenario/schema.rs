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

/// A shared medium: a radio on each of `stations`, and the hops between
/// them, each of which becomes a link named `<medium>/<a>-<b>` (no colon:
/// `--pcap LINK:DIRECTION` splits at one) whose two directions the
/// medium's MAC carries (its frames wait in the sending radio's queue, not
/// in a link queue).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MediumSpec {
    pub name: String,
    /// The nodes that have a radio on this medium.
    pub stations: Vec<String>,
    /// The pairs of stations joined by a hop (each reaches the other).
    /// Absent: a chain, each station to the next in `stations`. Empty: no
    /// hops of its own (link directions name the medium as theirs).
    #[serde(default)]
    pub hops: Option<Vec<[String; 2]>>,
    /// Which MAC the medium runs: `radio` (the packet radio of seed 001
    /// Sec. 5, settings in `radio`), `dcf` (IEEE 802.11b DCF, seed 004,
    /// settings in `dcf`), `rlp` (a circuit-mode point-to-point hop whose
    /// frames are carried with RLP, seed 002 Sec. 5.1, settings in `rlp`;
    /// exactly two stations and one hop) or `airmail` (the same circuit
    /// carrying AIRMAIL, seed 002 Sec. 5.1, settings in `airmail`; the
    /// first of `stations` is the base station).
    #[serde(default)]
    pub mac: MacKind,
    /// The packet radio's settings (seed 001 Sec. 5; every value the paper
    /// lost is ns-2's `Mac/Multihop` default).
    #[serde(default)]
    pub radio: RadioSpec,
    /// The 802.11 DCF's settings (seed 004 Sec. 5.1; ns-2's `Mac/802_11`
    /// defaults, 11 Mb/s data and acks).
    #[serde(default)]
    pub dcf: DcfSpec,
    /// The RLP circuit's settings (`mac = "rlp"`; seed 002 Sec. 5.1 as
    /// `elaarag-002.md` Sec. 1.5 reads it).
    #[serde(default)]
    pub rlp: RlpSpec,
    /// The AIRMAIL circuit's settings (`mac = "airmail"`; seed 002 Sec.
    /// 5.1 as `elaarag-002.md` Sec. 1.6 reads it).
    #[serde(default)]
    pub airmail: AirmailSpec,
    /// The access point's LL-ELSN agent (seed 004 Sec. 3.1): a station that
    /// retries a TCP segment for the first time sends its sender an ERSN,
    /// one that discards it an ELN (as 40-byte ack-format packets from a
    /// station that is not the sender's; to its own TCP directly, uplink).
    #[serde(default)]
    pub ll_elsn: bool,
    /// Explicit bad state notification (seed 002 Sec. 5.2; Bakshi,
    /// Krishna, Vaidya, Pradhan, ICDCS 1997): each failed link-level attempt
    /// at a TCP segment (no MAC ack) sends the segment's source an EBSN, on
    /// which it restarts its retransmission timer. Sent as LL-ELSN's notices
    /// are (a 40-byte ack-format packet; to its own TCP directly, uplink).
    /// `mac = "dcf"` only.
    #[serde(default)]
    pub ebsn: bool,
    /// Frame errors on the medium. 802.11: each direction of each hop with
    /// its own state and stream (a two-state Markov chain per station link,
    /// seed 004 Sec. 5.4), consulted once per transmission attempt of a
    /// data frame. Packet radio: each radio with its own, consulted for
    /// every frame it sends, control frames included. Absent: none.
    #[serde(default)]
    pub error: ErrorModelConfig,
    /// The stations whose frames `error` hits (802.11: the hop directions
    /// from them). Absent: every station's. E.g. `["bs"]` for errors on the
    /// downlink only.
    #[serde(default)]
    pub error_from: Option<Vec<String>>,
    /// A circuit (`mac = "rlp"` or `"airmail"`) only: the error model of
    /// the frames of the stations not in `error_from` (each its own state
    /// and stream), e.g. the uplink's own channel. Absent: none.
    #[serde(default)]
    pub error_others: ErrorModelConfig,
}

/// The MAC of a shared medium.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MacKind {
    #[default]
    Radio,
    Dcf,
    Rlp,
    Airmail,
}

/// A circuit-mode hop carried with RLP (see `lasthop_net::mac::circuit`
/// and `lasthop_net::arq::rlp`). Defaults: \[I\] the close reading's
/// (`elaarag-002.md` Sec. 1.5), lasthop's own where it is silent; the rate
/// is the primary's (Nanda, Ejzak, Doshi, JSAC 1994, whose abstract speaks
/// of the 9.6 kb/s TDMA data service).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RlpSpec {
    /// The circuit's rate per direction, in bit/s. 9600: the primary's
    /// abstract's 9.6 kb/s TDMA data service.
    #[serde(default = "rlp_bandwidth")]
    pub bandwidth_bps: f64,
    /// One-way propagation, in ms. \[I\] 0.
    #[serde(default)]
    pub delay_ms: f64,
    /// A frame on the wire, RLP's 4-byte header (\[I\]) included, in
    /// bytes; one frame per slot. \[I\] 64, the reading's default.
    #[serde(default = "rlp_frame_bytes")]
    pub frame_bytes: u32,
    /// `basic` (idle slots stay idle) or `enhanced` (idle slots carry
    /// preemptive retransmissions; partial status rides on data frames).
    /// \[I\] enhanced.
    #[serde(default)]
    pub form: RlpFormSpec,
    /// Frames in the sender's window, 1 to 64. \[I\] 64, the reading's.
    #[serde(default = "rlp_window")]
    pub window_frames: u32,
    /// Retransmissions of a frame before its packet is dropped. Absent:
    /// persistent (\[I\]).
    #[serde(default)]
    pub retry_limit: Option<u32>,
    /// `in_order` or `out_of_order` hand-up of frames to reassembly.
    /// \[I\] in_order (the reading: "in-order delivery of IP packets").
    #[serde(default)]
    pub delivery: RlpDeliverySpec,
    /// Slots between full status frames (at least 2). \[I\] 4.
    #[serde(default = "rlp_feedback")]
    pub feedback_period_slots: u32,
    /// Bitmap bits in a partial status on a data frame. \[I\] 8.
    #[serde(default = "rlp_partial")]
    pub partial_bits: u32,
    /// The stall timer, in ms. \[I\] 100.
    #[serde(default = "rlp_stall")]
    pub stall_ms: f64,
    /// Each station's queue limit, in packets. \[I\] 50.
    #[serde(default = "rlp_queue")]
    pub queue_packets: u32,
}

impl Default for RlpSpec {
    fn default() -> RlpSpec {
        RlpSpec {
            bandwidth_bps: rlp_bandwidth(),
            delay_ms: 0.0,
            frame_bytes: rlp_frame_bytes(),
            form: RlpFormSpec::default(),
            window_frames: rlp_window(),
            retry_limit: None,
            delivery: RlpDeliverySpec::default(),
            feedback_period_slots: rlp_feedback(),
            partial_bits: rlp_partial(),
            stall_ms: rlp_stall(),
            queue_packets: rlp_queue(),
        }
    }
}

// The circuit's and RLP's defaults are the MAC's own (one source of truth).
fn rlp_default() -> lasthop_net::mac::circuit::CircuitConfig {
    lasthop_net::mac::circuit::CircuitConfig::default()
}
fn rlp_bandwidth() -> f64 {
    rlp_default().bandwidth_bps as f64
}
fn rlp_frame_bytes() -> u32 {
    rlp_default().frame_bytes
}
fn rlp_window() -> u32 {
    rlp_default().rlp.window_frames
}
fn rlp_feedback() -> u32 {
    rlp_default().rlp.feedback_period_slots
}
fn rlp_partial() -> u32 {
    rlp_default().rlp.partial_bits
}
fn rlp_stall() -> f64 {
    rlp_default().rlp.stall_ns as f64 / 1e6
}
fn rlp_queue() -> u32 {
    rlp_default().queue_packets
}

/// A circuit-mode hop carried with AIRMAIL (see
/// `lasthop_net::mac::circuit` and `lasthop_net::arq::airmail`): the
/// circuit's fields as `RlpSpec`'s, AIRMAIL's own and its FEC's. Defaults
/// are the member's own (\[I\]: the primary's timers, window and codes were
/// not read) except where said.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AirmailSpec {
    /// The circuit's rate per direction, in bit/s. 9600, as `rlp`'s.
    #[serde(default = "rlp_bandwidth")]
    pub bandwidth_bps: f64,
    /// One-way propagation, in ms. \[I\] 0.
    #[serde(default)]
    pub delay_ms: f64,
    /// A frame on the wire, AIRMAIL's 4-byte header (\[I\]) and the byte
    /// code's parity included, in bytes; one frame per slot. \[I\] 64.
    #[serde(default = "rlp_frame_bytes")]
    pub frame_bytes: u32,
    /// Frames in a sender's window, 1 to 64. \[I\] 32.
    #[serde(default = "airmail_window")]
    pub window_frames: u32,
    /// `N`: the mobile answers a status every `N` frames received. \[I\] 8.
    #[serde(default = "airmail_block")]
    pub block_frames: u32,
    /// Slots between the base station's periodic status frames (at least
    /// 2). \[I\] 4, RLP's feedback period.
    #[serde(default = "rlp_feedback")]
    pub status_period_slots: u32,
    /// The base station's poll timer, in ms. \[I\] 60.
    #[serde(default = "airmail_poll")]
    pub poll_ms: f64,
    /// The mobile's receive-gap timer, in ms. \[I\] 40.
    #[serde(default = "airmail_gap")]
    pub gap_ms: f64,
    /// The FEC level: `adaptive`, `none`, `byte` or `packet` (see
    /// `lasthop_net::arq::airmail::fec`). \[A\] adaptive.
    #[serde(default = "airmail_fec")]
    pub fec: String,
    /// Byte errors the byte code corrects per frame (`2 t` parity bytes).
    /// \[K\] 8.
    #[serde(default = "airmail_byte_t")]
    pub byte_t: u32,
    /// Data frames per block of the packet code. \[K\] 16.
    #[serde(default = "airmail_block_k")]
    pub block_k: u32,
    /// The most parity frames per block. \[K\] 8.
    #[serde(default = "airmail_m_max")]
    pub m_max: u32,
    /// Frames the adaptation measures the error rate over. \[I\] 256.
    #[serde(default = "airmail_fer_window")]
    pub fer_window: u32,
    /// Raw frame error rate from which the byte code is used. \[I\] 0.06.
    #[serde(default = "airmail_theta1")]
    pub theta1: f64,
    /// Raw frame error rate above which the packet code is used. \[I\] 0.5.
    #[serde(default = "airmail_theta2")]
    pub theta2: f64,
    /// Each station's queue limit, in packets. \[I\] 50.
    #[serde(default = "rlp_queue")]
    pub queue_packets: u32,
}

impl Default for AirmailSpec {
    fn default() -> AirmailSpec {
        AirmailSpec {
            bandwidth_bps: rlp_bandwidth(),
            delay_ms: 0.0,
            frame_bytes: rlp_frame_bytes(),
            window_frames: airmail_window(),
            block_frames: airmail_block(),
            status_period_slots: rlp_feedback(),
            poll_ms: airmail_poll(),
            gap_ms: airmail_gap(),
            fec: airmail_fec(),
            byte_t: airmail_byte_t(),
            block_k: airmail_block_k(),
            m_max: airmail_m_max(),
            fer_window: airmail_fer_window(),
            theta1: airmail_theta1(),
            theta2: airmail_theta2(),
            queue_packets: rlp_queue(),
        }
    }
}

// AIRMAIL's defaults are the member's own.
fn airmail_default() -> lasthop_net::arq::airmail::AirmailConfig {
    lasthop_net::arq::airmail::AirmailConfig::default()
}
fn airmail_window() -> u32 {
    airmail_default().window_frames
}
fn airmail_block() -> u32 {
    airmail_default().block_frames
}
fn airmail_poll() -> f64 {
    airmail_default().poll_ns as f64 / 1e6
}
fn airmail_gap() -> f64 {
    airmail_default().gap_ns as f64 / 1e6
}
fn airmail_fec() -> String {
    airmail_default().fec.to_string()
}
fn airmail_byte_t() -> u32 {
    airmail_default().fec_cfg.byte_t
}
fn airmail_block_k() -> u32 {
    airmail_default().fec_cfg.block_k
}
fn airmail_m_max() -> u32 {
    airmail_default().fec_cfg.m_max
}
fn airmail_fer_window() -> u32 {
    airmail_default().fec_cfg.fer_window
}
fn airmail_theta1() -> f64 {
    airmail_default().fec_cfg.theta1
}
fn airmail_theta2() -> f64 {
    airmail_default().fec_cfg.theta2
}

/// RLP's form (see `RlpSpec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RlpFormSpec {
    Basic,
    #[default]
    Enhanced,
}

/// RLP's hand-up order (see `RlpSpec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RlpDeliverySpec {
    #[default]
    InOrder,
    OutOfOrder,
}

/// IEEE 802.11b DCF settings (see `lasthop_net::mac::dcf`). Defaults are
/// ns-2.35's `Mac/802_11` (tcl/lib/ns-default.tcl) with seed 004 Sec.
/// 5.1's 11 Mb/s for data and acks and its 50-packet interface queues.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DcfSpec {
    /// Data frame rate, in bit/s. [T] 11 Mb/s.
    #[serde(default = "dcf_rate")]
    pub data_rate_bps: f64,
    /// MAC ack (and RTS/CTS) rate, in bit/s. [T] 11 Mb/s.
    #[serde(default = "dcf_rate")]
    pub control_rate_bps: f64,
    /// Slot time, in us. [N] 20.
    #[serde(default = "dcf_slot")]
    pub slot_us: f64,
    /// SIFS, in us. [N] 10.
    #[serde(default = "dcf_sifs")]
    pub sifs_us: f64,
    /// DIFS, in us. [N] 50.
    #[serde(default = "dcf_difs")]
    pub difs_us: f64,
    /// EIFS, in us. [N] 364.
    #[serde(default = "dcf_eifs")]
    pub eifs_us: f64,
    /// Contention window bounds, in slots. [N] 31 and 1023.
    #[serde(default = "dcf_cw_min")]
    pub cw_min: u32,
    #[serde(default = "dcf_cw_max")]
    pub cw_max: u32,
    /// PLCP preamble and header, in us. [N] 192 (long preamble).
    #[serde(default = "dcf_plcp")]
    pub plcp_us: f64,
    /// MAC header and FCS of a data frame, in bytes. [N] 34.
    #[serde(default = "dcf_header")]
    pub mac_header_bytes: u32,
    /// Attempts per frame, the first included (the paper's l). [N] 7.
    #[serde(default = "dcf_retry_limit")]
    pub retry_limit: u32,
    /// Data frames (packet + MAC header) of at least this many bytes go
    /// after RTS/CTS. Absent: never ([T] off).
    pub rts_threshold_bytes: Option<u32>,
    /// Each station's queue limit, in packets. [T] 50.
    #[serde(default = "dcf_queue")]
    pub queue_packets: u32,
    /// Time between a failed attempt and the frame's next one, in ms. [T]
    /// 0; 100 in seed 004's ERSN experiment.
    #[serde(default)]
    pub ll_retransmission_delay_ms: f64,
    /// What the station does meanwhile (yun-004.md ambiguity 9):
    /// `blocking`, its MAC blocked (stop-and-wait; [R] the reference's
    /// plausible reading), or `deferred`, the frame set aside while the
    /// station serves its queue (selective repeat, UMTS RLC-like).
    #[serde(default)]
    pub ll_retransmission: LlRetransmissionSpec,
    /// `deferred` only: frames a station may hold set aside at once
    /// (1..=64). [R] 16: no source (the paper's link layer is stop and
    /// wait); a UMTS-RLC-like window, acting only under `deferred`.
    #[serde(default = "dcf_ll_window")]
    pub ll_retransmission_window: u32,
    /// The discipline of every station's queue. Absent: drop-tail.
    #[serde(default)]
    pub queue: Option<QueueConfig>,
    /// MAC acks, RTS and CTS consult their sender's error model too (with
    /// their own sizes), so that a data frame the peer handed up may lose
    /// its MAC ack and be retried. [R] false: only data frames are lost.
    #[serde(default)]
    pub control_frame_errors: bool,
}

impl Default for DcfSpec {
    fn default() -> DcfSpec {
        DcfSpec {
            data_rate_bps: dcf_rate(),
            control_rate_bps: dcf_rate(),
            slot_us: dcf_slot(),
            sifs_us: dcf_sifs(),
            difs_us: dcf_difs(),
            eifs_us: dcf_eifs(),
            cw_min: dcf_cw_min(),
            cw_max: dcf_cw_max(),
            plcp_us: dcf_plcp(),
            mac_header_bytes: dcf_header(),
            retry_limit: dcf_retry_limit(),
            rts_threshold_bytes: None,
            queue_packets: dcf_queue(),
            ll_retransmission_delay_ms: 0.0,
            ll_retransmission: LlRetransmissionSpec::default(),
            ll_retransmission_window: dcf_ll_window(),
            queue: None,
            control_frame_errors: false,
        }
    }
}

// The DCF's defaults are the MAC's own (one source of truth).
fn dcf_default() -> lasthop_net::mac::dcf::DcfConfig {
    lasthop_net::mac::dcf::DcfConfig::default()
}
fn dcf_us(ns: u64) -> f64 {
    ns as f64 / 1e3
}
fn dcf_rate() -> f64 {
    dcf_default().data_rate_bps as f64
}
fn dcf_slot() -> f64 {
    dcf_us(dcf_default().slot_ns)
}
fn dcf_sifs() -> f64 {
    dcf_us(dcf_default().sifs_ns)
}
fn dcf_difs() -> f64 {
    dcf_us(dcf_default().difs_ns)
}
fn dcf_eifs() -> f64 {
    dcf_us(dcf_default().eifs_ns)
}
fn dcf_cw_min() -> u32 {
    dcf_default().cw_min
}
fn dcf_cw_max() -> u32 {
    dcf_default().cw_max
}
fn dcf_plcp() -> f64 {
    dcf_us(dcf_default().plcp_ns)
}
fn dcf_header() -> u32 {
    dcf_default().mac_header_bytes
}
fn dcf_retry_limit() -> u32 {
    dcf_default().retry_limit
}
fn dcf_queue() -> u32 {
    dcf_default().queue_packets
}
fn dcf_ll_window() -> u32 {
    dcf_default().ll_retransmission_window
}

/// A DCF's link-level retransmission reading (see `DcfSpec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LlRetransmissionSpec {
    #[default]
    Blocking,
    Deferred,
}

/// A half-duplex packet radio (seed 001 Sec. 5; see
/// `lasthop_net::mac::radio`). Defaults are ns-2.35's `Mac/Multihop`
/// (tcl/lan/ns-mac.tcl), the only source of the paper's lost Table T5.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RadioSpec {
    /// Channel rate, in bit/s. [N] 100 kb/s.
    #[serde(default = "radio_bandwidth")]
    pub bandwidth_bps: f64,
    /// From the end of a data frame's reception to its hand-up, in ms. [N] 10.
    #[serde(default = "radio_hand_up")]
    pub hand_up_latency_ms: f64,
    /// Propagation of every frame on the air, in ms. [R] 0: no source (ns-2
    /// takes it from node positions the paper does not give); a few km of
    /// radio path is microseconds against the turnarounds' milliseconds.
    #[serde(default)]
    pub propagation_ms: f64,
    /// Transmit-to-receive turnaround T_TR, in ms. [N] 11.125.
    #[serde(default = "radio_tx_rx")]
    pub tx_rx_ms: f64,
    /// Receive-to-transmit turnaround T_RT, in ms. [N] 13.25.
    #[serde(default = "radio_rx_tx")]
    pub rx_tx_ms: f64,
    /// Backoff base, in ms. [N] 20.
    #[serde(default = "radio_backoff")]
    pub backoff_base_ms: f64,
    /// RTS (poll) size, in bytes. [N] 40.
    #[serde(default = "radio_control")]
    pub rts_bytes: u32,
    /// CTS (poll ack) size, in bytes. [N] 40.
    #[serde(default = "radio_control")]
    pub cts_bytes: u32,
    /// Bare link-level ack size, in bytes. [R] 40: no source; the size of
    /// ns-2's poll frames (`MAC_POLLSIZE`).
    #[serde(default = "radio_control")]
    pub link_ack_bytes: u32,
    /// MAC header of every data frame, in bytes. [N] 16.
    #[serde(default = "radio_header")]
    pub mac_header_bytes: u32,
    /// Each radio's queue limit, in packets. [R] 10: no source (ns-2's
    /// `Mac/Multihop` sets none, so its interface queue would be `Queue set
    /// limit_` 50); the reference's suggested default, the size of seed
    /// 001's simulated reverse buffer.
    #[serde(default = "radio_queue")]
    pub queue_packets: u32,
    /// Link acks ride on data frames going the other way (the paper's
    /// simulations, Sec. 7.2). [T] true.
    #[serde(default = "radio_piggyback")]
    pub piggyback_acks: bool,
    /// A data frame carrying a link ack is polled for (RTS/CTS) first, as
    /// every data frame is (Sec. 5's MAC; piggybacking saves the bare ack).
    /// false: it replaces the ack and goes without a poll. [T] true.
    #[serde(default = "radio_piggyback")]
    pub poll_before_piggyback: bool,
    /// Link retransmissions before the ARQ gives up on a frame (absent:
    /// never, the paper's "retransmits on timeout").
    #[serde(default)]
    pub retry_limit: Option<u32>,
    /// The discipline of every radio's queue (`fifo` service only): e.g.
    /// `{ ack_filter = true }` for AF at the radios. Absent: drop-tail.
    #[serde(default)]
    pub queue: Option<QueueConfig>,
}

impl Default for RadioSpec {
    fn default() -> RadioSpec {
        RadioSpec {
            bandwidth_bps: radio_bandwidth(),
            hand_up_latency_ms: radio_hand_up(),
            propagation_ms: 0.0,
            tx_rx_ms: radio_tx_rx(),
            rx_tx_ms: radio_rx_tx(),
            backoff_base_ms: radio_backoff(),
            rts_bytes: radio_control(),
            cts_bytes: radio_control(),
            link_ack_bytes: radio_control(),
            mac_header_bytes: radio_header(),
            queue_packets: radio_queue(),
            piggyback_acks: radio_piggyback(),
            poll_before_piggyback: radio_piggyback(),
            retry_limit: None,
            queue: None,
        }
    }
}

fn radio_bandwidth() -> f64 {
    100e3
}
fn radio_hand_up() -> f64 {
    10.0
}
fn radio_tx_rx() -> f64 {
    11.125
}
fn radio_rx_tx() -> f64 {
    13.25
}
fn radio_backoff() -> f64 {
    20.0
}
fn radio_control() -> u32 {
    40
}
fn radio_header() -> u32 {
    16
}
fn radio_queue() -> u32 {
    10
}
fn radio_piggyback() -> bool {
    true
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

/// TCP settings of a flow.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpSpec {
    /// Sender variant (default `reno`): a name for a (congestion control,
    /// loss recovery, ack content) triple, from `lasthop_tcp::variants::VARIANTS` (tahoe,
    /// reno, newreno, sack, smart, and the controllers' variants such as
    /// westwood+, veno, cubic, bbr). A flow's `scheme` sets it instead.
    pub variant: Option<String>,
    /// Loss recovery, set directly instead of through `variant`: tahoe
    /// (go-back-N), reno, newreno, sack (RFC 6675; the receiver sends SACK
    /// blocks) or smart (the receiver echoes).
    pub recovery: Option<Variant>,
    /// Congestion control, set directly (default: the variant's; `reno`).
    /// An unknown name is refused with the list of known ones.
    pub cc: Option<String>,
    /// The congestion controller's parameters by name (each controller
    /// lists its own, with their defaults and sources, in its module's
    /// `PARAMS`); unknown names are refused.
    #[serde(default)]
    pub cc_params: std::collections::BTreeMap<String, f64>,
    /// Maximum segment size (payload), in bytes.
    #[serde(default = "default_mss")]
    pub mss_bytes: u32,
    /// IP + TCP header bytes added to each data segment on the wire.
    #[serde(default = "default_header")]
    pub header_bytes: u32,
    /// Size of a pure ack on the wire, in bytes.
    #[serde(default = "default_header")]
    pub ack_bytes: u32,
    /// Socket buffer of both ends, in bytes: caps the sender's outstanding
    /// data and is the receiver's advertised window.
    #[serde(default = "default_buffer")]
    pub socket_buffer_bytes: u64,
    /// Initial congestion window, in segments. Default 1: 4.4BSD-Lite
    /// (`tcp_mss()` sets `snd_cwnd` to one segment) and ns-2's
    /// `windowInit_` until 2001.
    #[serde(default = "default_one")]
    pub initial_cwnd_segments: u32,
    /// Initial slow-start threshold, in bytes (default: unlimited, as
    /// 4.4BSD-Lite's `tcp_newtcpcb()`, `TCP_MAXWIN << TCP_MAX_WINSHIFT`, and
    /// RFC 5681's "arbitrarily high").
    pub initial_ssthresh_bytes: Option<u64>,
    /// Duplicate acks that trigger fast retransmit. Default 3: RFC 5681,
    /// 4.4BSD-Lite's `tcprexmtthresh`, ns-2's `NUMDUPACKS`.
    #[serde(default = "default_dupthresh")]
    pub dupack_threshold: u32,
    /// Send SACK blocks from the receiver (default: on exactly when the
    /// recovery is `sack`; `false` with that recovery is refused).
    pub sack: Option<bool>,
    /// Response to ELN-marked duplicate acks: `off`, `third_dupack`
    /// (E2E-ELN) or `first_dupack` (E2E-ELN-RXMT). A flow's `scheme` sets it.
    pub eln: Option<lasthop_tcp::ElnResponse>,
    /// Who marks acks with ELN: the `receiver`, told of corruption by its
    /// link layer (the 1997 experiments), or the `base_station`, the node
    /// before the receiver, from the segments it saw pass (Sec. V-B).
    #[serde(default)]
    pub eln_generator: ElnGenerator,
    /// A new segment on each of the first two duplicate acks (seed 000
    /// Sec. V-C; RFC 3042).
    #[serde(default)]
    pub limited_transmit: bool,
    /// Congestion-avoidance increase: `rfc5681` (default) or `bsd44`
    /// (4.4BSD-Lite's extra maxseg/8 per ack, as in BSD/OS 2.1).
    #[serde(default)]
    pub window_growth: lasthop_tcp::WindowGrowth,
    /// Slow-start threshold on a loss: `rfc5681` (default, half the data
    /// outstanding) or `bsd44` (4.4BSD-Lite: half of min(advertised
    /// window, cwnd), at a fast retransmit and at a timeout).
    #[serde(default)]
    pub window_cut: lasthop_tcp::WindowCut,
    /// End of Reno's fast recovery: `rfc5681` (default, cwnd = ssthresh) or
    /// `bsd44` (4.4BSD-Lite: deflate only a window inflated by further
    /// duplicate acks, then open it as for any ack of new data).
    #[serde(default)]
    pub recovery_exit: lasthop_tcp::RecoveryExit,
    /// 4.4BSD-Lite's header prediction for a Reno sender's pure acks: an ack
    /// of new data that arrives while cwnd >= the advertised window takes
    /// the fast path, which neither opens nor deflates cwnd nor clears the
    /// duplicate-ack count (so a fast recovery that inflated cwnd to the
    /// window is not left until a timeout).
    #[serde(default)]
    pub header_prediction: bool,
    /// Which acks header prediction may take, by the duplicate-ack count:
    /// `none` (4.4BSD-Lite: no test), `below_threshold` (FreeBSD's
    /// `t_dupacks < tcprexmtthresh`) or `no_dupacks` (OpenBSD's
    /// `t_dupacks == 0`).
    #[serde(default)]
    pub header_prediction_guard: lasthop_tcp::HeaderPredictionGuard,
    /// Which acks' windows the sender takes: `bsd` (4.4BSD and RFC 793's
    /// SND.WL1/SND.WL2 test: a newer ack's, or a duplicate's that opens the
    /// window; a late, older ack changes nothing) or `latest` (every ack's).
    #[serde(default)]
    pub window_update: lasthop_tcp::WindowUpdate,
    /// Freeze-TCP at the receiving host (Goff et al. 2000): told of each
    /// outage on the flow's path `warning_s` ahead, it advertises a zero
    /// window, and sends three acks with its window open when the link
    /// comes back. Needs an outage on the flow's path, or a mobile host's
    /// handoffs, to predict.
    #[serde(default)]
    pub freeze: Option<FreezeSpec>,
    /// Fast-retransmit handoff (Caceres and Iftode 1995) at the flow's
    /// mobile end: told that a handoff is complete, a receiving mobile host
    /// sends three duplicate acks, a sending one fast-retransmits at once.
    /// Needs an end of the flow that is a mobile host (`[[mobility]]`), or
    /// one next to a link with outages on the flow's path (then told when
    /// the link comes back).
    #[serde(default)]
    pub frho: bool,
    /// Largest congestion window, in bytes; absent: no cap (RFC 5681).
    /// 4.4BSD-derived stacks cap it at the largest window they can
    /// advertise, 65535 without window scaling.
    #[serde(default)]
    pub max_cwnd_bytes: Option<u64>,
    /// What bounds cwnd's growth, the rule of the stack modelled:
    /// `cwnd_limited` (default; Linux's `tcp_is_cwnd_limited()`, RFC 7661's
    /// principle: an ack opens the window only while the window limits
    /// sending), `max_window` (4.4BSD: at most `TCP_MAXWIN << snd_scale`,
    /// the largest window the peer's socket buffer can advertise with RFC
    /// 7323 scaling) or `none` (ns-2's default `maxcwnd_ = 0`; RFC 5681).
    /// `max_cwnd_bytes` caps it further under any rule.
    #[serde(default)]
    pub cwnd_bound: lasthop_tcp::CwndBound,
    /// Relay buffer of a split-connection base station (schemes `split`,
    /// `split-smart`), in bytes: data acknowledged to the source and not yet
    /// acknowledged by the mobile host (seed 000 Sec. IV-D: 64 KB).
    #[serde(default = "default_split_buffer")]
    pub split_buffer_bytes: u64,
    /// Scheme `mtcp` (Yavatkar and Bhagwat's MHP, seed 002 Sec. 5.3): its
    /// wireless side ([`MtcpSpec`]); absent: SRP with its defaults.
    #[serde(default)]
    pub mtcp: Option<MtcpSpec>,
    /// Processing latency of the flow's base-station agent (the snoop
    /// family), in microseconds, in [0, 1e6]: its local retransmissions
    /// leave this long after the ack or timeout that caused them. Default 0:
    /// the paper gives no figure (see `lasthop_agents::snoop`).
    #[serde(default)]
    pub base_station_processing_us: f64,
    /// Local retransmissions of one segment by the flow's base-station
    /// agent at most (at least 1); absent: the scheme's (the snoop family
    /// 10, ns-2.35's `SNOOP_MAX_RXMIT`; `ebsn` and `ecn-bs` without limit,
    /// as Bakshi et al.'s link layer).
    #[serde(default)]
    pub base_station_max_local_rexmits: Option<u32>,
    /// Scheme `snoop-nack`: segments from the mobile host arriving past an
    /// open hole before the base station NACKs (at least 1); absent: 3, the
    /// fast retransmit's threshold (the snoop paper gives none:
    /// elaarag-002.md Sec. 1.7 \[I\]).
    #[serde(default)]
    pub nack_threshold_packets: Option<u32>,
    /// Scheme `snoop-nack`: time without a new segment from the mobile host,
    /// a hole open, before the base station NACKs, in round trips of the
    /// mobile host's wireless hop (a full segment up, an ack down), above 0;
    /// absent: 2 (the paper's "a certain amount of time": elaarag-002.md
    /// Sec. 1.7 \[I\]).
    #[serde(default)]
    pub nack_idle_rtts: Option<f64>,
    /// Corrupted segments the receiver remembers for ELN marks (at least
    /// 1); absent: no limit. 1 is a literal reading of seed 000 Sec. IV-C,
    /// whose ELN "does not convey information about multiple
    /// wireless-related losses to the sender".
    #[serde(default)]
    pub eln_slots: Option<u32>,
    #[serde(default)]
    pub rto: RtoSpec,
    #[serde(default)]
    pub ack: AckSpec,
    /// RFC 3168 ECN end to end: data segments are ECN-capable (never a
    /// retransmission), the receiver echoes a CE mark as ECE on its acks
    /// until CWR arrives, and the sender halves its window (by
    /// `window_cut`'s rule) at most once per window of data, without a
    /// retransmission, then sets CWR on its next new segment.
    #[serde(default)]
    pub ecn: bool,
    /// The TCP timestamp option (RFC 7323) on every segment and ack, with a
    /// nanosecond clock: seed 001's fine-grained round trip (Sec. 8.3) for
    /// sender adaptation and ACC's once-per-round-trip test. The receiver
    /// echoes TS.Recent by RFC 7323 Sec. 4.3 (as ns-2.35's sink). The
    /// option's bytes are not added to `header_bytes` or `ack_bytes`.
    #[serde(default)]
    pub timestamps: bool,
    /// Seed 001 Sec. 8.2's sender-window option on every data segment:
    /// min(cwnd, data in the send buffer) in MSS units. ACC needs it.
    #[serde(default)]
    pub sender_window_option: bool,
    /// ACK congestion control at the receiver (seed 001 Secs. 6.1, 8.2).
    /// Needs `sender_window_option` and a delayed-ack timer (`ack.policy`
    /// `delayed` or `bsd_delayed`; `ack.every_segments` is replaced by
    /// ACC's factor); mode `ecn` also needs `timestamps`.
    #[serde(default)]
    pub acc: Option<AccSpec>,
    /// Sender adaptation (seed 001 Secs. 6.3, 8.3): window growth by data
    /// acknowledged and bursts of at most `maxburst` segments, paced at
    /// cwnd/srtt. Needs `timestamps` (its round trip comes from them).
    #[serde(default)]
    pub sender_adaptation: Option<SenderAdaptationSpec>,
    /// The fast-retransmit request of seed 001 Sec. 6.3: the receiver marks
    /// duplicate acks once `threshold` out-of-order segments have arrived,
    /// and the sender fast-retransmits on the first marked one.
    #[serde(default)]
    pub fast_retransmit_request: Option<FastRetransmitRequestSpec>,
    /// Connection start-up and close (issue 12; seed 001 Sec. 7.3's web
    /// micro-benchmark): the sender sends a SYN at the flow's start and data
    /// only after the receiver's SYN-ACK; a lost SYN or SYN-ACK costs a
    /// retransmission timeout (`rto.initial_s`, 1 s by RFC 6298, 6 s in
    /// `bsd` mode); a bounded transfer's last segment carries FIN, and the
    /// flow ends when its ack reaches the sender. SYN and SYN-ACK are
    /// `ack_bytes` long. The flow summary gains a `connection` record.
    /// Not with split-connection schemes.
    #[serde(default)]
    pub handshake: bool,
    /// The sender's response to link-layer loss notifications (seed 004
    /// Sec. 4: ERSN and ELN from a medium with `ll_elsn`); needs `variant
    /// = "sack"`. Absent: notifications are ignored.
    pub ll_elsn: Option<LlElsnSpec>,
}

/// A sender's LL-ELSN response (see `lasthop_tcp::ll_elsn`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlElsnSpec {
    /// `esack` (the paper's, Algorithm 1), `hack`, `hack_fixed` or
    /// `lhp_list` (the comparison senders of Sec. 5.3).
    #[serde(default)]
    pub response: LlElsnResponseSpec,
    /// ELN filtering's N (Sec. 4.2): N consecutive ELNs are channel noise,
    /// one more declares a disconnection. 0: no filtering (every ELN is
    /// answered by a retransmission: Fig. 16's comparison). Absent: 2 for
    /// `esack` (the paper's example), no filtering for the others.
    pub eln_filter: Option<u32>,
    /// Retransmission timeouts an ERSN may defer for one segment (seed 004
    /// Sec. 3.1: while the link layer retries a segment the sender "neither
    /// invokes congestion control due to the packet 1 nor retransmits it";
    /// the bound keeps a lost ELN from stalling the connection). Absent:
    /// yun-004.md Sec. 2.3's bound, "(e.g. at most ceil(l * T_llrtx /
    /// RTO) + 1) so a lost ELN cannot stall the connection" [I], with l
    /// the retry limit and T_llrtx the link retransmission delay of the
    /// notifying 802.11 medium on the flow's data path (the largest over
    /// several) and RTO the smallest the sender's timer can take
    /// (`rto.min_ms`, or its clock granularity if larger), so that the
    /// deferrals outlast l retries whatever the estimator does: seed 004
    /// Fig. 13's l = 7, 100 ms and ns-2's 200 ms give 5; with no link
    /// retransmission delay, 1. 0: the sender ignores ERSNs (LL-ELSN
    /// without ERSN).
    pub ersn_max_deferrals: Option<u32>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LlElsnResponseSpec {
    #[default]
    Esack,
    Hack,
    HackFixed,
    LhpList,
}

/// ACK congestion control (seed 001 Secs. 6.1 and 8.2).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccSpec {
    /// `ecn` (default; Sec. 6.1, the simulations, ns-2
    /// `Agent/TCPSink/Asym`): acks are sent ECN-capable, the data sender
    /// echoes a marked ack on its next segment, and the delayed-ack factor
    /// doubles on an echo (at most once per round trip) and drops by one
    /// per round trip without one. `testbed` (Sec. 8.2, the BSD/OS
    /// implementation): the factor is the window-derived cap itself.
    #[serde(default)]
    pub mode: lasthop_tcp::AccMode,
    /// Upper bound of the delayed-ack factor, in segments (>= 1). The
    /// paper's value is lost; 25 is ns-2's `tcl/ex/asym` scripts (the ns
    /// default is 5).
    #[serde(default = "default_max_delack")]
    pub max_delack: u32,
    /// Fewest acks per window of sender data (>= 1): the factor is at most
    /// floor(min(sender window, receive buffer) / min_acks_win). 2 is
    /// ns-2's hard-coded safety factor (`max_sender_can_send / 2`).
    #[serde(default = "default_two")]
    pub min_acks_win: u32,
}

/// Sender adaptation (seed 001 Secs. 6.3 and 8.3).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SenderAdaptationSpec {
    /// Most segments sent back to back (>= 1); the rest wait for a burst
    /// timer of maxburst·srtt/min(cwnd, rwnd). The paper's value is lost
    /// (3 or 4, "the bursts of standard TCP with delayed acks"); 3 [R].
    #[serde(default = "default_maxburst")]
    pub maxburst: u32,
    /// Segments acknowledged per window increase: 1 (default; the
    /// simulations and ns-2, "as if n separate acks had arrived") or 2 (the
    /// testbed pseudocode, acked / (2·MSS)).
    #[serde(default = "default_one")]
    pub segments_per_increase: u32,
    /// The testbed's burst timer (Sec. 9.1.1): a BSD kernel timeout on the
    /// sending host's clock ticks of this many ms (> 0; 10 [R], BSD's hz =
    /// 100): the wait truncated to whole ticks (at least one) counted from
    /// the next tick, so at most one burst leaves per tick. Absent: an exact timer (the simulations).
    #[serde(default)]
    pub timer_tick_ms: Option<f64>,
}

/// The fast-retransmit request (seed 001 Sec. 6.3).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FastRetransmitRequestSpec {
    /// Out-of-order segments the receiver sees before it marks duplicate
    /// acks (>= 1). Lost from the paper; 3 [R] (RFC 5681's dupack threshold).
    #[serde(default = "default_dupthresh")]
    pub threshold: u32,
}

fn default_max_delack() -> u32 {
    25
}
fn default_maxburst() -> u32 {
    3
}

impl Default for TcpSpec {
    fn default() -> Self {
        TcpSpec {
            variant: None,
            recovery: None,
            cc: None,
            cc_params: Default::default(),
            mss_bytes: default_mss(),
            header_bytes: default_header(),
            ack_bytes: default_header(),
            socket_buffer_bytes: default_buffer(),
            split_buffer_bytes: default_split_buffer(),
            mtcp: None,
            base_station_processing_us: 0.0,
            base_station_max_local_rexmits: None,
            nack_threshold_packets: None,
            nack_idle_rtts: None,
            eln_slots: None,
            initial_cwnd_segments: 1,
            initial_ssthresh_bytes: None,
            dupack_threshold: default_dupthresh(),
            sack: None,
            eln: None,
            eln_generator: ElnGenerator::Receiver,
            limited_transmit: false,
            window_growth: lasthop_tcp::WindowGrowth::Rfc5681,
            window_cut: lasthop_tcp::WindowCut::Rfc5681,
            recovery_exit: lasthop_tcp::RecoveryExit::Rfc5681,
            header_prediction: false,
            header_prediction_guard: lasthop_tcp::HeaderPredictionGuard::None,
            window_update: lasthop_tcp::WindowUpdate::Bsd,
            freeze: None,
            frho: false,
            max_cwnd_bytes: None,
            cwnd_bound: lasthop_tcp::CwndBound::default(),
            rto: RtoSpec::default(),
            ack: AckSpec::default(),
            ecn: false,
            timestamps: false,
            sender_window_option: false,
            acc: None,
            sender_adaptation: None,
            fast_retransmit_request: None,
            handshake: false,
            ll_elsn: None,
        }
    }
}

/// Scheme `mtcp`'s wireless side between the base station's MHP and the
/// mobile host's (seed 002 Sec. 5.3; `lasthop_net::arq::srp`). Every
/// field is lasthop's choice or unverified [I]/[K]: the survey gives no
/// figure for any of them.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MtcpSpec {
    /// What carries the wireless side: `srp` (default; the survey's "SRP
    /// ... on top of IP") or `tcp` (its other option, "MHP ... can use
    /// TCP": the `split` relay's TCP leg, Reno).
    #[serde(default)]
    pub transport: MtcpTransport,
    /// The wireless segment size MHP cuts the wired stream into, in bytes
    /// of payload [I] (absent: the flow's `mss_bytes`; no source gives one).
    /// With `transport = "tcp"` the leg's segments are `mss_bytes`: absent
    /// or equal to it.
    #[serde(default)]
    pub mss_wireless_bytes: Option<u32>,
    /// SRP's largest window, in packets, 1 to 64 [K] (default 32).
    #[serde(default)]
    pub srp_window_packets: Option<u32>,
    /// SRP's window at the start, in packets [K] (default 4).
    #[serde(default)]
    pub srp_initial_window_packets: Option<u32>,
    /// SRP's retransmission timeout, fixed, in ms [K]; absent: estimated
    /// from round trips as RFC 6298's (200 ms before the first sample,
    /// clamped to [20 ms, 2 s]).
    #[serde(default)]
    pub srp_rto_ms: Option<f64>,
}

/// What carries MTCP's wireless side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MtcpTransport {
    #[default]
    Srp,
    Tcp,
}

/// Where ELN marks come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ElnGenerator {
    #[default]
    Receiver,
    BaseStation,
}

fn default_mss() -> u32 {
    1460
}
fn default_header() -> u32 {
    40
}
fn default_buffer() -> u64 {
    65535
}
fn default_split_buffer() -> u64 {
    65536
}
fn default_one() -> u32 {
    1
}
fn default_dupthresh() -> u32 {
    3
}

/// Retransmission-timer settings; unset fields take the mode's defaults.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RtoSpec {
    /// `rfc6298` (default), `bsd` (500 ms ticks, BSD/OS 2.1), `ns2` (ns-2's
    /// tick-rounded estimator; its tick `tcpTick_` is `granularity_ms`) or
    /// `ns2_legacy` (ns-2's agent around 2000, `rfc2988_` false, no
    /// timestamps: samples count ticks crossed, the backoff stops at 64x;
    /// min 0, max 100000 s, initial 6 s, tick 100 ms).
    #[serde(default)]
    pub mode: lasthop_tcp::RtoMode,
    /// Minimum RTO, in ms (RFC 6298: 1000; BSD: 1000 = two ticks; ns-2: 200,
    /// ns-2.35's `minrto_` since 2004; before, none (0, the `ns2_legacy`
    /// default), only the floor of two ticks in `rtt_timeout()`).
    pub min_ms: Option<f64>,
    /// Maximum RTO, in seconds (RFC 6298: 60; BSD: 64; ns-2: 60, ns-2.35's
    /// `maxrto_` since 2007; 100000 before).
    pub max_s: Option<f64>,
    /// RTO before the first sample, in seconds (RFC 6298: 1; BSD: 6; ns-2: 3,
    /// ns-2.35's `rtxcur_init_` since 2006; 6 before).
    pub initial_s: Option<f64>,
    /// RFC 6298 clock granularity G, or ns-2's `tcpTick_`, in ms (default 1;
    /// ns-2: 100, as seed 001's asym.tcl sets it).
    pub granularity_ms: Option<f64>,
}

/// When the receiver acks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AckPolicySpec {
    /// An ack per segment (ns-2's TCPSink).
    #[default]
    Immediate,
    /// Every `every_segments` full segments or `delay_ms` after the first unacked one.
    Delayed,
    /// As `delayed`, but the timer is the host's 200 ms fast tick (4.4BSD).
    BsdDelayed,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AckSpec {
    #[serde(default)]
    pub policy: AckPolicySpec,
    /// Full-sized segments per delayed ack. Default 2: RFC 5681 Sec. 4.2
    /// ("at least every second full-sized segment"), 4.4BSD-Lite's window
    /// update once two segments of buffer are freed.
    #[serde(default = "default_two")]
    pub every_segments: u32,
    /// Delayed-ack timeout (or BSD fast-tick period), in ms. Default 200:
    /// 4.4BSD's fast timer (`PR_FASTHZ` 5); RFC 5681 allows up to 500.
    #[serde(default = "default_delack_ms")]
    pub delay_ms: f64,
}

impl Default for AckSpec {
    fn default() -> Self {
        AckSpec { policy: AckPolicySpec::Immediate, every_segments: 2, delay_ms: 200.0 }
    }
}

fn default_two() -> u32 {
    2
}
fn default_delack_ms() -> f64 {
    200.0
}
