//! The TCP receiver and its ack policy.
//!
//! Reassembly keeps out-of-order ranges (sorted, disjoint) and hands the
//! application every byte once, in order. Ack policy (RFC 5681 4.2, RFC 1122
//! 4.2.3.2): an out-of-order segment, a duplicate, or one that fills a hole is
//! acked at once (these are the duplicate acks fast retransmit relies on);
//! in-order data is acked per the [`AckPolicy`]: every segment, or every
//! second full-sized segment with a delayed-ack timer (a fixed delay, or the
//! next tick of the host's 200 ms fast timer as in 4.4BSD).
//!
//! The advertised window is the receive buffer: the application reads at
//! once, and 4.4BSD does not count the reassembly queue against the window.
//! An application that reads only when told ([`Receiver::app_paced`], the
//! relay of a split connection) leaves unread bytes in the buffer: the
//! window is the buffer less them, and when a read reopens it by at least
//! two segments or half the buffer a window update goes out at once
//! (4.4BSD `tcp_output`: "if (adv >= (long) (2 * tp->t_maxseg)) goto send;
//! if (2 * adv >= (long) so->so_rcv.sb_hiwat) goto send"). Data beyond the
//! window is trimmed (`tcp_input`): a probe of a zero window is dropped
//! and answered with an ack of the same window.
//!
//! Options each ack may carry:
//! - SACK (RFC 2018 Sec. 4): "The first SACK block ... MUST specify the
//!   contiguous block of data containing the segment which triggered this
//!   ACK, unless that segment advanced the Acknowledgment Number"; the rest
//!   repeat "the most recently reported SACK blocks (based on first SACK blocks
//!   in previous SACK options) that are not subsets of a SACK block already
//!   included", up to three blocks.
//! - SMART echo (seed 000 Sec. II, Keshav & Morgan): the sequence number of
//!   the segment that caused the ack.
//! - ELN (seed 000 Sec. III-A): "future cumulative acknowledgments
//!   corresponding to the lost packet are marked": an ack whose cumulative
//!   point is a segment the link layer reported corrupted carries the mark.
//!   The paper does not say how many corrupted segments its receiver
//!   remembers; by default every one (until it arrives), with
//!   `eln_slots = 1` one at a time (a literal reading of Sec. IV-C, "does not
//!   convey information about multiple wireless-related losses").
//! - Seed 001 options, off unless configured: ECN-Echo until CWR and ECT
//!   acks ([`crate::ecn`]), timestamps ([`crate::timestamps`]), the
//!   fast-retransmit request on duplicate acks ([`crate::fr_request`]).
//!
//! Connection start-up and close ([`crate::handshake`]) need no setting
//! here: a SYN, first or duplicate, is answered with a SYN-ACK (header
//! only); a FIN is acknowledged (ack = its sequence number + 1) at once
//! when every byte before it has arrived (4.4BSD `tcp_input`: `TF_ACKNOW`
//! on a FIN). Flows without a handshake send neither flag.
//!
//! ACK congestion control ([`crate::acc`]) replaces the policy's
//! `every_segments` by its delayed-ack factor; the policy's timer (a fixed
//! delay or the BSD fast tick) still forces an ack, and an `Immediate`
//! policy stays immediate (the scenario layer refuses ACC with it).

use crate::acc::AckCongestionControl;
use crate::config::{AckPolicy, ReceiverConfig};
use crate::ecn::EcnReceiver;
use crate::fr_request::FrRequestMarker;
use crate::mtcp::Withhold;
use crate::timestamps::ReceiverTimestamps;
use crate::wtcp::WtcpReceiver;
use lasthop_core::{Ecn, TcpHeader, Time};

/// Bytes newly handed to the application by one segment: `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub start: u64,
    pub end: u64,
}

/// The fields are laid out by use (`repr(C)`, hottest first): a data
/// segment and the ack it causes touch the first two cache lines only (the
/// sequence space and ack state; the ack policy and the few configuration
/// fields an ack reads, copied there), not the configuration, SACK and ELN
/// memory and options behind them. With thousands of flows a receiver is
/// rarely in the cache, and each line it spans costs a miss (issue 9). A
/// receiver starts a cache line wherever it is kept.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Receiver {
    /// Next in-order byte expected.
    rcv_nxt: u64,
    /// When the delayed ack goes out, or NEVER.
    delack_at: Time,
    /// Segment that caused the pending ack (SMART echo and SACK's first block).
    trigger: Option<u64>,
    /// Out-of-order ranges above `rcv_nxt`, sorted and disjoint.
    ooo: Vec<(u64, u64)>,
    /// Full-sized in-order segments received since the last ack.
    unacked_segments: u32,
    ack_now: bool,
    /// Any seed 001 option is on: one branch per segment for flows without
    /// (ACC and the fast-retransmit request are among them).
    options: bool,
    /// The application reads only when told (`app_read`).
    app_paced: bool,
    /// A SYN arrived and its SYN-ACK has not gone yet.
    syn_ack_due: bool,
    acks_sent: u64,
    /// Sequence number of the peer's FIN once seen (`u64::MAX`: none).
    fin_seq: u64,
    /// Copies of the configuration fields every segment or ack reads.
    recv_buffer_bytes: u64,
    ack_policy: AckPolicy,
    mss_bytes: u32,
    /// Every byte up to the FIN has arrived: acks count the FIN.
    fin_in: bool,
    sack: bool,
    smart_echo: bool,
    eln: bool,
    ecn: EcnReceiver,
    // Cold from here.
    cfg: ReceiverConfig,
    /// First-block sequence numbers of recent acks, most recent first (RFC 2018).
    sack_recent: Vec<u64>,
    /// Segments reported corrupted by the link layer, not yet received.
    eln_holes: Vec<u64>,
    /// Bytes the application has read (app-paced only).
    app_read: u64,
    /// Right edge of the window last advertised (app-paced only).
    adv_edge: u64,
    ts: ReceiverTimestamps,
    acc: Option<AckCongestionControl>,
    fr_request: Option<FrRequestMarker>,
    /// Freeze-TCP's state once asked for ([`Receiver::freeze_window`]).
    freeze: Option<Box<Freeze>>,
    /// When M-TCP's low-bandwidth rule chokes the source, or NEVER
    /// ([`crate::mtcp`]; only with `options`).
    choke_at: Time,
    /// WTCP's rate control ([`crate::wtcp`]; only with `options`).
    wtcp: Option<Box<WtcpReceiver>>,
}

