//! Seed 004 (Yun 2009), lasthop issue 13: the sender side of LL-ELSN, as
//! timelines. Acks, ERSNs and ELNs are injected by hand at stated times and
//! the segments the sender sends are checked exactly (as in
//! fig1_timelines.rs).
//!
//! Common setup: MSS 1000 bytes, initial window of six segments, ssthresh
//! unlimited, a 64 kB advertised window, RFC 6298 timer (1 s initial RTO),
//! 40 segments to send. The paper's Fig. 4 numbers packets 14..19: packet n
//! is the segment starting at `p(n) = (n - 14) * 1000`.

use lasthop_core::trace::Trace;
use lasthop_core::{TcpHeader, Time};
use lasthop_tcp::{LlElsnConfig, LlElsnResponse, Sender, SenderConfig, Variant};

const MSS: u64 = 1000;
const NEW: bool = false;
const REXMIT: bool = true;

/// The first byte of the paper's packet `n` (Fig. 4).
fn p(n: u64) -> u64 {
    (n - 14) * MSS
}

fn config() -> SenderConfig {
    SenderConfig {
        variant: Variant::Sack,
        send_buffer_bytes: 64_000,
        initial_cwnd_segments: 6,
        initial_ssthresh_bytes: 1 << 30,
        total_bytes: Some(40 * MSS),
        ..SenderConfig::reno(MSS as u32)
    }
}

struct Harness {
    s: Sender,
    trace: Trace,
}

impl Harness {
    fn new(ll: Option<LlElsnConfig>) -> Harness {
        let s = Sender::new(config(), 0);
        let s = match ll {
            Some(cfg) => s.with_ll_elsn(cfg),
            None => s,
        };
        let mut h = Harness { s, trace: Trace::new(true) };
        h.s.start(Time::ZERO, &mut h.trace);
        h
    }

    fn response(r: LlElsnResponse) -> Harness {
        let cfg = match r {
            LlElsnResponse::Esack => LlElsnConfig::esack(),
            other => LlElsnConfig::comparison(other),
        };
        Harness::new(Some(cfg))
    }

    /// Everything the sender sends at `t_ms`, as (first byte, retransmission).
    fn sent(&mut self, t_ms: u64) -> Vec<(u64, bool)> {
        let mut out = Vec::new();
        while let Some(seg) = self.s.poll_transmit(Time::from_ms(t_ms), &mut self.trace) {
            out.push((seg.seq, seg.is_retransmit));
        }
        out
    }

    /// An ack of `ack` with SACK blocks (most recent first) and the SMART
    /// echo of the segment that caused it.
    fn ack(&mut self, t_ms: u64, ack: u64, blocks: &[(u64, u64)], echo: Option<u64>) -> Vec<(u64, bool)> {
        let mut hdr = TcpHeader { ack, wnd_bytes: 64_000, smart_echo: echo, ..TcpHeader::default() };
        for &(s, e) in blocks {
            hdr.sack.push(s, e);
        }
        self.s.on_ack(Time::from_ms(t_ms), &hdr, &mut self.trace);
        self.sent(t_ms)
    }

    fn eln(&mut self, t_ms: u64, seq: u64) -> Vec<(u64, bool)> {
        self.s.on_link_eln(Time::from_ms(t_ms), seq, &mut self.trace);
        self.sent(t_ms)
    }

    fn ersn(&mut self, t_ms: u64, seq: u64) -> Vec<(u64, bool)> {
        self.s.on_ersn(Time::from_ms(t_ms), seq, &mut self.trace);
        self.sent(t_ms)
    }

    fn tick(&mut self, t_ms: u64) -> Vec<(u64, bool)> {
        self.s.on_timer(Time::from_ms(t_ms), &mut self.trace);
        self.sent(t_ms)
    }

    /// (cwnd, ssthresh) in segments.
    fn window(&self) -> (u64, u64) {
        (self.s.cwnd_bytes() / MSS, self.s.ssthresh_bytes() / MSS)
    }
}

const BIG: u64 = (1 << 30) / MSS;

/// t = 0: packets 14..19 leave.
fn fig4_start(h: &mut Harness) {
    let expect: Vec<_> = (14..20).map(|n| (p(n), NEW)).collect();
    assert_eq!(h.sent(0), expect);
}

