//! The disciplines as timelines: what waits, what leaves, what is marked,
//! dropped or purged, at each step (statements AS-39 and AS-43 of
//! shared/reference/asymmetry-001.md among them).

use super::*;
use crate::error::ErrorModel;
use crate::mac::point_to_point::{DirParams, Duplex, Link, LinkDir};
use lasthop_core::{Ecn, PacketKind, TcpHeader};

/// A data segment of flow `flow` whose uid is `uid`, `size` bytes on the
/// wire (its payload is `size` - 40), put in `pool`.
pub fn data(pool: &mut PacketPool, flow: u32, uid: u64, size: u32) -> Waiting {
    data_ecn(pool, flow, uid, size, Ecn::NotEct)
}

pub fn data_ecn(pool: &mut PacketPool, flow: u32, uid: u64, size: u32, ecn: Ecn) -> Waiting {
    let tcp = TcpHeader { seq: uid * 1000, len: size.saturating_sub(40).max(1), ..TcpHeader::default() };
    let p = Packet { uid, flow, kind: PacketKind::Data, src: 0, dst: 1, size_bytes: size, ecn, tcp };
    Waiting::new(&p, pool.put(p), 0)
}

/// A 40-byte pure ack of flow `flow` with cumulative ack `ack`; its uid is `uid`.
pub fn ack(pool: &mut PacketPool, flow: u32, uid: u64, ack: u64) -> Waiting {
    ack_ecn(pool, flow, uid, ack, Ecn::NotEct)
}

pub fn ack_ecn(pool: &mut PacketPool, flow: u32, uid: u64, ack: u64, ecn: Ecn) -> Waiting {
    let tcp = TcpHeader { ack, ..TcpHeader::default() };
    let p = Packet { uid, flow, kind: PacketKind::Ack, src: 1, dst: 0, size_bytes: 40, ecn, tcp };
    Waiting::new(&p, pool.put(p), u32::MAX)
}

mod aqm;

/// A queue under test with its pool and the removals it reported.
struct Bench {
    q: Queue,
    pool: PacketPool,
    out: Vec<Removal>,
    log: Vec<Removal>,
}

impl Bench {
    /// The next packet served at `now_ns` (what the queue dropped on the
    /// way goes to the log).
    fn serve(&mut self, now_ns: u64) -> Option<Waiting> {
        let w = self.q.dequeue(Time(now_ns), &mut self.pool, &mut self.out);
        self.log.append(&mut self.out);
        w
    }

    fn new(limit: QueueLimit, cfg: QueueConfig, seed: u64) -> Bench {
        let q = Queue::semantic(limit, &cfg, |bytes| u64::from(bytes) * 1000, || RngStream::new(seed, "q"));
        Bench { q, pool: PacketPool::new(), out: Vec::new(), log: Vec::new() }
    }

    fn offer(&mut self, now_ns: u64, w: Waiting) -> bool {
        let a = self.q.enqueue(Time(now_ns), w, &mut self.pool, &mut self.out, || None);
        assert_eq!(a == Admission::Queued, a.queued() && self.out.is_empty());
        self.log.append(&mut self.out);
        a.queued()
    }

    /// Uids of the packets waiting, head first.
    fn waiting(&self) -> Vec<u64> {
        self.q.waiting().map(|w| self.pool.get(w.pkt).uid).collect()
    }

    /// Uids and causes of the removals so far.
    fn removed(&self) -> Vec<(u64, DropCause)> {
        self.log.iter().map(|r| (self.pool.get(r.pkt).uid, r.cause)).collect()
    }

    fn ecn(&self, w: Waiting) -> Ecn {
        self.pool.get(w.pkt).ecn
    }
}

fn packets(n: u32) -> QueueLimit {
    QueueLimit { packets: Some(n), bytes: None }
}

fn red(min: f64, max: f64) -> RedConfig {
    // w_q = 1: the average is the queue each arrival finds, so that a
    // timeline can say where it stands.
    RedConfig {
        min_packets: min,
        max_packets: max,
        weight: 1.0,
        max_p: 0.1,
        mark: MarkVictim::Arriving,
        mark_acks: true,
        idle_packet_bytes: 500,
    }
}

