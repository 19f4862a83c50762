"""The figures of Yun 2009 (seed 004) for the HTML report, drawn from the reproduction's
cells as the paper drew them:

- Figs. 6 and 8: goodput against FER (log axis), downlink and uplink, one line per scheme
  with 95 % bars;
- Fig. 7: goodput against d_off (log axis) at 1 % FER;
- Figs. 9 and 10: aggregate goodput and Jain's index against the number of flows;
- Fig. 11: aggregate goodput against the number of flows with the Pareto background;
- Fig. 12: a remaining Reno flow's goodput against the number of flows replaced;
- Fig. 14: aggregate goodput against the number of flows, LL-ELSN with each sender;
- Fig. 15: ESACK's improvement over the LHP list against the number of flows;
- Fig. 13: goodput with and without ERSN, and the spurious timeouts, against FER;
- Fig. 16: the sending rate around the disconnection at 10 s, with and without ELN
  filtering;
- Fig. 17: goodput per retry limit against FER (log axis);
- Fig. 18: aggregate goodput of ten flows against p_bb, per retry limit;
- Fig. 3: the notification overhead R/r against p (Eqs. 2-4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from matplotlib.figure import Figure

from lasthop import plots
from lasthop.papers.yun09 import experiments as yun09
from lasthop.papers.yun09.experiments import fer_setting, scheme_name

if TYPE_CHECKING:
    from lasthop.report import ReportFigure

PAPER: Final = "Yun 2009"


def _by(cells: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, str], Mapping[str, Any]]:
    return {(str(c["table"]), str(c["setting"]), str(c["scheme"])): c for c in cells}


def _num(cell: Mapping[str, Any] | None, key: str) -> float:
    value = None if cell is None else cell.get(key)
    return float("nan") if value is None else float(value)


def _half(cell: Mapping[str, Any] | None, key: str) -> float:
    """The half width of the 95 % interval of the cell's ``key`` (the framework's
    ``ci95``; 0 without one)."""
    value = None if cell is None else (cell.get("ci95") or {}).get(key)
    return 0.0 if value is None else float(value)


def _goodput_line(
    ax: Any,
    by: Mapping[tuple[str, str, str], Mapping[str, Any]],
    xs: Sequence[float],
    keys: Sequence[tuple[str, str, str]],
    label: str,
) -> None:
    """The cells `keys` at `xs`: mean goodput with its 95 % bars."""
    ax.errorbar(
        list(xs),
        [_num(by.get(k), "throughput_mbps") for k in keys],
        yerr=[_half(by.get(k), "throughput_mbps") for k in keys],
        marker="o",
        capsize=3,
        label=label,
    )


def _fer_lines(
    ax: Any,
    by: Mapping[tuple[str, str, str], Mapping[str, Any]],
    table: str,
    fers: Sequence[float],
    schemes: Sequence[str],
    suffix: str = "",
    label_suffix: str = "",
) -> None:
    xs = [f * 100 for f in fers]
    for s in schemes:
        keys = [(table, fer_setting(f) + suffix, s) for f in fers]
        _goodput_line(ax, by, xs, keys, scheme_name(s) + label_suffix)
    ax.set_xscale("log")
    ax.set_xlabel("frame error rate (%)")
    ax.set_ylabel("goodput (Mb/s)")
    ax.set_ylim(bottom=0)
    ax.legend()


def _goodput_vs_fer(cells: Sequence[Mapping[str, Any]], table: str, title: str) -> Figure:
    with plots._style():
        fig = Figure(figsize=(7.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
        _fer_lines(ax, _by(cells), table, yun09.E1_FER, yun09.E1_SCHEMES)
        ax.set_title(title)
    return fig


def _sweep_lines(
    ax: Any,
    by: Mapping[tuple[str, str, str], Mapping[str, Any]],
    table: str,
    xs: Sequence[float],
    settings: Sequence[str],
    schemes: Sequence[str],
    key: str = "throughput_mbps",
) -> None:
    """One line per scheme over the sweep's settings, with 95 % bars."""
    for s in schemes:
        keys = [(table, setting, s) for setting in settings]
        ax.errorbar(
            list(xs),
            [_num(by.get(k), key) for k in keys],
            yerr=[_half(by.get(k), key) for k in keys],
            marker="o",
            capsize=3,
            label=scheme_name(s),
        )


