//! Loss recovery: what to retransmit and when, whether a congestion event
//! happened, and when recovery ends; the family of DESIGN.md's
//! `LossRecovery`. One file per member:
//!
//! - [`dupack`]: duplicate-ack counting, Tahoe's go-back-N, Reno (RFC 5681
//!   3.2) and NewReno (RFC 6582).
//! - [`dcr`]: TCP-DCR's delayed congestion response (Bhandarkar et al.
//!   2005) over NewReno.
//! - [`sack`]: the RFC 6675 scoreboard, pipe and NextSeg.
//! - [`smart`]: SMART's echo board (seed 000 Sec. II).
//! - [`esack`], [`hack`], [`lhp`]: seed 004's responses to link-layer loss
//!   notification (ESACK, HACK and HACK-fixed, the LHP packet list).
//!
//! - [`window_rules`]: the window's shape during recovery (the cut's cwnd,
//!   Reno's inflation, NewReno's partial-ack deflation, the exit), on the
//!   shared window (`crate::cc::Window`), whose ssthresh the congestion
//!   controller answers.
//!
//! The
//! sender (`crate::sender`) keeps sequence space, timers and options and
//! asks the member its flow runs. Departure from DESIGN.md's shape: the
//! members are not behind one trait yet: each is driven by the sender's
//! per-recovery ack path (`Sender::on_ack`'s one match on the recovery).

pub mod dcr;
pub mod dupack;
pub mod esack;
pub mod hack;
pub mod lhp;
pub mod sack;
pub mod smart;
pub mod window_rules;

pub use dupack::{AckVerdict, LossRecovery};
