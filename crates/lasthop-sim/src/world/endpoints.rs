//! The connections' endpoints: packets delivered to a receiver or a
//! sender, timer wake-ups, what the endpoints (and background sources)
//! send, and flows finishing (and the flows that follow them starting).

use super::keys::{Side, Timer, TimerKey};
use super::{delivered_now, World, NO_HOP};
use crate::scenario::model::Workload;
use crate::scheduler::Event;
use crate::spurious::NO_WATCH;
use crate::traffic::Source;
use lasthop_core::{Ecn, LlNotice, Packet, PacketKind, TcpHeader, Time};

impl<'m> World<'m> {
    pub(super) fn deliver(&mut self, pkt: Packet) {
        let now = self.sched.now();
        let fi = pkt.flow as usize;
        let f = &mut self.flows[fi];
        match pkt.kind {
            PacketKind::Data if f.mhp => self.mhp_deliver(pkt),
            PacketKind::Data => {
                if pkt.tcp.seq <= f.spurious_watch && f.spurious_watch < pkt.seq_end() {
                    let (_, pending) = self.spurious[fi].on_delivery(pkt.uid);
                    if !pending {
                        f.spurious_watch = NO_WATCH;
                    }
                }
                let f = &mut self.flows[fi];
                let mut wap_done = false;
                if let Some(d) = f.receiver.on_segment(now, &pkt.tcp) {
                    if d.start != f.app_next {
                        self.violations.push(format!(
                            "flow {fi}: delivery [{}, {}) does not start at {}",
                            d.start, d.end, f.app_next
                        ));
                    }
                    f.app_next = d.end;
                    if f.relay.is_some() {
                        self.relay_pump(fi);
                    } else {
                        let m = f.model_flow as usize;
                        // A timed flow's `NO_BULK` is never reached.
                        if d.end >= f.bulk_bytes && self.flows[m].done_at.is_none() {
                            self.flows[m].done_at = Some(now);
                            // With a handshake the flow ends when the
                            // FIN's ack reaches the sender.
                            if !self.model.flows[m].sender.handshake {
                                self.finish(m);
                            }
                            // A wap session's connection: the page goes on
                            // once the receiver's ack is out.
                            wap_done = self.model.flows[m].wap.is_some();
                        }
                    }
                }
                if pkt.ecn == Ecn::Ce {
                    self.flows[fi].receiver.on_ce_mark();
                }
                self.flush_receiver(fi);
                if wap_done {
                    self.wap_conn_done(fi);
                }
            }
            // An LL-ELSN notice from the access point: never an ack. Its
            // `seq` is when the link layer raised it (see `ll_notice_of`).
            PacketKind::Ack if pkt.tcp.ll_notice != LlNotice::None => {
                let raised_ns = now.since(Time(pkt.tcp.seq));
                self.notice_reached_sender(fi, pkt.tcp.ll_notice, pkt.tcp.ack, raised_ns);
            }
            // (A split leg's: it may be MHP's.)
            PacketKind::Ack if f.upstream.is_some() && f.mhp => self.mhp_deliver(pkt),
            PacketKind::Ack => {
                // A window update (same ack, new window) is not a duplicate (RFC 5681 Sec. 2).
                let ack = (pkt.tcp.ack, pkt.tcp.wnd_bytes);
                if f.last_ack_at_source == Some(ack) && !pkt.tcp.syn {
                    f.dupacks_at_source += 1;
                }
                f.last_ack_at_source = Some(ack);
                if pkt.ecn == Ecn::Ce {
                    f.sender.on_ce_mark();
                }
                f.sender.on_ack(now, &pkt.tcp, &mut self.trace);
                let closed = f.sender.is_closed() && !f.finished;
                if let Some(wired) = f.upstream {
                    // The mobile host acknowledged relay data: room to read more.
                    self.relay_pump(wired as usize);
                    self.mtcp_release(wired as usize);
                }
                if closed {
                    self.finish(fi); // the FIN is acknowledged
                }
                self.flush_sender(fi);
            }
            // A wap session's datagram: to its WSP client or server.
            PacketKind::Datagram if !self.wap_sessions.is_empty() && self.wap_sessions.contains(&pkt.flow) => {
                self.wap_deliver(pkt)
            }
            // A background source's datagram: counted, never acknowledged.
            PacketKind::Datagram => f.app_next += u64::from(pkt.size_bytes),
        }
    }

