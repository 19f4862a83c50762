//! The wire the two point-to-point MACs share: two directions between two
//! nodes, each with its own queue, frame on the medium, propagation FIFO,
//! error model and counters. Who may transmit when is the member's rule
//! ([`super::full_duplex`]: each direction has a channel of its own;
//! [`super::half_duplex`]: one channel the two directions take turns on),
//! chosen per link by its [`Duplex`] and dispatched by enum on every frame.
//!
//! Each direction has a bandwidth, a propagation delay, a queue (DropTail,
//! or a discipline of [`crate::queue`]), an error model and an optional fixed per-frame overhead (extra bytes and/or
//! extra time per frame: MAC headers, preamble, contention) so that a link can
//! be calibrated to a measured peak, as the 1997 WaveLAN (2 Mb/s raw, 1.5 Mb/s
//! TCP peak) must be.
//!
//! The error model decides a frame's fate when its transmission starts; a
//! corrupted frame still occupies the medium for its full time and is dropped
//! by the receiving side on arrival, as the 1997 testbed's receiving entity
//! dropped frames whose checksum it had spoiled.
//!
//! Frames leave a direction in order and all take the same propagation delay,
//! so arrivals are a FIFO: the simulator's arrival event carries no packet.
//! Optional delay jitter adds an exponentially distributed extra delay per
//! frame (queueing in the hops a link stands for) but never lets a frame
//! overtake the one before it: a frame arrives no earlier than its
//! predecessor, as through a chain of FIFO routers.
//! The frame on the medium is kept in the direction itself (`medium`) and
//! enters that FIFO (`transit`) when its transmission ends, leaving it on
//! arrival. Packets stay in the run's [`PacketPool`] while they cross a
//! link; the queue holds their handles, and the FIFO is a [`Chain`]
//! threaded through their pool slots (copies of whole packets were the
//! largest cost of a hop, and per-link rings of them, then of their
//! handles, the largest memory a run with thousands of links touched).
//!
//! Because arrivals are a FIFO, a direction needs one pending arrival event
//! however many frames propagate: the simulator schedules the oldest
//! frame's arrival, and each arrival hands back the next one's time. Each
//! frame carries the event key (the scheduler's insertion counter) it was
//! given when its transmission ended, so simultaneous events still run in
//! the order they would with one event per frame.
//!
//! A direction may be the testbed's link emulator instead of a wire
//! ([`crate::emulation`], seed 001 Sec. 8.1): the frame on the medium is
//! then the head of the bandwidth-emulation queue, its transmission ends
//! on a kernel clock tick, and it propagates through the delay-emulation
//! FIFO to a tick.
//!
//! Or a direction may be driven by a rate trace instead of a bandwidth
//! ([`crate::rate_trace`], Mahimahi's `mm-link`): its frame's transmission
//! ends at the delivery opportunity that releases its last byte, and it
//! propagates for the direction's delay after that. Its `bandwidth_bps`
//! (what the error model's transmission time, a composed queue's idle
//! estimate and the run summary read) is then the trace's mean rate, and
//! a frame's medium time runs from its start to that opportunity.

use super::{full_duplex, half_duplex};
use crate::emulation::Emulator;
use crate::error::ErrorModel;
use crate::queue::{Admission, Queue, QueueConfig, QueueLimit, QueueStats, Removal, Waiting};
use crate::rate_trace::TraceShaper;
use lasthop_core::rng::RngStream;
use lasthop_core::time::NS_PER_S;
use lasthop_core::trace::DropCause;
use lasthop_core::{Chain, PacketPool, PacketRef, Time};

/// Parameters of one direction, in the units the model uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirParams {
    pub bandwidth_bps: u64,
    pub delay_ns: u64,
    /// Extra bytes per frame on the medium (MAC header, trailer).
    pub frame_overhead_bytes: u32,
    /// Extra medium time per frame, in ns (preamble, inter-frame gaps, contention).
    pub frame_overhead_ns: u64,
    pub queue: QueueLimit,
    /// Mean of the exponential extra delay per frame, in ns (0 = none).
    pub jitter_mean_ns: u64,
}

impl DirParams {
    /// Time the medium is busy with a frame carrying a `size_bytes` packet.
    #[inline]
    pub fn tx_time_ns(&self, size_bytes: u32) -> u64 {
        Timing::of(self).tx_time_ns(size_bytes)
    }
}

/// The parameters every start of a frame reads, copied out of
/// [`DirParams`] so that they sit beside the direction's other per-start
/// fields (the delay, which an end of transmission reads, is kept apart).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Timing {
    bandwidth_bps: u64,
    frame_overhead_ns: u64,
    frame_overhead_bytes: u32,
}

impl Timing {
    /// A direction without frame overheads: the bandwidth alone.
    #[inline(always)]
    fn plain(bandwidth_bps: u64) -> Timing {
        Timing { bandwidth_bps, frame_overhead_ns: 0, frame_overhead_bytes: 0 }
    }

    fn of(p: &DirParams) -> Timing {
        Timing {
            bandwidth_bps: p.bandwidth_bps,
            frame_overhead_ns: p.frame_overhead_ns,
            frame_overhead_bytes: p.frame_overhead_bytes,
        }
    }

    #[inline]
    fn tx_time_ns(&self, size_bytes: u32) -> u64 {
        // u64 is exact here: (2^32 bytes · 8 bits) · 1e9 < 2^64 would fail only
        // for frames over 2 GB, which a u32 size plus overhead cannot reach
        // after the checked multiply below falls back to u128.
        let bits = (u64::from(size_bytes) + u64::from(self.frame_overhead_bytes)) * 8;
        let ns = match bits.checked_mul(NS_PER_S) {
            Some(b) => b.div_ceil(self.bandwidth_bps),
            None => (u128::from(bits) * u128::from(NS_PER_S)).div_ceil(u128::from(self.bandwidth_bps)) as u64,
        };
        ns + self.frame_overhead_ns
    }
}

/// Which of the two point-to-point MACs a link is: the member's tag, on
/// which every frame's medium-access decision is dispatched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duplex {
    /// [`super::full_duplex`]: a channel per direction.
    Full,
    /// [`super::half_duplex`]: one channel, the directions taking turns.
    Half,
}

/// Counters of one direction: one cache line, those every frame counts
/// first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct DirStats {
    /// Frames put on the medium (including those later found corrupted).
    pub packets_sent: u64,
    /// Bytes put on the medium (packet sizes, without frame overhead).
    pub bytes_sent: u64,
    /// Medium time of the frames started, in ns (frame overheads included).
    pub busy_ns: u64,
    /// Frames handed to the far node intact (those put on the medium, less
    /// those still on it or propagating, less the corrupted).
    pub delivered: u64,
    pub drops_error: u64,
    /// Packets a full queue dropped (arrivals refused, or victims in their
    /// place, FQ-CoDel's from the fattest flow).
    pub drops_queue: u64,
    /// Packets RED chose for a mark that were not ECN-capable; CoDel's,
    /// PIE's and FQ-CoDel's early drops.
    pub drops_early: u64,
    /// Pure acks purged by ACK filtering.
    pub drops_filtered: u64,
}

