"""The papers' figures and a report drawn from stored runs (``lasthop plot`` and
``lasthop report``): the bridge from the results store (:mod:`lasthop.store`) to the
plotting functions (:mod:`lasthop.plots`) and the HTML report (:mod:`lasthop.report`).

Stored runs carry their swept parameters as columns (``scheme``, ``socket_buffer_bytes``,
``error_every_bytes``, any grid path). A figure picks its series by those columns:

- ``throughput``: bars of the mean throughput over seeds with their 95% intervals
  (Student's t, as the reproductions compute them), one per value of ``by``, grouped
  by ``group`` (Figs. 3, 6, 9); each bar labelled with its percentage of the error-free
  maximum, taken from stored runs of the selection with ``error_every_bytes = 0`` when
  there are any, or else from ``peak_mbps``, or else the best bar (said in the title);
- ``error-rate``: mean throughput against ``x`` (default ``error_every_bytes``) on a log
  axis, one line per value of ``by`` (Fig. 12);
- ``cwnd`` and ``sequence``: the congestion window and the time-sequence graph with fast
  retransmit and timeout marks (Figs. 4, 5, 7, 8, 10, 11) of one run per value of
  ``by`` (the lowest stored seed with time series, or ``seed``), of its first flow or of
  the flow named ``flow``; a panel per run, :data:`lasthop.plots.PANELS_PER_PAGE` to a
  figure, further runs on further figures (pages): none is left out.

A run of several flows is drawn as the sum over its flows unless ``flow`` (one flow, by
name) or ``aggregate`` (``mean``, or ``jain``: bars of Jain's fairness index) says
otherwise; the title says which. A grid dimension (or, with a pattern of flows, the
flow) that neither ``by`` nor ``group`` (nor ``x``) names and that varies within a bar or
point is refused with one line naming it, never averaged with the seeds.

Titles, axis labels, legends and captions name what the user's plan and scenario name:
the swept parameters (``by``, ``group``, ``x``) by their names and values as the plan
spells them, the scenario and the plan. None claims to be a figure of a paper: that is for
the reproductions (:mod:`lasthop.papers.balakrishnan97.report` draws the 1997 paper's
figures with its labels). The report's goodput columns are those of the runs' own links,
one per link direction that carries data.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pandas as pd
from matplotlib.figure import Figure

from lasthop import plots, report, store
from lasthop.columns import param_columns
from lasthop.errors import StoreError
from lasthop.reproduction.compare import ci95

KINDS: Final = ("throughput", "error-rate", "cwnd", "sequence")
"""What ``lasthop plot`` draws."""

GOODPUT_PREFIX: Final = "goodput:"
"""The stored runs' goodput columns: ``goodput:<link>:<from->to>``, one per direction."""

STORED_CELLS: Final = "stored runs"
"""The ``table`` of the report's cells of stored runs."""


def select(
    path: str | os.PathLike[str] | None,
    plan: str | None = None,
    where: Mapping[str, Any] | None = None,
    flow: str | None = None,
    aggregate: str | None = None,
) -> pd.DataFrame:
    """The ok runs of the selection; ``StoreError`` if there are none. Without ``plan``,
    a run that several plans asked for is a row of each (with that plan's parameters), so
    that every plan's bars are whole. ``flow`` and ``aggregate`` pick the numbers of a
    run of several flows (:func:`lasthop.store.load_results`; the sum by default)."""
    frame = store.load_results(
        path, plan=plan, status="ok", where=where, each_plan=True, flow=flow, aggregate=aggregate
    )
    if frame.empty:
        raise StoreError("selection: no stored ok runs match (see `lasthop results`)")
    return frame


def _choose(frame: pd.DataFrame, column: str | None, role: str) -> str | None:
    params = param_columns(frame)
    if column is None:
        return None
    if column not in frame.columns:
        raise StoreError(f"{role}: no column {column!r} (parameters: {', '.join(params)})")
    return column


