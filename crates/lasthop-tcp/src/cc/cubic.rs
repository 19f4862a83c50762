//! CUBIC with HyStart, as Linux's `net/ipv4/tcp_cubic.c` keeps it (v2.3,
//! read at torvalds/linux 617e407; slow start and the additive step from
//! `tcp_cong.c`'s `tcp_slow_start` and `tcp_cong_avoid_ai`, read at
//! 400031e), which RFC 9438 ("CUBIC for Fast and Long-Distance Networks",
//! 2023; read as draft-ietf-tcpm-rfc8312bis-15, NTAP/rfc8312bis d662250)
//! documents. Written from their rules, not their code.
//!
//! Window in whole segments (Linux's packet counts; `cwnd` below is
//! ⌊cwnd/MSS⌋, growth adds whole segments, an ack's `acked` is
//! ⌈(acked + SACKed bytes)/MSS⌉, Linux's `acked_sacked`):
//! - Slow start (cwnd < ssthresh): cwnd += acked, at most to ssthresh; what
//!   is left of `acked` goes to congestion avoidance on the same ack
//!   (`tcp_slow_start`: Linux counts every segment acked, no RFC 5681
//!   one-SMSS-per-ack cap).
//! - Congestion avoidance (RFC 9438 Sec. 4.2-4.5): an epoch begins at the
//!   first avoidance ack after a cut or slow start: origin = W_max and K =
//!   ∛((W_max − cwnd)/C) if cwnd < W_max, else origin = cwnd and K = 0.
//!   The target is W(t) = origin ± C·|t − K|³ at t = the time since the
//!   epoch plus the minimum RTT (Linux's "one RTT ahead"); cnt = cwnd/(target
//!   − cwnd) acked segments per added segment, or 100·cwnd (almost nothing)
//!   at or below the target; before any loss (W_max = 0) cnt ≤ 20 (5% per
//!   RTT); cnt ≥ 2 (at most 1 segment per 2 acked: 1.5× per RTT).
//!   The additive step is `tcp_cong_avoid_ai(cnt, acked)`: credits in
//!   `cwnd_cnt`, +1 segment per cnt of them.
//! - TCP friendliness (Sec. 4.3, the Reno-friendly region): W_est starts at
//!   the epoch's cwnd and grows 1 per ⌊cwnd·beta_scale/8⌋ segments acked,
//!   beta_scale = ⌊⌊8·(1024 + β)/3⌋/(1024 − β)⌋ = 15 (α = 8/15 ≈ 0.53 per
//!   window); when W_est > cwnd, cnt ≤ cwnd/(W_est − cwnd).
//! - The cut (Sec. 4.6-4.7): W_max = cwnd, or cwnd·(1024 + β)/2048 when
//!   cwnd < W_max and fast convergence is on; ssthresh = max(cwnd·β/1024,
//!   2) segments; the epoch ends. The window the recovery leaves is the
//!   recovery's (lasthop's `RetransmitWindow` / SACK rule; Linux: PRR). A
//!   timeout (Linux `TCP_CA_Loss`) forgets everything (W_max, the minimum
//!   RTT, the epoch) and re-arms HyStart (Sec. 4.8: K = 0 after it).
//! - HyStart (Ha & Rhee, "Taming the elephants", RFC 9438's \[HR11\]; the
//!   paper not read, the rules are `hystart_update`'s), in slow start with cwnd ≥
//!   `hystart_low_window` segments and not yet found, on each RTT sample:
//!   a round begins when the cumulative ack passes what had been sent when
//!   the last one began (`snd_nxt`); ack train: acks ≤ `hystart_ack_delta_us`
//!   apart since the round began, for longer than delay_min/2, exit; delay:
//!   once the round has 8 samples (`HYSTART_MIN_SAMPLES`), the round's
//!   minimum RTT > delay_min + clamp(delay_min/8, 4 ms, 16 ms), exit. An
//!   exit sets ssthresh = cwnd (cwnd kept). RTT samples in the first second
//!   of an epoch are ignored ("right after fast recovery"); delay_min is
//!   the minimum of the others.
//!
//! Time: the cubic function is in jiffies, HZ = 1000 (1 ms ticks of
//! `Time`, from 0), as Linux: t = (whole ms since the epoch + ⌈delay_min⌉
//! ms), converted to 1/1024 s (`BICTCP_HZ`) with truncation; C·t³ as
//! `(C·1024)·offs³ >> 40`; cnt recomputed at most once per jiffy, and not
//! within HZ/32 = 31 jiffies while cwnd is unchanged. HyStart is in µs
//! (`tcp_mstamp`). packetdrill's CUBIC scripts (tests/tcp/cubic_packetdrill.rs)
//! ack on whole milliseconds, so they pin the rules but cannot tell jiffies
//! from a finer clock; the jiffy clock is kept so that runs with acks
//! between ticks round as Linux does.
//!
//! Where lasthop departs from Linux (and why):
//! - The cube root is exact (⌊∛x⌋ by integer correction); Linux uses a
//!   64-entry table and one Newton step (≈0.2% error), so K can differ
//!   by a few 1/1024 s. C·offs³ is computed in 128 bits (Linux's 64-bit
//!   product wraps after ≈347 s in one epoch).
//! - HyStart's ack-train threshold is delay_min/2 with no TSO/GRO cushion:
//!   Linux adds `hystart_ack_delay` = min(1 ms, 4·gso_max_size/pacing rate)
//!   and halves only for an unpaced socket (`SK_PACING_NONE`); lasthop has
//!   no TSO/GRO and CUBIC does not pace here, so cushion 0, halved.
//! - Rounds: `snd_nxt` at a round's start is read as delivered − acked +
//!   flight (`flight_bytes` is snd_max − snd_una before the ack). The
//!   sender's `delivered_bytes` counts SACKed data too (Linux's
//!   `tp->delivered`), so this is `snd_nxt` exactly when nothing above
//!   snd_una is SACKed (a first slow start), later by the SACKed bytes
//!   otherwise (a slow start after a timeout, with SACK blocks).
//! - Growth is bounded by the sender's `CwndBound` (`Window::may_grow`);
//!   Linux always applies `tcp_is_cwnd_limited` (lasthop's `CwndLimited`).
//! - No restart after idle (`CA_EVENT_TX_START` shifts the epoch by the
//!   idle time, RFC 9438 Sec. 5.8; the sender reports no idle restart), no
//!   undo of spurious cuts
//!   (`tcp_reno_undo_cwnd`), `initial_ssthresh` not used (Linux's default
//!   0: the sender's configured ssthresh stands).
//! - Only the default HZ = 1000 is modelled (HZ = 250 kernels have 4 ms
//!   jiffies).
//!
//! Where Linux's CUBIC (so lasthop's) differs from RFC 9438:
//! - β = 717/1024 = 0.7002, not 0.7 (Sec. 4.6); C = 410/1024 = 0.4004
//!   (`bic_scale` 41 × 10/1024), not 0.4 (Sec. 5.1).
//! - The target's look-ahead is the minimum RTT (rounded up to a jiffy),
//!   not the smoothed RTT (Sec. 4.2), and time runs in jiffies.
//! - Above the target RFC 9438 holds cwnd (target = cwnd); Linux still
//!   grows 1 segment per 100·cwnd acked. Its 1.5·cwnd cap is Linux's cnt ≥ 2.
//! - Before any loss Linux grows at least 5% per RTT (cnt ≤ 20); RFC 9438
//!   has no such floor (after HyStart++ it sets W_max = cwnd, K = 0, Sec.
//!   4.10).
//! - Reno-friendly: α = 8/15 by integer arithmetic (RFC: 3(1 − β)/(1 + β)
//!   = 0.529), and never switched to 1 once W_est ≥ cwnd_prior (Sec. 4.3
//!   SHOULD; proposed for Linux in Aug. 2024, "tcp_cubic: fix to match
//!   Reno additive increment", absent from the file read).
//! - ssthresh is cut from cwnd, not from flight_size (Sec. 4.6 allows it
//!   with a cwnd-limited guard, as Linux's `tcp_is_cwnd_limited`).
//! - Slow start is Linux's HyStart (ack train + delay, against the minimum
//!   RTT ever, exit straight to avoidance), not HyStart++ (RFC 9406, which
//!   Sec. 4.10 recommends: delay only, the current round's minimum against
//!   the last round's, RttThresh = clamp(lastRoundMinRTT/8, 4, 16 ms) over
//!   N_RTT_SAMPLE = 8, then Conservative Slow Start for CSS_ROUNDS = 5 at
//!   1/CSS_GROWTH_DIVISOR = 1/4 speed, and L = 8 segments per ack unpaced).
//!   Linux's slow start credits every segment acked (no L).