    /// Timer `key` fired: wake what it belongs to (an endpoint, an agent or
    /// a medium).
    pub(super) fn on_wake(&mut self, key: TimerKey) {
        let now = self.sched.now();
        let (fi, side) = match self.timer_keys().kind(key) {
            Timer::Medium(m) => {
                self.mac_wake(m);
                return;
            }
            Timer::Schedule => {
                self.on_schedule();
                return;
            }
            Timer::Agent(k) => {
                self.agents[k].armed = Time::NEVER;
                self.agents[k].agent.on_timer(now);
                self.flush_agents(k, k + 1);
                return;
            }
            Timer::Endpoint { conn, side } => (conn, side),
        };
        *self.flows[fi].armed_mut(side) = Time::NEVER;
        if side == Side::Sender && self.flows[fi].source.is_some() {
            self.flush_source(fi);
        } else if side == Side::Sender && self.flows[fi].mhp {
            self.mhp_wake(fi);
        } else if side == Side::Sender {
            let timeouts = self.flows[fi].sender.timeouts();
            self.flows[fi].sender.on_timer(now, &mut self.trace);
            if self.flows[fi].sender.timeouts() != timeouts {
                self.on_timeout_fired(fi);
            }
            self.flush_sender(fi);
        } else {
            self.flows[fi].receiver.on_timer(now);
            self.flush_receiver(fi);
        }
    }

    /// Connection `fi`'s sender timed out (before it resends anything): if
    /// its receiver still lacks the byte it goes back to, watch that byte
    /// (the spurious-timeout oracle, [`crate::spurious`]).
    #[cold]
    fn on_timeout_fired(&mut self, fi: usize) {
        let f = &mut self.flows[fi];
        if f.sender.is_syn_sent() {
            return; // a SYN's timeout
        }
        let seq = f.sender.snd_una();
        if f.receiver.rcv_nxt() != seq {
            return; // it arrived before the timer fired: the acks were late
        }
        let restart = f.spurious_watch != seq;
        f.spurious_watch = seq;
        self.spurious[fi].on_timeout(restart, self.next_uid);
    }

    pub(super) fn new_packet(&mut self, fi: usize, kind: PacketKind, tcp: TcpHeader) -> Packet {
        let f = &self.flows[fi];
        // The endpoints choose the IP ECN field (RFC 3168; seed 001's ECT acks).
        let (src, dst, size, ecn) = match kind {
            // A SYN is header only, sized as a pure ack (`header_bytes` may
            // be 0 where the segment size counts the headers).
            PacketKind::Data if tcp.syn => (f.from, f.to, f.ack_bytes, Ecn::NotEct),
            PacketKind::Data => (f.from, f.to, f.header_bytes + tcp.len, f.sender.ip_ecn(&tcp)),
            // RFC 3168 Sec. 6.1.1: a SYN-ACK is never ECN-capable.
            PacketKind::Ack if tcp.syn => (f.ack_ends[0], f.ack_ends[1], f.ack_bytes, Ecn::NotEct),
            PacketKind::Ack => (f.ack_ends[0], f.ack_ends[1], f.ack_bytes, f.receiver.ip_ecn()),
            // A datagram's size rides in `len` (see `flush_source`).
            PacketKind::Datagram => (f.from, f.to, tcp.len, Ecn::NotEct),
        };
        self.next_uid += 1;
        self.conservation.created += 1;
        Packet { uid: self.next_uid - 1, flow: fi as u32, kind, src, dst, size_bytes: size, ecn, tcp }
    }