#[test]
fn an_empty_table_behaves_as_drop_tail() {
    // The same arrivals and departures through DropTail and through the
    // composed queue with every default: the same packets leave in the
    // same order and the same ones are refused.
    let limit = packets(3);
    let mut pool = PacketPool::new();
    let mut plain = Queue::drop_tail(limit);
    let mut composed = Queue::semantic(limit, &QueueConfig::default(), |_| 1, || panic!("draws nothing"));
    let (mut out, mut refused_a, mut refused_b) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..40u64 {
        let w = if i % 3 == 0 { ack(&mut pool, 0, i, i) } else { data(&mut pool, 0, i, 500) };
        let now = Time(i);
        let a = plain.enqueue(now, w, &mut pool, &mut out, || None);
        assert!(out.is_empty(), "DropTail reports only its verdict");
        if a == Admission::Refused {
            refused_a.push(Removal { pkt: w.pkt, cause: DropCause::Queue });
        }
        let b = composed.enqueue(now, w, &mut pool, &mut out, || None);
        assert_eq!(a.queued(), b.queued());
        refused_b.append(&mut out);
        if i % 2 == 0 {
            assert_eq!(plain.dequeue_in_order(now), composed.dequeue_in_order(now));
        }
    }
    assert!(!refused_a.is_empty());
    assert_eq!(refused_a, refused_b);
    assert!(plain.stats(Time(40)).is_none() && composed.stats(Time(40)).is_some());
}

/// A reverse channel of 28.8 kb/s, 50 ms, 10 packets, with discipline `cfg`
/// on direction 0.
fn reverse_channel(cfg: QueueConfig) -> Link {
    let params = DirParams {
        bandwidth_bps: 28_800,
        delay_ns: 50_000_000,
        frame_overhead_bytes: 0,
        frame_overhead_ns: 0,
        queue: packets(10),
        jitter_mean_ns: 0,
    };
    let dir = LinkDir::new(params, ErrorModel::none()).with_discipline(Some(&cfg), || RngStream::new(1, "q"));
    Link::new(Duplex::Full, dir, LinkDir::new(params, ErrorModel::none()))
}

/// Offer `w` to direction 0 of `l` at `now`; what left the queue goes to `log`.
fn offer(l: &mut Link, now: Time, w: Waiting, pool: &mut PacketPool, log: &mut Vec<Removal>) -> bool {
    let mut out = Vec::new();
    let a = l.enqueue(0, now, w, pool, &mut out);
    log.append(&mut out);
    a.queued()
}

fn waiting_uids(l: &Link, pool: &PacketPool) -> Vec<u64> {
    l.dirs[0].queue().waiting().map(|w| pool.get(w.pkt).uid).collect()
}

