//! RFC 6298's smoothed round-trip time, shared by the TCP sender's RTO and by
//! the base-station agents that time the wireless hop (snoop's local timer,
//! seed 000 Sec. III-B).

/// SRTT and RTTVAR after RFC 6298 Sec. 2, in integer nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmoothedRtt {
    srtt_ns: Option<u64>,
    rttvar_ns: u64,
}

impl SmoothedRtt {
    /// Take a round-trip sample `r_ns`.
    pub fn on_sample(&mut self, r_ns: u64) {
        match self.srtt_ns {
            None => {
                // RFC 6298 2.2: SRTT <- R, RTTVAR <- R/2.
                self.srtt_ns = Some(r_ns);
                self.rttvar_ns = r_ns / 2;
            }
            Some(srtt) => {
                // RFC 6298 2.3, beta = 1/4 then alpha = 1/8.
                self.rttvar_ns = (3 * self.rttvar_ns + srtt.abs_diff(r_ns)) / 4;
                self.srtt_ns = Some((7 * srtt + r_ns) / 8);
            }
        }
    }

    /// Smoothed RTT, in ns; `None` before the first sample.
    pub fn srtt_ns(&self) -> Option<u64> {
        self.srtt_ns
    }

    /// Round-trip variation, in ns (0 before the first sample).
    pub fn rttvar_ns(&self) -> u64 {
        self.rttvar_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_rfc6298_section_2() {
        let mut s = SmoothedRtt::default();
        assert_eq!(s.srtt_ns(), None);
        s.on_sample(800);
        assert_eq!((s.srtt_ns(), s.rttvar_ns()), (Some(800), 400));
        s.on_sample(400);
        // RTTVAR = 3/4·400 + 1/4·|800 − 400| = 400; SRTT = 7/8·800 + 1/8·400 = 750.
        assert_eq!((s.srtt_ns(), s.rttvar_ns()), (Some(750), 400));
    }
}
