//! Base-station notices of a bad wireless link (seed 002 Sec. 5.2;
//! elaarag-002.md Sec. 1.9): EBSN, explicit bad state notification (Bakshi,
//! Krishna, Vaidya and Pradhan, "Improving performance of TCP over wireless
//! networks", ICDCS 1997), and the ECN-at-the-base-station comparator the
//! survey sets beside it.
//!
//! Both sit on a base station that recovers losses locally: the agent is a
//! link-layer [`Snoop`] (LL: local retransmissions, no duplicate suppressed,
//! seed 000 Sec. III-B) that tells the source, in one of two ways, that its
//! wireless link is bad.
//!
//! - EBSN. "While the wireless link is in a bad state the BS sends an EBSN
//!   to the source; on an EBSN the source re-arms its retransmission timer"
//!   (seed 002 Sec. 5.2: "reset the timeout at the fixed host during local
//!   recovery"), without touching cwnd (`Sender::restart_rto`, F4). The
//!   primary sends one EBSN per unsuccessful local transmission attempt (a
//!   link-level ack not received; elaarag-002.md [K]); here an attempt has
//!   failed when the local timer expires without the ack that would free the
//!   segment, so each timer retransmission raises one EBSN (the reference's
//!   reading [I]). A retransmission caused by duplicate acks raises none:
//!   acks are crossing the link, so the source's timer is being fed. The
//!   notice is a 40-byte control packet (the reference's [I]), an
//!   ack-format packet from the mobile host's address to the source with
//!   [`LlNotice::Ebsn`], its `ack` the first byte of the segment retried and
//!   its `seq` the time it was raised (as seed 004's LL-ELSN notices). It
//!   travels the wired path like any packet and can be lost there. The
//!   survey's point (Sec. 5.2) is that it also covers packets already in
//!   flight when the bad state began, which ECN cannot.
//! - ECN-BS. The base station marks acks with ECN-Echo "while the link is
//!   bad" (seed 002 Sec. 5.2); the source, ECN-capable, halves its window
//!   once per round trip (RFC 3168 Sec. 6.1.2) and is not kept from timing
//!   out. The link is bad from a timer retransmission until the next new
//!   ack from the mobile host, and that ack is marked: in a bad period that
//!   loses every packet no ack crosses the link, so the first one after it
//!   is the first the base station can mark (lasthop's reading [I]; the
//!   survey gives no rule).
//!
//! Departures: the primary's base station retransmits at the link layer
//! with link-level acks; here the local recovery is the LL agent's, whose
//! evidence of a failed attempt is its timer (no backoff; every
//! `rto_ns()`, at least 200 ms), so EBSNs come at that pace. Bakshi et al.
//! retry without limit; the schemes here do too (`max_local_rexmits`
//! unbounded), which the scenario can lower.

use crate::snoop::{LocalRetransmit, Snoop, SnoopConfig};
use crate::Verdict;
use lasthop_core::{Ecn, LlNotice, Packet, PacketKind, TcpHeader, Time};

/// How the base station tells the source its link is bad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadStateNotice {
    /// Explicit bad state notification (Bakshi et al. 1997).
    Ebsn,
    /// ECN-Echo on the acks while the link is bad (the survey's comparator).
    EcnBs,
}

/// Bytes of an EBSN (elaarag-002.md Sec. 1.9 [I]: a 40-byte control packet).
pub const EBSN_BYTES: u32 = 40;

/// What the agent has counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BadStateStats {
    /// EBSNs sent toward the source.
    pub ebsns_sent: u64,
    /// Acks marked with ECN-Echo (ECN-BS).
    pub acks_marked: u64,
}

/// A link-layer agent that notifies the source of a bad link.
#[derive(Clone, Debug)]
pub struct BadState {
    ll: Snoop,
    notice: BadStateNotice,
    /// The link is bad: a timer retransmission since the last new ack.
    bad: bool,
    /// EBSNs raised and not yet sent.
    owed: Vec<Packet>,
    pub stats: BadStateStats,
}

