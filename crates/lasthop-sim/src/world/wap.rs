//! The `wap` workload in the world ([`crate::traffic::wap`], seed 002 Sec.
//! 5.3; `elaarag-002.md` Secs. 1.13, 4): its datagrams between handset and
//! gateway (up on the session's data path, down on its ack path, one WTP
//! PDU each, its id in the packet's `seq`), the per-page TCP connections
//! (fresh endpoints on the session's two connection slots each page), the
//! bearer's outages driving WSP suspend and resume, and the page records.
//! Everything here runs only in runs with a `wap` flow (`World::wap_sessions`
//! non-empty): no other run reads a line of it.

use super::keys::Side;
use super::World;
use crate::scenario::model::FlowModel;
use crate::spurious::NO_WATCH;
use crate::traffic::wap::{PageEnd, PageRecord, Protocol, Stage, WapReport, WapRole, WapWorkload};
use crate::traffic::Source;
use lasthop_core::{Packet, PacketKind, TcpHeader};
use lasthop_net::wap::wsp::{ClientEvent, ClientState, ServerEvent, WspPdu};
use lasthop_net::wap::wtp::{Kind, Pdu};
use lasthop_tcp::{Receiver, Sender};

impl<'m> World<'m> {
    /// Give each `wap` session flow its workload, and leave its TCP
    /// connections idle (finished, not counted active) until a page opens
    /// them.
    pub(super) fn wap_wire(&mut self) {
        for (i, f) in self.model.flows.iter().enumerate() {
            match f.wap {
                Some(WapRole::Session(cfg)) => {
                    // The bearer: the link of the handset's first hop.
                    let hop = self.route[self.conn_at[i].data as usize];
                    debug_assert_eq!(hop.from, f.from);
                    let bearer = (hop.link, 1 - hop.dir);
                    let conns = [i as u32 + 1, i as u32 + 2];
                    let w = WapWorkload::new(cfg, conns, bearer, [f.from, f.to]);
                    self.flows[i].source = Some(Box::new(Source::Wap(Box::new(w))));
                    self.wap_sessions.push(i as u32);
                }
                Some(WapRole::Request { .. } | WapRole::Response { .. }) => {
                    self.flows[i].finished = true;
                    self.active_flows -= 1;
                }
                None => {}
            }
        }
    }

    fn wap_mut(&mut self, s: usize) -> &mut WapWorkload {
        match self.flows[s].source.as_deref_mut() {
            Some(Source::Wap(w)) => w,
            _ => unreachable!("flow {s} is a wap session"),
        }
    }

    fn wap_ref(&self, s: usize) -> &WapWorkload {
        match self.flows[s].source.as_deref() {
            Some(Source::Wap(w)) => w,
            _ => unreachable!("flow {s} is a wap session"),
        }
    }

    /// The run summary's `wap` entries: each session's pages.
    pub(super) fn wap_summary(&self) -> Vec<crate::metrics::WapSummary> {
        use crate::metrics::{PageSummary, WapSummary};
        let mean = |xs: &[f64]| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
        self.wap_sessions
            .iter()
            .filter_map(|&s| {
                let r = self.wap_report(s as usize)?;
                let Some(Source::Wap(w)) = self.flows[s as usize].source.as_deref() else { return None };
                let ended = |e: PageEnd| r.pages.iter().filter(|p| p.outcome == Some(e)).count() as u64;
                let fetched: Vec<f64> = r
                    .pages
                    .iter()
                    .filter(|p| p.outcome == Some(PageEnd::Fetched))
                    .filter_map(|p| p.end.map(|e| e.since(p.start) as f64 / 1e9))
                    .collect();
                let frames: Vec<f64> = r.pages.iter().map(|p| p.bearer_packets as f64).collect();
                Some(WapSummary {
                    flow: self.model.flows[s as usize].name.clone(),
                    protocol: match w.cfg.protocol {
                        Protocol::Wap => "wap",
                        Protocol::Http => "http",
                    }
                    .to_string(),
                    fetched: ended(PageEnd::Fetched),
                    aborted: ended(PageEnd::Aborted),
                    unfinished: r.pages.iter().filter(|p| p.outcome.is_none()).count() as u64,
                    mean_fetch_s: mean(&fetched),
                    mean_bearer_frames: mean(&frames),
                    connects: r.connects,
                    resumes: r.resumes,
                    gateway_sessions: r.gateway_sessions as u64,
                    hold_on_acks: r.hold_on_acks,
                    pages: r
                        .pages
                        .iter()
                        .map(|p| PageSummary {
                            start_s: p.start.as_secs_f64(),
                            end_s: p.end.map(|e| e.as_secs_f64()),
                            outcome: p.outcome.map(|o| {
                                match o {
                                    PageEnd::Fetched => "fetched",
                                    PageEnd::Aborted => "aborted",
                                }
                                .to_string()
                            }),
                            bearer_frames: p.bearer_packets,
                        })
                        .collect(),
                })
            })
            .collect()
    }

