//! Issue 13: seed 004's cell of n wired senders and n 802.11b stations (the
//! `wlan_cell` template, scenarios/yun09/cell.toml), and the per-copy
//! endpoints of a flow (`{copy}`). Every run goes through
//! `lasthop_sim::run`, which checks the invariants at its end (packet
//! conservation with the MAC's frames counted).

use crate::common;
use common::{load, run_text};
use lasthop_sim::{Format, Scenario};

/// Two senders `s1`, `s2` behind a router `r`, two receivers `d1`, `d2`;
/// one flow of `copies` copies from `from` to `to`.
fn star(from: &str, to: &str, copies: u32) -> String {
    let mut text = String::from("name = \"star\"\n");
    for n in ["s1", "s2", "r", "d1", "d2"] {
        text += &format!("[[nodes]]\nname = \"{n}\"\n");
    }
    for (a, b) in [("s1", "r"), ("s2", "r"), ("r", "d1"), ("r", "d2")] {
        text += &format!("[[links]]\nname = \"{a}-{b}\"\na = \"{a}\"\nb = \"{b}\"\nbandwidth_bps = 1e6\n");
    }
    text + &format!("[[flows]]\nname = \"f\"\nfrom = \"{from}\"\nto = \"{to}\"\nbytes = 20000\ncopies = {copies}\n")
}

fn load_err(text: &str, sets: &[&str]) -> lasthop_sim::ScenarioError {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Scenario::load(text, Format::Toml, &sets, "t").expect_err("must be rejected")
}

#[test]
fn copy_token_gives_each_copy_its_own_ends() {
    let sc = load(&star("s{copy}", "d{copy}", 2), &[]);
    let m = &sc.model;
    let ends: Vec<(&str, &str, &str)> = m
        .flows
        .iter()
        .map(|f| (f.name.as_str(), m.nodes[f.from as usize].as_str(), m.nodes[f.to as usize].as_str()))
        .collect();
    assert_eq!(ends, [("f#0", "s1", "d1"), ("f#1", "s2", "d2")]);
    // Each copy's data goes its own way: s_i -> r -> d_i.
    for (fi, f) in m.flows.iter().enumerate() {
        let last = m.paths[fi][0].last().unwrap();
        let l = &m.links[last.link as usize];
        assert_eq!(l.ends[1 - last.dir as usize], f.to);
    }
    let s = run_text(&star("s{copy}", "d{copy}", 2), &[], 1);
    assert!(s.flows.iter().all(|f| f.completed && f.bytes_delivered == 20000), "{:?}", s.flows);
    // One end may share: every copy from s1.
    let sc = load(&star("s1", "d{copy}", 2), &[]);
    assert_eq!(sc.model.flows.iter().map(|f| (f.from, f.to)).collect::<Vec<_>>(), [(0, 3), (0, 4)]);
}

#[test]
fn without_the_token_copies_share_their_ends() {
    let sc = load(&star("s2", "d1", 3), &[]);
    assert!(sc.model.flows.iter().all(|f| (f.from, f.to) == (1, 3)));
    // A name with braces that are not the token is a plain name.
    let e = load_err(&star("s{copies}", "d1", 2), &[]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("flows[0].from", "no node named 's{copies}'"));
}

#[test]
fn a_copy_whose_expanded_end_does_not_exist_is_named() {
    let e = load_err(&star("s{copy}", "d{copy}", 3), &[]);
    assert_eq!(e.path, "flows[0].from", "{e}");
    assert_eq!(e.reason, "no node named 's3' (copy 3 of 's{copy}')");
    let e = load_err(&star("s1", "x{copy}", 2), &[]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("flows[0].to", "no node named 'x1' (copy 1 of 'x{copy}')"));
    // A copy whose two ends expand to one node.
    let e = load_err(&star("s{copy}", "s{copy}", 1), &[]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("flows[0].to", "must differ from `from` (copy 1)"));
}

