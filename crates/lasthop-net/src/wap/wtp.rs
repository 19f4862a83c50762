//! WTP, WAP's Wireless Transaction Protocol (WAP 1.x, "WTP" 30-Apr-1998
//! and 11-Jun-1999, not read from here: \[K\]), as the close reading
//! `elaarag-002.md` Sec. 1.13 spells it out from the survey (seed 002 Sec.
//! 5.3, \[S\]) and the Kannel gateway's code (`wap/wtp.h`,
//! `wtp_init.c`, `wtp_resp.c`, \[C:kannel\], through the reading; the code
//! itself was not read for this module). lasthop's own choices are \[I\].
//!
//! - \[K\] A transaction per exchange, named by a transaction id ([`Tid`]);
//!   PDUs Invoke, Result, Ack, Abort ([`Kind`]). Segmented Invoke/Result
//!   and NAck (SAR, selective repeat of a packet group) are **not
//!   modelled**: every message goes in one PDU.
//! - \[K\] Classes ([`Class`]): 0, an unreliable invoke (sent once, never
//!   retransmitted, no reply); 1, a reliable invoke with no result (the
//!   responder acks it); 2, a reliable invoke and a reliable result: the
//!   Result acks the Invoke implicitly, an explicit Ack ("hold on") goes
//!   out if the result is late (the responder's ack timer A), and the
//!   initiator acks the Result. Any other class is refused:
//!   `("class", "WTP has classes 0, 1 and 2")`.
//! - \[K; C:kannel\] Retransmission timer R with counter RCR: a PDU awaiting
//!   its ack is sent again every R, at most `MAX_RCR` = 8 times; when R
//!   runs out with RCR at the limit, the transaction aborts (reason
//!   [`AbortReason::NoResponse`], an Abort PDU to the peer). So a lost
//!   Invoke goes at 0, R, ..., 8R and the transaction aborts at 9R.
//!   Retransmissions carry the retransmission indicator (`rid`).
//! - \[K; C:kannel\] Ack expiry counter AEC ≤ `AEC_MAX` = 6 and wait timer
//!   W. Defaults ([`WtpConfig`]) are Kannel's, in seconds:
//!   `L_R_WITH_USER_ACK` 7 for R, `L_A_WITH_USER_ACK` 4 for A,
//!   `W_WITH_USER_ACK` 30 for W (Kannel's short and group values, S_R 3
//!   or 4, G_R 3, are a config away).
//! - \[C:kannel\] Responder states LISTEN, TIDOK_WAIT, INVOKE_RESP_WAIT,
//!   RESULT_WAIT, RESULT_RESP_WAIT, WAIT_TIMEOUT. lasthop keeps
//!   RESULT_WAIT (class 2, the invoke handed up, the result awaited),
//!   RESULT_RESP_WAIT (the Result sent, its ack awaited) and WAIT_TIMEOUT
//!   (class 1, the Ack sent); LISTEN is the absence of a transaction;
//!   TIDOK_WAIT (TID verification) and INVOKE_RESP_WAIT (user ack) are
//!   not modelled.
//!
//! Where lasthop departs or chooses (\[I\]):
//!
//! - Transaction ids are a `u32` counting up from 0 per initiator, never
//!   taken modulo 2^15 as a real TID is; in place of TID verification the
//!   responder remembers every tid it has handed up (a set growing by one
//!   per transaction: a simulator's memory, not a handset's), and an
//!   Invoke for one with no live transaction is a stale copy: never handed
//!   up (class 1: acked again, the peer may still wait for it). Invokes
//!   may arrive out of order (concurrent transactions).
//! - Responder, class 2: each time A runs out before the user's result,
//!   AEC counts it; the first expiry sends the hold-on Ack; when A runs
//!   out with AEC at `aec_max`, the responder aborts
//!   ([`AbortReason::NoResponse`]): the user had `(aec_max + 1)·A` (28 s)
//!   to answer. A retransmitted Invoke after the hold-on Ack is acked
//!   again.
//! - Initiator, class 2, after the hold-on Ack: the Invoke is no longer
//!   retransmitted on evidence; R still runs, and on its expiry the Invoke
//!   goes again as a probe (RCR counting), which the responder answers
//!   with its Ack; every Ack from the responder resets RCR (the peer is
//!   alive), so a slow user is bounded by the responder's AEC, a dead peer
//!   by RCR.
//! - Initiator, class 2, after the Result: it is handed up once, acked,
//!   and the transaction waits W (WAIT_TIMEOUT) to ack a retransmitted
//!   Result again (never handed up twice); after W the transaction is
//!   gone and a late Result is ignored (the responder's RCR ends its side).
//! - Aborts: either user may abort a live transaction
//!   ([`Initiator::abort`], [`Responder::abort`]): an Abort PDU
//!   ([`AbortReason::User`]) goes to the peer, whose transaction ends with
//!   an [`Event::Aborted`] marked `by_peer`. An Abort for a transaction
//!   already ended (its result handed up) changes nothing.
//! - The user's data are the caller's ([`Payload`], `u32`: a byte count).
//!
//! # Driving it
//!
//! Each end holds one side per peer address: the handset an
//! [`Initiator`] (it invokes), the gateway a [`Responder`]. Call
//! [`Initiator::invoke`] and, at the responder, [`Responder::result`] for
//! a class 2 invoke handed up; after every call, send what `pop_pdu`
//! yields, in that order, through the datagram service; hand every PDU
//! that arrives to `on_pdu`; arm a timer at `deadline` and call
//! `on_timer` when it fires; read `pop_event` for what to hand up.