    /// What wap session `s` did so far (`None`: flow `s` is no session).
    pub fn wap_report(&self, s: usize) -> Option<WapReport> {
        let Some(Source::Wap(w)) = self.flows.get(s)?.source.as_deref() else { return None };
        let mut r = w.report.clone();
        if let Some(last) = r.pages.last_mut() {
            let (up, down) = self.bearer_packets(w);
            last.bearer_packets = up + down - w.page_mark.0 - w.page_mark.1;
            last.bearer_packets_down = down - w.page_mark.1;
        }
        let st = w.client.stats();
        (r.connects, r.resumes, r.gateway_sessions) = (st.connects, st.resumes, w.server.sessions());
        Some(r)
    }

    /// Frames put on the bearer so far: (up, down).
    fn bearer_packets(&self, w: &WapWorkload) -> (u64, u64) {
        let (li, down) = (w.bearer.0 as usize, w.bearer.1 as usize);
        let d = &self.links[li].dirs;
        (d[1 - down].stats().packets_sent, d[down].stats().packets_sent)
    }

    /// Session `s`'s wake-up (its start, think timer or WTP timers).
    pub(super) fn wap_wake(&mut self, s: usize) {
        let now = self.sched.now();
        let w = self.wap_mut(s);
        if w.start_due {
            w.start_due = false;
            match w.cfg.protocol {
                Protocol::Wap => {
                    w.client.connect(now).expect("a new client connects");
                    w.stage = Stage::Session;
                }
                Protocol::Http => {
                    w.stage = Stage::Think;
                    w.next_at = now;
                }
            }
        }
        let w = self.wap_mut(s);
        if w.cfg.protocol == Protocol::Wap {
            if w.client.deadline().is_some_and(|d| d <= now) {
                w.client.on_timer(now);
            }
            if w.server.deadline().is_some_and(|d| d <= now) {
                w.server.on_timer(now);
            }
        }
        let w = self.wap_mut(s);
        if w.stage == Stage::Think && w.next_at <= now {
            self.wap_start_page(s);
        }
        self.wap_pump(s);
    }

    /// The next page: WAP, a Get if the session is up (else wait for it);
    /// HTTP, the request's connection opens.
    fn wap_start_page(&mut self, s: usize) {
        let now = self.sched.now();
        let (up, down) = self.bearer_packets(self.wap_ref(s));
        let w = self.wap_mut(s);
        if w.cfg.protocol == Protocol::Wap && w.client.state() != ClientState::Connected {
            w.stage = Stage::Session;
            return;
        }
        match w.report.pages.last_mut() {
            Some(last) => {
                last.bearer_packets = up + down - w.page_mark.0 - w.page_mark.1;
                last.bearer_packets_down = down - w.page_mark.1;
            }
            None => w.report.bearer_packets_before_pages = up + down,
        }
        w.page_mark = (up, down);
        w.report.pages.push(PageRecord {
            start: now,
            end: None,
            outcome: None,
            bearer_packets: 0,
            bearer_packets_down: 0,
        });
        w.stage = Stage::Fetching;
        match w.cfg.protocol {
            Protocol::Wap => {
                let fetch = w.client.get(now, w.cfg.request_bytes).expect("connected");
                w.fetch = Some(fetch);
            }
            Protocol::Http => {
                let c = w.conns[0] as usize;
                self.wap_open(c);
            }
        }
    }

