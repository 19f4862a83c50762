//! The TCP timestamp option (RFC 7323 Sec. 3) at both ends, with values in
//! nanoseconds of simulated time.
//!
//! Seed 001 needs it twice (Secs. 6.1, 6.3, 8.3): the data sender puts a
//! fine-grained clock in TSval and reads its echo for the exact round trip
//! that paces its bursts; the ACC receiver puts its own clock in the acks'
//! TSval and reads the sender's echo to act at most once per round trip.
//!
//! Which TSval the receiver echoes is RFC 7323 Sec. 4.3's TS.Recent rule:
//! "If SEG.TSval >= TS.Recent and SEG.SEQ <= Last.ACK.sent then SEG.TSval is
//! copied to TS.Recent". With delayed acks this echoes the first segment
//! after the last ack (so the round trip includes the ack's delay), and an
//! ack for an out-of-order segment echoes the last in-order one. ns-2.35's
//! default sink does the same (`Acker::update_ts` with `ts_echo_bugfix_`
//! true, "default changed, 2003/8/13"); the 1997 code the paper ran echoed
//! the segment that caused the ack. The data sender keeps the newest ack
//! TSval (acks carry no data, so RFC 7323's sequence test always holds).
//!
//! Departure: the wire sizes of segments and acks come from the scenario
//! (`header_bytes`, `ack_bytes`); the option's 12 bytes are not added.

use lasthop_core::{Time, Timestamps};

/// The data sender's side.
#[derive(Clone, Copy, Debug, Default)]
pub struct SenderTimestamps {
    /// The newest TSval of an ack, in ns (0 until an ack arrives).
    recent_ns: u64,
}

impl SenderTimestamps {
    /// An ack arrived carrying `ts`.
    pub fn on_ack(&mut self, ts: Option<Timestamps>) {
        if let Some(ts) = ts {
            self.recent_ns = self.recent_ns.max(ts.val_ns);
        }
    }

    /// The option for a segment sent at `now`.
    pub fn stamp(&self, now: Time) -> Timestamps {
        Timestamps { val_ns: now.ns(), ecr_ns: self.recent_ns }
    }
}

/// The data receiver's side.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReceiverTimestamps {
    /// TS.Recent, in ns.
    recent_ns: u64,
    /// Last.ACK.sent: the cumulative ack of the last ack sent.
    last_ack_sent: u64,
}

impl ReceiverTimestamps {
    /// A data segment starting at `seq` arrived carrying `ts`.
    pub fn on_segment(&mut self, seq: u64, ts: Option<Timestamps>) {
        if let Some(ts) = ts {
            if ts.val_ns >= self.recent_ns && seq <= self.last_ack_sent {
                self.recent_ns = ts.val_ns;
            }
        }
    }

    /// The option for an ack of `ack` sent at `now`.
    pub fn stamp(&mut self, now: Time, ack: u64) -> Timestamps {
        self.last_ack_sent = ack;
        Timestamps { val_ns: now.ns(), ecr_ns: self.recent_ns }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(val_ms: u64) -> Option<Timestamps> {
        Some(Timestamps { val_ns: Time::from_ms(val_ms).ns(), ecr_ns: 0 })
    }

    #[test]
    fn receiver_echoes_ts_recent_per_rfc7323() {
        let mut r = ReceiverTimestamps::default();
        // t0, t1: two in-order segments, one delayed ack: the first is echoed.
        r.on_segment(0, ts(0));
        r.on_segment(1000, ts(1));
        assert_eq!(r.stamp(Time::from_ms(5), 2000).ecr_ns, Time::from_ms(0).ns());
        // t10: 2000 is lost, 3000 arrives out of order: its ack echoes the
        // last segment at the left edge, not 3000's.
        r.on_segment(3000, ts(10));
        assert_eq!(r.stamp(Time::from_ms(12), 2000).ecr_ns, Time::from_ms(0).ns());
        // t20: the retransmission of 2000 fills the hole: its TSval is echoed.
        r.on_segment(2000, ts(20));
        assert_eq!(r.stamp(Time::from_ms(22), 4000), Timestamps { val_ns: 22_000_000, ecr_ns: 20_000_000 });
    }

    #[test]
    fn sender_echoes_the_newest_ack_tsval() {
        let mut s = SenderTimestamps::default();
        assert_eq!(s.stamp(Time::from_ms(1)), Timestamps { val_ns: 1_000_000, ecr_ns: 0 });
        s.on_ack(ts(7));
        s.on_ack(ts(3));
        s.on_ack(None);
        assert_eq!(s.stamp(Time::from_ms(9)).ecr_ns, 7_000_000);
    }
}
