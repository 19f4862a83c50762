//! SRP, the selective-repeat protocol of Yavatkar and Bhagwat, "Improving
//! end-to-end performance of TCP over mobile internetworks", Workshop on
//! Mobile Computing Systems and Applications (WMCSA), Santa Cruz, Dec.
//! 1994, pp. 146-152: the wireless transport under MTCP's session layer
//! MHP (Mobile Host Protocol), which splits a connection at the base
//! station (BS) into a wired TCP and a wireless MHP over SRP. The survey
//! spells the second author Bhagawat.
//!
//! The primary paper was not read for lasthop; the rules below are the
//! survey's (seed 002, ElAarag 2002, Sec. 5.3, marked \[S\]) as the close
//! reading `elaarag-002.md` Sec. 1.10 spells them out, and lasthop's own
//! choices where the survey is silent (marked \[I\]); what neither settles
//! and could not be checked is \[K\]. Everything beyond the survey is a
//! parameter here ([`SrpConfig`]).
//!
//! - \[S\] Selective repeat over the 1-2 wireless hops between the BS and
//!   the mobile host (MH), end to end between the two MHP sessions (not a
//!   circuit-mode hop: a packet takes a propagation delay each way).
//! - \[S\] The receiver returns a selective ack (SACK) naming the missing
//!   packet when an out-of-sequence packet arrives; the sender retransmits
//!   it. More than one loss is recovered per round trip time.
//! - \[I\] The ack's form ([`Ack`]): the receiver answers every packet,
//!   with its cumulative ack (the next packet expected), the packet that
//!   arrived, the transmission number that copy went with, and the
//!   packets missing below it (a bitmap from the cumulative ack: a SACK
//!   when it is not empty, [`Ack::is_sack`]). Every transmission carries a
//!   transmission number ([`Header::tx`]); a packet named missing whose
//!   last copy went before the copy that arrived is lost (the path is
//!   FIFO, as [`super::rlp`]'s loss rule has it), and only then is it
//!   resent: once per loss, however many SACKs name it. A lost SACK is
//!   made good by the next one (each names every packet missing below its
//!   arrival) or, if none comes, by the timeout.
//! - \[S\]/\[I\] A window that falls to one packet on a timeout and builds
//!   up again fast over the short round trip \[S, the survey's comparison\];
//!   \[I\] how: slow-start-like, the window ([`Sender::cwnd`]) grows by one
//!   packet per packet acked (doubling per round trip) up to
//!   [`SrpConfig::window_max`], starting at [`SrpConfig::initial_window`].
//!   It limits new packets (a packet goes first only if fewer than `cwnd`
//!   packets are ahead of it in the window, from the oldest not settled); a
//!   packet proven lost or timed out is resent whatever the window.
//! - \[S\]/\[I\] A retransmission timeout for the case no later packet
//!   arrives to prove a loss (a lost last packet, a lost run of SACKs):
//!   with packets unresolved (sent, neither acked nor proven lost) and
//!   nothing sent or settled for the RTO, the oldest goes again and the
//!   window falls to 1; \[I\] the other unresolved packets, each sent at
//!   least an RTO ago with no answer, become stale: they go again, oldest
//!   first and before new packets, as the window rebuilds (within it, where
//!   a SACK-proven loss goes whatever the window). Without that, a window
//!   lost whole (a handoff, an outage) came back one packet per timeout:
//!   a SACK names only packets below the one that arrived, and new packets,
//!   which would prove the rest lost, waited behind them (measured through
//!   the simulator on `elaarag02/mtcp`: up to 27 timeouts and 15 s after a
//!   handoff). The RTO ([`Rto`]) is \[I\] fixed, or estimated from
//!   round trip samples as TCP's is (RFC 6298: `srtt + 4 rttvar`, Karn's
//!   rule, doubled per consecutive timeout, clamped). The timer is the
//!   caller's: [`Sender::deadline`] says when to call
//!   [`ArqSender::on_timeout`].
//! - \[I\] Bounded retries ([`SrpConfig::retry_limit`], `None`:
//!   persistent) as [`super::rlp`] has them: a packet proven lost or timed
//!   out after `1 + limit` transmissions is dropped with
//!   [`DropCause::RetryLimit`]; data carries the sender's floor
//!   ([`Header::floor`]) so the receiver stops waiting for it (with
//!   [`super::rlp`]'s limitation in order: the last packets may wait for a
//!   floor no later packet brings). A drop on the timeout assumes the
//!   family's contract that the timer runs out when no answer can come:
//!   the RTO must exceed the round trip (for [`Rto::Estimated`], its
//!   `min_ns` and `initial_ns`), or a packet dropped may still be on its
//!   way and be handed up. A persistent sender may time out early at no
//!   such cost (a spurious copy, never handed up twice).
//! - \[I\] Delivery in order (default) or out of order ([`Delivery`]),
//!   never a second copy ([`Receiver::pop_up`]).
//! - \[S\] Handoff moves MHP's state, buffers included, to the new BS
//!   ([`Station::export_state`], [`Station::from_state`]); the transfer is
//!   large when buffers are full. [`SrpState::bytes`] sizes the
//!   state-transfer message: the control state, the sender's window with
//!   its packets, and the packets the receiver buffers out of sequence.
//! - \[I\] MHP re-segments the wired stream into a wireless MSS
//!   (`mss_wireless`): that is the caller's (a packet here is one wireless
//!   segment). MHP's split semantics (the BS acks the fixed host before the
//!   MH has the data, MHP-2) need the world and are not here.
//! - \[I\] Window at most 64 (the bitmaps are `u64`s); sequence numbers
//!   are not taken modulo anything.
//! - \[K\] The primary's packet layout, timer values, window sizes and
//!   whether the window counts retransmissions.
//!
//! # Driving it
//!
//! A caller holds a [`Sender`] at one end and a [`Receiver`] at the other
//! per direction (a [`Station`] holds a BS's two sides, for the handoff).
//! Per send opportunity: offer packets while [`ArqSender::has_room`]; take
//! [`ArqSender::next`] and, if there is one, send it with the [`Header`]
//! [`ArqSender::on_transmit`] returns; arm a timer at [`Sender::deadline`]
//! and call [`ArqSender::on_timeout`] when it fires. Each [`Ack`] that
//! comes back goes to [`ArqSender::on_ack`]; drain [`Sender::pop_dropped`].
//! At the far end each intact packet goes to [`ArqReceiver::on_frame`],
//! whose ack goes back at once; hand up what [`Receiver::pop_up`] yields.

