//! Typed trace events and the columnar sink that records them.
//!
//! Models publish a [`TraceEvent`] for every state change the papers plot:
//! congestion window and threshold (seed 000 Figs. 4, 8, 11), segments sent and
//! acknowledged with retransmission and timeout marks (Figs. 5, 7, 10), drops
//! by cause. The [`Trace`] sink stores them column by column so that the Python
//! front can hand them to Arrow without a per-row conversion. A disabled sink
//! records nothing, so benchmark runs pay one branch per event.

use crate::Time;

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropCause {
    /// Corrupted by the link's error model.
    Error,
    /// Refused by a full queue, or the victim a full queue chose in its place.
    Queue,
    /// Chosen by RED for an early congestion signal while not ECN-capable
    /// (RFC 3168 Sec. 7: a router drops what it cannot mark).
    Early,
    /// A pure ack purged from a queue by ACK filtering (seed 001 Sec. 6.2):
    /// a newer cumulative ack of its connection made it redundant.
    Filtered,
    /// Given up by a link-level ARQ after its retry limit (a MAC's frame
    /// that never reached the next hop).
    RetryLimit,
    /// Lost to a scheduled link outage (seed 002: queued when the link went
    /// down with `flush`, on its medium or propagating then, offered to it
    /// while down, or sent into a `blackhole`; a handoff's old link too).
    Outage,
    /// Reached a base station its mobile host had left, after the routes
    /// switched to the new one (seed 002: a handoff's `drop` of the packets
    /// still routed to the old station).
    Handoff,
}

impl DropCause {
    /// The cause's name in trace tables (`drops.cause`).
    pub fn name(self) -> &'static str {
        match self {
            DropCause::Error => "error",
            DropCause::Queue => "queue",
            DropCause::Early => "early",
            DropCause::Filtered => "filtered",
            DropCause::RetryLimit => "retry_limit",
            DropCause::Outage => "outage",
            DropCause::Handoff => "handoff",
        }
    }
}

/// What a TCP sender did that the papers mark on their plots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenderEventKind {
    FastRetransmit,
    Timeout,
    /// A NewReno partial ack that triggered a retransmission.
    PartialAck,
    RecoveryExit,
    /// A retransmission on ELN-marked duplicate acks, window untouched
    /// (seed 000), or on a link-layer ELN (seed 004).
    ElnRetransmit,
    /// Seed 004 (LL-ELSN, Sec. 3.1): an ERSN reached the sender (the link
    /// layer retries one of its segments).
    ErsnReceived,
    /// Seed 004: a link-layer ELN reached the sender (answered or filtered).
    ElnReceived,
    /// Seed 004: the retransmission timer expired while the oldest
    /// outstanding segment was marked by an ERSN, and was re-armed instead
    /// of timing out (no resend, no cut, no backoff).
    TimeoutDeferred,
    /// Seed 004 Sec. 4.2: ELN filtering declared a disconnection (more than
    /// N consecutive ELNs) and froze the sender's parameters.
    Disconnection,
    /// Seed 002 (elaarag-002.md F6): the sender was reset on a move (I-TCP,
    /// MHP): backoff cleared, slow start from one segment.
    MoveReset,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TraceEvent {
    /// Congestion window and slow-start threshold after a change, in bytes.
    Window { flow: u32, cwnd_bytes: u64, ssthresh_bytes: u64 },
    /// A data segment handed to the network by its sender.
    SegmentSent { flow: u32, seq: u64, len: u32, retransmit: bool },
    /// An ack taken in by the sender.
    AckReceived { flow: u32, ack: u64 },
    /// A sender event (fast retransmit, timeout, ...).
    Sender { flow: u32, kind: SenderEventKind },
    /// A packet dropped on a link direction. `seq`: a data segment's first
    /// byte; an ack's cumulative ack (an LL-ELSN or EBSN notice's, the
    /// segment it names).
    Drop { link_dir: u32, flow: u32, seq: u64, is_data: bool, cause: DropCause },
    /// A base-station agent (snoop) sent a segment again from its cache
    /// (seed 000 Figs. 4 and 5 mark them): `timer` when its local timer
    /// caused it, false for duplicate acks (or a SMART gap, or the burst
    /// rule). `node` is the agent's node index.
    LocalRetransmit { flow: u32, seq: u64, len: u32, node: u32, timer: bool },
}

/// The bin of the sending-rate series unless set ([`Trace::with_send_rate_bin`]):
/// 100 ms \[R\] (yun-004.md Sec. 4.1: "segments (incl. retransmissions) sent
/// per time bin, e.g. 100 ms"; Fig. 16's axis is not legible).
pub const DEFAULT_SEND_RATE_BIN_NS: u64 = 100_000_000;

