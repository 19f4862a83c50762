//! Round trips counted by delivery, for the members that act once per
//! round trip (Vegas, Santa Cruz).
//!
//! Linux's Vegas ends a round on an ack beyond the `snd_nxt` it saved at
//! the round's start (`tcp_vegas.c`: `if (after(ack, vegas->beg_snd_nxt))`,
//! then `beg_snd_nxt = snd_nxt`). A controller here sees no sequence
//! numbers, so the same boundary is read from the delivery-rate sample, as
//! Linux's BBR counts its rounds (`tcp_bbr.c`: `if (!before(rs->prior_delivered,
//! bbr->next_rtt_delivered))`): a segment sent after the round began left
//! when at least the total delivered at that moment had been delivered, so
//! an ack whose newest delivered segment has `prior_delivered` at or above
//! that total ends the round. Departure: a selectively acknowledged segment
//! sent after the boundary ends the round here, where Linux waits for the
//! cumulative ack to pass it.

use super::AckSample;

/// Where the current round trip ends, in bytes delivered.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rounds {
    /// The total delivered when the current round began: an ack delivering
    /// a segment sent with at least this much delivered ends the round.
    next_round_delivered_bytes: u64,
    /// The running total delivered (the newest ack's), in bytes.
    delivered_bytes: u64,
}

impl Rounds {
    pub fn new() -> Self {
        Rounds::default()
    }

    /// Every ack: the running total delivered.
    pub fn on_every_ack(&mut self, s: &AckSample) {
        self.delivered_bytes = self.delivered_bytes.max(s.delivered_bytes);
    }

    /// Whether the ack `s` ends the current round; if it does, the next
    /// round begins at this ack.
    pub fn round_ends(&mut self, s: &AckSample) -> bool {
        self.delivered_bytes = self.delivered_bytes.max(s.delivered_bytes);
        match s.rate {
            Some(r) if r.prior_delivered_bytes >= self.next_round_delivered_bytes => {
                self.next_round_delivered_bytes = self.delivered_bytes;
                true
            }
            _ => false,
        }
    }

    /// Begin a round now (Linux `vegas_enable`: `beg_snd_nxt = snd_nxt`): it
    /// ends on an ack of data sent from now on.
    pub fn restart(&mut self) {
        self.next_round_delivered_bytes = self.delivered_bytes;
    }

    /// The running total delivered, in bytes.
    pub fn delivered_bytes(&self) -> u64 {
        self.delivered_bytes
    }
}

/// A window-limited sender's ack clock for timeline tests: segments leave
/// when an ack frees room in cwnd, each stamped with the total delivered
/// (its `prior_delivered`) and its send time; an ack delivers the oldest.
#[cfg(test)]
pub(crate) mod clock {
    use crate::cc::{AckSample, CongestionControl, RateSample};
    use lasthop_core::packet::Timestamps;
    use lasthop_core::time::Time;
    use std::collections::VecDeque;

    #[derive(Clone, Copy, Debug)]
    struct Segment {
        sent_ns: u64,
        prior_delivered_bytes: u64,
    }

    pub(crate) struct AckClock {
        mss: u64,
        delivered_bytes: u64,
        flight: VecDeque<Segment>,
        /// Time of the newest ack, in ns.
        pub now_ns: u64,
    }

    impl AckClock {
        /// A flow whose first window (`cwnd` of `cc`) leaves at t = 0.
        pub(crate) fn start(cc: &CongestionControl) -> Self {
            let mut c = AckClock { mss: cc.mss(), delivered_bytes: 0, flight: VecDeque::new(), now_ns: 0 };
            c.fill(cc);
            c
        }

        fn fill(&mut self, cc: &CongestionControl) {
            while (self.flight.len() as u64 + 1) * self.mss <= cc.cwnd() {
                self.flight.push_back(Segment { sent_ns: self.now_ns, prior_delivered_bytes: self.delivered_bytes });
            }
        }

        /// The oldest segment's ack, its round trip `rtt_ns`, its one-way
        /// forward delay `owd_ns` (the receiver stamps TSval at send time +
        /// `owd_ns` and echoes the segment's own stamp); the controller sees
        /// it (every-ack, then the ack of new data), then the window refills.
        pub(crate) fn ack(&mut self, cc: &mut CongestionControl, rtt_ns: u64, owd_ns: u64) -> AckSample {
            let seg = self.flight.pop_front().expect("an ack needs a segment in flight");
            let flight_bytes = (self.flight.len() as u64 + 1) * self.mss;
            self.delivered_bytes += self.mss;
            self.now_ns = self.now_ns.max(seg.sent_ns + rtt_ns);
            let s = AckSample {
                acked_bytes: self.mss,
                flight_bytes,
                rtt_ns: Some(rtt_ns),
                delivered_bytes: self.delivered_bytes,
                rate: Some(RateSample {
                    delivered_bytes: self.delivered_bytes - seg.prior_delivered_bytes,
                    interval_ns: rtt_ns,
                    prior_delivered_bytes: seg.prior_delivered_bytes,
                    app_limited: false,
                }),
                peer_ts: Some(Timestamps { val_ns: seg.sent_ns + owd_ns, ecr_ns: seg.sent_ns }),
                ..AckSample::default()
            };
            let now = Time::from_ns(self.now_ns);
            cc.on_every_ack(now, &s);
            cc.on_ack(now, &s);
            self.fill(cc);
            s
        }

        /// Ack every segment in flight now (one round trip), each with
        /// round trip `rtt_ns`; returns cwnd after the round.
        pub(crate) fn round(&mut self, cc: &mut CongestionControl, rtt_ns: u64) -> u64 {
            for _ in 0..self.flight.len() {
                self.ack(cc, rtt_ns, rtt_ns / 2);
            }
            cc.cwnd()
        }
    }

    #[test]
    fn rounds_end_on_the_first_ack_of_data_sent_after_the_last_end() {
        use crate::cc::rounds::Rounds;
        use crate::cc::window::RetransmitWindow;
        // Reno in slow start from 2 segments: rounds of 2, 4, 8 segments.
        let mut cc = CongestionControl::new(RetransmitWindow::Inflate, 1000, 2, u64::MAX / 4);
        let mut clock = AckClock::start(&cc);
        let mut rounds = Rounds::new();
        let mut ends = Vec::new();
        for i in 1..=14 {
            let s = clock.ack(&mut cc, 100_000_000, 50_000_000);
            rounds.on_every_ack(&s);
            if rounds.round_ends(&s) {
                ends.push(i);
            }
        }
        // Acks 1-2 the first window (prior 0), 3-6 the data they released
        // (prior 1000..2000), 7-14 the next (prior 3000..6000).
        assert_eq!(ends, vec![1, 3, 7]);
    }
}