use super::reorder::Reorder;
use super::window::{self, Window};
use super::{ArqReceiver, ArqSender, Expiry, Receipt, Send, Seq};
#[cfg(doc)] // the docs name it
use lasthop_core::trace::DropCause;
use lasthop_core::Time;
use std::collections::VecDeque;

/// The largest window the bitmaps can report on.
pub const MAX_WINDOW: u32 = 64;

/// The order packets are handed up in (\[I\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// In sequence order; a packet given up on is skipped.
    InOrder,
    /// As first copies arrive.
    OutOfOrder,
}

/// The retransmission timeout (\[I\]; times in ns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rto {
    /// Always `ns`.
    Fixed { ns: u64 },
    /// From round trip samples (RFC 6298), `initial_ns` before the first,
    /// clamped to `[min_ns, max_ns]`, doubled per consecutive timeout.
    Estimated { initial_ns: u64, min_ns: u64, max_ns: u64 },
}

/// SRP's parameters (\[I\] defaults, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SrpConfig {
    /// The largest window, in packets, 1 to [`MAX_WINDOW`].
    pub window_max: u32,
    /// The window at the start, 1 to `window_max`.
    pub initial_window: u32,
    /// The retransmission timeout.
    pub rto: Rto,
    /// Retransmissions of a packet before it is dropped (`None`: never).
    pub retry_limit: Option<u32>,
    /// In order or out of order.
    pub delivery: Delivery,
}

impl Default for SrpConfig {
    fn default() -> SrpConfig {
        SrpConfig {
            window_max: 32,
            initial_window: 4,
            rto: Rto::Estimated { initial_ns: 200_000_000, min_ns: 20_000_000, max_ns: 2_000_000_000 },
            retry_limit: None,
            delivery: Delivery::InOrder,
        }
    }
}

