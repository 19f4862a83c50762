//! Live mode on this machine's kernel (issue 33): namespaces, TUN devices
//! and the kernel's TCP. These need root, `/dev/net/tun` and iproute2's
//! `ip`; where one is missing each test prints one line saying why and
//! passes without running (CI runs them: its machine has all three).
//!
//! The live runs of one test binary run one at a time (a lock): they share
//! the machine's two cores, and the emulator's accuracy depends on the
//! relay thread getting one. They are `#[ignore]`d in a plain `cargo test`
//! and run alone by scripts/test.sh (`-- --ignored`), after the other tests:
//! beside CI's other tests on both cores, the hosts' kernels fell behind
//! (acks late past the timers: spurious retransmissions by the source and
//! by snoop's timer) and the checks of what the mechanisms do failed for
//! the load's sake.

use lasthop_live::host::{cleanup_leftovers, REGISTRY};
use lasthop_live::run::{live, LiveOptions, LiveReport};
use lasthop_sim::Scenario;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Why live tests cannot run here, if they cannot.
fn cannot_run() -> Option<String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("not root".into());
    }
    if std::fs::OpenOptions::new().read(true).write(true).open("/dev/net/tun").is_err() {
        return Some("/dev/net/tun cannot be opened".into());
    }
    if Command::new("ip").arg("-V").output().is_err() {
        return Some("iproute2's ip is missing".into());
    }
    None
}

macro_rules! require_live {
    () => {
        if let Some(why) = cannot_run() {
            eprintln!("skipped: live mode needs root, /dev/net/tun and ip: {why}");
            return;
        }
    };
}

fn scenario(name: &str, sets: &[&str]) -> Scenario {
    let text = lasthop_sim::embedded::get(name).expect("an embedded scenario");
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Scenario::load(text, lasthop_sim::Format::Toml, &sets, name).expect("loads")
}

fn run(name: &str, sets: &[&str], opts: LiveOptions) -> LiveReport {
    let s = scenario(name, sets);
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    live(&s.model, &opts, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("live run of {name}: {e}"))
}

fn our_namespaces(run: &str) -> Vec<String> {
    let out = Command::new("ip").args(["netns", "list"]).output().expect("ip netns list");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| n.starts_with(&format!("lh-{run}-")))
        .map(str::to_string)
        .collect()
}

#[test]
#[ignore = "a live run: timing-sensitive, so scripts/test.sh runs these alone (--ignored), after the rest"]
fn the_emulated_link_carries_its_rate_and_leaves_nothing_behind() {
    require_live!();
    // 10 Mb/s, no delay, 3 s of kernel CUBIC: the receiving application
    // gets the link's rate times payload over packet (1448 / 1500). The
    // accuracy table over 10-200 Mb/s is benchmarks/live_accuracy.py's;
    // this checks the mechanism at a rate a loaded CI machine keeps up with.
    let r = run("live/one-link", &["rate_bps=10e6", "seconds=3"], LiveOptions { seed: 1, ..LiveOptions::default() });
    let f = &r.flows[0];
    let capacity = 10e6 * 1448.0 / 1500.0;
    let ratio = f.throughput_bps / capacity;
    eprintln!("one-link 10 Mb/s: {:.4} Mb/s, {ratio:.4} of capacity", f.throughput_bps / 1e6);
    assert!(f.error.is_none(), "{:?}", f.error);
    assert!((0.97..=1.005).contains(&ratio), "goodput {ratio} of capacity");
    assert!(r.links[0].packets_sent > 1000);
    assert!(our_namespaces(&r.run).is_empty(), "namespaces left behind");
    assert!(!Path::new(REGISTRY).join(&r.run).exists(), "registration left behind");
}

