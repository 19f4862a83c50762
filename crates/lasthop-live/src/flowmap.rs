//! Real connections onto the model's flows: each IPv4 packet a host's
//! kernel sends becomes a `lasthop_core::Packet` the simulator's links and
//! agents understand, and what the agents send or change goes back onto
//! wire bytes.
//!
//! Follows RFC 9293 (formerly 793) Sec. 3.4 for sequence numbers (the SYN
//! and the FIN each take one), RFC 7323 Secs. 2 and 5 (window scaling, and
//! unwrapping 32-bit numbers nearest to the last one seen, [`SeqUnwrap`]),
//! RFC 2018 (SACK blocks, in the data sender's sequence space) and RFC 3168
//! (ECN field, ECE and CWR copied both ways). Checksums are RFC 1071's
//! (`wire`).
//!
//! The mapping:
//! - Hosts by IPv4 address ([`FlowMap::new`]'s `hosts`); a packet from or to
//!   an unknown address is [`MapError::UnknownHost`]. A non-TCP datagram
//!   (fragments included) is a [`PacketKind::Datagram`] of no flow
//!   ([`NO_FLOW`]) whose `seq` counts the datagrams mapped.
//! - A connection is its 4-tuple, either way round. The first packet seen
//!   of a 4-tuple (normally the SYN) opens it: its sender is the initiator,
//!   and the connection binds to the first model flow `(from, to)` with
//!   `from` the initiator's node and `to` the other's that no open
//!   connection holds; without one it gets an extra flow index,
//!   `n_model_flows + k` for the k-th such connection (k from 0). Packets
//!   from the initiator are `Data`, from the other end `Ack` (payload
//!   counted in `len` both ways; a reverse direction's data is an ack to the
//!   model's agents).
//! - Sequence numbers as the model's `packet.rs` counts them: data byte 0 is
//!   offset 0, so offset = unwrap(wire − (ISN + 1)); a SYN has `seq` 0 and
//!   `syn` set, and the SYN-ACK's ack is 0. Acks and SACK edges map in the
//!   other side's space. Picked up mid-stream (no SYN seen from a side),
//!   that side's first sequence number seen is its offset 0 (ISN taken as
//!   one below it), and an ack seen before any of the other side's packets
//!   is its offset 0 likewise. Offsets before a side's start are 0.
//! - Windows are scaled by the shift in the window-scale option the
//!   *sending* side put on its SYN, when both SYNs carried one (RFC 7323
//!   Sec. 2.2); a SYN's own window never is; a connection picked up after
//!   its SYNs is read unscaled (an under-reported window).
//! - `size_bytes` is the IP total length; ECN (ECT(1) read as ECT), ECE,
//!   CWR, SYN and FIN are copied; the ELN mark is read from its reserved bit
//!   (`wire::ELN_BIT`, which no kernel sets); LL-ELSN codes are not read.
//!   At most 3 SACK blocks (the model's `MAX_SACK_BLOCKS`), the first ones
//!   (most recent, RFC 2018 Sec. 4); a block whose edges do not increase
//!   once mapped is left out.
//! - Timestamps: the raw 32-bit TSval and TSecr go in `val_ns` and `ecr_ns`
//!   unchanged (they are the kernel's clock, not nanoseconds); no model
//!   decision may read them, and agents only copy them.
//! - `is_retransmit` (metrics only) is set on a segment with payload that
//!   starts below the highest byte its side has sent.
//! - Segments no receiver would accept are refused
//!   ([`MapError::Unacceptable`], nothing about the connection changed): an
//!   ack of data the relay never saw sent or more than a largest window
//!   (2^30 bytes, RFC 7323) below the highest ack (RFC 5961 Sec. 5.2), and
//!   data that starts more than a largest window below the receiver's
//!   latest ack or ends beyond it plus the receiver's window (the largest
//!   one when the SYNs were not seen) plus 64 KiB (RFC 9293 Sec. 3.10.7.4,
//!   loosened). Every packet crosses the relay, so a real one never fails
//!   this; a forged or corrupted one that did not would move the unwrap
//!   reference, and could make an agent act on a jump of gigabytes (ACK
//!   reconstruction would fill it with acks). The runner passes such a
//!   packet on untouched or drops it; its receiver drops it either way.
//!
//! Connection state is bounded: at most `max_connections` (default
//! [`DEFAULT_MAX_CONNECTIONS`]); opening one more evicts a closed one, the
//! least recently seen, else the least recently seen open one, with its
//! stored payloads and its model flow. An RST from either end, or a FIN
//! from each, closes a connection: its packets still map, and a new SYN
//! (no ACK) on the same 4-tuple, or a new connection that wants its model
//! flow, replaces it. A SYN (no ACK) with another ISN on an open 4-tuple
//! replaces it too (the old one was lost track of). [`Mapped::new_connection`]
//! tells the runner to reset the flow's agents.
//!
//! The payload store keeps the exact bytes of every data segment from a
//! flow's data side, by (flow, offset), for agents' local retransmissions
//! (copies of the original), bounded per flow (`per_flow_segments`) and in
//! total (`total_bytes`), the oldest evicted first, and freed once an ack
//! from the other side covers a segment whole. For acks an agent made or
//! changed, [`FlowMap::rewrite`] writes the model's fields onto an
//! original's bytes or onto the connection's latest pure ack (its template).
//!
//! Departures: IPv4 only; no reassembly of fragments; a connection's
//! mapping ignores sequence validity (it maps what it sees, and a forged or
//! corrupted segment moves the unwrap reference like any other).

use crate::wire::{self, Edit, SeqUnwrap, WireError};
use lasthop_core::packet::MAX_SACK_BLOCKS;
use lasthop_core::{Ecn, LlNotice, NodeId, Packet, PacketKind, SackBlocks, TcpHeader, Timestamps};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

/// The flow of a datagram that belongs to none.
pub const NO_FLOW: u32 = u32::MAX;
/// Connections tracked at once when not set otherwise.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// The largest window-scale shift honoured (RFC 7323 Sec. 2.3).
const MAX_WSCALE: u8 = 14;
/// The largest window, in bytes (RFC 7323 Sec. 2.3: 2^30).
const MAX_WINDOW_BYTES: u64 = 1 << 30;

/// Bounds of the payload store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreLimits {
    /// Segments kept per flow at most.
    pub per_flow_segments: usize,
    /// Bytes kept in all at most (whole IP datagrams counted).
    pub total_bytes: usize,
}

impl Default for StoreLimits {
    /// 4096 segments per flow (a 6 MB window of 1500-byte packets), 64 MiB in all.
    fn default() -> StoreLimits {
        StoreLimits { per_flow_segments: 4096, total_bytes: 64 << 20 }
    }
}

