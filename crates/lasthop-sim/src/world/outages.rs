//! Scheduled link outages in a run (seed 002 Sec. 4 and Fig. 2;
//! elaarag-002.md Secs. 2.2-2.3): both directions of a link go down and
//! come up at the model's times; and scheduled changes of a link
//! direction's rate or error model, which take effect for the frames that
//! start after (a changed error model is built when the world is wired,
//! its stream made then, and swapped in at its time). The changes wait in a list in time order,
//! behind one timer key (the schedule's), armed for the next: the event
//! queue holds one entry for them, and the per-event dispatch knows no
//! kind of event for them (a sixth kind cost the 1997 LAN bench 1.1 % of
//! its instructions). Freeze-TCP's receivers are told of the outages on
//! their flows' paths through the same list.
//!
//! What a link going down does, by its semantics:
//! - `flush` (ns-2's `rtmodel-at ... down`, which resets the link's queue
//!   and drops what its delay line holds): the queue's packets are lost
//!   at once; the frame on the medium and the frames propagating are
//!   marked lost, and dropped when they would have arrived; a packet
//!   offered while down is lost.
//! - `hold`: the frame on the medium and those propagating are lost as
//!   above; packets offered while down are queued (the queue's limit
//!   applies) and the transmitter waits for the link to come up.
//! - `blackhole`: nothing is lost at the start; the queue drains as
//!   usual, and every frame whose transmission starts while down is lost
//!   when it would have arrived.
//!
//! Departure from ns-2: a frame on the medium or propagating at the
//! outage's start is counted lost (cause `outage`) when it would have
//! arrived, not at the instant the link went down: the same packets are
//! lost, and their drops are traced later. Every loss here has the cause
//! `outage`, and each link direction counts them for its summary.
//!
//! The per-event paths pay for none of this: the link keeps the states
//! (a held direction never reads as having a frame waiting; a blackhole
//! is a bit its start's slower path reads, as it reads the error model's),
//! a frame caught by an outage arrives as a corrupted one does, with its
//! pool slot marked as the outage's, and a packet offered to a link tests
//! one word of the world (`World::dirs_down`) before looking further.

use super::mobility::Handoff;
use super::World;
use crate::scenario::model::{frho_end, outages_on, split_legs, Model};
use crate::scenario::schema::LinkDownSpec;
use lasthop_core::pool::PacketRef;
use lasthop_core::rng::RngStream;
use lasthop_core::trace::DropCause;
use lasthop_core::{Packet, Time};
use lasthop_net::error::ErrorModel;
use lasthop_net::mac::Outage;
use lasthop_net::queue::{Admission, Removal};

/// What a change of the schedule does.
#[derive(Clone, Copy, Debug)]
enum What {
    /// A link comes up.
    Up(u32),
    /// Mobility entry `m`'s handoff to station `s` is complete
    /// (`mobility`): routes switch, and the mobile host's TCP is told.
    Handoff(u32, u32),
    /// Freeze-TCP: connection `c`'s receiver is told the outage is over.
    Thaw(u32),
    /// Fast-retransmit handoff: connection `c`'s receiver (`true`) or
    /// sender, next to a link with outages, is told the link is back.
    Reconnect(u32, bool),
    /// Freeze-TCP: connection `c`'s receiver is told of an outage to come.
    Freeze(u32),
    /// Mobility entry `m`'s handoff `k` begins (its old link goes down next).
    HandoffStart(u32, u32),
    /// A link goes down, with its semantics.
    Down(u32, LinkDownSpec),
    /// M-TCP: split flow `c`'s supervisor host learns that its mobile host
    /// is disconnected (its wireless leg's link went down).
    MtcpDown(u32),
    /// M-TCP: split flow `c`'s mobile host is back.
    MtcpUp(u32),
    /// Link direction `ld` (2 x link + direction) takes a new rate, in b/s.
    Rate(u32, u64),
    /// Error-model change `k` (of the model's `error_changes`) is made.
    Error(u32),
    /// I-TCP: control stream `id` (a state transfer between stations,
    /// `mobility`) sends its next message (scheduled as it goes).
    Control(u32),
    /// Mobility entry `m`'s mobile host is attached to the new station of
    /// its handoff `k`, which sends its registration (`registration =
    /// "message"`; the handoff completes when the reply arrives).
    Register(u32, u32),
}

