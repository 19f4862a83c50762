//! Issue 12, item 5: connection start-up and close as timelines, a sender
//! and a receiver in lockstep over a path of 50 ms each way (100 ms round
//! trip) that loses the segments a test names. Segments are 1000 bytes.
//!
//! - A handshake costs one round trip before the first data segment.
//! - A lost SYN goes again when the retransmission timer expires: at the
//!   initial RTO (3 s with `initial_s` 3, RFC 6298's 1 s by default, 6 s
//!   = 12 slow ticks in BSD mode, at the 12th tick after the SYN).
//! - A lost SYN-ACK: the SYN's timer fires, the receiver answers the
//!   duplicate SYN with a new SYN-ACK.
//! - The FIN rides the last segment and is acknowledged at once.

use lasthop_core::time::{NS_PER_MS, NS_PER_S};
use lasthop_core::trace::Trace;
use lasthop_core::{TcpHeader, Time};
use lasthop_tcp::{AckPolicy, Receiver, ReceiverConfig, RtoConfig, Sender, SenderConfig};

const MSS: u64 = 1000;
const ONE_WAY_MS: u64 = 50;

fn sender_cfg(total_segments: u64, rto: RtoConfig, handshake: bool) -> SenderConfig {
    SenderConfig {
        send_buffer_bytes: 64 * MSS,
        initial_cwnd_segments: 2,
        total_bytes: Some(total_segments * MSS),
        rto,
        handshake,
        ..SenderConfig::reno(MSS as u32)
    }
}

fn receiver_cfg(ack_policy: AckPolicy) -> ReceiverConfig {
    ReceiverConfig::plain(64 * MSS, MSS as u32, ack_policy)
}

/// RFC 6298 with the 3 s initial RTO of RFC 1122 (a scenario's `initial_s = 3`).
fn rto_3s() -> RtoConfig {
    RtoConfig { initial_ns: 3 * NS_PER_S, ..RtoConfig::rfc6298() }
}

/// One segment on the wire: who sent it, when, and its header.
#[derive(Clone, Copy, Debug)]
struct Sent {
    at: Time,
    from_sender: bool,
    hdr: TcpHeader,
}

impl Sent {
    fn ms(&self) -> u64 {
        self.at.ns() / NS_PER_MS
    }
}

/// Which segments the path loses: `(k, segment)` for the k-th segment sent.
type Loss = Box<dyn Fn(usize, &Sent) -> bool>;

/// The two ends and the path. `lose(k, seg)` drops the k-th segment (from 0,
/// both directions counted together) when true.
struct Net {
    s: Sender,
    r: Receiver,
    trace: Trace,
    /// (arrival, to the receiver?, header), in arrival order.
    flying: Vec<(Time, bool, TcpHeader)>,
    log: Vec<Sent>,
    lose: Loss,
}

impl Net {
    fn new(scfg: SenderConfig, ack_policy: AckPolicy, start: Time, lose: Loss) -> Net {
        let mut n = Net {
            s: Sender::new(scfg, 0),
            r: Receiver::new(receiver_cfg(ack_policy)),
            trace: Trace::new(false),
            flying: Vec::new(),
            log: Vec::new(),
            lose,
        };
        n.s.start(start, &mut n.trace);
        n.flush(start);
        n
    }

    fn emit(&mut self, now: Time, from_sender: bool, hdr: TcpHeader) {
        let seg = Sent { at: now, from_sender, hdr };
        let k = self.log.len();
        self.log.push(seg);
        if !(self.lose)(k, &seg) {
            let at = now.plus_ns(ONE_WAY_MS * NS_PER_MS);
            let i = self.flying.partition_point(|f| f.0 <= at);
            self.flying.insert(i, (at, from_sender, hdr));
        }
    }