use super::{AckSample, CongestionEvent, CongestionKind, Controller, Param, Window, MAX_PARAMS};
use lasthop_core::time::Time;

pub const NAME: &str = "cubic";

/// CUBIC takes its RTT samples from send times, not from the timestamp option.
pub const NEEDS_TIMESTAMPS: bool = false;

pub const PARAMS: &[Param] = &[
    Param {
        name: "beta",
        default: 717.0 / 1024.0,
        source: "Linux tcp_cubic.c `beta = 717` (/1024, BICTCP_BETA_SCALE) = 0.7002; RFC 9438 Sec. 4.6: 0.7. Used \
                 as round(beta*1024)/1024, within [1, 1023]/1024",
    },
    Param {
        name: "c",
        default: 0.4,
        source: "RFC 9438 Sec. 5.1: C = 0.4; Linux tcp_cubic.c `bic_scale = 41`, C = 41*10/1024 = 0.4004. Used as \
                 round(c*1024)/1024 (0.4 -> 410/1024, Linux's)",
    },
    Param {
        name: "fast_convergence",
        default: 1.0,
        source: "Linux tcp_cubic.c `fast_convergence = 1`; RFC 9438 Sec. 4.7 (SHOULD). 0 = off",
    },
    Param {
        name: "tcp_friendliness",
        default: 1.0,
        source: "Linux tcp_cubic.c `tcp_friendliness = 1`; RFC 9438 Sec. 4.3 (Reno-friendly region). 0 = off",
    },
    Param {
        name: "hystart",
        default: 1.0,
        source: "Linux tcp_cubic.c `hystart = 1` (Ha & Rhee, hybrid slow start). 0 = Linux's plain slow start",
    },
    Param {
        name: "hystart_detect",
        default: 3.0,
        source: "Linux tcp_cubic.c `hystart_detect = HYSTART_ACK_TRAIN | HYSTART_DELAY`: 1 ack train, 2 delay, \
                 3 both",
    },
    Param {
        name: "hystart_low_window",
        default: 16.0,
        source: "Linux tcp_cubic.c `hystart_low_window = 16` (segments: HyStart runs from this cwnd)",
    },
    Param {
        name: "hystart_ack_delta_us",
        default: 2000.0,
        source: "Linux tcp_cubic.c `hystart_ack_delta_us = 2000` (acks this close form a train)",
    },
];

