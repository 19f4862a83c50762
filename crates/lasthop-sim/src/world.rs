//! The simulator: wires a [`Model`] into links and endpoints and drives them
//! from the event queue.
//!
//! Packets move node to node along static routes. At a node that is not the
//! packet's destination, the packet is queued on the next link at once (no
//! processing delay). At its destination a data segment goes to the flow's
//! receiver and an ack to the flow's sender; whatever they answer through
//! `poll_transmit` is sent at the same instant.
//!
//! Agents on a node (ELN marking, the snoop family, ACK reconstruction) see
//! every packet of their flow arriving there before it is forwarded or
//! delivered, and the data segments their node's own sender emits before
//! they leave (snoop at an uplink's mobile sender, seed 004 Sec. 5.2), in the order they were placed (ELN, snoop, then ACK
//! reconstructors); one may absorb it (a suppressed duplicate ack ends
//! there) or hold it (a real ack ACK reconstruction sends later, as
//! itself). What agents emit (local retransmissions, reconstructed acks,
//! held packets let go) is then forwarded from their node, at the same
//! instant and after the arriving packet (or, with a processing latency or
//! a spacing, when the agent's wake-up says they are ready: the agent's own
//! timer key carries both, so the scheduler needs no event of its own for
//! it); what they make is a fresh packet, what they held keeps its identity.
//! Each agent has a timer key after the flows' endpoints.
//!
//! A split flow (schemes `split`, `split-smart`; seed 000 Sec. III-C,
//! I-TCP) runs as two chained connections: the wired leg, from the source
//! to the base station, whose receiver acknowledges the source's data and
//! reads only what the relay buffer has room for (so its window closes
//! while the buffer is full), and the wireless leg, from the base station
//! to the mobile host, whose sender is written to by the relay. The wireless
//! leg has its own connection index after the model flows (flow id n_flows +
//! k for the k-th split flow, in packets and trace events). The flow's
//! throughput and its bulk completion are the mobile host's; its
//! retransmissions and timeouts are the source's. Departure: the relay moves
//! data at once, with no processing delay or copy (seed 000: "passing the
//! pointers to the same buffer").
//!
//! Invariants are checked at the end of every run (and the run fails if one
//! does not hold): every packet created was delivered, dropped, absorbed (or
//! held and then discarded) by an agent, is held by one, or is still in
//! flight; the receiving application got bytes 0..N
//! once each and in order; time never went backwards (the scheduler refuses
//! to run it back).

use crate::metrics::{
    ConnectionSummary, DatagramSummary, DcfSummary, FlowSummary, LinkSummary, LlElsnSummary, MediumSummary,
    PublishedComparison, QueueSummary, RadioSummary, RunSummary, SplitSummary,
};
use crate::pcap::{Capture, CaptureFile};
use crate::scenario::model::{FlowModel, Model, Workload};
use crate::scheduler::{Event, Scheduler};
use crate::spurious::{SpuriousWatch, NO_WATCH};
use crate::traffic::{ParetoSource, Source};
use lasthop_agents::ack_recons::AckRecons;
use lasthop_agents::eln::ElnMarker;
use lasthop_agents::snoop::Snoop;
use lasthop_agents::{NodeAgent, Origin, Verdict};
use lasthop_core::ranges::insert_split;
use lasthop_core::rng::RngStream;
use lasthop_core::tick::KernelClock;
use lasthop_core::time::NS_PER_S;
use lasthop_core::trace::{DropCause, Trace, TraceEvent};
use lasthop_core::{Ecn, LlNotice, NodeId, Packet, PacketKind, PacketPool, TcpHeader, Time};
use lasthop_net::emulation::Emulator;
use lasthop_net::error::{ErrorModel, ErrorModelConfig};
use lasthop_net::mac::dcf::Dcf;
use lasthop_net::mac::point_to_point::{Link, LinkDir};
use lasthop_net::mac::{Mac, MacDropCause, MacOutput, Radio};
use lasthop_net::queue::{Admission, Removal, Waiting};
use lasthop_tcp::{AckPolicy, Receiver, RtoMode, Sender};
use std::sync::Arc;

use crate::metrics::{jain_index, CwndAverage, NoticeCounters, Overlap};
use crate::scenario::schema::{HeaderCompression, COMPRESSED_ACK_BYTES};

/// Per-connection state of a run: a flow, or one leg of a split flow.
/// Laid out by use (`repr(C)`; the sender and receiver each start a cache
/// line and put their hot fields first): one line of what an ack reaching
/// the sender reads besides the sender, the time-averaged window every ack
/// updates (its own line, beside), the sender, the receiver, then what
/// a segment reaching the receiver reads besides the receiver (one line).
/// With thousands of flows a connection is rarely in the cache, and each
/// line an endpoint's packet touches costs a miss (issue 9).
#[repr(C)]
struct FlowState {
    /// When the sender's wake-up is armed.
    sender_armed: Time,
    /// Duplicate acks that reached the sender, and its last ack.
    last_ack_at_source: Option<(u64, u32)>,
    dupacks_at_source: u64,
    /// On the wireless leg of a split flow: the wired leg feeding it.
    upstream: Option<u32>,
    /// Its sending and receiving nodes.
    from: NodeId,
    to: NodeId,
    /// The model flow's packet sizes and bulk transfer size, copied here:
    /// read for every packet, and the model's flow records span many cache
    /// lines.
    header_bytes: u32,
    /// The hop its sender's segments take first, and the hop its
    /// receiver's acks take first, in `route` ([`NO_HOP`]: the path does
    /// not leave from there, and a packet searches it).
    data_hop: u32,
    /// The congestion window over time (seed 001 Sec. 7.1), updated by
    /// every ack the sender takes.
    cwnd_avg: CwndAverage,
    sender: Sender,
    receiver: Receiver,
    /// The next byte the application must receive: deliveries must start here.
    app_next: u64,
    /// The bulk transfer's size ([`NO_BULK`]: a timed flow; a word, not an
    /// `Option`, so that `ack_ends` fits this line).
    bulk_bytes: u64,
    /// On the wired leg of a split flow: the relay to the wireless leg.
    relay: Option<Box<Relay>>,
    /// When the receiver's wake-up is armed.
    receiver_armed: Time,
    /// The model flow this connection carries.
    model_flow: u32,
    ack_bytes: u32,
    /// See `data_hop`.
    ack_hop: u32,
    /// (`to`, `from`): an ack's source and destination, kept on this line
    /// so that the receiver's acks do not read line 0 for them
    /// ([`FlowState::set_to`] keeps both).
    ack_ends: [NodeId; 2],
    finished: bool,
    /// The byte a timeout went back to while the receiver lacked it, until
    /// a copy of it arrives ([`crate::spurious`]; `NO_WATCH`: none).
    spurious_watch: u64,
    /// (Model flows only, at their index:)
    /// Bytes delivered when a timed flow stopped.
    delivered_at_stop: Option<u64>,
    done_at: Option<Time>,
    /// Not TCP: a background source sending datagrams in the sender's place
    /// (its receiving end counts their bytes in `app_next`).
    source: Option<Box<Source>>,
}

/// A connection's first hop when its path does not leave from its endpoint.
const NO_HOP: u32 = u32::MAX;

/// `FlowState::bulk_bytes` of a timed flow.
const NO_BULK: u64 = u64::MAX;

impl FlowState {
    /// The connection ends at node `to` (a split flow's wired leg, at the
    /// base station).
    fn set_to(&mut self, to: NodeId) {
        self.to = to;
        self.ack_ends[0] = to;
    }

    /// When an endpoint's wake-up is armed (side 0 = sender, 1 = receiver).
    fn armed_mut(&mut self, side: usize) -> &mut Time {
        if side == 0 {
            &mut self.sender_armed
        } else {
            &mut self.receiver_armed
        }
    }
}

impl FlowState {
    /// Connection state of model flow `model_flow` (`f`) from node `ends[0]`
    /// to `ends[1]`, its first hops not yet found, not yet finished.
    fn new(sender: Sender, receiver: Receiver, model_flow: u32, f: &FlowModel, ends: [NodeId; 2]) -> FlowState {
        FlowState {
            sender_armed: Time::NEVER,
            last_ack_at_source: None,
            dupacks_at_source: 0,
            upstream: None,
            from: ends[0],
            to: ends[1],
            header_bytes: f.header_bytes,
            data_hop: NO_HOP,
            cwnd_avg: CwndAverage::default(),
            sender,
            receiver,
            app_next: 0,
            bulk_bytes: bulk_bytes(f.workload).unwrap_or(NO_BULK),
            relay: None,
            receiver_armed: Time::NEVER,
            model_flow,
            ack_bytes: f.ack_bytes,
            ack_hop: NO_HOP,
            ack_ends: [ends[1], ends[0]],
            finished: false,
            spurious_watch: NO_WATCH,
            delivered_at_stop: None,
            done_at: None,
            source: None,
        }
    }
}

/// Where connection `c`'s paths sit in the world's route array: its data
/// path is `route[data..acks]`, its ack path `route[acks..end]`.
#[derive(Clone, Copy, Debug)]
struct ConnAt {
    data: u32,
    acks: u32,
    end: u32,
}

/// One hop of a connection's path with what a packet crossing it needs: the
/// link direction, the node it leads to and (on a data path) the hop's
/// goodput slot in `cover`. A packet in a link keeps the index of its hop in
/// its pool slot, so its arrival finds the node it reached and its next hop
/// (the following entry: paths are shortest paths and never revisit a node)
/// without the link's ends or a search of the path, which a run of
/// thousands of flows paid for in cache misses (issue 9).
#[derive(Clone, Copy, Debug)]
struct RouteHop {
    link: u32,
    /// Goodput slot, or [`NO_COVER`] on an ack path.
    cover: u32,
    from: NodeId,
    to: NodeId,
    dir: u8,
    /// The path's last hop: `to` is its destination.
    last: bool,
    /// What size pure acks take on this link direction.
    compress: HeaderCompression,
    /// The link direction is a hop of a shared medium (its MAC carries it).
    mac: bool,
}

/// The bit of a packet's pool tag (its hop's index in the route) that marks
/// its path's last hop.
const LAST_HOP: u32 = 1 << 31;

/// A queued frame's tag when it is not data with payload (no goodput slot).
const NO_COVER: u32 = u32::MAX;

/// Goodput state of one hop of a connection's data path: the byte ranges
/// that crossed it, the payload bytes put on it and of those the bytes that
/// crossed it for the first time. A link direction's totals are the sums
/// over the hops on it, taken at the end of the run: a frame then touches
/// one cache line of its own connection's, not also a line per link
/// direction (one per access link in a run of thousands of flows). The
/// ranges are a [`lasthop_core::RangeSet`] in two parts: the last range here, beside the
/// counts, and the earlier ones, which only a segment below the last range
/// reads (a retransmission, or a segment after a loss), in
/// `World::cover_earlier`. Half a line a hop: a connection's consecutive
/// hops share lines, and a segment's hops come one after another.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct HopGoodput {
    /// The last range crossed (see [`lasthop_core::ranges::insert_split`]).
    last: (u64, u64),
    payload: u64,
    useful: u64,
}

