//! I-TCP's handoff with state transfer (issue 32 item 3; seed 002 Sec.
//! 5.3; elaarag-002.md Sec. 1.11, statements ITCP-1..3): the split
//! connection's state moves to the new base station once the mobile host is
//! attached there, in 265 ms plus the buffered bytes at 28,127 B/s (the
//! straight line through Bakre and Badrinath's 265 ms with empty buffers and
//! 1430 ms with 32 KB: the calibration the reference names).
//!
//! The scenario is seed 002 Sec. 5.2's handoff one (`elaarag02/handoff`: a
//! fixed host's bulk transfer to a mobile host moving between two cells
//! every 5 s, each handoff 152 ms, 4.4BSD timers) with the scheme `split`.
//! It draws nothing unless errors are added: one seed where it is
//! deterministic, ten where it is not.

use crate::common;
use lasthop_core::trace::{SenderEventKind, Trace};
use lasthop_sim::{embedded, run, RunSummary};

/// The handoff scenario with I-TCP: the connection split at the base
/// station the mobile host is attached to.
fn itcp_text() -> String {
    let text = embedded::get("elaarag02/handoff").expect("embedded");
    text.replace("mechanism = \"none\"", "mechanism = \"i-tcp\"")
}

/// With bit errors on both cells, both ways (an error every `mean` bytes
/// on average).
fn with_errors(text: &str, mean: u32) -> String {
    common::with_link_errors(text, &["cell1", "cell2"], mean)
}

fn traced(text: &str, sets: &[&str], seed: u64) -> (RunSummary, Trace) {
    let out = run(&common::load(text, sets), seed, true).unwrap_or_else(|e| panic!("{e}"));
    (out.summary, out.trace)
}

/// The wireless leg's connection (the one split flow's, after the model's
/// flows).
const LEG: u32 = 1;

/// ITCP-1: the handoff's state transfer takes 265 ms with empty buffers
/// (the transfer begins before the flow does) and 1430 ms (within 10 %)
/// with 32 KB buffered: a 16 KB relay and a 16 KB window at the base
/// station's wired receiver, both full when the mobile host leaves (the
/// wired leg is five times the wireless one's rate). The state is installed
/// at the new station that long after the mobile host is attached there.
#[test]
fn itcp_1_the_state_transfer_takes_265_ms_empty_and_1430_ms_with_32_kb() {
    let text = itcp_text();
    let (s, _) = traced(&text, &["flows.0.start_s=5.5"], 1);
    let h = &s.handoffs[0];
    assert_eq!(h.state_bytes, Some(0), "{h:?}");
    let took = h.state_installed_s.expect("installed") - h.complete_s;
    // The fixed part, then one message of 1500 bytes over the two 10 Mb/s
    // hops between the stations (1.2 ms and 1 ms each).
    assert!((took - (0.265 + 2.0 * (0.0012 + 0.001))).abs() < 1e-6, "{took}");

    let (s, _) = traced(&text, &["flows.0.tcp.split_buffer_bytes=16384", "flows.0.tcp.socket_buffer_bytes=16384"], 1);
    for h in &s.handoffs {
        let bytes = h.state_bytes.expect("a transfer");
        assert!((0.9 * 32768.0..=32768.0).contains(&(bytes as f64)), "{h:?}");
        let took = h.state_installed_s.expect("installed") - h.complete_s;
        assert!((took - 1.430).abs() <= 0.143, "{took} s for {bytes} bytes");
        eprintln!("ITCP-1: {bytes} bytes installed {took:.4} s after the completion");
    }
    assert_eq!(s.handoffs.len(), 5);
}