#[test]
fn as39_ack_filtering_purges_only_older_acks_of_the_same_connection() {
    let mut l = reverse_channel(QueueConfig { ack_filter: true, ..QueueConfig::default() });
    let (mut pool, mut out) = (PacketPool::new(), Vec::new());
    let at = |ms: u64| Time(ms * 1_000_000);
    // t = 0: ack 1000 of flow 0 (uid 1) arrives and goes on the medium.
    let on_wire = ack(&mut pool, 0, 1, 1000);
    assert!(offer(&mut l, at(0), on_wire, &mut pool, &mut out));
    assert_eq!(l.start_transmission(at(0), &mut pool, &mut Vec::new()).unwrap().frame, on_wire);
    // t = 1 ms: ack 2000 of flow 0 (2), ack 500 of flow 1 (3), a data
    // packet of flow 0 carrying ack 1500 (4), acks 3000 (5) and 4000 (6) of
    // flow 0 wait behind it. None makes an older one redundant but 5 and 6,
    // which purge 2, then 5.
    let mut piggyback = data(&mut pool, 0, 4, 1040);
    let mut p = pool.take(piggyback.pkt);
    p.tcp.ack = 1500;
    piggyback.pkt = pool.put(p);
    let arrivals = [ack(&mut pool, 0, 2, 2000), ack(&mut pool, 1, 3, 500), piggyback];
    for w in arrivals {
        assert!(offer(&mut l, at(1), w, &mut pool, &mut out));
    }
    assert_eq!(waiting_uids(&l, &pool), [2, 3, 4]);
    for w in [ack(&mut pool, 0, 5, 3000), ack(&mut pool, 0, 6, 4000)] {
        assert!(offer(&mut l, at(1), w, &mut pool, &mut out));
    }
    let purged: Vec<u64> = out.iter().map(|r| pool.get(r.pkt).uid).collect();
    assert_eq!(purged, [2, 5], "each new ack purges the older one of its connection");
    assert!(out.iter().all(|r| r.cause == DropCause::Filtered));
    assert_eq!(waiting_uids(&l, &pool), [3, 4, 6]);
    // t = 2 ms: a duplicate of ack 4000 (7): equal acks stay, as do the
    // other connection's ack and the data packet; it joins at the tail.
    assert!(offer(&mut l, at(2), ack(&mut pool, 0, 7, 4000), &mut pool, &mut out));
    assert_eq!(waiting_uids(&l, &pool), [3, 4, 6, 7]);
    // t = 3 ms: ack 5000 (8) purges both acks of 4000.
    assert!(offer(&mut l, at(3), ack(&mut pool, 0, 8, 5000), &mut pool, &mut out));
    assert_eq!(waiting_uids(&l, &pool), [3, 4, 8]);
    assert_eq!(l.dirs[0].stats().drops_filtered, 4);
    assert_eq!(l.dirs[0].stats().drops_queue, 0);
    // The ack on the medium was never eligible: it reaches the far end.
    let (done, _) = l.finish_transmission(at(12), 0, 0, &mut pool);
    assert!(done > at(12));
    let a = l.take_arrival(done, 1, 0, &mut pool);
    assert_eq!(pool.get(a.pkt).uid, 1);
}

#[test]
fn as39_replace_head_puts_the_new_ack_where_the_oldest_purged_one_was() {
    let cfg = QueueConfig {
        ack_filter: true,
        ack_filter_position: Some(AckFilterPosition::ReplaceHead),
        ..QueueConfig::default()
    };
    let mut b = Bench::new(packets(10), cfg, 1);
    // Waiting: data (1), ack 1000 (2), data (3), ack 2000 (4).
    let ws = [data(&mut b.pool, 0, 1, 1040), ack(&mut b.pool, 0, 2, 1000)];
    let more = [data(&mut b.pool, 0, 3, 1040), ack(&mut b.pool, 0, 4, 2000)];
    for w in ws.into_iter().chain(more) {
        assert!(b.offer(0, w));
    }
    // Ack 2000 purged ack 1000 and took its place.
    assert_eq!(b.waiting(), [1, 4, 3]);
    // Ack 3000 (5) purges ack 2000 and takes its place.
    let w = ack(&mut b.pool, 0, 5, 3000);
    assert!(b.offer(1, w));
    assert_eq!(b.waiting(), [1, 5, 3]);
    // An ack that purges nothing joins at the tail.
    let w = ack(&mut b.pool, 1, 6, 10);
    assert!(b.offer(2, w));
    assert_eq!(b.waiting(), [1, 5, 3, 6]);
}

