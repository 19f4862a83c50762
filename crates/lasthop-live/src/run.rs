//! A live run: make the hosts, start the workload (the built-in flows, or
//! the user's command in a host), carry packets between the hosts' TUN
//! devices through [`Network`] on the monotonic clock until the workload
//! ends, then remove everything and report.
//!
//! The loop is one thread: it sleeps in `ppoll(2)` until a TUN device has
//! a packet or the network's next event is due (timer slack set to 1 ns),
//! reads every waiting packet, runs every event due, and writes what
//! arrived. How late it woke is measured against each event's due time and
//! reported (`wakeups`): the emulator's accuracy depends on it.

use crate::flowmap::{FlowMap, FlowMapStats, StoreLimits};
use crate::host::{HostError, Lab};
use crate::pcap::PcapWriter;
use crate::plan::{plan, Plan, PlanError};
use crate::relay::{NetStats, Network};
use crate::traces::Traces;
use crate::workload::{self, FlowResult};
use lasthop_core::{NodeId, Time};
use lasthop_net::mac::point_to_point::DirStats;
use lasthop_sim::scenario::model::{Model, Workload};
use std::os::fd::RawFd;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a live run is asked for.
#[derive(Clone, Debug, Default)]
pub struct LiveOptions {
    pub seed: u64,
    /// Every flow's kernel congestion control instead of the scenario's.
    pub cc: Option<String>,
    /// The user's command instead of the built-in workload, and the host
    /// it runs in (default: the first flow's source).
    pub command: Vec<String>,
    pub on_host: Option<String>,
    /// The run ends at the latest after this long (default: the
    /// scenario's stop, and at most an hour).
    pub duration_s: Option<f64>,
    /// `TCP_INFO` sampling interval (default 10 ms).
    pub sample_ms: Option<u64>,
    /// Kernel settings for every host (`--sysctl KEY=VALUE`, checked by
    /// [`crate::host::check_sysctl`]).
    pub sysctls: Vec<String>,
    /// The hosts' least retransmission timeout (the route's `rto_min`), in
    /// ms: Linux's 200 ms races a base station's local timer where the
    /// 1997 stacks' coarse timers (1 s at least) did not.
    pub rto_min_ms: Option<u32>,
    /// Record the trace tables ([`crate::traces`]) into the report.
    pub tables: bool,
    /// Write each host's interface, both ways, to `DIR/<host>.pcap`.
    pub pcap_dir: Option<std::path::PathBuf>,
}

/// Why a live run could not run.
#[derive(Debug)]
pub enum LiveError {
    /// The scenario asks for what live mode cannot do.
    Plan(PlanError),
    /// An option is invalid: the option and why.
    Option(String, String),
    /// Making or running the hosts failed.
    Host(String),
}

impl std::fmt::Display for LiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LiveError::Plan(e) => e.fmt(f),
            LiveError::Option(o, why) => write!(f, "{o}: {why}"),
            LiveError::Host(e) => f.write_str(e),
        }
    }
}

impl From<HostError> for LiveError {
    fn from(e: HostError) -> LiveError {
        LiveError::Host(e.0)
    }
}

/// One link direction's counters after a live run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DirReport {
    pub link: String,
    pub dir: String,
    pub packets_sent: u64,
    pub bytes_sent: u64,
    pub delivered: u64,
    pub corrupted: u64,
    pub queue_drops: u64,
    /// Payload bytes crossing the direction for the first time over all
    /// it carried (the simulator's goodput); `None`: no payload crossed.
    pub goodput: Option<f64>,
    /// Medium time of the frames, over the run's time.
    pub utilisation: f64,
}

/// How late the loop woke for its events.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Wakeups {
    pub events_checked: u64,
    pub mean_late_us: f64,
    pub max_late_us: f64,
    /// Events run more than 1 ms after they were due.
    pub late_over_1ms: u64,
}

/// What a live run measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LiveReport {
    pub run: String,
    pub scenario: String,
    pub seed: u64,
    pub wall_s: f64,
    pub flows: Vec<FlowResult>,
    pub links: Vec<DirReport>,
    pub network: NetStats,
    pub wakeups: Wakeups,
    /// What the flow map refused or could not keep.
    pub flow_map: FlowMapStats,
    /// The pcap files written, one per host.
    pub pcaps: Vec<String>,
    /// The trace tables, in a simulated run's columns (`--tables`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<Traces>,
    /// The user's command's exit code, when one ran.
    pub command_status: Option<i32>,
}

