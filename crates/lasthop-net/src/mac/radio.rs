//! The half-duplex packet radio of seed 001 Sec. 5 (Metricom Ricochet, as
//! ns-2.35's `Mac/Multihop` models it), with the paper's stop-and-wait
//! link layer.
//!
//! Radios (stations) share one channel; any radio may address any other (the
//! world's routes pick the next hop, so in a chain of radios between a
//! mobile host and a gateway a relay has an upstream and a downstream peer,
//! and competing flows share relays). Frequency hopping is not modelled
//! (Sec. 5: "the predominant reason for variability is the MAC"): frames of
//! different pairs never collide; radios meet only through their own
//! transceivers.
//!
//! A radio is half duplex (Sec. 5, "radio units cannot simultaneously
//! transmit and receive"): it is in receive mode or transmit mode, and a
//! change of mode takes a turnaround time, `tx_rx_ns` (T_TR) one way and
//! `rx_tx_ns` (T_RT) the other. A frame reaching a radio that is not in
//! receive mode (transmitting, or turning) is lost to it; so is a frame that
//! starts arriving while the radio is already receiving another (the first
//! is kept: capture). A radio never starts turning to transmit while it is
//! receiving.
//!
//! MAC (Sec. 5, ns-2 `mac-multihop.cc`): before every data frame the
//! initiator polls its peer with an RTS. The peer answers with a CTS only if
//! it is idle (not in a conversation with another station: not waiting for
//! a CTS, a data frame or a link ack, and owing no reply); a busy peer is
//! silent (ns-2 sends no NACK; the paper's NACK-CTS "achieves the same
//! effect", ambiguity 21). The initiator's poll times out after
//! `max(peer T_RT, own T_TR) + 4 · RTS transmission time` from the RTS's
//! start \[N\] (plus two propagation delays \[R\], which ns-2 does not have);
//! it then backs off: the backoff doubles (from `backoff_base_ns`, reset to
//! the base by every CTS) and the wait is `(1 + U[0,1)) · backoff + 2 ·
//! backoff_base` \[N\], after which it polls again. With the defaults the
//! first wait is in [80, 120) ms, the second in [120, 200) ms.
//!
//! Link layer (Sec. 5): "a simple frame-by-frame protocol" with window 1:
//! the receiver acknowledges every data frame, the sender retransmits on a
//! timeout (after a new RTS/CTS exchange). A one-bit sequence number per
//! (sender, receiver) pair lets the receiver acknowledge a retransmitted
//! frame without handing it up twice. The protocol is
//! [`crate::arq::stop_and_wait`], one sender and one receiver per pair,
//! driven through the ARQ family's interface; the radio decides when a
//! frame or an ack goes, and its reply timeout is the ARQ's timer. As the paper's simulations assume
//! (Sec. 7.2, ambiguity 22), a link ack is piggybacked on a data frame going
//! the other way when the receiver has one for the sender that is not
//! awaiting its own ack (its current frame, still polling or backing off or
//! due a link retransmission, else its queue head). That frame is polled
//! for first, as every data frame is (Sec. 5's MAC: "the initiator sends an
//! RTS"; AS-44): the radio polls at once, any backoff cut short, and the
//! peer, waiting for the ack and so in a conversation with this radio and
//! no other, answers and waits for the frame; piggybacking saves the bare
//! ack. `poll_before_piggyback = false` is the reading lasthop used first:
//! the frame goes without a poll (its peer is listening for the reply) and
//! saves the bare ack, the RTS/CTS and their turnarounds. Otherwise the ack
//! goes alone. A link ack for the frame a radio holds completes it even
//! after the wait for it timed out (the radio polling or backing off to
//! send it again).
//!
//! Every mode change is paid: a radio rests in receive mode, so sending
//! anything costs T_RT first and T_TR after, unless the radio sends again
//! at once (a bare link ack followed by an RTS). A reply (CTS, data after a
//! CTS, link ack) also waits until its peer has turned to receive ("each
//! station maintains the turnaround times of its neighbours", Sec. 5); with
//! the defaults T_TR < T_RT and that never adds delay. One data exchange on
//! an idle hop with the defaults: T_RT, RTS 3.2 ms, T_RT, CTS 3.2 ms, T_RT,
//! data (1000 B + 16 B header: 81.28 ms), T_RT, link ack 3.2 ms: 143.68 ms.
//!
//! Timeouts waiting for a CTS, a data frame after a CTS, or a link ack are
//! extended while the radio is receiving a frame from the awaited peer (it
//! hears the reply coming), so a piggybacked data frame longer than the
//! timeout is not mistaken for a lost ack.
//!
//! Departures from ns-2 (which is the only source of the paper's lost
//! numbers, Table T5): ns-2 charges `max(tx_rx, rx_tx)` once per poll and
//! no turnaround before a poll or a data frame, and has no link ARQ at all
//! (asymmetry-001.md Sec. 1.18); we charge each mode change as the paper
//! describes it. ns-2's `delay_` (10 ms) is applied, as there, between the
//! end of a data frame's reception and its hand-up (it does not hold the
//! radio); propagation on the air is separate and defaults to 0 \[R\]. A
//! link ARQ that gives up ([`RadioConfig::retry_limit`], unlimited by
//! default as in the paper's "retransmits on timeout") on a frame its peer
//! did receive resynchronises the pair's sequence bit, standing in for the
//! link reset a real protocol would need. Polls are retried without limit,
//! as in ns-2.
//!
//! Internal events at the same instant run in this order: hand-ups, then
//! receptions ending (so a CTS ending exactly at a poll deadline counts),
//! then station timers (transmissions starting or ending, deadlines,
//! backoffs ending), then receptions starting; ties by station index or by
//! the order frames went on the air. Each step scans the stations and the
//! frames on the air: a medium has a handful of radios.

