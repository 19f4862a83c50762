//! Mobile hosts moving between base stations (issue 32 item 2 and 3; seed
//! 002 Sec. 5.2; elaarag-002.md Secs. 1.8, 2.2-2.4, statements FRHO-1..3
//! and FRHO-5).

use crate::common;
use common::load;
use common::secs;
use lasthop_core::trace::{DropCause, SenderEventKind, Trace};
use lasthop_sim::{embedded, run, RunSummary};

fn handoff(sets: &[&str], seed: u64) -> (RunSummary, Trace) {
    common::run_embedded_traced("elaarag02/handoff", sets, seed)
}

/// The first segment the fixed host sends again (a retransmission) after
/// `after_s`, in s: the handoff lost data, and nothing moves on until it
/// is sent again.
/// (`None`: not before the run's end.)
fn resent_after(t: &Trace, after_s: f64) -> Option<f64> {
    let x = &t.sent;
    (0..x.time_ns.len()).filter(|&i| x.retransmit[i]).map(|i| secs(x.time_ns[i])).find(|&a| a > after_s)
}

/// The fixed host's pause across handoff `k`: from the last segment it
/// sent before the handoff began to the first it sent again after, in s.
/// (A delayed ack the mobile host owed may still let one new segment out
/// after the completion; the lost data waits.)
fn pause(s: &RunSummary, t: &Trace, k: usize) -> f64 {
    let start = s.handoffs[k].start_s;
    let x = &t.sent;
    let before = (0..x.time_ns.len()).rev().map(|i| secs(x.time_ns[i])).find(|&a| a <= start).expect("a segment");
    resent_after(t, start).expect("resent") - before
}

/// (time s, cause, is data) of every drop in [from_s, to_s).
fn drops(t: &Trace, from_s: f64, to_s: f64) -> Vec<(f64, DropCause, bool)> {
    let d = &t.drops;
    (0..d.time_ns.len())
        .map(|i| (secs(d.time_ns[i]), d.cause[i], d.is_data[i]))
        .filter(|x| (from_s..to_s).contains(&x.0))
        .collect()
}

/// One handoff in each link-down mode (issue 32's acceptance; elaarag-002.md
/// Sec. 2.3), the first at 5 s from bs1 to bs2 (complete 152 ms later):
/// - `flush`: the 19 packets queued on bs1's link are lost at the instant
///   it goes down, and the frames on it (an ack on the air, a segment
///   propagating) when they would have arrived;
/// - `hold`: only those frames are lost; the queue is kept (and goes to
///   the mobile host when it comes back to bs1, at 10.152 s);
/// - `blackhole`: nothing is lost at the instant; the queue drains into the
///   void, each frame lost when it would have arrived, one per 6 ms.
///
/// In each, after the switch, the data goes through bs2 and new data is
/// acked again. Every loss has the cause `outage`; none is the handoff's
/// (nothing reaches bs1 after the switch: its wired link is 1 ms long).
#[test]
fn a_handoff_in_each_link_down_mode_loses_holds_or_forwards() {
    for sem in ["flush", "hold", "blackhole"] {
        let (s, t) = handoff(&[&format!("semantics={sem}"), "frho=true"], 1);
        let h = &s.handoffs[0];
        assert_eq!((h.start_s, h.from.as_str(), h.to.as_str()), (5.0, "bs1", "bs2"), "{sem}");
        assert!((h.complete_s - 5.152).abs() < 1e-9, "{sem}: 150 ms + the 2 ms registration round trip");
        assert_eq!(h.queued, 19, "{sem}: bs1's queue at 5 s");
        let at_start = drops(&t, 5.0, 5.0 + 1e-9);
        let during = drops(&t, 5.0, h.complete_s);
        assert!(during.iter().all(|d| d.1 == DropCause::Outage), "{sem}: {during:?}");
        assert_eq!(h.stranded, 0, "{sem}");
        match sem {
            "flush" => {
                assert_eq!(at_start.len(), 19, "{sem}: the queue, at once");
                assert_eq!(h.lost, 21, "{sem}: the queue and the two frames on the link");
            }
            "hold" => {
                assert!(at_start.is_empty(), "{sem}: {at_start:?}");
                assert_eq!(h.lost, 2, "{sem}: only the frames on the link");
            }
            _ => {
                assert!(at_start.is_empty(), "{sem}: {at_start:?}");
                assert_eq!(h.lost, 22, "{sem}: the queue drained into the void, and what was on the link");
                let data: Vec<f64> = during.iter().filter(|d| d.2).map(|d| d.0).collect();
                assert!(data.windows(2).all(|w| (w[1] - w[0] - 0.006).abs() < 1e-6), "{sem}: {data:?}");
            }
        }
        assert_eq!(during.len() as u64, h.lost, "{sem}: every loss of the handoff is on bs1's link");
        // Forwarded through bs2 once the routes switched.
        let via_bs2 = s.links.iter().find(|l| &*l.direction == "bs2->mh").expect("bs2->mh").packets_sent;
        assert!(via_bs2 > 1000, "{sem}: {via_bs2}");
        assert!(pause(&s, &t, 0) < 0.3, "{sem}");
    }
}

