//! What the shared-medium members' tests share ([`super::radio`]'s, seed
//! 001 Sec. 5; [`super::dcf`]'s, IEEE 802.11 as seed 004 runs it; and the
//! [`super::Mac`] enum's): driving a medium as the world does, its air log
//! in short, and the conservation property both members' property tests
//! check (every frame handed to a MAC is delivered once, dropped with a
//! cause, or still held). And, for the shaped point-to-point directions'
//! tests, a plain direction, a link with frames queued, and its frames sent
//! back to back.

use super::dcf::Dcf;
use super::point_to_point::{DirParams, Duplex, Link, LinkDir};
use super::radio::Radio;
use super::{AirRecord, FrameClass, Heard, Mac, MacDropCause, MacOutput, StationId};
use crate::error::{ErrorModel, ErrorModelConfig};
use crate::queue::{QueueLimit, Waiting};
use lasthop_core::rng::RngStream;
use lasthop_core::{PacketPool, Time};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// A shared medium as its tests drive it.
pub(super) trait Medium {
    /// Offer `w` to a drop-tail station queue (which never reads the pool).
    fn offer(&mut self, now: Time, s: StationId, to: StationId, w: Waiting) -> bool;
    fn poll_at(&self) -> Time;
    fn on_timer(&mut self, now: Time, out: &mut Vec<MacOutput>);
    fn in_flight(&self) -> usize;
    fn air_log(&self) -> &[AirRecord];
}

macro_rules! medium {
    ($t:ty, $m:ident => $log:expr) => {
        impl Medium for $t {
            fn offer(&mut self, now: Time, s: StationId, to: StationId, w: Waiting) -> bool {
                let (pool, removed) = (&mut PacketPool::new(), &mut Vec::new());
                <$t>::enqueue(self, now, s, to, w, pool, removed, &mut Vec::new()).queued()
            }
            fn poll_at(&self) -> Time {
                <$t>::poll_at(self)
            }
            fn on_timer(&mut self, now: Time, out: &mut Vec<MacOutput>) {
                <$t>::on_timer(self, now, out)
            }
            fn in_flight(&self) -> usize {
                <$t>::in_flight(self)
            }
            fn air_log(&self) -> &[AirRecord] {
                let $m = self;
                $log
            }
        }
    };
}

medium!(Radio, r => r.air_log());
medium!(Dcf, d => d.air_log());
medium!(Mac, m => match m {
    Mac::Radio(r) => r.air_log(),
    Mac::Dcf(d) => d.air_log(),
    Mac::Circuit(_) => &[],
});

/// A packet of `size` bytes put in `pool` (the queue tests' data segment),
/// tagged with its uid.
pub(super) fn frame(pool: &mut PacketPool, uid: u64, size: u32) -> Waiting {
    Waiting { tag: uid as u32, ..crate::queue::tests::data(pool, 0, uid, size) }
}

/// Offer `w` to a drop-tail station queue (which never reads the pool).
pub(super) fn offer(m: &mut impl Medium, now: Time, s: StationId, to: StationId, w: Waiting) -> bool {
    m.offer(now, s, to, w)
}

/// Run the medium up to `until` (`Time::NEVER`: until it is idle), each
/// output with the time it came out.
pub(super) fn run(m: &mut impl Medium, until: Time, got: &mut Vec<(Time, MacOutput)>) {
    let mut out = Vec::new();
    loop {
        let t = m.poll_at();
        if t > until || t == Time::NEVER {
            break;
        }
        m.on_timer(t, &mut out);
        got.extend(out.drain(..).map(|o| (t, o)));
    }
}

/// One frame of the air log: (from, to, class, start, end, heard).
pub(super) type AirRow = (StationId, StationId, FrameClass, Time, Time, Heard);

/// The air log, frame by frame.
pub(super) fn air(m: &impl Medium) -> Vec<AirRow> {
    m.air_log().iter().map(|a| (a.from, a.to, a.class, a.tx_start, a.tx_end, a.heard)).collect()
}

/// Station `s`'s error model in a property test: each frame lost with
/// probability `pct` %, drawn from a stream of `seed`.
pub(super) fn lossy(seed: u64, s: StationId, pct: u32) -> ErrorModel {
    let e = ErrorModelConfig::Bernoulli { p: f64::from(pct) / 100.0 };
    ErrorModel::new(&e, || RngStream::new(seed, &format!("mac:p:{s}:error")))
}

/// One operation of a property test: after `gap` (in the test's unit),
/// station `from` queues a frame of `size` bytes for station `(from +
/// to_offset) % n`.
#[derive(Clone, Debug)]
pub(super) struct Op {
    pub(super) gap: u64,
    pub(super) from: u16,
    pub(super) to_offset: u16,
    pub(super) size: u32,
}

/// Operations among four stations, gaps and sizes drawn from the ranges.
pub(super) fn op(gap: Range<u64>, size: Range<u32>) -> impl Strategy<Value = Op> {
    (gap, 0u16..4, 1u16..4, size).prop_map(|(gap, from, to_offset, size)| Op { gap, from, to_offset, size })
}

