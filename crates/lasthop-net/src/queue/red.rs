//! RED with ECN marking (Floyd and Jacobson, "Random Early Detection
//! Gateways for Congestion Avoidance", IEEE/ACM ToN 1993, Sec. 4 and its
//! Fig. 2; seed 001 S6.1 and S7.1; reading Sec. 1.5).
//!
//! On each arrival the average queue size is updated from the packets
//! waiting, `avg = (1 - w_q) avg + w_q q`; if the direction was idle since
//! time t, `avg` first decays as if `m` packets had arrived to an empty
//! queue, `avg = (1 - w_q)^m avg`, with `m` the number of packets of
//! `idle_packet_bytes` the direction could have sent since t (F&J's
//! "typical small packets"; idle means nothing waiting nor on the medium).
//! Then, per F&J:
//!
//! - `avg < min_th`: no mark, `count = -1`;
//! - `min_th <= avg < max_th`: `count += 1`, `p_b = max_p (avg - min_th) /
//!   (max_th - min_th)`, mark with probability `p_a = p_b / (1 - count p_b)`
//!   (1 once `count p_b >= 1`), and `count = 0` after a mark: marks are
//!   spaced about uniformly instead of geometrically;
//! - `avg >= max_th`: mark, `count = 0`.
//!
//! A mark sets CE on an ECN-capable packet; a packet that is not
//! ECN-capable is dropped instead (RFC 3168 Sec. 7), which is the only
//! drop RED makes. Otherwise drops happen only when the buffer is
//! physically full (seed 001 S7.1: "the RED gateway marks packets (acks)
//! and drops packets only when the queue is full"). Pure acks are marked
//! as well as data (seed 001 S6.1; ns-2.35 in general could not, as its
//! RED marks only packets whose header says ECT and its acks mostly did
//! not); `mark_acks = false` marks data only (seed 001 S7.1, the run with
//! "RED feedback applied to data only").
//!
//! Which packet takes the mark: `arriving` (ns-2's default) or `random`, a
//! uniformly random one among those waiting and the arrival (the paper:
//! the gateway "selects a packet at random"; ns-2's `random_ecn_`). With
//! `mark_acks = false` only data packets are candidates; an arrival that
//! finds no candidate (with `arriving`, a pure ack) updates the average but
//! runs no test, so `count` counts the arrivals that could have been marked.
//!
//! Departures from ns-2's `Queue/RED` (which the paper ran, in a 1997
//! version): no `gentle_` ramp and no forced drop above `max_th` (the
//! paper's gateway marks there; F&J mark every arrival above `max_th`);
//! `wait_` is off (F&J's `p_b / (1 - count p_b)`, as tcl/ex/asym/util.tcl
//! sets); an arrival is tested whatever the queue's length (ns-2 tests only
//! when more than one packet waits); the first arrival above `min_th` is
//! tested (ns-2 skips it and sets `count = 1`). The average and the thresholds
//! are in packets whatever the limit counts. Idle is ns-2's: the time
//! since the direction's last frame ended with nothing waiting (F&J say
//! "when the queue becomes empty").

use super::QueueLimit;
use lasthop_core::rng::RngStream;
use lasthop_core::Time;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which packet RED marks (or drops, if it is not ECN-capable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MarkVictim {
    /// The arriving packet (ns-2's default).
    #[default]
    Arriving,
    /// A uniformly random packet among those waiting and the arrival
    /// (seed 001 S6.1; ns-2's `random_ecn_`).
    Random,
}

/// RED settings of a link direction (the `red` table of its `queue`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RedConfig {
    /// min_th: below this average queue size, in packets, nothing is marked.
    pub min_packets: f64,
    /// max_th: from this average queue size, in packets, every arrival is
    /// marked; at most the queue's packet limit.
    pub max_packets: f64,
    /// w_q, the weight of each arrival's sample in the average, in (0, 1]
    /// (default 0.01: ns-2 tcl/ex/asym/util.tcl `q_weight_`).
    #[serde(default = "default_weight")]
    pub weight: f64,
    /// max_p, the mark probability as the average reaches max_th, in (0, 1]
    /// (default 0.1: ns-2 tcl/ex/asym/util.tcl `linterm_ 10`).
    #[serde(default = "default_max_p")]
    pub max_p: f64,
    /// Which packet takes a mark: `arriving` (default) or `random`.
    #[serde(default)]
    pub mark: MarkVictim,
    /// Whether pure acks may be marked (default true); false marks data only.
    #[serde(default = "default_true")]
    pub mark_acks: bool,
    /// Size of F&J's "typical small packet", in bytes: the average decays
    /// by one sample of an empty queue per such packet the direction could
    /// have sent while idle (default 500: ns-2's `mean_pktsize_`).
    #[serde(default = "default_idle_packet_bytes")]
    pub idle_packet_bytes: u32,
}

