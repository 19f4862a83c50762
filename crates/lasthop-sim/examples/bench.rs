//! `cargo run --release --example bench -- [RUNS]`: the issue-2 benchmark
//! without Python, for profilers (perf, callgrind).
fn main() {
    let runs = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let r = lasthop_sim::bench::bench(runs);
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
}
