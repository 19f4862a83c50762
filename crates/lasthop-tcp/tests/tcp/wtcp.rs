//! WTCP as timelines (Sinha et al., MobiCom 1999; elaarag-002.md Sec. 1.14;
//! `lasthop_tcp::wtcp` and `cc::wtcp`): the receiver's ρ rule (increase at
//! ρ ≤ 1 + γ, decrease by β above, a loss not lowering the rate), the
//! packet-pair start, and the sender's pacing, blackout and probes.

use lasthop_core::packet::{TcpHeader, Timestamps};
use lasthop_core::trace::Trace;
use lasthop_core::Time;
use lasthop_tcp::cc::CcConfig;
use lasthop_tcp::{AckPolicy, Receiver, ReceiverConfig, Sender, SenderConfig, Variant};

const MSS: u32 = 1000;
const MS: u64 = 1_000_000;

fn wtcp() -> CcConfig {
    CcConfig::named("wtcp", &[]).expect("wtcp is a controller")
}

fn receiver() -> Receiver {
    let ack = AckPolicy::Delayed { every_segments: 4, timeout_ns: 200 * MS };
    let cfg = ReceiverConfig { timestamps: true, sack: true, ..ReceiverConfig::plain(64_000, MSS, ack) };
    Receiver::new(cfg).with_cc(&wtcp())
}

/// A data segment `i` (seq i·MSS) sent at `sent_ns` and arriving at `at_ns`.
fn deliver(r: &mut Receiver, i: u64, sent_ns: u64, at_ns: u64) -> Option<TcpHeader> {
    let ts = Some(Timestamps { val_ns: sent_ns, ecr_ns: 0 });
    r.on_segment(Time(at_ns), &TcpHeader { seq: i * u64::from(MSS), len: MSS, ts, ..TcpHeader::default() });
    r.poll_transmit(Time(at_ns))
}

/// The receiver after the packet pair: two segments sent together, 10 ms
/// apart on arrival: 100,000 B/s. Segment 2 is the next.
fn paired() -> Receiver {
    let mut r = receiver();
    assert_eq!(deliver(&mut r, 0, 0, 100 * MS), None, "one segment: no ack yet (every 4)");
    let ack = deliver(&mut r, 1, 0, 110 * MS).expect("the pair's second is acked at once");
    assert_eq!(ack.rate_bytes_per_s, 100_000, "1000 B over 10 ms");
    r
}

/// Segments 2.. sent every `send_gap` ms after the pair (sent at 0),
/// arriving `recv_gap` ms apart after its second (110 ms), those `lost`
/// never: the rate the receiver's next ack carries. The period began with
/// the pair's second.
fn period(r: &mut Receiver, n: u64, send_gap: u64, recv_gap: u64, lost: impl Fn(u64) -> bool) -> u32 {
    for k in (1..=n).filter(|&k| !lost(k)) {
        deliver(r, 1 + k, k * send_gap * MS, (110 + k * recv_gap) * MS);
    }
    r.wtcp().expect("a WTCP receiver").rate_field()
}

#[test]
fn packet_pair_sets_the_first_rate() {
    let r = paired();
    assert_eq!(r.wtcp().map(|w| w.stats().pair_rate_bytes_per_s), Some(100_000));
}

/// ρ = 1 (gaps alike at both ends): after a period of 8 packets (the
/// pair's second and 7 more: 70 ms, no round trip known yet) the rate grows by α = 1 packet per period:
/// 1000 B / 70 ms.
#[test]
fn rho_at_one_increases_the_rate_by_one_packet_per_rap() {
    let mut r = paired();
    let rate = period(&mut r, 7, 10, 10, |_| false);
    let st = r.wtcp().unwrap().stats();
    assert_eq!((st.raps, st.increases, st.decreases), (1, 1, 0));
    assert!((st.last.rho - 1.0).abs() < 1e-9);
    assert_eq!(rate, (100_000.0 + 1000.0 / 0.07_f64).round() as u32);
}

/// ρ = 1.2 > 1 + γ (1.15): the rate is cut to β = 0.7 of itself.
#[test]
fn rho_above_one_plus_gamma_cuts_the_rate_by_beta() {
    let mut r = paired();
    let rate = period(&mut r, 7, 10, 12, |_| false);
    let st = r.wtcp().unwrap().stats();
    assert_eq!((st.raps, st.increases, st.decreases), (1, 0, 1));
    assert!((st.last.rho - 1.2).abs() < 1e-9);
    assert_eq!(rate, 70_000);
    // ρ = 1.1, within the threshold: an increase again.
    let mut r = paired();
    period(&mut r, 7, 10, 11, |_| false);
    assert_eq!(r.wtcp().unwrap().stats().increases, 1);
}

