//! Validation: from the typed file to the resolved model the simulator
//! builds from. Every check names the field path it rejects. Templates are
//! expanded here into the general form, so nothing downstream knows them.

use super::routes::{Hop, Path, Router};
use super::schema::{
    AckPolicySpec, AckReconsSpacing, AckReconsSpec, DcfSpec, DirSpec, DuplexSpec, ElnGenerator, FlowSpec,
    HeaderCompression, LinkSpec, LlElsnResponseSpec, LlRetransmissionSpec, MacKind, MediumSpec, Mutation,
    PublishedCell, RadioSpec, ScenarioFile, Template, WlanCellSpec, COMPRESSED_ACK_BYTES,
};
use super::ScenarioError;
use crate::metrics::Label;
use crate::schemes::{self, BaseStationAgent};
use crate::traffic::ParetoConfig;
use lasthop_agents::ack_recons::{AckReconsConfig, Spacing};
use lasthop_agents::bad_state::BadStateNotice;
use lasthop_agents::snoop::SnoopConfig;
use lasthop_core::tick::KernelClock;
use lasthop_core::time::{secs_to_ns, NS_PER_MS, NS_PER_US};
use lasthop_core::{NodeId, Time};
use lasthop_net::error::ErrorModelConfig;
use lasthop_net::mac::dcf::{DcfConfig, LlRetransmission};
use lasthop_net::mac::point_to_point::{DirParams, Duplex};
use lasthop_net::mac::{RadioConfig, StationId};
use lasthop_net::queue::{QueueConfig, QueueLimit};
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

mod mobility;
mod outages;
pub use mobility::{HandoffSchedule, MobilityModel, StationModel, MAX_HANDOFFS};
pub use outages::{frho_end, outages_on, OutageModel, MAX_OUTAGES};

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
    /// Frame errors of every hop direction (each its own state and stream).
    pub error: ErrorModelConfig,
    /// Per station: whether `error` hits its frames (`error_from`).
    pub error_from: Vec<bool>,
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
    /// With `snoop`: the agent also tells the source its link is bad
    /// (schemes `ebsn`, `ecn-bs`).
    pub bad_state: Option<BadStateNotice>,
    /// A split connection at the base station (schemes `split`,
    /// `split-smart`); its node once routes are known.
    pub split: Option<SplitModel>,
    pub split_node: Option<NodeId>,
    /// Not TCP: a Pareto on/off source of datagrams ([`crate::traffic`]).
    pub pareto: Option<ParetoConfig>,
    /// The sender's response to LL-ELSN notices (seed 004 Sec. 4).
    pub ll_elsn: Option<LlElsnConfig>,
    /// Freeze-TCP at the receiver: how long before each outage on the
    /// flow's path it is told of it ([`crate::scenario::schema::FreezeSpec`]).
    pub freeze_warning: Option<Time>,
    /// Fast-retransmit handoff at the flow's mobile end (Caceres and
    /// Iftode 1995; [`crate::scenario::schema::TcpSpec::frho`]).
    pub frho: bool,
}

/// The base station's side of a split connection (seed 000 Sec. III-C).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitModel {
    /// Sender variant of the wireless connection (Reno: SPLIT; SMART:
    /// SPLIT-SMART).
    pub wireless: Variant,
    /// Relay buffer between the two connections, in bytes.
    pub buffer_bytes: u64,
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

/// An error's field path or reason, built only when the error is reported:
/// validating a million nodes must not format a million paths (issue 31).
/// A `&str`, a `String`, or a closure that formats one.
pub(crate) trait Text {
    fn text(self) -> String;
}

impl Text for &str {
    fn text(self) -> String {
        self.to_string()
    }
}

impl Text for &String {
    fn text(self) -> String {
        self.clone()
    }
}

impl Text for String {
    fn text(self) -> String {
        self
    }
}

impl<F: FnOnce() -> String> Text for F {
    fn text(self) -> String {
        self()
    }
}

fn check(ok: bool, path: impl Text, reason: impl Text) -> Result<(), ScenarioError> {
    if ok {
        Ok(())
    } else {
        Err(ScenarioError::new(path.text(), reason.text()))
    }
}

