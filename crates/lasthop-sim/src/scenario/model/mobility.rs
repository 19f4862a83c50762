//! Mobile hosts and their base stations, validated (seed 002;
//! elaarag-002.md Sec. 2.2: the multi-attachment topology, mobility
//! schedules, handoffs and their latency). What is random (beacon waits,
//! exponential residences, a random walk's next cell) is drawn per run,
//! from the seed, when the world is wired (`world::mobility`); here: the
//! stations and their links, the registration times, the schedule's kind
//! and the paths each of the mobile's connections takes from each station.

use super::{check, duration_s, non_negative, positive, LinkModel, MediumModel};
use crate::scenario::routes::{Hop, Path, Router};
use crate::scenario::schema::{LinkDownSpec, LinkHandoffSpec, MobilitySpec, RegistrationSpec, SnoopHandoffSpec};
use crate::scenario::ScenarioError;
use lasthop_agents::group::GroupBuffer;
use lasthop_core::{NodeId, Time};

/// Most handoffs one mobility entry may list or a run may make.
pub const MAX_HANDOFFS: usize = 1_000_000;

/// A base station of a mobile host.
#[derive(Clone, Debug, PartialEq)]
pub struct StationModel {
    pub node: NodeId,
    /// The link joining it to the mobile host: point-to-point, or carried
    /// by a circuit.
    pub link: u32,
    /// That link's direction from the station to the mobile host.
    pub down_dir: u8,
    /// The circuit that carries the link, if one does (its medium index).
    pub circuit: Option<u32>,
}

/// When handoffs begin.
#[derive(Clone, Debug, PartialEq)]
pub enum HandoffSchedule {
    /// At listed times, to the named station (index into the stations).
    Listed(Vec<(Time, usize)>),
    /// Every `every` from `start`.
    Periodic { start: Time, every: Time },
    /// After an exponential residence of mean `mean` from each attachment.
    Exponential { mean: Time },
}

/// A mobile host, its stations and its schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct MobilityModel {
    pub mobile: NodeId,
    pub stations: Vec<StationModel>,
    /// The station attached at the start.
    pub initial: usize,
    pub semantics: LinkDownSpec,
    /// The fixed part of each handoff's latency.
    pub latency: Time,
    /// The beacon period, when beacons are modelled.
    pub beacon: Option<Time>,
    /// `register[a * n + b]`: the registration's round trip (propagation)
    /// of a handoff from station `a` to `b`.
    pub register: Vec<Time>,
    pub schedule: HandoffSchedule,
    /// Where each listed handoff was given, as errors name it.
    pub listed_at: Vec<ListedAt>,
    /// `[columns, rows]` of the stations' cells, for a random walk.
    pub grid: Option<[u32; 2]>,
    /// Each station's supervisor host (M-TCP), when the grid's cells are
    /// grouped into them (`supervisor_cells`).
    pub supervisors: Option<Vec<u32>>,
    /// The connections with an end at the mobile host, and their data and
    /// ack paths from each station (in the stations' order). A split
    /// flow's two legs are here too, each with its paths from each station
    /// (the wired leg to the station, the wireless leg over its link).
    pub conns: Vec<(u32, Vec<[Path; 2]>)>,
    /// I-TCP: the split flows to the mobile host, as (wired leg, wireless
    /// leg) connections: their legs move with the state, not when the
    /// handoff completes.
    pub splits: Vec<(u32, u32)>,
    /// I-TCP's state transfer: its fixed part and its bytes per second.
    pub transfer: Time,
    pub transfer_bytes_per_s: f64,
    /// I-TCP: the wired paths between the stations, `a * n + b` from
    /// station `a` to `b` (and back), on which the state transfer's
    /// messages travel (`None` on the diagonal, and without split flows).
    pub station_paths: Vec<Option<[Path; 2]>>,
    /// Make-before-break: the old station's link goes down this long after
    /// a handoff begins (at most when the next begins).
    pub overlap: Time,
    /// Snoop's multicast handoff: the packets each buffering station keeps
    /// (`None`: a hard handoff).
    pub multicast: Option<usize>,
    /// Registration by messages (`registration = "message"`): the wired
    /// paths from each new station to its anchor and back, `a * n + b` for
    /// a handoff from `a` to `b` (`None`: the station is its own anchor).
    /// Empty: registration is a delay (`register`).
    pub register_paths: Vec<Option<[Path; 2]>>,
    /// AIRMAIL's handoff with state transfer (`link_handoff = "transfer"`):
    /// the stations' circuits' link-layer state moves with the mobile
    /// host, and its connections move when it is installed.
    pub link_transfer: bool,
}

