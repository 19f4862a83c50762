//! The snoop family of base-station agents (seed 000 Secs. II and III-B;
//! the snoop slides, 003; seed 002 Sec. 5.1): LL, LL-TCP-AWARE (snoop),
//! LL-SMART and LL-SMART-TCP-AWARE are one agent, [`Snoop`], whose variant is
//! its [`SnoopConfig`] (`tcp_aware`, `smart`).
//!
//! Rules, with where they come from:
//!
//! - Cache. "maintains a cache of TCP segments sent across the link that have
//!   not yet been acknowledged by the receiver" (seed 000 Sec. II; slides:
//!   "Caches TCP segments going to mobile"). Entries are keyed by sequence
//!   number and dropped when a new cumulative ack covers them. A segment seen
//!   again from the source is a sender retransmission: its entry is refreshed
//!   and marked "sender retransmitted"; duplicate acks for such a segment are
//!   left to the source (snoop's rule, Balakrishnan et al. 1995, as in ns-2's
//!   `snoop.cc`: the source is already recovering it).
//! - Loss detection. "A packet loss is detected by the arrival of a small
//!   number of duplicate acknowledgments from the receiver or by a local
//!   timeout. The snoop agent retransmits the lost packet if it has it
//!   cached" (Sec. II). Without SMART the number is two: LL-TCP-AWARE
//!   "recovers from a single loss by retransmitting the lost packet when two
//!   duplicate acknowledgments arrive for it" (Sec. IV-E), and ns-2.35's
//!   `snoop.cc` (`snoop_ack`, `RTX_THRESH 1`) lets the first duplicate
//!   through and retransmits on the second. The first duplicate is forwarded
//!   by every variant (ns-2 propagates it); the second and later ones are
//!   absorbed by the TCP-aware variants. Departure: ns-2 counts duplicates
//!   in one static counter shared by every agent and never reset by a new
//!   ack; here the count is of duplicates of the current ack.
//! - Timer. "Timeout-based retransmissions are done by maintaining a smoothed
//!   round-trip time estimate, with a minimum timeout granularity of 200 ms"
//!   (Sec. III-B). The estimate is of the wireless hop as the agent sees it:
//!   from a segment's latest transmission toward the mobile host to the new
//!   ack that frees it; an ack freeing several gives one sample, from the
//!   last (highest) of them, as ns-2.35's `snoop_cleanbufs_` returns the
//!   `sndTime` of the last packet it frees (`tcp/snoop.cc:630-631`). Seed
//!   000 names no estimator beyond the sentence above, so the agent offers
//!   two ([`SnoopRtt`], `SnoopConfig::estimator`):
//!   - [`SnoopRtt::Rfc6298`], the default (seed 000's schemes): RFC 6298
//!     Sec. 2's smoothing (`lasthop_core::rtt::SmoothedRtt`: the first sample
//!     R sets srtt = R, rttvar = R/2; then rttvar gains 1/4 and srtt 1/8 of
//!     the new sample), Karn's rule (a segment sent more than once, by the
//!     agent or by the source, gives no sample), a timeout of
//!     srtt + 4·rttvar, at least `min_rto_ns`, and `initial_rto_ns` before
//!     the first sample. It is not ns-2's estimator (below): seed 000's
//!     testbed ran "a set of modifications to the BSD/OS TCP/IP (Reno)
//!     network stack", whose estimator the paper does not give; RFC 6298's
//!     is the standard one.
//!   - [`SnoopRtt::Ns2`] (seed 004's `snoop`: the paper ran ns-2's built-in
//!     Snoop, Sec. 5.1): ns-2.35's `Snoop::snoop_rtt`
//!     (`tcp/snoop.cc:657-677`) with the defaults of `tcl/lan/ns-ll.tcl:66-77`
//!     (`srtt_` 0.1 s, `rttvar_` 0.25 s, `g_` 0.125, `snoopTick_` 0.1 s).
//!     With g = `g_`, a sample R > 0 gives srtt ← g·srtt + (1−g)·R (the new
//!     sample weighs 7/8, the old estimate 1/8: the reverse of RFC 6298),
//!     delta = |R − srtt| against that updated srtt, and rttvar ←
//!     g·delta + (1−g)·rttvar (rttvar ← delta only if rttvar is exactly 0,
//!     which the 0.25 s start never is); nothing is reset at the first
//!     sample. The timeout is max(srtt + 4·rttvar, `snoopTick_`) (`snoop.h:
//!     143-148`, `integrate_` 0 by `ns-ll.tcl:80`), here `min_rto_ns`:
//!     1.1 s before any sample, at least srtt + 0.875 s after the first
//!     (rttvar keeps 7/8 of its 0.25 s), and for a steady 20 ms round trip
//!     under 100 ms only from the 19th sample on. No Karn: every segment's
//!     send time is the time of its latest transmission, which a local
//!     retransmission (`snoop.cc:733`) and a source's retransmission of a
//!     cached segment (`snoop.cc:336-338`) both reset, so a retransmitted
//!     segment gives a sample, timed from its latest copy. Departures: the
//!     arithmetic is in `f64` nanoseconds where ns-2's is in `double`
//!     seconds, and the timeout is rounded to the nanosecond (differences of
//!     the last bits). The timer is the agent's own (below), which reads
//!     the current estimate whenever it is asked for, while ns-2 computes
//!     `timeout()` when it schedules its timer, and on a new ack does so
//!     (`snoop.cc:644-646`) before it takes that ack's sample (`:497-500`):
//!     the timer a new ack starts runs there on the estimate before the
//!     sample, here on the one after it.
//!
//!   Either way, the timer retransmits the oldest cached segment. It does
//!   not back off: neither the paper nor ns-2.35 (`Snoop::timeout()` is the
//!   same after every expiry) does; as in ns-2 (`SNOOP_MAX_RXMIT`, 10) a
//!   segment is retransmitted locally at most `max_local_rexmits` times,
//!   after which the timer stays idle until a new ack and the source
//!   recovers it.
//! - TCP awareness (LL-TCP-AWARE, LL-SMART-TCP-AWARE). The agent "suppresses
//!   the duplicate acknowledgments" caused by the losses it repairs (Sec. II).
//!   Without SMART it counts the duplicates it expects after a local
//!   retransmission (one per cached segment sent behind the lost one and
//!   before the retransmission, less those already seen) and the next new ack
//!   (the end of the highest segment sent before the retransmission). A new
//!   ack below that one names the next lost segment of a burst: it is
//!   retransmitted at once. Duplicates beyond the expected number are
//!   forwarded: the source deals with them (ns-2's snoop does the same).
//! - LL (`tcp_aware = false`): "equivalent to the snoop agent that does not
//!   suppress any duplicate acknowledgments, and does not attempt in-order
//!   delivery of packets across the link" (Sec. III-B; slides: "same as
//!   TCP-aware link layer, but without suppressing duplicate
//!   acknowledgments"): every ack is forwarded, local retransmissions happen
//!   on the second duplicate ack and on the timer, and segments behind a loss
//!   reach the mobile host out of order, whose duplicate acks reach the source.
//! - Processing latency (`processing_ns`): what the agent emits (its local
//!   retransmissions) leaves `processing_ns` after the event that caused it;
//!   packets passing through are not delayed. The default is 0: the paper
//!   gives no figure for its base station's processing time, and ns-2's
//!   `LL delay_` (25 µs) delays every packet through the link layer, not the
//!   agent's own alone, so it does not decide this one. With a zero latency
//!   the local retransmission of a segment whose second duplicate arrives
//!   just before the next segment from the source goes first; the WAN LL
//!   result depends on that race (issue 10), so the reproduction sweeps it.
//! - SMART (LL-SMART, LL-SMART-TCP-AWARE). "performs local retransmissions
//!   based on selective acknowledgments" (Sec. III-B) from the SMART echo
//!   (Sec. II: each ack carries "the sequence number of the packet that
//!   caused the receiver to generate the acknowledgment"): a gap between the
//!   cumulative ack and the echoed segment marks every cached segment in it
//!   that was sent before the echoed one and not itself echoed as lost, and
//!   each is retransmitted at once ("it immediately assumes that the missing
//!   packets have been lost", Sec. II: the one-hop link does not reorder). A
//!   retransmission is sent again only when a segment sent after it is
//!   echoed first. With TCP awareness the duplicates for a segment being
//!   repaired locally are all suppressed: the echo says which arrival caused
//!   each, so no count is needed.
//!
//! Departures:
//! - One agent watches one flow (the paper's experiments have one).
//! - The paper's base station retransmits through its interface queue; here a
//!   local retransmission joins the tail of the wireless hop's queue (no
//!   priority), as every packet does: a point-to-point link direction's, or
//!   on an 802.11 medium the sending station's MAC queue (ns-2.35's
//!   `snoop_rxmit` also sends it down through the LL to the interface
//!   queue), under the MAC's own retries (seed 004 Sec. 5.4: "the
//!   retransmission mechanism of Snoop is independent of that of the link
//!   layer").
//! - Placement. The agent is where the flow's data goes onto its wireless
//!   hop: the base station downlink; uplink, seed 004 puts it "at the
//!   wireless station by symmetric operation" (Sec. 5.2), the sender's own
//!   node, where it sees the segments its TCP sends and the acks before
//!   that TCP does, and "cannot retransmit the lost packet until \[it\]
//!   receives a duplicate ACK, which takes one RTT in uplink communication,
//!   or a timeout occurs" (its round-trip estimate is then end to end).
//! - The agent never generates acks of its own (the 1995 snoop did for a
//!   sender retransmission of data the mobile host already acknowledged; here
//!   that segment is forwarded and the mobile host re-acknowledges it).
//! - The per-flow state is soft, as in the paper: nothing here is needed for
//!   correctness, only for speed.

