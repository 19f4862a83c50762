//! Timelines of the 802.11b DCF (yun-004.md Sec. 1), with the ns-2
//! defaults: slot 20 us, SIFS 10 us, DIFS 50 us, EIFS 364 us, CWmin 31,
//! 192 us of PLCP before every frame, 11 Mb/s. A 1000-byte TCP segment
//! (1040 B with TCP/IP, 1074 B with the MAC framing) takes 973.091 us on
//! the air, a 40-byte TCP ack (74 B) 245.819 us, a MAC ack (14 B) 202.182
//! us (yun-004.md Sec. 1.2: 973.1, 245.8 and 202.2 us).
//!
//! Backoff draws: station s draws from `RngStream::new(7,
//! "mac:test:{s}:backoff")`. With CW = 31 the first draws are station 0:
//! 12, 0, 21; station 1: 24, 5; station 2: 2 slots (see
//! `the_seeded_draws_are_the_ones_the_timelines_use`).

use super::*;
use crate::error::ErrorModelConfig;
use crate::mac::test_support::{air, drive, frame, lossy, offer, op, run};
use lasthop_core::PacketPool;
use proptest::prelude::*;

/// Microseconds with three decimals, as a time: `us(973_091)` is 973.091 us.
fn us(thousandths: u64) -> Time {
    Time(thousandths)
}

const DATA: u64 = 973_091;
const MAC_ACK: u64 = 202_182;
const SIFS: u64 = 10_000;
const DIFS: u64 = 50_000;
const EIFS: u64 = 364_000;
const SLOT: u64 = 20_000;

fn medium(n: usize, cfg: DcfConfig) -> Dcf {
    Dcf::new(cfg, n, |s| RngStream::new(7, &format!("mac:test:{s}:backoff"))).with_air_log()
}

/// The outputs in short: (time, what, station, frame tag, attempt or
/// retransmission flag).
fn events(got: &[(Time, MacOutput)]) -> Vec<(Time, &'static str, StationId, u32, u32)> {
    got.iter()
        .map(|(t, o)| match *o {
            MacOutput::Transmit { station, frame, retransmission, .. } => {
                (*t, "transmit", station, frame.tag, u32::from(retransmission))
            }
            MacOutput::Deliver { station, frame, .. } => (*t, "deliver", station, frame.tag, 0),
            MacOutput::Drop { station, frame, .. } => (*t, "drop", station, frame.tag, 0),
            MacOutput::Retry { station, frame, attempt, .. } => (*t, "retry", station, frame.tag, attempt),
        })
        .collect()
}

#[test]
fn the_seeded_draws_are_the_ones_the_timelines_use() {
    let draws = |s: usize, cw: &[u64]| -> Vec<u64> {
        let mut r = RngStream::new(7, &format!("mac:test:{s}:backoff"));
        cw.iter().map(|&c| r.below(c + 1)).collect()
    };
    assert_eq!(draws(0, &[31, 31, 31]), vec![12, 0, 21]);
    assert_eq!(draws(1, &[31, 31]), vec![24, 5]);
    assert_eq!(draws(2, &[31]), vec![2]);
}

#[test]
fn frame_durations_match_yun_sec_1_2() {
    let c = DcfConfig::default();
    assert!(c.validate().is_ok());
    assert_eq!(c.data_ns(1040), DATA, "1074 B data frame: 192 + 781.091 us");
    assert_eq!(c.data_ns(40), 245_819, "74 B TCP ack: 192 + 53.819 us");
    assert_eq!(c.ack_ns(), MAC_ACK, "14 B MAC ack: 192 + 10.182 us");
    // EIFS = SIFS + DIFS + a 38-byte MAC ack (PLCP included) at 1 Mb/s.
    assert_eq!(c.eifs_ns, c.sifs_ns + c.difs_ns + 38 * 8 * 1_000);
}

