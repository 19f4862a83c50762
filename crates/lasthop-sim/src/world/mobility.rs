//! Mobile hosts moving between base stations in a run (seed 002;
//! elaarag-002.md Sec. 2.2, primitives 1, 3 and 4; the model is
//! `scenario::model::mobility`).
//!
//! The handoffs are drawn when the world is wired, from the seed (beacon
//! waits, exponential residences, a random walk's next cell: each its own
//! stream per mobile host), and become changes of the outages' schedule:
//! at a handoff's start the old station's link goes down with the entry's
//! semantics; at its completion the new station's link comes up, then the
//! routes of the mobile host's connections switch to the new station and
//! its TCP is told (fast-retransmit handoff). A station's link is down
//! whenever the mobile host is not attached to it (from the start, for
//! every station but the first).
//!
//! Routes: each connection with an end at a mobile host has its data and
//! ack paths from every station laid in the world's route array (the
//! start's where every connection's are, the others after them), and a
//! handoff points the connection at the new station's. A packet keeps the
//! hop it was queued on, so one sent before the switch still follows its
//! old path. Once any route has switched (`Mobility::rerouted`), a packet
//! arriving at a node finds its next hop on its connection's current path
//! from that node, as a router that learnt the new binding would: on the
//! current path it goes on; at a node the path no longer crosses (the old
//! station) it is dropped, cause `handoff` (the reference's default
//! `drop`; its `forward` over the stations' wired path is not built).
//!
//! I-TCP (scheme `split` to a mobile host): the split connection's two
//! legs have paths from every station too (the wired leg to the station,
//! the wireless leg over its link), and they move when the state transfer
//! that begins at the handoff's completion is installed at the new station
//! ([`World::itcp_transfer`], [`World::itcp_install`]).
//!
//! MTCP (scheme `mtcp` over SRP) moves the same way: its state is MHP's
//! (SRP's window with its packets, and the relay's bytes), sized and
//! installed by `mhp` ([`World::mhp_freeze`], [`World::mhp_install`]);
//! the rest of the transfer (the message, its pacing and losses, the
//! legs' switch) is I-TCP's below.
//!
//! AIRMAIL (`link_handoff = "transfer"`, the stations' links AIRMAIL
//! circuits) moves the same way too: its state is the link layer's (the
//! old circuit's windows with their packets and its receive state,
//! `lasthop_net::mac::LinkState`), taken from the circuit that holds it
//! and installed in the new station's ([`World::link_install`]); the
//! packets its queues held follow, sent on from the new circuit's ends.
//!
//! I-TCP's state transfer is a control message on the wired links
//! between the two stations ([`ControlStream`]: it queues, and what is
//! lost is sent again), after its packing at the old station (the fixed
//! part and the bytes over a rate, the calibration). The registration is
//! a delay (its round trip's propagation), or with `registration =
//! "message"` a request and a reply on the wired links
//! ([`World::register`]; the handoff completes when the reply arrives).
//! Departure: beacons are a uniform wait, not frames.
//!
//! Snoop on a flow to a mobile host sits on every station. By default each has its own cache (a hard
//! handoff): a station the mobile host left is not told, and its local
//! retransmissions go out on its own link, which is down
//! ([`World::forward_from_left_station`]). With the snoop paper's
//! multicast handoff (`snoop_handoff = "multicast"`) a station becomes a
//! buffering one when its link goes down (its snoop forgets its cache and
//! caches nothing more) and the primary when the handoff completes: it
//! sends the copies of the flow's last packets that follow what the mobile
//! host received ([`World::multicast_handoff`]; the copies are one ring
//! where the paths part, `lasthop_agents::group`). A make-before-break
//! handoff (`overlap_s`) takes the old link down after the start.
//!
//! ELN at the base station, snoop's NACKs, ACK reconstruction and M-TCP's
//! supervisor host do not follow a mobile host (the model refuses them on
//! its flows), nor does a mobile sender's split connection or snoop.

use super::{ConnAt, FlowState, World};
use crate::metrics::HandoffSummary;
use crate::scenario::model::{HandoffSchedule, MobilityModel, Model};
use crate::scenario::routes::Path;
use lasthop_agents::snoop::Snoop;
use lasthop_agents::NodeAgent;
use lasthop_core::rng::RngStream;
use lasthop_core::trace::DropCause;
use lasthop_core::{Ecn, NodeId, Packet, PacketKind, TcpHeader, Time};

/// One handoff of a run, drawn when the world is wired.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Handoff {
    /// The old station's link goes down.
    pub start: Time,
    /// The new station's link comes up and routes switch.
    pub complete: Time,
    /// The old station's link goes down: at the start, or `overlap_s`
    /// later (make-before-break), never after the next handoff begins.
    pub down: Time,
    pub from: usize,
    pub to: usize,
}

/// Each mobility entry's handoffs, in time order, drawn from `seed`: those
/// that begin before the run's stop.
pub(super) fn draw(model: &Model, seed: u64) -> Vec<Vec<Handoff>> {
    model.mobility.iter().map(|m| draw_one(m, &model.nodes[m.mobile as usize], model.stop, seed)).collect()
}

