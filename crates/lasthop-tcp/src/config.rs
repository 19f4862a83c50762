//! Endpoint configuration in the units the models use (bytes, nanoseconds).
//! The scenario layer converts user units (ms, s) into these once.

pub use crate::acc::{AccConfig, AccMode};
pub use crate::ll_elsn::{LlElsnConfig, LlElsnResponse};
pub use crate::sender_adaptation::AdaptationConfig;
use lasthop_core::time::{NS_PER_MS, NS_PER_S};
use serde::{Deserialize, Serialize};

/// A TCP sender variant: the (congestion control, loss recovery) pair it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Jacobson 1988: slow start, congestion avoidance, fast retransmit
    /// followed by slow start (no fast recovery).
    Tahoe,
    /// RFC 5681: fast retransmit and fast recovery, leaving recovery on the
    /// first new ack.
    Reno,
    /// RFC 6582: Reno whose fast recovery lasts until the recovery point is
    /// acknowledged, retransmitting one hole per partial ack.
    Newreno,
    /// RFC 6675 SACK-based loss recovery with Reno's window rules (the
    /// receiver must send SACK blocks).
    Sack,
    /// SMART (seed 000 Sec. II): every gap the receiver's echoes reveal is a
    /// loss at once; Reno's window cut once per loss episode (the receiver
    /// must echo).
    Smart,
    /// TCP-DCR (Bhandarkar et al. 2005; seed 004 Sec. 2.3): NewReno whose
    /// fast retransmit waits one round trip after the first duplicate ack
    /// ([`crate::recovery::dcr`]).
    Dcr,
}

impl Variant {
    pub const NAMES: [&'static str; 6] = ["tahoe", "reno", "newreno", "sack", "smart", "dcr"];
}

/// How a sender answers duplicate acks that carry an ELN mark (seed 000
/// Sec. III-A): retransmit "without invoking the associated congestion-control
/// procedures".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ElnResponse {
    /// Ignore the mark.
    #[default]
    Off,
    /// Retransmit at the third marked duplicate ack (E2E-ELN).
    ThirdDupack,
    /// Retransmit at the first marked duplicate ack (E2E-ELN-RXMT).
    FirstDupack,
}

/// How congestion avoidance opens the window per ack of new data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WindowGrowth {
    /// RFC 5681 3.1: cwnd += SMSS·SMSS/cwnd; slow start while cwnd < ssthresh.
    #[default]
    Rfc5681,
    /// 4.4BSD-Lite `tcp_input` (BSD/OS 2.1): cwnd += maxseg·maxseg/cwnd +
    /// maxseg/8, "to help larger windows open quickly enough"; slow start
    /// while cwnd <= ssthresh.
    Bsd44,
}

/// What bounds the congestion window's growth: the rule of the stack a
/// sender models (issue 29: unbounded, an error-free run with a 1 MB buffer
/// grew cwnd to 33.8 MB, and the cwnd metric meant nothing). An explicit
/// `max_cwnd_bytes` caps it further under any rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CwndBound {
    /// Linux `tcp_is_cwnd_limited()` (include/net/tcp.h; the principle of
    /// RFC 7661 Sec. 4.3, and of RFC 2861 before it): an ack opens the
    /// window only while the window limits sending: in slow start while
    /// `cwnd < 2 * max_packets_out` ("ensure cwnd grows to twice what was
    /// ACKed"), in congestion avoidance while the data in flight filled it
    /// (`tcp_cwnd_validate`: `packets_in_flight >= snd_cwnd`). A sender
    /// limited by the peer's window or by its socket buffer keeps cwnd
    /// within twice what it sends. Departure: the flight is the one the ack
    /// found, not the largest of the window (`max_packets_out`).
    #[default]
    CwndLimited,
    /// 4.4BSD-Lite `tcp_input`: `snd_cwnd = min(cw + incr, TCP_MAXWIN <<
    /// snd_scale)`, the largest window the peer can advertise; `snd_scale`
    /// is the shift the peer requests for its socket buffer (RFC 7323 Sec.
    /// 2.3, [`crate::window_scale::shift_for`]): 65,535 bytes up to a
    /// 64 KB buffer.
    MaxWindow,
    /// No bound: ns-2's `TcpAgent` with its default `maxcwnd_ = 0` (it sends
    /// `min(cwnd_, wnd_)` and grows `cwnd_` on every ack), and RFC 5681,
    /// which sets none.
    None,
}