#[test]
fn one_frame_on_an_idle_medium_waits_difs_and_its_backoff() {
    let mut pool = PacketPool::new();
    let mut d = medium(2, DcfConfig::default());
    let mut got = Vec::new();
    // t0 = 0: a 1040-byte packet (1000 B of TCP payload) queued at station
    // 0 for station 1. The medium is idle; station 0 still draws a backoff
    // (ns-2's send()): 12 slots. DIFS 0-50 us, backoff 50-290 us, data
    // 290-1263.091 us, handed up at its end; SIFS; MAC ack 1273.091-1475.273.
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    assert_eq!((d.in_flight(), d.queue_len(0)), (1, 0), "the frame left the queue for the MAC at once");
    assert_eq!(d.poll_at(), us(290_000), "the backoff's end is computed, not ticked");
    run(&mut d, Time::NEVER, &mut got);
    let t_data = DIFS + 12 * SLOT;
    let t_ack = t_data + DATA + SIFS;
    assert_eq!(
        air(&d),
        vec![
            (0, 1, FrameClass::Data, us(t_data), us(t_data + DATA), Heard::Intact),
            (1, 0, FrameClass::Ack, us(t_ack), us(t_ack + MAC_ACK), Heard::Intact),
        ]
    );
    assert_eq!(us(t_ack + MAC_ACK), us(1_475_273));
    assert_eq!(events(&got), vec![(us(290_000), "transmit", 0, 1, 0), (us(1_263_091), "deliver", 1, 1, 0)]);
    assert_eq!((d.in_flight(), d.poll_at()), (0, Time::NEVER));
    let (a, b) = (*d.stats(0), *d.stats(1));
    assert_eq!((a.attempts, a.data_frames_sent, a.acks_received, a.retries, a.collisions), (1, 1, 1, 0, 0));
    assert_eq!((b.data_frames_received, b.delivered_up, b.acks_sent), (1, 1, 1));
    // The success drew a post-backoff (0 slots: station 0's second draw),
    // which ran out unused DIFS after the ack: two DIFS waits in all.
    assert_eq!((a.backoffs, a.backoff_slots_drawn, a.backoff_ns, a.ifs_ns), (2, 12, 12 * SLOT, 2 * DIFS));
    assert_eq!(a.airtime_ns, DATA);
    assert_eq!(b.airtime_ns, MAC_ACK);
    assert_eq!(d.contention_window(0), 31);
}

#[test]
fn a_backoff_freezes_while_another_station_sends_and_resumes_after_difs() {
    let mut pool = PacketPool::new();
    let mut d = medium(2, DcfConfig::default());
    let mut got = Vec::new();
    // t0: both stations queue a frame. Station 0 draws 12 slots, station 1
    // 24. Station 0 sends at 290 us; station 1 has counted 12 slots
    // ((290 - 50) / 20) and freezes with 12 left, through the data frame,
    // SIFS and the MAC ack (ending 1475.273). It waits DIFS and counts its
    // last 12 slots: data at 1475.273 + 50 + 240 = 1765.273 us.
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    assert!(offer(&mut d, Time::ZERO, 1, 0, frame(&mut pool, 2, 1040)));
    run(&mut d, Time::NEVER, &mut got);
    let log = air(&d);
    assert_eq!(log.len(), 4);
    assert_eq!(log[0], (0, 1, FrameClass::Data, us(290_000), us(1_263_091), Heard::Intact));
    assert_eq!(log[1], (1, 0, FrameClass::Ack, us(1_273_091), us(1_475_273), Heard::Intact));
    let t1 = 1_475_273 + DIFS + 12 * SLOT;
    assert_eq!(log[2], (1, 0, FrameClass::Data, us(t1), us(t1 + DATA), Heard::Intact));
    assert_eq!(log[3], (0, 1, FrameClass::Ack, us(t1 + DATA + SIFS), us(t1 + DATA + SIFS + MAC_ACK), Heard::Intact));
    // Station 1 counted its 24 slots in two pieces of 12, then the 5 of
    // its post-backoff after its own success.
    let b = d.stats(1);
    assert_eq!((b.backoff_ns, b.backoff_slots_drawn), ((24 + 5) * SLOT, 24 + 5));
    assert_eq!(b.collisions, 0);
    assert_eq!(d.in_flight(), 0);
}

#[test]
fn backoffs_ending_in_the_same_slot_collide_and_both_windows_double() {
    let mut pool = PacketPool::new();
    let mut d = medium(2, DcfConfig::default());
    let mut got = Vec::new();
    // t0: station 1 queues a frame: 24 slots, due at 50 + 480 = 530 us.
    // 240 us: station 0 queues one: DIFS to 290, 12 slots, due at 530 us.
    // Both send at 530 us: the frames overlap, neither is received, no MAC
    // ack comes. Both time out at 530 + 973.091 + SIFS + 202.182 =
    // 1715.273 us, report the retry (attempt 2), and double CW to 63.
    assert!(offer(&mut d, Time::ZERO, 1, 0, frame(&mut pool, 2, 1040)));
    run(&mut d, us(240_000), &mut got);
    assert!(offer(&mut d, us(240_000), 0, 1, frame(&mut pool, 1, 1040)));
    run(&mut d, us(1_715_273), &mut got);
    assert_eq!(
        air(&d),
        vec![
            (0, 1, FrameClass::Data, us(530_000), us(1_503_091), Heard::Collided),
            (1, 0, FrameClass::Data, us(530_000), us(1_503_091), Heard::Collided),
        ]
    );
    assert_eq!(
        events(&got),
        vec![
            (us(530_000), "transmit", 0, 1, 0),
            (us(530_000), "transmit", 1, 2, 0),
            (us(1_715_273), "retry", 0, 1, 2),
            (us(1_715_273), "retry", 1, 2, 2),
        ]
    );
    assert_eq!((d.contention_window(0), d.contention_window(1)), (63, 63));
    assert_eq!((d.stats(0).collisions, d.stats(1).collisions), (1, 1));
    // Both sent, so neither heard the other's frame: DIFS, not EIFS. The
    // second draws (in [0, 63]) are 0 and 10 or 11 slots: station 0
    // resends at 1715.273 + 50 = 1765.273 us; station 1 freezes.
    got.clear();
    run(&mut d, Time::NEVER, &mut got);
    let log = air(&d);
    assert_eq!(log[2], (0, 1, FrameClass::Data, us(1_765_273), us(1_765_273 + DATA), Heard::Intact));
    assert_eq!(events(&got)[0], (us(1_765_273), "transmit", 0, 1, 1));
    let delivered: Vec<_> = events(&got).into_iter().filter(|e| e.1 == "deliver").map(|e| (e.2, e.3)).collect();
    assert_eq!(delivered, vec![(1, 1), (0, 2)]);
    assert_eq!((d.contention_window(0), d.contention_window(1)), (31, 31), "reset by the successes");
    assert_eq!((d.stats(0).eifs_waits, d.stats(1).eifs_waits), (0, 0));
    assert_eq!(d.in_flight(), 0);
}

