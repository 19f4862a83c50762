//! AIRMAIL (AsymmetrIc Reliable Mobile Access In Link-layer), Ayanoglu,
//! Paul, La Porta, Sabnani and Gitlin, "AIRMAIL: A link-layer protocol for
//! wireless networks", Wireless Networks 1(1), 1995, 47-60: selective
//! repeat with periodic status from the base station (BS), event-driven,
//! combined status from the mobile host (MH), adaptive FEC ([`fec`]) and
//! handoff with state transfer ([`BsState`]).
//!
//! Only the primary's abstract is known (marked \[A\]); the survey (seed
//! 002, ElAarag 2002, Sec. 5.1, \[S\]) as the close reading
//! `elaarag-002.md` Sec. 1.6 spells it out gives the rest; lasthop's own
//! choices are marked \[I\], what neither source settles and could not be
//! checked \[K\]. The primary's frame layout, timers, window and FEC codes
//! were not read: each is a parameter ([`AirmailConfig`]).
//!
//! - \[S, A\] Asymmetric: the BS decides, the MH does little. Both ends
//!   run a [`Sender`] and a [`Receiver`], with a [`Role`] that sets who
//!   keeps which timer.
//! - \[S\] Selective repeat with sequence numbers and bitmap status
//!   ([`Status`]: the next frame expected, a bitmap above it). \[I\] As in
//!   [`super::rlp`], every transmission also carries a transmission number
//!   ([`Header::tx`]) and a status the highest one received, so a frame
//!   reported missing whose last copy went before a copy that arrived is
//!   known lost (the channel is FIFO).
//! - \[S\] The BS's status is periodic (`T_status`, the caller's timer:
//!   [`Receiver::status_deadline`], [`Receiver::on_status_timer`]).
//! - \[S, A\] The MH's status is event-driven and combines several acks in
//!   one, for power. \[I\] The MH answers a status at the end of a block of
//!   `N` frames received ([`AirmailConfig::block_frames`]), on a frame
//!   carrying the BS's poll bit ([`Header::poll`]), or when its receive-gap
//!   timer ([`AirmailConfig::gap_ns`], armed while a frame is missing below
//!   the highest received) fires: one status for whichever comes first.
//! - \[I\] The MH keeps no retransmission timer: it resends what the BS's
//!   periodic status reports missing, once proven lost (above) or once a
//!   second status since its last copy went still reports it (a status
//!   period later than the copy could have arrived: `T_status` must exceed
//!   the round trip, or a copy may go twice, never handed up twice).
//! - \[I\] The BS resends on the MH's status (proven lost), sets the poll
//!   bit on the last frame of a burst (nothing new behind it), and keeps a
//!   poll timer ([`AirmailConfig::poll_ns`], [`Sender::deadline`]): with
//!   frames unresolved and neither a frame sent nor a status that settled
//!   a frame (acked it or proved it lost) for that long, the oldest goes
//!   again with the poll bit (as [`super::rlp`]'s stall timer).
//! - \[I\] Persistent: no retry limit (the survey names none); frames are
//!   handed up in order, never twice ([`Receiver::pop_up`]).
//! - \[S, A\] Handoff by window management and state transfer: the old BS
//!   exports `{vs, vr, unacked frames, receive bitmap}` ([`Bs::export_state`])
//!   and the new one starts from it ([`Bs::from_state`]); the MH keeps its
//!   window. \[I\] The new BS's first frame polls.
//! - \[I\] Window at most 64 (the bitmap is a `u64`); sequence numbers are
//!   not taken modulo anything.
//!
//! # Driving it
//!
//! Per direction, a [`Sender`] at one end and a [`Receiver`] at the other
//! (a [`Bs`] holds the downlink sender and the uplink receiver, an [`Mh`]
//! the others). The sender works as [`super::rlp::Sender`] does; the BS's
//! sender's poll timer is [`Sender::deadline`] (the MH's is always `None`).
//! A receiver's [`ArqReceiver::on_frame`] answers `Some(status)` when a
//! status is to go now (the MH's events), and [`Receiver::status_deadline`]
//! says when to call [`Receiver::on_status_timer`] (the BS's period, the
//! MH's gap timer). The FEC model ([`fec::FecAdapter`]) is consulted per
//! frame, beside the ARQ.

pub mod fec;