#[test]
#[ignore = "a live run: timing-sensitive, so scripts/test.sh runs these alone (--ignored), after the rest"]
fn snoop_on_real_packets_repairs_losses_the_source_would_repair() {
    require_live!();
    // Seed 000's LAN (2 Mb/s WaveLAN, one bit error per 64 KB both ways),
    // kernel Reno without SACK, 1 MB: end to end the source retransmits
    // what the wireless hop loses; with snoop (LL-TCP-AWARE) at the base
    // station the losses are repaired there, from copies of the real
    // segments, and the source retransmits (next to) nothing.
    let e2e = run("balakrishnan97/lan", &["scheme=e2e", "flows.0.bytes=1048576"], LiveOptions::default());
    let snoop = run(
        "balakrishnan97/lan",
        &["scheme=ll-tcp-aware", "flows.0.bytes=1048576"],
        LiveOptions { tables: true, ..LiveOptions::default() },
    );
    let (a, b) = (&e2e.flows[0], &snoop.flows[0]);
    eprintln!(
        "e2e: {:.4} Mb/s, source retx {}, local {}; snoop: {:.4} Mb/s, source retx {}, local {}",
        a.throughput_bps / 1e6,
        a.source_retransmits,
        a.local_retransmits,
        b.throughput_bps / 1e6,
        b.source_retransmits,
        b.local_retransmits
    );
    assert!(a.completed && b.completed, "both transfers end");
    assert_eq!(a.bytes_delivered, 1_048_576);
    assert!(a.source_retransmits > 0 && a.local_retransmits == 0, "end to end, the source repairs");
    assert!(b.local_retransmits > 0, "snoop repairs from its cache");
    // Fewer, not none: on an idle machine 5 against 22 (1 MB), under CI's
    // load 12 against 22 with 60 local retransmissions for 22 losses (the
    // hosts' kernels, not the relay, fall behind: a real-time relay thread
    // changed nothing); the issue 33 note has the figures.
    assert!(b.source_retransmits < a.source_retransmits, "snoop spares the source retransmissions");
    // Every wireless loss snoop saw was a frame the error model corrupted.
    let wireless = snoop.links.iter().find(|d| d.dir == "bs->mh").expect("the wireless downlink");
    assert!(wireless.corrupted > 0);
    assert_eq!(snoop.flow_map.copies_missing, 0, "every local retransmission had its copy");
    // The trace tables say the same, row by row: each local retransmission
    // at bs resends bytes the wireless link destroyed before. (Bytes, not
    // segment starts: a source retransmission the kernel cut at other
    // boundaries is cached as it came, so its start need not be a lost
    // segment's. A lost segment is at most the MSS, 1400 bytes; the drops
    // table gives each one's first byte.)
    let t = snoop.tables.as_ref().expect("--tables");
    assert_eq!(t.local_rexmits.seq.len() as u64, b.local_retransmits);
    assert!(t.local_rexmits.node.iter().all(|n| n == "bs"));
    // One exception, the agent's own guess: a local timer that fires while
    // the acks of what was sent are still on their way resends the oldest
    // segment, and the burst rule, which lasthop applies after a timer
    // retransmission too [I], reads the originals' new acks as naming the
    // next losses (issue 34's note; `ll-2-timers` in the elaarag02
    // reproduction). CI saw it three times, always at 945415, under the
    // hosts' kernels' delays: at 703f5cd and d6948c0 a timer resend at
    // about 5.5 s was followed by a chain of 20 and more resends of
    // consecutive segments, one per ack, none lost (the cascade the
    // simulator shows on Table I's hop, issue 34's note). Such resends must
    // follow a timer resend of the agent's within a second; how many follow
    // is the rule's, left to the decision the note asks for.
    let mut unexplained = Vec::new();
    for i in 0..t.local_rexmits.seq.len() {
        let (seq, end) = (t.local_rexmits.seq[i], t.local_rexmits.seq[i] + u64::from(t.local_rexmits.len[i]));
        let at = t.local_rexmits.time_ns[i];
        let lost_before = (0..t.drops.seq.len()).any(|j| {
            let d = t.drops.seq[j];
            t.drops.is_data[j] && d < end && seq < d + 1400 && t.drops.time_ns[j] < at
        });
        if !lost_before {
            let after_timer =
                (0..=i).any(|k| t.local_rexmits.timer[k] && at - t.local_rexmits.time_ns[k] <= 1_000_000_000);
            eprintln!(
                "local retransmission of {seq} at {at} ns: no loss of its bytes; a timer resend before: {after_timer}"
            );
            assert!(after_timer, "local retransmission of {seq} follows a loss of its bytes or a timer resend");
            unexplained.push(seq);
        }
    }
    eprintln!(
        "{} of {} local retransmissions without a loss of their bytes",
        unexplained.len(),
        t.local_rexmits.seq.len()
    );
    assert_eq!(t.sent.seq.len() as u64, t.send_rate.segments.iter().map(|&n| u64::from(n)).sum::<u64>());
    assert!(!t.window.time_ns.is_empty() && !t.acks.ack.is_empty());
}

