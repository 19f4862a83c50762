//! A circuit-mode point-to-point hop whose frames are carried with a link
//! ARQ member: RLP ([`crate::arq::rlp`], `mac = "rlp"`) or AIRMAIL
//! ([`crate::arq::airmail`], `mac = "airmail"`). The circuit is the TDMA
//! data service of Nanda, Ejzak and Doshi (IEEE JSAC 12(8), 1994), as the
//! close reading `elaarag-002.md` Sec. 1.5 spells it out: "a fixed frame
//! slot per frame time", an in-order channel, "in-order delivery of IP
//! packets reassembled from frames". The member's sides are held through
//! one enum dispatch site (`circuit/member.rs`); what follows is RLP's
//! case, AIRMAIL's differences at the end.
//!
//! Two stations joined by a full-duplex circuit of `bandwidth_bps`, one-way
//! `delay_ns`, time-slotted per direction:
//!
//! - \[I\] A slot is one frame time, `frame_bytes * 8 / bandwidth_bps`
//!   (rounded to the nearest ns); slot `k` of either direction starts at
//!   `k * slot_ns` from time zero, and a frame sent in it reaches the far
//!   station at the slot's end plus `delay_ns`. Every frame, data or
//!   status, fills its slot: `frame_bytes` on the wire, of which
//!   `header_bytes` are RLP's header (\[I\] 4 by default: a frame number,
//!   a send sequence number and a control field; the primary's frame
//!   layout was not read) and the rest payload.
//! - Each station has a queue of IP packets (a `StationQueue`, in
//!   `mac/station_queue.rs`), a
//!   segmenter (a packet of `b` bytes is `ceil(b / payload)` frames), an
//!   RLP [`Sender`] over those frames, and, for the other direction, an
//!   RLP [`Receiver`] and a reassembly that hands up whole packets
//!   ([`MacOutput::Deliver`] once per packet): in order with
//!   [`crate::arq::rlp::Delivery::InOrder`].
//! - \[I\] Feedback: slot `k` with `k % feedback_period_slots ==
//!   feedback_period_slots - 1` is a status slot of its direction: it
//!   carries the receiver's full status ([`Receiver::status`]) and never
//!   data. It is simulated only while the peer's sender has frames in its
//!   window (a status could change nothing else: an idle circuit costs no
//!   events); otherwise it stays empty. Every other slot carries what the
//!   sender's [`ArqSender::next`] answers (the enhanced form: with the
//!   receiver's partial status piggybacked, [`Receiver::partial_status`]),
//!   or nothing. Idle slots are not events: after every call the circuit
//!   computes the next slot either direction needs, and [`Circuit::poll_at`]
//!   says the earliest of that, the next arrival and the senders' stall
//!   deadlines ([`Sender::deadline`]).
//! - Frame errors: the sending station's [`ErrorModel`] is consulted once
//!   per frame transmission (status frames included) with `frame_bytes`; a
//!   corrupted frame is lost.
//! - A frame RLP gives up on at its retry limit drops its packet
//!   ([`MacOutput::Drop`] with [`MacDropCause::RetryLimit`], once); the
//!   packet's frames not yet offered to RLP are never offered, and those in
//!   RLP's window that reach the far station are discarded there.
//! - [`MacOutput::Transmit`] comes once per packet, when its first frame
//!   first goes on the circuit (`retransmission: false`). Link-level frame
//!   retransmissions never appear as outputs: they are counted in the
//!   member's [`CircuitStats`] (frames sent, frame retransmissions, status
//!   frames, packets delivered and dropped). [`MacOutput::Retry`] is never
//!   emitted (a packet's frames are retried, not the packet).
//! - [`Circuit::in_flight`] counts the packets the MAC holds: queued, or
//!   being segmented, sent and reassembled and not yet handed up or
//!   dropped.
//!
//! Internal events due at the same time run in this order: arrivals
//! (station 0's frames, then station 1's), stall timeouts (station 0,
//! then 1), AIRMAIL's gap timer (station 1), slots (direction 0, then 1).
//!
//! # AIRMAIL (Ayanoglu et al. 1995 through seed 002 Sec. 5.1; `elaarag-002.md` Sec. 1.6)
//!
//! - \[S, A\] Asymmetric: station 0 (the first of the medium's
//!   `stations`) is the base station, the smart end; station 1 the mobile.
//! - \[I\] The base station's status is periodic: slot `k` of its direction
//!   with `k % status_period_slots == status_period_slots - 1` is a status
//!   slot (as RLP's, simulated only while the mobile's sender has frames
//!   in its window), counted as the receiver's timer statuses. Its sender's
//!   poll timer is the stall timer's place ([`crate::arq::airmail::Sender::deadline`]);
//!   it sets the poll bit on the last frame of a burst.
//! - \[S, A\] The mobile's status is event-driven and combined: when its
//!   receiver answers a frame with a status (end of a block of `N` frames,
//!   a frame with the poll bit) or its receive-gap timer runs out, a status
//!   is pending, and goes in the mobile's next slot, before data (one
//!   status frame for however many events came before it; it carries the
//!   receiver's state when it goes). The mobile has no reserved status
//!   slots and no retransmission timer.
//! - No piggybacked status (RLP's enhanced form only), no retry limit
//!   (AIRMAIL is persistent).
//! - FEC: `circuit/coding.rs` (the level's cost in payload per frame and
//!   parity slots, and which hit frames it repairs).
//!
//! # Outages ([`Circuit::set_outage`]; the world's `outages`)
//!
//! An outage cuts the radio channel of one direction (a station's frames);
//! the link layer above it is not told and keeps its state: what it holds
//! survives the outage, which is the point of a link-layer ARQ (seed 002
//! Sec. 6: the link layer "hides" losses, and does not help "in the case
//! of long or frequent disconnections", LL-3). By the world's semantics
//! (as a point-to-point link's, `world/outages.rs`):
//! - [`Outage::Flush`]: the station's queue of IP packets (not yet
//!   segmented) is lost at once, the frames propagating are lost, and
//!   every frame the station sends while down is lost (its sender goes on
//!   sending into nothing: timers, retries and RLP's retry limit run as on
//!   a channel in fade). The world drops the packets offered while down.
//! - [`Outage::Hold`]: the frames propagating are lost; the station sends
//!   nothing while down (its timers run; what they mark waits); packets
//!   offered are queued.
//! - [`Outage::Blackhole`]: nothing is lost at the start; every frame the
//!   station sends while down is lost.
//! - \[I\] A frame lost to an outage is not shown to AIRMAIL's FEC adapter
//!   (an outage is not the channel's error rate), and no code repairs it;
//!   the error model is consulted for it as for any frame (its draws stay
//!   where they were).