def _default_by(frame: pd.DataFrame) -> str:
    params = param_columns(frame)
    varying = [p for p in params if frame[p].dropna().astype(str).nunique() > 1]
    if "scheme" in varying or (not varying and "scheme" in params):
        return "scheme"
    if varying:
        return varying[0]
    return "plan"


def _order(value: Any) -> tuple[int, float, str]:
    if _missing(value):
        return (2, 0.0, "")
    try:
        return (0, float(value), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(value))


def _missing(value: Any) -> bool:
    """A parameter a run's plan does not sweep (its column is empty in that plan's rows)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _text(value: Any) -> str:
    if _missing(value):
        return "not swept"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _subject(frame: pd.DataFrame) -> str:
    """What the selection ran, for titles: its scenarios and its plans, as named."""
    scenarios = ", ".join(dict.fromkeys(str(s) for s in frame["scenario"]))
    plans = [str(p) for p in dict.fromkeys(frame["plan"]) if not _missing(p)]
    if not plans:
        return scenarios
    return f"{scenarios}, plan{'s' if len(plans) > 1 else ''} {', '.join(plans)}"


def _setting_axis(frame: pd.DataFrame, by: str, group: str | None) -> str:
    """What a bar group (a setting of :func:`_bars`) is, by the parameters' names."""
    per_plan = _several_plans(frame) and "plan" not in (by, group)
    return ", ".join(k for k in ("plan" if per_plan else None, group) if k) or "plan"


def _several_plans(frame: pd.DataFrame) -> bool:
    """Whether the selection spans plans: their grids may differ (a parameter one plan
    sweeps has no value in another's rows), so their runs are never averaged together."""
    return bool(frame["plan"].nunique(dropna=False) > 1)


@dataclass(frozen=True)
class _Bar:
    """One bar: the runs of one value of ``by`` in one setting (bar group)."""

    setting: str
    plan: Any
    group_value: Any
    value: Any
    rows: pd.DataFrame


def _bars(frame: pd.DataFrame, by: str, group: str | None) -> list[_Bar]:
    """The bars of ``frame``: a setting per value of ``group`` (numeric order when the
    values are numbers) and, when the selection spans plans, per plan (in stored order),
    named ``plan, value``; a bar per ``by`` value in stored order within each."""
    per_plan = _several_plans(frame) and "plan" not in (by, group)
    keys = list(dict.fromkeys(k for k in ("plan" if per_plan else None, group, by) if k))
    plan_order = {p: i for i, p in enumerate(dict.fromkeys(frame["plan"]))}
    bars = []
    for values, rows in frame.groupby(keys, sort=False, dropna=False):
        named = dict(zip(keys, values if isinstance(values, tuple) else (values,), strict=True))
        plan = rows["plan"].iloc[0]
        parts = [str(plan)] if per_plan else []
        if group and not (per_plan and _missing(named[group])):
            parts.append(_text(named[group]))
        setting = ", ".join(parts) or str(plan)
        bars.append(_Bar(setting, plan, named.get(group) if group else None, named[by], rows))
    bars.sort(
        key=lambda b: (
            plan_order.get(b.plan, 0) if per_plan else 0,
            _order(b.group_value) if group else (0, 0.0, ""),
        )
    )
    return bars


def _averaged_apart(bars: Sequence[_Bar], frame: pd.DataFrame, by: str, used: str) -> None:
    """``StoreError`` naming the dimensions (grid parameters, or ``flow`` with a pattern
    of flows) that vary within a bar or point: they would be averaged with the seeds
    (issue 29 item 5). One line; the figure is not drawn."""
    dims = [d for d in (*param_columns(frame), "flow") if d in frame.columns]
    varying: dict[str, list[str]] = {}
    for bar in bars:
        for d in dims:
            values = list(dict.fromkeys(_text(v) for v in bar.rows[d]))
            if len(values) > 1:
                seen = varying.setdefault(d, [])
                seen += [v for v in values if v not in seen]
    if varying:
        named = "; ".join(f"{d} ({', '.join(v[:4])}{', ...' if len(v) > 4 else ''})"
                          for d, v in varying.items())  # fmt: skip
        first = next(iter(varying))
        raise StoreError(
            f"--by {by}: the selection also varies {named}, which {used} would average: "
            f"add --group {first} or keep one value with --where {first}=VALUE"
        )