/// `x` as a user would write it: plain for everyday magnitudes, in
/// exponent form for huge or tiny ones (1e300 rather than 301 digits).
fn num(x: f64) -> String {
    let a = x.abs();
    if a != 0.0 && a.is_finite() && !(1e-4..1e15).contains(&a) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

fn positive(x: f64, path: impl Text + Copy) -> Result<(), ScenarioError> {
    check(x.is_finite() && x > 0.0, path, || format!("must be a positive number, got {}", num(x)))
}

/// A rate in bit/s: positive and at least 1 b/s (a frame's time is whole
/// nanoseconds of a finite rate).
fn bit_rate(x: f64, path: impl Text + Copy) -> Result<(), ScenarioError> {
    positive(x, path)?;
    check(x >= 1.0, path, || format!("must be at least 1 b/s, got {}", num(x)))
}

/// A size that must fit an IPv4 datagram (a MAC header, a control frame).
fn at_most_a_packet(v: u32, path: impl Text + Copy) -> Result<(), ScenarioError> {
    check(v <= MAX_PACKET_BYTES, path, || format!("must be at most {MAX_PACKET_BYTES}, got {v}"))
}

fn non_negative(x: f64, path: impl Text + Copy) -> Result<(), ScenarioError> {
    check(x.is_finite() && x >= 0.0, path, || format!("must be >= 0, got {}", num(x)))
}

/// A duration of `x` units of `unit_s` seconds each (a field in ms is
/// `duration(x, 1e-3, "ms", ..)`) within the longest run: simulated time is
/// u64 ns, and sums of longer durations would overflow it. Errors speak the
/// field's own unit.
fn duration(x: f64, unit_s: f64, unit: &str, path: impl Text + Copy) -> Result<(), ScenarioError> {
    non_negative(x, path)?;
    let most = MAX_STOP_S / unit_s;
    check(x <= most, path, || format!("must be at most {} {unit} (the longest run), got {}", num(most), num(x)))
}

fn duration_s(x: f64, path: impl Text + Copy) -> Result<(), ScenarioError> {
    duration(x, 1.0, "s", path)
}

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

/// Direction `dir` (`ab` or `ba`) of link `l` at `path`: the link's
/// values, overridden by the direction's own (`o`). An error names the
/// field where the offending value was written.
fn dir_params(l: &LinkSpec, o: Option<&DirSpec>, path: &LinkPath, dir: &str) -> Result<DirModel, ScenarioError> {
    let o = o.cloned().unwrap_or_default();
    let side = |f: &str, overridden: bool| {
        if overridden {
            format!("{path}.{dir}.{f}")
        } else {
            format!("{path}.{f}")
        }
    };
    let bw = o.bandwidth_bps.unwrap_or(l.bandwidth_bps);
    bit_rate(bw, || side("bandwidth_bps", o.bandwidth_bps.is_some()))?;
    let delay = o.delay_ms.unwrap_or(l.delay_ms);
    duration(delay, 1e-3, "ms", || side("delay_ms", o.delay_ms.is_some()))?;
    let ovh_us = o.frame_overhead_us.unwrap_or(l.frame_overhead_us);
    duration(ovh_us, 1e-6, "us", || side("frame_overhead_us", o.frame_overhead_us.is_some()))?;
    let jitter_ms = o.jitter_ms.unwrap_or(l.jitter_ms);
    duration(jitter_ms, 1e-3, "ms", || side("jitter_ms", o.jitter_ms.is_some()))?;
    let qp = o.queue_packets.or(l.queue_packets);
    let qb = o.queue_bytes.or(l.queue_bytes);
    check(qp != Some(0), || side("queue_packets", o.queue_packets.is_some()), "must be at least 1")?;
    check(qb != Some(0), || side("queue_bytes", o.queue_bytes.is_some()), "must be at least 1")?;
    let queue = if qp.is_none() && qb.is_none() {
        QueueLimit { packets: Some(DEFAULT_QUEUE_PACKETS), bytes: None }
    } else {
        QueueLimit { packets: qp, bytes: qb }
    };
    let own_error = o.error.is_some();
    let error = o.error.unwrap_or_else(|| l.error.clone());
    let at = |field: &str| side(&format!("error.{field}"), own_error);
    error.validate().map_err(|(field, reason)| ScenarioError::new(at(&field), reason))?;
    let params = DirParams {
        bandwidth_bps: bw.round().max(1.0) as u64,
        delay_ns: (delay * NS_PER_MS as f64).round() as u64,
        frame_overhead_bytes: o.frame_overhead_bytes.unwrap_or(l.frame_overhead_bytes),
        frame_overhead_ns: (ovh_us * NS_PER_US as f64).round() as u64,
        queue,
        jitter_mean_ns: (jitter_ms * NS_PER_MS as f64).round() as u64,
    };
    let error = error.resolve_packet_times(|size| params.tx_time_ns(size));
    let header_compression = o.header_compression.unwrap_or(l.header_compression);
    let own_queue = o.queue.is_some();
    let queue = o.queue.or_else(|| l.queue.clone()).map(Box::new);
    if let Some(q) = &queue {
        let at = |field: &str| side(&format!("queue.{field}"), own_queue);
        q.validate(params.queue).map_err(|(field, reason)| ScenarioError::new(at(&field), reason))?;
    }
    let own_ar = o.ack_reconstruction.is_some();
    let ack_recons = match o.ack_reconstruction.as_ref().or(l.ack_reconstruction.as_ref()) {
        Some(ar) => Some(ack_recons(ar, &side("ack_reconstruction", own_ar))?),
        None => None,
    };
    let own_emulation = o.emulation.is_some();
    let emulation_tick_ns = match o.emulation.as_ref().or(l.emulation.as_ref()) {
        Some(e) => Some(emulation_tick(e.tick_ms, l.duplex, &side("emulation", own_emulation))?),
        None => None,
    };
    Ok(DirModel { params, error, header_compression, queue, ack_recons, emulation_tick_ns, medium: None })
}

/// A kernel clock tick of `tick_ms` at `path` (an `emulation` table's or a
/// burst timer's), in ns: positive, at least 1 ns, within the longest run.
fn kernel_tick_ns(tick_ms: f64, path: &str) -> Result<u64, ScenarioError> {
    positive(tick_ms, path)?;
    duration(tick_ms, 1e-3, "ms", path)?;
    let ns = (tick_ms * NS_PER_MS as f64).round() as u64;
    check(ns >= 1, path, || format!("must be at least 1e-6 (1 ns), got {}", num(tick_ms)))?;
    Ok(ns)
}

/// The link emulator's tick at `path` (`...emulation`), on a link of `duplex`.
fn emulation_tick(tick_ms: f64, duplex: DuplexSpec, path: &str) -> Result<u64, ScenarioError> {
    check(
        duplex == DuplexSpec::Full,
        path,
        "the link emulator emulates a point-to-point link: needs duplex = \"full\"",
    )?;
    kernel_tick_ns(tick_ms, &format!("{path}.tick_ms"))
}

/// An `ack_reconstruction` table at `path`, checked (the segment size is
/// each connection's, filled in where the agents are placed).
fn ack_recons(ar: &AckReconsSpec, path: &str) -> Result<AckReconsConfig, ScenarioError> {
    check(ar.delta_a_segments >= 1, || format!("{path}.delta_a_segments"), "must be at least 1")?;
    check(
        ar.gain > 0.0 && ar.gain <= 1.0,
        || format!("{path}.gain"),
        || format!("must be in (0, 1], got {}", num(ar.gain)),
    )?;
    let spacing = match ar.spacing {
        AckReconsSpacing::Paper => Spacing::Paper,
        AckReconsSpacing::Ns2Adaptive => Spacing::Ns2Adaptive,
        AckReconsSpacing::Ns2Sample => Spacing::Ns2Sample,
    };
    Ok(AckReconsConfig { delta_a_segments: ar.delta_a_segments, gain: ar.gain, spacing, mss_bytes: 0 })
}

/// One reconstructor per connection whose acks cross a link direction with
/// ACK reconstruction, at the direction's far end; a direction (or a link)
/// that asks for it where no acks cross is an error.
fn place_ack_recons(
    named: &[NamedLink<'_>],
    links: &[LinkModel],
    paths: &[[Path; 2]],
    mss_of: &dyn Fn(usize) -> u32,
) -> Result<Vec<AckReconsPlacement>, ScenarioError> {
    let mut out = Vec::new();
    for (c, [_, acks]) in paths.iter().enumerate() {
        for hop in acks {
            let (l, d) = (&links[hop.link as usize], hop.dir as usize);
            if let Some(cfg) = l.dirs[d].ack_recons {
                let cfg = AckReconsConfig { mss_bytes: mss_of(c), ..cfg };
                out.push(AckReconsPlacement { conn: c as u32, node: l.ends[1 - d], cfg });
            }
        }
    }
    let crossed = |li: usize, d: usize| {
        paths.iter().any(|[_, acks]| acks.iter().any(|h| h.link as usize == li && h.dir as usize == d))
    };
    for (li, (nl, l)) in named.iter().zip(links).enumerate() {
        let mut from_link = false;
        for (d, (dir, o)) in [("ab", &nl.spec.ab), ("ba", &nl.spec.ba)].into_iter().enumerate() {
            if l.dirs[d].ack_recons.is_none() {
                continue;
            }
            if o.as_ref().is_some_and(|o| o.ack_reconstruction.is_some()) {
                check(
                    crossed(li, d),
                    || format!("{}.{dir}.ack_reconstruction", nl.path),
                    "no connection's acks cross this link direction",
                )?;
            } else {
                from_link |= crossed(li, d);
            }
        }
        let link_level = nl.spec.ack_reconstruction.is_some()
            && [&nl.spec.ab, &nl.spec.ba].iter().any(|o| o.as_ref().is_none_or(|o| o.ack_reconstruction.is_none()));
        check(
            !link_level || from_link,
            || format!("{}.ack_reconstruction", nl.path),
            "no connection's acks cross this link (in a direction it applies to)",
        )?;
    }
    Ok(out)
}

struct NamedLink<'a> {
    path: LinkPath,
    /// Borrowed from the file for listed links, made for a template's.
    name: Cow<'a, str>,
    a: Cow<'a, str>,
    b: Cow<'a, str>,
    spec: &'a LinkSpec,
}

/// Where a link's settings were written, as error messages name it: made
/// into text only when one is reported (a million listed links would
/// otherwise format a million paths: issue 31).
enum LinkPath {
    /// `links[i]`.
    Listed(usize),
    /// `topology.<field>` of a template.
    Template(String),
}

impl fmt::Display for LinkPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkPath::Listed(i) => write!(f, "links[{i}]"),
            LinkPath::Template(p) => f.write_str(p),
        }
    }
}

