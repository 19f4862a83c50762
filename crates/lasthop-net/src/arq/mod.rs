//! Link-level ARQ: how a link's sender gets its frames across a lossy hop
//! and its receiver hands each up once (lasthop issue 34). One file per
//! member:
//!
//! - [`stop_and_wait`]: the "simple frame-by-frame protocol" of seed 001
//!   Sec. 5 (window 1, a one-bit sequence number, a link ack for every data
//!   frame, retransmission on a timeout), the link layer of the half-duplex
//!   packet radio ([`crate::mac::radio`]; ns-2's `Mac/Multihop` has none, so
//!   the paper is the source). Its acks may ride on data frames going the
//!   other way: that is the MAC's business, the ack is the same.
//!
//! - [`rlp`]: RLP (Nanda, Ejzak, Doshi 1994, through seed 002 Sec. 5.1),
//!   NAK-based selective repeat for a circuit-mode hop: a send sequence
//!   number on every transmission, the receiver's status (next expected,
//!   bitmap, highest ssn received) proving frames lost, in the basic and
//!   the enhanced (preemptive, piggybacked) forms.
//!
//! - [`airmail`]: AIRMAIL (Ayanoglu, Paul, La Porta, Sabnani, Gitlin 1995,
//!   through seed 002 Sec. 5.1), asymmetric selective repeat between a
//!   base station and a mobile host: the base station's status periodic,
//!   the mobile's event-driven and combined (a block of frames, a poll
//!   bit, a receive-gap timer), adaptive FEC ([`airmail::fec`]) and
//!   handoff with state transfer ([`airmail::BsState`]).
//!
//! - [`srp`]: SRP (Yavatkar and Bhagwat 1994, through seed 002 Sec. 5.3),
//!   the selective repeat under MTCP's split session (MHP) over the 1-2
//!   hops between the base station and the mobile host: a SACK naming the
//!   missing packet on every out-of-sequence arrival, several losses
//!   recovered per round trip, a window that falls to one on a timeout and
//!   rebuilds, and handoff with its state, buffers included
//!   ([`srp::SrpState`], sized for the transfer).
//!
//! The selective-repeat members share two pieces (crate-private): a
//! sender's window of frames (`window::Window<F, D, X>`: numbering, sliding
//! past settled frames, giving up at the retry limit and the timeout's
//! give-up tail, [`ArqSender::on_delivered`], [`ArqSender::holds`],
//! [`ArqSender::in_flight`]; `D` the member's reasons for a frame being
//! due, `X` its own per-frame state) and a receiver's hand-up
//! (`reorder::Reorder`: in order or out of order, never a second copy,
//! past frames behind the sender's floor, with the frames, duplicates and
//! handed-up counters). A new window member reuses both and adds one file
//! with its own rules: when a frame is lost and goes again, what its acks
//! and headers carry, its timers (as RLP's ssn loss rule, SRP's window and
//! RTO, AIRMAIL's asymmetric status). Its tests share `test_channel`'s
//! preamble and ns-3 grid.
//!
//! WAP's WTP is not a link ARQ but a transaction protocol over datagrams,
//! end to end between the handset and the gateway: it lives in
//! [`crate::wap`].
//!
//! # The interface
//!
//! A member has two sides, one at each end of a link (a point-to-point
//! link, or a pair of stations on a shared medium): a sender
//! ([`ArqSender`]) and a receiver ([`ArqReceiver`]). Both are sans-IO: no
//! clock, no scheduler, `now` passed in; they never see a packet, only the
//! caller's frames (`F`: a pool handle, [`crate::queue::Waiting`] in the
//! radio, or anything `Copy`), numbered by the sender ([`Seq`]). What goes
//! between them is the caller's to carry: data frames with their number
//! and the member's header ([`ArqSender::Header`], what
//! [`ArqSender::on_transmit`] returns: RLP's send sequence number;
//! stop-and-wait's is `()`), and the receiver's acks ([`ArqReceiver::Ack`],
//! the member's own form: stop-and-wait's is the number of the frame acked;
//! a selective-repeat member's can carry the set of frames it misses, a
//! NAK, RLP's its status).
//!
//! Sender side:
//!
//! - [`ArqSender::has_room`], [`ArqSender::offer`]`(now, frame)`: a frame
//!   to send, taken into the window (if it has room) and numbered.
//! - [`ArqSender::next`]`(now)`: the frame to put on the link next, if any:
//!   a new one, or one due again (`retransmission`), a frame whose ack is
//!   awaited being none. The caller decides when the link or medium lets it
//!   go, and tells [`ArqSender::on_transmit`]`(now, seq)` when it does,
//!   which answers the header the frame goes with.
//! - [`ArqSender::on_ack`]`(now, ack)`: a link ack (bare or carried by a
//!   data frame), answering how many frames it completed; an ack that
//!   reports frames missing makes those due again (`next` answers them).
//! - [`ArqSender::on_timeout`]`(now)`: the caller's retransmission timer ran
//!   out with no ack. The timer is the caller's: a MAC knows when a reply
//!   can no longer come (a radio that hears its peer's reply coming waits
//!   for its end), a point-to-point link arms one per transmission. The
//!   answer ([`Expiry`]) is when to retransmit: at once (`Resend`: `next`
//!   answers the frame again), or never (the retry limit is reached: the
//!   frame is dropped with [`DropCause::RetryLimit`], or, if the receiver
//!   had handed it up and only its acks were lost, let go of).
//! - [`ArqSender::on_delivered`]`(seq)`: the simulator's knowledge, not a
//!   message: the receiver handed frame `seq` up, so the caller may no
//!   longer read its packet ([`ArqSender::holds`] is false) and it no longer
//!   counts as in flight ([`ArqSender::in_flight`]). A sender that gives up
//!   on such a frame resynchronises with its receiver, standing in for the
//!   link reset a real protocol would need.
//!
//! Receiver side: [`ArqReceiver::on_frame`]`(now, seq, header)`: a data
//! frame arrived intact; the [`Receipt`] says whether to hand it up (a copy of a
//! frame already handed up never is: its ack was lost and the sender
//! resent it) and the ack to return.
//!
//! The hot path has no dynamic dispatch: a caller holds a member's sides
//! by their types (the radio holds [`stop_and_wait::Sender`]s and
//! [`stop_and_wait::Receiver`]s); a caller with a choice among members will
//! hold an enum of them, one match per call, never a `dyn` trait object.

