//! Validation: from the typed file to the resolved model the simulator
//! builds from. Every check names the field path it rejects. Templates are
//! expanded here into the general form, so nothing downstream knows them.

use super::routes::{Hop, Path, Router};
use super::schema::{
    AckPolicySpec, AckReconsSpacing, AckReconsSpec, AirmailSpec, DcfSpec, DirSpec, DuplexSpec, ElnGenerator, FlowSpec,
    HeaderCompression, LinkSpec, LlElsnResponseSpec, LlRetransmissionSpec, MacKind, MediumSpec, MtcpSpec,
    MtcpTransport, Mutation, PublishedCell, RadioSpec, RlpDeliverySpec, RlpFormSpec, RlpSpec, ScenarioFile, Template,
    WlanCellSpec, COMPRESSED_ACK_BYTES,
};
use super::ScenarioError;
use crate::metrics::Label;
use crate::schemes::{self, BaseStationAgent};
use crate::traffic::ParetoConfig;
use lasthop_agents::ack_recons::{AckReconsConfig, Spacing};
use lasthop_agents::bad_state::BadStateNotice;
use lasthop_agents::snoop::SnoopConfig;
use lasthop_agents::snoop_nack::SnoopNackConfig;
use lasthop_core::tick::KernelClock;
use lasthop_core::time::{secs_to_ns, NS_PER_MS, NS_PER_S, NS_PER_US};
use lasthop_core::{NodeId, Time};
use lasthop_net::error::ErrorModelConfig;
use lasthop_net::mac::dcf::{DcfConfig, LlRetransmission};
use lasthop_net::mac::point_to_point::{DirParams, Duplex};
use lasthop_net::mac::{CircuitConfig, RadioConfig, StationId};
use lasthop_net::queue::{QueueConfig, QueueLimit};
use lasthop_net::rate_trace::RateTrace;
use lasthop_tcp::cc::CcConfig;
use lasthop_tcp::variants::{self, Acks};
use lasthop_tcp::{
    AccConfig, AccMode, AckPolicy, AdaptationConfig, ElnResponse, LlElsnConfig, LlElsnResponse, ReceiverConfig,
    RtoConfig, RtoMode, SenderConfig, Variant,
};
// Fx hashing for name look-ups: the names are the scenario author's own, not an
// adversary's, and SipHash's flood resistance cost a third of a second at a million
// links (issue 31).
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

mod checks;
mod flows;
mod links;
mod media;
mod mobility;
mod outages;

use checks::{at_most_a_packet, bit_rate, check, duration, duration_s, non_negative, num, positive};
pub use flows::COPY_TOKEN;
use flows::{flow_ends, flow_model, per_copy_ends};
use links::{dir_params, expand_topology, kernel_tick_ns, place_ack_recons};
pub use media::ersn_deferral_bound;
use media::{media_links, station_on};
pub use mobility::{HandoffSchedule, MobilityModel, StationModel, MAX_HANDOFFS};
pub use outages::{frho_end, outages_on, ErrorChangeModel, OutageModel, RateChangeModel, MAX_OUTAGES};

/// Default queue limit when a link gives none (ns-2's default of 50).
pub const DEFAULT_QUEUE_PACKETS: u32 = 50;

/// Longest simulated time a run may ask for, in seconds (about 116 days):
/// every run must end, even one whose flows can never finish.
pub const MAX_STOP_S: f64 = 1e7;

#[derive(Clone, Debug)]
pub struct DirModel {
    pub params: DirParams,
    pub error: ErrorModelConfig,
    pub header_compression: HeaderCompression,
    /// The direction's queue discipline; `None`: DropTail, no statistics.
    /// Boxed: most directions have none, and a million links' models are
    /// half this field's 192 bytes otherwise (issue 31).
    pub queue: Option<Box<QueueConfig>>,
    /// ACK reconstruction at the direction's far end (its `mss_bytes` is
    /// each connection's own, set where the agents are placed).
    pub ack_recons: Option<AckReconsConfig>,
    /// The testbed's link emulator (seed 001 Sec. 8.1): its kernel clock's
    /// tick, in ns (the phase is drawn per sending host at build time).
    pub emulation_tick_ns: Option<u64>,
    /// The rate trace driving the direction's transmitter instead of its
    /// bandwidth (whose `params.bandwidth_bps` is then the trace's mean
    /// rate).
    pub rate_trace: Option<Arc<RateTrace>>,
    /// The direction is a hop of a shared medium, whose MAC carries its
    /// frames (its queue is the sending radio's).
    pub medium: Option<MediumHop>,
}

/// A link direction carried by a medium: from radio `from` to radio `to`
/// of medium `medium` (station indices in its `stations`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MediumHop {
    pub medium: u32,
    pub from: StationId,
    pub to: StationId,
}

/// A shared medium of packet radios (seed 001 Sec. 5).
#[derive(Clone, Debug)]
pub struct MediumModel {
    pub name: String,
    /// The packet radio's settings (used when `dcf` is absent).
    pub radio: RadioConfig,
    /// An IEEE 802.11 DCF medium (seed 004) instead of a packet radio.
    pub dcf: Option<DcfConfig>,
    /// An RLP circuit (`mac = "rlp"`) instead of a packet radio.
    pub circuit: Option<CircuitConfig>,
    /// Frame errors of every hop direction (each its own state and stream).
    pub error: ErrorModelConfig,
    /// Per station: whether `error` hits its frames (`error_from`).
    pub error_from: Vec<bool>,
    /// A circuit's error model for the stations not in `error_from`.
    pub error_others: ErrorModelConfig,
    /// Stations send LL-ELSN notices (seed 004 Sec. 3.1).
    pub ll_elsn: bool,
    /// Stations send an EBSN at every failed attempt of a TCP segment
    /// (seed 002 Sec. 5.2).
    pub ebsn: bool,
    /// Every radio's queue discipline (absent: drop-tail).
    pub queue: Option<QueueConfig>,
    /// The node of each station.
    pub stations: Vec<NodeId>,
}

#[derive(Clone, Debug)]
pub struct LinkModel {
    pub name: String,
    /// End node indices: direction 0 is a→b, direction 1 is b→a.
    pub ends: [NodeId; 2],
    pub duplex: Duplex,
    pub dirs: [DirModel; 2],
}

