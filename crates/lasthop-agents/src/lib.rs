//! lasthop-agents: sans-IO mechanisms that sit on a node between the two
//! ends of a connection (DESIGN.md, `LinkAgent`). Each is handed `now` and a
//! packet passing through its node; it may change it, forward it or absorb
//! it, emit packets of its own through `poll_transmit`, and ask for a timer
//! through `poll_at`/`on_timer`. The simulator and the live runner drive the
//! same code.
//!
//! - [`eln::ElnMarker`]: explicit loss notification generated at the base
//!   station (seed 000 Sec. V-B).
//! - [`snoop::Snoop`]: the snoop family, LL, LL-TCP-AWARE, LL-SMART and
//!   LL-SMART-TCP-AWARE (seed 000 Secs. II, III-B).

pub mod eln;
pub mod snoop;

use lasthop_core::{Packet, Time};
pub use snoop::{LocalRetransmit, Verdict};

/// The agents a node can run; built-ins dispatch through this enum.
#[derive(Clone, Debug)]
pub enum NodeAgent {
    Eln(eln::ElnMarker),
    Snoop(Box<snoop::Snoop>),
}

impl NodeAgent {
    /// A packet of some flow arrives at the node: forward it (possibly
    /// changed) or absorb it.
    #[inline]
    pub fn on_packet(&mut self, now: Time, pkt: &mut Packet) -> Verdict {
        match self {
            NodeAgent::Eln(m) => {
                m.on_packet(now, pkt);
                Verdict::Forward
            }
            NodeAgent::Snoop(s) => s.on_packet(now, pkt),
        }
    }

    /// A packet the agent sends itself (a local retransmission), to be
    /// forwarded from its node like any other; call until `None`.
    #[inline]
    pub fn poll_transmit(&mut self, now: Time) -> Option<LocalRetransmit> {
        match self {
            NodeAgent::Eln(_) => None,
            NodeAgent::Snoop(s) => s.poll_transmit(now),
        }
    }

    /// When the agent next needs `on_timer` ([`Time::NEVER`]: not at all).
    #[inline]
    pub fn poll_at(&self) -> Time {
        match self {
            NodeAgent::Eln(_) => Time::NEVER,
            NodeAgent::Snoop(s) => s.poll_at(),
        }
    }

    pub fn on_timer(&mut self, now: Time) {
        match self {
            NodeAgent::Eln(_) => {}
            NodeAgent::Snoop(s) => s.on_timer(now),
        }
    }

    /// The flow the agent watches.
    pub fn flow(&self) -> u32 {
        match self {
            NodeAgent::Eln(m) => m.flow(),
            NodeAgent::Snoop(s) => s.flow(),
        }
    }

    /// Segments retransmitted by the agent itself.
    pub fn local_retransmits(&self) -> u64 {
        match self {
            NodeAgent::Eln(_) => 0,
            NodeAgent::Snoop(s) => s.stats.local_retransmits,
        }
    }

    /// Duplicate acks the agent absorbed.
    pub fn dupacks_suppressed(&self) -> u64 {
        match self {
            NodeAgent::Eln(_) => 0,
            NodeAgent::Snoop(s) => s.stats.dupacks_suppressed,
        }
    }
}
