//! M-TCP's supervisor host (Brown and Singh, CCR 27(5) 1997; seed 002
//! Sec. 5.3; elaarag-002.md Sec. 1.12): the state SH-TCP, the receiver of
//! the fixed host's connection at the supervisor host, keeps to withhold
//! its acks, and its rule for low bandwidth. [`crate::Receiver`] holds it
//! ([`crate::Receiver::withhold_acks`]) and sends the acks.
//!
//! Ack withholding [S §5.3; A:mtcp]: the source is acknowledged up to one
//! byte short of what the mobile host has acknowledged ("we ensure that
//! MING does not ack the last byte"), so that the supervisor host never
//! acknowledges data the mobile host lacks and keeps a byte to acknowledge
//! later with a zero window. An ack goes when that point moves, not on each
//! segment (the fixed host would read the repeats as duplicate acks), and
//! while the window is closed every segment (a persist probe) is answered
//! with it.
//!
//! Low bandwidth, no disconnection [S §5.3: "If the mobile host did not
//! disconnect but has little available bandwidth, the SH-TCP shrinks the
//! sender's window before it exponentially backs off its retransmission
//! timer"]. The survey gives no rule; lasthop's, from elaarag-002.md
//! Sec. 1.12 [I]:
//! - the supervisor host estimates the source's RTO as RFC 6298 would (1 s
//!   floor, the source being unmodified TCP), on samples it can take: the
//!   time a segment waits here between its arrival and the ack that covers
//!   it, plus the wired round trip (propagation and one segment's and one
//!   ack's transmission on the wired path, which the world computes from
//!   the route; a real supervisor host would measure it once);
//! - when the mobile host owes acks for data forwarded to it and the
//!   source has had no ack of new data for 3/4 of that RTO, the withheld
//!   byte is acknowledged with a zero window (the choke): the source
//!   persists with its window and timers as they are, as at a
//!   disconnection;
//! - the mobile host's next progress reopens the window (an ack of new
//!   data, window open).
//!
//! The choke needs a withheld byte: an ack that does not acknowledge new
//! data may not shrink the window under 4.4BSD's rule (elaarag-002.md F1),
//! so after a disconnection has spent the byte the rule waits for the
//! mobile host's next ack.

use crate::config::RtoConfig;
use crate::rtt::RttEstimator;
use lasthop_core::Time;

/// The share of the source's estimated RTO after which a stalled mobile
/// host's source is choked (elaarag-002.md Sec. 1.12 [I]: 0.75).
pub const CHOKE_SHARE: (u64, u64) = (3, 4);

/// SH-TCP's withheld acks and its estimate of the source's RTO.
#[derive(Clone, Debug)]
pub(crate) struct Withhold {
    /// The mobile host's cumulative ack, in this connection's sequence
    /// space (a split connection's legs number their bytes alike).
    pub acked: u64,
    /// The ack last sent.
    pub sent: u64,
    /// An ack is due: the point moved, or the window closed or reopened.
    pub due: bool,
    /// The window is closed by the low-bandwidth rule (not a
    /// disconnection): the mobile host's next progress reopens it.
    pub choked: bool,
    /// Chokes so far.
    pub chokes: u32,
    /// The source's round trip as seen from here (RFC 6298).
    rtt: RttEstimator,
    /// The wired round trip added to each sample, in ns.
    wired_rtt_ns: u64,
    /// The segment being timed: its end and its arrival.
    timed: Option<(u64, Time)>,
    /// When the source last got an ack of new data (sent from here).
    since: Time,
}

impl Withhold {
    pub fn new(wired_rtt_ns: u64) -> Withhold {
        Withhold {
            acked: 0,
            sent: 0,
            due: false,
            choked: false,
            chokes: 0,
            rtt: RttEstimator::new(RtoConfig::rfc6298()),
            wired_rtt_ns,
            timed: None,
            since: Time::ZERO,
        }
    }

    /// Data `[seq, end)` arrived at `now`, the receiver expecting
    /// `rcv_nxt`: new in-order data is timed if nothing is.
    pub fn on_data(&mut self, now: Time, seq: u64, end: u64, rcv_nxt: u64) {
        if self.timed.is_none() && seq <= rcv_nxt && end > rcv_nxt {
            self.timed = Some((end, now));
        }
    }

    /// An ack goes to the source at `now`, `sent` having been `before`: an
    /// ack of new data restarts the source's timer and may end a sample.
    pub fn on_ack_sent(&mut self, now: Time, before: u64) {
        if self.sent <= before {
            return;
        }
        self.since = now;
        if let Some((end, arrival)) = self.timed {
            if self.sent >= end {
                self.rtt.on_sample(Time(arrival.ns().saturating_sub(self.wired_rtt_ns)), now);
                self.timed = None;
            }
        }
    }

    /// The source's RTO as estimated here, in ns.
    pub fn source_rto_ns(&self) -> u64 {
        self.rtt.rto_ns()
    }

    /// When the low-bandwidth rule chokes the source, given whether the
    /// window is closed already and what the receiver has (`rcv_nxt`).
    pub fn choke_at(&self, zero: bool, rcv_nxt: u64) -> Time {
        let owed = rcv_nxt > self.acked;
        if zero || !owed || self.acked <= self.sent {
            return Time::NEVER;
        }
        self.since.plus_ns(self.source_rto_ns() * CHOKE_SHARE.0 / CHOKE_SHARE.1)
    }
}