use lasthop_core::rtt::SmoothedRtt;
use lasthop_core::time::NS_PER_MS;
use lasthop_core::{Packet, PacketKind, Time};
use std::collections::VecDeque;

pub use crate::Verdict;

/// The variant of the snoop family and its timer settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnoopConfig {
    /// Suppress the duplicate acks caused by locally repaired losses
    /// (LL-TCP-AWARE, LL-SMART-TCP-AWARE).
    pub tcp_aware: bool,
    /// Retransmit selectively from the SMART echo (LL-SMART, LL-SMART-TCP-AWARE).
    pub smart: bool,
    /// How the wireless round trip is estimated (module docs): RFC 6298
    /// (the default) or ns-2.35's snoop.
    pub estimator: SnoopRtt,
    /// Least local retransmission timeout, in ns (seed 000: 200 ms; under
    /// [`SnoopRtt::Ns2`] it is ns-2's `snoopTick_`).
    pub min_rto_ns: u64,
    /// Timeout before the first round-trip sample, in ns, under
    /// [`SnoopRtt::Rfc6298`] only ([`SnoopRtt::Ns2`] starts from ns-2's
    /// initial `srtt_` and `rttvar_`, a first timeout of 1.1 s). Seed 000 gives
    /// only the 200 ms minimum (Sec. III-B); 200 ms is also the first
    /// timeout of the paper's first author's own ns-2 snoop of July 1997
    /// (`timeout_()` = max(2·srtt_, 100 ms) with `srtt_` starting at 100 ms,
    /// ns-2 CVS commit 803137da). ns-2.35's later 1.1 s is seed 004's (see
    /// `schemes.rs`). Measured: 200 ms against 1 s moves no seed-000 cell
    /// beyond its 95% interval (issue 28).
    pub initial_rto_ns: u64,
    /// Local retransmissions of one segment at most (ns-2.35 `snoop.h`:
    /// `SNOOP_MAX_RXMIT`, 10); then the source recovers it.
    pub max_local_rexmits: u32,
    /// Processing latency of the agent, in ns: its local retransmissions
    /// leave this long after the ack or timeout that caused them (0: none;
    /// module docs for why that is the default).
    pub processing_ns: u64,
    /// False only in a mutation test (issue 28): the agent decides its
    /// local retransmissions as usual (and suppresses duplicates as if it
    /// had sent them) but never sends one.
    pub local_retransmits: bool,
    /// Segments the cache holds at most (ns-2.35 `snoop.h`: `SNOOP_MAXWIND`,
    /// 100, with its `SNOOP_FULL` state): a segment arriving at a full
    /// cache is forwarded without a copy, so its loss is the source's to
    /// repair. This bounds an agent's memory whatever the source's window
    /// (issue 33: live mode meets kernel windows of thousands of segments);
    /// with one agent per flow, the total is this times the flows.
    pub max_cache_packets: u32,
}

impl SnoopConfig {
    /// LL: local retransmissions, nothing suppressed.
    pub const LL: SnoopConfig = SnoopConfig::new(false, false);
    /// LL-TCP-AWARE: the snoop protocol.
    pub const LL_TCP_AWARE: SnoopConfig = SnoopConfig::new(true, false);
    pub const LL_SMART: SnoopConfig = SnoopConfig::new(false, true);
    pub const LL_SMART_TCP_AWARE: SnoopConfig = SnoopConfig::new(true, true);

    pub const fn new(tcp_aware: bool, smart: bool) -> SnoopConfig {
        SnoopConfig {
            tcp_aware,
            smart,
            estimator: SnoopRtt::Rfc6298,
            min_rto_ns: 200 * NS_PER_MS,
            initial_rto_ns: 200 * NS_PER_MS,
            max_local_rexmits: 10,
            processing_ns: 0,
            local_retransmits: true,
            max_cache_packets: 100,
        }
    }
}

/// The agent's estimator of the wireless round trip (module docs, "Timer").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnoopRtt {
    /// RFC 6298 Sec. 2 smoothing with Karn's rule; `initial_rto_ns` before
    /// the first sample (seed 000's schemes).
    Rfc6298,
    /// ns-2.35's `Snoop::snoop_rtt` (`tcp/snoop.cc:657-677`) with the
    /// defaults of `tcl/lan/ns-ll.tcl:66-77`; retransmitted segments give
    /// samples (seed 004's `snoop`).
    Ns2,
}

/// ns-2.35's gain `g_` (`tcl/lan/ns-ll.tcl:72`, `Snoop set g_ 0.125`): the
/// weight of the *old* estimate in both averages (`snoop.cc:668`, `:673`).
const NS2_G: f64 = 0.125;
/// ns-2.35's initial `srtt_`, 0.1 s (`ns-ll.tcl:70`), in ns.
const NS2_SRTT0_NS: f64 = 100e6;
/// ns-2.35's initial `rttvar_`, 0.25 s (`ns-ll.tcl:71`), in ns.
const NS2_RTTVAR0_NS: f64 = 250e6;

/// ns-2.35's snoop estimator: `srtt_` and `rttvar_` of `Snoop` (`snoop.h:
/// 162-163`), in ns.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ns2SnoopRtt {
    srtt_ns: f64,
    rttvar_ns: f64,
}

impl Ns2SnoopRtt {
    /// Before any sample: `ns-ll.tcl:70-71` (`Snoop::reset` leaves both as
    /// they are, so they are set once per agent).
    const INITIAL: Ns2SnoopRtt = Ns2SnoopRtt { srtt_ns: NS2_SRTT0_NS, rttvar_ns: NS2_RTTVAR0_NS };

    /// `Snoop::snoop_rtt` (`snoop.cc:657-677`) for a sample of `rtt_ns`.
    fn on_sample(&mut self, rtt_ns: u64) {
        // snoop.cc:667: `if (rtt > 0)`.
        if rtt_ns == 0 {
            return;
        }
        let rtt = rtt_ns as f64;
        // snoop.cc:668: `srtt_ = g_*srtt_ + (1-g_)*rtt;` (the new sample weighs 1 - g_).
        self.srtt_ns = NS2_G * self.srtt_ns + (1.0 - NS2_G) * rtt;
        // snoop.cc:669-671: the deviation from the srtt_ just updated.
        let delta = (rtt - self.srtt_ns).abs();
        // snoop.cc:672-675: no reset at the first sample; `rttvar_ = delta`
        // only from exactly 0.
        self.rttvar_ns = if self.rttvar_ns != 0.0 { NS2_G * delta + (1.0 - NS2_G) * self.rttvar_ns } else { delta };
    }

