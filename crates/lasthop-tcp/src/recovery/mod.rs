//! Loss recovery: what to retransmit and when, whether a congestion event
//! happened, and when recovery ends; the family of DESIGN.md's
//! `LossRecovery`. One file per member:
//!
//! - [`dupack`]: duplicate-ack counting, Tahoe's go-back-N, Reno (RFC 5681
//!   3.2) and NewReno (RFC 6582); seed 000's ELN response on marked
//!   duplicates.
//! - [`dcr`]: TCP-DCR's delayed congestion response (Bhandarkar et al.
//!   2005) over NewReno.
//! - [`sack`]: the RFC 6675 scoreboard, pipe and NextSeg.
//! - [`smart`]: SMART's echo board (seed 000 Sec. II).
//! - [`ll_elsn`]: SACK with one of seed 004's responses to link-layer loss
//!   notification, each response's ack path in its own file: [`esack`],
//!   [`hack`] (HACK and HACK-fixed), [`lhp`] (the LHP packet list).
//!
//! - [`window_rules`]: the window's shape during recovery (the cut's cwnd,
//!   Reno's inflation, NewReno's partial-ack deflation, the exit), on the
//!   shared window (`crate::cc::Window`), whose ssthresh the congestion
//!   controller answers.
//!
//! The sender (`crate::sender`) keeps sequence space, timers and options
//! and asks the member its flow runs. Each ack goes to the member as an
//! [`AckInfo`] (the ack and the sequence space after it) and comes back as
//! an [`AckAnswer`] (what to retransmit, the window's rule for the ack, a
//! congestion event, the recovery's end, whether the timer restarts); the
//! sender applies the answer in one place. The answer is ns-3's split
//! (`TcpRecoveryOps`: the recovery decides, the window rules live apart)
//! without its shared control block: nothing here touches the window.
//! The family is an enum ([`Recovery`]), DESIGN.md's `LossRecovery` without
//! a trait object: one match per operation, the duplicate-ack member
//! inline (most flows run it, and its answer stays in registers), the
//! others boxed and called out of line. A member: a file with its state,
//! an `on_ack(&AckInfo) -> AckAnswer`, and what it answers of the other
//! operations (`next_seg`, `on_timeout`, `in_recovery`, ...); adding one
//! is a variant and an arm per operation here.

pub mod dcr;
pub mod dupack;
pub mod esack;
pub mod hack;
pub mod lhp;
pub mod ll_elsn;
pub mod sack;
pub mod smart;
pub mod window_rules;

pub use dupack::{AckVerdict, DupAck};
pub use ll_elsn::LlElsnRecovery;
pub use sack::SackRecovery;
pub use smart::SmartRecovery;

use crate::cc::LossCause;
use crate::config::{SenderConfig, Variant};
use crate::ll_elsn::LlElsn;
use crate::rtt::RttEstimator;
use lasthop_core::Time;

/// What an ack tells the loss recovery (DESIGN.md: a typed sample in, a
/// typed answer out). Sequence numbers are the sender's after the ack.
#[derive(Clone, Copy, Debug)]
pub struct AckInfo<'a> {
    pub now: Time,
    /// The cumulative ack, once this ack moved it (HighACK + 1).
    pub snd_una: u64,
    /// One past the highest byte sent (HighData + 1).
    pub snd_max: u64,
    /// Bytes this ack newly acknowledged cumulatively (0 for a duplicate).
    pub acked_bytes: u64,
    /// A duplicate ack (RFC 5681 Sec. 2).
    pub dup: bool,
    /// 4.4BSD header prediction's test held for this ack but for its guard
    /// on the duplicate-ack count, which is the member's (see
    /// [`crate::HeaderPredictionGuard`]).
    pub predictable: bool,
    /// The ack's SACK blocks (RFC 2018).
    pub sack: &'a [(u64, u64)],
    /// The ack's SMART echo (seed 000 Sec. II).
    pub smart_echo: Option<u64>,
    /// The ack's ELN mark (seed 000 Sec. III-A).
    pub eln: bool,
    /// The ack's fast-retransmit request (seed 001 Sec. 6.3).
    pub fr_request: bool,
    /// The sender's round-trip estimate (TCP-DCR's delay).
    pub rtt: &'a RttEstimator,
}

/// What to send before anything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retransmit {
    /// The segment starting at this byte.
    Seq(u64),
    /// Everything from `snd_una` again (Tahoe's go-back-N).
    GoBackN,
}