impl DirStats {
    #[cold]
    #[inline(never)]
    fn count_removals(&mut self, removed: &[Removal]) {
        for r in removed {
            self.count_removal(r.cause);
        }
    }

    fn count_removal(&mut self, cause: DropCause) {
        match cause {
            DropCause::Queue => self.drops_queue += 1,
            DropCause::Early => self.drops_early += 1,
            DropCause::Filtered => self.drops_filtered += 1,
            DropCause::Error | DropCause::RetryLimit | DropCause::Outage | DropCause::Handoff => {
                unreachable!("a queue corrupts nothing, retries nothing, never goes down and never moves")
            }
        }
    }
}

/// Bits of [`LinkDir::bits`]: what makes a direction other than a plain
/// wire, and whether the frame on its medium was corrupted.
mod bit {
    /// `jitter`, `emulator` or `trace` is there: every start and end of
    /// transmission reads the direction's later lines.
    pub const SHAPED: u8 = 1;
    /// Frames carry an overhead of bytes or time: the transmission time is
    /// `timing`'s, not the bandwidth's alone.
    pub const TIMED: u8 = 1 << 1;
    /// The error model can corrupt a frame (it is read at every start).
    pub const ERRORS: u8 = 1 << 2;
    /// The frame on the medium was corrupted.
    pub const CORRUPTED: u8 = 1 << 3;
    /// The direction is down and holds its queue (an outage with `hold`):
    /// `waiting` stays false, so no frame starts, whatever waits.
    pub const HELD: u8 = 1 << 4;
    /// The direction is down as a blackhole: every frame that starts is
    /// lost (read on the start's slower path, as the error model is).
    pub const BLACKHOLE: u8 = 1 << 5;
    /// The frame on the medium (marked `CORRUPTED` too) is lost to an
    /// outage: its pool slot is marked when it leaves the medium.
    pub const MEDIUM_OUTAGE: u8 = 1 << 6;
}

/// Add `x` to a counter kept as `lo` on a direction's first line and `hi`
/// on a later one (the sum is the count): `hi` is read and written only
/// when `lo` would overflow, once per 2^32 frames, bytes or ns.
#[inline(always)]
fn count(lo: &mut u32, hi: &mut u64, x: u64) {
    match u32::try_from(x).ok().and_then(|x| lo.checked_add(x)) {
        Some(sum) => *lo = sum,
        None => spill(lo, hi, x),
    }
}

#[cold]
#[inline(never)]
fn spill(lo: &mut u32, hi: &mut u64, x: u64) {
    *hi += u64::from(*lo) + x;
    *lo = 0;
}

/// One direction of a link. Its fields are laid out by use, so that a
/// frame's passage touches few cache lines of a direction that is not in
/// the cache (a run of thousands of links: issue 9). Line 0 holds all that
/// a plain wire's frame reads and writes from its start to its arrival: a
/// frame offered to an idle direction, its end of transmission and its
/// arrival each touch that line alone. The queue is line 1, read when a
/// frame waits. Line 2 is what a direction other than a plain wire reads
/// (the error model, the overheads, the jitter's stream, the emulator and
/// the latest arrival): with the queue's, every pointer a direction owns,
/// so that freeing a run's thousands of directions reads two lines of each;
/// line 3 the counters, with the high words of line 0's three; line 4 the
/// parameters as given, read when the direction is made. A unit test keeps
/// the layout.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct LinkDir {
    /// Frames propagating, oldest first, each with its arrival time, event
    /// key and whether it was corrupted (in the pool).
    transit: Chain,
    /// `queue.empty_passes_up_to()` (0: none; every frame has a byte at
    /// least), kept here: a full-duplex direction is idle only with its
    /// queue empty, so a frame offered to it starts at once, or not,
    /// without reading the queue.
    passes_up_to: u32,
    /// The frame being sent, if any (the direction is busy); whether it
    /// was corrupted is `bit::CORRUPTED`.
    medium: Option<PacketRef>,
    /// Propagation delay, in ns (`params.delay_ns`).
    delay_ns: u64,
    /// `params.bandwidth_bps`, the transmission time of a frame without
    /// overheads (`bit::TIMED`: `timing` has them).
    bandwidth_bps: u64,
    /// When the latest frame's transmission ends (or ended).
    busy_until: Time,
    /// The low words of `DirStats::packets_sent`, `bytes_sent` and
    /// `busy_ns` (see [`count`]; the high words are `stats`' fields).
    packets_lo: u32,
    bytes_lo: u32,
    busy_lo: u32,
    /// The link's MAC member (copied into each direction, where the
    /// per-frame path reads it: the link's own fields are further).
    pub(super) access: Duplex,
    /// A frame waits in the queue (`!queue.is_empty()`, kept after every
    /// change to the queue: an end of transmission then learns that
    /// nothing waits without reading the queue's lines).
    pub(super) waiting: bool,
    /// [`bit`]s.
    bits: u8,
    pub(super) queue: Queue,
    error: ErrorModel,
    timing: Timing,
    /// Draws of the delay jitter, when there is any (boxed: an RNG is large
    /// and most links have no jitter).
    jitter: Option<Box<RngStream>>,
    /// The testbed's link emulator, when the direction is one (boxed: most
    /// directions are wires).
    emulator: Option<Box<Emulator>>,
    /// The rate trace driving the direction's transmitter, when it has one
    /// instead of a bandwidth (boxed: most directions are wires).
    trace: Option<Box<TraceShaper>>,
    /// Arrival time of the latest frame, with jitter or emulation: the next
    /// may not arrive earlier (a wire's frames arrive in order anyway).
    last_arrival: Time,
    /// The counters, with the high words of the three of line 0 (so a
    /// field is its counter only in [`LinkDir::stats`]); `delivered` is
    /// derived when asked for, so that an arrival writes no counter.
    stats: DirStats,
    /// As given (private: `timing` copies from it).
    params: DirParams,
}

impl LinkDir {
    /// From now on, frames starting on this direction take their time at
    /// `bps` (a scheduled rate change): the frame being sent keeps the
    /// time it started with; overheads, delay and queue are unchanged.
    pub fn set_bandwidth(&mut self, bps: u64) {
        debug_assert!(
            bps > 0 && self.emulator.is_none() && self.trace.is_none(),
            "a positive rate, not an emulator's or a trace's direction"
        );
        self.params.bandwidth_bps = bps;
        self.bandwidth_bps = bps;
        self.timing = Timing::of(&self.params);
    }