/// The base station's relay between the two legs of a split flow (seed 000
/// Sec. III-C): bytes the wired leg delivered in order and the relay took
/// are written to the wireless leg's sender and held until the mobile host
/// acknowledges them.
#[derive(Clone, Copy, Debug)]
struct Relay {
    /// Index of the wireless leg in `flows`.
    leg: u32,
    /// Capacity, in bytes.
    buffer_bytes: u64,
    /// Bytes written to the wireless sender so far.
    written: u64,
    /// Largest occupancy seen (written, not acked by the mobile host), in bytes.
    max_occupancy_bytes: u64,
}

/// An agent on a node, with its armed wake-up.
struct AgentSlot {
    node: NodeId,
    agent: NodeAgent,
    armed: Time,
}

/// Counters for the packet-conservation invariant.
#[derive(Clone, Copy, Debug, Default)]
pub struct Conservation {
    pub created: u64,
    pub delivered: u64,
    pub dropped: u64,
    /// Consumed by an agent on the way (e.g. duplicate acks snoop suppresses).
    pub absorbed: u64,
    /// Pure acks purged from a queue by ACK filtering (seed 001 Sec. 6.2).
    pub filtered: u64,
}

pub struct World<'m> {
    model: &'m Model,
    seed: u64,
    sched: Scheduler,
    links: Vec<Link>,
    /// The packets in links' queues, on their media or propagating.
    pool: PacketPool,
    flows: Vec<FlowState>,
    pub trace: Trace,
    next_uid: u64,
    pub conservation: Conservation,
    /// Per connection and hop of its data path: its goodput state (the
    /// hop's [`RouteHop::cover`] slot).
    cover: Vec<HopGoodput>,
    /// The earlier ranges of each `cover` slot's set.
    cover_earlier: Vec<Vec<(u64, u64)>>,
    /// Every connection's paths, end to end in one array (see [`ConnAt`]).
    route: Vec<RouteHop>,
    /// Per connection, where its paths are.
    conn_at: Vec<ConnAt>,
    active_flows: usize,
    /// The next key at which [`World::keep_chain_keys`] runs, every
    /// `keep_keys_every` keys ([`KEEP_KEYS_EVERY`]; fewer in a test), and
    /// how many frames' keys it kept in full.
    keep_keys_at: u64,
    keep_keys_every: u64,
    keys_kept: u64,
    violations: Vec<String>,
    /// Mid-path agents, grouped by node; agent `k`'s timer key is
    /// `2·flows + k`.
    agents: Vec<AgentSlot>,
    /// Per node, the range of `agents` it runs (empty for most nodes).
    node_agents: Vec<(u32, u32)>,
    /// pcap captures of link directions (none unless asked for).
    captures: Vec<Capture>,
    /// Per model flow, when it starts in this run (drawn per seed when the
    /// scenario gives a range).
    starts: Vec<Time>,
    /// Bytes each model flow delivered while all of them were active.
    overlap: Overlap,
    /// Per connection, its congestion window averaged over time.
    /// What a queue let go of at the latest arrival (kept to reuse its buffer).
    removed: Vec<Removal>,
    /// (flow, a flow that starts when it completes), sorted.
    followers: Vec<(u32, u32)>,
    /// The shared media; medium `m`'s timer key is `2·flows + agents + m`.
    macs: Vec<MacSlot>,
    /// Frames MACs gave up on after their retry limit.
    mac_retry_drops: u64,
    /// Emptied output buffers of the MACs, reused (no allocation per event).
    mac_bufs: Vec<Vec<MacOutput>>,
    /// Per connection, its timeouts awaiting a copy of their segment and
    /// its spurious ones ([`crate::spurious`]).
    spurious: Vec<SpuriousWatch>,
    /// Per connection, its LL-ELSN notices (empty when no medium sends any).
    notices: Vec<NoticeCounters>,
    /// Per goodput slot (`cover`), its connection (empty when no medium
    /// sends LL-ELSN notices): the flow of a frame whose packet its MAC no
    /// longer holds, named by the frame's tag.
    cover_flow: Vec<u32>,
}

/// A shared medium's MAC, with its armed wake-up and, per (sending
/// station, receiving station), the link direction of that hop (2·link +
/// dir; `u32::MAX` where there is no hop).
struct MacSlot {
    mac: Mac,
    armed: Time,
    hop_dir: Vec<u32>,
    stations: usize,
}

/// How a run's event loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every flow finished, or the scenario's stop time came.
    Finished,
    /// The scenario's `max_events` budget ran out first.
    EventBudget,
    /// The caller's interrupt check said stop.
    Interrupted,
}

/// Events between two interrupt checks: about 5 ms of simulation at
/// 13 M events/s, so Ctrl-C is answered well within a second.
pub const INTERRUPT_CHECK_EVENTS: u64 = 1 << 16;

/// Event keys between [`World::keep_chain_keys`]'s passes.
const KEEP_KEYS_EVERY: u64 = 1 << 30;

/// Bytes each of the first `model_flows` connections' receiving
/// application has had so far (a split flow's: its wireless leg's).
fn delivered_now(flows: &[FlowState], model_flows: usize) -> Vec<u64> {
    (0..model_flows).map(|fi| flows[flows[fi].relay.as_ref().map_or(fi, |r| r.leg as usize)].app_next).collect()
}

/// A bulk flow's size in bytes.
fn bulk_bytes(w: Workload) -> Option<u64> {
    match w {
        Workload::Bulk { bytes } => Some(bytes),
        Workload::Timed { .. } => None,
    }
}

/// Per-host tick phase, uniform in [0, tick), from the host's own stream.
fn tick_phase(seed: u64, node: &str, timer: &str, tick_ns: u64) -> u64 {
    let mut r = RngStream::new(seed, &format!("node:{node}:{timer}"));
    (r.uniform() * tick_ns as f64) as u64 % tick_ns.max(1)
}