impl LinkModel {
    /// Whether both its directions are carried by a circuit (RLP or
    /// AIRMAIL) among `media`: outages and mobility take such a link as
    /// they take a point-to-point one.
    pub fn carried_by_circuit(&self, media: &[MediumModel]) -> bool {
        self.dirs.iter().all(|d| d.medium.is_some_and(|h| media[h.medium as usize].circuit.is_some()))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// Send this many bytes, then finish.
    Bulk { bytes: u64 },
    /// Send without end for this long, in ns.
    Timed { duration_ns: u64 },
}

#[derive(Clone, Debug)]
pub struct FlowModel {
    pub name: String,
    pub from: NodeId,
    pub to: NodeId,
    pub start: Time,
    /// When set, the start is drawn per seed uniformly in [start, start_max].
    pub start_max: Option<Time>,
    /// Start `start` after this model flow completes (instead of at `start`).
    pub start_after: Option<u32>,
    pub workload: Workload,
    /// Tick phases are drawn per host at build time; these hold zero phases.
    pub sender: SenderConfig,
    pub receiver: ReceiverConfig,
    pub header_bytes: u32,
    pub ack_bytes: u32,
    /// ELN marks generated at the base station: set to the node before the
    /// receiver once routes are known.
    pub eln_at_base_station: bool,
    pub eln_node: Option<NodeId>,
    /// A snoop-family agent, from the flow's scheme; its node once routes
    /// are known: where the flow's data goes onto its wireless hop (see
    /// `snoop_node`: the base station, or an uplink's mobile sender).
    pub snoop: Option<SnoopConfig>,
    pub snoop_node: Option<NodeId>,
    /// On a flow to a mobile host: the flow's snoop agent sits on each of
    /// its other stations too (each with its own cache, empty until the
    /// mobile host is attached there: a hard handoff; or primed from the
    /// buffering stations' copies, `snoop_group`).
    pub snoop_followers: Vec<NodeId>,
    /// Snoop's multicast handoff (`[[mobility]] snoop_handoff`): the node
    /// where the flow's paths to the stations part, which keeps the
    /// buffering stations' copies, and how many packets they keep.
    pub snoop_group: Option<(NodeId, usize)>,
    /// With `snoop`: the agent also tells the source its link is bad
    /// (schemes `ebsn`, `ecn-bs`).
    pub bad_state: Option<BadStateNotice>,
    /// A split connection at the base station (schemes `split`,
    /// `split-smart`); its node once routes are known.
    pub split: Option<SplitModel>,
    pub split_node: Option<NodeId>,
    /// Snoop's NACKs for data from the mobile host (scheme `snoop-nack`);
    /// its node once routes are known: the far end of the sender's first
    /// hop (the mobile sender's base station).
    pub nack: Option<SnoopNackConfig>,
    pub nack_node: Option<NodeId>,
    /// Not TCP: a Pareto on/off source of datagrams ([`crate::traffic`]).
    pub pareto: Option<ParetoConfig>,
    /// A part of a `wap` workload ([`crate::traffic::wap`]): its session,
    /// or a TCP connection the session starts per page (never at the
    /// flow's start).
    pub wap: Option<crate::traffic::wap::WapRole>,
    /// The sender's response to LL-ELSN notices (seed 004 Sec. 4).
    pub ll_elsn: Option<LlElsnConfig>,
    /// Freeze-TCP at the receiver: how long before each outage on the
    /// flow's path it is told of it ([`crate::scenario::schema::FreezeSpec`]).
    pub freeze_warning: Option<Time>,
    /// Fast-retransmit handoff at the flow's mobile end (Caceres and
    /// Iftode 1995; [`crate::scenario::schema::TcpSpec::frho`]).
    pub frho: bool,
}

/// A `wap` flow's model flows (the file's `flows[i]`, resolved as `base`
/// with settings `cfg`, its session to be model flow `first`): the session
/// (WAP: from the handset to the gateway, its datagrams' path; HTTP: from
/// the handset to the server, no packets of its own), then the request's
/// TCP connection (with a handshake) and the response's (none), which the
/// session starts per page ([`crate::traffic::wap`]).
fn wap_flows(
    fl: &FlowSpec,
    i: usize,
    base: &FlowModel,
    cfg: crate::traffic::wap::WapConfig,
    first: u32,
    node_index: &dyn Fn(&str) -> Option<NodeId>,
) -> Result<Vec<FlowModel>, ScenarioError> {
    use crate::traffic::wap::{Protocol, WapRole};
    check(fl.copies == 1, || format!("flows[{i}].copies"), "a wap workload is one handset: copies must be 1")?;
    check(fl.start_after.is_none(), || format!("flows[{i}].start_after"), "a wap workload starts at start_s")?;
    let spec = fl.wap.as_ref().expect("a wap flow");
    let gw = node_index(&spec.gateway).ok_or_else(|| {
        ScenarioError::new(format!("flows[{i}].wap.gateway"), format!("no node named '{}'", spec.gateway))
    })?;
    check(
        gw != base.from && gw != base.to,
        || format!("flows[{i}].wap.gateway"),
        || "must be a node other than the handset (`from`) and the server (`to`)".to_string(),
    )?;
    let (handset, server) = (base.from, base.to);
    let (client, session_to) = match cfg.protocol {
        Protocol::Wap => (gw, gw),
        Protocol::Http => (handset, server),
    };
    let conn = |suffix: &str, from: NodeId, to: NodeId, bytes: u32, handshake: bool, role: WapRole| {
        let mut m = base.clone();
        m.name = format!("{}.{suffix}", base.name);
        (m.from, m.to) = (from, to);
        m.workload = Workload::Bulk { bytes: u64::from(bytes) };
        m.sender.total_bytes = Some(u64::from(bytes));
        m.sender.handshake = handshake;
        m.wap = Some(role);
        m
    };
    Ok(vec![
        FlowModel { to: session_to, ..base.clone() },
        conn("request", client, server, cfg.request_bytes, true, WapRole::Request { session: first }),
        conn("response", server, client, cfg.response_bytes, false, WapRole::Response { session: first }),
    ])
}

/// Each split flow and its wireless leg's connection: the legs follow the
/// flows, in the order of their flows ([`Model::paths`]).
pub fn split_legs(flows: &[FlowModel]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let n = flows.len();
    flows.iter().enumerate().filter(|(_, f)| f.split.is_some()).enumerate().map(move |(k, (fi, _))| (fi, n + k))
}

/// The base station's side of a split connection (seed 000 Sec. III-C).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitModel {
    /// Sender variant of the wireless connection (Reno: SPLIT; SMART:
    /// SPLIT-SMART).
    pub wireless: Variant,
    /// Relay buffer between the two connections, in bytes.
    pub buffer_bytes: u64,
    /// M-TCP's supervisor host ([`crate::schemes`]'s `m-tcp`).
    pub mtcp: bool,
    /// MTCP's MHP over SRP on the wireless side ([`crate::schemes`]'s
    /// `mtcp` with `transport = "srp"`): the wireless leg's transport is
    /// SRP, not TCP.
    pub mhp: Option<MhpModel>,
}

