//! AIRMAIL's handoff with state transfer through the simulator (issue 34
//! item 2; seed 002 Sec. 5.1; elaarag-002.md Sec. 1.6, statement
//! AIRMAIL-3): `elaarag02/airmail-handoff`, a mobile host moving between
//! two AIRMAIL cells every 30 s during a 300 s Reno transfer; the old base
//! station's link-layer state goes to the new one as control messages on
//! the wired links (`link_handoff = "transfer"`), against no transfer
//! (`keep`). The MAC's own timeline of a move is
//! `lasthop_net::mac::circuit`'s test
//! `airmail_state_moves_to_a_new_circuit_and_every_packet_goes_up_once_in_order`.

use crate::common;
use lasthop_sim::{embedded, RunSummary};

const SEEDS: std::ops::Range<u64> = 1..11;

fn run(sets: &[&str], seed: u64) -> RunSummary {
    common::run_embedded("elaarag02/airmail-handoff", sets, seed)
}

/// Packets lost anywhere: links (queues, errors, outages), the circuits'
/// queues, at a station left (cause `handoff`).
fn lost(s: &RunSummary) -> u64 {
    let links: u64 = s.links.iter().map(|l| l.drops_queue + l.drops_error + l.drops_outage.unwrap_or(0)).sum();
    let circuits: u64 =
        s.media.iter().flat_map(|m| m.circuit.iter()).map(|c| c.drops_queue + c.drops_retry_limit).sum();
    links + circuits + s.handoffs.iter().map(|h| h.lost + h.stranded).sum::<u64>()
}

/// AIRMAIL-3 (ten seeds, nine handoffs each): with the state transfer no
/// packet is lost at a handoff and none reaches the mobile host twice or
/// out of order: every duplicate ack the source sees is one of its own
/// retransmissions' (the circuit's own timeouts at this rate: the same
/// count as the same seed's run without handoffs, within one), and the
/// handoffs cost the transfer only their time. Each transfer carried the
/// old base station's packets (the window, 8 segments, and what it held
/// queued) and was installed about 0.44 s after the attachment (the
/// packing, 0.265 s plus the bytes at 28 kB/s, and the messages). Without
/// the transfer the packets left in the old cell are retransmitted by TCP
/// after its timeouts: several times the retransmissions and timeouts.
///
/// Measured (seeds 1-10): with the transfer 1-3 retransmissions and 1-2
/// timeouts per run, as without handoffs; without it, printed below.
#[test]
fn airmail_3_the_state_transfer_loses_and_duplicates_nothing_across_handoffs() {
    let (mut with_rx, mut keep_rx) = (0u64, 0u64);
    for seed in SEEDS {
        let s = run(&[], seed);
        let still = run(&["every_s=1000.0"], seed);
        let keep = run(&["link_handoff=\"keep\""], seed);
        let f = &s.flows[0];
        println!(
            "seed {seed}: transfer {} B, {} retransmits, {} timeouts, {} dupacks; no handoff {} B, {} retransmits; keep {} B, {} retransmits, {} timeouts; state bytes {:?}",
            f.bytes_delivered,
            f.retransmits,
            f.timeouts,
            f.dupacks_at_source,
            still.flows[0].bytes_delivered,
            still.flows[0].retransmits,
            keep.flows[0].bytes_delivered,
            keep.flows[0].retransmits,
            keep.flows[0].timeouts,
            s.handoffs.iter().map(|h| h.state_bytes.unwrap_or(0)).collect::<Vec<_>>(),
        );
        assert_eq!(s.handoffs.len(), 9, "seed {seed}");
        assert_eq!(lost(&s), 0, "seed {seed}: a packet lost");
        assert!(
            f.dupacks_at_source <= f.retransmits,
            "seed {seed}: a duplicate or reordered packet at the mobile host"
        );
        assert!(f.retransmits <= still.flows[0].retransmits + 1, "seed {seed}: the handoffs made TCP retransmit");
        for h in &s.handoffs {
            let installed = h.state_installed_s.expect("installed");
            assert!(installed > h.complete_s && installed < h.complete_s + 1.0, "seed {seed}: {h:?}");
            assert!(h.state_bytes.is_some_and(|b| b > 64), "seed {seed}: the window carried: {h:?}");
            assert!(h.queued > 0, "seed {seed}: the old cell held packets: {h:?}");
        }
        // Only the handoffs' time: 9 x (0.15 s + the transfer) of 300 s.
        let ratio = f.bytes_delivered as f64 / still.flows[0].bytes_delivered as f64;
        assert!(ratio > 0.95, "seed {seed}: {ratio}");
        assert!(keep.flows[0].retransmits > 5 * f.retransmits.max(1), "seed {seed}: keep retransmits as often");
        assert!(keep.flows[0].timeouts > f.timeouts, "seed {seed}");
        with_rx += f.retransmits;
        keep_rx += keep.flows[0].retransmits;
    }
    println!("AIRMAIL-3: TCP retransmissions over 10 seeds: {with_rx} with the state transfer, {keep_rx} without");
}

