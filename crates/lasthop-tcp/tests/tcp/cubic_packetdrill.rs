//! packetdrill's CUBIC scripts (google/packetdrill 2c4001c,
//! gtests/net/tcp/cubic/, added 2023-05-25 in 8d63bbc "net-test: add TCP
//! CUBIC congestion control tests"), replayed as timelines on lasthop's
//! CUBIC (`cc::cubic`): every `tcpi_snd_cwnd` / `tcpi_snd_ssthresh`
//! assertion of the script is an assertion here, at the script's time.
//!
//! The scripts drive a Linux server: it writes, the script injects the
//! peer's acks at given times. Here a small stand-in sender plays the
//! kernel's part: a segment leaves as soon as the window and the written
//! data allow (at the ack that opened the window), each ack hands the
//! controller an `AckSample` as lasthop's sender builds it (bytes acked,
//! data outstanding before the ack, the RTT of the newest segment acked,
//! bytes delivered), `on_every_ack` then `on_ack`, as Linux calls
//! `pkts_acked` (HyStart) before `cong_avoid` (growth). MSS 1000, initial
//! window 10, ssthresh infinite (Linux `TCP_INFINITE_SSTHRESH`).
//!
//! Kernel details not modelled, and why the numbers still agree:
//! - The jiffy clock: lasthop's CUBIC keeps Linux's (HZ = 1000, 1 ms
//!   jiffies counted from t = 0); the script's acks come at whole
//!   milliseconds, so elapsed jiffies are exact.
//! - Pacing: cubic-bulk-166k runs under fq (`tc qdisc replace dev tun0 root
//!   fq`), which spaces the sends a few ms apart; here they leave at the ack.
//!   Only the RTT samples change (by ms), and every sample after the first
//!   round is ≥ 500 ms against HyStart's 116 ms threshold: the exit ack is
//!   the same. fq also makes the socket `SK_PACING_FQ` (HyStart's ack-train
//!   threshold not halved); its acks are 100 ms apart, no train forms.
//! - TSO/GSO (`tcp_min_tso_segs`): the scripts use 1000-byte segments and
//!   per-ack counts; no aggregation changes what is acked.
//! - No timestamps (the SYNs carry none), so RTTs are from send times, as
//!   lasthop's samples.

use lasthop_core::Time;
use lasthop_tcp::cc::{AckSample, CcConfig, CongestionControl, RetransmitWindow};

const MSS: u64 = 1000;
const INFINITE_SSTHRESH: u64 = 0x7fff_ffff * MSS;

fn ms(t: u64) -> Time {
    Time::from_ms(t)
}

/// The kernel's side of a script: what was written, sent and when.
struct Replay {
    cc: CongestionControl,
    /// Send time of segment i (0-based: bytes i·MSS+1 .. (i+1)·MSS).
    sent_at: Vec<Time>,
    /// Segments acked, written.
    una: u64,
    written: u64,
}

impl Replay {
    fn new(params: &[(&str, f64)]) -> Replay {
        let cfg = CcConfig::named("cubic", params).expect("cubic exists");
        let cc =
            CongestionControl::new(RetransmitWindow::Inflate, MSS as u32, 10, INFINITE_SSTHRESH).with_controller(&cfg);
        Replay { cc, sent_at: Vec::new(), una: 0, written: 0 }
    }
    fn cwnd(&self) -> u64 {
        self.cc.cwnd() / MSS
    }
    fn ssthresh(&self) -> u64 {
        self.cc.ssthresh() / MSS
    }
    fn send(&mut self, now: Time) {
        while (self.sent_at.len() as u64) < self.written.min(self.una + self.cwnd()) {
            self.sent_at.push(now);
        }
    }
    /// `write(4, ..., bytes)`.
    fn write(&mut self, now: Time, bytes: u64) {
        self.written += bytes / MSS;
        self.send(now);
    }
    /// `< . 1:1(0) ack <ack>`: a cumulative ack of everything below `ack`.
    fn ack(&mut self, now: Time, ack: u64) {
        let upto = (ack - 1) / MSS;
        let acked = upto - self.una;
        let flight = (self.sent_at.len() as u64 - self.una) * MSS;
        let rtt = now.since(self.sent_at[upto as usize - 1]);
        self.una = upto;
        let s = AckSample {
            acked_bytes: acked * MSS,
            flight_bytes: flight,
            rtt_ns: Some(rtt),
            delivered_bytes: self.una * MSS,
            ..AckSample::default()
        };
        self.cc.on_every_ack(now, &s);
        self.cc.on_ack(now, &s);
        self.send(now);
    }
}

