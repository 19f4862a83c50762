//! CoDel, PIE and FQ-CoDel (issue 29 item 10) as timelines: what each
//! drops, when, and in which order it serves.

use super::*;

const MS: u64 = 1_000_000;

fn codel() -> QueueConfig {
    QueueConfig { codel: Some(CodelConfig::default()), ..QueueConfig::default() }
}

fn pie() -> QueueConfig {
    QueueConfig { pie: Some(PieConfig::default()), ..QueueConfig::default() }
}

fn fq(cfg: FqCodelConfig) -> QueueConfig {
    QueueConfig { fq_codel: Some(cfg), ..QueueConfig::default() }
}

/// Times (ms) at which the bench's log grew while serving one packet a ms
/// from `from` to `to`, after an arrival (uid 1000 + ms) each ms if `feed`.
fn serve_ms(b: &mut Bench, from: u64, to: u64, feed: bool) -> Vec<u64> {
    let mut drops = Vec::new();
    for ms in from..=to {
        if feed {
            let w = data(&mut b.pool, 0, 1000 + ms, 1000);
            assert!(b.offer(ms * MS, w));
        }
        let before = b.log.len();
        b.serve(ms * MS);
        drops.extend(std::iter::repeat_n(ms, b.log.len() - before));
    }
    drops
}

#[test]
fn codel_drops_a_standing_queue_at_interval_over_sqrt_count_then_stops() {
    let mut b = Bench::new(packets(100), codel(), 1);
    // t = 0: 20 packets (1000 B, not ECN-capable) arrive at once; from 1
    // ms on, one arrives and one leaves each ms: a standing queue of 20
    // packets, a sojourn time of 20 ms (target 5 ms).
    for uid in 0..20 {
        let w = data(&mut b.pool, 0, uid, 1000);
        assert!(b.offer(0, w));
    }
    let drops = serve_ms(&mut b, 1, 3000, true);
    // t = 5 ms: the head's sojourn reaches the target; an interval later,
    // at 105 ms, the first drop (at the head, cause Early).
    assert_eq!(drops.first(), Some(&105), "{drops:?}");
    assert!(b.removed().iter().all(|&(_, c)| c == DropCause::Early));
    // Then drop i + 1 is due interval / sqrt(i) after drop i was due: at
    // 205, 275.7, 333.4, 383.4 ... ms, each taken at the first departure
    // at or after it (one a ms).
    let mut due_ns = 105 * MS;
    for (i, &at) in drops.iter().enumerate().skip(1) {
        due_ns += (100.0 * MS as f64 / (i as f64).sqrt()) as u64;
        assert_eq!(at, due_ns.div_ceil(MS), "drop {} of {drops:?}", i + 1);
    }
    // Each drop shortens the queue by a packet (a ms of sojourn): once the
    // head's sojourn is below 5 ms CoDel leaves its dropping state and the
    // queue of 4 packets stands undisturbed for the rest of the 3 s.
    assert_eq!(drops.len(), 16, "{drops:?}");
    assert!(*drops.last().unwrap() < 1500);
    assert!(!b.q.composed().unwrap().codel().unwrap().dropping());
    assert_eq!(b.q.len(), 4);
}

#[test]
fn codel_lets_a_burst_shorter_than_an_interval_pass() {
    let mut b = Bench::new(packets(100), codel(), 1);
    // t = 0: a burst of 50 packets; they leave one a ms. The head's sojourn
    // is above the 5 ms target from 5 ms to 50 ms: less than an interval.
    for uid in 0..50 {
        let w = data(&mut b.pool, 0, uid, 1000);
        assert!(b.offer(0, w));
    }
    let mut served = Vec::new();
    for ms in 1..=60 {
        if let Some(w) = b.serve(ms * MS) {
            served.push(b.pool.get(w.pkt).uid);
        }
    }
    assert_eq!(served, (0..50).collect::<Vec<_>>());
    assert!(b.removed().is_empty());
}

#[test]
fn codel_marks_ecn_capable_packets_and_serves_them() {
    let mut b = Bench::new(packets(100), codel(), 1);
    for uid in 0..20 {
        let w = data_ecn(&mut b.pool, 0, uid, 1000, Ecn::Ect);
        assert!(b.offer(0, w));
    }
    let mut marked = 0;
    for ms in 1..=400 {
        let w = data_ecn(&mut b.pool, 0, 1000 + ms, 1000, Ecn::Ect);
        assert!(b.offer(ms * MS, w));
        let served = b.serve(ms * MS).unwrap();
        marked += usize::from(b.ecn(served) == Ecn::Ce);
    }
    // At 105, 205, 276, 334 and 384 ms the packet CoDel picks is marked,
    // not dropped (the queue stands: marks do not shorten it).
    assert!(b.removed().is_empty());
    assert_eq!(marked, 5);
    assert_eq!(b.q.stats(Time(400 * MS)).unwrap().marks, 5);
}