/// Losses alone do not lower the rate: with every third segment lost
/// (4 of 11) the spans at both ends still match (ρ = 1), and the rate
/// grows.
#[test]
fn losses_do_not_lower_the_rate() {
    let mut r = paired();
    let rate = period(&mut r, 11, 10, 10, |k| k % 3 == 1);
    let st = r.wtcp().unwrap().stats();
    assert_eq!((st.increases, st.decreases), (1, 0), "{st:?}");
    assert!((st.last.rho - 1.0).abs() < 1e-9);
    assert!(rate > 100_000, "{rate}");
}

struct Tx {
    s: Sender,
    trace: Trace,
    sent: Vec<(u64, u64)>,
}

impl Tx {
    fn new() -> Tx {
        let cfg = SenderConfig {
            variant: Variant::Sack,
            cc: wtcp(),
            timestamps: true,
            initial_cwnd_segments: 2,
            ..SenderConfig::reno(MSS)
        };
        let mut trace = Trace::new(false);
        let mut s = Sender::new(cfg, 0);
        s.start(Time::ZERO, &mut trace);
        Tx { s, trace, sent: Vec::new() }
    }
    fn send(&mut self, now: Time) {
        while let Some(h) = self.s.poll_transmit(now, &mut self.trace) {
            self.sent.push((now.ns() / MS, h.seq));
        }
    }
    fn ack(&mut self, t_ms: u64, ack: u64, rate: u32) {
        let ts = Some(Timestamps { val_ns: t_ms * MS, ecr_ns: 0 });
        let h = TcpHeader { ack, wnd_bytes: 64_000, rate_bytes_per_s: rate, ts, ..TcpHeader::default() };
        self.s.on_ack(Time(t_ms * MS), &h, &mut self.trace);
        self.send(Time(t_ms * MS));
    }
    /// Run the sender's own wake-ups (pacing, timers) up to `t_ms`.
    fn run_until(&mut self, t_ms: u64) {
        loop {
            let at = self.s.poll_at();
            if at.ns() > t_ms * MS {
                break;
            }
            self.s.on_timer(at, &mut self.trace);
            self.send(at);
        }
    }
    fn sent_between(&self, from_ms: u64, to_ms: u64) -> Vec<(u64, u64)> {
        self.sent.iter().copied().filter(|&(t, _)| t >= from_ms && t < to_ms).collect()
    }
}

/// The sender: the pair unpaced; then one segment per 10 ms at the acked
/// rate (100,000 B/s); no ack of new data for 4 srtt (the srtt 100 ms):
/// the blackout, one probe (the segment at `snd_una`) per srtt and nothing
/// else; the probe's ack: pacing at the pre-blackout rate again, from
/// `snd_una`, the window never collapsed to slow start.
#[test]
fn blackout_probes_then_resumes_at_the_pre_blackout_rate() {
    let mut tx = Tx::new();
    tx.send(Time::ZERO);
    assert_eq!(tx.sent, [(0, 0), (0, 1000)], "the packet pair");
    tx.ack(100, 2000, 100_000);
    tx.run_until(199);
    let paced = tx.sent_between(100, 200);
    assert_eq!(paced.len(), 10, "{paced:?}");
    assert!(paced.windows(2).all(|w| w[1].0 - w[0].0 == 10 && w[1].1 == w[0].1 + 1000), "{paced:?}");
    // No ack from t100: the blackout is declared at 100 + 4 x 100 ms.
    tx.run_until(499);
    let before = tx.sent.len();
    assert_eq!(tx.sent.last().map(|s| s.0), Some(490), "data until the blackout");
    tx.run_until(500);
    assert_eq!(&tx.sent[before..], [(500, 2000)], "the first probe: the segment at snd_una");
    assert_eq!(tx.s.cwnd_bytes(), u64::from(MSS));
    tx.run_until(599);
    assert_eq!(tx.sent.len(), before + 1, "nothing between probes");
    tx.run_until(600);
    assert_eq!(&tx.sent[before + 1..], [(600, 2000)], "a probe per srtt");
    assert_eq!(tx.s.stats().timeouts, 2);
    // The second probe is acked (the link is back): pacing at 100,000 B/s
    // again, from snd_una.
    tx.ack(650, 3000, 100_000);
    tx.run_until(699);
    let resumed = tx.sent_between(650, 700);
    assert_eq!(resumed.first(), Some(&(650, 3000)), "{resumed:?}");
    assert_eq!(resumed.len(), 5, "one per 10 ms: {resumed:?}");
    assert!(tx.s.cwnd_bytes() > 1 << 20, "no window collapse");
}
