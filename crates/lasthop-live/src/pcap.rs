//! Captures of the raw IP packets live mode reads and writes, as a classic
//! libpcap file (the format of libpcap 2.4, as `pcap-savefile(5)` and the
//! IETF draft draft-ietf-opsawg-pcap describe it) that Wireshark, tshark and
//! tcpdump read.
//!
//! The file header is written with the nanosecond magic 0xa1b23c4d in the
//! machine's own byte order (readers detect the order from the magic),
//! version 2.4, snap length 65535 and link type LINKTYPE_RAW (101): each
//! record is an IPv4 datagram with no link-layer header, exactly the bytes a
//! TUN device (`IFF_TUN | IFF_NO_PI`) hands over. Each record's timestamp
//! is a u64 count of nanoseconds (live mode's clock; from the Unix epoch if
//! the caller's is), split into seconds and nanoseconds.
//!
//! Departures: none from the format; records longer than the snap length
//! are cut to it (their original length kept), as libpcap does. Unlike
//! `lasthop_sim::pcap` (Ethernet frames made from the model), nothing here
//! is synthesised: the bytes are the real ones.

use std::io::{self, Write};

/// Nanosecond-resolution libpcap magic.
pub const MAGIC_NS: u32 = 0xa1b2_3c4d;
/// LINKTYPE_RAW: the packet begins with an IPv4 or IPv6 header.
pub const LINKTYPE_RAW: u32 = 101;
/// Largest record kept, in bytes.
pub const SNAPLEN: u32 = 65_535;

/// A pcap writer over any [`Write`] (a file, a `Vec<u8>`).
pub struct PcapWriter<W: Write> {
    out: W,
    /// Records written.
    pub records: u64,
}

impl<W: Write> PcapWriter<W> {
    /// Write the 24-byte file header.
    pub fn new(mut out: W) -> io::Result<PcapWriter<W>> {
        let mut h = [0u8; 24];
        h[0..4].copy_from_slice(&MAGIC_NS.to_ne_bytes());
        h[4..6].copy_from_slice(&2u16.to_ne_bytes());
        h[6..8].copy_from_slice(&4u16.to_ne_bytes());
        // thiszone and sigfigs: 0.
        h[16..20].copy_from_slice(&SNAPLEN.to_ne_bytes());
        h[20..24].copy_from_slice(&LINKTYPE_RAW.to_ne_bytes());
        out.write_all(&h)?;
        Ok(PcapWriter { out, records: 0 })
    }

    /// One record: `packet` (a raw IP datagram) at `t_ns`.
    pub fn write_packet(&mut self, t_ns: u64, packet: &[u8]) -> io::Result<()> {
        let orig_len = u32::try_from(packet.len()).unwrap_or(u32::MAX);
        let cap = packet.len().min(SNAPLEN as usize);
        let mut h = [0u8; 16];
        // Seconds wrap in 2106 (the format's u32).
        h[0..4].copy_from_slice(&((t_ns / 1_000_000_000) as u32).to_ne_bytes());
        h[4..8].copy_from_slice(&((t_ns % 1_000_000_000) as u32).to_ne_bytes());
        h[8..12].copy_from_slice(&(cap as u32).to_ne_bytes());
        h[12..16].copy_from_slice(&orig_len.to_ne_bytes());
        self.out.write_all(&h)?;
        self.out.write_all(&packet[..cap])?;
        self.records += 1;
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The writer underneath.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::tests::LINUX_SYN;

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_ne_bytes(b[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn header_and_records_read_back() {
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        w.write_packet(1_700_000_000_123_456_789, &LINUX_SYN).unwrap();
        w.write_packet(1_700_000_001_000_000_000, &LINUX_SYN[..40]).unwrap();
        assert_eq!(w.records, 2);
        let b = w.into_inner();
        assert_eq!(u32_at(&b, 0), 0xa1b2_3c4d);
        assert_eq!(u16::from_ne_bytes([b[4], b[5]]), 2);
        assert_eq!(u16::from_ne_bytes([b[6], b[7]]), 4);
        assert_eq!((u32_at(&b, 8), u32_at(&b, 12)), (0, 0));
        assert_eq!(u32_at(&b, 16), 65_535);
        assert_eq!(u32_at(&b, 20), 101);
        assert_eq!((u32_at(&b, 24), u32_at(&b, 28)), (1_700_000_000, 123_456_789));
        assert_eq!((u32_at(&b, 32), u32_at(&b, 36)), (60, 60));
        assert_eq!(&b[40..100], &LINUX_SYN[..]);
        assert_eq!((u32_at(&b, 100), u32_at(&b, 104), u32_at(&b, 108)), (1_700_000_001, 0, 40));
        assert_eq!(b.len(), 24 + 16 + 60 + 16 + 40);
    }

    #[test]
    fn a_record_beyond_the_snap_length_is_cut() {
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        w.write_packet(0, &vec![0x45; 70_000]).unwrap();
        let b = w.into_inner();
        assert_eq!((u32_at(&b, 32), u32_at(&b, 36)), (65_535, 70_000));
        assert_eq!(b.len(), 24 + 16 + 65_535);
    }

    /// tshark, when installed, reads the file as a raw-IP capture of one TCP SYN.
    #[test]
    fn tshark_reads_the_file_if_installed() {
        let Ok(out) = std::process::Command::new("tshark").arg("--version").output() else {
            println!("tshark not found: skipping the read-back check");
            return;
        };
        if !out.status.success() {
            println!("tshark not usable: skipping the read-back check");
            return;
        }
        let path = std::env::temp_dir().join(format!("lasthop-live-pcap-{}.pcap", std::process::id()));
        let mut w = PcapWriter::new(std::fs::File::create(&path).unwrap()).unwrap();
        w.write_packet(1_000_000_123, &LINUX_SYN).unwrap();
        w.flush().unwrap();
        drop(w);
        let out = std::process::Command::new("tshark")
            .args(["-n", "-r"])
            .arg(&path)
            .args([
                "-T",
                "fields",
                "-e",
                "ip.src",
                "-e",
                "tcp.dstport",
                "-e",
                "tcp.flags.syn",
                "-e",
                "tcp.options.wscale.shift",
            ])
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&path);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "tshark failed: {}", String::from_utf8_lossy(&out.stderr));
        let fields: Vec<&str> = text.trim().split('\t').collect();
        assert_eq!(fields[..2], ["10.0.0.1", "5001"][..], "{text}");
        // Older tshark prints flags as 1, newer as True.
        assert!(matches!(fields[2], "1" | "True"), "{text}");
        assert_eq!(fields[3], "7", "{text}");
    }
}
