//! The built-in workload: per flow, a bulk sender in its source host's
//! namespace and a receiver in its destination's, over real kernel
//! sockets, and the sender's `TCP_INFO` sampled over time (the kernel's
//! own view: cwnd, retransmissions, smoothed RTT).
//!
//! The receiver listens on port 5001 + the flow's index and reads until
//! the sender closes; the flow's throughput is what the receiving
//! application got, over the time from the sender's connect to the last
//! byte read (the simulator's transfer time runs from the flow's start to
//! its last byte delivered).

use crate::host::{addr_str, host_addr, join_netns, open_netns};
use crate::plan::FlowPlan;
use lasthop_sim::scenario::model::Workload;
use std::io::{self, Read, Write};
use std::net::{SocketAddrV4, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One sample of the sender's `TCP_INFO`.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct InfoSample {
    /// Since the run's start, in seconds.
    pub t_s: f64,
    pub cwnd_segments: u32,
    pub ssthresh_segments: u32,
    pub rtt_us: u32,
    pub rttvar_us: u32,
    /// Segments retransmitted so far (`tcpi_total_retrans`).
    pub total_retrans: u32,
    pub rto_us: u32,
    pub ca_state: u8,
    /// The sender's MSS (`tcpi_snd_mss`), in bytes.
    pub mss_bytes: u32,
}

/// What a flow's workload measured.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct FlowResult {
    pub name: String,
    pub bytes_delivered: u64,
    /// From the sender's connect to the last byte read, in seconds.
    pub transfer_time_s: f64,
    pub throughput_bps: f64,
    /// The kernel's count of segments the source retransmitted.
    pub retransmits: u32,
    pub completed: bool,
    pub samples: Vec<InfoSample>,
    /// The receiving application's bytes over time: (seconds since the
    /// run's start, bytes so far), at most one point per sampling interval.
    pub delivered: Vec<(f64, u64)>,
    /// From the packets (the relay's count): the source's retransmitted
    /// segments, and those the flow's agents sent (snoop's local ones).
    pub source_retransmits: u64,
    pub local_retransmits: u64,
    /// A split flow's wireless leg: the proxy's retransmissions.
    pub proxy_retransmits: Option<u64>,
    pub error: Option<String>,
}

fn tcp_info(s: &TcpStream) -> Option<libc::tcp_info> {
    // SAFETY: tcp_info is plain data; getsockopt writes at most `len` bytes.
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    // SAFETY: valid socket, pointer and length for the call.
    let rc = unsafe {
        libc::getsockopt(
            s.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut info as *mut libc::tcp_info).cast(),
            &mut len,
        )
    };
    (rc == 0).then_some(info)
}

