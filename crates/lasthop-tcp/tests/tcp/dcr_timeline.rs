//! TCP-DCR (seed 004 Sec. 2.3, `lasthop_tcp::recovery::dcr`) on a sender
//! driven by hand: the fast retransmit waits one smoothed RTT after the
//! first duplicate ack, each duplicate releasing one new segment meanwhile,
//! and an ack of new data within the delay cancels the response.
//!
//! Setup: MSS 1000, initial cwnd 5, ssthresh unlimited, RFC 6298 timer.
//! t = 0: segments 0..4000 leave. t = 100 ms: the ack of segment 0 (the
//! first RTT sample: SRTT = 100 ms, RFC 6298 2.2) opens cwnd to 6 and
//! releases 5000 and 6000. Segment 1000 is lost; 2000, 3000 and 4000
//! arrive and make duplicate acks for 1000 at 101, 102 and 103 ms.

use lasthop_core::trace::Trace;
use lasthop_core::{TcpHeader, Time};
use lasthop_tcp::{Sender, SenderConfig, Variant};

const MSS: u64 = 1000;
const REXMIT: bool = true;
const NEW: bool = false;

struct H {
    s: Sender,
    trace: Trace,
}

impl H {
    fn new(variant: Variant) -> H {
        let cfg = SenderConfig {
            variant,
            send_buffer_bytes: 64_000,
            initial_cwnd_segments: 5,
            initial_ssthresh_bytes: u64::MAX / 2,
            total_bytes: Some(40 * MSS),
            ..SenderConfig::reno(MSS as u32)
        };
        let mut h = H { s: Sender::new(cfg, 0), trace: Trace::new(false) };
        h.s.start(Time::ZERO, &mut h.trace);
        h
    }
    fn sent(&mut self, t_ms: u64) -> Vec<(u64, bool)> {
        let mut out = Vec::new();
        while let Some(seg) = self.s.poll_transmit(Time::from_ms(t_ms), &mut self.trace) {
            out.push((seg.seq, seg.is_retransmit));
        }
        out
    }
    fn ack(&mut self, t_ms: u64, ack: u64) -> Vec<(u64, bool)> {
        let hdr = TcpHeader { ack, wnd_bytes: 64_000, ..TcpHeader::default() };
        self.s.on_ack(Time::from_ms(t_ms), &hdr, &mut self.trace);
        self.sent(t_ms)
    }
    fn tick(&mut self, t_ms: u64) -> Vec<(u64, bool)> {
        self.s.on_timer(Time::from_ms(t_ms), &mut self.trace);
        self.sent(t_ms)
    }
    fn start(&mut self) {
        assert_eq!(self.sent(0).len(), 5);
        assert_eq!(self.ack(100, 1000), vec![(5000, NEW), (6000, NEW)]);
    }
}

#[test]
fn dcr_holds_the_fast_retransmit_one_rtt_and_sends_a_segment_per_duplicate() {
    let mut h = H::new(Variant::Dcr);
    h.start();
    // Extended limited transmit: cwnd 6 + one segment per duplicate.
    assert_eq!(h.ack(101, 1000), vec![(7000, NEW)]);
    assert_eq!(h.ack(102, 1000), vec![(8000, NEW)]);
    assert_eq!(h.ack(103, 1000), vec![(9000, NEW)], "the third duplicate: no fast retransmit yet");
    assert_eq!(h.s.poll_at(), Time::from_ms(201), "woken one SRTT after the first duplicate");
    assert_eq!(h.tick(200), vec![]);
    // 201 ms: NewReno's fast retransmit; FlightSize 9000 -> ssthresh 4000
    // (whole segments), cwnd 4000 + 3 MSS = 7000 < 9000 outstanding.
    assert_eq!(h.tick(201), vec![(1000, REXMIT)]);
    assert_eq!((h.s.cwnd_bytes(), h.s.ssthresh_bytes()), (7000, 4000));
    assert_eq!(h.s.stats().fast_retransmits, 1);
}

#[test]
fn dcr_new_ack_within_the_delay_cancels_the_response() {
    let mut h = H::new(Variant::Dcr);
    h.start();
    h.ack(101, 1000);
    h.ack(102, 1000);
    h.ack(103, 1000);
    // The link layer repaired 1000 within the round trip: everything acked.
    h.ack(150, 10_000);
    h.tick(201);
    h.tick(400);
    assert_eq!(h.s.stats().fast_retransmits, 0);
    assert_eq!(h.s.stats().retransmits, 0);
    assert!(h.s.cwnd_bytes() > 6000, "no cut: {}", h.s.cwnd_bytes());
}

/// The same timeline under NewReno: the third duplicate retransmits at
/// once (what DCR's hold removes).
#[test]
fn newreno_retransmits_at_the_third_duplicate() {
    let mut h = H::new(Variant::Newreno);
    h.start();
    h.ack(101, 1000);
    h.ack(102, 1000);
    assert_eq!(h.ack(103, 1000), vec![(1000, REXMIT)]);
}
