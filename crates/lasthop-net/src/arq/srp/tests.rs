//! SRP through the family's interface: the configuration, unit timelines
//! (the test carries packets and acks between the two sides, losing what
//! it chooses), the handoff, then a slot-level channel (one packet a slot
//! each way, a propagation delay of [`DELAY`] slots each way, FIFO,
//! independent loss with probability `p` both ways, a seeded
//! [`RngStream`]) for the ns-3 grid, MHP-1 and the properties. Packets are
//! plain numbers; time is counted in slots (`Time(t)`: slot `t`, so the
//! RTO is in slots).

use super::*;
use crate::arq::test_channel::{ns3_margin_opportunities, transmit, ups, GRID_LOSS, NS3_POLL_RETRANSMIT, T0};
use lasthop_core::rng::RngStream;
use lasthop_core::trace::DropCause;
use proptest::prelude::*;

/// A fixed RTO of `rto` slots, window 8 (initial 8), in order, persistent.
fn cfg(rto: u64) -> SrpConfig {
    SrpConfig { window_max: 8, initial_window: 8, rto: Rto::Fixed { ns: rto }, ..SrpConfig::default() }
}

// ---------------------------------------------------------------- config

#[test]
fn validate_names_each_bad_field_in_one_line() {
    assert_eq!(SrpConfig::default().validate(), Ok(()));
    let bad = |c: SrpConfig| c.validate().unwrap_err();
    let d = SrpConfig::default();
    assert_eq!(bad(SrpConfig { window_max: 0, ..d }).0, "window_max");
    assert_eq!(bad(SrpConfig { window_max: 65, ..d }).0, "window_max");
    assert_eq!(bad(SrpConfig { initial_window: 0, ..d }).0, "initial_window");
    assert_eq!(bad(SrpConfig { initial_window: 33, ..d }).0, "initial_window");
    assert_eq!(bad(SrpConfig { rto: Rto::Fixed { ns: 0 }, ..d }), ("rto", "must be positive"));
    let est = |initial_ns, min_ns, max_ns| SrpConfig { rto: Rto::Estimated { initial_ns, min_ns, max_ns }, ..d };
    assert_eq!(bad(est(0, 1, 2)).0, "rto");
    assert_eq!(bad(est(1, 0, 2)).0, "rto");
    assert_eq!(bad(est(1, 3, 2)), ("rto", "min_ns must not exceed max_ns"));
    assert_eq!(
        bad(SrpConfig { retry_limit: Some(0), ..d }),
        ("retry_limit", "must be at least 1, or none for persistent")
    );
    assert_eq!(SrpConfig { retry_limit: Some(1), ..d }.validate(), Ok(()));
    for c in [SrpConfig { window_max: 0, ..d }, SrpConfig { initial_window: 0, ..d }, est(1, 3, 2)] {
        let (field, why) = bad(c);
        assert!(!field.contains('\n') && !why.contains('\n'));
    }
}

// ---------------------------------------------------------------- timelines

#[test]
fn a_lost_packet_is_sacked_by_the_next_out_of_sequence_arrival_and_resent_once() {
    let c = cfg(64);
    let (mut s, mut r) = (Sender::new(c), Receiver::new(&c));
    for f in [10, 11, 12] {
        s.offer(T0, f);
    }
    transmit(&mut s, T0); // 0 lost
    let (f1, h1) = transmit(&mut s, Time(1));
    let (f2, h2) = transmit(&mut s, Time(2));
    let a1 = r.on_frame(Time(5), f1.seq, h1);
    assert!(a1.deliver);
    assert_eq!(a1.ack, Ack { cum: 0, got: 1, tx: 2, missing: 0b1 });
    assert!(a1.ack.is_sack() && a1.ack.names(0));
    assert_eq!(ups(&mut r), Vec::<Seq>::new(), "in order: 1 waits for 0");
    assert_eq!(s.on_ack(Time(9), a1.ack), 1, "1 acked");
    let (again, h) = transmit(&mut s, Time(9));
    assert_eq!(again, Send { seq: 0, frame: 10, retransmission: true });
    assert_eq!(h, Header { tx: 4, floor: 0 });
    // The SACK for 2 names 0 again, but 0's last copy (tx 4) went after 2's
    // (tx 3): not resent again.
    let a2 = r.on_frame(Time(6), f2.seq, h2);
    assert!(a2.ack.names(0));
    assert_eq!(s.on_ack(Time(10), a2.ack), 1);
    assert_eq!(s.next(Time(10)), None, "once");
    assert!(r.on_frame(Time(13), again.seq, h).deliver);
    assert_eq!(ups(&mut r), vec![0, 1, 2]);
    assert_eq!(s.on_ack(Time(17), Ack { cum: 3, got: 0, tx: 4, missing: 0 }), 1);
    assert_eq!((s.in_flight(), s.floor(), s.deadline()), (0, 3, None));
    assert_eq!((s.stats().sack_resends, s.stats().timeout_resends, r.stats().duplicates), (1, 0, 0));
}