/// I-TCP's state transfer (elaarag-002.md Sec. 1.11 [I]): 265 ms with
/// empty buffers, 1430 ms with 32 KB (Bakre and Badrinath 1995, through
/// winet95): a straight line through the two points.
pub const STATE_TRANSFER_S: f64 = 0.265;
pub const STATE_TRANSFER_BYTES_PER_S: f64 = 32768.0 / (1.430 - 0.265);

/// The most packets a buffering station keeps (snoop's multicast handoff):
/// far past any window a station serves, a bound on the copies' memory.
pub const MAX_BUFFER_PACKETS: u32 = 4096;

/// Where a listed handoff was given: entry K of `handoffs`, or line N of
/// the `trace`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListedAt {
    Handoff(usize),
    TraceLine(usize),
}

impl ListedAt {
    /// The field, under the mobility entry, that an error about the
    /// handoff's `what` (`at_s`, `to`) names: `handoffs[K].what`, or
    /// `trace (line N)` (a line holds both).
    pub fn field(self, what: &str) -> String {
        match self {
            ListedAt::Handoff(k) => format!("handoffs[{k}].{what}"),
            ListedAt::TraceLine(n) => format!("trace (line {n})"),
        }
    }
}

impl MobilityModel {
    /// The longest a handoff to `b` from `a` can take.
    pub fn max_latency(&self, a: usize, b: usize) -> Time {
        let n = self.stations.len();
        let beacon = self.beacon.map_or(0, |b| b.ns());
        Time(self.latency.ns() + self.register[a * n + b].ns() + beacon)
    }

    /// The cells next to station `s`'s on the grid (the next station of a
    /// walk), or every other station without a grid.
    pub fn neighbours(&self, s: usize) -> Vec<usize> {
        let n = self.stations.len();
        match self.grid {
            Some([cols, _]) => {
                let cols = cols as usize;
                let (r, c) = (s / cols, s % cols);
                let mut v = Vec::with_capacity(4);
                if r > 0 {
                    v.push(s - cols);
                }
                if s + cols < n {
                    v.push(s + cols);
                }
                if c > 0 {
                    v.push(s - 1);
                }
                if c + 1 < cols && s + 1 < n {
                    v.push(s + 1);
                }
                v
            }
            None => (0..n).filter(|&t| t != s).collect(),
        }
    }
}

