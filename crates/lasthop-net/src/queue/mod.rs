//! Queue disciplines of a link direction (DESIGN.md: "queue disciplines ...
//! are pluggable per link direction"), for the reverse channel of seed 001
//! (Balakrishnan, Padmanabhan, Katz, "The effects of asymmetry on TCP
//! performance", MONET 1999; reading in shared/reference/asymmetry-001.md
//! Secs. 1.4, 1.5, 1.8, 1.11, 1.18).
//!
//! A [`Queue`] holds the packets waiting and one [`Discipline`], the enum
//! dispatched per packet, with two members:
//!
//! - [`DropTail`] (`drop_tail.rs`): a FIFO with a limit. Every direction
//!   whose scenario has no `queue` table uses it; it reads no packet, draws
//!   nothing and keeps no statistics.
//! - [`Semantic`] (`semantic.rs`, after ns-2's `PacketQueue/Semantic`, the
//!   queue the paper's simulations ran): a queue that reads what it holds,
//!   composed from the parts the paper combines, each in its own file:
//!   - admission (the limit, counted as BSD/OS counts it: a 6-byte ack
//!     takes a whole slot) and the victim of an overflow, `drop_tail` or
//!     `random` (`overflow.rs`; seed 001 S7.1);
//!   - optional RED with ECN marking (`red.rs`; Floyd and Jacobson 1993,
//!     seed 001 S6.1);
//!   - optional ACK filtering (`ack_filter.rs`; seed 001 S6.2, S8.4);
//!   - the service order, `fifo` or `acks_first` (`acks_first.rs`; seed 001
//!     S6.5);
//!   - or, instead of RED, ACK filtering and acks-first, one of the AQMs
//!     that today's satellite and cellular links are compared with: CoDel
//!     (`codel.rs`, RFC 8289), PIE (`pie.rs`, RFC 8033) or FQ-CoDel
//!     (`fq_codel.rs`, RFC 8290, on CoDel's state machine), or TCP-Jersey's
//!     congestion warning (`cw.rs`: every ECN-capable arrival marked while
//!     a RED-style average exceeds a threshold; seed 004). Each keeps the
//!     time its packets joined, inside the box, so that a [`Waiting`]
//!     stays 24 bytes. CoDel and FQ-CoDel drop at dequeue:
//!     [`Queue::dequeue`] reports those drops as an arrival's, and a MAC's
//!     station queue, which does not, refuses them.
//!
//!   It also keeps the direction's queue statistics (marks, time-averaged
//!   occupancy and the share of it that is pure acks).
//!
//! The shared interface: [`Queue::enqueue`] offers an arrival and says
//! what became of it ([`Admission`]); every packet the composed queue lets
//! go of, the arrival included, is reported as a [`Removal`] with its
//! cause, so that the caller frees and counts it. [`Queue::dequeue`] hands
//! over the next frame for the medium.
//!
//! Speed: the packets wait in the [`DropTail`] of every queue, so the
//! length the link asks for on every event needs no dispatch. The DropTail
//! arm of each operation is inlined into the link; the composed parts are
//! called out of line, and boxed (most directions never use them), so that
//! a direction without a discipline pays one predictable branch per
//! arrival and per departure (measured: +0.5% instructions on the 1997 LAN
//! benchmark, issue 11). A composed queue serves its next packet by first
//! bringing it to the head, so that the pop itself is DropTail's.

pub mod ack_filter;
pub mod acks_first;
pub mod codel;
pub mod cw;
pub mod drop_tail;
pub mod fq_codel;
pub mod overflow;
pub mod pie;
pub mod red;
pub mod semantic;

pub use ack_filter::AckFilterPosition;
pub use acks_first::Service;
pub use codel::{Codel, CodelConfig};
pub use cw::{Cw, CwConfig};
pub use drop_tail::DropTail;
pub use fq_codel::{FqCodel, FqCodelConfig};
pub use overflow::Overflow;
pub use pie::{Pie, PieConfig};
pub use red::{MarkVictim, Red, RedConfig};
pub use semantic::Semantic;