/// ITCP-2: over ten seeds of bit errors on both cells (one every 64 KB on
/// average) and a handoff every 5 s (152 ms each, shorter than the source's
/// 1 s-and-more timer), the fixed host sees no duplicate ack and no
/// timeout: the wireless leg repairs every loss. The same channel end to
/// end (Reno, no split) brings both to the fixed host.
#[test]
fn itcp_2_wireless_losses_and_handoffs_never_reach_the_fixed_host() {
    let text = with_errors(&itcp_text(), 65536);
    let plain = with_errors(embedded::get("elaarag02/handoff").expect("embedded"), 65536);
    let (mut repaired, mut plain_dupacks, mut plain_timeouts) = (0, 0, 0);
    for seed in 1..=10 {
        let s = common::run_text(&text, &[], seed);
        let f = &s.flows[0];
        assert_eq!((f.dupacks_at_source, f.timeouts), (0, 0), "seed {seed}: {f:?}");
        let split = f.split.as_ref().expect("split");
        repaired += split.wireless_retransmits;
        assert_eq!(s.handoffs.len(), 5);
        let p = &common::run_text(&plain, &["variant=reno"], seed).flows[0];
        (plain_dupacks, plain_timeouts) = (plain_dupacks + p.dupacks_at_source, plain_timeouts + p.timeouts);
    }
    assert!(repaired >= 100, "the wireless leg repaired {repaired} losses");
    assert!(
        plain_dupacks >= 100 && plain_timeouts >= 10,
        "end to end: {plain_dupacks} dupacks, {plain_timeouts} timeouts"
    );
}

/// ITCP-3: once the state is installed at the new station, the wireless
/// sender sends at once (within one wireless round trip: at the very
/// instant), from a window of one segment, the mobile host's first
/// unacknowledged byte; it does not wait for its retransmission timer
/// (frozen with the state, and at least 1 s under 4.4BSD's), which would
/// hold the mobile host's data back for that long after the move.
#[test]
fn itcp_3_after_the_move_the_wireless_sender_resends_at_once_from_one_segment() {
    let (s, t) = traced(&itcp_text(), &[], 1);
    for h in &s.handoffs {
        let installed = h.state_installed_s.expect("installed");
        let ns = (installed * 1e9).round() as u64;
        let e = &t.events;
        let reset = (0..e.time_ns.len())
            .find(|&i| e.flow[i] == LEG && e.kind[i] == SenderEventKind::MoveReset && e.time_ns[i].abs_diff(ns) < 2);
        assert!(reset.is_some(), "a move reset at {installed}");
        let x = &t.sent;
        let first = (0..x.time_ns.len()).find(|&i| x.flow[i] == LEG && x.time_ns[i] + 2 > ns).expect("a segment");
        assert!(
            x.time_ns[first].abs_diff(ns) < 2,
            "first segment {} s after {installed}",
            common::secs(x.time_ns[first])
        );
        assert!(x.retransmit[first], "it resends what the mobile host lacks");
        let w = &t.window;
        let cwnd = (0..w.time_ns.len())
            .find(|&i| w.flow[i] == LEG && w.time_ns[i] + 2 > ns)
            .map(|i| w.cwnd_bytes[i])
            .expect("a window");
        assert_eq!(cwnd, 1460, "from one segment");
        // It crossed the new station's link: the mobile host acknowledges
        // new data (its delayed ack's 200 ms at most later).
        let a = &t.acks;
        let acked = (0..a.time_ns.len())
            .find(|&i| a.flow[i] == LEG && a.time_ns[i] > ns && a.ack[i] > x.seq[first])
            .map(|i| common::secs(a.time_ns[i]) - installed);
        assert!(acked.is_some_and(|d| d < 0.25), "acked {acked:?} s after the move");
    }
}

