//! Issue 11, seed 001: sender and receiver joined in lockstep round trips,
//! with a "router" that sets CE on chosen packets when they are
//! ECN-capable. Round r starts at t = 100·r ms: what the sender sent at t
//! reaches the receiver at t + 50, the receiver's acks (the delayed-ack
//! timer fires 10 ms later) reach the sender at t + 100, which answers them
//! at once. 1000-byte segments, 100 segments of receive buffer.

use lasthop_core::time::NS_PER_MS;
use lasthop_core::trace::Trace;
use lasthop_core::{Ecn, TcpHeader, Time};
use lasthop_tcp::{AccConfig, AccMode, AckPolicy, ReceiverConfig, Sender, SenderConfig};
use lasthop_tcp::{Receiver, SenderStats};

fn sender_config() -> SenderConfig {
    SenderConfig {
        send_buffer_bytes: 100_000,
        initial_cwnd_segments: 2,
        initial_ssthresh_bytes: 1 << 30,
        ..SenderConfig::reno(1000)
    }
}

fn receiver_config() -> ReceiverConfig {
    ReceiverConfig::plain(100_000, 1000, AckPolicy::Delayed { every_segments: 1, timeout_ns: 10 * NS_PER_MS })
}

/// What one round trip showed.
#[derive(Debug, Default)]
struct Round {
    /// Data segments that arrived, and of those CE-marked, carrying CWR,
    /// carrying ECE (an echoed ack mark).
    data: usize,
    marked_data: usize,
    cwr: usize,
    ece_data: usize,
    /// Acks sent, and of those with ECE.
    acks: usize,
    ece_acks: usize,
}

struct Loop {
    tx: Sender,
    rx: Receiver,
    trace: Trace,
    /// Data segments sent at the start of the coming round, with their ECN field.
    in_flight: Vec<(TcpHeader, Ecn)>,
}

impl Loop {
    fn new(s: SenderConfig, r: ReceiverConfig) -> Loop {
        let mut trace = Trace::new(false);
        let mut tx = Sender::new(s, 0);
        tx.start(Time::ZERO, &mut trace);
        let mut l = Loop { tx, rx: Receiver::new(r), trace, in_flight: Vec::new() };
        l.send(Time::ZERO);
        l
    }

    fn send(&mut self, now: Time) {
        while let Some(h) = self.tx.poll_transmit(now, &mut self.trace) {
            let ecn = self.tx.ip_ecn(&h);
            self.in_flight.push((h, ecn));
        }
    }

    /// Round `r`; the router marks data segments for which `mark_data`
    /// holds (by sequence number) and, if `mark_acks`, every ack.
    fn round(&mut self, r: u64, mark_data: impl Fn(u64) -> bool, mark_acks: bool) -> Round {
        let t = Time::from_ms(100 * r);
        let (arrive, back) = (t.plus_ns(50 * NS_PER_MS), t.plus_ns(100 * NS_PER_MS));
        let mut log = Round::default();
        let mut acks = Vec::new();
        for (seg, ecn) in std::mem::take(&mut self.in_flight) {
            log.data += 1;
            log.cwr += usize::from(seg.cwr);
            log.ece_data += usize::from(seg.ece);
            self.rx.on_segment(arrive, &seg);
            if ecn == Ecn::Ect && mark_data(seg.seq) {
                log.marked_data += 1;
                self.rx.on_ce_mark();
            }
            while let Some(a) = self.rx.poll_transmit(arrive) {
                acks.push((a, self.rx.ip_ecn()));
            }
        }
        let due = self.rx.poll_at();
        if due < back {
            self.rx.on_timer(due);
            while let Some(a) = self.rx.poll_transmit(due) {
                acks.push((a, self.rx.ip_ecn()));
            }
        }
        for (a, ecn) in acks {
            log.acks += 1;
            log.ece_acks += usize::from(a.ece);
            if ecn == Ecn::Ect && mark_acks {
                self.tx.on_ce_mark();
            }
            self.tx.on_ack(back, &a, &mut self.trace);
            self.send(back);
        }
        log
    }

