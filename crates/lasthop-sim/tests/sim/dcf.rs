//! Issue 13, item 1 through the whole simulator: seed 004's downlink over an
//! 802.11b DCF medium (scenarios/yun09/downlink.toml). Every run goes
//! through `lasthop_sim::run`, which checks the invariants at its end
//! (packet conservation with the MAC's frames counted).

use crate::common;
use common::run_embedded;
use lasthop_sim::{embedded, Format, Scenario};

fn station<'a>(s: &'a lasthop_sim::RunSummary, node: &str) -> &'a lasthop_sim::metrics::DcfSummary {
    s.media[0].stations.iter().find(|st| st.node == node).expect("a station on the medium")
}

#[test]
fn an_error_free_downlink_fills_the_11_mbps_channel_and_data_and_acks_collide() {
    // With l = 2 a collision costs a retry, not a TCP loss: the flow is
    // held by the channel, 3.3-3.9 Mb/s by yun-004.md Sec. 1.2's
    // arithmetic (DIFS, backoff, PLCP, MAC ack for each data frame and
    // each TCP ack).
    let s = run_embedded("yun09/downlink", &["retry_limit=2"], 1);
    let f = &s.flows[0];
    assert!((3.3e6..3.9e6).contains(&f.throughput_bps), "{}", f.throughput_bps);
    let (ap, d) = (station(&s, "ap"), station(&s, "d"));
    // The AP's data and the station's TCP acks contend: some collide, and
    // each collision is counted by both.
    assert!(ap.collisions > 0 && ap.collisions == d.collisions, "{ap:?} {d:?}");
    assert_eq!((ap.corrupted, d.corrupted), (0, 0), "no error model");
    // Every TCP ack is a frame of the station's; no radio fields appear.
    assert!(s.media[0].radios.is_empty());
    assert!(d.frames_enqueued > 0 && ap.delivered_up > 0);
}

#[test]
fn with_one_attempt_a_collision_or_an_error_is_a_tcp_loss() {
    let clean = run_embedded("yun09/downlink", &["retry_limit=1"], 1);
    let ap = station(&clean, "ap");
    assert_eq!(ap.retries, 0, "l = 1: no link-level retransmission");
    assert_eq!(ap.drops_retry_limit, ap.collisions, "each collided data frame is discarded");
    assert!(clean.flows[0].retransmits > 0);
    // 1 % FER: the error model spoils about 1 % of the AP's attempts.
    let lossy = run_embedded("yun09/downlink", &["retry_limit=1", "fer=0.01"], 1);
    let ap = station(&lossy, "ap");
    let rate = ap.corrupted as f64 / ap.attempts as f64;
    assert!((0.007..0.013).contains(&rate), "{rate}");
    assert!(lossy.flows[0].throughput_bps < clean.flows[0].throughput_bps);
}

#[test]
fn same_seed_same_bytes() {
    let a = serde_json::to_string(&run_embedded("yun09/downlink", &["fer=0.03", "retry_limit=2"], 5)).unwrap();
    assert_eq!(a, serde_json::to_string(&run_embedded("yun09/downlink", &["fer=0.03", "retry_limit=2"], 5)).unwrap());
    assert_ne!(a, serde_json::to_string(&run_embedded("yun09/downlink", &["fer=0.03", "retry_limit=2"], 6)).unwrap());
}

#[test]
fn bad_dcf_settings_name_the_field() {
    let err = |sets: &[&str]| {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let text = embedded::get("yun09/downlink").unwrap();
        Scenario::load(text, Format::Toml, &sets, "t").expect_err("must be rejected")
    };
    let e = err(&["retry_limit=0"]);
    assert_eq!(e.path, "media[0].dcf.retry_limit", "{e}");
    let e = err(&["media.0.dcf.cw_min=2000"]);
    assert_eq!(e.path, "media[0].dcf.cw_min", "{e}");
    assert!(e.reason.contains("cw_max"), "{e}");
    let e = err(&["fer=1.5"]);
    assert_eq!(e.path, "media[0].error.fer", "{e}");
    let e = err(&["media.0.dcf.slot_us=-1"]);
    assert_eq!(e.path, "media[0].dcf.slot_us", "{e}");
    let e = err(&["media.0.error={model=\"frame_error_rate\",fer=1.5}"]);
    assert_eq!(e.path, "media[0].error.fer", "{e}");
    let e = err(&["media.0.error={model=\"frame_error_rate\",fer=0.09,reference_bytes=0}"]);
    assert_eq!(e.path, "media[0].error.reference_bytes", "{e}");
    let e = err(&["media.0.dcf.ll_retransmission_window=0"]);
    assert_eq!(e.path, "media[0].dcf.ll_retransmission_window", "{e}");
    assert!(e.reason.contains("1..=64"), "{e}");
    let e = err(&["media.0.dcf.ll_retransmission=\"selective\""]);
    assert!(e.path.starts_with("media[0].dcf"), "{e}");
}

