//! MTCP's wireless side (seed 002 Sec. 5.3; Yavatkar and Bhagwat,
//! "Improving end-to-end performance of TCP over mobile internetworks",
//! WMCSA 1994; elaarag-002.md Secs. 1.10 and 1.16, statements MHP-1 and
//! MHP-2): the scheme `mtcp` ([`crate::schemes`]) splits the connection at
//! the base station (BS) as I-TCP's relay does ([`super::relay`]): the
//! source's TCP ends at the BS, whose receiver acknowledges what it takes
//! before the mobile host (MH) has it \[S\] (MHP-2). The relay's bytes go to
//! the MH not by a second TCP connection but by SRP between the BS's MHP
//! and the MH's \[S\] (`lasthop_net::arq::srp`: its Sender and Receiver,
//! whose rules and markings are there and are not repeated here).
//!
//! - \[I\] MHP cuts the relay's bytes into wireless segments of
//!   `mss_wireless` payload bytes (fewer when the relay holds fewer: no
//!   wait to fill one), each an SRP packet, as the relay writes them and
//!   SRP's window has room.
//! - \[I\] SRP's data and acks cross the scenario's wireless link as
//!   packets of the wireless leg's connection (so its error model, queue
//!   and outages apply): data `header_bytes` + payload, acks `ack_bytes`.
//!   SRP's header rides in fields of the simulator's TCP header that only
//!   this file reads ([`data_header`], [`ack_header`]); no agent, ACK
//!   filter or header compression may sit on the leg's link (they would
//!   read those fields as TCP's).
//! - \[I\] The MH's MHP hands the bytes up in order (SRP's in-order
//!   delivery) to the receiving application; SRP is persistent (no retry
//!   limit), so the stream has no holes.
//! - \[I\] The SRP sender's timer is the leg's sender wake-up.
//! - \[S\] At a handoff MHP's state moves to the new BS, buffers included:
//!   SRP's export ([`Station::export_state`]: control state, window with
//!   its packets) plus the relay's bytes not yet in SRP's window and the
//!   wired receiver's unread ones, sized in bytes, travels as I-TCP's
//!   state-transfer message (`super::mobility`, [`World::mhp_freeze`],
//!   [`World::mhp_install`]). \[I\] Until it is installed the BS's SRP is
//!   gone (no sends, no timeouts); an ack reaching the old BS meanwhile is
//!   lost to it. The new BS rebuilds its sender from the state
//!   ([`Station::from_state`]): every packet sent and unacked waits for an
//!   ack or a timeout from the installation.
//!
//! After a handoff the new BS's SRP recovers what the handoff lost in
//! one timeout and the window's rebuilding (SRP's stale rule; tests/sim/
//! mhp.rs, `after_a_handoff_srp_rebuilds_its_window_after_one_timeout`).
//!
//! The run summary's `split` record reports SRP's counters for the leg
//! (`crate::metrics::SplitSummary`).

use super::keys::Side;
use super::World;
use crate::scenario::model::MhpModel;
use lasthop_core::trace::{SenderEventKind, TraceEvent};
use lasthop_core::{Packet, PacketKind, TcpHeader, Time};
use lasthop_net::arq::srp::{Ack, Header, Receiver as SrpReceiver, SrpState, Station};
use lasthop_net::arq::{ArqReceiver, ArqSender, Expiry, Seq};
use std::collections::VecDeque;

/// A wireless segment: its first byte in the flow's stream and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Seg {
    start: u64,
    len: u32,
}

impl Seg {
    fn end(self) -> u64 {
        self.start + u64::from(self.len)
    }
}

/// SRP's counters for one leg, for the summary.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct MhpCounters {
    /// Retransmissions of packets a SACK proved lost.
    pub sack_resends: u64,
    pub timeout_resends: u64,
    pub timeouts: u64,
    /// Acks naming a missing packet that reached the BS.
    pub sacks_at_bs: u64,
}

