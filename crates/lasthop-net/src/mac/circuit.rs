//! A circuit-mode point-to-point hop whose frames are carried with RLP
//! ([`crate::arq::rlp`]): the TDMA data service of Nanda, Ejzak and Doshi
//! (IEEE JSAC 12(8), 1994), as the close reading `elaarag-002.md` Sec. 1.5
//! spells it out: "a fixed frame slot per frame time", an in-order
//! channel, "in-order delivery of IP packets reassembled from frames".
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
//! then 1), slots (direction 0, then 1).

use super::medium;
use super::station_queue::StationQueue;
use super::{MacDropCause, MacOutput, StationId};
use crate::arq::rlp::{Form, Header, Receiver, RlpConfig, Sender, Status};
use crate::arq::{ArqReceiver, ArqSender, Expiry, Seq};
use crate::error::ErrorModel;
use crate::queue::{Admission, QueueConfig, Removal, Waiting};
use lasthop_core::rng::RngStream;
use lasthop_core::{PacketPool, Time};
use std::collections::VecDeque;

/// The circuit's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CircuitConfig {
    /// The circuit's rate per direction, in bit/s.
    pub bandwidth_bps: u64,
    /// One-way propagation, in ns.
    pub delay_ns: u64,
    /// A frame on the wire, header included, in bytes (\[I\] 64, the
    /// reading's default).
    pub frame_bytes: u32,
    /// RLP's header in a frame, in bytes (\[I\] 4).
    pub header_bytes: u32,
    /// Each station's queue limit, in packets.
    pub queue_packets: u32,
    /// RLP's parameters.
    pub rlp: RlpConfig,
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
        }
    }
}

