//! IPv4 and TCP on the wire: parsing raw IP packets as a TUN device hands
//! them over (`IFF_TUN | IFF_NO_PI`: the buffer starts at the IPv4 header),
//! and the few in-place rewrites live mode makes, checksums kept right.
//!
//! Follows RFC 791 (the IPv4 header, fragments), RFC 9293 (formerly 793:
//! the TCP header, options kinds 0, 1 and 2), RFC 7323 (window scale, kind
//! 3; timestamps, kind 8), RFC 2018 (SACK-permitted, kind 4; SACK, kind 5),
//! RFC 3168 (the IP header's ECN field, TCP's ECE and CWR flags) and RFC
//! 1071 (the Internet checksum; the TCP checksum over the pseudo-header of
//! RFC 9293 Sec. 3.1).
//!
//! Hand-rolled rather than built on a crate such as `etherparse` (which
//! `lasthop-sim`'s pcap export uses to *write* headers): the parser is
//! small, reads only the fields live mode needs, and must never panic on
//! any input, which is easiest to show when every read is a bounds-checked
//! `get` in this one file (no indexing of input-derived positions, no
//! `unwrap` on input-derived values). The crate's `tests/fuzz.rs` feeds
//! it a million packets, about a third of them random, truncated, bit-flipped
//! or with random option bytes, and the proptests below any bytes at all.
//!
//! Departures and choices:
//! - IP options are skipped, not read (the header length says where TCP
//!   starts). Bytes beyond the IP total length (link padding) are ignored.
//! - Fragments (MF set or a fragment offset) are not reassembled: they
//!   parse as non-TCP datagrams (`tcp` is `None`), not as errors.
//! - Checksums are not verified on parse (a TUN device carries what the
//!   kernel computed); [`verify_checksums`] checks them for tests.
//! - Malformed TCP options (a length below 2, an option running past the
//!   header, a known kind with the wrong length) stop option parsing; the
//!   header and the options read before stay, and
//!   [`TcpOptions::malformed`] says so. The packet is not failed.
//! - At most [`MAX_WIRE_SACK_BLOCKS`] (4) SACK blocks are read: 40 bytes of
//!   option space hold no more (RFC 2018 Sec. 3).
//! - lasthop's ELN mark (seed 000 Sec. III-A) travels in the highest of the
//!   three reserved bits of the TCP header's 13th byte ([`ELN_BIT`], 0x08
//!   of byte 12 counted from 0). RFC 9293 Sec. 3.1 has receivers ignore
//!   reserved bits they do not implement; Linux keeps the nibble as
//!   `res1` of `struct tcphdr` and acts on none of these three bits
//!   (AccECN takes only 0x01), so the kernel at the far end sees an
//!   ordinary segment. (Read from the headers, not yet checked against a
//!   running kernel: the live runner's first namespace test should.) The two
//!   lower reserved bits (mask 0x06) stay LL-ELSN's notice codes, as in
//!   `lasthop_sim::pcap`; the lowest bit of the nibble (0x01, once NS, now
//!   AccECN's AE) is never touched.

use std::fmt;
use std::ops::Range;

/// IP protocol number of TCP.
pub const IPPROTO_TCP: u8 = 6;
/// Smallest IPv4 header, in bytes.
pub const IPV4_MIN_HEADER: usize = 20;
/// Smallest TCP header, in bytes.
pub const TCP_MIN_HEADER: usize = 20;
/// At most this many SACK blocks are read from one option.
pub const MAX_WIRE_SACK_BLOCKS: usize = 4;

/// TCP flag bits of the header's 14th byte (RFC 9293 Sec. 3.1, RFC 3168 Sec. 6.1).
pub mod flags {
    pub const FIN: u8 = 0x01;
    pub const SYN: u8 = 0x02;
    pub const RST: u8 = 0x04;
    pub const PSH: u8 = 0x08;
    pub const ACK: u8 = 0x10;
    pub const URG: u8 = 0x20;
    pub const ECE: u8 = 0x40;
    pub const CWR: u8 = 0x80;
}

/// lasthop's ELN mark: the highest reserved bit of the TCP header's byte 12
/// (module docs).
pub const ELN_BIT: u8 = 0x08;
/// LL-ELSN's notice codes (seed 004 Sec. 3.1): the two lower reserved bits
/// of byte 12, as `lasthop_sim::pcap` writes them (0x02 ERSN, 0x04 ELN,
/// 0x06 lasthop's EBSN).
pub const LL_NOTICE_MASK: u8 = 0x06;

