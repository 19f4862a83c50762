//! The `wap` workload: a handset fetching pages through a WAP gateway
//! (seed 002, ElAarag 2002, Sec. 5.3, \[S\]; the close reading
//! `elaarag-002.md` Secs. 1.13 and 4, WAP-1 to WAP-3), or, for the
//! comparison, the same page fetches by HTTP over TCP end to end. The
//! protocol machines are `lasthop_net::wap` (WTP and WSP, sans-IO); this
//! file holds the workload's settings, what it records, and its state; the
//! world drives it (`world/wap.rs`). Rules are marked \[S\] survey, \[K\]
//! unverified from here (exposed as parameters), \[I\] lasthop's own.
//!
//! `protocol = "wap"`: the handset (the flow's `from`) opens a WSP session
//! to the gateway (`gateway`) once (Connect, a WTP class 2 transaction),
//! then per page a WSP Get in a WTP class 2 transaction (\[K\]): the
//! Invoke goes up the bearer as one datagram, the gateway's WTP responder
//! hands it up, the gateway fetches the page from the server (the flow's
//! `to`) over TCP, and the Result (the response, WAE-encoded:
//! `encoding_factor` times its bytes, \[I\] default 0.5, the reading's
//! "content size factor") comes back as one datagram, implicitly acking
//! the Invoke; the handset acks the Result. A late result gets the
//! responder's hold-on Ack (timer A). Think time between pages.
//!
//! - Datagrams (WDP over UDP/IP, \[K\]): each PDU's bytes plus
//!   `datagram_header_bytes`, \[K\] default 28 (UDP 8 + IPv4 20), not a
//!   bearer's own WDP. SAR is not modelled (`lasthop_net::wap::wtp`): a
//!   Result of any size is one datagram, one frame on the bearer (\[I\]).
//!   WTLS is off (not modelled).
//! - The gateway's fetch (\[I\]): a TCP connection per page from the
//!   gateway to the server carrying the request (`request_bytes`) with a
//!   handshake (SYN, SYN-ACK, the request with FIN, its ack: lasthop's
//!   handshake model, `lasthop_tcp::handshake`, the data sender opening),
//!   then the response (`response_bytes`) from the server to the gateway
//!   on a connection of its own without a handshake, started when the
//!   request's last byte reaches the server (the same connection's other
//!   direction in reality: lasthop's TCP flows carry data one way). The
//!   server's ack of the request leaves before the response's first
//!   segment (\[I\]: a real server piggybacks it on the response or
//!   delays it; as a frame of its own queued behind the response it would
//!   wait out a segment's time on a slow link, and the request's RTO fire).
//!   The server's FIN is not modelled (lasthop models the data sender's
//!   half close only).
//! - Bearer loss (\[K\]/\[I\]): the bearer is the link of the handset's
//!   first hop; when the scenario's outages take it down, with `suspend`
//!   the handset suspends its session (its Suspend PDU goes into the dead
//!   bearer, the fetch out aborted), and when it comes back resumes it
//!   (Resume, class 2: the gateway rebinds the session). With
//!   `new_address` the bearer comes back with a new address (\[I\] default
//!   true: a circuit-switched bearer redialled), a new WTP tid space. No
//!   new Connect unless the session is lost (the gateway refuses a method
//!   from an address with no session: `suspend = false` and a new
//!   address).
//!
//! `protocol = "http"`: per page a TCP connection from the handset to the
//! server carrying the request with a handshake (the handset opens: SYN,
//! SYN-ACK, the request with the handset's FIN, its ack), then the
//! response from the server to the handset without a handshake, started
//! when the request reaches the server; the server's FIN and its ack are
//! not modelled (2 packets a real close adds, unless the FIN rides the
//! last segment). Same page sizes, no encoding (the full response crosses
//! the bearer). A connection's summary (`web.request`, `web.response`) is
//! its last page's, timed from the session's start.