impl SrpConfig {
    /// The first invalid field and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if self.window_max == 0 || self.window_max > MAX_WINDOW {
            return Err(("window_max", "must be 1 to 64 (the ack bitmap's width)"));
        }
        if self.initial_window == 0 || self.initial_window > self.window_max {
            return Err(("initial_window", "must be 1 to window_max"));
        }
        match self.rto {
            Rto::Fixed { ns: 0 } => return Err(("rto", "must be positive")),
            Rto::Estimated { initial_ns, min_ns, max_ns } => {
                if initial_ns == 0 || min_ns == 0 {
                    return Err(("rto", "must be positive"));
                }
                if min_ns > max_ns {
                    return Err(("rto", "min_ns must not exceed max_ns"));
                }
            }
            Rto::Fixed { .. } => {}
        }
        if self.retry_limit == Some(0) {
            return Err(("retry_limit", "must be at least 1, or none for persistent"));
        }
        Ok(())
    }
}

/// What a data packet carries besides its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// This transmission's number, counting from 1.
    pub tx: u64,
    /// Every packet below it is settled at the sender (acked or given up).
    pub floor: Seq,
}

/// The receiver's answer to a packet (\[I\] form, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ack {
    /// The next packet expected: every packet below it is received or
    /// given up.
    pub cum: Seq,
    /// The packet that arrived.
    pub got: Seq,
    /// The transmission number of the copy that arrived.
    pub tx: u64,
    /// Bit `i`: packet `cum + i` is missing (only below `got`).
    pub missing: u64,
}

impl Ack {
    /// It names a missing packet: an out-of-sequence packet arrived.
    #[inline]
    pub fn is_sack(&self) -> bool {
        self.missing != 0
    }

    /// It names packet `seq` missing.
    #[inline]
    pub fn names(&self, seq: Seq) -> bool {
        seq >= self.cum && seq - self.cum < MAX_WINDOW && self.missing >> (seq - self.cum) & 1 == 1
    }

    /// It says packet `seq` was received.
    #[inline]
    pub fn received(&self, seq: Seq) -> bool {
        seq < self.cum || seq == self.got || (seq < self.got && !self.names(seq))
    }
}

/// A packet in the sender's window, as a handoff carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unacked<F> {
    /// Its number.
    pub seq: Seq,
    /// The caller's packet.
    pub frame: F,
    /// The transmission number of its last copy (0: never sent).
    pub last_tx: u64,
    /// Copies sent.
    pub transmissions: u32,
    /// Acked or given up on (kept until the packets below it are settled).
    pub acked: bool,
    /// The receiver has handed it up (the simulator's knowledge, which
    /// moves with the state).
    pub delivered: bool,
}

/// Why a packet is due to go again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Due {
    #[default]
    No,
    /// Named missing by a SACK, its last copy older than the one that arrived.
    Sacked,
    /// The timeout (the oldest unresolved packet).
    Timeout,
    /// Unresolved behind the oldest at the timeout: due again, within the
    /// window.
    Stale,
}

/// SRP's own state of a packet in the window.
#[derive(Clone, Copy, Debug)]
struct Sent {
    /// The transmission number of its last copy (0: never sent).
    last_tx: u64,
    /// When its last copy went.
    sent_at: Time,
}

type Slot<F> = window::Slot<F, Due, Sent>;

/// Counters a test or trace can read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// First transmissions.
    pub new_frames: u64,
    /// Retransmissions of packets a SACK proved lost.
    pub sack_resends: u64,
    /// Retransmissions after the timeout.
    pub timeout_resends: u64,
    /// Timeouts (each drops the window to 1).
    pub timeouts: u64,
    /// Packets dropped at the retry limit.
    pub dropped: u64,
}

/// The sending side of one direction.
#[derive(Clone, Debug)]
pub struct Sender<F> {
    cfg: SrpConfig,
    /// The window, from `una` (the oldest packet not settled).
    window: Window<F, Due, Sent>,
    next_tx: u64,
    cwnd: u32,
    /// RFC 6298's estimate, in ns (`None`: no sample yet).
    srtt: Option<(u64, u64)>,
    /// Consecutive timeouts (the backoff's exponent).
    backoff: u32,
    last_activity: Time,
    dropped: VecDeque<(Seq, F)>,
    stats: SenderStats,
}

impl<F: Copy> Sender<F> {
    /// A sender with `cfg` (which must validate).
    pub fn new(cfg: SrpConfig) -> Sender<F> {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        Sender {
            cfg,
            window: Window::new(cfg.window_max, cfg.retry_limit),
            next_tx: 1,
            cwnd: cfg.initial_window,
            srtt: None,
            backoff: 0,
            last_activity: Time::ZERO,
            dropped: VecDeque::new(),
            stats: SenderStats::default(),
        }
    }