/// A congestion event: the window is cut, on FlightSize as the member
/// counts it ([`Recovery::flight_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// RFC 5681 3.2 step 3's cwnd (ssthresh + DupThresh SMSS, or Tahoe's
    /// slow start), which the duplicates that follow inflate; false: cwnd
    /// = ssthresh (RFC 6675 step 4.2, SMART, the LHP list).
    pub inflate: bool,
    pub cause: LossCause,
    /// How many cuts (one per packet the LHP list condemns; else 1), each a
    /// fast retransmit.
    pub count: u32,
}

/// The window's rule for an ack, besides a cut or an exit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WindowStep {
    /// Left alone.
    #[default]
    Hold,
    /// Opened for the bytes acked (outside recovery).
    Open,
    /// NewReno's partial ack (RFC 6582 3.2 step 5): deflated.
    PartialAck,
    /// A further duplicate during fast recovery (RFC 5681 3.2 step 4): inflated.
    DupackInRecovery,
}

/// How the window leaves recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitRule {
    /// Reno's exit on an ack of new data (RFC 5681 3.2 step 6 or 4.4BSD's).
    Reno,
    /// cwnd = ssthresh (RFC 6582 3.2 step 4, RFC 6675 step A).
    Deflate,
    /// The window is left alone (SMART: the episode's cut was its rule).
    Keep,
}

/// The loss recovery's answer to an ack (or to the timer), applied by the
/// sender in one place, in this order: [`AckAnswer::resumes`],
/// [`AckAnswer::exit`] (the recovery ended), [`AckAnswer::window`],
/// [`AckAnswer::eln_retransmit`], [`AckAnswer::cut`] (a congestion event,
/// with [`AckAnswer::is_requested`]), [`AckAnswer::stops_timing`],
/// [`AckAnswer::retransmit`], [`AckAnswer::restarts_rto`].
///
/// Sixteen bytes (a segment's first byte and a word of flags, the cut
/// count in its upper half), so that it comes back in two registers, and
/// the answer to most acks (the window opens, the timer restarts) is told
/// by one test ([`AckAnswer::is_plain`]). Built with the `with_*` methods.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct AckAnswer {
    /// First byte of the segment to resend first (with `RETRANSMIT`).
    seq: u64,
    /// The flags below; the number of cuts in the upper 32 bits.
    bits: u64,
}

impl AckAnswer {
    const OPEN_BIT: u64 = 1 << 0;
    const RESTART_BIT: u64 = 1 << 1;
    const PARTIAL_ACK: u64 = 1 << 2;
    const DUPACK_IN_RECOVERY: u64 = 1 << 3;
    const EXIT_RENO: u64 = 1 << 4;
    const EXIT_DEFLATE: u64 = 1 << 5;
    const EXIT_KEEP: u64 = 1 << 6;
    const RETRANSMIT: u64 = 1 << 7;
    const GO_BACK_N: u64 = 1 << 8;
    const STOP_TIMING: u64 = 1 << 9;
    const ELN_RETRANSMIT: u64 = 1 << 10;
    const REQUESTED: u64 = 1 << 11;
    const CUT_INFLATE: u64 = 1 << 12;
    const CUT_CORRUPTION: u64 = 1 << 13;
    const RESUME: u64 = 1 << 14;
    const WINDOW: u64 = Self::OPEN_BIT | Self::PARTIAL_ACK | Self::DUPACK_IN_RECOVERY;
    const EXIT: u64 = Self::EXIT_RENO | Self::EXIT_DEFLATE | Self::EXIT_KEEP;
    const CUTS_SHIFT: u32 = 32;

    /// Nothing to do.
    pub const NONE: AckAnswer = AckAnswer { seq: 0, bits: 0 };
    /// An ack of new data outside recovery: the window opens, the timer restarts.
    pub const OPEN: AckAnswer = AckAnswer::NONE.with_window(WindowStep::Open).restarting_rto();
    /// The timer restarts, nothing else (4.4BSD's header prediction).
    pub const RESTART_RTO: AckAnswer = AckAnswer::NONE.restarting_rto();