#[test]
fn a_lost_sack_is_made_good_by_the_next_sack() {
    let c = cfg(64);
    let (mut s, mut r) = (Sender::new(c), Receiver::new(&c));
    for f in [10, 11, 12] {
        s.offer(T0, f);
    }
    transmit(&mut s, T0); // 0 lost
    let (f1, h1) = transmit(&mut s, Time(1));
    let (f2, h2) = transmit(&mut s, Time(2));
    let _lost_sack = r.on_frame(Time(5), f1.seq, h1).ack;
    let a2 = r.on_frame(Time(6), f2.seq, h2).ack;
    assert!(a2.names(0) && a2.received(1) && a2.received(2));
    assert_eq!(s.on_ack(Time(10), a2), 2, "1 (not named missing below 2) and 2");
    assert_eq!(s.next(Time(10)).map(|f| (f.seq, f.retransmission)), Some((0, true)));
}

#[test]
fn a_lost_sack_with_no_later_one_is_made_good_by_the_timeout() {
    let c = cfg(64);
    let (mut s, mut r) = (Sender::new(c), Receiver::new(&c));
    s.offer(T0, 10);
    s.offer(T0, 11);
    transmit(&mut s, T0); // 0 lost
    let (f1, h1) = transmit(&mut s, Time(1));
    let _lost_sack = r.on_frame(Time(5), f1.seq, h1).ack;
    assert_eq!(s.next(Time(10)), None, "no evidence");
    assert_eq!(s.deadline(), Some(Time(65)));
    assert_eq!(s.on_timeout(Time(65)), Expiry::Resend);
    let (f, h) = transmit(&mut s, Time(65));
    assert_eq!((f.seq, s.stats().timeout_resends, s.cwnd()), (0, 1, 1));
    let a = r.on_frame(Time(69), f.seq, h);
    assert!(a.deliver);
    assert_eq!(ups(&mut r), vec![0, 1]);
    assert_eq!(s.on_ack(Time(73), a.ack), 2, "the cumulative ack covers 1");
    assert_eq!((s.in_flight(), s.cwnd()), (0, 3));
}

#[test]
fn a_tail_loss_is_recovered_by_the_timeout_the_window_falls_to_1_and_rebuilds() {
    let c = cfg(64);
    let (mut s, mut r) = (Sender::new(c), Receiver::new(&c));
    let mut offered = 0;
    let mut fill = |s: &mut Sender<u32>| {
        while s.has_room() {
            assert_eq!(s.offer(T0, offered), offered);
            offered += 1;
        }
    };
    fill(&mut s);
    // 8 go (the window), the last of them is lost.
    let sent: Vec<_> = (0..8).map(|t| transmit(&mut s, Time(t))).collect();
    assert_eq!(s.next(Time(8)), None, "the window is full");
    for (f, h) in &sent[..7] {
        let a = r.on_frame(Time(f.seq as u64 + 4), f.seq, *h);
        assert!(!a.ack.is_sack());
        s.on_ack(Time(f.seq as u64 + 8), a.ack);
    }
    assert_eq!(s.cwnd(), 8, "capped at window_max");
    fill(&mut s);
    // 7 is lost, 8 goes and is lost too: nothing arrives to prove a loss.
    let (f, _) = transmit(&mut s, Time(15));
    assert_eq!(f.seq, 8);
    assert_eq!(s.deadline(), Some(Time(15 + 64)));
    assert_eq!(s.on_timeout(Time(79)), Expiry::Resend);
    assert_eq!(s.cwnd(), 1);
    let (f7, h7) = transmit(&mut s, Time(79));
    assert_eq!((f7.seq, f7.retransmission), (7, true));
    assert_eq!(s.next(Time(80)), None, "window 1: nothing new until an ack");
    let a = r.on_frame(Time(83), f7.seq, h7);
    assert_eq!(ups(&mut r), (0..8).collect::<Vec<_>>());
    assert_eq!(s.on_ack(Time(87), a.ack), 1);
    assert_eq!(s.cwnd(), 2, "+1 per packet acked");
    fill(&mut s);
    // 8 was sent before the timeout and unresolved at it: stale, it goes
    // again first as the window rebuilds; 9 is new and within the window.
    let (f8, h8) = transmit(&mut s, Time(87));
    assert_eq!((f8.seq, f8.retransmission), (8, true));
    let (f9, h9) = transmit(&mut s, Time(87));
    assert_eq!((f9.seq, f9.retransmission), (9, false));
    assert_eq!(s.next(Time(88)), None, "window 2: 8 and 9");
    let a = r.on_frame(Time(91), f8.seq, h8);
    assert_eq!(s.on_ack(Time(95), a.ack), 1);
    assert_eq!(s.cwnd(), 3);
    let a = r.on_frame(Time(91), f9.seq, h9);
    assert_eq!(ups(&mut r), vec![8, 9]);
    assert_eq!(s.on_ack(Time(103), a.ack), 1);
    assert_eq!(s.stats().timeout_resends, 2, "7 at the timeout, 8 stale");
    assert_eq!(s.cwnd(), 4, "rebuilding, one per packet acked");
    fill(&mut s);
    let news: Vec<_> = std::iter::from_fn(|| s.next(Time(103)).map(|f| s.on_transmit(Time(103), f.seq)).map(|_| ()))
        .take(10)
        .collect();
    assert_eq!(news.len(), 4, "a window of 4 new packets");
}