/// A packet still on its way to the old station when the routes switch
/// is dropped there, cause `handoff` (the reference's `drop` of packets
/// routed to the old base station, elaarag-002.md Sec. 2.2 primitive 4):
/// with 50 ms wired links to the stations, no fixed latency and bs2 as
/// the anchor (no registration delay for the first handoff), the routes
/// switch at the instant bs1's link goes down, while the router's last
/// packets to bs1 are still propagating: they reach bs1 in the next 50 ms
/// and end there.
#[test]
fn packets_reaching_the_old_station_after_the_switch_are_the_handoffs() {
    let text = embedded::get("elaarag02/handoff").expect("embedded");
    let slow = text.replace(
        "b = \"bs1\"\nbandwidth_bps = 10e6\ndelay_ms = 1.0",
        "b = \"bs1\"\nbandwidth_bps = 10e6\ndelay_ms = 50.0",
    );
    let slow = slow.replace(
        "b = \"bs2\"\nbandwidth_bps = 10e6\ndelay_ms = 1.0",
        "b = \"bs2\"\nbandwidth_bps = 10e6\ndelay_ms = 50.0",
    );
    assert_ne!(slow, text);
    let slow = slow.replace("anchor = \"router\"", "anchor = \"bs2\"");
    let out = run(&load(&slow, &["latency_s=0"]), 1, true).unwrap_or_else(|e| panic!("{e}"));
    let (s, t) = (out.summary, out.trace);
    let h = &s.handoffs[0];
    assert_eq!(h.complete_s, 5.0, "{h:?}");
    let stranded: Vec<_> = t.drops.cause.iter().filter(|&&c| c == DropCause::Handoff).collect();
    assert!(h.stranded > 0, "{h:?}");
    let total: u64 = s.handoffs.iter().map(|h| h.stranded).sum();
    assert_eq!(stranded.len() as u64, total);
    // Only after a switch, at a station left.
    let d = &t.drops;
    for i in (0..d.time_ns.len()).filter(|&i| d.cause[i] == DropCause::Handoff) {
        let at = secs(d.time_ns[i]);
        assert!(s.handoffs.iter().any(|h| (h.complete_s..h.complete_s + 0.052).contains(&at)), "{at}");
    }
}

/// FRHO-1 (elaarag-002.md Sec. 4; seed 002 Sec. 5.2; Caceres and Iftode
/// 1995): a handoff with a 150 ms blackout, BSD 500 ms timers, a LAN round
/// trip. The pause: from the last segment the fixed host sent before the
/// handoff to the first it sends again. Plain TCP waits for its timeout:
/// at least 800 ms (1.1-1.5 s by the seed's tick phase); with
/// fast-retransmit handoff at most the blackout + one round trip + 50 ms
/// (about 155 ms: the three acks cross the new cell and the wired path in
/// 3.5 ms). Every handoff of 10 seeds.
#[test]
fn frho_1_fast_retransmit_handoff_resumes_within_a_round_trip() {
    for seed in 1..=10 {
        for frho in [false, true] {
            let (s, t) = handoff(&[&format!("frho={frho}")], seed);
            assert_eq!(s.handoffs.len(), 5);
            for k in 0..s.handoffs.len() {
                let p = pause(&s, &t, k);
                let blackout = s.handoffs[k].complete_s - s.handoffs[k].start_s;
                if frho {
                    assert!(p <= blackout + 0.02 + 0.05, "seed {seed} handoff {k}: {p}");
                    assert!(p > blackout, "seed {seed} handoff {k}: {p}");
                } else {
                    assert!(p >= 0.8, "seed {seed} handoff {k}: {p}");
                }
            }
            assert_eq!(s.flows[0].timeouts, if frho { 0 } else { 5 }, "seed {seed} frho {frho}");
        }
    }
}

