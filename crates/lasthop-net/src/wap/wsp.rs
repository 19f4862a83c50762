//! WSP, WAP's Wireless Session Protocol, connection mode over WTP,
//! minimal: a client (the handset) and a server (the gateway). The WSP
//! specification was not read from here: the rules marked \[K\] are the
//! reading's (`elaarag-002.md` Sec. 1.13: "connection-mode session over
//! WTP (connect, method invoke, suspend, resume, disconnect) — suspend/resume
//! keeps a session across bearer loss") and what is commonly known of WSP
//! 1.x, unverified; lasthop's choices are \[I\].
//!
//! - \[K\] A session is opened by Connect (a class 2 transaction, answered
//!   by ConnectReply with the server's session id) and ended by
//!   Disconnect (class 0). A method (here only a page fetch, Get: request
//!   bytes out, Reply with response bytes back) is a class 2 transaction.
//! - \[K\] Suspend (class 0) suspends the session and aborts its
//!   outstanding methods; Resume (class 2, answered by Reply) carries the
//!   session id, so it works from a new bearer address: the server binds
//!   the session to the address the Resume came from. No new Connect.
//! - \[I\] The server knows a session by the client's address (the WTP
//!   peer): a method from an address with no live session bound to it is
//!   refused with a WTP Abort ([`AbortReason::Disconnect`]), and the
//!   client, its session lost, must connect again. A bearer loss that
//!   changes the client's address ([`Client::bearer_changed`]) therefore
//!   loses an unsuspended session; a suspended one is resumed. A bearer
//!   loss that keeps the address is WTP's business only (retransmissions,
//!   and an abort after RCR: see [`super::wtp`]).
//! - \[I\] The server keeps a suspended session indefinitely (no session
//!   timer), and a new address means a new WTP tid space: the client
//!   starts a fresh [`Initiator`], aborting (locally) what the old one had
//!   live; the server keeps one [`Responder`] per client address.
//! - Sizes ([`WspPdu`], [`Payload::bytes`]): a PDU type octet, uintvar
//!   session ids and lengths, empty capabilities and headers (\[K\] field
//!   layout, unverified; \[I\] the empty fields). The request and response
//!   byte counts are the caller's (URI and headers; headers and body).
//!
//! Driving it: as [`super::wtp`], one level up. The client's PDUs go to
//! the server's address, the server's to an address ([`Server::pop_pdu`]);
//! deliver with [`Client::on_pdu`] and [`Server::on_pdu`]`(now, from,
//! pdu)`; timers by `deadline`/`on_timer`; a fetch handed up at the
//! server ([`ServerEvent::Fetch`]) is answered by [`Server::reply`].

use super::wtp::{AbortReason, Event, Initiator, Payload, Pdu, Refusal, Responder, Tid, WtpConfig};
use lasthop_core::Time;
use std::collections::{BTreeMap, VecDeque};

/// The server's session id.
pub type SessionId = u32;
/// A bearer address (\[I\]: a number; a bearer loss may end with a new one).
pub type Addr = u32;
/// A client's number for one fetch, across WTP tid spaces.
pub type FetchId = u64;

/// A WSP PDU, the user data of a WTP Invoke or Result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WspPdu {
    /// Open a session (class 2).
    Connect,
    /// The server's answer to Connect.
    ConnectReply { session: SessionId },
    /// A page fetch (class 2): `request` bytes of URI and headers.
    Get { request: u32 },
    /// The answer to a Get (`response` bytes of headers and body) or to a
    /// Resume (`response` 0).
    Reply { response: u32 },
    /// Suspend the session (class 0).
    Suspend { session: SessionId },
    /// Resume it, possibly from a new address (class 2).
    Resume { session: SessionId },
    /// End it (class 0).
    Disconnect { session: SessionId },
}