/// The `wlan_cell` template with `n` stations and one flow per station,
/// s_i -> d_i, of `bytes` each (`extra` is added to the topology table).
fn cell(n: u32, extra: &str, bytes: u64) -> String {
    format!(
        r#"
name = "cell"
stop_s = 60.0
[topology]
template = "wlan_cell"
stations = {n}
{extra}
[topology.wired]
bandwidth_bps = 10e6
delay_ms = 10.0
queue_packets = 50
[topology.dcf]
retry_limit = 2
[[flows]]
name = "bulk"
from = "s{{copy}}"
to = "d{{copy}}"
copies = {n}
bytes = {bytes}
[flows.tcp]
mss_bytes = 1000
socket_buffer_bytes = 1000000
"#
    )
}

#[test]
fn the_cell_template_names_its_nodes_links_and_hops() {
    let m = load(&cell(3, "", 10_000), &[]).model;
    assert_eq!(*m.nodes, ["s1", "s2", "s3", "r", "ap", "d1", "d2", "d3"]);
    let links: Vec<(&str, &str, &str)> = m
        .links
        .iter()
        .map(|l| (l.name.as_str(), m.nodes[l.ends[0] as usize].as_str(), m.nodes[l.ends[1] as usize].as_str()))
        .collect();
    assert_eq!(
        links,
        [
            ("wired1", "s1", "r"),
            ("wired2", "s2", "r"),
            ("wired3", "s3", "r"),
            ("backbone", "r", "ap"),
            ("wlan/ap-d1", "ap", "d1"),
            ("wlan/ap-d2", "ap", "d2"),
            ("wlan/ap-d3", "ap", "d3"),
        ]
    );
    assert_eq!(m.media.len(), 1);
    let w = &m.media[0];
    assert_eq!(w.name, "wlan");
    let stations: Vec<&str> = w.stations.iter().map(|&s| m.nodes[s as usize].as_str()).collect();
    assert_eq!(stations, ["ap", "d1", "d2", "d3"]);
    assert_eq!(w.dcf.expect("a DCF medium").retry_limit, 2);
    assert!(!w.ll_elsn);
    // Hops carried by the medium (station 0 is the AP); wired links not.
    for (i, l) in m.links[4..].iter().enumerate() {
        let hop = l.dirs[0].medium.expect("a hop of the medium");
        assert_eq!((hop.medium, hop.from, hop.to), (0, 0, i as u16 + 1));
    }
    assert!(m.links[..4].iter().all(|l| l.dirs.iter().all(|d| d.medium.is_none())));
    // The backbone is the wired link's twin unless given.
    assert_eq!(m.links[3].dirs[0].params, m.links[0].dirs[0].params);
    let m = load(&cell(1, "backbone = { bandwidth_bps = 100e6, delay_ms = 1.0 }", 10_000), &[]).model;
    assert_eq!(m.links[1].name, "backbone");
    assert_eq!(m.links[1].dirs[1].params.bandwidth_bps, 100_000_000);
    assert_eq!(m.links[0].dirs[1].params.bandwidth_bps, 10_000_000);
}

#[test]
fn background_adds_a_source_before_the_router_and_a_sink_behind_the_access_point() {
    let m = load(&cell(2, "background = true", 10_000), &[]).model;
    assert_eq!(*m.nodes, ["s1", "s2", "r", "ap", "d1", "d2", "bg", "bgsink"]);
    let names: Vec<&str> = m.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["wired1", "wired2", "backbone", "bg_access", "bg_egress", "wlan/ap-d1", "wlan/ap-d2"]);
    assert_eq!((m.links[3].ends, m.links[4].ends), ([6, 2], [3, 7]));
}

#[test]
fn cases_and_sets_reach_the_template_fields() {
    let m = load(&cell(2, "", 10_000), &["topology.ll_elsn=true", "topology.dcf.retry_limit=4"]).model;
    assert!(m.media[0].ll_elsn);
    assert_eq!(m.media[0].dcf.unwrap().retry_limit, 4);
}

