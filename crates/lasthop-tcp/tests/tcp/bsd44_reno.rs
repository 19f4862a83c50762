//! Issue 10: 4.4BSD-Lite's Reno (BSD/OS 2.1, the 1997 testbed's stack) as a
//! timeline. The peer advertises 8 segments, cwnd starts at 8, and segment 0
//! is lost: seven duplicate acks inflate cwnd past the window during fast
//! recovery. With header prediction the ack that ends recovery takes
//! `tcp_input`'s fast path (a pure ack, window unchanged, `snd_nxt ==
//! snd_max`, `snd_cwnd >= snd_wnd`): cwnd stays inflated and `t_dupacks`
//! stays above tcprexmtthresh, so the next loss waits for the timer. The
//! later BSDs' guards on `t_dupacks` (issue 28: the paper's own evidence
//! picks OpenBSD's) send that ack down the slow path.

use lasthop_core::trace::Trace;
use lasthop_core::{TcpHeader, Time};
use lasthop_tcp::{HeaderPredictionGuard, RecoveryExit, Sender, SenderConfig, WindowCut, WindowGrowth};

const MSS: u64 = 1000;
const WND: u32 = 8000;

fn sender(header_prediction: bool) -> (Sender, Trace) {
    guarded(header_prediction, HeaderPredictionGuard::None)
}

fn guarded(header_prediction: bool, header_prediction_guard: HeaderPredictionGuard) -> (Sender, Trace) {
    let cfg = SenderConfig {
        send_buffer_bytes: u64::from(WND),
        initial_cwnd_segments: 8,
        initial_ssthresh_bytes: u64::MAX / 2,
        window_growth: WindowGrowth::Bsd44,
        window_cut: WindowCut::Bsd44,
        recovery_exit: RecoveryExit::Bsd44,
        header_prediction,
        header_prediction_guard,
        max_cwnd_bytes: 65_535,
        total_bytes: Some(100 * MSS),
        ..SenderConfig::reno(MSS as u32)
    };
    let mut trace = Trace::new(false);
    let mut s = Sender::new(cfg, 0);
    s.start(Time::ZERO, &mut trace);
    (s, trace)
}

/// Everything sent at `t_ms`, as (first byte, retransmission).
fn sent(s: &mut Sender, trace: &mut Trace, t_ms: u64) -> Vec<(u64, bool)> {
    std::iter::from_fn(|| s.poll_transmit(Time::from_ms(t_ms), trace)).map(|h| (h.seq, h.is_retransmit)).collect()
}

fn ack(s: &mut Sender, trace: &mut Trace, t_ms: u64, ack: u64) -> Vec<(u64, bool)> {
    s.on_ack(Time::from_ms(t_ms), &TcpHeader { ack, wnd_bytes: WND, ..TcpHeader::default() }, trace);
    sent(s, trace, t_ms)
}

fn new_data(from: u64, n: u64) -> Vec<(u64, bool)> {
    (0..n).map(|i| (from + i * MSS, false)).collect()
}

/// t0 send 0..7000; segment 0 is lost; t100 seven duplicates; t200 the
/// retransmission's ack covers all eight; what is sent then.
fn lose_first_segment(s: &mut Sender, trace: &mut Trace) -> Vec<(u64, bool)> {
    assert_eq!(sent(s, trace, 0), new_data(0, 8));
    for i in 1..=7 {
        let out = ack(s, trace, 100, 0);
        assert_eq!(out, if i == 3 { vec![(0, true)] } else { vec![] }, "duplicate {i}");
    }
    // min(snd_wnd, snd_cwnd) / 2 = 4 segments; 4 + 3 + 4 further duplicates.
    assert_eq!((s.ssthresh_bytes(), s.cwnd_bytes()), (4 * MSS, 11 * MSS));
    ack(s, trace, 200, 8 * MSS)
}

#[test]
fn header_prediction_keeps_recovery_inflated_until_a_timeout() {
    let (mut s, mut trace) = sender(true);
    assert_eq!(lose_first_segment(&mut s, &mut trace), new_data(8 * MSS, 8), "the peer's window of 8");
    assert_eq!(s.cwnd_bytes(), 11 * MSS, "the fast path neither deflates nor opens cwnd");
    assert!(s.in_recovery(), "t_dupacks is still above tcprexmtthresh");
    // t300: segment 8000 is lost; seven duplicates only inflate cwnd further.
    for _ in 0..7 {
        assert_eq!(ack(&mut s, &mut trace, 300, 8 * MSS), vec![]);
    }
    assert_eq!(s.stats().fast_retransmits, 1, "++t_dupacks == tcprexmtthresh never holds again");
    assert_eq!(s.cwnd_bytes(), 18 * MSS);
    // The retransmission timer (1 s, armed at t200) resends it.
    assert_eq!(sent(&mut s, &mut trace, 1_100), vec![]);
    s.on_timer(Time::from_ms(1_200), &mut trace);
    assert_eq!(sent(&mut s, &mut trace, 1_200), vec![(8 * MSS, true)]);
    assert_eq!(s.stats().timeouts, 1);
    // tcp_timer: min(snd_wnd, snd_cwnd) / 2 = 4 segments, cwnd one segment.
    assert_eq!((s.ssthresh_bytes(), s.cwnd_bytes()), (4 * MSS, MSS));
}

