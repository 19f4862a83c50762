//! Issue 11, seed 001: the data sender's side as timelines. AS-41 (sender
//! adaptation, Sec. 6.3: growth by data acknowledged, bursts of at most
//! maxburst paced at cwnd/srtt), RFC 3168's reaction to ECN-Echo, the echo
//! of a marked ack (Sec. 6.1), the fast-retransmit request (Sec. 6.3) and
//! the sender-window option (Sec. 8.2). Segments are 1000 bytes; the peer
//! advertises 64 segments.

use lasthop_core::time::NS_PER_MS;
use lasthop_core::trace::Trace;
use lasthop_core::{Ecn, TcpHeader, Time, Timestamps};
use lasthop_tcp::{AdaptationConfig, Sender, SenderConfig, Variant};

const MSS: u64 = 1000;
const WND: u32 = 64_000;

fn config(initial_cwnd_segments: u32, ssthresh_bytes: u64) -> SenderConfig {
    SenderConfig { initial_cwnd_segments, initial_ssthresh_bytes: ssthresh_bytes, ..SenderConfig::reno(MSS as u32) }
}

fn sa(maxburst: u32, segments_per_increase: u32) -> Option<AdaptationConfig> {
    Some(AdaptationConfig { maxburst, segments_per_increase, timer: None })
}

struct Tx {
    s: Sender,
    trace: Trace,
}

impl Tx {
    fn new(cfg: SenderConfig) -> Tx {
        let mut trace = Trace::new(false);
        let mut s = Sender::new(cfg, 0);
        s.start(Time::ZERO, &mut trace);
        Tx { s, trace }
    }

    /// Everything that leaves at `now`.
    fn send(&mut self, now: Time) -> Vec<TcpHeader> {
        std::iter::from_fn(|| self.s.poll_transmit(now, &mut self.trace)).collect()
    }

    fn ack_hdr(&mut self, now: Time, hdr: TcpHeader) -> Vec<TcpHeader> {
        self.s.on_ack(now, &hdr, &mut self.trace);
        self.send(now)
    }

    /// An ack of `ack` at `t_ms` echoing a TSval sent at `ecr_ms`.
    fn ack(&mut self, t_ms: u64, ack: u64, ecr_ms: u64) -> Vec<TcpHeader> {
        let ts = Some(Timestamps { val_ns: t_ms * NS_PER_MS, ecr_ns: ecr_ms * NS_PER_MS });
        self.ack_hdr(Time::from_ms(t_ms), TcpHeader { ack, wnd_bytes: WND, ts, ..TcpHeader::default() })
    }

    fn timer(&mut self, now: Time) -> Vec<TcpHeader> {
        self.s.on_timer(now, &mut self.trace);
        self.send(now)
    }
}

fn seqs(h: &[TcpHeader]) -> Vec<u64> {
    h.iter().map(|h| h.seq).collect()
}

/// cwnd after four segments sent at t0 are acknowledged at t100 by `acks`.
fn cwnd_after(cfg: SenderConfig, acks: &[u64]) -> u64 {
    let mut tx = Tx::new(cfg);
    assert_eq!(tx.send(Time::ZERO).len(), 4);
    for &a in acks {
        tx.ack(100, a, 0);
    }
    tx.s.cwnd_bytes()
}

/// AS-41, growth: an ack covering n segments grows cwnd exactly as n acks
/// would, in slow start, in congestion avoidance and across ssthresh.
#[test]
fn as41_an_ack_of_n_segments_grows_cwnd_as_n_acks() {
    let one_by_one = [1000, 2000, 3000, 4000];
    for (ssthresh, phase) in [(1 << 30, "slow start"), (2000, "avoidance"), (6000, "crossing ssthresh")] {
        let mut with_sa = config(4, ssthresh);
        with_sa.timestamps = true;
        with_sa.adaptation = sa(100, 1);
        let plain = config(4, ssthresh);
        let n_acks = cwnd_after(plain, &one_by_one);
        assert_eq!(cwnd_after(with_sa, &[4000]), n_acks, "{phase}");
        // Without SA one ack is one increase: the rule makes a difference.
        assert!(cwnd_after(plain, &[4000]) < n_acks, "{phase}");
    }
    // Slow start: 4 + 4 segments; avoidance: 4000 -> 4250 -> 4485 -> 4707 -> 4919.
    assert_eq!(cwnd_after(config(4, 1 << 30), &one_by_one), 8000);
    assert_eq!(cwnd_after(config(4, 2000), &one_by_one), 4919);
    // segments_per_increase = 2 (the testbed): as Reno with an ack per two segments.
    let mut testbed = config(4, 1 << 30);
    testbed.timestamps = true;
    testbed.adaptation = sa(100, 2);
    assert_eq!(cwnd_after(testbed, &[4000]), cwnd_after(config(4, 1 << 30), &[2000, 4000]));
    assert_eq!(cwnd_after(testbed, &[4000]), 6000);
}

