//! AIRMAIL through the family's interface: the configuration, unit
//! timelines (the test carries frames and status between the two ends,
//! losing what it chooses), the FEC model, then a slot-level channel (one
//! frame slot per direction per slot time, FIFO, independent loss with
//! probability `p` both ways, a seeded [`RngStream`]) for AIRMAIL-1, the
//! ns-3 grid, AIRMAIL-3 and the properties. Frames are plain numbers; time
//! is counted in slots (`Time(t)`: slot `t`, so the timers are in slots).

use super::fec::FecConfig;
use super::*;

const T0: Time = Time::ZERO;

/// The defaults with the timers in slots: `T_status` 8, poll 24, gap 16.
fn slotted() -> AirmailConfig {
    AirmailConfig { status_period_ns: 8, poll_ns: 24, gap_ns: 16, ..AirmailConfig::default() }
}

/// The next frame `s` sends at `now`, with its header.
fn transmit(s: &mut Sender<u32>, now: Time) -> (Send<u32>, Header) {
    let f = s.next(now).expect("a frame to send");
    let h = s.on_transmit(now, f.seq);
    (f, h)
}

fn ups(r: &mut Receiver) -> Vec<Seq> {
    std::iter::from_fn(|| r.pop_up()).collect()
}

// ---------------------------------------------------------------- config

#[test]
fn validate_names_each_bad_field_in_one_line() {
    assert_eq!(AirmailConfig::default().validate(), Ok(()));
    let d = AirmailConfig::default();
    let f = FecConfig::default();
    let bad = |c: AirmailConfig| c.validate().unwrap_err();
    assert_eq!(bad(AirmailConfig { fec: "turbo", ..d }), ("fec", "no such FEC level (adaptive, none, byte, packet)"));
    assert_eq!(bad(AirmailConfig { block_frames: 0, ..d }).0, "block_frames");
    assert_eq!(bad(AirmailConfig { status_period_ns: 0, ..d }).0, "status_period_ns");
    assert_eq!(bad(AirmailConfig { poll_ns: 0, ..d }).0, "poll_ns");
    assert_eq!(bad(AirmailConfig { gap_ns: 0, ..d }).0, "gap_ns");
    assert_eq!(bad(AirmailConfig { window_frames: 0, ..d }).0, "window_frames");
    assert_eq!(bad(AirmailConfig { window_frames: 65, ..d }).0, "window_frames");
    let fec = |fec_cfg: FecConfig| bad(AirmailConfig { fec_cfg, ..d });
    assert_eq!(fec(FecConfig { theta1: 0.6, theta2: 0.5, ..f }), ("theta1", "must not exceed theta2"));
    assert_eq!(fec(FecConfig { theta1: -0.1, ..f }).0, "theta1");
    assert_eq!(fec(FecConfig { theta2: 1.5, ..f }).0, "theta2");
    assert_eq!(fec(FecConfig { theta1: f64::NAN, ..f }).0, "theta1");
    assert_eq!(fec(FecConfig { frame_bytes: 0, ..f }).0, "frame_bytes");
    assert_eq!(fec(FecConfig { block_k: 0, ..f }).0, "block_k");
    assert_eq!(fec(FecConfig { m_max: 0, ..f }).0, "m_max");
    assert_eq!(fec(FecConfig { fer_window: 0, ..f }).0, "fer_window");
    assert_eq!(fec(FecConfig { target: 0.0, ..f }).0, "target");
    for name in ["adaptive", "none", "byte", "packet"] {
        assert_eq!(AirmailConfig { fec: name, ..d }.validate(), Ok(()));
    }
    assert_eq!(AirmailConfig { window_frames: 64, block_frames: 1, ..d }.validate(), Ok(()));
    let (field, why) = bad(AirmailConfig { fec: "turbo", ..d });
    assert!(!why.contains('\n') && !field.contains('\n'));
}

// ---------------------------------------------------------------- timelines

