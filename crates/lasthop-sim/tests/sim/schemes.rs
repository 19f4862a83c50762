//! The end-to-end schemes of seed 000 Sec. III-A through the whole simulator.

use crate::common;
use common::{path_with, run_text};
use lasthop_sim::schemes::SCHEMES;

const FIG1_DROPS: &str = r#"{ model = "list", seqs = [0, 1000] }"#;

#[test]
fn every_scheme_delivers_everything_under_every_kind_of_loss() {
    let models = [
        r#"{ model = "exponential_bytes", mean_bytes = 16384 }"#,
        r#"{ model = "burst", mean_bytes = 32768, burst_packets = 4 }"#,
        r#"{ model = "markov", p_gb = 0.02, p_bb = 0.5 }"#,
        FIG1_DROPS,
    ];
    for s in SCHEMES {
        for m in models {
            for generator in ["receiver", "base_station"] {
                let tcp = format!("scheme = \"{}\"\neln_generator = \"{generator}\"\nlimited_transmit = true", s.name);
                let r = run_text(&path_with(&tcp, 300_000, m, 5), &[], 3);
                assert!(r.flows[0].completed, "{} {m} {generator}", s.name);
            }
        }
    }
}

#[test]
fn eln_fig1_keeps_the_window_with_either_generator() {
    for generator in ["receiver", "base_station"] {
        // E2E-ELN-RXMT resends both losses on their first marked duplicate;
        // E2E-ELN gets only two duplicates for the second hole (two new
        // segments fit after the first repair) and times out on it. Neither
        // makes a fast retransmit (which would cut the window).
        for (scheme, eln_rexmits, timeouts) in [("e2e-eln", 1, 1), ("e2e-eln-rxmt", 2, 0)] {
            let tcp = format!("scheme = \"{scheme}\"\neln_generator = \"{generator}\"");
            let r = run_text(&path_with(&tcp, 20_000, FIG1_DROPS, 5), &[], 1);
            let f = &r.flows[0];
            assert!(f.completed);
            assert_eq!(
                (f.eln_retransmits, f.fast_retransmits, f.timeouts),
                (eln_rexmits, 0, timeouts),
                "{scheme} {generator}"
            );
        }
    }
    // Without ELN the same losses are a fast retransmit and a timeout (Reno).
    let r = run_text(&path_with("scheme = \"e2e\"", 20_000, FIG1_DROPS, 5), &[], 1);
    assert_eq!((r.flows[0].fast_retransmits, r.flows[0].timeouts), (1, 1));
}

#[test]
fn limited_transmit_turns_a_small_window_timeout_into_a_fast_retransmit() {
    // RFC 3042's case (seed 000 Sec. V-C): a window of three segments, the
    // first lost: two duplicate acks only, a coarse timeout without the option.
    let drops = r#"{ model = "list", seqs = [0] }"#;
    let plain = &run_text(&path_with("scheme = \"e2e\"", 20_000, drops, 3), &[], 1).flows[0];
    assert_eq!((plain.fast_retransmits, plain.timeouts), (0, 1));
    let lt = &run_text(&path_with("scheme = \"e2e\"\nlimited_transmit = true", 20_000, drops, 3), &[], 1).flows[0];
    assert_eq!((lt.fast_retransmits, lt.timeouts), (1, 0));
}

#[test]
fn sack_and_smart_repair_fig1_without_a_timeout() {
    for scheme in ["e2e-ietf-sack", "e2e-smart", "e2e-sack-eln"] {
        let r = run_text(&path_with(&format!("scheme = \"{scheme}\""), 20_000, FIG1_DROPS, 5), &[], 1);
        let f = &r.flows[0];
        assert!(f.completed);
        assert_eq!(f.timeouts, 0, "{scheme}");
        assert_eq!(f.retransmits, 2, "{scheme}: exactly the two lost segments");
    }
}

#[test]
fn base_station_eln_needs_a_node_between() {
    let text = common::two_nodes("b", "scheme = \"e2e-eln\"\n[flows.tcp]\neln_generator = \"base_station\"");
    let e = lasthop_sim::Scenario::load(&text, lasthop_sim::Format::Toml, &[], "t").unwrap_err();
    assert_eq!(e.path, "flows[0].tcp.eln_generator");
}
