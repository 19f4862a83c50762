//! The event queue.
//!
//! Events are totally ordered by (time, insertion counter): two events at the
//! same nanosecond run in the order they were scheduled, never in an order a
//! heap's internals happen to choose. This is the one place where the order of
//! simultaneous events is decided (Shadow's habit), and it is what makes a run
//! repeatable bit for bit.
//!
//! Timers are cancellable through keys (the endpoint of a `Wake` event): each
//! key has a generation, bumped by every `set_timer` and `cancel_timer`; a
//! popped timer event whose generation is stale is skipped. Models need not cancel at all: the simulator asks each
//! endpoint `poll_at()` and re-arms only when the wanted time moves earlier,
//! so a retransmission timer pushed back by every ack costs one early wake-up
//! per timeout interval, not one heap entry per ack.
//!
//! Two queues, one order: timers wait in a heap of their own, everything
//! else (transmissions ending, arrivals, flow starts) in a calendar queue
//! (`calendar.rs`), and `pop` takes the earlier of the two by the same (time,
//! insertion counter) key. A run with thousands of flows has thousands of
//! retransmission timers armed far ahead; in one heap they deepened every
//! push and pop of the link events that make up nearly all of a run. Split,
//! a link event costs the calendar's constant time, and a timer pays the
//! deep heap only when it is set or fires. Which structure holds an entry
//! never changes the order: any of them hands out the least (time, counter)
//! first, and the property test below holds them all to a plain list.

mod calendar;

use calendar::Calendar;
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
    /// A timer key's wake-up: an endpoint's, a node agent's or a shared
    /// medium's `poll_at` time (the world lays the keys out, `world::keys`).
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

/// A heap entry, kept to 24 bytes: the heap moves entries on every push and
/// pop, and their size was a visible share of the per-event cost.
#[derive(Clone, Copy, Debug)]
struct Entry {
    at: u64,
    /// Insertion counter: the tie-break among simultaneous events.
    seq: u64,
    /// The event packed by [`pack`].
    packed: u64,
}

const TAG_TX_DONE: u64 = 0;
const TAG_ARRIVE: u64 = 1;
const TAG_WAKE: u64 = 2;
const TAG_START: u64 = 3;
const TAG_STOP: u64 = 4;

/// Event and timer generation in one word: tag (8 bits) | id (24 bits:
/// link·2+dir, endpoint or flow) | generation (32 bits, 0 = not a timer).
#[inline(always)]
fn pack(event: Event, generation: u32) -> u64 {
    let (tag, id) = match event {
        Event::TxDone { link, dir } => (TAG_TX_DONE, 2 * link + u32::from(dir)),
        Event::Arrive { link, dir } => (TAG_ARRIVE, 2 * link + u32::from(dir)),
        Event::Wake { endpoint } => (TAG_WAKE, endpoint),
        Event::FlowStart { flow } => (TAG_START, flow),
        Event::FlowStop { flow } => (TAG_STOP, flow),
    };
    debug_assert!(id < 1 << 24, "ids are limited to 24 bits");
    (tag << 56) | (u64::from(id) << 32) | u64::from(generation)
}

/// The panic of an event scheduled before `now`, out of the push's way.
#[cold]
#[inline(never)]
fn past(at: Time, event: Event, now: Time) -> ! {
    panic!("event {event:?} scheduled at {at} before now {now}")
}

fn unpack(packed: u64) -> (Event, u32) {
    let id = ((packed >> 32) & 0xff_ffff) as u32;
    let generation = packed as u32;
    let event = match packed >> 56 {
        TAG_TX_DONE => Event::TxDone { link: id / 2, dir: (id % 2) as u8 },
        TAG_ARRIVE => Event::Arrive { link: id / 2, dir: (id % 2) as u8 },
        TAG_WAKE => Event::Wake { endpoint: id },
        TAG_START => Event::FlowStart { flow: id },
        _ => Event::FlowStop { flow: id },
    };
    (event, generation)
}