/// The SACK blocks of the receiver holding packets `held` (ascending) above
/// a hole, the most recent (`last`) first (RFC 2018 Sec. 4).
fn blocks(held: &[u64], last: u64) -> Vec<(u64, u64)> {
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for &n in held {
        match ranges.last_mut() {
            Some(r) if r.1 == p(n) => r.1 = p(n + 1),
            _ => ranges.push((p(n), p(n + 1))),
        }
    }
    let i = ranges.iter().position(|r| r.0 <= p(last) && p(last) < r.1).expect("last is held");
    let first = ranges.remove(i);
    std::iter::once(first).chain(ranges.into_iter().rev()).take(3).collect()
}

#[test]
fn a15_fig4_lhp_list_enters_fast_recovery_three_times() {
    // Packets 14, 16 and 18 are lost to congestion.
    let mut h = Harness::response(LlElsnResponse::LhpList);
    fig4_start(&mut h);
    // t = 100 ms: ACK (14, 15): 15 leaves the list, 14 counts one; the list
    // holds five packets, so 20 may go.
    assert_eq!(h.ack(100, p(14), &blocks(&[15], 15), Some(p(15))), vec![(p(20), NEW)]);
    assert_eq!(h.s.lhp_counters().unwrap()[0], (p(14), 1));
    // t = 101 ms: ACK (14, 17): 14 and 16 count; 21 goes.
    assert_eq!(h.ack(101, p(14), &blocks(&[15, 17], 17), Some(p(17))), vec![(p(21), NEW)]);
    // t = 102 ms: ACK (14, 19): 14 reaches three: fast retransmit and the
    // first fast recovery. The list (14, 16, 18, 20, 21) holds five
    // packets: ssthresh = cwnd = 2.
    assert_eq!(h.ack(102, p(14), &blocks(&[15, 17, 19], 19), Some(p(19))), vec![(p(14), REXMIT)]);
    assert_eq!(h.s.stats().fast_retransmits, 1);
    assert_eq!(h.window(), (2, 2));
    assert_eq!(h.s.lhp_counters().unwrap(), vec![(p(16), 2), (p(18), 1), (p(20), 0), (p(21), 0), (p(14), 0)]);
    // t = 103 ms: ACK (14, 20): 16 reaches three: the second.
    assert_eq!(h.ack(103, p(14), &blocks(&[15, 17, 19, 20], 20), Some(p(20))), vec![(p(16), REXMIT)]);
    assert_eq!(h.s.stats().fast_retransmits, 2);
    // t = 104 ms: ACK (14, 21): 18 reaches three: the third, for three
    // drops in one window.
    assert_eq!(h.ack(104, p(14), &blocks(&[15, 17, 19, 20, 21], 21), Some(p(21))), vec![(p(18), REXMIT)]);
    assert_eq!(h.s.stats().fast_retransmits, 3);
    assert_eq!(h.window(), (2, 2));
    // t = 202 ms: the resent 14 arrives: ACK (16, 14); 16 and 18 were resent
    // after it, so nothing counts. Congestion avoidance: cwnd 2 -> 2.5, and
    // the two listed packets (16, 18) leave no room.
    assert_eq!(h.ack(202, p(16), &blocks(&[17, 19, 20, 21], 21), Some(p(14))), vec![]);
    assert_eq!(h.s.cwnd_bytes(), 2500);
    assert_eq!(h.s.stats().fast_retransmits, 3);
}

