//! Background traffic sources: open-loop (non-TCP) senders of datagrams
//! along a flow's path, the cross traffic of seed 004's experiments. One
//! file per member, enum dispatch in [`Source`]:
//!
//! - [`pareto`]: ns-2's `Application/Traffic/Pareto` on/off source (Yun
//!   2009 Sec. 5.2: "Pareto on/off traffic ... along the TCP path").
//! - [`wap`]: page fetches through a WAP gateway (seed 002 Sec. 5.3), or
//!   by HTTP over TCP: not open-loop; the world drives it (`world/wap.rs`)
//!   and its datagrams go both ways, so `poll_transmit` yields nothing.
//!
//! A source is sans-IO like a TCP sender: the world starts and stops it,
//! wakes it at [`Source::poll_at`], and takes the datagrams it has to send
//! from [`Source::poll_transmit`] (their sizes, in bytes). Datagrams are
//! never acknowledged; the receiving end only counts them.

pub mod pareto;
pub mod wap;

pub use pareto::{ParetoConfig, ParetoSource};

use lasthop_core::Time;

/// A background traffic source.
// (The enum lives boxed in its flow's state; a wap workload, larger, is
// boxed again so that a Pareto flow's box stays as it was.)
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Source {
    Pareto(ParetoSource),
    Wap(Box<wap::WapWorkload>),
}

impl Source {
    /// The application starts at `now`.
    pub fn start(&mut self, now: Time) {
        match self {
            Source::Pareto(p) => p.start(now),
            Source::Wap(w) => w.start_due = true,
        }
    }

    /// The application stops: nothing more is sent.
    pub fn stop(&mut self) {
        match self {
            Source::Pareto(p) => p.stop(),
            Source::Wap(_) => {}
        }
    }

    /// When the source next has something to send ([`Time::NEVER`]: never).
    pub fn poll_at(&self) -> Time {
        match self {
            Source::Pareto(p) => p.poll_at(),
            Source::Wap(w) => w.poll_at(),
        }
    }

    /// Datagrams handed out so far.
    pub fn sent(&self) -> u64 {
        match self {
            Source::Pareto(p) => p.sent,
            Source::Wap(w) => w.report.datagrams_sent,
        }
    }

    /// Bursts begun so far (on/off sources).
    pub fn bursts(&self) -> u64 {
        match self {
            Source::Pareto(p) => p.bursts,
            // Pages fetched.
            Source::Wap(w) => w.report.pages.iter().filter(|p| p.outcome == Some(wap::PageEnd::Fetched)).count() as u64,
        }
    }

    /// The size of every datagram it sends, in bytes.
    pub fn packet_bytes(&self) -> u32 {
        match self {
            Source::Pareto(p) => p.config().packet_bytes,
            // Its receiving end counts datagrams, not bytes.
            Source::Wap(_) => 1,
        }
    }

    /// The size of the next datagram due at or before `now`, if any.
    pub fn poll_transmit(&mut self, now: Time) -> Option<u32> {
        match self {
            Source::Pareto(p) => p.poll_transmit(now),
            Source::Wap(_) => None,
        }
    }
}