#[test]
fn a_duplicate_is_never_handed_up() {
    let c = cfg(64);
    let (mut s, mut r) = (Sender::new(c), Receiver::new(&c));
    s.offer(T0, 10);
    let (f, h) = transmit(&mut s, T0);
    assert!(r.on_frame(Time(4), f.seq, h).deliver);
    assert_eq!(ups(&mut r), vec![0]);
    s.on_delivered(0);
    assert!(!s.holds(0));
    // The ack is lost; the timeout resends a packet the receiver has.
    assert_eq!(s.on_timeout(Time(64)), Expiry::Resend);
    let (f, h) = transmit(&mut s, Time(64));
    let got = r.on_frame(Time(68), f.seq, h);
    assert!(!got.deliver);
    assert_eq!((ups(&mut r).len(), r.stats().duplicates), (0, 1));
    assert_eq!(s.on_ack(Time(72), got.ack), 1);
    assert_eq!(s.in_flight(), 0);
}

#[test]
fn out_of_order_hands_up_on_arrival_in_order_waits() {
    for delivery in [Delivery::InOrder, Delivery::OutOfOrder] {
        let c = SrpConfig { delivery, ..cfg(64) };
        let (mut s, mut r) = (Sender::new(c), Receiver::new(&c));
        s.offer(T0, 10);
        s.offer(T0, 11);
        transmit(&mut s, T0); // lost
        let (f1, h1) = transmit(&mut s, Time(1));
        let a = r.on_frame(Time(5), f1.seq, h1).ack;
        let early = ups(&mut r);
        assert_eq!(r.buffered(), u32::from(delivery == Delivery::InOrder));
        s.on_ack(Time(9), a);
        let (f0, h0) = transmit(&mut s, Time(9));
        r.on_frame(Time(13), f0.seq, h0);
        let late = ups(&mut r);
        match delivery {
            Delivery::InOrder => assert_eq!((early, late), (vec![], vec![0, 1])),
            Delivery::OutOfOrder => assert_eq!((early, late), (vec![1], vec![0])),
        }
    }
}

#[test]
fn the_retry_limit_drops_a_packet_with_retry_limit_and_the_floor_unblocks_the_receiver() {
    let c = SrpConfig { retry_limit: Some(1), ..cfg(64) };
    let (mut s, mut r) = (Sender::new(c), Receiver::new(&c));
    for f in [10, 11, 12, 13] {
        s.offer(T0, f);
    }
    transmit(&mut s, T0); // 0 lost
    let (f1, h1) = transmit(&mut s, Time(1));
    let a = r.on_frame(Time(5), f1.seq, h1).ack;
    s.on_ack(Time(9), a);
    let (again, _) = transmit(&mut s, Time(9)); // 0 lost again
    assert_eq!(again.seq, 0);
    let (f2, h2) = transmit(&mut s, Time(10));
    let a = r.on_frame(Time(14), f2.seq, h2).ack;
    assert_eq!(s.pop_dropped(), None);
    s.on_ack(Time(18), a);
    assert_eq!(s.pop_dropped(), Some((0, 10)), "two transmissions, both lost");
    assert_eq!((s.pop_dropped(), s.stats().dropped, s.floor()), (None, 1, 3));
    assert!(ups(&mut r).is_empty(), "the receiver still waits for 0");
    let (f3, h3) = transmit(&mut s, Time(18));
    assert_eq!((f3.seq, h3.floor), (3, 3));
    r.on_frame(Time(22), f3.seq, h3);
    assert_eq!(ups(&mut r), vec![1, 2, 3], "0 skipped, the rest in order");
    // The timeout at the limit: an expiry with the cause.
    let mut s: Sender<u32> = Sender::new(c);
    s.offer(T0, 20);
    transmit(&mut s, T0);
    assert_eq!(s.on_timeout(Time(64)), Expiry::Resend);
    transmit(&mut s, Time(64));
    assert_eq!(s.on_timeout(Time(128)), Expiry::Drop { frame: 20, cause: DropCause::RetryLimit });
    assert_eq!((s.in_flight(), s.deadline(), s.floor(), s.stats().dropped), (0, None, 1, 1));
}

