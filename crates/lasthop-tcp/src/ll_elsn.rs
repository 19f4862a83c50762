//! The sender side of seed 004's link-layer loss notification, LL-ELSN (Yun
//! 2009, Secs. 3.1 and 4): what a TCP sender does when the link layer of the
//! last hop tells it that a segment entered link-layer retransmission (ERSN)
//! or was discarded after the retry limit (ELN). The world turns the access
//! point's LL-ELSN packets (downlink) or the station MAC's upcall (uplink)
//! into [`crate::Sender::on_ersn`] and [`crate::Sender::on_link_eln`]; neither
//! is ever an acknowledgment, cumulative or duplicate.
//!
//! This module holds the configuration and the parts every response shares:
//! - ERSN. Sec. 3.1: "When the wireless link layer of BS fails in the first
//!   transmission attempt of the packet 1 (Layer-2 ACK timeout), the wireless
//!   link layer retransmits the packet and, simultaneously, BS sends the
//!   Explicit Retransmission Start Notification (ERSN) to the remote TCP
//!   sender. Upon reception of ERSN, the TCP sender neither invokes
//!   congestion control due to the packet 1 nor retransmits it. Therefore,
//!   spurious timeout can be avoided." Algorithm 1 (Sec. 4.1), ESACK's ack
//!   processing, never names ERSN: on a duplicate ack it counts
//!   (HighACK == FirstUnsacked, or FirstUnsacked < HighSACK) and "if
//!   (dupacks >= DupThresh) Typical TCP operation for DupThresh duplicate
//!   ACKs", whose fast retransmission "retransmits the FirstUnsacked
//!   segment". Taken literally the two disagree when the segment being
//!   retried is FirstUnsacked and later segments overtake it (a link layer
//!   that serves its queue while a frame waits for its retry, the
//!   `deferred` reading of yun-004 Sec. 7 #9): Algorithm 1 would fast
//!   retransmit it and halve the window, Sec. 3.1 says neither. Sec. 3.1 is
//!   followed: it is the paper's one statement of what a sender does with an
//!   ERSN, and it is unconditional ("neither ... nor"); Algorithm 1 is
//!   written for ELNs ("can be used with LL-ELSN as well as generic ELN
//!   schemes", Sec. 4) and for the paper's stop-and-wait link layer
//!   (Fig. 1(a)), under which nothing overtakes the retried frame and no
//!   duplicate ack can name it (yun-004 2.3, last point). Algorithm 1's own
//!   reasoning is kept: FirstUnsacked is the segment whose absence says
//!   congestion, and an ELN takes a segment the link layer lost out of its
//!   way (to the queue's tail); an ERSN-marked segment is likewise known to
//!   be in the link layer, not dropped by congestion, so it is never
//!   FirstUnsacked. So, for every response:
//!   - the segment is marked; the mark clears on an ack covering it
//!     (cumulative or SACK), on an ELN for it, and on a timeout that fires;
//!   - duplicate acks count nothing against a marked segment, and no fast
//!     retransmission resends it nor cuts the window for it (ESACK: the first
//!     unSACKed, unmarked entry is FirstUnsacked; HACK and HACK-fixed: no
//!     count while HighACK's segment is marked; LHP list: a marked packet's
//!     counter stands still). A congestion loss of an unmarked segment is
//!     still found and fast retransmitted: ESACK's FirstUnsacked is then that
//!     segment (Algorithm 1's FirstUnsacked < HighSACK branch); HACK and
//!     HACK-fixed, whose RFC 6675 count only ever names HighACK + 1, find
//!     it once the mark on HighACK's segment clears (at most the link
//!     layer's l attempts later); the LHP list counts it as it did;
//!   - a SACK recovery under way never resends a marked segment (NextSeg
//!     passes over it: [`crate::sack::Scoreboard::next_seg`]);
//!   - a retransmission timeout that expires while the oldest outstanding
//!     segment is marked neither retransmits nor cuts nor backs off, it
//!     re-arms for one RTO, at most `ersn_max_deferrals` times for that
//!     segment (the bound keeps a lost ELN from stalling the connection).
//!
//!   When the mark clears: an ELN resends the segment at once (below), with
//!   the duplicate-ack count as it was before the mark, since nothing was
//!   counted against it meanwhile; a covering ack is an ack like any other
//!   (a new cumulative ack zeroes the count). Departure from the reference's
//!   reading (yun-004 2.3 "restart the RTO timer"): an ERSN does not restart
//!   the timer; its Sec. 7 #10 reading, suspending RTO-driven retransmission
//!   of the marked segment with a bound, is what the deferral does, and
//!   restarting the timer on an ERSN for a later segment would delay the
//!   repair of a congestion loss at `snd_una`. `ersn_max_deferrals = 0`
//!   turns the reaction off (no marks: LL-ELSN without ERSN, Fig. 13's
//!   comparison).
//! - ELN filtering (Sec. 4.2): "channel noise can maximally result in N
//!   consecutive ELNs"; beyond N the sender declares a disconnection, "freezes
//!   all the TCP-related parameters and retransmits the discarded segments at
//!   every other ELN"; "If the TCP sender receives a new ACK, the TCP sender
//!   restores the parameters and resumes data service." Consecutive means
//!   successive in sending order (the segment sent right after the last ELN'd
//!   one extends the run, any other ELN starts a new run at 1, a new ack ends
//!   it), which with a FIFO link is the run of consecutive discards the
//!   paper's p^(rN) argument counts (yun-004 2.6, Sec. 7 #14). The 1st, 3rd,
//!   5th, ... ELN after the declaration (the declaring one is the 1st) are
//!   answered. Frozen are cwnd, ssthresh and the RTO estimator; the
//!   duplicate-ack count needs no freezing, since the new ack that ends a
//!   disconnection clears it anyway. The paper does not say what the
//!   retransmission timer does meanwhile; here (yun-004 Sec. 7 #15) it keeps
//!   running and backs off as usual, and a timeout goes back to `snd_una`
//!   with the one-segment window of any timeout, so a connection whose ELN
//!   retransmissions died out still probes, ever more slowly; the values a
//!   new ack restores are those frozen at the declaration, so the probes'
//!   one-segment window and backed-off timer do not outlive the outage.
//!
//! The response to ELNs and duplicate acks is one of four (Sec. 5.3,
//! Fig. 14), dispatched by enum: ESACK ([`crate::esack`]), HACK and
//! HACK-fixed ([`crate::hack`]) and the LHP packet list ([`crate::lhp`]).
//! The paper runs all four "with LL-ELSN" (Sec. 5.3), and "The behavior of
//! the TCP sender against ERSN and ELN is the same" in both directions
//! (Sec. 3.1): the ERSN reaction above belongs to LL-ELSN, not to ESACK, so
//! all four have it.

