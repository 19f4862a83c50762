//! `cargo run --release --example loadtime -- dumbbell PAIRS | tree`: time
//! and peak memory of loading a scale scenario.
fn hwm() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    let l = s.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
}
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (text, fmt) = match a[1].as_str() {
        "dumbbell" => (lasthop_sim::scale::dumbbell(a[2].parse().unwrap(), 100_000), lasthop_sim::Format::Toml),
        _ => (lasthop_sim::scale::tree(999, 1000, 100_000, 10_000, 3.0), lasthop_sim::Format::Json),
    };
    let text_mib = hwm() as f64 / 1048576.0;
    // The two phases apart: the file (parse, --set, deserialize) and the model.
    let t = std::time::Instant::now();
    let file = lasthop_sim::scenario::load::load_file(&text, fmt, &[], "x").unwrap();
    let file_ms = t.elapsed().as_secs_f64() * 1e3;
    let file_mib = hwm() as f64 / 1048576.0;
    let t = std::time::Instant::now();
    let model = lasthop_sim::scenario::Model::from_file(&file).unwrap();
    println!(
        "phases: file {file_ms:.0} ms (peak {file_mib:.0} MiB), model {:.0} ms (peak {:.0} MiB)",
        t.elapsed().as_secs_f64() * 1e3,
        hwm() as f64 / 1048576.0
    );
    drop((model, file));
    let t0 = std::time::Instant::now();
    let r = lasthop_sim::Scenario::load(&text, fmt, &[], "x");
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    println!(
        "{} load_ms {ms:.0} ok {} err {:?} peak_mib {:.0} (text alone {text_mib:.0})",
        a[1..].join(" "),
        r.is_ok(),
        r.as_ref().err().map(|e| e.to_string()),
        hwm() as f64 / 1048576.0
    );
}