use super::medium;
use super::station_queue::StationQueue;
use super::{MacDropCause, MacOutput, Outage, StationId};
use crate::arq::airmail::fec::{FecConfig, FecLevel};
use crate::arq::airmail::{self, AirmailConfig, Role};
use crate::arq::rlp::{self, RlpConfig};
use crate::arq::{Expiry, Seq};
use crate::error::ErrorModel;
use crate::queue::{Admission, QueueConfig, Removal, Waiting};
use lasthop_core::rng::RngStream;
use lasthop_core::trace::DropCause;
use lasthop_core::{PacketPool, Time};
use member::{Header, Rx, Status, Tx};
use std::collections::VecDeque;

mod coding;
mod member;

pub use coding::{byte_error_probability, repair_probability, CodingStats};

/// AIRMAIL on the circuit: its parameters and the base station's status
/// period in slots.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CircuitAirmail {
    /// AIRMAIL's parameters (`status_period_ns` is set from
    /// `status_period_slots` by [`Circuit::new`]; `fec_cfg.frame_bytes`
    /// to the payload of a coded frame).
    pub arq: AirmailConfig,
    /// Slots between the base station's status frames (at least 2).
    pub status_period_slots: u32,
}

/// The circuit's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CircuitConfig {
    /// The circuit's rate per direction, in bit/s.
    pub bandwidth_bps: u64,
    /// One-way propagation, in ns.
    pub delay_ns: u64,
    /// A frame on the wire, header included, in bytes (\[I\] 64, the
    /// reading's default).
    pub frame_bytes: u32,
    /// The member's header in a frame, in bytes (\[I\] 4).
    pub header_bytes: u32,
    /// Each station's queue limit, in packets.
    pub queue_packets: u32,
    /// RLP's parameters (the member unless `airmail` is set).
    pub rlp: RlpConfig,
    /// AIRMAIL instead of RLP.
    pub airmail: Option<CircuitAirmail>,
}

impl Default for CircuitConfig {
    fn default() -> CircuitConfig {
        CircuitConfig {
            bandwidth_bps: 9_600,
            delay_ns: 0,
            frame_bytes: 64,
            header_bytes: 4,
            queue_packets: 50,
            rlp: RlpConfig::default(),
            airmail: None,
        }
    }
}

