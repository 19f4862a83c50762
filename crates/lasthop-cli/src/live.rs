//! `lasthop live`: a scenario on real packets between network namespaces
//! (crate `lasthop-live`, issue 33). Linux only, as root.
//!
//! ```text
//! lasthop live SCENARIO [--set PATH=VALUE]... [--seed N] [--cc reno|cubic|bbr]
//!              [--duration S] [--sample-ms MS] [--format table|json]
//!              [--sysctl net.ipv4.tcp_KEY=VALUE]... [--rto-min-ms MS] [--pcap DIR]
//!              [--tables] [--on HOST]
//!              [-- COMMAND ARGS...]
//! lasthop live --cleanup
//! ```
//!
//! Every error is one line naming the option or the scenario's field and
//! the reason, exit code 2, and nothing on stdout.

use lasthop_live::run::{live, LiveError, LiveOptions, LiveReport};
use lasthop_sim::Scenario;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::Relaxed);
}

fn usage_error(what: &str, why: &str) -> ExitCode {
    eprintln!("lasthop: error: {what}: {why}");
    ExitCode::from(2)
}

struct Args {
    scenario: String,
    sets: Vec<String>,
    json: bool,
    opts: LiveOptions,
}

fn value<'a>(arg: &'a str, name: &str, it: &mut std::slice::Iter<'_, &'a str>) -> Option<Result<&'a str, String>> {
    if arg == name {
        return Some(it.next().copied().ok_or_else(|| "needs a value".to_string()));
    }
    arg.strip_prefix(name).and_then(|t| t.strip_prefix('=')).map(Ok)
}

fn parse(args: &[&str]) -> Result<Args, (String, String)> {
    let mut scenario = None;
    let mut a = Args { scenario: String::new(), sets: Vec::new(), json: false, opts: LiveOptions::default() };
    a.opts.seed = 1;
    let mut it = args.iter();
    while let Some(&arg) = it.next() {
        let bad = |name: &str, why: String| (name.to_string(), why);
        if arg == "--" {
            a.opts.command = it.by_ref().map(|s| s.to_string()).collect();
            if a.opts.command.is_empty() {
                return Err(bad("--", "needs a command after it".into()));
            }
            break;
        } else if let Some(v) = value(arg, "--set", &mut it) {
            let v = v.map_err(|e| bad("--set", e))?;
            if v.split_once('=').is_none_or(|(p, _)| p.trim().is_empty()) {
                return Err(bad("--set", format!("'{v}' is not PATH=VALUE")));
            }
            a.sets.push(v.to_string());
        } else if let Some(v) = value(arg, "--seed", &mut it) {
            let v = v.map_err(|e| bad("--seed", e))?;
            a.opts.seed = v.parse().map_err(|_| bad("--seed", format!("'{v}' is not a non-negative integer")))?;
        } else if let Some(v) = value(arg, "--cc", &mut it) {
            a.opts.cc = Some(v.map_err(|e| bad("--cc", e))?.to_string());
        } else if let Some(v) = value(arg, "--duration", &mut it) {
            let v = v.map_err(|e| bad("--duration", e))?;
            a.opts.duration_s = Some(v.parse().map_err(|_| bad("--duration", format!("'{v}' is not a number")))?);
        } else if let Some(v) = value(arg, "--sample-ms", &mut it) {
            let v = v.map_err(|e| bad("--sample-ms", e))?;
            a.opts.sample_ms = Some(v.parse().map_err(|_| bad("--sample-ms", format!("'{v}' is not an integer")))?);
        } else if let Some(v) = value(arg, "--rto-min-ms", &mut it) {
            let v = v.map_err(|e| bad("--rto-min-ms", e))?;
            a.opts.rto_min_ms = Some(v.parse().map_err(|_| bad("--rto-min-ms", format!("'{v}' is not an integer")))?);
        } else if arg == "--tables" {
            a.opts.tables = true;
        } else if let Some(v) = value(arg, "--sysctl", &mut it) {
            a.opts.sysctls.push(v.map_err(|e| bad("--sysctl", e))?.to_string());
        } else if let Some(v) = value(arg, "--pcap", &mut it) {
            a.opts.pcap_dir = Some(v.map_err(|e| bad("--pcap", e))?.into());
        } else if let Some(v) = value(arg, "--on", &mut it) {
            a.opts.on_host = Some(v.map_err(|e| bad("--on", e))?.to_string());
        } else if let Some(v) = value(arg, "--format", &mut it) {
            a.json = match v.map_err(|e| bad("--format", e))? {
                "json" => true,
                "table" => false,
                other => return Err(bad("--format", format!("'{other}' is not table or json"))),
            };
        } else if arg.starts_with('-') {
            return Err(bad(arg, "no such option of lasthop live".into()));
        } else if scenario.replace(arg).is_some() {
            return Err(bad(arg, "one scenario only".into()));
        }
    }
    a.scenario = scenario
        .ok_or_else(|| ("SCENARIO".to_string(), "missing (a file or an embedded name)".to_string()))?
        .to_string();
    Ok(a)
}