impl<'m> World<'m> {
    pub fn new(model: &'m Model, seed: u64, trace: bool) -> World<'m> {
        // Each link is set up where it stays: a direction is five cache
        // lines, which each by-value builder step copied (with 10,001 links,
        // a sixth of the instructions of `World::new`).
        let mut links: Vec<Link> = Vec::with_capacity(model.links.len());
        for (li, l) in model.links.iter().enumerate() {
            // Streams are made only for what draws from them.
            let stream = |d: usize, what: &str| {
                RngStream::new(seed, &format!("link:{}:{}:{what}", l.name, model.dir_name(li, d)))
            };
            let dir =
                |d: usize| LinkDir::new(l.dirs[d].params, ErrorModel::new(&l.dirs[d].error, || stream(d, "error")));
            links.push(Link::new(l.duplex, dir(0), dir(1)));
            let link = links.last_mut().expect("just pushed");
            for (d, ld) in link.dirs.iter_mut().enumerate() {
                ld.set_jitter_stream(|| stream(d, "jitter"));
                ld.set_discipline(l.dirs[d].queue.as_deref(), || stream(d, "queue"));
                ld.set_emulator(l.dirs[d].emulation_tick_ns.map(|tick_ns| {
                    // The sending host's kernel clock (seed 001 Sec. 8.1).
                    let host = &model.nodes[l.ends[d] as usize];
                    Emulator::new(KernelClock::new(tick_ns, tick_phase(seed, host, "hardclock", tick_ns)))
                }));
            }
        }
        // The hosts' tick phases: a sender's slow timer, a receiver's fast timer.
        let sender_cfg = |mut scfg: lasthop_tcp::SenderConfig, node: NodeId| {
            if scfg.rto.mode == RtoMode::Bsd {
                scfg.rto.tick_phase_ns = tick_phase(seed, &model.nodes[node as usize], "slowtimo", scfg.rto.tick_ns);
            }
            // SA's burst timer on the testbed host's kernel clock (seed 001 Sec. 9.1.1).
            if let Some(clock) = scfg.adaptation.as_mut().and_then(|a| a.timer.as_mut()) {
                let tick_ns = clock.tick_ns();
                *clock = KernelClock::new(tick_ns, tick_phase(seed, &model.nodes[node as usize], "hardclock", tick_ns));
            }
            scfg
        };
        let receiver_cfg = |mut rcfg: lasthop_tcp::ReceiverConfig, node: NodeId| {
            if let AckPolicy::BsdDelayed { tick_ns, ref mut tick_phase_ns, .. } = rcfg.ack_policy {
                *tick_phase_ns = tick_phase(seed, &model.nodes[node as usize], "fasttimo", tick_ns);
            }
            rcfg
        };
        let mut flows: Vec<FlowState> = model
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let mut sender = Sender::new(sender_cfg(f.sender, f.from), i as u32);
                if let Some(cfg) = f.ll_elsn {
                    sender = sender.with_ll_elsn(cfg);
                }
                let receiver = Receiver::new(receiver_cfg(f.receiver, f.to));
                let mut flow = FlowState::new(sender, receiver, i as u32, f, [f.from, f.to]);
                if let Some(cfg) = f.pareto {
                    let rng = RngStream::new(seed, &format!("flow:{}:pareto", f.name));
                    flow.source = Some(Box::new(Source::Pareto(ParetoSource::new(cfg, rng))));
                }
                flow
            })
            .collect();
        // A split flow's wired leg ends at the base station, whose app-paced
        // receiver feeds the relay; its wireless leg, appended after the
        // model flows (flow id n_flows + k for the k-th split flow), runs
        // from the base station to the mobile host.
        for (i, f) in model.flows.iter().enumerate() {
            let (Some(split), Some(bs)) = (f.split, f.split_node) else { continue };
            let leg = flows.len();
            let mut wired_rcfg = receiver_cfg(f.receiver, bs);
            wired_rcfg.smart_echo = false;
            let wired = &mut flows[i];
            wired.set_to(bs);
            wired.receiver = Receiver::new(wired_rcfg).app_paced();
            wired.relay = Some(Box::new(Relay {
                leg: leg as u32,
                buffer_bytes: split.buffer_bytes,
                written: 0,
                max_occupancy_bytes: 0,
            }));
            let mut wl_scfg = sender_cfg(f.sender, bs);
            wl_scfg.variant = split.wireless;
            let mut sender = Sender::new(wl_scfg, leg as u32);
            sender.on_app_write(0);
            let receiver = Receiver::new(receiver_cfg(f.receiver, f.to));
            let mut wireless = FlowState::new(sender, receiver, i as u32, f, [bs, f.to]);
            wireless.upstream = Some(i as u32);
            wireless.finished = true; // only model flows count as active
            flows.push(wireless);
        }
        let n_legs = flows.len();
        assert_eq!(model.paths.len(), n_legs, "a path pair per connection");
        // A start given as a range is drawn from the flow's own stream.
        let starts: Vec<Time> = model
            .flows
            .iter()
            .map(|f| match f.start_max {
                Some(hi) if hi > f.start => {
                    let u = RngStream::new(seed, &format!("flow:{}:start", f.name)).uniform();
                    f.start.plus_ns((u * hi.since(f.start) as f64) as u64).min(hi)
                }
                _ => f.start,
            })
            .collect();
        // Flows that start when another completes, grouped by that flow.
        let mut followers: Vec<(u32, u32)> =
            model.flows.iter().enumerate().filter_map(|(i, f)| f.start_after.map(|t| (t, i as u32))).collect();
        followers.sort_unstable();
        let mut conn_at = Vec::with_capacity(n_legs);
        let mut route = Vec::new();
        let mut n_cover = 0u32;
        for [data, acks] in &model.paths {
            let at = route.len() as u32;
            conn_at.push(ConnAt { data: at, acks: at + data.len() as u32, end: at + (data.len() + acks.len()) as u32 });
            for (path, is_data) in [(data, true), (acks, false)] {
                for (i, h) in path.iter().enumerate() {
                    let cover = if is_data { n_cover + i as u32 } else { NO_COVER };
                    let to = model.links[h.link as usize].ends[1 - h.dir as usize];
                    let last = i + 1 == path.len();
                    let compress = model.links[h.link as usize].dirs[h.dir as usize].header_compression;
                    let mac = model.links[h.link as usize].dirs[h.dir as usize].medium.is_some();
                    route.push(RouteHop { link: h.link, cover, from: h.node, to, dir: h.dir, last, compress, mac });
                }
            }
            n_cover += data.len() as u32;
        }
        assert!(route.len() < LAST_HOP as usize, "a hop's index and the last-hop mark share 32 bits");
        // Each endpoint's first hop, found as `forward` would find it.
        for (f, at) in flows.iter_mut().zip(&conn_at) {
            let first = |(start, end): (u32, u32), node: NodeId| {
                let path = &route[start as usize..end as usize];
                path.iter().position(|h: &RouteHop| h.from == node).map_or(NO_HOP, |i| start + i as u32)
            };
            f.data_hop = first((at.data, at.acks), f.from);
            f.ack_hop = first((at.acks, at.end), f.to);
        }
        let mut placed: Vec<(NodeId, NodeAgent)> = Vec::new();
        // ACK reconstructors come in connection order: a flow's after its
        // other agents, the split legs' after every flow's.
        let mut ack_recons = model.ack_recons.iter().peekable();
        let mut place_ack_recons = |placed: &mut Vec<(NodeId, NodeAgent)>, conn: u32| {
            while let Some(p) = ack_recons.next_if(|p| p.conn == conn) {
                placed.push((p.node, NodeAgent::AckRecons(Box::new(AckRecons::new(p.cfg, conn)))));
            }
        };
        for (i, f) in model.flows.iter().enumerate() {
            if let Some(node) = f.eln_node {
                placed.push((node, NodeAgent::Eln(ElnMarker::new(i as u32))));
            }
            if let (Some(node), Some(cfg)) = (f.snoop_node, f.snoop) {
                placed.push((node, NodeAgent::Snoop(Box::new(Snoop::new(cfg, i as u32)))));
            }
            place_ack_recons(&mut placed, i as u32);
        }
        for leg in model.flows.len()..n_legs {
            place_ack_recons(&mut placed, leg as u32);
        }
        // Grouped by node, in flow order within a node (a stable sort): a
        // packet meets only its own flow's agents, found by binary search.
        placed.sort_by_key(|(node, _)| *node);
        let mut node_agents = vec![(0u32, 0u32); model.nodes.len()];
        for (k, (node, _)) in placed.iter().enumerate() {
            let r = &mut node_agents[*node as usize];
            if r.1 == 0 {
                r.0 = k as u32;
            }
            r.1 = k as u32 + 1;
        }
        let agents: Vec<AgentSlot> =
            placed.into_iter().map(|(node, agent)| AgentSlot { node, agent, armed: Time::NEVER }).collect();
        let macs: Vec<MacSlot> = model
            .media
            .iter()
            .enumerate()
            .map(|(mi, m)| {
                let n = m.stations.len();
                let node = |s: usize| &model.nodes[m.stations[s] as usize];
                let stream = |s: usize, what: &str| RngStream::new(seed, &format!("mac:{}:{}:{what}", m.name, node(s)));
                let mut hop_dir = vec![u32::MAX; n * n];
                let mut hops = Vec::new();
                for (li, l) in model.links.iter().enumerate() {
                    for (d, dm) in l.dirs.iter().enumerate() {
                        if let Some(h) = dm.medium.filter(|h| h.medium as usize == mi) {
                            hop_dir[usize::from(h.from) * n + usize::from(h.to)] = (2 * li + d) as u32;
                            hops.push((h.from, h.to));
                        }
                    }
                }
                // Each hop direction's error state and stream, named by its
                // stations' nodes (made only when the model draws).
                let hop_error = |(a, b): (u16, u16)| {
                    let name = format!("mac:{}:{}-{}:error", m.name, node(a.into()), node(b.into()));
                    ErrorModel::new(&m.error, || RngStream::new(seed, &name))
                };
                let mac = match m.dcf {
                    Some(cfg) => {
                        let mut dcf = Dcf::new(cfg, n, |s| stream(s, "backoff"));
                        if let Some(q) = &m.queue {
                            dcf = dcf.with_queue_discipline(q, |s| stream(s, "queue"));
                        }
                        if m.error != ErrorModelConfig::None {
                            for &hop in &hops {
                                dcf = dcf.with_link_error_model(hop.0, hop.1, hop_error(hop));
                            }
                        }
                        Mac::Dcf(Box::new(dcf))
                    }
                    None => {
                        let mut radio = Radio::new(m.radio, n, |s| stream(s, "backoff"));
                        if let Some(q) = &m.queue {
                            radio = radio.with_queue_discipline(q, |s| stream(s, "queue"));
                        }
                        // A radio's model decides every frame it sends,
                        // control frames included (see `mac::radio`).
                        if m.error != ErrorModelConfig::None {
                            for s in 0..n {
                                let e = ErrorModel::new(&m.error, || stream(s, "error"));
                                radio = radio.with_error_model(s as u16, e);
                            }
                        }
                        Mac::Radio(Box::new(radio))
                    }
                };
                MacSlot { mac, armed: Time::NEVER, hop_dir, stations: n }
            })
            .collect();
        World {
            model,
            seed,
            sched: Scheduler::new(2 * n_legs + agents.len() + macs.len()),
            links,
            pool: PacketPool::new(),
            flows,
            trace: Trace::new(trace),
            next_uid: 0,
            conservation: Conservation::default(),
            cover: vec![HopGoodput::default(); n_cover as usize],
            cover_earlier: vec![Vec::new(); n_cover as usize],
            route,
            conn_at,
            active_flows: model.flows.len(),
            keep_keys_at: KEEP_KEYS_EVERY,
            keep_keys_every: KEEP_KEYS_EVERY,
            keys_kept: 0,
            violations: Vec::new(),
            agents,
            node_agents,
            captures: Vec::new(),
            // Flows started by others never all run at once by design.
            overlap: Overlap::new(if followers.is_empty() { &starts } else { &[] }),
            followers,
            starts,
            removed: Vec::new(),
            macs,
            mac_retry_drops: 0,
            mac_bufs: Vec::new(),
            spurious: vec![SpuriousWatch::default(); n_legs],
            notices: if model.media.iter().any(|m| m.ll_elsn) {
                vec![NoticeCounters::default(); n_legs]
            } else {
                Vec::new()
            },
            cover_flow: if model.media.iter().any(|m| m.ll_elsn) {
                model
                    .paths
                    .iter()
                    .enumerate()
                    .flat_map(|(f, [data, _])| std::iter::repeat_n(f as u32, data.len()))
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    /// Record what crosses the captured link directions (see [`crate::pcap`]).
    /// Capturing only reads packets: the run is the same with or without.
    pub fn with_captures(mut self, captures: Vec<Capture>) -> World<'m> {
        self.captures = captures;
        self
    }

    /// Record every frame's life on the air of every medium (diagnostics
    /// and tests: a medium's timeline, seed 001 Sec. 5).
    pub fn with_air_logs(mut self) -> World<'m> {
        for slot in &mut self.macs {
            match &mut slot.mac {
                Mac::Radio(r) => r.record_air(),
                Mac::Dcf(d) => d.record_air(),
            }
        }
        self
    }

    /// Packet-radio medium `m`'s air log (empty unless
    /// [`World::with_air_logs`], or if `m` is not a packet radio), with its
    /// stations' nodes.
    pub fn air_log(&self, m: usize) -> (&[lasthop_net::mac::radio::AirRecord], &[NodeId]) {
        let log = match &self.macs[m].mac {
            Mac::Radio(r) => r.air_log(),
            Mac::Dcf(_) => &[],
        };
        (log, &self.model.media[m].stations)
    }

    /// The finished captures, in the order they were given.
    pub fn take_captures(&mut self) -> Vec<CaptureFile> {
        std::mem::take(&mut self.captures).into_iter().map(Capture::finish).collect()
    }

    pub fn now(&self) -> Time {
        self.sched.now()
    }

    /// Run to completion (every flow finished) or to the scenario's stop time;
    /// false if the scenario's event budget ran out first.
    pub fn run(&mut self) -> bool {
        self.run_until(&mut || false) == RunEnd::Finished
    }

