//! BBR v1, Bottleneck Bandwidth and Round-trip propagation time (Neal
//! Cardwell, Yuchung Cheng, C. Stephen Gunn, Soheil Hassas Yeganeh, Van
//! Jacobson, "BBR: Congestion-Based Congestion Control", ACM Queue 14(5),
//! 2016), as Linux's `net/ipv4/tcp_bbr.c` implements it (read at commit
//! 02dc96ef of torvalds/linux, with `lib/win_minmax.c`). The rules are
//! written here from that file's comments and logic; the function names
//! below are Linux's, to find the rule there.
//!
//! The model, updated on every ack ([`Controller::on_every_ack`], Linux's
//! `bbr_main`):
//!
//! - Bottleneck bandwidth: the windowed maximum of the delivery-rate samples
//!   ([`AckSample::rate`]: delivered / interval) over the last `bw_rtts` (10)
//!   packet-timed rounds (`bbr_update_bw`). An app-limited sample enters the
//!   filter only if it is not below the current maximum.
//! - Rounds (`rtt_cnt`): a round ends when an ack delivers a segment sent
//!   after the round began: its rate sample's `prior_delivered_bytes` is at
//!   least the delivered total recorded when the round began
//!   (`next_rtt_delivered`).
//! - min_rtt: the least RTT sample ([`AckSample::rtt_ns`]) over 10 s
//!   (`bbr_update_min_rtt`); once older than that, the next sample
//!   replaces it whatever its value.
//!
//! The states (`bbr_update_gains`), gains in Linux's 1/256 fixed point:
//!
//! | state | pacing gain | cwnd gain |
//! |---|---|---|
//! | STARTUP | high_gain = ceil(2.885·256)/256 = 739/256 ≈ 2/ln 2 | high_gain |
//! | DRAIN | floor(256/2.885)/256 = 88/256 (1/high_gain) | high_gain |
//! | PROBE_BW | cycle of 8: 5/4, 3/4, then 1 six times | 2 |
//! | PROBE_RTT | 1 | 1 |
//!
//! - STARTUP → DRAIN when the pipe is full (`bbr_check_full_bw_reached`): at
//!   a round start with a sample not app-limited, a maximum bandwidth below
//!   1.25 × the last one that grew (`full_bw`) counts a round; 3 such rounds
//!   running say the pipe is full. Entering DRAIN sets ssthresh to the
//!   BDP-based in-flight target (`bbr_check_drain`).
//! - DRAIN → PROBE_BW once the data in flight after the ack is at most the
//!   in-flight target at gain 1.
//! - PROBE_BW: a phase lasts at least min_rtt (of delivery time,
//!   `delivered_mstamp`) (`bbr_is_next_cycle_phase`); the 5/4 phase also
//!   until the flight (before the ack, plus a send quantum) reaches the
//!   target at 5/4 or a loss is seen; the 3/4 phase ends early once the
//!   flight is at most the target at 1. Entering PROBE_BW picks the starting
//!   phase at random among the 7 that are not the 3/4 one
//!   (`bbr_reset_probe_bw_mode`: `cycle_idx = 8 - 1 - rand(7)`, then one
//!   advance). **Departure:** the draw is a splitmix64 sequence seeded with
//!   the `cycle_seed` parameter, not `prandom`: a run is deterministic, and
//!   flows with the same parameters start at the same phase; give each
//!   flow its own `cycle_seed` to spread them.
//! - PROBE_RTT when min_rtt has not been refreshed for 10 s (any state): cwnd
//!   at most 4 segments; once the flight after an ack is at most 4 segments,
//!   the state holds for more than 200 ms and until a round has passed, then
//!   min_rtt's stamp is renewed, cwnd restored (at least the cwnd saved on
//!   entry) and BBR returns to PROBE_BW (random phase) or, if the pipe was
//!   never full, STARTUP. While in PROBE_RTT Linux marks the connection
//!   app-limited (`tp->app_limited = delivered + in_flight`): the samples of
//!   segments sent meanwhile are taken as app-limited here too (their
//!   `prior_delivered_bytes` lies between the delivered totals of the first
//!   and the last PROBE_RTT ack), since the sender marks only its own idle.
//!
//! The window (`bbr_set_cwnd`, `bbr_bdp`, `bbr_quantization_budget`), in
//! segments of MSS bytes as Linux counts packets:
//!
//! ```text
//! bdp    = ceil(max_bw · min_rtt · gain / MSS)     (10 segments before any RTT sample)
//! target = bdp + 3 · quantum, rounded up to even, + 2 in PROBE_BW's 5/4 phase
//! full pipe:     cwnd = min(cwnd + acked, target)
//! not yet full:  cwnd = cwnd + acked  if cwnd < target or delivered < 10 segments
//! cwnd = max(cwnd, 4 segments); in PROBE_RTT min(cwnd, 4 segments)
//! ```
//!
//! The send quantum is **1 segment** (Linux's `bbr_tso_segs_goal` is 2 above
//! 1.2 Mb/s and about 1 ms of data at higher rates, sized for TSO/GSO
//! bursts; lasthop's sender has no TSO and sends one segment at a time).
//! The pacing rate (`bbr_set_pacing_rate`) is pacing_gain × max_bw × 99/100
//! (Linux's `bbr_pacing_margin_percent` = 1), and before the pipe is full it
//! only rises. Before the first RTT sample it is high_gain × cwnd / 1 ms;
//! on the first sample high_gain × cwnd / RTT (Linux's `srtt`, equal to the
//! first sample).
//!
//! # BBR owns cwnd; how it shares it with loss recovery
//!
//! - Outside recovery BBR sets cwnd in [`Controller::on_every_ack`];
//!   [`Controller::on_ack`] (Reno's growth) does nothing.
//! - [`Controller::ssthresh`] is Linux's `bbr_ssthresh`: it saves cwnd
//!   (`bbr_save_cwnd`: the cwnd, or outside an open state the larger of it
//!   and the saved one) and leaves ssthresh as it was (the configured
//!   initial value, or DRAIN's target).
//! - The recovery's rule then sets cwnd, and [`Controller::on_cut`] replaces
//!   it by BBR's (`bbr_set_cwnd_to_recover_or_restore`): at a fast
//!   retransmit, packet conservation, cwnd = the data in flight after the
//!   ack (Linux: `tcp_packets_in_flight + acked`), in the recovery's own
//!   accounting. Which accounting is read from the window the rule left:
//!   above ssthresh (Reno's inflation, ssthresh + DupThresh segments) the
//!   sender counts `snd_max − snd_una`, so cwnd = the event's flight and
//!   each further duplicate's inflation releases one segment; at ssthresh
//!   (RFC 6675's rule, sending while pipe < cwnd) the SACKed segments are
//!   out of pipe, so cwnd = flight − the bytes SACKed above the cumulative
//!   ack (or, if no ack carried a SACK block, − duplicate acks seen ×
//!   MSS); below it (Tahoe's one segment) the rule restarted slow start, and
//!   that, as a timeout's one segment, is Linux's `TCP_CA_Loss`: BBR keeps
//!   the rule's window and grows it by its own rule toward the target.
//! - During the first round of a recovery BBR leaves cwnd to the recovery's
//!   rule (its inflation per duplicate, or pipe, already sends one segment
//!   per segment delivered: Linux's `max(cwnd, in_flight + acked)`); after
//!   it, its own rule (`cwnd + acked`, capped at the target once the pipe
//!   is full) applies on every ack that delivers data.
//! - At the recovery's end ([`Controller::on_recovery_exit`], after the
//!   window's deflation to ssthresh, which is discarded; or, for a
//!   recovery that ends without it (SMART), the first ack outside
//!   recovery) cwnd = max(cwnd before the deflation, the saved cwnd),
//!   capped at the target once the pipe is full. After a timeout the loss
//!   state ends when the data outstanding at the timeout and not SACKed
//!   is delivered (Linux: the cumulative ack reaches `high_seq`); there
//!   cwnd = max(cwnd, saved) and the ack's growth follows.
//!
//! # What an ack delivers
//!
//! As Linux's `tp->delivered`, the sender's [`AckSample::delivered_bytes`]
//! counts a segment when it is first acknowledged, selectively or
//! cumulatively (`crate::sender::samples`). BBR's "acked" (Linux's
//! `rs->acked_sacked`, the window's growth) is that total's growth at the
//! ack; the data in the network (`tcp_packets_in_flight`, for DRAIN's end,
//! the gain cycle and PROBE_RTT) is the flight `snd_max − snd_una` less
//! the bytes SACKed above the cumulative ack, which BBR keeps as
//! `sacked_out` (each ack adds what it delivered, less what the cumulative
//! ack passed).
//!
//! Until issue 30's follow-up the sender counted data as delivered only
//! when cumulatively acknowledged. On any path that loses segments under
//! SACK this broke BBR: the ack that filled a hole delivered the whole
//! SACKed run above it at once, over the hole's own interval (one round
//! trip), so rate samples ran at 2-7 times the link's rate and the
//! bandwidth filter held them ten rounds; and that ack's RTT sample was the
//! send time of a segment SACKed up to seconds before, which became min_rtt
//! whenever the 10 s window had run out. On seed 004's downlink
//! (`yun09/downlink`, `fer = 0`, 50 s; an 802.11b hop that, at
//! `retry_limit = 1`, loses a data frame on each collision with the
//! station's acks) the filter's median after 3 s was 0.82 MB/s (up to
//! 1.4 MB/s, and 8.3 MB/s at 12.4 s) for a hop that carries about 0.52
//! MB/s; min_rtt was 4.0 s from 12.1 s (target 27.5 MB) and 7.7 s near
//! 37 s; pacing reached 13.6-18.4 Mb/s into the 10 Mb/s wired hop (65
//! Mb/s at 12.4 s): 1.97 Mb/s, 4580 retransmissions, 38 timeouts, 1221
//! drops at the AP's queue and 57 at the first wired hop. Counting SACKed data when
//! SACKed (and Linux's `tcp_rate_gen` check that dismisses a sample shorter
//! than min_rtt): estimate 0.47-0.57 MB/s, min_rtt 43-54 ms, target about
//! 48 segments; 3.38 Mb/s, no queue drops, 2768 retransmissions, 33
//! timeouts. What remains is the sender's RFC 6675 recovery, not BBR's:
//! with the hop kept busy about 5% of the AP's data frames collide (1.6%
//! for Reno's smaller window), each of the 33 timeouts followed a lost
//! retransmission (RFC 6675 has no lost-retransmission detection; Linux
//! has RACK), and the go-back-N after each resends the SACKed data too
//! (RFC 6675 forgets it at a timeout; Linux keeps it): about 1650 of the
//! retransmissions are of segments the receiver held.
//! - An ECN-Echo: Linux's BBR v1 enters CWR without a window reduction
//!   (`tcp_cong_control` skips PRR for a `cong_control` module), so cwnd is
//!   put back as it was before the cut; the cwnd is saved.
//!
//! # Departures and omissions
//!
//! - **lt_bw (policer detection, `bbr_lt_bw_sampling`) is omitted**: it
//!   needs per-ack lost-packet counts (`rs->losses`, `tp->lost`), which
//!   [`AckSample`] does not carry.
//! - The ack-aggregation allowance (`bbr_update_ack_aggregation`,
//!   `extra_acked`, added to Linux in 5.1) is omitted: the target is BDP +
//!   quantum only, as the original BBR v1 (4.9) had it.
//! - The bandwidth filter is an exact windowed maximum (per-round maxima in
//!   a ring) over the same window as Linux's: a sample of round r counts
//!   through round r + `bw_rtts` and is dropped at the first sample of round
//!   r + `bw_rtts` + 1 (win_minmax's `dt > win`); like Linux's filter it
//!   ages only when a sample enters it. Linux's three-sample filter (Kathleen
//!   Nichols' algorithm) approximates this maximum.
//! - `rs->losses`: the 5/4 phase ends on a loss; lasthop reports a loss after
//!   the ack's `on_every_ack`, so the loss is seen on the next ack. Linux's
//!   `cwnd - rs->losses` is not needed: lost data stays counted in
//!   `snd_max − snd_una` until resent, and RFC 6675's NextSeg resends it
//!   before new data.
//! - No idle restart (`CA_EVENT_TX_START`, `idle_restart`): the interface has
//!   no transmit-start event; no `is_ack_delayed` filter on min_rtt samples;
//!   no EDT (`bbr_packets_in_net_at_edt` takes the flight as it is, plus the
//!   quantum when the gain is above 1); no undo (lasthop has none).
//! - Rates are bytes per second and windows bytes (Linux: packets per µs
//!   << 24, packets); delivery samples count bytes, so partial segments
//!   count in part.
//! - What [`AckSample`] lacks for an exact port: per-ack losses and a lost
//!   total (lt_bw, the 5/4 phase's loss test on the same ack, and the lost
//!   segments Linux takes out of `tcp_packets_in_flight`: BBR's in-network
//!   estimate leaves out only the SACKed bytes), and a delayed-ack flag.
//!
//! Every default of the parameters below (but `cycle_seed`, lasthop's) is
//! Linux's, checked in the `tcp_bbr.c` read; none is unverified. The ACM
//! Queue paper itself was not read here: the constants are cited from the
//! reference implementation only.

