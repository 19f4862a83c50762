//! Issue 29 item 2: no sender's window runs past the bound of the stack it
//! models (`tcp.cwnd_bound`, see `lasthop_tcp::CwndBound`):
//!
//! - `cwnd_limited` (the default; Linux `tcp_is_cwnd_limited()`): an ack
//!   opens the window only while it limits sending, so cwnd stays within
//!   twice the data the socket buffer lets out, plus the segment the last
//!   opening added: 2·buffer + MSS.
//! - `max_window` (4.4BSD `tcp_input`): cwnd ≤ `TCP_MAXWIN << snd_scale`,
//!   the scale the peer's buffer asks for (RFC 7323 Sec. 2.3).
//!
//! Reno's fast recovery inflates the window by a segment per duplicate ack
//! (RFC 5681 Sec. 3.2 step 4), uncapped in 4.4BSD too; a duplicate acks a
//! segment that left, so inflation adds at most a buffer's worth, plus the
//! three segments of the entry (step 3). Outside a recovery the bound holds
//! as it is; inside, with that allowance.
//!
//! Before the bound, an error-free run with a 1 MB buffer grew cwnd to
//! 33.8 MB (the issue); `none` (ns-2's `maxcwnd_ = 0`) still does.

use crate::common;
use common::load;
use lasthop_core::trace::{SenderEventKind, Trace};
use lasthop_sim::{embedded, run, schemes::SCHEMES};
use lasthop_tcp::window_scale::max_window;
use proptest::prelude::*;

const MSS: u64 = 1460;

fn satellite() -> &'static str {
    embedded::get("examples/satellite").expect("embedded")
}

/// The bound outside recovery for `bound` and `buffer`.
fn bound_bytes(bound: &str, buffer: u64) -> u64 {
    match bound {
        "cwnd_limited" => 2 * buffer + MSS,
        "max_window" => max_window(buffer),
        other => panic!("{other}"),
    }
}

/// The window samples of `flow` above the bound, as (time ns, cwnd, in
/// recovery).
fn over(trace: &Trace, flow: u32, limit: u64, allowance: u64) -> Vec<(u64, u64, bool)> {
    let (w, e) = (&trace.window, &trace.events);
    let mut events = (0..e.time_ns.len()).filter(|&i| e.flow[i] == flow).peekable();
    let mut recovering = false;
    let mut bad = Vec::new();
    for i in (0..w.time_ns.len()).filter(|&i| w.flow[i] == flow) {
        let t = w.time_ns[i];
        // Events at or before the sample: the window is recorded after the
        // ack's events.
        while let Some(&j) = events.peek() {
            if e.time_ns[j] > t {
                break;
            }
            match e.kind[j] {
                SenderEventKind::FastRetransmit => recovering = true,
                SenderEventKind::RecoveryExit | SenderEventKind::Timeout => recovering = false,
                _ => {}
            }
            events.next();
        }
        let cwnd = w.cwnd_bytes[i];
        if cwnd > limit + if recovering { allowance } else { 0 } {
            bad.push((t, cwnd, recovering));
        }
    }
    bad
}

fn check(scheme: &str, bound: &str, buffer: u64, sets: &[String], seed: u64) -> Result<u64, String> {
    let mut all = vec![
        format!("scheme=\"{scheme}\""),
        format!("socket_buffer_bytes={buffer}"),
        format!("flows.0.tcp.cwnd_bound=\"{bound}\""),
    ];
    all.extend(sets.iter().cloned());
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = run(&load(satellite(), &refs), seed, true).map_err(|e| e.to_string())?;
    let limit = bound_bytes(bound, buffer);
    let mut largest = 0;
    for flow in 0..out.summary.flows.len() as u32 {
        let bad = over(&out.trace, flow, limit, buffer + 3 * MSS);
        if !bad.is_empty() {
            return Err(format!(
                "{scheme} {bound} buffer {buffer} {sets:?} seed {seed} flow {flow}: bound {limit}, (t ns, cwnd, in recovery) {:?}",
                &bad[..bad.len().min(3)]
            ));
        }
        let w = &out.trace.window;
        largest =
            largest.max((0..w.flow.len()).filter(|&i| w.flow[i] == flow).map(|i| w.cwnd_bytes[i]).max().unwrap_or(0));
    }
    Ok(largest)
}

/// The case: error-free, a 1 MB buffer. Unbounded (ns-2's rule)
/// the window runs to tens of megabytes in two minutes; each stack's bound
/// holds it near the buffer.
#[test]
fn an_error_free_run_with_a_1_mb_buffer_keeps_its_window_bounded() {
    let error_free = ["loss=0".to_string()];
    let buffer = 1 << 20;
    let limited = check("e2e", "cwnd_limited", buffer, &error_free, 1).unwrap();
    assert!(limited <= 2 * buffer + MSS, "{limited}");
    let bsd = check("e2e", "max_window", buffer, &error_free, 1).unwrap();
    assert_eq!(bsd, 2_097_120, "TCP_MAXWIN << 5, reached without loss");
    let sets = ["loss=0".to_string(), "flows.0.tcp.cwnd_bound=\"none\"".to_string()];
    let refs: Vec<&str> = sets.iter().map(String::as_str).collect();
    let mut all = vec!["scheme=\"e2e\"", "socket_buffer_bytes=1048576"];
    all.extend(refs);
    let out = run(&load(satellite(), &all), 1, true).unwrap();
    let ns2 = out.trace.window.cwnd_bytes.iter().copied().max().unwrap();
    assert!(ns2 > 10 * buffer, "unbounded, the window keeps opening: {ns2}");
    // The default is `cwnd_limited`.
    let out = run(&load(satellite(), &["scheme=\"e2e\"", "loss=0"]), 1, true).unwrap();
    let default = out.trace.window.cwnd_bytes.iter().copied().max().unwrap();
    assert_eq!(default, limited);
}

proptest! {
    #![proptest_config(common::proptest_config(256, 29))]
    #[test]
    fn no_window_runs_past_its_stacks_bound(
        scheme in 0..SCHEMES.len(),
        bound in prop::sample::select(vec!["cwnd_limited", "max_window"]),
        buffer in prop::sample::select(vec![8192u64, 65536, 262144, 1_048_576]),
        loss in prop::sample::select(vec![0.0f64, 0.001, 0.01, 0.05]),
        growth in prop::sample::select(vec!["bsd44", "rfc5681"]),
        seed in 1u64..1000,
    ) {
        let sets = vec![
            format!("loss={loss}"),
            format!("flows.0.tcp.window_growth=\"{growth}\""),
            "stop_s=30".to_string(),
            "flows.0.duration_s=30".to_string(),
        ];
        check(SCHEMES[scheme].name, bound, buffer, &sets, seed).map_err(TestCaseError::fail)?;
    }
}