    /// `srtt_ + 4*rttvar_` of `Snoop::timeout()` (`snoop.h:143-148`), to the
    /// nearest ns; the caller takes the max with `snoopTick_`.
    fn timeout_ns(&self) -> u64 {
        (self.srtt_ns + 4.0 * self.rttvar_ns).round() as u64
    }
}

/// The estimator's state, by [`SnoopRtt`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum WirelessRtt {
    Rfc6298(SmoothedRtt),
    Ns2(Ns2SnoopRtt),
}

impl WirelessRtt {
    fn new(kind: SnoopRtt) -> WirelessRtt {
        match kind {
            SnoopRtt::Rfc6298 => WirelessRtt::Rfc6298(SmoothedRtt::default()),
            SnoopRtt::Ns2 => WirelessRtt::Ns2(Ns2SnoopRtt::INITIAL),
        }
    }
}

/// Counters for reports and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnoopStats {
    /// Segments retransmitted by the agent (duplicate acks, SMART gaps, bursts, timer).
    pub local_retransmits: u64,
    /// Of those, by the local timer.
    pub timer_retransmits: u64,
    /// Duplicate acks absorbed (never forwarded to the source).
    pub dupacks_suppressed: u64,
    /// Sender retransmissions seen (segments the source sent again).
    pub sender_retransmits_seen: u64,
    /// Segments retransmitted both by the agent and by the source, in
    /// either order, each counted once (seed 000 Sec. IV-B: "about 90% of
    /// the lost packets are retransmitted by both the source and the base
    /// station").
    pub double_retransmits: u64,
    /// Segments sent from the buffer on becoming the primary station at a
    /// handoff ([`Snoop::prime`]).
    pub replayed: u64,
    /// Segments forwarded without a copy: the cache was full
    /// ([`SnoopConfig::max_cache_packets`]).
    pub cache_full: u64,
}

/// Locally repaired segments remembered after their ack, for
/// [`SnoopStats::double_retransmits`]: the source's retransmission of a
/// segment usually reaches the base station after the local one was acked.
/// A source retransmits within a round trip of the duplicates that caused
/// it, while a handful of losses at most are repaired, so a few suffice.
const REPAIRED_KEPT: usize = 16;

/// A cached data segment headed to the mobile host.
#[derive(Clone, Copy, Debug)]
struct Entry {
    pkt: Packet,
    /// Rank of its latest transmission among all the agent's transmissions
    /// toward the mobile host (the wireless hop keeps this order).
    tx_order: u64,
    /// When it was last sent toward the mobile host.
    last_tx: Time,
    local_rexmits: u32,
    /// Seen again from the source (seed 000's "sender retransmitted").
    sender_rexmit: bool,
    /// SMART: the mobile host echoed it, so holds it.
    echoed: bool,
    /// A local retransmission waiting for `poll_transmit`.
    pending: bool,
    /// When the pending retransmission may leave (processing latency).
    release_at: Time,
    /// Counted in `double_retransmits`.
    both: bool,
    /// The pending retransmission was caused by the local timer.
    by_timer: bool,
    /// Pending: not a retransmission but a copy sent from the buffer at a
    /// handoff ([`Snoop::prime`]).
    replayed: bool,
}

impl Entry {
    /// `pkt` just sent toward the mobile host (transmission `tx_order`).
    fn fresh(pkt: Packet, tx_order: u64, now: Time) -> Entry {
        Entry {
            pkt,
            tx_order,
            last_tx: now,
            local_rexmits: 0,
            sender_rexmit: false,
            echoed: false,
            pending: false,
            release_at: now,
            by_timer: false,
            both: false,
            replayed: false,
        }
    }
    fn seq(&self) -> u64 {
        self.pkt.tcp.seq
    }
    fn end(&self) -> u64 {
        self.pkt.seq_end()
    }
}

/// A local retransmission leaving the agent.
#[derive(Clone, Copy, Debug)]
pub struct LocalRetransmit {
    pub pkt: Packet,
    /// Caused by the local timer (false: by duplicate acks, a SMART gap or
    /// the burst rule).
    pub by_timer: bool,
    /// A copy sent from the buffer at a handoff ([`Snoop::prime`]), not a
    /// retransmission.
    pub replayed: bool,
}

/// The snoop agent of one flow at its base station.
#[derive(Clone, Debug)]
pub struct Snoop {
    cfg: SnoopConfig,
    flow: u32,
    /// Unacknowledged segments, in sequence order.
    cache: VecDeque<Entry>,
    /// Latest cumulative ack from the mobile host (flows start at byte 0,
    /// so an ack for 0 before any other is already a duplicate).
    last_ack: u64,
    /// The window the last ack advertised (a duplicate must repeat it).
    last_wnd: u32,
    /// One past the highest data byte seen from the source.
    high_seen: u64,
    /// Transmissions toward the mobile host so far (orders `Entry::tx_order`).
    tx_count: u64,
    /// Duplicates seen for `last_ack`.
    dupacks: u32,
    /// A local retransmission of the segment at `last_ack` is outstanding.
    recovering: bool,
    /// Duplicates still expected from it (TCP-aware, without SMART).
    exp_dupacks: u32,
    /// The new ack expected once it arrives (TCP-aware, without SMART).
    exp_next_ack: u64,
    /// `tx_order` of the latest local retransmission.
    last_rexmit_order: u64,
    rtt: WirelessRtt,
    /// Latest new ack or local retransmission: the timer runs from here.
    last_progress: Time,
    /// Entries with `pending` set.
    pending: u32,
    /// Sequence numbers of acked segments the agent had retransmitted and
    /// the source had not (a ring; `u64::MAX`: empty).
    repaired: [u64; REPAIRED_KEPT],
    repaired_next: usize,
    /// A buffering station's (snoop's multicast handoff): the mobile host
    /// is attached elsewhere; the agent caches nothing and leaves the
    /// flow's packets alone until it is primed.
    buffering: bool,
    pub stats: SnoopStats,
}

impl Snoop {
    pub fn new(cfg: SnoopConfig, flow: u32) -> Snoop {
        Snoop {
            cfg,
            flow,
            cache: VecDeque::with_capacity(64),
            last_ack: 0,
            last_wnd: 0,
            high_seen: 0,
            tx_count: 0,
            dupacks: 0,
            recovering: false,
            exp_dupacks: 0,
            exp_next_ack: 0,
            last_rexmit_order: 0,
            rtt: WirelessRtt::new(cfg.estimator),
            last_progress: Time::ZERO,
            pending: 0,
            repaired: [u64::MAX; REPAIRED_KEPT],
            repaired_next: 0,
            buffering: false,
            stats: SnoopStats::default(),
        }
    }

