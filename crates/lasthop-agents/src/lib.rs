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
//! - [`ack_recons::AckRecons`]: ACK reconstruction at the far end of a
//!   constrained reverse link (seed 001 Sec. 6.4).
//! - [`bad_state::BadState`]: local recovery that tells the source its link
//!   is bad, by EBSN or by ECN-Echo on the acks (seed 002 Sec. 5.2).
//! - [`snoop_nack::SnoopNack`]: snoop's NACKs for data from the mobile host
//!   (the snoop 1995 paper, Sec. 3; seed 002 Sec. 5.1).
//! - [`group::GroupBuffer`]: the copies snoop's buffering base stations keep
//!   for a handoff (the snoop 1995 paper, Secs. 4-6; seed 002 Sec. 5.1).

pub mod ack_recons;
pub mod bad_state;
pub mod eln;
pub mod group;
pub mod snoop;
pub mod snoop_nack;

use lasthop_core::{Packet, Time};
pub use snoop::LocalRetransmit;

/// What an agent does with a packet passing through its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Send it on (possibly changed).
    Forward,
    /// Consume it here (a suppressed duplicate ack).
    Absorb,
    /// Keep it for now: it leaves later through `poll_transmit` as
    /// [`Origin::Released`] (a real ack held behind reconstructed ones).
    Hold,
}

/// Where a packet leaving an agent comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A segment the agent sent again from its cache (snoop); `by_timer`
    /// when its local timer caused it.
    LocalRetransmit { by_timer: bool },
    /// An ack the agent made (ACK reconstruction).
    ReconstructedAck,
    /// A packet the agent held ([`Verdict::Hold`]) and now lets go.
    Released,
    /// A control message the agent sends (an EBSN, a NACK).
    Notice,
    /// A segment a new primary base station sends from its buffer at a
    /// handoff (snoop's multicast handoff; [`group::GroupBuffer`]).
    Replayed,
}

/// A packet leaving an agent, to be forwarded from its node.
#[derive(Clone, Copy, Debug)]
pub struct AgentOutput {
    pub pkt: Packet,
    pub origin: Origin,
}

impl AgentOutput {
    /// The agent made it (a packet the network did not carry before).
    pub fn is_created(&self) -> bool {
        self.origin != Origin::Released
    }
}

