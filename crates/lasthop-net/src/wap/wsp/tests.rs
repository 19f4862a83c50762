//! WSP over WTP: a client and a server over a test bearer (100 ms each
//! way, an outage window in which every PDU sent is lost), the server's
//! user answering each fetch after a set time. WAP-3 and its contrasts.

use super::*;
use crate::wap::wtp::{Class, Kind};
use std::collections::BTreeMap;

const MS: u64 = 1_000_000;

fn t(ms: u64) -> Time {
    Time(ms * MS)
}

/// A PDU on the bearer: up (client to server, from an address) or down
/// (to an address).
#[derive(Clone, Copy, Debug)]
enum Hop {
    Up(Addr),
    Down(Addr),
}

struct Pair {
    now: Time,
    c: Client,
    s: Server,
    flight: BTreeMap<(Time, u64), (Hop, Pdu<WspPdu>)>,
    n: u64,
    /// Every PDU sent in `[from, to)` is lost.
    outage: (Time, Time),
    answer_ns: u64,
    response: u32,
    answers: BTreeMap<(Time, u64), (Addr, Tid)>,
    sent: Vec<(Time, bool, Pdu<WspPdu>)>,
    cev: Vec<(Time, ClientEvent)>,
    sev: Vec<(Time, ServerEvent)>,
}

impl Pair {
    fn new(answer_ms: u64) -> Pair {
        let cfg = WtpConfig::default();
        Pair {
            now: Time::ZERO,
            c: Client::new(cfg, 1),
            s: Server::new(cfg),
            flight: BTreeMap::new(),
            n: 0,
            outage: (Time::NEVER, Time::NEVER),
            answer_ns: answer_ms * MS,
            response: 5000,
            answers: BTreeMap::new(),
            sent: Vec::new(),
            cev: Vec::new(),
            sev: Vec::new(),
        }
    }

    fn put(&mut self, hop: Hop, pdu: Pdu<WspPdu>) {
        self.sent.push((self.now, matches!(hop, Hop::Up(_)), pdu));
        if !(self.outage.0 <= self.now && self.now < self.outage.1) {
            self.n += 1;
            self.flight.insert((self.now.plus_ns(100 * MS), self.n), (hop, pdu));
        }
    }

    fn flush(&mut self) {
        while let Some(p) = self.c.pop_pdu() {
            self.put(Hop::Up(self.c.addr()), p);
        }
        while let Some((a, p)) = self.s.pop_pdu() {
            self.put(Hop::Down(a), p);
        }
        while let Some(e) = self.c.pop_event() {
            self.cev.push((self.now, e));
        }
        while let Some(e) = self.s.pop_event() {
            if let ServerEvent::Fetch { addr, tid, .. } = e {
                self.n += 1;
                self.answers.insert((self.now.plus_ns(self.answer_ns), self.n), (addr, tid));
            }
            self.sev.push((self.now, e));
        }
    }

    /// Run to `end` and stand there.
    fn run_to(&mut self, end: Time) {
        self.flush();
        loop {
            let next = [
                self.flight.keys().next().map(|k| k.0),
                self.answers.keys().next().map(|k| k.0),
                self.c.deadline(),
                self.s.deadline(),
            ]
            .into_iter()
            .flatten()
            .min();
            let Some(next) = next.filter(|&x| x <= end) else { break };
            self.now = next;
            while let Some(e) = self.flight.first_entry().filter(|e| e.key().0 == next) {
                match e.remove() {
                    (Hop::Up(from), p) => self.s.on_pdu(next, from, p),
                    // The bearer reaches the client only at its address.
                    (Hop::Down(to), p) if to == self.c.addr() => self.c.on_pdu(next, p),
                    (Hop::Down(_), _) => {}
                }
                self.flush();
            }
            while let Some(e) = self.answers.first_entry().filter(|e| e.key().0 == next) {
                let (addr, tid) = e.remove();
                let _ = self.s.reply(next, addr, tid, self.response);
                self.flush();
            }
            if self.c.deadline().is_some_and(|d| d <= next) {
                self.c.on_timer(next);
                self.flush();
            }
            if self.s.deadline().is_some_and(|d| d <= next) {
                self.s.on_timer(next);
                self.flush();
            }
        }
        self.now = end;
    }

