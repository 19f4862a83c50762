//! The persist timer: probing a zero window (RFC 1122 Sec. 4.2.2.17, which
//! makes it a MUST; 4.4BSD `tcp_output`, `tcp_setpersist` and the
//! `TCPT_PERSIST` case of `tcp_timers`, as elaarag-002.md F2 reads them).
//!
//! - A sender with data to send whose peer advertises a zero window enters
//!   persist: its retransmission timer is cancelled and `snd_nxt` pulled
//!   back to `snd_una` (BSD: "If window shrank to 0, cancel pending
//!   retransmit and pull snd_nxt back"), and the persist timer is set.
//! - The interval is clamp(base · backoff\[shift\], 5 s, 60 s), base =
//!   srtt + 2·rttvar ([`crate::rtt::RttEstimator::persist_base_ns`]),
//!   backoff 1, 2, 4, ... 64 (`tcp_backoff`), `shift` counting up with each
//!   setting (`t_rxtshift++` in `tcp_setpersist`): with a short round trip
//!   the probes go at +5 s, +10 s, +15 s, ... until the doubling passes
//!   5 s, and never more than 60 s apart.
//! - On expiry one byte at `snd_una` goes out (BSD's forced one-byte
//!   window), which advances `snd_max` but neither `snd_nxt` nor the
//!   retransmission timer; a probe is not a retransmission in the counters
//!   (`SenderStats::persist_probes`), though the byte may have been sent
//!   before.
//! - An ack that opens the window ends persist (`shift` back to 0):
//!   sending resumes from `snd_una`, cwnd and ssthresh untouched.
//!
//! The persist and retransmission timers never run together in BSD
//! (`tcp_setpersist` panics if `TCPT_REXMT` is set), so the sender keeps
//! the persist deadline in its one timer slot.
//!
//! Departures: the deadline is exact, not on BSD's 500 ms slow-timeout
//! tick; before any round-trip sample the base is the initial RTO (BSD's
//! initial `t_srtt` 0 and `t_rttvar` of 3 s give 6 s; 1 s or 3 s clamp to
//! 5 s); a probe is always one byte (some stacks send a full segment).

use crate::rtt::BSD_BACKOFF;
use lasthop_core::Time;

/// `TCPTV_PERSMIN`: 5 s.
pub const PERSIST_MIN_NS: u64 = 5_000_000_000;
/// `TCPTV_PERSMAX`: 60 s.
pub const PERSIST_MAX_NS: u64 = 60_000_000_000;

/// A sender's persist state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Persist {
    /// Persisting: the one timer slot holds the persist deadline.
    pub active: bool,
    /// `t_rxtshift` while persisting: settings so far.
    pub shift: u32,
    /// A probe is due at the next chance to send.
    pub probe_due: bool,
    /// The sender's `plain` flag, kept while persisting (a persisting
    /// sender takes the path that can send a probe).
    pub plain: bool,
    /// The deadline while persisting (the sender's timer slot holds it
    /// too, until an ack re-arms the slot).
    pub at: Time,
}

impl Default for Persist {
    fn default() -> Persist {
        Persist { active: false, shift: 0, probe_due: false, plain: false, at: Time::NEVER }
    }
}

impl Persist {
    /// Set (or set again) the timer at `now` from a base interval of
    /// `base_ns`: its deadline; the shift counts up (`tcp_setpersist`).
    pub fn set(&mut self, now: Time, base_ns: u64) -> Time {
        let k = BSD_BACKOFF[(self.shift as usize).min(BSD_BACKOFF.len() - 1)];
        let interval = base_ns.saturating_mul(k).clamp(PERSIST_MIN_NS, PERSIST_MAX_NS);
        self.active = true;
        self.shift = (self.shift + 1).min(BSD_BACKOFF.len() as u32 - 1);
        self.at = now.plus_ns(interval);
        self.at
    }

    /// The window opened: persist ends.
    pub fn end(&mut self) {
        *self = Persist::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1_000_000_000;

    #[test]
    fn intervals_double_from_the_base_within_5_and_60_s() {
        // A 100 ms base: 5 s while the doubling stays under it, then 6.4 s,
        // then 60 s at most.
        let mut p = Persist::default();
        let got: Vec<u64> = (0..9).map(|_| p.set(Time::ZERO, S / 10).ns()).collect();
        assert_eq!(got, [5 * S, 5 * S, 5 * S, 5 * S, 5 * S, 5 * S, 6_400_000_000, 6_400_000_000, 6_400_000_000]);
        // A 2 s base: 5, 5 (4 s clamps up), 8, 16, 32, 60 (64 s clamps down), 60.
        let mut p = Persist::default();
        let got: Vec<u64> = (0..7).map(|_| p.set(Time::ZERO, 2 * S).ns()).collect();
        assert_eq!(got, [5 * S, 5 * S, 8 * S, 16 * S, 32 * S, 60 * S, 60 * S]);
        p.end();
        assert_eq!((p.active, p.shift, p.plain, p.at), (false, 0, false, Time::NEVER));
        assert_eq!(p.set(Time::from_ms(1000), 2 * S).ns(), 6 * S, "a new persist starts from the bottom");
    }
}
