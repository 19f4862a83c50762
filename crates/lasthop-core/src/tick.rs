//! A host's coarse kernel clock (seed 001 Sec. 8.1: "the granularity of the
//! software clock of the operating system, 10 ms", hz = 100 in BSD/OS
//! [R]): timeouts fire only on its ticks, at `phase + k·tick` (k >= 0).
//!
//! Two readings of a timeout, both BSD's `timeout(fn, arg, ticks)`:
//! - [`KernelClock::at_or_after`]: the first tick at or after an instant
//!   (a callout whose handler finds the work already due runs it at once);
//! - [`KernelClock::fires`]: a timeout armed at `now` for `due` fires on the
//!   first tick at or after `due` and strictly after `now` (4.4BSD
//!   `timeout()`: "if (ticks <= 0) ticks = 1", so the soonest a callout can
//!   fire is the next tick).

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

    /// When a timeout armed at `now` for `due` fires: the first tick at or
    /// after `due` and strictly after `now`.
    pub fn fires(&self, now: Time, due: Time) -> Time {
        self.at_or_after(due.max(now.plus_ns(1)))
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
    fn a_timeout_fires_on_a_later_tick_never_at_once() {
        let c = KernelClock::new(10_000_000, 3_000_000);
        // Armed on a tick for 1 ms: the next tick, 10 ms later.
        assert_eq!(c.fires(Time(13_000_000), Time(14_000_000)), Time(23_000_000));
        // Armed on a tick for 0: still the next tick (BSD: ticks <= 0 is 1).
        assert_eq!(c.fires(Time(13_000_000), Time(13_000_000)), Time(23_000_000));
        // Armed between ticks for 1 ms: the coming tick, 4 ms away.
        assert_eq!(c.fires(Time(9_000_000), Time(10_000_000)), Time(13_000_000));
        // Long waits end on the tick at or after the due time.
        assert_eq!(c.fires(Time(9_000_000), Time(33_000_000)), Time(33_000_000));
        assert_eq!(c.fires(Time(9_000_000), Time(33_000_001)), Time(43_000_000));
    }
}