/// The window samples (cwnd, ssthresh) in segments around the sender's
/// first event at or after `from_s`: the last before it and the first after.
fn around_event(t: &Trace, from_s: f64, mss: u64) -> (SenderEventKind, (u64, u64), (u64, u64)) {
    let e = &t.events;
    let i = (0..e.time_ns.len()).find(|&i| secs(e.time_ns[i]) >= from_s).expect("an event");
    let at = e.time_ns[i];
    let w = &t.window;
    let before = (0..w.time_ns.len()).rev().find(|&j| w.time_ns[j] < at).expect("a sample before");
    let after = (0..w.time_ns.len()).find(|&j| w.time_ns[j] >= at).expect("a sample after");
    let seg = |j: usize| (w.cwnd_bytes[j] / mss, w.ssthresh_bytes[j] / mss);
    (e.kind[i], seg(before), seg(after))
}

/// FRHO-2 (elaarag-002.md Sec. 4; seed 002 Sec. 5.2): after a
/// fast-retransmit handoff the fixed host halves its window, it does not
/// start from one segment: NewReno's ssthresh is half its flight (the
/// receiver's 22-segment window); Tahoe slow-starts from one segment up to
/// the halved ssthresh, without a timeout. (NewReno then repairs one hole
/// per partial ack, and each of those acks waits for the receiver's 200 ms
/// delayed-ack tick, 4.4BSD acking an in-order segment late: with the
/// whole window lost, the recovery can outlast the RTO.)
#[test]
fn frho_2_the_window_is_halved_not_collapsed() {
    let mss = 1460;
    let flight = |cwnd: u64| cwnd.min(32768 / mss);
    for seed in 1..=10 {
        let (s, t) = handoff(&["frho=true", "variant=newreno"], seed);
        let (kind, before, after) = around_event(&t, 5.0, mss);
        assert_eq!(kind, SenderEventKind::FastRetransmit, "seed {seed}");
        let half = |b: (u64, u64), a: (u64, u64)| a.1 * 2 <= flight(b.0) + 1 && a.1 * 2 + 2 >= flight(b.0);
        assert!(after.1 >= 2 && half(before, after), "seed {seed}: {before:?} -> {after:?}");
        assert!(after.0 > after.1, "seed {seed}: {after:?} in fast recovery, not one segment");
        let _ = s;
        let (s, t) = handoff(&["frho=true"], seed);
        let (kind, before, after) = around_event(&t, 5.0, mss);
        assert_eq!(kind, SenderEventKind::FastRetransmit, "seed {seed}");
        assert_eq!(after.0, 1, "seed {seed}: Tahoe starts again from one segment");
        assert!(half(before, after), "seed {seed}: {before:?} -> {after:?}");
        assert_eq!(s.flows[0].timeouts, 0, "seed {seed}");
    }
}

