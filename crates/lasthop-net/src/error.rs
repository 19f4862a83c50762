//! Error models: does this transmission on this link direction arrive corrupted?
//!
//! One [`ErrorModel`] sits on each link direction and is asked exactly once per
//! transmission, in transmission order, at the transmission's start time. It
//! answers from its own [`RngStream`] only, so its verdicts depend on nothing
//! but the run seed, its name and the packets it has been shown. The
//! configuration, [`ErrorModelConfig`], is the scenario schema; the runtime
//! state is an enum dispatch (no trait objects, no allocation per packet).
//!
//! The models and the sources they follow:
//!
//! - `exponential_bytes`: Balakrishnan et al. 1997 (seed 000) Sec. IV-A, "an
//!   exponentially distributed bit-error model" with "an average error rate of
//!   one every 64 kbytes". The distance between successive errors in the byte
//!   stream crossing the link direction is exponential; a packet is lost when
//!   an error falls inside its `size_bytes` (byte positions `[0, size)`: an
//!   error exactly at the end belongs to the next packet). The distance carries
//!   over from packet to packet; errors beyond the first inside one packet are
//!   skipped, as a packet can only be lost once. By memorylessness the loss of
//!   an S-byte packet is then independent of the past with probability
//!   `1 - exp(-S/mean)`. Departure: the testbed corrupted packets at the
//!   receiving entity's driver; we count errors over the whole wire size
//!   (headers included), with data and acks sharing one stream when they cross
//!   the same direction. `mean_bytes = 0` means no errors, which the scenarios
//!   use for the error-free baseline.
//! - `burst`: seed 000 Sec. IV-E and Table V, "two, four, or six packets are
//!   destroyed" per error, errors "at an average rate of one every 64 kbytes".
//!   The same byte-distance process as `exponential_bytes` picks where a burst
//!   starts; that packet and up to `burst_packets - 1` following transmissions
//!   on the direction are destroyed. Errors falling inside a packet already
//!   being destroyed do not extend the burst (the paper fixes the burst
//!   length); an error in the packet right after a burst starts a new one, so
//!   runs of losses can be longer than one burst. Which transmissions count as
//!   "following" is the model's `burst_reading`:
//!   - `frame_times` (the default): a burst is a channel event that lasts
//!     `burst_packets` transmission times of the frame that starts it (about
//!     41 ms for six 1440-byte frames on the 2 Mb/s WaveLAN with its 1084 µs
//!     framing); only transmissions starting before it ends are destroyed.
//!     On a busy link that is `burst_packets` frames in a row, which is what
//!     the paper destroys ("the loss of multiple packets in succession",
//!     Sec. IV-E); a burst that starts as the sender stalls dies with its
//!     duration instead of lying in wait for the retransmissions that come
//!     seconds later. We chose this over "the next `burst_packets` first
//!     transmissions" because a channel cannot tell a first transmission from
//!     a retransmission (the flag is for metrics only, see `list`), and
//!     because the slides (003, "Burst Losses") say LL-TCP-AWARE "can recover
//!     from small amounts of burst loss", which a burst that outlives the
//!     stall it causes does not let it do. Departure: the paper's model is
//!     explicitly not temporal ("we are in the process of experimenting with
//!     a temporal burst-loss model", Sec. IV-E); the duration only bounds a
//!     packet-count burst, it does not replace it.
//!   - `transmissions`: the reading before issue 10: the next
//!     `burst_packets - 1` transmissions on the direction, however far apart
//!     in time (a burst begun before an idle period destroys what is sent
//!     after it).
//! - `two_state`: ElAarag 2002 (seed 002) Sec. 4: good and bad states with
//!   exponentially distributed durations "in packets", packets sent in the bad
//!   state are corrupted. Two packet-counted units:
//!   - `packets_ns2`: ns-2's `TwoStateErrorModel` with unit `pkt` exactly
//!     (ns-2.35 `queue/errmodel.cc`, `corruptPkt`; elaarag-002.md Sec. 3.2):
//!     start in the good state with a remaining length drawn from its
//!     distribution; a packet is lost if the state is bad at its start; it
//!     consumes one unit of the remaining length; while the length is `<= 0`
//!     the state flips and a new draw is *added* (the remainder carries
//!     over), and the packet is lost too if any flip enters the bad state. A
//!     packet is thus lost when any part of its unit interval overlaps a bad
//!     period: a bad period of mean 8 costs about 9.1 packets, 8.25 % of all
//!     at (100, 8) (elaarag-002.md TABLE1-4).
//!   - `packets` (the default; lasthop's reading before TABLE1-4, kept for
//!     the results pinned on it): before each packet, if the remaining
//!     duration is `<= 0`, flip the state and draw a new one, discarding the
//!     remainder (repeating while `<= 0`); the packet's fate is the state at
//!     its start; then subtract one. A state lasts `ceil(X)` packets for
//!     `X ~ Exp(mean)`, whose mean is `1 / (1 - exp(-1/mean))` (8.50 packets
//!     for a mean of 8): 7.7 % loss at (100, 8). It departs from ns-2 in the
//!     redraw and in judging a packet by its start, not its whole interval.
//!   - `seconds`: the state process runs in simulated time from time zero
//!     (good first), and a packet is lost if the state at its transmission
//!     start is bad; durations are rounded to whole nanoseconds so that no
//!     float clock is ever compared.
//! - `frame_error_rate`: Yun 2009 (seed 004) Sec. 5.1, "we generate bit
//!   errors depending on the given FER" and "data packets are more prone to
//!   be lost than ACKs due to the longer length", read as yun-004.md Sec. 1.4
//!   and ambiguity 3's plausible reading: FER is the loss probability of a
//!   full data MPDU of `reference_bytes` (1074 B: 1000 B of payload, 40 B of
//!   TCP/IP, 34 B of ns-2's MAC framing, yun-004.md Sec. 1.2), and every
//!   frame sees the same independent bit errors, so a frame of S bytes is
//!   lost with probability `1 - (1 - fer)^(S / reference_bytes)` (a 74-byte
//!   TCP ack at FER 9 %: 0.65 %). Each transmission is an independent draw,
//!   as `bernoulli`'s; at exactly `reference_bytes` the probability is `fer`
//!   itself, so such frames get `bernoulli { p = fer }`'s verdicts from the
//!   same stream. S is the size the holder shows: a link's wire size, the
//!   DCF's MPDU (packet + MAC header and FCS; the PLCP header is
//!   error-free).
//! - `markov`: Yun 2009 (seed 004) Sec. 5.4, a two-state Markov chain with
//!   "state transitions ... per frame transmission" and all frames lost in the
//!   bad state. We start in the good state and, per frame, first make the
//!   transition and then give the frame the fate of the new state, so the very
//!   first frame is already lost with probability `p_gb`. Departure: the paper
//!   also loses good-state frames to collisions; collisions are the MAC's
//!   business, not the channel's.
//! - `outage`: Yun 2009 (seed 004) Sec. 5.3, Fig. 16: "the receiver is
//!   disconnected" at t = 10 s (yun-004.md Sec. 1.4: from then on its link
//!   loses every frame). Every transmission that starts in
//!   `[from_s, until_s)` is lost, every other one passes; without
//!   `until_s` the outage never ends. Deterministic: it draws nothing.
//!   On an 802.11 medium it is consulted where every model is (each data
//!   frame's attempt on the hop direction), so a disconnected station's
//!   frames all fail and the AP discards them after the retry limit.
//! - `list`: drops chosen for tests (DESIGN.md, "drops aimed at chosen sequence
//!   numbers, not at chance").