    fn flush(&mut self, now: Time) {
        loop {
            let mut any = false;
            while let Some(h) = self.s.poll_transmit(now, &mut self.trace) {
                self.emit(now, true, h);
                any = true;
            }
            while let Some(h) = self.r.poll_transmit(now) {
                self.emit(now, false, h);
                any = true;
            }
            if !any {
                break;
            }
        }
    }

    /// Run until nothing is left to happen or `until`.
    fn run(&mut self, until: Time) {
        loop {
            let arrival = self.flying.first().map_or(Time::NEVER, |f| f.0);
            let (st, rt) = (self.s.poll_at(), self.r.poll_at());
            let now = arrival.min(st).min(rt);
            if now == Time::NEVER || now > until {
                return;
            }
            if arrival == now {
                let (_, to_receiver, hdr) = self.flying.remove(0);
                if to_receiver {
                    self.r.on_segment(now, &hdr);
                } else {
                    self.s.on_ack(now, &hdr, &mut self.trace);
                }
            } else if st == now {
                self.s.on_timer(now, &mut self.trace);
            } else {
                self.r.on_timer(now);
            }
            self.flush(now);
            if self.s.is_closed() && self.flying.is_empty() {
                return;
            }
        }
    }

    fn syns(&self) -> Vec<u64> {
        self.log.iter().filter(|s| s.from_sender && s.hdr.syn).map(Sent::ms).collect()
    }
    fn syn_acks(&self) -> Vec<u64> {
        self.log.iter().filter(|s| !s.from_sender && s.hdr.syn).map(Sent::ms).collect()
    }
    /// Data segments as (time in ms, first byte, FIN).
    fn data(&self) -> Vec<(u64, u64, bool)> {
        self.log.iter().filter(|s| s.from_sender && !s.hdr.syn).map(|s| (s.ms(), s.hdr.seq, s.hdr.fin)).collect()
    }
    /// Acks (not SYN-ACKs) as (time in ms, ack).
    fn acks(&self) -> Vec<(u64, u64)> {
        self.log.iter().filter(|s| !s.from_sender && !s.hdr.syn).map(|s| (s.ms(), s.hdr.ack)).collect()
    }
    fn conn_ms(&self) -> (u64, u64, u64) {
        let c = self.s.connection().expect("a sender with a handshake keeps its times");
        let ms = |t: Option<Time>| t.expect("reached").ns() / NS_PER_MS;
        (ms(c.syn_sent_at), ms(c.established_at), ms(c.fin_acked_at))
    }
}

fn no_loss() -> Loss {
    Box::new(|_, _| false)
}

/// t0 SYN; t50 the receiver answers; t100 SYN-ACK: ESTABLISHED, segments 0
/// and 1 (IW 2); t200 their acks: segment 2 with FIN (cwnd 3, only one
/// left); t300 its ack, 3001, covers the FIN. Without the handshake the
/// same transfer ends at t200: the handshake costs exactly one round trip.
#[test]
fn three_way_handshake_takes_one_round_trip_before_data() {
    let mut n = Net::new(sender_cfg(3, rto_3s(), true), AckPolicy::Immediate, Time::ZERO, no_loss());
    n.run(Time::from_secs_f64(60.0));
    assert_eq!(n.syns(), [0]);
    assert_eq!(n.syn_acks(), [50]);
    let syn = n.log[0].hdr;
    assert_eq!((syn.seq, syn.len, syn.ack), (0, 0, 0), "header only; it stands for the ISN before byte 0");
    assert_eq!(n.log[1].hdr.ack, 0, "the SYN-ACK acknowledges the SYN: byte 0 is next");
    assert_eq!(n.data(), [(100, 0, false), (100, 1000, false), (200, 2000, true)]);
    assert_eq!(n.acks(), [(150, 1000), (150, 2000), (250, 3001)]);
    assert_eq!(n.conn_ms(), (0, 100, 300));
    assert!(n.s.is_done() && n.s.is_closed());
    assert_eq!(n.r.rcv_nxt(), 3000, "the FIN is not a data byte");
    // The SYN was timed: SRTT 100 ms, RTO = 100 + 4·50 = 300 ms, held at RFC 6298's 1 s floor.
    assert_eq!(n.s.rto_ns(), NS_PER_S);
    assert_eq!(n.s.stats().timeouts, 0);

    let mut plain = Net::new(sender_cfg(3, rto_3s(), false), AckPolicy::Immediate, Time::ZERO, no_loss());
    plain.run(Time::from_secs_f64(60.0));
    assert!(plain.syns().is_empty() && plain.log.iter().all(|s| !s.hdr.fin));
    assert_eq!(plain.data(), [(0, 0, false), (0, 1000, false), (100, 2000, false)]);
    assert_eq!(plain.acks().last(), Some(&(150, 3000)));
    assert_eq!(plain.s.connection(), None);
}