use super::reorder::Reorder;
use super::window::{self, Window};
use super::{ArqReceiver, ArqSender, Expiry, Receipt, Send, Seq};
use lasthop_core::Time;

/// The largest window the bitmap can report on.
pub const MAX_WINDOW: u32 = 64;

/// Which end a side runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The base station: periodic status, poll bits, a poll timer.
    Bs,
    /// The mobile host: event-driven status, no retransmission timer.
    Mh,
}

/// AIRMAIL's parameters (\[I\] defaults; times in ns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AirmailConfig {
    /// Frames in a sender's window, 1 to [`MAX_WINDOW`].
    pub window_frames: u32,
    /// `N`: the MH answers a status every `N` frames received.
    pub block_frames: u32,
    /// `T_status`: the BS's status period.
    pub status_period_ns: u64,
    /// The BS's poll timer.
    pub poll_ns: u64,
    /// The MH's receive-gap timer.
    pub gap_ns: u64,
    /// The FEC level by name: "adaptive", "none", "byte" or "packet".
    pub fec: &'static str,
    /// The codes and the adaptation rule.
    pub fec_cfg: fec::FecConfig,
}

impl Default for AirmailConfig {
    fn default() -> AirmailConfig {
        AirmailConfig {
            window_frames: 32,
            block_frames: 8,
            status_period_ns: 20_000_000,
            poll_ns: 60_000_000,
            gap_ns: 40_000_000,
            fec: "adaptive",
            fec_cfg: fec::FecConfig::default(),
        }
    }
}

impl AirmailConfig {
    /// The first invalid field and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if self.window_frames == 0 || self.window_frames > MAX_WINDOW {
            return Err(("window_frames", "must be 1 to 64 (the status bitmap's width)"));
        }
        if self.block_frames == 0 {
            return Err(("block_frames", "must be at least 1"));
        }
        if self.status_period_ns == 0 {
            return Err(("status_period_ns", "must be positive"));
        }
        if self.poll_ns == 0 {
            return Err(("poll_ns", "must be positive"));
        }
        if self.gap_ns == 0 {
            return Err(("gap_ns", "must be positive"));
        }
        fec::FecLevel::parse(self.fec)?;
        self.fec_cfg.validate()
    }

    /// The FEC model this configuration asks for.
    pub fn fec_adapter(&self) -> fec::FecAdapter {
        let fixed = fec::FecLevel::parse(self.fec).expect("a validated configuration");
        fec::FecAdapter::new(self.fec_cfg, fixed)
    }
}

/// What a data frame carries besides its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// This transmission's number, counting from 1.
    pub tx: u64,
    /// The BS asks the MH for its status (always false from the MH).
    pub poll: bool,
}

/// A receiver's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// The next frame expected: every frame below it is received.
    pub vr: Seq,
    /// Bit `i`: frame `vr + 1 + i` received.
    pub bitmap: u64,
    /// The highest transmission number received (0: none).
    pub tx_rx: u64,
}

impl Status {
    /// Whether frame `seq` was received (every frame is reported on).
    #[inline]
    pub fn received(&self, seq: Seq) -> bool {
        seq < self.vr
            || (seq > self.vr && (seq - self.vr - 1) < MAX_WINDOW && self.bitmap >> (seq - self.vr - 1) & 1 == 1)
    }
}

/// A frame in a sender's window, as a handoff carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unacked<F> {
    /// Its number.
    pub seq: Seq,
    /// The caller's frame.
    pub frame: F,
    /// The transmission number of its last copy (0: never sent).
    pub last_tx: u64,
    /// Acked (kept until the frames below it are).
    pub acked: bool,
}

/// AIRMAIL's own state of a frame in the window (due: a `bool`; never
/// given up on).
#[derive(Clone, Copy, Debug)]
struct Sent {
    /// The transmission number of its last copy (0: never sent).
    last_tx: u64,
    /// Statuses the sender had received when its last copy went.
    statuses_at_send: u64,
}

type Slot<F> = window::Slot<F, bool, Sent>;

/// Counters a test or trace can read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// First transmissions.
    pub new_frames: u64,
    /// Retransmissions of frames a status reported missing.
    pub reported_resends: u64,
    /// Retransmissions by the poll timer (BS).
    pub poll_resends: u64,
    /// Frames sent with the poll bit.
    pub polls: u64,
    /// Statuses received.
    pub statuses: u64,
}