/// Columnar store of trace events, one table per event family.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub enabled: bool,
    pub window: WindowColumns,
    pub sent: SentColumns,
    pub acks: AckColumns,
    pub events: EventColumns,
    pub drops: DropColumns,
    pub local_rexmits: LocalRexmitColumns,
    /// The sending rate (seed 004 Fig. 16): segments sent per bin, per flow.
    pub send_rate: SendRateColumns,
    send_rate_bin_ns: u64,
    /// Per flow, its open bin.
    send_bins: Vec<SendBin>,
}

/// The sending-rate series (seed 004 Fig. 16): per flow and time bin, the
/// data segments its sender handed to the network (first transmissions and
/// retransmissions) and of those the retransmissions. A flow's rows run
/// from the bin of its first segment to the bin of its last, a row per bin
/// (0 where it sent nothing: a sender silenced by a disconnection shows as
/// zeros); rows of different flows interleave in the order bins close.
/// Built from the `SegmentSent` events as they are recorded: the same
/// counts as binning the `sent` table.
#[derive(Clone, Debug, Default)]
pub struct SendRateColumns {
    /// The bin's start.
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub segments: Vec<u32>,
    pub retransmits: Vec<u32>,
}

/// A flow's open bin of the sending-rate series.
#[derive(Clone, Copy, Debug, Default)]
struct SendBin {
    /// Its index (start / bin width); meaningful once `open`.
    index: u64,
    segments: u32,
    retransmits: u32,
    open: bool,
}

#[derive(Clone, Debug, Default)]
pub struct WindowColumns {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub cwnd_bytes: Vec<u64>,
    pub ssthresh_bytes: Vec<u64>,
}

#[derive(Clone, Debug, Default)]
pub struct SentColumns {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub seq: Vec<u64>,
    pub len: Vec<u32>,
    pub retransmit: Vec<bool>,
}

#[derive(Clone, Debug, Default)]
pub struct AckColumns {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub ack: Vec<u64>,
}

#[derive(Clone, Debug, Default)]
pub struct EventColumns {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub kind: Vec<SenderEventKind>,
}

#[derive(Clone, Debug, Default)]
pub struct DropColumns {
    pub time_ns: Vec<u64>,
    pub link_dir: Vec<u32>,
    pub flow: Vec<u32>,
    pub seq: Vec<u64>,
    pub is_data: Vec<bool>,
    pub cause: Vec<DropCause>,
}

#[derive(Clone, Debug, Default)]
pub struct LocalRexmitColumns {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub seq: Vec<u64>,
    pub len: Vec<u32>,
    pub node: Vec<u32>,
    pub timer: Vec<bool>,
}

impl Trace {
    pub fn new(enabled: bool) -> Trace {
        Trace { enabled, send_rate_bin_ns: DEFAULT_SEND_RATE_BIN_NS, ..Trace::default() }
    }

    /// Bins the sending-rate series by `bin_ns` (at least 1 ns) instead of
    /// [`DEFAULT_SEND_RATE_BIN_NS`].
    pub fn with_send_rate_bin(mut self, bin_ns: u64) -> Trace {
        self.send_rate_bin_ns = bin_ns.max(1);
        self
    }

    /// The sending-rate series' bin, in ns.
    pub fn send_rate_bin_ns(&self) -> u64 {
        if self.send_rate_bin_ns == 0 {
            DEFAULT_SEND_RATE_BIN_NS
        } else {
            self.send_rate_bin_ns
        }
    }

    /// Close every flow's open sending-rate bin (the run is over): its row
    /// is written.
    pub fn finish(&mut self) {
        for flow in 0..self.send_bins.len() {
            let b = self.send_bins[flow];
            if b.open {
                self.push_send_rate(flow as u32, b);
                self.send_bins[flow].open = false;
            }
        }
    }

    fn push_send_rate(&mut self, flow: u32, b: SendBin) {
        let start = b.index * self.send_rate_bin_ns();
        let r = &mut self.send_rate;
        r.time_ns.push(start);
        r.flow.push(flow);
        r.segments.push(b.segments);
        r.retransmits.push(b.retransmits);
    }

    /// A segment of `flow` left at `t_ns`: counted in its bin, closing the
    /// bins before it (the empty ones as zeros).
    fn count_sent(&mut self, t_ns: u64, flow: u32, retransmit: bool) {
        let index = t_ns / self.send_rate_bin_ns();
        let f = flow as usize;
        if f >= self.send_bins.len() {
            self.send_bins.resize(f + 1, SendBin::default());
        }
        let b = self.send_bins[f];
        if !b.open {
            self.send_bins[f] = SendBin { index, open: true, ..SendBin::default() };
        } else if b.index != index {
            self.push_send_rate(flow, b);
            for gap in b.index + 1..index {
                self.push_send_rate(flow, SendBin { index: gap, ..SendBin::default() });
            }
            self.send_bins[f] = SendBin { index, open: true, ..SendBin::default() };
        }
        let b = &mut self.send_bins[f];
        b.segments += 1;
        b.retransmits += u32::from(retransmit);
    }

