//! Scheduled link outages, validated into time windows per link (seed
//! 002 Sec. 4 and Fig. 2; elaarag-002.md Secs. 2.2-2.3: `down`/`up` of a
//! link with explicit semantics, periodic outages).

use super::{bit_rate, check, duration_s, positive, FlowModel, LinkModel, MediumModel};
use crate::scenario::routes::Path;
use crate::scenario::schema::{ErrorChangeSpec, LinkDownSpec, OutageSpec, RateChangeSpec, RateDirection};
use crate::scenario::ScenarioError;
use lasthop_core::Time;
use lasthop_net::error::ErrorModelConfig;

/// Most outage windows a scenario may schedule (a periodic outage with a
/// short period over a long run is the way to get too many).
pub const MAX_OUTAGES: usize = 1_000_000;

/// One link's outages as given by one `outages` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct OutageModel {
    pub link: u32,
    pub semantics: LinkDownSpec,
    /// (down, up) times, in order, disjoint.
    pub windows: Vec<(Time, Time)>,
}

/// A scheduled change of a link direction's rate (`rate_changes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateChangeModel {
    pub at: Time,
    /// The link direction, 2 x link + direction (0: a to b).
    pub link_dir: u32,
    pub bandwidth_bps: u64,
}

/// A scheduled change of a link direction's error model (`error_changes`).
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorChangeModel {
    pub at: Time,
    /// The link direction, 2 x link + direction (0: a to b).
    pub link_dir: u32,
    /// The entry's index (its stream's name).
    pub entry: u32,
    /// The new model, its packet times resolved at the direction's rate.
    pub error: ErrorModelConfig,
}

/// The index of the point-to-point link named `name` that `what` (a kind of
/// change) applies to; `field` names the entry's link field in an error.
fn point_to_point_link(
    links: &[LinkModel],
    name: &str,
    field: impl Fn() -> String + Copy,
    what: &str,
) -> Result<usize, ScenarioError> {
    let li = links
        .iter()
        .position(|l| l.name == name)
        .ok_or_else(|| ScenarioError::new(field(), format!("no link named '{name}'")))?;
    check(links[li].dirs.iter().all(|d| d.medium.is_none()), field, || {
        format!("a medium's hop: {what} apply to point-to-point links")
    })?;
    Ok(li)
}

/// The scenario's rate changes, one per direction they touch, checked: a
/// point-to-point link named that is not an emulator's (whose rate is the
/// emulator's own), a time within the longest run, a rate of at least 1 b/s.
pub fn rate_changes(specs: &[RateChangeSpec], links: &[LinkModel]) -> Result<Vec<RateChangeModel>, ScenarioError> {
    check(specs.len() <= MAX_OUTAGES, "rate_changes", || {
        format!("too many rate changes: {} (at most {MAX_OUTAGES})", specs.len())
    })?;
    let mut out = Vec::with_capacity(specs.len());
    for (i, r) in specs.iter().enumerate() {
        let p = |f: &str| format!("rate_changes[{i}].{f}");
        let li = point_to_point_link(links, &r.link, || p("link"), "rate changes")?;
        check(
            links[li].dirs.iter().all(|d| d.emulation_tick_ns.is_none()),
            || p("link"),
            "an emulated link keeps its emulator's rate",
        )?;
        check(
            links[li].dirs.iter().all(|d| d.rate_trace.is_none()),
            || p("link"),
            "a link whose rate is a trace (rate_trace_ms) keeps the trace's rate",
        )?;
        duration_s(r.at_s, || p("at_s"))?;
        bit_rate(r.bandwidth_bps, || p("bandwidth_bps"))?;
        let at = Time::from_secs_f64(r.at_s);
        let bandwidth_bps = r.bandwidth_bps.round().max(1.0) as u64;
        out.extend(directions(r.direction).iter().map(|&d| RateChangeModel {
            at,
            link_dir: 2 * li as u32 + d,
            bandwidth_bps,
        }));
    }
    Ok(out)
}

/// The directions of a link a change names.
fn directions(d: RateDirection) -> &'static [u32] {
    match d {
        RateDirection::Both => &[0, 1],
        RateDirection::Ab => &[0],
        RateDirection::Ba => &[1],
    }
}

