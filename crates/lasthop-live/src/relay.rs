//! The network between a live run's hosts, sans-IO: the scenario's
//! point-to-point links (the simulator's own [`Link`] code, built by
//! [`lasthop_sim::world::push_link`] with the same streams), routes and
//! node agents, fed real packets and a clock by the caller.
//!
//! The caller [`Network::inject`]s each packet a host's kernel sent, at the
//! time it read it, runs the network's events up to the clock
//! ([`Network::run_until`]) and writes what [`Network::take_deliveries`]
//! hands it to the destination hosts. Events run at the times they were
//! due, whenever the caller gets to them: a frame whose transmission was
//! due to end at t starts the next at t even if the caller woke later, so
//! a late wake-up delays packets but loses no link capacity (Mahimahi's
//! catch-up rule; seed 001 Sec. 7.1's emulator, a bandwidth queue then a
//! delay queue, is what a direction is).
//!
//! A packet follows the scenario's static route from its source host's
//! node to its destination's (the simulator's [`Router`]); at every node it
//! reaches that is not its destination, the node's agents of its flow see
//! it before it goes on, as in the simulator. Frames an error model
//! corrupts are dropped where they arrive, as the simulator drops them.
//!
//! Departures from the simulator: a packet's route is the node-to-node
//! route (the simulator's per-flow paths follow the same rule); shared
//! media (radio, 802.11, circuits) are not carried yet, nor outages, rate
//! changes and mobility (a scenario with them is refused by
//! [`crate::plan`]).

use crate::flowmap::{FlowMap, Mapped};
use crate::traces::Traces;
use lasthop_agents::{NodeAgent, Origin, Verdict};
use lasthop_core::ranges::RangeSet;
use lasthop_core::trace::DropCause;
use lasthop_core::{NodeId, Packet, PacketKind, PacketPool, Time};
use lasthop_net::mac::point_to_point::Link;
use lasthop_net::queue::{Admission, Removal, Waiting};
use lasthop_sim::scenario::model::Model;
use lasthop_sim::scenario::routes::{Hop, Router};
use lasthop_sim::scenario::schema::{HeaderCompression, COMPRESSED_ACK_BYTES};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// No host at this node.
const NO_HOST: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    /// A frame's transmission on (link, dir) ends.
    TxDone(u32, u8),
    /// The oldest propagating frame of (link, dir) arrives.
    Arrival(u32, u8),
    /// Agent `k` asked to be woken.
    Agent(u32),
}

/// A packet inside the network: its wire bytes and where it is on its route.
#[derive(Debug, Default)]
struct Slot {
    wire: Vec<u8>,
    route: u32,
    hop: u32,
    /// The model packet as it entered (to see what agents changed).
    entered: Option<Packet>,
}

/// What the network did, beside each link direction's own counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct NetStats {
    /// Packets read from the hosts.
    pub injected: u64,
    /// Packets written to the hosts.
    pub delivered: u64,
    /// Frames corrupted by an error model and dropped where they arrived.
    pub corrupted: u64,
    /// Packets a queue refused or dropped.
    pub queue_drops: u64,
    /// Packets no route leads to (an address of no host), or that could
    /// not be parsed: dropped as they entered.
    pub unroutable: u64,
    /// Packets agents absorbed (suppressed duplicate acks).
    pub absorbed: u64,
    /// Packets agents sent of their own (local retransmissions).
    pub agent_sent: u64,
    /// Agent copies whose original bytes were no longer kept.
    pub copies_missing: u64,
    /// Packets whose changed model fields could not be written back (they
    /// went on unchanged).
    pub rewrites_failed: u64,
}

/// What the packets of one flow showed, counted where they entered the
/// network (the source's, from its host) and by the agents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FlowCounts {
    /// Data segments with payload the source host sent.
    pub data_segments: u64,
    /// Of those, segments starting below the highest byte sent before: the
    /// source's retransmissions, as the packets show them.
    pub source_retransmits: u64,
    /// Acks the receiving host sent.
    pub acks: u64,
}

/// Goodput accounting of one link direction: payload bytes put on it, and
/// those crossing it for the first time (per flow, by byte ranges: the
/// simulator's rule, `lasthop_sim::metrics`).
#[derive(Clone, Debug, Default)]
struct DirGoodput {
    payload: u64,
    useful: u64,
    seen: BTreeMap<u32, RangeSet>,
}