def _e2(cells: Sequence[Mapping[str, Any]]) -> Figure:
    with plots._style():
        fig = Figure(figsize=(7.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
        settings = [yun09.d_off_setting(d) for d in yun09.E2_D_OFF_MS]
        _sweep_lines(ax, _by(cells), "y09-e2", yun09.E2_D_OFF_MS, settings, yun09.E1_SCHEMES)
        ax.set_xscale("log")
        ax.set_xlabel("d_off per wired link (ms)")
        ax.set_ylabel("goodput (Mb/s)")
        ax.set_ylim(bottom=0)
        ax.set_title("Downlink, one flow, 1 % FER")
        ax.legend(ncols=2, fontsize="small")
    return fig


def _flows_axes(
    cells: Sequence[Mapping[str, Any]],
    panels: Sequence[tuple[str, str, str, str]],
    schemes: Sequence[str],
) -> Figure:
    """Panels (table, key, y label, title) against the number of flows."""
    by = _by(cells)
    settings = [yun09.flows_setting(n) for n in yun09.E4_FLOWS]
    with plots._style():
        fig = Figure(figsize=(5.0 * len(panels), 4.0), layout="constrained")
        axes = fig.subplots(1, len(panels), squeeze=False)[0]
        for ax, (table, key, ylabel, title) in zip(axes, panels, strict=True):
            _sweep_lines(ax, by, table, yun09.E4_FLOWS, settings, schemes, key)
            ax.set_xlabel("connections n")
            ax.set_ylabel(ylabel)
            if key == "throughput_mbps":
                ax.set_ylim(bottom=0)
            ax.set_title(title)
            ax.legend(ncols=2, fontsize="small")
    return fig


def _e6(cells: Sequence[Mapping[str, Any]]) -> Figure:
    with plots._style():
        fig = Figure(figsize=(7.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
        settings = [yun09.replaced_setting(k) for k in yun09.E6_REPLACED]
        _sweep_lines(
            ax, _by(cells), "y09-e6", yun09.E6_REPLACED, settings, yun09.E6_VARIANTS, "reno_mbps"
        )
        ax.set_xlabel(f"connections replaced by the variant (of {yun09.E6_FLOWS})")
        ax.set_ylabel("goodput of a Reno connection (Mb/s)")
        ax.set_ylim(bottom=0)
        ax.set_title("Friendliness toward Reno, 0 % FER")
        ax.legend(ncols=2, fontsize="small")
    return fig


def _e9(cells: Sequence[Mapping[str, Any]]) -> Figure:
    by = _by(cells)
    ratios, halves = [], []
    for n in yun09.E4_FLOWS:
        esack = by.get(("y09-e9", yun09.flows_setting(n), "ll-elsn"))
        lhp = by.get(("y09-e9", yun09.flows_setting(n), "lhp"))
        e, el = _num(esack, "throughput_mbps"), _num(lhp, "throughput_mbps")
        ratio = e / el - 1 if el else float("nan")
        rel = (
            (_half(esack, "throughput_mbps") / e) ** 2 + (_half(lhp, "throughput_mbps") / el) ** 2
            if e and el
            else float("nan")
        )
        ratios.append(100 * ratio)
        halves.append(100 * (ratio + 1) * rel**0.5)
    with plots._style():
        fig = Figure(figsize=(7.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
        ax.errorbar(list(yun09.E4_FLOWS), ratios, yerr=halves, marker="o", capsize=3)
        ax.axhline(0, linestyle="--", color="grey")
        ax.set_xlabel("connections n (congestion level)")
        ax.set_ylabel("ESACK over the LHP list (%)")
        ax.set_title("Improvement of ESACK, 8 Mb/s Pareto background")
    return fig


def _e7(cells: Sequence[Mapping[str, Any]]) -> Figure:
    by = _by(cells)
    with plots._style():
        fig = Figure(figsize=(9.0, 4.0), layout="constrained")
        left, right = fig.subplots(1, 2)
        for mode in yun09.E7_MODES:
            _fer_lines(left, by, "y09-e7", yun09.E7_FER, yun09.E7_SCHEMES, f" {mode}", f", {mode}")
        left.set_title("goodput")
        xs = [f * 100 for f in yun09.E7_FER]
        for mode in yun09.E7_MODES:
            for s in yun09.E7_SCHEMES:
                keys = [("y09-e7", f"{fer_setting(f)} {mode}", s) for f in yun09.E7_FER]
                right.plot(
                    xs,
                    [_num(by.get(k), "spurious_timeouts") for k in keys],
                    marker="o",
                    label=f"{scheme_name(s)}, {mode}",
                )
        right.set_xscale("log")
        right.set_xlabel("frame error rate (%)")
        right.set_ylabel("spurious timeouts per run")
        right.set_ylim(bottom=0)
        right.set_title("spurious timeouts")
        right.legend()
    return fig


def _e10(cells: Sequence[Mapping[str, Any]]) -> Figure:
    by = _by(cells)
    with plots._style():
        fig = Figure(figsize=(7.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
        for s in yun09.E10_SCHEMES:
            series = list(by.get(("y09-e10", "rate", s), {}).get("rate_series_seg_s") or [])
            ts = [(i + 0.5) * yun09.E10_BIN_S for i in range(len(series))]
            ax.step(ts, series, where="mid", label=scheme_name(s))
        ax.axvline(yun09.E10_DISCONNECT_S, linestyle="--", color="grey")
        ax.set_xlabel("time (s)")
        ax.set_ylabel("segments sent per s")
        ax.set_ylim(bottom=0)
        ax.set_title("Sending rate around the disconnection")
        ax.legend()
    return fig


def _e11(cells: Sequence[Mapping[str, Any]]) -> Figure:
    by = _by(cells)
    with plots._style():
        fig = Figure(figsize=(10.0, 4.0), layout="constrained")
        axes = fig.subplots(1, len(yun09.E11_SCHEMES), sharey=True)
        for ax, s in zip(axes, yun09.E11_SCHEMES, strict=True):
            for limit in yun09.E11_RETRY_LIMITS:
                _fer_lines(ax, by, "y09-e11", yun09.E11_FER, (s,), f" l={limit}", f", l = {limit}")
            ax.set_title(scheme_name(s))
    return fig


def _e12(cells: Sequence[Mapping[str, Any]]) -> Figure:
    by = _by(cells)
    with plots._style():
        fig = Figure(figsize=(10.0, 4.0), layout="constrained")
        axes = fig.subplots(1, len(yun09.E12_SCHEMES), sharey=True)
        for ax, s in zip(axes, yun09.E12_SCHEMES, strict=True):
            for limit in yun09.E12_RETRY_LIMITS:
                keys = [("y09-e12", f"p_bb={p:g} l={limit}", s) for p in yun09.E12_PBB]
                _goodput_line(ax, by, yun09.E12_PBB, keys, f"l = {limit}")
            ax.set_xlabel("p_bb")
            ax.set_ylabel("aggregate goodput (Mb/s)")
            ax.set_ylim(bottom=0)
            ax.set_title(scheme_name(s))
            ax.legend()
    return fig


def _fig3(cells: Sequence[Mapping[str, Any]]) -> Figure:
    cell = _by(cells).get(("y09-e13", "fig3", "analysis"), {})
    ps = list(cell.get("p") or [])
    with plots._style():
        fig = Figure(figsize=(7.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
        for name, values in (cell.get("curves") or {}).items():
            ax.plot(ps, [float("nan") if v is None else 100 * v for v in values], label=name)
        ax.axhline(5, linestyle="--", color="grey")
        ax.set_xlabel("frame loss probability p")
        ax.set_ylabel("R / r (%)")
        ax.set_title("Notification overhead, L/P = 0.2")
        ax.legend(ncols=2)
    return fig


def figures(
    cells: Sequence[Mapping[str, Any]], seeds: int, quick: bool = False
) -> list[ReportFigure]:
    """The report's figures of the Yun 2009 cells that ran (``quick``: of 50 s runs)."""
    from lasthop.report import ReportFigure

    tables = {str(c["table"]) for c in cells}
    mean = f"mean of seeds 1..{seeds} with 95 % bars" if seeds > 1 else "seed 1"
    run = (
        f"--quick: {yun09.QUICK_RUN_S:g} s per run (the paper: {yun09.RUN_S:g} s)"
        if quick
        else f"{yun09.RUN_S:g} s per run, as the paper's"
    )
    out: list[ReportFigure] = []
    if "y09-e13" in tables:
        out.append(
            ReportFigure(
                "yun09-fig3-overhead",
                _fig3(cells),
                f"{PAPER} Fig. 3: ERSN and ELN overhead R/r against the frame loss "
                "probability, Eqs. 2-4, per retry limit (analysis).",
                "Line chart of R/r in percent against p, one line per message and retry "
                "limit, with a dashed line at 5 %.",
            )
        )
    for table, number, title in (
        ("y09-e1", 6, "Downlink, one flow"),
        ("y09-e3", 8, "Uplink, one flow"),
    ):
        if table in tables:
            out.append(
                ReportFigure(
                    f"yun09-fig{number}-goodput-vs-fer",
                    _goodput_vs_fer(cells, table, title),
                    f"{PAPER} Fig. {number}: goodput against the frame error rate "
                    f"(log axis), {title.lower()}, d_off = 10 ms, l = 1; {mean}; {run}.",
                    "Line chart of goodput in Mb/s against FER in percent on a log axis, one "
                    "line per scheme: " + ", ".join(scheme_name(s) for s in yun09.E1_SCHEMES),
                )
            )
    if "y09-e2" in tables:
        out.append(
            ReportFigure(
                "yun09-fig7-goodput-vs-d-off",
                _e2(cells),
                f"{PAPER} Fig. 7: goodput against the wired delay d_off per link (log axis), "
                f"downlink, one flow, 1 % FER, l = 1; {mean}; {run}.",
                "Line chart of goodput in Mb/s against d_off in ms on a log axis, one line per "
                "scheme: " + ", ".join(scheme_name(s) for s in yun09.E1_SCHEMES),
            )
        )
    flows_figures = (
        (
            "y09-e4",
            "yun09-fig9-10-flows",
            (
                ("y09-e4", "throughput_mbps", "aggregate goodput (Mb/s)", "Fig. 9: goodput"),
                ("y09-e4", "jain_index", "Jain's fairness index", "Fig. 10: fairness"),
            ),
            yun09.E1_SCHEMES,
            "Figs. 9 and 10: aggregate goodput and Jain's fairness index against the number "
            "of connections n, 1 % FER",
            "Two line charts against n: aggregate goodput in Mb/s and Jain's index, one line "
            "per scheme.",
        ),
        (
            "y09-e5",
            "yun09-fig11-background",
            (("y09-e5", "throughput_mbps", "aggregate goodput (Mb/s)", "Fig. 11"),),
            yun09.E1_SCHEMES,
            "Fig. 11: aggregate goodput against the number of connections n, 1 % FER, with "
            "8 Mb/s Pareto background traffic (shape 2) along the TCP path",
            "Line chart of aggregate goodput in Mb/s against n, one line per scheme.",
        ),
        (
            "y09-e8",
            "yun09-fig14-senders",
            (("y09-e8", "throughput_mbps", "aggregate goodput (Mb/s)", "Fig. 14"),),
            yun09.E8_SCHEMES,
            "Fig. 14: aggregate goodput against the number of connections n, LL-ELSN with "
            "the HACK, HACK-fixed, LHP list and ESACK (LL-ELSN) senders, Reno beside them, "
            "1 % FER",
            "Line chart of aggregate goodput in Mb/s against n, one line per sender.",
        ),
    )
    for table, name, panels, schemes, caption, alt in flows_figures:
        if table in tables:
            out.append(
                ReportFigure(
                    name,
                    _flows_axes(cells, panels, schemes),
                    f"{PAPER} {caption}; n thinned to {len(yun09.E4_FLOWS)} points; {mean}; {run}.",
                    alt,
                )
            )
    if "y09-e6" in tables:
        out.append(
            ReportFigure(
                "yun09-fig12-friendliness",
                _e6(cells),
                f"{PAPER} Fig. 12: the mean goodput of a connection still running Reno when k "
                f"of {yun09.E6_FLOWS} connections run the variant instead, 0 % FER "
                f"(collisions remain); k thinned to {len(yun09.E6_REPLACED)} points; {mean}; "
                f"{run}.",
                "Line chart of a Reno connection's goodput in Mb/s against k, one line per "
                "variant: " + ", ".join(scheme_name(s) for s in yun09.E6_VARIANTS),
            )
        )
    if "y09-e9" in tables:
        out.append(
            ReportFigure(
                "yun09-fig15-esack-over-lhp",
                _e9(cells),
                f"{PAPER} Fig. 15: ESACK's goodput over the LHP list's, minus 1, in percent, "
                "both behind LL-ELSN, under Fig. 11's Pareto background, against the number "
                f"of connections (the congestion level); {mean} (bars: the ratio's interval, "
                f"the two taken as independent); {run}.",
                "Line chart of the improvement in percent against n, a dashed line at 0.",
            )
        )
    if "y09-e7" in tables:
        out.append(
            ReportFigure(
                "yun09-fig13-ersn",
                _e7(cells),
                f"{PAPER} Fig. 13: LL-ELSN with and without ERSN, l = "
                f"{yun09.E7_RETRY_LIMIT}, 100 ms link-level retransmission delay; goodput and "
                "spurious timeouts per run against FER, for a link layer that blocks "
                "through the delay and for one that serves its queue meanwhile (yun-004.md "
                f"ambiguity 9); {mean}; {run}.",
                "Two line charts against FER in percent (log axis): goodput in Mb/s and "
                "spurious timeouts per run, with and without ERSN.",
            )
        )
    if "y09-e10" in tables:
        out.append(
            ReportFigure(
                "yun09-fig16-disconnection",
                _e10(cells),
                f"{PAPER} Fig. 16: segments sent per second (100 ms bins) by the ESACK "
                "sender, receiver disconnected at 10 s (dashed), with and without ELN "
                f"filtering; mean of seeds 1..{seeds}.",
                "Step plot of the sending rate in segments per second against time, 0 to 20 "
                "s, two lines, a dashed vertical line at 10 s.",
            )
        )
    if "y09-e11" in tables:
        out.append(
            ReportFigure(
                "yun09-fig17-retry-limit",
                _e11(cells),
                f"{PAPER} Fig. 17: goodput per retry limit against FER (log axis), Reno, "
                f"Snoop and LL-ELSN; {mean}; {run}.",
                "Three line charts side by side, one per scheme, goodput in Mb/s against "
                "FER in percent, one line per retry limit.",
            )
        )
    if "y09-e12" in tables:
        out.append(
            ReportFigure(
                "yun09-fig18-markov",
                _e12(cells),
                f"{PAPER} Fig. 18: aggregate goodput of {yun09.E12_FLOWS} flows to "
                f"{yun09.E12_FLOWS} stations, each station's channel a two-state Markov "
                f"chain (p_gb = {yun09.E12_PGB:g}), against p_bb, per retry limit; {mean}; "
                f"{run}.",
                "Three line charts side by side, one per scheme, aggregate goodput in Mb/s "
                "against p_bb, one line per retry limit.",
            )
        )
    return out