fn draw_one(m: &MobilityModel, name: &str, stop: Time, seed: u64) -> Vec<Handoff> {
    let stream = |what: &str| RngStream::new(seed, &format!("mobility:{name}:{what}"));
    let (mut beacons, mut residences, mut walk) = (stream("beacon"), stream("residence"), stream("walk"));
    let n = m.stations.len();
    // (With registration by messages, the handoff's `complete` is the
    // attachment; it completes when the reply arrives.)
    let by_message = !m.register_paths.is_empty();
    let mut latency = |a: usize, b: usize| {
        let wait = m.beacon.map_or(0, |p| (beacons.uniform() * p.ns() as f64) as u64);
        let register = if by_message { 0 } else { m.register[a * n + b].ns() };
        m.latency.ns() + register + wait
    };
    let mut next_cell = |s: usize| {
        let near = m.neighbours(s);
        near[walk.below(near.len() as u64) as usize]
    };
    let mut out = Vec::new();
    let mut at = m.initial;
    let push = |out: &mut Vec<Handoff>, start: Time, from: usize, to: usize, l: u64| {
        out.push(Handoff { start, complete: start.plus_ns(l), down: start.plus_ns(m.overlap.ns()), from, to });
    };
    match &m.schedule {
        HandoffSchedule::Listed(v) => {
            for &(start, to) in v.iter().filter(|(t, _)| *t < stop) {
                let l = latency(at, to);
                push(&mut out, start, at, to, l);
                at = to;
            }
        }
        HandoffSchedule::Periodic { start, every } => {
            let mut t = *start;
            while t < stop {
                let to = if m.grid.is_some() { next_cell(at) } else { (at + 1) % n };
                let l = latency(at, to);
                push(&mut out, t, at, to, l);
                at = to;
                t = t.plus_ns(every.ns());
            }
        }
        HandoffSchedule::Exponential { mean } => {
            let mut attached = Time::ZERO;
            loop {
                let stay = residences.exponential(mean.ns() as f64) as u64;
                let t = attached.plus_ns(stay.max(1));
                if t >= stop {
                    break;
                }
                let to = next_cell(at);
                let l = latency(at, to);
                push(&mut out, t, at, to, l);
                attached = t.plus_ns(l);
                at = to;
            }
        }
    }
    for k in 1..out.len() {
        out[k - 1].down = out[k - 1].down.min(out[k].start);
    }
    out
}

/// A connection with an end at a mobile host: where its paths from each
/// station sit in the route array, and each station's first hops.
#[derive(Debug)]
struct MobileConn {
    conn: u32,
    at: Vec<ConnAt>,
    /// (the sender's first hop, the receiver's first hop) per station.
    first: Vec<(u32, u32)>,
    /// (the sender's node, the receiver's node) per station: the ends of
    /// its paths from there (a split flow's legs end at the station).
    ends: Vec<[NodeId; 2]>,
    /// Fast-retransmit handoff: the mobile host is the receiver (`Some(true)`)
    /// or the sender (`Some(false)`); `None`: not asked for.
    frho_receiver: Option<bool>,
    /// A leg of a split flow (I-TCP): it moves when the state is
    /// installed at the new station, not when the handoff completes.
    moves_with_state: bool,
}

impl MobileConn {
    /// Point the connection at its paths from station `to`: the route
    /// array's, and its endpoints' first hops.
    fn switch_to(&self, to: usize, conn_at: &mut [ConnAt], flows: &mut [FlowState]) {
        let c = self.conn as usize;
        conn_at[c] = self.at[to];
        (flows[c].data_hop, flows[c].ack_hop) = self.first[to];
    }
}

/// A control message's payload and headers, in bytes [I]: the state
/// travels between the stations in full TCP segments of the wired path's
/// usual size (the I-TCP paper does not say how it was carried).
const CONTROL_PAYLOAD: u64 = 1460;
const CONTROL_HEADERS: u32 = 40;

/// \[I\] AIRMAIL's link state besides its packets: the window's edges and
/// each frame's number and last transmission, the receive bitmap; the
/// primary's encoding was not read. 64 bytes.
const LINK_STATE_BYTES: u64 = 64;

/// Control messages on the wired links (elaarag-002.md Sec. 2.2, primitive
/// 5): I-TCP's state transfer between two stations (`StateTransfer{bytes}`),
/// a registration's request or reply, as a stream of messages of one kind:
/// sent one per message's transmission time on the
/// path's slowest hop, so that the stream does not fill its own queues
/// (the reliable transport between the stations is not modelled beyond
/// that pace: no window, no backoff); a message lost on the way (queue,
/// errors, an outage) is sent again in its turn; the state is installed
/// when the last arrives.
#[derive(Debug)]
struct ControlStream {
    kind: ControlKind,
    m: u32,
    k: u32,
    conn: u32,
    from: NodeId,
    to: NodeId,
    /// Messages still to send (a lost one counts again).
    left: u32,
    total: u32,
    received: u32,
    /// Between two messages, in ns.
    interval: u64,
    /// A send is scheduled.
    sending: bool,
}

/// What a control stream carries (elaarag-002.md Sec. 2.2, primitive 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ControlKind {
    /// I-TCP's state, from the old station to the new one.
    StateTransfer,
    /// A Mobile IP registration request, from the new station to the
    /// anchor (RFC 5944 Sec. 3.3: 24 bytes over UDP and IP).
    Request,
    /// Its reply, back (Sec. 3.4: 20 bytes).
    Reply,
}