use super::medium::{self, Earliest, Events, Item, OnAir};
use super::station_queue::StationQueue;
use super::{MacDropCause, MacOutput, StationId};
use crate::arq::stop_and_wait::{Receiver, Sender};
use crate::arq::{ArqReceiver, ArqSender, Expiry, Seq};
use crate::error::ErrorModel;
use crate::queue::{Admission, QueueConfig, QueueLimit, Removal, Waiting};
use lasthop_core::rng::RngStream;
use lasthop_core::time::{NS_PER_MS, NS_PER_S, NS_PER_US};
use lasthop_core::trace::DropCause;
use lasthop_core::{PacketPool, Time};
use std::collections::VecDeque;

pub use super::medium::{AirRecord, FrameClass, Heard};

/// Parameters of a packet-radio medium (all its radios alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RadioConfig {
    /// Channel rate, in bits per second. \[N\] `Mac/Multihop bandwidth_
    /// 100Kb` (tcl/lan/ns-mac.tcl); seed 001 Sec. 3.1 "maximum link speed
    /// ... \[100\] kbps" (digits lost).
    pub bandwidth_bps: u64,
    /// Time from the end of a data frame's reception to its hand-up, in ns
    /// (the radio is free meanwhile). \[N\] `Mac/Multihop delay_ 10ms`, which
    /// ns-2 applies exactly there; Table T5's "fixed link latency" (lost).
    pub hand_up_latency_ns: u64,
    /// Propagation delay of every frame on the air, in ns. \[R\] 0: radio
    /// hops of a few km take microseconds, and ns-2 has none for polls.
    pub propagation_ns: u64,
    /// Transmit-to-receive turnaround T_TR, in ns. \[N\] `tx_rx_ 11.125ms`.
    pub tx_rx_ns: u64,
    /// Receive-to-transmit turnaround T_RT, in ns. \[N\] `rx_tx_ 13.25ms`.
    pub rx_tx_ns: u64,
    /// Backoff base, in ns. \[N\] `backoffBase_ 20ms`.
    pub backoff_base_ns: u64,
    /// RTS (poll) size, in bytes. \[N\] `MAC_POLLSIZE 40`.
    pub rts_bytes: u32,
    /// CTS (poll ack) size, in bytes. \[N\] `MAC_POLLACKSIZE 40`.
    pub cts_bytes: u32,
    /// Bare link-level ack size, in bytes. \[R\] 40, a control frame like
    /// the poll ack (ns-2 has no link acks).
    pub link_ack_bytes: u32,
    /// MAC header added to every data frame, in bytes. \[N\] `hlen_ 16`. A
    /// piggybacked link ack adds nothing \[R\] (a flag and a bit in it).
    pub mac_header_bytes: u32,
    /// Each radio's queue limit, in packets (drop-tail; the frame being
    /// sent is not counted, as ns-2's interface queue does not count the
    /// packet its MAC holds). \[R\] 10 (asymmetry-001.md suggested defaults).
    pub queue_packets: u32,
    /// Piggyback link acks on data frames going the other way. \[T\] on in
    /// the paper's simulations (Sec. 7.2); real Ricochet releases did not.
    pub piggyback_acks: bool,
    /// A data frame that carries a link ack is polled for first, as every
    /// data frame is: it saves the bare link ack, not the RTS/CTS. \[T\]
    /// Sec. 5's MAC ("the initiator sends an RTS" before a data frame;
    /// piggybacking "saves a turnaround"), and lasthop issue 12 ("RTS/CTS
    /// polling before every data frame"). `false`: the data frame replaces
    /// the link ack and goes without a poll, its peer listening for the
    /// reply (the reading of ambiguity 22 lasthop used first).
    pub poll_before_piggyback: bool,
    /// Link-level retransmissions of a data frame before the ARQ gives up
    /// (`None`: never). \[R\] `None`: the paper's protocol "retransmits on a
    /// timeout" with no limit given, and its simulations have no bit errors.
    pub retry_limit: Option<u32>,
}

impl Default for RadioConfig {
    fn default() -> RadioConfig {
        RadioConfig {
            bandwidth_bps: 100_000,
            hand_up_latency_ns: 10 * NS_PER_MS,
            propagation_ns: 0,
            tx_rx_ns: 11_125 * NS_PER_US,
            rx_tx_ns: 13_250 * NS_PER_US,
            backoff_base_ns: 20 * NS_PER_MS,
            rts_bytes: 40,
            cts_bytes: 40,
            link_ack_bytes: 40,
            mac_header_bytes: 16,
            queue_packets: 10,
            piggyback_acks: true,
            poll_before_piggyback: true,
            retry_limit: None,
        }
    }
}