    fn fetched(&self) -> Vec<(u64, FetchId)> {
        self.cev
            .iter()
            .filter_map(|&(at, e)| match e {
                ClientEvent::Fetched { fetch, .. } => Some((at.ns() / MS, fetch)),
                _ => None,
            })
            .collect()
    }

    /// A connected pair at 1 s.
    fn connected(answer_ms: u64) -> Pair {
        let mut p = Pair::new(answer_ms);
        p.c.connect(p.now).unwrap();
        p.run_to(t(1000));
        assert_eq!(p.c.state(), ClientState::Connected);
        p
    }
}

#[test]
fn pdu_sizes_count_type_uintvars_and_the_caller_s_bytes() {
    assert_eq!([0x7f, 0x80, 0x3fff, 0x4000, 0x1f_ffff, 0x20_0000, u32::MAX].map(uintvar_bytes), [1, 2, 2, 3, 3, 4, 5]);
    assert_eq!(WspPdu::Connect.bytes(), 4);
    assert_eq!(WspPdu::ConnectReply { session: 1 }.bytes(), 4);
    assert_eq!(WspPdu::Get { request: 100 }.bytes(), 102);
    assert_eq!(WspPdu::Reply { response: 1000 }.bytes(), 1003);
    assert_eq!(WspPdu::Suspend { session: 1 }.bytes(), 2);
    assert_eq!(WspPdu::Resume { session: 1 }.bytes(), 4);
    assert_eq!(WspPdu::Disconnect { session: 200 }.bytes(), 3);
    // Through WTP: Invoke's 4 header bytes.
    let p = Pdu { tid: 0, rid: false, kind: Kind::Invoke { class: Class::Two, data: WspPdu::Get { request: 100 } } };
    assert_eq!(p.wire_bytes(), 106);
}

/// Connect (Invoke, Result, Ack), one fetch answered in 1 s (Invoke,
/// Result, Ack), disconnect (one class 0 Invoke): 7 PDUs, the fetch once.
#[test]
fn connect_fetch_disconnect() {
    let mut p = Pair::connected(1000);
    assert_eq!(p.cev, vec![(t(200), ClientEvent::Connected { session: 1 })]);
    let f = p.c.get(p.now, 100).unwrap();
    p.run_to(t(5000));
    assert_eq!(p.fetched(), vec![(2200, f)], "one round trip and the server's second");
    p.c.disconnect(p.now).unwrap();
    p.run_to(t(100_000));
    assert_eq!(p.sent.len(), 7);
    assert_eq!(p.sev.last(), Some(&(t(5100), ServerEvent::Disconnected { session: 1 })));
    assert_eq!((p.s.sessions(), p.c.state(), p.c.session()), (0, ClientState::Null, None));
    assert_eq!(p.c.get(p.now, 1), Err(("state", "not in the state this call needs")));
    let up: u32 = p.sent.iter().filter(|s| s.1).map(|s| s.2.wire_bytes()).sum();
    let down: u32 = p.sent.iter().filter(|s| !s.1).map(|s| s.2.wire_bytes()).sum();
    // Up: Invoke(Connect) 8, Ack 3, Invoke(Get 100) 106, Ack 3, Invoke(Disconnect) 6.
    // Down: Result(ConnectReply) 7, Result(Reply 5000) 5006.
    assert_eq!((up, down), (8 + 3 + 106 + 3 + 6, 7 + 5006));
}