#[test]
fn the_estimated_rto_follows_the_round_trip_and_backs_off() {
    let c = SrpConfig { rto: Rto::Estimated { initial_ns: 100, min_ns: 5, max_ns: 1000 }, ..cfg(1) };
    let (mut s, mut r) = (Sender::new(c), Receiver::new(&c));
    assert_eq!(s.rto_ns(), 100, "before a sample");
    for f in 0..3 {
        s.offer(T0, f);
    }
    let (f, h) = transmit(&mut s, T0);
    s.on_ack(Time(8), r.on_frame(Time(4), f.seq, h).ack);
    assert_eq!(s.rto_ns(), 8 + 4 * 4, "srtt 8, rttvar 4");
    let (f, h) = transmit(&mut s, Time(8));
    s.on_ack(Time(16), r.on_frame(Time(12), f.seq, h).ack);
    assert_eq!(s.rto_ns(), 8 + 4 * 3, "rttvar 3/4 of 4");
    transmit(&mut s, Time(16));
    assert_eq!(s.on_timeout(Time(36)), Expiry::Resend);
    assert_eq!(s.rto_ns(), 40, "doubled");
    // Karn: the resent packet's ack gives no sample, but resets the backoff.
    let (f, h) = transmit(&mut s, Time(36));
    s.on_ack(Time(300), r.on_frame(Time(40), f.seq, h).ack);
    assert_eq!(s.rto_ns(), 20);
}

// ---------------------------------------------------------------- handoff

#[test]
fn a_handoff_mid_transfer_loses_and_duplicates_nothing_and_the_state_grows_with_buffers() {
    let c = cfg(64);
    let mut old: Station<u32> = Station::new(c);
    let mut mh = Receiver::new(&c);
    let mut mh_up: Sender<u32> = Sender::new(c);
    for f in 0..8 {
        old.send.offer(T0, f);
        mh_up.offer(T0, 100 + f);
    }
    let size = |st: &SrpState<u32>| st.bytes(|_| 1000, 1000);
    let empty = size(&old.export_state());
    // Downlink: 0..8 go, 2 and 5 lost; their acks never reach the old BS.
    let down: Vec<_> = (0..8).map(|t| transmit(&mut old.send, Time(t))).collect();
    let mut handed = vec![];
    for (f, h) in down.iter().filter(|(f, _)| f.seq != 2 && f.seq != 5) {
        mh.on_frame(Time(f.seq as u64 + 4), f.seq, *h);
        handed.extend(ups(&mut mh));
    }
    assert_eq!(handed, vec![0, 1]);
    // Uplink: 0..4 go, 1 lost: the old BS buffers 2 and 3 (in order).
    let up: Vec<_> = (0..4).map(|t| transmit(&mut mh_up, Time(t))).collect();
    let mut bs_handed = vec![];
    for (f, h) in up.iter().filter(|(f, _)| f.seq != 1) {
        let a = old.recv.on_frame(Time(f.seq as u64 + 4), f.seq, *h);
        bs_handed.extend(ups(&mut old.recv));
        mh_up.on_ack(Time(f.seq as u64 + 8), a.ack);
    }
    assert_eq!(bs_handed, vec![0]);
    let st = old.export_state();
    assert_eq!((st.window.len(), st.rx_buffered), (8, 2));
    let full = size(&st);
    assert_eq!(full - empty, 2 * 1000, "the buffered uplink packets");
    assert_eq!(empty, STATE_CONTROL_BYTES + 8 * (STATE_SLOT_BYTES + 1000), "the window's packets, sent or not");
    // The new BS takes over at slot 20; nothing it knows is settled, so the
    // timeout resends the oldest, whose ack's SACK proves 5 lost.
    let mut new = Station::from_state(c, Time(20), st);
    assert_eq!(new.send.deadline(), Some(Time(84)));
    assert_eq!(new.send.on_timeout(Time(84)), Expiry::Resend);
    let (f, h) = transmit(&mut new.send, Time(84));
    assert_eq!(f.seq, 0, "the oldest unresolved: a copy the MH has");
    let a = mh.on_frame(Time(88), f.seq, h);
    assert!(!a.deliver, "never handed up twice");
    assert_eq!(a.ack.cum, 2);
    new.send.on_ack(Time(92), a.ack);
    assert_eq!(new.send.floor(), 2);
    let mut t = 92;
    while new.send.in_flight() > 0 {
        if new.send.next(Time(t)).is_none() {
            assert_eq!(new.send.on_timeout(Time(t)), Expiry::Resend);
        }
        let (f, h) = transmit(&mut new.send, Time(t));
        let a = mh.on_frame(Time(t + 4), f.seq, h);
        handed.extend(ups(&mut mh));
        new.send.on_ack(Time(t + 8), a.ack);
        t += 8;
    }
    assert_eq!(handed, (0..8).collect::<Vec<_>>(), "downlink: all, once, in order");
    // Uplink: the old BS's SACKs proved 1 lost; the MH resends it to the
    // new BS, which hands up 1 and the 2 and 3 it took over.
    let (f, h) = transmit(&mut mh_up, Time(64));
    assert_eq!((f.seq, f.retransmission), (1, true));
    new.recv.on_frame(Time(68), f.seq, h);
    bs_handed.extend(ups(&mut new.recv));
    assert_eq!(bs_handed, vec![0, 1, 2, 3], "uplink: all, once, in order");
}