impl BadState {
    /// `cfg` is the local recovery's (LL, normally).
    pub fn new(cfg: SnoopConfig, notice: BadStateNotice, flow: u32) -> BadState {
        BadState {
            ll: Snoop::new(cfg, flow),
            notice,
            bad: false,
            owed: Vec::with_capacity(4),
            stats: BadStateStats::default(),
        }
    }

    pub fn flow(&self) -> u32 {
        self.ll.flow()
    }
    pub fn notice(&self) -> BadStateNotice {
        self.notice
    }
    /// The local recovery underneath.
    pub fn local(&self) -> &Snoop {
        &self.ll
    }
    /// The link is bad now (a local timeout since the last new ack).
    pub fn is_bad(&self) -> bool {
        self.bad
    }

    pub fn on_packet(&mut self, now: Time, pkt: &mut Packet) -> Verdict {
        if pkt.flow == self.flow() && pkt.kind == PacketKind::Ack {
            if self.bad && self.notice == BadStateNotice::EcnBs && !pkt.tcp.ece {
                pkt.tcp.ece = true;
                self.stats.acks_marked += 1;
            }
            // A new ack: the link carried something again.
            if pkt.tcp.ack > self.ll.last_ack() {
                self.bad = false;
            }
        }
        self.ll.on_packet(now, pkt)
    }

    /// Local retransmissions first (they are due now), then EBSNs.
    pub fn poll_transmit(&mut self, now: Time) -> Option<BadStateOut> {
        if let Some(r) = self.ll.poll_transmit(now) {
            return Some(BadStateOut::Retransmit(r));
        }
        if self.owed.is_empty() {
            return None;
        }
        self.stats.ebsns_sent += 1;
        Some(BadStateOut::Ebsn(self.owed.remove(0)))
    }

    pub fn poll_at(&self) -> Time {
        if self.owed.is_empty() {
            self.ll.poll_at()
        } else {
            Time::ZERO
        }
    }

    /// The local timer: a timer retransmission is an unsuccessful attempt.
    pub fn on_timer(&mut self, now: Time) {
        let before = self.ll.stats.timer_retransmits;
        self.ll.on_timer(now);
        if self.ll.stats.timer_retransmits > before {
            self.bad = true;
            if self.notice == BadStateNotice::Ebsn {
                // From the mobile host's address to the source, naming the
                // segment retried; its `seq` is when it was raised.
                if let Some(d) = self.ll.oldest() {
                    let tcp =
                        TcpHeader { seq: now.ns(), ack: d.tcp.seq, ll_notice: LlNotice::Ebsn, ..TcpHeader::default() };
                    let (src, dst) = (d.dst, d.src);
                    let ebsn =
                        Packet { kind: PacketKind::Ack, src, dst, size_bytes: EBSN_BYTES, ecn: Ecn::NotEct, tcp, ..*d };
                    self.owed.push(ebsn);
                }
            }
        }
    }
}

/// A packet leaving a [`BadState`] agent.
#[derive(Clone, Copy, Debug)]
pub enum BadStateOut {
    Retransmit(LocalRetransmit),
    Ebsn(Packet),
}

#[cfg(test)]
mod tests {
    //! Timelines at the base station: 1000-byte segments from node 0 to
    //! node 2, lost on the wireless hop after the agent.
    use super::*;

    fn data(seq: u64) -> Packet {
        let tcp = TcpHeader { seq, len: 1000, ..TcpHeader::default() };
        Packet { uid: 0, flow: 0, kind: PacketKind::Data, src: 0, dst: 2, size_bytes: 1040, ecn: Ecn::NotEct, tcp }
    }
    fn ack(a: u64) -> Packet {
        let tcp = TcpHeader { ack: a, ..TcpHeader::default() };
        Packet { uid: 0, flow: 0, kind: PacketKind::Ack, src: 2, dst: 0, size_bytes: 40, ecn: Ecn::NotEct, tcp }
    }
    fn ms(t: u64) -> Time {
        Time::from_ms(t)
    }
    fn drain(a: &mut BadState, now: Time) -> (Vec<u64>, Vec<Packet>) {
        let (mut rexmits, mut ebsns) = (Vec::new(), Vec::new());
        while let Some(out) = a.poll_transmit(now) {
            match out {
                BadStateOut::Retransmit(r) => rexmits.push(r.pkt.tcp.seq),
                BadStateOut::Ebsn(p) => ebsns.push(p),
            }
        }
        (rexmits, ebsns)
    }
    fn unbounded() -> SnoopConfig {
        SnoopConfig { max_local_rexmits: u32::MAX, ..SnoopConfig::LL }
    }

