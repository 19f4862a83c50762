//! WTCP (Sinha et al., MobiCom 1999; seed 002 Sec. 1; elaarag-002.md Secs.
//! 1.14 and 4, statements WTCP-1..3) over `elaarag02/wtcp`: the Table I
//! path (FH -1.5 Mb/s, 10 ms- BS -0.8 Mb/s, 100 ms- MH), WTCP against
//! NewReno under 2 % random loss, a competing flow, a 10 s blackout.
//!
//! The receiver's ρ and the base station's queue are not in a run's
//! summary: the tests rebuild them from the trace of segments sent by
//! replaying the two links (FIFO, 1024-byte packets, 1.5 and 0.8 Mb/s, 10
//! and 100 ms), exact while no queue overflows (the replay keeps a packet
//! the wireless link's error model lost: it crossed the link, lost at its
//! end, so it held the link as long).

use crate::common;
use common::secs;
use lasthop_core::trace::Trace;
use lasthop_sim::RunSummary;

const SEEDS: std::ops::Range<u64> = 1..11;
/// The first decrease of the pacing rate: a fall to at most this fraction
/// between consecutive sends (β = 0.7 cuts by 30 %; an increase never
/// lowers it).
const FALL: f64 = 0.8;
const PKT_BITS: f64 = 1024.0 * 8.0;
/// Segments per second the wireless link carries.
const LINK_PPS: f64 = 0.8e6 / PKT_BITS;

fn run(sets: &[&str], seed: u64) -> (RunSummary, Trace) {
    common::run_embedded_traced("elaarag02/wtcp", sets, seed)
}

/// Each data segment of every flow: (flow, sent s, at the base station s,
/// its wireless transmission's start s, at the mobile host s), in send order.
fn replay(t: &Trace) -> Vec<(u32, f64, f64, f64, f64)> {
    let x = &t.sent;
    let (mut wired_free, mut wl_free) = (0.0f64, 0.0f64);
    let mut out = Vec::with_capacity(x.time_ns.len());
    let mut order: Vec<usize> = (0..x.time_ns.len()).collect();
    order.sort_by_key(|&i| x.time_ns[i]);
    for i in order {
        let sent = secs(x.time_ns[i]);
        let bits = f64::from(x.len[i]) * 8.0;
        let wired_start = sent.max(wired_free);
        wired_free = wired_start + bits / 1.5e6;
        let at_bs = wired_free + 0.010;
        let wl_start = at_bs.max(wl_free);
        wl_free = wl_start + bits / 0.8e6;
        out.push((x.flow[i], sent, at_bs, wl_start, wl_free + 0.100));
    }
    out
}

/// The base station's queue (waiting, not in service) just after `at` s.
fn queue_at(r: &[(u32, f64, f64, f64, f64)], at: f64) -> usize {
    r.iter().filter(|p| p.2 <= at && p.3 > at).count()
}

