//! Seed 000 Fig. 1 through the whole simulator: a window of five segments,
//! the first two dropped on the last hop by a drop list aimed at their
//! sequence numbers. NewReno repairs the second loss on the partial ack;
//! Reno leaves recovery on that ack and needs a coarse timeout.

use crate::common;
use common::{path, run_text};
use lasthop_core::trace::SenderEventKind;

const FIG1_DROPS: &str = r#"{ model = "list", seqs = [0, 1000] }"#;

#[test]
fn newreno_repairs_fig1_without_timeout_reno_does_not() {
    let reno = run_text(&path("reno", 20_000, FIG1_DROPS, 5), &[], 1);
    let newreno = run_text(&path("newreno", 20_000, FIG1_DROPS, 5), &[], 1);
    let (r, n) = (&reno.flows[0], &newreno.flows[0]);
    assert!(r.completed && n.completed);
    assert_eq!((r.fast_retransmits, r.timeouts), (1, 1), "Reno: one fast retransmit, then a timeout");
    assert_eq!((n.fast_retransmits, n.timeouts), (1, 0), "NewReno: partial ack repairs the second loss");
    assert_eq!(n.retransmits, 2, "exactly the two lost segments are resent");
    assert!(n.transfer_time_s < r.transfer_time_s / 2.0, "{} vs {}", n.transfer_time_s, r.transfer_time_s);
    // The drop list hits exactly two data packets on bs->mh's equivalent.
    let second = newreno.links.iter().find(|l| l.direction == "mid->dst").unwrap();
    assert_eq!(second.drops_error, 2);
}

#[test]
fn tahoe_repairs_fig1_by_go_back_n() {
    let t = run_text(&path("tahoe", 20_000, FIG1_DROPS, 5), &[], 1);
    let f = &t.flows[0];
    assert!(f.completed);
    assert_eq!((f.fast_retransmits, f.timeouts), (1, 0));
    // 0 and 1000 are resent, and so is 2000, which the receiver already had.
    assert_eq!(f.retransmits, 3);
}

#[test]
fn drops_aimed_at_the_same_segment_twice_force_a_timeout() {
    // Dropping the first transmission of 0 via the seq list and its fast
    // retransmission via the packet index (the 6th packet on that direction).
    let drops = r#"{ model = "list", seqs = [0], packets = [5] }"#;
    let s = run_text(&path("newreno", 20_000, drops, 5), &[], 1);
    assert_eq!(s.flows[0].timeouts, 1);
    assert!(s.flows[0].completed);
}

/// elaarag-002.md MULTI-1 (seed 002 Sec. 5.2, after Fall and Floyd 1996):
/// three segments dropped from one window of 30 (a drop list aimed at
/// segments 5, 10 and 15 of the first window). Reno's fast recovery
/// repairs the first and leaves on its partial ack: it needs a timeout.
/// NewReno repairs one hole per partial ack, three round trips, no
/// timeout. SACK repairs all three within about one round trip of its
/// fast retransmit (1.4 here), no timeout. Recovery: from the fast
/// retransmit to the recovery's exit.
#[test]
fn multi_1_three_losses_in_one_window() {
    const DROPS: &str = r#"{ model = "list", seqs = [5000, 10000, 15000] }"#;
    // The path's round trip: 2 x 2 x 10 ms of propagation, two 1 ms
    // serializations of a segment and its ack's.
    const RTT_S: f64 = 0.042;
    let recovery = |variant: &str| {
        let out = lasthop_sim::run(&common::load(&path(variant, 100_000, DROPS, 30), &[]), 1, true)
            .unwrap_or_else(|e| panic!("{e}"));
        let f = &out.summary.flows[0];
        assert!(f.completed, "{variant}");
        let e = &out.trace.events;
        let at =
            |k: SenderEventKind| (0..e.time_ns.len()).find(|&i| e.kind[i] == k).map(|i| common::secs(e.time_ns[i]));
        let fr = at(SenderEventKind::FastRetransmit).expect("a fast retransmit");
        let exit = at(SenderEventKind::RecoveryExit).map(|x| x - fr);
        (f.fast_retransmits, f.timeouts, exit, f.retransmits)
    };
    let reno = recovery("reno");
    let newreno = recovery("newreno");
    let sack = recovery("sack");
    assert!(reno.1 >= 1, "Reno needs a timeout: {reno:?}");
    assert_eq!(newreno.1, 0, "NewReno: {newreno:?}");
    assert_eq!(sack.1, 0, "SACK: {sack:?}");
    let (n, s) = (newreno.2.expect("NewReno leaves recovery"), sack.2.expect("SACK leaves recovery"));
    assert!((2.5 * RTT_S..4.0 * RTT_S).contains(&n), "NewReno: one hole per round trip, {n} s");
    assert!(s < 2.0 * RTT_S, "SACK: {s} s");
    assert_eq!((newreno.3, sack.3), (3, 3), "only the three lost segments are resent");
}
