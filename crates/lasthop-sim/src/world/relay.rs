//! The split relay (seed 000 Sec. III-C, I-TCP): the base station's buffer
//! between a split flow's wired and wireless legs; and M-TCP's supervisor
//! host on it (seed 002 Sec. 5.3, [`crate::schemes`]'s `m-tcp`): its acks
//! to the source, its zero window while the mobile host is disconnected.

use super::{Relay, World};

impl<'m> World<'m> {
    /// The connection whose receiver is model flow `fi`'s receiving
    /// application: its wireless leg if split, else the flow itself.
    pub(super) fn last_leg(&self, fi: usize) -> usize {
        self.flows[fi].relay.as_ref().map_or(fi, |r| r.leg as usize)
    }

    /// The relay of split flow `wired` (its wired leg): its application
    /// reads what the relay buffer has room for and writes it to the
    /// wireless leg's sender. While the buffer is full it reads nothing and
    /// the wired receiver's window closes (the back-pressure of seed 000
    /// Sec. IV-D: the wired connection "stalls whenever the sender of the
    /// wireless connection experiences a timeout").
    pub(super) fn relay_pump(&mut self, wired: usize) {
        let Some(r) = self.flows[wired].relay.as_deref().copied() else { return };
        let leg = r.leg as usize;
        let mhp = self.flows[leg].mhp;
        let una = if mhp { self.mhp_acked(leg) } else { self.flows[leg].sender.snd_una() };
        let occupancy = r.written - una;
        let room = r.buffer_bytes.saturating_sub(occupancy);
        let n = self.flows[wired].receiver.unread_bytes().min(room);
        if n == 0 {
            return;
        }
        self.flows[wired].receiver.app_read(n);
        let written = r.written + n;
        self.flows[wired].relay =
            Some(Box::new(Relay { written, max_occupancy_bytes: r.max_occupancy_bytes.max(occupancy + n), ..r }));
        if mhp {
            // MHP's SRP carries it (`mhp`).
            self.flush_receiver(wired);
            self.mhp_flush(leg);
            return;
        }
        self.flows[leg].sender.on_app_write(written);
        self.flush_receiver(wired);
        self.flush_sender(leg);
    }

    /// The wireless leg of split flow `wired`.
    fn leg(&self, wired: usize) -> usize {
        self.flows[wired].relay.as_deref().expect("a split flow").leg as usize
    }

    /// M-TCP: the mobile host acknowledged data of split flow `wired`'s
    /// wireless leg: the source is acknowledged up to one byte short of it
    /// (nothing unless the wired receiver withholds its acks: `m-tcp`).
    pub(super) fn mtcp_release(&mut self, wired: usize) {
        let acked = self.flows[self.leg(wired)].sender.snd_una();
        if self.flows[wired].receiver.release_acks(acked) {
            self.flush_receiver(wired);
        }
    }

    /// M-TCP: split flow `wired`'s mobile host is disconnected. The source
    /// gets the withheld byte's ack with a zero window; the supervisor
    /// host's sender to the mobile host freezes its timers (F3) [I].
    pub(super) fn mtcp_disconnect(&mut self, wired: usize) {
        let now = self.sched.now();
        let leg = self.leg(wired);
        self.flows[wired].receiver.mtcp_disconnect();
        self.flush_receiver(wired);
        self.flows[leg].sender.freeze(now);
        self.flush_sender(leg);
    }

    /// M-TCP: split flow `wired`'s mobile host is back. Its sender thaws
    /// and sends again from the mobile host's last ack at once (F6, as
    /// I-TCP's after a move) [I]: what the outage caught is lost, and
    /// waiting out the rest of a frozen timer would hold the source's acks
    /// back until the source's own timer fired. A duplicate ack reopens the
    /// source's window.
    pub(super) fn mtcp_reconnect(&mut self, wired: usize) {
        let now = self.sched.now();
        let leg = self.leg(wired);
        self.flows[leg].sender.unfreeze(now);
        self.flows[leg].sender.reset_on_move(now, &mut self.trace);
        self.flush_sender(leg);
        self.flows[wired].receiver.mtcp_reconnect();
        self.flush_receiver(wired);
    }
}