/// The sending side of one direction.
#[derive(Clone, Debug)]
pub struct Sender<F> {
    role: Role,
    cfg: AirmailConfig,
    /// The window, from `vs` (the oldest frame not acked).
    window: Window<F, bool, Sent>,
    next_tx: u64,
    /// The next transmission carries the poll bit (BS).
    poll_pending: bool,
    /// The next retransmission is the poll timer's (BS).
    poll_resend: bool,
    last_activity: Time,
    stats: SenderStats,
}

impl<F: Copy> Sender<F> {
    /// A sender at `role` with `cfg` (which must validate).
    pub fn new(role: Role, cfg: AirmailConfig) -> Sender<F> {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        Sender {
            role,
            cfg,
            window: Window::new(cfg.window_frames, None),
            next_tx: 1,
            poll_pending: false,
            poll_resend: false,
            last_activity: Time::ZERO,
            stats: SenderStats::default(),
        }
    }

    /// Its counters.
    #[inline]
    pub fn stats(&self) -> SenderStats {
        self.stats
    }

    /// Its end.
    #[inline]
    pub fn role(&self) -> Role {
        self.role
    }

    /// The oldest frame not acked.
    #[inline]
    pub fn floor(&self) -> Seq {
        self.window.base()
    }

    /// When the poll timer runs out (the BS, with frames unresolved); the
    /// MH keeps no timer: always `None`.
    pub fn deadline(&self) -> Option<Time> {
        (self.role == Role::Bs && self.window.any_unresolved()).then(|| self.last_activity.plus_ns(self.cfg.poll_ns))
    }

    /// The window as a handoff carries it.
    fn export(&self) -> (Seq, u64, Vec<Unacked<F>>) {
        let w = self.window.iter().enumerate();
        let unacked = w
            .map(|(i, s)| Unacked { seq: self.window.seq(i), frame: s.frame, last_tx: s.x.last_tx, acked: s.acked })
            .collect();
        (self.window.base(), self.next_tx, unacked)
    }
}

impl<F: Copy> ArqSender<F> for Sender<F> {
    type Ack = Status;
    type Header = Header;

    #[inline]
    fn has_room(&self) -> bool {
        self.window.has_room()
    }

    fn offer(&mut self, _now: Time, frame: F) -> Seq {
        debug_assert!(self.has_room());
        self.window.push(Slot::new(frame, Sent { last_tx: 0, statuses_at_send: 0 }))
    }

    fn next(&self, _now: Time) -> Option<Send<F>> {
        // Reported missing (or polled for) first, oldest first; then new.
        let i = self.window.first_due().or_else(|| self.window.first_new(usize::MAX))?;
        Some(self.window.pick(i))
    }

    fn on_transmit(&mut self, now: Time, seq: Seq) -> Header {
        let tx = self.next_tx;
        self.next_tx += 1;
        let statuses = self.stats.statuses;
        let s = self.window.slot_mut(seq).expect("sending a frame in the window");
        let resend = s.transmissions > 0;
        s.x = Sent { last_tx: tx, statuses_at_send: statuses };
        s.transmissions += 1;
        s.due = false;
        if resend && std::mem::take(&mut self.poll_resend) {
            self.stats.poll_resends += 1;
        } else if resend {
            self.stats.reported_resends += 1;
        } else {
            self.stats.new_frames += 1;
        }
        // The BS polls on the last frame of a burst, or when told to.
        let poll = self.role == Role::Bs && (self.poll_pending || self.next(now).is_none());
        if poll {
            self.poll_pending = false;
            self.stats.polls += 1;
        }
        self.last_activity = now;
        Header { tx, poll }
    }

    fn on_ack(&mut self, now: Time, st: Status) -> u32 {
        self.stats.statuses += 1;
        let mut completed = 0;
        let mut settled_any = false;
        let role = self.role;
        let statuses = self.stats.statuses;
        for i in 0..self.window.len() {
            let seq = self.window.seq(i);
            let s = &mut self.window[i];
            if s.acked || s.transmissions == 0 {
                continue;
            }
            if st.received(seq) {
                s.acked = true;
                s.due = false;
                completed += 1;
                settled_any = true;
            } else if s.x.last_tx < st.tx_rx || (role == Role::Mh && statuses >= s.x.statuses_at_send + 2) {
                // Proven lost; or (MH) a second status since its last copy.
                s.due = true;
                settled_any = true;
            }
        }
        // The poll timer restarts on a status that settled something: one
        // that says nothing new (a gap-timer status repeating itself) must
        // not hold off the poll forever.
        if settled_any {
            self.last_activity = now;
        }
        self.window.slide();
        completed
    }