/// The file's mobility entries, checked: named nodes, two stations or
/// more, each joined to the mobile host by exactly one point-to-point
/// link, no other link at the mobile host, no host mobile twice, durations
/// non-negative, one schedule. The connections' paths come later
/// ([`paths_from_stations`]).
pub fn mobility(
    specs: &[MobilitySpec],
    node_index: &dyn Fn(&str) -> Option<NodeId>,
    links: &[LinkModel],
    media: &[MediumModel],
    stop: Time,
) -> Result<Vec<MobilityModel>, ScenarioError> {
    let mut models: Vec<MobilityModel> = Vec::with_capacity(specs.len());
    for (i, m) in specs.iter().enumerate() {
        let p = |f: &str| format!("mobility[{i}].{f}");
        let named = |name: &str, field: &str| {
            node_index(name).ok_or_else(|| ScenarioError::new(p(field), format!("no node named '{name}'")))
        };
        let mobile = named(&m.mobile, "mobile")?;
        check(models.iter().all(|o| o.mobile != mobile), || p("mobile"), "already a mobile host of an earlier entry")?;
        check(m.stations.len() >= 2, || p("stations"), "a mobile host needs two stations or more")?;
        let mut stations: Vec<StationModel> = Vec::with_capacity(m.stations.len());
        for (k, name) in m.stations.iter().enumerate() {
            let field = format!("stations[{k}]");
            let node = named(name, &field)?;
            check(node != mobile, || p(&field), "the mobile host itself")?;
            check(stations.iter().all(|s| s.node != node), || p(&field), || format!("'{name}' is listed twice"))?;
            let joining: Vec<usize> = (0..links.len())
                .filter(|&li| links[li].ends.contains(&mobile) && links[li].ends.contains(&node))
                .collect();
            let [li] = joining[..] else {
                return Err(ScenarioError::new(
                    p(&field),
                    format!("'{name}' must be joined to the mobile host by exactly one link ({} found)", joining.len()),
                ));
            };
            let circuit = links[li].dirs[0].medium.map(|h| h.medium);
            check(
                links[li].dirs.iter().all(|d| d.medium.is_none()) || links[li].carried_by_circuit(media),
                || p(&field),
                "its link is a shared medium's hop: a station's link is point-to-point or a circuit's (rlp, airmail)",
            )?;
            let down_dir = u8::from(links[li].ends[0] != node);
            stations.push(StationModel { node, link: li as u32, down_dir, circuit });
        }
        let link_transfer = m.link_handoff == LinkHandoffSpec::Transfer;
        if link_transfer {
            // AIRMAIL's state moves between circuits alike, each with the
            // station as its base station (the medium's first station).
            let first = stations[0].circuit.map(|c| &media[c as usize]);
            for (k, st) in stations.iter().enumerate() {
                let medium = st.circuit.map(|c| &media[c as usize]);
                check(
                    medium.is_some_and(|md| md.circuit.is_some_and(|c| c.airmail.is_some())),
                    || p("link_handoff"),
                    || {
                        format!("transfer needs every station's link carried by an AIRMAIL circuit (stations[{k}]'s is not)")
                    },
                )?;
                let (md, first) = (medium.expect("checked"), first.expect("checked"));
                check(
                    md.circuit == first.circuit,
                    || p("link_handoff"),
                    || {
                        format!(
                            "transfer needs the stations' circuits alike: stations[{k}]'s differs from stations[0]'s"
                        )
                    },
                )?;
                check(
                    md.stations[0] == st.node,
                    || p("link_handoff"),
                    || {
                        format!("transfer needs each station to be its circuit's base station (its first station): stations[{k}]")
                    },
                )?;
            }
        }
        if let Some(li) = (0..links.len())
            .find(|&li| links[li].ends.contains(&mobile) && !stations.iter().any(|s| s.link as usize == li))
        {
            return Err(ScenarioError::new(
                p("mobile"),
                format!("'{}' has link '{}', which joins it to none of its stations", m.mobile, links[li].name),
            ));
        }
        let station_of = |name: &str, field: &str| -> Result<usize, ScenarioError> {
            let node = named(name, field)?;
            stations
                .iter()
                .position(|s| s.node == node)
                .ok_or_else(|| ScenarioError::new(p(field), format!("'{name}' is not one of the mobile's stations")))
        };
        let initial = match &m.initial {
            Some(name) => station_of(name, "initial")?,
            None => 0,
        };
        non_negative(m.latency_s, || p("latency_s"))?;
        duration_s(m.latency_s, || p("latency_s"))?;
        if let Some(t) = m.state_transfer_s {
            non_negative(t, || p("state_transfer_s"))?;
            duration_s(t, || p("state_transfer_s"))?;
        }
        if let Some(r) = m.state_transfer_bytes_per_s {
            positive(r, || p("state_transfer_bytes_per_s"))?;
        }
        if let Some(o) = m.overlap_s {
            non_negative(o, || p("overlap_s"))?;
            duration_s(o, || p("overlap_s"))?;
        }
        let multicast = match (m.snoop_handoff, m.buffer_packets) {
            (SnoopHandoffSpec::Hard, None) => None,
            (SnoopHandoffSpec::Hard, Some(_)) => {
                return Err(ScenarioError::new(p("buffer_packets"), "needs snoop_handoff = \"multicast\""))
            }
            (SnoopHandoffSpec::Multicast, n) => {
                let n = n.unwrap_or(GroupBuffer::PAPER_PACKETS as u32);
                check(
                    (1..=MAX_BUFFER_PACKETS).contains(&n),
                    || p("buffer_packets"),
                    || format!("{n} packets: from 1 to {MAX_BUFFER_PACKETS}"),
                )?;
                Some(n as usize)
            }
        };
        let beacon = match m.beacon_period_s {
            Some(b) => {
                positive(b, || p("beacon_period_s"))?;
                duration_s(b, || p("beacon_period_s"))?;
                Some(Time::from_secs_f64(b))
            }
            None => None,
        };
        if let Some(name) = &m.anchor {
            named(name, "anchor")?;
        }
        if let Some([cols, rows]) = m.grid {
            check(
                cols >= 1 && rows >= 1 && (cols as usize) * (rows as usize) == stations.len(),
                || p("grid"),
                || format!("{cols} x {rows} cells for {} stations", stations.len()),
            )?;
        }
        let supervisors = match (m.supervisor_cells, m.grid) {
            (None, _) => None,
            (Some(_), None) => return Err(ScenarioError::new(p("supervisor_cells"), "needs a grid")),
            (Some([c, r]), Some([cols, rows])) => {
                check(
                    c >= 1 && r >= 1 && cols % c == 0 && rows % r == 0,
                    || p("supervisor_cells"),
                    || format!("blocks of {c} x {r} cells do not tile the {cols} x {rows} grid"),
                )?;
                // Block (column, row) of cell s, numbered row by row.
                let per_row = cols / c;
                Some((0..cols * rows).map(|s| (s / cols) / r * per_row + (s % cols) / c).collect())
            }
        };
        // Listed handoffs, from the table or from the trace: (time, station,
        // where it was given).
        let listed: Vec<(f64, &str, ListedAt)> = match &m.trace {
            Some(text) => {
                check(m.handoffs.is_empty(), || p("trace"), "give listed handoffs or a trace, not both")?;
                trace_lines(text, MAX_HANDOFFS).map_err(|reason| ScenarioError::new(p("trace"), reason))?
            }
            None => m.handoffs.iter().enumerate().map(|(k, h)| (h.at_s, h.to.as_str(), ListedAt::Handoff(k))).collect(),
        };
        let schedule = match (listed.is_empty() && m.trace.is_none(), m.every_s, m.residence_mean_s) {
            (false, None, None) => {
                check(m.start_s.is_none(), || p("start_s"), "starts periodic handoffs (every_s)")?;
                check(m.grid.is_none(), || p("grid"), "listed handoffs name their stations")?;
                check(listed.len() <= MAX_HANDOFFS, || p("handoffs"), "too many handoffs")?;
                let mut v = Vec::with_capacity(listed.len());
                for &(at_s, to, given) in &listed {
                    non_negative(at_s, || p(&given.field("at_s")))?;
                    duration_s(at_s, || p(&given.field("at_s")))?;
                    let to = station_of(to, &given.field("to"))?;
                    v.push((Time::from_secs_f64(at_s), to));
                }
                HandoffSchedule::Listed(v)
            }
            (true, Some(every), None) => {
                positive(every, || p("every_s"))?;
                duration_s(every, || p("every_s"))?;
                let start = m.start_s.unwrap_or(every);
                non_negative(start, || p("start_s"))?;
                duration_s(start, || p("start_s"))?;
                let every = Time::from_secs_f64(every);
                check(
                    (stop.ns() / every.ns().max(1)) as usize <= MAX_HANDOFFS,
                    || p("every_s"),
                    || format!("too many handoffs (at most {MAX_HANDOFFS})"),
                )?;
                HandoffSchedule::Periodic { start: Time::from_secs_f64(start), every }
            }
            (true, None, Some(mean)) => {
                positive(mean, || p("residence_mean_s"))?;
                duration_s(mean, || p("residence_mean_s"))?;
                check(m.start_s.is_none(), || p("start_s"), "starts periodic handoffs (every_s)")?;
                HandoffSchedule::Exponential { mean: Time::from_secs_f64(mean) }
            }
            _ => return Err(ScenarioError::new(
                format!("mobility[{i}]"),
                "give one schedule: handoffs (listed) or a trace, every_s (periodic) or residence_mean_s (exponential)",
            )),
        };
        models.push(MobilityModel {
            mobile,
            stations,
            initial,
            semantics: m.semantics,
            latency: Time::from_secs_f64(m.latency_s),
            beacon,
            register: Vec::new(),
            schedule,
            listed_at: listed.iter().map(|&(_, _, given)| given).collect(),
            grid: m.grid,
            supervisors,
            conns: Vec::new(),
            splits: Vec::new(),
            transfer: Time::from_secs_f64(m.state_transfer_s.unwrap_or(STATE_TRANSFER_S)),
            transfer_bytes_per_s: m.state_transfer_bytes_per_s.unwrap_or(STATE_TRANSFER_BYTES_PER_S),
            overlap: Time::from_secs_f64(m.overlap_s.unwrap_or(0.0)),
            multicast,
            station_paths: Vec::new(),
            register_paths: Vec::new(),
            link_transfer,
        });
    }
    Ok(models)
}

