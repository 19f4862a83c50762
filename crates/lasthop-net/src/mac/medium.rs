//! The machinery the shared-medium members ([`super::radio`], seed 001
//! Sec. 5; [`super::dcf`], IEEE 802.11-1999 Sec. 9.2 as seed 004 runs it)
//! have in common (lasthop issue 34), written once:
//!
//! - the air ([`OnAir`]): every frame from the start of its transmission to
//!   the end of its reception ([`Air`]), numbered in the order frames went
//!   on the air (the tie-break of simultaneous events), with what the
//!   member needs to know of its reception (its `state`: a half-duplex
//!   radio's lock, the DCF's carrier sense and collisions);
//! - the air log ([`AirRecord`], [`FrameClass`], [`Heard`]): each frame's
//!   life on the air, off by default (diagnostics and tests);
//! - the medium's next internal event ([`Item`], found by [`Earliest`]),
//!   cached after every change of state, and the loop that runs every event
//!   due ([`run_due`], [`poll_at`]), in the order (time, class, tie):
//!   hand-ups, then receptions ending, then station timers, then receptions
//!   starting; ties by station index or by the order frames went on the air;
//! - the packet an error model is shown for a frame on the air
//!   ([`corrupts`]), once per transmission.
//!
//! The stations' queues are [`super::station_queue`]'s. What differs stays
//! with the member: its timing rules (the radio's polls and turnarounds,
//! the DCF's slots, DIFS/EIFS and backoff), its frames (`K`, the member's
//! `FrameKind`) and its state machine; the radio drives a link ARQ
//! ([`crate::arq`]), the DCF its MAC acks and retry limit.

use super::{MacOutput, StationId};
use crate::error::ErrorModel;
use crate::queue::Waiting;
use lasthop_core::{Ecn, Packet, PacketKind, TcpHeader, Time};

/// Which frame went on the air (for the air log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameClass {
    /// A poll (the radio) or a request to send (802.11).
    Rts,
    /// Its answer: a poll ack or a clear to send.
    Cts,
    Data,
    /// A data frame carrying a link ack (the radio's piggybacking).
    DataAck,
    /// A bare ack: the radio's link ack, 802.11's MAC ack.
    Ack,
}

/// What became of a frame at its addressee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    Intact,
    /// The sender's error model corrupted it.
    Corrupted,
    /// The addressee was transmitting or turning around (the radio).
    LostHalfDuplex,
    /// The addressee was receiving another frame, and kept that one (the
    /// radio's capture).
    LostCollision,
    /// It overlapped another frame on the channel, and both were lost
    /// (802.11: no capture).
    Collided,
}

/// One frame's life on the air (diagnostics and tests; off by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AirRecord {
    pub from: StationId,
    pub to: StationId,
    pub class: FrameClass,
    pub tx_start: Time,
    pub tx_end: Time,
    pub heard: Heard,
}

/// A frame on the air: `kind` (the member's frame) sent by `from` for `to`
/// from `start` to `end`, received from `rx_start` to `rx_end` (later by
/// the propagation delay), `corrupted` by its sender's error model, and
/// what its reception has come to (`state`, the member's).
#[derive(Clone, Copy, Debug)]
pub(super) struct Air<K, S> {
    pub(super) id: u64,
    pub(super) from: StationId,
    pub(super) to: StationId,
    pub(super) kind: K,
    pub(super) start: Time,
    pub(super) end: Time,
    pub(super) rx_start: Time,
    pub(super) rx_end: Time,
    pub(super) corrupted: bool,
    pub(super) state: S,
}

/// The frames on the air, in no order (each carries its id), and the air
/// log.
#[derive(Clone, Debug)]
pub(super) struct OnAir<K, S> {
    pub(super) frames: Vec<Air<K, S>>,
    next_id: u64,
    log: Option<Vec<AirRecord>>,
}

impl<K: Copy, S: Copy> OnAir<K, S> {
    /// Room for `frames` on the air at once before growing.
    pub(super) fn with_capacity(frames: usize) -> OnAir<K, S> {
        OnAir { frames: Vec::with_capacity(frames), next_id: 0, log: None }
    }

    /// `kind` goes on the air from `start` to `end`, and reaches its
    /// listeners `prop_ns` later (see [`Air`]).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push(
        &mut self,
        from: StationId,
        to: StationId,
        kind: K,
        (start, end): (Time, Time),
        prop_ns: u64,
        corrupted: bool,
        state: S,
    ) {
        let id = self.next_id;
        self.next_id += 1;
        let (rx_start, rx_end) = (start.plus_ns(prop_ns), end.plus_ns(prop_ns));
        self.frames.push(Air { id, from, to, kind, start, end, rx_start, rx_end, corrupted, state });
    }

    /// Frame `i` leaves the air (the last frame takes its place).
    #[inline]
    pub(super) fn take(&mut self, i: usize) -> Air<K, S> {
        self.frames.swap_remove(i)
    }

    /// Log `a`'s life on the air, if recording.
    #[inline]
    pub(super) fn log(&mut self, a: &Air<K, S>, class: FrameClass, heard: Heard) {
        if let Some(log) = self.log.as_mut() {
            log.push(AirRecord { from: a.from, to: a.to, class, tx_start: a.start, tx_end: a.end, heard });
        }
    }

    /// Start recording every frame's life on the air.
    pub(super) fn record(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// The frames recorded, in the order their receptions ended.
    pub(super) fn records(&self) -> &[AirRecord] {
        self.log.as_deref().unwrap_or(&[])
    }
}