use super::{AckSample, CongestionEvent, CongestionKind, Controller, Param, Window, MAX_PARAMS};
use lasthop_core::time::{Time, NS_PER_MS, NS_PER_S};

pub const NAME: &str = "bbr";
pub const NEEDS_TIMESTAMPS: bool = false;

pub const PARAMS: &[Param] = &[
    Param {
        name: "high_gain",
        default: 2.885,
        source: "STARTUP's pacing and cwnd gain, 2/ln 2: tcp_bbr.c bbr_high_gain = BBR_UNIT * 2885 / 1000 + 1 \
                 (739/256, taken here as ceil(gain * 256)); DRAIN's gain is floor(256 / gain)/256 = 88/256 as \
                 bbr_drain_gain",
    },
    Param {
        name: "cwnd_gain",
        default: 2.0,
        source: "PROBE_BW's cwnd gain: tcp_bbr.c bbr_cwnd_gain = BBR_UNIT * 2",
    },
    Param {
        name: "bw_rtts",
        default: 10.0,
        source: "bandwidth filter window in rounds: tcp_bbr.c bbr_bw_rtts = CYCLE_LEN + 2 (at most 15 here)",
    },
    Param {
        name: "min_rtt_win_s",
        default: 10.0,
        source: "min_rtt filter window in seconds: tcp_bbr.c bbr_min_rtt_win_sec",
    },
    Param {
        name: "probe_rtt_ms",
        default: 200.0,
        source: "least time in PROBE_RTT at 4 segments: tcp_bbr.c bbr_probe_rtt_mode_ms (0: no PROBE_RTT)",
    },
    Param {
        name: "full_bw_thresh",
        default: 1.25,
        source: "bandwidth growth that means more may come: tcp_bbr.c bbr_full_bw_thresh = BBR_UNIT * 5 / 4",
    },
    Param {
        name: "full_bw_cnt",
        default: 3.0,
        source: "rounds without that growth that mean a full pipe: tcp_bbr.c bbr_full_bw_cnt",
    },
    Param {
        name: "cycle_seed",
        default: 0.0,
        source: "lasthop's: seed of the deterministic draw of PROBE_BW's starting phase (Linux: prandom_u32_max(7))",
    },
];

/// Linux's fixed point for gains (`BBR_SCALE` = 8).
const UNIT: u64 = 256;
/// PROBE_BW's pacing gains (`bbr_pacing_gain`), in 1/256.
const CYCLE: [u64; 8] = [UNIT * 5 / 4, UNIT * 3 / 4, UNIT, UNIT, UNIT, UNIT, UNIT, UNIT];
/// Phases the starting one is drawn among (`bbr_cycle_rand`).
const CYCLE_RAND: u64 = 7;
/// The least window, and PROBE_RTT's, in segments (`bbr_cwnd_min_target`).
const CWND_MIN_SEGS: u64 = 4;
/// Linux's `TCP_INIT_CWND`, in segments.
const INIT_CWND_SEGS: u64 = 10;
/// The send quantum, in segments (no TSO here; see the module's docs).
const QUANTUM_SEGS: u64 = 1;
/// Pacing below the estimate by this percentage (`bbr_pacing_margin_percent`).
const PACING_MARGIN_PERCENT: u64 = 1;
/// Slots of the bandwidth filter (a window of at most `BW_SLOTS - 1` rounds).
const BW_SLOTS: usize = 16;

/// BBR's state machine (`enum bbr_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// The loss-recovery state BBR follows (Linux's `icsk_ca_state` as
/// `prev_ca_state` remembers it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ca {
    Open,
    /// Fast recovery (`TCP_CA_Recovery`).
    Recovery,
    /// After a timeout, or a rule that restarted from one segment (`TCP_CA_Loss`).
    Loss,
}

/// The windowed maximum of bandwidth samples over rounds: each slot holds
/// one round's largest sample.
#[derive(Clone, Debug)]
struct MaxFilter {
    round: [u64; BW_SLOTS],
    bw: [u64; BW_SLOTS],
    max: u64,
}

impl MaxFilter {
    fn new() -> Self {
        MaxFilter { round: [0; BW_SLOTS], bw: [0; BW_SLOTS], max: 0 }
    }

