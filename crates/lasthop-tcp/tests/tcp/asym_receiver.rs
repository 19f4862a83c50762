//! Issue 11, seed 001: the data receiver's side of the asymmetry
//! mechanisms as timelines. AS-40 (ACK congestion control, Sec. 6.1), the
//! testbed form of Sec. 8.2, RFC 3168's ECN-Echo until CWR, and the
//! fast-retransmit request of Sec. 6.3. Segments are 1000 bytes; the
//! receive buffer holds 100 of them.

use lasthop_core::time::NS_PER_MS;
use lasthop_core::{Ecn, TcpHeader, Time, Timestamps};
use lasthop_tcp::{AccConfig, AccMode, AckPolicy, Receiver, ReceiverConfig};

const MSS: u32 = 1000;

fn config(acc: Option<AccConfig>) -> ReceiverConfig {
    ReceiverConfig {
        recv_buffer_bytes: 100 * u64::from(MSS),
        mss_bytes: MSS,
        ack_policy: AckPolicy::Delayed { every_segments: 2, timeout_ns: 200 * NS_PER_MS },
        sack: false,
        smart_echo: false,
        eln: false,
        eln_slots: None,
        ecn: false,
        ect_acks: acc.is_some_and(|a| a.mode == AccMode::Ecn),
        timestamps: true,
        acc,
        fr_request_threshold: None,
    }
}

fn acc(mode: AccMode, max_delack: u32, min_acks_win: u32) -> Option<AccConfig> {
    Some(AccConfig { mode, max_delack, min_acks_win })
}

/// The receiver and the next in-order byte it will be sent.
struct Rx {
    r: Receiver,
    next: u64,
}

impl Rx {
    fn new(cfg: ReceiverConfig) -> Rx {
        Rx { r: Receiver::new(cfg), next: 0 }
    }

    /// The next in-order segment arrives at `t_ms`, the sender's window
    /// `win` segments, echoing an ack TSval of `ecr_ms`, with or without
    /// the echo of a marked ack (ECE on data). Returns the ack sent, if any.
    fn seg(&mut self, t_ms: u64, win: u16, ecr_ms: u64, ece: bool) -> Option<TcpHeader> {
        let now = Time::from_ms(t_ms);
        let hdr = TcpHeader {
            seq: self.next,
            len: MSS,
            sender_window: Some(win),
            ts: Some(Timestamps { val_ns: now.ns(), ecr_ns: ecr_ms * NS_PER_MS }),
            ece,
            ..TcpHeader::default()
        };
        self.next += u64::from(MSS);
        self.r.on_segment(now, &hdr);
        self.r.poll_transmit(now)
    }

    fn factor(&self) -> u32 {
        self.r.acc().unwrap().factor()
    }

    fn every(&self) -> u32 {
        self.r.acc().unwrap().ack_every()
    }
}

/// AS-40: one reflected mark doubles d (cap applied), a round trip without
/// marks lowers it by one, at most one increase per round trip, never below
/// 1 nor above the window-derived cap.
#[test]
fn as40_acc_doubles_on_a_reflected_mark_and_decays_by_one_per_quiet_rtt() {
    // max_delack 25, min_acks_win 2, the sender's window 40 segments: cap 20.
    let mut rx = Rx::new(config(acc(AccMode::Ecn, 25, 2)));
    // t0: no mark yet, d = 1: every segment is acked, with an ECT ack
    // (seed 001: acks are ECN-capable so the reverse router can mark them).
    let a = rx.seg(0, 40, 0, false).expect("d = 1 acks every segment");
    assert_eq!(rx.r.ip_ecn(), Ecn::Ect);
    assert_eq!(a.ts.unwrap().val_ns, 0, "the ack carries the receiver's clock");
    assert_eq!(rx.r.acc().unwrap().cap(), 20);
    // t10: the sender echoes a marked ack: d = 2.
    assert!(rx.seg(10, 40, 0, true).is_none(), "d = 2: the first of two waits");
    assert_eq!(rx.factor(), 2);
    // t20, t30: more echoes, but the sender has echoed no ack sent since the
    // increase (TSecr 0 < 10 ms): the same round trip, no second increase.
    assert_eq!(rx.seg(20, 40, 0, true).map(|h| h.ack), Some(3000), "the second segment is acked");
    assert!(rx.seg(30, 40, 5, true).is_none());
    assert_eq!(rx.factor(), 2, "at most one increase per round trip");
    // Each later round trip (the echo is an ack TSval at or after the last
    // increase) with a mark doubles d: 4, 8, 16, then the cap 20.
    for (t, d) in [(110, 4), (210, 8), (310, 16), (410, 20), (510, 20)] {
        rx.seg(t, 40, t - 100, true);
        assert_eq!(rx.factor(), d, "t = {t} ms");
        assert!(rx.every() <= 20, "never above the cap");
    }
    // Quiet round trips: -1 each; segments within one round trip change
    // nothing (TSecr still below the time of the last decrease).
    rx.seg(610, 40, 510, false);
    assert_eq!(rx.factor(), 19);
    rx.seg(620, 40, 515, false);
    rx.seg(630, 40, 520, false);
    assert_eq!(rx.factor(), 19, "at most one decrease per round trip");
    let mut t = 710;
    while t <= 3010 {
        rx.seg(t, 40, t - 100, false);
        t += 100;
    }
    assert_eq!(rx.factor(), 1, "24 quiet round trips: down to 1");
    rx.seg(t, 40, t - 100, false);
    assert_eq!(rx.factor(), 1, "never below 1");
    // A mark in a round trip after the last increase doubles again.
    rx.seg(t + 100, 40, t, true);
    assert_eq!(rx.factor(), 2);
}

