//! Packets along their paths: onto a hop's link or medium, out of a link
//! (arrivals, corrupted frames), through the node's agents, on to the next
//! hop or delivered; what queues refuse or drop, and goodput accounting as
//! frames go on a link.

use super::{World, LAST_HOP, NO_COVER};
use crate::scheduler::Event;
use lasthop_agents::Verdict;
use lasthop_core::ranges::insert_split;
use lasthop_core::trace::{DropCause, TraceEvent};
use lasthop_core::{NodeId, Packet, PacketKind};
use lasthop_net::queue::{Admission, Removal, Waiting};

use crate::scenario::schema::{HeaderCompression, LinkDownSpec, COMPRESSED_ACK_BYTES};

impl<'m> World<'m> {
    /// Start what link `li` can send now that direction `dir` changed.
    pub(super) fn start_link(&mut self, li: usize, dir: usize) {
        let now = self.sched.now();
        while let Some(s) = self.links[li].start_transmission_after(now, dir, &mut self.pool, &mut self.removed) {
            self.account_tx(li, s.dir, &s.frame);
            self.sched.schedule(s.done, Event::TxDone { link: li as u32, dir: s.dir as u8 });
        }
        if !self.removed.is_empty() {
            self.on_dequeue_drops(li);
        }
    }

    /// Free and record what link `li`'s queues dropped at dequeue (CoDel,
    /// FQ-CoDel; counted by the link), each on its own direction.
    #[cold]
    #[inline(never)]
    fn on_dequeue_drops(&mut self, li: usize) {
        for i in 0..self.removed.len() {
            let Removal { pkt, cause } = self.removed[i];
            let (h, _) = self.hop_of(pkt);
            debug_assert_eq!(self.route[h].link as usize, li, "dropped from the link it waited on");
            let ld = 2 * li + self.route[h].dir as usize;
            let pkt = self.pool.take(pkt);
            self.drop(ld, &pkt, cause);
        }
        self.removed.clear();
    }

    /// Goodput accounting (and capture) when a frame goes on a link
    /// direction, from the summary the queue kept: a packet that waited is
    /// not read back (only a capture reads it).
    pub(super) fn account_tx(&mut self, li: usize, dir: usize, w: &Waiting) {
        if !self.captures.is_empty() {
            let (now, pkt) = (self.sched.now(), self.pool.get(w.pkt));
            for c in &mut self.captures {
                c.on_transmit(now, li, dir, &pkt);
            }
        }
        if w.tag != NO_COVER {
            let g = &mut self.cover[w.tag as usize];
            // (The earlier ranges' vector is read only when they are.)
            let earlier = &mut self.cover_earlier[w.tag as usize];
            g.useful += insert_split(&mut g.last, earlier, w.seq, w.seq + u64::from(w.len));
            g.payload += u64::from(w.len);
        }
    }

    /// Put `pkt` on the next hop from `node` toward its destination.
    pub(super) fn forward(&mut self, node: NodeId, pkt: Packet) {
        let (first, end) = self.conn_at[pkt.flow as usize].path(pkt.kind);
        match self.hop_from(first, end, node) {
            Some(h) => self.forward_on(h, pkt),
            None => self.forward_from_left_station(node, pkt),
        }
    }

    /// The hop of the path `first..end` (route array indices) that leaves
    /// `node`, if the path crosses it. Paths are a few hops long: a scan
    /// beats any map.
    #[inline(always)]
    pub(super) fn hop_from(&self, first: u32, end: u32, node: NodeId) -> Option<usize> {
        self.route[first as usize..end as usize].iter().position(|h| h.from == node).map(|i| first as usize + i)
    }

    /// What a packet on hop `h` carries of it: its pool tag (the hop's
    /// index, with the last-hop mark) and its goodput slot (`payload`: data
    /// with payload, which counts toward its hop's goodput state; else
    /// [`NO_COVER`]). For a packet moved to another hop; the per-packet
    /// path ([`World::waiting`]) has its own copy.
    pub(super) fn hop_marks(&self, h: usize, payload: bool) -> (u32, u32) {
        let hop = self.route[h];
        let tag = h as u32 | if hop.last { LAST_HOP } else { 0 };
        let cover = if payload { hop.cover } else { NO_COVER };
        (tag, cover)
    }