/// MTCP's wireless side over SRP (`world::mhp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MhpModel {
    /// Payload bytes per wireless segment.
    pub mss_wireless: u32,
    pub srp: lasthop_net::arq::srp::SrpConfig,
}

#[derive(Clone, Debug)]
pub struct Model {
    pub name: String,
    /// Node names, shared with [`Labels::nodes`].
    pub nodes: Arc<[String]>,
    /// The scenario's links, then one per hop of each medium.
    pub links: Vec<LinkModel>,
    pub media: Vec<MediumModel>,
    pub flows: Vec<FlowModel>,
    pub stop: Time,
    /// The run fails once it has processed this many events (`u64::MAX`: no limit).
    pub max_events: u64,
    /// Per connection, the path of its data and the path of its acks. The
    /// connections are the flows in order (a split flow's wired leg, from
    /// the source to the base station, in its place), then the wireless legs
    /// of split flows, in flow order.
    pub paths: Vec<[Path; 2]>,
    pub published: Option<PublishedRef>,
    /// ACK reconstructors, one per connection whose acks cross a link
    /// direction with `ack_reconstruction`, in connection order (then along
    /// the ack path).
    pub ack_recons: Vec<AckReconsPlacement>,
    /// The names every run reports, made once.
    pub labels: Labels,
    /// Each flow's [`Model::k`] with its own receiver's timestamps option,
    /// made once with the model (a run's summary reports it; from the
    /// model's link records, it cost a summary of 5,000 flows a
    /// millisecond).
    pub k_of_flows: Vec<f64>,
    /// Scheduled link outages, one per `outages` entry.
    pub outages: Vec<OutageModel>,
    /// Scheduled rate changes, one per link direction of each entry.
    pub rate_changes: Vec<RateChangeModel>,
    /// Scheduled changes of link directions' error models, in entry order.
    pub error_changes: Vec<ErrorChangeModel>,
    /// Mobile hosts and their stations (`[[mobility]]`).
    pub mobility: Vec<MobilityModel>,
}

/// The names a run reports, made when the scenario loads and shared by
/// every run (see [`Label`]).
#[derive(Clone, Debug, Default)]
pub struct Labels {
    /// Per model flow.
    pub flows: Vec<Label>,
    /// Per link.
    pub links: Vec<Label>,
    /// Per link direction (2·link + dir): "a->b", where the direction's
    /// name is made ([`Model::dir_name`] reads it).
    pub dirs: Vec<Label>,
    /// Per link direction: "link:a->b", as drop traces name directions.
    pub link_dirs: Arc<[String]>,
    pub nodes: Arc<[String]>,
}

impl Labels {
    /// One allocation per name (a million links' labels are some 4
    /// million strings: issue 31).
    fn of(m: &Model) -> Labels {
        let mut dirs = Vec::with_capacity(2 * m.links.len());
        let mut link_dirs = Vec::with_capacity(2 * m.links.len());
        for l in &m.links {
            for d in 0..2 {
                let (from, to) = (&m.nodes[l.ends[d] as usize], &m.nodes[l.ends[1 - d] as usize]);
                let mut s = String::with_capacity(l.name.len() + 1 + from.len() + 2 + to.len());
                s.push_str(&l.name);
                s.push(':');
                s.push_str(from);
                s.push_str("->");
                s.push_str(to);
                dirs.push(Label::from(&s[l.name.len() + 1..]));
                link_dirs.push(s);
            }
        }
        Labels {
            flows: m.flows.iter().map(|f| Label::from(f.name.as_str())).collect(),
            links: m.links.iter().map(|l| Label::from(l.name.as_str())).collect(),
            link_dirs: link_dirs.into(),
            dirs,
            nodes: m.nodes.clone(),
        }
    }
}

/// An ACK reconstructor of one connection at the far end of a link direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AckReconsPlacement {
    /// The connection (index into `Model::paths`; its packets' flow id).
    pub conn: u32,
    /// Where acks come out of the link direction.
    pub node: NodeId,
    pub cfg: AckReconsConfig,
}

/// The published cell a run is compared with.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedRef {
    pub source: String,
    /// "key=value" of the parameter that selected the cell.
    pub selector: String,
    pub cell: PublishedCell,
    pub flow: usize,
    pub wireless_link: Option<usize>,
    pub wired_link: Option<usize>,
}

/// The medium carrying route hop `h`, if a medium carries it.
pub fn medium_of(links: &[LinkModel], h: &Hop) -> Option<MediumHop> {
    links[h.link as usize].dirs[usize::from(h.dir)].medium
}

/// Where flow `i`'s snoop-family agent sits: the node that sends its data
/// onto its wireless hop. Seed 000's agent "maintains a cache of TCP segments
/// sent across the link" at the base station (Sec. II); seed 004 runs it at
/// the access point downlink and, uplink, "at the wireless station by
/// symmetric operation" (Sec. 5.2), which is the sender itself. With media,
/// the wireless hop is the data path's first hop carried by one (the access
/// point's downlink, the station's uplink); a flow that crosses none has
/// nothing to snoop on. Without media the scenario is seed 000's
/// point-to-point model, whose wireless link is the path's last hop (its
/// mobile host receives): the agent is at the base station, the node
/// before the receiver (`base_station`), as it always was there.
fn snoop_node(
    data: &[Hop],
    base_station: Option<NodeId>,
    links: &[LinkModel],
    no_media: bool,
    i: usize,
) -> Result<NodeId, ScenarioError> {
    let field = format!("flows[{i}].scheme");
    if no_media {
        return base_station.ok_or_else(|| {
            ScenarioError::new(field, "a link-layer scheme needs a base station between sender and receiver")
        });
    }
    data.iter().find(|h| medium_of(links, h).is_some()).map(|h| h.node).ok_or_else(|| {
        ScenarioError::new(
            field,
            "a link-layer scheme needs a wireless hop, and the flow's data path crosses no medium",
        )
    })
}

