//! Flows: where each copy of a flow runs from and to, and its resolved
//! model (workload, TCP, scheme, agents).

use super::*;

/// The token of a flow's `from` and `to` that stands for a copy's 1-based number.
pub const COPY_TOKEN: &str = "{copy}";

/// Whether flow `fl`'s ends name each copy's own nodes.
pub(super) fn per_copy_ends(fl: &FlowSpec) -> bool {
    fl.from.contains(COPY_TOKEN) || fl.to.contains(COPY_TOKEN)
}

/// The sending and receiving nodes of copy `copy` (0-based) of flow `fl`
/// (the file's `flows[i]`), `{copy}` expanded when `per_copy`.
pub(super) fn flow_ends(
    fl: &FlowSpec,
    i: usize,
    copy: u32,
    per_copy: bool,
    node_index: &dyn Fn(&str) -> Option<NodeId>,
) -> Result<(NodeId, NodeId), ScenarioError> {
    let number = u64::from(fl.first_copy) + u64::from(copy);
    let end = |field: &str, name: &str| {
        if !per_copy {
            let n = node_index(name)
                .ok_or_else(|| ScenarioError::new(format!("flows[{i}].{field}"), format!("no node named '{name}'")))?;
            return Ok(n);
        }
        let expanded = name.replace(COPY_TOKEN, &number.to_string());
        node_index(&expanded).ok_or_else(|| {
            ScenarioError::new(
                format!("flows[{i}].{field}"),
                format!("no node named '{expanded}' (copy {number} of '{name}')"),
            )
        })
    };
    let (from, to) = (end("from", &fl.from)?, end("to", &fl.to)?);
    let which = if per_copy { format!(" (copy {number})") } else { String::new() };
    check(from != to, || format!("flows[{i}].to"), || format!("must differ from `from`{which}"))?;
    Ok((from, to))
}