fn set_int(fd: i32, level: i32, opt: i32, v: i32) -> io::Result<()> {
    // SAFETY: an int option, passed by pointer with its size.
    let rc = unsafe { libc::setsockopt(fd, level, opt, (&v as *const i32).cast(), std::mem::size_of::<i32>() as _) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn set_cc(fd: i32, cc: &str) -> io::Result<()> {
    // SAFETY: TCP_CONGESTION takes the name's bytes and their length.
    let rc =
        unsafe { libc::setsockopt(fd, libc::IPPROTO_TCP, libc::TCP_CONGESTION, cc.as_ptr().cast(), cc.len() as _) };
    if rc != 0 {
        return Err(io::Error::new(
            io::Error::last_os_error().kind(),
            format!("TCP_CONGESTION {cc}: {}", io::Error::last_os_error()),
        ));
    }
    Ok(())
}

/// Listen at `addr` (with receive buffer `rcvbuf`) from a thread that has
/// joined namespace `ns`, and serve the listener there with `serve`; returns
/// once it listens, so that a peer may connect at once.
fn listen_in<T: Send + 'static>(
    ns: std::fs::File,
    addr: SocketAddrV4,
    rcvbuf: Option<u64>,
    serve: impl FnOnce(TcpListener) -> io::Result<T> + Send + 'static,
) -> io::Result<JoinHandle<io::Result<T>>> {
    let (tx, rx) = std::sync::mpsc::channel::<io::Result<()>>();
    let handle = std::thread::spawn(move || {
        let listener = (|| -> io::Result<TcpListener> {
            join_netns(&ns)?;
            let l = TcpListener::bind(addr)?;
            if let Some(b) = rcvbuf {
                // The model's receive window is the buffer: the kernel's
                // window is clamped to it (TCP_WINDOW_CLAMP, inherited by
                // the accepted socket), over a buffer with room for the
                // kernel's own overhead (it offers only part of a buffer's
                // bytes as window).
                let b = b.min(i32::MAX as u64 / 4) as i32;
                set_int(l.as_raw_fd(), libc::SOL_SOCKET, libc::SO_RCVBUFFORCE, 2 * b)?;
                set_int(l.as_raw_fd(), libc::IPPROTO_TCP, libc::TCP_WINDOW_CLAMP, b)?;
            }
            l.set_nonblocking(true)?;
            Ok(l)
        })();
        match listener {
            Ok(l) => {
                let _ = tx.send(Ok(()));
                serve(l)
            }
            Err(e) => {
                let _ = tx.send(Err(io::Error::new(e.kind(), e.to_string())));
                Err(e)
            }
        }
    });
    rx.recv().unwrap_or_else(|_| Err(io::Error::other("the listening thread ended")))?;
    Ok(handle)
}

/// The one connection `l` (non-blocking) accepts, made blocking with a
/// read timeout of 50 ms; `None` once `stop` is set first.
fn accept_until(l: &TcpListener, stop: &AtomicBool) -> io::Result<Option<TcpStream>> {
    loop {
        match l.accept() {
            Ok((s, _)) => {
                s.set_nonblocking(false)?;
                s.set_read_timeout(Some(Duration::from_millis(50)))?;
                return Ok(Some(s));
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(e) => return Err(e),
        }
    }
}

/// The split proxy (I-TCP; seed 000 Sec. III-C), serving `l` in the base
/// station's namespace: for the one connection it accepts it opens its own
/// to `to`, then copies what arrives through a relay buffer of `buffer`
/// bytes (the simulator's split buffer: the wired leg reads only what the
/// buffer has room for, so its window closes while the wireless leg is
/// behind), and closes the wireless leg when the source closes.
fn proxy(l: TcpListener, to: SocketAddrV4, buffer: u64, cc: &str, stop: &AtomicBool) -> io::Result<()> {
    let Some(mut wired) = accept_until(&l, stop)? else { return Ok(()) };
    let mut wireless = TcpStream::connect(to)?;
    set_cc(wireless.as_raw_fd(), cc)?;
    let mut buf = vec![0u8; buffer.clamp(1, 1 << 22) as usize];
    loop {
        match wired.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => wireless.write_all(&buf[..n])?,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                ) =>
            {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
            }
            Err(e) => return Err(e),
        }
    }
    wireless.shutdown(std::net::Shutdown::Write)
}

/// What the receiver got: bytes, when the last came, the timeline.
type Received = (u64, Option<Instant>, Vec<(f64, u64)>);

/// The running workload of one flow.
pub struct FlowRun {
    receiver: JoinHandle<io::Result<Received>>,
    sender: JoinHandle<io::Result<(Instant, Vec<InfoSample>, u32)>>,
    name: String,
}

