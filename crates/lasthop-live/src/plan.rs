//! What a scenario asks of a live run: its hosts (the nodes where flows
//! start or end: each a namespace with the kernel's TCP), the kernel
//! settings of each, the workload, and what live mode cannot carry yet,
//! refused with one line naming the field and the reason.
//!
//! The kernel is told what the scenario's TCP says where the kernel has
//! it: the congestion control (reno, cubic and bbr are what Linux has
//! here), SACK, timestamps, ECN, the initial window and the largest packet
//! (the TUN device's MTU, so that the kernel's segments are the model's).
//! What the kernel does not let a host choose (4.4BSD's timers and window
//! rules, delayed-ack policies) is the kernel's own; the note of issue 33
//! lists it.

use lasthop_core::NodeId;
use lasthop_sim::scenario::model::{Model, Workload};

use crate::host::{HostSpec, KernelTcp};

/// Congestion controls the kernel offers by these names.
pub const KERNEL_CC: [&str; 3] = ["reno", "cubic", "bbr"];

/// One flow's workload, between two hosts (indices into [`Plan::hosts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowPlan {
    pub name: String,
    pub from: usize,
    pub to: usize,
    pub workload: Workload,
    /// The start, from the run's start, in ns.
    pub start_ns: u64,
    /// The kernel's congestion control for the flow's socket.
    pub cc: String,
    /// SO_SNDBUF of the sender and SO_RCVBUF of the receiver, in bytes
    /// (`None`: the kernel's autotuning).
    pub send_buffer: Option<u64>,
    pub recv_buffer: Option<u64>,
    /// A split connection (I-TCP, seed 000 Sec. III-C): the host of its
    /// proxy (the base station) and the proxy's relay buffer, in bytes.
    pub split: Option<(usize, u64)>,
}

/// A live run's plan.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Host k: its node and its kernel settings.
    pub host_nodes: Vec<NodeId>,
    pub hosts: Vec<HostSpec>,
    pub flows: Vec<FlowPlan>,
    /// When the run ends at the latest, in ns from its start.
    pub stop_ns: u64,
}

/// A scenario live mode cannot run: the field and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError {
    pub field: String,
    pub reason: String,
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

fn refuse(field: &str, reason: &str) -> PlanError {
    PlanError { field: field.into(), reason: reason.into() }
}