pub mod airmail;
mod reorder;
pub mod rlp;
pub mod srp;
pub mod stop_and_wait;
#[cfg(test)]
mod test_channel;
mod window;

use lasthop_core::trace::DropCause;
use lasthop_core::Time;

/// A frame's number, given by the sender (stop-and-wait: 0 or 1).
pub type Seq = u32;

/// A frame for the link, from [`ArqSender::next`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Send<F> {
    pub seq: Seq,
    pub frame: F,
    /// It has been on the link before.
    pub retransmission: bool,
}

/// A receiver's answer to a data frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Receipt<A> {
    /// Hand the frame up: the first copy of it. (A member that hands up in
    /// order, RLP, keeps it for handing up when its receiver says so:
    /// [`rlp::Receiver::pop_up`].)
    pub deliver: bool,
    /// The ack to return to the sender.
    pub ack: A,
}

/// What a sender does when the caller's retransmission timer runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry<F> {
    /// Send the frame again ([`ArqSender::next`] answers it).
    Resend,
    /// The retry limit is reached and the receiver never got the frame: it
    /// is the caller's to drop, with `cause`.
    Drop { frame: F, cause: DropCause },
    /// The retry limit is reached but the receiver had handed the frame up
    /// (only its acks were lost): nothing to drop.
    GaveUpDelivered { frame: F },
}

/// The sending side of a link's ARQ (see the module docs).
pub trait ArqSender<F: Copy> {
    /// The receiver's acks, as [`ArqReceiver::Ack`].
    type Ack: Copy;
    /// What a data frame carries besides its number, as
    /// [`ArqReceiver::Header`] (stop-and-wait: nothing, `()`).
    type Header: Copy;
    /// The window has room for another frame.
    fn has_room(&self) -> bool;
    /// Take `frame` into the window (which must have room): its number.
    fn offer(&mut self, now: Time, frame: F) -> Seq;
    /// The frame to put on the link next, if any.
    fn next(&self, now: Time) -> Option<Send<F>>;
    /// Frame `seq` went on the link: its ack is awaited. The header it
    /// goes with.
    fn on_transmit(&mut self, now: Time, seq: Seq) -> Self::Header;
    /// A link ack came: how many frames it completed.
    fn on_ack(&mut self, now: Time, ack: Self::Ack) -> u32;
    /// The caller's timer ran out before an ack came.
    fn on_timeout(&mut self, now: Time) -> Expiry<F>;
    /// The receiver handed frame `seq` up (the simulator's knowledge).
    fn on_delivered(&mut self, seq: Seq);
    /// Frame `seq` is held: not known handed up, its packet still the
    /// caller's to read.
    fn holds(&self, seq: Seq) -> bool;
    /// Frames held: in the window and not known handed up.
    fn in_flight(&self) -> usize;
}

/// The receiving side of a link's ARQ (see the module docs).
pub trait ArqReceiver {
    /// What it answers a data frame with.
    type Ack: Copy;
    /// What a data frame carries besides its number.
    type Header: Copy;
    /// Frame `seq` arrived intact with `header`: hand it up or not, and
    /// the ack.
    fn on_frame(&mut self, now: Time, seq: Seq, header: Self::Header) -> Receipt<Self::Ack>;
}