#[test]
fn the_retry_limit_drops_a_frame_and_only_then_the_queue_moves_on() {
    let mut pool = PacketPool::new();
    // Every data frame station 0 sends is corrupted; 2 attempts per frame.
    let cfg = DcfConfig { retry_limit: 2, ..DcfConfig::default() };
    let lossy = ErrorModel::new(&ErrorModelConfig::Bernoulli { p: 1.0 }, || RngStream::new(1, "e"));
    let mut d = medium(2, cfg).with_error_model(0, lossy);
    let mut got = Vec::new();
    // t0: frames 1 and 2 queued at station 0 for station 1; 2 waits
    // behind 1 (head-of-line blocking).
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 2, 1040)));
    assert_eq!(d.queue_len(0), 1);
    // Attempt 1: 290 us (12 slots), corrupted; the ack timeout at
    // 290 + 973.091 + 10 + 202.182 = 1475.273 us; CW 63, 0 slots drawn:
    // attempt 2 at 1475.273 + 50 = 1525.273 us, timing out at 2710.546 us:
    // the limit (2 attempts) is reached, frame 1 is dropped, CW back to
    // 31, and only now frame 2 leaves the queue: 21 slots, 2710.546 + 50 +
    // 420 = 3180.546 us.
    run(&mut d, us(3_180_546), &mut got);
    assert_eq!(
        events(&got),
        vec![
            (us(290_000), "transmit", 0, 1, 0),
            (us(1_475_273), "retry", 0, 1, 2),
            (us(1_525_273), "transmit", 0, 1, 1),
            (us(2_710_546), "drop", 0, 1, 0),
            (us(3_180_546), "transmit", 0, 2, 0),
        ]
    );
    assert!(matches!(got[3].1, MacOutput::Drop { cause: MacDropCause::RetryLimit, .. }));
    assert_eq!(d.queue_len(0), 0);
    run(&mut d, Time::NEVER, &mut got);
    let s = d.stats(0);
    assert_eq!((s.attempts, s.data_frames_sent, s.retries, s.ack_timeouts, s.drops_retry_limit), (4, 4, 2, 4, 2));
    assert_eq!(s.data_frames_corrupted, 4);
    assert_eq!(d.stats(1).data_frames_received, 0);
    assert_eq!((d.in_flight(), d.contention_window(0)), (0, 31));
    // The receiver heard four corrupted frames and no ack was ever sent.
    assert!(air(&d).iter().all(|a| a.2 == FrameClass::Data && a.5 == Heard::Corrupted));
}

#[test]
fn a_station_that_heard_a_corrupted_frame_waits_eifs() {
    let mut pool = PacketPool::new();
    // Station 0's first frame is corrupted; one attempt only, so station 0
    // drops it at its ack timeout and stays quiet.
    let cfg = DcfConfig { retry_limit: 1, ..DcfConfig::default() };
    let first = ErrorModel::new(&ErrorModelConfig::List { packets: vec![0], seqs: vec![] }, || RngStream::new(1, "e"));
    let mut d = medium(3, cfg).with_error_model(0, first);
    let mut got = Vec::new();
    // t0: station 0 queues a frame for 1: data 290-1263.091 us, corrupted.
    // 500 us: station 2 queues a frame for 1 (2 slots drawn); the medium is
    // busy. The frame ends corrupted: station 2 waits EIFS, not DIFS:
    // 1263.091 + 364 + 2 x 20 = 1667.091 us (DIFS would give 1353.091).
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    run(&mut d, us(500_000), &mut got);
    assert!(offer(&mut d, us(500_000), 2, 1, frame(&mut pool, 3, 1040)));
    run(&mut d, Time::NEVER, &mut got);
    let t2 = 1_263_091 + EIFS + 2 * SLOT;
    assert_eq!(
        air(&d),
        vec![
            (0, 1, FrameClass::Data, us(290_000), us(1_263_091), Heard::Corrupted),
            (2, 1, FrameClass::Data, us(t2), us(t2 + DATA), Heard::Intact),
            (1, 2, FrameClass::Ack, us(t2 + DATA + SIFS), us(t2 + DATA + SIFS + MAC_ACK), Heard::Intact),
        ]
    );
    assert_eq!(events(&got)[1], (us(1_475_273), "drop", 0, 1, 0));
    assert_eq!(d.stats(2).eifs_waits, 1);
    assert_eq!(d.stats(2).ifs_ns, EIFS + DIFS, "EIFS, then DIFS before its post-backoff");
    assert_eq!(d.stats(0).eifs_waits, 0, "the sender heard nothing bad: its post-backoff waits DIFS");
    assert_eq!(d.in_flight(), 0);
}

