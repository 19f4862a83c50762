//! AIRMAIL's forward error correction as a sans-IO model the caller
//! consults per frame (\[S\] three levels, \[A\] chosen adaptively so that
//! the bandwidth expansion is minimal, \[I\] everything numeric).
//!
//! Deterministic: no RNG here. The caller's error model decides how many
//! bytes of a frame the channel corrupted ([`Fec::frame_survives`]) or
//! which frames of a block are lost ([`Fec::block_recovers`]); this model
//! says what the code repairs, what it costs ([`Fec::overhead`]), and,
//! fed the outcome of every frame ([`FecAdapter::observe`]), which level
//! to use next.
//!
//! - [`FecLevel::None`]: the frame survives only with no byte error.
//! - [`FecLevel::Byte`] \[K\]: an in-frame code over bytes (Reed-Solomon
//!   style, `2 t` parity bytes per frame): the frame survives with at most
//!   `t` byte errors. (The survey calls it "a per-packet CRC"; a CRC
//!   corrects nothing, so lasthop reads a correcting code.)
//! - [`FecLevel::Packet`] \[I\]: the byte code in every frame plus `m`
//!   parity frames per block of `k` data frames: any `k` of the `k + m`
//!   frames recover the block without retransmission. Levels are
//!   cumulative here (packet includes byte), lasthop's choice.
//! - The bit-level code of the physical layer \[S\] is the caller's error
//!   model's business (a residual BER), not modelled here.
//! - Adaptation \[I\]: over the last `fer_window` frames (256), the raw
//!   frame error rate (frames with any byte error before correction: a
//!   byte decoder reports its corrections, so it is observable at every
//!   level) picks the level: below `theta1` none, `theta1..=theta2` byte,
//!   above `theta2` packet, with `m` the least in `1..=m_max` such that
//!   P(more than `m` of `k + m` frames lost) < `target` (binomial, the
//!   frame loss rate being the window's residual rate after the byte
//!   code), `m_max` if none is.

/// A level of coding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FecLevel {
    /// No byte- or packet-level code.
    None,
    /// The in-frame byte code.
    Byte,
    /// The byte code plus parity frames per block.
    Packet,
}

/// The names [`FecLevel::parse`] knows, and "adaptive".
pub const FEC_NAMES: &str = "adaptive, none, byte, packet";

impl FecLevel {
    /// The level named `name`; `None` for "adaptive"; the one-line error
    /// for any other name.
    pub fn parse(name: &str) -> Result<Option<FecLevel>, (&'static str, &'static str)> {
        match name {
            "adaptive" => Ok(None),
            "none" => Ok(Some(FecLevel::None)),
            "byte" => Ok(Some(FecLevel::Byte)),
            "packet" => Ok(Some(FecLevel::Packet)),
            _ => Err(("fec", "no such FEC level (adaptive, none, byte, packet)")),
        }
    }
}

/// The codes' parameters (\[I\] defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FecConfig {
    /// Data bytes per frame.
    pub frame_bytes: u32,
    /// Byte errors the byte code corrects per frame (`2 t` parity bytes).
    pub byte_t: u32,
    /// Data frames per block (packet level).
    pub block_k: u32,
    /// The most parity frames per block.
    pub m_max: u32,
    /// Frames the error rate is measured over.
    pub fer_window: u32,
    /// Raw frame error rate from which the byte code is used.
    pub theta1: f64,
    /// Raw frame error rate above which the packet code is used.
    pub theta2: f64,
    /// The block loss probability `m` is chosen to stay under.
    pub target: f64,
}

impl Default for FecConfig {
    fn default() -> FecConfig {
        // theta1: the byte code pays for itself once more than 1 - 1/r1 of
        // the frames (5.9 %, r1 = 272/256) would be lost without it.
        FecConfig {
            frame_bytes: 256,
            byte_t: 8,
            block_k: 16,
            m_max: 8,
            fer_window: 256,
            theta1: 0.06,
            theta2: 0.5,
            target: 1e-3,
        }
    }
}

impl FecConfig {
    /// The first invalid field and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if self.frame_bytes == 0 {
            return Err(("frame_bytes", "must be positive"));
        }
        if self.block_k == 0 {
            return Err(("block_k", "must be at least 1"));
        }
        if self.m_max == 0 {
            return Err(("m_max", "must be at least 1"));
        }
        if self.fer_window == 0 {
            return Err(("fer_window", "must be at least 1"));
        }
        if !(0.0..=1.0).contains(&self.theta1) {
            return Err(("theta1", "must be within [0, 1]"));
        }
        if !(0.0..=1.0).contains(&self.theta2) {
            return Err(("theta2", "must be within [0, 1]"));
        }
        if self.theta1 > self.theta2 {
            return Err(("theta1", "must not exceed theta2"));
        }
        if !(self.target > 0.0 && self.target < 1.0) {
            return Err(("target", "must be within (0, 1)"));
        }
        Ok(())
    }
}

/// A level with its parameters: what survives, what it costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fec {
    /// The codes' parameters.
    pub cfg: FecConfig,
    /// The level.
    pub level: FecLevel,
    /// Parity frames per block (packet level; 0 otherwise).
    pub m: u32,
}

impl Fec {
    /// Bytes on the air per frame (data plus the byte code's parity).
    #[inline]
    pub fn frame_bytes_on_air(&self) -> u32 {
        match self.level {
            FecLevel::None => self.cfg.frame_bytes,
            _ => self.cfg.frame_bytes + 2 * self.cfg.byte_t,
        }
    }