    /// [`World::run`], asking `interrupt` every [`INTERRUPT_CHECK_EVENTS`]
    /// events whether to stop (a user's Ctrl-C): the only call out of the
    /// event loop, rare enough to cost nothing per event.
    #[inline(never)]
    pub fn run_until(&mut self, interrupt: &mut dyn FnMut() -> bool) -> RunEnd {
        // Flow starts and stops are known from the outset. Keys are reserved
        // for all of them now, in flow order, but only the earliest waits in
        // the event queue at any time: thousands of flows would otherwise
        // deepen the heap every other event pays for.
        let mut app: Vec<(Time, u64, Event)> = Vec::with_capacity(self.model.flows.len());
        for (i, f) in self.model.flows.iter().enumerate() {
            if f.start_after.is_some() {
                continue; // started by the flow it follows
            }
            let start = self.starts[i];
            app.push((start, self.sched.reserve(), Event::FlowStart { flow: i as u32 }));
            if let Workload::Timed { duration_ns } = f.workload {
                let stop = Event::FlowStop { flow: i as u32 };
                app.push((start.plus_ns(duration_ns), self.sched.reserve(), stop));
            }
        }
        app.sort_unstable_by_key(|&(at, key, _)| (at, key));
        let mut app = app.into_iter();
        let feed = |sched: &mut Scheduler, app: &mut std::vec::IntoIter<(Time, u64, Event)>| {
            if let Some((at, key, ev)) = app.next() {
                sched.schedule_reserved(at, key, ev);
            }
        };
        feed(&mut self.sched, &mut app);
        // The event count at which the loop next looks up from its events:
        // the budget, or the next count at which it asks `interrupt`. One
        // test an event, where there were two.
        let attention = |processed: u64, max_events: u64| max_events.min(processed | (INTERRUPT_CHECK_EVENTS - 1));
        let mut look_up_at = attention(self.sched.events_processed, self.model.max_events);
        while self.active_flows > 0 {
            // Before the peek: between the peek and the pop, the call (on a
            // path never taken) made the pop load again what the inlined
            // peek had in registers, 1.5 ns an event on dumbbell-1.
            if self.sched.next_key() >= self.keep_keys_at {
                self.keep_chain_keys();
            }
            match self.sched.peek_time() {
                Some(t) if t <= self.model.stop => {}
                _ => break,
            }
            let processed = self.sched.events_processed;
            if processed >= look_up_at {
                if processed >= self.model.max_events {
                    return RunEnd::EventBudget;
                }
                if processed % INTERRUPT_CHECK_EVENTS == INTERRUPT_CHECK_EVENTS - 1 && interrupt() {
                    return RunEnd::Interrupted;
                }
                look_up_at = attention(processed + 1, self.model.max_events);
            }
            let Some((now, ev)) = self.sched.pop() else { break };
            if let Event::FlowStart { flow } | Event::FlowStop { flow } = ev {
                if self.model.flows[flow as usize].start_after.is_none() {
                    feed(&mut self.sched, &mut app);
                }
            }
            match ev {
                Event::TxDone { link, dir } => {
                    // One pending arrival per direction: the oldest frame's.
                    let key = self.sched.reserve();
                    let (arrive, oldest) =
                        self.links[link as usize].finish_transmission(now, dir as usize, key, &mut self.pool);
                    if oldest {
                        self.sched.schedule_reserved(arrive, key, Event::Arrive { link, dir });
                    }
                    self.start_link(link as usize, dir as usize);
                }
                Event::Arrive { link, dir } => self.on_arrival(link as usize, dir as usize),
                Event::Wake { endpoint } => self.on_wake(endpoint),
                Event::FlowStart { flow } => {
                    let fi = flow as usize;
                    if let Some(source) = self.flows[fi].source.as_deref_mut() {
                        // A background source sends in the sender's place.
                        source.start(now);
                        self.flush_source(fi);
                    } else {
                        self.flows[fi].sender.start(now, &mut self.trace);
                        self.flush_sender(fi);
                        if let Some(r) = self.flows[fi].relay.as_deref().copied() {
                            self.flows[r.leg as usize].sender.start(now, &mut self.trace);
                        }
                    }
                    let (flows, model_flows) = (&self.flows, self.model.flows.len());
                    self.overlap.on_start(now, fi, || delivered_now(flows, model_flows));
                }
                Event::FlowStop { flow } => {
                    let fi = flow as usize;
                    self.flows[fi].sender.stop();
                    if let Some(source) = self.flows[fi].source.as_deref_mut() {
                        source.stop();
                    }
                    let last = self.last_leg(fi);
                    if last != fi {
                        self.flows[last].sender.stop();
                    }
                    self.flows[fi].delivered_at_stop = Some(self.flows[last].app_next);
                    self.finish(fi);
                }
            }
        }
        RunEnd::Finished
    }

    /// Keep in full the arrival of every propagating frame whose event key
    /// is more than [`KEEP_KEYS_EVERY`] old: a link keeps a frame's key
    /// in 32 bits ([`lasthop_core::Chain`]), which gives it back as long as
    /// fewer than 2^32 keys were taken since. Called each time
    /// `KEEP_KEYS_EVERY` keys have been taken, this keeps every key in 32
    /// bits less than 2^31 keys old, plus what one event takes (bounded by
    /// the memory its events fill).
    #[cold]
    #[inline(never)]
    fn keep_chain_keys(&mut self) {
        let (now, next_key, every) = (self.sched.now(), self.sched.next_key(), self.keep_keys_every);
        for l in &mut self.links {
            self.keys_kept += l.keep_keys(now, next_key, next_key - every, &mut self.pool) as u64;
        }
        self.keep_keys_at = next_key + every;
    }

    /// The scenario's event budget (`u64::MAX`: none).
    pub fn max_events(&self) -> u64 {
        self.model.max_events
    }

    /// The connection whose receiver is model flow `fi`'s receiving
    /// application: its wireless leg if split, else the flow itself.
    fn last_leg(&self, fi: usize) -> usize {
        self.flows[fi].relay.as_ref().map_or(fi, |r| r.leg as usize)
    }

    /// The relay of split flow `wired` (its wired leg): its application
    /// reads what the relay buffer has room for and writes it to the
    /// wireless leg's sender. While the buffer is full it reads nothing and
    /// the wired receiver's window closes (the back-pressure of seed 000
    /// Sec. IV-D: the wired connection "stalls whenever the sender of the
    /// wireless connection experiences a timeout").
    fn relay_pump(&mut self, wired: usize) {
        let Some(r) = self.flows[wired].relay.as_deref().copied() else { return };
        let leg = r.leg as usize;
        let occupancy = r.written - self.flows[leg].sender.snd_una();
        let room = r.buffer_bytes.saturating_sub(occupancy);
        let n = self.flows[wired].receiver.unread_bytes().min(room);
        if n == 0 {
            return;
        }
        self.flows[wired].receiver.app_read(n);
        let written = r.written + n;
        self.flows[wired].relay =
            Some(Box::new(Relay { written, max_occupancy_bytes: r.max_occupancy_bytes.max(occupancy + n), ..r }));
        self.flows[leg].sender.on_app_write(written);
        self.flush_receiver(wired);
        self.flush_sender(leg);
    }

    fn finish(&mut self, flow: usize) {
        let f = &mut self.flows[flow];
        if !f.finished {
            f.finished = true;
            self.active_flows -= 1;
            let now = self.sched.now();
            if self.overlap.wants_end() {
                self.overlap.on_end(now, &delivered_now(&self.flows, self.model.flows.len()));
            }
            if !self.followers.is_empty() {
                self.start_followers(flow, now);
            }
        }
    }

    /// Schedule the starts (and stops) of the flows that follow `flow`,
    /// which completed at `now`.
    #[cold]
    fn start_followers(&mut self, flow: usize, now: Time) {
        let lo = self.followers.partition_point(|&(t, _)| (t as usize) < flow);
        let hi = self.followers.partition_point(|&(t, _)| (t as usize) <= flow);
        for k in lo..hi {
            let fi = self.followers[k].1 as usize;
            let m = &self.model.flows[fi];
            let start = now.plus_ns(m.start.ns());
            self.starts[fi] = start;
            self.sched.schedule(start, Event::FlowStart { flow: fi as u32 });
            if let Workload::Timed { duration_ns } = m.workload {
                self.sched.schedule(start.plus_ns(duration_ns), Event::FlowStop { flow: fi as u32 });
            }
        }
    }

    /// Start what link `li` can send now that direction `dir` changed.
    fn start_link(&mut self, li: usize, dir: usize) {
        let now = self.sched.now();
        while let Some(s) = self.links[li].start_transmission_after(now, dir, &mut self.pool, &mut self.removed) {
            self.account_tx(li, s.dir, &s.frame);
            self.sched.schedule(s.done, Event::TxDone { link: li as u32, dir: s.dir as u8 });
        }
        if !self.removed.is_empty() {
            self.on_dequeue_drops(li);
        }
    }

    /// Free and record what link `li`'s queues dropped at dequeue (CoDel,
    /// FQ-CoDel; counted by the link), each on its own direction.
    #[cold]
    #[inline(never)]
    fn on_dequeue_drops(&mut self, li: usize) {
        for i in 0..self.removed.len() {
            let Removal { pkt, cause } = self.removed[i];
            let (h, _) = self.hop_of(pkt);
            debug_assert_eq!(self.route[h].link as usize, li, "dropped from the link it waited on");
            let ld = 2 * li + self.route[h].dir as usize;
            let pkt = self.pool.take(pkt);
            self.drop(ld, &pkt, cause);
        }
        self.removed.clear();
    }

    /// Goodput accounting (and capture) when a frame goes on a link
    /// direction, from the summary the queue kept: a packet that waited is
    /// not read back (only a capture reads it).
    fn account_tx(&mut self, li: usize, dir: usize, w: &Waiting) {
        if !self.captures.is_empty() {
            let (now, pkt) = (self.sched.now(), self.pool.get(w.pkt));
            for c in &mut self.captures {
                c.on_transmit(now, li, dir, &pkt);
            }
        }
        if w.tag != NO_COVER {
            let g = &mut self.cover[w.tag as usize];
            // (The earlier ranges' vector is read only when they are.)
            let earlier = &mut self.cover_earlier[w.tag as usize];
            g.useful += insert_split(&mut g.last, earlier, w.seq, w.seq + u64::from(w.len));
            g.payload += u64::from(w.len);
        }
    }

    /// Put `pkt` on the next hop from `node` toward its destination.
    fn forward(&mut self, node: NodeId, pkt: Packet) {
        let at = self.conn_at[pkt.flow as usize];
        let (first, end) = match pkt.kind {
            PacketKind::Data | PacketKind::Datagram => (at.data, at.acks),
            PacketKind::Ack => (at.acks, at.end),
        };
        // Paths are a few hops long: a scan beats any map.
        let i = self.route[first as usize..end as usize]
            .iter()
            .position(|h| h.from == node)
            .expect("packets travel their connection's path");
        self.forward_on(first as usize + i, pkt);
    }

    /// Put `pkt` on hop `h` of its path.
    #[inline]
    fn forward_on(&mut self, h: usize, pkt: Packet) {
        let hop = self.route[h];
        let (li, dir) = (hop.link as usize, hop.dir as usize);
        // Data with payload counts toward its hop's goodput state.
        let cover = if pkt.is_data() && pkt.tcp.len > 0 { hop.cover } else { NO_COVER };
        let compress = hop.compress;
        let tag = h as u32 | if hop.last { LAST_HOP } else { 0 };
        let mut w = Waiting::new(&pkt, self.pool.put_tagged(pkt, tag), cover);
        if compress != HeaderCompression::None && pkt.is_pure_ack() {
            // RFC 1144 sends a segment whose options changed uncompressed:
            // the timestamp option changes with every ack (seed 001 Sec. 9).
            let vj_defeated = compress == HeaderCompression::Vj && pkt.tcp.ts.is_some();
            if !vj_defeated {
                w.size_bytes = w.size_bytes.min(COMPRESSED_ACK_BYTES);
            }
        }
        if hop.mac {
            self.mac_enqueue(li, dir, w);
            return;
        }
        let now = self.sched.now();
        // An idle DropTail direction with nothing waiting sends it at once.
        if let Some(s) = self.links[li].start_at_once(now, dir, w, &self.pool) {
            self.account_tx(li, s.dir, &s.frame);
            self.sched.schedule(s.done, Event::TxDone { link: li as u32, dir: s.dir as u8 });
            return;
        }
        match self.links[li].enqueue(dir, now, w, &mut self.pool, &mut self.removed) {
            Admission::Queued => self.start_link(li, dir),
            other => self.on_not_queued(li, dir, w, other),
        }
    }