    fn stats(&self) -> SenderStats {
        self.tx.stats()
    }
}

/// RFC 3168 end to end: one CE mark on a data segment; the receiver echoes
/// it until the sender's CWR arrives, the sender halves once.
#[test]
fn ecn_mark_echo_cut_and_cwr_round_trip() {
    let mut l =
        Loop::new(SenderConfig { ecn: true, ..sender_config() }, ReceiverConfig { ecn: true, ..receiver_config() });
    // Rounds 0-2: slow start, 2, 4, 8 segments, all ECT.
    for (r, n) in [(0, 2), (1, 4), (2, 8)] {
        let log = l.round(r, |_| false, false);
        assert_eq!((log.data, log.ece_acks), (n, 0));
    }
    assert_eq!(l.tx.cwnd_bytes(), 16_000);
    // Round 3: the router marks segment 20000 (the 7th of 16). Its ack and
    // every later ack of the round carry ECE; the first cuts the window:
    // after it 21 segments are out, ssthresh = 21 / 2 rounded down to whole
    // segments = 10 segments, cwnd too; the window allows nothing new.
    let log = l.round(3, |seq| seq == 20_000, false);
    assert_eq!((log.data, log.marked_data, log.ece_acks), (16, 1, 10));
    assert_eq!(l.stats().ecn_reductions, 1);
    assert_eq!((l.tx.ssthresh_bytes(), l.tx.cwnd_bytes()), (10_000, 10_000));
    assert_eq!(l.stats().retransmits, 0, "a mark is not a loss");
    // Round 4: the 12 segments sent before the cut: no CWR yet, so every
    // ack still echoes; they are of the same window (no second cut) and
    // open nothing; the first new segment they release carries CWR.
    let log = l.round(4, |_| false, false);
    assert_eq!((log.data, log.cwr, log.acks, log.ece_acks), (12, 0, 12, 12));
    assert_eq!(l.stats().ecn_reductions, 1, "once per window");
    assert_eq!(l.tx.cwnd_bytes(), 10_000, "ECE acks do not open the window");
    // Round 5: the CWR segment arrives first: the echo stops.
    let log = l.round(5, |_| false, false);
    assert_eq!((log.cwr, log.ece_acks), (1, 0));
    assert!(l.tx.cwnd_bytes() > 10_000, "unmarked acks open it again");
    let log = l.round(6, |_| false, false);
    assert_eq!((log.cwr, log.ece_acks), (0, 0));
}

/// Seed 001 Sec. 6.1 end to end: the router marks the ECT acks; the data
/// sender echoes the marks on its data without cutting its own window, and
/// the ACC receiver doubles its delayed-ack factor once per round trip,
/// then lowers it by one per quiet round trip.
#[test]
fn acc_ack_marks_reflected_by_the_data_sender_round_trip() {
    let s = SenderConfig { echo_ack_marks: true, timestamps: true, sender_window_option: true, ..sender_config() };
    let acc = AccConfig { mode: AccMode::Ecn, max_delack: 25, min_acks_win: 2 };
    let r = ReceiverConfig { ect_acks: true, timestamps: true, acc: Some(acc), ..receiver_config() };
    let mut l = Loop::new(s, r);
    let mut factors = Vec::new();
    for r in 0..11 {
        // The acks of rounds 3, 4 and 5 are marked.
        let log = l.round(r, |_| false, (3..=5).contains(&r));
        factors.push(l.rx.acc().unwrap().factor());
        if (4..=6).contains(&r) {
            assert!(log.ece_data > 0, "round {r}: the marks come back on data");
        } else {
            assert_eq!(log.ece_data, 0, "round {r}");
        }
    }
    assert_eq!(factors, vec![1, 1, 1, 1, 2, 4, 8, 7, 6, 5, 4]);
    assert_eq!(l.tx.ssthresh_bytes(), 1 << 30, "the data sender never cut for a marked ack");
}
