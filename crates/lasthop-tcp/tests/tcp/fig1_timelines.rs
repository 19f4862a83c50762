//! Seed 000 Fig. 1, "Typical loss situation": the sender's window holds five
//! segments and the first two are lost on the wireless hop. Each test drives
//! a sender by hand, packetdrill-style: acks are injected at stated times and
//! the segments it sends are checked exactly.
//!
//! Common setup: MSS 1000 bytes, window of five segments (initial cwnd 5,
//! ssthresh unlimited), RFC 6298 timer (1 s initial RTO), a 100 ms round trip.
//! Segments are named by their first byte: 0, 1000, ..., 4000 are the five
//! in flight; 0 and 1000 are lost; 2000, 3000 and 4000 arrive and each makes
//! the receiver send a duplicate ack for 0.

use lasthop_core::trace::Trace;
use lasthop_core::{TcpHeader, Time};
use lasthop_tcp::{ElnResponse, Sender, SenderConfig, Variant};

const MSS: u64 = 1000;

struct Harness {
    s: Sender,
    trace: Trace,
}

impl Harness {
    fn new(variant: Variant) -> Harness {
        Harness::with(variant, ElnResponse::Off, false)
    }

    fn with(variant: Variant, eln: ElnResponse, limited_transmit: bool) -> Harness {
        let cfg = SenderConfig {
            variant,
            send_buffer_bytes: 64_000,
            initial_cwnd_segments: 5,
            initial_ssthresh_bytes: u64::MAX / 2,
            eln,
            limited_transmit,
            total_bytes: Some(20 * MSS),
            ..SenderConfig::reno(MSS as u32)
        };
        let mut h = Harness { s: Sender::new(cfg, 0), trace: Trace::new(true) };
        h.s.start(Time::ZERO, &mut h.trace);
        h
    }

    /// Everything the sender sends at `t_ms`, as (first byte, retransmission).
    fn sent(&mut self, t_ms: u64) -> Vec<(u64, bool)> {
        let mut out = Vec::new();
        while let Some(seg) = self.s.poll_transmit(Time::from_ms(t_ms), &mut self.trace) {
            assert_eq!(u64::from(seg.len), MSS);
            out.push((seg.seq, seg.is_retransmit));
        }
        out
    }

    fn ack(&mut self, t_ms: u64, ack: u64) -> Vec<(u64, bool)> {
        self.ack_hdr(t_ms, TcpHeader { ack, ..TcpHeader::default() })
    }

    /// An ack with options (SACK blocks, SMART echo, ELN mark).
    fn ack_hdr(&mut self, t_ms: u64, mut hdr: TcpHeader) -> Vec<(u64, bool)> {
        hdr.wnd_bytes = 64_000;
        self.s.on_ack(Time::from_ms(t_ms), &hdr, &mut self.trace);
        self.sent(t_ms)
    }

    /// Let time run to `t_ms`, firing the retransmission timer if it is due.
    fn tick(&mut self, t_ms: u64) -> Vec<(u64, bool)> {
        self.s.on_timer(Time::from_ms(t_ms), &mut self.trace);
        self.sent(t_ms)
    }

    fn cwnd_segments(&self) -> (u64, u64) {
        (self.s.cwnd_bytes() / MSS, self.s.ssthresh_bytes() / MSS)
    }
}

const NEW: bool = false;
const REXMIT: bool = true;

/// t = 0: five segments leave. Then the three duplicate acks of segments
/// 2000, 3000, 4000 arrive at 100, 101 and 102 ms.
fn fig1_start(h: &mut Harness) -> Vec<Vec<(u64, bool)>> {
    assert_eq!(h.sent(0), vec![(0, NEW), (1000, NEW), (2000, NEW), (3000, NEW), (4000, NEW)]);
    vec![h.ack(100, 0), h.ack(101, 0), h.ack(102, 0)]
}