impl RadioConfig {
    /// The first invalid field and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if self.bandwidth_bps == 0 {
            return Err(("bandwidth_bps", "must be positive"));
        }
        if self.queue_packets == 0 {
            return Err(("queue_packets", "must be at least 1"));
        }
        if self.rts_bytes == 0 || self.cts_bytes == 0 || self.link_ack_bytes == 0 {
            return Err(("rts_bytes", "control frames must have a size"));
        }
        Ok(())
    }

    /// Whether `q` can serve a radio's queue: a radio peeks at its head to
    /// piggyback a link ack, so acks-first (which serves out of order) is
    /// refused; the other disciplines keep the head where it is.
    pub fn validate_queue(&self, q: &QueueConfig) -> Result<(), (String, String)> {
        if q.discipline != crate::queue::Service::Fifo {
            return Err(("discipline".into(), "a radio's queue serves its head in order: only fifo".into()));
        }
        if let Some(aqm) = q.drops_at_dequeue() {
            return Err((
                aqm.into(),
                "drops at dequeue, which a radio's queue does not: point-to-point links only".into(),
            ));
        }
        q.validate(QueueLimit { packets: Some(self.queue_packets), bytes: None })
    }

    /// Time on the air of `bytes`, in ns (rounded up).
    pub fn tx_ns(&self, bytes: u32) -> u64 {
        (u64::from(bytes) * 8 * NS_PER_S).div_ceil(self.bandwidth_bps)
    }

    /// How long to wait for a reply (CTS, data after a CTS, link ack) after
    /// the frame that asks for it: ns-2's poll timeout form \[N\], plus the
    /// round trip on the air \[R\].
    fn reply_timeout_ns(&self) -> u64 {
        2 * self.propagation_ns
            + self.rx_tx_ns.max(self.tx_rx_ns)
            + 4 * self.tx_ns(self.rts_bytes.max(self.cts_bytes).max(self.link_ack_bytes))
    }
}

/// Counters of one radio.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RadioStats {
    /// Frames handed to the radio by the world (refused ones included).
    pub enqueued: u64,
    /// Data frames put on the air (link retransmissions and piggybacking
    /// ones included).
    pub data_frames_sent: u64,
    /// Data frames received intact (duplicates included).
    pub data_frames_received: u64,
    /// Data frames handed up (first copies).
    pub delivered_up: u64,
    /// Retransmitted data frames received again and not handed up.
    pub duplicates_suppressed: u64,
    pub rts_sent: u64,
    pub cts_sent: u64,
    pub cts_received: u64,
    /// RTSs heard while busy with another station, left unanswered.
    pub rts_ignored_busy: u64,
    pub poll_timeouts: u64,
    pub backoffs: u64,
    /// Bare link acks sent.
    pub link_acks_sent: u64,
    /// Link acks sent on a data frame.
    pub link_acks_piggybacked: u64,
    /// Link acks received that completed a frame (bare or piggybacked).
    pub link_acks_received: u64,
    pub link_ack_timeouts: u64,
    pub link_retransmissions: u64,
    /// Frames the ARQ gave up on although the peer had received them.
    pub arq_gave_up_delivered: u64,
    /// Frames addressed to this radio lost because it was transmitting or
    /// turning around when they arrived.
    pub frames_lost_half_duplex: u64,
    /// Frames addressed to this radio lost because it was receiving another.
    pub frames_lost_collision: u64,
    /// Frames addressed to this radio that arrived corrupted.
    pub frames_corrupted: u64,
    /// Time spent changing mode (both ways), in ns.
    pub turnaround_ns: u64,
    /// Time from the start of each RTS to its CTS or its poll timeout, in ns.
    pub rts_cts_ns: u64,
    /// Time spent backing off, in ns.
    pub backoff_ns: u64,
    /// Time on the air (all frames sent), in ns.
    pub airtime_ns: u64,
    /// Arrivals refused by the full queue (or victims in their place).
    pub drops_queue: u64,
    /// Pure acks the queue's ACK filter purged.
    pub drops_filtered: u64,
    /// Frames dropped when the ARQ gave up (never received by the peer).
    pub drops_retry_limit: u64,
}

/// A frame on the air. A data frame carries its link-level sequence
/// number (one bit, [`crate::arq::stop_and_wait`]'s [`Seq`] 0 or 1) and
/// perhaps a link ack; a link ack, the bit of the frame it answers. (A
/// byte each, as a bit in the header: a smaller frame keeps the search for
/// the next event, which reads every radio's transceiver, short.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameKind {
    Rts,
    Cts,
    Data { frame: Waiting, seq: Bit, piggy_ack: Option<Bit>, retransmission: bool },
    LinkAck { ack: Bit },
}

/// A one-bit sequence number in a header.
type Bit = u8;

/// `seq` (0 or 1) as a header bit.
fn bit(seq: Seq) -> Bit {
    debug_assert!(seq < 2, "stop-and-wait numbers frames 0 and 1");
    seq as Bit
}

impl FrameKind {
    fn class(&self) -> FrameClass {
        match self {
            FrameKind::Rts => FrameClass::Rts,
            FrameKind::Cts => FrameClass::Cts,
            FrameKind::Data { piggy_ack: None, .. } => FrameClass::Data,
            FrameKind::Data { .. } => FrameClass::DataAck,
            FrameKind::LinkAck { .. } => FrameClass::Ack,
        }
    }
}

/// The transceiver.
#[derive(Clone, Copy, Debug)]
enum Xcvr {
    /// Receive mode from `ready` on (turning from transmit mode before).
    Rx { ready: Time },
    /// Committed to send `kind` to `to`: turning (or waiting for the peer
    /// to turn) until `start`, on the air from `start` to `end`.
    Tx { to: StationId, kind: FrameKind, start: Time, end: Time, on_air: bool },
}

/// What a radio waits for from a peer, until `deadline`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Awaiting {
    Nothing,
    Cts { peer: StationId, deadline: Time },
    Data { peer: StationId, deadline: Time },
    LinkAck { peer: StationId, deadline: Time },
}

impl Awaiting {
    fn deadline(&self) -> Time {
        match *self {
            Awaiting::Nothing => Time::NEVER,
            Awaiting::Cts { deadline, .. } | Awaiting::Data { deadline, .. } | Awaiting::LinkAck { deadline, .. } => {
                deadline
            }
        }
    }

