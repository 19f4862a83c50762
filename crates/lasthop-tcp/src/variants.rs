//! TCP variants by name: each a (congestion control, loss recovery) pair,
//! the ack policy following from the recovery (SACK blocks for `sack`,
//! SMART echoes for `smart`). DESIGN.md: "A TCP variant is a named triple".
//! The one table where a name is given to a combination; a scenario may
//! also set `tcp.cc` and `tcp.recovery` directly.
//!
//! Which recovery a seed-004 variant rides is not given by Yun 2009 (Sec.
//! 5.1: ns-2 built-in Reno, NewReno and SACK, "open-source" Westwood+ and
//! TCP-DCR, author-written Veno, Jersey, JTCP and TIBET), except Snoop's
//! NewReno ("We use NewReno when evaluating the performance of Snoop for
//! better performance"). lasthop runs them on NewReno, as Snoop's: the
//! recovery of ns-2's TCP of the time that does not need SACK, and that of
//! the ns-2 Westwood+ code (Poliba's `Agent/TCP/WestwoodNR`, a NewReno
//! subclass). No source decides it for Veno, Jersey, JTCP and TIBET [R].
//! CUBIC and BBR ride SACK recovery, as Linux runs them.

use crate::config::Variant;

/// A named variant: its congestion controller (a [`crate::cc::CcName`]
/// name) and its loss recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantSpec {
    pub name: &'static str,
    pub cc: &'static str,
    pub recovery: Variant,
}

const fn v(name: &'static str, cc: &'static str, recovery: Variant) -> VariantSpec {
    VariantSpec { name, cc, recovery }
}

pub const VARIANTS: &[VariantSpec] = &[
    v("tahoe", "reno", Variant::Tahoe),
    v("reno", "reno", Variant::Reno),
    v("newreno", "reno", Variant::Newreno),
    v("sack", "reno", Variant::Sack),
    v("smart", "reno", Variant::Smart),
    // Seed 004 Sec. 2.3: Reno's window rules, NewReno's recovery held one RTT.
    v("dcr", "reno", Variant::Dcr),
    // Seed 004 Sec. 2.2's bandwidth-estimation and delay-based senders, and
    // the reviewed ones, on NewReno (module docs).
    v("westwood+", "westwood+", Variant::Newreno),
    v("tibet", "tibet", Variant::Newreno),
    v("ideal-bwe", "ideal-bwe", Variant::Newreno),
    v("veno", "veno", Variant::Newreno),
    v("jersey", "jersey", Variant::Newreno),
    v("jtcp", "jtcp", Variant::Newreno),
    v("newreno-ff", "newreno-ff", Variant::Newreno),
    v("santa-cruz", "santa-cruz", Variant::Newreno),
    v("vegas", "vegas", Variant::Newreno),
    // As Linux runs them: SACK recovery (the receiver sends SACK blocks).
    v("cubic", "cubic", Variant::Sack),
    v("bbr", "bbr", Variant::Sack),
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
}
