//! RLP, the Radio Link Protocol of Nanda, Ejzak and Doshi, "A
//! retransmission scheme for circuit-mode data on wireless links", IEEE
//! JSAC 12(8), 1994: NAK-based selective repeat for a circuit-mode radio
//! hop (one frame slot per direction per slot time, a FIFO channel).
//!
//! (Its conference version: ICC '94, pp. 587ff., DOI 10.1109/ICC.1994.368837;
//! its abstract confirms the design's core, "frequent, complete or partial
//! feedback of the receiver state", for the US digital cellular TDMA channel
//! with packet error rates of 1e-3 to 1e-1 in long fades.)
//!
//! The primary paper was not read for lasthop; the rules below are the
//! survey's (seed 002, ElAarag 2002, Sec. 5.1, marked \[S\]) as the close
//! reading `elaarag-002.md` Sec. 1.5 spells them out, and lasthop's own
//! choices where the survey is silent (marked \[I\]). The primary's frame
//! layout, timers, window and retry rule could not be verified: each is a
//! parameter here ([`RlpConfig`]), with the reading's defaults.
//!
//! - \[S\] Both ends run it, symmetric, below IP; the channel delivers in
//!   order, and the scheme relies on that.
//! - \[S\]/\[I\] Data frames carry their number ([`Seq`]) and a send
//!   sequence number (`ssn`, [`Header::ssn`]): a counter that goes up on
//!   every transmission, new or repeated. The receiver's status
//!   ([`Status`]) is `S{vr, bitmap, ssn_rx}`: the next frame it expects,
//!   which frames above it it has, and the highest `ssn` it has received.
//! - \[S\] The loss rule: frame `f` is lost **iff** it is unacked and the
//!   `ssn` of its last transmission is below `ssn_rx` in a status that
//!   reports on `f` (a later transmission arrived, so on a FIFO channel
//!   `f`'s last copy was lost). Only such frames are retransmitted, oldest
//!   first, before new frames: "the receiver gets no more than one copy of
//!   any packet".
//! - \[S\] Basic form ([`Form::Basic`]): with no frame known lost and none
//!   new, the slot stays idle, and the receiver's full status must come
//!   often. Enhanced form ([`Form::Enhanced`]): an idle slot carries a
//!   preemptive retransmission of an unacked frame not known lost, oldest
//!   first, round robin; and partial status (`vr`, `ssn_rx`, the first `k`
//!   bitmap bits, [`Receiver::partial_status`]) rides on data frames going
//!   the other way.
//! - \[I\] A stall timer: when frames are unresolved (sent, neither acked
//!   nor known lost) and nothing has gone on the link or come back that
//!   settled a frame for [`RlpConfig::stall_ns`], the oldest is sent again
//!   (without evidence: the one retransmission that may bring the receiver
//!   a second copy, which it never hands up). The basic form needs it for a
//!   lost last frame, which no later frame can prove lost. The timer is the
//!   caller's, as the family's interface has it: [`Sender::deadline`] says
//!   when to call [`ArqSender::on_timeout`].
//! - \[I\] Bounded retries ([`RlpConfig::retry_limit`], retransmissions
//!   after the first transmission, `None`: persistent): a frame known lost
//!   after `1 + limit` transmissions is dropped with
//!   [`DropCause::RetryLimit`] ([`Sender::pop_dropped`]). Data frames carry
//!   the sender's `floor` ([`Header::floor`]: every frame below it is
//!   settled), so the receiver stops waiting for a frame given up on (the
//!   primary protocol's way to resynchronise was not read). A
//!   limitation: in order, frames received behind the last frame given up
//!   wait for the next data frame to bring the new floor; if none comes
//!   (the transfer's end), they stay unhanded. Out of order has no such
//!   wait.
//! - \[I\] Delivery upward in order (default) or out of order
//!   ([`Delivery`]); never a second copy. [`Receipt::deliver`] says a
//!   frame is a first copy (the caller keeps it); [`Receiver::pop_up`]
//!   says which to hand up, and when (in order: possibly later, several
//!   at once).
//! - \[I\] Window `window_frames`, default 64 (the reading's default), at
//!   most 64: the bitmap is a `u64`. Sequence numbers are not taken modulo
//!   anything (a `u32` and a `u64` counter): lasthop departs from a real
//!   frame layout there, which needs modular numbers.
//! - \[I\] Feedback: the full status every `feedback_period_slots` slots
//!   (default 4), partial status (`partial_bits`, default 8) on every
//!   reverse data frame in the enhanced form. When to send status is the
//!   caller's (it owns the slots); the receiver answers every frame with
//!   its status and [`Receiver::partial_suffices`] says whether a partial
//!   one says all it knows.
//!
//! # Driving it over a point-to-point link
//!
//! A caller holds a [`Sender`] and a [`Receiver`] per direction. Per slot,
//! on the forward side: offer frames while [`ArqSender::has_room`]; take
//! [`ArqSender::next`] and, if there is one, put it on the link with the
//! [`Header`] [`ArqSender::on_transmit`] returns; arm a timer at
//! [`Sender::deadline`] and call [`ArqSender::on_timeout`] when it fires.
//! On the reverse side, hand each arriving status to
//! [`ArqSender::on_ack`] and drain [`Sender::pop_dropped`]. At the far end,
//! each intact data frame goes to [`ArqReceiver::on_frame`] with its
//! header; hand up what [`Receiver::pop_up`] yields, in that order; send
//! [`Receiver::status`] in the reverse slot every feedback period, or a
//! [`Receiver::partial_status`] on a reverse data frame.

