//! Seed 004 (Yun 2009), lasthop issue 13: LL-ELSN senders joined to a real
//! SACK receiver (that also echoes, for the LHP list) over a small network:
//! a 1 ms-per-segment bottleneck, 50 ms one way each direction, chosen
//! transmissions dropped by congestion or discarded by the radio (whose ELN
//! reaches the sender 20 ms after the segment left the bottleneck). Runs
//! go to the end of a 60-segment transfer.
//!
//! Sec. 4.1: "if there is no wireless loss, ESACK behaves just like SACK";
//! HACK and HACK-fixed too (Sec. 5.3: "they behave just like SACK without
//! wireless losses"). Checked here segment by segment.

use lasthop_core::time::NS_PER_MS;
use lasthop_core::trace::Trace;
use lasthop_core::{TcpHeader, Time};
use lasthop_tcp::{AckPolicy, LlElsnConfig, LlElsnResponse, Receiver, ReceiverConfig, Sender, SenderConfig};
use lasthop_tcp::{SenderStats, Variant};

const MSS: u64 = 1000;
const SEGMENTS: u64 = 60;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fate {
    Deliver,
    /// Dropped at the bottleneck queue: nobody tells.
    Congestion,
    /// Discarded by the radio: an ELN follows.
    Radio,
}

enum Ev {
    Data(TcpHeader),
    Ack(TcpHeader),
    Eln(u64),
}

/// What a run showed: every segment sent as (time in ms, first byte,
/// retransmission), every (cwnd, ssthresh) after an event, and the stats.
struct Run {
    sent: Vec<(u64, u64, bool)>,
    windows: Vec<(u64, u64)>,
    stats: SenderStats,
    max_dupacks: u32,
}

/// Runs a transfer; `fate(seq, n)` decides the n-th transmission (from 1) of `seq`.
fn run(ll: Option<LlElsnConfig>, fate: impl Fn(u64, u32) -> Fate) -> Run {
    let cfg = SenderConfig {
        variant: Variant::Sack,
        send_buffer_bytes: 64_000,
        initial_cwnd_segments: 2,
        initial_ssthresh_bytes: 1 << 30,
        total_bytes: Some(SEGMENTS * MSS),
        ..SenderConfig::reno(MSS as u32)
    };
    let mut tx = Sender::new(cfg, 0);
    if let Some(l) = ll {
        tx = tx.with_ll_elsn(l);
    }
    let rcfg =
        ReceiverConfig { sack: true, smart_echo: true, ..ReceiverConfig::plain(64_000, 1000, AckPolicy::Immediate) };
    let mut rx = Receiver::new(rcfg);
    let mut trace = Trace::new(false);
    let mut events: Vec<(Time, u64, Ev)> = Vec::new();
    let mut order = 0u64;
    let mut link_free = Time::ZERO;
    let mut count = std::collections::HashMap::<u64, u32>::new();
    let mut out = Run { sent: Vec::new(), windows: Vec::new(), stats: SenderStats::default(), max_dupacks: 0 };
    let mut now = Time::ZERO;
    tx.start(now, &mut trace);
    for _ in 0..100_000 {
        while let Some(seg) = tx.poll_transmit(now, &mut trace) {
            out.sent.push((now.ns() / NS_PER_MS, seg.seq, seg.is_retransmit));
            let n = count.entry(seg.seq).or_default();
            *n += 1;
            let depart = link_free.max(now).plus_ns(NS_PER_MS);
            link_free = depart;
            let ev = match fate(seg.seq, *n) {
                Fate::Deliver => Some((depart.plus_ns(50 * NS_PER_MS), Ev::Data(seg))),
                Fate::Congestion => None,
                Fate::Radio => Some((depart.plus_ns(20 * NS_PER_MS), Ev::Eln(seg.seq))),
            };
            if let Some((t, ev)) = ev {
                order += 1;
                events.push((t, order, ev));
            }
        }
        out.windows.push((tx.cwnd_bytes(), tx.ssthresh_bytes()));
        out.max_dupacks = out.max_dupacks.max(tx.dupacks());
        if tx.is_done() {
            break;
        }
        let next = events.iter().enumerate().min_by_key(|(_, e)| (e.0, e.1)).map(|(i, e)| (i, e.0));
        match next {
            Some((i, t)) if t <= tx.poll_at() => {
                now = t;
                match events.swap_remove(i).2 {
                    Ev::Data(seg) => {
                        rx.on_segment(now, &seg);
                        while let Some(ack) = rx.poll_transmit(now) {
                            order += 1;
                            events.push((now.plus_ns(50 * NS_PER_MS), order, Ev::Ack(ack)));
                        }
                    }
                    Ev::Ack(ack) => tx.on_ack(now, &ack, &mut trace),
                    Ev::Eln(seq) => tx.on_link_eln(now, seq, &mut trace),
                }
            }
            _ => {
                now = tx.poll_at();
                assert!(now != Time::NEVER, "stalled");
                tx.on_timer(now, &mut trace);
            }
        }
    }
    assert!(tx.is_done(), "the transfer completes");
    out.stats = tx.stats();
    out
}

