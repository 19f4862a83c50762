//! What the seed-002 mechanisms ask of a sender, as timelines
//! (elaarag-002.md Sec. 1.0): F3 freeze and thaw (the M-TCP client), F5
//! the sender's own fast retransmit (fast-retransmit handoff), F6 the reset
//! on a move (I-TCP, MHP).

use lasthop_core::packet::TcpHeader;
use lasthop_core::trace::Trace;
use lasthop_core::Time;
use lasthop_tcp::{Sender, SenderConfig, Variant};

const MSS: u64 = 1000;
const WND: u32 = 64_000;

struct Tx {
    s: Sender,
    trace: Trace,
}

impl Tx {
    /// Four segments of initial window, RFC 6298 timers (1 s minimum).
    fn new(variant: Variant) -> Tx {
        let cfg = SenderConfig { initial_cwnd_segments: 4, variant, ..SenderConfig::reno(MSS as u32) };
        let mut trace = Trace::new(false);
        let mut s = Sender::new(cfg, 0);
        s.start(Time::ZERO, &mut trace);
        Tx { s, trace }
    }

    fn send(&mut self, now: Time) -> Vec<u64> {
        std::iter::from_fn(|| self.s.poll_transmit(now, &mut self.trace)).map(|h| h.seq).collect()
    }

    fn ack(&mut self, t_ms: u64, ack: u64) -> Vec<u64> {
        let now = Time::from_ms(t_ms);
        self.s.on_ack(now, &TcpHeader { ack, wnd_bytes: WND, ..TcpHeader::default() }, &mut self.trace);
        self.send(now)
    }

    fn timer(&mut self, t_ms: u64) -> Vec<u64> {
        let now = Time::from_ms(t_ms);
        self.s.on_timer(now, &mut self.trace);
        self.send(now)
    }

    fn local_fr(&mut self, t_ms: u64) -> (bool, Vec<u64>) {
        let now = Time::from_ms(t_ms);
        let began = self.s.local_fast_retransmit(now, &mut self.trace);
        (began, self.send(now))
    }

    fn poll_ms(&self) -> u64 {
        self.s.poll_at().ns() / 1_000_000
    }

    /// Four segments out, the first acked at t100 (cwnd 5: 4000 and 5000
    /// follow): 1000..6000 outstanding, five segments.
    fn in_flight(variant: Variant) -> Tx {
        let mut tx = Tx::new(variant);
        assert_eq!(tx.send(Time::ZERO), [0, 1000, 2000, 3000]);
        assert_eq!(tx.ack(100, 1000), [4000, 5000]);
        tx
    }
}

/// F5 on Reno (FRHO, Caceres and Iftode 1995): as if the third duplicate
/// had arrived: the hole resent at once, ssthresh half the flight in whole
/// segments (4.4BSD's rounding, the engine's Reno), cwnd ssthresh + 3
/// segments (RFC 5681 3.2); counted as a fast retransmit of
/// the sender's own, not as a receiver's request; a second call in
/// recovery does nothing.
#[test]
fn a_local_fast_retransmit_is_renos_third_duplicate() {
    let mut tx = Tx::in_flight(Variant::Reno);
    let (began, sent) = tx.local_fr(300);
    assert!(began);
    assert_eq!(sent, [1000], "the hole, at once");
    assert_eq!(tx.s.ssthresh_bytes(), 2 * MSS, "half of the five segments in flight");
    assert_eq!(tx.s.cwnd_bytes(), 5 * MSS);
    assert!(tx.s.in_recovery());
    let st = tx.s.stats();
    assert_eq!((st.local_fast_retransmits, st.fast_retransmits, st.requested_fast_retransmits), (1, 1, 0));
    assert_eq!(tx.local_fr(310), (false, vec![]), "already in recovery");
    assert_eq!(tx.s.stats().local_fast_retransmits, 1);
}

/// F5 on Tahoe: its own rule, go-back-N in slow start from one segment.
#[test]
fn a_local_fast_retransmit_on_tahoe_goes_back_in_slow_start() {
    let mut tx = Tx::in_flight(Variant::Tahoe);
    let (began, sent) = tx.local_fr(300);
    assert!(began);
    assert_eq!(sent, [1000]);
    assert_eq!(tx.s.cwnd_bytes(), MSS);
    // The next ack lets the following segments go again, from 2000.
    assert_eq!(tx.ack(400, 2000), [2000, 3000]);
}