/// A handoff trace's lines (`MobilitySpec::trace`): (time in s, station,
/// its line), at most `max` of them; the reason, naming the line, if one
/// is not a time and a name.
fn trace_lines(text: &str, max: usize) -> Result<Vec<(f64, &str, ListedAt)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(t), Some(to), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!("line {}: expected a time in seconds and a station's name, got '{line}'", n + 1));
        };
        let t: f64 = t.parse().map_err(|_| format!("line {}: '{t}' is not a time in seconds", n + 1))?;
        if out.len() == max {
            return Err(format!("too many handoffs (at most {max})"));
        }
        out.push((t, to, ListedAt::TraceLine(n + 1)));
    }
    Ok(out)
}

/// The links of the stations each mobile host is not attached to at the
/// start: routes are computed without them.
pub fn masked_links(models: &[MobilityModel], n_links: usize) -> Vec<bool> {
    let mut masked = vec![false; if models.is_empty() { 0 } else { n_links }];
    for m in models {
        for (k, s) in m.stations.iter().enumerate() {
            masked[s.link as usize] = k != m.initial;
        }
    }
    masked
}

/// The wired graph: every station link of every mobile host masked.
pub fn wired_router(n_nodes: usize, links: &[LinkModel], models: &[MobilityModel]) -> Router {
    let mut masked = vec![false; links.len()];
    for s in models.iter().flat_map(|m| &m.stations) {
        masked[s.link as usize] = true;
    }
    Router::without(n_nodes, links.iter().map(|l| l.ends), &masked)
}