/// FRHO-3 (elaarag-002.md Sec. 4; seed 002 Sec. 5.2: "a disconnection
/// longer than the RTO still ends in slow start"): with 3 s handoffs (at
/// 5, 15 and 25 s) the fixed host times out during each, with or without
/// fast-retransmit handoff, at the same instant, and starts again from one
/// segment. The three acks at the completion help only when they carry
/// news: when the mobile host's own acks were lost with the old link, the
/// first acknowledges new data and the fixed host sends again at once
/// instead of at its backed-off timeout; when they are true duplicates
/// they come after a timeout, and the variant's `recover` guard takes no
/// fast retransmit from them: plain TCP's timeouts, in 4 seeds of 10.
/// Timeouts over the 10 seeds (plain / FRHO): 6/3 5/5 5/3 5/4 6/4 5/5 6/3
/// 5/3 5/3 5/5.
#[test]
fn frho_3_a_handoff_longer_than_the_rto_ends_in_a_timeout_anyway() {
    let mss = 1460;
    let mut same = 0;
    for seed in 1..=10 {
        let mut firsts = Vec::new();
        let mut timeouts = Vec::new();
        for frho in [false, true] {
            let (s, t) = handoff(&[&format!("frho={frho}"), "latency_s=3", "every_s=10"], seed);
            assert_eq!(s.handoffs.len(), 3);
            for h in &s.handoffs {
                let (kind, _, after) = around_event(&t, h.start_s, mss);
                assert_eq!(kind, SenderEventKind::Timeout, "seed {seed} frho {frho}");
                assert_eq!(after.0, 1, "seed {seed} frho {frho}: one segment");
            }
            assert!(!t.events.kind.contains(&SenderEventKind::FastRetransmit), "seed {seed} frho {frho}");
            firsts.push(t.events.time_ns[0]);
            timeouts.push(s.flows[0].timeouts);
        }
        assert_eq!(firsts[0], firsts[1], "seed {seed}: the same first timeout");
        assert!(timeouts[1] >= 3 && timeouts[1] <= timeouts[0], "seed {seed}: {timeouts:?}");
        same += usize::from(timeouts[0] == timeouts[1]);
    }
    assert_eq!(same, 4, "seeds where fast-retransmit handoff changes nothing");
}

/// With Reno, fast-retransmit handoff does not save a hard handoff that
/// loses the window: its one fast retransmit repairs one hole, recovery
/// ends on the partial ack, and the rest waits for the timeout (a finding
/// of this reproduction: the scenario runs Tahoe, see its header).
#[test]
fn frho_with_reno_still_times_out_when_the_window_is_lost() {
    for seed in 1..=10 {
        let (s, t) = handoff(&["frho=true", "variant=reno"], seed);
        assert_eq!(s.flows[0].timeouts, 5, "seed {seed}");
        assert_eq!(
            &t.events.kind[..3],
            [SenderEventKind::FastRetransmit, SenderEventKind::RecoveryExit, SenderEventKind::Timeout]
        );
    }
}