/// Nodes, links and media of the scenario, templates expanded.
/// Media come with the path their settings were written at.
type Topology<'a> = (Vec<String>, Vec<NamedLink<'a>>, Vec<(String, MediumSpec)>);

fn expand_topology<'a>(f: &'a ScenarioFile) -> Result<Topology<'a>, ScenarioError> {
    /// Link `name` from `a` to `b` of a template, whose settings are the
    /// template's field `field`.
    fn template_link<'a>(
        field: &str,
        name: String,
        a: String,
        b: String,
        spec: &'a LinkSpec,
    ) -> Result<NamedLink<'a>, ScenarioError> {
        let path = format!("topology.{field}");
        for (f, v) in [("name", &spec.name), ("a", &spec.a), ("b", &spec.b)] {
            check(v.is_none(), || format!("{path}.{f}"), "is set by the template; remove it")?;
        }
        Ok(NamedLink { path: LinkPath::Template(path), name: name.into(), a: a.into(), b: b.into(), spec })
    }
    /// A chain: link i joins nodes i and i + 1.
    fn template_links<'a>(
        names: &[&str],
        pairs: &[(&str, &'a LinkSpec)],
    ) -> Result<(Vec<String>, Vec<NamedLink<'a>>), ScenarioError> {
        debug_assert_eq!(names.len(), pairs.len() + 1);
        let mut links = Vec::new();
        for (i, &(lname, spec)) in pairs.iter().enumerate() {
            links.push(template_link(lname, lname.to_string(), names[i].to_string(), names[i + 1].to_string(), spec)?);
        }
        Ok((names.iter().map(|s| s.to_string()).collect(), links))
    }
    match &f.topology {
        Some(t) => {
            check(
                f.nodes.is_empty() && f.links.is_empty(),
                "topology",
                "give a template or nodes and links, not both",
            )?;
            let media: Vec<(String, MediumSpec)> =
                f.media.iter().enumerate().map(|(i, m)| (format!("media[{i}]"), m.clone())).collect();
            let (nodes, links) = match t {
                Template::WirelessLastHop { wired, wireless } => {
                    template_links(&["fh", "bs", "mh"], &[("wired", wired), ("wireless", wireless)])?
                }
                Template::TwoLinkPath { first, second } => {
                    template_links(&["src", "mid", "dst"], &[("first", first), ("second", second)])?
                }
                Template::WirelessCable { wired, cable, lan } => template_links(
                    &["server", "r1", "r2", "client"],
                    &[("wired", wired), ("cable", cable), ("lan", lan)],
                )?,
                Template::RadioChain { hops, wired, radio } => {
                    check(*hops >= 1, "topology.hops", "a chain needs at least one wireless hop")?;
                    check(*hops < 10_000, "topology.hops", || format!("must be below 10000, got {hops}"))?;
                    let (mut nodes, links) = template_links(&["fh", "gw"], &[("wired", wired)])?;
                    nodes.extend((1..*hops).map(|i| format!("pt{i}")));
                    nodes.push("mh".to_string());
                    check(
                        !f.media.iter().any(|m| m.name == "radio"),
                        "media",
                        "the radio_chain template names its medium 'radio'; rename yours",
                    )?;
                    let mut media = media;
                    let spec = MediumSpec {
                        name: "radio".into(),
                        stations: nodes[1..].to_vec(),
                        hops: None,
                        mac: MacKind::Radio,
                        radio: radio.clone(),
                        dcf: DcfSpec::default(),
                        ll_elsn: false,
                        ebsn: false,
                        error: ErrorModelConfig::default(),
                        error_from: None,
                    };
                    media.insert(0, ("topology".into(), spec));
                    return Ok((nodes, links, media));
                }
                Template::WlanCell(WlanCellSpec {
                    stations,
                    wired,
                    backbone,
                    dcf,
                    error,
                    ll_elsn,
                    ebsn,
                    background,
                }) => {
                    let n = *stations;
                    check(n >= 1, "topology.stations", "a cell needs at least one station")?;
                    check(n < 10_000, "topology.stations", || format!("must be below 10000, got {n}"))?;
                    check(
                        !f.media.iter().any(|m| m.name == "wlan"),
                        "media",
                        "the wlan_cell template names its medium 'wlan'; rename yours",
                    )?;
                    let (backbone, backbone_path) = match backbone {
                        Some(b) => (b, "backbone"),
                        None => (wired, "wired"),
                    };
                    let senders: Vec<String> = (1..=n).map(|i| format!("s{i}")).collect();
                    let receivers: Vec<String> = (1..=n).map(|i| format!("d{i}")).collect();
                    let mut nodes = senders.clone();
                    nodes.extend(["r".to_string(), "ap".to_string()]);
                    nodes.extend(receivers.iter().cloned());
                    let mut pairs: Vec<(String, String, String, &LinkSpec, &str)> = senders
                        .iter()
                        .enumerate()
                        .map(|(i, s)| (format!("wired{}", i + 1), s.clone(), "r".into(), wired, "wired"))
                        .collect();
                    pairs.push(("backbone".into(), "r".into(), "ap".into(), backbone, backbone_path));
                    if *background {
                        nodes.extend(["bg".to_string(), "bgsink".to_string()]);
                        pairs.push(("bg_access".into(), "bg".into(), "r".into(), wired, "wired"));
                        pairs.push(("bg_egress".into(), "ap".into(), "bgsink".into(), wired, "wired"));
                    }
                    let mut links = Vec::with_capacity(pairs.len());
                    for (name, a, b, spec, field) in pairs {
                        links.push(template_link(field, name, a, b, spec)?);
                    }
                    let mut media = media;
                    let mut cell_stations = vec!["ap".to_string()];
                    cell_stations.extend(receivers.iter().cloned());
                    let spec = MediumSpec {
                        name: "wlan".into(),
                        stations: cell_stations,
                        hops: Some(receivers.iter().map(|d| ["ap".to_string(), d.clone()]).collect()),
                        mac: MacKind::Dcf,
                        radio: RadioSpec::default(),
                        dcf: dcf.clone(),
                        ll_elsn: *ll_elsn,
                        ebsn: *ebsn,
                        error: error.clone(),
                        error_from: None,
                    };
                    media.insert(0, ("topology".into(), spec));
                    return Ok((nodes, links, media));
                }
            };
            Ok((nodes, links, media))
        }
        None => {
            check(!f.nodes.is_empty(), "nodes", "a scenario needs a topology template or nodes and links")?;
            let nodes: Vec<String> = f.nodes.iter().map(|n| n.name.clone()).collect();
            let mut links = Vec::with_capacity(f.links.len());
            for (i, l) in f.links.iter().enumerate() {
                let get = |v: &'a Option<String>, field: &str| match v {
                    Some(v) => Ok(Cow::Borrowed(v.as_str())),
                    None => Err(ScenarioError::new(format!("links[{i}].{field}"), "is required")),
                };
                links.push(NamedLink {
                    name: get(&l.name, "name")?,
                    a: get(&l.a, "a")?,
                    b: get(&l.b, "b")?,
                    path: LinkPath::Listed(i),
                    spec: l,
                });
            }
            Ok((nodes, links, f.media.iter().enumerate().map(|(i, m)| (format!("media[{i}]"), m.clone())).collect()))
        }
    }
}

