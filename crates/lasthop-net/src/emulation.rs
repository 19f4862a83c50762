//! The testbed's link emulator (seed 001 Sec. 8.1, Fig. F16): a BSD/OS
//! kernel module that emulates a slow link (the 28.8 kb/s dialup of Secs.
//! 8.4 and 9) over a fast channel, in two stages driven by the kernel's
//! coarse clock ([`KernelClock`], 10 ms ticks [R: hz = 100]).
//!
//! 1. Bandwidth emulation: "the transmission time of the packet at the head
//!    of the input queue is computed (size / bandwidth) and a timer set to
//!    expire when its transmission is supposed to end"; packets arriving
//!    meanwhile wait in this queue, on which "ack filtering and RED packet
//!    marking operate" (here: the direction's queue and its discipline, and
//!    the head in transmission is the frame on the medium). On expiry the
//!    head moves to stage 2 and the next head starts.
//! 2. Delay emulation: a callout queue, strictly FIFO, adds the
//!    propagation delay with overlapping delays; only its head has a timer,
//!    and when it fires the head goes to the device driver and a timer is
//!    set for the remaining delay of the new head.
//!
//! Every timer is a BSD timeout ([`KernelClock::timeout`]): it fires on a
//! tick, up to a tick early (hzto() truncates the wait to whole ticks) or
//! late (a wait under a tick lasts to the next one). The paper: "with a
//! backlog in the input queue, scheduling inaccuracies of successive
//! packets tend to cancel (one packet may be sent a bit early, the next may
//! overshoot a bit)". That holds only if one timer's error does not shift
//! the next transmission, so the emulator keeps the ideal timeline and
//! quantises only the actions:
//!
//! - A frame that finds the emulator busy (it waited in the queue when the
//!   previous head's timer fired) starts its transmission at the previous
//!   frame's *ideal* end `e(i-1)`, not at the tick that moved it; a frame
//!   that finds it idle starts at its arrival. Its ideal end is
//!   `e(i) = start + size/bandwidth`; the timer for it is armed when the
//!   frame becomes the head. A frame whose ideal end has already passed
//!   then (a frame shorter than the previous one's early or late firing)
//!   moves in the same handler run, so a backlog drains at the emulated
//!   rate however the tick divides it. Over a backlog the n-th frame leaves
//!   stage 1 within about a tick of `n` transmission times: the errors do
//!   not accumulate.
//! - In stage 2 a frame's delay counts from when it entered: it is due at
//!   `enter + delay`, and its timer is armed when it becomes the head (on
//!   entry if the stage was empty, else when the frame ahead leaves); one
//!   already due then leaves in the same handler run (FIFO either way).
//!
//! Departures: the real channel's own transmission and propagation are
//! ignored, as the paper says (a fast channel under a slow emulated link);
//! the per-frame overheads of the direction count in the transmission time
//! like a packet's bytes.

use lasthop_core::tick::KernelClock;
use lasthop_core::Time;

/// The emulator of one link direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emulator {
    clock: KernelClock,
    /// Ideal end of the latest transmission.
    ideal_end: Time,
    /// When the latest head moved to stage 2, frames were waiting behind it:
    /// the next one starts at `ideal_end`.
    backlogged: bool,
    /// When the latest frame leaves stage 2.
    last_exit: Time,
}

impl Emulator {
    pub fn new(clock: KernelClock) -> Emulator {
        Emulator { clock, ideal_end: Time::ZERO, backlogged: false, last_exit: Time::ZERO }
    }

    pub fn clock(&self) -> KernelClock {
        self.clock
    }

    /// A frame of `tx_ns` transmission time becomes the head at `now`.
    /// Returns when it moves to stage 2 (never before `now`).
    pub fn start(&mut self, now: Time, tx_ns: u64) -> Time {
        let start = if std::mem::take(&mut self.backlogged) { self.ideal_end } else { now };
        self.ideal_end = start.plus_ns(tx_ns);
        if self.ideal_end <= now {
            return now;
        }
        self.clock.timeout(now, self.ideal_end)
    }

