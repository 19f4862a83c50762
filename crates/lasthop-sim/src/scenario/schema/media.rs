//! The scenario file's shared media (`[[media]]`): the packet radio, the
//! 802.11 DCF and the circuit carrying RLP or AIRMAIL, with their defaults.

use super::*;

/// A shared medium: a radio on each of `stations`, and the hops between
/// them, each of which becomes a link named `<medium>/<a>-<b>` (no colon:
/// `--pcap LINK:DIRECTION` splits at one) whose two directions the
/// medium's MAC carries (its frames wait in the sending radio's queue, not
/// in a link queue).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MediumSpec {
    pub name: String,
    /// The nodes that have a radio on this medium.
    pub stations: Vec<String>,
    /// The pairs of stations joined by a hop (each reaches the other).
    /// Absent: a chain, each station to the next in `stations`. Empty: no
    /// hops of its own (link directions name the medium as theirs).
    #[serde(default)]
    pub hops: Option<Vec<[String; 2]>>,
    /// Which MAC the medium runs: `radio` (the packet radio of seed 001
    /// Sec. 5, settings in `radio`), `dcf` (IEEE 802.11b DCF, seed 004,
    /// settings in `dcf`), `rlp` (a circuit-mode point-to-point hop whose
    /// frames are carried with RLP, seed 002 Sec. 5.1, settings in `rlp`;
    /// exactly two stations and one hop) or `airmail` (the same circuit
    /// carrying AIRMAIL, seed 002 Sec. 5.1, settings in `airmail`; the
    /// first of `stations` is the base station).
    #[serde(default)]
    pub mac: MacKind,
    /// The packet radio's settings (seed 001 Sec. 5; every value the paper
    /// lost is ns-2's `Mac/Multihop` default).
    #[serde(default)]
    pub radio: RadioSpec,
    /// The 802.11 DCF's settings (seed 004 Sec. 5.1; ns-2's `Mac/802_11`
    /// defaults, 11 Mb/s data and acks).
    #[serde(default)]
    pub dcf: DcfSpec,
    /// The RLP circuit's settings (`mac = "rlp"`; seed 002 Sec. 5.1 as
    /// `elaarag-002.md` Sec. 1.5 reads it).
    #[serde(default)]
    pub rlp: RlpSpec,
    /// The AIRMAIL circuit's settings (`mac = "airmail"`; seed 002 Sec.
    /// 5.1 as `elaarag-002.md` Sec. 1.6 reads it).
    #[serde(default)]
    pub airmail: AirmailSpec,
    /// The access point's LL-ELSN agent (seed 004 Sec. 3.1): a station that
    /// retries a TCP segment for the first time sends its sender an ERSN,
    /// one that discards it an ELN (as 40-byte ack-format packets from a
    /// station that is not the sender's; to its own TCP directly, uplink).
    #[serde(default)]
    pub ll_elsn: bool,
    /// Explicit bad state notification (seed 002 Sec. 5.2; Bakshi,
    /// Krishna, Vaidya, Pradhan, ICDCS 1997): each failed link-level attempt
    /// at a TCP segment (no MAC ack) sends the segment's source an EBSN, on
    /// which it restarts its retransmission timer. Sent as LL-ELSN's notices
    /// are (a 40-byte ack-format packet; to its own TCP directly, uplink).
    /// `mac = "dcf"` only.
    #[serde(default)]
    pub ebsn: bool,
    /// Frame errors on the medium. 802.11: each direction of each hop with
    /// its own state and stream (a two-state Markov chain per station link,
    /// seed 004 Sec. 5.4), consulted once per transmission attempt of a
    /// data frame. Packet radio: each radio with its own, consulted for
    /// every frame it sends, control frames included. Absent: none.
    #[serde(default)]
    pub error: ErrorModelConfig,
    /// The stations whose frames `error` hits (802.11: the hop directions
    /// from them). Absent: every station's. E.g. `["bs"]` for errors on the
    /// downlink only.
    #[serde(default)]
    pub error_from: Option<Vec<String>>,
    /// A circuit (`mac = "rlp"` or `"airmail"`) only: the error model of
    /// the frames of the stations not in `error_from` (each its own state
    /// and stream), e.g. the uplink's own channel. Absent: none.
    #[serde(default)]
    pub error_others: ErrorModelConfig,
}