    /// Free and record what a queue refused or let go of at an arrival of
    /// `w` on direction `dir` of link `li` (the rare path).
    #[cold]
    fn on_not_queued(&mut self, li: usize, dir: usize, w: Waiting, a: Admission) {
        let ld = 2 * li + dir;
        if a == Admission::Refused {
            let pkt = self.pool.take(w.pkt);
            self.drop(ld, &pkt, DropCause::Queue);
            return;
        }
        for i in 0..self.removed.len() {
            let Removal { pkt, cause } = self.removed[i];
            let pkt = self.pool.take(pkt);
            self.drop(ld, &pkt, cause);
        }
        self.removed.clear();
        if a.queued() {
            self.start_link(li, dir);
        }
    }

    /// Count a packet's end on link direction `ld` (a loss, or an ack
    /// purged by ACK filtering) and trace it.
    fn drop(&mut self, ld: usize, p: &Packet, cause: DropCause) {
        if cause == DropCause::Filtered {
            self.conservation.filtered += 1;
        } else {
            self.conservation.dropped += 1;
        }
        // A dropped LL-ELSN notice names the segment it is about.
        let seq = if p.tcp.ll_notice == LlNotice::None { p.tcp.seq } else { p.tcp.ack };
        let ev = TraceEvent::Drop { link_dir: ld as u32, flow: p.flow, seq, is_data: p.is_data(), cause };
        self.trace.record(self.sched.now(), ev);
    }

    fn on_arrival(&mut self, li: usize, dir: usize) {
        let a = self.links[li].take_arrival(self.sched.now(), self.sched.next_key(), dir, &mut self.pool);
        if let Some((at, key)) = a.next {
            self.sched.schedule_reserved(at, key, Event::Arrive { link: li as u32, dir: dir as u8 });
        }
        let (h, last) = self.hop_of(a.pkt);
        debug_assert_eq!((self.route[h].link, self.route[h].dir), (li as u32, dir as u8), "the hop it was queued on");
        if a.corrupted {
            let pkt = self.pool.take(a.pkt);
            self.drop(2 * li + dir, &pkt, DropCause::Error);
            // The receiving host's link layer saw the corrupted frame; its
            // header still names the segment (seed 000 Sec. IV-A).
            if last && pkt.is_data() {
                self.flows[pkt.flow as usize].receiver.on_corrupted(pkt.tcp.seq);
            }
            return;
        }
        self.arrived(h, last, a.pkt);
    }

    /// The packet in pool slot `r` came intact out of hop `h` of its path
    /// (`last`: the path's last hop): it leaves the pool, the node's agents
    /// see it, then it is delivered or forwarded. Always inlined, and the
    /// packet taken here, not passed in: a packet passed by value to a call
    /// is copied (two cache lines, a memcpy per hop on the 1997 LAN bench).
    #[inline(always)]
    fn arrived(&mut self, h: usize, last: bool, r: lasthop_core::pool::PacketRef) {
        let pkt = self.pool.take(r);
        // A path's last hop reaches the packet's destination, no earlier hop
        // does (paths are shortest paths): the node reached is read from the
        // route only where it is needed.
        debug_assert_eq!(last, self.route[h].to == pkt.dst, "a path ends at its destination");
        // Most runs have no agents: skip their (cold) per-node table, and
        // keep the packet out of memory on the way.
        if !self.agents.is_empty() {
            self.arrived_at_agents(h, last, pkt);
            return;
        }
        if last {
            self.conservation.delivered += 1;
            self.deliver(pkt);
            return;
        }
        debug_assert_eq!(self.route[h + 1].from, self.route[h].to, "a path's hops follow on");
        self.forward_on(h + 1, pkt);
    }

    /// [`World::arrived`] where agents sit on some nodes: those of the
    /// node reached see the packet first.
    #[inline(never)]
    fn arrived_at_agents(&mut self, h: usize, last: bool, mut pkt: Packet) {
        let (first, end) = self.flow_agents(self.route[h].to, pkt.flow);
        if first < end {
            match self.run_agents(first, end, &mut pkt) {
                Verdict::Forward => {}
                Verdict::Absorb => {
                    self.conservation.absorbed += 1;
                    self.flush_agents(first, end);
                    return;
                }
                // The agent keeps it; it comes back through `flush_agents`.
                Verdict::Hold => {
                    self.flush_agents(first, end);
                    return;
                }
            }
        }
        if last {
            // Agents on the destination's node act before its endpoint: a
            // local retransmission an ack caused leaves before the sender
            // answers that ack (snoop below an uplink's sender, as ns-2's
            // LLSnoop sends it down before passing the ack up). The other
            // agents emit nothing on a packet they let through (ELN marks;
            // ACK reconstruction forwards only with nothing held), so for
            // them the order changes nothing.
            if first < end {
                self.flush_agents(first, end);
            }
            self.conservation.delivered += 1;
            self.deliver(pkt);
            return;
        }
        debug_assert_eq!(self.route[h + 1].from, self.route[h].to, "a path's hops follow on");
        self.forward_on(h + 1, pkt);
        if first < end {
            self.flush_agents(first, end);
        }
    }

    /// The hop of the packet in pool slot `r`, from its tag: (hop, last).
    #[inline(always)]
    fn hop_of(&self, r: lasthop_core::pool::PacketRef) -> (usize, bool) {
        let tag = self.pool.tag(r);
        ((tag & !LAST_HOP) as usize, tag & LAST_HOP != 0)
    }

    /// Hand `w` (in the pool) to the MAC of the medium that carries
    /// direction `dir` of link `li`, at the sending radio's queue.
    #[inline(never)]
    fn mac_enqueue(&mut self, li: usize, dir: usize, w: Waiting) {
        let hop = self.model.links[li].dirs[dir].medium.expect("a hop on a medium");
        let m = hop.medium as usize;
        let now = self.sched.now();
        let mut out = self.mac_bufs.pop().unwrap_or_default();
        let a = self.macs[m].mac.enqueue(now, hop.from, hop.to, w, &mut self.pool, &mut self.removed, &mut out);
        if a == Admission::Refused {
            self.links[li].dirs[dir].count_mac_removal(DropCause::Queue);
            let pkt = self.pool.take(w.pkt);
            self.drop(2 * li + dir, &pkt, DropCause::Queue);
        }
        // A radio's queue holds frames for several next hops: each removal
        // is counted on its own hop's direction.
        for i in 0..self.removed.len() {
            let Removal { pkt, cause } = self.removed[i];
            let (h, _) = self.hop_of(pkt);
            let (rl, rd) = (self.route[h].link as usize, self.route[h].dir as usize);
            self.links[rl].dirs[rd].count_mac_removal(cause);
            let pkt = self.pool.take(pkt);
            self.drop(2 * rl + rd, &pkt, cause);
        }
        self.removed.clear();
        self.mac_outputs(m, out);
    }

    /// What medium `m` did: frames on the air (counted on their hop's
    /// direction, goodput), frames handed up (on to their next hop or
    /// delivered), frames given up; then its wake-up re-armed.
    fn mac_outputs(&mut self, m: usize, mut out: Vec<MacOutput>) {
        for o in out.drain(..) {
            match o {
                MacOutput::Transmit { station, to, frame, held, .. } => {
                    let slot = &self.macs[m];
                    let ld = slot.hop_dir[usize::from(station) * slot.stations + usize::from(to)] as usize;
                    let (li, dir) = (ld / 2, ld % 2);
                    let airtime = match &self.model.media[m].dcf {
                        Some(dcf) => dcf.data_ns(frame.size_bytes),
                        None => {
                            let radio = &self.model.media[m].radio;
                            radio.tx_ns(frame.size_bytes + radio.mac_header_bytes)
                        }
                    };
                    self.links[li].dirs[dir].count_mac_transmit(frame.size_bytes, airtime);
                    if held {
                        self.account_tx(li, dir, &frame);
                    } else if frame.tag != NO_COVER {
                        // A link retransmission of a frame already handed
                        // up: its packet is gone; its bytes count as sent.
                        self.cover[frame.tag as usize].payload += u64::from(frame.len);
                    }
                }
                MacOutput::Deliver { frame, .. } => {
                    let (h, last) = self.hop_of(frame.pkt);
                    self.arrived(h, last, frame.pkt);
                }
                MacOutput::Drop { station, frame, cause } => {
                    let (h, _) = self.hop_of(frame.pkt);
                    let (li, dir) = (self.route[h].link as usize, self.route[h].dir as usize);
                    let pkt = self.pool.take(frame.pkt);
                    let cause = match cause {
                        MacDropCause::Queue => {
                            self.links[li].dirs[dir].count_mac_removal(DropCause::Queue);
                            DropCause::Queue
                        }
                        MacDropCause::RetryLimit => {
                            if self.model.media[m].ll_elsn {
                                self.ll_notice(m, station, &frame, LlNotice::Eln);
                            }
                            self.mac_retry_drops += 1;
                            DropCause::RetryLimit
                        }
                    };
                    self.drop(2 * li + dir, &pkt, cause);
                }
                // The first link retransmission of a frame, from the MAC's
                // own retry state: whether the peer already handed it up
                // (only its MAC ack lost) is the peer's to know, not this
                // station's (seed 004 Sec. 3.1: "When the wireless link
                // layer of BS fails in the first transmission attempt of
                // the packet 1 (Layer-2 ACK timeout) ... BS sends the
                // [ERSN]"). The frame's own fields name the segment: its
                // packet may be gone.
                MacOutput::Retry { station, frame, attempt: 2, .. } if self.model.media[m].ll_elsn => {
                    self.ll_notice(m, station, &frame, LlNotice::Ersn);
                }
                MacOutput::Retry { .. } => {}
            }
        }
        // The buffer is kept: a delivery forwarded onto the next radio hop
        // takes another while this one is in use, so there is a small stack.
        self.mac_bufs.push(out);
        let want = self.macs[m].mac.poll_at();
        if want < self.macs[m].armed {
            let now = self.sched.now();
            let at = want.max(now);
            self.macs[m].armed = at;
            self.sched.set_timer((2 * self.flows.len() + self.agents.len() + m) as u32, at);
        }
    }

    /// The agents of `flow` on `node`: a range of the node's agents, which
    /// are in flow order (agents act on their own flow's packets only).
    fn flow_agents(&self, node: NodeId, flow: u32) -> (usize, usize) {
        let (first, end) = self.node_agents[node as usize];
        let (first, end) = (first as usize, end as usize);
        if first == end {
            return (0, 0);
        }
        let on_node = &self.agents[first..end];
        let lo = on_node.partition_point(|s| s.agent.flow() < flow);
        let hi = lo + on_node[lo..].partition_point(|s| s.agent.flow() == flow);
        (first + lo, first + hi)
    }

    /// Hand `pkt` to the node's agents `first..end` in order; the first that
    /// absorbs or holds it ends its journey.
    fn run_agents(&mut self, first: usize, end: usize, pkt: &mut Packet) -> Verdict {
        let now = self.sched.now();
        for slot in &mut self.agents[first..end] {
            match slot.agent.on_packet(now, pkt) {
                Verdict::Forward => {}
                v => return v,
            }
        }
        Verdict::Forward
    }

