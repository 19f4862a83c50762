//! The packet model: an IPv4 datagram carrying a TCP segment.
//!
//! Sequence numbers are 64-bit byte offsets from the start of the flow's data
//! (the ISN is 0 and never wraps); pcap export maps them to 32-bit wire values.
//! Options are stored in fixed-size fields so that a `Packet` is `Copy` and
//! moving one through queues never allocates.
//!
//! Connection setup and teardown are optional (a flow's `handshake`, see
//! `lasthop_tcp::handshake`): without it flows start established, as the
//! source documents measure bulk data phases. With it, the SYN occupies the
//! sequence number just before data byte 0 (the ISN: a SYN's `seq` is 0 and
//! the SYN-ACK's `ack` of 0 acknowledges it), and the FIN the number just
//! after the last data byte (its ack is the flow's length + 1), as RFC 793
//! Sec. 3.3 counts them; pcap's wire numbering (ISN + 1 + offset) agrees.
//! Payload bytes are not carried, only their count.

/// At most this many SACK blocks per ack (RFC 2018 Sec. 3: three when the
/// timestamp option is also used, the common case, and the limit seed 000's
/// E2E-IETF-SACK is described with).
pub const MAX_SACK_BLOCKS: usize = 3;

/// SACK blocks carried by an ack, most recent first (RFC 2018 Sec. 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    blocks: [(u64, u64); MAX_SACK_BLOCKS],
    len: u8,
}

impl SackBlocks {
    pub fn push(&mut self, start: u64, end: u64) -> bool {
        if (self.len as usize) < MAX_SACK_BLOCKS {
            self.blocks[self.len as usize] = (start, end);
            self.len += 1;
            true
        } else {
            false
        }
    }
    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.blocks[..self.len as usize]
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// The ECN field of the IP header (RFC 3168 Sec. 5): whether the sending
/// transport is ECN-capable, and a router's congestion mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ecn {
    /// Not-ECT (00): routers drop instead of marking.
    #[default]
    NotEct,
    /// ECT(0) (10): an ECN-capable transport.
    Ect,
    /// CE (11): congestion experienced, set by a router in place of a drop.
    Ce,
}

/// The TCP timestamp option (RFC 7323 Sec. 3), with values in nanoseconds of
/// simulated time: seed 001 Sec. 6.3 has the sender put a fine-grained
/// clock in it, which the receiver echoes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timestamps {
    /// TSval: the sender's clock when it sent the segment.
    pub val_ns: u64,
    /// TSecr: the TSval being echoed (0 when none).
    pub ecr_ns: u64,
}

/// TCP header fields that lasthop's models read or write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpHeader {
    /// First payload byte's sequence number (byte offset in the flow).
    pub seq: u64,
    /// Payload length, in bytes (0 for a pure ack).
    pub len: u32,
    /// Cumulative acknowledgment: the next byte the receiver expects.
    pub ack: u64,
    /// Advertised receive window, in bytes.
    pub wnd_bytes: u32,
    /// SACK option (RFC 2018).
    pub sack: SackBlocks,
    /// SMART echo (seed 000 Sec. II): the sequence number of the segment that
    /// caused this ack, when the receiver sends it.
    pub smart_echo: Option<u64>,
    /// Explicit loss notification mark (seed 000 Sec. III-A).
    pub eln: bool,
    /// True if this data segment is a retransmission by its sender (for
    /// metrics and traces only: no model may read it to make a decision).
    pub is_retransmit: bool,
    /// ECN-Echo flag (RFC 3168 Sec. 6.1): the receiver saw a CE mark.
    pub ece: bool,
    /// Congestion Window Reduced flag (RFC 3168 Sec. 6.1): the sender has
    /// answered an ECN-Echo.
    pub cwr: bool,
    /// Fast-retransmit request on a duplicate ack (seed 001 Sec. 6.3: the
    /// receiver, or a filtering router, marks a duplicate ack once the
    /// threshold of out-of-order segments is seen, so that the sender need
    /// not count duplicate acks that may have been filtered or lost).
    pub fr_request: bool,
    /// The sender-window option of seed 001 Sec. 8.2: min(cwnd, data in the
    /// send socket buffer) in MSS units, carried on data segments.
    pub sender_window: Option<u16>,
    /// Timestamp option (RFC 7323).
    pub ts: Option<Timestamps>,
    /// SYN flag (RFC 793): on the sender's SYN (a `Data` packet without
    /// payload) and the receiver's SYN-ACK (an `Ack`). Only flows with a
    /// handshake set it.
    pub syn: bool,
    /// FIN flag (RFC 793): on the data segment that ends a bounded transfer
    /// of a flow with a handshake (the FIN rides the last data byte).
    pub fin: bool,
    /// A link-layer loss notification (seed 004 Sec. 3.1, LL-ELSN): an
    /// ack-format packet from the access point to the TCP sender whose
    /// `ack` field carries the first sequence number of the segment the
    /// link layer is retransmitting (ERSN) or has discarded (ELN); two
    /// reserved TCP bits in the paper. Never an acknowledgment.
    pub ll_notice: LlNotice,
    /// WTCP's rate feedback (Sinha et al., MobiCom 1999; elaarag-002.md Sec.
    /// 1.14): the sending rate, in bytes per second, the receiver asks for
    /// in an ack; 0 on every other packet (`lasthop_tcp::wtcp`).
    pub rate_bytes_per_s: u32,
}

