//! M-TCP (issue 32 item 3; seed 002 Sec. 5.3; Brown and Singh 1997;
//! elaarag-002.md Sec. 1.12 and statements MTCPSH-1..4): the scheme `m-tcp`
//! on the blackout study's path (FH -1.5 Mb/s, 10 ms- BS -0.8 Mb/s, 100 ms-
//! MH), the base station the supervisor host, the mobile host's link down
//! once at 10 s, and under Fig. 2's schedule (MTCPSH-4). Connection 0 is
//! the source's (fixed host to supervisor host), connection 1 the
//! supervisor host's to the mobile host.
//!
//! The path has no random loss: every seed gives the same run, so each
//! statement is checked on one.

use crate::common::{load, secs};
use lasthop_core::trace::{SenderEventKind, Trace};
use lasthop_sim::{embedded, run};

const UP_S: f64 = 10.0;

/// The blackout scenario with `mechanism` (`m-tcp`, or `none`: plain Reno)
/// and the link down for `down_s` from 10 s, for 50 s; the run's trace.
fn blackout(mechanism: &str, down_s: f64) -> Trace {
    let text = embedded::get("elaarag02/blackout").expect("embedded");
    // 50 s, not the study's 40: a 30 s disconnection ends at 40 s.
    let sets = [format!("blackout_s={down_s}"), format!("mechanism=\"{mechanism}\""), "flows.0.duration_s=50".into()];
    let sc = load(text, &sets.iter().map(String::as_str).collect::<Vec<_>>());
    run(&sc, 1, true).unwrap_or_else(|e| panic!("{mechanism} {down_s}: {e}")).trace
}

/// Connection `c`'s acks received: (time s, ack).
fn acks(t: &Trace, c: u32) -> Vec<(f64, u64)> {
    let a = &t.acks;
    (0..a.time_ns.len()).filter(|&i| a.flow[i] == c).map(|i| (secs(a.time_ns[i]), a.ack[i])).collect()
}

fn timeouts(t: &Trace, c: u32) -> usize {
    (0..t.events.kind.len()).filter(|&i| t.events.flow[i] == c && t.events.kind[i] == SenderEventKind::Timeout).count()
}

/// Connection `c`'s cwnd (bytes) at `s`: its last value traced by then.
fn cwnd_at(t: &Trace, c: u32, s: f64) -> u64 {
    let w = &t.window;
    let i = (0..w.time_ns.len()).rfind(|&i| w.flow[i] == c && secs(w.time_ns[i]) <= s).expect("a window by then");
    w.cwnd_bytes[i]
}

/// Connection `c`'s least cwnd (bytes) traced in `(from, to)`, if any.
fn least_cwnd(t: &Trace, c: u32, from: f64, to: f64) -> Option<u64> {
    let w = &t.window;
    (0..w.time_ns.len())
        .filter(|&i| w.flow[i] == c && secs(w.time_ns[i]) > from && secs(w.time_ns[i]) < to)
        .map(|i| w.cwnd_bytes[i])
        .min()
}

/// Connection `c`'s segments sent: (time s, seq, len, retransmission).
fn sent(t: &Trace, c: u32) -> Vec<(f64, u64, u32, bool)> {
    let x = &t.sent;
    (0..x.time_ns.len())
        .filter(|&i| x.flow[i] == c)
        .map(|i| (secs(x.time_ns[i]), x.seq[i], x.len[i], x.retransmit[i]))
        .collect()
}

/// MTCPSH-1: while the mobile host is connected, every ack the source gets
/// is one byte short of an ack the mobile host sent the supervisor host
/// before it; and at every instant the source's ack is at most the mobile
/// host's (end-to-end semantics), the withheld byte released only at the
/// disconnection.
#[test]
fn mtcpsh_1_the_source_is_acked_one_byte_short_of_the_mobile_host() {
    let down = 2.0;
    let t = blackout("m-tcp", down);
    let (fh, mh) = (acks(&t, 0), acks(&t, 1));
    assert!(fh.len() > 100 && mh.len() > 100, "{} and {} acks", fh.len(), mh.len());
    for &(at, a) in &fh {
        // The mobile host's largest ack that had reached the supervisor host.
        let l = mh.iter().filter(|&&(s, _)| s <= at).map(|&(_, x)| x).max().unwrap_or(0);
        assert!(a <= l, "at {at:.4} s the source's ack {a} passes the mobile host's {l}");
        let away = at > UP_S && at < UP_S + down + 0.2;
        if !away {
            assert!(
                mh.iter().any(|&(s, x)| s <= at && x == a + 1),
                "at {at:.4} s: ack {a} is no mobile host's ack less a byte"
            );
        }
    }
    // The withheld byte goes at the disconnection: one ack equal to the
    // mobile host's, the zero-window one, and the reopening duplicate.
    let equal = fh.iter().filter(|&&(at, a)| mh.iter().any(|&(s, x)| s <= at && x == a)).count();
    assert!(equal >= 2, "{equal} acks release the withheld byte");
}