    /// From now on, frames starting on this direction draw their fate
    /// from `error` (a scheduled error-model change); a frame being sent
    /// keeps the fate it drew.
    pub fn set_error_model(&mut self, error: ErrorModel) {
        self.bits = if error.is_none() { self.bits & !bit::ERRORS } else { self.bits | bit::ERRORS };
        self.error = error;
    }

    pub fn new(params: DirParams, error: ErrorModel) -> LinkDir {
        let timing = Timing::of(&params);
        let timed = timing.frame_overhead_ns != 0 || timing.frame_overhead_bytes != 0;
        let queue = Queue::drop_tail(params.queue);
        LinkDir {
            transit: Chain::EMPTY,
            passes_up_to: queue.empty_passes_up_to().unwrap_or(0),
            medium: None,
            delay_ns: params.delay_ns,
            bandwidth_bps: params.bandwidth_bps,
            busy_until: Time::ZERO,
            packets_lo: 0,
            bytes_lo: 0,
            busy_lo: 0,
            access: Duplex::Full,
            waiting: false,
            bits: if timed { bit::TIMED } else { 0 } | if error.is_none() { 0 } else { bit::ERRORS },
            queue,
            error,
            timing,
            stats: DirStats::default(),
            jitter: None,
            emulator: None,
            trace: None,
            last_arrival: Time::ZERO,
            params,
        }
    }

    /// Serve the direction's queue with the discipline `cfg` (validated)
    /// instead of DropTail, its stream made by `rng` only if it draws.
    /// `None` keeps DropTail.
    pub fn with_discipline(mut self, cfg: Option<&QueueConfig>, rng: impl FnOnce() -> RngStream) -> LinkDir {
        self.set_discipline(cfg, rng);
        self
    }

    /// [`LinkDir::with_discipline`] in place (a direction is five cache
    /// lines: a simulator of thousands of links builds each where it stays
    /// instead of moving it through each builder).
    pub fn set_discipline(&mut self, cfg: Option<&QueueConfig>, rng: impl FnOnce() -> RngStream) {
        if let Some(cfg) = cfg {
            let params = self.params;
            self.queue = Queue::semantic(params.queue, cfg, |bytes| params.tx_time_ns(bytes), rng);
        }
        self.passes_up_to = self.queue.empty_passes_up_to().unwrap_or(0);
    }

    /// Give the direction its own stream for delay jitter, made by `rng`
    /// only when `params.jitter_mean_ns > 0` (most links have no jitter).
    pub fn with_jitter_stream(mut self, rng: impl FnOnce() -> RngStream) -> LinkDir {
        self.set_jitter_stream(rng);
        self
    }

    /// [`LinkDir::with_jitter_stream`] in place.
    pub fn set_jitter_stream(&mut self, rng: impl FnOnce() -> RngStream) {
        if self.params.jitter_mean_ns > 0 {
            self.jitter = Some(Box::new(rng()));
            self.bits |= bit::SHAPED;
        }
    }

    /// Make the direction the testbed's link emulator ([`crate::emulation`])
    /// driven by `emulator`'s clock; `None` keeps a wire.
    pub fn with_emulator(mut self, emulator: Option<Emulator>) -> LinkDir {
        self.set_emulator(emulator);
        self
    }

    /// [`LinkDir::with_emulator`] in place.
    pub fn set_emulator(&mut self, emulator: Option<Emulator>) {
        self.emulator = emulator.map(Box::new);
        if self.emulator.is_some() {
            self.bits |= bit::SHAPED;
        }
    }

    /// Drive the direction's transmitter by `trace` ([`crate::rate_trace`])
    /// instead of its bandwidth; `None` keeps the bandwidth. The
    /// direction's `bandwidth_bps` should be the trace's mean rate (what
    /// the error model and a composed queue read).
    pub fn with_rate_trace(mut self, trace: Option<TraceShaper>) -> LinkDir {
        self.set_rate_trace(trace);
        self
    }

    /// [`LinkDir::with_rate_trace`] in place.
    pub fn set_rate_trace(&mut self, trace: Option<TraceShaper>) {
        debug_assert!(trace.is_none() || self.emulator.is_none(), "an emulator or a trace, not both");
        self.trace = trace.map(Box::new);
        if self.trace.is_some() {
            self.bits |= bit::SHAPED;
        }
    }

    /// When the transmission of a frame of `size_bytes` (`tx_ns` at the
    /// bandwidth) that starts at `now` ends on a shaped direction: on the
    /// emulator's tick, at the trace's opportunity, or after `tx_ns` (a
    /// direction with jitter alone). Out of line: most directions are
    /// wires.
    #[cold]
    #[inline(never)]
    fn shaped_end(&mut self, now: Time, tx_ns: u64, size_bytes: u32) -> Time {
        if let Some(e) = self.emulator.as_deref_mut() {
            // An emulated transmission holds the emulator until its tick.
            return e.start(now, tx_ns);
        }
        if let Some(t) = self.trace.as_deref_mut() {
            return t.start(now, size_bytes);
        }
        now.plus_ns(tx_ns)
    }

    /// `jitter`, `emulator` or `trace` is there.
    #[inline(always)]
    fn shaped(&self) -> bool {
        self.bits & bit::SHAPED != 0
    }

    /// When a frame whose transmission ended at `now` arrives on an
    /// emulated, traced or jittered direction (a wire's, and a trace's,
    /// arrives at `wire`): the emulator's delay stage, then the jitter,
    /// never before the latest arrival. A trace learns whether a frame
    /// waits to take what the opportunity left. Out of line: most
    /// directions have none of them.
    #[cold]
    #[inline(never)]
    fn shape_arrival(&mut self, now: Time, wire: Time) -> Time {
        let mut arrive = match self.emulator.as_deref_mut() {
            None => wire,
            Some(e) => e.finish(now, self.delay_ns, self.waiting).max(self.last_arrival),
        };
        if let Some(t) = self.trace.as_deref_mut() {
            t.finish(self.waiting);
        }
        if let Some(rng) = self.jitter.as_mut() {
            let extra = rng.exponential(self.params.jitter_mean_ns as f64).round() as u64;
            arrive = arrive.plus_ns(extra).max(self.last_arrival);
        }
        self.last_arrival = arrive;
        arrive
    }

    /// The direction's parameters.
    pub fn params(&self) -> &DirParams {
        &self.params
    }

    /// Packets of this direction waiting, on the medium, or propagating.
    pub fn in_flight(&self) -> usize {
        self.queue.len() + self.transit.len() + usize::from(self.busy())
    }

    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// The corrupted frame `pkt` leaves the medium: the mark is cleared,
    /// and a frame lost to an outage has its pool slot marked.
    #[cold]
    #[inline(never)]
    fn clear_corrupted(&mut self, pkt: PacketRef, pool: &mut PacketPool) {
        if self.bits & bit::MEDIUM_OUTAGE != 0 {
            pool.mark_outage(pkt);
        }
        self.bits &= !(bit::CORRUPTED | bit::MEDIUM_OUTAGE);
    }

