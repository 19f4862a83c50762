//! The blackout study (issue 32 item 5; elaarag-002.md Secs. 1.8, 1.15 and
//! 2.3): one blackout of the mobile host's link, plain TCP against
//! fast-retransmit handoff and Freeze-TCP (`elaarag02/blackout`).

use crate::common;
use common::secs;
use lasthop_core::trace::{SenderEventKind, Trace};
use lasthop_sim::RunSummary;

const DOWN_AT: f64 = 10.0;

fn blackout(variant: &str, mechanism: &str, blackout_s: f64, seed: u64) -> (RunSummary, Trace) {
    let sets = [format!("variant={variant}"), format!("mechanism=\"{mechanism}\""), format!("blackout_s={blackout_s}")];
    let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
    common::run_embedded_traced("elaarag02/blackout", &sets, seed)
}

/// The stall after the reconnection: from the link's coming back to the
/// first segment the fixed host sends, in s.
fn stall(t: &Trace, up_s: f64) -> f64 {
    let x = &t.sent;
    (0..x.time_ns.len()).map(|i| secs(x.time_ns[i])).find(|&a| a >= up_s).expect("sends again") - up_s
}

/// The path's round trip with a full-sized segment: 2 x (10 + 100) ms of
/// propagation, 1024 bytes at 1.5 and 0.8 Mb/s, a 40-byte ack.
const RTT_S: f64 = 0.24;

const BLACKOUTS: [f64; 4] = [0.1, 0.8, 2.0, 5.0];

/// The sender's timeouts after `from` and up to `to` (s).
fn timeouts_in(t: &Trace, from: f64, to: f64) -> Vec<f64> {
    let e = &t.events;
    (0..e.time_ns.len())
        .filter(|&i| e.kind[i] == SenderEventKind::Timeout)
        .map(|i| secs(e.time_ns[i]))
        .filter(|&a| a > from && a <= to)
        .collect()
}

/// (time s, cwnd bytes) of the window samples.
fn windows(t: &Trace) -> Vec<(f64, u64)> {
    let w = &t.window;
    (0..w.time_ns.len()).map(|i| (secs(w.time_ns[i]), w.cwnd_bytes[i])).collect()
}

/// Issue 32's blackout study: plain Reno waits for its backed-off
/// retransmission timeout. Its first segment after the reconnection is a
/// timeout's, the first (RTO 1 s) after 0.1 and 0.8 s, the second (after
/// one doubling) after 2 s, the third after 5 s: 0.91, 0.21, 1.01 and
/// 2.01 s after the link came back, the 0.8 s case only sooner than a
/// round trip because its first timeout fell just after. NewReno the same.
#[test]
fn blackout_plain_reno_waits_for_its_backed_off_rto() {
    for variant in ["reno", "newreno"] {
        for (b, timeouts) in BLACKOUTS.into_iter().zip([1, 1, 2, 3]) {
            let (s, t) = blackout(variant, "none", b, 1);
            let up = DOWN_AT + b;
            let resume = up + stall(&t, up);
            let during = timeouts_in(&t, DOWN_AT, resume);
            assert_eq!(during.len(), timeouts, "{variant} {b} s: {during:?}");
            assert_eq!(*during.last().expect("a timeout"), resume, "{variant} {b} s: resumes at a timeout");
            assert_eq!(s.flows[0].timeouts, timeouts as u64, "{variant} {b} s");
            if b >= 2.0 {
                assert!(resume - up > RTT_S, "{variant} {b} s: {}", resume - up);
                // Each wait twice the one before.
                let gaps: Vec<f64> = during.windows(2).map(|w| w[1] - w[0]).collect();
                assert!(gaps.windows(2).all(|g| (g[1] - 2.0 * g[0]).abs() < 1e-6), "{gaps:?}");
            }
        }
    }
}

