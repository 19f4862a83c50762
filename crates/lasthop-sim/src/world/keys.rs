//! The scheduler's timer keys ([`Scheduler::set_timer`]): one per
//! connection endpoint, node agent and shared medium, in one range, and
//! one for the schedule of link outages when there is one. The layout is
//! fixed when the world is wired and never changes: connection `c`'s
//! sender at `2·c` and its receiver at `2·c + 1`, then agent `k` at
//! `2·connections + k`, then medium `m` after the agents, then the
//! schedule. Each key has one
//! armed wake-up at a time (the scheduler bumps its generation on every
//! arming); what runs first among simultaneous events is decided by the
//! scheduler's insertion counter, not by these values, which runs are
//! nevertheless pinned to (the digest).
//!
//! [`Scheduler::set_timer`]: crate::scheduler::Scheduler::set_timer

/// An endpoint of a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// Its key is `2·conn`.
    Sender = 0,
    /// Its key is `2·conn + 1`.
    Receiver = 1,
}

/// A timer key, as the scheduler's `Wake` events carry it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TimerKey(u32);

impl TimerKey {
    /// The key a `Wake` event carries.
    #[inline(always)]
    pub(super) fn of_wake(endpoint: u32) -> TimerKey {
        TimerKey(endpoint)
    }

    /// The key to arm in the scheduler.
    #[inline(always)]
    pub(super) fn raw(self) -> u32 {
        self.0
    }

    /// Connection `conn`'s `side` (the one kind of key that needs no
    /// layout: endpoints come first).
    #[inline(always)]
    pub(super) fn endpoint(conn: usize, side: Side) -> TimerKey {
        TimerKey((2 * conn + side as usize) as u32)
    }
}

/// What a timer key wakes: an index into the world's connections, agents
/// or media.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    Endpoint {
        conn: usize,
        side: Side,
    },
    Agent(usize),
    Medium(usize),
    /// The next change of the link outages' schedule.
    Schedule,
}

/// How a world's timer keys are laid out (see the module's header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TimerKeys {
    /// The first agent's key (2·connections).
    agents_at: usize,
    /// The first medium's key.
    media_at: usize,
    /// One past the last medium's key (the schedule's, if there is one).
    media_end: usize,
    /// One past the last key.
    end: usize,
}

impl TimerKeys {
    #[inline(always)]
    pub(super) fn new(connections: usize, agents: usize, media: usize, schedule: bool) -> TimerKeys {
        let agents_at = 2 * connections;
        let media_end = agents_at + agents + media;
        TimerKeys { agents_at, media_at: agents_at + agents, media_end, end: media_end + usize::from(schedule) }
    }

    /// How many keys the scheduler keeps.
    pub(super) fn count(self) -> usize {
        self.end
    }

    /// Agent `k`'s key (its index in the world's agents).
    #[inline(always)]
    pub(super) fn agent(self, k: usize) -> TimerKey {
        debug_assert!(self.agents_at + k < self.media_at, "agent {k} of {}", self.media_at - self.agents_at);
        TimerKey((self.agents_at + k) as u32)
    }

    /// Medium `m`'s key.
    #[inline(always)]
    pub(super) fn medium(self, m: usize) -> TimerKey {
        debug_assert!(self.media_at + m < self.media_end, "medium {m} of {}", self.media_end - self.media_at);
        TimerKey((self.media_at + m) as u32)
    }

    /// The outages' schedule's key (there must be one).
    pub(super) fn schedule(self) -> TimerKey {
        debug_assert!(self.media_end < self.end, "a schedule");
        TimerKey(self.media_end as u32)
    }

    /// What `key` wakes.
    #[inline(always)]
    pub(super) fn kind(self, key: TimerKey) -> Timer {
        let k = key.0 as usize;
        debug_assert!(k < self.end, "key {k} of {}", self.end);
        if k >= self.media_at {
            if k >= self.media_end {
                return Timer::Schedule;
            }
            Timer::Medium(k - self.media_at)
        } else if k >= self.agents_at {
            Timer::Agent(k - self.agents_at)
        } else {
            let side = match k % 2 {
                0 => Side::Sender,
                _ => Side::Receiver,
            };
            Timer::Endpoint { conn: k / 2, side }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of key decodes to what made it, at the values the
    /// hand-computed keys had (issue 32: runs are pinned to them), and the
    /// keys fill the range the scheduler keeps, once each.
    #[test]
    fn every_kind_of_key_decodes_to_what_made_it_at_its_old_value() {
        for (conns, agents, media, schedule) in
            [(3, 2, 2, false), (1, 0, 0, true), (2, 0, 1, false), (2, 3, 0, true), (0, 0, 1, true)]
        {
            let keys = TimerKeys::new(conns, agents, media, schedule);
            assert_eq!(keys.count(), 2 * conns + agents + media + usize::from(schedule));
            let mut made = Vec::new();
            for c in 0..conns {
                for (side, s) in [(Side::Sender, 0), (Side::Receiver, 1)] {
                    let key = TimerKey::endpoint(c, side);
                    assert_eq!(key.raw() as usize, 2 * c + s);
                    assert_eq!(keys.kind(key), Timer::Endpoint { conn: c, side });
                    made.push(key.raw());
                }
            }
            for k in 0..agents {
                let key = keys.agent(k);
                assert_eq!(key.raw() as usize, 2 * conns + k);
                assert_eq!(keys.kind(key), Timer::Agent(k));
                made.push(key.raw());
            }
            for m in 0..media {
                let key = keys.medium(m);
                assert_eq!(key.raw() as usize, 2 * conns + agents + m);
                assert_eq!(keys.kind(key), Timer::Medium(m));
                assert_eq!(TimerKey::of_wake(key.raw()), key);
                made.push(key.raw());
            }
            if schedule {
                assert_eq!(keys.kind(keys.schedule()), Timer::Schedule);
                made.push(keys.schedule().raw());
            }
            assert_eq!(made, (0..keys.count() as u32).collect::<Vec<_>>(), "{conns}/{agents}/{media}");
        }
    }
}
