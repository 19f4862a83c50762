//! pcap export: what crossed a link direction, as a libpcap file that
//! Wireshark, tshark and tcptrace read.
//!
//! A frame is captured when its transmission starts on a captured link
//! direction, as tcpdump on the sending interface would see it: frames the
//! error model corrupts are in the file (they crossed the medium; the
//! receiver dropped them), frames a full queue dropped are not. Without a
//! direction, both directions of the link go into one file in time order.
//!
//! The file is libpcap 2.4 with nanosecond timestamps (magic 0xa1b23c4d,
//! written little-endian), link type Ethernet (1) and a snap length of 128
//! bytes unless set (headers and the start of the payload). Timestamps are
//! simulated time counted from the Unix epoch.
//!
//! What the model leaves out is filled in deterministically:
//! - Addresses: node i (in scenario order) is 10.0.0.(i+1) (generally the
//!   (i+1)-th address of 10.0.0.0/8), with the locally administered MAC
//!   02:00 followed by its IPv4 address (02:00:0a:00:00:01 for node 0). A
//!   frame carries the MACs of the link's two ends and the IP addresses of
//!   the flow's hosts, as on a routed path.
//! - Ports: flow f's sender uses port 20000+f, its receiver port 5001.
//! - Sequence numbers: each side of flow f has a fixed initial sequence
//!   number, the low 32 bits of SplitMix64(2f) for the sender and of
//!   SplitMix64(2f+1) for the receiver. Byte offset o of the flow (the
//!   model's 64-bit sequence numbers) is the wire value (ISN + 1 + o) mod 2^32,
//!   numbered from the byte after the SYN as a real stack numbers it; acks,
//!   SACK edges and the SMART echo are mapped the same way. The receiver
//!   sends no data, so its sequence number is always its ISN+1, which every
//!   data segment acknowledges.
//! - Flags: every segment but a SYN has ACK, and ECE and CWR when the model
//!   sets them (RFC 3168 Sec. 6.1). SYN and FIN appear only on flows with a
//!   handshake (`tcp.handshake`): the sender's SYN (sequence number its ISN,
//!   no ACK, acknowledgment number 0), the receiver's SYN-ACK (its ISN,
//!   acknowledging the sender's ISN+1), and FIN on the segment that carries
//!   a transfer's last byte (its ack is the FIN's wire number + 1, mapped
//!   as any ack). Other flows start established, which tshark and tcptrace
//!   accept.
//! - ECN: the IP header's ECN field is the packet's (Not-ECT, ECT(0) or CE).
//! - Window (RFC 7323 Sec. 2): each end requests the window-scale shift its
//!   socket buffer needs (4.4BSD's `request_r_scale`, the smallest shift
//!   with `65535 << shift` at least the buffer; `lasthop_tcp::window_scale`)
//!   in the window-scale option (kind 3) of its SYN or SYN-ACK, whose
//!   window field is unscaled; every later segment's field is its window
//!   shifted right by the sender's shift, at most 65535. An ack advertises
//!   the model's window; a data segment its sender's socket buffer (the
//!   model's sender receives no data and advertises no window; a zero would
//!   read as a closed one). A flow without a handshake whose buffers need a
//!   shift gets the opening the model skips, written once in each capture
//!   before its first frame there, at that frame's time: the SYN and the
//!   SYN-ACK with their window-scale options, so that a reader scales the
//!   windows that follow as the run had them (issue 29: a 1 MB window read
//!   as 65535). Those two are the only records no frame of the run made.
//! - IP: TTL 64 at every hop (the model's forwarding nodes do not decrement
//!   it), DF set, identification the low 16 bits of the packet's creation
//!   number in the run: increasing per source node, the same on every link
//!   the packet crosses, and new for a retransmission.
//! - Lengths: IP total length = 20 + TCP header + payload; the payload is
//!   zeros. Checksums (the IP header's; TCP's over the pseudo-header, the
//!   header and the whole zero payload) are those a real host computes. A
//!   record's original length is the whole frame, its captured length at
//!   most the snap length. The frame length is the encoded one, not the
//!   `header_bytes`/`ack_bytes` the model times transmissions with.
//! - Options, each after NOPs up to a 4-byte boundary: SACK (kind 5, RFC
//!   2018), most recent block first; the SMART echo (seed 000 Sec. II) and
//!   the ELN mark (seed 000 Sec. III-A) as RFC 6994 experimental options:
//!   kind 253, ExID 0x4C48 ("LH"), then a subtype byte: 'S' (0x53) and the
//!   32-bit wire sequence number of the segment that caused the ack (length
//!   9), or 'E' (0x45) alone (length 5); seed 001's sender-window option
//!   (Sec. 8.2: min(cwnd, buffered data) in MSS units) as subtype 'W' (0x57)
//!   and the 16-bit value (length 7), and its fast-retransmit request mark
//!   (Sec. 6.3) as subtype 'F' (0x46) alone (length 5). The timestamp option
//!   (kind 8, RFC 7323) carries TSval and TSecr as microseconds of simulated
//!   time modulo 2^32 (seed 001 Sec. 8.3's sender puts "the current time in
//!   microseconds" in it). When all would exceed the 40 bytes of option
//!   space, the oldest SACK blocks are left out (RFC 2018 Sec. 3: as many
//!   blocks as fit).
//! - LL-ELSN notices (seed 004 Sec. 3.1: "the same format as TCP ACK", the
//!   type in two reserved bits of the TCP header): ack-format segments from
//!   the receiver's address and port to the sender's, whose acknowledgment
//!   number is the wire number of the segment named, with the type in the
//!   two lower reserved bits of the header's 13th byte (mask 0x06, beside
//!   the data offset; the lowest bit, once NS, is left alone): 01 (0x02) an
//!   ERSN, 10 (0x04) an ELN (yun-004.md ambiguity 11). The checksum covers
//!   them. Their advertised window is 0: a notice is no window update.
//!
//! The file framing (a 24-byte header, a 16-byte header per record) is
//! written here rather than with a pcap crate: it is fixed by the format,
//! takes a dozen lines, and writing into a plain `Vec<u8>` keeps capture
//! free of I/O, as every model in lasthop is. The headers and checksums are
//! built with `etherparse`.

use crate::scenario::{Model, ScenarioError};
use etherparse::{EtherType, Ethernet2Header, IpEcn, IpNumber, Ipv4Header, TcpHeader as WireTcp, UdpHeader};
use lasthop_core::time::NS_PER_S;
use lasthop_core::{Ecn, LlNotice, NodeId, Packet, PacketKind, TcpHeader, Time, Timestamps};
use lasthop_tcp::window_scale::shift_for;

/// Snap length when none is given, in bytes: Ethernet, IPv4 and TCP headers
/// with options (at most 94 bytes) and the start of the payload.
pub const DEFAULT_SNAPLEN: u32 = 128;
/// Largest snap length accepted, in bytes (libpcap's MAXIMUM_SNAPLEN).
pub const MAX_SNAPLEN: u32 = 262_144;
/// The RFC 6994 experiment identifier of lasthop's options ("LH").
pub const EXID: u16 = 0x4C48;
/// Subtype byte of the SMART echo option, after the ExID.
pub const SUBTYPE_SMART_ECHO: u8 = b'S';
/// Subtype byte of the ELN option, after the ExID.
pub const SUBTYPE_ELN: u8 = b'E';
/// Subtype byte of the sender-window option (seed 001 Sec. 8.2).
pub const SUBTYPE_SENDER_WINDOW: u8 = b'W';
/// Subtype byte of the fast-retransmit request mark (seed 001 Sec. 6.3).
pub const SUBTYPE_FR_REQUEST: u8 = b'F';
/// Port of every flow's receiver.
pub const RECEIVER_PORT: u16 = 5001;
/// Flow f's sender uses this port plus f.
pub const SENDER_PORT_BASE: u16 = 20_000;
/// TTL of every captured datagram.
pub const TTL: u8 = 64;

