//! TCP over AIRMAIL (seed 002 Sec. 5.1; elaarag-002.md Sec. 1.6, statement
//! LL-1 for AIRMAIL): `elaarag02/airmail`, a bulk Reno transfer over a
//! 9.6 kb/s circuit whose 64-byte frames AIRMAIL retransmits selectively
//! below IP (the base station's periodic status, the mobile's
//! event-driven one, adaptive FEC), against the same path over a plain
//! link (no ARQ) losing each packet as its frames would be lost together;
//! AIRMAIL's own counters; the scenario's bad inputs; determinism.

use crate::common;
use lasthop_sim::{embedded, RunSummary};

const SEEDS: std::ops::Range<u64> = 1..11;
const FER: f64 = 0.05;

fn airmail(sets: &[&str], seed: u64) -> RunSummary {
    common::run_embedded("elaarag02/airmail", sets, seed)
}

fn plain(seed: u64) -> RunSummary {
    common::circuit_as_plain_link("elaarag02/airmail", FER, seed)
}

fn segments(s: &RunSummary) -> u64 {
    common::wired_segments(s)
}

/// LL-1 (AIRMAIL): over ten seeds at a frame error rate of 0.05, TCP over
/// AIRMAIL (persistent, adaptive FEC) sees no loss (no retransmission, no
/// timeout at the source), while over the plain link it sees the
/// per-packet loss and retransmits and times out.
#[test]
fn ll_1_airmail_hides_the_frame_losses_from_tcp() {
    let (mut with_lost, mut with_sent, mut without_lost, mut without_sent) = (0u64, 0u64, 0u64, 0u64);
    for seed in SEEDS {
        let w = airmail(&[], seed);
        let wo = plain(seed);
        let (fw, fwo) = (&w.flows[0], &wo.flows[0]);
        let c = &w.media[0].circuit;
        let (bs, mh) = (c[0].airmail.as_ref().expect("AIRMAIL"), c[1].airmail.as_ref().expect("AIRMAIL"));
        println!(
            "seed {seed}: AIRMAIL: {} segments, {} retransmits, {} timeouts, {} B delivered, frames {} sent, {} resent, {} corrupted, \
             BS status {} (timer), MH status {}/{}/{} (block/poll/gap), FEC changes {}/{}, repaired {}; \
             plain: {} segments, {} retransmits, {} timeouts, {} B delivered",
            segments(&w),
            fw.retransmits,
            fw.timeouts,
            fw.bytes_delivered,
            c[0].frames_sent,
            c[0].frame_retransmissions,
            c[1].frames_corrupted,
            bs.status_timer,
            mh.status_block,
            mh.status_poll,
            mh.status_timer,
            bs.fec_changes,
            mh.fec_changes,
            bs.fec_byte_repaired,
            segments(&wo),
            fwo.retransmits,
            fwo.timeouts,
            fwo.bytes_delivered,
        );
        assert_eq!((fw.retransmits, fw.timeouts), (0, 0), "seed {seed}: TCP saw a loss over AIRMAIL");
        assert!(c[1].frames_corrupted > 0 && c[0].frame_retransmissions > 0, "seed {seed}: AIRMAIL had work to do");
        assert_eq!(c[0].drops_retry_limit, 0);
        // The asymmetry: only the base station's status is periodic, only
        // the mobile's is event-driven.
        assert!(bs.status_timer > 0 && bs.status_block + bs.status_poll == 0, "seed {seed}: {bs:?}");
        assert!(mh.status_block > 0, "seed {seed}: {mh:?}");
        assert_eq!(mh.polls, 0, "seed {seed}: the mobile never polls");
        assert!(fw.bytes_delivered > 100_000, "seed {seed}: {}", fw.bytes_delivered);
        assert!(fwo.retransmits >= 10 && fwo.timeouts >= 1, "seed {seed}: the plain link hid its losses");
        with_lost += fw.retransmits;
        with_sent += segments(&w);
        without_lost += fwo.retransmits;
        without_sent += segments(&wo);
    }
    let (rw, rwo) = (with_lost as f64 / with_sent as f64, without_lost as f64 / without_sent as f64);
    println!("loss rate seen by TCP (retransmits / segments): AIRMAIL {rw:.4}, plain {rwo:.4}");
    assert!(rwo >= 10.0 * rw && rwo > 0.1);
}

