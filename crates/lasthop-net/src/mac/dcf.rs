//! The IEEE 802.11 distributed coordination function (DCF) of an 802.11b
//! cell, as Yun 2009 (seed 004) runs it in ns-2.35 (`Mac/802_11`,
//! mac-802_11.cc): one access point and its stations on one channel
//! (lasthop issue 13; the reference is yun-004.md Sec. 1).
//!
//! Stations (the access point is one of them: any station may address any
//! other) share one channel on which everyone hears everyone: no hidden
//! terminals, no capture, the same propagation delay between every pair
//! (`propagation_ns`, 0 by default \[R\]). IEEE 802.11-1999 Sec. 9.2:
//!
//! - Carrier sense: a station senses the medium busy while any frame is
//!   arriving at it or while it transmits. A frame it hears that is
//!   corrupted or collided makes its next wait EIFS instead of DIFS (Sec.
//!   9.2.3.4); a correct frame ends that. A station transmitting while a
//!   frame arrives does not hear it (no EIFS from it), as in ns-2.
//! - Backoff (Sec. 9.2.4-9.2.5.2): a station with a frame counts down a
//!   backoff drawn uniformly in [0, CW] slots once the medium has been idle
//!   for DIFS (EIFS); the count freezes while the medium is busy (a slot is
//!   counted only when it ends idle) and resumes after the next DIFS
//!   (EIFS); at zero the station transmits. Two stations whose counts end
//!   at the same slot boundary transmit together: any overlap of two frames
//!   on the channel loses both (no capture). Backoff completion times are
//!   computed, never ticked slot by slot: [`Dcf::poll_at`] is the next
//!   instant anything happens.
//! - A backoff is drawn for every frame, also one arriving at a station
//!   whose medium is idle: ns-2 does so (`send()` starts the backoff timer
//!   with DIFS whether the medium is idle or not, `bugFix_timer_ true`),
//!   yun-004.md Sec. 1.2-1.3's figures assume it, and 802.11's immediate
//!   access after DIFS (Sec. 9.2.5.1) is the departure. The DIFS is counted
//!   from when the station starts contending or from when its medium went
//!   idle, whichever is later (ns-2 starts its timer there); the EIFS from
//!   the end of the bad frame.
//! - After every success and every discard CW returns to CWmin and a new
//!   backoff is drawn at once (the post-backoff of Sec. 9.2.5.2; ns-2
//!   `recvACK` and `RetransmitDATA`): it serves the next frame, or runs out
//!   unused if none comes before it ends.
//! - Basic access: data, SIFS, MAC ack (Sec. 9.2.8). The ack goes SIFS
//!   after the data frame without carrier sense. The sender waits for it
//!   until `SIFS + ack + 2 propagation` after its data frame ends (ns-2's
//!   timeout); no ack (collision or error) is a failed attempt: CW doubles
//!   (`2 CW + 1`, at most CWmax) and the frame contends again, or, after
//!   `retry_limit` attempts (the first included: the paper's l, ns-2's
//!   `ShortRetryLimit_` semantics), it is discarded with
//!   [`MacDropCause::RetryLimit`]. The station's queue waits meanwhile
//!   (head-of-line blocking, yun-004.md Sec. 1.5). The receiver acks every
//!   intact data frame and hands up only the first copy (sequence number
//!   and retry bit, Sec. 9.2.9).
//! - RTS/CTS (optional, `rts_threshold_bytes`; off as in the paper): a
//!   frame of at least the threshold is preceded by RTS, SIFS, CTS, SIFS.
//!   Since everyone hears everyone, no NAV is kept: no station can finish a
//!   DIFS inside an exchange's SIFS gaps.
//!
//! Departures (beyond immediate access, above):
//!
//! - The backoff is drawn in [0, CW] as 802.11 says; ns-2 draws
//!   `Random::random() % cw_`, [0, CW - 1] (a mean of 15 slots instead of
//!   15.5 at CWmin).
//! - ns-2 starts its post-success backoff and its retry backoff without a
//!   DIFS on an idle medium (`mhBackoff_.start(cw_, is_idle())`, no DIFS
//!   argument) and, after a bad frame, waits its EIFS NAV and then a DIFS;
//!   we wait DIFS, or EIFS alone, as 802.11 does.
//! - One retry counter per frame: a failed RTS and a failed data frame are
//!   both attempts against `retry_limit` (802.11 and ns-2 keep short and
//!   long counters).
//! - A link-level retransmission delay (`ll_retransmission_delay_ns`,
//!   yun-004.md Sec. 1.4, Fig. 13; seed 004 Sec. 1's "80~100 milliseconds
//!   for loss awareness in UMTS Rel'99") between a failed attempt and the
//!   frame's next one, read one of two ways (yun-004.md ambiguity 9,
//!   [`LlRetransmission`]):
//!   - `Blocking` (the reference's plausible reading, stop-and-wait ARQ of
//!     seed 004 Fig. 1(a)): the station's contention is blocked for that
//!     long after each failure; it still receives and acks meanwhile. The
//!     backoff for the retry is drawn at the failure (doubled CW) and
//!     counted once the block ends.
//!   - `Deferred` (the alternative reading, "retries of a frame scheduled
//!     while others proceed": a selective-repeat link layer such as UMTS
//!     RLC in acknowledged mode): the failed frame is set aside until the
//!     delay has passed and the station goes on serving its queue at once
//!     (the backoff drawn at the failure, with the doubled CW, serves its
//!     next frame). A set-aside frame whose time has come is served next,
//!     before the queue's head (the earliest first), once the station's
//!     current frame is done with; later frames overtake it, and the peer
//!     hands them up out of order. It keeps what 802.11 keeps per frame
//!     (802.11-1999 Sec. 9.2.4-9.2.5.3): its attempt count (the per-MSDU
//!     retry count against `retry_limit`), its sequence number (a resent
//!     frame is a retry of the same MSDU) and whether the peer has handed
//!     it up. The contention window is the station's, as 802.11-1999's:
//!     doubled by every failure, back to CWmin after every success or
//!     discard, whichever frame they were of; a returning frame contends
//!     with the window the station has then \[R\]. At most
//!     `ll_retransmission_window` frames are set aside per station (RLC's
//!     transmit window): while that many are, the queue's head waits and
//!     the station sends nothing new until the earliest comes due \[R\].
//!     The peer recognises a copy of a frame it has handed up whenever it
//!     comes (a selective-repeat receiver's window; modelled by the
//!     sender's record of the frame, not a bounded cache as 802.11's
//!     last-sequence-number check is, which only works in order).
//!     `Retry` and `Drop` come out exactly as in `Blocking`: `Retry` at
//!     the failure that sets a frame aside, `Drop` at the last failure.
//! - Frame errors come from the sending station's [`ErrorModel`] (one per
//!   destination if given, else the station's), consulted once per data
//!   frame transmission with the MPDU's size (payload, headers and the
//!   34-byte MAC framing; the PLCP header is error-free). A corrupted frame
//!   is corrupted for every listener. MAC acks, RTS and CTS are error-free
//!   unless `control_frame_errors`: under yun-004.md's Markov model the
//!   MAC ack shares its data frame's fate (Sec. 1.4 \[I\]); with bit errors
//!   it would be lost with probability about FER / 77. ns-2 has no
//!   infrastructure handoff scan here (yun-004.md Sec. 1.1's quirk).
//!
//! Outputs, beyond the family's: [`MacOutput::Retry`] when an attempt
//! failed and the frame will be sent again (its `attempt` is the next
//! one's number: 2 at the first link-level retransmission, ERSN's trigger
//! in LL-ELSN, issue 13 item 3); a discard is the family's `Drop` with
//! `RetryLimit` (ELN's trigger). A frame is handed up (`Deliver`) when its
//! reception ends, before its MAC ack (ns-2 `recvDATA`).
//!
//! Internal events at one instant run in this order: receptions ending
//! (frames leaving the channel, their addressees acting on them), then
//! station timers (transmissions ending, reply and ack deadlines, replies
//! and backoffs ending, so two backoffs ending at once both transmit),
//! then receptions starting (which freeze the other stations' backoffs);
//! ties by station index or by the order frames went on the air.