fn dir_report(model: &Model, li: usize, d: usize, s: &DirStats, goodput: Option<f64>, wall_ns: u64) -> DirReport {
    DirReport {
        link: model.links[li].name.clone(),
        dir: model.dir_name(li, d).to_string(),
        packets_sent: s.packets_sent,
        bytes_sent: s.bytes_sent,
        delivered: s.delivered,
        corrupted: s.drops_error,
        queue_drops: s.drops_queue,
        goodput,
        utilisation: if wall_ns > 0 { s.busy_ns as f64 / wall_ns as f64 } else { 0.0 },
    }
}

type Pcap = PcapWriter<std::io::BufWriter<std::fs::File>>;

/// Write what reached its host to its TUN device (and its capture).
fn deliver(net: &mut Network, lab: &Lab, pcaps: &mut [Pcap], epoch: &Instant) {
    let t = epoch.elapsed().as_nanos() as u64;
    net.take_deliveries(|h, b| {
        if let Some(w) = pcaps.get_mut(h) {
            let _ = w.write_packet(t, b);
        }
        // A full device queue drops the packet, as the kernel does.
        let _ = lab.hosts[h].tun.send(b);
    });
}

/// Check the options and the scenario without making anything.
pub fn check(model: &Model, opts: &LiveOptions) -> Result<Plan, LiveError> {
    let mut p = plan(model, opts.cc.as_deref()).map_err(LiveError::Plan)?;
    let extra: Vec<(String, String)> = opts
        .sysctls
        .iter()
        .map(|kv| crate::host::check_sysctl(kv).map_err(|why| LiveError::Option("--sysctl".into(), why)))
        .collect::<Result<_, _>>()?;
    if let Some(ms) = opts.rto_min_ms {
        if !(1..=120_000).contains(&ms) {
            return Err(LiveError::Option("--rto-min-ms".into(), format!("must be in [1, 120000] ms, not {ms}")));
        }
    }
    for h in &mut p.hosts {
        h.tcp.extra = extra.clone();
        h.tcp.rto_min_ms = opts.rto_min_ms;
    }
    if let Some(d) = opts.duration_s {
        if !(d.is_finite() && d > 0.0 && d <= 86_400.0) {
            return Err(LiveError::Option("--duration".into(), format!("must be in (0, 86400] seconds, not {d}")));
        }
    }
    if opts.sample_ms == Some(0) {
        return Err(LiveError::Option("--sample-ms".into(), "must be at least 1".into()));
    }
    if let Some(d) = &opts.pcap_dir {
        if !d.is_dir() {
            return Err(LiveError::Option("--pcap".into(), format!("{} is not a directory", d.display())));
        }
    }
    if let Some(h) = &opts.on_host {
        if !p.hosts.iter().any(|s| &s.name == h) {
            let names: Vec<&str> = p.hosts.iter().map(|s| s.name.as_str()).collect();
            return Err(LiveError::Option("--on".into(), format!("no host '{h}' (hosts: {})", names.join(", "))));
        }
    }
    Ok(p)
}

