//! Connection start-up and close (lasthop issue 12, item 5), so that a short
//! transfer's completion time includes them: seed 001 Sec. 7.3's web
//! micro-benchmark times a transaction "from request start to the last
//! reply completing" (reference Sec. 1.15), and a reply that is a few
//! segments long spends a good part of that in the three-way handshake.
//!
//! What is modelled (RFC 793 Sec. 3.4, with the data sender as the active
//! opener):
//! - The sender starts in SYN-SENT and sends a SYN: header only, sequence
//!   number 0 standing for the ISN (data byte 0 is ISN + 1; see
//!   `lasthop_core::packet`). It sends no data until the SYN-ACK arrives;
//!   then it is ESTABLISHED and its first data segment carries the ack of
//!   the SYN-ACK (no separate third segment: RFC 793 lets the ACK ride the
//!   data, and the receiver here accepts data as the ack).
//! - The SYN is retransmitted on the retransmission timer, armed from the
//!   configured RTO before any sample (RFC 6298 Sec. 2.1: 1 s, or the
//!   scenario's `initial_s`, e.g. 3 s; BSD mode 6 s = 12 ticks of 500 ms,
//!   4.4BSD-Lite's initial `t_rxtcur`, counted down at the host's slow
//!   tick so the first retransmission comes 5.5 to 6 s after the SYN, as
//!   TCPv1 Sec. 18.3 shows 5.8 s, from memory), and backed off on each expiry.
//! - A SYN timeout is a timeout: cwnd falls to one segment and ssthresh to
//!   the cut rule's value for an empty flight, 2 segments. That is RFC 5681
//!   Sec. 3.1 ("if the SYN or SYN/ACK is lost, the initial window used by a
//!   sender after a correctly transmitted SYN MUST be one segment") with
//!   eq. 4 read literally (FlightSize is 0: a SYN carries no data), and
//!   4.4BSD-Lite's `tcp_timer`, whose `min(snd_wnd, snd_cwnd) / 2 /
//!   t_maxseg` is below 2 in SYN-SENT (`snd_wnd` is still 0), giving
//!   ssthresh = 2 segments; `tcp_mss` then sets cwnd to one segment on the
//!   SYN-ACK. Linux departs (it keeps ssthresh from the current cwnd).
//! - RTT: a SYN sent once and answered is timed, and the sample seeds the
//!   estimator (4.4BSD-Lite `tcp_input` in SYN-SENT: `if (tp->t_rtt)
//!   tcp_xmit_timer(...)`); a retransmitted SYN is not (Karn, RFC 6298
//!   Sec. 3). After a SYN timeout, RFC 6298 mode re-initialises the RTO to
//!   3 s (Sec. 5.7); BSD and ns-2 modes keep the backed-off timer until the
//!   first sample (see [`crate::rtt::RttEstimator::on_established_after_syn_timeout`]).
//!   The handshake's sample is not counted in the sender's `rtt_samples`
//!   (seed 001's "average RTT" is the data's).
//! - A lost SYN-ACK: the sender's SYN timer fires and the SYN goes again;
//!   the receiver answers every SYN, a duplicate included, with a SYN-ACK
//!   (RFC 793 Sec. 3.4's recovery from an old duplicate; Linux's
//!   `tcp_check_req` retransmits the SYN-ACK on a duplicate SYN). The
//!   receiver has no SYN-ACK retransmission timer of its own (4.4BSD and
//!   Linux have one): the active opener's timer covers the loss, and with
//!   equal initial RTOs the two timers would fire within half a round trip
//!   of each other. A duplicate SYN-ACK reaching an established sender is
//!   ignored.
//! - Close: the segment that carries the last byte of a bounded transfer
//!   carries FIN, and so does every retransmission of it (4.4BSD
//!   `tcp_output` sets FIN on any segment that reaches the end of the send
//!   buffer after the close). The FIN takes the sequence number after the
//!   last byte; the receiver acknowledges it once every byte before it has
//!   arrived, at once (4.4BSD `tcp_input`: `tp->t_flags |= TF_ACKNOW` on a
//!   FIN), with ack = length + 1. Only the sender's half of the close is
//!   modelled: the receiver sends no FIN of its own (nothing waits on it).
//!   Since the FIN rides the last byte and is acknowledged with it, the
//!   last byte and the FIN are acknowledged by the same ack.
//!
//! Not modelled: the MSS option (the configured MSS holds from the start),
//! window scaling and SACK-permitted negotiation (the configured options
//! hold), a limit on SYN retransmissions (4.4BSD gives up after 75 s, RFC
//! 1122 after at least 3 minutes; here the SYN is retried at the capped
//! backoff until the run ends), simultaneous open, RST, TIME-WAIT.
//! Departure in BSD mode: the second SYN retransmission comes 24 ticks
//! (12 s) after the first, the estimator's backoff of its 12-tick initial
//! RTO; 4.4BSD-Lite backs off `TCP_REXMTVAL` (srtt 0 + the initial scaled
//! rttvar, 24 ticks) instead, 24 s later (TCPv1 Sec. 18.3: 5.8 s, then
//! 24 s; from memory, not checked here). Changing it would change data
//! timeouts before the first sample in existing BSD-mode runs.
//!
//! Times kept for the flow summary ([`ConnectionTimes`]): when the first
//! SYN left, when the SYN-ACK made the sender ESTABLISHED, and when the
//! last byte (and with it the FIN) was acknowledged. The simulator reports
//! the completion time of a transaction as the last of these minus the
//! first, as ns-2's agents call `finish` when the last segment is acked.