use lasthop_core::Time;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A transaction id (\[I\]: counting up from 0 per initiator, no modulo).
pub type Tid = u32;

/// A config or call refused: the field (or argument) and why, one line.
pub type Refusal = (&'static str, &'static str);

/// The user's data an Invoke or Result carries: the caller's type, of a
/// size in bytes.
pub trait Payload: Copy + std::fmt::Debug {
    /// Its size in bytes on the wire.
    fn bytes(&self) -> u32;
}

impl Payload for u32 {
    /// A plain byte count.
    #[inline]
    fn bytes(&self) -> u32 {
        *self
    }
}

/// WTP's transaction classes (\[K\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Unreliable invoke, no result.
    Zero,
    /// Reliable invoke, no result: the responder acks.
    One,
    /// Reliable invoke and reliable result.
    Two,
}

impl Class {
    /// The class numbered `n`, or the one-line refusal for any other.
    pub fn from_number(n: u8) -> Result<Class, Refusal> {
        match n {
            0 => Ok(Class::Zero),
            1 => Ok(Class::One),
            2 => Ok(Class::Two),
            _ => Err(("class", "WTP has classes 0, 1 and 2")),
        }
    }

    /// Its number.
    pub fn number(self) -> u8 {
        self as u8
    }
}

/// Why a transaction aborted (a subset of the spec's reasons, \[K\]/\[I\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbortReason {
    /// A user asked for it.
    User,
    /// The peer did not answer: RCR or AEC at its limit.
    NoResponse,
    /// The user above has no session for this invoke (WSP's DISCONNECT
    /// reason, \[K\]): sent by [`super::wsp::Server`].
    Disconnect,
}

/// What a PDU is, with what it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind<U> {
    /// Invoke (PDU type 1), with its class and the user's data.
    Invoke { class: Class, data: U },
    /// Result (PDU type 2), with the user's data.
    Result { data: U },
    /// Ack (PDU type 3).
    Ack,
    /// Abort (PDU type 4).
    Abort { reason: AbortReason },
}

/// A WTP PDU as it goes through the datagram service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pdu<U> {
    /// Its transaction.
    pub tid: Tid,
    /// The retransmission indicator: this is a copy sent again.
    pub rid: bool,
    /// What it is.
    pub kind: Kind<U>,
}

/// Header bytes of an Invoke PDU: \[K\] the fixed part (type, flags, TID,
/// version, class): 4.
pub const INVOKE_HEADER_BYTES: u32 = 4;
/// Header bytes of a Result PDU (\[K\], type, flags, TID): 3.
pub const RESULT_HEADER_BYTES: u32 = 3;
/// Bytes of an Ack PDU (\[K\], type, flags, TID): 3.
pub const ACK_BYTES: u32 = 3;
/// Bytes of an Abort PDU (\[K\], type and abort type, TID, reason): 4.
pub const ABORT_BYTES: u32 = 4;

