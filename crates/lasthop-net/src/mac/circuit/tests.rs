//! Timelines of the RLP circuit. Unless said, a 512 kb/s circuit (a
//! 64-byte frame slot is 1 ms), one-way delay 2 ms, 60-byte payloads, a
//! status slot every 4 (slots 3, 7, 11, ...), the basic form (no
//! preemptive retransmissions), in order. A frame sent in slot k reaches
//! the far station at (k + 1 + 2) ms.

use super::*;
use crate::arq::rlp::{Delivery, Form, RlpConfig};
use crate::error::ErrorModelConfig;
use crate::mac::test_support::frame;

const MS: u64 = 1_000_000;

fn cfg(form: Form) -> CircuitConfig {
    CircuitConfig {
        bandwidth_bps: 512_000,
        delay_ns: 2 * MS,
        rlp: RlpConfig { form, ..RlpConfig::default() },
        ..CircuitConfig::default()
    }
}

fn lose(c: Circuit, s: StationId, packets: Vec<u64>) -> Circuit {
    let m = ErrorModel::new(&ErrorModelConfig::List { packets, seqs: vec![] }, || RngStream::new(1, "x"));
    c.with_error_model(s, m)
}

/// Run until idle: the outputs with their times, and the wake-ups.
fn run(c: &mut Circuit) -> (Vec<(Time, MacOutput)>, usize) {
    let (mut got, mut out, mut wakes) = (Vec::new(), Vec::new(), 0);
    while c.poll_at() != Time::NEVER {
        let t = c.poll_at();
        assert!(wakes < 10_000, "runs away");
        c.on_timer(t, &mut out);
        wakes += 1;
        got.extend(out.drain(..).map(|o| (t, o)));
    }
    (got, wakes)
}

fn offer(c: &mut Circuit, pool: &mut PacketPool, now: Time, s: StationId, uid: u64, size: u32) -> Waiting {
    let w = frame(pool, uid, size);
    assert!(c.enqueue(now, s, 1 - s, w, pool, &mut Vec::new(), &mut Vec::new()).queued());
    w
}

#[test]
fn the_slot_is_a_frame_time() {
    assert_eq!(cfg(Form::Basic).slot_ns(), MS);
    // The default: 64 bytes at 9.6 kb/s, 53.33 ms.
    assert_eq!(CircuitConfig::default().slot_ns(), 53_333_333);
    assert_eq!(CircuitConfig::default().frames_for(150), 3);
    assert_eq!(CircuitConfig::default().frames_for(40), 1);
}

#[test]
fn one_packet_is_segmented_and_reassembled() {
    // 150 bytes: frames 0, 1, 2 in slots 0, 1, 2; frame 2 arrives at 5 ms
    // and the packet goes up whole. Station 1's status slots 3 and 7
    // report (frame 0, then all three): the circuit is then idle.
    let mut pool = PacketPool::new();
    let mut c = Circuit::new(cfg(Form::Basic));
    assert_eq!(c.poll_at(), Time::NEVER);
    let w = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    assert_eq!(c.poll_at(), Time::ZERO);
    assert_eq!(c.in_flight(), 1);
    let (got, _) = run(&mut c);
    assert_eq!(
        got,
        vec![
            (Time::ZERO, MacOutput::Transmit { station: 0, to: 1, frame: w, retransmission: false, held: true }),
            (Time(5 * MS), MacOutput::Deliver { station: 1, from: 0, frame: w }),
        ]
    );
    let s = c.stats(0);
    assert_eq!((s.frames_sent, s.frame_retransmissions, s.packets_delivered), (3, 0, 1));
    assert_eq!(c.stats(1).status_frames, 2);
    assert_eq!(c.in_flight(), 0);
}