/// Flow `fl` (the file's `flows[i]`) from node `from` to node `to`.
pub(super) fn flow_model(fl: &FlowSpec, i: usize, from: NodeId, to: NodeId) -> Result<FlowModel, ScenarioError> {
    let p = |f: &str| format!("flows[{i}].{f}");
    duration_s(fl.start_s, || p("start_s"))?;
    if let Some(hi) = fl.start_max_s {
        duration_s(hi, || p("start_max_s"))?;
        check(
            hi >= fl.start_s,
            || p("start_max_s"),
            || format!("must be at least start_s ({} s), got {}", fl.start_s, hi),
        )?;
    }
    let pareto = match &fl.pareto {
        None => None,
        Some(s) => {
            check(
                fl.bytes.is_none(),
                || p("bytes"),
                "a Pareto source sends until it stops: give `duration_s` or none",
            )?;
            check(fl.scheme.is_none(), || p("scheme"), "a Pareto source is not TCP: it takes no scheme")?;
            let cfg = ParetoConfig {
                rate_bps: s.rate_bps,
                burst_s: s.burst_ms / 1e3,
                idle_s: s.idle_ms / 1e3,
                shape: s.shape,
                packet_bytes: s.packet_bytes,
            };
            cfg.validate().map_err(|(field, why)| ScenarioError::new(p(&format!("pareto.{field}")), why))?;
            Some(cfg)
        }
    };
    let wap = match &fl.wap {
        None => None,
        Some(s) => {
            let why = "a wap workload sets its own sizes: give neither `bytes` nor `duration_s`";
            check(fl.bytes.is_none(), || p("bytes"), why)?;
            check(fl.duration_s.is_none(), || p("duration_s"), why)?;
            check(fl.scheme.is_none(), || p("scheme"), "a wap workload takes no scheme (its `tcp` table is its TCP)")?;
            check(fl.pareto.is_none(), || p("pareto"), "a flow is a wap workload or a Pareto source, not both")?;
            Some(crate::traffic::wap::WapRole::Session(crate::traffic::wap::config(s, i)?))
        }
    };
    let workload = match (fl.bytes, fl.duration_s) {
        // A Pareto source without a duration runs to the end of the run.
        (None, None) if pareto.is_some() => Workload::Timed { duration_ns: u64::MAX },
        // A wap session runs until its pages are fetched.
        (None, None) if wap.is_some() => Workload::Timed { duration_ns: u64::MAX },
        (Some(b), None) => {
            check(b > 0, || p("bytes"), "must be at least 1")?;
            check(b <= MAX_FLOW_BYTES, || p("bytes"), || format!("must be at most 2^60, got {b}"))?;
            Workload::Bulk { bytes: b }
        }
        (None, Some(d)) => {
            positive(d, || p("duration_s"))?;
            duration_s(d, || p("duration_s"))?;
            Workload::Timed { duration_ns: secs_to_ns(d) }
        }
        _ => return Err(ScenarioError::new(format!("flows[{i}]"), "give exactly one of `bytes` and `duration_s`")),
    };
    let t = &fl.tcp;
    let (variant, variant_cc, acks, eln, base_station) = match &fl.scheme {
        Some(name) => {
            let sc = schemes::find(name).ok_or_else(|| {
                ScenarioError::new(
                    p("scheme"),
                    format!("unknown scheme '{name}' (known: {})", schemes::names().join(", ")),
                )
            })?;
            check(t.variant.is_none(), || p("tcp.variant"), "conflicts with `scheme`, which sets the variant")?;
            check(t.recovery.is_none(), || p("tcp.recovery"), "conflicts with `scheme`, which sets the recovery")?;
            check(t.eln.is_none(), || p("tcp.eln"), "conflicts with `scheme`, which sets the ELN response")?;
            // Snoop's NACKs: the fixed host is unchanged, the SACK blocks
            // the mobile sender reads are the base station's.
            let acks = match sc.base_station {
                BaseStationAgent::Nack => Acks::Cumulative,
                _ => Acks::for_recovery(sc.variant),
            };
            (sc.variant, sc.cc, acks, sc.eln, sc.base_station)
        }
        None => {
            let spec = match t.variant.as_deref() {
                None => None,
                Some(name) => Some(variants::find(name).ok_or_else(|| {
                    ScenarioError::new(
                        p("tcp.variant"),
                        format!("unknown variant '{name}' (known: {})", variants::names().join(", ")),
                    )
                })?),
            };
            check(
                spec.is_none() || t.recovery.is_none(),
                || p("tcp.recovery"),
                "conflicts with `variant`, which sets the recovery",
            )?;
            let recovery = t.recovery.or(spec.map(|s| s.recovery)).unwrap_or(Variant::Reno);
            let acks = spec.map_or(Acks::for_recovery(recovery), |s| s.acks);
            let cc = spec.map_or("reno", |s| s.cc);
            (recovery, cc, acks, t.eln.unwrap_or(ElnResponse::Off), BaseStationAgent::None)
        }
    };
    check(
        t.cc.is_none() || variant_cc == "reno",
        || p("tcp.cc"),
        || format!("conflicts with the variant or scheme, which runs '{variant_cc}'"),
    )?;
    let cc_name = t.cc.as_deref().unwrap_or(variant_cc);
    let given: Vec<(&str, f64)> = t.cc_params.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let cc = CcConfig::named(cc_name, &given).map_err(|e| {
        let field = if e.field == "cc" { p("tcp.cc") } else { p(&format!("tcp.{}", e.field)) };
        ScenarioError::new(field, e.reason)
    })?;
    check(
        t.sack != Some(false) || acks != Acks::Sack,
        || p("tcp.sack"),
        "the recovery 'sack' needs the receiver's SACK blocks: remove `sack = false`",
    )?;
    check(
        !cc.name.needs_timestamps() || t.timestamps,
        || p("tcp.timestamps"),
        || format!("the congestion control '{}' needs the timestamp option: set `timestamps = true`", cc.name.as_str()),
    )?;
    let eln_on = eln != ElnResponse::Off;
    let latency_us = t.base_station_processing_us;
    non_negative(latency_us, || p("tcp.base_station_processing_us"))?;
    check(
        latency_us <= MAX_PROCESSING_US,
        || p("tcp.base_station_processing_us"),
        || format!("must be at most {MAX_PROCESSING_US} us (1 s), got {latency_us}"),
    )?;
    check(t.eln_slots != Some(0), || p("tcp.eln_slots"), "must be at least 1 (absent: no limit)")?;
    let (snoop, bad_state) = match base_station {
        BaseStationAgent::Snoop(cfg) => (Some(cfg), None),
        BaseStationAgent::BadState(cfg, notice) => (Some(cfg), Some(notice)),
        _ => (None, None),
    };
    check(
        t.base_station_max_local_rexmits != Some(0),
        || p("tcp.base_station_max_local_rexmits"),
        "must be at least 1",
    )?;
    check(
        t.base_station_max_local_rexmits.is_none() || snoop.is_some(),
        || p("tcp.base_station_max_local_rexmits"),
        "needs a scheme whose base station retransmits locally (ll, snoop, ebsn, ...)",
    )?;
    check(
        t.base_station_tcp_aware.is_none() || snoop.is_some(),
        || p("tcp.base_station_tcp_aware"),
        "needs a scheme whose base station retransmits locally (ll, snoop, ebsn, ...)",
    )?;
    let nacks = base_station == BaseStationAgent::Nack;
    for (given, field) in [
        (t.nack_threshold_packets.is_some(), "tcp.nack_threshold_packets"),
        (t.nack_idle_rtts.is_some(), "tcp.nack_idle_rtts"),
    ] {
        check(!given || nacks, || p(field), "needs the scheme snoop-nack")?;
    }
    check(t.nack_threshold_packets != Some(0), || p("tcp.nack_threshold_packets"), "must be at least 1")?;
    if let Some(r) = t.nack_idle_rtts {
        positive(r, || p("tcp.nack_idle_rtts"))?;
    }
    let snoop = snoop.map(|cfg| SnoopConfig {
        processing_ns: (latency_us * NS_PER_US as f64).round() as u64,
        max_local_rexmits: t.base_station_max_local_rexmits.unwrap_or(cfg.max_local_rexmits),
        tcp_aware: t.base_station_tcp_aware.unwrap_or(cfg.tcp_aware),
        ..cfg
    });
    let ecn_bs = bad_state == Some(BadStateNotice::EcnBs);
    let split = match base_station {
        BaseStationAgent::Split { wireless, mtcp } => {
            Some(SplitModel { wireless, buffer_bytes: t.split_buffer_bytes, mtcp, mhp: None })
        }
        BaseStationAgent::Mhp => Some(SplitModel {
            wireless: Variant::Reno,
            buffer_bytes: t.split_buffer_bytes,
            mtcp: false,
            mhp: mhp_model(t, &p)?,
        }),
        _ => None,
    };
    check(t.mtcp.is_none() || base_station == BaseStationAgent::Mhp, || p("tcp.mtcp"), "needs the scheme mtcp")?;
    check(
        t.split_buffer_bytes >= u64::from(t.mss_bytes),
        || p("tcp.split_buffer_bytes"),
        "must hold at least one segment (mss_bytes)",
    )?;
    check(t.mss_bytes > 0, || p("tcp.mss_bytes"), "must be at least 1")?;
    for (v, f) in [(t.header_bytes, "tcp.header_bytes"), (t.ack_bytes, "tcp.ack_bytes")] {
        check(
            v <= MAX_PACKET_BYTES,
            || p(f),
            || format!("must be at most {MAX_PACKET_BYTES} (an IPv4 datagram), got {v}"),
        )?;
    }
    check(
        u64::from(t.mss_bytes) + u64::from(t.header_bytes) <= u64::from(MAX_PACKET_BYTES),
        || p("tcp.mss_bytes"),
        || format!("with header_bytes must fit an IPv4 datagram ({MAX_PACKET_BYTES} bytes), got {}", t.mss_bytes),
    )?;
    check(
        t.socket_buffer_bytes >= u64::from(t.mss_bytes),
        || p("tcp.socket_buffer_bytes"),
        "must hold at least one segment (mss_bytes)",
    )?;
    check(t.socket_buffer_bytes <= u64::from(u32::MAX), || p("tcp.socket_buffer_bytes"), "must fit a 32-bit window")?;
    check(t.initial_cwnd_segments > 0, || p("tcp.initial_cwnd_segments"), "must be at least 1")?;
    check(t.dupack_threshold > 0, || p("tcp.dupack_threshold"), "must be at least 1")?;
    check(t.ack_bytes > 0, || p("tcp.ack_bytes"), "must be at least 1")?;
    let mut rto = match t.rto.mode {
        RtoMode::Rfc6298 => RtoConfig::rfc6298(),
        RtoMode::Bsd => RtoConfig::bsd(),
        RtoMode::Ns2 => RtoConfig::ns2(),
        RtoMode::Ns2Legacy => RtoConfig::ns2_legacy(),
    };
    if let Some(ms) = t.rto.min_ms {
        duration(ms, 1e-3, "ms", || p("tcp.rto.min_ms"))?;
        rto.min_ns = (ms * NS_PER_MS as f64).round() as u64;
    }
    if let Some(s) = t.rto.max_s {
        positive(s, || p("tcp.rto.max_s"))?;
        duration_s(s, || p("tcp.rto.max_s"))?;
        rto.max_ns = secs_to_ns(s);
    }
    if let Some(s) = t.rto.initial_s {
        positive(s, || p("tcp.rto.initial_s"))?;
        duration_s(s, || p("tcp.rto.initial_s"))?;
        rto.initial_ns = secs_to_ns(s);
    }
    if let Some(ms) = t.rto.granularity_ms {
        duration(ms, 1e-3, "ms", || p("tcp.rto.granularity_ms"))?;
        rto.granularity_ns = (ms * NS_PER_MS as f64).round() as u64;
    }
    check(rto.min_ns <= rto.max_ns, || p("tcp.rto.min_ms"), "must not exceed max_s")?;
    positive(t.ack.delay_ms, || p("tcp.ack.delay_ms"))?;
    duration(t.ack.delay_ms, 1e-3, "ms", || p("tcp.ack.delay_ms"))?;
    check(t.ack.every_segments > 0, || p("tcp.ack.every_segments"), "must be at least 1")?;
    let delay_ns = (t.ack.delay_ms * NS_PER_MS as f64).round() as u64;
    // The delayed-ack timer (and BSD's fast-timer tick) is counted in whole ns.
    check(delay_ns >= 1, || p("tcp.ack.delay_ms"), || format!("must be at least 1e-6 (1 ns), got {}", t.ack.delay_ms))?;
    let ack_policy = match t.ack.policy {
        AckPolicySpec::Immediate => AckPolicy::Immediate,
        AckPolicySpec::Delayed => AckPolicy::Delayed { every_segments: t.ack.every_segments, timeout_ns: delay_ns },
        AckPolicySpec::BsdDelayed => {
            AckPolicy::BsdDelayed { every_segments: t.ack.every_segments, tick_ns: delay_ns, tick_phase_ns: 0 }
        }
    };
    // Seed 001's options: what each needs from the others.
    let acc = match &t.acc {
        None => None,
        Some(a) => {
            check(a.max_delack >= 1, || p("tcp.acc.max_delack"), "must be at least 1")?;
            check(a.min_acks_win >= 1, || p("tcp.acc.min_acks_win"), "must be at least 1")?;
            check(
                t.sender_window_option,
                || p("tcp.acc"),
                "needs the sender's window: set tcp.sender_window_option = true",
            )?;
            check(
                t.ack.policy != AckPolicySpec::Immediate,
                || p("tcp.ack.policy"),
                "ACC (tcp.acc) needs a delayed-ack timer: `delayed` (ns-2: delay_ms = 100) or `bsd_delayed` (4.4BSD's 200 ms tick)",
            )?;
            check(
                a.mode != AccMode::Ecn || t.timestamps,
                || p("tcp.acc.mode"),
                "`ecn` needs the timestamp option for its once-per-round-trip test: set tcp.timestamps = true",
            )?;
            Some(AccConfig { mode: a.mode, max_delack: a.max_delack, min_acks_win: a.min_acks_win })
        }
    };
    let adaptation = match &t.sender_adaptation {
        None => None,
        Some(sa) => {
            check(sa.maxburst >= 1, || p("tcp.sender_adaptation.maxburst"), "must be at least 1")?;
            check(
                sa.segments_per_increase >= 1,
                || p("tcp.sender_adaptation.segments_per_increase"),
                "must be at least 1",
            )?;
            check(
                t.timestamps,
                || p("tcp.sender_adaptation"),
                "needs the timestamp option for its exact round trip: set tcp.timestamps = true",
            )?;
            let timer = match sa.timer_tick_ms {
                None => None,
                // The phase is the sending host's, drawn at build time.
                Some(ms) => Some(KernelClock::new(kernel_tick_ns(ms, &p("tcp.sender_adaptation.timer_tick_ms"))?, 0)),
            };
            Some(AdaptationConfig { maxburst: sa.maxburst, segments_per_increase: sa.segments_per_increase, timer })
        }
    };
    check(
        t.ll_elsn.is_none() || variant == Variant::Sack,
        || p("tcp.ll_elsn"),
        "the LL-ELSN responses run over the SACK sender: needs variant = \"sack\"",
    )?;
    check(
        !(t.handshake && split.is_some()),
        || p("tcp.handshake"),
        "a split connection has no handshake model (its relay starts the wireless leg established)",
    )?;
    if let Some(fr) = &t.fast_retransmit_request {
        check(fr.threshold >= 1, || p("tcp.fast_retransmit_request.threshold"), "must be at least 1")?;
    }
    let acc_marks = acc.is_some_and(|a| a.mode == AccMode::Ecn);
    Ok(FlowModel {
        name: fl.name.clone(),
        from,
        to,
        start: Time::from_secs_f64(fl.start_s),
        start_max: fl.start_max_s.map(Time::from_secs_f64),
        start_after: None,
        workload,
        sender: SenderConfig {
            variant,
            cc,
            mss_bytes: t.mss_bytes,
            send_buffer_bytes: t.socket_buffer_bytes,
            initial_cwnd_segments: t.initial_cwnd_segments,
            initial_ssthresh_bytes: t.initial_ssthresh_bytes.unwrap_or(u64::from(u32::MAX)),
            dupack_threshold: t.dupack_threshold,
            window_growth: t.window_growth,
            window_cut: t.window_cut,
            recovery_exit: t.recovery_exit,
            header_prediction: t.header_prediction,
            header_prediction_guard: t.header_prediction_guard,
            window_update: t.window_update,
            max_cwnd_bytes: t.max_cwnd_bytes.unwrap_or(u64::MAX),
            cwnd_bound: t.cwnd_bound,
            eln,
            limited_transmit: t.limited_transmit,
            total_bytes: match workload {
                Workload::Bulk { bytes } => Some(bytes),
                Workload::Timed { .. } => None,
            },
            rto,
            ecn: t.ecn || ecn_bs,
            echo_ack_marks: acc_marks,
            timestamps: t.timestamps,
            sender_window_option: t.sender_window_option,
            adaptation,
            fr_request: t.fast_retransmit_request.is_some(),
            handshake: t.handshake,
            mutations: Default::default(),
        },
        receiver: ReceiverConfig {
            recv_buffer_bytes: t.socket_buffer_bytes,
            mss_bytes: t.mss_bytes,
            ack_policy,
            sack: t.sack.unwrap_or(acks == Acks::Sack),
            // The SMART link layers read the mobile host's SMART echoes, and
            // the LHP packet list its triggers (seed 004 Sec. 4.1: "the SMART
            // ACK only contains the information of the single packet which has
            // been successfully received and has triggered the ACK").
            smart_echo: acks == Acks::SmartEcho
                || snoop.is_some_and(|s| s.smart)
                || split.is_some_and(|s| s.wireless == Variant::Smart)
                || t.ll_elsn.as_ref().is_some_and(|l| l.response == LlElsnResponseSpec::LhpList),
            eln: eln_on && t.eln_generator == ElnGenerator::Receiver,
            eln_slots: t.eln_slots,
            ecn: t.ecn,
            ect_acks: acc_marks,
            timestamps: t.timestamps,
            acc,
            fr_request_threshold: t.fast_retransmit_request.as_ref().map(|f| f.threshold),
        },
        header_bytes: t.header_bytes,
        ack_bytes: t.ack_bytes,
        eln_at_base_station: eln_on && t.eln_generator == ElnGenerator::BaseStation,
        eln_node: None,
        snoop,
        snoop_node: None,
        snoop_followers: Vec::new(),
        snoop_group: None,
        bad_state,
        split,
        split_node: None,
        nack: (base_station == BaseStationAgent::Nack).then_some(SnoopNackConfig {
            threshold_packets: t.nack_threshold_packets.unwrap_or(NACK_THRESHOLD_PACKETS),
            // Set with the route: two round trips of the wireless hop.
            idle_ns: 0,
            ack_bytes: t.ack_bytes,
        }),
        nack_node: None,
        pareto,
        wap,
        ll_elsn: t.ll_elsn.as_ref().map(|l| {
            let response = match l.response {
                LlElsnResponseSpec::Esack => LlElsnResponse::Esack,
                LlElsnResponseSpec::Hack => LlElsnResponse::Hack,
                LlElsnResponseSpec::HackFixed => LlElsnResponse::HackFixed,
                LlElsnResponseSpec::LhpList => LlElsnResponse::LhpList,
            };
            let eln_filter = match l.eln_filter {
                Some(0) => None,
                Some(n) => Some(n),
                None if response == LlElsnResponse::Esack => Some(2),
                None => None,
            };
            // Absent, the bound needs the flow's link layer: set with its route.
            LlElsnConfig { response, eln_filter, ersn_max_deferrals: l.ersn_max_deferrals.unwrap_or(0) }
        }),
        freeze_warning: match &t.freeze {
            Some(f) => {
                duration_s(f.warning_s, || p("tcp.freeze.warning_s"))?;
                Some(Time::from_secs_f64(f.warning_s))
            }
            None => None,
        },
        frho: t.frho,
    })
}

