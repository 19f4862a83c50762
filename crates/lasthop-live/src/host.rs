//! The hosts of a live run: one Linux network namespace per host, named
//! `lh-<run>-<host>`, each with one TUN device `lh<run>t<k>` whose other end
//! is this process, and the kernel TCP settings its scenario asks for.
//!
//! Everything a run makes carries its run id (six hex digits), and a run
//! registers itself in `/run/lasthop-live/<run>/pid` before it makes
//! anything, so [`cleanup_leftovers`] (`lasthop live --cleanup`) removes
//! only what a run that is no longer alive made, and never touches another
//! namespace or device. A run removes what it made when it ends, on
//! Ctrl-C (the caller's signal flag stops the relay) and on a panic
//! (`Drop`); after `kill -9` its TUN devices go with its descriptors (they
//! are not persistent) and its namespaces stay until `--cleanup`.
//!
//! Namespaces and addresses are made with iproute2's `ip`; sysctls and
//! sockets inside a namespace are reached from a thread that joined it
//! (`setns(2)`, which moves only the calling thread).

use crate::tun::Tun;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where runs register themselves.
pub const REGISTRY: &str = "/run/lasthop-live";
/// Where iproute2 keeps named namespaces.
const NETNS_DIR: &str = "/run/netns";

/// The address of host `k` (0-based): 10.77.0.0/16, from 10.77.0.1.
pub fn host_addr(k: usize) -> [u8; 4] {
    let n = k + 1;
    [10, 77, (n >> 8) as u8, (n & 0xff) as u8]
}

pub fn addr_str(a: [u8; 4]) -> String {
    format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3])
}

/// A fresh run id: six hex digits from the kernel's random source.
pub fn new_run_id() -> io::Result<String> {
    let mut b = [0u8; 3];
    fs::File::open("/dev/urandom")?.read_exact(&mut b)?;
    Ok(format!("{:02x}{:02x}{:02x}", b[0], b[1], b[2]))
}

/// A host name as it may appear in a namespace name: ASCII letters,
/// digits, `-` and `_`; anything else becomes `_`.
fn clean(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).take(40).collect()
}

/// What a host's kernel is set to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelTcp {
    /// `net.ipv4.tcp_congestion_control`: reno, cubic or bbr.
    pub cc: String,
    /// `net.ipv4.tcp_sack`.
    pub sack: bool,
    /// `net.ipv4.tcp_timestamps`.
    pub timestamps: bool,
    /// `net.ipv4.tcp_ecn` (1: request ECN; 2, the kernel's default:
    /// accept it only).
    pub ecn: bool,
    /// The route's `initcwnd`, in segments (`None`: the kernel's, 10).
    pub initcwnd: Option<u32>,
    /// The TUN device's MTU: the model's largest packet.
    pub mtu: u32,
    /// The route's `rto_min`, in ms (`None`: the kernel's, 200 ms).
    pub rto_min_ms: Option<u32>,
    /// Further `net.ipv4.tcp_*` settings (`lasthop live --sysctl`), applied
    /// last: e.g. `net.ipv4.tcp_recovery=0` turns RACK off.
    pub extra: Vec<(String, String)>,
}

/// Check a `--sysctl KEY=VALUE`: a key under `net.ipv4.tcp_` (the TCP a
/// host runs; nothing outside its namespace), a value of printable ASCII.
pub fn check_sysctl(kv: &str) -> Result<(String, String), String> {
    let (k, v) = kv.split_once('=').ok_or_else(|| format!("'{kv}' is not KEY=VALUE"))?;
    let (k, v) = (k.trim(), v.trim());
    let name_ok = k.strip_prefix("net.ipv4.tcp_").is_some_and(|rest| {
        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    });
    if !name_ok {
        return Err(format!("'{k}' is not a net.ipv4.tcp_* setting"));
    }
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
        return Err(format!("'{v}' is not a value for {k}"));
    }
    if !std::path::Path::new("/proc/sys").join(k.replace('.', "/")).exists() {
        return Err(format!("this kernel has no {k}"));
    }
    Ok((k.to_string(), v.to_string()))
}

/// One host to make.
#[derive(Clone, Debug)]
pub struct HostSpec {
    /// The scenario's node name.
    pub name: String,
    pub tcp: KernelTcp,
}

/// A made host.
#[derive(Debug)]
pub struct Host {
    pub name: String,
    pub netns: String,
    pub addr: [u8; 4],
    pub tun: Tun,
}

