//! AIRMAIL's FEC ([`crate::arq::airmail::fec`]) on the circuit: per
//! station, the adapter that picks the level of the frames it sends, the
//! byte code's repair of a frame the channel hit, and the packet code's
//! blocks (parity frames in slots of their own).
//!
//! - \[I\] Cost: the slot stays one `frame_bytes` frame time (the TDMA
//!   channel's slot is the air interface's, fixed); at the byte and
//!   packet levels `2 t` of its bytes are the byte code's parity, so a
//!   frame carries `2 t` fewer payload bytes and a packet takes more
//!   frames; at the packet level `m` parity frames follow every block of
//!   `k` data frames, each in a slot. A packet's frames are coded at the
//!   level current when it is segmented (its first frame offered to
//!   AIRMAIL's window), and a retransmission goes as the same coded frame;
//!   status frames and parity frames go at the level current when they go.
//! - \[I\] Survival: the error model decides per frame whether the channel
//!   hit it at all (the raw loss). Whether the byte code repairs a hit
//!   frame needs its count of byte errors, which a yes/no model does not
//!   give: the count is taken from independent byte errors at the byte
//!   error probability `pb` the model's own numbers imply for a frame of
//!   `frame_bytes` ([`byte_error_probability`]: `bernoulli` p and
//!   `frame_error_rate` read as independent bit errors, `exponential_bytes`
//!   as 1 / mean), conditioned on at least one: the frame is repaired with
//!   probability P(at most `t` | at least 1) (one draw per hit frame, from
//!   the station's own `fec` stream). The burst models (`two_state`,
//!   `markov`, `burst`, `outage`, `list`) hit a frame with a fade, not with
//!   scattered bit errors: `pb` is 1 and the byte code repairs nothing
//!   there; only the packet code's parity recovers such frames.
//! - \[I\] A block (packet level) opens at its first data frame with the
//!   adapter's current `m`, takes every data frame (retransmissions
//!   included) coded at the packet level, and closes after `k` of them, or
//!   earlier when the station has no data frame for a slot (a shortened
//!   code: parity is not held back for frames that may never come). If at
//!   most `m` of its frames (data and parity) were lost, its lost data
//!   frames reach the receiver with its last parity frame, as if they had
//!   come intact; a retransmission may cross them (the receiver never hands
//!   a frame up twice).
//! - \[I\] The adapter observes every frame the station sends (data,
//!   status, parity) with its byte errors before correction (the
//!   simulator's knowledge standing in for the receiver's report of its
//!   decoder's corrections).

use crate::arq::airmail::fec::{binomial_tail, FecAdapter, FecConfig, FecLevel};
use crate::error::ErrorModelConfig;
use lasthop_core::rng::RngStream;

/// The per-byte error probability the error model's numbers imply for a
/// frame of `frame_bytes` (see the module docs): 1 for the burst models.
pub fn byte_error_probability(cfg: &ErrorModelConfig, frame_bytes: u32) -> f64 {
    let per_byte = |loss: f64, bytes: u32| 1.0 - (1.0 - loss.clamp(0.0, 1.0)).powf(1.0 / f64::from(bytes.max(1)));
    match cfg {
        ErrorModelConfig::None => 0.0,
        ErrorModelConfig::Bernoulli { p } => per_byte(*p, frame_bytes),
        ErrorModelConfig::FrameErrorRate { fer, reference_bytes } => per_byte(*fer, *reference_bytes),
        ErrorModelConfig::ExponentialBytes { mean_bytes } if *mean_bytes > 0.0 => (1.0 / mean_bytes).min(1.0),
        ErrorModelConfig::ExponentialBytes { .. } => 0.0,
        _ => 1.0,
    }
}

/// The probability a frame of `n` bytes that has at least one byte error
/// (each byte independently with `pb`) has at most `t`.
pub fn repair_probability(n: u32, pb: f64, t: u32) -> f64 {
    let p0 = (1.0 - pb).powi(n as i32);
    let hit = 1.0 - p0;
    if hit <= 0.0 || pb >= 1.0 {
        return 0.0;
    }
    let at_most_t = 1.0 - binomial_tail(n, pb, t);
    ((at_most_t - p0) / hit).clamp(0.0, 1.0)
}