/// Freeze-TCP at the receiving mobile host (Goff, Moronski, Phatak, Gupta,
/// INFOCOM 2000; elaarag-002.md Sec. 1.15, [K]: the paper's rules as the
/// reading gives them, not checked against its text): told of a
/// disconnection about to come, the receiver advertises a zero window
/// (ZWA) on every ack, the first of them a window update sent at once;
/// told of the reconnection, it sends three acks of what it has with its
/// window open again (TR-ACKs), so that the sender leaves persist at once
/// with its window as it was. Under the BSD rule for window updates
/// (`tcp.window_update`, elaarag-002.md F1) the first, a duplicate that
/// shrinks the window, is not taken; the zero window rides on the next ack
/// of new data.
///
/// The same box counts fast-retransmit handoff's duplicate acks
/// ([`Receiver::send_duplicate_acks`]): acks sent at once, one after
/// another, and holds M-TCP's withheld acks ([`Receiver::withhold_acks`]).
#[derive(Clone, Debug, Default)]
struct Freeze {
    /// Advertising a zero window.
    zero: bool,
    /// TR-ACKs (or handoff duplicates) still to send after the one due.
    tr_acks_due: u32,
    withhold: Option<Withhold>,
}

/// Freeze-TCP's reconnection acks (TR-ACKs): three copies.
pub const TR_ACKS: u32 = 3;

impl Receiver {
    pub fn new(cfg: ReceiverConfig) -> Receiver {
        Receiver {
            rcv_nxt: 0,
            delack_at: Time::NEVER,
            trigger: None,
            ooo: Vec::new(),
            unacked_segments: 0,
            ack_now: false,
            options: cfg.ecn || cfg.timestamps || cfg.acc.is_some() || cfg.fr_request_threshold.is_some(),
            app_paced: false,
            syn_ack_due: false,
            acks_sent: 0,
            fin_seq: u64::MAX,
            recv_buffer_bytes: cfg.recv_buffer_bytes,
            ack_policy: cfg.ack_policy,
            mss_bytes: cfg.mss_bytes,
            fin_in: false,
            sack: cfg.sack,
            smart_echo: cfg.smart_echo,
            eln: cfg.eln,
            ecn: EcnReceiver::new(cfg.ecn, cfg.ect_acks),
            cfg,
            sack_recent: Vec::new(),
            eln_holes: Vec::new(),
            app_read: 0,
            adv_edge: 0,
            ts: ReceiverTimestamps::default(),
            acc: cfg.acc.map(|a| AckCongestionControl::new(a, cfg.recv_buffer_bytes, cfg.mss_bytes)),
            fr_request: cfg.fr_request_threshold.map(FrRequestMarker::new),
            freeze: None,
            choke_at: Time::NEVER,
            wtcp: None,
        }
    }

    /// The receiver a sender running `cc` needs: WTCP's rate control when
    /// the controller is `wtcp` ([`crate::wtcp`]), else unchanged.
    pub fn with_cc(mut self, cc: &crate::cc::CcConfig) -> Receiver {
        if let Some(w) = WtcpReceiver::for_cc(cc, self.mss_bytes) {
            self.wtcp = Some(Box::new(w));
            self.options = true;
        }
        self
    }

    /// WTCP's rate control, if the flow runs it.
    pub fn wtcp(&self) -> Option<&WtcpReceiver> {
        self.wtcp.as_deref()
    }

    /// Freeze-TCP: a disconnection is coming. Every ack from now on
    /// advertises a zero window, and one goes at once (a window update).
    pub fn freeze_window(&mut self) {
        let f = self.freeze.get_or_insert_with(Box::default);
        f.zero = true;
        f.tr_acks_due = 0;
        // The ack path reads the state among the options.
        self.options = true;
        self.ack_now = true;
    }

    /// Freeze-TCP: the connection is back. The window opens again, and
    /// [`TR_ACKS`] acks go at once. Not frozen: nothing.
    pub fn unfreeze_window(&mut self) {
        let Some(f) = self.freeze.as_deref_mut().filter(|f| f.zero) else { return };
        f.zero = false;
        f.tr_acks_due = TR_ACKS - 1;
        self.ack_now = true;
    }

    /// Fast-retransmit handoff (Caceres and Iftode 1995; elaarag-002.md
    /// Sec. 1.8): told that a handoff is complete, the mobile host's TCP
    /// sends `n` duplicate acks at once, each acknowledging what it has
    /// (`rcv_nxt`), with its window as it is and no data, so that the
    /// sender fast-retransmits. An ack still owed for data (a delayed ack)
    /// goes first: it is not a duplicate.
    pub fn send_duplicate_acks(&mut self, n: u32) {
        if n == 0 {
            return;
        }
        let owed = u32::from(self.unacked_segments > 0);
        let f = self.freeze.get_or_insert_with(Box::default);
        f.tr_acks_due = n - 1 + owed;
        // The ack path reads the count among the options.
        self.options = true;
        self.ack_now = true;
    }