/// Bytes of `n` as a WSP uintvar (7 bits per octet, \[K\]).
pub fn uintvar_bytes(n: u32) -> u32 {
    match n {
        0..=0x7f => 1,
        0x80..=0x3fff => 2,
        0x4000..=0x1f_ffff => 3,
        0x20_0000..=0xfff_ffff => 4,
        _ => 5,
    }
}

impl Payload for WspPdu {
    /// Type octet, then (\[K\] layout, \[I\] empty fields): Connect: version,
    /// capabilities and headers lengths (4); ConnectReply: session id,
    /// the two lengths; Get: the URI's length and the request; Reply:
    /// status, headers length and the response; Suspend and Disconnect:
    /// the session id; Resume: session id and the two lengths.
    fn bytes(&self) -> u32 {
        1 + match *self {
            WspPdu::Connect => 3,
            WspPdu::ConnectReply { session } => uintvar_bytes(session) + 2,
            WspPdu::Get { request } => uintvar_bytes(request) + request,
            WspPdu::Reply { response } => 2 + response,
            WspPdu::Suspend { session } | WspPdu::Disconnect { session } => uintvar_bytes(session),
            WspPdu::Resume { session } => uintvar_bytes(session) + 2,
        }
    }
}

/// Where a client's session is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientState {
    /// No session.
    Null,
    /// Connect sent, its reply awaited.
    Connecting,
    /// In session.
    Connected,
    /// Suspended (Suspend sent).
    Suspended,
    /// Resume sent, its reply awaited.
    Resuming,
}

/// What the client hands up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientEvent {
    /// The session is open.
    Connected { session: SessionId },
    /// A fetch's response (once per fetch).
    Fetched { fetch: FetchId, response: u32 },
    /// A fetch ended without a response (WTP abort, suspend, a new bearer).
    FetchAborted { fetch: FetchId },
    /// The session is in place again after a Resume.
    Resumed { session: SessionId },
    /// The session is gone (refused by the server, or Connect/Resume
    /// aborted): connect again.
    SessionLost,
}

/// Counters a test or trace can read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientStats {
    /// Connect requests made.
    pub connects: u64,
    /// Resume requests made.
    pub resumes: u64,
    /// Fetches answered.
    pub fetched: u64,
    /// Fetches aborted.
    pub fetch_aborts: u64,
}

/// What a live client transaction is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Connect,
    Fetch(FetchId),
    Resume,
}

/// The handset's side of a session, over its own WTP initiator.
#[derive(Clone, Debug)]
pub struct Client {
    cfg: WtpConfig,
    addr: Addr,
    wtp: Initiator<WspPdu>,
    state: ClientState,
    session: Option<SessionId>,
    live: BTreeMap<Tid, Purpose>,
    next_fetch: FetchId,
    events: VecDeque<ClientEvent>,
    stats: ClientStats,
}

impl Client {
    /// A client at bearer address `addr`, with no session; `cfg` must
    /// validate.
    pub fn new(cfg: WtpConfig, addr: Addr) -> Client {
        Client {
            cfg,
            addr,
            wtp: Initiator::new(cfg),
            state: ClientState::Null,
            session: None,
            live: BTreeMap::new(),
            next_fetch: 0,
            events: VecDeque::new(),
            stats: ClientStats::default(),
        }
    }

    /// Its session's state.
    pub fn state(&self) -> ClientState {
        self.state
    }

    /// Its session id, if it has one (connected, suspended or resuming).
    pub fn session(&self) -> Option<SessionId> {
        self.session
    }

    /// Its bearer address.
    pub fn addr(&self) -> Addr {
        self.addr
    }

    /// Its counters.
    pub fn stats(&self) -> ClientStats {
        self.stats
    }

    /// Its WTP initiator's counters (this address's).
    pub fn wtp_stats(&self) -> super::wtp::Stats {
        self.wtp.stats()
    }

    fn invoke(&mut self, now: Time, class: u8, pdu: WspPdu) -> Tid {
        self.wtp.invoke(now, class, pdu).expect("classes 0 and 2 are valid")
    }

