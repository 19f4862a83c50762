//! Shared media: the packet radio's and the 802.11 DCF's configurations,
//! the stations on a medium and the links it carries.

use super::*;

/// A `radio` table at `path`, checked and in the MAC's units.
pub(super) fn radio_config(r: &RadioSpec, path: &str) -> Result<RadioConfig, ScenarioError> {
    let p = |f: &str| format!("{path}.{f}");
    bit_rate(r.bandwidth_bps, || p("bandwidth_bps"))?;
    let ms = |x: f64, f: &str| -> Result<u64, ScenarioError> {
        duration(x, 1e-3, "ms", || p(f))?;
        Ok((x * NS_PER_MS as f64).round() as u64)
    };
    for (v, f) in [(r.rts_bytes, "rts_bytes"), (r.cts_bytes, "cts_bytes"), (r.link_ack_bytes, "link_ack_bytes")] {
        check(v >= 1, || p(f), "a control frame needs at least 1 byte")?;
        at_most_a_packet(v, || p(f))?;
    }
    at_most_a_packet(r.mac_header_bytes, || p("mac_header_bytes"))?;
    check(r.queue_packets >= 1, || p("queue_packets"), "must be at least 1")?;
    let cfg = RadioConfig {
        bandwidth_bps: r.bandwidth_bps.round() as u64,
        hand_up_latency_ns: ms(r.hand_up_latency_ms, "hand_up_latency_ms")?,
        propagation_ns: ms(r.propagation_ms, "propagation_ms")?,
        tx_rx_ns: ms(r.tx_rx_ms, "tx_rx_ms")?,
        rx_tx_ns: ms(r.rx_tx_ms, "rx_tx_ms")?,
        backoff_base_ns: ms(r.backoff_base_ms, "backoff_base_ms")?,
        rts_bytes: r.rts_bytes,
        cts_bytes: r.cts_bytes,
        link_ack_bytes: r.link_ack_bytes,
        mac_header_bytes: r.mac_header_bytes,
        queue_packets: r.queue_packets,
        piggyback_acks: r.piggyback_acks,
        poll_before_piggyback: r.poll_before_piggyback,
        retry_limit: r.retry_limit,
    };
    // A backoff of zero would poll a busy peer in a tight loop.
    check(cfg.backoff_base_ns > 0, || p("backoff_base_ms"), "must be positive")?;
    if let Some(q) = &r.queue {
        cfg.validate_queue(q).map_err(|(f, why)| ScenarioError::new(p(&format!("queue.{f}")), why))?;
    }
    Ok(cfg)
}

/// The timeouts an ERSN may defer for one segment when the scenario does
/// not say: yun-004.md Sec. 2.3's "at most ceil(l * T_llrtx / RTO) + 1"
/// for retry limit `l` and link retransmission delay `T_llrtx`, with the
/// sender's smallest possible RTO, `rto_floor_ns` (see `LlElsnSpec`).
pub fn ersn_deferral_bound(retry_limit: u32, ll_retransmission_delay_ns: u64, rto_floor_ns: u64) -> u32 {
    let retrying_ns = u64::from(retry_limit).saturating_mul(ll_retransmission_delay_ns);
    let bound = retrying_ns.div_ceil(rto_floor_ns.max(1)).saturating_add(1);
    u32::try_from(bound).unwrap_or(u32::MAX)
}

/// A `dcf` table at `path`, checked and in the MAC's units.
pub(super) fn dcf_config(d: &DcfSpec, path: &str) -> Result<DcfConfig, ScenarioError> {
    let p = |f: &str| format!("{path}.{f}");
    let rate = |x: f64, f: &str| -> Result<u64, ScenarioError> {
        bit_rate(x, || p(f))?;
        Ok(x.round() as u64)
    };
    let us = |x: f64, f: &str| -> Result<u64, ScenarioError> {
        duration(x, 1e-6, "us", || p(f))?;
        Ok((x * 1e3).round() as u64)
    };
    duration(d.ll_retransmission_delay_ms, 1e-3, "ms", || p("ll_retransmission_delay_ms"))?;
    at_most_a_packet(d.mac_header_bytes, || p("mac_header_bytes"))?;
    let cfg = DcfConfig {
        data_rate_bps: rate(d.data_rate_bps, "data_rate_bps")?,
        control_rate_bps: rate(d.control_rate_bps, "control_rate_bps")?,
        slot_ns: us(d.slot_us, "slot_us")?,
        sifs_ns: us(d.sifs_us, "sifs_us")?,
        difs_ns: us(d.difs_us, "difs_us")?,
        eifs_ns: us(d.eifs_us, "eifs_us")?,
        cw_min: d.cw_min,
        cw_max: d.cw_max,
        plcp_ns: us(d.plcp_us, "plcp_us")?,
        mac_header_bytes: d.mac_header_bytes,
        rts_threshold_bytes: d.rts_threshold_bytes,
        retry_limit: d.retry_limit,
        queue_packets: d.queue_packets,
        ll_retransmission_delay_ns: (d.ll_retransmission_delay_ms * NS_PER_MS as f64).round() as u64,
        ll_retransmission: match d.ll_retransmission {
            LlRetransmissionSpec::Blocking => LlRetransmission::Blocking,
            LlRetransmissionSpec::Deferred => LlRetransmission::Deferred,
        },
        ll_retransmission_window: d.ll_retransmission_window,
        control_frame_errors: d.control_frame_errors,
        ..DcfConfig::default()
    };
    // The MAC's own check, its field names in the table's units.
    cfg.validate().map_err(|(field, why)| {
        let field = field.replace("_ns", "_us");
        ScenarioError::new(p(&field), why.replace("_ns", "_us"))
    })?;
    if let Some(q) = &d.queue {
        cfg.validate_queue(q).map_err(|(f, why)| ScenarioError::new(p(&format!("queue.{f}")), why))?;
    }
    Ok(cfg)
}

