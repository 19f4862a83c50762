//! The circuit's one dispatch site over the link-ARQ members it can carry
//! ([`crate::arq::rlp`], [`crate::arq::airmail`]): a station's sender and
//! receiver are enums of the members' sides, each method one `match`, no
//! dynamic dispatch. A member added to the circuit adds an arm here and
//! nowhere else in the circuit (its own status schedule aside, which
//! `circuit.rs` reads from [`Tx::role`]).

use crate::arq::airmail::{self, AirmailConfig, Role};
use crate::arq::rlp::{self, Form, RlpConfig};
use crate::arq::{ArqReceiver, ArqSender, Expiry, Send, Seq};
use lasthop_core::Time;

/// What a data frame carries besides its number, per member.
#[derive(Clone, Copy, Debug)]
pub(super) enum Header {
    Rlp(rlp::Header),
    Airmail(airmail::Header),
}

/// A receiver's status, per member.
#[derive(Clone, Copy, Debug)]
pub(super) enum Status {
    Rlp(rlp::Status),
    Airmail(airmail::Status),
}

/// A station's sender.
#[derive(Clone, Debug)]
pub(super) enum Tx<F> {
    Rlp(rlp::Sender<F>),
    Airmail(airmail::Sender<F>),
}

/// A station's receiver.
#[derive(Clone, Debug)]
pub(super) enum Rx {
    Rlp(rlp::Receiver),
    Airmail(airmail::Receiver),
}

/// A station's two sides: RLP's if `airmail` is `None`, else AIRMAIL's
/// at `role`.
pub(super) fn sides<F: Copy>(rlp: &RlpConfig, airmail: Option<(AirmailConfig, Role)>) -> (Tx<F>, Rx) {
    match airmail {
        None => (Tx::Rlp(rlp::Sender::new(*rlp)), Rx::Rlp(rlp::Receiver::new(rlp))),
        Some((cfg, role)) => {
            (Tx::Airmail(airmail::Sender::new(role, cfg)), Rx::Airmail(airmail::Receiver::new(role, cfg, Time::ZERO)))
        }
    }
}

impl<F: Copy> Tx<F> {
    #[inline]
    pub(super) fn has_room(&self) -> bool {
        match self {
            Tx::Rlp(t) => t.has_room(),
            Tx::Airmail(t) => t.has_room(),
        }
    }

    #[inline]
    pub(super) fn offer(&mut self, now: Time, frame: F) -> Seq {
        match self {
            Tx::Rlp(t) => t.offer(now, frame),
            Tx::Airmail(t) => t.offer(now, frame),
        }
    }

    #[inline]
    pub(super) fn next(&self, now: Time) -> Option<Send<F>> {
        match self {
            Tx::Rlp(t) => t.next(now),
            Tx::Airmail(t) => t.next(now),
        }
    }

    #[inline]
    pub(super) fn on_transmit(&mut self, now: Time, seq: Seq) -> Header {
        match self {
            Tx::Rlp(t) => Header::Rlp(t.on_transmit(now, seq)),
            Tx::Airmail(t) => Header::Airmail(t.on_transmit(now, seq)),
        }
    }

    /// A status of the other member's kind cannot come (both ends run
    /// the same member).
    #[inline]
    pub(super) fn on_status(&mut self, now: Time, status: Status) {
        match (self, status) {
            (Tx::Rlp(t), Status::Rlp(s)) => {
                t.on_ack(now, s);
            }
            (Tx::Airmail(t), Status::Airmail(s)) => {
                t.on_ack(now, s);
            }
            _ => unreachable!("both ends of a circuit run one member"),
        }
    }

    /// A frame given up on at the retry limit (RLP; AIRMAIL never gives up).
    #[inline]
    pub(super) fn pop_dropped(&mut self) -> Option<(Seq, F)> {
        match self {
            Tx::Rlp(t) => t.pop_dropped(),
            Tx::Airmail(_) => None,
        }
    }

    /// RLP's stall timer; AIRMAIL's poll timer (the BS's; the MH's none).
    #[inline]
    pub(super) fn deadline(&self) -> Option<Time> {
        match self {
            Tx::Rlp(t) => t.deadline(),
            Tx::Airmail(t) => t.deadline(),
        }
    }