#[test]
fn reno_fig1_repairs_the_first_loss_and_times_out_on_the_second() {
    let mut h = Harness::new(Variant::Reno);
    let dup = fig1_start(&mut h);
    // t = 100, 101 ms: first and second duplicate acks: nothing.
    assert_eq!(dup[0], vec![]);
    assert_eq!(dup[1], vec![]);
    // t = 102 ms: third duplicate ack: fast retransmit of 0. ssthresh = 5/2
    // rounded down to 2 segments; cwnd = ssthresh + 3 = 5 = flight: no new data.
    assert_eq!(dup[2], vec![(0, REXMIT)]);
    assert_eq!(h.cwnd_segments(), (5, 2));
    assert_eq!(h.s.stats().fast_retransmits, 1);
    // t = 202 ms: the retransmitted 0 is acked: a partial ack (1000 < 5000).
    // Reno leaves fast recovery: cwnd = ssthresh = 2, while 4 segments are
    // outstanding. Nothing can be sent; no duplicate acks can come.
    assert_eq!(h.ack(202, 1000), vec![]);
    assert_eq!(h.cwnd_segments(), (2, 2));
    assert!(!h.s.in_recovery());
    // The timer was restarted by that ack (RTO 1 s, no valid sample: Karn).
    assert_eq!(h.tick(1201), vec![]);
    // t = 1.202 s: coarse timeout: cwnd = 1, go back to 1000.
    assert_eq!(h.tick(1202), vec![(1000, REXMIT)]);
    assert_eq!(h.s.stats().timeouts, 1);
    assert_eq!(h.cwnd_segments(), (1, 2));
    // t = 1.302 s: the receiver had 2000..5000: ack 5000; slow start to 2.
    assert_eq!(h.ack(1302, 5000), vec![(5000, NEW), (6000, NEW)]);
}

#[test]
fn newreno_fig1_repairs_both_losses_without_a_timeout() {
    let mut h = Harness::new(Variant::Newreno);
    let dup = fig1_start(&mut h);
    assert_eq!(dup[0], vec![]);
    assert_eq!(dup[1], vec![]);
    // t = 102 ms: fast retransmit of 0, recover = 5000, cwnd = 2 + 3 = 5.
    assert_eq!(dup[2], vec![(0, REXMIT)]);
    assert_eq!(h.cwnd_segments(), (5, 2));
    // t = 202 ms: partial ack 1000 < recover: retransmit 1000 at once
    // (RFC 6582 3.2 step 5), deflate cwnd by 1 acked and add 1 back = 5,
    // which leaves room for one new segment, 5000.
    assert_eq!(h.ack(202, 1000), vec![(1000, REXMIT), (5000, NEW)]);
    assert!(h.s.in_recovery());
    assert_eq!(h.s.stats().partial_acks, 1);
    // t = 302 ms: 1000 repaired, the receiver now holds 0..5000: a full ack.
    // Recovery ends with cwnd = ssthresh = 2; 5000 is in flight, 6000 goes.
    assert_eq!(h.ack(302, 5000), vec![(6000, NEW)]);
    assert!(!h.s.in_recovery());
    assert_eq!(h.cwnd_segments(), (2, 2));
    // t = 402 ms: 5000 acked: congestion avoidance, 7000 goes.
    assert_eq!(h.ack(402, 6000), vec![(7000, NEW)]);
    // No timeout ever fires for this window.
    assert_eq!(h.tick(1300), vec![]);
    assert_eq!(h.s.stats().timeouts, 0);
    assert_eq!(h.s.stats().fast_retransmits, 1);
}

#[test]
fn tahoe_fig1_goes_back_n_in_slow_start() {
    let mut h = Harness::new(Variant::Tahoe);
    let dup = fig1_start(&mut h);
    assert_eq!(dup[0], vec![]);
    assert_eq!(dup[1], vec![]);
    // t = 102 ms: third duplicate ack: retransmit 0 and restart slow start
    // from one segment (ssthresh 2).
    assert_eq!(dup[2], vec![(0, REXMIT)]);
    assert_eq!(h.cwnd_segments(), (1, 2));
    // t = 202 ms: 0 acked, cwnd 2: go-back-N resends 1000 and also 2000,
    // which the receiver already holds (ns-2 Tahoe's behaviour).
    assert_eq!(h.ack(202, 1000), vec![(1000, REXMIT), (2000, REXMIT)]);
    // t = 302 ms: the receiver had 2000..5000: ack 5000. cwnd = ssthresh = 2,
    // so congestion avoidance: +1/2 segment = 2.5 segments; two full ones fit.
    let sent = h.ack(302, 5000);
    assert_eq!(sent, vec![(5000, NEW), (6000, NEW)]);
    // t = 303 ms: the duplicate 2000 makes the receiver re-ack 5000: one
    // duplicate ack, below the threshold.
    assert_eq!(h.ack(303, 5000), vec![]);
    assert_eq!(h.s.stats().timeouts, 0);
    assert_eq!(h.s.stats().fast_retransmits, 1);
}

