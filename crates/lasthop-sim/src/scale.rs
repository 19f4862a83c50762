//! Scenarios of a given size, for the scale cases of `lasthop bench` and the
//! scale tests: generated as scenario text, so that loading them costs what
//! loading a user's file of that size costs.
//!
//! - [`dumbbell`]: `pairs` sources, each on its own access link to a left
//!   router, a bottleneck to a right router, and `pairs` receivers on their
//!   own access links; flow i from source i to receiver i. 2·pairs + 2
//!   nodes, 2·pairs + 1 links.
//! - [`one_path`]: `flows` bulk flows from one host to another over a
//!   two-link path (they share every queue).
//! - [`long_fat_pipe`]: one flow over a 1 Gb/s path with a 100 ms one-way
//!   delay and a window that fills it (about 17,000 packets, data and acks,
//!   in flight).
//! - [`tree`]: a core router, `edges` edge routers on it and `hosts` hosts
//!   on each (1 + edges·(1 + hosts) nodes, as many links less one), with
//!   `flows` flows between hosts of different edge routers; most hosts stay
//!   idle. Written as JSON scenario text: at a million nodes TOML's parser
//!   alone takes longer than the load may (issue 31).

use std::fmt::Write;

/// TCP settings of the scale cases: Reno with RFC 6298 timers, immediate
/// acks, 1460-byte segments, a window of `window` bytes.
fn tcp(window: u64) -> String {
    format!(
        "[flows.tcp]\nvariant = \"reno\"\nmss_bytes = 1460\nsocket_buffer_bytes = {window}\n\
         ack = {{ policy = \"immediate\" }}\n"
    )
}

/// Flow `i` of a scale case: `bytes` from `from` to `to`, starting
/// (i mod 1000) ms into the run so that flows do not all start in step, with
/// a 64 KB window.
fn flow(s: &mut String, i: usize, from: &str, to: &str, bytes: u64) {
    let start = (i % 1000) as f64 * 1e-3;
    let tcp = tcp(65535);
    write!(
        s,
        "\n[[flows]]\nname = \"f{i}\"\nfrom = \"{from}\"\nto = \"{to}\"\nbytes = {bytes}\nstart_s = {start}\n{tcp}"
    )
    .unwrap();
}

/// A dumbbell of `pairs` flows, each moving `bytes` bytes (see `flow`).
pub fn dumbbell(pairs: usize, bytes: u64) -> String {
    let mut s = String::with_capacity(300 * pairs);
    s.push_str("name = \"dumbbell\"\nstop_s = 1000\n");
    s.push_str("nodes = [{ name = \"left\" }, { name = \"right\" }");
    for i in 0..pairs {
        write!(s, ", {{ name = \"s{i}\" }}, {{ name = \"d{i}\" }}").unwrap();
    }
    s.push_str("]\n\n");
    s.push_str(
        "[[links]]\nname = \"bottleneck\"\na = \"left\"\nb = \"right\"\nbandwidth_bps = 1e9\ndelay_ms = 10\n\
         queue_packets = 1000\n",
    );
    for i in 0..pairs {
        for (side, host, router) in [("s", "s", "left"), ("d", "d", "right")] {
            write!(
                s,
                "\n[[links]]\nname = \"{side}{i}-access\"\na = \"{host}{i}\"\nb = \"{router}\"\n\
                 bandwidth_bps = 100e6\ndelay_ms = 1\n"
            )
            .unwrap();
        }
    }
    for i in 0..pairs {
        flow(&mut s, i, &format!("s{i}"), &format!("d{i}"), bytes);
    }
    s
}

/// `flows` bulk flows of `bytes` each between the same two hosts: a
/// 100 Mb/s first link, a 10 Mb/s second link with 10 ms delay each.
pub fn one_path(flows: usize, bytes: u64) -> String {
    let mut s = String::from(
        "name = \"one-path\"\nstop_s = 10000\n\n[topology]\ntemplate = \"two_link_path\"\n\
         [topology.first]\nbandwidth_bps = 100e6\ndelay_ms = 10\nqueue_packets = 1000\n\
         [topology.second]\nbandwidth_bps = 10e6\ndelay_ms = 10\nqueue_packets = 1000\n",
    );
    for i in 0..flows {
        flow(&mut s, i, "src", "dst", bytes);
    }
    s
}

