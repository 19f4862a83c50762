//! BBR v1 (issue 30, `lasthop_tcp::cc::bbr`) on one path in a whole run: a
//! 10 Mb/s link, 20 ms each way (40 ms round trip), a 100-packet drop-tail
//! FIFO, one bulk flow for 35 s with `tcp.cc = "bbr"` on SACK recovery (as
//! Linux runs it).
//!
//! What Linux's `tcp_bbr.c` makes of it: PROBE_RTT whenever min_rtt has not
//! been refreshed for 10 s, its window at 4 segments for at least 200 ms
//! (`bbr_probe_rtt_mode_ms`, counted once the flight is down to 4 segments)
//! and a round trip, the next one 10 s after the last (PROBE_RTT's exit
//! renews min_rtt's stamp; the round trip at the bottom of the queue just
//! after it may renew it once more); and the link kept busy: PROBE_RTT's
//! 200 ms in 10 s cost about 2%, STARTUP a few round trips.

use crate::common;
use common::load;
use lasthop_core::trace::{Trace, WindowColumns};
use lasthop_sim::run;

const MSS: u64 = 1460;
const RTT_NS: u64 = 40_000_000;
const S: u64 = 1_000_000_000;

fn path() -> String {
    r#"
name = "bbr_path"
stop_s = 35
[[nodes]]
name = "server"
[[nodes]]
name = "client"
[[links]]
name = "neck"
a = "server"
b = "client"
bandwidth_bps = 10e6
delay_ms = 20.0
queue_packets = 100
[[flows]]
name = "bulk"
from = "server"
to = "client"
duration_s = 35
[flows.tcp]
cc = "bbr"
recovery = "sack"
mss_bytes = 1460
initial_cwnd_segments = 10
socket_buffer_bytes = 4000000
"#
    .to_string()
}