impl What {
    /// The order of changes at one instant: links come up first, so that
    /// the acks a thaw sends can cross them; a freeze warned with no lead
    /// goes before the link it is about goes down.
    fn rank(self) -> u8 {
        match self {
            What::Up(_) | What::Rate(..) | What::Error(_) => 0,
            What::Handoff(..) => 1,
            What::Thaw(_) | What::Reconnect(..) | What::MtcpUp(_) | What::Control(_) | What::Register(..) => 2,
            What::Freeze(_) | What::MtcpDown(_) => 3,
            What::HandoffStart(..) => 4,
            What::Down(..) => 5,
        }
    }
}

/// One change of the schedule, at `at`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Change {
    at: Time,
    what: What,
}

/// The run's outages: the changes to come and each direction's state.
#[derive(Debug)]
pub(super) struct Outages {
    /// Per link direction (2·link + dir): how it is down now (`None`: up).
    state: Vec<Option<LinkDownSpec>>,
    /// Packets lost to outages, per link direction.
    drops: Vec<u64>,
    /// Per link: whether the scenario gives it outages (its summary then
    /// reports their drops).
    scheduled: Vec<bool>,
    /// In time order (see [`What::rank`] at one instant).
    changes: Vec<Change>,
    /// The next change to make.
    next: usize,
    /// The error models the schedule swaps in, by `error_changes` index
    /// (each taken when its change is made).
    errors: Vec<Option<ErrorModel>>,
}