/// Bad mobility: each the one-line error naming the field.
#[test]
fn bad_mobility_names_the_field() {
    let text = embedded::get("elaarag02/handoff").expect("embedded");
    let err = common::load_error;
    let e = err(&text.replace("stations = [\"bs1\", \"bs2\"]", "stations = [\"bs1\", \"bs3\"]"), &[]);
    assert!(e.contains("mobility[0].stations[1]") && e.contains("no node named 'bs3'"), "{e}");
    let e = err(&text.replace("stations = [\"bs1\", \"bs2\"]", "stations = [\"bs1\", \"router\"]"), &[]);
    assert!(e.contains("mobility[0].stations[1]") && e.contains("exactly one link"), "{e}");
    let listed = text.replace("start_s = 5.0\nevery_s = \"${every_s}\"", "handoffs = [{ at_s = 5.0, to = \"bs9\" }]");
    assert_ne!(listed, text);
    let e = err(&listed, &[]);
    assert!(e.contains("mobility[0].handoffs[0].to") && e.contains("no node named 'bs9'"), "{e}");
    let e = err(&listed.replace("bs9", "router"), &[]);
    assert!(e.contains("mobility[0].handoffs[0].to") && e.contains("not one of the mobile's stations"), "{e}");
    let e = err(&listed.replace("bs9", "bs1"), &[]);
    assert!(e.contains("mobility[0].handoffs[0].to") && e.contains("attached to then"), "{e}");
    let twice =
        listed.replace("{ at_s = 5.0, to = \"bs9\" }", "{ at_s = 5.0, to = \"bs2\" }, { at_s = 5.1, to = \"bs1\" }");
    let e = err(&twice, &[]);
    assert!(
        e.contains("mobility[0].handoffs[1].at_s") && e.contains("before the handoff before it can complete"),
        "{e}"
    );
    let e = err(text, &["latency_s=-0.1"]);
    assert!(e.contains("mobility[0].latency_s"), "{e}");
    let e = err(text, &["every_s=0.1"]);
    assert!(e.contains("mobility[0].every_s") && e.contains("must exceed the longest handoff"), "{e}");
    let both = text.replace("every_s = \"${every_s}\"", "every_s = 5.0\nresidence_mean_s = 5.0");
    let e = err(&both, &[]);
    assert!(e.contains("mobility[0]") && e.contains("give one schedule"), "{e}");
    let e = err(&text.replace("mobile = \"mh\"", "mobile = \"fh\""), &[]);
    assert!(e.contains("mobility[0].stations[0]") && e.contains("exactly one link"), "{e}");
    let e = err(&text.replace("anchor = \"router\"", "anchor = \"ha\""), &[]);
    assert!(e.contains("mobility[0].anchor") && e.contains("no node named 'ha'"), "{e}");
    let e = err(&text.replace("anchor = \"router\"", "anchor = \"router\"\ngrid = [3, 1]"), &[]);
    assert!(e.contains("mobility[0].grid") && e.contains("3 x 1 cells for 2 stations"), "{e}");
    let outage = format!("{text}\n[[outages]]\nlink = \"cell2\"\ndown_s = 1.0\nat_s = [2.0]\n");
    let e = err(&outage, &[]);
    assert!(e.contains("outages[0].link") && e.contains("a mobile host's link to a station"), "{e}");
    let (head, _) = text.split_once("[[mobility]]").expect("mobility");
    let flows = &text[text.find("[[flows]]").expect("flows")..];
    let e = err(&format!("{head}{flows}"), &["frho=true"]);
    assert!(e.contains("flows[0].tcp.frho") && e.contains("neither end"), "{e}");
    // Freeze-TCP with neither an outage nor a handoff to predict.
    let still = format!("{head}{flows}");
    let e =
        err(&still.replace("rto = { mode = \"bsd\" }", "rto = { mode = \"bsd\" }\nfreeze = { warning_s = 0.05 }"), &[]);
    assert!(e.contains("flows[0].tcp.freeze") && e.contains("no outage"), "{e}");
    // Snoop follows a mobile receiver; a mobile sender's is not built.
    let up = text.replace("from = \"fh\"\nto = \"mh\"", "from = \"mh\"\nto = \"fh\"");
    assert_ne!(up, text);
    let e = err(&up, &["mechanism=\"snoop\""]);
    assert!(e.contains("flows[0].scheme") && e.contains("snoop follows a mobile receiver only"), "{e}");
    // Snoop's NACKs for a mobile sender's data stay where they were placed.
    let nack = up.replace("scheme = \"snoop\"", "scheme = \"snoop-nack\"");
    let e = err(&nack, &["mechanism=\"snoop\""]);
    assert!(e.contains("flows[0].scheme") && e.contains("does not follow a mobile host"), "{e}");
}

/// Drawn schedules (elaarag-002.md Sec. 2.2 primitive 3): random walks over
/// a 3 x 2 grid of cells with exponential residences (mean 30 s) and with
/// periodic handoffs. Each handoff goes to a neighbouring cell, begins
/// after the one before completed, and takes 150 ms + the 2 ms
/// registration round trip; the same seed draws the same walk, another
/// seed another; the flows go on across every handoff (the run's
/// invariants hold: bytes delivered once and in order, every packet
/// accounted for).
#[test]
fn random_walks_over_a_grid_move_to_neighbouring_cells() {
    let text = lasthop_sim::scale::roaming(4, 3, 2, 300.0);
    let neighbours = |a: usize, b: usize| {
        let (ra, ca, rb, cb) = (a / 3, a % 3, b / 3, b % 3);
        ra.abs_diff(rb) + ca.abs_diff(cb) == 1
    };
    let cell = |name: &str| name.trim_start_matches("bs").parse::<usize>().expect("bsN");
    for periodic in [false, true] {
        let t = if periodic { text.replace("residence_mean_s = 30.0", "every_s = 20.0") } else { text.clone() };
        let runs: Vec<RunSummary> =
            (1..=3).map(|seed| run(&load(&t, &[]), seed, false).expect("runs").summary).collect();
        for (seed, s) in runs.iter().enumerate() {
            assert!(s.handoffs.len() >= 4 * 4, "seed {seed}: {}", s.handoffs.len());
            for m in 0..4 {
                let mine: Vec<_> = s.handoffs.iter().filter(|h| h.mobile == format!("mh{m}")).collect();
                assert_eq!(cell(&mine[0].from), m % 6, "seed {seed}: mh{m} starts in its cell");
                for w in mine.windows(2) {
                    assert_eq!(w[0].to, w[1].from);
                    assert!(w[1].start_s >= w[0].complete_s, "{w:?}");
                }
                for h in &mine {
                    assert!(neighbours(cell(&h.from), cell(&h.to)), "{h:?}");
                    assert!((h.complete_s - h.start_s - 0.152).abs() < 1e-9, "{h:?}");
                }
                if periodic {
                    assert!(mine.iter().enumerate().all(|(k, h)| h.start_s == 20.0 * (k + 1) as f64), "{mine:?}");
                }
            }
            assert!(s.flows.iter().all(|f| f.throughput_bps > 1e5), "seed {seed}");
        }
        let again = run(&load(&t, &[]), 1, false).expect("runs").summary;
        assert_eq!(again, runs[0], "the same seed, the same walk");
        assert_ne!(runs[0].handoffs, runs[1].handoffs, "another seed, another walk");
    }
}