    /// A sample `bw` in round `round`; samples older than `win` rounds go.
    fn update(&mut self, win: u64, round: u64, bw: u64) {
        let i = (round % BW_SLOTS as u64) as usize;
        if self.round[i] != round {
            self.round[i] = round;
            self.bw[i] = bw;
        } else {
            self.bw[i] = self.bw[i].max(bw);
        }
        self.max = (0..BW_SLOTS)
            .filter(|&j| round - self.round[j] <= win)
            .map(|j| self.bw[j])
            .max()
            .unwrap_or(0);
    }
}

#[derive(Clone, Debug)]
pub struct Bbr {
    // Parameters, gains in 1/256.
    high_gain: u64,
    drain_gain: u64,
    probe_bw_cwnd_gain: u64,
    bw_rtts: u64,
    min_rtt_win_ns: u64,
    probe_rtt_ns: u64,
    full_bw_thresh: u64,
    full_bw_rounds: u32,
    rng: u64,
    mss: u64,

    mode: Mode,
    pacing_gain: u64,
    cwnd_gain: u64,
    bw: MaxFilter,
    /// Packet-timed rounds so far, and the delivered total that ends this one.
    rtt_cnt: u64,
    next_rtt_delivered: u64,
    round_start: bool,
    /// min_rtt in ns (`u64::MAX` before a sample) and when it was taken.
    min_rtt_ns: u64,
    min_rtt_stamp: Time,
    started: bool,
    /// PROBE_RTT's end (set once the flight is down to 4 segments).
    probe_rtt_done_stamp: Option<Time>,
    probe_rtt_round_done: bool,
    /// Delivered totals between which segments were sent in PROBE_RTT (their
    /// samples are app-limited); `app_limited_until` 0 for none yet.
    app_limited_from: u64,
    app_limited_until: u64,
    full_bw_reached: bool,
    full_bw: u64,
    full_bw_cnt: u32,
    cycle_idx: usize,
    cycle_stamp: Time,
    has_seen_rtt: bool,
    /// The pacing rate, in bytes per second.
    pacing_rate: u64,
    /// cwnd saved on entering recovery or PROBE_RTT (`prior_cwnd`), bytes.
    prior_cwnd: u64,
    ca: Ca,
    packet_conservation: bool,
    /// After a timeout: the delivered total that ends the loss state.
    loss_end_delivered: u64,
    /// The last ack's delivered total, and when data was last delivered.
    delivered: u64,
    delivered_at: Time,
    /// Duplicate acks since the cumulative ack last advanced.
    dupacks: u64,
    /// Bytes selectively acknowledged above the cumulative ack (Linux's
    /// `sacked_out`), kept from the samples: each ack adds what it newly
    /// delivered and takes off what the cumulative ack passed.
    sacked_out: u64,
    /// A loss was signalled after the last ack (`rs->losses` for the next).
    loss_pending: bool,
    /// cwnd when `ssthresh` was asked (an ECN cut puts it back).
    cwnd_at_cut: u64,
    /// cwnd at the end of the last ack (before a recovery's deflation).
    cwnd_seen: u64,
}

/// A gain parameter in 1/256, rounded up (2.885 gives Linux's 739).
fn fixed(gain: f64) -> u64 {
    (gain * UNIT as f64).ceil() as u64
}