/// AS-41, bursts: no more than maxburst segments leave back to back; the
/// rest wait for a burst timer of maxburst·srtt_exact/min(cwnd, rwnd), and
/// an ack that arrives while it is pending sends nothing.
#[test]
fn as41_bursts_of_maxburst_paced_at_cwnd_over_srtt() {
    let mut cfg = config(3, 1 << 30);
    cfg.timestamps = true;
    cfg.adaptation = sa(3, 1);
    let mut tx = Tx::new(cfg);
    // t0: the initial window, 3 segments, stamped with the sender's clock.
    let out = tx.send(Time::ZERO);
    assert_eq!(seqs(&out), vec![0, 1000, 2000]);
    assert!(out.iter().all(|h| h.ts == Some(Timestamps { val_ns: 0, ecr_ns: 0 })));
    // t100: all three acked, echoing TSval 0: srtt_exact = 100 ms, cwnd 3 -> 6.
    // The window allows 6 segments; 3 leave, the rest wait 3 · 100 ms / 6 = 50 ms.
    let out = tx.ack(100, 3000, 0);
    assert_eq!(seqs(&out), vec![3000, 4000, 5000]);
    assert_eq!(tx.s.srtt_exact_ns(), Some(100 * NS_PER_MS));
    assert_eq!(tx.s.cwnd_bytes(), 6000);
    assert_eq!(tx.s.poll_at(), Time::from_ms(150));
    // t120: an ack (echoing 100 ms: a 20 ms sample, srtt_exact = 90 ms) opens
    // the window to 7, but the burst timer is pending: nothing leaves.
    assert!(tx.ack(120, 4000, 100).is_empty());
    assert_eq!(tx.s.srtt_exact_ns(), Some(90 * NS_PER_MS));
    // t150: the timer fires: the next burst of 3; 2 more fit the window, so
    // the timer is set again for 3 · 90 ms · 1000 / 7000 bytes.
    assert!(tx.timer(Time::from_ms(149)).is_empty(), "not before its time");
    let out = tx.timer(Time::from_ms(150));
    assert_eq!(seqs(&out), vec![6000, 7000, 8000]);
    let wait_ns = 3 * 90 * NS_PER_MS * 1000 / 7000;
    assert_eq!(wait_ns, 38_571_428);
    let next = Time::from_ms(150).plus_ns(wait_ns);
    assert_eq!(tx.s.poll_at(), next);
    // Then the last two the window allows; no timer after a short burst.
    assert_eq!(seqs(&tx.timer(next)), vec![9000, 10_000]);
    assert!(tx.s.poll_at() > Time::from_ms(1000), "only the retransmission timer is left");
    assert_eq!(tx.s.stats().paced_bursts, 2);
}

/// RFC 3168 Sec. 6.1.2: ECN-Echo halves the window at most once per window
/// of data, without a retransmission, and the next new segment carries CWR.
#[test]
fn ecn_echo_halves_once_per_window_and_the_next_new_segment_carries_cwr() {
    let mut cfg = config(10, 1 << 30);
    cfg.ecn = true;
    let mut tx = Tx::new(cfg);
    let out = tx.send(Time::ZERO);
    assert_eq!(out.len(), 10);
    assert!(out.iter().all(|h| tx.s.ip_ecn(h) == Ecn::Ect && !h.cwr));
    let ece = |ack: u64| TcpHeader { ack, wnd_bytes: WND, ece: true, ..TcpHeader::default() };
    // t100: ECE on the ack of 1000: ssthresh = 9000 / 2 rounded down to
    // whole segments = 4000, cwnd = ssthresh; nothing is retransmitted.
    assert!(tx.ack_hdr(Time::from_ms(100), ece(1000)).is_empty());
    assert_eq!((tx.s.cwnd_bytes(), tx.s.ssthresh_bytes()), (4000, 4000));
    // t101..t104: more ECE acks of the same window: no second cut, no growth.
    for a in [2000, 3000, 4000, 5000] {
        assert!(tx.ack_hdr(Time::from_ms(101), ece(a)).is_empty());
    }
    assert_eq!(tx.s.cwnd_bytes(), 4000);
    assert_eq!(tx.s.stats().ecn_reductions, 1);
    assert_eq!(tx.s.stats().retransmits, 0);
    // t110: a plain ack opens the window (avoidance: +250): segment 10000
    // leaves, the first new one since the cut: CWR.
    let out = tx.ack_hdr(Time::from_ms(110), TcpHeader { ack: 7000, wnd_bytes: WND, ..TcpHeader::default() });
    assert_eq!(tx.s.cwnd_bytes(), 4250);
    assert_eq!(seqs(&out), vec![10_000]);
    assert!(out[0].cwr);
    // t200: ECE on an ack beyond the window of the first cut: a second cut.
    let out = tx.ack_hdr(Time::from_ms(200), ece(11_000));
    assert_eq!(tx.s.stats().ecn_reductions, 2);
    assert_eq!((tx.s.cwnd_bytes(), tx.s.ssthresh_bytes()), (2000, 2000), "the 2-segment floor");
    assert_eq!(seqs(&out), vec![11_000, 12_000]);
    assert!(out[0].cwr && !out[1].cwr, "CWR once per reduction");
}