    /// `pkt` in the pool, tagged with hop `h`, as it waits for the hop's
    /// link direction.
    #[inline(always)]
    pub(super) fn waiting(&mut self, h: usize, pkt: Packet) -> Waiting {
        // `hop_marks`, written out: through the call the per-packet path
        // took 0.3-1.1 % more instructions (lan, callgrind).
        let hop = self.route[h];
        let cover = if pkt.is_data() && pkt.tcp.len > 0 { hop.cover } else { NO_COVER };
        let compress = hop.compress;
        let tag = h as u32 | if hop.last { LAST_HOP } else { 0 };
        let mut w = Waiting::new(&pkt, self.pool.put_tagged(pkt, tag), cover);
        if compress != HeaderCompression::None && pkt.is_pure_ack() {
            // RFC 1144 sends a segment whose options changed uncompressed:
            // the timestamp option changes with every ack (seed 001 Sec. 9).
            let vj_defeated = compress == HeaderCompression::Vj && pkt.tcp.ts.is_some();
            if !vj_defeated {
                w.size_bytes = w.size_bytes.min(COMPRESSED_ACK_BYTES);
            }
        }
        w
    }

    /// Put `pkt` on hop `h` of its path.
    #[inline]
    pub(super) fn forward_on(&mut self, h: usize, pkt: Packet) {
        let hop = self.route[h];
        let (li, dir) = (hop.link as usize, hop.dir as usize);
        // A direction down for an outage (`outages`) that is not a
        // blackhole takes the packet its own way.
        if self.dirs_down != 0 {
            match self.down_mode(li, dir) {
                Some(mode) if mode != LinkDownSpec::Blackhole => return self.forward_while_down(h, mode, pkt),
                _ => {}
            }
        }
        let w = self.waiting(h, pkt);
        if hop.mac {
            self.mac_enqueue(li, dir, w);
            return;
        }
        let now = self.sched.now();
        // An idle DropTail direction with nothing waiting sends it at once.
        if let Some(s) = self.links[li].start_at_once(now, dir, w, &self.pool) {
            self.account_tx(li, s.dir, &s.frame);
            self.sched.schedule(s.done, Event::TxDone { link: li as u32, dir: s.dir as u8 });
            return;
        }
        match self.links[li].enqueue(dir, now, w, &mut self.pool, &mut self.removed) {
            Admission::Queued => self.start_link(li, dir),
            other => self.on_not_queued(li, dir, w, other, true),
        }
    }

    /// Free and record what a queue refused or let go of at an arrival of
    /// `w` on direction `dir` of link `li` (the rare path); `start`: start
    /// the link if `w` was queued (not while it is held down).
    #[cold]
    pub(super) fn on_not_queued(&mut self, li: usize, dir: usize, w: Waiting, a: Admission, start: bool) {
        let ld = 2 * li + dir;
        if a == Admission::Refused {
            let pkt = self.pool.take(w.pkt);
            self.drop(ld, &pkt, DropCause::Queue);
            return;
        }
        for i in 0..self.removed.len() {
            let Removal { pkt, cause } = self.removed[i];
            let pkt = self.pool.take(pkt);
            self.drop(ld, &pkt, cause);
        }
        self.removed.clear();
        if a.queued() && start {
            self.start_link(li, dir);
        }
    }

    /// Count a packet's end on link direction `ld` (a loss, or an ack
    /// purged by ACK filtering) and trace it.
    pub(super) fn drop(&mut self, ld: usize, p: &Packet, cause: DropCause) {
        if cause == DropCause::Filtered {
            self.conservation.filtered += 1;
        } else {
            self.conservation.dropped += 1;
        }
        // A dropped ack is known by its cumulative ack (seed 002's Fig. 2
        // numbers its lost acks), a dropped notice by the segment it names;
        // data and datagrams by their `seq`.
        let seq = if p.kind == PacketKind::Ack { p.tcp.ack } else { p.tcp.seq };
        let ev = TraceEvent::Drop { link_dir: ld as u32, flow: p.flow, seq, is_data: p.is_data(), cause };
        self.trace.record(self.sched.now(), ev);
        if p.flow as usize >= self.flows.len() {
            // A control message between stations (`mobility`).
            self.control_lost(p);
        }
    }