impl Bbr {
    pub fn new(params: &[f64; MAX_PARAMS], w: &Window) -> Self {
        let high_gain = fixed(params[0]).max(1);
        let mss = w.mss();
        let mut b = Bbr {
            high_gain,
            drain_gain: (UNIT as f64 / params[0].max(1.0 / UNIT as f64)).floor() as u64,
            probe_bw_cwnd_gain: fixed(params[1]),
            bw_rtts: (params[2] as u64).clamp(1, BW_SLOTS as u64 - 1),
            min_rtt_win_ns: (params[3] * NS_PER_S as f64).round() as u64,
            probe_rtt_ns: (params[4] * NS_PER_MS as f64).round() as u64,
            full_bw_thresh: fixed(params[5]),
            full_bw_rounds: params[6] as u32,
            rng: params[7] as u64,
            mss,
            mode: Mode::Startup,
            pacing_gain: high_gain,
            cwnd_gain: high_gain,
            bw: MaxFilter::new(),
            rtt_cnt: 0,
            next_rtt_delivered: 0,
            round_start: false,
            min_rtt_ns: u64::MAX,
            min_rtt_stamp: Time::ZERO,
            started: false,
            probe_rtt_done_stamp: None,
            probe_rtt_round_done: false,
            app_limited_from: 0,
            app_limited_until: 0,
            full_bw_reached: false,
            full_bw: 0,
            full_bw_cnt: 0,
            cycle_idx: 0,
            cycle_stamp: Time::ZERO,
            has_seen_rtt: false,
            pacing_rate: 0,
            prior_cwnd: 0,
            ca: Ca::Open,
            packet_conservation: false,
            loss_end_delivered: 0,
            delivered: 0,
            delivered_at: Time::ZERO,
            dupacks: 0,
            sacked_out: 0,
            loss_pending: false,
            cwnd_at_cut: w.cwnd(),
            cwnd_seen: w.cwnd(),
        };
        // bbr_init_pacing_rate_from_rtt without an RTT: a nominal 1 ms.
        b.pacing_rate = b.rate(w.cwnd() * 1000, b.high_gain);
        b
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// The pacing gain and the cwnd gain, in 1/256.
    pub fn gains(&self) -> (u64, u64) {
        (self.pacing_gain, self.cwnd_gain)
    }
    /// The bandwidth estimate (the filter's maximum), in bytes per second.
    pub fn max_bw(&self) -> u64 {
        self.bw.max
    }
    /// min_rtt in ns, if a sample was seen.
    pub fn min_rtt_ns(&self) -> Option<u64> {
        (self.min_rtt_ns != u64::MAX).then_some(self.min_rtt_ns)
    }
    /// Packet-timed rounds counted so far.
    pub fn rounds(&self) -> u64 {
        self.rtt_cnt
    }
    /// PROBE_BW's phase (0: gain 5/4, 1: 3/4, 2-7: 1).
    pub fn cycle_index(&self) -> usize {
        self.cycle_idx
    }
    pub fn full_bw_reached(&self) -> bool {
        self.full_bw_reached
    }

    /// `bbr_rate_bytes_per_sec`: `bw` (bytes/s) times a gain, less the margin.
    fn rate(&self, bw: u64, gain: u64) -> u64 {
        let r = u128::from(bw) * u128::from(gain) / u128::from(UNIT);
        (r * u128::from(100 - PACING_MARGIN_PERCENT) / 100).min(u128::from(u64::MAX)) as u64
    }

    /// `bbr_bdp`, in segments: ceil(bw · min_rtt · gain), 10 without min_rtt.
    fn bdp_segs(&self, bw: u64, gain: u64) -> u64 {
        if self.min_rtt_ns == u64::MAX {
            return INIT_CWND_SEGS;
        }
        let w = u128::from(bw) * u128::from(self.min_rtt_ns) * u128::from(gain);
        let unit = u128::from(UNIT) * u128::from(NS_PER_S) * u128::from(self.mss);
        w.div_ceil(unit).min(u128::from(u32::MAX)) as u64
    }

    /// `bbr_quantization_budget`, in segments.
    fn budget(&self, segs: u64) -> u64 {
        let mut cwnd = segs + 3 * QUANTUM_SEGS;
        cwnd = (cwnd + 1) & !1;
        if self.mode == Mode::ProbeBw && self.cycle_idx == 0 {
            cwnd += 2;
        }
        cwnd
    }

    /// `bbr_inflight`: the in-flight target at `gain`, in bytes.
    fn inflight(&self, bw: u64, gain: u64) -> u64 {
        self.budget(self.bdp_segs(bw, gain)) * self.mss
    }

    fn next_rand(&mut self) -> u64 {
        // splitmix64.
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `bbr_reset_probe_bw_mode`: a phase other than 3/4, then advance.
    fn enter_probe_bw(&mut self) {
        self.mode = Mode::ProbeBw;
        // prandom_u32_max(7): (32-bit draw * 7) >> 32.
        let r = ((self.next_rand() >> 32) * CYCLE_RAND) >> 32;
        self.cycle_idx = (CYCLE.len() as u64 - 1 - r) as usize;
        self.advance_cycle();
    }

    fn advance_cycle(&mut self) {
        self.cycle_idx = (self.cycle_idx + 1) % CYCLE.len();
        self.cycle_stamp = self.delivered_at;
    }

    fn reset_mode(&mut self) {
        if self.full_bw_reached {
            self.enter_probe_bw();
        } else {
            self.mode = Mode::Startup;
        }
    }

    /// `bbr_save_cwnd`.
    fn save_cwnd(&mut self, cwnd: u64) {
        self.prior_cwnd = if self.ca == Ca::Open && self.mode != Mode::ProbeRtt {
            cwnd
        } else {
            self.prior_cwnd.max(cwnd)
        };
    }

    /// Segments sent during PROBE_RTT give app-limited samples.
    fn sent_in_probe_rtt(&self, prior_delivered: u64) -> bool {
        self.app_limited_until > 0 && (self.app_limited_from..=self.app_limited_until).contains(&prior_delivered)
    }

    /// `bbr_update_bw`; returns whether the sample was app-limited.
    fn update_bw(&mut self, s: &AckSample) -> bool {
        self.round_start = false;
        let Some(rs) = s.rate.filter(|r| r.interval_ns > 0) else { return false };
        if rs.prior_delivered_bytes >= self.next_rtt_delivered {
            self.next_rtt_delivered = s.delivered_bytes;
            self.rtt_cnt += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        let bw = (u128::from(rs.delivered_bytes) * u128::from(NS_PER_S) / u128::from(rs.interval_ns))
            .min(u128::from(u64::MAX)) as u64;
        let app_limited = rs.app_limited || self.sent_in_probe_rtt(rs.prior_delivered_bytes);
        if !app_limited || bw >= self.bw.max {
            self.bw.update(self.bw_rtts, self.rtt_cnt, bw);
        }
        app_limited
    }

    /// `bbr_is_next_cycle_phase`.
    fn is_next_cycle_phase(&self, prior_inflight: u64, losses: bool) -> bool {
        let full_length = self.delivered_at.since(self.cycle_stamp) > self.min_rtt_ns;
        if self.pacing_gain == UNIT {
            return full_length;
        }
        // bbr_packets_in_net_at_edt without EDT: the flight before the ack,
        // plus the next quantum when raising it.
        let mut inflight = prior_inflight;
        if self.pacing_gain > UNIT {
            inflight += QUANTUM_SEGS * self.mss;
            return full_length && (losses || inflight >= self.inflight(self.bw.max, self.pacing_gain));
        }
        full_length || inflight <= self.inflight(self.bw.max, UNIT)
    }

    /// `bbr_check_full_bw_reached`.
    fn check_full_bw_reached(&mut self, app_limited: bool) {
        if self.full_bw_reached || !self.round_start || app_limited {
            return;
        }
        let thresh = self.full_bw * self.full_bw_thresh / UNIT;
        if self.bw.max >= thresh {
            self.full_bw = self.bw.max;
            self.full_bw_cnt = 0;
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_reached = self.full_bw_cnt >= self.full_bw_rounds;
    }

    /// `bbr_check_drain`.
    fn check_drain(&mut self, w: &mut Window, inflight_after: u64) {
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            w.set_ssthresh(self.inflight(self.bw.max, UNIT));
        }
        if self.mode == Mode::Drain && inflight_after <= self.inflight(self.bw.max, UNIT) {
            self.enter_probe_bw();
        }
    }

    /// `bbr_check_probe_rtt_done`.
    fn check_probe_rtt_done(&mut self, w: &mut Window, now: Time) {
        match self.probe_rtt_done_stamp {
            Some(done) if now > done => {}
            _ => return,
        }
        self.min_rtt_stamp = now;
        w.set_cwnd(w.cwnd().max(self.prior_cwnd));
        self.reset_mode();
    }

    /// `bbr_update_min_rtt`, with PROBE_RTT.
    fn update_min_rtt(&mut self, w: &mut Window, now: Time, s: &AckSample, inflight_after: u64) {
        let expired = now.ns() > self.min_rtt_stamp.ns().saturating_add(self.min_rtt_win_ns);
        if let Some(rtt) = s.rtt_ns {
            if rtt <= self.min_rtt_ns || expired {
                self.min_rtt_ns = rtt;
                self.min_rtt_stamp = now;
            }
        }
        if self.probe_rtt_ns > 0 && expired && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.save_cwnd(w.cwnd());
            self.probe_rtt_done_stamp = None;
            self.app_limited_from = s.delivered_bytes;
        }
        if self.mode != Mode::ProbeRtt {
            return;
        }
        self.app_limited_until = (s.delivered_bytes + inflight_after).max(1);
        match self.probe_rtt_done_stamp {
            None if inflight_after <= CWND_MIN_SEGS * self.mss => {
                self.probe_rtt_done_stamp = Some(now.plus_ns(self.probe_rtt_ns));
                self.probe_rtt_round_done = false;
                self.next_rtt_delivered = s.delivered_bytes;
            }
            None => {}
            Some(_) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done {
                    self.check_probe_rtt_done(w, now);
                }
            }
        }
    }

    /// `bbr_update_gains`.
    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (self.high_gain, self.high_gain),
            Mode::Drain => (self.drain_gain, self.high_gain),
            Mode::ProbeBw => (CYCLE[self.cycle_idx], self.probe_bw_cwnd_gain),
            Mode::ProbeRtt => (UNIT, UNIT),
        };
    }

    /// `bbr_set_pacing_rate`, with `bbr_init_pacing_rate_from_rtt` on the
    /// first RTT sample.
    fn set_pacing_rate(&mut self, cwnd: u64) {
        if !self.has_seen_rtt && self.min_rtt_ns != u64::MAX {
            self.has_seen_rtt = true;
            let bw = u128::from(cwnd) * u128::from(NS_PER_S) / u128::from(self.min_rtt_ns.max(1));
            self.pacing_rate = self.rate(bw.min(u128::from(u64::MAX)) as u64, self.high_gain);
        }
        let rate = self.rate(self.bw.max, self.pacing_gain);
        if self.full_bw_reached || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
    }

    /// The target window (`bbr_bdp` + `bbr_quantization_budget`), bytes.
    fn target(&self) -> u64 {
        self.inflight(self.bw.max, self.cwnd_gain)
    }

    /// Leave a recovery or the loss state: the saved cwnd comes back.
    fn restore(&mut self, cwnd: u64) -> u64 {
        self.ca = Ca::Open;
        self.packet_conservation = false;
        cwnd.max(self.prior_cwnd)
    }

    /// The PROBE_RTT cap, applied to whatever set cwnd.
    fn cap(&self, w: &mut Window) {
        if self.mode == Mode::ProbeRtt {
            w.set_cwnd(w.cwnd().min(CWND_MIN_SEGS * self.mss));
        }
    }

    /// `bbr_set_cwnd` with `bbr_set_cwnd_to_recover_or_restore`.
    fn set_cwnd(&mut self, w: &mut Window, s: &AckSample, acked: u64) {
        if acked > 0 {
            let mut cwnd = w.cwnd();
            let leaving = match self.ca {
                Ca::Recovery => !s.in_recovery,
                Ca::Loss => s.delivered_bytes >= self.loss_end_delivered,
                Ca::Open => false,
            };
            if leaving {
                cwnd = self.restore(cwnd);
            }
            if !(self.ca == Ca::Recovery && self.packet_conservation) {
                let target = self.target();
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || s.delivered_bytes < INIT_CWND_SEGS * self.mss {
                    cwnd += acked;
                }
                cwnd = cwnd.max(CWND_MIN_SEGS * self.mss);
            }
            w.set_cwnd(cwnd);
        }
        self.cap(w);
    }
}

impl Controller for Bbr {
    fn on_every_ack(&mut self, w: &mut Window, now: Time, s: &AckSample) {
        if !self.started {
            // bbr_init's stamps, at the connection's first ack.
            self.started = true;
            self.min_rtt_stamp = now;
        }
        // Newly delivered, cumulatively or selectively (Linux's
        // `rs->acked_sacked`); the data in the network before and after the
        // ack, SACKed data left out (`tcp_packets_in_flight`, less its
        // lost count, which the sample does not carry).
        let delivered_now = s.delivered_bytes.saturating_sub(self.delivered);
        let prior_inflight = s.flight_bytes.saturating_sub(self.sacked_out);
        let inflight_after = prior_inflight.saturating_sub(delivered_now);
        self.sacked_out = (self.sacked_out + delivered_now).saturating_sub(s.acked_bytes);
        if delivered_now > 0 {
            self.delivered_at = now;
        }
        if s.acked_bytes > 0 {
            self.dupacks = 0;
        } else if s.dup {
            self.dupacks += 1;
        }
        self.delivered = s.delivered_bytes;
        let losses = std::mem::take(&mut self.loss_pending);
        // bbr_update_model.
        let app_limited = self.update_bw(s);
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(prior_inflight, losses) {
            self.advance_cycle();
        }
        self.check_full_bw_reached(app_limited);
        self.check_drain(w, inflight_after);
        self.update_min_rtt(w, now, s, inflight_after);
        self.update_gains();
        // bbr_main.
        self.set_pacing_rate(w.cwnd());
        self.set_cwnd(w, s, delivered_now);
        self.cwnd_seen = w.cwnd();
    }

    /// BBR's window is set on every ack: no Reno growth.
    fn on_ack(&mut self, _w: &mut Window, _now: Time, _s: &AckSample) {}

