//! The integration tests of lasthop-sim, in one test binary: each file is a
//! module of it. A binary per file linked the whole engine once per file,
//! and compiled them as so many crates (CI's test build: 222 s as 48 binaries
//! with full debug info, 168 s as three with line tables). Run one file's
//! tests with `cargo test -p lasthop-sim --test sim FILE::`.

mod common;

mod ack_recons;
mod airmail_handoff;
mod airmail_link;
mod aqm;
mod asym_endpoints;
mod asymmetry;
mod bbr;
mod blackout;
mod cwnd_bound;
mod dcf;
mod dcf_snoop;
mod determinism;
mod ebsn;
mod emulation;
mod errors;
mod fig1_sim;
mod fuzz;
mod handshake;
mod invariants;
mod itcp;
mod ll_elsn_metrics;
mod ll_statements;
mod mhp;
mod mobility;
mod mtcp;
mod outages;
mod papers;
mod pareto;
mod pcap;
mod queue;
mod radio;
mod rate_trace;
mod recovery_exit;
mod rlp_link;
mod scale;
mod schemes;
mod snoop;
mod snoop_handoff;
mod snoop_nack;
mod split;
mod table3;
mod wap;
mod wlan_cell;
mod wtcp;