    /// Send what agents `first..end` emit from their node (packets they
    /// make are fresh, counted as created; packets they held keep their
    /// identity) and re-arm their timers.
    fn flush_agents(&mut self, first: usize, end: usize) {
        let now = self.sched.now();
        for k in first..end {
            while let Some(out) = self.agents[k].agent.poll_transmit(now) {
                let mut pkt = out.pkt;
                if out.is_created() {
                    pkt.uid = self.next_uid;
                    self.next_uid += 1;
                    self.conservation.created += 1;
                }
                let node = self.agents[k].node;
                if let (true, Origin::LocalRetransmit { by_timer }) = (self.trace.enabled, out.origin) {
                    let (flow, seq, len) = (pkt.flow, pkt.tcp.seq, pkt.tcp.len);
                    let ev = TraceEvent::LocalRetransmit { flow, seq, len, node, timer: by_timer };
                    self.trace.record(now, ev);
                }
                if node == pkt.dst {
                    // An agent on the destination's own node (acks coming
                    // out of a link into their sender).
                    self.conservation.delivered += 1;
                    self.deliver(pkt);
                } else {
                    self.forward(node, pkt);
                }
            }
            let want = self.agents[k].agent.poll_at();
            if want < self.agents[k].armed {
                let at = want.max(now);
                self.agents[k].armed = at;
                self.sched.set_timer((2 * self.flows.len() + k) as u32, at);
            }
        }
    }

    fn deliver(&mut self, pkt: Packet) {
        let now = self.sched.now();
        let fi = pkt.flow as usize;
        let f = &mut self.flows[fi];
        match pkt.kind {
            PacketKind::Data => {
                if pkt.tcp.seq <= f.spurious_watch && f.spurious_watch < pkt.seq_end() {
                    let (_, pending) = self.spurious[fi].on_delivery(pkt.uid);
                    if !pending {
                        f.spurious_watch = NO_WATCH;
                    }
                }
                let f = &mut self.flows[fi];
                if let Some(d) = f.receiver.on_segment(now, &pkt.tcp) {
                    if d.start != f.app_next {
                        self.violations.push(format!(
                            "flow {fi}: delivery [{}, {}) does not start at {}",
                            d.start, d.end, f.app_next
                        ));
                    }
                    f.app_next = d.end;
                    if f.relay.is_some() {
                        self.relay_pump(fi);
                    } else {
                        let m = f.model_flow as usize;
                        // A timed flow's `NO_BULK` is never reached.
                        if d.end >= f.bulk_bytes && self.flows[m].done_at.is_none() {
                            self.flows[m].done_at = Some(now);
                            // With a handshake the flow ends when the
                            // FIN's ack reaches the sender.
                            if !self.model.flows[m].sender.handshake {
                                self.finish(m);
                            }
                        }
                    }
                }
                if pkt.ecn == Ecn::Ce {
                    self.flows[fi].receiver.on_ce_mark();
                }
                self.flush_receiver(fi);
            }
            // An LL-ELSN notice from the access point: never an ack. Its
            // `seq` is when the link layer raised it (see `ll_notice_of`).
            PacketKind::Ack if pkt.tcp.ll_notice != LlNotice::None => {
                let raised_ns = now.since(Time(pkt.tcp.seq));
                self.notice_reached_sender(fi, pkt.tcp.ll_notice, pkt.tcp.ack, raised_ns);
            }
            PacketKind::Ack => {
                // A window update (same ack, new window) is not a duplicate (RFC 5681 Sec. 2).
                let ack = (pkt.tcp.ack, pkt.tcp.wnd_bytes);
                if f.last_ack_at_source == Some(ack) && !pkt.tcp.syn {
                    f.dupacks_at_source += 1;
                }
                f.last_ack_at_source = Some(ack);
                if pkt.ecn == Ecn::Ce {
                    f.sender.on_ce_mark();
                }
                f.sender.on_ack(now, &pkt.tcp, &mut self.trace);
                let closed = f.sender.is_closed() && !f.finished;
                if let Some(wired) = f.upstream {
                    // The mobile host acknowledged relay data: room to read more.
                    self.relay_pump(wired as usize);
                }
                if closed {
                    self.finish(fi); // the FIN is acknowledged
                }
                self.flush_sender(fi);
            }
            // A background source's datagram: counted, never acknowledged.
            PacketKind::Datagram => f.app_next += u64::from(pkt.size_bytes),
        }
    }

    fn on_wake(&mut self, endpoint: u32) {
        let now = self.sched.now();
        let n_endpoints = 2 * self.flows.len();
        if endpoint as usize >= n_endpoints + self.agents.len() {
            self.mac_wake(endpoint as usize - n_endpoints - self.agents.len());
            return;
        }
        if endpoint as usize >= n_endpoints {
            let k = endpoint as usize - n_endpoints;
            self.agents[k].armed = Time::NEVER;
            self.agents[k].agent.on_timer(now);
            self.flush_agents(k, k + 1);
            return;
        }
        let (fi, side) = ((endpoint / 2) as usize, (endpoint % 2) as usize);
        *self.flows[fi].armed_mut(side) = Time::NEVER;
        if side == 0 && self.flows[fi].source.is_some() {
            self.flush_source(fi);
        } else if side == 0 {
            let timeouts = self.flows[fi].sender.timeouts();
            self.flows[fi].sender.on_timer(now, &mut self.trace);
            if self.flows[fi].sender.timeouts() != timeouts {
                self.on_timeout_fired(fi);
            }
            self.flush_sender(fi);
        } else {
            self.flows[fi].receiver.on_timer(now);
            self.flush_receiver(fi);
        }
    }

    /// Medium `m`'s wake-up: its internal events due now, then what they
    /// did. Out of line: a shared medium's state machines kept out of the
    /// event loop leave the wired path's code as it was.
    #[inline(never)]
    fn mac_wake(&mut self, m: usize) {
        let now = self.sched.now();
        self.macs[m].armed = Time::NEVER;
        let mut out = self.mac_bufs.pop().unwrap_or_default();
        self.macs[m].mac.on_timer(now, &mut out);
        self.mac_outputs(m, out);
    }

    /// Connection `fi`'s sender timed out (before it resends anything): if
    /// its receiver still lacks the byte it goes back to, watch that byte
    /// (the spurious-timeout oracle, [`crate::spurious`]).
    #[cold]
    fn on_timeout_fired(&mut self, fi: usize) {
        let f = &mut self.flows[fi];
        if f.sender.is_syn_sent() {
            return; // a SYN's timeout
        }
        let seq = f.sender.snd_una();
        if f.receiver.rcv_nxt() != seq {
            return; // it arrived before the timer fired: the acks were late
        }
        let restart = f.spurious_watch != seq;
        f.spurious_watch = seq;
        self.spurious[fi].on_timeout(restart, self.next_uid);
    }

    fn new_packet(&mut self, fi: usize, kind: PacketKind, tcp: TcpHeader) -> Packet {
        let f = &self.flows[fi];
        // The endpoints choose the IP ECN field (RFC 3168; seed 001's ECT acks).
        let (src, dst, size, ecn) = match kind {
            // A SYN is header only, sized as a pure ack (`header_bytes` may
            // be 0 where the segment size counts the headers).
            PacketKind::Data if tcp.syn => (f.from, f.to, f.ack_bytes, Ecn::NotEct),
            PacketKind::Data => (f.from, f.to, f.header_bytes + tcp.len, f.sender.ip_ecn(&tcp)),
            // RFC 3168 Sec. 6.1.1: a SYN-ACK is never ECN-capable.
            PacketKind::Ack if tcp.syn => (f.ack_ends[0], f.ack_ends[1], f.ack_bytes, Ecn::NotEct),
            PacketKind::Ack => (f.ack_ends[0], f.ack_ends[1], f.ack_bytes, f.receiver.ip_ecn()),
            // A datagram's size rides in `len` (see `flush_source`).
            PacketKind::Datagram => (f.from, f.to, tcp.len, Ecn::NotEct),
        };
        self.next_uid += 1;
        self.conservation.created += 1;
        Packet { uid: self.next_uid - 1, flow: fi as u32, kind, src, dst, size_bytes: size, ecn, tcp }
    }

    fn flush_sender(&mut self, fi: usize) {
        let now = self.sched.now();
        let f = &mut self.flows[fi];
        f.cwnd_avg.on_change(now, f.sender.cwnd_bytes());
        while let Some(tcp) = self.flows[fi].sender.poll_transmit(now, &mut self.trace) {
            let pkt = self.new_packet(fi, PacketKind::Data, tcp);
            if !self.notices.is_empty() {
                self.notices[fi].data_bytes_sent += u64::from(pkt.size_bytes);
            }
            // Agents on the sender's own node (snoop at an uplink's mobile
            // sender) see its segments before they leave.
            let (first, end) = if self.agents.is_empty() { (0, 0) } else { self.flow_agents(pkt.src, pkt.flow) };
            if first < end {
                self.send_through_agents(fi, first, end, pkt);
                continue;
            }
            match self.flows[fi].data_hop {
                NO_HOP => self.forward(pkt.src, pkt),
                h => self.forward_on(h as usize, pkt),
            }
        }
        let want = self.flows[fi].sender.poll_at();
        self.rearm(fi, 0, want);
    }

    /// Flow `fi`'s new segment `pkt` meets the agents `first..end` on its
    /// sender's node before it leaves (out of line: the common path, no
    /// agent there, keeps the packet in registers).
    #[inline(never)]
    fn send_through_agents(&mut self, fi: usize, first: usize, end: usize, mut pkt: Packet) {
        match (self.run_agents(first, end, &mut pkt), self.flows[fi].data_hop) {
            (Verdict::Forward, NO_HOP) => self.forward(pkt.src, pkt),
            (Verdict::Forward, h) => self.forward_on(h as usize, pkt),
            (Verdict::Absorb, _) => self.conservation.absorbed += 1,
            (Verdict::Hold, _) => {}
        }
        self.flush_agents(first, end);
    }

    /// LL-ELSN (seed 004 Sec. 3.1): station `station` of medium `m` tells
    /// the sender of the TCP segment in `frame` that its link layer retries
    /// it (ERSN) or discarded it (ELN). At the sender's own node (uplink)
    /// the link layer calls its TCP directly; elsewhere (the access point)
    /// it sends an ack-format packet, from the receiver to the sender, whose
    /// `ack` is the segment's first byte. Only data with payload raises
    /// one (a frame with a goodput slot: pure acks, SYNs and datagrams
    /// have none); the access point keeps no per-connection state. What it
    /// reads is the frame's own record (the header the access point read
    /// when the packet came in: its tag, first byte and length), never the
    /// packet, which the MAC no longer holds once the peer handed it up.
    ///
    /// The notice's `seq`, which an ack leaves unused in the model (the
    /// receiver sends no data; pcap writes its ISN + 1 whatever the field
    /// holds), carries the time it was raised, in ns, so that the sender's
    /// side measures the ELN delay without a field more in every packet.
    #[cold]
    fn ll_notice(&mut self, m: usize, station: u16, frame: &Waiting, kind: LlNotice) {
        if frame.tag == NO_COVER || frame.len == 0 {
            return;
        }
        let node = self.model.media[m].stations[usize::from(station)];
        let fi = self.cover_flow[frame.tag as usize] as usize;
        let now = self.sched.now();
        if node == self.flows[fi].from {
            self.notices[fi].on_sent(kind, 0);
            self.notice_reached_sender(fi, kind, frame.seq, 0);
            return;
        }
        let tcp = TcpHeader { seq: now.ns(), ack: frame.seq, ll_notice: kind, ..TcpHeader::default() };
        let mut notice = self.new_packet(fi, PacketKind::Ack, tcp);
        notice.ecn = Ecn::NotEct;
        self.notices[fi].on_sent(kind, notice.size_bytes);
        self.forward(node, notice);
    }