    fn ssthresh(&mut self, w: &Window, _now: Time, _ev: &CongestionEvent) -> u64 {
        self.cwnd_at_cut = w.cwnd();
        self.save_cwnd(w.cwnd());
        w.ssthresh()
    }

    fn on_cut(&mut self, w: &mut Window, _now: Time, ev: &CongestionEvent) {
        let restarted = w.cwnd() < w.ssthresh();
        match ev.kind {
            CongestionKind::Ecn => w.set_cwnd(self.cwnd_at_cut),
            CongestionKind::Timeout => self.enter_loss(ev),
            CongestionKind::FastRetransmit if restarted => self.enter_loss(ev),
            CongestionKind::FastRetransmit => {
                self.loss_pending = true;
                self.ca = Ca::Recovery;
                self.packet_conservation = true;
                self.next_rtt_delivered = self.delivered;
                // Reno's inflation allowance (DupThresh segments) counts the
                // duplicates' segments in its flight; RFC 6675's pipe
                // leaves them out: the SACKed bytes, or without SACK
                // blocks a segment per duplicate.
                let allowance = w.cwnd().saturating_sub(w.ssthresh());
                let sacked = if self.sacked_out > 0 { self.sacked_out } else { self.dupacks * self.mss };
                w.set_cwnd(ev.flight_bytes.saturating_sub(sacked) + allowance);
            }
        }
        self.cap(w);
    }

    fn on_recovery_exit(&mut self, w: &mut Window, _now: Time) {
        if self.ca == Ca::Open {
            return;
        }
        let mut cwnd = self.restore(self.cwnd_seen);
        if self.full_bw_reached {
            cwnd = cwnd.min(self.target());
        }
        w.set_cwnd(cwnd.max(CWND_MIN_SEGS * self.mss));
        self.cap(w);
    }

    fn pacing_rate(&self) -> Option<u64> {
        Some(self.pacing_rate)
    }
}

impl Bbr {
    /// `TCP_CA_Loss` (`bbr_set_state`): the rule's window stays; the state
    /// ends once what was outstanding is delivered.
    fn enter_loss(&mut self, ev: &CongestionEvent) {
        self.loss_pending = true;
        self.ca = Ca::Loss;
        self.packet_conservation = false;
        self.full_bw = 0;
        // The SACKed part of the flight is delivered already.
        self.loss_end_delivered = self.delivered + ev.flight_bytes.saturating_sub(self.sacked_out);
    }
}

#[cfg(test)]
mod tests {
    //! Timelines of synthetic acks, one segment = 1000 bytes, min_rtt 40 ms.
    //! Each expected number is worked out in the comments from the rules
    //! in the module's docs (Linux's `tcp_bbr.c`).
    use super::*;
    use crate::cc::{CcConfig, CongestionControl, LossCause, RateSample, RetransmitWindow};

    const MSS: u64 = 1000;
    const RTT: u64 = 40 * NS_PER_MS;

    fn ms(m: u64) -> Time {
        Time::from_ns(m * NS_PER_MS)
    }

    fn window() -> Window {
        Window::new(RetransmitWindow::Inflate, MSS as u32, 10, u64::from(u32::MAX))
    }

    fn bbr_with(given: &[(&str, f64)]) -> Bbr {
        Bbr::new(&CcConfig::named("bbr", given).unwrap().params, &window())
    }

    /// An ack delivering `acked` bytes after `delivered_before`, `flight`
    /// outstanding before it, RTT 40 ms, and (with `bw`) a rate sample of
    /// `bw` bytes/s over 40 ms whose segment left when `delivered_before`
    /// had been delivered: it starts a round unless `prior_delivered_bytes`
    /// is lowered.
    fn sample(delivered_before: u64, acked: u64, flight: u64, bw: Option<u64>) -> AckSample {
        AckSample {
            acked_bytes: acked,
            flight_bytes: flight,
            rtt_ns: Some(RTT),
            delivered_bytes: delivered_before + acked,
            rate: bw.map(|bw| RateSample {
                delivered_bytes: bw / 25,
                interval_ns: RTT,
                prior_delivered_bytes: delivered_before,
                app_limited: false,
            }),
            ..AckSample::default()
        }
    }

    /// A BBR member and its window, fed acks.
    #[derive(Clone)]
    struct Feed {
        b: Bbr,
        w: Window,
        delivered: u64,
    }

    impl Feed {
        fn new() -> Feed {
            Feed { b: bbr_with(&[]), w: window(), delivered: 0 }
        }
        fn sample(&self, acked: u64, flight: u64, bw: Option<u64>) -> AckSample {
            sample(self.delivered, acked, flight, bw)
        }
        fn feed(&mut self, t: Time, s: AckSample) {
            self.delivered = s.delivered_bytes;
            self.b.on_every_ack(&mut self.w, t, &s);
        }
        /// A round-starting ack of `acked` bytes with a `bw` sample.
        fn ack(&mut self, t: Time, acked: u64, flight: u64, bw: u64) {
            let s = self.sample(acked, flight, Some(bw));
            self.feed(t, s);
        }
    }

    /// The bandwidths of the STARTUP timeline: doubling, then flat at
    /// 10 Mb/s (1.25 MB/s).
    const STARTUP_BW: [u64; 7] = [250_000, 500_000, 1_000_000, 1_250_000, 1_250_000, 1_250_000, 1_250_000];

    /// STARTUP to PROBE_BW (see the first test): acks 1-7 every 40 ms, then
    /// the draining ack at 320 ms.
    fn to_probe_bw() -> Feed {
        let mut f = Feed::new();
        for (i, &bw) in STARTUP_BW.iter().enumerate() {
            f.ack(ms(40 * (i as u64 + 1)), 10_000, 100_000, bw);
        }
        f.ack(ms(320), 10_000, 60_000, 1_250_000);
        f
    }

    #[test]
    fn startup_drain_probe_bw_on_flat_bandwidth() {
        let mut f = Feed::new();
        assert_eq!((f.b.high_gain, f.b.drain_gain), (739, 88), "Linux's 256*2885/1000+1 and 256*1000/2885");
        // One ack per round every 40 ms, 10 segments acked, 100 in flight.
        // Ack 1 (250 kB/s): min_rtt 40 ms; full_bw = 250k (>= 0 * 1.25).
        // Pacing from the first RTT: 10 000 B / 40 ms = 250 000 B/s,
        // * 739/256 = 721 679, * 0.99 = 714 462.
        // Target: 250 000 * 0.04 = 10 000 B * 739/256 = 28.87 -> 29 segments,
        // + 3 = 32 (even): cwnd 10 000 < 32 000 grows by the 10 000 acked.
        f.ack(ms(40), 10_000, 100_000, 250_000);
        assert_eq!((f.b.mode(), f.b.min_rtt_ns(), f.b.rounds()), (Mode::Startup, Some(RTT), 1));
        assert_eq!(f.b.gains(), (739, 739));
        assert_eq!(f.b.pacing_rate(), Some(714_462));
        assert_eq!(f.w.cwnd(), 20_000);
        // Ack 2 (500 kB/s >= 250k * 1.25): full_bw 500k; pacing 500 000 *
        // 739/256 = 1 443 359 * 0.99 = 1 428 925; cwnd 30 000 (< 62 000).
        f.ack(ms(80), 10_000, 100_000, 500_000);
        assert_eq!((f.b.pacing_rate(), f.w.cwnd()), (Some(1_428_925), 30_000));
        // Ack 3 (1 MB/s), ack 4 (1.25 MB/s = 1M * 320/256 exactly: growth).
        f.ack(ms(120), 10_000, 100_000, 1_000_000);
        f.ack(ms(160), 10_000, 100_000, 1_250_000);
        assert_eq!((f.b.full_bw, f.b.full_bw_cnt), (1_250_000, 0));
        // Acks 5 and 6: flat, below 1.25 * 1.25M: rounds 1 and 2 without growth.
        f.ack(ms(200), 10_000, 100_000, 1_250_000);
        f.ack(ms(240), 10_000, 100_000, 1_250_000);
        assert_eq!((f.b.mode(), f.b.full_bw_cnt, f.w.cwnd()), (Mode::Startup, 2, 70_000));
        // Ack 7: the third round: the pipe is full, DRAIN. ssthresh = the
        // target at gain 1: 50 000 B = 50 segments + 3 = 53 -> 54 (even).
        // 90 000 still in flight after the ack > 54 000: DRAIN stays.
        // Pacing 1.25M * 88/256 = 429 687 * 0.99 = 425 390 (lowered: the
        // pipe is full). cwnd: min(70 000 + 10 000, target at 739/256 =
        // 50 * 2.887 = 144.3 -> 145 + 3 = 148 segments) = 80 000.
        f.ack(ms(280), 10_000, 100_000, 1_250_000);
        assert!(f.b.full_bw_reached());
        assert_eq!((f.b.mode(), f.b.gains()), (Mode::Drain, (88, 739)));
        assert_eq!(f.w.ssthresh(), 54_000);
        assert_eq!(f.b.pacing_rate(), Some(425_390));
        assert_eq!(f.w.cwnd(), 80_000);
        // Ack 8: 60 000 - 10 000 = 50 000 <= 54 000 in flight: PROBE_BW.
        // Phase from seed 0: splitmix64's first output 0xE220A8397B1DCDAF,
        // high 32 bits * 7 >> 32 = 6, cycle_idx = 7 - 6 = 1, advanced: 2
        // (gain 1). cwnd: min(90 000, target at 2: 100 + 3 -> 104 segments).
        // Pacing 1.25M * 0.99 = 1 237 500.
        f.ack(ms(320), 10_000, 60_000, 1_250_000);
        assert_eq!((f.b.mode(), f.b.cycle_index(), f.b.gains()), (Mode::ProbeBw, 2, (256, 512)));
        assert_eq!((f.w.cwnd(), f.b.pacing_rate()), (90_000, Some(1_237_500)));
    }

