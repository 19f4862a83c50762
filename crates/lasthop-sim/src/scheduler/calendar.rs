//! The queue of link events: a calendar queue (Brown, "Calendar queues: a
//! fast O(1) priority queue implementation for the simulation event set
//! problem", CACM 31(10), 1988) with buckets of fixed width, kept sorted,
//! and a binary heap for what lies beyond one turn of the calendar.
//!
//! Why not the binary heap alone: nearly every event pops the least entry
//! and pushes one a transmission time or a propagation delay later, and a
//! heap pays a sift through all its levels for each; with a few thousand
//! flows a hundred and more link events are pending and that sift was the
//! largest single cost of an event (issue 9). Here an entry goes into the
//! bucket of its time, and the least one is the head of the first occupied
//! bucket at or after `now`, found through a bitmap of the occupied
//! buckets: both steps cost the same whether ten events are pending or a
//! thousand.
//!
//! Why not a timing-wheel crate: the order must be exactly the heap's,
//! (time, insertion counter), with counters reserved earlier and used late
//! ([`super::Scheduler::reserve`]); the wheels on crates.io round times to
//! their tick and pop a tick's entries in no defined order.
//!
//! Layout: `BUCKETS` buckets of 2^`SHIFT` ns each. An entry whose time is
//! a turn or more ahead of the bucket of `now` waits in the `far` heap (a
//! long-delay link's arrivals, a slow link's ends of transmission, flow
//! starts, the end of a long idle spell); [`Calendar::peek_at`] and
//! [`Calendar::pop_before`] take the earlier of the calendar's least and
//! the far heap's top, so an entry never has to move from one to the
//! other. A bucket is a list through the node slab, sorted by (time,
//! insertion counter): its head is its least entry, and an entry joins it
//! behind those before it. A bucket that would make an entry go behind
//! more than `MAX_BEHIND` others (thousands of identical links ending a
//! frame at one instant) sends it to the far heap instead, so no push
//! costs more than a short walk and a heap's logarithm.
//!
//! The width, 512 ns. A push into an occupied bucket walks it, and the
//! walk's exit is a branch no predictor guesses; a push into an empty
//! bucket does not walk, and passing over empty buckets is cheap, since
//! the bitmap skips 64 of them in one step. (Brown makes his buckets three
//! mean event separations wide because his dequeue steps through the
//! empty ones one by one.) So a bucket should be no wider than the spacing
//! of the densest events the engine schedules: frames back to back on a
//! fast link (12 µs for 1500 bytes at 1 Gb/s, 0.4 µs for a 52-byte ack),
//! the events of thousands of flows interleaved about a µs apart. At the
//! 4.096 µs this queue first had, 72 % of dumbbell-5000's pushes landed
//! in an occupied bucket. The price of a narrow bucket is a short turn
//! (2.1 ms): more entries wait in the far heap. A link direction has at
//! most one pending arrival and one pending end of transmission, so the
//! heap holds at most two entries per link direction whose events lie that
//! far ahead. Measured (issue 9; CPU ns an event, minimum of alternating
//! runs), 512 ns against 4.096 µs:
//!
//! - dumbbell-5000: 74.6 -> 66.2; with its 10,000 access links at 5 ms
//!   instead of 1 ms (every access arrival in the far heap), 78.2 -> 72.3;
//! - dumbbell-1, path-1000, lan, path-1, bdp-17k, asym-af: within 0.7;
//! - wlan-10: 177 -> 182. Its ten wired links (10 ms) each carry a tenth
//!   of what the shared 802.11 cell passes, so their frames are more than
//!   a turn apart, and 58 % of its arrivals now wait in the far heap (2.7 %
//!   on path-1000, whose frames on the same delay follow each other
//!   closely: a link direction schedules its next arrival when the one
//!   before it arrives).
//!
//! Also tried: 256 ns (dumbbell-5000 faster still, path-1000 1.9 ns
//! slower: its 10 Mb/s link's 1.2 ms frames go to the far heap); 512 ns
//! with 32,768 buckets to keep the 16.8 ms turn, under a three-level bitmap
//! (callgrind: dumbbell-5000's 1 MB-cache misses 0.524 -> 0.614 an event
//! on the larger head array; wlan-10's mispredicted branches 18.1 -> 18.6,
//! in the search for the next occupied bucket that sparse events pay on
//! nearly every pop; slower on both in one noisy timed round); a width
//! following the mean time between events, as Brown's resize does (events
//! come in bursts, so the mean misleads: dumbbell-1, path-1000 and bdp-17k
//! ran 2.3-2.6 ns slower). The width changes the cost, never the order.

use super::{Entry, Heap};

/// log2 of a bucket's width in ns (512 ns, one turn 2.1 ms; see the
/// module's note on the width).
const SHIFT: u32 = 9;
/// Buckets in one turn: 64 × 64, so that one summary word, bit w for word
/// w of the bitmap, covers the turn.
const BUCKETS: usize = 4096;
const WORDS: usize = BUCKETS / 64;
const NIL: u32 = u32::MAX;
/// Entries an entry may go behind in its bucket; past that it waits in the
/// far heap instead (the order is the same either way).
const MAX_BEHIND: usize = 32;

