//! PIE, "Proportional Integral controller Enhanced" (Pan, Natarajan,
//! Baker, White, RFC 8033, February 2017; DOCSIS 3.1's AQM): a drop
//! probability steered by the queueing delay, applied at enqueue.
//!
//! - Random dropping (Sec. 4.1, Appendix A's `enqueue` and `drop_early`):
//!   an arrival is dropped with probability `drop_prob`, except while a
//!   burst allowance lasts, or when the delay is low and `drop_prob`
//!   small (`qdelay_old < QDELAY_REF / 2` and `drop_prob < 0.2`), or when
//!   at most two mean packets wait (the work-conserving safeguard).
//! - The drop probability (Sec. 4.2) is updated every `T_UPDATE` (default
//!   15 ms): `p = alpha (qdelay - QDELAY_REF) + beta (qdelay -
//!   qdelay_old)` with alpha 0.125 and beta 1.25 per second of delay and
//!   QDELAY_REF 15 ms; `p` is scaled down by `drop_prob`'s magnitude (/2048
//!   below 1e-6, /512 below 1e-5, /128, /32, /8 and /2 below 1e-4, 1e-3,
//!   0.01 and 0.1: the auto-tuning of Sec. 4.2); `drop_prob` decays by 2 %
//!   an update while both delays are zero; it stays within [0, 1].
//! - The queueing delay (Sec. 4.3) is measured with timestamps: the
//!   sojourn time of the latest packet to leave, zero once the queue has
//!   emptied (as Linux's `sch_pie` does by default; the RFC's Little's-law
//!   estimate through a measured departure rate, Sec. 5.2, is not used).
//!   The stamps are kept here, beside the packets the queue's
//!   [`super::DropTail`] holds, so that directions without a discipline
//!   pay nothing for them.
//! - Burst tolerance (Sec. 4.4): the allowance (default 150 ms) is reset
//!   while the queue is calm (`drop_prob == 0` and both delays under
//!   half the reference) and shrinks by `T_UPDATE` each update.
//!
//! ECN (Sec. 5.1): with `ecn = true` (default, as RED here marks) an
//! ECN-capable arrival PIE would drop is marked CE instead while
//! `drop_prob` is at most `mark_ecn_threshold` (default 0.1); above it,
//! or if not ECN-capable, it is dropped (cause `Early`).
//!
//! Departures: the update runs when the next arrival or departure comes
//! instead of on a timer, once for each `T_UPDATE` boundary passed (the
//! first 15 ms after time zero). Between events nothing the update reads
//! changes, so this gives what a timer would. Not done: de-randomization
//! (Sec. 5.4), the cap on drop adjustment (Sec. 5.5) and switching PIE
//! off on an idle queue (Sec. 5.3). A packet that overflows the limit is
//! refused at the tail.

use super::codel::{check_ms, default_true, ms_to_ns};
use super::QueueLimit;
use lasthop_core::rng::RngStream;
use lasthop_core::Time;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// PIE settings of a link direction (the `pie` table of its `queue`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieConfig {
    /// QDELAY_REF, the queueing delay PIE steers to, in ms (default 15:
    /// RFC 8033 Sec. 4.2).
    #[serde(default = "default_target_ms")]
    pub target_ms: f64,
    /// T_UPDATE, the period of the drop probability's update, in ms
    /// (default 15: RFC 8033 Sec. 4.2).
    #[serde(default = "default_update_ms")]
    pub update_ms: f64,
    /// alpha, in 1/s (default 0.125: RFC 8033 Sec. 4.2).
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// beta, in 1/s (default 1.25: RFC 8033 Sec. 4.2).
    #[serde(default = "default_beta")]
    pub beta: f64,
    /// MAX_BURST, the burst allowance, in ms (default 150: RFC 8033 Sec. 4.4).
    #[serde(default = "default_max_burst_ms")]
    pub max_burst_ms: f64,
    /// MEAN_PKTSIZE: with at most two such packets' bytes waiting nothing
    /// is dropped, in bytes (default 1500).
    #[serde(default = "default_mean_packet_bytes")]
    pub mean_packet_bytes: u32,
    /// Mark ECN-capable packets CE instead of dropping them while the drop
    /// probability is at most `mark_ecn_threshold` (default true).
    #[serde(default = "default_true")]
    pub ecn: bool,
    /// Above this drop probability ECN-capable packets are dropped too, in
    /// [0, 1] (default 0.1: RFC 8033 Sec. 5.1).
    #[serde(default = "default_mark_ecn_threshold")]
    pub mark_ecn_threshold: f64,
}

