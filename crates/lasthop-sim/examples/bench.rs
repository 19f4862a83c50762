//! `cargo run --release --example bench -- [CASE ...] [--runs N] [--scale-runs N]`:
//! `lasthop bench` without Python, for profilers (perf, callgrind).
fn main() {
    let mut args = std::env::args().skip(1);
    let (mut cases, mut runs, mut scale_runs) = (Vec::new(), 200, 3);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|s| s.parse().ok()).expect("--runs N"),
            "--scale-runs" => scale_runs = args.next().and_then(|s| s.parse().ok()).expect("--scale-runs N"),
            _ => cases.push(a),
        }
    }
    match lasthop_sim::bench::bench(&cases, runs, scale_runs) {
        Ok(r) => println!("{}", serde_json::to_string_pretty(&r).unwrap()),
        Err(e) => {
            eprintln!("bench: error: {e}");
            std::process::exit(2);
        }
    }
}
