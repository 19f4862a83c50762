//! Links: each direction's parameters, the kernel and emulation ticks,
//! ACK reconstruction's placement, and a topology template's expansion into
//! named links and nodes.

use super::*;

/// Direction `dir` (`ab` or `ba`) of link `l` at `path`: the link's
/// values, overridden by the direction's own (`o`). An error names the
/// field where the offending value was written.
pub(super) fn dir_params(
    l: &LinkSpec,
    o: Option<&DirSpec>,
    path: &LinkPath,
    dir: &str,
) -> Result<DirModel, ScenarioError> {
    let o = o.cloned().unwrap_or_default();
    let side = |f: &str, overridden: bool| {
        if overridden {
            format!("{path}.{dir}.{f}")
        } else {
            format!("{path}.{f}")
        }
    };
    let rate_trace = rate_trace(l, &o, &side)?;
    let bw = match &rate_trace {
        Some(t) => t.mean_rate_bps() as f64,
        None => {
            let bw = o.bandwidth_bps.or(l.bandwidth_bps).ok_or_else(|| {
                ScenarioError::new(side("bandwidth_bps", false), "missing: give the rate in bit/s, or rate_trace_ms")
            })?;
            bit_rate(bw, || side("bandwidth_bps", o.bandwidth_bps.is_some()))?;
            bw
        }
    };
    let delay = o.delay_ms.unwrap_or(l.delay_ms);
    duration(delay, 1e-3, "ms", || side("delay_ms", o.delay_ms.is_some()))?;
    let ovh_us = o.frame_overhead_us.unwrap_or(l.frame_overhead_us);
    duration(ovh_us, 1e-6, "us", || side("frame_overhead_us", o.frame_overhead_us.is_some()))?;
    let jitter_ms = o.jitter_ms.unwrap_or(l.jitter_ms);
    duration(jitter_ms, 1e-3, "ms", || side("jitter_ms", o.jitter_ms.is_some()))?;
    let qp = o.queue_packets.or(l.queue_packets);
    let qb = o.queue_bytes.or(l.queue_bytes);
    check(qp != Some(0), || side("queue_packets", o.queue_packets.is_some()), "must be at least 1")?;
    check(qb != Some(0), || side("queue_bytes", o.queue_bytes.is_some()), "must be at least 1")?;
    let queue = if qp.is_none() && qb.is_none() {
        QueueLimit { packets: Some(DEFAULT_QUEUE_PACKETS), bytes: None }
    } else {
        QueueLimit { packets: qp, bytes: qb }
    };
    let own_error = o.error.is_some();
    let error = o.error.unwrap_or_else(|| l.error.clone());
    let at = |field: &str| side(&format!("error.{field}"), own_error);
    error.validate().map_err(|(field, reason)| ScenarioError::new(at(&field), reason))?;
    let params = DirParams {
        bandwidth_bps: bw.round().max(1.0) as u64,
        delay_ns: (delay * NS_PER_MS as f64).round() as u64,
        frame_overhead_bytes: o.frame_overhead_bytes.unwrap_or(l.frame_overhead_bytes),
        frame_overhead_ns: (ovh_us * NS_PER_US as f64).round() as u64,
        queue,
        jitter_mean_ns: (jitter_ms * NS_PER_MS as f64).round() as u64,
    };
    let error = error.resolve_packet_times(|size| params.tx_time_ns(size));
    let header_compression = o.header_compression.unwrap_or(l.header_compression);
    let own_queue = o.queue.is_some();
    let queue = o.queue.or_else(|| l.queue.clone()).map(Box::new);
    if let Some(q) = &queue {
        let at = |field: &str| side(&format!("queue.{field}"), own_queue);
        q.validate(params.queue).map_err(|(field, reason)| ScenarioError::new(at(&field), reason))?;
    }
    let own_ar = o.ack_reconstruction.is_some();
    let ack_recons = match o.ack_reconstruction.as_ref().or(l.ack_reconstruction.as_ref()) {
        Some(ar) => Some(ack_recons(ar, &side("ack_reconstruction", own_ar))?),
        None => None,
    };
    let own_emulation = o.emulation.is_some();
    let emulation_tick_ns = match o.emulation.as_ref().or(l.emulation.as_ref()) {
        Some(e) => Some(emulation_tick(e.tick_ms, l.duplex, &side("emulation", own_emulation))?),
        None => None,
    };
    if rate_trace.is_some() {
        let at = || side("rate_trace_ms", o.rate_trace_ms.is_some());
        check(emulation_tick_ns.is_none(), at, "a direction has a trace or the link emulator, not both")?;
        check(
            l.duplex == DuplexSpec::Full,
            at,
            "a trace drives a point-to-point direction's transmitter: needs duplex = \"full\"",
        )?;
        check(
            params.frame_overhead_bytes == 0 && params.frame_overhead_ns == 0,
            at,
            "a trace's opportunities count the packets' bytes: frame_overhead_bytes and frame_overhead_us must be 0",
        )?;
    }
    Ok(DirModel { params, error, header_compression, queue, ack_recons, emulation_tick_ns, rate_trace, medium: None })
}