fn default_target_ms() -> f64 {
    15.0
}
fn default_update_ms() -> f64 {
    15.0
}
fn default_alpha() -> f64 {
    0.125
}
fn default_beta() -> f64 {
    1.25
}
fn default_max_burst_ms() -> f64 {
    150.0
}
fn default_mean_packet_bytes() -> u32 {
    1500
}
fn default_mark_ecn_threshold() -> f64 {
    0.1
}

impl Default for PieConfig {
    fn default() -> PieConfig {
        PieConfig {
            target_ms: default_target_ms(),
            update_ms: default_update_ms(),
            alpha: default_alpha(),
            beta: default_beta(),
            max_burst_ms: default_max_burst_ms(),
            mean_packet_bytes: default_mean_packet_bytes(),
            ecn: true,
            mark_ecn_threshold: default_mark_ecn_threshold(),
        }
    }
}

impl PieConfig {
    /// Check the settings; an error names the field (relative to the `pie`
    /// table) and says why.
    pub fn validate(&self, _limit: QueueLimit) -> Result<(), (String, String)> {
        check_ms("target_ms", self.target_ms)?;
        check_ms("update_ms", self.update_ms)?;
        if !(self.max_burst_ms.is_finite() && (0.0..=3_600_000.0).contains(&self.max_burst_ms)) {
            return Err(("max_burst_ms".into(), format!("must be in [0, 3600000] ms, got {}", self.max_burst_ms)));
        }
        for (f, x) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(x.is_finite() && (0.0..=1000.0).contains(&x)) {
                return Err((f.into(), format!("must be a number in [0, 1000] (per second), got {x}")));
            }
        }
        if self.mean_packet_bytes == 0 {
            return Err(("mean_packet_bytes".into(), "must be at least 1".into()));
        }
        if !(0.0..=1.0).contains(&self.mark_ecn_threshold) {
            return Err(("mark_ecn_threshold".into(), format!("must be in [0, 1], got {}", self.mark_ecn_threshold)));
        }
        Ok(())
    }
}

/// What PIE makes of an arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieVerdict {
    Enqueue,
    /// Drop it, unless it is ECN-capable and may be marked instead.
    Drop {
        may_mark: bool,
    },
}

/// PIE's state on one link direction.
#[derive(Clone, Debug)]
pub struct Pie {
    qdelay_ref_ns: u64,
    t_update_ns: u64,
    alpha: f64,
    beta: f64,
    max_burst_ns: u64,
    mean_packet_bytes: u64,
    ecn: bool,
    mark_ecn_threshold: f64,
    drop_prob: f64,
    /// The latest queueing delay (`current_qdelay`), and the one the last
    /// update saw (`qdelay_old_`), in ns.
    qdelay_ns: u64,
    qdelay_old_ns: u64,
    burst_allowance_ns: u64,
    /// When the next update is due.
    next_update: Time,
    /// When each packet waiting joined, head first.
    stamps: VecDeque<Time>,
}

impl Pie {
    pub fn new(cfg: &PieConfig) -> Pie {
        let t_update_ns = ms_to_ns(cfg.update_ms).max(1);
        let max_burst_ns = ms_to_ns(cfg.max_burst_ms);
        Pie {
            qdelay_ref_ns: ms_to_ns(cfg.target_ms),
            t_update_ns,
            alpha: cfg.alpha,
            beta: cfg.beta,
            max_burst_ns,
            mean_packet_bytes: u64::from(cfg.mean_packet_bytes),
            ecn: cfg.ecn,
            mark_ecn_threshold: cfg.mark_ecn_threshold,
            drop_prob: 0.0,
            qdelay_ns: 0,
            qdelay_old_ns: 0,
            burst_allowance_ns: max_burst_ns,
            next_update: Time(t_update_ns),
            stamps: VecDeque::new(),
        }
    }