#[test]
fn as43_acks_first_serves_acks_before_data_without_preemption() {
    let mut l = reverse_channel(QueueConfig { discipline: Service::AcksFirst, ..QueueConfig::default() });
    let (mut pool, mut out) = (PacketPool::new(), Vec::new());
    // t = 0: a 1000-byte data packet (uid 1) goes on the medium: 277.8 ms
    // at 28.8 kb/s.
    assert!(offer(&mut l, Time::ZERO, data(&mut pool, 0, 1, 1000), &mut pool, &mut out));
    let first = l.start_transmission(Time::ZERO, &mut pool, &mut Vec::new()).unwrap();
    assert_eq!(first.done, Time(277_777_778));
    // t = 1 ms: data 2, ack 3, data 4, ack 5 arrive; the data packet on the
    // medium is not preempted.
    let t1 = Time(1_000_000);
    let arrivals = [
        data(&mut pool, 0, 2, 1000),
        ack(&mut pool, 1, 3, 100),
        data(&mut pool, 0, 4, 1000),
        ack(&mut pool, 1, 5, 200),
    ];
    for w in arrivals {
        assert!(offer(&mut l, t1, w, &mut pool, &mut out));
    }
    assert!(l.start_transmission(t1, &mut pool, &mut Vec::new()).is_none(), "no preemption");
    // From then on each frame starts when the previous one ends: the acks
    // first, in their order, then the data, in theirs.
    let (mut now, mut order, mut starts) = (first.done, vec![1], vec![first.done]);
    l.finish_transmission(now, 0, 0, &mut pool);
    while let Some(s) = l.start_transmission(now, &mut pool, &mut Vec::new()) {
        let is_data = pool.get(s.frame.pkt).is_data();
        // AS-43: no pure ack waits while a data packet is served.
        assert!(!is_data || l.dirs[0].queue().waiting().all(|w| !w.is_pure_ack()));
        order.push(pool.get(s.frame.pkt).uid);
        starts.push(now);
        now = s.done;
        l.finish_transmission(now, 0, 0, &mut pool);
    }
    assert_eq!(order, [1, 3, 5, 2, 4]);
    assert_eq!(starts[1], first.done, "the first ack waits for the data frame on the medium");
    assert!(out.is_empty(), "acks-first changes the order only");
}

#[test]
fn ack_filtering_and_acks_first_compose() {
    let cfg = QueueConfig { discipline: Service::AcksFirst, ack_filter: true, ..QueueConfig::default() };
    let mut b = Bench::new(packets(10), cfg, 1);
    // Waiting: data 1, ack 1000 (2), data 3, ack 2000 (4) of flow 0: the
    // second ack purged the first.
    let ws = [data(&mut b.pool, 0, 1, 1040), ack(&mut b.pool, 0, 2, 1000)];
    let more = [data(&mut b.pool, 0, 3, 1040), ack(&mut b.pool, 0, 4, 2000)];
    for w in ws.into_iter().chain(more) {
        assert!(b.offer(0, w));
    }
    assert_eq!(b.waiting(), [1, 3, 4]);
    // Ack 3000 (5) purges ack 2000 and, though it joined last, leaves first.
    let w = ack(&mut b.pool, 0, 5, 3000);
    assert!(b.offer(1, w));
    let served: Vec<u64> =
        std::iter::from_fn(|| b.q.dequeue_in_order(Time(2))).map(|w| b.pool.get(w.pkt).uid).collect();
    assert_eq!(served, [5, 1, 3]);
    assert_eq!(b.removed(), [(2, DropCause::Filtered), (4, DropCause::Filtered)]);
}

#[test]
fn red_marks_nothing_below_min_th_and_drops_only_when_full() {
    // min_th 2, max_th 6 in a queue of 10; ECN-capable data arrives and
    // nothing leaves: the k-th arrival finds k packets waiting.
    for seed in 1..=20 {
        let cfg = QueueConfig { red: Some(red(2.0, 6.0)), ..QueueConfig::default() };
        let mut b = Bench::new(packets(10), cfg, seed);
        let mut offered = Vec::new();
        for k in 0..12u64 {
            let w = data_ecn(&mut b.pool, 0, k, 1040, Ecn::Ect);
            offered.push(w);
            let queued = b.offer(k, w);
            // Admitted until the buffer is physically full.
            assert_eq!(queued, k < 10, "seed {seed}, arrival {k}");
        }
        let ce: Vec<bool> = offered.iter().map(|&w| b.ecn(w) == Ecn::Ce).collect();
        // Arrivals 0 and 1 found fewer than min_th waiting: never marked.
        assert!(!ce[0] && !ce[1], "seed {seed}");
        // From max_th on every arrival is marked (even the refused ones).
        assert!(ce[6..].iter().all(|&c| c), "seed {seed}");
        // Marks, not drops: the only drops are the two the full buffer refused.
        assert_eq!(b.removed(), [(10, DropCause::Queue), (11, DropCause::Queue)]);
        let stats = b.q.stats(Time(12)).unwrap();
        assert_eq!(stats.marks, ce.iter().filter(|&&c| c).count() as u64);
    }
}

