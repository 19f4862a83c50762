//! Bad input: each gets one line naming the field and the reason.

use crate::common;
use lasthop_sim::{embedded, Format, Scenario, ScenarioError};

fn err(text: &str, sets: &[&str]) -> ScenarioError {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let e = Scenario::load(text, Format::Toml, &sets, "s.toml").expect_err("must be rejected");
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    e
}

fn lan() -> &'static str {
    embedded::get("balakrishnan97/lan").unwrap()
}

#[test]
fn malformed_toml() {
    let e = err("name = \"x\"\n[topology\n", &[]);
    assert_eq!(e.path, "s.toml");
    assert!(e.reason.starts_with("TOML syntax error at line 2"), "{e}");
}

#[test]
fn unknown_field() {
    let e = err(&lan().replace("bytes = 8388608", "bytes = 8388608\nbites = 3"), &[]);
    assert_eq!(e.path, "flows[0].bites");
    assert!(e.reason.contains("unknown field"), "{e}");
}

#[test]
fn negative_bandwidth() {
    let e = err(lan(), &["topology.wireless.bandwidth_bps=-2e6"]);
    assert_eq!(e.path, "topology.wireless.bandwidth_bps");
    assert!(e.reason.contains("positive"), "{e}");
}

#[test]
fn unknown_tcp_variant_and_scheme() {
    // A recovery is a closed set (serde); a variant is a name checked
    // against the table (tests/test_cli_errors.py), after the scheme that
    // would conflict with it.
    let e = err(lan(), &["flows.0.tcp.recovery=vegas"]);
    assert_eq!(e.path, "flows[0].tcp.recovery");
    assert!(e.reason.contains("unknown variant `vegas`"), "{e}");
    let e = err(lan(), &["flows.0.tcp.variant=vegas"]);
    assert_eq!(e.path, "flows[0].tcp.variant");
    assert!(e.reason.contains("conflicts with `scheme`"), "{e}");
    let e = err(lan(), &["scheme=e2e-psychic"]);
    assert_eq!(e.path, "flows[0].scheme");
    assert!(e.reason.contains("unknown scheme 'e2e-psychic'"), "{e}");
}

#[test]
fn link_to_a_missing_node() {
    let e = err(&common::two_nodes("zz", ""), &[]);
    assert_eq!(e.to_string(), "links[0].b: no node named 'zz'");
}

#[test]
fn other_semantic_errors_name_their_field() {
    assert_eq!(err(lan(), &["error_every_bytes=-1"]).path, "topology.wireless.error.mean_bytes");
    assert_eq!(err(lan(), &["flows.0.bytes=0"]).path, "flows[0].bytes");
    assert_eq!(err(lan(), &["socket_buffer_bytes=100"]).path, "flows[0].tcp.socket_buffer_bytes");
    assert_eq!(err(lan(), &["flows.0.to=fh"]).path, "flows[0].to");
    assert_eq!(err(lan(), &["topology.wired.delay_ms=nan"]).path, "topology.wired.delay_ms");
    assert_eq!(err(lan(), &["stop_s=0"]).path, "stop_s");
    assert_eq!(err(lan(), &["stop_s=1e300"]).path, "stop_s");
    assert_eq!(err(lan(), &["flows.0.duration_s=3"]).path, "flows[0]");
    assert_eq!(err(lan(), &["bogus"]).path, "--set");
    // Issue 10's fields: a latency in [0, 1e6] us, at least one ELN slot.
    for bad in ["-1", "nan", "inf", "2e6"] {
        let set = format!("flows.0.tcp.base_station_processing_us={bad}");
        assert_eq!(err(lan(), &[&set]).path, "flows[0].tcp.base_station_processing_us", "{bad}");
    }
    assert_eq!(err(lan(), &["flows.0.tcp.eln_slots=0"]).path, "flows[0].tcp.eln_slots");
    let e = err(
        lan(),
        &[
            "topology.wireless.error.model=\"burst\"",
            "topology.wireless.error.burst_packets=2",
            "topology.wireless.error.burst_reading=\"sometimes\"",
        ],
    );
    assert!(e.path.starts_with("topology") && e.reason.contains("expected `frame_times` or `transmissions`"), "{e}");
    let e = err(embedded::get("elaarag02/table1").unwrap(), &["ber=1e-4"]);
    assert_eq!(e.path, "params.ber");
}

