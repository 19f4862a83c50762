//! The node agents (ELN marking, the snoop family, ACK reconstruction):
//! which of a node's agents a packet meets, their verdicts on it, and what
//! they emit from their node.

use super::{World, NO_HOP};
use lasthop_agents::{Origin, Verdict};
use lasthop_core::trace::TraceEvent;
use lasthop_core::{NodeId, Packet};

impl<'m> World<'m> {
    /// The agents of `flow` on `node`: a range of the node's agents, which
    /// are in flow order (agents act on their own flow's packets only).
    pub(super) fn flow_agents(&self, node: NodeId, flow: u32) -> (usize, usize) {
        let (first, end) = self.node_agents[node as usize];
        let (first, end) = (first as usize, end as usize);
        if first == end {
            return (0, 0);
        }
        let on_node = &self.agents[first..end];
        let lo = on_node.partition_point(|s| s.agent.flow() < flow);
        let hi = lo + on_node[lo..].partition_point(|s| s.agent.flow() == flow);
        (first + lo, first + hi)
    }

    /// Hand `pkt` to the node's agents `first..end` in order; the first that
    /// absorbs or holds it ends its journey.
    pub(super) fn run_agents(&mut self, first: usize, end: usize, pkt: &mut Packet) -> Verdict {
        let now = self.sched.now();
        for slot in &mut self.agents[first..end] {
            match slot.agent.on_packet(now, pkt) {
                Verdict::Forward => {}
                v => return v,
            }
        }
        Verdict::Forward
    }

    /// Send what agents `first..end` emit from their node (packets they
    /// make are fresh, counted as created; packets they held keep their
    /// identity) and re-arm their timers.
    pub(super) fn flush_agents(&mut self, first: usize, end: usize) {
        let now = self.sched.now();
        for k in first..end {
            while let Some(out) = self.agents[k].agent.poll_transmit(now) {
                let mut pkt = out.pkt;
                if out.is_created() {
                    pkt.uid = self.next_uid;
                    self.next_uid += 1;
                    self.conservation.created += 1;
                }
                let node = self.agents[k].node;
                if let (true, Origin::LocalRetransmit { by_timer }) = (self.trace.enabled, out.origin) {
                    let (flow, seq, len) = (pkt.flow, pkt.tcp.seq, pkt.tcp.len);
                    let ev = TraceEvent::LocalRetransmit { flow, seq, len, node, timer: by_timer };
                    self.trace.record(now, ev);
                }
                if node == pkt.dst {
                    // An agent on the destination's own node (acks coming
                    // out of a link into their sender).
                    self.conservation.delivered += 1;
                    self.deliver(pkt);
                } else {
                    self.forward(node, pkt);
                }
            }
            let want = self.agents[k].agent.poll_at();
            if want < self.agents[k].armed {
                let at = want.max(now);
                self.agents[k].armed = at;
                self.sched.set_timer(self.timer_keys().agent(k).raw(), at);
            }
        }
    }

    /// Flow `fi`'s new segment `pkt` meets the agents `first..end` on its
    /// sender's node before it leaves (out of line: the common path, no
    /// agent there, keeps the packet in registers).
    #[inline(never)]
    pub(super) fn send_through_agents(&mut self, fi: usize, first: usize, end: usize, mut pkt: Packet) {
        match (self.run_agents(first, end, &mut pkt), self.flows[fi].data_hop) {
            (Verdict::Forward, NO_HOP) => self.forward(pkt.src, pkt),
            (Verdict::Forward, h) => self.forward_on(h as usize, pkt),
            (Verdict::Absorb, _) => self.conservation.absorbed += 1,
            (Verdict::Hold, _) => {}
        }
        self.flush_agents(first, end);
    }
}