    /// Whether a frame with `byte_errors` corrupted bytes is recovered.
    #[inline]
    pub fn frame_survives(&self, byte_errors: u32) -> bool {
        match self.level {
            FecLevel::None => byte_errors == 0,
            _ => byte_errors <= self.cfg.byte_t,
        }
    }

    /// Whether a block with `lost` of its `k + m` frames lost is recovered
    /// whole without retransmission (packet level; otherwise only if
    /// nothing is lost).
    #[inline]
    pub fn block_recovers(&self, lost: u32) -> bool {
        lost <= self.m
    }

    /// The bandwidth expansion: air time per unit of data.
    pub fn overhead(&self) -> f64 {
        let bytes = f64::from(self.frame_bytes_on_air()) / f64::from(self.cfg.frame_bytes);
        match self.level {
            FecLevel::Packet => bytes * f64::from(self.cfg.block_k + self.m) / f64::from(self.cfg.block_k),
            _ => bytes,
        }
    }

    /// The probability a frame survives at bit error rate `ber` (bit errors
    /// independent; a byte is corrupted with `1 - (1 - ber)^8`).
    pub fn frame_survival_probability(&self, ber: f64) -> f64 {
        let pb = byte_error_probability(ber);
        let n = self.frame_bytes_on_air();
        let t = if self.level == FecLevel::None { 0 } else { self.cfg.byte_t };
        1.0 - binomial_tail(n, pb, t)
    }
}

/// The probability a byte is corrupted at bit error rate `ber`.
#[inline]
pub fn byte_error_probability(ber: f64) -> f64 {
    1.0 - (1.0 - ber).powi(8)
}

/// P(more than `t` of `n` independent trials with probability `p` fail).
pub fn binomial_tail(n: u32, p: f64, t: u32) -> f64 {
    if t >= n {
        return 0.0;
    }
    if p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    // P(X <= t), summed term by term from P(X = 0).
    let mut term = (1.0 - p).powi(n as i32);
    let mut cdf = term;
    for j in 0..t {
        term *= f64::from(n - j) / f64::from(j + 1) * p / (1.0 - p);
        cdf += term;
    }
    (1.0 - cdf).max(0.0)
}

/// The adaptation rule: fed every frame's outcome, the level to use next.
#[derive(Clone, Debug)]
pub struct FecAdapter {
    cfg: FecConfig,
    /// Per frame in the window: bit 0 raw error, bit 1 residual error.
    history: std::collections::VecDeque<u8>,
    raw: u32,
    residual: u32,
    /// A fixed level (`None`: adaptive).
    fixed: Option<FecLevel>,
    current: Fec,
    changes: u32,
}

impl FecAdapter {
    /// An adapter with `cfg` (which must validate), at `fixed` always or
    /// adaptive (`None`), starting at no coding.
    pub fn new(cfg: FecConfig, fixed: Option<FecLevel>) -> FecAdapter {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        let level = fixed.unwrap_or(FecLevel::None);
        let m = if level == FecLevel::Packet { 1 } else { 0 };
        FecAdapter {
            cfg,
            history: Default::default(),
            raw: 0,
            residual: 0,
            fixed,
            current: Fec { cfg, level, m },
            changes: 0,
        }
    }

    /// The code to use for the next frame (or block).
    #[inline]
    pub fn current(&self) -> Fec {
        self.current
    }

    /// How many times the level or `m` changed.
    #[inline]
    pub fn changes(&self) -> u32 {
        self.changes
    }

    /// The raw frame error rate over the window (0 with no frame yet).
    pub fn raw_rate(&self) -> f64 {
        if self.history.is_empty() {
            0.0
        } else {
            f64::from(self.raw) / self.history.len() as f64
        }
    }

    /// The residual frame error rate after the byte code over the window.
    pub fn residual_rate(&self) -> f64 {
        if self.history.is_empty() {
            0.0
        } else {
            f64::from(self.residual) / self.history.len() as f64
        }
    }

    /// A frame went with `byte_errors` corrupted bytes (before correction);
    /// the code for the next one is chosen.
    pub fn observe(&mut self, byte_errors: u32) {
        let bits = u8::from(byte_errors > 0) | u8::from(byte_errors > self.cfg.byte_t) << 1;
        self.history.push_back(bits);
        self.raw += u32::from(bits & 1);
        self.residual += u32::from(bits >> 1);
        if self.history.len() > self.cfg.fer_window as usize {
            let old = self.history.pop_front().unwrap_or(0);
            self.raw -= u32::from(old & 1);
            self.residual -= u32::from(old >> 1);
        }
        let level = self.fixed.unwrap_or_else(|| {
            let fer = self.raw_rate();
            if fer < self.cfg.theta1 {
                FecLevel::None
            } else if fer <= self.cfg.theta2 {
                FecLevel::Byte
            } else {
                FecLevel::Packet
            }
        });
        let m = if level == FecLevel::Packet { self.parity_for(self.residual_rate()) } else { 0 };
        let next = Fec { cfg: self.cfg, level, m };
        if next != self.current {
            self.changes += 1;
            self.current = next;
        }
    }

    /// The least `m` in `1..=m_max` with P(block unrecoverable) < target
    /// at frame loss rate `p`; `m_max` if none is.
    pub fn parity_for(&self, p: f64) -> u32 {
        let k = self.cfg.block_k;
        (1..=self.cfg.m_max).find(|&m| binomial_tail(k + m, p, m) < self.cfg.target).unwrap_or(self.cfg.m_max)
    }
}
