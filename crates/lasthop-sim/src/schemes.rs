//! The schemes of the source documents, by their paper names.
//!
//! A scheme is what seed 000 compares: a choice of sender, receiver options
//! and base-station agent. The names are the paper's in lower case. Schemes
//! not yet built are not listed: naming one is an error, never a fallback.

use lasthop_tcp::Variant;

/// What a scheme sets on a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub name: &'static str,
    pub variant: Variant,
}

/// Seed 000 Sec. III-A: E2E is TCP Reno, E2E-NEWRENO adds partial-ack recovery.
pub const SCHEMES: &[Scheme] =
    &[Scheme { name: "e2e", variant: Variant::Reno }, Scheme { name: "e2e-newreno", variant: Variant::Newreno }];

pub fn find(name: &str) -> Option<&'static Scheme> {
    SCHEMES.iter().find(|s| s.name == name)
}

pub fn names() -> Vec<&'static str> {
    SCHEMES.iter().map(|s| s.name).collect()
}