    fn peer(&self) -> Option<StationId> {
        match *self {
            Awaiting::Nothing => None,
            Awaiting::Cts { peer, .. } | Awaiting::Data { peer, .. } | Awaiting::LinkAck { peer, .. } => Some(peer),
        }
    }

    fn extend_to(&mut self, t: Time) {
        match self {
            Awaiting::Nothing => {}
            Awaiting::Cts { deadline, .. } | Awaiting::Data { deadline, .. } | Awaiting::LinkAck { deadline, .. } => {
                *deadline = t
            }
        }
    }
}

/// A frame being received: its air id, sender and end.
#[derive(Clone, Copy, Debug)]
struct Lock {
    id: u64,
    from: StationId,
    end: Time,
}

#[derive(Clone, Debug)]
#[repr(C)]
struct Station {
    // What the search for the radio's next instant reads of every station
    // (`Radio::station_wake`) first, together.
    xcvr: Xcvr,
    awaiting: Awaiting,
    backoff_until: Option<Time>,
    /// The radio's queue (drop-tail, or a composed discipline: ACK
    /// filtering at the radios is how AF runs over a radio chain, seed 001
    /// Sec. 7.2), with each frame's next hop.
    iq: StationQueue,
    rx_lock: Option<Lock>,
    owe_cts: Option<StationId>,
    owe_ack: Option<(StationId, Bit)>,
    /// A link ack owed to this peer, to ride on the data frame being
    /// polled for (`poll_before_piggyback`).
    ride: Option<(StationId, Bit)>,
    /// The CTS came: send the data frame to this peer.
    granted: Option<StationId>,
    backoff_ns: u64,
    rts_started: Time,
    /// The peer of the data frame the radio is sending (window 1 per
    /// radio, whatever the peer): it is in `send[peer]`'s window.
    current: Option<StationId>,
    /// Per peer: the link ARQ's sending side towards it, and its receiving
    /// side from it.
    send: Vec<Sender<Waiting>>,
    recv: Vec<Receiver>,
    rng: RngStream,
    error: ErrorModel,
    stats: RadioStats,
}

impl Station {
    /// A data frame for peer `p` that can carry the link ack `acked`: the
    /// current frame, if it goes to `p` and is not awaiting its own link
    /// ack (still polling, backing off, or due a link retransmission), else
    /// the queue head if it goes to `p` and there is no current frame. It
    /// needs no RTS/CTS: its peer is listening for the reply.
    /// A frame leaving this way has the channel as a poll ack would have
    /// given it, and resets the backoff as one does.
    ///
    /// With `poll`, the frame is polled for instead (an RTS, any backoff cut
    /// short: the peer waits for the ack) and the ack rides on it when the
    /// CTS comes.
    fn piggyback_on(&mut self, p: StationId, acked: Bit, now: Time, base_ns: u64, poll: bool) -> Option<FrameKind> {
        if poll {
            if self.awaiting != Awaiting::Nothing {
                return None;
            }
            match self.current {
                Some(c) if c == p => {}
                None if self.iq.head_to() == Some(p) => {
                    self.take_head(now);
                }
                _ => return None,
            }
            if let Some(until) = self.backoff_until.take() {
                self.stats.backoff_ns -= until.since(now);
            }
            self.ride = Some((p, acked));
            return Some(FrameKind::Rts);
        }
        if self.current == Some(p) && self.awaiting == Awaiting::Nothing {
            if let Some(until) = self.backoff_until.take() {
                self.stats.backoff_ns -= until.since(now);
            }
            self.backoff_ns = base_ns;
            return Some(self.data_frame(now, Some(acked)));
        }
        if self.current.is_none() && self.iq.head_to() == Some(p) {
            self.take_head(now);
            return Some(self.data_frame(now, Some(acked)));
        }
        None
    }

    /// Take the queue's head as the current frame, into its peer's ARQ
    /// window (the radio has no current frame).
    fn take_head(&mut self, now: Time) -> Option<StationId> {
        let (to, frame) = self.iq.pop(now)?;
        self.send[usize::from(to)].offer(now, frame);
        self.current = Some(to);
        Some(to)
    }