/// AS-40's cap follows the sender's window: the factor in force is never
/// above floor(min(peer_win, buffer/MSS) / min_acks_win), and a doubling is
/// bounded by the cap of its moment.
#[test]
fn as40_the_sender_window_caps_the_factor() {
    let mut rx = Rx::new(config(acc(AccMode::Ecn, 25, 2)));
    let mut t = 0;
    for _ in 0..5 {
        rx.seg(t, 64, t.saturating_sub(100), true);
        t += 100;
    }
    assert_eq!(rx.factor(), 25, "2, 4, 8, 16, then max_delack 25");
    // The sender's window shrinks to 6 segments: floor(6 / 2) = 3.
    rx.seg(t, 6, t - 100, false);
    assert_eq!(rx.every(), 3, "the factor in force is min(d, cap)");
    // A mark now: d = min(2d, cap) = 3.
    rx.seg(t + 100, 6, t, true);
    assert_eq!((rx.factor(), rx.every()), (3, 3));
    // A window of one segment: the cap floors at 1, an ack per segment.
    assert!(rx.seg(t + 110, 1, t, false).is_some());
    assert!(rx.seg(t + 120, 1, t, false).is_some());
    assert_eq!(rx.every(), 1);
}

/// ACC's delays: the factor counts in-order segments; the delayed-ack timer
/// still forces an ack; an out-of-order segment is acked at once.
#[test]
fn acc_acks_every_d_segments_the_timer_forces_one_and_out_of_order_goes_at_once() {
    let mut rx = Rx::new(config(acc(AccMode::Ecn, 25, 2)));
    // t0, t100: two marks a round trip apart: d = 4.
    rx.seg(0, 40, 0, true);
    rx.seg(100, 40, 0, true);
    assert_eq!(rx.factor(), 4);
    // t200: the delayed-ack timer armed at t0 acks the two segments held.
    let at = rx.r.poll_at();
    assert_eq!(at, Time::from_ms(200));
    rx.r.on_timer(at);
    assert_eq!(rx.r.poll_transmit(at).map(|h| h.ack), Some(2000));
    // t201..t208: eight segments within the round trip (their echoes are
    // older than the increase, so d stays 4): acks after the 4th and 8th.
    let acked: Vec<u64> = (1..=8).filter_map(|i| rx.seg(200 + i, 40, 0, false)).map(|h| h.ack).collect();
    assert_eq!(acked, vec![6000, 10_000]);
    // t220: one more segment, then silence: the timer forces its ack 200 ms on.
    let t = 220;
    assert!(rx.seg(t, 40, 0, false).is_none());
    let at = rx.r.poll_at();
    assert_eq!(at, Time::from_ms(t + 200));
    rx.r.on_timer(Time::from_ms(t + 199));
    assert!(rx.r.poll_transmit(Time::from_ms(t + 199)).is_none());
    rx.r.on_timer(at);
    assert_eq!(rx.r.poll_transmit(at).map(|h| h.ack), Some(rx.next));
    // A hole: the segment after it is acked at once, whatever d.
    let now = Time::from_ms(t + 300);
    let ooo = TcpHeader { seq: rx.next + 1000, len: MSS, sender_window: Some(40), ..TcpHeader::default() };
    rx.r.on_segment(now, &ooo);
    assert_eq!(rx.r.poll_transmit(now).map(|h| h.ack), Some(rx.next), "a duplicate ack at once");
}

