//! Per-component random streams.
//!
//! Every component that draws random numbers (an error model on one link
//! direction, a MAC's backoff, ...) owns a [`RngStream`] derived from the run
//! seed and the component's name. The derivation uses ChaCha8's explicit
//! stream parameter: the key comes from the run seed, the stream number from a
//! stable 64-bit FNV-1a hash of the name. Two components never share draws, and
//! adding a component leaves every other component's sequence unchanged.
//!
//! FNV-1a is written out here (ten lines) rather than taken from a crate because
//! the value must never change between releases: `std`'s hashers are explicitly
//! unstable across versions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded random stream owned by one component.
#[derive(Clone, Debug)]
pub struct RngStream {
    rng: ChaCha8Rng,
}

/// Stable 64-bit FNV-1a of a component name.
pub fn stream_id(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl RngStream {
    /// The stream of component `name` in the run with seed `seed`.
    pub fn new(seed: u64, name: &str) -> RngStream {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream_id(name));
        RngStream { rng }
    }

    /// A uniform draw in [0, 1) with 53 bits of precision.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An exponential draw with the given mean (inverse transform: -mean·ln(1-U)).
    #[inline]
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.uniform()).ln()
    }

    /// A Pareto draw of scale `scale` (the minimum) and shape `shape`, by
    /// inverse transform: scale / (1-U)^(1/shape), ns-2's
    /// `Random::pareto` (tools/random.h) with U taken in [0, 1) so that
    /// 1-U is never zero (one line: `rand_distr::Pareto` is the same
    /// transform, not worth a dependency).
    #[inline]
    pub fn pareto(&mut self, scale: f64, shape: f64) -> f64 {
        scale / (1.0 - self.uniform()).powf(1.0 / shape)
    }

    /// A uniform integer in [0, n) (n >= 1), by Lemire's multiply-shift of
    /// one 64-bit draw: the bias is below n / 2^64, far beneath anything a
    /// run can see (a queue choosing one of its packets).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0, "below(0) has no value");
        ((u128::from(self.rng.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `p`.
    #[inline]
    pub fn bernoulli(&mut self, p: f64) -> bool {
        self.uniform() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_name_give_the_same_draws() {
        let mut a = RngStream::new(7, "link:wireless:bs->mh:error");
        let mut b = RngStream::new(7, "link:wireless:bs->mh:error");
        for _ in 0..100 {
            assert_eq!(a.uniform().to_bits(), b.uniform().to_bits());
        }
    }

    #[test]
    fn names_and_seeds_separate_streams() {
        let mut a = RngStream::new(7, "a");
        let mut b = RngStream::new(7, "b");
        let mut c = RngStream::new(8, "a");
        let xa: Vec<u64> = (0..8).map(|_| a.uniform().to_bits()).collect();
        let xb: Vec<u64> = (0..8).map(|_| b.uniform().to_bits()).collect();
        let xc: Vec<u64> = (0..8).map(|_| c.uniform().to_bits()).collect();
        assert_ne!(xa, xb);
        assert_ne!(xa, xc);
    }

    #[test]
    fn fnv1a_is_pinned() {
        // Reference values of 64-bit FNV-1a; a change here would silently
        // change every published result of lasthop.
        assert_eq!(stream_id(""), 0xcbf29ce484222325);
        assert_eq!(stream_id("a"), 0xaf63dc4c8601ec8c);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = RngStream::new(3, "below");
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[r.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (900..1100).contains(&c)), "{seen:?}");
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn exponential_mean_is_close() {
        let mut r = RngStream::new(1, "exp");
        let n = 200_000;
        let mean: f64 = (0..n).map(|_| r.exponential(3.0)).sum::<f64>() / n as f64;
        assert!((mean - 3.0).abs() < 0.03, "{mean}");
    }
}