    /// DRAIN ends on the data in the network, SACKed data out of it
    /// (Linux's `tcp_packets_in_flight`): after STARTUP's seven acks (DRAIN,
    /// the target at gain 1 is 54 000), the cumulative ack stays while
    /// duplicates SACK 8000 and then 6000 bytes of the 68 000 outstanding.
    #[test]
    fn drain_ends_when_the_unsacked_flight_is_down_to_the_target() {
        let mut f = Feed::new();
        for (i, &bw) in STARTUP_BW.iter().enumerate() {
            f.ack(ms(40 * (i as u64 + 1)), 10_000, 100_000, bw);
        }
        assert_eq!((f.b.mode(), f.w.ssthresh()), (Mode::Drain, 54_000));
        // 68 000 - 8000 = 60 000 > 54 000 left: DRAIN.
        f.feed(ms(290), sack_dup(f.delivered, 8000, 68_000));
        assert_eq!(f.b.mode(), Mode::Drain);
        // 68 000 - 8000 SACKed before = 60 000, less 6000 = 54 000: PROBE_BW
        // (68 000 - 6000 = 62 000 if the SACKed stayed counted).
        f.feed(ms(291), sack_dup(f.delivered, 6000, 68_000));
        assert_eq!(f.b.mode(), Mode::ProbeBw);
    }

    #[test]
    fn gain_cycle_order_and_phase_ends() {
        let mut f = to_probe_bw();
        // Phase 2 began at 320 ms. Gain-1 phases last more than min_rtt of
        // delivery time: at 360 ms (40 ms, not more) it stays.
        f.ack(ms(360), 1000, 60_000, 1_250_000);
        assert_eq!(f.b.cycle_index(), 2);
        let mut gains = vec![f.b.gains().0];
        // Every 41 ms: phases 3, 4, 5, 6, 7, then 0 (5/4).
        let mut t = 320;
        for _ in 0..6 {
            t += 41;
            f.ack(ms(t), 1000, 60_000, 1_250_000);
            gains.push(f.b.gains().0);
        }
        assert_eq!(f.b.cycle_index(), 0);
        // Phase 0 paces at 1.25M * 320/256 = 1 562 500 * 0.99 = 1 546 875.
        assert_eq!(f.b.pacing_rate(), Some(1_546_875));
        // 5/4 ends after min_rtt only once the flight (+ 1 quantum) reaches
        // the target at 5/4: 50 * 1.25 = 62.5 -> 63 + 3 = 66 (even) + 2 in
        // phase 0 = 68 segments. 66 000 + 1000 < 68 000: it stays.
        t += 41;
        f.ack(ms(t), 1000, 66_000, 1_250_000);
        assert_eq!(f.b.cycle_index(), 0, "inflight below 5/4 BDP: keep probing");
        t += 1;
        f.ack(ms(t), 1000, 67_000, 1_250_000);
        assert_eq!(f.b.cycle_index(), 1);
        gains.push(f.b.gains().0);
        // 3/4 paces at 1.25M * 192/256 * 0.99 = 928 125; it ends before
        // min_rtt once the flight is down to the target at 1: 54 000.
        assert_eq!(f.b.pacing_rate(), Some(928_125));
        t += 1;
        f.ack(ms(t), 1000, 55_000, 1_250_000);
        assert_eq!(f.b.cycle_index(), 1);
        t += 1;
        f.ack(ms(t), 1000, 54_000, 1_250_000);
        assert_eq!(f.b.cycle_index(), 2, "drained early");
        gains.push(f.b.gains().0);
        assert_eq!(gains, [256, 256, 256, 256, 256, 256, 320, 192, 256]);
    }

    /// Linux ends the 5/4 phase on a loss even below its target.
    #[test]
    fn probe_phase_ends_on_a_loss() {
        let mut f = to_probe_bw();
        let mut t = 320;
        for _ in 0..6 {
            t += 41;
            f.ack(ms(t), 1000, 60_000, 1_250_000);
        }
        assert_eq!(f.b.cycle_index(), 0);
        t += 41;
        f.ack(ms(t), 1000, 60_000, 1_250_000);
        assert_eq!(f.b.cycle_index(), 0);
        let ev = CongestionEvent::new(CongestionKind::FastRetransmit, LossCause::Congestion, 60_000, u64::MAX);
        let ss = f.b.ssthresh(&f.w, ms(t), &ev);
        f.w.cut_no_inflation(ss);
        f.b.on_cut(&mut f.w, ms(t), &ev);
        let mut s = f.sample(1000, 60_000, Some(1_250_000));
        s.in_recovery = true;
        f.feed(ms(t + 1), s);
        assert_eq!(f.b.cycle_index(), 1, "a loss ends the probe");
    }

    /// `cycle_idx = 8 - 1 - rand(7)`, advanced: never phase 1 (3/4), every
    /// other phase from some seed.
    #[test]
    fn probe_bw_starts_anywhere_but_the_drain_phase() {
        let mut seen = [0u32; 8];
        for seed in 0..700 {
            let mut b = bbr_with(&[("cycle_seed", f64::from(seed))]);
            b.enter_probe_bw();
            seen[b.cycle_index()] += 1;
        }
        assert_eq!(seen[1], 0);
        assert!(seen.iter().enumerate().all(|(i, &n)| i == 1 || n > 50), "{seen:?}");
        // Deterministic: the same seed, the same phases.
        let (mut a, mut b) = (bbr_with(&[("cycle_seed", 7.0)]), bbr_with(&[("cycle_seed", 7.0)]));
        for _ in 0..5 {
            a.enter_probe_bw();
            b.enter_probe_bw();
            assert_eq!(a.cycle_index(), b.cycle_index());
        }
    }

    /// A sample of round r counts through round r + 10, as win_minmax's
    /// `dt > win` keeps it, and no longer.
    #[test]
    fn bandwidth_filter_is_the_max_over_ten_rounds() {
        let mut f = Feed::new();
        // Round 1: 1 MB/s; rounds 2-11: 500 kB/s.
        f.ack(ms(40), 1000, 100_000, 1_000_000);
        for r in 2..=11 {
            f.ack(ms(40 * r), 1000, 100_000, 500_000);
        }
        assert_eq!((f.b.rounds(), f.b.max_bw()), (11, 1_000_000), "round 1 + 10");
        f.ack(ms(40 * 12), 1000, 100_000, 500_000);
        assert_eq!((f.b.rounds(), f.b.max_bw()), (12, 500_000));

        // With a second best: round 1 2 MB/s, round 3 1.5 MB/s, others 400 kB/s.
        let mut f = Feed::new();
        for r in 1..=14 {
            let bw = match r {
                1 => 2_000_000,
                3 => 1_500_000,
                _ => 400_000,
            };
            f.ack(ms(40 * r), 1000, 100_000, bw);
            let want = match r {
                ..=11 => 2_000_000,
                12..=13 => 1_500_000,
                _ => 400_000,
            };
            assert_eq!(f.b.max_bw(), want, "round {r}");
        }

        // Acks within a round do not start rounds (their segments left
        // before the round's mark); the round's largest sample counts.
        let mut f = Feed::new();
        f.ack(ms(40), 1000, 100_000, 300_000);
        let mut s = f.sample(1000, 100_000, Some(900_000));
        s.rate.as_mut().unwrap().prior_delivered_bytes = 0;
        f.feed(ms(41), s);
        assert_eq!((f.b.rounds(), f.b.max_bw()), (1, 900_000));
    }