    /// The current frame as its ARQ sends it (not awaiting its link ack),
    /// carrying `piggy_ack`.
    fn data_frame(&self, now: Time, piggy_ack: Option<Bit>) -> FrameKind {
        let p = self.current.expect("a current frame");
        let s = self.send[usize::from(p)].next(now).expect("the current frame awaits no link ack");
        FrameKind::Data { frame: s.frame, seq: bit(s.seq), piggy_ack, retransmission: s.retransmission }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AirState {
    Coming,
    Locked,
    Lost(Heard),
}

#[derive(Clone, Copy, Debug)]
struct HandUp {
    at: Time,
    station: StationId,
    from: StationId,
    frame: Waiting,
}

/// A packet-radio medium and its radios.
#[derive(Clone, Debug)]
pub struct Radio {
    cfg: RadioConfig,
    stations: Vec<Station>,
    /// The next internal event (`Events::earliest`), recomputed after
    /// every change of state ([`Radio::enqueue`], each event of
    /// [`Radio::on_timer`]), so that [`Radio::poll_at`] reads it instead of
    /// searching again (a debug assertion there searches and compares).
    next: Option<(Time, Item)>,
    /// Frames on the air (what its reception came to: [`AirState`]).
    air: OnAir<FrameKind, AirState>,
    hand_ups: VecDeque<HandUp>,
}

impl Radio {
    /// A medium of `n` radios with configuration `cfg` (validated); radio
    /// `s` draws its backoffs from `stream(s)`.
    pub fn new(cfg: RadioConfig, n: usize, mut stream: impl FnMut(usize) -> RngStream) -> Radio {
        assert!(n <= usize::from(StationId::MAX), "station ids are 16 bits");
        let stations = (0..n)
            .map(|s| Station {
                iq: StationQueue::new(cfg.queue_packets),
                xcvr: Xcvr::Rx { ready: Time::ZERO },
                rx_lock: None,
                awaiting: Awaiting::Nothing,
                owe_cts: None,
                owe_ack: None,
                ride: None,
                granted: None,
                backoff_until: None,
                backoff_ns: cfg.backoff_base_ns,
                rts_started: Time::ZERO,
                current: None,
                send: vec![Sender::new(cfg.retry_limit); n],
                recv: vec![Receiver::new(); n],
                rng: stream(s),
                error: ErrorModel::none(),
                stats: RadioStats::default(),
            })
            .collect();
        Radio {
            cfg,
            stations,
            next: None,
            // A radio has at most one frame on the air at a time.
            air: OnAir::with_capacity(n),
            hand_ups: VecDeque::with_capacity(n),
        }
    }

    /// Give radio `s` an error model for the frames it sends.
    pub fn with_error_model(mut self, s: StationId, error: ErrorModel) -> Radio {
        self.stations[usize::from(s)].error = error;
        self
    }

    /// Serve every radio's queue with the discipline `cfg` (validated, and
    /// without `acks_first`: a radio serves its head, see
    /// [`RadioConfig::validate_queue`]); radio `s` draws from `stream(s)`
    /// if the discipline draws.
    pub fn with_queue_discipline(mut self, cfg: &QueueConfig, mut stream: impl FnMut(usize) -> RngStream) -> Radio {
        let c = self.cfg;
        for (s, st) in self.stations.iter_mut().enumerate() {
            st.iq.serve_with(c.queue_packets, cfg, |bytes| c.tx_ns(bytes + c.mac_header_bytes), || stream(s));
        }
        self
    }

    /// Record every frame's life on the air (diagnostics, tests).
    pub fn with_air_log(mut self) -> Radio {
        self.record_air();
        self
    }

    /// Start recording every frame's life on the air, in place.
    pub fn record_air(&mut self) {
        self.air.record();
    }

    /// The frames recorded, in the order their receptions ended.
    pub fn air_log(&self) -> &[AirRecord] {
        self.air.records()
    }

    pub fn config(&self) -> &RadioConfig {
        &self.cfg
    }

    pub fn stations(&self) -> usize {
        self.stations.len()
    }

    pub fn stats(&self, s: StationId) -> &RadioStats {
        &self.stations[usize::from(s)].stats
    }

    /// Frames radio `s` holds in its queue.
    pub fn queue_len(&self, s: StationId) -> usize {
        self.stations[usize::from(s)].iq.len()
    }

    /// Frames held: queued, being sent and not yet received by the peer,
    /// or received and waiting out the hand-up latency.
    pub fn in_flight(&self) -> usize {
        let held: usize = self
            .stations
            .iter()
            .map(|st| st.iq.len() + st.current.map_or(0, |p| st.send[usize::from(p)].in_flight()))
            .sum();
        held + self.hand_ups.len()
    }

    /// A frame queued at `s` for `to` at `now`, as a link direction's
    /// queue takes it: `Refused` if the queue is full (counted; the packet
    /// is the caller's), or `Removed` with what the discipline let go of in
    /// `removed` (the caller frees and counts them). Nothing goes on the
    /// air at once (a radio turns around first), so `_out` stays untouched.
    #[must_use]
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
        debug_assert!(s != to && usize::from(to) < self.stations.len(), "a frame goes to another radio");
        let st = &mut self.stations[usize::from(s)];
        st.stats.enqueued += 1;
        let drops = (&mut st.stats.drops_queue, &mut st.stats.drops_filtered);
        let a = st.iq.offer(now, frame, to, st.current.is_some(), pool, removed, drops);
        if a.queued() {
            self.act(usize::from(s), now);
            self.next = self.earliest();
        }
        a
    }

    /// When the medium next needs [`Radio::on_timer`].
    pub fn poll_at(&self) -> Time {
        medium::poll_at(self.next, self)
    }

    /// Run every internal event due at or before `now`, each at its own time.
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<MacOutput>) {
        medium::run_due(self, now, out);
    }

    fn station_wake(st: &Station) -> Time {
        let xcvr = match st.xcvr {
            Xcvr::Rx { .. } => Time::NEVER,
            Xcvr::Tx { start, on_air: false, .. } => start,
            Xcvr::Tx { end, .. } => end,
        };
        xcvr.min(st.awaiting.deadline()).min(st.backoff_until.unwrap_or(Time::NEVER))
    }

    fn on_station_timer(&mut self, s: usize, now: Time, out: &mut Vec<MacOutput>) {
        match self.stations[s].xcvr {
            Xcvr::Tx { start, on_air: false, .. } if start <= now => self.on_tx_start(s, now, out),
            Xcvr::Tx { end, on_air: true, .. } if end <= now => self.on_tx_end(s, now),
            _ => {}
        }
        if self.stations[s].awaiting.deadline() <= now {
            self.on_deadline(s, now, out);
        }
        if self.stations[s].backoff_until.is_some_and(|t| t <= now) {
            self.stations[s].backoff_until = None;
        }
        self.act(s, now);
    }