impl Outages {
    /// The model's outages, `None` when it has none: the links' changes,
    /// and for each flow with Freeze-TCP its receiver's warnings (each
    /// outage on its path, `warning` ahead) and thaws.
    pub fn of(model: &Model, handoffs: &[Vec<Handoff>], seed: u64) -> Option<Box<Outages>> {
        if !model.has_schedule() {
            return None;
        }
        let n = model.links.len();
        let mut changes = Vec::new();
        let mut scheduled = vec![false; n];
        for o in &model.outages {
            scheduled[o.link as usize] = true;
            for &(down, up) in &o.windows {
                changes.push(Change { at: down, what: What::Down(o.link, o.semantics) });
                changes.push(Change { at: up, what: What::Up(o.link) });
            }
        }
        for r in &model.rate_changes {
            changes.push(Change { at: r.at, what: What::Rate(r.link_dir, r.bandwidth_bps) });
        }
        let mut errors = Vec::with_capacity(model.error_changes.len());
        for (k, e) in model.error_changes.iter().enumerate() {
            changes.push(Change { at: e.at, what: What::Error(k as u32) });
            let (li, d) = (e.link_dir as usize / 2, e.link_dir as usize % 2);
            let name = format!("link:{}:{}:error:change:{}", model.links[li].name, model.dir_name(li, d), e.entry);
            errors.push(Some(ErrorModel::new(&e.error, || RngStream::new(seed, &name))));
        }
        // A mobile host's station links: down but the first from the start;
        // each handoff takes the old one down and, once complete, brings
        // the new one up (`mobility`).
        for (mi, (m, hs)) in model.mobility.iter().zip(handoffs).enumerate() {
            for (k, st) in m.stations.iter().enumerate() {
                scheduled[st.link as usize] = true;
                if k != m.initial {
                    changes.push(Change { at: Time::ZERO, what: What::Down(st.link, m.semantics) });
                }
            }
            for (k, h) in hs.iter().enumerate() {
                // (Counted when the old link goes down: at the start, or
                // after the make-before-break overlap.)
                changes.push(Change { at: h.down, what: What::HandoffStart(mi as u32, k as u32) });
                changes.push(Change { at: h.down, what: What::Down(m.stations[h.from].link, m.semantics) });
                if m.register_paths.is_empty() {
                    changes.push(Change { at: h.complete, what: What::Up(m.stations[h.to].link) });
                    changes.push(Change { at: h.complete, what: What::Handoff(mi as u32, h.to as u32) });
                } else {
                    // Attached then; complete when the reply arrives.
                    changes.push(Change { at: h.complete, what: What::Register(mi as u32, k as u32) });
                }
            }
        }
        // A mobile host's handoffs, by connection: its disconnections.
        let handoffs_of = |fi: usize| {
            let mi = model.mobility.iter().position(|m| m.conns.iter().any(|(c, _)| *c as usize == fi));
            mi.map_or(&[][..], |mi| &handoffs[mi][..])
        };
        // Connection `c`'s disconnections, in time order: the outages on its
        // path and its mobile host's handoffs.
        let disconnections = |c: usize| {
            let mut windows = outages_on(c, &model.paths, &model.outages);
            windows.extend(handoffs_of(c).iter().map(|h| (h.start, h.complete)));
            windows.sort_unstable();
            windows
        };
        for (fi, f) in model.flows.iter().enumerate() {
            let c = fi as u32;
            // Fast-retransmit handoff on a reconnection (a handoff's
            // completion is the mobility's own change).
            if f.frho && handoffs_of(fi).is_empty() {
                for o in &model.outages {
                    let Some(receiver) = frho_end(f, &model.paths[fi], o, &model.links) else { continue };
                    for &(_, up) in &o.windows {
                        changes.push(Change { at: up, what: What::Reconnect(c, receiver) });
                    }
                }
            }
            // A split flow's receiving host is its wireless leg's: not here.
            let Some(warning) = f.freeze_warning.filter(|_| f.split.is_none()) else { continue };
            for (down, up) in disconnections(fi) {
                changes.push(Change { at: Time(down.ns().saturating_sub(warning.ns())), what: What::Freeze(c) });
                changes.push(Change { at: up, what: What::Thaw(c) });
            }
        }
        // M-TCP's supervisor host is told of each disconnection of a split
        // flow's wireless leg as its link goes down, and of its end.
        for (fi, leg) in split_legs(&model.flows) {
            if !model.flows[fi].split.is_some_and(|s| s.mtcp) {
                continue;
            }
            for (down, up) in disconnections(leg) {
                changes.push(Change { at: down, what: What::MtcpDown(fi as u32) });
                changes.push(Change { at: up, what: What::MtcpUp(fi as u32) });
            }
        }
        // Stable: simultaneous changes of one rank keep the file's order.
        changes.sort_by_key(|c| (c.at, c.what.rank()));
        Some(Box::new(Outages { state: vec![None; 2 * n], drops: vec![0; 2 * n], scheduled, changes, next: 0, errors }))
    }
}

impl<'m> World<'m> {
    /// How direction `dir` of link `li` is down now, if it is.
    #[cold]
    #[inline(never)]
    pub(super) fn down_mode(&self, li: usize, dir: usize) -> Option<LinkDownSpec> {
        self.outages.as_deref().and_then(|o| o.state[2 * li + dir])
    }

    /// Packets lost to outages on link direction `ld`, when its link has
    /// outages.
    pub(super) fn outage_drops(&self, ld: usize) -> Option<u64> {
        let o = self.outages.as_deref()?;
        o.scheduled[ld / 2].then(|| o.drops[ld])
    }

    /// All packets lost to outages.
    pub(super) fn outage_drops_total(&self) -> u64 {
        self.outages.as_deref().map_or(0, |o| o.drops.iter().sum())
    }

    /// Record packet `p` lost to an outage on link direction `ld`.
    fn drop_outage(&mut self, ld: usize, p: &Packet) {
        self.drop(ld, p, DropCause::Outage);
        if let Some(o) = self.outages.as_deref_mut() {
            o.drops[ld] += 1;
        }
        if let Some(m) = self.mobility.as_deref_mut() {
            m.count_lost(ld / 2);
        }
    }

