//! The speed benchmarks behind `lasthop bench`, timed inside the process
//! with tracing off, on one core.
//!
//! Each case reports wall time and CPU time (of the running thread, from
//! `CLOCK_THREAD_CPUTIME_ID`) per run: on a loaded machine wall time grows
//! while CPU time does not, so CPU time is the figure to compare across
//! machines' moods, wall time the one a user waits for.
//!
//! - `lan`: the issue-2 benchmark, an 8 MB transfer over the 1997 LAN shape
//!   with one error per 64 KB, timed in batches of 10 runs (seeds 1, 2, ...
//!   across batches); best batch (the least disturbed, as `timeit` advises)
//!   and median batch.
//! - Scale cases ([`crate::scale`]), each beside a one-flow reference of the
//!   same shape so that the cost per event can be compared:
//!   `path-1000` (1000 flows sharing one path) against `path-1`;
//!   `bdp-17k` (1 Gb/s, 100 ms one way: some 17,000 packets in flight)
//!   against `path-1`; `dumbbell-5000` (10,002 nodes, 5,000 flows, load time
//!   included) against `dumbbell-1`; `dumbbell-100k` (200,002 nodes,
//!   100,000 flows of 20 KB) against `dumbbell-1`; `topology-1m` (a tree of
//!   1,000,000 nodes, 100,000 flows of 10 KB, 3 s simulated; generated as
//!   JSON scenario text, which loads several times faster than TOML at
//!   that size). Each runs a few times (seeds 1, 2, ...); best and median
//!   run.
//!
//! Every case reports its load time apart from its runs, and its peak
//! memory: the process's resident high-water mark (`VmHWM`), reset before
//! the case by writing 5 to `/proc/self/clear_refs` (Linux), read after its
//! last run; it includes the scenario text and the bench's own few
//! megabytes.
//! - `asym-af`: seed 001's E-S1 shape, one 50 s transfer over the
//!   wireless-cable network with a 9.6 kb/s header-compressed reverse
//!   channel, AF + SA (`balakrishnan99/one-way`), timed as the scale cases.
//! - `radio-4x8`: seed 001's E-S6 shape over a 4-hop packet-radio chain,
//!   8 bulk transfers for 200 s (`balakrishnan99/radio-many`), Reno: the
//!   MAC's polls, turnarounds and backoffs, timed as the scale cases.
//! - `wlan-10`: seed 004's cell (issue 13), 10 downlink Reno flows for 200
//!   s over an 802.11b DCF access point at 1 % FER, one attempt per frame
//!   (`yun09/cell` as written): the DCF's slots, backoffs and MAC acks for
//!   11 stations, timed as the scale cases.
//! - `roaming-100`: issue 32's mobility case, 100 mobile hosts on random
//!   walks over a 4 x 4 grid of cells for 600 s, each downloading
//!   ([`scale::roaming`]): handoffs, route switches and outages, timed as
//!   the scale cases.
//!
//! Every case reports events per CPU second and simulated seconds per CPU
//! second and per wall second (of its median run or batch).

use crate::{embedded, run, scale, Format, Scenario};
use serde::Serialize;
use std::time::Instant;

const BATCH: u32 = 10;

/// `topology-1m`'s shape: 1 + 999·(1 + 1000) = 1,000,000 nodes.
const TREE_EDGES: usize = 999;
const TREE_HOSTS: usize = 1000;

/// Every case, in the order they run and print.
pub const CASES: [&str; 12] = [
    "lan",
    "path-1",
    "path-1000",
    "bdp-17k",
    "dumbbell-1",
    "dumbbell-5000",
    "dumbbell-100k",
    "topology-1m",
    "asym-af",
    "radio-4x8",
    "wlan-10",
    "roaming-100",
];

