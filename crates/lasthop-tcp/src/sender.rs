//! The TCP sender: sequence space, sending rules, timers and options, and
//! the glue between congestion control ([`crate::cc`]), loss recovery
//! ([`crate::recovery`]) and the retransmission timer ([`crate::rtt`]).
//!
//! Sending rules (RFC 793/5681, 4.4BSD `tcp_output`): the usable window is
//! min(cwnd, peer's advertised window, send buffer) from `snd_una`; only
//! full-sized segments are sent except for the last piece of the transfer
//! (sender-side silly-window avoidance, RFC 1122 4.2.3.4). One segment per
//! round trip is timed; a retransmission stops the timing (Karn). A timeout
//! goes back to `snd_una` and resends from there (go-back-N, as BSD does).
//! The retransmission timer is restarted by every ack of new data and stopped
//! when nothing is outstanding (RFC 6298 5.2–5.3).
//!
//! Loss recovery is the variant's member of [`Recovery`] (Tahoe, Reno,
//! NewReno and TCP-DCR; SACK; SMART; SACK with a seed 004 LL-ELSN response),
//! with the options that belong to it (seed 000's ELN on marked duplicates,
//! limited transmit, the fast-retransmit request). The sender keeps none of
//! its state: each ack goes to it as an [`AckInfo`] and its [`AckAnswer`]
//! is applied in one place (`Sender::apply`: the window rules of
//! recovery through `self.cc`, the counters and trace events, the segment
//! to resend, the timers); when the sender may send, the member speaks
//! first ([`Recovery::send_first`], [`Recovery::next_seg`]: SACK's NextSeg,
//! SMART's credit, the window's extension by limited transmit); timeouts,
//! resends and the timer's wake-ups (TCP-DCR's held response) go to it too.
//!
//! Connection start-up and close are optional ([`crate::handshake`]: the
//! SYN exchange before data, a FIN on the last segment); without them the
//! flow starts established. A zero window is probed by the persist timer
//! ([`crate::persist`]: RFC 1122 4.2.2.17, 4.4BSD). Departure: no Nagle
//! (bulk transfers always have a full segment ready). A relay feeds the sender through
//! [`Sender::on_app_write`]; while data is short it sends full segments only.
//! A duplicate ack must leave the advertised window unchanged (RFC 5681
//! Sec. 2), so window updates are not counted as duplicates.
//!
//! Seed 001 options, each off unless configured (hooks here, mechanisms in
//! their own modules): RFC 3168 ECN and the echo of marked acks
//! ([`crate::ecn`]), the timestamp option ([`crate::timestamps`]), the
//! sender-window option (seed 001 Sec. 8.2: min(cwnd, data in the send
//! buffer) in MSS units, cwnd rounded down and buffered data up, so a last
//! short segment counts as one), sender adaptation
//! ([`crate::sender_adaptation`]: growth by data acked, burst pacing on a
//! timer served through `poll_at`/`on_timer`), and the fast-retransmit
//! request ([`crate::fr_request`]).
//!
//! With `header_prediction` a Reno sender takes 4.4BSD's fast path for pure
//! acks (`tcp_input` 8.5, 4.4BSD-Lite; the same in BSD/386 1.1, BSD/OS's
//! predecessor): an ack of new data that arrives while cwnd >= the peer's
//! window leaves cwnd alone and does not clear the duplicate-ack count.
//! When fast recovery has inflated cwnd to the advertised window, the ack
//! that ends it takes this path: cwnd stays inflated, the count stays above
//! tcprexmtthresh, and the next loss cannot be fast-retransmitted ("++t_dupacks
//! == tcprexmtthresh" never holds again) until a timeout clears the count.
//! The BSDs that followed guarded the prediction test with the count
//! (FreeBSD `t_dupacks < tcprexmtthresh`, OpenBSD `t_dupacks == 0`):
//! [`crate::HeaderPredictionGuard`] picks one. BSD/OS 2.1's own test is not
//! known; the 1997 scenarios take OpenBSD's, which the paper's measurements
//! of its stack point to (issue 28; see `scenarios/balakrishnan97/lan.toml`).

use crate::cc::{CongestionControl, CongestionEvent, CongestionKind, LossCause, RetransmitWindow};
use crate::config::{RtoMode, SenderConfig, Variant, WindowUpdate};
use crate::ecn::EcnSender;
use crate::handshake::{ConnectionTimes, Handshake};
use crate::persist::Persist;
use crate::recovery::{AckAnswer, AckInfo, Cut, ExitRule, NextSeg, Recovery, Retransmit, SendQuery, WindowStep};
use crate::rtt::RttEstimator;
use crate::sender_adaptation::SenderAdaptation;
use crate::timestamps::SenderTimestamps;
use lasthop_core::trace::{SenderEventKind, Trace, TraceEvent};
use lasthop_core::{Ecn, TcpHeader, Time};

// Seed 004's LL-ELSN: the hooks that drive [`crate::ll_elsn`].
mod ll_elsn_hooks;
mod mobility;
mod samples;