/// The MAC of a shared medium.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MacKind {
    #[default]
    Radio,
    Dcf,
    Rlp,
    Airmail,
}

/// A circuit-mode hop carried with RLP (see `lasthop_net::mac::circuit`
/// and `lasthop_net::arq::rlp`). Defaults: \[I\] the close reading's
/// (`elaarag-002.md` Sec. 1.5), lasthop's own where it is silent; the rate
/// is the primary's (Nanda, Ejzak, Doshi, JSAC 1994, whose abstract speaks
/// of the 9.6 kb/s TDMA data service).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RlpSpec {
    /// The circuit's rate per direction, in bit/s. 9600: the primary's
    /// abstract's 9.6 kb/s TDMA data service.
    #[serde(default = "rlp_bandwidth")]
    pub bandwidth_bps: f64,
    /// One-way propagation, in ms. \[I\] 0.
    #[serde(default)]
    pub delay_ms: f64,
    /// A frame on the wire, RLP's 4-byte header (\[I\]) included, in
    /// bytes; one frame per slot. \[I\] 64, the reading's default.
    #[serde(default = "rlp_frame_bytes")]
    pub frame_bytes: u32,
    /// `basic` (idle slots stay idle) or `enhanced` (idle slots carry
    /// preemptive retransmissions; partial status rides on data frames).
    /// \[I\] enhanced.
    #[serde(default)]
    pub form: RlpFormSpec,
    /// Frames in the sender's window, 1 to 64. \[I\] 64, the reading's.
    #[serde(default = "rlp_window")]
    pub window_frames: u32,
    /// Retransmissions of a frame before its packet is dropped. Absent:
    /// persistent (\[I\]).
    #[serde(default)]
    pub retry_limit: Option<u32>,
    /// `in_order` or `out_of_order` hand-up of frames to reassembly.
    /// \[I\] in_order (the reading: "in-order delivery of IP packets").
    #[serde(default)]
    pub delivery: RlpDeliverySpec,
    /// Slots between full status frames (at least 2). \[I\] 4.
    #[serde(default = "rlp_feedback")]
    pub feedback_period_slots: u32,
    /// Bitmap bits in a partial status on a data frame. \[I\] 8.
    #[serde(default = "rlp_partial")]
    pub partial_bits: u32,
    /// The stall timer, in ms. \[I\] 100.
    #[serde(default = "rlp_stall")]
    pub stall_ms: f64,
    /// Each station's queue limit, in packets. \[I\] 50.
    #[serde(default = "rlp_queue")]
    pub queue_packets: u32,
}

impl Default for RlpSpec {
    fn default() -> RlpSpec {
        RlpSpec {
            bandwidth_bps: rlp_bandwidth(),
            delay_ms: 0.0,
            frame_bytes: rlp_frame_bytes(),
            form: RlpFormSpec::default(),
            window_frames: rlp_window(),
            retry_limit: None,
            delivery: RlpDeliverySpec::default(),
            feedback_period_slots: rlp_feedback(),
            partial_bits: rlp_partial(),
            stall_ms: rlp_stall(),
            queue_packets: rlp_queue(),
        }
    }
}

// The circuit's and RLP's defaults are the MAC's own (one source of truth).
fn rlp_default() -> lasthop_net::mac::circuit::CircuitConfig {
    lasthop_net::mac::circuit::CircuitConfig::default()
}
fn rlp_bandwidth() -> f64 {
    rlp_default().bandwidth_bps as f64
}
fn rlp_frame_bytes() -> u32 {
    rlp_default().frame_bytes
}
fn rlp_window() -> u32 {
    rlp_default().rlp.window_frames
}
fn rlp_feedback() -> u32 {
    rlp_default().rlp.feedback_period_slots
}
fn rlp_partial() -> u32 {
    rlp_default().rlp.partial_bits
}
fn rlp_stall() -> f64 {
    rlp_default().rlp.stall_ns as f64 / 1e6
}
fn rlp_queue() -> u32 {
    rlp_default().queue_packets
}