    pub const fn with_window(mut self, step: WindowStep) -> AckAnswer {
        self.bits &= !Self::WINDOW;
        self.bits |= match step {
            WindowStep::Hold => 0,
            WindowStep::Open => Self::OPEN_BIT,
            WindowStep::PartialAck => Self::PARTIAL_ACK,
            WindowStep::DupackInRecovery => Self::DUPACK_IN_RECOVERY,
        };
        self
    }
    /// Recovery ends on this ack, the window leaving it by `rule`.
    pub const fn with_exit(mut self, rule: ExitRule) -> AckAnswer {
        self.bits &= !Self::EXIT;
        self.bits |= match rule {
            ExitRule::Reno => Self::EXIT_RENO,
            ExitRule::Deflate => Self::EXIT_DEFLATE,
            ExitRule::Keep => Self::EXIT_KEEP,
        };
        self
    }
    /// What to send first (replacing any earlier choice).
    pub const fn with_retransmit(mut self, r: Retransmit) -> AckAnswer {
        self.bits &= !(Self::RETRANSMIT | Self::GO_BACK_N);
        match r {
            Retransmit::Seq(seq) => {
                self.seq = seq;
                self.bits |= Self::RETRANSMIT;
            }
            Retransmit::GoBackN => self.bits |= Self::GO_BACK_N,
        }
        self
    }
    /// A congestion event.
    pub const fn with_cut(mut self, cut: Cut) -> AckAnswer {
        self.bits &= !(Self::CUT_INFLATE | Self::CUT_CORRUPTION) & ((1 << Self::CUTS_SHIFT) - 1);
        self.bits |= (cut.count as u64) << Self::CUTS_SHIFT;
        if cut.inflate {
            self.bits |= Self::CUT_INFLATE;
        }
        if matches!(cut.cause, LossCause::Corruption) {
            self.bits |= Self::CUT_CORRUPTION;
        }
        self
    }
    /// The cut was started by a fast-retransmit request alone (counted apart).
    pub const fn with_requested(mut self, requested: bool) -> AckAnswer {
        if requested {
            self.bits |= Self::REQUESTED;
        } else {
            self.bits &= !Self::REQUESTED;
        }
        self
    }
    /// A retransmission without congestion response (seed 000's ELN).
    pub const fn with_eln_retransmit(mut self) -> AckAnswer {
        self.bits |= Self::ELN_RETRANSMIT;
        self
    }
    /// Karn: the segment being timed is forgotten.
    pub const fn stopping_timing(mut self) -> AckAnswer {
        self.bits |= Self::STOP_TIMING;
        self
    }
    pub const fn restarting_rto(mut self) -> AckAnswer {
        self.bits |= Self::RESTART_BIT;
        self
    }
    /// LL-ELSN: a new ack ends a disconnection; the frozen parameters come
    /// back ([`LlElsnRecovery::take_frozen`]).
    pub const fn resuming(mut self, resume: bool) -> AckAnswer {
        if resume {
            self.bits |= Self::RESUME;
        }
        self
    }

    /// Exactly [`AckAnswer::OPEN`], the answer to most acks: the
    /// sender's first test.
    #[inline(always)]
    pub fn is_open(self) -> bool {
        self.bits == Self::OPEN.bits
    }
    /// Nothing but the window's opening or Reno's inflation, and the
    /// timer's restart: the sender's fast path.
    #[inline(always)]
    pub fn is_plain(self) -> bool {
        self.bits & !(Self::OPEN_BIT | Self::DUPACK_IN_RECOVERY | Self::RESTART_BIT) == 0
    }
    pub fn window(self) -> WindowStep {
        if self.bits & Self::OPEN_BIT != 0 {
            WindowStep::Open
        } else if self.bits & Self::PARTIAL_ACK != 0 {
            WindowStep::PartialAck
        } else if self.bits & Self::DUPACK_IN_RECOVERY != 0 {
            WindowStep::DupackInRecovery
        } else {
            WindowStep::Hold
        }
    }
    pub fn exit(self) -> Option<ExitRule> {
        if self.bits & Self::EXIT_RENO != 0 {
            Some(ExitRule::Reno)
        } else if self.bits & Self::EXIT_DEFLATE != 0 {
            Some(ExitRule::Deflate)
        } else if self.bits & Self::EXIT_KEEP != 0 {
            Some(ExitRule::Keep)
        } else {
            None
        }
    }
    pub fn retransmit(self) -> Option<Retransmit> {
        if self.bits & Self::RETRANSMIT != 0 {
            Some(Retransmit::Seq(self.seq))
        } else if self.bits & Self::GO_BACK_N != 0 {
            Some(Retransmit::GoBackN)
        } else {
            None
        }
    }
    pub fn cut(self) -> Option<Cut> {
        let count = (self.bits >> Self::CUTS_SHIFT) as u32;
        (count > 0).then_some(Cut {
            inflate: self.bits & Self::CUT_INFLATE != 0,
            cause: if self.bits & Self::CUT_CORRUPTION != 0 { LossCause::Corruption } else { LossCause::Congestion },
            count,
        })
    }
    pub fn is_requested(self) -> bool {
        self.bits & Self::REQUESTED != 0
    }
    pub fn eln_retransmit(self) -> bool {
        self.bits & Self::ELN_RETRANSMIT != 0
    }
    pub fn stops_timing(self) -> bool {
        self.bits & Self::STOP_TIMING != 0
    }
    pub fn restarts_rto(self) -> bool {
        self.bits & Self::RESTART_BIT != 0
    }
    pub fn resumes(self) -> bool {
        self.bits & Self::RESUME != 0
    }
}