/// cubic-bulk-166k.pkt: 2 segments acked every 100 ms (166 kbit/s). Slow
/// start +2 per ack; HyStart's delay test ends it at 48 segments; then
/// the cubic function (no loss yet: at least 5% per RTT, cnt ≤ 20), and
/// from ack 61 on its growth cap: +1 segment per 2 acked, +10 per 10 acks.
///
/// The working (hand, from tcp_cubic.c's rules): the first RTT sample,
/// 100 ms (segments 1-2, sent at 0.1 s, acked at 0.2 s), is delay_min.
/// HyStart runs from cwnd 16 (ack 4, t = 0.5 s): a round begins, ending
/// when the cumulative ack passes snd_nxt = 6 + 16 = 22 segments (ack 12,
/// t = 1.3 s), with 8 samples, none tested (the 9th is). The next round
/// begins at ack 12, snd_nxt = 22 + 32 = 54: its 9th sample is ack 20
/// (t = 2.1 s), whose round minimum (≥ 800 ms) exceeds 100 + clamp(100/8,
/// 4, 16) = 116 ms: ssthresh = cwnd = 48 (ack 19 had made it 10 + 2·19),
/// and ack 20's growth is avoidance. The epoch begins at ack 20 with W_max
/// = 0: K = 0, origin 48, t = (0 + 100 jiffies)·1024/1000 = 102 units,
/// C·t³ = 410·102³ >> 40 = 0: target 48 ≤ cwnd, cnt = 100·48, capped at
/// 20: +1 per 20 acked, so 10 acks of 2 → 49 at ack 29 (asserted at 30).
#[test]
fn cubic_bulk_166k() {
    let mut r = Replay::new(&[]);
    // 0.1 s: the handshake's last ack; accept, write 400000.
    assert_eq!(r.cwnd(), 10);
    r.write(ms(100), 400_000);
    // The script's assertions: after ack group k (ack 2000·k + 1 at 0.1 s
    // + k·100 ms), cwnd.
    let mut expect: Vec<(u64, u64)> = vec![(5, 20), (10, 30), (15, 40), (19, 48), (30, 49), (40, 50), (50, 52)];
    expect.push((60, 58));
    // "for every 2 packets ACKed, CUBIC increases its cwnd by 1 packet".
    for k in 61..=70 {
        expect.push((k, 58 + (k - 60)));
    }
    for k in (80..=200).step_by(10) {
        expect.push((k, 68 + (k - 70)));
    }
    let mut next = expect.iter().peekable();
    for k in 1..=200u64 {
        r.ack(ms(100 + 100 * k), 2000 * k + 1);
        if let Some(&&(at, cwnd)) = next.peek() {
            if at == k {
                assert_eq!(r.cwnd(), cwnd, "cwnd after ack {} (k = {k})", 2000 * k + 1);
                next.next();
            }
        }
        match k {
            ..=19 => assert_eq!(r.ssthresh(), INFINITE_SSTHRESH / MSS, "k = {k}: still slow start"),
            _ => assert_eq!(r.ssthresh(), 48, "k = {k}: HyStart's exit at 48"),
        }
    }
    assert!(next.peek().is_none());
}

/// cubic-hystart-delay-rtt-jumps-upward.pkt: min RTT 200 ms, then a round
/// of samples 240, 241, ... ms; the 9th sample of the round (ack 28001)
/// makes the delay test: the round's minimum 240 ms > 200 + clamp(200/8 =
/// 25, 4, 16) = 216 ms, so ssthresh = cwnd = 36 before that ack's growth,
/// which is avoidance (cnt 20 before any loss: cwnd stays 36).
#[test]
fn cubic_hystart_delay_rtt_jumps_upward() {
    let mut r = Replay::new(&[]);
    // 0.2 s: handshake done (SYN at 0, its ack +.200); write 30000.
    r.write(ms(200), 30_000);
    assert_eq!(r.cwnd(), 10);
    // +.200: ack 10001 (RTT 200 ms, delay_min; cwnd 10 < 16: no HyStart).
    r.ack(ms(400), 10_001);
    assert_eq!(r.cwnd(), 20);
    // +.240, then +.001 each: RTT 240, 241, ... ms (sent at 0.4 s).
    for j in 0..10u64 {
        r.ack(ms(640 + j), 12_001 + 2000 * j);
        if j < 8 {
            // Samples 1..8 of the round: no test yet.
            assert_eq!(r.ssthresh(), INFINITE_SSTHRESH / MSS, "ack {}", 12_001 + 2000 * j);
            assert_eq!(r.cwnd(), 22 + 2 * j, "ack {}", 12_001 + 2000 * j);
        } else {
            assert_eq!(r.ssthresh(), 36, "ack {}", 12_001 + 2000 * j);
            assert_eq!(r.cwnd(), 36, "ack {}", 12_001 + 2000 * j);
        }
    }
}

/// cubic-hystart-delay-min-rtt-jumps-downward.pkt (Linux b344579ca847,
/// "tcp_cubic: fix spurious HYSTART_DELAY exit upon drop in min RTT"):
/// samples 200, 201, ..., 208 ms, then 29 ms (the 2000 bytes written at
/// 0.58 s, acked at 0.609 s). The 9th sample (ack 28001) tests 200 ms
/// against 216: no exit. The 10th lowers delay_min to 29 ms before the
/// round's minimum is compared: 29 > 29 + 4 fails, no exit; cwnd 40.
#[test]
fn cubic_hystart_delay_min_rtt_jumps_downward() {
    let mut r = Replay::new(&[]);
    r.write(ms(200), 28_000);
    assert_eq!(r.cwnd(), 10);
    r.ack(ms(400), 10_001);
    assert_eq!(r.cwnd(), 20);
    r.write(ms(580), 2000);
    for j in 0..10u64 {
        r.ack(ms(600 + j), 12_001 + 2000 * j);
        assert_eq!(r.ssthresh(), INFINITE_SSTHRESH / MSS, "ack {}", 12_001 + 2000 * j);
        assert_eq!(r.cwnd(), 22 + 2 * j, "ack {}", 12_001 + 2000 * j);
    }
}

/// The upward script with `hystart = 0` (lasthop's parameter, Linux's
/// module parameter): plain slow start, no exit, +2 per ack to 40.
#[test]
fn hystart_off_keeps_slow_start() {
    let mut r = Replay::new(&[("hystart", 0.0)]);
    r.write(ms(200), 30_000);
    r.ack(ms(400), 10_001);
    for j in 0..10u64 {
        r.ack(ms(640 + j), 12_001 + 2000 * j);
    }
    assert_eq!((r.cwnd(), r.ssthresh()), (40, INFINITE_SSTHRESH / MSS));
}