const _: () = assert!(WORDS == 64 && WORDS * 64 == BUCKETS);

#[derive(Clone, Copy, Debug)]
struct Node {
    entry: Entry,
    /// The next entry of the bucket (or of the free list), `NIL` at the end.
    next: u32,
}

#[derive(Debug)]
pub(super) struct Calendar {
    /// Each bucket's least entry (a node index), `NIL` when empty.
    heads: Box<[u32; BUCKETS]>,
    /// Bit b of word w: bucket 64·w + b is occupied.
    occupied: [u64; WORDS],
    /// Bit w: word w of `occupied` is not zero.
    summary: u64,
    nodes: Vec<Node>,
    /// Free nodes, most recently freed first (still in the cache).
    free: u32,
    /// The absolute bucket (time >> SHIFT) of the latest entry taken: every
    /// entry in the calendar is in it or in the next `BUCKETS - 1`.
    cursor: u64,
    /// Entries a turn or more ahead of `cursor` when they were pushed.
    far: Heap,
    /// The first occupied bucket ([`Calendar::first_bucket`]) when any is
    /// (`summary` is not zero). Kept at each push and at each pop that
    /// empties its bucket: found lazily, at the next peek, it cost each push
    /// a branch on whether it was known, which a pop emptying its bucket or
    /// not decides at random.
    first: usize,
}

impl Default for Calendar {
    fn default() -> Calendar {
        Calendar {
            heads: Box::new([NIL; BUCKETS]),
            occupied: [0; WORDS],
            summary: 0,
            nodes: Vec::new(),
            free: NIL,
            cursor: 0,
            far: Heap::default(),
            first: 0,
        }
    }
}

impl Calendar {
    /// Add `e`, whose time is not before the latest entry taken.
    #[inline]
    pub(super) fn push(&mut self, e: Entry) {
        let abs = e.at >> SHIFT;
        debug_assert!(abs >= self.cursor, "an entry before the latest one taken");
        if abs - self.cursor >= BUCKETS as u64 {
            self.far.push(e);
            return;
        }
        let b = (abs as usize) & (BUCKETS - 1);
        let empty = self.summary == 0;
        // Where `e` goes in its bucket: behind the entries before it.
        let key = e.key();
        let (mut prev, mut cur) = (NIL, self.heads[b]);
        let mut behind = 0;
        while cur != NIL && self.nodes[cur as usize].entry.key() < key {
            behind += 1;
            if behind > MAX_BEHIND {
                // A crowded bucket (thousands of frames ending at one
                // instant): the far heap keeps the cost logarithmic.
                self.far.push(e);
                return;
            }
            (prev, cur) = (cur, self.nodes[cur as usize].next);
        }
        let i = if self.free == NIL {
            self.nodes.push(Node { entry: e, next: cur });
            (self.nodes.len() - 1) as u32
        } else {
            let i = self.free;
            let n = &mut self.nodes[i as usize];
            self.free = n.next;
            // Field by field: the whole entry went through the stack and
            // back as one 16-byte load over two 8-byte stores, which the
            // processor cannot forward (a stall on every push).
            (n.entry.at, n.entry.seq, n.entry.packed, n.next) = (e.at, e.seq, e.packed, cur);
            i
        };
        if prev == NIL {
            self.heads[b] = i;
            self.occupied[b / 64] |= 1 << (b % 64);
            self.summary |= 1 << (b / 64);
        } else {
            self.nodes[prev as usize].next = i;
        }
        let keep = !empty && self.turn_offset(self.first) <= self.turn_offset(b);
        self.first = if keep { self.first } else { b };
    }

    /// How many buckets after the cursor's bucket `b` is.
    #[inline(always)]
    fn turn_offset(&self, b: usize) -> usize {
        b.wrapping_sub(self.cursor as usize) & (BUCKETS - 1)
    }

    /// The first occupied bucket at or after the cursor's, in time order.
    #[inline]
    fn first_bucket(&self) -> Option<usize> {
        if self.summary == 0 {
            return None;
        }
        let c = (self.cursor as usize) & (BUCKETS - 1);
        let w = c / 64;
        let here = self.occupied[w] & (!0u64 << (c % 64));
        if here != 0 {
            return Some(w * 64 + here.trailing_zeros() as usize);
        }
        // The words after w, wrapping round to w itself (its buckets before
        // the cursor's are the turn's last): bit j of `after` is word w+1+j.
        let after = self.summary.rotate_right((w as u32 + 1) % 64);
        let v = (w + 1 + after.trailing_zeros() as usize) % WORDS;
        let bits = if v == w { self.occupied[w] & !(!0u64 << (c % 64)) } else { self.occupied[v] };
        debug_assert!(bits != 0, "the summary names an occupied word");
        Some(v * 64 + bits.trailing_zeros() as usize)
    }