#[test]
fn red_drops_what_it_cannot_mark() {
    let cfg = QueueConfig { red: Some(red(2.0, 6.0)), ..QueueConfig::default() };
    let mut b = Bench::new(packets(10), cfg, 1);
    for k in 0..6 {
        let w = data_ecn(&mut b.pool, 0, k, 1040, Ecn::Ect);
        assert!(b.offer(k, w));
    }
    // Six waiting (the average at max_th): a packet that is not ECN-capable
    // is dropped early; an ECN-capable one is marked and admitted.
    let plain = data(&mut b.pool, 0, 6, 1040);
    assert!(!b.offer(6, plain));
    assert_eq!(b.removed(), [(6, DropCause::Early)]);
    let capable = data_ecn(&mut b.pool, 0, 7, 1040, Ecn::Ect);
    assert!(b.offer(7, capable));
    assert_eq!(b.ecn(capable), Ecn::Ce);
    assert_eq!(b.waiting().len(), 7);
}

#[test]
fn red_marks_pure_acks_unless_told_to_mark_data_only() {
    for mark_acks in [true, false] {
        let cfg = QueueConfig { red: Some(RedConfig { mark_acks, ..red(2.0, 6.0) }), ..QueueConfig::default() };
        let mut b = Bench::new(packets(10), cfg, 1);
        for k in 0..6 {
            let w = ack_ecn(&mut b.pool, 0, k, k * 1000, Ecn::Ect);
            assert!(b.offer(k, w));
        }
        // Above max_th: an ECN-capable ack is marked only with mark_acks;
        // a data packet is marked either way.
        let a = ack_ecn(&mut b.pool, 0, 6, 6000, Ecn::Ect);
        assert!(b.offer(6, a));
        assert_eq!(b.ecn(a) == Ecn::Ce, mark_acks);
        let d = data_ecn(&mut b.pool, 1, 7, 1040, Ecn::Ect);
        assert!(b.offer(7, d));
        assert_eq!(b.ecn(d), Ecn::Ce);
        // With data only, a non-ECN-capable ack is not dropped either.
        let plain_ack = ack(&mut b.pool, 0, 8, 8000);
        assert_eq!(b.offer(8, plain_ack), !mark_acks);
    }
}

#[test]
fn red_random_victim_is_uniform_and_repeats_per_seed() {
    // min_th 5, max_th 6: the first six arrivals are never marked (below
    // min_th, or p_b = 0 at it). Six ECN-capable packets wait (the average
    // at max_th: a mark is certain); the seventh arrival's mark falls on
    // one of the seven, uniformly.
    let cfg =
        QueueConfig { red: Some(RedConfig { mark: MarkVictim::Random, ..red(5.0, 6.0) }), ..QueueConfig::default() };
    let victim = |seed: u64| {
        let mut b = Bench::new(packets(10), cfg.clone(), seed);
        let mut ws: Vec<Waiting> = (0..6).map(|k| data_ecn(&mut b.pool, 0, k, 1040, Ecn::Ect)).collect();
        for (k, &w) in ws.iter().enumerate() {
            assert!(b.offer(k as u64, w));
        }
        ws.push(data_ecn(&mut b.pool, 0, 6, 1040, Ecn::Ect));
        assert!(b.offer(6, ws[6]));
        let marked: Vec<usize> = (0..7).filter(|&i| b.ecn(ws[i]) == Ecn::Ce).collect();
        assert_eq!(marked.len(), 1, "one mark per test");
        marked[0]
    };
    let mut hits = [0u32; 7];
    for seed in 0..7000 {
        hits[victim(seed)] += 1;
    }
    assert!(hits.iter().all(|&h| (850..1150).contains(&h)), "{hits:?}");
    assert_eq!(victim(42), victim(42));
}