/// The transfer needs AIRMAIL circuits alike, each station its base
/// station; and it is not for a split flow's mobile host (I-TCP moves its
/// own state). Each a one-line error naming the field.
#[test]
fn a_transfer_the_stations_cannot_make_is_refused() {
    let text = embedded::get("elaarag02/airmail-handoff").expect("embedded");
    let cases: [(String, &str); 4] = [
        (
            text.replace("mac = \"airmail\"\nstations = [\"bs2\"", "mac = \"rlp\"\nstations = [\"bs2\""),
            "AIRMAIL circuit",
        ),
        (text.replacen("status_period_slots = 4", "status_period_slots = 8", 1), "the stations' circuits alike"),
        (text.replace("stations = [\"bs2\", \"mh\"]", "stations = [\"mh\", \"bs2\"]"), "its circuit's base station"),
        (
            text.replace(
                "[flows.tcp]                        # as elaarag02/airmail\nvariant = \"reno\"",
                "scheme = \"split\"\n[flows.tcp]",
            ),
            "I-TCP moves its own state",
        ),
    ];
    for (bad, why) in cases {
        assert_ne!(bad, text, "{why}: the replacement applies");
        let e = common::load_error(&bad, &[]);
        println!("{e}");
        assert!(!e.contains('\n') && e.starts_with("mobility[0].link_handoff") && e.contains(why), "{why}: {e}");
    }
}

/// Handoffs faster than the transfer: every 0.5 s, while a transfer takes
/// 0.27 s and more to pack plus the attachment's 0.15 s, so that the state
/// reaches the new station about 0.06 s before the mobile host leaves it
/// (or, larger, after: the next handoff overtakes it, and the state stays
/// where it is, carried on by the handoff after). The run keeps its
/// invariants and loses nothing, but the link starves: measured (seed 1,
/// 60 s) 0 bytes with the transfer against 6,968 keeping each cell's state;
/// with handoffs every 1, 3 and 10 s the transfer delivers 13,400, 32,696
/// and 39,128 bytes against 11,256, 17,152 and 23,048.
#[test]
fn handoffs_faster_than_the_transfer_starve_it_and_lose_nothing() {
    let fast = ["every_s=0.5", "duration_s=60.0"];
    let s = run(&fast, 1);
    let keep = run(&[fast[0], fast[1], "link_handoff=\"keep\""], 1);
    assert!(s.handoffs.len() > 100);
    assert_eq!(lost(&s), 0);
    assert!(keep.flows[0].bytes_delivered > s.flows[0].bytes_delivered);
    let slow = run(&["every_s=10.0", "duration_s=60.0"], 1);
    let slow_keep = run(&["every_s=10.0", "duration_s=60.0", "link_handoff=\"keep\""], 1);
    assert!(slow.flows[0].bytes_delivered > slow_keep.flows[0].bytes_delivered);
}