    /// The time of the least entry, calendar and far heap together.
    #[inline]
    pub(super) fn peek_at(&mut self) -> Option<u64> {
        let near = (self.summary != 0).then(|| self.nodes[self.heads[self.first] as usize].entry.at);
        let far = self.far.peek().map(|e| e.at);
        match (near, far) {
            (Some(n), Some(f)) => Some(n.min(f)),
            (n, f) => n.or(f),
        }
    }

    /// Take the least entry if its key is below `limit`.
    #[inline]
    pub(super) fn pop_before(&mut self, limit: u128) -> Option<Entry> {
        let far = self.far.peek().map_or(u128::MAX, Entry::key).min(limit);
        if self.summary != 0 {
            let b = self.first;
            let i = self.heads[b];
            let node = self.nodes[i as usize];
            if node.entry.key() < far {
                self.heads[b] = node.next;
                self.nodes[i as usize].next = self.free;
                self.free = i;
                self.cursor = node.entry.at >> SHIFT;
                if node.next == NIL {
                    self.occupied[b / 64] &= !(1 << (b % 64));
                    if self.occupied[b / 64] == 0 {
                        self.summary &= !(1 << (b / 64));
                    }
                    if let Some(f) = self.first_bucket() {
                        self.first = f;
                    }
                }
                return Some(node.entry);
            }
        }
        // The far heap's top, unless `limit` is lower (or nothing waits).
        let top = *self.far.peek()?;
        if top.key() >= limit {
            return None;
        }
        self.far.pop();
        self.cursor = top.at >> SHIFT;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(at: u64, seq: u64) -> Entry {
        Entry { at, seq, packed: seq }
    }

    /// Pops interleaved with pushes at offsets from a bucket to several
    /// turns ahead, the cursor moving all along: the calendar hands out the
    /// sorted order, with entries in its buckets, wrapped round its turn and
    /// in its far heap.
    #[test]
    fn hands_out_entries_in_time_then_counter_order_across_turns() {
        let turn = (BUCKETS as u64) << SHIFT;
        let offsets = [0, 1, 4095, 4096, 70_000, turn - 1, turn, turn + 5, 3 * turn, 12_345_678];
        let mut c = Calendar::default();
        let mut pending: Vec<(u64, u64)> = Vec::new();
        let (mut seq, mut now, mut x) = (0u64, 0u64, 7u64);
        for step in 0..20_000 {
            // Two pushes, then a pop, from step 1000 on.
            for _ in 0..2 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let at = now + offsets[(x >> 33) as usize % offsets.len()];
                c.push(entry(at, seq));
                pending.push((at, seq));
                seq += 1;
            }
            if step >= 1000 {
                let least = *pending.iter().min().unwrap();
                pending.retain(|p| *p != least);
                let e = c.pop_before(u128::MAX).unwrap();
                assert_eq!((e.at, e.seq), least, "step {step}");
                now = e.at;
                let next = pending.iter().min().map(|p| p.0);
                assert_eq!(c.peek_at(), next);
            }
        }
        pending.sort_unstable();
        for p in pending {
            let e = c.pop_before(u128::MAX).unwrap();
            assert_eq!((e.at, e.seq), p);
        }
        assert!(c.pop_before(u128::MAX).is_none() && c.peek_at().is_none());
    }

    /// Thousands of entries at one instant (identical links ending a frame
    /// together): the bucket keeps a bounded list, the rest wait in the far
    /// heap, and all come out in counter order.
    #[test]
    fn a_crowded_instant_overflows_to_the_far_heap_in_order() {
        let mut c = Calendar::default();
        for seq in 0..5_000 {
            c.push(entry(1_000, seq));
        }
        c.push(entry(999, 5_000));
        let in_buckets = c.nodes.len() - {
            let (mut free, mut i) = (0, c.free);
            while i != NIL {
                (free, i) = (free + 1, c.nodes[i as usize].next);
            }
            free
        };
        assert!(in_buckets <= MAX_BEHIND + 2, "{in_buckets} entries in the bucket");
        assert_eq!(c.pop_before(u128::MAX).map(|e| e.seq), Some(5_000));
        for seq in 0..5_000 {
            assert_eq!(c.pop_before(u128::MAX).map(|e| (e.at, e.seq)), Some((1_000, seq)));
        }
        assert!(c.pop_before(u128::MAX).is_none());
    }

    #[test]
    fn an_entry_at_or_above_the_limit_stays() {
        let mut c = Calendar::default();
        c.push(entry(100, 5));
        c.push(entry(1 << 40, 6)); // far
        assert!(c.pop_before(entry(100, 5).key()).is_none());
        assert_eq!(c.pop_before(entry(100, 6).key()).map(|e| e.seq), Some(5));
        assert!(c.pop_before(entry(1 << 40, 6).key()).is_none());
        assert_eq!(c.pop_before(u128::MAX).map(|e| e.seq), Some(6));
        assert_eq!(c.peek_at(), None);
    }
}
