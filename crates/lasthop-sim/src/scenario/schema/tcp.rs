//! The scenario file's TCP settings of a flow (`[flows.tcp]`) and the
//! mechanisms they switch on, with their defaults.

use super::*;

/// TCP settings of a flow.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpSpec {
    /// Sender variant (default `reno`): a name for a (congestion control,
    /// loss recovery, ack content) triple, from `lasthop_tcp::variants::VARIANTS` (tahoe,
    /// reno, newreno, sack, smart, and the controllers' variants such as
    /// westwood+, veno, cubic, bbr). A flow's `scheme` sets it instead.
    pub variant: Option<String>,
    /// Loss recovery, set directly instead of through `variant`: tahoe
    /// (go-back-N), reno, newreno, sack (RFC 6675; the receiver sends SACK
    /// blocks) or smart (the receiver echoes).
    pub recovery: Option<Variant>,
    /// Congestion control, set directly (default: the variant's; `reno`).
    /// An unknown name is refused with the list of known ones.
    pub cc: Option<String>,
    /// The congestion controller's parameters by name (each controller
    /// lists its own, with their defaults and sources, in its module's
    /// `PARAMS`); unknown names are refused.
    #[serde(default)]
    pub cc_params: std::collections::BTreeMap<String, f64>,
    /// Maximum segment size (payload), in bytes.
    #[serde(default = "default_mss")]
    pub mss_bytes: u32,
    /// IP + TCP header bytes added to each data segment on the wire.
    #[serde(default = "default_header")]
    pub header_bytes: u32,
    /// Size of a pure ack on the wire, in bytes.
    #[serde(default = "default_header")]
    pub ack_bytes: u32,
    /// Socket buffer of both ends, in bytes: caps the sender's outstanding
    /// data and is the receiver's advertised window.
    #[serde(default = "default_buffer")]
    pub socket_buffer_bytes: u64,
    /// Initial congestion window, in segments. Default 1: 4.4BSD-Lite
    /// (`tcp_mss()` sets `snd_cwnd` to one segment) and ns-2's
    /// `windowInit_` until 2001.
    #[serde(default = "default_one")]
    pub initial_cwnd_segments: u32,
    /// Initial slow-start threshold, in bytes (default: unlimited, as
    /// 4.4BSD-Lite's `tcp_newtcpcb()`, `TCP_MAXWIN << TCP_MAX_WINSHIFT`, and
    /// RFC 5681's "arbitrarily high").
    pub initial_ssthresh_bytes: Option<u64>,
    /// Duplicate acks that trigger fast retransmit. Default 3: RFC 5681,
    /// 4.4BSD-Lite's `tcprexmtthresh`, ns-2's `NUMDUPACKS`.
    #[serde(default = "default_dupthresh")]
    pub dupack_threshold: u32,
    /// Send SACK blocks from the receiver (default: on exactly when the
    /// recovery is `sack`; `false` with that recovery is refused).
    pub sack: Option<bool>,
    /// Response to ELN-marked duplicate acks: `off`, `third_dupack`
    /// (E2E-ELN) or `first_dupack` (E2E-ELN-RXMT). A flow's `scheme` sets it.
    pub eln: Option<lasthop_tcp::ElnResponse>,
    /// Who marks acks with ELN: the `receiver`, told of corruption by its
    /// link layer (the 1997 experiments), or the `base_station`, the node
    /// before the receiver, from the segments it saw pass (Sec. V-B).
    #[serde(default)]
    pub eln_generator: ElnGenerator,
    /// A new segment on each of the first two duplicate acks (seed 000
    /// Sec. V-C; RFC 3042).
    #[serde(default)]
    pub limited_transmit: bool,
    /// Congestion-avoidance increase: `rfc5681` (default) or `bsd44`
    /// (4.4BSD-Lite's extra maxseg/8 per ack, as in BSD/OS 2.1).
    #[serde(default)]
    pub window_growth: lasthop_tcp::WindowGrowth,
    /// Slow-start threshold on a loss: `rfc5681` (default, half the data
    /// outstanding) or `bsd44` (4.4BSD-Lite: half of min(advertised
    /// window, cwnd), at a fast retransmit and at a timeout).
    #[serde(default)]
    pub window_cut: lasthop_tcp::WindowCut,
    /// End of Reno's fast recovery: `rfc5681` (default, cwnd = ssthresh) or
    /// `bsd44` (4.4BSD-Lite: deflate only a window inflated by further
    /// duplicate acks, then open it as for any ack of new data).
    #[serde(default)]
    pub recovery_exit: lasthop_tcp::RecoveryExit,
    /// 4.4BSD-Lite's header prediction for a Reno sender's pure acks: an ack
    /// of new data that arrives while cwnd >= the advertised window takes
    /// the fast path, which neither opens nor deflates cwnd nor clears the
    /// duplicate-ack count (so a fast recovery that inflated cwnd to the
    /// window is not left until a timeout).
    #[serde(default)]
    pub header_prediction: bool,
    /// Which acks header prediction may take, by the duplicate-ack count:
    /// `none` (4.4BSD-Lite: no test), `below_threshold` (FreeBSD's
    /// `t_dupacks < tcprexmtthresh`) or `no_dupacks` (OpenBSD's
    /// `t_dupacks == 0`).
    #[serde(default)]
    pub header_prediction_guard: lasthop_tcp::HeaderPredictionGuard,
    /// Which acks' windows the sender takes: `bsd` (4.4BSD and RFC 793's
    /// SND.WL1/SND.WL2 test: a newer ack's, or a duplicate's that opens the
    /// window; a late, older ack changes nothing) or `latest` (every ack's).
    #[serde(default)]
    pub window_update: lasthop_tcp::WindowUpdate,
    /// Freeze-TCP at the receiving host (Goff et al. 2000): told of each
    /// outage on the flow's path `warning_s` ahead, it advertises a zero
    /// window, and sends three acks with its window open when the link
    /// comes back. Needs an outage on the flow's path, or a mobile host's
    /// handoffs, to predict.
    #[serde(default)]
    pub freeze: Option<FreezeSpec>,
    /// Fast-retransmit handoff (Caceres and Iftode 1995) at the flow's
    /// mobile end: told that a handoff is complete, a receiving mobile host
    /// sends three duplicate acks, a sending one fast-retransmits at once.
    /// Needs an end of the flow that is a mobile host (`[[mobility]]`), or
    /// one next to a link with outages on the flow's path (then told when
    /// the link comes back).
    #[serde(default)]
    pub frho: bool,
    /// Largest congestion window, in bytes; absent: no cap (RFC 5681).
    /// 4.4BSD-derived stacks cap it at the largest window they can
    /// advertise, 65535 without window scaling.
    #[serde(default)]
    pub max_cwnd_bytes: Option<u64>,
    /// What bounds cwnd's growth, the rule of the stack modelled:
    /// `cwnd_limited` (default; Linux's `tcp_is_cwnd_limited()`, RFC 7661's
    /// principle: an ack opens the window only while the window limits
    /// sending), `max_window` (4.4BSD: at most `TCP_MAXWIN << snd_scale`,
    /// the largest window the peer's socket buffer can advertise with RFC
    /// 7323 scaling) or `none` (ns-2's default `maxcwnd_ = 0`; RFC 5681).
    /// `max_cwnd_bytes` caps it further under any rule.
    #[serde(default)]
    pub cwnd_bound: lasthop_tcp::CwndBound,
    /// Relay buffer of a split-connection base station (schemes `split`,
    /// `split-smart`), in bytes: data acknowledged to the source and not yet
    /// acknowledged by the mobile host (seed 000 Sec. IV-D: 64 KB).
    #[serde(default = "default_split_buffer")]
    pub split_buffer_bytes: u64,
    /// Scheme `mtcp` (Yavatkar and Bhagwat's MHP, seed 002 Sec. 5.3): its
    /// wireless side ([`MtcpSpec`]); absent: SRP with its defaults.
    #[serde(default)]
    pub mtcp: Option<MtcpSpec>,
    /// Processing latency of the flow's base-station agent (the snoop
    /// family), in microseconds, in [0, 1e6]: its local retransmissions
    /// leave this long after the ack or timeout that caused them. Default 0:
    /// the paper gives no figure (see `lasthop_agents::snoop`).
    #[serde(default)]
    pub base_station_processing_us: f64,
    /// Local retransmissions of one segment by the flow's base-station
    /// agent at most (at least 1); absent: the scheme's (the snoop family
    /// 10, ns-2.35's `SNOOP_MAX_RXMIT`; `ebsn` and `ecn-bs` without limit,
    /// as Bakshi et al.'s link layer).
    #[serde(default)]
    pub base_station_max_local_rexmits: Option<u32>,
    /// Whether the flow's base-station agent (the snoop family, `ebsn`,
    /// `ecn-bs`) suppresses the duplicate acks its local retransmissions
    /// answer, as seed 000's LL-TCP-AWARE (snoop) does and its LL does not
    /// (Sec. III-B); absent: the scheme's (`ll`, `ebsn` and `ecn-bs` do
    /// not: their base station is seed 000's LL, as Bakshi et al.'s link
    /// layer, which knows nothing of TCP). `true` with `ebsn` is EBSN over
    /// snoop.
    #[serde(default)]
    pub base_station_tcp_aware: Option<bool>,
    /// Scheme `snoop-nack`: segments from the mobile host arriving past an
    /// open hole before the base station NACKs (at least 1); absent: 3, the
    /// fast retransmit's threshold (the snoop paper gives none:
    /// elaarag-002.md Sec. 1.7 \[I\]).
    #[serde(default)]
    pub nack_threshold_packets: Option<u32>,
    /// Scheme `snoop-nack`: time without a new segment from the mobile host,
    /// a hole open, before the base station NACKs, in round trips of the
    /// mobile host's wireless hop (a full segment up, an ack down), above 0;
    /// absent: 2 (the paper's "a certain amount of time": elaarag-002.md
    /// Sec. 1.7 \[I\]).
    #[serde(default)]
    pub nack_idle_rtts: Option<f64>,
    /// Corrupted segments the receiver remembers for ELN marks (at least
    /// 1); absent: no limit. 1 is a literal reading of seed 000 Sec. IV-C,
    /// whose ELN "does not convey information about multiple
    /// wireless-related losses to the sender".
    #[serde(default)]
    pub eln_slots: Option<u32>,
    #[serde(default)]
    pub rto: RtoSpec,
    #[serde(default)]
    pub ack: AckSpec,
    /// RFC 3168 ECN end to end: data segments are ECN-capable (never a
    /// retransmission), the receiver echoes a CE mark as ECE on its acks
    /// until CWR arrives, and the sender halves its window (by
    /// `window_cut`'s rule) at most once per window of data, without a
    /// retransmission, then sets CWR on its next new segment.
    #[serde(default)]
    pub ecn: bool,
    /// The TCP timestamp option (RFC 7323) on every segment and ack, with a
    /// nanosecond clock: seed 001's fine-grained round trip (Sec. 8.3) for
    /// sender adaptation and ACC's once-per-round-trip test. The receiver
    /// echoes TS.Recent by RFC 7323 Sec. 4.3 (as ns-2.35's sink). The
    /// option's bytes are not added to `header_bytes` or `ack_bytes`.
    #[serde(default)]
    pub timestamps: bool,
    /// Seed 001 Sec. 8.2's sender-window option on every data segment:
    /// min(cwnd, data in the send buffer) in MSS units. ACC needs it.
    #[serde(default)]
    pub sender_window_option: bool,
    /// ACK congestion control at the receiver (seed 001 Secs. 6.1, 8.2).
    /// Needs `sender_window_option` and a delayed-ack timer (`ack.policy`
    /// `delayed` or `bsd_delayed`; `ack.every_segments` is replaced by
    /// ACC's factor); mode `ecn` also needs `timestamps`.
    #[serde(default)]
    pub acc: Option<AccSpec>,
    /// Sender adaptation (seed 001 Secs. 6.3, 8.3): window growth by data
    /// acknowledged and bursts of at most `maxburst` segments, paced at
    /// cwnd/srtt. Needs `timestamps` (its round trip comes from them).
    #[serde(default)]
    pub sender_adaptation: Option<SenderAdaptationSpec>,
    /// The fast-retransmit request of seed 001 Sec. 6.3: the receiver marks
    /// duplicate acks once `threshold` out-of-order segments have arrived,
    /// and the sender fast-retransmits on the first marked one.
    #[serde(default)]
    pub fast_retransmit_request: Option<FastRetransmitRequestSpec>,
    /// Connection start-up and close (issue 12; seed 001 Sec. 7.3's web
    /// micro-benchmark): the sender sends a SYN at the flow's start and data
    /// only after the receiver's SYN-ACK; a lost SYN or SYN-ACK costs a
    /// retransmission timeout (`rto.initial_s`, 1 s by RFC 6298, 6 s in
    /// `bsd` mode); a bounded transfer's last segment carries FIN, and the
    /// flow ends when its ack reaches the sender. SYN and SYN-ACK are
    /// `ack_bytes` long. The flow summary gains a `connection` record.
    /// Not with split-connection schemes.
    #[serde(default)]
    pub handshake: bool,
    /// The sender's response to link-layer loss notifications (seed 004
    /// Sec. 4: ERSN and ELN from a medium with `ll_elsn`); needs `variant
    /// = "sack"`. Absent: notifications are ignored.
    pub ll_elsn: Option<LlElsnSpec>,
}