#[test]
fn bad_cell_settings_name_the_field() {
    let err = |extra: &str, sets: &[&str]| load_err(&cell(2, extra, 10_000), sets);
    let e = err("", &["topology.stations=0"]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("topology.stations", "a cell needs at least one station"));
    let e = err("", &["topology.dcf.retry_limit=0"]);
    assert_eq!(e.path, "topology.dcf.retry_limit", "{e}");
    let e = err("error = { model = \"bernoulli\", p = 2.0 }", &[]);
    assert_eq!(e.path, "topology.error.p", "{e}");
    let e = err("", &["topology.ll_elsn=3"]);
    assert_eq!(e.path, "topology.ll_elsn", "{e}");
    let e = err("", &["topology.dcf.slot=9"]);
    assert_eq!(e.path, "topology.dcf.slot", "{e}");
    assert!(e.reason.contains("unknown field"), "{e}");
    let e = err("error = { model = \"markov\", p_gb = 0.1 }", &[]);
    assert_eq!(e.path, "topology.error", "{e}");
    let e = err("", &["topology.wired.name=\"x\""]);
    assert_eq!(e.path, "topology.wired.name", "{e}");
    let e = err("backbone = { bandwidth_bps = 0.0 }", &[]);
    assert_eq!(e.path, "topology.backbone.bandwidth_bps", "{e}");
    // The template's medium is `wlan`: a scenario's own may not take it.
    let text = cell(1, "", 10_000) + "[[media]]\nname = \"wlan\"\nstations = [\"s1\", \"r\"]\n";
    let e = load_err(&text, &[]);
    assert_eq!(e.path, "media", "{e}");
}

/// Delivered bytes of every flow of `text` with `sets`, the run stopped at `stop_s`.
fn delivered(text: &str, sets: &[&str], stop_s: f64) -> Vec<u64> {
    let stop = format!("stop_s={stop_s}");
    let sets: Vec<&str> = sets.iter().copied().chain([stop.as_str()]).collect();
    run_text(text, &sets, 3).flows.iter().map(|f| f.bytes_delivered).collect()
}

#[test]
fn an_outage_of_the_medium_stops_every_delivery_from_its_start() {
    // Seed 004 Fig. 16's disconnection: from 2 s every frame on the cell's
    // hops is lost. A frame that started before 2 s is on the air for
    // about 1 ms; nothing reaches a station after that.
    let text = cell(2, "error = { model = \"outage\", from_s = 2.0 }", 100_000_000);
    let at_3 = delivered(&text, &[], 3.0);
    assert!(at_3.iter().all(|&b| b > 100_000), "{at_3:?}");
    assert_eq!(delivered(&text, &[], 30.0), at_3, "no byte delivered after the outage began");
    // Every data frame either side sends from then on is spoiled and,
    // after its retry limit (2), discarded.
    let s = run_text(&text, &["stop_s=30"], 3);
    let before = run_text(&text, &["stop_s=2"], 3);
    // Frames on the air at 2 s have landed 1 ms later.
    let landed = run_text(&text, &["stop_s=2.001"], 3);
    for node in ["ap", "d1", "d2"] {
        let (a, b) = (station(&s, node), station(&before, node));
        assert_eq!(b.corrupted, 0, "{node}: nothing lost before the outage");
        assert_eq!(a.attempts - b.attempts, a.corrupted, "{node}: {a:?} {b:?}");
        let l = station(&landed, node);
        assert_eq!(a.delivered_up, l.delivered_up, "{node}: nothing handed up after it");
    }
    // The senders' timeouts keep the AP trying: each segment twice, then
    // discarded (a station whose acks went unanswered has nothing to send).
    let ap = station(&s, "ap");
    assert!(ap.corrupted >= 2, "{ap:?}");
    assert_eq!(ap.corrupted, 2 * (ap.drops_retry_limit - station(&landed, "ap").drops_retry_limit), "{ap:?}");
    // An outage that ends lets the flows go on.
    let text = cell(2, "error = { model = \"outage\", from_s = 2.0, until_s = 3.0 }", 100_000_000);
    let later = delivered(&text, &[], 30.0);
    assert!(later.iter().zip(&at_3).all(|(l, b)| l > b), "{later:?} {at_3:?}");
}

