//! The event queue.
//!
//! Events are totally ordered by (time, insertion counter): two events at the
//! same nanosecond run in the order they were scheduled, never in an order a
//! heap's internals happen to choose. This is the one place where the order of
//! simultaneous events is decided (Shadow's habit), and it is what makes a run
//! repeatable bit for bit.
//!
//! Timers are cancellable through keys: each key has a generation, bumped by
//! every `set_timer` and `cancel_timer`; a popped timer event whose generation
//! is stale is skipped. Models need not cancel at all: the simulator asks each
//! endpoint `poll_at()` and re-arms only when the wanted time moves earlier,
//! so a retransmission timer pushed back by every ack costs one early wake-up
//! per timeout interval, not one heap entry per ack.

use lasthop_core::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The frame on the medium of (link, direction) is fully transmitted.
    TxDone {
        link: u32,
        dir: u8,
    },
    /// The oldest propagating frame of (link, direction) reaches the far end.
    Arrive {
        link: u32,
        dir: u8,
    },
    /// An endpoint's `poll_at` time (endpoint = flow·2 + side).
    Wake {
        endpoint: u32,
    },
    /// A flow's application starts or stops.
    FlowStart {
        flow: u32,
    },
    FlowStop {
        flow: u32,
    },
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    at: u64,
    seq: u64,
    event: Event,
    /// Timer key + 1, or 0 for an event that cannot be cancelled.
    key: u32,
    generation: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

#[derive(Debug, Default)]
pub struct Scheduler {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    now: Time,
    generations: Vec<u32>,
    /// Events handed out (stale timers excluded).
    pub events_processed: u64,
}

impl Scheduler {
    pub fn new(timer_keys: usize) -> Scheduler {
        Scheduler {
            heap: BinaryHeap::with_capacity(1024),
            next_seq: 0,
            now: Time::ZERO,
            generations: vec![0; timer_keys],
            events_processed: 0,
        }
    }

    pub fn now(&self) -> Time {
        self.now
    }

    fn push(&mut self, at: Time, event: Event, key: u32, generation: u32) {
        // Scheduling into the past would let time run backwards.
        assert!(at >= self.now, "event {event:?} scheduled at {at} before now {}", self.now);
        self.heap.push(Entry { at: at.ns(), seq: self.next_seq, event, key, generation });
        self.next_seq += 1;
    }

    /// Schedule an event that cannot be cancelled.
    pub fn schedule(&mut self, at: Time, event: Event) {
        self.push(at, event, 0, 0);
    }

    /// Arm timer `key` for `at`, replacing any earlier arming of that key.
    pub fn set_timer(&mut self, key: u32, at: Time, event: Event) {
        let g = &mut self.generations[key as usize];
        *g = g.wrapping_add(1);
        let generation = *g;
        self.push(at, event, key + 1, generation);
    }

    pub fn cancel_timer(&mut self, key: u32) {
        let g = &mut self.generations[key as usize];
        *g = g.wrapping_add(1);
    }

    /// The next live event, advancing `now` to its time.
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        while let Some(e) = self.heap.pop() {
            if e.key != 0 && self.generations[(e.key - 1) as usize] != e.generation {
                continue; // cancelled or re-armed
            }
            // The heap order guarantees this; the check documents and guards it.
            assert!(e.at >= self.now.ns(), "time went backwards");
            self.now = Time(e.at);
            self.events_processed += 1;
            return Some((self.now, e.event));
        }
        None
    }

    /// Time of the next entry (live or stale), if any.
    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| Time(e.at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simultaneous_events_run_in_insertion_order() {
        let mut s = Scheduler::new(0);
        for f in 0..5 {
            s.schedule(Time(10), Event::FlowStart { flow: f });
        }
        s.schedule(Time(5), Event::FlowStop { flow: 9 });
        assert_eq!(s.pop(), Some((Time(5), Event::FlowStop { flow: 9 })));
        for f in 0..5 {
            assert_eq!(s.pop(), Some((Time(10), Event::FlowStart { flow: f })));
        }
        assert_eq!(s.pop(), None);
    }

    #[test]
    fn rearmed_and_cancelled_timers_do_not_fire() {
        let mut s = Scheduler::new(2);
        s.set_timer(0, Time(10), Event::Wake { endpoint: 0 });
        s.set_timer(0, Time(20), Event::Wake { endpoint: 0 });
        s.set_timer(1, Time(15), Event::Wake { endpoint: 1 });
        s.cancel_timer(1);
        assert_eq!(s.pop(), Some((Time(20), Event::Wake { endpoint: 0 })));
        assert_eq!(s.pop(), None);
        assert_eq!(s.events_processed, 1);
    }

    #[test]
    #[should_panic(expected = "before now")]
    fn scheduling_into_the_past_is_refused() {
        let mut s = Scheduler::new(0);
        s.schedule(Time(10), Event::FlowStart { flow: 0 });
        s.pop();
        s.schedule(Time(5), Event::FlowStart { flow: 1 });
    }
}