use lasthop_core::rng::RngStream;
use lasthop_core::trace::DropCause;
use lasthop_core::{Packet, PacketPool, PacketRef, Time};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A waiting packet: its handle and the few header fields that the queue
/// and the simulator's accounting read when a frame goes on the medium (24
/// bytes an entry), so that a packet that waited long is not read back from
/// memory for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// First payload byte, and payload length (0 for a pure ack).
    pub seq: u64,
    pub pkt: PacketRef,
    /// Size on the wire (what a limit in bytes counts).
    pub size_bytes: u32,
    pub len: u32,
    /// The caller's, carried through the link untouched (the simulator's
    /// goodput slot of the packet's flow on this hop).
    pub tag: u32,
}

impl Waiting {
    pub fn new(pkt: &Packet, r: PacketRef, tag: u32) -> Waiting {
        Waiting { seq: pkt.tcp.seq, pkt: r, size_bytes: pkt.size_bytes, len: pkt.tcp.len, tag }
    }

    /// A pure ack (what acks-first serves first and the occupancy share
    /// counts): no payload. In lasthop every data segment carries payload
    /// (no SYN, FIN or zero-window probe is modelled), so this agrees with
    /// [`Packet::is_pure_ack`]; ACK filtering reads the packet itself.
    #[inline]
    pub fn is_pure_ack(&self) -> bool {
        self.len == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueLimit {
    /// Most packets waiting, if limited by count.
    pub packets: Option<u32>,
    /// Most bytes waiting, if limited by size.
    pub bytes: Option<u64>,
}

/// What became of an arrival offered to a queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// It joined the queue, and nothing left it.
    Queued,
    /// A full queue refused it (cause `Queue`); nothing else left it. Its
    /// packet is the caller's to drop.
    Refused,
    /// Packets left the queue, listed in the caller's `out`: the arrival
    /// among them unless `queued`.
    Removed { queued: bool },
}

impl Admission {
    /// Whether the arrival joined the queue.
    pub fn queued(self) -> bool {
        matches!(self, Admission::Queued | Admission::Removed { queued: true })
    }
}

/// A packet a queue let go of: the arrival it refused, the victim it chose
/// in the arrival's place, or an ack it purged. The caller owns its slot
/// in the pool from then on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removal {
    pub pkt: PacketRef,
    /// `Queue` (overflow, or FQ-CoDel's drop from the fattest flow),
    /// `Early` (RED, CoDel or PIE, not ECN-capable) or `Filtered` (ACK
    /// filtering).
    pub cause: DropCause,
}

/// The `queue` table of a link direction in a scenario: which discipline
/// serves the direction's queue. The limit stays the link's
/// `queue_packets` / `queue_bytes`. Giving the table at all (even empty)
/// selects the composed [`Semantic`] queue and its statistics; with every
/// field at its default it behaves as [`DropTail`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueueConfig {
    /// Service order: `fifo` (default) or `acks_first` (pure acks before
    /// data, FIFO within each class, no preemption; seed 001 Sec. 6.5).
    #[serde(default)]
    pub discipline: Service,
    /// Victim when the queue is full: `drop_tail` (default: the arriving
    /// packet) or `random` (a uniformly random one among the queued packets
    /// and the arrival; seed 001 Sec. 7.1).
    #[serde(default)]
    pub overflow: Overflow,
    /// ACK filtering (seed 001 Sec. 6.2): a pure ack joining the queue
    /// purges the queued pure acks of its connection with a smaller
    /// cumulative ack. Default off.
    #[serde(default)]
    pub ack_filter: bool,
    /// Where a filtering ack joins: `tail` (default, ns-2's default) or
    /// `replace_head` (in the place of the oldest ack it purged; ns-2's
    /// `replace_head_`). Only with `ack_filter = true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack_filter_position: Option<AckFilterPosition>,
    /// RED with ECN marking (Floyd and Jacobson 1993; seed 001 Sec. 6.1).
    /// Absent: no early marks or drops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub red: Option<RedConfig>,
    /// CoDel (RFC 8289): drops at dequeue once the sojourn time has stayed
    /// above `target_ms` for `interval_ms`. Point-to-point links only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codel: Option<CodelConfig>,
    /// PIE (RFC 8033): drops arrivals with a probability steered toward a
    /// queueing delay of `target_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pie: Option<PieConfig>,
    /// FQ-CoDel (RFC 8290): per-flow queues served by deficit round robin,
    /// CoDel on each. Point-to-point links only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fq_codel: Option<FqCodelConfig>,
    /// TCP-Jersey's congestion warning (Xu, Tian, Ansari 2004; seed 004
    /// Sec. 2.2): drop-tail, every ECN-capable arrival marked CE while a
    /// RED-style average queue exceeds `threshold_packets`, no probability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jersey_cw: Option<CwConfig>,
}