impl CircuitConfig {
    /// The first invalid field and why, if any (the member's own checks
    /// first).
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        match &self.airmail {
            None => {
                self.rlp.validate()?;
                if self.rlp.feedback_period_slots < 2 {
                    return Err((
                        "feedback_period_slots",
                        "must be at least 2 (a status every slot leaves none for data)",
                    ));
                }
            }
            Some(a) => {
                a.arq.validate()?;
                if a.status_period_slots < 2 {
                    return Err((
                        "status_period_slots",
                        "must be at least 2 (a status every slot leaves none for data)",
                    ));
                }
                let coded = FecLevel::parse(a.arq.fec)? != Some(FecLevel::None);
                if coded && self.frame_bytes <= self.header_bytes + 2 * a.arq.fec_cfg.byte_t {
                    return Err(("byte_t", "the byte code's 2 t parity bytes leave no payload in a frame"));
                }
            }
        }
        if self.bandwidth_bps == 0 {
            return Err(("bandwidth_bps", "must be positive"));
        }
        if self.frame_bytes <= self.header_bytes {
            return Err(("frame_bytes", "must exceed the frame header (4 bytes) to carry payload"));
        }
        if self.queue_packets == 0 {
            return Err(("queue_packets", "must be at least 1"));
        }
        Ok(())
    }

    /// One slot, in ns.
    pub fn slot_ns(&self) -> u64 {
        let bits = u128::from(self.frame_bytes) * 8 * 1_000_000_000;
        let bw = u128::from(self.bandwidth_bps);
        ((bits + bw / 2) / bw).max(1) as u64
    }

    /// Payload bytes per frame (uncoded).
    pub fn payload_bytes(&self) -> u32 {
        self.frame_bytes - self.header_bytes
    }

    /// The member's window, in frames (RLP's or AIRMAIL's).
    pub fn window_frames(&self) -> u32 {
        self.airmail.map_or(self.rlp.window_frames, |a| a.arq.window_frames)
    }

    /// Frames a packet of `bytes` takes uncoded (at least one).
    pub fn frames_for(&self, bytes: u32) -> u32 {
        bytes.div_ceil(self.payload_bytes()).max(1)
    }

    /// Payload bytes per frame coded at `level` (AIRMAIL's byte code takes
    /// `2 t` of them at the byte and packet levels).
    fn payload_at(&self, level: FecLevel) -> u32 {
        match (level, &self.airmail) {
            (FecLevel::None, _) | (_, None) => self.payload_bytes(),
            (_, Some(a)) => self.payload_bytes() - 2 * a.arq.fec_cfg.byte_t,
        }
    }

    /// The slots between the periodic status frames.
    #[inline]
    fn status_period(&self) -> u32 {
        match &self.airmail {
            None => self.rlp.feedback_period_slots,
            Some(a) => a.status_period_slots,
        }
    }
}

/// Counters per station (as the sender of its direction, and as the
/// receiver of the other's frames where said).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CircuitStats {
    /// Packets offered to the station's queue.
    pub enqueued: u64,
    /// Queue refusals and removals.
    pub drops_queue: u64,
    pub drops_filtered: u64,
    /// Data frames sent, retransmissions included.
    pub frames_sent: u64,
    /// Of them, link-level retransmissions (known lost, stall, preemptive).
    pub frame_retransmissions: u64,
    /// Full status frames sent.
    pub status_frames: u64,
    /// Frames addressed to this station that arrived corrupted.
    pub frames_corrupted: u64,
    /// This station's packets handed up at the far station.
    pub packets_delivered: u64,
    /// This station's packets dropped at RLP's retry limit.
    pub packets_dropped: u64,
}

/// AIRMAIL's own counters at a station.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AirmailStats {
    /// Its receiver's statuses by cause (the mobile: block, poll, gap
    /// timer; the base station: its period, under `timer`). Causes count
    /// the receiver's decisions; several before a slot go as one frame
    /// ([`CircuitStats::status_frames`]).
    pub status_block: u64,
    pub status_poll: u64,
    pub status_timer: u64,
    /// Its sender's frames sent with the poll bit, and retransmissions by
    /// the poll timer (the base station).
    pub polls: u64,
    pub poll_resends: u64,
    /// Times the FEC level (or `m`) changed.
    pub fec_changes: u64,
    /// The code's counters.
    pub coding: CodingStats,
}

/// A frame of a packet: what the member carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    /// The packet's number at its station (counting from 0).
    id: u64,
    part: u32,
    /// The FEC level it is coded at (RLP: none).
    level: FecLevel,
}

/// A packet being segmented, sent and reassembled.
#[derive(Clone, Copy, Debug)]
struct Outgoing {
    id: u64,
    w: Waiting,
    parts: u32,
    /// Frames offered to the member.
    offered: u32,
    /// Frames handed up at the far station.
    received: u32,
    transmitted: bool,
    level: FecLevel,
}

/// A frame on the wire.
#[derive(Clone, Copy, Debug)]
enum WireFrame {
    Data { seq: Seq, piece: Piece, header: Header, partial: Option<Status> },
    Status(Status),
}

#[derive(Clone, Copy, Debug)]
struct Wire {
    arrive: Time,
    corrupted: bool,
    frame: WireFrame,
}

#[derive(Clone, Debug)]
struct Station {
    iq: StationQueue,
    /// Its link layer's state (what a handoff with state transfer moves).
    link: Side,
    /// Frames this station sent, on the way to the other.
    wire: VecDeque<Wire>,
    /// The first slot of its direction not yet used.
    next_slot: u64,
    /// The next slot its direction needs (`u64::MAX`: none).
    want_slot: u64,
    /// AIRMAIL's FEC (none for RLP).
    coding: Option<Box<coding::Coding<WireFrame>>>,
    error: ErrorModel,
    /// Its direction's outage, if one is on (module docs).
    outage: Option<Outage>,
    stats: CircuitStats,
}

