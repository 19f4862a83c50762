//! TCP-Jersey's congestion warning (CW) router configuration (Kai Xu, Ye
//! Tian, Nirwan Ansari, "TCP-Jersey for wireless IP communications", IEEE
//! JSAC 22(4):747-756, 2004; seed 004 Sec. 2.2; reading in
//! shared/reference/yun-004.md Sec. 3 and Sec. 7 row 21): a DropTail queue
//! that, instead of RED's random early marks, marks *every* packet while a
//! sign of incipient congestion lasts, so that a Jersey sender can tell a
//! congestion loss (its duplicate acks echo the marks) from a wireless one
//! (they do not). The sender side is lasthop-tcp's `cc/jersey.rs`.
//!
//! On each arrival the average queue size is updated as RED's (Floyd and
//! Jacobson 1993; [`super::red`]): `avg = (1 - w_q) avg + w_q q`, with `q`
//! the packets the arrival finds waiting, and after an idle period `avg =
//! (1 - w_q)^m avg` first, `m` the packets of `idle_packet_bytes` the
//! direction could have sent meanwhile. An arrival admitted while `avg >
//! threshold_packets` is marked CE if it is ECN-capable; one that is not
//! passes unmarked (a warning, never a drop). Drops happen only when the
//! buffer is full, at the tail. No probability, no count, no max_th.
//!
//! Constants: the paper's could not be read here. The defaults, w_q = 0.002
//! and a threshold of 5 packets, are the reference's suggestion (yun-004.md
//! Sec. 3, marked \[I\]), which is RED's in ns-2 before its automatic
//! configuration (`tcl/lib/ns-default.tcl`: "# Queue/RED set q_weight_
//! 0.002", "# Queue/RED set thresh_ 5", changed 12/29/01) and F&J 1993's
//! w_q. Unverified against the paper.
//!
//! Departures: the threshold is in packets whatever the limit counts (as
//! RED's here); an arrival the full buffer refuses still updates the
//! average but is not marked (nor counted as a mark).

use super::QueueLimit;
use lasthop_core::Time;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Jersey's CW settings of a link direction (the `jersey_cw` table of its
/// `queue`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CwConfig {
    /// Above this average queue size, in packets, every ECN-capable arrival
    /// is marked CE (default 5: unverified against the paper; ns-2's old
    /// RED `thresh_`, the reference's suggestion). Below the packet limit.
    #[serde(default = "default_threshold_packets")]
    pub threshold_packets: f64,
    /// w_q, the weight of each arrival's sample in the average, in (0, 1]
    /// (default 0.002: unverified against the paper; F&J 1993 and ns-2's
    /// old RED `q_weight_`).
    #[serde(default = "default_weight")]
    pub weight: f64,
    /// Size of the "typical small packet" of RED's idle rule, in bytes
    /// (default 500: ns-2's `mean_pktsize_`, as the `red` table's).
    #[serde(default = "default_idle_packet_bytes")]
    pub idle_packet_bytes: u32,
}

fn default_threshold_packets() -> f64 {
    5.0
}
fn default_weight() -> f64 {
    0.002
}
fn default_idle_packet_bytes() -> u32 {
    500
}

impl Default for CwConfig {
    fn default() -> CwConfig {
        CwConfig {
            threshold_packets: default_threshold_packets(),
            weight: default_weight(),
            idle_packet_bytes: default_idle_packet_bytes(),
        }
    }
}

impl CwConfig {
    /// Check the settings against the queue's `limit`; an error names the
    /// field (relative to the `jersey_cw` table) and says why.
    pub fn validate(&self, limit: QueueLimit) -> Result<(), (String, String)> {
        let th = self.threshold_packets;
        if !(th.is_finite() && th >= 0.0) {
            return Err(("threshold_packets".into(), format!("must be a number >= 0, got {th}")));
        }
        if let Some(n) = limit.packets {
            if th >= f64::from(n) {
                return Err((
                    "threshold_packets".into(),
                    format!("must be below the queue limit of {n} packets (the average never exceeds it), got {th}"),
                ));
            }
        }
        if !(self.weight > 0.0 && self.weight <= 1.0) {
            return Err(("weight".into(), format!("must be in (0, 1], got {}", self.weight)));
        }
        if self.idle_packet_bytes == 0 {
            return Err(("idle_packet_bytes".into(), "must be at least 1".into()));
        }
        Ok(())
    }
}