#[test]
fn a_lost_mac_ack_brings_a_retransmission_that_is_acked_but_not_handed_up_again() {
    let mut pool = PacketPool::new();
    // Station 1's first frame (its MAC ack) is corrupted: control frames
    // consult their sender's error model.
    let cfg = DcfConfig { control_frame_errors: true, ..DcfConfig::default() };
    let lose_ack =
        ErrorModel::new(&ErrorModelConfig::List { packets: vec![0], seqs: vec![] }, || RngStream::new(1, "e"));
    let mut d = medium(2, cfg).with_error_model(1, lose_ack);
    let mut got = Vec::new();
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    run(&mut d, Time::NEVER, &mut got);
    // Station 0 heard the corrupted ack: its retry waits EIFS from its end
    // (1475.273 + 364) and 0 slots (CW 63): 1839.273 us.
    let e = events(&got);
    assert_eq!(
        e,
        vec![
            (us(290_000), "transmit", 0, 1, 0),
            (us(1_263_091), "deliver", 1, 1, 0),
            (us(1_475_273), "retry", 0, 1, 2),
            (us(1_839_273), "transmit", 0, 1, 1),
        ]
    );
    assert!(matches!(got[2].1, MacOutput::Retry { held: false, .. }), "the peer has it");
    assert!(matches!(got[3].1, MacOutput::Transmit { held: false, .. }));
    assert_eq!((d.stats(1).data_frames_received, d.stats(1).duplicates_suppressed, d.stats(1).acks_sent), (2, 1, 2));
    assert_eq!(d.stats(0).acks_received, 1);
    assert_eq!(d.in_flight(), 0);
}

#[test]
fn rts_cts_precede_a_frame_over_the_threshold() {
    let mut pool = PacketPool::new();
    let cfg = DcfConfig { rts_threshold_bytes: Some(500), ..DcfConfig::default() };
    let mut d = medium(2, cfg);
    let mut got = Vec::new();
    // RTS (20 B: 206.546 us) at 290 us, SIFS, CTS (14 B: 202.182), SIFS,
    // data, SIFS, MAC ack. A 40-byte frame (74 B) goes without.
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    run(&mut d, Time::NEVER, &mut got);
    let rts_end = 290_000 + 206_546;
    let cts = rts_end + SIFS;
    let data = cts + MAC_ACK + SIFS;
    assert_eq!(
        air(&d),
        vec![
            (0, 1, FrameClass::Rts, us(290_000), us(rts_end), Heard::Intact),
            (1, 0, FrameClass::Cts, us(cts), us(cts + MAC_ACK), Heard::Intact),
            (0, 1, FrameClass::Data, us(data), us(data + DATA), Heard::Intact),
            (1, 0, FrameClass::Ack, us(data + DATA + SIFS), us(data + DATA + SIFS + MAC_ACK), Heard::Intact),
        ]
    );
    assert_eq!(events(&got)[0], (us(data), "transmit", 0, 1, 0));
    assert!(offer(&mut d, Time(10_000_000), 0, 1, frame(&mut pool, 2, 40)));
    run(&mut d, Time::NEVER, &mut got);
    assert_eq!(air(&d)[4].2, FrameClass::Data);
    assert_eq!((d.stats(0).rts_sent, d.stats(1).cts_sent, d.in_flight()), (1, 1, 0));
}

