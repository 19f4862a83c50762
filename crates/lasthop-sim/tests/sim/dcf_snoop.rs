//! Issue 13: seed 004's Snoop over the 802.11b DCF medium
//! (scenarios/yun09/downlink.toml and uplink.toml, `protocol=snoop`): the
//! snoop agent (seed 000's LL-TCP-AWARE behind a NewReno source, Sec. 5.1)
//! at the access point downlink and at the sending station uplink (Sec. 5.2:
//! "the Snoop agent is at the wireless station by symmetric operation").
//! Every run goes through `lasthop_sim::run`, which checks the invariants at
//! its end (packet conservation with the MAC's frames counted).

use crate::common;
use common::{load, mean, run_embedded};
use lasthop_sim::metrics::DcfSummary;
use lasthop_sim::{embedded, run, Format, RunOutput, RunSummary, Scenario};

fn station<'a>(s: &'a RunSummary, node: &str) -> &'a DcfSummary {
    s.media[0].stations.iter().find(|st| st.node == node).expect("a station on the medium")
}

fn traced(name: &str, sets: &[&str], seed: u64) -> RunOutput {
    run(&load(embedded::get(name).unwrap(), sets), seed, true).unwrap_or_else(|e| panic!("{e}"))
}

fn node(out: &RunOutput, name: &str) -> u32 {
    out.node_names.iter().position(|n| n == name).unwrap() as u32
}

/// A station's frames: each one handed to it was delivered to its peer,
/// refused or purged by its queue, discarded at the retry limit, or is
/// still queued (at most its 50-packet queue and the frame on the air).
fn frames_accounted(from: &DcfSummary, to: &DcfSummary) {
    let ended = to.delivered_up + from.drops_queue + from.drops_filtered + from.drops_retry_limit;
    assert!(ended <= from.frames_enqueued && from.frames_enqueued - ended <= 51, "{from:?} {to:?}");
}

#[test]
fn downlink_snoop_retransmits_at_the_access_point_through_its_station_queue() {
    // FER 3 %, l = 1: each spoiled or collided data frame is discarded by
    // the AP's MAC at once; the agent sees the station's duplicate acks and
    // resends the segment into the AP's station queue.
    let out = traced("yun09/downlink", &["protocol=snoop", "fer=0.03"], 1);
    let (s, f) = (&out.summary, &out.summary.flows[0]);
    let (ap, d) = (station(s, "ap"), station(s, "d"));
    assert!(f.local_retransmits > 0 && f.dupacks_suppressed > 0, "{f:?}");
    let lr = &out.trace.local_rexmits;
    assert_eq!(lr.node.len() as u64, f.local_retransmits);
    assert!(lr.node.iter().all(|&n| n == node(&out, "ap")), "every local retransmission leaves the AP");
    // Its timer runs on the medium's clock too: a segment lost with nothing
    // behind it to raise duplicates is resent when it expires.
    let by_timer = lr.timer.iter().filter(|&&t| t).count();
    assert!(by_timer > 0 && by_timer < lr.timer.len() / 2, "{by_timer} of {}", lr.timer.len());
    // The AP's queue holds data only (the station's acks go the other way):
    // what came in from the wire plus the agent's retransmissions. Data
    // still on the two wired hops when the run ends never got there (at
    // most their queues and what propagates).
    let sent = out.trace.sent.seq.len() as u64;
    let wired_drops = (0..out.trace.drops.flow.len())
        .filter(|&i| {
            out.trace.drops.is_data[i] && out.link_dir_names[out.trace.drops.link_dir[i] as usize].starts_with("wired")
        })
        .count() as u64;
    let from_wire = ap.frames_enqueued - f.local_retransmits;
    assert!(from_wire <= sent - wired_drops && sent - wired_drops - from_wire <= 2 * 50 + 30, "{from_wire} {sent}");
    frames_accounted(ap, d);
    frames_accounted(d, ap);
    // Losses the agent repairs never reach the source as three duplicates:
    // far fewer fast retransmits than MAC discards, and source timeouts
    // (ns-2's 200 ms minimum RTO) rarer still.
    assert!(f.fast_retransmits * 4 < ap.drops_retry_limit, "{f:?} {ap:?}");
    assert!(f.timeouts * 100 < ap.drops_retry_limit, "{f:?} {ap:?}");
}

