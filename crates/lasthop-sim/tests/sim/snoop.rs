//! The snoop family (seed 000 Sec. III-B) through the whole simulator: Fig.
//! 1's loss situation on the 1997 LAN testbed, and Table II's orderings.
//! Every run goes through `lasthop_sim::run`, which checks the invariants
//! (packet conservation with local retransmissions created at the base
//! station and suppressed duplicates absorbed there, in-order exactly-once
//! delivery, monotonic time).

use crate::common;
use common::{lan97_with_drops, load, mean, run_embedded, run_text};
use lasthop_sim::metrics::FlowSummary;
use lasthop_sim::RunSummary;

/// Two consecutive 1400-byte segments dropped on bs->mh, once each, well
/// after slow start has opened the window.
const FIG1_DROPS: &str = r#"{ model = "list", seqs = [28000, 29400] }"#;

fn fig1(scheme: &str, socket_buffer_bytes: u32) -> RunSummary {
    let sets = [format!("scheme={scheme}"), format!("socket_buffer_bytes={socket_buffer_bytes}")];
    let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
    let r = run_text(&lan97_with_drops(FIG1_DROPS), &sets, 1);
    assert!(r.flows[0].completed, "{scheme}: transfer incomplete");
    let wireless = r.links.iter().find(|l| l.direction == "bs->mh").unwrap();
    assert_eq!(wireless.drops_error, 2, "exactly Fig. 1's two losses");
    r
}

#[test]
fn fig1_window_of_five_tcp_aware_shields_the_source() {
    // Seed 000 Fig. 1: a window of five (a 7000-byte socket buffer: five
    // 1400-byte segments), the first two lost on the wireless hop.
    // t0: the three segments behind the losses reach the mobile host, each
    //     causing a duplicate ack;
    // t1: snoop forwards the first duplicate, resends the first lost segment
    //     on the second (Sec. IV-E) and absorbs the rest; the new ack that
    //     follows still falls short of the one expected (the second loss):
    //     resent at once.
    let aware = fig1("ll-tcp-aware", 7000);
    let f: &FlowSummary = &aware.flows[0];
    assert_eq!(f.dupacks_at_source, 1, "only the first duplicate ack reaches the source");
    assert!(f.dupacks_suppressed > 0);
    assert_eq!((f.fast_retransmits, f.retransmits, f.timeouts), (0, 0, 0), "the source never retransmits");
    assert_eq!(f.local_retransmits, 2, "the base station resends both losses");
    // LL: the duplicates go through, and with them the race of Sec. IV-B:
    // the base station resends the first loss, and the source, seeing three
    // duplicates of the second, fast-retransmits it (under 4.4BSD's header
    // prediction, whose inflated window lets it send on; without it, snoop's
    // local timer resends the second loss first).
    let ll = fig1("ll", 7000);
    let f = &ll.flows[0];
    assert!(f.dupacks_at_source >= 3, "LL forwards the duplicates: {f:?}");
    assert_eq!(f.dupacks_suppressed, 0);
    assert!(f.local_retransmits >= 1 && f.local_retransmits + f.retransmits >= 2, "{f:?}");
}

#[test]
fn fig1_losses_in_a_larger_window_ll_makes_the_source_retransmit_too() {
    // The same two losses with the 32 KB socket buffer: enough segments are
    // in transit behind them "to create more than three duplicate
    // acknowledgments" (seed 000 Sec. IV-B). Under LL they reach the source,
    // which fast-retransmits what the base station already resent; snoop
    // absorbs them.
    let ll = &fig1("ll", 32768).flows[0];
    assert!(ll.dupacks_at_source >= 3, "{ll:?}");
    assert!(ll.fast_retransmits > 0 && ll.retransmits > 0, "{ll:?}");
    assert!(ll.local_retransmits > 0, "both the source and the base station retransmit");
    // Snoop lets the first duplicate through (Sec. IV-E, ns-2's RTX_THRESH);
    // SMART's echo proves the loss on the first one, so none goes through.
    for (scheme, first_dup) in [("ll-tcp-aware", 1), ("ll-smart-tcp-aware", 0)] {
        let f = &fig1(scheme, 32768).flows[0];
        let seen = (f.dupacks_at_source, f.fast_retransmits, f.retransmits);
        assert_eq!(seen, (first_dup, 0, 0), "{scheme}: {f:?}");
        assert_eq!(f.local_retransmits, 2, "{scheme}");
    }
    // LL-SMART resends selectively but lets the duplicates through.
    let f = &fig1("ll-smart", 32768).flows[0];
    assert!(f.dupacks_at_source > 0 && f.local_retransmits == 2, "{f:?}");
}

struct Cell {
    mbps: f64,
    wireless_goodput: f64,
    wired_goodput: f64,
    source_retransmits: f64,
    local_retransmits: f64,
}