/// How a loss cuts the window: the base of the new slow-start threshold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WindowCut {
    /// RFC 5681 eq. 4: ssthresh = max(FlightSize / 2, 2·SMSS).
    #[default]
    Rfc5681,
    /// 4.4BSD-Lite `tcp_input` (third duplicate ack) and `tcp_timer`
    /// (retransmission timeout): `win = min(snd_wnd, snd_cwnd) / 2 /
    /// t_maxseg; if (win < 2) win = 2; snd_ssthresh = win * t_maxseg`. After
    /// Reno has left fast recovery with cwnd deflated to ssthresh, or after
    /// a timeout has set cwnd to one segment, half of cwnd is far less than
    /// half of the data outstanding.
    Bsd44,
}

/// How Reno's fast recovery ends on the first ack of new data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryExit {
    /// RFC 5681 3.2 step 6: cwnd = ssthresh.
    #[default]
    Rfc5681,
    /// 4.4BSD-Lite `tcp_input`: `if (t_dupacks > tcprexmtthresh &&
    /// snd_cwnd > snd_ssthresh) snd_cwnd = snd_ssthresh`, then the ack opens
    /// the window as any ack of new data does. A window never inflated
    /// beyond ssthresh + 3·maxseg is not deflated.
    Bsd44,
}

/// Which acks' windows the sender takes (elaarag-002.md F1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WindowUpdate {
    /// 4.4BSD `tcp_input` (RFC 793 Sec. 3.9's SND.WL1/SND.WL2 test, with
    /// BSD's refinement): a segment's window is taken if it is newer,
    /// `snd_wl1 < seq`, or `snd_wl1 == seq` and (`snd_wl2 < ack`, or
    /// `snd_wl2 == ack` and the window grows). An ack that acknowledges
    /// nothing new may open the window but never shrink it; an older ack
    /// arriving late changes nothing.
    #[default]
    Bsd,
    /// Every ack's window, whatever its order (lasthop before issue 32).
    Latest,
}

/// Which pure acks 4.4BSD's header prediction may take (with
/// `header_prediction`), by the sender's duplicate-ack count `t_dupacks`.
/// The 4.4BSD-Lite test has no term for it; the BSDs that followed added
/// one, so that an ack ending fast recovery takes the slow path, which
/// deflates the window and clears the count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HeaderPredictionGuard {
    /// 4.4BSD-Lite `tcp_input.c` 8.5 (and BSD/386 1.1): no test of
    /// `t_dupacks`. An ack of new data after a fast recovery that inflated
    /// cwnd to the window takes the fast path: the count stays at or above
    /// tcprexmtthresh and the next loss is not fast-retransmitted.
    #[default]
    None,
    /// FreeBSD `tcp_input.c`: `tp->t_dupacks < tcprexmtthresh`. The ack
    /// ending a recovery takes the slow path; a count of one or two left by
    /// duplicates that did not reach the threshold survives a predicted ack.
    BelowThreshold,
    /// OpenBSD `tcp_input.c`: `tp->t_dupacks == 0`. Any duplicate since the
    /// last slow-path ack sends the next ack down the slow path.
    NoDupacks,
}

impl HeaderPredictionGuard {
    /// True if a pure ack may take the fast path with `dupacks` counted and
    /// a fast-retransmit threshold of `threshold`.
    pub fn allows(self, dupacks: u32, threshold: u32) -> bool {
        match self {
            HeaderPredictionGuard::None => true,
            HeaderPredictionGuard::BelowThreshold => dupacks < threshold,
            HeaderPredictionGuard::NoDupacks => dupacks == 0,
        }
    }
}

/// How the retransmission timeout is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RtoMode {
    /// RFC 6298 with Karn's algorithm and exponential backoff.
    #[default]
    Rfc6298,
    /// 4.4BSD / BSD/OS 2.1: RTT measured in 500 ms ticks, the timer counted
    /// down at a coarse 500 ms tick, minimum of two ticks.
    Bsd,
    /// ns-2's `TcpAgent::rtt_update`/`rtt_timeout` (the simulator of seed
    /// 001): samples rounded to the nearest `tcpTick_` (at least one), BSD's
    /// scaled integer SRTT and RTTVAR in ticks, RTO = SRTT + 4·RTTVAR ticks,
    /// clamped to [minrto_, maxrto_] and at least two ticks, on an exact
    /// (not tick-aligned) timer.
    Ns2,
    /// ns-2's agent as it was around 2000, with `rfc2988_ false` and no
    /// timestamps (elaarag-002.md F7; Fig. 2 of seed 002 ran on it): a
    /// sample counts the ticks crossed since the segment left, on the
    /// agent's own tick train (`boot_time_`), at least one; the timeout
    /// is `t_rtxcur_ · t_backoff_` with `t_backoff_` doubling up to 64,
    /// then no less than `minrto_` (0), no more than `maxrto_`, at least
    /// two ticks.
    Ns2Legacy,
}