    /// The current page ended at `now` with `outcome`: the next after the
    /// think time, or the session's end.
    fn wap_page_ended(&mut self, s: usize, outcome: PageEnd) {
        let now = self.sched.now();
        let w = self.wap_mut(s);
        let Some(last) = w.report.pages.last_mut().filter(|p| p.outcome.is_none()) else { return };
        (last.end, last.outcome) = (Some(now), Some(outcome));
        w.fetch = None;
        if w.report.pages.len() as u32 >= w.cfg.pages {
            w.stage = Stage::Done;
            self.finish(s);
        } else {
            w.stage = Stage::Think;
            w.next_at = now.plus_ns(w.cfg.think_ns);
        }
    }

    /// Open a fresh connection on slot `c` (a new sender and receiver: a
    /// new connection per page) and start it.
    fn wap_open(&mut self, c: usize) {
        let now = self.sched.now();
        let m: &FlowModel = &self.model.flows[c];
        let (sender, receiver) = (Sender::new(m.sender, c as u32), Receiver::new(m.receiver));
        let f = &mut self.flows[c];
        (f.sender, f.receiver) = (sender, receiver);
        (f.app_next, f.done_at, f.last_ack_at_source, f.spurious_watch) = (0, None, None, NO_WATCH);
        if f.finished {
            f.finished = false;
            self.active_flows += 1;
        }
        self.flows[c].sender.start(now, &mut self.trace);
        self.flush_sender(c);
    }

    /// Connection `c` of a wap session delivered its last byte: a
    /// request opens its response; a response ends the gateway's fetch
    /// (WAP: the Result goes) or the page (HTTP).
    #[cold]
    pub(super) fn wap_conn_done(&mut self, c: usize) {
        let now = self.sched.now();
        match self.model.flows[c].wap {
            Some(WapRole::Request { session }) => {
                let r = self.wap_ref(session as usize).conns[1] as usize;
                self.wap_open(r);
            }
            Some(WapRole::Response { session }) => {
                let s = session as usize;
                let w = self.wap_mut(s);
                match w.cfg.protocol {
                    Protocol::Http => {
                        self.wap_page_ended(s, PageEnd::Fetched);
                        self.wap_pump(s);
                    }
                    Protocol::Wap => {
                        if let Some((addr, tid)) = w.gateway_fetch.take() {
                            // Refused if the transaction ended meanwhile.
                            let _ = w.server.reply(now, addr, tid, w.cfg.encoded_response());
                        }
                        if let Some(next) = w.gateway_queue.pop_front() {
                            w.gateway_fetch = Some(next);
                            let c = w.conns[0] as usize;
                            self.wap_open(c);
                        }
                        self.wap_pump(s);
                    }
                }
            }
            _ => {}
        }
    }

    /// Send what session `s`'s WSP client and server have queued, handle
    /// what they hand up, until neither has anything; then re-arm.
    fn wap_pump(&mut self, s: usize) {
        let now = self.sched.now();
        loop {
            let w = self.wap_mut(s);
            if let Some(pdu) = w.client.pop_pdu() {
                let addr = w.addr;
                if let Kind::Invoke { data: WspPdu::Get { .. }, .. } = pdu.kind {
                    w.report.fetch_invokes.push((now, addr, pdu.tid));
                }
                self.wap_send(s, true, addr, pdu);
                continue;
            }
            if let Some((addr, pdu)) = w.server.pop_pdu() {
                if pdu.kind == Kind::Ack && !pdu.rid {
                    w.report.hold_on_acks += 1;
                }
                self.wap_send(s, false, addr, pdu);
                continue;
            }
            if let Some(ev) = w.server.pop_event() {
                if let ServerEvent::Fetch { addr, tid, .. } = ev {
                    if w.gateway_fetch.is_none() {
                        w.gateway_fetch = Some((addr, tid));
                        let c = w.conns[0] as usize;
                        self.wap_open(c);
                    } else {
                        w.gateway_queue.push_back((addr, tid));
                    }
                }
                continue;
            }
            if let Some(ev) = w.client.pop_event() {
                self.wap_client_event(s, ev);
                continue;
            }
            break;
        }
        let want = self.wap_ref(s).poll_at();
        self.rearm(s, Side::Sender, want);
    }

