//! Queue disciplines. DropTail: a FIFO that refuses an arrival when it
//! already holds its limit, counted in packets or bytes (ns-2's `Queue/DropTail`
//! counts the packets waiting, not the one on the wire; so does this one).
//!
//! A queue holds handles of packets in the run's [`lasthop_core::PacketPool`]
//! with the few header fields that the queue and the simulator's accounting
//! read when a frame goes on the medium (24 bytes an entry), so that a
//! packet that waited long is not read back from memory for them.

use lasthop_core::{Packet, PacketRef};
use std::collections::VecDeque;

/// A waiting packet: its handle and a summary of its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// First payload byte, and payload length (0 for a pure ack).
    pub seq: u64,
    pub pkt: PacketRef,
    /// Size on the wire (what a limit in bytes counts).
    pub size_bytes: u32,
    pub len: u32,
    /// The caller's, carried through the link untouched (the simulator's
    /// goodput slot of the packet's flow on this hop).
    pub tag: u32,
}

impl Waiting {
    pub fn new(pkt: &Packet, r: PacketRef, tag: u32) -> Waiting {
        Waiting { seq: pkt.tcp.seq, pkt: r, size_bytes: pkt.size_bytes, len: pkt.tcp.len, tag }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueLimit {
    /// Most packets waiting, if limited by count.
    pub packets: Option<u32>,
    /// Most bytes waiting, if limited by size.
    pub bytes: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct DropTail {
    limit: QueueLimit,
    packets: VecDeque<Waiting>,
    bytes: u64,
}

impl DropTail {
    /// An empty queue. Its buffer grows as packets arrive (amortised, so a
    /// run's steady state allocates nothing) instead of being sized to the
    /// limit up front: a topology of 10,000 access links would otherwise
    /// commit memory for queues that never fill.
    pub fn new(limit: QueueLimit) -> DropTail {
        DropTail { limit, packets: VecDeque::new(), bytes: 0 }
    }

    /// Add `w` at the tail; false if the queue is full and refused it.
    #[must_use]
    pub fn enqueue(&mut self, w: Waiting) -> bool {
        let size = u64::from(w.size_bytes);
        let over_count = self.limit.packets.is_some_and(|n| self.packets.len() >= n as usize);
        let over_bytes = self.limit.bytes.is_some_and(|b| self.bytes + size > b);
        if over_count || over_bytes {
            return false;
        }
        self.bytes += size;
        self.packets.push_back(w);
        true
    }

    pub fn dequeue(&mut self) -> Option<Waiting> {
        let p = self.packets.pop_front()?;
        self.bytes -= u64::from(p.size_bytes);
        Some(p)
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::{PacketKind, PacketPool, TcpHeader};

    fn pkt(size: u32) -> Waiting {
        let p = Packet {
            uid: 0,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 1,
            size_bytes: size,
            ecn: lasthop_core::Ecn::NotEct,
            tcp: TcpHeader::default(),
        };
        Waiting::new(&p, PacketPool::new().put(p), 0)
    }

    #[test]
    fn packet_limit_drops_the_arrival() {
        let mut q = DropTail::new(QueueLimit { packets: Some(2), bytes: None });
        assert!(q.enqueue(pkt(100)));
        assert!(q.enqueue(pkt(100)));
        assert!(!q.enqueue(pkt(100)));
        assert_eq!(q.dequeue().unwrap().size_bytes, 100);
        assert!(q.enqueue(pkt(100)));
    }

    #[test]
    fn byte_limit_counts_sizes() {
        let mut q = DropTail::new(QueueLimit { packets: None, bytes: Some(1500) });
        assert!(q.enqueue(pkt(1000)));
        assert!(!q.enqueue(pkt(600)));
        assert!(q.enqueue(pkt(500)));
        assert_eq!(q.bytes(), 1500);
    }
}
