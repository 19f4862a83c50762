//! The TCP receiver and its ack policy.
//!
//! Reassembly keeps out-of-order ranges (sorted, disjoint) and hands the
//! application every byte once, in order. Ack policy (RFC 5681 4.2, RFC 1122
//! 4.2.3.2): an out-of-order segment, a duplicate, or one that fills a hole is
//! acked at once (these are the duplicate acks fast retransmit relies on);
//! in-order data is acked per the [`AckPolicy`]: every segment, or every
//! second full-sized segment with a delayed-ack timer (a fixed delay, or the
//! next tick of the host's 200 ms fast timer as in 4.4BSD).
//!
//! The advertised window is the receive buffer: the application reads at
//! once, and 4.4BSD does not count the reassembly queue against the window.

use crate::config::{AckPolicy, ReceiverConfig};
use lasthop_core::{TcpHeader, Time};

/// Bytes newly handed to the application by one segment: `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub start: u64,
    pub end: u64,
}

#[derive(Clone, Debug)]
pub struct Receiver {
    cfg: ReceiverConfig,
    /// Next in-order byte expected.
    rcv_nxt: u64,
    /// Out-of-order ranges above `rcv_nxt`, sorted and disjoint.
    ooo: Vec<(u64, u64)>,
    /// Full-sized in-order segments received since the last ack.
    unacked_segments: u32,
    ack_now: bool,
    /// When the delayed ack goes out, or NEVER.
    delack_at: Time,
    acks_sent: u64,
}