impl Entry {
    /// (time, insertion counter) as one 128-bit key: one branch-free compare
    /// where the tuple compared field by field.
    #[inline(always)]
    fn key(&self) -> u128 {
        (u128::from(self.at) << 64) | u128::from(self.seq)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    // BinaryHeap sifts with `<=`; answer it without building an Ordering.
    #[inline(always)]
    fn le(&self, other: &Self) -> bool {
        other.key() <= self.key()
    }
}
impl Ord for Entry {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

/// A binary heap whose top, once taken, stays in place until the next
/// operation: a push then drops into the vacated root and sifts down once,
/// instead of the pop sifting the last entry down and the push sifting up
/// again. A timer that fires is nearly always armed again by the endpoint
/// it woke, so most pops are followed by a push into the same heap. The
/// order of events is the heap's either way.
#[derive(Debug, Default)]
struct Heap {
    heap: BinaryHeap<Entry>,
    /// The top was taken and is to be removed.
    top_taken: bool,
}

impl Heap {
    fn with_capacity(n: usize) -> Heap {
        Heap { heap: BinaryHeap::with_capacity(n), top_taken: false }
    }

    #[inline]
    fn settle(&mut self) {
        if self.top_taken {
            self.top_taken = false;
            self.heap.pop();
        }
    }

    #[inline]
    fn push(&mut self, e: Entry) {
        if self.top_taken {
            self.top_taken = false;
            *self.heap.peek_mut().expect("a taken top is still in place") = e;
        } else {
            self.heap.push(e);
        }
    }

    #[inline]
    fn peek(&mut self) -> Option<&Entry> {
        self.settle();
        self.heap.peek()
    }

    #[inline]
    fn pop(&mut self) -> Option<Entry> {
        self.settle();
        let e = *self.heap.peek()?;
        self.top_taken = true;
        Some(e)
    }
}

#[derive(Debug, Default)]
pub struct Scheduler {
    /// Events that are not timers.
    events: Calendar,
    /// Timer wake-ups (`Wake` events), stale ones included until popped.
    timers: Heap,
    next_seq: u64,
    now: Time,
    generations: Vec<u32>,
    /// Events handed out (stale timers excluded).
    pub events_processed: u64,
}

impl Scheduler {
    pub fn new(timer_keys: usize) -> Scheduler {
        Scheduler {
            events: Calendar::default(),
            timers: Heap::with_capacity(timer_keys.min(1 << 16)),
            next_seq: 0,
            now: Time::ZERO,
            generations: vec![0; timer_keys],
            events_processed: 0,
        }
    }

    pub fn now(&self) -> Time {
        self.now
    }

    #[inline(always)]
    fn push(&mut self, at: Time, event: Event, generation: u32) {
        let key = self.reserve();
        self.push_keyed(at, key, event, generation);
    }

    /// Put `event` in its queue under `key` (timers, generation > 0, in
    /// theirs). Packed here, where it is inlined into a caller that knows
    /// the event's kind: packing in the shared body below was a jump table
    /// on the kind, an indirect branch on every push.
    #[inline(always)]
    fn push_keyed(&mut self, at: Time, key: u64, event: Event, generation: u32) {
        // Scheduling into the past would let time run backwards.
        if at < self.now {
            past(at, event, self.now);
        }
        self.push_packed(at.ns(), key, pack(event, generation));
    }

    /// The shared body of every push: one copy, out of line (it holds the
    /// calendar's insert), for the callers' packed words.
    #[inline(never)]
    fn push_packed(&mut self, at: u64, key: u64, packed: u64) {
        debug_assert!(key < self.next_seq, "a reserved key");
        let entry = Entry { at, seq: key, packed };
        // The low word is the timer generation (0: not a timer).
        if packed as u32 == 0 {
            self.events.push(entry);
        } else {
            self.timers.push(entry);
        }
    }

    /// Schedule an event that cannot be cancelled.
    #[inline]
    pub fn schedule(&mut self, at: Time, event: Event) {
        self.push(at, event, 0);
    }

    /// The next unused insertion counter (the next key
    /// [`Scheduler::reserve`] hands out).
    #[inline]
    pub fn next_key(&self) -> u64 {
        self.next_seq
    }

    /// Take the next insertion counter for an event to be scheduled later
    /// with [`Scheduler::schedule_reserved`]: it will run among simultaneous
    /// events as if it had been scheduled now. A link's arrivals use this:
    /// one event per direction stands for a FIFO of propagating frames.
    #[inline]
    pub fn reserve(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq - 1
    }

    /// Schedule an event under a key from [`Scheduler::reserve`].
    #[inline]
    pub fn schedule_reserved(&mut self, at: Time, key: u64, event: Event) {
        self.push_keyed(at, key, event, 0);
    }