#[test]
fn without_header_prediction_the_next_loss_is_fast_retransmitted() {
    let (mut s, mut trace) = sender(false);
    assert_eq!(lose_first_segment(&mut s, &mut trace), new_data(8 * MSS, 5), "cwnd of 5");
    // Deflated to ssthresh, then a whole segment as cwnd = ssthresh.
    assert_eq!(s.cwnd_bytes(), 5 * MSS);
    assert!(!s.in_recovery());
    let mut out = Vec::new();
    for _ in 0..3 {
        out.extend(ack(&mut s, &mut trace, 300, 8 * MSS));
    }
    assert_eq!(out, vec![(8 * MSS, true)]);
    assert_eq!(s.stats().fast_retransmits, 2);
}

#[test]
fn predicted_acks_do_not_open_cwnd_at_the_window() {
    // No loss: once cwnd >= the advertised window, acks take the fast path
    // and cwnd stays where it was (8 segments, the window).
    let (mut s, mut trace) = sender(true);
    assert_eq!(sent(&mut s, &mut trace, 0), new_data(0, 8));
    for i in 1..=8 {
        assert_eq!(ack(&mut s, &mut trace, 100, i * MSS), vec![((7 + i) * MSS, false)]);
    }
    assert_eq!(s.cwnd_bytes(), 8 * MSS);
}

#[test]
fn timeout_goes_back_to_snd_una_and_resends_what_the_receiver_has() {
    // tcp_timer: `tp->snd_nxt = tp->snd_una` and slow start from one segment:
    // segments 1000..7000, which the receiver holds, are sent again as the
    // window opens, until an ack moves snd_nxt past them.
    let (mut s, mut trace) = sender(false);
    assert_eq!(sent(&mut s, &mut trace, 0), new_data(0, 8));
    s.on_timer(Time::from_ms(1_000), &mut trace);
    assert_eq!(sent(&mut s, &mut trace, 1_000), vec![(0, true)]);
    // The receiver acks only segment 0 (1000 and 2000 were lost too).
    assert_eq!(ack(&mut s, &mut trace, 1_100, MSS), vec![(MSS, true), (2 * MSS, true)]);
    // 1000 fills a hole; 2000 is still missing, so the ack stops at 2000:
    // go-back-N resends 3000 and 4000 although the receiver has them.
    assert_eq!(ack(&mut s, &mut trace, 1_200, 2 * MSS), vec![(3 * MSS, true), (4 * MSS, true)]);
}

#[test]
fn a_guarded_fast_path_leaves_recovery_as_the_slow_path_does() {
    // FreeBSD's `t_dupacks < tcprexmtthresh` and OpenBSD's `t_dupacks == 0`:
    // the ack that ends recovery finds seven duplicates counted and takes
    // the slow path, as without header prediction.
    for guard in [HeaderPredictionGuard::BelowThreshold, HeaderPredictionGuard::NoDupacks] {
        let (mut s, mut trace) = guarded(true, guard);
        assert_eq!(lose_first_segment(&mut s, &mut trace), new_data(8 * MSS, 5), "{guard:?}: cwnd of 5");
        assert!(!s.in_recovery(), "{guard:?}");
        let mut out = Vec::new();
        for _ in 0..3 {
            out.extend(ack(&mut s, &mut trace, 300, 8 * MSS));
        }
        assert_eq!(out, vec![(8 * MSS, true)], "{guard:?}");
        assert_eq!(s.stats().fast_retransmits, 2, "{guard:?}");
    }
}

#[test]
fn below_the_threshold_a_lone_duplicate_outlives_predicted_acks() {
    // At the window (cwnd 8 = 8 segments advertised) acks are predicted. One
    // duplicate (a segment reordered, or the first duplicate a snoop agent
    // lets through) is counted; the next new ack is predicted under
    // FreeBSD's guard and keeps the count, and two later duplicates then
    // make a fast retransmission. OpenBSD's guard sends that ack down the
    // slow path, which clears the count: three fresh duplicates are needed.
    let run = |guard| {
        let (mut s, mut trace) = guarded(true, guard);
        assert_eq!(sent(&mut s, &mut trace, 0), new_data(0, 8));
        assert_eq!(ack(&mut s, &mut trace, 100, MSS), new_data(8 * MSS, 1));
        assert_eq!(ack(&mut s, &mut trace, 101, MSS), vec![], "one duplicate");
        assert_eq!(ack(&mut s, &mut trace, 102, 2 * MSS).len(), 1, "a new ack");
        let mut out = Vec::new();
        for t in 103..105 {
            out.extend(ack(&mut s, &mut trace, t, 2 * MSS));
        }
        (out, s.stats().fast_retransmits)
    };
    assert_eq!(run(HeaderPredictionGuard::BelowThreshold), (vec![(2 * MSS, true)], 1));
    assert_eq!(run(HeaderPredictionGuard::NoDupacks), (vec![], 0));
    assert_eq!(run(HeaderPredictionGuard::None), (vec![(2 * MSS, true)], 1));
}