/// Freeze-TCP over handoffs: the mobile host's receiver is warned of each
/// handoff `warning_s` ahead (about a round trip of the LAN path and its
/// delayed ack) and told at its completion: no timeout, where plain TCP
/// times out at every handoff, and fewer packets lost with the old link.
#[test]
fn freeze_tcp_predicts_handoffs_too() {
    let text = embedded::get("elaarag02/handoff").expect("embedded");
    let frozen = text.replace("rto = { mode = \"bsd\" }", "rto = { mode = \"bsd\" }\nfreeze = { warning_s = 0.05 }");
    assert_ne!(frozen, text);
    for seed in 1..=10 {
        let out = run(&load(&frozen, &[]), seed, true).unwrap_or_else(|e| panic!("{e}"));
        let s = &out.summary;
        assert_eq!(s.flows[0].timeouts, 0, "seed {seed}");
        let plain = handoff(&[], seed).0;
        assert!(s.flows[0].throughput_bps > plain.flows[0].throughput_bps, "seed {seed}");
        // What the base station had queued still goes with the link: the
        // warning stops the sender, not the queue (FREEZE-2's point).
        let lost = |s: &RunSummary| s.handoffs.iter().map(|h| h.lost).sum::<u64>();
        assert!(lost(s) < lost(&plain), "seed {seed}: {} against {}", lost(s), lost(&plain));
    }
}

/// A handoff trace (elaarag-002.md Sec. 2.2, "a trace file"): the handoff
/// scenario's periodic schedule (every 5 s from 5 s, bs1 and bs2 in turn)
/// written as a trace, with a comment and a blank line, gives the same run
/// to the byte as the periodic schedule and as the same handoffs listed.
#[test]
fn a_handoff_trace_is_the_same_schedule_as_listed_handoffs() {
    let text = embedded::get("elaarag02/handoff").expect("embedded");
    let periodic = "start_s = 5.0\nevery_s = \"${every_s}\"";
    assert!(text.contains(periodic));
    let times: Vec<f64> = (1..6).map(|k| 5.0 * f64::from(k)).collect();
    let station = |k: usize| if k.is_multiple_of(2) { "bs2" } else { "bs1" };
    let lines: String = times.iter().enumerate().map(|(k, t)| format!("{t:.1} {}\n", station(k))).collect();
    let trace = text.replace(periodic, &format!("trace = \"\"\"\n# time_s station\n\n{lines}\"\"\""));
    let entries: Vec<String> =
        times.iter().enumerate().map(|(k, t)| format!("{{ at_s = {t:.1}, to = \"{}\" }}", station(k))).collect();
    let listed = text.replace(periodic, &format!("handoffs = [{}]", entries.join(", ")));
    let json = |t: &str| {
        let out = lasthop_sim::run(&common::load(t, &[]), 3, false).unwrap_or_else(|e| panic!("{e}"));
        serde_json::to_string(&out.summary).expect("json")
    };
    let (a, b, c) = (json(text), json(&trace), json(&listed));
    assert!(a.contains("\"handoffs\":[{"), "the periodic run hands off");
    assert_eq!(a, b, "trace against periodic");
    assert_eq!(b, c, "trace against listed");
}