/// The agents a node can run; built-ins dispatch through this enum.
#[derive(Clone, Debug)]
pub enum NodeAgent {
    Eln(eln::ElnMarker),
    Snoop(Box<snoop::Snoop>),
    AckRecons(Box<ack_recons::AckRecons>),
    BadState(Box<bad_state::BadState>),
    SnoopNack(Box<snoop_nack::SnoopNack>),
    Group(Box<group::GroupBuffer>),
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
            NodeAgent::AckRecons(r) => r.on_packet(now, pkt),
            NodeAgent::BadState(b) => b.on_packet(now, pkt),
            NodeAgent::SnoopNack(n) => {
                n.on_packet(now, pkt);
                Verdict::Forward
            }
            NodeAgent::Group(g) => {
                g.on_packet(now, pkt);
                Verdict::Forward
            }
        }
    }

    /// A packet leaving the agent (a local retransmission, a reconstructed
    /// ack, a held packet let go), to be forwarded from its node like any
    /// other; call until `None`.
    #[inline]
    pub fn poll_transmit(&mut self, now: Time) -> Option<AgentOutput> {
        match self {
            NodeAgent::Eln(_) | NodeAgent::Group(_) => None,
            NodeAgent::Snoop(s) => s.poll_transmit(now).map(|r| {
                let origin =
                    if r.replayed { Origin::Replayed } else { Origin::LocalRetransmit { by_timer: r.by_timer } };
                AgentOutput { pkt: r.pkt, origin }
            }),
            NodeAgent::AckRecons(r) => r.poll_transmit(now).map(|o| match o {
                ack_recons::AckOut::Reconstructed(pkt) => AgentOutput { pkt, origin: Origin::ReconstructedAck },
                ack_recons::AckOut::Released(pkt) => AgentOutput { pkt, origin: Origin::Released },
            }),
            NodeAgent::BadState(b) => b.poll_transmit(now).map(|o| match o {
                bad_state::BadStateOut::Retransmit(r) => {
                    AgentOutput { pkt: r.pkt, origin: Origin::LocalRetransmit { by_timer: r.by_timer } }
                }
                bad_state::BadStateOut::Ebsn(pkt) => AgentOutput { pkt, origin: Origin::Notice },
            }),
            NodeAgent::SnoopNack(n) => n.poll_transmit(now).map(|pkt| AgentOutput { pkt, origin: Origin::Notice }),
        }
    }

    /// When the agent next needs `on_timer` ([`Time::NEVER`]: not at all).
    #[inline]
    pub fn poll_at(&self) -> Time {
        match self {
            NodeAgent::Eln(_) | NodeAgent::Group(_) => Time::NEVER,
            NodeAgent::Snoop(s) => s.poll_at(),
            NodeAgent::AckRecons(r) => r.poll_at(),
            NodeAgent::BadState(b) => b.poll_at(),
            NodeAgent::SnoopNack(n) => n.poll_at(),
        }
    }

    pub fn on_timer(&mut self, now: Time) {
        match self {
            NodeAgent::Eln(_) | NodeAgent::Group(_) => {}
            NodeAgent::Snoop(s) => s.on_timer(now),
            // Due acks leave through `poll_transmit`; nothing else is timed.
            NodeAgent::AckRecons(_) => {}
            NodeAgent::BadState(b) => b.on_timer(now),
            NodeAgent::SnoopNack(n) => n.on_timer(now),
        }
    }

    /// The flow the agent watches.
    pub fn flow(&self) -> u32 {
        match self {
            NodeAgent::Eln(m) => m.flow(),
            NodeAgent::Snoop(s) => s.flow(),
            NodeAgent::AckRecons(r) => r.flow(),
            NodeAgent::BadState(b) => b.flow(),
            NodeAgent::SnoopNack(n) => n.flow(),
            NodeAgent::Group(g) => g.flow(),
        }
    }

    /// Segments retransmitted by the agent itself.
    pub fn local_retransmits(&self) -> u64 {
        match self {
            NodeAgent::Eln(_) | NodeAgent::SnoopNack(_) | NodeAgent::Group(_) => 0,
            NodeAgent::Snoop(s) => s.stats.local_retransmits,
            NodeAgent::AckRecons(_) => 0,
            NodeAgent::BadState(b) => b.local().stats.local_retransmits,
        }
    }

    /// Duplicate acks the agent absorbed.
    pub fn dupacks_suppressed(&self) -> u64 {
        match self {
            NodeAgent::Eln(_) | NodeAgent::SnoopNack(_) | NodeAgent::Group(_) => 0,
            NodeAgent::Snoop(s) => s.stats.dupacks_suppressed,
            NodeAgent::AckRecons(_) => 0,
            NodeAgent::BadState(b) => b.local().stats.dupacks_suppressed,
        }
    }

    /// Segments retransmitted both by the agent and by the source (snoop
    /// family); `None` for agents that do not retransmit.
    pub fn double_retransmits(&self) -> Option<u64> {
        match self {
            NodeAgent::Snoop(s) => Some(s.stats.double_retransmits),
            NodeAgent::BadState(b) => Some(b.local().stats.double_retransmits),
            NodeAgent::Eln(_) | NodeAgent::AckRecons(_) | NodeAgent::SnoopNack(_) | NodeAgent::Group(_) => None,
        }
    }

    /// NACKs the agent sent (snoop's NACKs, scheme `snoop-nack`): on the
    /// threshold, and on the idle timer; `None` for other agents.
    pub fn nacks(&self) -> Option<(u64, u64)> {
        match self {
            NodeAgent::SnoopNack(n) => Some((n.stats.nacks_threshold, n.stats.nacks_idle)),
            _ => None,
        }
    }

    /// Acks the agent made (ACK reconstruction).
    pub fn acks_reconstructed(&self) -> u64 {
        match self {
            NodeAgent::AckRecons(r) => r.stats.acks_reconstructed,
            _ => 0,
        }
    }

    /// EBSNs the agent sent and acks it marked with ECN-Echo (seed 002's
    /// bad-state notices).
    pub fn bad_state_notices(&self) -> (u64, u64) {
        match self {
            NodeAgent::BadState(b) => (b.stats.ebsns_sent, b.stats.acks_marked),
            _ => (0, 0),
        }
    }

    /// Packets the agent holds now ([`Verdict::Hold`], not yet released).
    pub fn held(&self) -> u64 {
        match self {
            NodeAgent::AckRecons(r) => r.held() as u64,
            _ => 0,
        }
    }

    /// Held packets the agent discarded since (a real ack superseded by a
    /// newer one before it left): like absorbed ones, they end here.
    pub fn discarded(&self) -> u64 {
        match self {
            NodeAgent::AckRecons(r) => r.stats.real_acks_superseded,
            _ => 0,
        }
    }
}
