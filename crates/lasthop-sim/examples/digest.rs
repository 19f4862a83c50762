//! `cargo run --release --example digest > before.txt`: one line per run
//! of every checked-in scenario (and of each scheme, protocol and option the
//! reproductions sweep, and small scale cases), seeds 1 and 2: its summary,
//! and for seed 1 a digest of its trace. A change to the engine that must
//! not change results (a data layout, a faster queue) is checked by running
//! it again after the change and comparing the two files byte for byte,
//! some 230 runs in under a minute (every scheme of `schemes::names`,
//! so the default `e2e` runs twice). The digest is `DefaultHasher`'s, stable
//! within one build of the standard library, which is all a before/after
//! comparison on one machine needs.
use lasthop_sim::{embedded, run, scale, schemes, Format, Scenario};
use std::hash::{Hash, Hasher};

fn main() {
    let mut combos: Vec<(String, String, Vec<String>)> = Vec::new();
    for (name, text) in embedded::SCENARIOS {
        combos.push((name.to_string(), text.to_string(), vec![]));
    }
    // A checked-in scenario with `sets`.
    let mut with = |name: &str, sets: &[&str]| {
        let text = embedded::get(name).unwrap_or_else(|| panic!("no scenario {name}"));
        combos.push((name.into(), text.into(), sets.iter().map(|s| s.to_string()).collect()));
    };
    for sc in ["balakrishnan97/lan", "balakrishnan97/wan"] {
        for s in schemes::names() {
            with(sc, &[&format!("scheme=\"{s}\"")]);
        }
    }
    for sc in ["balakrishnan99/one-way", "balakrishnan99/two-way", "balakrishnan99/two-forward"] {
        for p in ["acc", "af", "af+ar", "af-alone", "acc-random"] {
            for c in ["ideal", "vj", "none"] {
                with(sc, &[&format!("protocol=\"{p}\""), &format!("compression=\"{c}\"")]);
            }
        }
    }
    for (sc, ps) in [
        ("balakrishnan99/radio-chain", &["acc", "af"][..]),
        ("balakrishnan99/radio-many", &["af"][..]),
        ("balakrishnan99/testbed-maxburst", &["reno", "af"][..]),
        ("balakrishnan99/web", &["acc", "af", "af+sa"][..]),
    ] {
        for p in ps {
            with(sc, &[&format!("protocol=\"{p}\"")]);
        }
    }
    with("balakrishnan99/two-way", &["scheduling=\"acks-first\""]);
    with("balakrishnan99/testbed-two-way", &["scheduling=\"acks-first\"", "protocol=\"acc\""]);
    for sc in ["yun09/cell", "yun09/downlink", "yun09/uplink"] {
        for p in ["newreno", "sack", "snoop", "ll-elsn"] {
            with(sc, &[&format!("protocol=\"{p}\""), "fer=0.02"]);
        }
    }
    with("yun09/cell", &["channel=\"markov\"", "background=\"pareto\"", "n=4"]);
    combos.push(("dumbbell-50".into(), scale::dumbbell(50, 100_000), vec![]));
    combos.push(("path-20".into(), scale::one_path(20, 200_000), vec![]));
    combos.push(("lfp".into(), scale::long_fat_pipe(20_000_000), vec![]));
    let mut n = 0;
    for (name, text, sets) in &combos {
        let sc = match Scenario::load(text, Format::Toml, sets, name) {
            Ok(s) => s,
            Err(e) => {
                println!("{name} {sets:?}: load error {e}");
                continue;
            }
        };
        for seed in 1..=2u64 {
            let trace = seed == 1;
            match run(&sc, seed, trace) {
                Ok(o) => {
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    format!("{:?}", o.trace).hash(&mut h);
                    // A run without a wap workload prints as before its summary had one.
                    let summary = format!("{:?}", o.summary).replace(", wap: [] }", " }");
                    println!("{name} {sets:?} seed {seed}: trace {:016x} {summary}", h.finish());
                }
                Err(e) => println!("{name} {sets:?} seed {seed}: error {e:?}"),
            }
            n += 1;
        }
    }
    eprintln!("{n} runs");
}
