//! A host's coarse kernel clock (seed 001 Sec. 8.1: "the granularity of the
//! software clock of the operating system, 10 ms", hz = 100 in BSD/OS
//! \[R\]): timeouts fire only on its ticks, at `phase + k·tick` (k >= 0).
//!
//! A timeout is BSD's `timeout(fn, arg, hzto(&when))` ([`KernelClock::timeout`]):
//! 4.4BSD's `hzto()` truncates the wait to whole ticks (milliseconds
//! divided by the tick's), `timeout()` makes a wait of 0 ticks 1 ("if (t <=
//! 0) t = 1"), and `hardclock()` counts the callout down once per tick, so
//! it fires on the n-th tick after it was armed, the first being the next
//! tick however close. A timeout can thus fire up to a tick early (the
//! truncation, and a first tick that comes soon) or late (a wait shorter
//! than a tick still waits for the next one).

use crate::time::Time;

/// Tick instants `phase + k·tick`, k >= 0, in ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelClock {
    tick_ns: u64,
    phase_ns: u64,
}

impl KernelClock {
    /// A clock ticking every `tick_ns` (>= 1) from `phase_ns` (taken modulo the tick).
    pub fn new(tick_ns: u64, phase_ns: u64) -> KernelClock {
        let tick_ns = tick_ns.max(1);
        KernelClock { tick_ns, phase_ns: phase_ns % tick_ns }
    }

    pub fn tick_ns(&self) -> u64 {
        self.tick_ns
    }

    pub fn phase_ns(&self) -> u64 {
        self.phase_ns
    }

    /// The first tick at or after `t` ([`Time::NEVER`] stays never).
    pub fn at_or_after(&self, t: Time) -> Time {
        if t == Time::NEVER {
            return t;
        }
        if t.ns() <= self.phase_ns {
            return Time(self.phase_ns);
        }
        let k = (t.ns() - self.phase_ns).div_ceil(self.tick_ns);
        Time(self.phase_ns).plus_ns(k.saturating_mul(self.tick_ns))
    }

    /// When a timeout armed at `now` for the instant `due` fires: on the
    /// n-th tick after `now`, n = max(1, floor((due - now) / tick)).
    pub fn timeout(&self, now: Time, due: Time) -> Time {
        let n = (due.since(now) / self.tick_ns).max(1);
        self.at_or_after(now.plus_ns(1)).plus_ns((n - 1).saturating_mul(self.tick_ns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_round_up_to_the_phase_grid() {
        // Ticks at 3, 13, 23, ... ms.
        let c = KernelClock::new(10_000_000, 23_000_000);
        assert_eq!(c.phase_ns(), 3_000_000);
        assert_eq!(c.at_or_after(Time::ZERO), Time(3_000_000));
        assert_eq!(c.at_or_after(Time(3_000_000)), Time(3_000_000), "a tick is at or after itself");
        assert_eq!(c.at_or_after(Time(3_000_001)), Time(13_000_000));
        assert_eq!(c.at_or_after(Time(12_999_999)), Time(13_000_000));
        assert_eq!(c.at_or_after(Time::NEVER), Time::NEVER);
    }

    #[test]
    fn a_timeout_counts_whole_ticks_from_the_next_one() {
        let c = KernelClock::new(10_000_000, 3_000_000);
        // Armed on a tick for 1 ms (or 0): the next tick, 10 ms later (late).
        assert_eq!(c.timeout(Time(13_000_000), Time(14_000_000)), Time(23_000_000));
        assert_eq!(c.timeout(Time(13_000_000), Time(13_000_000)), Time(23_000_000));
        // Armed on a tick for 14.4 ms: one whole tick, 4.4 ms early.
        assert_eq!(c.timeout(Time(13_000_000), Time(27_400_000)), Time(23_000_000));
        // Armed between ticks for 14.4 ms: the coming tick, 4 ms away.
        assert_eq!(c.timeout(Time(9_000_000), Time(23_400_000)), Time(13_000_000));
        // 24 ms between ticks: two ticks, the second after the coming one.
        assert_eq!(c.timeout(Time(9_000_000), Time(33_000_000)), Time(23_000_000));
        // A due time already past: the next tick.
        assert_eq!(c.timeout(Time(9_000_000), Time(1_000_000)), Time(13_000_000));
    }
}