fn cell(setting: &str, scheme: &str) -> Cell {
    // "lan-8k": the LAN testbed with 8 KB socket buffers (Table II's first row).
    let (name, buffer) = match setting {
        "lan-8k" => ("lan", "socket_buffer_bytes=8192"),
        s => (s, "socket_buffer_bytes=32768"),
    };
    let runs: Vec<_> = (1..=10)
        .map(|seed| run_embedded(&format!("balakrishnan97/{name}"), &[&format!("scheme={scheme}"), buffer], seed))
        .collect();
    let goodput = |dir: &str| {
        mean(runs.iter().map(|r| r.links.iter().find(|l| l.direction == dir).unwrap().goodput.unwrap() * 100.0))
    };
    assert!(runs.iter().all(|r| r.flows[0].completed), "{setting} {scheme}");
    Cell {
        mbps: mean(runs.iter().map(|r| r.flows[0].throughput_bps / 1e6)),
        wireless_goodput: goodput("bs->mh"),
        wired_goodput: goodput("fh->bs"),
        source_retransmits: mean(runs.iter().map(|r| r.flows[0].retransmits as f64)),
        local_retransmits: mean(runs.iter().map(|r| r.flows[0].local_retransmits as f64)),
    }
}

/// Seed 000 Table II at one error per 64 KB: LAN with 8 KB and 32 KB socket
/// buffers, WAN with 32 KB. Published (Mb/s): LL 1.20, 1.20, 0.82;
/// LL-TCP-AWARE 1.29, 1.36, 1.19; LL-SMART 1.29, 1.29, 0.93;
/// LL-SMART-TCP-AWARE 1.37, 1.39, 1.22.
#[test]
fn table2_orderings() {
    let schemes = ["ll", "ll-tcp-aware", "ll-smart", "ll-smart-tcp-aware"];
    let mut t = std::collections::BTreeMap::new();
    for setting in ["lan-8k", "lan", "wan"] {
        for scheme in schemes {
            let c = cell(setting, scheme);
            eprintln!(
                "{setting} {scheme}: {:.3} ({:.1}, {:.1}); source retransmits {:.1}, local {:.1}",
                c.mbps, c.wireless_goodput, c.wired_goodput, c.source_retransmits, c.local_retransmits
            );
            t.insert((setting, scheme), c);
        }
    }
    let m = |s, k| t[&(s, k)].mbps;
    for s in ["lan-8k", "lan", "wan"] {
        assert!(m(s, "ll-smart-tcp-aware") >= m(s, "ll-tcp-aware"), "{s}");
        assert!(m(s, "ll-tcp-aware") > m(s, "ll"), "{s}");
        for k in ["ll-tcp-aware", "ll-smart-tcp-aware"] {
            assert!(t[&(s, k)].wired_goodput >= 99.5, "{s} {k}: wired goodput {}", t[&(s, k)].wired_goodput);
        }
        // LL's wireless goodput below LL-TCP-AWARE's: the source's
        // retransmissions cross the wireless link again.
        assert!(t[&(s, "ll")].wireless_goodput < t[&(s, "ll-tcp-aware")].wireless_goodput, "{s}");
        // Under LL lost packets are retransmitted by both the source and the base station.
        assert!(t[&(s, "ll")].source_retransmits > 0.0 && t[&(s, "ll")].local_retransmits > 0.0, "{s}");
    }
    // The TCP-aware gain over LL is larger on WAN than on LAN (Sec. IV-B:
    // about 10% on LAN, about 30% on WAN).
    assert!(m("wan", "ll-tcp-aware") / m("wan", "ll") > m("lan", "ll-tcp-aware") / m("lan", "ll"));
}

#[test]
fn a_link_layer_scheme_needs_a_base_station() {
    let text = common::two_nodes("b", "scheme = \"ll-tcp-aware\"");
    let e = lasthop_sim::Scenario::load(&text, lasthop_sim::Format::Toml, &[], "s.toml").expect_err("no base station");
    assert!(e.to_string().contains("flows[0].scheme"), "{e}");
}

#[test]
fn snoop_runs_repeat_bit_for_bit() {
    for scheme in ["ll", "ll-tcp-aware", "ll-smart", "ll-smart-tcp-aware"] {
        let a = run_embedded("balakrishnan97/wan", &[&format!("scheme={scheme}")], 7);
        let b = run_embedded("balakrishnan97/wan", &[&format!("scheme={scheme}")], 7);
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap(), "{scheme}");
    }
}

#[test]
fn local_retransmissions_appear_in_the_trace_with_their_cause() {
    // Issue 10 (Figs. 4 and 5 mark the base station's local retransmissions):
    // Fig. 1's two losses under LL-TCP-AWARE; both resends are traced at the
    // base station, caused by duplicate acks (the second) and the burst rule.
    let sc = load(&lan97_with_drops(FIG1_DROPS), &["scheme=ll-tcp-aware", "socket_buffer_bytes=7000"]);
    let out = lasthop_sim::run(&sc, 1, true).unwrap_or_else(|e| panic!("{e}"));
    let r = &out.trace.local_rexmits;
    assert_eq!(r.seq, [28000, 29400]);
    assert_eq!(r.len, [1400, 1400]);
    assert_eq!(r.timer, [false, false], "duplicate acks, not the timer");
    assert!(r.node.iter().all(|&n| out.node_names[n as usize] == "bs"), "{:?}", out.node_names);
    assert!(r.time_ns[0] < r.time_ns[1]);
    assert_eq!(r.seq.len() as u64, out.summary.flows[0].local_retransmits);
    // Without tracing nothing is recorded.
    let quiet = lasthop_sim::run(&sc, 1, false).unwrap_or_else(|e| panic!("{e}"));
    assert!(quiet.trace.local_rexmits.time_ns.is_empty());
}