/// Linux's clock for the cubic function: jiffies at HZ = 1000.
const HZ: u64 = 1000;
const NS_PER_JIFFY: u64 = 1_000_000_000 / HZ;
/// The cubic function's time unit: 1/2^10 s (`BICTCP_HZ`).
const BICTCP_HZ: u32 = 10;
/// β's scale (`BICTCP_BETA_SCALE`).
const BETA_SCALE: u64 = 1024;
const HYSTART_ACK_TRAIN: u8 = 0x1;
const HYSTART_DELAY: u8 = 0x2;
/// Samples a round needs before the delay test (`HYSTART_MIN_SAMPLES`).
const HYSTART_MIN_SAMPLES: u8 = 8;
/// The delay test's threshold, delay_min/8 clamped to these (µs).
const HYSTART_DELAY_MIN_US: u64 = 4000;
const HYSTART_DELAY_MAX_US: u64 = 16_000;

#[derive(Clone, Debug)]
pub struct Cubic {
    /// β in 1/1024.
    beta: u64,
    /// C·1024 (Linux `cube_rtt_scale` = bic_scale·10).
    cube_rtt_scale: u64,
    /// 2^40/(C·1024): K = ∛(cube_factor·(W_max − cwnd)) in 1/1024 s.
    cube_factor: u64,
    /// 8·(1024 + β)/3/(1024 − β), integer steps (Linux `beta_scale`).
    beta_scale: u64,
    fast_convergence: bool,
    tcp_friendliness: bool,
    hystart: bool,
    hystart_detect: u8,
    hystart_low_window: u64,
    hystart_ack_delta_us: u64,

    /// Acked segments per +1 segment (Linux `cnt`).
    cnt: u64,
    /// W_max, segments (0 before any loss).
    last_max_cwnd: u64,
    /// cwnd and jiffy of the last recomputation of `cnt`.
    last_cwnd: u64,
    last_time: u64,
    /// The cubic function's plateau, segments.
    origin: u64,
    /// K, in 1/1024 s.
    k: u64,
    /// Smallest RTT sample, µs (0: none).
    delay_min_us: u64,
    /// The jiffy the epoch began (None: none running).
    epoch_start: Option<u64>,
    /// Segments acked since W_est last grew.
    ack_cnt: u64,
    /// W_est, segments.
    tcp_cwnd: u64,
    /// Additive-step credits (Linux `snd_cwnd_cnt`).
    cwnd_cnt: u64,

    /// HyStart found the exit (Linux `found`).
    found: bool,
    /// RTT samples in this round.
    sample_cnt: u8,
    /// When this round began, and the last ack of the current train, µs.
    round_start_us: u64,
    last_ack_us: u64,
    /// The round ends when delivered passes this (`end_seq` = `snd_nxt`).
    round_end_delivered: u64,
    /// The round's smallest RTT, µs.
    curr_rtt_us: u64,
    /// The sender's delivered count at the last ack.
    delivered: u64,
    /// What the ack being processed newly delivered, in bytes (`on_every_ack`).
    newly_delivered: u64,
}

fn flag(v: f64) -> bool {
    v != 0.0
}

fn jiffies(now: Time) -> u64 {
    now.ns() / NS_PER_JIFFY
}

/// Linux `usecs_to_jiffies` at HZ = 1000: rounded up.
fn usecs_to_jiffies(us: u64) -> u64 {
    us.div_ceil(1_000_000 / HZ)
}

/// ⌊∛a⌋, exactly.
pub fn cube_root(a: u64) -> u64 {
    let mut x = (a as f64).cbrt() as u64;
    let cube = |x: u64| u128::from(x).pow(3);
    while x > 0 && cube(x) > u128::from(a) {
        x -= 1;
    }
    while cube(x + 1) <= u128::from(a) {
        x += 1;
    }
    x
}

impl Cubic {
    pub fn new(params: &[f64; MAX_PARAMS], _w: &Window) -> Self {
        let beta = ((params[0] * BETA_SCALE as f64).round() as u64).clamp(1, BETA_SCALE - 1);
        let cube_rtt_scale = ((params[1] * 1024.0).round() as u64).max(1);
        Cubic {
            beta,
            cube_rtt_scale,
            cube_factor: (1u64 << (10 + 3 * BICTCP_HZ)) / cube_rtt_scale,
            beta_scale: 8 * (BETA_SCALE + beta) / 3 / (BETA_SCALE - beta),
            fast_convergence: flag(params[2]),
            tcp_friendliness: flag(params[3]),
            hystart: flag(params[4]),
            hystart_detect: (params[5] as u64 & 3) as u8,
            hystart_low_window: params[6] as u64,
            hystart_ack_delta_us: params[7] as u64,
            cnt: 0,
            last_max_cwnd: 0,
            last_cwnd: 0,
            last_time: 0,
            origin: 0,
            k: 0,
            delay_min_us: 0,
            epoch_start: None,
            ack_cnt: 0,
            tcp_cwnd: 0,
            cwnd_cnt: 0,
            found: false,
            sample_cnt: 0,
            round_start_us: 0,
            last_ack_us: 0,
            round_end_delivered: 0,
            curr_rtt_us: u64::MAX,
            delivered: 0,
            newly_delivered: 0,
        }
    }

    /// W_max, segments (0 before any loss).
    pub fn w_max_segments(&self) -> u64 {
        self.last_max_cwnd
    }
    /// K of the running epoch, in 1/1024 s.
    pub fn k_units(&self) -> u64 {
        self.k
    }
    /// The smallest RTT sampled, µs (0: none).
    pub fn delay_min_us(&self) -> u64 {
        self.delay_min_us
    }
    /// HyStart has ended slow start.
    pub fn hystart_found(&self) -> bool {
        self.found
    }