    /// M-TCP's supervisor host ([`crate::mtcp`]): from now on acks go only
    /// through [`Receiver::release_acks`], [`Receiver::mtcp_disconnect`]
    /// and [`Receiver::mtcp_reconnect`] (and in answer to data while the
    /// window is closed), and through the low-bandwidth rule's choke. The
    /// wired round trip (`wired_rtt_ns`) goes into its estimate of the
    /// source's RTO.
    pub fn withhold_acks(&mut self, wired_rtt_ns: u64) {
        let f = self.freeze.get_or_insert_with(Box::default);
        f.withhold = Some(Withhold::new(wired_rtt_ns));
        // The ack path reads the state among the options.
        self.options = true;
    }

    /// M-TCP: the mobile host has acknowledged everything before `acked`;
    /// the fixed host is acknowledged up to one byte short of it, and a
    /// window closed by the low-bandwidth rule reopens. Nothing unless acks
    /// are withheld. Returns whether an ack became due.
    pub fn release_acks(&mut self, acked: u64) -> bool {
        let Some(f) = self.freeze.as_deref_mut().filter(|f| f.withhold.is_some()) else { return false };
        let w = f.withhold.as_mut().expect("withholding");
        let mut due = false;
        if acked > w.acked {
            w.acked = acked;
            if w.choked {
                w.choked = false;
                f.zero = false;
                w.due = true;
            }
            if acked - 1 > w.sent {
                w.due = true;
            }
            due = w.due;
        }
        self.ack_now |= due;
        self.rearm_choke();
        due
    }

    /// M-TCP's low-bandwidth rule ([`crate::mtcp`]): the withheld byte is
    /// acknowledged with a zero window.
    fn mtcp_choke(&mut self) {
        self.choke_at = Time::NEVER;
        let Some(f) = self.freeze.as_deref_mut().filter(|f| f.withhold.is_some() && !f.zero) else { return };
        let w = f.withhold.as_mut().expect("withholding");
        f.zero = true;
        w.choked = true;
        w.chokes += 1;
        w.due = true;
        self.ack_now = true;
    }

    /// When the low-bandwidth rule next looks, from the withholding state.
    fn rearm_choke(&mut self) {
        let rcv_nxt = self.rcv_nxt;
        self.choke_at = self
            .freeze
            .as_deref()
            .and_then(|f| f.withhold.as_ref().map(|w| w.choke_at(f.zero, rcv_nxt)))
            .unwrap_or(Time::NEVER);
    }

    /// M-TCP: how often the low-bandwidth rule closed the window, and the
    /// source's RTO as the supervisor host estimates it (ns); `None` unless
    /// acks are withheld.
    pub fn mtcp_chokes(&self) -> Option<(u32, u64)> {
        self.freeze.as_deref()?.withhold.as_ref().map(|w| (w.chokes, w.source_rto_ns()))
    }

    /// M-TCP: the mobile host is disconnected. The withheld byte is
    /// acknowledged with a zero window: the ack is new, so the fixed host
    /// takes the window even under 4.4BSD's rule for window updates, and
    /// persists with its timers and window as they are ([A:mtcp]).
    pub fn mtcp_disconnect(&mut self) {
        let Some(f) = self.freeze.as_deref_mut().filter(|f| f.withhold.is_some()) else { return };
        f.zero = true;
        let w = f.withhold.as_mut().expect("withholding");
        w.due = true;
        w.choked = false; // only the reconnection reopens it now
        self.ack_now = true;
        self.choke_at = Time::NEVER;
    }

    /// M-TCP: the mobile host is back. One duplicate ack with the window
    /// open again ([A:mtcp]: "the SH sends a duplicate ack with the window
    /// fully open"); the fixed host sends again with the window it had.
    pub fn mtcp_reconnect(&mut self) {
        let Some(f) = self.freeze.as_deref_mut().filter(|f| f.withhold.is_some() && f.zero) else { return };
        f.zero = false;
        let w = f.withhold.as_mut().expect("withholding");
        w.due = true;
        w.choked = false;
        self.ack_now = true;
        self.rearm_choke();
    }

    /// Whether the receiver advertises a zero window (Freeze-TCP).
    pub fn window_frozen(&self) -> bool {
        self.freeze.as_deref().is_some_and(|f| f.zero)
    }

    /// ACC's state, if the receiver runs it.
    pub fn acc(&self) -> Option<&AckCongestionControl> {
        self.acc.as_ref()
    }

    /// The IP ECN field of an ack (ECT when acks may be marked, seed 001).
    pub fn ip_ecn(&self) -> Ecn {
        self.ecn.ip_ecn()
    }

    /// The data segment just handed to [`Receiver::on_segment`] was
    /// CE-marked (RFC 3168 Sec. 6.1.3: ECN-Echo until CWR).
    pub fn on_ce_mark(&mut self) {
        self.ecn.on_ce();
    }

    /// The link layer handed up a corrupted segment starting at `seq` (its
    /// header readable, its checksum wrong): remember it for ELN marks.
    pub fn on_corrupted(&mut self, seq: u64) {
        if self.cfg.eln && seq >= self.rcv_nxt && !self.eln_holes.contains(&seq) {
            if let Some(slots) = self.cfg.eln_slots {
                // Slots of segments received since are free again.
                let rcv_nxt = self.rcv_nxt;
                let ooo = &self.ooo;
                self.eln_holes.retain(|&s| s >= rcv_nxt && !ooo.iter().any(|&(a, b)| a <= s && s < b));
                if self.eln_holes.len() >= slots as usize {
                    return; // every slot taken: this loss goes unreported
                }
            }
            self.eln_holes.push(seq);
        }
    }

    /// The application reads only when told through [`Receiver::app_read`]
    /// (a split-connection relay with a bounded buffer behind it).
    pub fn app_paced(mut self) -> Receiver {
        self.app_paced = true;
        self.adv_edge = self.cfg.recv_buffer_bytes;
        self
    }

    /// In-order bytes received that the application has not read (always 0
    /// unless app-paced).
    pub fn unread_bytes(&self) -> u64 {
        if self.app_paced {
            self.rcv_nxt - self.app_read
        } else {
            0
        }
    }

