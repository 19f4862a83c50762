//! The split relay (seed 000 Sec. III-C, I-TCP): the base station's buffer
//! between a split flow's wired and wireless legs.

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
        let occupancy = r.written - self.flows[leg].sender.snd_una();
        let room = r.buffer_bytes.saturating_sub(occupancy);
        let n = self.flows[wired].receiver.unread_bytes().min(room);
        if n == 0 {
            return;
        }
        self.flows[wired].receiver.app_read(n);
        let written = r.written + n;
        self.flows[wired].relay =
            Some(Box::new(Relay { written, max_occupancy_bytes: r.max_occupancy_bytes.max(occupancy + n), ..r }));
        self.flows[leg].sender.on_app_write(written);
        self.flush_receiver(wired);
        self.flush_sender(leg);
    }
}
