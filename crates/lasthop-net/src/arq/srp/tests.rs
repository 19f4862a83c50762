//! SRP through the family's interface: the configuration, unit timelines
//! (the test carries packets and acks between the two sides, losing what
//! it chooses), the handoff, then a slot-level channel (one packet a slot
//! each way, a propagation delay of [`DELAY`] slots each way, FIFO,
//! independent loss with probability `p` both ways, a seeded
//! [`RngStream`]) for the ns-3 grid, MHP-1 and the properties. Packets are
//! plain numbers; time is counted in slots (`Time(t)`: slot `t`, so the
//! RTO is in slots).

use super::*;
use lasthop_core::trace::DropCause;

const T0: Time = Time::ZERO;

/// A fixed RTO of `rto` slots, window 8 (initial 8), in order, persistent.
fn cfg(rto: u64) -> SrpConfig {
    SrpConfig { window_max: 8, initial_window: 8, rto: Rto::Fixed { ns: rto }, ..SrpConfig::default() }
}

/// The next packet `s` sends at `now`, with its header.
fn transmit(s: &mut Sender<u32>, now: Time) -> (Send<u32>, Header) {
    let f = s.next(now).expect("a packet to send");
    let h = s.on_transmit(now, f.seq);
    (f, h)
}

fn ups(r: &mut Receiver) -> Vec<Seq> {
    std::iter::from_fn(|| r.pop_up()).collect()
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
    // 8 was sent before the timeout and is unresolved; 9 is new and within the window.
    let (f9, h9) = transmit(&mut s, Time(87));
    assert_eq!((f9.seq, f9.retransmission), (9, false));
    assert_eq!(s.next(Time(88)), None, "window 2: 8 and 9");
    // 9 arrives: the SACK names 8, whose copy went before 9's.
    let a = r.on_frame(Time(91), f9.seq, h9);
    assert!(a.ack.names(8));
    assert_eq!(s.on_ack(Time(95), a.ack), 1);
    assert_eq!(s.cwnd(), 3);
    let (f8, h8) = transmit(&mut s, Time(95));
    assert_eq!((f8.seq, f8.retransmission), (8, true));
    let a = r.on_frame(Time(99), f8.seq, h8);
    assert_eq!(ups(&mut r), vec![8, 9]);
    assert_eq!(s.on_ack(Time(103), a.ack), 1);
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