#[test]
fn a_link_retransmission_delay_blocks_the_station() {
    let mut pool = PacketPool::new();
    // Yun Sec. 5.2, Fig. 13: 100 ms between a failure and the next attempt.
    let cfg = DcfConfig { ll_retransmission_delay_ns: 100_000_000, ..DcfConfig::default() };
    let first = ErrorModel::new(&ErrorModelConfig::List { packets: vec![0], seqs: vec![] }, || RngStream::new(1, "e"));
    let mut d = medium(2, cfg).with_error_model(0, first);
    let mut got = Vec::new();
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    run(&mut d, Time::NEVER, &mut got);
    // The retry is reported at the failure (1475.273 us), the frame resent
    // 100 ms later after DIFS and 0 slots: 101525.273 us.
    let e = events(&got);
    assert_eq!(e[1], (us(1_475_273), "retry", 0, 1, 2));
    assert_eq!(e[2], (us(101_525_273), "transmit", 0, 1, 1));
    assert_eq!(d.stats(0).blocked_ns, 100_000_000);
    assert_eq!(d.in_flight(), 0);
}

/// Station 0's draws for the deferred timelines, with the windows they
/// are drawn with.
#[test]
fn the_seeded_draws_of_the_deferred_timelines() {
    let draws = |cw: &[u64]| -> Vec<u64> {
        let mut r = RngStream::new(7, "mac:test:0:backoff");
        cw.iter().map(|&c| r.below(c + 1)).collect()
    };
    assert_eq!(draws(&[31, 63, 31, 31]), vec![12, 0, 21, 29]);
    assert_eq!(draws(&[31, 63, 127, 127, 31, 31]), vec![12, 0, 87, 118, 18, 1]);
    assert_eq!(draws(&[31, 63, 63, 31]), vec![12, 0, 43, 29]);
}

fn deferred(cfg: DcfConfig) -> DcfConfig {
    DcfConfig { ll_retransmission_delay_ns: 100_000_000, ll_retransmission: LlRetransmission::Deferred, ..cfg }
}

#[test]
fn a_deferred_frame_is_overtaken_by_the_next_and_resent_after_the_delay() {
    let mut pool = PacketPool::new();
    // Yun Sec. 5.2, Fig. 13, read as selective repeat (yun-004.md
    // ambiguity 9's alternative): station 0's first data frame is
    // corrupted; 100 ms before it is sent again, the next frame goes.
    let first = ErrorModel::new(&ErrorModelConfig::List { packets: vec![0], seqs: vec![] }, || RngStream::new(1, "e"));
    let mut d = medium(2, deferred(DcfConfig::default())).with_error_model(0, first);
    let mut got = Vec::new();
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 2, 1040)));
    // Frame 1: 12 slots, data 290-1263.091 us, corrupted; the ack timeout
    // at 1475.273 us reports the retry (attempt 2) and sets it aside until
    // 101475.273 us; CW 63, 0 slots drawn: frame 2 leaves the queue and
    // goes at 1475.273 + 50 = 1525.273 us, handed up at 2498.364 us.
    run(&mut d, us(2_498_364), &mut got);
    assert_eq!(
        events(&got),
        vec![
            (us(290_000), "transmit", 0, 1, 0),
            (us(1_475_273), "retry", 0, 1, 2),
            (us(1_525_273), "transmit", 0, 2, 0),
            (us(2_498_364), "deliver", 1, 2, 0),
        ]
    );
    assert_eq!((d.set_aside_len(0), d.queue_len(0), d.in_flight()), (1, 0, 1), "frame 1 held, set aside");
    // Frame 2's MAC ack ends at 2710.546 us: CW back to 31 and a
    // post-backoff of 21 slots, which runs out unused. Nothing happens
    // until frame 1's delay has passed.
    run(&mut d, us(3_180_546), &mut got);
    assert_eq!(d.poll_at(), us(101_475_273), "the set-aside frame's deadline wakes the medium");
    // At 101475.273 us frame 1 is due; no backoff is pending: 29 slots
    // (CW 31, reset by frame 2's success): 101475.273 + 50 + 580 =
    // 102105.273 us, a retransmission, handed up 973.091 us later.
    got.clear();
    run(&mut d, Time::NEVER, &mut got);
    assert_eq!(events(&got), vec![(us(102_105_273), "transmit", 0, 1, 1), (us(103_078_364), "deliver", 1, 1, 0)]);
    let s = d.stats(0);
    assert_eq!((s.attempts, s.retries, s.set_aside, s.blocked_ns, s.acks_received), (3, 1, 1, 0, 2));
    assert_eq!(d.stats(1).delivered_up, 2);
    assert_eq!((d.in_flight(), d.set_aside_len(0), d.contention_window(0)), (0, 0, 31));
}

