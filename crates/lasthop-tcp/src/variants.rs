//! TCP variants by name: each the triple of DESIGN.md (congestion control,
//! loss recovery, ack policy). The ack policy here is what the receiver's
//! acks carry ([`Acks`]: cumulative only, SACK blocks, SMART echoes); when
//! the receiver acks (at once, delayed, on BSD's tick) is the scenario's
//! `tcp.ack.policy`, the same for every variant, as it is a receiver's
//! setting in the stacks the papers ran. The one table where a name is
//! given to a combination; a scenario may also set `tcp.cc` and
//! `tcp.recovery` directly (the acks then follow the recovery,
//! [`Acks::for_recovery`]).
//!
//! Which recovery a seed-004 variant rides is not given by Yun 2009 (Sec.
//! 5.1: ns-2 built-in Reno, NewReno and SACK, "open-source" Westwood+ and
//! TCP-DCR, author-written Veno, Jersey, JTCP and TIBET), except Snoop's
//! NewReno ("We use NewReno when evaluating the performance of Snoop for
//! better performance"). lasthop runs them on NewReno, as Snoop's: the
//! recovery of ns-2's TCP of the time that does not need SACK, and that of
//! the ns-2 Westwood+ code (Poliba's `Agent/TCP/WestwoodNR`, a NewReno
//! subclass). No source decides it for Veno, Jersey, JTCP and TIBET \[R\].
//! CUBIC and BBR ride SACK recovery, as Linux runs them.

use crate::config::Variant;

/// What a receiver's acks carry beyond the cumulative ack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acks {
    /// The cumulative ack alone (RFC 793).
    Cumulative,
    /// SACK blocks (RFC 2018), which RFC 6675 recovery reads.
    Sack,
    /// SMART's echo of the segment that triggered the ack (seed 000 Sec. II).
    SmartEcho,
}

impl Acks {
    /// What `recovery` needs the acks to carry.
    pub const fn for_recovery(recovery: Variant) -> Acks {
        match recovery {
            Variant::Sack => Acks::Sack,
            Variant::Smart => Acks::SmartEcho,
            Variant::Tahoe | Variant::Reno | Variant::Newreno | Variant::Dcr => Acks::Cumulative,
        }
    }
}

/// A named variant: its congestion controller (a [`crate::cc::CcName`]
/// name), its loss recovery and what its receiver's acks carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantSpec {
    pub name: &'static str,
    pub cc: &'static str,
    pub recovery: Variant,
    pub acks: Acks,
}

const fn v(name: &'static str, cc: &'static str, recovery: Variant, acks: Acks) -> VariantSpec {
    VariantSpec { name, cc, recovery, acks }
}

pub const VARIANTS: &[VariantSpec] = &[
    v("tahoe", "reno", Variant::Tahoe, Acks::Cumulative),
    v("reno", "reno", Variant::Reno, Acks::Cumulative),
    v("newreno", "reno", Variant::Newreno, Acks::Cumulative),
    v("sack", "reno", Variant::Sack, Acks::Sack),
    v("smart", "reno", Variant::Smart, Acks::SmartEcho),
    // Seed 004 Sec. 2.3: Reno's window rules, NewReno's recovery held one RTT.
    v("dcr", "reno", Variant::Dcr, Acks::Cumulative),
    // Seed 004 Sec. 2.2's bandwidth-estimation and delay-based senders, and
    // the reviewed ones, on NewReno (module docs).
    v("westwood+", "westwood+", Variant::Newreno, Acks::Cumulative),
    v("tibet", "tibet", Variant::Newreno, Acks::Cumulative),
    v("ideal-bwe", "ideal-bwe", Variant::Newreno, Acks::Cumulative),
    v("veno", "veno", Variant::Newreno, Acks::Cumulative),
    v("jersey", "jersey", Variant::Newreno, Acks::Cumulative),
    v("jtcp", "jtcp", Variant::Newreno, Acks::Cumulative),
    v("newreno-ff", "newreno-ff", Variant::Newreno, Acks::Cumulative),
    v("santa-cruz", "santa-cruz", Variant::Newreno, Acks::Cumulative),
    v("vegas", "vegas", Variant::Newreno, Acks::Cumulative),
    // As Linux runs them: SACK recovery (the receiver sends SACK blocks).
    v("cubic", "cubic", Variant::Sack, Acks::Sack),
    v("bbr", "bbr", Variant::Sack, Acks::Sack),
    // Seed 002 Sec. 1 (Sinha et al. 1999): rate control at the receiver,
    // SACK holes retransmitted (elaarag-002.md Sec. 1.14, `cc::wtcp`).
    v("wtcp", "wtcp", Variant::Sack, Acks::Sack),
];

pub fn find(name: &str) -> Option<&'static VariantSpec> {
    VARIANTS.iter().find(|v| v.name == name)
}

pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::CcName;

    #[test]
    fn every_variant_names_a_controller_that_exists() {
        for v in VARIANTS {
            assert!(CcName::from_name(v.cc).is_some(), "{}: no controller '{}'", v.name, v.cc);
        }
        let mut names = names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), VARIANTS.len(), "names are unique");
    }

    /// A recovery that reads SACK blocks or SMART echoes gets them, and
    /// no variant makes its receiver send what its recovery ignores.
    #[test]
    fn every_variants_acks_carry_what_its_recovery_reads() {
        for v in VARIANTS {
            assert_eq!(v.acks, Acks::for_recovery(v.recovery), "{}", v.name);
        }
        assert_eq!(find("cubic").map(|v| v.acks), Some(Acks::Sack));
        assert_eq!(find("smart").map(|v| v.acks), Some(Acks::SmartEcho));
        assert_eq!(find("westwood+").map(|v| v.acks), Some(Acks::Cumulative));
    }
}