use super::medium::{self, Air, Earliest, Events, Item, OnAir};
use super::station_queue::StationQueue;
use super::{MacDropCause, MacOutput, StationId};
use crate::error::ErrorModel;
use crate::queue::{Admission, QueueConfig, QueueLimit, Removal, Waiting};
use lasthop_core::rng::RngStream;
use lasthop_core::time::{NS_PER_S, NS_PER_US};
use lasthop_core::{PacketPool, Time};

pub use super::medium::{AirRecord, FrameClass, Heard};

/// What a station does between a failed attempt and the frame's next one
/// when there is a link-level retransmission delay (yun-004.md ambiguity
/// 9; the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LlRetransmission {
    /// Stop-and-wait: the station's contention is blocked for the delay,
    /// then the frame is retried; its queue waits. \[R\] yun-004.md's
    /// plausible reading.
    #[default]
    Blocking,
    /// Selective repeat: the frame is set aside for the delay while the
    /// station serves its queue; then it is served before the queue's
    /// head. yun-004.md's alternative reading.
    Deferred,
}

/// Parameters of an 802.11 DCF medium (all its stations alike). Sources:
/// \[N\] ns-2.35 (tcl/lib/ns-default.tcl, mac/mac-802_11.{h,cc}), \[T\]
/// the text (Yun 2009, via yun-004.md Sec. 1.1), \[R\] our reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DcfConfig {
    /// Data frame rate, in bits per second. \[T\] Sec. 5.1, 11 Mb/s
    /// (ns-2 `dataRate_ 11Mb`).
    pub data_rate_bps: u64,
    /// Control frame rate (MAC ack, RTS, CTS), in bits per second. \[T\]
    /// Sec. 5.1 "data and ACK frames ... 11 Mbps" (ns-2 `basicRate_`;
    /// yun-004.md ambiguity 4).
    pub control_rate_bps: u64,
    /// Slot time, in ns. \[N\] `SlotTime_ 20us`.
    pub slot_ns: u64,
    /// SIFS, in ns. \[N\] `SIFS_ 10us`.
    pub sifs_ns: u64,
    /// DIFS, in ns. \[N\] SIFS + 2 slots = 50 us.
    pub difs_ns: u64,
    /// EIFS, in ns. \[N\] SIFS + DIFS + a MAC ack (with its PLCP header,
    /// 38 B) at the 1 Mb/s PLCP rate: 10 + 50 + 304 = 364 us.
    pub eifs_ns: u64,
    /// Minimum contention window, in slots. \[N\] `CWMin_ 31`.
    pub cw_min: u32,
    /// Maximum contention window, in slots. \[N\] `CWMax_ 1023`.
    pub cw_max: u32,
    /// PLCP preamble and header before every frame, in ns. \[N\] long
    /// preamble, 144 + 48 bits at 1 Mb/s = 192 us.
    pub plcp_ns: u64,
    /// MAC header and FCS added to every data frame, in bytes. \[N\] 30 B
    /// (four addresses) + 4 B FCS = 34 B (real 802.11 data frames: 28 B).
    pub mac_header_bytes: u32,
    /// MAC ack frame, in bytes. \[N\] 14 B.
    pub ack_bytes: u32,
    /// RTS frame, in bytes. \[N\] 20 B.
    pub rts_bytes: u32,
    /// CTS frame, in bytes. \[N\] 14 B.
    pub cts_bytes: u32,
    /// Data frames (MPDU: packet + MAC header) of at least this many bytes
    /// go after an RTS/CTS exchange (`None`: never). \[T\] Sec. 5.1 off
    /// (ns-2's comparison is `size >= RTSThreshold_`).
    pub rts_threshold_bytes: Option<u32>,
    /// Attempts per frame, the first included (the paper's l, Sec. 3.1),
    /// before it is discarded. \[N\] `ShortRetryLimit_ 7`, whose ns-2
    /// semantics are exactly this (`RetransmitDATA` discards when the count
    /// of failures reaches it); the paper's runs use 1, 2 and others.
    pub retry_limit: u32,
    /// Each station's queue limit, in packets (drop-tail; the frame the MAC
    /// is sending is not counted, as ns-2's interface queue does not count
    /// `pktTx_`). \[T\] Sec. 5.1, 50.
    pub queue_packets: u32,
    /// Time between a failed attempt and the frame's next one, in ns.
    /// \[T\] 0; 100 ms in the ERSN experiment (Sec. 5.2, Fig. 13).
    pub ll_retransmission_delay_ns: u64,
    /// What the station does meanwhile (yun-004.md ambiguity 9). \[R\]
    /// `Blocking`, the reference's plausible reading.
    pub ll_retransmission: LlRetransmission,
    /// `Deferred` only: frames a station may hold set aside at once. \[R\]
    /// 16 (100 ms of 9 % loss at the cell's ~700 frames/s sets about 6
    /// aside; UMTS RLC's windows are larger, but TCP's window bounds what
    /// a flow has in flight).
    pub ll_retransmission_window: u32,
    /// Propagation delay between any two stations, in ns. \[R\] 0 (a cell
    /// spans tens of metres; ns-2 charges `DSSS_MaxPropagationDelay` 2 us
    /// in its timeouts only).
    pub propagation_ns: u64,
    /// Whether MAC acks, RTS and CTS consult their sender's error model
    /// too. \[R\] false: under the paper's Markov model a MAC ack shares its
    /// data frame's fate (yun-004.md Sec. 1.4).
    pub control_frame_errors: bool,
}

