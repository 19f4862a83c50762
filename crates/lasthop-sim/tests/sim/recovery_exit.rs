//! Issue 29 item 1: every recovery exit of every variant and scheme leaves a
//! window no larger than the one the recovery began with (over a floor of
//! two segments, ssthresh's minimum), plus four segments: 4.4BSD retracts
//! only a window inflated beyond ssthresh + 3 segments (`t_dupacks >
//! tcprexmtthresh`), so a recovery that saw exactly three duplicates exits
//! at ssthresh + 3 segments, and the exiting ack then opens it by up to a
//! segment (slow start). A window of one segment after a timeout, cut to
//! the two-segment floor, so leaves at up to 2 + 4 segments.
//! A recovery that cut the window exits to the cut ssthresh (RFC 5681 Sec.
//! 3.2 step 6, RFC 6582 Sec. 3.2 step 4, RFC 6675 Sec. 5); one that did not
//! (an ELN-marked ack started it: seed 000 Sec. III-A, "retransmissions
//! without invoking the associated congestion-control procedures") exits to
//! the window it entered with. Before the fix, SACK with ELN deflated to an
//! ssthresh no loss had ever reduced: the initial one, u32::MAX or whatever
//! `initial_ssthresh_bytes` said.
//!
//! A property test over random loss rates, socket buffers, initial
//! thresholds, window rules and every scheme of `lasthop schemes`, on the
//! 1997 WAN testbed (whose wired path and 2 Mb/s wireless hop make losses
//! of both kinds), reading each run's window and sender-event traces.

use crate::common;
use common::load;
use lasthop_core::trace::{SenderEventKind, Trace};
use lasthop_sim::{embedded, run, schemes::SCHEMES};
use proptest::prelude::*;

const MSS: u64 = 1400;

/// The recovery exits of `flow` whose window exceeds the entry bound, as
/// (time ns, cwnd at entry, cwnd after the exit).
fn runaway_exits(trace: &Trace, flow: u32) -> Vec<(u64, u64, u64)> {
    let (w, e) = (&trace.window, &trace.events);
    let wins: Vec<(u64, u64)> =
        (0..w.time_ns.len()).filter(|&i| w.flow[i] == flow).map(|i| (w.time_ns[i], w.cwnd_bytes[i])).collect();
    // The window last recorded strictly before `t`, or at or before it.
    let before = |t: u64| wins.iter().take_while(|&&(wt, _)| wt < t).last().map(|&(_, c)| c);
    let at = |t: u64| wins.iter().take_while(|&&(wt, _)| wt <= t).last().map(|&(_, c)| c);
    let mut entry = None;
    let mut bad = Vec::new();
    for i in (0..e.time_ns.len()).filter(|&i| e.flow[i] == flow) {
        let t = e.time_ns[i];
        match e.kind[i] {
            SenderEventKind::FastRetransmit => entry = Some(before(t).unwrap_or(4 * MSS)),
            SenderEventKind::Timeout => entry = None,
            SenderEventKind::RecoveryExit => {
                if let (Some(en), Some(after)) = (entry.take(), at(t)) {
                    if after > en.max(2 * MSS) + 4 * MSS {
                        bad.push((t, en, after));
                    }
                }
            }
            _ => {}
        }
    }
    bad
}

fn check(scheme: &str, sets: &[String], seed: u64) -> Result<(), String> {
    let mut all: Vec<&str> = vec!["flows.0.bytes=1048576"];
    all.extend(sets.iter().map(String::as_str));
    let scheme_set = format!("scheme=\"{scheme}\"");
    all.push(&scheme_set);
    let scenario = load(embedded::get("balakrishnan97/wan").unwrap(), &all);
    let out = run(&scenario, seed, true).map_err(|e| e.to_string())?;
    for flow in 0..out.summary.flows.len() as u32 {
        let bad = runaway_exits(&out.trace, flow);
        if !bad.is_empty() {
            return Err(format!(
                "{scheme} {all:?} seed {seed} flow {flow}: (t ns, entry, exit) {:?}",
                &bad[..bad.len().min(3)]
            ));
        }
    }
    Ok(())
}

/// The case, pinned: SACK with ELN on a large window.
#[test]
fn sack_with_eln_exits_to_the_window_it_entered_with() {
    let sets = ["socket_buffer_bytes=1000000".to_string(), "error_every_bytes=32768".to_string()];
    check("e2e-sack-eln", &sets, 1).unwrap();
    let sets = [sets[0].clone(), sets[1].clone(), "flows.0.tcp.initial_ssthresh_bytes=262144".to_string()];
    check("e2e-sack-eln", &sets, 1).unwrap();
}

proptest! {
    #![proptest_config(common::proptest_config(512, 29))]
    #[test]
    fn no_recovery_exit_grows_the_window(
        scheme in 0..SCHEMES.len(),
        buffer in prop::sample::select(vec![8192u64, 32768, 262144, 1_000_000]),
        errors in prop::sample::select(vec![8192u64, 16384, 65536, 262144]),
        ssthresh in prop::sample::select(vec![None, Some(16384u64), Some(262144)]),
        growth in prop::sample::select(vec!["bsd44", "rfc5681"]),
        prediction in any::<bool>(),
        seed in 1u64..1000,
    ) {
        let mut sets = vec![
            format!("socket_buffer_bytes={buffer}"),
            format!("error_every_bytes={errors}"),
            format!("window_growth=\"{growth}\""),
            format!("header_prediction={prediction}"),
        ];
        if let Some(s) = ssthresh {
            sets.push(format!("flows.0.tcp.initial_ssthresh_bytes={s}"));
        }
        check(SCHEMES[scheme].name, &sets, seed).map_err(TestCaseError::fail)?;
    }
}