#[test]
fn downlink_snoop_beats_newreno_alone_at_3_percent_fer() {
    // 40 s runs, seeds 1-10 (the full 200 s figures are in the report).
    let g = |p: &str| {
        let sets = [format!("protocol={p}"), "fer=0.03".into(), "stop_s=40".into()];
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        (1..=10).map(|seed| run_embedded("yun09/downlink", &sets, seed).flows[0].throughput_bps).collect::<Vec<_>>()
    };
    let (snoop, newreno) = (g("snoop"), g("newreno"));
    for (seed, (s, n)) in snoop.iter().zip(&newreno).enumerate() {
        assert!(s > n, "seed {}: snoop {s} <= newreno {n}", seed + 1);
    }
    assert!(mean(snoop.iter().copied()) > 3.0 * mean(newreno.iter().copied()), "{snoop:?} {newreno:?}");
}

#[test]
fn uplink_snoop_sits_on_the_sending_station_and_sees_its_segments() {
    let out = traced("yun09/uplink", &["protocol=snoop", "fer=0.03"], 1);
    let (s, f) = (&out.summary, &out.summary.flows[0]);
    let (ap, d) = (station(s, "ap"), station(s, "d"));
    assert!(f.local_retransmits > 0 && f.dupacks_suppressed > 0, "{f:?}");
    let lr = &out.trace.local_rexmits;
    assert_eq!(lr.node.len() as u64, f.local_retransmits, "each leaves before the sender answers the ack");
    assert!(lr.node.iter().all(|&n| n == node(&out, "d")), "every local retransmission leaves the station");
    assert!(lr.timer.iter().any(|&t| t), "its timer fires too");
    // The station's queue holds its sender's segments and the agent's
    // retransmissions, nothing else: exactly.
    assert_eq!(d.frames_enqueued, out.trace.sent.seq.len() as u64 + f.local_retransmits, "{d:?}");
    frames_accounted(d, ap);
    frames_accounted(ap, d);
    // The suppressed duplicates never reach the station's own sender,
    // which still completes its recovery: a timeout per hundred discards
    // at most.
    assert!(f.fast_retransmits * 4 < d.drops_retry_limit, "{f:?} {d:?}");
    assert!(f.timeouts * 100 < d.drops_retry_limit, "{f:?} {d:?}");
    // The agent on the sender's node caches what it sends: without it the
    // same flow recovers end to end only.
    let plain = run_embedded("yun09/uplink", &["protocol=newreno", "fer=0.03"], 1);
    assert_eq!(plain.flows[0].local_retransmits, 0);
    assert!(f.throughput_bps > plain.flows[0].throughput_bps);
}

#[test]
fn same_seed_same_bytes() {
    for name in ["yun09/downlink", "yun09/uplink"] {
        let sets = ["protocol=snoop", "fer=0.01", "retry_limit=2", "stop_s=20"];
        let a = serde_json::to_string(&run_embedded(name, &sets, 3)).unwrap();
        assert_eq!(a, serde_json::to_string(&run_embedded(name, &sets, 3)).unwrap(), "{name}");
        assert_ne!(a, serde_json::to_string(&run_embedded(name, &sets, 4)).unwrap(), "{name}");
    }
}

#[test]
fn uplink_ll_elsn_notices_the_station_sender_directly() {
    // The station's MAC calls its own TCP (Sec. 3.1): one ELN per discarded
    // data frame, with no ELSN packet on the air or the wire.
    let s = run_embedded("yun09/uplink", &["protocol=ll-elsn", "fer=0.03"], 1);
    let l = s.flows[0].ll_elsn.as_ref().expect("an LL-ELSN sender");
    let d = station(&s, "d");
    assert_eq!(l.elns_received, d.drops_retry_limit, "{l:?} {d:?}");
    assert_eq!(l.ersns_received, 0, "l = 1");
}

#[test]
fn snoop_on_a_flow_with_no_wireless_hop_is_refused() {
    let err = |name: &str, sets: &[&str]| {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Scenario::load(embedded::get(name).unwrap(), Format::Toml, &sets, "t").expect_err("must be rejected")
    };
    // A flow between the wired host and the access point crosses no medium.
    let e = err("yun09/downlink", &["protocol=snoop", "flows.0.to=\"ap\""]);
    assert_eq!(e.path, "flows[0].scheme", "{e}");
    assert!(e.reason.contains("crosses no medium"), "{e}");
    assert_eq!(e.to_string().lines().count(), 1, "{e}");
    // Seed 000's point-to-point model keeps its rule: a one-hop path has no
    // base station.
    let text = common::two_nodes("b", "scheme = \"snoop\"");
    let e = Scenario::load(&text, Format::Toml, &[], "t").expect_err("no base station");
    assert_eq!(e.path, "flows[0].scheme", "{e}");
    assert!(e.reason.contains("base station"), "{e}");
}