/// Why a packet was not mapped, or an agent's output not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapError {
    Wire(WireError),
    /// An address that is no host of the scenario.
    UnknownHost([u8; 4]),
    /// No connection holds this flow (`rewrite` of a flow never seen, or evicted).
    UnknownFlow(u32),
    /// An agent's copy of a data segment the store does not hold.
    CopyMissing {
        flow: u32,
        seq: u64,
        len: u32,
    },
    /// An ack to write with no original and no template yet.
    NoTemplate(u32),
    /// A segment its receiver would not accept (module docs): an ack of
    /// data the relay never saw sent, or data far outside the window.
    Unacceptable {
        flow: u32,
        seq: u64,
        ack: u64,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MapError::Wire(e) => write!(f, "{e}"),
            MapError::UnknownHost(a) => write!(f, "{}.{}.{}.{} is no host of the scenario", a[0], a[1], a[2], a[3]),
            MapError::UnknownFlow(fl) => write!(f, "no connection holds flow {fl}"),
            MapError::CopyMissing { flow, seq, len } => {
                write!(f, "no stored copy of flow {flow}'s segment at {seq} ({len} bytes)")
            }
            MapError::NoTemplate(fl) => write!(f, "flow {fl} has no ack to copy yet"),
            MapError::Unacceptable { flow, seq, ack } => {
                write!(f, "flow {flow}: a segment no receiver would accept (seq {seq}, ack {ack})")
            }
        }
    }
}

impl std::error::Error for MapError {}

impl From<WireError> for MapError {
    fn from(e: WireError) -> MapError {
        MapError::Wire(e)
    }
}

/// A packet mapped onto the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mapped {
    pub pkt: Packet,
    /// It opened a connection (its flow's agents should start afresh).
    pub new_connection: bool,
}

/// What the map has counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FlowMapStats {
    /// Packets mapped (TCP and datagrams).
    pub mapped: u64,
    /// Packets from or to an unknown address.
    pub unknown_hosts: u64,
    /// Buffers `wire::parse` refused.
    pub parse_errors: u64,
    /// Segments refused as [`MapError::Unacceptable`].
    pub unacceptable: u64,
    /// Stored segments evicted by the limits (not freed by acks).
    pub store_evictions: u64,
    /// Agents' copies asked for and not stored.
    pub copies_missing: u64,
    pub connections_opened: u64,
    /// Connections dropped by the cap or replaced.
    pub connections_evicted: u64,
}

type Endpoint = ([u8; 4], u16);
/// A 4-tuple, lower endpoint first: the same either way round.
type ConnKey = (Endpoint, Endpoint);