    /// Its counters.
    #[inline]
    pub fn stats(&self) -> SenderStats {
        self.stats
    }

    /// The window now, in packets.
    #[inline]
    pub fn cwnd(&self) -> u32 {
        self.cwnd
    }

    /// The oldest packet not settled (every packet below is acked or given up).
    #[inline]
    pub fn floor(&self) -> Seq {
        self.window.base()
    }

    /// The retransmission timeout now, in ns.
    pub fn rto_ns(&self) -> u64 {
        match self.cfg.rto {
            Rto::Fixed { ns } => ns,
            Rto::Estimated { initial_ns, min_ns, max_ns } => {
                let base = self.srtt.map_or(initial_ns, |(s, v)| s + (4 * v).max(1));
                base.clamp(min_ns, max_ns).saturating_mul(1 << self.backoff.min(16)).min(max_ns)
            }
        }
    }

    /// When the timeout runs out, if packets are unresolved.
    pub fn deadline(&self) -> Option<Time> {
        self.window.any_unresolved().then(|| self.last_activity.plus_ns(self.rto_ns()))
    }

    /// A packet dropped at the retry limit, oldest first: the caller's to
    /// drop with [`DropCause::RetryLimit`].
    pub fn pop_dropped(&mut self) -> Option<(Seq, F)> {
        self.dropped.pop_front()
    }

    /// A round trip sample, in ns (RFC 6298).
    fn sample(&mut self, r: u64) {
        self.srtt = Some(match self.srtt {
            None => (r, r / 2),
            Some((s, v)) => (s - s / 8 + r / 8, v - v / 4 + s.abs_diff(r) / 4),
        });
    }
}

impl<F: Copy> ArqSender<F> for Sender<F> {
    type Ack = Ack;
    type Header = Header;

    #[inline]
    fn has_room(&self) -> bool {
        self.window.has_room()
    }

    fn offer(&mut self, _now: Time, frame: F) -> Seq {
        debug_assert!(self.has_room());
        self.window.push(Slot::new(frame, Sent { last_tx: 0, sent_at: Time::ZERO }))
    }

    fn next(&self, _now: Time) -> Option<Send<F>> {
        // Proven lost (or timed out) first, oldest first, whatever the window;
        // then new packets within the window.
        // A packet stale since a timeout goes only within the window (it
        // rebuilds from 1 over them).
        let cwnd = self.cwnd as usize;
        let due = (0..self.window.len()).find(|&i| {
            let s = &self.window[i];
            !s.settled()
                && match s.due {
                    Due::No => false,
                    Due::Stale => i < cwnd,
                    Due::Sacked | Due::Timeout => true,
                }
        });
        let i = due.or_else(|| self.window.first_new(cwnd))?;
        Some(self.window.pick(i))
    }

    fn on_transmit(&mut self, now: Time, seq: Seq) -> Header {
        let tx = self.next_tx;
        self.next_tx += 1;
        self.last_activity = now;
        let floor = self.window.base();
        let s = self.window.slot_mut(seq).expect("sending a packet in the window");
        let kind = if s.transmissions == 0 { Due::No } else { s.due };
        s.x = Sent { last_tx: tx, sent_at: now };
        s.transmissions += 1;
        s.due = Due::No;
        match kind {
            Due::No => self.stats.new_frames += 1,
            Due::Sacked => self.stats.sack_resends += 1,
            Due::Timeout | Due::Stale => self.stats.timeout_resends += 1,
        }
        Header { tx, floor }
    }

    fn on_ack(&mut self, now: Time, ack: Ack) -> u32 {
        let mut completed = 0;
        let mut settled_any = false;
        for i in 0..self.window.len() {
            let seq = self.window.seq(i);
            let s = self.window[i];
            if s.settled() || s.transmissions == 0 {
                continue;
            }
            if ack.received(seq) {
                // Karn: only a packet sent once gives a sample.
                if seq == ack.got && s.transmissions == 1 && s.x.last_tx == ack.tx {
                    self.sample(now.since(s.x.sent_at));
                }
                self.window[i].acked = true;
                self.window[i].due = Due::No;
                completed += 1;
                settled_any = true;
            } else if ack.names(seq) && s.x.last_tx < ack.tx && matches!(s.due, Due::No | Due::Stale) {
                // A later copy arrived: its last copy was lost.
                settled_any = true;
                if let Some(d) = self.window.lost(i, Due::Sacked) {
                    self.stats.dropped += 1;
                    self.dropped.push_back(d);
                }
            }
        }
        if completed > 0 {
            self.backoff = 0;
            self.cwnd = (self.cwnd + completed).min(self.cfg.window_max);
        }
        if settled_any {
            self.last_activity = now;
        }
        self.window.slide();
        completed
    }