#[test]
fn ll_elsn_notices_reach_the_sender_and_keep_its_window_at_a_lossy_hop() {
    // l = 1, FER 3 %: every spoiled or collided data frame is discarded at
    // once, and the AP's agent sends an ELN for each; no retransmission,
    // so no ERSN.
    let s = run_embedded("yun09/downlink", &["protocol=\"ll-elsn\"", "fer=0.03"], 1);
    let f = &s.flows[0];
    let l = f.ll_elsn.as_ref().expect("an LL-ELSN sender reports its notices");
    let ap = station(&s, "ap");
    assert_eq!(l.ersns_received, 0, "l = 1: no link retransmission");
    // One ELN per discarded data frame (its notice crosses two loss-free
    // wired hops; a few are still on their way when the run ends), each
    // answered at once unless filtered.
    assert!(l.elns_received <= ap.drops_retry_limit && ap.drops_retry_limit - l.elns_received <= 5, "{l:?} {ap:?}");
    assert!(l.eln_retransmits > 0 && l.eln_retransmits <= l.elns_received);
    // Reno and SACK over the same hop, same seed.
    let reno = run_embedded("yun09/downlink", &["protocol=\"reno\"", "fer=0.03"], 1);
    let sack = run_embedded("yun09/downlink", &["protocol=\"sack\"", "fer=0.03"], 1);
    assert!(reno.flows[0].ll_elsn.is_none());
    assert!(
        f.throughput_bps > 3.0 * sack.flows[0].throughput_bps,
        "{} vs {}",
        f.throughput_bps,
        sack.flows[0].throughput_bps
    );
    assert!(f.throughput_bps > 3.0 * reno.flows[0].throughput_bps);
}

#[test]
fn with_link_retransmissions_the_first_retry_of_a_segment_raises_an_ersn() {
    let s = run_embedded("yun09/downlink", &["protocol=\"ll-elsn\"", "fer=0.05", "retry_limit=3"], 2);
    let l = s.flows[0].ll_elsn.as_ref().unwrap();
    let ap = station(&s, "ap");
    // ERSNs: data frames retried (acks' retries raise none); ELNs: data
    // frames discarded after three attempts.
    assert!(l.ersns_received > 0 && l.ersns_received <= ap.retries, "{l:?} {ap:?}");
    assert!(l.elns_received <= ap.drops_retry_limit && ap.drops_retry_limit - l.elns_received <= 5, "{l:?} {ap:?}");
}

#[test]
fn ll_elsn_needs_the_dcf_link_layer() {
    // Seed 001's web benchmark: a packet-radio return channel.
    let text = embedded::get("balakrishnan99/web").unwrap();
    let e = Scenario::load(text, Format::Toml, &["media.0.ll_elsn=true".to_string()], "t")
        .expect_err("a packet-radio medium has no LL-ELSN");
    assert_eq!(e.path, "media[0].ll_elsn", "{e}");
    assert!(e.reason.contains("mac = \"dcf\""), "{e}");
}

#[test]
fn ll_elsn_needs_the_sack_sender() {
    let text = embedded::get("yun09/downlink").unwrap();
    let sets = vec!["flows.0.tcp.ll_elsn={}".to_string()];
    let e = Scenario::load(text, Format::Toml, &sets, "t").expect_err("reno has no LL-ELSN response");
    assert_eq!(e.path, "flows[0].tcp.ll_elsn", "{e}");
}

#[test]
fn issue_13_bad_input_names_the_field() {
    let err = |sets: &[&str]| {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let text = embedded::get("yun09/downlink").unwrap();
        Scenario::load(text, Format::Toml, &sets, "t").expect_err("must be rejected")
    };
    // A Markov channel's p_bb outside [0, 1].
    let e = err(&["media.0.error={model=\"markov\",p_gb=0.01,p_bb=1.5}"]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("media[0].error.p_bb", "must be in [0, 1]"), "{e}");
    // A station that no hop joins to its access point.
    let e = err(&[
        "nodes=[{name=\"s\"},{name=\"r\"},{name=\"ap\"},{name=\"d\"},{name=\"e\"}]",
        "media.0.stations=[\"ap\",\"d\",\"e\"]",
        "media.0.hops=[[\"ap\",\"d\"]]",
    ]);
    assert_eq!(e.path, "media[0].stations[2]", "{e}");
    assert!(e.reason.contains("'e' is in no hop"), "{e}");
    // An ESACK sender whose path has no notifying link layer (the medium's
    // ll_elsn off): it would silently run as plain SACK.
    let e = err(&["flows.0.tcp.variant=\"sack\"", "flows.0.tcp.ll_elsn={}"]);
    assert_eq!(e.path, "flows[0].tcp.ll_elsn", "{e}");
    assert!(e.reason.contains("ll_elsn = true"), "{e}");
}