impl<U: Payload> Pdu<U> {
    /// Its size in the datagram, in bytes: header and user data (\[K\]
    /// fixed headers, no TPIs).
    pub fn wire_bytes(&self) -> u32 {
        match self.kind {
            Kind::Invoke { data, .. } => INVOKE_HEADER_BYTES + data.bytes(),
            Kind::Result { data } => RESULT_HEADER_BYTES + data.bytes(),
            Kind::Ack => ACK_BYTES,
            Kind::Abort { .. } => ABORT_BYTES,
        }
    }
}

/// WTP's timers and counters (defaults: Kannel's, \[C:kannel\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WtpConfig {
    /// Retransmission timer R, in ns (default 7 s, `L_R_WITH_USER_ACK`).
    pub r_ns: u64,
    /// Ack timer A, in ns (default 4 s, `L_A_WITH_USER_ACK`).
    pub a_ns: u64,
    /// Wait timer W, in ns (default 30 s, `W_WITH_USER_ACK`).
    pub w_ns: u64,
    /// Retransmissions before an abort, `MAX_RCR` (default 8).
    pub max_rcr: u32,
    /// Ack timer expiries before an abort, `AEC_MAX` (default 6).
    pub aec_max: u32,
}

/// 1 s in ns.
const S: u64 = 1_000_000_000;

impl Default for WtpConfig {
    fn default() -> WtpConfig {
        WtpConfig { r_ns: 7 * S, a_ns: 4 * S, w_ns: 30 * S, max_rcr: 8, aec_max: 6 }
    }
}

impl WtpConfig {
    /// The first invalid field and why, if any.
    pub fn validate(&self) -> Result<(), Refusal> {
        if self.r_ns == 0 {
            return Err(("r_ns", "must be positive"));
        }
        if self.a_ns == 0 {
            return Err(("a_ns", "must be positive"));
        }
        if self.w_ns == 0 {
            return Err(("w_ns", "must be positive"));
        }
        if self.max_rcr == 0 {
            return Err(("max_rcr", "must be at least 1 (WTP's MAX_RCR is 8)"));
        }
        if self.aec_max == 0 {
            return Err(("aec_max", "must be at least 1 (WTP's AEC_MAX is 6)"));
        }
        Ok(())
    }
}

/// What a side hands up to its user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<U> {
    /// Responder: an Invoke's first copy, to hand up (once per tid).
    Invoked { tid: Tid, class: Class, data: U },
    /// The transaction ended well. Initiator: class 0 sent, class 1 acked,
    /// class 2's Result handed up (`result`, once). Responder: a class 2
    /// Result acked, a class 1 Ack's wait over.
    Completed { tid: Tid, result: Option<U> },
    /// The transaction ended in an abort, asked by the peer or not.
    Aborted { tid: Tid, reason: AbortReason, by_peer: bool },
}

/// Counters a test or trace can read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// PDUs queued to send, first copies and retransmissions.
    pub pdus_sent: u64,
    /// Their bytes ([`Pdu::wire_bytes`]).
    pub bytes_sent: u64,
    /// Retransmissions (Invoke or Result, `rid` set).
    pub retransmissions: u64,
    /// Copies of a PDU already handled that arrived again (never handed up).
    pub duplicates: u64,
    /// PDUs for no live transaction, ignored.
    pub stale: u64,
}

/// Where an initiator's transaction is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IState {
    /// The Invoke sent, its Ack (class 1) or Result (class 2) awaited;
    /// `held`: a hold-on Ack came (class 2).
    ResultWait { held: bool },
    /// Class 2: the Result handed up and acked; W runs.
    WaitTimeout,
}

#[derive(Clone, Copy, Debug)]
struct ITx<U> {
    class: Class,
    data: U,
    state: IState,
    rcr: u32,
    timer: Time,
}

/// Queue `pdu` to send, counting it.
fn send<U: Payload>(out: &mut VecDeque<Pdu<U>>, stats: &mut Stats, pdu: Pdu<U>) {
    stats.pdus_sent += 1;
    stats.bytes_sent += u64::from(pdu.wire_bytes());
    stats.retransmissions += u64::from(pdu.rid);
    out.push_back(pdu);
}

/// The side that invokes (the handset, toward one peer).
#[derive(Clone, Debug)]
pub struct Initiator<U> {
    cfg: WtpConfig,
    next_tid: Tid,
    txs: BTreeMap<Tid, ITx<U>>,
    out: VecDeque<Pdu<U>>,
    events: VecDeque<Event<U>>,
    stats: Stats,
}