/// Why a buffer is not a packet this module can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireError {
    /// Shorter than the header it must hold, in bytes.
    TooShort { len: usize, need: usize },
    /// The version nibble is not 4.
    NotIpv4 { version: u8 },
    /// The IHL is below 5 words or runs past the total length.
    BadIhl { ihl: u8 },
    /// The IP total length is above the buffer's length, or below the header.
    BadTotalLength { total_len: u16, buf_len: usize },
    /// The TCP data offset is below 5 words or runs past the datagram.
    BadTcpOffset { offset_words: u8, segment_len: usize },
    /// A TCP segment too short for the 20-byte fixed header.
    TcpTooShort { segment_len: usize },
    /// A rewrite that needs TCP was given another datagram.
    NotTcp,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WireError::TooShort { len, need } => write!(f, "packet of {len} bytes, shorter than {need}"),
            WireError::NotIpv4 { version } => write!(f, "IP version {version}, not 4"),
            WireError::BadIhl { ihl } => write!(f, "bad IPv4 header length (IHL {ihl} words)"),
            WireError::BadTotalLength { total_len, buf_len } => {
                write!(f, "IPv4 total length {total_len} does not fit a {buf_len}-byte buffer")
            }
            WireError::BadTcpOffset { offset_words, segment_len } => {
                write!(f, "bad TCP data offset ({offset_words} words in a {segment_len}-byte segment)")
            }
            WireError::TcpTooShort { segment_len } => write!(f, "TCP segment of {segment_len} bytes, under 20"),
            WireError::NotTcp => f.write_str("not a TCP segment"),
        }
    }
}

impl std::error::Error for WireError {}

/// The TCP options live mode reads (RFC 9293, 7323, 2018).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpOptions {
    /// Maximum segment size (kind 2), in bytes.
    pub mss: Option<u16>,
    /// Window-scale shift (kind 3), as sent (RFC 7323 caps its use at 14).
    pub window_scale: Option<u8>,
    /// SACK permitted (kind 4).
    pub sack_permitted: bool,
    /// SACK blocks (kind 5), left and right edges, as sent (first = most recent).
    pub sack: [(u32, u32); MAX_WIRE_SACK_BLOCKS],
    pub sack_len: u8,
    /// Timestamps (kind 8): (TSval, TSecr).
    pub timestamps: Option<(u32, u32)>,
    /// Byte offset of the timestamp option's TSval within the TCP header.
    pub timestamps_at: Option<usize>,
    /// Option parsing stopped at a malformed option.
    pub malformed: bool,
}

impl TcpOptions {
    pub fn sack_blocks(&self) -> &[(u32, u32)] {
        self.sack.get(..usize::from(self.sack_len)).unwrap_or(&[])
    }
}

/// A TCP header (RFC 9293 Sec. 3.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tcp {
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    /// The flag byte ([`flags`]).
    pub flags: u8,
    /// The low nibble of byte 12: three reserved bits and AE (0x01).
    pub reserved: u8,
    pub window: u16,
    /// Header length, in bytes (data offset × 4).
    pub header_len: usize,
    /// The payload's position in the buffer given to [`parse`].
    pub payload: Range<usize>,
    pub options: TcpOptions,
}

impl Tcp {
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
    pub fn fin(&self) -> bool {
        self.has(flags::FIN)
    }
    pub fn syn(&self) -> bool {
        self.has(flags::SYN)
    }
    pub fn rst(&self) -> bool {
        self.has(flags::RST)
    }
    pub fn ack_flag(&self) -> bool {
        self.has(flags::ACK)
    }
    pub fn ece(&self) -> bool {
        self.has(flags::ECE)
    }
    pub fn cwr(&self) -> bool {
        self.has(flags::CWR)
    }
    /// lasthop's ELN mark ([`ELN_BIT`]).
    pub fn eln(&self) -> bool {
        self.reserved & ELN_BIT != 0
    }
    pub fn payload_len(&self) -> usize {
        self.payload.len()
    }
}

/// An IPv4 datagram (RFC 791 Sec. 3.1), TCP read when it carries a whole segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ipv4<'a> {
    /// The datagram, `total_len` bytes (trailing bytes of the buffer cut off).
    pub bytes: &'a [u8],
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub protocol: u8,
    pub ttl: u8,
    /// The ECN field (RFC 3168 Sec. 5): 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE.
    pub ecn: u8,
    pub total_len: u16,
    /// Header length, in bytes.
    pub header_len: usize,
    /// A fragment (MF set or a non-zero offset): never read as TCP.
    pub fragment: bool,
    /// The TCP header: protocol 6 and not a fragment.
    pub tcp: Option<Tcp>,
}

fn be16(b: &[u8], at: usize) -> Option<u16> {
    let s = b.get(at..at.checked_add(2)?)?;
    Some(u16::from_be_bytes([*s.first()?, *s.get(1)?]))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([*s.first()?, *s.get(1)?, *s.get(2)?, *s.get(3)?]))
}

fn byte(b: &[u8], at: usize) -> Option<u8> {
    b.get(at).copied()
}

fn addr(b: &[u8], at: usize) -> Option<[u8; 4]> {
    be32(b, at).map(u32::to_be_bytes)
}

