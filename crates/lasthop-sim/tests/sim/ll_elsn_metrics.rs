//! Issue 13's measures for seed 004 (Yun 2009) through the whole simulator:
//! spurious timeouts (Fig. 13), the ELN delay (Table 1), the notification
//! overhead (Eqs. 2-4), the sending-rate series (Fig. 16), the LL-ELSN trace
//! events and the notices in pcap captures.

use crate::common;
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
        ("error = { model = \"frame_error_rate\", fer = \"${fer}\", reference_bytes = 1074 }", error),
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
    // sender's timer (ns-2's, 200 ms at least) fires meanwhile, backing
    // off, and resends a segment that was never lost.
    let held = "error = { model = \"list\", packets = [700, 701, 702, 703, 704, 705, 706, 707, 708, 709, 710, 711, 712, 713, 714] }";
    let text = held_frame_downlink(held);
    for seed in [1, 3] {
        let s = run_text(&text, &["retry_limit=16", "protocol=\"sack\""], seed);
        let f = &s.flows[0];
        assert!(f.spurious_timeouts >= 1 && f.spurious_timeouts <= f.timeouts, "seed {seed}: {f:?}");
        let without = f.spurious_timeouts;
        // Same seed, ERSN on: the AP's first retry raises an ERSN, the
        // sender defers its timer instead (as often as the 1.5 s hold
        // needs: yun-004.md Sec. 2.3's bound, about l T_llrtx / RTO): fewer
        // spurious timeouts (segments queued behind the held frame, never
        // retried themselves, have no ERSN to cover them).
        let sets = ["retry_limit=16", "protocol=\"ll-elsn\"", "flows.0.tcp.ll_elsn.ersn_max_deferrals=16"];
        let s = run_text(&text, &sets, seed);
        let f = &s.flows[0];
        let l = f.ll_elsn.as_ref().unwrap();
        assert!(f.spurious_timeouts < without, "seed {seed}: {f:?}");
        assert!(l.deferred_timeouts >= 1, "seed {seed}: {l:?}");
        // Without the held frame the same runs time out less, spuriously
        // less (collisions still stall the AP 100 ms at a time).
        let s = run_text(
            &held_frame_downlink("error = { model = \"list\", packets = [] }"),
            &["retry_limit=16", "protocol=\"sack\""],
            seed,
        );
        assert!(s.flows[0].spurious_timeouts < without, "seed {seed}: {:?}", s.flows[0]);
    }
}

#[test]
fn in_fig13s_setting_spurious_timeouts_never_exceed_the_timeouts() {
    // Fig. 13: l = 7, 100 ms link retransmission delay, high FER, SACK.
    // Every frame, TCP acks included, lost with probability FER (the
    // scenario's error model until issue 28 item 6, which this test was
    // written for). With the scenario's sourced `frame_error_rate` (acks
    // lose 0.65 % at FER 9 %) the station's acks rarely stall, the samples
    // carry fewer stalls, and these four runs have 3 spurious timeouts of
    // 5 (reported, not asserted here).
    let text = downlink(&[
        ("stop_s = 200.0", "stop_s = 30.0"),
        ("queue_packets = 50                 # [T] IFQ 50", "queue_packets = 50\nll_retransmission_delay_ms = 100.0"),
        (
            "error = { model = \"frame_error_rate\", fer = \"${fer}\", reference_bytes = 1074 }",
            "error = { model = \"bernoulli\", p = \"${fer}\" }",
        ),
    ]);
    // A spurious timeout is a timeout: never more of them, in any run.
    let mut spurious = 0;
    for (fer, seed) in [("0.05", 1), ("0.1", 1), ("0.1", 2), ("0.2", 3)] {
        let s = run_text(&text, &["retry_limit=7", "protocol=\"sack\"", &format!("fer={fer}")], seed);
        let f = &s.flows[0];
        assert!(f.spurious_timeouts <= f.timeouts, "{f:?}");
        spurious += f.spurious_timeouts;
    }
    // With the AP blocked through every retry delay, the RTT samples carry
    // the stalls and the timer outgrows them: hardly any is spurious.
    assert!(spurious <= 2, "{spurious}");
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

fn station<'a>(s: &'a lasthop_sim::RunSummary, node: &str) -> &'a lasthop_sim::metrics::DcfSummary {
    s.media[0].stations.iter().find(|st| st.node == node).expect("a station on the medium")
}

