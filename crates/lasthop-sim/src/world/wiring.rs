//! Wiring a [`Model`] into a [`World`]: links with their streams and
//! emulators, connections (the legs of split flows included), their paths
//! laid end to end, the agents grouped by node, the shared media's MACs;
//! then what a caller adds before running (captures, air logs).

use super::keys::TimerKeys;
use super::{
    AgentSlot, ConnAt, Conservation, FlowState, HopGoodput, MacSlot, Relay, RouteHop, World, KEEP_KEYS_EVERY, LAST_HOP,
    NO_COVER, NO_HOP,
};
use crate::pcap::{Capture, CaptureFile};
use crate::scenario::model::Model;
use crate::scheduler::Scheduler;
use crate::spurious::SpuriousWatch;
use crate::traffic::{ParetoSource, Source};
use lasthop_agents::ack_recons::AckRecons;
use lasthop_agents::bad_state::BadState;
use lasthop_agents::eln::ElnMarker;
use lasthop_agents::group::GroupBuffer;
use lasthop_agents::snoop::Snoop;
use lasthop_agents::snoop_nack::SnoopNack;
use lasthop_agents::NodeAgent;
use lasthop_core::rng::RngStream;
use lasthop_core::tick::KernelClock;
use lasthop_core::trace::Trace;
use lasthop_core::{NodeId, PacketPool, Time};
use lasthop_net::emulation::Emulator;
use lasthop_net::error::{ErrorModel, ErrorModelConfig};
use lasthop_net::mac::dcf::Dcf;
use lasthop_net::mac::point_to_point::{Link, LinkDir};
use lasthop_net::mac::{Circuit, Mac, Radio};
use lasthop_net::rate_trace::TraceShaper;
use lasthop_tcp::{AckPolicy, Receiver, RtoMode, Sender};

use crate::metrics::{NoticeCounters, Overlap};

/// Per-host tick phase, uniform in [0, tick), from the host's own stream.
fn tick_phase(seed: u64, node: &str, timer: &str, tick_ns: u64) -> u64 {
    let mut r = RngStream::new(seed, &format!("node:{node}:{timer}"));
    (r.uniform() * tick_ns as f64) as u64 % tick_ns.max(1)
}

/// Link `li` of `model` for a run of seed `seed`, pushed onto `links`: its
/// directions' error models, jitter, queues and emulators, each drawing
/// from its own stream named after the link and direction. The simulator
/// and live mode (`lasthop-live`) build their links here, so a seed makes
/// the same decisions in both for the same frames.
pub fn push_link(links: &mut Vec<Link>, model: &Model, li: usize, seed: u64) {
    // Each link is set up where it stays: a direction is five cache
    // lines, which each by-value builder step copied (with 10,001 links,
    // a sixth of the instructions of `World::new`).
    let l = &model.links[li];
    // Streams are made only for what draws from them.
    let stream =
        |d: usize, what: &str| RngStream::new(seed, &format!("link:{}:{}:{what}", l.name, model.dir_name(li, d)));
    let dir = |d: usize| LinkDir::new(l.dirs[d].params, ErrorModel::new(&l.dirs[d].error, || stream(d, "error")));
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
        ld.set_rate_trace(l.dirs[d].rate_trace.clone().map(TraceShaper::new));
    }
}

/// The node agents of `model` with the node each sits on, grouped by node
/// (in flow order within a node: a stable sort), for `n_legs` connections
/// (the flows, then the split flows' wireless legs). The simulator and live
/// mode (`lasthop-live`) place their agents here.
pub fn place_agents(model: &Model, n_legs: usize) -> Vec<(NodeId, NodeAgent)> {
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
        // (On a flow to a mobile host, on each of its stations.)
        for node in f.snoop_node.into_iter().chain(f.snoop_followers.iter().copied()) {
            match (f.snoop, f.bad_state) {
                (Some(cfg), None) => placed.push((node, NodeAgent::Snoop(Box::new(Snoop::new(cfg, i as u32))))),
                (Some(cfg), Some(notice)) => {
                    placed.push((node, NodeAgent::BadState(Box::new(BadState::new(cfg, notice, i as u32)))))
                }
                _ => {}
            }
        }
        if let Some((node, n)) = f.snoop_group {
            placed.push((node, NodeAgent::Group(Box::new(GroupBuffer::new(i as u32, n)))));
        }
        if let (Some(node), Some(cfg)) = (f.nack_node, f.nack) {
            placed.push((node, NodeAgent::SnoopNack(Box::new(SnoopNack::new(cfg, i as u32)))));
        }
        place_ack_recons(&mut placed, i as u32);
    }
    for leg in model.flows.len()..n_legs {
        place_ack_recons(&mut placed, leg as u32);
    }
    // Grouped by node, in flow order within a node (a stable sort): a
    // packet meets only its own flow's agents, found by binary search.
    placed.sort_by_key(|(node, _)| *node);
    placed
}