    fn on_timeout(&mut self, now: Time) -> Expiry<F> {
        self.last_activity = now;
        self.stats.timeouts += 1;
        self.cwnd = 1;
        self.backoff += 1;
        let i = self.window.first_unresolved().expect("a timeout waits for an unresolved packet");
        let e = self.window.time_out(i, Due::Timeout);
        // Every other unresolved packet went at least an RTO ago with no
        // answer: stale, it goes again as the window rebuilds.
        for j in 0..self.window.len() {
            if self.window[j].unresolved() {
                self.window[j].due = Due::Stale;
            }
        }
        self.stats.dropped += u64::from(matches!(e, Expiry::Drop { .. }));
        e
    }

    #[inline]
    fn on_delivered(&mut self, seq: Seq) {
        self.window.on_delivered(seq)
    }

    #[inline]
    fn holds(&self, seq: Seq) -> bool {
        self.window.holds(seq)
    }

    #[inline]
    fn in_flight(&self) -> usize {
        self.window.in_flight()
    }
}

/// Counters a test or trace can read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReceiverStats {
    /// Packets that arrived intact.
    pub frames: u64,
    /// Of which copies of a packet already received (or given up).
    pub duplicates: u64,
    /// Packets handed up.
    pub handed_up: u64,
    /// Acks that named a missing packet.
    pub sacks: u64,
}

/// The receiving side of one direction.
#[derive(Clone, Debug)]
pub struct Receiver {
    delivery: Delivery,
    /// `cum` ([`Reorder::next`]), the bitmap, the packets to hand up.
    rx: Reorder,
    sacks: u64,
}

impl Receiver {
    /// A receiver handing packets up in `cfg`'s order.
    pub fn new(cfg: &SrpConfig) -> Receiver {
        Receiver { delivery: cfg.delivery, rx: Reorder::new(cfg.delivery == Delivery::InOrder), sacks: 0 }
    }

    /// The next packet to hand up, in the configured order.
    #[inline]
    pub fn pop_up(&mut self) -> Option<Seq> {
        self.rx.pop_up()
    }

    /// Its counters.
    #[inline]
    pub fn stats(&self) -> ReceiverStats {
        let c = self.rx.counts;
        ReceiverStats { frames: c.frames, duplicates: c.duplicates, handed_up: c.handed_up, sacks: self.sacks }
    }

    /// The next packet expected.
    #[inline]
    pub fn cum(&self) -> Seq {
        self.rx.next
    }

    /// Packets it buffers, received out of sequence and not handed up
    /// (in order only).
    #[inline]
    pub fn buffered(&self) -> u32 {
        match self.delivery {
            Delivery::InOrder => self.rx.bitmap.count_ones(),
            Delivery::OutOfOrder => 0,
        }
    }

    /// The packets missing below `seq`, from `cum` (bit 0: `cum`).
    fn missing_below(&self, seq: Seq) -> u64 {
        let cum = self.rx.next;
        if seq <= cum {
            return 0;
        }
        let k = seq - cum;
        let mask = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        !(self.rx.bitmap << 1) & mask
    }
}

impl ArqReceiver for Receiver {
    type Ack = Ack;
    type Header = Header;

    fn on_frame(&mut self, _now: Time, seq: Seq, h: Header) -> Receipt<Ack> {
        let fresh = self.rx.on_frame(seq, h.floor);
        let ack = Ack { cum: self.rx.next, got: seq, tx: h.tx, missing: self.missing_below(seq) };
        self.sacks += u64::from(ack.is_sack());
        Receipt { deliver: fresh, ack }
    }
}

