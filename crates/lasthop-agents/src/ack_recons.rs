//! ACK reconstruction, AR (seed 001 Sec. 6.4; reference asymmetry-001.md
//! Sec. 1.10, ambiguities 6 and 7, statement AS-42): at the far end of a
//! constrained reverse link, where acks come out of it sparse (delayed acks,
//! ACK filtering, ACK congestion control), the reconstructor "fills gaps in
//! the ack sequence" so that an unmodified sender sees a smooth, dense ack
//! stream. Soft state only; it never acknowledges data the receiver has not
//! acknowledged.
//!
//! Rules (the paper's, the default):
//! - Two real acks a1 < a2 arrive; Delta_a = a2 - a1, in segments (the
//!   flow's MSS). With the threshold delta_a ("typically 2", following
//!   delayed acks), if Delta_a > delta_a the reconstructor sends
//!   ceil(Delta_a / delta_a) - 1 acks for a1 + delta_a, a1 + 2 delta_a, ...
//!   and then the real a2 (ambiguity 6: Delta_a = 10, delta_a = 2 gives
//!   +2, +4, +6, +8, then +10).
//! - Spacing: delta_a / delta_t = Delta_a / Delta_t, so delta_t =
//!   (delta_a / Delta_a) · Delta_t (ambiguity 7), where Delta_t is an EWMA
//!   (gain 0.25, ns-2's `alpha_` \[N\]) of the interval between real acks
//!   arriving here, duplicates included. The first reconstructed ack leaves
//!   when the real one arrives; the real ack leaves (n - 1)·delta_t later,
//!   "held back about Delta_t" (exactly Delta_t·(n-1)/n when Delta_a is a
//!   multiple of delta_a, so that trains of consecutive real acks join into
//!   one stream spaced delta_t).
//! - Pass straight through: the first ack of a flow (no interval yet);
//!   duplicates (ack equal to the latest real one, window updates alike);
//!   the first new ack after duplicates (ns-2's `dupacks_`: loss recovery is
//!   left alone); a new ack within delta_a of the last ack sent when nothing
//!   is pending. Acks below the latest real one (the network reordered them;
//!   lasthop's links never do) are forwarded when nothing is pending, else
//!   absorbed: the held real ack covers them.
//! - Never an ack beyond the real one, never out of order: a new real ack
//!   that arrives while a train is pending replaces the train. The new train
//!   runs from the last ack sent toward the new real ack, its first ack in
//!   the slot the old train had scheduled next; the older real ack, not yet
//!   sent, is discarded (the newer one acknowledges all it does: counted in
//!   `real_acks_superseded`). Delta_a is measured from the last ack sent,
//!   which is a1 when nothing is pending (the paper's case) and spreads a
//!   backlog over one Delta_t otherwise. A duplicate arriving while a train
//!   is pending ends it: the held real ack leaves at once, then the
//!   duplicate (the sender's duplicate count is unchanged).
//! - Reconstructed acks are copies of the real ack they precede with the
//!   ack field changed: same window (its right edge is then below the real
//!   one's, never beyond), no SACK blocks, no SMART echo, no ELN or
//!   fast-retransmit mark, a CE mark left to the real ack, and no timestamp
//!   option: like ns-2's `no_ts_`, they give the sender no timestamp RTT
//!   sample. The real ack keeps its own, so the sender's RTT samples include
//!   the hold ("a modest increase of the sender's RTT estimate", Sec. 6.4).
//!   They are counted (`acks_reconstructed`) and reported to the simulator
//!   as packets the agent created, apart from the real acks it releases.
//!
//! Spacing variants ([`Spacing`]), from ns-2.35 `tcp/ack-recons.cc` and
//! `tcl/lib/ns-queue.tcl` (`spacing`, `ackbw`):
//! - `Ns2Adaptive` (`adaptive_ = 1`, asym.tcl's default): delta_t =
//!   Delta_t, the reverse bottleneck's rate; ns-2 has the paper's formula
//!   commented out.
//! - `Ns2Sample` (`adaptive_ = 0`): delta_t = (now - time of the previous
//!   real ack) / (floor(Delta_a / delta_a) + 1), Delta_a in whole segments
//!   since the last ack sent (Tcl's integer division).
//!
//! Where ns-2.35 departs (besides the spacing) and lasthop follows the
//! paper or a cleaner reading:
//! - ns-2 demultiplexes by (source, destination) address pair; here one
//!   reconstructor per connection.
//! - ns-2 copies every generated ack from a template taken once, from the
//!   first ack the reconstructor ever saw (its window then); here from the
//!   real ack each train ends with.
//! - ns-2 frees the real ack and sends a generated copy of it, flagged
//!   `no_ts_` like the rest; here the real ack itself leaves last.
//! - ns-2 starts its EWMA at `ackInterArr_` = 10 ms and its first sample
//!   runs from time 0 (`lastRealTime_` = 0); here the first interval between
//!   two real acks is the estimate's first value.
//! - ns-2 schedules a newer real ack's train beside the pending one (from
//!   `max(now, time of the last ack sent)`, i.e. now) and drops whichever
//!   acks are superseded when their time comes; here one train, replaced,
//!   keeps the pending slot, so acks leave spaced and in order.
//! - ns-2 takes the first duplicate that arrives while acks are pending into
//!   the reconstruction branch and frees it (the sender never sees it);
//!   here it is forwarded, after the held real ack.

