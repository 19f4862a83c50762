//! Snoop's negative acknowledgments for data from the mobile host
//! (Balakrishnan, Seshan, Amir, Katz, "Improving TCP/IP performance over
//! wireless networks", MobiCom 1995 / ACM Wireless Networks 1(4) 1995, Sec.
//! 3; quoted by seed 002 Sec. 5.1; elaarag-002.md Sec. 1.7, SNOOP-NACK).
//!
//! On a bulk transfer from the mobile host the base station cannot
//! retransmit (it holds nothing the fixed host lacks), but it sees the
//! holes in what arrives over the wireless hop a whole wired round trip
//! before the fixed host's duplicate acks reach the mobile host. It tracks
//! the segments lost in each window from the mobile host and sends it
//! NACKs "when either a threshold number of packets (from a single window)
//! have reached the base station or when a certain amount of time has
//! expired without any new packets from the mobile", encoded as TCP's SACK
//! option: the only change at the mobile host is SACK processing (RFC 6675
//! recovery), and nothing changes at the fixed host.
//!
//! Rules here (\[I\] where the paper and the survey are silent):
//!
//! - A NACK is a pure ack from the fixed host's address to the mobile
//!   host's, on the flow: its cumulative ack is the latest one the fixed
//!   host sent through the base station (so it never acknowledges data end
//!   to end), its window that ack's, and its SACK blocks the ranges the base
//!   station has forwarded beyond it, the most recently extended first (RFC
//!   2018 Sec. 4), at most three. A range may begin at that ack (forwarded,
//!   its ack from the fixed host still on the way): SACKed, the mobile host
//!   does not take it for lost.
//! - A hole is a gap below the highest byte forwarded and above that ack.
//!   Each data segment from the mobile host that arrives while a hole is
//!   open counts; at `threshold_packets` of them (3 \[I\]: the fast
//!   retransmit's threshold) a NACK goes and the count restarts.
//! - With a hole open and no new segment from the mobile host for
//!   `idle_ns`, one NACK goes (\[I\]: two wireless round trips, computed
//!   from the wireless link's delay and rate rather than measured; the
//!   scenario sets it). It is armed again by the next segment.
//! - The fixed host's acks pass unchanged; they close the holes below them.

use lasthop_core::packet::MAX_SACK_BLOCKS;
use lasthop_core::{Ecn, NodeId, Packet, PacketKind, SackBlocks, TcpHeader, Time};

/// Parameters of the NACK agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnoopNackConfig {
    /// Segments arriving past an open hole before a NACK goes. \[I\] 3.
    pub threshold_packets: u32,
    /// Time without a new segment from the mobile host, a hole open,
    /// before a NACK goes, in ns. \[I\] two wireless round trips.
    pub idle_ns: u64,
    /// A NACK's size on the wire, in bytes (the flow's ack size).
    pub ack_bytes: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnoopNackStats {
    /// NACKs sent on the threshold, and on the idle timer.
    pub nacks_threshold: u64,
    pub nacks_idle: u64,
}

/// The agent for one flow whose data comes from the mobile host.
#[derive(Clone, Debug)]
pub struct SnoopNack {
    cfg: SnoopNackConfig,
    flow: u32,
    /// The latest cumulative ack from the fixed host, and its window.
    acked: u64,
    wnd_bytes: u32,
    /// Ranges forwarded above `acked`, sorted, disjoint, not adjacent; with
    /// the order each was last extended (a counter), for the SACK order.
    /// (Not `lasthop_core::ranges::RangeSet`: that keeps neither the order
    /// of extension RFC 2018 orders blocks by nor a way to drop what an ack
    /// covers.)
    ranges: Vec<(u64, u64, u64)>,
    touched: u64,
    /// Segments arrived past an open hole since the last NACK.
    past_hole: u32,
    /// When the idle NACK goes (`Time::NEVER`: not armed).
    idle_at: Time,
    /// The addresses of the flow's data (mobile host -> fixed host).
    ends: Option<(NodeId, NodeId)>,
    pending: Option<Packet>,
    pub stats: SnoopNackStats,
}

impl SnoopNack {
    pub fn new(cfg: SnoopNackConfig, flow: u32) -> SnoopNack {
        SnoopNack {
            cfg,
            flow,
            acked: 0,
            wnd_bytes: 0,
            ranges: Vec::with_capacity(8),
            touched: 0,
            past_hole: 0,
            idle_at: Time::NEVER,
            ends: None,
            pending: None,
            stats: SnoopNackStats::default(),
        }
    }