/// One split flow's MHP sessions: the BS's and the MH's.
#[derive(Debug)]
pub(super) struct MhpLeg {
    /// The wireless leg's connection, and the wired leg's.
    leg: u32,
    wired: u32,
    model: MhpModel,
    /// The BS's SRP (its downlink sender; the uplink receiver is unused:
    /// data flows one way). `None` while its state is in transit.
    bs: Option<Station<Seg>>,
    /// The state in transit to the new BS at a handoff.
    transit: Option<SrpState<Seg>>,
    /// Segments offered to SRP and not settled, oldest first; the first is
    /// packet `first_unsettled`.
    unsettled: VecDeque<Seg>,
    first_unsettled: Seq,
    /// Relay bytes offered to SRP, and of those settled (acked by the MH).
    offered: u64,
    acked: u64,
    /// The MH's SRP receiver, and the segments it holds until it hands
    /// them up, from packet `held_base` on.
    mh: SrpReceiver,
    held: VecDeque<Option<Seg>>,
    held_base: Seq,
    /// Counters carried over earlier stations' senders.
    before: MhpCounters,
    sacks_at_bs: u64,
    /// SRP's window last traced.
    traced_cwnd: u32,
}

impl MhpLeg {
    pub(super) fn new(leg: u32, wired: u32, model: MhpModel) -> MhpLeg {
        MhpLeg {
            leg,
            wired,
            model,
            bs: Some(Station::new(model.srp)),
            transit: None,
            unsettled: VecDeque::new(),
            first_unsettled: 0,
            offered: 0,
            acked: 0,
            mh: SrpReceiver::new(&model.srp),
            held: VecDeque::new(),
            held_base: 0,
            before: MhpCounters::default(),
            sacks_at_bs: 0,
            traced_cwnd: 0,
        }
    }

    /// Relay bytes the MH has acknowledged (every byte below is settled).
    pub(super) fn acked(&self) -> u64 {
        self.acked
    }

    /// SRP's counters so far, over every station.
    pub(super) fn counters(&self) -> MhpCounters {
        let s = self.bs.as_ref().map(|b| b.send.stats()).unwrap_or_default();
        MhpCounters {
            sack_resends: self.before.sack_resends + s.sack_resends,
            timeout_resends: self.before.timeout_resends + s.timeout_resends,
            timeouts: self.before.timeouts + s.timeouts,
            sacks_at_bs: self.sacks_at_bs,
        }
    }
}

/// SRP's data header in the simulator's packet \[I\]: the segment's bytes
/// as TCP's (`seq`, `len`: goodput, traces and drops count them as any
/// segment's), the packet number in `wnd_bytes`, the sender's floor in
/// `ack`, the transmission number in `smart_echo`.
fn data_header(seg: Seg, seq: Seq, h: Header, retransmit: bool) -> TcpHeader {
    TcpHeader {
        seq: seg.start,
        len: seg.len,
        ack: u64::from(h.floor),
        wnd_bytes: seq,
        smart_echo: Some(h.tx),
        is_retransmit: retransmit,
        ..TcpHeader::default()
    }
}

fn read_data(t: &TcpHeader) -> (Seg, Seq, Header) {
    let h = Header { tx: t.smart_echo.unwrap_or(0), floor: t.ack as Seq };
    (Seg { start: t.seq, len: t.len }, t.wnd_bytes, h)
}

/// SRP's ack in the simulator's packet \[I\]: the cumulative ack (a packet
/// number) in `ack`, the packet that arrived in `wnd_bytes`, the missing
/// bitmap in `seq`, the transmission number in `smart_echo`.
fn ack_header(a: Ack) -> TcpHeader {
    TcpHeader {
        ack: u64::from(a.cum),
        wnd_bytes: a.got,
        seq: a.missing,
        smart_echo: Some(a.tx),
        ..TcpHeader::default()
    }
}

fn read_ack(t: &TcpHeader) -> Ack {
    Ack { cum: t.ack as Seq, got: t.wnd_bytes, tx: t.smart_echo.unwrap_or(0), missing: t.seq }
}

impl<'m> World<'m> {
    /// The MHP sessions of wireless leg `leg`.
    fn mhp_at(&self, leg: usize) -> usize {
        self.mhp.iter().position(|x| x.leg as usize == leg).expect("an MHP leg")
    }