impl std::fmt::Debug for AckAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AckAnswer")
            .field("resume", &self.resumes())
            .field("exit", &self.exit())
            .field("window", &self.window())
            .field("eln_retransmit", &self.eln_retransmit())
            .field("cut", &self.cut())
            .field("requested", &self.is_requested())
            .field("stop_timing", &self.stops_timing())
            .field("retransmit", &self.retransmit())
            .field("restart_rto", &self.restarts_rto())
            .finish()
    }
}

/// What the sender asks when it may send ([`Recovery::next_seg`]).
#[derive(Clone, Copy, Debug)]
pub struct SendQuery<'a> {
    pub now: Time,
    pub snd_una: u64,
    pub snd_nxt: u64,
    pub snd_max: u64,
    /// One past the last byte there is to send now.
    pub end_of_data: u64,
    /// `snd_una` + the peer's window (and the send buffer): no new byte at
    /// or beyond it may go.
    pub rwnd_limit: u64,
    pub cwnd_bytes: u64,
    pub mss_bytes: u64,
    pub rtt: &'a RttEstimator,
    /// A retransmission is queued at the sender.
    pub pending: bool,
    /// The application has written less than the whole transfer (a relay):
    /// no short segment but the last.
    pub app_limited: bool,
    /// Only looking (SA's burst timer): nothing is consumed.
    pub peek: bool,
}

/// The recovery's part in choosing the next segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextSeg {
    /// Send this (seq, len).
    Segment(u64, u64),
    /// Send nothing now.
    Wait,
    /// The sender's own window rule decides, cwnd extended by this many
    /// segments (limited transmit, TCP-DCR's extended limited transmit).
    Window { extra_segments: u32 },
}

/// A flow's loss recovery: the member its variant runs. Each operation is
/// one match here; the members answer, the sender applies.
#[derive(Clone, Debug)]
pub enum Recovery {
    /// Tahoe, Reno, NewReno and TCP-DCR (inline: most flows run it).
    DupAck(DupAck),
    /// SACK (RFC 6675).
    Sack(Box<SackRecovery>),
    /// SMART (seed 000 Sec. III-A).
    Smart(Box<SmartRecovery>),
    /// SACK with a seed 004 LL-ELSN response (ESACK, HACK, HACK-fixed, LHP).
    LlElsn(Box<LlElsnRecovery>),
}

impl Recovery {
    pub fn new(cfg: &SenderConfig) -> Recovery {
        match cfg.variant {
            Variant::Sack => Recovery::Sack(Box::new(SackRecovery::new(cfg))),
            Variant::Smart => Recovery::Smart(Box::new(SmartRecovery::new(cfg))),
            _ => Recovery::DupAck(DupAck::new(cfg)),
        }
    }

    /// A SACK sender becomes an LL-ELSN sender (seed 004).
    pub fn with_ll_elsn(self, ll: LlElsn, mss_bytes: u64) -> Recovery {
        match self {
            Recovery::Sack(s) => Recovery::LlElsn(Box::new(LlElsnRecovery::new(*s, ll, mss_bytes))),
            _ => panic!("LL-ELSN runs over the SACK sender"),
        }
    }