/// MTCPSH-2: disconnections of 1, 5 and 30 s behind an M-TCP supervisor
/// host: the source has no timeout, its window after is the window
/// before, and it sends data within one round trip of the reconnection
/// (the reopening ack's trip from the base station: 10 ms and a 40-byte
/// ack at 1.5 Mb/s, well under the path's 0.24 s). Plain Reno on the same
/// schedule times out, and its window falls to a segment.
#[test]
fn mtcpsh_2_no_timeout_and_the_window_kept_across_disconnections() {
    for down in [1.0, 5.0, 30.0] {
        let t = blackout("m-tcp", down);
        let up = UP_S + down;
        assert_eq!(timeouts(&t, 0), 0, "down {down} s: the source timed out");
        let before = cwnd_at(&t, 0, UP_S);
        let least = least_cwnd(&t, 0, UP_S, up + 1.0).unwrap_or(before);
        assert!(least >= before, "down {down} s: cwnd {before} before, down to {least} by a second after");
        let first = sent(&t, 0).into_iter().find(|&(s, _, len, _)| s > up && len > 1).expect("data after");
        assert!(first.0 - up < 0.24, "down {down} s: the source resumed at {:.3} s", first.0);
        let plain = blackout("none", down);
        assert!(timeouts(&plain, 0) >= 1, "down {down} s: plain Reno did not time out");
        let cut = least_cwnd(&plain, 0, UP_S, up + 5.0).expect("plain Reno's window cut");
        assert!(cut <= 1024, "down {down} s: plain Reno's window after {cut}");
    }
}

/// MTCPSH-3: while the mobile host is away the source sends only
/// one-byte zero-window probes, the first no sooner than 5 s after the
/// zero-window ack (4.4BSD's persist floor), never a retransmission of
/// data.
#[test]
fn mtcpsh_3_only_probes_while_disconnected() {
    let down = 30.0;
    let t = blackout("m-tcp", down);
    let during: Vec<_> = sent(&t, 0).into_iter().filter(|&(s, ..)| s > UP_S + 0.05 && s < UP_S + down).collect();
    assert!(!during.is_empty(), "no probe in 30 s");
    assert!(during.iter().all(|&(_, _, len, _)| len == 1), "data while away: {during:?}");
    assert!(during[0].0 >= UP_S + 5.0, "first probe at {:.3} s", during[0].0);
    // The supervisor host's own sender is frozen meanwhile: no timeout.
    let e = &t.events;
    let away = |i: usize| secs(e.time_ns[i]) > UP_S && secs(e.time_ns[i]) < UP_S + down;
    let frozen_timeouts =
        (0..e.kind.len()).filter(|&i| e.flow[i] == 1 && e.kind[i] == SenderEventKind::Timeout && away(i)).count();
    assert_eq!(frozen_timeouts, 0, "the wireless sender timed out while frozen");
}