/// The network of a live run.
pub struct Network {
    links: Vec<Link>,
    pool: PacketPool,
    removed: Vec<Removal>,
    events: BinaryHeap<Reverse<(u64, u64, Ev)>>,
    next_key: u64,
    n_hosts: usize,
    /// Per node, its host (or [`NO_HOST`]).
    node_host: Vec<u32>,
    /// Per (source host, destination host), its route (`routes[s * n + d]`).
    routes: Vec<Vec<Hop>>,
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// Agents with the node they sit on, in the simulator's placement order.
    agents: Vec<(NodeId, NodeAgent)>,
    /// Per agent, the wake-up it has scheduled (to skip stale ones).
    agent_wake: Vec<u64>,
    agent_at: Vec<Time>,
    map: FlowMap,
    deliveries: Vec<(u32, u32)>,
    /// Packets agents hold, by (flow, uid): their slots.
    held: BTreeMap<(u32, u64), u32>,
    uid: u64,
    pub stats: NetStats,
    /// Per flow index (model flows first, then connections no model flow
    /// holds).
    flows: Vec<FlowCounts>,
    /// Per link direction (2 · link + dir).
    goodput: Vec<DirGoodput>,
    compress: Vec<HeaderCompression>,
    /// The trace tables, when recorded ([`Network::record_traces`]).
    traces: Option<Box<Traces>>,
    /// "link:from->to" per direction, and node names (for the tables).
    dir_labels: Vec<String>,
    node_names: Vec<String>,
}

impl Network {
    /// The network of `model` for seed `seed`, whose hosts are the nodes
    /// `hosts` (host k is `hosts[k]`, at [`crate::host::host_addr`]`(k)`),
    /// with the agents the simulator would place (`agents`).
    pub fn new(model: &Model, seed: u64, hosts: &[NodeId], agents: Vec<(NodeId, NodeAgent)>, map: FlowMap) -> Network {
        let mut links = Vec::with_capacity(model.links.len());
        for li in 0..model.links.len() {
            lasthop_sim::world::push_link(&mut links, model, li, seed);
        }
        let mut router = Router::new(model.nodes.len(), model.links.iter().map(|l| l.ends));
        let n = hosts.len();
        let mut routes = Vec::with_capacity(n * n);
        for &s in hosts {
            for &d in hosts {
                routes.push(router.path(s, d).unwrap_or_default());
            }
        }
        let mut node_host = vec![NO_HOST; model.nodes.len()];
        for (k, &node) in hosts.iter().enumerate() {
            node_host[node as usize] = k as u32;
        }
        let agent_wake = vec![u64::MAX; agents.len()];
        let agent_at = vec![Time::NEVER; agents.len()];
        Network {
            links,
            pool: PacketPool::new(),
            removed: Vec::new(),
            events: BinaryHeap::new(),
            next_key: 0,
            n_hosts: n,
            node_host,
            routes,
            slots: Vec::new(),
            free: Vec::new(),
            agents,
            agent_wake,
            agent_at,
            map,
            deliveries: Vec::new(),
            held: BTreeMap::new(),
            uid: 0,
            stats: NetStats::default(),
            flows: vec![FlowCounts::default(); model.flows.len()],
            goodput: vec![DirGoodput::default(); 2 * model.links.len()],
            compress: model.links.iter().flat_map(|l| l.dirs.iter().map(|d| d.header_compression)).collect(),
            traces: None,
            dir_labels: (0..model.links.len())
                .flat_map(|li| (0..2).map(move |d| (li, d)))
                .map(|(li, d)| format!("{}:{}", model.links[li].name, model.dir_name(li, d)))
                .collect(),
            node_names: model.nodes.iter().cloned().collect(),
        }
    }

    /// Record the trace tables from now on ([`crate::traces`]).
    pub fn record_traces(&mut self) {
        self.traces = Some(Box::default());
    }

    /// The trace tables recorded, if any.
    pub fn take_traces(&mut self) -> Option<Traces> {
        self.traces.take().map(|t| *t)
    }

    fn trace_drop(&mut self, now: Time, ld: usize, pkt: &Packet, cause: DropCause) {
        if let Some(t) = self.traces.as_deref_mut() {
            let d = &mut t.drops;
            d.time_ns.push(now.ns());
            d.link.push(self.dir_labels[ld].clone());
            d.flow.push(pkt.flow);
            d.seq.push(if pkt.is_data() { pkt.tcp.seq } else { pkt.tcp.ack });
            d.is_data.push(pkt.is_data());
            d.cause.push(cause.name());
        }
    }

    /// Per flow index, what its packets showed.
    pub fn flow_counts(&self) -> &[FlowCounts] {
        &self.flows
    }