impl QueueConfig {
    /// Check the settings against the direction's packet limit; an error
    /// names the offending field relative to the `queue` table
    /// (`red.min_packets`) and says why.
    pub fn validate(&self, limit: QueueLimit) -> Result<(), (String, String)> {
        if self.ack_filter_position.is_some() && !self.ack_filter {
            return Err(("ack_filter_position".into(), "needs ack_filter = true".into()));
        }
        if let Some(red) = &self.red {
            red.validate(limit).map_err(|(f, r)| (format!("red.{f}"), r))?;
        }
        if let Some(aqm) = self.aqm_name() {
            let given = [
                ("red", self.red.is_some()),
                ("codel", self.codel.is_some()),
                ("pie", self.pie.is_some()),
                ("jersey_cw", self.jersey_cw.is_some()),
            ];
            if let Some((other, _)) = given.iter().find(|&&(n, on)| on && n != aqm) {
                return Err((
                    aqm.into(),
                    format!("only one of red, codel, pie, fq_codel and jersey_cw may be given (also {other})"),
                ));
            }
            if self.discipline != Service::Fifo {
                return Err(("discipline".into(), format!("{aqm} serves in its own order: only fifo")));
            }
            if self.ack_filter {
                return Err(("ack_filter".into(), format!("cannot be combined with {aqm}")));
            }
            if self.overflow != Overflow::DropTail {
                return Err(("overflow".into(), format!("{aqm} picks its own overflow victim: only drop_tail")));
            }
        }
        let at = |name: &'static str| move |(f, r): (String, String)| (format!("{name}.{f}"), r);
        if let Some(c) = &self.codel {
            c.validate(limit).map_err(at("codel"))?;
        }
        if let Some(c) = &self.pie {
            c.validate(limit).map_err(at("pie"))?;
        }
        if let Some(c) = &self.fq_codel {
            c.validate(limit).map_err(at("fq_codel"))?;
        }
        if let Some(c) = &self.jersey_cw {
            c.validate(limit).map_err(at("jersey_cw"))?;
        }
        Ok(())
    }

    /// The AQM given (`codel`, `pie`, `fq_codel` or `jersey_cw`), the
    /// first of `fq_codel`, `pie`, `codel`, `jersey_cw` if several are.
    fn aqm_name(&self) -> Option<&'static str> {
        [
            ("fq_codel", self.fq_codel.is_some()),
            ("pie", self.pie.is_some()),
            ("codel", self.codel.is_some()),
            ("jersey_cw", self.jersey_cw.is_some()),
        ]
        .into_iter()
        .find_map(|(n, on)| on.then_some(n))
    }

    /// Whether the discipline draws random numbers (and needs a stream).
    pub fn draws(&self) -> bool {
        self.overflow == Overflow::Random || self.red.is_some() || self.pie.is_some()
    }

    /// Whether the discipline drops at dequeue (CoDel, FQ-CoDel): only a
    /// point-to-point link's direction reports such drops. The field to
    /// name when refusing it.
    pub fn drops_at_dequeue(&self) -> Option<&'static str> {
        if self.codel.is_some() {
            Some("codel")
        } else if self.fq_codel.is_some() {
            Some("fq_codel")
        } else {
            None
        }
    }
}