use crate::scenario::ScenarioError;
use lasthop_core::time::NS_PER_S;
use lasthop_core::{NodeId, Time};
use lasthop_net::wap::wsp::{Addr, Client, Server, WspPdu};
use lasthop_net::wap::wtp::{Class, Pdu, Tid, WtpConfig};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// A flow's `wap` table: the workload's settings.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WapSpec {
    /// `wap` (WSP/WTP through the gateway) or `http` (TCP end to end).
    #[serde(default = "wap_protocol")]
    pub protocol: String,
    /// The gateway node (WAP's proxy at the wireless/Internet boundary,
    /// \[S\]); on the path between the flow's `from` (the handset) and `to`
    /// (the server).
    pub gateway: String,
    /// Pages fetched, one after another. \[I\] 1.
    #[serde(default = "one")]
    pub pages: u32,
    /// Request bytes (URI and headers). \[I\] 200.
    #[serde(default = "request_bytes")]
    pub request_bytes: u32,
    /// Response bytes (headers and body) from the server. \[I\] 1000.
    #[serde(default = "response_bytes")]
    pub response_bytes: u32,
    /// Think time after a page before the next, in seconds. \[I\] 5.
    #[serde(default = "think_s")]
    pub think_s: f64,
    /// WAE binary encoding at the gateway: the response's size on the
    /// bearer over its size from the server. \[I\] 0.5 (the reading's).
    #[serde(default = "half")]
    pub encoding_factor: f64,
    /// WTP class of a page fetch: 2 (a reliable invoke and result) is the
    /// only one a fetch can use. \[K\]
    #[serde(default = "two")]
    pub class: u8,
    /// WTP retransmission timer R, s. \[K; Kannel\] 7.
    #[serde(default = "r_s")]
    pub r_s: f64,
    /// WTP ack timer A, s. \[K; Kannel\] 4.
    #[serde(default = "a_s")]
    pub a_s: f64,
    /// WTP wait timer W, s. \[K; Kannel\] 30.
    #[serde(default = "w_s")]
    pub w_s: f64,
    /// WTP `MAX_RCR`. \[K; Kannel\] 8.
    #[serde(default = "max_rcr")]
    pub max_rcr: u32,
    /// WTP `AEC_MAX`. \[K; Kannel\] 6.
    #[serde(default = "aec_max")]
    pub aec_max: u32,
    /// WSP suspends the session when the bearer goes and resumes it when
    /// it comes back. \[K\] true.
    #[serde(default = "yes")]
    pub suspend: bool,
    /// The bearer comes back with a new address. \[I\] true.
    #[serde(default = "yes")]
    pub new_address: bool,
    /// Header bytes of a datagram carrying a WTP PDU. \[K\] 28 (UDP 8 + IPv4 20).
    #[serde(default = "udp_ip")]
    pub datagram_header_bytes: u32,
}

fn wap_protocol() -> String {
    "wap".into()
}
fn one() -> u32 {
    1
}
fn two() -> u8 {
    2
}
fn request_bytes() -> u32 {
    200
}
fn response_bytes() -> u32 {
    1000
}
fn think_s() -> f64 {
    5.0
}
fn half() -> f64 {
    0.5
}
fn r_s() -> f64 {
    7.0
}
fn a_s() -> f64 {
    4.0
}
fn w_s() -> f64 {
    30.0
}
fn max_rcr() -> u32 {
    8
}
fn aec_max() -> u32 {
    6
}
fn yes() -> bool {
    true
}
fn udp_ip() -> u32 {
    28
}

/// Which protocol fetches the pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Wap,
    Http,
}

/// The workload's resolved settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WapConfig {
    pub protocol: Protocol,
    pub pages: u32,
    pub request_bytes: u32,
    pub response_bytes: u32,
    pub think_ns: u64,
    pub encoding_factor: f64,
    pub wtp: WtpConfig,
    pub suspend: bool,
    pub new_address: bool,
    pub datagram_header_bytes: u32,
}

impl WapConfig {
    /// The response's bytes on the bearer (WAP: encoded, at least 1).
    pub fn encoded_response(&self) -> u32 {
        ((f64::from(self.response_bytes) * self.encoding_factor).round() as u32).max(1)
    }
}