/// The rate trace of a direction (Mahimahi's `mm-link` format, see
/// `lasthop_net::rate_trace`), if its rate is one: the direction's own
/// setting (`bandwidth_bps` or `rate_trace_ms`) first, then the link's.
/// Each level gives one or the other; an error names the list's entry.
fn rate_trace(
    l: &LinkSpec,
    o: &DirSpec,
    side: &dyn Fn(&str, bool) -> String,
) -> Result<Option<Arc<RateTrace>>, ScenarioError> {
    let (list, own) = match (o.bandwidth_bps, &o.rate_trace_ms) {
        (Some(_), Some(_)) => {
            return Err(ScenarioError::new(
                side("rate_trace_ms", true),
                "give bandwidth_bps or rate_trace_ms, not both",
            ))
        }
        (Some(_), None) => return Ok(None),
        (None, Some(list)) => (list, true),
        (None, None) => match (l.bandwidth_bps, &l.rate_trace_ms) {
            (Some(_), Some(_)) => {
                return Err(ScenarioError::new(
                    side("rate_trace_ms", false),
                    "give bandwidth_bps or rate_trace_ms, not both",
                ))
            }
            (_, Some(list)) => (list, false),
            (_, None) => return Ok(None),
        },
    };
    let at = side("rate_trace_ms", own);
    RateTrace::from_ms(list.clone()).map(|t| Some(Arc::new(t))).map_err(|e| {
        if e.line == 0 {
            ScenarioError::new(at, e.reason)
        } else {
            ScenarioError::new(format!("{at}[{}]", e.line - 1), e.reason)
        }
    })
}

/// A kernel clock tick of `tick_ms` at `path` (an `emulation` table's or a
/// burst timer's), in ns: positive, at least 1 ns, within the longest run.
pub(super) fn kernel_tick_ns(tick_ms: f64, path: &str) -> Result<u64, ScenarioError> {
    positive(tick_ms, path)?;
    duration(tick_ms, 1e-3, "ms", path)?;
    let ns = (tick_ms * NS_PER_MS as f64).round() as u64;
    check(ns >= 1, path, || format!("must be at least 1e-6 (1 ns), got {}", num(tick_ms)))?;
    Ok(ns)
}

/// The link emulator's tick at `path` (`...emulation`), on a link of `duplex`.
pub(super) fn emulation_tick(tick_ms: f64, duplex: DuplexSpec, path: &str) -> Result<u64, ScenarioError> {
    check(
        duplex == DuplexSpec::Full,
        path,
        "the link emulator emulates a point-to-point link: needs duplex = \"full\"",
    )?;
    kernel_tick_ns(tick_ms, &format!("{path}.tick_ms"))
}

