//! TCP over RLP (seed 002 Sec. 5.1; elaarag-002.md Sec. 1.5, statement
//! LL-1): `elaarag02/rlp`, a bulk Reno transfer over a 9.6 kb/s circuit
//! whose 64-byte frames RLP retransmits selectively below IP, against the
//! same path over a plain link (no ARQ) losing each packet as its frames
//! would be lost together; the scenario's bad inputs; determinism.

use crate::common;
use lasthop_sim::{embedded, RunSummary};

const SEEDS: std::ops::Range<u64> = 1..11;
const FER: f64 = 0.05;

fn rlp(sets: &[&str], seed: u64) -> RunSummary {
    common::run_embedded("elaarag02/rlp", sets, seed)
}

fn plain(seed: u64) -> RunSummary {
    common::circuit_as_plain_link("elaarag02/rlp", FER, seed)
}

fn segments(s: &RunSummary) -> u64 {
    common::wired_segments(s)
}

/// LL-1: over ten seeds at a frame error rate of 0.05, TCP over persistent
/// RLP sees no loss (no retransmission, no timeout at the source), while
/// over the plain link it sees the per-packet loss (about 40% of the data
/// packets) and retransmits and times out: a cut of the loss rate seen by
/// TCP of far more than 10x.
#[test]
fn ll_1_persistent_rlp_hides_the_frame_losses_from_tcp() {
    let (mut with_lost, mut with_sent, mut without_lost, mut without_sent) = (0u64, 0u64, 0u64, 0u64);
    for seed in SEEDS {
        let w = rlp(&[], seed);
        let wo = plain(seed);
        let (fw, fwo) = (&w.flows[0], &wo.flows[0]);
        let c = &w.media[0].circuit;
        println!(
            "seed {seed}: RLP: {} segments, {} retransmits, {} timeouts, {} B delivered, frames {} sent, {} resent, {} corrupted; \
             plain: {} segments, {} retransmits, {} timeouts, {} B delivered",
            segments(&w),
            fw.retransmits,
            fw.timeouts,
            fw.bytes_delivered,
            c[0].frames_sent,
            c[0].frame_retransmissions,
            c[1].frames_corrupted,
            segments(&wo),
            fwo.retransmits,
            fwo.timeouts,
            fwo.bytes_delivered,
        );
        assert_eq!((fw.retransmits, fw.timeouts), (0, 0), "seed {seed}: TCP saw a loss over RLP");
        assert!(c[1].frames_corrupted > 0 && c[0].frame_retransmissions > 0, "seed {seed}: RLP had work to do");
        assert_eq!(c[0].drops_retry_limit, 0);
        assert!(fw.bytes_delivered > 100_000, "seed {seed}: {}", fw.bytes_delivered);
        assert!(fwo.retransmits >= 10 && fwo.timeouts >= 1, "seed {seed}: the plain link hid its losses");
        with_lost += fw.retransmits;
        with_sent += segments(&w);
        without_lost += fwo.retransmits;
        without_sent += segments(&wo);
    }
    let (rw, rwo) = (with_lost as f64 / with_sent as f64, without_lost as f64 / without_sent as f64);
    println!("loss rate seen by TCP (retransmits / segments): RLP {rw:.4}, plain {rwo:.4}");
    assert!(rwo >= 10.0 * rw && rwo > 0.1);
}

#[test]
fn bad_input_is_one_line_naming_the_field() {
    let text = embedded::get("elaarag02/rlp").expect("embedded");
    let bad = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        let e = common::load_error(&text.replace(from, to), &[]);
        println!("{e}");
        assert!(!e.contains('\n'), "one line: {e}");
        e
    };
    let e = bad("# retry_limit absent", "retry_limit = 0\n#");
    assert!(e.contains("media[0].rlp.retry_limit: must be at least 1, or none for persistent"), "{e}");
    let e = bad("window_frames = 64 ", "window_frames = 0 ");
    assert!(e.contains("media[0].rlp.window_frames"), "{e}");
    let e = bad("feedback_period_slots = 4 ", "feedback_period_slots = 1 ");
    assert!(e.contains("media[0].rlp.feedback_period_slots"), "{e}");
    let three = text.replace("stations = [\"bs\", \"mh\"]", "stations = [\"bs\", \"mh\", \"fh\"]");
    let e = common::load_error(&three, &[]);
    println!("{e}");
    assert!(!e.contains('\n') && e.contains("media[0].stations") && e.contains("exactly two stations"), "{e}");
}

#[test]
fn a_run_is_determined_by_its_seed() {
    let sets = ["duration_s=60.0"];
    let a = serde_json::to_string(&rlp(&sets, 7)).unwrap();
    let b = serde_json::to_string(&rlp(&sets, 7)).unwrap();
    assert_eq!(a, b);
    let c = serde_json::to_string(&rlp(&sets, 8)).unwrap();
    assert_ne!(a, c, "another seed, other losses");
}

/// The basic form and out-of-order hand-up run too, TCP still unaware of
/// the frame losses (in order: packets go up whole and in order).
#[test]
fn the_basic_form_also_hides_the_losses() {
    for seed in 1..4 {
        let s = rlp(&["form=\"basic\"", "duration_s=120.0"], seed);
        let f = &s.flows[0];
        println!("basic, seed {seed}: {} retransmits, {} timeouts, {} B", f.retransmits, f.timeouts, f.bytes_delivered);
        assert_eq!((f.retransmits, f.timeouts), (0, 0), "seed {seed}");
        assert!(f.bytes_delivered > 30_000);
    }
}
