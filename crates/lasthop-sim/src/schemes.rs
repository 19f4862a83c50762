//! The schemes of the source documents, by their paper names.
//!
//! A scheme is what seed 000 compares: a choice of sender, receiver options
//! and base-station agent. The names are the paper's in lower case (seed
//! 000's, and seed 004's `snoop`). Schemes not yet built are not listed:
//! naming one is an error, never a fallback.

use lasthop_agents::bad_state::BadStateNotice;
use lasthop_agents::snoop::{SnoopConfig, SnoopRtt};
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
    /// sender variant, to the mobile host. With `mtcp`, M-TCP's supervisor
    /// host (seed 002 Sec. 5.3): acks to the source withheld to the mobile
    /// host's less a byte, and a zero window while it is disconnected.
    Split { wireless: Variant, mtcp: bool },
    /// Local recovery that tells the source its link is bad (seed 002 Sec.
    /// 5.2): EBSN or ECN-Echo on the acks (`lasthop_agents::bad_state`).
    BadState(SnoopConfig, BadStateNotice),
    /// MTCP's MHP (seed 002 Sec. 5.3, Yavatkar and Bhagwat 1994): a split
    /// connection as `Split`'s, whose wireless side is SRP between the base
    /// station's MHP and the mobile host's (`crate::world::mhp`), or TCP
    /// when the flow's `tcp.mtcp.transport` says so.
    Mhp,
    /// Snoop's NACKs for data from the mobile host (the snoop 1995 paper,
    /// Sec. 3; `lasthop_agents::snoop_nack`): the base station SACKs what
    /// reached it to the mobile sender.
    Nack,
}

/// What a scheme sets on a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub name: &'static str,
    /// The loss recovery (a `Variant`'s recovery part).
    pub variant: Variant,
    /// The congestion controller's name (`lasthop_tcp::cc::CcName`).
    pub cc: &'static str,
    pub eln: ElnResponse,
    pub base_station: BaseStationAgent,
}

const fn scheme(name: &'static str, variant: Variant, eln: ElnResponse) -> Scheme {
    Scheme { name, cc: "reno", variant, eln, base_station: BaseStationAgent::None }
}

/// A link-layer scheme: a TCP Reno source ("the E2E protocol ... as the
/// standard basis", Sec. III-A) and a snoop-family agent at the base station.
/// A split-connection scheme: a TCP Reno source, and the base station's own
/// connection to the mobile host with `wireless` as its sender.
const fn split(name: &'static str, wireless: Variant) -> Scheme {
    Scheme {
        name,
        cc: "reno",
        variant: Variant::Reno,
        eln: ElnResponse::Off,
        base_station: BaseStationAgent::Split { wireless, mtcp: false },
    }
}

/// Seed 002 Sec. 5.3: M-TCP (Brown and Singh, "M-TCP: TCP for mobile
/// cellular networks", ACM CCR 27(5), 1997; elaarag-002.md Sec. 1.12). The
/// connection is split at the supervisor host (here the base station): a
/// TCP Reno source, and the supervisor host's own connection to the mobile
/// host. What makes it M-TCP and not I-TCP: the supervisor host
/// acknowledges to the source only what the mobile host has acknowledged,
/// less one byte (end-to-end semantics kept); when the mobile host
/// disconnects it acknowledges that byte with a zero window, and the
/// source persists with its window and timers as they were; when the host
/// is back a duplicate ack reopens the window. [I] lasthop's choices where
/// the survey and the authors' page are silent: the supervisor host learns
/// of a disconnection and a reconnection when the wireless link goes down
/// and up (a link-layer notice; the paper also detects it from a missing
/// ack); its sender to the mobile host freezes its timers meanwhile (F3,
/// as the M-TCP client does at the mobile host) and is Reno with local
/// recovery (the paper's bandwidth manager and fixed wireless window are
/// not built); handoff between supervisor hosts is not modelled.
const M_TCP: Scheme = Scheme {
    name: "m-tcp",
    cc: "reno",
    variant: Variant::Reno,
    eln: ElnResponse::Off,
    base_station: BaseStationAgent::Split { wireless: Variant::Reno, mtcp: true },
};

const fn link_layer(name: &'static str, snoop: SnoopConfig) -> Scheme {
    Scheme {
        name,
        cc: "reno",
        variant: Variant::Reno,
        eln: ElnResponse::Off,
        base_station: BaseStationAgent::Snoop(snoop),
    }
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
    bad_state("ebsn", BadStateNotice::Ebsn),
    bad_state("ecn-bs", BadStateNotice::EcnBs),
    M_TCP,
    SNOOP_NACK,
    MTCP,
];

/// Seed 002 Sec. 5.3: MTCP (Yavatkar and Bhagwat, "Improving end-to-end
/// performance of TCP over mobile internetworks", WMCSA 1994;
/// elaarag-002.md Sec. 1.10; not Brown and Singh's M-TCP, `m-tcp`). The
/// session layer MHP splits the connection at the base station as I-TCP
/// does [S]: the source's TCP (Reno [I], as every scheme's here) ends at
/// the base station, which acknowledges data before the mobile host has it
/// (end-to-end semantics broken, MHP-2); the wireless side between the two
/// MHPs is SRP, selective repeat [S] (`lasthop_net::arq::srp`, its rules
/// and markings there), re-segmented to a wireless segment size [I]; or
/// TCP, the survey's other option [S] (`tcp.mtcp.transport = "tcp"`: the
/// `split` relay's Reno leg). At a handoff MHP's state, buffers included,
/// moves to the new base station [S] (I-TCP's state-transfer message,
/// sized by SRP's state and the relay's bytes; `world::mobility`).
const MTCP: Scheme = Scheme {
    name: "mtcp",
    cc: "reno",
    variant: Variant::Reno,
    eln: ElnResponse::Off,
    base_station: BaseStationAgent::Mhp,
};