    /// An ack arrived (its effect on the sequence space already applied),
    /// as `info` tells. The duplicate-ack member is inlined into the
    /// sender's ack path; the boxed ones are called out of line, `info`
    /// built for them apart, so that the common path keeps the ack in
    /// registers.
    #[inline(always)]
    pub fn on_ack<'q>(&mut self, info: impl FnOnce() -> AckInfo<'q>) -> AckAnswer {
        match self {
            Recovery::DupAck(d) => d.on_ack(&info()),
            _ => self.on_ack_boxed(info()),
        }
    }

    #[inline(never)]
    fn on_ack_boxed(&mut self, a: AckInfo) -> AckAnswer {
        match self {
            Recovery::DupAck(d) => d.on_ack(&a),
            Recovery::Sack(s) => s.on_ack(&a),
            Recovery::Smart(s) => s.on_ack(&a),
            Recovery::LlElsn(l) => l.on_ack(&a),
        }
    }

    /// FlightSize for a cut, as the member counts it.
    pub fn flight_bytes(&self, snd_una: u64, snd_max: u64) -> u64 {
        match self {
            Recovery::LlElsn(l) => l.flight_bytes(snd_una, snd_max),
            _ => snd_max - snd_una,
        }
    }

    /// The sender's timer ran at `now`: a held response may be due
    /// (TCP-DCR). `sending`: the flow runs and has data outstanding.
    #[inline]
    pub fn on_timer(&mut self, now: Time, snd_una: u64, snd_max: u64, sending: bool) -> Option<AckAnswer> {
        match self {
            Recovery::DupAck(d) => d.on_timer(now, snd_una, snd_max, sending),
            _ => None,
        }
    }

    /// When the member next needs the timer (TCP-DCR's held response).
    #[inline]
    pub fn wakeup(&self) -> Time {
        match self {
            Recovery::DupAck(d) => d.wakeup(),
            _ => Time::NEVER,
        }
    }

    /// The retransmission timer expired with `snd_una` outstanding: true if
    /// the member defers the timeout (LL-ELSN's ERSN).
    pub fn defers_timeout(&mut self, snd_una: u64) -> bool {
        match self {
            Recovery::LlElsn(l) => l.defers_timeout(snd_una),
            _ => false,
        }
    }

    /// elaarag-002.md F5: the sender's own fast retransmit, as if the
    /// threshold-th duplicate ack had arrived (Caceres and Iftode 1995: a
    /// mobile host's TCP that sends invokes fast retransmit itself when a
    /// handoff completes). `a` is a duplicate ack with a fast-retransmit
    /// request (seed 001 Sec. 6.3), which the member takes as a requested
    /// duplicate whatever the flow's configuration: the variant's fast
    /// retransmit at once, under its `recover` guard (Tahoe's and
    /// NewReno's), or nothing in recovery. SMART counts no duplicates
    /// (its losses are found by the echo): `None`.
    pub fn on_local_request(&mut self, a: &AckInfo) -> Option<AckAnswer> {
        debug_assert!(a.dup && a.fr_request, "a requested duplicate");
        let answer = match self {
            Recovery::DupAck(d) => d.on_local_request(a),
            Recovery::Smart(_) => return None,
            Recovery::Sack(s) => {
                let honoured = std::mem::replace(&mut s.fr_request, true);
                let answer = s.on_ack(a);
                s.fr_request = honoured;
                answer
            }
            Recovery::LlElsn(l) => {
                let honoured = std::mem::replace(&mut l.sack.fr_request, true);
                let answer = l.on_ack(a);
                l.sack.fr_request = honoured;
                answer
            }
        };
        Some(answer)
    }

    /// A retransmission timeout fired: recovery is abandoned.
    pub fn on_timeout(&mut self, snd_una: u64, snd_max: u64) {
        match self {
            Recovery::DupAck(d) => d.on_timeout(snd_max),
            Recovery::Sack(s) => s.on_timeout(snd_una, snd_max),
            Recovery::Smart(s) => s.on_timeout(),
            Recovery::LlElsn(l) => l.on_timeout(snd_una, snd_max),
        }
    }

    /// A segment a member sends ahead of everything, the sender's queued
    /// retransmission included (LL-ELSN's ELN resends, the LHP list's).
    /// `query` is asked only by the members that read it.
    #[inline(always)]
    pub fn send_first<'q>(&self, query: impl FnOnce() -> SendQuery<'q>) -> Option<(u64, u64)> {
        match self {
            Recovery::LlElsn(l) => l.send_first(query()),
            _ => None,
        }
    }

    /// The member's part in choosing the next segment, after the sender's
    /// queued retransmission. The duplicate-ack member answers inline; the
    /// boxed ones out of line, `query` built only for them (so that the
    /// common path builds nothing in memory).
    #[inline(always)]
    pub fn next_seg<'q>(&mut self, query: impl FnOnce() -> SendQuery<'q>) -> NextSeg {
        match self {
            Recovery::DupAck(d) => NextSeg::Window { extra_segments: d.window_extension() },
            _ => self.next_seg_boxed(query()),
        }
    }

    #[inline(never)]
    fn next_seg_boxed(&mut self, q: SendQuery) -> NextSeg {
        match self {
            Recovery::DupAck(d) => NextSeg::Window { extra_segments: d.window_extension() },
            Recovery::Sack(s) => s.next_seg(&q, &[]),
            Recovery::Smart(s) => s.next_seg(&q),
            // Seed 004 Sec. 3.1: a segment the link layer is retrying (ERSN) is not resent.
            Recovery::LlElsn(l) => l.sack.next_seg(&q, l.ll.ersn.marks()),
        }
    }

    /// A segment leaves (an LL-ELSN sender records the sending order):
    /// true if it is an LL-ELSN resend on a link-layer ELN.
    pub fn on_sent(&mut self, seq: u64, len: u64, retransmit: bool) -> bool {
        match self {
            Recovery::LlElsn(l) => l.on_sent(seq, len, retransmit),
            _ => false,
        }
    }

    /// The segment [seq, seq + len) is being resent at `now`; `eln`: an
    /// LL-ELSN resend on a link-layer ELN, kept off the scoreboard (see
    /// [`ll_elsn`]).
    #[inline]
    pub fn on_retransmit(&mut self, now: Time, seq: u64, len: u64, eln: bool) {
        match self {
            Recovery::DupAck(_) => {}
            Recovery::Sack(s) => s.on_retransmit(seq, len),
            Recovery::Smart(s) => s.on_retransmit(now, seq),
            Recovery::LlElsn(l) if !eln => l.sack.on_retransmit(seq, len),
            Recovery::LlElsn(_) => {}
        }
    }

    pub fn in_recovery(&self) -> bool {
        match self {
            Recovery::DupAck(d) => d.in_recovery(),
            Recovery::Sack(s) => s.in_recovery(),
            Recovery::Smart(s) => s.in_recovery(),
            Recovery::LlElsn(l) => l.sack.in_recovery(),
        }
    }

    /// Duplicate acks since the last new ack, as the member counts them
    /// (the SACK sender's DupAcks, ESACK's Algorithm 1).
    pub fn dupacks(&self) -> u32 {
        match self {
            Recovery::DupAck(d) => d.dupacks(),
            Recovery::Sack(s) => s.dupacks(),
            Recovery::Smart(s) => s.dupacks(),
            Recovery::LlElsn(l) => l.sack.dupacks(),
        }
    }

    /// The LL-ELSN member, if this is one (its ERSN and ELN entry points,
    /// its state for tests and traces).
    pub fn ll_elsn(&self) -> Option<&LlElsnRecovery> {
        match self {
            Recovery::LlElsn(l) => Some(l),
            _ => None,
        }
    }
    pub fn ll_elsn_mut(&mut self) -> Option<&mut LlElsnRecovery> {
        match self {
            Recovery::LlElsn(l) => Some(l),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    //! The family through its one entry point, a member per family driven
    //! along a short timeline (MSS 1000, DupThresh 3, segments named by
    //! their first byte).
    use super::*;
    use crate::config::RtoConfig;

    const MSS: u64 = 1000;

    /// Drives a member with acks, as the sender would.
    struct Drive {
        r: Recovery,
        rtt: RttEstimator,
        snd_una: u64,
        snd_max: u64,
    }

    impl Drive {
        fn new(variant: Variant, snd_max: u64) -> Drive {
            let cfg = SenderConfig { variant, dupack_threshold: 3, ..SenderConfig::reno(MSS as u32) };
            Drive { r: Recovery::new(&cfg), rtt: RttEstimator::new(RtoConfig::rfc6298()), snd_una: 0, snd_max }
        }

        /// An ack for `ack` with SACK blocks `sack` and SMART echo `echo`.
        fn ack_with(&mut self, ack: u64, sack: &[(u64, u64)], echo: Option<u64>) -> AckAnswer {
            let acked = ack.saturating_sub(self.snd_una);
            self.snd_una = self.snd_una.max(ack);
            let info = AckInfo {
                now: Time::from_ms(100),
                snd_una: self.snd_una,
                snd_max: self.snd_max,
                acked_bytes: acked,
                dup: acked == 0,
                predictable: false,
                sack,
                smart_echo: echo,
                eln: false,
                fr_request: false,
                rtt: &self.rtt,
            };
            self.r.on_ack(|| info)
        }

        fn ack(&mut self, ack: u64) -> AckAnswer {
            self.ack_with(ack, &[], None)
        }

        /// What the member sends next, with a window of `cwnd` bytes.
        fn next(&mut self, cwnd: u64) -> NextSeg {
            let q = SendQuery {
                now: Time::from_ms(100),
                snd_una: self.snd_una,
                snd_nxt: self.snd_max,
                snd_max: self.snd_max,
                end_of_data: u64::MAX,
                rwnd_limit: u64::MAX,
                cwnd_bytes: cwnd,
                mss_bytes: MSS,
                rtt: &self.rtt,
                pending: false,
                app_limited: false,
                peek: false,
            };
            self.r.next_seg(|| q)
        }
    }

    /// NewReno (RFC 6582 3.2) with 0..5000 out and 0 and 2000 lost: three
    /// duplicates for 0 start a fast retransmit of 0 (cut with Reno's
    /// inflation), a fourth inflates, the ack of 2000 is a partial ack
    /// that resends 2000 and restarts the timer, the ack of 3000 a partial
    /// ack that does not restart it, and the ack of 5000 (`recover`) ends
    /// recovery, the window deflated.
    #[test]
    fn newreno_through_one_recovery() {
        let mut d = Drive::new(Variant::Newreno, 5 * MSS);
        assert_eq!(d.ack(0), AckAnswer::NONE);
        assert_eq!(d.ack(0), AckAnswer::NONE);
        let fr = d.ack(0);
        assert_eq!(fr.cut(), Some(Cut { inflate: true, cause: LossCause::Congestion, count: 1 }));
        assert_eq!(d.r.flight_bytes(d.snd_una, d.snd_max), 5 * MSS);
        assert_eq!(fr.retransmit(), Some(Retransmit::Seq(0)));
        assert!(fr.restarts_rto() && fr.stops_timing() && !fr.is_requested());
        assert!(d.r.in_recovery());
        assert_eq!(d.ack(0).window(), WindowStep::DupackInRecovery);
        let partial = d.ack(2 * MSS);
        assert_eq!(partial.window(), WindowStep::PartialAck);
        assert_eq!(partial.retransmit(), Some(Retransmit::Seq(2 * MSS)));
        assert!(partial.restarts_rto(), "the first partial ack restarts the timer");
        let second = d.ack(3 * MSS);
        assert_eq!(second.window(), WindowStep::PartialAck);
        assert!(!second.restarts_rto(), "later ones do not (RFC 6582 3.2 step 5)");
        let exit = d.ack(5 * MSS);
        assert_eq!(exit.exit(), Some(ExitRule::Deflate));
        assert!(exit.restarts_rto() && exit.retransmit().is_none());
        assert!(!d.r.in_recovery());
        // Outside recovery an ack of new data opens the window.
        d.snd_max = 8 * MSS;
        assert_eq!(d.ack(6 * MSS), AckAnswer::OPEN);
    }

    /// Reno's first ack of new data ends recovery (RFC 5681 3.2 step 6),
    /// even a partial one; Tahoe goes back N.
    #[test]
    fn reno_exits_on_a_partial_ack_and_tahoe_goes_back_n() {
        let mut d = Drive::new(Variant::Reno, 5 * MSS);
        for _ in 0..3 {
            d.ack(0);
        }
        assert_eq!(d.ack(2 * MSS).exit(), Some(ExitRule::Reno));
        let mut t = Drive::new(Variant::Tahoe, 5 * MSS);
        t.ack(0);
        t.ack(0);
        assert_eq!(t.ack(0).retransmit(), Some(Retransmit::GoBackN));
        assert!(!t.r.in_recovery());
    }

    /// SMART (seed 000 Sec. III-A) with 0..5000 out and 0 and 1000 lost:
    /// the ack echoing 2000 shows the gap: one cut without inflation, and
    /// its credit resends 0; the ack echoing 3000 is in the same episode
    /// (no cut) and resends 1000; the ack of 5000 ends the episode and
    /// opens the window.
    #[test]
    fn smart_cuts_once_per_episode_and_resends_one_hole_per_smart_ack() {
        let mut d = Drive::new(Variant::Smart, 5 * MSS);
        let first = d.ack_with(0, &[], Some(2 * MSS));
        assert_eq!(first.cut(), Some(Cut { inflate: false, cause: LossCause::Congestion, count: 1 }));
        assert!(first.retransmit().is_none(), "SMART's resends go by credit");
        assert!(d.r.in_recovery());
        assert_eq!(d.next(MSS), NextSeg::Segment(0, MSS));
        d.r.on_retransmit(Time::from_ms(100), 0, MSS, false);
        assert_eq!(d.next(MSS), NextSeg::Window { extra_segments: 0 }, "one per SMART ack");
        let second = d.ack_with(0, &[], Some(3 * MSS));
        assert_eq!(second.cut(), None, "one cut per episode");
        assert_eq!(d.next(MSS), NextSeg::Segment(MSS, MSS));
        let exit = d.ack(5 * MSS);
        assert_eq!(exit.exit(), Some(ExitRule::Keep));
        assert_eq!(exit.window(), WindowStep::Open);
        assert!(!d.r.in_recovery());
    }

    /// RFC 6675 with 0..5000 out and 0 lost, the acks SACKing 1000 to
    /// 2500 in half segments (so IsLost(0) never holds): a repeated block
    /// SACKs nothing new and is no duplicate (Sec. 2); the third duplicate
    /// starts recovery ("DupAcks >= DupThresh"): one cut without inflation
    /// on FlightSize, and HighACK's segment, 0, resent (step 4.3). Then
    /// pipe holds 0 twice (sent, resent, not lost) and 2500..5000: NextSeg
    /// waits for cwnd - pipe >= 1 SMSS. The ack of RecoveryPoint (5000)
    /// ends recovery, cwnd = ssthresh.
    #[test]
    fn sack_enters_recovery_at_dupthresh_and_resends_high_ack() {
        let mut d = Drive::new(Variant::Sack, 5 * MSS);
        assert_eq!(d.ack_with(0, &[(1000, 1500)], None), AckAnswer::NONE);
        assert_eq!(d.ack_with(0, &[(1000, 1500)], None), AckAnswer::NONE, "nothing new SACKed");
        assert_eq!(d.r.dupacks(), 1);
        assert_eq!(d.ack_with(0, &[(1000, 2000)], None), AckAnswer::NONE);
        let entry = d.ack_with(0, &[(1000, 2500)], None);
        assert_eq!(entry.cut(), Some(Cut { inflate: false, cause: LossCause::Congestion, count: 1 }));
        assert_eq!(d.r.flight_bytes(d.snd_una, d.snd_max), 5 * MSS);
        assert_eq!(d.r.flight_bytes(d.snd_una, d.snd_max), 5 * MSS);
        assert_eq!(entry.retransmit(), Some(Retransmit::Seq(0)));
        assert!(entry.restarts_rto() && entry.stops_timing());
        assert!(d.r.in_recovery());
        // A further duplicate in recovery changes nothing.
        assert_eq!(d.ack_with(0, &[(1000, 2500)], None), AckAnswer::NONE);
        d.r.on_retransmit(Time::from_ms(100), 0, MSS, false);
        assert_eq!(d.next(5000), NextSeg::Wait, "pipe 4500: cwnd - pipe < 1 SMSS");
        assert_eq!(d.next(5500), NextSeg::Segment(5 * MSS, MSS), "new data by rule (2)");
        let exit = d.ack(5 * MSS);
        assert_eq!(exit.exit(), Some(ExitRule::Deflate));
        assert!(exit.restarts_rto());
        assert!(!d.r.in_recovery());
    }

    /// Seed 004's LHP list over SACK (an LL-ELSN member): 0..6000 out, 0
    /// lost; the acks echoing 1000, 2000 and 3000 count against 0, the
    /// third reaching DupThresh: a cut on the list's bytes (0, 4000 and
    /// 5000 listed) and 0 sent first, ahead of the window.
    #[test]
    fn lhp_list_fast_retransmits_a_packet_at_dupthresh() {
        use crate::ll_elsn::LlElsnConfig;
        use crate::LlElsnResponse;
        let mut d = Drive::new(Variant::Sack, 6 * MSS);
        let ll = LlElsn::new(LlElsnConfig::comparison(LlElsnResponse::LhpList), MSS as u32, 3);
        d.r =
            std::mem::replace(&mut d.r, Recovery::DupAck(DupAck::new(&SenderConfig::reno(1000)))).with_ll_elsn(ll, MSS);
        for k in 0..6 {
            assert!(!d.r.on_sent(k * MSS, MSS, false));
        }
        assert_eq!(d.ack_with(0, &[], Some(MSS)).cut(), None);
        assert_eq!(d.ack_with(0, &[], Some(2 * MSS)).cut(), None);
        let fired = d.ack_with(0, &[], Some(3 * MSS));
        assert_eq!(fired.cut(), Some(Cut { inflate: false, cause: LossCause::Congestion, count: 1 }));
        assert_eq!(d.r.flight_bytes(0, 6 * MSS), 3 * MSS, "the list's bytes");
        let q = SendQuery {
            now: Time::from_ms(100),
            snd_una: 0,
            snd_nxt: 6 * MSS,
            snd_max: 6 * MSS,
            end_of_data: u64::MAX,
            rwnd_limit: u64::MAX,
            cwnd_bytes: MSS,
            mss_bytes: MSS,
            rtt: &d.rtt,
            pending: false,
            app_limited: false,
            peek: false,
        };
        assert_eq!(d.r.send_first(|| q), Some((0, MSS)));
    }
}