/// Retransmission-timer parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RtoConfig {
    pub mode: RtoMode,
    /// Lower bound of the RTO, in ns (RFC 6298 2.4: 1 s; BSD: 2 ticks).
    pub min_ns: u64,
    /// Upper bound of the RTO after backoff, in ns (BSD: 64 s).
    pub max_ns: u64,
    /// RTO before the first RTT sample, in ns.
    pub initial_ns: u64,
    /// Clock granularity G of RFC 6298 2.2, in ns (RFC mode only).
    pub granularity_ns: u64,
    /// Length of the coarse timer tick, in ns (BSD mode only: 500 ms).
    pub tick_ns: u64,
    /// Offset of the host's tick train from time 0, in ns (BSD mode; in
    /// ns-2 legacy mode the agent's `boot_time_`, the offset of the tick
    /// train its samples are counted on).
    pub tick_phase_ns: u64,
}

impl RtoConfig {
    pub fn rfc6298() -> RtoConfig {
        RtoConfig {
            mode: RtoMode::Rfc6298,
            min_ns: NS_PER_S,
            max_ns: 60 * NS_PER_S,
            initial_ns: NS_PER_S,
            granularity_ns: NS_PER_MS,
            tick_ns: 500 * NS_PER_MS,
            tick_phase_ns: 0,
        }
    }
    /// BSD/OS 2.1 (4.4BSD-Lite): TCPTV_MIN = 2 ticks, TCPTV_REXMTMAX = 128
    /// ticks, initial t_rxtcur = 12 ticks (6 s), PR_SLOWHZ = 2.
    pub fn bsd() -> RtoConfig {
        RtoConfig {
            mode: RtoMode::Bsd,
            min_ns: 2 * 500 * NS_PER_MS,
            max_ns: 64 * NS_PER_S,
            initial_ns: 6 * NS_PER_S,
            granularity_ns: 500 * NS_PER_MS,
            tick_ns: 500 * NS_PER_MS,
            tick_phase_ns: 0,
        }
    }
}

impl RtoConfig {
    /// ns-2's TCP agent with seed 001's scripts' tick: `tcpTick_` 0.1 s
    /// (tcl/ex/asym/asym.tcl; ns-2.35's own default is 0.01), and ns-2.35's
    /// `minrto_` 0.2 s, `maxrto_` 60 s and `rtxcur_init_` 3 s
    /// (tcl/lib/ns-default.tcl). The ns of 1997-2004 had no minimum but the
    /// floor of two ticks, `rtxcur_init_` 6 s (until 2006) and `maxrto_`
    /// 100000 s (until 2007): the seed-001 and seed-002 scenarios set those.
    /// The tick is kept as `granularity_ns`.
    pub fn ns2() -> RtoConfig {
        RtoConfig {
            mode: RtoMode::Ns2,
            min_ns: 200 * NS_PER_MS,
            max_ns: 60 * NS_PER_S,
            initial_ns: 3 * NS_PER_S,
            granularity_ns: 100 * NS_PER_MS,
            tick_ns: 100 * NS_PER_MS,
            tick_phase_ns: 0,
        }
    }
}

impl RtoConfig {
    /// ns-2's agent around 2000 (elaarag-002.md F7 and pitfall 5; the
    /// anchors' `-defaults legacy`): `tcpTick_` 0.1 s, no `minrto_`,
    /// `rtxcur_init_` 6 s (until 2006), `maxrto_` 100000 s (until 2007),
    /// `rfc2988_` false. The tick is kept as `granularity_ns`, the agent's
    /// `boot_time_` as `tick_phase_ns` (drawn per host by the simulator).
    pub fn ns2_legacy() -> RtoConfig {
        RtoConfig {
            mode: RtoMode::Ns2Legacy,
            min_ns: 0,
            max_ns: 100_000 * NS_PER_S,
            initial_ns: 6 * NS_PER_S,
            granularity_ns: 100 * NS_PER_MS,
            tick_ns: 100 * NS_PER_MS,
            tick_phase_ns: 0,
        }
    }
}