/// The SYN timed in BSD mode: an RTT sample of 1 slow tick (t_rtt starts
/// at 1) seeds SRTT, and the RTO falls from the initial 12 ticks to 3.
#[test]
fn the_syn_exchange_seeds_the_bsd_estimator() {
    let rto = RtoConfig { tick_phase_ns: 0, ..RtoConfig::bsd() };
    let mut n = Net::new(sender_cfg(1, rto, true), AckPolicy::Immediate, Time::ZERO, no_loss());
    assert_eq!(n.s.rto_ns(), 6 * NS_PER_S, "before the SYN-ACK: 12 ticks");
    n.run(Time::from_secs_f64(60.0));
    assert_eq!(n.conn_ms(), (0, 100, 200));
    // t_rtt 1 -> t_srtt 8, t_rttvar 2; TCP_REXMTVAL = (8 >> 3) + 2 = 3 ticks.
    assert_eq!(n.s.rto_ns(), 1_500 * NS_PER_MS, "3 slow ticks, not the initial 12");
}

/// Initial RTO 3 s (RFC 1122 / `initial_s = 3`). t0 SYN lost; t3000 the
/// timer fires: SYN again (a timeout: cwnd one segment, ssthresh two, RFC
/// 5681 Sec. 3.1); t3050 SYN-ACK; t3100 ESTABLISHED, one segment (not IW
/// 2); t3200 its ack: cwnd 2, the last two segments; t3300 closed. No RTT sample from the retransmitted SYN (Karn): the RTO stays 3 s
/// (RFC 6298 Sec. 5.7) with the backoff cleared.
#[test]
fn lost_syn_is_retransmitted_at_the_initial_rto() {
    let lose_first_syn = Box::new(|k: usize, s: &Sent| k == 0 && s.hdr.syn);
    let mut n = Net::new(sender_cfg(3, rto_3s(), true), AckPolicy::Immediate, Time::ZERO, lose_first_syn);
    n.run(Time::from_secs_f64(60.0));
    assert_eq!(n.syns(), [0, 3000]);
    assert_eq!(n.syn_acks(), [3050]);
    assert_eq!(n.conn_ms(), (0, 3100, 3300));
    assert_eq!(n.data(), [(3100, 0, false), (3200, 1000, false), (3200, 2000, true)]);
    let c = n.s.connection().unwrap();
    assert_eq!((c.syn_retransmits, n.s.stats().timeouts), (1, 1));
    assert_eq!(n.s.ssthresh_bytes(), 2 * MSS, "ssthresh = max(FlightSize / 2, 2 SMSS) with nothing in flight");
    // The first data ack gave the first sample: SRTT 100 ms -> the 1 s floor.
    assert_eq!(n.s.rto_ns(), NS_PER_S);
}

