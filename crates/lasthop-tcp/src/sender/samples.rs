//! What a congestion controller other than Reno learns from each ack
//! ([`crate::cc::AckSample`]), and the pacing clock of one that paces. Made
//! only for such a flow: a Reno sender has none and pays one branch.
//!
//! Data is delivered when first acknowledged, cumulatively or selectively,
//! as Linux counts `tp->delivered` (`tcp_sacktag_one` counts a segment when
//! it is SACKed, `tcp_clean_rtx_queue` only the cumulatively acknowledged
//! segments not SACKed before): each segment counts once, and a cumulative
//! ack that fills a hole counts the hole, not the SACKed data above it.
//!
//! - A round-trip sample on every ack that delivers data: the newest
//!   segment it delivered (cumulatively or by a SACK block), never a
//!   retransmitted one (Karn), as Linux takes its per-ack sample
//!   (`ca_rtt_us`) from the skb's send time, retransmitted skbs and skbs
//!   SACKed before excluded.
//! - Delivery-rate samples as draft-cheng-iccrg-delivery-rate-estimation
//!   Sec. 3 (and Linux's `tcp_rate.c`) take them: each segment remembers at
//!   its send the data delivered so far, when that was, and when the
//!   current send phase began; an ack takes the newest segment it delivered
//!   and answers delivered bytes over max(send phase, ack phase). A sample
//!   whose interval is shorter than the least RTT seen is no observation
//!   (`tcp_rate_gen`: "Normally we expect interval_us >= min-rtt"): it
//!   keeps its delivered counts (rounds) with `interval_ns` 0. The least
//!   RTT is the smallest sample of the last 300 s (Linux's `tcp_min_rtt`,
//!   `sysctl_tcp_min_rtt_wlen`), here a running minimum replaced by the
//!   next sample once 300 s old. Before any RTT sample every interval is
//!   taken (Linux has the handshake's sample by then; a lasthop flow may
//!   start without a handshake).
//! - App-limited marking (draft Sec. 3.4): when the sender has nothing to
//!   send with room in the window, the data in flight is marked, and the
//!   samples its acks produce say so.
//! - Pacing (issue 30 item 5): with a controller's rate, each segment
//!   leaves no earlier than its length at that rate after the previous one
//!   (Linux's `tcp_pacing_check` / fq's time_to_send, without fq's quantum).
//!
//! The SACK blocks are read from each ack as the receiver sends them, not
//! from the sender's scoreboard: RFC 6675 empties that at a timeout, while
//! what was delivered stays delivered (a go-back-N resend of a SACKed
//! segment counts nothing again, as Linux, which keeps its SACK marks at a
//! timeout, would not resend it). A segment counts when a block covers it
//! whole.

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
    /// Ever retransmitted (Linux's `TCPCB_RETRANS`): no RTT sample.
    retransmitted: bool,
    /// Delivered by a SACK block: counted, and no sample when the
    /// cumulative ack passes it (Linux clears `tx.delivered_mstamp`).
    sacked: bool,
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
    /// The least RTT sample (`u64::MAX`: none yet) and when it was taken.
    min_rtt_ns: u64,
    min_rtt_at: Time,
}