/// Seed 002 Sec. 5.1 (quoting Balakrishnan, Seshan, Amir, Katz, ACM
/// Wireless Networks 1(4) 1995, Sec. 3; elaarag-002.md SNOOP-NACK): for
/// data from the mobile host, the base station sends it NACKs as TCP SACK
/// blocks (`lasthop_agents::snoop_nack`). "The only change at the MH: SACK
/// processing": the mobile sender runs RFC 6675 recovery; the fixed host is
/// unchanged, its acks cumulative only (no SACK blocks of its own). The
/// agent is at the far end of the sender's first hop, the mobile sender's
/// base station. The scheme is for data from the mobile host: on a flow
/// from a fixed host the agent would report the holes of that host's first
/// hop, and its sender would see no SACK blocks but those.
const SNOOP_NACK: Scheme = Scheme {
    name: "snoop-nack",
    cc: "reno",
    variant: Variant::Sack,
    eln: ElnResponse::Off,
    base_station: BaseStationAgent::Nack,
};

/// Seed 002 Sec. 5.2: EBSN (Bakshi, Krishna, Vaidya, Pradhan, ICDCS 1997)
/// and the survey's ECN-at-the-base-station comparator. The base station
/// recovers losses locally with seed 000's LL agent (no duplicate ack
/// suppressed) retrying without limit, as the primary's link layer does
/// (elaarag-002.md EBSN-1 [K]); `tcp.base_station_max_local_rexmits`
/// lowers it. The source is TCP Reno, as every scheme's here (seed 000's
/// basis; the survey names none for EBSN); ECN-BS makes it ECN-capable,
/// which it needs to answer ECN-Echo.
const fn bad_state(name: &'static str, notice: BadStateNotice) -> Scheme {
    Scheme {
        name,
        cc: "reno",
        variant: Variant::Reno,
        eln: ElnResponse::Off,
        base_station: BaseStationAgent::BadState(
            SnoopConfig { max_local_rexmits: u32::MAX, ..SnoopConfig::LL },
            notice,
        ),
    }
}

/// Seed 004's Snoop (Yun 2009 Sec. 5.1): "We use NewReno when evaluating the
/// performance of Snoop for better performance", with ns-2's built-in Snoop
/// agent (Sec. 5.1: "We use the built-in modules for ... Snoop"). The agent
/// is seed 000's LL-TCP-AWARE with ns-2's round-trip estimator and timer
/// ([`SnoopRtt::Ns2`]; the paper gives none [N]): ns-2.35's
/// `Snoop::snoop_rtt` (`tcp/snoop.cc:657-677`), whose gain `g_` (1/8)
/// weighs the old estimate and gives the new sample 7/8, with the deviation
/// taken against the updated `srtt_`; the start of `tcl/lan/ns-ll.tcl:66-77`
/// (`srtt_` 0.1 s, `rttvar_` 0.25 s, never reset at the first sample, so a
/// first timeout of 0.1 + 4·0.25 = 1.1 s and about srtt + 0.9 s after the
/// first sample); samples from every new ack, retransmitted segments
/// included (`snoop.cc:630-631`, `:733`); and a timeout of
/// max(`srtt_` + 4·`rttvar_`, `snoopTick_`) (`snoop.h:143-148`) with
/// `snoopTick_` 0.1 s (seed 000's testbed: 200 ms). This code is the ns-2 of
/// 2009 too: ns-2's CVS history (GitHub `Raj64742/ns2`) changes
/// `tcp/snoop.{cc,h}` between 2003 (`b7093381`) and 2012 only in their
/// licence text and an unused parameter name, and the snoop lines of
/// `ns-ll.tcl` not at all. Departures of the estimator: module docs of
/// `lasthop_agents::snoop`. Placement: where the flow's data goes onto its
/// wireless hop (see `scenario::model`), the access point downlink and "the
/// wireless station by symmetric operation" uplink (Sec. 5.2).
const SNOOP_NEWRENO: Scheme = Scheme {
    name: "snoop",
    cc: "reno",
    variant: Variant::Newreno,
    eln: ElnResponse::Off,
    base_station: BaseStationAgent::Snoop(SnoopConfig {
        estimator: SnoopRtt::Ns2,
        min_rto_ns: 100 * NS_PER_MS,
        ..SnoopConfig::LL_TCP_AWARE
    }),
};

pub fn find(name: &str) -> Option<&'static Scheme> {
    SCHEMES.iter().find(|s| s.name == name)
}

pub fn names() -> Vec<&'static str> {
    SCHEMES.iter().map(|s| s.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_004s_snoop_runs_ns2s_estimator_and_seed_000s_rfc_6298() {
        let cfg = |name| match find(name).map(|s| s.base_station) {
            Some(BaseStationAgent::Snoop(c)) => c,
            other => panic!("{name}: {other:?}"),
        };
        let snoop = cfg("snoop");
        assert_eq!((snoop.estimator, snoop.min_rto_ns), (SnoopRtt::Ns2, 100 * NS_PER_MS));
        for name in ["ll", "ll-tcp-aware", "ll-smart", "ll-smart-tcp-aware"] {
            assert_eq!(cfg(name).estimator, SnoopRtt::Rfc6298, "{name}");
        }
    }
}