    fn refuse(&self, want: ClientState) -> Result<(), Refusal> {
        if self.state == want {
            Ok(())
        } else {
            Err(("state", "not in the state this call needs"))
        }
    }

    /// Open a session (from `Null`).
    pub fn connect(&mut self, now: Time) -> Result<(), Refusal> {
        self.refuse(ClientState::Null)?;
        let tid = self.invoke(now, 2, WspPdu::Connect);
        self.live.insert(tid, Purpose::Connect);
        self.state = ClientState::Connecting;
        self.stats.connects += 1;
        Ok(())
    }

    /// Fetch a page (connected): `request` bytes out. Its id.
    pub fn get(&mut self, now: Time, request: u32) -> Result<FetchId, Refusal> {
        self.refuse(ClientState::Connected)?;
        let fetch = self.next_fetch;
        self.next_fetch += 1;
        let tid = self.invoke(now, 2, WspPdu::Get { request });
        self.live.insert(tid, Purpose::Fetch(fetch));
        Ok(fetch)
    }

    /// Suspend the session (connected): outstanding fetches are aborted,
    /// Suspend goes out (class 0).
    pub fn suspend(&mut self, now: Time) -> Result<(), Refusal> {
        self.refuse(ClientState::Connected)?;
        self.abort_all(now);
        let session = self.session.expect("connected");
        self.invoke(now, 0, WspPdu::Suspend { session });
        self.drain_wtp();
        self.state = ClientState::Suspended;
        Ok(())
    }

    /// Resume the suspended session (from the current address).
    pub fn resume(&mut self, now: Time) -> Result<(), Refusal> {
        self.refuse(ClientState::Suspended)?;
        let session = self.session.expect("suspended");
        let tid = self.invoke(now, 2, WspPdu::Resume { session });
        self.live.insert(tid, Purpose::Resume);
        self.state = ClientState::Resuming;
        self.stats.resumes += 1;
        Ok(())
    }

    /// End the session (connected or suspended): Disconnect (class 0).
    pub fn disconnect(&mut self, now: Time) -> Result<(), Refusal> {
        let session = match (self.state, self.session) {
            (ClientState::Connected | ClientState::Suspended, Some(s)) => s,
            _ => return Err(("state", "no session to disconnect")),
        };
        self.abort_all(now);
        self.invoke(now, 0, WspPdu::Disconnect { session });
        self.drain_wtp();
        self.lose_session();
        Ok(())
    }

    /// The bearer came back with address `addr` (a bearer loss ended). A
    /// new address is a new WTP tid space: what was live is aborted
    /// locally. The session is kept as it was: suspended, it is resumed;
    /// connected, it is still bound to the old address at the server.
    pub fn bearer_changed(&mut self, now: Time, addr: Addr) {
        if addr == self.addr {
            return;
        }
        self.abort_all(now);
        // The old initiator's Aborts could not go: a fresh one, no PDUs.
        self.wtp = Initiator::new(self.cfg);
        self.addr = addr;
        if self.state == ClientState::Resuming {
            self.state = ClientState::Suspended;
        }
        if self.state == ClientState::Connecting {
            self.state = ClientState::Null;
            self.session = None;
        }
    }

    fn abort_all(&mut self, now: Time) {
        for (tid, p) in std::mem::take(&mut self.live) {
            self.wtp.abort(now, tid);
            if let Purpose::Fetch(fetch) = p {
                self.fetch_aborted(fetch);
            }
        }
        while self.wtp.pop_event().is_some() {}
    }

    fn fetch_aborted(&mut self, fetch: FetchId) {
        self.stats.fetch_aborts += 1;
        self.events.push_back(ClientEvent::FetchAborted { fetch });
    }

    fn lose_session(&mut self) {
        self.state = ClientState::Null;
        self.session = None;
    }

    /// A PDU from the server arrived.
    pub fn on_pdu(&mut self, now: Time, pdu: Pdu<WspPdu>) {
        self.wtp.on_pdu(now, pdu);
        self.drain_wtp();
    }