use crate::Verdict;
use lasthop_core::{Ecn, Packet, Time};
use std::collections::VecDeque;

/// How far apart reconstructed acks leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Spacing {
    /// delta_t = (delta_a / Delta_a) · Delta_t (seed 001 Sec. 6.4).
    #[default]
    Paper,
    /// delta_t = Delta_t (ns-2.35, `adaptive_ = 1`).
    Ns2Adaptive,
    /// delta_t = (now - previous real ack) / (Delta_a / delta_a + 1), in
    /// whole segments (ns-2.35, `adaptive_ = 0`).
    Ns2Sample,
}

/// A reconstructor's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AckReconsConfig {
    /// delta_a, the ack threshold and the step of reconstructed acks, in
    /// segments (seed 001: "typically 2", following delayed acks; ns-2.35
    /// asym.tcl `deltaAckThresh_` and `delack_`, 2). At least 1.
    pub delta_a_segments: u32,
    /// Gain of the EWMA of the interval between real acks, in (0, 1]
    /// (ns-2.35 asym.tcl `alpha_`, 0.25 \[N\]; the paper's is lost).
    pub gain: f64,
    pub spacing: Spacing,
    /// The flow's segment size, in bytes: acks count bytes, the rules
    /// segments.
    pub mss_bytes: u32,
}

impl AckReconsConfig {
    pub const DEFAULT_DELTA_A_SEGMENTS: u32 = 2;
    pub const DEFAULT_GAIN: f64 = 0.25;

    /// The defaults (the paper's spacing) for a flow of `mss_bytes` segments.
    pub fn new(mss_bytes: u32) -> AckReconsConfig {
        AckReconsConfig {
            delta_a_segments: Self::DEFAULT_DELTA_A_SEGMENTS,
            gain: Self::DEFAULT_GAIN,
            spacing: Spacing::Paper,
            mss_bytes,
        }
    }

    /// delta_a, in bytes.
    pub fn step_bytes(&self) -> u64 {
        u64::from(self.delta_a_segments.max(1)) * u64::from(self.mss_bytes.max(1))
    }
}

/// Counters for reports and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AckReconsStats {
    /// Acks the reconstructor made (not the real ones it released).
    pub acks_reconstructed: u64,
    /// Real acks held back behind reconstructed ones.
    pub real_acks_delayed: u64,
    /// Held real acks discarded because a newer real ack replaced their train.
    pub real_acks_superseded: u64,
    /// Older acks absorbed while acks were pending.
    pub old_acks_absorbed: u64,
}

/// What leaves the reconstructor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckOut {
    /// An ack it made (a new packet).
    Reconstructed(Packet),
    /// A real ack it held (the packet that arrived).
    Released(Packet),
}

impl AckOut {
    pub fn packet(&self) -> &Packet {
        match self {
            AckOut::Reconstructed(p) | AckOut::Released(p) => p,
        }
    }
}

/// The reconstructed acks leading to a held real ack.
#[derive(Clone, Copy, Debug)]
struct Train {
    /// The real ack that ends it.
    real: Packet,
    /// The next reconstructed ack's value (the real ack once this reaches it).
    next_ack: u64,
    /// When ack `index` 0 of the train leaves, and the spacing, in ns.
    start: Time,
    spacing_ns: f64,
    /// Acks of the train sent so far.
    index: u64,
}