/// Parse a raw IPv4 packet (module docs for what is read and what is not).
pub fn parse(buf: &[u8]) -> Result<Ipv4<'_>, WireError> {
    let short = WireError::TooShort { len: buf.len(), need: IPV4_MIN_HEADER };
    let vihl = byte(buf, 0).ok_or(short)?;
    let version = vihl >> 4;
    if version != 4 {
        return Err(WireError::NotIpv4 { version });
    }
    if buf.len() < IPV4_MIN_HEADER {
        return Err(short);
    }
    let ihl = vihl & 0x0f;
    let header_len = usize::from(ihl) * 4;
    if header_len < IPV4_MIN_HEADER {
        return Err(WireError::BadIhl { ihl });
    }
    let total_len = be16(buf, 2).ok_or(short)?;
    let total = usize::from(total_len);
    if total > buf.len() || total < IPV4_MIN_HEADER {
        return Err(WireError::BadTotalLength { total_len, buf_len: buf.len() });
    }
    if header_len > total {
        return Err(WireError::BadIhl { ihl });
    }
    let bytes = buf.get(..total).ok_or(short)?;
    let frag = be16(bytes, 6).ok_or(short)?;
    // RFC 791: bit 0x2000 is MF, the low 13 bits the fragment offset.
    let fragment = frag & 0x3fff != 0;
    let protocol = byte(bytes, 9).ok_or(short)?;
    let tcp = if protocol == IPPROTO_TCP && !fragment { Some(parse_tcp(bytes, header_len)?) } else { None };
    Ok(Ipv4 {
        bytes,
        src: addr(bytes, 12).ok_or(short)?,
        dst: addr(bytes, 16).ok_or(short)?,
        protocol,
        ttl: byte(bytes, 8).ok_or(short)?,
        ecn: byte(bytes, 1).ok_or(short)? & 0x03,
        total_len,
        header_len,
        fragment,
        tcp,
    })
}

fn parse_tcp(dgram: &[u8], at: usize) -> Result<Tcp, WireError> {
    let seg = dgram.get(at..).unwrap_or(&[]);
    let segment_len = seg.len();
    let short = WireError::TcpTooShort { segment_len };
    if segment_len < TCP_MIN_HEADER {
        return Err(short);
    }
    let b12 = byte(seg, 12).ok_or(short)?;
    let offset_words = b12 >> 4;
    let header_len = usize::from(offset_words) * 4;
    if header_len < TCP_MIN_HEADER || header_len > segment_len {
        return Err(WireError::BadTcpOffset { offset_words, segment_len });
    }
    let options = parse_options(seg.get(TCP_MIN_HEADER..header_len).unwrap_or(&[]));
    Ok(Tcp {
        src_port: be16(seg, 0).ok_or(short)?,
        dst_port: be16(seg, 2).ok_or(short)?,
        seq: be32(seg, 4).ok_or(short)?,
        ack: be32(seg, 8).ok_or(short)?,
        flags: byte(seg, 13).ok_or(short)?,
        reserved: b12 & 0x0f,
        window: be16(seg, 14).ok_or(short)?,
        header_len,
        payload: at + header_len..dgram.len(),
        options,
    })
}

/// Read the option bytes (after the fixed 20 bytes). Stops at the end of
/// option list, at the end of the bytes, or at a malformed option.
fn parse_options(opts: &[u8]) -> TcpOptions {
    let mut o = TcpOptions::default();
    let mut i = 0usize;
    while let Some(kind) = byte(opts, i) {
        match kind {
            0 => break,
            1 => {
                i += 1;
                continue;
            }
            _ => {}
        }
        let Some(len) = byte(opts, i + 1).map(usize::from) else {
            o.malformed = true;
            break;
        };
        let Some(body) = (len >= 2).then(|| opts.get(i + 2..i + len)).flatten() else {
            o.malformed = true;
            break;
        };
        let ok = match (kind, len) {
            (2, 4) => {
                o.mss = be16(body, 0);
                true
            }
            (3, 3) => {
                o.window_scale = byte(body, 0);
                true
            }
            (4, 2) => {
                o.sack_permitted = true;
                true
            }
            (5, _) if len >= 10 && (len - 2) % 8 == 0 => {
                let mut n = 0usize;
                for (k, slot) in o.sack.iter_mut().enumerate() {
                    if let (Some(l), Some(r)) = (be32(body, 8 * k), be32(body, 8 * k + 4)) {
                        *slot = (l, r);
                        n = k + 1;
                    }
                }
                o.sack_len = n as u8;
                true
            }
            (8, 10) => {
                o.timestamps = be32(body, 0).zip(be32(body, 4));
                o.timestamps_at = Some(TCP_MIN_HEADER + i + 2);
                true
            }
            (2..=5, _) | (8, _) => false,
            // Unknown kinds are skipped by their length (RFC 9293 Sec. 3.2).
            _ => true,
        };
        if !ok {
            o.malformed = true;
            break;
        }
        i += len;
    }
    o
}

/// The Internet checksum's one's-complement sum (RFC 1071 Sec. 4.1), not
/// yet folded or complemented, of `data` added to `sum`.
fn ones_sum(mut sum: u64, data: &[u8]) -> u64 {
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        sum += u64::from(u16::from_be_bytes([c[0], c[1]]));
    }
    if let [last] = chunks.remainder() {
        // An odd byte is padded with a zero byte (RFC 1071 Sec. 4.1).
        sum += u64::from(*last) << 8;
    }
    sum
}