/// Medium `mi` of `model` for a run of seed `seed`: its MAC (radio, 802.11
/// DCF or RLP circuit) with its stations' streams, queues and error models,
/// and the link direction (2 · link + dir) of each hop between its
/// stations (`hop_dir[from · stations + to]`, `u32::MAX`: none). The
/// simulator and live mode build their media here.
pub fn build_mac(model: &Model, mi: usize, seed: u64) -> (Mac, Vec<u32>) {
    let m = &model.media[mi];
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
        // An RLP circuit: each station's model decides every
        // frame it sends, status frames included.
        None if m.circuit.is_some() => {
            let cfg = m.circuit.expect("checked");
            let mut c = Circuit::new(cfg);
            if m.error != ErrorModelConfig::None {
                for s in (0..n).filter(|&s| m.error_from[s]) {
                    c = c.with_error_model(s as u16, ErrorModel::new(&m.error, || stream(s, "error")));
                    // AIRMAIL's byte code: the byte errors the model implies.
                    if cfg.airmail.is_some() {
                        let pb = lasthop_net::mac::circuit::byte_error_probability(&m.error, cfg.frame_bytes);
                        c = c.with_fec_channel(s as u16, pb, stream(s, "fec"));
                    }
                }
            }
            if m.error_others != ErrorModelConfig::None {
                for s in (0..n).filter(|&s| !m.error_from[s]) {
                    c = c.with_error_model(s as u16, ErrorModel::new(&m.error_others, || stream(s, "error")));
                    if cfg.airmail.is_some() {
                        let pb = lasthop_net::mac::circuit::byte_error_probability(&m.error_others, cfg.frame_bytes);
                        c = c.with_fec_channel(s as u16, pb, stream(s, "fec"));
                    }
                }
            }
            Mac::Circuit(Box::new(c))
        }
        Some(cfg) => {
            let mut dcf = Dcf::new(cfg, n, |s| stream(s, "backoff"));
            if let Some(q) = &m.queue {
                dcf = dcf.with_queue_discipline(q, |s| stream(s, "queue"));
            }
            if m.error != ErrorModelConfig::None {
                for &hop in hops.iter().filter(|h| m.error_from[usize::from(h.0)]) {
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
                for s in (0..n).filter(|&s| m.error_from[s]) {
                    let e = ErrorModel::new(&m.error, || stream(s, "error"));
                    radio = radio.with_error_model(s as u16, e);
                }
            }
            Mac::Radio(Box::new(radio))
        }
    };
    (mac, hop_dir)
}

/// M-TCP: the wired round trip of model flow `fi`'s connection to the
/// supervisor host, as its estimate of the source's RTO adds it to each
/// sample ([`lasthop_tcp::mtcp`]): the propagation both ways and one
/// full-sized segment's and one ack's transmission on each hop.
fn wired_rtt_ns(model: &Model, fi: usize) -> u64 {
    let f = &model.flows[fi];
    let [data, acks] = &model.paths[fi];
    let trip = |path: &[crate::scenario::routes::Hop], bytes: u32| -> u64 {
        path.iter()
            .map(|h| {
                let p = &model.links[h.link as usize].dirs[h.dir as usize].params;
                p.delay_ns + p.tx_time_ns(bytes)
            })
            .sum()
    };
    trip(data, f.header_bytes + f.sender.mss_bytes) + trip(acks, f.ack_bytes)
}