#[test]
fn an_outage_of_a_link_stops_every_delivery_from_its_start() {
    let text = common::path("reno", 1_000_000_000, r#"{ model = "outage", from_s = 1.0 }"#, 1);
    let at_2 = delivered(&text, &[], 2.0);
    assert!(at_2[0] > 100_000, "{at_2:?}");
    assert_eq!(delivered(&text, &[], 20.0), at_2);
    let bad = load_err(&text, &["topology.second.ab.error.until_s=0.5"]);
    assert_eq!(bad.path, "topology.second.ab.error.until_s", "{bad}");
    assert!(bad.reason.contains("> from_s"), "{bad}");
    let e = load_err(&cell(1, "error = { model = \"outage\", from_s = -1.0 }", 1000), &[]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("topology.error.from_s", "must be finite and >= 0"));
}

fn station<'a>(s: &'a lasthop_sim::RunSummary, node: &str) -> &'a lasthop_sim::metrics::DcfSummary {
    s.media[0].stations.iter().find(|st| st.node == node).expect("a station on the medium")
}

#[test]
fn the_cell_scenario_loads_in_every_case() {
    let text = lasthop_sim::embedded::get("yun09/cell").expect("registered");
    let m = load(text, &[]).model;
    assert_eq!(m.flows.len(), 10);
    assert_eq!((m.nodes.len(), m.links.len()), (22, 21), "s1..s10, r, ap, d1..d10; 10 wired, backbone, 10 hops");
    assert_eq!(m.media[0].dcf.unwrap().retry_limit, 1);
    let e = &m.links.last().unwrap().dirs[0].error;
    assert_eq!(*e, lasthop_net::error::ErrorModelConfig::default(), "a hop's link error is unused: the medium's");
    assert_eq!(
        m.media[0].error,
        lasthop_net::error::ErrorModelConfig::FrameErrorRate { fer: 0.01, reference_bytes: 1074 }
    );
    let m = load(text, &["channel=\"markov\"", "p_bb=0.5"]).model;
    assert_eq!(m.media[0].error, lasthop_net::error::ErrorModelConfig::Markov { p_gb: 0.01, p_bb: 0.5 });
    for protocol in ["reno", "newreno", "sack"] {
        let m = load(text, &[&format!("protocol=\"{protocol}\"")]).model;
        assert!(m.flows.iter().all(|f| format!("{:?}", f.sender.variant).to_lowercase() == protocol));
        assert!(!m.media[0].ll_elsn && m.flows.iter().all(|f| f.ll_elsn.is_none()));
    }
    let m = load(text, &["protocol=\"ll-elsn\"", "n=3"]).model;
    assert!(m.media[0].ll_elsn && m.flows.len() == 3 && m.flows.iter().all(|f| f.ll_elsn.is_some()));
    // The background case adds its nodes and a Pareto flow beside the n TCP flows.
    let m = load(text, &["background=\"pareto\"", "n=2", "protocol=\"sack\""]).model;
    assert_eq!(m.flows.len(), 3);
    let bg = &m.flows[2];
    assert_eq!((m.nodes[bg.from as usize].as_str(), m.nodes[bg.to as usize].as_str()), ("bg", "bgsink"));
    let p = bg.pareto.expect("a Pareto source");
    assert_eq!((p.rate_bps, p.shape, p.burst_s, p.idle_s, p.packet_bytes), (8e6, 2.0, 0.5, 0.5, 1000));
    assert!(m.flows[..2].iter().all(|f| f.pareto.is_none() && format!("{:?}", f.sender.variant) == "Sack"));
}