fn key_of(a: Endpoint, b: Endpoint) -> ConnKey {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// One end's sequence space.
#[derive(Clone, Copy, Debug, Default)]
struct Side {
    isn: Option<u32>,
    space: SeqUnwrap,
    /// The shift its SYN asked for.
    wscale: Option<u8>,
    fin: bool,
    /// Its SYN was seen.
    syn_seen: bool,
    /// One past the highest byte it sent, as an offset.
    high_end: u64,
    /// The highest ack the other side sent for this side's data (its
    /// RCV.NXT as far as the relay knows), and that side's latest window,
    /// in bytes (how far beyond it this side may send).
    acked: Option<u64>,
    peer_wnd_bytes: u64,
}

impl Side {
    /// Offset of wire number `wire` in this side's space (ISN known).
    fn offset(&mut self, wire: u32) -> u64 {
        let isn = *self.isn.get_or_insert(wire.wrapping_sub(1));
        self.space.unwrap(wire.wrapping_sub(isn.wrapping_add(1)))
    }
    fn peek(&self, wire: u32) -> Option<u64> {
        self.isn.map(|isn| self.space.peek(wire.wrapping_sub(isn.wrapping_add(1))))
    }
    /// The wire number of `offset`.
    fn wire(&self, offset: u64) -> Option<u32> {
        self.isn.map(|isn| (offset as u32).wrapping_add(isn.wrapping_add(1)))
    }
}

#[derive(Clone, Debug)]
struct Conn {
    flow: u32,
    /// The initiator, whose packets are the flow's data.
    data: Endpoint,
    /// [data side, ack side].
    sides: [Side; 2],
    closed: bool,
    last_seen: u64,
    /// The latest pure ack from the ack side (its whole datagram).
    template: Option<Vec<u8>>,
}

impl Conn {
    /// The shift of windows sent by side `s` (0 unless both SYNs asked).
    fn shift(&self, s: usize) -> u8 {
        match (self.sides[0].wscale, self.sides[1].wscale) {
            (Some(a), Some(b)) => [a, b][s & 1].min(MAX_WSCALE),
            _ => 0,
        }
    }
}

/// A stored segment.
#[derive(Clone, Debug)]
struct Seg {
    gen: u64,
    len: u32,
    bytes: Vec<u8>,
}

#[derive(Clone, Debug, Default)]
struct FlowStore {
    by_seq: BTreeMap<u64, Seg>,
    /// Insertion order: gen -> seq.
    by_gen: BTreeMap<u64, u64>,
}

/// The payload store (module docs).
#[derive(Clone, Debug)]
struct Store {
    limits: StoreLimits,
    flows: BTreeMap<u32, FlowStore>,
    /// Insertion order over all flows: gen -> (flow, seq).
    order: BTreeMap<u64, (u32, u64)>,
    bytes: usize,
    next_gen: u64,
    evictions: u64,
}

impl Store {
    fn new(limits: StoreLimits) -> Store {
        Store { limits, flows: BTreeMap::new(), order: BTreeMap::new(), bytes: 0, next_gen: 0, evictions: 0 }
    }

    fn remove(&mut self, flow: u32, seq: u64) {
        let Some(fs) = self.flows.get_mut(&flow) else { return };
        if let Some(seg) = fs.by_seq.remove(&seq) {
            fs.by_gen.remove(&seg.gen);
            self.order.remove(&seg.gen);
            self.bytes -= seg.bytes.len();
        }
        if fs.by_seq.is_empty() {
            self.flows.remove(&flow);
        }
    }

    fn insert(&mut self, flow: u32, seq: u64, len: u32, bytes: &[u8]) {
        self.remove(flow, seq);
        if bytes.len() > self.limits.total_bytes || self.limits.per_flow_segments == 0 {
            self.evictions += 1;
            return;
        }
        let gen = self.next_gen;
        self.next_gen += 1;
        let fs = self.flows.entry(flow).or_default();
        fs.by_seq.insert(seq, Seg { gen, len, bytes: bytes.to_vec() });
        fs.by_gen.insert(gen, seq);
        let over = fs.by_seq.len().saturating_sub(self.limits.per_flow_segments);
        let oldest: Vec<u64> = fs.by_gen.values().take(over).copied().collect();
        self.order.insert(gen, (flow, seq));
        self.bytes += bytes.len();
        for s in oldest {
            self.remove(flow, s);
            self.evictions += 1;
        }
        while self.bytes > self.limits.total_bytes {
            let Some((_, &(f, s))) = self.order.first_key_value() else { break };
            self.remove(f, s);
            self.evictions += 1;
        }
    }

    /// Drop the flow's segments that end at or below `ack`.
    fn free_below(&mut self, flow: u32, ack: u64) {
        let Some(fs) = self.flows.get(&flow) else { return };
        let done: Vec<u64> =
            fs.by_seq.range(..ack).filter(|(s, seg)| **s + u64::from(seg.len) <= ack).map(|(s, _)| *s).collect();
        for s in done {
            self.remove(flow, s);
        }
    }

    fn drop_flow(&mut self, flow: u32) {
        let seqs: Vec<u64> = self.flows.get(&flow).map(|fs| fs.by_seq.keys().copied().collect()).unwrap_or_default();
        for s in seqs {
            self.remove(flow, s);
        }
    }

    fn get(&self, flow: u32, seq: u64) -> Option<&Seg> {
        self.flows.get(&flow)?.by_seq.get(&seq)
    }

    fn segments(&self, flow: u32) -> usize {
        self.flows.get(&flow).map_or(0, |fs| fs.by_seq.len())
    }
}

/// Real connections onto the model's flows (module docs).
#[derive(Debug)]
pub struct FlowMap {
    hosts: Vec<([u8; 4], NodeId)>,
    model_flows: Vec<(NodeId, NodeId)>,
    max_connections: usize,
    conns: BTreeMap<ConnKey, Conn>,
    /// Which connection holds each flow index.
    by_flow: BTreeMap<u32, ConnKey>,
    next_extra: u32,
    datagrams: u64,
    clock: u64,
    store: Store,
    stats: FlowMapStats,
    copies_missing: Cell<u64>,
}

fn ecn_of(bits: u8) -> Ecn {
    match bits & 0x03 {
        0 => Ecn::NotEct,
        3 => Ecn::Ce,
        _ => Ecn::Ect,
    }
}

fn ecn_bits(e: Ecn) -> u8 {
    match e {
        Ecn::NotEct => 0,
        Ecn::Ect => 2,
        Ecn::Ce => 3,
    }
}

fn notice_code(n: LlNotice) -> u8 {
    match n {
        LlNotice::None => 0,
        LlNotice::Ersn => 1,
        LlNotice::Eln => 2,
        LlNotice::Ebsn => 3,
    }
}

impl FlowMap {
    /// `hosts`: each end host's address and node; `model_flows`: the
    /// scenario's flows in order, (data sender's node, receiver's node).
    pub fn new(hosts: Vec<([u8; 4], NodeId)>, model_flows: Vec<(NodeId, NodeId)>, limits: StoreLimits) -> FlowMap {
        FlowMap {
            hosts,
            model_flows,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            conns: BTreeMap::new(),
            by_flow: BTreeMap::new(),
            next_extra: 0,
            datagrams: 0,
            clock: 0,
            store: Store::new(limits),
            stats: FlowMapStats::default(),
            copies_missing: Cell::new(0),
        }
    }

    /// Track at most `n` connections at once (at least 1).
    pub fn with_max_connections(mut self, n: usize) -> FlowMap {
        self.max_connections = n.max(1);
        self
    }

    pub fn stats(&self) -> FlowMapStats {
        FlowMapStats { store_evictions: self.store.evictions, copies_missing: self.copies_missing.get(), ..self.stats }
    }

    /// Connections tracked now.
    pub fn connections(&self) -> usize {
        self.conns.len()
    }
    /// Segments stored for `flow`, and bytes stored in all.
    pub fn stored(&self, flow: u32) -> (usize, usize) {
        (self.store.segments(flow), self.store.bytes)
    }

    fn node(&self, a: [u8; 4]) -> Option<NodeId> {
        self.hosts.iter().find(|(h, _)| *h == a).map(|&(_, n)| n)
    }

    /// Map one raw IPv4 packet (module docs); `uid` becomes the packet's.
    pub fn to_model(&mut self, uid: u64, buf: &[u8]) -> Result<Mapped, MapError> {
        let ip = match wire::parse(buf) {
            Ok(ip) => ip,
            Err(e) => {
                self.stats.parse_errors += 1;
                return Err(e.into());
            }
        };
        let (Some(src), Some(dst)) = (self.node(ip.src), self.node(ip.dst)) else {
            self.stats.unknown_hosts += 1;
            let a = if self.node(ip.src).is_none() { ip.src } else { ip.dst };
            return Err(MapError::UnknownHost(a));
        };
        let ecn = ecn_of(ip.ecn);
        let size_bytes = u32::from(ip.total_len);
        let Some(t) = ip.tcp.as_ref() else {
            self.datagrams += 1;
            self.stats.mapped += 1;
            let tcp = TcpHeader { seq: self.datagrams - 1, ..TcpHeader::default() };
            let pkt = Packet { uid, flow: NO_FLOW, kind: PacketKind::Datagram, src, dst, size_bytes, ecn, tcp };
            return Ok(Mapped { pkt, new_connection: false });
        };
        self.clock += 1;
        let from: Endpoint = (ip.src, t.src_port);
        let to: Endpoint = (ip.dst, t.dst_port);
        let key = key_of(from, to);
        let pure_syn = t.syn() && !t.ack_flag();
        let replace = match self.conns.get(&key) {
            None => true,
            Some(c) => pure_syn && (c.closed || c.data != from || c.sides[0].isn != Some(t.seq)),
        };
        if replace {
            self.drop_conn(&key);
            self.open(key, from, src, dst);
        }
        let clock = self.clock;
        let c = self.conns.get_mut(&key).expect("opened above");
        c.last_seen = clock;
        let s = usize::from(c.data != from);
        let o = 1 - s;
        let len = t.payload_len() as u32;
        // Work on a copy: an unacceptable segment changes nothing.
        let mut sides = c.sides;
        let had_isn = [sides[0].isn.is_some(), sides[1].isn.is_some()];
        if t.syn() {
            if sides[s].isn != Some(t.seq) {
                sides[s] = Side { isn: Some(t.seq), ..Side::default() };
            }
            sides[s].wscale = t.options.window_scale;
            sides[s].syn_seen = true;
        }
        // A SYN is the ISN, offset 0 in the model (packet.rs); data rides
        // from the next number on.
        let seq = if t.syn() { 0 } else { sides[s].offset(t.seq) };
        let ack = if t.ack_flag() { sides[o].offset(t.ack) } else { 0 };
        // RFC 5961 Sec. 5.2: SND.UNA - MAX.SND.WND <= SEG.ACK <= SND.NXT,
        // with SND.NXT what the relay saw the other side send (every packet
        // crosses it) and MAX.SND.WND RFC 7323's largest window.
        let ack_ok = !t.ack_flag()
            || !had_isn[o]
            || (ack <= sides[o].high_end + u64::from(sides[o].fin)
                && ack + MAX_WINDOW_BYTES >= sides[o].acked.unwrap_or(0));
        // RFC 9293 Sec. 3.10.7.4's acceptability test, loosened: the
        // segment starts no more than a largest window below RCV.NXT and
        // ends within the receiver's window (the largest one if its scale
        // is unknown) plus 64 KiB of slack (window probes, a shrunk window).
        let seq_ok = t.syn()
            || !had_isn[s]
            || sides[s].acked.is_none_or(|rcv_nxt| {
                let wnd =
                    if sides[0].syn_seen && sides[1].syn_seen { sides[s].peer_wnd_bytes } else { MAX_WINDOW_BYTES };
                seq + MAX_WINDOW_BYTES >= rcv_nxt && seq + u64::from(len) <= rcv_nxt + wnd + (1 << 16)
            });
        if !(ack_ok && seq_ok) {
            self.stats.unacceptable += 1;
            return Err(MapError::Unacceptable { flow: c.flow, seq, ack });
        }
        c.sides = sides;
        let mut sack = SackBlocks::default();
        for &(l, r) in t.options.sack_blocks().iter().take(MAX_SACK_BLOCKS) {
            if let (Some(l), Some(r)) = (c.sides[o].peek(l), c.sides[o].peek(r)) {
                if l < r {
                    sack.push(l, r);
                }
            }
        }
        let shift = if t.syn() { 0 } else { c.shift(s) };
        let wnd_bytes = u32::from(t.window) << shift;
        if t.ack_flag() {
            let peer = &mut c.sides[o];
            peer.acked = Some(peer.acked.map_or(ack, |a| a.max(ack)));
            peer.peer_wnd_bytes = u64::from(wnd_bytes);
        }
        let is_retransmit = len > 0 && seq < c.sides[s].high_end;
        c.sides[s].high_end = c.sides[s].high_end.max(seq + u64::from(len));
        if t.fin() {
            c.sides[s].fin = true;
        }
        if t.rst() || (c.sides[0].fin && c.sides[1].fin) {
            c.closed = true;
        }
        let flow = c.flow;
        if s == 1 && len == 0 && t.ack_flag() && !t.syn() && !t.fin() && !t.rst() {
            let tpl = c.template.get_or_insert_with(Vec::new);
            tpl.clear();
            tpl.extend_from_slice(ip.bytes);
        }
        let tcp = TcpHeader {
            seq,
            len,
            ack,
            wnd_bytes,
            sack,
            smart_echo: None,
            eln: t.eln(),
            is_retransmit,
            ece: t.ece(),
            cwr: t.cwr(),
            fr_request: false,
            sender_window: None,
            ts: t.options.timestamps.map(|(v, e)| Timestamps { val_ns: u64::from(v), ecr_ns: u64::from(e) }),
            syn: t.syn(),
            fin: t.fin(),
            ll_notice: LlNotice::None,
            rate_bytes_per_s: 0, // not on the wire (no live WTCP)
        };
        let kind = if s == 0 { PacketKind::Data } else { PacketKind::Ack };
        if s == 0 && len > 0 {
            self.store.insert(flow, seq, len, ip.bytes);
        }
        self.stats.mapped += 1;
        let pkt = Packet { uid, flow, kind, src, dst, size_bytes, ecn, tcp };
        Ok(Mapped { pkt, new_connection: replace })
    }

    /// Open a connection on `key` initiated by `from` (node `a`) toward node `b`.
    fn open(&mut self, key: ConnKey, from: Endpoint, a: NodeId, b: NodeId) {
        while self.conns.len() >= self.max_connections {
            // Closed ones first, then the least recently seen.
            let Some(victim) = self.conns.iter().min_by_key(|(_, c)| (!c.closed, c.last_seen)).map(|(k, _)| *k) else {
                break;
            };
            self.drop_conn(&victim);
        }
        let free = |i: &usize| {
            self.model_flows.get(*i) == Some(&(a, b))
                && self.by_flow.get(&(*i as u32)).and_then(|k| self.conns.get(k)).is_none_or(|c| c.closed)
        };
        let flow = match (0..self.model_flows.len()).find(free) {
            Some(i) => {
                let flow = i as u32;
                if let Some(old) = self.by_flow.get(&flow).copied() {
                    self.drop_conn(&old);
                }
                flow
            }
            None => {
                self.next_extra += 1;
                (self.model_flows.len() as u32).saturating_add(self.next_extra - 1)
            }
        };
        self.by_flow.insert(flow, key);
        self.conns.insert(
            key,
            Conn {
                flow,
                data: from,
                sides: [Side::default(); 2],
                closed: false,
                last_seen: self.clock,
                template: None,
            },
        );
        self.stats.connections_opened += 1;
    }

    fn drop_conn(&mut self, key: &ConnKey) {
        if let Some(c) = self.conns.remove(key) {
            if self.by_flow.get(&c.flow) == Some(key) {
                self.by_flow.remove(&c.flow);
            }
            self.store.drop_flow(c.flow);
            self.stats.connections_evicted += 1;
        }
    }

    /// An ack of `flow` up to `ack` reached the data's source, past every
    /// agent on its way: the stored segments below it are no longer any
    /// agent's to copy. (Freed here, not as the ack enters the network: an
    /// agent may still resend a segment whose ack is on its way to it, as
    /// the simulator's snoop does from its own cache.)
    pub fn acked(&mut self, flow: u32, ack: u64) {
        self.store.free_below(flow, ack);
    }

    /// The stored bytes of the data segment `pkt` copies (same flow, offset
    /// and length): what an agent's local retransmission sends.
    pub fn wire_for_agent_copy(&self, pkt: &Packet) -> Option<Vec<u8>> {
        match self.store.get(pkt.flow, pkt.tcp.seq) {
            Some(seg) if seg.len == pkt.tcp.len => Some(seg.bytes.clone()),
            _ => {
                self.copies_missing.set(self.copies_missing.get() + 1);
                None
            }
        }
    }

    /// The connection's latest pure ack from its receiver, if any.
    pub fn ack_template(&self, flow: u32) -> Option<&[u8]> {
        self.by_flow.get(&flow).and_then(|k| self.conns.get(k)).and_then(|c| c.template.as_deref())
    }

    /// `original` (a packet of `pkt`'s connection, or its ack template)
    /// with the model's fields written back: the ack number (mapped to 32
    /// bits in the acknowledged side's space), the window (shifted back by
    /// the sender's scale, at most 65535; left as it is on an LL notice,
    /// which is no window update), ECE, CWR, the ELN bit, the LL-ELSN code,
    /// the IP ECN field when the model changed it (so ECT(1) survives), the
    /// SACK blocks when they differ (options rebuilt, `wire::with_sack_blocks`)
    /// and the timestamps when the model has them (raw values, module docs;
    /// when it has none the original's option stays, since RFC 7323 Sec.
    /// 3.2 lets a receiver drop a segment without one). The sequence number
    /// and payload stay the original's. Checksums are fixed.
    pub fn rewrite(&self, original: &[u8], pkt: &Packet) -> Result<Vec<u8>, MapError> {
        let ip = wire::parse(original)?;
        let ecn = (ecn_of(ip.ecn) != pkt.ecn).then_some(ecn_bits(pkt.ecn));
        let Some(t) = ip.tcp.as_ref() else {
            let mut out = ip.bytes.to_vec();
            wire::apply(&mut out, &Edit { ecn, ..Edit::default() })?;
            return Ok(out);
        };
        let key = key_of((ip.src, t.src_port), (ip.dst, t.dst_port));
        let c = self.conns.get(&key).ok_or(MapError::UnknownFlow(pkt.flow))?;
        let s = usize::from(c.data != (ip.src, t.src_port));
        let o = 1 - s;
        let other = &c.sides[o];
        let want: Vec<(u32, u32)> =
            pkt.tcp.sack.as_slice().iter().filter_map(|&(l, r)| Some((other.wire(l)?, other.wire(r)?))).collect();
        let have = t.options.sack_blocks();
        let mut out = if want.as_slice() != have.get(..have.len().min(MAX_SACK_BLOCKS)).unwrap_or(&[]) {
            wire::with_sack_blocks(ip.bytes, &want)?
        } else {
            ip.bytes.to_vec()
        };
        let window = if pkt.tcp.ll_notice != LlNotice::None {
            None
        } else {
            let shift = if t.syn() { 0 } else { c.shift(s) };
            Some((pkt.tcp.wnd_bytes >> shift).min(u32::from(u16::MAX)) as u16)
        };
        let edit = Edit {
            ecn,
            ack: if t.ack_flag() { other.wire(pkt.tcp.ack) } else { None },
            window,
            ece: Some(pkt.tcp.ece),
            cwr: Some(pkt.tcp.cwr),
            eln: Some(pkt.tcp.eln),
            ll_notice: Some(notice_code(pkt.tcp.ll_notice)),
            timestamps: pkt.tcp.ts.map(|ts| (ts.val_ns as u32, ts.ecr_ns as u32)),
        };
        wire::apply(&mut out, &edit)?;
        Ok(out)
    }

    /// The bytes to send for a packet leaving an agent or passing it:
    /// `original` is the packet's own bytes when it arrived from the wire
    /// (a forwarded or released packet), `None` for one the agent made. A
    /// data segment with payload and no original is a copy from the store;
    /// anything else is [`Self::rewrite`] of its original or, without one,
    /// of its connection's ack template.
    pub fn wire_for_output(&self, pkt: &Packet, original: Option<&[u8]>) -> Result<Vec<u8>, MapError> {
        if let Some(orig) = original {
            return self.rewrite(orig, pkt);
        }
        if pkt.kind == PacketKind::Data && pkt.tcp.len > 0 {
            return self.wire_for_agent_copy(pkt).ok_or(MapError::CopyMissing {
                flow: pkt.flow,
                seq: pkt.tcp.seq,
                len: pkt.tcp.len,
            });
        }
        let tpl = self.ack_template(pkt.flow).ok_or(MapError::NoTemplate(pkt.flow))?;
        self.rewrite(tpl, pkt)
    }
}

#[cfg(test)]
mod tests {
    //! Timelines between host A (10.0.0.1, node 0, the sender) and host B
    //! (10.0.0.2, node 1), on model flow 0 = (0, 1).
    use super::*;
    use crate::wire::tests::reference_ok;
    use crate::wire::{build, flags, Segment};

    const A: [u8; 4] = [10, 0, 0, 1];
    const B: [u8; 4] = [10, 0, 0, 2];
    const ISN_A: u32 = 0xffff_f000; // wraps 4 KiB into the transfer
    const ISN_B: u32 = 77;

    fn map(limits: StoreLimits) -> FlowMap {
        FlowMap::new(vec![(A, 0), (B, 1), ([10, 0, 0, 3], 2)], vec![(0, 1), (1, 0), (0, 1)], limits)
    }

    /// A segment A -> B (`from_a`) or B -> A.
    fn seg(from_a: bool, seq: u32, ack: u32, fl: u8, opts: &[u8], payload: &[u8]) -> Vec<u8> {
        let (src, dst, sp, dp) = if from_a { (A, B, 40000, 5001) } else { (B, A, 5001, 40000) };
        build(&Segment {
            src,
            dst,
            src_port: sp,
            dst_port: dp,
            seq,
            ack,
            flags: fl,
            window: 1000,
            ecn: 2,
            options: opts,
            payload,
        })
    }

    fn handshake(m: &mut FlowMap) -> (Mapped, Mapped, Mapped) {
        // SYN and SYN-ACK with window scale 7 (A) and 3 (B), timestamps.
        let syn =
            seg(true, ISN_A, 0, flags::SYN, &[2, 4, 5, 0xb4, 4, 2, 8, 10, 0, 0, 0, 9, 0, 0, 0, 0, 1, 3, 3, 7], &[]);
        let synack = seg(false, ISN_B, ISN_A.wrapping_add(1), flags::SYN | flags::ACK, &[1, 3, 3, 3], &[]);
        let ack = seg(true, ISN_A.wrapping_add(1), ISN_B + 1, flags::ACK, &[], &[]);
        (m.to_model(1, &syn).unwrap(), m.to_model(2, &synack).unwrap(), m.to_model(3, &ack).unwrap())
    }

    #[test]
    fn a_handshake_and_data_map_to_the_models_offsets() {
        let mut m = map(StoreLimits::default());
        let (syn, synack, ack) = handshake(&mut m);
        // t0: the SYN opens flow 0 and is offset 0 with `syn`.
        assert!(syn.new_connection && !synack.new_connection && !ack.new_connection);
        let p = syn.pkt;
        assert_eq!(
            (p.flow, p.kind, p.src, p.dst, p.tcp.seq, p.tcp.syn, p.size_bytes),
            (0, PacketKind::Data, 0, 1, 0, true, 60)
        );
        assert_eq!((p.ecn, p.tcp.ts), (Ecn::Ect, Some(Timestamps { val_ns: 9, ecr_ns: 0 })));
        assert_eq!(p.tcp.wnd_bytes, 1000, "a SYN's window is never scaled");
        // t1: the SYN-ACK acks 0; t2: A's ack is in B's space, offset 0.
        let p = synack.pkt;
        assert_eq!((p.kind, p.tcp.syn, p.tcp.seq, p.tcp.ack, p.tcp.wnd_bytes), (PacketKind::Ack, true, 0, 0, 1000));
        assert_eq!((ack.pkt.kind, ack.pkt.tcp.seq, ack.pkt.tcp.ack), (PacketKind::Data, 0, 0));
        assert_eq!(ack.pkt.tcp.wnd_bytes, 1000 << 7, "A's windows scale by A's shift");
        // t3: data across the 2^32 wrap of A's numbers: bytes 0..3000,
        // 3000..6000 (wire numbers wrap in the second segment's range).
        let payload = [0x5a; 3000];
        let d0 = seg(true, ISN_A.wrapping_add(1), ISN_B + 1, flags::ACK, &[], &payload);
        let d1 = seg(true, ISN_A.wrapping_add(3001), ISN_B + 1, flags::ACK, &[], &payload);
        let d2 = seg(true, ISN_A.wrapping_add(6001), ISN_B + 1, flags::ACK | flags::PSH, &[], &payload);
        let m0 = m.to_model(4, &d0).unwrap().pkt;
        let m1 = m.to_model(5, &d1).unwrap().pkt;
        let m2 = m.to_model(6, &d2).unwrap().pkt;
        assert_eq!((m0.tcp.seq, m0.tcp.len, m0.size_bytes), (0, 3000, 3040));
        assert_eq!((m1.tcp.seq, m2.tcp.seq), (3000, 6000));
        assert!(ISN_A.wrapping_add(6001) < ISN_A, "the third is past the wrap on the wire");
        // t4: B acks 3000 with a SACK block 6000..9000 (segment 1 lost).
        let sack = [1, 1, 5, 10]
            .iter()
            .copied()
            .chain(ISN_A.wrapping_add(6001).to_be_bytes())
            .chain(ISN_A.wrapping_add(9001).to_be_bytes())
            .collect::<Vec<u8>>();
        let a1 = m.to_model(7, &seg(false, ISN_B + 1, ISN_A.wrapping_add(3001), flags::ACK, &sack, &[])).unwrap().pkt;
        assert_eq!((a1.kind, a1.tcp.ack, a1.tcp.sack.as_slice()), (PacketKind::Ack, 3000, &[(6000, 9000)][..]));
        assert_eq!(a1.tcp.wnd_bytes, 1000 << 3, "B's windows scale by B's shift");
        // The store frees segment 0 when the ack reaches A, and holds the rest.
        assert_eq!(m.stored(0).0, 3);
        m.acked(a1.flow, a1.tcp.ack);
        assert_eq!(m.stored(0).0, 2);
        // t5: A retransmits segment 1: same offset, marked a retransmission.
        let r = m.to_model(8, &d1).unwrap().pkt;
        assert_eq!((r.tcp.seq, r.tcp.is_retransmit, m0.tcp.is_retransmit), (3000, true, false));
        // An agent's copy of segment 1 is the exact wire bytes.
        assert_eq!(m.wire_for_agent_copy(&m1).unwrap(), d1);
        assert!(m.wire_for_agent_copy(&Packet { tcp: TcpHeader { len: 1, ..m1.tcp }, ..m1 }).is_none());
        assert!(m.wire_for_agent_copy(&m0).is_none(), "acked and freed");
        assert_eq!(m.stats().copies_missing, 2);
        // t6: FIN from A after 9000 bytes, acked by B with 9001.
        let fin =
            m.to_model(9, &seg(true, ISN_A.wrapping_add(9001), ISN_B + 1, flags::ACK | flags::FIN, &[], &[])).unwrap();
        assert_eq!((fin.pkt.tcp.seq, fin.pkt.tcp.fin), (9000, true));
        let fa = m.to_model(10, &seg(false, ISN_B + 1, ISN_A.wrapping_add(9002), flags::ACK, &[], &[])).unwrap();
        assert_eq!(fa.pkt.tcp.ack, 9001);
        m.acked(fa.pkt.flow, fa.pkt.tcp.ack);
        assert_eq!(m.stored(0).0, 0, "everything acked is freed");
        assert_eq!(m.stats().mapped, 10);
    }

    #[test]
    fn sequence_numbers_keep_counting_across_many_wraps() {
        let mut m = map(StoreLimits { per_flow_segments: 4, total_bytes: 1 << 20 });
        // Both ends scale by 14, and B opens a window of 65535 << 14 (1 GiB).
        let ws = [1, 3, 3, 14];
        let big = |mut b: Vec<u8>| {
            crate::wire::set_window(&mut b, 65535).unwrap();
            b
        };
        m.to_model(0, &seg(true, ISN_A, 0, flags::SYN, &ws, &[])).unwrap();
        m.to_model(0, &big(seg(false, ISN_B, ISN_A.wrapping_add(1), flags::SYN | flags::ACK, &ws, &[]))).unwrap();
        let payload = [1u8; 1000];
        let mut off: u64 = 0;
        // Steps of 0.75 GiB (within the window, and under the 2 GiB an
        // unwrap can tell) pass 2^32 twice.
        for _ in 0..12 {
            let wire = ISN_A.wrapping_add(1).wrapping_add(off as u32);
            let p = m.to_model(1, &seg(true, wire, ISN_B + 1, flags::ACK, &[], &payload)).unwrap().pkt;
            assert_eq!(p.tcp.seq, off);
            let ack = big(seg(false, ISN_B + 1, wire.wrapping_add(1000), flags::ACK, &[], &[]));
            let a = m.to_model(2, &ack).unwrap().pkt;
            assert_eq!((a.tcp.ack, a.tcp.wnd_bytes), (off + 1000, 65535 << 14));
            off += 3 << 28;
        }
        assert!(off > 2 * (1u64 << 32));
    }

    #[test]
    fn segments_no_receiver_would_accept_are_refused_and_change_nothing() {
        let mut m = map(StoreLimits::default());
        handshake(&mut m);
        let payload = [2u8; 1000];
        m.to_model(0, &seg(true, ISN_A.wrapping_add(1), ISN_B + 1, flags::ACK, &[], &payload)).unwrap();
        // B acks data A never sent (a flipped bit in the ack field).
        let forged = seg(false, ISN_B + 1, ISN_A.wrapping_add(1 + (1 << 24)), flags::ACK, &[], &[]);
        assert!(matches!(m.to_model(0, &forged), Err(MapError::Unacceptable { flow: 0, .. })));
        // Data far beyond B's window (8000 bytes).
        let far = seg(true, ISN_A.wrapping_add(1 + (1 << 20)), ISN_B + 1, flags::ACK, &[], &payload);
        m.to_model(0, &seg(false, ISN_B + 1, ISN_A.wrapping_add(1001), flags::ACK, &[], &[])).unwrap();
        assert!(matches!(m.to_model(0, &far), Err(MapError::Unacceptable { .. })));
        assert_eq!(m.stats().unacceptable, 2);
        // Nothing moved: the next real segment maps where it belongs.
        let next = m.to_model(0, &seg(true, ISN_A.wrapping_add(1001), ISN_B + 1, flags::ACK, &[], &payload)).unwrap();
        assert_eq!((next.pkt.tcp.seq, next.pkt.tcp.is_retransmit), (1000, false));
        // Within the window plus slack is fine.
        let ok = seg(true, ISN_A.wrapping_add(1 + 8000 + 60_000), ISN_B + 1, flags::ACK, &[], &payload);
        assert_eq!(m.to_model(0, &ok).unwrap().pkt.tcp.seq, 68_000);
    }

    #[test]
    fn a_connection_picked_up_mid_stream_starts_at_offset_0() {
        let mut m = map(StoreLimits::default());
        // First seen: B's ack (B is then the initiator, flow (1, 0) = 1).
        let a = m.to_model(1, &seg(false, 5000, 123_456, flags::ACK, &[], &[])).unwrap();
        assert!(a.new_connection);
        assert_eq!((a.pkt.flow, a.pkt.kind, a.pkt.tcp.seq, a.pkt.tcp.ack), (1, PacketKind::Data, 0, 0));
        // A's data at the number B acked is offset 0 of A's space.
        let d = m.to_model(2, &seg(true, 123_456, 5000, flags::ACK, &[], &[7; 100])).unwrap().pkt;
        assert_eq!((d.kind, d.tcp.seq, d.tcp.len, d.tcp.ack), (PacketKind::Ack, 0, 100, 0));
        assert_eq!(d.tcp.wnd_bytes, 1000, "no SYN seen: unscaled");
        // Before the start: 0, not 4 GB ahead.
        let early = m.to_model(3, &seg(true, 123_000, 5000, flags::ACK, &[], &[])).unwrap().pkt;
        assert_eq!(early.tcp.seq, 0);
    }

    #[test]
    fn connections_bind_model_flows_in_order_then_extra_indices() {
        let mut m = map(StoreLimits::default());
        let open = |m: &mut FlowMap, port: u16| {
            let s = build(&Segment {
                src: A,
                dst: B,
                src_port: port,
                dst_port: 80,
                seq: 1,
                flags: flags::SYN,
                ..Segment::default()
            });
            m.to_model(0, &s).unwrap().pkt.flow
        };
        // Model flows (0,1) at 0 and 2; (1,0) at 1; then extras 3, 4.
        assert_eq!([open(&mut m, 1), open(&mut m, 2), open(&mut m, 3), open(&mut m, 4)], [0, 2, 3, 4]);
        // An RST closes port 1's connection; a new one takes flow 0 back.
        let rst = build(&Segment {
            src: B,
            dst: A,
            src_port: 80,
            dst_port: 1,
            seq: 0,
            flags: flags::RST,
            ..Segment::default()
        });
        m.to_model(0, &rst).unwrap();
        assert_eq!(open(&mut m, 5), 0);
        // Unknown hosts and garbage are errors, counted.
        let stranger = build(&Segment { src: [9, 9, 9, 9], dst: B, ..Segment::default() });
        assert_eq!(m.to_model(0, &stranger), Err(MapError::UnknownHost([9, 9, 9, 9])));
        assert!(matches!(m.to_model(0, &[0x45, 0]), Err(MapError::Wire(_))));
        let st = m.stats();
        assert_eq!((st.unknown_hosts, st.parse_errors, st.connections_opened), (1, 1, 5));
    }

    #[test]
    fn a_new_syn_on_a_known_four_tuple_starts_a_new_connection() {
        let mut m = map(StoreLimits::default());
        handshake(&mut m);
        m.to_model(0, &seg(true, ISN_A.wrapping_add(1), ISN_B + 1, flags::ACK, &[], &[1; 500])).unwrap();
        assert_eq!(m.stored(0).0, 1);
        // The same SYN again is a retransmission of it.
        let again = seg(true, ISN_A, 0, flags::SYN, &[], &[]);
        assert!(!m.to_model(0, &again).unwrap().new_connection);
        // A SYN with another ISN: the old connection is gone (its store
        // too), the new one takes flow 0 and starts at 0.
        let fresh = m.to_model(0, &seg(true, 5, 0, flags::SYN, &[], &[])).unwrap();
        assert!(fresh.new_connection);
        assert_eq!((fresh.pkt.flow, fresh.pkt.tcp.seq, m.stored(0).0), (0, 0, 0));
        let d = m.to_model(0, &seg(true, 6, 0, 0, &[], &[1; 10])).unwrap().pkt;
        assert_eq!((d.tcp.seq, d.tcp.len), (0, 10));
        assert_eq!(m.stats().connections_evicted, 1);
    }

    #[test]
    fn a_notice_keeps_its_templates_window_and_carries_its_code() {
        let mut m = map(StoreLimits::default());
        handshake(&mut m);
        m.to_model(0, &seg(false, ISN_B + 1, ISN_A.wrapping_add(1), flags::ACK, &[], &[])).unwrap();
        // An EBSN (bad_state.rs): an ack-format notice with window 0 in the model.
        let p = Packet {
            uid: 0,
            flow: 0,
            kind: PacketKind::Ack,
            src: 1,
            dst: 0,
            size_bytes: 40,
            ecn: Ecn::NotEct,
            tcp: TcpHeader { ack: 0, ll_notice: LlNotice::Ebsn, ..TcpHeader::default() },
        };
        let out = m.wire_for_output(&p, None).unwrap();
        let t = wire::parse(&out).unwrap().tcp.unwrap();
        assert_eq!((t.window, t.reserved & wire::LL_NOTICE_MASK, t.ack), (1000, 0x06, ISN_A.wrapping_add(1)));
        assert!(reference_ok(&out));
    }

    #[test]
    fn connection_state_is_capped() {
        let mut m = map(StoreLimits::default()).with_max_connections(8);
        for port in 0..100u16 {
            let s = build(&Segment {
                src: A,
                dst: B,
                src_port: port,
                dst_port: 80,
                seq: 9,
                flags: flags::SYN,
                ..Segment::default()
            });
            m.to_model(0, &s).unwrap();
            assert!(m.connections() <= 8);
        }
        assert_eq!(m.stats().connections_evicted, 92);
    }

    #[test]
    fn non_tcp_datagrams_are_datagrams_of_no_flow() {
        let mut m = map(StoreLimits::default());
        let mut udp = seg(true, 1, 1, 0, &[], &[0; 8]);
        udp[9] = 17;
        crate::wire::fix_checksums(&mut udp).unwrap();
        let p = m.to_model(5, &udp).unwrap().pkt;
        assert_eq!((p.kind, p.flow, p.tcp.seq, p.uid), (PacketKind::Datagram, NO_FLOW, 0, 5));
    }

    #[test]
    fn the_store_is_bounded_per_flow_and_in_total() {
        let mut m = map(StoreLimits { per_flow_segments: 10, total_bytes: 15 * 1040 });
        handshake(&mut m);
        let payload = [3u8; 1000];
        for k in 0..50u32 {
            m.to_model(0, &seg(true, ISN_A.wrapping_add(1 + 1000 * k), ISN_B + 1, flags::ACK, &[], &payload)).unwrap();
            assert!(m.stored(0).0 <= 10);
        }
        assert_eq!(m.stats().store_evictions, 40, "per flow");
        // The newest ten are kept.
        let p = Packet {
            uid: 0,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 1,
            size_bytes: 1040,
            ecn: Ecn::Ect,
            tcp: TcpHeader { seq: 49_000, len: 1000, ..TcpHeader::default() },
        };
        assert!(m.wire_for_agent_copy(&p).is_some());
        assert!(m.wire_for_agent_copy(&Packet { tcp: TcpHeader { seq: 39_000, ..p.tcp }, ..p }).is_none());
        // A second connection (flow 2) fills the total: 15 segments in all,
        // the oldest (flow 0's) evicted first.
        let conn2 = |seq: u32, pl: &[u8]| {
            build(&Segment {
                src: A,
                dst: B,
                src_port: 41000,
                dst_port: 5001,
                seq,
                flags: flags::ACK,
                options: &[],
                payload: pl,
                ..Segment::default()
            })
        };
        m.to_model(0, &conn2(1, &[])).unwrap();
        for k in 0..20u32 {
            m.to_model(0, &conn2(1 + 1000 * k, &payload)).unwrap();
            assert!(m.stored(0).1 <= 15 * 1040);
        }
        assert_eq!((m.stored(2).0, m.stored(0).0, m.stored(0).1), (10, 5, 15 * 1040));
        assert!(m.wire_for_agent_copy(&Packet { tcp: TcpHeader { seq: 44_000, ..p.tcp }, ..p }).is_none());
        assert!(m.wire_for_agent_copy(&Packet { tcp: TcpHeader { seq: 45_000, ..p.tcp }, ..p }).is_some());
    }

    #[test]
    fn rewritten_acks_carry_the_models_fields_with_valid_checksums() {
        let mut m = map(StoreLimits::default());
        handshake(&mut m);
        let payload = [9u8; 1000];
        for k in 0..4u32 {
            m.to_model(0, &seg(true, ISN_A.wrapping_add(1 + 1000 * k), ISN_B + 1, flags::ACK, &[], &payload)).unwrap();
        }
        let ts = [1, 1, 8, 10, 0, 0, 1, 0, 0, 0, 0, 9];
        let orig = seg(false, ISN_B + 1, ISN_A.wrapping_add(1001), flags::ACK, &ts, &[]);
        let mut p = m.to_model(0, &orig).unwrap().pkt;
        assert_eq!(p.tcp.ack, 1000);
        m.acked(p.flow, p.tcp.ack);
        // Unchanged: the same bytes come back.
        assert_eq!(m.rewrite(&orig, &p).unwrap(), orig);
        // An agent marks it (ELN, ECE), and a reconstructor moves its ack.
        p.tcp.eln = true;
        p.tcp.ece = true;
        p.tcp.ack = 3000;
        p.tcp.sack.push(3500, 4000);
        let out = m.rewrite(&orig, &p).unwrap();
        assert!(reference_ok(&out));
        let t = wire::parse(&out).unwrap().tcp.unwrap();
        assert!(t.eln() && t.ece() && !t.cwr());
        assert_eq!(t.ack, ISN_A.wrapping_add(3001));
        assert_eq!(t.options.sack_blocks(), &[(ISN_A.wrapping_add(3501), ISN_A.wrapping_add(4001))]);
        assert_eq!(t.options.timestamps, Some((256, 9)), "timestamps kept");
        assert_eq!(t.window, 1000);
        // Mapped back, the rewrite reads as the model packet it came from.
        let again = m.to_model(0, &out).unwrap().pkt;
        assert_eq!((again.tcp.ack, again.tcp.eln, again.tcp.ece, again.tcp.sack), (3000, true, true, p.tcp.sack));
        // An ack the agent made from nothing uses the template (the latest pure ack).
        let made = Packet { tcp: TcpHeader { ack: 2000, ..TcpHeader::default() }, ..p };
        let out = m.wire_for_output(&made, None).unwrap();
        assert!(reference_ok(&out));
        assert_eq!(wire::parse(&out).unwrap().tcp.unwrap().ack, ISN_A.wrapping_add(2001));
        // A copy of data comes from the store; a missing one is an error.
        let data =
            Packet { kind: PacketKind::Data, tcp: TcpHeader { seq: 3000, len: 1000, ..TcpHeader::default() }, ..p };
        assert_eq!(m.wire_for_output(&data, None).unwrap().len(), 1040);
        let gone = Packet { tcp: TcpHeader { seq: 0, ..data.tcp }, ..data };
        assert_eq!(m.wire_for_output(&gone, None), Err(MapError::CopyMissing { flow: 0, seq: 0, len: 1000 }));
        // A CE mark the model put on a data segment reaches the IP header.
        let orig_data = seg(true, ISN_A.wrapping_add(3001), ISN_B + 1, flags::ACK, &[], &payload);
        let mut dp = m.to_model(0, &orig_data).unwrap().pkt;
        dp.ecn = Ecn::Ce;
        let out = m.rewrite(&orig_data, &dp).unwrap();
        assert_eq!(wire::parse(&out).unwrap().ecn, 3);
        assert!(reference_ok(&out));
    }
}