/// One flow of `bytes` over 1 Gb/s with a 100 ms one-way delay (a 200 ms
/// RTT; about 17,000 1500-byte packets fill the pipe one way, and their acks
/// the other), with a window of 32 MB and queues that hold a window.
pub fn long_fat_pipe(bytes: u64) -> String {
    format!(
        "name = \"long-fat-pipe\"\nstop_s = 1000\n\n[topology]\ntemplate = \"two_link_path\"\n\
         [topology.first]\nbandwidth_bps = 10e9\ndelay_ms = 0.01\nqueue_packets = 30000\n\
         [topology.second]\nbandwidth_bps = 1e9\ndelay_ms = 100\nqueue_packets = 30000\n\n\
         [[flows]]\nname = \"bulk\"\nfrom = \"src\"\nto = \"dst\"\nbytes = {bytes}\n{}",
        tcp(32 << 20)
    )
}

/// A two-level tree (see the module header) as JSON scenario text: each
/// flow's ends on edge routers half the tree apart, each host in at most
/// one flow (`flows` at most half the hosts, and at most `edges` times half
/// an edge's); flows of `bytes`, starting (i mod 1000) ms in; the run
/// stops at `stop_s`.
pub fn tree(edges: usize, hosts: usize, flows: usize, bytes: u64, stop_s: f64) -> String {
    assert!(flows <= edges * (hosts / 2), "each host in at most one flow");
    let host = |e: usize, k: usize| e * hosts + k;
    let mut s = String::with_capacity(120 * edges * hosts + 300 * flows);
    write!(s, "{{\"name\":\"tree\",\"stop_s\":{stop_s},\"nodes\":[{{\"name\":\"core\"}}").unwrap();
    for e in 0..edges {
        write!(s, ",{{\"name\":\"e{e}\"}}").unwrap();
    }
    for h in 0..edges * hosts {
        write!(s, ",{{\"name\":\"h{h}\"}}").unwrap();
    }
    s.push_str("],\n\"links\":[");
    for e in 0..edges {
        let sep = if e == 0 { "" } else { "," };
        write!(
            s,
            "{sep}{{\"name\":\"up{e}\",\"a\":\"e{e}\",\"b\":\"core\",\"bandwidth_bps\":1e9,\"delay_ms\":5,\"queue_packets\":1000}}"
        )
        .unwrap();
    }
    for e in 0..edges {
        for k in 0..hosts {
            let h = host(e, k);
            write!(s, ",{{\"name\":\"a{h}\",\"a\":\"h{h}\",\"b\":\"e{e}\",\"bandwidth_bps\":1e8,\"delay_ms\":1}}")
                .unwrap();
        }
    }
    s.push_str("],\n\"flows\":[");
    for i in 0..flows {
        // Sources fill the first half of each edge's hosts, round the edges;
        // each receiver is the same slot in the second half, half the tree on.
        let (e, k) = (i % edges, i / edges);
        let (from, to) = (host(e, k), host((e + edges / 2) % edges, hosts / 2 + k));
        let sep = if i == 0 { "" } else { "," };
        let start = (i % 1000) as f64 * 1e-3;
        writeln!(
            s,
            "{sep}{{\"name\":\"f{i}\",\"from\":\"h{from}\",\"to\":\"h{to}\",\"bytes\":{bytes},\"start_s\":{start},\
             \"tcp\":{{\"variant\":\"reno\",\"mss_bytes\":1460,\"socket_buffer_bytes\":65535,\"ack\":{{\"policy\":\"immediate\"}}}}}}"
        )
        .unwrap();
    }
    s.push_str("]}\n");
    s
}

/// Mobile hosts roaming a grid of cells (issue 32's speed case): `mobiles`
/// hosts, each with a link to every base station of a `cols` x `rows`
/// grid (2 Mb/s, 1 ms, 50 packets), moving on a random walk between
/// neighbouring cells with exponential residences of mean 30 s and 150 ms
/// handoffs, each downloading from one server (behind a 1 Gb/s link and a
/// router with 100 Mb/s links to the stations) for `stop_s`. Mobile `i`
/// starts in cell `i mod cells`.
pub fn roaming(mobiles: usize, cols: usize, rows: usize, stop_s: f64) -> String {
    Roaming { mobiles, cols, rows, stop_s, ..Roaming::default() }.text()
}