/// WAP-3: at 10 s the bearer is lost for 20 s and comes back with a new
/// address. The client suspends at 10 s (its Suspend lost in the outage;
/// the fetch it had out since 9 s, answered late, aborted) and resumes at
/// 30 s from the new address: the server rebinds the session, no new
/// Connect (1 connect, 1 resume, the same session), and a fetch after it
/// completes.
#[test]
fn wap3_suspend_resume_keeps_the_session_across_a_20_s_bearer_loss() {
    let mut p = Pair::connected(3000);
    p.run_to(t(9000));
    let lost = p.c.get(p.now, 100).unwrap();
    p.outage = (t(10_000), t(30_000));
    p.run_to(t(10_000));
    p.c.suspend(p.now).unwrap();
    p.run_to(t(30_000));
    p.c.bearer_changed(p.now, 2);
    assert_eq!(p.c.state(), ClientState::Suspended);
    p.c.resume(p.now).unwrap();
    p.run_to(t(31_000));
    assert_eq!(p.c.state(), ClientState::Connected);
    let f = p.c.get(p.now, 100).unwrap();
    p.run_to(t(200_000));
    assert!(p.cev.contains(&(t(10_000), ClientEvent::FetchAborted { fetch: lost })));
    assert!(p.cev.contains(&(t(30_200), ClientEvent::Resumed { session: 1 })));
    assert_eq!(p.fetched(), vec![(34_200, f)]);
    assert_eq!((p.c.stats().connects, p.c.stats().resumes), (1, 1), "no new connect");
    assert_eq!((p.s.sessions(), p.s.session(1)), (1, Some((2, false))));
    assert!(!p.cev.iter().any(|e| e.1 == ClientEvent::SessionLost));
}

/// The contrast: the same loss, no suspend. The fetch out at 9 s belongs
/// to the old address and is aborted when the bearer changes; the next
/// fetch, from the new address, finds no session there: refused, the
/// session lost, and the client must connect again (2 connects, the
/// server now holding the orphan session too).
#[test]
fn without_suspend_a_new_address_loses_the_session_and_needs_a_new_connect() {
    let mut p = Pair::connected(3000);
    p.run_to(t(9000));
    let lost = p.c.get(p.now, 100).unwrap();
    p.outage = (t(10_000), t(30_000));
    p.run_to(t(30_000));
    p.c.bearer_changed(p.now, 2);
    assert_eq!(p.c.state(), ClientState::Connected, "the client does not know yet");
    let refused = p.c.get(p.now, 100).unwrap();
    p.run_to(t(31_000));
    assert_eq!(
        p.cev[1..],
        [
            (t(30_000), ClientEvent::FetchAborted { fetch: lost }),
            (t(30_200), ClientEvent::FetchAborted { fetch: refused }),
            (t(30_200), ClientEvent::SessionLost)
        ]
    );
    p.c.connect(p.now).unwrap();
    let f = {
        p.run_to(t(32_000));
        p.c.get(p.now, 100).unwrap()
    };
    p.run_to(t(200_000));
    assert_eq!(p.fetched(), vec![(35_200, f)]);
    assert_eq!((p.c.stats().connects, p.c.session(), p.s.sessions()), (2, Some(2), 2));
}

/// The same 20 s loss with the address kept, no suspend: WTP alone
/// carries the fetch out at 9 s across it. Its Invoke reached the server
/// (answer due at 12.1 s, in the outage): the Result is lost at 12.1 s,
/// retransmitted every R (19.1, 26.1 lost; 33.1 s through): handed up
/// once at 33.2 s, not aborted: 20 s is less than the 9R = 63 s RCR takes.
#[test]
fn a_20_s_loss_with_the_address_kept_is_ridden_out_by_wtp_retransmissions() {
    let mut p = Pair::connected(3000);
    p.run_to(t(9000));
    let f = p.c.get(p.now, 100).unwrap();
    p.outage = (t(10_000), t(30_000));
    p.run_to(t(200_000));
    assert_eq!(p.fetched(), vec![(33_200, f)]);
    let results: Vec<u64> = p
        .sent
        .iter()
        .filter(|s| !s.1 && matches!(s.2.kind, Kind::Result { data: WspPdu::Reply { .. } }))
        .map(|s| s.0.ns() / MS)
        .collect();
    assert_eq!(results, vec![12_100, 19_100, 26_100, 33_100]);
    assert_eq!((p.c.stats().fetch_aborts, p.c.stats().connects), (0, 1));
}