/// Each entry's registration times: the round trip of propagation on the
/// wired path from the new station to the anchor (given, or by the
/// default rule of [`MobilitySpec::anchor`]).
///
/// [`MobilitySpec::anchor`]: crate::scenario::schema::MobilitySpec::anchor
pub fn registrations(
    specs: &[MobilitySpec],
    models: &mut [MobilityModel],
    node_index: &dyn Fn(&str) -> Option<NodeId>,
    links: &[LinkModel],
    wired: &mut Router,
) -> Result<(), ScenarioError> {
    let one_way =
        |path: &Path| path.iter().map(|h| links[h.link as usize].dirs[h.dir as usize].params.delay_ns).sum::<u64>();
    for (i, (spec, m)) in specs.iter().zip(models.iter_mut()).enumerate() {
        let n = m.stations.len();
        let anchor = spec.anchor.as_deref().and_then(node_index);
        let mut register = vec![Time::ZERO; n * n];
        let mut paths = if spec.registration == RegistrationSpec::Message { vec![None; n * n] } else { Vec::new() };
        for a in 0..n {
            for b in 0..n {
                if a == b {
                    continue;
                }
                let (na, nb) = (m.stations[a].node, m.stations[b].node);
                let to = match anchor {
                    Some(x) => x,
                    None => {
                        let path = wired.path(nb, na).ok_or_else(|| {
                            ScenarioError::new(
                                format!("mobility[{i}].stations"),
                                "the stations have no wired path between them (registration needs one)",
                            )
                        })?;
                        let is_station = |v: NodeId| m.stations.iter().any(|s| s.node == v);
                        path.iter().skip(1).map(|h| h.node).find(|&v| !is_station(v)).unwrap_or(na)
                    }
                };
                let (Some(there), Some(back)) = (wired.path(nb, to), wired.path(to, nb)) else {
                    return Err(ScenarioError::new(
                        format!("mobility[{i}].anchor"),
                        "no wired path from a station to the anchor",
                    ));
                };
                let ns: u64 = one_way(&there) + one_way(&back);
                register[a * n + b] = Time(ns);
                if spec.registration == RegistrationSpec::Message {
                    paths[a * n + b] = (!there.is_empty()).then_some([there, back]);
                }
            }
        }
        m.register = register;
        m.register_paths = paths;
    }
    Ok(())
}

