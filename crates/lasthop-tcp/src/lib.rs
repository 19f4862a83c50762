//! lasthop-tcp: sans-IO TCP endpoints.
//!
//! A sender or receiver is a state machine handed `now` and an input (a
//! segment, a timer) that answers through `poll_transmit` (what to send now)
//! and `poll_at` (when it next needs to be woken). Nothing here reads a clock,
//! allocates per event, or knows about links: the simulator and the live
//! runner drive the same code.
//!
//! The sender is split as DESIGN.md asks: [`cc`] owns cwnd and ssthresh,
//! [`recovery`] owns what to retransmit, whether a congestion event
//! happened and when recovery ends (one enum of members, each answering an
//! ack), [`rtt`] owns the retransmission timer, the [`sender`] keeps
//! sequence space, timers and options, and [`receiver`] holds the ack
//! policy.
//! Seed 001's options live one per module: [`ecn`] (RFC 3168 and the echo
//! of marked acks), [`acc`] (ACK congestion control at the receiver),
//! [`sender_adaptation`] (growth by data acked, burst pacing),
//! [`fr_request`] (the fast-retransmit request) and [`timestamps`].
//! Connection start-up and close, when a flow has them, are in [`handshake`].
//! Seed 004's link-layer loss notification (LL-ELSN) at the sender is in
//! [`ll_elsn`], with its responses [`esack`], [`hack`] and [`lhp`] (the
//! recovery member `recovery::ll_elsn`).
//! WTCP (seed 002 Sec. 1) is the controller [`cc::wtcp`] with its
//! receiver's rate rule in [`wtcp`].
//! Sequence numbers are 64-bit byte offsets from 0 (no wraparound in a run).

pub mod acc;
pub mod cc;
pub mod config;
pub mod ecn;
pub mod ersn_marks;
pub mod fr_request;
pub mod handshake;
pub mod ll_elsn;
pub mod mtcp;
pub mod persist;
pub mod receiver;
pub mod recovery;
pub use recovery::{esack, hack, lhp, sack, smart};
pub mod rtt;
pub mod sender;
pub mod sender_adaptation;
pub mod timestamps;
pub mod variants;
pub mod window_scale;
pub mod wtcp;

pub use config::{
    AccConfig, AccMode, AckPolicy, AdaptationConfig, CwndBound, ElnResponse, HeaderPredictionGuard, ReceiverConfig,
    RecoveryExit, RtoConfig, RtoMode, SenderConfig, SenderMutations, Variant, WindowCut, WindowGrowth, WindowUpdate,
};
pub use config::{LlElsnConfig, LlElsnResponse};
pub use handshake::ConnectionTimes;
pub use receiver::Receiver;
pub use sender::{Sender, SenderStats};