/// An open block of the packet code.
#[derive(Clone, Debug)]
pub(super) struct Block<L> {
    pub open: bool,
    /// Its parity frames.
    pub m: u32,
    /// Data frames in it.
    pub data: u32,
    /// Frames of it lost (data and parity).
    pub lost: u32,
    /// Parity frames still to send (closing).
    pub parity_left: u32,
    /// Its data frames lost, to recover.
    pub lost_frames: Vec<L>,
}

/// AIRMAIL's counters of the code at a station (as the sender).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CodingStats {
    /// Parity frames sent.
    pub parity_frames: u64,
    /// Frames the channel hit that the byte code repaired.
    pub byte_repaired: u64,
    /// Lost data frames a block's parity recovered.
    pub block_recovered: u64,
    /// Blocks closed.
    pub blocks: u64,
}

/// A station's FEC.
#[derive(Clone, Debug)]
pub(super) struct Coding<L> {
    pub adapter: FecAdapter,
    byte_t: u32,
    block_k: u32,
    repair_p: f64,
    rng: Option<RngStream>,
    pub block: Block<L>,
    pub stats: CodingStats,
}

impl<L: Copy> Coding<L> {
    pub(super) fn new(cfg: FecConfig, fixed: Option<FecLevel>) -> Coding<L> {
        Coding {
            adapter: FecAdapter::new(cfg, fixed),
            byte_t: cfg.byte_t,
            block_k: cfg.block_k,
            repair_p: 0.0,
            rng: None,
            block: Block {
                open: false,
                m: 0,
                data: 0,
                lost: 0,
                parity_left: 0,
                lost_frames: Vec::with_capacity(cfg.block_k as usize),
            },
            stats: CodingStats::default(),
        }
    }

    /// The channel the station's frames cross: a hit frame of `n` bytes is
    /// repaired by the byte code with [`repair_probability`].
    pub(super) fn set_channel(&mut self, n: u32, pb: f64, rng: RngStream) {
        self.repair_p = repair_probability(n, pb, self.byte_t);
        self.rng = Some(rng);
    }

    /// The level for what the station codes now.
    #[inline]
    pub(super) fn level(&self) -> FecLevel {
        self.adapter.current().level
    }

    /// A frame coded at `level` went, hit by the channel (`raw`) or not:
    /// whether it is lost after the byte code. The adapter observes it.
    pub(super) fn outcome(&mut self, raw: bool, level: FecLevel) -> bool {
        if !raw {
            self.adapter.observe(0);
            return false;
        }
        let repairable = match (self.repair_p, self.rng.as_mut()) {
            (p, Some(rng)) if p > 0.0 => p >= 1.0 || rng.bernoulli(p),
            _ => false,
        };
        self.adapter.observe(if repairable { 1 } else { self.byte_t + 1 });
        let lost = level == FecLevel::None || !repairable;
        if !lost {
            self.stats.byte_repaired += 1;
        }
        lost
    }

    /// A data frame coded at `level` went, `lost` or not: it joins the
    /// open block (packet level; one opens if none is).
    pub(super) fn on_data(&mut self, level: FecLevel, lost: bool, frame: L) {
        if level != FecLevel::Packet {
            return;
        }
        let b = &mut self.block;
        if !b.open {
            b.open = true;
            b.m = self.adapter.current().m.max(1);
            b.data = 0;
            b.lost = 0;
            b.lost_frames.clear();
        }
        b.data += 1;
        if lost {
            b.lost += 1;
            b.lost_frames.push(frame);
        }
        if b.data >= self.block_k {
            b.parity_left = b.m;
        }
    }

    /// Whether a slot is wanted for parity: a block closing, or open with
    /// data when the station has none to send (it closes then).
    #[inline]
    pub(super) fn wants_parity(&self) -> bool {
        self.block.parity_left > 0 || (self.block.open && self.block.data > 0)
    }

    /// A parity frame goes now (closing the block if it was only open),
    /// `lost` or not: the lost data frames the block recovers, if this was
    /// its last parity frame and at most `m` of its frames were lost.
    pub(super) fn on_parity(&mut self, lost: bool, recovered: &mut Vec<L>) {
        let b = &mut self.block;
        if b.parity_left == 0 {
            b.parity_left = b.m;
        }
        b.parity_left -= 1;
        b.lost += u32::from(lost);
        self.stats.parity_frames += 1;
        if b.parity_left == 0 {
            if b.lost <= b.m {
                self.stats.block_recovered += b.lost_frames.len() as u64;
                recovered.extend_from_slice(&b.lost_frames);
            }
            b.open = false;
            b.lost_frames.clear();
            self.stats.blocks += 1;
        }
    }
}