use lasthop_core::{Packet, PacketKind, RngStream, Time};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The error model of one link direction, as written in a scenario.
// Its doc comments are the JSON Schema's descriptions: the readings' marks ([T]) stay as they
// are written, not links.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "model", rename_all = "snake_case", deny_unknown_fields)]
pub enum ErrorModelConfig {
    /// No transmission errors.
    #[default]
    None,
    /// Exponentially distributed bit errors (Balakrishnan et al. 1997, Sec.
    /// IV-A): the distance between successive errors in the byte stream is
    /// exponential; a packet is lost when an error falls inside it.
    ExponentialBytes {
        /// Mean distance between successive errors, in bytes of the stream
        /// crossing this link direction (wire sizes). 0 means no errors.
        mean_bytes: f64,
    },
    /// Each transmission lost independently with a fixed probability.
    Bernoulli {
        /// Probability that a transmission is lost, in [0, 1].
        p: f64,
    },
    /// Good/bad states with exponentially distributed durations (ElAarag 2002,
    /// Sec. 4; ns-2's TwoStateErrorModel): transmissions in the bad state are
    /// lost, in the good state they pass.
    TwoState {
        /// Mean duration of the good state, in `unit`s (packets or seconds).
        good_mean: f64,
        /// Mean duration of the bad state, in `unit`s (packets or seconds).
        bad_mean: f64,
        /// Unit of `good_mean` and `bad_mean`: packets (the default),
        /// seconds, or packet times.
        #[serde(default)]
        unit: StateUnit,
        /// With unit `packet_times`: the packet size, in bytes, whose
        /// transmission time on this link direction is the unit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        packet_bytes: Option<u32>,
    },
    /// Independent bit errors at the rate that loses a frame of
    /// `reference_bytes` with probability `fer` (Yun 2009, Sec. 5.1;
    /// yun-004.md Sec. 1.4): a frame of S bytes is lost with probability
    /// 1 - (1 - fer)^(S / reference_bytes).
    FrameErrorRate {
        /// Loss probability of a frame of `reference_bytes`, in [0, 1].
        fer: f64,
        /// The frame size `fer` is given for, in bytes (>= 1). [T] 1074, the
        /// data MPDU (1000 B payload, 40 B TCP/IP, 34 B MAC framing).
        #[serde(default = "default_reference_bytes")]
        reference_bytes: u32,
    },
    /// Two-state Markov chain with one transition per frame (Yun 2009, Sec.
    /// 5.4): frames in the bad state are lost, in the good state they pass.
    Markov {
        /// Probability of moving from the good to the bad state at a frame, in
        /// [0, 1].
        p_gb: f64,
        /// Probability of staying in the bad state at a frame, in [0, 1].
        p_bb: f64,
    },
    /// Burst errors (Balakrishnan et al. 1997, Table V): errors placed as in
    /// `exponential_bytes`; each one destroys the packet it falls in and up to
    /// `burst_packets - 1` following transmissions (see `burst_reading`).
    Burst {
        /// Mean distance between successive burst-starting errors, in bytes of
        /// the stream crossing this link direction. 0 means no errors.
        mean_bytes: f64,
        /// Packets destroyed per burst (at least 1).
        burst_packets: u32,
        /// Which transmissions a burst destroys: `frame_times` (default; those
        /// starting within `burst_packets` transmission times of the frame
        /// that started it) or `transmissions` (the next `burst_packets - 1`,
        /// however far apart in time).
        #[serde(default)]
        burst_reading: BurstReading,
    },
    /// A disconnection (Yun 2009, Sec. 5.3, Fig. 16): every transmission
    /// starting in [`from_s`, `until_s`) is lost, every other one passes.
    Outage {
        /// When the outage begins, in seconds of simulated time (>= 0).
        from_s: f64,
        /// When it ends, in seconds (> `from_s`). Absent: never.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        until_s: Option<f64>,
    },
    /// Chosen drops, for tests.
    List {
        /// 0-based indices of the transmissions to drop, counting every packet
        /// sent on this link direction.
        #[serde(default)]
        packets: Vec<u64>,
        /// TCP sequence numbers, in bytes: the first transmission of a data
        /// segment starting at one of them is dropped, its retransmissions pass.
        #[serde(default)]
        seqs: Vec<u64>,
    },
}

/// How long a `burst` lasts (module docs: why `frame_times` is the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BurstReading {
    /// A channel event: it destroys the transmissions starting within
    /// `burst_packets` transmission times of the frame that started it, at
    /// most `burst_packets` of them.
    #[default]
    FrameTimes,
    /// The next `burst_packets - 1` transmissions on the direction, however
    /// far apart in time (the reading before issue 10).
    Transmissions,
}

/// Unit of the state durations of the `two_state` model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StateUnit {
    /// Durations count transmissions on the link direction, a packet's
    /// fate being the state at its start, a state's remainder dropped at a
    /// flip (the module docs).
    #[default]
    Packets,
    /// Durations count transmissions on the link direction by ns-2's rule
    /// for unit `pkt` (the module docs): remainders carry over, a packet
    /// overlapping any bad period is lost.
    PacketsNs2,
    /// Durations are simulated time, in seconds.
    Seconds,
    /// Durations are counted in transmission times of a `packet_bytes`
    /// packet on this link direction: the state runs in time, so the channel
    /// keeps changing while the sender is silent. The link converts this to
    /// `seconds` with its own rate ([`ErrorModelConfig::resolve_packet_times`]).
    PacketTimes,
}

fn default_reference_bytes() -> u32 {
    1074
}

/// The loss probability of a frame of `size_bytes` under `frame_error_rate`:
/// `fer` exactly at the reference size.
#[inline]
fn frame_error_probability(fer: f64, reference_bytes: u32, size_bytes: u32) -> f64 {
    if size_bytes == reference_bytes {
        fer
    } else {
        1.0 - (1.0 - fer).powf(f64::from(size_bytes) / f64::from(reference_bytes))
    }
}

fn check_probability(field: &str, p: f64) -> Result<(), (String, String)> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err((field.to_string(), "must be in [0, 1]".to_string()))
    }
}

fn check_non_negative(field: &str, x: f64) -> Result<(), (String, String)> {
    // NaN fails `is_finite`, so it is rejected too.
    if x.is_finite() && x >= 0.0 {
        Ok(())
    } else {
        Err((field.to_string(), "must be finite and >= 0".to_string()))
    }
}

fn check_positive(field: &str, x: f64) -> Result<(), (String, String)> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        Err((field.to_string(), "must be finite and > 0".to_string()))
    }
}

impl ErrorModelConfig {
    /// True if the model never corrupts anything (zero mean is the
    /// scenarios' spelling of "error-free"): it then needs no random stream.
    pub fn is_error_free(&self) -> bool {
        match self {
            ErrorModelConfig::None => true,
            ErrorModelConfig::ExponentialBytes { mean_bytes } | ErrorModelConfig::Burst { mean_bytes, .. } => {
                *mean_bytes <= 0.0
            }
            _ => false,
        }
    }

    /// Turn `packet_times` durations into seconds, given the transmission
    /// time in ns of a packet of a given size on the link direction.
    pub fn resolve_packet_times(&self, tx_time_ns: impl Fn(u32) -> u64) -> ErrorModelConfig {
        match self {
            ErrorModelConfig::TwoState {
                good_mean,
                bad_mean,
                unit: StateUnit::PacketTimes,
                packet_bytes: Some(size),
            } => {
                let unit_s = tx_time_ns(*size) as f64 * 1e-9;
                ErrorModelConfig::TwoState {
                    good_mean: good_mean * unit_s,
                    bad_mean: bad_mean * unit_s,
                    unit: StateUnit::Seconds,
                    packet_bytes: None,
                }
            }
            other => other.clone(),
        }
    }