/// RFC 6298's default initial RTO of 1 s: a lost SYN goes again at t1000,
/// a second loss at t3000 (backed off to 2 s). Once established, data
/// starts with an RTO of 3 s (Sec. 5.7), not the backed-off 4 s or the 1 s.
#[test]
fn rfc6298_restarts_data_at_3_s_after_a_syn_timeout() {
    let lose_two_syns = Box::new(|k: usize, s: &Sent| k < 2 && s.hdr.syn);
    let mut n = Net::new(sender_cfg(3, RtoConfig::rfc6298(), true), AckPolicy::Immediate, Time::ZERO, lose_two_syns);
    n.run(Time::from_ms(3100));
    assert_eq!(n.syns(), [0, 1000, 3000]);
    assert_eq!(n.s.connection().unwrap().established_at, Some(Time::from_ms(3100)));
    assert_eq!(n.s.rto_ns(), 3 * NS_PER_S, "Sec. 5.7: re-initialised to 3 s");
    // Nothing else is lost: the first segment's timer is 3 s, unused.
    n.run(Time::from_secs_f64(60.0));
    assert_eq!(n.conn_ms(), (0, 3100, 3300));
}

/// BSD mode (4.4BSD-Lite, BSD/OS 2.1): the SYN's timer is 12 slow ticks,
/// counted down at the host's 500 ms tick. With the tick train at 300 ms
/// (ticks at 300, 800, ... ms) a SYN at t0 goes again at the 12th tick,
/// t5800: TCPv1 Sec. 18.3's "5.8 seconds". A SYN at a tick goes again 6 s
/// later. Once established the timer stays backed off (t_rxtshift is
/// cleared only by the first timed ack): 12 ticks × 2.
#[test]
fn bsd_lost_syn_waits_for_the_twelfth_slow_tick() {
    for (phase_ms, start_ms, again_ms) in [(300, 0, 5800), (0, 0, 6000), (0, 200, 6000), (0, 500, 6500)] {
        let rto = RtoConfig { tick_phase_ns: phase_ms * NS_PER_MS, ..RtoConfig::bsd() };
        let lose_first = Box::new(|k: usize, _: &Sent| k == 0);
        let mut n = Net::new(sender_cfg(1, rto, true), AckPolicy::Immediate, Time::from_ms(start_ms), lose_first);
        n.run(Time::from_ms(again_ms + 100));
        assert_eq!(n.syns(), [start_ms, again_ms], "tick phase {phase_ms} ms, SYN at {start_ms} ms");
        assert_eq!(n.s.connection().unwrap().established_at, Some(Time::from_ms(again_ms + 100)));
        assert_eq!(n.s.rto_ns(), 12 * NS_PER_S, "still backed off: 24 ticks");
        n.run(Time::from_secs_f64(60.0));
        assert_eq!(n.s.connection().unwrap().fin_acked_at, Some(Time::from_ms(again_ms + 200)));
        assert_eq!(n.s.rto_ns(), 1_500 * NS_PER_MS, "the first data sample clears the backoff: 3 ticks");
    }
}

/// t0 SYN; t50 SYN-ACK lost; t3000 the SYN's timer: SYN again; t3050 the
/// receiver answers the duplicate SYN with a second SYN-ACK; t3100
/// ESTABLISHED. The receiver has no SYN-ACK timer of its own.
#[test]
fn lost_syn_ack_is_recovered_by_the_syn_timer() {
    let lose_first_syn_ack = Box::new(|_: usize, s: &Sent| !s.from_sender && s.hdr.syn && s.at == Time::from_ms(50));
    let mut n = Net::new(sender_cfg(3, rto_3s(), true), AckPolicy::Immediate, Time::ZERO, lose_first_syn_ack);
    n.run(Time::from_secs_f64(60.0));
    assert_eq!(n.syns(), [0, 3000]);
    assert_eq!(n.syn_acks(), [50, 3050]);
    assert_eq!(n.conn_ms(), (0, 3100, 3300));
    assert_eq!(n.s.connection().unwrap().syn_retransmits, 1);
    // One segment (RFC 5681 Sec. 3.1), ssthresh two: slow start to 2000 on
    // the first ack, then congestion avoidance: + 1000²/2000, + 1000²/2500.
    assert_eq!(n.s.cwnd_bytes(), 2900, "IW one segment after the lost SYN-ACK, then grown");
    assert_eq!(n.data()[..2], [(3100, 0, false), (3200, 1000, false)], "one segment in the first round trip");
}