/// Start flow `k`'s receiver and sender in their hosts' namespaces.
/// `stop` ends a timed or unfinished flow early (Ctrl-C, the run's stop).
pub fn start(
    k: usize,
    f: &FlowPlan,
    netns: &[String],
    epoch: Instant,
    stop: Arc<AtomicBool>,
    sample_every: Duration,
) -> io::Result<FlowRun> {
    let port = 5001 + k as u16;
    let to_addr = SocketAddrV4::new(host_addr(f.to).into(), port);
    let rx_ns = open_netns(&netns[f.to])?;
    let tx_ns = open_netns(&netns[f.from])?;
    let stop_rx = stop.clone();
    let recv_buffer = f.recv_buffer;
    // The receiver listens before the sender connects.
    let receiver = listen_in(rx_ns, to_addr, f.recv_buffer, move |l| -> io::Result<Received> {
        let Some(mut s) = accept_until(&l, &stop_rx)? else { return Ok((0, None, Vec::new())) };
        if let Some(b) = recv_buffer {
            // The listener's clamp is not the accepted socket's on every
            // kernel (seen here: 6.18 offered 1 MB past a 512 KB clamp).
            set_int(s.as_raw_fd(), libc::IPPROTO_TCP, libc::TCP_WINDOW_CLAMP, b.min(i32::MAX as u64 / 4) as i32)?;
        }
        let mut buf = vec![0u8; 1 << 16];
        let (mut bytes, mut last) = (0u64, None);
        let mut timeline = vec![(epoch.elapsed().as_secs_f64(), 0u64)];
        let mut mark = Instant::now() + sample_every;
        loop {
            match s.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    bytes += n as u64;
                    let now = Instant::now();
                    last = Some(now);
                    if now >= mark {
                        timeline.push((now.duration_since(epoch).as_secs_f64(), bytes));
                        while mark <= now {
                            mark += sample_every;
                        }
                    }
                }
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                    if stop_rx.load(Ordering::Relaxed) {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if let Some(l) = last {
            timeline.push((l.duration_since(epoch).as_secs_f64(), bytes));
        }
        Ok((bytes, last, timeline))
    })
    .map_err(|e| io::Error::new(e.kind(), format!("receiver of flow {}: {e}", f.name)))?;
    // A split flow: the proxy in the base station's namespace accepts the
    // source's connection and opens its own to the receiver (two kernel
    // connections, I-TCP's); the source connects to the proxy.
    let connect_to = match f.split {
        Some((via, buffer)) => {
            let proxy_addr = SocketAddrV4::new(host_addr(via).into(), port);
            let (cc, stop) = (f.cc.clone(), stop.clone());
            listen_in(open_netns(&netns[via])?, proxy_addr, None, move |l| proxy(l, to_addr, buffer, &cc, &stop))
                .map_err(|e| io::Error::new(e.kind(), format!("split proxy of flow {}: {e}", f.name)))?;
            proxy_addr
        }
        None => to_addr,
    };
    let (cc, send_buffer, workload, start_ns) = (f.cc.clone(), f.send_buffer, f.workload, f.start_ns);
    let sender = std::thread::spawn(move || -> io::Result<(Instant, Vec<InfoSample>, u32)> {
        join_netns(&tx_ns)?;
        let wait = Duration::from_nanos(start_ns).saturating_sub(epoch.elapsed());
        std::thread::sleep(wait);
        // The socket is made before connecting so that its options hold
        // from the SYN on.
        // SAFETY: a new socket; its descriptor is owned by the stream below.
        let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` is a fresh socket no one else owns.
        let s: TcpStream = unsafe { std::os::fd::FromRawFd::from_raw_fd(fd) };
        set_cc(fd, &cc)?;
        if let Some(b) = send_buffer {
            set_int(fd, libc::SOL_SOCKET, libc::SO_SNDBUFFORCE, b.min(i32::MAX as u64 / 2) as i32)?;
        }
        let sa = libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: connect_to.port().to_be(),
            sin_addr: libc::in_addr { s_addr: u32::from_ne_bytes(connect_to.ip().octets()) },
            sin_zero: [0; 8],
        };
        let connect_at = Instant::now();
        // SAFETY: a valid sockaddr_in and its size.
        let rc = unsafe {
            libc::connect(fd, (&sa as *const libc::sockaddr_in).cast(), std::mem::size_of::<libc::sockaddr_in>() as _)
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut s = s;
        s.set_write_timeout(Some(Duration::from_millis(20)))?;
        let chunk = vec![0x5au8; 1 << 16];
        let mut samples = Vec::new();
        let mut next_sample = Instant::now();
        let sample = |s: &TcpStream, samples: &mut Vec<InfoSample>| {
            if let Some(i) = tcp_info(s) {
                samples.push(InfoSample {
                    t_s: epoch.elapsed().as_secs_f64(),
                    cwnd_segments: i.tcpi_snd_cwnd,
                    ssthresh_segments: i.tcpi_snd_ssthresh,
                    rtt_us: i.tcpi_rtt,
                    rttvar_us: i.tcpi_rttvar,
                    total_retrans: i.tcpi_total_retrans,
                    rto_us: i.tcpi_rto,
                    ca_state: i.tcpi_ca_state,
                    mss_bytes: i.tcpi_snd_mss,
                });
            }
        };
        let mut sent = 0u64;
        loop {
            if Instant::now() >= next_sample {
                sample(&s, &mut samples);
                next_sample += sample_every;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let want = match workload {
                Workload::Bulk { bytes } => (bytes - sent).min(chunk.len() as u64) as usize,
                Workload::Timed { duration_ns } => {
                    if connect_at.elapsed() >= Duration::from_nanos(duration_ns) {
                        0
                    } else {
                        chunk.len()
                    }
                }
            };
            if want == 0 {
                break;
            }
            match s.write(&chunk[..want]) {
                Ok(n) => sent += n as u64,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => return Err(e),
            }
        }
        s.shutdown(std::net::Shutdown::Write).ok();
        // Until the receiver has everything (the socket drains), keep
        // sampling; the receiver's end decides completion.
        let deadline = Instant::now() + Duration::from_secs(600);
        while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
            match tcp_info(&s) {
                Some(i) if i.tcpi_state == 7 /* TCP_CLOSE */ || i.tcpi_unacked == 0 => break,
                _ => {}
            }
            if Instant::now() >= next_sample {
                sample(&s, &mut samples);
                next_sample += sample_every;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        sample(&s, &mut samples);
        let retrans = tcp_info(&s).map_or(0, |i| i.tcpi_total_retrans);
        Ok((connect_at, samples, retrans))
    });
    Ok(FlowRun { receiver, sender, name: f.name.clone() })
}

impl FlowRun {
    /// Has the receiver finished (the sender closed, or the run stopped)?
    pub fn done(&self) -> bool {
        self.receiver.is_finished() && self.sender.is_finished()
    }

    /// Wait for both ends; what they measured.
    pub fn finish(self, bulk: Option<u64>) -> FlowResult {
        let mut r = FlowResult { name: self.name, ..FlowResult::default() };
        let rx = self.receiver.join().unwrap_or_else(|_| Err(io::Error::other("receiver panicked")));
        let tx = self.sender.join().unwrap_or_else(|_| Err(io::Error::other("sender panicked")));
        match (rx, tx) {
            (Ok((bytes, last, timeline)), Ok((connect_at, samples, retrans))) => {
                r.delivered = timeline;
                r.bytes_delivered = bytes;
                r.transfer_time_s = last.map_or(0.0, |l| l.saturating_duration_since(connect_at).as_secs_f64());
                r.throughput_bps = if r.transfer_time_s > 0.0 { bytes as f64 * 8.0 / r.transfer_time_s } else { 0.0 };
                r.retransmits = retrans;
                r.samples = samples;
                r.completed = bulk.is_none_or(|b| bytes >= b);
            }
            (rx, tx) => {
                r.error = Some(
                    [rx.err().map(|e| format!("receiver: {e}")), tx.err().map(|e| format!("sender: {e}"))]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join("; "),
                );
            }
        }
        r
    }
}

/// The dotted address of host `k`.
pub fn host_addr_str(k: usize) -> String {
    addr_str(host_addr(k))
}