const MAGIC_NS: u32 = 0xa1b2_3c4d;
const LINKTYPE_ETHERNET: u32 = 1;
const ETH_LEN: usize = 14;
const IP_LEN: usize = 20;
const TCP_MIN_LEN: usize = 20;
const MAX_OPTIONS_LEN: usize = 40;
/// Largest segment payload that fits an IPv4 datagram with a full TCP header.
const MAX_PAYLOAD_BYTES: u32 = (u16::MAX as usize - IP_LEN - TCP_MIN_LEN - MAX_OPTIONS_LEN) as u32;
const KIND_NOP: u8 = 1;
const KIND_WINDOW_SCALE: u8 = 3;
const KIND_SACK: u8 = 5;
const KIND_TIMESTAMP: u8 = 8;
const KIND_EXPERIMENT: u8 = 253;
/// NOPs, kind, length, ExID, subtype, 32-bit sequence number.
const SMART_ECHO_SPACE: usize = 3 + 2 + 2 + 1 + 4;
/// NOPs, kind, length, ExID, subtype.
const ELN_SPACE: usize = 3 + 2 + 2 + 1;
/// NOP, kind, length, ExID, subtype, 16-bit window.
const SENDER_WINDOW_SPACE: usize = 1 + 2 + 2 + 1 + 2;
/// NOP, kind, length, shift (RFC 7323 Sec. 2.2, aligned as Appendix A).
const WINDOW_SCALE_SPACE: usize = 1 + 3;
/// NOPs, kind, length, TSval, TSecr (RFC 7323 Appendix A's layout).
const TIMESTAMP_SPACE: usize = 2 + 2 + 4 + 4;
/// The option name in messages (the command line's).
const OPTION: &str = "--pcap";

/// What to capture: a link by name and optionally one direction, written
/// `LINK[:DIRECTION]` where DIRECTION is `from->to` or the sending node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureSpec {
    pub link: String,
    pub direction: Option<String>,
}

impl CaptureSpec {
    /// Split `LINK[:DIRECTION]` at its first colon. Names are checked when
    /// the spec is resolved against a scenario.
    pub fn parse(text: &str) -> CaptureSpec {
        match text.split_once(':') {
            Some((link, dir)) => CaptureSpec { link: link.to_string(), direction: Some(dir.to_string()) },
            None => CaptureSpec { link: text.to_string(), direction: None },
        }
    }
}

impl std::fmt::Display for CaptureSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.direction {
            Some(d) => write!(f, "{}:{d}", self.link),
            None => f.write_str(&self.link),
        }
    }
}

/// One finished capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureFile {
    /// The spec as it was given.
    pub spec: String,
    /// The canonical name: `link` or `link:from->to`.
    pub label: String,
    /// The libpcap file.
    pub bytes: Vec<u8>,
}

/// How a connection's segments carry their windows (RFC 7323).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnScale {
    /// The window-scale shift the sender requests (its socket buffer's).
    pub sender_shift: u8,
    /// The shift the receiver requests.
    pub receiver_shift: u8,
    /// The sender's socket buffer, which its data segments advertise, in
    /// bytes.
    pub sender_buffer_bytes: u64,
    /// The receiver's socket buffer, in bytes.
    pub receiver_buffer_bytes: u64,
    /// The model sends the SYN and SYN-ACK itself (`tcp.handshake`).
    pub handshake: bool,
    /// The connection's segments carry timestamps (RFC 7323 Sec. 3.2: then
    /// so does its SYN).
    pub timestamps: bool,
}

impl ConnScale {
    /// No scaling, a full unscaled window on data segments: what a
    /// connection of 64 KB buffers or less advertises.
    pub const UNSCALED: ConnScale = ConnScale {
        sender_shift: 0,
        receiver_shift: 0,
        sender_buffer_bytes: 65_535,
        receiver_buffer_bytes: 65_535,
        handshake: false,
        timestamps: false,
    };

    fn new(sender_buffer_bytes: u64, receiver_buffer_bytes: u64, handshake: bool, timestamps: bool) -> ConnScale {
        ConnScale {
            sender_shift: shift_for(sender_buffer_bytes),
            receiver_shift: shift_for(receiver_buffer_bytes),
            sender_buffer_bytes,
            receiver_buffer_bytes,
            handshake,
            timestamps,
        }
    }

    /// The model skips this connection's opening, and its windows need the
    /// scale the opening would have said.
    fn needs_opening(&self) -> bool {
        !self.handshake && (self.sender_shift > 0 || self.receiver_shift > 0)
    }
}

/// Per connection (flows in order, then the wireless legs of split flows,
/// as [`Model::paths`]), how it carries its windows.
fn connection_scales(model: &Model) -> Vec<ConnScale> {
    let scale = |f: &crate::scenario::model::FlowModel| {
        let s = &f.sender;
        ConnScale::new(s.send_buffer_bytes, f.receiver.recv_buffer_bytes, s.handshake, s.timestamps)
    };
    let firsts = model.flows.iter().map(scale);
    let wireless_legs = model.flows.iter().filter(|f| f.split.is_some()).map(scale);
    firsts.chain(wireless_legs).collect()
}

/// A capture resolved against a scenario, recording as the run goes.
#[derive(Clone, Debug)]
pub struct Capture {
    spec: String,
    label: String,
    link: usize,
    /// Which directions of `link` are captured.
    dirs: [bool; 2],
    /// The link's end nodes: direction d sends from `ends[d]` to `ends[1 - d]`.
    ends: [NodeId; 2],
    file: PcapFile,
    /// Frame under construction, reused.
    frame: Vec<u8>,
    /// A zero payload for the TCP checksum, grown to the longest segment.
    zeros: Vec<u8>,
    /// Per connection, its windows' scaling, and whether this file has its
    /// opening (see the module's doc).
    scales: Vec<ConnScale>,
    opened: Vec<bool>,
}

impl Capture {
    /// Record `pkt` if it starts transmission on a captured direction.
    #[inline]
    pub fn on_transmit(&mut self, now: Time, link: usize, dir: usize, pkt: &Packet) {
        if link == self.link && self.dirs[dir] {
            let hop = [self.ends[dir], self.ends[1 - dir]];
            let scale = self.scales.get(pkt.flow as usize).copied().unwrap_or(ConnScale::UNSCALED);
            if pkt.kind != PacketKind::Datagram && scale.needs_opening() && !self.opened[pkt.flow as usize] {
                self.write_opening(now, hop, pkt, scale);
            }
            let orig_len = encode_frame(pkt, hop, scale, self.file.snaplen, &mut self.frame, &mut self.zeros);
            self.file.record(now, &self.frame, orig_len);
        }
    }