/// The namespaces and devices of one run; removed on drop.
#[derive(Debug)]
pub struct Lab {
    pub run: String,
    pub hosts: Vec<Host>,
    registry: PathBuf,
    made: Vec<String>,
}

/// A failure to make or set up a host: what was being done and why.
#[derive(Debug)]
pub struct HostError(pub String);

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn ip(args: &[&str]) -> Result<(), HostError> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| HostError(format!("ip {}: {e} (live mode needs iproute2)", args.join(" "))))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(HostError(format!("ip {}: {}", args.join(" "), err.trim())));
    }
    Ok(())
}

/// Run `f` on a thread that has joined namespace `netns`; its result.
pub fn in_netns<T: Send>(netns: &str, f: impl FnOnce() -> T + Send) -> io::Result<T> {
    let path = Path::new(NETNS_DIR).join(netns);
    let file = fs::File::open(&path)?;
    std::thread::scope(|s| {
        s.spawn(|| {
            join_netns(&file)?;
            Ok(f())
        })
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("a thread in the namespace panicked")))
    })
}

/// Move the calling thread into the namespace `file` names.
pub fn join_netns(file: &fs::File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: setns on a valid descriptor affects only the calling thread.
    if unsafe { libc::setns(file.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Open namespace `netns`, for [`join_netns`].
pub fn open_netns(netns: &str) -> io::Result<fs::File> {
    fs::File::open(Path::new(NETNS_DIR).join(netns))
}

fn write_sysctl(key: &str, value: &str) -> io::Result<()> {
    let path = format!("/proc/sys/{}", key.replace('.', "/"));
    fs::write(&path, value).map_err(|e| io::Error::new(e.kind(), format!("{key} = {value}: {e}")))
}

impl Lab {
    /// Make the hosts, in order (host k gets [`host_addr`]`(k)`).
    pub fn create(run: &str, specs: &[HostSpec]) -> Result<Lab, HostError> {
        let registry = Path::new(REGISTRY).join(run);
        fs::create_dir_all(&registry).map_err(|e| HostError(format!("{}: {e}", registry.display())))?;
        fs::write(registry.join("pid"), std::process::id().to_string())
            .map_err(|e| HostError(format!("{}: {e}", registry.display())))?;
        let mut lab = Lab { run: run.to_string(), hosts: Vec::new(), registry, made: Vec::new() };
        for (k, spec) in specs.iter().enumerate() {
            let netns = format!("lh-{run}-{}", clean(&spec.name));
            ip(&["netns", "add", &netns])?;
            lab.made.push(netns.clone());
            let tcp = spec.tcp.clone();
            in_netns(&netns, move || -> io::Result<()> {
                // No IPv6 on the devices to come: their router
                // solicitations would be packets no scenario sent.
                write_sysctl("net.ipv6.conf.default.disable_ipv6", "1").ok();
                write_sysctl("net.ipv6.conf.all.disable_ipv6", "1").ok();
                // Outside the root namespace the kernel lets a default be
                // only one of `tcp_allowed_congestion_control` (the root's
                // setting, which a run does not touch): otherwise EPERM,
                // and the built-in workload sets its own per socket
                // (TCP_CONGESTION, which CAP_NET_ADMIN may set to any).
                match write_sysctl("net.ipv4.tcp_congestion_control", &tcp.cc) {
                    Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {}
                    other => other?,
                }
                write_sysctl("net.ipv4.tcp_sack", if tcp.sack { "1" } else { "0" })?;
                write_sysctl("net.ipv4.tcp_timestamps", if tcp.timestamps { "1" } else { "0" })?;
                write_sysctl("net.ipv4.tcp_ecn", if tcp.ecn { "1" } else { "2" })?;
                // Each run starts from nothing the kernel learnt before.
                write_sysctl("net.ipv4.tcp_no_metrics_save", "1")?;
                for (k, v) in &tcp.extra {
                    write_sysctl(k, v)?;
                }
                Ok(())
            })
            .and_then(|r| r)
            .map_err(|e| HostError(format!("host {}: {e}", spec.name)))?;
            let tun_name = format!("lh{run}t{k}");
            let tun = Tun::open(&tun_name).map_err(|e| HostError(format!("TUN device {tun_name}: {e}")))?;
            ip(&["link", "set", "dev", &tun_name, "netns", &netns])?;
            let addr = host_addr(k);
            let a = addr_str(addr);
            let mtu = spec.tcp.mtu.to_string();
            ip(&["-n", &netns, "link", "set", "dev", "lo", "up"])?;
            ip(&["-n", &netns, "link", "set", "dev", &tun_name, "mtu", &mtu, "up"])?;
            ip(&["-n", &netns, "addr", "add", &format!("{a}/32"), "dev", &tun_name])?;
            let initcwnd = spec.tcp.initcwnd.map(|n| n.to_string());
            let mut route = vec!["-n", &netns, "route", "add", "10.77.0.0/16", "dev", &tun_name, "src", &a];
            if let Some(n) = &initcwnd {
                route.extend(["initcwnd", n.as_str()]);
            }
            let rto_min = spec.tcp.rto_min_ms.map(|ms| format!("{ms}ms"));
            if let Some(r) = &rto_min {
                route.extend(["rto_min", r.as_str()]);
            }
            ip(&route)?;
            lab.hosts.push(Host { name: spec.name.clone(), netns, addr, tun });
        }
        Ok(lab)
    }

    /// Remove what the run made (also on drop).
    pub fn destroy(&mut self) {
        // The devices go with their descriptors.
        self.hosts.clear();
        for netns in self.made.drain(..) {
            kill_pids_in(&netns);
            let _ = ip(&["netns", "del", &netns]);
        }
        let _ = fs::remove_dir_all(&self.registry);
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        self.destroy();
    }
}

/// Kill what still runs in namespace `netns` (a user's command of a run
/// that died).
fn kill_pids_in(netns: &str) {
    let Ok(out) = Command::new("ip").args(["netns", "pids", netns]).output() else { return };
    for pid in String::from_utf8_lossy(&out.stdout).split_whitespace().filter_map(|p| p.parse::<i32>().ok()) {
        // SAFETY: a signal to a process id; no memory is involved.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 checks for existence only.
    pid > 0 && (unsafe { libc::kill(pid, 0) } == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH))
}

/// Is `name` a namespace of run `run` (`lh-<run>-...`)? The run id is six
/// hex digits.
fn run_of(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("lh-")?;
    let (run, host) = rest.split_once('-')?;
    (run.len() == 6 && run.bytes().all(|b| b.is_ascii_hexdigit()) && !host.is_empty()).then_some(run)
}

/// What [`cleanup_leftovers`] removed.
#[derive(Debug, Default)]
pub struct Cleaned {
    pub runs: Vec<String>,
    pub namespaces: Vec<String>,
}

/// Remove the namespaces of every run whose process is gone (a run killed
/// with `kill -9`), and its registration. A run still alive is left alone,
/// and so is every namespace whose name does not carry a run id.
pub fn cleanup_leftovers() -> io::Result<Cleaned> {
    let mut cleaned = Cleaned::default();
    let mut live_runs = Vec::new();
    if let Ok(dir) = fs::read_dir(REGISTRY) {
        for e in dir.flatten() {
            let run = e.file_name().to_string_lossy().into_owned();
            let pid = fs::read_to_string(e.path().join("pid")).ok().and_then(|s| s.trim().parse::<i32>().ok());
            if pid.is_some_and(alive) {
                live_runs.push(run);
            } else {
                fs::remove_dir_all(e.path())?;
                cleaned.runs.push(run);
            }
        }
    }
    if let Ok(dir) = fs::read_dir(NETNS_DIR) {
        let mut names: Vec<String> = dir.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        for name in names {
            match run_of(&name) {
                Some(run) if !live_runs.iter().any(|r| r == run) => {
                    kill_pids_in(&name);
                    ip(&["netns", "del", &name]).map_err(|e| io::Error::other(e.0))?;
                    cleaned.namespaces.push(name);
                }
                _ => {}
            }
        }
    }
    Ok(cleaned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_with_a_run_id_belong_to_a_run() {
        assert_eq!(run_of("lh-0a1b2c-mh"), Some("0a1b2c"));
        assert_eq!(run_of("lh-0a1b2c-"), None);
        assert_eq!(run_of("lh-0a1b2-mh"), None);
        assert_eq!(run_of("lh-0a1b2g-mh"), None);
        assert_eq!(run_of("blue"), None);
        assert_eq!(run_of("lh-"), None);
    }

    #[test]
    fn addresses_count_from_one() {
        assert_eq!(host_addr(0), [10, 77, 0, 1]);
        assert_eq!(host_addr(255), [10, 77, 1, 0]);
        assert_eq!(clean("m h/1"), "m_h_1");
    }
}