#[test]
fn downlink_eln_delay_is_the_wired_one_way_delay_of_a_notice() {
    // l = 1, FER 3 %: every lost data frame is an ELN from the AP, carried
    // over two 10 Mb/s hops of 10 ms: T_wrd = 2 x (10 ms + 40 B x 8 / 10
    // Mb/s = 32 us) = 20.064 ms when no ack is ahead of it (Table 1:
    // LL-ELSN's downlink ELN delay is T_wrd); a TCP ack being sent on the
    // same hop can hold it by up to 32 us per hop.
    let text = downlink(&[("stop_s = 200.0", "stop_s = 30.0")]);
    let s = run_text(&text, &["protocol=\"ll-elsn\"", "fer=0.03"], 1);
    let f = &s.flows[0];
    let l = f.ll_elsn.as_ref().unwrap();
    let ap = station(&s, "ap");
    assert!(l.elns_received > 10, "{l:?}");
    let (mean, min, max) = (l.eln_delay_ms_mean.unwrap(), l.eln_delay_ms_min.unwrap(), l.eln_delay_ms_max.unwrap());
    assert!((min - 20.064).abs() < 1e-9, "{min}");
    assert!(min <= mean && mean <= max && max <= 20.064 + 2.0 * 0.032 + 1e-9, "{mean} {max}");
    // Overhead (Sec. 3.2): one 40-byte ELN per discarded data frame (the
    // AP sends nothing else), no ERSN with l = 1; the data bytes are every
    // segment the sender sent, 1040 bytes each.
    assert_eq!((l.ersns_sent, l.ersn_bytes_sent), (0, 0));
    assert_eq!((l.elns_sent, l.eln_bytes_sent), (ap.drops_retry_limit, 40 * ap.drops_retry_limit));
    assert!(l.elns_received <= l.elns_sent && l.elns_sent - l.elns_received <= 5, "{l:?}");
    assert_eq!(l.data_bytes_sent % 1040, 0);
    let at_least = 1040 * (f.bytes_delivered / 1000 + f.retransmits);
    assert!((at_least..at_least + 1040 * 200).contains(&l.data_bytes_sent), "{} {at_least}", l.data_bytes_sent);
    // With link retransmissions each data frame's first retry is one ERSN.
    let s = run_text(&text, &["protocol=\"ll-elsn\"", "fer=0.05", "retry_limit=3"], 1);
    let l = s.flows[0].ll_elsn.as_ref().unwrap();
    assert!(l.ersns_sent > 0 && l.ersns_sent <= station(&s, "ap").retries, "{l:?}");
    assert_eq!(l.ersn_bytes_sent, 40 * l.ersns_sent);
    // A plain SACK flow through a medium without LL-ELSN reports none of it.
    let s = run_text(&text, &["protocol=\"sack\"", "fer=0.03"], 1);
    assert!(s.flows[0].ll_elsn.is_none());
}

/// Uplink (seed 004 Fig. 8): a station sends through the access point to a
/// wired host; the station's MAC tells its own TCP (Sec. 3.1).
const UPLINK: &str = r#"
name = "uplink"
stop_s = 20.0
[[nodes]]
name = "m"
[[nodes]]
name = "ap"
[[nodes]]
name = "h"
[[links]]
name = "wired"
a = "ap"
b = "h"
bandwidth_bps = 10e6
delay_ms = 10.0
queue_packets = 50
[[media]]
name = "wlan"
mac = "dcf"
stations = ["m", "ap"]
error = { model = "bernoulli", p = 0.05 }
ll_elsn = true
[media.dcf]
retry_limit = 2
queue_packets = 50
[[flows]]
name = "up"
from = "m"
to = "h"
duration_s = 20.0
[flows.tcp]
variant = "sack"
mss_bytes = 1000
header_bytes = 40
ack_bytes = 40
socket_buffer_bytes = 1000000
ll_elsn = { response = "esack" }
"#;

#[test]
fn uplink_notices_are_upcalls_with_no_delay_and_no_bytes() {
    let s = run_text(UPLINK, &[], 1);
    let l = s.flows[0].ll_elsn.as_ref().unwrap();
    let m = station(&s, "m");
    assert!(l.elns_sent > 0 && l.ersns_sent > 0, "{l:?}");
    // Every data frame the station gave up on or first retried is a notice
    // at once: all of them are received (the sender never stopped).
    assert_eq!((l.elns_sent, l.elns_received), (m.drops_retry_limit, m.drops_retry_limit));
    assert_eq!(l.ersns_sent, l.ersns_received);
    assert_eq!((l.ersn_bytes_sent, l.eln_bytes_sent), (0, 0));
    assert_eq!((l.eln_delay_ms_mean, l.eln_delay_ms_min, l.eln_delay_ms_max), (Some(0.0), Some(0.0), Some(0.0)));
}