    /// The SYN and SYN-ACK of a connection the model opened without them,
    /// before `pkt`, its first frame in this file, crossing `hop`.
    #[cold]
    fn write_opening(&mut self, now: Time, hop: [NodeId; 2], pkt: &Packet, scale: ConnScale) {
        self.opened[pkt.flow as usize] = true;
        // Hosts and hop from the sender's side.
        let ((sender, receiver), hop) = match pkt.kind {
            PacketKind::Data => ((pkt.src, pkt.dst), hop),
            _ => ((pkt.dst, pkt.src), [hop[1], hop[0]]),
        };
        let base = Packet { uid: 0, flow: pkt.flow, src: sender, dst: receiver, ecn: Ecn::NotEct, ..*pkt };
        // With timestamps, both carry one (RFC 7323 Sec. 3.2), stamped now.
        let ts = |ecr_ns| scale.timestamps.then_some(Timestamps { val_ns: now.ns(), ecr_ns });
        let syn = Packet {
            kind: PacketKind::Data,
            size_bytes: 0,
            tcp: TcpHeader { syn: true, ts: ts(0), ..TcpHeader::default() },
            ..base
        };
        // The receiver opens with an ack's own window, else its buffer.
        let window = match pkt.kind {
            PacketKind::Ack => u64::from(pkt.tcp.wnd_bytes),
            _ => scale.receiver_buffer_bytes,
        };
        let wnd_bytes = u32::try_from(window).unwrap_or(u32::MAX);
        let syn_ack = Packet {
            kind: PacketKind::Ack,
            src: receiver,
            dst: sender,
            size_bytes: 0,
            tcp: TcpHeader { syn: true, wnd_bytes, ts: ts(now.ns()), ..TcpHeader::default() },
            ..base
        };
        for (p, h) in [(syn, hop), (syn_ack, [hop[1], hop[0]])] {
            let orig_len = encode_frame(&p, h, scale, self.file.snaplen, &mut self.frame, &mut self.zeros);
            self.file.record(now, &self.frame, orig_len);
        }
    }

    pub fn finish(self) -> CaptureFile {
        CaptureFile { spec: self.spec, label: self.label, bytes: self.file.bytes }
    }
}

/// Resolve `specs` against `model`: every link and direction must exist, no
/// two specs may name the same capture, and segments must fit IPv4.
pub fn resolve(model: &Model, specs: &[CaptureSpec], snaplen: u32) -> Result<Vec<Capture>, ScenarioError> {
    if !(1..=MAX_SNAPLEN).contains(&snaplen) {
        return Err(ScenarioError::new("--snaplen", format!("must be in 1..={MAX_SNAPLEN}, got {snaplen}")));
    }
    let mut out: Vec<Capture> = Vec::with_capacity(specs.len());
    for spec in specs {
        let c = resolve_one(model, spec, snaplen)?;
        if let Some(other) = out.iter().find(|o| o.label == c.label) {
            let reason = format!("'{}' and '{}' name the same capture", other.spec, c.spec);
            return Err(ScenarioError::new(OPTION, reason));
        }
        out.push(c);
    }
    if !out.is_empty() {
        if let Some(f) = model.flows.iter().find(|f| f.sender.mss_bytes > MAX_PAYLOAD_BYTES) {
            let reason = format!(
                "flow '{}' has mss_bytes {}; a captured segment must fit an IPv4 datagram (at most {MAX_PAYLOAD_BYTES})",
                f.name, f.sender.mss_bytes
            );
            return Err(ScenarioError::new(OPTION, reason));
        }
    }
    Ok(out)
}

fn resolve_one(model: &Model, spec: &CaptureSpec, snaplen: u32) -> Result<Capture, ScenarioError> {
    let Some(li) = model.links.iter().position(|l| l.name == spec.link) else {
        let names: Vec<&str> = model.links.iter().map(|l| l.name.as_str()).collect();
        let reason = format!("no link named '{}' (links: {})", spec.link, names.join(", "));
        return Err(ScenarioError::new(OPTION, reason));
    };
    let ends = model.links[li].ends;
    let scales = connection_scales(model);
    let (dirs, label) = match &spec.direction {
        None => ([true, true], spec.link.clone()),
        Some(want) => {
            let by_name = |d: usize| model.dir_name(li, d) == *want || model.nodes[ends[d] as usize] == *want;
            let Some(d) = (0..2).find(|&d| by_name(d)) else {
                let reason = format!(
                    "link '{}' has no direction '{want}' (directions: {}, {})",
                    spec.link,
                    model.dir_name(li, 0),
                    model.dir_name(li, 1)
                );
                return Err(ScenarioError::new(OPTION, reason));
            };
            let mut dirs = [false; 2];
            dirs[d] = true;
            (dirs, format!("{}:{}", spec.link, model.dir_name(li, d)))
        }
    };
    Ok(Capture {
        spec: spec.to_string(),
        label,
        link: li,
        dirs,
        ends,
        file: PcapFile::new(snaplen),
        frame: Vec::with_capacity(snaplen.min(2048) as usize),
        zeros: Vec::new(),
        opened: vec![false; scales.len()],
        scales,
    })
}

/// A libpcap file being written into memory.
#[derive(Clone, Debug)]
struct PcapFile {
    snaplen: u32,
    bytes: Vec<u8>,
}

impl PcapFile {
    fn new(snaplen: u32) -> PcapFile {
        let mut bytes = Vec::with_capacity(1 << 16);
        for word in [MAGIC_NS.to_le_bytes(), [2, 0, 4, 0], [0; 4], [0; 4], snaplen.to_le_bytes()] {
            // magic; version 2.4 (two u16); thiszone; sigfigs; snaplen
            bytes.extend_from_slice(&word);
        }
        bytes.extend_from_slice(&LINKTYPE_ETHERNET.to_le_bytes());
        PcapFile { snaplen, bytes }
    }