/// What a property test saw of a medium's outputs: the conservation
/// invariant's terms, each frame handed up once, and frames of one pair
/// handed up in order (if `in_order`).
#[derive(Default)]
pub(super) struct Ledger {
    pub(super) handed: usize,
    pub(super) refused: usize,
    pub(super) dropped: usize,
    pub(super) delivered: usize,
    seen: HashSet<u32>,
    last_by_pair: HashMap<(StationId, StationId), u32>,
}

impl Ledger {
    /// Check and count `out`'s outputs (draining it); `retry` checks a
    /// `Retry`'s attempt.
    fn take(&mut self, out: &mut Vec<MacOutput>, in_order: bool, retry: &impl Fn(u32)) {
        for o in out.drain(..) {
            match o {
                MacOutput::Deliver { station, from, frame } => {
                    self.delivered += 1;
                    assert!(self.seen.insert(frame.tag), "frame {} delivered twice", frame.tag);
                    let last = self.last_by_pair.insert((from, station), frame.tag);
                    if let (Some(l), true) = (last, in_order) {
                        assert!(l < frame.tag, "pair {from}->{station} out of order");
                    }
                }
                MacOutput::Drop { cause, .. } => {
                    assert_eq!(cause, MacDropCause::RetryLimit);
                    self.dropped += 1;
                }
                MacOutput::Retry { attempt, .. } => retry(attempt),
                MacOutput::Transmit { .. } => {}
            }
        }
    }

    /// Every frame handed over is delivered, refused, dropped or held.
    fn balanced(&self, m: &impl Medium) -> bool {
        self.handed == self.delivered + self.refused + self.dropped + m.in_flight()
    }
}

/// Drive `m` (of `n` stations) through `ops` (gaps in units of `unit_ns`),
/// then until it is idle or `horizon` after the last, checking the
/// conservation invariant after every step and that time never moves back.
pub(super) fn drive(
    m: &mut impl Medium,
    n: u16,
    ops: &[Op],
    unit_ns: u64,
    horizon_ns: u64,
    in_order: bool,
    retry: impl Fn(u32),
) -> Result<Ledger, TestCaseError> {
    let (mut l, mut out, mut pool) = (Ledger::default(), Vec::new(), PacketPool::new());
    let (mut now, mut last_t) = (Time::ZERO, Time::ZERO);
    let mut step = |m: &mut _, l: &mut Ledger, last_t: &mut Time| -> Result<(), TestCaseError> {
        let t = Medium::poll_at(m);
        prop_assert!(t >= *last_t, "time never moves back");
        *last_t = t;
        Medium::on_timer(m, t, &mut out);
        l.take(&mut out, in_order, &retry);
        Ok(())
    };
    for (uid, o) in ops.iter().enumerate() {
        let until = now.plus_ns(o.gap * unit_ns);
        while m.poll_at() <= until {
            step(m, &mut l, &mut last_t)?;
        }
        now = until;
        let (from, to) = (o.from, (o.from + o.to_offset) % n);
        l.handed += 1;
        if !offer(m, now, from, to, frame(&mut pool, uid as u64, o.size)) {
            l.refused += 1;
        }
        prop_assert!(l.balanced(m));
    }
    let horizon = now.plus_ns(horizon_ns);
    while m.poll_at() != Time::NEVER && m.poll_at() <= horizon {
        step(m, &mut l, &mut last_t)?;
        prop_assert!(l.balanced(m));
    }
    Ok(l)
}

/// A point-to-point direction of `bandwidth_bps` and `delay_ns` with a
/// 50-packet queue and nothing else (the shaped directions' tests:
/// [`crate::emulation`]'s, [`crate::rate_trace`]'s).
pub(crate) fn plain_dir(bandwidth_bps: u64, delay_ns: u64) -> DirParams {
    DirParams {
        bandwidth_bps,
        delay_ns,
        frame_overhead_bytes: 0,
        frame_overhead_ns: 0,
        queue: QueueLimit { packets: Some(50), bytes: None },
        jitter_mean_ns: 0,
    }
}

/// A full-duplex link of direction `ab` and a plain direction `p` back,
/// with data segments of `sizes` bytes (the queue tests', uids 0, 1, ...)
/// queued on `ab` at t = 0.
pub(crate) fn queued_link(ab: LinkDir, p: DirParams, sizes: &[u32]) -> (Link, PacketPool) {
    let mut link = Link::new(Duplex::Full, ab, LinkDir::new(p, ErrorModel::none()));
    let mut pool = PacketPool::new();
    for (uid, &size) in sizes.iter().enumerate() {
        let w = crate::queue::tests::data(&mut pool, 0, uid as u64, size);
        assert!(link.enqueue(0, Time::ZERO, w, &mut pool, &mut Vec::new()).queued());
    }
    (link, pool)
}

/// The first `n` frames queued on direction 0 sent back to back from t = 0
/// (frame k's arrival under event key k): each (end of transmission,
/// arrival), in ns.
pub(crate) fn send_back_to_back(link: &mut Link, pool: &mut PacketPool, n: u64) -> Vec<(u64, u64)> {
    let mut now = Time::ZERO;
    let mut times = Vec::new();
    for key in 0..n {
        let s = link.start_transmission(now, pool, &mut Vec::new()).expect("a frame waits");
        now = s.done;
        times.push((now.ns(), link.finish_transmission(now, 0, key, pool).0.ns()));
    }
    times
}