    /// When its WTP next needs the time.
    pub fn deadline(&self) -> Option<Time> {
        self.wtp.deadline()
    }

    /// The caller's timer fired.
    pub fn on_timer(&mut self, now: Time) {
        self.wtp.on_timer(now);
        self.drain_wtp();
    }

    /// The next PDU to send to the server.
    pub fn pop_pdu(&mut self) -> Option<Pdu<WspPdu>> {
        self.wtp.pop_pdu()
    }

    /// The next event to hand up.
    pub fn pop_event(&mut self) -> Option<ClientEvent> {
        self.events.pop_front()
    }

    fn drain_wtp(&mut self) {
        while let Some(e) = self.wtp.pop_event() {
            let (tid, result) = match e {
                Event::Completed { tid, result } => (tid, Ok(result)),
                Event::Aborted { tid, reason, .. } => (tid, Err(reason)),
                Event::Invoked { .. } => continue,
            };
            let Some(purpose) = self.live.remove(&tid) else { continue };
            match (purpose, result) {
                (Purpose::Connect, Ok(Some(WspPdu::ConnectReply { session }))) => {
                    self.state = ClientState::Connected;
                    self.session = Some(session);
                    self.events.push_back(ClientEvent::Connected { session });
                }
                (Purpose::Resume, Ok(Some(WspPdu::Reply { .. }))) => {
                    self.state = ClientState::Connected;
                    let session = self.session.expect("resuming");
                    self.events.push_back(ClientEvent::Resumed { session });
                }
                (Purpose::Fetch(fetch), Ok(Some(WspPdu::Reply { response }))) => {
                    self.stats.fetched += 1;
                    self.events.push_back(ClientEvent::Fetched { fetch, response });
                }
                (Purpose::Fetch(fetch), Err(reason)) => {
                    self.fetch_aborted(fetch);
                    if reason == AbortReason::Disconnect {
                        self.lose_all();
                    }
                }
                // Connect or Resume failed, or an answer of the wrong kind.
                _ => self.lose_all(),
            }
        }
    }

    /// The session is gone: what was live ends, the user is told.
    fn lose_all(&mut self) {
        if self.state == ClientState::Null && self.session.is_none() {
            return;
        }
        for (tid, p) in std::mem::take(&mut self.live) {
            self.wtp.abort(Time::ZERO, tid);
            if let Purpose::Fetch(fetch) = p {
                self.fetch_aborted(fetch);
            }
        }
        self.lose_session();
        self.events.push_back(ClientEvent::SessionLost);
    }
}

/// What the server hands up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerEvent {
    /// A session opened.
    Connected { session: SessionId, addr: Addr },
    /// A fetch to answer with [`Server::reply`] (once per fetch).
    Fetch { addr: Addr, tid: Tid, request: u32 },
    /// A session suspended.
    Suspended { session: SessionId },
    /// A session resumed from `addr`.
    Resumed { session: SessionId, addr: Addr },
    /// A session ended.
    Disconnected { session: SessionId },
    /// A method refused: no session at `addr`.
    Refused { addr: Addr, tid: Tid },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Session {
    addr: Addr,
    suspended: bool,
}

/// The gateway's side: sessions and a WTP responder per client address.
#[derive(Clone, Debug)]
pub struct Server {
    cfg: WtpConfig,
    peers: BTreeMap<Addr, Responder<WspPdu>>,
    sessions: BTreeMap<SessionId, Session>,
    next_session: SessionId,
    out: VecDeque<(Addr, Pdu<WspPdu>)>,
    events: VecDeque<ServerEvent>,
}