impl Train {
    fn next_at(&self) -> Time {
        self.start.plus_ns((self.index as f64 * self.spacing_ns).round() as u64)
    }
}

/// The reconstructor of one connection's acks.
#[derive(Clone, Debug)]
pub struct AckRecons {
    cfg: AckReconsConfig,
    flow: u32,
    /// The latest real ack and when it arrived (none before the first).
    last_real: Option<(u64, Time)>,
    /// Delta_t, in ns (none before the second real ack).
    interval_ns: Option<f64>,
    /// The highest ack sent toward the sender or waiting in `ready`.
    last_sent: u64,
    /// A duplicate was seen: the next new ack passes straight through.
    dupacks_seen: bool,
    train: Option<Train>,
    /// Real acks that leave now, in order (the held ack and the duplicate
    /// that ended its train).
    ready: VecDeque<Packet>,
    pub stats: AckReconsStats,
}

impl AckRecons {
    pub fn new(cfg: AckReconsConfig, flow: u32) -> AckRecons {
        AckRecons {
            cfg,
            flow,
            last_real: None,
            interval_ns: None,
            last_sent: 0,
            dupacks_seen: false,
            train: None,
            ready: VecDeque::with_capacity(4),
            stats: AckReconsStats::default(),
        }
    }

    pub fn flow(&self) -> u32 {
        self.flow
    }
    pub fn config(&self) -> AckReconsConfig {
        self.cfg
    }
    /// Delta_t, the EWMA of the interval between real acks, in ns.
    pub fn interval_ns(&self) -> Option<f64> {
        self.interval_ns
    }
    /// The spacing of the pending train, in ns.
    pub fn spacing_ns(&self) -> Option<f64> {
        self.train.map(|t| t.spacing_ns)
    }
    /// Real acks the agent holds now (to be released later).
    pub fn held(&self) -> usize {
        self.ready.len() + usize::from(self.train.is_some())
    }

    /// A packet of any flow arrives at the node.
    pub fn on_packet(&mut self, now: Time, pkt: &mut Packet) -> Verdict {
        if pkt.flow != self.flow || !pkt.is_pure_ack() {
            return Verdict::Forward;
        }
        let a = pkt.tcp.ack;
        let Some((real, real_at)) = self.last_real else {
            self.last_real = Some((a, now));
            return self.pass(pkt);
        };
        if a < real {
            if self.held() == 0 {
                return Verdict::Forward;
            }
            self.stats.old_acks_absorbed += 1;
            return Verdict::Absorb;
        }
        let sample_ns = now.since(real_at) as f64;
        let g = self.cfg.gain;
        self.interval_ns = Some(self.interval_ns.map_or(sample_ns, |dt| dt + g * (sample_ns - dt)));
        self.last_real = Some((a, now));
        if a == real || self.dupacks_seen {
            // Duplicates, and the ack that ends them, are the sender's
            // loss recovery: left alone.
            self.dupacks_seen = a == real;
            return self.pass(pkt);
        }
        let step = self.cfg.step_bytes();
        let distance = a.saturating_sub(self.last_sent);
        if self.train.is_none() && distance <= step {
            return self.pass(pkt);
        }
        let interval_ns = self.interval_ns.unwrap_or(sample_ns);
        let spacing_ns = match self.cfg.spacing {
            Spacing::Paper => step as f64 / distance as f64 * interval_ns,
            Spacing::Ns2Adaptive => interval_ns,
            Spacing::Ns2Sample => {
                let segments = distance / u64::from(self.cfg.mss_bytes.max(1));
                sample_ns / (segments / u64::from(self.cfg.delta_a_segments.max(1)) + 1) as f64
            }
        };
        let start = match self.train.take() {
            Some(old) => {
                self.stats.real_acks_superseded += 1;
                old.next_at().max(now)
            }
            None => now,
        };
        self.stats.real_acks_delayed += 1;
        self.train = Some(Train { real: *pkt, next_ack: self.last_sent + step, start, spacing_ns, index: 0 });
        Verdict::Hold
    }