use crate::ersn_marks::ErsnMarks;
use crate::esack::EsackQueue;
use crate::hack::ElnHoles;
use crate::lhp::LhpList;
use serde::{Deserialize, Serialize};

/// What a sender does with ELNs and duplicate acks (seed 004 Sec. 5.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LlElsnResponse {
    /// ELN-capable SACK (Sec. 4.1, Algorithm 1): the paper's proposal.
    #[default]
    Esack,
    /// HACK (Sec. 2.1): SACK plus an immediate retransmission on each ELN
    /// without congestion response; later duplicate acks still count.
    Hack,
    /// HACK whose duplicate-ack count for a hole resent on an ELN is reset at
    /// the ELN and not counted again until the hole is acked (the
    /// reference's reading, yun-004 Sec. 7 #16: the paper names HACK-fixed
    /// in Sec. 5.3 without defining it).
    HackFixed,
    /// Gao et al.'s packet list (Sec. 4.1, Fig. 4): a duplicate-ack counter
    /// per unacknowledged segment in sending order, one fast recovery per
    /// segment whose counter reaches DupThresh.
    LhpList,
}

/// An LL-ELSN sender's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LlElsnConfig {
    pub response: LlElsnResponse,
    /// ELN filtering's N (Sec. 4.2), in consecutive ELNs: N are taken as
    /// channel noise, the (N+1)th declares a disconnection. `None`: no
    /// filtering (every ELN is answered). The paper's example: frame loss
    /// p = 20 %, retry limit r = 1 gives N = 2.
    pub eln_filter: Option<u32>,
    /// Timeouts an ERSN may defer for the oldest outstanding segment, in
    /// RTOs. The reference gives ceil(l·T_llrtx / RTO) + 1 for retry limit
    /// l and link retransmission delay T_llrtx (yun-004 2.3); a scenario
    /// computes it so (`lasthop_sim`'s `LlElsnSpec`). 0: ERSNs are ignored
    /// (no marks at all: LL-ELSN without ERSN).
    pub ersn_max_deferrals: u32,
}

