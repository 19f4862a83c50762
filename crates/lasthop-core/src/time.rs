//! Simulated time: integer nanoseconds since the start of a run.
//!
//! Integer time keeps runs bit-for-bit repeatable: no model ever compares two
//! floating-point clocks. Conversions from seconds round to the nearest
//! nanosecond, once, when a scenario is loaded.

use std::fmt;

/// A point in simulated time, in nanoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub u64);

pub const NS_PER_US: u64 = 1_000;
pub const NS_PER_MS: u64 = 1_000_000;
pub const NS_PER_S: u64 = 1_000_000_000;

impl Time {
    pub const ZERO: Time = Time(0);
    /// Later than any event of a run: the "never" of `poll_at`-style APIs.
    pub const NEVER: Time = Time(u64::MAX);

    pub const fn from_ns(ns: u64) -> Time {
        Time(ns)
    }
    pub const fn from_ms(ms: u64) -> Time {
        Time(ms * NS_PER_MS)
    }
    /// Seconds to nanoseconds, rounded to the nearest nanosecond.
    pub fn from_secs_f64(s: f64) -> Time {
        Time(secs_to_ns(s))
    }
    pub const fn ns(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NS_PER_S as f64
    }
    /// `self + ns`, saturating at [`Time::NEVER`].
    pub const fn plus_ns(self, ns: u64) -> Time {
        Time(self.0.saturating_add(ns))
    }
    /// Nanoseconds from `earlier` to `self` (0 if `earlier` is later).
    pub const fn since(self, earlier: Time) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

/// Seconds (a scenario's unit) to nanoseconds, rounded to the nearest one.
pub fn secs_to_ns(s: f64) -> u64 {
    (s * NS_PER_S as f64).round() as u64
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_to_the_nearest_nanosecond() {
        assert_eq!(Time::from_secs_f64(0.0000000014).ns(), 1);
        assert_eq!(Time::from_secs_f64(1.5).ns(), 1_500_000_000);
        assert_eq!(Time::from_ms(200).as_secs_f64(), 0.2);
        assert_eq!(Time::NEVER.plus_ns(5), Time::NEVER);
        assert_eq!(Time(5).since(Time(9)), 0);
    }
}
