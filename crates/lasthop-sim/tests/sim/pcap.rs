//! pcap capture watches a run without touching it: the summary is the same
//! with or without captures, and a capture holds exactly the frames its link
//! direction reports as sent (corrupted ones included).

use crate::common;
use etherparse::{Ipv4Header, TcpHeader};
use lasthop_sim::{embedded, run, run_with, CaptureSpec, RunError, RunOptions, Scenario};

fn lan(sets: &[&str]) -> Scenario {
    common::load(embedded::get("balakrishnan97/lan").unwrap(), sets)
}

fn options(specs: &[&str]) -> RunOptions {
    RunOptions { captures: specs.iter().map(|s| CaptureSpec::parse(s)).collect(), ..RunOptions::default() }
}

/// (time_ns, captured bytes) of each record of a libpcap file.
fn records(file: &[u8]) -> Vec<(u64, &[u8])> {
    let u32_at = |i: usize| u32::from_le_bytes(file[i..i + 4].try_into().unwrap());
    assert_eq!(u32_at(0), 0xa1b2_3c4d);
    let (mut at, mut out) = (24, Vec::new());
    while at < file.len() {
        let caplen = u32_at(at + 8) as usize;
        out.push((u64::from(u32_at(at)) * 1_000_000_000 + u64::from(u32_at(at + 4)), &file[at + 16..at + 16 + caplen]));
        at += 16 + caplen;
    }
    out
}

fn tcp_of(frame: &[u8]) -> TcpHeader {
    let (_, rest) = Ipv4Header::from_slice(&frame[14..]).unwrap();
    TcpHeader::from_slice(rest).unwrap().0
}

#[test]
fn capture_changes_nothing_and_counts_every_frame_sent() {
    let sc = lan(&[]);
    let plain = run(&sc, 1, false).unwrap().summary;
    let specs = ["wired:fh->bs", "wired:bs", "wireless:bs->mh", "wireless:mh", "wireless"];
    let out = run_with(&sc, 1, &options(&specs)).unwrap();
    assert_eq!(serde_json::to_string(&out.summary).unwrap(), serde_json::to_string(&plain).unwrap());

    let sent = |name: &str, dir: &str| {
        plain.links.iter().find(|l| l.name == name && l.direction == dir).unwrap().packets_sent as usize
    };
    let labels: Vec<&str> = out.pcaps.iter().map(|p| p.label.as_str()).collect();
    assert_eq!(labels, ["wired:fh->bs", "wired:bs->fh", "wireless:bs->mh", "wireless:mh->bs", "wireless"]);
    let want = [
        sent("wired", "fh->bs"),
        sent("wired", "bs->fh"),
        sent("wireless", "bs->mh"),
        sent("wireless", "mh->bs"),
        sent("wireless", "bs->mh") + sent("wireless", "mh->bs"),
    ];
    for (p, want) in out.pcaps.iter().zip(want) {
        let recs = records(&p.bytes);
        assert_eq!(recs.len(), want, "{}", p.label);
        assert!(recs.windows(2).all(|w| w[0].0 <= w[1].0), "{}: records in time order", p.label);
    }
    let wireless = plain.links.iter().find(|l| l.direction == "bs->mh").unwrap();
    assert!(wireless.drops_error > 0, "corrupted frames are among those captured");
}

#[test]
fn same_seed_same_pcap_bytes() {
    let sc = lan(&["scheme=e2e-ietf-sack"]);
    let a = run_with(&sc, 3, &options(&["wireless"])).unwrap().pcaps;
    let b = run_with(&sc, 3, &options(&["wireless"])).unwrap().pcaps;
    assert_eq!(a, b);
}

#[test]
fn acks_carry_the_options_their_scheme_sends() {
    // (scheme, option kind and first data byte to look for, after the NOPs)
    let cases: [(&str, &[u8]); 3] =
        [("e2e-ietf-sack", &[5]), ("e2e-smart", &[253, 9, 0x4c, 0x48, b'S']), ("e2e-eln", &[253, 5, 0x4c, 0x48, b'E'])];
    for (scheme, want) in cases {
        let sc = lan(&[&format!("scheme={scheme}")]);
        let opts = RunOptions { snaplen: 100, ..options(&["wireless:mh->bs"]) };
        let out = run_with(&sc, 1, &opts).unwrap();
        let acks = records(&out.pcaps[0].bytes);
        let found = acks.iter().any(|(_, f)| {
            let t = tcp_of(f);
            let o = t.options.as_slice();
            o.windows(want.len()).any(|w| w == want)
        });
        assert!(found, "{scheme}: no ack carries {want:?}");
        let reno = run_with(&lan(&[]), 1, &opts).unwrap();
        assert!(records(&reno.pcaps[0].bytes).iter().all(|(_, f)| tcp_of(f).options.is_empty()), "e2e sends none");
    }
}

#[test]
fn bad_specs_name_the_option_and_what_exists() {
    let sc = lan(&[]);
    let err = |specs: &[&str], snaplen: u32| match run_with(&sc, 1, &RunOptions { snaplen, ..options(specs) }) {
        Err(RunError::Options(e)) => e.to_string(),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("{specs:?} accepted"),
    };
    assert_eq!(err(&["wirless"], 128), "--pcap: no link named 'wirless' (links: wired, wireless)");
    assert_eq!(
        err(&["wireless:mh->fh"], 128),
        "--pcap: link 'wireless' has no direction 'mh->fh' (directions: bs->mh, mh->bs)"
    );
    assert_eq!(
        err(&["wireless:fh"], 128),
        "--pcap: link 'wireless' has no direction 'fh' (directions: bs->mh, mh->bs)"
    );
    assert_eq!(
        err(&["wireless:bs", "wireless:bs->mh"], 128),
        "--pcap: 'wireless:bs' and 'wireless:bs->mh' name the same capture"
    );
    assert_eq!(err(&["wireless"], 0), "--snaplen: must be in 1..=262144, got 0");
}