impl LlElsnConfig {
    /// The paper's sender: ESACK with N = 2 and two deferrals per segment
    /// (the library's default; a scenario computes the bound, see
    /// `ersn_max_deferrals`).
    pub fn esack() -> LlElsnConfig {
        LlElsnConfig { response: LlElsnResponse::Esack, eln_filter: Some(2), ersn_max_deferrals: 2 }
    }
    /// A comparison sender of Sec. 5.3 (no ELN filtering: Sec. 4.2 is ESACK's).
    pub fn comparison(response: LlElsnResponse) -> LlElsnConfig {
        LlElsnConfig { response, eln_filter: None, ..LlElsnConfig::esack() }
    }
}

/// The per-response state (enum dispatch: no trait object on the ack path).
#[derive(Clone, Debug)]
pub enum ResponseState {
    Esack(EsackQueue),
    /// HACK keeps nothing; HACK-fixed keeps the holes resent on an ELN.
    Hack(ElnHoles),
    Lhp(LhpList),
}

/// The ELN filter's verdict on one ELN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElnVerdict {
    /// Retransmit the segment at once.
    Retransmit,
    /// This ELN declares the disconnection (and is answered: the 1st).
    Disconnect,
    /// Disconnected: an even-numbered ELN, not answered.
    Skip,
}

/// ELN filtering (Sec. 4.2) and the sending order it counts runs in.
#[derive(Clone, Debug, Default)]
pub struct ElnFilter {
    /// N, or `None` for no filtering.
    n: Option<u32>,
    /// Sending index of the last segment an ELN named.
    last_eln_index: Option<u64>,
    /// Length of the current run of ELNs for successive segments.
    run: u32,
    disconnected: bool,
    /// ELNs received since the disconnection was declared, the declaring one included.
    since_disconnect: u64,
}

impl ElnFilter {
    pub fn new(n: Option<u32>) -> ElnFilter {
        ElnFilter { n, ..ElnFilter::default() }
    }
    pub fn disconnected(&self) -> bool {
        self.disconnected
    }
    pub fn run(&self) -> u32 {
        self.run
    }

    /// An ELN for the segment whose latest transmission had sending index
    /// `index` (`None` if unknown: it starts a run).
    pub fn on_eln(&mut self, index: Option<u64>) -> ElnVerdict {
        let successive = matches!((self.last_eln_index, index), (Some(last), Some(i)) if i == last + 1);
        self.run = if successive { self.run + 1 } else { 1 };
        self.last_eln_index = index;
        let Some(n) = self.n else { return ElnVerdict::Retransmit };
        if self.disconnected {
            self.since_disconnect += 1;
            // "retransmits the discarded segments at every other ELN".
            return if self.since_disconnect % 2 == 1 { ElnVerdict::Retransmit } else { ElnVerdict::Skip };
        }
        if self.run > n {
            self.disconnected = true;
            self.since_disconnect = 1;
            return ElnVerdict::Disconnect;
        }
        ElnVerdict::Retransmit
    }

    /// A new ack: the run ends; true if it ends a disconnection.
    pub fn on_new_ack(&mut self) -> bool {
        self.run = 0;
        self.last_eln_index = None;
        std::mem::take(&mut self.disconnected)
    }
}