    /// Connection `fi`'s sender learns that the link layer retries (ERSN)
    /// or discarded (ELN) its segment starting at `seq`, `delay_ns` after
    /// the link layer raised it (0 uplink: a direct call).
    #[cold]
    fn notice_reached_sender(&mut self, fi: usize, kind: LlNotice, seq: u64, delay_ns: u64) {
        let now = self.sched.now();
        let sender = &mut self.flows[fi].sender;
        if kind == LlNotice::Ersn {
            sender.on_ersn(now, seq, &mut self.trace);
        } else {
            sender.on_link_eln(now, seq, &mut self.trace);
            self.notices[fi].on_eln_arrived(delay_ns);
        }
        self.flush_sender(fi);
    }

    /// Send what flow `fi`'s background source has due, and re-arm it.
    #[cold]
    fn flush_source(&mut self, fi: usize) {
        let now = self.sched.now();
        loop {
            let source = self.flows[fi].source.as_deref_mut().expect("a source flow");
            let Some(size) = source.poll_transmit(now) else { break };
            // Its index as `seq` (captures and traces), its size as `len`.
            let tcp = TcpHeader { seq: source.sent() - 1, len: size, ..TcpHeader::default() };
            let pkt = self.new_packet(fi, PacketKind::Datagram, tcp);
            match self.flows[fi].data_hop {
                NO_HOP => self.forward(pkt.src, pkt),
                h => self.forward_on(h as usize, pkt),
            }
        }
        let want = self.flows[fi].source.as_deref().expect("a source flow").poll_at();
        self.rearm(fi, 0, want);
    }

    fn flush_receiver(&mut self, fi: usize) {
        let now = self.sched.now();
        while let Some(tcp) = self.flows[fi].receiver.poll_transmit(now) {
            let pkt = self.new_packet(fi, PacketKind::Ack, tcp);
            match self.flows[fi].ack_hop {
                NO_HOP => self.forward(pkt.src, pkt),
                h => self.forward_on(h as usize, pkt),
            }
        }
        let want = self.flows[fi].receiver.poll_at();
        self.rearm(fi, 1, want);
    }

    /// Arm an endpoint's wake-up only when it wants it earlier than armed: a
    /// later want is served by the early wake-up, which re-arms.
    fn rearm(&mut self, fi: usize, side: usize, want: Time) {
        if want < *self.flows[fi].armed_mut(side) {
            let at = want.max(self.sched.now());
            *self.flows[fi].armed_mut(side) = at;
            let endpoint = (2 * fi + side) as u32;
            self.sched.set_timer(endpoint, at);
        }
    }

    /// Packets still in queues, on a medium or propagating.
    pub fn in_flight(&self) -> u64 {
        let media: u64 = self.macs.iter().map(|m| m.mac.in_flight() as u64).sum();
        self.links.iter().map(|l| l.in_flight() as u64).sum::<u64>() + media
    }

    /// The run's invariants; an error describes the first that fails.
    pub fn check_invariants(&self) -> Result<(), String> {
        if let Some(v) = self.violations.first() {
            return Err(v.clone());
        }
        let c = self.conservation;
        let in_flight = self.in_flight();
        // Agents hold packets (ACK reconstruction's real acks) and discard
        // held ones a newer packet superseded: both end there, like absorbed ones.
        let held: u64 = self.agents.iter().map(|s| s.agent.held()).sum();
        let absorbed = c.absorbed + self.agents.iter().map(|s| s.agent.discarded()).sum::<u64>();
        if c.created != c.delivered + c.dropped + absorbed + c.filtered + held + in_flight {
            return Err(format!(
                "packets not conserved: created {} != delivered {} + dropped {} + absorbed {absorbed} + filtered {} \
                 + held by agents {held} + in flight {in_flight}",
                c.created, c.delivered, c.dropped, c.filtered
            ));
        }
        if self.pool.len() as u64 != in_flight {
            return Err(format!("{} packets stored for {in_flight} in links", self.pool.len()));
        }
        let dirs = || self.links.iter().flat_map(|l| l.dirs.iter());
        let link_drops: u64 = dirs().map(|d| d.stats()).map(|s| s.drops_error + s.drops_queue + s.drops_early).sum();
        if link_drops + self.mac_retry_drops != c.dropped {
            return Err(format!(
                "link drop counters {link_drops} + MAC retry-limit drops {} != dropped packets {}",
                self.mac_retry_drops, c.dropped
            ));
        }
        let link_filtered: u64 = dirs().map(|d| d.stats().drops_filtered).sum();
        if link_filtered != c.filtered {
            return Err(format!("link filter counters {link_filtered} != filtered acks {}", c.filtered));
        }
        // A background source's receiving end counts datagram bytes, with no
        // TCP receiver behind it.
        for (i, f) in self.flows.iter().enumerate().filter(|(_, f)| f.source.is_none()) {
            if f.app_next != f.receiver.rcv_nxt() {
                return Err(format!(
                    "flow {i}: application has {} bytes, receiver {}",
                    f.app_next,
                    f.receiver.rcv_nxt()
                ));
            }
            if let Some(r) = f.relay.as_deref() {
                if r.max_occupancy_bytes > r.buffer_bytes {
                    return Err(format!(
                        "flow {i}: relay held {} bytes, more than its {} bytes",
                        r.max_occupancy_bytes, r.buffer_bytes
                    ));
                }
            }
        }
        for (i, (f, m)) in self.flows.iter().zip(&self.model.flows).enumerate() {
            let delivered = self.flows[self.last_leg(i)].app_next;
            if let Workload::Bulk { bytes } = m.workload {
                if f.done_at.is_some() && delivered != bytes {
                    return Err(format!("flow {i}: delivered {delivered} of exactly {bytes} bytes"));
                }
            }
        }
        Ok(())
    }