fn default_weight() -> f64 {
    0.01
}
fn default_max_p() -> f64 {
    0.1
}
fn default_true() -> bool {
    true
}
fn default_idle_packet_bytes() -> u32 {
    500
}

/// Whether `x` lies in (0, 1].
fn fraction(x: f64) -> bool {
    x > 0.0 && x <= 1.0
}

impl RedConfig {
    /// Check the settings against the queue's `limit`; an error names the
    /// field (relative to the `red` table) and says why.
    pub fn validate(&self, limit: QueueLimit) -> Result<(), (String, String)> {
        let err = |f: &str, r: String| Err((f.to_string(), r));
        let (min, max) = (self.min_packets, self.max_packets);
        if !(min.is_finite() && min >= 0.0) {
            return err("min_packets", format!("must be a number >= 0, got {min}"));
        }
        if !max.is_finite() {
            return err("max_packets", format!("must be a finite number, got {max}"));
        }
        if min >= max {
            return err("min_packets", format!("must be below max_packets ({max}), got {min}"));
        }
        if let Some(n) = limit.packets {
            if max > f64::from(n) {
                return err("max_packets", format!("must not exceed the queue limit of {n} packets, got {max}"));
            }
        }
        if !fraction(self.weight) {
            return err("weight", format!("must be in (0, 1], got {}", self.weight));
        }
        if !fraction(self.max_p) {
            return err("max_p", format!("must be in (0, 1], got {}", self.max_p));
        }
        if self.idle_packet_bytes == 0 {
            return err("idle_packet_bytes", "must be at least 1".to_string());
        }
        Ok(())
    }
}

/// RED's state on one link direction.
#[derive(Clone, Debug)]
pub struct Red {
    min_th: f64,
    max_th: f64,
    w_q: f64,
    max_p: f64,
    pub mark: MarkVictim,
    pub mark_acks: bool,
    /// Medium time of a typical small packet, in ns (at least 1).
    typical_packet_ns: u64,
    /// F&J's avg, in packets.
    avg: f64,
    /// Arrivals tested since the last mark (-1: the average is below min_th).
    count: i64,
}

impl Red {
    /// `typical_packet_ns`: this direction's medium time of a packet of
    /// `cfg.idle_packet_bytes`.
    pub fn new(cfg: &RedConfig, typical_packet_ns: u64) -> Red {
        Red {
            min_th: cfg.min_packets,
            max_th: cfg.max_packets,
            w_q: cfg.weight,
            max_p: cfg.max_p,
            mark: cfg.mark,
            mark_acks: cfg.mark_acks,
            typical_packet_ns: typical_packet_ns.max(1),
            avg: 0.0,
            count: -1,
        }
    }

    /// Update the average for an arrival at `now` that finds `queued`
    /// packets waiting, and the direction idle since `idle_since` if it is
    /// (nothing waiting nor on the medium).
    pub fn on_arrival(&mut self, now: Time, queued: usize, idle_since: Option<Time>) {
        if let Some(t) = idle_since {
            let m = now.since(t) / self.typical_packet_ns;
            if m > 0 {
                self.avg *= (1.0 - self.w_q).powf(m as f64);
            }
        }
        self.avg = (1.0 - self.w_q) * self.avg + self.w_q * queued as f64;
    }

    /// F&J's decision after [`Red::on_arrival`]: true if a packet is to be
    /// marked. `candidate` says whether any packet may take the mark; with
    /// none the arrival runs no test (and draws nothing).
    pub fn should_mark(&mut self, candidate: bool, rng: &mut RngStream) -> bool {
        if self.avg < self.min_th {
            self.count = -1;
            return false;
        }
        if !candidate {
            return false;
        }
        if self.avg >= self.max_th {
            self.count = 0;
            return true;
        }
        self.count += 1;
        let p_b = self.max_p * (self.avg - self.min_th) / (self.max_th - self.min_th);
        let spent = self.count as f64 * p_b;
        let p_a = if spent >= 1.0 { 1.0 } else { p_b / (1.0 - spent) };
        if rng.uniform() < p_a {
            self.count = 0;
            true
        } else {
            false
        }
    }