    /// App-limited samples: one below the estimate is skipped (and ages
    /// nothing), one at or above it counts.
    #[test]
    fn app_limited_samples_only_raise_the_estimate() {
        let mut f = Feed::new();
        f.ack(ms(40), 1000, 100_000, 1_000_000);
        for r in 2..=20 {
            let mut s = f.sample(1000, 100_000, Some(500_000));
            s.rate.as_mut().unwrap().app_limited = true;
            f.feed(ms(40 * r), s);
        }
        assert_eq!((f.b.rounds(), f.b.max_bw()), (20, 1_000_000), "app-limited samples do not age the filter");
        let mut s = f.sample(1000, 100_000, Some(1_200_000));
        s.rate.as_mut().unwrap().app_limited = true;
        f.feed(ms(840), s);
        assert_eq!(f.b.max_bw(), 1_200_000);
        // Nor do app-limited rounds count toward a full pipe.
        assert_eq!((f.b.full_bw_cnt, f.b.mode()), (0, Mode::Startup));
    }

    /// PROBE_RTT: entered when min_rtt has not been refreshed for 10 s; cwnd
    /// 4 segments; left after 200 ms and a round at that flight.
    #[test]
    fn probe_rtt_after_ten_seconds_without_a_new_min_rtt() {
        let mut f = to_probe_bw();
        // min_rtt (40 ms) was last matched at 320 ms. Acks every second
        // with 45 ms RTT do not refresh it.
        let ack45 = |f: &mut Feed, t: u64, acked: u64, flight: u64| {
            let mut s = f.sample(acked, flight, Some(1_250_000));
            s.rtt_ns = Some(45 * NS_PER_MS);
            f.feed(ms(t), s);
        };
        for t in (1320..=10_320).step_by(1000) {
            ack45(&mut f, t, 1000, 91_000);
            assert_ne!(f.b.mode(), Mode::ProbeRtt, "{t} ms: 10 s not exceeded");
        }
        let prior = f.w.cwnd();
        assert_eq!(prior, 100_000, "min(90 000 + 10 acks of 1000, target 104 000 or 106 000)");
        // 10.321 s: the filter has expired: PROBE_RTT; the 45 ms sample is
        // the new min_rtt. cwnd capped at 4 segments, gains 1 and 1.
        ack45(&mut f, 10_321, 1000, 91_000);
        assert_eq!((f.b.mode(), f.b.gains(), f.w.cwnd()), (Mode::ProbeRtt, (256, 256), 4000));
        assert_eq!(f.b.min_rtt_ns(), Some(45 * NS_PER_MS));
        assert_eq!(f.b.prior_cwnd, prior, "max(saved 0, cwnd 100 000)");
        let mut f2 = f.clone();

        // A: the flight drains to 4 segments at 10.361 s: 200 ms from
        // there (that ack's 40 ms RTT is min_rtt again). A round (a segment sent after that point acked) ends at
        // 10.401 s; the 200 ms are over after 10.561 s.
        f.feed(ms(10_361), f.sample(10_000, 14_000, None)); // 4000 left in flight
        let mark = f.delivered;
        assert_eq!(f.b.probe_rtt_done_stamp, Some(ms(10_561)));
        let mut s = f.sample(1000, 4000, Some(100_000));
        s.rate.as_mut().unwrap().prior_delivered_bytes = mark;
        f.feed(ms(10_401), s);
        assert_eq!((f.b.mode(), f.w.cwnd()), (Mode::ProbeRtt, 4000), "a round, but 40 ms < 200 ms");
        f.ack(ms(10_561), 1000, 4000, 100_000);
        assert_eq!(f.b.mode(), Mode::ProbeRtt, "200 ms exactly: not yet over");
        // 10.562 s: done. cwnd = max(4000, saved 100 000), then the ack's
        // min(cwnd + 1000, target): PROBE_BW's next phase from the seed's
        // second draw; min_rtt's stamp renewed.
        f.ack(ms(10_562), 1000, 4000, 100_000);
        assert_eq!(f.b.mode(), Mode::ProbeBw);
        assert_eq!(f.b.min_rtt_stamp, ms(10_562));
        // Target at min_rtt 40 ms: 104 segments (106 in phase 0):
        // min(100 000 + 1000, 104 000).
        assert_eq!(f.w.cwnd(), 101_000);

        // B: 200 ms pass without a round: PROBE_RTT holds until one ends.
        f2.feed(ms(10_361), f2.sample(10_000, 14_000, None));
        assert_eq!(f2.delivered, mark);
        for t in [10_500, 10_600, 10_700] {
            let mut s = f2.sample(500, 4000, Some(100_000));
            s.rate.as_mut().unwrap().prior_delivered_bytes = mark - 1; // sent before the mark
            f2.feed(ms(t), s);
            assert_eq!((f2.b.mode(), f2.w.cwnd()), (Mode::ProbeRtt, 4000), "{t} ms: no round yet");
        }
        f2.ack(ms(10_740), 1000, 4000, 100_000);
        assert_eq!(f2.b.mode(), Mode::ProbeBw, "a round and 200 ms");
    }

    /// Linux marks the connection app-limited in PROBE_RTT: the low rates
    /// of its 4-segment flight must not replace the estimate, even when
    /// PROBE_RTT lasts more than 10 rounds (here 12 rounds of 15 ms).
    #[test]
    fn probe_rtt_samples_are_app_limited() {
        let mut f = to_probe_bw();
        let mut t = 320;
        while t < 10_300 {
            t += 1000;
            let mut s = f.sample(1000, 91_000, Some(1_250_000));
            s.rtt_ns = Some(45 * NS_PER_MS);
            f.feed(ms(t), s);
        }
        let mut s = f.sample(1000, 91_000, Some(1_250_000));
        s.rtt_ns = Some(45 * NS_PER_MS);
        f.feed(ms(10_321), s);
        assert_eq!(f.b.mode(), Mode::ProbeRtt);
        let round = f.b.rounds();
        f.feed(ms(10_361), f.sample(10_000, 14_000, None));
        for i in 1..=12 {
            f.ack(ms(10_361 + 15 * i), 1000, 4000, 100_000);
        }
        assert_eq!(f.b.rounds(), round + 12);
        assert_eq!((f.b.mode(), f.b.max_bw()), (Mode::ProbeRtt, 1_250_000));
    }

    /// A sample at or below min_rtt renews its stamp: the 10 s count again.
    #[test]
    fn a_new_min_rtt_postpones_probe_rtt() {
        let mut f = to_probe_bw();
        f.ack(ms(5000), 1000, 91_000, 1_250_000); // RTT 40 ms = min_rtt
        let mut s = f.sample(1000, 91_000, Some(1_250_000));
        s.rtt_ns = Some(45 * NS_PER_MS);
        f.feed(ms(10_400), s);
        assert_eq!(f.b.mode(), Mode::ProbeBw);
        let mut s = f.sample(1000, 91_000, Some(1_250_000));
        s.rtt_ns = Some(45 * NS_PER_MS);
        f.feed(ms(15_001), s);
        assert_eq!(f.b.mode(), Mode::ProbeRtt);
    }