#[test]
fn ten_flows_each_reach_their_own_station_and_the_stations_counts_agree() {
    // yun09/cell as written (10 Reno flows, 1 % FER, one attempt per
    // frame), 20 s of it.
    let s = common::run_embedded("yun09/cell", &["stop_s=20"], 1);
    assert_eq!(s.flows.len(), 10);
    let ap = station(&s, "ap");
    let mut data_up = 0;
    let (mut acks_sent, mut acks_lost) = (0, 0);
    for (i, f) in s.flows.iter().enumerate() {
        let d = station(&s, &format!("d{}", i + 1));
        // Only flow i's segments reach d_i: each of its bytes came in one
        // of the station's frames (1000-byte segments).
        assert!(f.bytes_delivered > 200_000, "{}: {}", f.name, f.bytes_delivered);
        assert!(d.delivered_up * 1000 >= f.bytes_delivered, "{d:?} {}", f.bytes_delivered);
        assert!(d.delivered_up * 1000 <= f.bytes_delivered + 60 * 1000, "at most a window beyond: {d:?}");
        // l = 1: each of the station's TCP acks gets one attempt, then is
        // delivered or discarded; at most the queue's 50 are left.
        assert_eq!(d.retries, 0);
        assert!(d.drops_retry_limit <= d.collisions + d.corrupted, "{d:?}");
        let waiting = d.frames_enqueued - d.drops_queue - d.attempts;
        assert!(waiting <= 50, "{d:?}");
        data_up += d.delivered_up;
        acks_sent += d.attempts;
        acks_lost += d.drops_retry_limit;
    }
    // The AP's frames: every attempt is a segment handed up at a station or
    // one discarded (one may still be on the air when the run stops).
    assert_eq!(ap.retries, 0);
    assert!((0..=1).contains(&(ap.attempts - data_up - ap.drops_retry_limit)), "{ap:?} {data_up}");
    // The stations' acks the AP handed up, likewise.
    assert!((0..=1).contains(&(acks_sent - acks_lost - ap.delivered_up)), "{ap:?} {acks_sent} {acks_lost}");
    // About 1 % of the AP's attempts spoiled by the error model.
    let rate = ap.corrupted as f64 / ap.attempts as f64;
    assert!((0.008..0.012).contains(&rate), "{rate}");
    assert!(ap.drops_retry_limit <= ap.collisions + ap.corrupted && ap.drops_retry_limit >= ap.corrupted);
}

/// Two stations, each sent datagrams by its own Pareto source: only the
/// AP transmits, so nothing collides, and with one attempt per frame a
/// datagram is lost exactly when its hop's error model says so.
fn datagrams_to_two_stations(error: &str) -> String {
    format!(
        r#"
name = "two-hops"
stop_s = 30.0
[topology]
template = "wlan_cell"
stations = 2
error = {error}
[topology.wired]
bandwidth_bps = 10e6
delay_ms = 1.0
queue_packets = 10000
[topology.dcf]
retry_limit = 1
queue_packets = 10000
[[flows]]
name = "udp"
from = "s{{copy}}"
to = "d{{copy}}"
copies = 2
pareto = {{ rate_bps = 2e6, packet_bytes = 1000, shape = 2.0 }}
"#
    )
}

/// Per hop ap -> d1, ap -> d2: the indices of the datagrams it lost.
fn lost_per_hop(text: &str, seed: u64) -> [Vec<u64>; 2] {
    let sc = load(text, &[]);
    let out = lasthop_sim::run(&sc, seed, true).unwrap_or_else(|e| panic!("{e}"));
    let ap = station(&out.summary, "ap");
    assert_eq!(ap.collisions, 0, "the AP alone transmits");
    assert_eq!(ap.drops_queue, 0);
    assert_eq!(ap.drops_retry_limit, ap.corrupted, "every spoiled attempt is a lost datagram");
    let hop = |d: &str| {
        let li = sc.model.links.iter().position(|l| l.name == format!("wlan/ap-{d}")).unwrap();
        (2 * li) as u32
    };
    let d = &out.trace.drops;
    let lost =
        |ld: u32| -> Vec<u64> { (0..d.time_ns.len()).filter(|&k| d.link_dir[k] == ld).map(|k| d.seq[k]).collect() };
    let lost = [lost(hop("d1")), lost(hop("d2"))];
    assert_eq!((lost[0].len() + lost[1].len()) as u64, ap.corrupted);
    lost
}

