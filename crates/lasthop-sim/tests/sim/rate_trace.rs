//! A link direction driven by a rate trace in Mahimahi's `mm-link` format
//! (issue 33 item 4; `lasthop_net::rate_trace`) in whole runs: a bulk TCP
//! transfer over the shipped 60 s cellular-like trace fills every delivery
//! opportunity, window by window; the scenario holds the shipped file; bad
//! traces name their field.

use crate::common;
use lasthop_core::Time;
use lasthop_net::rate_trace::{RateTrace, OPPORTUNITY_BYTES};
use lasthop_sim::{embedded, Format, Scenario};

const SCENARIO: &str = "examples/cellular-trace";

/// The trace shipped with the tests (made by `scripts/mm_trace.py generate`).
fn shipped_trace() -> RateTrace {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/traces/synthetic-cellular-60s.mm");
    let text = std::fs::read_to_string(path).expect("the shipped trace");
    RateTrace::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_example_scenario_holds_the_shipped_trace() {
    let trace = shipped_trace();
    assert_eq!(trace.period_ms(), 60_000, "at least 60 s");
    let sc = common::load(embedded::get(SCENARIO).unwrap(), &[]);
    let l = sc.model.links.iter().find(|l| l.name == "wireless").unwrap();
    let down = l.dirs[0].rate_trace.as_deref().expect("bs->mh is the trace's");
    assert_eq!(down, &trace, "scenarios/examples/cellular-trace.toml: rerun scripts/mm_trace.py toml");
    assert!(l.dirs[1].rate_trace.is_none(), "the uplink has a bandwidth");
    // What the direction reports as its bandwidth: the trace's mean rate.
    assert_eq!(l.dirs[0].params.bandwidth_bps, trace.mean_rate_bps());
    assert_eq!(trace.mean_rate_bps(), 4_608_256);
}

/// Bytes the trace direction (`wireless`, bs->mh) put on its medium by
/// `stop_s` in the example scenario, its transfer lasting 70 s (into the
/// trace's second loop).
fn downlink_bytes_by(stop_s: u64) -> u64 {
    let s = common::run_embedded(SCENARIO, &[&format!("stop_s={stop_s}.0"), "flows.0.duration_s=70.0"], 1);
    let d = s.links.iter().find(|l| &*l.name == "wireless" && &*l.direction == "bs->mh").unwrap();
    d.bytes_sent
}

#[test]
fn a_bulk_transfer_fills_the_traces_opportunities_in_every_10_s_window() {
    // The comparison: an opportunity releases 1504 bytes of IP packets
    // (mahimahi counts whole IP datagrams: the TUN device's payload), and
    // the direction's `bytes_sent` counts IP packet sizes (1500-byte
    // segments and their headers), so a direction that always has a frame
    // waiting sends opportunities x 1504 bytes in a window: a packet that
    // spans two opportunities is counted whole in the window it starts in,
    // so each window's bytes are off by at most one packet at each end
    // (3 KB of the 1.1 to 10 MB of a window). The bulk flow's window (512
    // KB) keeps the 400-packet cellular buffer from emptying and from
    // overflowing: no opportunity is wasted and nothing is retransmitted.
    // The first window holds the flow's slow start (the link idles for a
    // few round trips); the last is the trace's second loop (its first 10 s
    // again).
    let trace = shipped_trace();
    let mut before = 0;
    let (mut ratios, mut sent_after_10_s, mut capacity_after_10_s) = (Vec::new(), 0, 0);
    for end_s in (10..=70).step_by(10) {
        let sent = downlink_bytes_by(end_s);
        let opportunities = trace.opportunities_until(Time::from_secs_f64(end_s as f64))
            - trace.opportunities_until(Time::from_secs_f64((end_s - 10) as f64));
        let capacity = opportunities * u64::from(OPPORTUNITY_BYTES);
        let ratio = (sent - before) as f64 / capacity as f64;
        eprintln!("{}-{end_s} s: {} of {capacity} bytes, {ratio:.5}", end_s - 10, sent - before);
        ratios.push(ratio);
        if end_s > 10 {
            sent_after_10_s += sent - before;
            capacity_after_10_s += capacity;
        }
        before = sent;
    }
    for (w, r) in ratios.iter().enumerate() {
        assert!((r - 1.0).abs() <= 0.02, "window {w}: {r} of the trace's capacity ({ratios:?})");
    }
    // Past the slow start the direction is never idle with a frame
    // waiting: over 60 s the packets at the windows' ends weigh 0.01 %. A
    // link that wasted what each 1500-byte packet leaves of its
    // opportunity would send 1500 / 1504 of it (0.27 % less).
    let total = sent_after_10_s as f64 / capacity_after_10_s as f64;
    assert!((total - 1.0).abs() <= 0.001, "10-70 s: {total} of the trace's capacity");
}

#[test]
fn a_trace_direction_is_deterministic() {
    let a = common::run_embedded(SCENARIO, &["stop_s=20.0"], 7);
    let b = common::run_embedded(SCENARIO, &["stop_s=20.0"], 7);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

fn err(sets: &[&str]) -> lasthop_sim::ScenarioError {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let e =
        Scenario::load(embedded::get(SCENARIO).unwrap(), Format::Toml, &sets, "s.toml").expect_err("must be rejected");
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    e
}

#[test]
fn bad_traces_and_conflicting_settings_name_their_field() {
    let at = "topology.wireless.ab.rate_trace_ms";
    let e = err(&["topology.wireless.ab.rate_trace_ms=[1, 5, 3]"]);
    assert_eq!(e.to_string(), format!("{at}[2]: 3 ms is before the time before it, 5 ms (times must not decrease)"));
    let e = err(&["topology.wireless.ab.rate_trace_ms=[]"]);
    assert_eq!(e.to_string(), format!("{at}: no times: a trace needs at least one line"));
    let e = err(&["topology.wireless.ab.rate_trace_ms=[0, 0]"]);
    assert_eq!((e.path.as_str(), e.reason.starts_with("the last time is 0 ms")), (&*format!("{at}[1]"), true), "{e}");
    let e = err(&["topology.wireless.ab.rate_trace_ms=[1, -2]"]);
    assert_eq!(e.path, format!("{at}[1]"), "{e}");
    let e = err(&["topology.wireless.ab.rate_trace_ms=[1, 2.5]"]);
    assert_eq!(e.path, format!("{at}[1]"), "{e}");
    let e = err(&["topology.wireless.ab.rate_trace_ms=[1, 1000000000001]"]);
    assert!(e.to_string().starts_with(&format!("{at}[1]: 1000000000001 ms is past")), "{e}");
    let e = err(&["topology.wireless.ab.bandwidth_bps=1e6"]);
    assert_eq!(e.to_string(), format!("{at}: give bandwidth_bps or rate_trace_ms, not both"));
    let e = err(&["topology.wireless.duplex=\"half\""]);
    assert_eq!(e.path, at, "{e}");
    assert!(e.reason.contains("duplex"), "{e}");
    let e = err(&["topology.wireless.ab.emulation={ tick_ms = 10 }"]);
    assert_eq!(e.to_string(), format!("{at}: a direction has a trace or the link emulator, not both"));
    let e = err(&["topology.wireless.frame_overhead_bytes=8"]);
    assert_eq!(e.path, at, "{e}");
    let e = err(&["rate_changes=[{ link = \"wireless\", at_s = 1.0, bandwidth_bps = 1e6 }]"]);
    assert_eq!(e.path, "rate_changes[0].link", "{e}");
    // A link without a rate of either kind.
    let e = err(&["topology.wired.bandwidth_bps=\"x\""]);
    assert_eq!(e.path, "topology.wired.bandwidth_bps", "{e}");
    let text = embedded::get(SCENARIO).unwrap().replace("bandwidth_bps = 100e6", "");
    let e = common::load_error(&text, &[]);
    assert_eq!(e, "topology.wired.bandwidth_bps: missing: give the rate in bit/s, or rate_trace_ms");
}