/// Issue 5: a run that spends its event budget is an error of that run (a
/// sweep stores it as failed); a budget it stays within changes nothing.
#[test]
fn event_budget_fails_the_run_and_otherwise_changes_nothing() {
    let tight = common::load(lan(), &["max_events=5000"]);
    match lasthop_sim::run(&tight, 1, false) {
        Err(lasthop_sim::RunError::EventBudget(e)) => {
            assert_eq!(e.max_events, 5000);
            assert!(e.at.ns() > 0);
            let text = e.to_string();
            assert!(text.starts_with("max_events: the run needed more than 5000 events"), "{text}");
        }
        other => panic!("expected an event-budget error, got {:?}", other.map(|o| o.summary.events)),
    }
    let free = lasthop_sim::run(&common::load(lan(), &[]), 1, false).unwrap();
    let roomy = common::load(lan(), &[&format!("max_events={}", free.summary.events)]);
    let within = lasthop_sim::run(&roomy, 1, false).unwrap();
    assert_eq!(serde_json::to_string(&within.summary).unwrap(), serde_json::to_string(&free.summary).unwrap());
    let e = err(lan(), &["max_events=0"]);
    assert_eq!(e.path, "max_events");
}

#[test]
fn an_ack_delay_below_one_nanosecond_is_rejected_not_a_panic() {
    // Once a remainder by a zero tick in the receiver (issue 9, finding 2).
    for policy in ["delayed", "bsd_delayed"] {
        let e = err(lan(), &["flows.0.tcp.ack.delay_ms=1e-9", &format!("flows.0.tcp.ack.policy={policy}")]);
        assert_eq!(e.path, "flows[0].tcp.ack.delay_ms");
        assert!(e.reason.contains("at least 1e-6"), "{e}");
    }
}

#[test]
fn a_flow_starting_after_the_stop_time_is_rejected() {
    let e = err(lan(), &["stop_s=5", "flows.0.start_s=6"]);
    assert_eq!(e.path, "flows[0].start_s");
    assert!(e.reason.contains("before stop_s (5 s)"), "{e}");
    let e = err(lan(), &["stop_s=5", "flows.0.start_s=5"]);
    assert_eq!(e.path, "flows[0].start_s");
}

#[test]
fn durations_and_sizes_beyond_what_time_and_packets_can_hold_are_rejected() {
    // Found by tests/fuzz.rs: a 1e300 ms delay overflowed simulated time.
    for (set, path, reason) in [
        ("topology.wireless.delay_ms=1e300", "topology.wireless.delay_ms", "at most 10000000000 ms"),
        ("topology.wired.jitter_ms=1e12", "topology.wired.jitter_ms", "at most 10000000000 ms"),
        ("flows.0.tcp.rto.max_s=1e8", "flows[0].tcp.rto.max_s", "at most 10000000 s"),
        ("flows.0.tcp.ack.delay_ms=1e300", "flows[0].tcp.ack.delay_ms", "at most 10000000000 ms"),
        ("flows.0.tcp.mss_bytes=65535", "flows[0].tcp.mss_bytes", "IPv4 datagram"),
        ("flows.0.tcp.ack_bytes=70000", "flows[0].tcp.ack_bytes", "at most 65535"),
        ("flows.0.bytes=2305843009213693952", "flows[0].bytes", "at most 2^60"),
    ] {
        let e = err(lan(), &[set]);
        assert_eq!(e.path, path, "{set}: {e}");
        assert!(e.reason.contains(reason), "{set}: {e}");
    }
}