/// When the receiver acknowledges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckPolicy {
    /// An ack for every segment.
    Immediate,
    /// RFC 5681 4.2: an ack for at least every second full-sized segment and
    /// within `timeout_ns` of an unacknowledged segment.
    Delayed { every_segments: u32, timeout_ns: u64 },
    /// 4.4BSD: as `Delayed`, but the pending ack goes out at the next tick of
    /// the host's 200 ms fast timer rather than a fixed delay after arrival.
    BsdDelayed { every_segments: u32, tick_ns: u64, tick_phase_ns: u64 },
}

/// Everything a sender needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SenderConfig {
    pub variant: Variant,
    /// The congestion controller and its parameters (default Reno: the
    /// window rules configured below).
    pub cc: crate::cc::CcConfig,
    /// Maximum segment size (payload), in bytes.
    pub mss_bytes: u32,
    /// Send socket buffer, in bytes: caps the data outstanding.
    pub send_buffer_bytes: u64,
    /// Initial congestion window, in segments.
    pub initial_cwnd_segments: u32,
    /// Initial slow-start threshold, in bytes.
    pub initial_ssthresh_bytes: u64,
    /// Duplicate acks that trigger a fast retransmit (RFC 5681: 3).
    pub dupack_threshold: u32,
    /// Congestion-avoidance increase rule.
    pub window_growth: WindowGrowth,
    /// Slow-start threshold rule on a loss.
    pub window_cut: WindowCut,
    /// How Reno's fast recovery ends.
    pub recovery_exit: RecoveryExit,
    /// 4.4BSD's header prediction for pure acks (Reno only; see
    /// [`crate::sender`]): an ack of new data with cwnd >= the peer's
    /// window neither opens nor deflates cwnd nor clears the duplicate-ack
    /// count.
    pub header_prediction: bool,
    /// Which acks header prediction may take, by the duplicate-ack count.
    pub header_prediction_guard: HeaderPredictionGuard,
    /// Which acks' windows the sender takes.
    pub window_update: WindowUpdate,
    /// Largest congestion window, in bytes (`u64::MAX`: no cap, as RFC 5681).
    pub max_cwnd_bytes: u64,
    /// The stack's rule that bounds cwnd's growth.
    pub cwnd_bound: CwndBound,
    /// Response to ELN-marked duplicate acks.
    pub eln: ElnResponse,
    /// Send a new segment on each of the first two duplicate acks (seed 000
    /// Sec. V-C; RFC 3042's limited transmit).
    pub limited_transmit: bool,
    /// Bytes to send, or `None` for an unbounded transfer.
    pub total_bytes: Option<u64>,
    pub rto: RtoConfig,
    /// RFC 3168 ECN: first transmissions are ECN-capable (ECT), an ECN-Echo
    /// ack halves the window at most once per window of data and the next
    /// new segment carries CWR (see [`crate::ecn`]).
    pub ecn: bool,
    /// Seed 001 Sec. 6.1 (ns-2 `TcpAsymAgent`): a CE mark on an arriving ack
    /// is echoed to the receiver as ECE on the next data segment, for its
    /// ACK congestion control; the sender's own window is left alone.
    pub echo_ack_marks: bool,
    /// RFC 7323 timestamps on every segment: TSval is the sender's clock
    /// (ns of simulated time), TSecr the newest ack TSval seen.
    pub timestamps: bool,
    /// The sender-window option of seed 001 Sec. 8.2 on every data segment.
    pub sender_window_option: bool,
    /// Sender adaptation (seed 001 Secs. 6.3, 8.3): window growth by data
    /// acknowledged and burst pacing (see [`crate::sender_adaptation`]).
    pub adaptation: Option<AdaptationConfig>,
    /// Fast retransmit on the first duplicate ack that carries the
    /// receiver's fast-retransmit request (seed 001 Sec. 6.3).
    pub fr_request: bool,
    /// Connection start-up and close (see [`crate::handshake`]): the sender
    /// starts in SYN-SENT, sends data once the SYN-ACK arrives, and puts a
    /// FIN on the segment that ends a bounded transfer. Off: the flow starts
    /// established, as the source documents' bulk transfers do.
    pub handshake: bool,
    /// Mechanisms broken on purpose (mutation tests); none in a real run.
    pub mutations: SenderMutations,
}

/// A sender's mechanisms switched off on purpose, for the mutation tests of
/// the reproductions (issue 28): a paper's claims that all still hold with
/// a mechanism broken check nothing about it. Every one is off unless a
/// scenario's `mutations` asks for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderMutations {
    /// Link-layer ELNs (seed 004 Sec. 3.1) are counted and otherwise ignored.
    pub ignore_link_eln: bool,
    /// ERSNs (seed 004 Sec. 3.1) are counted and otherwise ignored.
    pub ignore_ersn: bool,
    /// The SMART echo (seed 000 Sec. II) is ignored: every ack is only
    /// cumulative, and losses wait for the timer.
    pub ignore_smart_echo: bool,
}

