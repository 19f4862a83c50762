//! The run's summary: per flow, per link direction and per medium, and the
//! comparison with a published cell.

use super::{delivered_now, World, NO_COVER};
use crate::metrics::{
    AirmailSummary, BadStateSummary, CircuitSummary, ConnectionSummary, DatagramSummary, DcfSummary, FlowSummary,
    LinkSummary, LlElsnSummary, MediumSummary, NackSummary, OutageSummary, PublishedComparison, QueueSummary,
    RadioSummary, RunSummary, SplitSummary,
};
use crate::scenario::model::Workload;
use lasthop_agents::NodeAgent;
use lasthop_core::time::NS_PER_S;
use lasthop_core::Time;
use lasthop_net::mac::Mac;
use std::sync::Arc;

use crate::metrics::jain_index;
use crate::rows::Rows;

impl<'m> World<'m> {
    /// The agents of each connection, and the ACK reconstructors of each
    /// model flow (of any of its connections: split legs too), in the
    /// agents' order: each flow's summary reads its own, where filtering
    /// every agent for every flow made the summary quadratic (4,000 flows
    /// with snoop: 94.9 ms).
    fn agents_by_flow(&self) -> (Rows<u32>, Rows<u32>) {
        let conn = |k: usize| self.agents[k].agent.flow() as usize;
        let recons = |k: usize| matches!(self.agents[k].agent, NodeAgent::AckRecons(_));
        let n = self.flows.len();
        let on_conn = Rows::of_pairs(n, (0..self.agents.len()).filter(|&k| conn(k) < n).map(|k| (conn(k), k as u32)));
        let model_flow = |k: usize| self.flows[conn(k)].model_flow as usize;
        let recons_of = Rows::of_pairs(
            self.model.flows.len(),
            (0..self.agents.len()).filter(|&k| recons(k) && conn(k) < n).map(|k| (model_flow(k), k as u32)),
        );
        (on_conn, recons_of)
    }