impl ControlKind {
    /// A message's bytes on the wire.
    fn size(self) -> u32 {
        match self {
            ControlKind::StateTransfer => CONTROL_PAYLOAD as u32 + CONTROL_HEADERS,
            ControlKind::Request => 20 + 8 + 24,
            ControlKind::Reply => 20 + 8 + 20,
        }
    }
}

/// I-TCP's state transfer at a handoff: the bytes it moved, and when it was
/// installed (`None`: not yet, or overtaken by the next handoff).
#[derive(Clone, Copy, Debug)]
struct Transfer {
    bytes: u64,
    installed: Option<Time>,
}

/// The run's mobile hosts: their connections, stations and handoffs.
#[derive(Debug)]
pub(super) struct Mobility {
    /// Per mobility entry.
    conns: Vec<Vec<MobileConn>>,
    /// Per mobility entry: its handoffs, and how many are complete.
    handoffs: Vec<Vec<Handoff>>,
    done: Vec<usize>,
    /// Per mobility entry and handoff: packets dropped at a station left.
    stranded: Vec<Vec<u64>>,
    /// Per mobility entry: how many of its handoffs have begun.
    started: Vec<usize>,
    /// Per mobility entry and handoff: packets queued on the old link at
    /// the start, both ways (lost, held or sent into the void, by the
    /// semantics).
    queued: Vec<Vec<u64>>,
    /// Per mobility entry and handoff: packets lost to its old link's
    /// going down (cause `outage`), until the mobile host's next handoff.
    lost: Vec<Vec<u64>>,
    /// Per link: the mobility entry whose station it joins (`u32::MAX`:
    /// none).
    entry_of_link: Vec<u32>,
    /// Every packet dropped at a station left (cause `handoff`).
    stranded_total: u64,
    /// Some connection's routes have switched stations.
    rerouted: bool,
    /// Per mobility entry and handoff, I-TCP's state transfer (`None`: no
    /// split flow).
    transfers: Vec<Vec<Option<Transfer>>>,
    /// Per mobility entry and handoff, the segments the new station sent
    /// from its buffer (snoop's multicast handoff; 0 otherwise).
    replayed: Vec<Vec<u64>>,
    /// Per mobility entry, its first control connection (the paths between
    /// its stations, `a * n + b`, I-TCP's); laid after every other.
    control_base: Vec<u32>,
    /// Control streams (I-TCP's state transfers, registrations), by the
    /// `seq` of their messages.
    streams: Vec<ControlStream>,
    /// Per mobility entry with registration by messages, its first
    /// registration connection (`a * n + b`); `u32::MAX`: by delay.
    register_base: Vec<u32>,
    /// Per mobility entry and handoff, when its registration's reply
    /// arrived (by messages; `None`: by delay, or overtaken).
    completed: Vec<Vec<Option<Time>>>,
    /// Per mobility entry, the station whose circuit holds the link
    /// layer's state (`link_handoff = "transfer"`).
    link_at: Vec<usize>,
}

impl Mobility {
    /// Lay each mobile connection's paths from its other stations after the
    /// route array's (`lay(conn, path pair)` appends one and says where).
    pub(super) fn wire(
        model: &Model,
        handoffs: Vec<Vec<Handoff>>,
        conn_at: &[ConnAt],
        mut lay: impl FnMut(usize, &[Path; 2]) -> ConnAt,
    ) -> Option<Box<Mobility>> {
        if model.mobility.is_empty() {
            return None;
        }
        let mut conns = Vec::with_capacity(model.mobility.len());
        for m in &model.mobility {
            let mut v = Vec::with_capacity(m.conns.len());
            for (c, alts) in &m.conns {
                let c = *c as usize;
                let at: Vec<ConnAt> =
                    (0..alts.len()).map(|s| if s == m.initial { conn_at[c] } else { lay(c, &alts[s]) }).collect();
                let moves_with_state =
                    m.link_transfer || m.splits.iter().any(|&(w, l)| w as usize == c || l as usize == c);
                // (A split flow's legs are connections past the model's flows.)
                let frho_receiver =
                    model.flows.get(c).filter(|f| f.frho && !moves_with_state).map(|f| f.to == m.mobile);
                let ends = alts.iter().map(|[data, acks]| [data[0].node, acks[0].node]).collect();
                v.push(MobileConn { conn: c as u32, at, first: Vec::new(), ends, frho_receiver, moves_with_state });
            }
            conns.push(v);
        }
        let n = model.mobility.len();
        let mut entry_of_link = vec![u32::MAX; model.links.len()];
        for (mi, m) in model.mobility.iter().enumerate() {
            for s in &m.stations {
                entry_of_link[s.link as usize] = mi as u32;
            }
        }
        let per_handoff = || handoffs.iter().map(|h| vec![0; h.len()]).collect::<Vec<_>>();
        Some(Box::new(Mobility {
            conns,
            stranded: per_handoff(),
            queued: per_handoff(),
            lost: per_handoff(),
            replayed: per_handoff(),
            control_base: Vec::new(),
            streams: Vec::new(),
            register_base: Vec::new(),
            completed: handoffs.iter().map(|h| vec![None; h.len()]).collect(),
            transfers: handoffs.iter().map(|h| vec![None; h.len()]).collect(),
            handoffs,
            done: vec![0; n],
            started: vec![0; n],
            entry_of_link,
            stranded_total: 0,
            rerouted: false,
            link_at: model.mobility.iter().map(|m| m.initial).collect(),
        }))
    }

