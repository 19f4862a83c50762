//! Seed 000 Fig. 1 through the whole simulator: a window of five segments,
//! the first two dropped on the last hop by a drop list aimed at their
//! sequence numbers. NewReno repairs the second loss on the partial ack;
//! Reno leaves recovery on that ack and needs a coarse timeout.

use crate::common;
use common::{path, run_text};

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
