//! The shared media: frames handed to a MAC, what its stations did (frames
//! on the air, handed up, given up, retried), its wake-ups, and the LL-ELSN
//! notices (seed 004 Sec. 3.1) its link layer raises.

use super::{World, NO_COVER};
use lasthop_core::trace::DropCause;
use lasthop_core::{Ecn, LlNotice, PacketKind, TcpHeader, Time};
use lasthop_net::mac::{MacDropCause, MacOutput};
use lasthop_net::queue::{Admission, Removal, Waiting};

impl<'m> World<'m> {
    /// Hand `w` (in the pool) to the MAC of the medium that carries
    /// direction `dir` of link `li`, at the sending radio's queue.
    #[inline(never)]
    pub(super) fn mac_enqueue(&mut self, li: usize, dir: usize, w: Waiting) {
        let hop = self.model.links[li].dirs[dir].medium.expect("a hop on a medium");
        let m = hop.medium as usize;
        let now = self.sched.now();
        let mut out = self.mac_bufs.pop().unwrap_or_default();
        let a = self.macs[m].mac.enqueue(now, hop.from, hop.to, w, &mut self.pool, &mut self.removed, &mut out);
        if a == Admission::Refused {
            self.links[li].dirs[dir].count_mac_removal(DropCause::Queue);
            let pkt = self.pool.take(w.pkt);
            self.drop(2 * li + dir, &pkt, DropCause::Queue);
        }
        // A radio's queue holds frames for several next hops: each removal
        // is counted on its own hop's direction.
        for i in 0..self.removed.len() {
            let Removal { pkt, cause } = self.removed[i];
            let (h, _) = self.hop_of(pkt);
            let (rl, rd) = (self.route[h].link as usize, self.route[h].dir as usize);
            self.links[rl].dirs[rd].count_mac_removal(cause);
            let pkt = self.pool.take(pkt);
            self.drop(2 * rl + rd, &pkt, cause);
        }
        self.removed.clear();
        self.mac_outputs(m, out);
    }

    /// What medium `m` did: frames on the air (counted on their hop's
    /// direction, goodput), frames handed up (on to their next hop or
    /// delivered), frames given up; then its wake-up re-armed.
    pub(super) fn mac_outputs(&mut self, m: usize, mut out: Vec<MacOutput>) {
        for o in out.drain(..) {
            match o {
                MacOutput::Transmit { station, to, frame, held, .. } => {
                    let slot = &self.macs[m];
                    let ld = slot.hop_dir[usize::from(station) * slot.stations + usize::from(to)] as usize;
                    let (li, dir) = (ld / 2, ld % 2);
                    let medium = &self.model.media[m];
                    let airtime = match &medium.dcf {
                        Some(dcf) => dcf.data_ns(frame.size_bytes),
                        None if medium.circuit.is_some() => circuit_airtime(medium, frame.size_bytes),
                        None => {
                            let radio = &medium.radio;
                            radio.tx_ns(frame.size_bytes + radio.mac_header_bytes)
                        }
                    };
                    self.links[li].dirs[dir].count_mac_transmit(frame.size_bytes, airtime);
                    if held {
                        self.account_tx(li, dir, &frame);
                    } else if frame.tag != NO_COVER {
                        // A link retransmission of a frame already handed
                        // up: its packet is gone; its bytes count as sent.
                        self.cover[frame.tag as usize].payload += u64::from(frame.len);
                    }
                }
                MacOutput::Deliver { frame, .. } => {
                    let (h, last) = self.hop_of(frame.pkt);
                    self.arrived(h, last, frame.pkt);
                }
                MacOutput::Drop { station, frame, cause } => {
                    let (h, _) = self.hop_of(frame.pkt);
                    let (li, dir) = (self.route[h].link as usize, self.route[h].dir as usize);
                    let pkt = self.pool.take(frame.pkt);
                    let cause = match cause {
                        MacDropCause::Queue => {
                            self.links[li].dirs[dir].count_mac_removal(DropCause::Queue);
                            DropCause::Queue
                        }
                        MacDropCause::RetryLimit => {
                            if self.model.media[m].ll_elsn {
                                self.ll_notice(m, station, &frame, LlNotice::Eln);
                            }
                            self.mac_retry_drops += 1;
                            DropCause::RetryLimit
                        }
                    };
                    self.drop(2 * li + dir, &pkt, cause);
                }
                // The first link retransmission of a frame, from the MAC's
                // own retry state: whether the peer already handed it up
                // (only its MAC ack lost) is the peer's to know, not this
                // station's (seed 004 Sec. 3.1: "When the wireless link
                // layer of BS fails in the first transmission attempt of
                // the packet 1 (Layer-2 ACK timeout) ... BS sends the
                // [ERSN]"). The frame's own fields name the segment: its
                // packet may be gone.
                MacOutput::Retry { station, frame, attempt, .. } => {
                    if attempt == 2 && self.model.media[m].ll_elsn {
                        self.ll_notice(m, station, &frame, LlNotice::Ersn);
                    }
                    // EBSN (seed 002 Sec. 5.2): one per failed attempt.
                    if self.model.media[m].ebsn {
                        self.ll_notice(m, station, &frame, LlNotice::Ebsn);
                    }
                }
            }
        }
        // The buffer is kept: a delivery forwarded onto the next radio hop
        // takes another while this one is in use, so there is a small stack.
        self.mac_bufs.push(out);
        let want = self.macs[m].mac.poll_at();
        if want < self.macs[m].armed {
            let now = self.sched.now();
            let at = want.max(now);
            self.macs[m].armed = at;
            self.sched.set_timer(self.timer_keys().medium(m).raw(), at);
        }
    }