    /// Relay bytes the MH has acknowledged on MHP leg `leg`.
    pub(super) fn mhp_acked(&self, leg: usize) -> u64 {
        self.mhp[self.mhp_at(leg)].acked()
    }

    /// SRP's counters of MHP leg `leg`.
    pub(super) fn mhp_counters(&self, leg: usize) -> MhpCounters {
        self.mhp[self.mhp_at(leg)].counters()
    }

    /// The BS's MHP sends what it can on leg `leg`: new segments of the
    /// relay's bytes while SRP's window has room, then what SRP has due;
    /// its timer is re-armed.
    pub(super) fn mhp_flush(&mut self, leg: usize) {
        let now = self.sched.now();
        let k = self.mhp_at(leg);
        let written = self.flows[self.mhp[k].wired as usize].relay.as_deref().expect("a split flow").written;
        loop {
            let x = &mut self.mhp[k];
            let Some(bs) = x.bs.as_mut() else { break };
            while x.offered < written && bs.send.has_room() {
                let len = (written - x.offered).min(u64::from(x.model.mss_wireless)) as u32;
                let seg = Seg { start: x.offered, len };
                bs.send.offer(now, seg);
                x.unsettled.push_back(seg);
                x.offered += u64::from(len);
            }
            let Some(s) = bs.send.next(now) else { break };
            let h = bs.send.on_transmit(now, s.seq);
            let tcp = data_header(s.frame, s.seq, h, s.retransmission);
            let ev =
                TraceEvent::SegmentSent { flow: leg as u32, seq: tcp.seq, len: tcp.len, retransmit: s.retransmission };
            self.trace.record(now, ev);
            let pkt = self.new_packet(leg, PacketKind::Data, tcp);
            self.mhp_forward(leg, pkt, true);
        }
        let x = &mut self.mhp[k];
        let (want, cwnd) =
            x.bs.as_ref().map_or((Time::NEVER, 0), |b| (b.send.deadline().unwrap_or(Time::NEVER), b.send.cwnd()));
        if cwnd != x.traced_cwnd && cwnd != 0 {
            x.traced_cwnd = cwnd;
            let cwnd_bytes = u64::from(cwnd) * u64::from(x.model.mss_wireless);
            self.trace.record(now, TraceEvent::Window { flow: leg as u32, cwnd_bytes, ssthresh_bytes: 0 });
        }
        self.rearm(leg, Side::Sender, want);
    }

    fn mhp_forward(&mut self, leg: usize, pkt: Packet, data: bool) {
        let h = if data { self.flows[leg].data_hop } else { self.flows[leg].ack_hop };
        match h {
            super::NO_HOP => self.forward(pkt.src, pkt),
            h => self.forward_on(h as usize, pkt),
        }
    }

    /// The leg's sender wake-up: SRP's timeout, if it has run out.
    pub(super) fn mhp_wake(&mut self, leg: usize) {
        let now = self.sched.now();
        let k = self.mhp_at(leg);
        if let Some(bs) = self.mhp[k].bs.as_mut() {
            if bs.send.deadline().is_some_and(|d| d <= now) {
                match bs.send.on_timeout(now) {
                    Expiry::Resend => {}
                    // SRP is persistent here (no retry limit).
                    Expiry::Drop { .. } | Expiry::GaveUpDelivered { .. } => unreachable!("a persistent SRP"),
                }
                let ev = TraceEvent::Sender { flow: leg as u32, kind: SenderEventKind::Timeout };
                self.trace.record(now, ev);
            }
        }
        self.mhp_flush(leg);
    }

    /// A packet of MHP leg `pkt.flow` reached its end: data at the MH,
    /// an ack at the BS.
    #[cold]
    #[inline(never)]
    pub(super) fn mhp_deliver(&mut self, pkt: Packet) {
        match pkt.kind {
            PacketKind::Data => self.mhp_at_mobile(pkt),
            _ => self.mhp_at_station(pkt),
        }
    }