    /// Append a record; `frame` is already cut to the snap length.
    fn record(&mut self, now: Time, frame: &[u8], orig_len: u32) {
        let (s, ns) = (now.ns() / NS_PER_S, now.ns() % NS_PER_S);
        // Runs end by MAX_STOP_S (1e7 s), well inside a u32 of seconds.
        self.bytes.extend_from_slice(&(s as u32).to_le_bytes());
        self.bytes.extend_from_slice(&(ns as u32).to_le_bytes());
        self.bytes.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        self.bytes.extend_from_slice(&orig_len.to_le_bytes());
        self.bytes.extend_from_slice(frame);
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a fixed, well-spread function of
/// the flow index, so ISNs look like a real host's and never collide.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Initial sequence number of flow `flow`'s sender (`PacketKind::Data`) or
/// receiver (`PacketKind::Ack`).
pub fn isn(flow: u32, side: PacketKind) -> u32 {
    let side = match side {
        PacketKind::Data | PacketKind::Datagram => 0,
        PacketKind::Ack => 1,
    };
    splitmix64(2 * u64::from(flow) + side) as u32
}

/// The 32-bit wire value of byte offset `offset` of a side whose ISN is
/// `isn`: the SYN takes the ISN, data byte 0 is ISN+1, all mod 2^32.
pub fn wire_seq(isn: u32, offset: u64) -> u32 {
    isn.wrapping_add(1).wrapping_add(offset as u32)
}

/// IPv4 address of node `node`: the (node+1)-th address of 10.0.0.0/8.
pub fn node_ip(node: NodeId) -> [u8; 4] {
    // Scenarios hold at most 2^24 - 2 nodes (`scenario::MAX_NODES`): one
    // address each, the /8's network and broadcast addresses left out.
    (0x0a00_0000u32 + node + 1).to_be_bytes()
}

/// MAC address of node `node`: locally administered, unicast, 02:00 and
/// the node's IPv4 address.
pub fn node_mac(node: NodeId) -> [u8; 6] {
    let ip = node_ip(node);
    [0x02, 0x00, ip[0], ip[1], ip[2], ip[3]]
}

/// The TCP options of `tcp` in wire form (a multiple of 4 bytes, at most
/// 40); `sender_isn` maps SACK edges and the SMART echo.
fn encode_options(tcp: &TcpHeader, sender_isn: u32, window_shift: Option<u8>) -> ([u8; MAX_OPTIONS_LEN], usize) {
    let mut o = [0u8; MAX_OPTIONS_LEN];
    let mut n = 0;
    let mut put = |bytes: &[u8]| {
        o[n..n + bytes.len()].copy_from_slice(bytes);
        n += bytes.len();
    };
    let space = |on: bool, n: usize| if on { n } else { 0 };
    let others = space(tcp.smart_echo.is_some(), SMART_ECHO_SPACE)
        + space(tcp.eln, ELN_SPACE)
        + space(tcp.fr_request, ELN_SPACE)
        + space(tcp.sender_window.is_some(), SENDER_WINDOW_SPACE)
        + space(tcp.ts.is_some(), TIMESTAMP_SPACE)
        + space(window_shift.is_some(), WINDOW_SCALE_SPACE);
    // RFC 2018 Sec. 3: "the SACK option [...] will include as many distinct
    // SACK blocks as possible"; the first blocks are the most recent.
    // The rest fit together: an ack's SMART echo, ELN, request mark and
    // timestamps take 40 bytes; a data segment's window and timestamps 20.
    debug_assert!(others <= MAX_OPTIONS_LEN, "{others} bytes of options");
    let fit = MAX_OPTIONS_LEN.saturating_sub(others).saturating_sub(4) / 8;
    let blocks = &tcp.sack.as_slice()[..tcp.sack.as_slice().len().min(fit)];
    if !blocks.is_empty() {
        put(&[KIND_NOP, KIND_NOP, KIND_SACK, (2 + 8 * blocks.len()) as u8]);
        for &(start, end) in blocks {
            put(&wire_seq(sender_isn, start).to_be_bytes());
            put(&wire_seq(sender_isn, end).to_be_bytes());
        }
    }
    if let Some(shift) = window_shift {
        put(&[KIND_NOP, KIND_WINDOW_SCALE, 3, shift]);
    }
    let [ex0, ex1] = EXID.to_be_bytes();
    if let Some(echo) = tcp.smart_echo {
        put(&[KIND_NOP, KIND_NOP, KIND_NOP, KIND_EXPERIMENT, 9, ex0, ex1, SUBTYPE_SMART_ECHO]);
        put(&wire_seq(sender_isn, echo).to_be_bytes());
    }
    if tcp.eln {
        put(&[KIND_NOP, KIND_NOP, KIND_NOP, KIND_EXPERIMENT, 5, ex0, ex1, SUBTYPE_ELN]);
    }
    if tcp.fr_request {
        put(&[KIND_NOP, KIND_NOP, KIND_NOP, KIND_EXPERIMENT, 5, ex0, ex1, SUBTYPE_FR_REQUEST]);
    }
    if let Some(w) = tcp.sender_window {
        let [w0, w1] = w.to_be_bytes();
        put(&[KIND_NOP, KIND_EXPERIMENT, 7, ex0, ex1, SUBTYPE_SENDER_WINDOW, w0, w1]);
    }
    if let Some(ts) = tcp.ts {
        let micros = |ns: u64| ((ns / 1000) as u32).to_be_bytes();
        put(&[KIND_NOP, KIND_NOP, KIND_TIMESTAMP, 10]);
        put(&micros(ts.val_ns));
        put(&micros(ts.ecr_ns));
    }
    (o, n)
}

/// Encode `pkt` as the Ethernet frame that crosses the hop `hop` (sending
/// node, receiving node) into `frame`, cut to `snaplen` bytes; returns the
/// whole frame's length. `zeros` is scratch for the TCP checksum.
fn encode_frame(
    pkt: &Packet,
    hop: [NodeId; 2],
    scale: ConnScale,
    snaplen: u32,
    frame: &mut Vec<u8>,
    zeros: &mut Vec<u8>,
) -> u32 {
    if pkt.kind == PacketKind::Datagram {
        return encode_datagram(pkt, hop, snaplen, frame, zeros);
    }
    let tcp = &pkt.tcp;
    let (sender_isn, receiver_isn) = (isn(pkt.flow, PacketKind::Data), isn(pkt.flow, PacketKind::Ack));
    let sender_port = SENDER_PORT_BASE.wrapping_add(pkt.flow as u16);
    let payload_len = match pkt.kind {
        PacketKind::Data => tcp.len.min(MAX_PAYLOAD_BYTES) as usize,
        PacketKind::Ack | PacketKind::Datagram => 0,
    };
    // RFC 7323 Sec. 2.2: "The Window field in a segment where the SYN bit
    // is set (i.e., a <SYN> or <SYN,ACK>) MUST NOT be scaled"; Sec. 2.3:
    // later ones are the window shifted right by the sender's own shift.
    let field = |bytes: u64, shift: u8| (if tcp.syn { bytes } else { bytes >> shift }).min(u64::from(u16::MAX)) as u16;
    let mut th = match pkt.kind {
        PacketKind::Data if tcp.syn => {
            WireTcp::new(sender_port, RECEIVER_PORT, sender_isn, field(scale.sender_buffer_bytes, 0))
        }
        PacketKind::Data => {
            let wnd = field(scale.sender_buffer_bytes, scale.sender_shift);
            let mut h = WireTcp::new(sender_port, RECEIVER_PORT, wire_seq(sender_isn, tcp.seq), wnd);
            h.acknowledgment_number = wire_seq(receiver_isn, 0);
            h
        }
        PacketKind::Ack | PacketKind::Datagram => {
            let wnd = field(u64::from(tcp.wnd_bytes), scale.receiver_shift);
            // A SYN-ACK takes the receiver's ISN, later acks ISN+1.
            let seq = if tcp.syn { receiver_isn } else { wire_seq(receiver_isn, 0) };
            let mut h = WireTcp::new(RECEIVER_PORT, sender_port, seq, wnd);
            h.acknowledgment_number = wire_seq(sender_isn, tcp.ack);
            h
        }
    };
    th.ack = !(tcp.syn && pkt.kind == PacketKind::Data);
    (th.syn, th.fin) = (tcp.syn, tcp.fin);
    (th.ece, th.cwr) = (tcp.ece, tcp.cwr);
    // The window-scale option on a SYN and a SYN-ACK only (RFC 7323 Sec. 2.2).
    let window_shift = match pkt.kind {
        _ if !tcp.syn => None,
        PacketKind::Data => Some(scale.sender_shift),
        PacketKind::Ack | PacketKind::Datagram => Some(scale.receiver_shift),
    };
    let (opts, opts_len) = encode_options(tcp, sender_isn, window_shift);
    th.set_options_raw(&opts[..opts_len]).expect("options are at most 40 bytes");

    let seg_len = th.header_len() + payload_len;
    let mut ip = Ipv4Header::new(seg_len as u16, TTL, IpNumber::TCP, node_ip(pkt.src), node_ip(pkt.dst))
        .expect("segments fit IPv4: mss checked when the capture was resolved");
    ip.identification = pkt.uid as u16;
    ip.ecn = match pkt.ecn {
        Ecn::NotEct => IpEcn::NotEct,
        Ecn::Ect => IpEcn::Ect0,
        Ecn::Ce => IpEcn::CongestionExperienced,
    };
    ip.dont_fragment = true;
    ip.header_checksum = ip.calc_header_checksum();
    if zeros.len() < payload_len {
        zeros.resize(payload_len, 0);
    }
    // Over the whole zero payload, as the sending host computes it.
    th.checksum = th.calc_checksum_ipv4(&ip, &zeros[..payload_len]).expect("length checked above");
    let notice_bits = ll_notice_bits(tcp.ll_notice);
    if notice_bits != 0 {
        // RFC 1624 eqn. 3, HC' = ~(~HC + ~m + m'), for the 16-bit word that
        // holds the data offset, the reserved bits and the flags.
        let bytes = th.to_bytes();
        let m = u16::from_be_bytes([bytes[12], bytes[13]]);
        let m2 = m | (u16::from(notice_bits) << 8);
        let mut sum = u32::from(!th.checksum) + u32::from(!m) + u32::from(m2);
        while sum > 0xffff {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        th.checksum = !(sum as u16);
    }

    let eth = Ethernet2Header { source: node_mac(hop[0]), destination: node_mac(hop[1]), ether_type: EtherType::IPV4 };
    let orig_len = ETH_LEN + IP_LEN + seg_len;
    frame.clear();
    frame.extend_from_slice(&eth.to_bytes());
    frame.extend_from_slice(&ip.to_bytes());
    frame.extend_from_slice(&th.to_bytes());
    frame[ETH_LEN + IP_LEN + 12] |= notice_bits;
    // Zero payload up to the snap length, or the headers cut to it.
    frame.resize(orig_len.min(snaplen as usize), 0);
    orig_len as u32
}

/// The bits an LL-ELSN notice of `kind` sets in the TCP header's 13th
/// byte (see the module's doc): 0 for an ordinary segment.
fn ll_notice_bits(kind: LlNotice) -> u8 {
    match kind {
        LlNotice::None => 0,
        LlNotice::Ersn => 0b01 << 1,
        LlNotice::Eln => 0b10 << 1,
        // The code the two bits leave free: lasthop's EBSN (not Yun's).
        LlNotice::Ebsn => 0b11 << 1,
    }
}

/// [`encode_frame`] for a background source's datagram: IPv4 and UDP
/// headers and a zero payload, `size_bytes` long in all (at least the
/// headers), from the flow's sender port to [`RECEIVER_PORT`].
fn encode_datagram(pkt: &Packet, hop: [NodeId; 2], snaplen: u32, frame: &mut Vec<u8>, zeros: &mut Vec<u8>) -> u32 {
    const UDP_LEN: usize = 8;
    let payload_len =
        (pkt.size_bytes as usize).saturating_sub(IP_LEN + UDP_LEN).min(u16::MAX as usize - IP_LEN - UDP_LEN);
    let sender_port = SENDER_PORT_BASE.wrapping_add(pkt.flow as u16);
    let mut ip =
        Ipv4Header::new((UDP_LEN + payload_len) as u16, TTL, IpNumber::UDP, node_ip(pkt.src), node_ip(pkt.dst))
            .expect("the length is capped to fit IPv4");
    ip.identification = pkt.uid as u16;
    ip.dont_fragment = true;
    ip.header_checksum = ip.calc_header_checksum();
    if zeros.len() < payload_len {
        zeros.resize(payload_len, 0);
    }
    let udp = UdpHeader::with_ipv4_checksum(sender_port, RECEIVER_PORT, &ip, &zeros[..payload_len])
        .expect("the length is capped to fit IPv4");
    let eth = Ethernet2Header { source: node_mac(hop[0]), destination: node_mac(hop[1]), ether_type: EtherType::IPV4 };
    let orig_len = ETH_LEN + IP_LEN + UDP_LEN + payload_len;
    frame.clear();
    frame.extend_from_slice(&eth.to_bytes());
    frame.extend_from_slice(&ip.to_bytes());
    frame.extend_from_slice(&udp.to_bytes());
    frame.resize(orig_len.min(snaplen as usize), 0);
    orig_len as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use etherparse::TcpOptionElement;
    use lasthop_core::SackBlocks;

    /// One record read back from a file: times, lengths and captured bytes.
    struct Record<'a> {
        time_ns: u64,
        orig_len: u32,
        data: &'a [u8],
    }

    /// Read a file back by the format's definition, checking its header.
    fn records(file: &[u8], snaplen: u32) -> Vec<Record<'_>> {
        let u32_at = |i: usize| u32::from_le_bytes(file[i..i + 4].try_into().unwrap());
        assert_eq!(u32_at(0), 0xa1b2_3c4d, "nanosecond magic");
        assert_eq!(&file[4..8], &[2, 0, 4, 0], "version 2.4");
        assert_eq!((u32_at(8), u32_at(12), u32_at(16), u32_at(20)), (0, 0, snaplen, 1));
        let (mut at, mut out) = (24, Vec::new());
        while at < file.len() {
            let (s, ns, caplen, orig_len) = (u32_at(at), u32_at(at + 4), u32_at(at + 8), u32_at(at + 12));
            assert!(ns < 1_000_000_000 && caplen <= snaplen && caplen <= orig_len);
            let data = &file[at + 16..at + 16 + caplen as usize];
            out.push(Record { time_ns: u64::from(s) * NS_PER_S + u64::from(ns), orig_len, data });
            at += 16 + caplen as usize;
        }
        assert_eq!(at, file.len(), "records fill the file exactly");
        out
    }

    fn data(flow: u32, uid: u64, seq: u64, len: u32) -> Packet {
        let tcp = TcpHeader { seq, len, ..TcpHeader::default() };
        Packet { uid, flow, kind: PacketKind::Data, src: 0, dst: 2, size_bytes: 40 + len, ecn: Ecn::NotEct, tcp }
    }

    fn ack(flow: u32, tcp: TcpHeader) -> Packet {
        Packet { uid: 7, flow, kind: PacketKind::Ack, src: 2, dst: 0, size_bytes: 40, ecn: Ecn::NotEct, tcp }
    }

    fn encode(pkt: &Packet, hop: [NodeId; 2], snaplen: u32) -> (Vec<u8>, u32) {
        let (mut frame, mut zeros) = (Vec::new(), Vec::new());
        let orig = encode_frame(pkt, hop, ConnScale::UNSCALED, snaplen, &mut frame, &mut zeros);
        (frame, orig)
    }

    /// RFC 1071 sum of 16-bit words, folded: 0xffff over data whose checksum is right.
    fn ones_sum(chunks: &[&[u8]]) -> u16 {
        let mut sum: u32 = 0;
        for c in chunks {
            for w in c.chunks(2) {
                sum += u32::from(u16::from_be_bytes([w[0], *w.get(1).unwrap_or(&0)]));
            }
        }
        while sum > 0xffff {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        sum as u16
    }

    #[test]
    fn handshake_segments_carry_syn_and_fin_with_rfc793_numbers() {
        let (s, r) = (isn(4, PacketKind::Data), isn(4, PacketKind::Ack));
        let tcp_of = |pkt: &Packet| {
            let (frame, _) = encode(pkt, [0, 1], MAX_SNAPLEN);
            let (_, rest) = Ethernet2Header::from_slice(&frame).unwrap();
            let (ip, rest) = Ipv4Header::from_slice(rest).unwrap();
            let (th, payload) = WireTcp::from_slice(rest).unwrap();
            assert_eq!(th.checksum, th.calc_checksum_ipv4(&ip, payload).unwrap());
            th
        };
        // The SYN takes the sender's ISN and acknowledges nothing.
        let mut syn = data(4, 1, 0, 0);
        syn.tcp.syn = true;
        let th = tcp_of(&syn);
        assert!(th.syn && !th.ack && !th.fin);
        assert_eq!((th.sequence_number, th.acknowledgment_number), (s, 0));
        // The SYN-ACK takes the receiver's ISN and acknowledges the SYN.
        let th = tcp_of(&ack(4, TcpHeader { ack: 0, wnd_bytes: 1000, syn: true, ..TcpHeader::default() }));
        assert!(th.syn && th.ack && !th.fin);
        assert_eq!((th.sequence_number, th.acknowledgment_number), (r, s.wrapping_add(1)));
        // Data after it: the receiver's SYN counted (ack ISN+1).
        let th = tcp_of(&data(4, 2, 0, 100));
        assert_eq!((th.sequence_number, th.acknowledgment_number), (s.wrapping_add(1), r.wrapping_add(1)));
        assert!(!th.syn && !th.fin);
        // The last segment carries FIN; its ack covers the FIN's number.
        let mut last = data(4, 3, 100, 100);
        last.tcp.fin = true;
        let th = tcp_of(&last);
        assert!(th.fin && th.ack && !th.syn);
        assert_eq!(th.sequence_number, s.wrapping_add(101));
        let th = tcp_of(&ack(4, TcpHeader { ack: 201, wnd_bytes: 1000, ..TcpHeader::default() }));
        assert_eq!(th.acknowledgment_number, s.wrapping_add(1 + 200 + 1), "bytes 0..200 and the FIN");
        assert_eq!(th.sequence_number, r.wrapping_add(1));
    }

    #[test]
    fn a_background_datagram_is_udp_of_its_size_with_checksums() {
        let tcp = TcpHeader { seq: 41, len: 1000, ..TcpHeader::default() };
        let pkt = Packet {
            uid: 9,
            flow: 2,
            kind: PacketKind::Datagram,
            src: 0,
            dst: 2,
            size_bytes: 1000,
            ecn: Ecn::NotEct,
            tcp,
        };
        let (frame, orig) = encode(&pkt, [0, 1], MAX_SNAPLEN);
        assert_eq!(orig as usize, 14 + 1000, "the datagram's size on the wire, plus Ethernet");
        let (ip, rest) = Ipv4Header::from_slice(&frame[14..]).unwrap();
        assert_eq!((ip.protocol, ip.total_len), (IpNumber::UDP, 1000));
        assert_eq!(ip.header_checksum, ip.calc_header_checksum());
        let (udp, payload) = UdpHeader::from_slice(rest).unwrap();
        assert_eq!((udp.source_port, udp.destination_port, udp.length), (SENDER_PORT_BASE + 2, RECEIVER_PORT, 980));
        assert_eq!(udp.checksum, udp.calc_checksum_ipv4(&ip, payload).unwrap());
    }

    #[test]
    fn a_data_segment_has_real_headers_and_checksums() {
        let pkt = data(3, 0x1_0005, 1400, 1400);
        let (frame, orig) = encode(&pkt, [1, 2], MAX_SNAPLEN);
        assert_eq!(orig as usize, 14 + 20 + 20 + 1400);
        assert_eq!(frame.len(), orig as usize, "a large snap length keeps the whole frame");

        let (eth, rest) = Ethernet2Header::from_slice(&frame).unwrap();
        assert_eq!(eth.source, [2, 0, 10, 0, 0, 2], "the hop's sending node (node 1)");
        assert_eq!(eth.destination, [2, 0, 10, 0, 0, 3]);
        assert_eq!(eth.ether_type, EtherType::IPV4);
        assert_eq!(eth.source[0] & 0b11, 0b10, "locally administered unicast");

        let (ip, rest) = Ipv4Header::from_slice(rest).unwrap();
        assert_eq!((ip.source, ip.destination), ([10, 0, 0, 1], [10, 0, 0, 3]), "the flow's hosts");
        assert_eq!((ip.time_to_live, ip.dont_fragment, ip.identification), (64, true, 5));
        assert_eq!(ip.total_len as usize, 20 + 20 + 1400);
        assert_eq!(ip.header_checksum, ip.calc_header_checksum());
        assert_eq!(ones_sum(&[&frame[14..34]]), 0xffff, "IP header checksum by RFC 1071");

        let (th, payload) = WireTcp::from_slice(rest).unwrap();
        assert_eq!((th.source_port, th.destination_port), (20_003, 5001));
        assert_eq!(th.sequence_number, isn(3, PacketKind::Data).wrapping_add(1401));
        assert_eq!(th.acknowledgment_number, isn(3, PacketKind::Ack).wrapping_add(1));
        assert!(th.ack && !th.syn && !th.fin && !th.rst && !th.psh);
        assert_eq!((th.data_offset(), th.window_size), (5, 65535));
        assert_eq!(payload, &[0u8; 1400][..]);
        assert_eq!(th.checksum, th.calc_checksum_ipv4(&ip, payload).unwrap());
        let pseudo = [&ip.source[..], &ip.destination[..], &[0, 6], &(1420u16).to_be_bytes()];
        assert_eq!(ones_sum(&[pseudo[0], pseudo[1], pseudo[2], pseudo[3], &frame[34..]]), 0xffff);
    }

    #[test]
    fn ll_elsn_notices_carry_their_type_in_two_reserved_bits() {
        let (s, r) = (isn(2, PacketKind::Data), isn(2, PacketKind::Ack));
        for (kind, bits) in [(LlNotice::None, 0), (LlNotice::Ersn, 0x02), (LlNotice::Eln, 0x04), (LlNotice::Ebsn, 0x06)]
        {
            // The notice names the segment at byte 5000; its `seq` is the
            // model's own (the time it was raised) and never reaches the wire.
            let pkt = ack(2, TcpHeader { seq: 123_456_789, ack: 5000, ll_notice: kind, ..TcpHeader::default() });
            let (frame, orig) = encode(&pkt, [2, 1], MAX_SNAPLEN);
            assert_eq!(orig as usize, 14 + 20 + 20, "an ack's format: no options, no payload");
            let (ip, rest) = Ipv4Header::from_slice(&frame[14..]).unwrap();
            let (th, _) = WireTcp::from_slice(rest).unwrap();
            assert_eq!((th.source_port, th.destination_port), (5001, 20_002), "receiver to sender");
            assert_eq!(th.acknowledgment_number, s.wrapping_add(5001), "the segment named");
            assert_eq!(th.sequence_number, r.wrapping_add(1));
            assert!(th.ack && !th.syn && !th.fin && !th.ns);
            // Byte 12: data offset 5, then the reserved bits.
            assert_eq!(frame[34 + 12], 0x50 | bits, "{kind:?}");
            let pseudo = [&ip.source[..], &ip.destination[..], &[0, 6], &(20u16).to_be_bytes()];
            assert_eq!(ones_sum(&[pseudo[0], pseudo[1], pseudo[2], pseudo[3], &frame[34..]]), 0xffff, "{kind:?}");
        }
    }

    /// Issue 29 item 3 (RFC 7323 Secs. 2.2-2.3): a SYN and a SYN-ACK carry
    /// their sender's shift in a window-scale option and an unscaled window;
    /// later segments the window shifted right by it.
    #[test]
    fn windows_are_scaled_by_the_shift_each_side_asked_for() {
        let scale = ConnScale::new(1 << 20, 1 << 20, true, false);
        assert_eq!((scale.sender_shift, scale.receiver_shift), (5, 5));
        let th = |pkt: &Packet| {
            let (mut frame, mut zeros) = (Vec::new(), Vec::new());
            encode_frame(pkt, [0, 1], scale, MAX_SNAPLEN, &mut frame, &mut zeros);
            let (_, rest) = Ipv4Header::from_slice(&frame[14..]).unwrap();
            WireTcp::from_slice(rest).unwrap().0
        };
        let shift_of = |h: &WireTcp| {
            h.options_iterator().find_map(|o| match o.unwrap() {
                TcpOptionElement::WindowScale(s) => Some(s),
                _ => None,
            })
        };
        let mut syn = data(0, 1, 0, 0);
        syn.tcp.syn = true;
        let h = th(&syn);
        assert_eq!((shift_of(&h), h.window_size), (Some(5), 65_535), "unscaled on a SYN, clamped");
        let syn_ack = ack(0, TcpHeader { wnd_bytes: 1 << 20, syn: true, ..TcpHeader::default() });
        assert_eq!(shift_of(&th(&syn_ack)), Some(5));
        let h = th(&ack(0, TcpHeader { ack: 1000, wnd_bytes: 1_000_000, ..TcpHeader::default() }));
        assert_eq!((shift_of(&h), h.window_size), (None, 31_250), "1,000,000 >> 5");
        assert_eq!(th(&data(0, 2, 0, 100)).window_size, 32_768, "the sender's 1 MiB buffer >> 5");
    }

    /// A flow that starts established but needs scaling gets its opening
    /// once, before its first frame, at that frame's time; an unscaled
    /// flow gets none.
    #[test]
    fn a_scaled_flow_without_a_handshake_gets_its_opening_once() {
        let mut c = Capture {
            spec: "l".into(),
            label: "l".into(),
            link: 0,
            dirs: [true, true],
            ends: [0, 1],
            file: PcapFile::new(MAX_SNAPLEN),
            frame: Vec::new(),
            zeros: Vec::new(),
            scales: vec![ConnScale::new(1 << 20, 1 << 20, false, false), ConnScale::new(32_768, 32_768, false, false)],
            opened: vec![false; 2],
        };
        let first = ack(0, TcpHeader { ack: 1000, wnd_bytes: 1 << 20, ..TcpHeader::default() });
        c.on_transmit(Time::from_ns(5), 0, 1, &first);
        c.on_transmit(Time::from_ns(6), 0, 0, &data(0, 2, 1000, 100));
        c.on_transmit(Time::from_ns(7), 0, 0, &data(1, 3, 0, 100));
        let file = c.finish().bytes;
        let recs = records(&file, MAX_SNAPLEN);
        let flags: Vec<(u64, bool, bool, u16)> = recs
            .iter()
            .map(|r| {
                let (_, rest) = Ipv4Header::from_slice(&r.data[14..]).unwrap();
                let h = WireTcp::from_slice(rest).unwrap().0;
                (r.time_ns, h.syn, h.ack, h.source_port)
            })
            .collect();
        assert_eq!(
            flags,
            [
                (5, true, false, 20_000),
                (5, true, true, 5001),
                (5, false, true, 5001),
                (6, false, true, 20_000),
                (7, false, true, 20_001)
            ],
            "SYN and SYN-ACK of flow 0 before its first frame (an ack from the far end); none for the unscaled flow 1"
        );
        // The SYN goes the sender's way across the hop: the ack came from node 1.
        assert_eq!(&recs[0].data[6..12], &node_mac(0)[..], "SYN from the sender's side of the hop");
    }

    #[test]
    fn snap_length_cuts_the_record_not_the_lengths() {
        let pkt = data(0, 1, 0, 1400);
        let mut c = Capture {
            spec: "l".into(),
            label: "l".into(),
            link: 0,
            dirs: [true, false],
            ends: [0, 1],
            file: PcapFile::new(DEFAULT_SNAPLEN),
            frame: Vec::new(),
            zeros: Vec::new(),
            scales: Vec::new(),
            opened: Vec::new(),
        };
        c.on_transmit(Time::from_ns(2_500_000_001), 0, 0, &pkt);
        c.on_transmit(Time::from_ns(3), 0, 1, &pkt); // the other direction: not captured
        c.on_transmit(Time::from_ns(3), 1, 0, &pkt); // another link: not captured
        let file = c.finish().bytes;
        let recs = records(&file, DEFAULT_SNAPLEN);
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].time_ns, 2_500_000_001);
        assert_eq!((recs[0].orig_len, recs[0].data.len()), (1454, 128));
        let (full, _) = encode(&pkt, [0, 1], MAX_SNAPLEN);
        assert_eq!(recs[0].data, &full[..128], "the start of the very same frame");
        let (ip, _) = Ipv4Header::from_slice(&recs[0].data[14..]).unwrap();
        assert_eq!(ip.total_len, 1440, "IP length is the whole datagram's");

        let (tiny, orig) = encode(&pkt, [0, 1], 10);
        assert_eq!((tiny.len(), orig), (10, 1454));
    }