#[test]
fn a15_fig4_esack_enters_fast_recovery_once() {
    let mut h = Harness::response(LlElsnResponse::Esack);
    fig4_start(&mut h);
    // t = 100, 101 ms: FirstUnsacked = HighACK = 14: dupacks 1, 2; no
    // limited transmit, so nothing goes.
    assert_eq!(h.ack(100, p(14), &blocks(&[15], 15), None), vec![]);
    assert_eq!(h.s.dupacks(), 1);
    assert_eq!(h.ack(101, p(14), &blocks(&[15, 17], 17), None), vec![]);
    assert_eq!(h.s.dupacks(), 2);
    // t = 102 ms: the third: fast retransmit of FirstUnsacked (14) and SACK
    // recovery with ssthresh = cwnd = 6/2; pipe = 16, 18 and the resent 14.
    assert_eq!(h.ack(102, p(14), &blocks(&[15, 17, 19], 19), None), vec![(p(14), REXMIT)]);
    assert_eq!(h.window(), (3, 3));
    assert!(h.s.in_recovery());
    // t = 202 ms: 14 arrives: ACK 16 (17, 19). 16 is not yet IsLost: new 20 goes.
    assert_eq!(h.ack(202, p(16), &blocks(&[17, 19], 19), None), vec![(p(20), NEW)]);
    // t = 302 ms: 20 arrives: 16 is IsLost: it is resent, and 21 goes.
    assert_eq!(h.ack(302, p(16), &blocks(&[19, 20], 20), None), vec![(p(16), REXMIT), (p(21), NEW)]);
    // t = 303 ms: 21 arrives: 18 is IsLost: resent; 21 left the pipe: 22 goes.
    assert_eq!(h.ack(303, p(16), &blocks(&[19, 20, 21], 21), None), vec![(p(18), REXMIT), (p(22), NEW)]);
    // t = 402 ms: the resent 16 arrives: ACK 18 (19..21); pipe = 18, 22: 23 goes.
    assert_eq!(h.ack(402, p(18), &blocks(&[19, 20, 21], 21), None), vec![(p(23), NEW)]);
    assert!(h.s.in_recovery());
    // t = 403 ms: the resent 18 arrives: ACK 22 passes RecoveryPoint (20):
    // recovery ends with cwnd = ssthresh = 3; 22, 23 out, so 24 goes.
    assert_eq!(h.ack(403, p(22), &[], None), vec![(p(24), NEW)]);
    assert!(!h.s.in_recovery());
    assert_eq!(h.window(), (3, 3));
    // One fast recovery for three drops; no timeout.
    assert_eq!((h.s.stats().fast_retransmits, h.s.stats().timeouts), (1, 0));
}

#[test]
fn a16_one_eln_loss_leaves_the_window_alone_and_is_resent_at_once() {
    // Fig. 4's ELN variant (Sec. 4.1): 14 is lost on the radio and the
    // ELN(14) arrives before any duplicate ack.
    let mut h = Harness::response(LlElsnResponse::Esack);
    fig4_start(&mut h);
    // t = 30 ms: ELN(14): resent at once, moved behind 19.
    assert_eq!(h.eln(30, p(14)), vec![(p(14), REXMIT)]);
    assert_eq!(h.s.esack_order().unwrap(), vec![p(15), p(16), p(17), p(18), p(19), p(14)]);
    assert_eq!(h.window(), (6, BIG));
    // t = 100..104 ms: the duplicate acks of 15..19. FirstUnsacked runs
    // ahead of HighSACK: dupacks stays 0; at the last one the resent 14 is
    // FirstUnsacked = HighACK: dupacks 1 < DupThresh.
    let mut dupacks = Vec::new();
    for (i, n) in (15..20).enumerate() {
        let held: Vec<u64> = (15..=n).collect();
        assert_eq!(h.ack(100 + i as u64, p(14), &blocks(&held, n), None), vec![]);
        dupacks.push(h.s.dupacks());
    }
    assert_eq!(dupacks, vec![0, 0, 0, 0, 1]);
    assert!(!h.s.in_recovery());
    assert_eq!(h.window(), (6, BIG));
    // t = 130 ms: the resent 14 arrives: ACK 20. Slow start: cwnd 7, and
    // seven new segments go. cwnd never dropped, ssthresh never moved.
    let expect: Vec<_> = (20..27).map(|n| (p(n), NEW)).collect();
    assert_eq!(h.ack(130, p(20), &[], None), expect);
    assert_eq!(h.window(), (7, BIG));
    let st = h.s.stats();
    assert_eq!((st.ll_eln_retransmits, st.retransmits, st.fast_retransmits, st.timeouts), (1, 1, 0, 0));
}