    pub fn flow(&self) -> u32 {
        self.flow
    }

    /// A hole is open: something above the latest ack has not arrived
    /// below what has.
    fn hole_open(&self) -> bool {
        self.ranges.first().is_some_and(|&(start, _, _)| start > self.acked) || self.ranges.len() > 1
    }

    /// A packet of the flow passes the base station: a segment from the
    /// mobile host is recorded, an ack from the fixed host closes holes;
    /// both go on unchanged.
    pub fn on_packet(&mut self, now: Time, pkt: &Packet) {
        match pkt.kind {
            PacketKind::Data if pkt.tcp.len > 0 => {
                self.ends = Some((pkt.src, pkt.dst));
                self.record(pkt.tcp.seq, pkt.seq_end());
                if self.hole_open() {
                    self.past_hole += 1;
                    self.idle_at = now.plus_ns(self.cfg.idle_ns);
                    if self.past_hole >= self.cfg.threshold_packets {
                        self.stats.nacks_threshold += 1;
                        self.nack();
                    }
                } else {
                    self.past_hole = 0;
                    self.idle_at = Time::NEVER;
                }
            }
            PacketKind::Ack => {
                if pkt.tcp.ack >= self.acked {
                    self.acked = pkt.tcp.ack;
                    self.wnd_bytes = pkt.tcp.wnd_bytes;
                }
                let acked = self.acked;
                self.ranges.retain_mut(|r| {
                    r.0 = r.0.max(acked);
                    r.1 > acked
                });
                if !self.hole_open() {
                    self.past_hole = 0;
                    self.idle_at = Time::NEVER;
                }
            }
            PacketKind::Data | PacketKind::Datagram => {}
        }
    }

    /// Add [start, end) to the ranges (merging what it meets or touches).
    fn record(&mut self, start: u64, end: u64) {
        let start = start.max(self.acked);
        if end <= start {
            return;
        }
        self.touched += 1;
        let i = self.ranges.partition_point(|&(_, e, _)| e < start);
        let mut j = i;
        let (mut s, mut e) = (start, end);
        while j < self.ranges.len() && self.ranges[j].0 <= e {
            s = s.min(self.ranges[j].0);
            e = e.max(self.ranges[j].1);
            j += 1;
        }
        self.ranges.splice(i..j, [(s, e, self.touched)]);
    }

    fn nack(&mut self) {
        self.past_hole = 0;
        let Some((mobile, fixed)) = self.ends else { return };
        // The block extended last first (RFC 2018 Sec. 4), then the one at
        // the ack if any (else the mobile host would take its segments for
        // lost), then the newest of the rest.
        let mut order: Vec<(u64, u64, u64)> = self.ranges.clone();
        order.sort_by_key(|r| std::cmp::Reverse(r.2));
        if let Some(k) = order.iter().position(|r| r.0 <= self.acked).filter(|&k| k > 1) {
            let at_ack = order.remove(k);
            order.insert(1, at_ack);
        }
        let mut sack = SackBlocks::default();
        for &(s, e, _) in order.iter().take(MAX_SACK_BLOCKS) {
            sack.push(s, e);
        }
        let tcp = TcpHeader { ack: self.acked, wnd_bytes: self.wnd_bytes, sack, ..TcpHeader::default() };
        self.pending = Some(Packet {
            uid: 0,
            flow: self.flow,
            kind: PacketKind::Ack,
            src: fixed,
            dst: mobile,
            size_bytes: self.cfg.ack_bytes,
            ecn: Ecn::NotEct,
            tcp,
        });
    }

    /// The NACK to send, if one is due.
    pub fn poll_transmit(&mut self, _now: Time) -> Option<Packet> {
        self.pending.take()
    }

    pub fn poll_at(&self) -> Time {
        self.idle_at
    }

