//! lasthop-net: what happens to packets between two nodes (DESIGN.md, "Layout").
//!
//! - [`error`]: per-direction error models answering pass or corrupt for each
//!   transmission.
//! - [`link`]: full- and half-duplex links with per-frame overhead.
//! - [`queue`]: queue disciplines per link direction: DropTail, and a composed
//!   queue with random drop, RED/ECN, ACK filtering and acks-first.

pub mod error;
pub mod link;
pub mod queue;
