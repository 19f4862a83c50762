//! A station's interface queue on a shared medium: what the members with
//! per-station queues ([`super::radio`], [`super::dcf`]) share. The queue
//! is a discipline of [`crate::queue`] (drop-tail, or a composed one: ACK
//! filtering at the radios is how seed 001 runs AF over a radio chain);
//! beside it, the station each waiting frame must reach next (a station
//! serves several peers from one FIFO: head-of-line blocking, seed 004
//! Sec. 5.4), and when the station went idle (RED's idle rule).

use super::StationId;
use crate::queue::{Admission, Queue, QueueConfig, QueueLimit, Removal, Waiting};
use lasthop_core::rng::RngStream;
use lasthop_core::trace::DropCause;
use lasthop_core::{PacketPool, PacketRef, Time};

#[derive(Clone, Debug)]
pub(crate) struct StationQueue {
    queue: Queue,
    /// The next hop of each frame in `queue` (a few frames: a scan).
    next_hop: Vec<(PacketRef, StationId)>,
    /// When the station's last frame left it (its link ack came, or it was
    /// given up): with nothing queued, it has been idle since.
    pub(crate) idle_since: Time,
}

impl StationQueue {
    /// A drop-tail queue of `packets` (the frame the MAC holds not counted).
    pub(crate) fn new(packets: u32) -> StationQueue {
        StationQueue {
            queue: Queue::drop_tail(QueueLimit { packets: Some(packets), bytes: None }),
            next_hop: Vec::with_capacity(packets as usize),
            idle_since: Time::ZERO,
        }
    }

    /// Serve the queue (`packets` long) with the discipline `cfg`, a
    /// packet of `bytes` taking `tx_ns(bytes)` on the air, drawing from
    /// `rng` if the discipline draws.
    pub(crate) fn serve_with(
        &mut self,
        packets: u32,
        cfg: &QueueConfig,
        tx_ns: impl Fn(u32) -> u64,
        rng: impl FnOnce() -> RngStream,
    ) {
        self.queue = Queue::semantic(QueueLimit { packets: Some(packets), bytes: None }, cfg, tx_ns, rng);
    }

    pub(crate) fn len(&self) -> usize {
        self.queue.len()
    }

    /// The bytes of the packets waiting.
    pub(crate) fn bytes(&self) -> u64 {
        self.queue.waiting().map(|w| u64::from(w.size_bytes)).sum()
    }

    /// Queue `frame` for station `to` at `now` (`sending`: the MAC holds a
    /// frame of this station's): the discipline's answer, with what it let
    /// go of in `removed` (the caller frees them) and each refusal or
    /// removal counted in `drops_queue` or `drops_filtered`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn offer(
        &mut self,
        now: Time,
        frame: Waiting,
        to: StationId,
        sending: bool,
        pool: &mut PacketPool,
        removed: &mut Vec<Removal>,
        drops: (&mut u64, &mut u64),
    ) -> Admission {
        let (drops_queue, drops_filtered) = drops;
        // The station is idle while nothing waits and it sends nothing:
        // RED's idle rule (asked only by a composed queue with nothing
        // waiting).
        let idle = if sending { None } else { Some(self.idle_since) };
        let a = self.queue.enqueue(now, frame, pool, removed, || idle);
        for r in removed.iter() {
            self.next_hop.retain(|&(p, _)| p != r.pkt);
            match r.cause {
                DropCause::Filtered => *drops_filtered += 1,
                _ => *drops_queue += 1,
            }
        }
        match a {
            Admission::Refused => *drops_queue += 1,
            _ if a.queued() => self.next_hop.push((frame.pkt, to)),
            _ => {}
        }
        a
    }

    /// The next hop of the frame at the head of the queue.
    pub(crate) fn head_to(&self) -> Option<StationId> {
        let head = self.queue.waiting().next()?;
        self.next_hop.iter().find(|&&(p, _)| p == head.pkt).map(|&(_, to)| to)
    }

    /// The head of the queue, with its next hop.
    pub(crate) fn pop(&mut self, now: Time) -> Option<(StationId, Waiting)> {
        let w = self.queue.dequeue_in_order(now)?;
        let i = self.next_hop.iter().position(|&(p, _)| p == w.pkt).expect("every queued frame has a next hop");
        Some((self.next_hop.swap_remove(i).1, w))
    }
}