    pub fn summary(&self) -> RunSummary {
        let end = self.sched.now();
        let overlap = self.overlap.throughputs_bps(end, &delivered_now(&self.flows, self.model.flows.len()));
        let secs = |ns: u64| ns as f64 / NS_PER_S as f64;
        let (on_conn, recons_of) = self.agents_by_flow();
        let flows: Vec<FlowSummary> = self
            .flows
            .iter()
            .zip(&self.model.flows)
            .enumerate()
            .map(|(fi, (f, m))| {
                let st = f.sender.stats();
                let on_flow = || on_conn.of(fi).iter().map(|&k| &self.agents[k as usize]);
                // Reconstructors of any connection of the flow (split legs too).
                let recons = recons_of.of(fi).iter().map(|&k| &self.agents[k as usize]);
                // The receiving application is the last leg's (split flows).
                let app_next = self.flows[self.last_leg(fi)].app_next;
                let start = self.starts[fi];
                let (bytes, elapsed_ns, completed) = match m.workload {
                    Workload::Bulk { .. } => {
                        let until = f.done_at.unwrap_or(end);
                        (app_next, until.since(start), f.done_at.is_some())
                    }
                    Workload::Timed { duration_ns } => {
                        let b = f.delivered_at_stop.unwrap_or(app_next);
                        let ran = f.delivered_at_stop.is_some();
                        (b, if ran { duration_ns } else { end.since(start) }, ran)
                    }
                };
                let cwnd_until = f.done_at.or(f.delivered_at_stop.map(|_| start.plus_ns(elapsed_ns))).unwrap_or(end);
                let t = secs(elapsed_ns);
                FlowSummary {
                    name: self.model.labels.flows[fi].clone(),
                    mss_bytes: m.sender.mss_bytes,
                    bytes_delivered: bytes,
                    throughput_bps: if t > 0.0 { bytes as f64 * 8.0 / t } else { 0.0 },
                    transfer_time_s: t,
                    retransmits: st.retransmits,
                    timeouts: st.timeouts,
                    spurious_timeouts: self.spurious[fi].count,
                    fast_retransmits: st.fast_retransmits,
                    eln_retransmits: st.eln_retransmits,
                    local_retransmits: on_flow().map(|s| s.agent.local_retransmits()).sum(),
                    dupacks_suppressed: on_flow().map(|s| s.agent.dupacks_suppressed()).sum(),
                    double_retransmits: on_flow().filter_map(|s| s.agent.double_retransmits()).reduce(|a, b| a + b),
                    dupacks_at_source: f.dupacks_at_source,
                    acks_reconstructed: recons
                        .clone()
                        .next()
                        .map(|_| recons.map(|s| s.agent.acks_reconstructed()).sum()),
                    nacks: on_flow()
                        .filter_map(|s| s.agent.nacks())
                        .reduce(|a, b| (a.0 + b.0, a.1 + b.1))
                        .map(|(threshold, idle)| NackSummary { threshold, idle }),
                    completed,
                    start_s: start.as_secs_f64(),
                    k: self.model.k_of_flows[fi],
                    mean_cwnd_segments: f.cwnd_avg.mean_bytes(cwnd_until) / f64::from(m.sender.mss_bytes),
                    cwnd_std_segments: f.cwnd_avg.std_bytes(cwnd_until) / f64::from(m.sender.mss_bytes),
                    mean_rtt_ms: (st.rtt_samples > 0).then(|| st.rtt_sum_ns as f64 / st.rtt_samples as f64 / 1e6),
                    rtt_std_ms: st.rtt_mean_std_ns().map(|(_, sd)| sd / 1e6),
                    overlap_throughput_bps: overlap.as_ref().map(|x| x[fi]),
                    split: f.relay.as_deref().map(|r| {
                        let leg = &self.flows[r.leg as usize];
                        let ws = leg.sender.stats();
                        if leg.mhp {
                            // MTCP over SRP (`mhp`): SRP's counters.
                            let c = self.mhp_counters(r.leg as usize);
                            return SplitSummary {
                                wireless_flow_id: r.leg,
                                bytes_at_base_station: f.app_next,
                                relay_buffer_bytes: r.buffer_bytes,
                                relay_max_occupancy_bytes: r.max_occupancy_bytes,
                                wireless_retransmits: c.sack_resends + c.timeout_resends,
                                wireless_timeouts: c.timeouts,
                                wireless_fast_retransmits: c.sack_resends,
                                wireless_dupacks: c.sacks_at_bs,
                                source_chokes: None,
                            };
                        }
                        SplitSummary {
                            wireless_flow_id: r.leg,
                            bytes_at_base_station: f.app_next,
                            relay_buffer_bytes: r.buffer_bytes,
                            relay_max_occupancy_bytes: r.max_occupancy_bytes,
                            wireless_retransmits: ws.retransmits,
                            wireless_timeouts: ws.timeouts,
                            wireless_fast_retransmits: ws.fast_retransmits,
                            wireless_dupacks: leg.dupacks_at_source,
                            source_chokes: f.receiver.mtcp_chokes().map(|(n, _)| n),
                        }
                    }),
                    connection: f.sender.connection().map(|c| {
                        let syn_sent = c.syn_sent_at.unwrap_or(start);
                        ConnectionSummary {
                            syn_sent_s: syn_sent.as_secs_f64(),
                            established_s: c.established_at.map(Time::as_secs_f64),
                            last_byte_delivered_s: f.done_at.map(Time::as_secs_f64),
                            last_byte_acked_s: c.fin_acked_at.map(Time::as_secs_f64),
                            completion_time_s: c.fin_acked_at.map(|t| secs(t.since(syn_sent))),
                            syn_retransmits: c.syn_retransmits,
                        }
                    }),
                    // LL-ELSN senders, and flows a link layer sent notices to.
                    ll_elsn: {
                        let n = self.notices.get(fi).copied().unwrap_or_default();
                        let delay = n.eln_delay_ms();
                        (f.sender.ll_elsn().is_some() || n.ersns_sent + n.elns_sent > 0).then(|| LlElsnSummary {
                            ersns_received: st.ersns_received,
                            elns_received: st.elns_received,
                            eln_retransmits: st.ll_eln_retransmits,
                            deferred_timeouts: st.ersn_deferred_timeouts,
                            disconnections: st.disconnections,
                            ersns_sent: n.ersns_sent,
                            elns_sent: n.elns_sent,
                            ersn_bytes_sent: n.ersn_bytes_sent,
                            eln_bytes_sent: n.eln_bytes_sent,
                            data_bytes_sent: n.data_bytes_sent,
                            eln_delay_ms_mean: delay.map(|d| d.0),
                            eln_delay_ms_min: delay.map(|d| d.1),
                            eln_delay_ms_max: delay.map(|d| d.2),
                        })
                    },
                    // A base station's EBSNs (an agent's, or a medium's
                    // link layer's) or ECN-BS marks.
                    bad_state: {
                        let agent = on_flow().find(|s| matches!(s.agent, NodeAgent::BadState(_)));
                        let (agent_ebsns, acks_marked) = agent.map_or((0, 0), |s| s.agent.bad_state_notices());
                        let link_ebsns = self.notices.get(fi).map_or(0, |n| n.ebsns_sent);
                        (agent.is_some() || link_ebsns + u64::from(st.ebsns_received) > 0).then(|| BadStateSummary {
                            ebsns_sent: agent_ebsns + link_ebsns,
                            ebsns_received: u64::from(st.ebsns_received),
                            acks_marked,
                            ecn_reductions: st.ecn_reductions,
                        })
                    },
                    datagrams: f.source.as_deref().map(|s| {
                        // Its datagrams are all one size: their bytes count them.
                        let received = app_next / u64::from(s.packet_bytes());
                        DatagramSummary { sent: s.sent(), received, bursts: s.bursts() }
                    }),
                }
            })
            .collect();
        // Per link direction: payload bytes put on it, and of those the
        // bytes that crossed it for the first time.
        let mut dir_bytes = vec![(0u64, 0u64); 2 * self.links.len()];
        for hop in self.route.iter().filter(|h| h.cover != NO_COVER) {
            let g = &self.cover[hop.cover as usize];
            let b = &mut dir_bytes[2 * hop.link as usize + hop.dir as usize];
            (b.0, b.1) = (b.0 + g.payload, b.1 + g.useful);
        }
        let mut links = Vec::new();
        for (li, l) in self.links.iter().enumerate() {
            for d in 0..2 {
                let s = l.dirs[d].stats();
                let queue = l.dirs[d].queue_stats(end).map(|q| QueueSummary {
                    marks: q.marks,
                    drops_early: s.drops_early,
                    drops_filtered: s.drops_filtered,
                    mean_queue_packets: q.mean_packets,
                    ack_share: (q.mean_packets > 0.0).then(|| q.mean_acks / q.mean_packets),
                    utilisation: if end.ns() > 0 { l.dirs[d].busy_ns(end) as f64 / end.ns() as f64 } else { 0.0 },
                    red_average_packets: q.red_average,
                });
                let (sent, useful) = dir_bytes[2 * li + d];
                links.push(LinkSummary {
                    name: self.model.labels.links[li].clone(),
                    direction: self.model.labels.dirs[2 * li + d].clone(),
                    goodput: (sent > 0).then(|| useful as f64 / sent as f64),
                    drops_error: s.drops_error,
                    drops_queue: s.drops_queue,
                    drops_outage: self.outage_drops(2 * li + d),
                    packets_sent: s.packets_sent,
                    bytes_sent: s.bytes_sent,
                    queue,
                });
            }
        }
        let published = self.model.published.as_ref().map(|p| {
            let f: &FlowSummary = &flows[p.flow];
            // The a->b direction of a link is entry 2·link of `links`.
            let goodput_pct =
                |l: Option<usize>| l.and_then(|l| links[2 * l].goodput).map(|g: f64| (g * 1e4).round() / 100.0);
            let measured = f.throughput_bps / 1e6;
            PublishedComparison {
                source: p.source.clone(),
                cell: p.selector.clone(),
                throughput_mbps: p.cell.throughput_mbps,
                wireless_goodput_pct: p.cell.wireless_goodput_pct,
                wired_goodput_pct: p.cell.wired_goodput_pct,
                measured_throughput_mbps: measured,
                measured_wireless_goodput_pct: goodput_pct(p.wireless_link),
                measured_wired_goodput_pct: goodput_pct(p.wired_link),
                ratio: measured / p.cell.throughput_mbps,
            }
        });
        RunSummary {
            seed: self.seed,
            scenario: self.model.name.clone(),
            sim_time_s: end.as_secs_f64(),
            events: self.sched.events_processed,
            jain_index: overlap.as_deref().and_then(jain_index),
            flows,
            links,
            published,
            media: self.media_summary(),
            handoffs: self.mobility.as_deref().map_or_else(Vec::new, |m| m.summary(self.model)),
            outages: self
                .model
                .outages
                .iter()
                .flat_map(|o| {
                    let link = &self.model.links[o.link as usize].name;
                    o.windows.iter().filter(|(down, _)| *down < end).map(|&(down, up)| OutageSummary {
                        link: link.clone(),
                        start_s: down.as_secs_f64(),
                        end_s: up.as_secs_f64(),
                    })
                })
                .collect(),
            wap: self.wap_summary(),
        }
    }