#[test]
#[ignore = "a live run: timing-sensitive, so scripts/test.sh runs these alone (--ignored), after the rest"]
fn a_split_connection_is_two_kernel_connections_through_a_proxy_at_the_base_station() {
    require_live!();
    // SPLIT (I-TCP): the base station is a host of its own whose proxy
    // terminates the source's connection; the wireless losses are the
    // proxy's to repair, and the wired link carries each byte once.
    let r = run("balakrishnan97/lan", &["scheme=split", "flows.0.bytes=1048576"], LiveOptions::default());
    let f = &r.flows[0];
    eprintln!(
        "split: {:.4} Mb/s, source retx {}, proxy retx {:?}",
        f.throughput_bps / 1e6,
        f.source_retransmits,
        f.proxy_retransmits
    );
    assert!(f.completed && f.bytes_delivered == 1_048_576);
    assert_eq!(f.source_retransmits, 0, "the source's connection ends at the proxy, over the loss-free wire");
    assert!(f.proxy_retransmits.is_some_and(|n| n > 0), "the proxy repairs the wireless losses");
    let wired = r.links.iter().find(|d| d.dir == "fh->bs").expect("the wired downlink");
    assert_eq!(wired.goodput, Some(1.0));
    assert!(our_namespaces(&r.run).is_empty());
}

#[test]
#[ignore = "a live run: timing-sensitive, so scripts/test.sh runs these alone (--ignored), after the rest"]
fn a_command_runs_in_a_host_with_the_addresses_and_its_status_is_reported() {
    require_live!();
    let opts = LiveOptions {
        command: vec![
            "sh".into(),
            "-c".into(),
            "test \"$LASTHOP_ADDR_B\" = 10.77.0.2 && ip -o addr show | grep -q 10.77.0.1 && exit 3".into(),
        ],
        on_host: Some("a".into()),
        ..LiveOptions::default()
    };
    let r = run("live/one-link", &["seconds=5"], opts);
    assert_eq!(r.command_status, Some(3), "the command ran in host a and saw host b's address");
    assert!(our_namespaces(&r.run).is_empty());
}

/// Not a test by itself: the child of `kill_9_leaves_namespaces_that_cleanup_removes`,
/// a live run that the parent kills.
#[test]
fn child_live_run() {
    if std::env::var_os("LASTHOP_LIVE_CHILD").is_none() {
        return;
    }
    let s = scenario("live/one-link", &["rate_bps=1e6", "seconds=60"]);
    let _ = live(&s.model, &LiveOptions::default(), &AtomicBool::new(false));
}

