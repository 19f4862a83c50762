//! lasthop-net: what happens to packets between two nodes (DESIGN.md, "Layout").
//!
//! - [`error`]: per-direction error models answering pass or corrupt for each
//!   transmission.
//! - [`link`]: full- and half-duplex links with per-frame overhead.
//! - [`queue`]: queue disciplines (DropTail).

pub mod error;
pub mod link;
pub mod queue;