    /// The frame on the medium is lost to an outage.
    #[cold]
    #[inline(never)]
    fn lose_to_outage(&mut self) {
        self.bits |= bit::CORRUPTED | bit::MEDIUM_OUTAGE;
    }

    /// A corrupted frame arrived: an error, unless an outage caught it
    /// (the simulator counts those).
    #[cold]
    #[inline(never)]
    fn count_corrupted(&mut self, pkt: PacketRef, pool: &PacketPool) {
        if !pool.outage_marked(pkt) {
            self.stats.drops_error += 1;
        }
    }

    /// Down and holding its queue (see `bit::HELD`).
    pub(super) fn held(&self) -> bool {
        self.bits & bit::HELD != 0
    }

    /// A frame is on the medium.
    #[inline]
    pub(super) fn busy(&self) -> bool {
        self.medium.is_some()
    }

    /// Whether `w`, offered to this idle direction whose queue is empty,
    /// would leave the queue as it joined it ([`Queue::passes_through`]),
    /// answered without reading the queue's line.
    #[inline]
    pub(super) fn passes_at_once(&self, w: &Waiting) -> bool {
        debug_assert!(self.queue.is_empty(), "asked of an empty queue only");
        debug_assert!(w.size_bytes > 0, "every frame has a byte at least");
        let passes = w.size_bytes <= self.passes_up_to;
        debug_assert_eq!(passes, self.queue.passes_through(w));
        passes
    }

    /// The direction's counters.
    pub fn stats(&self) -> DirStats {
        let packets_sent = self.stats.packets_sent + u64::from(self.packets_lo);
        let arrived = packets_sent - (self.transit.len() + usize::from(self.busy())) as u64;
        DirStats {
            packets_sent,
            bytes_sent: self.stats.bytes_sent + u64::from(self.bytes_lo),
            busy_ns: self.total_busy_ns(),
            delivered: arrived - self.stats.drops_error,
            ..self.stats
        }
    }

    /// Medium time of the frames started, in ns.
    fn total_busy_ns(&self) -> u64 {
        self.stats.busy_ns + u64::from(self.busy_lo)
    }

    /// Count a frame of `size_bytes` that holds the medium `busy_ns`.
    #[inline(always)]
    fn count_transmit(&mut self, size_bytes: u32, busy_ns: u64) {
        count(&mut self.packets_lo, &mut self.stats.packets_sent, 1);
        count(&mut self.bytes_lo, &mut self.stats.bytes_sent, u64::from(size_bytes));
        count(&mut self.busy_lo, &mut self.stats.busy_ns, busy_ns);
    }

    /// The discipline's statistics up to `end` (none for DropTail).
    pub fn queue_stats(&self, end: Time) -> Option<QueueStats> {
        self.queue.stats(end)
    }

    /// Medium time used up to `end`, in ns: a frame still on the medium
    /// counts up to `end` only.
    pub fn busy_ns(&self, end: Time) -> u64 {
        self.total_busy_ns() - self.busy_until.since(end)
    }

    /// Count a frame a MAC put on the air for this direction: the
    /// direction is a hop of a shared medium ([`crate::mac`]), with no
    /// queue or medium of its own, and keeps only the counters.
    pub fn count_mac_transmit(&mut self, size_bytes: u32, airtime_ns: u64) {
        self.count_transmit(size_bytes, airtime_ns);
    }

    /// Count a frame a MAC's queue let go of on this direction's hop
    /// (`Queue`, `Early` or `Filtered`).
    pub fn count_mac_removal(&mut self, cause: DropCause) {
        self.stats.count_removal(cause);
    }

    /// The discipline itself (to inspect what waits).
    pub fn queue(&self) -> &Queue {
        &self.queue
    }
}

/// A frame that went on the medium: its direction, when its transmission
/// ends, and the frame as it waited.
#[derive(Clone, Copy, Debug)]
pub struct Started {
    pub dir: usize,
    pub done: Time,
    pub frame: Waiting,
}

/// What became of a frame when it reached the far end.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub pkt: PacketRef,
    pub corrupted: bool,
    /// The next frame's arrival (time, event key), if one is propagating
    /// (its transmission over): the one arrival event to schedule next.
    pub next: Option<(Time, u64)>,
}

/// A point-to-point link: the wire of two directions and the MAC member
/// that decides when each may send ([`Duplex`]).
#[derive(Clone, Debug)]
pub struct Link {
    pub dirs: [LinkDir; 2],
    /// The half-duplex member's state: the direction served last.
    pub(super) last_served: usize,
}

impl Link {
    /// A link of MAC member `duplex` over directions `ab` and `ba`.
    pub fn new(duplex: Duplex, mut ab: LinkDir, mut ba: LinkDir) -> Link {
        (ab.access, ba.access) = (duplex, duplex);
        Link { dirs: [ab, ba], last_served: 1 }
    }

    /// The link's MAC member.
    pub fn duplex(&self) -> Duplex {
        self.dirs[0].access
    }

    /// Queue `w` (in `pool`) for direction `dir` at `now`. A refused
    /// arrival, and the packets a composed queue let go of (appended to
    /// `out`, which must be empty on the call), are counted in the
    /// direction's stats: the caller frees them from the pool and records
    /// their fate.
    /// Always inlined: the simulator's per-packet path calls it, and a
    /// second (cold) caller once made LLVM call it out of line there.
    #[must_use]
    #[inline(always)]
    pub fn enqueue(
        &mut self,
        dir: usize,
        now: Time,
        w: Waiting,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
    ) -> Admission {
        let d = &mut self.dirs[dir];
        // Not sending since the last frame ended (the queue adds: nor
        // waiting); read only by a composed queue.
        let (medium, busy_until) = (&d.medium, &d.busy_until);
        let a = d.queue.enqueue(now, w, pool, out, || medium.is_none().then_some(*busy_until));
        d.waiting = !d.queue.is_empty();
        match a {
            Admission::Queued => {}
            Admission::Refused => d.stats.drops_queue += 1,
            Admission::Removed { .. } => d.stats.count_removals(out),
        }
        a
    }

