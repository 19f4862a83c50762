//! The schemes of the source documents, by their paper names.
//!
//! A scheme is what seed 000 compares: a choice of sender, receiver options
//! and base-station agent. The names are the paper's in lower case (seed
//! 000's, and seed 004's `snoop`). Schemes not yet built are not listed:
//! naming one is an error, never a fallback.

use lasthop_agents::snoop::SnoopConfig;
use lasthop_core::time::NS_PER_MS;
use lasthop_tcp::{ElnResponse, Variant};

/// What a scheme runs at the base station (the node before the receiver).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseStationAgent {
    /// Nothing: the base station only forwards.
    None,
    /// A snoop-family agent (seed 000 Sec. III-B); the SMART variants also
    /// make the mobile host send SMART echoes.
    Snoop(SnoopConfig),
    /// A split connection (seed 000 Sec. III-C, I-TCP): the base station
    /// terminates the source's connection and runs a second one, with this
    /// sender variant, to the mobile host.
    Split { wireless: Variant },
}

/// What a scheme sets on a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub name: &'static str,
    pub variant: Variant,
    pub eln: ElnResponse,
    pub base_station: BaseStationAgent,
}

const fn scheme(name: &'static str, variant: Variant, eln: ElnResponse) -> Scheme {
    Scheme { name, variant, eln, base_station: BaseStationAgent::None }
}

/// A link-layer scheme: a TCP Reno source ("the E2E protocol ... as the
/// standard basis", Sec. III-A) and a snoop-family agent at the base station.
/// A split-connection scheme: a TCP Reno source, and the base station's own
/// connection to the mobile host with `wireless` as its sender.
const fn split(name: &'static str, wireless: Variant) -> Scheme {
    Scheme { name, variant: Variant::Reno, eln: ElnResponse::Off, base_station: BaseStationAgent::Split { wireless } }
}

const fn link_layer(name: &'static str, snoop: SnoopConfig) -> Scheme {
    Scheme { name, variant: Variant::Reno, eln: ElnResponse::Off, base_station: BaseStationAgent::Snoop(snoop) }
}

/// Seed 000 Sec. III-A and Table I. E2E is TCP Reno; E2E-NEWRENO adds
/// partial-ack recovery; E2E-SMART and E2E-IETF-SACK add selective acks with
/// Reno's window rules; E2E-ELN and E2E-ELN-RXMT retransmit on ELN-marked
/// duplicates (third, first) without cutting the window. E2E-SACK-ELN is the
/// combination the paper names as future work.
///
/// Seed 000 Sec. III-B: LL, LL-TCP-AWARE (snoop), LL-SMART and
/// LL-SMART-TCP-AWARE, the link-layer schemes of Table II.
///
/// Seed 000 Sec. III-C: SPLIT (Reno on the wireless connection) and
/// SPLIT-SMART (SMART on it), the split-connection schemes of Table IV.
pub const SCHEMES: &[Scheme] = &[
    scheme("e2e", Variant::Reno, ElnResponse::Off),
    scheme("e2e-newreno", Variant::Newreno, ElnResponse::Off),
    scheme("e2e-smart", Variant::Smart, ElnResponse::Off),
    scheme("e2e-ietf-sack", Variant::Sack, ElnResponse::Off),
    scheme("e2e-eln", Variant::Reno, ElnResponse::ThirdDupack),
    scheme("e2e-eln-rxmt", Variant::Reno, ElnResponse::FirstDupack),
    scheme("e2e-sack-eln", Variant::Sack, ElnResponse::ThirdDupack),
    link_layer("ll", SnoopConfig::LL),
    link_layer("ll-tcp-aware", SnoopConfig::LL_TCP_AWARE),
    link_layer("ll-smart", SnoopConfig::LL_SMART),
    link_layer("ll-smart-tcp-aware", SnoopConfig::LL_SMART_TCP_AWARE),
    split("split", Variant::Reno),
    split("split-smart", Variant::Smart),
    SNOOP_NEWRENO,
];

/// Seed 004's Snoop (Yun 2009 Sec. 5.1): "We use NewReno when evaluating the
/// performance of Snoop for better performance", with ns-2's built-in Snoop
/// agent (Sec. 5.1: "We use the built-in modules for ... Snoop"). The agent
/// is seed 000's LL-TCP-AWARE; its timer takes ns-2.35's defaults
/// (`tcl/lan/ns-ll.tcl`), as the paper gives none [N]: `snoopTick_` 0.1 s,
/// the least timeout (seed 000's testbed: 200 ms), and `srtt_` 0.1 s,
/// `rttvar_` 0.25 s before a sample, so a first timeout of
/// 0.1 + 4·0.25 = 1.1 s. Departure: ns-2 smooths the variance with `g_`
/// (1/8) as well as the mean; the agent here uses RFC 6298's 1/4.
/// Placement: where the flow's data goes onto its wireless hop (see
/// `scenario::model`), the access point downlink and "the wireless station
/// by symmetric operation" uplink (Sec. 5.2).
const SNOOP_NEWRENO: Scheme = Scheme {
    name: "snoop",
    variant: Variant::Newreno,
    eln: ElnResponse::Off,
    base_station: BaseStationAgent::Snoop(SnoopConfig {
        min_rto_ns: 100 * NS_PER_MS,
        initial_rto_ns: 1100 * NS_PER_MS,
        ..SnoopConfig::LL_TCP_AWARE
    }),
};

pub fn find(name: &str) -> Option<&'static Scheme> {
    SCHEMES.iter().find(|s| s.name == name)
}

pub fn names() -> Vec<&'static str> {
    SCHEMES.iter().map(|s| s.name).collect()
}
