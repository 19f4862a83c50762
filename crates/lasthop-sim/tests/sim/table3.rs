//! Seed 000 Table III: the end-to-end schemes over 10 seeds at one error per
//! 64 KB. These are the orderings of the issue-3 acceptance list that this
//! model reproduces; the ones it does not (E2E-NEWRENO's gain larger on WAN
//! than on LAN, E2E-IETF-SACK at least twice E2E on WAN, E2E-SMART ahead of
//! E2E-ELN-RXMT with 8 KB buffers) are discussed in the issue, not asserted.
//! Since issue 10 the scenarios use 4.4BSD-Lite's window rules instead of
//! RFC 5681's growth, which had been kept because it matched E2E: with them
//! E2E on LAN 32 KB and WAN is above the paper's "less than 50% / 25% of the
//! maximum" and E2E-ELN falls just below E2E-NEWRENO on LAN 32 KB; those are
//! reported as deviations by `lasthop reproduce`, not asserted here. Since
//! issue 28 (header prediction guarded by the duplicate-ack count, as the
//! paper's own Sec. IV-B measurements require) E2E is above half the peak on
//! LAN 8 KB too, and E2E-NEWRENO falls below E2E there: the claims
//! iii-e2e-below-half-peak and iii-newreno-lan carry those verdicts, pinned
//! in the reproduction's golden file, so they are not asserted here either.

use crate::common;
use common::{mean, run_embedded};
use std::collections::BTreeMap;

struct Cell {
    mbps: f64,
    wireless_goodput: f64,
    wired_goodput: f64,
}

fn cell(setting: &str, scheme: &str) -> Cell {
    let runs: Vec<_> = (1..=10)
        .map(|seed| run_embedded(&format!("balakrishnan97/table3-{setting}"), &[&format!("scheme={scheme}")], seed))
        .collect();
    let goodput = |dir: &str| {
        mean(runs.iter().map(|r| r.links.iter().find(|l| l.direction == dir).unwrap().goodput.unwrap() * 100.0))
    };
    Cell {
        mbps: mean(runs.iter().map(|r| r.flows[0].throughput_bps / 1e6)),
        wireless_goodput: goodput("bs->mh"),
        wired_goodput: goodput("fh->bs"),
    }
}

#[test]
fn table3_orderings() {
    let schemes = ["e2e", "e2e-newreno", "e2e-smart", "e2e-ietf-sack", "e2e-eln", "e2e-eln-rxmt"];
    let mut t: BTreeMap<(&str, &str), Cell> = BTreeMap::new();
    for setting in ["lan-8k", "lan-32k", "wan-32k"] {
        for scheme in schemes {
            if setting == "wan-32k" && scheme == "e2e-smart" {
                continue; // "We used the SMART-based scheme only for the LAN experiments."
            }
            let c = cell(setting, scheme);
            eprintln!("{setting} {scheme}: {:.3} ({:.1}, {:.1})", c.mbps, c.wireless_goodput, c.wired_goodput);
            t.insert((setting, scheme), c);
        }
    }
    let m = |s, k| t[&(s, k)].mbps;
    // E2E-NEWRENO above E2E on LAN 32 KB and WAN.
    for s in ["lan-32k", "wan-32k"] {
        assert!(m(s, "e2e-newreno") > m(s, "e2e"), "{s}");
    }
    // E2E-ELN-RXMT above E2E-NEWRENO on LAN 32 KB; ELN-RXMT above ELN at 8 KB.
    assert!(m("lan-32k", "e2e-eln-rxmt") > m("lan-32k", "e2e-newreno"));
    assert!(m("lan-8k", "e2e-eln-rxmt") > m("lan-8k", "e2e-eln"));
    // E2E-SMART the best end-to-end scheme on LAN 32 KB.
    for k in schemes {
        assert!(m("lan-32k", "e2e-smart") >= m("lan-32k", k), "{k}");
    }
    // Every goodput within 1.5 points of 97.7%.
    for ((s, k), c) in &t {
        for g in [c.wireless_goodput, c.wired_goodput] {
            assert!((g - 97.7).abs() <= 1.5, "{s} {k}: goodput {g}");
        }
    }
}