    /// Checks the values serde cannot: `Err((field, reason))` names the first
    /// offending field of this model; the caller prefixes its path.
    pub fn validate(&self) -> Result<(), (String, String)> {
        match self {
            ErrorModelConfig::None | ErrorModelConfig::List { .. } => Ok(()),
            ErrorModelConfig::ExponentialBytes { mean_bytes } => check_mean_bytes(*mean_bytes),
            ErrorModelConfig::Bernoulli { p } => check_probability("p", *p),
            ErrorModelConfig::FrameErrorRate { fer, reference_bytes } => {
                check_probability("fer", *fer)?;
                if *reference_bytes == 0 {
                    return Err(("reference_bytes".to_string(), "must be >= 1".to_string()));
                }
                Ok(())
            }
            ErrorModelConfig::TwoState { good_mean, bad_mean, unit, packet_bytes } => {
                // A zero mean would make a state last no time at all and the
                // flip loop spin forever.
                check_positive("good_mean", *good_mean)?;
                check_positive("bad_mean", *bad_mean)?;
                match (unit, packet_bytes) {
                    (StateUnit::PacketTimes, None | Some(0)) => {
                        Err(("packet_bytes".to_string(), "must be given (>= 1) with unit packet_times".to_string()))
                    }
                    (StateUnit::Packets | StateUnit::PacketsNs2 | StateUnit::Seconds, Some(_)) => {
                        Err(("packet_bytes".to_string(), "is only meaningful with unit packet_times".to_string()))
                    }
                    _ => Ok(()),
                }
            }
            ErrorModelConfig::Markov { p_gb, p_bb } => {
                check_probability("p_gb", *p_gb)?;
                check_probability("p_bb", *p_bb)
            }
            ErrorModelConfig::Outage { from_s, until_s } => {
                check_non_negative("from_s", *from_s)?;
                match until_s {
                    Some(u) if !(u.is_finite() && u > from_s) => {
                        Err(("until_s".to_string(), format!("must be finite and > from_s ({from_s}), got {u}")))
                    }
                    _ => Ok(()),
                }
            }
            ErrorModelConfig::Burst { mean_bytes, burst_packets, .. } => {
                check_mean_bytes(*mean_bytes)?;
                if *burst_packets == 0 {
                    return Err(("burst_packets".to_string(), "must be >= 1".to_string()));
                }
                Ok(())
            }
        }
    }
}

/// A mean distance between bit errors, in bytes: 0 (no errors) or at least
/// one bit (1/8 byte: every bit in error, a bit error rate of 1). Smaller
/// values are no error process at all, and usually a bit error rate typed
/// where a byte count is meant (issue 10, item 9).
fn check_mean_bytes(mean_bytes: f64) -> Result<(), (String, String)> {
    check_non_negative("mean_bytes", mean_bytes)?;
    if mean_bytes > 0.0 && mean_bytes < 0.125 {
        let reason = format!(
            "must be 0 (no errors) or at least 0.125 (one bit: a bit error rate of 1), got {mean_bytes}; \
             it is a mean distance between bit errors in bytes, not a rate"
        );
        return Err(("mean_bytes".to_string(), reason));
    }
    Ok(())
}

/// Most steps an error model's inner loop takes for one frame. With the
/// papers' parameters a loop takes a step or two; parameters that would make
/// it take millions (an error every 1e-9 bytes, states lasting 1e-12 s) are
/// finished by the process's limiting law instead (memoryless gaps, or the
/// stationary state of an alternating process with exponential durations),
/// so no input can hang a run here.
const MAX_STEPS: u32 = 1024;

/// Where the next error falls in a byte stream with exponential gaps (the
/// process shared by `exponential_bytes` and `burst`).
#[derive(Clone, Debug)]
struct ByteErrors {
    mean_bytes: f64,
    /// Distance from the start of the next packet to the next error, in bytes.
    to_next_error_bytes: f64,
}

impl ByteErrors {
    fn new(mean_bytes: f64, rng: &mut RngStream) -> ByteErrors {
        ByteErrors { mean_bytes, to_next_error_bytes: rng.exponential(mean_bytes) }
    }

    /// Moves the stream past a packet of `size_bytes`; true if an error fell
    /// inside it.
    #[inline]
    fn crosses(&mut self, size_bytes: u32, rng: &mut RngStream) -> bool {
        let size = f64::from(size_bytes);
        if self.to_next_error_bytes >= size {
            self.to_next_error_bytes -= size;
            return false;
        }
        // Further errors inside the same packet cannot lose it twice; skip to
        // the first one beyond its end and carry the remainder.
        for _ in 0..MAX_STEPS {
            self.to_next_error_bytes += rng.exponential(self.mean_bytes);
            if self.to_next_error_bytes >= size {
                self.to_next_error_bytes -= size;
                return true;
            }
        }
        // Errors far denser than bytes (a bit error rate typed as a mean
        // distance): the gaps are memoryless, so the first error past the
        // end is one draw beyond it.
        self.to_next_error_bytes = rng.exponential(self.mean_bytes);
        true
    }
}

/// Runtime state of one model; private so that models can change their
/// bookkeeping without touching the links that hold them.
#[derive(Clone, Debug)]
enum State {
    ExponentialBytes {
        rng: RngStream,
        bytes: ByteErrors,
    },
    Bernoulli {
        rng: RngStream,
        p: f64,
    },
    FrameErrorRate {
        rng: RngStream,
        fer: f64,
        reference_bytes: u32,
    },
    TwoStatePackets {
        rng: RngStream,
        good_mean_pkts: f64,
        bad_mean_pkts: f64,
        bad: bool,
        /// Packets left in the current state (ns-2's `remainLen_`).
        remaining_pkts: f64,
    },
    /// ns-2's `pkt` rule (`StateUnit::PacketsNs2`).
    TwoStateNs2 {
        rng: RngStream,
        good_mean_pkts: f64,
        bad_mean_pkts: f64,
        bad: bool,
        /// ns-2's `remainLen_`, always > 0 between packets.
        remaining_pkts: f64,
    },
    TwoStateSeconds {
        rng: RngStream,
        good_mean_ns: f64,
        bad_mean_ns: f64,
        bad: bool,
        /// When the current state ends, in nanoseconds since the run's start.
        next_flip_ns: u64,
    },
    Markov {
        rng: RngStream,
        p_gb: f64,
        p_bb: f64,
        bad: bool,
    },
    Burst {
        rng: RngStream,
        bytes: ByteErrors,
        burst_packets: u32,
        reading: BurstReading,
        /// Transmissions still to destroy in the current burst.
        burst_left: u32,
        /// `frame_times`: the burst destroys nothing starting at or after this.
        burst_end: Time,
    },
    Outage {
        /// Transmissions starting at or after this are lost, in ns ...
        from_ns: u64,
        /// ... and before this (`u64::MAX`: the outage never ends).
        until_ns: u64,
    },
    List {
        /// Index of the next transmission on this direction.
        index: u64,
        /// Sorted, deduplicated transmission indices to drop.
        packets: Vec<u64>,
        /// First entry of `packets` not yet behind `index`.
        next_packet: usize,
        /// Sorted, deduplicated sequence numbers to drop once.
        seqs: Vec<u64>,
        /// `seq_seen[k]`: the first transmission of `seqs[k]` has gone by.
        seq_seen: Vec<bool>,
    },
}

/// The error model of one link direction at run time.
#[derive(Clone, Debug)]
pub struct ErrorModel {
    /// Boxed: a model's state (its RNG above all) is some 300 bytes, and
    /// inline it made every link direction span many cache lines, which
    /// topologies of thousands of links paid for on every event.
    /// `None`: error-free (no pointer to follow on every frame).
    state: Option<Box<State>>,
}

/// The state of an alternating good/bad process with exponential durations
/// long after its start: bad with probability bad / (good + bad).
fn stationary_bad(rng: &mut RngStream, good_mean: f64, bad_mean: f64) -> bool {
    rng.bernoulli(bad_mean / (good_mean + bad_mean))
}

/// An exponential duration rounded to whole nanoseconds.
#[inline]
fn exponential_ns(rng: &mut RngStream, mean_ns: f64) -> u64 {
    // `as` saturates, so an absurdly long draw means "never flips again".
    rng.exponential(mean_ns).round() as u64
}

impl ErrorModel {
    /// A model that never corrupts anything.
    pub fn none() -> ErrorModel {
        ErrorModel { state: None }
    }