/// A circuit-mode hop carried with AIRMAIL (see
/// `lasthop_net::mac::circuit` and `lasthop_net::arq::airmail`): the
/// circuit's fields as `RlpSpec`'s, AIRMAIL's own and its FEC's. Defaults
/// are the member's own (\[I\]: the primary's timers, window and codes were
/// not read) except where said.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AirmailSpec {
    /// The circuit's rate per direction, in bit/s. 9600, as `rlp`'s.
    #[serde(default = "rlp_bandwidth")]
    pub bandwidth_bps: f64,
    /// One-way propagation, in ms. \[I\] 0.
    #[serde(default)]
    pub delay_ms: f64,
    /// A frame on the wire, AIRMAIL's 4-byte header (\[I\]) and the byte
    /// code's parity included, in bytes; one frame per slot. \[I\] 64.
    #[serde(default = "rlp_frame_bytes")]
    pub frame_bytes: u32,
    /// Frames in a sender's window, 1 to 64. \[I\] 32.
    #[serde(default = "airmail_window")]
    pub window_frames: u32,
    /// `N`: the mobile answers a status every `N` frames received. \[I\] 8.
    #[serde(default = "airmail_block")]
    pub block_frames: u32,
    /// Slots between the base station's periodic status frames (at least
    /// 2). \[I\] 4, RLP's feedback period.
    #[serde(default = "rlp_feedback")]
    pub status_period_slots: u32,
    /// The base station's poll timer, in ms. \[I\] 60.
    #[serde(default = "airmail_poll")]
    pub poll_ms: f64,
    /// The mobile's receive-gap timer, in ms. \[I\] 40.
    #[serde(default = "airmail_gap")]
    pub gap_ms: f64,
    /// The FEC level: `adaptive`, `none`, `byte` or `packet` (see
    /// `lasthop_net::arq::airmail::fec`). \[A\] adaptive.
    #[serde(default = "airmail_fec")]
    pub fec: String,
    /// Byte errors the byte code corrects per frame (`2 t` parity bytes).
    /// \[K\] 8.
    #[serde(default = "airmail_byte_t")]
    pub byte_t: u32,
    /// Data frames per block of the packet code. \[K\] 16.
    #[serde(default = "airmail_block_k")]
    pub block_k: u32,
    /// The most parity frames per block. \[K\] 8.
    #[serde(default = "airmail_m_max")]
    pub m_max: u32,
    /// Frames the adaptation measures the error rate over. \[I\] 256.
    #[serde(default = "airmail_fer_window")]
    pub fer_window: u32,
    /// Raw frame error rate from which the byte code is used. \[I\] 0.06.
    #[serde(default = "airmail_theta1")]
    pub theta1: f64,
    /// Raw frame error rate above which the packet code is used. \[I\] 0.5.
    #[serde(default = "airmail_theta2")]
    pub theta2: f64,
    /// Each station's queue limit, in packets. \[I\] 50.
    #[serde(default = "rlp_queue")]
    pub queue_packets: u32,
}

impl Default for AirmailSpec {
    fn default() -> AirmailSpec {
        AirmailSpec {
            bandwidth_bps: rlp_bandwidth(),
            delay_ms: 0.0,
            frame_bytes: rlp_frame_bytes(),
            window_frames: airmail_window(),
            block_frames: airmail_block(),
            status_period_slots: rlp_feedback(),
            poll_ms: airmail_poll(),
            gap_ms: airmail_gap(),
            fec: airmail_fec(),
            byte_t: airmail_byte_t(),
            block_k: airmail_block_k(),
            m_max: airmail_m_max(),
            fer_window: airmail_fer_window(),
            theta1: airmail_theta1(),
            theta2: airmail_theta2(),
            queue_packets: rlp_queue(),
        }
    }
}

