//! Issue 12, item 5: connection start-up and close through the whole
//! simulator. Every run goes through `lasthop_sim::run`, which checks the
//! invariants at its end (packet conservation with the SYN, SYN-ACK and FIN
//! segments counted; in-order exactly-once delivery).
//!
//! The path (tests/common): src -> mid -> dst, two 8 Mb/s links of 10 ms
//! each way; 1000-byte segments with `header_bytes` 0 and 40-byte acks, so
//! a SYN or SYN-ACK (header only, sized as an ack) takes 40 µs per link and
//! crosses the path in 2 × (10 ms + 0.04 ms) = 20.08 ms.

use crate::common;
use common::{path_with, run_text};
use lasthop_sim::metrics::{ConnectionSummary, FlowSummary};

const SYN_ONE_WAY_S: f64 = 0.020_08;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn flow(tcp: &str, drops: &str) -> FlowSummary {
    let text = path_with(&format!("variant = \"reno\"\n{tcp}"), 20_000, drops, 2);
    run_text(&text, &[], 1).flows.into_iter().next().unwrap()
}

fn conn(f: &FlowSummary) -> &ConnectionSummary {
    f.connection.as_ref().expect("a flow with a handshake reports its connection")
}

/// t0 SYN; t40.16 ms SYN-ACK back, ESTABLISHED; the 20 segments then go
/// exactly as they would from t0 without a handshake: the transfer time
/// grows by one SYN round trip and nothing else. The FIN rides the last
/// segment; its ack reaches the sender one ack's trip after the delivery.
#[test]
fn a_handshake_adds_one_round_trip_to_a_short_transfer() {
    let plain = flow("", "{ model = \"none\" }");
    let with = flow("handshake = true", "{ model = \"none\" }");
    assert!(plain.connection.is_none(), "no connection record without the option");
    assert!(plain.completed && with.completed);
    assert_eq!((with.bytes_delivered, with.retransmits, with.timeouts), (20_000, 0, 0));
    let c = conn(&with);
    assert_eq!(c.syn_retransmits, 0);
    assert!(close(c.syn_sent_s, 0.0));
    assert!(close(c.established_s.unwrap(), 2.0 * SYN_ONE_WAY_S), "{:?}", c.established_s);
    assert!(close(with.transfer_time_s - plain.transfer_time_s, 2.0 * SYN_ONE_WAY_S), "{with:?}\n{plain:?}");
    let delivered = c.last_byte_delivered_s.unwrap();
    assert!(close(delivered, with.transfer_time_s));
    // The ack of the last byte and the FIN: 40 bytes back over both links.
    let acked = c.last_byte_acked_s.unwrap();
    assert!(close(acked - delivered, SYN_ONE_WAY_S), "{c:?}");
    assert!(close(c.completion_time_s.unwrap(), acked));
}

/// The SYN is the first packet on the second link: lost. With `initial_s`
/// 3 it goes again at t3 s; the connection is established a round trip
/// later, and the flow starts with one segment.
#[test]
fn a_lost_syn_costs_the_initial_rto() {
    let drops = "{ model = \"list\", packets = [0] }";
    let f = flow("handshake = true\nrto.initial_s = 3.0", drops);
    assert!(f.completed);
    let c = conn(&f);
    assert_eq!((c.syn_retransmits, f.timeouts, f.retransmits), (1, 1, 0));
    assert!(close(c.established_s.unwrap(), 3.0 + 2.0 * SYN_ONE_WAY_S), "{c:?}");
    assert!(c.completion_time_s.unwrap() > 3.0 + 2.0 * SYN_ONE_WAY_S);
    // BSD mode: 12 slow ticks, the SYN at a tick (the flow starts at 0 and
    // the sender's tick phase is drawn per host): between 5.5 and 6 s.
    let f = flow("handshake = true\nrto.mode = \"bsd\"", drops);
    let c = conn(&f);
    let again = c.established_s.unwrap() - 2.0 * SYN_ONE_WAY_S;
    assert!((5.5..=6.0).contains(&again), "{c:?}");
}

/// The SYN-ACK is the first packet on the second link's way back: lost. The
/// SYN's timer (RFC 6298's 1 s) sends the SYN again and the receiver
/// answers it.
#[test]
fn a_lost_syn_ack_costs_the_syn_timer() {
    let text = path_with("variant = \"reno\"\nhandshake = true", 20_000, "{ model = \"none\" }", 2).replace(
        "[topology.second.ab]",
        "[topology.second.ba]\nerror = { model = \"list\", packets = [0] }\n[topology.second.ab]",
    );
    let r = run_text(&text, &[], 1);
    let f = &r.flows[0];
    let c = conn(f);
    assert_eq!(c.syn_retransmits, 1);
    assert!(close(c.established_s.unwrap(), 1.0 + 2.0 * SYN_ONE_WAY_S), "{c:?}");
    let back = r.links.iter().find(|l| l.direction == "dst->mid").expect("the second link's way back");
    assert_eq!(back.drops_error, 1, "the SYN-ACK");
}

/// A timed transfer with a handshake: no FIN, the flow stops on time.
#[test]
fn a_timed_transfer_opens_but_does_not_close() {
    let text = path_with("variant = \"reno\"\nhandshake = true", 1, "{ model = \"none\" }", 2)
        .replace("bytes = 1\n", "duration_s = 1.0\n");
    let r = run_text(&text, &[], 1);
    let c = conn(&r.flows[0]);
    assert!(close(c.established_s.unwrap(), 2.0 * SYN_ONE_WAY_S));
    assert_eq!((c.last_byte_delivered_s, c.last_byte_acked_s, c.completion_time_s), (None, None, None));
    assert!(r.flows[0].bytes_delivered > 0);
}