    /// Arm timer `key` for `at` with a `Wake { endpoint: key }` event,
    /// replacing any earlier arming of that key.
    pub fn set_timer(&mut self, key: u32, at: Time) {
        let g = &mut self.generations[key as usize];
        // Generation 0 marks events that are not timers: skip it on wrap.
        *g = g.wrapping_add(1).max(1);
        let generation = *g;
        self.push(at, Event::Wake { endpoint: key }, generation);
    }

    pub fn cancel_timer(&mut self, key: u32) {
        let g = &mut self.generations[key as usize];
        *g = g.wrapping_add(1);
    }

    /// The next live event, advancing `now` to its time.
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        loop {
            // The earlier of the two tops (keys are unique: never equal).
            let timer = self.timers.peek().map_or(u128::MAX, Entry::key);
            let e = match self.events.pop_before(timer) {
                Some(e) => e,
                None => self.timers.pop()?,
            };
            let (event, generation) = unpack(e.packed);
            if let Event::Wake { endpoint } = event {
                if self.generations[endpoint as usize] != generation {
                    continue; // cancelled or re-armed
                }
            }
            // The heap order guarantees this; the check documents and guards it.
            assert!(e.at >= self.now.ns(), "time went backwards");
            self.now = Time(e.at);
            self.events_processed += 1;
            return Some((self.now, event));
        }
    }

