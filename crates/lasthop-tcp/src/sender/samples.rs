//! What a congestion controller other than Reno learns from each ack
//! ([`crate::cc::AckSample`]), and the pacing clock of one that paces. Made
//! only for such a flow: a Reno sender has none and pays one branch.
//!
//! - A round-trip sample on every ack that delivers data: the newest segment
//!   it delivered, never a retransmitted one (Karn), as Linux takes its
//!   per-ack sample from the skb's send time (`tcp_clean_rtx_queue`'s
//!   `seq_rtt_us`, skipped for retransmitted skbs).
//! - Delivery-rate samples as draft-cheng-iccrg-delivery-rate-estimation
//!   Sec. 3 (and Linux's `tcp_rate.c`) take them: each segment remembers at
//!   its send the data delivered so far, when that was, and when the
//!   current send phase began; an ack takes the newest segment it delivered
//!   and answers delivered bytes over max(send phase, ack phase).
//!   Departure: data is delivered when cumulatively acknowledged only (a
//!   SACKed segment counts when the cumulative ack passes it), so during a
//!   SACK recovery the samples lag.
//! - App-limited marking (draft Sec. 3.4): when the sender has nothing to
//!   send with room in the window, the data in flight is marked, and the
//!   samples its acks produce say so.
//! - Pacing (issue 30 item 5): with a controller's rate, each segment
//!   leaves no earlier than its length at that rate after the previous one
//!   (Linux's `tcp_pacing_check` / fq's time_to_send, without fq's quantum).

use crate::cc::{AckSample, RateSample};
use lasthop_core::packet::TcpHeader;
use lasthop_core::time::Time;
use std::collections::VecDeque;

/// One segment in flight, as it left.
#[derive(Clone, Copy, Debug)]
struct Sent {
    seq: u64,
    end: u64,
    sent_at: Time,
    /// Total delivered, when it was, and the send phase's start, at the send.
    delivered: u64,
    delivered_at: Time,
    first_sent_at: Time,
    app_limited: bool,
    retransmitted: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Samples {
    log: VecDeque<Sent>,
    delivered: u64,
    delivered_at: Time,
    first_sent_at: Time,
    /// Delivered mark up to which samples are app-limited (0: none).
    app_limited_until: u64,
    /// The last ack's sample (for the growth call that follows it).
    pub(crate) last: AckSample,
    /// Pacing: the next segment may leave at this time.
    pub(crate) next_send_at: Time,
    /// Pacing held a segment back: the sender asks to be woken then.
    pub(crate) pace_wait: bool,
}

impl Samples {
    pub(crate) fn new() -> Samples {
        Samples {
            log: VecDeque::with_capacity(256),
            delivered: 0,
            delivered_at: Time::ZERO,
            first_sent_at: Time::ZERO,
            app_limited_until: 0,
            last: AckSample::default(),
            next_send_at: Time::ZERO,
            pace_wait: false,
        }
    }

    /// A segment [seq, seq+len) leaves at `now` with `flight` bytes outstanding before it.
    pub(crate) fn on_sent(&mut self, now: Time, seq: u64, len: u64, flight: u64, retransmit: bool) {
        if flight == 0 {
            // draft Sec. 3.2: a new send phase starts from an idle pipe.
            self.first_sent_at = now;
            self.delivered_at = now;
        }
        let s = Sent {
            seq,
            end: seq + len,
            sent_at: now,
            delivered: self.delivered,
            delivered_at: self.delivered_at,
            first_sent_at: self.first_sent_at,
            app_limited: self.app_limited_until > 0,
            retransmitted: retransmit,
        };
        if retransmit {
            // The log is in sequence order: update the segment resent.
            let i = self.log.partition_point(|e| e.seq < seq);
            match self.log.get_mut(i) {
                Some(e) if e.seq == seq => *e = Sent { end: e.end.max(s.end), ..s },
                _ => self.log.insert(i, s),
            }
        } else {
            self.log.push_back(s);
        }
    }

    /// Pacing: a segment of `len` bytes left at `now` at `rate` bytes/s.
    pub(crate) fn on_paced(&mut self, now: Time, len: u64, rate: u64) {
        let gap = len.saturating_mul(1_000_000_000) / rate.max(1);
        self.next_send_at = now.plus_ns(gap);
    }

