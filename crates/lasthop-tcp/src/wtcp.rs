//! WTCP's receiver: rate control at the receiver (Sinha, Venkitaraman,
//! Sivakumar, Bharghavan, "WTCP: A reliable transport protocol for wireless
//! wide-area networks", ACM MobiCom 1999, pp. 231-241; seed 002 Sec. 1;
//! elaarag-002.md Sec. 1.14). The sender's half is the congestion-control
//! member [`crate::cc::wtcp`] (`variant = "wtcp"`): it paces at the rate
//! this receiver returns in its acks.
//!
//! Rules, each tagged (elaarag-002.md's tags: [A] the paper's abstract,
//! read on the Nokia Bell Labs publication page; [S §1] the survey; [K] the
//! reading's recollection of the paper, not checked against its text; [I]
//! lasthop's own choice). The paper's full text was not found (searched:
//! the docs, pages and code corpora), so no rule beyond the abstract's is
//! checked; every [K]/[I] constant is a `cc_params` entry of `wtcp`
//! ([`crate::cc::wtcp::PARAMS`]).
//!
//! - Rate-based, end-to-end, rate control **at the receiver**; the primary
//!   metric is the ratio of inter-packet delays at the receiver to those at
//!   the sender, not losses or timeouts [A; S §1].
//! - The sender stamps each packet with its send time [K]: here the TSval
//!   of the timestamp option (RFC 7323, [`crate::timestamps`]; `wtcp`
//!   needs `timestamps = true`).
//! - Per rate-adaptation period (RAP), ρ = (mean receive gap) / (mean send
//!   gap) over the packets of the period [K]. With n packets, first and
//!   last, the means are the spans over n − 1, so ρ = receive span / send
//!   span: a packet lost inside the period widens both alike, which is why
//!   a random loss does not move ρ [I, from the rule].
//! - A RAP ends once it holds `rap_packets` packets (8) and lasted
//!   `rap_srtt` smoothed round trips (1) [K: "1 srtt or ≥ 8 packets"; both
//!   required here, I]. The receiver's round trip: the age of the TSecr a
//!   data segment echoes (the receiver's own TSval of an ack), smoothed
//!   with gain 1/8 as RFC 6298's SRTT [I]. Before a sample, packets alone.
//! - ρ ≤ 1 + γ: rate += α packets per RAP, i.e. α·MSS / (the period's
//!   length) [K]; ρ > 1 + γ: rate ·= β [K]; γ = 0.15, α = 1, β = 0.7 [K,
//!   thresholds I in the reading].
//! - The new rate rides every ack (`TcpHeader::rate_bytes_per_s`) [K].
//! - Start-up: a packet pair [K]. The first two consecutive arrivals sent
//!   at the same instant (equal TSvals: back-to-back) give the first rate,
//!   their length over their arrival gap [I: which two]; the second is
//!   acked at once so the rate reaches the sender [I].
//! - A segment whose send stamp is older than one already counted
//!   (reordered) stays out of the statistics [I].
//!
//! No allocation per segment: the state is a few words, boxed once per
//! flow in the receiver.

use crate::cc::{CcConfig, CcName};
use lasthop_core::{TcpHeader, Time};

/// The receiver's parameters, from the `wtcp` controller's `cc_params`
/// (in [`crate::cc::wtcp::PARAMS`] order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WtcpParams {
    pub gamma: f64,
    pub beta: f64,
    pub alpha_packets: f64,
    pub rap_packets: u32,
    pub rap_srtt: f64,
}

impl WtcpParams {
    pub fn from_params(p: &[f64]) -> WtcpParams {
        WtcpParams {
            gamma: p[0],
            beta: p[1],
            alpha_packets: p[2],
            rap_packets: (p[3].round() as u32).max(2),
            rap_srtt: p[4],
        }
    }
}

/// One finished rate-adaptation period, for tests and traces.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RapOutcome {
    /// When it ended (the arrival that closed it), in ns.
    pub at_ns: u64,
    pub rho: f64,
    /// The rate after it, in bytes per second.
    pub rate_bytes_per_s: u64,
}