    /// I-TCP: control stream `id` sends its next message at `at`, a change
    /// the schedule makes in its place among the others (after those of
    /// its instant and rank already there).
    pub(super) fn schedule_control(&mut self, at: Time, id: usize) {
        let o = self.outages.as_deref_mut().expect("mobility has a schedule");
        let what = What::Control(id as u32);
        let key = (at, what.rank());
        let i = o.next + o.changes[o.next..].partition_point(|c| (c.at, c.what.rank()) <= key);
        o.changes.insert(i, Change { at, what });
        self.arm_schedule();
    }

    /// Arm the schedule's timer for its next change, if any.
    pub(super) fn arm_schedule(&mut self) {
        let Some(o) = self.outages.as_deref() else { return };
        if let Some(c) = o.changes.get(o.next) {
            let key = self.timer_keys().schedule();
            self.sched.set_timer(key.raw(), c.at);
        }
    }

    /// The schedule's timer fired: every change due is made, in order, and
    /// the timer armed for the next. Out of line: a run's event loop
    /// carries none of it.
    #[cold]
    #[inline(never)]
    pub(super) fn on_schedule(&mut self) {
        let now = self.sched.now();
        loop {
            let o = self.outages.as_deref_mut().expect("a schedule");
            match o.changes.get(o.next) {
                Some(c) if c.at <= now => {
                    let what = c.what;
                    o.next += 1;
                    match what {
                        What::Up(link) => self.on_link_change(link, None),
                        What::Rate(ld, bps) => {
                            let (li, dir) = (ld as usize / 2, ld as usize % 2);
                            self.links[li].dirs[dir].set_bandwidth(bps);
                        }
                        What::Error(k) => {
                            let ld = self.model.error_changes[k as usize].link_dir as usize;
                            let o = self.outages.as_deref_mut().expect("a schedule");
                            let error = o.errors[k as usize].take().expect("each change made once");
                            self.links[ld / 2].dirs[ld % 2].set_error_model(error);
                        }
                        What::Handoff(m, to) => self.on_handoff_complete(m as usize, to as usize),
                        What::HandoffStart(m, k) => self.on_handoff_start(m as usize, k as usize),
                        What::Down(link, mode) => self.on_link_change(link, Some(mode)),
                        What::Freeze(c) => {
                            self.flows[c as usize].receiver.freeze_window();
                            self.flush_receiver(c as usize);
                        }
                        What::Reconnect(c, receiver) => self.fast_retransmit_handoff(c as usize, receiver),
                        What::Thaw(c) => {
                            self.flows[c as usize].receiver.unfreeze_window();
                            self.flush_receiver(c as usize);
                        }
                        What::MtcpDown(c) => self.mtcp_disconnect(c as usize),
                        What::MtcpUp(c) => self.mtcp_reconnect(c as usize),
                        What::Control(id) => self.control_send(id as usize),
                        What::Register(m, k) => self.register(m as usize, k as usize),
                    }
                }
                _ => break,
            }
        }
        self.arm_schedule();
    }