/// F5 with nothing outstanding, and NewReno's `recover` guard after a
/// timeout (RFC 6582 Sec. 4.1: no fast retransmit for acks at or below
/// `recover`): refused.
#[test]
fn a_local_fast_retransmit_needs_outstanding_data_and_passes_the_guard() {
    let mut tx = Tx::new(Variant::Reno);
    assert!(!tx.s.local_fast_retransmit(Time::ZERO, &mut tx.trace), "nothing sent yet");
    let mut tx = Tx::in_flight(Variant::Newreno);
    let rto_ms = tx.poll_ms();
    assert_eq!(tx.timer(rto_ms), [1000], "a timeout: recover = snd_max (6000)");
    assert_eq!(tx.local_fr(rto_ms + 10), (false, vec![]), "snd_una 1000 is below recover");
    assert_eq!(tx.s.stats().local_fast_retransmits, 0);
}

/// F6 (I-TCP's wireless side after a move): after two timeouts (RTO 1 s
/// backed off to 4 s), the reset clears the backoff (RTO 1 s again), slow
/// start from one segment with ssthresh kept, and `snd_una` goes at once.
#[test]
fn a_reset_on_a_move_clears_the_backoff_and_restarts_slow_start_from_snd_una() {
    let mut tx = Tx::in_flight(Variant::Reno);
    let first = tx.poll_ms();
    assert_eq!(tx.timer(first), [1000]);
    let second = tx.poll_ms();
    assert_eq!(second - first, 2_000, "backed off once");
    assert_eq!(tx.timer(second), [1000]);
    assert_eq!(tx.s.rto_ns(), 4_000_000_000, "backed off twice");
    let ssthresh = tx.s.ssthresh_bytes();
    let at = second + 100;
    tx.s.reset_on_move(Time::from_ms(at), &mut tx.trace);
    assert_eq!(tx.send(Time::from_ms(at)), [1000], "snd_una again, at once");
    assert_eq!(tx.s.rto_ns(), 1_000_000_000, "the estimate, backoff cleared");
    assert_eq!(tx.poll_ms(), at + 1_000);
    assert_eq!((tx.s.cwnd_bytes(), tx.s.ssthresh_bytes()), (MSS, ssthresh));
    assert_eq!(tx.s.stats().move_resets, 1);
    assert_eq!(tx.s.stats().timeouts, 2, "not a timeout");
}

/// F3 (the M-TCP client) and MTCPSH-8 (elaarag-002.md Sec. 4: "the MH's
/// M-TCP timers have the same remaining time after an outage as before
/// it"): frozen at t300 with the timer 800 ms from firing, the sender
/// sends nothing and wakes for nothing; an ack that arrives meanwhile is
/// taken and the deadline it sets held; thawed at t5300, the timer fires
/// what remained of it later, and sending resumes. (The supervisor host's
/// own sender, `m-tcp` in the simulator, thaws and then starts again from
/// the last ack: `lasthop_sim::world::relay`.)
#[test]
fn a_frozen_sender_holds_its_timer_and_sends_nothing_until_thawed() {
    let mut tx = Tx::in_flight(Variant::Reno);
    assert_eq!(tx.poll_ms(), 1_100, "the RTO, armed at t100");
    tx.s.freeze(Time::from_ms(300));
    assert!(tx.s.is_frozen());
    assert_eq!(tx.s.poll_at(), Time::NEVER);
    assert!(tx.timer(1_100).is_empty(), "nothing fires");
    // An ack in flight when the link went down: taken, its timer held.
    assert!(tx.ack(400, 2000).is_empty(), "the window opened, but nothing leaves");
    assert_eq!(tx.s.snd_una(), 2000);
    assert_eq!(tx.s.poll_at(), Time::NEVER);
    tx.s.unfreeze(Time::from_ms(5_300));
    assert!(!tx.s.is_frozen());
    assert_eq!(tx.poll_ms(), 6_300, "the ack's full second, from the thaw");
    assert_eq!(tx.send(Time::from_ms(5_300)), [6000, 7000], "what the ack released");
    assert_eq!(tx.s.stats().timeouts, 0);
}

/// F3 before any ack: the remaining 700 ms of the first RTO run from the
/// thaw, and fire there as a timeout.
#[test]
fn a_thawed_timer_fires_what_remained_of_it() {
    let mut tx = Tx::new(Variant::Reno);
    assert_eq!(tx.send(Time::ZERO), [0, 1000, 2000, 3000]);
    tx.s.freeze(Time::from_ms(300));
    tx.s.freeze(Time::from_ms(400)); // a second freeze changes nothing
    tx.s.unfreeze(Time::from_ms(2_000));
    assert_eq!(tx.poll_ms(), 2_700);
    assert_eq!(tx.timer(2_700), [0]);
    assert_eq!(tx.s.stats().timeouts, 1);
}