/// Segments from the mobile host past an open hole before the base station
/// NACKs (scheme `snoop-nack`): \[I\] the fast retransmit's threshold
/// (elaarag-002.md Sec. 1.7; the snoop paper gives none).
const NACK_THRESHOLD_PACKETS: u32 = 3;

/// Round trips of the mobile sender's wireless hop without a new segment,
/// a hole open, before the base station NACKs (scheme `snoop-nack`): \[I\]
/// the snoop paper's "a certain amount of time" (elaarag-002.md Sec. 1.7).
const NACK_IDLE_RTTS: f64 = 2.0;

/// Largest IPv4 datagram (RFC 791's 16-bit total length): no packet is larger.
const MAX_PACKET_BYTES: u32 = 65_535;

/// Largest base-station processing latency, in microseconds (1 s: far
/// beyond any per-packet processing, short of a run's own scale).
const MAX_PROCESSING_US: f64 = 1e6;

/// Largest bulk transfer: sequence numbers are u64 and must never wrap.
const MAX_FLOW_BYTES: u64 = 1 << 60;
/// The most flows a scenario can have at all, whatever its `limits` say.
const MAX_FLOWS: usize = 1 << 20;
/// The most flows a scenario has unless its `limits.flows` says more (see
/// [`crate::scenario::schema::LimitsSpec`]).
const DEFAULT_MAX_FLOWS: usize = 100_000;

/// At most this many nodes: node ids are 32 bits ([`NodeId`]), and a pcap
/// capture gives each node an address of 10.0.0.0/8, which holds 2^24 - 2
/// hosts ([`crate::pcap::node_ip`]).
pub const MAX_NODES: usize = (1 << 24) - 2;

fn check_node_count(n: usize) -> Result<(), ScenarioError> {
    check(n <= MAX_NODES, "nodes", || format!("too many nodes: {n} (at most {MAX_NODES})"))
}

impl Model {
    /// The run has a schedule of changes (outages, handoffs, rate changes):
    /// a timer key for it, and the world's `Outages`.
    pub fn has_schedule(&self) -> bool {
        !self.outages.is_empty()
            || !self.mobility.is_empty()
            || !self.rate_changes.is_empty()
            || !self.error_changes.is_empty()
    }

