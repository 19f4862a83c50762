//! Invariants over many shapes: each error model, half and full duplex,
//! queue overflow, several flows at once, bulk and timed workloads, and a run
//! stopped mid-transfer. `lasthop_sim::run` fails on any violated invariant.

use crate::common;
use common::{load, path, run_text};
use lasthop_sim::World;

const MODELS: &[&str] = &[
    r#"{ model = "none" }"#,
    r#"{ model = "exponential_bytes", mean_bytes = 16384 }"#,
    r#"{ model = "bernoulli", p = 0.05 }"#,
    r#"{ model = "two_state", good_mean = 50, bad_mean = 4 }"#,
    r#"{ model = "two_state", good_mean = 0.5, bad_mean = 0.05, unit = "seconds" }"#,
    r#"{ model = "two_state", good_mean = 50, bad_mean = 4, unit = "packet_times", packet_bytes = 1000 }"#,
    r#"{ model = "markov", p_gb = 0.02, p_bb = 0.5 }"#,
    r#"{ model = "burst", mean_bytes = 32768, burst_packets = 4 }"#,
    r#"{ model = "list", packets = [3, 4, 5, 40], seqs = [10000, 11000] }"#,
    r#"{ model = "outage", from_s = 0.1, until_s = 0.4 }"#,
];

#[test]
fn every_error_model_and_variant_delivers_all_bytes_once_in_order() {
    for model in MODELS {
        for variant in ["tahoe", "reno", "newreno"] {
            let s = run_text(&path(variant, 300_000, model, 1), &[], 7);
            let f = &s.flows[0];
            assert!(f.completed, "{variant} {model}");
            assert_eq!(f.bytes_delivered, 300_000);
        }
    }
}

#[test]
fn half_duplex_with_errors_both_ways_and_small_queues() {
    let text = r#"
name = "hd"
[[nodes]]
name = "a"
[[nodes]]
name = "r"
[[nodes]]
name = "b"
[[links]]
name = "fast"
a = "a"
b = "r"
bandwidth_bps = 10e6
delay_ms = 1.0
queue_packets = 100
[[links]]
name = "radio"
a = "r"
b = "b"
bandwidth_bps = 1e6
delay_ms = 2.0
duplex = "half"
queue_packets = 4
frame_overhead_bytes = 30
frame_overhead_us = 200.0
error = { model = "exponential_bytes", mean_bytes = 20000 }
[[flows]]
name = "x"
from = "a"
to = "b"
bytes = 400000
[flows.tcp]
variant = "newreno"
socket_buffer_bytes = 64000
ack = { policy = "delayed" }
[[flows]]
name = "y"
from = "b"
to = "a"
bytes = 200000
start_s = 0.5
[flows.tcp]
variant = "reno"
rto = { mode = "bsd" }
ack = { policy = "bsd_delayed" }
[[flows]]
name = "z"
from = "a"
to = "b"
duration_s = 20.0
[flows.tcp]
variant = "tahoe"
"#;
    for seed in 1..=5 {
        let s = run_text(text, &[], seed);
        assert!(s.flows[0].completed && s.flows[1].completed && s.flows[2].completed, "seed {seed}");
        let radio = s.links.iter().find(|l| l.direction == "r->b").unwrap();
        assert!(radio.drops_queue > 0, "a 4-packet queue overflows with three flows");
        assert!(radio.drops_error > 0);
    }
}

#[test]
fn packets_are_conserved_mid_transfer() {
    let text = path("reno", 10_000_000, r#"{ model = "bernoulli", p = 0.02 }"#, 1);
    let sc = load(&text, &["stop_s=2.0"]);
    let mut w = World::new(&sc.model, 3, false);
    w.run();
    assert!(w.now().as_secs_f64() <= 2.0);
    assert!(w.in_flight() > 0, "stopped with packets in flight");
    let c = w.conservation;
    assert_eq!(c.created, c.delivered + c.dropped + w.in_flight());
    w.check_invariants().unwrap();
    assert!(!w.summary().flows[0].completed);
}

#[test]
fn a_link_that_loses_everything_still_ends_at_stop_s() {
    let text = path("newreno", 100_000, r#"{ model = "bernoulli", p = 1.0 }"#, 1);
    let s = run_text(&text, &["stop_s=600"], 1);
    let f = &s.flows[0];
    assert!(!f.completed);
    assert_eq!(f.bytes_delivered, 0);
    // RFC 6298: the RTO doubles from 1 s up to its 60 s cap: 1+2+...+32 = 63 s,
    // then one timeout a minute until 600 s.
    assert!((13..=16).contains(&f.timeouts), "{} timeouts", f.timeouts);
    assert!(s.sim_time_s <= 600.0);
}