    pub(super) fn flush_sender(&mut self, fi: usize) {
        let now = self.sched.now();
        let f = &mut self.flows[fi];
        f.cwnd_avg.on_change(now, f.sender.cwnd_bytes());
        while let Some(tcp) = self.flows[fi].sender.poll_transmit(now, &mut self.trace) {
            let pkt = self.new_packet(fi, PacketKind::Data, tcp);
            if !self.notices.is_empty() {
                self.notices[fi].data_bytes_sent += u64::from(pkt.size_bytes);
            }
            // Agents on the sender's own node (snoop at an uplink's mobile
            // sender) see its segments before they leave.
            let (first, end) = if self.agents.is_empty() { (0, 0) } else { self.flow_agents(pkt.src, pkt.flow) };
            if first < end {
                self.send_through_agents(fi, first, end, pkt);
                continue;
            }
            match self.flows[fi].data_hop {
                NO_HOP => self.forward(pkt.src, pkt),
                h => self.forward_on(h as usize, pkt),
            }
        }
        let want = self.flows[fi].sender.poll_at();
        self.rearm(fi, Side::Sender, want);
    }

    /// Send what flow `fi`'s background source has due, and re-arm it.
    #[cold]
    pub(super) fn flush_source(&mut self, fi: usize) {
        if matches!(self.flows[fi].source.as_deref(), Some(Source::Wap(_))) {
            return self.wap_wake(fi);
        }
        let now = self.sched.now();
        loop {
            let source = self.flows[fi].source.as_deref_mut().expect("a source flow");
            let Some(size) = source.poll_transmit(now) else { break };
            // Its index as `seq` (captures and traces), its size as `len`.
            let tcp = TcpHeader { seq: source.sent() - 1, len: size, ..TcpHeader::default() };
            let pkt = self.new_packet(fi, PacketKind::Datagram, tcp);
            match self.flows[fi].data_hop {
                NO_HOP => self.forward(pkt.src, pkt),
                h => self.forward_on(h as usize, pkt),
            }
        }
        let want = self.flows[fi].source.as_deref().expect("a source flow").poll_at();
        self.rearm(fi, Side::Sender, want);
    }

    pub(super) fn flush_receiver(&mut self, fi: usize) {
        let now = self.sched.now();
        while let Some(tcp) = self.flows[fi].receiver.poll_transmit(now) {
            let pkt = self.new_packet(fi, PacketKind::Ack, tcp);
            match self.flows[fi].ack_hop {
                NO_HOP => self.forward(pkt.src, pkt),
                h => self.forward_on(h as usize, pkt),
            }
        }
        let want = self.flows[fi].receiver.poll_at();
        self.rearm(fi, Side::Receiver, want);
    }

    /// Arm an endpoint's wake-up only when it wants it earlier than armed: a
    /// later want is served by the early wake-up, which re-arms.
    pub(super) fn rearm(&mut self, fi: usize, side: Side, want: Time) {
        if want < *self.flows[fi].armed_mut(side) {
            let at = want.max(self.sched.now());
            *self.flows[fi].armed_mut(side) = at;
            self.sched.set_timer(TimerKey::endpoint(fi, side).raw(), at);
        }
    }

    pub(super) fn finish(&mut self, flow: usize) {
        let f = &mut self.flows[flow];
        if !f.finished {
            f.finished = true;
            self.active_flows -= 1;
            let now = self.sched.now();
            if self.overlap.wants_end() {
                self.overlap.on_end(now, &delivered_now(&self.flows, self.model.flows.len()));
            }
            if !self.followers.is_empty() {
                self.start_followers(flow, now);
            }
        }
    }

    /// Schedule the starts (and stops) of the flows that follow `flow`,
    /// which completed at `now`.
    #[cold]
    fn start_followers(&mut self, flow: usize, now: Time) {
        let lo = self.followers.partition_point(|&(t, _)| (t as usize) < flow);
        let hi = self.followers.partition_point(|&(t, _)| (t as usize) <= flow);
        for k in lo..hi {
            let fi = self.followers[k].1 as usize;
            let m = &self.model.flows[fi];
            let start = now.plus_ns(m.start.ns());
            self.starts[fi] = start;
            self.sched.schedule(start, Event::FlowStart { flow: fi as u32 });
            if let Workload::Timed { duration_ns } = m.workload {
                self.sched.schedule(start.plus_ns(duration_ns), Event::FlowStop { flow: fi as u32 });
            }
        }
    }
}