#[test]
fn the_retry_limit_still_drops_deferred_frames() {
    let mut pool = PacketPool::new();
    // Every data frame station 0 sends is corrupted; 2 attempts per frame.
    let cfg = deferred(DcfConfig { retry_limit: 2, ..DcfConfig::default() });
    let lossy = ErrorModel::new(&ErrorModelConfig::Bernoulli { p: 1.0 }, || RngStream::new(1, "e"));
    let mut d = medium(2, cfg).with_error_model(0, lossy);
    let mut got = Vec::new();
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 2, 1040)));
    run(&mut d, Time::NEVER, &mut got);
    // Frame 1 fails at 1475.273 us (set aside to 101475.273), frame 2 goes
    // at once (0 slots, CW 63) and fails at 2710.546 us (set aside to
    // 102710.546; CW 127, 87 slots that run out unused). At 101475.273
    // frame 1 draws 118 slots (CW still 127): 101475.273 + 50 + 2360 =
    // 103885.273 us; frame 2 comes due meanwhile and waits. Frame 1's
    // second failure, at 103885.273 + 1185.273 = 105070.546 us, drops it
    // (CW 31, 18 slots), and frame 2 is served next: 105070.546 + 50 + 360
    // = 105480.546 us, dropped at 106665.819 us.
    assert_eq!(
        events(&got),
        vec![
            (us(290_000), "transmit", 0, 1, 0),
            (us(1_475_273), "retry", 0, 1, 2),
            (us(1_525_273), "transmit", 0, 2, 0),
            (us(2_710_546), "retry", 0, 2, 2),
            (us(103_885_273), "transmit", 0, 1, 1),
            (us(105_070_546), "drop", 0, 1, 0),
            (us(105_480_546), "transmit", 0, 2, 1),
            (us(106_665_819), "drop", 0, 2, 0),
        ]
    );
    assert!(got.iter().all(|(_, o)| !matches!(o, MacOutput::Drop { cause, .. } if *cause != MacDropCause::RetryLimit)));
    let s = d.stats(0);
    assert_eq!((s.attempts, s.retries, s.set_aside, s.drops_retry_limit), (4, 2, 2, 2));
    assert_eq!((d.in_flight(), d.contention_window(0)), (0, 31));
}

#[test]
fn a_full_set_aside_window_holds_the_queue_back() {
    let mut pool = PacketPool::new();
    // One frame may be set aside: while frame 1 is, frame 2 stays queued.
    let cfg = deferred(DcfConfig { ll_retransmission_window: 1, ..DcfConfig::default() });
    let first = ErrorModel::new(&ErrorModelConfig::List { packets: vec![0], seqs: vec![] }, || RngStream::new(1, "e"));
    let mut d = medium(2, cfg).with_error_model(0, first);
    let mut got = Vec::new();
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 2, 1040)));
    run(&mut d, us(50_000_000), &mut got);
    assert_eq!((d.set_aside_len(0), d.queue_len(0), d.in_flight()), (1, 1, 2));
    // Frame 1 fails at 1475.273 us (CW 63, its 0 slots run out unused);
    // due at 101475.273 us, it draws 43 slots (CW 63): 102385.273 us,
    // handed up at 103358.364, its ack ending 103570.546; CW 31, 29 slots
    // for frame 2: 104200.546 us.
    run(&mut d, Time::NEVER, &mut got);
    assert_eq!(
        events(&got),
        vec![
            (us(290_000), "transmit", 0, 1, 0),
            (us(1_475_273), "retry", 0, 1, 2),
            (us(102_385_273), "transmit", 0, 1, 1),
            (us(103_358_364), "deliver", 1, 1, 0),
            (us(104_200_546), "transmit", 0, 2, 0),
            (us(105_173_637), "deliver", 1, 2, 0),
        ]
    );
    assert_eq!(d.in_flight(), 0);
}

#[test]
fn a_deferred_copy_of_a_frame_handed_up_is_not_handed_up_again() {
    let mut pool = PacketPool::new();
    // Station 1's first MAC ack is lost: station 0 sets frame 1 aside
    // although station 1 has it; frame 2 overtakes it; the copy of frame 1
    // sent 100 ms on is acked but not handed up (station 1's last frame
    // from station 0 was frame 2 by then).
    let cfg = deferred(DcfConfig { control_frame_errors: true, ..DcfConfig::default() });
    let lose_ack =
        ErrorModel::new(&ErrorModelConfig::List { packets: vec![0], seqs: vec![] }, || RngStream::new(1, "e"));
    let mut d = medium(2, cfg).with_error_model(1, lose_ack);
    let mut got = Vec::new();
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 2, 1040)));
    run(&mut d, Time::NEVER, &mut got);
    let e: Vec<_> = events(&got).into_iter().map(|e| (e.1, e.3, e.4)).collect();
    assert_eq!(
        e,
        vec![
            ("transmit", 1, 0),
            ("deliver", 1, 0),
            ("retry", 1, 2),
            ("transmit", 2, 0),
            ("deliver", 2, 0),
            ("transmit", 1, 1),
        ]
    );
    assert!(matches!(got[2].1, MacOutput::Retry { held: false, .. }), "the peer has it");
    assert_eq!((d.stats(1).data_frames_received, d.stats(1).duplicates_suppressed, d.stats(1).acks_sent), (3, 1, 3));
    assert_eq!((d.in_flight(), d.stats(0).set_aside), (0, 1));
}