/// Flow 0's pacing rate, segments per second, at each of its sends: the
/// inverse of the gap to the previous send (0 gaps, a burst, skipped).
fn rates(t: &Trace, flow: u32) -> Vec<(f64, f64)> {
    let x = &t.sent;
    let times: Vec<f64> = (0..x.time_ns.len()).filter(|&i| x.flow[i] == flow).map(|i| secs(x.time_ns[i])).collect();
    times.windows(2).filter(|w| w[1] > w[0]).map(|w| (w[1], 1.0 / (w[1] - w[0]))).collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median pacing rate over [from, to) s.
fn rate_in(r: &[(f64, f64)], from: f64, to: f64) -> f64 {
    median(r.iter().filter(|p| p.0 >= from && p.0 < to).map(|p| p.1).collect())
}

/// ρ (receive span / send span) over flow 0's groups of 8 consecutive
/// segments, per the replay (a lost segment's replayed arrival is where
/// it would have arrived: the spans are those of the segments around it).
fn rhos(t: &Trace, r: &[(u32, f64, f64, f64, f64)]) -> Vec<f64> {
    let _ = t;
    let f0: Vec<_> = r.iter().filter(|p| p.0 == 0).collect();
    f0.chunks(8).filter(|c| c.len() == 8).map(|c| (c[7].4 - c[0].4) / (c[7].1 - c[0].1)).collect()
}

fn newreno() -> [&'static str; 2] {
    ["variant=\"newreno\"", "ack_every=1"]
}

/// WTCP-1 (elaarag-002.md Sec. 4, [A:wtcp 20-200 %]): 0.8 Mb/s, 2 %
/// random loss of data on the last hop, its queue never full. Measured
/// over seeds 1-10 (figures printed): ρ, rebuilt per 8 segments from the
/// replay, has median 1.000-1.011; WTCP's median pacing rate over 5-60 s
/// 94.4-100.6 segments/s against 92.7 without loss (the rate saws between
/// about 80 and 120 segments/s with or without loss: its own overshoot of
/// the link's 97.7 lifts ρ over 1 + γ and β cuts it, not the losses).
/// WTCP delivers 2.17-3.20 x NewReno's goodput (mean 2.59) (NewReno acked per segment,
/// as ns's TCPSink; 6-8 x with WTCP's ack every 4 segments).
#[test]
fn wtcp_1_random_loss_does_not_lower_the_rate_and_wtcp_beats_newreno() {
    let (lossless, tl) = run(&["loss=0.0"], 1);
    let clean = rate_in(&rates(&tl, 0), 5.0, 60.0);
    println!("no loss: median rate {clean:.1} seg/s, {:.0} b/s", lossless.flows[0].throughput_bps);
    let mut ratios = Vec::new();
    for seed in SEEDS {
        let (w, t) = run(&[], seed);
        let n = run(&newreno(), seed).0;
        let rho = median(rhos(&t, &replay(&t)));
        let rate = rate_in(&rates(&t, 0), 5.0, 60.0);
        let ratio = w.flows[0].throughput_bps / n.flows[0].throughput_bps;
        println!(
            "seed {seed}: WTCP {:.0} b/s, NewReno {:.0} b/s (x{ratio:.2}); median rho {rho:.4}; median rate {rate:.1} seg/s; \
             {} retransmits",
            w.flows[0].throughput_bps, n.flows[0].throughput_bps, w.flows[0].retransmits
        );
        assert!((rho - 1.0).abs() < 0.02, "seed {seed}: rho {rho}");
        assert!(rate >= 0.9 * clean, "seed {seed}: {rate} seg/s against {clean} without loss");
        assert!(w.flows[0].retransmits > 20, "seed {seed}: the losses happened");
        assert!(ratio >= 1.2, "seed {seed}: x{ratio}");
        ratios.push(ratio);
    }
    println!("WTCP / NewReno: mean x{:.2}", common::mean(ratios));
}

/// The base station's queue after `at` s, over the previous `rap` s: its
/// growth.
fn growth(r: &[(u32, f64, f64, f64, f64)], at: f64, rap: f64) -> f64 {
    queue_at(r, at) as f64 - queue_at(r, at - rap) as f64
}

/// Seeds of WTCP-2 whose cut came within one RAP and the ack's way back
/// (measured).
const WTCP_2_WITHIN: usize = 4;
/// The latest cut, in RAPs after the queue's growth (measured 2.90, rounded up).
const WTCP_2_WORST_RAPS: f64 = 3.0;

/// WTCP-2 (elaarag-002.md Sec. 4, [S §1; K]): a NewReno flow joins at 30 s
/// (2 % loss, as WTCP-1) and the base station's queue grows. The queue's
/// growth is taken where, over one RAP (the flow's mean round trip), it
/// first grows by γ times the packets the link serves in a RAP (the growth
/// that lifts ρ over 1 + γ at the receiver); WTCP's rate falls at its
/// first cut (a send paced at most `FALL` x the previous) after that.
/// The statement FAILS as stated: measured over seeds 1-10, the cut comes
/// 0.15-0.89 s after the growth, within one RAP (0.31-0.33 s) plus the
/// ack's way back (0.11 s) in 4 of 10 seeds, at most 2.9 RAPs after.
/// Explained: the receiver judges ρ over whole RAPs, and the growth begins
/// inside one whose ρ averages the gaps before it; the first RAP that sees
/// the growth whole ends one to two RAPs after it, and its verdict then
/// rides an ack back. The check (below) varies the RAP's length
/// (`cc_params.rap_srtt`, 1 srtt [K]) and the delay moves with it: half a
/// round trip puts every cut within one round trip of the growth.
#[test]
fn wtcp_2_the_rate_falls_within_one_rap_of_the_queue_growth() {
    let (within, worst, _) = wtcp_2_cuts(&[]);
    assert!(worst <= WTCP_2_WORST_RAPS, "{worst}");
    assert_eq!(within, WTCP_2_WITHIN);
}

/// WTCP-2's check (the cause above, varied): the RAP's length sets how
/// long after the queue's growth the rate falls. The growth begins inside
/// a RAP whose ρ averages the gaps before it, so the first RAP to see it
/// whole ends one to two RAPs later, then the ack carries the verdict back.
/// Measured over seeds 1-10 (delay from the growth to the cut, mean): RAPs
/// of 0.5 srtt 0.17 s, every seed within one srtt and the ack's way back;
/// 1 srtt (the default [K]) 0.52 s, 4 of 10; 2 srtt 1.13 s, 1 of 10.
#[test]
fn wtcp_2_check_the_raps_length_sets_the_delay_of_the_cut() {
    let mut means = Vec::new();
    for rap in ["0.5", "1.0", "2.0"] {
        let set = format!("flows.0.tcp.cc_params.rap_srtt={rap}");
        let (within, worst, delays) = wtcp_2_cuts(&[&set]);
        let mean = common::mean(delays.iter().copied());
        println!("RAP {rap} srtt: cut {mean:.3} s after the growth (mean); within one srtt: {within} of 10; the latest {worst:.2} srtt after");
        if rap == "0.5" {
            assert_eq!(within, 10, "a RAP of half a round trip: every cut within one");
        }
        means.push(mean);
    }
    assert!(means[0] < means[1] && means[1] < means[2], "{means:?}");
}

/// WTCP-2's measure over the seeds with `extra` sets: (seeds whose cut came
/// within one RAP and the ack's way back, the latest cut in RAPs, each
/// seed's delay from the growth to the cut in s).
fn wtcp_2_cuts(extra: &[&str]) -> (usize, f64, Vec<f64>) {
    let (mut within, mut worst, mut delays) = (0, 0.0f64, Vec::new());
    for seed in SEEDS {
        let mut sets = vec!["competing=\"on\""];
        sets.extend_from_slice(extra);
        let (s, t) = run(&sets, seed);
        let rep = replay(&t);
        let rap = s.flows[0].mean_rtt_ms.expect("round trips") / 1e3;
        let need = 0.15 * LINK_PPS * rap;
        let grown = (0..3000)
            .map(|k| 30.0 + k as f64 * 0.001)
            .find(|&at| growth(&rep, at, rap) >= need)
            .expect("the queue grows");
        let r = rates(&t, 0);
        let r: Vec<_> = r.iter().filter(|p| p.0 >= grown && p.1 > 10.0).collect();
        let fall = r.windows(2).find(|w| w[1].1 < FALL * w[0].1).map(|w| w[1].0).expect("the rate falls");
        println!(
            "seed {seed}: RAP {rap:.3} s; queue grew by {need:.1} at {grown:.3} s (queue {}); rate cut at {fall:.3} s: after {:.3} s",
            queue_at(&rep, grown),
            fall - grown
        );
        within += usize::from(fall - grown <= rap + 0.11);
        worst = worst.max((fall - grown) / rap);
        delays.push(fall - grown);
        assert!(s.flows[1].bytes_delivered > 0);
    }
    println!("within one RAP and the ack's way back: {within} of 10; the latest {worst:.2} RAPs after");
    (within, worst, delays)
}

/// The first send at or after `at` s, and the pacing rate of the first
/// paced send after it (segments per second).
fn first_send_after(t: &Trace, at: f64) -> f64 {
    let x = &t.sent;
    (0..x.time_ns.len()).filter(|&i| x.flow[i] == 0).map(|i| secs(x.time_ns[i])).find(|&a| a >= at).expect("sends")
}

/// WTCP-3 (elaarag-002.md Sec. 4, [K]): the wireless link down from 20 to
/// 30 s (flush), 2 % loss. Measured over seeds 1-10: WTCP probes through
/// the blackout (one probe per srtt: 28-32 probes in 21.5-30 s) and its
/// first send after the link comes back is a probe 0.003-0.247 s later,
/// within one probe interval (1 srtt, 0.29-0.30 s); it then paces at the
/// receiver's rate as it stood when the link went down: x1.00-1.05 the
/// last rate before (at most an α step) in 8 seeds, x0.70 in 2 (seeds 8
/// and 9: a β cut the receiver decided just before the blackout, its ack
/// lost in the flush, arrives with the probe's ack). NewReno's first send
/// is its backed-off RTO's, 4.79-5.01 s after, with cwnd one segment.
#[test]
fn wtcp_3_after_a_blackout_wtcp_resumes_at_its_rate_and_newreno_from_one_segment() {
    for seed in SEEDS {
        let (s, t) = run(&["blackout_at_s=20"], seed);
        let probe = first_send_after(&t, 30.0) - 30.0;
        let srtt = s.flows[0].mean_rtt_ms.expect("round trips") / 1e3;
        let r = rates(&t, 0);
        let before = r.iter().rev().find(|p| p.0 < 20.0 && p.1 > 10.0).expect("paced before").1;
        let after = r.iter().find(|p| p.0 > 30.0 + probe && p.1 > 10.0).expect("paced after").1;
        let during = t.sent.time_ns.iter().filter(|&&n| (21.5..30.0).contains(&secs(n))).count();
        let (n, tn) = run(&["blackout_at_s=20", newreno()[0], newreno()[1]], seed);
        let nr = first_send_after(&tn, 30.0) - 30.0;
        let w = &tn.window;
        let cwnd = (0..w.time_ns.len()).find(|&i| secs(w.time_ns[i]) >= 30.0).map(|i| w.cwnd_bytes[i]);
        println!(
            "seed {seed}: WTCP first probe after {probe:.3} s (srtt {srtt:.3}), {during} probes in 21.5-30 s, rate {before:.1} -> \
             {after:.1} seg/s (x{:.3}); NewReno first send after {nr:.3} s, cwnd {cwnd:?}, {} timeouts",
            after / before,
            n.flows[0].timeouts
        );
        assert!(probe <= srtt, "seed {seed}: {probe}");
        assert!(during >= 20, "seed {seed}: {during}");
        let x = after / before;
        assert!((0.95..=1.10).contains(&x) || (x - 0.7).abs() < 0.02, "seed {seed}: x{x}");
        assert!(nr >= 4.0, "seed {seed}: NewReno after {nr} s");
        assert_eq!(cwnd, Some(1024), "seed {seed}: NewReno restarts from one segment");
    }
}
