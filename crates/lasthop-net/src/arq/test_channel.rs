//! What the family's channel tests share (test builds only): ns-3's RLC AM
//! end-to-end grid (`lte-test-rlc-am-e2e.cc`) and its empirical margin,
//! which each member's grid test turns into a deadline of its own (see
//! [`super::rlp`]'s tests for the derivation), and the window members'
//! test preamble: [`T0`], [`transmit`], [`ups`].

use super::{ArqSender, Send, Seq};
use lasthop_core::Time;

/// The grid's loss rates.
pub(crate) const GRID_LOSS: [f64; 9] = [0.0, 0.05, 0.10, 0.15, 0.25, 0.50, 0.75, 0.90, 0.95];

/// ns-3's grid sets `t-PollRetransmit` (resend when no status came) to
/// 20 ms, 6.7 of its 3 ms opportunities: 7 slots.
pub(crate) const NS3_POLL_RETRANSMIT: u64 = 7;

/// ns-3's empirical margin (`lte-test-rlc-am-e2e.cc`), in its transmission
/// opportunities (one per 3 ms): 0.5, 1, 2, 10, 20 and 30 s.
pub(crate) fn ns3_margin_opportunities(p: f64) -> f64 {
    let secs = if p < 0.07 {
        0.5
    } else if p < 0.20 {
        1.0
    } else if p < 0.50 {
        2.0
    } else if p < 0.70 {
        10.0
    } else if p < 0.91 {
        20.0
    } else {
        30.0
    };
    secs / 0.003
}

/// The units tests start from: slot 0.
pub(crate) const T0: Time = Time::ZERO;

/// The next frame `s` sends at `now`, with its header.
pub(crate) fn transmit<S: ArqSender<u32>>(s: &mut S, now: Time) -> (Send<u32>, S::Header) {
    let f = s.next(now).expect("a frame to send");
    let h = s.on_transmit(now, f.seq);
    (f, h)
}

/// A receiver that hands frames up through a queue of its own.
pub(crate) trait HandsUp {
    fn pop_up(&mut self) -> Option<Seq>;
}

impl HandsUp for super::rlp::Receiver {
    fn pop_up(&mut self) -> Option<Seq> {
        super::rlp::Receiver::pop_up(self)
    }
}

impl HandsUp for super::srp::Receiver {
    fn pop_up(&mut self) -> Option<Seq> {
        super::srp::Receiver::pop_up(self)
    }
}

impl HandsUp for super::airmail::Receiver {
    fn pop_up(&mut self) -> Option<Seq> {
        super::airmail::Receiver::pop_up(self)
    }
}

/// Everything `r` has to hand up, in its order.
pub(crate) fn ups<R: HandsUp>(r: &mut R) -> Vec<Seq> {
    std::iter::from_fn(|| r.pop_up()).collect()
}