    /// Nothing to send with room in the window: what is in flight is app-limited.
    pub(crate) fn on_app_limited(&mut self, flight: u64) {
        self.app_limited_until = (self.delivered + flight).max(1);
    }

    /// An ack advancing the cumulative ack to `ack`; `flight` outstanding
    /// before it; the sample is kept in `last`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn on_ack(
        &mut self,
        now: Time,
        hdr: &TcpHeader,
        ack: u64,
        acked: u64,
        flight: u64,
        dup: bool,
        in_recovery: bool,
    ) -> AckSample {
        let mut newest: Option<Sent> = None;
        let mut rtt_ns = None;
        while let Some(front) = self.log.front() {
            if front.end > ack {
                break;
            }
            let s = self.log.pop_front().expect("front exists");
            if newest.is_none_or(|n| s.sent_at >= n.sent_at) {
                newest = Some(s);
            }
            if !s.retransmitted {
                rtt_ns = Some(now.since(s.sent_at));
            }
        }
        self.delivered += acked;
        let mut rate = None;
        if let Some(p) = newest {
            let send_elapsed = p.sent_at.since(p.first_sent_at);
            let ack_elapsed = now.since(p.delivered_at);
            rate = Some(RateSample {
                delivered_bytes: self.delivered - p.delivered,
                interval_ns: send_elapsed.max(ack_elapsed),
                prior_delivered_bytes: p.delivered,
                app_limited: p.app_limited,
            });
            self.first_sent_at = p.sent_at;
            self.delivered_at = now;
        }
        if self.app_limited_until > 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0;
        }
        self.last = AckSample {
            acked_bytes: acked,
            sacked_bytes: 0,
            dup,
            in_recovery,
            flight_bytes: flight,
            rtt_ns,
            delivered_bytes: self.delivered,
            rate,
            ece: hdr.ece,
            peer_ts: hdr.ts,
        };
        self.last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two segments sent back to back at t = 0 and 1 ms, acked at 40 and
    /// 41 ms: each ack's RTT is 40 ms; the second sample delivers 2000
    /// bytes since... the first segment's snapshot (0 delivered at t = 0):
    /// the send phase 1 ms, the ack phase 41 ms, so 1000 bytes over 41 ms
    /// counted from the second segment's own snapshot.
    #[test]
    fn rtt_and_rate_samples() {
        let ms = |m: u64| Time::from_ns(m * 1_000_000);
        let mut s = Samples::new();
        s.on_sent(ms(0), 0, 1000, 0, false);
        s.on_sent(ms(1), 1000, 1000, 1000, false);
        let hdr = TcpHeader::default();
        let a = s.on_ack(ms(40), &hdr, 1000, 1000, 2000, false, false);
        assert_eq!(a.rtt_ns, Some(40_000_000));
        let r = a.rate.unwrap();
        assert_eq!((r.delivered_bytes, r.interval_ns, r.prior_delivered_bytes), (1000, 40_000_000, 0));
        let b = s.on_ack(ms(41), &hdr, 2000, 1000, 1000, false, false);
        assert_eq!(b.rtt_ns, Some(40_000_000));
        let r = b.rate.unwrap();
        // Second segment's snapshot: delivered 0 at t = 0, phase from t = 0.
        assert_eq!((r.delivered_bytes, r.interval_ns), (2000, 41_000_000));
        assert_eq!(b.delivered_bytes, 2000);
    }

    /// Karn: an ack of a retransmitted segment gives no RTT sample.
    #[test]
    fn no_rtt_from_a_retransmission() {
        let ms = |m: u64| Time::from_ns(m * 1_000_000);
        let mut s = Samples::new();
        s.on_sent(ms(0), 0, 1000, 0, false);
        s.on_sent(ms(300), 0, 1000, 1000, true);
        let a = s.on_ack(ms(340), &TcpHeader::default(), 1000, 1000, 1000, false, false);
        assert_eq!(a.rtt_ns, None);
        assert!(a.rate.is_some());
    }
}