/// CW's state on one link direction.
#[derive(Clone, Debug)]
pub struct Cw {
    threshold: f64,
    w_q: f64,
    /// Medium time of a typical small packet, in ns (at least 1).
    typical_packet_ns: u64,
    /// The average queue size, in packets.
    avg: f64,
}

impl Cw {
    /// `typical_packet_ns`: this direction's medium time of a packet of
    /// `cfg.idle_packet_bytes`.
    pub fn new(cfg: &CwConfig, typical_packet_ns: u64) -> Cw {
        Cw { threshold: cfg.threshold_packets, w_q: cfg.weight, typical_packet_ns: typical_packet_ns.max(1), avg: 0.0 }
    }

    /// An arrival at `now` finds `queued` packets waiting, the direction
    /// idle since `idle_since` if it is: update the average; true if the
    /// arrival is to be marked (the average exceeds the threshold).
    pub fn on_arrival(&mut self, now: Time, queued: usize, idle_since: Option<Time>) -> bool {
        if let Some(t) = idle_since {
            let m = now.since(t) / self.typical_packet_ns;
            if m > 0 {
                self.avg *= (1.0 - self.w_q).powf(m as f64);
            }
        }
        self.avg = (1.0 - self.w_q) * self.avg + self.w_q * queued as f64;
        self.avg > self.threshold
    }

    /// The average queue size, in packets.
    pub fn average(&self) -> f64 {
        self.avg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marking rule on the average: w_q = 0.5, threshold 2 packets.
    #[test]
    fn marks_every_arrival_while_the_average_exceeds_the_threshold() {
        let mut cw = Cw::new(&CwConfig { threshold_packets: 2.0, weight: 0.5, idle_packet_bytes: 500 }, 1_000);
        // Arrivals find 4, 4, 0, 0 waiting: avg = 2 (not above 2: no mark),
        // 3 (mark), 1.5 (no mark), 0.75.
        assert!(!cw.on_arrival(Time(0), 4, None));
        assert_eq!(cw.average(), 2.0);
        assert!(cw.on_arrival(Time(1), 4, None));
        assert_eq!(cw.average(), 3.0);
        assert!(!cw.on_arrival(Time(2), 0, None));
        assert_eq!(cw.average(), 1.5);
        assert!(!cw.on_arrival(Time(3), 0, None));
        // Ten arrivals finding 8 waiting: avg = 4.375, 6.19, 7.09, ... all
        // marked: no probability, no spacing.
        assert!((0..10).all(|i| cw.on_arrival(Time(10 + i), 8, None)));
        assert!(cw.average() > 7.99);
        // Idle since t = 20 ns, an arrival 3.5 typical packets later: avg =
        // 0.5^3 · avg, then 0.5 of that: about 0.5, unmarked.
        let before = cw.average();
        assert!(!cw.on_arrival(Time(3_520), 0, Some(Time(20))));
        assert_eq!(cw.average(), 0.5 * 0.125 * before);
    }

    /// w_q = 0.002 (the default): the average trails a standing queue. A
    /// queue of 10 packets from empty takes n arrivals with 10 (1 -
    /// 0.998^n) > 5, n > ln 0.5 / ln 0.998 = 346.2: the 347th is the first
    /// marked.
    #[test]
    fn the_default_average_needs_347_arrivals_to_warn_of_a_standing_queue_of_10() {
        let mut cw = Cw::new(&CwConfig::default(), 1);
        let first = (1..=1000u64).find(|&n| cw.on_arrival(Time(n), 10, None));
        assert_eq!(first, Some(347));
    }

    #[test]
    fn settings_are_checked_with_their_field() {
        let limit = QueueLimit { packets: Some(50), bytes: None };
        assert!(CwConfig::default().validate(limit).is_ok());
        let field = |c: CwConfig| c.validate(limit).unwrap_err().0;
        assert_eq!(field(CwConfig { threshold_packets: -1.0, ..CwConfig::default() }), "threshold_packets");
        assert_eq!(field(CwConfig { threshold_packets: 50.0, ..CwConfig::default() }), "threshold_packets");
        assert_eq!(field(CwConfig { weight: 0.0, ..CwConfig::default() }), "weight");
        assert_eq!(field(CwConfig { weight: 1.5, ..CwConfig::default() }), "weight");
        assert_eq!(field(CwConfig { idle_packet_bytes: 0, ..CwConfig::default() }), "idle_packet_bytes");
    }
}