use super::reorder::Reorder;
use super::window::{self, Window};
use super::{ArqReceiver, ArqSender, Expiry, Receipt, Send, Seq};
#[cfg(any(test, doc))] // the docs name it; the tests use it
use lasthop_core::trace::DropCause;
use lasthop_core::Time;
use std::collections::VecDeque;

/// A send sequence number: one per transmission, counting from 1 (0: none).
pub type Ssn = u64;

/// The largest window the bitmap can report on.
pub const MAX_WINDOW: u32 = 64;

/// What an idle slot carries (\[S\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Nothing: only frames known lost are retransmitted.
    Basic,
    /// A preemptive retransmission of an unacked frame not known lost.
    Enhanced,
}

/// The order frames are handed up in (\[I\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// In sequence order; a frame given up on is skipped.
    InOrder,
    /// As first copies arrive.
    OutOfOrder,
}

/// RLP's parameters (\[I\] defaults, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RlpConfig {
    /// Frames in the sender's window, 1 to [`MAX_WINDOW`].
    pub window_frames: u32,
    /// Basic or enhanced.
    pub form: Form,
    /// Retransmissions of a frame before it is dropped (`None`: never).
    pub retry_limit: Option<u32>,
    /// The stall timer, in ns.
    pub stall_ns: u64,
    /// In order or out of order.
    pub delivery: Delivery,
    /// Slots between full status frames (the caller's schedule).
    pub feedback_period_slots: u32,
    /// Bitmap bits in a partial status piggybacked on a data frame.
    pub partial_bits: u32,
}

impl Default for RlpConfig {
    fn default() -> RlpConfig {
        RlpConfig {
            window_frames: 64,
            form: Form::Enhanced,
            retry_limit: None,
            stall_ns: 100_000_000,
            delivery: Delivery::InOrder,
            feedback_period_slots: 4,
            partial_bits: 8,
        }
    }
}

impl RlpConfig {
    /// The first invalid field and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if self.window_frames == 0 || self.window_frames > MAX_WINDOW {
            return Err(("window_frames", "must be 1 to 64 (the status bitmap's width)"));
        }
        if self.retry_limit == Some(0) {
            return Err(("retry_limit", "must be at least 1, or none for persistent"));
        }
        if self.stall_ns == 0 {
            return Err(("stall_ns", "must be positive"));
        }
        if self.feedback_period_slots == 0 {
            return Err(("feedback_period_slots", "must be at least 1"));
        }
        if self.partial_bits > MAX_WINDOW {
            return Err(("partial_bits", "must be at most 64 (the status bitmap's width)"));
        }
        Ok(())
    }
}

/// What a data frame carries besides its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// This transmission's send sequence number.
    pub ssn: Ssn,
    /// Every frame below it is settled at the sender (acked or given up).
    pub floor: Seq,
}

/// The receiver's state as it reports it: full or partial.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// The next frame expected: every frame below it is received or given up.
    pub vr: Seq,
    /// Bit `i`: frame `vr + 1 + i` received.
    pub bitmap: u64,
    /// Bitmap bits that report (64: full status; fewer: partial).
    pub bits: u32,
    /// The highest send sequence number received.
    pub ssn_rx: Ssn,
}