// ---------------------------------------------------------------- the channel

/// One-way delay in slots: a packet sent in slot `t` arrives in `t +
/// DELAY`, its ack (sent at once) back at the sender in `t + 2 DELAY`.
const DELAY: u64 = 4;

/// A round trip in slots.
const RTT: u64 = 2 * DELAY;

/// Which way a packet goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    /// Data, sender to receiver: (seq, a retransmission).
    Data(Seq, bool),
    /// An ack, receiver to sender.
    Ack,
}

/// A run: `n` packets offered at slot 0 (bulk, as the window lets them
/// in), one packet a slot, the loss source `lose` deciding each packet and
/// ack; a handoff of the sender's station at `handoff_at` (the acks on the
/// way to the old BS are lost).
#[derive(Clone, Copy, Debug)]
struct Run {
    cfg: SrpConfig,
    n: u32,
    /// Give up at this slot (the test fails if it must).
    limit: u64,
    handoff_at: Option<u64>,
}

/// What a run did.
#[derive(Debug, Default)]
struct Outcome {
    /// Packets handed up, in the order they were.
    up: Vec<Seq>,
    dropped: Vec<Seq>,
    /// The slot at which every packet was handed up or dropped.
    slots: u64,
    /// When the last packet was handed up.
    last_up_at: u64,
    /// When a SACK first reached the sender.
    first_sack_at: Option<u64>,
    /// (seq, slot) of every retransmission.
    resends: Vec<(Seq, u64)>,
    /// The state-transfer message's size at the handoff (1000-byte packets).
    handoff_bytes: Option<u64>,
    stats: SenderStats,
    duplicates_received: u64,
    finished: bool,
}