    /// Each mobile connection's endpoints' first hops from each station
    /// (`first(at, ends)`: (the sender's, the receiver's)).
    pub(super) fn resolve_first_hops(&mut self, first: impl Fn(ConnAt, [NodeId; 2]) -> (u32, u32)) {
        for mc in self.conns.iter_mut().flatten() {
            mc.first = mc.at.iter().zip(&mc.ends).map(|(&a, &ends)| first(a, ends)).collect();
        }
    }

    /// Each entry's first control connections: state transfer's, and
    /// registration's (`u32::MAX`: by delay).
    pub(super) fn set_control_bases(&mut self, bases: Vec<u32>, register: Vec<u32>) {
        self.control_base = bases;
        self.register_base = register;
    }

    /// Whether control messages may run: some entry has control
    /// connections (I-TCP's state transfer, registration by messages).
    pub(super) fn sends_control(&self) -> bool {
        self.control_base.iter().chain(&self.register_base).any(|&b| b != u32::MAX)
    }

    /// Whether link `li` is a station's link of an entry that registers by
    /// messages (a handoff may then overtake the one before: its link
    /// goes down without having come up).
    pub(super) fn registers_by_message(&self, li: usize) -> bool {
        let mi = self.entry_of_link[li];
        mi != u32::MAX && self.register_base[mi as usize] != u32::MAX
    }

    /// A packet was lost to link `li`'s outage: counted against its mobile
    /// host's handoff under way, if the link is a station's.
    pub(super) fn count_lost(&mut self, li: usize) {
        let mi = self.entry_of_link[li];
        if mi == u32::MAX {
            return;
        }
        let mi = mi as usize;
        if let Some(k) = self.started[mi].checked_sub(1) {
            self.lost[mi][k] += 1;
        }
    }

    /// Every packet dropped at a station left (cause `handoff`).
    pub(super) fn stranded_total(&self) -> u64 {
        self.stranded_total
    }

    /// What the run's summary shows of the handoffs that began.
    pub(super) fn summary(&self, model: &Model) -> Vec<HandoffSummary> {
        let mut out = Vec::new();
        for (mi, hs) in self.handoffs.iter().enumerate() {
            let m = &model.mobility[mi];
            let node = |s: usize| model.nodes[m.stations[s].node as usize].clone();
            // Those that began: the schedule runs to the model's stop, a
            // run may end sooner (its flows done).
            for (k, h) in hs.iter().enumerate().take(self.started[mi]) {
                out.push(HandoffSummary {
                    mobile: model.nodes[m.mobile as usize].clone(),
                    start_s: h.start.as_secs_f64(),
                    complete_s: self.completed[mi][k].unwrap_or(h.complete).as_secs_f64(),
                    from: node(h.from),
                    to: node(h.to),
                    queued: self.queued[mi][k],
                    lost: self.lost[mi][k],
                    stranded: self.stranded[mi][k],
                    state_bytes: self.transfers[mi][k].map(|t| t.bytes),
                    state_installed_s: self.transfers[mi][k].and_then(|t| t.installed).map(Time::as_secs_f64),
                    supervisor_change: m.supervisors.as_ref().map(|sh| sh[h.from] != sh[h.to]),
                    replayed: m.multicast.map(|_| self.replayed[mi][k]),
                });
            }
        }
        out
    }
}

impl<'m> World<'m> {
    /// Whether some connection's routes have switched stations.
    pub(super) fn rerouted(&self) -> bool {
        self.mobility.as_deref().is_some_and(|m| m.rerouted)
    }

    /// Mobility entry `m`'s handoff `k` takes its old link down (as it
    /// begins, or after the overlap): what the link holds is counted first.
    pub(super) fn on_handoff_start(&mut self, m: usize, k: usize) {
        let mob = self.mobility.as_deref_mut().expect("mobility");
        let station = &self.model.mobility[m].stations[mob.handoffs[m][k].from];
        mob.started[m] = k + 1;
        mob.queued[m][k] = match station.circuit {
            // A circuit's packets: queued, or in its link layer's windows.
            Some(c) => self.macs[c as usize].mac.in_flight() as u64,
            None => self.links[station.link as usize].dirs.iter().map(|d| d.queue_len() as u64).sum(),
        };
        if self.model.mobility[m].multicast.is_some() {
            // Snoop's multicast handoff: the old station, disabled, becomes
            // a buffering one.
            let node = self.model.mobility[m].stations[mob.handoffs[m][k].from].node;
            for i in 0..mob.conns[m].len() {
                let c = self.mobility.as_deref().expect("mobility").conns[m][i].conn;
                if let Some(a) = self.snoop_agent(node, c) {
                    a.detach();
                }
            }
        }
    }

    /// Flow `flow`'s snoop agent on `node`, if it has one there.
    fn snoop_agent(&mut self, node: NodeId, flow: u32) -> Option<&mut Snoop> {
        let (first, end) = self.flow_agents(node, flow);
        self.snoop_in(first, end)
    }