    pub fn on_timer(&mut self, now: Time) {
        if self.idle_at <= now {
            self.idle_at = Time::NEVER;
            if self.hole_open() {
                self.stats.nacks_idle += 1;
                self.nack();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;
    const CFG: SnoopNackConfig = SnoopNackConfig { threshold_packets: 3, idle_ns: 100_000_000, ack_bytes: 40 };

    fn data(seq: u64) -> Packet {
        let tcp = TcpHeader { seq, len: MSS, ..TcpHeader::default() };
        Packet { uid: 0, flow: 0, kind: PacketKind::Data, src: 2, dst: 0, size_bytes: 1040, ecn: Ecn::NotEct, tcp }
    }

    fn ack(a: u64) -> Packet {
        let tcp = TcpHeader { ack: a, wnd_bytes: 64_000, ..TcpHeader::default() };
        Packet { uid: 0, flow: 0, kind: PacketKind::Ack, src: 0, dst: 2, size_bytes: 40, ecn: Ecn::NotEct, tcp }
    }

    fn ms(x: u64) -> Time {
        Time::from_ns(x * 1_000_000)
    }

    /// Segment 1000 lost on the uplink: the third segment past it brings a
    /// NACK from the fixed host's address acking what the fixed host acked,
    /// SACKing what arrived beyond, the newest block first; the fixed host's
    /// own acks pass and close the hole.
    #[test]
    fn the_third_segment_past_a_hole_brings_a_nack() {
        let mut n = SnoopNack::new(CFG, 0);
        n.on_packet(ms(0), &data(0));
        n.on_packet(ms(1), &ack(1000));
        for (t, seq) in [(2, 2000), (3, 3000)] {
            n.on_packet(ms(t), &data(seq));
            assert!(n.poll_transmit(ms(t)).is_none(), "no NACK before the threshold");
        }
        n.on_packet(ms(4), &data(4000));
        let nack = n.poll_transmit(ms(4)).expect("a NACK at the third");
        assert_eq!((nack.kind, nack.src, nack.dst, nack.size_bytes), (PacketKind::Ack, 0, 2, 40));
        assert_eq!((nack.tcp.ack, nack.tcp.wnd_bytes, nack.tcp.len), (1000, 64_000, 0));
        assert_eq!(nack.tcp.sack.as_slice(), &[(2000, 5000)]);
        assert_eq!(n.stats.nacks_threshold, 1);
        // The retransmission fills the hole: no more NACKs, the timer off.
        n.on_packet(ms(5), &data(1000));
        n.on_packet(ms(6), &data(5000));
        n.on_packet(ms(7), &data(6000));
        n.on_packet(ms(8), &data(7000));
        assert!(n.poll_transmit(ms(8)).is_none());
        assert_eq!(n.poll_at(), Time::NEVER);
    }

    /// Two holes: the blocks name both ranges beyond, the one extended last
    /// first; the fixed host's ack past the first hole leaves the second.
    #[test]
    fn blocks_come_newest_first_and_acks_close_holes_below_them() {
        let mut n = SnoopNack::new(CFG, 0);
        n.on_packet(ms(0), &data(0));
        n.on_packet(ms(1), &data(2000));
        n.on_packet(ms(2), &data(4000));
        n.on_packet(ms(3), &data(2000 + MSS as u64));
        let nack = n.poll_transmit(ms(3)).expect("a NACK");
        assert_eq!(nack.tcp.ack, 0);
        assert_eq!(nack.tcp.sack.as_slice(), &[(2000, 4000 + MSS as u64), (0, 1000)]);
        n.on_packet(ms(4), &ack(1000));
        assert!(n.hole_open(), "1000 is still missing");
        n.on_packet(ms(5), &data(1000));
        n.on_packet(ms(6), &ack(5000));
        assert!(!n.hole_open());
    }

    /// A hole and then silence: one NACK when the idle time has passed,
    /// none again until a new segment arrives.
    #[test]
    fn silence_after_a_hole_brings_one_nack() {
        let mut n = SnoopNack::new(CFG, 0);
        n.on_packet(ms(0), &data(0));
        n.on_packet(ms(1), &data(2000));
        assert_eq!(n.poll_at(), ms(101));
        n.on_timer(ms(100));
        assert!(n.poll_transmit(ms(100)).is_none(), "not before the idle time");
        n.on_timer(ms(101));
        let nack = n.poll_transmit(ms(101)).expect("the idle NACK");
        assert_eq!(nack.tcp.sack.as_slice(), &[(2000, 3000), (0, 1000)]);
        assert_eq!((n.stats.nacks_idle, n.poll_at()), (1, Time::NEVER));
    }
}
