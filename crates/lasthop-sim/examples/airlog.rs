//! Development helper: `cargo run --release --example airlog -- NAME SEED FROM_S TO_S [SET ...]`
//! prints the air log of medium 0 between two times.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = &args[0];
    let seed: u64 = args[1].parse().unwrap();
    let (from, to): (f64, f64) = (args[2].parse().unwrap(), args[3].parse().unwrap());
    let sets: Vec<String> = args.iter().skip(4).cloned().collect();
    let text = lasthop_sim::embedded::get(name).expect("embedded scenario name");
    let sc = lasthop_sim::Scenario::load(text, lasthop_sim::Format::Toml, &sets, name).expect("loads");
    let mut w = lasthop_sim::world::World::new(&sc.model, seed, false).with_air_logs();
    w.run();
    let (log, st) = w.air_log(0);
    let names = w.node_names();
    for a in log.iter().filter(|a| a.tx_start.as_secs_f64() >= from && a.tx_start.as_secs_f64() <= to) {
        println!(
            "{:10.4} {:10.4} {:>4} -> {:<4} {:?} {:?}",
            a.tx_start.as_secs_f64(),
            a.tx_end.as_secs_f64(),
            names[st[a.from as usize] as usize],
            names[st[a.to as usize] as usize],
            a.class,
            a.heard
        );
    }
}