    /// Medium `m`'s wake-up: its internal events due now, then what they
    /// did. Out of line: a shared medium's state machines kept out of the
    /// event loop leave the wired path's code as it was.
    #[inline(never)]
    pub(super) fn mac_wake(&mut self, m: usize) {
        let now = self.sched.now();
        self.macs[m].armed = Time::NEVER;
        let mut out = self.mac_bufs.pop().unwrap_or_default();
        self.macs[m].mac.on_timer(now, &mut out);
        self.mac_outputs(m, out);
    }

    /// LL-ELSN (seed 004 Sec. 3.1): station `station` of medium `m` tells
    /// the sender of the TCP segment in `frame` that its link layer retries
    /// it (ERSN) or discarded it (ELN). At the sender's own node (uplink)
    /// the link layer calls its TCP directly; elsewhere (the access point)
    /// it sends an ack-format packet, from the receiver to the sender, whose
    /// `ack` is the segment's first byte. Only data with payload raises
    /// one (a frame with a goodput slot: pure acks, SYNs and datagrams
    /// have none); the access point keeps no per-connection state. What it
    /// reads is the frame's own record (the header the access point read
    /// when the packet came in: its tag, first byte and length), never the
    /// packet, which the MAC no longer holds once the peer handed it up.
    ///
    /// The notice's `seq`, which an ack leaves unused in the model (the
    /// receiver sends no data; pcap writes its ISN + 1 whatever the field
    /// holds), carries the time it was raised, in ns, so that the sender's
    /// side measures the ELN delay without a field more in every packet.
    #[cold]
    fn ll_notice(&mut self, m: usize, station: u16, frame: &Waiting, kind: LlNotice) {
        if frame.tag == NO_COVER || frame.len == 0 {
            return;
        }
        let node = self.model.media[m].stations[usize::from(station)];
        let fi = self.cover_flow[frame.tag as usize] as usize;
        let now = self.sched.now();
        if node == self.flows[fi].from {
            self.notices[fi].on_sent(kind, 0);
            self.notice_reached_sender(fi, kind, frame.seq, 0);
            return;
        }
        let tcp = TcpHeader { seq: now.ns(), ack: frame.seq, ll_notice: kind, ..TcpHeader::default() };
        let mut notice = self.new_packet(fi, PacketKind::Ack, tcp);
        notice.ecn = Ecn::NotEct;
        self.notices[fi].on_sent(kind, notice.size_bytes);
        self.forward(node, notice);
    }

    /// Connection `fi`'s sender learns that the link layer retries (ERSN)
    /// or discarded (ELN) its segment starting at `seq` (or, an EBSN, that
    /// the base station's local recovery of it failed once more), `delay_ns` after
    /// the link layer raised it (0 uplink: a direct call).
    #[cold]
    pub(super) fn notice_reached_sender(&mut self, fi: usize, kind: LlNotice, seq: u64, delay_ns: u64) {
        let now = self.sched.now();
        let sender = &mut self.flows[fi].sender;
        if kind == LlNotice::Ebsn {
            // A base station's EBSN (seed 002 Sec. 5.2; `lasthop_agents::bad_state`).
            sender.restart_rto(now);
        } else if kind == LlNotice::Ersn {
            sender.on_ersn(now, seq, &mut self.trace);
        } else {
            sender.on_link_eln(now, seq, &mut self.trace);
            self.notices[fi].on_eln_arrived(delay_ns);
        }
        self.flush_sender(fi);
    }
}

/// An RLP circuit's time for a packet of `bytes`: its frames' slots (the
/// first transmission of each; link retransmissions are the circuit's
/// stats). Out of line: the other media's Transmit path stays as it was.
#[cold]
#[inline(never)]
fn circuit_airtime(medium: &crate::scenario::model::MediumModel, bytes: u32) -> u64 {
    let c = medium.circuit.as_ref().expect("a circuit");
    u64::from(c.frames_for(bytes)) * c.slot_ns()
}
