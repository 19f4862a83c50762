//! The link-layer statements through the simulator on Table I's path
//! (`elaarag02/link-layer`; elaarag-002.md Sec. 4, LL-2), and the
//! scenario's own checks: each `link` runs, the plain case is
//! `elaarag02/table1`'s run.

use crate::common;
use lasthop_sim::RunSummary;

fn ll(sets: &[&str], seed: u64) -> RunSummary {
    common::run_embedded("elaarag02/link-layer", sets, seed)
}

/// The plain case is Table I's run (the same link, channel and flow), and
/// the circuits hide the channel's losses from TCP.
#[test]
fn the_plain_case_is_table_i_and_the_circuits_carry_the_flow() {
    let plain = ll(&["duration_s=100.0"], 1);
    let table1 = common::run_embedded("elaarag02/table1", &["flows.0.duration_s=100.0"], 1);
    assert_eq!(plain.flows[0].bytes_delivered, table1.flows[0].bytes_delivered);
    assert_eq!(plain.flows[0].retransmits, table1.flows[0].retransmits);
    assert_eq!(plain.events, table1.events);
    for link in ["rlp", "airmail"] {
        let s = ll(&[&format!("link=\"{link}\""), "duration_s=100.0"], 1);
        let c = &s.media[0].circuit;
        println!(
            "{link}: {} B, {} retransmits, frames {} sent, {} resent, {} corrupted at the MH",
            s.flows[0].bytes_delivered,
            s.flows[0].retransmits,
            c[0].frames_sent,
            c[0].frame_retransmissions,
            c[1].frames_corrupted
        );
        assert!(c[1].frames_corrupted > 0 && c[0].frame_retransmissions > 0, "{link}");
        assert!(s.flows[0].bytes_delivered > 2 * plain.flows[0].bytes_delivered, "{link}");
        let wireless = s.links.iter().find(|l| l.name == "wireless").expect("the wireless link");
        assert_eq!(wireless.drops_error, 0, "{link}: the link's own error model is not consulted");
    }
}

#[test]
fn error_others_needs_a_circuit() {
    let text = lasthop_sim::embedded::get("elaarag02/ebsn").expect("embedded");
    let bad = text.replace("[media.dcf]", "[media.error_others]\nmodel = \"bernoulli\"\np = 0.1\n[media.dcf]");
    let e = common::load_error(&bad, &[]);
    println!("{e}");
    assert!(!e.contains('\n') && e.contains("media[0].error_others: needs a circuit"), "{e}");
}