#[test]
fn a_lost_frame_goes_again_once_a_status_proves_it_lost() {
    // Frame 1 (station 0's second transmission) is lost. Status 3 (at 6
    // ms) has only frame 0; status 7 (at 10 ms) has frame 2, sent after
    // frame 1: frame 1 is lost. It goes in slot 10 and arrives at 13 ms,
    // and the packet goes up then, once.
    let mut pool = PacketPool::new();
    let mut c = lose(Circuit::new(cfg(Form::Basic)), 0, vec![1]);
    let w = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    let (got, _) = run(&mut c);
    let delivers: Vec<_> = got.iter().filter(|(_, o)| matches!(o, MacOutput::Deliver { .. })).collect();
    assert_eq!(delivers, vec![&(Time(13 * MS), MacOutput::Deliver { station: 1, from: 0, frame: w })]);
    assert_eq!(got.len(), 2, "one Transmit, one Deliver: {got:?}");
    let s = c.stats(0);
    assert_eq!((s.frames_sent, s.frame_retransmissions), (4, 1));
    assert_eq!(c.stats(1).frames_corrupted, 1);
    assert_eq!(c.rlp_stats(0).lost_resends, 1);
    assert_eq!(c.in_flight(), 0);
}

#[test]
fn a_lost_status_is_made_good_by_the_next() {
    // Station 1's first status (slot 3) is lost; the packet went up at 5
    // ms anyway, and status 7 acks all three frames: nothing is resent.
    let mut pool = PacketPool::new();
    let mut c = lose(Circuit::new(cfg(Form::Basic)), 1, vec![0]);
    let w = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    let (got, _) = run(&mut c);
    assert_eq!(got[1], (Time(5 * MS), MacOutput::Deliver { station: 1, from: 0, frame: w }));
    assert_eq!(got.len(), 2);
    assert_eq!(c.stats(0).frames_corrupted, 1);
    assert_eq!(c.stats(0).frame_retransmissions, 0);
    assert_eq!(c.stats(1).status_frames, 2);
    assert_eq!(c.in_flight(), 0);
}

#[test]
fn a_packet_is_dropped_once_at_the_retry_limit() {
    // Every frame from station 0 is lost, retry limit 1: no status can
    // prove a frame lost (nothing later arrives), so the stall timer
    // (100 ms) resends frame 0 once, then gives up: the packet's one Drop.
    let mut pool = PacketPool::new();
    let mut c = Circuit::new(CircuitConfig {
        rlp: RlpConfig { retry_limit: Some(1), ..cfg(Form::Basic).rlp },
        ..cfg(Form::Basic)
    });
    let deaf = ErrorModel::new(&ErrorModelConfig::Bernoulli { p: 1.0 }, || RngStream::new(1, "x"));
    c = c.with_error_model(0, deaf);
    let w = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    let (got, _) = run(&mut c);
    let drops: Vec<_> = got.iter().filter(|(_, o)| matches!(o, MacOutput::Drop { .. })).collect();
    assert_eq!(drops.len(), 1, "{got:?}");
    assert_eq!(drops[0].1, MacOutput::Drop { station: 0, frame: w, cause: MacDropCause::RetryLimit });
    assert!(!got.iter().any(|(_, o)| matches!(o, MacOutput::Deliver { .. })));
    assert_eq!(c.stats(0).packets_dropped, 1);
    assert_eq!(c.in_flight(), 0);
    assert_eq!(c.poll_at(), Time::NEVER);
}

#[test]
fn an_idle_circuit_schedules_no_wake_ups() {
    // A 40-byte packet (one frame): slot 0, its arrival with station 1's
    // status slot at 3 ms, the status's arrival at 6 ms. Then nothing.
    let mut pool = PacketPool::new();
    let mut c = Circuit::new(cfg(Form::Basic));
    let (_, wakes) = run(&mut c);
    assert_eq!(wakes, 0);
    offer(&mut c, &mut pool, Time::ZERO, 0, 1, 40);
    let (got, wakes) = run(&mut c);
    assert_eq!(got.len(), 2);
    assert_eq!(wakes, 3);
    assert_eq!(c.poll_at(), Time::NEVER);
    // Much later, a packet the other way: its slot is the first after now.
    offer(&mut c, &mut pool, Time(1_000 * MS + 1), 1, 2, 40);
    assert_eq!(c.poll_at(), Time(1_001 * MS));
}

