//! The integration tests of lasthop-tcp, in one test binary: each file is a
//! module of it. A binary per file linked the whole engine once per file,
//! and compiled them as so many crates (CI's test build: 222 s as 48 binaries
//! with full debug info, 168 s as three with line tables). Run one file's
//! tests with `cargo test -p lasthop-tcp --test tcp FILE::`.

mod common;

mod asym_loops;
mod asym_receiver;
mod asym_sender;
mod bsd44_reno;
mod cubic_packetdrill;
mod dcr_timeline;
mod fig1_timelines;
mod freeze;
mod handshake;
mod ll_elsn_loops;
mod ll_elsn_timelines;
mod mobility_hooks;
mod persist;
mod window_update;
mod wtcp;