/// A sender's LL-ELSN response (see `lasthop_tcp::ll_elsn`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlElsnSpec {
    /// `esack` (the paper's, Algorithm 1), `hack`, `hack_fixed` or
    /// `lhp_list` (the comparison senders of Sec. 5.3).
    #[serde(default)]
    pub response: LlElsnResponseSpec,
    /// ELN filtering's N (Sec. 4.2): N consecutive ELNs are channel noise,
    /// one more declares a disconnection. 0: no filtering (every ELN is
    /// answered by a retransmission: Fig. 16's comparison). Absent: 2 for
    /// `esack` (the paper's example), no filtering for the others.
    pub eln_filter: Option<u32>,
    /// Retransmission timeouts an ERSN may defer for one segment (seed 004
    /// Sec. 3.1: while the link layer retries a segment the sender "neither
    /// invokes congestion control due to the packet 1 nor retransmits it";
    /// the bound keeps a lost ELN from stalling the connection). Absent:
    /// yun-004.md Sec. 2.3's bound, "(e.g. at most ceil(l * T_llrtx /
    /// RTO) + 1) so a lost ELN cannot stall the connection" [I], with l
    /// the retry limit and T_llrtx the link retransmission delay of the
    /// notifying 802.11 medium on the flow's data path (the largest over
    /// several) and RTO the smallest the sender's timer can take
    /// (`rto.min_ms`, or its clock granularity if larger), so that the
    /// deferrals outlast l retries whatever the estimator does: seed 004
    /// Fig. 13's l = 7, 100 ms and ns-2's 200 ms give 5; with no link
    /// retransmission delay, 1. 0: the sender ignores ERSNs (LL-ELSN
    /// without ERSN).
    pub ersn_max_deferrals: Option<u32>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LlElsnResponseSpec {
    #[default]
    Esack,
    Hack,
    HackFixed,
    LhpList,
}