#[test]
fn second_window_loss_after_timeout_does_not_cut_twice() {
    // RFC 6582 3.2 step 2: after a timeout, duplicate acks for data sent
    // before it (ack <= recover) must not trigger a fast retransmit.
    let mut h = Harness::new(Variant::Newreno);
    assert_eq!(h.sent(0).len(), 5);
    assert_eq!(h.tick(1000), vec![(0, REXMIT)]);
    for t in [1100, 1101, 1102] {
        assert_eq!(h.ack(t, 0), vec![]);
    }
    assert_eq!(h.s.stats().fast_retransmits, 0);
}

fn eln_ack(ack: u64) -> TcpHeader {
    TcpHeader { ack, eln: true, ..TcpHeader::default() }
}

fn sack_ack(ack: u64, blocks: &[(u64, u64)]) -> TcpHeader {
    let mut h = TcpHeader { ack, ..TcpHeader::default() };
    for &(s, e) in blocks {
        h.sack.push(s, e);
    }
    h
}

fn smart_ack(ack: u64, echo: u64) -> TcpHeader {
    TcpHeader { ack, smart_echo: Some(echo), ..TcpHeader::default() }
}

#[test]
fn eln_fig1_retransmits_at_the_third_marked_duplicate_and_keeps_the_window() {
    let mut h = Harness::with(Variant::Reno, ElnResponse::ThirdDupack, false);
    assert_eq!(h.sent(0).len(), 5);
    // t = 100, 101 ms: marked duplicates of 0 (the receiver's link layer saw
    // 0 and 1000 corrupted).
    assert_eq!(h.ack_hdr(100, eln_ack(0)), vec![]);
    assert_eq!(h.ack_hdr(101, eln_ack(0)), vec![]);
    // t = 102 ms: the third: retransmit 0; cwnd and ssthresh untouched
    // where Reno would halve them.
    assert_eq!(h.ack_hdr(102, eln_ack(0)), vec![(0, REXMIT)]);
    assert_eq!(h.cwnd_segments(), (5, u64::MAX / 2 / MSS));
    assert_eq!((h.s.stats().fast_retransmits, h.s.stats().eln_retransmits), (0, 1));
    // t = 202 ms: 0 repaired; the ack for 1000 is marked too (1000 was also
    // corrupted) and is new data: slow start opens cwnd to 6, the flight is
    // 4 (1000..5000): 5000 and 6000 go.
    assert_eq!(h.ack_hdr(202, eln_ack(1000)), vec![(5000, NEW), (6000, NEW)]);
    // t = 300, 301 ms: 5000 and 6000 arrive out of order: only two marked
    // duplicates of 1000, one short of the threshold: E2E-ELN waits for its
    // coarse timeout (seed 000 Sec. V-C's case for sending beyond the window).
    assert_eq!(h.ack_hdr(300, eln_ack(1000)), vec![]);
    assert_eq!(h.ack_hdr(301, eln_ack(1000)), vec![]);
    assert_eq!(h.s.stats().eln_retransmits, 1);
    // RTO 1 s from the last new ack (202 ms); go back to 1000.
    assert_eq!(h.tick(1202), vec![(1000, REXMIT)]);
    assert_eq!(h.s.stats().timeouts, 1);
}

#[test]
fn eln_rxmt_fig1_retransmits_at_the_first_marked_duplicate() {
    let mut h = Harness::with(Variant::Reno, ElnResponse::FirstDupack, false);
    assert_eq!(h.sent(0).len(), 5);
    // t = 100 ms: the first marked duplicate already resends 0.
    assert_eq!(h.ack_hdr(100, eln_ack(0)), vec![(0, REXMIT)]);
    // Further marked duplicates for the same hole do not resend it again.
    assert_eq!(h.ack_hdr(101, eln_ack(0)), vec![]);
    assert_eq!(h.ack_hdr(102, eln_ack(0)), vec![]);
    // t = 200 ms: ack 1000 (marked): new data, slow start to 6; the flight
    // 1000..5000 leaves room for 5000, 6000.
    assert_eq!(h.ack_hdr(200, eln_ack(1000)), vec![(5000, NEW), (6000, NEW)]);
    // t = 300 ms: the first marked duplicate of 1000 (caused by 5000)
    // resends it at once: no timeout, where E2E-ELN has one.
    assert_eq!(h.ack_hdr(300, eln_ack(1000)), vec![(1000, REXMIT)]);
    assert_eq!(h.ack_hdr(301, eln_ack(1000)), vec![]);
    assert_eq!(h.cwnd_segments().0, 6, "the window is never cut");
    assert_eq!(h.s.stats().timeouts, 0);
}

