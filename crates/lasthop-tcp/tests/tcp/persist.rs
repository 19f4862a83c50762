//! The persist timer and the RTO restart hook as timelines (elaarag-002.md
//! F2, F4 and PERSIST-1; ns-3's `tcp-zero-window-test.cc`: nothing sent while
//! the window is zero, one probe per persist interval, sending resumes when
//! the window opens).

use lasthop_core::packet::TcpHeader;
use lasthop_core::trace::Trace;
use lasthop_core::Time;
use lasthop_tcp::{Sender, SenderConfig};

const MSS: u64 = 1000;

struct Tx {
    s: Sender,
    trace: Trace,
}

impl Tx {
    /// Reno, four segments of initial window, RFC 6298 timers.
    fn new() -> Tx {
        let cfg = SenderConfig { initial_cwnd_segments: 4, ..SenderConfig::reno(MSS as u32) };
        let mut trace = Trace::new(false);
        let mut s = Sender::new(cfg, 0);
        s.start(Time::ZERO, &mut trace);
        Tx { s, trace }
    }

    fn send(&mut self, now: Time) -> Vec<(u64, u32)> {
        std::iter::from_fn(|| self.s.poll_transmit(now, &mut self.trace)).map(|h| (h.seq, h.len)).collect()
    }

    fn ack(&mut self, t_ms: u64, ack: u64, wnd: u32) -> Vec<(u64, u32)> {
        let now = Time::from_ms(t_ms);
        self.s.on_ack(now, &TcpHeader { ack, wnd_bytes: wnd, ..TcpHeader::default() }, &mut self.trace);
        self.send(now)
    }

    /// The sender's timer, if due by `t_ms`, and what it sends.
    fn timer(&mut self, t_ms: u64) -> Vec<(u64, u32)> {
        let now = Time::from_ms(t_ms);
        self.s.on_timer(now, &mut self.trace);
        self.send(now)
    }

    fn poll_ms(&self) -> u64 {
        self.s.poll_at().ns() / 1_000_000
    }
}

const OPEN: u32 = 64_000;

/// PERSIST-1: a zero window for 10 s with data outstanding: no timeout, no
/// retransmission, a probe at +5 s and at +10 s (BSD's 5 s floor: the base
/// is 100 ms + 2 x 50 ms), cwnd and ssthresh unchanged; when the window
/// opens the data leaves at once, from `snd_una`.
#[test]
fn persist_1_a_zero_window_is_probed_every_5_s_and_sending_resumes_from_snd_una() {
    let mut tx = Tx::new();
    assert_eq!(tx.send(Time::ZERO), [(0, 1000), (1000, 1000), (2000, 1000), (3000, 1000)]);
    // t100: two segments acked, the window closed (the receiver's
    // application stopped reading); two segments are still outstanding.
    assert_eq!(tx.ack(100, 2000, 0), []);
    let (cwnd, ssthresh) = (tx.s.cwnd_bytes(), tx.s.ssthresh_bytes());
    assert!(tx.s.persisting());
    assert_eq!(tx.poll_ms(), 5_100, "the persist timer, not the retransmission timer");
    // Where the RTO (1 s) would have fired: nothing.
    assert_eq!(tx.timer(1_100), []);
    // t5100: one byte at snd_una; the timer set again, 5 s on.
    assert_eq!(tx.timer(5_100), [(2000, 1)]);
    assert_eq!(tx.poll_ms(), 10_100);
    // The receiver's window is still zero: it drops the byte and acks.
    assert_eq!(tx.ack(5_150, 2000, 0), []);
    assert_eq!(tx.poll_ms(), 10_100, "an ack keeps the persist deadline");
    assert_eq!(tx.timer(10_100), [(2000, 1)]);
    assert_eq!(tx.poll_ms(), 15_100);
    let st = tx.s.stats();
    assert_eq!((st.timeouts, st.retransmits, st.persist_probes, st.persist_entries), (0, 0, 2, 1));
    assert_eq!((tx.s.cwnd_bytes(), tx.s.ssthresh_bytes()), (cwnd, ssthresh));
    // t10150: the application read; the window update opens the window:
    // everything from snd_una leaves at once, in the window cwnd allows.
    let sent = tx.ack(10_150, 2000, OPEN);
    assert_eq!(sent.first(), Some(&(2000, 1000)));
    assert_eq!(sent.len() as u64, cwnd / MSS);
    assert!(!tx.s.persisting());
    assert_eq!(tx.poll_ms(), 11_150, "the retransmission timer again (RTO 1 s)");
    assert_eq!(tx.s.stats().persist_probes, 2);
}