fn load(name: &str, sets: &[String]) -> Result<Scenario, (String, String)> {
    let (text, fmt, origin) = crate::find_scenario(name).map_err(|_| {
        ("SCENARIO".to_string(), format!("'{name}' is neither a readable file nor an embedded scenario"))
    })?;
    Scenario::load(&text, fmt, sets, &origin).map_err(|e| (e.path.clone(), e.reason.clone()))
}

fn table(r: &LiveReport) -> String {
    let mut s = format!("live run {} of {} (seed {}), {:.2} s\n\n", r.run, r.scenario, r.seed, r.wall_s);
    s += &format!(
        "{:<12} {:>12} {:>10} {:>12} {:>8} {:>8} {:>8} {}\n",
        "flow", "bytes", "time_s", "Mb/s", "retx", "src_retx", "local", ""
    );
    for f in &r.flows {
        s += &format!(
            "{:<12} {:>12} {:>10.3} {:>12.4} {:>8} {:>8} {:>8} {}\n",
            f.name,
            f.bytes_delivered,
            f.transfer_time_s,
            f.throughput_bps / 1e6,
            f.retransmits,
            f.source_retransmits,
            f.local_retransmits,
            [
                f.proxy_retransmits.map(|n| format!("split proxy retx {n}")),
                f.error.clone(),
                (!f.completed && f.error.is_none()).then(|| "(incomplete)".to_string()),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ")
        );
    }
    s += &format!(
        "\n{:<24} {:>9} {:>9} {:>9} {:>7} {:>8} {:>6}\n",
        "link direction", "sent", "delivered", "corrupted", "qdrops", "goodput", "util"
    );
    for d in &r.links {
        s += &format!(
            "{:<24} {:>9} {:>9} {:>9} {:>7} {:>8} {:>6.3}\n",
            format!("{}:{}", d.link, d.dir),
            d.packets_sent,
            d.delivered,
            d.corrupted,
            d.queue_drops,
            d.goodput.map_or("-".to_string(), |g| format!("{:.4}", g)),
            d.utilisation
        );
    }
    s += &format!(
        "\nwake-ups: mean {:.1} us late, max {:.1} us, {} over 1 ms; packets in {}, out {}, unroutable {}\n",
        r.wakeups.mean_late_us,
        r.wakeups.max_late_us,
        r.wakeups.late_over_1ms,
        r.network.injected,
        r.network.delivered,
        r.network.unroutable
    );
    if let Some(c) = r.command_status {
        s += &format!("command exit status: {c}\n");
    }
    s
}

/// `lasthop live ...`.
pub fn main(args: &[&str]) -> ExitCode {
    if args == ["--cleanup"] {
        return match lasthop_live::host::cleanup_leftovers() {
            Ok(c) => {
                println!("removed {} namespaces of {} ended runs", c.namespaces.len(), c.runs.len());
                for n in &c.namespaces {
                    println!("  {n}");
                }
                ExitCode::SUCCESS
            }
            Err(e) => usage_error("--cleanup", &e.to_string()),
        };
    }
    let a = match parse(args) {
        Ok(a) => a,
        Err((what, why)) => return usage_error(&what, &why),
    };
    let scenario = match load(&a.scenario, &a.sets) {
        Ok(s) => s,
        Err((what, why)) => return usage_error(&what, &why),
    };
    if let Err(e) = lasthop_live::run::check(&scenario.model, &a.opts) {
        return match e {
            LiveError::Plan(p) => usage_error(&p.field, &p.reason),
            LiveError::Option(o, why) => usage_error(&o, &why),
            LiveError::Host(h) => usage_error("live", &h),
        };
    }
    // SAFETY: the handler only stores to an atomic (async-signal-safe).
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
    let report = match live(&scenario.model, &a.opts, &STOP) {
        Ok(r) => r,
        Err(LiveError::Host(h)) => {
            eprintln!("lasthop: error: live: {h}");
            return ExitCode::from(1);
        }
        Err(LiveError::Plan(p)) => return usage_error(&p.field, &p.reason),
        Err(LiveError::Option(o, why)) => return usage_error(&o, &why),
    };
    if STOP.load(Ordering::Relaxed) {
        eprintln!("lasthop: error: interrupted (everything the run made is removed)");
        return ExitCode::from(crate::EXIT_INTERRUPTED);
    }
    let text = if a.json {
        serde_json::to_string_pretty(&report).expect("a report serializes") + "\n"
    } else {
        table(&report)
    };
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