/// Counters the papers report for a source. In declaration order
/// (`repr(C)`), so that a sender can keep the three a round-trip sample
/// adds to in one cache line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct SenderStats {
    /// Data segments handed to the network, first transmissions and retransmissions.
    pub segments_sent: u64,
    /// Segments sent again (any segment starting below `snd_max`).
    pub retransmits: u64,
    /// Retransmission timeouts that fired.
    pub timeouts: u64,
    /// Loss recoveries begun without a timeout: fast retransmits (third
    /// duplicate ack), SACK recovery entries, SMART loss episodes.
    pub fast_retransmits: u64,
    /// NewReno partial acks that retransmitted a hole.
    pub partial_acks: u64,
    /// Retransmissions on ELN-marked duplicate acks.
    pub eln_retransmits: u64,
    /// Window reductions in answer to ECN-Echo (RFC 3168).
    pub ecn_reductions: u64,
    /// Fast retransmits started by a fast-retransmit request (seed 001 Sec. 6.3).
    pub requested_fast_retransmits: u64,
    /// Bursts cut at `maxburst` whose remainder waited for the burst timer (SA).
    pub paced_bursts: u64,
    /// Round-trip samples, and their sum in ns (seed 001 Table T2's "average
    /// RTT"): one per ack of new data carrying a timestamp echo when
    /// timestamps are on (RFC 7323 RTTM), else one per timed segment.
    pub rtt_samples: u64,
    pub rtt_sum_ns: u64,
    /// Their sum of squares, in ns² (seed 001 Sec. 5: the RTT's standard
    /// deviation is the latency asymmetry's mark).
    pub rtt_sum_sq_ns2: u128,
    /// LL-ELSN (seed 004): segments resent at once on a link-layer ELN.
    pub ll_eln_retransmits: u64,
    /// LL-ELSN: link-layer ELNs received (answered or filtered).
    pub elns_received: u64,
    /// LL-ELSN: ERSNs received.
    pub ersns_received: u64,
    /// LL-ELSN: retransmission timeouts deferred because the oldest
    /// outstanding segment was being retried by the link layer.
    pub ersn_deferred_timeouts: u64,
    /// LL-ELSN: disconnections declared by ELN filtering (seed 004 Sec. 4.2).
    pub disconnections: u64,
    /// Zero-window probes sent by the persist timer ([`crate::persist`]);
    /// not counted in `retransmits`.
    pub persist_probes: u64,
    /// Times the sender entered persist (its peer's window closed with
    /// data to send), and EBSNs received (`restart_rto` calls from a base
    /// station's notices, seed 002 Sec. 5.2): 32 bits each, as below.
    pub persist_entries: u32,
    pub ebsns_received: u32,
    /// Fast retransmits the sender began itself (fast-retransmit handoff,
    /// elaarag-002.md F5; also counted in `fast_retransmits`), and resets
    /// on a move (F6): 32 bits each, so that the counters keep the
    /// sender's thirteen lines.
    pub local_fast_retransmits: u32,
    pub move_resets: u32,
}

impl SenderStats {
    fn count_rtt(&mut self, rtt_ns: u64) {
        self.rtt_samples += 1;
        self.rtt_sum_ns += rtt_ns;
        self.rtt_sum_sq_ns2 += u128::from(rtt_ns) * u128::from(rtt_ns);
    }

    /// Mean and standard deviation (population) of the round-trip samples,
    /// in ns; `None` without samples.
    pub fn rtt_mean_std_ns(&self) -> Option<(f64, f64)> {
        if self.rtt_samples == 0 {
            return None;
        }
        let n = self.rtt_samples as f64;
        let mean = self.rtt_sum_ns as f64 / n;
        let var = (self.rtt_sum_sq_ns2 as f64 / n - mean * mean).max(0.0);
        Some((mean, var.sqrt()))
    }
}

/// The fields are laid out by use (`repr(C)`, hottest first): an ack and
/// the segments it releases touch the first four cache lines only (the
/// sequence space and the limits `choose` reads; the window, the timed
/// segment; loss recovery; the timer, the optional parts' boxes and the
/// flags), not the configuration and counters behind them. With thousands
/// of flows a sender is rarely in the cache, and each line it spans costs a
/// miss (issue 9). The few configuration fields read per ack or segment are
/// copied into the hot lines; the configuration itself stays whole at the
/// end. A sender starts a cache line wherever it is kept.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Sender {
    /// Oldest unacknowledged byte.
    snd_una: u64,
    /// Next byte to send.
    snd_nxt: u64,
    /// One past the highest byte ever sent.
    snd_max: u64,
    /// Peer's advertised window, in bytes.
    rwnd: u64,
    /// When the retransmission timer fires, or NEVER when it is stopped.
    rto_at: Time,
    /// One past the last byte there is to send now: the transfer's end
    /// (`u64::MAX` for a timed one), or for a relay whose data arrives over
    /// time the last byte written, whichever is lower.
    data_end: u64,
    /// `cfg.send_buffer_bytes` (copied).
    send_buffer_bytes: u64,
    /// Its window holds the MSS too (`self.cc.mss()`): one copy on the hot lines.
    cc: CongestionControl,
    /// The segment being timed: (its end, when it was sent).
    timing: Option<(u64, Time)>,
    /// The loss recovery the variant runs ([`crate::recovery`]).
    recovery: Recovery,
    /// A segment to retransmit before anything else.
    pending_rexmit: Option<u64>,
    /// The window of the last ack, once one arrived (RFC 5681 Sec. 2: a
    /// duplicate ack leaves the advertised window unchanged).
    last_wnd: Option<u32>,
    flow: u32,
    started: bool,
    stopped: bool,
    /// Any segment option (timestamps, sender window, ECN flags) is on: one
    /// branch per segment for flows that use none.
    stamps: bool,
    /// The ack being processed carries ECN-Echo: it does not open the window.
    ece_hold: bool,
    /// `cfg.header_prediction` (copied).
    header_prediction: bool,
    /// `cfg.window_update` is `Latest` (copied): every ack's window is taken.
    latest_window: bool,
    /// The application has written less than the whole transfer (a relay).
    app_limited: bool,
    /// The RTO counts down at a coarse tick (BSD): `rtt` computes the deadline.
    rto_ticked: bool,
    /// `cfg.ecn` (copied; `ecn` keeps its own, fixed when made): every ack
    /// tests it, and `ecn` is on a cold line (compiled without a branch, a
    /// test of `ecn`'s flag after `hdr.ece` read that line on every ack).
    ecn_on: bool,
    /// The recovery is LL-ELSN's (set by `with_ll_elsn`): as `ecn_on`, for
    /// the LL-ELSN tests on every segment and timeout; every "is LL-ELSN
    /// on" test reads it.
    ll_elsn_on: bool,
    /// Reno's window on the duplicate-ack recovery without TCP-DCR's
    /// hold, without SA and without a controller's samples or pacing: the
    /// flows of the 1997 papers. `poll_at` and `poll_transmit` answer them
    /// with one test, and ask the extras (SA's burst timer, the held
    /// response, pacing) of the others only.
    plain: bool,
    /// Data segments sent (`SenderStats::segments_sent`, kept on a hot line).
    segments_sent: u64,
    /// The optional parts, boxed: most flows have none of them, and a
    /// pointer tells so in 8 bytes of a hot line.
    handshake: Option<Box<Handshake>>,
    adaptation: Option<Box<SenderAdaptation>>,
    /// Per-ack samples and the pacing clock, for a controller other than
    /// Reno ([`samples`]), read on every ack and segment of such a flow.
    samples: Option<Box<samples::Samples>>,
    /// Its one word, read on every ack and segment of a flow with options.
    ts: SenderTimestamps,
    /// Its first word, the current RTO, ends the hot lines; the rest is
    /// read on round-trip samples and timeouts.
    rtt: RttEstimator,
    // Cold from here.
    ecn: EcnSender,
    /// Its round-trip counters, which every sample adds to, lie in one
    /// line (the layout test): elsewhere they straddled two (after `ecn`).
    stats: SenderStats,
    /// The persist timer's state (cold: read when the peer's window is or
    /// was zero, and when the timer slot fires).
    persist: Persist,
    /// Held timers while frozen ([`mobility`], elaarag-002.md F3).
    frozen: Option<Box<mobility::Frozen>>,
    cfg: SenderConfig,
}

