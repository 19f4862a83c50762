//! lasthop-live: the third way to use lasthop (DESIGN.md): the simulator's
//! link, queue and error-model code and its base-station agents on real
//! packets between Linux network namespaces, with the kernel's own TCP at
//! both ends (issue 33).
//!
//! The shape: every host of a scenario that ends a flow is a network
//! namespace with one TUN device, whose other end is this process. The
//! process is the network between the hosts: each packet a host's kernel
//! sends is read from its TUN device, parsed ([`wire`]) and mapped onto the
//! simulator's packet model ([`flowmap`]), carried hop by hop over the
//! scenario's links (the same `lasthop_net` links, queues and error models,
//! with the same random streams) and through the agents of the nodes it
//! crosses, and written to the destination host's TUN device when it
//! arrives. Time is the simulator's integer nanoseconds, read from the
//! monotonic clock; a wake-up that comes late runs everything overdue at
//! the times it was due (Mahimahi's catch-up), so a late wake-up delays
//! packets but never loses link capacity.
//!
//! - [`wire`]: IPv4/TCP parsing (`wire::parse`) and the few rewrites live
//!   mode makes (`wire::apply`, `wire::with_sack_blocks`), checksums kept
//!   right; never panics on any input.
//! - [`flowmap`]: real connections onto the model's flows
//!   (`FlowMap::to_model`): 32-bit sequence numbers unwrapped to byte
//!   offsets, segments no receiver would accept refused, payloads kept for
//!   agents' copies in a bounded store, and agents' outputs written back
//!   (`FlowMap::wire_for_output`).
//! - [`pcap`]: captures of raw IP packets (`pcap::PcapWriter`, LINKTYPE_RAW).
//! - [`plan`]: what a scenario asks of a live run (hosts, kernel settings,
//!   workload), and what live mode refuses, in one line naming the field.
//! - [`host`] (Linux): the namespaces and TUN devices ([`tun`]) of a run,
//!   named by its run id, and `--cleanup` of runs that died.
//! - [`relay`]: the network between the hosts, sans-IO: the scenario's
//!   links (`lasthop_sim::world::push_link`), routes and agents
//!   (`place_agents`), fed real packets and a clock; [`traces`] its tables.
//! - [`workload`] (Linux): the built-in bulk or timed flows over kernel
//!   sockets, `TCP_INFO` samples, and SPLIT's proxy.
//! - [`run`] (Linux): one live run, start to report (`lasthop live`).
//!
//! Not carried yet (refused by [`plan`]): shared media (radio, 802.11, RLP
//! circuits; `lasthop_sim::world::build_mac` builds them for whoever
//! drives them next), outages, rate and error-model changes, mobility,
//! M-TCP and datagram sources.

pub mod flowmap;
#[cfg(target_os = "linux")]
pub mod host;
pub mod pcap;
pub mod plan;
pub mod relay;
#[cfg(target_os = "linux")]
pub mod run;
pub mod traces;
#[cfg(target_os = "linux")]
pub mod tun;
pub mod wire;
#[cfg(target_os = "linux")]
pub mod workload;