/// A 70 s loss, address kept, no suspend: a fetch sent in it goes at 10 s
/// and every R after, 8 retransmissions to 66 s, and aborts at 73 s (9R
/// after the first, WAP-2's count); the session itself is untouched: a
/// fetch after the loss completes with no new connect.
#[test]
fn a_loss_longer_than_rcr_aborts_the_fetch_but_not_the_session() {
    let mut p = Pair::connected(1000);
    p.outage = (t(10_000), t(80_000));
    p.run_to(t(10_000));
    let lost = p.c.get(p.now, 100).unwrap();
    p.run_to(t(80_000));
    assert!(p.cev.contains(&(t(73_000), ClientEvent::FetchAborted { fetch: lost })));
    assert_eq!(p.c.wtp_stats().retransmissions, 8);
    let f = p.c.get(p.now, 100).unwrap();
    p.run_to(t(200_000));
    assert_eq!(p.fetched(), vec![(81_200, f)]);
    assert_eq!((p.c.stats().connects, p.c.state()), (1, ClientState::Connected));
}

#[test]
fn calls_out_of_state_are_refused() {
    let mut c = Client::new(WtpConfig::default(), 1);
    let why = ("state", "not in the state this call needs");
    let no = Err(why);
    assert_eq!(c.suspend(Time::ZERO), no);
    assert_eq!(c.resume(Time::ZERO), no);
    assert_eq!(c.get(Time::ZERO, 1).unwrap_err(), why);
    assert_eq!(c.disconnect(Time::ZERO), Err(("state", "no session to disconnect")));
    c.connect(Time::ZERO).unwrap();
    assert_eq!(c.connect(Time::ZERO), no);
    let mut s = Server::new(WtpConfig::default());
    assert_eq!(s.reply(Time::ZERO, 9, 0, 1), Err(("addr", "no such peer")));
}

/// What the property's script does at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Act {
    Fetch,
    /// The outage begins: suspend if the script says so.
    Down,
    /// The outage ends: a new address if the script says so, resume if
    /// suspended.
    Up,
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// A connected client fetching every 2 s for 120 s, an outage of up to
    /// 80 s somewhere in it, after which the address may change, with or
    /// without suspend/resume, a server answering after up to 6 s: every
    /// fetch ends exactly once (fetched or aborted); with suspend/resume
    /// the session is never lost and never reconnected, and the client
    /// ends connected to the same session.
    #[test]
    fn every_fetch_ends_once_and_suspend_resume_keeps_the_session(
        start_ms in 2_000u64..60_000,
        len_ms in 1_000u64..80_000,
        new_addr: bool,
        suspend: bool,
        answer_ms in 0u64..6_000,
    ) {
        let mut p = Pair::connected(answer_ms);
        let (o, e) = (start_ms / 10 * 10 + 5, (start_ms + len_ms) / 10 * 10 + 5);
        p.outage = (t(o), t(e));
        let mut script: Vec<(u64, Act)> = (1..=60).map(|k| (k * 2000, Act::Fetch)).collect();
        script.push((o, Act::Down));
        script.push((e, Act::Up));
        script.sort_unstable();
        let mut fetches = Vec::new();
        for (at, act) in script {
            p.run_to(t(at));
            match act {
                Act::Fetch => {
                    if let Ok(f) = p.c.get(p.now, 100) {
                        fetches.push(f);
                    }
                }
                Act::Down if suspend => p.c.suspend(p.now).unwrap(),
                Act::Down => {}
                Act::Up => {
                    if new_addr {
                        p.c.bearer_changed(p.now, 2);
                    }
                    if p.c.state() == ClientState::Suspended {
                        p.c.resume(p.now).unwrap();
                    }
                }
            }
        }
        p.run_to(t(10_000_000));
        for f in fetches {
            let ends = p.cev.iter().filter(|e| matches!(e.1,
                ClientEvent::Fetched { fetch, .. } | ClientEvent::FetchAborted { fetch } if fetch == f)).count();
            proptest::prop_assert_eq!(ends, 1, "fetch {} ends {} times", f, ends);
        }
        if suspend {
            proptest::prop_assert!(!p.cev.iter().any(|e| e.1 == ClientEvent::SessionLost));
            proptest::prop_assert_eq!(p.c.stats().connects, 1);
            proptest::prop_assert_eq!((p.c.state(), p.c.session()), (ClientState::Connected, Some(1)));
        }
    }
}
