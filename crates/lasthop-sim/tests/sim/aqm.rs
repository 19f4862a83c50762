//! CoDel, PIE and FQ-CoDel on a bottleneck in whole runs (issue 29 item
//! 10): the AQMs today's satellite and cellular last hops are compared
//! with keep the standing queue, and so the round trip, short where a
//! large drop-tail buffer fills. Every run checks packet conservation, with
//! CoDel's drops at dequeue counted as drops.

use crate::common;
use common::load;
use lasthop_sim::metrics::{LinkSummary, QueueSummary, RunSummary};
use lasthop_sim::{Format, Scenario, World};

/// server -[100 Mb/s, 1 ms]- r -[2 Mb/s, 20 ms, 200 packets]- client: a 3
/// MB transfer through a bottleneck whose drop-tail buffer holds 1.2 s of
/// packets; `queue` is the bottleneck's `queue` table (TOML inline), `duplex`
/// its MAC member.
fn bottleneck(queue: &str, duplex: &str) -> String {
    format!(
        r#"
name = "bottleneck"
stop_s = 120
[[nodes]]
name = "server"
[[nodes]]
name = "r"
[[nodes]]
name = "client"
[[links]]
name = "lan"
a = "server"
b = "r"
bandwidth_bps = 100e6
delay_ms = 1.0
queue_packets = 200
[[links]]
name = "neck"
a = "r"
b = "client"
bandwidth_bps = 10e6
delay_ms = 20.0
queue_packets = 300
duplex = "{duplex}"
ab = {{ queue = {queue} }}
[[flows]]
name = "bulk"
from = "server"
to = "client"
bytes = 10000000
[flows.tcp]
socket_buffer_bytes = 2000000
timestamps = true
"#
    )
}

fn run(queue: &str, duplex: &str) -> RunSummary {
    let m = load(&bottleneck(queue, duplex), &[]).model;
    let mut w = World::new(&m, 1, false);
    assert!(w.run());
    w.check_invariants().unwrap();
    w.summary()
}

fn neck(s: &RunSummary) -> (&LinkSummary, &QueueSummary) {
    let l = s.links.iter().find(|l| l.direction == "r->client").unwrap();
    (l, l.queue.as_ref().unwrap())
}

#[test]
fn each_aqm_keeps_the_queue_and_the_round_trip_short_where_drop_tail_fills() {
    for duplex in ["full", "half"] {
        let tail = run("{}", duplex);
        let (_, tq) = neck(&tail);
        let tail_rtt = tail.flows[0].mean_rtt_ms.unwrap();
        assert!(tail.flows[0].completed);
        // Drop-tail: the window grows until the 300-packet buffer
        // overflows; some 140 packets wait on average, 230 ms of round trip.
        assert!(tq.mean_queue_packets > 100.0 && tail_rtt > 200.0, "{duplex}: {tq:?}");
        assert_eq!(tq.drops_early, 0);
        let mut codel_flows = None;
        for aqm in ["{ codel = {} }", "{ fq_codel = {} }", "{ pie = {} }"] {
            let s = run(aqm, duplex);
            let (l, q) = neck(&s);
            let f = &s.flows[0];
            let rtt = f.mean_rtt_ms.unwrap();
            assert!(f.completed, "{duplex} {aqm}");
            // Early drops (at dequeue for CoDel) ...
            assert!(q.drops_early > 0, "{duplex} {aqm}: {l:?}");
            // ... a queue a fifth of drop-tail's or less (3 and 15 packets) ...
            assert!(q.mean_queue_packets < tq.mean_queue_packets / 5.0, "{duplex} {aqm}: {q:?} vs {tq:?}");
            if aqm.contains("codel") {
                // ... a round trip near the 40 ms of propagation (46 ms,
                // against 233 to 238) with the link still busy ...
                assert!(l.drops_queue == 0 && rtt < tail_rtt / 4.0, "{duplex} {aqm}: {rtt} vs {tail_rtt}");
                assert!(q.utilisation > 0.8 * tq.utilisation, "{duplex} {aqm}: {q:?} vs {tq:?}");
                // ... and, with one flow, FQ-CoDel is CoDel.
                match &codel_flows {
                    None => codel_flows = Some(s.flows.clone()),
                    Some(c) => assert_eq!(*c, s.flows, "{duplex}"),
                }
            } else {
                // PIE steers the queue to its 15 ms reference (12 packets
                // at 10 Mb/s), but the slow start it let into the 300-packet
                // buffer under its 150 ms burst allowance drives p near 1,
                // and the lone flow recovers slowly (60 and 124 ms of mean
                // round trip; 5.4 and 1.1 Mb/s against drop-tail's 7.9 and
                // 7.7).
                assert!(rtt < 0.6 * tail_rtt, "{duplex} {aqm}: {rtt} vs {tail_rtt}");
            }
        }
    }
}

#[test]
fn bad_aqm_settings_get_one_line_naming_the_field() {
    let err = |queue: &str| {
        let text = bottleneck(queue, "full");
        Scenario::load(&text, Format::Toml, &[], "t").map(|_| ()).unwrap_err().to_string()
    };
    let e = err("{ codel = { target_ms = -5 } }");
    assert!(e.contains("queue.codel.target_ms") && e.contains("above 0"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    let e = err(r#"{ discipline = "codel" }"#);
    assert!(e.contains("discipline") && e.contains("codel"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    let e = err("{ codel = {}, pie = {} }");
    assert!(e.contains("queue.pie") && e.contains("only one of"), "{e}");
    let e = err("{ fq_codel = { quantum_bytes = 0 } }");
    assert!(e.contains("queue.fq_codel.quantum_bytes"), "{e}");
}

/// Jersey's congestion warning (seed 004; lasthop-net `queue/cw.rs`) on the
/// same bottleneck, for an ECN-capable Reno flow (RFC 3168's once-a-window
/// halving on ECN-Echo): every packet is marked while the average exceeds 5
/// packets, none is dropped early, and the queue stays far below drop-tail's.
#[test]
fn jersey_cw_marks_without_early_drops_and_keeps_the_queue_short() {
    let ecn = |queue: &str| {
        let text = bottleneck(queue, "full").replace("timestamps = true", "timestamps = true\necn = true");
        let m = load(&text, &[]).model;
        let mut w = World::new(&m, 1, false);
        assert!(w.run());
        w.check_invariants().unwrap();
        w.summary()
    };
    let tail = ecn("{}");
    let (_, tq) = neck(&tail);
    let s = ecn("{ jersey_cw = {} }");
    let (l, q) = neck(&s);
    assert!(s.flows[0].completed);
    // 633 marks, no drop of any kind, no retransmission ...
    assert!(q.marks > 0 && q.drops_early == 0 && l.drops_queue == 0, "{l:?}");
    assert_eq!(s.flows[0].retransmits, 0);
    // ... and some 4.6 packets waiting on average, against drop-tail's 146.
    assert!(q.mean_queue_packets < tq.mean_queue_packets / 10.0, "{q:?} vs {tq:?}");
    // A threshold the 300-packet buffer's average never exceeds: one line.
    let text = bottleneck("{ jersey_cw = { threshold_packets = 300 } }", "full");
    let e = Scenario::load(&text, Format::Toml, &[], "t").map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("queue.jersey_cw.threshold_packets") && e.lines().count() == 1, "{e}");
}