    pub fn summary(&self) -> RunSummary {
        let end = self.sched.now();
        let overlap = self.overlap.throughputs_bps(end, &delivered_now(&self.flows, self.model.flows.len()));
        let secs = |ns: u64| ns as f64 / NS_PER_S as f64;
        let flows: Vec<FlowSummary> = self
            .flows
            .iter()
            .zip(&self.model.flows)
            .enumerate()
            .map(|(fi, (f, m))| {
                let st = f.sender.stats();
                let on_flow = || self.agents.iter().filter(move |s| s.agent.flow() as usize == fi);
                // Reconstructors of any connection of the flow (split legs too).
                let recons = self
                    .agents
                    .iter()
                    .filter(|s| matches!(s.agent, NodeAgent::AckRecons(_)))
                    .filter(|s| self.flows[s.agent.flow() as usize].model_flow as usize == fi);
                // The receiving application is the last leg's (split flows).
                let app_next = self.flows[self.last_leg(fi)].app_next;
                let start = self.starts[fi];
                let (bytes, elapsed_ns, completed) = match m.workload {
                    Workload::Bulk { .. } => {
                        let until = f.done_at.unwrap_or(end);
                        (app_next, until.since(start), f.done_at.is_some())
                    }
                    Workload::Timed { duration_ns } => {
                        let b = f.delivered_at_stop.unwrap_or(app_next);
                        let ran = f.delivered_at_stop.is_some();
                        (b, if ran { duration_ns } else { end.since(start) }, ran)
                    }
                };
                let cwnd_until = f.done_at.or(f.delivered_at_stop.map(|_| start.plus_ns(elapsed_ns))).unwrap_or(end);
                let t = secs(elapsed_ns);
                FlowSummary {
                    name: self.model.labels.flows[fi].clone(),
                    mss_bytes: m.sender.mss_bytes,
                    bytes_delivered: bytes,
                    throughput_bps: if t > 0.0 { bytes as f64 * 8.0 / t } else { 0.0 },
                    transfer_time_s: t,
                    retransmits: st.retransmits,
                    timeouts: st.timeouts,
                    spurious_timeouts: self.spurious[fi].count,
                    fast_retransmits: st.fast_retransmits,
                    eln_retransmits: st.eln_retransmits,
                    local_retransmits: on_flow().map(|s| s.agent.local_retransmits()).sum(),
                    dupacks_suppressed: on_flow().map(|s| s.agent.dupacks_suppressed()).sum(),
                    double_retransmits: on_flow().filter_map(|s| s.agent.double_retransmits()).reduce(|a, b| a + b),
                    dupacks_at_source: f.dupacks_at_source,
                    acks_reconstructed: recons
                        .clone()
                        .next()
                        .map(|_| recons.map(|s| s.agent.acks_reconstructed()).sum()),
                    completed,
                    start_s: start.as_secs_f64(),
                    k: self.model.k_of_flows[fi],
                    mean_cwnd_segments: f.cwnd_avg.mean_bytes(cwnd_until) / f64::from(m.sender.mss_bytes),
                    cwnd_std_segments: f.cwnd_avg.std_bytes(cwnd_until) / f64::from(m.sender.mss_bytes),
                    mean_rtt_ms: (st.rtt_samples > 0).then(|| st.rtt_sum_ns as f64 / st.rtt_samples as f64 / 1e6),
                    rtt_std_ms: st.rtt_mean_std_ns().map(|(_, sd)| sd / 1e6),
                    overlap_throughput_bps: overlap.as_ref().map(|x| x[fi]),
                    split: f.relay.as_deref().map(|r| {
                        let leg = &self.flows[r.leg as usize];
                        let ws = leg.sender.stats();
                        SplitSummary {
                            wireless_flow_id: r.leg,
                            bytes_at_base_station: f.app_next,
                            relay_buffer_bytes: r.buffer_bytes,
                            relay_max_occupancy_bytes: r.max_occupancy_bytes,
                            wireless_retransmits: ws.retransmits,
                            wireless_timeouts: ws.timeouts,
                            wireless_fast_retransmits: ws.fast_retransmits,
                            wireless_dupacks: leg.dupacks_at_source,
                        }
                    }),
                    connection: f.sender.connection().map(|c| {
                        let syn_sent = c.syn_sent_at.unwrap_or(start);
                        ConnectionSummary {
                            syn_sent_s: syn_sent.as_secs_f64(),
                            established_s: c.established_at.map(Time::as_secs_f64),
                            last_byte_delivered_s: f.done_at.map(Time::as_secs_f64),
                            last_byte_acked_s: c.fin_acked_at.map(Time::as_secs_f64),
                            completion_time_s: c.fin_acked_at.map(|t| secs(t.since(syn_sent))),
                            syn_retransmits: c.syn_retransmits,
                        }
                    }),
                    // LL-ELSN senders, and flows a link layer sent notices to.
                    ll_elsn: {
                        let n = self.notices.get(fi).copied().unwrap_or_default();
                        let delay = n.eln_delay_ms();
                        (f.sender.ll_elsn().is_some() || n.ersns_sent + n.elns_sent > 0).then(|| LlElsnSummary {
                            ersns_received: st.ersns_received,
                            elns_received: st.elns_received,
                            eln_retransmits: st.ll_eln_retransmits,
                            deferred_timeouts: st.ersn_deferred_timeouts,
                            disconnections: st.disconnections,
                            ersns_sent: n.ersns_sent,
                            elns_sent: n.elns_sent,
                            ersn_bytes_sent: n.ersn_bytes_sent,
                            eln_bytes_sent: n.eln_bytes_sent,
                            data_bytes_sent: n.data_bytes_sent,
                            eln_delay_ms_mean: delay.map(|d| d.0),
                            eln_delay_ms_min: delay.map(|d| d.1),
                            eln_delay_ms_max: delay.map(|d| d.2),
                        })
                    },
                    datagrams: f.source.as_deref().map(|s| {
                        // Its datagrams are all one size: their bytes count them.
                        let received = app_next / u64::from(s.packet_bytes());
                        DatagramSummary { sent: s.sent(), received, bursts: s.bursts() }
                    }),
                }
            })
            .collect();
        // Per link direction: payload bytes put on it, and of those the
        // bytes that crossed it for the first time.
        let mut dir_bytes = vec![(0u64, 0u64); 2 * self.links.len()];
        for hop in self.route.iter().filter(|h| h.cover != NO_COVER) {
            let g = &self.cover[hop.cover as usize];
            let b = &mut dir_bytes[2 * hop.link as usize + hop.dir as usize];
            (b.0, b.1) = (b.0 + g.payload, b.1 + g.useful);
        }
        let mut links = Vec::new();
        for (li, l) in self.links.iter().enumerate() {
            for d in 0..2 {
                let s = l.dirs[d].stats();
                let queue = l.dirs[d].queue_stats(end).map(|q| QueueSummary {
                    marks: q.marks,
                    drops_early: s.drops_early,
                    drops_filtered: s.drops_filtered,
                    mean_queue_packets: q.mean_packets,
                    ack_share: (q.mean_packets > 0.0).then(|| q.mean_acks / q.mean_packets),
                    utilisation: if end.ns() > 0 { l.dirs[d].busy_ns(end) as f64 / end.ns() as f64 } else { 0.0 },
                    red_average_packets: q.red_average,
                });
                let (sent, useful) = dir_bytes[2 * li + d];
                links.push(LinkSummary {
                    name: self.model.labels.links[li].clone(),
                    direction: self.model.labels.dirs[2 * li + d].clone(),
                    goodput: (sent > 0).then(|| useful as f64 / sent as f64),
                    drops_error: s.drops_error,
                    drops_queue: s.drops_queue,
                    packets_sent: s.packets_sent,
                    bytes_sent: s.bytes_sent,
                    queue,
                });
            }
        }
        let published = self.model.published.as_ref().map(|p| {
            let f: &FlowSummary = &flows[p.flow];
            // The a->b direction of a link is entry 2·link of `links`.
            let goodput_pct =
                |l: Option<usize>| l.and_then(|l| links[2 * l].goodput).map(|g: f64| (g * 1e4).round() / 100.0);
            let measured = f.throughput_bps / 1e6;
            PublishedComparison {
                source: p.source.clone(),
                cell: p.selector.clone(),
                throughput_mbps: p.cell.throughput_mbps,
                wireless_goodput_pct: p.cell.wireless_goodput_pct,
                wired_goodput_pct: p.cell.wired_goodput_pct,
                measured_throughput_mbps: measured,
                measured_wireless_goodput_pct: goodput_pct(p.wireless_link),
                measured_wired_goodput_pct: goodput_pct(p.wired_link),
                ratio: measured / p.cell.throughput_mbps,
            }
        });
        RunSummary {
            seed: self.seed,
            scenario: self.model.name.clone(),
            sim_time_s: end.as_secs_f64(),
            events: self.sched.events_processed,
            jain_index: overlap.as_deref().and_then(jain_index),
            flows,
            links,
            published,
            media: self.media_summary(),
        }
    }

    fn media_summary(&self) -> Vec<MediumSummary> {
        let secs = |ns: u64| ns as f64 / NS_PER_S as f64;
        self.macs
            .iter()
            .zip(&self.model.media)
            .map(|(slot, m)| {
                let node = |s: usize| self.model.nodes[m.stations[s] as usize].clone();
                let r = match &slot.mac {
                    Mac::Radio(r) => r,
                    Mac::Dcf(d) => {
                        let stations = (0..slot.stations)
                            .map(|s| {
                                let st = d.stats(s as u16);
                                DcfSummary {
                                    node: node(s),
                                    frames_enqueued: st.enqueued,
                                    attempts: st.attempts,
                                    retries: st.retries,
                                    collisions: st.collisions,
                                    corrupted: st.data_frames_corrupted,
                                    delivered_up: st.delivered_up,
                                    duplicates_suppressed: st.duplicates_suppressed,
                                    backoff_s: secs(st.backoff_ns),
                                    airtime_s: secs(st.airtime_ns),
                                    drops_queue: st.drops_queue,
                                    drops_filtered: st.drops_filtered,
                                    drops_retry_limit: st.drops_retry_limit,
                                }
                            })
                            .collect();
                        return MediumSummary { name: m.name.clone(), radios: Vec::new(), stations };
                    }
                };
                let radios = (0..slot.stations)
                    .map(|s| {
                        let st = r.stats(s as u16);
                        RadioSummary {
                            node: self.model.nodes[m.stations[s] as usize].clone(),
                            frames_enqueued: st.enqueued,
                            data_frames_sent: st.data_frames_sent,
                            link_retransmissions: st.link_retransmissions,
                            frames_delivered_up: st.delivered_up,
                            rts_sent: st.rts_sent,
                            cts_sent: st.cts_sent,
                            poll_timeouts: st.poll_timeouts,
                            rts_ignored_busy: st.rts_ignored_busy,
                            link_acks_sent: st.link_acks_sent,
                            link_acks_piggybacked: st.link_acks_piggybacked,
                            turnaround_s: secs(st.turnaround_ns),
                            rts_cts_s: secs(st.rts_cts_ns),
                            backoff_s: secs(st.backoff_ns),
                            airtime_s: secs(st.airtime_ns),
                            drops_queue: st.drops_queue,
                            drops_filtered: st.drops_filtered,
                            drops_retry_limit: st.drops_retry_limit,
                        }
                    })
                    .collect();
                MediumSummary { name: m.name.clone(), radios, stations: Vec::new() }
            })
            .collect()
    }

    /// Names of nodes, indexed as in local-retransmission traces.
    pub fn node_names(&self) -> Arc<[String]> {
        self.model.labels.nodes.clone()
    }

    /// Names of link directions, indexed as in drop traces (2·link + dir).
    pub fn link_dir_names(&self) -> Arc<[String]> {
        self.model.labels.link_dirs.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loop asks `interrupt` once every [`INTERRUPT_CHECK_EVENTS`]
    /// events, before the event that completes each such count, and stops
    /// there when it answers true; the budget still stops a run at its
    /// exact count.
    #[test]
    fn interrupt_is_asked_every_check_interval_and_the_budget_is_exact() {
        let sc = crate::Scenario::load(&crate::scale::dumbbell(2, 20_000_000), crate::Format::Toml, &[], "d").unwrap();
        let mut w = World::new(&sc.model, 1, false);
        assert_eq!(w.run_until(&mut || false), RunEnd::Finished);
        let events = w.sched.events_processed;
        assert!(events > 3 * INTERRUPT_CHECK_EVENTS, "{events} events");
        let mut asked = 0;
        let mut w = World::new(&sc.model, 1, false);
        let end = w.run_until(&mut || {
            asked += 1;
            asked == 3
        });
        assert_eq!((end, w.sched.events_processed), (RunEnd::Interrupted, 3 * INTERRUPT_CHECK_EVENTS - 1));
        let mut calls = 0;
        let mut w = World::new(&sc.model, 1, false);
        assert_eq!(
            w.run_until(&mut || {
                calls += 1;
                false
            }),
            RunEnd::Finished
        );
        assert_eq!(calls, events / INTERRUPT_CHECK_EVENTS);
        let mut model = sc.model.clone();
        model.max_events = INTERRUPT_CHECK_EVENTS + 7;
        let mut w = World::new(&model, 1, false);
        assert_eq!(w.run_until(&mut || false), RunEnd::EventBudget);
        assert_eq!(w.sched.events_processed, INTERRUPT_CHECK_EVENTS + 7);
    }

    /// Frames whose keys the passes of [`World::keep_chain_keys`] keep in
    /// full come back with the same times and keys: a run with a pass every
    /// 16 keys (thousands of frames kept, on a 10 ms bottleneck with
    /// hundreds of frames propagating) is the run with none.
    #[test]
    fn keeping_chained_keys_in_full_changes_nothing() {
        let sc = crate::Scenario::load(&crate::scale::dumbbell(20, 300_000), crate::Format::Toml, &[], "d").unwrap();
        let run = |every: Option<u64>| {
            let mut w = World::new(&sc.model, 3, false);
            if let Some(every) = every {
                (w.keep_keys_every, w.keep_keys_at) = (every, every);
            }
            assert_eq!(w.run_until(&mut || false), RunEnd::Finished);
            w.check_invariants().unwrap();
            (format!("{:?}", w.summary()), w.keys_kept)
        };
        let (plain, none) = run(None);
        let (kept, many) = run(Some(16));
        assert_eq!(none, 0);
        assert!(many > 1000, "{many} frames kept in full");
        assert_eq!(plain, kept);
    }

    #[test]
    fn a_connection_keeps_what_each_endpoint_reads_beside_it_on_one_line() {
        use std::mem::offset_of;
        assert_eq!(offset_of!(FlowState, cwnd_avg), 64, "what an ack reads besides the sender fills line 0");
        assert_eq!(offset_of!(FlowState, sender), 128, "the window's average fills line 1");
        let r = offset_of!(FlowState, app_next);
        assert_eq!(r % 64, 0, "what a segment reads besides the receiver opens a line");
        for (field, end) in [
            ("ack_ends", offset_of!(FlowState, ack_ends) + 4),
            ("finished", offset_of!(FlowState, finished) + 1),
            ("spurious_watch", offset_of!(FlowState, spurious_watch) + 8),
        ] {
            assert!(end <= r + 64, "and ends in it: {field} ends at {end}");
        }
    }
}