/// The control state's size in a state-transfer message, in bytes (\[I\]:
/// the sender's `una`, next transmission number, window and RTT estimate;
/// the receiver's `cum`, bitmap and buffered count; 8 bytes each, rounded
/// up).
pub const STATE_CONTROL_BYTES: u64 = 64;

/// Per packet in the sender's window, besides the packet itself (\[I\]:
/// its number, last transmission number, count and flags).
pub const STATE_SLOT_BYTES: u64 = 16;

/// The state a BS hands its successor at a handoff (\[S\]: MHP's state
/// including its buffers): its sending side's window with the packets in
/// it, its receiving side's position and the packets it buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrpState<F> {
    /// The oldest packet not settled.
    pub una: Seq,
    /// The next transmission number.
    pub next_tx: u64,
    /// The window.
    pub cwnd: u32,
    /// RFC 6298's estimate (srtt, rttvar) in ns, if any.
    pub srtt: Option<(u64, u64)>,
    /// The sender's window from `una`.
    pub window: Vec<Unacked<F>>,
    /// The receiver's next packet expected.
    pub cum: Seq,
    /// Bit `i`: packet `cum + 1 + i` received.
    pub bitmap: u64,
    /// Packets the receiver buffers out of sequence (the caller's, moving
    /// with the state).
    pub rx_buffered: u32,
}

impl<F> SrpState<F> {
    /// The state-transfer message's size in bytes: the control state, each
    /// window slot with its packet (`frame_bytes`), each packet the
    /// receiver buffers (`rx_frame_bytes` each).
    pub fn bytes(&self, frame_bytes: impl Fn(&F) -> u64, rx_frame_bytes: u64) -> u64 {
        let window: u64 = self.window.iter().map(|u| STATE_SLOT_BYTES + frame_bytes(&u.frame)).sum();
        STATE_CONTROL_BYTES + window + u64::from(self.rx_buffered) * rx_frame_bytes
    }
}

/// A BS's two sides of one MH's session: the downlink sender and the
/// uplink receiver.
#[derive(Clone, Debug)]
pub struct Station<F> {
    /// The downlink sender.
    pub send: Sender<F>,
    /// The uplink receiver.
    pub recv: Receiver,
}

impl<F: Copy> Station<F> {
    /// A station with `cfg` (which must validate).
    pub fn new(cfg: SrpConfig) -> Station<F> {
        Station { send: Sender::new(cfg), recv: Receiver::new(&cfg) }
    }

    /// Its state for the next BS. Packets handed up must have been taken
    /// ([`Receiver::pop_up`]) first; dropped ones
    /// ([`Sender::pop_dropped`]) too.
    pub fn export_state(&self) -> SrpState<F> {
        debug_assert!(self.recv.rx.nothing_up(), "packets not taken before the handoff");
        let s = &self.send;
        let window = s.window.iter().enumerate().map(|(i, x)| Unacked {
            seq: s.window.seq(i),
            frame: x.frame,
            last_tx: x.x.last_tx,
            transmissions: x.transmissions,
            acked: x.settled(),
            delivered: x.delivered,
        });
        SrpState {
            una: s.window.base(),
            next_tx: s.next_tx,
            cwnd: s.cwnd,
            srtt: s.srtt,
            window: window.collect(),
            cum: self.recv.rx.next,
            bitmap: self.recv.rx.bitmap,
            rx_buffered: self.recv.buffered(),
        }
    }

    /// The new BS, at `now`, from its predecessor's state. \[I\] Every
    /// packet sent and unacked is unresolved: the first ack or the timeout
    /// (from `now`) settles it.
    pub fn from_state(cfg: SrpConfig, now: Time, state: SrpState<F>) -> Station<F> {
        let mut send = Sender::new(cfg);
        send.window.set_base(state.una);
        send.next_tx = state.next_tx;
        send.cwnd = state.cwnd.clamp(1, cfg.window_max);
        send.srtt = state.srtt;
        send.last_activity = now;
        for u in state.window {
            let mut slot = Slot::new(u.frame, Sent { last_tx: u.last_tx, sent_at: now });
            slot.transmissions = u.transmissions;
            slot.acked = u.acked;
            slot.delivered = u.delivered;
            send.window.push(slot);
        }
        let mut recv = Receiver::new(&cfg);
        recv.rx.next = state.cum;
        recv.rx.bitmap = state.bitmap;
        Station { send, recv }
    }
}

#[cfg(test)]
mod tests;
