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

mod common;
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