/// Bad traces: each the one-line error naming the field and the line.
#[test]
fn bad_handoff_traces_name_the_line() {
    let text = embedded::get("elaarag02/handoff").expect("embedded");
    let with = |trace: &str| {
        common::load_error(
            &text.replace("start_s = 5.0\nevery_s = \"${every_s}\"", &format!("trace = '''\n{trace}'''")),
            &[],
        )
    };
    let e = with("5.0 bs2\n\n7.0\n");
    assert!(e.contains("mobility[0].trace") && e.contains("line 3") && e.contains("a time in seconds"), "{e}");
    let e = with("soon bs2\n");
    assert!(e.contains("mobility[0].trace") && e.contains("'soon' is not a time"), "{e}");
    let e = with("5.0 bs9\n");
    assert!(e.contains("mobility[0].trace (line 1)") && e.contains("no node named 'bs9'"), "{e}");
    let e = with("5.0 bs2\n5.1 bs1 # too soon\n");
    assert!(e.contains("mobility[0].trace (line 2)") && e.contains("before the handoff before it can complete"), "{e}");
    let e = with("-1.0 bs2\n");
    assert!(e.contains("mobility[0].trace (line 1)"), "{e}");
    let both = text.replace(
        "start_s = 5.0\nevery_s = \"${every_s}\"",
        "trace = \"5.0 bs2\"\nhandoffs = [{ at_s = 5.0, to = \"bs2\" }]",
    );
    let e = common::load_error(&both, &[]);
    assert!(e.contains("mobility[0].trace") && e.contains("not both"), "{e}");
}

/// Snoop following a mobile host (seed 002 Sec. 5.1; elaarag-002.md Sec.
/// 1.7, SNOOP-HO-4, the contrast case of the snoop paper's handoff): snoop
/// sits on both base stations, each with its own cache, and a hard handoff
/// (`flush`, no buffering station) every 5 s. What was queued and in flight
/// on the old cell is lost, the new station's cache starts empty, so the
/// source repairs the loss itself: a fast retransmit or a timeout at every
/// handoff. Between handoffs the new station's snoop does its work: over
/// lossy cells (an error every 64 KB on average, 10 seeds) it retransmits
/// locally, and the source times out less often and delivers more than end
/// to end Reno on the same channel and schedule.
#[test]
fn snoop_ho_4_a_hard_handoff_loses_the_window_and_the_source_repairs_it() {
    let text = embedded::get("elaarag02/handoff").expect("embedded");
    let (s, t) = handoff(&["mechanism=\"snoop\""], 1);
    let f = &s.flows[0];
    assert_eq!(s.handoffs.len(), 5);
    for (k, h) in s.handoffs.iter().enumerate() {
        assert!(h.lost + h.queued > 0, "handoff {k}: {h:?}");
        // The source resends after each handoff: the new station held none of it.
        assert!(resent_after(&t, h.start_s).is_some_and(|r| r < h.start_s + 2.5), "handoff {k}");
    }
    assert!(f.fast_retransmits + f.timeouts >= 5, "{f:?}");
    assert!(f.bytes_delivered > 2_000_000, "{}", f.bytes_delivered);
    // With errors on both cells: each station's snoop retransmits locally.
    let lossy = |t: &str| common::with_link_errors(t, &["cell1", "cell2"], 65536);
    let (mut local, mut snoop, mut plain) = (0, (0, 0), (0, 0));
    for seed in 1..=10 {
        let f = &common::run_text(&lossy(text), &["mechanism=\"snoop\""], seed).flows[0];
        local += f.local_retransmits;
        snoop = (snoop.0 + f.timeouts, snoop.1 + f.bytes_delivered);
        let p = &common::run_text(&lossy(text), &["variant=\"reno\""], seed).flows[0];
        plain = (plain.0 + p.timeouts, plain.1 + p.bytes_delivered);
    }
    assert!(local >= 100, "{local} local retransmissions");
    // Each station's own snoop, while the mobile host is attached there:
    // bs1 (node 2) in [0, 5), [10, 15), ... and bs2 (node 3) in between.
    let sc = common::load(&lossy(text), &["mechanism=\"snoop\""]);
    let t = run(&sc, 1, true).unwrap_or_else(|e| panic!("{e}")).trace;
    let x = &t.local_rexmits;
    // (A station the mobile host left goes on retransmitting from its cache
    // on its timer, into its link that is down: it is not told.)
    for (node, name) in [(2, "bs1"), (3, "bs2")] {
        let attached = |s: f64| (s / 5.0).floor() as u32 % 2 == node - 2;
        let n = (0..x.node.len()).filter(|&i| x.node[i] == node && attached(secs(x.time_ns[i]))).count();
        assert!(n >= 5, "{n} local retransmissions at {name} while the mobile host was there");
    }
    assert!(snoop.0 < plain.0 && snoop.1 > plain.1, "(timeouts, bytes): snoop {snoop:?}, end to end {plain:?}");
}