/// Fig. 4's ELN variant under a HACK sender: the same ELN and duplicate acks.
fn eln_variant_dupack_burst(r: LlElsnResponse) -> (Harness, Vec<Vec<(u64, bool)>>) {
    let mut h = Harness::response(r);
    fig4_start(&mut h);
    assert_eq!(h.eln(30, p(14)), vec![(p(14), REXMIT)]);
    let mut sent = Vec::new();
    for (i, n) in (15..20).enumerate() {
        let held: Vec<u64> = (15..=n).collect();
        sent.push(h.ack(100 + i as u64, p(14), &blocks(&held, n), None));
    }
    (h, sent)
}

#[test]
fn hack_counts_the_later_dupacks_for_an_eln_hole_and_hack_fixed_does_not() {
    // HACK: the duplicate acks of 15, 16, 17 reach DupThresh although 14's
    // loss was announced and repaired: SACK recovery halves the window and
    // resends 14 a second time.
    let (h, sent) = eln_variant_dupack_burst(LlElsnResponse::Hack);
    assert_eq!(sent[0], vec![]);
    assert_eq!(sent[1], vec![]);
    assert_eq!(sent[2], vec![(p(14), REXMIT)]);
    assert_eq!(h.window(), (3, 3));
    assert_eq!((h.s.stats().fast_retransmits, h.s.stats().retransmits), (1, 2));
    // HACK-fixed: the count for the hole resent on the ELN is reset there and
    // its later duplicate acks are not counted: no recovery, no cut.
    let (mut h, sent) = eln_variant_dupack_burst(LlElsnResponse::HackFixed);
    assert!(sent.iter().all(Vec::is_empty));
    assert_eq!(h.s.dupacks(), 0);
    assert_eq!(h.window(), (6, BIG));
    assert_eq!((h.s.stats().fast_retransmits, h.s.stats().retransmits), (0, 1));
    // The resend arrives: the ack ends it, and counting is back to normal.
    assert_eq!(h.ack(130, p(20), &[], None).len(), 7);
}

#[test]
fn hack_fixed_resets_the_count_at_the_eln() {
    // Uplink-like order: two duplicate acks for 14 come before the ELN(14).
    let mut h = Harness::response(LlElsnResponse::HackFixed);
    fig4_start(&mut h);
    assert_eq!(h.ack(100, p(14), &blocks(&[15], 15), None), vec![]);
    assert_eq!(h.ack(101, p(14), &blocks(&[15, 16], 16), None), vec![]);
    assert_eq!(h.s.dupacks(), 2);
    assert_eq!(h.eln(102, p(14)), vec![(p(14), REXMIT)]);
    assert_eq!(h.s.dupacks(), 0);
    assert_eq!(h.ack(103, p(14), &blocks(&[15, 16, 17], 17), None), vec![]);
    assert_eq!(h.s.stats().fast_retransmits, 0);
    // HACK would have fast-retransmitted at that third duplicate ack.
    let mut h = Harness::response(LlElsnResponse::Hack);
    fig4_start(&mut h);
    h.ack(100, p(14), &blocks(&[15], 15), None);
    h.ack(101, p(14), &blocks(&[15, 16], 16), None);
    h.eln(102, p(14));
    assert_eq!(h.ack(103, p(14), &blocks(&[15, 16, 17], 17), None), vec![(p(14), REXMIT)]);
    assert_eq!(h.s.stats().fast_retransmits, 1);
}

#[test]
fn ersn_holds_off_the_timeout_until_the_deferral_bound() {
    // ESACK, at most two deferrals. t = 0: six segments; the link layer
    // starts retrying 14 at t = 20 ms.
    let mut h = Harness::response(LlElsnResponse::Esack);
    fig4_start(&mut h);
    assert_eq!(h.ersn(20, p(14)), vec![]);
    let rto = h.s.rto_ns();
    // t = 1 s: the timer expires with 14 oldest and marked: no
    // retransmission, no cut, no backoff; re-armed one RTO later.
    assert_eq!(h.tick(1000), vec![]);
    assert_eq!((h.window(), h.s.rto_ns(), h.s.stats().timeouts), ((6, BIG), rto, 0));
    assert_eq!(h.s.poll_at(), Time::from_ms(2000));
    // t = 2 s: the second deferral.
    assert_eq!(h.tick(2000), vec![]);
    assert_eq!(h.s.stats().ersn_deferred_timeouts, 2);
    // t = 3 s: the bound is spent (the ELN may have been lost): the timeout
    // fires as any other: go back to 14 with a one-segment window.
    assert_eq!(h.tick(3000), vec![(p(14), REXMIT)]);
    assert_eq!(h.s.stats().timeouts, 1);
    assert_eq!(h.window(), (1, 3));
    assert_eq!(h.s.stats().ersns_received, 1);
}

