//! Helpers shared by the simulator's integration tests. Every run goes
//! through `lasthop_sim::run`, which checks the run's invariants (packet
//! conservation, in-order exactly-once delivery, monotonic time) and fails
//! on any violation, so each simulation test checks them.

#![allow(dead_code)]

use lasthop_sim::{embedded, run, Format, RunSummary, Scenario};

pub fn load(text: &str, sets: &[&str]) -> Scenario {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Scenario::load(text, Format::Toml, &sets, "test").unwrap_or_else(|e| panic!("{e}"))
}

/// The error loading `text` with `sets` gives (it must not load).
pub fn load_error(text: &str, sets: &[&str]) -> String {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    match Scenario::load(text, Format::Toml, &sets, "test") {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    }
}

pub fn run_text(text: &str, sets: &[&str], seed: u64) -> RunSummary {
    run(&load(text, sets), seed, false).unwrap_or_else(|e| panic!("{e}")).summary
}

/// An embedded scenario's run with its trace.
pub fn run_embedded_traced(name: &str, sets: &[&str], seed: u64) -> (RunSummary, lasthop_core::trace::Trace) {
    let sc = load(embedded::get(name).expect("embedded scenario"), sets);
    let out = run(&sc, seed, true).unwrap_or_else(|e| panic!("{e}"));
    (out.summary, out.trace)
}

/// Nanoseconds as seconds.
pub fn secs(ns: u64) -> f64 {
    ns as f64 / 1e9
}

pub fn run_embedded(name: &str, sets: &[&str], seed: u64) -> RunSummary {
    run_text(embedded::get(name).expect("embedded scenario"), sets, seed)
}

pub fn mean(xs: impl IntoIterator<Item = f64>) -> f64 {
    let v: Vec<f64> = xs.into_iter().collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// A two-link path src -> mid -> dst with round numbers: 8 Mb/s links (a
/// 1000-byte segment takes 1 ms), 10 ms each way per link, queues of 100.
/// `drops` is a TOML error model for the second link's data direction.
pub fn path(variant: &str, bytes: u64, drops: &str, cwnd: u32) -> String {
    path_with(&format!("variant = \"{variant}\""), bytes, drops, cwnd)
}

/// As [`path`], with any TCP settings (`scheme = ...` is accepted too and
/// moved out of the `[flows.tcp]` table).
pub fn path_with(tcp: &str, bytes: u64, drops: &str, cwnd: u32) -> String {
    let (scheme, tcp) = match tcp.strip_prefix("scheme = ") {
        Some(rest) => {
            let (name, more) = rest.split_once('\n').unwrap_or((rest, ""));
            (format!("scheme = {name}\n"), more.to_string())
        }
        None => (String::new(), tcp.to_string()),
    };
    format!(
        r#"
name = "path"
[topology]
template = "two_link_path"
[topology.first]
bandwidth_bps = 8e6
delay_ms = 10.0
queue_packets = 100
[topology.second]
bandwidth_bps = 8e6
delay_ms = 10.0
queue_packets = 100
[topology.second.ab]
error = {drops}
[[flows]]
name = "f"
from = "src"
to = "dst"
bytes = {bytes}
{scheme}[flows.tcp]
{tcp}
mss_bytes = 1000
header_bytes = 0
ack_bytes = 40
socket_buffer_bytes = 100000
initial_cwnd_segments = {cwnd}
"#
    )
}

/// Two nodes `a` and `b` joined by one 1 Mb/s link `l` whose far end is
/// `link_b` (a missing node tests routing errors), with one 1000-byte flow
/// a -> b; `flow_extra` is appended to the flow's table.
pub fn two_nodes(link_b: &str, flow_extra: &str) -> String {
    format!(
        r#"
name = "two-nodes"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
name = "l"
a = "a"
b = "{link_b}"
bandwidth_bps = 1e6
[[flows]]
name = "f"
from = "a"
to = "b"
bytes = 1000
{flow_extra}
"#
    )
}

/// Seed 000's 1997 LAN testbed (`balakrishnan97/lan`) with the wireless
/// link's errors replaced: `drops` is a TOML error model for the base
/// station -> mobile host direction only (the other direction loses nothing).
pub fn lan97_with_drops(drops: &str) -> String {
    let text = embedded::get("balakrishnan97/lan").expect("embedded scenario");
    let errors = "error = { model = \"exponential_bytes\", mean_bytes = \"${error_every_bytes}\" }\n";
    assert!(text.contains(errors), "the LAN scenario's error line moved");
    text.replacen(errors, "", 1).replacen(
        "[[flows]]",
        &format!("[topology.wireless.ab]\nerror = {drops}\n\n[[flows]]"),
        1,
    )
}

/// A property test's configuration: `cases` cases from the fixed RNG seed
/// `seed` by default, so that CI is repeatable; `PROPTEST_CASES=N` and
/// `PROPTEST_RNG_SEED=S` search further. No failure files are written.
pub fn proptest_config(cases: u32, seed: u64) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    Config {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases),
        rng_seed: match std::env::var_os("PROPTEST_RNG_SEED") {
            Some(_) => Config::default().rng_seed,
            None => RngSeed::Fixed(seed),
        },
        failure_persistence: None,
        ..Config::default()
    }
}

/// `text` with bit errors on links `names` (each declared with
/// `queue_packets = 50`), both ways: an error every `mean` bytes on average.
pub fn with_link_errors(text: &str, names: &[&str], mean: u32) -> String {
    let error = format!("error = {{ model = \"exponential_bytes\", mean_bytes = {mean} }}\n");
    let mut t = text.to_string();
    for name in names {
        let at = t.find(&format!("name = \"{name}\"")).expect("the link");
        let end = at + t[at..].find("queue_packets = 50\n").expect("its queue") + "queue_packets = 50\n".len();
        t.insert_str(end, &error);
    }
    t
}

/// Embedded scenario `name` (`elaarag02/rlp` or `elaarag02/airmail`: a
/// 9.6 kb/s circuit of 64-byte frames between `bs` and `mh`) with its
/// circuit replaced by a plain 9.6 kb/s link that loses a packet of `n`
/// frames with probability 1 - (1 - fer)^n: 576-byte data packets are 10
/// frames of 60 payload bytes, 40-byte acks one. The link-layer ARQs'
/// LL-1 contrast (`rlp_link.rs`, `airmail_link.rs`).
pub fn circuit_as_plain_link(name: &str, fer: f64, seed: u64) -> RunSummary {
    let text = embedded::get(name).expect("embedded");
    let head = &text[..text.find("[[media]]").expect("a medium")];
    let tail = &text[text.find("[[flows]]").expect("a flow")..];
    let p = |frames: i32| 1.0 - (1.0 - fer).powi(frames);
    let link = format!(
        "[[links]]\nname = \"plain\"\na = \"bs\"\nb = \"mh\"\nbandwidth_bps = 9600\ndelay_ms = 0.0\nqueue_packets = 50\n\
         [links.ab]\nerror = {{ model = \"bernoulli\", p = {} }}\n[links.ba]\nerror = {{ model = \"bernoulli\", p = {} }}\n\n",
        p(10),
        p(1)
    );
    run_text(&format!("{head}{link}{tail}"), &[], seed)
}

/// TCP segments the source sent: packets on the `wired` link's first
/// direction (fh -> bs).
pub fn wired_segments(s: &RunSummary) -> u64 {
    s.links.iter().find(|l| l.name == "wired").expect("the wired link").packets_sent
}