    /// The snoop agent among `agents[first..end]` (one node's agents of a
    /// flow, [`World::flow_agents`]), if any.
    fn snoop_in(&mut self, first: usize, end: usize) -> Option<&mut Snoop> {
        self.agents[first..end].iter_mut().find_map(|s| match &mut s.agent {
            NodeAgent::Snoop(s) => Some(&mut **s),
            _ => None,
        })
    }

    /// Snoop's multicast handoff (the snoop 1995 paper, Secs. 4-6;
    /// elaarag-002.md Sec. 1.7): mobility entry `m`'s handoff `k` is
    /// complete and the new station on `node` becomes the primary. The
    /// mobile host tells it the last packets it received (here at the
    /// completion: what it has then, since nothing reached it between);
    /// the station sends the copies it buffered that follow them, then
    /// forwards the flow as the routes now bring it.
    fn multicast_handoff(&mut self, m: usize, k: usize, node: NodeId) {
        let now = self.sched.now();
        let n = self.mobility.as_deref().expect("mobility").conns[m].len();
        let mut sent = 0;
        for i in 0..n {
            let c = self.mobility.as_deref().expect("mobility").conns[m][i].conn;
            let Some((group, _)) = self.model.flows.get(c as usize).and_then(|f| f.snoop_group) else { continue };
            let r = &self.flows[c as usize].receiver;
            let received = r.out_of_order().iter().map(|o| o.1).fold(r.rcv_nxt(), u64::max);
            let (gf, ge) = self.flow_agents(group, c);
            // (A handoff is rare: the copies are collected, not borrowed.)
            let copies: Vec<Packet> = self.agents[gf..ge]
                .iter()
                .find_map(|s| match &s.agent {
                    NodeAgent::Group(g) => Some(g.to_send(received).copied().collect()),
                    _ => None,
                })
                .expect("a group buffer where the paths part");
            sent += copies.len() as u64;
            let (first, end) = self.flow_agents(node, c);
            self.snoop_in(first, end).expect("snoop on every station").prime(now, copies.iter());
            self.flush_agents(first, end);
        }
        self.mobility.as_deref_mut().expect("mobility").replayed[m][k] = sent;
    }

    /// Mobility entry `m`'s handoff to station `to` is complete: its
    /// connections' routes switch, and fast-retransmit handoff acts.
    pub(super) fn on_handoff_complete(&mut self, m: usize, to: usize) {
        let mob = self.mobility.as_deref_mut().expect("mobility");
        mob.done[m] += 1;
        mob.rerouted = true;
        self.detour = true;
        let mut frho = Vec::new();
        for mc in &mob.conns[m] {
            if mc.moves_with_state {
                continue;
            }
            mc.switch_to(to, &mut self.conn_at, &mut self.flows);
            if let Some(receiver) = mc.frho_receiver {
                frho.push((mc.conn as usize, receiver));
            }
        }
        for (c, receiver) in frho {
            self.fast_retransmit_handoff(c, receiver);
        }
        if !self.model.mobility[m].splits.is_empty() {
            self.itcp_transfer(m);
        } else if self.model.mobility[m].link_transfer {
            self.link_transfer(m);
        }
        if self.model.mobility[m].multicast.is_some() {
            let k = self.mobility.as_deref().expect("mobility").done[m] - 1;
            self.multicast_handoff(m, k, self.model.mobility[m].stations[to].node);
        }
    }

    /// I-TCP's handoff (Bakre and Badrinath 1995; elaarag-002.md Sec.
    /// 1.11): mobility entry `m`'s mobile host is attached to its new
    /// station, and the state of its split connections (both legs' control
    /// blocks and the bytes buffered between them: the relay's, which the
    /// mobile host has not acknowledged, and those the wired leg holds
    /// unread) is sent there. It takes the transfer's fixed part plus the
    /// bytes over its rate (packing it at the old station [I]), then travels
    /// to the new one as messages on the wired path between them
    /// ([`ControlStream`]), and is installed when the last arrives
    /// ([`World::itcp_install`]).
    ///
    /// \[I\] Until then the wireless legs are frozen (their state is in
    /// transit) and the wired legs stay at the old station, which goes on
    /// taking what the source sends while its relay has room: the source
    /// sees only delay (the reference's "the FH side sees only delay"); what
    /// reaches the old station later is handed to the moved receiver, as
    /// the reference's forwarding with the state, at no cost.
    fn itcp_transfer(&mut self, m: usize) {
        let now = self.sched.now();
        let mm = &self.model.mobility[m];
        let mut bytes = 0;
        for &(wired, leg) in &mm.splits {
            let (wired, leg) = (wired as usize, leg as usize);
            if self.flows[leg].mhp {
                // MTCP: MHP's state, SRP's buffers and the relay's (`mhp`).
                bytes += self.mhp_freeze(leg) + self.flows[wired].receiver.unread_bytes();
                continue;
            }
            let r = self.flows[wired].relay.as_deref().expect("a split flow");
            bytes += r.written - self.flows[leg].sender.snd_una() + self.flows[wired].receiver.unread_bytes();
            self.flows[leg].sender.freeze(now);
            self.flush_sender(leg);
        }
        let mob = self.mobility.as_deref().expect("mobility");
        let k = mob.done[m] - 1;
        let h = mob.handoffs[m][k];
        self.send_state(m, k, h.from, h.to, bytes);
    }

