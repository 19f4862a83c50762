//! The packet-radio medium in whole runs (seed 001 Secs. 5, 7.2, 7.3):
//! frames and packets conserved, half duplex on the air, the radios'
//! counters in the summary, flows that follow others, and bad input.

use crate::common;
use common::run_embedded;
use lasthop_net::mac::radio::{FrameClass, Heard};
use lasthop_sim::{embedded, Format, Scenario, ScenarioError};

fn chain(protocol: &str, hops: u32, seed: u64) -> lasthop_sim::RunSummary {
    run_embedded("balakrishnan99/radio-chain", &[&format!("protocol=\"{protocol}\""), &format!("hops={hops}")], seed)
}

#[test]
fn every_radio_chain_conserves_packets_and_reports_its_radios() {
    // Invariants (packets conserved, the MAC's frames included; bytes in
    // order) are checked by every run: a violation fails `run`.
    for hops in 1..=4 {
        for protocol in ["reno", "acc", "af"] {
            let s = chain(protocol, hops, 3);
            assert_eq!(s.media.len(), 1);
            let radios = &s.media[0].radios;
            assert_eq!(radios.len(), hops as usize + 1, "a radio per station: gw, relays, mh");
            assert_eq!(radios[0].node, "gw");
            assert_eq!(radios.last().unwrap().node, "mh");
            let f = &s.flows[0];
            assert!(f.bytes_delivered > 0, "{protocol} over {hops} hops delivers");
            assert!(f.rtt_std_ms.unwrap() > 0.0);
            for r in radios {
                // Every data frame pays its turnarounds (AS-44).
                assert!(r.turnaround_s > 0.0 && r.airtime_s > 0.0, "{protocol}/{hops}: {r:?}");
                assert!(r.data_frames_sent >= r.frames_delivered_up.min(1));
            }
            if protocol == "af" {
                let filtered: u64 = radios.iter().map(|r| r.drops_filtered).sum();
                let reno = chain("reno", hops, 3);
                let reno_filtered: u64 = reno.media[0].radios.iter().map(|r| r.drops_filtered).sum();
                assert_eq!(reno_filtered, 0, "no filter without AF");
                let _ = filtered;
            }
            // A hop's link summary counts what its radios put on the air.
            let hop = s.links.iter().find(|l| l.direction == "gw->".to_string() + if hops == 1 { "mh" } else { "pt1" });
            assert!(hop.is_some_and(|l| l.packets_sent > 0), "{:?}", s.links);
        }
    }
}

#[test]
fn in_a_whole_run_no_radio_transmits_while_receiving() {
    // AS-44 on a three-hop chain with competing data and acks: for each
    // radio, no frame it put on the air overlaps a frame it received intact.
    let text = embedded::get("balakrishnan99/radio-chain").unwrap();
    let sets = vec!["hops=3".to_string(), "stop_s=30".to_string()];
    let sc = Scenario::load(text, Format::Toml, &sets, "radio-chain").unwrap();
    let mut w = lasthop_sim::world::World::new(&sc.model, 5, false).with_air_logs();
    w.run();
    w.check_invariants().unwrap();
    let (log, stations) = w.air_log(0);
    assert!(log.len() > 500, "{} frames", log.len());
    let classes = |c: FrameClass| log.iter().filter(|a| a.class == c).count();
    assert!(classes(FrameClass::Rts) > 0 && classes(FrameClass::Cts) > 0 && classes(FrameClass::DataAck) > 0);
    for s in 0..stations.len() as u16 {
        let sent: Vec<_> = log.iter().filter(|a| a.from == s).collect();
        let heard: Vec<_> = log.iter().filter(|a| a.to == s && a.heard == Heard::Intact).collect();
        for tx in &sent {
            for rx in &heard {
                let overlap = tx.tx_start < rx.tx_end && rx.tx_start < tx.tx_end;
                assert!(!overlap, "radio {s} sent {tx:?} while receiving {rx:?}");
            }
        }
    }
}

#[test]
fn many_connections_share_the_radios_and_report_fairness() {
    let s = run_embedded("balakrishnan99/radio-many", &["connections=4"], 2);
    assert_eq!(s.flows.len(), 4);
    assert_eq!(s.flows[3].name, "bulk#3");
    let starts: Vec<f64> = s.flows.iter().map(|f| f.start_s).collect();
    assert!(starts.iter().all(|&t| (0.0..=5.0).contains(&t)));
    assert!(starts.windows(2).any(|w| w[0] != w[1]), "each copy draws its own start: {starts:?}");
    let j = s.jain_index.expect("four overlapping flows");
    assert!((0.25..=1.0).contains(&j), "{j}");
}