#[test]
fn the_enhanced_form_resends_preemptively_and_delivers_once() {
    // Enhanced: idle slots repeat unacked frames; duplicates never go up.
    let mut pool = PacketPool::new();
    let mut c = lose(Circuit::new(cfg(Form::Enhanced)), 0, vec![1]);
    let a = offer(&mut c, &mut pool, Time::ZERO, 0, 1, 150);
    let b = offer(&mut c, &mut pool, Time::ZERO, 1, 2, 100);
    let (got, _) = run(&mut c);
    let delivers: Vec<_> = got
        .iter()
        .filter_map(|(_, o)| match o {
            MacOutput::Deliver { frame, .. } => Some(frame.tag),
            _ => None,
        })
        .collect();
    assert_eq!(delivers.len(), 2, "{got:?}");
    assert!(delivers.contains(&a.tag) && delivers.contains(&b.tag));
    assert!(c.rlp_stats(0).preemptive > 0);
    assert_eq!(c.in_flight(), 0);
    assert_eq!(c.poll_at(), Time::NEVER);
}

#[test]
fn packets_go_up_in_order_out_of_order_frames_notwithstanding() {
    // Three one-frame packets; the first's frame is lost: in order, the
    // second and third wait for its retransmission.
    let mut pool = PacketPool::new();
    let mut c = lose(Circuit::new(cfg(Form::Basic)), 0, vec![0]);
    let ws: Vec<_> = (0..3).map(|i| offer(&mut c, &mut pool, Time::ZERO, 0, i, 40)).collect();
    let (got, _) = run(&mut c);
    let delivers: Vec<_> = got
        .iter()
        .filter_map(|(t, o)| match o {
            MacOutput::Deliver { frame, .. } => Some((*t, frame.tag)),
            _ => None,
        })
        .collect();
    assert_eq!(delivers.iter().map(|d| d.1).collect::<Vec<_>>(), ws.iter().map(|w| w.tag).collect::<Vec<_>>());
    assert!(delivers.iter().all(|d| d.0 == delivers[0].0), "all three at the retransmission's arrival");
    // Out of order: the second and third go up at once.
    let mut c = Circuit::new(CircuitConfig {
        rlp: RlpConfig { delivery: Delivery::OutOfOrder, ..cfg(Form::Basic).rlp },
        ..cfg(Form::Basic)
    });
    c = lose(c, 0, vec![0]);
    for i in 0..3 {
        offer(&mut c, &mut pool, Time::ZERO, 0, i, 40);
    }
    let (got, _) = run(&mut c);
    let first = got.iter().find(|(_, o)| matches!(o, MacOutput::Deliver { .. })).unwrap();
    assert_eq!(first.0, Time(4 * MS));
}

// AIRMAIL over the circuit: station 0 the base station, station 1 the
// mobile; the 512 kb/s, 2 ms circuit above.

fn airmail_cfg(fec: &'static str) -> CircuitConfig {
    use crate::arq::airmail::AirmailConfig;
    CircuitConfig {
        airmail: Some(CircuitAirmail {
            arq: AirmailConfig { fec, poll_ns: 50 * MS, gap_ns: 20 * MS, ..AirmailConfig::default() },
            status_period_slots: 4,
        }),
        ..cfg(Form::Basic)
    }
}

#[test]
fn airmail_status_is_periodic_at_the_base_station_and_event_driven_at_the_mobile() {
    // Downlink: 20 packets of 60 bytes, 20 frames; the mobile answers a
    // status per block of 8 frames and on the burst's last frame (the poll
    // bit), never periodically. Uplink: one packet; the base station's
    // status goes in its status slots only.
    let mut pool = PacketPool::new();
    let mut c = Circuit::new(airmail_cfg("none"));
    for uid in 0..20 {
        offer(&mut c, &mut pool, Time::ZERO, 0, uid, 60);
    }
    offer(&mut c, &mut pool, Time::ZERO, 1, 100, 60);
    let (got, _) = run(&mut c);
    let delivered = got.iter().filter(|(_, o)| matches!(o, MacOutput::Deliver { .. })).count();
    assert_eq!(delivered, 21);
    let (bs, mh) = (c.airmail_stats(0).unwrap(), c.airmail_stats(1).unwrap());
    assert_eq!((bs.status_block, bs.status_poll), (0, 0), "{bs:?}");
    assert!(bs.status_timer >= 1, "{bs:?}");
    assert_eq!(mh.status_timer, 0, "no gap: {mh:?}");
    assert!(mh.status_block >= 2 && mh.status_poll >= 1, "{mh:?}");
    assert!(bs.polls >= 1 && mh.polls == 0);
    assert_eq!(c.in_flight(), 0);
    assert_eq!(c.poll_at(), Time::NEVER);
}

