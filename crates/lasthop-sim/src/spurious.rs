//! The spurious-timeout oracle (seed 004 Fig. 13; yun-004.md Sec. 4.1's
//! metrics table: "RTOs fired while the timed-out segment's original
//! transmission was still queued or retrying at the AP and was later
//! delivered").
//!
//! Definition. A retransmission timeout of a TCP sender, which goes back to
//! `snd_una` = s, is *spurious* when a transmission of byte s made before the
//! timeout was still on the path when the timer fired (queued, being retried
//! by a link layer, propagating) and then reached the receiver. Made before
//! the timeout means a packet created earlier in the run: the sender's own
//! segments, or a base-station agent's local retransmission made before the
//! timer fired (a packet's `uid` is its creation order, so "created before
//! the timeout" is `uid` < the world's next uid at the timeout: no clock in
//! the packet). Each timeout counts at most once.
//!
//! Not spurious by this definition: a timeout whose segment had already
//! reached the receiver before the timer fired (the receiver's `rcv_nxt` is
//! past s: the acks were late or lost, not the segment; Fig. 13's ERSN,
//! raised for data frames only, cannot avoid those), a timeout the sender
//! defers on an ERSN (it is no timeout: nothing is resent), and a SYN's.
//!
//! How. When a timeout fires with the receiver still missing s, the world
//! watches s for that connection (one u64 in the connection's receiver-side
//! cache line, compared on every data delivery: one compare per segment)
//! and notes the bound. Timeouts that fire again for the same s stack
//! their bounds. Every copy covering s that reaches the receiver
//! afterwards (duplicates included) is compared: timeout k is spurious as
//! soon as a copy made before it (`uid` < bound k) arrives, whether or not
//! a later copy got there first (a link layer that lets later frames
//! overtake a retried one, `ll_retransmission = "deferred"`, delivers the
//! sender's resend before the original). A timeout stays pending until
//! then, or until a timeout of another byte replaces the watch: its
//! original never arrived, so it was not spurious. At most [`MAX_STACKED`]
//! timeouts stack (backed-off timeouts of one segment; with ns-2's 200 ms
//! minimum and 60 s maximum RTO the 16th would come after 400 s); beyond
//! that the oldest is forgotten (an undercount).

/// No byte is watched.
pub const NO_WATCH: u64 = u64::MAX;

/// Timeouts of one segment that can wait for its next delivery.
pub const MAX_STACKED: usize = 16;

/// One connection's pending timeouts and its spurious count.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpuriousWatch {
    /// Per pending timeout, in firing order, the first uid created after
    /// it: copies with a smaller uid were transmitted before it.
    bounds: [u64; MAX_STACKED],
    pending: u8,
    /// Spurious timeouts found so far.
    pub count: u64,
}

impl SpuriousWatch {
    /// A timeout fired for a byte the receiver does not have;
    /// `restart` when it is not the byte already watched (pending
    /// timeouts of another byte are dropped). `next_uid`: the uid the next
    /// packet created will get.
    pub fn on_timeout(&mut self, restart: bool, next_uid: u64) {
        if restart {
            self.pending = 0;
        }
        if usize::from(self.pending) == MAX_STACKED {
            self.bounds.copy_within(1.., 0);
            self.pending -= 1;
        }
        self.bounds[usize::from(self.pending)] = next_uid;
        self.pending += 1;
    }

    /// A copy of the watched byte, created as `uid`, reached the receiver:
    /// every pending timeout made after it was spurious (counted, no longer
    /// pending). Returns how many, and whether any timeout is still pending.
    pub fn on_delivery(&mut self, uid: u64) -> (u64, bool) {
        // Bounds rise in firing order: those above `uid` are a suffix.
        let n = usize::from(self.pending);
        let keep = self.bounds[..n].iter().take_while(|&&b| b <= uid).count();
        let spurious = (n - keep) as u64;
        self.count += spurious;
        self.pending = keep as u8;
        (spurious, keep > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_made_before_a_timeout_makes_it_spurious_whenever_it_arrives() {
        // The original (uid 5) was held up; timeouts fired when uids 10
        // and 20 were next: both resent something needless.
        let mut w = SpuriousWatch::default();
        w.on_timeout(true, 10);
        w.on_timeout(false, 20);
        assert_eq!(w.on_delivery(5), (2, false));
        // The first resend (uid 12, after the first timeout) arrives after
        // the second timeout: the second was spurious; the first waits.
        w.on_timeout(true, 30);
        w.on_timeout(false, 40);
        assert_eq!(w.on_delivery(35), (1, true));
        // The original (uid 25) arrives after all, overtaken: the first
        // was spurious too; counted once.
        assert_eq!(w.on_delivery(25), (1, false));
        assert_eq!(w.on_delivery(25), (0, false));
        // A genuine loss: the copy that arrives is the timeout's own
        // resend, and nothing older ever comes; the next timeout, of
        // another byte, drops it uncounted.
        w.on_timeout(true, 50);
        assert_eq!(w.on_delivery(50), (0, true));
        w.on_timeout(true, 60);
        assert_eq!(w.on_delivery(55), (1, false));
        assert_eq!(w.count, 5);
    }

    #[test]
    fn a_new_byte_drops_the_old_ones_timeouts_and_the_stack_keeps_the_latest() {
        let mut w = SpuriousWatch::default();
        w.on_timeout(true, 10);
        w.on_timeout(true, 20);
        assert_eq!(w.on_delivery(15), (1, false), "the timeout of the earlier byte is gone");
        for k in 0..MAX_STACKED as u64 + 2 {
            w.on_timeout(k == 0, 100 + k);
        }
        // Bounds 102..=117 are kept: a copy of uid 101 is before all 16.
        assert_eq!(w.on_delivery(101), (MAX_STACKED as u64, false));
    }
}