    /// Mobility entry `m`'s handoff `k` sends `bytes` of state from station
    /// `from` to `to`: packed for the entry's fixed part plus the bytes
    /// over its rate, then a stream of control messages on the wired path
    /// between them (I-TCP's, MTCP's and AIRMAIL's transfers alike).
    fn send_state(&mut self, m: usize, k: usize, from: usize, to: usize, bytes: u64) {
        let now = self.sched.now();
        let mm = &self.model.mobility[m];
        let took = Time::from_secs_f64(bytes as f64 / mm.transfer_bytes_per_s).ns() + mm.transfer.ns();
        let n = mm.stations.len();
        let mob = self.mobility.as_deref_mut().expect("mobility");
        mob.transfers[m][k] = Some(Transfer { bytes, installed: None });
        let conn = mob.control_base[m] + (from * n + to) as u32;
        let ends = [mm.stations[from].node, mm.stations[to].node];
        let total = bytes.div_ceil(CONTROL_PAYLOAD).max(1) as u32;
        self.control_stream(ControlKind::StateTransfer, m, k, conn, ends, total, now.plus_ns(took));
    }

    /// AIRMAIL's handoff with state transfer (seed 002 Sec. 5.1;
    /// elaarag-002.md Sec. 1.6, AIRMAIL-3): mobility entry `m`'s mobile host
    /// is attached to its new station, and the old station sends the link
    /// layer's state there (`lasthop_net::mac::LinkState`: the windows with
    /// their packets, the receive state), with the packets it has queued,
    /// as I-TCP's state goes: packed (the fixed part and the bytes over a
    /// rate), then messages on the wired path between them
    /// ([`ControlStream`]); installed when the last arrives
    /// ([`World::link_install`]). Its size: the old base station's packets
    /// (queued and in its window) and \[I\] `LINK_STATE_BYTES` of
    /// sequence state; the mobile host's side does not travel.
    ///
    /// \[I\] Until then the mobile host's connections stay on the old
    /// station, whose circuit is down: what reaches it waits there (by the
    /// entry's semantics: `hold` queues it, `flush` loses it) and moves
    /// with the state at no cost, as I-TCP's forwarding does.
    fn link_transfer(&mut self, m: usize) {
        let mm = &self.model.mobility[m];
        let mob = self.mobility.as_deref_mut().expect("mobility");
        let k = mob.done[m] - 1;
        let (from, to) = (mob.link_at[m], mob.handoffs[m][k].to);
        if from == to {
            // Back at the station that holds it (an earlier transfer
            // overtaken): nothing to send.
            mob.transfers[m][k] = Some(Transfer { bytes: 0, installed: None });
            self.itcp_install(m, k);
            return;
        }
        let c = mm.stations[from].circuit.expect("a station's circuit") as usize;
        let held = self.macs[c].mac.circuit().expect("a circuit").held_bytes(0);
        self.send_state(m, k, from, to, LINK_STATE_BYTES + held);
    }

    /// AIRMAIL's state, sent at mobility entry `m`'s handoff, is installed
    /// at station `to` (the connections already moved there): the link
    /// state leaves the circuit that held it for `to`'s, each packet in its
    /// windows now crossing `to`'s hop, and the packets queued at the old
    /// circuit are sent on from the new one's ends, behind them, in order.
    fn link_install(&mut self, m: usize, to: usize) {
        let now = self.sched.now();
        let mob = self.mobility.as_deref_mut().expect("mobility");
        let from = std::mem::replace(&mut mob.link_at[m], to);
        if from == to {
            return;
        }
        let mm = &self.model.mobility[m];
        let (ca, cb) = (mm.stations[from].circuit, mm.stations[to].circuit);
        let (ca, cb) = (ca.expect("a circuit") as usize, cb.expect("a circuit") as usize);
        let mut queued = Vec::new();
        let mut state = self.macs[ca].mac.circuit_mut().expect("a circuit").take_link_state(now, &mut queued);
        for (s, w) in state.packets_mut() {
            let node = self.model.media[cb].stations[usize::from(s)];
            let pkt = self.pool.get(w.pkt);
            let (first, end) = self.conn_at[pkt.flow as usize].path(pkt.kind);
            let h = self.hop_from(first, end, node).expect("a packet on a station link is one of its connections'");
            let tag;
            (tag, w.tag) = self.hop_marks(h, pkt.is_data() && pkt.tcp.len > 0);
            self.pool.set_tag(w.pkt, tag);
        }
        self.macs[cb].mac.circuit_mut().expect("a circuit").install_link_state(now, state);
        for (s, w) in queued {
            let node = self.model.media[cb].stations[usize::from(s)];
            let pkt = self.pool.take(w.pkt);
            self.forward(node, pkt);
        }
        for c in [ca, cb] {
            let out = self.mac_bufs.pop().unwrap_or_default();
            self.mac_outputs(c, out);
        }
    }

