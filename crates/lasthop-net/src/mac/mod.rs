//! Media access: shared media with several stations (lasthop issue 12).
//!
//! A MAC is one shared medium and the stations on it. The world hands it
//! frames (a queued packet, by its pool handle, and the station it must
//! reach next) and wakes it when it asks to be woken; the MAC answers with
//! what happened to frames, in a reusable buffer of [`MacOutput`]s. Control
//! frames (RTS, CTS, link-level acks), turnarounds, backoffs and link-level
//! retransmissions never leave the MAC: the world sees data frames only.
//!
//! Members (one file each, enum dispatch in [`Mac`]):
//!
//! - [`radio`]: the half-duplex packet radio of seed 001 Sec. 5
//!   (Metricom Ricochet, ns-2's `Mac/Multihop`): RTS/CTS polling, turnaround
//!   times, exponential backoff, stop-and-wait link ARQ with piggybacked
//!   link acks.
//! - (next, issue 13) IEEE 802.11 DCF.
//! - (later) the point-to-point full- and half-duplex links of
//!   [`crate::link`], as the two simplest MACs (see below); not converted yet.
//!
//! # The interface
//!
//! Inputs, all sans-IO (no clock, no scheduler: `now` is passed in):
//!
//! - [`Mac::enqueue`]`(now, station, next_hop, frame, out)`: a frame queued
//!   at `station` for `next_hop`. Answers an [`Admission`] as
//!   [`crate::link::Link::enqueue`] does: `Refused` means the station's queue
//!   was full; the drop is counted and the packet is the caller's to free.
//!   The station may start acting at once (its outputs go to `out`).
//! - [`Mac::on_timer`]`(now, out)`: the time [`Mac::poll_at`] asked for has
//!   come. Every internal event due at or before `now` runs, in the order
//!   documented by the member (for the radio: hand-ups, then frame
//!   receptions ending, then station timers, then receptions starting; ties
//!   by index).
//!
//! Frames arriving at a station (data and control) are inputs of the
//! member's state machine (`on_rts`, `on_cts`, `on_data`, `on_link_ack` in
//! [`radio`]), but they are internal events of the MAC, not calls from the
//! world: the MAC is the medium (it decides who hears what, which a half-
//! duplex radio or a collision makes a property of the medium and not of
//! one frame), and the simulator's events carry no payload (a packed
//! 64-bit word; see `lasthop-sim`'s scheduler), so frames on the air must
//! be held by whoever schedules their arrival anyway, as
//! [`crate::link::Link`] holds its transit FIFO today.
//!
//! Outputs ([`MacOutput`], appended to the caller's `out`, which the caller
//! drains and reuses: no allocation per event):
//!
//! - `Transmit`: a data frame went on the medium (first time or a link-level
//!   retransmission): goodput accounting and captures.
//! - `Deliver`: a data frame reached `station` intact, for the first time;
//!   the caller hands it up (delivers it, or forwards it on the next hop).
//!   Duplicates the link ARQ suppressed never appear.
//! - `Drop`: the MAC let go of a frame with a [`MacDropCause`]; the packet is
//!   the caller's to free and record.
//! - "Wake me at t": [`Mac::poll_at`], read after every call (as the
//!   world reads a TCP endpoint's `poll_at`).
//!
//! [`Mac::in_flight`] counts the frames the MAC holds (queued, being sent or
//! waiting for their link ack and not yet delivered, or handed up but not yet
//! out of the fixed hand-up latency): the world's conservation invariant adds
//! it to its links' in-flight count.
//!
//! Randomness: every member draws from [`lasthop_core::RngStream`]s the
//! caller makes, one per station, named by the caller (the world will use
//! `mac:<medium>:<station>:backoff`), so adding a station never shifts
//! another's draws. Error models ([`crate::error::ErrorModel`]) are per
//! sending station, consulted once per frame it puts on the air (control
//! frames included), as a link direction's model is per transmission.
//!
//! # How the world will drive it (not wired yet)
//!
//! 1. Build: per medium in the scenario, `Mac::Radio(Box::new(Radio::new(cfg,
//!    n_stations, |s| stream(s))))`, each station bound to a node; give the
//!    MAC a timer key after the agents' (`Event::Wake` with endpoint
//!    `2·flows + agents + mac`, or a new `Event::MacWake { mac }` tag).
//! 2. `forward(node, pkt)`: when the hop from `node` is on a medium, put the
//!    packet in the pool and call `enqueue(now, station(node),
//!    station(next node), waiting, &mut out)`; `Refused` is a queue drop
//!    exactly as for a link. Then process `out` (step 4) and re-arm.
//! 3. On the MAC's wake: `on_timer(now, &mut out)`, process `out`, re-arm.
//! 4. Processing `out`: `Transmit` -> `account_tx` (goodput, captures);
//!    `Deliver { station, frame }` -> take the packet from the pool and run
//!    what `on_arrival` runs after its corruption check (agents, then deliver
//!    or forward from the station's node); `Drop` -> free and `drop()` with
//!    the cause mapped (`Queue` -> `DropCause::Queue`; `RetryLimit` needs a
//!    new `DropCause` variant).
//! 5. Re-arm: `if mac.poll_at() < armed { set_timer(key, poll_at) }`, the
//!    endpoints' early-wake habit: a later want is served by the early wake.
//! 6. Invariants: `in_flight()` joins the links' in-flight count; the MAC's
//!    own counters (drops by cause) join the drop counters.
//!
//! # The point-to-point links as MACs (not converted)
//!
//! A [`crate::link::Link`] is a two-station MAC with no control frames and
//! no ARQ: full duplex is two stations each with a channel of its own
//! (transmission starts whenever the station is idle; arrival after the
//! propagation delay; the error model of the sending station decides
//! corruption at the transmission's start; a corrupted frame is dropped on
//! arrival with cause `Error`, which for a MAC is a `Drop` output); half
//! duplex is one channel the two stations take turns on. Its `TxDone` and
//! `Arrive` events become internal events behind `poll_at`; the world's
//! one-arrival-event-per-direction trick (arrivals are a FIFO) is kept by a
//! member that asks to be woken at its oldest arrival. They stay on their
//! dedicated fast path until that conversion is measured.