fn run(run: Run, lose: &mut dyn FnMut(u64, Way) -> bool) -> Outcome {
    let c = run.cfg;
    let (mut bs, mut r): (Station<u32>, Receiver) = (Station::new(c), Receiver::new(&c));
    let n = run.n;
    let mut fwd: VecDeque<(u64, Seq, Header)> = VecDeque::new();
    let mut rev: VecDeque<(u64, Ack)> = VecDeque::new();
    let mut handed = vec![false; n as usize];
    let mut out = Outcome::default();
    let mut offered = 0u32;
    let mut t = 0u64;
    while t < run.limit {
        let now = Time(t);
        if run.handoff_at == Some(t) {
            let st = bs.export_state();
            out.handoff_bytes = Some(st.bytes(|_| 1000, 1000));
            let stats = bs.send.stats();
            bs = Station::from_state(c, now, st);
            bs.send.stats = stats;
            rev.clear();
        }
        while fwd.front().is_some_and(|x| x.0 == t) {
            let (_, seq, h) = fwd.pop_front().unwrap();
            let got = r.on_frame(now, seq, h);
            out.duplicates_received += u64::from(!got.deliver);
            while let Some(up) = r.pop_up() {
                assert!(!handed[up as usize], "packet {up} handed up twice");
                handed[up as usize] = true;
                out.up.push(up);
                out.last_up_at = t;
                bs.send.on_delivered(up);
            }
            if !lose(t, Way::Ack) {
                rev.push_back((t + DELAY, got.ack));
            }
        }
        while rev.front().is_some_and(|x| x.0 == t) {
            let (_, a) = rev.pop_front().unwrap();
            if a.is_sack() && out.first_sack_at.is_none() {
                out.first_sack_at = Some(t);
            }
            bs.send.on_ack(now, a);
            while let Some((seq, _)) = bs.send.pop_dropped() {
                out.dropped.push(seq);
            }
        }
        if bs.send.deadline().is_some_and(|d| d <= now) {
            match bs.send.on_timeout(now) {
                Expiry::Resend | Expiry::GaveUpDelivered { .. } => {}
                Expiry::Drop { frame, cause } => {
                    assert_eq!(cause, DropCause::RetryLimit);
                    out.dropped.push(frame);
                }
            }
        }
        if out.up.len() + out.dropped.len() == n as usize {
            out.finished = true;
            break;
        }
        assert!((1..=c.window_max).contains(&bs.send.cwnd()) && bs.send.in_flight() <= c.window_max as usize);
        while offered < n && bs.send.has_room() {
            assert_eq!(bs.send.offer(now, offered), offered);
            offered += 1;
        }
        if let Some(f) = bs.send.next(now) {
            if f.retransmission {
                out.resends.push((f.seq, t));
            }
            let h = bs.send.on_transmit(now, f.seq);
            if !lose(t, Way::Data(f.seq, f.retransmission)) {
                fwd.push_back((t + DELAY, f.seq, h));
            }
        }
        t += 1;
    }
    out.slots = t;
    out.stats = bs.send.stats();
    assert_eq!(out.duplicates_received, r.stats().duplicates);
    out
}

/// Independent loss with probability `p` on every packet and ack.
fn bernoulli(p: f64, seed: u64) -> impl FnMut(u64, Way) -> bool {
    let mut rng = RngStream::new(seed, "srp-test-channel");
    move |_, _| rng.bernoulli(p)
}

/// Every packet handed up once (checked as it happens), in order, none
/// dropped, before the limit.
fn assert_complete(o: &Outcome, n: u32, what: &str) {
    assert!(o.finished, "{what}: unfinished at slot {}", o.slots);
    assert!(o.dropped.is_empty(), "{what}: dropped {:?}", o.dropped);
    assert!(o.up.iter().copied().eq(0..n), "{what}: not in order");
}

/// The grid's configuration: the defaults with a fixed RTO of a round
/// trip plus ns-3's `t-PollRetransmit` (the poll timer on top of the time
/// an answer takes here), in slots.
fn grid_cfg() -> SrpConfig {
    SrpConfig { rto: Rto::Fixed { ns: RTT + NS3_POLL_RETRANSMIT }, ..SrpConfig::default() }
}

/// MHP-1 at the ARQ level, one timeline: a window of 8 sent in slots 0 to
/// 7 over the channel ([`DELAY`] 4 slots each way, `RTT` 8), packets 2 and
/// 5 lost. The first SACK (for 3, naming 2) reaches the sender in slot 11
/// and 2 goes at once; the SACK for 4 names 2 again but proves nothing (2's
/// new copy went after 4's); the SACK for 6 (slot 14) names 5, which goes
/// at once. Both are resent within one round trip of the first SACK and
/// every packet is handed up within two round trips of the first loss
/// (slot 2 to slot 18): two losses in one round trip, no timeout.
#[test]
fn two_losses_in_one_window_are_both_recovered_within_one_rtt() {
    let c = SrpConfig { window_max: 8, initial_window: 8, rto: Rto::Fixed { ns: 4 * RTT }, ..SrpConfig::default() };
    let o = run(Run { cfg: c, n: 8, limit: 1000, handoff_at: None }, &mut |_, w| matches!(w, Way::Data(2 | 5, false)));
    assert_complete(&o, 8, "two losses");
    assert_eq!(o.first_sack_at, Some(11));
    assert_eq!(o.resends, vec![(2, 11), (5, 14)]);
    assert_eq!(o.last_up_at, 18);
    let rtts = (o.last_up_at - 2) as f64 / RTT as f64;
    assert!(rtts <= 2.0, "{rtts} RTTs from the first loss");
    assert!(o.resends.iter().all(|&(_, at)| at - 11 <= RTT));
    assert_eq!(o.stats.timeouts, 0);
    println!("two losses: resent at slots 11 and 14 (first SACK 11), all handed up at slot 18: {rtts} RTTs from the first loss");
}

// ---------------------------------------------------------------- the grid