/// Everything a receiver needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReceiverConfig {
    /// Receive socket buffer, in bytes: the advertised window (the
    /// application reads at once, so the window never shrinks).
    pub recv_buffer_bytes: u64,
    /// Full-sized segment, in bytes, for the delayed-ack count.
    pub mss_bytes: u32,
    pub ack_policy: AckPolicy,
    /// Send RFC 2018 SACK blocks.
    pub sack: bool,
    /// Echo the sequence number of the segment that caused each ack (SMART).
    pub smart_echo: bool,
    /// Mark acks for segments the link layer reported corrupted (ELN, seed
    /// 000 Sec. III-A: the receiver learns of wireless corruption from its
    /// link layer).
    pub eln: bool,
    /// Corrupted segments remembered for ELN marks at once (`None`: no
    /// limit). With `Some(n)` a report arriving while `n` are remembered is
    /// forgotten; a slot frees when its segment arrives. `Some(1)` is a
    /// literal reading of seed 000 Sec. IV-C: ELN "does not convey
    /// information about multiple wireless-related losses to the sender".
    pub eln_slots: Option<u32>,
    /// RFC 3168 ECN: a CE-marked data segment sets ECE on every ack until a
    /// segment with CWR arrives.
    pub ecn: bool,
    /// Acks are sent ECN-capable (ECT) so that a RED gateway on the reverse
    /// path can mark them (seed 001 Sec. 6.1; ns-2 `TcpAsymSink`). RFC 3168
    /// Sec. 6.1.4 forbids ECT on pure acks: this is the paper's departure.
    pub ect_acks: bool,
    /// RFC 7323 timestamps on every ack: TSval is the receiver's clock, TSecr
    /// TS.Recent (see [`crate::timestamps`]).
    pub timestamps: bool,
    /// ACK congestion control (seed 001 Secs. 6.1, 8.2): the delayed-ack
    /// factor replaces the ack policy's `every_segments`; the policy's timer
    /// still forces an ack.
    pub acc: Option<AccConfig>,
    /// Mark duplicate acks with a fast-retransmit request once this many
    /// out-of-order segments have arrived above the hole (seed 001 Sec. 6.3).
    pub fr_request_threshold: Option<u32>,
}

impl SenderConfig {
    /// A Reno sender as RFC 5681 and RFC 6298 state it, every option off
    /// (no cap, no ELN, no limited transmit, no seed 001 option, no
    /// handshake), one-segment initial window, a 1 MiB send buffer and an
    /// unbounded transfer: the base that timelines and tests extend with
    /// struct update syntax.
    pub fn reno(mss_bytes: u32) -> SenderConfig {
        SenderConfig {
            variant: Variant::Reno,
            cc: crate::cc::CcConfig::default(),
            mss_bytes,
            send_buffer_bytes: 1 << 20,
            initial_cwnd_segments: 1,
            initial_ssthresh_bytes: u64::from(u32::MAX),
            dupack_threshold: 3,
            window_growth: WindowGrowth::Rfc5681,
            window_cut: WindowCut::Rfc5681,
            recovery_exit: RecoveryExit::Rfc5681,
            header_prediction: false,
            header_prediction_guard: HeaderPredictionGuard::None,
            window_update: WindowUpdate::Bsd,
            max_cwnd_bytes: u64::MAX,
            cwnd_bound: CwndBound::None,
            eln: ElnResponse::Off,
            limited_transmit: false,
            total_bytes: None,
            rto: RtoConfig::rfc6298(),
            ecn: false,
            echo_ack_marks: false,
            timestamps: false,
            sender_window_option: false,
            adaptation: None,
            fr_request: false,
            handshake: false,
            mutations: SenderMutations::default(),
        }
    }
}

impl ReceiverConfig {
    /// A receiver with every option off (no SACK, SMART, ELN, ECN,
    /// timestamps, ACC or fast-retransmit request): the base that timelines
    /// and tests extend with struct update syntax.
    pub fn plain(recv_buffer_bytes: u64, mss_bytes: u32, ack_policy: AckPolicy) -> ReceiverConfig {
        ReceiverConfig {
            recv_buffer_bytes,
            mss_bytes,
            ack_policy,
            sack: false,
            smart_echo: false,
            eln: false,
            eln_slots: None,
            ecn: false,
            ect_acks: false,
            timestamps: false,
            acc: None,
            fr_request_threshold: None,
        }
    }
}
