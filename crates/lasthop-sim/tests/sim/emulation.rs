//! Seed 001's testbed link emulator (Sec. 8.1) and SA's ticked burst timer
//! (Sec. 9.1.1) in whole runs (lasthop issue 12): invariants (every packet
//! delivered, dropped with a cause, or in flight), the F19 linear region,
//! and one-line errors for bad settings.

use crate::common;
use common::{load, run_embedded};
use lasthop_sim::{embedded, Format, Scenario, World};

const MAXBURST: &str = "balakrishnan99/testbed-maxburst";
const TWO_WAY: &str = "balakrishnan99/testbed-two-way";

#[test]
fn emulated_runs_deliver_every_byte_and_conserve_packets() {
    // Without losses (maxburst 4) and with the forward card's overflows
    // (no burst limit), each protocol, two seeds.
    for protocol in ["reno", "acc", "af"] {
        for maxburst in ["4", "1000000"] {
            for seed in [1, 2] {
                let sets = [format!("protocol=\"{protocol}\""), format!("maxburst={maxburst}")];
                let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
                let s = run_embedded(MAXBURST, &sets, seed);
                let f = &s.flows[0];
                assert!(f.completed, "{protocol} maxburst {maxburst} seed {seed}");
                assert_eq!(f.bytes_delivered, 2_097_152);
            }
        }
    }
}

#[test]
fn packets_are_conserved_mid_transfer_on_an_emulated_link() {
    // Stopped while the emulator holds frames in both stages.
    let text = embedded::get(TWO_WAY).unwrap();
    for (protocol, scheduling) in [("reno", "fifo"), ("af", "acks-first"), ("acc", "fifo")] {
        let p = format!("protocol=\"{protocol}\"");
        let q = format!("scheduling=\"{scheduling}\"");
        let sc = load(text, &[&p, &q, "stop_s=20.0"]);
        let mut w = World::new(&sc.model, 5, false);
        w.run();
        assert!(w.in_flight() > 0, "{protocol} {scheduling}: stopped with packets in flight");
        let c = w.conservation;
        assert_eq!(c.created, c.delivered + c.dropped + c.absorbed + c.filtered + w.in_flight());
        w.check_invariants().unwrap_or_else(|e| panic!("{protocol} {scheduling}: {e}"));
    }
}

#[test]
fn f19_one_burst_per_kernel_tick_bounds_throughput_by_maxburst() {
    // Seed 001 Sec. 9.1.1: "with maxburst 1 the maximum possible throughput
    // is one segment every 10 ms: 1.17 Mb/s with 1460-byte segments". The
    // bound holds for every maxburst of the linear region and is nearly met
    // (the slow start of a 2 MB transfer costs up to a fifth).
    for protocol in ["acc", "af"] {
        for maxburst in [1u32, 2, 3] {
            let bound_bps = f64::from(maxburst) * 1460.0 * 8.0 / 0.010;
            let sets = [format!("protocol=\"{protocol}\""), format!("maxburst={maxburst}")];
            let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
            let got = run_embedded(MAXBURST, &sets, 1).flows[0].throughput_bps;
            assert!(got <= bound_bps && got >= 0.8 * bound_bps, "{protocol} {maxburst}: {got} of {bound_bps}");
        }
    }
    // An exact burst timer (the simulations) is not held to the tick.
    let ticked = ", timer_tick_ms = \"${tick_ms}\"";
    let text = embedded::get(MAXBURST).unwrap();
    assert!(text.contains(ticked), "the scenario's burst timer line moved");
    let got =
        common::run_text(&text.replace(ticked, ""), &["protocol=\"acc\"", "maxburst=1"], 1).flows[0].throughput_bps;
    assert!(got > 1.5 * 1460.0 * 8.0 / 0.010, "exact timer: {got}");
}

fn err(sets: &[&str]) -> lasthop_sim::ScenarioError {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let text = embedded::get(MAXBURST).unwrap();
    let e = Scenario::load(text, Format::Toml, &sets, "s.toml").expect_err("must be rejected");
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    e
}

#[test]
fn bad_emulation_and_burst_timer_settings_name_their_field() {
    for tick in ["0", "-10", "nan"] {
        let e = err(&[&format!("tick_ms={tick}")]);
        assert_eq!(e.path, "links[0].ba.emulation.tick_ms", "{e}");
        assert!(e.reason.contains("positive"), "{e}");
        let e = err(&["protocol=\"acc\"", &format!("flows.0.tcp.sender_adaptation.timer_tick_ms={tick}")]);
        assert_eq!(e.path, "flows[0].tcp.sender_adaptation.timer_tick_ms", "{e}");
    }
    let e = err(&["links.0.duplex=\"half\""]);
    assert_eq!(e.path, "links[0].ba.emulation", "{e}");
    assert!(e.reason.contains("duplex"), "{e}");
    let e = err(&["links.0.ba.emulation.tick=10"]);
    assert!(e.path.starts_with("links[0].ba.emulation"), "{e}");
    assert!(e.reason.contains("unknown field"), "{e}");
}