/// Seed 001 Sec. 8.2, the testbed form: del_ack = min(max_delack,
/// floor(win / min_acks_win)), win = min(peer_win, receive buffer / MSS),
/// at least 1; no marks, no timestamps needed.
#[test]
fn testbed_acc_acks_once_per_min_of_max_delack_and_window_share() {
    let mut cfg = config(acc(AccMode::Testbed, 25, 2));
    cfg.timestamps = false;
    let every = |cfg: ReceiverConfig, peer_win: u16| {
        let mut rx = Rx::new(cfg);
        rx.seg(0, peer_win, 0, false);
        rx.every()
    };
    assert_eq!(every(cfg, 40), 20, "window share: 40 / 2");
    assert_eq!(every(cfg, 64), 25, "max_delack");
    assert_eq!(every(cfg, 1), 1, "floor(1 / 2) = 0, at least 1");
    assert_eq!(every(ReceiverConfig { recv_buffer_bytes: 16_000, ..cfg }, 64), 8, "receive buffer: 16 / 2");
    assert_eq!(every(config(acc(AccMode::Testbed, 25, 3)), 10), 3, "three acks per window");
    // The factor is the cap at once (no marks): 20 segments, one ack.
    let mut rx = Rx::new(cfg);
    let acks = (0..40).filter(|&i| rx.seg(i, 40, 0, true).is_some()).count();
    assert_eq!(acks, 2, "40 segments at 20 per ack; echoes of marks are ignored");
    assert_eq!(rx.r.ip_ecn(), Ecn::NotEct, "testbed acks are not ECN-capable");
}

/// RFC 3168 Sec. 6.1.3: a CE-marked data segment sets ECE on every ack
/// until a segment with CWR arrives.
#[test]
fn ecn_receiver_echoes_ce_until_cwr() {
    let mut cfg = config(None);
    cfg.ecn = true;
    cfg.ack_policy = AckPolicy::Immediate;
    let mut r = Receiver::new(cfg);
    let seg = |seq: u64, cwr: bool| TcpHeader { seq, len: MSS, cwr, ..TcpHeader::default() };
    let t = Time::ZERO;
    r.on_segment(t, &seg(0, false));
    assert!(!r.poll_transmit(t).unwrap().ece);
    // t1: segment 1000 arrives CE-marked: its ack and the next carry ECE.
    r.on_segment(t, &seg(1000, false));
    r.on_ce_mark();
    assert!(r.poll_transmit(t).unwrap().ece);
    r.on_segment(t, &seg(2000, false));
    assert!(r.poll_transmit(t).unwrap().ece, "until CWR");
    // t2: the sender's CWR arrives: the series ends.
    r.on_segment(t, &seg(3000, true));
    assert!(!r.poll_transmit(t).unwrap().ece);
    assert_eq!(r.ip_ecn(), Ecn::NotEct, "plain RFC 3168 acks are not ECT");
}

/// Seed 001 Sec. 6.3: once `threshold` segments have arrived above a hole,
/// duplicate acks carry the fast-retransmit request.
#[test]
fn fast_retransmit_request_marks_dupacks_from_the_threshold() {
    let mut cfg = config(None);
    cfg.fr_request_threshold = Some(3);
    cfg.ack_policy = AckPolicy::Immediate;
    let mut r = Receiver::new(cfg);
    let t = Time::ZERO;
    let mut ack = |seq: u64| {
        r.on_segment(t, &TcpHeader { seq, len: MSS, ..TcpHeader::default() });
        let h = r.poll_transmit(t).unwrap();
        (h.ack, h.fr_request)
    };
    assert_eq!(ack(0), (1000, false));
    // 1000 is lost; 2000.. arrive out of order.
    assert_eq!(ack(2000), (1000, false));
    assert_eq!(ack(3000), (1000, false));
    assert_eq!(ack(4000), (1000, true), "the third out-of-order segment");
    assert_eq!(ack(5000), (1000, true), "and every duplicate after");
    // The retransmission fills the hole: a new ack, unmarked; the count restarts.
    assert_eq!(ack(1000), (6000, false));
    assert_eq!(ack(7000), (6000, false));
}