/// The grid's deadline in slots, derived as the RLP grid's is (see
/// `rlp/tests.rs`, `deadline`): `N / throughput + spread + margin`, the
/// throughput the least of the full-buffer bounds, in packets per slot:
///
/// - the data channel's: one packet a slot, a fraction `q = 1 - p` through;
/// - the window's: `W` packets per round trip (`2 DELAY + 1` slots: sent,
///   acked, the next one sent), thinned by loss, `W q / (2 DELAY + 1)`
///   (above one packet a slot here: it never binds with `W` 32 and `DELAY`
///   4, but would with a smaller window or a longer path);
/// - the timeout's, where it drives SRP: a timeout sets the window to 1
///   and resends one packet, and the window grows only with acks; once a
///   packet and its ack both get through less often than not (`q^2 < 1/2`,
///   here from 50 % loss), the window stays near 1 and SRP runs as
///   stop-and-wait on its timer, one attempt per `T_rto + 1` slots, each
///   through both ways with probability `q^2`: `q^2 / (T_rto + 1)`. It is
///   pessimistic (an ack that gets through raises the window, one that
///   proves packets lost resends them at once).
///
/// Plus six standard deviations of a sum of `N` geometric variables of the
/// regime, `cycle sqrt(N (1 - s)) / s` (`s`: a packet's chance a cycle,
/// `q` or `q^2`; `cycle`: 1 slot or `T_rto + 1`), and ns-3's empirical
/// margin counted in the regime's cycles.
fn deadline(c: &SrpConfig, p: f64, n: u32) -> u64 {
    let Rto::Fixed { ns: rto } = c.rto else { panic!("the grid's RTO is fixed") };
    let q = 1.0 - p;
    let (cycle, s) = if q * q < 0.5 { ((rto + 1) as f64, q * q) } else { (1.0, q) };
    let window = f64::from(c.window_max) * q / (RTT + 1) as f64;
    let throughput = (s / cycle).min(window);
    let n = f64::from(n);
    let spread = 6.0 * cycle * (n * (1.0 - s)).sqrt() / s;
    (n / throughput + spread + ns3_margin_opportunities(p) * cycle).ceil() as u64
}

/// ns-3's `lte-rlc-am-e2e` grid (loss 0 to 95 % both ways, 30 seeds, 1000
/// SDUs, bulk arrival) for persistent SRP (the defaults, the RTO fixed at
/// a round trip plus `t-PollRetransmit`) over a path of [`DELAY`] slots
/// each way: all handed up, in order, none twice, by [`deadline`]. Prints
/// the worst run per cell against it, with the most timeouts a run took.
#[test]
fn ns3_rlc_am_grid_srp_delivers_all_in_order_once_by_the_deadline() {
    let (n, c) = (1000, grid_cfg());
    for p in GRID_LOSS {
        let limit = deadline(&c, p, n);
        let (mut worst, mut timeouts) = (0, 0);
        for seed in 1..=30 {
            let o = run(Run { cfg: c, n, limit, handoff_at: None }, &mut bernoulli(p, seed));
            assert_complete(&o, n, &format!("srp p={p} seed={seed}"));
            worst = worst.max(o.slots);
            timeouts = timeouts.max(o.stats.timeouts);
        }
        println!("grid srp p={p:.2}: worst {worst:>7} slots, deadline {limit:>7}, most timeouts {timeouts}");
    }
}

// ---------------------------------------------------------------- MHP-1

/// MHP-1 (seed 002 Sec. 5.3: "SRP also can recover more than one packet in
/// one round trip time"): `k` packets (k = 1 to 5) among those one round
/// trip puts in flight (`RTT` consecutive packets from 64, the window full
/// by then) lose their first copy, nothing else is lost; over 10 seeds
/// (which `k` of the `RTT`), 200 packets: each is retransmitted exactly
/// once, all within one round trip of the first SACK reaching the sender,
/// with no timeout, and all handed up in order once. Prints, per `k`, the
/// most slots from the first SACK to the last retransmission.
#[test]
fn mhp_1_k_losses_in_one_window_are_all_retransmitted_within_one_rtt_of_the_first_sack() {
    let n = 200;
    let c = SrpConfig { rto: Rto::Fixed { ns: 4 * RTT }, ..SrpConfig::default() };
    for k in 1..=5usize {
        let mut most = 0;
        for seed in 1..=10 {
            let mut rng = RngStream::new(seed, "srp-test-mhp-1");
            let mut lost: Vec<Seq> = vec![];
            while lost.len() < k {
                let x = 64 + rng.below(RTT) as Seq;
                if !lost.contains(&x) {
                    lost.push(x);
                }
            }
            lost.sort_unstable();
            let o = run(
                Run { cfg: c, n, limit: 10_000, handoff_at: None },
                &mut |_, w| matches!(w, Way::Data(seq, false) if lost.contains(&seq)),
            );
            assert_complete(&o, n, &format!("MHP-1 k={k} seed={seed}"));
            let resent: Vec<Seq> = o.resends.iter().map(|r| r.0).collect();
            assert_eq!(resent, lost, "k={k} seed={seed}: each lost packet resent once, none else");
            assert_eq!(o.stats.timeouts, 0, "k={k} seed={seed}: a timeout");
            let first = o.first_sack_at.expect("a SACK");
            let last = o.resends.iter().map(|r| r.1).max().unwrap();
            assert!(
                last <= first + RTT,
                "k={k} seed={seed}: lost {lost:?}, first SACK at {first}, last resend at {last}"
            );
            most = most.max(last - first);
        }
        println!("MHP-1 k={k}: all {k} resent once, no timeout, at most {most} slots from the first SACK (RTT {RTT})");
    }
}

