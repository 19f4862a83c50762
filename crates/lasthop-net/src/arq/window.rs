//! A selective-repeat sender's window of frames, shared by the family's
//! window members ([`super::rlp`], [`super::srp`], [`super::airmail`]):
//! the slots from the oldest frame not settled (`base`), each with the
//! caller's frame, its transmissions, whether it is acked, given up on
//! (`gone`) or known handed up (`delivered`), why it is due to go again
//! (`D`, the member's reasons, `D::default()`: not due) and what else the
//! member keeps per frame (`X`: RLP's ssn, SRP's transmission number and
//! send time, AIRMAIL's transmission number and status count).
//!
//! The window does the bookkeeping the members share: numbering, sliding
//! past settled frames, giving up at the retry limit, the simulator's
//! delivery knowledge ([`super::ArqSender::on_delivered`],
//! [`super::ArqSender::holds`], [`super::ArqSender::in_flight`]). When a
//! frame is lost, when it goes again and what the receiver's acks say stay
//! the member's.

use super::{Expiry, Send, Seq};
use lasthop_core::trace::DropCause;
use std::collections::VecDeque;
use std::ops::{Index, IndexMut};

/// A frame in the window.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot<F, D, X> {
    pub frame: F,
    /// Copies sent.
    pub transmissions: u32,
    pub acked: bool,
    /// Given up on (retry limit).
    pub gone: bool,
    /// Why it is due to go again (`D::default()`: not due).
    pub due: D,
    /// The receiver has handed it up (the simulator's knowledge).
    pub delivered: bool,
    /// The member's own per-frame state.
    pub x: X,
}

impl<F, D: Copy + Default + PartialEq, X> Slot<F, D, X> {
    /// A frame never sent.
    #[inline]
    pub fn new(frame: F, x: X) -> Slot<F, D, X> {
        Slot { frame, transmissions: 0, acked: false, gone: false, due: D::default(), delivered: false, x }
    }
    /// Acked or given up on.
    #[inline]
    pub fn settled(&self) -> bool {
        self.acked || self.gone
    }
    /// Due to go again.
    #[inline]
    pub fn is_due(&self) -> bool {
        self.due != D::default()
    }
    /// Sent, neither settled nor due.
    #[inline]
    pub fn unresolved(&self) -> bool {
        self.transmissions > 0 && !self.settled() && !self.is_due()
    }
    /// Held: not settled and not known handed up.
    #[inline]
    fn held(&self) -> bool {
        !self.settled() && !self.delivered
    }
}

/// The sender's window: slots from `base`, at most `capacity` of them.
#[derive(Clone, Debug)]
pub(crate) struct Window<F, D, X> {
    slots: VecDeque<Slot<F, D, X>>,
    /// The oldest frame not settled (every frame below is acked or given up).
    base: Seq,
    capacity: usize,
    /// Retransmissions allowed after the first transmission (`None`: persistent).
    retry_limit: Option<u32>,
}

impl<F: Copy, D: Copy + Default + PartialEq, X: Copy> Window<F, D, X> {
    /// An empty window of `capacity` frames from frame 0.
    pub fn new(capacity: u32, retry_limit: Option<u32>) -> Window<F, D, X> {
        Window { slots: VecDeque::with_capacity(capacity as usize), base: 0, capacity: capacity as usize, retry_limit }
    }

    /// The oldest frame not settled.
    #[inline]
    pub fn base(&self) -> Seq {
        self.base
    }

    /// Set the oldest frame not settled (an empty window, at a handoff).
    #[inline]
    pub fn set_base(&mut self, base: Seq) {
        debug_assert!(self.slots.is_empty());
        self.base = base;
    }

    /// Frames in the window.
    #[inline]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Frame number of window index `i`.
    #[inline]
    pub fn seq(&self, i: usize) -> Seq {
        self.base + i as Seq
    }