def cells(frame: pd.DataFrame, by: str, group: str | None) -> list[dict[str, Any]]:
    """Mean over seeds per bar (see :func:`_bars`), as the report's cells."""
    return [_cell(bar) for bar in _bars(frame, by, group)]


def _metric(frame: pd.DataFrame) -> str:
    """The column a figure draws: Jain's index with ``aggregate="jain"``, else
    throughput."""
    jain = "aggregate" in frame.columns and (frame["aggregate"] == "jain").any()
    return "jain_index" if jain else "throughput_mbps"


def _cell(bar: _Bar, metric: str = "throughput_mbps") -> dict[str, Any]:
    values = [float(v) for v in bar.rows[metric] if not _missing(v)]
    mean, half = ci95(values) if values else (math.nan, 0.0)
    return {
        "table": STORED_CELLS,
        "setting": bar.setting,
        "scheme": _text(bar.value),
        "throughput_mbps": round(mean, 4),
        # The 95% interval of the mean over seeds, as the reproductions give it.
        "ci95": {"throughput_mbps": round(half, 4)} if len(values) > 1 else None,
        "published": None,
        "ratio": None,
        "goodput_pct": _goodputs(bar.rows),
        "runs": len(bar.rows),
    }


def _goodputs(rows: pd.DataFrame) -> dict[str, float | None]:
    """The mean goodput (%) of each link direction of the stored runs, named ``link
    from->to`` (the runs' own links, whatever the scenario calls them), in the store's
    order; ``None`` where one of ``rows`` has none (its direction carried no data)."""
    return {
        str(column).removeprefix(GOODPUT_PREFIX).replace(":", " ", 1): _pct(rows, str(column))
        for column in rows.columns
        if str(column).startswith(GOODPUT_PREFIX)
    }


def _error_free(frame: pd.DataFrame) -> pd.Series:
    """The rows of runs with no random errors (``error_every_bytes = 0``)."""
    if "error_every_bytes" not in frame.columns:
        return pd.Series(False, index=frame.index)
    return pd.to_numeric(frame["error_every_bytes"], errors="coerce") == 0


