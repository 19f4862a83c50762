//! The copies of a flow's data that snoop's buffering base stations keep
//! (Balakrishnan, Seshan, Katz, "Improving reliable transport and handoff
//! performance in cellular wireless networks", ACM Wireless Networks 1(4)
//! 1995, Secs. 4-6; seed 002 Sec. 5.1; elaarag-002.md Sec. 1.7, SNOOP-HO).
//!
//! In the paper the home agent sends each packet for the mobile host to a
//! multicast group: the primary base station forwards it, the buffering
//! stations (the likely next cells) each keep the last packets in a
//! circular buffer, 12 in the implementation, and forward nothing. When the
//! mobile host hands off, the new station sends from its buffer what
//! follows the last packets the host received, then forwards the group.
//!
//! Departure: one ring at the node where the flow's paths to the stations
//! part (the home agent's place) stands for every buffering station's: the
//! stations' copies are not packets on the wired links (they neither load
//! nor queue there), and a station's buffer is read at the handoff without
//! the wired delay from that node to it (under a millisecond on the
//! paper's Ethernet). The stations keep the buffer as a ring, not as a
//! snoop cache in mirror mode: the same packets, since a buffering station
//! sees no acks and frees its cache oldest first.

use lasthop_core::{Packet, PacketKind, Time};
use std::collections::VecDeque;

/// The ring of the buffering stations' copies of one flow's data.
#[derive(Clone, Debug)]
pub struct GroupBuffer {
    flow: u32,
    capacity: usize,
    /// The latest data segments seen, oldest first.
    ring: VecDeque<Packet>,
}

impl GroupBuffer {
    /// The snoop paper's implementation kept 12 packets (24-72 ms of
    /// WaveLAN time at 2 Mb/s, by the packets' sizes).
    pub const PAPER_PACKETS: usize = 12;

    pub fn new(flow: u32, capacity: usize) -> GroupBuffer {
        assert!(capacity > 0, "a buffer of at least one packet (the model checks)");
        GroupBuffer { flow, capacity, ring: VecDeque::with_capacity(capacity) }
    }

    pub fn flow(&self) -> u32 {
        self.flow
    }

    /// A packet of any flow passes the node: the flow's data segments
    /// (first transmissions and the source's retransmissions alike, as the
    /// multicast carries them) are copied into the ring, the oldest copy
    /// overwritten.
    #[inline]
    pub fn on_packet(&mut self, _now: Time, pkt: &Packet) {
        if pkt.flow != self.flow || pkt.kind != PacketKind::Data || pkt.tcp.len == 0 {
            return;
        }
        if self.ring.len() == self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back(*pkt);
    }

    /// The copies, oldest first.
    pub fn copies(&self) -> impl Iterator<Item = &Packet> + '_ {
        self.ring.iter()
    }

    /// What the new primary station sends (Sec. 5): told the last packets
    /// the mobile host received, it drops its copies up to the latest of
    /// them and sends the rest; if it holds none of them, it sends its
    /// whole buffer. lasthop names the host's packets by TCP sequence
    /// (`received_end`: one past the highest byte it received) instead of
    /// the last three IP identifiers: the copies that follow the latest
    /// received are those starting at or after it. A copy below it that
    /// the host lacks (a hole) is not sent: "holes will either be filled or
    /// ignored" (the source repairs it).
    pub fn to_send(&self, received_end: u64) -> impl Iterator<Item = &Packet> + '_ {
        let known = self.ring.iter().any(|p| p.seq_end() == received_end);
        self.ring.iter().filter(move |p| !known || p.tcp.seq >= received_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::TcpHeader;

    fn data(flow: u32, seq: u64) -> Packet {
        let tcp = TcpHeader { seq, len: 1000, ..TcpHeader::default() };
        let (src, dst, size_bytes, ecn) = (0, 2, 1040, lasthop_core::Ecn::NotEct);
        Packet { uid: 0, flow, kind: PacketKind::Data, src, dst, size_bytes, ecn, tcp }
    }

    fn seqs<'a>(it: impl Iterator<Item = &'a Packet>) -> Vec<u64> {
        it.map(|p| p.tcp.seq).collect()
    }

    #[test]
    fn keeps_the_last_packets_of_its_flow_only() {
        let mut g = GroupBuffer::new(0, 3);
        for k in 0..5 {
            g.on_packet(Time::ZERO, &data(0, k * 1000));
            g.on_packet(Time::ZERO, &data(1, k * 1000));
        }
        let mut ack = data(0, 0);
        ack.kind = PacketKind::Ack;
        g.on_packet(Time::ZERO, &ack);
        assert_eq!(seqs(g.copies()), [2000, 3000, 4000]);
    }

    #[test]
    fn sends_what_follows_the_last_received_or_everything_if_unknown() {
        let mut g = GroupBuffer::new(0, 12);
        for k in 0..12 {
            g.on_packet(Time::ZERO, &data(0, k * 1000));
        }
        // The host has up to 8000 (segment 7 was the last received).
        assert_eq!(seqs(g.to_send(8000)), [8000, 9000, 10000, 11000]);
        // It has everything.
        assert!(seqs(g.to_send(12000)).is_empty());
        // Its last is older than the buffer: all of it.
        let mut late = GroupBuffer::new(0, 4);
        for k in 0..12 {
            late.on_packet(Time::ZERO, &data(0, k * 1000));
        }
        assert_eq!(seqs(late.to_send(3000)), [8000, 9000, 10000, 11000]);
    }
}
