//! Scale: large topologies load (routes are computed per flow end, not for
//! every node pair) and run with every invariant checked. Speed itself is
//! measured by `lasthop bench` (cases path-1000, bdp-17k, dumbbell-5000),
//! not here.

use lasthop_sim::{run, scale, Format, Scenario};

#[test]
fn a_20000_node_dumbbell_loads_and_routes_each_pair_over_the_bottleneck() {
    let pairs = 9_999; // 2 routers + 19,998 hosts
    let sc = Scenario::load(&scale::dumbbell(pairs, 10_000), Format::Toml, &[], "dumbbell").unwrap();
    assert_eq!(sc.model.nodes.len(), 20_000);
    assert_eq!(sc.model.paths.len(), pairs);
    for (i, [data, acks]) in sc.model.paths.iter().enumerate() {
        // source access link, bottleneck (link 0), receiver access link; and back.
        let links: Vec<u32> = data.iter().map(|h| h.link).collect();
        assert_eq!(links, [1 + 2 * i as u32, 0, 2 + 2 * i as u32]);
        let back: Vec<u32> = acks.iter().map(|h| h.link).collect();
        assert_eq!(back, [2 + 2 * i as u32, 0, 1 + 2 * i as u32]);
    }
}

#[test]
fn a_dumbbell_of_300_flows_delivers_every_byte() {
    let sc = Scenario::load(&scale::dumbbell(300, 50_000), Format::Toml, &[], "dumbbell").unwrap();
    // `run` fails on any invariant: conservation, in-order exactly-once delivery, time.
    let s = run(&sc, 1, false).unwrap().summary;
    assert_eq!(s.flows.len(), 300);
    assert!(s.flows.iter().all(|f| f.completed && f.bytes_delivered == 50_000));
    let bottleneck = s.links.iter().find(|l| l.name == "bottleneck" && l.direction == "left->right").unwrap();
    assert!(bottleneck.packets_sent >= 300 * 50_000 / 1460, "{}", bottleneck.packets_sent);
}

#[test]
fn a_thousand_flows_on_one_path_and_a_long_fat_pipe_run_to_completion() {
    let sc = Scenario::load(&scale::one_path(1000, 20_000), Format::Toml, &[], "one-path").unwrap();
    let s = run(&sc, 1, false).unwrap().summary;
    assert!(s.flows.iter().all(|f| f.completed));
    let sc = Scenario::load(&scale::long_fat_pipe(50_000_000), Format::Toml, &[], "lfp").unwrap();
    let s = run(&sc, 1, false).unwrap().summary;
    assert!(s.flows[0].completed);
    // 100 Mb/s at a 200 ms RTT takes over 1,700 segments in flight on average.
    assert!(s.flows[0].throughput_bps > 100e6, "{}", s.flows[0].throughput_bps);
}

/// The names a run reports are made once per scenario, not per run: two
/// runs hand back the same name tables, and the summary's names are the
/// model's (with the "a->b" and "link:a->b" spellings of directions).
#[test]
fn runs_share_the_scenarios_names_and_report_them_unchanged() {
    let sc = Scenario::load(&scale::dumbbell(3, 10_000), Format::Toml, &[], "dumbbell").unwrap();
    let (a, b) = (run(&sc, 1, false).unwrap(), run(&sc, 2, false).unwrap());
    assert!(std::sync::Arc::ptr_eq(&a.link_dir_names, &b.link_dir_names));
    assert!(std::sync::Arc::ptr_eq(&a.node_names, &b.node_names));
    assert_eq!(a.link_dir_names[0], "bottleneck:left->right");
    assert_eq!(a.link_dir_names[3], "s0-access:left->s0");
    assert_eq!(a.node_names.len(), 8);
    let l = &a.summary.links[3];
    assert_eq!((&*l.name, &*l.direction), ("s0-access", "left->s0"));
    assert_eq!(a.summary.flows[2].name, "f2");
    let json = serde_json::to_value(&a.summary).unwrap();
    assert_eq!(json["links"][3]["direction"], "left->s0", "a name serializes as a string");
}