/// A `radio` table at `path`, checked and in the MAC's units.
fn radio_config(r: &RadioSpec, path: &str) -> Result<RadioConfig, ScenarioError> {
    let p = |f: &str| format!("{path}.{f}");
    bit_rate(r.bandwidth_bps, || p("bandwidth_bps"))?;
    let ms = |x: f64, f: &str| -> Result<u64, ScenarioError> {
        duration(x, 1e-3, "ms", || p(f))?;
        Ok((x * NS_PER_MS as f64).round() as u64)
    };
    for (v, f) in [(r.rts_bytes, "rts_bytes"), (r.cts_bytes, "cts_bytes"), (r.link_ack_bytes, "link_ack_bytes")] {
        check(v >= 1, || p(f), "a control frame needs at least 1 byte")?;
        at_most_a_packet(v, || p(f))?;
    }
    at_most_a_packet(r.mac_header_bytes, || p("mac_header_bytes"))?;
    check(r.queue_packets >= 1, || p("queue_packets"), "must be at least 1")?;
    let cfg = RadioConfig {
        bandwidth_bps: r.bandwidth_bps.round() as u64,
        hand_up_latency_ns: ms(r.hand_up_latency_ms, "hand_up_latency_ms")?,
        propagation_ns: ms(r.propagation_ms, "propagation_ms")?,
        tx_rx_ns: ms(r.tx_rx_ms, "tx_rx_ms")?,
        rx_tx_ns: ms(r.rx_tx_ms, "rx_tx_ms")?,
        backoff_base_ns: ms(r.backoff_base_ms, "backoff_base_ms")?,
        rts_bytes: r.rts_bytes,
        cts_bytes: r.cts_bytes,
        link_ack_bytes: r.link_ack_bytes,
        mac_header_bytes: r.mac_header_bytes,
        queue_packets: r.queue_packets,
        piggyback_acks: r.piggyback_acks,
        poll_before_piggyback: r.poll_before_piggyback,
        retry_limit: r.retry_limit,
    };
    // A backoff of zero would poll a busy peer in a tight loop.
    check(cfg.backoff_base_ns > 0, || p("backoff_base_ms"), "must be positive")?;
    if let Some(q) = &r.queue {
        cfg.validate_queue(q).map_err(|(f, why)| ScenarioError::new(p(&format!("queue.{f}")), why))?;
    }
    Ok(cfg)
}

/// The timeouts an ERSN may defer for one segment when the scenario does
/// not say: yun-004.md Sec. 2.3's "at most ceil(l * T_llrtx / RTO) + 1"
/// for retry limit `l` and link retransmission delay `T_llrtx`, with the
/// sender's smallest possible RTO, `rto_floor_ns` (see `LlElsnSpec`).
pub fn ersn_deferral_bound(retry_limit: u32, ll_retransmission_delay_ns: u64, rto_floor_ns: u64) -> u32 {
    let retrying_ns = u64::from(retry_limit).saturating_mul(ll_retransmission_delay_ns);
    let bound = retrying_ns.div_ceil(rto_floor_ns.max(1)).saturating_add(1);
    u32::try_from(bound).unwrap_or(u32::MAX)
}

/// A `dcf` table at `path`, checked and in the MAC's units.
fn dcf_config(d: &DcfSpec, path: &str) -> Result<DcfConfig, ScenarioError> {
    let p = |f: &str| format!("{path}.{f}");
    let rate = |x: f64, f: &str| -> Result<u64, ScenarioError> {
        bit_rate(x, || p(f))?;
        Ok(x.round() as u64)
    };
    let us = |x: f64, f: &str| -> Result<u64, ScenarioError> {
        duration(x, 1e-6, "us", || p(f))?;
        Ok((x * 1e3).round() as u64)
    };
    duration(d.ll_retransmission_delay_ms, 1e-3, "ms", || p("ll_retransmission_delay_ms"))?;
    at_most_a_packet(d.mac_header_bytes, || p("mac_header_bytes"))?;
    let cfg = DcfConfig {
        data_rate_bps: rate(d.data_rate_bps, "data_rate_bps")?,
        control_rate_bps: rate(d.control_rate_bps, "control_rate_bps")?,
        slot_ns: us(d.slot_us, "slot_us")?,
        sifs_ns: us(d.sifs_us, "sifs_us")?,
        difs_ns: us(d.difs_us, "difs_us")?,
        eifs_ns: us(d.eifs_us, "eifs_us")?,
        cw_min: d.cw_min,
        cw_max: d.cw_max,
        plcp_ns: us(d.plcp_us, "plcp_us")?,
        mac_header_bytes: d.mac_header_bytes,
        rts_threshold_bytes: d.rts_threshold_bytes,
        retry_limit: d.retry_limit,
        queue_packets: d.queue_packets,
        ll_retransmission_delay_ns: (d.ll_retransmission_delay_ms * NS_PER_MS as f64).round() as u64,
        ll_retransmission: match d.ll_retransmission {
            LlRetransmissionSpec::Blocking => LlRetransmission::Blocking,
            LlRetransmissionSpec::Deferred => LlRetransmission::Deferred,
        },
        ll_retransmission_window: d.ll_retransmission_window,
        control_frame_errors: d.control_frame_errors,
        ..DcfConfig::default()
    };
    // The MAC's own check, its field names in the table's units.
    cfg.validate().map_err(|(field, why)| {
        let field = field.replace("_ns", "_us");
        ScenarioError::new(p(&field), why.replace("_ns", "_us"))
    })?;
    if let Some(q) = &d.queue {
        cfg.validate_queue(q).map_err(|(f, why)| ScenarioError::new(p(&format!("queue.{f}")), why))?;
    }
    Ok(cfg)
}

/// Node `node`'s (named `name`) radio among a medium's `stations`, or the
/// error at `at` that it has none there.
fn station_on(
    stations: &[NodeId],
    node: NodeId,
    name: &str,
    medium: &str,
    at: &str,
) -> Result<StationId, ScenarioError> {
    stations.iter().position(|&s| s == node).map(|s| s as StationId).ok_or_else(|| {
        ScenarioError::new(at, format!("node '{name}' has no radio on medium '{medium}' (not among its stations)"))
    })
}

