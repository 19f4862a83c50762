//! ELN generated at the base station (seed 000 Sec. V-B): "the base station
//! ... can ... mark the duplicate acknowledgments ... using the sequence
//! numbers it has seen". A data segment that passed the base station toward
//! the mobile host but that the mobile host's acks still ask for was lost
//! after the base station, on the wireless hop; acks whose cumulative point
//! is such a segment get the ELN mark on their way to the sender.
//!
//! An ack for a segment still in flight on the wireless hop is marked too;
//! senders act on the mark only for duplicate acks, and a duplicate ack for a
//! segment the base station forwarded means that segment did not arrive in
//! order (lost, or overtaken: the one-hop wireless link does not reorder).
//! Departure: one marker watches one flow.

use lasthop_core::{Packet, PacketKind, RangeSet, Time};

#[derive(Clone, Debug)]
pub struct ElnMarker {
    flow: u32,
    /// Data bytes forwarded toward the receiver.
    seen: RangeSet,
    /// Acks marked, for reports and tests.
    pub marked: u64,
}

impl ElnMarker {
    pub fn new(flow: u32) -> ElnMarker {
        ElnMarker { flow, seen: RangeSet::default(), marked: 0 }
    }

    pub fn flow(&self) -> u32 {
        self.flow
    }

    pub fn on_packet(&mut self, _now: Time, pkt: &mut Packet) {
        if pkt.flow != self.flow {
            return;
        }
        match pkt.kind {
            PacketKind::Data if pkt.tcp.len > 0 => {
                self.seen.insert(pkt.tcp.seq, pkt.seq_end());
            }
            PacketKind::Ack if self.seen.contains(pkt.tcp.ack) => {
                pkt.tcp.eln = true;
                self.marked += 1;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::TcpHeader;

    fn data(seq: u64) -> Packet {
        let tcp = TcpHeader { seq, len: 1000, ..TcpHeader::default() };
        Packet {
            uid: 0,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 2,
            size_bytes: 1040,
            ecn: lasthop_core::Ecn::NotEct,
            tcp,
        }
    }
    fn ack(a: u64) -> Packet {
        let tcp = TcpHeader { ack: a, ..TcpHeader::default() };
        Packet {
            uid: 0,
            flow: 0,
            kind: PacketKind::Ack,
            src: 2,
            dst: 0,
            size_bytes: 40,
            ecn: lasthop_core::Ecn::NotEct,
            tcp,
        }
    }

    #[test]
    fn marks_duplicates_for_segments_that_passed_the_base_station() {
        // Fig. 1 at the base station: 0..5000 pass toward the mobile host;
        // 0 and 1000 are then lost on the wireless hop.
        let mut m = ElnMarker::new(0);
        let t = Time::ZERO;
        for seq in (0..5000).step_by(1000) {
            m.on_packet(t, &mut data(seq));
        }
        for _ in 0..3 {
            let mut a = ack(0);
            m.on_packet(t, &mut a);
            assert!(a.tcp.eln, "duplicate ack for 0, which passed: lost on the wireless hop");
        }
        // A segment lost before the base station never passed it: no mark.
        let mut a = ack(7000);
        m.on_packet(t, &mut a);
        assert!(!a.tcp.eln);
        assert_eq!(m.marked, 3);
    }
}
