//! A selective-repeat receiver's hand-up, shared by the family's window
//! members ([`super::rlp`], [`super::srp`], [`super::airmail`]): the next
//! frame expected (`next`), a bitmap of the frames received above it, the
//! frames to hand up, in order or as first copies arrive, never a second
//! copy, and the counters every member keeps. A sender's floor (every
//! frame below it settled) lets it stop waiting for a frame given up on.
//! What the receiver answers (its status, a SACK) stays the member's.

use super::Seq;
use std::collections::VecDeque;

/// The largest window the bitmap can cover.
pub(crate) const MAX_WINDOW: u32 = 64;

/// The counters every member's receiver keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Data frames that arrived intact.
    pub frames: u64,
    /// Of which copies of a frame already received (or given up).
    pub duplicates: u64,
    /// Frames handed up.
    pub handed_up: u64,
}

/// The receiver's position and the frames to hand up.
#[derive(Clone, Debug)]
pub(crate) struct Reorder {
    in_order: bool,
    /// The next frame expected: every frame below it is received or given up.
    pub next: Seq,
    /// Bit `i`: frame `next + 1 + i` received.
    pub bitmap: u64,
    up: VecDeque<Seq>,
    pub counts: Counts,
}

impl Reorder {
    /// At frame 0, handing up in order or out of order.
    pub fn new(in_order: bool) -> Reorder {
        Reorder { in_order, next: 0, bitmap: 0, up: VecDeque::new(), counts: Counts::default() }
    }

    /// The next frame to hand up.
    #[inline]
    pub fn pop_up(&mut self) -> Option<Seq> {
        self.up.pop_front()
    }

    /// Nothing waits to be handed up.
    #[inline]
    pub fn nothing_up(&self) -> bool {
        self.up.is_empty()
    }

    #[inline]
    fn hand_up(&mut self, seq: Seq) {
        self.up.push_back(seq);
        self.counts.handed_up += 1;
    }

    /// Step `next` past a frame received or given up, then past every
    /// frame received behind it (handing them up if in order).
    fn advance(&mut self) {
        loop {
            self.next += 1;
            let got = self.bitmap & 1 == 1;
            self.bitmap >>= 1;
            if !got {
                return;
            }
            if self.in_order {
                self.hand_up(self.next);
            }
        }
    }

    /// Frame `seq` arrived intact with the sender's `floor` (0: none
    /// carried): whether it is a first copy.
    pub fn on_frame(&mut self, seq: Seq, floor: Seq) -> bool {
        self.counts.frames += 1;
        // Frames the sender gave up on are not waited for.
        while self.next < floor {
            self.advance();
        }
        let fresh = if seq < self.next {
            false
        } else if seq == self.next {
            self.hand_up(seq);
            self.advance();
            true
        } else {
            let i = seq - self.next - 1;
            debug_assert!(i < MAX_WINDOW, "frame {seq} beyond the window at {}", self.next);
            let had = self.bitmap >> i & 1 == 1;
            self.bitmap |= 1 << i;
            if !had && !self.in_order {
                self.hand_up(seq);
            }
            !had
        };
        self.counts.duplicates += u64::from(!fresh);
        fresh
    }
}