    /// Link direction `2 · link + dir`'s goodput: payload bytes crossing it
    /// for the first time over all it carried (`None`: it carried none).
    pub fn goodput(&self, ld: usize) -> Option<f64> {
        let g = &self.goodput[ld];
        (g.payload > 0).then(|| g.useful as f64 / g.payload as f64)
    }

    /// The links, for their counters.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    pub fn agents(&self) -> &[(NodeId, NodeAgent)] {
        &self.agents
    }

    pub fn flow_map(&self) -> &FlowMap {
        &self.map
    }

    /// When the next event is due ([`Time::NEVER`]: none).
    pub fn next_event(&self) -> Time {
        self.events.peek().map_or(Time::NEVER, |Reverse((t, _, _))| Time(*t))
    }

    fn schedule(&mut self, at: Time, ev: Ev) -> u64 {
        let key = self.next_key;
        self.next_key += 1;
        self.events.push(Reverse((at.ns(), key, ev)));
        key
    }

    fn slot(&mut self) -> u32 {
        match self.free.pop() {
            Some(s) => s,
            None => {
                self.slots.push(Slot::default());
                (self.slots.len() - 1) as u32
            }
        }
    }

    fn release(&mut self, s: u32) {
        let slot = &mut self.slots[s as usize];
        slot.wire.clear();
        slot.entered = None;
        self.free.push(s);
    }

    /// Host `from` sent `bytes` at `now` (not earlier than events already
    /// run).
    pub fn inject(&mut self, now: Time, from: usize, bytes: &[u8]) {
        self.stats.injected += 1;
        self.uid += 1;
        let Ok(Mapped { pkt, .. }) = self.map.to_model(self.uid, bytes) else {
            self.stats.unroutable += 1;
            return;
        };
        let Some(dst_host) = self.node_host(pkt.dst).filter(|&d| d != from) else {
            self.stats.unroutable += 1;
            return;
        };
        let route = (from * self.n_hosts + dst_host) as u32;
        if self.routes[route as usize].is_empty() {
            self.stats.unroutable += 1;
            return;
        }
        if pkt.kind != PacketKind::Datagram {
            let f = pkt.flow as usize;
            if f >= self.flows.len() {
                self.flows.resize(f + 1, FlowCounts::default());
            }
            let c = &mut self.flows[f];
            if pkt.kind == PacketKind::Ack {
                c.acks += 1;
            } else if pkt.tcp.len > 0 {
                c.data_segments += 1;
                if pkt.tcp.is_retransmit {
                    c.source_retransmits += 1;
                }
                if let Some(t) = self.traces.as_deref_mut() {
                    t.sent.time_ns.push(now.ns());
                    t.sent.flow.push(pkt.flow);
                    t.sent.seq.push(pkt.tcp.seq);
                    t.sent.len.push(pkt.tcp.len);
                    t.sent.retransmit.push(pkt.tcp.is_retransmit);
                }
            }
        }
        let s = self.slot();
        let slot = &mut self.slots[s as usize];
        slot.wire.extend_from_slice(bytes);
        slot.route = route;
        slot.hop = 0;
        slot.entered = Some(pkt);
        self.forward(now, s, pkt);
    }

    /// Put the packet of slot `s` on its current hop.
    fn forward(&mut self, now: Time, s: u32, pkt: Packet) {
        let slot = &self.slots[s as usize];
        let hop = self.routes[slot.route as usize][slot.hop as usize];
        let (li, dir) = (hop.link as usize, hop.dir as usize);
        let r = self.pool.put_tagged(pkt, s);
        let mut w = Waiting::new(&pkt, r, s);
        // Header compression on the direction (seed 001 Sec. 9): a pure
        // ack takes a compressed ack's time on the link (the simulator's
        // rule; its bytes reach the far host whole, as a decompressor
        // restores them).
        let compress = self.compress[2 * li + dir];
        if compress != HeaderCompression::None && pkt.is_pure_ack() {
            let vj_defeated = compress == HeaderCompression::Vj && pkt.tcp.ts.is_some();
            if !vj_defeated {
                w.size_bytes = w.size_bytes.min(COMPRESSED_ACK_BYTES);
            }
        }
        match self.links[li].enqueue(dir, now, w, &mut self.pool, &mut self.removed) {
            Admission::Queued => {}
            Admission::Refused => {
                self.pool.take(r);
                self.stats.queue_drops += 1;
                self.trace_drop(now, 2 * li + dir, &pkt, DropCause::Queue);
                self.release(s);
            }
            Admission::Removed { .. } => self.free_removed(now, 2 * li + dir),
        }
        self.start(now, li, dir);
    }

    /// Free what link direction `ld`'s queue let go of.
    fn free_removed(&mut self, now: Time, ld: usize) {
        while let Some(Removal { pkt, cause }) = self.removed.pop() {
            let s = self.pool.tag(pkt);
            let p = self.pool.take(pkt);
            self.stats.queue_drops += 1;
            self.trace_drop(now, ld, &p, cause);
            self.release(s);
        }
    }

    fn start(&mut self, now: Time, li: usize, dir: usize) {
        while let Some(st) = self.links[li].start_transmission_after(now, dir, &mut self.pool, &mut self.removed) {
            if st.frame.len > 0 {
                let flow = self.pool.get(st.frame.pkt).flow;
                let g = &mut self.goodput[2 * li + st.dir];
                g.payload += u64::from(st.frame.len);
                g.useful +=
                    g.seen.entry(flow).or_default().insert(st.frame.seq, st.frame.seq + u64::from(st.frame.len));
            }
            self.schedule(st.done, Ev::TxDone(li as u32, st.dir as u8));
        }
        if !self.removed.is_empty() {
            self.free_removed(now, 2 * li + dir);
        }
    }

    /// Run every event due at or before `now`, each at its own time.
    pub fn run_until(&mut self, now: Time) {
        while let Some(&Reverse((t, key, ev))) = self.events.peek() {
            if t > now.ns() {
                break;
            }
            self.events.pop();
            let t = Time(t);
            match ev {
                Ev::TxDone(li, dir) => {
                    // The frame's arrival event key, taken now whether it is
                    // scheduled now (the oldest propagating) or handed back
                    // by its predecessor's arrival (the link keeps it).
                    let key = self.next_key;
                    self.next_key += 1;
                    let (arrive, first) =
                        self.links[li as usize].finish_transmission(t, dir as usize, key, &mut self.pool);
                    if first {
                        self.events.push(Reverse((arrive.ns(), key, Ev::Arrival(li, dir))));
                    }
                    self.start(t, li as usize, dir as usize);
                }
                Ev::Arrival(li, dir) => {
                    let a = self.links[li as usize].take_arrival(t, self.next_key, dir as usize, &mut self.pool);
                    if let Some((at, k)) = a.next {
                        self.next_key = self.next_key.max(k + 1);
                        self.events.push(Reverse((at.ns(), k, Ev::Arrival(li, dir))));
                    }
                    let s = self.pool.tag(a.pkt);
                    let pkt = self.pool.take(a.pkt);
                    if a.corrupted {
                        self.stats.corrupted += 1;
                        self.trace_drop(t, 2 * li as usize + dir as usize, &pkt, DropCause::Error);
                        self.release(s);
                    } else {
                        self.arrive(t, s, pkt);
                    }
                }
                Ev::Agent(k) => {
                    if self.agent_wake[k as usize] == key {
                        self.agent_wake[k as usize] = u64::MAX;
                        self.agent_at[k as usize] = Time::NEVER;
                        self.agents[k as usize].1.on_timer(t);
                        self.after_agent(t, k as usize);
                    }
                }
            }
        }
    }

    /// The packet of slot `s` reached the far end of its current hop.
    fn arrive(&mut self, now: Time, s: u32, mut pkt: Packet) {
        let slot = &mut self.slots[s as usize];
        slot.hop += 1;
        let route = &self.routes[slot.route as usize];
        if slot.hop as usize == route.len() {
            let dst = (slot.route as usize % self.n_hosts) as u32;
            if pkt.kind == PacketKind::Ack {
                self.map.acked(pkt.flow, pkt.tcp.ack);
                if let Some(t) = self.traces.as_deref_mut() {
                    t.acks.time_ns.push(now.ns());
                    t.acks.flow.push(pkt.flow);
                    t.acks.ack.push(pkt.tcp.ack);
                }
            }
            self.finish_wire(s, &pkt);
            self.deliveries.push((dst, s));
            return;
        }
        let node = route[slot.hop as usize].node;
        let mut k = self.agents.partition_point(|(n, _)| *n < node);
        while k < self.agents.len() && self.agents[k].0 == node {
            if self.agents[k].1.flow() == pkt.flow {
                match self.agents[k].1.on_packet(now, &mut pkt) {
                    Verdict::Forward => {}
                    Verdict::Absorb => {
                        self.stats.absorbed += 1;
                        self.release(s);
                        self.after_agent(now, k);
                        return;
                    }
                    // ACK reconstruction keeps a real ack to send later as
                    // itself: its bytes stay in their slot until then.
                    Verdict::Hold => {
                        self.held.insert((pkt.flow, pkt.uid), s);
                        self.after_agent(now, k);
                        return;
                    }
                }
                self.after_agent(now, k);
            }
            k += 1;
        }
        self.forward(now, s, pkt);
    }

    /// Write what agents changed in the model packet back onto the wire
    /// bytes (ELN marks, ECN-Echo, a CE mark of a queue).
    fn finish_wire(&mut self, s: u32, pkt: &Packet) {
        let slot = &mut self.slots[s as usize];
        if slot.entered.as_ref() != Some(pkt) {
            match self.map.rewrite(&slot.wire, pkt) {
                Ok(wire) => slot.wire = wire,
                // The original goes unchanged (counted).
                Err(_) => self.stats.rewrites_failed += 1,
            }
        }
    }

    /// Send what agent `k` emits, from its node, and reschedule its timer.
    fn after_agent(&mut self, now: Time, k: usize) {
        while let Some(out) = self.agents[k].1.poll_transmit(now) {
            let node = self.agents[k].0;
            let pkt = out.pkt;
            if out.origin == Origin::Released {
                // A held packet goes on from here with its own bytes.
                if let Some(s) = self.held.remove(&(pkt.flow, pkt.uid)) {
                    self.forward(now, s, pkt);
                }
                continue;
            }
            let Ok(wire) = self.map.wire_for_output(&pkt, None) else {
                self.stats.copies_missing += 1;
                continue;
            };
            // Its route from this node: the rest of the route between its
            // hosts that crosses it.
            let Some((route, hop)) = self.route_through(node, &pkt) else {
                self.stats.unroutable += 1;
                continue;
            };
            self.stats.agent_sent += 1;
            if let (Origin::LocalRetransmit { by_timer }, Some(t)) = (out.origin, self.traces.as_deref_mut()) {
                let r = &mut t.local_rexmits;
                r.time_ns.push(now.ns());
                r.flow.push(pkt.flow);
                r.seq.push(pkt.tcp.seq);
                r.len.push(pkt.tcp.len);
                r.node.push(self.node_names[node as usize].clone());
                r.timer.push(by_timer);
            }
            let s = self.slot();
            let slot = &mut self.slots[s as usize];
            slot.wire = wire;
            slot.route = route;
            slot.hop = hop;
            slot.entered = Some(pkt);
            self.forward(now, s, pkt);
        }
        // Held packets the agent let go of without sending (a real ack
        // superseded by a newer one) end here: the oldest of its flow's.
        // (Nothing held, the common case: no search, no allocation.)
        if !self.held.is_empty() {
            let flow = self.agents[k].1.flow();
            let keep = self.agents[k].1.held() as usize;
            let ours = self.held.range((flow, 0)..=(flow, u64::MAX)).count();
            for _ in keep..ours {
                let oldest = *self.held.range((flow, 0)..=(flow, u64::MAX)).next().expect("counted").0;
                let s = self.held.remove(&oldest).expect("just found");
                self.release(s);
            }
        }
        let at = self.agents[k].1.poll_at();
        // One pending wake-up per agent: a changed time schedules anew and
        // the older event, found stale by its key, is skipped.
        if at != Time::NEVER && at != self.agent_at[k] {
            self.agent_at[k] = at;
            self.agent_wake[k] = self.schedule(at.max(now), Ev::Agent(k as u32));
        }
    }

    /// The route (and the hop leaving `node`) of a packet with these wire
    /// bytes' source and destination addresses.
    fn route_through(&self, node: NodeId, pkt: &Packet) -> Option<(u32, u32)> {
        let (src, dst) = (self.node_host(pkt.src)?, self.node_host(pkt.dst)?);
        let route = (src * self.n_hosts + dst) as u32;
        let hop = self.routes[route as usize].iter().position(|h| h.node == node)?;
        Some((route, hop as u32))
    }

    /// Hand each packet that reached its host to `f` (host, bytes).
    pub fn take_deliveries(&mut self, mut f: impl FnMut(usize, &[u8])) {
        for i in 0..self.deliveries.len() {
            let (host, s) = self.deliveries[i];
            f(host as usize, &self.slots[s as usize].wire);
            self.stats.delivered += 1;
            self.release(s);
        }
        self.deliveries.clear();
    }

    /// The host at `node`, if one is.
    pub fn node_host(&self, node: NodeId) -> Option<usize> {
        let h = self.node_host[node as usize];
        (h != NO_HOST).then_some(h as usize)
    }
}
