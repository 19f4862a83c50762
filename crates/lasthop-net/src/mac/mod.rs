//! Media access: who may send a frame on a medium, when, and whether it
//! arrived (lasthop issue 12). One file per member:
//!
//! - [`full_duplex`]: a point-to-point link with a channel per direction.
//! - [`half_duplex`]: a point-to-point link whose two directions share one
//!   channel and take turns (the 1997 WaveLAN hop).
//! - [`radio`]: the half-duplex packet radio of seed 001 Sec. 5
//!   (Metricom Ricochet, ns-2's `Mac/Multihop`): RTS/CTS polling, turnaround
//!   times, exponential backoff, stop-and-wait link ARQ
//!   ([`crate::arq::stop_and_wait`]) with piggybacked link acks.
//! - [`dcf`]: the IEEE 802.11 distributed coordination function of an
//!   802.11b cell (seed 004, ns-2's `Mac/802_11`): carrier sense, DIFS and
//!   EIFS, binary exponential backoff in slots, MAC acks, slot-synchronous
//!   collisions, a retry limit with head-of-line blocking, optional
//!   RTS/CTS (issue 13).
//!
//! The members share one vocabulary: a frame is a queued packet (its pool
//! handle, [`Waiting`]) offered at a station for a next station; the
//! station's queue answers an [`Admission`] (a refused frame, and the
//! victims a composed discipline let go of, are the caller's to free and
//! count); a frame leaves the MAC transmitted and then handed up intact,
//! or dropped with a cause (`Queue`, a queue's `Early`/`Filtered`,
//! `Error` for a corrupted frame, `RetryLimit`); the frames a MAC still
//! holds are counted by `in_flight`, which joins the world's conservation
//! invariant. Error models ([`crate::error::ErrorModel`]) are per sending
//! station and are consulted once per transmission.
//!
//! They differ in how the world wakes them, and that is the one place the
//! family has two shapes, chosen for speed:
//!
//! - **Two-station members** ([`full_duplex`], [`half_duplex`]; a
//!   [`Link`], the wire of [`point_to_point`], tagged with its member by
//!   [`Duplex`] and dispatched by enum on every frame). Their frames reach
//!   the far station in the order they left, after a fixed delay, so they
//!   are driven by keyed events of the simulator, one kind per station:
//!   `TxDone` (the frame on the channel is sent: [`Link::finish_transmission`],
//!   then the member picks the next frame, [`Link::start_transmission_after`])
//!   and `Arrive` (the oldest propagating frame reaches the far station:
//!   [`Link::take_arrival`]). One pending arrival per direction stands for
//!   the whole propagation FIFO, and each frame keeps the event key it was
//!   given when its transmission ended, so simultaneous events run in the
//!   order they would with one event per frame. A frame offered to an idle
//!   full-duplex direction with an empty queue goes on the channel at once
//!   ([`Link::start_at_once`]). This is the 1997 LAN's and the thousand-link
//!   dumbbell's hot path: a wake-up through [`Mac::poll_at`] would cost an
//!   indirection and an output buffer per frame, and would order same-
//!   nanosecond events by the medium's key instead of each frame's.
//! - **Shared media** ([`Mac`]: [`radio`], [`dcf`], [`circuit`]): several stations,
//!   control frames (RTS, CTS, link-level acks), turnarounds, backoffs and
//!   link-level retransmissions that never leave the MAC: the world sees
//!   data frames only. These are driven by wake-ups, described below. The
//!   machinery they share is written once (`medium`: frames on the air,
//!   the air log [`AirRecord`], the search for the next internal event and
//!   the loop that runs it; `station_queue`: each station's queue with its
//!   frames' next hops); their timing rules and state machines are their
//!   own.
//!
//! # The shared-medium interface
//!
//! Inputs, all sans-IO (no clock, no scheduler: `now` is passed in):
//!
//! - [`Mac::enqueue`]`(now, station, next_hop, frame, out)`: a frame queued
//!   at `station` for `next_hop`. Answers an [`Admission`] as
//!   [`Link::enqueue`] does: `Refused` means the station's queue
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
//! be held by whoever schedules their arrival anyway, as a [`Link`] holds
//! its propagation FIFO.
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
//! - `Retry`: an attempt to send a data frame failed and the frame will be
//!   sent again (802.11 only: the radio's link ARQ has no attempt limit to
//!   report against). LL-ELSN (issue 13 item 3) sends an ERSN at `attempt
//!   == 2`, the first link-level retransmission, at the failure and not at
//!   the retransmission (which a link retransmission delay may put 100 ms
//!   later); its ELN is the `Drop` with `RetryLimit`.
//! - "Wake me at t": [`Mac::poll_at`], read after every call (as the
//!   world reads a TCP endpoint's `poll_at`).
//!
//! [`Mac::in_flight`] counts the frames the MAC holds (queued, being sent or
//! waiting for their link ack and not yet delivered, or handed up but not yet
//! out of the fixed hand-up latency).
//!
//! Randomness: every member draws from [`lasthop_core::RngStream`]s the
//! caller makes, one per station, named by the caller (the world uses
//! `mac:<medium>:<station>:backoff`), so adding a station never shifts
//! another's draws.
//!
//! # How the world drives a shared medium
//!
//! 1. Build: per `[[media]]` entry, `Mac::Radio(Box::new(Radio::new(cfg,
//!    n_stations, |s| stream(s))))`, each station bound to a node; the MAC
//!    gets a timer key after the agents'.
//! 2. `forward(node, pkt)`: when the hop from `node` is on a medium, the
//!    packet goes in the pool and `enqueue(now, station(node),
//!    station(next node), waiting, &mut out)`; `Refused` is a queue drop
//!    exactly as for a link. Then `out` is processed (step 4) and re-armed.
//! 3. On the MAC's wake: `on_timer(now, &mut out)`, process `out`, re-arm.
//! 4. Processing `out`: `Transmit` -> goodput accounting and captures on
//!    the hop's link direction; `Deliver { station, frame }` -> what an
//!    intact arrival on a link runs (agents, then deliver or forward from
//!    the station's node); `Drop` -> free and record with the cause mapped
//!    (`Queue` -> `DropCause::Queue`, `RetryLimit` -> `DropCause::RetryLimit`).
//! 5. Re-arm: `if mac.poll_at() < armed { set_timer(key, poll_at) }`, the
//!    endpoints' early-wake habit: a later want is served by the early wake.