    pub(super) fn on_arrival(&mut self, li: usize, dir: usize) {
        let a = self.links[li].take_arrival(self.sched.now(), self.sched.next_key(), dir, &mut self.pool);
        if let Some((at, key)) = a.next {
            self.sched.schedule_reserved(at, key, Event::Arrive { link: li as u32, dir: dir as u8 });
        }
        let (h, last) = self.hop_of(a.pkt);
        debug_assert_eq!((self.route[h].link, self.route[h].dir), (li as u32, dir as u8), "the hop it was queued on");
        if a.corrupted {
            // A frame an outage caught on its medium or propagating arrives
            // as corrupted, and is the outage's (`outages`).
            if self.pool.outage_marked(a.pkt) {
                self.arrived_lost(li, dir, a.pkt);
                return;
            }
            let pkt = self.pool.take(a.pkt);
            self.drop(2 * li + dir, &pkt, DropCause::Error);
            // The receiving host's link layer saw the corrupted frame; its
            // header still names the segment (seed 000 Sec. IV-A).
            if last && pkt.is_data() {
                self.flows[pkt.flow as usize].receiver.on_corrupted(pkt.tcp.seq);
            }
            return;
        }
        self.arrived(h, last, a.pkt);
    }

    /// The packet in pool slot `r` came intact out of hop `h` of its path
    /// (`last`: the path's last hop): it leaves the pool, the node's agents
    /// see it, then it is delivered or forwarded. Always inlined, and the
    /// packet taken here, not passed in: a packet passed by value to a call
    /// is copied (two cache lines, a memcpy per hop on the 1997 LAN bench).
    #[inline(always)]
    pub(super) fn arrived(&mut self, h: usize, last: bool, r: lasthop_core::pool::PacketRef) {
        let pkt = self.pool.take(r);
        // A path's last hop reaches the packet's destination, no earlier hop
        // does (paths are shortest paths): the node reached is read from the
        // route only where it is needed.
        debug_assert_eq!(last, self.route[h].to == pkt.dst, "a path ends at its destination");
        // Most runs have no agents and no mobile hosts: skip the agents'
        // (cold) per-node table and the search of a switched route, and keep
        // the packet out of memory on the way.
        if self.detour {
            self.arrived_at_agents(h, last, pkt);
            return;
        }
        if last {
            self.conservation.delivered += 1;
            self.deliver(pkt);
            return;
        }
        debug_assert!(!self.rerouted(), "a switched route takes the detour");
        debug_assert_eq!(self.route[h + 1].from, self.route[h].to, "a path's hops follow on");
        self.forward_on(h + 1, pkt);
    }

    /// [`World::arrived`] where agents sit on some nodes (those of the
    /// node reached see the packet first), where a mobile host's routes
    /// have switched (the next hop is looked for on the current path), or
    /// where control messages may run (delivered to the mobility state).
    #[inline(never)]
    fn arrived_at_agents(&mut self, h: usize, last: bool, mut pkt: Packet) {
        // (Here for a switched route alone: no agents' table to read.)
        let (first, end) = if self.agents.is_empty() { (0, 0) } else { self.flow_agents(self.route[h].to, pkt.flow) };
        if first < end {
            match self.run_agents(first, end, &mut pkt) {
                Verdict::Forward => {}
                Verdict::Absorb => {
                    self.conservation.absorbed += 1;
                    self.flush_agents(first, end);
                    return;
                }
                // The agent keeps it; it comes back through `flush_agents`.
                Verdict::Hold => {
                    self.flush_agents(first, end);
                    return;
                }
            }
        }
        if last {
            // Agents on the destination's node act before its endpoint: a
            // local retransmission an ack caused leaves before the sender
            // answers that ack (snoop below an uplink's sender, as ns-2's
            // LLSnoop sends it down before passing the ack up). The other
            // agents emit nothing on a packet they let through (ELN marks;
            // ACK reconstruction forwards only with nothing held), so for
            // them the order changes nothing.
            if first < end {
                self.flush_agents(first, end);
            }
            self.conservation.delivered += 1;
            if pkt.flow as usize >= self.flows.len() {
                // A control message between stations (`mobility`): runs
                // that can send one take this detour from the start.
                self.deliver_control(&pkt);
                return;
            }
            self.deliver(pkt);
            return;
        }
        if self.rerouted() {
            self.forward_rerouted(h, pkt);
        } else {
            debug_assert_eq!(self.route[h + 1].from, self.route[h].to, "a path's hops follow on");
            self.forward_on(h + 1, pkt);
        }
        if first < end {
            self.flush_agents(first, end);
        }
    }

    /// The hop of the packet in pool slot `r`, from its tag: (hop, last).
    #[inline(always)]
    pub(super) fn hop_of(&self, r: lasthop_core::pool::PacketRef) -> (usize, bool) {
        let tag = self.pool.tag(r);
        ((tag & !LAST_HOP) as usize, tag & LAST_HOP != 0)
    }
}
