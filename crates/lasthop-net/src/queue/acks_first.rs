//! Service order: FIFO, or acks-first (seed 001 S6.5; reading Sec. 1.11).
//!
//! Acks-first gives pure acks strict priority over data at the reverse
//! bottleneck: with header compression acks are tiny, so serving them first
//! barely delays data while it keeps them from waiting behind data packets
//! that take hundreds of ms each on a slow reverse channel. Within each
//! class the order stays FIFO (ns-2's `deque_acksfirst` takes the first
//! `PT_ACK` in the queue). It changes only the order of service: a data
//! frame already on the medium finishes (no preemption), and admission is
//! unchanged (the limit still counts packets of both classes).

use super::Waiting;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The order in which a queue serves what waits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Service {
    /// First come, first served.
    #[default]
    Fifo,
    /// The oldest pure ack first; data only when no pure ack waits.
    AcksFirst,
}

impl Service {
    /// Index of the packet to serve next from non-empty `packets`, of which
    /// `acks` are pure acks.
    #[inline]
    pub fn next(self, packets: &VecDeque<Waiting>, acks: usize) -> usize {
        match self {
            Service::AcksFirst if acks > 0 => {
                packets.iter().position(Waiting::is_pure_ack).expect("`acks` counts the pure acks waiting")
            }
            _ => 0,
        }
    }
}
