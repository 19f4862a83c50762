//! Issue 11, seed 001: the endpoints' asymmetry options in whole runs (each
//! run checks packet conservation and exactly-once delivery). The path is
//! two 8 Mb/s links of 10 ms; 1000-byte segments, a 100-segment window.

use crate::common;
use common::{load, path_with, run_text};
use lasthop_sim::{run, RunSummary};

const BYTES: u64 = 2_000_000;
const NONE: &str = "{ model = \"none\" }";

/// Packets that crossed the last hop toward the receiver (data) and back (acks).
fn data_and_acks(s: &RunSummary) -> (u64, u64) {
    let on = |dir: &str| s.links.iter().find(|l| l.name == "second" && l.direction == dir).unwrap().packets_sent;
    (on("mid->dst"), on("dst->mid"))
}

/// The most data segments the sender handed out at one instant.
fn largest_burst(tcp: &str) -> usize {
    let out = run(&load(&path_with(tcp, BYTES, NONE, 2), &[]), 1, true).unwrap();
    assert!(out.summary.flows[0].completed);
    let t = &out.trace.sent.time_ns;
    t.chunk_by(|a, b| a == b).map(<[u64]>::len).max().unwrap()
}

const DELAYED: &str = "ack = { policy = \"delayed\", delay_ms = 100.0 }";

/// Sec. 8.2's testbed ACC acks once per min(max_delack, window / 2)
/// segments; with SA no more than maxburst segments leave at once (AS-41)
/// although each ack releases many.
#[test]
fn testbed_acc_thins_acks_and_sender_adaptation_caps_the_bursts_they_release() {
    let plain = run_text(&path_with(DELAYED, BYTES, NONE, 2), &[], 1);
    let acc = format!("{DELAYED}\ntimestamps = true\nsender_window_option = true\nacc = {{ mode = \"testbed\" }}");
    let with_sa = format!("{acc}\nsender_adaptation = {{ maxburst = 3 }}");
    let thinned = run_text(&path_with(&with_sa, BYTES, NONE, 2), &[], 1);
    for s in [&plain, &thinned] {
        assert!(s.flows[0].completed && s.flows[0].retransmits == 0);
    }
    let (data, acks_plain) = data_and_acks(&plain);
    let (_, acks_acc) = data_and_acks(&thinned);
    assert_eq!(data, BYTES / 1000);
    // Delayed acks: one per 2 segments; ACC: up to one per 25.
    assert!(acks_plain >= data / 2, "{acks_plain}");
    assert!(acks_acc * 5 < acks_plain, "ACC {acks_acc} acks vs {acks_plain}");
    // Each ACC ack releases up to 25 segments at once; SA cuts them to 3.
    assert!(largest_burst(&acc) > 10, "{}", largest_burst(&acc));
    assert_eq!(largest_burst(&with_sa), 3);
}

/// ACC's ECN mode with nothing marking the acks: d stays 1, an ack per
/// segment, and the ECN and timestamp options change nothing else.
#[test]
fn ecn_mode_acc_without_marks_acks_every_segment() {
    let tcp = format!(
        "{DELAYED}\necn = true\ntimestamps = true\nsender_window_option = true\nacc = {{ mode = \"ecn\" }}\nfast_retransmit_request = {{}}"
    );
    let s = run_text(&path_with(&tcp, BYTES, NONE, 2), &[], 1);
    assert!(s.flows[0].completed);
    let (data, acks) = data_and_acks(&s);
    assert_eq!((data, acks), (BYTES / 1000, BYTES / 1000));
}

/// A loss whose first two duplicate acks are lost too: a counting sender
/// fast-retransmits at its third duplicate (the receiver's fifth); with the
/// fast-retransmit request the receiver's third, marked, is enough.
#[test]
fn fast_retransmit_request_survives_lost_duplicate_acks() {
    // Segment 30 (seq 30000) is lost; acks go one per segment, so ack
    // packets 30 and 31 on the way back are its first two duplicates.
    let drops =
        "{ model = \"list\", seqs = [30000] }\n[topology.second.ba]\nerror = { model = \"list\", packets = [30, 31] }";
    let run_fr = |extra: &str| {
        let out =
            run(&load(&path_with(&format!("variant = \"newreno\"{extra}"), BYTES, drops, 2), &[]), 1, true).unwrap();
        let f = &out.summary.flows[0];
        assert!(f.completed);
        assert_eq!((f.fast_retransmits, f.timeouts), (1, 0));
        let t = &out.trace.sent;
        let i = t.retransmit.iter().position(|&r| r).unwrap();
        assert_eq!(t.seq[i], 30_000);
        t.time_ns[i]
    };
    let counted = run_fr("");
    let requested = run_fr("\nfast_retransmit_request = { threshold = 3 }");
    // Two duplicates earlier: two 1 ms segment times on the 8 Mb/s link.
    assert_eq!(counted - requested, 2_000_000);
}