    pub fn from_file(f: &ScenarioFile) -> Result<Model, ScenarioError> {
        positive(f.stop_s, "stop_s")?;
        check(f.stop_s <= MAX_STOP_S, "stop_s", || format!("must be at most {MAX_STOP_S} s"))?;
        check(f.max_events != Some(0), "max_events", "must be at least 1")?;
        let (nodes, named, media_specs) = expand_topology(f)?;
        check_node_count(nodes.len())?;
        // Name look-ups through hash maps (never iterated: order stays the file's).
        let mut by_name: HashMap<&str, NodeId> = HashMap::with_capacity_and_hasher(nodes.len(), Default::default());
        for (i, n) in nodes.iter().enumerate() {
            check(!n.is_empty(), || format!("nodes[{i}].name"), "must not be empty")?;
            check(
                by_name.insert(n, i as NodeId).is_none(),
                || format!("nodes[{i}].name"),
                || format!("duplicate node '{n}'"),
            )?;
        }
        let node_index = |name: &str| by_name.get(name).copied();
        let mut links = Vec::with_capacity(named.len());
        let mut link_names = HashSet::with_capacity_and_hasher(named.len(), Default::default());
        for l in &named {
            check(link_names.insert(&*l.name), || format!("{}.name", l.path), "duplicate link name")?;
            let a = node_index(&l.a)
                .ok_or_else(|| ScenarioError::new(format!("{}.a", l.path), format!("no node named '{}'", l.a)))?;
            let b = node_index(&l.b)
                .ok_or_else(|| ScenarioError::new(format!("{}.b", l.path), format!("no node named '{}'", l.b)))?;
            check(a != b, || format!("{}.b", l.path), "a link must join two different nodes")?;
            let ab = dir_params(l.spec, l.spec.ab.as_ref(), &l.path, "ab")?;
            let ba = dir_params(l.spec, l.spec.ba.as_ref(), &l.path, "ba")?;
            let duplex = match l.spec.duplex {
                DuplexSpec::Full => Duplex::Full,
                DuplexSpec::Half => Duplex::Half,
            };
            links.push(LinkModel { name: l.name.to_string(), ends: [a, b], duplex, dirs: [ab, ba] });
        }
        let media = media_links(&media_specs, &node_index, &mut links)?;
        // Link directions a medium carries.
        for (li, nl) in named.iter().enumerate() {
            for (d, (dir, o)) in [("ab", &nl.spec.ab), ("ba", &nl.spec.ba)].into_iter().enumerate() {
                let Some(name) = o.as_ref().and_then(|o| o.medium.as_ref()) else { continue };
                let at = format!("{}.{dir}.medium", nl.path);
                let mi = media
                    .iter()
                    .position(|m| &m.name == name)
                    .ok_or_else(|| ScenarioError::new(&at, format!("no medium named '{name}'")))?;
                let m = &media[mi];
                let ends = links[li].ends;
                let station = |n: NodeId| station_on(&m.stations, n, &nodes[n as usize], name, &at);
                let (from, to) = (station(ends[d])?, station(ends[1 - d])?);
                let own = o.as_ref().expect("has a medium");
                check(
                    own.queue.is_none(),
                    || format!("{}.{dir}.queue", nl.path),
                    "a medium's direction queues in its radios: set the medium's radio.queue",
                )?;
                check(
                    links[li].dirs[d].emulation_tick_ns.is_none(),
                    || format!("{}.{dir}.emulation", nl.path),
                    "a direction a medium carries has no link emulator",
                )?;
                check(
                    links[li].dirs[d].rate_trace.is_none(),
                    || format!("{}.{dir}.rate_trace_ms", nl.path),
                    "a direction a medium carries takes the radio's rate, not a trace",
                )?;
                // A circuit's rate, delay and queue are its own, not the radio's.
                let (bps, delay_ns, queue) = match &m.circuit {
                    Some(c) => (c.bandwidth_bps, c.delay_ns, c.queue_packets),
                    None => (m.radio.bandwidth_bps, m.radio.propagation_ns, m.radio.queue_packets),
                };
                let dm = &mut links[li].dirs[d];
                dm.params.bandwidth_bps = bps;
                dm.params.delay_ns = delay_ns;
                dm.params.queue = QueueLimit { packets: Some(queue), bytes: None };
                dm.queue = None;
                dm.medium = Some(MediumHop { medium: mi as u32, from, to });
            }
        }
        check(!f.flows.is_empty(), "flows", "a scenario needs at least one flow")?;
        let mut flows = Vec::new();
        let mut flow_names = HashSet::with_capacity_and_hasher(f.flows.len(), Default::default());
        // Per flow of the file: its first model flow and its copies.
        let mut expanded: Vec<(u32, u32)> = Vec::with_capacity(f.flows.len());
        let max_flows = match f.limits.flows {
            Some(n) => {
                check((1..=MAX_FLOWS as u64).contains(&u64::from(n)), "limits.flows", || {
                    format!("must be in 1..={MAX_FLOWS}, got {n}")
                })?;
                n as usize
            }
            None => DEFAULT_MAX_FLOWS,
        };
        let limit_text = match f.limits.flows {
            Some(n) => format!("limits.flows is {n}"),
            None => format!(
                "the default limit is {DEFAULT_MAX_FLOWS}, about 5.7 KB of memory each; set limits.flows (at most {MAX_FLOWS}) to allow more"
            ),
        };
        check(f.flows.len() <= max_flows, "flows", || format!("too many flows: {} ({limit_text})", f.flows.len()))?;
        for (i, fl) in f.flows.iter().enumerate() {
            check(flow_names.insert(fl.name.as_str()), || format!("flows[{i}].name"), "duplicate flow name")?;
            check(fl.copies >= 1, || format!("flows[{i}].copies"), "must be at least 1")?;
            check(fl.first_copy >= 1, || format!("flows[{i}].first_copy"), "must be at least 1")?;
            debug_assert!(fl.replace.is_none(), "the loader expands `replace`");
            // Checked before the copies are made: a million of them take 5.7 GB.
            let total = flows.len() as u64 + u64::from(fl.copies);
            check(
                total <= max_flows as u64,
                || format!("flows[{i}].copies"),
                || format!("{} copies make {total} flows, too many ({limit_text})", fl.copies),
            )?;
            let per_copy = per_copy_ends(fl);
            let (from, to) = flow_ends(fl, i, 0, per_copy, &node_index)?;
            let base = flow_model(fl, i, from, to)?;
            if let Some(crate::traffic::wap::WapRole::Session(cfg)) = base.wap {
                let first = flows.len() as u32;
                flows.extend(wap_flows(fl, i, &base, cfg, first, &node_index)?);
                expanded.push((first, 3)); // its session and two connections
            } else if let Some(after) = &fl.start_after {
                let at = format!("flows[{i}].start_after");
                check(fl.start_max_s.is_none(), &at, "conflicts with start_max_s (the start follows the named flow)")?;
                let t = f.flows[..i].iter().position(|g| &g.name == after).ok_or_else(|| {
                    ScenarioError::new(
                        &at,
                        format!("no earlier flow named '{after}' (a flow follows one listed before it)"),
                    )
                })?;
                let (first, n) = expanded[t];
                check(n == 1 || n == fl.copies, &at, || {
                    format!("'{after}' has {n} copies and this flow {}: give both the same number", fl.copies)
                })?;
                expanded.push((flows.len() as u32, fl.copies));
                for c in 0..fl.copies {
                    let target = if n == 1 { first } else { first + c };
                    flows.push(FlowModel { start_after: Some(target), ..base.clone() });
                }
            } else {
                expanded.push((flows.len() as u32, fl.copies));
                for _ in 0..fl.copies {
                    flows.push(base.clone());
                }
            }
            if fl.copies > 1 {
                let n = flows.len();
                for (c, m) in flows[n - fl.copies as usize..].iter_mut().enumerate() {
                    m.name = format!("{}#{c}", fl.name);
                    if per_copy && c > 0 {
                        (m.from, m.to) = flow_ends(fl, i, c as u32, per_copy, &node_index)?;
                    }
                }
            }
            // A flow that starts once the run is over would silently report nothing.
            check(
                fl.start_s < f.stop_s,
                || format!("flows[{i}].start_s"),
                || format!("must be before stop_s ({} s), got {}", f.stop_s, fl.start_s),
            )?;
            if let Some(hi) = fl.start_max_s {
                check(
                    hi < f.stop_s,
                    || format!("flows[{i}].start_max_s"),
                    || format!("must be before stop_s ({} s), got {}", f.stop_s, hi),
                )?;
            }
        }
        let stop = Time::from_secs_f64(f.stop_s);
        let mut mobility = mobility::mobility(&f.mobility, &node_index, &links, &media, stop)?;
        // A mobile host's routes go through the station it starts at.
        let masked = mobility::masked_links(&mobility, links.len());
        let mut router = Router::without(nodes.len(), links.iter().map(|l| l.ends), &masked);
        let mobile_end = |ms: &[MobilityModel], fl: &FlowModel| {
            [fl.to, fl.from].into_iter().find_map(|n| mobility::mobile_entry(ms, n).map(|m| (m, n)))
        };
        let mut paths = Vec::with_capacity(flows.len());
        let mut leg_paths = Vec::new();
        // The file's flow each model flow comes from (copies share one).
        let spec_of: Vec<usize> =
            expanded.iter().enumerate().flat_map(|(si, &(_, n))| std::iter::repeat_n(si, n as usize)).collect();
        for (mi, fl) in flows.iter_mut().enumerate() {
            let i = spec_of[mi];
            let no_route = || {
                let (a, b) = (&nodes[fl.from as usize], &nodes[fl.to as usize]);
                ScenarioError::new(format!("flows[{i}].to"), format!("no route between '{a}' and '{b}'"))
            };
            if let Some((_, node)) = mobile_end(&mobility, fl) {
                let p = |f: &str| format!("flows[{i}].{f}");
                let other = if node == fl.to { fl.from } else { fl.to };
                check(mobility::mobile_entry(&mobility, other).is_none(), || p("to"), "both ends are mobile hosts")?;
                // Base-station agents stay where they were placed: they
                // would not follow the mobile host to its next station. A
                // split connection's state moves with it (I-TCP's handoff)
                // to a mobile receiver; M-TCP's supervisor host does not.
                check(
                    fl.nack.is_none() && !fl.eln_at_base_station,
                    || p("scheme"),
                    "a base-station agent does not follow a mobile host between stations (end-to-end, split and snoop schemes only)",
                )?;
                check(
                    fl.snoop.is_none() || node == fl.to,
                    || p("scheme"),
                    "snoop follows a mobile receiver only (a mobile sender's snoop is not built)",
                )?;
                if let Some(split) = fl.split {
                    check(!split.mtcp, || p("scheme"), "m-tcp's supervisor host does not follow a mobile host between stations (its handoff is not built)")?;
                    check(node == fl.to, || p("scheme"), "I-TCP's handoff moves a split connection to a mobile receiver only (a mobile sender's split is not built)")?;
                    check(
                        !fl.frho,
                        || p("tcp.frho"),
                        "fast-retransmit handoff with a split connection (I-TCP's move restarts the wireless sender itself)",
                    )?;
                }
            }
            let data = router.path(fl.from, fl.to).ok_or_else(no_route)?;
            let acks = router.path(fl.to, fl.from).ok_or_else(no_route)?;
            // The base station is the last node before the receiver.
            let base_station = (data.len() > 1).then(|| data[data.len() - 1].node);
            if fl.eln_at_base_station {
                check(
                    base_station.is_some(),
                    || format!("flows[{i}].tcp.eln_generator"),
                    "base_station needs a node between sender and receiver",
                )?;
                fl.eln_node = base_station;
            }
            // LL-ELSN notices come only from a link layer that sends them:
            // a sender waiting for them elsewhere would silently be plain SACK.
            let notified = |path: &Path| {
                path.iter().any(|h| medium_of(&links, h).is_some_and(|m| media[m.medium as usize].ll_elsn))
            };
            check(
                fl.ll_elsn.is_none() || notified(&data),
                || format!("flows[{i}].tcp.ll_elsn"),
                "the flow's data crosses no link layer that notifies (an 802.11 medium with ll_elsn = true)",
            )?;
            let rto_floor_ns = fl.sender.rto.min_ns.max(fl.sender.rto.granularity_ns);
            if let (Some(cfg), Some(None)) =
                (fl.ll_elsn.as_mut(), f.flows[i].tcp.ll_elsn.as_ref().map(|l| l.ersn_max_deferrals))
            {
                cfg.ersn_max_deferrals = data
                    .iter()
                    .filter_map(|h| medium_of(&links, h))
                    .filter(|m| media[m.medium as usize].ll_elsn)
                    .filter_map(|m| media[m.medium as usize].dcf)
                    .map(|d| ersn_deferral_bound(d.retry_limit, d.ll_retransmission_delay_ns, rto_floor_ns))
                    .max()
                    .expect("a notifying 802.11 medium on the path (checked above)");
            }
            if fl.snoop.is_some() {
                // Media that carry no link direction (an idle circuit,
                // `elaarag02/link-layer`'s plain case) leave the
                // point-to-point model's rule.
                let no_media = links.iter().all(|l| l.dirs.iter().all(|d| d.medium.is_none()));
                fl.snoop_node = Some(snoop_node(&data, base_station, &links, no_media, i)?);
            }
            if let Some(cfg) = fl.nack.as_mut() {
                // The far end of the mobile sender's first hop: its base
                // station, which sees what the wireless hop delivered.
                check(
                    data.len() >= 2,
                    || format!("flows[{i}].scheme"),
                    "snoop-nack needs a base station between the mobile sender and the receiver",
                )?;
                fl.nack_node = Some(data[1].node);
                // [I] `tcp.nack_idle_rtts` (2) round trips of the wireless
                // hop (the data path's first: the mobile sender's), from its
                // delay and rates: a full segment up, an ack down.
                let up = &links[data[0].link as usize].dirs[usize::from(data[0].dir)].params;
                let down = &links[data[0].link as usize].dirs[1 - usize::from(data[0].dir)].params;
                let tx = |bytes: u64, bps: u64| (bytes * 8 * NS_PER_S).div_ceil(bps.max(1));
                let segment = u64::from(fl.sender.mss_bytes) + u64::from(fl.header_bytes);
                let rtt = up.delay_ns
                    + down.delay_ns
                    + tx(segment, up.bandwidth_bps)
                    + tx(u64::from(cfg.ack_bytes), down.bandwidth_bps);
                let idle_rtts = f.flows[i].tcp.nack_idle_rtts.unwrap_or(NACK_IDLE_RTTS);
                cfg.idle_ns = (idle_rtts * rtt as f64).round() as u64;
            }
            if fl.split.is_some() {
                check(
                    base_station.is_some(),
                    || format!("flows[{i}].scheme"),
                    "a split-connection scheme needs a base station between sender and receiver",
                )?;
                fl.split_node = base_station;
            }
            match (fl.split, base_station) {
                (Some(_), Some(bs)) => {
                    // Wired leg: source to base station; wireless leg after the flows.
                    let route = |r: &mut Router, a, b| r.path(a, b).expect("on a connected path");
                    paths.push([route(&mut router, fl.from, bs), route(&mut router, bs, fl.from)]);
                    leg_paths.push([route(&mut router, bs, fl.to), route(&mut router, fl.to, bs)]);
                }
                _ => paths.push([data, acks]),
            }
        }
        paths.extend(leg_paths);
        // Split legs carry their model flow's segments.
        let mss_of = |c: usize| {
            let m =
                if c < flows.len() { c } else { split_legs(&flows).find(|&(_, leg)| leg == c).map_or(0, |(i, _)| i) };
            flows[m].sender.mss_bytes
        };
        let ack_recons = place_ack_recons(&named, &links, &paths, &mss_of)?;
        if !mobility.is_empty() {
            let mut wired = mobility::wired_router(nodes.len(), &links, &mobility);
            mobility::registrations(&f.mobility, &mut mobility, &node_index, &links, &mut wired)?;
            mobility::check_spacing(&mobility)?;
            // Snoop on a flow to a mobile host sits on each of its stations.
            for fl in flows.iter_mut().filter(|fl| fl.snoop.is_some()) {
                if let Some((mi, _)) = mobile_end(&mobility, fl) {
                    let at = fl.snoop_node;
                    fl.snoop_followers =
                        mobility[mi].stations.iter().map(|s| s.node).filter(|&n| Some(n) != at).collect();
                }
            }
            let legs: Vec<(usize, usize)> = split_legs(&flows).collect();
            for (c, fl) in flows.iter().enumerate() {
                let Some((mi, _)) = mobile_end(&mobility, fl) else { continue };
                if fl.split.is_some() {
                    // I-TCP: the wired leg to each station, the wireless leg
                    // over each station's link.
                    let leg = legs.iter().find(|&&(f, _)| f == c).expect("a split flow has a leg").1;
                    let m = &mut mobility[mi];
                    let mut wired_alts = Vec::with_capacity(m.stations.len());
                    for s in 0..m.stations.len() {
                        let node = m.stations[s].node;
                        let route = |w: &mut Router, a, b| w.path(a, b);
                        let (Some(data), Some(acks)) =
                            (route(&mut wired, fl.from, node), route(&mut wired, node, fl.from))
                        else {
                            return Err(ScenarioError::new(
                                format!("mobility[{mi}].stations[{s}]"),
                                format!("no wired route from the station to flow '{}'s other end", fl.name),
                            ));
                        };
                        wired_alts.push([data, acks]);
                    }
                    let leg_alts: Vec<[Path; 2]> = (0..m.stations.len()).map(|s| mobility::leg_paths(m, s)).collect();
                    debug_assert_eq!(wired_alts[m.initial], paths[c], "the wired leg starts at the initial station");
                    debug_assert_eq!(leg_alts[m.initial], paths[leg], "the wireless leg starts at the initial station");
                    m.conns.push((c as u32, wired_alts));
                    m.conns.push((leg as u32, leg_alts));
                    m.splits.push((c as u32, leg as u32));
                    continue;
                }
                let m = &mobility[mi];
                let mut alts = Vec::with_capacity(m.stations.len());
                for s in 0..m.stations.len() {
                    let p = mobility::paths_from_station(m, s, fl.from, fl.to, &mut wired).ok_or_else(|| {
                        ScenarioError::new(
                            format!("mobility[{mi}].stations[{s}]"),
                            format!("no wired route from the station to flow '{}'s other end", fl.name),
                        )
                    })?;
                    alts.push(p);
                }
                debug_assert_eq!(alts[m.initial], paths[c], "the start's routes go through the initial station");
                mobility[mi].conns.push((c as u32, alts));
            }
            for (mi, m) in mobility.iter_mut().enumerate() {
                check(
                    !m.link_transfer || m.splits.is_empty(),
                    || format!("mobility[{mi}].link_handoff"),
                    "transfer with a split flow to the mobile host: I-TCP moves its own state",
                )?;
                if !m.splits.is_empty() || m.link_transfer {
                    m.station_paths = mobility::station_paths(m, mi, &mut wired)?;
                }
            }
            for (mi, m) in mobility.iter().enumerate() {
                let Some(n) = m.multicast else { continue };
                let mut any = false;
                for (c, alts) in &m.conns {
                    let fl = &mut flows[*c as usize];
                    if fl.snoop.is_none() {
                        continue;
                    }
                    check(
                        fl.bad_state.is_none(),
                        || format!("mobility[{mi}].snoop_handoff"),
                        || {
                            format!("flow '{}': the multicast handoff is built for the snoop schemes, not for EBSN or ECN at the base station", fl.name)
                        },
                    )?;
                    fl.snoop_group = Some((mobility::branching_node(alts), n));
                    any = true;
                }
                check(
                    any,
                    || format!("mobility[{mi}].snoop_handoff"),
                    "multicast needs a snoop flow to the mobile host",
                )?;
            }
        }
        let outages = outages::outages(&f.outages, &links, &media, stop)?;
        let rate_changes = outages::rate_changes(&f.rate_changes, &links)?;
        let error_changes = outages::error_changes(&f.error_changes, &links)?;
        for (k, o) in outages.iter().enumerate() {
            let mine = mobility.iter().find(|m| m.stations.iter().any(|s| s.link == o.link));
            check(
                mine.is_none(),
                || format!("outages[{k}].link"),
                || "a mobile host's link to a station: its handoffs take it down and up ([[mobility]])".to_string(),
            )?;
        }
        for p in &ack_recons {
            let mobile = mobility.iter().any(|m| m.conns.iter().any(|(c, _)| *c == p.conn));
            check(!mobile, "mobility", || {
                format!("ACK reconstruction on connection {} would not follow its mobile host between stations", p.conn)
            })?;
        }
        let mobile = |fi: usize| mobile_end(&mobility, &flows[fi]).is_some();
        outages::check_freeze(&flows, &expanded, &paths, &outages, &mobile)?;
        outages::check_frho(&flows, &expanded, &paths, &outages, &links, &mobile)?;
        let published = published_ref(f, &links, &expanded)?;
        let mut model = Model {
            name: f.name.clone(),
            nodes: nodes.into(),
            links,
            media,
            flows,
            stop: Time::from_secs_f64(f.stop_s),
            max_events: f.max_events.unwrap_or(u64::MAX),
            paths,
            published,
            ack_recons,
            labels: Labels::default(),
            k_of_flows: Vec::new(),
            outages,
            rate_changes,
            error_changes,
            mobility,
        };
        model.apply_mutations(&f.mutations);
        model.labels = Labels::of(&model);
        model.k_of_flows = (0..model.flows.len()).map(|fi| model.k(fi, model.flows[fi].receiver.timestamps)).collect();
        Ok(model)
    }