    /// The BS's poll timer ran out: the oldest unresolved frame goes again
    /// with the poll bit. Never called at the MH (it keeps no timer).
    fn on_timeout(&mut self, now: Time) -> Expiry<F> {
        assert_eq!(self.role, Role::Bs, "the MH keeps no retransmission timer");
        self.last_activity = now;
        let i = self.window.first_unresolved().expect("a poll waits for an unresolved frame");
        self.window[i].due = true;
        self.poll_pending = true;
        self.poll_resend = true;
        Expiry::Resend
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
    /// Data frames that arrived intact.
    pub frames: u64,
    /// Of which copies of a frame already received.
    pub duplicates: u64,
    /// Frames handed up.
    pub handed_up: u64,
    /// Statuses sent at the end of a block of `N` frames (MH). A status
    /// with several causes counts once, under the first of block, poll,
    /// timer.
    pub block_statuses: u64,
    /// Statuses sent on a frame with the poll bit (MH).
    pub poll_statuses: u64,
    /// Statuses sent when the timer ran out (the BS's period, the MH's gap
    /// timer).
    pub timer_statuses: u64,
}

impl ReceiverStats {
    /// Statuses sent.
    #[inline]
    pub fn statuses(&self) -> u64 {
        self.block_statuses + self.poll_statuses + self.timer_statuses
    }
}

/// The receiving side of one direction.
#[derive(Clone, Debug)]
pub struct Receiver {
    role: Role,
    cfg: AirmailConfig,
    /// `vr` ([`Reorder::next`]), the bitmap, the frames to hand up (in order).
    rx: Reorder,
    tx_rx: u64,
    /// Frames arrived since the last status (MH).
    since_status: u32,
    /// When the gap timer was armed (MH, a frame missing).
    gap_since: Option<Time>,
    /// The next periodic status (BS).
    next_status: Time,
    stats: ReceiverStats,
}

impl Receiver {
    /// A receiver at `role` with `cfg`, created at `now` (the BS's period
    /// counts from it).
    pub fn new(role: Role, cfg: AirmailConfig, now: Time) -> Receiver {
        Receiver {
            role,
            cfg,
            rx: Reorder::new(true),
            tx_rx: 0,
            since_status: 0,
            gap_since: None,
            next_status: now.plus_ns(cfg.status_period_ns),
            stats: ReceiverStats::default(),
        }
    }

    /// Its end.
    #[inline]
    pub fn role(&self) -> Role {
        self.role
    }

    /// Its status.
    #[inline]
    pub fn status(&self) -> Status {
        Status { vr: self.rx.next, bitmap: self.rx.bitmap, tx_rx: self.tx_rx }
    }

    /// The next frame to hand up, in order.
    #[inline]
    pub fn pop_up(&mut self) -> Option<Seq> {
        self.rx.pop_up()
    }

    /// Its counters.
    #[inline]
    pub fn stats(&self) -> ReceiverStats {
        let c = self.rx.counts;
        ReceiverStats { frames: c.frames, duplicates: c.duplicates, handed_up: c.handed_up, ..self.stats }
    }

    /// When to call [`Receiver::on_status_timer`]: the BS's next periodic
    /// status; the MH's gap timer, if armed.
    pub fn status_deadline(&self) -> Option<Time> {
        match self.role {
            Role::Bs => Some(self.next_status),
            Role::Mh => self.gap_since.map(|t| t.plus_ns(self.cfg.gap_ns)),
        }
    }

    /// The timer ran out: the status to send (the BS's periodic one, the
    /// MH's gap-driven one).
    pub fn on_status_timer(&mut self, now: Time) -> Status {
        match self.role {
            Role::Bs => {
                self.next_status = self.next_status.plus_ns(self.cfg.status_period_ns);
                self.stats.timer_statuses += 1;
            }
            Role::Mh => {
                self.stats.timer_statuses += 1;
                self.reset_events(now);
            }
        }
        self.status()
    }