impl Status {
    /// Whether this status reports on frame `seq`, and if so whether it
    /// was received (`Some(true)`) or is missing (`Some(false)`).
    #[inline]
    pub fn reports(&self, seq: Seq) -> Option<bool> {
        if seq < self.vr {
            return Some(true);
        }
        if seq == self.vr {
            return Some(false);
        }
        let i = seq - self.vr - 1;
        (i < self.bits).then(|| self.bitmap >> i & 1 == 1)
    }
}

/// Why a frame is due to go again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Due {
    /// Not due.
    #[default]
    No,
    /// Known lost by the loss rule.
    Lost,
    /// The stall timer ran out.
    Stall,
}

/// A frame in the sender's window; its own state is the ssn of its last
/// transmission (0: never sent).
type Slot<F> = window::Slot<F, Due, Ssn>;

/// Counters a test or trace can read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// First transmissions.
    pub new_frames: u64,
    /// Retransmissions of frames known lost.
    pub lost_resends: u64,
    /// Retransmissions after the stall timer.
    pub stall_resends: u64,
    /// Preemptive retransmissions (enhanced form).
    pub preemptive: u64,
    /// Frames dropped at the retry limit.
    pub dropped: u64,
}

/// The sending side of one direction of a link.
#[derive(Clone, Debug)]
pub struct Sender<F> {
    cfg: RlpConfig,
    /// The window, from `va` (the oldest frame not settled).
    window: Window<F, Due, Ssn>,
    next_ssn: Ssn,
    /// The last frame sent preemptively (round robin).
    preempt_after: Option<Seq>,
    /// When something last went on the link or a status settled a frame.
    last_activity: Time,
    dropped: VecDeque<(Seq, F)>,
    stats: SenderStats,
}