    pub fn flow(&self) -> u32 {
        self.flow
    }
    pub fn config(&self) -> SnoopConfig {
        self.cfg
    }
    /// Segments cached (sent toward the mobile host, not yet acknowledged).
    pub fn cached(&self) -> usize {
        self.cache.len()
    }
    /// The oldest cached segment (the one the local timer resends).
    pub fn oldest(&self) -> Option<&Packet> {
        self.cache.front().map(|e| &e.pkt)
    }
    /// The latest cumulative ack seen from the mobile host.
    pub fn last_ack(&self) -> u64 {
        self.last_ack
    }
    /// Sequence numbers of the cached segments, in order (tests, reports).
    pub fn cached_seqs(&self) -> impl Iterator<Item = u64> + '_ {
        self.cache.iter().map(Entry::seq)
    }
    /// Duplicates still expected after the latest local retransmission.
    pub fn expected_dupacks(&self) -> u32 {
        self.exp_dupacks
    }
    /// The new ack expected after the latest local retransmission.
    pub fn expected_next_ack(&self) -> u64 {
        self.exp_next_ack
    }

    /// The local retransmission timeout, in ns: srtt + 4·rttvar, at least
    /// the configured minimum (no backoff: module docs).
    pub fn rto_ns(&self) -> u64 {
        let base = match &self.rtt {
            WirelessRtt::Rfc6298(r) => match r.srtt_ns() {
                Some(s) => s + 4 * r.rttvar_ns(),
                None => self.cfg.initial_rto_ns,
            },
            // snoop.h:145: `max(srtt_+4*rttvar_, snoopTick_)`.
            WirelessRtt::Ns2(r) => r.timeout_ns(),
        };
        base.max(self.cfg.min_rto_ns)
    }

    /// A packet of any flow arrives at the base station.
    pub fn on_packet(&mut self, now: Time, pkt: &mut Packet) -> Verdict {
        if pkt.flow != self.flow || self.buffering {
            return Verdict::Forward;
        }
        match pkt.kind {
            PacketKind::Data if pkt.tcp.len > 0 => {
                self.on_data(now, pkt);
                Verdict::Forward
            }
            PacketKind::Ack => self.on_ack(now, pkt),
            _ => Verdict::Forward,
        }
    }

    fn next_order(&mut self) -> u64 {
        self.tx_count += 1;
        self.tx_count
    }

    fn on_data(&mut self, now: Time, pkt: &Packet) {
        let (seq, end) = (pkt.tcp.seq, pkt.seq_end());
        if end <= self.last_ack {
            // The mobile host has it; its ack was lost. Forward: it re-acks.
            if let Some(slot) = self.repaired.iter_mut().find(|s| **s == seq) {
                *slot = u64::MAX;
                self.stats.double_retransmits += 1;
            }
            return;
        }
        if self.cache.len() >= self.cfg.max_cache_packets as usize {
            // Full (ns-2's SNOOP_FULL): forwarded, not kept.
            self.stats.cache_full += 1;
            self.high_seen = self.high_seen.max(end);
            return;
        }
        let tx_order = self.next_order();
        let fresh = Entry::fresh(*pkt, tx_order, now);
        if seq >= self.high_seen {
            // New data in sequence (a gap before it was lost upstream).
            self.high_seen = end;
            if self.cache.is_empty() {
                self.last_progress = now;
            }
            self.cache.push_back(fresh);
            return;
        }
        // Seen before: a sender retransmission; cache it marked as such.
        self.stats.sender_retransmits_seen += 1;
        let mut marked = Entry { sender_rexmit: true, ..fresh };
        match self.cache.binary_search_by_key(&seq, Entry::seq) {
            Ok(i) => {
                let old = &self.cache[i];
                if old.pending {
                    self.pending -= 1;
                }
                marked.both = old.both;
                if old.local_rexmits > 0 && !old.both {
                    marked.both = true;
                    self.stats.double_retransmits += 1;
                }
                self.cache[i] = marked;
            }
            Err(i) => self.cache.insert(i, marked),
        }
    }

    fn on_ack(&mut self, now: Time, pkt: &Packet) -> Verdict {
        let a = pkt.tcp.ack;
        let echo = if self.cfg.smart { pkt.tcp.smart_echo } else { None };
        let wnd = std::mem::replace(&mut self.last_wnd, pkt.tcp.wnd_bytes);
        if a > self.last_ack {
            self.on_new_ack(now, a);
            if let Some(e) = echo {
                self.on_smart_echo(now, a, e);
            }
            return Verdict::Forward;
        }
        if a < self.last_ack {
            return Verdict::Forward; // an old ack overtaken: nothing to learn
        }
        if pkt.tcp.wnd_bytes != wnd {
            // A window update, not a duplicate (RFC 5681 Sec. 2: a
            // duplicate acknowledgment advertises the window the last one
            // did): a receiving application that read opens the window
            // with the same ack (Linux does; issue 33's live runs).
            return Verdict::Forward;
        }
        self.dupacks += 1;
        if let Some(e) = echo {
            self.on_smart_echo(now, a, e);
        }
        let Some(head) = self.cache.front().copied() else { return Verdict::Forward };
        if head.seq() != a || head.sender_rexmit {
            // Not cached (lost before the base station), or the source is
            // already retransmitting it: the duplicate is the source's.
            return Verdict::Forward;
        }
        if self.cfg.smart && echo.is_some() {
            // The gap rule above has repaired what the echo proves lost.
            if self.cfg.tcp_aware && head.local_rexmits > 0 {
                return self.suppress();
            }
            return Verdict::Forward;
        }
        if !self.recovering {
            if self.dupacks < 2 {
                // The first duplicate goes to the source (Sec. IV-E: "when
                // two duplicate acknowledgments arrive"; ns-2 RTX_THRESH).
                return Verdict::Forward;
            }
            if head.local_rexmits >= self.cfg.max_local_rexmits {
                return Verdict::Forward;
            }
            // The second duplicate for a cached segment: resend it locally.
            let r = self.retransmit(0, now, false);
            self.recovering = true;
            self.set_expectations(a, 0, r, self.dupacks);
            return if self.cfg.tcp_aware { self.suppress() } else { Verdict::Forward };
        }
        if self.cfg.tcp_aware && self.exp_dupacks > 0 {
            self.exp_dupacks -= 1;
            return self.suppress();
        }
        Verdict::Forward
    }

    fn suppress(&mut self) -> Verdict {
        self.stats.dupacks_suppressed += 1;
        Verdict::Absorb
    }

    /// After a local retransmission (order `r`) of the segment at `hole`:
    /// the duplicates still to come are one per cached segment above the
    /// hole sent after `since` and before `r`, less `seen`; the next new ack
    /// is the end of the highest segment sent before `r`.
    fn set_expectations(&mut self, hole: u64, since: u64, r: u64, seen: u32) {
        let mut n = 0u32;
        let mut next = hole;
        for e in &self.cache {
            if e.tx_order < r {
                next = next.max(e.end());
                if e.seq() > hole && e.tx_order > since {
                    n += 1;
                }
            }
        }
        self.exp_dupacks = n.saturating_sub(seen);
        self.exp_next_ack = next;
        self.last_rexmit_order = r;
    }

    fn on_new_ack(&mut self, now: Time, a: u64) {
        // Karn's rule under RFC 6298: only a segment sent once times the
        // wireless hop. ns-2 has none: `last_tx` is its `sndTime`, reset by
        // every transmission (snoop.cc:338, :399, :733).
        let karn = self.cfg.estimator == SnoopRtt::Rfc6298;
        let mut sample = None;
        while let Some(e) = self.cache.front() {
            if e.end() > a {
                break;
            }
            // The last segment freed gives the sample (snoop.cc:630-631).
            sample = (!karn || (e.local_rexmits == 0 && !e.sender_rexmit)).then(|| now.since(e.last_tx));
            if e.pending {
                self.pending -= 1;
            }
            if e.local_rexmits > 0 && !e.sender_rexmit {
                self.repaired[self.repaired_next] = e.seq();
                self.repaired_next = (self.repaired_next + 1) % REPAIRED_KEPT;
            }
            self.cache.pop_front();
        }
        if let Some(s) = sample {
            self.on_rtt_sample(s);
        }
        self.last_ack = a;
        self.dupacks = 0;
        self.last_progress = now;
        let was_recovering = std::mem::replace(&mut self.recovering, false);
        self.exp_dupacks = 0;
        if !(self.cfg.tcp_aware && !self.cfg.smart && was_recovering && a < self.exp_next_ack) {
            return;
        }
        // The retransmission filled the first hole; every segment sent before
        // it has arrived or was lost, and this ack names the next one lost:
        // a burst. Resend it at once.
        let prev = self.last_rexmit_order;
        if let Some(head) = self.cache.front() {
            if head.seq() == a
                && head.tx_order < prev
                && !head.sender_rexmit
                && head.local_rexmits < self.cfg.max_local_rexmits
            {
                let r = self.retransmit(0, now, false);
                self.recovering = true;
                self.set_expectations(a, prev, r, 0);
            }
        }
    }

    /// SMART: the mobile host has the echoed segment; every unechoed cached
    /// segment between the cumulative ack and it that was sent before it is lost.
    fn on_smart_echo(&mut self, now: Time, ack: u64, echo: u64) {
        if echo < ack {
            return;
        }
        let Ok(ei) = self.cache.binary_search_by_key(&echo, Entry::seq) else { return };
        self.cache[ei].echoed = true;
        let eo = self.cache[ei].tx_order;
        for i in 0..ei {
            let e = &self.cache[i];
            if e.seq() >= ack && !e.echoed && !e.sender_rexmit && e.tx_order < eo {
                self.retransmit(i, now, false);
            }
        }
    }

    /// Queue a local retransmission of cache entry `i`, to leave after the
    /// processing latency; returns its order.
    fn retransmit(&mut self, i: usize, now: Time, by_timer: bool) -> u64 {
        let r = self.next_order();
        let at = now.plus_ns(self.cfg.processing_ns);
        let send = self.cfg.local_retransmits; // false: a mutation, decided and never sent
        let e = &mut self.cache[i];
        if send && e.sender_rexmit && !e.both {
            // The source's retransmission came first.
            e.both = true;
            self.stats.double_retransmits += 1;
        }
        e.tx_order = r;
        e.last_tx = at;
        e.local_rexmits += 1;
        e.release_at = at;
        e.by_timer = by_timer;
        e.replayed = false;
        if send && !e.pending {
            e.pending = true;
            self.pending += 1;
        }
        self.last_progress = at;
        if send {
            self.stats.local_retransmits += 1;
        }
        r
    }

    fn on_rtt_sample(&mut self, rtt_ns: u64) {
        match &mut self.rtt {
            // RFC 6298 Sec. 2 smoothing (alpha 1/8, beta 1/4).
            WirelessRtt::Rfc6298(r) => r.on_sample(rtt_ns),
            // snoop.cc:497-500: `snoop_rtt(sndTime)` on every new ack that frees one.
            WirelessRtt::Ns2(r) => r.on_sample(rtt_ns),
        }
    }

    /// The next local retransmission to send toward the mobile host, if any
    /// is due (its processing latency over). It is marked as a
    /// retransmission (for goodput and traces only).
    pub fn poll_transmit(&mut self, now: Time) -> Option<LocalRetransmit> {
        if self.pending == 0 {
            return None;
        }
        let e = self.cache.iter_mut().find(|e| e.pending && e.release_at <= now)?;
        e.pending = false;
        self.pending -= 1;
        let mut pkt = e.pkt;
        if e.replayed {
            e.replayed = false;
            return Some(LocalRetransmit { pkt, by_timer: false, replayed: true });
        }
        pkt.tcp.is_retransmit = true;
        Some(LocalRetransmit { pkt, by_timer: e.by_timer, replayed: false })
    }

    /// The mobile host left: the station becomes a buffering one (the snoop
    /// 1995 paper, Sec. 5). It forgets its cache and its timer; its copies
    /// of the flow's data are the group's ([`crate::group::GroupBuffer`]).
    /// What it knew of the flow's sequence stays. Until it is primed it
    /// caches nothing of what still passes it.
    pub fn detach(&mut self) {
        self.buffering = true;
        self.cache.clear();
        self.pending = 0;
        self.dupacks = 0;
        self.recovering = false;
        self.exp_dupacks = 0;
    }

    /// The mobile host is attached here: the station becomes the primary
    /// one and sends `copies` (what its buffer holds past the last packets
    /// the host received, in order) at once, caching each as if it had just
    /// forwarded it; the host's first ack cleans the cache (Sec. 5: "no
    /// explicit state transfer").
    pub fn prime<'a>(&mut self, now: Time, copies: impl Iterator<Item = &'a Packet>) {
        self.detach();
        self.buffering = false;
        for pkt in copies {
            let tx_order = self.next_order();
            self.high_seen = self.high_seen.max(pkt.seq_end());
            self.cache.push_back(Entry { pending: true, replayed: true, ..Entry::fresh(*pkt, tx_order, now) });
            self.pending += 1;
            self.stats.replayed += 1;
        }
        self.last_progress = now;
    }

    /// When the agent next needs `on_timer` ([`Time::NEVER`]: idle): the
    /// local timer, or the end of a pending retransmission's processing.
    pub fn poll_at(&self) -> Time {
        let release = if self.pending == 0 {
            Time::NEVER
        } else {
            self.cache.iter().filter(|e| e.pending).map(|e| e.release_at).min().unwrap_or(Time::NEVER)
        };
        release.min(self.timer_at())
    }

    /// When the local retransmission timer expires ([`Time::NEVER`]: idle,
    /// or the oldest segment has had its `max_local_rexmits`).
    fn timer_at(&self) -> Time {
        match self.cache.front() {
            Some(h) if h.local_rexmits < self.cfg.max_local_rexmits => {
                h.last_tx.max(self.last_progress).plus_ns(self.rto_ns())
            }
            _ => Time::NEVER,
        }
    }

    /// The local timer: resend the oldest unacknowledged segment if nothing
    /// moved for a timeout. (A wake-up for a retransmission's processing
    /// latency finds the timer not yet due and does nothing here; the
    /// caller's `poll_transmit` releases the segment.)
    pub fn on_timer(&mut self, now: Time) {
        if self.cache.is_empty() || now < self.timer_at() {
            return;
        }
        let r = self.retransmit(0, now, true);
        self.stats.timer_retransmits += 1;
        let hole = self.cache[0].seq();
        // Everything sent before has arrived or was lost: no duplicates are
        // due, and the next new ack is the end of what was sent.
        self.recovering = true;
        self.dupacks = 0;
        self.set_expectations(hole, r, r, 0);
    }
}