    /// A status went (MH): the block count restarts, the gap timer re-arms
    /// if a frame is still missing.
    fn reset_events(&mut self, now: Time) {
        self.since_status = 0;
        self.gap_since = (self.rx.bitmap != 0).then_some(now);
    }
}

impl ArqReceiver for Receiver {
    type Ack = Option<Status>;
    type Header = Header;

    fn on_frame(&mut self, now: Time, seq: Seq, h: Header) -> Receipt<Option<Status>> {
        self.tx_rx = self.tx_rx.max(h.tx);
        // No floor: AIRMAIL never gives a frame up.
        let fresh = self.rx.on_frame(seq, 0);
        if self.role == Role::Bs {
            return Receipt { deliver: fresh, ack: None };
        }
        self.since_status += 1;
        if self.rx.bitmap == 0 {
            self.gap_since = None;
        } else if self.gap_since.is_none() {
            self.gap_since = Some(now);
        }
        let block = self.since_status >= self.cfg.block_frames;
        let ack = if block || h.poll {
            if block {
                self.stats.block_statuses += 1;
            } else {
                self.stats.poll_statuses += 1;
            }
            self.reset_events(now);
            Some(self.status())
        } else {
            None
        };
        Receipt { deliver: fresh, ack }
    }
}

/// The state a BS hands its successor at a handoff (\[S, A\]): its
/// downlink sender's `vs` and window (unacked frames), its uplink
/// receiver's `vr` and bitmap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BsState<F> {
    /// The oldest downlink frame not acked.
    pub vs: Seq,
    /// The downlink's next transmission number.
    pub next_tx: u64,
    /// The downlink window from `vs`.
    pub unacked: Vec<Unacked<F>>,
    /// The next uplink frame expected.
    pub vr: Seq,
    /// Bit `i`: uplink frame `vr + 1 + i` received.
    pub bitmap: u64,
    /// The highest uplink transmission number received.
    pub tx_rx: u64,
}

/// A base station's two sides of one MH's link.
#[derive(Clone, Debug)]
pub struct Bs<F> {
    /// The downlink sender.
    pub down: Sender<F>,
    /// The uplink receiver.
    pub up: Receiver,
}

impl<F: Copy> Bs<F> {
    /// A BS with `cfg` (which must validate), at `now`.
    pub fn new(cfg: AirmailConfig, now: Time) -> Bs<F> {
        Bs { down: Sender::new(Role::Bs, cfg), up: Receiver::new(Role::Bs, cfg, now) }
    }

    /// Its state for the next BS. Uplink frames handed up must have been
    /// taken ([`Receiver::pop_up`]) first.
    pub fn export_state(&self) -> BsState<F> {
        debug_assert!(self.up.rx.nothing_up(), "uplink frames not taken before the handoff");
        let (vs, next_tx, unacked) = self.down.export();
        let st = self.up.status();
        BsState { vs, next_tx, unacked, vr: st.vr, bitmap: st.bitmap, tx_rx: st.tx_rx }
    }

    /// The new BS, at `now`, from its predecessor's state: its first frame
    /// polls the MH.
    pub fn from_state(cfg: AirmailConfig, now: Time, state: BsState<F>) -> Bs<F> {
        let mut down = Sender::new(Role::Bs, cfg);
        down.window.set_base(state.vs);
        down.next_tx = state.next_tx;
        down.poll_pending = true;
        down.last_activity = now;
        for u in state.unacked {
            let mut slot = Slot::new(u.frame, Sent { last_tx: u.last_tx, statuses_at_send: 0 });
            slot.transmissions = u32::from(u.last_tx > 0);
            slot.acked = u.acked;
            down.window.push(slot);
        }
        let mut up = Receiver::new(Role::Bs, cfg, now);
        up.rx.next = state.vr;
        up.rx.bitmap = state.bitmap;
        up.tx_rx = state.tx_rx;
        Bs { down, up }
    }
}

/// A mobile host's two sides of its link.
#[derive(Clone, Debug)]
pub struct Mh<F> {
    /// The uplink sender.
    pub up: Sender<F>,
    /// The downlink receiver.
    pub down: Receiver,
}

impl<F: Copy> Mh<F> {
    /// An MH with `cfg` (which must validate), at `now`.
    pub fn new(cfg: AirmailConfig, now: Time) -> Mh<F> {
        Mh { up: Sender::new(Role::Mh, cfg), down: Receiver::new(Role::Mh, cfg, now) }
    }
}

#[cfg(test)]
mod tests;