/// A model flow's part in a `wap` workload: the session (the scenario's
/// flow: the datagrams between handset and gateway, and the driver), or
/// one of its two TCP connections, started per page by the session.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WapRole {
    Session(WapConfig),
    /// The request's connection (with a handshake) of session `session`.
    Request {
        session: u32,
    },
    /// The response's connection (no handshake) of session `session`.
    Response {
        session: u32,
    },
}

/// `spec` (the file's `flows[i].wap`) resolved, or the first invalid field.
pub fn config(spec: &WapSpec, i: usize) -> Result<WapConfig, ScenarioError> {
    let p = |f: &str| format!("flows[{i}].wap.{f}");
    let protocol = match spec.protocol.as_str() {
        "wap" => Protocol::Wap,
        "http" => Protocol::Http,
        other => {
            return Err(ScenarioError::new(p("protocol"), format!("unknown protocol '{other}' (known: wap, http)")))
        }
    };
    match Class::from_number(spec.class) {
        Err((_, why)) => return Err(ScenarioError::new(p("class"), why)),
        Ok(Class::Two) => {}
        Ok(_) => return Err(ScenarioError::new(p("class"), "a page fetch needs a result: class 2")),
    }
    if spec.pages == 0 {
        return Err(ScenarioError::new(p("pages"), "must be at least 1"));
    }
    if spec.request_bytes == 0 || spec.request_bytes > 1 << 20 {
        return Err(ScenarioError::new(p("request_bytes"), "must be in 1..=1048576"));
    }
    if spec.response_bytes == 0 || spec.response_bytes > 1 << 20 {
        return Err(ScenarioError::new(p("response_bytes"), "must be in 1..=1048576"));
    }
    let secs = |v: f64, f: &str, zero_ok: bool| -> Result<u64, ScenarioError> {
        if !(v.is_finite() && (v > 0.0 || zero_ok && v == 0.0) && v < 1e6) {
            let why = if zero_ok { "must be a number of seconds >= 0" } else { "must be a positive number of seconds" };
            return Err(ScenarioError::new(p(f), why));
        }
        Ok((v * NS_PER_S as f64).round() as u64)
    };
    let think_ns = secs(spec.think_s, "think_s", true)?;
    if !(spec.encoding_factor.is_finite() && spec.encoding_factor > 0.0 && spec.encoding_factor <= 1.0) {
        return Err(ScenarioError::new(p("encoding_factor"), "must be in (0, 1]"));
    }
    let wtp = WtpConfig {
        r_ns: secs(spec.r_s, "r_s", false)?,
        a_ns: secs(spec.a_s, "a_s", false)?,
        w_ns: secs(spec.w_s, "w_s", false)?,
        max_rcr: spec.max_rcr,
        aec_max: spec.aec_max,
    };
    wtp.validate().map_err(|(f, why)| ScenarioError::new(p(f), why))?;
    Ok(WapConfig {
        protocol,
        pages: spec.pages,
        request_bytes: spec.request_bytes,
        response_bytes: spec.response_bytes,
        think_ns,
        encoding_factor: spec.encoding_factor,
        wtp,
        suspend: spec.suspend,
        new_address: spec.new_address,
        datagram_header_bytes: spec.datagram_header_bytes,
    })
}

/// How a page ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageEnd {
    /// Its response reached the handset.
    Fetched,
    /// WAP: the fetch was aborted (WTP abort, suspend, a new bearer).
    Aborted,
}

/// One page's record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageRecord {
    /// When the handset asked for it (WAP: its Invoke; HTTP: its SYN).
    pub start: Time,
    /// When it ended (`None`: not by the end of the run).
    pub end: Option<Time>,
    pub outcome: Option<PageEnd>,
    /// Frames put on the bearer (both directions) from this page's start
    /// to the next page's (or the run's end): what the page cost there.
    pub bearer_packets: u64,
    /// Of those, toward the handset.
    pub bearer_packets_down: u64,
}