    /// Let `pkt` through, behind anything the agent holds.
    fn pass(&mut self, pkt: &Packet) -> Verdict {
        if let Some(t) = self.train.take() {
            self.ready.push_back(t.real);
        }
        self.last_sent = self.last_sent.max(pkt.tcp.ack);
        if self.ready.is_empty() {
            Verdict::Forward
        } else {
            self.ready.push_back(*pkt);
            Verdict::Hold
        }
    }

    /// The next ack to leave by `now`; call until `None`.
    pub fn poll_transmit(&mut self, now: Time) -> Option<AckOut> {
        if let Some(p) = self.ready.pop_front() {
            return Some(AckOut::Released(p));
        }
        let t = self.train.as_mut()?;
        if t.next_at() > now {
            return None;
        }
        if t.next_ack < t.real.tcp.ack {
            let mut p = t.real;
            p.tcp.ack = t.next_ack;
            p.tcp.sack.clear();
            p.tcp.smart_echo = None;
            p.tcp.eln = false;
            p.tcp.fr_request = false;
            p.tcp.ts = None;
            if p.ecn == Ecn::Ce {
                p.ecn = Ecn::Ect;
            }
            self.last_sent = t.next_ack;
            t.next_ack += self.cfg.step_bytes();
            t.index += 1;
            self.stats.acks_reconstructed += 1;
            return Some(AckOut::Reconstructed(p));
        }
        let real = t.real;
        self.train = None;
        self.last_sent = real.tcp.ack;
        Some(AckOut::Released(real))
    }

    /// When the next ack is due ([`Time::NEVER`]: nothing pending).
    pub fn poll_at(&self) -> Time {
        if !self.ready.is_empty() {
            Time::ZERO
        } else {
            self.train.map_or(Time::NEVER, |t| t.next_at())
        }
    }
}

#[cfg(test)]
mod tests {
    //! Timelines at the reconstructor: acks of 1000-byte segments arrive
    //! from the slow reverse link; "+k" is an ack k segments above 0.
    use super::*;
    use lasthop_core::{PacketKind, TcpHeader, Timestamps};

    const MSS: u64 = 1000;

    fn ack(segments: u64) -> Packet {
        let tcp = TcpHeader {
            ack: segments * MSS,
            wnd_bytes: 65535,
            ts: Some(Timestamps { val_ns: 7, ecr_ns: 5 }),
            ..TcpHeader::default()
        };
        Packet { uid: 0, flow: 0, kind: PacketKind::Ack, src: 2, dst: 0, size_bytes: 40, ecn: Ecn::Ect, tcp }
    }
    fn ms(t: u64) -> Time {
        Time::from_ms(t)
    }
    fn recons(spacing: Spacing) -> AckRecons {
        AckRecons::new(AckReconsConfig { spacing, ..AckReconsConfig::new(MSS as u32) }, 0)
    }
    /// Everything due by `now`: (segments acked, reconstructed?).
    fn out(r: &mut AckRecons, now: Time) -> Vec<(u64, bool)> {
        std::iter::from_fn(|| r.poll_transmit(now))
            .map(|o| match o {
                AckOut::Reconstructed(p) => (p.tcp.ack / MSS, true),
                AckOut::Released(p) => (p.tcp.ack / MSS, false),
            })
            .collect()
    }
    /// Acks +2 at t0 and +4 at t100: passed through, Delta_t = 100 ms.
    fn warmed(spacing: Spacing) -> AckRecons {
        let mut r = recons(spacing);
        assert_eq!(r.on_packet(ms(0), &mut ack(2)), Verdict::Forward);
        assert_eq!(r.on_packet(ms(100), &mut ack(4)), Verdict::Forward, "Delta_a = 2 = delta_a: straight through");
        assert_eq!(r.interval_ns(), Some(100e6));
        r
    }
    /// Drive the agent as the simulator does: wake at `poll_at` until idle;
    /// (ms, segments, reconstructed?) of everything sent.
    fn drain(r: &mut AckRecons) -> Vec<(f64, u64, bool)> {
        let mut sent = Vec::new();
        while r.poll_at() != Time::NEVER {
            let now = r.poll_at();
            for (a, rec) in out(r, now) {
                sent.push((now.ns() as f64 / 1e6, a, rec));
            }
        }
        sent
    }

