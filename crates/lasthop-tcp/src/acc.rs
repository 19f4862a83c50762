//! ACK congestion control, ACC (seed 001 Secs. 6.1 and 8.2): the data
//! receiver sends fewer acks when the reverse path is congested, as a
//! sender sends fewer segments ("mimics the standard TCP congestion control
//! of senders in the way it sends acks").
//!
//! The receiver acks once per `d` in-order full-sized segments (the
//! delayed-ack factor); out-of-order segments, duplicates and hole fills are
//! acked at once (the receiver's ordinary rule, ns-2's `delacklim_ = 0`), and
//! the ack policy's delayed-ack timer still forces an ack ("usually 200 ms",
//! the 4.4BSD fast timer; ns-2's sink uses 100 ms).
//!
//! Two modes:
//! - `Ecn` (Sec. 6.1, the simulations; ns-2 `Agent/TCPSink/Asym`): a data
//!   segment carrying the sender's echo of a marked ack (ECE on data, see
//!   [`crate::ecn`]) doubles `d`, d = min(2d, cap), if a round trip has
//!   passed since the last increase; otherwise, once a round trip has passed
//!   since the last increase and the last decrease, d = max(d - 1, 1). "A
//!   round trip has passed since time T" is ns-2's timestamp test: the
//!   sender has echoed (TSecr on a data segment) an ack TSval of at least
//!   T, so an ack sent after T has made the round trip. The factors (x2 up,
//!   -1 down) are lost from the seed text; they are ns-2's \[N\]
//!   (ambiguity 15). `d` starts at 1.
//! - `Testbed` (Sec. 8.2, the BSD/OS implementation, no router help): d is
//!   the cap itself, min(max_delack, floor(win / min_acks_win)).
//!
//! The cap (Sec. 8.2): win = min(peer_win, receive_buffer / MSS), where
//! peer_win is the sender-window option (min(cwnd, data in the send buffer)
//! in MSS units); cap = min(max_delack, floor(win / min_acks_win)), at least
//! 1, so the sender gets min_acks_win acks per window and never stalls.
//! ns-2 computes the same bound from its per-packet TCPA header with a
//! hard-coded safety factor 2, `min(maxdelack_, max_sender_can_send / 2)`:
//! that is `min_acks_win = 2`, the default here. ns-2 bounds `d` itself by
//! maxdelack only and applies the window bound to the effective factor; here
//! an increase is bounded by the cap of the moment (the paper: "upper bound
//! set by the sender's window") and the effective factor is min(d, cap) as
//! the window moves.

use lasthop_core::{TcpHeader, Time};
use serde::{Deserialize, Serialize};

/// Which of the paper's receiver modes ACC runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AccMode {
    /// Sec. 6.1: respond to reverse-path ECN reflected by the data sender
    /// (the simulations; ns-2 `Agent/TCPSink/Asym`).
    #[default]
    Ecn,
    /// Sec. 8.2: the lowest ack frequency the limits and the sender's
    /// window allow, without router help (the BSD/OS implementation).
    Testbed,
}

/// ACC parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccConfig {
    pub mode: AccMode,
    /// Upper bound on the delayed-ack factor, in segments (`max_delack`).
    pub max_delack: u32,
    /// Fewest acks per window of sender data (`min_acks_win`, >= 1).
    pub min_acks_win: u32,
}

/// The receiver's ACC state.
#[derive(Clone, Copy, Debug)]
pub struct AckCongestionControl {
    cfg: AccConfig,
    /// The receive buffer, in whole segments.
    buffer_segments: u64,
    /// The sender's window from its option, in MSS units (0 until one arrives).
    peer_win: u32,
    /// The delayed-ack factor d (ECN mode).
    factor: u32,
    /// The highest ack TSval the sender has echoed, in ns.
    highest_ts_echo_ns: u64,
    /// When d was last increased and decreased, in ns of the receiver's clock.
    increased_at_ns: u64,
    decreased_at_ns: u64,
    increases: u64,
    decreases: u64,
}

impl AckCongestionControl {
    pub fn new(cfg: AccConfig, recv_buffer_bytes: u64, mss_bytes: u32) -> AckCongestionControl {
        AckCongestionControl {
            cfg,
            buffer_segments: recv_buffer_bytes / u64::from(mss_bytes.max(1)),
            peer_win: 0,
            factor: 1,
            highest_ts_echo_ns: 0,
            increased_at_ns: 0,
            decreased_at_ns: 0,
            increases: 0,
            decreases: 0,
        }
    }

    /// The window-derived cap: min(max_delack, floor(win / min_acks_win)), >= 1.
    pub fn cap(&self) -> u32 {
        let win = u64::from(self.peer_win).min(self.buffer_segments);
        let bound = win / u64::from(self.cfg.min_acks_win.max(1));
        u64::from(self.cfg.max_delack).min(bound).max(1) as u32
    }

    /// The delayed-ack factor in force: one ack per this many in-order segments.
    pub fn ack_every(&self) -> u32 {
        match self.cfg.mode {
            AccMode::Ecn => self.factor.min(self.cap()),
            AccMode::Testbed => self.cap(),
        }
    }

    /// The ECN mode's d, before the cap of the moment.
    pub fn factor(&self) -> u32 {
        self.factor
    }

    /// (increases, decreases) of d so far.
    pub fn changes(&self) -> (u64, u64) {
        (self.increases, self.decreases)
    }

    /// A data segment arrived (in order or not).
    pub fn on_segment(&mut self, now: Time, hdr: &TcpHeader) {
        if let Some(w) = hdr.sender_window {
            self.peer_win = u32::from(w);
        }
        if self.cfg.mode != AccMode::Ecn {
            return;
        }
        if let Some(ts) = hdr.ts {
            self.highest_ts_echo_ns = self.highest_ts_echo_ns.max(ts.ecr_ns);
        }
        let rtt_since_increase = self.highest_ts_echo_ns >= self.increased_at_ns;
        if hdr.ece && rtt_since_increase {
            // "multiplicatively increased", at most once per round trip.
            let d = self.factor.saturating_mul(2).min(self.cap()).max(1);
            self.increases += u64::from(d > self.factor);
            self.factor = d;
            self.increased_at_ns = now.ns();
        } else if rtt_since_increase && self.highest_ts_echo_ns >= self.decreased_at_ns {
            // "each subsequent RTT without an ECN": linearly decreased.
            self.decreases += u64::from(self.factor > 1);
            self.factor = self.factor.saturating_sub(1).max(1);
            self.decreased_at_ns = now.ns();
        }
    }
}