/// [`roaming`]'s grid, with what may vary.
#[derive(Clone, Copy, Debug)]
pub struct Roaming {
    pub mobiles: usize,
    pub cols: usize,
    pub rows: usize,
    pub stop_s: f64,
    /// The mean residence in a cell, in s.
    pub residence_mean_s: f64,
    /// Mobile `i` starts in cell `(first_cell * i + cell_offset) mod cells`.
    pub first_cell: usize,
    pub cell_offset: usize,
    /// M-TCP's supervisor hosts over the grid (`supervisor_cells`).
    pub supervisor_cells: Option<[usize; 2]>,
    /// Each mobile host downloads from the server; else none does, and one
    /// slow wired flow (a segment a second) keeps the run going to `stop_s`.
    pub downloads: bool,
}

impl Default for Roaming {
    fn default() -> Roaming {
        Roaming {
            mobiles: 1,
            cols: 2,
            rows: 1,
            stop_s: 60.0,
            residence_mean_s: 30.0,
            first_cell: 1,
            cell_offset: 0,
            supervisor_cells: None,
            downloads: true,
        }
    }
}

impl Roaming {
    /// The scenario, as TOML text.
    pub fn text(&self) -> String {
        let Roaming { mobiles, cols, rows, stop_s, .. } = *self;
        let cells = cols * rows;
        let mut s = String::with_capacity(200 * mobiles * cells);
        write!(s, "name = \"roaming\"\nstop_s = {stop_s}\n").unwrap();
        s.push_str("nodes = [{ name = \"server\" }, { name = \"router\" }");
        for c in 0..cells {
            write!(s, ", {{ name = \"bs{c}\" }}").unwrap();
        }
        for i in 0..mobiles {
            write!(s, ", {{ name = \"mh{i}\" }}").unwrap();
        }
        let uplink = if self.downloads { "1e9" } else { "1e4" };
        write!(
            s,
            "]\n\n[[links]]\nname = \"uplink\"\na = \"server\"\nb = \"router\"\nbandwidth_bps = {uplink}\ndelay_ms = 1\n"
        )
        .unwrap();
        for c in 0..cells {
            write!(
                s,
                "\n[[links]]\nname = \"wired{c}\"\na = \"router\"\nb = \"bs{c}\"\nbandwidth_bps = 100e6\ndelay_ms = 1\n"
            )
            .unwrap();
        }
        for i in 0..mobiles {
            for c in 0..cells {
                write!(
                    s,
                    "\n[[links]]\nname = \"cell{c}-mh{i}\"\na = \"bs{c}\"\nb = \"mh{i}\"\nbandwidth_bps = 2e6\ndelay_ms = 1\n\
                     queue_packets = 50\n"
                )
                .unwrap();
            }
        }
        let stations: Vec<String> = (0..cells).map(|c| format!("\"bs{c}\"")).collect();
        let stations = stations.join(", ");
        let residence = self.residence_mean_s;
        for i in 0..mobiles {
            write!(
                s,
                "\n[[mobility]]\nmobile = \"mh{i}\"\nstations = [{stations}]\ninitial = \"bs{}\"\nlatency_s = 0.15\n\
                 anchor = \"router\"\nresidence_mean_s = {residence:?}\ngrid = [{cols}, {rows}]\n",
                (self.first_cell * i + self.cell_offset) % cells
            )
            .unwrap();
            if let Some([c, r]) = self.supervisor_cells {
                writeln!(s, "supervisor_cells = [{c}, {r}]").unwrap();
            }
        }
        if !self.downloads {
            write!(
                s,
                "\n[[flows]]\nname = \"keepalive\"\nfrom = \"server\"\nto = \"router\"\nduration_s = {stop_s}\n{}",
                tcp(65535)
            )
            .unwrap();
            return s;
        }
        for i in 0..mobiles {
            let start = (i % 1000) as f64 * 1e-3;
            write!(
                s,
                "\n[[flows]]\nname = \"f{i}\"\nfrom = \"server\"\nto = \"mh{i}\"\nduration_s = {}\nstart_s = {start}\n{}",
                stop_s - start,
                tcp(65535)
            )
            .unwrap();
        }
        s
    }
}
