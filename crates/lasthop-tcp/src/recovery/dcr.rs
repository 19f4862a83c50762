//! TCP-DCR: delayed congestion response (Bhandarkar, Sadry, Reddy, Vaidya,
//! "TCP-DCR: a novel protocol for tolerating wireless channel errors", IEEE
//! TMC 4(5) 2005; seed 004 Sec. 2.3), over NewReno's recovery.
//!
//! "TCP-DCR delays the congestion response for a short interval τ" after
//! the first duplicate ack, giving a link layer's own retransmission time to
//! repair the loss: an ack of new data within τ cancels the response; when
//! τ expires with the hole still open, fast retransmit and recovery run as
//! NewReno's (RFC 6582). τ is one round trip (the paper's choice, seed 004
//! Sec. 2.3: "delays ... by one RTT"), taken as the smoothed RTT when the
//! first duplicate arrives (the RTO before any sample). During the delay
//! each duplicate ack releases one new segment: "extended limited
//! transmit", RFC 4653 (TCP-NCR, DCR's standard descendant) Sec. 3: the
//! data outstanding stays at cwnd plus the segments the duplicates
//! reported as having left the network.
//!
//! Departures: the response at expiry needs one duplicate, not three
//! (whatever arrived, the hole outlived a round trip); RFC 4653's careful
//! and aggressive variants, which set the delay by a window of duplicate
//! acks instead of a timer, are not built.

use lasthop_core::time::Time;

/// TCP-DCR's delay of the congestion response, for one sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelayedResponse {
    /// When the held response fires, or NEVER when none is held.
    deadline: Time,
}

impl Default for DelayedResponse {
    fn default() -> Self {
        DelayedResponse { deadline: Time::NEVER }
    }
}

/// What a duplicate ack does under TCP-DCR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Counted, the response held (send one new segment for it).
    Holding,
    /// The delay has run out: respond now (fast retransmit).
    Respond,
}

impl DelayedResponse {
    /// A duplicate ack outside recovery at `now`; `tau_ns` is the delay to
    /// start if none runs (one smoothed RTT).
    pub fn on_dupack(&mut self, now: Time, tau_ns: u64) -> Held {
        if self.deadline == Time::NEVER {
            self.deadline = now.plus_ns(tau_ns);
        }
        if now < self.deadline {
            Held::Holding
        } else {
            self.deadline = Time::NEVER;
            Held::Respond
        }
    }

    /// The timer at `now`: true if the held response is due (and cleared).
    pub fn on_timer(&mut self, now: Time) -> bool {
        if now >= self.deadline {
            self.deadline = Time::NEVER;
            true
        } else {
            false
        }
    }

    /// An ack of new data, a timeout or a recovery: nothing is held.
    pub fn cancel(&mut self) {
        self.deadline = Time::NEVER;
    }

    pub fn holding(&self) -> bool {
        self.deadline != Time::NEVER
    }

    /// When the sender must be woken for the held response.
    pub fn deadline(&self) -> Time {
        self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// Issue 30 acceptance: TCP-DCR waits one RTT before responding. First
    /// duplicate at 100 ms with a 40 ms RTT: held until 140 ms; duplicates
    /// at 110 and 139 ms are held; the timer at 139 ms is not due; at
    /// 140 ms it is, once.
    #[test]
    fn tcp_dcr_waits_one_rtt_before_responding() {
        let mut d = DelayedResponse::default();
        assert_eq!(d.on_dupack(Time::from_ns(100 * MS), 40 * MS), Held::Holding);
        assert_eq!(d.deadline(), Time::from_ns(140 * MS));
        assert_eq!(d.on_dupack(Time::from_ns(110 * MS), 40 * MS), Held::Holding);
        assert_eq!(d.on_dupack(Time::from_ns(139 * MS), 40 * MS), Held::Holding);
        assert!(!d.on_timer(Time::from_ns(139 * MS)));
        assert!(d.on_timer(Time::from_ns(140 * MS)));
        assert!(!d.holding());
        assert!(!d.on_timer(Time::from_ns(200 * MS)), "once");
    }

    /// A duplicate that arrives after the deadline (before the timer ran)
    /// responds at once; a new ack within the delay cancels it.
    #[test]
    fn a_late_duplicate_responds_and_a_new_ack_cancels() {
        let mut d = DelayedResponse::default();
        d.on_dupack(Time::from_ns(0), 40 * MS);
        assert_eq!(d.on_dupack(Time::from_ns(40 * MS), 40 * MS), Held::Respond);
        d.on_dupack(Time::from_ns(100 * MS), 40 * MS);
        d.cancel();
        assert!(!d.on_timer(Time::from_ns(200 * MS)));
    }
}