    /// Linux `bictcp_hystart_reset`: a round begins now; `snd_nxt` is what
    /// has been sent, as delivered bytes.
    fn hystart_reset(&mut self, now_us: u64, snd_nxt: u64) {
        self.round_start_us = now_us;
        self.last_ack_us = now_us;
        self.round_end_delivered = snd_nxt;
        self.curr_rtt_us = u64::MAX;
        self.sample_cnt = 0;
    }

    /// Linux `bictcp_reset` then `bictcp_hystart_reset` (`TCP_CA_Loss`).
    fn reset(&mut self, now_us: u64, snd_nxt: u64) {
        self.cnt = 0;
        self.last_max_cwnd = 0;
        self.last_cwnd = 0;
        self.last_time = 0;
        self.origin = 0;
        self.k = 0;
        self.delay_min_us = 0;
        self.epoch_start = None;
        self.ack_cnt = 0;
        self.tcp_cwnd = 0;
        self.found = false;
        self.hystart_reset(now_us, snd_nxt);
    }

    /// HyStart on an RTT sample of `delay` µs (Linux `hystart_update`).
    fn hystart_update(&mut self, w: &mut Window, now: Time, s: &AckSample, delay: u64) {
        let now_us = now.ns() / 1000;
        if s.delivered_bytes > self.round_end_delivered {
            let snd_nxt = s.delivered_bytes.saturating_sub(s.acked_bytes) + s.flight_bytes;
            self.hystart_reset(now_us, snd_nxt);
        }
        if self.hystart_detect & HYSTART_ACK_TRAIN != 0 && now_us - self.last_ack_us <= self.hystart_ack_delta_us {
            self.last_ack_us = now_us;
            // Unpaced, no TSO cushion: the train must outlast delay_min/2.
            let threshold = self.delay_min_us >> 1;
            if now_us - self.round_start_us > threshold {
                self.found = true;
                w.set_ssthresh(w.cwnd());
            }
        }
        if self.hystart_detect & HYSTART_DELAY != 0 {
            self.curr_rtt_us = self.curr_rtt_us.min(delay);
            if self.sample_cnt < HYSTART_MIN_SAMPLES {
                self.sample_cnt += 1;
            } else {
                let thresh = (self.delay_min_us >> 3).clamp(HYSTART_DELAY_MIN_US, HYSTART_DELAY_MAX_US);
                if self.curr_rtt_us > self.delay_min_us + thresh {
                    self.found = true;
                    w.set_ssthresh(w.cwnd());
                }
            }
        }
    }

    /// Linux `bictcp_update`: `cnt` for a window of `cwnd` segments after
    /// `acked` more were acked at jiffy `now`.
    fn update(&mut self, cwnd: u64, acked: u64, now: u64) {
        self.ack_cnt += acked;
        if self.last_cwnd == cwnd && now.saturating_sub(self.last_time) <= HZ / 32 {
            return;
        }
        // The cubic function at most once per jiffy; a cut (no epoch)
        // always recomputes it.
        if self.epoch_start.is_none() || now != self.last_time {
            self.last_cwnd = cwnd;
            self.last_time = now;
            self.cubic_cnt(cwnd, acked, now);
        }
        if self.tcp_friendliness {
            // W_est += 1 per ⌊cwnd·beta_scale/8⌋ segments acked (Linux's
            // loop, as a division).
            let per = ((cwnd * self.beta_scale) >> 3).max(1);
            if self.ack_cnt > per {
                let n = (self.ack_cnt - 1) / per;
                self.ack_cnt -= n * per;
                self.tcp_cwnd += n;
            }
            if self.tcp_cwnd > cwnd {
                self.cnt = self.cnt.min(cwnd / (self.tcp_cwnd - cwnd));
            }
        }
        // At most 1 segment per 2 acked: 1.5x per round trip.
        self.cnt = self.cnt.max(2);
    }

    /// The cubic function's `cnt`: the epoch begun if none runs, the target
    /// one minimum RTT ahead, and the acked segments per +1 that reach it.
    fn cubic_cnt(&mut self, cwnd: u64, acked: u64, now: u64) {
        let epoch = match self.epoch_start {
            Some(e) => e,
            None => {
                self.epoch_start = Some(now);
                self.ack_cnt = acked;
                self.tcp_cwnd = cwnd;
                if self.last_max_cwnd <= cwnd {
                    self.k = 0;
                    self.origin = cwnd;
                } else {
                    // K = ∛((W_max − cwnd)/C), in 1/1024 s.
                    self.k = cube_root(self.cube_factor.saturating_mul(self.last_max_cwnd - cwnd));
                    self.origin = self.last_max_cwnd;
                }
                now
            }
        };
        // t = jiffies since the epoch + delay_min, in 1/1024 s (truncated).
        let t = ((now - epoch + usecs_to_jiffies(self.delay_min_us)) << BICTCP_HZ) / HZ;
        let offs = u128::from(t.abs_diff(self.k));
        // C·offs³ in segments: (C·1024)·offs³ / 2^(10 + 3·10).
        let delta = (u128::from(self.cube_rtt_scale) * offs * offs * offs) >> (10 + 3 * BICTCP_HZ);
        let delta = u64::try_from(delta).unwrap_or(u64::MAX);
        let target =
            if t < self.k { self.origin.saturating_sub(delta) } else { self.origin.saturating_add(delta) };
        self.cnt = if target > cwnd { cwnd / (target - cwnd) } else { 100 * cwnd };
        // Before any loss, at least 5% per round trip.
        if self.last_max_cwnd == 0 && self.cnt > 20 {
            self.cnt = 20;
        }
    }
}