/// Congestion drops: two in one window (segments 10 and 12) and the
/// retransmission of 12 as well: a SACK recovery that ends in a timeout.
fn recovery_then_timeout(seq: u64, n: u32) -> Fate {
    match (seq / MSS, n) {
        (10, 1) | (12, 1) | (12, 2) => Fate::Congestion,
        _ => Fate::Deliver,
    }
}

/// Congestion drops far apart: three separate SACK recoveries.
fn three_recoveries(seq: u64, n: u32) -> Fate {
    match (seq / MSS, n) {
        (10, 1) | (30, 1) | (50, 1) => Fate::Congestion,
        _ => Fate::Deliver,
    }
}

#[test]
fn without_wireless_loss_esack_hack_and_hack_fixed_are_the_sack_sender() {
    for (pattern, fr, rto) in [(recovery_then_timeout as fn(u64, u32) -> Fate, 1, 1), (three_recoveries, 3, 0)] {
        let sack = run(None, pattern);
        assert_eq!((sack.stats.fast_retransmits, sack.stats.timeouts), (fr, rto), "{:?}", sack.stats);
        for r in [LlElsnResponse::Esack, LlElsnResponse::Hack, LlElsnResponse::HackFixed] {
            let other = run(Some(LlElsnConfig { response: r, ..LlElsnConfig::esack() }), pattern);
            assert_eq!(other.sent, sack.sent, "{r:?}: the same segments at the same times");
            assert_eq!(other.windows, sack.windows, "{r:?}: the same windows");
            assert_eq!(other.stats, sack.stats, "{r:?}: the same counters");
        }
    }
}

#[test]
fn a15_fig4_whole_run_lhp_three_fast_recoveries_esack_one() {
    // Slow start from 2 segments: 14..19 go between t = 200 and 300 ms,
    // among others; 14, 16 and 18 are lost to congestion.
    let fig4 = |seq: u64, n: u32| match (seq / MSS, n) {
        (14 | 16 | 18, 1) => Fate::Congestion,
        _ => Fate::Deliver,
    };
    let esack = run(Some(LlElsnConfig::esack()), fig4);
    let lhp = run(Some(LlElsnConfig::comparison(LlElsnResponse::LhpList)), fig4);
    assert_eq!((esack.stats.fast_retransmits, esack.stats.timeouts), (1, 0));
    assert_eq!((lhp.stats.fast_retransmits, lhp.stats.timeouts), (3, 0));
    // Each lost segment is resent once by both.
    assert_eq!((esack.stats.retransmits, lhp.stats.retransmits), (3, 3));
}

#[test]
fn a16_whole_run_radio_losses_under_esack_cost_no_window() {
    // Single radio discards, each announced by an ELN, spread over the run.
    let radio = |seq: u64, n: u32| match (seq / MSS, n) {
        (5 | 14 | 27 | 41, 1) => Fate::Radio,
        _ => Fate::Deliver,
    };
    let r = run(Some(LlElsnConfig::esack()), radio);
    let clean = run(Some(LlElsnConfig::esack()), |_, _| Fate::Deliver);
    assert_eq!((r.stats.ll_eln_retransmits, r.stats.retransmits), (4, 4));
    assert_eq!((r.stats.fast_retransmits, r.stats.timeouts, r.stats.disconnections), (0, 0, 0));
    assert!(r.max_dupacks <= 1, "dupacks reached {}", r.max_dupacks);
    // ssthresh never moves and cwnd never drops.
    assert!(r.windows.iter().all(|&(_, ss)| ss == 1 << 30));
    assert!(r.windows.windows(2).all(|w| w[1].0 >= w[0].0));
    // The same losses under HACK: its duplicate acks start SACK recovery.
    let hack = run(Some(LlElsnConfig::comparison(LlElsnResponse::Hack)), radio);
    assert!(hack.stats.fast_retransmits > 0);
    assert!(clean.sent.len() + 4 == r.sent.len());
}