/// Issue 32's blackout study: with fast-retransmit handoff the fixed host
/// sends again within one round trip of the reconnection (0.11 s: the
/// mobile host's three acks cross the path's uplink), after every
/// blackout. (What follows differs: its own acks lost with the link, the
/// first of the three acks new data and the window moves on; when the
/// whole window was lost, one fast retransmit repairs one hole, and Reno
/// or NewReno still time out once; after 2 or 5 s the first timeout came
/// during the blackout, and the acks save only the backed-off ones.)
#[test]
fn blackout_frho_resumes_within_one_rtt() {
    for variant in ["reno", "newreno"] {
        for b in BLACKOUTS {
            let (s, t) = blackout(variant, "frho", b, 1);
            let st = stall(&t, DOWN_AT + b);
            assert!(st <= RTT_S, "{variant} {b} s: {st}");
            let (plain, _) = blackout(variant, "none", b, 1);
            assert!(s.flows[0].timeouts <= plain.flows[0].timeouts, "{variant} {b} s");
        }
    }
}

/// Issue 32's blackout study (FREEZE-1's shape on another path): Freeze-TCP
/// warned a round trip ahead has no timeout, and the fixed host sends
/// again within one round trip of the reconnection (0.11 s: the TR-ACKs)
/// with the window it had before the freeze.
#[test]
fn blackout_freeze_has_no_timeout_and_resumes_with_its_window() {
    for variant in ["reno", "newreno"] {
        for b in BLACKOUTS {
            let (s, t) = blackout(variant, "freeze", b, 1);
            assert_eq!(s.flows[0].timeouts, 0, "{variant} {b} s");
            let up = DOWN_AT + b;
            let st = stall(&t, up);
            assert!(st <= RTT_S, "{variant} {b} s: {st}");
            let w = windows(&t);
            let before = w.iter().rev().find(|x| x.0 < DOWN_AT - 0.24).expect("a window before").1;
            let at_resume = w.iter().rev().find(|x| x.0 <= up + st).expect("a window").1;
            assert_eq!(at_resume, before, "{variant} {b} s: the window kept");
        }
    }
}

/// elaarag-002.md TAHOE-4, serial timeouts: Tahoe under a 5 s blackout
/// times out, then waits twice as long and times out again, and twice as
/// long again: at +1.01, +3.01 and +7.01 s (RFC 6298's 1 s minimum RTO
/// here, armed by the last ack before the blackout; the survey's ns had
/// about 1.2 s: +1.2, +3.6, +8.4 s). Every timeout but the last falls
/// inside the blackout; the first segment after the reconnection leaves at
/// the first backed-off expiry after it (2 s after it, not at it), and it
/// is that expiry's retransmission. (Karn's rule, TAHOE-4's last part, is
/// `lasthop-tcp`'s `fig1_timelines`: an ack of a retransmitted segment
/// gives no sample. The scenario has nothing random: one seed.)
#[test]
fn tahoe_4_serial_timeouts_resume_at_the_first_expiry_after_reconnection() {
    let b = 5.0;
    let up = DOWN_AT + b;
    let (s, t) = blackout("tahoe", "none", b, 1);
    let resume = up + stall(&t, up);
    let timeouts = timeouts_in(&t, DOWN_AT, resume);
    assert_eq!(timeouts.len(), 3, "{timeouts:?}");
    assert_eq!(s.flows[0].timeouts, 3);
    let (last, before) = timeouts.split_last().expect("timeouts");
    assert!(before.iter().all(|&a| a < up), "{timeouts:?}");
    assert_eq!(*last, resume, "resumes at the first expiry after {up} s");
    assert!((resume - up - 2.0).abs() < 0.02, "{} s after the reconnection", resume - up);
    let x = &t.sent;
    let first = (0..x.time_ns.len()).find(|&i| secs(x.time_ns[i]) >= up).expect("sends again");
    assert!(x.retransmit[first], "the first segment after is the timeout's retransmission");
    // The first about one minimum RTO into the blackout, then waits of 2 and 4 s.
    assert!((1.0..1.02).contains(&(timeouts[0] - DOWN_AT)), "{timeouts:?}");
    let gaps: Vec<f64> = timeouts.windows(2).map(|w| w[1] - w[0]).collect();
    assert!((gaps[0] - 2.0).abs() < 1e-6 && (gaps[1] - 4.0).abs() < 1e-6, "{gaps:?}");
}