/// An `ack_reconstruction` table at `path`, checked (the segment size is
/// each connection's, filled in where the agents are placed).
pub(super) fn ack_recons(ar: &AckReconsSpec, path: &str) -> Result<AckReconsConfig, ScenarioError> {
    check(ar.delta_a_segments >= 1, || format!("{path}.delta_a_segments"), "must be at least 1")?;
    check(
        ar.gain > 0.0 && ar.gain <= 1.0,
        || format!("{path}.gain"),
        || format!("must be in (0, 1], got {}", num(ar.gain)),
    )?;
    let spacing = match ar.spacing {
        AckReconsSpacing::Paper => Spacing::Paper,
        AckReconsSpacing::Ns2Adaptive => Spacing::Ns2Adaptive,
        AckReconsSpacing::Ns2Sample => Spacing::Ns2Sample,
    };
    Ok(AckReconsConfig { delta_a_segments: ar.delta_a_segments, gain: ar.gain, spacing, mss_bytes: 0 })
}

/// One reconstructor per connection whose acks cross a link direction with
/// ACK reconstruction, at the direction's far end; a direction (or a link)
/// that asks for it where no acks cross is an error.
pub(super) fn place_ack_recons(
    named: &[NamedLink<'_>],
    links: &[LinkModel],
    paths: &[[Path; 2]],
    mss_of: &dyn Fn(usize) -> u32,
) -> Result<Vec<AckReconsPlacement>, ScenarioError> {
    let mut out = Vec::new();
    for (c, [_, acks]) in paths.iter().enumerate() {
        for hop in acks {
            let (l, d) = (&links[hop.link as usize], hop.dir as usize);
            if let Some(cfg) = l.dirs[d].ack_recons {
                let cfg = AckReconsConfig { mss_bytes: mss_of(c), ..cfg };
                out.push(AckReconsPlacement { conn: c as u32, node: l.ends[1 - d], cfg });
            }
        }
    }
    let crossed = |li: usize, d: usize| {
        paths.iter().any(|[_, acks]| acks.iter().any(|h| h.link as usize == li && h.dir as usize == d))
    };
    for (li, (nl, l)) in named.iter().zip(links).enumerate() {
        let mut from_link = false;
        for (d, (dir, o)) in [("ab", &nl.spec.ab), ("ba", &nl.spec.ba)].into_iter().enumerate() {
            if l.dirs[d].ack_recons.is_none() {
                continue;
            }
            if o.as_ref().is_some_and(|o| o.ack_reconstruction.is_some()) {
                check(
                    crossed(li, d),
                    || format!("{}.{dir}.ack_reconstruction", nl.path),
                    "no connection's acks cross this link direction",
                )?;
            } else {
                from_link |= crossed(li, d);
            }
        }
        let link_level = nl.spec.ack_reconstruction.is_some()
            && [&nl.spec.ab, &nl.spec.ba].iter().any(|o| o.as_ref().is_none_or(|o| o.ack_reconstruction.is_none()));
        check(
            !link_level || from_link,
            || format!("{}.ack_reconstruction", nl.path),
            "no connection's acks cross this link (in a direction it applies to)",
        )?;
    }
    Ok(out)
}

pub(super) struct NamedLink<'a> {
    pub(super) path: LinkPath,
    /// Borrowed from the file for listed links, made for a template's.
    pub(super) name: Cow<'a, str>,
    pub(super) a: Cow<'a, str>,
    pub(super) b: Cow<'a, str>,
    pub(super) spec: &'a LinkSpec,
}

/// Where a link's settings were written, as error messages name it: made
/// into text only when one is reported (a million listed links would
/// otherwise format a million paths: issue 31).
pub(super) enum LinkPath {
    /// `links[i]`.
    Listed(usize),
    /// `topology.<field>` of a template.
    Template(String),
}

