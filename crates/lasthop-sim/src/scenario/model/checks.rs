//! The validators' helpers: a field's check and its one-line error, built
//! only when the value is invalid (issue 31: validating a million nodes must
//! not format a million paths).

use super::*;

/// An error's field path or reason, built only when the error is reported:
/// validating a million nodes must not format a million paths (issue 31).
/// A `&str`, a `String`, or a closure that formats one.
pub(crate) trait Text {
    fn text(self) -> String;
}

impl Text for &str {
    fn text(self) -> String {
        self.to_string()
    }
}

impl Text for &String {
    fn text(self) -> String {
        self.clone()
    }
}

impl Text for String {
    fn text(self) -> String {
        self
    }
}

impl<F: FnOnce() -> String> Text for F {
    fn text(self) -> String {
        self()
    }
}

pub(super) fn check(ok: bool, path: impl Text, reason: impl Text) -> Result<(), ScenarioError> {
    if ok {
        Ok(())
    } else {
        Err(ScenarioError::new(path.text(), reason.text()))
    }
}

/// `x` as a user would write it: plain for everyday magnitudes, in
/// exponent form for huge or tiny ones (1e300 rather than 301 digits).
pub(super) fn num(x: f64) -> String {
    let a = x.abs();
    if a != 0.0 && a.is_finite() && !(1e-4..1e15).contains(&a) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

pub(super) fn positive(x: f64, path: impl Text + Copy) -> Result<(), ScenarioError> {
    check(x.is_finite() && x > 0.0, path, || format!("must be a positive number, got {}", num(x)))
}

/// A rate in bit/s: positive and at least 1 b/s (a frame's time is whole
/// nanoseconds of a finite rate).
pub(super) fn bit_rate(x: f64, path: impl Text + Copy) -> Result<(), ScenarioError> {
    positive(x, path)?;
    check(x >= 1.0, path, || format!("must be at least 1 b/s, got {}", num(x)))
}

/// A size that must fit an IPv4 datagram (a MAC header, a control frame).
pub(super) fn at_most_a_packet(v: u32, path: impl Text + Copy) -> Result<(), ScenarioError> {
    check(v <= MAX_PACKET_BYTES, path, || format!("must be at most {MAX_PACKET_BYTES}, got {v}"))
}

pub(super) fn non_negative(x: f64, path: impl Text + Copy) -> Result<(), ScenarioError> {
    check(x.is_finite() && x >= 0.0, path, || format!("must be >= 0, got {}", num(x)))
}

/// A duration of `x` units of `unit_s` seconds each (a field in ms is
/// `duration(x, 1e-3, "ms", ..)`) within the longest run: simulated time is
/// u64 ns, and sums of longer durations would overflow it. Errors speak the
/// field's own unit.
pub(super) fn duration(x: f64, unit_s: f64, unit: &str, path: impl Text + Copy) -> Result<(), ScenarioError> {
    non_negative(x, path)?;
    let most = MAX_STOP_S / unit_s;
    check(x <= most, path, || format!("must be at most {} {unit} (the longest run), got {}", num(most), num(x)))
}

pub(super) fn duration_s(x: f64, path: impl Text + Copy) -> Result<(), ScenarioError> {
    duration(x, 1.0, "s", path)
}