#[test]
fn ersn_mark_clears_on_an_eln_and_on_an_ack() {
    // ERSN(14), then ELN(14): resent at once, the timer restarted (14 was
    // oldest), and the mark gone: the next expiry is a timeout.
    let mut h = Harness::response(LlElsnResponse::Esack);
    fig4_start(&mut h);
    h.ersn(20, p(14));
    assert_eq!(h.eln(500, p(14)), vec![(p(14), REXMIT)]);
    assert_eq!(h.s.poll_at(), Time::from_ms(1500));
    assert_eq!(h.tick(1500), vec![(p(14), REXMIT)]);
    assert_eq!(h.s.stats().ersn_deferred_timeouts, 0);
}

#[test]
fn ersn_mark_clears_when_acked() {
    // ERSN(15); 14 and 15 are acked at 100 ms; 16 is then oldest, unmarked.
    let mut h = Harness::response(LlElsnResponse::Esack);
    fig4_start(&mut h);
    h.ersn(20, p(15));
    // Slow start counts per ack: cwnd 7, snd_una 16: 20, 21, 22 go.
    assert_eq!(h.ack(100, p(16), &[], None), vec![(p(20), NEW), (p(21), NEW), (p(22), NEW)]);
    assert_eq!(h.tick(1100), vec![(p(16), REXMIT)]);
    assert_eq!(h.s.stats().ersn_deferred_timeouts, 0);
}

#[test]
fn ersn_and_eln_are_no_ops_without_ll_elsn() {
    let mut h = Harness::new(None);
    fig4_start(&mut h);
    assert_eq!(h.ersn(20, p(14)), vec![]);
    assert_eq!(h.eln(30, p(14)), vec![]);
    assert_eq!(h.tick(1000), vec![(p(14), REXMIT)]);
    let st = h.s.stats();
    assert_eq!((st.ersns_received, st.elns_received, st.timeouts), (0, 0, 1));
}

#[test]
fn eln_filter_declares_disconnection_after_n_plus_one_and_a_new_ack_restores() {
    // N = 2. The receiver is gone from t = 0: every frame is discarded and
    // its ELN reaches the sender 20 ms after it was sent, in sending order.
    let mut h = Harness::response(LlElsnResponse::Esack);
    fig4_start(&mut h);
    // ELNs 1 and 2 (14, 15): channel noise: each resent at once.
    assert_eq!(h.eln(20, p(14)), vec![(p(14), REXMIT)]);
    assert_eq!(h.eln(21, p(15)), vec![(p(15), REXMIT)]);
    assert!(!h.s.is_disconnected());
    // ELN 3 (16): more than N successive: disconnection; this one (the
    // first since) is answered, then every other one.
    assert_eq!(h.eln(22, p(16)), vec![(p(16), REXMIT)]);
    assert!(h.s.is_disconnected());
    assert_eq!(h.eln(23, p(17)), vec![]);
    assert_eq!(h.eln(24, p(18)), vec![(p(18), REXMIT)]);
    assert_eq!(h.eln(25, p(19)), vec![]);
    // The resends are lost as well: 14's (sent after 19) comes next in the
    // run, answered as the 5th; then 15's is not.
    assert_eq!(h.eln(40, p(14)), vec![(p(14), REXMIT)]);
    assert_eq!(h.eln(41, p(15)), vec![]);
    let st = h.s.stats();
    assert_eq!((st.elns_received, st.ll_eln_retransmits, st.disconnections), (8, 5, 1));
    assert_eq!(h.window(), (6, BIG));
    // The timer keeps running (restarted by the resends of 14): at 1.04 s a
    // timeout probes from 14 with one segment and backs off.
    let rto = h.s.rto_ns();
    assert_eq!(h.tick(1040), vec![(p(14), REXMIT)]);
    assert_eq!(h.window(), (1, 3));
    assert_eq!(h.s.rto_ns(), 2 * rto);
    // t = 1.5 s: the station is back: an ack of 14. The frozen cwnd,
    // ssthresh and RTO come back, the ack then opens cwnd (slow start).
    let sent = h.ack(1500, p(15), &[], None);
    assert!(!h.s.is_disconnected());
    assert_eq!(h.window(), (7, BIG));
    assert_eq!(h.s.rto_ns(), rto);
    // snd_nxt went back to 15 at the timeout: go-back-N within the restored
    // window, then new data.
    let mut expect: Vec<_> = (15..20).map(|n| (p(n), REXMIT)).collect();
    expect.extend([(p(20), NEW), (p(21), NEW)]);
    assert_eq!(sent, expect);
}