    /// Start the next frame if a transmitter is idle and a frame waits;
    /// call again until `None` (a full-duplex link may start both
    /// directions). `pool` holds the queued packets (the error model may
    /// read the frame). What a queue drops at dequeue (CoDel, FQ-CoDel) is
    /// appended to `out` and counted in its direction's stats: the caller
    /// frees them from the pool and records their fate.
    pub fn start_transmission(&mut self, now: Time, pool: &mut PacketPool, out: &mut Vec<Removal>) -> Option<Started> {
        match self.duplex() {
            Duplex::Full => loop {
                let dir = (0..2).find(|&d| !self.dirs[d].busy() && self.dirs[d].waiting)?;
                // A queue whose drops left nothing to send is now empty.
                if let Some(s) = self.start(now, dir, pool, out) {
                    return Some(s);
                }
            },
            Duplex::Half => half_duplex::start_next(self, now, pool, out),
        }
    }

    /// [`Link::start_transmission`] after direction `dir` changed (a frame
    /// joined its queue, or left its medium), by the link's member.
    #[inline]
    pub fn start_transmission_after(
        &mut self,
        now: Time,
        dir: usize,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
    ) -> Option<Started> {
        match self.dirs[dir].access {
            Duplex::Full => full_duplex::start_after(self, now, dir, pool, out),
            Duplex::Half => half_duplex::start_next(self, now, pool, out),
        }
    }

    /// Put `w`, just offered to direction `dir`, on its medium at once if
    /// the member lets it leave the queue as it joined it (see
    /// [`super::full_duplex`]); `None` otherwise, and `w` is to be
    /// queued ([`Link::enqueue`]).
    #[inline]
    pub fn start_at_once(&mut self, now: Time, dir: usize, w: Waiting, pool: &PacketPool) -> Option<Started> {
        match self.dirs[dir].access {
            Duplex::Full => full_duplex::start_at_once(self, now, dir, w, pool),
            // A shared medium keeps its turns: a frame always waits for one.
            Duplex::Half => None,
        }
    }

    /// Put direction `dir`'s next frame on its medium (idle, a frame
    /// waiting); `None` if its queue dropped all that waited (into `out`,
    /// counted here). A DropTail queue's path is inlined; a composed
    /// queue's, which may drop at dequeue, is a call kept out of line.
    #[inline(always)]
    pub(super) fn start(
        &mut self,
        now: Time,
        dir: usize,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
    ) -> Option<Started> {
        let d = &mut self.dirs[dir];
        match d.queue.dequeue_drop_tail() {
            Some(w) => {
                d.waiting = !d.queue.is_empty();
                Some(self.start_frame(now, dir, w, pool))
            }
            None => self.start_composed(now, dir, pool, out),
        }
    }

    #[cold]
    #[inline(never)]
    fn start_composed(
        &mut self,
        now: Time,
        dir: usize,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
    ) -> Option<Started> {
        let d = &mut self.dirs[dir];
        let before = out.len();
        let w = d.queue.dequeue(now, pool, out);
        d.waiting = !d.queue.is_empty();
        if out.len() != before {
            d.stats.count_removals(&out[before..]);
        }
        Some(self.start_frame(now, dir, w?, pool))
    }

    /// Put `w` on direction `dir`'s idle medium. Always inlined: its
    /// callers are the members' per-frame paths, and as a call it reads
    /// the packet back through a copy (the error model's argument).
    #[inline(always)]
    pub(super) fn start_frame(&mut self, now: Time, dir: usize, w: Waiting, pool: &PacketPool) -> Started {
        let d = &mut self.dirs[dir];
        let done = if d.bits & (bit::TIMED | bit::ERRORS | bit::SHAPED | bit::BLACKHOLE) == 0 {
            // A plain wire: no overheads, no errors (the packet is not read
            // back), no emulator; line 0 only, one test.
            now.plus_ns(Timing::plain(d.bandwidth_bps).tx_time_ns(w.size_bytes))
        } else {
            // `timing` (line 2) is read only when it has overheads.
            let tx_ns = if d.bits & bit::TIMED == 0 {
                Timing::plain(d.bandwidth_bps).tx_time_ns(w.size_bytes)
            } else {
                d.timing.tx_time_ns(w.size_bytes)
            };
            let corrupted = d.bits & bit::ERRORS != 0 && d.error.corrupts(now, tx_ns, &pool.get(w.pkt));
            let done = if d.shaped() { d.shaped_end(now, tx_ns, w.size_bytes) } else { now.plus_ns(tx_ns) };
            if corrupted {
                d.bits |= bit::CORRUPTED;
            }
            // A blackhole loses every frame (the error model still draws).
            if d.bits & bit::BLACKHOLE != 0 {
                d.lose_to_outage();
            }
            done
        };
        d.count_transmit(w.size_bytes, done.since(now));
        d.busy_until = done;
        d.medium = Some(w.pkt);
        Started { dir, done, frame: w }
    }

    /// The frame on the medium in direction `dir` is fully sent: it starts
    /// propagating, to arrive at the returned time under event key `key`.
    /// The bool is true when it is the oldest frame propagating, whose
    /// arrival must be scheduled now; otherwise [`Link::take_arrival`] of
    /// its predecessor hands it back.
    pub fn finish_transmission(&mut self, now: Time, dir: usize, key: u64, pool: &mut PacketPool) -> (Time, bool) {
        let d = &mut self.dirs[dir];
        let pkt = d.medium.take().expect("a frame was on the medium");
        let corrupted = d.bits & bit::CORRUPTED != 0;
        if corrupted {
            d.clear_corrupted(pkt, pool);
        }
        debug_assert!(d.waiting != d.queue.is_empty() || d.held(), "`waiting` follows the queue");
        let mut arrive = now.plus_ns(d.delay_ns);
        if d.shaped() {
            arrive = d.shape_arrival(now, arrive);
        }
        pool.chain_push(&mut d.transit, pkt, now, arrive, key, corrupted);
        (arrive, d.transit.len() == 1)
    }

    /// The oldest propagating frame of direction `dir` reaches the far end
    /// `now` (its arrival time), when `next_key` is the next unused event
    /// key (see [`Chain`]).
    pub fn take_arrival(&mut self, now: Time, next_key: u64, dir: usize, pool: &mut PacketPool) -> Arrival {
        let d = &mut self.dirs[dir];
        let (pkt, corrupted, next) = pool.chain_pop(&mut d.transit, now, next_key);
        if corrupted {
            d.count_corrupted(pkt, pool);
        }
        Arrival { pkt, corrupted, next }
    }

    /// Take every packet waiting in direction `dir`'s queue, as the link
    /// goes down with `flush` (elaarag-002.md Sec. 2.3; ns-2's queue reset
    /// at `rtmodel` down): each is appended to `out` as a removal for the
    /// outage, which the caller frees and records; what a composed queue
    /// drops on the way out keeps its own cause and is counted here.
    pub fn flush_queue(&mut self, now: Time, dir: usize, pool: &mut PacketPool, out: &mut Vec<Removal>) {
        let d = &mut self.dirs[dir];
        loop {
            let before = out.len();
            let w = d.queue.dequeue(now, pool, out);
            if out.len() != before {
                d.stats.count_removals(&out[before..]);
            }
            match w {
                Some(w) => out.push(Removal { pkt: w.pkt, cause: DropCause::Outage }),
                None => break,
            }
        }
        d.waiting = false;
    }

