//! AIRMAIL through the family's interface: the configuration, unit
//! timelines (the test carries frames and status between the two ends,
//! losing what it chooses), the FEC model, then a slot-level channel (one
//! frame slot per direction per slot time, FIFO, independent loss with
//! probability `p` both ways, a seeded [`RngStream`]) for AIRMAIL-1, the
//! ns-3 grid, AIRMAIL-3 and the properties. Frames are plain numbers; time
//! is counted in slots (`Time(t)`: slot `t`, so the timers are in slots).

use super::fec::{binomial_tail, byte_error_probability, Fec, FecAdapter, FecConfig, FecLevel};
use super::*;
use crate::arq::test_channel::{ns3_margin_opportunities, transmit, ups, GRID_LOSS, NS3_POLL_RETRANSMIT, T0};
use lasthop_core::rng::RngStream;
use proptest::prelude::*;
use std::collections::VecDeque;

/// The defaults with the timers in slots: `T_status` 8, poll 24, gap 16.
fn slotted() -> AirmailConfig {
    AirmailConfig { status_period_ns: 8, poll_ns: 24, gap_ns: 16, ..AirmailConfig::default() }
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
    assert_eq!(AirmailConfig { fec: "byte", ..d }.fec_adapter().current().level, FecLevel::Byte);
    assert_eq!(d.fec_adapter().current().level, FecLevel::None, "adaptive starts uncoded");
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
    assert_eq!(bs.down.deadline(), Some(Time(7 + 24)), "the poll timer counts from the last frame sent");
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

// ---------------------------------------------------------------- FEC

#[test]
fn each_level_repairs_what_it_should_and_costs_its_expansion() {
    let cfg = FecConfig::default();
    let at = |level, m| Fec { cfg, level, m };
    assert!(at(FecLevel::None, 0).frame_survives(0) && !at(FecLevel::None, 0).frame_survives(1));
    assert!(at(FecLevel::Byte, 0).frame_survives(8) && !at(FecLevel::Byte, 0).frame_survives(9));
    assert_eq!(at(FecLevel::None, 0).overhead(), 1.0);
    assert_eq!(at(FecLevel::Byte, 0).overhead(), 272.0 / 256.0);
    assert_eq!(at(FecLevel::Packet, 4).overhead(), 272.0 / 256.0 * 20.0 / 16.0);
    assert!(!at(FecLevel::Byte, 0).block_recovers(1), "no parity frames: a lost frame is retransmitted");
    assert!((at(FecLevel::None, 0).frame_survival_probability(1e-4) - (1.0 - 1e-4f64).powi(2048)).abs() < 1e-9);
    assert!(at(FecLevel::Byte, 0).frame_survival_probability(1e-4) > 0.999_999);
    assert_eq!(binomial_tail(10, 0.5, 10), 0.0);
    assert!((binomial_tail(2, 0.5, 0) - 0.75).abs() < 1e-12);
}

#[test]
fn packet_level_fec_recovers_a_block_with_at_most_m_lost_frames_without_retransmission() {
    let cfg = FecConfig::default();
    let a = FecAdapter::new(cfg, Some(FecLevel::Packet));
    // m is the least with P(more than m of k + m lost) < 1e-3.
    for p in [0.01, 0.05, 0.1, 0.2] {
        let m = a.parity_for(p);
        assert!(binomial_tail(cfg.block_k + m, p, m) < 1e-3 || m == cfg.m_max, "p {p} m {m}");
        assert!(m == 1 || binomial_tail(cfg.block_k + m - 1, p, m - 1) >= 1e-3, "p {p}: {m} is not the least");
    }
    assert_eq!(a.parity_for(0.05), 5);
    // A block of 16 + 5 with 5 frames lost (any 16 recover it): the
    // receiver's ARQ sees all 16 data frames, nothing is retransmitted.
    let fec = Fec { cfg, level: FecLevel::Packet, m: 5 };
    let c = slotted();
    let (mut bs, mut mh) = (Bs::<u32>::new(c, T0), Mh::<u32>::new(c, T0));
    let lost = [1u32, 4, 9, 17, 20]; // three data frames, two parity frames
    for f in 0..16 {
        bs.down.offer(T0, f);
    }
    let sent: Vec<_> = (0..16).map(|t| transmit(&mut bs.down, Time(t))).collect();
    let lost_n = lost.len() as u32;
    assert!(fec.block_recovers(lost_n) && !fec.block_recovers(lost_n + 1));
    // Decoded: every data frame of the block reaches the ARQ.
    let mut last = None;
    for (f, h) in &sent {
        last = mh.down.on_frame(Time(21), f.seq, *h).ack.or(last);
    }
    assert_eq!(ups(&mut mh.down), (0..16).collect::<Vec<_>>());
    assert_eq!(bs.down.on_ack(Time(22), last.unwrap()), 16);
    assert_eq!((bs.down.next(Time(22)), bs.down.stats().reported_resends), (None, 0));
}

#[test]
fn an_airmail_fec_level_change_follows_the_frame_error_rate_across_theta1_then_theta2_and_back() {
    let cfg = FecConfig::default();
    let mut a = FecAdapter::new(cfg, None);
    let mut levels = vec![(0usize, a.current().level, 0.0)];
    let feed = |a: &mut FecAdapter, frames: usize, errors: u32, levels: &mut Vec<(usize, FecLevel, f64)>| {
        for _ in 0..frames {
            a.observe(errors);
            let last = levels.last().unwrap().1;
            if a.current().level != last {
                levels.push((levels.len(), a.current().level, a.raw_rate()));
            }
        }
    };
    feed(&mut a, 256, 0, &mut levels); // clean
    feed(&mut a, 100, 1, &mut levels); // correctable errors: FER to 100/256
    feed(&mut a, 156, 20, &mut levels); // beyond t: the whole window in error
    let m_bad = a.current().m;
    feed(&mut a, 256, 0, &mut levels); // clean again
    let seq: Vec<FecLevel> = levels.iter().map(|l| l.1).collect();
    println!("FEC level changes (index, level, raw FER when it changed): {levels:?}, m at the worst {m_bad}");
    assert_eq!(seq, [FecLevel::None, FecLevel::Byte, FecLevel::Packet, FecLevel::Byte, FecLevel::None]);
    assert!(levels[1].2 >= cfg.theta1 && levels[2].2 > cfg.theta2);
    assert_eq!(m_bad, cfg.m_max, "every frame lost: no m suffices");
    assert!(levels[3].2 <= cfg.theta2 && levels[4].2 < cfg.theta1);
}

/// Draws a binomial `(n, p)` by inversion (the caller's error model).
fn binomial(rng: &mut RngStream, n: u32, p: f64) -> u32 {
    let u = rng.uniform();
    let mut term = (1.0 - p).powi(n as i32);
    let (mut cdf, mut k) = (term, 0);
    while u > cdf && k < n {
        term *= f64::from(n - k) / f64::from(k + 1) * p / (1.0 - p);
        k += 1;
        cdf += term;
    }
    k
}

/// Selective repeat over a channel of bit error rate `ber` (errors
/// independent, 256 data bytes a frame) with the code `fixed` or adaptive:
/// (throughput, data frames handed up per frame time on the air; mean
/// coding overhead, air time per data frame sent). The ARQ is ideal here
/// (a lost data frame goes again, nothing else does); a packet-level block
/// that loses more than `m` frames loses its lost data frames.
fn fec_run(ber: f64, fixed: Option<FecLevel>, seed: u64) -> (f64, f64) {
    let cfg = FecConfig::default();
    let mut a = FecAdapter::new(cfg, fixed);
    let mut rng = RngStream::new(seed, "airmail-test-fec");
    let pb = byte_error_probability(ber);
    let (mut delivered, mut sent, mut air) = (0u64, 0u64, 0.0f64);
    while delivered < 20_000 {
        let fec = a.current();
        let frames = if fec.level == FecLevel::Packet { cfg.block_k + fec.m } else { 1 };
        let (mut lost, mut data_lost) = (0, 0);
        for i in 0..frames {
            let e = binomial(&mut rng, fec.frame_bytes_on_air(), pb);
            a.observe(e);
            if !fec.frame_survives(e) {
                lost += 1;
                data_lost += u32::from(i < frames.min(cfg.block_k));
            }
        }
        let data = frames.min(cfg.block_k);
        sent += u64::from(data);
        air += f64::from(data) * fec.overhead();
        delivered += u64::from(if fec.block_recovers(lost) { data } else { data - data_lost });
    }
    (delivered as f64 / air, air / sent as f64)
}

/// AIRMAIL-2 (\[A\] "bandwidth expansion ... minimized"): across a BER
/// sweep 1e-7 to 1e-4 (256-byte frames: a frame error rate of 2e-4 to 0.19
/// uncoded), adaptive FEC's throughput is at least 95 % of the better of
/// no FEC and always the strongest (packet level, its `m` by the rule),
/// and its mean coding overhead over the sweep is at most the strongest's.
#[test]
fn airmail_2_adaptive_fec_throughput_within_5_percent_of_the_best_fixed_and_less_overhead() {
    let (mut adaptive_overhead, mut strongest_overhead) = (0.0, 0.0);
    println!("AIRMAIL-2      BER   none thr  strongest thr/ovh  adaptive thr/ovh");
    for ber in [1e-7, 1e-6, 1e-5, 3e-5, 1e-4] {
        let (none, _) = fec_run(ber, Some(FecLevel::None), 1);
        let (strong, so) = fec_run(ber, Some(FecLevel::Packet), 1);
        let (adapt, ao) = fec_run(ber, None, 1);
        println!("AIRMAIL-2 {ber:>8.0e}    {none:.4}     {strong:.4} / {so:.4}     {adapt:.4} / {ao:.4}");
        assert!(adapt >= 0.95 * none.max(strong), "BER {ber}: {adapt} against {none}, {strong}");
        adaptive_overhead += ao / 5.0;
        strongest_overhead += so / 5.0;
    }
    println!("AIRMAIL-2 mean coding overhead: adaptive {adaptive_overhead:.4}, strongest {strongest_overhead:.4}");
    assert!(adaptive_overhead <= strongest_overhead);
}

// ---------------------------------------------------------------- the channel

/// A run: `down` frames BS to MH and `up` frames MH to BS, all offered at
/// slot 0 (bulk, as the window lets them in), loss `p` on every frame and
/// status both ways, one-way delay [`DELAY`] slots. Each direction has a
/// data slot per slot time; a status is a short control frame beside it.
#[derive(Clone, Copy, Debug)]
struct Run {
    cfg: AirmailConfig,
    p: f64,
    seed: u64,
    down: u32,
    up: u32,
    /// Give up at this slot (the test fails if it must).
    limit: u64,
    /// Hand the MH over to a new BS at this slot: the old one's state goes
    /// to the new one, every frame and status in the air is lost.
    handoff_at: Option<u64>,
}

/// One-way delay in slots: a frame sent in slot `t` is received in `t + 1`.
const DELAY: u64 = 1;

/// What a run did.
#[derive(Debug, Default)]
struct Outcome {
    /// Downlink frames the MH handed up, in the order it did.
    at_mh: Vec<Seq>,
    /// Uplink frames the BS handed up, in the order it did.
    at_bs: Vec<Seq>,
    /// The slot at which every frame was handed up.
    slots: u64,
    finished: bool,
    /// The MH's downlink receiver and the BSs' uplink receivers (summed
    /// over a handoff).
    mh_rx: ReceiverStats,
    bs_statuses: u64,
    /// The BSs' polls (summed over a handoff), the MH's sender.
    bs_polls: u64,
    mh_tx: SenderStats,
    /// Downlink frames in the window the handoff carried, and frames
    /// handed up before it (both ways).
    handoff_unacked: usize,
    handed_before_handoff: usize,
}

fn run(run: Run) -> Outcome {
    let c = run.cfg;
    let mut rng = RngStream::new(run.seed, "airmail-test-channel");
    let mut lose = move || rng.bernoulli(run.p);
    let (mut bs, mut mh) = (Bs::<u32>::new(c, T0), Mh::<u32>::new(c, T0));
    // Frames and statuses in the air: (slot of arrival, ...).
    let mut down: VecDeque<(u64, Seq, Header)> = VecDeque::new();
    let mut up: VecDeque<(u64, Seq, Header)> = VecDeque::new();
    let mut to_mh: VecDeque<(u64, Status)> = VecDeque::new();
    let mut to_bs: VecDeque<(u64, Status)> = VecDeque::new();
    let (mut at_mh_seen, mut at_bs_seen) = (vec![false; run.down as usize], vec![false; run.up as usize]);
    // Uplink frames the last BS status the MH had reported missing.
    let mut reported = vec![false; run.up as usize];
    let (mut offered_down, mut offered_up) = (0u32, 0u32);
    let (mut old_statuses, mut old_polls) = (0, 0);
    let mut out = Outcome::default();
    let mut t = 0u64;
    while t < run.limit {
        let now = Time(t);
        if run.handoff_at == Some(t) {
            let state = bs.export_state();
            out.handoff_unacked = state.unacked.len();
            out.handed_before_handoff = out.at_mh.len() + out.at_bs.len();
            old_statuses += bs.up.stats().statuses();
            old_polls += bs.down.stats().polls;
            bs = Bs::from_state(c, now, state);
            down.clear();
            up.clear();
            to_mh.clear();
            to_bs.clear();
        }
        let mut mh_status = None;
        while down.front().is_some_and(|x| x.0 == t) {
            let (_, seq, h) = down.pop_front().unwrap();
            mh_status = mh.down.on_frame(now, seq, h).ack.or(mh_status);
            while let Some(s) = mh.down.pop_up() {
                assert!(!std::mem::replace(&mut at_mh_seen[s as usize], true), "downlink {s} handed up twice");
                out.at_mh.push(s);
                bs.down.on_delivered(s);
            }
        }
        while up.front().is_some_and(|x| x.0 == t) {
            let (_, seq, h) = up.pop_front().unwrap();
            bs.up.on_frame(now, seq, h);
            while let Some(s) = bs.up.pop_up() {
                assert!(!std::mem::replace(&mut at_bs_seen[s as usize], true), "uplink {s} handed up twice");
                out.at_bs.push(s);
                mh.up.on_delivered(s);
            }
        }
        while to_mh.front().is_some_and(|x| x.0 == t) {
            let st = to_mh.pop_front().unwrap().1;
            for seq in mh.up.floor()..offered_up {
                reported[seq as usize] = !st.received(seq);
            }
            mh.up.on_ack(now, st);
        }
        while to_bs.front().is_some_and(|x| x.0 == t) {
            bs.down.on_ack(now, to_bs.pop_front().unwrap().1);
        }
        if bs.down.deadline().is_some_and(|d| d <= now) {
            assert_eq!(bs.down.on_timeout(now), Expiry::Resend);
        }
        if bs.up.status_deadline().is_some_and(|d| d <= now) {
            let st = bs.up.on_status_timer(now);
            if !lose() {
                to_mh.push_back((t + DELAY, st));
            }
        }
        if mh.down.status_deadline().is_some_and(|d| d <= now) {
            mh_status = Some(mh.down.on_status_timer(now));
        }
        if out.at_mh.len() == run.down as usize && out.at_bs.len() == run.up as usize {
            out.finished = true;
            break;
        }
        while offered_down < run.down && bs.down.has_room() {
            assert_eq!(bs.down.offer(now, offered_down), offered_down);
            offered_down += 1;
        }
        while offered_up < run.up && mh.up.has_room() {
            assert_eq!(mh.up.offer(now, offered_up), offered_up);
            offered_up += 1;
        }
        if let Some(f) = bs.down.next(now) {
            let h = bs.down.on_transmit(now, f.seq);
            if !lose() {
                down.push_back((t + DELAY, f.seq, h));
            }
        }
        if let Some(f) = mh.up.next(now) {
            // The MH resends only what the BS's status reported missing.
            assert!(!f.retransmission || reported[f.seq as usize], "MH resent {} unreported at {t}", f.seq);
            reported[f.seq as usize] = false;
            let h = mh.up.on_transmit(now, f.seq);
            if !lose() {
                up.push_back((t + DELAY, f.seq, h));
            }
        }
        if let Some(st) = mh_status {
            if !lose() {
                to_bs.push_back((t + DELAY, st));
            }
        }
        t += 1;
    }
    out.slots = t;
    out.mh_rx = mh.down.stats();
    out.bs_statuses = old_statuses + bs.up.stats().statuses();
    out.bs_polls = old_polls + bs.down.stats().polls;
    out.mh_tx = mh.up.stats();
    out
}

/// Every frame handed up once (checked as it happens), in order, both
/// ways, before the limit.
fn assert_complete(o: &Outcome, r: &Run, what: &str) {
    assert!(o.finished, "{what}: unfinished at slot {}", o.slots);
    assert!(o.at_mh.iter().copied().eq(0..r.down), "{what}: downlink not in order");
    assert!(o.at_bs.iter().copied().eq(0..r.up), "{what}: uplink not in order");
}

/// AIRMAIL-1 (seed 002 Sec. 5.1, \[A\]): over 10 seeds of 1000 frames
/// each way at 10 % loss, the MH's status messages are event-driven and
/// combined: those at the end of a block are at most the frames it
/// received over `N`, the rest answer a poll that arrived or the gap
/// timer, and all are far fewer than the frames (one ack per frame); the
/// BS's are periodic, exactly the run time over `T_status`.
#[test]
fn airmail_1_mh_status_event_driven_and_combined_bs_status_periodic() {
    let c = slotted();
    let n_block = u64::from(c.block_frames);
    for seed in 1..=10 {
        let r = Run { cfg: c, p: 0.1, seed, down: 1000, up: 1000, limit: 100_000, handoff_at: None };
        let o = run(r);
        assert_complete(&o, &r, &format!("seed {seed}"));
        let m = o.mh_rx;
        println!(
            "AIRMAIL-1 seed {seed:>2}: MH received {} frames, sent {} statuses ({} block <= {}, {} poll of {} polls, {} gap timer); BS sent {} statuses in {} slots (T_status {})",
            m.frames,
            m.statuses(),
            m.block_statuses,
            m.frames / n_block,
            m.poll_statuses,
            o.bs_polls,
            m.timer_statuses,
            o.bs_statuses,
            o.slots,
            c.status_period_ns
        );
        assert!(m.block_statuses <= m.frames / n_block);
        assert!(m.poll_statuses <= o.bs_polls);
        assert!(m.timer_statuses <= o.slots / c.gap_ns);
        assert!(m.statuses() <= m.frames / n_block + m.poll_statuses + m.timer_statuses);
        assert!(m.statuses() * 2 < m.frames, "combined: far fewer statuses than frames");
        assert_eq!(o.bs_statuses, o.slots / c.status_period_ns, "periodic");
    }
}

/// The grid's deadline in slots, derived as the RLP grid's is (see
/// `rlp/tests.rs`, `deadline`): `N / throughput + spread + margin`, the
/// throughput the least of the full-buffer bounds, in frames per slot, of
/// both directions (they run at once; the run ends when both are done):
///
/// - the data channel's: `q = 1 - p`, one frame per slot;
/// - the downlink's feedback: a status resolves at most a window `W`; the
///   MH sends one after `N` frames arrived or on a poll that arrived (the
///   BS polls at least every poll timer, `T_poll + 2 DELAY`, once its window
///   is all sent), so one is sent every `min(N, T_poll + 2 DELAY) / q`
///   slots and one gets through every `min(N, T_poll + 2 DELAY) / q^2`:
///   `W q / (min(N, T_poll + 2 DELAY) / q^2 + 2 DELAY)` (the BS does not
///   preempt, so at high loss its window waits for this round: the `q^2`
///   dominates from 75 % loss);
/// - the uplink's: the MH resends after two of the BS's statuses at the
///   most, one through every `T_status / q`: `W q / (2 T_status / q + 2
///   DELAY)`.
///
/// Plus six standard deviations of a sum of `N` geometric variables,
/// `sqrt(N (1 - q)) / q`, and ns-3's empirical margin, one opportunity a
/// slot.
fn deadline(c: &AirmailConfig, p: f64, n: u32) -> u64 {
    let q = 1.0 - p;
    let (w, d) = (f64::from(c.window_frames), (2 * DELAY) as f64);
    let interval = f64::from(c.block_frames).min(c.poll_ns as f64 + d);
    let down = w * q / (interval / (q * q) + d);
    let up = w * q / (2.0 * c.status_period_ns as f64 / q + d);
    let throughput = q.min(down).min(up);
    let n = f64::from(n);
    let spread = 6.0 * (n * (1.0 - q)).sqrt() / q;
    (n / throughput + spread + ns3_margin_opportunities(p)).ceil() as u64
}

/// ns-3's `lte-rlc-am-e2e` grid (loss 0 to 95 %, 30 seeds, 1000 SDUs, bulk
/// arrival) for persistent AIRMAIL, 1000 SDUs each way at once, the poll
/// timer at ns-3's `t-PollRetransmit`: all handed up, in order, none twice,
/// by [`deadline`]. Prints the worst run per cell against it.
#[test]
fn ns3_rlc_am_grid_airmail_delivers_all_in_order_once_by_the_deadline() {
    let n = 1000;
    let c = AirmailConfig { poll_ns: NS3_POLL_RETRANSMIT, ..slotted() };
    for p in GRID_LOSS {
        let limit = deadline(&c, p, n);
        let mut worst = 0;
        for seed in 1..=30 {
            let r = Run { cfg: c, p, seed, down: n, up: n, limit, handoff_at: None };
            let o = run(r);
            assert_complete(&o, &r, &format!("airmail p={p} seed={seed}"));
            worst = worst.max(o.slots);
        }
        println!("grid airmail p={p:.2}: worst {worst:>7} slots, deadline {limit:>7}");
    }
}

/// AIRMAIL-3 (seed 002 Sec. 5.1, \[A\]): a handoff mid-transfer, the old
/// BS's state carried to the new one and everything in the air lost:
/// every frame reaches the MH (and the BS) exactly once and in order. 10
/// seeds, 1000 frames each way, 10 % loss, the handoff at slot 300.
#[test]
fn airmail_3_handoff_with_state_transfer_loses_and_duplicates_nothing() {
    for seed in 1..=10 {
        let r = Run { cfg: slotted(), p: 0.1, seed, down: 1000, up: 1000, limit: 100_000, handoff_at: Some(300) };
        let o = run(r);
        assert_complete(&o, &r, &format!("seed {seed}"));
        println!(
            "AIRMAIL-3 seed {seed:>2}: {} handed up before the handoff, {} downlink frames in the window carried, {} slots, {} duplicate copies at the MH (none handed up)",
            o.handed_before_handoff, o.handoff_unacked, o.slots, o.mh_rx.duplicates
        );
        assert!(o.handed_before_handoff > 0 && o.handed_before_handoff < 2000, "mid-transfer");
        assert!(o.handoff_unacked > 0, "frames in flight at the handoff");
    }
}

#[test]
fn the_state_a_handoff_carries_is_the_window_and_the_receive_bitmap() {
    let c = slotted();
    let (mut bs, mut mh) = (Bs::<u32>::new(c, T0), Mh::<u32>::new(c, T0));
    for f in [10, 11, 12] {
        bs.down.offer(T0, f);
        mh.up.offer(T0, f + 10);
    }
    let d: Vec<_> = (0..3).map(|t| transmit(&mut bs.down, Time(t))).collect();
    let u: Vec<_> = (0..3).map(|t| transmit(&mut mh.up, Time(t))).collect();
    bs.up.on_frame(Time(1), u[0].0.seq, u[0].1);
    bs.up.on_frame(Time(3), u[2].0.seq, u[2].1); // 1 lost
    assert_eq!(ups(&mut bs.up), vec![0]);
    let st = bs.export_state();
    assert_eq!((st.vs, st.next_tx, st.vr, st.bitmap, st.tx_rx), (0, 4, 1, 0b1, 3));
    assert_eq!(
        st.unacked.iter().map(|x| (x.seq, x.frame, x.last_tx)).collect::<Vec<_>>(),
        [(0, 10, 1), (1, 11, 2), (2, 12, 3)]
    );
    let mut new = Bs::from_state(c, Time(4), st);
    // The MH's status, answering the new BS's poll, settles its window.
    assert_eq!(new.down.deadline(), Some(Time(4 + c.poll_ns)));
    mh.down.on_frame(Time(2), d[1].0.seq, d[1].1); // 0 and 2 lost in the handoff
    assert_eq!(new.down.on_timeout(Time(28)), Expiry::Resend);
    let (f, h) = transmit(&mut new.down, Time(28));
    assert_eq!((f.seq, h.tx, h.poll), (0, 4, true));
    let got = mh.down.on_frame(Time(29), f.seq, h);
    assert_eq!(got.ack, Some(Status { vr: 2, bitmap: 0, tx_rx: 4 }));
    assert_eq!(ups(&mut mh.down), vec![0, 1]);
    assert_eq!(new.down.on_ack(Time(30), got.ack.unwrap()), 2);
    assert_eq!(new.down.next(Time(30)).map(|f| (f.seq, f.retransmission)), Some((2, true)), "proven lost");
    // The uplink: the new BS's first periodic status proves 1 lost; it
    // hands up 1, then 2, which the old one held.
    let st = new.up.on_status_timer(Time(12));
    assert_eq!(st, Status { vr: 1, bitmap: 0b1, tx_rx: 3 });
    assert_eq!(mh.up.on_ack(Time(13), st), 2);
    let (f, h) = transmit(&mut mh.up, Time(13));
    assert_eq!((f.seq, f.retransmission), (1, true));
    new.up.on_frame(Time(14), f.seq, h);
    assert_eq!(ups(&mut new.up), vec![1, 2]);
}

// ---------------------------------------------------------------- properties

fn any_config() -> impl Strategy<Value = AirmailConfig> {
    // T_status above the round trip (2 slots), as the module docs ask.
    (1u32..=64, 1u32..16, 3u64..16, 1u64..32, 1u64..32).prop_map(
        |(window_frames, block_frames, t_status, poll, gap)| AirmailConfig {
            window_frames,
            block_frames,
            status_period_ns: t_status,
            poll_ns: poll,
            gap_ns: gap,
            ..AirmailConfig::default()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the configuration, losses and handoff: no frame handed up
    /// twice and the MH never resends unreported (both asserted as it
    /// happens), every frame handed up both ways, in order; the BS's
    /// statuses are periodic (without a handoff).
    #[test]
    fn invariants_hold(c in any_config(), p in 0.0f64..0.6, seed in any::<u64>(), down in 0u32..300, up in 0u32..300, handoff in prop::option::of(0u64..400)) {
        let r = Run { cfg: c, p, seed, down, up, limit: 2_000_000, handoff_at: handoff };
        let o = run(r);
        prop_assert!(o.finished, "unfinished at {}", o.slots);
        prop_assert!(o.at_mh.iter().copied().eq(0..down));
        prop_assert!(o.at_bs.iter().copied().eq(0..up));
        if handoff.is_none() {
            prop_assert_eq!(o.bs_statuses, o.slots / c.status_period_ns);
        }
    }
}