/// The media, and a link per hop of each (appended to `links`: both its
/// directions carried by the medium's MAC).
fn media_links(
    specs: &[(String, MediumSpec)],
    node_index: &dyn Fn(&str) -> Option<NodeId>,
    links: &mut Vec<LinkModel>,
) -> Result<Vec<MediumModel>, ScenarioError> {
    let mut media: Vec<MediumModel> = Vec::with_capacity(specs.len());
    for (mi, (path, m)) in specs.iter().enumerate() {
        check(!m.name.is_empty(), || format!("{path}.name"), "must not be empty")?;
        check(!media.iter().any(|o| o.name == m.name), || format!("{path}.name"), "duplicate medium name")?;
        let radio = radio_config(&m.radio, &format!("{path}.radio"))?;
        let dcf = match m.mac {
            MacKind::Radio => None,
            MacKind::Dcf => Some(dcf_config(&m.dcf, &format!("{path}.dcf"))?),
        };
        m.error.validate().map_err(|(field, reason)| ScenarioError::new(format!("{path}.error.{field}"), reason))?;
        // The radio's link ARQ reports no attempts (and retries without
        // limit by default): LL-ELSN is the 802.11 link layer's.
        check(
            !m.ll_elsn || dcf.is_some(),
            || format!("{path}.ll_elsn"),
            "needs a link layer that reports its retransmissions and discards: mac = \"dcf\"",
        )?;
        check(
            !m.ebsn || dcf.is_some(),
            || format!("{path}.ebsn"),
            "needs a link layer that reports its failed attempts: mac = \"dcf\"",
        )?;
        // A hop's rate, delay, header and queue: the MAC's (for summaries
        // and per-hop goodput; the MAC itself times the frames).
        let (hop_bps, hop_delay_ns, hop_header, hop_queue) = match &dcf {
            Some(c) => (c.data_rate_bps, c.propagation_ns, c.mac_header_bytes, c.queue_packets),
            None => (radio.bandwidth_bps, radio.propagation_ns, radio.mac_header_bytes, radio.queue_packets),
        };
        check(
            m.stations.len() >= 2,
            || format!("{path}.stations"),
            || format!("a medium needs at least two stations (one hop), got {}", m.stations.len()),
        )?;
        check(m.stations.len() < usize::from(StationId::MAX), || format!("{path}.stations"), "too many stations")?;
        let mut stations = Vec::with_capacity(m.stations.len());
        for (i, name) in m.stations.iter().enumerate() {
            let at = format!("{path}.stations[{i}]");
            let n = node_index(name).ok_or_else(|| ScenarioError::new(&at, format!("no node named '{name}'")))?;
            check(!stations.contains(&n), &at, || format!("node '{name}' has a radio on this medium already"))?;
            stations.push(n);
        }
        let station_of = |name: &str, at: &str| -> Result<StationId, ScenarioError> {
            let n = node_index(name).ok_or_else(|| ScenarioError::new(at, format!("no node named '{name}'")))?;
            station_on(&stations, n, name, &m.name, at)
        };
        let mut error_from = vec![m.error_from.is_none(); stations.len()];
        for (i, name) in m.error_from.iter().flatten().enumerate() {
            error_from[usize::from(station_of(name, &format!("{path}.error_from[{i}]"))?)] = true;
        }
        let pairs: Vec<[String; 2]> = match &m.hops {
            // Empty: the medium only carries link directions that name it.
            Some(h) => h.clone(),
            None => m.stations.windows(2).map(|w| [w[0].clone(), w[1].clone()]).collect(),
        };
        // An 802.11 station talks through its access point: one that no hop
        // joins could never send or receive (unless link directions name the
        // medium instead of hops of its own: `hops = []`).
        if dcf.is_some() && !pairs.is_empty() {
            for (i, name) in m.stations.iter().enumerate() {
                check(
                    pairs.iter().any(|[a, b]| a == name || b == name),
                    || format!("{path}.stations[{i}]"),
                    || format!("station '{name}' is in no hop: an 802.11 station needs a hop to its access point"),
                )?;
            }
        }
        let mut seen = HashSet::default();
        for (hi, [a, b]) in pairs.iter().enumerate() {
            let at = format!("{path}.hops[{hi}]");
            let (sa, sb) = (station_of(a, &at)?, station_of(b, &at)?);
            check(sa != sb, &at, "a hop joins two different radios")?;
            check(seen.insert((sa.min(sb), sa.max(sb))), &at, "duplicate hop")?;
            let name = format!("{}/{a}-{b}", m.name);
            check(!links.iter().any(|l| l.name == name), &at, || format!("a link is named '{name}' already"))?;
            let dir = |from: StationId, to: StationId| DirModel {
                params: DirParams {
                    bandwidth_bps: hop_bps,
                    delay_ns: hop_delay_ns,
                    frame_overhead_bytes: hop_header,
                    frame_overhead_ns: 0,
                    queue: QueueLimit { packets: Some(hop_queue), bytes: None },
                    jitter_mean_ns: 0,
                },
                error: ErrorModelConfig::default(),
                header_compression: HeaderCompression::None,
                queue: None,
                ack_recons: None,
                emulation_tick_ns: None,
                medium: Some(MediumHop { medium: mi as u32, from, to }),
            };
            links.push(LinkModel {
                name,
                ends: [stations[sa as usize], stations[sb as usize]],
                duplex: Duplex::Half,
                dirs: [dir(sa, sb), dir(sb, sa)],
            });
        }
        let queue = if dcf.is_some() { m.dcf.queue.clone() } else { m.radio.queue.clone() };
        media.push(MediumModel {
            name: m.name.clone(),
            radio,
            dcf,
            error: m.error.clone(),
            error_from,
            ll_elsn: m.ll_elsn,
            ebsn: m.ebsn,
            queue,
            stations,
        });
    }
    Ok(media)
}

/// The token of a flow's `from` and `to` that stands for a copy's 1-based number.
pub const COPY_TOKEN: &str = "{copy}";

/// Whether flow `fl`'s ends name each copy's own nodes.
fn per_copy_ends(fl: &FlowSpec) -> bool {
    fl.from.contains(COPY_TOKEN) || fl.to.contains(COPY_TOKEN)
}

/// The sending and receiving nodes of copy `copy` (0-based) of flow `fl`
/// (the file's `flows[i]`), `{copy}` expanded when `per_copy`.
fn flow_ends(
    fl: &FlowSpec,
    i: usize,
    copy: u32,
    per_copy: bool,
    node_index: &dyn Fn(&str) -> Option<NodeId>,
) -> Result<(NodeId, NodeId), ScenarioError> {
    let number = u64::from(fl.first_copy) + u64::from(copy);
    let end = |field: &str, name: &str| {
        if !per_copy {
            let n = node_index(name)
                .ok_or_else(|| ScenarioError::new(format!("flows[{i}].{field}"), format!("no node named '{name}'")))?;
            return Ok(n);
        }
        let expanded = name.replace(COPY_TOKEN, &number.to_string());
        node_index(&expanded).ok_or_else(|| {
            ScenarioError::new(
                format!("flows[{i}].{field}"),
                format!("no node named '{expanded}' (copy {number} of '{name}')"),
            )
        })
    };
    let (from, to) = (end("from", &fl.from)?, end("to", &fl.to)?);
    let which = if per_copy { format!(" (copy {number})") } else { String::new() };
    check(from != to, || format!("flows[{i}].to"), || format!("must differ from `from`{which}"))?;
    Ok((from, to))
}