    fn media_summary(&self) -> Vec<MediumSummary> {
        let secs = |ns: u64| ns as f64 / NS_PER_S as f64;
        self.macs
            .iter()
            .zip(&self.model.media)
            .map(|(slot, m)| {
                let node = |s: usize| self.model.nodes[m.stations[s] as usize].clone();
                let r = match &slot.mac {
                    Mac::Radio(r) => r,
                    Mac::Dcf(d) => {
                        let stations = (0..slot.stations)
                            .map(|s| {
                                let st = d.stats(s as u16);
                                DcfSummary {
                                    node: node(s),
                                    frames_enqueued: st.enqueued,
                                    attempts: st.attempts,
                                    retries: st.retries,
                                    collisions: st.collisions,
                                    corrupted: st.data_frames_corrupted,
                                    delivered_up: st.delivered_up,
                                    duplicates_suppressed: st.duplicates_suppressed,
                                    backoff_s: secs(st.backoff_ns),
                                    airtime_s: secs(st.airtime_ns),
                                    drops_queue: st.drops_queue,
                                    drops_filtered: st.drops_filtered,
                                    drops_retry_limit: st.drops_retry_limit,
                                }
                            })
                            .collect();
                        return MediumSummary {
                            name: m.name.clone(),
                            radios: Vec::new(),
                            stations,
                            circuit: Vec::new(),
                        };
                    }
                    Mac::Circuit(c) => {
                        let circuit = (0..slot.stations)
                            .map(|s| {
                                let st = c.stats(s as u16);
                                CircuitSummary {
                                    node: node(s),
                                    packets_enqueued: st.enqueued,
                                    frames_sent: st.frames_sent,
                                    frame_retransmissions: st.frame_retransmissions,
                                    status_frames: st.status_frames,
                                    frames_corrupted: st.frames_corrupted,
                                    packets_delivered: st.packets_delivered,
                                    drops_queue: st.drops_queue,
                                    drops_filtered: st.drops_filtered,
                                    drops_retry_limit: st.packets_dropped,
                                    airmail: c.airmail_stats(s as u16).map(|a| AirmailSummary {
                                        status_block: a.status_block,
                                        status_poll: a.status_poll,
                                        status_timer: a.status_timer,
                                        polls: a.polls,
                                        poll_resends: a.poll_resends,
                                        fec_changes: a.fec_changes,
                                        fec_level: format!("{:?}", c.fec_level(s as u16).expect("AIRMAIL"))
                                            .to_lowercase(),
                                        parity_frames: a.coding.parity_frames,
                                        fec_byte_repaired: a.coding.byte_repaired,
                                        fec_block_recovered: a.coding.block_recovered,
                                    }),
                                }
                            })
                            .collect();
                        return MediumSummary {
                            name: m.name.clone(),
                            radios: Vec::new(),
                            stations: Vec::new(),
                            circuit,
                        };
                    }
                };
                let radios = (0..slot.stations)
                    .map(|s| {
                        let st = r.stats(s as u16);
                        RadioSummary {
                            node: self.model.nodes[m.stations[s] as usize].clone(),
                            frames_enqueued: st.enqueued,
                            data_frames_sent: st.data_frames_sent,
                            link_retransmissions: st.link_retransmissions,
                            frames_delivered_up: st.delivered_up,
                            rts_sent: st.rts_sent,
                            cts_sent: st.cts_sent,
                            poll_timeouts: st.poll_timeouts,
                            rts_ignored_busy: st.rts_ignored_busy,
                            link_acks_sent: st.link_acks_sent,
                            link_acks_piggybacked: st.link_acks_piggybacked,
                            turnaround_s: secs(st.turnaround_ns),
                            rts_cts_s: secs(st.rts_cts_ns),
                            backoff_s: secs(st.backoff_ns),
                            airtime_s: secs(st.airtime_ns),
                            drops_queue: st.drops_queue,
                            drops_filtered: st.drops_filtered,
                            drops_retry_limit: st.drops_retry_limit,
                        }
                    })
                    .collect();
                MediumSummary { name: m.name.clone(), radios, stations: Vec::new(), circuit: Vec::new() }
            })
            .collect()
    }

    /// Names of nodes, indexed as in local-retransmission traces.
    pub fn node_names(&self) -> Arc<[String]> {
        self.model.labels.nodes.clone()
    }

    /// Names of link directions, indexed as in drop traces (2·link + dir).
    pub fn link_dir_names(&self) -> Arc<[String]> {
        self.model.labels.link_dirs.clone()
    }
}
