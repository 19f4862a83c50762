//! Issue 33: for the same seed and the same sequence of frames, a link's
//! error model makes the same decisions live as in the simulator.
//!
//! The frames are a recorded sequence: what host `a` sent in a live run of
//! `live/one-link` at 2 Mb/s (tests/data/frames-one-link-2mbps.txt, made
//! by tests/data/frames_from_pcap.py from the run's `--pcap`; headers and
//! sizes kept, payloads refilled with zeros). Each is replayed twice:
//!
//! - live: through [`Network`], the relay's network (no kernel needed: the
//!   frames are injected at their recorded times and the network's events
//!   run as the live loop runs them); a frame the error model destroys is
//!   the one that never reaches host `b`;
//! - simulated: through the simulator's decision for a frame on a link
//!   direction (`lasthop_net`'s [`ErrorModel`] on the direction's stream,
//!   `link:<name>:<dir>:error`, as `lasthop_sim::world::push_link` makes
//!   it), asked when the frame's transmission starts, with its
//!   transmission time: a serializer, frame after frame.
//!
//! For count-based (Bernoulli, Markov, two-state in packets) and
//! byte-based (exponential bytes, frame error rate by size) models the two
//! sets of destroyed frames must be the same, and not empty.

use lasthop_core::rng::RngStream;
use lasthop_core::{NodeId, Time};
use lasthop_live::flowmap::{FlowMap, StoreLimits};
use lasthop_live::relay::Network;
use lasthop_live::wire;
use lasthop_net::error::ErrorModel;
use lasthop_sim::scenario::model::Model;
use lasthop_sim::{Format, Scenario};
use std::collections::BTreeSet;

const FRAMES: &str = include_str!("data/frames-one-link-2mbps.txt");

/// (time, wire bytes) of each recorded frame.
fn frames() -> Vec<(u64, Vec<u8>)> {
    FRAMES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            let t: u64 = it.next().expect("t").parse().expect("t_ns");
            let total: usize = it.next().expect("len").parse().expect("total length");
            let hex = it.next().expect("headers");
            let mut b: Vec<u8> =
                (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex")).collect();
            b.resize(total, 0);
            wire::fix_checksums(&mut b).expect("a recorded IPv4/TCP packet");
            (t, b)
        })
        .collect()
}

fn model(error: &str) -> Model {
    let text = format!(
        r#"
name = "same-decisions"
stop_s = 30.0
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
name = "link"
a = "a"
b = "b"
bandwidth_bps = 2e6
delay_ms = 1.0
queue_packets = 1000
error = {error}
[[flows]]
name = "bulk"
from = "a"
to = "b"
bytes = 1000000
[flows.tcp]
mss_bytes = 1448
header_bytes = 52
"#
    );
    Scenario::load(&text, Format::Toml, &[], "same-decisions").expect("loads").model
}

fn ip_id(b: &[u8]) -> u16 {
    u16::from_be_bytes([b[4], b[5]])
}

fn flow_map(model: &Model) -> FlowMap {
    let hosts: Vec<([u8; 4], NodeId)> = vec![([10, 77, 0, 1], 0), ([10, 77, 0, 2], 1)];
    FlowMap::new(hosts, model.flows.iter().map(|f| (f.from, f.to)).collect(), StoreLimits::default())
}

/// The IP ids of the frames live mode's network destroyed.
fn live_decisions(model: &Model, seed: u64, frames: &[(u64, Vec<u8>)]) -> BTreeSet<u16> {
    let mut net = Network::new(model, seed, &[0, 1], Vec::new(), flow_map(model));
    let mut delivered = BTreeSet::new();
    for (t, b) in frames {
        net.run_until(Time(*t));
        net.take_deliveries(|_, w| {
            delivered.insert(ip_id(w));
        });
        net.inject(Time(*t), 0, b);
    }
    net.run_until(Time(u64::MAX - 1));
    net.take_deliveries(|_, w| {
        delivered.insert(ip_id(w));
    });
    assert_eq!((net.stats.queue_drops, net.stats.unroutable), (0, 0), "every frame crossed the link");
    assert_eq!(net.stats.delivered + net.stats.corrupted, frames.len() as u64);
    frames.iter().map(|(_, b)| ip_id(b)).filter(|id| !delivered.contains(id)).collect()
}

/// The IP ids of the frames the simulator's error model destroys on the
/// same link direction, frames sent one after another as its link sends
/// them.
fn sim_decisions(model: &Model, seed: u64, frames: &[(u64, Vec<u8>)]) -> BTreeSet<u16> {
    let l = &model.links[0];
    let d = &l.dirs[0];
    let mut em =
        ErrorModel::new(&d.error, || RngStream::new(seed, &format!("link:{}:{}:error", l.name, model.dir_name(0, 0))));
    let mut map = flow_map(model);
    let mut free_at = 0u64;
    let mut lost = BTreeSet::new();
    for (i, (t, b)) in frames.iter().enumerate() {
        let pkt = map.to_model(i as u64 + 1, b).expect("maps").pkt;
        let start = (*t).max(free_at);
        let tx = d.params.tx_time_ns(pkt.size_bytes);
        if em.corrupts(Time(start), tx, &pkt) {
            lost.insert(ip_id(b));
        }
        free_at = start + tx;
    }
    lost
}

#[test]
fn the_error_model_destroys_the_same_frames_live_and_simulated() {
    let frames = frames();
    assert!(frames.len() > 300, "the recording has {} frames", frames.len());
    let ids: BTreeSet<u16> = frames.iter().map(|(_, b)| ip_id(b)).collect();
    assert_eq!(ids.len(), frames.len(), "IP ids name the frames");
    let models = [
        ("exponential bytes", r#"{ model = "exponential_bytes", mean_bytes = 20000 }"#),
        ("frame error rate", r#"{ model = "frame_error_rate", fer = 0.1, reference_bytes = 1500 }"#),
        ("bernoulli", r#"{ model = "bernoulli", p = 0.05 }"#),
        ("markov", r#"{ model = "markov", p_gb = 0.05, p_bb = 0.5 }"#),
        ("two-state in packets", r#"{ model = "two_state", good_mean = 20, bad_mean = 2 }"#),
    ];
    for (name, error) in models {
        let m = model(error);
        for seed in [1, 2, 3] {
            let live = live_decisions(&m, seed, &frames);
            let sim = sim_decisions(&m, seed, &frames);
            eprintln!("{name}, seed {seed}: {} of {} frames destroyed", live.len(), frames.len());
            assert!(!live.is_empty(), "{name}: some frames destroyed");
            assert_eq!(live, sim, "{name}, seed {seed}: the same frames");
        }
        // Another seed destroys other frames.
        assert_ne!(live_decisions(&m, 1, &frames), live_decisions(&m, 2, &frames), "{name}: seeds differ");
    }
}