impl CircuitConfig {
    /// The first invalid field and why, if any (RLP's own checks first).
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        self.rlp.validate()?;
        if self.rlp.feedback_period_slots < 2 {
            return Err(("feedback_period_slots", "must be at least 2 (a status every slot leaves none for data)"));
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

    /// Payload bytes per frame.
    pub fn payload_bytes(&self) -> u32 {
        self.frame_bytes - self.header_bytes
    }

    /// Frames a packet of `bytes` takes (at least one).
    pub fn frames_for(&self, bytes: u32) -> u32 {
        bytes.div_ceil(self.payload_bytes()).max(1)
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

/// A frame of a packet: what RLP carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    /// The packet's number at its station (counting from 0).
    id: u64,
    part: u32,
}

/// A packet being segmented, sent and reassembled.
#[derive(Clone, Copy, Debug)]
struct Outgoing {
    id: u64,
    w: Waiting,
    parts: u32,
    /// Frames offered to RLP.
    offered: u32,
    /// Frames handed up at the far station.
    received: u32,
    transmitted: bool,
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
    packets: VecDeque<Outgoing>,
    next_id: u64,
    tx: Sender<Piece>,
    /// The next frame number RLP will give (frames offered so far).
    offered: Seq,
    rx: Receiver,
    /// Frames received and not yet handed up, by `seq % 64`.
    held: Vec<Option<(Seq, Piece)>>,
    /// Frames this station sent, on the way to the other.
    wire: VecDeque<Wire>,
    /// The first slot of its direction not yet used.
    next_slot: u64,
    /// The next slot its direction needs (`u64::MAX`: none).
    want_slot: u64,
    error: ErrorModel,
    stats: CircuitStats,
}

/// The circuit and its two stations.
#[derive(Clone, Debug)]
pub struct Circuit {
    cfg: CircuitConfig,
    slot_ns: u64,
    stations: [Station; 2],
    next: Time,
}

const HELD: usize = crate::arq::rlp::MAX_WINDOW as usize;

impl Circuit {
    /// A circuit with `cfg` (which must validate).
    pub fn new(cfg: CircuitConfig) -> Circuit {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        let slot_ns = cfg.slot_ns();
        let in_flight = (cfg.delay_ns / slot_ns) as usize + 2;
        let station = || Station {
            iq: StationQueue::new(cfg.queue_packets),
            packets: VecDeque::with_capacity(cfg.rlp.window_frames as usize + 1),
            next_id: 0,
            tx: Sender::new(cfg.rlp),
            offered: 0,
            rx: Receiver::new(&cfg.rlp),
            held: vec![None; HELD],
            wire: VecDeque::with_capacity(in_flight),
            next_slot: 0,
            want_slot: u64::MAX,
            error: ErrorModel::none(),
            stats: CircuitStats::default(),
        };
        Circuit { cfg, slot_ns, stations: [station(), station()], next: Time::NEVER }
    }

    /// Give station `s` an error model for the frames it sends.
    pub fn with_error_model(mut self, s: StationId, error: ErrorModel) -> Circuit {
        self.stations[usize::from(s)].error = error;
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

    /// RLP's sender counters at station `s`.
    pub fn rlp_stats(&self, s: StationId) -> crate::arq::rlp::SenderStats {
        self.stations[usize::from(s)].tx.stats()
    }

    /// Packets the MAC holds.
    pub fn in_flight(&self) -> usize {
        self.stations.iter().map(|st| st.iq.len() + st.packets.len()).sum()
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
        let sending = !st.packets.is_empty();
        let drops = (&mut st.stats.drops_queue, &mut st.stats.drops_filtered);
        let a = st.iq.offer(now, frame, to, sending, pool, removed, drops);
        if a.queued() {
            self.plan(now);
        }
        a
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
                if self.stations[s].tx.deadline().is_some_and(|d| d <= t) {
                    self.stall(t, s, out);
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

    #[inline]
    fn is_status_slot(&self, k: u64) -> bool {
        let p = u64::from(self.cfg.rlp.feedback_period_slots);
        k % p == p - 1
    }

    /// Whether station `s`'s sender has frames in its window.
    #[inline]
    fn window_open(st: &Station) -> bool {
        st.tx.floor() < st.offered
    }

    /// Whether station `s` has data for a slot at `now`.
    fn has_data(&self, now: Time, s: usize) -> bool {
        let st = &self.stations[s];
        st.tx.next(now).is_some() || (st.tx.has_room() && (Self::unoffered(st) || st.iq.len() > 0))
    }

    fn unoffered(st: &Station) -> bool {
        st.packets.back().is_some_and(|p| p.offered < p.parts)
    }

    /// Recompute each direction's wanted slot and the next event.
    fn plan(&mut self, now: Time) {
        let k_now = now.0.div_ceil(self.slot_ns);
        let mut next = Time::NEVER;
        for s in 0..2 {
            let k0 = self.stations[s].next_slot.max(k_now);
            let status = Self::window_open(&self.stations[1 - s]);
            let data = self.has_data(now, s);
            let p = u64::from(self.cfg.rlp.feedback_period_slots);
            // The first status slot at or after k0, and the first other one.
            let k_status = k0 + (p - 1 - k0 % p);
            let k_data = if self.is_status_slot(k0) { k0 + 1 } else { k0 };
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
            if let Some(w) = self.stations[s].wire.front() {
                next = next.min(w.arrive);
            }
            if let Some(d) = self.stations[s].tx.deadline() {
                next = next.min(d.max(now));
            }
        }
        self.next = next;
    }

    /// Offer the station's frames to RLP while its window has room.
    fn refill(&mut self, now: Time, s: usize) {
        let st = &mut self.stations[s];
        while st.tx.has_room() {
            if !Self::unoffered(st) {
                let Some((_, w)) = st.iq.pop(now) else { break };
                let parts = self.cfg.frames_for(w.size_bytes);
                let id = st.next_id;
                st.next_id += 1;
                st.packets.push_back(Outgoing { id, w, parts, offered: 0, received: 0, transmitted: false });
            }
            let p = st.packets.back_mut().expect("a packet being segmented");
            let piece = Piece { id: p.id, part: p.offered };
            p.offered += 1;
            let seq = st.tx.offer(now, piece);
            st.offered = seq + 1;
        }
    }

    fn send_slot(&mut self, now: Time, s: usize, k: u64, out: &mut Vec<MacOutput>) {
        let arrive = now.plus_ns(self.slot_ns + self.cfg.delay_ns);
        let size = self.cfg.frame_bytes;
        let slot_ns = self.slot_ns;
        self.stations[s].next_slot = k + 1;
        if self.is_status_slot(k) {
            if !Self::window_open(&self.stations[1 - s]) {
                return;
            }
            let st = &mut self.stations[s];
            let status = st.rx.status();
            let corrupted = medium::corrupts(&mut st.error, now, slot_ns, None, size);
            st.stats.status_frames += 1;
            st.wire.push_back(Wire { arrive, corrupted, frame: WireFrame::Status(status) });
            return;
        }
        self.refill(now, s);
        let enhanced = self.cfg.rlp.form == Form::Enhanced;
        let bits = self.cfg.rlp.partial_bits;
        let st = &mut self.stations[s];
        let Some(send) = st.tx.next(now) else { return };
        let header = st.tx.on_transmit(now, send.seq);
        let partial = enhanced.then(|| st.rx.partial_status(bits));
        let piece = send.frame;
        let held = Self::find(&st.packets, piece.id);
        let data = held.map(|i| st.packets[i].w);
        let corrupted = medium::corrupts(&mut st.error, now, slot_ns, data.as_ref(), size);
        st.stats.frames_sent += 1;
        st.stats.frame_retransmissions += u64::from(send.retransmission);
        if let Some(i) = held {
            let p = &mut st.packets[i];
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
        st.wire.push_back(Wire { arrive, corrupted, frame: WireFrame::Data { seq: send.seq, piece, header, partial } });
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
                let receipt = rx.rx.on_frame(now, seq, header);
                if receipt.deliver {
                    rx.held[seq as usize % HELD] = Some((seq, piece));
                }
                while let Some(up) = self.stations[to].rx.pop_up() {
                    let slot = &mut self.stations[to].held[up as usize % HELD];
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
        st.tx.on_delivered(seq);
        let Some(i) = Self::find(&st.packets, piece.id) else { return };
        let p = &mut st.packets[i];
        p.received += 1;
        if p.received == p.parts {
            let p = st.packets.remove(i).expect("found");
            st.stats.packets_delivered += 1;
            if st.packets.is_empty() && st.iq.len() == 0 {
                st.iq.idle_since = now;
            }
            out.push(MacOutput::Deliver { station: (1 - from) as StationId, from: from as StationId, frame: p.w });
        }
    }

    /// A status reaches station `s`, for its sender.
    fn on_status(&mut self, now: Time, s: usize, status: Status, out: &mut Vec<MacOutput>) {
        self.stations[s].tx.on_ack(now, status);
        while let Some((_, piece)) = self.stations[s].tx.pop_dropped() {
            self.drop_packet(now, s, piece.id, out);
        }
    }

    fn stall(&mut self, now: Time, s: usize, out: &mut Vec<MacOutput>) {
        match self.stations[s].tx.on_timeout(now) {
            Expiry::Resend | Expiry::GaveUpDelivered { .. } => {}
            Expiry::Drop { frame, .. } => self.drop_packet(now, s, frame.id, out),
        }
    }

    fn drop_packet(&mut self, now: Time, s: usize, id: u64, out: &mut Vec<MacOutput>) {
        let st = &mut self.stations[s];
        let Some(i) = Self::find(&st.packets, id) else { return };
        let p = st.packets.remove(i).expect("found");
        st.stats.packets_dropped += 1;
        if st.packets.is_empty() && st.iq.len() == 0 {
            st.iq.idle_since = now;
        }
        out.push(MacOutput::Drop { station: s as StationId, frame: p.w, cause: MacDropCause::RetryLimit });
    }
}

#[cfg(test)]
mod tests;
