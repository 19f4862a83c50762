//! The run's invariants, checked at its end: packets conserved, counters
//! that agree, every application's bytes delivered once and in order.

use super::World;
use crate::scenario::model::Workload;

impl<'m> World<'m> {
    /// Packets still in queues, on a medium or propagating.
    pub fn in_flight(&self) -> u64 {
        let media: u64 = self.macs.iter().map(|m| m.mac.in_flight() as u64).sum();
        self.links.iter().map(|l| l.in_flight() as u64).sum::<u64>() + media
    }

    /// The run's invariants; an error describes the first that fails.
    pub fn check_invariants(&self) -> Result<(), String> {
        if let Some(v) = self.violations.first() {
            return Err(v.clone());
        }
        let c = self.conservation;
        let in_flight = self.in_flight();
        // Agents hold packets (ACK reconstruction's real acks) and discard
        // held ones a newer packet superseded: both end there, like absorbed ones.
        let held: u64 = self.agents.iter().map(|s| s.agent.held()).sum();
        let absorbed = c.absorbed + self.agents.iter().map(|s| s.agent.discarded()).sum::<u64>();
        if c.created != c.delivered + c.dropped + absorbed + c.filtered + held + in_flight {
            return Err(format!(
                "packets not conserved: created {} != delivered {} + dropped {} + absorbed {absorbed} + filtered {} \
                 + held by agents {held} + in flight {in_flight}",
                c.created, c.delivered, c.dropped, c.filtered
            ));
        }
        if self.pool.len() as u64 != in_flight {
            return Err(format!("{} packets stored for {in_flight} in links", self.pool.len()));
        }
        let dirs = || self.links.iter().flat_map(|l| l.dirs.iter());
        let link_drops: u64 = dirs().map(|d| d.stats()).map(|s| s.drops_error + s.drops_queue + s.drops_early).sum();
        let outage_drops = self.outage_drops_total();
        let handoff_drops = self.mobility.as_deref().map_or(0, |m| m.stranded_total());
        if link_drops + self.mac_retry_drops + outage_drops + handoff_drops != c.dropped {
            return Err(format!(
                "link drop counters {link_drops} + MAC retry-limit drops {} + outage drops {outage_drops} + \
                 handoff drops {handoff_drops} != dropped packets {}",
                self.mac_retry_drops, c.dropped
            ));
        }
        let link_filtered: u64 = dirs().map(|d| d.stats().drops_filtered).sum();
        if link_filtered != c.filtered {
            return Err(format!("link filter counters {link_filtered} != filtered acks {}", c.filtered));
        }
        // A background source's receiving end counts datagram bytes, with no
        // TCP receiver behind it.
        for (i, f) in self.flows.iter().enumerate().filter(|(_, f)| f.source.is_none()) {
            // (An MHP leg's receiver is SRP's, which hands up in order.)
            if f.app_next != f.receiver.rcv_nxt() && !f.mhp {
                return Err(format!(
                    "flow {i}: application has {} bytes, receiver {}",
                    f.app_next,
                    f.receiver.rcv_nxt()
                ));
            }
            if let Some(r) = f.relay.as_deref() {
                if r.max_occupancy_bytes > r.buffer_bytes {
                    return Err(format!(
                        "flow {i}: relay held {} bytes, more than its {} bytes",
                        r.max_occupancy_bytes, r.buffer_bytes
                    ));
                }
            }
        }
        for (i, (f, m)) in self.flows.iter().zip(&self.model.flows).enumerate() {
            let delivered = self.flows[self.last_leg(i)].app_next;
            if let Workload::Bulk { bytes } = m.workload {
                if f.done_at.is_some() && delivered != bytes {
                    return Err(format!("flow {i}: delivered {delivered} of exactly {bytes} bytes"));
                }
            }
        }
        Ok(())
    }
}