// AIRMAIL's defaults are the member's own.
fn airmail_default() -> lasthop_net::arq::airmail::AirmailConfig {
    lasthop_net::arq::airmail::AirmailConfig::default()
}
fn airmail_window() -> u32 {
    airmail_default().window_frames
}
fn airmail_block() -> u32 {
    airmail_default().block_frames
}
fn airmail_poll() -> f64 {
    airmail_default().poll_ns as f64 / 1e6
}
fn airmail_gap() -> f64 {
    airmail_default().gap_ns as f64 / 1e6
}
fn airmail_fec() -> String {
    airmail_default().fec.to_string()
}
fn airmail_byte_t() -> u32 {
    airmail_default().fec_cfg.byte_t
}
fn airmail_block_k() -> u32 {
    airmail_default().fec_cfg.block_k
}
fn airmail_m_max() -> u32 {
    airmail_default().fec_cfg.m_max
}
fn airmail_fer_window() -> u32 {
    airmail_default().fec_cfg.fer_window
}
fn airmail_theta1() -> f64 {
    airmail_default().fec_cfg.theta1
}
fn airmail_theta2() -> f64 {
    airmail_default().fec_cfg.theta2
}

/// RLP's form (see `RlpSpec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RlpFormSpec {
    Basic,
    #[default]
    Enhanced,
}

/// RLP's hand-up order (see `RlpSpec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RlpDeliverySpec {
    #[default]
    InOrder,
    OutOfOrder,
}

/// IEEE 802.11b DCF settings (see `lasthop_net::mac::dcf`). Defaults are
/// ns-2.35's `Mac/802_11` (tcl/lib/ns-default.tcl) with seed 004 Sec.
/// 5.1's 11 Mb/s for data and acks and its 50-packet interface queues.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DcfSpec {
    /// Data frame rate, in bit/s. [T] 11 Mb/s.
    #[serde(default = "dcf_rate")]
    pub data_rate_bps: f64,
    /// MAC ack (and RTS/CTS) rate, in bit/s. [T] 11 Mb/s.
    #[serde(default = "dcf_rate")]
    pub control_rate_bps: f64,
    /// Slot time, in us. [N] 20.
    #[serde(default = "dcf_slot")]
    pub slot_us: f64,
    /// SIFS, in us. [N] 10.
    #[serde(default = "dcf_sifs")]
    pub sifs_us: f64,
    /// DIFS, in us. [N] 50.
    #[serde(default = "dcf_difs")]
    pub difs_us: f64,
    /// EIFS, in us. [N] 364.
    #[serde(default = "dcf_eifs")]
    pub eifs_us: f64,
    /// Contention window bounds, in slots. [N] 31 and 1023.
    #[serde(default = "dcf_cw_min")]
    pub cw_min: u32,
    #[serde(default = "dcf_cw_max")]
    pub cw_max: u32,
    /// PLCP preamble and header, in us. [N] 192 (long preamble).
    #[serde(default = "dcf_plcp")]
    pub plcp_us: f64,
    /// MAC header and FCS of a data frame, in bytes. [N] 34.
    #[serde(default = "dcf_header")]
    pub mac_header_bytes: u32,
    /// Attempts per frame, the first included (the paper's l). [N] 7.
    #[serde(default = "dcf_retry_limit")]
    pub retry_limit: u32,
    /// Data frames (packet + MAC header) of at least this many bytes go
    /// after RTS/CTS. Absent: never ([T] off).
    pub rts_threshold_bytes: Option<u32>,
    /// Each station's queue limit, in packets. [T] 50.
    #[serde(default = "dcf_queue")]
    pub queue_packets: u32,
    /// Time between a failed attempt and the frame's next one, in ms. [T]
    /// 0; 100 in seed 004's ERSN experiment.
    #[serde(default)]
    pub ll_retransmission_delay_ms: f64,
    /// What the station does meanwhile (yun-004.md ambiguity 9):
    /// `blocking`, its MAC blocked (stop-and-wait; [R] the reference's
    /// plausible reading), or `deferred`, the frame set aside while the
    /// station serves its queue (selective repeat, UMTS RLC-like).
    #[serde(default)]
    pub ll_retransmission: LlRetransmissionSpec,
    /// `deferred` only: frames a station may hold set aside at once
    /// (1..=64). [R] 16: no source (the paper's link layer is stop and
    /// wait); a UMTS-RLC-like window, acting only under `deferred`.
    #[serde(default = "dcf_ll_window")]
    pub ll_retransmission_window: u32,
    /// The discipline of every station's queue. Absent: drop-tail.
    #[serde(default)]
    pub queue: Option<QueueConfig>,
    /// MAC acks, RTS and CTS consult their sender's error model too (with
    /// their own sizes), so that a data frame the peer handed up may lose
    /// its MAC ack and be retried. [R] false: only data frames are lost.
    #[serde(default)]
    pub control_frame_errors: bool,
}