    fn wap_client_event(&mut self, s: usize, ev: ClientEvent) {
        let now = self.sched.now();
        let w = self.wap_mut(s);
        match ev {
            ClientEvent::Connected { session } | ClientEvent::Resumed { session } => {
                if !w.report.session_ids.contains(&session) {
                    w.report.session_ids.push(session);
                }
                if w.stage == Stage::Session {
                    self.wap_start_page(s);
                }
            }
            ClientEvent::Fetched { fetch, .. } if w.fetch == Some(fetch) => self.wap_page_ended(s, PageEnd::Fetched),
            ClientEvent::FetchAborted { fetch } if w.fetch == Some(fetch) => {
                w.report.fetch_aborts.push(now);
                self.wap_page_ended(s, PageEnd::Aborted);
            }
            // The session is gone: connect again (pages go on after it).
            ClientEvent::SessionLost if w.client.state() == ClientState::Null && w.stage != Stage::Done => {
                w.client.connect(now).expect("no session");
                if w.stage == Stage::Fetching {
                    w.stage = Stage::Session;
                }
            }
            _ => {}
        }
    }

    /// One WTP PDU as a datagram: `up` from the handset (address `addr`)
    /// to the gateway on the session's data path, else from the gateway to
    /// address `addr` on its ack path.
    fn wap_send(&mut self, s: usize, up: bool, addr: u32, pdu: Pdu<WspPdu>) {
        let w = self.wap_mut(s);
        let id = w.next_id;
        w.next_id += 1;
        w.in_flight.insert(id, (addr, pdu));
        w.report.datagrams_sent += 1;
        let size = pdu.wire_bytes() + w.cfg.datagram_header_bytes;
        let tcp = TcpHeader { seq: id, len: size, ..TcpHeader::default() };
        let mut pkt = self.new_packet(s, PacketKind::Datagram, tcp);
        let at = self.conn_at[s];
        let (first, end) = if up { (at.data, at.acks) } else { (at.acks, at.end) };
        if !up {
            (pkt.src, pkt.dst) = (pkt.dst, pkt.src);
        }
        match self.hop_from(first, end, pkt.src) {
            Some(h) => self.forward_on(h, pkt),
            None => unreachable!("a wap session's paths leave its ends"),
        }
    }

    /// A wap datagram reached its end.
    #[cold]
    pub(super) fn wap_deliver(&mut self, pkt: Packet) {
        let now = self.sched.now();
        let s = pkt.flow as usize;
        let w = self.wap_mut(s);
        let Some((addr, pdu)) = w.in_flight.remove(&pkt.tcp.seq) else { return };
        w.report.datagrams_delivered += 1;
        if pkt.dst == w.gateway {
            w.server.on_pdu(now, addr, pdu);
        } else if addr == w.addr {
            w.client.on_pdu(now, pdu);
        }
        // (To an address the handset no longer has: lost.)
        self.flows[s].app_next += 1;
        self.wap_pump(s);
    }

    /// Link `li` went down or came up: for the sessions whose bearer it
    /// is, WSP suspends on its loss and resumes on its return (with
    /// `suspend`), from a new address (with `new_address`).
    #[cold]
    pub(super) fn wap_link_change(&mut self, li: usize, down: bool) {
        let now = self.sched.now();
        for k in 0..self.wap_sessions.len() {
            let s = self.wap_sessions[k] as usize;
            let w = self.wap_mut(s);
            if w.bearer.0 as usize != li || w.bearer_up != down || w.cfg.protocol != Protocol::Wap {
                continue;
            }
            w.bearer_up = !down;
            if w.stage == Stage::Idle || w.stage == Stage::Done {
                continue;
            }
            if down {
                if w.cfg.suspend && w.client.state() == ClientState::Connected {
                    w.client.suspend(now).expect("connected");
                }
            } else {
                if w.cfg.new_address {
                    w.addr += 1;
                    let addr = w.addr;
                    w.client.bearer_changed(now, addr);
                }
                match w.client.state() {
                    ClientState::Suspended => w.client.resume(now).expect("suspended"),
                    ClientState::Null => w.client.connect(now).expect("no session"),
                    _ => {}
                }
            }
            self.wap_pump(s);
        }
    }
}