/// The scenario's error-model changes, one per direction they touch,
/// checked: a point-to-point link named, a time within the longest run, a
/// valid model (as a link's `error`).
pub fn error_changes(specs: &[ErrorChangeSpec], links: &[LinkModel]) -> Result<Vec<ErrorChangeModel>, ScenarioError> {
    check(specs.len() <= MAX_OUTAGES, "error_changes", || {
        format!("too many error-model changes: {} (at most {MAX_OUTAGES})", specs.len())
    })?;
    let mut out = Vec::with_capacity(specs.len());
    for (i, e) in specs.iter().enumerate() {
        let p = |f: &str| format!("error_changes[{i}].{f}");
        let li = point_to_point_link(links, &e.link, || p("link"), "error-model changes")?;
        duration_s(e.at_s, || p("at_s"))?;
        e.error.validate().map_err(|(field, reason)| ScenarioError::new(p(&format!("error.{field}")), reason))?;
        let at = Time::from_secs_f64(e.at_s);
        for &d in directions(e.direction) {
            let params = &links[li].dirs[d as usize].params;
            let error = e.error.resolve_packet_times(|size| params.tx_time_ns(size));
            out.push(ErrorChangeModel { at, link_dir: 2 * li as u32 + d, entry: i as u32, error });
        }
    }
    Ok(out)
}

/// The scenario's outages, one model per entry, checked: a point-to-point
/// link named, or one whose directions a circuit among `media` carries (its
/// channel is cut, `lasthop_net::mac::circuit`),
/// positive durations, starts listed or periodic (not both), and no two
/// outages of one link overlapping (they may touch: up and down at one
/// instant).
pub fn outages(
    specs: &[OutageSpec],
    links: &[LinkModel],
    media: &[MediumModel],
    stop: Time,
) -> Result<Vec<OutageModel>, ScenarioError> {
    let mut models = Vec::with_capacity(specs.len());
    let mut total = 0usize;
    for (i, o) in specs.iter().enumerate() {
        let p = |f: &str| format!("outages[{i}].{f}");
        let li = match links.iter().position(|l| l.name == o.link) {
            Some(li) if links[li].carried_by_circuit(media) => li,
            Some(li) if links[li].dirs.iter().any(|d| d.medium.is_some()) => {
                return Err(ScenarioError::new(
                    p("link"),
                    "a shared medium's hop: outages apply to point-to-point links and to links a circuit (rlp, airmail) carries",
                ))
            }
            _ => point_to_point_link(links, &o.link, || p("link"), "outages")?,
        };
        positive(o.down_s, || p("down_s"))?;
        duration_s(o.down_s, || p("down_s"))?;
        let down_ns = Time::from_secs_f64(o.down_s).ns();
        let starts: Vec<Time> = match (o.at_s.is_empty(), o.start_s, o.every_s) {
            (false, None, None) => {
                for (k, &t) in o.at_s.iter().enumerate() {
                    duration_s(t, || p(&format!("at_s[{k}]")))?;
                }
                check(o.count.is_none(), || p("count"), "counts periodic outages (start_s, every_s)")?;
                let mut v: Vec<Time> = o.at_s.iter().map(|&t| Time::from_secs_f64(t)).collect();
                v.sort_unstable();
                v
            }
            (true, Some(start), Some(every)) => {
                duration_s(start, || p("start_s"))?;
                positive(every, || p("every_s"))?;
                duration_s(every, || p("every_s"))?;
                check(
                    every > o.down_s,
                    || p("every_s"),
                    || format!("must exceed down_s ({}): outages of one link must not overlap", o.down_s),
                )?;
                check(o.count != Some(0), || p("count"), "must be at least 1")?;
                let (first, every_ns) = (Time::from_secs_f64(start), Time::from_secs_f64(every).ns());
                let limit = o.count.map_or(MAX_OUTAGES, |c| c as usize);
                let mut v = Vec::new();
                let mut t = first;
                while v.len() < limit && (o.count.is_some() || t < stop) {
                    check(
                        total + v.len() < MAX_OUTAGES,
                        || p("every_s"),
                        || format!("too many outages (at most {MAX_OUTAGES})"),
                    )?;
                    v.push(t);
                    t = t.plus_ns(every_ns);
                }
                v
            }
            _ => {
                return Err(ScenarioError::new(
                    format!("outages[{i}]"),
                    "give the starts as at_s, or start_s with every_s (periodic), not both",
                ))
            }
        };
        total += starts.len();
        check(total <= MAX_OUTAGES, || p("at_s"), || format!("too many outages (at most {MAX_OUTAGES})"))?;
        let windows: Vec<(Time, Time)> = starts.iter().map(|&t| (t, t.plus_ns(down_ns))).collect();
        models.push(OutageModel { link: li as u32, semantics: o.semantics, windows });
    }
    // No two outages of one link overlap, within an entry or across entries.
    let mut all: Vec<(u32, Time, Time, usize)> =
        models.iter().enumerate().flat_map(|(i, m)| m.windows.iter().map(move |&(d, u)| (m.link, d, u, i))).collect();
    all.sort_unstable_by_key(|&(l, d, u, i)| (l, d, u, i));
    for w in all.windows(2) {
        let ((l0, d0, u0, i0), (l1, d1, _, i1)) = (w[0], w[1]);
        if l0 == l1 && d1 < u0 {
            let (first, second) = (i0.min(i1), i0.max(i1));
            return Err(ScenarioError::new(
                format!("outages[{second}]"),
                format!(
                    "an outage of link '{}' at {} s overlaps another at {} s (outages[{first}])",
                    links[l0 as usize].name,
                    d1.as_secs_f64(),
                    d0.as_secs_f64()
                ),
            ));
        }
    }
    Ok(models)
}