    /// Control stream `id` sends its next message from its station.
    pub(super) fn control_send(&mut self, id: usize) {
        let now = self.sched.now();
        let mob = self.mobility.as_deref_mut().expect("mobility");
        let s = &mut mob.streams[id];
        let tcp = TcpHeader { seq: id as u64, ..TcpHeader::default() };
        let (src, dst, size_bytes) = (s.from, s.to, s.kind.size());
        // A reply runs back on its connection's return path.
        let kind = if s.kind == ControlKind::Reply { PacketKind::Ack } else { PacketKind::Datagram };
        let pkt = Packet { uid: self.next_uid, flow: s.conn, kind, src, dst, size_bytes, ecn: Ecn::NotEct, tcp };
        s.left -= 1;
        s.sending = s.left > 0;
        let (next, interval) = (s.sending, s.interval);
        self.next_uid += 1;
        self.conservation.created += 1;
        self.forward(src, pkt);
        if next {
            self.schedule_control(now.plus_ns(interval), id);
        }
    }

    /// A control message reached its station: the last of a state transfer
    /// installs the state ([`World::itcp_install`]).
    #[cold]
    #[inline(never)]
    pub(super) fn deliver_control(&mut self, pkt: &Packet) {
        let mob = self.mobility.as_deref_mut().expect("control messages come with mobility");
        let s = &mut mob.streams[pkt.tcp.seq as usize];
        s.received += 1;
        if s.received != s.total {
            return;
        }
        let (m, k) = (s.m as usize, s.k as usize);
        match s.kind {
            ControlKind::StateTransfer => self.itcp_install(m, k),
            ControlKind::Request => {
                let (conn, ends) = (s.conn, [s.to, s.from]);
                self.control_stream(ControlKind::Reply, m, k, conn, ends, 1, self.sched.now());
            }
            ControlKind::Reply => self.registered(m, k),
        }
    }

    /// Start a control stream of `total` messages on connection `conn`
    /// between `ends`, its first at `at`; paced at its path's slowest hop.
    #[allow(clippy::too_many_arguments)]
    fn control_stream(
        &mut self,
        kind: ControlKind,
        m: usize,
        k: usize,
        conn: u32,
        ends: [NodeId; 2],
        total: u32,
        at: Time,
    ) {
        let span = self.conn_at[conn as usize];
        let (first, end) = if kind == ControlKind::Reply { (span.acks, span.end) } else { (span.data, span.acks) };
        let bps = self.route[first as usize..end as usize]
            .iter()
            .map(|hop| self.model.links[hop.link as usize].dirs[hop.dir as usize].params.bandwidth_bps)
            .min()
            .unwrap_or(1)
            .max(1);
        let mob = self.mobility.as_deref_mut().expect("mobility");
        let id = mob.streams.len();
        mob.streams.push(ControlStream {
            kind,
            m: m as u32,
            k: k as u32,
            conn,
            from: ends[0],
            to: ends[1],
            left: total,
            total,
            received: 0,
            interval: (u64::from(kind.size()) * 8 * 1_000_000_000).div_ceil(bps),
            sending: true,
        });
        self.schedule_control(at, id);
    }

    /// Mobility entry `m`'s mobile host is attached to the new station of
    /// its handoff `k`, which sends its registration to the anchor
    /// (`registration = "message"`); a station that is its own anchor is
    /// registered at once.
    pub(super) fn register(&mut self, m: usize, k: usize) {
        let now = self.sched.now();
        let mm = &self.model.mobility[m];
        let n = mm.stations.len();
        let mob = self.mobility.as_deref().expect("mobility");
        let h = mob.handoffs[m][k];
        let pair = h.from * n + h.to;
        if mm.register_paths[pair].is_none() {
            self.registered(m, k);
            return;
        }
        let conn = mob.register_base[m] + pair as u32;
        let station = mm.stations[h.to].node;
        let at = self.conn_at[conn as usize];
        let anchor = self.route[at.acks as usize - 1].to;
        self.control_stream(ControlKind::Request, m, k, conn, [station, anchor], 1, now);
    }

    /// Mobility entry `m`'s handoff `k`'s registration reply reached the
    /// new station: its link comes up and the handoff completes, unless a
    /// later handoff has begun meanwhile (the registration is stale: the
    /// mobile host has left).
    fn registered(&mut self, m: usize, k: usize) {
        let now = self.sched.now();
        let mob = self.mobility.as_deref_mut().expect("mobility");
        let stale = mob.handoffs[m].get(k + 1).is_some_and(|next| next.start <= now);
        // (`done` counts this handoff once it completes or is overtaken.)
        if stale {
            mob.done[m] = mob.done[m].max(k + 1);
            return;
        }
        mob.done[m] = k;
        mob.completed[m][k] = Some(now);
        let to = mob.handoffs[m][k].to;
        self.on_link_change(self.model.mobility[m].stations[to].link, None);
        self.on_handoff_complete(m, to);
    }

    /// A control message was lost on the way: it is sent again.
    #[cold]
    #[inline(never)]
    pub(super) fn control_lost(&mut self, pkt: &Packet) {
        let now = self.sched.now();
        let mob = self.mobility.as_deref_mut().expect("control messages come with mobility");
        let id = pkt.tcp.seq as usize;
        let s = &mut mob.streams[id];
        s.left += 1;
        if !s.sending {
            s.sending = true;
            let at = now.plus_ns(s.interval);
            self.schedule_control(at, id);
        }
    }