impl Sender {
    pub fn new(cfg: SenderConfig, flow: u32) -> Sender {
        let algo = match cfg.variant {
            Variant::Tahoe => RetransmitWindow::SlowStart,
            _ => RetransmitWindow::Inflate,
        };
        let mut sender = Sender {
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            rwnd: cfg.send_buffer_bytes,
            rto_at: Time::NEVER,
            data_end: cfg.total_bytes.unwrap_or(u64::MAX),
            send_buffer_bytes: cfg.send_buffer_bytes,
            cc: CongestionControl::new(algo, cfg.mss_bytes, cfg.initial_cwnd_segments, cfg.initial_ssthresh_bytes)
                .with_max_cwnd(cfg.max_cwnd_bytes)
                .with_bound(cfg.cwnd_bound, cfg.send_buffer_bytes)
                .with_growth(cfg.window_growth)
                .with_cut(cfg.window_cut)
                .with_recovery_exit(cfg.recovery_exit)
                .with_controller(&cfg.cc),
            timing: None,
            recovery: Recovery::new(&cfg),
            pending_rexmit: None,
            last_wnd: None,
            flow,
            started: false,
            stopped: false,
            stamps: cfg.timestamps || cfg.sender_window_option || cfg.ecn || cfg.echo_ack_marks,
            ece_hold: false,
            header_prediction: cfg.header_prediction,
            latest_window: cfg.window_update == WindowUpdate::Latest,
            app_limited: false,
            rto_ticked: cfg.rto.mode == RtoMode::Bsd,
            ecn_on: cfg.ecn,
            ll_elsn_on: false,
            plain: false,
            segments_sent: 0,
            handshake: cfg.handshake.then(|| Box::new(Handshake::new())),
            adaptation: cfg.adaptation.map(|a| Box::new(SenderAdaptation::new(a))),
            samples: None,
            rtt: RttEstimator::new(cfg.rto),
            ecn: EcnSender::new(cfg.ecn, cfg.echo_ack_marks),
            ts: SenderTimestamps::default(),
            stats: SenderStats::default(),
            persist: Persist::default(),
            frozen: None,
            cfg,
        };
        if sender.cc.wants_samples() {
            sender.samples = Some(Box::new(samples::Samples::new()));
        }
        sender.plain = sender.adaptation.is_none() && !sender.cc.wants_samples() && cfg.variant != Variant::Dcr;
        sender
    }

    /// Retransmission timeouts that fired so far (`SenderStats::timeouts`),
    /// without copying the counters: the world reads it around each timer
    /// wake-up to notice a timeout (the spurious-timeout oracle).
    pub fn timeouts(&self) -> u64 {
        self.stats.timeouts
    }
    pub fn stats(&self) -> SenderStats {
        SenderStats { segments_sent: self.segments_sent, ecn_reductions: self.ecn.reductions(), ..self.stats }
    }
    /// SA's fine-grained smoothed RTT from timestamp echoes, in ns.
    pub fn srtt_exact_ns(&self) -> Option<u64> {
        self.adaptation.as_ref().and_then(|a| a.srtt_exact_ns())
    }
    /// The IP ECN field of a data segment this sender just produced (RFC
    /// 3168 Sec. 6.1.5: never ECT on a retransmission; the sender reads its
    /// own flag).
    pub fn ip_ecn(&self, hdr: &TcpHeader) -> Ecn {
        // RFC 3168 Sec. 6.1.1: never on a SYN. ECN on sets `stamps`: a flow
        // without segment options reads no further.
        if hdr.syn || !self.stamps {
            return Ecn::NotEct;
        }
        self.ecn.ip_ecn(hdr.is_retransmit)
    }
    /// An ack arrived CE-marked (seed 001 Sec. 6.1): it is echoed to the
    /// receiver on the next data segment if the flow echoes ack marks; the
    /// sender's own window is left alone. Call before [`Sender::on_ack`].
    pub fn on_ce_mark(&mut self) {
        self.ecn.on_ack_ce();
    }
    pub fn cwnd_bytes(&self) -> u64 {
        self.cc.cwnd()
    }
    pub fn ssthresh_bytes(&self) -> u64 {
        self.cc.ssthresh()
    }
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    pub fn snd_max(&self) -> u64 {
        self.snd_max
    }
    pub fn in_recovery(&self) -> bool {
        self.recovery.in_recovery()
    }
    pub fn rto_ns(&self) -> u64 {
        self.rtt.rto_ns()
    }
    /// True once every byte of a bounded transfer is acknowledged.
    pub fn is_done(&self) -> bool {
        self.cfg.total_bytes.is_some_and(|n| self.snd_una >= n)
    }

    /// The connection's start-up and close times, if it has a handshake.
    pub fn connection(&self) -> Option<ConnectionTimes> {
        self.handshake.as_deref().map(Handshake::times)
    }

    /// True once the FIN is acknowledged (a flow with a handshake).
    pub fn is_closed(&self) -> bool {
        self.handshake.as_deref().is_some_and(Handshake::closed)
    }

    /// True while a sender with a handshake waits for the SYN-ACK.
    pub fn is_syn_sent(&self) -> bool {
        self.handshake.as_ref().is_some_and(|h| !h.established())
    }

    /// The application starts writing (with a handshake: opens the
    /// connection, and data waits for the SYN-ACK): the transfer begins.
    pub fn start(&mut self, now: Time, trace: &mut Trace) {
        self.started = true;
        if self.frozen.is_some() {
            self.start_frozen();
        }
        if let Some(h) = self.handshake.as_mut() {
            h.on_start();
        }
        self.trace_window(now, trace);
    }