/// What a WAP workload did, for tests and reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WapReport {
    pub pages: Vec<PageRecord>,
    /// WSP Connects and Resumes the handset made, sessions the gateway
    /// held at the end, and the session ids the handset had.
    pub connects: u64,
    pub resumes: u64,
    pub gateway_sessions: usize,
    pub session_ids: Vec<u32>,
    /// Every WTP Invoke of a page fetch the handset sent (first copies
    /// and retransmissions): when, from which address, its tid.
    pub fetch_invokes: Vec<(Time, Addr, Tid)>,
    /// When each page fetch aborted at the handset.
    pub fetch_aborts: Vec<Time>,
    /// Frames put on the bearer before the first page (the WSP Connect).
    pub bearer_packets_before_pages: u64,
    /// Datagrams sent and delivered.
    pub datagrams_sent: u64,
    pub datagrams_delivered: u64,
    /// Hold-on Acks the gateway sent.
    pub hold_on_acks: u64,
}

/// Where the workload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Not started.
    Idle,
    /// Waiting for the session (WAP: connecting or resuming).
    Session,
    /// Thinking: the next page at `next_at`.
    Think,
    /// A page is out.
    Fetching,
    /// Every page ended.
    Done,
}

/// A running `wap` workload (the session flow's source).
#[derive(Clone, Debug)]
pub struct WapWorkload {
    pub cfg: WapConfig,
    /// Its two TCP connections (request, response), flow indices.
    pub conns: [u32; 2],
    pub client: Client,
    pub server: Server,
    pub stage: Stage,
    /// When the next page is due (in `Think`).
    pub next_at: Time,
    /// A start was asked and not yet handled.
    pub start_due: bool,
    pub report: WapReport,
    /// Datagrams in flight, by id (the packet's `seq`): the PDU and the
    /// address it goes from (up) or to (down).
    pub in_flight: BTreeMap<u64, (Addr, Pdu<WspPdu>)>,
    pub next_id: u64,
    /// The gateway's fetches: the one on its TCP connections and those
    /// waiting for them (address, tid).
    pub gateway_fetch: Option<(Addr, Tid)>,
    pub gateway_queue: VecDeque<(Addr, Tid)>,
    /// Bearer frames counted so far (up, down) when the current page began.
    pub page_mark: (u64, u64),
    /// The bearer's link, and its direction toward the handset.
    pub bearer: (u32, u8),
    /// The bearer is up.
    pub bearer_up: bool,
    /// The handset's address (each new bearer takes the next).
    pub addr: Addr,
    /// The fetch out (WAP), if any.
    pub fetch: Option<u64>,
    /// The gateway node (WAP), the handset node.
    pub gateway: NodeId,
    pub handset: NodeId,
}

impl WapWorkload {
    /// A workload with `cfg`, its connections `conns`, the bearer link and
    /// its direction toward the handset.
    pub fn new(cfg: WapConfig, conns: [u32; 2], bearer: (u32, u8), ends: [NodeId; 2]) -> WapWorkload {
        WapWorkload {
            cfg,
            conns,
            client: Client::new(cfg.wtp, 1),
            server: Server::new(cfg.wtp),
            stage: Stage::Idle,
            next_at: Time::NEVER,
            start_due: false,
            report: WapReport::default(),
            in_flight: BTreeMap::new(),
            next_id: 0,
            gateway_fetch: None,
            gateway_queue: VecDeque::new(),
            page_mark: (0, 0),
            bearer,
            bearer_up: true,
            addr: 1,
            fetch: None,
            handset: ends[0],
            gateway: ends[1],
        }
    }

    /// When it next needs waking: its start, the think timer, WTP's timers.
    pub fn poll_at(&self) -> Time {
        if self.start_due {
            return Time::ZERO;
        }
        let think = if self.stage == Stage::Think { self.next_at } else { Time::NEVER };
        let wtp = match self.cfg.protocol {
            Protocol::Wap => {
                self.client.deadline().unwrap_or(Time::NEVER).min(self.server.deadline().unwrap_or(Time::NEVER))
            }
            Protocol::Http => Time::NEVER,
        };
        think.min(wtp)
    }
}