    #[test]
    fn as42_ten_segments_become_five_acks_spaced_a_fifth_of_delta_t() {
        // AS-42, ambiguity 6: Delta_a = 10, delta_a = 2.
        let mut r = warmed(Spacing::Paper);
        // t200: +14 arrives, 10 segments above +4 (Delta_t stays 100 ms).
        assert_eq!(r.on_packet(ms(200), &mut ack(14)), Verdict::Hold, "the real ack is held");
        // delta_t = (2 / 10) * 100 ms = 20 ms; the first ack leaves at once.
        assert_eq!(r.spacing_ns(), Some(20e6));
        assert_eq!(out(&mut r, ms(200)), [(6, true)]);
        assert_eq!(r.poll_at(), ms(220));
        assert!(out(&mut r, ms(219)).is_empty(), "not before its time");
        let rest = drain(&mut r);
        assert_eq!(rest, [(220.0, 8, true), (240.0, 10, true), (260.0, 12, true), (280.0, 14, false)]);
        // ceil(10/2) - 1 = 4 reconstructed, the real ack last, none beyond it.
        assert_eq!(r.stats.acks_reconstructed, 4);
        assert_eq!((r.stats.real_acks_delayed, r.held()), (1, 0));
    }

    #[test]
    fn reconstructed_acks_copy_the_real_header_but_carry_no_rtt_sample() {
        let mut r = warmed(Spacing::Paper);
        let mut real = ack(9);
        real.tcp.wnd_bytes = 12345;
        real.tcp.sack.push(11 * MSS, 12 * MSS);
        real.tcp.smart_echo = Some(8 * MSS);
        real.ecn = Ecn::Ce;
        assert_eq!(r.on_packet(ms(200), &mut real), Verdict::Hold);
        // Delta_a = 5: ceil(5/2) - 1 = 2 reconstructed (+6, +8), then +9.
        let Some(AckOut::Reconstructed(g)) = r.poll_transmit(ms(200)) else { panic!("a reconstructed ack") };
        assert_eq!((g.tcp.ack, g.tcp.wnd_bytes, g.size_bytes, g.flow), (6 * MSS, 12345, 40, 0));
        assert_eq!(g.tcp.ts, None, "no timestamp: no RTT sample (ns-2 no_ts_)");
        assert!(g.tcp.sack.is_empty() && g.tcp.smart_echo.is_none());
        assert_eq!(g.ecn, Ecn::Ect, "the CE mark stays with the real ack");
        let sent = drain(&mut r);
        assert_eq!(sent.iter().map(|s| (s.1, s.2)).collect::<Vec<_>>(), [(8, true), (9, false)]);
        // Spacing (2 / 5) * 100 ms = 40 ms: +6 at 200, +8 at 240, +9 at 280.
        assert_eq!(sent.iter().map(|s| s.0).collect::<Vec<_>>(), [240.0, 280.0]);
    }

    #[test]
    fn the_real_ack_leaves_as_itself_with_its_timestamp() {
        let mut r = warmed(Spacing::Paper);
        let mut real = ack(10);
        real.uid = 77;
        r.on_packet(ms(200), &mut real);
        let last = std::iter::from_fn(|| {
            let now = r.poll_at();
            (now != Time::NEVER).then(|| r.poll_transmit(now)).flatten()
        })
        .last()
        .unwrap();
        assert_eq!(last, AckOut::Released(real), "the very packet that arrived, timestamp and all");
    }

    #[test]
    fn a_newer_real_ack_replaces_the_pending_train_in_its_slot() {
        let mut r = warmed(Spacing::Paper);
        // t200: +14: +6 leaves at once, +8 is due at 220.
        r.on_packet(ms(200), &mut ack(14));
        assert_eq!(out(&mut r, ms(200)), [(6, true)]);
        // t210: +24 arrives (Delta_t = 0.75*100 + 0.25*10 = 77.5 ms). The
        // train now runs from +6 (sent) to +24: 18 segments over Delta_t,
        // spacing (2/18) * 77.5 ms, starting in the slot +8 had (220 ms).
        assert_eq!(r.on_packet(ms(210), &mut ack(24)), Verdict::Hold);
        assert_eq!(r.stats.real_acks_superseded, 1, "+14 is never sent: +24 acknowledges all it does");
        assert_eq!(r.held(), 1);
        let dt = 2.0 / 18.0 * 77.5;
        assert!((r.spacing_ns().unwrap() / 1e6 - dt).abs() < 1e-9);
        assert!(out(&mut r, ms(210)).is_empty());
        let sent = drain(&mut r);
        let acks: Vec<u64> = sent.iter().map(|s| s.1).collect();
        assert_eq!(acks, [8, 10, 12, 14, 16, 18, 20, 22, 24], "in order, on the grid from the last ack sent");
        assert!(sent[..8].iter().all(|s| s.2) && !sent[8].2, "the real +24 last");
        for (k, s) in sent.iter().enumerate() {
            assert!((s.0 - (220.0 + k as f64 * dt)).abs() < 1e-6, "evenly spaced from 220 ms: {sent:?}");
        }
        assert_eq!(r.stats.acks_reconstructed, 1 + 8);
    }