#[test]
fn web_replies_start_when_their_request_completes() {
    let s = run_embedded("balakrishnan99/web", &["hosts=3"], 4);
    assert_eq!(s.flows.len(), 3 * 5);
    for h in 0..3 {
        let req = s.flows.iter().find(|f| f.name == format!("request#{h}")).unwrap();
        let done = req.connection.as_ref().unwrap().last_byte_acked_s.expect("the request completes");
        for k in 1..=4 {
            let r = s.flows.iter().find(|f| f.name == format!("reply{k}#{h}")).unwrap();
            assert!((r.start_s - done).abs() < 1e-9, "reply{k}#{h} starts {} at its request's end {done}", r.start_s);
            let c = r.connection.as_ref().unwrap();
            assert!(c.syn_sent_s >= done && c.completion_time_s.is_some());
            assert_eq!(r.bytes_delivered, 10240);
        }
    }
    // The return channel is the radio: its summary counts the acks.
    assert_eq!(s.media[0].name, "return");
    assert!(s.media[0].radios[0].frames_enqueued > 0);
}

fn err(name: &str, sets: &[&str]) -> ScenarioError {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let text = embedded::get(name).unwrap();
    let e = Scenario::load(text, Format::Toml, &sets, "s.toml").expect_err("must be rejected");
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    e
}

#[test]
fn bad_radio_input_gets_one_line_naming_the_field() {
    let e = err("balakrishnan99/radio-chain", &["hops=0"]);
    assert_eq!((e.path.as_str(), e.reason.contains("at least one wireless hop")), ("topology.hops", true), "{e}");
    let e = err("balakrishnan99/radio-chain", &["topology.radio.tx_rx_ms=-1"]);
    assert_eq!(e.path, "topology.radio.tx_rx_ms", "{e}");
    let e = err("balakrishnan99/radio-chain", &["topology.radio.rx_tx_ms=-0.5"]);
    assert_eq!(e.path, "topology.radio.rx_tx_ms", "{e}");
    let e = err("balakrishnan99/radio-chain", &["topology.radio.queue_packets=0"]);
    assert_eq!(e.path, "topology.radio.queue_packets", "{e}");
    let e = err("balakrishnan99/radio-chain", &["topology.radio.queue={discipline=\"acks_first\"}"]);
    assert_eq!(e.path, "topology.radio.queue.discipline", "{e}");
    // A link direction on a medium whose end has no radio on it.
    let e = err("balakrishnan99/web", &["media.0.stations=[\"r2\", \"client\"]"]);
    assert_eq!(e.path, "topology.cable.ba.medium", "{e}");
    assert!(e.reason.contains("node 'r1' has no radio on medium 'return'"), "{e}");
    // A hop naming a node that has no radio on the medium.
    let e = err("balakrishnan99/web", &["media.0.hops=[[\"r2\", \"server\"]]"]);
    assert_eq!(e.path, "media[0].hops[0]", "{e}");
    assert!(e.reason.contains("has no radio"), "{e}");
    let e = err("balakrishnan99/web", &["media.0.stations=[\"r2\"]"]);
    assert_eq!(e.path, "media[0].stations", "{e}");
    let e = err("balakrishnan99/web", &["topology.cable.ba.medium=\"nope\""]);
    assert!(e.reason.contains("no medium named 'nope'"), "{e}");
    // A web benchmark with zero hosts.
    let e = err("balakrishnan99/web", &["hosts=0"]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("flows[0].copies", "must be at least 1"), "{e}");
    let e = err("balakrishnan99/web", &["flows.1.start_after=\"reply2\""]);
    assert!(e.reason.contains("no earlier flow named 'reply2'"), "{e}");
}

#[test]
fn a_mediums_error_model_spoils_the_radios_frames_and_the_link_arq_repairs_them() {
    // Seed 001's web benchmark, whose return channel is one radio hop:
    // with 20 % of every radio's frames spoiled, polls time out and data
    // frames are sent again; without an error model neither happens.
    let clean = common::run_embedded("balakrishnan99/web", &["hosts=2"], 1);
    let lossy =
        common::run_embedded("balakrishnan99/web", &["hosts=2", "media.0.error={ model = \"bernoulli\", p = 0.2 }"], 1);
    let sum = |s: &lasthop_sim::RunSummary, f: fn(&lasthop_sim::metrics::RadioSummary) -> u64| {
        s.media[0].radios.iter().map(f).sum::<u64>()
    };
    assert_eq!(sum(&clean, |r| r.link_retransmissions + r.poll_timeouts), 0);
    assert!(sum(&lossy, |r| r.link_retransmissions) > 0 && sum(&lossy, |r| r.poll_timeouts) > 0);
    // The ARQ retries without limit: every transfer still completes.
    assert!(lossy.flows.iter().all(|f| f.completed));
}