    /// Builds the model of `cfg` drawing from the stream `rng` makes; an
    /// error-free model ([`ErrorModelConfig::is_error_free`]) makes none (a
    /// run of 10,000 links spent a tenth of its time naming and hashing
    /// streams that nothing drew from). `cfg` is expected to have passed
    /// [`ErrorModelConfig::validate`].
    pub fn new(cfg: &ErrorModelConfig, rng: impl FnOnce() -> RngStream) -> ErrorModel {
        if cfg.is_error_free() {
            return ErrorModel::none();
        }
        if let ErrorModelConfig::Outage { from_s, until_s } = cfg {
            // Draws nothing: no stream. `as` saturates: a bound beyond u64
            // ns is never reached.
            let ns = |s: f64| (s * 1e9).round() as u64;
            let state = State::Outage { from_ns: ns(*from_s), until_ns: until_s.map_or(u64::MAX, ns) };
            return ErrorModel { state: Some(Box::new(state)) };
        }
        let mut rng = rng();
        let state = match cfg {
            ErrorModelConfig::None => return ErrorModel::none(),
            ErrorModelConfig::ExponentialBytes { mean_bytes } => {
                let bytes = ByteErrors::new(*mean_bytes, &mut rng);
                State::ExponentialBytes { rng, bytes }
            }
            ErrorModelConfig::Bernoulli { p } => State::Bernoulli { rng, p: *p },
            ErrorModelConfig::FrameErrorRate { fer, reference_bytes } => {
                State::FrameErrorRate { rng, fer: *fer, reference_bytes: *reference_bytes }
            }
            ErrorModelConfig::TwoState { good_mean, bad_mean, unit: StateUnit::Packets, .. } => {
                let remaining_pkts = rng.exponential(*good_mean);
                State::TwoStatePackets {
                    rng,
                    good_mean_pkts: *good_mean,
                    bad_mean_pkts: *bad_mean,
                    bad: false,
                    remaining_pkts,
                }
            }
            ErrorModelConfig::TwoState { good_mean, bad_mean, unit: StateUnit::PacketsNs2, .. } => {
                let remaining_pkts = rng.exponential(*good_mean);
                State::TwoStateNs2 {
                    rng,
                    good_mean_pkts: *good_mean,
                    bad_mean_pkts: *bad_mean,
                    bad: false,
                    remaining_pkts,
                }
            }
            ErrorModelConfig::TwoState { good_mean, bad_mean, unit: StateUnit::Seconds, .. } => {
                let good_mean_ns = good_mean * 1e9;
                let next_flip_ns = exponential_ns(&mut rng, good_mean_ns);
                State::TwoStateSeconds { rng, good_mean_ns, bad_mean_ns: bad_mean * 1e9, bad: false, next_flip_ns }
            }
            ErrorModelConfig::TwoState { unit: StateUnit::PacketTimes, .. } => {
                panic!("two_state packet_times must be resolved with the link's rate first")
            }
            ErrorModelConfig::Markov { p_gb, p_bb } => State::Markov { rng, p_gb: *p_gb, p_bb: *p_bb, bad: false },
            ErrorModelConfig::Burst { mean_bytes, burst_packets, burst_reading } => {
                let bytes = ByteErrors::new(*mean_bytes, &mut rng);
                State::Burst {
                    rng,
                    bytes,
                    // validate() rejects 0; a 0 here behaves as 1.
                    burst_packets: (*burst_packets).max(1),
                    reading: *burst_reading,
                    burst_left: 0,
                    burst_end: Time::ZERO,
                }
            }
            ErrorModelConfig::Outage { .. } => unreachable!("built above, without a stream"),
            ErrorModelConfig::List { packets, seqs } => {
                let mut packets = packets.clone();
                packets.sort_unstable();
                packets.dedup();
                let mut seqs = seqs.clone();
                seqs.sort_unstable();
                seqs.dedup();
                let seq_seen = vec![false; seqs.len()];
                State::List { index: 0, packets, next_packet: 0, seqs, seq_seen }
            }
        };
        ErrorModel { state: Some(Box::new(state)) }
    }

    /// True if this model can never corrupt a packet (lets a link skip it).
    pub fn is_none(&self) -> bool {
        self.state.is_none()
    }