/// Overload a PIE queue from `from` to `to` ms: two 1000-byte arrivals a
/// ms, one departure a ms. The uids dropped.
fn pie_overload(b: &mut Bench, from: u64, to: u64) -> Vec<u64> {
    for ms in from..to {
        for k in 0..2 {
            let w = data(&mut b.pool, 0, 10 * ms + k, 1000);
            b.offer(ms * MS + k, w);
        }
        b.serve(ms * MS + 5);
    }
    b.removed().into_iter().map(|(uid, _)| uid).collect()
}

fn pie_p(b: &Bench) -> f64 {
    b.q.composed().unwrap().pie().unwrap().drop_prob()
}

#[test]
fn pie_raises_p_under_overload_and_decays_it_to_zero_under_light_load() {
    let mut b = Bench::new(packets(10_000), pie(), 3);
    // t = 0 to 150 ms: twice the service rate arrives, but the burst
    // allowance (150 ms) lets all of it in.
    assert!(pie_overload(&mut b, 0, 150).is_empty());
    // t = 150 ms to 3 s: PIE drops arrivals (cause Early) and p climbs
    // toward the half of them the link cannot carry.
    let dropped = pie_overload(&mut b, 150, 3000);
    assert!(dropped.len() > 500, "{}", dropped.len());
    assert!(b.removed().iter().all(|&(_, c)| c == DropCause::Early));
    let p = pie_p(&b);
    assert!(p > 0.3 && p <= 1.0, "{p}");
    // t = 3 s to 8 s: one arrival every 2 ms, a departure each ms: the queue
    // drains, the delay falls to zero and p decays to zero.
    for ms in 3000..8000 {
        if ms % 2 == 0 {
            let w = data(&mut b.pool, 0, 100_000 + ms, 1000);
            b.offer(ms * MS, w);
        }
        b.serve(ms * MS + 5);
    }
    assert!(b.q.is_empty());
    assert_eq!(pie_p(&b), 0.0);
}

#[test]
fn pie_draws_from_its_own_stream_deterministically() {
    let run = |seed| {
        let mut b = Bench::new(packets(10_000), pie(), seed);
        pie_overload(&mut b, 0, 2000)
    };
    let a = run(7);
    assert!(!a.is_empty());
    assert_eq!(a, run(7), "same seed, same drops");
    assert_ne!(a, run(8), "another seed draws otherwise");
}

/// Offer `w` at `now_ns`, keeping its arrival time by uid.
fn arrive(b: &mut Bench, now_ns: u64, w: Waiting, arrived: &mut Vec<(u64, u64)>) {
    let uid = b.pool.get(w.pkt).uid;
    if b.offer(now_ns, w) {
        arrived.push((uid, now_ns));
    }
}

#[test]
fn fq_codel_serves_a_sparse_flow_beside_a_bulk_one_at_once() {
    // Flow 1 keeps some 50 packets waiting; flow 2 sends one every 50 ms.
    // One packet leaves each ms. Under FIFO the sparse packet would wait
    // behind the bulk flow's 50 ms of packets; FQ-CoDel puts its flow on
    // new_flows, served first.
    let mut b = Bench::new(packets(200), fq(FqCodelConfig::default()), 1);
    let mut arrived = Vec::new();
    let mut uid = 0;
    for _ in 0..50 {
        uid += 1;
        let w = data(&mut b.pool, 1, uid, 1000);
        arrive(&mut b, 0, w, &mut arrived);
    }
    let mut sparse_delays = Vec::new();
    for ms in 1..=1000u64 {
        uid += 1;
        let w = data(&mut b.pool, 1, uid, 1000);
        arrive(&mut b, ms * MS, w, &mut arrived);
        if ms % 50 == 25 {
            uid += 1;
            let w = data(&mut b.pool, 2, uid, 200);
            arrive(&mut b, ms * MS + 1, w, &mut arrived);
        }
        if let Some(w) = b.serve(ms * MS + 2) {
            let p = b.pool.get(w.pkt);
            if p.flow == 2 {
                let at = arrived.iter().find(|&&(u, _)| u == p.uid).unwrap().1;
                sparse_delays.push(ms * MS + 2 - at);
            }
        }
    }
    // Every sparse packet left at the next departure, 1 ns after it came.
    assert_eq!(sparse_delays.len(), 20);
    assert!(sparse_delays.iter().all(|&d| d == 1), "{sparse_delays:?}");
    // The bulk flow still waits (CoDel keeps its sojourn near the target).
    assert!(b.q.len() > 1);
}