    /// The head moved to stage 2 at `now`; `waiting`: frames wait behind it.
    /// Returns when it leaves stage 2 for the far end.
    pub fn finish(&mut self, now: Time, delay_ns: u64, waiting: bool) -> Time {
        self.backlogged = waiting;
        let due = now.plus_ns(delay_ns);
        let head_at = now.max(self.last_exit);
        self.last_exit = if due <= head_at { head_at } else { self.clock.timeout(head_at, due) };
        self.last_exit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// Ticks every 10 ms at phase `phase_ms`.
    fn emu(phase_ms: u64) -> Emulator {
        Emulator::new(KernelClock::new(10 * MS, phase_ms * MS))
    }

    #[test]
    fn an_idle_emulator_starts_at_the_arrival_and_moves_on_a_whole_tick() {
        // Ticks at 4, 14, 24, ... ms. t = 1 ms: a 52-byte ack at 28.8 kb/s
        // (14.444445 ms) arrives at an idle emulator, ideal end 15.444445 ms:
        // hzto() truncates the wait to one tick, and the first tick comes at
        // 4 ms: it moves to stage 2 11.4 ms early.
        let mut e = emu(4);
        let moved = e.start(Time(MS), 14_444_445);
        assert_eq!(moved, Time(4 * MS));
        // 50 ms of delay from 4 ms: five ticks, the 54 ms one (on time).
        assert_eq!(e.finish(moved, 50 * MS, false), Time(54 * MS));
        // A second frame due at 60 ms becomes the head when the first leaves
        // at 54 ms: 6 ms left, under a tick, so the 64 ms tick (4 ms late).
        assert_eq!(e.finish(moved, 56 * MS, false), Time(64 * MS));
        // A wait under a tick lasts to the next one (late).
        assert_eq!(e.finish(Time(64 * MS), 3 * MS, false), Time(74 * MS));
    }

    #[test]
    fn a_backlog_keeps_the_ideal_timeline_so_tick_errors_cancel() {
        // Ticks at 0, 10, 20, ... ms; three 14 ms frames queued at t = 0:
        // ideal ends 14, 28 and 42 ms.
        let mut e = emu(0);
        let m1 = e.start(Time::ZERO, 14 * MS);
        assert_eq!(m1, Time(10 * MS), "one whole tick: 4 ms early");
        e.finish(m1, 0, true);
        let m2 = e.start(m1, 14 * MS);
        assert_eq!(m2, Time(20 * MS), "from the ideal 14 ms: due 28, one tick from 10: 8 ms early");
        e.finish(m2, 0, true);
        let m3 = e.start(m2, 14 * MS);
        assert_eq!(m3, Time(40 * MS), "due 42, two ticks from 20: 2 ms early");
        // Timed from each move instead, a 14 ms wait would be one tick every
        // time: 10, 20, 30 ms, a link 40% too fast.
        e.finish(m3, 0, false);
        // The queue emptied: the next frame, at 55 ms, starts when it arrives.
        assert_eq!(e.start(Time(55 * MS), 14 * MS), Time(60 * MS));
    }

    #[test]
    fn short_frames_behind_a_backlog_move_in_the_same_handler_run() {
        // 1 ms frames (10 Mb/s, 1250 bytes) queued behind one another: each
        // starts at the previous ideal end; those already due when they
        // become the head move at once, ten per tick.
        let mut e = emu(0);
        let mut now = Time::ZERO;
        let mut moves = Vec::new();
        for _ in 0..25 {
            now = e.start(now, MS);
            e.finish(now, 0, true);
            moves.push(now.ns() / MS);
        }
        let expected: Vec<u64> = (1..=25).map(|i: u64| i.div_ceil(10) * 10).collect();
        assert_eq!(moves, expected, "the emulated rate");
    }

    #[test]
    fn the_exit_time_follows_the_tick_phase_to_the_nanosecond() {
        // One 1000-byte frame at 28.8 kb/s (277.777778 ms) arriving at t = 0,
        // 50 ms of delay: 27 whole ticks from the first tick after 0, then 5.
        for (phase_ns, first_ns) in [(0, 10 * MS), (1, 1), (7_777_778, 7_777_778), (9_999_999, 9_999_999)] {
            let mut e = Emulator::new(KernelClock::new(10 * MS, phase_ns));
            let moved = e.start(Time::ZERO, 277_777_778);
            assert_eq!(moved, Time(first_ns + 260 * MS), "phase {phase_ns}");
            assert_eq!(e.finish(moved, 50 * MS, false), Time(first_ns + 310 * MS), "phase {phase_ns}");
        }
    }

    #[test]
    fn an_emulated_link_direction_delivers_on_ticks_in_fifo_order() {
        use crate::error::ErrorModel;
        use crate::mac::point_to_point::LinkDir;
        use crate::mac::test_support::{plain_dir, queued_link, send_back_to_back};
        // 28.8 kb/s, 50 ms, ticks at 3, 13, 23, ... ms: three 52-byte frames
        // (an ack's size, 14.444445 ms each) offered at t = 0.
        let p = plain_dir(28_800, 50 * MS);
        let ab = LinkDir::new(p, ErrorModel::none()).with_emulator(Some(emu(3)));
        let (mut link, mut pool) = queued_link(ab, p, &[52, 52, 52]);
        // Ideal ends 14.44, 28.89, 43.33 ms: moved on the 3, 23 and 43 ms
        // ticks (whole ticks from each move to the next ideal end), then each
        // 50 ms in the delay queue, its timer armed when the one ahead left.
        let exits = send_back_to_back(&mut link, &mut pool, 3);
        assert_eq!(exits, vec![(3 * MS, 53 * MS), (23 * MS, 73 * MS), (43 * MS, 93 * MS)]);
        for uid in 0..3 {
            let a = link.take_arrival(Time(exits[uid].1), 3, 0, &mut pool);
            assert_eq!(pool.take(a.pkt).uid, uid as u64);
            // The next frame's arrival, with the key it went under.
            assert_eq!(a.next, exits.get(uid + 1).map(|e| (Time(e.1), uid as u64 + 1)));
        }
        // The emulator was held until each tick: 43 ms of 43.
        assert_eq!(link.dirs[0].busy_ns(Time(43 * MS)), 43 * MS);
    }
}