impl Default for DcfConfig {
    fn default() -> DcfConfig {
        DcfConfig {
            data_rate_bps: 11_000_000,
            control_rate_bps: 11_000_000,
            slot_ns: 20 * NS_PER_US,
            sifs_ns: 10 * NS_PER_US,
            difs_ns: 50 * NS_PER_US,
            eifs_ns: 364 * NS_PER_US,
            cw_min: 31,
            cw_max: 1023,
            plcp_ns: 192 * NS_PER_US,
            mac_header_bytes: 34,
            ack_bytes: 14,
            rts_bytes: 20,
            cts_bytes: 14,
            rts_threshold_bytes: None,
            retry_limit: 7,
            queue_packets: 50,
            ll_retransmission_delay_ns: 0,
            ll_retransmission: LlRetransmission::Blocking,
            ll_retransmission_window: 16,
            propagation_ns: 0,
            control_frame_errors: false,
        }
    }
}

impl DcfConfig {
    /// The first invalid field and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if self.data_rate_bps == 0 {
            return Err(("data_rate_bps", "must be positive"));
        }
        if self.control_rate_bps == 0 {
            return Err(("control_rate_bps", "must be positive"));
        }
        if self.slot_ns == 0 {
            return Err(("slot_ns", "must be positive"));
        }
        if self.difs_ns <= self.sifs_ns {
            return Err(("difs_ns", "must be longer than sifs_ns (acks go after SIFS, contention after DIFS)"));
        }
        if self.eifs_ns < self.difs_ns {
            return Err(("eifs_ns", "must be at least difs_ns"));
        }
        if self.cw_min > self.cw_max {
            return Err(("cw_min", "must not exceed cw_max"));
        }
        if self.plcp_ns == 0 && (self.ack_bytes == 0 || self.rts_bytes == 0 || self.cts_bytes == 0) {
            return Err(("plcp_ns", "frames must take time: a PLCP header or control frame sizes"));
        }
        if self.ack_bytes == 0 || self.rts_bytes == 0 || self.cts_bytes == 0 {
            return Err(("ack_bytes", "control frames must have a size"));
        }
        if self.retry_limit == 0 {
            return Err(("retry_limit", "counts attempts, the first included: at least 1"));
        }
        if self.queue_packets == 0 {
            return Err(("queue_packets", "must be at least 1"));
        }
        if !(1..=MAX_SET_ASIDE).contains(&self.ll_retransmission_window) {
            return Err(("ll_retransmission_window", "must be in 1..=64 (frames set aside per station)"));
        }
        Ok(())
    }

    /// Whether `q` can serve a station's queue (any discipline that drops
    /// nothing at dequeue: the MAC takes the head when it has no frame, and
    /// never peeks).
    pub fn validate_queue(&self, q: &QueueConfig) -> Result<(), (String, String)> {
        if let Some(aqm) = q.drops_at_dequeue() {
            return Err((
                aqm.into(),
                "drops at dequeue, which a station's queue does not: point-to-point links only".into(),
            ));
        }
        q.validate(QueueLimit { packets: Some(self.queue_packets), bytes: None })
    }

    /// Time on the air of a frame of `bytes` (after the PLCP header) at
    /// `rate_bps`, in ns: the PLCP header, then the bits (rounded up).
    pub fn frame_ns(&self, bytes: u32, rate_bps: u64) -> u64 {
        self.plcp_ns + (u64::from(bytes) * 8 * NS_PER_S).div_ceil(rate_bps)
    }

    /// Time on the air of a data frame carrying a packet of `packet_bytes`.
    pub fn data_ns(&self, packet_bytes: u32) -> u64 {
        self.frame_ns(packet_bytes + self.mac_header_bytes, self.data_rate_bps)
    }

    /// Time on the air of a MAC ack.
    pub fn ack_ns(&self) -> u64 {
        self.frame_ns(self.ack_bytes, self.control_rate_bps)
    }

    fn uses_rts(&self, packet_bytes: u32) -> bool {
        self.rts_threshold_bytes.is_some_and(|t| packet_bytes + self.mac_header_bytes >= t)
    }
}

/// The largest `ll_retransmission_window` (a station's set-aside frames
/// are scanned at every decision).
pub const MAX_SET_ASIDE: u32 = 64;

/// Counters of one station.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DcfStats {
    /// Frames handed to the station by the world (refused ones included).
    pub enqueued: u64,
    /// Attempts started (a data frame, or an RTS for one).
    pub attempts: u64,
    /// Data frames put on the air (link retransmissions included).
    pub data_frames_sent: u64,
    /// Failed attempts followed by another (`Retry` outputs).
    pub retries: u64,
    /// Frames this station sent that overlapped another on the channel.
    pub collisions: u64,
    /// Data frames this station sent that its error model corrupted.
    pub data_frames_corrupted: u64,
    /// MAC acks received for this station's frames (successes).
    pub acks_received: u64,
    pub ack_timeouts: u64,
    pub cts_timeouts: u64,
    pub acks_sent: u64,
    pub rts_sent: u64,
    pub cts_sent: u64,
    /// Intact data frames received (duplicates included).
    pub data_frames_received: u64,
    /// Data frames handed up (first copies).
    pub delivered_up: u64,
    /// Retransmitted data frames received again and not handed up.
    pub duplicates_suppressed: u64,
    /// Waits that were EIFS, not DIFS (after a bad frame heard).
    pub eifs_waits: u64,
    /// Backoffs drawn, and their slots in total.
    pub backoffs: u64,
    pub backoff_slots_drawn: u64,
    /// Time spent waiting DIFS or EIFS of idle medium, in ns.
    pub ifs_ns: u64,
    /// Time spent counting backoff slots (a slot cut short by a busy
    /// medium included), in ns.
    pub backoff_ns: u64,
    /// Time blocked by the link-level retransmission delay, in ns
    /// (`Blocking`).
    pub blocked_ns: u64,
    /// Failed frames set aside for the link-level retransmission delay
    /// (`Deferred`).
    pub set_aside: u64,
    /// Time on the air (all frames sent), in ns.
    pub airtime_ns: u64,
    /// Arrivals refused by the full queue (or victims in their place).
    pub drops_queue: u64,
    /// Pure acks the queue's ACK filter purged.
    pub drops_filtered: u64,
    /// Frames discarded after `retry_limit` attempts, the peer never
    /// having received them.
    pub drops_retry_limit: u64,
    /// Frames discarded after `retry_limit` attempts although the peer
    /// had received them (their MAC acks were lost).
    pub gave_up_delivered: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameKind {
    Data { frame: Waiting, seq: u32 },
    Ack,
    Rts,
    Cts,
}