#[test]
fn fq_codel_gives_two_bulk_flows_equal_bytes_whatever_their_packet_sizes() {
    // Flow 1 sends 1500-byte packets, flow 2 300-byte ones; both always
    // have 10 waiting (refilled before each departure; CoDel's target is
    // set out of reach so that nothing is dropped).
    let cfg = FqCodelConfig { target_ms: 3_600_000.0, ..FqCodelConfig::default() };
    let mut b = Bench::new(packets(1000), fq(cfg), 1);
    let (mut uid, mut waiting, mut bytes) = (0u64, [0usize; 3], [0u64; 3]);
    for step in 0..6000u64 {
        for (flow, size) in [(1u32, 1500u32), (2, 300)] {
            while waiting[flow as usize] < 10 {
                uid += 1;
                let w = data(&mut b.pool, flow, uid, size);
                assert!(b.offer(step, w));
                waiting[flow as usize] += 1;
            }
        }
        let w = b.serve(step).unwrap();
        let f = b.pool.get(w.pkt).flow as usize;
        waiting[f] -= 1;
        bytes[f] += u64::from(w.size_bytes);
    }
    // Deficit round robin: each round a flow sends about a quantum (1514
    // B): one 1500-byte packet, or six 300-byte ones.
    let gap = bytes[1].abs_diff(bytes[2]);
    assert!(gap <= 1514 + 1500, "{bytes:?}");
    assert!(b.removed().is_empty());
}

#[test]
fn fq_codel_drops_the_head_of_the_fattest_flow_when_full() {
    let mut b = Bench::new(packets(10), fq(FqCodelConfig::default()), 1);
    // t = 0: flow 1 queues 8 packets (uids 1..=8), flow 2 two (11, 12):
    // full.
    for uid in 1..=8 {
        let w = data(&mut b.pool, 1, uid, 1000);
        assert!(b.offer(0, w));
    }
    for uid in 11..=12 {
        let w = data(&mut b.pool, 2, uid, 1000);
        assert!(b.offer(0, w));
    }
    // t = 1: flow 2's packet 13 arrives: flow 1 holds the most bytes, its
    // head (1) is dropped (cause Queue) and 13 joins.
    let w = data(&mut b.pool, 2, 13, 1000);
    assert!(b.offer(1, w));
    assert_eq!(b.removed(), vec![(1, DropCause::Queue)]);
    // t = 2: flow 3's first packet, with flow 1 still the fattest: 2 goes.
    let w = data(&mut b.pool, 3, 21, 1000);
    assert!(b.offer(2, w));
    assert_eq!(b.removed(), vec![(1, DropCause::Queue), (2, DropCause::Queue)]);
    assert_eq!(b.waiting(), vec![3, 4, 5, 6, 7, 8, 11, 12, 13, 21]);
}

#[test]
fn aqm_settings_are_checked_with_their_field() {
    let limit = packets(10);
    let field = |c: QueueConfig| c.validate(limit).unwrap_err().0;
    let bad_codel = CodelConfig { target_ms: -1.0, ..CodelConfig::default() };
    assert_eq!(field(QueueConfig { codel: Some(bad_codel), ..QueueConfig::default() }), "codel.target_ms");
    let bad_pie = PieConfig { update_ms: 0.0, ..PieConfig::default() };
    assert_eq!(field(QueueConfig { pie: Some(bad_pie), ..QueueConfig::default() }), "pie.update_ms");
    assert_eq!(field(fq(FqCodelConfig { flows: 0, ..FqCodelConfig::default() })), "fq_codel.flows");
    assert_eq!(field(QueueConfig { pie: Some(PieConfig::default()), ..codel() }), "pie");
    assert_eq!(field(QueueConfig { ack_filter: true, ..codel() }), "ack_filter");
    assert_eq!(field(QueueConfig { discipline: Service::AcksFirst, ..pie() }), "discipline");
    assert!(codel().validate(limit).is_ok() && pie().validate(limit).is_ok());
}