    /// Mark the frame on direction `dir`'s medium lost to an outage, if
    /// there is one (it is reported corrupted when it arrives, and its
    /// pool slot marked as the outage's); how many (0 or 1).
    pub fn mark_medium_lost(&mut self, dir: usize) -> u32 {
        let d = &mut self.dirs[dir];
        if d.medium.is_none() {
            return 0;
        }
        d.lose_to_outage();
        1
    }

    /// Mark every frame of direction `dir` on its medium or propagating
    /// lost to an outage (they are dropped when they would arrive); how
    /// many.
    pub fn mark_in_flight_lost(&mut self, dir: usize, pool: &mut PacketPool) -> u32 {
        self.mark_medium_lost(dir) + pool.chain_mark_outage(&self.dirs[dir].transit)
    }

    /// Direction `dir` goes down holding its queue (`hold`), or its queue
    /// just took a packet while held: no frame starts until
    /// [`Link::release`].
    pub fn hold(&mut self, dir: usize) {
        let d = &mut self.dirs[dir];
        d.bits |= bit::HELD;
        d.waiting = false;
    }

    /// Direction `dir` comes up after [`Link::hold`]: what waits may go
    /// (the caller starts the link).
    pub fn release(&mut self, dir: usize) {
        let d = &mut self.dirs[dir];
        d.bits &= !bit::HELD;
        d.waiting = !d.queue.is_empty();
    }

    /// Direction `dir` goes down as a blackhole (`on`), or comes up: while
    /// down every frame that starts is lost.
    pub fn set_blackhole(&mut self, dir: usize, on: bool) {
        let d = &mut self.dirs[dir];
        if on {
            d.bits |= bit::BLACKHOLE;
        } else {
            d.bits &= !bit::BLACKHOLE;
        }
    }

    /// Keep in full the arrivals of frames propagating whose keys are below
    /// `older` ([`PacketPool::chain_keep_keys`]); how many.
    pub fn keep_keys(&mut self, now: Time, next_key: u64, older: u64, pool: &mut PacketPool) -> usize {
        self.dirs.iter().map(|d| pool.chain_keep_keys(&d.transit, now, next_key, older)).sum()
    }