    /// I-TCP: the state of mobility entry `m`'s split connections, sent at
    /// its handoff `k`, is installed at the new station: the legs move
    /// there (the wired leg now ends at it, the wireless leg leaves from
    /// it) and the wireless sender starts again at once from the mobile
    /// host's last ack, with a window of one segment and no backed-off
    /// timer (F6: "the retransmission timers over the wireless part are
    /// cleared, consequently immediately entering slow start", seed 002
    /// Sec. 5.3). A state overtaken by a later handoff is not installed:
    /// that handoff's transfer carries it on.
    pub(super) fn itcp_install(&mut self, m: usize, k: usize) {
        let now = self.sched.now();
        let mob = self.mobility.as_deref_mut().expect("mobility");
        if mob.done[m] != k + 1 {
            return;
        }
        let to = mob.handoffs[m][k].to;
        if let Some(t) = mob.transfers[m][k].as_mut() {
            t.installed = Some(now);
        }
        mob.rerouted = true;
        self.detour = true;
        for mc in mob.conns[m].iter().filter(|mc| mc.moves_with_state) {
            mc.switch_to(to, &mut self.conn_at, &mut self.flows);
        }
        if self.model.mobility[m].link_transfer {
            self.link_install(m, to);
        }
        let node = self.model.mobility[m].stations[to].node;
        for i in 0..self.model.mobility[m].splits.len() {
            let (wired, leg) = self.model.mobility[m].splits[i];
            let (wired, leg) = (wired as usize, leg as usize);
            self.flows[wired].set_to(node);
            self.flows[leg].set_from(node);
            if self.flows[leg].mhp {
                self.mhp_install(leg);
            } else {
                self.flows[leg].sender.unfreeze(now);
                self.flows[leg].sender.reset_on_move(now, &mut self.trace);
                self.flush_sender(leg);
            }
            self.flush_receiver(wired);
            self.relay_pump(wired);
        }
    }

    /// Fast-retransmit handoff (Caceres and Iftode 1995; elaarag-002.md Sec.
    /// 1.8) at connection `c`'s mobile end, told that its handoff is
    /// complete or its link back: a receiver sends three duplicate acks, a
    /// sender fast-retransmits itself (F5).
    pub(super) fn fast_retransmit_handoff(&mut self, c: usize, receiver: bool) {
        if receiver {
            self.flows[c].receiver.send_duplicate_acks(3);
            self.flush_receiver(c);
        } else {
            let now = self.sched.now();
            self.flows[c].sender.local_fast_retransmit(now, &mut self.trace);
            self.flush_sender(c);
        }
    }

    /// [`World::arrived`]'s next hop once routes have switched: the hop
    /// after `h` if `h` is on its connection's current path, else the
    /// current path's hop from the node reached; none (a station the mobile
    /// host left): the packet is dropped there.
    #[cold]
    #[inline(never)]
    pub(super) fn forward_rerouted(&mut self, h: usize, mut pkt: Packet) {
        let (first, end) = self.conn_at[pkt.flow as usize].path(pkt.kind);
        if (first as usize..end as usize).contains(&h) {
            self.forward_on(h + 1, pkt);
            return;
        }
        match self.hop_from(first, end, self.route[h].to) {
            Some(next) => {
                // Its end may have moved with it (I-TCP's wired leg, to the
                // new station): the packet goes where the path now ends.
                pkt.dst = self.route[end as usize - 1].to;
                self.forward_on(next, pkt)
            }
            None => self.strand(h, &pkt),
        }
    }

    /// [`World::forward`] from a node the connection's current path does
    /// not cross: an agent on a station the mobile host left (snoop's local
    /// retransmission from its cache) sends on that station's own path to
    /// the mobile host, whose link is down (the packet is lost there, cause
    /// `outage`).
    #[cold]
    #[inline(never)]
    pub(super) fn forward_from_left_station(&mut self, node: NodeId, pkt: Packet) {
        let mob = self.mobility.as_deref().expect("packets leave a path only with mobility");
        let hop = mob.conns.iter().flatten().filter(|mc| mc.conn == pkt.flow).find_map(|mc| {
            mc.at.iter().find_map(|at| {
                let (first, end) = at.path(pkt.kind);
                self.hop_from(first, end, node)
            })
        });
        self.forward_on(hop.expect("a station's path from the node"), pkt);
    }

    /// `pkt`, which crossed hop `h`, reached a station its mobile host left.
    fn strand(&mut self, h: usize, pkt: &Packet) {
        let hop = self.route[h];
        self.drop(2 * hop.link as usize + hop.dir as usize, pkt, DropCause::Handoff);
        let mob = self.mobility.as_deref_mut().expect("routes switch only with mobility");
        mob.stranded_total += 1;
        // Counted against the mobile host's last handoff away from here.
        for (mi, hs) in mob.handoffs.iter().enumerate() {
            let m = &self.model.mobility[mi];
            let done = mob.done[mi];
            if let Some(k) = (0..done).rev().find(|&k| m.stations[hs[k].from].node == hop.to) {
                if mob.conns[mi].iter().any(|c| c.conn == pkt.flow) {
                    mob.stranded[mi][k] += 1;
                    return;
                }
            }
        }
    }
}
