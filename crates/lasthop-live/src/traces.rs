//! A live run's time series, in the columns of a simulated run's trace
//! tables (`python/lasthop/result.py`, `_TABLE_COLUMNS`), so that what
//! reads a simulated run's tables reads a live one's: each table a map of
//! column name to values, one value per row.
//!
//! Where each comes from, live:
//! - `sent`: every data segment the source host's kernel put on its
//!   interface (the relay sees it enter), with the flow map's retransmission
//!   mark (a segment starting below the highest byte sent before);
//! - `acks`: every ack delivered to the source host;
//! - `window`: the kernel's `TCP_INFO` samples of the sender (cwnd and
//!   ssthresh in segments times its MSS), every sampling interval, not at
//!   every change as the simulator records it;
//! - `drops`: frames the error models destroyed and packets queues dropped,
//!   by link direction ("link:from->to"), flow and first byte (an ack's
//!   cumulative ack);
//! - `local_rexmits`: segments an agent sent from its cache, at its node
//!   (`timer` is always false: the agent's output does not say; the count
//!   by cause is the agent's own, in the summary);
//! - `send_rate`: per flow and 100 ms bin, `sent`'s segments and
//!   retransmissions (seed 004 Fig. 16), from its first segment to its last;
//! - `events`: empty (the kernel's recovery events are not visible in its
//!   packets).

use serde::Serialize;

/// The trace tables of a live run, column by column.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Traces {
    pub window: Window,
    pub sent: Sent,
    pub acks: Acks,
    pub events: Events,
    pub drops: Drops,
    pub local_rexmits: LocalRexmits,
    pub send_rate: SendRate,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Window {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub cwnd_bytes: Vec<u64>,
    pub ssthresh_bytes: Vec<u64>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Sent {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub seq: Vec<u64>,
    pub len: Vec<u32>,
    pub retransmit: Vec<bool>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Acks {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub ack: Vec<u64>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Events {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub kind: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Drops {
    pub time_ns: Vec<u64>,
    pub link: Vec<String>,
    pub flow: Vec<u32>,
    pub seq: Vec<u64>,
    pub is_data: Vec<bool>,
    pub cause: Vec<&'static str>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct LocalRexmits {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub seq: Vec<u64>,
    pub len: Vec<u32>,
    pub node: Vec<String>,
    pub timer: Vec<bool>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct SendRate {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub segments: Vec<u32>,
    pub retransmits: Vec<u32>,
}

/// The bin of `send_rate`, 100 ms (the simulator's).
pub const SEND_RATE_BIN_NS: u64 = 100_000_000;

impl Traces {
    /// Fill `send_rate` from `sent`: per flow, a row per bin from its first
    /// segment's to its last's.
    pub fn bin_send_rate(&mut self) {
        let mut flows: Vec<u32> = self.sent.flow.clone();
        flows.sort_unstable();
        flows.dedup();
        let mut rate = SendRate::default();
        for f in flows {
            let rows: Vec<usize> = (0..self.sent.flow.len()).filter(|&i| self.sent.flow[i] == f).collect();
            let (Some(&first), Some(&last)) = (rows.first(), rows.last()) else { continue };
            let (b0, b1) = (self.sent.time_ns[first] / SEND_RATE_BIN_NS, self.sent.time_ns[last] / SEND_RATE_BIN_NS);
            let n = (b1 - b0 + 1) as usize;
            let (mut segs, mut rexmits) = (vec![0u32; n], vec![0u32; n]);
            for &i in &rows {
                let b = (self.sent.time_ns[i] / SEND_RATE_BIN_NS - b0) as usize;
                segs[b] += 1;
                rexmits[b] += u32::from(self.sent.retransmit[i]);
            }
            for b in 0..n {
                rate.time_ns.push((b0 + b as u64) * SEND_RATE_BIN_NS);
                rate.flow.push(f);
                rate.segments.push(segs[b]);
                rate.retransmits.push(rexmits[b]);
            }
        }
        self.send_rate = rate;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_rate_bins_each_flow_from_its_first_segment_to_its_last() {
        let mut t = Traces::default();
        for (time, flow, rexmit) in
            [(50_000_000, 0, false), (120_000_000, 0, true), (330_000_000, 0, false), (10, 1, false)]
        {
            t.sent.time_ns.push(time);
            t.sent.flow.push(flow);
            t.sent.seq.push(0);
            t.sent.len.push(1000);
            t.sent.retransmit.push(rexmit);
        }
        t.bin_send_rate();
        assert_eq!(t.send_rate.flow, [0, 0, 0, 0, 1]);
        assert_eq!(t.send_rate.time_ns, [0, 100_000_000, 200_000_000, 300_000_000, 0]);
        assert_eq!(t.send_rate.segments, [1, 1, 0, 1, 1]);
        assert_eq!(t.send_rate.retransmits, [0, 1, 0, 0, 0]);
    }
}