    #[test]
    fn ack_carries_mapped_ack_window_and_sack_blocks() {
        let mut sack = SackBlocks::default();
        sack.push(5000, 6000);
        sack.push(3000, 4000);
        let tcp = TcpHeader { ack: 2000, wnd_bytes: 100_000, sack, ..TcpHeader::default() };
        let (frame, orig) = encode(&ack(1, tcp), [2, 1], MAX_SNAPLEN);
        let (ip, rest) = Ipv4Header::from_slice(&frame[14..]).unwrap();
        let (th, payload) = WireTcp::from_slice(rest).unwrap();
        assert!(payload.is_empty());
        assert_eq!((ip.source, ip.destination), ([10, 0, 0, 3], [10, 0, 0, 1]));
        assert_eq!((th.source_port, th.destination_port), (5001, 20_001));
        let (s, r) = (isn(1, PacketKind::Data), isn(1, PacketKind::Ack));
        assert_eq!(th.sequence_number, r.wrapping_add(1), "the receiver sends no data");
        assert_eq!(th.acknowledgment_number, s.wrapping_add(2001));
        assert_eq!(th.window_size, 65535, "clamped: no window scaling without a SYN");
        assert_eq!(th.data_offset(), 5 + 5, "NOP NOP + 2 blocks = 20 bytes of options");
        assert_eq!(&th.options.as_slice()[..4], &[1, 1, 5, 18]);
        let elems: Vec<TcpOptionElement> = th.options_iterator().map(|e| e.unwrap()).collect();
        let w = |o: u64| wire_seq(s, o);
        assert_eq!(
            elems[2],
            TcpOptionElement::SelectiveAcknowledgement((w(5000), w(6000)), [Some((w(3000), w(4000))), None, None])
        );
        assert_eq!(ip.total_len as usize, 20 + 40);
        assert_eq!(orig as usize, 14 + 20 + 40);
        assert_eq!(th.checksum, th.calc_checksum_ipv4(&ip, &[]).unwrap());
    }