/// The plan of `model`; `cc` overrides every flow's congestion control.
pub fn plan(model: &Model, cc: Option<&str>) -> Result<Plan, PlanError> {
    if !model.media.is_empty() {
        return Err(refuse("media", "live mode carries point-to-point links only, not shared media (yet)"));
    }
    if !model.outages.is_empty() {
        return Err(refuse("outages", "not carried by live mode yet"));
    }
    if !model.rate_changes.is_empty() {
        return Err(refuse("rate_changes", "not carried by live mode yet"));
    }
    if !model.error_changes.is_empty() {
        return Err(refuse("error_changes", "not carried by live mode yet"));
    }
    if !model.mobility.is_empty() {
        return Err(refuse("mobility", "not carried by live mode yet"));
    }
    if let Some(cc) = cc {
        if !KERNEL_CC.contains(&cc) {
            return Err(refuse("--cc", &format!("the kernel has no '{cc}' (it has {})", KERNEL_CC.join(", "))));
        }
    }
    for l in &model.links {
        for d in &l.dirs {
            if d.emulation_tick_ns.is_some() {
                return Err(refuse(
                    &format!("links.{}.emulation", l.name),
                    "live mode is itself an emulator on a real clock; drop the simulated kernel clock",
                ));
            }
        }
    }
    let mut host_nodes: Vec<NodeId> = Vec::new();
    let host_of = |n: NodeId, v: &mut Vec<NodeId>| match v.iter().position(|&h| h == n) {
        Some(k) => k,
        None => {
            v.push(n);
            v.len() - 1
        }
    };
    let mut flows = Vec::new();
    for (i, f) in model.flows.iter().enumerate() {
        let field = |what: &str| format!("flows[{i}]{what}");
        if f.pareto.is_some() {
            return Err(refuse(&field(".pareto"), "datagram sources are not carried by live mode yet"));
        }
        if f.wap.is_some() {
            return Err(refuse(&field(".wap"), "page-fetch workloads (WAP, HTTP) are not carried by live mode yet"));
        }
        if f.split.is_some_and(|sp| sp.mtcp) {
            return Err(refuse(&field(".scheme"), "M-TCP's supervisor host is not carried by live mode yet"));
        }
        if f.split.is_some_and(|sp| sp.mhp.is_some()) {
            return Err(refuse(&field(".scheme"), "MTCP's SRP is not carried by live mode yet"));
        }
        if f.start_after.is_some() {
            return Err(refuse(&field(".start_after"), "not carried by live mode yet"));
        }
        let name = f.sender.cc.name.as_str();
        let cc = cc.unwrap_or(name);
        if !KERNEL_CC.contains(&cc) {
            return Err(refuse(
                &field(".tcp.cc"),
                &format!("the kernel has no '{cc}' (it has {}; --cc chooses one)", KERNEL_CC.join(", ")),
            ));
        }
        let from = host_of(f.from, &mut host_nodes);
        let to = host_of(f.to, &mut host_nodes);
        let split = match (f.split, f.split_node) {
            (Some(sp), Some(node)) => Some((host_of(node, &mut host_nodes), sp.buffer_bytes)),
            (Some(_), None) => return Err(refuse(&field(".scheme"), "a split flow needs a base station on its path")),
            _ => None,
        };
        let buffer = |b: u64| (b > 0 && b < u64::from(u32::MAX)).then_some(b);
        flows.push(FlowPlan {
            name: f.name.clone(),
            from,
            to,
            workload: f.workload,
            start_ns: f.start.ns(),
            cc: cc.to_string(),
            send_buffer: buffer(f.sender.send_buffer_bytes),
            recv_buffer: buffer(f.receiver.recv_buffer_bytes),
            split,
        });
    }
    if flows.is_empty() {
        return Err(refuse("flows", "a live run needs at least one flow"));
    }
    // Each host's kernel: from the first flow it sends, else the first it
    // receives (both ends of a flow agree on SACK and timestamps).
    let mut hosts = Vec::new();
    for &node in &host_nodes {
        let f = model
            .flows
            .iter()
            .find(|f| f.from == node)
            .or_else(|| model.flows.iter().find(|f| f.to == node))
            .or_else(|| model.flows.iter().find(|f| f.split_node == Some(node)))
            .expect("a host is an end of a flow or its split proxy");
        let cc = cc.unwrap_or(f.sender.cc.name.as_str()).to_string();
        // The largest packet: a full segment with its headers (the
        // timestamp option's 12 bytes included when it is on).
        let ts = f.sender.timestamps || f.receiver.timestamps;
        let mtu = f.header_bytes.max(40) + f.sender.mss_bytes + if ts && f.header_bytes <= 40 { 12 } else { 0 };
        hosts.push(HostSpec {
            name: model.nodes[node as usize].clone(),
            tcp: KernelTcp {
                cc,
                // A split proxy's kernel sends the wireless leg: SACK for
                // SPLIT-SMART's selective leg (the kernel has no SMART).
                sack: if f.split_node == Some(node) {
                    f.split.is_some_and(|sp| sp.wireless != lasthop_tcp::Variant::Reno)
                } else {
                    f.receiver.sack
                },
                timestamps: ts,
                ecn: f.sender.ecn,
                initcwnd: Some(f.sender.initial_cwnd_segments.max(1)),
                mtu: mtu.max(576),
                rto_min_ms: None,
                extra: Vec::new(),
            },
        });
    }
    Ok(Plan { host_nodes, hosts, flows, stop_ns: model.stop.ns() })
}