    /// The average queue size, in packets.
    pub fn average(&self) -> f64 {
        self.avg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(min: f64, max: f64) -> RedConfig {
        RedConfig {
            min_packets: min,
            max_packets: max,
            weight: 0.01,
            max_p: 0.1,
            mark: MarkVictim::Arriving,
            mark_acks: true,
            idle_packet_bytes: 500,
        }
    }

    #[test]
    fn the_average_follows_the_ewma_and_decays_while_idle() {
        let mut red = Red::new(&RedConfig { weight: 0.5, ..cfg(2.0, 6.0) }, 1_000);
        // t0: an arrival finds 4 waiting: avg = 0.5 * 0 + 0.5 * 4 = 2.
        red.on_arrival(Time(0), 4, None);
        assert_eq!(red.average(), 2.0);
        // t1: 6 waiting: avg = 0.5 * 2 + 0.5 * 6 = 4.
        red.on_arrival(Time(10), 6, None);
        assert_eq!(red.average(), 4.0);
        // The direction went idle at 20 ns; 3.5 typical packets' time later
        // an arrival finds it idle: avg = 0.5^3 * 4 = 0.5, then 0.5 * 0.5.
        red.on_arrival(Time(3_520), 0, Some(Time(20)));
        assert_eq!(red.average(), 0.25);
        // An empty queue behind a frame on the medium is not idle: no decay.
        red.on_arrival(Time(10_000), 0, None);
        assert_eq!(red.average(), 0.125);
    }

    #[test]
    fn marks_are_spaced_by_count() {
        // avg pinned between the thresholds (w_q = 1: avg = q): p_b = 0.1 *
        // (4 - 2) / (6 - 2) = 0.05. The k-th arrival after a mark has count
        // k and p_a = p_b / (1 - k p_b), which makes every gap from 1 to 19
        // arrivals equally likely (each with probability p_b / (1 - p_b)) and 19 the
        // longest (p_a = 1 there).
        let mut red = Red::new(&RedConfig { weight: 1.0, ..cfg(2.0, 6.0) }, 1);
        let mut rng = RngStream::new(9, "red");
        let (mut since, mut gaps) = (0u32, Vec::new());
        for i in 0..20_000 {
            red.on_arrival(Time(i), 4, None);
            since += 1;
            if red.should_mark(true, &mut rng) {
                gaps.push(since);
                since = 0;
            }
        }
        assert!(gaps.iter().all(|&g| (1..=19).contains(&g)), "{:?}", gaps.iter().max());
        // Uniform spacing on 1..=19 has mean 10 (marks drawn independently
        // with p = 0.05 would have mean 20 and gaps far beyond 19).
        let mean = gaps.iter().map(|&g| f64::from(g)).sum::<f64>() / gaps.len() as f64;
        assert!((mean - 10.0).abs() < 0.4, "{mean}");
    }

    #[test]
    fn below_min_nothing_above_max_everything() {
        let mut red = Red::new(&RedConfig { weight: 1.0, ..cfg(2.0, 6.0) }, 1);
        let mut rng = RngStream::new(1, "red");
        red.on_arrival(Time(0), 1, None);
        assert!((0..100).all(|_| !red.should_mark(true, &mut rng)));
        red.on_arrival(Time(1), 6, None);
        assert!((0..100).all(|_| red.should_mark(true, &mut rng)));
        // No candidate: no mark even above max_th.
        assert!(!red.should_mark(false, &mut rng));
    }

    #[test]
    fn settings_are_checked_with_their_field() {
        let limit = QueueLimit { packets: Some(10), bytes: None };
        assert!(cfg(2.0, 6.0).validate(limit).is_ok());
        let field = |c: RedConfig| c.validate(limit).unwrap_err().0;
        assert_eq!(field(cfg(6.0, 6.0)), "min_packets");
        assert_eq!(field(cfg(-1.0, 6.0)), "min_packets");
        assert_eq!(field(cfg(2.0, 11.0)), "max_packets");
        assert_eq!(field(cfg(2.0, f64::NAN)), "max_packets");
        assert_eq!(field(RedConfig { weight: 0.0, ..cfg(2.0, 6.0) }), "weight");
        assert_eq!(field(RedConfig { max_p: 1.5, ..cfg(2.0, 6.0) }), "max_p");
        assert_eq!(field(RedConfig { idle_packet_bytes: 0, ..cfg(2.0, 6.0) }), "idle_packet_bytes");
        // A limit in bytes only does not bound the thresholds (they are in packets).
        assert!(cfg(2.0, 60.0).validate(QueueLimit { packets: None, bytes: Some(1000) }).is_ok());
    }
}