    #[test]
    fn a_newer_real_ack_close_behind_goes_in_the_next_slot() {
        let mut r = warmed(Spacing::Paper);
        r.on_packet(ms(200), &mut ack(14));
        out(&mut r, ms(200));
        for t in [220, 240, 260] {
            out(&mut r, ms(t));
        }
        // +12 was sent at 260; +14 is due at 280. +15 arrives at 270, three
        // segments above the last ack sent: the new train is +14
        // (reconstructed) and +15, from the slot +14 had.
        assert_eq!(r.on_packet(ms(270), &mut ack(15)), Verdict::Hold);
        let sent = drain(&mut r);
        assert_eq!(sent.iter().map(|s| (s.1, s.2)).collect::<Vec<_>>(), [(14, true), (15, false)]);
        assert_eq!(sent[0].0, 280.0, "the slot the old train had scheduled");
    }

    #[test]
    fn duplicates_pass_untouched_and_end_a_pending_train() {
        let mut r = warmed(Spacing::Paper);
        // t150: a duplicate of +4 with nothing pending: straight through.
        let mut dup = ack(4);
        dup.tcp.sack.push(6 * MSS, 7 * MSS);
        let before = dup;
        assert_eq!(r.on_packet(ms(150), &mut dup), Verdict::Forward);
        assert_eq!(dup, before, "untouched");
        // t200: +10 is the first new ack after duplicates: straight through
        // (the sender's recovery is left alone), although Delta_a = 6.
        assert_eq!(r.on_packet(ms(200), &mut ack(10)), Verdict::Forward);
        assert_eq!(r.stats.real_acks_delayed, 0);
        // t300: +20: a train; +12 leaves at once.
        assert_eq!(r.on_packet(ms(300), &mut ack(20)), Verdict::Hold);
        assert_eq!(out(&mut r, ms(300)), [(12, true)]);
        // t310: a duplicate of +20 (a loss): the train ends, +20 leaves at
        // once, then the duplicate, in that order.
        let mut dup20 = ack(20);
        dup20.tcp.sack.push(21 * MSS, 22 * MSS);
        assert_eq!(r.on_packet(ms(310), &mut dup20), Verdict::Hold);
        assert_eq!(r.poll_at(), Time::ZERO, "due at once");
        assert_eq!(r.poll_transmit(ms(310)).map(|o| o.packet().tcp.sack.is_empty()), Some(true));
        assert_eq!(r.poll_transmit(ms(310)), Some(AckOut::Released(dup20)));
        assert_eq!((r.poll_transmit(ms(310)), r.poll_at(), r.held()), (None, Time::NEVER, 0));
        // More duplicates, then the new ack after them: straight through.
        assert_eq!(r.on_packet(ms(320), &mut ack(20)), Verdict::Forward);
        assert_eq!(r.on_packet(ms(400), &mut ack(30)), Verdict::Forward);
        assert_eq!(r.stats.acks_reconstructed, 1);
    }

    #[test]
    fn small_steps_pass_straight_through_and_other_flows_are_ignored() {
        let mut r = warmed(Spacing::Paper);
        assert_eq!(r.on_packet(ms(200), &mut ack(5)), Verdict::Forward);
        assert_eq!(r.on_packet(ms(300), &mut ack(7)), Verdict::Forward);
        let mut other = ack(40);
        other.flow = 3;
        assert_eq!(r.on_packet(ms(350), &mut other), Verdict::Forward);
        assert_eq!((r.poll_at(), r.stats.acks_reconstructed), (Time::NEVER, 0));
        // A data segment of the flow itself passes too.
        let mut data = ack(0);
        (data.kind, data.tcp.len, data.tcp.seq) = (PacketKind::Data, 1000, 50_000);
        assert_eq!(r.on_packet(ms(360), &mut data), Verdict::Forward);
    }