#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    pub case: String,
    pub scenario: String,
    pub runs: u32,
    pub events_per_run: f64,
    /// Loading the scenario text (parse, validate, route), in ms.
    pub load_ms: f64,
    /// Per run, of the best and the median batch (or run).
    pub wall_ms_per_run: f64,
    pub wall_ms_per_run_median: f64,
    pub cpu_ms_per_run: f64,
    pub cpu_ms_per_run_median: f64,
    /// Events per CPU second, best and median.
    pub events_per_s: f64,
    pub events_per_s_median: f64,
    /// CPU ns per event, median.
    pub ns_per_event: f64,
    /// Simulated seconds per CPU second, median.
    pub sim_s_per_s: f64,
    /// Simulated seconds per wall second, of the same (median) unit.
    pub sim_s_per_wall_s: f64,
    /// The one-flow case this one compares with, and the ratio of their
    /// median CPU ns per event.
    pub reference: Option<String>,
    pub ns_per_event_ratio: Option<f64>,
    /// The process's peak resident memory over the case (load and runs),
    /// in bytes; `None` where `/proc` cannot tell.
    pub peak_rss_bytes: Option<u64>,
}

/// Reset the process's resident high-water mark (Linux: `VmHWM` restarts
/// from the current resident size); false where it cannot be.
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The process's resident high-water mark, in bytes.
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().strip_suffix("kB")?.trim();
    kb.parse::<u64>().ok().map(|k| k * 1024)
}

/// CPU time of the calling thread, in seconds.
fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec it is given.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "CLOCK_THREAD_CPUTIME_ID is available on Linux");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// What a case runs: its scenario text, a description, how many runs make
/// a timed unit (a batch) and how many units by default.
struct Spec {
    text: String,
    /// `--set` overrides of the text.
    sets: Vec<String>,
    format: Format,
    scenario: String,
    batch: u32,
    reference: Option<&'static str>,
}

fn spec(case: &str) -> Option<Spec> {
    let s = |text: String, scenario: &str, batch, reference| {
        Some(Spec { text, sets: Vec::new(), format: Format::Toml, scenario: scenario.to_string(), batch, reference })
    };
    match case {
        "lan" => s(
            embedded::get("balakrishnan97/lan")?.to_string(),
            "balakrishnan97/lan (8 MB, one error per 64 KB, e2e)",
            BATCH,
            None,
        ),
        "path-1" => s(scale::one_path(1, 20_000_000), "one flow of 20 MB over a two-link path", 1, None),
        "path-1000" => {
            s(scale::one_path(1000, 200_000), "1000 flows of 200 KB over one two-link path", 1, Some("path-1"))
        }
        "bdp-17k" => s(
            scale::long_fat_pipe(500_000_000),
            "500 MB over 1 Gb/s x 100 ms one way (some 17,000 packets in flight)",
            1,
            Some("path-1"),
        ),
        "dumbbell-1" => s(scale::dumbbell(1, 20_000_000), "dumbbell, one flow of 20 MB", 1, None),
        "dumbbell-5000" => s(
            scale::dumbbell(5000, 100_000),
            "dumbbell of 10,002 nodes and 10,001 links, 5,000 flows of 100 KB",
            1,
            Some("dumbbell-1"),
        ),
        "dumbbell-100k" => s(
            scale::dumbbell(100_000, 20_000),
            "dumbbell of 200,002 nodes and 200,001 links, 100,000 flows of 20 KB",
            1,
            Some("dumbbell-1"),
        ),
        "topology-1m" => Some(Spec {
            text: scale::tree(TREE_EDGES, TREE_HOSTS, 100_000, 10_000, 3.0),
            sets: Vec::new(),
            format: Format::Json,
            scenario: "tree of 1,000,000 nodes (a core, 999 edge routers of 1,000 hosts), 100,000 flows of 10 KB \
                       across it, 3 s; JSON scenario text"
                .into(),
            batch: 1,
            reference: None,
        }),
        "asym-af" => Some(Spec {
            text: embedded::get("balakrishnan99/one-way")?.to_string(),
            sets: ["protocol=\"af\"", "reverse_bps=9600", "compression=\"ideal\""].map(String::from).to_vec(),
            format: Format::Toml,
            scenario: "balakrishnan99/one-way (E-S1: 50 s, 9.6 kb/s compressed reverse channel, AF + SA)".into(),
            batch: 1,
            reference: None,
        }),
        "radio-4x8" => Some(Spec {
            text: embedded::get("balakrishnan99/radio-many")?.to_string(),
            sets: ["hops=4", "connections=8"].map(String::from).to_vec(),
            format: Format::Toml,
            scenario: "balakrishnan99/radio-many (E-S6 over 4 radio hops: 8 transfers of 200 s, Reno)".into(),
            batch: 1,
            reference: None,
        }),
        "wlan-10" => s(
            embedded::get("yun09/cell")?.to_string(),
            "yun09/cell (10 downlink flows of 200 s over 802.11b at 1 % FER, l = 1, Reno)",
            1,
            None,
        ),
        "roaming-100" => s(
            scale::roaming(100, 4, 4, 600.0),
            "100 mobile hosts roaming a 4 x 4 grid of cells for 600 s (random walk, exponential residences of \
             mean 30 s, 150 ms handoffs), each downloading",
            1,
            None,
        ),
        _ => None,
    }
}