/// ACK congestion control (seed 001 Secs. 6.1 and 8.2).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccSpec {
    /// `ecn` (default; Sec. 6.1, the simulations, ns-2
    /// `Agent/TCPSink/Asym`): acks are sent ECN-capable, the data sender
    /// echoes a marked ack on its next segment, and the delayed-ack factor
    /// doubles on an echo (at most once per round trip) and drops by one
    /// per round trip without one. `testbed` (Sec. 8.2, the BSD/OS
    /// implementation): the factor is the window-derived cap itself.
    #[serde(default)]
    pub mode: lasthop_tcp::AccMode,
    /// Upper bound of the delayed-ack factor, in segments (>= 1). The
    /// paper's value is lost; 25 is ns-2's `tcl/ex/asym` scripts (the ns
    /// default is 5).
    #[serde(default = "default_max_delack")]
    pub max_delack: u32,
    /// Fewest acks per window of sender data (>= 1): the factor is at most
    /// floor(min(sender window, receive buffer) / min_acks_win). 2 is
    /// ns-2's hard-coded safety factor (`max_sender_can_send / 2`).
    #[serde(default = "default_two")]
    pub min_acks_win: u32,
}

/// Sender adaptation (seed 001 Secs. 6.3 and 8.3).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SenderAdaptationSpec {
    /// Most segments sent back to back (>= 1); the rest wait for a burst
    /// timer of maxburst·srtt/min(cwnd, rwnd). The paper's value is lost
    /// (3 or 4, "the bursts of standard TCP with delayed acks"); 3 [R].
    #[serde(default = "default_maxburst")]
    pub maxburst: u32,
    /// Segments acknowledged per window increase: 1 (default; the
    /// simulations and ns-2, "as if n separate acks had arrived") or 2 (the
    /// testbed pseudocode, acked / (2·MSS)).
    #[serde(default = "default_one")]
    pub segments_per_increase: u32,
    /// The testbed's burst timer (Sec. 9.1.1): a BSD kernel timeout on the
    /// sending host's clock ticks of this many ms (> 0; 10 [R], BSD's hz =
    /// 100): the wait truncated to whole ticks (at least one) counted from
    /// the next tick, so at most one burst leaves per tick. Absent: an exact timer (the simulations).
    #[serde(default)]
    pub timer_tick_ms: Option<f64>,
}