def _lossy(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows but the error-free ones (the bars; those give the maxima), or all of them
    if every row is error-free. A plan that does not sweep the error rate is kept."""
    error_free = _error_free(frame)
    return frame[~error_free] if (~error_free).any() else frame


def _pct(rows: pd.DataFrame, column: str) -> float | None:
    if column not in rows.columns or rows[column].isna().any():
        return None
    return round(100.0 * float(rows[column].mean()), 2)


def throughput_figure(
    frame: pd.DataFrame,
    by: str | None = None,
    group: str | None = None,
    peak_mbps: float | None = None,
) -> Figure:
    """Figs. 3/6/9 from stored runs (see the module doc for the maximum)."""
    auto = by is None and group is None
    by = _choose(frame, by, "--by") or _default_by(frame)
    group = _choose(frame, group, "--group") or _default_group(frame, by, auto)
    lossy = _lossy(frame)
    bars = _bars(lossy, by, group)
    _averaged_apart(bars, lossy, by, "a bar")
    metric = _metric(frame)
    rows = [_cell(bar, metric) for bar in bars]
    if metric == "jain_index":
        # Fairness has one maximum, 1 (equal shares): bars are labelled with their share.
        return plots.throughput_bars(
            rows,
            {bar.setting: 1.0 for bar in bars},
            title=f"Fairness per {by}: {_subject(frame)}",
            xlabel=f"{_setting_axis(lossy, by, group)}; bar labels: % of equal shares",
            legend_title=by,
            scheme_label=str,
            setting_label=str,
            value_label="Jain's fairness index",
            unit="",
            peak_label="equal-share maximum (1)",
        )
    base = frame[_error_free(frame)]
    per_plan = _several_plans(lossy) and "plan" not in (by, group)  # as _bars decides
    peaks: dict[str, float] = {}
    best: set[str] = set()  # the settings with no error-free run and no peak_mbps
    for bar in bars:
        if bar.setting in peaks:
            continue
        # The error-free runs of the bar's plan and group value (all error rates share one).
        mine = base[base["plan"] == bar.plan] if per_plan else base
        if group and group != "error_every_bytes" and not mine.empty:
            mine = mine[mine[group].map(_text) == _text(bar.group_value)]
        if not mine.empty:
            peaks[bar.setting] = float(mine["throughput_mbps"].mean())
        elif peak_mbps is not None:
            peaks[bar.setting] = peak_mbps
        else:
            peaks[bar.setting] = max(
                c["throughput_mbps"] for c in rows if c["setting"] == bar.setting
            )
            best.add(bar.setting)
    if not best:
        labels, line = "% of the error-free maximum", "error-free maximum"
    elif best == set(peaks):
        labels, line = "% of the best bar; no error-free run", "best bar"
    else:
        labels = "% of the error-free maximum, or of the best bar where none ran"
        line = "error-free maximum, or best bar"
    what = _what(frame)
    return plots.throughput_bars(
        rows,
        peaks,
        title=f"Mean throughput per {by}: {_subject(frame)}",
        xlabel=f"{_setting_axis(lossy, by, group)}; bar labels: {labels}",
        legend_title=by,
        scheme_label=str,
        setting_label=str,
        peak_label=line,
        # What a bar is of, when runs have several flows: the sum, a mean, one flow.
        value_label=f"throughput, {what} (Mb/s)" if what else "throughput (Mb/s)",
    )


def _what(frame: pd.DataFrame) -> str | None:
    """What a figure's numbers are of when a run has several flows: ``flow bulk#3``,
    ``sum of 10 flows``; ``None`` when every run is of one flow."""
    if "flow_index" in frame.columns:
        names = list(dict.fromkeys(str(v) for v in frame["flow"].dropna()))
        return f"flow {names[0]}" if len(names) == 1 else f"flows {', '.join(names[:3])}, ..."
    if "flows" not in frame.columns or not (frame["flows"].fillna(1) > 1).any():
        return None
    labels = list(dict.fromkeys(str(v) for v in frame["flow"].dropna()))
    return ", ".join(labels[:3]) + (", ..." if len(labels) > 3 else "")


def error_rate_figure(frame: pd.DataFrame, by: str | None = None, x: str | None = None) -> Figure:
    """Fig. 12 from stored runs: every run is a point; seeds are averaged by the plot."""
    by = _choose(frame, by, "--by") or _default_by(frame)
    x = _choose(frame, x or "error_every_bytes", "--x") or "error_every_bytes"
    values = pd.to_numeric(frame[x], errors="coerce")
    usable = frame[values > 0]
    if usable.empty:
        raise StoreError(f"--x: {x} has no positive numeric values in the selection")
    # Each point averages the seeds of one (plan, by, x): nothing else may vary in it.
    points_of = [
        _Bar("", None, None, None, rows)
        for _, rows in usable.groupby(["plan", by, x], sort=False, dropna=False)
    ]
    _averaged_apart(points_of, usable, by, "a point")
    # A line per value of `by`, and per plan when the points span plans.
    labels = usable[by].map(_text)
    if _several_plans(usable) and by != "plan":
        labels = labels + " (" + usable["plan"].astype(str) + ")"
    points = [
        {"scheme": label, "error_every_bytes": float(e), "throughput_mbps": float(t)}
        for label, e, t in zip(
            labels, pd.to_numeric(usable[x]), usable["throughput_mbps"], strict=True
        )
    ]
    paper_x = x == "error_every_bytes"  # the error rate: one bit error every N KB
    return plots.throughput_vs_error_rate(
        points,
        x="error_every_kb" if paper_x else "value",
        title=f"Mean throughput against {x}: {_subject(usable)}",
        scheme_label=str,
        xlabel=f"{x} / 1024, KB (log scale)" if paper_x else f"{x} (log scale)",
        legend_title=by,
    )


def _trace_runs(
    frame: pd.DataFrame, by: str, seed: int | None
) -> list[tuple[str, tuple[str, int, str]]]:
    with_series = frame[frame["series_batch"].notna()]
    if seed is not None:
        with_series = with_series[with_series["seed"] == seed]
    per_plan = _several_plans(with_series) and by != "plan"
    chosen: list[tuple[str, tuple[str, int, str]]] = []
    # Each plan's runs on their own: the error rate shown is the plan's own.
    subsets: list[tuple[Any, pd.DataFrame]] = (
        list(with_series.groupby("plan", sort=False, dropna=False))
        if per_plan
        else [(None, with_series)]
    )
    for plan, runs in subsets:
        rate = _trace_error_rate(runs)
        if rate is not None:
            runs = runs[pd.to_numeric(runs["error_every_bytes"], errors="coerce") == rate]
        for value, rows in runs.groupby(by, sort=False, dropna=False):
            first = rows.sort_values("seed").iloc[0]
            label = f"{by}={_text(value)}, seed {int(first['seed'])}"
            if per_plan:
                label = f"{str(plan)}: {label}"
            key = (str(first["scenario_hash"]), int(first["seed"]), str(first["version"]))
            chosen.append((label, key))
    if not chosen:
        raise StoreError(
            "selection: no stored run with time series (the plan's `series` keeps them)"
        )
    return chosen


def _trace_error_rate(frame: pd.DataFrame) -> float | None:
    """When the selection spans error rates, the traces show one: the middle of the lossy
    ones (64 KB of 16..256 KB, the rate of the paper's trace figures)."""
    if "error_every_bytes" not in frame.columns:
        return None
    numeric = pd.to_numeric(frame["error_every_bytes"], errors="coerce").dropna()
    rates = sorted({float(r) for r in numeric})
    lossy = [r for r in rates if r > 0]
    if len(rates) <= 1 or not lossy:
        return None
    return lossy[(len(lossy) - 1) // 2] if len(lossy) % 2 else lossy[len(lossy) // 2 - 1]


def _default_group(frame: pd.DataFrame, by: str, auto: bool = False) -> str | None:
    """The group when none is asked for: bars of different error rates must not be
    averaged together, so the rate when the selection's lossy runs span several. With
    ``auto`` (lasthop chose ``by`` too: no ``--by`` and no ``--group``), else the one
    other grid parameter that varies, if exactly one does, so that a two-dimensional
    plan's plot and report need no options. Otherwise none: a figure whose bars would
    average a dimension refuses and names it (:func:`_averaged_apart`); who named
    ``--by`` names the rest."""
    if by != "error_every_bytes" and _several_error_rates(frame):
        return "error_every_bytes"
    if not auto:
        return None
    others = [
        c
        for c in param_columns(frame)
        if c not in (by, "error_every_bytes") and frame[c].map(_text).nunique() > 1
    ]
    return others[0] if len(others) == 1 else None


def _several_error_rates(frame: pd.DataFrame) -> bool:
    """The selection's lossy runs span several error rates (a throughput-against-rate
    figure is worth drawing)."""
    if "error_every_bytes" not in frame.columns:
        return False
    rates = pd.to_numeric(frame["error_every_bytes"], errors="coerce")
    return bool(rates[rates > 0].nunique() > 1)


def _labelled(
    table: str,
    path: str | os.PathLike[str] | None,
    runs: Sequence[tuple[str, Any]],
    flows: Mapping[str, int],
) -> dict[str, pd.DataFrame]:
    """Series ``table`` of each run, only the rows of its flow ``flows[label]``."""
    series = store.load_series(table, path, keys=[key for _, key in runs])
    out = {}
    for label, (h, s, v) in runs:
        mask = (series["scenario_hash"] == h) & (series["seed"] == s) & (series["version"] == v)
        if "flow" in series.columns:
            mask &= series["flow"] == flows[label]
        out[label] = series[mask].reset_index(drop=True)
    return out


def _flows(
    path: str | os.PathLike[str] | None, runs: Sequence[tuple[str, Any]], flow: str | None
) -> tuple[dict[str, int], str]:
    """Which flow of each run the trace figures show, as its index in the ``flow`` column
    of the series (its place in the scenario's flows): the one named ``flow``, else the
    first; and the names shown, for the title. ``StoreError`` names a run without it."""
    names = store.flow_names(path, [key for _, key in runs])
    chosen: dict[str, int] = {}
    shown: list[str] = []
    for label, key in runs:
        flows = names.get(key, [])
        if flow is None:
            chosen[label] = 0
            shown.append(flows[0] if flows else "0")
        elif flow in flows:
            chosen[label] = flows.index(flow)
            shown.append(flow)
        else:
            raise StoreError(
                f"--flow: no flow {flow!r} in the run {label} (its flows: "
                f"{', '.join(flows) or 'none'})"
            )
    return chosen, ", ".join(dict.fromkeys(shown))


def trace_figures(
    kind: str,
    frame: pd.DataFrame,
    path: str | os.PathLike[str] | None,
    by: str | None = None,
    seed: int | None = None,
    time_window_s: tuple[float, float] | None = None,
    flow: str | None = None,
) -> list[Figure]:
    """From stored series, ``kind`` ``cwnd`` (Figs. 4/8/11) or ``sequence`` (Figs.
    5/7/10, with fast retransmit and timeout marks) of one run per value of ``by``, of the
    flow named ``flow`` (default: each run's first): a panel per run, as pages of
    :data:`lasthop.plots.PANELS_PER_PAGE` panels (one figure each)."""
    by = _choose(frame, by, "--by") or _default_by(frame)
    runs = _trace_runs(frame, by, seed)
    flows, flow_text = _flows(path, runs, flow)
    what = "Congestion window" if kind == "cwnd" else "Sequence numbers sent"
    title = f"{what} against time, flow {flow_text}\n{_subject(frame)}"
    tables = ("window",) if kind == "cwnd" else ("sent", "events")
    series = {table: _labelled(table, path, runs, flows) for table in tables}
    labels = [label for label, _ in runs]
    return [
        _with_timeline(fig, path, [runs[i] for i in panels], time_window_s, panels.start)
        for panels, fig in _trace_pages(kind, labels, series, title, time_window_s, None)
    ]


def _trace_pages(
    kind: str,
    labels: Sequence[str],
    series: Mapping[str, Mapping[str, Any]],
    title: str,
    time_window_s: tuple[float, float] | None,
    flow: int | None,
) -> list[tuple[range, Figure]]:
    """``kind`` ``cwnd`` or ``sequence`` as pages of :data:`lasthop.plots.PANELS_PER_PAGE`
    panels, one panel per label, each page with the panels it holds. ``series`` maps the
    tables the kind draws (``window``; ``sent``, ``events`` and optionally
    ``local_rexmits``) to each label's table; ``flow``: the flow drawn (``None``: the
    tables hold one flow each)."""
    pages = plots.page_ranges(len(labels))
    out = []
    for number, panels in enumerate(pages, start=1):
        chunk = {name: {labels[i]: of[labels[i]] for i in panels} for name, of in series.items()}
        page_title = title if len(pages) == 1 else f"{title} (page {number} of {len(pages)})"
        if kind == "cwnd":
            fig = plots.cwnd_vs_time(
                chunk["window"],
                flow=flow,
                time_window_s=time_window_s,
                share_y=False,
                title=page_title,
                first_panel=panels.start,
            )
        else:
            fig = plots.time_sequence(
                chunk["sent"],
                chunk["events"],
                flow=flow,
                time_window_s=time_window_s,
                title=page_title,
                local_rexmits=chunk.get("local_rexmits"),
                first_panel=panels.start,
            )
        out.append((panels, fig))
    return out


def _with_timeline(
    fig: Figure,
    path: str | os.PathLike[str] | None,
    runs: Sequence[tuple[str, tuple[str, int, str]]],
    time_window_s: tuple[float, float] | None,
    first_panel: int,
) -> Figure:
    """``fig`` with the mobility timeline of its runs under it (seed 002: which base
    station serves each mobile host, when a link is down; :func:`lasthop.plots.add_timeline`),
    from their stored summaries: once when the runs share it, else a lane per run and
    mobile host or link, named by the run's panel letter (from ``first_panel``'s). Nothing
    for runs without."""
    summaries = store.run_summaries(path, [key for _, key in runs])
    per_run = [(label, plots.timeline_rows(summaries.get(key, {}))) for label, key in runs]
    if all(rows == per_run[0][1] for _, rows in per_run):
        return plots.add_timeline(fig, per_run[0][1], time_window_s)
    named = [
        (f"({plots.panel_letter(first_panel + i)}) {name}", segs)
        for i, (_, rows) in enumerate(per_run)
        for name, segs in rows
    ]
    return plots.add_timeline(fig, named, time_window_s)


def figure(
    kind: str,
    path: str | os.PathLike[str] | None,
    *,
    plan: str | None = None,
    where: Mapping[str, Any] | None = None,
    by: str | None = None,
    group: str | None = None,
    x: str | None = None,
    seed: int | None = None,
    peak_mbps: float | None = None,
    time_window_s: tuple[float, float] | None = None,
    flow: str | None = None,
    aggregate: str | None = None,
) -> list[Figure]:
    """The figure of ``kind`` (one of :data:`KINDS`) from the stored runs selected, as
    its pages: one figure, or for ``cwnd`` and ``sequence`` of more runs than a page
    holds, several (see :func:`trace_figures`). ``flow`` names the flow the trace kinds
    show; for the others ``flow`` or ``aggregate`` pick a run's numbers (the sum over its
    flows by default)."""
    if kind not in KINDS:
        raise StoreError(f"KIND: expected one of {', '.join(KINDS)}, got {kind!r}")
    frame = select(path, plan, where, flow, aggregate)
    if kind == "throughput":
        return [throughput_figure(frame, by, group, peak_mbps)]
    if kind == "error-rate":
        return [error_rate_figure(frame, by, x)]
    return trace_figures(kind, frame, path, by, seed, time_window_s, flow)


def live_figures(
    kind: str,
    reports: Sequence[str | os.PathLike[str]],
    *,
    time_window_s: tuple[float, float] | None = None,
    flow: int = 0,
) -> list[Figure]:
    """``kind`` ``cwnd`` or ``sequence`` of live runs (issue 33), one panel per report
    that ``lasthop live --format json --tables`` wrote, drawn as a simulated run's are:
    the window is the kernel's (``TCP_INFO`` samples), the segments those its host put on
    its interface, the local retransmissions the base station's agents'. Live runs have
    no sender events (the kernel's are not in its packets)."""
    from lasthop.live import read

    if kind not in ("cwnd", "sequence"):
        raise StoreError(f"--live: draws cwnd or sequence, not {kind}")
    runs = []
    for path in reports:
        try:
            runs.append(read(path))
        except (OSError, ValueError) as e:
            raise StoreError(f"--live: {path}: {e}") from None
    labels = [f"{r.scenario} live {r.run}" for r in runs]
    what = "Congestion window (the kernel's)" if kind == "cwnd" else "Sequence numbers sent"
    title = f"{what} against time, flow {flow}, live"
    names = ("window",) if kind == "cwnd" else ("sent", "events", "local_rexmits")
    series = {
        name: {label: r.table(name) for label, r in zip(labels, runs, strict=True)}
        for name in names
    }
    return [fig for _, fig in _trace_pages(kind, labels, series, title, time_window_s, flow)]


def stored_report(
    directory: str | os.PathLike[str],
    path: str | os.PathLike[str] | None,
    *,
    plan: str | None = None,
    where: Mapping[str, Any] | None = None,
    by: str | None = None,
    group: str | None = None,
) -> Path:
    """The HTML report of the stored runs selected: the mean of each grid point, the
    throughput bars, throughput against error rate when ``error_every_bytes`` varies, and
    the congestion window and time-sequence graph of one run per value of ``by`` (as
    pages of :data:`lasthop.plots.PANELS_PER_PAGE` runs)."""
    frame = select(path, plan, where)
    auto = by is None and group is None
    by = _choose(frame, by, "--by") or _default_by(frame)
    group = _choose(frame, group, "--group") or _default_group(frame, by, auto)
    subject = _subject(frame)
    figures = [
        report.ReportFigure(
            stem="throughput",
            figure=throughput_figure(frame, by, group),
            caption=f"Mean throughput over seeds, one bar per {by}: {subject}.",
            alt=f"Bar chart of mean throughput in Mb/s for each {by}.",
        )
    ]
    if _several_error_rates(frame):
        figures.append(
            report.ReportFigure(
                stem="error-rate",
                figure=error_rate_figure(frame, by),
                caption=f"Throughput against error_every_bytes, one line per {by}: {subject}.",
                alt="Line chart of throughput in Mb/s against one error every N KB, log axis.",
            )
        )
    if frame["series_batch"].notna().any():
        for kind, caption, alt in (
            (
                "cwnd",
                f"Congestion window and ssthresh of one run per {by}: {subject}.",
                "Congestion window in KB against time in seconds.",
            ),
            (
                "sequence",
                f"Time-sequence graph of one run per {by}: {subject}; top row: fast "
                "retransmissions, bottom row: coarse timeouts.",
                "Sequence number against time with retransmission and timeout marks.",
            ),
        ):
            pages = trace_figures(kind, frame, path, by)
            stems = plots.page_stems(kind, len(pages))
            for number, (fig, stem) in enumerate(zip(pages, stems, strict=True), start=1):
                of = f" Page {number} of {len(pages)}." if len(pages) > 1 else ""
                figures.append(
                    report.ReportFigure(stem=str(stem), figure=fig, caption=caption + of, alt=alt)
                )
    # A run two plans share is a row of each: counted once in all, and in each plan.
    per_plan = frame.groupby("plan", dropna=False).size()
    plans = ", ".join(f"{p} ({n} ok runs)" for p, n in per_plan.items() if not _missing(p))
    runs = len(frame.drop_duplicates(list(store.KEY_COLUMNS)))
    seeds = sorted({int(s) for s in frame["seed"]})
    provenance = [
        ("store", str(path or store.DEFAULT_STORE)),
        ("scenarios", ", ".join(dict.fromkeys(str(s) for s in frame["scenario"]))),
        ("plans", plans or "-"),
        ("runs", f"{runs} ok runs, seeds {seeds[0]}..{seeds[-1]}"),
        ("lasthop versions", ", ".join(sorted({str(v) for v in frame["version"]}))),
    ]
    lossy = _lossy(frame)
    return report.write_report(
        Path(directory),
        title=f"lasthop: stored runs{f' of plan {plan}' if plan else ''}",
        cells=cells(lossy, by, group),
        figures=figures,
        provenance=provenance,
        cell_tables={
            STORED_CELLS: report.CellTable(
                f"Mean over seeds per {by}: {subject}",
                name=str,
                setting=str,
                setting_header=_setting_axis(lossy, by, group),
                series_header=by,
                published=False,
            )
        },
    )


def parse_time_window(text: str | None) -> tuple[float, float] | None:
    """``"A:B"`` (seconds) as a pair; ``ValueError`` with the reason."""
    if text is None:
        return None
    start, sep, end = text.partition(":")
    try:
        window = (float(start), float(end))
    except ValueError:
        raise ValueError(f"expected START:END in seconds, got {text!r}") from None
    if not sep or not all(math.isfinite(v) for v in window) or not window[0] < window[1]:
        raise ValueError(f"expected START:END in seconds with START < END, got {text!r}")
    return window