impl fmt::Display for LinkPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkPath::Listed(i) => write!(f, "links[{i}]"),
            LinkPath::Template(p) => f.write_str(p),
        }
    }
}

/// Nodes, links and media of the scenario, templates expanded.
/// Media come with the path their settings were written at.
type Topology<'a> = (Vec<String>, Vec<NamedLink<'a>>, Vec<(String, MediumSpec)>);

pub(super) fn expand_topology<'a>(f: &'a ScenarioFile) -> Result<Topology<'a>, ScenarioError> {
    /// Link `name` from `a` to `b` of a template, whose settings are the
    /// template's field `field`.
    fn template_link<'a>(
        field: &str,
        name: String,
        a: String,
        b: String,
        spec: &'a LinkSpec,
    ) -> Result<NamedLink<'a>, ScenarioError> {
        let path = format!("topology.{field}");
        for (f, v) in [("name", &spec.name), ("a", &spec.a), ("b", &spec.b)] {
            check(v.is_none(), || format!("{path}.{f}"), "is set by the template; remove it")?;
        }
        Ok(NamedLink { path: LinkPath::Template(path), name: name.into(), a: a.into(), b: b.into(), spec })
    }
    /// A chain: link i joins nodes i and i + 1.
    fn template_links<'a>(
        names: &[&str],
        pairs: &[(&str, &'a LinkSpec)],
    ) -> Result<(Vec<String>, Vec<NamedLink<'a>>), ScenarioError> {
        debug_assert_eq!(names.len(), pairs.len() + 1);
        let mut links = Vec::new();
        for (i, &(lname, spec)) in pairs.iter().enumerate() {
            links.push(template_link(lname, lname.to_string(), names[i].to_string(), names[i + 1].to_string(), spec)?);
        }
        Ok((names.iter().map(|s| s.to_string()).collect(), links))
    }
    match &f.topology {
        Some(t) => {
            check(
                f.nodes.is_empty() && f.links.is_empty(),
                "topology",
                "give a template or nodes and links, not both",
            )?;
            let media: Vec<(String, MediumSpec)> =
                f.media.iter().enumerate().map(|(i, m)| (format!("media[{i}]"), m.clone())).collect();
            let (nodes, links) = match t {
                Template::WirelessLastHop { wired, wireless } => {
                    template_links(&["fh", "bs", "mh"], &[("wired", wired), ("wireless", wireless)])?
                }
                Template::TwoLinkPath { first, second } => {
                    template_links(&["src", "mid", "dst"], &[("first", first), ("second", second)])?
                }
                Template::WirelessCable { wired, cable, lan } => template_links(
                    &["server", "r1", "r2", "client"],
                    &[("wired", wired), ("cable", cable), ("lan", lan)],
                )?,
                Template::RadioChain { hops, wired, radio } => {
                    check(*hops >= 1, "topology.hops", "a chain needs at least one wireless hop")?;
                    check(*hops < 10_000, "topology.hops", || format!("must be below 10000, got {hops}"))?;
                    let (mut nodes, links) = template_links(&["fh", "gw"], &[("wired", wired)])?;
                    nodes.extend((1..*hops).map(|i| format!("pt{i}")));
                    nodes.push("mh".to_string());
                    check(
                        !f.media.iter().any(|m| m.name == "radio"),
                        "media",
                        "the radio_chain template names its medium 'radio'; rename yours",
                    )?;
                    let mut media = media;
                    let spec = MediumSpec {
                        name: "radio".into(),
                        stations: nodes[1..].to_vec(),
                        hops: None,
                        mac: MacKind::Radio,
                        radio: radio.clone(),
                        dcf: DcfSpec::default(),
                        rlp: RlpSpec::default(),
                        airmail: AirmailSpec::default(),
                        ll_elsn: false,
                        ebsn: false,
                        error: ErrorModelConfig::default(),
                        error_from: None,
                        error_others: ErrorModelConfig::None,
                    };
                    media.insert(0, ("topology".into(), spec));
                    return Ok((nodes, links, media));
                }
                Template::WlanCell(WlanCellSpec {
                    stations,
                    wired,
                    backbone,
                    dcf,
                    error,
                    ll_elsn,
                    ebsn,
                    background,
                }) => {
                    let n = *stations;
                    check(n >= 1, "topology.stations", "a cell needs at least one station")?;
                    check(n < 10_000, "topology.stations", || format!("must be below 10000, got {n}"))?;
                    check(
                        !f.media.iter().any(|m| m.name == "wlan"),
                        "media",
                        "the wlan_cell template names its medium 'wlan'; rename yours",
                    )?;
                    let (backbone, backbone_path) = match backbone {
                        Some(b) => (b, "backbone"),
                        None => (wired, "wired"),
                    };
                    let senders: Vec<String> = (1..=n).map(|i| format!("s{i}")).collect();
                    let receivers: Vec<String> = (1..=n).map(|i| format!("d{i}")).collect();
                    let mut nodes = senders.clone();
                    nodes.extend(["r".to_string(), "ap".to_string()]);
                    nodes.extend(receivers.iter().cloned());
                    let mut pairs: Vec<(String, String, String, &LinkSpec, &str)> = senders
                        .iter()
                        .enumerate()
                        .map(|(i, s)| (format!("wired{}", i + 1), s.clone(), "r".into(), wired, "wired"))
                        .collect();
                    pairs.push(("backbone".into(), "r".into(), "ap".into(), backbone, backbone_path));
                    if *background {
                        nodes.extend(["bg".to_string(), "bgsink".to_string()]);
                        pairs.push(("bg_access".into(), "bg".into(), "r".into(), wired, "wired"));
                        pairs.push(("bg_egress".into(), "ap".into(), "bgsink".into(), wired, "wired"));
                    }
                    let mut links = Vec::with_capacity(pairs.len());
                    for (name, a, b, spec, field) in pairs {
                        links.push(template_link(field, name, a, b, spec)?);
                    }
                    let mut media = media;
                    let mut cell_stations = vec!["ap".to_string()];
                    cell_stations.extend(receivers.iter().cloned());
                    let spec = MediumSpec {
                        name: "wlan".into(),
                        stations: cell_stations,
                        hops: Some(receivers.iter().map(|d| ["ap".to_string(), d.clone()]).collect()),
                        mac: MacKind::Dcf,
                        radio: RadioSpec::default(),
                        dcf: dcf.clone(),
                        rlp: RlpSpec::default(),
                        airmail: AirmailSpec::default(),
                        ll_elsn: *ll_elsn,
                        ebsn: *ebsn,
                        error: error.clone(),
                        error_from: None,
                        error_others: ErrorModelConfig::None,
                    };
                    media.insert(0, ("topology".into(), spec));
                    return Ok((nodes, links, media));
                }
            };
            Ok((nodes, links, media))
        }
        None => {
            check(!f.nodes.is_empty(), "nodes", "a scenario needs a topology template or nodes and links")?;
            let nodes: Vec<String> = f.nodes.iter().map(|n| n.name.clone()).collect();
            let mut links = Vec::with_capacity(f.links.len());
            for (i, l) in f.links.iter().enumerate() {
                let get = |v: &'a Option<String>, field: &str| match v {
                    Some(v) => Ok(Cow::Borrowed(v.as_str())),
                    None => Err(ScenarioError::new(format!("links[{i}].{field}"), "is required")),
                };
                links.push(NamedLink {
                    name: get(&l.name, "name")?,
                    a: get(&l.a, "a")?,
                    b: get(&l.b, "b")?,
                    path: LinkPath::Listed(i),
                    spec: l,
                });
            }
            Ok((nodes, links, f.media.iter().enumerate().map(|(i, m)| (format!("media[{i}]"), m.clone())).collect()))
        }
    }
}