#[test]
fn airmail_resends_a_lost_frame_the_mobile_reports() {
    // Downlink frame 1 lost: the mobile's gap timer or block status reports
    // it, the base station resends it once; the packet goes up once.
    let mut pool = PacketPool::new();
    let mut c = lose(Circuit::new(airmail_cfg("none")), 0, vec![1]);
    let w = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    let (got, _) = run(&mut c);
    let delivers: Vec<_> = got.iter().filter(|(_, o)| matches!(o, MacOutput::Deliver { .. })).collect();
    assert_eq!(delivers.len(), 1, "{got:?}");
    assert_eq!(delivers[0].1, MacOutput::Deliver { station: 1, from: 0, frame: w });
    assert_eq!(c.stats(0).frame_retransmissions, 1);
    assert_eq!(c.stats(1).frames_corrupted, 1);
    assert_eq!(c.in_flight(), 0);
}

#[test]
fn the_byte_code_costs_payload_and_the_packet_code_recovers_a_lost_frame() {
    // Coded, a 64-byte frame carries 64 - 4 - 16 = 44 payload bytes: 150
    // bytes are 4 frames (3 uncoded). At the packet level the burst's
    // block closes after its 4 frames with one parity frame; frame 1 lost
    // (a `list` loss: a fade, beyond the byte code) is recovered from it,
    // up before any retransmission could arrive. Frames in slots 0, 1, 2,
    // 4 (slot 3 is the base station's status slot), the parity in 5: all
    // up at 5 + 1 + 2 ms. (The poll bit on the burst's last data frame
    // brings the mobile's status at 7 ms, before the parity arrived: the
    // frame is resent all the same, a copy the mobile does not hand up.)
    let mut pool = PacketPool::new();
    let mut c = lose(Circuit::new(airmail_cfg("packet")), 0, vec![1]);
    c = c.with_fec_channel(0, 1.0, RngStream::new(1, "fec"));
    let w = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    let (got, _) = run(&mut c);
    assert!(got.contains(&(Time(8 * MS), MacOutput::Deliver { station: 1, from: 0, frame: w })), "{got:?}");
    let a = c.airmail_stats(0).unwrap();
    assert_eq!(c.stats(0).frames_sent, 5);
    assert_eq!(c.stats(0).frame_retransmissions, 1);
    // One parity frame for the first block (m = 1, the packet level's
    // start); the resent frame's block of one takes m = m_max = 8, the
    // residual loss rate seen so far (1 in 6) being far above what 1..7
    // parity frames of a 16-frame block answer for.
    assert_eq!((a.coding.parity_frames, a.coding.block_recovered, a.coding.byte_repaired), (1 + 8, 1, 0));
    // Uncoded: 3 frames, and the lost one goes again.
    let mut c = lose(Circuit::new(airmail_cfg("none")), 0, vec![1]);
    offer(&mut c, &mut pool, Time::ZERO, 0, 8, 150);
    run(&mut c);
    assert_eq!((c.stats(0).frames_sent, c.stats(0).frame_retransmissions), (4, 1));
}

#[test]
fn the_byte_code_repairs_scattered_byte_errors() {
    // Every frame hit, with independent byte errors at a rate that almost
    // never puts more than 8 in a frame: at the byte level every frame is
    // repaired; at none, nothing gets through.
    assert!(repair_probability(64, 0.001, 8) > 0.999_999);
    assert_eq!(repair_probability(64, 1.0, 8), 0.0);
    let deaf = || ErrorModel::new(&ErrorModelConfig::Bernoulli { p: 1.0 }, || RngStream::new(1, "x"));
    let mut pool = PacketPool::new();
    let mut c = Circuit::new(airmail_cfg("byte")).with_error_model(0, deaf()).with_error_model(1, deaf());
    c = c.with_fec_channel(0, 0.001, RngStream::new(1, "a")).with_fec_channel(1, 0.001, RngStream::new(1, "b"));
    let w = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    let (got, _) = run(&mut c);
    assert!(got.iter().any(|(_, o)| *o == MacOutput::Deliver { station: 1, from: 0, frame: w }), "{got:?}");
    assert_eq!(c.stats(1).frames_corrupted, 0);
    assert_eq!(c.airmail_stats(0).unwrap().coding.byte_repaired, 4);
}

// ------------------------------------------------------------------ outages