/// The fast-retransmit request (seed 001 Sec. 6.3).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FastRetransmitRequestSpec {
    /// Out-of-order segments the receiver sees before it marks duplicate
    /// acks (>= 1). Lost from the paper; 3 [R] (RFC 5681's dupack threshold).
    #[serde(default = "default_dupthresh")]
    pub threshold: u32,
}

fn default_max_delack() -> u32 {
    25
}
fn default_maxburst() -> u32 {
    3
}

impl Default for TcpSpec {
    fn default() -> Self {
        TcpSpec {
            variant: None,
            recovery: None,
            cc: None,
            cc_params: Default::default(),
            mss_bytes: default_mss(),
            header_bytes: default_header(),
            ack_bytes: default_header(),
            socket_buffer_bytes: default_buffer(),
            split_buffer_bytes: default_split_buffer(),
            mtcp: None,
            base_station_processing_us: 0.0,
            base_station_max_local_rexmits: None,
            base_station_tcp_aware: None,
            nack_threshold_packets: None,
            nack_idle_rtts: None,
            eln_slots: None,
            initial_cwnd_segments: 1,
            initial_ssthresh_bytes: None,
            dupack_threshold: default_dupthresh(),
            sack: None,
            eln: None,
            eln_generator: ElnGenerator::Receiver,
            limited_transmit: false,
            window_growth: lasthop_tcp::WindowGrowth::Rfc5681,
            window_cut: lasthop_tcp::WindowCut::Rfc5681,
            recovery_exit: lasthop_tcp::RecoveryExit::Rfc5681,
            header_prediction: false,
            header_prediction_guard: lasthop_tcp::HeaderPredictionGuard::None,
            window_update: lasthop_tcp::WindowUpdate::Bsd,
            freeze: None,
            frho: false,
            max_cwnd_bytes: None,
            cwnd_bound: lasthop_tcp::CwndBound::default(),
            rto: RtoSpec::default(),
            ack: AckSpec::default(),
            ecn: false,
            timestamps: false,
            sender_window_option: false,
            acc: None,
            sender_adaptation: None,
            fast_retransmit_request: None,
            handshake: false,
            ll_elsn: None,
        }
    }
}