/// A medium's internal event, by class (the order at one instant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Item {
    /// A frame received earlier is handed up (the radio's hand-up latency).
    HandUp,
    /// The reception of frame `i` on the air ends.
    RxEnd(usize),
    /// Station `s`'s timer.
    Station(usize),
    /// The reception of frame `i` on the air starts.
    RxStart(usize),
}

/// The search for the earliest event: (time, class, tie) smallest.
pub(super) struct Earliest(Option<(Time, u8, u64, Item)>);

impl Earliest {
    /// The stations' timers (`wakes`, in station order): the earliest, the
    /// lowest index among equals.
    #[inline]
    pub(super) fn of_stations(wakes: impl Iterator<Item = Time>) -> Earliest {
        let (mut wake, mut first) = (Time::NEVER, 0);
        for (s, w) in wakes.enumerate() {
            if w < wake {
                (wake, first) = (w, s);
            }
        }
        Earliest((wake != Time::NEVER).then_some((wake, 2, first as u64, Item::Station(first))))
    }

    /// A hand-up due at `at`.
    #[inline]
    pub(super) fn hand_up(&mut self, at: Time) {
        self.consider(at, 0, 0, Item::HandUp);
    }

    /// The frames on the air: receptions ending, for those whose reception
    /// has `started`, else starting.
    #[inline]
    pub(super) fn air<K, S>(&mut self, air: &OnAir<K, S>, started: impl Fn(&S) -> bool) {
        for (i, a) in air.frames.iter().enumerate() {
            if started(&a.state) {
                self.consider(a.rx_end, 1, a.id, Item::RxEnd(i));
            } else {
                self.consider(a.rx_start, 3, a.id, Item::RxStart(i));
            }
        }
    }

    #[inline]
    fn consider(&mut self, t: Time, class: u8, tie: u64, item: Item) {
        if t != Time::NEVER && self.0.is_none_or(|b| (t, class, tie) < (b.0, b.1, b.2)) {
            self.0 = Some((t, class, tie, item));
        }
    }

    #[inline]
    pub(super) fn found(self) -> Option<(Time, Item)> {
        self.0.map(|(t, _, _, item)| (t, item))
    }
}

/// A shared-medium member as [`run_due`] drives it. The member caches
/// its next event (`next_event`), searching again ([`Events::earliest`])
/// after every change of state, so that [`poll_at`] reads it.
pub(super) trait Events {
    /// The next event, as cached after the last change of state.
    fn next_event(&mut self) -> &mut Option<(Time, Item)>;
    /// Search for the next event.
    fn earliest(&self) -> Option<(Time, Item)>;
    /// Run `item`, due at `t`.
    fn run(&mut self, t: Time, item: Item, out: &mut Vec<MacOutput>);
}

/// When the medium `m`, whose cached next event is `next`, next needs
/// [`run_due`] (a debug assertion searches and compares).
#[inline]
pub(super) fn poll_at(next: Option<(Time, Item)>, m: &impl Events) -> Time {
    debug_assert_eq!(next, m.earliest(), "the cached next event");
    next.map_or(Time::NEVER, |(t, _)| t)
}

/// Run every internal event due at or before `now`, each at its own time.
#[inline]
pub(super) fn run_due(m: &mut impl Events, now: Time, out: &mut Vec<MacOutput>) {
    while let Some((t, item)) = *m.next_event() {
        if t > now {
            break;
        }
        m.run(t, item, out);
        let next = m.earliest();
        *m.next_event() = next;
    }
}

/// Whether `model` corrupts a frame of `size` bytes on the air for `tx_ns`
/// from `now`: a data frame's (`data`) header fields as it waited (its
/// packet may already have been handed up by the peer and freed, so the
/// pool is never read), or a control frame. Consulted once per
/// transmission.
#[inline(always)]
pub(super) fn corrupts(model: &mut ErrorModel, now: Time, tx_ns: u64, data: Option<&Waiting>, size: u32) -> bool {
    !model.is_none() && consult(model, now, tx_ns, data, size)
}

/// [`corrupts`] with a model that can corrupt.
fn consult(model: &mut ErrorModel, now: Time, tx_ns: u64, data: Option<&Waiting>, size: u32) -> bool {
    let (kind, seq, len) = match data {
        Some(frame) if frame.len > 0 => (PacketKind::Data, frame.seq, frame.len),
        _ => (PacketKind::Ack, 0, 0),
    };
    let p = Packet {
        uid: u64::MAX,
        flow: u32::MAX,
        kind,
        src: 0,
        dst: 0,
        size_bytes: size,
        ecn: Ecn::NotEct,
        tcp: TcpHeader { seq, len, ..TcpHeader::default() },
    };
    model.corrupts(now, tx_ns, &p)
}