    #[test]
    fn smart_echo_and_eln_are_rfc6994_experimental_options() {
        let tcp = TcpHeader { ack: 10, smart_echo: Some(7000), eln: true, ..TcpHeader::default() };
        let (frame, _) = encode(&ack(0, tcp), [1, 0], DEFAULT_SNAPLEN);
        let (th, _) = WireTcp::from_slice(&frame[34..]).unwrap();
        let echo = wire_seq(isn(0, PacketKind::Data), 7000).to_be_bytes();
        let mut want = vec![1, 1, 1, 253, 9, 0x4c, 0x48, b'S'];
        want.extend_from_slice(&echo);
        want.extend_from_slice(&[1, 1, 1, 253, 5, 0x4c, 0x48, b'E']);
        assert_eq!(th.options.as_slice(), &want[..]);
        assert_eq!(th.data_offset(), 5 + 5);
        let (ip, _) = Ipv4Header::from_slice(&frame[14..]).unwrap();
        assert_eq!(ip.total_len, 20 + 40);
    }

    #[test]
    fn ecn_bits_sender_window_and_timestamps_reach_the_wire() {
        // A data segment: ECT(0), CWR, the sender-window option and timestamps.
        let ts = Some(Timestamps { val_ns: 2_500_000_000, ecr_ns: 1_000 });
        let tcp = TcpHeader { seq: 0, len: 100, cwr: true, sender_window: Some(0x0102), ts, ..TcpHeader::default() };
        let pkt = Packet {
            uid: 1,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 2,
            size_bytes: 140,
            ecn: lasthop_core::Ecn::Ect,
            tcp,
        };
        let (frame, _) = encode(&pkt, [0, 1], MAX_SNAPLEN);
        let (ip, rest) = Ipv4Header::from_slice(&frame[14..]).unwrap();
        let (th, _) = WireTcp::from_slice(rest).unwrap();
        assert_eq!(ip.ecn, IpEcn::Ect0);
        assert!(th.cwr && !th.ece && th.ack);
        let mut want = vec![1, 253, 7, 0x4c, 0x48, b'W', 1, 2, 1, 1, 8, 10];
        want.extend_from_slice(&2_500_000u32.to_be_bytes());
        want.extend_from_slice(&1u32.to_be_bytes());
        assert_eq!(th.options.as_slice(), &want[..]);
        // etherparse stops at the experimental option it does not know; the
        // timestamp option alone decodes as RFC 7323's.
        let (o, n) = encode_options(&TcpHeader { ts, ..TcpHeader::default() }, 0, None);
        let mut alone = WireTcp::new(1, 2, 0, 0);
        alone.set_options_raw(&o[..n]).unwrap();
        let elems: Vec<TcpOptionElement> = alone.options_iterator().map(|e| e.unwrap()).collect();
        assert!(elems.contains(&TcpOptionElement::Timestamp(2_500_000, 1)), "{elems:?}");
        // An ack: CE, ECE and the fast-retransmit request mark.
        let tcp = TcpHeader { ack: 10, ece: true, fr_request: true, ..TcpHeader::default() };
        let mut a = ack(0, tcp);
        a.ecn = lasthop_core::Ecn::Ce;
        let (frame, _) = encode(&a, [1, 0], MAX_SNAPLEN);
        let (ip, rest) = Ipv4Header::from_slice(&frame[14..]).unwrap();
        let (th, _) = WireTcp::from_slice(rest).unwrap();
        assert_eq!(ip.ecn, IpEcn::CongestionExperienced);
        assert!(th.ece && !th.cwr);
        assert_eq!(th.options.as_slice(), &[1, 1, 1, 253, 5, 0x4c, 0x48, b'F']);
    }