/// Issue 28 item 5. t = 0: packets 14..19 leave; with `ersn`, the link
/// layer starts retrying 14 at t = 20 ms (ERSN(14)); 15..19 overtake it
/// (a link layer that serves its queue while 14 waits for its retry) and
/// their duplicate acks arrive at t = 100..104 ms, each SACKing 15..n and
/// echoing n (the LHP list reads the echo, the others the SACK blocks).
fn overtaken(r: LlElsnResponse, ersn: bool) -> (Harness, Vec<Vec<(u64, bool)>>) {
    let mut h = Harness::response(r);
    fig4_start(&mut h);
    if ersn {
        assert_eq!(h.ersn(20, p(14)), vec![]);
    }
    let mut sent = Vec::new();
    for (i, n) in (15..20).enumerate() {
        let held: Vec<u64> = (15..=n).collect();
        sent.push(h.ack(100 + i as u64, p(14), &blocks(&held, n), Some(p(n))));
    }
    (h, sent)
}

const RESPONSES: [LlElsnResponse; 4] =
    [LlElsnResponse::Esack, LlElsnResponse::Hack, LlElsnResponse::HackFixed, LlElsnResponse::LhpList];

#[test]
fn a_segment_the_link_layer_retries_is_neither_fast_retransmitted_nor_a_window_cut() {
    // Seed 004 Sec. 3.1: "Upon reception of ERSN, the TCP sender neither
    // invokes congestion control due to the packet 1 nor retransmits it."
    for r in RESPONSES {
        let (mut h, sent) = overtaken(r, true);
        // Five duplicate acks, none a retransmission; cwnd and ssthresh as
        // they were; nothing counted against 14.
        assert!(sent.iter().flatten().all(|&(_, rexmit)| !rexmit), "{r:?}: {sent:?}");
        assert_eq!(h.window(), (6, BIG), "{r:?}");
        assert!(!h.s.in_recovery(), "{r:?}");
        let st = h.s.stats();
        assert_eq!((st.fast_retransmits, st.retransmits, st.timeouts), (0, 0, 0), "{r:?}");
        match r {
            LlElsnResponse::LhpList => assert_eq!(h.s.lhp_counters().unwrap()[0], (p(14), 0), "{r:?}"),
            _ => assert_eq!(h.s.dupacks(), 0, "{r:?}"),
        }
        // t = 130 ms: the link layer gives up on 14: ELN(14), resent at once,
        // still without a cut.
        assert_eq!(h.eln(130, p(14)), vec![(p(14), REXMIT)], "{r:?}");
        assert_eq!(h.window(), (6, BIG), "{r:?}");
        let st = h.s.stats();
        assert_eq!((st.ll_eln_retransmits, st.fast_retransmits), (1, 0), "{r:?}");
    }
}

#[test]
fn the_same_acks_without_the_ersn_fast_retransmit_at_the_third() {
    // The control: 14 unmarked, its absence is taken for congestion by all
    // four (Algorithm 1's HighACK == FirstUnsacked, RFC 6675, the list's
    // counter): the third duplicate ack resends 14 and halves the window.
    for r in RESPONSES {
        let (h, sent) = overtaken(r, false);
        assert!(sent[..2].iter().flatten().all(|&(_, rexmit)| !rexmit), "{r:?}: {sent:?}");
        assert_eq!(sent[2].first(), Some(&(p(14), REXMIT)), "{r:?}: {sent:?}");
        assert_eq!(h.s.stats().fast_retransmits, 1, "{r:?}");
        assert!(h.window().1 < BIG, "{r:?}");
    }
}