/// The FEC levels as fixed levels: the byte code repairs nearly every hit
/// frame at this frame error rate (independent byte errors: one byte in
/// a hit 64-byte frame, almost always) and costs 16 of its 60 payload
/// bytes; the packet code adds parity frames. Less data goes through with
/// coding (the bandwidth expansion), and no frame is lost to TCP.
#[test]
fn fixed_fec_levels_cost_payload_and_repair_frames() {
    let run = |fec: &str| airmail(&[&format!("fec=\"{fec}\""), "duration_s=120.0"], 3);
    let (none, byte, packet) = (run("none"), run("byte"), run("packet"));
    for (name, s) in [("none", &none), ("byte", &byte), ("packet", &packet)] {
        let c = &s.media[0].circuit[0];
        println!(
            "{name}: {} B delivered, {} frames sent, {} corrupted at the MH, {:?}",
            s.flows[0].bytes_delivered, c.frames_sent, s.media[0].circuit[1].frames_corrupted, c.airmail
        );
    }
    let a = |s: &RunSummary| s.media[0].circuit[0].airmail.clone().expect("AIRMAIL");
    assert_eq!(a(&none).fec_byte_repaired, 0);
    assert_eq!(
        (a(&none).fec_level.as_str(), a(&byte).fec_level.as_str(), a(&packet).fec_level.as_str()),
        ("none", "byte", "packet")
    );
    assert!(a(&byte).fec_byte_repaired > 0 && a(&byte).parity_frames == 0);
    assert!(a(&packet).parity_frames > 0);
    assert!(none.media[0].circuit[1].frames_corrupted > 10 * (byte.media[0].circuit[1].frames_corrupted + 1));
    assert!(byte.flows[0].bytes_delivered < none.flows[0].bytes_delivered);
    assert!(packet.flows[0].bytes_delivered < byte.flows[0].bytes_delivered);
    assert_eq!((a(&none).fec_changes, a(&byte).fec_changes, a(&packet).fec_changes), (0, 0, 0));
}

/// The packet code recovers lost frames without retransmission on a
/// bursty channel the byte code cannot repair (a fade hits the whole
/// frame): a two-state channel, half of its frames in fades.
#[test]
fn the_packet_code_recovers_frames_the_byte_code_cannot() {
    let text = embedded::get("elaarag02/airmail").expect("embedded");
    let bursty = text
        .replace("model = \"bernoulli\"\np = \"${fer}\"", "model = \"two_state\"\ngood_mean = 20.0\nbad_mean = 2.0");
    assert_ne!(bursty, text);
    let s = common::run_text(&bursty, &["fec=\"packet\"", "duration_s=120.0"], 1);
    let a = s.media[0].circuit[0].airmail.clone().expect("AIRMAIL");
    println!("{a:?}, {} B, {} retransmits", s.flows[0].bytes_delivered, s.flows[0].retransmits);
    assert_eq!(a.fec_byte_repaired, 0, "a fade is beyond the byte code");
    assert!(a.fec_block_recovered > 0);
    let b = common::run_text(&bursty, &["fec=\"byte\"", "duration_s=120.0"], 1);
    assert_eq!(b.media[0].circuit[0].airmail.clone().expect("AIRMAIL").fec_byte_repaired, 0);
}

#[test]
fn bad_input_is_one_line_naming_the_field() {
    let text = embedded::get("elaarag02/airmail").expect("embedded");
    let e = common::load_error(text, &["fec=\"turbo\""]);
    println!("{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("media[0].airmail.fec: no such FEC level (adaptive, none, byte, packet)"), "{e}");
    let bad = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        let e = common::load_error(&text.replace(from, to), &[]);
        println!("{e}");
        assert!(!e.contains('\n'), "one line: {e}");
        e
    };
    let e = bad("window_frames = 32 ", "window_frames = 65 ");
    assert!(e.contains("media[0].airmail.window_frames"), "{e}");
    let e = bad("status_period_slots = 4 ", "status_period_slots = 1 ");
    assert!(e.contains("media[0].airmail.status_period_slots"), "{e}");
    let e = bad("frame_bytes = 64 ", "frame_bytes = 20 ");
    assert!(e.contains("media[0].airmail.byte_t"), "{e}");
    let three = text.replace("stations = [\"bs\", \"mh\"]", "stations = [\"bs\", \"mh\", \"fh\"]");
    let e = common::load_error(&three, &[]);
    assert!(!e.contains('\n') && e.contains("media[0].stations") && e.contains("mac = \"airmail\""), "{e}");
}

#[test]
fn a_run_is_determined_by_its_seed() {
    let sets = ["duration_s=60.0"];
    let a = serde_json::to_string(&airmail(&sets, 7)).unwrap();
    let b = serde_json::to_string(&airmail(&sets, 7)).unwrap();
    assert_eq!(a, b);
    let c = serde_json::to_string(&airmail(&sets, 8)).unwrap();
    assert_ne!(a, c, "another seed, other losses");
}