/// `elaarag02/handoff` with its wired path to bs2 at `bps` (the path the
/// registration of a handoff into bs2 takes to the router and back).
fn handoff_registering(bps: &str, sets: &[&str]) -> RunSummary {
    let fast = "name = \"wired2\"\na = \"router\"\nb = \"bs2\"\nbandwidth_bps = 10e6";
    let text = embedded::get("elaarag02/handoff")
        .unwrap()
        .replace("anchor = \"router\"", "anchor = \"router\"\nregistration = \"message\"");
    let text = text.replace(fast, &fast.replace("10e6", bps));
    assert!(text.contains("registration = \"message\""));
    common::run_text(&text, sets, 1)
}

/// Registration by messages (issue 32 item 2; elaarag-002.md Sec. 2.2,
/// primitives 4 and 5; `registration = "message"`): the new station sends
/// a Mobile IP request (52 bytes) to the router and the handoff completes
/// when the reply (48 bytes) is back, so the registration costs its
/// propagation (2 ms, the delay model's) plus the messages' serialization
/// and queueing: 80 us on 10 Mb/s (complete at 5.15208 s against 5.152),
/// 83.3 ms more on a 9.6 kb/s path to bs2 (5.2353 s) while the handoffs
/// into bs1 are unchanged. On a 100 b/s path the reply to bs2 takes 8 s:
/// the next handoff (to bs1, at 10 s) overtakes it, the host never attaches
/// to bs2 and the late reply is ignored; the transfer goes on after the
/// handoff to bs1 completes.
#[test]
fn registration_messages_queue_on_the_wired_path() {
    let s = handoff_registering("10e6", &[]);
    for h in &s.handoffs {
        let extra = h.complete_s - (h.start_s + 0.150 + 0.002);
        assert!((extra - (52.0 + 48.0) * 8.0 / 10e6).abs() < 1e-9, "{h:?}: {extra}");
    }
    let s = handoff_registering("9600", &[]);
    for h in &s.handoffs {
        let extra = h.complete_s - (h.start_s + 0.150 + 0.002);
        let expected = if h.to == "bs2" { (52.0 + 48.0) * 8.0 / 9600.0 } else { (52.0 + 48.0) * 8.0 / 10e6 };
        assert!((extra - expected).abs() < 1e-6, "{h:?}: {extra} against {expected}");
    }
    let s = handoff_registering("100", &[]);
    let (first, second) = (&s.handoffs[0], &s.handoffs[1]);
    assert_eq!((first.to.as_str(), second.to.as_str()), ("bs2", "bs1"));
    assert!((first.complete_s - 5.15).abs() < 1e-9, "never completed: the attachment's time, {first:?}");
    assert!((second.complete_s - (10.152 + 100.0 * 8.0 / 10e6)).abs() < 1e-9, "{second:?}");
    assert!(s.flows[0].bytes_delivered > 1_000_000, "{}", s.flows[0].bytes_delivered);
}

#[test]
fn a_bad_registration_names_the_field() {
    let text = embedded::get("elaarag02/handoff")
        .unwrap()
        .replace("anchor = \"router\"", "anchor = \"router\"\nregistration = \"carrier-pigeon\"");
    let err = common::load_error(&text, &[]);
    assert!(err.contains("registration") && err.contains("carrier-pigeon"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
