//! lasthop-core: the vocabulary every lasthop model speaks.
//!
//! - [`Time`]: simulated time as integer nanoseconds (DESIGN.md, "Determinism").
//! - [`Packet`] and [`TcpHeader`]: an IPv4/TCP header model with the options the
//!   source documents need (SACK blocks, SMART echo, ELN mark), kept `Copy` so
//!   that moving a packet never allocates; [`PacketPool`] holds them while
//!   they cross links, which pass 4-byte handles.
//! - [`RngStream`]: per-component random streams derived from (run seed,
//!   component name), so adding a component never shifts another's draws.
//! - [`tick::KernelClock`]: a host's coarse kernel clock, on whose ticks
//!   BSD timeouts fire (seed 001's link emulator and burst timer).
//! - [`trace`]: typed trace events and the columnar sink that records them.

pub mod packet;
pub mod pool;
pub mod ranges;
pub mod rng;
pub mod rtt;
pub mod tick;
pub mod time;
pub mod trace;

pub use packet::{Ecn, LlNotice, NodeId, Packet, PacketKind, SackBlocks, TcpHeader, Timestamps};
pub use pool::{Chain, PacketPool, PacketRef};
pub use ranges::RangeSet;
pub use rng::RngStream;
pub use time::Time;