/// Flow `fl` (the file's `flows[i]`) from node `from` to node `to`.
fn flow_model(fl: &FlowSpec, i: usize, from: NodeId, to: NodeId) -> Result<FlowModel, ScenarioError> {
    let p = |f: &str| format!("flows[{i}].{f}");
    duration_s(fl.start_s, || p("start_s"))?;
    if let Some(hi) = fl.start_max_s {
        duration_s(hi, || p("start_max_s"))?;
        check(
            hi >= fl.start_s,
            || p("start_max_s"),
            || format!("must be at least start_s ({} s), got {}", fl.start_s, hi),
        )?;
    }
    let pareto = match &fl.pareto {
        None => None,
        Some(s) => {
            check(
                fl.bytes.is_none(),
                || p("bytes"),
                "a Pareto source sends until it stops: give `duration_s` or none",
            )?;
            check(fl.scheme.is_none(), || p("scheme"), "a Pareto source is not TCP: it takes no scheme")?;
            let cfg = ParetoConfig {
                rate_bps: s.rate_bps,
                burst_s: s.burst_ms / 1e3,
                idle_s: s.idle_ms / 1e3,
                shape: s.shape,
                packet_bytes: s.packet_bytes,
            };
            cfg.validate().map_err(|(field, why)| ScenarioError::new(p(&format!("pareto.{field}")), why))?;
            Some(cfg)
        }
    };
    let workload = match (fl.bytes, fl.duration_s) {
        // A Pareto source without a duration runs to the end of the run.
        (None, None) if pareto.is_some() => Workload::Timed { duration_ns: u64::MAX },
        (Some(b), None) => {
            check(b > 0, || p("bytes"), "must be at least 1")?;
            check(b <= MAX_FLOW_BYTES, || p("bytes"), || format!("must be at most 2^60, got {b}"))?;
            Workload::Bulk { bytes: b }
        }
        (None, Some(d)) => {
            positive(d, || p("duration_s"))?;
            duration_s(d, || p("duration_s"))?;
            Workload::Timed { duration_ns: secs_to_ns(d) }
        }
        _ => return Err(ScenarioError::new(format!("flows[{i}]"), "give exactly one of `bytes` and `duration_s`")),
    };
    let t = &fl.tcp;
    let (variant, variant_cc, acks, eln, base_station) = match &fl.scheme {
        Some(name) => {
            let sc = schemes::find(name).ok_or_else(|| {
                ScenarioError::new(
                    p("scheme"),
                    format!("unknown scheme '{name}' (known: {})", schemes::names().join(", ")),
                )
            })?;
            check(t.variant.is_none(), || p("tcp.variant"), "conflicts with `scheme`, which sets the variant")?;
            check(t.recovery.is_none(), || p("tcp.recovery"), "conflicts with `scheme`, which sets the recovery")?;
            check(t.eln.is_none(), || p("tcp.eln"), "conflicts with `scheme`, which sets the ELN response")?;
            (sc.variant, sc.cc, Acks::for_recovery(sc.variant), sc.eln, sc.base_station)
        }
        None => {
            let spec = match t.variant.as_deref() {
                None => None,
                Some(name) => Some(variants::find(name).ok_or_else(|| {
                    ScenarioError::new(
                        p("tcp.variant"),
                        format!("unknown variant '{name}' (known: {})", variants::names().join(", ")),
                    )
                })?),
            };
            check(
                spec.is_none() || t.recovery.is_none(),
                || p("tcp.recovery"),
                "conflicts with `variant`, which sets the recovery",
            )?;
            let recovery = t.recovery.or(spec.map(|s| s.recovery)).unwrap_or(Variant::Reno);
            let acks = spec.map_or(Acks::for_recovery(recovery), |s| s.acks);
            let cc = spec.map_or("reno", |s| s.cc);
            (recovery, cc, acks, t.eln.unwrap_or(ElnResponse::Off), BaseStationAgent::None)
        }
    };
    check(
        t.cc.is_none() || variant_cc == "reno",
        || p("tcp.cc"),
        || format!("conflicts with the variant or scheme, which runs '{variant_cc}'"),
    )?;
    let cc_name = t.cc.as_deref().unwrap_or(variant_cc);
    let given: Vec<(&str, f64)> = t.cc_params.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let cc = CcConfig::named(cc_name, &given).map_err(|e| {
        let field = if e.field == "cc" { p("tcp.cc") } else { p(&format!("tcp.{}", e.field)) };
        ScenarioError::new(field, e.reason)
    })?;
    check(
        t.sack != Some(false) || acks != Acks::Sack,
        || p("tcp.sack"),
        "the recovery 'sack' needs the receiver's SACK blocks: remove `sack = false`",
    )?;
    check(
        !cc.name.needs_timestamps() || t.timestamps,
        || p("tcp.timestamps"),
        || format!("the congestion control '{}' needs the timestamp option: set `timestamps = true`", cc.name.as_str()),
    )?;
    let eln_on = eln != ElnResponse::Off;
    let latency_us = t.base_station_processing_us;
    non_negative(latency_us, || p("tcp.base_station_processing_us"))?;
    check(
        latency_us <= MAX_PROCESSING_US,
        || p("tcp.base_station_processing_us"),
        || format!("must be at most {MAX_PROCESSING_US} us (1 s), got {latency_us}"),
    )?;
    check(t.eln_slots != Some(0), || p("tcp.eln_slots"), "must be at least 1 (absent: no limit)")?;
    let (snoop, bad_state) = match base_station {
        BaseStationAgent::Snoop(cfg) => (Some(cfg), None),
        BaseStationAgent::BadState(cfg, notice) => (Some(cfg), Some(notice)),
        _ => (None, None),
    };
    check(
        t.base_station_max_local_rexmits != Some(0),
        || p("tcp.base_station_max_local_rexmits"),
        "must be at least 1",
    )?;
    check(
        t.base_station_max_local_rexmits.is_none() || snoop.is_some(),
        || p("tcp.base_station_max_local_rexmits"),
        "needs a scheme whose base station retransmits locally (ll, snoop, ebsn, ...)",
    )?;
    let snoop = snoop.map(|cfg| SnoopConfig {
        processing_ns: (latency_us * NS_PER_US as f64).round() as u64,
        max_local_rexmits: t.base_station_max_local_rexmits.unwrap_or(cfg.max_local_rexmits),
        ..cfg
    });
    let ecn_bs = bad_state == Some(BadStateNotice::EcnBs);
    let split = match base_station {
        BaseStationAgent::Split { wireless } => Some(SplitModel { wireless, buffer_bytes: t.split_buffer_bytes }),
        _ => None,
    };
    check(
        t.split_buffer_bytes >= u64::from(t.mss_bytes),
        || p("tcp.split_buffer_bytes"),
        "must hold at least one segment (mss_bytes)",
    )?;
    check(t.mss_bytes > 0, || p("tcp.mss_bytes"), "must be at least 1")?;
    for (v, f) in [(t.header_bytes, "tcp.header_bytes"), (t.ack_bytes, "tcp.ack_bytes")] {
        check(
            v <= MAX_PACKET_BYTES,
            || p(f),
            || format!("must be at most {MAX_PACKET_BYTES} (an IPv4 datagram), got {v}"),
        )?;
    }
    check(
        u64::from(t.mss_bytes) + u64::from(t.header_bytes) <= u64::from(MAX_PACKET_BYTES),
        || p("tcp.mss_bytes"),
        || format!("with header_bytes must fit an IPv4 datagram ({MAX_PACKET_BYTES} bytes), got {}", t.mss_bytes),
    )?;
    check(
        t.socket_buffer_bytes >= u64::from(t.mss_bytes),
        || p("tcp.socket_buffer_bytes"),
        "must hold at least one segment (mss_bytes)",
    )?;
    check(t.socket_buffer_bytes <= u64::from(u32::MAX), || p("tcp.socket_buffer_bytes"), "must fit a 32-bit window")?;
    check(t.initial_cwnd_segments > 0, || p("tcp.initial_cwnd_segments"), "must be at least 1")?;
    check(t.dupack_threshold > 0, || p("tcp.dupack_threshold"), "must be at least 1")?;
    check(t.ack_bytes > 0, || p("tcp.ack_bytes"), "must be at least 1")?;
    let mut rto = match t.rto.mode {
        RtoMode::Rfc6298 => RtoConfig::rfc6298(),
        RtoMode::Bsd => RtoConfig::bsd(),
        RtoMode::Ns2 => RtoConfig::ns2(),
        RtoMode::Ns2Legacy => RtoConfig::ns2_legacy(),
    };
    if let Some(ms) = t.rto.min_ms {
        duration(ms, 1e-3, "ms", || p("tcp.rto.min_ms"))?;
        rto.min_ns = (ms * NS_PER_MS as f64).round() as u64;
    }
    if let Some(s) = t.rto.max_s {
        positive(s, || p("tcp.rto.max_s"))?;
        duration_s(s, || p("tcp.rto.max_s"))?;
        rto.max_ns = secs_to_ns(s);
    }
    if let Some(s) = t.rto.initial_s {
        positive(s, || p("tcp.rto.initial_s"))?;
        duration_s(s, || p("tcp.rto.initial_s"))?;
        rto.initial_ns = secs_to_ns(s);
    }
    if let Some(ms) = t.rto.granularity_ms {
        duration(ms, 1e-3, "ms", || p("tcp.rto.granularity_ms"))?;
        rto.granularity_ns = (ms * NS_PER_MS as f64).round() as u64;
    }
    check(rto.min_ns <= rto.max_ns, || p("tcp.rto.min_ms"), "must not exceed max_s")?;
    positive(t.ack.delay_ms, || p("tcp.ack.delay_ms"))?;
    duration(t.ack.delay_ms, 1e-3, "ms", || p("tcp.ack.delay_ms"))?;
    check(t.ack.every_segments > 0, || p("tcp.ack.every_segments"), "must be at least 1")?;
    let delay_ns = (t.ack.delay_ms * NS_PER_MS as f64).round() as u64;
    // The delayed-ack timer (and BSD's fast-timer tick) is counted in whole ns.
    check(delay_ns >= 1, || p("tcp.ack.delay_ms"), || format!("must be at least 1e-6 (1 ns), got {}", t.ack.delay_ms))?;
    let ack_policy = match t.ack.policy {
        AckPolicySpec::Immediate => AckPolicy::Immediate,
        AckPolicySpec::Delayed => AckPolicy::Delayed { every_segments: t.ack.every_segments, timeout_ns: delay_ns },
        AckPolicySpec::BsdDelayed => {
            AckPolicy::BsdDelayed { every_segments: t.ack.every_segments, tick_ns: delay_ns, tick_phase_ns: 0 }
        }
    };
    // Seed 001's options: what each needs from the others.
    let acc = match &t.acc {
        None => None,
        Some(a) => {
            check(a.max_delack >= 1, || p("tcp.acc.max_delack"), "must be at least 1")?;
            check(a.min_acks_win >= 1, || p("tcp.acc.min_acks_win"), "must be at least 1")?;
            check(
                t.sender_window_option,
                || p("tcp.acc"),
                "needs the sender's window: set tcp.sender_window_option = true",
            )?;
            check(
                t.ack.policy != AckPolicySpec::Immediate,
                || p("tcp.ack.policy"),
                "ACC (tcp.acc) needs a delayed-ack timer: `delayed` (ns-2: delay_ms = 100) or `bsd_delayed` (4.4BSD's 200 ms tick)",
            )?;
            check(
                a.mode != AccMode::Ecn || t.timestamps,
                || p("tcp.acc.mode"),
                "`ecn` needs the timestamp option for its once-per-round-trip test: set tcp.timestamps = true",
            )?;
            Some(AccConfig { mode: a.mode, max_delack: a.max_delack, min_acks_win: a.min_acks_win })
        }
    };
    let adaptation = match &t.sender_adaptation {
        None => None,
        Some(sa) => {
            check(sa.maxburst >= 1, || p("tcp.sender_adaptation.maxburst"), "must be at least 1")?;
            check(
                sa.segments_per_increase >= 1,
                || p("tcp.sender_adaptation.segments_per_increase"),
                "must be at least 1",
            )?;
            check(
                t.timestamps,
                || p("tcp.sender_adaptation"),
                "needs the timestamp option for its exact round trip: set tcp.timestamps = true",
            )?;
            let timer = match sa.timer_tick_ms {
                None => None,
                // The phase is the sending host's, drawn at build time.
                Some(ms) => Some(KernelClock::new(kernel_tick_ns(ms, &p("tcp.sender_adaptation.timer_tick_ms"))?, 0)),
            };
            Some(AdaptationConfig { maxburst: sa.maxburst, segments_per_increase: sa.segments_per_increase, timer })
        }
    };
    check(
        t.ll_elsn.is_none() || variant == Variant::Sack,
        || p("tcp.ll_elsn"),
        "the LL-ELSN responses run over the SACK sender: needs variant = \"sack\"",
    )?;
    check(
        !(t.handshake && split.is_some()),
        || p("tcp.handshake"),
        "a split connection has no handshake model (its relay starts the wireless leg established)",
    )?;
    if let Some(fr) = &t.fast_retransmit_request {
        check(fr.threshold >= 1, || p("tcp.fast_retransmit_request.threshold"), "must be at least 1")?;
    }
    let acc_marks = acc.is_some_and(|a| a.mode == AccMode::Ecn);
    Ok(FlowModel {
        name: fl.name.clone(),
        from,
        to,
        start: Time::from_secs_f64(fl.start_s),
        start_max: fl.start_max_s.map(Time::from_secs_f64),
        start_after: None,
        workload,
        sender: SenderConfig {
            variant,
            cc,
            mss_bytes: t.mss_bytes,
            send_buffer_bytes: t.socket_buffer_bytes,
            initial_cwnd_segments: t.initial_cwnd_segments,
            initial_ssthresh_bytes: t.initial_ssthresh_bytes.unwrap_or(u64::from(u32::MAX)),
            dupack_threshold: t.dupack_threshold,
            window_growth: t.window_growth,
            window_cut: t.window_cut,
            recovery_exit: t.recovery_exit,
            header_prediction: t.header_prediction,
            header_prediction_guard: t.header_prediction_guard,
            window_update: t.window_update,
            max_cwnd_bytes: t.max_cwnd_bytes.unwrap_or(u64::MAX),
            cwnd_bound: t.cwnd_bound,
            eln,
            limited_transmit: t.limited_transmit,
            total_bytes: match workload {
                Workload::Bulk { bytes } => Some(bytes),
                Workload::Timed { .. } => None,
            },
            rto,
            ecn: t.ecn || ecn_bs,
            echo_ack_marks: acc_marks,
            timestamps: t.timestamps,
            sender_window_option: t.sender_window_option,
            adaptation,
            fr_request: t.fast_retransmit_request.is_some(),
            handshake: t.handshake,
            mutations: Default::default(),
        },
        receiver: ReceiverConfig {
            recv_buffer_bytes: t.socket_buffer_bytes,
            mss_bytes: t.mss_bytes,
            ack_policy,
            sack: t.sack.unwrap_or(acks == Acks::Sack),
            // The SMART link layers read the mobile host's SMART echoes, and
            // the LHP packet list its triggers (seed 004 Sec. 4.1: "the SMART
            // ACK only contains the information of the single packet which has
            // been successfully received and has triggered the ACK").
            smart_echo: acks == Acks::SmartEcho
                || snoop.is_some_and(|s| s.smart)
                || split.is_some_and(|s| s.wireless == Variant::Smart)
                || t.ll_elsn.as_ref().is_some_and(|l| l.response == LlElsnResponseSpec::LhpList),
            eln: eln_on && t.eln_generator == ElnGenerator::Receiver,
            eln_slots: t.eln_slots,
            ecn: t.ecn,
            ect_acks: acc_marks,
            timestamps: t.timestamps,
            acc,
            fr_request_threshold: t.fast_retransmit_request.as_ref().map(|f| f.threshold),
        },
        header_bytes: t.header_bytes,
        ack_bytes: t.ack_bytes,
        eln_at_base_station: eln_on && t.eln_generator == ElnGenerator::BaseStation,
        eln_node: None,
        snoop,
        snoop_node: None,
        bad_state,
        split,
        split_node: None,
        pareto,
        ll_elsn: t.ll_elsn.as_ref().map(|l| {
            let response = match l.response {
                LlElsnResponseSpec::Esack => LlElsnResponse::Esack,
                LlElsnResponseSpec::Hack => LlElsnResponse::Hack,
                LlElsnResponseSpec::HackFixed => LlElsnResponse::HackFixed,
                LlElsnResponseSpec::LhpList => LlElsnResponse::LhpList,
            };
            let eln_filter = match l.eln_filter {
                Some(0) => None,
                Some(n) => Some(n),
                None if response == LlElsnResponse::Esack => Some(2),
                None => None,
            };
            // Absent, the bound needs the flow's link layer: set with its route.
            LlElsnConfig { response, eln_filter, ersn_max_deferrals: l.ersn_max_deferrals.unwrap_or(0) }
        }),
        freeze_warning: match &t.freeze {
            Some(f) => {
                duration_s(f.warning_s, || p("tcp.freeze.warning_s"))?;
                Some(Time::from_secs_f64(f.warning_s))
            }
            None => None,
        },
        frho: t.frho,
    })
}