/// MTCPSH-4: Fig. 2's schedule (0.3 s down every 3.3 s from 3.0 s, flush),
/// 60 s: behind an M-TCP supervisor host the source's window at each
/// reconnection is the window before the outage (no decay) and it never
/// times out; Tahoe on the same schedule (the figure's) times out at every
/// outage and its window falls to a segment each time.
#[test]
fn mtcpsh_4_the_window_survives_every_outage_of_fig2() {
    let text = embedded::get("elaarag02/fig2").expect("embedded");
    let run_of = |sets: &[&str]| run(&load(text, sets), 1, true).unwrap_or_else(|e| panic!("{e}")).trace;
    let (m, tahoe) = (run_of(&["flows.0.duration_s=60", "mechanism=\"m-tcp\""]), run_of(&["flows.0.duration_s=60"]));
    let downs: Vec<f64> = (0..17).map(|k| 3.0 + 3.3 * f64::from(k)).collect();
    assert_eq!(timeouts(&m, 0), 0);
    for &d in &downs {
        let before = cwnd_at(&m, 0, d);
        let least = least_cwnd(&m, 0, d, d + 0.3 + 0.5).unwrap_or(before);
        assert!(least >= before, "outage at {d:.1} s: cwnd {before} -> {least}");
        let cut = least_cwnd(&tahoe, 0, d, d + 3.3).expect("Tahoe's cut");
        assert!(cut <= 1024, "outage at {d:.1} s: Tahoe's window {cut}");
    }
    assert!(timeouts(&tahoe, 0) >= downs.len(), "Tahoe: {} timeouts", timeouts(&tahoe, 0));
}

/// The rate-drop scenario (`elaarag02/rate-drop`: the wireless link at
/// `low_bps` from 10 s to 20 s) with `mechanism`: (the source's timeouts,
/// the supervisor host's chokes if M-TCP, the source's least cwnd in bytes
/// from 10 s to 25 s, or its window at 10 s if none was traced then).
fn rate_drop(mechanism: &str, low_bps: f64) -> (usize, Option<u32>, u64) {
    let text = embedded::get("elaarag02/rate-drop").expect("embedded");
    let sets = [format!("low_bps={low_bps}"), format!("mechanism=\"{mechanism}\"")];
    let out = run(&load(text, &sets.iter().map(String::as_str).collect::<Vec<_>>()), 1, true)
        .unwrap_or_else(|e| panic!("{mechanism} {low_bps}: {e}"));
    let chokes = out.summary.flows[0].split.as_ref().and_then(|s| s.source_chokes);
    let least = least_cwnd(&out.trace, 0, UP_S, 25.0).unwrap_or_else(|| cwnd_at(&out.trace, 0, UP_S));
    (timeouts(&out.trace, 0), chokes, least)
}

/// MTCPSH-7 (seed 002 Sec. 5.3: "If the mobile host did not disconnect
/// but has little available bandwidth, the SH-TCP shrinks the sender's
/// window before it exponentially backs off its retransmission timer"):
/// the wireless rate falls tenfold (0.8 Mb/s to 80 kb/s) for 10 s, no
/// disconnection: behind M-TCP the source has no timeout. The statement's
/// other half, "≥ 1 without", fails here, a documented deviation: plain
/// Reno has no timeout either. Cause: RFC 6298 restarts the timer on every
/// ack of new data, and at 80 kb/s a 1024-byte segment's ack comes every
/// 0.10 s, far inside the 1 s floor; nothing stalls for an RTO. The check
/// varies that cause, the segment time against the floor: at 8 kb/s
/// (1.02 s a segment) plain Reno times out, while behind M-TCP the
/// supervisor host chokes the source (its zero window, `lasthop_tcp::mtcp`)
/// and the source still has no timeout and keeps its window.
#[test]
fn mtcpsh_7_a_rate_drop_without_disconnection() {
    let (m, chokes, _) = rate_drop("m-tcp", 80e3);
    assert_eq!(m, 0, "M-TCP, tenfold drop: the source timed out");
    assert_eq!(chokes, Some(0), "a 0.1 s segment time needs no choke");
    let (plain, _, _) = rate_drop("none", 80e3);
    assert_eq!(plain, 0, "deviation pinned: plain Reno does not time out at a tenfold drop");
    // The cause varied: a segment time past the RTO's floor.
    let (plain, _, plain_least) = rate_drop("none", 8e3);
    assert!(plain >= 1, "plain Reno at 8 kb/s: no timeout");
    assert!(plain_least <= 1024, "plain Reno's window after its timeout: {plain_least}");
    let (m, chokes, m_least) = rate_drop("m-tcp", 8e3);
    assert_eq!(m, 0, "M-TCP at 8 kb/s: the source timed out");
    assert!(chokes.is_some_and(|c| c >= 1), "M-TCP at 8 kb/s: chokes {chokes:?}");
    assert!(m_least > 1024, "M-TCP keeps the source's window: least {m_least}");
}