impl<U: Payload> Initiator<U> {
    /// An initiator with `cfg` (which must validate).
    pub fn new(cfg: WtpConfig) -> Initiator<U> {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        Initiator {
            cfg,
            next_tid: 0,
            txs: BTreeMap::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            stats: Stats::default(),
        }
    }

    /// Its counters.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Live transactions (awaiting a reply, or W running).
    pub fn live(&self) -> usize {
        self.txs.len()
    }

    /// Start a transaction of class `class` (0, 1 or 2) carrying `data`:
    /// its tid, the Invoke queued. Class 0 completes at once.
    pub fn invoke(&mut self, now: Time, class: u8, data: U) -> Result<Tid, Refusal> {
        let class = Class::from_number(class)?;
        let tid = self.next_tid;
        self.next_tid += 1;
        send(&mut self.out, &mut self.stats, Pdu { tid, rid: false, kind: Kind::Invoke { class, data } });
        if class == Class::Zero {
            self.events.push_back(Event::Completed { tid, result: None });
        } else {
            let timer = now.plus_ns(self.cfg.r_ns);
            self.txs.insert(tid, ITx { class, data, state: IState::ResultWait { held: false }, rcr: 0, timer });
        }
        Ok(tid)
    }

    /// The user aborts a live transaction: an Abort goes to the peer.
    /// False if `tid` is not awaiting its reply.
    pub fn abort(&mut self, _now: Time, tid: Tid) -> bool {
        match self.txs.get(&tid) {
            Some(tx) if matches!(tx.state, IState::ResultWait { .. }) => {
                self.end_aborted(tid, AbortReason::User, false);
                true
            }
            _ => false,
        }
    }

    fn end_aborted(&mut self, tid: Tid, reason: AbortReason, by_peer: bool) {
        self.txs.remove(&tid);
        if !by_peer {
            send(&mut self.out, &mut self.stats, Pdu { tid, rid: false, kind: Kind::Abort { reason } });
        }
        self.events.push_back(Event::Aborted { tid, reason, by_peer });
    }

    /// A PDU from the responder arrived.
    pub fn on_pdu(&mut self, now: Time, pdu: Pdu<U>) {
        let Some(tx) = self.txs.get_mut(&pdu.tid) else {
            self.stats.stale += 1;
            return;
        };
        let tid = pdu.tid;
        match (pdu.kind, tx.state) {
            (Kind::Result { data }, IState::ResultWait { .. }) if tx.class == Class::Two => {
                tx.state = IState::WaitTimeout;
                tx.timer = now.plus_ns(self.cfg.w_ns);
                send(&mut self.out, &mut self.stats, Pdu { tid, rid: false, kind: Kind::Ack });
                self.events.push_back(Event::Completed { tid, result: Some(data) });
            }
            (Kind::Result { .. }, IState::WaitTimeout) => {
                // A retransmitted Result: our Ack was lost. Ack again, hand
                // nothing up.
                self.stats.duplicates += 1;
                send(&mut self.out, &mut self.stats, Pdu { tid, rid: true, kind: Kind::Ack });
            }
            (Kind::Ack, IState::ResultWait { .. }) if tx.class == Class::One => {
                self.txs.remove(&tid);
                self.events.push_back(Event::Completed { tid, result: None });
            }
            (Kind::Ack, IState::ResultWait { .. }) => {
                // Hold on: the responder has the Invoke.
                tx.state = IState::ResultWait { held: true };
                tx.rcr = 0;
                tx.timer = now.plus_ns(self.cfg.r_ns);
            }
            (Kind::Abort { reason }, IState::ResultWait { .. }) => self.end_aborted(tid, reason, true),
            _ => self.stats.stale += 1,
        }
    }

    /// When the next timer runs out, if any transaction has one.
    pub fn deadline(&self) -> Option<Time> {
        self.txs.values().map(|t| t.timer).min()
    }