#[test]
fn esack_still_fast_retransmits_a_congestion_loss_behind_a_marked_segment() {
    // ERSN(14) at 20 ms; 16 is lost to congestion. Acks (14; 15), (14; 15,
    // 17), (14; 15, 17..18), (14; 15, 17..19): FirstUnsacked is 16 (14 is
    // marked), below HighSACK from the second on: dupacks 1, 2, 3, and 16 is
    // IsLost in sending order (17, 18, 19 SACKed after it).
    let mut h = Harness::response(LlElsnResponse::Esack);
    fig4_start(&mut h);
    h.ersn(20, p(14));
    assert_eq!(h.ack(100, p(14), &blocks(&[15], 15), None), vec![]);
    assert_eq!(h.s.dupacks(), 0);
    assert_eq!(h.ack(101, p(14), &blocks(&[15, 17], 17), None), vec![]);
    assert_eq!(h.ack(102, p(14), &blocks(&[15, 17, 18], 18), None), vec![]);
    assert_eq!(h.s.dupacks(), 2);
    // The third: fast retransmit of FirstUnsacked, 16, never 14; ssthresh =
    // cwnd = 6/2. pipe: 14 and 16 below HighRxt (17) count once each, so 20 goes.
    assert_eq!(h.ack(103, p(14), &blocks(&[15, 17, 18, 19], 19), None), vec![(p(16), REXMIT), (p(20), NEW)]);
    assert_eq!(h.window(), (3, 3));
    assert_eq!((h.s.stats().fast_retransmits, h.s.stats().retransmits), (1, 1));
    // t = 130 ms: the link layer delivers 14 after all: ACK 16 (17..19).
    // Recovery goes on (RecoveryPoint 20), 14 was never resent.
    h.ack(130, p(16), &blocks(&[17, 18, 19], 19), None);
    assert!(h.s.in_recovery());
    assert_eq!(h.s.stats().retransmits, 1);
}

#[test]
fn hack_finds_a_congestion_loss_behind_a_marked_segment_once_the_mark_clears() {
    // HACK counts against HighACK + 1 only (RFC 6675): while 14 is marked,
    // the acks of 15, 17, 18, 19 above the lost 16 count nothing ...
    let mut h = Harness::response(LlElsnResponse::Hack);
    fig4_start(&mut h);
    h.ersn(20, p(14));
    for (t, held, last) in
        [(100, &[15][..], 15), (101, &[15, 17], 17), (102, &[15, 17, 18], 18), (103, &[15, 17, 18, 19], 19)]
    {
        assert_eq!(h.ack(t, p(14), &blocks(held, last), None), vec![]);
    }
    assert_eq!((h.s.dupacks(), h.s.stats().fast_retransmits), (0, 0));
    // ... 14 gets through at 130 ms: ACK 16 (17..19) ends the mark, 16 is
    // HighACK + 1 and IsLost; slow start (cwnd 7 from 16) sends 20..22, and
    // the first duplicate ack, for 20, starts recovery with 16.
    let sent = h.ack(130, p(16), &blocks(&[17, 18, 19], 19), None);
    assert_eq!(sent, vec![(p(20), NEW), (p(21), NEW), (p(22), NEW)]);
    assert_eq!(h.ack(160, p(16), &blocks(&[17, 18, 19, 20], 20), None).first(), Some(&(p(16), REXMIT)));
    assert_eq!(h.s.stats().fast_retransmits, 1);
}

#[test]
fn without_deferrals_the_sender_ignores_ersns() {
    // ersn_max_deferrals = 0 is LL-ELSN without ERSN (Fig. 13's comparison):
    // no mark, so the third duplicate ack fast retransmits 14 as usual.
    let cfg = LlElsnConfig { ersn_max_deferrals: 0, ..LlElsnConfig::esack() };
    let mut h = Harness::new(Some(cfg));
    fig4_start(&mut h);
    h.ersn(20, p(14));
    assert_eq!(h.s.stats().ersns_received, 1);
    h.ack(100, p(14), &blocks(&[15], 15), None);
    h.ack(101, p(14), &blocks(&[15, 16], 16), None);
    assert_eq!(h.ack(102, p(14), &blocks(&[15, 16, 17], 17), None), vec![(p(14), REXMIT)]);
}
