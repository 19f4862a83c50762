//! The TCP sender: sequence space, sending rules, and the glue between
//! congestion control ([`crate::cc`]), loss recovery ([`crate::recovery`]) and
//! the retransmission timer ([`crate::rtt`]).
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
//! Departures: no connection setup or teardown, no Nagle (bulk transfers
//! always have a full segment ready), no persist timer (the receiver's
//! window never closes because its application reads at once).

use crate::cc::{CcAlgorithm, CongestionControl, CongestionEvent, CongestionKind, LossCause};
use crate::config::{SenderConfig, Variant};
use crate::recovery::{AckVerdict, LossRecovery};
use crate::rtt::RttEstimator;
use lasthop_core::trace::{SenderEventKind, Trace, TraceEvent};
use lasthop_core::{TcpHeader, Time};

/// Counters the papers report for a source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// Data segments handed to the network, first transmissions and retransmissions.
    pub segments_sent: u64,
    /// Segments sent again (any segment starting below `snd_max`).
    pub retransmits: u64,
    /// Retransmission timeouts that fired.
    pub timeouts: u64,
    /// Fast retransmissions (third duplicate ack).
    pub fast_retransmits: u64,
    /// NewReno partial acks that retransmitted a hole.
    pub partial_acks: u64,
}

#[derive(Clone, Debug)]
pub struct Sender {
    cfg: SenderConfig,
    flow: u32,
    mss: u64,
    started: bool,
    stopped: bool,
    /// Oldest unacknowledged byte.
    snd_una: u64,
    /// Next byte to send.
    snd_nxt: u64,
    /// One past the highest byte ever sent.
    snd_max: u64,
    /// Peer's advertised window, in bytes.
    rwnd: u64,
    cc: CongestionControl,
    recovery: LossRecovery,
    rtt: RttEstimator,
    /// When the retransmission timer fires, or NEVER when it is stopped.
    rto_at: Time,
    /// The segment being timed: (its end, when it was sent).
    timing: Option<(u64, Time)>,
    /// A segment to retransmit before anything else.
    pending_rexmit: Option<u64>,
    stats: SenderStats,
}

impl Sender {
    pub fn new(cfg: SenderConfig, flow: u32) -> Sender {
        let algo = match cfg.variant {
            Variant::Tahoe => CcAlgorithm::Tahoe,
            Variant::Reno | Variant::Newreno => CcAlgorithm::Reno,
        };
        Sender {
            cfg,
            flow,
            mss: u64::from(cfg.mss_bytes),
            started: false,
            stopped: false,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            rwnd: cfg.send_buffer_bytes,
            cc: CongestionControl::new(algo, cfg.mss_bytes, cfg.initial_cwnd_segments, cfg.initial_ssthresh_bytes)
                .with_growth(cfg.window_growth),
            recovery: LossRecovery::new(cfg.variant, cfg.dupack_threshold),
            rtt: RttEstimator::new(cfg.rto),
            rto_at: Time::NEVER,
            timing: None,
            pending_rexmit: None,
            stats: SenderStats::default(),
        }
    }