/// (summary, count of each sender event kind in the trace).
fn traced(text: &str, sets: &[&str], seed: u64) -> (lasthop_sim::RunSummary, lasthop_core::trace::Trace) {
    let out = lasthop_sim::run(&common::load(text, sets), seed, true).unwrap();
    (out.summary, out.trace)
}

fn events(t: &lasthop_core::trace::Trace, kind: lasthop_core::trace::SenderEventKind) -> u64 {
    t.events.kind.iter().filter(|&&k| k == kind).count() as u64
}

#[test]
fn notices_deferrals_and_disconnections_are_traced_one_event_each() {
    use lasthop_core::trace::SenderEventKind as K;
    // FER 9 %, l = 1: ELNs, some runs of them long enough to declare a
    // disconnection (N = 2).
    let text = downlink(&[("stop_s = 200.0", "stop_s = 30.0")]);
    let (s, t) = traced(&text, &["protocol=\"ll-elsn\"", "fer=0.09"], 1);
    let l = s.flows[0].ll_elsn.as_ref().unwrap();
    assert!(l.elns_received > 0 && l.disconnections > 0, "{l:?}");
    assert_eq!(events(&t, K::ElnReceived), l.elns_received);
    assert_eq!(events(&t, K::Disconnection), l.disconnections);
    assert_eq!(events(&t, K::ErsnReceived), 0);
    // Each disconnection is declared on an ELN, at the same instant.
    for (i, _) in t.events.kind.iter().enumerate().filter(|(_, &k)| k == K::Disconnection) {
        assert!((0..i)
            .rev()
            .take_while(|&j| t.events.time_ns[j] == t.events.time_ns[i])
            .any(|j| t.events.kind[j] == K::ElnReceived));
    }
    // The held frame: ERSNs, and the timeout the ERSN deferred.
    let held = "error = { model = \"list\", packets = [700, 701, 702, 703, 704, 705, 706, 707, 708, 709, 710, 711, 712, 713, 714] }";
    let (s, t) = traced(&held_frame_downlink(held), &["retry_limit=16", "protocol=\"ll-elsn\""], 1);
    let l = s.flows[0].ll_elsn.as_ref().unwrap();
    assert_eq!(events(&t, K::ErsnReceived), l.ersns_received);
    assert!(l.deferred_timeouts >= 1, "{l:?}");
    assert_eq!(events(&t, K::TimeoutDeferred), l.deferred_timeouts);
    assert_eq!(events(&t, K::Timeout), s.flows[0].timeouts);
}

#[test]
fn captured_notices_carry_their_type_in_the_reserved_bits() {
    use lasthop_sim::{run_with, CaptureSpec, RunOptions};
    let text = downlink(&[("stop_s = 200.0", "stop_s = 10.0")]);
    let sc = common::load(&text, &["protocol=\"ll-elsn\"", "fer=0.05", "retry_limit=2"]);
    let options = RunOptions { captures: vec![CaptureSpec::parse("wired2:ap->r")], ..RunOptions::default() };
    let out = run_with(&sc, 1, &options).unwrap();
    let l = out.summary.flows[0].ll_elsn.as_ref().unwrap();
    assert!(l.ersns_sent > 0 && l.elns_sent > 0, "{l:?}");
    // Each libpcap record: 16-byte header, then Ethernet, IPv4, TCP; the
    // TCP header's byte 12 is the record's byte 14 + 20 + 12.
    let file = &out.pcaps[0].bytes;
    let (mut at, mut kinds) = (24, [0u64; 4]);
    while at < file.len() {
        let caplen = u32::from_le_bytes(file[at + 8..at + 12].try_into().unwrap()) as usize;
        kinds[usize::from((file[at + 16 + 46] & 0x06) >> 1)] += 1;
        at += 16 + caplen;
    }
    // Every notice crosses the AP's wired hop once (none waits there at
    // the end: the hop is nearly idle); the TCP acks are plain.
    assert_eq!((kinds[1], kinds[2], kinds[3]), (l.ersns_sent, l.elns_sent, 0));
    assert!(kinds[0] > 1000, "the station's TCP acks");
}

