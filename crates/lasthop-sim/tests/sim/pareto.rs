//! Issue 13, item 6: a Pareto on/off background source (ns-2's
//! `Application/Traffic/Pareto`) through the whole simulator. Every run goes
//! through `lasthop_sim::run`, which checks the invariants at its end
//! (packet conservation with the datagrams counted).

use crate::common;
use common::{load, run_text};
use lasthop_sim::{Format, Scenario};

/// src -> mid -> dst, 10 Mb/s and 10 ms per link, 50-packet queues; a
/// background source `bg` (`pareto` table given by the caller) and, with
/// `tcp`, a Reno transfer beside it, both for the whole 60 s.
fn scenario(pareto: &str, tcp: bool) -> String {
    let mut text = format!(
        r#"
name = "pareto"
stop_s = 60.0
[topology]
template = "two_link_path"
[topology.first]
bandwidth_bps = 10e6
delay_ms = 10.0
queue_packets = 50
[topology.second]
bandwidth_bps = 10e6
delay_ms = 10.0
queue_packets = 50
[[flows]]
name = "bg"
from = "src"
to = "dst"
pareto = {pareto}
"#
    );
    if tcp {
        text.push_str("[[flows]]\nname = \"tcp\"\nfrom = \"src\"\nto = \"dst\"\nduration_s = 60.0\n");
    }
    text
}

#[test]
fn an_uncongested_source_delivers_every_datagram_at_its_on_off_mean_rate() {
    // 2 Mb/s bursts of 1000-byte datagrams, on 0.2 s / off 0.6 s on
    // average, shape 3: a mean of about 2 Mb/s x 0.25 = 0.5 Mb/s, far below
    // the 10 Mb/s links, so nothing is lost.
    let s = run_text(
        &scenario("{ rate_bps = 2e6, burst_ms = 200, idle_ms = 600, shape = 3.0, packet_bytes = 1000 }", false),
        &[],
        1,
    );
    let bg = &s.flows[0];
    let d = bg.datagrams.as_ref().expect("a source reports its datagrams");
    // All but those still crossing the path at the end arrived (at most
    // one per 0.8 ms burst interval within the 20 ms path, plus queueing).
    assert!(d.sent - d.received <= 30, "{d:?}");
    assert_eq!(bg.bytes_delivered, d.received * 1000);
    assert!(d.bursts >= 50, "{d:?}");
    assert!((bg.throughput_bps / 0.5e6 - 1.0).abs() < 0.25, "{}", bg.throughput_bps);
    assert_eq!((bg.retransmits, bg.timeouts), (0, 0), "a datagram source never retransmits");
    let first = &s.links[0];
    assert_eq!((first.drops_queue, first.packets_sent), (0, d.sent));
    // Only datagrams crossed: no acks come back.
    assert_eq!(s.links[1].packets_sent, 0);
}

#[test]
fn a_bursty_source_takes_bandwidth_and_queue_room_from_a_tcp_transfer() {
    // Yun 2009 Sec. 5.2's background: 8 Mb/s bursts, shape 2 (ns-2's 500 ms
    // burst and idle means): about 4 Mb/s on average.
    let bursts = "{ rate_bps = 8e6, shape = 2.0, packet_bytes = 1000 }";
    let alone = run_text(&scenario(bursts, false), &[], 1);
    let shared = run_text(&scenario(bursts, true), &[], 1);
    let solo_tcp = run_text(&scenario("{ rate_bps = 1.0, packet_bytes = 1 }", true), &[], 1);
    let (bg, tcp) = (&shared.flows[0], &shared.flows[1]);
    let d = bg.datagrams.as_ref().unwrap();
    // The source sends the same datagrams with or without the TCP flow
    // (open loop, its own random stream); some are now lost to the queue.
    assert_eq!(d.sent, alone.flows[0].datagrams.as_ref().unwrap().sent);
    assert!(d.received < d.sent && shared.links[0].drops_queue > 0);
    // The TCP transfer gets less than it does beside an idle source.
    assert!(
        tcp.throughput_bps < 0.8 * solo_tcp.flows[1].throughput_bps,
        "{} vs {}",
        tcp.throughput_bps,
        solo_tcp.flows[1].throughput_bps
    );
    assert!(tcp.timeouts + tcp.fast_retransmits > 0);
}

#[test]
fn same_seed_same_datagrams_other_seed_other_bursts() {
    let text = scenario("{ rate_bps = 8e6, shape = 2.0, packet_bytes = 1000 }", true);
    let a = serde_json::to_string(&run_text(&text, &[], 3)).unwrap();
    assert_eq!(a, serde_json::to_string(&run_text(&text, &[], 3)).unwrap());
    assert_ne!(a, serde_json::to_string(&run_text(&text, &[], 4)).unwrap());
}

#[test]
fn bad_pareto_settings_name_the_field() {
    let err = |pareto: &str, extra: &[&str]| {
        let sets: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        Scenario::load(&scenario(pareto, false), Format::Toml, &sets, "t").expect_err("must be rejected")
    };
    let e = err("{ shape = 1.0 }", &[]);
    assert_eq!(e.path, "flows[0].pareto.shape");
    assert!(e.reason.contains("above 1"), "{e}");
    assert_eq!(err("{ rate_bps = 0 }", &[]).path, "flows[0].pareto.rate_bps");
    assert_eq!(err("{ idle_ms = -1 }", &[]).path, "flows[0].pareto.idle_ms");
    assert_eq!(err("{}", &["flows.0.bytes=1000"]).path, "flows[0].bytes");
    assert_eq!(err("{}", &["flows.0.scheme=\"e2e\""]).path, "flows[0].scheme");
    // ns-2's defaults are accepted as they are.
    load(&scenario("{}", false), &[]);
}