    /// Breaks the mechanisms `mutations` names (mutation tests only).
    fn apply_mutations(&mut self, mutations: &[Mutation]) {
        for m in mutations {
            match m {
                Mutation::AckFilterOff => {
                    let queues =
                        self.links.iter_mut().flat_map(|l| l.dirs.iter_mut()).filter_map(|d| d.queue.as_deref_mut());
                    for q in queues.chain(self.media.iter_mut().filter_map(|m| m.queue.as_mut())) {
                        q.ack_filter = false;
                        q.ack_filter_position = None;
                    }
                }
                Mutation::ErsnIgnored => self.flows.iter_mut().for_each(|f| f.sender.mutations.ignore_ersn = true),
                Mutation::SnoopNeverRetransmits => {
                    self.flows.iter_mut().filter_map(|f| f.snoop.as_mut()).for_each(|s| s.local_retransmits = false)
                }
                Mutation::ElnIgnored => self.flows.iter_mut().for_each(|f| {
                    f.sender.eln = ElnResponse::Off;
                    f.sender.mutations.ignore_link_eln = true;
                }),
                Mutation::SmartEchoIgnored => self.flows.iter_mut().for_each(|f| {
                    f.sender.mutations.ignore_smart_echo = true;
                    if let Some(s) = f.snoop.as_mut() {
                        s.smart = false;
                    }
                }),
            }
        }
    }