    /// Medium time of a frame, in ns.
    fn frame_tx_ns(&self, kind: &FrameKind) -> u64 {
        let c = &self.cfg;
        c.tx_ns(match kind {
            FrameKind::Rts => c.rts_bytes,
            FrameKind::Cts => c.cts_bytes,
            FrameKind::LinkAck { .. } => c.link_ack_bytes,
            FrameKind::Data { frame, .. } => frame.size_bytes + c.mac_header_bytes,
        })
    }

    /// If radio `s` is free (receive mode, not receiving), start what it
    /// must send next, if anything.
    fn act(&mut self, s: usize, now: Time) {
        let st = &self.stations[s];
        let Xcvr::Rx { ready } = st.xcvr else { return };
        if st.rx_lock.is_some() {
            return; // never transmit while receiving
        }
        if let Some((to, kind)) = self.decide(s, now) {
            // Rx -> Tx, after finishing any Tx -> Rx under way.
            let start = now.max(ready).plus_ns(self.cfg.rx_tx_ns);
            self.stations[s].stats.turnaround_ns += self.cfg.rx_tx_ns;
            self.commit(s, to, kind, start);
        }
    }

    /// What radio `s` sends next, in order of duty: a CTS it owes, the data
    /// frame a CTS granted, a link ack it owes (piggybacked if it can),
    /// then, if it waits for nothing and is not backing off, an RTS for its
    /// current or next frame.
    fn decide(&mut self, s: usize, now: Time) -> Option<(StationId, FrameKind)> {
        let (piggyback, poll) = (self.cfg.piggyback_acks, self.cfg.poll_before_piggyback);
        let st = &mut self.stations[s];
        if let Some(p) = st.owe_cts.take() {
            return Some((p, FrameKind::Cts));
        }
        if let Some(p) = st.granted.take() {
            debug_assert_eq!(st.current, Some(p), "a CTS grants the current frame");
            // A link ack polled for rides on the frame.
            let piggy_ack = st.ride.take().map(|(q, b)| {
                debug_assert_eq!(q, p, "an ack rides to the peer polled");
                b
            });
            return Some((p, st.data_frame(now, piggy_ack)));
        }
        if let Some((p, acked)) = st.owe_ack.take() {
            if piggyback {
                if let Some(kind) = st.piggyback_on(p, acked, now, self.cfg.backoff_base_ns, poll) {
                    return Some((p, kind));
                }
            }
            return Some((p, FrameKind::LinkAck { ack: acked }));
        }
        if st.awaiting != Awaiting::Nothing || st.backoff_until.is_some_and(|t| now < t) {
            return None;
        }
        let to = match st.current {
            Some(to) => to,
            None => st.take_head(now)?,
        };
        Some((to, FrameKind::Rts))
    }

    /// Radio `s` is committed to send `kind` to `to`, on the air from
    /// `start` (its turnaround done), or later if the peer is still
    /// turning to receive (replies only: an RTS goes to a peer whose mode
    /// is not known).
    /// Its station timer puts the frame on the air.
    fn commit(&mut self, s: usize, to: StationId, kind: FrameKind, start: Time) {
        let mut start = start;
        if kind != FrameKind::Rts {
            if let Xcvr::Rx { ready } = self.stations[usize::from(to)].xcvr {
                start = start.max(Time(ready.ns().saturating_sub(self.cfg.propagation_ns)));
            }
        }
        let end = start.plus_ns(self.frame_tx_ns(&kind));
        self.stations[s].xcvr = Xcvr::Tx { to, kind, start, end, on_air: false };
    }

    fn on_tx_start(&mut self, s: usize, now: Time, out: &mut Vec<MacOutput>) {
        let timeout_ns = self.cfg.reply_timeout_ns();
        // What a frame carries is settled when it goes on the air, not when
        // the radio starts turning: a bare link ack committed while a frame
        // for the same peer was not yet there (the acked frame's own TCP
        // ack, handed up and answered during the turnaround) rides on it.
        if let Xcvr::Tx { to, kind: FrameKind::LinkAck { ack }, start, .. } = self.stations[s].xcvr {
            if self.cfg.piggyback_acks {
                let (base, poll) = (self.cfg.backoff_base_ns, self.cfg.poll_before_piggyback);
                if let Some(kind) = self.stations[s].piggyback_on(to, ack, now, base, poll) {
                    let end = start.plus_ns(self.frame_tx_ns(&kind));
                    self.stations[s].xcvr = Xcvr::Tx { to, kind, start, end, on_air: false };
                }
            }
        }
        let Xcvr::Tx { to, kind, start, end, .. } = self.stations[s].xcvr else { unreachable!("transmitting") };
        let tx_ns = end.since(start);
        let size = match kind {
            FrameKind::Data { frame, .. } => frame.size_bytes + self.cfg.mac_header_bytes,
            FrameKind::Rts => self.cfg.rts_bytes,
            FrameKind::Cts => self.cfg.cts_bytes,
            FrameKind::LinkAck { .. } => self.cfg.link_ack_bytes,
        };
        let st = &mut self.stations[s];
        st.xcvr = Xcvr::Tx { to, kind, start, end, on_air: true };
        let data = match &kind {
            FrameKind::Data { frame, .. } => Some(frame),
            _ => None,
        };
        let corrupted = medium::corrupts(&mut st.error, now, tx_ns, data, size);
        st.stats.airtime_ns += tx_ns;
        match kind {
            FrameKind::Rts => {
                st.stats.rts_sent += 1;
                st.rts_started = now;
                st.awaiting = Awaiting::Cts { peer: to, deadline: now.plus_ns(timeout_ns) };
            }
            FrameKind::Cts => st.stats.cts_sent += 1,
            FrameKind::LinkAck { .. } => st.stats.link_acks_sent += 1,
            FrameKind::Data { frame, seq, piggy_ack, retransmission } => {
                st.stats.data_frames_sent += 1;
                st.stats.link_acks_piggybacked += u64::from(piggy_ack.is_some());
                debug_assert_eq!(st.current, Some(to), "sending the current frame");
                let arq = &mut st.send[usize::from(to)];
                arq.on_transmit(now, Seq::from(seq));
                let held = arq.holds(Seq::from(seq));
                out.push(MacOutput::Transmit { station: s as StationId, to, frame, retransmission, held });
            }
        }
        self.air.push(s as StationId, to, kind, (start, end), self.cfg.propagation_ns, corrupted, AirState::Coming);
    }