    /// Time of the next entry (live or stale), if any.
    pub fn peek_time(&mut self) -> Option<Time> {
        let timer = self.timers.peek().map(|t| t.at);
        match (self.events.peek_at(), timer) {
            (Some(e), Some(t)) => Some(Time(e.min(t))),
            (e, t) => e.or(t).map(Time),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
    fn timers_and_other_events_share_one_order() {
        // Same instant: insertion order across the two heaps; earlier times first.
        let mut s = Scheduler::new(3);
        s.schedule(Time(10), Event::FlowStart { flow: 0 });
        s.set_timer(0, Time(10));
        s.schedule(Time(10), Event::TxDone { link: 1, dir: 0 });
        s.set_timer(1, Time(10));
        s.set_timer(2, Time(5));
        s.schedule(Time(7), Event::Arrive { link: 0, dir: 1 });
        let order: Vec<(Time, Event)> = std::iter::from_fn(|| s.pop()).collect();
        assert_eq!(
            order,
            [
                (Time(5), Event::Wake { endpoint: 2 }),
                (Time(7), Event::Arrive { link: 0, dir: 1 }),
                (Time(10), Event::FlowStart { flow: 0 }),
                (Time(10), Event::Wake { endpoint: 0 }),
                (Time(10), Event::TxDone { link: 1, dir: 0 }),
                (Time(10), Event::Wake { endpoint: 1 }),
            ]
        );
    }

    #[test]
    fn rearmed_and_cancelled_timers_do_not_fire() {
        let mut s = Scheduler::new(2);
        s.set_timer(0, Time(10));
        s.set_timer(0, Time(20));
        s.set_timer(1, Time(15));
        s.cancel_timer(1);
        assert_eq!(s.pop(), Some((Time(20), Event::Wake { endpoint: 0 })));
        assert_eq!(s.pop(), None);
        assert_eq!(s.events_processed, 1);
    }

    #[test]
    fn events_survive_packing() {
        for ev in [
            Event::TxDone { link: 7, dir: 1 },
            Event::Arrive { link: 0, dir: 0 },
            Event::Wake { endpoint: 12345 },
            Event::FlowStart { flow: 3 },
            Event::FlowStop { flow: 9 },
        ] {
            assert_eq!(unpack(pack(ev, 77)), (ev, 77));
        }
    }

    #[test]
    fn reserved_keys_order_as_if_scheduled_when_reserved() {
        let mut s = Scheduler::new(0);
        let early = s.reserve();
        s.schedule(Time(10), Event::FlowStart { flow: 1 });
        let late = s.reserve();
        s.schedule_reserved(Time(10), late, Event::FlowStart { flow: 2 });
        s.schedule_reserved(Time(10), early, Event::FlowStart { flow: 0 });
        for f in 0..3 {
            assert_eq!(s.pop(), Some((Time(10), Event::FlowStart { flow: f })));
        }
    }

    #[test]
    #[should_panic(expected = "before now")]
    fn scheduling_into_the_past_is_refused() {
        let mut s = Scheduler::new(0);
        s.schedule(Time(10), Event::FlowStart { flow: 0 });
        s.pop();
        s.schedule(Time(5), Event::FlowStart { flow: 1 });
    }
    /// What the scheduler promises, written the slow way: every pending
    /// entry in a list, the least (time, insertion counter) taken first,
    /// stale timers skipped.
    #[derive(Default)]
    struct Reference {
        pending: Vec<(u64, u64, Event, u32)>,
        generations: Vec<u32>,
        now: u64,
    }

    impl Reference {
        fn pop(&mut self) -> Option<(Time, Event)> {
            loop {
                let i = (0..self.pending.len()).min_by_key(|&i| (self.pending[i].0, self.pending[i].1))?;
                let (at, _, event, generation) = self.pending.swap_remove(i);
                if let Event::Wake { endpoint } = event {
                    if self.generations[endpoint as usize] != generation {
                        continue;
                    }
                }
                self.now = at;
                return Some((Time(at), event));
            }
        }

        fn peek_time(&self) -> Option<Time> {
            self.pending.iter().map(|p| Time(p.0)).min()
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Schedule {
            dt_ns: u64,
        },
        Reserve,
        /// Schedule under the `pick`-th reserved, still unused key.
        ScheduleReserved {
            pick: usize,
            dt_ns: u64,
        },
        SetTimer {
            key: u32,
            dt_ns: u64,
        },
        CancelTimer {
            key: u32,
        },
        Pop,
    }

    fn op() -> impl Strategy<Value = Op> {
        // Mostly small steps, so that many events share an instant (where
        // only the insertion counter decides), and some far ones.
        // Steps of up to 2^26 ns cross the calendar's buckets and its turn
        // (2^24 ns), so entries land in it, wrap round it and go to its far
        // heap.
        let dt = prop_oneof![0..3u64, 0..2_000u64, 0..1u64 << 26, 0..1u64 << 40, Just(u64::MAX >> 2)];
        prop_oneof![
            3 => dt.clone().prop_map(|dt_ns| Op::Schedule { dt_ns }),
            1 => Just(Op::Reserve),
            2 => (0..4usize, dt.clone()).prop_map(|(pick, dt_ns)| Op::ScheduleReserved { pick, dt_ns }),
            1 => (0..4u32, dt).prop_map(|(key, dt_ns)| Op::SetTimer { key, dt_ns }),
            1 => (0..4u32).prop_map(|key| Op::CancelTimer { key }),
            4 => Just(Op::Pop),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Any mix of scheduling, reserved keys (used late, even for the
        /// current instant), timer re-arming and cancelling comes out in the
        /// reference order, and `peek_time` agrees all along.
        #[test]
        fn pops_in_time_then_insertion_order(ops in prop::collection::vec(op(), 1..400)) {
            let mut s = Scheduler::new(4);
            let mut r = Reference { generations: vec![0; 4], ..Reference::default() };
            let mut reserved: Vec<u64> = Vec::new();
            let mut id = 0u32;
            let mut event = || { id += 1; Event::FlowStart { flow: id } };
            for op in ops {
                let now = r.now;
                let at = |dt: u64| now.saturating_add(dt);
                match op {
                    Op::Schedule { dt_ns } => {
                        let ev = event();
                        r.pending.push((at(dt_ns), s.next_seq, ev, 0));
                        s.schedule(Time(at(dt_ns)), ev);
                    }
                    Op::Reserve => reserved.push(s.reserve()),
                    Op::ScheduleReserved { pick, dt_ns } => {
                        if !reserved.is_empty() {
                            let key = reserved.remove(pick % reserved.len());
                            let ev = event();
                            r.pending.push((at(dt_ns), key, ev, 0));
                            s.schedule_reserved(Time(at(dt_ns)), key, ev);
                        }
                    }
                    Op::SetTimer { key, dt_ns } => {
                        s.set_timer(key, Time(at(dt_ns)));
                        let g = s.generations[key as usize];
                        r.generations[key as usize] = g;
                        r.pending.push((at(dt_ns), s.next_seq - 1, Event::Wake { endpoint: key }, g));
                    }
                    Op::CancelTimer { key } => {
                        s.cancel_timer(key);
                        r.generations[key as usize] = s.generations[key as usize];
                    }
                    Op::Pop => {
                        prop_assert_eq!(s.peek_time(), r.peek_time());
                        prop_assert_eq!(s.pop(), r.pop());
                    }
                }
            }
            loop {
                prop_assert_eq!(s.peek_time(), r.peek_time());
                let (a, b) = (s.pop(), r.pop());
                prop_assert_eq!(a, b);
                if a.is_none() {
                    break;
                }
            }
        }
    }
}
