//! ns-2's Pareto on/off source (`Application/Traffic/Pareto`,
//! tools/pareto.cc and tools/trafgen.cc), the background traffic of Yun
//! 2009 Sec. 5.2 ("Pareto on/off traffic ... mean rate 8 Mbps, shape 2").
//!
//! During a burst the source sends `packet_bytes` datagrams back to back at
//! `rate_bps` (one every `interval = 8·packet_bytes / rate_bps`). A burst's
//! length in packets is drawn from a Pareto distribution of shape `shape`
//! whose mean is `burst / interval` packets (scale = mean·(shape-1)/shape),
//! rounded to the nearest integer and at least 1; each burst is preceded by
//! an idle time drawn from a Pareto distribution of the same shape with
//! mean `idle` (scale = idle·(shape-1)/shape). As in ns-2, the number of
//! packets is drawn before the idle time, the first datagram leaves one
//! interval plus the first idle time after the start, and the gap between
//! bursts is one interval plus the idle time. The mean rate is then about
//! `rate_bps · burst / (burst + idle)` (ambiguity 5 of yun-004.md: Yun's
//! "mean rate 8 Mbps" read as ns-2's `rate_`).
//!
//! Departures: times are whole nanoseconds, each interval rounded on its
//! own (ns-2 keeps doubles); `packet_bytes` is the datagram's size on the
//! wire (ns-2's UDP agent sends the application's size as the packet's).

use lasthop_core::rng::RngStream;
use lasthop_core::time::NS_PER_S;
use lasthop_core::Time;

/// A Pareto on/off source's parameters. Defaults: ns-2.35
/// tcl/lib/ns-default.tcl (`Application/Traffic/Pareto`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParetoConfig {
    /// Sending rate during a burst, in bits per second. ns-2 `rate_ 64Kb`.
    pub rate_bps: f64,
    /// Mean burst length, in seconds. ns-2 `burst_time_ 500ms`.
    pub burst_s: f64,
    /// Mean idle time, in seconds. ns-2 `idle_time_ 500ms`.
    pub idle_s: f64,
    /// Pareto shape (above 1, or the means are infinite). ns-2 `shape_ 1.5`.
    pub shape: f64,
    /// Datagram size on the wire, in bytes. ns-2 `packetSize_ 210`.
    pub packet_bytes: u32,
}

impl Default for ParetoConfig {
    fn default() -> ParetoConfig {
        ParetoConfig { rate_bps: 64e3, burst_s: 0.5, idle_s: 0.5, shape: 1.5, packet_bytes: 210 }
    }
}

impl ParetoConfig {
    /// The first invalid field and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if !(self.rate_bps.is_finite() && self.rate_bps > 0.0) {
            return Err(("rate_bps", "must be a positive number"));
        }
        if !(self.burst_s.is_finite() && self.burst_s > 0.0) {
            return Err(("burst_ms", "must be a positive number"));
        }
        if !(self.idle_s.is_finite() && self.idle_s >= 0.0) {
            return Err(("idle_ms", "must be a number >= 0"));
        }
        if !(self.shape.is_finite() && self.shape > 1.0) {
            return Err(("shape", "must be above 1 (the burst and idle means are infinite otherwise)"));
        }
        if self.packet_bytes == 0 {
            return Err(("packet_bytes", "must be at least 1"));
        }
        Ok(())
    }

    /// Time between datagrams within a burst, in seconds.
    fn interval_s(&self) -> f64 {
        f64::from(self.packet_bytes) * 8.0 / self.rate_bps
    }
}

/// A running Pareto on/off source.
#[derive(Clone, Debug)]
pub struct ParetoSource {
    cfg: ParetoConfig,
    rng: RngStream,
    /// Scales of the burst-length (packets) and idle-time (s) draws.
    burst_scale: f64,
    idle_scale: f64,
    /// Packets left in the current burst.
    rem: u64,
    /// When the next datagram is due (`Time::NEVER`: stopped or not started).
    next: Time,
    /// Datagrams handed out, and bursts begun.
    pub sent: u64,
    pub bursts: u64,
}

impl ParetoSource {
    /// A source with `cfg` (validated) drawing from `rng`.
    pub fn new(cfg: ParetoConfig, rng: RngStream) -> ParetoSource {
        let k = (cfg.shape - 1.0) / cfg.shape;
        let burst_packets = cfg.burst_s / cfg.interval_s();
        ParetoSource {
            cfg,
            rng,
            burst_scale: burst_packets * k,
            idle_scale: cfg.idle_s * k,
            rem: 0,
            next: Time::NEVER,
            sent: 0,
            bursts: 0,
        }
    }

    pub fn config(&self) -> &ParetoConfig {
        &self.cfg
    }