#[cfg(test)]
mod tests {
    //! Timelines at the base station. Segments are 1000 bytes; "lost" means
    //! lost on the wireless hop after passing the agent, so the agent only
    //! sees the mobile host's acks that follow.
    use super::*;
    use lasthop_core::TcpHeader;

    fn data(seq: u64) -> Packet {
        let tcp = TcpHeader { seq, len: 1000, ..TcpHeader::default() };
        Packet {
            uid: 0,
            flow: 0,
            kind: PacketKind::Data,
            src: 0,
            dst: 2,
            size_bytes: 1040,
            ecn: lasthop_core::Ecn::NotEct,
            tcp,
        }
    }
    fn ack_echo(a: u64, echo: Option<u64>) -> Packet {
        let tcp = TcpHeader { ack: a, smart_echo: echo, ..TcpHeader::default() };
        Packet {
            uid: 0,
            flow: 0,
            kind: PacketKind::Ack,
            src: 2,
            dst: 0,
            size_bytes: 40,
            ecn: lasthop_core::Ecn::NotEct,
            tcp,
        }
    }
    fn ack(a: u64) -> Packet {
        ack_echo(a, None)
    }
    fn ms(t: u64) -> Time {
        Time::from_ms(t)
    }
    /// Everything the agent wants to send now, by sequence number.
    fn sent(s: &mut Snoop, now: Time) -> Vec<u64> {
        std::iter::from_fn(|| s.poll_transmit(now))
            .map(|r| {
                assert!(r.pkt.tcp.is_retransmit, "local retransmissions are marked");
                r.pkt.tcp.seq
            })
            .collect()
    }
    /// Fig. 1: a window of five (0..5000) passes the base station at t0.
    fn fig1(cfg: SnoopConfig) -> Snoop {
        let mut s = Snoop::new(cfg, 0);
        for seq in (0..5000).step_by(1000) {
            assert_eq!(s.on_packet(ms(0), &mut data(seq)), Verdict::Forward);
        }
        s
    }