/// Freeze-TCP predicts outages on a flow's path, or a mobile host's
/// handoffs: a flow asking for it must have one to predict. `expanded[i]`:
/// the first model flow of the file's flow `i` and its copies; `paths`:
/// each connection's data and ack paths; `mobile(f)`: whether flow `f` has
/// an end at a mobile host.
pub fn check_freeze(
    flows: &[FlowModel],
    expanded: &[(u32, u32)],
    paths: &[[Path; 2]],
    outages: &[OutageModel],
    mobile: &dyn Fn(usize) -> bool,
) -> Result<(), ScenarioError> {
    for (i, &(first, _)) in expanded.iter().enumerate() {
        let fi = first as usize;
        if flows[fi].freeze_warning.is_none() {
            continue;
        }
        check(
            !outages_on(fi, paths, outages).is_empty() || mobile(fi),
            || format!("flows[{i}].tcp.freeze"),
            || {
                "no outage on the flow's path to predict (Freeze-TCP needs one: [[outages]] on one of its links, \
                 or a mobile host's handoffs)"
                    .to_string()
            },
        )?;
    }
    Ok(())
}

/// Fast-retransmit handoff acts at a flow's mobile end when a handoff
/// completes, or at the end of the flow next to a link with outages when
/// that link comes back (a reconnection: [`frho_end`]): a flow asking for
/// it must have one.
pub fn check_frho(
    flows: &[FlowModel],
    expanded: &[(u32, u32)],
    paths: &[[Path; 2]],
    outages: &[OutageModel],
    links: &[LinkModel],
    mobile: &dyn Fn(usize) -> bool,
) -> Result<(), ScenarioError> {
    for (i, &(first, _)) in expanded.iter().enumerate() {
        let fi = first as usize;
        if !flows[fi].frho || mobile(fi) {
            continue;
        }
        check(
            outages.iter().any(|o| frho_end(&flows[fi], &paths[fi], o, links).is_some()),
            || format!("flows[{i}].tcp.frho"),
            "neither end of the flow is a mobile host ([[mobility]]) or an end of a link with outages on its path",
        )?;
    }
    Ok(())
}

/// Where fast-retransmit handoff acts when outage `o`'s link comes back,
/// for a flow with paths `paths`: at the receiver (`Some(true)`) if the
/// link is on the paths and joins the receiving host, at the sender
/// (`Some(false)`) if it joins the sending host; `None` otherwise.
pub fn frho_end(f: &FlowModel, paths: &[Path; 2], o: &OutageModel, links: &[LinkModel]) -> Option<bool> {
    let on_path = paths.iter().any(|p| p.iter().any(|h| h.link == o.link));
    let ends = links[o.link as usize].ends;
    match (on_path, ends.contains(&f.to), ends.contains(&f.from)) {
        (true, true, _) => Some(true),
        (true, false, true) => Some(false),
        _ => None,
    }
}

/// The outage windows on connection `c`'s data or ack path, in time order.
pub fn outages_on(c: usize, paths: &[[Path; 2]], outages: &[OutageModel]) -> Vec<(Time, Time)> {
    let on_path = |link: u32| paths[c].iter().any(|p| p.iter().any(|h| h.link == link));
    let mut w: Vec<(Time, Time)> =
        outages.iter().filter(|o| on_path(o.link)).flat_map(|o| o.windows.iter().copied()).collect();
    w.sort_unstable();
    w
}