/// RFC 3168 Sec. 6.1.5: a retransmission is never ECN-capable.
#[test]
fn ecn_retransmissions_are_not_ect() {
    let mut cfg = config(2, 1 << 30);
    cfg.ecn = true;
    let mut tx = Tx::new(cfg);
    tx.send(Time::ZERO);
    let out = tx.timer(Time::from_ms(1000));
    assert_eq!(seqs(&out), vec![0]);
    assert!(out[0].is_retransmit);
    assert_eq!(tx.s.ip_ecn(&out[0]), Ecn::NotEct);
    // Without ECN nothing is ECT.
    let mut plain = Tx::new(config(2, 1 << 30));
    let out = plain.send(Time::ZERO);
    assert_eq!(plain.s.ip_ecn(&out[0]), Ecn::NotEct);
}

/// Seed 001 Sec. 6.1 (ns-2 TcpAsymAgent): a CE-marked ack is no reason for
/// the data sender to cut; it echoes the mark as ECE on its next data
/// segment, once.
#[test]
fn a_marked_ack_is_echoed_on_the_next_data_segment_without_a_cut() {
    let mut cfg = config(4, 1 << 30);
    cfg.echo_ack_marks = true;
    let mut tx = Tx::new(cfg);
    tx.send(Time::ZERO);
    tx.s.on_ce_mark();
    let out = tx.ack(100, 1000, 0);
    assert_eq!(tx.s.cwnd_bytes(), 5000, "slow start as if unmarked");
    assert_eq!(seqs(&out), vec![4000, 5000]);
    assert!(out[0].ece && !out[1].ece);
    assert_eq!(tx.s.ip_ecn(&out[0]), Ecn::NotEct, "the data itself is not ECT without tcp.ecn");
}

/// Seed 001 Sec. 6.3: with the option, the first duplicate ack carrying the
/// receiver's request fast-retransmits; without it the sender counts three.
#[test]
fn fast_retransmit_on_the_first_requested_dupack() {
    let dup = TcpHeader { ack: 1000, wnd_bytes: WND, fr_request: true, ..TcpHeader::default() };
    for (variant, option) in
        [(Variant::Reno, true), (Variant::Newreno, true), (Variant::Tahoe, true), (Variant::Reno, false)]
    {
        let mut cfg = config(10, 1 << 30);
        cfg.variant = variant;
        cfg.fr_request = option;
        let mut tx = Tx::new(cfg);
        tx.send(Time::ZERO);
        tx.ack(100, 1000, 0);
        // t110: 1000 was lost; the first duplicate, marked.
        let out = tx.ack_hdr(Time::from_ms(110), dup);
        if option {
            assert_eq!(out.first().map(|h| (h.seq, h.is_retransmit)), Some((1000, true)), "{variant:?}");
            assert_eq!(tx.s.stats().requested_fast_retransmits, 1);
            // Later marked duplicates do not retransmit again.
            for _ in 0..4 {
                let again = tx.ack_hdr(Time::from_ms(111), dup);
                assert!(again.iter().all(|h| !h.is_retransmit), "{variant:?}");
            }
            assert_eq!(tx.s.stats().fast_retransmits, 1, "{variant:?}");
        } else {
            assert!(out.is_empty(), "a counting sender waits for the third");
        }
    }
}

/// Seed 001 Sec. 8.2: the option carries min(cwnd, data in the send
/// buffer) in MSS units.
#[test]
fn sender_window_option_is_min_of_cwnd_and_buffered_data() {
    let mut cfg = config(4, 1 << 30);
    cfg.sender_window_option = true;
    let mut tx = Tx::new(cfg);
    assert!(tx.send(Time::ZERO).iter().all(|h| h.sender_window == Some(4)), "cwnd 4");
    // A send buffer of 3 segments bounds it.
    let mut tx = Tx::new(SenderConfig { send_buffer_bytes: 3000, ..cfg });
    assert_eq!(tx.send(Time::ZERO)[0].sender_window, Some(3));
    // 2500 bytes left to send: three segments' worth (the short one counts).
    let mut tx = Tx::new(SenderConfig { total_bytes: Some(2500), initial_cwnd_segments: 10, ..cfg });
    let out = tx.send(Time::ZERO);
    assert_eq!(
        out.iter().map(|h| (h.seq, h.sender_window)).collect::<Vec<_>>(),
        vec![(0, Some(3)), (1000, Some(3)), (2000, Some(3))]
    );
    // Off: no option.
    let mut plain = Tx::new(config(4, 1 << 30));
    assert!(plain.send(Time::ZERO).iter().all(|h| h.sender_window.is_none() && h.ts.is_none()));
}