/// A circuit's link-layer state, taken out of one circuit to go into
/// another at a handoff with state transfer ([`Circuit::take_link_state`];
/// AIRMAIL's handoff, seed 002 Sec. 5.1, `elaarag-002.md` Sec. 1.6 and
/// AIRMAIL-3): each station's sender with its window and the packets its
/// frames carry, its receiver with the frames held for reassembly. The
/// queues' packets are not in it (they are handed back to the caller, who
/// sends them on to the new circuit behind the window's).
#[derive(Clone, Debug)]
pub struct LinkState {
    sides: [Side; 2],
}

/// One station's link-layer state: its sender and the packets its frames
/// carry, its receiver and the frames held for reassembly.
#[derive(Clone, Debug)]
struct Side {
    packets: VecDeque<Outgoing>,
    next_id: u64,
    tx: Tx<Piece>,
    /// The next frame number the member will give (frames offered so far).
    offered: Seq,
    rx: Rx,
    /// Frames received and not yet handed up, by `seq % 64`.
    held: Vec<Option<(Seq, Piece)>>,
    /// A status is to go in the next slot (AIRMAIL's mobile end).
    pending_status: bool,
}

impl Side {
    /// A new station `s`'s state on a circuit configured `cfg` (after
    /// [`Circuit::new`]'s adjustments), its window `window` frames.
    fn new(cfg: &CircuitConfig, s: usize, window: u32) -> Side {
        let role = if s == 0 { Role::Bs } else { Role::Mh };
        let (tx, rx) = member::sides(&cfg.rlp, cfg.airmail.map(|a| (a.arq, role)));
        Side {
            packets: VecDeque::with_capacity(window as usize + 1),
            next_id: 0,
            tx,
            offered: 0,
            rx,
            held: vec![None; HELD],
            pending_status: false,
        }
    }

    /// The bytes of the packets in its window.
    fn bytes(&self) -> u64 {
        self.packets.iter().map(|p| u64::from(p.w.size_bytes)).sum()
    }
}

impl LinkState {
    /// The packets in the windows, by station (0: the base station's):
    /// the caller may change their tags (the goodput slot of the hop they
    /// now cross), never their packets.
    pub fn packets_mut(&mut self) -> impl Iterator<Item = (StationId, &mut Waiting)> {
        self.sides
            .iter_mut()
            .enumerate()
            .flat_map(|(s, side)| side.packets.iter_mut().map(move |p| (s as StationId, &mut p.w)))
    }

    /// The bytes of the packets in station `s`'s window.
    pub fn window_bytes(&self, s: StationId) -> u64 {
        self.sides[usize::from(s)].bytes()
    }
}

/// The circuit and its two stations.
#[derive(Clone, Debug)]
pub struct Circuit {
    cfg: CircuitConfig,
    slot_ns: u64,
    stations: [Station; 2],
    next: Time,
    /// Frames a block recovered (a buffer).
    recovered: Vec<WireFrame>,
}

const HELD: usize = rlp::MAX_WINDOW as usize;
const _: () = assert!(airmail::MAX_WINDOW == rlp::MAX_WINDOW);

impl Circuit {
    /// A circuit with `cfg` (which must validate).
    pub fn new(mut cfg: CircuitConfig) -> Circuit {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        let slot_ns = cfg.slot_ns();
        if let Some(a) = cfg.airmail.as_mut() {
            a.arq.status_period_ns = u64::from(a.status_period_slots) * slot_ns;
            a.arq.fec_cfg.frame_bytes = cfg.frame_bytes - cfg.header_bytes - 2 * a.arq.fec_cfg.byte_t;
        }
        let in_flight = (cfg.delay_ns / slot_ns) as usize + 2;
        let window = cfg.window_frames();
        let station = |s: usize| {
            let coding = cfg.airmail.map(|a| {
                let fixed = FecLevel::parse(a.arq.fec).expect("a validated configuration");
                Box::new(coding::Coding::new(FecConfig { ..a.arq.fec_cfg }, fixed))
            });
            Station {
                iq: StationQueue::new(cfg.queue_packets),
                link: Side::new(&cfg, s, window),
                wire: VecDeque::with_capacity(in_flight),
                next_slot: 0,
                want_slot: u64::MAX,
                coding,
                error: ErrorModel::none(),
                outage: None,
                stats: CircuitStats::default(),
            }
        };
        Circuit { cfg, slot_ns, stations: [station(0), station(1)], next: Time::NEVER, recovered: Vec::new() }
    }

    /// Give station `s` an error model for the frames it sends.
    pub fn with_error_model(mut self, s: StationId, error: ErrorModel) -> Circuit {
        self.stations[usize::from(s)].error = error;
        self
    }

