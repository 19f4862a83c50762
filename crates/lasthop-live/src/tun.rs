//! TUN devices (Linux's `Documentation/networking/tuntap.rst`): a point-to-
//! point IP interface whose other end is a file descriptor of this process.
//! Opened with `IFF_TUN | IFF_NO_PI`, a read returns one whole IP packet
//! (no Ethernet header, no packet-information prefix) and a write injects
//! one. The device is made in this process's namespace and then moved into
//! a host's ([`crate::host`]); the descriptor keeps working after the move,
//! and the device disappears when the descriptor closes (it is not made
//! persistent), so a crashed run leaves no device behind.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;

const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;

#[repr(C)]
struct IfReq {
    name: [u8; libc::IFNAMSIZ],
    flags: libc::c_short,
    _pad: [u8; 22],
}

/// An open TUN device.
#[derive(Debug)]
pub struct Tun {
    file: File,
    name: String,
}

impl Tun {
    /// Make TUN device `name` (at most 15 bytes), non-blocking.
    pub fn open(name: &str) -> io::Result<Tun> {
        if name.is_empty() || name.len() >= libc::IFNAMSIZ {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("bad interface name '{name}'")));
        }
        let file = OpenOptions::new().read(true).write(true).custom_flags(libc::O_NONBLOCK).open("/dev/net/tun")?;
        let mut req = IfReq { name: [0; libc::IFNAMSIZ], flags: IFF_TUN | IFF_NO_PI, _pad: [0; 22] };
        req.name[..name.len()].copy_from_slice(name.as_bytes());
        // SAFETY: TUNSETIFF reads and writes an `ifreq`, which `IfReq`
        // lays out (name, then the flags of the union), and the pointer is
        // valid for the call.
        let rc = unsafe { libc::ioctl(file.as_raw_fd(), TUNSETIFF as _, &mut req as *mut IfReq) };
        if rc < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Tun { file, name: name.to_string() })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn fd(&self) -> i32 {
        self.file.as_raw_fd()
    }

    /// One packet into `buf`; `None` when none waits.
    pub fn recv(&self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        // SAFETY: `buf` is valid for writes of its length.
        let n = unsafe { libc::read(self.fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n >= 0 {
            return Ok(Some(n as usize));
        }
        let e = io::Error::last_os_error();
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
            _ => Err(e),
        }
    }

    /// Hand `pkt` to the host's kernel. A full device queue drops it (the
    /// kernel's own rule for TUN writes); the error is returned.
    pub fn send(&self, pkt: &[u8]) -> io::Result<()> {
        // SAFETY: `pkt` is valid for reads of its length.
        let n = unsafe { libc::write(self.fd(), pkt.as_ptr().cast(), pkt.len()) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}