    /// Record `ev` if tracing: inlined down to the flag test, so an
    /// untraced run neither calls out nor builds the event.
    #[inline(always)]
    pub fn record(&mut self, now: Time, ev: TraceEvent) {
        if self.enabled {
            self.record_enabled(now, ev);
        }
    }

    #[inline(never)]
    fn record_enabled(&mut self, now: Time, ev: TraceEvent) {
        let t = now.ns();
        match ev {
            TraceEvent::Window { flow, cwnd_bytes, ssthresh_bytes } => {
                let w = &mut self.window;
                w.time_ns.push(t);
                w.flow.push(flow);
                w.cwnd_bytes.push(cwnd_bytes);
                w.ssthresh_bytes.push(ssthresh_bytes);
            }
            TraceEvent::SegmentSent { flow, seq, len, retransmit } => {
                let s = &mut self.sent;
                s.time_ns.push(t);
                s.flow.push(flow);
                s.seq.push(seq);
                s.len.push(len);
                s.retransmit.push(retransmit);
                self.count_sent(t, flow, retransmit);
            }
            TraceEvent::AckReceived { flow, ack } => {
                self.acks.time_ns.push(t);
                self.acks.flow.push(flow);
                self.acks.ack.push(ack);
            }
            TraceEvent::Sender { flow, kind } => {
                self.events.time_ns.push(t);
                self.events.flow.push(flow);
                self.events.kind.push(kind);
            }
            TraceEvent::Drop { link_dir, flow, seq, is_data, cause } => {
                let d = &mut self.drops;
                d.time_ns.push(t);
                d.link_dir.push(link_dir);
                d.flow.push(flow);
                d.seq.push(seq);
                d.is_data.push(is_data);
                d.cause.push(cause);
            }
            TraceEvent::LocalRetransmit { flow, seq, len, node, timer } => {
                let r = &mut self.local_rexmits;
                r.time_ns.push(t);
                r.flow.push(flow);
                r.seq.push(seq);
                r.len.push(len);
                r.node.push(node);
                r.timer.push(timer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_trace_records_nothing() {
        let mut t = Trace::new(false);
        t.record(Time(1), TraceEvent::AckReceived { flow: 0, ack: 5 });
        assert!(t.acks.time_ns.is_empty());
        let mut t = Trace::new(true);
        t.record(Time(1), TraceEvent::AckReceived { flow: 0, ack: 5 });
        assert_eq!(t.acks.ack, vec![5]);
    }

    #[test]
    fn the_send_rate_counts_segments_per_bin_with_zeros_between() {
        let mut t = Trace::new(true).with_send_rate_bin(100);
        let sent = |flow, retransmit| TraceEvent::SegmentSent { flow, seq: 0, len: 1, retransmit };
        // Flow 1: two in bin [100, 200), one resend in [400, 500).
        t.record(Time(150), sent(1, false));
        t.record(Time(199), sent(1, false));
        t.record(Time(420), sent(1, true));
        // Flow 0: one in [0, 100), after flow 1's first.
        t.record(Time(160), sent(0, false));
        assert_eq!(t.send_rate.time_ns, vec![100, 200, 300], "flow 1's bins up to its open one");
        t.finish();
        t.finish(); // closes nothing twice
        let r = &t.send_rate;
        assert_eq!(r.time_ns, vec![100, 200, 300, 100, 400]);
        assert_eq!(r.flow, vec![1, 1, 1, 0, 1]);
        assert_eq!(r.segments, vec![2, 0, 0, 1, 1]);
        assert_eq!(r.retransmits, vec![0, 0, 0, 0, 1]);
        // Disabled: nothing.
        let mut off = Trace::new(false);
        off.record(Time(1), sent(0, false));
        off.finish();
        assert!(off.send_rate.time_ns.is_empty());
    }

    #[test]
    fn local_retransmits_have_their_own_table() {
        let ev = TraceEvent::LocalRetransmit { flow: 0, seq: 1400, len: 1400, node: 1, timer: true };
        let mut t = Trace::new(false);
        t.record(Time(7), ev);
        assert!(t.local_rexmits.time_ns.is_empty());
        let mut t = Trace::new(true);
        t.record(Time(7), ev);
        let r = &t.local_rexmits;
        assert_eq!((r.time_ns[0], r.flow[0], r.seq[0], r.len[0], r.node[0], r.timer[0]), (7, 0, 1400, 1400, 1, true));
    }
}