#[test]
fn unmarked_duplicates_under_eln_are_handled_as_reno() {
    let mut h = Harness::with(Variant::Reno, ElnResponse::FirstDupack, false);
    let dup = fig1_start(&mut h);
    assert_eq!(dup[2], vec![(0, REXMIT)]);
    assert_eq!(h.cwnd_segments(), (5, 2), "a congestion loss still halves the window");
    assert_eq!(h.s.stats().fast_retransmits, 1);
}

#[test]
fn ietf_sack_fig1_repairs_both_holes_in_the_first_round_trip() {
    let mut h = Harness::new(Variant::Sack);
    assert_eq!(h.sent(0).len(), 5);
    // Duplicate acks carry SACK blocks (RFC 2018, most recent first).
    assert_eq!(h.ack_hdr(100, sack_ack(0, &[(2000, 3000)])), vec![]);
    assert_eq!(h.ack_hdr(101, sack_ack(0, &[(2000, 4000)])), vec![]);
    // t = 102 ms: the third: recovery (RFC 6675): ssthresh = cwnd = 5/2 -> 2;
    // 0 is retransmitted at once (step 4.3); pipe = 1 (1000 is lost, 2000..5000
    // SACKed, 0 retransmitted) so cwnd 2 allows one more: 1000.
    assert_eq!(h.ack_hdr(102, sack_ack(0, &[(2000, 5000)])), vec![(0, REXMIT), (1000, REXMIT)]);
    assert_eq!(h.cwnd_segments(), (2, 2));
    // t = 202 ms: both repaired: ack 5000 ends recovery (RecoveryPoint 5000).
    assert_eq!(h.ack(202, 5000), vec![(5000, NEW), (6000, NEW)]);
    assert!(!h.s.in_recovery());
    assert_eq!((h.s.stats().fast_retransmits, h.s.stats().timeouts), (1, 0));
}

#[test]
fn smart_fig1_retransmits_both_losses_without_waiting_for_three_duplicates() {
    let mut h = Harness::new(Variant::Smart);
    assert_eq!(h.sent(0).len(), 5);
    // t = 100 ms: the ack caused by 2000 (ack 0, echo 2000) shows 0 and 1000
    // missing: 0 is resent at once, on the first duplicate; the window is cut
    // once (ssthresh 2, cwnd 2).
    assert_eq!(h.ack_hdr(100, smart_ack(0, 2000)), vec![(0, REXMIT)]);
    assert_eq!(h.cwnd_segments(), (2, 2));
    // t = 101 ms: the next SMART ack resends the other hole, 1000.
    assert_eq!(h.ack_hdr(101, smart_ack(0, 3000)), vec![(1000, REXMIT)]);
    // t = 102 ms: nothing left to resend within this round trip.
    assert_eq!(h.ack_hdr(102, smart_ack(0, 4000)), vec![]);
    // t = 200, 201 ms: both repaired.
    assert_eq!(h.ack_hdr(200, smart_ack(1000, 0)), vec![]);
    let sent = h.ack_hdr(201, smart_ack(5000, 1000));
    assert_eq!(sent, vec![(5000, NEW), (6000, NEW)]);
    assert_eq!((h.s.stats().fast_retransmits, h.s.stats().timeouts), (1, 0));
}

#[test]
fn limited_transmit_sends_new_data_on_the_first_two_duplicates() {
    // Seed 000 Sec. V-C: with a small window, new segments beyond the right
    // edge keep the duplicate acks coming.
    let mut h = Harness::with(Variant::Reno, ElnResponse::Off, true);
    assert_eq!(h.sent(0).len(), 5);
    assert_eq!(h.ack(100, 0), vec![(5000, NEW)]);
    assert_eq!(h.ack(101, 0), vec![(6000, NEW)]);
    // The third duplicate is a fast retransmit as usual.
    assert_eq!(h.ack(102, 0), vec![(0, REXMIT)]);
    // Without the option nothing goes on the first two.
    let mut plain = Harness::new(Variant::Reno);
    assert_eq!(plain.sent(0).len(), 5);
    assert_eq!(plain.ack(100, 0), vec![]);
}