pub mod radio;

pub use radio::{Radio, RadioConfig, RadioStats};

use crate::queue::{Admission, Removal, Waiting};
use lasthop_core::{PacketPool, Time};

/// A station on a medium: its index among the medium's stations.
pub type StationId = u16;

/// Why a MAC let go of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MacDropCause {
    /// The station's queue was full (drop-tail): the arrival was refused.
    Queue,
    /// The link ARQ gave up after its retry limit, the frame never having
    /// reached the next hop.
    RetryLimit,
}

/// What a MAC tells its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacOutput {
    /// A data frame went on the medium at `station`, addressed to `to`
    /// (`retransmission`: a link-level one). `held`: the MAC still holds
    /// the packet; a link retransmission of a frame the peer already handed
    /// up (its link ack was lost) is not, and its packet must not be read.
    Transmit { station: StationId, to: StationId, frame: Waiting, retransmission: bool, held: bool },
    /// A data frame reached `station` from `from` intact, for the first
    /// time: hand it up.
    Deliver { station: StationId, from: StationId, frame: Waiting },
    /// The MAC let go of a frame at `station`; the packet is the caller's.
    Drop { station: StationId, frame: Waiting, cause: MacDropCause },
}

/// A shared medium and its stations: enum dispatch over the members.
#[derive(Clone, Debug)]
pub enum Mac {
    /// The half-duplex packet radio (boxed: a station set is large and the
    /// world's tables of media should stay compact).
    Radio(Box<Radio>),
}

impl Mac {
    /// Stations on the medium.
    pub fn stations(&self) -> usize {
        match self {
            Mac::Radio(r) => r.stations(),
        }
    }

    /// A frame queued at `station` for `next_hop` at `now` (see the module
    /// docs). `out` receives what the station does at once.
    /// As a link direction's queue, a composed discipline may let go of
    /// other frames (listed in `removed`, the caller's to free and count).
    #[must_use]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn enqueue(
        &mut self,
        now: Time,
        station: StationId,
        next_hop: StationId,
        frame: Waiting,
        pool: &mut PacketPool,
        removed: &mut Vec<Removal>,
        out: &mut Vec<MacOutput>,
    ) -> Admission {
        match self {
            Mac::Radio(r) => r.enqueue(now, station, next_hop, frame, pool, removed, out),
        }
    }

    /// Run every internal event due at or before `now`.
    #[inline]
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<MacOutput>) {
        match self {
            Mac::Radio(r) => r.on_timer(now, out),
        }
    }

    /// When the MAC next needs [`Mac::on_timer`] ([`Time::NEVER`]: not
    /// until a frame is queued).
    #[inline]
    pub fn poll_at(&self) -> Time {
        match self {
            Mac::Radio(r) => r.poll_at(),
        }
    }

    /// Frames the MAC holds (queued, in progress, or being handed up).
    pub fn in_flight(&self) -> usize {
        match self {
            Mac::Radio(r) => r.in_flight(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::{Ecn, Packet, PacketKind, RngStream, TcpHeader};

    #[test]
    fn the_enum_drives_a_radio_as_the_world_will() {
        // t0: one packet queued at station 0 for station 1 of a two-radio
        // medium; the caller only follows poll_at until the MAC is done.
        let mut pool = PacketPool::new();
        let p = Packet {
            uid: 9,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 1,
            size_bytes: 1000,
            ecn: Ecn::NotEct,
            tcp: TcpHeader { len: 960, ..TcpHeader::default() },
        };
        let w = Waiting::new(&p, pool.put(p), 3);
        let radio = Radio::new(RadioConfig::default(), 2, |s| RngStream::new(1, &format!("mac:m:{s}:backoff")));
        let mut mac = Mac::Radio(Box::new(radio));
        let mut out = Vec::new();
        assert_eq!(mac.stations(), 2);
        assert_eq!(mac.poll_at(), Time::NEVER);
        assert!(mac.enqueue(Time::ZERO, 0, 1, w, &mut pool, &mut Vec::new(), &mut out).queued());
        assert_eq!(mac.in_flight(), 1);
        let mut got = Vec::new();
        while mac.poll_at() != Time::NEVER {
            let t = mac.poll_at();
            mac.on_timer(t, &mut out);
            got.extend(out.drain(..).map(|o| (t, o)));
        }
        // Transmitted at 46.15 ms (after RTS/CTS and three turnarounds),
        // handed up 81.28 ms later plus the 10 ms hand-up latency.
        assert_eq!(
            got,
            vec![
                (
                    Time(46_150_000),
                    MacOutput::Transmit { station: 0, to: 1, frame: w, retransmission: false, held: true }
                ),
                (Time(137_430_000), MacOutput::Deliver { station: 1, from: 0, frame: w }),
            ]
        );
        assert_eq!(mac.in_flight(), 0);
        assert_eq!(pool.take(w.pkt).uid, 9, "the MAC never frees the caller's packets");
    }
}