    /// The caller's timer fired: handle every transaction whose timer ran out.
    pub fn on_timer(&mut self, now: Time) {
        let due: Vec<Tid> = self.txs.iter().filter(|(_, t)| t.timer <= now).map(|(&k, _)| k).collect();
        for tid in due {
            let tx = self.txs.get_mut(&tid).expect("due");
            match tx.state {
                IState::WaitTimeout => {
                    self.txs.remove(&tid);
                }
                IState::ResultWait { .. } if tx.rcr < self.cfg.max_rcr => {
                    tx.rcr += 1;
                    tx.timer = now.plus_ns(self.cfg.r_ns);
                    let kind = Kind::Invoke { class: tx.class, data: tx.data };
                    send(&mut self.out, &mut self.stats, Pdu { tid, rid: true, kind });
                }
                IState::ResultWait { .. } => self.end_aborted(tid, AbortReason::NoResponse, false),
            }
        }
    }

    /// The next PDU to send, in order.
    pub fn pop_pdu(&mut self) -> Option<Pdu<U>> {
        self.out.pop_front()
    }

    /// The next event to hand up, in order.
    pub fn pop_event(&mut self) -> Option<Event<U>> {
        self.events.pop_front()
    }

    /// Retransmissions of transaction `tid` so far (its RCR), if live.
    pub fn rcr(&self, tid: Tid) -> Option<u32> {
        self.txs.get(&tid).map(|t| t.rcr)
    }
}

/// Where a responder's transaction is (\[C:kannel\] names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RState<U> {
    /// Class 2: the Invoke handed up, the user's result awaited; A runs.
    /// `aec`: A's expiries so far (the first sent the hold-on Ack).
    ResultWait { aec: u32 },
    /// Class 2: the Result sent, its Ack awaited; R runs.
    ResultRespWait { data: U, rcr: u32 },
    /// Class 1: the Ack sent; W runs.
    WaitTimeout,
}

#[derive(Clone, Copy, Debug)]
struct RTx<U> {
    state: RState<U>,
    timer: Time,
}

/// The side that answers (the gateway, toward one peer).
#[derive(Clone, Debug)]
pub struct Responder<U> {
    cfg: WtpConfig,
    /// Every tid handed up (\[I\], in place of TID verification).
    seen: BTreeSet<Tid>,
    txs: BTreeMap<Tid, RTx<U>>,
    out: VecDeque<Pdu<U>>,
    events: VecDeque<Event<U>>,
    stats: Stats,
}

impl<U: Payload> Responder<U> {
    /// A responder with `cfg` (which must validate).
    pub fn new(cfg: WtpConfig) -> Responder<U> {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        Responder {
            cfg,
            seen: BTreeSet::new(),
            txs: BTreeMap::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            stats: Stats::default(),
        }
    }

    /// Its counters.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Live transactions.
    pub fn live(&self) -> usize {
        self.txs.len()
    }

    /// A PDU from the initiator arrived.
    pub fn on_pdu(&mut self, now: Time, pdu: Pdu<U>) {
        let tid = pdu.tid;
        match pdu.kind {
            Kind::Invoke { class, data } => self.on_invoke(now, tid, class, data),
            Kind::Ack => match self.txs.get(&tid).map(|t| t.state) {
                Some(RState::ResultRespWait { .. }) => {
                    self.txs.remove(&tid);
                    self.events.push_back(Event::Completed { tid, result: None });
                }
                _ => self.stats.stale += 1,
            },
            Kind::Abort { reason } => {
                if self.txs.remove(&tid).is_some() {
                    self.events.push_back(Event::Aborted { tid, reason, by_peer: true });
                } else {
                    self.stats.stale += 1;
                }
            }
            Kind::Result { .. } => self.stats.stale += 1,
        }
    }

    fn on_invoke(&mut self, now: Time, tid: Tid, class: Class, data: U) {
        let ack = Pdu { tid, rid: true, kind: Kind::Ack };
        if let Some(tx) = self.txs.get(&tid) {
            // A copy of an Invoke already handed up.
            self.stats.duplicates += 1;
            match tx.state {
                // Class 1's Ack or the hold-on Ack was lost: ack again.
                RState::WaitTimeout | RState::ResultWait { aec: 1.. } => send(&mut self.out, &mut self.stats, ack),
                // A runs (the Result will ack it), or the Result is out
                // and R will send it again.
                RState::ResultWait { aec: 0 } | RState::ResultRespWait { .. } => {}
            }
            return;
        }
        if self.seen.contains(&tid) {
            // A stale copy of an ended transaction: never handed up again.
            self.stats.duplicates += 1;
            if class == Class::One {
                send(&mut self.out, &mut self.stats, ack);
            }
            return;
        }
        self.seen.insert(tid);
        self.events.push_back(Event::Invoked { tid, class, data });
        match class {
            Class::Zero => {}
            Class::One => {
                send(&mut self.out, &mut self.stats, Pdu { tid, rid: false, kind: Kind::Ack });
                self.txs.insert(tid, RTx { state: RState::WaitTimeout, timer: now.plus_ns(self.cfg.w_ns) });
            }
            Class::Two => {
                self.txs.insert(tid, RTx { state: RState::ResultWait { aec: 0 }, timer: now.plus_ns(self.cfg.a_ns) });
            }
        }
    }