    /// The slots, oldest first.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &Slot<F, D, X>> {
        self.slots.iter()
    }

    /// The window has room for another frame.
    #[inline]
    pub fn has_room(&self) -> bool {
        self.slots.len() < self.capacity
    }

    /// Take `slot` in (room or not: a handoff restores a window): its number.
    #[inline]
    pub fn push(&mut self, slot: Slot<F, D, X>) -> Seq {
        let seq = self.seq(self.slots.len());
        self.slots.push_back(slot);
        seq
    }

    #[inline]
    pub fn slot(&self, seq: Seq) -> Option<&Slot<F, D, X>> {
        seq.checked_sub(self.base).and_then(|i| self.slots.get(i as usize))
    }

    #[inline]
    pub fn slot_mut(&mut self, seq: Seq) -> Option<&mut Slot<F, D, X>> {
        seq.checked_sub(self.base).and_then(|i| self.slots.get_mut(i as usize))
    }

    /// Window index `i` as a frame for the link.
    #[inline]
    pub fn pick(&self, i: usize) -> Send<F> {
        let s = &self.slots[i];
        Send { seq: self.seq(i), frame: s.frame, retransmission: s.transmissions > 0 }
    }

    /// The oldest frame due again and not settled.
    #[inline]
    pub fn first_due(&self) -> Option<usize> {
        self.slots.iter().position(|s| s.is_due() && !s.settled())
    }

    /// The oldest frame never sent among the first `within`.
    #[inline]
    pub fn first_new(&self, within: usize) -> Option<usize> {
        self.slots.iter().take(within).position(|s| s.transmissions == 0)
    }

    /// The oldest unresolved frame.
    #[inline]
    pub fn first_unresolved(&self) -> Option<usize> {
        self.slots.iter().position(|s| s.unresolved())
    }

    /// Some frame is unresolved.
    #[inline]
    pub fn any_unresolved(&self) -> bool {
        self.slots.iter().any(|s| s.unresolved())
    }

    /// A frame sent `transmissions` times has had its share (the limit).
    #[inline]
    pub fn exhausted(&self, transmissions: u32) -> bool {
        self.retry_limit.is_some_and(|n| transmissions > n)
    }

    /// Give up on the frame at window index `i`: the frame with its
    /// number if the receiver never had it (the caller's to drop).
    pub fn give_up(&mut self, i: usize) -> Option<(Seq, F)> {
        let seq = self.seq(i);
        let s = &mut self.slots[i];
        s.gone = true;
        s.due = D::default();
        (!s.delivered).then_some((seq, s.frame))
    }

    /// Window index `i` is known lost: due again for `why`, or, if it has
    /// had its share, given up on (the frame to drop, if the receiver
    /// never had it).
    #[inline]
    pub fn lost(&mut self, i: usize, why: D) -> Option<(Seq, F)> {
        if self.exhausted(self.slots[i].transmissions) {
            self.give_up(i)
        } else {
            self.slots[i].due = why;
            None
        }
    }

    /// The retransmission timer ran out on window index `i`: due again for
    /// `why` (`Resend`), or, if it has had its share, given up on, the
    /// window sliding past it.
    pub fn time_out(&mut self, i: usize, why: D) -> Expiry<F> {
        if !self.exhausted(self.slots[i].transmissions) {
            self.slots[i].due = why;
            return Expiry::Resend;
        }
        self.expire(i)
    }

    /// Give up on window index `i` at the timeout and slide.
    fn expire(&mut self, i: usize) -> Expiry<F> {
        let frame = self.slots[i].frame;
        let dropped = self.give_up(i).is_some();
        self.slide();
        if dropped {
            Expiry::Drop { frame, cause: DropCause::RetryLimit }
        } else {
            Expiry::GaveUpDelivered { frame }
        }
    }

    /// Slide the window past settled frames.
    #[inline]
    pub fn slide(&mut self) {
        while self.slots.front().is_some_and(|s| s.settled()) {
            self.slots.pop_front();
            self.base += 1;
        }
    }

    /// The receiver handed frame `seq` up.
    #[inline]
    pub fn on_delivered(&mut self, seq: Seq) {
        if let Some(s) = self.slot_mut(seq) {
            s.delivered = true;
        }
    }

    /// Frame `seq` is held: in the window, not settled, not known handed up.
    #[inline]
    pub fn holds(&self, seq: Seq) -> bool {
        self.slot(seq).is_some_and(|s| s.held())
    }

    /// Frames held.
    #[inline]
    pub fn in_flight(&self) -> usize {
        self.slots.iter().filter(|s| s.held()).count()
    }
}

impl<F, D, X> Index<usize> for Window<F, D, X> {
    type Output = Slot<F, D, X>;
    #[inline]
    fn index(&self, i: usize) -> &Slot<F, D, X> {
        &self.slots[i]
    }
}

impl<F, D, X> IndexMut<usize> for Window<F, D, X> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Slot<F, D, X> {
        &mut self.slots[i]
    }
}