#[test]
fn the_send_rate_series_bins_every_segment_sent() {
    let text = downlink(&[("stop_s = 200.0", "stop_s = 10.0")]);
    let (s, t) = traced(&text, &["protocol=\"ll-elsn\"", "fer=0.09"], 1);
    let r = &t.send_rate;
    let sent = r.segments.iter().map(|&n| u64::from(n)).sum::<u64>();
    assert_eq!(sent as usize, t.sent.time_ns.len(), "every segment in one bin");
    let rexmits = r.retransmits.iter().map(|&n| u64::from(n)).sum::<u64>();
    assert_eq!(rexmits, s.flows[0].retransmits);
    // One flow: a row per 100 ms bin from its start (t = 0) to its last segment.
    let last = *t.sent.time_ns.last().unwrap();
    assert_eq!(r.time_ns.len() as u64, last / 100_000_000 + 1);
    assert!(r.time_ns.iter().enumerate().all(|(i, &at)| at == i as u64 * 100_000_000));
}

/// Issue 28 item 5: a station raises ERSN at every first link
/// retransmission of a TCP segment, from its own retry state: also when the
/// peer already handed the frame up and only the MAC ack was lost, which
/// the sending station cannot know (seed 004 Sec. 3.1: "When the wireless
/// link layer of BS fails in the first transmission attempt of the packet 1
/// (Layer-2 ACK timeout) ... BS sends the [ERSN]"). With l = 2 every retry
/// is a first one, so ERSNs number the data frames' retries exactly. Every
/// frame, MAC acks included (`control_frame_errors`), is lost with the same
/// probability 0.1 (the scenario's FER model would spare a 14-byte MAC ack
/// almost always). Witness that some retry was of a frame the peer already
/// had: the peer received it again and suppressed the copy
/// (`duplicates_suppressed`). (An earlier witness, retries > corrupted +
/// collisions, counted a frame both corrupted and collided twice, held by
/// chance and failed when the scenario's defaults changed.)
#[test]
fn ersn_on_the_first_retry_even_when_the_peer_already_has_the_frame() {
    let text = downlink(&[("stop_s = 200.0", "stop_s = 10.0")]);
    for mode in ["blocking", "deferred"] {
        let sets = [
            "protocol=\"ll-elsn\"",
            "media.0.error={model=\"bernoulli\",p=0.1}",
            "retry_limit=2",
            "media.0.dcf.control_frame_errors=true",
            "media.0.dcf.ll_retransmission_delay_ms=100",
            &format!("media.0.dcf.ll_retransmission=\"{mode}\""),
        ];
        let s = run_text(&text, &sets, 1);
        let (l, ap, m) = (s.flows[0].ll_elsn.as_ref().unwrap(), station(&s, "ap"), station(&s, "d"));
        assert!(m.duplicates_suppressed > 0, "{mode}: {m:?}");
        assert_eq!(l.ersns_sent, ap.retries, "{mode}: {l:?} {ap:?}");
        assert_eq!(l.ersn_bytes_sent, 40 * l.ersns_sent, "{mode}");
    }
    // Uplink: the station's MAC tells its own TCP, on the same rule.
    let s =
        run_text(UPLINK, &["media.0.dcf.control_frame_errors=true", "media.0.error={model=\"bernoulli\",p=0.1}"], 1);
    let (l, m, ap) = (s.flows[0].ll_elsn.as_ref().unwrap(), station(&s, "m"), station(&s, "ap"));
    assert!(ap.duplicates_suppressed > 0, "{ap:?}");
    assert_eq!((l.ersns_sent, l.ersns_received), (m.retries, m.retries), "{l:?} {m:?}");
}

/// The LHP packet list counts duplicate acks by the trigger each ack names
/// (its SMART echo): a scenario's receiver must echo for an `lhp_list`
/// sender, else the list never counts and every loss it does not hear of by
/// ELN waits for the timer (seed 004 Fig. 14's LHP). Ten flows through one
/// access point, 20 s: the AP's queue overflows and the list fast
/// retransmits.
#[test]
fn the_lhp_lists_receiver_echoes_its_trigger_and_the_list_fast_retransmits() {
    let sets =
        ["protocol=\"ll-elsn\"", "flows.0.tcp.ll_elsn.response=\"lhp_list\"", "stop_s=20", "flows.0.duration_s=20"];
    let s = common::run_embedded("yun09/cell", &sets, 1);
    let fast: u64 = s.flows.iter().map(|f| f.fast_retransmits).sum();
    let timeouts: u64 = s.flows.iter().map(|f| f.timeouts).sum();
    assert!(fast > timeouts, "fast retransmits {fast}, timeouts {timeouts}");
}
