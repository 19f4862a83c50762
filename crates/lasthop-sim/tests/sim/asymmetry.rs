//! Bandwidth asymmetry (seed 001 Secs. 4, 7.1): the wireless-cable
//! template, header compression as ack size, the normalized bandwidth ratio
//! k (AS-01), the ack-clock ceiling (AS-02), random start times, and the
//! measures over the interval when every transfer is active.

use crate::common;
use common::{load, run_text};
use lasthop_sim::RunSummary;

/// Seed 001's simulated topology (Sec. 7.1, ns-2 `tcl/ex/asym`): server -[10
/// Mb/s, 1 ms]- r1 -[10 Mb/s 5 ms forward / `rev_bps` 50 ms reverse]- r2
/// -[10 Mb/s, 1 ms]- client; 1000-byte segments with 40-byte headers.
fn cable(rev_bps: f64, compression: &str, rev_queue: u32, window_bytes: u64, flows: &str) -> String {
    format!(
        r#"
name = "cable"
stop_s = 20.0
[topology]
template = "wireless_cable"
[topology.wired]
bandwidth_bps = 10e6
delay_ms = 1.0
queue_packets = 100
[topology.cable]
bandwidth_bps = 10e6
delay_ms = 5.0
queue_packets = 100
[topology.cable.ba]
bandwidth_bps = {rev_bps}
delay_ms = 50.0
queue_packets = {rev_queue}
header_compression = "{compression}"
[topology.lan]
bandwidth_bps = 10e6
delay_ms = 1.0
queue_packets = 100
{flows}
[flows.tcp]
mss_bytes = 960
header_bytes = 40
socket_buffer_bytes = {window_bytes}
"#
    )
}

fn forward(extra: &str) -> String {
    format!("[[flows]]\nname = \"fwd\"\nfrom = \"server\"\nto = \"client\"\nduration_s = 15.0\n{extra}")
}

fn link<'a>(s: &'a RunSummary, direction: &str) -> &'a lasthop_sim::metrics::LinkSummary {
    s.links.iter().find(|l| l.direction == direction).expect("link direction")
}

#[test]
fn as01_k_is_the_papers_normalized_ratio_for_each_reverse_channel() {
    // Seed 001 Sec. 4.2: k = (C_fwd / C_rev) / (S_data / S_ack), data 1000
    // B, acks 40 B or 6 B compressed (reference Sec. 1.2's table).
    for (rev, compression, want) in [
        (9600.0, "none", 41.67),
        (9600.0, "ideal", 6.25),
        (28800.0, "none", 13.89),
        (28800.0, "ideal", 2.08),
        (50000.0, "none", 8.0),
        (50000.0, "vj", 1.2),
    ] {
        let s = run_text(&cable(rev, compression, 10, 10_000, &forward("")), &["stop_s=0.5"], 1);
        let k = s.flows[0].k;
        assert!((k - want).abs() < 0.01, "{rev} b/s, {compression}: k = {k}, want {want}");
    }
}

#[test]
fn compressed_acks_take_six_bytes_on_the_reverse_channel_only() {
    let plain = run_text(&cable(28800.0, "none", 10, 8000, &forward("")), &[], 1);
    let vj = run_text(&cable(28800.0, "vj", 10, 8000, &forward("")), &[], 1);
    let (p, c) = (link(&plain, "r2->r1"), link(&vj, "r2->r1"));
    assert_eq!(p.bytes_sent, 40 * p.packets_sent, "uncompressed acks are 40 bytes");
    assert_eq!(c.bytes_sent, 6 * c.packets_sent, "compressed acks are 6 bytes");
    // Restored at the far end: the other hops carry 40-byte acks.
    let lan = link(&vj, "client->r2");
    assert_eq!(lan.bytes_sent, 40 * lan.packets_sent);
    // Data is untouched.
    let data = link(&vj, "r1->r2");
    assert_eq!(data.bytes_sent, 1000 * data.packets_sent);
}

#[test]
fn as02_without_ack_loss_throughput_sits_just_below_the_ack_clock_ceiling() {
    // Seed 001 Sec. 4.2: with no ack lost (a window small enough that the
    // acks never fill the reverse buffer), the forward transfer is clocked
    // by the reverse channel: throughput <= d * S_data * C_rev / S_ack, with
    // d data packets per ack (1: an ack per segment here). 9.6 kb/s, 40-byte
    // acks: 1 * 8000 bit * 9600 / 320 bit = 240 kb/s. A window of 8
    // segments keeps at most 8 acks in a buffer of 10.
    let s = run_text(&cable(9600.0, "none", 10, 8 * 960, &forward("")), &[], 1);
    let ceiling_bps = 1.0 * 1000.0 * 8.0 * 9600.0 / (40.0 * 8.0);
    let reverse = link(&s, "r2->r1");
    assert_eq!(reverse.drops_queue, 0, "no ack lost");
    // Goodput counts payload (960 of 1000 bytes): compare packet rates.
    let segments_per_s = s.flows[0].throughput_bps / (960.0 * 8.0);
    let ceiling_pps = ceiling_bps / (1000.0 * 8.0);
    // In steady state one segment is delivered per ack the reverse channel
    // carries; the first window goes out before any ack: at most 8 segments
    // over the 15 s run above the clocked rate.
    let slack_pps = 8.0 / 15.0;
    assert!(
        segments_per_s <= ceiling_pps + slack_pps,
        "{segments_per_s} segments/s above the ceiling {ceiling_pps} (+{slack_pps} for the first window)"
    );
    assert!(segments_per_s >= 0.9 * ceiling_pps, "{segments_per_s} segments/s more than 10% below {ceiling_pps}");
}