/// Which discipline serves a queue: the enum dispatched per packet.
#[derive(Clone, Debug)]
pub enum Discipline {
    /// The FIFO itself, refusing arrivals when full.
    DropTail,
    /// The composed parts (boxed: most directions never use them).
    Semantic(Box<Semantic>),
}

/// A link direction's queue: the packets waiting, in arrival order with
/// their limit (a [`DropTail`], every discipline's storage, so that the
/// length the link asks for on every event needs no dispatch), and the
/// discipline that admits and serves them.
#[derive(Clone, Debug)]
pub struct Queue {
    fifo: DropTail,
    discipline: Discipline,
}

/// Statistics of a composed queue at a given time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueStats {
    /// Packets RED (arrivals and queued packets), CoDel, PIE, FQ-CoDel or
    /// Jersey's CW marked CE.
    pub marks: u64,
    /// Time-averaged packets waiting, from time zero (the packet on the
    /// medium is not waiting).
    pub mean_packets: f64,
    /// Time-averaged pure acks waiting.
    pub mean_acks: f64,
    /// RED's average queue size (F&J's avg) at the last arrival.
    pub red_average: Option<f64>,
}

impl Queue {
    pub fn drop_tail(limit: QueueLimit) -> Queue {
        Queue { fifo: DropTail::new(limit), discipline: Discipline::DropTail }
    }

    /// The composed discipline of `cfg` (expected to have passed
    /// [`QueueConfig::validate`]). `packet_time_ns` gives this direction's
    /// transmission time of a packet of a size (for RED's idle rule);
    /// `rng` makes the stream only if the discipline draws.
    pub fn semantic(
        limit: QueueLimit,
        cfg: &QueueConfig,
        packet_time_ns: impl Fn(u32) -> u64,
        rng: impl FnOnce() -> RngStream,
    ) -> Queue {
        let discipline = Discipline::Semantic(Box::new(Semantic::new(cfg, packet_time_ns, rng)));
        Queue { fifo: DropTail::new(limit), discipline }
    }

    /// Offer `w` (already in `pool`) at time `now`. What left the queue
    /// beyond a refused arrival is appended to `out` (empty on the call),
    /// for the caller to free and count. `idle_since` says since when the
    /// direction's medium has been free of its frames, if it is (asked only
    /// by a composed queue, and only when nothing waits: RED's idle rule).
    ///
    /// The DropTail arm is inlined into the caller; the composed one is a
    /// call kept out of line (and out of the caller's registers), so that
    /// a direction without a discipline pays a predictable branch.
    #[inline]
    pub fn enqueue(
        &mut self,
        now: Time,
        w: Waiting,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
        idle_since: impl FnOnce() -> Option<Time>,
    ) -> Admission {
        if let Discipline::DropTail = self.discipline {
            return if self.fifo.enqueue(w) { Admission::Queued } else { Admission::Refused };
        }
        let idle = if self.fifo.is_empty() { idle_since() } else { None };
        self.enqueue_composed(now, w, pool, out, idle)
    }

    #[cold]
    #[inline(never)]
    fn enqueue_composed(
        &mut self,
        now: Time,
        w: Waiting,
        pool: &mut PacketPool,
        out: &mut Vec<Removal>,
        idle_since: Option<Time>,
    ) -> Admission {
        let Discipline::Semantic(s) = &mut self.discipline else { unreachable!("DropTail is served inline") };
        debug_assert!(out.is_empty(), "the caller empties `out` after each arrival");
        let queued = s.enqueue(&mut self.fifo, now, w, pool, out, idle_since);
        match (queued, out.is_empty()) {
            (true, true) => Admission::Queued,
            (queued, _) => Admission::Removed { queued },
        }
    }