impl Receiver {
    pub fn new(cfg: ReceiverConfig) -> Receiver {
        Receiver {
            cfg,
            rcv_nxt: 0,
            ooo: Vec::with_capacity(16),
            unacked_segments: 0,
            ack_now: false,
            delack_at: Time::NEVER,
            acks_sent: 0,
        }
    }

    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }
    pub fn acks_sent(&self) -> u64 {
        self.acks_sent
    }
    /// Out-of-order ranges held, most useful for tests and SACK.
    pub fn out_of_order(&self) -> &[(u64, u64)] {
        &self.ooo
    }

    /// A data segment arrived. Returns what it delivered to the application.
    pub fn on_segment(&mut self, now: Time, hdr: &TcpHeader) -> Option<Delivery> {
        let (seq, end) = (hdr.seq, hdr.seq + u64::from(hdr.len));
        if end <= self.rcv_nxt {
            self.ack_now = true; // a duplicate: re-ack at once
            return None;
        }
        if seq > self.rcv_nxt {
            self.insert_ooo(seq, end);
            self.ack_now = true; // out of order: a duplicate ack at once
            return None;
        }
        let start = self.rcv_nxt;
        let filled_hole = !self.ooo.is_empty();
        self.rcv_nxt = end;
        let merged = self.ooo.iter().take_while(|r| r.0 <= self.rcv_nxt).count();
        if merged > 0 {
            self.rcv_nxt = self.rcv_nxt.max(self.ooo[merged - 1].1);
            self.ooo.drain(..merged);
        }
        if filled_hole {
            self.ack_now = true;
        } else {
            self.on_in_order(now, hdr.len);
        }
        Some(Delivery { start, end: self.rcv_nxt })
    }

    fn on_in_order(&mut self, now: Time, len: u32) {
        match self.cfg.ack_policy {
            AckPolicy::Immediate => self.ack_now = true,
            AckPolicy::Delayed { every_segments, timeout_ns } => {
                self.count_for_delack(len, every_segments);
                if !self.ack_now && self.delack_at == Time::NEVER {
                    self.delack_at = now.plus_ns(timeout_ns);
                }
            }
            AckPolicy::BsdDelayed { every_segments, tick_ns, tick_phase_ns } => {
                self.count_for_delack(len, every_segments);
                if !self.ack_now && self.delack_at == Time::NEVER {
                    // The next tick of tcp_fasttimo strictly after now.
                    let phase = tick_phase_ns % tick_ns;
                    let k = if now.ns() < phase { 0 } else { (now.ns() - phase) / tick_ns + 1 };
                    self.delack_at = Time(phase + k * tick_ns);
                }
            }
        }
    }

    fn count_for_delack(&mut self, len: u32, every_segments: u32) {
        if len >= self.cfg.mss_bytes {
            self.unacked_segments += 1;
        }
        if self.unacked_segments >= every_segments.max(1) {
            self.ack_now = true;
        }
    }

    fn insert_ooo(&mut self, seq: u64, end: u64) {
        let i = self.ooo.partition_point(|r| r.1 < seq);
        let mut j = i;
        let (mut s, mut e) = (seq, end);
        while j < self.ooo.len() && self.ooo[j].0 <= e {
            s = s.min(self.ooo[j].0);
            e = e.max(self.ooo[j].1);
            j += 1;
        }
        self.ooo.splice(i..j, std::iter::once((s, e)));
    }

    /// When the receiver next needs `on_timer` (its delayed-ack timer).
    pub fn poll_at(&self) -> Time {
        self.delack_at
    }

    pub fn on_timer(&mut self, now: Time) {
        if now >= self.delack_at {
            self.ack_now = true;
        }
    }

    /// The ack to send now, if one is due.
    pub fn poll_transmit(&mut self, _now: Time) -> Option<TcpHeader> {
        if !self.ack_now {
            return None;
        }
        self.ack_now = false;
        self.unacked_segments = 0;
        self.delack_at = Time::NEVER;
        self.acks_sent += 1;
        Some(TcpHeader {
            ack: self.rcv_nxt,
            wnd_bytes: self.cfg.recv_buffer_bytes.min(u64::from(u32::MAX)) as u32,
            ..TcpHeader::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::time::NS_PER_MS;

    fn seg(seq: u64, len: u32) -> TcpHeader {
        TcpHeader { seq, len, ..TcpHeader::default() }
    }

    fn rx(policy: AckPolicy) -> Receiver {
        Receiver::new(ReceiverConfig { recv_buffer_bytes: 32768, mss_bytes: 1000, ack_policy: policy })
    }

    #[test]
    fn reassembly_delivers_each_byte_once_in_order() {
        let mut r = rx(AckPolicy::Immediate);
        let t = Time::ZERO;
        assert_eq!(r.on_segment(t, &seg(2000, 1000)), None);
        assert_eq!(r.on_segment(t, &seg(4000, 1000)), None);
        assert_eq!(r.out_of_order(), &[(2000, 3000), (4000, 5000)]);
        assert_eq!(r.on_segment(t, &seg(0, 1000)), Some(Delivery { start: 0, end: 1000 }));
        assert_eq!(r.poll_transmit(t).unwrap().ack, 1000);
        assert_eq!(r.on_segment(t, &seg(1000, 1000)), Some(Delivery { start: 1000, end: 3000 }));
        assert_eq!(r.on_segment(t, &seg(3000, 1000)), Some(Delivery { start: 3000, end: 5000 }));
        assert_eq!(r.on_segment(t, &seg(0, 1000)), None, "duplicate");
        assert!(r.out_of_order().is_empty());
        assert_eq!(r.poll_transmit(t).unwrap().ack, 5000);
    }

    #[test]
    fn overlapping_out_of_order_ranges_merge() {
        let mut r = rx(AckPolicy::Immediate);
        let t = Time::ZERO;
        r.on_segment(t, &seg(5000, 1000));
        r.on_segment(t, &seg(3000, 1000));
        r.on_segment(t, &seg(3500, 2000));
        assert_eq!(r.out_of_order(), &[(3000, 6000)]);
    }

    #[test]
    fn delayed_acks_every_second_segment_or_after_timeout() {
        let mut r = rx(AckPolicy::Delayed { every_segments: 2, timeout_ns: 200 * NS_PER_MS });
        r.on_segment(Time::from_ms(10), &seg(0, 1000));
        assert!(r.poll_transmit(Time::from_ms(10)).is_none());
        assert_eq!(r.poll_at(), Time::from_ms(210));
        r.on_segment(Time::from_ms(20), &seg(1000, 1000));
        assert_eq!(r.poll_transmit(Time::from_ms(20)).unwrap().ack, 2000);
        r.on_segment(Time::from_ms(30), &seg(2000, 1000));
        r.on_timer(Time::from_ms(229));
        assert!(r.poll_transmit(Time::from_ms(229)).is_none());
        r.on_timer(Time::from_ms(230));
        assert_eq!(r.poll_transmit(Time::from_ms(230)).unwrap().ack, 3000);
        // Out of order: acked at once even with delayed acks.
        r.on_segment(Time::from_ms(40), &seg(4000, 1000));
        assert_eq!(r.poll_transmit(Time::from_ms(40)).unwrap().ack, 3000);
    }

    #[test]
    fn bsd_delayed_ack_waits_for_the_fast_tick() {
        let policy =
            AckPolicy::BsdDelayed { every_segments: 2, tick_ns: 200 * NS_PER_MS, tick_phase_ns: 50 * NS_PER_MS };
        let mut r = rx(policy);
        r.on_segment(Time::from_ms(60), &seg(0, 1000));
        assert_eq!(r.poll_at(), Time::from_ms(250));
    }
}
