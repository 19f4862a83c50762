//! The scenarios of `scenarios/`, compiled in so that the reproduction runs
//! on a fresh install without the source tree.

/// (name, TOML text) of every checked-in scenario.
pub const SCENARIOS: &[(&str, &str)] = &[
    ("balakrishnan97/lan", include_str!("../../../scenarios/balakrishnan97/lan.toml")),
    ("balakrishnan97/table3-lan-32k", include_str!("../../../scenarios/balakrishnan97/table3-lan-32k.toml")),
    ("balakrishnan97/table3-lan-8k", include_str!("../../../scenarios/balakrishnan97/table3-lan-8k.toml")),
    ("balakrishnan97/table3-wan-32k", include_str!("../../../scenarios/balakrishnan97/table3-wan-32k.toml")),
    ("balakrishnan97/wan", include_str!("../../../scenarios/balakrishnan97/wan.toml")),
    ("balakrishnan99/cable-radio", include_str!("../../../scenarios/balakrishnan99/cable-radio.toml")),
    ("balakrishnan99/one-way", include_str!("../../../scenarios/balakrishnan99/one-way.toml")),
    ("balakrishnan99/radio-chain", include_str!("../../../scenarios/balakrishnan99/radio-chain.toml")),
    ("balakrishnan99/radio-many", include_str!("../../../scenarios/balakrishnan99/radio-many.toml")),
    ("balakrishnan99/testbed-maxburst", include_str!("../../../scenarios/balakrishnan99/testbed-maxburst.toml")),
    ("balakrishnan99/testbed-two-way", include_str!("../../../scenarios/balakrishnan99/testbed-two-way.toml")),
    ("balakrishnan99/two-forward", include_str!("../../../scenarios/balakrishnan99/two-forward.toml")),
    ("balakrishnan99/two-way", include_str!("../../../scenarios/balakrishnan99/two-way.toml")),
    ("balakrishnan99/web", include_str!("../../../scenarios/balakrishnan99/web.toml")),
    ("examples/cellular-trace", include_str!("../../../scenarios/examples/cellular-trace.toml")),
    ("examples/satellite", include_str!("../../../scenarios/examples/satellite.toml")),
    ("live/one-link", include_str!("../../../scenarios/live/one-link.toml")),
    ("elaarag02/blackout", include_str!("../../../scenarios/elaarag02/blackout.toml")),
    ("elaarag02/wtcp", include_str!("../../../scenarios/elaarag02/wtcp.toml")),
    ("elaarag02/rate-drop", include_str!("../../../scenarios/elaarag02/rate-drop.toml")),
    ("elaarag02/compare", include_str!("../../../scenarios/elaarag02/compare.toml")),
    ("elaarag02/ebsn", include_str!("../../../scenarios/elaarag02/ebsn.toml")),
    ("elaarag02/ebsn-ll", include_str!("../../../scenarios/elaarag02/ebsn-ll.toml")),
    ("elaarag02/fig2", include_str!("../../../scenarios/elaarag02/fig2.toml")),
    ("elaarag02/handoff", include_str!("../../../scenarios/elaarag02/handoff.toml")),
    ("elaarag02/snoop-handoff", include_str!("../../../scenarios/elaarag02/snoop-handoff.toml")),
    ("elaarag02/snoop-nack", include_str!("../../../scenarios/elaarag02/snoop-nack.toml")),
    ("elaarag02/table1", include_str!("../../../scenarios/elaarag02/table1.toml")),
    ("elaarag02/rlp", include_str!("../../../scenarios/elaarag02/rlp.toml")),
    ("elaarag02/wap", include_str!("../../../scenarios/elaarag02/wap.toml")),
    ("elaarag02/airmail", include_str!("../../../scenarios/elaarag02/airmail.toml")),
    ("elaarag02/airmail-handoff", include_str!("../../../scenarios/elaarag02/airmail-handoff.toml")),
    ("elaarag02/link-layer", include_str!("../../../scenarios/elaarag02/link-layer.toml")),
    ("elaarag02/mtcp", include_str!("../../../scenarios/elaarag02/mtcp.toml")),
    ("yun09/cell", include_str!("../../../scenarios/yun09/cell.toml")),
    ("yun09/downlink", include_str!("../../../scenarios/yun09/downlink.toml")),
    ("yun09/uplink", include_str!("../../../scenarios/yun09/uplink.toml")),
];

pub fn get(name: &str) -> Option<&'static str> {
    SCENARIOS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