    fn on_tx_end(&mut self, s: usize, now: Time) {
        let timeout = now.plus_ns(self.cfg.reply_timeout_ns());
        let tx_rx = self.cfg.tx_rx_ns;
        let Xcvr::Tx { to, kind, .. } = self.stations[s].xcvr else { unreachable!("transmitting") };
        let st = &mut self.stations[s];
        match kind {
            // Polled by the peer whose link ack it awaits: the ack rides on
            // the data frame to come, awaited as a data frame is.
            FrameKind::Cts if st.awaiting.peer() == Some(to) => st.awaiting.extend_to(timeout),
            FrameKind::Cts => st.awaiting = Awaiting::Data { peer: to, deadline: timeout },
            FrameKind::Data { .. } => st.awaiting = Awaiting::LinkAck { peer: to, deadline: timeout },
            FrameKind::Rts | FrameKind::LinkAck { .. } => {}
        }
        // Still in transmit mode: send again at once if there is something
        // to send (a bare ack followed by an RTS), else turn to receive.
        if let Some((next_to, next)) = self.decide(s, now) {
            self.commit(s, next_to, next, now);
        } else {
            let st = &mut self.stations[s];
            st.xcvr = Xcvr::Rx { ready: now.plus_ns(tx_rx) };
            st.stats.turnaround_ns += tx_rx;
        }
    }

    fn on_rx_start(&mut self, i: usize, now: Time) {
        let a = self.air.frames[i];
        let r = &mut self.stations[usize::from(a.to)];
        let listening = matches!(r.xcvr, Xcvr::Rx { ready } if ready <= now);
        self.air.frames[i].state = if !listening {
            r.stats.frames_lost_half_duplex += 1;
            AirState::Lost(Heard::LostHalfDuplex)
        } else if r.rx_lock.is_some() {
            r.stats.frames_lost_collision += 1;
            AirState::Lost(Heard::LostCollision)
        } else {
            r.rx_lock = Some(Lock { id: a.id, from: a.from, end: a.rx_end });
            AirState::Locked
        };
    }

    fn on_rx_end(&mut self, i: usize, now: Time) {
        let a = self.air.take(i);
        let heard = match a.state {
            AirState::Lost(h) => h,
            AirState::Locked if a.corrupted => Heard::Corrupted,
            _ => Heard::Intact,
        };
        self.air.log(&a, a.kind.class(), heard);
        if a.state != AirState::Locked {
            return;
        }
        let r = usize::from(a.to);
        debug_assert_eq!(self.stations[r].rx_lock.map(|l| l.id), Some(a.id));
        self.stations[r].rx_lock = None;
        if a.corrupted {
            self.stations[r].stats.frames_corrupted += 1;
        } else {
            match a.kind {
                FrameKind::Rts => self.on_rts(r, a.from),
                FrameKind::Cts => self.on_cts(r, a.from, now),
                FrameKind::Data { frame, seq, piggy_ack, .. } => self.on_data(r, a.from, frame, seq, piggy_ack, now),
                FrameKind::LinkAck { ack } => self.on_link_ack(r, a.from, ack, now),
            }
        }
        self.act(r, now);
    }

    /// An RTS: answer if idle (in no conversation with another station),
    /// else stay silent. A radio waiting for `from`'s link ack is in a
    /// conversation with `from` itself: with `poll_before_piggyback` the
    /// ack comes on a polled data frame, so it answers, and waits for that
    /// frame past its own deadline.
    fn on_rts(&mut self, r: usize, from: StationId) {
        let ack_polled = self.cfg.piggyback_acks && self.cfg.poll_before_piggyback;
        let st = &mut self.stations[r];
        let free = st.owe_cts.is_none() && st.owe_ack.is_none() && st.ride.is_none() && st.granted.is_none();
        let awaits_its_ack = ack_polled && matches!(st.awaiting, Awaiting::LinkAck { peer, .. } if peer == from);
        if free && awaits_its_ack {
            st.owe_cts = Some(from);
            st.awaiting.extend_to(Time::NEVER);
        } else if free && st.awaiting == Awaiting::Nothing {
            st.owe_cts = Some(from);
        } else {
            st.stats.rts_ignored_busy += 1;
        }
    }

    fn on_cts(&mut self, r: usize, from: StationId, now: Time) {
        let base = self.cfg.backoff_base_ns;
        let st = &mut self.stations[r];
        if let Awaiting::Cts { peer, .. } = st.awaiting {
            if peer == from {
                st.awaiting = Awaiting::Nothing;
                st.granted = Some(from);
                st.backoff_ns = base; // [N] a poll ack resets the backoff
                st.stats.cts_received += 1;
                st.stats.rts_cts_ns += now.since(st.rts_started);
            }
        }
    }