    /// The drop probability.
    pub fn drop_prob(&self) -> f64 {
        self.drop_prob
    }

    /// The burst allowance left, in ns.
    pub fn burst_allowance_ns(&self) -> u64 {
        self.burst_allowance_ns
    }

    /// Run the updates due by `now` (Appendix A's `calculate_drop_prob`,
    /// each T_UPDATE).
    fn catch_up(&mut self, now: Time) {
        while self.next_update <= now {
            if self.drop_prob == 0.0 && self.qdelay_ns == 0 && self.qdelay_old_ns == 0 {
                // A fixed point but for the allowance: the updates left
                // only shrink it.
                let n = (now.ns() - self.next_update.ns()) / self.t_update_ns + 1;
                self.burst_allowance_ns = self.burst_allowance_ns.saturating_sub(n.saturating_mul(self.t_update_ns));
                self.next_update = self.next_update.plus_ns(n * self.t_update_ns);
                return;
            }
            self.update();
            self.next_update = self.next_update.plus_ns(self.t_update_ns);
        }
    }

    fn update(&mut self) {
        let s = |ns: u64| ns as f64 * 1e-9;
        let (q, old, target) = (s(self.qdelay_ns), s(self.qdelay_old_ns), s(self.qdelay_ref_ns));
        let mut p = self.alpha * (q - target) + self.beta * (q - old);
        // Auto-tuning (Sec. 4.2): smaller steps while drop_prob is small.
        let scale = match self.drop_prob {
            d if d < 0.000_001 => 2048.0,
            d if d < 0.000_01 => 512.0,
            d if d < 0.000_1 => 128.0,
            d if d < 0.001 => 32.0,
            d if d < 0.01 => 8.0,
            d if d < 0.1 => 2.0,
            _ => 1.0,
        };
        p /= scale;
        self.drop_prob += p;
        if self.qdelay_ns == 0 && self.qdelay_old_ns == 0 {
            self.drop_prob *= 0.98;
        }
        self.drop_prob = self.drop_prob.clamp(0.0, 1.0);
        self.qdelay_old_ns = self.qdelay_ns;
        self.burst_allowance_ns = self.burst_allowance_ns.saturating_sub(self.t_update_ns);
    }

    /// An arrival at `now` finds `queued_bytes` waiting: what becomes of it
    /// (Appendix A's `enqueue` and `drop_early`).
    pub fn on_arrival(&mut self, now: Time, queued_bytes: u64, rng: &mut RngStream) -> PieVerdict {
        self.catch_up(now);
        let half = self.qdelay_ref_ns / 2;
        if self.drop_prob == 0.0 && self.qdelay_ns < half && self.qdelay_old_ns < half {
            self.burst_allowance_ns = self.max_burst_ns;
        }
        if self.burst_allowance_ns > 0 {
            return PieVerdict::Enqueue;
        }
        // The safeguards that keep PIE work-conserving.
        if (self.qdelay_old_ns < half && self.drop_prob < 0.2) || queued_bytes <= 2 * self.mean_packet_bytes {
            return PieVerdict::Enqueue;
        }
        if rng.uniform() < self.drop_prob {
            PieVerdict::Drop { may_mark: self.ecn && self.drop_prob <= self.mark_ecn_threshold }
        } else {
            PieVerdict::Enqueue
        }
    }

    /// A packet joined the tail at `now`.
    pub(super) fn on_join(&mut self, now: Time) {
        self.stamps.push_back(now);
    }