pub mod circuit;
pub mod dcf;
pub mod full_duplex;
pub mod half_duplex;
mod medium;
pub mod point_to_point;
pub mod radio;
mod station_queue;
#[cfg(test)]
pub(crate) mod test_support;

pub use circuit::{Circuit, CircuitConfig, CircuitStats, LinkState};
pub use dcf::{Dcf, DcfConfig, DcfStats};
pub use medium::{AirRecord, FrameClass, Heard};
pub use point_to_point::{Duplex, Link};
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
/// How a direction of a medium's hop goes down for an outage: the world's
/// semantics for a link's outage (its `world/outages.rs`), as a MAC takes
/// them (the circuit's module docs: only a circuit takes outages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outage {
    /// The station's queue is lost, frames in the air are lost, and what
    /// it sends while down is lost.
    Flush,
    /// Frames in the air are lost; the station sends nothing while down.
    Hold,
    /// Nothing is lost at the start; what it sends while down is lost.
    Blackhole,
}

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
    /// Attempt `attempt - 1` to send a data frame from `station` to `to`
    /// failed (no MAC ack: a collision or an error) and the frame will be
    /// sent again as attempt `attempt` (2: the first link-level
    /// retransmission). Emitted at the failure, before any backoff or link
    /// retransmission delay. `held` as in `Transmit`: false if the peer
    /// already handed the frame up (only its MAC ack was lost), and then
    /// its packet must not be read (`frame`'s own fields still hold).
    Retry { station: StationId, to: StationId, frame: Waiting, attempt: u32, held: bool },
}