#[test]
fn a_lost_uplink_frame_reported_by_the_bs_periodic_status_is_resent_once() {
    let c = slotted();
    let mut mh: Mh<u32> = Mh::new(c, T0);
    let mut bs: Bs<u32> = Bs::new(c, T0);
    for f in [10, 11, 12] {
        mh.up.offer(T0, f);
    }
    assert_eq!(mh.up.deadline(), None, "the MH keeps no timer");
    transmit(&mut mh.up, T0); // 0 lost
    for t in 1..3 {
        let (f, h) = transmit(&mut mh.up, Time(t));
        assert!(!h.poll, "the MH never polls");
        assert_eq!(bs.up.on_frame(Time(t + 1), f.seq, h), Receipt { deliver: true, ack: None }, "the BS stays silent");
    }
    assert!(ups(&mut bs.up).is_empty(), "1 and 2 wait for 0");
    assert_eq!(mh.up.next(Time(3)), None, "no status yet: nothing resent");
    // The period runs out at slot 8: the status reports 0 missing.
    assert_eq!(bs.up.status_deadline(), Some(Time(8)));
    let st = bs.up.on_status_timer(Time(8));
    assert_eq!(st, Status { vr: 0, bitmap: 0b11, tx_rx: 3 });
    assert_eq!(bs.up.status_deadline(), Some(Time(16)), "periodic");
    assert_eq!(mh.up.on_ack(Time(9), st), 2);
    let (again, h) = transmit(&mut mh.up, Time(9));
    assert_eq!((again.seq, again.frame, again.retransmission, h.tx), (0, 10, true, 4));
    assert_eq!(mh.up.next(Time(10)), None, "once");
    assert!(bs.up.on_frame(Time(10), again.seq, h).deliver);
    assert_eq!(ups(&mut bs.up), vec![0, 1, 2]);
    assert_eq!(mh.up.on_ack(Time(16), bs.up.on_status_timer(Time(16))), 1);
    assert_eq!((mh.up.in_flight(), mh.up.floor(), mh.up.stats().reported_resends), (0, 3, 1));
}

#[test]
fn a_lost_last_uplink_frame_goes_again_after_a_second_status_reports_it() {
    let c = slotted();
    let (mut mh, mut bs) = (Mh::<u32>::new(c, T0), Bs::<u32>::new(c, T0));
    mh.up.offer(T0, 10);
    transmit(&mut mh.up, T0); // lost: no later copy can prove it
    mh.up.on_ack(Time(9), bs.up.on_status_timer(Time(8)));
    assert_eq!(mh.up.next(Time(9)), None, "one status may predate the frame's arrival");
    mh.up.on_ack(Time(17), bs.up.on_status_timer(Time(16)));
    let (f, h) = transmit(&mut mh.up, Time(17));
    assert_eq!((f.seq, f.retransmission), (0, true));
    assert!(bs.up.on_frame(Time(18), f.seq, h).deliver);
}

#[test]
fn the_mh_answers_one_combined_status_after_n_frames() {
    let c = AirmailConfig { block_frames: 4, ..slotted() };
    let (mut bs, mut mh) = (Bs::<u32>::new(c, T0), Mh::<u32>::new(c, T0));
    for f in 0..10 {
        bs.down.offer(T0, f);
    }
    let mut answers = vec![];
    for t in 0..8 {
        let (f, h) = transmit(&mut bs.down, Time(t));
        assert!(!h.poll, "frames remain behind it");
        answers.push(mh.down.on_frame(Time(t + 1), f.seq, h).ack);
    }
    let at: Vec<usize> = answers.iter().enumerate().filter(|(_, a)| a.is_some()).map(|(i, _)| i).collect();
    assert_eq!(at, vec![3, 7], "one status per block of 4 frames");
    assert_eq!(answers[7], Some(Status { vr: 8, bitmap: 0, tx_rx: 8 }));
    assert_eq!(bs.down.on_ack(Time(9), answers[3].unwrap()), 4, "one status acks the block");
    assert_eq!(bs.down.on_ack(Time(9), answers[7].unwrap()), 4);
    assert_eq!(mh.down.stats().block_statuses, 2);
    assert_eq!(mh.down.status_deadline(), None, "no gap, no gap timer");
}