#[test]
#[ignore = "a live run: timing-sensitive, so scripts/test.sh runs these alone (--ignored), after the rest"]
fn kill_9_leaves_namespaces_that_cleanup_removes() {
    require_live!();
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let exe = std::env::current_exe().expect("this test binary");
    let mut child = Command::new(exe)
        .args(["--exact", "child_live_run", "--nocapture", "--test-threads=1"])
        .env("LASTHOP_LIVE_CHILD", "1")
        .spawn()
        .expect("spawn the child run");
    let pid = child.id();
    // The child registers its run with its pid; wait for its namespaces.
    let deadline = Instant::now() + Duration::from_secs(20);
    let run = loop {
        assert!(Instant::now() < deadline, "the child's run never appeared");
        let found = std::fs::read_dir(REGISTRY).ok().and_then(|d| {
            d.flatten().find_map(|e| {
                let p = std::fs::read_to_string(e.path().join("pid")).ok()?;
                (p.trim() == pid.to_string()).then(|| e.file_name().to_string_lossy().into_owned())
            })
        });
        if let Some(run) = found {
            if our_namespaces(&run).len() == 2 {
                break run;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // Let packets flow, then kill -9: no destructor runs.
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    child.wait().expect("reaped");
    let left = our_namespaces(&run);
    assert_eq!(left.len(), 2, "a killed run leaves its namespaces: {left:?}");
    let cleaned = cleanup_leftovers().expect("cleanup");
    assert!(cleaned.runs.contains(&run), "its registration removed: {:?}", cleaned.runs);
    assert!(our_namespaces(&run).is_empty(), "nothing of run {run} left");
    assert!(!Path::new(REGISTRY).join(&run).exists());
    // Its TUN devices went with its descriptors.
    let links = Command::new("ip").args(["-o", "link", "show"]).output().expect("ip link");
    assert!(!String::from_utf8_lossy(&links.stdout).contains(&format!("lh{run}")), "a device of run {run} left");
}

/// The receiving application's bytes by `t` seconds, from its timeline
/// (linear between points).
fn delivered_by(timeline: &[(f64, u64)], t: f64) -> f64 {
    let i = timeline.partition_point(|p| p.0 <= t);
    match (i.checked_sub(1).map(|j| timeline[j]), timeline.get(i)) {
        (Some(a), Some(b)) => a.1 as f64 + (b.1 - a.1) as f64 * (t - a.0) / (b.0 - a.0),
        (Some(a), None) => a.1 as f64,
        (None, _) => 0.0,
    }
}

#[test]
#[ignore = "a live run: timing-sensitive, so scripts/test.sh runs these alone (--ignored), after the rest"]
fn a_mahimahi_trace_drives_the_live_link_window_by_window() {
    require_live!();
    // Issue 33 item 4: the shipped 60 s cellular-like trace
    // (examples/cellular-trace, the simulator's test of it is
    // lasthop-sim's rate_trace) drives the downlink of a live run: the
    // kernel's bulk transfer gets what the trace's delivery opportunities
    // carry, 10 s window by 10 s window after the first (slow start).
    // An opportunity carries 1504 bytes of IP packets; the kernel's are
    // 1500 bytes (no timestamps) with 1460 of payload, so the application
    // gets 1460/1500 of the opportunities' bytes. The windows are shifted
    // by the one-way latency behind the trace's release (20 ms radio, 10 ms
    // wire): bytes released at t are read at about t + 30 ms.
    use lasthop_core::Time;
    use lasthop_net::rate_trace::OPPORTUNITY_BYTES;
    // A 256 KB buffer: the kernel's window (about 1.3 times it here, see
    // `workload`) stays under the 400-packet cell buffer, which the
    // scenario's 512 KB would overflow, and above the path's largest
    // bandwidth-delay product (66 KB): the link always has a frame waiting.
    let s = scenario("examples/cellular-trace", &["socket_buffer_bytes=262144"]);
    let trace = s.model.links.iter().find(|l| l.name == "wireless").unwrap().dirs[0].rate_trace.clone().unwrap();
    let r = {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let opts = LiveOptions { duration_s: Some(31.0), sample_ms: Some(50), ..LiveOptions::default() };
        live(&s.model, &opts, &AtomicBool::new(false)).expect("runs")
    };
    let timeline = &r.flows[0].delivered;
    let lag = 0.030;
    let mut ratios = Vec::new();
    for start in [10.0, 20.0] {
        let got = delivered_by(timeline, start + 10.0 + lag) - delivered_by(timeline, start + lag);
        let opp = trace.opportunities_until(Time::from_secs_f64(start + 10.0))
            - trace.opportunities_until(Time::from_secs_f64(start));
        let capacity = opp as f64 * f64::from(OPPORTUNITY_BYTES) * 1460.0 / 1500.0;
        ratios.push(got / capacity);
    }
    eprintln!("cellular trace live, 10-20 s and 20-30 s: {ratios:?} of the trace's capacity");
    for r in &ratios {
        assert!((r - 1.0).abs() <= 0.02, "{ratios:?}");
    }
}
