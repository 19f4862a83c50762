//! DropTail: a FIFO that refuses an arrival when it already holds its
//! limit, counted in packets or bytes (ns-2's `Queue/DropTail` counts the
//! packets waiting, not the one on the wire; so does this one).
//!
//! Every link direction without a `queue` table in its scenario uses it
//! alone: it draws nothing, reads no packet and keeps no statistics, so a
//! run that does not ask for a discipline pays for none. It is also the
//! storage the composed queue ([`super::Semantic`]) works on: the packets
//! waiting in arrival order, their bytes and the limit.

use super::{QueueLimit, Waiting};
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct DropTail {
    limit: Limit,
    packets: VecDeque<Waiting>,
    bytes: u64,
}

/// A [`QueueLimit`] in 16 bytes instead of 24, so that a link direction's
/// whole queue, this FIFO and its discipline, is one cache line (a frame
/// that waits reads it; issue 9).
#[derive(Clone, Copy, Debug)]
struct Limit {
    bytes: u64,
    packets: u32,
    by_packets: bool,
    by_bytes: bool,
}

impl Limit {
    fn of(l: QueueLimit) -> Limit {
        Limit {
            bytes: l.bytes.unwrap_or(0),
            packets: l.packets.unwrap_or(0),
            by_packets: l.packets.is_some(),
            by_bytes: l.bytes.is_some(),
        }
    }

    fn get(self) -> QueueLimit {
        QueueLimit { packets: self.by_packets.then_some(self.packets), bytes: self.by_bytes.then_some(self.bytes) }
    }

    /// Whether a queue of `packets` packets and `bytes` bytes waiting has no
    /// room for one more of `size_bytes`. The count is of packets whatever
    /// their size, as BSD/OS's interface queue counts mbuf chains (seed 001
    /// S6.1: a 6-byte compressed ack takes a whole slot). A unit test holds
    /// it to the same rule read off the [`QueueLimit`] it was made from.
    #[inline(always)]
    fn is_full(self, packets: usize, bytes: u64, size_bytes: u32) -> bool {
        let over_count = self.by_packets && packets >= self.packets as usize;
        let over_bytes = self.by_bytes && bytes + u64::from(size_bytes) > self.bytes;
        over_count || over_bytes
    }
}

impl DropTail {
    /// An empty queue. Its buffer grows as packets arrive (amortised, so a
    /// run's steady state allocates nothing) instead of being sized to the
    /// limit up front: a topology of 10,000 access links would otherwise
    /// commit memory for queues that never fill.
    pub fn new(limit: QueueLimit) -> DropTail {
        DropTail { limit: Limit::of(limit), packets: VecDeque::new(), bytes: 0 }
    }

    /// Add `w` at the tail; false if the queue is full and refused it.
    #[must_use]
    #[inline]
    pub fn enqueue(&mut self, w: Waiting) -> bool {
        if self.limit.is_full(self.packets.len(), self.bytes, w.size_bytes) {
            return false;
        }
        self.bytes += u64::from(w.size_bytes);
        self.packets.push_back(w);
        true
    }

    #[inline]
    pub fn dequeue(&mut self) -> Option<Waiting> {
        let p = self.packets.pop_front()?;
        self.bytes -= u64::from(p.size_bytes);
        Some(p)
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }
    pub fn limit(&self) -> QueueLimit {
        self.limit.get()
    }
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether one more packet of `size_bytes` would exceed the limit.
    #[inline]
    pub fn is_full(&self, size_bytes: u32) -> bool {
        self.limit.is_full(self.packets.len(), self.bytes, size_bytes)
    }

    /// The packets waiting, head first.
    pub fn waiting(&self) -> &VecDeque<Waiting> {
        &self.packets
    }

    /// Put `w` at index `i` (the tail if `None`), whatever the limit.
    pub(super) fn insert(&mut self, i: Option<usize>, w: Waiting) {
        self.bytes += u64::from(w.size_bytes);
        match i {
            Some(i) => self.packets.insert(i, w),
            None => self.packets.push_back(w),
        }
    }

    /// Put `w` at the head, whatever the limit.
    pub(super) fn insert_front(&mut self, w: Waiting) {
        self.bytes += u64::from(w.size_bytes);
        self.packets.push_front(w);
    }

    /// Take out the packet at index `i`.
    pub(super) fn remove(&mut self, i: usize) -> Waiting {
        let w = self.packets.remove(i).expect("index within the queue");
        self.bytes -= u64::from(w.size_bytes);
        w
    }

    /// Remove the packets `stale` says, handing each to `on_remove` in
    /// queue order; the index the first of them had, if any.
    pub(super) fn remove_where(
        &mut self,
        mut stale: impl FnMut(&Waiting) -> bool,
        mut on_remove: impl FnMut(Waiting),
    ) -> Option<usize> {
        let (mut first, mut kept, mut freed) = (None, 0, 0u64);
        self.packets.retain(|w| {
            if stale(w) {
                first.get_or_insert(kept);
                freed += u64::from(w.size_bytes);
                on_remove(*w);
                false
            } else {
                kept += 1;
                true
            }
        });
        self.bytes -= freed;
        first
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::data;
    use super::*;
    use lasthop_core::PacketPool;

    #[test]
    fn packet_limit_drops_the_arrival() {
        let mut pool = PacketPool::new();
        let mut q = DropTail::new(QueueLimit { packets: Some(2), bytes: None });
        assert!(q.enqueue(data(&mut pool, 0, 0, 100)));
        assert!(q.enqueue(data(&mut pool, 0, 0, 100)));
        assert!(!q.enqueue(data(&mut pool, 0, 0, 100)));
        assert_eq!(q.dequeue().unwrap().size_bytes, 100);
        assert!(q.enqueue(data(&mut pool, 0, 0, 100)));
    }

    #[test]
    fn byte_limit_counts_sizes() {
        let mut pool = PacketPool::new();
        let mut q = DropTail::new(QueueLimit { packets: None, bytes: Some(1500) });
        assert!(q.enqueue(data(&mut pool, 0, 0, 1000)));
        assert!(!q.enqueue(data(&mut pool, 0, 0, 600)));
        assert!(q.enqueue(data(&mut pool, 0, 0, 500)));
        assert_eq!(q.bytes(), 1500);
    }

    #[test]
    fn the_compact_limit_is_the_limit_it_was_made_from() {
        // The rule on the limit as given: over a count, or over the bytes.
        let full = |l: QueueLimit, packets: usize, bytes: u64, size: u32| {
            l.packets.is_some_and(|n| packets >= n as usize) || l.bytes.is_some_and(|b| bytes + u64::from(size) > b)
        };
        let (counts, sizes) =
            ([None, Some(0), Some(1), Some(3), Some(u32::MAX)], [None, Some(0), Some(40), Some(1500)]);
        for packets in counts {
            for bytes in sizes {
                let l = QueueLimit { packets, bytes };
                let c = Limit::of(l);
                assert_eq!(c.get(), l);
                for (n, b, size) in [(0, 0, 1), (0, 0, 40), (1, 40, 1460), (2, 1500, 1), (3, 0, 0), (5, 1460, 40)] {
                    assert_eq!(c.is_full(n, b, size), full(l, n, b, size), "{l:?} {n} {b} {size}");
                }
            }
        }
        assert_eq!(std::mem::size_of::<DropTail>(), 56, "with its discipline, a queue is one cache line");
    }
}