/// Run every internal event due before `until`: the outputs with their times.
fn run_until(c: &mut Circuit, until: Time) -> Vec<(Time, MacOutput)> {
    let (mut got, mut out) = (Vec::new(), Vec::new());
    while c.poll_at() < until {
        let t = c.poll_at();
        c.on_timer(t, &mut out);
        got.extend(out.drain(..).map(|o| (t, o)));
    }
    got
}

/// Three-frame window: a 150-byte packet fills it, the next waits queued.
fn small_window() -> CircuitConfig {
    let mut c = cfg(Form::Basic);
    c.rlp.window_frames = 3;
    c
}

#[test]
fn a_flush_loses_the_queue_and_the_frames_in_the_air_and_the_window_survives() {
    // Packet 7 is frames 0-2 in slots 0-2 (arriving at 3, 4, 5 ms); packet
    // 8 waits in the queue behind the full window. Down (flush) at 2.5 ms:
    // 8 is the caller's, lost to the outage; frames 0-2, in the air, never
    // arrive. Up at 30 ms: RLP's stall timer (100 ms after frame 2)
    // resends the window, and 7 goes up once, after the outage.
    let mut pool = PacketPool::new();
    let mut c = Circuit::new(small_window());
    let w7 = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    let w8 = offer(&mut c, &mut pool, Time::ZERO, 0, 8, 150);
    let early = run_until(&mut c, Time(2 * MS + MS / 2));
    assert_eq!(early.len(), 1, "packet 7's Transmit only: {early:?}");
    let mut removed = Vec::new();
    c.set_outage(Time(2 * MS + MS / 2), 0, Some(Outage::Flush), &mut removed);
    assert_eq!(removed, vec![Removal { pkt: w8.pkt, cause: DropCause::Outage }]);
    let during = run_until(&mut c, Time(30 * MS));
    assert!(during.iter().all(|(_, o)| !matches!(o, MacOutput::Deliver { .. })), "{during:?}");
    assert_eq!(c.stats(1).frames_corrupted, 3, "frames 0-2, in the air");
    c.set_outage(Time(30 * MS), 0, None, &mut removed);
    let (after, _) = run(&mut c);
    let delivered: Vec<_> = after.iter().filter(|(_, o)| matches!(o, MacOutput::Deliver { .. })).collect();
    assert_eq!(delivered.len(), 1);
    assert_eq!(delivered[0].1, MacOutput::Deliver { station: 1, from: 0, frame: w7 });
    assert!(delivered[0].0 > Time(100 * MS), "after the stall timer: {:?}", delivered[0].0);
    assert_eq!(c.in_flight(), 0);
}

#[test]
fn a_held_direction_sends_nothing_until_it_comes_up() {
    // Down (hold) at 0.5 ms, after slot 0's frame 0: it is lost in the air;
    // nothing more is sent until 20 ms; packet 8, offered while held, is
    // queued, not lost; both go up once after.
    let mut pool = PacketPool::new();
    let mut c = Circuit::new(small_window());
    let w7 = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    run_until(&mut c, Time(MS / 2));
    assert_eq!(c.stats(0).frames_sent, 1);
    let mut removed = Vec::new();
    c.set_outage(Time(MS / 2), 0, Some(Outage::Hold), &mut removed);
    assert!(removed.is_empty());
    let w8 = offer(&mut c, &mut pool, Time(MS), 0, 8, 150);
    let during = run_until(&mut c, Time(20 * MS));
    assert_eq!(c.stats(0).frames_sent, 1, "held: no slot used");
    assert!(during.is_empty(), "{during:?}");
    assert_eq!(c.stats(1).frames_corrupted, 1);
    c.set_outage(Time(20 * MS), 0, None, &mut removed);
    let (after, _) = run(&mut c);
    let delivered: Vec<_> = after
        .iter()
        .filter_map(|(_, o)| match o {
            MacOutput::Deliver { frame, .. } => Some(frame.pkt),
            _ => None,
        })
        .collect();
    assert_eq!(delivered, vec![w7.pkt, w8.pkt]);
}