// ---------------------------------------------------------------- handoff

/// A handoff of the sending BS mid-transfer (slot 400 of about 1200, 10 %
/// loss both ways, the acks on their way to the old BS lost), 30 seeds of
/// 1000 packets: all handed up in order, none twice, none dropped. Prints
/// the range of the state-transfer message's size (1000-byte packets).
#[test]
fn a_handoff_over_the_channel_loses_and_duplicates_nothing() {
    let (n, c) = (1000, grid_cfg());
    let (mut small, mut large) = (u64::MAX, 0);
    for seed in 1..=30 {
        let o = run(Run { cfg: c, n, limit: 100_000, handoff_at: Some(400) }, &mut bernoulli(0.1, seed));
        assert_complete(&o, n, &format!("handoff seed={seed}"));
        let bytes = o.handoff_bytes.expect("a handoff");
        // The window's slots with their packets; the BS receives nothing.
        let slots = (bytes - STATE_CONTROL_BYTES) / (STATE_SLOT_BYTES + 1000);
        assert_eq!(bytes, STATE_CONTROL_BYTES + slots * (STATE_SLOT_BYTES + 1000));
        assert!((1..=u64::from(c.window_max)).contains(&slots));
        (small, large) = (small.min(bytes), large.max(bytes));
    }
    println!("handoff at slot 400, p=0.10: state-transfer message {small} to {large} bytes over 30 seeds");
}

// ---------------------------------------------------------------- properties

fn any_config() -> impl Strategy<Value = SrpConfig> {
    (1u32..=64, 0.0f64..1.0, any::<bool>(), 1u64..40, prop::option::of(1u32..4), any::<bool>()).prop_map(
        |(window_max, init, estimated, rto, retry_limit, in_order)| {
            // A bounded sender's timeout must mean no answer can come (the
            // module docs): at least a round trip and a slot. A persistent
            // one may time out early (a spurious copy, never handed up twice).
            let floor = if retry_limit.is_some() { RTT + 1 } else { 1 };
            let rto = rto.max(floor);
            SrpConfig {
                window_max,
                initial_window: 1 + (init * f64::from(window_max - 1)) as u32,
                rto: if estimated {
                    Rto::Estimated { initial_ns: rto, min_ns: floor.max(1 + rto / 4), max_ns: 4 * rto }
                } else {
                    Rto::Fixed { ns: rto }
                },
                retry_limit,
                // In order with a retry limit may leave the last packets
                // waiting for a floor no later packet brings (module docs).
                delivery: if in_order && retry_limit.is_none() { Delivery::InOrder } else { Delivery::OutOfOrder },
            }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the configuration, losses and handoff: no packet handed up
    /// twice (asserted as it happens), in order when so configured, every
    /// packet handed up or dropped exactly once (a persistent sender drops
    /// none), the window never above its maximum.
    #[test]
    fn invariants_hold(c in any_config(), p in 0.0f64..0.6, seed in any::<u64>(), n in 1u32..300, handoff_at in prop::option::of(0u64..400)) {
        let o = run(Run { cfg: c, n, limit: 5_000_000, handoff_at }, &mut bernoulli(p, seed));
        prop_assert!(o.finished, "unfinished at {}", o.slots);
        let mut all: Vec<Seq> = o.up.iter().chain(&o.dropped).copied().collect();
        all.sort_unstable();
        prop_assert!(all.iter().copied().eq(0..n), "not each once: up {:?} dropped {:?}", o.up, o.dropped);
        if c.retry_limit.is_none() {
            prop_assert!(o.dropped.is_empty());
        }
        if c.delivery == Delivery::InOrder {
            prop_assert!(o.up.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