/// Run `case` `runs` times (for `lan`, whole batches of 10) after one
/// warm-up run; `None` for an unknown case.
pub fn bench_case(case: &str, runs: u32) -> Option<CaseResult> {
    let spec = spec(case)?;
    let peak_known = reset_peak_rss();
    let t0 = Instant::now();
    let sc = Scenario::load(&spec.text, spec.format, &spec.sets, case).expect("bench scenarios are valid");
    let load_ms = t0.elapsed().as_secs_f64() * 1e3;
    let units = runs.div_ceil(spec.batch).max(1);
    run(&sc, 0, false).expect("warm-up run");
    let mut seed = 0u64;
    // (wall s, cpu s, events, simulated s) per unit.
    let mut timed: Vec<(f64, f64, u64, f64)> = (0..units)
        .map(|_| {
            let (mut events, mut sim) = (0, 0.0);
            let (w0, c0) = (Instant::now(), thread_cpu_s());
            for _ in 0..spec.batch {
                seed += 1;
                let s = run(&sc, seed, false).expect("bench run").summary;
                events += s.events;
                sim += s.sim_time_s;
            }
            (w0.elapsed().as_secs_f64(), thread_cpu_s() - c0, events, sim)
        })
        .collect();
    let n = units * spec.batch;
    let total_events: u64 = timed.iter().map(|t| t.2).sum();
    let per_run = |secs: f64| secs * 1e3 / f64::from(spec.batch);
    // Best and median by CPU time per event; wall time of the same units.
    timed.sort_by(|a, b| (a.1 / a.2 as f64).total_cmp(&(b.1 / b.2 as f64)));
    let (best, median) = (timed[0], timed[timed.len() / 2]);
    let mut walls: Vec<f64> = timed.iter().map(|t| t.0 / t.2 as f64).collect();
    walls.sort_by(f64::total_cmp);
    let events_per_run = total_events as f64 / f64::from(n);
    Some(CaseResult {
        case: case.to_string(),
        scenario: spec.scenario,
        runs: n,
        events_per_run,
        load_ms,
        wall_ms_per_run: walls[0] * events_per_run * 1e3,
        wall_ms_per_run_median: walls[walls.len() / 2] * events_per_run * 1e3,
        cpu_ms_per_run: per_run(best.1),
        cpu_ms_per_run_median: per_run(median.1),
        events_per_s: best.2 as f64 / best.1,
        events_per_s_median: median.2 as f64 / median.1,
        ns_per_event: median.1 * 1e9 / median.2 as f64,
        sim_s_per_s: median.3 / median.1,
        sim_s_per_wall_s: median.3 / median.0,
        reference: spec.reference.map(str::to_string),
        ns_per_event_ratio: None,
        peak_rss_bytes: if peak_known { peak_rss_bytes() } else { None },
    })
}