/// Scheme `mtcp`'s wireless side between the base station's MHP and the
/// mobile host's (seed 002 Sec. 5.3; `lasthop_net::arq::srp`). Every
/// field is lasthop's choice or unverified [I]/[K]: the survey gives no
/// figure for any of them.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MtcpSpec {
    /// What carries the wireless side: `srp` (default; the survey's "SRP
    /// ... on top of IP") or `tcp` (its other option, "MHP ... can use
    /// TCP": the `split` relay's TCP leg, Reno).
    #[serde(default)]
    pub transport: MtcpTransport,
    /// The wireless segment size MHP cuts the wired stream into, in bytes
    /// of payload [I] (absent: the flow's `mss_bytes`; no source gives one).
    /// With `transport = "tcp"` the leg's segments are `mss_bytes`: absent
    /// or equal to it.
    #[serde(default)]
    pub mss_wireless_bytes: Option<u32>,
    /// SRP's largest window, in packets, 1 to 64 [K] (default 32).
    #[serde(default)]
    pub srp_window_packets: Option<u32>,
    /// SRP's window at the start, in packets [K] (default 4).
    #[serde(default)]
    pub srp_initial_window_packets: Option<u32>,
    /// SRP's retransmission timeout, fixed, in ms [K]; absent: estimated
    /// from round trips as RFC 6298's (200 ms before the first sample,
    /// clamped to [20 ms, 2 s]).
    #[serde(default)]
    pub srp_rto_ms: Option<f64>,
}