    #[inline]
    pub(super) fn on_timeout(&mut self, now: Time) -> Expiry<F> {
        match self {
            Tx::Rlp(t) => t.on_timeout(now),
            Tx::Airmail(t) => t.on_timeout(now),
        }
    }

    #[inline]
    pub(super) fn on_delivered(&mut self, seq: Seq) {
        match self {
            Tx::Rlp(t) => t.on_delivered(seq),
            Tx::Airmail(t) => t.on_delivered(seq),
        }
    }

    #[inline]
    pub(super) fn floor(&self) -> Seq {
        match self {
            Tx::Rlp(t) => t.floor(),
            Tx::Airmail(t) => t.floor(),
        }
    }

    /// AIRMAIL's end (`None`: RLP, symmetric).
    #[inline]
    pub(super) fn role(&self) -> Option<Role> {
        match self {
            Tx::Rlp(_) => None,
            Tx::Airmail(t) => Some(t.role()),
        }
    }

    pub(super) fn rlp_stats(&self) -> Option<rlp::SenderStats> {
        match self {
            Tx::Rlp(t) => Some(t.stats()),
            Tx::Airmail(_) => None,
        }
    }

    pub(super) fn airmail_stats(&self) -> Option<airmail::SenderStats> {
        match self {
            Tx::Rlp(_) => None,
            Tx::Airmail(t) => Some(t.stats()),
        }
    }
}

/// What a receiver did with an intact data frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Got {
    /// A first copy: keep it for handing up.
    pub deliver: bool,
    /// A status is to go now (AIRMAIL's mobile end: end of a block, a poll).
    pub status_now: bool,
}

impl Rx {
    #[inline]
    pub(super) fn on_frame(&mut self, now: Time, seq: Seq, header: Header) -> Got {
        match (self, header) {
            (Rx::Rlp(r), Header::Rlp(h)) => Got { deliver: r.on_frame(now, seq, h).deliver, status_now: false },
            (Rx::Airmail(r), Header::Airmail(h)) => {
                let got = r.on_frame(now, seq, h);
                Got { deliver: got.deliver, status_now: got.ack.is_some() }
            }
            _ => unreachable!("both ends of a circuit run one member"),
        }
    }

    #[inline]
    pub(super) fn pop_up(&mut self) -> Option<Seq> {
        match self {
            Rx::Rlp(r) => r.pop_up(),
            Rx::Airmail(r) => r.pop_up(),
        }
    }

    /// The full status.
    #[inline]
    pub(super) fn status(&self) -> Status {
        match self {
            Rx::Rlp(r) => Status::Rlp(r.status()),
            Rx::Airmail(r) => Status::Airmail(r.status()),
        }
    }

    /// The status a periodic status slot carries: RLP's full status;
    /// AIRMAIL's timer status (the BS's period, counted as such).
    #[inline]
    pub(super) fn periodic_status(&mut self, now: Time) -> Status {
        match self {
            Rx::Rlp(r) => Status::Rlp(r.status()),
            Rx::Airmail(r) => Status::Airmail(r.on_status_timer(now)),
        }
    }

    /// The partial status a data frame piggybacks (RLP's enhanced form).
    #[inline]
    pub(super) fn partial_status(&self, rlp: &RlpConfig) -> Option<Status> {
        match self {
            Rx::Rlp(r) => (rlp.form == Form::Enhanced).then(|| Status::Rlp(r.partial_status(rlp.partial_bits))),
            Rx::Airmail(_) => None,
        }
    }

    /// AIRMAIL's mobile end's receive-gap timer (`None`: not armed, or
    /// another member or end).
    #[inline]
    pub(super) fn gap_deadline(&self) -> Option<Time> {
        match self {
            Rx::Airmail(r) if r.role() == Role::Mh => r.status_deadline(),
            _ => None,
        }
    }

    /// The gap timer ran out (AIRMAIL's mobile end): a status is to go.
    pub(super) fn on_gap_timer(&mut self, now: Time) {
        if let Rx::Airmail(r) = self {
            r.on_status_timer(now);
        }
    }

    pub(super) fn airmail_stats(&self) -> Option<airmail::ReceiverStats> {
        match self {
            Rx::Rlp(_) => None,
            Rx::Airmail(r) => Some(r.stats()),
        }
    }
}