#[test]
fn the_error_model_sees_the_mpdu_so_a_data_frame_loses_exactly_the_fer() {
    // yun-004.md Sec. 1.4: FER is the loss probability of the 1074-byte
    // data MPDU (1040 B of packet + 34 B of MAC framing). The DCF shows the
    // error model the MPDU: frame_error_rate then corrupts exactly the
    // frames bernoulli { p = fer } corrupts from the same stream; a 40-byte
    // ack's 74-byte MPDU loses with 1 - (1 - fer)^(74 / 1074).
    let corrupted = |cfg: ErrorModelConfig, size: u32| -> Vec<bool> {
        let mut pool = PacketPool::new();
        let mac = DcfConfig { retry_limit: 1, queue_packets: 300, ..DcfConfig::default() };
        let e = ErrorModel::new(&cfg, || RngStream::new(1, "e"));
        let mut d = medium(2, mac).with_error_model(0, e);
        for uid in 0..300 {
            assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, uid, size)));
        }
        run(&mut d, Time::NEVER, &mut Vec::new());
        assert_eq!(d.stats(0).data_frames_sent, 300);
        air(&d).iter().filter(|a| a.2 == FrameClass::Data).map(|a| a.5 == Heard::Corrupted).collect()
    };
    let fer = ErrorModelConfig::FrameErrorRate { fer: 0.5, reference_bytes: 1074 };
    let data = corrupted(fer.clone(), 1040);
    assert_eq!(data, corrupted(ErrorModelConfig::Bernoulli { p: 0.5 }, 1040));
    let p74 = 1.0 - 0.5f64.powf(74.0 / 1074.0);
    let mut r = RngStream::new(1, "e");
    let expected: Vec<bool> = (0..300).map(|_| r.bernoulli(p74)).collect();
    assert_eq!(corrupted(fer, 40), expected);
    assert!(expected.iter().filter(|&&c| c).count() < 30, "about 4.7 % of the acks");
}

#[test]
fn a_link_error_model_overrides_the_station_model_for_its_peer() {
    let mut pool = PacketPool::new();
    // The access point (0) loses every frame to station 1, none to 2.
    let bad = ErrorModel::new(&ErrorModelConfig::Bernoulli { p: 1.0 }, || RngStream::new(1, "e"));
    let cfg = DcfConfig { retry_limit: 1, ..DcfConfig::default() };
    let mut d = medium(3, cfg).with_link_error_model(0, 1, bad);
    let mut got = Vec::new();
    assert!(offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, 1, 1040)));
    assert!(offer(&mut d, Time::ZERO, 0, 2, frame(&mut pool, 2, 1040)));
    run(&mut d, Time::NEVER, &mut got);
    let e: Vec<_> = events(&got).into_iter().filter(|e| e.1 != "transmit").map(|e| (e.1, e.2, e.3)).collect();
    assert_eq!(e, vec![("drop", 0, 1), ("deliver", 2, 2)]);
}

#[test]
fn the_mac_enum_drives_a_dcf_as_the_world_will() {
    let mut pool = PacketPool::new();
    let mut mac = super::super::Mac::Dcf(Box::new(medium(2, DcfConfig::default())));
    let w = frame(&mut pool, 1, 1040);
    let mut out = Vec::new();
    assert_eq!((mac.stations(), mac.poll_at()), (2, Time::NEVER));
    assert!(mac.enqueue(Time::ZERO, 0, 1, w, &mut pool, &mut Vec::new(), &mut out).queued());
    assert_eq!(mac.in_flight(), 1);
    let mut got = Vec::new();
    run(&mut mac, Time::NEVER, &mut got);
    assert_eq!(events(&got), vec![(us(290_000), "transmit", 0, 1, 0), (us(1_263_091), "deliver", 1, 1, 0)]);
    assert_eq!(mac.in_flight(), 0);
    assert_eq!(pool.take(w.pkt).uid, 1, "the MAC never frees the caller's packets");
}

#[test]
fn validate_names_the_first_bad_field() {
    let bad = |f: fn(&mut DcfConfig)| {
        let mut c = DcfConfig::default();
        f(&mut c);
        c.validate().unwrap_err().0
    };
    assert_eq!(bad(|c| c.retry_limit = 0), "retry_limit");
    assert_eq!(bad(|c| c.cw_min = 2000), "cw_min");
    assert_eq!(bad(|c| c.data_rate_bps = 0), "data_rate_bps");
    assert_eq!(bad(|c| c.control_rate_bps = 0), "control_rate_bps");
    assert_eq!(bad(|c| c.slot_ns = 0), "slot_ns");
    assert_eq!(bad(|c| c.difs_ns = 10_000), "difs_ns");
    assert_eq!(bad(|c| c.eifs_ns = 40_000), "eifs_ns");
    assert_eq!(bad(|c| c.queue_packets = 0), "queue_packets");
    assert_eq!(bad(|c| c.ack_bytes = 0), "ack_bytes");
    assert_eq!(bad(|c| c.ll_retransmission_window = 0), "ll_retransmission_window");
    assert_eq!(bad(|c| c.ll_retransmission_window = MAX_SET_ASIDE + 1), "ll_retransmission_window");
}