    /// The user's result for class 2 transaction `tid`: the Result goes
    /// out (acking the Invoke). Refused if `tid` awaits no result.
    pub fn result(&mut self, now: Time, tid: Tid, data: U) -> Result<(), Refusal> {
        match self.txs.get_mut(&tid) {
            Some(tx) if matches!(tx.state, RState::ResultWait { .. }) => {
                tx.state = RState::ResultRespWait { data, rcr: 0 };
                tx.timer = now.plus_ns(self.cfg.r_ns);
                send(&mut self.out, &mut self.stats, Pdu { tid, rid: false, kind: Kind::Result { data } });
                Ok(())
            }
            _ => Err(("tid", "no class 2 transaction awaits a result with this tid")),
        }
    }

    /// The user aborts a live transaction: an Abort goes to the peer.
    /// False if `tid` is not live.
    pub fn abort(&mut self, now: Time, tid: Tid) -> bool {
        self.abort_with(now, tid, AbortReason::User)
    }

    /// As [`Responder::abort`], with the reason the Abort carries.
    pub fn abort_with(&mut self, _now: Time, tid: Tid, reason: AbortReason) -> bool {
        if self.txs.contains_key(&tid) {
            self.end_aborted(tid, reason);
            true
        } else {
            false
        }
    }

    fn end_aborted(&mut self, tid: Tid, reason: AbortReason) {
        self.txs.remove(&tid);
        send(&mut self.out, &mut self.stats, Pdu { tid, rid: false, kind: Kind::Abort { reason } });
        self.events.push_back(Event::Aborted { tid, reason, by_peer: false });
    }

    /// When the next timer runs out, if any transaction has one.
    pub fn deadline(&self) -> Option<Time> {
        self.txs.values().map(|t| t.timer).min()
    }

    /// The caller's timer fired: handle every transaction whose timer ran out.
    pub fn on_timer(&mut self, now: Time) {
        let due: Vec<Tid> = self.txs.iter().filter(|(_, t)| t.timer <= now).map(|(&k, _)| k).collect();
        for tid in due {
            let tx = self.txs.get_mut(&tid).expect("due");
            match tx.state {
                RState::WaitTimeout => {
                    self.txs.remove(&tid);
                    self.events.push_back(Event::Completed { tid, result: None });
                }
                RState::ResultWait { aec } if aec < self.cfg.aec_max => {
                    tx.state = RState::ResultWait { aec: aec + 1 };
                    tx.timer = now.plus_ns(self.cfg.a_ns);
                    if aec == 0 {
                        send(&mut self.out, &mut self.stats, Pdu { tid, rid: false, kind: Kind::Ack });
                    }
                }
                RState::ResultWait { .. } => self.end_aborted(tid, AbortReason::NoResponse),
                RState::ResultRespWait { data, rcr } if rcr < self.cfg.max_rcr => {
                    tx.state = RState::ResultRespWait { data, rcr: rcr + 1 };
                    tx.timer = now.plus_ns(self.cfg.r_ns);
                    send(&mut self.out, &mut self.stats, Pdu { tid, rid: true, kind: Kind::Result { data } });
                }
                RState::ResultRespWait { .. } => self.end_aborted(tid, AbortReason::NoResponse),
            }
        }
    }

    /// The next PDU to send, in order.
    pub fn pop_pdu(&mut self) -> Option<Pdu<U>> {
        self.out.pop_front()
    }

    /// The next event to hand up, in order.
    pub fn pop_event(&mut self) -> Option<Event<U>> {
        self.events.pop_front()
    }
}

#[cfg(test)]
mod tests;
