//! Issue 13: seed 004's cell of n wired senders and n 802.11b stations (the
//! `wlan_cell` template, scenarios/yun09/cell.toml), and the per-copy
//! endpoints of a flow (`{copy}`). Every run goes through
//! `lasthop_sim::run`, which checks the invariants at its end (packet
//! conservation with the MAC's frames counted).

mod common;
use common::{load, run_text};
use lasthop_sim::{Format, Scenario};

/// Two senders `s1`, `s2` behind a router `r`, two receivers `d1`, `d2`;
/// one flow of `copies` copies from `from` to `to`.
fn star(from: &str, to: &str, copies: u32) -> String {
    let mut text = String::from("name = \"star\"\n");
    for n in ["s1", "s2", "r", "d1", "d2"] {
        text += &format!("[[nodes]]\nname = \"{n}\"\n");
    }
    for (a, b) in [("s1", "r"), ("s2", "r"), ("r", "d1"), ("r", "d2")] {
        text += &format!("[[links]]\nname = \"{a}-{b}\"\na = \"{a}\"\nb = \"{b}\"\nbandwidth_bps = 1e6\n");
    }
    text + &format!("[[flows]]\nname = \"f\"\nfrom = \"{from}\"\nto = \"{to}\"\nbytes = 20000\ncopies = {copies}\n")
}

fn load_err(text: &str, sets: &[&str]) -> lasthop_sim::ScenarioError {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Scenario::load(text, Format::Toml, &sets, "t").expect_err("must be rejected")
}

#[test]
fn copy_token_gives_each_copy_its_own_ends() {
    let sc = load(&star("s{copy}", "d{copy}", 2), &[]);
    let m = &sc.model;
    let ends: Vec<(&str, &str, &str)> = m
        .flows
        .iter()
        .map(|f| (f.name.as_str(), m.nodes[f.from as usize].as_str(), m.nodes[f.to as usize].as_str()))
        .collect();
    assert_eq!(ends, [("f#0", "s1", "d1"), ("f#1", "s2", "d2")]);
    // Each copy's data goes its own way: s_i -> r -> d_i.
    for (fi, f) in m.flows.iter().enumerate() {
        let last = m.paths[fi][0].last().unwrap();
        let l = &m.links[last.link as usize];
        assert_eq!(l.ends[1 - last.dir as usize], f.to);
    }
    let s = run_text(&star("s{copy}", "d{copy}", 2), &[], 1);
    assert!(s.flows.iter().all(|f| f.completed && f.bytes_delivered == 20000), "{:?}", s.flows);
    // One end may share: every copy from s1.
    let sc = load(&star("s1", "d{copy}", 2), &[]);
    assert_eq!(sc.model.flows.iter().map(|f| (f.from, f.to)).collect::<Vec<_>>(), [(0, 3), (0, 4)]);
}

#[test]
fn without_the_token_copies_share_their_ends() {
    let sc = load(&star("s2", "d1", 3), &[]);
    assert!(sc.model.flows.iter().all(|f| (f.from, f.to) == (1, 3)));
    // A name with braces that are not the token is a plain name.
    let e = load_err(&star("s{copies}", "d1", 2), &[]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("flows[0].from", "no node named 's{copies}'"));
}

#[test]
fn a_copy_whose_expanded_end_does_not_exist_is_named() {
    let e = load_err(&star("s{copy}", "d{copy}", 3), &[]);
    assert_eq!(e.path, "flows[0].from", "{e}");
    assert_eq!(e.reason, "no node named 's3' (copy 3 of 's{copy}')");
    let e = load_err(&star("s1", "x{copy}", 2), &[]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("flows[0].to", "no node named 'x1' (copy 1 of 'x{copy}')"));
    // A copy whose two ends expand to one node.
    let e = load_err(&star("s{copy}", "s{copy}", 1), &[]);
    assert_eq!((e.path.as_str(), e.reason.as_str()), ("flows[0].to", "must differ from `from` (copy 1)"));
}