    /// A data packet reached the MH's MHP: SRP takes it and acks it at
    /// once; what it hands up in order goes to the application.
    fn mhp_at_mobile(&mut self, pkt: Packet) {
        let now = self.sched.now();
        let leg = pkt.flow as usize;
        let k = self.mhp_at(leg);
        let (seg, seq, h) = read_data(&pkt.tcp);
        let x = &mut self.mhp[k];
        let r = x.mh.on_frame(now, seq, h);
        if r.deliver {
            let i = (seq - x.held_base) as usize;
            if x.held.len() <= i {
                x.held.resize(i + 1, None);
            }
            x.held[i] = Some(seg);
        }
        let (mut first, mut end) = (None, 0);
        while let Some(s) = x.mh.pop_up() {
            debug_assert_eq!(s, x.held_base, "in order");
            let seg = x.held.pop_front().flatten().expect("a packet handed up was held");
            x.held_base += 1;
            first.get_or_insert(seg.start);
            end = seg.end();
        }
        let pkt = self.new_packet(leg, PacketKind::Ack, ack_header(r.ack));
        self.mhp_forward(leg, pkt, false);
        let Some(start) = first else { return };
        let f = &mut self.flows[leg];
        if start != f.app_next {
            self.violations.push(format!("flow {leg}: delivery [{start}, {end}) does not start at {}", f.app_next));
        }
        f.app_next = end;
        let m = f.model_flow as usize;
        if end >= f.bulk_bytes && self.flows[m].done_at.is_none() {
            self.flows[m].done_at = Some(now);
            self.finish(m);
        }
    }

    /// An ack reached the BS's MHP: SRP takes it (a SACK resends what it
    /// proves lost); the relay has room for what it settled.
    fn mhp_at_station(&mut self, pkt: Packet) {
        let now = self.sched.now();
        let leg = pkt.flow as usize;
        let k = self.mhp_at(leg);
        let ack = read_ack(&pkt.tcp);
        let x = &mut self.mhp[k];
        let Some(bs) = x.bs.as_mut() else { return };
        bs.send.on_ack(now, ack);
        x.sacks_at_bs += u64::from(ack.is_sack());
        let floor = bs.send.floor();
        while x.first_unsettled < floor {
            let seg = x.unsettled.pop_front().expect("an unsettled segment");
            x.acked = seg.end();
            x.first_unsettled += 1;
        }
        let (wired, acked) = (x.wired as usize, x.acked);
        self.trace.record(now, TraceEvent::AckReceived { flow: leg as u32, ack: acked });
        self.relay_pump(wired);
        self.mhp_flush(leg);
    }

    /// A handoff: the BS's MHP state, buffers included, leaves it (the
    /// relay has written `written` bytes). Its size in bytes: SRP's
    /// exported state (control, window slots with their packets' bytes)
    /// and the relay's bytes not yet offered to SRP. A state already in
    /// transit (a handoff overtaken) is carried on.
    pub(super) fn mhp_freeze(&mut self, leg: usize) -> u64 {
        let k = self.mhp_at(leg);
        let written = self.flows[self.mhp[k].wired as usize].relay.as_deref().expect("a split flow").written;
        let x = &mut self.mhp[k];
        if let Some(bs) = x.bs.take() {
            let s = bs.send.stats();
            x.before.sack_resends += s.sack_resends;
            x.before.timeout_resends += s.timeout_resends;
            x.before.timeouts += s.timeouts;
            x.transit = Some(bs.export_state());
        }
        let state = x.transit.as_ref().expect("a state in transit");
        let rx = u64::from(x.model.mss_wireless);
        state.bytes(|s| u64::from(s.len), rx) + (written - x.offered)
    }

    /// The state is installed at the new BS: its SRP is rebuilt from it
    /// and sends again.
    pub(super) fn mhp_install(&mut self, leg: usize) {
        let now = self.sched.now();
        let k = self.mhp_at(leg);
        let x = &mut self.mhp[k];
        if let Some(state) = x.transit.take() {
            x.bs = Some(Station::from_state(x.model.srp, now, state));
            x.traced_cwnd = 0;
        }
        self.mhp_flush(leg);
    }
}