#[test]
fn each_stations_markov_chain_is_its_own_and_the_same_for_a_seed() {
    let text = datagrams_to_two_stations("{ model = \"markov\", p_gb = 0.01, p_bb = 0.5 }");
    let [a, b] = lost_per_hop(&text, 4);
    // Datagram k on either hop is that hop's k-th attempt: one chain for
    // both (or two alike) would lose the same indices on both.
    let n = a.len().min(b.len());
    assert!(n > 20, "{} {}", a.len(), b.len());
    assert_ne!(a[..n], b[..n]);
    // Bad runs of the chain, mean 1 / (1 - p_bb) = 2 frames: consecutive indices.
    let consecutive = |v: &[u64]| v.windows(2).filter(|w| w[1] == w[0] + 1).count();
    assert!(consecutive(&a) * 4 > a.len() && consecutive(&b) * 4 > b.len(), "{a:?} {b:?}");
    assert_eq!(lost_per_hop(&text, 4), [a.clone(), b]);
    assert_ne!(lost_per_hop(&text, 5)[0], a);
    // The chains differ by their hop's name, not by the traffic: with an
    // i.i.d. model the per-hop losses differ too, and repeat per seed.
    let text = datagrams_to_two_stations("{ model = \"bernoulli\", p = 0.02 }");
    let [a, b] = lost_per_hop(&text, 4);
    assert_ne!(a, b);
    assert_eq!(lost_per_hop(&text, 4), [a, b]);
}

#[test]
fn same_seed_same_bytes_in_every_case() {
    // Each case of yun09/cell, 5 s of it, through `run` (which checks the
    // invariants, the MAC's frames counted in packet conservation).
    let text = lasthop_sim::embedded::get("yun09/cell").unwrap();
    for protocol in ["reno", "newreno", "sack", "ll-elsn"] {
        for channel in ["uniform", "markov"] {
            for background in ["none", "pareto"] {
                let sets = [
                    format!("protocol=\"{protocol}\""),
                    format!("channel=\"{channel}\""),
                    format!("background=\"{background}\""),
                    "stop_s=5".to_string(),
                ];
                let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
                let a = serde_json::to_string(&run_text(text, &sets, 7)).unwrap();
                assert_eq!(a, serde_json::to_string(&run_text(text, &sets, 7)).unwrap(), "{sets:?}");
                assert_ne!(a, serde_json::to_string(&run_text(text, &sets, 8)).unwrap(), "{sets:?}");
            }
        }
    }
}

#[test]
fn replace_hands_the_last_copies_to_another_scheme_with_their_own_ends() {
    // Seed 004 Fig. 12: k of n Reno connections replaced by the variant.
    let text = embedded_cell();
    let sc = load(&text, &["flows.0.replace={copies=3,tcp={variant=\"sack\"}}"]);
    let m = &sc.model;
    let rows: Vec<(&str, &str, &str, bool)> = m
        .flows
        .iter()
        .map(|f| {
            let sack = f.sender.variant == lasthop_tcp::Variant::Sack;
            (f.name.as_str(), m.nodes[f.from as usize].as_str(), m.nodes[f.to as usize].as_str(), sack)
        })
        .collect();
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[0], ("bulk#0", "s1", "d1", false));
    assert_eq!(rows[6], ("bulk#6", "s7", "d7", false));
    assert_eq!(rows[7], ("bulk-replaced#0", "s8", "d8", true));
    assert_eq!(rows[9], ("bulk-replaced#2", "s10", "d10", true));
    // Every copy replaced: only the replacement is left; none: no change.
    let all = load(&text, &["flows.0.replace={copies=10,name=\"esack\",tcp={variant=\"sack\"}}"]);
    assert!(all.model.flows.iter().all(|f| f.name.starts_with("esack#")), "{:?}", all.model.flows.len());
    assert_eq!(all.model.flows.len(), 10);
    let none = load(&text, &["flows.0.replace={copies=0,tcp={variant=\"sack\"}}"]);
    assert!(none.model.flows.iter().all(|f| f.name.starts_with("bulk#")));
    // Bad counts name the field.
    let e = load_err(&text, &["flows.0.replace={copies=11}"]);
    assert_eq!(
        (e.path.as_str(), e.reason.as_str()),
        ("flows[0].replace.copies", "must be at most the flow's copies (10), got 11")
    );
    let e = load_err(&text, &["flows.0.replace={tcp={variant=\"sack\"}}"]);
    assert_eq!(e.path, "flows[0].replace.copies", "{e}");
    let e = load_err(&text, &["flows.0.first_copy=0"]);
    assert_eq!(e.path, "flows[0].first_copy", "{e}");
}

fn embedded_cell() -> String {
    lasthop_sim::embedded::get("yun09/cell").unwrap().to_string()
}