/// ns-3's zero-window test: the window is zero from the first ack on,
/// nothing is outstanding; one probe per interval; a probe the reopened
/// receiver takes is acked with the window, and sending resumes after it.
#[test]
fn a_probe_the_receiver_takes_reopens_the_flow_after_it() {
    let mut tx = Tx::new();
    assert_eq!(tx.send(Time::ZERO).len(), 4);
    assert_eq!(tx.ack(100, 4000, 0), [], "all acked, window zero: nothing sent");
    assert!(tx.s.persisting());
    for k in 1..=3u64 {
        assert_eq!(tx.timer(100 + 5_000 * k - 1), [], "nothing before the interval");
        assert_eq!(tx.timer(100 + 5_000 * k), [(4000, 1)], "probe {k}");
        assert_eq!(tx.ack(100 + 5_000 * k + 50, 4000, 0), []);
    }
    // The fourth probe finds room: the byte is taken and acked with a window.
    assert_eq!(tx.timer(20_100), [(4000, 1)]);
    let sent = tx.ack(20_150, 4001, OPEN);
    assert_eq!(sent.first(), Some(&(4001, 1000)));
    assert!(!tx.s.persisting());
    assert_eq!(tx.s.stats().timeouts, 0);
}

/// A sender with nothing more to send does not persist on a zero window.
#[test]
fn a_finished_transfer_does_not_persist() {
    let cfg = SenderConfig { initial_cwnd_segments: 4, total_bytes: Some(4000), ..SenderConfig::reno(MSS as u32) };
    let mut trace = Trace::new(false);
    let mut s = Sender::new(cfg, 0);
    s.start(Time::ZERO, &mut trace);
    while s.poll_transmit(Time::ZERO, &mut trace).is_some() {}
    s.on_ack(Time::from_ms(100), &TcpHeader { ack: 4000, wnd_bytes: 0, ..TcpHeader::default() }, &mut trace);
    assert!(!s.persisting());
    assert_eq!(s.poll_at(), Time::NEVER);
}

/// F4 (EBSN's hook): the retransmission timer restarts with the current
/// RTO, the backoff, cwnd and ssthresh untouched; nothing outstanding,
/// nothing to restart.
#[test]
fn restart_rto_rearms_the_timer_and_nothing_else() {
    let mut tx = Tx::new();
    assert_eq!(tx.send(Time::ZERO).len(), 4);
    assert_eq!(tx.poll_ms(), 1_000);
    // The first timeout backs the RTO off to 2 s.
    assert_eq!(tx.timer(1_000), [(0, 1000)]);
    assert_eq!(tx.poll_ms(), 3_000);
    let (cwnd, ssthresh, rto) = (tx.s.cwnd_bytes(), tx.s.ssthresh_bytes(), tx.s.rto_ns());
    tx.s.restart_rto(Time::from_ms(2_500));
    assert_eq!(tx.poll_ms(), 4_500, "restarted with the backed-off RTO");
    assert_eq!((tx.s.cwnd_bytes(), tx.s.ssthresh_bytes(), tx.s.rto_ns()), (cwnd, ssthresh, rto));
    assert_eq!(tx.s.stats().timeouts, 1);
    // Everything acked (and more sent): the timer restarts from now.
    tx.ack(2_600, 4000, OPEN);
    tx.s.restart_rto(Time::from_ms(2_700));
    assert_eq!(tx.poll_ms(), 2_700 + tx.s.rto_ns() / 1_000_000);
    // A transfer all acked: nothing to restart.
    let cfg = SenderConfig { initial_cwnd_segments: 4, total_bytes: Some(4000), ..SenderConfig::reno(MSS as u32) };
    let mut trace = Trace::new(false);
    let mut s = Sender::new(cfg, 0);
    s.start(Time::ZERO, &mut trace);
    while s.poll_transmit(Time::ZERO, &mut trace).is_some() {}
    s.on_ack(Time::from_ms(100), &TcpHeader { ack: 4000, wnd_bytes: OPEN, ..TcpHeader::default() }, &mut trace);
    s.restart_rto(Time::from_ms(200));
    assert_eq!(s.poll_at(), Time::NEVER);
}