impl Default for DcfSpec {
    fn default() -> DcfSpec {
        DcfSpec {
            data_rate_bps: dcf_rate(),
            control_rate_bps: dcf_rate(),
            slot_us: dcf_slot(),
            sifs_us: dcf_sifs(),
            difs_us: dcf_difs(),
            eifs_us: dcf_eifs(),
            cw_min: dcf_cw_min(),
            cw_max: dcf_cw_max(),
            plcp_us: dcf_plcp(),
            mac_header_bytes: dcf_header(),
            retry_limit: dcf_retry_limit(),
            rts_threshold_bytes: None,
            queue_packets: dcf_queue(),
            ll_retransmission_delay_ms: 0.0,
            ll_retransmission: LlRetransmissionSpec::default(),
            ll_retransmission_window: dcf_ll_window(),
            queue: None,
            control_frame_errors: false,
        }
    }
}

// The DCF's defaults are the MAC's own (one source of truth).
fn dcf_default() -> lasthop_net::mac::dcf::DcfConfig {
    lasthop_net::mac::dcf::DcfConfig::default()
}
fn dcf_us(ns: u64) -> f64 {
    ns as f64 / 1e3
}
fn dcf_rate() -> f64 {
    dcf_default().data_rate_bps as f64
}
fn dcf_slot() -> f64 {
    dcf_us(dcf_default().slot_ns)
}
fn dcf_sifs() -> f64 {
    dcf_us(dcf_default().sifs_ns)
}
fn dcf_difs() -> f64 {
    dcf_us(dcf_default().difs_ns)
}
fn dcf_eifs() -> f64 {
    dcf_us(dcf_default().eifs_ns)
}
fn dcf_cw_min() -> u32 {
    dcf_default().cw_min
}
fn dcf_cw_max() -> u32 {
    dcf_default().cw_max
}
fn dcf_plcp() -> f64 {
    dcf_us(dcf_default().plcp_ns)
}
fn dcf_header() -> u32 {
    dcf_default().mac_header_bytes
}
fn dcf_retry_limit() -> u32 {
    dcf_default().retry_limit
}
fn dcf_queue() -> u32 {
    dcf_default().queue_packets
}
fn dcf_ll_window() -> u32 {
    dcf_default().ll_retransmission_window
}

/// A DCF's link-level retransmission reading (see `DcfSpec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LlRetransmissionSpec {
    #[default]
    Blocking,
    Deferred,
}