    /// The application stops (end of a timed transfer): nothing more is sent.
    pub fn stop(&mut self) {
        self.stopped = true;
        self.rto_at = Time::NEVER;
        self.pending_rexmit = None;
        if let Some(a) = self.adaptation.as_mut() {
            a.cancel();
        }
    }

    /// When the sender next needs `on_timer`: the retransmission timer, or
    /// SA's burst timer.
    pub fn poll_at(&self) -> Time {
        if self.plain {
            return self.rto_at;
        }
        let at = match &self.adaptation {
            None => self.rto_at,
            Some(a) => self.rto_at.min(a.poll_at()),
        };
        // TCP-DCR's held response.
        let at = at.min(self.recovery.wakeup());
        // `samples` lies on cold lines: the hot test first.
        if !self.cc.wants_samples() {
            return at;
        }
        // A stopped sender sends nothing: its pacing clock wakes no one
        // (else a wake-up due and never served, for ever).
        match self.samples.as_deref() {
            Some(sm) if sm.pace_wait && !self.stopped => at.min(sm.next_send_at),
            _ => at,
        }
    }

    fn end_of_data(&self) -> u64 {
        self.data_end
    }

    /// The application (a split-connection relay) has written bytes up to
    /// `end`: they may be sent. Until it is first called all the data is
    /// there, as for a bulk source.
    pub fn on_app_write(&mut self, end: u64) {
        let total = self.cfg.total_bytes.unwrap_or(u64::MAX);
        self.data_end = total.min(end);
        self.app_limited = end < total;
    }