impl<F: Copy> Sender<F> {
    /// A sender with `cfg` (which must validate).
    pub fn new(cfg: RlpConfig) -> Sender<F> {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        Sender {
            cfg,
            window: Window::new(cfg.window_frames, cfg.retry_limit),
            next_ssn: 1,
            preempt_after: None,
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

    /// The oldest frame not settled (every frame below is acked or given up).
    #[inline]
    pub fn floor(&self) -> Seq {
        self.window.base()
    }

    /// The ssn frame `seq` last went with, if it is in the window and sent.
    pub fn last_ssn(&self, seq: Seq) -> Option<Ssn> {
        self.window.slot(seq).map(|s| s.x).filter(|&n| n > 0)
    }

    /// A frame dropped at the retry limit, oldest first: the caller's to
    /// drop with [`DropCause::RetryLimit`].
    pub fn pop_dropped(&mut self) -> Option<(Seq, F)> {
        self.dropped.pop_front()
    }

    /// When the stall timer runs out, if frames are unresolved.
    pub fn deadline(&self) -> Option<Time> {
        self.window.any_unresolved().then(|| self.last_activity.plus_ns(self.cfg.stall_ns))
    }

    /// The frame to preempt next: round robin over unresolved frames,
    /// oldest first after the last one preempted.
    fn preempt_candidate(&self) -> Option<usize> {
        let ok = |s: &Slot<F>| s.unresolved() && !self.window.exhausted(s.transmissions);
        let va = self.window.base();
        // Just after the last one preempted, if it is still in the window.
        let start = self.preempt_after.filter(|&p| p >= va).map_or(0, |p| (p - va) as usize + 1);
        let after = self.window.iter().enumerate().skip(start).find(|(_, s)| ok(s));
        after.or_else(|| self.window.iter().enumerate().take(start).find(|(_, s)| ok(s))).map(|(i, _)| i)
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
        self.window.push(Slot::new(frame, 0))
    }

    fn next(&self, _now: Time) -> Option<Send<F>> {
        // Known lost (or stalled) first, oldest first; then new frames.
        if let Some(i) = self.window.first_due().or_else(|| self.window.first_new(usize::MAX)) {
            return Some(self.window.pick(i));
        }
        match self.cfg.form {
            Form::Basic => None,
            Form::Enhanced => self.preempt_candidate().map(|i| self.window.pick(i)),
        }
    }

    fn on_transmit(&mut self, now: Time, seq: Seq) -> Header {
        let ssn = self.next_ssn;
        self.next_ssn += 1;
        self.last_activity = now;
        let floor = self.window.base();
        let form = self.cfg.form;
        let s = self.window.slot_mut(seq).expect("sending a frame in the window");
        let kind = match (s.transmissions, s.due) {
            (0, _) => 0,
            (_, Due::Lost) => 1,
            (_, Due::Stall) => 2,
            (_, Due::No) => 3,
        };
        s.x = ssn;
        s.transmissions += 1;
        s.due = Due::No;
        match kind {
            0 => self.stats.new_frames += 1,
            1 => self.stats.lost_resends += 1,
            2 => self.stats.stall_resends += 1,
            _ => {
                debug_assert_eq!(form, Form::Enhanced, "only the enhanced form preempts");
                self.stats.preemptive += 1;
                self.preempt_after = Some(seq);
            }
        }
        Header { ssn, floor }
    }

    fn on_ack(&mut self, now: Time, st: Status) -> u32 {
        let mut completed = 0;
        let mut settled_any = false;
        for i in 0..self.window.len() {
            let seq = self.window.seq(i);
            let s = self.window[i];
            if s.settled() || s.transmissions == 0 {
                continue;
            }
            match st.reports(seq) {
                Some(true) => {
                    self.window[i].acked = true;
                    self.window[i].due = Due::No;
                    completed += 1;
                    settled_any = true;
                }
                // The loss rule: its last copy went before a copy that arrived.
                Some(false) if s.x < st.ssn_rx => {
                    settled_any = true;
                    if let Some(d) = self.window.lost(i, Due::Lost) {
                        self.stats.dropped += 1;
                        self.dropped.push_back(d);
                    }
                }
                _ => {}
            }
        }
        if settled_any {
            self.last_activity = now;
        }
        self.window.slide();
        completed
    }

    fn on_timeout(&mut self, now: Time) -> Expiry<F> {
        self.last_activity = now;
        let i = self.window.first_unresolved().expect("a stall waits for an unresolved frame");
        let e = self.window.time_out(i, Due::Stall);
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
    /// Data frames that arrived intact.
    pub frames: u64,
    /// Of which copies of a frame already received (or given up).
    pub duplicates: u64,
    /// Frames handed up.
    pub handed_up: u64,
}

/// The receiving side of one direction of a link.
#[derive(Clone, Debug)]
pub struct Receiver {
    /// `vr` ([`Reorder::next`]), the bitmap, the frames to hand up.
    rx: Reorder,
    ssn_rx: Ssn,
}

impl Receiver {
    /// A receiver handing frames up in `cfg`'s order.
    pub fn new(cfg: &RlpConfig) -> Receiver {
        Receiver { rx: Reorder::new(cfg.delivery == Delivery::InOrder), ssn_rx: 0 }
    }

    /// Its full status.
    #[inline]
    pub fn status(&self) -> Status {
        Status { vr: self.rx.next, bitmap: self.rx.bitmap, bits: MAX_WINDOW, ssn_rx: self.ssn_rx }
    }

    /// Its partial status: `vr`, `ssn_rx` and the first `k` bitmap bits.
    #[inline]
    pub fn partial_status(&self, k: u32) -> Status {
        let mask = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        Status { vr: self.rx.next, bitmap: self.rx.bitmap & mask, bits: k, ssn_rx: self.ssn_rx }
    }

    /// A partial status of `k` bits says all the full one would: nothing
    /// received beyond its bits.
    #[inline]
    pub fn partial_suffices(&self, k: u32) -> bool {
        k >= 64 || self.rx.bitmap >> k == 0
    }

    /// The next frame to hand up, in the configured order.
    #[inline]
    pub fn pop_up(&mut self) -> Option<Seq> {
        self.rx.pop_up()
    }

    /// Its counters.
    #[inline]
    pub fn stats(&self) -> ReceiverStats {
        let c = self.rx.counts;
        ReceiverStats { frames: c.frames, duplicates: c.duplicates, handed_up: c.handed_up }
    }
}

impl ArqReceiver for Receiver {
    type Ack = Status;
    type Header = Header;

    fn on_frame(&mut self, _now: Time, seq: Seq, h: Header) -> Receipt<Status> {
        self.ssn_rx = self.ssn_rx.max(h.ssn);
        let fresh = self.rx.on_frame(seq, h.floor);
        Receipt { deliver: fresh, ack: self.status() }
    }
}

#[cfg(test)]
mod tests;