    /// The head leaves at `now`, leaving `left` packets waiting: its
    /// sojourn time is the queueing delay (zero once the queue is empty).
    pub(super) fn on_departure(&mut self, now: Time, left: usize) {
        debug_assert_eq!(self.stamps.len(), left + 1, "a stamp per packet");
        self.catch_up(now);
        let joined = self.stamps.pop_front().expect("a stamp per packet");
        self.qdelay_ns = if left == 0 { 0 } else { now.since(joined) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// Drops among arrivals one a ms from 1 ms to `to_ms`, behind a
    /// standing queue (100 kB, 50 ms of delay, pinned) that PIE already
    /// fights with p = 0.5.
    fn drops_by_ms(cfg: &PieConfig, to_ms: u64) -> Vec<u64> {
        let mut pie = Pie::new(cfg);
        let mut rng = RngStream::new(5, "pie");
        // t = 0: a calm queue: the allowance is (re)filled.
        assert_eq!(pie.on_arrival(Time::ZERO, 0, &mut rng), PieVerdict::Enqueue);
        pie.drop_prob = 0.5;
        let mut drops = Vec::new();
        for ms in 1..=to_ms {
            (pie.qdelay_ns, pie.qdelay_old_ns) = (50 * MS, 50 * MS);
            if pie.on_arrival(Time(ms * MS), 100_000, &mut rng) != PieVerdict::Enqueue {
                drops.push(ms);
            }
        }
        drops
    }

    #[test]
    fn the_burst_allowance_lets_a_burst_pass_for_max_burst() {
        // With the default 150 ms allowance, nothing is dropped until the
        // tenth update (150 ms) has spent it; then about half the arrivals.
        let drops = drops_by_ms(&PieConfig::default(), 300);
        assert!(drops.first().is_some_and(|&ms| ms >= 150), "{drops:?}");
        assert!(drops.len() > 50, "{}", drops.len());
        // Without an allowance the same burst is dropped from the start.
        let drops = drops_by_ms(&PieConfig { max_burst_ms: 0.0, ..PieConfig::default() }, 300);
        assert!(drops.iter().filter(|&&ms| ms < 150).count() > 50, "{drops:?}");
    }

    #[test]
    fn auto_tuning_scales_each_step_by_the_size_of_p() {
        // qdelay 30 ms against 15 ms, steady: the step is alpha * 15 ms =
        // 0.001875, divided by 2048 while p < 1e-6, by 2 while p < 0.1.
        let mut pie = Pie::new(&PieConfig::default());
        (pie.qdelay_ns, pie.qdelay_old_ns) = (30 * MS, 30 * MS);
        pie.update();
        assert!((pie.drop_prob - 0.001875 / 2048.0).abs() < 1e-15, "{}", pie.drop_prob);
        pie.drop_prob = 0.05;
        pie.update();
        assert!((pie.drop_prob - (0.05 + 0.001875 / 2.0)).abs() < 1e-12, "{}", pie.drop_prob);
        pie.drop_prob = 0.5;
        pie.update();
        assert!((pie.drop_prob - (0.5 + 0.001875)).abs() < 1e-12, "{}", pie.drop_prob);
    }

    #[test]
    fn ecn_capable_arrivals_may_be_marked_only_up_to_the_threshold() {
        // RFC 8033 Sec. 5.1: a mark instead of a drop while drop_prob is at
        // most mark_ecn_threshold (0.1); above it, a drop whatever the packet.
        let verdicts = |p: f64, ecn: bool| {
            let mut pie = Pie::new(&PieConfig { ecn, max_burst_ms: 0.0, ..PieConfig::default() });
            let mut rng = RngStream::new(2, "pie");
            (pie.drop_prob, pie.qdelay_ns, pie.qdelay_old_ns) = (p, 50 * MS, 50 * MS);
            (0..2000)
                .filter_map(|_| match pie.on_arrival(Time(1), 100_000, &mut rng) {
                    PieVerdict::Enqueue => None,
                    PieVerdict::Drop { may_mark } => Some(may_mark),
                })
                .collect::<Vec<_>>()
        };
        let low = verdicts(0.05, true);
        assert!(!low.is_empty() && low.iter().all(|&m| m));
        let high = verdicts(0.5, true);
        assert!(!high.is_empty() && high.iter().all(|&m| !m));
        assert!(verdicts(0.05, false).iter().all(|&m| !m));
    }
}
