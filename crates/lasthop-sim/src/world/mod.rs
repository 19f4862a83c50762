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
//! Each agent has a timer key after the flows' endpoints (`keys`).
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
//! pointers to the same buffer"). With scheme `mtcp` over SRP the wireless
//! leg's transport is MHP's SRP instead of TCP (`mhp`).
//!
//! Invariants are checked at the end of every run (and the run fails if one
//! does not hold): every packet created was delivered, dropped, absorbed (or
//! held and then discarded) by an agent, is held by one, or is still in
//! flight; the receiving application got bytes 0..N
//! once each and in order; time never went backwards (the scheduler refuses
//! to run it back).
//!
//! One `impl World` per concern, as smoltcp splits its interface: this file
//! holds the state, its small types and the event loop; `wiring` builds a
//! world from a model, `forwarding` moves packets along their paths,
//! `agents` runs the node agents, `media` the shared media and their
//! LL-ELSN notices, `endpoints` the connections' endpoints, `relay` the
//! split relay, `invariants` and `summary` what a run ends with; `keys`
//! lays out the scheduler's timer keys; `outages` takes links down and up
//! on a schedule, and `mobility` moves mobile hosts between base stations
//! on it (handoffs, switched routes, fast-retransmit handoff).

use crate::pcap::Capture;
use crate::scenario::model::{FlowModel, Model, Workload};
use crate::scheduler::{Event, Scheduler};
use crate::spurious::{SpuriousWatch, NO_WATCH};
use crate::traffic::wap::WapRole;
use crate::traffic::Source;
use lasthop_agents::NodeAgent;
use lasthop_core::trace::Trace;
use lasthop_core::{NodeId, PacketKind, PacketPool, Time};
use lasthop_net::mac::point_to_point::Link;
use lasthop_net::mac::{Mac, MacOutput};
use lasthop_net::queue::Removal;
use lasthop_tcp::{Receiver, Sender};

use keys::{Side, TimerKey, TimerKeys};

use crate::metrics::{CwndAverage, NoticeCounters, Overlap};
use crate::scenario::schema::HeaderCompression;

mod agents;
mod endpoints;
mod forwarding;
mod invariants;
mod keys;
mod media;
mod mhp;
mod mobility;
mod outages;
mod relay;
mod summary;
mod wap;
mod wiring;

pub use wiring::{build_mac, place_agents, push_link};

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
    /// On the wireless leg of an `mtcp` flow over SRP: its transport is
    /// MHP's SRP ([`mhp`]), not the TCP sender and receiver here (in the
    /// padding after `finished`).
    mhp: bool,
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

    /// The connection leaves from node `from` (a split flow's wireless leg,
    /// moved to a new station with I-TCP's state).
    fn set_from(&mut self, from: NodeId) {
        self.from = from;
        self.ack_ends[1] = from;
    }

    /// When an endpoint's wake-up is armed.
    fn armed_mut(&mut self, side: Side) -> &mut Time {
        match side {
            Side::Sender => &mut self.sender_armed,
            Side::Receiver => &mut self.receiver_armed,
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
            mhp: false,
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

impl ConnAt {
    /// The route-array span (`first..end`) of the path a packet of `kind`
    /// takes: data and datagrams the data path, acks the ack path.
    #[inline(always)]
    fn path(self, kind: PacketKind) -> (u32, u32) {
        match kind {
            PacketKind::Data | PacketKind::Datagram => (self.data, self.acks),
            PacketKind::Ack => (self.acks, self.end),
        }
    }
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
    /// Mid-path agents, grouped by node (agent `k`'s timer key:
    /// [`TimerKeys::agent`]).
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
    /// What a queue let go of at the latest arrival (kept to reuse its buffer).
    removed: Vec<Removal>,
    /// (flow, a flow that starts when it completes), sorted.
    followers: Vec<(u32, u32)>,
    /// The shared media (medium `m`'s timer key: [`TimerKeys::medium`]).
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
    /// Scheduled link outages, if the scenario has any ([`outages`]).
    outages: Option<Box<outages::Outages>>,
    /// Link directions down now: a packet offered to a link looks no
    /// further while it is zero.
    dirs_down: u32,
    /// Mobile hosts, if the scenario has any ([`mobility`]).
    mobility: Option<Box<mobility::Mobility>>,
    /// The MHP sessions of `mtcp` flows over SRP ([`mhp`]; few: searched).
    mhp: Vec<mhp::MhpLeg>,
    /// An arrival takes [`World::arrived`]'s slower way: agents sit on
    /// some node, or a mobile host's routes have switched stations (a
    /// packet arriving at a node then looks for its next hop on its
    /// connection's current path, [`World::forward_rerouted`]). One flag
    /// for both, so that the common way tests one word.
    detour: bool,
    /// The `wap` sessions' flows ([`crate::traffic::wap`]; empty in most
    /// runs): their bearers' outages and their connections' ends call them.
    wap_sessions: Vec<u32>,
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

impl<'m> World<'m> {
    /// How this world's timer keys are laid out.
    #[inline(always)]
    fn timer_keys(&self) -> TimerKeys {
        TimerKeys::new(self.flows.len(), self.agents.len(), self.macs.len(), self.outages.is_some())
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
            if matches!(f.wap, Some(WapRole::Request { .. } | WapRole::Response { .. })) {
                continue; // opened by its wap session, per page
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
        // The first change of the outages' schedule, if any (`outages`).
        self.arm_schedule();
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
                Event::Wake { endpoint } => self.on_wake(TimerKey::of_wake(endpoint)),
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
                            if !self.flows[r.leg as usize].mhp {
                                self.flows[r.leg as usize].sender.start(now, &mut self.trace);
                            }
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