/// Counters of a WTCP receiver.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WtcpStats {
    pub raps: u64,
    pub increases: u64,
    pub decreases: u64,
    /// The packet-pair estimate, in bytes per second (0 until made).
    pub pair_rate_bytes_per_s: u64,
    pub last: RapOutcome,
    /// Sum of ρ over the periods (mean = sum / raps).
    pub rho_sum: f64,
}

/// The receiver's rate control.
#[derive(Clone, Debug)]
pub struct WtcpReceiver {
    p: WtcpParams,
    mss: u64,
    /// The rate asked for, in bytes per second (0: no estimate yet).
    rate: f64,
    /// The previous arrival before the first estimate: (send ns, receive ns).
    prev: Option<(u64, u64)>,
    /// The current period's first packet: (send ns, receive ns), and its count.
    first: Option<(u64, u64)>,
    count: u32,
    /// The newest send stamp counted.
    last_send_ns: u64,
    srtt_ns: Option<f64>,
    stats: WtcpStats,
}

impl WtcpReceiver {
    pub fn new(p: WtcpParams, mss_bytes: u32) -> WtcpReceiver {
        WtcpReceiver {
            p,
            mss: u64::from(mss_bytes),
            rate: 0.0,
            prev: None,
            first: None,
            count: 0,
            last_send_ns: 0,
            srtt_ns: None,
            stats: WtcpStats::default(),
        }
    }

    /// The receiver a flow whose sender runs `cc` needs, if that is WTCP.
    pub fn for_cc(cc: &CcConfig, mss_bytes: u32) -> Option<WtcpReceiver> {
        (cc.name == CcName::Wtcp).then(|| WtcpReceiver::new(WtcpParams::from_params(&cc.params), mss_bytes))
    }

    pub fn stats(&self) -> WtcpStats {
        self.stats
    }

    /// The rate to put in an ack (0: none yet).
    pub fn rate_field(&self) -> u32 {
        self.rate.round().clamp(0.0, f64::from(u32::MAX)) as u32
    }

    /// A data segment arrived at `now`. True if it should be acked at once
    /// (the packet pair's second).
    pub fn on_segment(&mut self, now: Time, hdr: &TcpHeader) -> bool {
        let Some(ts) = hdr.ts else { return false };
        let r = now.ns();
        if ts.ecr_ns > 0 && r > ts.ecr_ns {
            let sample = (r - ts.ecr_ns) as f64;
            self.srtt_ns = Some(self.srtt_ns.map_or(sample, |s| s + (sample - s) / 8.0));
        }
        let s = ts.val_ns;
        if self.rate <= 0.0 {
            if let Some((ps, pr)) = self.prev {
                if ps == s && r > pr {
                    self.rate = f64::from(hdr.len) * 1e9 / (r - pr) as f64;
                    self.stats.pair_rate_bytes_per_s = self.rate as u64;
                    self.first = Some((s, r));
                    self.count = 1;
                    self.last_send_ns = s;
                    return true;
                }
            }
            self.prev = Some((s, r));
            return false;
        }
        if s < self.last_send_ns {
            return false;
        }
        self.last_send_ns = s;
        let Some((s0, r0)) = self.first else {
            self.first = Some((s, r));
            self.count = 1;
            return false;
        };
        self.count += 1;
        let span_r = r.saturating_sub(r0);
        let long_enough = self.srtt_ns.is_none_or(|srtt| span_r as f64 >= self.p.rap_srtt * srtt);
        if self.count < self.p.rap_packets || !long_enough {
            return false;
        }
        let span_s = s.saturating_sub(s0);
        if span_s > 0 && span_r > 0 {
            let rho = span_r as f64 / span_s as f64;
            if rho <= 1.0 + self.p.gamma {
                self.rate += self.p.alpha_packets * self.mss as f64 * 1e9 / span_r as f64;
                self.stats.increases += 1;
            } else {
                self.rate = (self.rate * self.p.beta).max(1.0);
                self.stats.decreases += 1;
            }
            self.stats.raps += 1;
            self.stats.rho_sum += rho;
            self.stats.last = RapOutcome { at_ns: r, rho, rate_bytes_per_s: self.rate as u64 };
        }
        self.first = Some((s, r));
        self.count = 1;
        false
    }
}