/// Issue 11, seed 001's endpoint options: each needs what it reads from the
/// others, and bad values name their field.
#[test]
fn seed001_endpoint_options_name_their_field() {
    let path = |sets: &[&str]| err(lan(), sets).path;
    let acc = "flows.0.tcp.acc.mode=\"testbed\"";
    let window = "flows.0.tcp.sender_window_option=true";
    // ACC without the sender's window option (its cap comes from it).
    let e = err(lan(), &[acc]);
    assert_eq!(e.to_string(), "flows[0].tcp.acc: needs the sender's window: set tcp.sender_window_option = true");
    // ACC needs a delayed-ack timer to force acks.
    assert_eq!(path(&[acc, window, "flows.0.tcp.ack.policy=\"immediate\""]), "flows[0].tcp.ack.policy");
    // The ECN mode's once-per-round-trip test reads timestamps.
    assert_eq!(path(&["flows.0.tcp.acc.mode=\"ecn\"", window]), "flows[0].tcp.acc.mode");
    assert_eq!(path(&[acc, window, "flows.0.tcp.acc.max_delack=0"]), "flows[0].tcp.acc.max_delack");
    assert_eq!(path(&[acc, window, "flows.0.tcp.acc.min_acks_win=0"]), "flows[0].tcp.acc.min_acks_win");
    assert_eq!(path(&[acc, window, "flows.0.tcp.acc.max_delack=-3"]), "flows[0].tcp.acc.max_delack");
    let e = err(lan(), &["flows.0.tcp.acc.mode=\"router\""]);
    assert!(e.path == "flows[0].tcp.acc.mode" && e.reason.contains("unknown variant"), "{e}");
    // Sender adaptation: maxburst >= 1 (0 and negatives refused), a round trip from timestamps.
    let ts = "flows.0.tcp.timestamps=true";
    for bad in ["0", "-1"] {
        let set = format!("flows.0.tcp.sender_adaptation.maxburst={bad}");
        assert_eq!(path(&[ts, &set]), "flows[0].tcp.sender_adaptation.maxburst", "{bad}");
    }
    let spi = "flows.0.tcp.sender_adaptation.segments_per_increase=0";
    assert_eq!(path(&[ts, spi]), "flows[0].tcp.sender_adaptation.segments_per_increase");
    assert_eq!(path(&["flows.0.tcp.sender_adaptation.maxburst=3"]), "flows[0].tcp.sender_adaptation");
    let fr = "flows.0.tcp.fast_retransmit_request.threshold=0";
    assert_eq!(path(&[fr]), "flows[0].tcp.fast_retransmit_request.threshold");
    // The same settings, complete, load.
    let ok: Vec<String> = [acc, window, ts, "flows.0.tcp.sender_adaptation.maxburst=3", "flows.0.tcp.ecn=true"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    Scenario::load(lan(), Format::Toml, &ok, "s.toml").unwrap();
}

/// Issue 11: a link direction's `queue` table; errors name the field
/// where the offending value was written.
#[test]
fn queue_discipline_errors_name_their_field() {
    let w = "topology.wireless.queue";
    for (sets, path, reason) in [
        (vec!["discipline=\"wfq\""], "discipline", "unknown variant `wfq`, expected `fifo` or `acks_first`"),
        (vec!["overflow=\"front\""], "overflow", "unknown variant `front`"),
        (vec!["ack_filter_position=\"replace_head\""], "ack_filter_position", "needs ack_filter = true"),
        (vec!["red.max_packets=6"], "red", "missing field `min_packets`"),
        (vec!["red.min_packets=6", "red.max_packets=6"], "red.min_packets", "must be below max_packets (6)"),
        (vec!["red.min_packets=-1", "red.max_packets=6"], "red.min_packets", ">= 0"),
        (vec!["red.min_packets=2", "red.max_packets=51"], "red.max_packets", "queue limit of 50 packets"),
        (vec!["red.min_packets=2", "red.max_packets=6", "red.weight=0"], "red.weight", "(0, 1]"),
        (vec!["red.min_packets=2", "red.max_packets=6", "red.weight=1.5"], "red.weight", "(0, 1]"),
        (vec!["red.min_packets=2", "red.max_packets=6", "red.max_p=0"], "red.max_p", "(0, 1]"),
        (vec!["red.min_packets=2", "red.max_packets=6", "red.mark=\"oldest\""], "red.mark", "unknown variant"),
        (
            vec!["red.min_packets=2", "red.max_packets=6", "red.idle_packet_bytes=0"],
            "red.idle_packet_bytes",
            "at least 1",
        ),
    ] {
        let sets: Vec<String> = sets.iter().map(|s| format!("{w}.{s}")).collect();
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        let e = err(lan(), &sets);
        assert_eq!(e.path, format!("{w}.{path}"), "{sets:?}: {e}");
        assert!(e.reason.contains(reason), "{sets:?}: {e}");
    }
    // A direction's own table is named as such, and checked against that
    // direction's limit.
    let e = err(
        lan(),
        &[
            "topology.wireless.ba.queue_packets=10",
            "topology.wireless.ba.queue.red.min_packets=2",
            "topology.wireless.ba.queue.red.max_packets=12",
        ],
    );
    assert_eq!(
        e.to_string(),
        "topology.wireless.ba.queue.red.max_packets: must not exceed the queue limit of 10 packets, got 12"
    );
    let e = err(
        &common::two_nodes("b", "")
            .replace("bandwidth_bps = 1e6", "bandwidth_bps = 1e6\nab = { queue = { discipline = \"lifo\" } }"),
        &[],
    );
    assert_eq!(e.path, "links[0].ab.queue.discipline");
}

#[test]
fn ack_reconstruction_settings_are_checked() {
    // The LAN's wireless link: a->b (bs->mh) carries data, b->a the acks.
    let ar = "topology.wireless.ba.ack_reconstruction";
    for (set, path, reason) in [
        (format!("{ar}.delta_a_segments=0"), format!("{ar}.delta_a_segments"), "must be at least 1"),
        (format!("{ar}.gain=0"), format!("{ar}.gain"), "must be in (0, 1], got 0"),
        (format!("{ar}.gain=1.5"), format!("{ar}.gain"), "must be in (0, 1], got 1.5"),
        (format!("{ar}.gain=nan"), format!("{ar}.gain"), "must be in (0, 1], got NaN"),
        // The "AR on a link that has no peer": no acks come this way.
        (
            "topology.wireless.ab.ack_reconstruction.gain=0.5".to_string(),
            "topology.wireless.ab.ack_reconstruction".to_string(),
            "no connection's acks cross this link direction",
        ),
        (
            "topology.wireless.ack_reconstruction.gain=2".to_string(),
            "topology.wireless.ack_reconstruction.gain".to_string(),
            "must be in (0, 1]",
        ),
    ] {
        let e = err(lan(), &[&set]);
        assert_eq!(e.path, path, "{set}: {e}");
        assert!(e.reason.contains(reason), "{set}: {e}");
    }
    // Unknown names (on a general-form link: serde reports a template's
    // inner paths as `topology`).
    let two = common::two_nodes("b", "");
    for (set, path, reason) in [
        (
            "links.0.ba.ack_reconstruction.spacing=fast",
            "links[0].ba.ack_reconstruction.spacing",
            "unknown variant `fast`",
        ),
        ("links.0.ba.ack_reconstruction.delta_t=1", "links[0].ba.ack_reconstruction.delta_t", "unknown field"),
    ] {
        let e = err(&two, &[set]);
        assert_eq!(e.path, path, "{set}: {e}");
        assert!(e.reason.contains(reason), "{set}: {e}");
    }
    // Accepted where acks cross: the b->a direction, or the whole link.
    for set in [format!("{ar}.gain=1"), "topology.wireless.ack_reconstruction.spacing=ns2_sample".to_string()] {
        let sets = vec![set.clone()];
        Scenario::load(lan(), Format::Toml, &sets, "s.toml").unwrap_or_else(|e| panic!("{set}: {e}"));
    }
}

#[test]
fn ack_reconstruction_on_a_link_no_acks_cross_is_rejected() {
    // A spur link to a node no flow uses.
    let text = common::two_nodes("b", "").replace(
        "[[flows]]",
        "[[nodes]]\nname = \"c\"\n[[links]]\nname = \"spur\"\na = \"b\"\nb = \"c\"\nbandwidth_bps = 1e6\n\
         ack_reconstruction = {}\n[[flows]]",
    );
    let e = err(&text, &[]);
    assert_eq!(e.path, "links[1].ack_reconstruction");
    assert!(e.reason.contains("no connection's acks cross this link"), "{e}");
}

#[test]
fn handshake_with_a_split_connection() {
    let e = err(lan(), &["scheme=split", "flows.0.tcp.handshake=true"]);
    assert_eq!(e.path, "flows[0].tcp.handshake");
    assert!(e.reason.contains("split connection"), "{e}");
}