/// Run `model` live. `stop` (Ctrl-C) ends it early; what was made is
/// removed in every case.
pub fn live(model: &Model, opts: &LiveOptions, stop: &AtomicBool) -> Result<LiveReport, LiveError> {
    let p = check(model, opts)?;
    let run = crate::host::new_run_id().map_err(|e| LiveError::Host(format!("run id: {e}")))?;
    let mut lab = Lab::create(&run, &p.hosts)?;
    let netns: Vec<String> = lab.hosts.iter().map(|h| h.netns.clone()).collect();
    // SAFETY: PR_SET_TIMERSLACK takes an integer; it affects this thread.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong) };

    let hosts: Vec<([u8; 4], NodeId)> = lab.hosts.iter().zip(&p.host_nodes).map(|(h, &n)| (h.addr, n)).collect();
    // Connections onto flow indices as the simulator numbers them: a split
    // flow's wired leg (source to proxy) in its place, the wireless legs
    // after the model's flows (`lasthop_sim::scenario::model::split_legs`).
    let mut model_flows: Vec<(NodeId, NodeId)> =
        model.flows.iter().map(|f| (f.from, f.split_node.filter(|_| f.split.is_some()).unwrap_or(f.to))).collect();
    let legs: Vec<(usize, usize)> = lasthop_sim::scenario::model::split_legs(&model.flows).collect();
    for &(fi, _) in &legs {
        let f = &model.flows[fi];
        model_flows.push((f.split_node.expect("planned"), f.to));
    }
    let map = FlowMap::new(hosts, model_flows, StoreLimits::default());
    let agents = lasthop_sim::world::place_agents(model, model.flows.len() + legs.len());
    let mut net = Network::new(model, opts.seed, &p.host_nodes, agents, map);
    if opts.tables {
        net.record_traces();
    }

    let mut pcaps = Vec::new();
    let mut pcap_paths = Vec::new();
    if let Some(dir) = &opts.pcap_dir {
        for h in &lab.hosts {
            let path = dir.join(format!("{}.pcap", h.name));
            let file = std::fs::File::create(&path)
                .and_then(|f| PcapWriter::new(std::io::BufWriter::new(f)))
                .map_err(|e| LiveError::Host(format!("{}: {e}", path.display())))?;
            pcaps.push(file);
            pcap_paths.push(path.display().to_string());
        }
    }
    let epoch = Instant::now();
    let wl_stop = Arc::new(AtomicBool::new(false));
    let sample_every = Duration::from_millis(opts.sample_ms.unwrap_or(10));
    let mut child = None;
    let mut flows = Vec::new();
    if opts.command.is_empty() {
        for (k, f) in p.flows.iter().enumerate() {
            let fr = workload::start(k, f, &netns, epoch, wl_stop.clone(), sample_every)
                .map_err(|e| LiveError::Host(format!("flow {}: {e}", f.name)))?;
            flows.push(fr);
        }
    } else {
        let host = match &opts.on_host {
            Some(h) => lab.hosts.iter().position(|x| &x.name == h).expect("checked"),
            None => p.flows[0].from,
        };
        let mut cmd = Command::new("ip");
        cmd.args(["netns", "exec", &netns[host]]).args(&opts.command);
        cmd.env("LASTHOP_RUN", &run);
        for h in &lab.hosts {
            let key: String =
                h.name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
            cmd.env(format!("LASTHOP_ADDR_{key}"), crate::host::addr_str(h.addr));
        }
        child = Some(cmd.spawn().map_err(|e| LiveError::Host(format!("{}: {e}", opts.command[0])))?);
    }

    // A run of timed flows ends when the last of them has had its time (the
    // simulator's timed flow counts what was delivered by then); a bulk
    // flow runs to its end, within the scenario's stop.
    let timed_end = p
        .flows
        .iter()
        .map(|f| match f.workload {
            Workload::Timed { duration_ns } => Some(f.start_ns + duration_ns),
            Workload::Bulk { .. } => None,
        })
        .collect::<Option<Vec<u64>>>()
        .and_then(|ends| ends.into_iter().max());
    let default_ns = timed_end.unwrap_or(p.stop_ns).min(3_600_000_000_000);
    let limit_ns = opts.duration_s.map_or(default_ns, |d| (d * 1e9) as u64);
    let fds: Vec<RawFd> = lab.hosts.iter().map(|h| h.tun.fd()).collect();
    let mut pfds: Vec<libc::pollfd> =
        fds.iter().map(|&fd| libc::pollfd { fd, events: libc::POLLIN, revents: 0 }).collect();
    let mut buf = vec![0u8; 65_536];
    let mut wake = Wakeups::default();
    let mut late_sum = 0.0;
    let mut command_status = None;
    let now_t = |epoch: &Instant| Time(epoch.elapsed().as_nanos() as u64);
    loop {
        let now = now_t(&epoch);
        if stop.load(Ordering::Relaxed) || now.ns() >= limit_ns {
            break;
        }
        // Everything due, at its own time.
        let due = net.next_event();
        if due <= now {
            let late = (now.ns() - due.ns()) as f64 / 1e3;
            wake.events_checked += 1;
            late_sum += late;
            wake.max_late_us = wake.max_late_us.max(late);
            if late > 1e3 {
                wake.late_over_1ms += 1;
            }
        }
        net.run_until(now);
        deliver(&mut net, &lab, &mut pcaps, &epoch);
        // Every packet waiting at a host.
        for (k, h) in lab.hosts.iter().enumerate() {
            while let Ok(Some(n)) = h.tun.recv(&mut buf) {
                let t = now_t(&epoch);
                if let Some(w) = pcaps.get_mut(k) {
                    let _ = w.write_packet(t.ns(), &buf[..n]);
                }
                net.inject(t, k, &buf[..n]);
            }
        }
        net.run_until(now_t(&epoch));
        deliver(&mut net, &lab, &mut pcaps, &epoch);
        // The workload's end.
        if let Some(c) = child.as_mut() {
            if let Ok(Some(status)) = c.try_wait() {
                command_status = status.code().or(Some(-1));
                break;
            }
        } else if flows.iter().all(|f| f.done()) {
            break;
        }
        let now = now_t(&epoch);
        let next = net.next_event();
        let wait_ns = if next <= now { 0 } else { (next.ns() - now.ns()).min(5_000_000) };
        let ts = libc::timespec { tv_sec: (wait_ns / 1_000_000_000) as _, tv_nsec: (wait_ns % 1_000_000_000) as _ };
        // SAFETY: `pfds` is a valid array of its length; `ts` outlives the call.
        unsafe { libc::ppoll(pfds.as_mut_ptr(), pfds.len() as _, &ts, std::ptr::null()) };
    }
    let wall_ns = epoch.elapsed().as_nanos() as u64;
    wl_stop.store(true, Ordering::Relaxed);
    if let Some(mut c) = child {
        if command_status.is_none() {
            let _ = c.kill();
            command_status = c.wait().ok().and_then(|s| s.code());
        }
    }
    let bulk = |k: usize| match p.flows[k].workload {
        Workload::Bulk { bytes } => Some(bytes),
        Workload::Timed { .. } => None,
    };
    let mut flows: Vec<FlowResult> = flows.into_iter().enumerate().map(|(k, f)| f.finish(bulk(k))).collect();
    for (k, f) in flows.iter_mut().enumerate() {
        f.source_retransmits = net.flow_counts().get(k).map_or(0, |c| c.source_retransmits);
        f.local_retransmits =
            net.agents().iter().filter(|(_, a)| a.flow() == k as u32).map(|(_, a)| a.local_retransmits()).sum();
        f.proxy_retransmits = legs
            .iter()
            .find(|&&(fi, _)| fi == k)
            .map(|&(_, leg)| net.flow_counts().get(leg).map_or(0, |c| c.source_retransmits));
    }
    wake.mean_late_us = if wake.events_checked > 0 { late_sum / wake.events_checked as f64 } else { 0.0 };
    let mut links = Vec::new();
    for (li, l) in net.links().iter().enumerate() {
        for (d, ld) in l.dirs.iter().enumerate() {
            links.push(dir_report(model, li, d, &ld.stats(), net.goodput(2 * li + d), wall_ns));
        }
    }
    for w in &mut pcaps {
        w.flush().map_err(|e| LiveError::Host(format!("pcap: {e}")))?;
    }
    let flow_map = net.flow_map().stats();
    let tables = net.take_traces().map(|mut t| {
        // The sender's window from its TCP_INFO samples, flow by flow.
        for (k, f) in flows.iter().enumerate() {
            for smp in &f.samples {
                t.window.time_ns.push((smp.t_s * 1e9) as u64);
                t.window.flow.push(k as u32);
                t.window.cwnd_bytes.push(u64::from(smp.cwnd_segments) * u64::from(smp.mss_bytes));
                // The kernel's "no threshold yet" (TCP_INFINITE_SSTHRESH)
                // is the simulator's, u32::MAX bytes.
                let ssthresh = if smp.ssthresh_segments >= 0x7fff_ffff {
                    u64::from(u32::MAX)
                } else {
                    u64::from(smp.ssthresh_segments) * u64::from(smp.mss_bytes)
                };
                t.window.ssthresh_bytes.push(ssthresh);
            }
        }
        t.bin_send_rate();
        t
    });
    let report = LiveReport {
        run: run.clone(),
        scenario: model.name.clone(),
        seed: opts.seed,
        wall_s: wall_ns as f64 / 1e9,
        flows,
        links,
        network: net.stats,
        wakeups: wake,
        flow_map,
        pcaps: pcap_paths,
        tables,
        command_status,
    };
    drop(net);
    lab.destroy();
    Ok(report)
}
