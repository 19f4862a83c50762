//! Stop-and-wait link ARQ with a one-bit sequence number: the link layer
//! of seed 001 Sec. 5's packet radio, "a simple frame-by-frame protocol"
//! with window 1 (moved here from [`crate::mac::radio`], which drives it;
//! ns-2's `Mac/Multihop` has no link ARQ, asymmetry-001.md Sec. 1.18, so
//! the paper is the source).
//!
//! The receiver acknowledges every data frame; the sender retransmits on
//! a timeout (the caller's timer: on the radio, after a new RTS/CTS
//! exchange). A one-bit sequence number per (sender, receiver) pair lets
//! the receiver acknowledge a retransmitted frame without handing it up
//! twice: a frame whose bit is the one expected is new (handed up, and the
//! expected bit flips), any other a copy (acked again, not handed up). An
//! ack carries the bit of the frame it answers, and completes the frame
//! outstanding if the bits agree and that frame has been sent; so an ack
//! that comes late, after the sender's wait for it timed out (the sender
//! already due to send the frame again), still completes it.
//!
//! A retry limit ([`Sender::new`]'s `retry_limit`, link-level
//! retransmissions before giving up; `None`: never, the paper's "retransmits
//! on a timeout" with no limit given) drops a frame the receiver never got
//! with [`DropCause::RetryLimit`]. A frame the receiver did get (only its
//! acks were lost) is let go of and the pair's bit resynchronised,
//! standing in for the link reset a real protocol would need (lasthop's
//! reading, radio.rs's module docs).

use super::{ArqReceiver, ArqSender, Expiry, Receipt, Send, Seq};
use lasthop_core::trace::DropCause;
use lasthop_core::Time;

/// The frame a sender has in its window of one.
#[derive(Clone, Copy, Debug)]
struct Outstanding<F> {
    frame: F,
    seq: Seq,
    transmissions: u32,
    /// The receiver has handed it up (it no longer counts as in flight).
    delivered: bool,
}

/// The sending side of one (sender, receiver) pair.
#[derive(Clone, Copy, Debug)]
pub struct Sender<F> {
    /// The frame in the window, if any.
    out: Option<Outstanding<F>>,
    /// Its ack is awaited (it was sent and has not timed out since).
    awaiting: bool,
    /// The bit of the next new frame.
    next_seq: Seq,
    retry_limit: Option<u32>,
}

impl<F: Copy> Sender<F> {
    /// A sender that gives up on a frame after `retry_limit` link-level
    /// retransmissions (`None`: never).
    pub fn new(retry_limit: Option<u32>) -> Sender<F> {
        Sender { out: None, awaiting: false, next_seq: 0, retry_limit }
    }

    /// The frame in the window, if any.
    #[inline]
    pub fn outstanding(&self) -> Option<F> {
        self.out.map(|o| o.frame)
    }
}

impl<F: Copy> ArqSender<F> for Sender<F> {
    /// The bit of the frame acknowledged.
    type Ack = Seq;
    /// Nothing: the bit is the frame's number.
    type Header = ();

    #[inline]
    fn has_room(&self) -> bool {
        self.out.is_none()
    }

    #[inline]
    fn offer(&mut self, _now: Time, frame: F) -> Seq {
        debug_assert!(self.out.is_none(), "window 1");
        let seq = self.next_seq;
        self.out = Some(Outstanding { frame, seq, transmissions: 0, delivered: false });
        seq
    }

    #[inline]
    fn next(&self, _now: Time) -> Option<Send<F>> {
        let o = self.out.filter(|_| !self.awaiting)?;
        Some(Send { seq: o.seq, frame: o.frame, retransmission: o.transmissions > 0 })
    }

    #[inline]
    fn on_transmit(&mut self, _now: Time, seq: Seq) {
        let o = self.out.as_mut().expect("sending the frame in the window");
        debug_assert_eq!(o.seq, seq);
        o.transmissions += 1;
        self.awaiting = true;
    }

    #[inline]
    fn on_ack(&mut self, _now: Time, ack: Seq) -> u32 {
        if self.out.is_some_and(|o| o.seq == ack && o.transmissions > 0) {
            self.out = None;
            self.awaiting = false;
            self.next_seq ^= 1;
            1
        } else {
            0
        }
    }

    #[inline]
    fn on_timeout(&mut self, _now: Time) -> Expiry<F> {
        let o = self.out.expect("a timeout waits for the frame in the window");
        self.awaiting = false;
        if self.retry_limit.is_none_or(|n| o.transmissions <= n) {
            return Expiry::Resend;
        }
        self.out = None;
        if o.delivered {
            // The receiver has it and expects the other bit: follow it.
            self.next_seq ^= 1;
            Expiry::GaveUpDelivered { frame: o.frame }
        } else {
            Expiry::Drop { frame: o.frame, cause: DropCause::RetryLimit }
        }
    }

    #[inline]
    fn on_delivered(&mut self, seq: Seq) {
        let o = self.out.as_mut().expect("a frame handed up is in the window");
        debug_assert_eq!(o.seq, seq);
        o.delivered = true;
    }

    #[inline]
    fn holds(&self, seq: Seq) -> bool {
        self.out.is_some_and(|o| o.seq == seq && !o.delivered)
    }

    #[inline]
    fn in_flight(&self) -> usize {
        usize::from(self.out.is_some_and(|o| !o.delivered))
    }
}

/// The receiving side of one (sender, receiver) pair.
#[derive(Clone, Copy, Debug, Default)]
pub struct Receiver {
    /// The bit of the next new frame.
    expect: Seq,
}

impl Receiver {
    pub fn new() -> Receiver {
        Receiver::default()
    }
}

impl ArqReceiver for Receiver {
    /// The bit of the frame acknowledged.
    type Ack = Seq;
    /// Nothing: the bit is the frame's number.
    type Header = ();

    #[inline]
    fn on_frame(&mut self, _now: Time, seq: Seq, _header: ()) -> Receipt<Seq> {
        let deliver = seq == self.expect;
        if deliver {
            self.expect ^= 1;
        }
        Receipt { deliver, ack: seq }
    }
}

#[cfg(test)]
mod tests;