    /// The controller through the family's table, with the window's loss
    /// rules: packet conservation on entry, the saved cwnd on exit.
    fn cc_in_probe_bw() -> (CongestionControl, u64) {
        let cfg = CcConfig::named("bbr", &[]).unwrap();
        let mut cc = CongestionControl::new(RetransmitWindow::Inflate, MSS as u32, 10, u64::from(u32::MAX))
            .with_controller(&cfg);
        let mut delivered = 0;
        let mut step = |cc: &mut CongestionControl, t: u64, flight: u64, bw: u64| {
            let s = sample(delivered, 10_000, flight, Some(bw));
            delivered = s.delivered_bytes;
            cc.on_every_ack(ms(t), &s);
        };
        for (i, &bw) in STARTUP_BW.iter().enumerate() {
            step(&mut cc, 40 * (i as u64 + 1), 100_000, bw);
        }
        step(&mut cc, 320, 60_000, 1_250_000);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (90_000, 54_000));
        (cc, delivered)
    }

    fn dupack(flight: u64, delivered: u64, in_recovery: bool) -> AckSample {
        AckSample { dup: true, flight_bytes: flight, delivered_bytes: delivered, in_recovery, ..AckSample::default() }
    }

    #[test]
    fn reno_recovery_conserves_packets_then_restores_the_saved_window() {
        let (mut cc, mut delivered) = cc_in_probe_bw();
        let fr = CongestionEvent::new(CongestionKind::FastRetransmit, LossCause::Congestion, 90_000, u64::MAX);
        for t in [321, 322, 323] {
            cc.on_every_ack(ms(t), &dupack(90_000, delivered, false));
        }
        assert_eq!(cc.cwnd(), 90_000, "duplicates deliver nothing: BBR leaves cwnd");
        // Saved cwnd 90 000; ssthresh kept (54 000, DRAIN's); Reno's rule
        // 54 000 + 3 * 1000 = 57 000; BBR: the flight, 90 000 - 3 dupacks'
        // 3000 + Reno's 3000 allowance = 90 000: nothing new until a
        // further duplicate inflates it (one segment per segment gone).
        cc.on_congestion(ms(323), &fr, 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (90_000, 54_000));
        cc.on_every_ack(ms(324), &dupack(90_000, delivered, true));
        cc.on_dupack_in_recovery();
        assert_eq!(cc.cwnd(), 91_000);
        // A partial ack in the first round (its segment left before the
        // cut): BBR leaves cwnd; NewReno deflates 91 000 - 5000 + 1000.
        let mut s = sample(delivered, 5000, 91_000, Some(1_250_000));
        s.rate.as_mut().unwrap().prior_delivered_bytes = delivered - 1;
        s.in_recovery = true;
        delivered = s.delivered_bytes;
        cc.on_every_ack(ms(330), &s);
        assert_eq!(cc.cwnd(), 91_000);
        cc.on_partial_ack(5000);
        assert_eq!(cc.cwnd(), 87_000);
        // A round later: BBR's rule, min(87 000 + 5000, 104 000), then the deflation.
        let mut s = sample(delivered, 5000, 87_000, Some(1_250_000));
        s.in_recovery = true;
        delivered = s.delivered_bytes;
        cc.on_every_ack(ms(340), &s);
        assert_eq!(cc.cwnd(), 92_000);
        cc.on_partial_ack(5000);
        assert_eq!(cc.cwnd(), 88_000);
        // The exit: 89 000 after the ack; the window's deflation to
        // ssthresh (54 000) is discarded; max(89 000, saved 90 000).
        let mut s = sample(delivered, 1000, 88_000, Some(1_250_000));
        s.in_recovery = true;
        cc.on_every_ack(ms(350), &s);
        assert_eq!(cc.cwnd(), 89_000);
        cc.on_recovery_exit(ms(350));
        assert_eq!(cc.cwnd(), 90_000);
    }

    /// RFC 6675's rule counts pipe: the three SACKed segments are out of it.
    #[test]
    fn sack_recovery_enters_at_the_flight_less_the_sacked() {
        let (mut cc, delivered) = cc_in_probe_bw();
        for t in [321, 322, 323] {
            cc.on_every_ack(ms(t), &dupack(90_000, delivered, false));
        }
        let fr = CongestionEvent::new(CongestionKind::FastRetransmit, LossCause::Congestion, 90_000, u64::MAX);
        cc.on_congestion_no_inflation(ms(323), &fr);
        assert_eq!(cc.cwnd(), 87_000);
    }

    /// A duplicate ack whose SACK block delivers `sacked` bytes (the
    /// sender counts SACKed data as delivered, Linux's `tp->delivered`).
    fn sack_dup(delivered_before: u64, sacked: u64, flight: u64) -> AckSample {
        let mut s = sample(delivered_before, sacked, flight, Some(1_250_000));
        (s.acked_bytes, s.sacked_bytes, s.dup) = (0, sacked, true);
        s
    }

    /// With SACK blocks, the entry's packet conservation counts what they
    /// delivered (Linux: `tcp_packets_in_flight`, SACKed segments out), not
    /// a segment per duplicate.
    #[test]
    fn sack_recovery_enters_at_the_flight_less_the_sacked_bytes() {
        let (mut cc, mut delivered) = cc_in_probe_bw();
        // Three duplicates SACK 1000, 2000 (an ack between them was lost)
        // and 1000 bytes. Delivered data outside recovery grows cwnd
        // (Linux's acked_sacked): min(90 000 + 4000, 104 000).
        for (t, sacked) in [(321, 1000), (322, 2000), (323, 1000)] {
            let s = sack_dup(delivered, sacked, 90_000);
            delivered = s.delivered_bytes;
            cc.on_every_ack(ms(t), &s);
        }
        assert_eq!(cc.cwnd(), 94_000);
        // RFC 6675's rule leaves cwnd at ssthresh (no allowance); BBR: the
        // 90 000 outstanding less the 4000 SACKed = 86 000 (a segment per
        // duplicate would say 87 000; the duplicates' deliveries, taken as
        // data delivered, would say 90 000).
        let fr = CongestionEvent::new(CongestionKind::FastRetransmit, LossCause::Congestion, 90_000, u64::MAX);
        cc.on_congestion_no_inflation(ms(323), &fr);
        assert_eq!(cc.cwnd(), 86_000);
    }

    /// After a timeout the loss state ends when the data outstanding at it
    /// is delivered: the SACKed part of it was delivered already.
    #[test]
    fn the_loss_state_ends_when_the_unsacked_flight_is_delivered() {
        let (mut cc, mut delivered) = cc_in_probe_bw();
        for t in [321, 322] {
            let s = sack_dup(delivered, 2000, 90_000);
            delivered = s.delivered_bytes;
            cc.on_every_ack(ms(t), &s);
        }
        assert_eq!(cc.cwnd(), 94_000, "min(90 000 + 2 x 2000, 104 000)");
        // The timeout saves 94 000; 90 000 outstanding, 4000 of it SACKed:
        // the loss state ends 86 000 delivered bytes later.
        let rto = CongestionEvent::new(CongestionKind::Timeout, LossCause::Congestion, 90_000, u64::MAX);
        cc.on_congestion(ms(600), &rto, 3);
        assert_eq!(cc.cwnd(), 1000);
        // 84 000 cumulatively acked, none of it SACKed before: still in the
        // loss state, min(1000 + 84 000, 104 000).
        let s = sample(delivered, 84_000, 90_000, Some(1_250_000));
        delivered = s.delivered_bytes;
        cc.on_every_ack(ms(700), &s);
        assert_eq!(cc.cwnd(), 85_000);
        // The cumulative ack passes 2000 new bytes and the 4000 SACKed: 2000
        // delivered, 86 000 since the timeout: the state ends, cwnd =
        // max(85 000, saved 94 000), then min(94 000 + 2000, 104 000).
        let mut s = sample(delivered, 2000, 6000, Some(1_250_000));
        s.acked_bytes = 6000;
        cc.on_every_ack(ms(740), &s);
        assert_eq!(cc.cwnd(), 96_000);
    }

    #[test]
    fn timeout_then_growth_then_the_saved_window_at_the_loss_end() {
        let (mut cc, mut delivered) = cc_in_probe_bw();
        let rto = CongestionEvent::new(CongestionKind::Timeout, LossCause::Congestion, 90_000, u64::MAX);
        cc.on_congestion(ms(600), &rto, 3);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (1000, 54_000), "the one-segment loss window; ssthresh kept");
        // An ack: min(1000 + 1000, target), then at least 4 segments.
        let s = sample(delivered, 1000, 1000, Some(1_250_000));
        delivered = s.delivered_bytes;
        cc.on_every_ack(ms(700), &s);
        assert_eq!(cc.cwnd(), 4000);
        let s = sample(delivered, 4000, 4000, Some(1_250_000));
        delivered = s.delivered_bytes;
        cc.on_every_ack(ms(740), &s);
        assert_eq!(cc.cwnd(), 8000, "grows by what is acked");
        // The 90 000 outstanding at the timeout are delivered (85 000 more):
        // the loss state ends, cwnd = max(8000, saved 90 000), then the ack's
        // min(cwnd + acked, 104 000).
        let s = sample(delivered, 85_000, 85_000, Some(1_250_000));
        cc.on_every_ack(ms(780), &s);
        assert_eq!(cc.cwnd(), 104_000);
    }

    /// BBR v1 does not cut on ECN-Echo (Linux's CWR without PRR).
    #[test]
    fn ecn_echo_leaves_the_window() {
        let (mut cc, _) = cc_in_probe_bw();
        let ev = CongestionEvent::new(CongestionKind::Ecn, LossCause::Congestion, 90_000, u64::MAX);
        cc.on_ecn_echo(ms(330), &ev);
        assert_eq!((cc.cwnd(), cc.ssthresh()), (90_000, 54_000));
    }

    #[test]
    fn listed_in_the_family_with_linux_defaults() {
        let cfg = CcConfig::named("bbr", &[]).unwrap();
        assert_eq!(cfg.name.as_str(), "bbr");
        let names: Vec<_> = PARAMS.iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            ["high_gain", "cwnd_gain", "bw_rtts", "min_rtt_win_s", "probe_rtt_ms", "full_bw_thresh", "full_bw_cnt", "cycle_seed"]
        );
        assert_eq!(&cfg.params, &[2.885, 2.0, 10.0, 10.0, 200.0, 1.25, 3.0, 0.0]);
        let cc = CongestionControl::new(RetransmitWindow::Inflate, MSS as u32, 10, 1 << 30).with_controller(&cfg);
        // Before an RTT sample: 10 000 B per nominal 1 ms = 10 MB/s * 739/256
        // = 28 867 187 * 0.99 = 28 578 515.
        assert_eq!(cc.pacing_rate(), Some(28_578_515));
        let mut cc = cc;
        cc.on_ack_bytes(ms(1), 1000, 10_000);
        assert_eq!(cc.cwnd(), 10_000, "no Reno growth");
    }
}