/// PROBE_RTT episodes of flow 0 from the window trace: (start, end) in ns,
/// from the first sample at 4 segments (once the window was above them) to
/// the first above them.
fn probe_rtt_episodes(w: &WindowColumns) -> Vec<(u64, u64)> {
    let mut episodes = Vec::new();
    let mut start = None;
    let mut opened = false;
    for i in (0..w.time_ns.len()).filter(|&i| w.flow[i] == 0) {
        let (t, cwnd) = (w.time_ns[i], w.cwnd_bytes[i]);
        opened |= cwnd > 4 * MSS;
        match start {
            None if opened && cwnd <= 4 * MSS => start = Some(t),
            Some(s) if cwnd > 4 * MSS => {
                episodes.push((s, t));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        episodes.push((s, u64::MAX));
    }
    episodes
}

/// min_rtt's refreshes as BBR makes them, from the trace: each ack of new
/// data samples the RTT of the newest never-retransmitted segment it
/// delivered (the sender's `rtt_ns`); a sample at or below min_rtt, or any
/// once min_rtt is 10 s old, refreshes it. Returns (ack time, stamp after it).
fn min_rtt_stamps(trace: &Trace) -> Vec<(u64, u64)> {
    let sent = &trace.sent;
    let mut firsts: Vec<(u64, u64)> = Vec::new(); // (end, send time) of first transmissions
    let mut resent: Vec<u64> = Vec::new();
    for i in (0..sent.time_ns.len()).filter(|&i| sent.flow[i] == 0) {
        let end = sent.seq[i] + u64::from(sent.len[i]);
        if sent.retransmit[i] {
            resent.push(end);
        } else {
            firsts.push((end, sent.time_ns[i]));
        }
    }
    resent.sort_unstable();
    let acks = &trace.acks;
    let (mut next, mut una) = (0, 0);
    let (mut min, mut stamp) = (u64::MAX, 0);
    let mut out = Vec::new();
    for i in (0..acks.time_ns.len()).filter(|&i| acks.flow[i] == 0) {
        let (t, ack) = (acks.time_ns[i], acks.ack[i]);
        if ack <= una {
            continue;
        }
        una = ack;
        let mut newest = None;
        while next < firsts.len() && firsts[next].0 <= ack {
            if resent.binary_search(&firsts[next].0).is_err() {
                newest = Some(firsts[next].1);
            }
            next += 1;
        }
        if let Some(sent_at) = newest {
            let rtt = t - sent_at;
            if rtt <= min || t > stamp + 10 * S {
                (min, stamp) = (rtt, t);
            }
        }
        out.push((t, stamp));
    }
    out
}

#[test]
fn probe_rtt_every_ten_seconds_and_the_link_kept_busy() {
    let out = run(&load(&path(), &[]), 1, true).unwrap_or_else(|e| panic!("{e}"));
    let episodes = probe_rtt_episodes(&out.trace.window);
    let stamps = min_rtt_stamps(&out.trace);
    // 35 s: PROBE_RTT near 10, 20 and 30 s.
    assert_eq!(episodes.len(), 3, "{episodes:?}");
    let mut last_end = 0;
    for &(start, end) in &episodes {
        // Entered within a round trip of min_rtt's 10 s running out: the
        // stamp in force before the entering ack, + 10 s.
        let before = stamps.iter().take_while(|&&(t, _)| t < start).last().expect("acks before").1;
        let late = start.checked_sub(before + 10 * S).unwrap_or_else(|| panic!("early: {start} vs {before}"));
        assert!(late <= RTT_NS, "{late} ns after the 10 s, in {episodes:?}");
        // Some 10 s after the last one (the quiet round trips at the bottom
        // of the queue after it renew min_rtt: at most a few).
        assert!(start - last_end >= 10 * S && start - last_end <= 10 * S + 8 * RTT_NS, "{episodes:?}");
        // At 4 segments for at least 200 ms (and the drain to them before
        // the 200 ms count), at most a few round trips longer.
        let held = end - start;
        assert!((200_000_000..=200_000_000 + 4 * RTT_NS).contains(&held), "held {held} ns in {episodes:?}");
        last_end = end;
    }
    // The bottleneck busy at least 95% of the run (headers included).
    let neck = out.summary.links.iter().find(|l| l.direction == "server->client").unwrap();
    let busy = neck.bytes_sent as f64 * 8.0 / (10e6 * 35.0);
    assert!(busy >= 0.95, "utilisation {busy:.4}");
    assert_eq!(out.summary.flows[0].retransmits, 0, "the 100-packet queue holds STARTUP's");
}

/// A 10 Mb/s hop (10 ms, 50 packets) into a slower 4 Mb/s one (10 ms, 50
/// packets) that loses 1% of the data segments at random: seed 004's path
/// shape (wired hop, then a slower last hop that drops), with SACK
/// recoveries throughout. Base RTT about 42 ms, BDP about 20 segments of
/// 1000 bytes (4e6 x 1000/1040 b/s of payload), so PROBE_BW's window (twice
/// BDP and 3 segments, about 45) leaves the 50-packet queue room to spare:
/// BBR v1 over random loss keeps its rate (it does not cut on loss), drops
/// nothing at a queue, and resends about what the link lost.
///
/// Before the sender counted SACKed data as delivered (Linux's
/// `tp->delivered`), each ack that filled a hole "delivered" the whole
/// SACKed run above it at once: rate samples two to seven times the link's
/// (the bandwidth filter keeps the largest for ten rounds), RTT samples of
/// segments SACKed long before (seconds, taken as min_rtt once it expired),
/// so pacing ran at 10-35 Mb/s and cwnd far above BDP + queue: 1.2 Mb/s,
/// 2811 retransmissions, 1370 drops at the first hop's queue and 916 at the
/// second's (seed 1).
#[test]
fn random_loss_behind_a_faster_hop_keeps_the_rate_and_the_queues() {
    let text = r#"
name = "bbr_chain"
stop_s = 20
[[nodes]]
name = "server"
[[nodes]]
name = "router"
[[nodes]]
name = "client"
[[links]]
name = "wired"
a = "server"
b = "router"
bandwidth_bps = 10e6
delay_ms = 10.0
queue_packets = 50
[[links]]
name = "last"
a = "router"
b = "client"
bandwidth_bps = 4e6
delay_ms = 10.0
queue_packets = 50
[links.ab]
error = { model = "bernoulli", p = 0.01 }
[[flows]]
name = "bulk"
from = "server"
to = "client"
duration_s = 20
[flows.tcp]
variant = "bbr"
mss_bytes = 1000
socket_buffer_bytes = 1000000
"#;
    // The last hop's payload rate: 1000 of every 1040 bytes.
    let payload_bps = 4e6 * 1000.0 / 1040.0;
    for seed in 1..=3 {
        let out = run(&load(text, &[]), seed, true).unwrap_or_else(|e| panic!("{e}"));
        let flow = &out.summary.flows[0];
        let lost: u64 = out.summary.links.iter().map(|l| l.drops_error).sum();
        for l in &out.summary.links {
            assert_eq!(l.drops_queue, 0, "seed {seed}: queue drops on {} {}", l.name, l.direction);
        }
        // Resends: the segments lost (92-113 here), a lost retransmission
        // now and then, and the go-back-N after its timeout (RFC 6675
        // forgets the SACKed data then): 94-141 in seeds 1-3.
        assert!(flow.retransmits <= lost * 3 / 2, "seed {seed}: {} resent for {lost} lost", flow.retransmits);
        // 96-97% of the payload rate (3.71-3.74 Mb/s).
        assert!(flow.throughput_bps >= 0.9 * payload_bps, "seed {seed}: {} b/s", flow.throughput_bps);
        // After STARTUP no 200 ms sends more than PROBE_BW's 5/4 phase
        // allows at the link's rate (4.24-4.28 Mb/s at most here; 10-35
        // Mb/s with the inflated samples).
        let sent = &out.trace.sent;
        let sends: Vec<(u64, u64)> = (0..sent.time_ns.len())
            .filter(|&i| sent.flow[i] == 0 && sent.time_ns[i] >= 2 * S)
            .map(|i| (sent.time_ns[i], u64::from(sent.len[i])))
            .collect();
        let window = 200_000_000;
        let (mut j, mut bytes, mut most) = (0, 0, 0);
        for i in 0..sends.len() {
            while j < sends.len() && sends[j].0 < sends[i].0 + window {
                bytes += sends[j].1;
                j += 1;
            }
            most = most.max(bytes);
            bytes -= sends[i].1;
        }
        let rate = most as f64 * 8.0 * (S as f64 / window as f64);
        assert!(rate <= 1.25 * payload_bps, "seed {seed}: {rate} b/s over 200 ms");
    }
}
