//! Helpers shared by the TCP crate's timeline tests.

#![allow(dead_code)]

use lasthop_core::trace::Trace;
use lasthop_core::Time;
use lasthop_tcp::{Sender, SenderConfig, WindowUpdate};

/// A started Reno sender of a 1 MB transfer, `iw` segments of `mss` bytes
/// of initial window, taking peer windows by `rule`, with its trace.
pub fn reno_sender(mss: u32, iw: u32, rule: WindowUpdate) -> (Sender, Trace) {
    let cfg = SenderConfig {
        initial_cwnd_segments: iw,
        window_update: rule,
        total_bytes: Some(1 << 20),
        ..SenderConfig::reno(mss)
    };
    let mut trace = Trace::new(false);
    let mut s = Sender::new(cfg, 0);
    s.start(Time::ZERO, &mut trace);
    (s, trace)
}