impl FrameKind {
    fn class(&self) -> FrameClass {
        match self {
            FrameKind::Data { .. } => FrameClass::Data,
            FrameKind::Ack => FrameClass::Ack,
            FrameKind::Rts => FrameClass::Rts,
            FrameKind::Cts => FrameClass::Cts,
        }
    }
}

/// The frame a station holds at the head of its line.
#[derive(Clone, Copy, Debug)]
struct Outgoing {
    to: StationId,
    frame: Waiting,
    seq: u32,
    /// Attempts started (RTS or data).
    attempts: u32,
    /// Data frames sent.
    transmissions: u32,
    /// The peer has handed it up (it no longer counts as in flight here).
    handed_up: bool,
}

/// A failed frame set aside until `due` (`LlRetransmission::Deferred`).
#[derive(Clone, Copy, Debug)]
struct Aside {
    due: Time,
    frame: Outgoing,
}

/// A frame a station sends SIFS after a reception, whatever the medium.
#[derive(Clone, Copy, Debug)]
struct Reply {
    at: Time,
    to: StationId,
    /// Ack, CTS, or the data frame after a CTS.
    kind: ReplyKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReplyKind {
    Ack,
    Cts,
    Data,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Awaiting {
    Ack { deadline: Time },
    Cts { deadline: Time },
}

impl Awaiting {
    fn deadline(&self) -> Time {
        match *self {
            Awaiting::Ack { deadline } | Awaiting::Cts { deadline } => deadline,
        }
    }
}

/// A backoff being counted down: the wait began at `ifs_start`, slots are
/// counted from `count_from` (after DIFS or EIFS).
#[derive(Clone, Copy, Debug)]
struct Counting {
    ifs_start: Time,
    count_from: Time,
}

#[derive(Clone, Copy, Debug)]
struct Tx {
    kind: FrameKind,
    start: Time,
    end: Time,
}

#[derive(Clone, Debug)]
struct Station {
    /// The interface queue, with each frame's next hop.
    iq: StationQueue,
    current: Option<Outgoing>,
    cw: u32,
    /// Backoff slots left (`None`: no backoff pending).
    backoff_slots: Option<u32>,
    counting: Option<Counting>,
    /// Contention blocked until then (the link retransmission delay).
    blocked_until: Option<Time>,
    blocked_from: Time,
    /// Failed frames set aside (`Deferred`), in the order they were: at
    /// most `ll_retransmission_window`, its capacity from the start.
    aside: Vec<Aside>,
    window: usize,
    /// Frames arriving at the station plus its own transmission.
    busy: u32,
    /// Its medium has been idle since (valid while `busy == 0`).
    medium_idle_since: Time,
    /// The last frame it heard was bad: its next wait is EIFS.
    eifs: bool,
    tx: Option<Tx>,
    /// Its last transmission's start and end: the current one's while it
    /// transmits (set when it starts), so a reception's end tests one pair.
    last_tx: (Time, Time),
    reply: Option<Reply>,
    awaiting: Option<Awaiting>,
    next_seq: u32,
    /// Per sender: the sequence number of the last frame handed up, plus 1
    /// (0: none yet).
    last_seq_from: Vec<u32>,
    rng: RngStream,
    error: ErrorModel,
    error_to: Vec<(StationId, ErrorModel)>,
    stats: DcfStats,
}

impl Station {
    /// The set-aside frame served next: the earliest due (the first set
    /// aside among equals), with its place.
    fn next_aside(&self) -> Option<(usize, Time)> {
        let mut best: Option<(usize, Time)> = None;
        for (i, a) in self.aside.iter().enumerate() {
            if best.is_none_or(|(_, t)| a.due < t) {
                best = Some((i, a.due));
            }
        }
        best
    }

    /// Take the next frame as the current one, if there is none: a
    /// set-aside frame whose delay has passed, else the queue's head
    /// unless the set-aside frames fill their window.
    fn take_head(&mut self, now: Time) {
        if self.current.is_none() {
            if let Some((i, due)) = self.next_aside() {
                if due <= now {
                    self.current = Some(self.aside.remove(i).frame);
                    return;
                }
                if self.aside.len() >= self.window {
                    return;
                }
            }
            if let Some((to, frame)) = self.iq.pop(now) {
                let seq = self.next_seq;
                self.next_seq = self.next_seq.wrapping_add(1);
                self.current = Some(Outgoing { to, frame, seq, attempts: 0, transmissions: 0, handed_up: false });
            }
        }
    }

    /// A station without a frame takes the next one ([`Self::take_head`])
    /// to contend with: \[N\] `send()`, a backoff for every frame, unless
    /// one (a post-backoff) is already under way. (No frame: the queue is
    /// empty, or the set-aside ones fill their window.)
    fn take_head_to_contend(&mut self, now: Time) {
        self.take_head(now);
        if self.backoff_slots.is_none() && self.current.is_some() {
            self.draw_backoff();
        }
    }

    fn draw_backoff(&mut self) {
        // [T] 802.11 Sec. 9.2.4: uniform in [0, CW].
        let slots = self.rng.below(u64::from(self.cw) + 1) as u32;
        self.backoff_slots = Some(slots);
        self.stats.backoffs += 1;
        self.stats.backoff_slots_drawn += u64::from(slots);
    }

    fn backoff_end(&self, slot_ns: u64) -> Option<Time> {
        let c = self.counting?;
        Some(c.count_from.plus_ns(u64::from(self.backoff_slots.expect("counting a backoff")) * slot_ns))
    }

    /// The station's next timer: its transmission ending, a reply or ack
    /// deadline, a reply, its block ending, a set-aside frame coming due
    /// (without a frame), its backoff ending; `Time::NEVER` if none.
    fn wake(&self, slot_ns: u64) -> Time {
        let mut t = Time::NEVER;
        if let Some(tx) = self.tx {
            t = t.min(tx.end);
        }
        if let Some(a) = self.awaiting {
            t = t.min(a.deadline());
        }
        if let Some(r) = self.reply {
            t = t.min(r.at);
        }
        if let Some(b) = self.blocked_until {
            t = t.min(b);
        }
        // A set-aside frame's delay ends: it matters only to a station
        // without a frame (else it is taken when that one is done with).
        if self.current.is_none() {
            if let Some((_, due)) = self.next_aside() {
                t = t.min(due);
            }
        }
        if let Some(b) = self.backoff_end(slot_ns) {
            t = t.min(b);
        }
        t
    }

    /// It was transmitting while a frame arrived from `rx_start` to
    /// `rx_end`, so it never heard it.
    fn deaf_to(&self, rx_start: Time, rx_end: Time) -> bool {
        let (t0, t1) = self.last_tx;
        t0 < rx_end && t1 > rx_start
    }

    /// [`Dcf::resume`] for this station.
    fn resume(&mut self, cfg: &DcfConfig, now: Time) -> bool {
        // The common answer first: no backoff pending, or one being counted.
        if self.backoff_slots.is_none() || self.counting.is_some() || self.busy > 0 {
            return false;
        }
        if self.tx.is_some() || self.reply.is_some() || self.awaiting.is_some() || self.blocked_until.is_some() {
            return false;
        }
        let ifs = if self.eifs { cfg.eifs_ns } else { cfg.difs_ns };
        let eifs_used = self.eifs && self.medium_idle_since.plus_ns(cfg.eifs_ns) > now.plus_ns(cfg.difs_ns);
        self.stats.eifs_waits += u64::from(eifs_used);
        let count_from = self.medium_idle_since.plus_ns(ifs).max(now.plus_ns(cfg.difs_ns));
        self.counting = Some(Counting { ifs_start: now, count_from });
        true
    }

    fn error_model(&mut self, to: StationId) -> &mut ErrorModel {
        match self.error_to.iter().position(|(p, _)| *p == to) {
            Some(i) => &mut self.error_to[i].1,
            None => &mut self.error,
        }
    }
}

/// What a frame on the air has come to on the channel.
#[derive(Clone, Copy, Debug)]
struct Channel {
    /// It overlapped another frame.
    collided: bool,
    /// Its reception has started (the other stations sense it).
    sensed: bool,
}

/// What became of frame `a` on the channel.
fn heard(a: &Air<FrameKind, Channel>) -> Heard {
    if a.state.collided {
        Heard::Collided
    } else if a.corrupted {
        Heard::Corrupted
    } else {
        Heard::Intact
    }
}

/// An 802.11 DCF medium and its stations.
#[derive(Clone, Debug)]
pub struct Dcf {
    cfg: DcfConfig,
    stations: Vec<Station>,
    /// Each station's next timer ([`Station::wake`]), kept up to date by
    /// [`Dcf::refresh`] whenever the station's state changes, so finding
    /// the next event reads one word per station (a debug assertion in
    /// the search for the next event recomputes it from scratch).
    wakes: Vec<Time>,
    /// The next internal event (`Events::earliest`), recomputed after
    /// every change of state ([`Dcf::enqueue`], each event of
    /// [`Dcf::on_timer`]), so that [`Dcf::poll_at`] reads it instead of
    /// searching again (a debug assertion there searches and compares).
    next: Option<(Time, Item)>,
    air: OnAir<FrameKind, Channel>,
}

impl Dcf {
    /// A medium of `n` stations with configuration `cfg` (validated);
    /// station `s` draws its backoffs from `stream(s)`.
    pub fn new(cfg: DcfConfig, n: usize, mut stream: impl FnMut(usize) -> RngStream) -> Dcf {
        assert!(n <= usize::from(StationId::MAX), "station ids are 16 bits");
        let stations = (0..n)
            .map(|s| Station {
                iq: StationQueue::new(cfg.queue_packets),
                current: None,
                cw: cfg.cw_min,
                backoff_slots: None,
                counting: None,
                blocked_until: None,
                blocked_from: Time::ZERO,
                aside: Vec::with_capacity(match cfg.ll_retransmission {
                    LlRetransmission::Blocking => 0,
                    LlRetransmission::Deferred => cfg.ll_retransmission_window as usize,
                }),
                window: cfg.ll_retransmission_window as usize,
                busy: 0,
                medium_idle_since: Time::ZERO,
                eifs: false,
                tx: None,
                last_tx: (Time::ZERO, Time::ZERO),
                reply: None,
                awaiting: None,
                next_seq: 0,
                last_seq_from: vec![0; n],
                rng: stream(s),
                error: ErrorModel::none(),
                error_to: Vec::new(),
                stats: DcfStats::default(),
            })
            .collect();
        Dcf { cfg, stations, wakes: vec![Time::NEVER; n], next: None, air: OnAir::with_capacity(4) }
    }

    /// Give station `s` an error model for every frame it sends (but those
    /// to a peer given its own model).
    pub fn with_error_model(mut self, s: StationId, error: ErrorModel) -> Dcf {
        self.stations[usize::from(s)].error = error;
        self
    }

    /// Give station `s` an error model for the frames it sends to `to`
    /// (the access point's link to one station: yun-004.md Sec. 1.4's "one
    /// chain per station link").
    pub fn with_link_error_model(mut self, s: StationId, to: StationId, error: ErrorModel) -> Dcf {
        let st = &mut self.stations[usize::from(s)];
        st.error_to.retain(|(p, _)| *p != to);
        st.error_to.push((to, error));
        self
    }

    /// Serve every station's queue with the discipline `cfg` (validated,
    /// [`DcfConfig::validate_queue`]); station `s` draws from `stream(s)`
    /// if the discipline draws.
    pub fn with_queue_discipline(mut self, cfg: &QueueConfig, mut stream: impl FnMut(usize) -> RngStream) -> Dcf {
        let c = self.cfg;
        for (s, st) in self.stations.iter_mut().enumerate() {
            st.iq.serve_with(c.queue_packets, cfg, |bytes| c.data_ns(bytes), || stream(s));
        }
        self
    }

    /// Record every frame's life on the air (diagnostics, tests).
    pub fn with_air_log(mut self) -> Dcf {
        self.record_air();
        self
    }

    /// Start recording every frame's life on the air, in place.
    pub fn record_air(&mut self) {
        self.air.record();
    }

    /// The frames recorded, in the order their receptions ended.
    pub fn air_log(&self) -> &[AirRecord] {
        self.air.records()
    }

    pub fn config(&self) -> &DcfConfig {
        &self.cfg
    }

    pub fn stations(&self) -> usize {
        self.stations.len()
    }

    pub fn stats(&self, s: StationId) -> &DcfStats {
        &self.stations[usize::from(s)].stats
    }

    /// Frames station `s` holds in its queue (not its current frame).
    pub fn queue_len(&self, s: StationId) -> usize {
        self.stations[usize::from(s)].iq.len()
    }

    /// Station `s`'s contention window, in slots.
    pub fn contention_window(&self, s: StationId) -> u32 {
        self.stations[usize::from(s)].cw
    }

    /// Frames held: queued, or being sent (set aside included) and not
    /// yet handed up by the peer.
    pub fn in_flight(&self) -> usize {
        let held = |c: &Outgoing| usize::from(!c.handed_up);
        self.stations
            .iter()
            .map(|st| {
                st.iq.len()
                    + st.current.as_ref().map_or(0, held)
                    + st.aside.iter().map(|a| held(&a.frame)).sum::<usize>()
            })
            .sum()
    }

    /// Frames station `s` holds set aside (`Deferred`).
    pub fn set_aside_len(&self, s: StationId) -> usize {
        self.stations[usize::from(s)].aside.len()
    }

    /// A frame queued at `s` for `to` at `now`, as a link direction's
    /// queue takes it: `Refused` if the queue is full (counted; the packet
    /// is the caller's), or `Removed` with what the discipline let go of in
    /// `removed` (the caller frees and counts them). Nothing goes on the
    /// air at once (DIFS comes first), so `_out` stays untouched.
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub fn enqueue(
        &mut self,
        now: Time,
        s: StationId,
        to: StationId,
        frame: Waiting,
        pool: &mut PacketPool,
        removed: &mut Vec<Removal>,
        _out: &mut Vec<MacOutput>,
    ) -> Admission {
        debug_assert!(s != to && usize::from(to) < self.stations.len(), "a frame goes to another station");
        let st = &mut self.stations[usize::from(s)];
        st.stats.enqueued += 1;
        let drops = (&mut st.stats.drops_queue, &mut st.stats.drops_filtered);
        let sending = st.current.is_some() || !st.aside.is_empty();
        let a = st.iq.offer(now, frame, to, sending, pool, removed, drops);
        if a.queued() && st.current.is_none() {
            st.take_head_to_contend(now);
            self.resume(usize::from(s), now);
            self.refresh(usize::from(s));
            self.next = self.earliest();
        }
        a
    }

    /// When the medium next needs [`Dcf::on_timer`].
    pub fn poll_at(&self) -> Time {
        medium::poll_at(self.next, self)
    }

    /// Run every internal event due at or before `now`, each at its own time.
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<MacOutput>) {
        medium::run_due(self, now, out);
    }

    /// Station `s`'s state changed: recompute its next timer.
    fn refresh(&mut self, s: usize) {
        self.wakes[s] = self.stations[s].wake(self.cfg.slot_ns);
    }

    fn on_station_timer(&mut self, s: usize, now: Time, out: &mut Vec<MacOutput>) {
        if self.stations[s].tx.is_some_and(|tx| tx.end <= now) {
            self.on_tx_end(s, now);
        }
        if self.stations[s].awaiting.is_some_and(|a| a.deadline() <= now) {
            self.on_timeout(s, now, out);
        }
        if let Some(r) = self.stations[s].reply.filter(|r| r.at <= now) {
            self.stations[s].reply = None;
            let kind = match r.kind {
                ReplyKind::Ack => FrameKind::Ack,
                ReplyKind::Cts => FrameKind::Cts,
                ReplyKind::Data => {
                    let c = self.stations[s].current.expect("a CTS grants the current frame");
                    FrameKind::Data { frame: c.frame, seq: c.seq }
                }
            };
            self.transmit(s, r.to, kind, now, out);
        }
        let st = &mut self.stations[s];
        if st.blocked_until.is_some_and(|b| b <= now) {
            st.blocked_until = None;
            st.stats.blocked_ns += now.since(st.blocked_from);
        }
        // A set-aside frame is due at a station without a frame: it takes
        // the backoff under way (a post-backoff) or draws one, as a frame
        // arriving from the queue would.
        if st.current.is_none() && st.next_aside().is_some_and(|(_, due)| due <= now) {
            st.take_head_to_contend(now);
        }
        if st.backoff_end(self.cfg.slot_ns).is_some_and(|b| b <= now) {
            let c = st.counting.take().expect("counting");
            let slots = st.backoff_slots.take().expect("counting a backoff");
            st.stats.ifs_ns += c.count_from.since(c.ifs_start);
            st.stats.backoff_ns += u64::from(slots) * self.cfg.slot_ns;
            if let Some(c) = st.current {
                self.start_attempt(s, c, now, out);
            }
        }
        self.resume(s, now);
        self.refresh(s);
    }

    /// The backoff for the current frame `c` is over: RTS or data.
    fn start_attempt(&mut self, s: usize, c: Outgoing, now: Time, out: &mut Vec<MacOutput>) {
        let st = &mut self.stations[s];
        st.stats.attempts += 1;
        st.current.as_mut().expect("current").attempts += 1;
        let kind = if self.cfg.uses_rts(c.frame.size_bytes) {
            FrameKind::Rts
        } else {
            FrameKind::Data { frame: c.frame, seq: c.seq }
        };
        self.transmit(s, c.to, kind, now, out);
    }

    fn frame_ns(&self, kind: &FrameKind) -> u64 {
        let c = &self.cfg;
        match kind {
            FrameKind::Data { frame, .. } => c.data_ns(frame.size_bytes),
            FrameKind::Ack => c.ack_ns(),
            FrameKind::Rts => c.frame_ns(c.rts_bytes, c.control_rate_bps),
            FrameKind::Cts => c.frame_ns(c.cts_bytes, c.control_rate_bps),
        }
    }

    /// Station `s` puts `kind` on the air for `to` at `now`.
    fn transmit(&mut self, s: usize, to: StationId, kind: FrameKind, now: Time, out: &mut Vec<MacOutput>) {
        let tx_ns = self.frame_ns(&kind);
        let end = now.plus_ns(tx_ns);
        let cfg = self.cfg;
        let st = &mut self.stations[s];
        debug_assert!(st.tx.is_none() && st.counting.is_none(), "one thing at a time");
        st.tx = Some(Tx { kind, start: now, end });
        st.last_tx = (now, end);
        st.busy += 1;
        st.stats.airtime_ns += tx_ns;
        let size = match kind {
            FrameKind::Data { frame, .. } => frame.size_bytes + cfg.mac_header_bytes,
            FrameKind::Ack => cfg.ack_bytes,
            FrameKind::Rts => cfg.rts_bytes,
            FrameKind::Cts => cfg.cts_bytes,
        };
        let (data, consult) = match &kind {
            FrameKind::Data { frame, .. } => (Some(frame), true),
            _ => (None, cfg.control_frame_errors),
        };
        let corrupted = consult && medium::corrupts(st.error_model(to), now, tx_ns, data, size);
        match kind {
            FrameKind::Data { frame, .. } => {
                st.stats.data_frames_sent += 1;
                st.stats.data_frames_corrupted += u64::from(corrupted);
                let c = st.current.as_mut().expect("sending the current frame");
                let retransmission = c.transmissions > 0;
                c.transmissions += 1;
                let held = !c.handed_up;
                out.push(MacOutput::Transmit { station: s as StationId, to, frame, retransmission, held });
            }
            FrameKind::Ack => st.stats.acks_sent += 1,
            FrameKind::Rts => st.stats.rts_sent += 1,
            FrameKind::Cts => st.stats.cts_sent += 1,
        }
        // No capture: any overlap on the channel loses both frames.
        let mut collided = false;
        for a in self.air.frames.iter_mut().filter(|a| a.end > now) {
            a.state.collided = true;
            collided = true;
        }
        let prop = cfg.propagation_ns;
        self.air.push(s as StationId, to, kind, (now, end), prop, corrupted, Channel { collided, sensed: false });
    }

    fn on_tx_end(&mut self, s: usize, now: Time) {
        let (p, sifs) = (self.cfg.propagation_ns, self.cfg.sifs_ns);
        let ack_ns = self.cfg.ack_ns();
        let cts_ns = self.frame_ns(&FrameKind::Cts);
        let st = &mut self.stations[s];
        let tx = st.tx.take().expect("transmitting");
        debug_assert_eq!(st.last_tx, (tx.start, tx.end), "set when it started");
        st.busy -= 1;
        if st.busy == 0 {
            st.medium_idle_since = now;
        }
        // [N] the timeouts of check_pktTx / check_pktRTS, from the frame's
        // end: the reply's SIFS and duration and the round trip.
        match tx.kind {
            FrameKind::Data { .. } => {
                st.awaiting = Some(Awaiting::Ack { deadline: now.plus_ns(2 * p + sifs + ack_ns) });
            }
            FrameKind::Rts => st.awaiting = Some(Awaiting::Cts { deadline: now.plus_ns(2 * p + sifs + cts_ns) }),
            FrameKind::Ack | FrameKind::Cts => {}
        }
    }

    /// No ack (or CTS) came in time: the attempt failed.
    fn on_timeout(&mut self, s: usize, now: Time, out: &mut Vec<MacOutput>) {
        let cfg = self.cfg;
        let st = &mut self.stations[s];
        match st.awaiting.take().expect("awaiting") {
            Awaiting::Ack { .. } => st.stats.ack_timeouts += 1,
            Awaiting::Cts { .. } => st.stats.cts_timeouts += 1,
        }
        let c = st.current.expect("awaiting a reply for the current frame");
        if c.attempts >= cfg.retry_limit {
            // [N] RetransmitDATA: discard when the count reaches the limit;
            // CW back to CWmin, and a new backoff.
            st.current = None;
            st.iq.idle_since = now;
            if c.handed_up {
                st.stats.gave_up_delivered += 1;
            } else {
                st.stats.drops_retry_limit += 1;
                out.push(MacOutput::Drop { station: s as StationId, frame: c.frame, cause: MacDropCause::RetryLimit });
            }
            st.cw = cfg.cw_min;
            st.draw_backoff();
            st.take_head(now);
        } else {
            st.stats.retries += 1;
            st.cw = (2 * st.cw + 1).min(cfg.cw_max);
            st.draw_backoff();
            let held = !c.handed_up;
            out.push(MacOutput::Retry {
                station: s as StationId,
                to: c.to,
                frame: c.frame,
                attempt: c.attempts + 1,
                held,
            });
            if cfg.ll_retransmission_delay_ns > 0 {
                let until = now.plus_ns(cfg.ll_retransmission_delay_ns);
                match cfg.ll_retransmission {
                    LlRetransmission::Blocking => {
                        st.blocked_until = Some(until);
                        st.blocked_from = now;
                    }
                    LlRetransmission::Deferred => {
                        // Set aside (at most the window: a frame is taken
                        // from the queue only below it); the backoff just
                        // drawn serves the next frame.
                        debug_assert!(st.aside.len() < st.window, "the window has room for the current frame");
                        st.aside.push(Aside { due: until, frame: c });
                        st.current = None;
                        st.stats.set_aside += 1;
                        st.take_head(now);
                    }
                }
            }
        }
    }

    /// Frame `i` starts arriving: every other station senses the medium
    /// busy, and a backoff being counted freezes with the slots that ended
    /// idle counted.
    fn on_rx_start(&mut self, i: usize, now: Time) {
        self.air.frames[i].state.sensed = true;
        let from = usize::from(self.air.frames[i].from);
        let slot = self.cfg.slot_ns;
        for (s, (st, wake)) in self.stations.iter_mut().zip(self.wakes.iter_mut()).enumerate() {
            if s == from {
                continue;
            }
            st.busy += 1;
            if let Some(c) = st.counting.take() {
                let slots = st.backoff_slots.as_mut().expect("counting a backoff");
                if now > c.count_from {
                    let elapsed = now.since(c.count_from);
                    let done = (elapsed / slot) as u32;
                    debug_assert!(done < *slots, "a backoff ending now has already transmitted");
                    *slots -= done;
                    st.stats.backoff_ns += elapsed;
                    st.stats.ifs_ns += c.count_from.since(c.ifs_start);
                } else {
                    st.stats.ifs_ns += now.since(c.ifs_start);
                }
                *wake = st.wake(slot);
            }
        }
    }

    /// Frame `i` has left the channel: every other station that heard it
    /// updates its carrier sense and EIFS state; its addressee, if it got
    /// it intact, acts on it.
    fn on_rx_end(&mut self, i: usize, now: Time, out: &mut Vec<MacOutput>) {
        let a = self.air.take(i);
        let (rx_start, rx_end) = (a.rx_start, a.rx_end);
        let bad = a.state.collided || a.corrupted;
        let (from, to) = (usize::from(a.from), usize::from(a.to));
        let cfg = self.cfg;
        // One pass: every other station's carrier sense and EIFS state, and
        // then whether it starts counting a backoff (its only new timer:
        // the rest of the reception's effects reach the timers through
        // `resume`). The addressee resumes after it has acted on the frame.
        for (s, (st, wake)) in self.stations.iter_mut().zip(self.wakes.iter_mut()).enumerate() {
            if s != from {
                st.busy -= 1;
                if st.busy == 0 {
                    st.medium_idle_since = now;
                }
                if !st.deaf_to(rx_start, rx_end) {
                    st.eifs = bad;
                }
                if s == to {
                    continue;
                }
            }
            if st.resume(&cfg, now) {
                *wake = st.wake(cfg.slot_ns);
            }
        }
        if a.state.collided {
            self.stations[from].stats.collisions += 1;
        }
        self.air.log(&a, a.kind.class(), heard(&a));
        if !bad && !self.stations[to].deaf_to(rx_start, rx_end) {
            self.on_frame(to, a.from, a.kind, now, out);
            self.refresh(to);
        }
        if self.resume(to, now) {
            self.refresh(to);
        }
    }

    /// Station `r` received `kind` from `from` intact.
    fn on_frame(&mut self, r: usize, from: StationId, kind: FrameKind, now: Time, out: &mut Vec<MacOutput>) {
        let sifs = self.cfg.sifs_ns;
        let cw_min = self.cfg.cw_min;
        let deferred = self.cfg.ll_retransmission == LlRetransmission::Deferred;
        let handed_up = self.stations[usize::from(from)].current.is_some_and(|c| c.handed_up);
        let st = &mut self.stations[r];
        match kind {
            FrameKind::Data { frame, seq } => {
                st.stats.data_frames_received += 1;
                // [T] 802.11 Sec. 9.2.9: a copy of the last frame handed up
                // from that sender. Set-aside frames come out of order: a
                // selective-repeat receiver knows every frame it has handed
                // up (the sender's record of it stands for its window).
                let last = &mut st.last_seq_from[usize::from(from)];
                let copy = if deferred { handed_up } else { *last == seq.wrapping_add(1) };
                if copy {
                    st.stats.duplicates_suppressed += 1;
                } else {
                    *last = seq.wrapping_add(1);
                    st.stats.delivered_up += 1;
                    out.push(MacOutput::Deliver { station: r as StationId, from, frame });
                    let sender =
                        self.stations[usize::from(from)].current.as_mut().expect("data comes from a current frame");
                    debug_assert_eq!(sender.seq, seq);
                    sender.handed_up = true;
                }
                // [T] Sec. 9.2.8: every intact data frame is acked, SIFS on.
                self.stations[r].reply = Some(Reply { at: now.plus_ns(sifs), to: from, kind: ReplyKind::Ack });
            }
            FrameKind::Rts => st.reply = Some(Reply { at: now.plus_ns(sifs), to: from, kind: ReplyKind::Cts }),
            FrameKind::Cts => {
                if st.awaiting.is_some_and(|a| matches!(a, Awaiting::Cts { .. }))
                    && st.current.is_some_and(|c| c.to == from)
                {
                    st.awaiting = None;
                    st.reply = Some(Reply { at: now.plus_ns(sifs), to: from, kind: ReplyKind::Data });
                }
            }
            FrameKind::Ack => {
                if st.awaiting.is_some_and(|a| matches!(a, Awaiting::Ack { .. }))
                    && st.current.is_some_and(|c| c.to == from)
                {
                    // [N] recvACK: success; CW to CWmin; a new backoff.
                    st.awaiting = None;
                    st.current = None;
                    st.iq.idle_since = now;
                    st.stats.acks_received += 1;
                    st.cw = cw_min;
                    st.draw_backoff();
                    st.take_head(now);
                }
            }
        }
    }

    /// If station `s` has a backoff pending and nothing else to do, start
    /// (or go on) counting it once its medium is idle: slots count from
    /// DIFS (EIFS after a bad frame) after its medium went idle, and no
    /// sooner than DIFS after now. True if it starts counting (its next
    /// timer changes).
    fn resume(&mut self, s: usize, now: Time) -> bool {
        let cfg = self.cfg;
        self.stations[s].resume(&cfg, now)
    }
}

impl Events for Dcf {
    fn next_event(&mut self) -> &mut Option<(Time, Item)> {
        &mut self.next
    }

    /// The earliest internal event (see the module docs for the order):
    /// the stations' cached timers, then the frames on the air.
    fn earliest(&self) -> Option<(Time, Item)> {
        #[cfg(debug_assertions)]
        for (s, &w) in self.wakes.iter().enumerate() {
            debug_assert_eq!(w, self.stations[s].wake(self.cfg.slot_ns), "station {s}'s cached wake");
        }
        let mut e = Earliest::of_stations(self.wakes.iter().copied());
        e.air(&self.air, |c| c.sensed);
        e.found()
    }

    #[inline]
    fn run(&mut self, t: Time, item: Item, out: &mut Vec<MacOutput>) {
        match item {
            Item::RxEnd(i) => self.on_rx_end(i, t, out),
            Item::Station(s) => self.on_station_timer(s, t, out),
            Item::RxStart(i) => self.on_rx_start(i, t),
            Item::HandUp => unreachable!("a DCF hands a frame up as its reception ends"),
        }
    }
}

#[cfg(test)]
mod tests;