fn fold(mut sum: u64) -> u16 {
    while sum >> 16 != 0 {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// The IPv4 header checksum of `header` with its checksum field counted as zero.
fn ip_checksum(header: &[u8]) -> u16 {
    let sum = ones_sum(0, header.get(..10).unwrap_or(&[]));
    fold(ones_sum(sum, header.get(12..).unwrap_or(&[])))
}

/// The TCP checksum of `segment` with its checksum field counted as zero,
/// over the pseudo-header (RFC 9293 Sec. 3.1).
fn tcp_checksum(src: [u8; 4], dst: [u8; 4], segment: &[u8]) -> u16 {
    let mut sum = ones_sum(0, &src);
    sum = ones_sum(sum, &dst);
    sum += u64::from(IPPROTO_TCP);
    sum += segment.len() as u64;
    sum = ones_sum(sum, segment.get(..16).unwrap_or(&[]));
    fold(ones_sum(sum, segment.get(18..).unwrap_or(&[])))
}

fn put16(buf: &mut [u8], at: usize, v: u16) {
    if let Some(s) = buf.get_mut(at..at + 2) {
        s.copy_from_slice(&v.to_be_bytes());
    }
}

fn put32(buf: &mut [u8], at: usize, v: u32) {
    if let Some(s) = buf.get_mut(at..at + 4) {
        s.copy_from_slice(&v.to_be_bytes());
    }
}

/// Recompute the IPv4 header checksum and, for a TCP segment, the TCP
/// checksum (RFC 1071, RFC 9293 Sec. 3.1). Fragments get the IP one only.
pub fn fix_checksums(buf: &mut [u8]) -> Result<(), WireError> {
    let ip = parse(buf)?;
    let (hl, total, is_tcp, src, dst) = (ip.header_len, usize::from(ip.total_len), ip.tcp.is_some(), ip.src, ip.dst);
    let c = ip_checksum(buf.get(..hl).unwrap_or(&[]));
    put16(buf, 10, c);
    if is_tcp {
        let c = tcp_checksum(src, dst, buf.get(hl..total).unwrap_or(&[]));
        put16(buf, hl + 16, c);
    }
    Ok(())
}

/// Whether the IP header checksum and (for TCP) the TCP checksum are right.
pub fn verify_checksums(buf: &[u8]) -> Result<bool, WireError> {
    let ip = parse(buf)?;
    let hl = ip.header_len;
    let ip_ok = ip_checksum(buf.get(..hl).unwrap_or(&[])) == be16(buf, 10).unwrap_or(0);
    let tcp_ok = match ip.tcp {
        Some(_) => {
            let seg = buf.get(hl..usize::from(ip.total_len)).unwrap_or(&[]);
            tcp_checksum(ip.src, ip.dst, seg) == be16(seg, 16).unwrap_or(0)
        }
        None => true,
    };
    Ok(ip_ok && tcp_ok)
}

/// Field changes for [`apply`]: each `Some` is written, `None` left as is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Edit {
    /// The IP header's ECN field (low two bits used).
    pub ecn: Option<u8>,
    /// The acknowledgment number.
    pub ack: Option<u32>,
    /// The window field, unscaled as on the wire.
    pub window: Option<u16>,
    /// ECN-Echo and CWR (RFC 3168 Sec. 6.1).
    pub ece: Option<bool>,
    pub cwr: Option<bool>,
    /// lasthop's ELN mark ([`ELN_BIT`]).
    pub eln: Option<bool>,
    /// LL-ELSN's two-bit notice code (0 none, 1 ERSN, 2 ELN, 3 EBSN) in
    /// [`LL_NOTICE_MASK`].
    pub ll_notice: Option<u8>,
    /// The timestamp option's (TSval, TSecr), written only if the segment
    /// has the option.
    pub timestamps: Option<(u32, u32)>,
}

/// Write `edit` into the packet in `buf` and fix both checksums. The TCP
/// fields need a TCP segment ([`WireError::NotTcp`] otherwise, with
/// nothing written); the ECN field alone works on any IPv4 datagram.
pub fn apply(buf: &mut [u8], edit: &Edit) -> Result<(), WireError> {
    let ip = parse(buf)?;
    let hl = ip.header_len;
    let ts_at = ip.tcp.as_ref().and_then(|t| t.options.timestamps_at);
    let tcp_edit = Edit { ecn: None, ..*edit } != Edit::default();
    if tcp_edit && ip.tcp.is_none() {
        return Err(WireError::NotTcp);
    }
    if let (Some(e), Some(tos)) = (edit.ecn, buf.get_mut(1)) {
        *tos = (*tos & !0x03) | (e & 0x03);
    }
    if let Some(a) = edit.ack {
        put32(buf, hl + 8, a);
    }
    if let Some(w) = edit.window {
        put16(buf, hl + 14, w);
    }
    if let Some(b) = buf.get_mut(hl + 13) {
        for (on, flag) in [(edit.ece, flags::ECE), (edit.cwr, flags::CWR)] {
            match on {
                Some(true) => *b |= flag,
                Some(false) => *b &= !flag,
                None => {}
            }
        }
    }
    if let Some(b) = buf.get_mut(hl + 12) {
        match edit.eln {
            Some(true) => *b |= ELN_BIT,
            Some(false) => *b &= !ELN_BIT,
            None => {}
        }
        if let Some(code) = edit.ll_notice {
            *b = (*b & !LL_NOTICE_MASK) | ((code & 0x03) << 1);
        }
    }
    if let (Some((val, ecr)), Some(at)) = (edit.timestamps, ts_at) {
        put32(buf, hl + at, val);
        put32(buf, hl + at + 4, ecr);
    }
    fix_checksums(buf)
}

/// Set the IP header's ECN field (RFC 3168 Sec. 5; the low two bits of
/// `ecn` are used) and fix the header checksum.
pub fn set_ip_ecn(buf: &mut [u8], ecn: u8) -> Result<(), WireError> {
    apply(buf, &Edit { ecn: Some(ecn), ..Edit::default() })
}

/// Set or clear ECN-Echo (RFC 3168 Sec. 6.1).
pub fn set_ece(buf: &mut [u8], on: bool) -> Result<(), WireError> {
    apply(buf, &Edit { ece: Some(on), ..Edit::default() })
}

/// Set or clear lasthop's ELN mark ([`ELN_BIT`]).
pub fn set_eln(buf: &mut [u8], on: bool) -> Result<(), WireError> {
    apply(buf, &Edit { eln: Some(on), ..Edit::default() })
}

/// Write LL-ELSN's two-bit notice code (0 none, 1 ERSN, 2 ELN, 3 EBSN)
/// into [`LL_NOTICE_MASK`].
pub fn set_ll_notice(buf: &mut [u8], code: u8) -> Result<(), WireError> {
    apply(buf, &Edit { ll_notice: Some(code), ..Edit::default() })
}

/// Rewrite the acknowledgment number.
pub fn set_ack(buf: &mut [u8], ack: u32) -> Result<(), WireError> {
    apply(buf, &Edit { ack: Some(ack), ..Edit::default() })
}

/// Rewrite the window field (unscaled, as on the wire).
pub fn set_window(buf: &mut [u8], window: u16) -> Result<(), WireError> {
    apply(buf, &Edit { window: Some(window), ..Edit::default() })
}

/// Rewrite the timestamp option's values, if the segment has one.
pub fn set_timestamps(buf: &mut [u8], tsval: u32, tsecr: u32) -> Result<(), WireError> {
    apply(buf, &Edit { timestamps: Some((tsval, tsecr)), ..Edit::default() })
}

/// A copy of the TCP segment in `buf` whose options are rebuilt with new
/// SACK blocks (RFC 2018: most recent first; none removes the option): the
/// other options are kept in order, the SACK option goes after them after
/// two NOPs, the header is padded with NOPs to a word, and the IP total
/// length, TCP data offset and both checksums follow. Blocks that do not fit
/// the 40 bytes of option space are left out from the last (RFC 2018 Sec. 3).
pub fn with_sack_blocks(buf: &[u8], blocks: &[(u32, u32)]) -> Result<Vec<u8>, WireError> {
    let ip = parse(buf)?;
    let tcp = ip.tcp.as_ref().ok_or(WireError::NotTcp)?;
    let hl = ip.header_len;
    let opts_start = hl + TCP_MIN_HEADER;
    let opts = buf.get(opts_start..hl + tcp.header_len).unwrap_or(&[]);
    // Keep every option but SACK, EOL and NOP padding.
    let mut kept = Vec::with_capacity(40);
    let mut i = 0usize;
    while let Some(kind) = byte(opts, i) {
        if kind == 0 {
            break;
        }
        if kind == 1 {
            i += 1;
            continue;
        }
        let Some(len) = byte(opts, i + 1).map(usize::from).filter(|&l| l >= 2) else { break };
        let Some(body) = opts.get(i..i + len) else { break };
        if kind != 5 {
            // A 10-byte timestamp option goes after two NOPs, as RFC 7323
            // Appendix A lays it out; others as they were.
            if kind == 8 && kept.len() % 4 == 0 {
                kept.extend_from_slice(&[1, 1]);
            }
            kept.extend_from_slice(body);
        }
        i += len;
    }
    // The SACK option starts two bytes past a word boundary (two NOPs or
    // the end of an odd option before it), its 2 + 8n bytes end on one.
    let aligned = kept.len() + (6 - kept.len() % 4) % 4;
    let n = blocks.len().min(40usize.saturating_sub(aligned + 2) / 8);
    if n > 0 {
        while kept.len() % 4 != 2 {
            kept.push(1);
        }
        kept.push(5);
        kept.push((2 + 8 * n) as u8);
        for &(l, r) in blocks.iter().take(n) {
            kept.extend_from_slice(&l.to_be_bytes());
            kept.extend_from_slice(&r.to_be_bytes());
        }
    }
    while kept.len() % 4 != 0 {
        kept.push(1);
    }
    kept.truncate(40);
    let mut out = Vec::with_capacity(hl + TCP_MIN_HEADER + kept.len() + tcp.payload_len());
    out.extend_from_slice(buf.get(..opts_start).unwrap_or(&[]));
    out.extend_from_slice(&kept);
    out.extend_from_slice(buf.get(tcp.payload.clone()).unwrap_or(&[]));
    let total =
        u16::try_from(out.len()).map_err(|_| WireError::BadTotalLength { total_len: u16::MAX, buf_len: out.len() })?;
    put16(&mut out, 2, total);
    let offset_words = ((TCP_MIN_HEADER + kept.len()) / 4) as u8;
    if let Some(b) = out.get_mut(hl + 12) {
        *b = (*b & 0x0f) | (offset_words << 4);
    }
    fix_checksums(&mut out)?;
    Ok(out)
}

/// A TCP segment to lay out with [`build`] (tests, fuzzing and tools that
/// make packets a host would send).
#[derive(Clone, Copy, Debug, Default)]
pub struct Segment<'a> {
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    /// [`flags`] bits.
    pub flags: u8,
    pub window: u16,
    /// The IP ECN field.
    pub ecn: u8,
    /// Option bytes, padded here with end-of-list bytes to a word; at most
    /// 40 kept.
    pub options: &'a [u8],
    pub payload: &'a [u8],
}