/// What carries MTCP's wireless side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MtcpTransport {
    #[default]
    Srp,
    Tcp,
}

/// Where ELN marks come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ElnGenerator {
    #[default]
    Receiver,
    BaseStation,
}

fn default_mss() -> u32 {
    1460
}
fn default_header() -> u32 {
    40
}
fn default_buffer() -> u64 {
    65535
}
fn default_split_buffer() -> u64 {
    65536
}
fn default_one() -> u32 {
    1
}
fn default_dupthresh() -> u32 {
    3
}

/// Retransmission-timer settings; unset fields take the mode's defaults.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RtoSpec {
    /// `rfc6298` (default), `bsd` (500 ms ticks, BSD/OS 2.1), `ns2` (ns-2's
    /// tick-rounded estimator; its tick `tcpTick_` is `granularity_ms`) or
    /// `ns2_legacy` (ns-2's agent around 2000, `rfc2988_` false, no
    /// timestamps: samples count ticks crossed, the backoff stops at 64x;
    /// min 0, max 100000 s, initial 6 s, tick 100 ms).
    #[serde(default)]
    pub mode: lasthop_tcp::RtoMode,
    /// Minimum RTO, in ms (RFC 6298: 1000; BSD: 1000 = two ticks; ns-2: 200,
    /// ns-2.35's `minrto_` since 2004; before, none (0, the `ns2_legacy`
    /// default), only the floor of two ticks in `rtt_timeout()`).
    pub min_ms: Option<f64>,
    /// Maximum RTO, in seconds (RFC 6298: 60; BSD: 64; ns-2: 60, ns-2.35's
    /// `maxrto_` since 2007; 100000 before).
    pub max_s: Option<f64>,
    /// RTO before the first sample, in seconds (RFC 6298: 1; BSD: 6; ns-2: 3,
    /// ns-2.35's `rtxcur_init_` since 2006; 6 before).
    pub initial_s: Option<f64>,
    /// RFC 6298 clock granularity G, or ns-2's `tcpTick_`, in ms (default 1;
    /// ns-2: 100, as seed 001's asym.tcl sets it).
    pub granularity_ms: Option<f64>,
}

/// When the receiver acks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AckPolicySpec {
    /// An ack per segment (ns-2's TCPSink).
    #[default]
    Immediate,
    /// Every `every_segments` full segments or `delay_ms` after the first unacked one.
    Delayed,
    /// As `delayed`, but the timer is the host's 200 ms fast tick (4.4BSD).
    BsdDelayed,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AckSpec {
    #[serde(default)]
    pub policy: AckPolicySpec,
    /// Full-sized segments per delayed ack. Default 2: RFC 5681 Sec. 4.2
    /// ("at least every second full-sized segment"), 4.4BSD-Lite's window
    /// update once two segments of buffer are freed.
    #[serde(default = "default_two")]
    pub every_segments: u32,
    /// Delayed-ack timeout (or BSD fast-tick period), in ms. Default 200:
    /// 4.4BSD's fast timer (`PR_FASTHZ` 5); RFC 5681 allows up to 500.
    #[serde(default = "default_delack_ms")]
    pub delay_ms: f64,
}

impl Default for AckSpec {
    fn default() -> Self {
        AckSpec { policy: AckPolicySpec::Immediate, every_segments: 2, delay_ms: 200.0 }
    }
}

fn default_two() -> u32 {
    2
}
fn default_delack_ms() -> f64 {
    200.0
}