    #[test]
    fn oldest_sack_blocks_give_way_when_options_are_full() {
        let mut sack = SackBlocks::default();
        for i in 0..3 {
            sack.push(10_000 * (3 - i), 10_000 * (3 - i) + 500);
        }
        // Three blocks alone fit: 4 + 24 = 28 bytes.
        let (o, n) = encode_options(&TcpHeader { sack, ..TcpHeader::default() }, 0, None);
        assert_eq!((n, o[3]), (28, 26));
        // With SMART (12) and ELN (8), 20 bytes are left: two blocks.
        let all = TcpHeader { sack, smart_echo: Some(1), eln: true, ..TcpHeader::default() };
        let (o, n) = encode_options(&all, 0, None);
        assert_eq!((n, o[3]), (40, 18));
        assert_eq!(&o[4..8], &wire_seq(0, 30_000).to_be_bytes(), "the most recent block stays");
        assert_eq!(o[20 + 3], 253);
    }

    #[test]
    fn sequence_numbers_wrap_at_2_pow_32() {
        let isn = u32::MAX - 99;
        assert_eq!(wire_seq(isn, 0), u32::MAX - 98);
        assert_eq!(wire_seq(isn, 98), u32::MAX);
        assert_eq!(wire_seq(isn, 99), 0);
        assert_eq!(wire_seq(isn, 1099), 1000);
        assert_eq!(wire_seq(isn, (1 << 32) + 5), wire_seq(isn, 5), "64-bit offsets past 4 GB");
        // An ack and a SACK block across the wrap stay 1 segment apart.
        let mut sack = SackBlocks::default();
        sack.push(1098, 2098);
        let (o, _) = encode_options(&TcpHeader { sack, ..TcpHeader::default() }, isn, None);
        assert_eq!(&o[4..12], &[0, 0, 3, 231, 0, 0, 7, 207], "999 and 1999 after the wrap");
    }