    fn flight(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    fn event(&self, now: Time, kind: SenderEventKind, trace: &mut Trace) {
        trace.record(now, TraceEvent::Sender { flow: self.flow, kind });
    }

    fn trace_window(&self, now: Time, trace: &mut Trace) {
        trace.record(
            now,
            TraceEvent::Window { flow: self.flow, cwnd_bytes: self.cc.cwnd(), ssthresh_bytes: self.cc.ssthresh() },
        );
    }

    fn arm_rto(&mut self, now: Time) {
        self.rto_at = if self.rto_ticked { self.rtt.deadline(now) } else { now.plus_ns(self.rtt.rto_ns()) };
        if self.cc.wants_samples() {
            self.arm_member_timer(now);
        }
    }

    /// A controller's own timer in place of the RTO (WTCP's blackout
    /// detection and probes, [`crate::cc::wtcp`]).
    #[inline(never)]
    fn arm_member_timer(&mut self, now: Time) {
        if let Some(ns) = self.cc.timer_ns(self.rtt.srtt_ns()) {
            self.rto_at = now.plus_ns(ns);
        }
    }

    /// The congestion controller (tests and reports read its member).
    pub fn congestion_control(&self) -> &CongestionControl {
        &self.cc
    }

    /// Whether a segment ending at `end` ends the transfer (it carries the
    /// FIN). Out of line: `cfg` lies on cold lines, and inlined, the test
    /// was compiled without a branch and read them for every segment of
    /// every flow, handshake or not (issue 9).
    #[inline(never)]
    fn ends_transfer(&self, end: u64) -> bool {
        self.cfg.total_bytes == Some(end)
    }

    /// The segment (seq, len) to send now, if the window rules allow one:
    /// what the recovery sends first (LL-ELSN), the queued retransmission,
    /// the recovery's choice (SACK's NextSeg, SMART's credit), else the
    /// window rule, cwnd extended by what the recovery allows (limited
    /// transmit). `peek`: only looking (SA's burst timer), nothing consumed.
    fn choose(&mut self, now: Time, peek: bool) -> Option<(u64, u64)> {
        let end = self.end_of_data();
        let limit_rwnd = self.snd_una + self.rwnd.min(self.send_buffer_bytes);
        let pending = self.pending_rexmit.is_some();
        // What a member that reads it is told (built only for those).
        let query = || SendQuery {
            now,
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            snd_max: self.snd_max,
            end_of_data: end,
            rwnd_limit: limit_rwnd,
            cwnd_bytes: self.cc.cwnd(),
            mss_bytes: self.cc.mss(),
            rtt: &self.rtt,
            pending,
            app_limited: self.app_limited,
            peek,
        };
        if self.ll_elsn_on {
            if let Some(seg) = self.recovery.send_first(query) {
                return Some(seg);
            }
        }
        if let Some(seq) = self.pending_rexmit.take() {
            return Some((seq, self.cc.mss().min(end - seq)));
        }
        let extra = match self.recovery.next_seg(query) {
            NextSeg::Segment(seq, len) => return Some((seq, len)),
            NextSeg::Wait => return None,
            NextSeg::Window { extra_segments } => extra_segments,
        };
        if self.snd_nxt >= end {
            return None;
        }
        // Without a branch: the extension is 0 on nearly every call.
        let win = self.cc.cwnd() + u64::from(extra) * self.cc.mss();
        let limit = (self.snd_una + win).min(limit_rwnd);
        if self.snd_nxt >= limit {
            return None;
        }
        let left = end - self.snd_nxt;
        let len = self.cc.mss().min(limit - self.snd_nxt).min(left);
        if len < self.cc.mss() && (len < left || self.app_limited) {
            return None; // silly-window avoidance: wait for a full segment
        }
        Some((self.snd_nxt, len))
    }

    /// SA (seed 001 Sec. 6.3): true if a new transmission must wait for the
    /// burst timer, arming it when a full burst leaves more to send.
    fn burst_blocked(&mut self, now: Time) -> bool {
        let Some(a) = self.adaptation.as_mut() else { return false };
        a.on_instant(now);
        if self.pending_rexmit.is_some() {
            return false; // a queued retransmission is never held back
        }
        if a.timer_pending() {
            return true;
        }
        if !a.burst_full() {
            return false;
        }
        // "If segments remain, set a burst timer": peek at the window
        // rules (nothing is consumed).
        let more = self.choose(now, true).is_some();
        if more {
            let window = self.cc.cwnd().min(self.rwnd);
            let mss = self.cc.mss();
            if let Some(a) = self.adaptation.as_mut() {
                a.arm(now, mss, window);
            }
            self.stats.paced_bursts += 1;
        }
        true
    }

    /// The next segment to send now, if any. Call until it returns `None`.
    pub fn poll_transmit(&mut self, now: Time, trace: &mut Trace) -> Option<TcpHeader> {
        if !self.started || self.stopped {
            return None;
        }
        if let Some(h) = self.handshake.as_mut().filter(|h| !h.established()) {
            // SYN-SENT: the SYN (when due), no data.
            let syn = h.poll_syn(now)?;
            if self.rto_at == Time::NEVER {
                self.arm_rto(now);
            }
            return Some(syn);
        }
        // A persisting sender is never `plain` (`on_window_edge`): its
        // probe is asked for off the plain path.
        let (seq, len) = if self.plain {
            self.choose(now, false)?
        } else {
            if self.adaptation.is_some() && self.burst_blocked(now) {
                return None;
            }
            let chosen = if self.cc.wants_samples() { self.choose_sampled(now) } else { self.choose(now, false) };
            match chosen {
                Some(seg) => seg,
                None if self.rwnd == 0 => return self.persist_probe(now, trace),
                None => return None,
            }
        };
        let retransmit = seq < self.snd_max;
        // An LL-ELSN resend is kept off the scoreboard (see `recovery::ll_elsn`).
        let eln_rexmit = self.ll_elsn_on && self.on_ll_elsn_sent(seq, len, retransmit);
        if seq == self.snd_nxt {
            self.snd_nxt += len;
        }
        self.snd_max = self.snd_max.max(seq + len);
        self.segments_sent += 1;
        if retransmit {
            self.stats.retransmits += 1;
            self.timing = None; // Karn: never time across a retransmission
            self.recovery.on_retransmit(now, seq, len, eln_rexmit);
        } else if self.timing.is_none() {
            self.timing = Some((seq + len, now));
        }
        if self.rto_at == Time::NEVER {
            self.arm_rto(now);
        }
        trace.record(now, TraceEvent::SegmentSent { flow: self.flow, seq, len: len as u32, retransmit });
        let mut hdr = TcpHeader { seq, len: len as u32, is_retransmit: retransmit, ..TcpHeader::default() };
        // The FIN rides the segment that reaches the end of the transfer.
        hdr.fin = self.handshake.is_some() && self.ends_transfer(seq + len);
        if self.stamps {
            self.stamp_options(now, &mut hdr);
        }
        if let Some(a) = self.adaptation.as_mut() {
            a.on_sent();
        }
        Some(hdr)
    }

    /// `choose` for a flow with a controller other than Reno: pacing may
    /// hold the segment back; one that leaves gets its send record and
    /// moves the pacing clock; nothing to send marks the flight
    /// app-limited ([`samples`]).
    #[inline(never)]
    fn choose_sampled(&mut self, now: Time) -> Option<(u64, u64)> {
        if self.pacing_blocked(now) {
            return None;
        }
        let Some((seq, len)) = self.choose(now, false) else {
            self.note_idle();
            return None;
        };
        let rate = self.cc.pacing_rate();
        let (flight, retransmit) = (self.snd_max - self.snd_una, seq < self.snd_max);
        if let Some(sm) = self.samples.as_deref_mut() {
            sm.on_sent(now, seq, len, flight, retransmit);
            if let Some(rate) = rate {
                sm.on_paced(now, len, rate);
            }
        }
        Some((seq, len))
    }

    /// Pacing (a controller's rate): true if the next segment must wait,
    /// the wake-up then asked through `poll_at`.
    fn pacing_blocked(&mut self, now: Time) -> bool {
        let paced = self.cc.pacing_rate().is_some();
        let Some(sm) = self.samples.as_deref_mut() else { return false };
        sm.pace_wait = paced && now < sm.next_send_at;
        sm.pace_wait
    }

    /// Nothing was sent: if for want of data while the window had room,
    /// what is in flight is app-limited (rate samples say so).
    fn note_idle(&mut self) {
        let flight = self.flight();
        if self.snd_nxt >= self.end_of_data() && flight < self.cc.cwnd() {
            if let Some(sm) = self.samples.as_deref_mut() {
                sm.on_app_limited(flight);
            }
        }
    }

    /// The seed 001 options of a data segment about to leave.
    fn stamp_options(&mut self, now: Time, hdr: &mut TcpHeader) {
        if self.cfg.timestamps {
            hdr.ts = Some(self.ts.stamp(now));
        }
        if self.cfg.sender_window_option {
            // Sec. 8.2: min(cwnd, bytes in the send socket buffer) in MSS units.
            let end = self.end_of_data().min(self.snd_una.saturating_add(self.cfg.send_buffer_bytes));
            let buffered = end.saturating_sub(self.snd_una).div_ceil(self.cc.mss());
            let win = (self.cc.cwnd() / self.cc.mss()).min(buffered);
            hdr.sender_window = Some(win.min(u64::from(u16::MAX)) as u16);
        }
        self.ecn.stamp(hdr, !hdr.is_retransmit);
    }

    /// The data outstanding when an ack of `acked` new bytes arrived (the
    /// window bound's measure of whether cwnd limited sending), `snd_una`
    /// having moved past them.
    fn flight_before_ack(&self, acked: u64) -> u64 {
        self.snd_max.saturating_sub(self.snd_una) + acked
    }

    /// Open the window for `acked` new bytes (outside loss recovery): per
    /// ack, or with SA as many times as the segments acknowledged. An ack
    /// with ECN-Echo opens nothing.
    #[inline(always)]
    fn open_window(&mut self, now: Time, acked: u64) {
        if self.ece_hold {
            return;
        }
        let flight = self.flight_before_ack(acked);
        match self.adaptation.as_mut() {
            None if self.cc.wants_samples() => self.open_window_sampled(now),
            None => self.cc.on_ack_bytes(now, acked, flight),
            Some(a) => {
                for _ in 0..a.increases(acked, self.cc.mss()) {
                    self.cc.on_ack_bytes(now, self.cc.mss(), flight);
                }
            }
        }
    }

    /// A controller other than Reno opens the window with the ack's sample.
    #[inline(never)]
    fn open_window_sampled(&mut self, now: Time) {
        if let Some(sm) = self.samples.as_deref() {
            self.cc.on_ack(now, &sm.last);
        }
    }

    /// An ack arrived.
    pub fn on_ack(&mut self, now: Time, hdr: &TcpHeader, trace: &mut Trace) {
        if self.stopped {
            return;
        }
        if self.handshake.is_some() && (hdr.syn || self.is_syn_sent()) {
            self.on_syn_ack(now, hdr);
            return;
        }
        trace.record(now, TraceEvent::AckReceived { flow: self.flow, ack: hdr.ack });
        // elaarag-002.md F1 (`WindowUpdate::Bsd`): acks carry no data here
        // (one-way transfers), so SEG.SEQ never moves and SND.WL1 never
        // decides; SND.WL2, the highest ack taken, is `snd_una`: a newer ack's
        // window is taken, a duplicate's only if it opens the window, a late
        // older ack's never. The first ack's always (no SYN set them).
        let wnd = u64::from(hdr.wnd_bytes);
        let before = self.rwnd;
        if hdr.ack > self.snd_una
            || self.latest_window
            || (hdr.ack == self.snd_una && wnd > self.rwnd)
            || self.last_wnd.is_none()
        {
            self.rwnd = wnd;
        }
        // Persist begins and ends only at a zero window (the last or this).
        let window_edge = before.min(self.rwnd) == 0;
        let same_wnd = self.last_wnd.is_none_or(|w| w == hdr.wnd_bytes);
        self.last_wnd = Some(hdr.wnd_bytes);
        let ack = hdr.ack.min(self.snd_max);
        let before = (self.cc.cwnd(), self.cc.ssthresh());
        let acked = ack.saturating_sub(self.snd_una);
        // 4.4BSD header prediction (see `SenderConfig::header_prediction`):
        // "this is a pure ack for outstanding data" when `ti_len == 0`,
        // `tiwin == snd_wnd`, `snd_nxt == snd_max`, `snd_una < ti_ack <=
        // snd_max` and `snd_cwnd >= snd_wnd`.
        // The guard on the duplicate-ack count is the recovery's.
        let predictable = self.header_prediction
            && acked > 0
            && hdr.len == 0
            && same_wnd
            && self.snd_nxt == self.snd_max
            && self.cc.cwnd() >= self.rwnd;
        if self.stamps {
            self.ts.on_ack(hdr.ts);
        }
        if acked > 0 {
            if let Some((timed_end, sent_at)) = self.timing {
                if ack >= timed_end {
                    self.rtt.on_sample(sent_at, now);
                    self.timing = None;
                    if !self.stamps {
                        self.stats.count_rtt(now.since(sent_at));
                    }
                }
            }
            if let (true, Some(ts)) = (self.stamps, hdr.ts) {
                self.stats.count_rtt(now.ns().saturating_sub(ts.ecr_ns));
            }
            if let (Some(a), Some(ts)) = (self.adaptation.as_mut(), hdr.ts) {
                // ns-2 recv_newack_helper: a sample on every ack of new data.
                a.on_rtt_sample(now.ns().saturating_sub(ts.ecr_ns));
            }
            self.snd_una = ack;
            self.snd_nxt = self.snd_nxt.max(ack);
        }
        // RFC 5681 Sec. 2: a duplicate acknowledges nothing new while data is
        // outstanding and carries no data.
        // While persisting the retransmission timer is off, and 4.4BSD counts
        // no duplicate then ("outstanding data (other than a window probe)").
        let dup = acked == 0
            && ack == self.snd_una
            && self.snd_max > self.snd_una
            && hdr.len == 0
            && same_wnd
            && !(window_edge && self.persist.active);
        self.ece_hold = hdr.ece && self.ecn_on;
        if self.cc.wants_samples() {
            self.sample_ack(now, hdr, ack, acked, dup);
        }
        let info = || AckInfo {
            now,
            snd_una: self.snd_una,
            snd_max: self.snd_max,
            acked_bytes: acked,
            dup,
            predictable,
            sack: hdr.sack.as_slice(),
            smart_echo: hdr.smart_echo,
            eln: hdr.eln,
            fr_request: hdr.fr_request,
            rtt: &self.rtt,
        };
        let answer = self.recovery.on_ack(info);
        self.apply(now, acked, answer, trace);
        if self.ece_hold {
            self.ece_hold = false;
            self.on_ecn_echo(now, ack);
        }
        if acked > 0 && self.snd_una >= self.snd_max {
            self.rto_at = Time::NEVER; // RFC 6298 5.2
        }
        if window_edge {
            self.on_window_edge(now);
        }
        if let Some(h) = self.handshake.as_mut() {
            h.on_ack(now, hdr.ack, self.cfg.total_bytes);
        }
        if before != (self.cc.cwnd(), self.cc.ssthresh()) {
            self.trace_window(now, trace);
        }
        // Frozen (elaarag-002.md F3), the sender reads as not started: a
        // test of the hot line before the cold one.
        if !self.started && self.frozen.is_some() {
            self.hold_deadline(now);
        }
    }

    /// A controller other than Reno: the ack's sample, to its estimators.
    #[inline(never)]
    fn sample_ack(&mut self, now: Time, hdr: &TcpHeader, ack: u64, acked: u64, dup: bool) {
        let flight = self.flight_before_ack(acked);
        let in_recovery = self.in_recovery();
        let Some(sm) = self.samples.as_deref_mut() else { return };
        let sample = sm.on_ack(now, hdr, ack, acked, flight, dup, in_recovery);
        self.cc.on_every_ack(now, &sample);
    }

    /// A segment with SYN, or any segment in SYN-SENT (see
    /// [`crate::handshake`]): a SYN-ACK in SYN-SENT establishes the
    /// connection; anything else (a duplicate SYN-ACK) is ignored.
    #[cold]
    fn on_syn_ack(&mut self, now: Time, hdr: &TcpHeader) {
        let Some(h) = self.handshake.as_mut() else { return };
        if h.established() || !hdr.syn {
            return;
        }
        match h.on_syn_ack(now) {
            Some(syn_sent_at) => self.rtt.on_sample(syn_sent_at, now),
            None => self.rtt.on_established_after_syn_timeout(),
        }
        self.rwnd = u64::from(hdr.wnd_bytes);
        self.last_wnd = Some(hdr.wnd_bytes);
        self.rto_at = Time::NEVER; // nothing outstanding until data goes
    }

    /// The retransmission timer expired in SYN-SENT: a timeout with nothing
    /// in flight (cwnd one segment, ssthresh two), backed off, and the SYN
    /// goes again.
    #[cold]
    fn on_syn_timeout(&mut self, now: Time, trace: &mut Trace) {
        self.stats.timeouts += 1;
        self.event(now, SenderEventKind::Timeout, trace);
        // SYN-SENT: no data outstanding, the peer's window not yet known.
        let ev = CongestionEvent {
            kind: CongestionKind::Timeout,
            cause: LossCause::Congestion,
            flight_bytes: 0,
            peer_window_bytes: 0,
            cut_rule: None,
        };
        self.cc.on_congestion(now, &ev, self.cfg.dupack_threshold);
        self.rtt.on_timeout();
        if let Some(h) = self.handshake.as_mut() {
            h.on_syn_timeout();
        }
        self.arm_rto(now);
        self.trace_window(now, trace);
    }

    /// RFC 3168 Sec. 6.1.2: ECN-Echo halves the window once per window of
    /// data, without a retransmission.
    fn on_ecn_echo(&mut self, now: Time, ack: u64) {
        if !self.ecn.on_ece(ack, self.snd_max, self.in_recovery()) {
            return;
        }
        let ev = CongestionEvent {
            kind: CongestionKind::FastRetransmit,
            cause: LossCause::Congestion,
            flight_bytes: self.flight(),
            peer_window_bytes: self.rwnd,
            cut_rule: None,
        };
        // The window trace records the cut; the count is in the stats.
        self.cc.on_ecn_echo(now, &ev);
    }

    /// The one place the loss recovery's answer to an ack (or to the
    /// timer, `acked` 0) takes effect: the window rules (`self.cc`), the
    /// counters and trace events, what to send next and the timers, in
    /// [`AckAnswer`]'s order. Most answers only open (or inflate) the
    /// window and restart the timer: one test tells them.
    #[inline(always)]
    fn apply(&mut self, now: Time, acked: u64, a: AckAnswer, trace: &mut Trace) {
        if a.is_open() {
            self.open_window(now, acked);
            self.arm_rto(now);
            return;
        }
        if !a.is_plain() {
            self.apply_recovery(now, acked, a, trace);
            return;
        }
        match a.window() {
            WindowStep::Open => self.open_window(now, acked),
            WindowStep::DupackInRecovery => self.cc.on_dupack_in_recovery(),
            _ => {}
        }
        if a.restarts_rto() {
            self.arm_rto(now);
        }
    }

    /// [`Sender::apply`] for an answer beyond the window's opening or inflation.
    #[inline(never)]
    fn apply_recovery(&mut self, now: Time, acked: u64, a: AckAnswer, trace: &mut Trace) {
        if a.resumes() {
            self.resume();
        }
        if let Some(rule) = a.exit() {
            match rule {
                ExitRule::Reno => self.cc.on_reno_recovery_exit(now, acked, self.flight_before_ack(acked)),
                ExitRule::Deflate => self.cc.on_recovery_exit(now),
                ExitRule::Keep => {}
            }
            self.event(now, SenderEventKind::RecoveryExit, trace);
        }
        match a.window() {
            WindowStep::Hold => {}
            WindowStep::Open => self.open_window(now, acked),
            WindowStep::PartialAck => {
                self.cc.on_partial_ack(acked);
                self.stats.partial_acks += 1;
                self.event(now, SenderEventKind::PartialAck, trace);
            }
            WindowStep::DupackInRecovery => self.cc.on_dupack_in_recovery(),
        }
        if a.eln_retransmit() {
            self.stats.eln_retransmits += 1;
            self.event(now, SenderEventKind::ElnRetransmit, trace);
        }
        if let Some(cut) = a.cut() {
            self.on_cut(now, cut, a.is_requested(), trace);
        }
        if a.stops_timing() {
            self.timing = None;
        }
        match a.retransmit() {
            None => {}
            Some(Retransmit::Seq(seq)) => self.pending_rexmit = Some(seq),
            Some(Retransmit::GoBackN) => self.snd_nxt = self.snd_una,
        }
        if a.restarts_rto() {
            self.arm_rto(now);
        }
    }

    /// A congestion event the recovery answered: each cut a fast
    /// retransmit, the window cut by the recovery's rule after the
    /// controller's verdict.
    fn on_cut(&mut self, now: Time, cut: Cut, requested: bool, trace: &mut Trace) {
        if requested {
            self.stats.requested_fast_retransmits += 1;
        }
        let ev = CongestionEvent {
            kind: CongestionKind::FastRetransmit,
            cause: cut.cause,
            flight_bytes: self.recovery.flight_bytes(self.snd_una, self.snd_max),
            peer_window_bytes: self.rwnd,
            cut_rule: None,
        };
        for _ in 0..cut.count {
            self.stats.fast_retransmits += 1;
            self.ecn.on_window_reduced(self.snd_max);
            self.event(now, SenderEventKind::FastRetransmit, trace);
            if cut.inflate {
                self.cc.on_congestion(now, &ev, self.cfg.dupack_threshold);
            } else {
                self.cc.on_congestion_no_inflation(now, &ev);
            }
        }
    }

    /// The peer's window is zero, or was until this ack ([`crate::persist`]):
    /// a zero window with data to send enters persist (the retransmission
    /// timer cancelled, `snd_nxt` pulled back to `snd_una`, the persist
    /// timer set) or stays in it (its deadline kept: an ack of new data
    /// re-armed the slot); an open window ends it, and data still
    /// outstanding gets a retransmission timer again.
    #[cold]
    #[inline(never)]
    fn on_window_edge(&mut self, now: Time) {
        if self.rwnd == 0 {
            if self.persist.active {
                self.rto_at = self.persist.at;
            } else if !self.stopped && self.snd_una < self.end_of_data() {
                self.stats.persist_entries += 1;
                self.persist.plain = self.plain;
                self.plain = false;
                self.snd_nxt = self.snd_una;
                self.pending_rexmit = None;
                self.timing = None;
                self.rto_at = self.persist.set(now, self.rtt.persist_base_ns());
            }
        } else if self.persist.active {
            self.plain = self.persist.plain;
            self.persist.end();
            self.rto_at = Time::NEVER;
            if self.snd_max > self.snd_una {
                self.arm_rto(now);
            }
        }
    }

    /// The persist timer fired: a probe is due, and the timer is set again
    /// (`tcp_timers`: `tcp_setpersist`, then a forced `tcp_output`).
    #[inline(never)]
    fn on_persist_timer(&mut self, now: Time) {
        self.persist.probe_due = true;
        self.rto_at = self.persist.set(now, self.rtt.persist_base_ns());
    }

    /// The probe, if one is due: one byte at `snd_una`, which moves
    /// `snd_max` but not `snd_nxt` and arms no retransmission timer
    /// (4.4BSD `tcp_output` with `t_force` and the persist timer running).
    #[inline(always)]
    fn persist_probe(&mut self, now: Time, trace: &mut Trace) -> Option<TcpHeader> {
        if !self.persist.probe_due || self.snd_una >= self.end_of_data() {
            return None;
        }
        self.persist.probe_due = false;
        let seq = self.snd_una;
        let retransmit = seq < self.snd_max;
        self.snd_max = self.snd_max.max(seq + 1);
        self.segments_sent += 1;
        self.stats.persist_probes += 1;
        trace.record(now, TraceEvent::SegmentSent { flow: self.flow, seq, len: 1, retransmit });
        let mut hdr = TcpHeader { seq, len: 1, is_retransmit: retransmit, ..TcpHeader::default() };
        hdr.fin = self.handshake.is_some() && self.ends_transfer(seq + 1);
        if self.stamps {
            self.stamp_options(now, &mut hdr);
        }
        Some(hdr)
    }

    /// Restart the retransmission timer with the current RTO, the backoff,
    /// cwnd and ssthresh untouched (elaarag-002.md F4: what EBSN asks of
    /// the source, Bakshi et al. 1997). Nothing outstanding, or persisting:
    /// no change.
    pub fn restart_rto(&mut self, now: Time) {
        self.stats.ebsns_received += 1;
        if self.snd_max > self.snd_una && !self.persist.active && !self.stopped {
            self.arm_rto(now);
        }
    }

    /// Whether the sender is in persist (its peer's window is zero).
    pub fn persisting(&self) -> bool {
        self.persist.active
    }

    /// The retransmission timer (or SA's burst timer) may have expired.
    pub fn on_timer(&mut self, now: Time, trace: &mut Trace) {
        if let Some(a) = self.adaptation.as_mut() {
            a.on_instant(now); // a due burst timer lets the next burst go
        }
        // A held response may be due (TCP-DCR).
        let sending = !self.stopped && self.snd_una < self.snd_max;
        if let Some(answer) = self.recovery.on_timer(now, self.snd_una, self.snd_max, sending) {
            self.apply(now, 0, answer, trace);
        }
        if self.stopped || now < self.rto_at {
            return;
        }
        if self.persist.active {
            self.on_persist_timer(now);
            return;
        }
        if self.handshake.is_some() && self.is_syn_sent() {
            self.on_syn_timeout(now, trace);
            return;
        }
        if self.snd_una >= self.snd_max {
            self.rto_at = Time::NEVER;
            return;
        }
        if self.ll_elsn_on && self.on_ll_elsn_timeout(now, trace) {
            return; // deferred: the link layer is still retrying the segment (ERSN)
        }
        self.stats.timeouts += 1;
        self.event(now, SenderEventKind::Timeout, trace);
        let ev = CongestionEvent {
            kind: CongestionKind::Timeout,
            cause: LossCause::Congestion,
            flight_bytes: self.flight(),
            peer_window_bytes: self.rwnd,
            cut_rule: None,
        };
        self.cc.on_congestion(now, &ev, self.cfg.dupack_threshold);
        self.recovery.on_timeout(self.snd_una, self.snd_max);
        self.rtt.on_timeout();
        self.timing = None;
        self.pending_rexmit = None;
        self.snd_nxt = self.snd_una;
        self.ecn.on_window_reduced(self.snd_max);
        if let Some(a) = self.adaptation.as_mut() {
            a.cancel(); // the retransmission goes at once
        }
        self.arm_rto(now);
        self.trace_window(now, trace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ack_and_the_segments_it_releases_touch_the_first_four_lines() {
        use std::mem::offset_of;
        let end = |offset: usize, size: usize| offset + size;
        // Everything `on_ack`, `poll_transmit` and `poll_at` read on a Reno
        // flow without options lies in bytes 0..256 (the RTO: the first
        // word of `rtt`).
        for (field, e) in [
            ("cc", end(offset_of!(Sender, cc), std::mem::size_of::<CongestionControl>())),
            ("timing", end(offset_of!(Sender, timing), 24)),
            ("recovery", end(offset_of!(Sender, recovery), std::mem::size_of::<Recovery>())),
            ("rto_ticked", end(offset_of!(Sender, rto_ticked), 1)),
            ("ecn_on", end(offset_of!(Sender, ecn_on), 1)),
            ("ll_elsn_on", end(offset_of!(Sender, ll_elsn_on), 1)),
            ("segments_sent", end(offset_of!(Sender, segments_sent), 8)),
            ("samples", end(offset_of!(Sender, samples), 8)),
            ("ts", end(offset_of!(Sender, ts), 8)),
            ("rtt.rto", end(offset_of!(Sender, rtt), 8)),
        ] {
            assert!(e <= 256, "{field} ends at {e}");
        }
        // The RTO ends line 3, so an RTT sample reads line 4 besides
        // (`RttEstimator`'s layout test).
        assert_eq!(offset_of!(Sender, rtt) + 8, 256, "the RTO ends line 3");
        // And one line of counters: the sample's count, sum and sum of
        // squares.
        let at = |o: usize| (offset_of!(Sender, stats) + o) / 64;
        let first = at(offset_of!(SenderStats, rtt_samples));
        assert_eq!(at(offset_of!(SenderStats, rtt_sum_ns) + 7), first);
        assert_eq!(at(offset_of!(SenderStats, rtt_sum_sq_ns2) + 15), first);
        // Thirteen lines since issue 30's recovery enum: SMART's episode
        // and TCP-DCR's box went into the recovery (whose duplicate-ack
        // member holds the delay inline), which left room on the hot lines
        // for the timestamp option's word.
        assert_eq!(std::mem::size_of::<Sender>(), 832, "thirteen lines");
    }
}