#[test]
fn eln_filter_zero_turns_filtering_off() {
    let text = embedded::get("yun09/downlink").unwrap();
    let load = |extra: &[&str]| {
        let mut sets = vec!["protocol=\"ll-elsn\"".to_string()];
        sets.extend(extra.iter().map(|s| s.to_string()));
        Scenario::load(text, Format::Toml, &sets, "t").unwrap()
    };
    let filter = |s: &Scenario| s.model.flows[0].ll_elsn.expect("esack").eln_filter;
    assert_eq!(filter(&load(&[])), Some(2), "Sec. 4.2's N = 2 by default");
    assert_eq!(filter(&load(&["flows.0.tcp.ll_elsn.eln_filter=0"])), None);
    assert_eq!(filter(&load(&["flows.0.tcp.ll_elsn.eln_filter=3"])), Some(3));
}

#[test]
fn ersn_deferral_bound_defaults_to_the_reference_formula() {
    // yun-004.md Sec. 2.3: at most ceil(l * T_llrtx / RTO) + 1 deferrals,
    // RTO the sender's smallest (the scenario's ns-2 timer: 200 ms).
    let text = embedded::get("yun09/downlink").unwrap();
    let bound = |extra: &[&str]| {
        let mut sets = vec!["protocol=\"ll-elsn\"".to_string()];
        sets.extend(extra.iter().map(|s| s.to_string()));
        let sc = Scenario::load(text, Format::Toml, &sets, "t").unwrap();
        sc.model.flows[0].ll_elsn.expect("esack").ersn_max_deferrals
    };
    let fig13 = ["retry_limit=7", "media.0.dcf.ll_retransmission_delay_ms=100"];
    // Fig. 13: l = 7, 100 ms: ceil(700 / 200) + 1.
    assert_eq!(bound(&fig13), 5);
    // The scenario's own l = 1 without a retransmission delay: 0 + 1.
    assert_eq!(bound(&[]), 1);
    assert_eq!(bound(&["retry_limit=16", "media.0.dcf.ll_retransmission_delay_ms=100"]), 9);
    // A larger minimum RTO needs fewer: ceil(700 / 1000) + 1.
    assert_eq!(bound(&[&fig13[..], &["flows.0.tcp.rto.min_ms=1000"]].concat()), 2);
    // An explicit value wins, 0 (ERSNs ignored) included.
    assert_eq!(bound(&[&fig13[..], &["flows.0.tcp.ll_elsn.ersn_max_deferrals=3"]].concat()), 3);
    assert_eq!(bound(&[&fig13[..], &["flows.0.tcp.ll_elsn.ersn_max_deferrals=0"]].concat()), 0);
}

#[test]
fn deferred_link_retransmissions_let_later_segments_overtake() {
    // Fig. 13's 100 ms link retransmission delay, both readings of
    // yun-004.md ambiguity 9, same seed. Blocking: the AP waits out every
    // delay, its segments stay in order. Deferred: a failed segment is set
    // aside and the next ones overtake it; the receiver's duplicate acks
    // bring a SACK sender fast retransmits, and an LL-ELSN sender none
    // for them: each set-aside segment's first retry raised an ERSN, and
    // the sender neither retransmits nor cuts for it (seed 004 Sec. 3.1).
    // ERSNs come out alike (first retry of a segment); the run's end
    // checks conservation with the set-aside frames counted.
    let sets = |protocol: &'static str, mode: &'static str| {
        [
            protocol,
            "fer=0.05",
            "retry_limit=7",
            "media.0.dcf.ll_retransmission_delay_ms=100",
            mode,
            "stop_s=10",
            "flows.0.duration_s=10",
        ]
    };
    let (blocking, deferred) =
        ("media.0.dcf.ll_retransmission=\"blocking\"", "media.0.dcf.ll_retransmission=\"deferred\"");
    let sack_b = run_embedded("yun09/downlink", &sets("protocol=\"sack\"", blocking), 2);
    let sack_d = run_embedded("yun09/downlink", &sets("protocol=\"sack\"", deferred), 2);
    let (b, d) = (&sack_b.flows[0], &sack_d.flows[0]);
    assert!(d.fast_retransmits > 5 * b.fast_retransmits.max(1), "{} vs {}", d.fast_retransmits, b.fast_retransmits);
    assert!(d.dupacks_at_source > b.dupacks_at_source);
    let ll_b = run_embedded("yun09/downlink", &sets("protocol=\"ll-elsn\"", blocking), 2);
    let ll_d = run_embedded("yun09/downlink", &sets("protocol=\"ll-elsn\"", deferred), 2);
    let (b, d) = (&ll_b.flows[0], &ll_d.flows[0]);
    assert!(d.dupacks_at_source > 5 * b.dupacks_at_source, "{} vs {}", d.dupacks_at_source, b.dupacks_at_source);
    assert!(d.fast_retransmits <= b.fast_retransmits.max(2), "{} vs {}", d.fast_retransmits, b.fast_retransmits);
    let (l, ap) = (d.ll_elsn.as_ref().unwrap(), station(&ll_d, "ap"));
    assert!(l.ersns_received > 0 && l.ersns_received <= ap.retries, "{l:?} {ap:?}");
    // The default is the blocking reading.
    let default = run_embedded("yun09/downlink", &sets("protocol=\"ll-elsn\"", "stop_s=10"), 2);
    assert_eq!(serde_json::to_string(&default).unwrap(), serde_json::to_string(&ll_b).unwrap());
}