impl<'m> World<'m> {
    pub fn new(model: &'m Model, seed: u64, trace: bool) -> World<'m> {
        // Each link is set up where it stays: a direction is five cache
        // lines, which each by-value builder step copied (with 10,001 links,
        // a sixth of the instructions of `World::new`).
        let mut links: Vec<Link> = Vec::with_capacity(model.links.len());
        for li in 0..model.links.len() {
            push_link(&mut links, model, li, seed);
        }
        // The hosts' tick phases: a sender's slow timer, a receiver's fast timer.
        let sender_cfg = |mut scfg: lasthop_tcp::SenderConfig, node: NodeId| {
            match scfg.rto.mode {
                RtoMode::Bsd => {
                    scfg.rto.tick_phase_ns =
                        tick_phase(seed, &model.nodes[node as usize], "slowtimo", scfg.rto.tick_ns);
                }
                // ns-2's `boot_time_`, Random::uniform(tcpTick_) per agent
                // (here per host: a host's ns2_legacy senders share it).
                RtoMode::Ns2Legacy => {
                    let tick = scfg.rto.granularity_ns;
                    scfg.rto.tick_phase_ns = tick_phase(seed, &model.nodes[node as usize], "boot_time", tick);
                }
                _ => {}
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
                let receiver = Receiver::new(receiver_cfg(f.receiver, f.to)).with_cc(&f.sender.cc);
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
        let mut mhp = Vec::new();
        for (i, f) in model.flows.iter().enumerate() {
            let (Some(split), Some(bs)) = (f.split, f.split_node) else { continue };
            let leg = flows.len();
            let mut wired_rcfg = receiver_cfg(f.receiver, bs);
            wired_rcfg.smart_echo = false;
            let wired = &mut flows[i];
            wired.set_to(bs);
            wired.receiver = Receiver::new(wired_rcfg).app_paced();
            if split.mtcp {
                wired.receiver.withhold_acks(wired_rtt_ns(model, i));
            }
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
            if let Some(m) = split.mhp {
                wireless.mhp = true;
                mhp.push(super::mhp::MhpLeg::new(leg as u32, i as u32, m));
            }
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
        // A connection's paths laid end to end in `route` (their data hops
        // each with a goodput slot).
        // (`n_cover` `None`: no goodput slots, for control messages' paths.)
        let lay = |route: &mut Vec<RouteHop>,
                   n_cover: Option<&mut u32>,
                   [data, acks]: &[crate::scenario::routes::Path; 2]| {
            let at = route.len() as u32;
            let base = n_cover.as_deref().copied();
            for (path, is_data) in [(data, true), (acks, false)] {
                for (i, h) in path.iter().enumerate() {
                    let cover = match base {
                        Some(b) if is_data => b + i as u32,
                        _ => NO_COVER,
                    };
                    let to = model.links[h.link as usize].ends[1 - h.dir as usize];
                    let last = i + 1 == path.len();
                    let compress = model.links[h.link as usize].dirs[h.dir as usize].header_compression;
                    let mac = model.links[h.link as usize].dirs[h.dir as usize].medium.is_some();
                    route.push(RouteHop { link: h.link, cover, from: h.node, to, dir: h.dir, last, compress, mac });
                }
            }
            if let Some(n) = n_cover {
                *n += data.len() as u32;
            }
            ConnAt { data: at, acks: at + data.len() as u32, end: at + (data.len() + acks.len()) as u32 }
        };
        for paths in &model.paths {
            conn_at.push(lay(&mut route, Some(&mut n_cover), paths));
        }
        // Each endpoint's first hop, found as `forward` would find it.
        let first = |route: &[RouteHop], at: ConnAt, ends: [NodeId; 2]| {
            let first = |(start, end): (u32, u32), node: NodeId| {
                let path = &route[start as usize..end as usize];
                path.iter().position(|h: &RouteHop| h.from == node).map_or(NO_HOP, |i| start + i as u32)
            };
            (first((at.data, at.acks), ends[0]), first((at.acks, at.end), ends[1]))
        };
        for (f, at) in flows.iter_mut().zip(&conn_at) {
            (f.data_hop, f.ack_hop) = first(&route, *at, [f.from, f.to]);
        }
        // A mobile host's connections' paths from its other stations, after
        // every connection's (`mobility`), with the goodput slots' flows.
        let handoffs = super::mobility::draw(model, seed);
        // The schedule's changes first: the mobility state then keeps the draws.
        let outages = super::outages::Outages::of(model, &handoffs, seed);
        let mut alt_cover_flows = Vec::new();
        let mobility = super::mobility::Mobility::wire(model, handoffs, &conn_at, |c, paths| {
            alt_cover_flows.extend(std::iter::repeat_n(c as u32, paths[0].len()));
            lay(&mut route, Some(&mut n_cover), paths)
        })
        .map(|mut m| {
            m.resolve_first_hops(|at, ends| first(&route, at, ends));
            // Control messages' paths, as connections after every other
            // (their messages' `flow`): I-TCP's state transfer between the
            // stations, and registration from each new station to its
            // anchor (by messages only). `u32::MAX`: none.
            let mut control = |paths: &[Option<[crate::scenario::routes::Path; 2]>]| {
                if paths.is_empty() {
                    return u32::MAX;
                }
                let base = conn_at.len() as u32;
                for p in paths {
                    conn_at.push(match p {
                        Some(p) => lay(&mut route, None, p),
                        None => ConnAt { data: 0, acks: 0, end: 0 },
                    });
                }
                base
            };
            let bases = model.mobility.iter().map(|mm| control(&mm.station_paths)).collect();
            let register = model.mobility.iter().map(|mm| control(&mm.register_paths)).collect();
            m.set_control_bases(bases, register);
            m
        });
        assert!(route.len() < LAST_HOP as usize, "a hop's index and the last-hop mark share 32 bits");
        let placed = place_agents(model, n_legs);
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
        let macs: Vec<MacSlot> = (0..model.media.len())
            .map(|mi| {
                let (mac, hop_dir) = build_mac(model, mi, seed);
                MacSlot { mac, armed: Time::NEVER, hop_dir, stations: model.media[mi].stations.len() }
            })
            .collect();
        // Control messages are delivered on the detour (`arrived_at_agents`).
        let detour = !agents.is_empty() || mobility.as_deref().is_some_and(|m| m.sends_control());
        let mut world = World {
            model,
            seed,
            sched: Scheduler::new(TimerKeys::new(n_legs, agents.len(), macs.len(), model.has_schedule()).count()),
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
            notices: if model.media.iter().any(|m| m.ll_elsn || m.ebsn) {
                vec![NoticeCounters::default(); n_legs]
            } else {
                Vec::new()
            },
            cover_flow: if model.media.iter().any(|m| m.ll_elsn || m.ebsn) {
                model
                    .paths
                    .iter()
                    .enumerate()
                    .flat_map(|(f, [data, _])| std::iter::repeat_n(f as u32, data.len()))
                    .chain(alt_cover_flows)
                    .collect()
            } else {
                Vec::new()
            },
            outages,
            dirs_down: 0,
            mobility,
            detour,
            wap_sessions: Vec::new(),
            mhp,
        };
        world.wap_wire();
        world
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
                Mac::Circuit(_) => {}
            }
        }
        self
    }

    /// Shared medium `m`'s air log (empty unless
    /// [`World::with_air_logs`]), with its stations' nodes.
    pub fn air_log(&self, m: usize) -> (&[lasthop_net::mac::AirRecord], &[NodeId]) {
        let log = match &self.macs[m].mac {
            Mac::Radio(r) => r.air_log(),
            Mac::Dcf(d) => d.air_log(),
            // A circuit keeps no air log: its slots are fixed.
            Mac::Circuit(_) => &[],
        };
        (log, &self.model.media[m].stations)
    }

    /// The finished captures, in the order they were given.
    pub fn take_captures(&mut self) -> Vec<CaptureFile> {
        std::mem::take(&mut self.captures).into_iter().map(Capture::finish).collect()
    }
}