    /// The window to advertise, in bytes: the buffer less unread bytes.
    pub fn window_bytes(&self) -> u64 {
        self.recv_buffer_bytes.saturating_sub(self.unread_bytes())
    }

    /// The application reads `bytes` (at most what is unread). A window
    /// update is due when the window reopens by two segments or half the
    /// buffer beyond the edge last advertised (4.4BSD `tcp_output`).
    pub fn app_read(&mut self, bytes: u64) {
        debug_assert!(self.app_paced, "app_read on a receiver that reads at once");
        self.app_read = (self.app_read + bytes).min(self.rcv_nxt);
        let adv = (self.rcv_nxt + self.window_bytes()).saturating_sub(self.adv_edge);
        if adv >= 2 * u64::from(self.cfg.mss_bytes) || 2 * adv >= self.cfg.recv_buffer_bytes {
            self.ack_now = true;
        }
    }

    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }
    pub fn acks_sent(&self) -> u64 {
        self.acks_sent
    }
    /// Out-of-order ranges held, most useful for tests and SACK.
    pub fn out_of_order(&self) -> &[(u64, u64)] {
        &self.ooo
    }

    /// A data segment arrived. Returns what it delivered to the application.
    pub fn on_segment(&mut self, now: Time, hdr: &TcpHeader) -> Option<Delivery> {
        if hdr.syn {
            self.syn_ack_due = true; // a duplicate SYN is answered again
            return None;
        }
        let (seq, mut end) = (hdr.seq, hdr.seq + u64::from(hdr.len));
        if self.app_paced {
            // 4.4BSD `tcp_input`: data beyond the window is trimmed, and a
            // segment wholly beyond it dropped and acked (a zero-window
            // probe, `crate::persist`). Only an app-paced receiver's window
            // closes; its right edge never moves left.
            end = end.min(self.rcv_nxt + self.window_bytes());
        }
        if hdr.fin {
            self.fin_seq = end;
        }
        self.trigger = Some(seq);
        if self.options {
            self.on_segment_options(now, hdr);
        }
        if end <= self.rcv_nxt {
            self.ack_now = true; // a duplicate: re-ack at once
            return None;
        }
        if seq > self.rcv_nxt {
            self.insert_ooo(seq, end);
            self.ack_now = true; // out of order: a duplicate ack at once
            if self.options {
                if let Some(fr) = self.fr_request.as_mut() {
                    fr.on_out_of_order();
                }
            }
            return None;
        }
        // The request and ACC are options: a flow without reads neither.
        if self.options {
            if let Some(fr) = self.fr_request.as_mut() {
                fr.on_advance();
            }
        }
        let start = self.rcv_nxt;
        let filled_hole = !self.ooo.is_empty();
        self.rcv_nxt = end;
        let merged = self.ooo.iter().take_while(|r| r.0 <= self.rcv_nxt).count();
        if merged > 0 {
            self.rcv_nxt = self.rcv_nxt.max(self.ooo[merged - 1].1);
            self.ooo.drain(..merged);
        }
        if self.options {
            self.rearm_choke(); // the mobile host owes acks for more
        }
        if filled_hole {
            self.ack_now = true;
        } else {
            self.on_in_order(now, hdr.len);
        }
        if self.rcv_nxt >= self.fin_seq && !self.fin_in {
            self.fin_in = true; // the FIN is acknowledged at once
            self.ack_now = true;
        }
        Some(Delivery { start, end: self.rcv_nxt })
    }

    /// The seed 001 options a data segment carries.
    fn on_segment_options(&mut self, now: Time, hdr: &TcpHeader) {
        self.ecn.on_segment(hdr);
        if self.cfg.timestamps {
            self.ts.on_segment(hdr.seq, hdr.ts);
        }
        if let Some(acc) = self.acc.as_mut() {
            acc.on_segment(now, hdr);
        }
        if let Some(w) = self.wtcp.as_deref_mut() {
            if w.on_segment(now, hdr) {
                self.ack_now = true;
            }
        }
        if let Some(w) = self.freeze.as_deref_mut().and_then(|f| f.withhold.as_mut()) {
            w.on_data(now, hdr.seq, hdr.seq + u64::from(hdr.len), self.rcv_nxt);
        }
    }

    fn on_in_order(&mut self, now: Time, len: u32) {
        match self.ack_policy {
            AckPolicy::Immediate => self.ack_now = true,
            AckPolicy::Delayed { every_segments, timeout_ns } => {
                self.count_for_delack(len, every_segments);
                if !self.ack_now && self.delack_at == Time::NEVER {
                    self.delack_at = now.plus_ns(timeout_ns);
                }
            }
            AckPolicy::BsdDelayed { every_segments, tick_ns, tick_phase_ns } => {
                self.count_for_delack(len, every_segments);
                if !self.ack_now && self.delack_at == Time::NEVER {
                    // The next tick of tcp_fasttimo strictly after now.
                    let phase = tick_phase_ns % tick_ns;
                    let k = if now.ns() < phase { 0 } else { (now.ns() - phase) / tick_ns + 1 };
                    self.delack_at = Time(phase + k * tick_ns);
                }
            }
        }
    }

    fn count_for_delack(&mut self, len: u32, every_segments: u32) {
        if len >= self.mss_bytes {
            self.unacked_segments += 1;
        }
        // ACC's delayed-ack factor takes the place of the policy's count.
        // (ACC is an option: a flow without reads no further.)
        let every =
            if self.options { self.acc.as_ref().map_or(every_segments, |a| a.ack_every()) } else { every_segments };
        if self.unacked_segments >= every.max(1) {
            self.ack_now = true;
        }
    }

    fn insert_ooo(&mut self, seq: u64, end: u64) {
        let i = self.ooo.partition_point(|r| r.1 < seq);
        let mut j = i;
        let (mut s, mut e) = (seq, end);
        while j < self.ooo.len() && self.ooo[j].0 <= e {
            s = s.min(self.ooo[j].0);
            e = e.max(self.ooo[j].1);
            j += 1;
        }
        self.ooo.splice(i..j, std::iter::once((s, e)));
    }

    /// When the receiver next needs `on_timer` (its delayed-ack timer, and
    /// M-TCP's low-bandwidth rule).
    pub fn poll_at(&self) -> Time {
        if self.options {
            self.delack_at.min(self.choke_at)
        } else {
            self.delack_at
        }
    }

    pub fn on_timer(&mut self, now: Time) {
        if now >= self.delack_at {
            self.ack_now = true;
        }
        if self.options && now >= self.choke_at {
            self.mtcp_choke();
        }
    }

    /// The ack to send now, if one is due.
    pub fn poll_transmit(&mut self, now: Time) -> Option<TcpHeader> {
        if self.syn_ack_due {
            self.syn_ack_due = false;
            let wnd_bytes = self.window_bytes().min(u64::from(u32::MAX)) as u32;
            return Some(TcpHeader { ack: self.rcv_nxt, wnd_bytes, syn: true, ..TcpHeader::default() });
        }
        if !self.ack_now {
            return None;
        }
        self.ack_now = false;
        self.unacked_segments = 0;
        self.delack_at = Time::NEVER;
        if self.options && self.withholding_nothing_due() {
            return None;
        }
        self.acks_sent += 1;
        if self.app_paced {
            self.adv_edge = self.adv_edge.max(self.rcv_nxt + self.window_bytes());
        }
        let trigger = self.trigger.take();
        let mut hdr = TcpHeader {
            ack: self.rcv_nxt + u64::from(self.fin_in),
            wnd_bytes: self.window_bytes().min(u64::from(u32::MAX)) as u32,
            ..TcpHeader::default()
        };
        if self.smart_echo {
            hdr.smart_echo = trigger;
        }
        if self.sack {
            self.fill_sack(&mut hdr, trigger);
        }
        if self.eln {
            let rcv_nxt = self.rcv_nxt;
            self.eln_holes.retain(|&s| s >= rcv_nxt);
            hdr.eln = self.eln_holes.contains(&rcv_nxt);
        }
        if self.options {
            self.ecn.stamp(&mut hdr);
            if self.cfg.timestamps {
                hdr.ts = Some(self.ts.stamp(now, self.rcv_nxt));
            }
            if let Some(w) = self.wtcp.as_deref() {
                hdr.rate_bytes_per_s = w.rate_field();
            }
            // A duplicate ack: data is held above the hole.
            hdr.fr_request = !self.ooo.is_empty() && self.fr_request.is_some_and(|f| f.requested());
            if let Some(f) = self.freeze.as_deref_mut() {
                if let Some(w) = f.withhold.as_mut() {
                    // The right edge stays where the buffer puts it; the
                    // ack stops short of the mobile host's by one byte,
                    // but for the zero-window ack and the one reopening.
                    let edge = hdr.ack + u64::from(hdr.wnd_bytes);
                    let reopening = w.due && w.sent == w.acked;
                    let point = if f.zero || reopening { w.acked } else { w.acked.saturating_sub(1) };
                    let before = w.sent;
                    w.sent = point.max(w.sent).min(hdr.ack);
                    w.due = false;
                    w.on_ack_sent(now, before);
                    hdr.ack = w.sent;
                    hdr.wnd_bytes = (edge - w.sent).min(u64::from(u32::MAX)) as u32;
                }
                if f.zero {
                    hdr.wnd_bytes = 0;
                }
                if f.tr_acks_due > 0 {
                    f.tr_acks_due -= 1;
                    self.ack_now = true;
                }
            }
            self.rearm_choke(); // an ack of new data restarts the source's timer
        }
        Some(hdr)
    }

    /// Acks are withheld (M-TCP) and none is due: what asked for one (a
    /// segment) is not answered, unless the window is closed (a probe).
    fn withholding_nothing_due(&self) -> bool {
        self.freeze.as_deref().is_some_and(|f| f.withhold.as_ref().is_some_and(|w| !w.due) && !f.zero)
    }

    /// The out-of-order range holding `seq`, if any.
    fn ooo_block(&self, seq: u64) -> Option<(u64, u64)> {
        self.ooo.iter().copied().find(|&(s, e)| s <= seq && seq < e)
    }

    fn fill_sack(&mut self, hdr: &mut TcpHeader, trigger: Option<u64>) {
        // The trigger's block first (absent if it advanced rcv_nxt), then the
        // blocks of the most recent first blocks, each once.
        if let Some(t) = trigger.filter(|&t| self.ooo_block(t).is_some()) {
            self.sack_recent.retain(|&s| s != t);
            self.sack_recent.insert(0, t);
        }
        let rcv_nxt = self.rcv_nxt;
        let ooo = &self.ooo;
        self.sack_recent.retain(|&s| s >= rcv_nxt && ooo.iter().any(|&(a, b)| a <= s && s < b));
        self.sack_recent.truncate(8);
        for i in 0..self.sack_recent.len() {
            let Some(block) = self.ooo_block(self.sack_recent[i]) else { continue };
            if !hdr.sack.as_slice().contains(&block) && !hdr.sack.push(block.0, block.1) {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lasthop_core::time::NS_PER_MS;

    #[test]
    fn a_segment_and_its_ack_touch_the_first_two_lines() {
        use std::mem::offset_of;
        let end = offset_of!(Receiver, ecn) + std::mem::size_of::<EcnReceiver>();
        assert!(end <= 128, "the hot fields end at {end}");
        assert_eq!(offset_of!(Receiver, acks_sent), 64, "line 0 is full");
    }

    fn seg(seq: u64, len: u32) -> TcpHeader {
        TcpHeader { seq, len, ..TcpHeader::default() }
    }

    fn rx(policy: AckPolicy) -> Receiver {
        Receiver::new(ReceiverConfig::plain(32768, 1000, policy))
    }

    fn rx_with(sack: bool, smart_echo: bool, eln: bool) -> Receiver {
        Receiver::new(ReceiverConfig {
            sack,
            smart_echo,
            eln,
            ..ReceiverConfig::plain(32768, 1000, AckPolicy::Immediate)
        })
    }

    /// MTCPSH-1 at the supervisor host (elaarag-002.md Sec. 4; Brown and
    /// Singh 1997 via [A:mtcp]), an app-paced receiver of 8000 bytes whose
    /// application (the relay) has read everything:
    /// - t0: segments 0-4999 arrive, in order and out of order: no ack (the
    ///   mobile host has acknowledged nothing);
    /// - the mobile host acks 3000: ack 2999, the right edge where the buffer
    ///   puts it (5000 + 8000); the same ack again: nothing; 3001: ack 3000;
    /// - a duplicate segment: nothing (it would be a duplicate ack);
    /// - disconnection: ack 3000 (the withheld byte) with window 0; a probe
    ///   is answered with the same; reconnection: 3000 again, window open;
    /// - the mobile host acks 5000: ack 4999.
    #[test]
    fn mtcp_acks_one_byte_short_of_the_mobile_host_and_zero_while_it_is_away() {
        let mut r =
            Receiver::new(ReceiverConfig { recv_buffer_bytes: 8000, ..rx(AckPolicy::Immediate).cfg }).app_paced();
        r.withhold_acks(0);
        let t = Time::ZERO;
        for s in [0, 1000, 3000, 2000, 4000] {
            r.on_segment(t, &seg(s, 1000));
            r.app_read(r.unread_bytes());
            assert_eq!(r.poll_transmit(t), None, "segment {s}");
        }
        assert_eq!(r.rcv_nxt(), 5000);
        r.release_acks(3000);
        let a = r.poll_transmit(t).expect("the mobile host's ack, less a byte");
        assert_eq!((a.ack, a.ack + u64::from(a.wnd_bytes)), (2999, 13_000));
        assert_eq!(r.poll_transmit(t), None);
        r.release_acks(3000);
        assert_eq!(r.poll_transmit(t), None, "the same ack again");
        r.release_acks(3001);
        assert_eq!(r.poll_transmit(t).map(|h| h.ack), Some(3000), "one byte more");
        r.on_segment(t, &seg(1000, 1000));
        assert_eq!(r.poll_transmit(t), None, "a duplicate segment is not answered");
        r.mtcp_disconnect();
        let z = r.poll_transmit(t).expect("the zero-window ack");
        assert_eq!((z.ack, z.wnd_bytes), (3001, 0));
        r.on_segment(t, &seg(3001, 1));
        let p = r.poll_transmit(t).expect("a probe is answered");
        assert_eq!((p.ack, p.wnd_bytes), (3001, 0));
        r.mtcp_reconnect();
        let o = r.poll_transmit(t).expect("the reopening duplicate");
        assert_eq!((o.ack, u64::from(o.wnd_bytes)), (3001, 13_000 - 3001));
        assert_eq!(r.poll_transmit(t), None, "one duplicate, not Freeze-TCP's three");
        r.release_acks(5000);
        assert_eq!(r.poll_transmit(t).map(|h| h.ack), Some(4999));
        // Without withholding, the hooks do nothing.
        let mut plain = rx(AckPolicy::Immediate);
        plain.release_acks(3000);
        plain.mtcp_disconnect();
        assert_eq!(plain.poll_transmit(t), None);
    }

    /// M-TCP's low-bandwidth rule ([`crate::mtcp`]), 5000 bytes in hand
    /// and a 20 ms wired round trip: the mobile host acks 3000 at 0.1 s
    /// (ack 2999 goes; the first segment's sample leaves the estimated RTO
    /// at RFC 6298's 1 s floor), then nothing. At 0.85 s
    /// (3/4 of it) the withheld byte goes with a zero window, not a
    /// nanosecond before; probes meanwhile get the same. The mobile host's
    /// next ack reopens the window with an ack of new data; once it has
    /// acked all there is, nothing is owed and no choke is armed.
    #[test]
    fn mtcp_chokes_the_source_when_the_mobile_host_stalls() {
        let ms = |x: u64| Time(x * NS_PER_MS);
        let mut r =
            Receiver::new(ReceiverConfig { recv_buffer_bytes: 8000, ..rx(AckPolicy::Immediate).cfg }).app_paced();
        r.withhold_acks(20 * NS_PER_MS);
        for s in [0, 1000, 2000, 3000, 4000] {
            r.on_segment(ms(s / 100), &seg(s, 1000));
            r.app_read(r.unread_bytes());
            assert_eq!(r.poll_transmit(ms(s / 100)), None, "segment {s}");
        }
        assert_eq!(r.poll_at(), Time::NEVER, "nothing acknowledged yet: no byte to withhold");
        r.release_acks(3000);
        assert_eq!(r.poll_transmit(ms(100)).map(|h| h.ack), Some(2999));
        assert_eq!(r.mtcp_chokes(), Some((0, 1_000 * NS_PER_MS)), "RFC 6298's floor");
        assert_eq!(r.poll_at(), ms(850), "3/4 of the estimated RTO after the last ack of new data");
        r.on_timer(Time(ms(850).ns() - 1));
        assert_eq!(r.poll_transmit(Time(ms(850).ns() - 1)), None, "not before");
        r.on_timer(ms(850));
        let z = r.poll_transmit(ms(850)).expect("the choke");
        assert_eq!((z.ack, z.wnd_bytes), (3000, 0), "the withheld byte, window 0");
        assert_eq!(r.poll_at(), Time::NEVER, "closed: nothing more to choke");
        r.on_segment(ms(900), &seg(3000, 1));
        let p = r.poll_transmit(ms(900)).expect("a probe is answered");
        assert_eq!((p.ack, p.wnd_bytes), (3000, 0));
        r.release_acks(4000);
        let o = r.poll_transmit(ms(1200)).expect("the reopening ack");
        assert_eq!((o.ack, u64::from(o.wnd_bytes)), (3999, 13_000 - 3999), "new data, window open");
        assert_eq!(r.poll_at(), ms(1950));
        r.release_acks(5000);
        assert_eq!(r.poll_transmit(ms(1300)).map(|h| h.ack), Some(4999));
        assert_eq!(r.poll_at(), Time::NEVER, "the mobile host owes nothing");
        assert_eq!(r.mtcp_chokes().map(|c| c.0), Some(1));
    }

    fn blocks(h: &TcpHeader) -> Vec<(u64, u64)> {
        h.sack.as_slice().to_vec()
    }

    #[test]
    fn sack_blocks_follow_rfc2018() {
        // Segments of 1000 bytes; 0, 2000, 4000, 6000 and 8000 are lost.
        let mut r = rx_with(true, false, false);
        let t = Time::ZERO;
        let ack = |r: &mut Receiver, seq: u64| {
            r.on_segment(t, &seg(seq, 1000));
            r.poll_transmit(t).unwrap()
        };
        // 1000 arrives: one block, holding it.
        assert_eq!(blocks(&ack(&mut r, 1000)), vec![(1000, 2000)]);
        // 3000: its block first, the previous first block repeated.
        assert_eq!(blocks(&ack(&mut r, 3000)), vec![(3000, 4000), (1000, 2000)]);
        // 5000 and 7000: most recent first, at most three blocks.
        assert_eq!(blocks(&ack(&mut r, 5000)), vec![(5000, 6000), (3000, 4000), (1000, 2000)]);
        assert_eq!(blocks(&ack(&mut r, 7000)), vec![(7000, 8000), (5000, 6000), (3000, 4000)]);
        // 2000 fills a hole: 1000..4000 becomes one block, reported first.
        assert_eq!(blocks(&ack(&mut r, 2000)), vec![(1000, 4000), (7000, 8000), (5000, 6000)]);
        // 0 advances the cumulative ack to 4000: no first block of its own;
        // the remaining blocks are repeated, most recent first.
        let h = ack(&mut r, 0);
        assert_eq!(h.ack, 4000);
        assert_eq!(blocks(&h), vec![(7000, 8000), (5000, 6000)]);
        // A duplicate below rcv_nxt repeats the blocks too.
        assert_eq!(blocks(&ack(&mut r, 0)), vec![(7000, 8000), (5000, 6000)]);
    }

    #[test]
    fn smart_echo_names_the_segment_that_caused_the_ack() {
        let mut r = rx_with(false, true, false);
        let t = Time::ZERO;
        r.on_segment(t, &seg(2000, 1000));
        let h = r.poll_transmit(t).unwrap();
        assert_eq!((h.ack, h.smart_echo), (0, Some(2000)));
        r.on_segment(t, &seg(0, 1000));
        let h = r.poll_transmit(t).unwrap();
        assert_eq!((h.ack, h.smart_echo), (1000, Some(0)));
    }

    #[test]
    fn eln_marks_acks_for_segments_reported_corrupted() {
        // Fig. 1: 0 and 1000 corrupted on the wireless hop, 2000.. arrive.
        let mut r = rx_with(false, false, true);
        let t = Time::ZERO;
        r.on_corrupted(0);
        r.on_corrupted(1000);
        r.on_segment(t, &seg(2000, 1000));
        let h = r.poll_transmit(t).unwrap();
        assert!(h.eln && h.ack == 0, "duplicate ack for a corrupted segment is marked");
        r.on_segment(t, &seg(0, 1000));
        let h = r.poll_transmit(t).unwrap();
        assert!(h.eln && h.ack == 1000, "the next hole was corrupted too");
        r.on_segment(t, &seg(1000, 1000));
        let h = r.poll_transmit(t).unwrap();
        assert!(!h.eln && h.ack == 3000);
        // A segment lost elsewhere (no report) gives unmarked duplicates.
        r.on_segment(t, &seg(4000, 1000));
        assert!(!r.poll_transmit(t).unwrap().eln);
    }

    #[test]
    fn eln_single_slot_conveys_one_wireless_loss_at_a_time() {
        // Issue 10, seed 000 Sec. IV-C: "does not convey information about
        // multiple wireless-related losses to the sender". Fig. 1 again: 0
        // and 1000 corrupted; the one slot holds 0, so 1000 goes unreported.
        let mut r = Receiver::new(ReceiverConfig { eln_slots: Some(1), ..rx_with(false, false, true).cfg });
        let t = Time::ZERO;
        r.on_corrupted(0);
        r.on_corrupted(1000);
        r.on_segment(t, &seg(2000, 1000));
        let h = r.poll_transmit(t).unwrap();
        assert!(h.eln && h.ack == 0, "the first loss is reported");
        r.on_segment(t, &seg(0, 1000));
        let h = r.poll_transmit(t).unwrap();
        assert!(!h.eln && h.ack == 1000, "the second loss was not remembered");
        // The slot is free again once 0 arrived: a later corruption is kept.
        r.on_corrupted(5000);
        r.on_segment(t, &seg(1000, 1000));
        r.poll_transmit(t).unwrap();
        r.on_segment(t, &seg(3000, 1000));
        r.poll_transmit(t).unwrap();
        r.on_segment(t, &seg(4000, 1000));
        r.poll_transmit(t).unwrap();
        r.on_segment(t, &seg(6000, 1000));
        let h = r.poll_transmit(t).unwrap();
        assert!(h.eln && h.ack == 5000, "a freed slot takes the next report");
    }

    #[test]
    fn reassembly_delivers_each_byte_once_in_order() {
        let mut r = rx(AckPolicy::Immediate);
        let t = Time::ZERO;
        assert_eq!(r.on_segment(t, &seg(2000, 1000)), None);
        assert_eq!(r.on_segment(t, &seg(4000, 1000)), None);
        assert_eq!(r.out_of_order(), &[(2000, 3000), (4000, 5000)]);
        assert_eq!(r.on_segment(t, &seg(0, 1000)), Some(Delivery { start: 0, end: 1000 }));
        assert_eq!(r.poll_transmit(t).unwrap().ack, 1000);
        assert_eq!(r.on_segment(t, &seg(1000, 1000)), Some(Delivery { start: 1000, end: 3000 }));
        assert_eq!(r.on_segment(t, &seg(3000, 1000)), Some(Delivery { start: 3000, end: 5000 }));
        assert_eq!(r.on_segment(t, &seg(0, 1000)), None, "duplicate");
        assert!(r.out_of_order().is_empty());
        assert_eq!(r.poll_transmit(t).unwrap().ack, 5000);
    }

    #[test]
    fn overlapping_out_of_order_ranges_merge() {
        let mut r = rx(AckPolicy::Immediate);
        let t = Time::ZERO;
        r.on_segment(t, &seg(5000, 1000));
        r.on_segment(t, &seg(3000, 1000));
        r.on_segment(t, &seg(3500, 2000));
        assert_eq!(r.out_of_order(), &[(3000, 6000)]);
    }

    #[test]
    fn delayed_acks_every_second_segment_or_after_timeout() {
        let mut r = rx(AckPolicy::Delayed { every_segments: 2, timeout_ns: 200 * NS_PER_MS });
        r.on_segment(Time::from_ms(10), &seg(0, 1000));
        assert!(r.poll_transmit(Time::from_ms(10)).is_none());
        assert_eq!(r.poll_at(), Time::from_ms(210));
        r.on_segment(Time::from_ms(20), &seg(1000, 1000));
        assert_eq!(r.poll_transmit(Time::from_ms(20)).unwrap().ack, 2000);
        r.on_segment(Time::from_ms(30), &seg(2000, 1000));
        r.on_timer(Time::from_ms(229));
        assert!(r.poll_transmit(Time::from_ms(229)).is_none());
        r.on_timer(Time::from_ms(230));
        assert_eq!(r.poll_transmit(Time::from_ms(230)).unwrap().ack, 3000);
        // Out of order: acked at once even with delayed acks.
        r.on_segment(Time::from_ms(40), &seg(4000, 1000));
        assert_eq!(r.poll_transmit(Time::from_ms(40)).unwrap().ack, 3000);
    }

    #[test]
    fn app_paced_window_closes_with_unread_data_and_reopens_with_an_update() {
        // Issue 4, SPLIT: the relay reads only while its buffer has room.
        // 8000-byte buffer, 1000-byte segments, an ack per segment.
        let mut r =
            Receiver::new(ReceiverConfig { recv_buffer_bytes: 8000, ..rx(AckPolicy::Immediate).cfg }).app_paced();
        let t = Time::ZERO;
        // t0..: eight segments arrive, none read: the window shrinks to 0.
        for k in 0..8u64 {
            r.on_segment(t, &seg(k * 1000, 1000));
            let h = r.poll_transmit(t).unwrap();
            assert_eq!((h.ack, u64::from(h.wnd_bytes)), ((k + 1) * 1000, 8000 - (k + 1) * 1000));
        }
        assert_eq!(r.unread_bytes(), 8000);
        // t1: the application reads one segment: the window reopens by less
        // than two segments, no update.
        r.app_read(1000);
        assert!(r.poll_transmit(t).is_none());
        // t2: a second segment read: reopened by two segments, an update
        // (same ack, larger window) goes out at once.
        r.app_read(1000);
        let h = r.poll_transmit(t).unwrap();
        assert_eq!((h.ack, h.wnd_bytes), (8000, 2000));
        // t3: reading everything reopens by half the buffer: another update.
        r.app_read(6000);
        let h = r.poll_transmit(t).unwrap();
        assert_eq!((h.ack, h.wnd_bytes), (8000, 8000));
        assert_eq!(r.unread_bytes(), 0);
        // Full again: a one-byte probe of the zero window is dropped and
        // acked with the window unchanged; data overlapping the edge is
        // trimmed to it.
        for k in 8..16u64 {
            r.on_segment(t, &seg(k * 1000, 1000));
            r.poll_transmit(t).unwrap();
        }
        assert_eq!(r.window_bytes(), 0);
        assert!(r.on_segment(t, &seg(16_000, 1)).is_none());
        let h = r.poll_transmit(t).unwrap();
        assert_eq!((h.ack, h.wnd_bytes), (16_000, 0));
        assert_eq!(r.unread_bytes(), 8000);
        r.app_read(500);
        let d = r.on_segment(t, &seg(16_000, 1000)).unwrap();
        assert_eq!((d.start, d.end), (16_000, 16_500), "trimmed to the window's edge");
        // A receiver that reads at once always advertises the whole buffer.
        let mut r = rx(AckPolicy::Immediate);
        r.on_segment(t, &seg(0, 1000));
        assert_eq!(r.poll_transmit(t).unwrap().wnd_bytes, 32768);
    }

    #[test]
    fn bsd_delayed_ack_waits_for_the_fast_tick() {
        let policy =
            AckPolicy::BsdDelayed { every_segments: 2, tick_ns: 200 * NS_PER_MS, tick_phase_ns: 50 * NS_PER_MS };
        let mut r = rx(policy);
        r.on_segment(Time::from_ms(60), &seg(0, 1000));
        assert_eq!(r.poll_at(), Time::from_ms(250));
    }
}