    /// The normalized bandwidth ratio of seed 001 Sec. 4.2 for flow `fi`:
    /// k = (C_fwd · S_ack) / (C_rev · S_data), C_fwd and C_rev the slowest
    /// link directions of its data and ack paths, S_data a full-sized
    /// segment with headers, S_ack a pure ack on the reverse bottleneck
    /// (compressed there if that direction compresses headers; `vj` does
    /// not compress acks that carry timestamps: `acks_carry_timestamps`).
    pub fn k(&self, fi: usize, acks_carry_timestamps: bool) -> f64 {
        let f = &self.flows[fi];
        let slowest = |path: &Path| {
            path.iter()
                .map(|h| &self.links[h.link as usize].dirs[h.dir as usize])
                .min_by_key(|d| d.params.bandwidth_bps)
                .expect("a path has at least one hop")
        };
        let [data, acks] = &self.paths[fi];
        let (fwd, rev) = (slowest(data), slowest(acks));
        let s_ack = match rev.header_compression {
            HeaderCompression::None => f.ack_bytes,
            HeaderCompression::Vj if acks_carry_timestamps => f.ack_bytes,
            HeaderCompression::Vj | HeaderCompression::Ideal => f.ack_bytes.min(COMPRESSED_ACK_BYTES),
        };
        let s_data = f.header_bytes + f.sender.mss_bytes;
        (fwd.params.bandwidth_bps as f64 * f64::from(s_ack)) / (rev.params.bandwidth_bps as f64 * f64::from(s_data))
    }