    #[test]
    fn the_first_ack_passes_whatever_its_size() {
        // No interval is known before two real acks: nothing to space by.
        let mut r = recons(Spacing::Paper);
        assert_eq!(r.on_packet(ms(0), &mut ack(30)), Verdict::Forward);
        assert_eq!(r.interval_ns(), None);
        // The second gives the first sample, and is reconstructed.
        assert_eq!(r.on_packet(ms(50), &mut ack(34)), Verdict::Hold);
        assert_eq!(r.interval_ns(), Some(50e6));
        assert_eq!(drain(&mut r), [(50.0, 32, true), (75.0, 34, false)]);
    }

    #[test]
    fn the_interval_estimate_is_an_ewma_with_gain_one_quarter() {
        let mut r = recons(Spacing::Paper);
        for (t, a) in [(0, 1), (100, 2), (300, 3), (400, 4)] {
            r.on_packet(ms(t), &mut ack(a));
        }
        // 100, then 100 + 0.25*(200 - 100) = 125, then 125 + 0.25*(100 - 125).
        assert_eq!(r.interval_ns(), Some(118.75e6));
    }

    #[test]
    fn ns2_adaptive_spaces_at_the_interval_itself() {
        let mut r = warmed(Spacing::Ns2Adaptive);
        r.on_packet(ms(200), &mut ack(10));
        // Delta_a = 6: +6, +8 reconstructed, +10 real, each Delta_t apart.
        assert_eq!(r.spacing_ns(), Some(100e6));
        assert_eq!(out(&mut r, ms(200)), [(6, true)]);
        assert_eq!(drain(&mut r), [(300.0, 8, true), (400.0, 10, false)]);
    }

    #[test]
    fn ns2_sample_divides_the_last_interval_by_the_steps() {
        let mut r = warmed(Spacing::Ns2Sample);
        // t160: +11, 7 segments in 60 ms: 60 / (7 div 2 + 1) = 15 ms.
        assert_eq!(r.on_packet(ms(160), &mut ack(11)), Verdict::Hold);
        assert_eq!(r.spacing_ns(), Some(15e6));
        out(&mut r, ms(160));
        assert_eq!(drain(&mut r), [(175.0, 8, true), (190.0, 10, true), (205.0, 11, false)]);
    }

    #[test]
    fn a_larger_threshold_takes_larger_steps() {
        let cfg = AckReconsConfig { delta_a_segments: 3, ..AckReconsConfig::new(MSS as u32) };
        let mut r = AckRecons::new(cfg, 0);
        r.on_packet(ms(0), &mut ack(0));
        r.on_packet(ms(100), &mut ack(3));
        assert_eq!(r.on_packet(ms(200), &mut ack(6)), Verdict::Forward, "Delta_a = delta_a = 3");
        assert_eq!(r.on_packet(ms(300), &mut ack(16)), Verdict::Hold);
        // ceil(10/3) - 1 = 3: +9, +12, +15, then +16; spacing 3/10 * 100 ms.
        let sent: Vec<_> = drain(&mut r).into_iter().map(|s| (s.0.round() as u64, s.1)).collect();
        assert_eq!(sent, [(300, 9), (330, 12), (360, 15), (390, 16)]);
    }

    #[test]
    fn old_acks_never_overtake_held_ones() {
        let mut r = warmed(Spacing::Paper);
        r.on_packet(ms(200), &mut ack(14));
        assert_eq!(r.on_packet(ms(205), &mut ack(12)), Verdict::Absorb, "below the held +14");
        assert_eq!(r.stats.old_acks_absorbed, 1);
        let acks: Vec<u64> = drain(&mut r).iter().map(|s| s.1).collect();
        assert_eq!(acks, [6, 8, 10, 12, 14]);
        assert_eq!(r.on_packet(ms(400), &mut ack(13)), Verdict::Forward, "nothing pending: forwarded as it came");
    }
}