    /// AIRMAIL: station `s`'s frames cross a channel whose byte errors
    /// fall independently with `pb` (see `circuit/coding.rs`); its byte
    /// code's repairs draw from `stream`. Nothing for RLP.
    pub fn with_fec_channel(mut self, s: StationId, pb: f64, stream: RngStream) -> Circuit {
        let n = self.cfg.frame_bytes;
        if let Some(c) = self.stations[usize::from(s)].coding.as_mut() {
            c.set_channel(n, pb, stream);
        }
        self
    }

    /// Serve both stations' queues with the discipline `cfg`; station `s`
    /// draws from `stream(s)` if the discipline draws.
    pub fn with_queue_discipline(mut self, cfg: &QueueConfig, mut stream: impl FnMut(usize) -> RngStream) -> Circuit {
        let c = self.cfg;
        let per_frame = self.slot_ns;
        for (s, st) in self.stations.iter_mut().enumerate() {
            st.iq.serve_with(c.queue_packets, cfg, |bytes| u64::from(c.frames_for(bytes)) * per_frame, || stream(s));
        }
        self
    }

    pub fn config(&self) -> &CircuitConfig {
        &self.cfg
    }

    /// One slot, in ns.
    pub fn slot_ns(&self) -> u64 {
        self.slot_ns
    }

    pub fn stations(&self) -> usize {
        2
    }

    pub fn stats(&self, s: StationId) -> &CircuitStats {
        &self.stations[usize::from(s)].stats
    }

    /// RLP's sender counters at station `s` (default: AIRMAIL's circuit).
    pub fn rlp_stats(&self, s: StationId) -> rlp::SenderStats {
        self.stations[usize::from(s)].link.tx.rlp_stats().unwrap_or_default()
    }

    /// AIRMAIL's counters at station `s` (`None`: an RLP circuit).
    pub fn airmail_stats(&self, s: StationId) -> Option<AirmailStats> {
        let st = &self.stations[usize::from(s)];
        let (tx, rx, c) = (st.link.tx.airmail_stats()?, st.link.rx.airmail_stats()?, st.coding.as_ref()?);
        Some(AirmailStats {
            status_block: rx.block_statuses,
            status_poll: rx.poll_statuses,
            status_timer: rx.timer_statuses,
            polls: tx.polls,
            poll_resends: tx.poll_resends,
            fec_changes: u64::from(c.adapter.changes()),
            coding: c.stats,
        })
    }

    /// The FEC level station `s` codes at now (`None`: an RLP circuit).
    pub fn fec_level(&self, s: StationId) -> Option<FecLevel> {
        self.stations[usize::from(s)].coding.as_ref().map(|c| c.level())
    }

    /// Packets the MAC holds.
    pub fn in_flight(&self) -> usize {
        self.stations.iter().map(|st| st.iq.len() + st.link.packets.len()).sum()
    }

