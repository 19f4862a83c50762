//! WTCP's sender (Sinha, Venkitaraman, Sivakumar, Bharghavan, ACM MobiCom
//! 1999; seed 002 Sec. 1; elaarag-002.md Sec. 1.14): a rate-based sender
//! whose rate the receiver sets ([`crate::wtcp`], where the receiver's
//! rules and the tags' meaning are). `variant = "wtcp"`: this controller on
//! SACK recovery, the receiver sending SACK blocks and the rate.
//!
//! Rules:
//! - Rate-based, end-to-end [A]: the sender paces at the rate the newest
//!   ack carries ([`Controller::pacing_rate`], the pacing clock BBR uses);
//!   the window is no limit beyond the peer's advertised window (cwnd held
//!   at its cap) [I: the reading names no window].
//! - Start-up: until a rate arrives, a window of two segments, unpaced:
//!   the packet pair the receiver measures [K].
//! - Losses alone do not lower the rate [A: "not losses or timeouts" is the
//!   survey's; K]: every loss found by duplicate acks or SACK is judged
//!   not congestion ([`LossCause::Corruption`]: retransmitted, no cut).
//!   Reliability: cumulative + selective acks, SACK holes retransmitted
//!   (RFC 6675's scoreboard, lasthop's `recovery::sack`) [K]. The ack
//!   frequency is the receiver's ack policy (`ack = { policy = "delayed",
//!   every_segments = 4 }` in `scenarios/elaarag02/wtcp.toml`) [K].
//! - Blackout [K]: no ack of new data for `blackout_srtt` (4) smoothed
//!   round trips → the sender stops data and probes: its timer fires (the
//!   retransmission timer, re-armed by this member's interval instead of
//!   the RTO: [`Controller::timer_ns`]), the window drops to one segment
//!   and the segment at `snd_una` goes as the probe; every `probe_srtt`
//!   (1) round trips another probe [I: the interval, fixed, not backed
//!   off]. The first ack after → the window reopens and pacing resumes at
//!   the rate held through the blackout (the pre-blackout rate) [K]; no
//!   window collapse and no slow start [K]. The timer restarts on acks of
//!   new data (TCP's rule, [I]): a lost retransmission also ends in a
//!   probe, never in a rate cut.

use super::{AckSample, CongestionEvent, CongestionKind, Controller, LossCause, Param, Window, MAX_PARAMS};
use lasthop_core::time::Time;

pub const NAME: &str = "wtcp";

/// The window while a rate paces: 1 GiB, beyond any advertised window
/// here, so that the peer's window is the only one [I] (a window of
/// `u64::MAX` would overflow `snd_una + cwnd`).
pub const OPEN_WINDOW_BYTES: u64 = 1 << 30;

/// The receiver stamps nothing it needs, but its rate rule reads the
/// sender's send times: the timestamp option.
pub const NEEDS_TIMESTAMPS: bool = true;

pub const PARAMS: &[Param] = &[
    Param { name: "gamma", default: 0.15, source: "rho threshold 1+gamma: elaarag-002.md Sec. 1.14 [K, I]" },
    Param { name: "beta", default: 0.7, source: "multiplicative decrease: elaarag-002.md Sec. 1.14 [K]" },
    Param { name: "alpha_packets", default: 1.0, source: "additive increase, packets per RAP: elaarag-002.md [K]" },
    Param { name: "rap_packets", default: 8.0, source: "a RAP holds at least 8 packets: elaarag-002.md [K]" },
    Param { name: "rap_srtt", default: 1.0, source: "a RAP lasts at least 1 srtt: elaarag-002.md [K]" },
    Param { name: "blackout_srtt", default: 4.0, source: "T_blackout = 4 srtt without acks: elaarag-002.md [K]" },
    Param { name: "probe_srtt", default: 1.0, source: "probe interval in srtt: lasthop's choice [I], no source" },
];

#[derive(Clone, Debug)]
pub struct Wtcp {
    /// The rate the newest ack carried, in bytes per second (0: none yet).
    rate: u64,
    blackout: bool,
    /// Probes sent in the current blackout, and blackouts so far.
    pub probes: u32,
    pub blackouts: u32,
    blackout_srtt: f64,
    probe_srtt: f64,
}

impl Wtcp {
    pub fn new(p: &[f64; MAX_PARAMS], _w: &Window) -> Self {
        Wtcp {
            rate: 0,
            blackout: false,
            probes: 0,
            blackouts: 0,
            blackout_srtt: p[5],
            probe_srtt: p[6],
        }
    }
    pub fn rate(&self) -> u64 {
        self.rate
    }
    pub fn in_blackout(&self) -> bool {
        self.blackout
    }
}

impl Controller for Wtcp {
    fn on_every_ack(&mut self, w: &mut Window, _now: Time, s: &AckSample) {
        if s.peer_rate_bytes_per_s > 0 {
            self.rate = u64::from(s.peer_rate_bytes_per_s);
        }
        self.blackout = false;
        self.probes = 0;
        if self.rate == 0 {
            w.set_cwnd(2 * w.mss()); // the packet pair
        } else {
            w.set_cwnd(OPEN_WINDOW_BYTES); // the rate paces
        }
    }
    fn on_ack(&mut self, _w: &mut Window, _now: Time, _s: &AckSample) {}
    fn judge(&mut self, _w: &Window, _now: Time, ev: &CongestionEvent) -> LossCause {
        match ev.kind {
            CongestionKind::Timeout => LossCause::Congestion,
            _ => LossCause::Corruption,
        }
    }
    fn ssthresh(&mut self, w: &Window, _now: Time, ev: &CongestionEvent) -> u64 {
        if ev.kind == CongestionKind::Timeout {
            w.ssthresh()
        } else {
            w.reno_ssthresh(ev)
        }
    }
    fn on_cut(&mut self, _w: &mut Window, _now: Time, ev: &CongestionEvent) {
        if ev.kind != CongestionKind::Timeout {
            return;
        }
        if !self.blackout {
            self.blackouts += 1;
        }
        self.blackout = true;
        self.probes += 1;
    }
    fn pacing_rate(&self) -> Option<u64> {
        (self.rate > 0).then_some(self.rate)
    }
    fn timer_ns(&self, srtt_ns: Option<u64>) -> Option<u64> {
        let srtt = srtt_ns? as f64;
        let k = if self.blackout { self.probe_srtt } else { self.blackout_srtt };
        Some((k * srtt).max(1.0) as u64)
    }
}