    #[test]
    fn isns_are_fixed_distinct_and_addresses_follow_node_indices() {
        assert_eq!(isn(0, PacketKind::Data), splitmix64(0) as u32);
        assert_eq!(isn(0, PacketKind::Ack), splitmix64(1) as u32);
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf, "SplitMix64's published first output");
        let all: std::collections::BTreeSet<u32> =
            (0..100).flat_map(|f| [isn(f, PacketKind::Data), isn(f, PacketKind::Ack)]).collect();
        assert_eq!(all.len(), 200);
        assert_eq!(node_ip(0), [10, 0, 0, 1]);
        assert_eq!(node_ip(254), [10, 0, 0, 255]);
        assert_eq!(node_ip(255), [10, 0, 1, 0]);
        assert_eq!(node_mac(2), [2, 0, 10, 0, 0, 3]);
    }

    #[test]
    fn spec_parses_at_the_first_colon() {
        assert_eq!(CaptureSpec::parse("wireless"), CaptureSpec { link: "wireless".into(), direction: None });
        let s = CaptureSpec::parse("wireless:bs->mh");
        assert_eq!((s.link.as_str(), s.direction.as_deref()), ("wireless", Some("bs->mh")));
        assert_eq!(s.to_string(), "wireless:bs->mh");
    }
}