impl Controller for Cubic {
    fn on_every_ack(&mut self, w: &mut Window, now: Time, s: &AckSample) {
        // Linux's `acked_sacked`: what this ack newly delivered, the growth
        // of the delivered count (a byte SACKed earlier is not counted again
        // when the cumulative ack passes it).
        self.newly_delivered = s.delivered_bytes.saturating_sub(self.delivered);
        self.delivered = s.delivered_bytes;
        let Some(rtt_ns) = s.rtt_ns else { return };
        // "Discard delay samples right after fast recovery".
        if self.epoch_start.is_some_and(|e| jiffies(now).saturating_sub(e) < HZ) {
            return;
        }
        let delay = (rtt_ns / 1000).max(1);
        if self.delay_min_us == 0 || self.delay_min_us > delay {
            self.delay_min_us = delay;
        }
        let cwnd = w.cwnd() / w.mss();
        if !self.found && self.hystart && w.cwnd() < w.ssthresh() && cwnd >= self.hystart_low_window {
            self.hystart_update(w, now, s, delay);
        }
    }

    fn on_ack(&mut self, w: &mut Window, now: Time, s: &AckSample) {
        if !w.may_grow(s.flight_bytes) {
            return;
        }
        let mss = w.mss();
        let mut acked = self.newly_delivered.div_ceil(mss);
        if acked == 0 {
            return;
        }
        let start = w.cwnd();
        let mut cwnd = (start / mss).max(1);
        if w.cwnd() < w.ssthresh() {
            // tcp_slow_start: up to ssthresh, the rest to avoidance.
            let grown = (cwnd + acked).min(w.ssthresh() / mss).max(cwnd);
            acked -= grown - cwnd;
            cwnd = grown;
        }
        if acked > 0 {
            self.update(cwnd, acked, jiffies(now));
            // tcp_cong_avoid_ai(cnt, acked).
            let w_cnt = self.cnt;
            if self.cwnd_cnt >= w_cnt {
                self.cwnd_cnt = 0;
                cwnd += 1;
            }
            self.cwnd_cnt += acked;
            if self.cwnd_cnt >= w_cnt {
                let d = self.cwnd_cnt / w_cnt;
                self.cwnd_cnt -= d * w_cnt;
                cwnd += d;
            }
        }
        let segs = (start / mss).max(1);
        if cwnd != segs {
            w.set_cwnd(start + (cwnd - segs) * mss);
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: Time, _ev: &CongestionEvent) -> u64 {
        let mss = w.mss();
        let cwnd = w.cwnd() / mss;
        self.epoch_start = None;
        self.last_max_cwnd = if cwnd < self.last_max_cwnd && self.fast_convergence {
            cwnd * (BETA_SCALE + self.beta) / (2 * BETA_SCALE)
        } else {
            cwnd
        };
        (cwnd * self.beta / BETA_SCALE).max(2) * mss
    }

    fn on_cut(&mut self, _w: &mut Window, now: Time, ev: &CongestionEvent) {
        self.cwnd_cnt = 0;
        if ev.kind == CongestionKind::Timeout {
            self.reset(now.ns() / 1000, self.delivered + ev.flight_bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{CcConfig, CongestionKind, LossCause, RetransmitWindow};

    const MSS: u64 = 1000;
    const INF: u64 = u64::MAX / 2;

    /// A window, CUBIC, and the sender's running counts.
    struct H {
        w: Window,
        c: Cubic,
        delivered: u64,
    }

    impl H {
        fn new(cwnd: u32, ssthresh_segs: u64, params: &[(&str, f64)]) -> H {
            let w = Window::new(RetransmitWindow::Inflate, MSS as u32, cwnd, ssthresh_segs.saturating_mul(MSS));
            let cfg = CcConfig::named(NAME, params).unwrap();
            let c = Cubic::new(&cfg.params, &w);
            H { w, c, delivered: 0 }
        }
        fn cwnd(&self) -> u64 {
            self.w.cwnd() / MSS
        }
        /// An ack of `segs` segments at `t_ms` with an RTT sample of
        /// `rtt_us`, a full window outstanding before it.
        fn ack_us(&mut self, t_us: u64, segs: u64, rtt_us: u64) {
            self.delivered += segs * MSS;
            let s = AckSample {
                acked_bytes: segs * MSS,
                flight_bytes: self.w.cwnd(),
                rtt_ns: Some(rtt_us * 1000),
                delivered_bytes: self.delivered,
                ..AckSample::default()
            };
            let now = Time::from_ns(t_us * 1000);
            self.c.on_every_ack(&mut self.w, now, &s);
            self.c.on_ack(&mut self.w, now, &s);
        }
        fn ack(&mut self, t_ms: u64, segs: u64, rtt_ms: u64) {
            self.ack_us(t_ms * 1000, segs, rtt_ms * 1000);
        }
        /// A loss: CUBIC's ssthresh, the SACK recovery's cwnd = ssthresh.
        fn loss(&mut self, t_ms: u64, kind: CongestionKind) {
            let ev = CongestionEvent::new(kind, LossCause::Congestion, self.w.cwnd(), INF);
            let now = Time::from_ms(t_ms);
            let ss = self.c.ssthresh(&self.w, now, &ev);
            if kind == CongestionKind::Timeout {
                self.w.cut(&ev, ss, 3);
            } else {
                self.w.cut_no_inflation(ss);
            }
            self.c.on_cut(&mut self.w, now, &ev);
        }
    }

    #[test]
    fn cube_root_is_the_exact_floor() {
        assert_eq!([0, 1, 7, 8, 26, 27].map(cube_root), [0, 1, 1, 2, 2, 3]);
        // 4316³ = 80,397,826,496 ≤ 80,452,070,310 < 4317³ = 80,453,723,013.
        assert_eq!(cube_root(80_452_070_310), 4316);
        assert_eq!(cube_root(u64::MAX), 2_642_245);
    }

    /// The constants tcp_cubic.c's `cubictcp_register` derives, from the
    /// parameters: β 717, C·1024 = 410 (bic_scale 41 × 10), cube_factor =
    /// 2^40/410 = 2,681,735,677, beta_scale = ⌊⌊8·1741/3⌋/307⌋ = ⌊4642/307⌋
    /// = 15. C = 3.2 (8×) halves K: ∛8 = 2.
    #[test]
    fn constants_from_the_parameters() {
        let h = H::new(10, INF, &[]);
        assert_eq!((h.c.beta, h.c.cube_rtt_scale, h.c.cube_factor, h.c.beta_scale), (717, 410, 2_681_735_677, 15));
        assert!(h.c.fast_convergence && h.c.tcp_friendliness && h.c.hystart);
        assert_eq!((h.c.hystart_detect, h.c.hystart_low_window, h.c.hystart_ack_delta_us), (3, 16, 2000));
        // K for W_max − cwnd = 30: ∛(2,681,735,677·30) = 4316 (4.215 s;
        // ∛(30/0.4004) = 4.2158 s); with C = 3.2 (3277/1024):
        // ∛(⌊2^40/3277⌋·30) = ∛10,065,715,230 = 2159.
        let c8 = H::new(10, INF, &[("c", 3.2)]);
        assert_eq!(cube_root(h.c.cube_factor * 30), 4316);
        assert_eq!(cube_root(c8.c.cube_factor * 30), 2159);
        // β = 0.5: 512, beta_scale = ⌊⌊8·1536/3⌋/512⌋ = 8 (α = 1, Reno's).
        let half = H::new(10, INF, &[("beta", 0.5)]);
        assert_eq!((half.c.beta, half.c.beta_scale), (512, 8));
    }

    /// RFC 9438 Sec. 4.6-4.7, tcp_cubic.c `cubictcp_recalc_ssthresh`: a cut
    /// from 100 segments: W_max = 100, ssthresh = ⌊100·717/1024⌋ = 70. A
    /// second cut at 70 < W_max: fast convergence, W_max = ⌊70·1741/2048⌋
    /// = 59, ssthresh = ⌊70·717/1024⌋ = 49; without it W_max = 70.
    #[test]
    fn the_cut_and_fast_convergence() {
        for (fc, w_max2) in [(1.0, 59), (0.0, 70)] {
            let mut h = H::new(100, 50, &[("fast_convergence", fc)]);
            h.loss(1000, CongestionKind::FastRetransmit);
            assert_eq!((h.c.w_max_segments(), h.w.ssthresh(), h.cwnd()), (100, 70_000, 70));
            assert_eq!(h.c.epoch_start, None);
            h.loss(2000, CongestionKind::FastRetransmit);
            assert_eq!((h.c.w_max_segments(), h.w.ssthresh()), (w_max2, 49_000), "fast_convergence {fc}");
        }
        // β = 0.5: half.
        let mut h = H::new(100, 50, &[("beta", 0.5)]);
        h.loss(1000, CongestionKind::FastRetransmit);
        assert_eq!(h.w.ssthresh(), 50_000);
        // The floor: 2 segments.
        let mut h = H::new(2, 1, &[]);
        h.loss(1000, CongestionKind::FastRetransmit);
        assert_eq!(h.w.ssthresh(), 2000, "⌊2·717/1024⌋ = 1, raised to 2");
    }

    /// The epoch after a cut from 100 to 70 (RFC 9438 Sec. 4.2, eq. 1-2):
    /// acks of 1 segment every 10 ms, RTT 100 ms. The first ack (10.010 s)
    /// begins the epoch: K = 4316/1024 s, origin W_max = 100; t = (0 + 100
    /// jiffies)·1024/1000 = 102; C·(K − t)³ = 410·4214³ >> 40 = 27, target
    /// 73, cnt = ⌊70/(73 − 70)⌋ = 23. The concave region climbs to the
    /// plateau and stays at W_max = 100 until the target exceeds it: C·offs³
    /// ≥ 1 needs offs ≥ 1390 (1389³·410 < 2^40 ≤ 1390³·410), t ≥ 4316 + 1390
    /// = 5706 units, i.e. jiffies since the epoch + 100 ≥ 5572.3: from
    /// 10.010 + 5.473 = 15.483 s. Then the convex region.
    #[test]
    fn first_epoch_after_a_cut_climbs_to_w_max_and_waits() {
        let mut h = H::new(100, 50, &[]);
        h.ack(9_000, 1, 100);
        h.loss(10_000, CongestionKind::FastRetransmit);
        h.ack(10_010, 1, 100);
        assert_eq!((h.c.k_units(), h.c.origin, h.c.cnt, h.c.epoch_start), (4316, 100, 23, Some(10_010)));
        let mut t = 10_010;
        while t < 15_480 {
            t += 10;
            h.ack(t, 1, 100);
            assert!(h.cwnd() <= 100, "t = {t} ms: cwnd {} above W_max before 15.483 s", h.cwnd());
        }
        assert_eq!(h.cwnd(), 100, "on the plateau");
        assert_eq!(h.c.cnt, 100 * 100, "target = W_max = cwnd: 1 per 100·cwnd");
        // cnt is recomputed when cwnd changes or 32 jiffies after the last
        // time (HZ/32): the first recomputation from 15.483 s finds target
        // 101, cnt = ⌊100/(101 − 100)⌋.
        while h.c.cnt == 100 * 100 {
            t += 10;
            h.ack(t, 1, 100);
        }
        assert_eq!((h.c.cnt, h.cwnd()), (100, 100));
        assert!((15_483..15_483 + 40).contains(&t), "t = {t}");
        while t < 17_500 {
            t += 10;
            h.ack(t, 1, 100);
        }
        // The convex region, 2 s on (the same rules transcribed separately,
        // in Python, from tcp_cubic.c's reading, give 107 too).
        assert_eq!(h.cwnd(), 107);
    }

    /// RFC 9438 Sec. 4.3, the Reno-friendly region: a small window with a
    /// short RTT (cut from 10 to 7, W_max 10, K = 2003/1024 s; RTT 10 ms,
    /// one segment acked per ms). The cubic function alone barely moves in
    /// 2.75 s; W_est, +1 per ⌊15·cwnd/8⌋ segments acked, carries cwnd.
    ///
    /// By hand: 10.001 s begins the epoch, t = 10 units, C·1993³ >> 40 = 2,
    /// target 8, cnt 7: cwnd 8 at the 7th ack (10.007 s). 10.008 s
    /// recomputes (cwnd changed): t = 17, C·1986³ >> 40 = 2, target 8 =
    /// cwnd, cnt 800; W_est 7 (8 acked ≤ 15). Then cwnd 8 unchanged within
    /// 31 jiffies: no recomputation until 10.040 s, when 40 segments acked
    /// make W_est 7 + 2 (40 → 25 → 10 against ⌊15·8/8⌋ = 15) = 9, cnt =
    /// ⌊8/(9 − 8)⌋ = 8.
    #[test]
    fn reno_friendly_region_carries_a_small_window() {
        let mut grown = [0; 2];
        for (i, f) in [1.0, 0.0].into_iter().enumerate() {
            let mut h = H::new(10, 5, &[("tcp_friendliness", f)]);
            h.ack(9_000, 1, 10);
            h.loss(10_000, CongestionKind::FastRetransmit);
            assert_eq!((h.cwnd(), h.c.w_max_segments()), (7, 10));
            for t in 10_001..=10_007 {
                h.ack(t, 1, 10);
            }
            assert_eq!((h.c.k_units(), h.cwnd()), (2003, 8));
            h.ack(10_008, 1, 10);
            assert_eq!((h.c.cnt, h.c.tcp_cwnd), (800, 7));
            for t in 10_009..=10_040 {
                h.ack(t, 1, 10);
            }
            if f == 1.0 {
                assert_eq!((h.c.tcp_cwnd, h.c.ack_cnt, h.c.cnt), (9, 10, 8));
            } else {
                assert_eq!(h.c.cnt, 800);
            }
            for t in 10_041..=12_751 {
                h.ack(t, 1, 10);
            }
            grown[i] = h.cwnd();
        }
        // (With W_est 55 also by the separate Python transcription.)
        assert_eq!(grown, [55, 12], "with W_est, without");
    }

    /// W_est grows once more than ⌊cwnd·15/8⌋ segments are counted (Linux:
    /// `while (ca->ack_cnt > delta)`), not at exactly that many: cwnd 8,
    /// ⌊8·15/8⌋ = 15. An epoch begun by an ack of 15 keeps W_est = 8; one
    /// more segment acked 40 jiffies later (past the HZ/32 hold) makes it
    /// 9, ack_cnt 1, and cnt ≤ ⌊8/(9 − 8)⌋ = 8.
    #[test]
    fn w_est_grows_past_cwnd_times_beta_scale_over_8() {
        let mut h = H::new(8, 8, &[]);
        h.c.update(8, 15, 1000);
        assert_eq!((h.c.tcp_cwnd, h.c.ack_cnt, h.c.cnt), (8, 15, 20));
        h.c.update(8, 1, 1040);
        assert_eq!((h.c.tcp_cwnd, h.c.ack_cnt, h.c.cnt), (9, 1, 8));
    }

    /// The target looks ahead by delay_min rounded up to a jiffy
    /// (`usecs_to_jiffies`): with delay_min 1,357,001 µs, 1358 jiffies, t
    /// = ⌊1358·1024/1000⌋ = 1390 units, C·1390³ = 410·1390³ >> 40 = 1: the
    /// first avoidance ack after slow start ends at cwnd 10 (K = 0, origin
    /// 10) aims at 11, cnt = ⌊10/(11 − 10)⌋ = 10. Rounded down (1357
    /// jiffies, t = 1389, 410·1389³ < 2^40) the target would be 10 and cnt
    /// the cap of 20.
    #[test]
    fn the_look_ahead_rounds_delay_min_up_to_a_jiffy() {
        let mut h = H::new(9, 10, &[("hystart", 0.0)]);
        h.ack_us(5_000_000, 1, 1_357_001);
        assert_eq!((h.cwnd(), h.c.delay_min_us()), (10, 1_357_001));
        h.ack_us(5_010_000, 1, 1_357_001);
        assert_eq!((h.c.k_units(), h.c.origin, h.c.cnt), (0, 10, 10));
    }

    /// Linux `tcp_slow_start`: every segment acked counts (no one-SMSS cap);
    /// at ssthresh the rest goes to avoidance on the same ack: cwnd 8,
    /// ssthresh 10, 4 acked: cwnd 10, 2 credits toward the first +1 (cnt
    /// 20, no loss yet).
    #[test]
    fn slow_start_counts_every_segment_and_carries_the_rest() {
        let mut h = H::new(8, 10, &[("hystart", 0.0)]);
        h.ack(100, 4, 50);
        assert_eq!((h.cwnd(), h.c.cwnd_cnt, h.c.cnt), (10, 2, 20));
        let mut h = H::new(8, INF, &[("hystart", 0.0)]);
        h.ack(100, 4, 50);
        assert_eq!(h.cwnd(), 12);
    }

    /// Linux's `acked_sacked` (tcp_input.c `tcp_ack`: `sack_state.delivered`,
    /// the growth of `tp->delivered`): a segment counts when it is first
    /// delivered. From cwnd 10 in slow start, an ack SACKing one segment and
    /// then a cumulative ack of two (the SACKed one and the hole before it)
    /// delivered two segments: cwnd 12, not 13 (acked + SACKed bytes would
    /// count the SACKed segment on both acks).
    #[test]
    fn a_sacked_segment_grows_the_window_once() {
        let mut h = H::new(10, INF, &[("hystart", 0.0)]);
        let ack = |h: &mut H, acked: u64, sacked: u64, t_ms: u64| {
            h.delivered += MSS;
            let s = AckSample {
                acked_bytes: acked,
                sacked_bytes: sacked,
                flight_bytes: h.w.cwnd(),
                rtt_ns: Some(50_000_000),
                delivered_bytes: h.delivered,
                ..AckSample::default()
            };
            h.c.on_every_ack(&mut h.w, Time::from_ms(t_ms), &s);
            h.c.on_ack(&mut h.w, Time::from_ms(t_ms), &s);
        };
        ack(&mut h, 0, MSS, 100);
        assert_eq!(h.cwnd(), 11);
        ack(&mut h, 2 * MSS, 0, 101);
        assert_eq!(h.cwnd(), 12);
    }

    /// HyStart's ack train (tcp_cubic.c `hystart_update`, `hystart_ack_delta_us`
    /// 2000): delay_min 20 ms; from cwnd 16, acks 1 ms apart with RTT 20 ms
    /// (no delay increase). The first ack begins a round at t0; the train
    /// is longer than delay_min/2 = 10 ms at t0 + 11 ms (11,000 > 10,000 µs):
    /// ssthresh = cwnd there, 16 + 11 = 27 segments (one per ack before).
    /// With the delay test alone, or acks 3 ms apart (no train), no exit.
    #[test]
    fn hystart_ack_train_ends_slow_start_after_half_the_minimum_rtt() {
        let run = |detect: f64, gap_ms: u64| {
            let mut h = H::new(16, INF, &[("hystart_detect", detect)]);
            for j in 0..30 {
                h.ack(1000 + gap_ms * j, 1, 20);
                if h.c.hystart_found() {
                    return Some((j, h.w.ssthresh() / MSS));
                }
            }
            None
        };
        assert_eq!(run(3.0, 1), Some((11, 27)));
        assert_eq!(run(1.0, 1), Some((11, 27)));
        assert_eq!(run(2.0, 1), None, "delay test only: RTT never rises");
        assert_eq!(run(3.0, 3), None, "3 ms apart: no train");
        assert_eq!(run(0.0, 1), None);
    }

    /// Below `hystart_low_window` HyStart does not run, and its rounds
    /// start only from there: a rising RTT at cwnd 10..15 exits nothing.
    #[test]
    fn hystart_waits_for_the_low_window() {
        let mut h = H::new(4, INF, &[]);
        h.ack(1000, 1, 20);
        for j in 1..=11 {
            h.ack(1000 + 10 * j, 1, 20 + 10 * j);
        }
        assert_eq!((h.cwnd(), h.c.hystart_found()), (16, false));
        assert_eq!(h.c.sample_cnt, 0);
    }

    /// A timeout (Linux `TCP_CA_Loss`: `bictcp_reset`, `bictcp_hystart_reset`;
    /// RFC 9438 Sec. 4.8): ssthresh as any cut (⌊100·717/1024⌋ = 70), then
    /// W_max, delay_min and the epoch forgotten and HyStart re-armed; the
    /// next epoch starts at K = 0 from its own cwnd.
    #[test]
    fn timeout_forgets_the_curve_and_rearms_hystart() {
        let mut h = H::new(20, INF, &[]);
        for j in 0..12 {
            h.ack(1000 + j, 1, 20);
        }
        assert!(h.c.hystart_found(), "ack train: 11 ms > 20/2");
        for j in 0..100 {
            h.ack(2000 + 10 * j, 1, 20);
        }
        let cwnd = h.cwnd();
        h.loss(5000, CongestionKind::FastRetransmit);
        assert_eq!(h.c.w_max_segments(), cwnd);
        h.ack(5100, 1, 20);
        assert!(h.c.k_units() > 0);
        h.loss(6000, CongestionKind::Timeout);
        let cut = h.cwnd();
        assert_eq!(cut, 1, "the timeout's one segment");
        assert_eq!(h.w.ssthresh() / MSS, (cwnd * 717 / 1024) * 717 / 1024);
        assert_eq!((h.c.w_max_segments(), h.c.delay_min_us(), h.c.hystart_found()), (0, 0, false));
        assert_eq!(h.c.epoch_start, None);
        // Slow start again, then an epoch from K = 0.
        let ss = h.w.ssthresh() / MSS;
        let mut t = 6000;
        while h.cwnd() < ss {
            t += 10;
            h.ack(t, 1, 20);
        }
        t += 10;
        h.ack(t, 1, 20);
        assert_eq!((h.c.k_units(), h.c.origin), (0, ss));
    }

    /// tcp_cubic.c `cubictcp_acked`: RTT samples within a second (HZ
    /// jiffies) of the epoch's start do not lower delay_min.
    #[test]
    fn delay_samples_ignored_in_the_epochs_first_second() {
        let mut h = H::new(20, 10, &[]);
        h.ack(1000, 1, 100);
        assert_eq!((h.c.delay_min_us(), h.c.epoch_start), (100_000, Some(1000)));
        h.ack(1999, 1, 40);
        assert_eq!(h.c.delay_min_us(), 100_000, "999 jiffies into the epoch");
        h.ack(2000, 1, 40);
        assert_eq!(h.c.delay_min_us(), 40_000);
    }
}