    /// ns-2 `POO_Traffic::next_interval`: the time to the next datagram,
    /// drawing a new burst (its length, then the idle time before it) when
    /// the current one is spent.
    fn next_interval_ns(&mut self) -> u64 {
        let mut t = self.cfg.interval_s();
        if self.rem == 0 {
            // ns-2: int(pareto + .5), at least 1 (`as` saturates).
            self.rem = ((self.rng.pareto(self.burst_scale, self.cfg.shape) + 0.5) as u64).max(1);
            t += self.rng.pareto(self.idle_scale, self.cfg.shape);
            self.bursts += 1;
        }
        self.rem -= 1;
        (t * NS_PER_S as f64).round() as u64
    }

    /// ns-2 `TrafficGenerator::start`: the first datagram is one interval
    /// (and the first idle time) away.
    pub fn start(&mut self, now: Time) {
        let dt = self.next_interval_ns();
        self.next = now.plus_ns(dt);
    }

    pub fn stop(&mut self) {
        self.next = Time::NEVER;
    }

    pub fn poll_at(&self) -> Time {
        self.next
    }

    /// ns-2 `TrafficGenerator::timeout`: the datagram due now, and the next
    /// one scheduled.
    pub fn poll_transmit(&mut self, now: Time) -> Option<u32> {
        if self.next > now {
            return None;
        }
        let dt = self.next_interval_ns();
        self.next = self.next.plus_ns(dt);
        self.sent += 1;
        Some(self.cfg.packet_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(cfg: ParetoConfig) -> ParetoSource {
        ParetoSource::new(cfg, RngStream::new(1, "pareto"))
    }

    #[test]
    fn defaults_are_ns2s_and_validation_names_the_field() {
        let d = ParetoConfig::default();
        assert_eq!((d.rate_bps, d.burst_s, d.idle_s, d.shape, d.packet_bytes), (64e3, 0.5, 0.5, 1.5, 210));
        assert!(d.validate().is_ok());
        assert_eq!(ParetoConfig { shape: 1.0, ..d }.validate().unwrap_err().0, "shape");
        assert_eq!(ParetoConfig { rate_bps: 0.0, ..d }.validate().unwrap_err().0, "rate_bps");
        assert_eq!(ParetoConfig { idle_s: -1.0, ..d }.validate().unwrap_err().0, "idle_ms");
        assert_eq!(ParetoConfig { packet_bytes: 0, ..d }.validate().unwrap_err().0, "packet_bytes");
    }

    #[test]
    fn datagrams_in_a_burst_leave_one_interval_apart_after_an_idle_time() {
        // 1000 B at 8 Mb/s: one datagram per ms within a burst.
        let cfg = ParetoConfig { rate_bps: 8e6, burst_s: 0.5, idle_s: 0.5, shape: 2.0, packet_bytes: 1000 };
        let mut s = source(cfg);
        assert_eq!(s.poll_at(), Time::NEVER, "not started");
        s.start(Time::ZERO);
        let first = s.poll_at();
        // One interval plus an idle time of at least its scale (0.25 s).
        assert!(first.ns() >= 1_000_000 + 250_000_000, "{first}");
        assert_eq!(s.poll_transmit(Time(first.ns() - 1)), None, "not yet due");
        let mut times = vec![];
        let mut now = first;
        while times.len() < 20_000 {
            assert_eq!(s.poll_transmit(now), Some(1000));
            times.push(now);
            now = s.poll_at();
        }
        // Gaps are either exactly one interval (within a burst) or one
        // interval plus an idle time of at least 0.25 s (a new burst).
        let gaps: Vec<u64> = times.windows(2).map(|w| w[1].ns() - w[0].ns()).collect();
        assert!(gaps.iter().all(|&g| g == 1_000_000 || g >= 251_000_000), "{:?}", &gaps[..10]);
        let new_bursts = gaps.iter().filter(|&&g| g > 1_000_000).count() as u64;
        assert_eq!(new_bursts + 1, s.bursts, "one idle gap per burst after the first");
        // Mean burst length ~ 500 packets (shape 2 converges slowly: wide band).
        let mean_burst = times.len() as f64 / s.bursts as f64;
        assert!((250.0..1000.0).contains(&mean_burst), "{mean_burst}");
        s.stop();
        assert_eq!(s.poll_at(), Time::NEVER);
        assert_eq!(s.poll_transmit(Time(u64::MAX - 1)), None);
    }

    #[test]
    fn the_mean_rate_is_the_burst_rate_times_the_on_fraction() {
        // Shape 3: finite variance, so 2000 s average within a few percent.
        let cfg = ParetoConfig { rate_bps: 1e6, burst_s: 0.2, idle_s: 0.6, shape: 3.0, packet_bytes: 500 };
        let mut s = source(cfg);
        s.start(Time::ZERO);
        let end = Time(2_000 * NS_PER_S);
        let mut bytes = 0u64;
        while s.poll_at() <= end {
            bytes += u64::from(s.poll_transmit(s.poll_at()).unwrap());
        }
        let rate = bytes as f64 * 8.0 / 2000.0;
        // 1 Mb/s x 0.2 / (0.2 + 0.6) = 250 kb/s (plus one interval per gap).
        assert!((rate / 250e3 - 1.0).abs() < 0.1, "{rate}");
    }
}