/// The LL-ELSN message types (seed 004 Sec. 3.1; codes 01 and 10 of two
/// reserved bits, yun-004.md ambiguity 11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LlNotice {
    /// An ordinary ack (code 00).
    #[default]
    None,
    /// Retransmission notification: the link layer retries the segment.
    Ersn,
    /// Loss notification: the link layer discarded the segment.
    Eln,
    /// Explicit bad state notification (seed 002 Sec. 5.2, Bakshi et al.
    /// 1997): the base station's local recovery of the segment failed once
    /// more; the source restarts its retransmission timer. Not an LL-ELSN
    /// code (lasthop's own control message; `lasthop_agents::bad_state`).
    Ebsn,
}

/// Which way a packet runs within its flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PacketKind {
    /// Data from the flow's sender to its receiver.
    Data,
    /// An acknowledgment from the receiver to the sender.
    Ack,
    /// A datagram of a background traffic source (not TCP: its `tcp`
    /// header is unused but for `seq`, the datagram's index); it is never
    /// acknowledged and no TCP mechanism looks at it.
    Datagram,
}

/// A node's index in its scenario. 32 bits: a run may hold millions of
/// nodes (issue 31); `u32::MAX` is no node.
pub type NodeId = u32;

/// One IPv4 datagram in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique within a run, in creation order.
    pub uid: u64,
    /// Index of the flow this packet belongs to.
    pub flow: u32,
    pub kind: PacketKind,
    /// Source and destination node indices.
    pub src: NodeId,
    pub dst: NodeId,
    /// Size on the wire (IP header + TCP header + payload), in bytes.
    pub size_bytes: u32,
    /// The IP header's ECN field.
    pub ecn: Ecn,
    pub tcp: TcpHeader,
}

impl Packet {
    pub fn is_data(&self) -> bool {
        self.kind == PacketKind::Data
    }
    /// One past the last payload byte.
    pub fn seq_end(&self) -> u64 {
        self.tcp.seq + u64::from(self.tcp.len)
    }
    /// An ack that carries no data (what ACK reconstruction and header
    /// compression treat as an ack). A SYN-ACK is not one: it opens the
    /// connection, and RFC 1144 Sec. 3.2.2 sends SYN segments uncompressed.
    pub fn is_pure_ack(&self) -> bool {
        self.kind == PacketKind::Ack && self.tcp.len == 0 && !self.tcp.syn
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sack_blocks_hold_at_most_their_capacity() {
        let mut s = SackBlocks::default();
        for i in 0..MAX_SACK_BLOCKS as u64 {
            assert!(s.push(i * 10, i * 10 + 5));
        }
        assert!(!s.push(100, 200));
        assert_eq!(s.as_slice().len(), MAX_SACK_BLOCKS);
        assert_eq!(s.as_slice()[0], (0, 5));
        s.clear();
        assert!(s.is_empty());
    }

    #[test]
    fn packet_stays_small_enough_to_copy() {
        // Packets are moved by value between the pool and the models; keep
        // them compact. 168 bytes since node ids are 32 bits (issue 31: 160
        // with 16-bit ids; the pool's slot stays one 64-byte line).
        assert!(std::mem::size_of::<Packet>() <= 168, "{}", std::mem::size_of::<Packet>());
    }
}