#[test]
fn a_station_queue_refuses_what_drops_at_dequeue_and_takes_pie() {
    // A MAC's station queue reports no drops at dequeue: CoDel and FQ-CoDel
    // are refused there, with the field named; PIE drops at enqueue only.
    use crate::mac::dcf::DcfConfig;
    use crate::mac::radio::RadioConfig;
    for c in [codel(), fq(FqCodelConfig::default())] {
        let name = c.drops_at_dequeue().unwrap();
        assert_eq!(RadioConfig::default().validate_queue(&c).unwrap_err().0, name);
        assert_eq!(DcfConfig::default().validate_queue(&c).unwrap_err().0, name);
    }
    assert!(RadioConfig::default().validate_queue(&pie()).is_ok());
    assert!(DcfConfig::default().validate_queue(&pie()).is_ok());
}

fn cw(threshold: f64, weight: f64) -> QueueConfig {
    QueueConfig {
        jersey_cw: Some(CwConfig { threshold_packets: threshold, weight, ..CwConfig::default() }),
        ..QueueConfig::default()
    }
}

#[test]
fn jersey_cw_marks_every_ecn_capable_arrival_above_the_threshold_and_drops_only_when_full() {
    // w_q = 1: the average is the queue each arrival finds. Threshold 2
    // packets, limit 5.
    let mut b = Bench::new(packets(5), cw(2.0, 1.0), 1);
    // t = 0..4: arrivals find 0, 1, 2, 3, 4 waiting. Uids 0-2 (avg 0, 1, 2:
    // not above 2) pass unmarked; uid 3 (avg 3) is not ECN-capable: warned
    // of but neither marked nor dropped; uid 4 (avg 4) is marked.
    for uid in 0..5 {
        let ecn = if uid == 3 { Ecn::NotEct } else { Ecn::Ect };
        let w = data_ecn(&mut b.pool, 0, uid, 1000, ecn);
        assert!(b.offer(uid, w));
    }
    // t = 5: uid 5 finds the buffer full (avg 5): refused at the tail, unmarked.
    let w = data_ecn(&mut b.pool, 0, 5, 1000, Ecn::Ect);
    assert!(!b.offer(5, w));
    assert_eq!(b.removed(), vec![(5, DropCause::Queue)]);
    assert_eq!(b.pool.get(w.pkt).ecn, Ecn::Ect);
    // Three leave (uids 0-2); t = 7: uid 6 finds 2 (avg 2): unmarked; t = 8:
    // an ECN-capable ack, uid 7, finds 3 (avg 3): marked, acks as data.
    let mut served = Vec::new();
    for t in 6..9 {
        served.push(b.serve(t).unwrap());
    }
    let w = data_ecn(&mut b.pool, 0, 6, 1000, Ecn::Ect);
    assert!(b.offer(9, w));
    let a = ack_ecn(&mut b.pool, 0, 7, 1, Ecn::Ect);
    assert!(b.offer(10, a));
    while let Some(w) = b.serve(11) {
        served.push(w);
    }
    let marks: Vec<(u64, Ecn)> = served.iter().map(|&w| (b.pool.get(w.pkt).uid, b.ecn(w))).collect();
    assert_eq!(
        marks,
        vec![(0, Ecn::Ect), (1, Ecn::Ect), (2, Ecn::Ect), (3, Ecn::NotEct), (4, Ecn::Ce), (6, Ecn::Ect), (7, Ecn::Ce)]
    );
    assert_eq!(b.q.stats(Time(11)).unwrap().marks, 2);
    assert_eq!(b.q.composed().unwrap().cw().unwrap().average(), 3.0);
}

#[test]
fn jersey_cw_settings_are_checked_and_a_station_queue_takes_it() {
    use crate::mac::dcf::DcfConfig;
    use crate::mac::radio::RadioConfig;
    let limit = packets(10);
    let field = |c: QueueConfig| c.validate(limit).unwrap_err().0;
    assert!(cw(5.0, 0.002).validate(limit).is_ok());
    assert_eq!(field(cw(10.0, 0.002)), "jersey_cw.threshold_packets");
    assert_eq!(field(cw(5.0, 0.0)), "jersey_cw.weight");
    let red = red(2.0, 6.0);
    assert_eq!(field(QueueConfig { red: Some(red), ..cw(5.0, 0.002) }), "jersey_cw");
    assert_eq!(field(QueueConfig { jersey_cw: Some(CwConfig::default()), ..codel() }), "codel");
    assert_eq!(field(QueueConfig { ack_filter: true, ..cw(5.0, 0.002) }), "ack_filter");
    assert_eq!(cw(5.0, 0.002).drops_at_dequeue(), None);
    assert!(RadioConfig::default().validate_queue(&cw(5.0, 0.002)).is_ok());
    assert!(DcfConfig::default().validate_queue(&cw(5.0, 0.002)).is_ok());
}