    /// "a->b" name of a link direction (made once, by [`Labels::of`]).
    pub fn dir_name(&self, link: usize, dir: usize) -> &str {
        &self.labels.dirs[2 * link + dir]
    }
}

/// `expanded[i]`: the first model flow of the file's flow `i`, and its copies.
fn published_ref(
    f: &ScenarioFile,
    links: &[LinkModel],
    expanded: &[(u32, u32)],
) -> Result<Option<PublishedRef>, ScenarioError> {
    let Some(p) = &f.published else { return Ok(None) };
    let value = f
        .params
        .get(&p.key)
        .ok_or_else(|| ScenarioError::new("published.key", format!("no parameter named '{}'", p.key)))?;
    let value = match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let flow = f
        .flows
        .iter()
        .position(|fl| fl.name == p.flow)
        .map(|si| expanded[si].0 as usize)
        .ok_or_else(|| ScenarioError::new("published.flow", format!("no flow named '{}'", p.flow)))?;
    let link = |name: &Option<String>, field: &str| -> Result<Option<usize>, ScenarioError> {
        name.as_ref()
            .map(|n| {
                links
                    .iter()
                    .position(|l| &l.name == n)
                    .ok_or_else(|| ScenarioError::new(format!("published.{field}"), format!("no link named '{n}'")))
            })
            .transpose()
    };
    let (wireless_link, wired_link) = (link(&p.wireless_link, "wireless_link")?, link(&p.wired_link, "wired_link")?);
    // A parameter value without a published cell (a scheme the paper did not
    // run in this setting) simply has nothing to compare with.
    Ok(p.cells.get(&value).map(|cell| PublishedRef {
        source: p.source.clone(),
        selector: format!("{}={value}", p.key),
        cell: cell.clone(),
        flow,
        wireless_link,
        wired_link,
    }))
}

#[cfg(test)]
mod lazy_text_tests {
    use super::links::LinkPath;
    use super::*;

    /// Issue 31: a valid value builds neither its path nor its reason.
    #[test]
    fn a_passing_check_formats_nothing() {
        let path = || -> String { panic!("path formatted for a valid value") };
        let reason = || -> String { panic!("reason formatted for a valid value") };
        check(true, path, reason).unwrap();
        positive(1.0, path).unwrap();
        duration(5.0, 1e-3, "ms", path).unwrap();
        let e = check(false, || format!("nodes[{}].name", 3), "must not be empty").unwrap_err();
        assert_eq!(e.to_string(), "nodes[3].name: must not be empty");
        let e = duration(f64::INFINITY, 1.0, "s", || "stop_s".to_string()).unwrap_err();
        assert_eq!(e.to_string(), "stop_s: must be >= 0, got inf");
    }

    /// The node limit: 2^24 - 2 pass, one more is the one-line error.
    #[test]
    fn the_node_limit_is_named_in_one_line() {
        check_node_count(MAX_NODES).unwrap();
        let e = check_node_count(MAX_NODES + 1).unwrap_err();
        assert_eq!(e.to_string(), "nodes: too many nodes: 16777215 (at most 16777214)");
        // A listed link's path is made only for its error.
        assert_eq!(LinkPath::Listed(7).to_string(), "links[7]");
        assert_eq!(LinkPath::Template("topology.first".into()).to_string(), "topology.first");
    }
}