/// Segments' sending order: each transmission gets the next index, and the
/// latest index of every outstanding segment is kept (sorted by sequence).
#[derive(Clone, Debug, Default)]
pub struct SendOrder {
    next: u64,
    /// (first byte, sending index of its latest transmission).
    latest: Vec<(u64, u64)>,
}

impl SendOrder {
    pub fn on_sent(&mut self, seq: u64) {
        let index = self.next;
        self.next += 1;
        match self.latest.binary_search_by_key(&seq, |&(s, _)| s) {
            Ok(i) => self.latest[i].1 = index,
            Err(i) => self.latest.insert(i, (seq, index)),
        }
    }
    pub fn index_of(&self, seq: u64) -> Option<u64> {
        self.latest.binary_search_by_key(&seq, |&(s, _)| s).ok().map(|i| self.latest[i].1)
    }
    /// Forget segments below the cumulative ack.
    pub fn on_ack(&mut self, snd_una: u64) {
        let gone = self.latest.partition_point(|&(s, _)| s < snd_una);
        self.latest.drain(..gone);
    }
}

/// An LL-ELSN sender's state, held by the recovery's LL-ELSN member
/// ([`crate::recovery::LlElsnRecovery`]).
#[derive(Clone, Debug)]
pub struct LlElsn {
    pub cfg: LlElsnConfig,
    pub response: ResponseState,
    pub filter: ElnFilter,
    pub order: SendOrder,
    pub ersn: ErsnMarks,
    /// Segments to retransmit at once on an ELN, in arrival order.
    pub eln_rexmit: Vec<u64>,
    /// What a disconnection froze: (congestion control, RTO estimator).
    pub frozen: Option<(crate::cc::CongestionControl, crate::rtt::RttEstimator)>,
}

impl LlElsn {
    pub fn new(cfg: LlElsnConfig, mss_bytes: u32, dupack_threshold: u32) -> LlElsn {
        let response = match cfg.response {
            LlElsnResponse::Esack => ResponseState::Esack(EsackQueue::new(mss_bytes, dupack_threshold)),
            LlElsnResponse::Hack | LlElsnResponse::HackFixed => ResponseState::Hack(ElnHoles::default()),
            LlElsnResponse::LhpList => ResponseState::Lhp(LhpList::new(dupack_threshold)),
        };
        LlElsn {
            cfg,
            response,
            filter: ElnFilter::new(cfg.eln_filter),
            order: SendOrder::default(),
            ersn: ErsnMarks::default(),
            eln_rexmit: Vec::new(),
            frozen: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_tolerates_n_successive_elns_then_answers_every_other_one() {
        // N = 2; segments sent with indices 0, 1, 2, ...: ELNs for 0..=5.
        let mut f = ElnFilter::new(Some(2));
        let verdicts: Vec<_> = (0..6).map(|i| f.on_eln(Some(i))).collect();
        use ElnVerdict::*;
        assert_eq!(verdicts, vec![Retransmit, Retransmit, Disconnect, Skip, Retransmit, Skip]);
        assert!(f.disconnected());
        // A new ack ends it and the run.
        assert!(f.on_new_ack());
        assert!(!f.disconnected() && f.run() == 0);
        // Non-successive ELNs never build a run.
        for i in [0, 2, 4, 6, 8] {
            assert_eq!(f.on_eln(Some(10 + i)), Retransmit);
        }
        assert_eq!(f.run(), 1);
    }

    #[test]
    fn no_filter_answers_every_eln() {
        let mut f = ElnFilter::new(None);
        assert!((0..10).all(|i| f.on_eln(Some(i)) == ElnVerdict::Retransmit));
        assert!(!f.disconnected());
    }

    #[test]
    fn send_order_keeps_the_latest_transmission() {
        let mut o = SendOrder::default();
        for s in [0, 1000, 2000, 0] {
            o.on_sent(s);
        }
        assert_eq!((o.index_of(0), o.index_of(1000), o.index_of(2000)), (Some(3), Some(1), Some(2)));
        o.on_ack(1000);
        assert_eq!(o.index_of(0), None);
    }
}