#[test]
fn a_blackhole_loses_what_is_sent_while_down_and_nothing_in_the_air() {
    // Down (blackhole) at 0.5 ms: frame 0 (in the air) arrives; frames 1
    // and 2 (slots 1, 2) are lost; the packet goes up once, later.
    let mut pool = PacketPool::new();
    let mut c = Circuit::new(small_window());
    let w7 = offer(&mut c, &mut pool, Time::ZERO, 0, 7, 150);
    run_until(&mut c, Time(MS / 2));
    let mut removed = Vec::new();
    c.set_outage(Time(MS / 2), 0, Some(Outage::Blackhole), &mut removed);
    run_until(&mut c, Time(10 * MS));
    assert_eq!(c.stats(1).frames_corrupted, 2);
    c.set_outage(Time(10 * MS), 0, None, &mut removed);
    let (after, _) = run(&mut c);
    let delivered: Vec<_> = after.iter().filter(|(_, o)| matches!(o, MacOutput::Deliver { .. })).collect();
    assert_eq!(delivered.len(), 1);
    assert_eq!(delivered[0].1, MacOutput::Deliver { station: 1, from: 0, frame: w7 });
}

// ------------------------------------------- handoff with state transfer

#[test]
fn airmail_state_moves_to_a_new_circuit_and_every_packet_goes_up_once_in_order() {
    // AIRMAIL-3 at the MAC: 40 downlink and 10 uplink packets of 150 bytes
    // (3 frames each) on cell A, 10 % of frames lost each way; at 40 ms,
    // mid-transfer, both cells held down (the frames in the air lost), the
    // link state taken from A and, 30 ms later, installed in cell B with
    // A's queued packets offered to B behind it. Every packet goes up once,
    // in order per direction, across the two cells; A is left idle.
    for seed in 1..=10 {
        let mut pool = PacketPool::new();
        let lossy = |s: StationId| {
            let m =
                ErrorModel::new(&ErrorModelConfig::Bernoulli { p: 0.1 }, || RngStream::new(seed, &format!("c:{s}")));
            m
        };
        let mut a = Circuit::new(airmail_cfg("none")).with_error_model(0, lossy(0)).with_error_model(1, lossy(1));
        let mut b = Circuit::new(airmail_cfg("none")).with_error_model(0, lossy(2)).with_error_model(1, lossy(3));
        let down: Vec<_> = (0..40).map(|u| offer(&mut a, &mut pool, Time::ZERO, 0, u, 150).pkt).collect();
        let up: Vec<_> = (100..110).map(|u| offer(&mut a, &mut pool, Time::ZERO, 1, u, 150).pkt).collect();
        let mut removed = Vec::new();
        let mut got = run_until(&mut a, Time(40 * MS));
        for s in 0..2 {
            a.set_outage(Time(40 * MS), s, Some(Outage::Hold), &mut removed);
            b.set_outage(Time(40 * MS), s, Some(Outage::Hold), &mut removed);
        }
        let mut queued = Vec::new();
        let state = a.take_link_state(Time(40 * MS), &mut queued);
        let carried = state.window_bytes(0);
        assert_eq!(a.in_flight(), 0);
        assert_eq!(a.poll_at(), Time::NEVER, "A holds nothing and waits for nothing");
        for s in 0..2 {
            b.set_outage(Time(70 * MS), s, None, &mut removed);
        }
        b.install_link_state(Time(70 * MS), state);
        for (s, w) in &queued {
            assert!(b.enqueue(Time(70 * MS), *s, 1 - *s, *w, &mut pool, &mut removed, &mut Vec::new()).queued());
        }
        let before = got.len();
        got.extend(run(&mut b).0);
        let ups = |station: StationId, from: &[(Time, MacOutput)]| -> Vec<_> {
            from.iter()
                .filter_map(|(_, o)| match o {
                    MacOutput::Deliver { station: at, frame, .. } if *at == station => Some(frame.pkt),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(ups(1, &got), down, "seed {seed}: downlink once and in order");
        assert_eq!(ups(0, &got), up, "seed {seed}: uplink once and in order");
        let on_a = ups(1, &got[..before]).len();
        println!(
            "seed {seed}: {on_a} downlink packets up on A, {} after the move; {carried} window bytes and {} queued packets carried",
            40 - on_a,
            queued.len()
        );
        assert!(on_a > 0 && on_a < 40, "seed {seed}: mid-transfer");
        assert!(carried > 0, "seed {seed}: frames in the window at the move");
        assert_eq!(b.in_flight(), 0);
    }
}