    #[test]
    fn snoop_forwards_the_first_duplicate_and_retransmits_on_the_second() {
        // Issue 10; seed 000 Sec. IV-E: "retransmitting the lost packet when
        // two duplicate acknowledgments arrive for it" (ns-2.35 snoop.cc,
        // RTX_THRESH 1). t0: 0..5000 pass; 0 and 1000 are lost.
        let mut s = fig1(SnoopConfig::LL_TCP_AWARE);
        // t5: 2000 arrives out of order: the first duplicate ack for 0 goes
        // to the source and nothing is resent.
        assert_eq!(s.on_packet(ms(5), &mut ack(0)), Verdict::Forward);
        assert!(sent(&mut s, ms(5)).is_empty(), "no retransmission on the first duplicate");
        // t6: 3000 arrives: the second duplicate: local retransmission of 0,
        // the duplicate absorbed.
        assert_eq!(s.on_packet(ms(6), &mut ack(0)), Verdict::Absorb);
        let r: Vec<_> = std::iter::from_fn(|| s.poll_transmit(ms(6))).collect();
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].pkt.tcp.seq, r[0].by_timer), (0, false), "caused by duplicate acks");
        // Expected: one duplicate per segment sent behind 0 (4) less the two
        // seen; the next new ack once 0 arrives is 5000.
        assert_eq!((s.expected_dupacks(), s.expected_next_ack()), (2, 5000));
        // t7: 4000 arrives: an expected duplicate, absorbed.
        assert_eq!(s.on_packet(ms(7), &mut ack(0)), Verdict::Absorb);
        assert!(sent(&mut s, ms(7)).is_empty(), "no second retransmission");
        // t8: the retransmitted 0 arrives: new ack 1000 < 5000, so 1000 was
        // lost too (a burst): resent at once; the new ack goes to the source.
        assert_eq!(s.on_packet(ms(8), &mut ack(1000)), Verdict::Forward);
        assert_eq!(sent(&mut s, ms(8)), [1000], "burst: immediate retransmission");
        assert_eq!(s.expected_next_ack(), 5000);
        // t9: 1000 arrives; the mobile host has everything.
        assert_eq!(s.on_packet(ms(9), &mut ack(5000)), Verdict::Forward);
        assert_eq!(s.cached(), 0);
        assert_eq!(s.poll_at(), Time::NEVER, "idle timer with an empty cache");
        assert_eq!((s.stats.local_retransmits, s.stats.dupacks_suppressed), (2, 2));
    }

    #[test]
    fn a_window_update_is_not_a_duplicate_ack() {
        // RFC 5681 Sec. 2: a duplicate acknowledgment advertises the window
        // the last one did. A receiving application that reads opens the
        // window with the same ack (Linux does; live mode met it, issue
        // 33): it is not a duplicate. t0: 0..5000 pass; nothing is lost.
        let mut s = fig1(SnoopConfig::LL_TCP_AWARE);
        let with_window = |a: u64, w: u32| {
            let mut p = ack(a);
            p.tcp.wnd_bytes = w;
            p
        };
        assert_eq!(s.on_packet(ms(5), &mut with_window(1000, 8000)), Verdict::Forward);
        // Two window updates with the same ack: no duplicates, nothing resent.
        assert_eq!(s.on_packet(ms(6), &mut with_window(1000, 16000)), Verdict::Forward);
        assert_eq!(s.on_packet(ms(7), &mut with_window(1000, 24000)), Verdict::Forward);
        assert!(sent(&mut s, ms(7)).is_empty(), "window updates resend nothing");
        // Two true duplicates (the window repeated): 1000 is resent.
        assert_eq!(s.on_packet(ms(8), &mut with_window(1000, 24000)), Verdict::Forward);
        assert_eq!(s.on_packet(ms(9), &mut with_window(1000, 24000)), Verdict::Absorb);
        assert_eq!(sent(&mut s, ms(9)), [1000]);
    }

    #[test]
    fn a_full_cache_forwards_without_a_copy_and_the_source_repairs() {
        // Issue 33: the cache holds at most `max_cache_packets` (ns-2.35's
        // SNOOP_MAXWIND). t0: 0..5000 pass a cache of three: 3000 and 4000
        // go on uncached.
        let cfg = SnoopConfig { max_cache_packets: 3, ..SnoopConfig::LL_TCP_AWARE };
        let mut s = fig1(cfg);
        assert_eq!(s.cached(), 3);
        assert_eq!(s.stats.cache_full, 2);
        // 0..3000 arrive; 3000 is lost: the duplicates for 3000 find no copy
        // and go to the source; nothing is resent locally.
        assert_eq!(s.on_packet(ms(5), &mut ack(3000)), Verdict::Forward);
        assert_eq!(s.cached(), 0);
        for t in 6..9 {
            assert_eq!(s.on_packet(ms(t), &mut ack(3000)), Verdict::Forward, "no copy: the source repairs");
            assert!(sent(&mut s, ms(t)).is_empty());
        }
        // With room again, new segments are cached.
        s.on_packet(ms(10), &mut data(5000));
        assert_eq!(s.cached(), 1);
        assert_eq!(s.stats.local_retransmits, 0);
    }

    #[test]
    fn fig1_ll_forwards_every_duplicate() {
        let mut s = fig1(SnoopConfig::LL);
        assert_eq!(s.on_packet(ms(5), &mut ack(0)), Verdict::Forward);
        assert!(sent(&mut s, ms(5)).is_empty(), "LL also waits for the second duplicate");
        assert_eq!(s.on_packet(ms(6), &mut ack(0)), Verdict::Forward, "the duplicates reach the source");
        assert_eq!(sent(&mut s, ms(6)), [0]);
        assert_eq!(s.on_packet(ms(7), &mut ack(0)), Verdict::Forward);
        assert!(sent(&mut s, ms(7)).is_empty());
        // LL has no burst rule: the new ack 1000 resends nothing by itself.
        assert_eq!(s.on_packet(ms(8), &mut ack(1000)), Verdict::Forward);
        assert!(sent(&mut s, ms(8)).is_empty());
        // Two duplicates for 1000 (later segments arriving) resend it.
        s.on_packet(ms(9), &mut data(5000));
        s.on_packet(ms(9), &mut data(6000));
        assert_eq!(s.on_packet(ms(15), &mut ack(1000)), Verdict::Forward);
        assert!(sent(&mut s, ms(15)).is_empty());
        assert_eq!(s.on_packet(ms(16), &mut ack(1000)), Verdict::Forward);
        assert_eq!(sent(&mut s, ms(16)), [1000]);
        assert_eq!(s.stats.dupacks_suppressed, 0);
    }

    #[test]
    fn burst_new_ack_below_the_expected_one_retransmits_at_once() {
        // t0: 0..5000 pass; 0, 1000 and 2000 are lost (a burst of three).
        let mut s = fig1(SnoopConfig::LL_TCP_AWARE);
        // t5, t6: 3000 and 4000 arrive: two duplicates for 0.
        assert_eq!(s.on_packet(ms(5), &mut ack(0)), Verdict::Forward);
        assert!(sent(&mut s, ms(5)).is_empty());
        assert_eq!(s.on_packet(ms(6), &mut ack(0)), Verdict::Absorb);
        assert_eq!(sent(&mut s, ms(6)), [0]);
        // t7: the source sends 5000, behind the retransmission of 0.
        s.on_packet(ms(7), &mut data(5000));
        // t8: 0 arrives: ack 1000, below the expected 5000: 1000 is resent.
        assert_eq!(s.on_packet(ms(8), &mut ack(1000)), Verdict::Forward);
        assert_eq!(sent(&mut s, ms(8)), [1000]);
        // 5000 was sent after the first retransmission and before this one:
        // its arrival is the one duplicate expected for 1000.
        assert_eq!((s.expected_dupacks(), s.expected_next_ack()), (1, 6000));
        assert_eq!(s.on_packet(ms(9), &mut ack(1000)), Verdict::Absorb);
        // t10: 1000 arrives: ack 2000, still below 6000: 2000 resent at once.
        assert_eq!(s.on_packet(ms(10), &mut ack(2000)), Verdict::Forward);
        assert_eq!(sent(&mut s, ms(10)), [2000]);
        assert_eq!(s.expected_dupacks(), 0);
        assert_eq!(s.on_packet(ms(11), &mut ack(6000)), Verdict::Forward);
        assert_eq!((s.cached(), s.stats.local_retransmits), (0, 3));
    }

    #[test]
    fn duplicates_beyond_the_expected_ones_go_to_the_source() {
        // 0 lost, 1000 and 2000 arrive: two duplicates (retransmit on the
        // second), none expected after.
        let mut s = Snoop::new(SnoopConfig::LL_TCP_AWARE, 0);
        for seq in [0, 1000, 2000] {
            s.on_packet(ms(0), &mut data(seq));
        }
        assert_eq!(s.on_packet(ms(5), &mut ack(0)), Verdict::Forward);
        assert_eq!(s.on_packet(ms(5), &mut ack(0)), Verdict::Absorb);
        assert_eq!(sent(&mut s, ms(5)), [0]);
        assert_eq!(s.expected_dupacks(), 0);
        // The retransmission is lost; 3000 (sent after it) arrives.
        s.on_packet(ms(6), &mut data(3000));
        assert_eq!(s.on_packet(ms(9), &mut ack(0)), Verdict::Forward, "unexpected: the source deals with it");
    }

    #[test]
    fn timer_fires_after_the_200ms_minimum_without_backoff_and_gives_up_after_ten() {
        let mut s = Snoop::new(SnoopConfig::LL_TCP_AWARE, 0);
        // t0: 0 passes; t20: acked: a 20 ms wireless round trip (srtt 20,
        // rttvar 10: srtt + 4 rttvar = 60 ms, raised to the 200 ms minimum).
        s.on_packet(ms(0), &mut data(0));
        assert_eq!(s.poll_at(), ms(200), "before any sample: the initial timeout");
        s.on_packet(ms(20), &mut ack(1000));
        assert_eq!(s.rto_ns(), 200 * NS_PER_MS);
        // t20: 1000 passes and is lost; no duplicates follow.
        s.on_packet(ms(20), &mut data(1000));
        assert_eq!(s.poll_at(), ms(220));
        s.on_timer(ms(219));
        assert!(sent(&mut s, ms(219)).is_empty(), "too early");
        s.on_timer(ms(220));
        let r = s.poll_transmit(ms(220)).expect("timer retransmission");
        assert_eq!((r.pkt.tcp.seq, r.by_timer), (1000, true));
        assert_eq!(s.stats.timer_retransmits, 1);
        // ns-2.35 snoop: the same timeout after every expiry.
        assert_eq!(s.poll_at(), ms(420), "no backoff");
        // The link is dead: nine more every 200 ms, then the agent leaves the
        // segment to the source (SNOOP_MAX_RXMIT).
        for k in 2..=10u64 {
            s.on_timer(ms(20 + 200 * k));
            assert_eq!(sent(&mut s, ms(20 + 200 * k)), [1000]);
        }
        assert_eq!(s.stats.timer_retransmits, 10);
        assert_eq!(s.poll_at(), Time::NEVER, "ten local retransmissions at most");
        // t3000: acked at last: the timer is idle, the estimate unchanged.
        s.on_packet(ms(3000), &mut ack(2000));
        assert_eq!((s.poll_at(), s.rto_ns()), (Time::NEVER, 200 * NS_PER_MS));
    }

    #[test]
    fn processing_latency_delays_the_local_retransmission() {
        // Issue 10: a 50 us agent latency; the second duplicate at t6 ms
        // queues the retransmission of 0, which leaves at t6 ms + 50 us.
        let cfg = SnoopConfig { processing_ns: 50_000, ..SnoopConfig::LL };
        let mut s = fig1(cfg);
        s.on_packet(ms(5), &mut ack(0));
        s.on_packet(ms(6), &mut ack(0));
        let due = ms(6).plus_ns(50_000);
        assert!(sent(&mut s, ms(6)).is_empty(), "still being processed");
        assert_eq!(s.poll_at(), due, "the agent asks to be woken when it is done");
        s.on_timer(due);
        assert_eq!(sent(&mut s, due), [0]);
        assert_eq!(s.poll_at(), due.plus_ns(s.rto_ns()), "then the local timer, from the send");
    }

    #[test]
    fn cache_is_cleaned_by_new_acks_and_old_acks_change_nothing() {
        let mut s = fig1(SnoopConfig::LL_TCP_AWARE);
        s.on_packet(ms(5), &mut ack(3000));
        assert_eq!(s.cached_seqs().collect::<Vec<_>>(), [3000, 4000]);
        assert_eq!(s.on_packet(ms(6), &mut ack(2000)), Verdict::Forward, "an old ack is forwarded");
        assert_eq!(s.cached(), 2);
        // Data the mobile host already acknowledged is forwarded, not cached.
        assert_eq!(s.on_packet(ms(7), &mut data(1000)), Verdict::Forward);
        assert_eq!(s.cached(), 2);
    }

    #[test]
    fn duplicates_for_a_sender_retransmission_are_left_to_the_source() {
        let mut s = fig1(SnoopConfig::LL_TCP_AWARE);
        // The source resends 0 (its timer fired): the entry is refreshed and
        // marked "sender retransmitted".
        s.on_packet(ms(300), &mut data(0));
        assert_eq!(s.stats.sender_retransmits_seen, 1);
        assert_eq!(s.cached_seqs().collect::<Vec<_>>(), [0, 1000, 2000, 3000, 4000]);
        assert_eq!(s.on_packet(ms(305), &mut ack(0)), Verdict::Forward);
        assert!(sent(&mut s, ms(305)).is_empty(), "no local retransmission");
    }

    #[test]
    fn smart_resends_every_segment_in_the_echoed_gap_at_once() {
        for (cfg, verdict) in
            [(SnoopConfig::LL_SMART_TCP_AWARE, Verdict::Absorb), (SnoopConfig::LL_SMART, Verdict::Forward)]
        {
            // Fig. 1: 0 and 1000 lost; 2000 arrives: ack 0 echoing 2000.
            let mut s = fig1(cfg);
            assert_eq!(s.on_packet(ms(5), &mut ack_echo(0, Some(2000))), verdict);
            assert_eq!(sent(&mut s, ms(5)), [0, 1000], "the whole gap, selectively");
            // 3000 and 4000 arrive: nothing more is lost.
            for (t, e) in [(6, 3000), (7, 4000)] {
                assert_eq!(s.on_packet(ms(t), &mut ack_echo(0, Some(e))), verdict);
                assert!(sent(&mut s, ms(t)).is_empty());
            }
            // 0 arrives, 1000 arrives.
            assert_eq!(s.on_packet(ms(8), &mut ack_echo(1000, Some(0))), Verdict::Forward);
            assert_eq!(s.on_packet(ms(9), &mut ack_echo(5000, Some(1000))), Verdict::Forward);
            assert_eq!((s.cached(), s.stats.local_retransmits), (0, 2));
        }
    }

    #[test]
    fn smart_resends_a_lost_retransmission_when_a_later_segment_is_echoed() {
        let mut s = fig1(SnoopConfig::LL_SMART_TCP_AWARE);
        assert_eq!(s.on_packet(ms(5), &mut ack_echo(0, Some(1000))), Verdict::Absorb);
        assert_eq!(sent(&mut s, ms(5)), [0]);
        // 2000..5000 were sent before the retransmission: no new evidence.
        for e in [2000, 3000, 4000] {
            s.on_packet(ms(6), &mut ack_echo(0, Some(e)));
            assert!(sent(&mut s, ms(6)).is_empty());
        }
        // The retransmission is lost; 5000, sent after it, is echoed first.
        s.on_packet(ms(7), &mut data(5000));
        assert_eq!(s.on_packet(ms(12), &mut ack_echo(0, Some(5000))), Verdict::Absorb);
        assert_eq!(sent(&mut s, ms(12)), [0]);
    }

    #[test]
    fn other_flows_pass_untouched() {
        let mut s = Snoop::new(SnoopConfig::LL_TCP_AWARE, 7);
        let mut p = data(0);
        assert_eq!(s.on_packet(ms(0), &mut p), Verdict::Forward);
        assert_eq!(s.cached(), 0);
    }

    #[test]
    fn a_loss_repaired_by_both_the_agent_and_the_source_is_counted_once() {
        // Seed 000 Sec. IV-B under LL: "about 90% of the lost packets are
        // retransmitted by both the source and the base station". t0: 0..5000
        // pass; 0 is lost. t5, t6: two duplicates: a local retransmission.
        let mut s = fig1(SnoopConfig::LL);
        for t in 5..7 {
            assert_eq!(s.on_packet(ms(t), &mut ack(0)), Verdict::Forward);
        }
        assert_eq!(sent(&mut s, ms(6)), [0]);
        // t8: it arrives, the mobile host acks everything and the entry goes.
        assert_eq!(s.on_packet(ms(8), &mut ack(5000)), Verdict::Forward);
        assert_eq!((s.cached(), s.stats.double_retransmits), (0, 0));
        // t20: the source's fast retransmission of 0 (its third duplicate
        // was on its way) reaches the agent: counted, once.
        assert_eq!(s.on_packet(ms(20), &mut data(0)), Verdict::Forward);
        assert_eq!(s.on_packet(ms(21), &mut data(0)), Verdict::Forward);
        assert_eq!(s.stats.double_retransmits, 1);
        // A source retransmission of a segment the agent never resent is not.
        let mut s = fig1(SnoopConfig::LL);
        assert_eq!(s.on_packet(ms(5), &mut data(1000)), Verdict::Forward);
        assert_eq!(s.on_packet(ms(6), &mut ack(5000)), Verdict::Forward);
        assert_eq!(s.on_packet(ms(7), &mut data(0)), Verdict::Forward);
        assert_eq!(s.stats.double_retransmits, 0);
    }

    #[test]
    fn a_source_retransmission_first_then_a_local_one_is_counted_too() {
        // t5: the source resends 0 (still cached); t1005: the local timer
        // resends it as well (the oldest cached segment).
        let mut s = fig1(SnoopConfig::LL);
        assert_eq!(s.on_packet(ms(5), &mut data(0)), Verdict::Forward);
        assert_eq!(s.stats.double_retransmits, 0);
        s.on_timer(ms(5_000));
        assert_eq!(sent(&mut s, ms(5_000)), [0]);
        s.on_timer(ms(10_000));
        assert_eq!(sent(&mut s, ms(10_000)), [0]);
        assert_eq!(s.stats.double_retransmits, 1, "once, however often either resends it");
        // Still cached with the agent's retransmissions: the source's next
        // copy is not counted again.
        assert_eq!(s.on_packet(ms(10_001), &mut data(0)), Verdict::Forward);
        assert_eq!(s.stats.double_retransmits, 1);
    }

    /// Seed 004's timer settings: ns-2.35's `snoopTick_` (100 ms) and, for
    /// RFC 6298, the 1.1 s first timeout ns-2 starts from.
    fn seed004(estimator: SnoopRtt) -> SnoopConfig {
        SnoopConfig {
            estimator,
            min_rto_ns: 100 * NS_PER_MS,
            initial_rto_ns: 1100 * NS_PER_MS,
            ..SnoopConfig::LL_TCP_AWARE
        }
    }
    /// (srtt, rttvar) of the ns-2 estimator, in ms.
    fn ns2_ms(s: &Snoop) -> (f64, f64) {
        match s.rtt {
            WirelessRtt::Ns2(r) => (r.srtt_ns / 1e6, r.rttvar_ns / 1e6),
            WirelessRtt::Rfc6298(_) => panic!("not the ns-2 estimator"),
        }
    }
    fn us(t_us: u64) -> u64 {
        t_us * 1000
    }

    #[test]
    fn ns2_estimator_follows_snoop_rtt_from_the_ns_ll_tcl_defaults() {
        // ns-2.35 snoop.cc:657-677 with g = 1/8 (ns-ll.tcl:72): srtt <- g srtt
        // + (1-g) R; delta = |R - srtt| (the new srtt); rttvar <- g delta +
        // (1-g) rttvar; timeout max(srtt + 4 rttvar, 100 ms) (snoop.h:145).
        let mut s = Snoop::new(seed004(SnoopRtt::Ns2), 0);
        // Before any sample: srtt 100 ms, rttvar 250 ms (ns-ll.tcl:70-71):
        // 100 + 4*250 = 1100 ms, whatever `initial_rto_ns` says.
        let s200 = Snoop::new(SnoopConfig { initial_rto_ns: 200 * NS_PER_MS, ..seed004(SnoopRtt::Ns2) }, 0);
        assert_eq!((ns2_ms(&s), s.rto_ns(), s200.rto_ns()), ((100.0, 250.0), us(1_100_000), us(1_100_000)));
        // t0: 0 passes; the timer is set 1.1 s out.
        s.on_packet(ms(0), &mut data(0));
        assert_eq!(s.poll_at(), ms(1100));
        // t20: ack 1000: R = 20. srtt = 100/8 + 7*20/8 = 12.5 + 17.5 = 30;
        // delta = |20 - 30| = 10; rttvar = 10/8 + 7*250/8 = 1.25 + 218.75 =
        // 220 (not reset: RFC 6298 would have 20 and 10, a 100 ms timeout);
        // timeout 30 + 4*220 = 910.
        s.on_packet(ms(20), &mut ack(1000));
        assert_eq!((ns2_ms(&s), s.rto_ns()), ((30.0, 220.0), us(910_000)));
        // t20: 1000 passes, t30: 2000; t50: ack 3000 frees both: the sample
        // is the last one freed (snoop.cc:630-631), 2000's: R = 50 - 30 = 20
        // (1000's would be 30). srtt = 30/8 + 7*20/8 = 3.75 + 17.5 = 21.25;
        // delta = 1.25; rttvar = 1.25/8 + 7*220/8 = 0.15625 + 192.5 =
        // 192.65625; timeout 21.25 + 770.625 = 791.875.
        s.on_packet(ms(20), &mut data(1000));
        s.on_packet(ms(30), &mut data(2000));
        s.on_packet(ms(50), &mut ack(3000));
        assert_eq!((ns2_ms(&s), s.rto_ns()), ((21.25, 192.65625), us(791_875)));
        // t50: 3000 passes; t110: ack 4000: R = 60. srtt = 21.25/8 + 7*60/8
        // = 2.65625 + 52.5 = 55.15625; delta = 60 - 55.15625 = 4.84375;
        // rttvar = 4.84375/8 + 7*192.65625/8 = 0.60546875 + 168.57421875 =
        // 169.1796875; timeout 55.15625 + 676.71875 = 731.875.
        s.on_packet(ms(50), &mut data(3000));
        s.on_packet(ms(110), &mut ack(4000));
        assert_eq!((ns2_ms(&s), s.rto_ns()), ((55.15625, 169.1796875), us(731_875)));
        // t110: 4000 passes: its timer runs 731.875 ms from now.
        s.on_packet(ms(110), &mut data(4000));
        assert_eq!(s.poll_at(), ms(110).plus_ns(us(731_875)));
        // snoop.cc:667, `if (rtt > 0)`: a zero sample changes nothing.
        s.on_packet(ms(110), &mut ack(5000));
        assert_eq!(ns2_ms(&s), (55.15625, 169.1796875));
    }

    #[test]
    fn a_retransmitted_segment_gives_a_sample_under_ns2_but_not_under_rfc6298() {
        for est in [SnoopRtt::Ns2, SnoopRtt::Rfc6298] {
            let mut s = Snoop::new(seed004(est), 0);
            // t0: 0 passes and is lost; nothing follows it. Both wait 1.1 s.
            s.on_packet(ms(0), &mut data(0));
            assert_eq!(s.poll_at(), ms(1100));
            s.on_timer(ms(1100));
            assert_eq!(sent(&mut s, ms(1100)), [0], "{est:?}");
            // t1120: the local retransmission is acked.
            s.on_packet(ms(1120), &mut ack(1000));
            match est {
                // snoop.cc:733: the retransmission reset 0's send time: R =
                // 20, the first sample of the timeline above (30, 220, 910).
                SnoopRtt::Ns2 => assert_eq!((ns2_ms(&s), s.rto_ns()), ((30.0, 220.0), us(910_000))),
                // Karn: no sample; still the 1.1 s start.
                SnoopRtt::Rfc6298 => {
                    assert!(matches!(s.rtt, WirelessRtt::Rfc6298(r) if r.srtt_ns().is_none()));
                    assert_eq!(s.rto_ns(), us(1_100_000));
                }
            }
            // t1120: 1000 passes; t1500: the source sends it again (still
            // cached); t1520: acked, 20 ms after the source's copy.
            s.on_packet(ms(1120), &mut data(1000));
            s.on_packet(ms(1500), &mut data(1000));
            assert_eq!(s.stats.sender_retransmits_seen, 1);
            s.on_packet(ms(1520), &mut ack(2000));
            match est {
                // snoop.cc:336-338 reset the send time: R = 20, the second
                // sample of the timeline above (21.25, 192.65625, 791.875).
                SnoopRtt::Ns2 => assert_eq!((ns2_ms(&s), s.rto_ns()), ((21.25, 192.65625), us(791_875))),
                SnoopRtt::Rfc6298 => assert_eq!(s.rto_ns(), us(1_100_000), "Karn: still no sample"),
            }
        }
    }

    #[test]
    fn seed_000s_variants_keep_rfc6298() {
        for cfg in [SnoopConfig::LL, SnoopConfig::LL_TCP_AWARE, SnoopConfig::LL_SMART, SnoopConfig::LL_SMART_TCP_AWARE]
        {
            assert_eq!(cfg.estimator, SnoopRtt::Rfc6298);
        }
    }
}