#[test]
fn a_poll_bit_on_the_last_frame_of_a_burst_elicits_the_mh_status() {
    let c = slotted();
    let (mut bs, mut mh) = (Bs::<u32>::new(c, T0), Mh::<u32>::new(c, T0));
    bs.down.offer(T0, 10);
    bs.down.offer(T0, 11);
    let (f0, h0) = transmit(&mut bs.down, T0);
    let (f1, h1) = transmit(&mut bs.down, Time(1));
    assert_eq!((h0.poll, h1.poll), (false, true), "the last of the burst polls");
    assert_eq!(mh.down.on_frame(Time(1), f0.seq, h0).ack, None);
    let st = mh.down.on_frame(Time(2), f1.seq, h1).ack;
    assert_eq!(st, Some(Status { vr: 2, bitmap: 0, tx_rx: 2 }));
    assert_eq!(mh.down.stats().poll_statuses, 1);
    assert_eq!(bs.down.on_ack(Time(3), st.unwrap()), 2);
    assert_eq!((bs.down.deadline(), bs.down.in_flight()), (None, 0));
}

#[test]
fn a_lost_poll_is_made_good_by_the_poll_timer_and_a_gap_by_the_gap_timer() {
    let c = slotted();
    let (mut bs, mut mh) = (Bs::<u32>::new(c, T0), Mh::<u32>::new(c, T0));
    for f in [10, 11, 12] {
        bs.down.offer(T0, f);
    }
    let (f0, h0) = transmit(&mut bs.down, T0);
    transmit(&mut bs.down, Time(1)); // 1 lost
    let (_, h2) = transmit(&mut bs.down, Time(2)); // 2, the poll, lost
    assert!(h2.poll);
    mh.down.on_frame(Time(1), f0.seq, h0);
    assert_eq!(bs.down.deadline(), Some(Time(26)), "poll timer: 24 slots after the poll");
    assert_eq!(bs.down.on_timeout(Time(26)), Expiry::Resend);
    let (again, h) = transmit(&mut bs.down, Time(26));
    assert_eq!((again.seq, h.poll), (0, true), "the oldest unresolved (its status never came), polling");
    let st = mh.down.on_frame(Time(27), again.seq, h).ack.expect("polled");
    assert_eq!(st, Status { vr: 1, bitmap: 0, tx_rx: 4 });
    assert!(ups(&mut mh.down) == vec![0] && mh.down.stats().duplicates == 1, "a copy, not handed up again");
    assert_eq!(bs.down.on_ack(Time(28), st), 1);
    let (f1, _) = transmit(&mut bs.down, Time(28));
    let (f2, h) = transmit(&mut bs.down, Time(29));
    assert_eq!((f1.seq, f2.seq), (1, 2), "both proven lost by the copy of 0");
    assert_eq!((bs.down.stats().poll_resends, bs.down.stats().reported_resends), (1, 2));
    assert!(h.poll, "nothing behind it");
    // The gap timer: frame 3 lost, 4 arrives, no poll, no block end.
    let (mut bs, mut mh) = (Bs::<u32>::new(c, T0), Mh::<u32>::new(c, T0));
    for f in 0..6 {
        bs.down.offer(T0, f);
    }
    let sent: Vec<_> = (0..5).map(|t| transmit(&mut bs.down, Time(t))).collect();
    for (f, h) in sent.iter().filter(|(f, _)| f.seq != 3) {
        assert_eq!(mh.down.on_frame(Time(f.seq as u64 + 1), f.seq, *h).ack, None);
    }
    assert_eq!(mh.down.status_deadline(), Some(Time(5 + 16)), "armed when 4 arrived over the gap");
    let st = mh.down.on_status_timer(Time(21));
    assert_eq!(st, Status { vr: 3, bitmap: 0b1, tx_rx: 5 });
    assert_eq!(mh.down.status_deadline(), Some(Time(21 + 16)), "re-armed: the gap remains");
    bs.down.on_ack(Time(22), st);
    assert_eq!(bs.down.next(Time(22)).map(|f| (f.seq, f.retransmission)), Some((3, true)));
}