/// Linux's `sysctl_tcp_min_rtt_wlen`: the least RTT's window, 300 s.
const MIN_RTT_WINDOW_NS: u64 = 300 * 1_000_000_000;

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
            min_rtt_ns: u64::MAX,
            min_rtt_at: Time::ZERO,
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
            sacked: false,
        };
        if retransmit {
            // The log is in sequence order: update the segment resent. One
            // already SACKed (a go-back-N resend) stays delivered.
            let i = self.log.partition_point(|e| e.seq < seq);
            match self.log.get_mut(i) {
                Some(e) if e.seq == seq && e.sacked => e.retransmitted = true,
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

    /// An ack advancing the cumulative ack to `ack` (`acked` new bytes;
    /// its SACK blocks in `hdr`); `flight` outstanding before it; the
    /// sample is kept in `last`.
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
        // The newest segment delivered, and the newest never retransmitted.
        let mut newest: Option<Sent> = None;
        let mut timed: Option<Time> = None;
        let mut take = |s: &Sent| {
            if newest.is_none_or(|n| (s.sent_at, s.end) >= (n.sent_at, n.end)) {
                newest = Some(*s);
            }
            if !s.retransmitted && timed.is_none_or(|t| s.sent_at >= t) {
                timed = Some(s.sent_at);
            }
        };
        // Cumulatively acknowledged: what was SACKed before counted then.
        let mut counted = 0;
        while let Some(front) = self.log.front() {
            if front.end > ack {
                break;
            }
            let s = self.log.pop_front().expect("front exists");
            if s.sacked {
                counted += s.end - s.seq;
            } else {
                take(&s);
            }
        }
        // Selectively acknowledged: segments a block covers whole, once.
        let mut sacked = 0;
        for &(start, end) in hdr.sack.as_slice() {
            let start = start.max(ack);
            if start >= end {
                continue;
            }
            let mut i = self.log.partition_point(|e| e.seq < start);
            while let Some(e) = self.log.get_mut(i).filter(|e| e.end <= end) {
                if !e.sacked {
                    e.sacked = true;
                    sacked += e.end - e.seq;
                    take(e);
                }
                i += 1;
            }
        }
        self.delivered += acked.saturating_sub(counted) + sacked;
        let rtt_ns = timed.map(|t| now.since(t));
        if let Some(rtt) = rtt_ns {
            if rtt <= self.min_rtt_ns || now.since(self.min_rtt_at) > MIN_RTT_WINDOW_NS {
                (self.min_rtt_ns, self.min_rtt_at) = (rtt, now);
            }
        }
        let mut rate = None;
        if let Some(p) = newest {
            let send_elapsed = p.sent_at.since(p.first_sent_at);
            let ack_elapsed = now.since(p.delivered_at);
            let interval = send_elapsed.max(ack_elapsed);
            rate = Some(RateSample {
                delivered_bytes: self.delivered - p.delivered,
                // Shorter than a round trip: no observation (tcp_rate_gen).
                interval_ns: if self.min_rtt_ns != u64::MAX && interval < self.min_rtt_ns { 0 } else { interval },
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
            sacked_bytes: sacked,
            dup,
            in_recovery,
            flight_bytes: flight,
            rtt_ns,
            delivered_bytes: self.delivered,
            rate,
            ece: hdr.ece,
            peer_ts: hdr.ts,
            peer_rate_bytes_per_s: hdr.rate_bytes_per_s,
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

    /// A header with SACK blocks.
    fn sacks(blocks: &[(u64, u64)]) -> TcpHeader {
        let mut hdr = TcpHeader::default();
        for &(start, end) in blocks {
            hdr.sack.push(start, end);
        }
        hdr
    }

    /// Linux's `tp->delivered`: a SACKed segment counts when SACKed, with
    /// its RTT and its rate sample; the cumulative ack that fills the hole
    /// counts the hole only. Segments 0-4 of 1000 bytes leave at 0-4 ms
    /// (the phase from 0 ms, nothing delivered); 0 is lost, 1-4 are SACKed
    /// at 41-44 ms (RTT 40 ms each).
    #[test]
    fn sacked_segments_are_delivered_when_sacked_and_once() {
        let ms = |m: u64| Time::from_ns(m * 1_000_000);
        let mut s = Samples::new();
        for k in 0..5 {
            s.on_sent(ms(k), k * 1000, 1000, k * 1000, false);
        }
        for k in 1..5u64 {
            let a = s.on_ack(ms(40 + k), &sacks(&[(1000, 1000 + k * 1000)]), 0, 0, 5000, true, k >= 3);
            // One new segment each: its RTT, the total k x 1000; its
            // snapshot (0 delivered at 0 ms, phase from 0 ms): k x 1000
            // bytes over max(k, 40 + k) ms.
            assert_eq!((a.acked_bytes, a.sacked_bytes, a.delivered_bytes), (0, 1000, k * 1000));
            assert_eq!(a.rtt_ns, Some(40_000_000));
            let r = a.rate.unwrap();
            assert_eq!(
                (r.delivered_bytes, r.interval_ns, r.prior_delivered_bytes),
                (k * 1000, (40 + k) * 1_000_000, 0)
            );
        }
        // Segment 0 resent at 45 ms: it remembers 4000 delivered at 44 ms,
        // the phase from 4 ms (segment 4's send, the last sampled).
        s.on_sent(ms(45), 0, 1000, 5000, true);
        // Its ack at 85 ms moves the cumulative ack over all five: 1000
        // bytes are new (not 5000), no RTT (Karn), 1000 bytes over
        // max(45 - 4, 85 - 44) = 41 ms.
        let a = s.on_ack(ms(85), &TcpHeader::default(), 5000, 5000, 5000, false, true);
        assert_eq!((a.acked_bytes, a.sacked_bytes, a.delivered_bytes), (5000, 0, 5000));
        assert_eq!(a.rtt_ns, None);
        let r = a.rate.unwrap();
        assert_eq!((r.delivered_bytes, r.interval_ns, r.prior_delivered_bytes), (1000, 41_000_000, 4000));
        // Segments 5-7 leave at 90-92 ms (a new phase: nothing in flight);
        // 5 is lost, 6 and 7 are SACKed at 131 and 132 ms.
        for k in 5..8 {
            s.on_sent(ms(85 + k), k * 1000, 1000, (k - 5) * 1000, false);
        }
        s.on_ack(ms(131), &sacks(&[(6000, 7000)]), 5000, 0, 3000, true, false);
        let a = s.on_ack(ms(132), &sacks(&[(6000, 8000)]), 5000, 0, 3000, true, false);
        assert_eq!(a.delivered_bytes, 7000);
        // A timeout, and go-back-N resends 5 and 6 (RFC 6675 has forgotten
        // the SACKs): 6 stays delivered. The ack of 5 passes 5-7: 1000
        // new bytes; the resent 6's duplicate delivers nothing.
        s.on_sent(ms(400), 5000, 1000, 3000, true);
        s.on_sent(ms(401), 6000, 1000, 3000, true);
        let a = s.on_ack(ms(440), &TcpHeader::default(), 8000, 3000, 3000, false, false);
        assert_eq!((a.acked_bytes, a.delivered_bytes), (3000, 8000));
        // 5's resend remembered 7000 delivered at 132 ms, the phase from
        // 92 ms (7's send): 1000 bytes over max(400 - 92, 440 - 132) ms.
        let r = a.rate.unwrap();
        assert_eq!((r.delivered_bytes, r.interval_ns, r.prior_delivered_bytes), (1000, 308_000_000, 7000));
        let a = s.on_ack(ms(441), &TcpHeader::default(), 8000, 0, 0, false, false);
        assert_eq!((a.delivered_bytes, a.rate, a.rtt_ns), (8000, None, None));
    }

    /// `tcp_rate_gen`: an interval shorter than the least RTT is no
    /// observation. After a 40 ms RTT sample, a segment leaves at 100 ms
    /// (a new phase), is resent at 130 ms (spurious: the original is on
    /// its way), and the original's ack comes at 135 ms: the resend's
    /// snapshot gives max(130 - 100, 135 - 100) = 35 ms < 40 ms. The
    /// delivered counts stay (rounds); the interval is 0.
    #[test]
    fn an_interval_shorter_than_min_rtt_is_no_observation() {
        let ms = |m: u64| Time::from_ns(m * 1_000_000);
        let hdr = TcpHeader::default();
        let mut s = Samples::new();
        s.on_sent(ms(0), 0, 1000, 0, false);
        s.on_ack(ms(40), &hdr, 1000, 1000, 1000, false, false);
        s.on_sent(ms(100), 1000, 1000, 0, false);
        s.on_sent(ms(130), 1000, 1000, 1000, true);
        let a = s.on_ack(ms(135), &hdr, 2000, 1000, 1000, false, false);
        assert_eq!(a.rtt_ns, None);
        let r = a.rate.unwrap();
        assert_eq!((r.delivered_bytes, r.interval_ns, r.prior_delivered_bytes), (1000, 0, 1000));
    }
}