    /// A packet queued at `s` for the other station at `now`, as a link
    /// direction's queue takes it. Nothing goes at once: frames wait for
    /// their slot, so `_out` stays untouched.
    // Never inlined (nor `on_timer`): the other members' arms of
    // `Mac`'s dispatch, inlined into the world's hot path, stay as they were.
    #[must_use]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub fn enqueue(
        &mut self,
        now: Time,
        s: StationId,
        to: StationId,
        frame: Waiting,
        pool: &mut PacketPool,
        removed: &mut Vec<Removal>,
        _out: &mut Vec<MacOutput>,
    ) -> Admission {
        debug_assert!(s < 2 && to == 1 - s, "a circuit joins two stations");
        let st = &mut self.stations[usize::from(s)];
        st.stats.enqueued += 1;
        let sending = !st.link.packets.is_empty();
        let drops = (&mut st.stats.drops_queue, &mut st.stats.drops_filtered);
        let a = st.iq.offer(now, frame, to, sending, pool, removed, drops);
        if a.queued() {
            self.plan(now);
        }
        a
    }

    /// Station `s`'s direction goes down at `now` with `outage`'s semantics,
    /// or comes up (`None`); see the module docs. A flush's packets are
    /// listed in `removed` (cause `outage`), the caller's to free.
    #[cold]
    #[inline(never)]
    pub fn set_outage(&mut self, now: Time, s: StationId, outage: Option<Outage>, removed: &mut Vec<Removal>) {
        let st = &mut self.stations[usize::from(s)];
        if matches!(outage, Some(Outage::Flush | Outage::Hold)) {
            for w in st.wire.iter_mut() {
                w.corrupted = true;
            }
        }
        if outage == Some(Outage::Flush) {
            while let Some((_, w)) = st.iq.pop(now) {
                removed.push(Removal { pkt: w.pkt, cause: DropCause::Outage });
            }
        }
        st.outage = outage;
        self.plan(now);
    }

    /// Bytes of the packets station `s` holds: queued, and in its window.
    pub fn held_bytes(&self, s: StationId) -> u64 {
        let st = &self.stations[usize::from(s)];
        st.iq.bytes() + st.link.bytes()
    }

    /// A handoff with state transfer takes the circuit's link-layer state
    /// at `now` ([`LinkState`]): its stations are left as new ones (the
    /// member's sides fresh, nothing held), the frames on the way are
    /// gone with the cell, and the queues' packets are listed in `queued`
    /// (station, packet), in order, the caller's. Its error models, FEC,
    /// outage and [`CircuitStats`] stay (they are the cell's); the member's
    /// own counters ([`Circuit::airmail_stats`]' statuses and polls, RLP's
    /// sender counters) are the link's and go with its state.
    #[cold]
    pub fn take_link_state(&mut self, now: Time, queued: &mut Vec<(StationId, Waiting)>) -> Box<LinkState> {
        let (cfg, window) = (self.cfg, self.cfg.window_frames());
        let sides = [0, 1].map(|s| {
            let st = &mut self.stations[s];
            while let Some((_, w)) = st.iq.pop(now) {
                queued.push((s as StationId, w));
            }
            st.wire.clear();
            std::mem::replace(&mut st.link, Side::new(&cfg, s, window))
        });
        self.plan(now);
        Box::new(LinkState { sides })
    }

    /// Install `state`, taken from a circuit of the same configuration, at
    /// `now`: this circuit's stations, which hold nothing, carry on from it
    /// (its senders' timers as they were: a deadline passed while the
    /// state travelled runs at once).
    #[cold]
    pub fn install_link_state(&mut self, now: Time, state: Box<LinkState>) {
        for (st, side) in self.stations.iter_mut().zip(state.sides) {
            debug_assert!(
                st.link.packets.is_empty() && st.iq.len() == 0,
                "a station taking a link's state holds nothing"
            );
            st.link = side;
        }
        self.plan(now);
    }

    /// When the circuit next needs [`Circuit::on_timer`].
    pub fn poll_at(&self) -> Time {
        self.next
    }

    /// Run every internal event due at or before `now`, each at its own time.
    #[inline(never)]
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<MacOutput>) {
        while self.next <= now {
            let t = self.next;
            for s in 0..2 {
                while self.stations[s].wire.front().is_some_and(|w| w.arrive == t) {
                    let w = self.stations[s].wire.pop_front().expect("a frame arrives");
                    self.arrive(t, s, w, out);
                }
            }
            for s in 0..2 {
                if self.stations[s].link.tx.deadline().is_some_and(|d| d <= t) {
                    self.stall(t, s, out);
                }
            }
            for st in &mut self.stations {
                if st.link.rx.gap_deadline().is_some_and(|d| d <= t) {
                    st.link.rx.on_gap_timer(t);
                    st.link.pending_status = true;
                }
            }
            for s in 0..2 {
                if self.stations[s].want_slot != u64::MAX && self.slot_start(self.stations[s].want_slot) == t {
                    let k = self.stations[s].want_slot;
                    self.send_slot(t, s, k, out);
                }
            }
            self.plan(t);
        }
    }

    #[inline]
    fn slot_start(&self, k: u64) -> Time {
        Time(k.saturating_mul(self.slot_ns))
    }

    /// Whether station `s` sends the periodic status (RLP: both; AIRMAIL:
    /// the base station).
    #[inline]
    fn periodic(&self, s: usize) -> bool {
        self.stations[s].link.tx.role().is_none_or(|r| r == Role::Bs)
    }

    #[inline]
    fn is_status_slot(&self, s: usize, k: u64) -> bool {
        let p = u64::from(self.cfg.status_period());
        self.periodic(s) && k % p == p - 1
    }

    /// Whether station `s`'s sender has frames in its window.
    #[inline]
    fn window_open(st: &Station) -> bool {
        st.link.tx.floor() < st.link.offered
    }

    /// Whether station `s` has data (or parity) for a slot at `now`.
    fn has_data(&self, now: Time, s: usize) -> bool {
        let st = &self.stations[s];
        st.link.tx.next(now).is_some()
            || (st.link.tx.has_room() && (Self::unoffered(st) || st.iq.len() > 0))
            || st.coding.as_ref().is_some_and(|c| c.wants_parity())
    }

    fn unoffered(st: &Station) -> bool {
        st.link.packets.back().is_some_and(|p| p.offered < p.parts)
    }

    /// Recompute each direction's wanted slot and the next event.
    fn plan(&mut self, now: Time) {
        let k_now = now.0.div_ceil(self.slot_ns);
        let mut next = Time::NEVER;
        let p = u64::from(self.cfg.status_period());
        for s in 0..2 {
            if self.stations[s].outage == Some(Outage::Hold) {
                // Held down: no slot until it comes up (module docs).
                self.stations[s].want_slot = u64::MAX;
                Self::deadlines(&self.stations[s], now, &mut next);
                continue;
            }
            let k0 = self.stations[s].next_slot.max(k_now);
            let periodic = self.periodic(s);
            let status =
                if periodic { Self::window_open(&self.stations[1 - s]) } else { self.stations[s].link.pending_status };
            let data = self.has_data(now, s);
            // The first status slot at or after k0, and the first other one
            // (a station without periodic status: any slot).
            let (k_status, k_data) = if periodic {
                (k0 + (p - 1 - k0 % p), if self.is_status_slot(s, k0) { k0 + 1 } else { k0 })
            } else {
                (k0, k0)
            };
            let k = match (status, data) {
                (true, true) => k_status.min(k_data),
                (true, false) => k_status,
                (false, true) => k_data,
                (false, false) => u64::MAX,
            };
            self.stations[s].want_slot = k;
            if k != u64::MAX {
                next = next.min(self.slot_start(k));
            }
            Self::deadlines(&self.stations[s], now, &mut next);
        }
        self.next = next;
    }

    /// Lower `next` to station `st`'s next arrival and timer deadlines.
    #[inline]
    fn deadlines(st: &Station, now: Time, next: &mut Time) {
        if let Some(w) = st.wire.front() {
            *next = (*next).min(w.arrive);
        }
        if let Some(d) = st.link.tx.deadline() {
            *next = (*next).min(d.max(now));
        }
        if let Some(d) = st.link.rx.gap_deadline() {
            *next = (*next).min(d.max(now));
        }
    }

    /// Offer the station's frames to the member while its window has room.
    fn refill(&mut self, now: Time, s: usize) {
        let st = &mut self.stations[s];
        while st.link.tx.has_room() {
            if !Self::unoffered(st) {
                let Some((_, w)) = st.iq.pop(now) else { break };
                let level = st.coding.as_ref().map_or(FecLevel::None, |c| c.level());
                let parts = w.size_bytes.div_ceil(self.cfg.payload_at(level)).max(1);
                let id = st.link.next_id;
                st.link.next_id += 1;
                st.link.packets.push_back(Outgoing {
                    id,
                    w,
                    parts,
                    offered: 0,
                    received: 0,
                    transmitted: false,
                    level,
                });
            }
            let p = st.link.packets.back_mut().expect("a packet being segmented");
            let piece = Piece { id: p.id, part: p.offered, level: p.level };
            p.offered += 1;
            let seq = st.link.tx.offer(now, piece);
            st.link.offered = seq + 1;
        }
    }

    /// Whether a frame station `s` sends now (`data`'s, or a control
    /// frame's), coded at `level`, is lost: the error model's verdict, and
    /// AIRMAIL's byte code's repair; or its direction's outage.
    #[inline]
    fn lost(st: &mut Station, now: Time, slot_ns: u64, data: Option<&Waiting>, size: u32, level: FecLevel) -> bool {
        let raw = medium::corrupts(&mut st.error, now, slot_ns, data, size);
        if st.outage.is_some() {
            return true;
        }
        match st.coding.as_mut() {
            None => raw,
            Some(c) => c.outcome(raw, level),
        }
    }

    fn send_slot(&mut self, now: Time, s: usize, k: u64, out: &mut Vec<MacOutput>) {
        let arrive = now.plus_ns(self.slot_ns + self.cfg.delay_ns);
        let size = self.cfg.frame_bytes;
        let slot_ns = self.slot_ns;
        self.stations[s].next_slot = k + 1;
        if self.is_status_slot(s, k) {
            if !Self::window_open(&self.stations[1 - s]) {
                return;
            }
            let st = &mut self.stations[s];
            let status = st.link.rx.periodic_status(now);
            self.status_frame(now, s, arrive, status);
            return;
        }
        if std::mem::take(&mut self.stations[s].link.pending_status) {
            let status = self.stations[s].link.rx.status();
            self.status_frame(now, s, arrive, status);
            return;
        }
        if self.stations[s].coding.as_ref().is_some_and(|c| c.block.parity_left > 0) {
            self.parity_frame(now, s, arrive);
            return;
        }
        self.refill(now, s);
        let rlp = self.cfg.rlp;
        let st = &mut self.stations[s];
        let Some(send) = st.link.tx.next(now) else {
            if st.coding.as_ref().is_some_and(|c| c.wants_parity()) {
                self.parity_frame(now, s, arrive);
            }
            return;
        };
        let header = st.link.tx.on_transmit(now, send.seq);
        let partial = st.link.rx.partial_status(&rlp);
        let piece = send.frame;
        let held = Self::find(&st.link.packets, piece.id);
        let data = held.map(|i| st.link.packets[i].w);
        let corrupted = Self::lost(st, now, slot_ns, data.as_ref(), size, piece.level);
        st.stats.frames_sent += 1;
        st.stats.frame_retransmissions += u64::from(send.retransmission);
        if let Some(i) = held {
            let p = &mut st.link.packets[i];
            if !p.transmitted && piece.part == 0 && !send.retransmission {
                p.transmitted = true;
                out.push(MacOutput::Transmit {
                    station: s as StationId,
                    to: (1 - s) as StationId,
                    frame: p.w,
                    retransmission: false,
                    held: true,
                });
            }
        }
        let frame = WireFrame::Data { seq: send.seq, piece, header, partial };
        if let Some(c) = st.coding.as_mut() {
            c.on_data(piece.level, corrupted, frame);
        }
        st.wire.push_back(Wire { arrive, corrupted, frame });
    }

    /// A status frame from station `s`.
    fn status_frame(&mut self, now: Time, s: usize, arrive: Time, status: Status) {
        let (size, slot_ns) = (self.cfg.frame_bytes, self.slot_ns);
        let st = &mut self.stations[s];
        let level = st.coding.as_ref().map_or(FecLevel::None, |c| c.level());
        let corrupted = Self::lost(st, now, slot_ns, None, size, level);
        st.stats.status_frames += 1;
        st.wire.push_back(Wire { arrive, corrupted, frame: WireFrame::Status(status) });
    }

    /// A parity frame of station `s`'s open block (AIRMAIL, packet level);
    /// its last one brings the block's recovered frames with it.
    fn parity_frame(&mut self, now: Time, s: usize, arrive: Time) {
        let (size, slot_ns) = (self.cfg.frame_bytes, self.slot_ns);
        let st = &mut self.stations[s];
        let lost = Self::lost(st, now, slot_ns, None, size, FecLevel::Packet);
        let c = st.coding.as_mut().expect("parity comes with AIRMAIL's code");
        c.on_parity(lost, &mut self.recovered);
        for frame in self.recovered.drain(..) {
            st.wire.push_back(Wire { arrive, corrupted: false, frame });
        }
    }

    #[inline]
    fn find(packets: &VecDeque<Outgoing>, id: u64) -> Option<usize> {
        packets.binary_search_by_key(&id, |p| p.id).ok()
    }

    /// A frame station `from` sent reaches the other station.
    fn arrive(&mut self, now: Time, from: usize, w: Wire, out: &mut Vec<MacOutput>) {
        let to = 1 - from;
        if w.corrupted {
            self.stations[to].stats.frames_corrupted += 1;
            return;
        }
        match w.frame {
            WireFrame::Status(st) => self.on_status(now, to, st, out),
            WireFrame::Data { seq, piece, header, partial } => {
                let rx = &mut self.stations[to];
                let got = rx.link.rx.on_frame(now, seq, header);
                if got.deliver {
                    rx.link.held[seq as usize % HELD] = Some((seq, piece));
                }
                rx.link.pending_status |= got.status_now;
                while let Some(up) = self.stations[to].link.rx.pop_up() {
                    let slot = &mut self.stations[to].link.held[up as usize % HELD];
                    let (sq, piece) = slot.take().expect("a frame handed up was kept");
                    debug_assert_eq!(sq, up);
                    self.hand_up(now, from, up, piece, out);
                }
                if let Some(st) = partial {
                    self.on_status(now, to, st, out);
                }
            }
        }
    }

    /// Frame `seq` (`piece`) of station `from`'s is handed up at the other.
    fn hand_up(&mut self, now: Time, from: usize, seq: Seq, piece: Piece, out: &mut Vec<MacOutput>) {
        let st = &mut self.stations[from];
        st.link.tx.on_delivered(seq);
        let Some(i) = Self::find(&st.link.packets, piece.id) else { return };
        let p = &mut st.link.packets[i];
        p.received += 1;
        if p.received == p.parts {
            let p = st.link.packets.remove(i).expect("found");
            st.stats.packets_delivered += 1;
            if st.link.packets.is_empty() && st.iq.len() == 0 {
                st.iq.idle_since = now;
            }
            out.push(MacOutput::Deliver { station: (1 - from) as StationId, from: from as StationId, frame: p.w });
        }
    }

    /// A status reaches station `s`, for its sender.
    fn on_status(&mut self, now: Time, s: usize, status: Status, out: &mut Vec<MacOutput>) {
        self.stations[s].link.tx.on_status(now, status);
        while let Some((_, piece)) = self.stations[s].link.tx.pop_dropped() {
            self.drop_packet(now, s, piece.id, out);
        }
    }

    fn stall(&mut self, now: Time, s: usize, out: &mut Vec<MacOutput>) {
        match self.stations[s].link.tx.on_timeout(now) {
            Expiry::Resend | Expiry::GaveUpDelivered { .. } => {}
            Expiry::Drop { frame, .. } => self.drop_packet(now, s, frame.id, out),
        }
    }

    fn drop_packet(&mut self, now: Time, s: usize, id: u64, out: &mut Vec<MacOutput>) {
        let st = &mut self.stations[s];
        let Some(i) = Self::find(&st.link.packets, id) else { return };
        let p = st.link.packets.remove(i).expect("found");
        st.stats.packets_dropped += 1;
        if st.link.packets.is_empty() && st.iq.len() == 0 {
            st.iq.idle_since = now;
        }
        out.push(MacOutput::Drop { station: s as StationId, frame: p.w, cause: MacDropCause::RetryLimit });
    }
}

#[cfg(test)]
mod tests;