use lasthop_core::{TcpHeader, Time};

/// What a sender with a handshake records about its connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConnectionTimes {
    /// When the first SYN was sent.
    pub syn_sent_at: Option<Time>,
    /// When the SYN-ACK arrived (the sender became ESTABLISHED).
    pub established_at: Option<Time>,
    /// When the last data byte (and the FIN riding it) was acknowledged.
    pub fin_acked_at: Option<Time>,
    /// SYN retransmissions (each after a retransmission timeout).
    pub syn_retransmits: u32,
}

/// The sender's side of the handshake and close.
#[derive(Clone, Debug, Default)]
pub struct Handshake {
    times: ConnectionTimes,
    /// A SYN is due (at start, and after each SYN timeout).
    syn_due: bool,
    /// When the latest SYN was sent.
    last_syn_at: Time,
}

impl Handshake {
    pub fn new() -> Handshake {
        Handshake::default()
    }

    pub fn times(&self) -> ConnectionTimes {
        self.times
    }

    pub fn established(&self) -> bool {
        self.times.established_at.is_some()
    }

    /// The application opened the connection.
    pub fn on_start(&mut self) {
        self.syn_due = !self.established();
    }

    /// The SYN to send now, if one is due.
    pub fn poll_syn(&mut self, now: Time) -> Option<TcpHeader> {
        if !self.syn_due {
            return None;
        }
        self.syn_due = false;
        self.times.syn_sent_at.get_or_insert(now);
        self.last_syn_at = now;
        Some(TcpHeader { seq: 0, syn: true, ..TcpHeader::default() })
    }

    /// The retransmission timer expired in SYN-SENT: the SYN goes again.
    pub fn on_syn_timeout(&mut self) {
        self.syn_due = true;
        self.times.syn_retransmits += 1;
    }

    /// A SYN-ACK arrived in SYN-SENT: ESTABLISHED. Returns when the SYN it
    /// answers was sent if that SYN may be timed (it was never
    /// retransmitted: Karn), else `None`.
    pub fn on_syn_ack(&mut self, now: Time) -> Option<Time> {
        self.times.established_at = Some(now);
        self.syn_due = false;
        (self.times.syn_retransmits == 0).then_some(self.last_syn_at)
    }

    /// An ack of data arrived: `ack` is its cumulative ack, `fin_seq` the
    /// sequence number of the FIN (the transfer's length), if bounded.
    #[inline]
    pub fn on_ack(&mut self, now: Time, ack: u64, fin_seq: Option<u64>) {
        if self.times.fin_acked_at.is_none() && fin_seq.is_some_and(|f| ack > f) {
            self.times.fin_acked_at = Some(now);
        }
    }

    /// True once the FIN has been acknowledged.
    pub fn closed(&self) -> bool {
        self.times.fin_acked_at.is_some()
    }
}