/// A grid of 3 x 3 supervisor hosts, each over `side` x `side` cells
/// (N = side² cells per SH), with one mobile host per 9 cells (the density
/// the same at every N) on random walks (exponential residences of mean
/// 5 s, 150 ms handoffs), mobile `i` starting in cell `9 i + 4`. The
/// mobile hosts have no flows: one slow wired flow keeps the run going.
fn supervised_grid(side: usize, stop_s: f64) -> String {
    let g = 3 * side;
    lasthop_sim::scale::Roaming {
        mobiles: side * side,
        cols: g,
        rows: g,
        stop_s,
        residence_mean_s: 5.0,
        first_cell: 9,
        cell_offset: 4,
        supervisor_cells: Some([side, side]),
        downloads: false,
    }
    .text()
}

/// MTCPSH-6 (seed 002 Sec. 5.3): with N = 4, 16 and 64 cells per
/// supervisor host, on √N x √N blocks, and mobile hosts on uniform random
/// walks at the same density, the state transfers one supervisor host
/// receives per unit time grow about as √N under M-TCP (a handoff from
/// another SH's cell: x2 from 16 to 64) and as N under I-TCP (every handoff
/// to one of its base stations: x4). Measured at the middle SH of a 3 x 3
/// grid of them (its whole boundary inside the grid), over 10 seeds of
/// 2,000 s each.
#[test]
fn mtcpsh_6_sh_level_transfers_grow_as_root_n_and_per_bs_ones_as_n() {
    let stop_s = 2000.0;
    let mut per = Vec::new();
    for side in [2usize, 4, 8] {
        let g = 3 * side;
        let text = supervised_grid(side, stop_s);
        let sc = load(&text, &[]);
        let middle = |name: &str| {
            let c: usize = name.trim_start_matches("bs").parse().expect("a station");
            (c / g) / side == 1 && (c % g) / side == 1
        };
        let (mut per_bs, mut sh_level, mut total) = (0u64, 0u64, 0u64);
        for seed in 1..=10 {
            let s = run(&sc, seed, false).unwrap_or_else(|e| panic!("{e}")).summary;
            for h in &s.handoffs {
                let change = h.supervisor_change.expect("supervisors");
                assert_eq!(change, sh_of(&h.from, g, side) != sh_of(&h.to, g, side));
                total += 1;
                if middle(&h.to) {
                    per_bs += 1;
                    sh_level += u64::from(change);
                }
            }
        }
        let t = 10.0 * stop_s;
        per.push((per_bs as f64 / t, sh_level as f64 / t, total));
    }
    let (itcp, mtcp): (Vec<f64>, Vec<f64>) = per.iter().map(|&(a, b, _)| (a, b)).unzip();
    eprintln!(
        "MTCPSH-6 per SH per s: I-TCP {itcp:?}, M-TCP {mtcp:?}, handoffs {:?}",
        per.iter().map(|p| p.2).collect::<Vec<_>>()
    );
    for k in 0..2 {
        let (i, m) = (itcp[k + 1] / itcp[k], mtcp[k + 1] / mtcp[k]);
        assert!((3.4..=4.6).contains(&i), "I-TCP x{i} from N = {}", [4, 16][k]);
        assert!((1.7..=2.3).contains(&m), "M-TCP x{m} from N = {}", [4, 16][k]);
    }
}

/// The supervisor host of station `name` on a grid `g` cells wide of
/// `side` x `side` blocks.
fn sh_of(name: &str, g: usize, side: usize) -> usize {
    let c: usize = name.trim_start_matches("bs").parse().expect("a station");
    (c / g) / side * (g / side) + (c % g) / side
}

/// Bad supervisor hosts: the one-line error naming the field.
#[test]
fn bad_supervisor_cells_name_the_field() {
    let text = supervised_grid(2, 10.0);
    let e = crate::common::load_error(&text.replace("supervisor_cells = [2, 2]", "supervisor_cells = [4, 2]"), &[]);
    assert!(e.contains("mobility[0].supervisor_cells") && e.contains("do not tile the 6 x 6 grid"), "{e}");
    let e = crate::common::load_error(&text.replace("supervisor_cells = [2, 2]", "supervisor_cells = [0, 2]"), &[]);
    assert!(e.contains("mobility[0].supervisor_cells"), "{e}");
    let e = crate::common::load_error(&text.replace("grid = [6, 6]\n", ""), &[]);
    assert!(e.contains("mobility[0].supervisor_cells") && e.contains("needs a grid"), "{e}");
}