#[test]
fn red_random_victim_that_is_not_ecn_capable_is_dropped_from_the_queue() {
    let cfg =
        QueueConfig { red: Some(RedConfig { mark: MarkVictim::Random, ..red(5.0, 6.0) }), ..QueueConfig::default() };
    // Six packets that are not ECN-capable wait; find a seed whose victim
    // is one of them, not the arrival.
    let run = |seed: u64| {
        let mut b = Bench::new(packets(10), cfg.clone(), seed);
        for k in 0..6 {
            let w = data(&mut b.pool, 0, k, 1040);
            assert!(b.offer(k, w));
        }
        let w = data(&mut b.pool, 0, 6, 1040);
        let queued = b.offer(6, w);
        (queued, b.removed(), b.waiting())
    };
    let (queued, removed, waiting) = (0..50).map(run).find(|r| r.0).expect("some victim is queued");
    assert!(queued);
    assert_eq!(removed.len(), 1);
    let (uid, cause) = removed[0];
    assert_eq!(cause, DropCause::Early);
    assert!(uid < 6 && !waiting.contains(&uid) && waiting.len() == 6);
}

#[test]
fn random_overflow_picks_victims_deterministically_per_seed() {
    let cfg = QueueConfig { overflow: Overflow::Random, ..QueueConfig::default() };
    // Two packets arrive per one served, into a queue of 5: once full,
    // every arrival costs a victim.
    let victims = |seed: u64| {
        let mut b = Bench::new(packets(5), cfg.clone(), seed);
        let mut refused = 0;
        for k in 0..200u64 {
            let w = data(&mut b.pool, 0, k, 1040);
            if !b.offer(k, w) {
                refused += 1;
            }
            if k % 2 == 0 {
                b.q.dequeue_in_order(Time(k));
            }
            assert!(b.q.len() <= 5);
        }
        (b.removed(), refused)
    };
    let (a, refused) = victims(1);
    assert_eq!((a.clone(), refused), victims(1), "same seed, same victims");
    assert_ne!(a, victims(2).0, "another seed, other victims");
    assert!(a.iter().all(|&(_, c)| c == DropCause::Queue));
    // The victim is sometimes the arrival, more often one of the five that
    // waited (1 in 6 would be the arrival).
    assert!(refused > 0 && refused < a.len() / 3, "{refused} of {}", a.len());
}

#[test]
fn random_overflow_with_a_byte_limit_draws_until_the_arrival_fits() {
    let cfg = QueueConfig { overflow: Overflow::Random, ..QueueConfig::default() };
    let mut admitted = 0;
    for seed in 0..50 {
        let mut b = Bench::new(QueueLimit { packets: None, bytes: Some(3000) }, cfg.clone(), seed);
        for k in 0..3 {
            let w = data(&mut b.pool, 0, k, 1000);
            assert!(b.offer(k, w));
        }
        let big = data(&mut b.pool, 0, 3, 1500);
        let queued = b.offer(3, big);
        let bytes: u64 = b.q.waiting().map(|w| u64::from(w.size_bytes)).sum();
        assert!(bytes <= 3000, "seed {seed}");
        let removed = b.removed();
        if queued {
            // Two waiting packets made room for 1500 bytes.
            assert_eq!(removed.len(), 2, "seed {seed}");
            admitted += 1;
        } else {
            // The arrival was drawn, first or second.
            assert_eq!(removed.last().unwrap().0, 3, "seed {seed}");
        }
    }
    assert!(admitted > 0 && admitted < 50, "{admitted}");
}

#[test]
fn occupancy_is_averaged_over_time_with_the_share_of_acks() {
    let mut b = Bench::new(packets(10), QueueConfig::default(), 1);
    // t = 0: an ack and a data packet wait; t = 10: both leave; t = 20: end.
    let (a, d) = (ack(&mut b.pool, 0, 1, 1), data(&mut b.pool, 0, 2, 1040));
    assert!(b.offer(0, a) && b.offer(0, d));
    b.q.dequeue_in_order(Time(10));
    b.q.dequeue_in_order(Time(10));
    let s = b.q.stats(Time(20)).unwrap();
    assert_eq!((s.mean_packets, s.mean_acks, s.marks, s.red_average), (1.0, 0.5, 0, None));
}
