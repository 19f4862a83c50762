//! lasthop-net: what happens to packets between two nodes (DESIGN.md, "Layout").
//!
//! - [`arq`]: link-level ARQ, one file per protocol: a link's sender and
//!   receiver sides behind a sans-IO interface, driven by a MAC or a link
//!   (the packet radio's stop-and-wait, seed 001 Sec. 5).
//! - [`emulation`]: seed 001's testbed link emulator (bandwidth then delay
//!   emulation on a coarse kernel clock), as a link direction option.
//! - [`error`]: per-direction error models answering pass or corrupt for each
//!   transmission.
//! - [`mac`]: medium access, one file per member: the point-to-point
//!   links (full and half duplex, with per-frame overhead) and the shared
//!   media with several stations (the half-duplex packet radio of seed 001
//!   Sec. 5).
//! - [`rate_trace`]: a link direction's rate as a recorded trace of
//!   delivery opportunities (Mahimahi's `mm-link` format).
//! - [`queue`]: queue disciplines per link direction: DropTail, and a composed
//!   queue with random drop, RED/ECN, ACK filtering and acks-first.
//! - [`wap`]: WAP's transaction and session layers over the caller's
//!   datagrams: WTP (classes 0, 1 and 2, retransmission, abort) and WSP's
//!   connection-mode session (connect, fetch, suspend, resume).

pub mod arq;
pub mod emulation;
pub mod error;
pub mod mac;
pub mod queue;
pub mod rate_trace;
pub mod wap;