#[test]
fn a_start_range_is_drawn_per_seed_within_its_bounds_and_repeats_for_a_seed() {
    let flows = format!(
        "{}\n[[flows]]\nname = \"late\"\nfrom = \"server\"\nto = \"client\"\nduration_s = 5.0\nstart_s = 5.0\nstart_max_s = 10.0\n",
        forward("")
    );
    let text = cable(28800.0, "ideal", 10, 20_000, &flows);
    let starts: Vec<f64> = (1..=6).map(|seed| run_text(&text, &[], seed).flows[1].start_s).collect();
    assert!(starts.iter().all(|s| (5.0..=10.0).contains(s)), "{starts:?}");
    assert!(starts.windows(2).any(|w| w[0] != w[1]), "seeds draw different starts: {starts:?}");
    assert_eq!(run_text(&text, &[], 3).flows[1].start_s, starts[2], "the same seed, the same start");
    // The first flow's stream is untouched by the draw: it has no range.
    assert_eq!(run_text(&text, &[], 3).flows[0].start_s, 0.0);
}

#[test]
fn two_transfers_are_measured_over_the_interval_both_are_active() {
    // Two forward transfers over one bottleneck: the second starts at 5 s
    // and both run until 15 s (the first stops then): the overlap is 5-15 s.
    let flows = format!(
        "{}\n[[flows]]\nname = \"second\"\nfrom = \"server\"\nto = \"client\"\nduration_s = 10.0\nstart_s = 5.0\n",
        forward("")
    );
    let s = run_text(&cable(28800.0, "ideal", 10, 40_000, &flows), &[], 1);
    let x: Vec<f64> = s.flows.iter().map(|f| f.overlap_throughput_bps.expect("two flows overlap")).collect();
    assert!(x.iter().all(|&v| v > 0.0), "{x:?}");
    // Jain's index of the two overlap throughputs, as seed 001 Sec. 3.2 defines it.
    let want = (x[0] + x[1]).powi(2) / (2.0 * (x[0] * x[0] + x[1] * x[1]));
    let j = s.jain_index.expect("an index for two flows");
    assert!((j - want).abs() < 1e-12 && (0.5..=1.0).contains(&j), "{j} vs {want}");
    // One flow alone reports neither.
    let alone = run_text(&cable(28800.0, "ideal", 10, 40_000, &forward("")), &[], 1);
    assert_eq!((alone.flows[0].overlap_throughput_bps, alone.jain_index), (None, None));
}

#[test]
fn mean_cwnd_averages_the_window_over_time() {
    // cwnd capped at 4 segments: it reaches the cap within a few RTTs of a
    // 15 s transfer and stays, so the time average lies just below 4.
    let text = cable(28800.0, "ideal", 10, 8 * 960, &forward(""));
    let s = run_text(&text, &["flows.0.tcp.max_cwnd_bytes=3840"], 1);
    let c = s.flows[0].mean_cwnd_segments;
    assert!((3.5..=4.0).contains(&c), "mean cwnd {c} segments");
}

#[test]
fn start_range_errors_name_the_field() {
    let flows = forward("start_s = 5.0\nstart_max_s = 4.0");
    let text = cable(28800.0, "none", 10, 8000, &flows);
    let sets: Vec<String> = vec![];
    let e = lasthop_sim::Scenario::load(&text, lasthop_sim::Format::Toml, &sets, "t").unwrap_err().to_string();
    assert!(e.contains("flows[0].start_max_s") && e.contains("at least start_s"), "{e}");
    let e = lasthop_sim::Scenario::load(
        &cable(28800.0, "zip", 10, 8000, &forward("")),
        lasthop_sim::Format::Toml,
        &sets,
        "t",
    )
    .unwrap_err()
    .to_string();
    // Inside a template, serde names the template's table and the choices.
    assert!(e.contains("topology") && e.contains("`zip`") && e.contains("`vj`"), "{e}");
    let _ = load(&cable(28800.0, "none", 10, 8000, &forward("")), &[]);
}