#[test]
fn a_full_queue_refuses_and_counts() {
    let mut pool = PacketPool::new();
    let cfg = DcfConfig { queue_packets: 2, ..DcfConfig::default() };
    let mut d = medium(2, cfg);
    // The first frame leaves the queue for the MAC at once; two fill it.
    let admitted: Vec<bool> = (1..=4).map(|uid| offer(&mut d, Time::ZERO, 0, 1, frame(&mut pool, uid, 500))).collect();
    assert_eq!(admitted, vec![true, true, true, false]);
    assert_eq!((d.queue_len(0), d.in_flight(), d.stats(0).drops_queue), (2, 3, 1));
}

/// No station sends two frames at once, and frames that overlap on the
/// channel are all marked collided. Returns the collided frames.
fn assert_channel(d: &Dcf) -> usize {
    let log = d.air_log();
    for (i, a) in log.iter().enumerate() {
        for b in &log[i + 1..] {
            let overlap = a.tx_start < b.tx_end && b.tx_start < a.tx_end;
            if overlap {
                assert!(a.from != b.from, "station {} sent two frames at once", a.from);
                assert!(a.heard == Heard::Collided && b.heard == Heard::Collided, "{a:?} and {b:?} overlap");
            }
        }
    }
    log.iter().filter(|a| a.heard == Heard::Collided).count()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The MAC's conservation invariant: every frame handed to it is
    /// delivered, dropped with a cause, or still held (set-aside frames
    /// included); never delivered twice; frames of one pair delivered in
    /// order (unless set-aside frames let later ones overtake); no station
    /// sends two frames at once and overlapping frames are all lost; under
    /// random traffic among four stations with errors (MAC acks included),
    /// small queues, retry limits, RTS/CTS, propagation delays and
    /// link-level retransmission delays of both readings.
    #[test]
    fn every_frame_is_delivered_dropped_or_held(
        ops in prop::collection::vec(op(0..3000, 40..1500), 1..60),
        error_pct in 0u32..40,
        control_errors in any::<bool>(),
        retry_limit in 1u32..5,
        queue_packets in 1u32..5,
        rts in any::<bool>(),
        propagation_ns in prop::sample::select(vec![0u64, 1_000, 7_000]),
        cw_min in prop::sample::select(vec![1u32, 3, 31]),
        seed in 0u64..1000,
        ll_delay_ns in prop::sample::select(vec![0u64, 700_000, 2_000_000]),
        deferred in any::<bool>(),
        window in 1u32..4,
    ) {
        let cfg = DcfConfig {
            retry_limit,
            queue_packets,
            rts_threshold_bytes: rts.then_some(600),
            propagation_ns,
            cw_min,
            control_frame_errors: control_errors,
            ll_retransmission_delay_ns: ll_delay_ns,
            ll_retransmission: if deferred { LlRetransmission::Deferred } else { LlRetransmission::Blocking },
            ll_retransmission_window: window,
            ..DcfConfig::default()
        };
        prop_assert!(cfg.validate().is_ok());
        let in_order = !deferred || ll_delay_ns == 0;
        let n = 4;
        let mut d = Dcf::new(cfg, n, |s| RngStream::new(seed, &format!("mac:p:{s}:backoff"))).with_air_log();
        for s in (0..n as StationId).filter(|_| error_pct > 0) {
            d = d.with_error_model(s, lossy(seed, s, error_pct));
        }
        // Drain: every frame is finished within its retry limit.
        let retry = |attempt| assert!((2..=retry_limit).contains(&attempt));
        let l = drive(&mut d, n as u16, &ops, 1_000, u64::MAX, in_order, retry)?;
        prop_assert_eq!(d.in_flight(), 0);
        let queue_drops: u64 = (0..n as StationId).map(|s| d.stats(s).drops_queue).sum();
        prop_assert_eq!(queue_drops as usize, l.refused);
        let retry_drops: u64 = (0..n as StationId).map(|s| d.stats(s).drops_retry_limit).sum();
        prop_assert_eq!(retry_drops as usize, l.dropped);
        if error_pct == 0 {
            // Without errors only collisions lose frames.
            let collided = assert_channel(&d);
            if collided == 0 {
                prop_assert_eq!(l.dropped, 0);
            }
        } else {
            assert_channel(&d);
        }
        for s in 0..n as StationId {
            prop_assert_eq!(d.contention_window(s), cw_min, "every frame finished: CW back to CWmin");
        }
    }
}