/// Run `cases` (all when empty): `lan` about `lan_runs` times, each scale
/// case `scale_runs` times; fill in each case's ratio to its reference,
/// running the reference too if it was not asked for. `Err` names an
/// unknown case.
pub fn bench(cases: &[String], lan_runs: u32, scale_runs: u32) -> Result<Vec<CaseResult>, String> {
    let asked: Vec<&str> = if cases.is_empty() { CASES.to_vec() } else { cases.iter().map(String::as_str).collect() };
    if let Some(bad) = asked.iter().find(|c| !CASES.contains(c)) {
        return Err(format!("unknown case '{bad}' (known: {})", CASES.join(", ")));
    }
    let mut out: Vec<CaseResult> = Vec::new();
    for case in CASES.iter().filter(|c| asked.contains(c)) {
        let runs = if *case == "lan" { lan_runs } else { scale_runs };
        out.push(bench_case(case, runs).expect("a known case"));
    }
    for i in 0..out.len() {
        let Some(reference) = out[i].reference.clone() else { continue };
        let ref_ns = match out.iter().find(|r| r.case == reference) {
            Some(r) => r.ns_per_event,
            None => bench_case(&reference, scale_runs).expect("a known case").ns_per_event,
        };
        out[i].ns_per_event_ratio = Some(out[i].ns_per_event / ref_ns);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_advances_with_work_and_not_with_sleep() {
        let c0 = thread_cpu_s();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let slept = thread_cpu_s() - c0;
        let mut x = 0u64;
        let c1 = thread_cpu_s();
        while thread_cpu_s() - c1 < 0.02 {
            x = x.wrapping_add(1);
        }
        assert!(slept < 0.01, "{slept}");
        assert!(x > 0);
    }

    #[test]
    fn unknown_cases_are_named() {
        let e = bench(&["lan".into(), "nope".into()], 10, 1).unwrap_err();
        assert!(e.contains("unknown case 'nope'") && e.contains("dumbbell-5000"), "{e}");
    }

    #[test]
    fn every_case_has_a_valid_scenario() {
        for case in CASES {
            if ["dumbbell-100k", "topology-1m"].contains(&case) {
                continue; // the same generators, smaller, below
            }
            let spec = spec(case).unwrap();
            Scenario::load(&spec.text, spec.format, &spec.sets, case).unwrap_or_else(|e| panic!("{case}: {e}"));
        }
        let small = scale::tree(9, 10, 40, 10_000, 3.0);
        let sc = Scenario::load(&small, Format::Json, &[], "tree").unwrap();
        assert_eq!((sc.model.nodes.len(), sc.model.links.len(), sc.model.flows.len()), (100, 99, 40));
        // Flow 13: edge 4's host 1 to edge (4 + 4) mod 9's host 5 + 1.
        assert_eq!((sc.model.flows[13].from, sc.model.flows[13].to), (10 + 4 * 10 + 1, 10 + 8 * 10 + 6));
    }

    #[test]
    fn peak_memory_is_read_and_counts_what_the_process_touched() {
        if !reset_peak_rss() {
            return; // not Linux
        }
        // The mark is the process's: tests in other threads allocate and free
        // meanwhile (a 64 MB vector once showed +58.5 MB while another test
        // freed). A vector four times that, and a margin of 56 MB for them.
        let before = peak_rss_bytes().unwrap();
        let v = std::hint::black_box(vec![1u8; 256 << 20]);
        let after = peak_rss_bytes().unwrap();
        assert!(after >= before + (200 << 20), "{before} -> {after}");
        drop(v);
        assert!(reset_peak_rss());
        assert!(peak_rss_bytes().unwrap() < after, "the mark restarts");
    }
}