    pub fn stats(&self) -> SenderStats {
        self.stats
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

    /// The application starts writing: the transfer begins.
    pub fn start(&mut self, now: Time, trace: &mut Trace) {
        self.started = true;
        self.trace_window(now, trace);
    }

    /// The application stops (end of a timed transfer): nothing more is sent.
    pub fn stop(&mut self) {
        self.stopped = true;
        self.rto_at = Time::NEVER;
        self.pending_rexmit = None;
    }

    /// When the sender next needs `on_timer`.
    pub fn poll_at(&self) -> Time {
        self.rto_at
    }

    fn end_of_data(&self) -> u64 {
        self.cfg.total_bytes.unwrap_or(u64::MAX)
    }

    fn flight(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    fn trace_window(&self, now: Time, trace: &mut Trace) {
        trace.record(
            now,
            TraceEvent::Window { flow: self.flow, cwnd_bytes: self.cc.cwnd(), ssthresh_bytes: self.cc.ssthresh() },
        );
    }

    fn arm_rto(&mut self, now: Time) {
        self.rto_at = self.rtt.deadline(now);
    }

    /// The next segment to send now, if any. Call until it returns `None`.
    pub fn poll_transmit(&mut self, now: Time, trace: &mut Trace) -> Option<TcpHeader> {
        if !self.started || self.stopped {
            return None;
        }
        let end = self.end_of_data();
        let (seq, len) = if let Some(seq) = self.pending_rexmit.take() {
            (seq, self.mss.min(end - seq))
        } else {
            if self.snd_nxt >= end {
                return None;
            }
            let win = self.cc.cwnd().min(self.rwnd).min(self.cfg.send_buffer_bytes);
            let limit = self.snd_una + win;
            if self.snd_nxt >= limit {
                return None;
            }
            let left = end - self.snd_nxt;
            let len = self.mss.min(limit - self.snd_nxt).min(left);
            if len < self.mss && len < left {
                return None; // silly-window avoidance: wait for a full segment
            }
            let seq = self.snd_nxt;
            self.snd_nxt += len;
            (seq, len)
        };
        let retransmit = seq < self.snd_max;
        self.snd_max = self.snd_max.max(seq + len);
        self.stats.segments_sent += 1;
        if retransmit {
            self.stats.retransmits += 1;
            self.timing = None; // Karn: never time across a retransmission
        } else if self.timing.is_none() {
            self.timing = Some((seq + len, now));
        }
        if self.rto_at == Time::NEVER {
            self.arm_rto(now);
        }
        trace.record(now, TraceEvent::SegmentSent { flow: self.flow, seq, len: len as u32, retransmit });
        Some(TcpHeader { seq, len: len as u32, is_retransmit: retransmit, ..TcpHeader::default() })
    }

    /// An ack arrived.
    pub fn on_ack(&mut self, now: Time, hdr: &TcpHeader, trace: &mut Trace) {
        if self.stopped {
            return;
        }
        trace.record(now, TraceEvent::AckReceived { flow: self.flow, ack: hdr.ack });
        self.rwnd = u64::from(hdr.wnd_bytes);
        let ack = hdr.ack.min(self.snd_max);
        let before = (self.cc.cwnd(), self.cc.ssthresh());
        if ack > self.snd_una {
            let acked = ack - self.snd_una;
            if let Some((timed_end, sent_at)) = self.timing {
                if ack >= timed_end {
                    self.rtt.on_sample(sent_at, now);
                    self.timing = None;
                }
            }
            self.snd_una = ack;
            self.snd_nxt = self.snd_nxt.max(ack);
            match self.recovery.on_new_ack(ack) {
                AckVerdict::PartialAck { first } => {
                    self.cc.on_partial_ack(acked);
                    self.pending_rexmit = Some(self.snd_una);
                    self.stats.partial_acks += 1;
                    trace.record(now, TraceEvent::Sender { flow: self.flow, kind: SenderEventKind::PartialAck });
                    // RFC 6582 3.2 step 5: reset the timer on the first partial ack only.
                    if first {
                        self.arm_rto(now);
                    }
                }
                AckVerdict::RecoveryExit => {
                    self.cc.on_recovery_exit();
                    trace.record(now, TraceEvent::Sender { flow: self.flow, kind: SenderEventKind::RecoveryExit });
                    self.arm_rto(now);
                }
                _ => {
                    self.cc.on_ack(acked);
                    self.arm_rto(now);
                }
            }
            if self.snd_una >= self.snd_max {
                self.rto_at = Time::NEVER; // RFC 6298 5.2
            }
        } else if ack == self.snd_una && self.snd_max > self.snd_una && hdr.len == 0 {
            match self.recovery.on_dupack(ack, self.snd_max) {
                AckVerdict::FastRetransmit => self.fast_retransmit(now, trace),
                AckVerdict::DupackInRecovery => self.cc.on_dupack_in_recovery(),
                _ => {}
            }
        }
        if before != (self.cc.cwnd(), self.cc.ssthresh()) {
            self.trace_window(now, trace);
        }
    }

    fn fast_retransmit(&mut self, now: Time, trace: &mut Trace) {
        self.stats.fast_retransmits += 1;
        trace.record(now, TraceEvent::Sender { flow: self.flow, kind: SenderEventKind::FastRetransmit });
        let ev = CongestionEvent {
            kind: CongestionKind::FastRetransmit,
            cause: LossCause::Congestion,
            flight_bytes: self.flight(),
        };
        self.cc.on_congestion(&ev, self.cfg.dupack_threshold);
        self.timing = None;
        if self.cfg.variant == Variant::Tahoe {
            self.snd_nxt = self.snd_una; // go-back-N in slow start
        } else {
            self.pending_rexmit = Some(self.snd_una);
        }
        // BSD clears the timer and `tcp_output` re-arms it for the retransmission.
        self.arm_rto(now);
    }

    /// The retransmission timer may have expired.
    pub fn on_timer(&mut self, now: Time, trace: &mut Trace) {
        if self.stopped || now < self.rto_at {
            return;
        }
        if self.snd_una >= self.snd_max {
            self.rto_at = Time::NEVER;
            return;
        }
        self.stats.timeouts += 1;
        trace.record(now, TraceEvent::Sender { flow: self.flow, kind: SenderEventKind::Timeout });
        let ev = CongestionEvent {
            kind: CongestionKind::Timeout,
            cause: LossCause::Congestion,
            flight_bytes: self.flight(),
        };
        self.cc.on_congestion(&ev, self.cfg.dupack_threshold);
        self.recovery.on_timeout(self.snd_max);
        self.rtt.on_timeout();
        self.timing = None;
        self.pending_rexmit = None;
        self.snd_nxt = self.snd_una;
        self.arm_rto(now);
        self.trace_window(now, trace);
    }
}