    fn on_data(&mut self, r: usize, from: StationId, frame: Waiting, seq: Bit, piggy_ack: Option<Bit>, now: Time) {
        if let Some(acked) = piggy_ack {
            self.on_link_ack(r, from, acked, now);
        }
        let latency = self.cfg.hand_up_latency_ns;
        let st = &mut self.stations[r];
        st.stats.data_frames_received += 1;
        let receipt = st.recv[usize::from(from)].on_frame(now, Seq::from(seq), ());
        if receipt.deliver {
            self.hand_ups.push_back(HandUp { at: now.plus_ns(latency), station: r as StationId, from, frame });
            let sender = &mut self.stations[usize::from(from)].send[r];
            debug_assert_eq!(sender.outstanding(), Some(frame), "data comes from a current frame");
            sender.on_delivered(Seq::from(seq));
        } else {
            st.stats.duplicates_suppressed += 1;
        }
        let st = &mut self.stations[r];
        st.owe_ack = Some((from, bit(receipt.ack)));
        if matches!(st.awaiting, Awaiting::Data { peer, .. } if peer == from) {
            st.awaiting = Awaiting::Nothing;
        }
    }

    /// A link ack for the frame outstanding to `from` completes it: while
    /// the radio waits for it, and also after that wait timed out, while
    /// the radio polls or backs off to send the frame again (an ack that
    /// rode on a polled data frame can come then).
    fn on_link_ack(&mut self, r: usize, from: StationId, ack: Bit, now: Time) {
        let st = &mut self.stations[r];
        // Waiting for nothing, or for `from` (its link ack, or its CTS or
        // data frame after a timeout); the ARQ completes the frame if the
        // ack is for it (its frame to `from`, sent, with that bit).
        if st.awaiting.peer().is_none_or(|p| p == from) && st.send[usize::from(from)].on_ack(now, Seq::from(ack)) > 0 {
            // A data frame after this radio's CTS is still awaited (it
            // carries the ack): `on_data` ends that wait.
            if !matches!(st.awaiting, Awaiting::Data { .. }) {
                st.awaiting = Awaiting::Nothing;
            }
            if let Some(until) = st.backoff_until.take() {
                st.stats.backoff_ns -= until.since(now);
            }
            st.current = None;
            st.iq.idle_since = now;
            st.stats.link_acks_received += 1;
        }
    }

    /// Nothing came from the awaited peer in time (hearing it extends).
    fn on_deadline(&mut self, s: usize, now: Time, out: &mut Vec<MacOutput>) {
        let cfg = self.cfg;
        let st = &mut self.stations[s];
        if let Some(lock) = st.rx_lock {
            if Some(lock.from) == st.awaiting.peer() {
                st.awaiting.extend_to(lock.end);
                return;
            }
        }
        match st.awaiting {
            Awaiting::Nothing => {}
            Awaiting::Cts { .. } => {
                st.stats.poll_timeouts += 1;
                st.stats.rts_cts_ns += now.since(st.rts_started);
                // [N] mac-multihop.cc BackoffHandler: double, then wait
                // (1 + U[0,1)) * backoff + 2 * base.
                st.backoff_ns = st.backoff_ns.saturating_mul(2);
                // (`as` saturates; so does the sum, for a peer silent forever.)
                let drawn_ns = ((1.0 + st.rng.uniform()) * st.backoff_ns as f64) as u64;
                let wait_ns = drawn_ns.saturating_add(2 * cfg.backoff_base_ns);
                st.backoff_until = Some(now.plus_ns(wait_ns));
                st.stats.backoffs += 1;
                st.stats.backoff_ns = st.stats.backoff_ns.saturating_add(wait_ns);
            }
            Awaiting::Data { .. } => {}
            Awaiting::LinkAck { peer, .. } => {
                st.stats.link_ack_timeouts += 1;
                debug_assert_eq!(st.current, Some(peer), "awaiting an ack for the current frame");
                match st.send[usize::from(peer)].on_timeout(now) {
                    Expiry::Resend => st.stats.link_retransmissions += 1,
                    // The peer has it (the ARQ resynchronised the pair's bit).
                    Expiry::GaveUpDelivered { .. } => {
                        st.current = None;
                        st.iq.idle_since = now;
                        st.stats.arq_gave_up_delivered += 1;
                    }
                    Expiry::Drop { frame, cause } => {
                        debug_assert_eq!(cause, DropCause::RetryLimit);
                        st.current = None;
                        st.iq.idle_since = now;
                        st.stats.drops_retry_limit += 1;
                        out.push(MacOutput::Drop { station: s as StationId, frame, cause: MacDropCause::RetryLimit });
                    }
                }
            }
        }
        st.awaiting = Awaiting::Nothing;
    }
}

impl Events for Radio {
    fn next_event(&mut self) -> &mut Option<(Time, Item)> {
        &mut self.next
    }

    /// The earliest internal event (see the module docs for the order).
    fn earliest(&self) -> Option<(Time, Item)> {
        let mut e = Earliest::of_stations(self.stations.iter().map(Radio::station_wake));
        if let Some(h) = self.hand_ups.front() {
            e.hand_up(h.at);
        }
        e.air(&self.air, |state| !matches!(state, AirState::Coming));
        e.found()
    }

    #[inline]
    fn run(&mut self, t: Time, item: Item, out: &mut Vec<MacOutput>) {
        match item {
            Item::HandUp => {
                let h = self.hand_ups.pop_front().expect("due");
                self.stations[usize::from(h.station)].stats.delivered_up += 1;
                out.push(MacOutput::Deliver { station: h.station, from: h.from, frame: h.frame });
            }
            Item::RxEnd(i) => self.on_rx_end(i, t),
            Item::Station(s) => self.on_station_timer(s, t, out),
            Item::RxStart(i) => self.on_rx_start(i, t),
        }
    }
}

#[cfg(test)]
mod tests;