/// An `rlp` table at `path`, checked and in the MAC's units.
pub(super) fn rlp_config(r: &RlpSpec, path: &str) -> Result<CircuitConfig, ScenarioError> {
    use lasthop_net::arq::rlp::{Delivery, Form, RlpConfig};
    let p = |f: &str| format!("{path}.{f}");
    bit_rate(r.bandwidth_bps, || p("bandwidth_bps"))?;
    duration(r.delay_ms, 1e-3, "ms", || p("delay_ms"))?;
    duration(r.stall_ms, 1e-3, "ms", || p("stall_ms"))?;
    at_most_a_packet(r.frame_bytes, || p("frame_bytes"))?;
    let defaults = CircuitConfig::default();
    let cfg = CircuitConfig {
        bandwidth_bps: r.bandwidth_bps.round() as u64,
        delay_ns: (r.delay_ms * NS_PER_MS as f64).round() as u64,
        frame_bytes: r.frame_bytes,
        header_bytes: defaults.header_bytes,
        queue_packets: r.queue_packets,
        airmail: None,
        rlp: RlpConfig {
            window_frames: r.window_frames,
            form: match r.form {
                RlpFormSpec::Basic => Form::Basic,
                RlpFormSpec::Enhanced => Form::Enhanced,
            },
            retry_limit: r.retry_limit,
            stall_ns: (r.stall_ms * NS_PER_MS as f64).round() as u64,
            delivery: match r.delivery {
                RlpDeliverySpec::InOrder => Delivery::InOrder,
                RlpDeliverySpec::OutOfOrder => Delivery::OutOfOrder,
            },
            feedback_period_slots: r.feedback_period_slots,
            partial_bits: r.partial_bits,
        },
    };
    // The MAC's own checks (RLP's first), its field names in the table's units.
    cfg.validate().map_err(|(field, why)| {
        let field = field.replace("_ns", "_ms");
        ScenarioError::new(p(&field), why)
    })?;
    Ok(cfg)
}

/// An `airmail` table at `path`, checked and in the MAC's units.
pub(super) fn airmail_config(a: &AirmailSpec, path: &str) -> Result<CircuitConfig, ScenarioError> {
    use lasthop_net::arq::airmail::fec::{FecConfig, FecLevel};
    use lasthop_net::arq::airmail::AirmailConfig;
    use lasthop_net::mac::circuit::CircuitAirmail;
    let p = |f: &str| format!("{path}.{f}");
    bit_rate(a.bandwidth_bps, || p("bandwidth_bps"))?;
    duration(a.delay_ms, 1e-3, "ms", || p("delay_ms"))?;
    duration(a.poll_ms, 1e-3, "ms", || p("poll_ms"))?;
    duration(a.gap_ms, 1e-3, "ms", || p("gap_ms"))?;
    at_most_a_packet(a.frame_bytes, || p("frame_bytes"))?;
    // The level's name, as the member knows it (a `&'static str`).
    let fec = match FecLevel::parse(&a.fec).map_err(|(f, why)| ScenarioError::new(p(f), why))? {
        None => "adaptive",
        Some(FecLevel::None) => "none",
        Some(FecLevel::Byte) => "byte",
        Some(FecLevel::Packet) => "packet",
    };
    let defaults = CircuitConfig::default();
    let member = AirmailConfig::default();
    let ms = |x: f64| (x * NS_PER_MS as f64).round() as u64;
    let cfg = CircuitConfig {
        bandwidth_bps: a.bandwidth_bps.round() as u64,
        delay_ns: ms(a.delay_ms),
        frame_bytes: a.frame_bytes,
        header_bytes: defaults.header_bytes,
        queue_packets: a.queue_packets,
        rlp: defaults.rlp,
        airmail: Some(CircuitAirmail {
            arq: AirmailConfig {
                window_frames: a.window_frames,
                block_frames: a.block_frames,
                status_period_ns: member.status_period_ns,
                poll_ns: ms(a.poll_ms),
                gap_ns: ms(a.gap_ms),
                fec,
                fec_cfg: FecConfig {
                    byte_t: a.byte_t,
                    block_k: a.block_k,
                    m_max: a.m_max,
                    fer_window: a.fer_window,
                    theta1: a.theta1,
                    theta2: a.theta2,
                    ..member.fec_cfg
                },
            },
            status_period_slots: a.status_period_slots,
        }),
    };
    cfg.validate().map_err(|(field, why)| {
        let field = field.replace("_ns", "_ms").replace("status_period_ms", "status_period_slots");
        ScenarioError::new(p(&field), why)
    })?;
    Ok(cfg)
}

