//! Development helper: `cargo run --release --example run -- NAME SEED [SET ...]`
//! prints the JSON summary of one run of an embedded scenario.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("balakrishnan97/lan");
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let sets: Vec<String> = args.iter().skip(2).cloned().collect();
    let text = lasthop_sim::embedded::get(name).expect("embedded scenario name");
    let sc = match lasthop_sim::Scenario::load(text, lasthop_sim::Format::Toml, &sets, name) {
        Ok(sc) => sc,
        Err(e) => {
            eprintln!("lasthop: error: {e}");
            std::process::exit(2);
        }
    };
    let out = lasthop_sim::run(&sc, seed, false).expect("run");
    println!("{}", serde_json::to_string_pretty(&out.summary).unwrap());
}