/// A probe byte acked while the window stays zero (a receiver that took
/// it): the ack of new data does not replace the persist deadline with a
/// retransmission timer; the next probe is the next byte.
#[test]
fn an_acked_probe_with_the_window_still_zero_keeps_persisting() {
    let mut tx = Tx::new();
    assert_eq!(tx.send(Time::ZERO).len(), 4);
    assert_eq!(tx.ack(100, 2000, 0), []);
    assert_eq!(tx.timer(5_100), [(2000, 1)]);
    assert_eq!(tx.ack(5_150, 2001, 0), []);
    assert!(tx.s.persisting());
    assert_eq!(tx.poll_ms(), 10_100);
    assert_eq!(tx.timer(10_100), [(2001, 1)]);
    assert_eq!(tx.s.stats().timeouts, 0);
}

/// A window that opens too little for a segment, with data outstanding
/// (pulled back): persist ends and the retransmission timer runs again,
/// so the data is not left without a timer.
#[test]
fn a_window_too_small_for_a_segment_leaves_a_retransmission_timer() {
    let mut tx = Tx::new();
    assert_eq!(tx.send(Time::ZERO).len(), 4);
    assert_eq!(tx.ack(100, 2000, 0), []);
    assert_eq!(tx.ack(2_000, 2000, 500), [], "silly-window avoidance: no 500-byte segment");
    assert!(!tx.s.persisting());
    assert_eq!(tx.poll_ms(), 2_000 + tx.s.rto_ns() / 1_000_000);
}

/// EBSN-2 (elaarag-002.md; seed 002 Sec. 5.2: EBSN resets "the timeout at
/// the fixed host during local recovery"): EBSNs in slow start, in
/// congestion avoidance, after a backed-off timeout and in fast recovery
/// each leave cwnd, ssthresh, the RTO with its backoff, the timeout count
/// and the recovery state as they were, and only move the timer's deadline
/// to now + RTO. Each is counted.
#[test]
fn ebsn_2_an_ebsn_never_changes_the_window_or_the_backoff() {
    let mut tx = Tx::new();
    let state = |s: &Sender| (s.cwnd_bytes(), s.ssthresh_bytes(), s.rto_ns(), s.stats().timeouts, s.in_recovery());
    let ebsn_at = |tx: &mut Tx, t_ms: u64| {
        let before = state(&tx.s);
        tx.s.restart_rto(Time::from_ms(t_ms));
        assert_eq!(state(&tx.s), before, "at {t_ms} ms");
        assert_eq!(tx.poll_ms(), t_ms + tx.s.rto_ns() / 1_000_000, "at {t_ms} ms");
        assert!(tx.send(Time::from_ms(t_ms)).is_empty(), "an EBSN sends nothing");
    };
    tx.send(Time::ZERO);
    ebsn_at(&mut tx, 50); // slow start, cwnd 4
    tx.ack(100, 2000, OPEN);
    ebsn_at(&mut tx, 150); // cwnd 6
                           // A timeout: cwnd 1, RTO backed off to 2 s; then EBSNs.
    let due = tx.poll_ms();
    assert_eq!(tx.timer(due), [(2000, 1000)]);
    ebsn_at(&mut tx, due + 300);
    ebsn_at(&mut tx, due + 600);
    assert_eq!(tx.s.stats().timeouts, 1);
    // Recover, grow past ssthresh, lose one segment: fast recovery.
    let mut t = due + 700;
    let mut acked = 3000;
    tx.ack(t, acked, OPEN);
    while tx.s.cwnd_bytes() < tx.s.ssthresh_bytes() + 2 * MSS {
        t += 10;
        acked += MSS;
        tx.ack(t, acked, OPEN);
    }
    ebsn_at(&mut tx, t + 5); // congestion avoidance
    for _ in 0..3 {
        t += 10;
        tx.ack(t, acked, OPEN);
    }
    assert!(tx.s.in_recovery());
    ebsn_at(&mut tx, t + 5); // fast recovery
    assert_eq!(tx.s.stats().ebsns_received, 6);
}