    /// The verdict for one transmission of `pkt` starting at `now` and taking
    /// `tx_time_ns` on the medium: true if it arrives corrupted. Call exactly
    /// once per transmission on this link direction, in transmission order:
    /// every model but `bernoulli` and `frame_error_rate` keeps state from one call to the next.
    #[inline(always)]
    pub fn corrupts(&mut self, now: Time, tx_time_ns: u64, pkt: &Packet) -> bool {
        let Some(state) = self.state.as_deref_mut() else { return false };
        match state {
            State::ExponentialBytes { rng, bytes } => bytes.crosses(pkt.size_bytes, rng),
            State::Bernoulli { rng, p } => rng.bernoulli(*p),
            State::FrameErrorRate { rng, fer, reference_bytes } => {
                rng.bernoulli(frame_error_probability(*fer, *reference_bytes, pkt.size_bytes))
            }
            State::TwoStatePackets { rng, good_mean_pkts, bad_mean_pkts, bad, remaining_pkts } => {
                let mut steps = 0;
                while *remaining_pkts <= 0.0 {
                    if steps == MAX_STEPS {
                        *bad = stationary_bad(rng, *good_mean_pkts, *bad_mean_pkts);
                        let mean = if *bad { *bad_mean_pkts } else { *good_mean_pkts };
                        // This packet is in the drawn state whatever the draw.
                        *remaining_pkts = rng.exponential(mean).max(f64::MIN_POSITIVE);
                        break;
                    }
                    *bad = !*bad;
                    let mean = if *bad { *bad_mean_pkts } else { *good_mean_pkts };
                    *remaining_pkts = rng.exponential(mean);
                    steps += 1;
                }
                *remaining_pkts -= 1.0;
                *bad
            }
            State::TwoStateNs2 { rng, good_mean_pkts, bad_mean_pkts, bad, remaining_pkts } => {
                // ns-2.35 corruptPkt: the state at the packet's start (its
                // remaining length is > 0 here), then the flips its unit
                // interval crosses, each new length added to the remainder.
                let mut lost = *bad;
                *remaining_pkts -= 1.0;
                let mut steps = 0;
                while *remaining_pkts <= 0.0 {
                    if steps == MAX_STEPS {
                        // Means so small that no length covers a packet:
                        // the stationary law, as the `packets` unit does.
                        *bad = stationary_bad(rng, *good_mean_pkts, *bad_mean_pkts);
                        let mean = if *bad { *bad_mean_pkts } else { *good_mean_pkts };
                        *remaining_pkts = rng.exponential(mean).max(f64::MIN_POSITIVE);
                        lost |= *bad;
                        break;
                    }
                    *bad = !*bad;
                    let mean = if *bad { *bad_mean_pkts } else { *good_mean_pkts };
                    *remaining_pkts += rng.exponential(mean);
                    lost |= *bad;
                    steps += 1;
                }
                lost
            }
            State::TwoStateSeconds { rng, good_mean_ns, bad_mean_ns, bad, next_flip_ns } => {
                // A flip at exactly `now` has happened: the packet sees the
                // new state.
                let mut steps = 0;
                while *next_flip_ns <= now.ns() {
                    if steps == MAX_STEPS {
                        *bad = stationary_bad(rng, *good_mean_ns, *bad_mean_ns);
                        let mean = if *bad { *bad_mean_ns } else { *good_mean_ns };
                        *next_flip_ns = now.ns().saturating_add(exponential_ns(rng, mean).max(1));
                        break;
                    }
                    *bad = !*bad;
                    let mean = if *bad { *bad_mean_ns } else { *good_mean_ns };
                    *next_flip_ns = next_flip_ns.saturating_add(exponential_ns(rng, mean));
                    steps += 1;
                }
                *bad
            }
            State::Markov { rng, p_gb, p_bb, bad } => {
                // Transition first, then the frame takes the new state's fate
                // (Yun 2009: "state transitions occur per frame transmission").
                let p_to_bad = if *bad { *p_bb } else { *p_gb };
                *bad = rng.bernoulli(p_to_bad);
                *bad
            }
            State::Burst { rng, bytes, burst_packets, reading, burst_left, burst_end } => {
                // The byte stream moves on even through destroyed packets;
                // errors inside them are absorbed by the burst.
                let hit = bytes.crosses(pkt.size_bytes, rng);
                if *reading == BurstReading::FrameTimes && now >= *burst_end {
                    // The fade is over, however many frames it took.
                    *burst_left = 0;
                }
                if *burst_left > 0 {
                    *burst_left -= 1;
                    true
                } else if hit {
                    *burst_left = *burst_packets - 1;
                    *burst_end = now.plus_ns(tx_time_ns.saturating_mul(u64::from(*burst_packets)));
                    true
                } else {
                    false
                }
            }
            State::Outage { from_ns, until_ns } => (*from_ns..*until_ns).contains(&now.ns()),
            State::List { index, packets, next_packet, seqs, seq_seen } => {
                let i = *index;
                *index += 1;
                while *next_packet < packets.len() && packets[*next_packet] < i {
                    *next_packet += 1;
                }
                let by_index = packets.get(*next_packet) == Some(&i);
                // "First transmission" is the first time this direction sees
                // the segment; the sender's `is_retransmit` flag is for
                // metrics only and must not steer a model.
                let mut by_seq = false;
                if pkt.kind == PacketKind::Data && pkt.tcp.len > 0 {
                    if let Ok(k) = seqs.binary_search(&pkt.tcp.seq) {
                        by_seq = !seq_seen[k];
                        seq_seen[k] = true;
                    }
                }
                by_index || by_seq
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::TcpHeader;

    fn data(size_bytes: u32, seq: u64, len: u32) -> Packet {
        Packet {
            uid: 0,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 1,
            size_bytes,
            ecn: lasthop_core::Ecn::NotEct,
            tcp: TcpHeader { seq, len, ..TcpHeader::default() },
        }
    }

    fn ack(size_bytes: u32, ack_no: u64) -> Packet {
        Packet {
            kind: PacketKind::Ack,
            tcp: TcpHeader { ack: ack_no, ..TcpHeader::default() },
            ..data(size_bytes, 0, 0)
        }
    }

    fn model(cfg: ErrorModelConfig, seed: u64) -> ErrorModel {
        cfg.validate().unwrap();
        ErrorModel::new(&cfg, || RngStream::new(seed, "link:test:a->b:error"))
    }

    /// Loss counts and runs of consecutive losses over a long transmission.
    #[derive(Debug, Default)]
    struct Losses {
        packets: u64,
        lost: u64,
        runs: u64,
        /// The previous transmission was lost (`lost / runs` is the mean run).
        in_run: bool,
    }

    impl Losses {
        fn record(&mut self, lost: bool) {
            self.packets += 1;
            if lost {
                self.lost += 1;
                if !self.in_run {
                    self.runs += 1;
                }
            }
            self.in_run = lost;
        }
        fn loss_rate(&self) -> f64 {
            self.lost as f64 / self.packets as f64
        }
        fn mean_run(&self) -> f64 {
            self.lost as f64 / self.runs as f64
        }
    }

    /// Sends `n` packets of `size_bytes`, one every `spacing_ns`.
    fn run(m: &mut ErrorModel, n: u64, size_bytes: u32, spacing_ns: u64) -> Losses {
        let pkt = data(size_bytes, 0, size_bytes.saturating_sub(40));
        let mut l = Losses::default();
        for i in 0..n {
            l.record(m.corrupts(Time::from_ns(i * spacing_ns), spacing_ns, &pkt));
        }
        l
    }

    fn assert_within_5pct(what: &str, measured: f64, expected: f64) {
        let rel = (measured - expected).abs() / expected;
        println!("{what}: measured {measured:.6}, expected {expected:.6}, off {:.2}%", rel * 100.0);
        assert!(rel < 0.05, "{what}: measured {measured}, expected {expected}");
    }

    #[test]
    fn exponential_bytes_loses_one_minus_exp_of_size_over_mean() {
        // Seed 000 Sec. IV-A: one error every 64 kbytes on 1400-byte data.
        let cfg = ErrorModelConfig::ExponentialBytes { mean_bytes: 65536.0 };
        let l = run(&mut model(cfg.clone(), 1), 2_000_000, 1440, 1);
        assert_within_5pct("exponential_bytes 1440 B loss rate", l.loss_rate(), 1.0 - (-1440.0f64 / 65536.0).exp());
        // Acks lose about 36 times less often: 20 M packets give ~12,000
        // losses, a relative standard error under 1%.
        let l = run(&mut model(cfg, 2), 20_000_000, 40, 1);
        assert_within_5pct("exponential_bytes 40 B loss rate", l.loss_rate(), 1.0 - (-40.0f64 / 65536.0).exp());
    }

    #[test]
    fn exponential_bytes_with_zero_mean_never_loses() {
        let mut m = model(ErrorModelConfig::ExponentialBytes { mean_bytes: 0.0 }, 1);
        assert!(m.is_none());
        assert_eq!(run(&mut m, 100_000, 1440, 1).lost, 0);
        let mut m = model(
            ErrorModelConfig::Burst { mean_bytes: 0.0, burst_packets: 4, burst_reading: BurstReading::FrameTimes },
            1,
        );
        assert_eq!(run(&mut m, 100_000, 1440, 1).lost, 0);
    }

    #[test]
    fn exponential_bytes_carries_the_distance_over() {
        // One-byte packets sample the stream finely: the count of hit bytes
        // is the number of errors, 1/mean per byte (two errors share a byte
        // once in ~1000 at this mean), which holds only if the distance to
        // the next error survives from one packet to the next. 20,000 errors:
        // a relative standard error of 0.7%.
        let mut m = model(ErrorModelConfig::ExponentialBytes { mean_bytes: 1000.0 }, 3);
        let l = run(&mut m, 20_000_000, 1, 1);
        assert_within_5pct("exponential_bytes errors per byte", l.loss_rate(), 1.0 / 1000.0);
    }

    #[test]
    fn absurd_parameters_finish_by_the_limiting_law_instead_of_hanging() {
        // One error per bit, the smallest mean `validate` admits: thousands
        // of errors per frame, and each frame's work is bounded.
        for mean_bytes in [0.125, 0.2] {
            let l = run(&mut model(ErrorModelConfig::ExponentialBytes { mean_bytes }, 1), 10_000, 1440, 1);
            assert_eq!(l.lost, 10_000, "mean {mean_bytes}");
        }
        // States of 1e-12 s (shorter than the clock's nanosecond): the process
        // at each packet is in its stationary state, bad a fraction bad/(good+bad).
        let cfg = ErrorModelConfig::TwoState {
            good_mean: 3e-12,
            bad_mean: 1e-12,
            unit: StateUnit::Seconds,
            packet_bytes: None,
        };
        let l = run(&mut model(cfg, 1), 200_000, 1024, 1_000);
        assert_within_5pct("two_state 1e-12 s loss rate", l.loss_rate(), 0.25);
        // The same in packet times of 1e-300: resolved to ns, then as above.
        let cfg = ErrorModelConfig::TwoState {
            good_mean: 1e-300,
            bad_mean: 1e-300,
            unit: StateUnit::PacketTimes,
            packet_bytes: Some(1024),
        }
        .resolve_packet_times(|size| u64::from(size) * 8_000);
        let l = run(&mut model(cfg, 2), 200_000, 1024, 1_000);
        assert_within_5pct("two_state 1e-300 packet times loss rate", l.loss_rate(), 0.5);
    }

    #[test]
    fn bernoulli_loses_p() {
        let l = run(&mut model(ErrorModelConfig::Bernoulli { p: 0.02 }, 1), 2_000_000, 1440, 1);
        assert_within_5pct("bernoulli loss rate", l.loss_rate(), 0.02);
    }

    #[test]
    fn frame_error_rate_scales_the_loss_with_the_frame_length() {
        // yun-004.md Sec. 1.4: FER is the 1074-byte data MPDU's; a 74-byte
        // TCP ack (40 B + 34 B of MAC framing) and a 14-byte MAC ack see
        // the same bit error rate.
        let p = |fer, bytes| frame_error_probability(fer, 1074, bytes);
        assert_eq!(p(0.09, 1074), 0.09, "exactly the FER at the reference size");
        assert_eq!(p(0.09, 74), 1.0 - 0.91f64.powf(74.0 / 1074.0));
        assert!((p(0.09, 74) - 0.006477).abs() < 1e-6, "{}", p(0.09, 74));
        // The reference's table: 0.65 % and 0.12 % at 9 %, 0.069 % and
        // 0.013 % at 1 %.
        assert!((p(0.09, 14) - 0.00123).abs() < 1e-5, "{}", p(0.09, 14));
        assert!((p(0.01, 74) - 0.000692).abs() < 1e-6, "{}", p(0.01, 74));
        assert!((p(0.01, 14) - 0.000131).abs() < 1e-6, "{}", p(0.01, 14));
        // Two frames of half the length lose one or both as often as the
        // whole one: (1 - p(537))^2 = 1 - fer.
        assert!(((1.0 - p(0.09, 537)).powi(2) - 0.91).abs() < 1e-12);
        assert_eq!((p(0.0, 74), p(1.0, 74), p(1.0, 5000)), (0.0, 1.0, 1.0));
        // Drawn: 400,000 TCP acks at 9 %.
        let mut m = model(ErrorModelConfig::FrameErrorRate { fer: 0.09, reference_bytes: 1074 }, 5);
        let mut l = Losses::default();
        for i in 0..400_000 {
            l.record(m.corrupts(Time::from_ns(i), 0, &ack(74, 1)));
        }
        assert_within_5pct("74-byte ack loss", l.loss_rate(), p(0.09, 74));
    }

    #[test]
    fn frame_error_rate_at_the_reference_size_is_bernoulli_fer() {
        // Same stream, frames of exactly reference_bytes: the same verdicts.
        let fer = ErrorModelConfig::FrameErrorRate { fer: 0.3, reference_bytes: 1440 };
        assert_eq!(verdicts(&fer, 9), verdicts(&ErrorModelConfig::Bernoulli { p: 0.3 }, 9));
        // Another reference size: other verdicts (1440-byte frames lose less).
        let longer = ErrorModelConfig::FrameErrorRate { fer: 0.3, reference_bytes: 2000 };
        let (a, b) = (verdicts(&longer, 9), verdicts(&fer, 9));
        assert!(a.iter().zip(&b).all(|(x, y)| !x || *y), "a smaller probability from the same draws");
        assert!(a.iter().filter(|&&v| v).count() < b.iter().filter(|&&v| v).count());
    }

    #[test]
    fn two_state_packets_matches_the_ns2_discretisation() {
        // Seed 002 Table I, data direction at BER 1e-5: good 100, bad 8.
        let (good, bad) = (100.0f64, 8.0f64);
        let cfg =
            ErrorModelConfig::TwoState { good_mean: good, bad_mean: bad, unit: StateUnit::Packets, packet_bytes: None };
        let l = run(&mut model(cfg, 1), 2_000_000, 1024, 1);
        // Each state lasts ceil(X) packets, X ~ Exp(mean):
        // E[ceil(X)] = sum_{k>=0} P(X > k) = 1 / (1 - exp(-1/mean)).
        let runs = |mean: f64| 1.0 / (1.0 - (-1.0 / mean).exp());
        let (e_good, e_bad) = (runs(good), runs(bad));
        assert_within_5pct("two_state packets loss rate", l.loss_rate(), e_bad / (e_good + e_bad));
        // Good states last at least one packet, so bad states never merge.
        assert_within_5pct("two_state packets mean loss run", l.mean_run(), e_bad);
    }

    /// elaarag-002.md TABLE1-4: ns-2's `pkt` rule at Table I's (100, 8)
    /// loses 8.25 % +- 0.3 of the packets in runs of 9.1 +- 0.3 (the
    /// reference's simulation of ns-2.35's corruptPkt over 4e6 packets), and
    /// the acks' (1000, 3) 0.40 % in runs of 4.0.
    #[test]
    fn two_state_packets_ns2_follows_ns2s_pkt_rule() {
        let ns2 = |good_mean, bad_mean| ErrorModelConfig::TwoState {
            good_mean,
            bad_mean,
            unit: StateUnit::PacketsNs2,
            packet_bytes: None,
        };
        let l = run(&mut model(ns2(100.0, 8.0), 1), 4_000_000, 1024, 1);
        assert!((l.loss_rate() - 0.0825).abs() < 0.003, "loss {}", l.loss_rate());
        assert!((l.mean_run() - 9.1).abs() < 0.3, "mean run {}", l.mean_run());
        let acks = run(&mut model(ns2(1000.0, 3.0), 2), 4_000_000, 40, 1);
        assert!((acks.loss_rate() - 0.0040).abs() < 0.0003, "ack loss {}", acks.loss_rate());
        assert!((acks.mean_run() - 4.0).abs() < 0.2, "ack mean run {}", acks.mean_run());
        // The `packets` reading of the same draws loses fewer, in shorter runs.
        let cfg = ErrorModelConfig::TwoState {
            good_mean: 100.0,
            bad_mean: 8.0,
            unit: StateUnit::Packets,
            packet_bytes: None,
        };
        let ours = run(&mut model(cfg, 1), 4_000_000, 1024, 1);
        assert!(ours.loss_rate() < 0.079 && ours.mean_run() < 8.8, "{} {}", ours.loss_rate(), ours.mean_run());
    }

    #[test]
    fn two_state_seconds_loses_the_bad_time_fraction() {
        let (good, bad) = (0.1f64, 0.008f64);
        let cfg =
            ErrorModelConfig::TwoState { good_mean: good, bad_mean: bad, unit: StateUnit::Seconds, packet_bytes: None };
        // One packet every millisecond for 2,000 s: ~18,500 good/bad cycles.
        let l = run(&mut model(cfg, 1), 2_000_000, 1024, 1_000_000);
        assert_within_5pct("two_state seconds loss rate", l.loss_rate(), bad / (good + bad));
    }

    #[test]
    fn markov_matches_its_stationary_law() {
        // Seed 004 Fig. 18: p_gb 0.01, p_bb from 0.1 to 0.5.
        let (p_gb, p_bb) = (0.01f64, 0.3f64);
        let l = run(&mut model(ErrorModelConfig::Markov { p_gb, p_bb }, 1), 2_000_000, 1500, 1);
        assert_within_5pct("markov loss rate", l.loss_rate(), p_gb / (p_gb + 1.0 - p_bb));
        assert_within_5pct("markov mean loss run", l.mean_run(), 1.0 / (1.0 - p_bb));
    }

    #[test]
    fn burst_destroys_burst_packets_per_error() {
        // Seed 000 Table V: one error every 64 kbytes, four packets destroyed.
        let (mean, b) = (65536.0f64, 4u32);
        let cfg =
            ErrorModelConfig::Burst { mean_bytes: mean, burst_packets: b, burst_reading: BurstReading::FrameTimes };
        let mut m = model(cfg, 1);
        let n = 2_000_000;
        let pkt = data(1440, 0, 1400);
        let mut l = Losses::default();
        let mut run_len = 0u64;
        for i in 0..n {
            let lost = m.corrupts(Time::from_ns(i), 1, &pkt);
            l.record(lost);
            if lost {
                run_len += 1;
            } else if run_len > 0 {
                // Bursts have a fixed length, so a run is whole bursts.
                assert_eq!(run_len % u64::from(b), 0, "run of {run_len} at packet {i}");
                run_len = 0;
            }
        }
        // q: an error falls in a given packet, independent of the past by
        // memorylessness. A packet starts a burst iff no burst is under way
        // before it and an error falls in it. With r burst starts per packet,
        // a fraction r(B-1) of packets are burst continuations, so
        // r = q (1 - r (B-1)), i.e. r = q / (1 + (B-1) q).
        let q = 1.0 - (-1440.0 / mean).exp();
        let bf = f64::from(b);
        let starts = (l.lost / u64::from(b)) as f64;
        assert_within_5pct("burst starts per packet", starts / n as f64, q / (1.0 + (bf - 1.0) * q));
        // A run goes on with another burst when the packet right after a
        // burst is hit (probability q): the mean run is B / (1 - q), 2% above B.
        assert_within_5pct("burst mean loss run (merged)", l.mean_run(), bf / (1.0 - q));
        assert_within_5pct("burst mean loss run vs burst_packets", l.mean_run(), bf);
    }

    #[test]
    fn burst_begun_before_an_idle_period_spares_a_retransmission_after_it() {
        // Issue 10: a six-packet burst starts as the sender stalls; the next
        // frame is a retransmission 200 ms later (snoop's local timer). As a
        // channel event (`frame_times`) the burst ended after six frame
        // times (~41 ms on the WaveLAN) and spares it; the count reading
        // (`transmissions`) destroys it.
        let tx_ns = 6_844_000; // 1440 bytes at 2 Mb/s + 1084 us framing
        let seg = |seq: u64| data(1440, seq, 1400);
        // Seeds whose first error falls in frame i and not in frame i + 1
        // (the byte stream is the same process as `exponential_bytes`, so an
        // exponential model on the same seed is the oracle).
        let mut tried = 0;
        for seed in 1..100u64 {
            let mut oracle = model(ErrorModelConfig::ExponentialBytes { mean_bytes: 65536.0 }, seed);
            let hits: Vec<bool> =
                (0..200u64).map(|i| oracle.corrupts(Time::from_ns(i * tx_ns), tx_ns, &seg(i * 1400))).collect();
            let Some(first) = hits.iter().position(|&h| h) else { continue };
            if first + 1 >= hits.len() || hits[first + 1] {
                continue;
            }
            tried += 1;
            for (reading, spared) in [(BurstReading::FrameTimes, true), (BurstReading::Transmissions, false)] {
                let cfg = ErrorModelConfig::Burst { mean_bytes: 65536.0, burst_packets: 6, burst_reading: reading };
                let mut m = model(cfg, seed);
                // t0 .. t_first: back to back; the burst starts at `first`.
                for i in 0..=first as u64 {
                    let lost = m.corrupts(Time::from_ns(i * tx_ns), tx_ns, &seg(i * 1400));
                    assert_eq!(lost, i == first as u64, "seed {seed}, frame {i}");
                }
                // The sender stalls; 200 ms later the burst's first victim is
                // retransmitted (same segment).
                let at = Time::from_ns(first as u64 * tx_ns + 200_000_000);
                let rexmit = data(1440, first as u64 * 1400, 1400);
                assert_eq!(!m.corrupts(at, tx_ns, &rexmit), spared, "seed {seed}, {reading:?}");
            }
        }
        assert!(tried >= 10, "too few seeds exercised: {tried}");
    }

    #[test]
    fn burst_frame_times_destroys_burst_packets_back_to_back() {
        let tx_ns = 1_000_000;
        let cfg =
            ErrorModelConfig::Burst { mean_bytes: 1e9, burst_packets: 4, burst_reading: BurstReading::FrameTimes };
        let mut m = model(cfg, 1);
        // Force a burst: find the first hit on a back-to-back stream; the
        // three frames after it are destroyed, the one after those is not
        // (an error there would need a draw under 1440 bytes at a 1e9 mean).
        let pkt = data(1440, 0, 1400);
        let mut i = 0u64;
        // With a 1e9-byte mean the first error lies far out; walk to it with
        // big frames so the test stays short.
        let big = data(u32::MAX, 0, 1400);
        while !m.corrupts(Time::from_ns(i * tx_ns), tx_ns, &big) {
            i += 1;
        }
        let start = i;
        for k in 1..4 {
            assert!(m.corrupts(Time::from_ns((start + k) * tx_ns), tx_ns, &pkt), "frame {k} of the burst");
        }
        assert!(!m.corrupts(Time::from_ns((start + 4) * tx_ns), tx_ns, &pkt), "the burst is four frames");
    }

    #[test]
    fn list_drops_chosen_indices_and_first_transmissions_of_seqs() {
        let cfg = ErrorModelConfig::List { packets: vec![7, 0, 3, 3], seqs: vec![2800, 1400] };
        let mut m = model(cfg, 1);
        let t = Time::ZERO;
        let script: [(Packet, bool); 10] = [
            (data(1440, 0, 1400), true),     // 0: index 0
            (data(1440, 1400, 1400), true),  // 1: seq 1400, first time
            (ack(40, 2800), false),          // 2: acks are never seq-dropped
            (data(1440, 4200, 1400), true),  // 3: index 3
            (data(40, 2800, 0), false),      // 4: no payload: not "a data packet"
            (data(1440, 1400, 1400), false), // 5: retransmission of 1400 passes
            (data(1440, 2800, 1400), true),  // 6: seq 2800, first time
            (data(1440, 5600, 1400), true),  // 7: index 7
            (data(1440, 2800, 1400), false), // 8: retransmission of 2800 passes
            (data(1440, 7000, 1400), false), // 9
        ];
        for (i, (pkt, expect)) in script.iter().enumerate() {
            assert_eq!(m.corrupts(t, 0, pkt), *expect, "transmission {i}");
        }
    }

    #[test]
    fn list_index_and_seq_on_the_same_packet_consume_the_seq() {
        // The first transmission of seq 0 is dropped by index; the second one
        // is a retransmission and passes.
        let cfg = ErrorModelConfig::List { packets: vec![0], seqs: vec![0] };
        let mut m = model(cfg, 1);
        assert!(m.corrupts(Time::ZERO, 0, &data(1440, 0, 1400)));
        assert!(!m.corrupts(Time::ZERO, 0, &data(1440, 0, 1400)));
    }

    #[test]
    fn outage_loses_exactly_the_transmissions_starting_inside_it() {
        let pkt = data(1040, 0, 1000);
        let cfg = ErrorModelConfig::Outage { from_s: 10.0, until_s: Some(10.5) };
        let mut m = model(cfg, 1);
        let at = |ms: u64| Time::from_ns(ms * 1_000_000);
        // A transmission that starts before the outage and ends inside it
        // passes; one that starts at its end passes too.
        let fates: Vec<bool> = [9_999, 10_000, 10_001, 10_499, 10_500, 20_000]
            .iter()
            .map(|&ms| m.corrupts(at(ms), 5_000_000, &pkt))
            .collect();
        assert_eq!(fates, [false, true, true, true, false, false]);
        assert!(m.corrupts(Time::from_ns(10_500_000_000 - 1), 0, &pkt), "the last ns is inside");
        // Without an end it never ends; acks are lost alike.
        let mut m = model(ErrorModelConfig::Outage { from_s: 0.0, until_s: None }, 1);
        assert!(m.corrupts(Time::ZERO, 0, &ack(40, 1)));
        assert!(m.corrupts(Time::from_ns(u64::MAX - 1), 0, &pkt));
        let mut m = model(ErrorModelConfig::Outage { from_s: 1.0, until_s: None }, 1);
        assert!(!m.corrupts(at(999), 0, &pkt) && m.corrupts(at(1_000), 0, &pkt));
    }

    #[test]
    fn outage_draws_no_stream_and_is_the_same_for_every_seed() {
        let cfg = ErrorModelConfig::Outage { from_s: 0.002, until_s: Some(0.004) };
        let m = ErrorModel::new(&cfg, || panic!("an outage needs no random stream"));
        assert!(!m.is_none() && !cfg.is_error_free());
        assert_eq!(verdicts(&cfg, 1), verdicts(&cfg, 2));
        assert_eq!(verdicts(&cfg, 1).iter().filter(|&&v| v).count(), 2, "starts at 2 and 3 ms");
    }

    fn stochastic_configs() -> Vec<ErrorModelConfig> {
        vec![
            ErrorModelConfig::ExponentialBytes { mean_bytes: 16384.0 },
            ErrorModelConfig::Bernoulli { p: 0.05 },
            ErrorModelConfig::FrameErrorRate { fer: 0.09, reference_bytes: 1074 },
            ErrorModelConfig::TwoState { good_mean: 20.0, bad_mean: 3.0, unit: StateUnit::Packets, packet_bytes: None },
            ErrorModelConfig::TwoState {
                good_mean: 0.02,
                bad_mean: 0.003,
                unit: StateUnit::Seconds,
                packet_bytes: None,
            },
            ErrorModelConfig::Markov { p_gb: 0.05, p_bb: 0.3 },
            ErrorModelConfig::Burst { mean_bytes: 16384.0, burst_packets: 3, burst_reading: BurstReading::FrameTimes },
            ErrorModelConfig::Burst {
                mean_bytes: 16384.0,
                burst_packets: 3,
                burst_reading: BurstReading::Transmissions,
            },
        ]
    }

    fn verdicts(cfg: &ErrorModelConfig, seed: u64) -> Vec<bool> {
        let mut m = ErrorModel::new(cfg, || RngStream::new(seed, "link:wireless:bs->mh:error"));
        let pkt = data(1440, 0, 1400);
        (0..20_000).map(|i| m.corrupts(Time::from_ns(i * 1_000_000), 1_000_000, &pkt)).collect()
    }

    #[test]
    fn same_seed_same_verdicts_other_seed_other_verdicts() {
        for cfg in stochastic_configs() {
            let a = verdicts(&cfg, 42);
            assert_eq!(a, verdicts(&cfg, 42), "{cfg:?}");
            assert_ne!(a, verdicts(&cfg, 43), "{cfg:?}");
        }
    }

    #[test]
    fn validate_names_the_bad_field() {
        use ErrorModelConfig as C;
        let two_state =
            |good_mean, bad_mean| C::TwoState { good_mean, bad_mean, unit: StateUnit::Packets, packet_bytes: None };
        let cases: Vec<(C, &str)> = vec![
            (C::ExponentialBytes { mean_bytes: -1.0 }, "mean_bytes"),
            (C::ExponentialBytes { mean_bytes: f64::NAN }, "mean_bytes"),
            (C::ExponentialBytes { mean_bytes: f64::INFINITY }, "mean_bytes"),
            (C::ExponentialBytes { mean_bytes: 1e-9 }, "mean_bytes"),
            (C::ExponentialBytes { mean_bytes: 0.1 }, "mean_bytes"),
            (C::Bernoulli { p: -0.1 }, "p"),
            (C::Bernoulli { p: 1.5 }, "p"),
            (C::Bernoulli { p: f64::NAN }, "p"),
            (two_state(0.0, 8.0), "good_mean"),
            (two_state(-3.0, 8.0), "good_mean"),
            (two_state(100.0, 0.0), "bad_mean"),
            (two_state(100.0, f64::NAN), "bad_mean"),
            (C::FrameErrorRate { fer: 1.5, reference_bytes: 1074 }, "fer"),
            (C::FrameErrorRate { fer: -0.01, reference_bytes: 1074 }, "fer"),
            (C::FrameErrorRate { fer: f64::NAN, reference_bytes: 1074 }, "fer"),
            (C::FrameErrorRate { fer: 0.09, reference_bytes: 0 }, "reference_bytes"),
            (C::Markov { p_gb: 1.01, p_bb: 0.3 }, "p_gb"),
            (C::Markov { p_gb: 0.01, p_bb: -0.3 }, "p_bb"),
            (C::Outage { from_s: -1.0, until_s: None }, "from_s"),
            (C::Outage { from_s: f64::NAN, until_s: None }, "from_s"),
            (C::Outage { from_s: f64::INFINITY, until_s: None }, "from_s"),
            (C::Outage { from_s: 10.0, until_s: Some(10.0) }, "until_s"),
            (C::Outage { from_s: 10.0, until_s: Some(5.0) }, "until_s"),
            (C::Outage { from_s: 10.0, until_s: Some(f64::NAN) }, "until_s"),
            (C::Outage { from_s: 10.0, until_s: Some(f64::INFINITY) }, "until_s"),
            (C::Burst { mean_bytes: -5.0, burst_packets: 4, burst_reading: BurstReading::FrameTimes }, "mean_bytes"),
            (
                C::Burst { mean_bytes: 65536.0, burst_packets: 0, burst_reading: BurstReading::Transmissions },
                "burst_packets",
            ),
        ];
        for (cfg, field) in cases {
            let (got, reason) = cfg.validate().expect_err(&format!("{cfg:?} should be rejected"));
            assert_eq!(got, field, "{cfg:?}: {reason}");
            assert!(!reason.is_empty());
        }
        for cfg in stochastic_configs() {
            cfg.validate().unwrap();
        }
        C::None.validate().unwrap();
        C::ExponentialBytes { mean_bytes: 0.0 }.validate().unwrap();
        C::Markov { p_gb: 0.0, p_bb: 1.0 }.validate().unwrap();
        C::FrameErrorRate { fer: 0.0, reference_bytes: 1 }.validate().unwrap();
        C::FrameErrorRate { fer: 1.0, reference_bytes: 1074 }.validate().unwrap();
        C::Outage { from_s: 0.0, until_s: Some(1e-9) }.validate().unwrap();
        C::Outage { from_s: 10.0, until_s: None }.validate().unwrap();
    }

    #[test]
    fn packet_times_resolve_to_seconds_with_the_link_rate() {
        let c = ErrorModelConfig::TwoState {
            good_mean: 100.0,
            bad_mean: 8.0,
            unit: StateUnit::PacketTimes,
            packet_bytes: Some(1024),
        };
        assert!(c.validate().is_ok());
        // 1024 bytes at 0.8 Mb/s take 10.24 ms.
        let r = c.resolve_packet_times(|size| u64::from(size) * 8 * 1_000_000_000 / 800_000);
        assert_eq!(
            r,
            ErrorModelConfig::TwoState {
                good_mean: 100.0 * 0.01024,
                bad_mean: 8.0 * 0.01024,
                unit: StateUnit::Seconds,
                packet_bytes: None,
            }
        );
        let missing = ErrorModelConfig::TwoState {
            good_mean: 1.0,
            bad_mean: 1.0,
            unit: StateUnit::PacketTimes,
            packet_bytes: None,
        };
        assert_eq!(missing.validate().unwrap_err().0, "packet_bytes");
    }

    #[test]
    fn config_reads_its_scenario_spelling() {
        let c: ErrorModelConfig =
            serde_json::from_str(r#"{"model":"two_state","good_mean":100,"bad_mean":8}"#).unwrap();
        assert_eq!(
            c,
            ErrorModelConfig::TwoState {
                good_mean: 100.0,
                bad_mean: 8.0,
                unit: StateUnit::Packets,
                packet_bytes: None,
            }
        );
        let c: ErrorModelConfig = serde_json::from_str(r#"{"model":"list","seqs":[1400]}"#).unwrap();
        assert_eq!(c, ErrorModelConfig::List { packets: vec![], seqs: vec![1400] });
        let c: ErrorModelConfig = serde_json::from_str(r#"{"model":"outage","from_s":10}"#).unwrap();
        assert_eq!(c, ErrorModelConfig::Outage { from_s: 10.0, until_s: None });
        let c: ErrorModelConfig = serde_json::from_str(r#"{"model":"frame_error_rate","fer":0.09}"#).unwrap();
        assert_eq!(c, ErrorModelConfig::FrameErrorRate { fer: 0.09, reference_bytes: 1074 }, "the data MPDU");
        let c: ErrorModelConfig = serde_json::from_str(r#"{"model":"none"}"#).unwrap();
        assert_eq!(c, ErrorModelConfig::None);
        let bad =
            serde_json::from_str::<ErrorModelConfig>(r#"{"model":"exponential_bytes","mean_bytes":65536,"mean":1}"#);
        assert!(bad.is_err(), "unknown field accepted: {bad:?}");
        let round = ErrorModelConfig::Burst {
            mean_bytes: 65536.0,
            burst_packets: 4,
            burst_reading: BurstReading::Transmissions,
        };
        let c: ErrorModelConfig =
            serde_json::from_str(r#"{"model":"burst","mean_bytes":65536,"burst_packets":4}"#).unwrap();
        assert_eq!(
            c,
            ErrorModelConfig::Burst { mean_bytes: 65536.0, burst_packets: 4, burst_reading: BurstReading::FrameTimes },
            "frame_times is the default reading"
        );
        let back: ErrorModelConfig = serde_json::from_str(&serde_json::to_string(&round).unwrap()).unwrap();
        assert_eq!(back, round);
    }

    #[test]
    fn schema_documents_units() {
        let schema = serde_json::to_string(&schemars::schema_for!(ErrorModelConfig)).unwrap();
        assert!(schema.contains("Mean distance between successive errors, in bytes"), "{schema}");
        assert!(schema.contains("two_state"), "{schema}");
    }
}