/// A half-duplex packet radio (seed 001 Sec. 5; see
/// `lasthop_net::mac::radio`). Defaults are ns-2.35's `Mac/Multihop`
/// (tcl/lan/ns-mac.tcl), the only source of the paper's lost Table T5.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RadioSpec {
    /// Channel rate, in bit/s. [N] 100 kb/s.
    #[serde(default = "radio_bandwidth")]
    pub bandwidth_bps: f64,
    /// From the end of a data frame's reception to its hand-up, in ms. [N] 10.
    #[serde(default = "radio_hand_up")]
    pub hand_up_latency_ms: f64,
    /// Propagation of every frame on the air, in ms. [R] 0: no source (ns-2
    /// takes it from node positions the paper does not give); a few km of
    /// radio path is microseconds against the turnarounds' milliseconds.
    #[serde(default)]
    pub propagation_ms: f64,
    /// Transmit-to-receive turnaround T_TR, in ms. [N] 11.125.
    #[serde(default = "radio_tx_rx")]
    pub tx_rx_ms: f64,
    /// Receive-to-transmit turnaround T_RT, in ms. [N] 13.25.
    #[serde(default = "radio_rx_tx")]
    pub rx_tx_ms: f64,
    /// Backoff base, in ms. [N] 20.
    #[serde(default = "radio_backoff")]
    pub backoff_base_ms: f64,
    /// RTS (poll) size, in bytes. [N] 40.
    #[serde(default = "radio_control")]
    pub rts_bytes: u32,
    /// CTS (poll ack) size, in bytes. [N] 40.
    #[serde(default = "radio_control")]
    pub cts_bytes: u32,
    /// Bare link-level ack size, in bytes. [R] 40: no source; the size of
    /// ns-2's poll frames (`MAC_POLLSIZE`).
    #[serde(default = "radio_control")]
    pub link_ack_bytes: u32,
    /// MAC header of every data frame, in bytes. [N] 16.
    #[serde(default = "radio_header")]
    pub mac_header_bytes: u32,
    /// Each radio's queue limit, in packets. [R] 10: no source (ns-2's
    /// `Mac/Multihop` sets none, so its interface queue would be `Queue set
    /// limit_` 50); the reference's suggested default, the size of seed
    /// 001's simulated reverse buffer.
    #[serde(default = "radio_queue")]
    pub queue_packets: u32,
    /// Link acks ride on data frames going the other way (the paper's
    /// simulations, Sec. 7.2). [T] true.
    #[serde(default = "radio_piggyback")]
    pub piggyback_acks: bool,
    /// A data frame carrying a link ack is polled for (RTS/CTS) first, as
    /// every data frame is (Sec. 5's MAC; piggybacking saves the bare ack).
    /// false: it replaces the ack and goes without a poll. [T] true.
    #[serde(default = "radio_piggyback")]
    pub poll_before_piggyback: bool,
    /// Link retransmissions before the ARQ gives up on a frame (absent:
    /// never, the paper's "retransmits on timeout").
    #[serde(default)]
    pub retry_limit: Option<u32>,
    /// The discipline of every radio's queue (`fifo` service only): e.g.
    /// `{ ack_filter = true }` for AF at the radios. Absent: drop-tail.
    #[serde(default)]
    pub queue: Option<QueueConfig>,
}

impl Default for RadioSpec {
    fn default() -> RadioSpec {
        RadioSpec {
            bandwidth_bps: radio_bandwidth(),
            hand_up_latency_ms: radio_hand_up(),
            propagation_ms: 0.0,
            tx_rx_ms: radio_tx_rx(),
            rx_tx_ms: radio_rx_tx(),
            backoff_base_ms: radio_backoff(),
            rts_bytes: radio_control(),
            cts_bytes: radio_control(),
            link_ack_bytes: radio_control(),
            mac_header_bytes: radio_header(),
            queue_packets: radio_queue(),
            piggyback_acks: radio_piggyback(),
            poll_before_piggyback: radio_piggyback(),
            retry_limit: None,
            queue: None,
        }
    }
}

fn radio_bandwidth() -> f64 {
    100e3
}
fn radio_hand_up() -> f64 {
    10.0
}
fn radio_tx_rx() -> f64 {
    11.125
}
fn radio_rx_tx() -> f64 {
    13.25
}
fn radio_backoff() -> f64 {
    20.0
}
fn radio_control() -> u32 {
    40
}
fn radio_header() -> u32 {
    16
}
fn radio_queue() -> u32 {
    10
}
fn radio_piggyback() -> bool {
    true
}