/// A shared medium and its stations: enum dispatch over the members.
#[derive(Clone, Debug)]
pub enum Mac {
    /// The half-duplex packet radio (boxed: a station set is large and the
    /// world's tables of media should stay compact).
    Radio(Box<Radio>),
    /// The 802.11 DCF (boxed, as the radio).
    Dcf(Box<Dcf>),
    /// The RLP circuit (boxed, as the radio).
    Circuit(Box<Circuit>),
}

impl Mac {
    /// Stations on the medium.
    pub fn stations(&self) -> usize {
        match self {
            Mac::Radio(r) => r.stations(),
            Mac::Dcf(d) => d.stations(),
            Mac::Circuit(c) => c.stations(),
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
            Mac::Dcf(d) => d.enqueue(now, station, next_hop, frame, pool, removed, out),
            Mac::Circuit(c) => c.enqueue(now, station, next_hop, frame, pool, removed, out),
        }
    }

    /// Run every internal event due at or before `now`.
    #[inline]
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<MacOutput>) {
        match self {
            Mac::Radio(r) => r.on_timer(now, out),
            Mac::Dcf(d) => d.on_timer(now, out),
            Mac::Circuit(c) => c.on_timer(now, out),
        }
    }

    /// When the MAC next needs [`Mac::on_timer`] ([`Time::NEVER`]: not
    /// until a frame is queued).
    #[inline]
    pub fn poll_at(&self) -> Time {
        match self {
            Mac::Radio(r) => r.poll_at(),
            Mac::Dcf(d) => d.poll_at(),
            Mac::Circuit(c) => c.poll_at(),
        }
    }

    /// Station `station`'s direction goes down with `outage` at `now`, or
    /// comes up (`None`); a flush's packets go to `removed`. Only a
    /// circuit takes outages (the scenario model refuses them on the
    /// other media).
    #[cold]
    pub fn set_outage(&mut self, now: Time, station: StationId, outage: Option<Outage>, removed: &mut Vec<Removal>) {
        match self {
            Mac::Circuit(c) => c.set_outage(now, station, outage, removed),
            Mac::Radio(_) | Mac::Dcf(_) => unreachable!("outages act on circuits only"),
        }
    }

    /// The circuit, if the MAC is one.
    pub fn circuit(&self) -> Option<&Circuit> {
        match self {
            Mac::Circuit(c) => Some(c),
            Mac::Radio(_) | Mac::Dcf(_) => None,
        }
    }

    /// The circuit, if the MAC is one.
    pub fn circuit_mut(&mut self) -> Option<&mut Circuit> {
        match self {
            Mac::Circuit(c) => Some(c),
            Mac::Radio(_) | Mac::Dcf(_) => None,
        }
    }

    /// Frames the MAC holds (queued, in progress, or being handed up).
    pub fn in_flight(&self) -> usize {
        match self {
            Mac::Radio(r) => r.in_flight(),
            Mac::Dcf(d) => d.in_flight(),
            Mac::Circuit(c) => c.in_flight(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{frame, run};
    use super::*;
    use lasthop_core::RngStream;

    #[test]
    fn the_enum_drives_a_radio_as_the_world_will() {
        // t0: one packet queued at station 0 for station 1 of a two-radio
        // medium; the caller only follows poll_at until the MAC is done.
        let mut pool = PacketPool::new();
        let w = frame(&mut pool, 9, 1000);
        let radio = Radio::new(RadioConfig::default(), 2, |s| RngStream::new(1, &format!("mac:m:{s}:backoff")));
        let mut mac = Mac::Radio(Box::new(radio));
        let mut out = Vec::new();
        assert_eq!(mac.stations(), 2);
        assert_eq!(mac.poll_at(), Time::NEVER);
        assert!(mac.enqueue(Time::ZERO, 0, 1, w, &mut pool, &mut Vec::new(), &mut out).queued());
        assert_eq!(mac.in_flight(), 1);
        let mut got = Vec::new();
        run(&mut mac, Time::NEVER, &mut got);
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