/// At most this many nodes: node ids are 32 bits ([`NodeId`]), and a pcap
/// capture gives each node an address of 10.0.0.0/8, which holds 2^24 - 2
/// hosts ([`crate::pcap::node_ip`]).
pub const MAX_NODES: usize = (1 << 24) - 2;

fn check_node_count(n: usize) -> Result<(), ScenarioError> {
    check(n <= MAX_NODES, "nodes", || format!("too many nodes: {n} (at most {MAX_NODES})"))
}

impl Model {
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
                let dm = &mut links[li].dirs[d];
                dm.params.bandwidth_bps = m.radio.bandwidth_bps;
                dm.params.delay_ns = m.radio.propagation_ns;
                dm.params.queue = QueueLimit { packets: Some(m.radio.queue_packets), bytes: None };
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
            if let Some(after) = &fl.start_after {
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
        let mut mobility = mobility::mobility(&f.mobility, &node_index, &links, stop)?;
        // A mobile host's routes go through the station it starts at.
        let masked = mobility::masked_links(&mobility, links.len());
        let mut router = Router::without(nodes.len(), links.iter().map(|l| l.ends), &masked);
        let mobile_end = |ms: &[MobilityModel], fl: &FlowModel| {
            [fl.to, fl.from].into_iter().find_map(|n| mobility::mobile_entry(ms, n).map(|m| (m, n)))
        };
        let mut paths = Vec::with_capacity(flows.len());
        let mut split_legs = Vec::new();
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
                // would not follow the mobile host to its next station.
                check(
                    fl.split.is_none() && fl.snoop.is_none() && !fl.eln_at_base_station,
                    || p("scheme"),
                    "a base-station scheme does not follow a mobile host between stations (end-to-end schemes only)",
                )?;
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
                fl.snoop_node = Some(snoop_node(&data, base_station, &links, media.is_empty(), i)?);
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
                    split_legs.push([route(&mut router, bs, fl.to), route(&mut router, fl.to, bs)]);
                }
                _ => paths.push([data, acks]),
            }
        }
        paths.extend(split_legs);
        // Split legs carry their model flow's segments.
        let n_flows = flows.len();
        let mss_of = |c: usize| {
            let m = if c < n_flows {
                c
            } else {
                flows.iter().enumerate().filter(|(_, fl)| fl.split.is_some()).nth(c - n_flows).map_or(0, |(i, _)| i)
            };
            flows[m].sender.mss_bytes
        };
        let ack_recons = place_ack_recons(&named, &links, &paths, &mss_of)?;
        if !mobility.is_empty() {
            let mut wired = mobility::wired_router(nodes.len(), &links, &mobility);
            mobility::registrations(&f.mobility, &mut mobility, &node_index, &links, &mut wired)?;
            mobility::check_spacing(&mobility)?;
            for (c, fl) in flows.iter().enumerate() {
                let Some((mi, _)) = mobile_end(&mobility, fl) else { continue };
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
        }
        let outages = outages::outages(&f.outages, &links, stop)?;
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