/// A 20-byte IPv4 header (TTL 64, DF, identification 0) and the segment,
/// both checksums right. Total lengths beyond 65535 are cut to it.
pub fn build(seg: &Segment<'_>) -> Vec<u8> {
    let opts = seg.options.get(..seg.options.len().min(40)).unwrap_or(&[]);
    let opt_len = opts.len().div_ceil(4) * 4;
    let tcp_len = TCP_MIN_HEADER + opt_len;
    let total = (IPV4_MIN_HEADER + tcp_len + seg.payload.len()).min(usize::from(u16::MAX));
    let mut b = Vec::with_capacity(total);
    b.extend_from_slice(&[0x45, seg.ecn & 0x03]);
    b.extend_from_slice(&(total as u16).to_be_bytes());
    b.extend_from_slice(&[0, 0, 0x40, 0, 64, IPPROTO_TCP, 0, 0]);
    b.extend_from_slice(&seg.src);
    b.extend_from_slice(&seg.dst);
    b.extend_from_slice(&seg.src_port.to_be_bytes());
    b.extend_from_slice(&seg.dst_port.to_be_bytes());
    b.extend_from_slice(&seg.seq.to_be_bytes());
    b.extend_from_slice(&seg.ack.to_be_bytes());
    b.extend_from_slice(&[((tcp_len / 4) as u8) << 4, seg.flags]);
    b.extend_from_slice(&seg.window.to_be_bytes());
    b.extend_from_slice(&[0, 0, 0, 0]);
    b.extend_from_slice(opts);
    b.resize(IPV4_MIN_HEADER + tcp_len, 0);
    b.extend_from_slice(seg.payload);
    b.truncate(total);
    // Cannot fail: the bytes above are a whole TCP segment.
    let _ = fix_checksums(&mut b);
    b
}