/// Scheme `mtcp`'s wireless side from `tcp.mtcp` (`None`: carried by TCP).
fn mhp_model(
    t: &crate::scenario::schema::TcpSpec,
    p: &dyn Fn(&str) -> String,
) -> Result<Option<MhpModel>, ScenarioError> {
    use lasthop_net::arq::srp::{Rto, SrpConfig};
    let spec = t.mtcp.clone().unwrap_or(MtcpSpec {
        transport: MtcpTransport::Srp,
        mss_wireless_bytes: None,
        srp_window_packets: None,
        srp_initial_window_packets: None,
        srp_rto_ms: None,
    });
    if spec.transport == MtcpTransport::Tcp {
        check(
            spec.mss_wireless_bytes.is_none_or(|m| m == t.mss_bytes),
            || p("tcp.mtcp.mss_wireless_bytes"),
            "with transport = \"tcp\" the wireless leg's segments are mss_bytes: absent or equal to it",
        )?;
        for (given, f) in [
            (spec.srp_window_packets.is_some(), "tcp.mtcp.srp_window_packets"),
            (spec.srp_initial_window_packets.is_some(), "tcp.mtcp.srp_initial_window_packets"),
            (spec.srp_rto_ms.is_some(), "tcp.mtcp.srp_rto_ms"),
        ] {
            check(!given, || p(f), "needs transport = \"srp\"")?;
        }
        return Ok(None);
    }
    let mss_wireless = spec.mss_wireless_bytes.unwrap_or(t.mss_bytes);
    check(mss_wireless > 0, || p("tcp.mtcp.mss_wireless_bytes"), "must be at least 1")?;
    check(
        u64::from(mss_wireless) + u64::from(t.header_bytes) <= u64::from(MAX_PACKET_BYTES),
        || p("tcp.mtcp.mss_wireless_bytes"),
        || format!("with header_bytes must be at most {MAX_PACKET_BYTES} (an IPv4 datagram)"),
    )?;
    let d = SrpConfig::default();
    let rto = match spec.srp_rto_ms {
        None => d.rto,
        Some(ms) => {
            check(ms.is_finite() && ms > 0.0, || p("tcp.mtcp.srp_rto_ms"), "must be positive")?;
            Rto::Fixed { ns: (ms * 1e6).round() as u64 }
        }
    };
    let srp = SrpConfig {
        window_max: spec.srp_window_packets.unwrap_or(d.window_max),
        initial_window: spec
            .srp_initial_window_packets
            .unwrap_or(d.initial_window.min(spec.srp_window_packets.unwrap_or(d.window_max))),
        rto,
        ..d
    };
    if let Err((field, why)) = srp.validate() {
        let f = match field {
            "window_max" => "tcp.mtcp.srp_window_packets",
            "initial_window" => "tcp.mtcp.srp_initial_window_packets",
            _ => "tcp.mtcp.srp_rto_ms",
        };
        return Err(ScenarioError::new(p(f), why));
    }
    Ok(Some(MhpModel { mss_wireless, srp }))
}