impl Server {
    /// A server with no sessions; `cfg` must validate.
    pub fn new(cfg: WtpConfig) -> Server {
        Server {
            cfg,
            peers: BTreeMap::new(),
            sessions: BTreeMap::new(),
            next_session: 1,
            out: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// Sessions it holds (live or suspended).
    pub fn sessions(&self) -> usize {
        self.sessions.len()
    }

    /// The address session `s` is bound to and whether it is suspended.
    pub fn session(&self, s: SessionId) -> Option<(Addr, bool)> {
        self.sessions.get(&s).map(|x| (x.addr, x.suspended))
    }

    /// A PDU from `from` arrived.
    pub fn on_pdu(&mut self, now: Time, from: Addr, pdu: Pdu<WspPdu>) {
        let cfg = self.cfg;
        self.peers.entry(from).or_insert_with(|| Responder::new(cfg)).on_pdu(now, pdu);
        self.drain(now, from);
    }

    /// Answer fetch `tid` from `addr` with `response` bytes.
    pub fn reply(&mut self, now: Time, addr: Addr, tid: Tid, response: u32) -> Result<(), Refusal> {
        let r = self.peers.get_mut(&addr).ok_or(("addr", "no such peer"))?;
        r.result(now, tid, WspPdu::Reply { response })?;
        self.drain(now, addr);
        Ok(())
    }

    /// When a responder next needs the time.
    pub fn deadline(&self) -> Option<Time> {
        self.peers.values().filter_map(|r| r.deadline()).min()
    }

    /// The caller's timer fired.
    pub fn on_timer(&mut self, now: Time) {
        let due: Vec<Addr> =
            self.peers.iter().filter(|(_, r)| r.deadline().is_some_and(|d| d <= now)).map(|(&a, _)| a).collect();
        for a in due {
            self.peers.get_mut(&a).expect("due").on_timer(now);
            self.drain(now, a);
        }
    }

    /// The next PDU to send, with its destination.
    pub fn pop_pdu(&mut self) -> Option<(Addr, Pdu<WspPdu>)> {
        self.out.pop_front()
    }

    /// The next event to hand up.
    pub fn pop_event(&mut self) -> Option<ServerEvent> {
        self.events.pop_front()
    }

    fn drain(&mut self, now: Time, addr: Addr) {
        loop {
            let r = self.peers.get_mut(&addr).expect("a peer");
            while let Some(p) = r.pop_pdu() {
                self.out.push_back((addr, p));
            }
            let Some(e) = r.pop_event() else { break };
            let Event::Invoked { tid, data, .. } = e else { continue };
            match data {
                WspPdu::Connect => {
                    let session = self.next_session;
                    self.next_session += 1;
                    self.sessions.insert(session, Session { addr, suspended: false });
                    let _ = r.result(now, tid, WspPdu::ConnectReply { session });
                    self.events.push_back(ServerEvent::Connected { session, addr });
                }
                WspPdu::Get { request } => {
                    // A live session bound to this address.
                    if self.sessions.values().any(|x| x.addr == addr && !x.suspended) {
                        self.events.push_back(ServerEvent::Fetch { addr, tid, request });
                    } else {
                        r.abort_with(now, tid, AbortReason::Disconnect);
                        self.events.push_back(ServerEvent::Refused { addr, tid });
                    }
                }
                WspPdu::Suspend { session } => {
                    if let Some(s) = self.sessions.get_mut(&session) {
                        s.suspended = true;
                        self.events.push_back(ServerEvent::Suspended { session });
                    }
                }
                WspPdu::Resume { session } => {
                    if let Some(s) = self.sessions.get_mut(&session) {
                        s.addr = addr;
                        s.suspended = false;
                        let _ = r.result(now, tid, WspPdu::Reply { response: 0 });
                        self.events.push_back(ServerEvent::Resumed { session, addr });
                    } else {
                        r.abort_with(now, tid, AbortReason::Disconnect);
                        self.events.push_back(ServerEvent::Refused { addr, tid });
                    }
                }
                WspPdu::Disconnect { session } => {
                    if self.sessions.remove(&session).is_some() {
                        self.events.push_back(ServerEvent::Disconnected { session });
                    }
                }
                WspPdu::ConnectReply { .. } | WspPdu::Reply { .. } => {}
            }
        }
    }
}

#[cfg(test)]
mod tests;