    /// A bad period of 1 s: every local timeout (200 ms, no backoff) sends
    /// the oldest segment again and one EBSN, addressed from the mobile host
    /// to the source, naming it; the ack that ends the period stops both.
    #[test]
    fn each_local_timeout_raises_one_ebsn() {
        let mut a = BadState::new(unbounded(), BadStateNotice::Ebsn, 0);
        for s in 0..3 {
            assert_eq!(a.on_packet(ms(0), &mut data(s * 1000)), Verdict::Forward);
        }
        assert_eq!(a.poll_at(), ms(200));
        let mut sent = Vec::new();
        for k in 1..=5 {
            let now = ms(200 * k);
            assert_eq!(a.poll_at(), now);
            a.on_timer(now);
            let (r, e) = drain(&mut a, now);
            assert_eq!(r, [0]);
            assert_eq!(e.len(), 1);
            sent.extend(e);
        }
        for p in &sent {
            assert_eq!((p.src, p.dst, p.kind, p.size_bytes), (2, 0, PacketKind::Ack, EBSN_BYTES));
            assert_eq!((p.tcp.ll_notice, p.tcp.ack, p.tcp.len), (LlNotice::Ebsn, 0, 0));
        }
        assert_eq!(sent[2].tcp.seq, ms(600).ns(), "its seq is when it was raised");
        assert!(a.is_bad());
        assert_eq!(a.on_packet(ms(1050), &mut ack(3000)), Verdict::Forward);
        assert!(!a.is_bad());
        assert_eq!(a.poll_at(), Time::NEVER);
        assert_eq!(a.stats.ebsns_sent, 5);
    }

    /// A loss repaired on duplicate acks is no bad state: no EBSN.
    #[test]
    fn a_dupack_repair_raises_none() {
        let mut a = BadState::new(unbounded(), BadStateNotice::Ebsn, 0);
        for s in 0..4 {
            a.on_packet(ms(0), &mut data(s * 1000));
        }
        a.on_packet(ms(50), &mut ack(1000));
        a.on_packet(ms(60), &mut ack(1000));
        a.on_packet(ms(70), &mut ack(1000));
        let (r, e) = drain(&mut a, ms(70));
        assert_eq!((r, e.len()), (vec![1000], 0));
        assert!(!a.is_bad());
    }

    /// ECN-BS: after a local timeout the next acks carry ECN-Echo, up to and
    /// including the first new one; no EBSN is ever sent.
    #[test]
    fn ecn_bs_marks_acks_until_the_link_recovers() {
        let mut a = BadState::new(unbounded(), BadStateNotice::EcnBs, 0);
        for s in 0..3 {
            a.on_packet(ms(0), &mut data(s * 1000));
        }
        let mut good = ack(1000);
        a.on_packet(ms(50), &mut good);
        assert!(!good.tcp.ece, "a good link marks nothing");
        a.on_timer(ms(50 + 200));
        let (r, e) = drain(&mut a, ms(250));
        assert_eq!((r, e.len()), (vec![1000], 0));
        let mut first = ack(1000);
        a.on_packet(ms(300), &mut first);
        let mut new = ack(3000);
        a.on_packet(ms(310), &mut new);
        let mut after = ack(3000);
        a.on_packet(ms(320), &mut after);
        assert_eq!((first.tcp.ece, new.tcp.ece, after.tcp.ece), (true, true, false));
        assert_eq!(a.stats, BadStateStats { ebsns_sent: 0, acks_marked: 2 });
    }
}