    pub fn in_flight(&self) -> usize {
        self.dirs[0].in_flight() + self.dirs[1].in_flight()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::{Packet, PacketKind, TcpHeader};

    fn params(bps: u64) -> DirParams {
        DirParams {
            bandwidth_bps: bps,
            delay_ns: 1_000,
            frame_overhead_bytes: 0,
            frame_overhead_ns: 0,
            queue: QueueLimit { packets: Some(10), bytes: None },
            jitter_mean_ns: 0,
        }
    }

    /// A packet of `size` bytes put in `pool`, ready to queue.
    fn pkt(pool: &mut PacketPool, uid: u64, size: u32) -> Waiting {
        let p = Packet {
            uid,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 1,
            size_bytes: size,
            ecn: lasthop_core::Ecn::NotEct,
            tcp: TcpHeader::default(),
        };
        Waiting::new(&p, pool.put(p), 0)
    }

    /// Queue `w` on direction `dir` at time zero; a refused packet is freed.
    fn offer(l: &mut Link, dir: usize, w: Waiting, pool: &mut PacketPool) -> bool {
        let a = l.enqueue(dir, Time::ZERO, w, pool, &mut Vec::new());
        if a == Admission::Refused {
            pool.take(w.pkt);
        }
        a.queued()
    }

    #[test]
    fn a_direction_keeps_each_step_of_a_frame_in_few_cache_lines() {
        use std::mem::{offset_of, size_of};
        let line = |offset: usize| offset / 64;
        assert_eq!(std::mem::align_of::<LinkDir>(), 64);
        // Line 0: all a plain wire's frame reads and writes, from its start
        // to its arrival.
        for (field, end) in [
            ("transit", offset_of!(LinkDir, transit) + size_of::<Chain>()),
            ("passes_up_to", offset_of!(LinkDir, passes_up_to) + 4),
            ("medium", offset_of!(LinkDir, medium) + size_of::<Option<PacketRef>>()),
            ("delay_ns", offset_of!(LinkDir, delay_ns) + 8),
            ("bandwidth_bps", offset_of!(LinkDir, bandwidth_bps) + 8),
            ("busy_until", offset_of!(LinkDir, busy_until) + 8),
            ("packets_lo", offset_of!(LinkDir, packets_lo) + 4),
            ("bytes_lo", offset_of!(LinkDir, bytes_lo) + 4),
            ("busy_lo", offset_of!(LinkDir, busy_lo) + 4),
            ("access", offset_of!(LinkDir, access) + 1),
            ("waiting", offset_of!(LinkDir, waiting) + 1),
            ("bits", offset_of!(LinkDir, bits) + 1),
        ] {
            assert_eq!(line(end - 1), 0, "{field} ends at {end}");
        }
        assert_eq!(offset_of!(LinkDir, queue), 64, "the queue opens line 1");
        assert_eq!(size_of::<Queue>(), 64, "and fills it");
        for (field, end) in [
            ("error", offset_of!(LinkDir, error) + size_of::<ErrorModel>()),
            ("jitter", offset_of!(LinkDir, jitter) + 8),
            ("emulator", offset_of!(LinkDir, emulator) + 8),
            ("trace", offset_of!(LinkDir, trace) + 8),
            ("last_arrival", offset_of!(LinkDir, last_arrival) + 8),
        ] {
            assert_eq!(line(end - 1), 2, "{field} ends at {end}: line 2, beside the timing's overheads");
        }
        assert_eq!(offset_of!(LinkDir, stats), 3 * 64, "the counters fill line 3");
        assert_eq!(size_of::<DirStats>(), 64);
        assert_eq!(size_of::<LinkDir>(), 5 * 64, "the parameters as given fill line 4");
    }

    #[test]
    fn a_counter_split_in_two_words_counts_past_its_low_word() {
        let (mut lo, mut hi) = (u32::MAX - 2, 0u64);
        count(&mut lo, &mut hi, 2);
        assert_eq!((lo, hi), (u32::MAX, 0));
        count(&mut lo, &mut hi, 1);
        assert_eq!(u64::from(lo) + hi, 1 << 32);
        count(&mut lo, &mut hi, 5);
        assert_eq!(u64::from(lo) + hi, (1 << 32) + 5);
        // An addend too large for the low word goes to the high one whole.
        count(&mut lo, &mut hi, 1 << 40);
        assert_eq!(u64::from(lo) + hi, (1 << 40) + (1 << 32) + 5);
        count(&mut lo, &mut hi, 7);
        assert_eq!(u64::from(lo) + hi, (1 << 40) + (1 << 32) + 12);
    }

    #[test]
    fn a_direction_counts_its_frames_bytes_and_medium_time_past_four_billion() {
        let mut pool = PacketPool::new();
        // 1 bit/s: a 1,000-byte frame holds the medium 8,000 s, more ns
        // than a u32 holds.
        let mut p = params(1);
        p.queue = QueueLimit { packets: Some(10), bytes: None };
        let mut l = Link::new(Duplex::Full, LinkDir::new(p, ErrorModel::none()), LinkDir::new(p, ErrorModel::none()));
        let mut now = Time::ZERO;
        for uid in 0..3 {
            let s = l.start_at_once(now, 0, pkt(&mut pool, uid, 1_000), &pool).expect("idle");
            assert_eq!(s.done, now.plus_ns(8_000 * 1_000_000_000));
            let (arrive, _) = l.finish_transmission(s.done, 0, uid, &mut pool);
            let a = l.take_arrival(arrive, uid + 1, 0, &mut pool);
            pool.take(a.pkt);
            now = s.done;
        }
        let st = l.dirs[0].stats();
        assert_eq!((st.packets_sent, st.bytes_sent, st.busy_ns, st.delivered), (3, 3_000, 24_000_000_000_000, 3));
        // The third frame held the medium from 16,000 s to 24,000 s: up to
        // 20,000 s the medium was busy 20,000 s.
        assert_eq!(l.dirs[0].busy_ns(Time(20_000_000_000_000)), 20_000_000_000_000);
    }

    #[test]
    fn transmission_time_includes_overheads() {
        let mut p = params(2_000_000);
        assert_eq!(p.tx_time_ns(1440), 5_760_000);
        p.frame_overhead_bytes = 10;
        p.frame_overhead_ns = 1_000;
        assert_eq!(p.tx_time_ns(1440), 5_800_000 + 1_000);
    }

    #[test]
    fn full_duplex_directions_are_independent() {
        let mut pool = PacketPool::new();
        let mut l = Link::new(
            Duplex::Full,
            LinkDir::new(params(1_000_000), ErrorModel::none()),
            LinkDir::new(params(1_000_000), ErrorModel::none()),
        );
        let (a, b) = (pkt(&mut pool, 1, 125), pkt(&mut pool, 2, 125));
        assert!(offer(&mut l, 0, a, &mut pool));
        assert!(offer(&mut l, 1, b, &mut pool));
        let a = l.start_transmission(Time::ZERO, &mut pool, &mut Vec::new()).unwrap();
        let b = l.start_transmission(Time::ZERO, &mut pool, &mut Vec::new()).unwrap();
        assert_eq!((a.done, b.done), (Time(1_000_000), Time(1_000_000)));
        assert_ne!(a.dir, b.dir);
        assert!(l.start_transmission(Time::ZERO, &mut pool, &mut Vec::new()).is_none());
    }

    #[test]
    fn a_frame_offered_to_an_idle_empty_drop_tail_direction_starts_at_once() {
        let mut pool = PacketPool::new();
        let dir = |p: DirParams| LinkDir::new(p, ErrorModel::none());
        let mut full = Link::new(Duplex::Full, dir(params(1_000_000)), dir(params(1_000_000)));
        // t = 0: direction 0 is idle and nothing waits: the frame goes on the medium.
        let a = pkt(&mut pool, 1, 125);
        let s = full.start_at_once(Time::ZERO, 0, a, &pool).expect("idle and empty");
        assert_eq!((s.dir, s.done, s.frame), (0, Time(1_000_000), a));
        assert_eq!(full.dirs[0].stats().packets_sent, 1);
        // Busy now: the next one is queued behind it.
        let b = pkt(&mut pool, 2, 125);
        assert!(full.start_at_once(Time::ZERO, 0, b, &pool).is_none());
        assert!(offer(&mut full, 0, b, &mut pool));
        // t = 1 ms: the medium frees, but a frame waits: it goes first (a
        // direction is never left idle with a frame waiting).
        full.finish_transmission(Time(1_000_000), 0, 0, &mut pool);
        let s = full.start_transmission_after(Time(1_000_000), 0, &mut pool, &mut Vec::new()).expect("b waits");
        assert_eq!(s.frame, b);
        let c = pkt(&mut pool, 3, 125);
        assert!(full.start_at_once(Time(1_000_000), 0, c, &pool).is_none(), "b is on the medium");
        // A bytes limit: an empty queue lets through what it would admit.
        let mut small = params(1_000_000);
        small.queue = QueueLimit { packets: None, bytes: Some(125) };
        let mut l = Link::new(Duplex::Full, dir(small), dir(small));
        assert!(l.start_at_once(Time::ZERO, 0, pkt(&mut pool, 4, 126), &pool).is_none(), "too big");
        assert!(l.start_at_once(Time::ZERO, 0, pkt(&mut pool, 5, 125), &pool).is_some(), "fits");
        // A queue that holds nothing refuses the frame, as it would if queued.
        let mut none = params(1_000_000);
        none.queue = QueueLimit { packets: Some(0), bytes: None };
        let mut l = Link::new(Duplex::Full, dir(none), dir(none));
        assert!(l.start_at_once(Time::ZERO, 0, c, &pool).is_none(), "no room");
        // A shared medium keeps its turns: it is always queued.
        let mut half = Link::new(Duplex::Half, dir(params(1_000_000)), dir(params(1_000_000)));
        assert!(half.start_at_once(Time::ZERO, 0, c, &pool).is_none(), "half duplex");
        // A composed queue sees every arrival (RED's average, its statistics).
        let cfg = crate::queue::QueueConfig::default();
        let composed = dir(params(1_000_000)).with_discipline(Some(&cfg), || RngStream::new(1, "q"));
        let mut sem = Link::new(Duplex::Full, composed, dir(params(1_000_000)));
        assert!(sem.start_at_once(Time::ZERO, 0, c, &pool).is_none(), "composed queue");
    }

    #[test]
    fn starting_after_a_change_looks_at_that_direction_unless_the_medium_is_shared() {
        let mut pool = PacketPool::new();
        let dir = || LinkDir::new(params(1_000_000), ErrorModel::none());
        // Full duplex: each direction starts when it changes, alone.
        let mut full = Link::new(Duplex::Full, dir(), dir());
        let w = pkt(&mut pool, 1, 125);
        assert!(offer(&mut full, 1, w, &mut pool));
        assert_eq!(full.start_transmission_after(Time::ZERO, 1, &mut pool, &mut Vec::new()).map(|s| s.dir), Some(1));
        assert!(full.start_transmission_after(Time::ZERO, 1, &mut pool, &mut Vec::new()).is_none(), "dir 1 is busy");
        assert!(
            full.start_transmission_after(Time::ZERO, 0, &mut pool, &mut Vec::new()).is_none(),
            "nothing waits on dir 0"
        );
        let w = pkt(&mut pool, 2, 125);
        assert!(offer(&mut full, 0, w, &mut pool));
        assert_eq!(full.start_transmission_after(Time::ZERO, 0, &mut pool, &mut Vec::new()).map(|s| s.dir), Some(0));
        // Half duplex: the medium's turn decides, whichever direction changed.
        let mut half = Link::new(Duplex::Half, dir(), dir());
        for i in 0..2 {
            let w = pkt(&mut pool, 10 + i, 125);
            assert!(offer(&mut half, 0, w, &mut pool));
        }
        let w = pkt(&mut pool, 20, 125);
        assert!(offer(&mut half, 1, w, &mut pool));
        let first = half.start_transmission_after(Time::ZERO, 1, &mut pool, &mut Vec::new()).unwrap();
        assert_eq!(first.dir, 0, "direction 0's turn comes first");
        assert!(
            half.start_transmission_after(Time::ZERO, 1, &mut pool, &mut Vec::new()).is_none(),
            "one frame at a time"
        );
        half.finish_transmission(first.done, 0, 0, &mut pool);
        assert_eq!(
            half.start_transmission_after(first.done, 0, &mut pool, &mut Vec::new()).map(|s| s.dir),
            Some(1),
            "then direction 1's"
        );
    }

    #[test]
    fn half_duplex_shares_the_medium_and_takes_turns() {
        let mut pool = PacketPool::new();
        let mut l = Link::new(
            Duplex::Half,
            LinkDir::new(params(1_000_000), ErrorModel::none()),
            LinkDir::new(params(1_000_000), ErrorModel::none()),
        );
        for i in 0..3 {
            let w = pkt(&mut pool, i, 125);
            assert!(offer(&mut l, 0, w, &mut pool));
        }
        let w = pkt(&mut pool, 10, 125);
        assert!(offer(&mut l, 1, w, &mut pool));
        let Started { dir: d0, done: t0, .. } = l.start_transmission(Time::ZERO, &mut pool, &mut Vec::new()).unwrap();
        assert!(l.start_transmission(Time::ZERO, &mut pool, &mut Vec::new()).is_none(), "one frame at a time");
        let (arrive, oldest) = l.finish_transmission(t0, d0, 0, &mut pool);
        assert_eq!(arrive, Time(1_001_000));
        assert!(oldest);
        let d1 = l.start_transmission(t0, &mut pool, &mut Vec::new()).unwrap().dir;
        assert_ne!(d0, d1, "the other direction gets the next turn");
        let a = l.take_arrival(arrive, 1, d0, &mut pool);
        assert_eq!(pool.take(a.pkt).uid, if d0 == 0 { 0 } else { 10 });
    }

    #[test]
    fn jitter_delays_frames_without_reordering_them() {
        let mut p = params(8_000_000); // a 1000-byte frame takes 1 ms
        p.jitter_mean_ns = 5_000_000;
        let mut pool = PacketPool::new();
        let mut l = Link::new(
            Duplex::Full,
            LinkDir::new(p, ErrorModel::none()).with_jitter_stream(|| RngStream::new(1, "j")),
            LinkDir::new(p, ErrorModel::none()),
        );
        let (mut now, mut last, mut extra_sum) = (Time::ZERO, Time::ZERO, 0u64);
        let n = 20_000;
        for i in 0..n {
            let w = pkt(&mut pool, i, 1000);
            assert!(offer(&mut l, 0, w, &mut pool));
            let Started { dir, done, .. } = l.start_transmission(now, &mut pool, &mut Vec::new()).unwrap();
            let (arrive, _) = l.finish_transmission(done, dir, i, &mut pool);
            assert!(arrive >= last, "no overtaking");
            assert!(arrive.ns() >= done.ns() + 1_000, "at least the propagation delay");
            extra_sum += arrive.ns() - done.ns() - 1_000;
            let a = l.take_arrival(arrive, i + 1, dir, &mut pool);
            assert_eq!(pool.take(a.pkt).uid, i);
            (now, last) = (done, arrive);
        }
        // Frames leave 1 ms apart and the FIFO rule only adds delay: the mean
        // extra delay is at least the jitter's mean, within sampling error.
        let mean = extra_sum as f64 / n as f64;
        assert!(mean > 0.95 * 5e6, "{mean}");
    }

    #[test]
    fn delivered_frames_are_those_arrived_intact() {
        // Every frame is lost on ab (p = 1); none on ba.
        let lossy = ErrorModel::new(&crate::error::ErrorModelConfig::Bernoulli { p: 1.0 }, || RngStream::new(1, "e"));
        let mut pool = PacketPool::new();
        let mut l = Link::new(
            Duplex::Full,
            LinkDir::new(params(8_000_000), lossy),
            LinkDir::new(params(8_000_000), ErrorModel::none()),
        );
        let mut now = Time::ZERO;
        let mut arrivals = [Vec::new(), Vec::new()];
        for i in 0..3 {
            for (dir, times) in arrivals.iter_mut().enumerate() {
                let w = pkt(&mut pool, 2 * i + dir as u64, 1000);
                assert!(offer(&mut l, dir, w, &mut pool));
                let s = l.start_transmission_after(now, dir, &mut pool, &mut Vec::new()).unwrap();
                times.push(l.finish_transmission(s.done, dir, 0, &mut pool).0);
            }
            now = now.plus_ns(1_000_000);
        }
        // t: two of three frames each way have arrived, one propagates.
        for (dir, times) in arrivals.iter().enumerate() {
            for at in &times[..2] {
                let a = l.take_arrival(*at, 1, dir, &mut pool);
                assert_eq!(a.corrupted, dir == 0);
                pool.take(a.pkt);
            }
        }
        let (ab, ba) = (l.dirs[0].stats(), l.dirs[1].stats());
        assert_eq!((ab.packets_sent, ab.drops_error, ab.delivered), (3, 2, 0));
        assert_eq!((ba.packets_sent, ba.drops_error, ba.delivered), (3, 0, 2));
    }

    #[test]
    fn queue_overflow_is_counted() {
        let mut pool = PacketPool::new();
        let mut l = Link::new(
            Duplex::Full,
            LinkDir::new(params(1_000_000), ErrorModel::none()),
            LinkDir::new(params(1_000_000), ErrorModel::none()),
        );
        for i in 0..11 {
            let w = pkt(&mut pool, i, 100);
            let _queued = offer(&mut l, 0, w, &mut pool);
        }
        assert_eq!(l.dirs[0].stats().drops_queue, 1);
        assert_eq!(l.in_flight(), 10);
    }
}