/// Which handoffs a listed or periodic schedule makes too close together:
/// each must begin after the one before can complete.
pub fn check_spacing(models: &[MobilityModel]) -> Result<(), ScenarioError> {
    for (i, m) in models.iter().enumerate() {
        let worst = (0..m.stations.len())
            .flat_map(|a| (0..m.stations.len()).filter(move |&b| b != a).map(move |b| (a, b)))
            .map(|(a, b)| m.max_latency(a, b))
            .max()
            .unwrap_or(Time::ZERO);
        match &m.schedule {
            HandoffSchedule::Listed(v) => {
                let mut at = m.initial;
                let mut free = Time::ZERO;
                for (k, &(t, to)) in v.iter().enumerate() {
                    let field = |what: &str| format!("mobility[{i}].{}", m.listed_at[k].field(what));
                    check(
                        t >= free,
                        || field("at_s"),
                        || {
                            format!(
                                "begins at {} s, before the handoff before it can complete ({} s)",
                                t.as_secs_f64(),
                                free.as_secs_f64()
                            )
                        },
                    )?;
                    check(to != at, || field("to"), "the station the mobile host is attached to then")?;
                    free = t.plus_ns(m.max_latency(at, to).ns());
                    at = to;
                }
            }
            HandoffSchedule::Periodic { every, .. } => {
                check(
                    *every > worst,
                    || format!("mobility[{i}].every_s"),
                    || {
                        format!(
                            "must exceed the longest handoff ({} s): a handoff must complete before the next begins",
                            worst.as_secs_f64()
                        )
                    },
                )?;
            }
            HandoffSchedule::Exponential { .. } => {}
        }
    }
    Ok(())
}

/// I-TCP: the wired paths between every two stations of `m` (its state
/// transfer's messages), or the stations with none between them.
pub fn station_paths(m: &MobilityModel, i: usize, wired: &mut Router) -> Result<Vec<Option<[Path; 2]>>, ScenarioError> {
    let n = m.stations.len();
    let mut out = Vec::with_capacity(n * n);
    for a in 0..n {
        for b in 0..n {
            if a == b {
                out.push(None);
                continue;
            }
            let (na, nb) = (m.stations[a].node, m.stations[b].node);
            match (wired.path(na, nb), wired.path(nb, na)) {
                (Some(there), Some(back)) => out.push(Some([there, back])),
                _ => {
                    return Err(ScenarioError::new(
                        format!("mobility[{i}].stations[{b}]"),
                        format!("no wired path from stations[{a}] for the state transfer"),
                    ))
                }
            }
        }
    }
    Ok(out)
}

/// Where a connection's data paths from a mobile host's stations part: the
/// last node they all cross before the first station (the home agent's
/// place, for snoop's multicast handoff).
pub fn branching_node(alts: &[[Path; 2]]) -> NodeId {
    let first = &alts[0][0];
    let mut common = first.len();
    for [data, _] in &alts[1..] {
        common = common.min(first.iter().zip(data).take_while(|(a, b)| a.node == b.node).count());
    }
    // The sender's node at least: every path starts there.
    first[common.max(1) - 1].node
}

/// The paths of connection `c`, from `from` to `to`, with the mobile host
/// of `m` at one end, when it is attached to station `s`: the wired path to
/// or from the station and the station's link.
pub fn paths_from_station(
    m: &MobilityModel,
    s: usize,
    from: NodeId,
    to: NodeId,
    wired: &mut Router,
) -> Option<[Path; 2]> {
    let st = &m.stations[s];
    let down = Hop { node: st.node, link: st.link, dir: st.down_dir };
    let up = Hop { node: m.mobile, link: st.link, dir: 1 - st.down_dir };
    if to == m.mobile {
        let mut data = wired.path(from, st.node)?;
        data.push(down);
        let mut acks = vec![up];
        acks.extend(wired.path(st.node, from)?);
        Some([data, acks])
    } else {
        debug_assert_eq!(from, m.mobile);
        let mut data = vec![up];
        data.extend(wired.path(st.node, to)?);
        let mut acks = wired.path(to, st.node)?;
        acks.push(down);
        Some([data, acks])
    }
}

/// A split flow's wireless leg from station `s` of `m` to its mobile host:
/// the station's link, each way.
pub fn leg_paths(m: &MobilityModel, s: usize) -> [Path; 2] {
    let st = &m.stations[s];
    [
        vec![Hop { node: st.node, link: st.link, dir: st.down_dir }],
        vec![Hop { node: m.mobile, link: st.link, dir: 1 - st.down_dir }],
    ]
}

/// The mobility entry whose mobile host is `node`, if any.
pub fn mobile_entry(models: &[MobilityModel], node: NodeId) -> Option<usize> {
    models.iter().position(|m| m.mobile == node)
}