/// Node `node`'s (named `name`) radio among a medium's `stations`, or the
/// error at `at` that it has none there.
pub(super) fn station_on(
    stations: &[NodeId],
    node: NodeId,
    name: &str,
    medium: &str,
    at: &str,
) -> Result<StationId, ScenarioError> {
    stations.iter().position(|&s| s == node).map(|s| s as StationId).ok_or_else(|| {
        ScenarioError::new(at, format!("node '{name}' has no radio on medium '{medium}' (not among its stations)"))
    })
}

/// The media, and a link per hop of each (appended to `links`: both its
/// directions carried by the medium's MAC).
pub(super) fn media_links(
    specs: &[(String, MediumSpec)],
    node_index: &dyn Fn(&str) -> Option<NodeId>,
    links: &mut Vec<LinkModel>,
) -> Result<Vec<MediumModel>, ScenarioError> {
    let mut media: Vec<MediumModel> = Vec::with_capacity(specs.len());
    for (mi, (path, m)) in specs.iter().enumerate() {
        check(!m.name.is_empty(), || format!("{path}.name"), "must not be empty")?;
        check(!media.iter().any(|o| o.name == m.name), || format!("{path}.name"), "duplicate medium name")?;
        let radio = radio_config(&m.radio, &format!("{path}.radio"))?;
        let dcf = match m.mac {
            MacKind::Radio | MacKind::Rlp | MacKind::Airmail => None,
            MacKind::Dcf => Some(dcf_config(&m.dcf, &format!("{path}.dcf"))?),
        };
        let circuit = match m.mac {
            MacKind::Rlp => Some(rlp_config(&m.rlp, &format!("{path}.rlp"))?),
            MacKind::Airmail => Some(airmail_config(&m.airmail, &format!("{path}.airmail"))?),
            _ => None,
        };
        if circuit.is_some() {
            let hops = m.hops.as_ref().map_or(m.stations.len().saturating_sub(1), |h| h.len());
            check(
                // One hop of its own, or none (`hops = []`: a link's
                // directions name the medium).
                m.stations.len() == 2 && hops <= 1,
                || format!("{path}.stations"),
                || {
                    format!(
                        "mac = \"{}\" is a point-to-point circuit: exactly two stations and one hop (or `hops = []`), got {} and {hops}",
                        if m.mac == MacKind::Rlp { "rlp" } else { "airmail" },
                        m.stations.len()
                    )
                },
            )?;
        }
        m.error.validate().map_err(|(field, reason)| ScenarioError::new(format!("{path}.error.{field}"), reason))?;
        m.error_others
            .validate()
            .map_err(|(field, reason)| ScenarioError::new(format!("{path}.error_others.{field}"), reason))?;
        check(
            m.error_others == ErrorModelConfig::None || circuit.is_some(),
            || format!("{path}.error_others"),
            "needs a circuit: mac = \"rlp\" or \"airmail\"",
        )?;
        // The radio's link ARQ reports no attempts (and retries without
        // limit by default): LL-ELSN is the 802.11 link layer's.
        check(
            !m.ll_elsn || dcf.is_some(),
            || format!("{path}.ll_elsn"),
            "needs a link layer that reports its retransmissions and discards: mac = \"dcf\"",
        )?;
        check(
            !m.ebsn || dcf.is_some(),
            || format!("{path}.ebsn"),
            "needs a link layer that reports its failed attempts: mac = \"dcf\"",
        )?;
        // A hop's rate, delay, header and queue: the MAC's (for summaries
        // and per-hop goodput; the MAC itself times the frames).
        let (hop_bps, hop_delay_ns, hop_header, hop_queue) = match (&dcf, &circuit) {
            (Some(c), _) => (c.data_rate_bps, c.propagation_ns, c.mac_header_bytes, c.queue_packets),
            (None, Some(c)) => (c.bandwidth_bps, c.delay_ns, c.header_bytes, c.queue_packets),
            (None, None) => (radio.bandwidth_bps, radio.propagation_ns, radio.mac_header_bytes, radio.queue_packets),
        };
        check(
            m.stations.len() >= 2,
            || format!("{path}.stations"),
            || format!("a medium needs at least two stations (one hop), got {}", m.stations.len()),
        )?;
        check(m.stations.len() < usize::from(StationId::MAX), || format!("{path}.stations"), "too many stations")?;
        let mut stations = Vec::with_capacity(m.stations.len());
        for (i, name) in m.stations.iter().enumerate() {
            let at = format!("{path}.stations[{i}]");
            let n = node_index(name).ok_or_else(|| ScenarioError::new(&at, format!("no node named '{name}'")))?;
            check(!stations.contains(&n), &at, || format!("node '{name}' has a radio on this medium already"))?;
            stations.push(n);
        }
        let station_of = |name: &str, at: &str| -> Result<StationId, ScenarioError> {
            let n = node_index(name).ok_or_else(|| ScenarioError::new(at, format!("no node named '{name}'")))?;
            station_on(&stations, n, name, &m.name, at)
        };
        let mut error_from = vec![m.error_from.is_none(); stations.len()];
        for (i, name) in m.error_from.iter().flatten().enumerate() {
            error_from[usize::from(station_of(name, &format!("{path}.error_from[{i}]"))?)] = true;
        }
        let pairs: Vec<[String; 2]> = match &m.hops {
            // Empty: the medium only carries link directions that name it.
            Some(h) => h.clone(),
            None => m.stations.windows(2).map(|w| [w[0].clone(), w[1].clone()]).collect(),
        };
        // An 802.11 station talks through its access point: one that no hop
        // joins could never send or receive (unless link directions name the
        // medium instead of hops of its own: `hops = []`).
        if dcf.is_some() && !pairs.is_empty() {
            for (i, name) in m.stations.iter().enumerate() {
                check(
                    pairs.iter().any(|[a, b]| a == name || b == name),
                    || format!("{path}.stations[{i}]"),
                    || format!("station '{name}' is in no hop: an 802.11 station needs a hop to its access point"),
                )?;
            }
        }
        let mut seen = HashSet::default();
        for (hi, [a, b]) in pairs.iter().enumerate() {
            let at = format!("{path}.hops[{hi}]");
            let (sa, sb) = (station_of(a, &at)?, station_of(b, &at)?);
            check(sa != sb, &at, "a hop joins two different radios")?;
            check(seen.insert((sa.min(sb), sa.max(sb))), &at, "duplicate hop")?;
            let name = format!("{}/{a}-{b}", m.name);
            check(!links.iter().any(|l| l.name == name), &at, || format!("a link is named '{name}' already"))?;
            let dir = |from: StationId, to: StationId| DirModel {
                params: DirParams {
                    bandwidth_bps: hop_bps,
                    delay_ns: hop_delay_ns,
                    frame_overhead_bytes: hop_header,
                    frame_overhead_ns: 0,
                    queue: QueueLimit { packets: Some(hop_queue), bytes: None },
                    jitter_mean_ns: 0,
                },
                error: ErrorModelConfig::default(),
                header_compression: HeaderCompression::None,
                queue: None,
                ack_recons: None,
                emulation_tick_ns: None,
                rate_trace: None,
                medium: Some(MediumHop { medium: mi as u32, from, to }),
            };
            links.push(LinkModel {
                name,
                ends: [stations[sa as usize], stations[sb as usize]],
                duplex: Duplex::Half,
                dirs: [dir(sa, sb), dir(sb, sa)],
            });
        }
        let queue = match m.mac {
            MacKind::Dcf => m.dcf.queue.clone(),
            MacKind::Radio => m.radio.queue.clone(),
            MacKind::Rlp | MacKind::Airmail => None,
        };
        media.push(MediumModel {
            name: m.name.clone(),
            radio,
            dcf,
            circuit,
            error: m.error.clone(),
            error_from,
            error_others: m.error_others.clone(),
            ll_elsn: m.ll_elsn,
            ebsn: m.ebsn,
            queue,
            stations,
        });
    }
    Ok(media)
}
