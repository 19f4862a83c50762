//! Issue 13's measures for seed 004 (Yun 2009) through the whole simulator:
//! spurious timeouts (Fig. 13), the ELN delay (Table 1), the notification
//! overhead (Eqs. 2-4), the sending-rate series (Fig. 16), the LL-ELSN trace
//! events and the notices in pcap captures.

mod common;
use common::{path, run_text};
use lasthop_sim::embedded;

/// `yun09/downlink` with text replaced (each pattern must occur).
fn downlink(extra: &[(&str, &str)]) -> String {
    let mut t = embedded::get("yun09/downlink").unwrap().to_string();
    for (a, b) in extra {
        assert!(t.contains(a), "{a}");
        t = t.replacen(a, b, 1);
    }
    t
}

/// The downlink as a 1 MB transfer with delayed acks (one per two
/// segments), a 100 ms link retransmission delay (Fig. 13's setting) and
/// the medium's error model replaced by the scripted `error`.
fn held_frame_downlink(error: &str) -> String {
    downlink(&[
        ("error = { model = \"bernoulli\", p = \"${fer}\" }", error),
        ("duration_s = 200.0                 # [T] long-lived FTP", "bytes = 1000000"),
        ("policy = \"immediate\"", "policy = \"delayed\""),
        ("queue_packets = 50                 # [T] IFQ 50", "queue_packets = 50\nll_retransmission_delay_ms = 100.0"),
    ])
}

#[test]
fn a_frame_the_access_point_holds_past_the_rto_makes_a_spurious_timeout() {
    // The AP's 701st data-frame attempt and the 14 after it fail: with l =
    // 16 and 100 ms between attempts that frame is held about 1.5 s, the
    // whole queue behind it, then delivered. The ack direction's list
    // never reaches index 700 (delayed acks: about 600 ack frames). The
    // sender's timer fires once meanwhile and resends a segment that was
    // never lost.
    let held = "error = { model = \"list\", packets = [700, 701, 702, 703, 704, 705, 706, 707, 708, 709, 710, 711, 712, 713, 714] }";
    let text = held_frame_downlink(held);
    for seed in [1, 3] {
        let s = run_text(&text, &["retry_limit=16", "protocol=\"sack\""], seed);
        let f = &s.flows[0];
        assert_eq!((f.timeouts, f.spurious_timeouts), (1, 1), "seed {seed}");
        // Same seed, ERSN on: the AP's first retry raises an ERSN, the
        // sender defers its timer instead, and nothing is spurious.
        let s = run_text(&text, &["retry_limit=16", "protocol=\"ll-elsn\""], seed);
        let f = &s.flows[0];
        let l = f.ll_elsn.as_ref().unwrap();
        assert_eq!((f.timeouts, f.spurious_timeouts, l.deferred_timeouts), (0, 0, 1), "seed {seed}");
        // Without the held frame the same runs have no timeout at all.
        let s = run_text(
            &held_frame_downlink("error = { model = \"list\", packets = [] }"),
            &["retry_limit=16", "protocol=\"sack\""],
            seed,
        );
        assert_eq!((s.flows[0].timeouts, s.flows[0].spurious_timeouts), (0, 0), "seed {seed}");
    }
}

#[test]
fn fig13_setting_has_spurious_timeouts_and_they_never_exceed_the_timeouts() {
    // Fig. 13: l = 7, 100 ms link retransmission delay, high FER, SACK.
    let text = downlink(&[
        ("stop_s = 200.0", "stop_s = 30.0"),
        ("queue_packets = 50                 # [T] IFQ 50", "queue_packets = 50\nll_retransmission_delay_ms = 100.0"),
    ]);
    let s = run_text(&text, &["retry_limit=7", "protocol=\"sack\"", "fer=0.1"], 1);
    let f = &s.flows[0];
    assert!(f.spurious_timeouts > 0 && f.spurious_timeouts <= f.timeouts, "{f:?}");
}

#[test]
fn genuine_losses_make_no_spurious_timeout() {
    // The first two segments are lost on the wire (an initial window of
    // two: no duplicate acks), so the timer fires and its resend is the
    // only copy that arrives.
    let text = path("reno", 20_000, r#"{ model = "list", seqs = [0, 1000] }"#, 2);
    let f = &run_text(&text, &[], 1).flows[0];
    assert!(f.timeouts >= 1, "{f:?}");
    assert_eq!(f.spurious_timeouts, 0);
}