/// Maps 32-bit wire sequence numbers, taken relative to a base (the
/// caller subtracts it, wrapping), onto 64-bit offsets that never wrap:
/// each value is placed nearest to the last one returned (within 2^31 either
/// way), as RFC 7323 Sec. 5.2 reasons about sequence space (PAWS). A value
/// that would fall below 0 (before the base) is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeqUnwrap {
    last: u64,
}

impl SeqUnwrap {
    pub fn new() -> SeqUnwrap {
        SeqUnwrap { last: 0 }
    }
    /// The 64-bit offset of `rel` (wire value minus base, mod 2^32), nearest
    /// to the last one returned; it becomes the last.
    pub fn unwrap(&mut self, rel: u32) -> u64 {
        let v = self.peek(rel);
        self.last = v;
        v
    }
    /// [`Self::unwrap`] without remembering the value.
    pub fn peek(&self, rel: u32) -> u64 {
        let delta = i64::from(rel.wrapping_sub(self.last as u32) as i32);
        self.last.checked_add_signed(delta).unwrap_or(0)
    }
    /// The last offset returned.
    pub fn last(&self) -> u64 {
        self.last
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A checksum written the plain way, for checking the module's: sum
    /// 16-bit words in a u32 with end-around carry, then complement.
    pub(crate) fn reference_checksum(words: &[u8]) -> u16 {
        let mut sum: u32 = 0;
        let mut i = 0;
        while i < words.len() {
            let hi = words[i] as u32;
            let lo = if i + 1 < words.len() { words[i + 1] as u32 } else { 0 };
            sum += (hi << 8) | lo;
            if sum > 0xffff {
                sum = (sum & 0xffff) + 1;
            }
            i += 2;
        }
        !(sum as u16)
    }

    /// Both checksums by [`reference_checksum`], as stored ones must read.
    pub(crate) fn reference_ok(p: &[u8]) -> bool {
        let ihl = ((p[0] & 0x0f) as usize) * 4;
        let total = u16::from_be_bytes([p[2], p[3]]) as usize;
        if reference_checksum(&p[..ihl]) != 0 {
            return false;
        }
        if p[9] != 6 {
            return true;
        }
        let seg = &p[ihl..total];
        let mut pseudo = Vec::new();
        pseudo.extend_from_slice(&p[12..20]);
        pseudo.extend_from_slice(&[0, 6]);
        pseudo.extend_from_slice(&(seg.len() as u16).to_be_bytes());
        pseudo.extend_from_slice(seg);
        reference_checksum(&pseudo) == 0
    }

    /// A SYN from 10.0.0.1:40000 to 10.0.0.2:5001 laid out as Linux sends
    /// one (MSS 1460, SACK permitted, timestamps, window scale 7), built by
    /// hand; its checksums (IP 0x0a74, TCP 0xbde5) were computed outside
    /// this crate, with Python's RFC 1071 sum, so that they check both
    /// implementations here.
    pub(crate) const LINUX_SYN: [u8; 60] = [
        0x45, 0x00, 0x00, 0x3c, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x06, 0x0a, 0x74, 0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00,
        0x00, 0x02, 0x9c, 0x40, 0x13, 0x89, 0xb3, 0x2c, 0x8e, 0x7f, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x02, 0xfa, 0xf0,
        0xbd, 0xe5, 0x00, 0x00, 0x02, 0x04, 0x05, 0xb4, 0x04, 0x02, 0x08, 0x0a, 0x6e, 0x62, 0x1b, 0x4f, 0x00, 0x00,
        0x00, 0x00, 0x01, 0x03, 0x03, 0x07,
    ];

    #[test]
    fn parses_a_syn_with_its_options() {
        let ip = parse(&LINUX_SYN).unwrap();
        assert_eq!(ip.src, [10, 0, 0, 1]);
        assert_eq!(ip.dst, [10, 0, 0, 2]);
        assert_eq!((ip.protocol, ip.ttl, ip.ecn, ip.total_len, ip.header_len), (6, 64, 0, 60, 20));
        let t = ip.tcp.unwrap();
        assert_eq!((t.src_port, t.dst_port, t.seq, t.ack), (40000, 5001, 0xb32c_8e7f, 0));
        assert!(t.syn() && !t.ack_flag() && !t.fin() && !t.rst() && !t.ece() && !t.cwr() && !t.eln());
        assert_eq!((t.header_len, t.window, t.payload), (40, 0xfaf0, 60..60));
        let o = t.options;
        assert_eq!((o.mss, o.window_scale, o.sack_permitted), (Some(1460), Some(7), true));
        assert_eq!(o.timestamps, Some((0x6e62_1b4f, 0)));
        assert!(!o.malformed && o.sack_blocks().is_empty());
    }

    #[test]
    fn checksums_agree_with_an_independent_implementation() {
        // The stored packet's checksums are zeroed, then computed here; the
        // plain reference must accept them.
        let mut p = LINUX_SYN;
        p[10] = 0;
        p[11] = 0;
        p[36] = 0;
        p[37] = 0;
        assert!(!reference_ok(&p));
        fix_checksums(&mut p).unwrap();
        assert!(reference_ok(&p));
        assert!(verify_checksums(&p).unwrap());
        // A made-up segment of odd length with a payload.
        let mut q = LINUX_SYN.to_vec();
        q.extend_from_slice(b"hello");
        q[3] = 65;
        fix_checksums(&mut q).unwrap();
        assert!(reference_ok(&q));
        q[62] ^= 1;
        assert!(!verify_checksums(&q).unwrap());
    }

    #[test]
    fn stored_checksums_are_recomputed_unchanged() {
        let mut p = LINUX_SYN;
        let ip_sum = [p[10], p[11]];
        let tcp_sum = [p[36], p[37]];
        assert!(reference_ok(&p), "the captured bytes are self-consistent");
        fix_checksums(&mut p).unwrap();
        assert_eq!([p[10], p[11]], ip_sum);
        assert_eq!([p[36], p[37]], tcp_sum);
    }

    #[test]
    fn rewrites_keep_checksums_valid_and_round_trip() {
        let mut p = LINUX_SYN;
        set_ece(&mut p, true).unwrap();
        assert!(parse(&p).unwrap().tcp.unwrap().ece() && reference_ok(&p));
        set_eln(&mut p, true).unwrap();
        let t = parse(&p).unwrap().tcp.unwrap();
        assert!(t.eln() && t.header_len == 40 && reference_ok(&p));
        set_ack(&mut p, 0xdead_beef).unwrap();
        assert_eq!(parse(&p).unwrap().tcp.unwrap().ack, 0xdead_beef);
        set_ip_ecn(&mut p, 3).unwrap();
        assert_eq!(parse(&p).unwrap().ecn, 3);
        set_window(&mut p, 77).unwrap();
        set_timestamps(&mut p, 5, 6).unwrap();
        set_ll_notice(&mut p, 2).unwrap();
        let t = parse(&p).unwrap().tcp.unwrap();
        assert_eq!((t.window, t.options.timestamps, t.reserved), (77, Some((5, 6)), ELN_BIT | 0x04));
        assert!(reference_ok(&p));
        // Undo everything: the original bytes come back, checksums included.
        set_ll_notice(&mut p, 0).unwrap();
        set_timestamps(&mut p, 0x6e62_1b4f, 0).unwrap();
        set_window(&mut p, 0xfaf0).unwrap();
        set_ip_ecn(&mut p, 0).unwrap();
        set_ack(&mut p, 0).unwrap();
        set_eln(&mut p, false).unwrap();
        set_ece(&mut p, false).unwrap();
        assert_eq!(p, LINUX_SYN);
    }

    #[test]
    fn sack_blocks_are_rebuilt_beside_the_other_options() {
        let out = with_sack_blocks(&LINUX_SYN, &[(10, 20), (30, 40), (50, 60), (70, 80)]).unwrap();
        assert!(reference_ok(&out));
        let ip = parse(&out).unwrap();
        let t = ip.tcp.unwrap();
        // MSS 4, SACK-permitted 2, timestamps 10, window scale 3: 19
        // bytes, 3 NOPs, then kind, length and two blocks fill the 40.
        assert_eq!(t.options.sack_blocks(), &[(10, 20), (30, 40)]);
        assert_eq!(t.header_len, 60);
        assert_eq!(
            (t.options.mss, t.options.window_scale, t.options.timestamps),
            (Some(1460), Some(7), Some((0x6e62_1b4f, 0)))
        );
        assert!(!t.options.malformed);
        assert_eq!(usize::from(ip.total_len), out.len());
        // Removing them again.
        let back = with_sack_blocks(&out, &[]).unwrap();
        assert!(parse(&back).unwrap().tcp.unwrap().options.sack_blocks().is_empty() && reference_ok(&back));
    }

    #[test]
    fn errors_name_what_is_wrong() {
        assert_eq!(parse(&[]), Err(WireError::TooShort { len: 0, need: 20 }));
        assert_eq!(parse(&[0x60; 40]), Err(WireError::NotIpv4 { version: 6 }));
        let mut p = LINUX_SYN;
        p[0] = 0x44;
        assert_eq!(parse(&p), Err(WireError::BadIhl { ihl: 4 }));
        assert_eq!(parse(&LINUX_SYN[..50]), Err(WireError::BadTotalLength { total_len: 60, buf_len: 50 }));
        let mut p = LINUX_SYN;
        p[32] = 0x40;
        assert_eq!(parse(&p), Err(WireError::BadTcpOffset { offset_words: 4, segment_len: 40 }));
        assert!(WireError::NotIpv4 { version: 6 }.to_string().contains("version 6"));
        // Trailing bytes beyond the total length are ignored.
        let mut long = LINUX_SYN.to_vec();
        long.extend_from_slice(&[0xff; 7]);
        assert_eq!(parse(&long).unwrap().bytes.len(), 60);
        // A fragment is a datagram, not TCP.
        let mut f = LINUX_SYN;
        f[6] = 0x20;
        let ip = parse(&f).unwrap();
        assert!(ip.fragment && ip.tcp.is_none());
    }

    #[test]
    fn malformed_options_stop_parsing_but_keep_the_header() {
        let mut p = LINUX_SYN;
        // Kind 3 (window scale) with length 1: malformed, after MSS and SACK-permitted.
        p[47] = 1;
        p[46] = 3;
        let t = parse(&p).unwrap().tcp.unwrap();
        assert!(t.options.malformed);
        assert_eq!((t.options.mss, t.options.sack_permitted, t.options.timestamps), (Some(1460), true, None));
        assert_eq!(t.seq, 0xb32c_8e7f);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// Any bytes: parse, the rewrites and the option rebuild never panic.
        #[test]
        fn nothing_panics_on_any_bytes(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..120)) {
            let _ = parse(&bytes);
            let mut b = bytes.clone();
            let _ = fix_checksums(&mut b);
            let _ = verify_checksums(&b);
            let all = Edit {
                ecn: Some(3),
                ack: Some(1),
                window: Some(2),
                ece: Some(true),
                cwr: Some(true),
                eln: Some(true),
                ll_notice: Some(3),
                timestamps: Some((4, 5)),
            };
            let _ = apply(&mut b, &all);
            let _ = with_sack_blocks(&bytes, &[(1, 2), (3, 4)]);
        }

        /// A well-formed segment with any option bytes parses, keeps its
        /// header and payload, and rebuilding its SACK option keeps it valid.
        #[test]
        fn any_options_keep_the_header(
            opts in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..41),
            payload in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
            seq in proptest::prelude::any::<u32>(),
        ) {
            let p = build(&Segment { src: [1, 2, 3, 4], dst: [5, 6, 7, 8], seq, options: &opts, payload: &payload, ..Segment::default() });
            let t = parse(&p).unwrap().tcp.unwrap();
            proptest::prop_assert_eq!(t.seq, seq);
            proptest::prop_assert_eq!(t.header_len, 20 + opts.len().min(40).div_ceil(4) * 4);
            proptest::prop_assert_eq!(&p[t.payload.clone()], &payload[..]);
            proptest::prop_assert!(reference_ok(&p));
            let q = with_sack_blocks(&p, &[(seq, seq.wrapping_add(9))]).unwrap();
            proptest::prop_assert!(reference_ok(&q));
            let tq = parse(&q).unwrap().tcp.unwrap();
            proptest::prop_assert_eq!(&q[tq.payload.clone()], &payload[..]);
        }
    }

    #[test]
    fn unwrap_is_nearest_to_the_last_value_across_two_to_the_32() {
        let mut u = SeqUnwrap::new();
        assert_eq!(u.unwrap(1000), 1000);
        assert_eq!(u.unwrap(0x8000_0000), 0x8000_0000);
        assert_eq!(u.unwrap(0xffff_ff00), 0xffff_ff00);
        // Past 2^32: the low bits wrap, the offset does not.
        assert_eq!(u.unwrap(0x100), (1u64 << 32) + 0x100);
        // An old value from just before the wrap stays before it.
        assert_eq!(u.unwrap(0xffff_fff0), 0xffff_fff0);
        assert_eq!(u.unwrap(5), (1u64 << 32) + 5);
        // Before the base: 0, never a value 4 GB ahead.
        let mut v = SeqUnwrap::new();
        assert_eq!(v.unwrap(u32::MAX), 0);
        assert_eq!(v.peek(7), 7);
    }
}
