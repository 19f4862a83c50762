//! lasthop-agents: sans-IO mechanisms that sit on a node between the two
//! ends of a connection (DESIGN.md, `LinkAgent`). Each is handed `now` and a
//! packet passing through its node and may change it; the simulator and the
//! live runner drive the same code.
//!
//! - [`eln::ElnMarker`]: explicit loss notification generated at the base
//!   station (seed 000 Sec. V-B).

pub mod eln;

use lasthop_core::{Packet, Time};

/// The agents a node can run; built-ins dispatch through this enum.
#[derive(Clone, Debug)]
pub enum NodeAgent {
    Eln(eln::ElnMarker),
}

impl NodeAgent {
    /// A packet of some flow passes through the node and is forwarded,
    /// possibly changed. (Agents that absorb or emit packets, as snoop will,
    /// extend this with an output.)
    #[inline]
    pub fn on_packet(&mut self, now: Time, pkt: &mut Packet) {
        match self {
            NodeAgent::Eln(m) => m.on_packet(now, pkt),
        }
    }
}