/// A SYN-ACK that arrives twice (the SYN's 200 ms timer fired though
/// nothing was lost: the round trip is 300 ms) is taken once; the second,
/// reaching an established sender, changes nothing.
#[test]
fn a_duplicate_syn_ack_is_ignored() {
    let rto = RtoConfig { initial_ns: 200 * NS_PER_MS, min_ns: 200 * NS_PER_MS, ..RtoConfig::rfc6298() };
    let mut s = Sender::new(sender_cfg(1, rto, true), 0);
    let mut trace = Trace::new(false);
    s.start(Time::ZERO, &mut trace);
    assert!(s.poll_transmit(Time::ZERO, &mut trace).is_some_and(|h| h.syn));
    s.on_timer(Time::from_ms(200), &mut trace);
    assert!(s.poll_transmit(Time::from_ms(200), &mut trace).is_some_and(|h| h.syn));
    let syn_ack = TcpHeader { ack: 0, wnd_bytes: 64_000, syn: true, ..TcpHeader::default() };
    s.on_ack(Time::from_ms(300), &syn_ack, &mut trace);
    let first = s.poll_transmit(Time::from_ms(300), &mut trace).expect("data once established");
    assert_eq!((first.seq, first.len, first.fin), (0, 1000, true));
    s.on_ack(Time::from_ms(500), &syn_ack, &mut trace);
    assert!(s.poll_transmit(Time::from_ms(500), &mut trace).is_none(), "nothing resent");
    assert_eq!(s.connection().unwrap().established_at, Some(Time::from_ms(300)));
    assert_eq!(s.stats().retransmits, 0);
}

/// Delayed acks (every second segment, 200 ms timer): the one-segment
/// transfer's segment carries FIN and is acknowledged at once (4.4BSD's
/// TF_ACKNOW on a FIN), at t150, not at the delayed-ack timer.
#[test]
fn fin_rides_the_last_segment_and_is_acked_at_once() {
    let delayed = AckPolicy::Delayed { every_segments: 2, timeout_ns: 200 * NS_PER_MS };
    let mut n = Net::new(sender_cfg(1, rto_3s(), true), delayed, Time::ZERO, no_loss());
    n.run(Time::from_secs_f64(60.0));
    assert_eq!(n.data(), [(100, 0, true)]);
    assert_eq!(n.acks(), [(150, 1001)]);
    assert_eq!(n.conn_ms(), (0, 100, 200));

    let mut plain = Net::new(sender_cfg(1, rto_3s(), false), delayed, Time::ZERO, no_loss());
    plain.run(Time::from_secs_f64(60.0));
    assert_eq!(plain.acks(), [(250, 1000)], "without a FIN the ack waits for the delayed-ack timer");
}

/// The FIN segment is lost: its retransmission at the RTO carries FIN
/// again, and only its ack closes the connection. Three segments; the
/// last (with FIN) is lost at t200; the timer armed at t200 by the ack of
/// new data fires 1 s later (the SYN's sample set RTO to the 1 s floor).
#[test]
fn a_lost_fin_goes_again_with_the_last_segment() {
    let lose_fin = Box::new(|_: usize, s: &Sent| s.hdr.fin && s.at == Time::from_ms(200));
    let mut n = Net::new(sender_cfg(3, rto_3s(), true), AckPolicy::Immediate, Time::ZERO, lose_fin);
    n.run(Time::from_secs_f64(60.0));
    assert_eq!(n.data(), [(100, 0, false), (100, 1000, false), (200, 2000, true), (1200, 2000, true)]);
    assert_eq!(n.acks().last(), Some(&(1250, 3001)));
    assert_eq!(n.conn_ms(), (0, 100, 1300));
    assert!(n.s.is_closed() && n.s.stats().retransmits == 1);
}
