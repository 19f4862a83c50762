//! The speed benchmark of issue 2: an 8 MB transfer over the 1997 LAN shape
//! with one error per 64 KB, timed inside the process with tracing off.

use crate::{embedded, run, Format, Scenario};
use serde::Serialize;
use std::time::Instant;

#[derive(Clone, Debug, Serialize)]
pub struct BenchResult {
    pub scenario: String,
    pub runs: u32,
    pub events_per_run: f64,
    pub events_per_s: f64,
    pub ms_per_run: f64,
}

/// Run the LAN scenario `runs` times (seeds 1..=runs) after one warm-up run.
pub fn bench(runs: u32) -> BenchResult {
    let text = embedded::get("balakrishnan97/lan").expect("embedded LAN scenario");
    let sc = Scenario::load(text, Format::Toml, &[], "balakrishnan97/lan").expect("embedded scenario is valid");
    let runs = runs.max(1);
    run(&sc, 0, false).expect("warm-up run");
    let mut events = 0u64;
    let t0 = Instant::now();
    for seed in 1..=u64::from(runs) {
        events += run(&sc, seed, false).expect("bench run").summary.events;
    }
    let secs = t0.elapsed().as_secs_f64();
    BenchResult {
        scenario: "balakrishnan97/lan (8 MB, one error per 64 KB, e2e)".into(),
        runs,
        events_per_run: events as f64 / f64::from(runs),
        events_per_s: events as f64 / secs,
        ms_per_run: secs * 1e3 / f64::from(runs),
    }
}