    /// Link `link` goes down (`down`: with its semantics) or comes up.
    pub(super) fn on_link_change(&mut self, link: u32, down: Option<LinkDownSpec>) {
        let now = self.sched.now();
        let li = link as usize;
        for dir in 0..2 {
            let ld = 2 * li + dir;
            let o = self.outages.as_deref_mut().expect("a schedule");
            let was = std::mem::replace(&mut o.state[ld], down);
            let carried = self.model.links[li].dirs[dir].medium.is_some();
            match (was, down) {
                (None, Some(mode)) if carried => {
                    self.dirs_down += 1;
                    self.circuit_outage(li, dir, Some(mode));
                }
                (Some(_), None) if carried => {
                    self.dirs_down -= 1;
                    self.circuit_outage(li, dir, None);
                }
                (None, Some(mode)) => {
                    self.dirs_down += 1;
                    match mode {
                        LinkDownSpec::Flush => {
                            self.links[li].flush_queue(now, dir, &mut self.pool, &mut self.removed);
                            for i in 0..self.removed.len() {
                                let Removal { pkt, cause } = self.removed[i];
                                let pkt = self.pool.take(pkt);
                                if cause == DropCause::Outage {
                                    self.drop_outage(ld, &pkt);
                                } else {
                                    self.drop(ld, &pkt, cause);
                                }
                            }
                            self.removed.clear();
                            self.links[li].mark_in_flight_lost(dir, &mut self.pool);
                        }
                        LinkDownSpec::Hold => {
                            self.links[li].mark_in_flight_lost(dir, &mut self.pool);
                            self.links[li].hold(dir);
                        }
                        LinkDownSpec::Blackhole => self.links[li].set_blackhole(dir, true),
                    }
                }
                (Some(mode), None) => {
                    self.dirs_down -= 1;
                    match mode {
                        LinkDownSpec::Flush => {}
                        LinkDownSpec::Hold => {
                            self.links[li].release(dir);
                            self.start_link(li, dir);
                        }
                        LinkDownSpec::Blackhole => self.links[li].set_blackhole(dir, false),
                    }
                }
                // A station's link whose registration a later handoff
                // overtook (`registration = "message"`): it never came up.
                _ if self.mobility.as_deref().is_some_and(|m| m.registers_by_message(li)) => {}
                _ => unreachable!("a link's outages alternate down and up (the model checks they never overlap)"),
            }
        }
        if !self.wap_sessions.is_empty() {
            self.wap_link_change(li, down.is_some());
        }
    }

    /// Direction `dir` of link `li`, carried by a circuit, goes down with
    /// `mode` or comes up (`None`): the circuit's station cuts its channel
    /// (`lasthop_net::mac::circuit`'s outages), a flush's queued packets
    /// are lost here, and the medium's wake-up is re-armed.
    fn circuit_outage(&mut self, li: usize, dir: usize, mode: Option<LinkDownSpec>) {
        let hop = self.model.links[li].dirs[dir].medium.expect("a medium's hop");
        let m = hop.medium as usize;
        let now = self.sched.now();
        let outage = mode.map(|mode| match mode {
            LinkDownSpec::Flush => Outage::Flush,
            LinkDownSpec::Hold => Outage::Hold,
            LinkDownSpec::Blackhole => Outage::Blackhole,
        });
        self.macs[m].mac.set_outage(now, hop.from, outage, &mut self.removed);
        for i in 0..self.removed.len() {
            let pkt = self.pool.take(self.removed[i].pkt);
            self.drop_outage(2 * li + dir, &pkt);
        }
        self.removed.clear();
        let out = self.mac_bufs.pop().unwrap_or_default();
        self.mac_outputs(m, out);
    }

    /// A frame marked lost to an outage (`r`) reaches the end of link
    /// `li`'s direction `dir`: dropped as the outage's.
    #[cold]
    #[inline(never)]
    pub(super) fn arrived_lost(&mut self, li: usize, dir: usize, r: PacketRef) {
        let pkt = self.pool.take(r);
        self.drop_outage(2 * li + dir, &pkt);
    }

    /// Hop `h`'s link direction is down (`flush` or `hold`) as `pkt` is
    /// offered to it: flushed, the packet is lost; held, it is queued and
    /// the transmitter left waiting.
    #[cold]
    #[inline(never)]
    pub(super) fn forward_while_down(&mut self, h: usize, mode: LinkDownSpec, pkt: Packet) {
        let hop = self.route[h];
        let (li, dir) = (hop.link as usize, hop.dir as usize);
        if mode == LinkDownSpec::Flush {
            self.drop_outage(2 * li + dir, &pkt);
            return;
        }
        let w = self.waiting(h, pkt);
        if hop.mac {
            // A circuit held down queues it and sends nothing.
            self.mac_enqueue(li, dir, w);
            return;
        }
        let now = self.sched.now();
        match self.links[li].enqueue(dir, now, w, &mut self.pool, &mut self.removed) {
            Admission::Queued => {}
            other => self.on_not_queued(li, dir, w, other, false),
        }
        self.links[li].hold(dir);
    }
}