    /// The next frame for the medium, taken at `now`. A composed queue
    /// first brings the packet it serves next to the head (out of line),
    /// dropping on the way what CoDel or FQ-CoDel say (appended to `out`,
    /// for the caller to free and count; marks go to packets in `pool`);
    /// then the head leaves, as from DropTail. `None` if nothing waits, or
    /// nothing is left after the drops.
    #[inline]
    pub fn dequeue(&mut self, now: Time, pool: &mut PacketPool, out: &mut Vec<Removal>) -> Option<Waiting> {
        if let Discipline::Semantic(_) = self.discipline {
            self.before_dequeue(now, Some(pool), out);
        }
        self.fifo.dequeue()
    }

    /// [`Queue::dequeue`] for a queue whose discipline drops nothing at
    /// dequeue (a MAC's station queue: [`QueueConfig::drops_at_dequeue`]
    /// is refused there).
    #[inline]
    pub fn dequeue_in_order(&mut self, now: Time) -> Option<Waiting> {
        if let Discipline::Semantic(_) = self.discipline {
            self.before_dequeue(now, None, &mut Vec::new());
        }
        self.fifo.dequeue()
    }

    #[cold]
    #[inline(never)]
    fn before_dequeue(&mut self, now: Time, pool: Option<&mut PacketPool>, out: &mut Vec<Removal>) {
        if let Discipline::Semantic(s) = &mut self.discipline {
            s.before_dequeue(&mut self.fifo, now, pool, out);
        }
    }

    /// Whether `w` would leave as it joined, were the medium free: a
    /// DropTail queue with nothing waiting and room for it (joining and
    /// leaving at once then changes nothing).
    #[inline]
    pub fn passes_through(&self, w: &Waiting) -> bool {
        matches!(self.discipline, Discipline::DropTail) && self.fifo.is_empty() && !self.fifo.is_full(w.size_bytes)
    }

    /// The largest packet, in bytes, that [`Queue::passes_through`] lets
    /// through while the queue is empty (`None`: none; a composed queue
    /// never lets one through). Fixed once the queue is made, so that a
    /// link can keep it beside its medium.
    pub fn empty_passes_up_to(&self) -> Option<u32> {
        if !matches!(self.discipline, Discipline::DropTail) {
            return None;
        }
        let limit = self.fifo.limit();
        if limit.packets == Some(0) {
            return None;
        }
        // `is_full(0, 0, size)` is `size > bytes`.
        Some(limit.bytes.map_or(u32::MAX, |b| u32::try_from(b).unwrap_or(u32::MAX)))
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    /// The head of a plain DropTail queue (no discipline), taken; `None`
    /// if the queue is empty or has a discipline (then
    /// [`Queue::dequeue`]). The link's inlined path.
    #[inline(always)]
    pub fn dequeue_drop_tail(&mut self) -> Option<Waiting> {
        match self.discipline {
            Discipline::DropTail => self.fifo.dequeue(),
            Discipline::Semantic(_) => None,
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    /// The packets waiting, head first.
    pub fn waiting(&self) -> impl Iterator<Item = &Waiting> {
        self.fifo.waiting().iter()
    }

    /// The composed discipline, if any (for tests).
    #[cfg(test)]
    pub(crate) fn composed(&self) -> Option<&Semantic> {
        match &self.discipline {
            Discipline::DropTail => None,
            Discipline::Semantic(s) => Some(s),
        }
    }

    /// Statistics up to `end`, for a composed queue only.
    pub fn stats(&self, end: Time) -> Option<QueueStats> {
        match &self.discipline {
            Discipline::DropTail => None,
            Discipline::Semantic(s) => Some(s.stats(&self.fifo, end)),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
