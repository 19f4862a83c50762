//! lasthop-net: what happens to packets between two nodes (DESIGN.md, "Layout").
//!
//! - [`emulation`]: seed 001's testbed link emulator (bandwidth then delay
//!   emulation on a coarse kernel clock), as a link direction option.
//! - [`error`]: per-direction error models answering pass or corrupt for each
//!   transmission.
//! - [`link`]: full- and half-duplex links with per-frame overhead.
//! - [`mac`]: shared media with several stations behind one interface:
//!   the half-duplex packet radio of seed 001 Sec. 5 (not yet wired into
//!   the simulation).
//! - [`queue`]: queue disciplines per link direction: DropTail, and a composed
//!   queue with random drop, RED/ECN, ACK filtering and acks-first.

pub mod emulation;
pub mod error;
pub mod link;
pub mod mac;
pub mod queue;