/// Bad input: the one-line error naming the field.
/// The state transfer is a message on the wired links (issue 32 item 2;
/// elaarag-002.md Sec. 2.2, primitive 5). With the path to bs2 at 128 kb/s
/// the 23 messages of a 32 KB state take 94 ms each on it (paced at that
/// rate), so the state is installed at least 0.265 s and 1.142 s of
/// packing and 23 x 94 ms after the completion (1.437 s on 10 Mb/s); into
/// bs1, whose path is fast, handoffs are not delayed. With bit errors on that link
/// too, the messages lost are sent again and every state still arrives.
/// Measured: 3.47 s into bs2, 0.56-0.71 s into bs1 (less state there: the
/// slow link slowed the flow); with errors, 5 messages lost and resent,
/// installs into bs2 3.57-3.66 s.
#[test]
fn itcp_state_transfer_messages_cross_and_are_lost_on_the_wired_path() {
    let fast = "name = \"wired2\"\na = \"router\"\nb = \"bs2\"\nbandwidth_bps = 10e6";
    let slow = "name = \"wired2\"\na = \"router\"\nb = \"bs2\"\nbandwidth_bps = 128e3";
    let text = itcp_text().replace(fast, slow);
    assert!(text.contains(slow));
    let sets = ["flows.0.tcp.split_buffer_bytes=16384", "flows.0.tcp.socket_buffer_bytes=16384"];
    for errors in [false, true] {
        let text = if errors { common::with_link_errors(&text, &["wired2"], 30_000) } else { text.clone() };
        let (s, t) = traced(&text, &sets, 1);
        let (mut into_bs2, mut into_bs1) = (Vec::new(), Vec::new());
        for h in &s.handoffs {
            let bytes = h.state_bytes.expect("a transfer");
            let took = h.state_installed_s.expect("installed") - h.complete_s;
            let messages = bytes.div_ceil(1460) as f64;
            if h.to == "bs2" {
                let least = 0.265 + bytes as f64 / 28127.0 + messages * 1500.0 * 8.0 / 128e3;
                assert!(took >= least, "errors {errors}: {took} s for {bytes} B");
                into_bs2.push(took);
            } else {
                assert!(took < 1.5, "errors {errors}: {took} s into bs1");
                into_bs1.push(took);
            }
        }
        assert!(!into_bs2.is_empty() && !into_bs1.is_empty());
        // Control messages are the connections past the flow and its leg.
        let lost = t.drops.flow.iter().zip(&t.drops.is_data).filter(|&(&f, &d)| f > LEG && !d).count();
        assert_eq!(lost > 0, errors, "messages lost: {lost}");
        eprintln!("ITCP messages, errors {errors}: into bs2 {into_bs2:?} s, into bs1 {into_bs1:?} s, {lost} lost");
    }
}

#[test]
fn bad_itcp_input_names_the_field() {
    let text = itcp_text();
    let err = common::load_error;
    let at = "anchor = \"router\"";
    let e = err(&text.replace(at, &format!("{at}\nstate_transfer_s = -0.1")), &[]);
    assert!(e.contains("mobility[0].state_transfer_s"), "{e}");
    let e = err(&text.replace(at, &format!("{at}\nstate_transfer_bytes_per_s = 0")), &[]);
    assert!(e.contains("mobility[0].state_transfer_bytes_per_s"), "{e}");
    let e = err(&text.replace("scheme = \"split\"", "scheme = \"m-tcp\""), &[]);
    assert!(e.contains("flows[0].scheme") && e.contains("m-tcp's supervisor host does not follow"), "{e}");
    let e = err(&text, &["frho=true"]);
    assert!(e.contains("flows[0].tcp.frho") && e.contains("I-TCP's move"), "{e}");
    let e = err(&text.replace("scheme = \"split\"", "scheme = \"m-tcp\""), &[]);
    assert!(e.contains("flows[0].scheme") && e.contains("m-tcp's supervisor host does not follow"), "{e}");
    // The mobile host sending: its split is not built.
    let up = text.replace("from = \"fh\"\nto = \"mh\"", "from = \"mh\"\nto = \"fh\"");
    assert_ne!(up, text);
    let e = err(&up, &[]);
    assert!(e.contains("flows[0].scheme") && e.contains("to a mobile receiver only"), "{e}");
}
