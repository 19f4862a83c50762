//! The victim of a full queue (seed 001 S6.1 and S7.1; reading Sec. 1.4):
//! "drop-tail" drops the packet just arriving; "random" drops a random
//! packet. The paper finds little difference in most cases, but random
//! drop is the better choice with a lossy forward path, because tail drop
//! removes long runs of consecutive acks.
//!
//! `random` picks uniformly among the packets waiting and the arrival, from
//! the direction's own stream. That is how ns-2 picks (`Queue/RED` with
//! `drop_rand_`: the arrival is queued first, then `Random::integer(length)`
//! chooses the victim among all of them); the packet on the medium is not
//! in the queue and is never a victim. With a limit in bytes, victims are
//! drawn one by one until the arrival fits or is itself drawn (ns-2 drops
//! one victim whatever the bytes; a limit must hold after an admission).

use lasthop_core::rng::RngStream;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which packet a full queue drops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Overflow {
    /// The arriving packet (ns-2's `Queue/DropTail`).
    #[default]
    DropTail,
    /// A uniformly random packet among those waiting and the arrival.
    Random,
}

impl Overflow {
    /// The victim when `queued` packets wait and one more arrives: `None`
    /// for the arrival, `Some(i)` for the i-th waiting (from the head).
    /// `rng` is drawn from only by `random` (and must then be given).
    #[inline]
    pub fn victim(self, queued: usize, rng: Option<&mut RngStream>) -> Option<usize> {
        match self {
            Overflow::DropTail => None,
            Overflow::Random => {
                let rng = rng.expect("a random-drop queue has a stream");
                let k = rng.below(queued as u64 + 1) as usize;
                (k < queued).then_some(k)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_tail_always_picks_the_arrival() {
        assert_eq!(Overflow::DropTail.victim(10, None), None);
    }

    #[test]
    fn random_picks_each_of_the_queued_and_the_arrival_alike() {
        // 10 waiting + the arrival: each of the 11 about 1/11 of the time.
        let mut rng = RngStream::new(1, "overflow");
        let mut hits = [0u32; 11];
        for _ in 0..22_000 {
            match Overflow::Random.victim(10, Some(&mut rng)) {
                Some(i) => hits[i] += 1,
                None => hits[10] += 1,
            }
        }
        assert!(hits.iter().all(|&h| (1800..2200).contains(&h)), "{hits:?}");
    }
}
