"""The testbed figures of Balakrishnan, Padmanabhan, Katz 1999 (seed 001, Sec. 9.1), for
the HTML report, drawn as the paper drew them from the reproduction's cells (the
reference's numbering):

- F19: throughput against maxburst (1 ... 16 and infinity), ACC and AF, mean with
  standard-deviation bars;
- F20: throughput against ACC's max_delack for two maxburst values, Reno as a reference;
- F21: grouped bars of the two-way transfers, forward (Mb/s) and reverse (kb/s), Reno,
  ACC and AF with FIFO and with acks-first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from matplotlib.figure import Figure

from lasthop import plots
from lasthop.papers.balakrishnan99 import testbed as tb
from lasthop.papers.balakrishnan99.experiments import protocol_name

if TYPE_CHECKING:
    from lasthop.report import ReportFigure

PAPER: Final = "Balakrishnan et al. 1999"


def _by(cells: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, str], Mapping[str, Any]]:
    return {(str(c["table"]), str(c["setting"]), str(c["scheme"])): c for c in cells}


def _num(cell: Mapping[str, Any] | None, key: str) -> float:
    value = None if cell is None else cell.get(key)
    return float("nan") if value is None else float(value)


def _finish_line_axes(ax: Any, xlabel: str, title: str) -> None:
    ax.set_xlabel(xlabel)
    ax.set_ylabel("throughput (Mb/s)")
    ax.set_ylim(bottom=0)
    ax.set_title(title)
    ax.legend()


def f19_figure(cells: Sequence[Mapping[str, Any]]) -> Figure:
    by = _by(cells)
    names = [tb.maxburst_name(m) for m in tb.F19_MAXBURSTS]
    xs = list(range(len(names)))
    with plots._style():
        fig = Figure(figsize=(7.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
        for i, p in enumerate(tb.F19_PROTOCOLS):
            keys = [(tb.F19, f"maxburst-{n}", p) for n in names]
            mean = [_num(by.get(k), "throughput_mbps") for k in keys]
            sd = [_num(by.get(k), "throughput_sd_mbps") for k in keys]
            ax.errorbar(
                [x + (i - 0.5) * 0.12 for x in xs], mean, yerr=sd, marker="os"[i % 2],
                capsize=3, label=protocol_name(p), gid=f"f19:{p}",
            )  # fmt: skip
        linear = [(m, m * tb.SLOPE_MBPS) for m in tb.F19_MAXBURSTS if m * tb.SLOPE_MBPS < 12]
        ax.plot(
            [xs[tb.F19_MAXBURSTS.index(m)] for m, _ in linear], [y for _, y in linear],
            linestyle=":", color="grey", label="one burst per 10 ms tick",
        )  # fmt: skip
        ax.set_xticks(xs, names)
        _finish_line_axes(ax, "maxburst (segments)", "Throughput against maxburst (testbed, E-T5)")
    return plots._frozen(fig)


def f20_figure(cells: Sequence[Mapping[str, Any]]) -> Figure:
    by = _by(cells)
    xs = list(tb.F20_MAX_DELACKS)
    with plots._style():
        fig = Figure(figsize=(7.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
        for i, m in enumerate(tb.F20_MAXBURSTS):
            keys = [(tb.F20, f"delack-{d}", tb.f20_scheme(m)) for d in xs]
            ax.errorbar(
                xs, [_num(by.get(k), "throughput_mbps") for k in keys],
                yerr=[_num(by.get(k), "throughput_sd_mbps") for k in keys],
                marker="os"[i % 2], capsize=3, label=f"ACC+SA, maxburst {m}", gid=f"f20:{m}",
            )  # fmt: skip
        reno = _num(by.get((tb.F20, "reference", "reno")), "throughput_mbps")
        ax.axhline(reno, linestyle="--", color="black", label="Reno", gid="f20:reno")
        _finish_line_axes(
            ax, "max_delack (segments)", "Throughput against ACC's max_delack (testbed, E-T6)"
        )
    return plots._frozen(fig)


def f21_figure(cells: Sequence[Mapping[str, Any]]) -> Figure:
    by = _by(cells)
    labels = [protocol_name(p) for p in tb.F21_PROTOCOLS]
    xs = list(range(len(labels)))
    with plots._style():
        fig = Figure(figsize=(8.0, 3.8), layout="constrained")
        axes = fig.subplots(1, 2)
        panels = (
            ("forward_mbps", "forward_sd_mbps", "Mb/s"),
            ("reverse_kbps", "reverse_sd_kbps", "kb/s"),
        )
        for ax, (key, sd, unit) in zip(axes, panels, strict=True):
            for i, scheduling in enumerate(tb.F21_SCHEDULING):
                ks = [(tb.F21, scheduling, p) for p in tb.F21_PROTOCOLS]
                ax.bar(
                    [x + (i - 0.5) * 0.38 for x in xs], [_num(by.get(k), key) for k in ks],
                    width=0.38, yerr=[_num(by.get(k), sd) for k in ks], capsize=3,
                    label=scheduling, gid=f"f21:{key}:{scheduling}",
                )  # fmt: skip
            ax.set_xticks(xs, labels)
            ax.set_ylabel(f"{key.split('_')[0]} throughput ({unit})")
            ax.legend()
        fig.suptitle("Two-way transfers over the time both are active (testbed, E-T7)")
    return plots._frozen(fig)


def figures(cells: Sequence[Mapping[str, Any]], seeds: int) -> list[ReportFigure]:
    """F19, F20 and F21 from the reproduction's cells (none if the cells lack them)."""
    from lasthop.report import ReportFigure

    tables = {str(c["table"]) for c in cells}
    out: list[ReportFigure] = []
    runs = f"mean of {seeds} seeds, bars one standard deviation"
    if tb.F19 in tables:
        out.append(
            ReportFigure(
                stem="b99-f19-maxburst",
                figure=f19_figure(cells),
                caption=(
                    f"{PAPER} F19: throughput of a 2 MB forward transfer against SA's maxburst "
                    "(inf: no limit) for ACC+SA and AF+SA on the testbed (Ethernet forward, "
                    f"emulated 28.8 kb/s return, 10 ms kernel clock), {runs}. Dotted: one "
                    f"burst per tick, {tb.SLOPE_MBPS:.2f} Mb/s per unit of maxburst."
                ),
                alt="Line chart of throughput in Mb/s against maxburst with error bars, "
                "ACC+SA and AF+SA, rising along a dotted line, then falling.",
            )
        )
    if tb.F20 in tables:
        out.append(
            ReportFigure(
                stem="b99-f20-max-delack",
                figure=f20_figure(cells),
                caption=(
                    f"{PAPER} F20: throughput against ACC's max_delack (min_acks_win 4) for "
                    f"maxburst {' and '.join(map(str, tb.F20_MAXBURSTS))}, Reno dashed, {runs}."
                ),
                alt="Line chart of throughput in Mb/s against max_delack, two ACC+SA "
                "lines rising then levelling, Reno as a dashed horizontal line.",
            )
        )
    if tb.F21 in tables:
        out.append(
            ReportFigure(
                stem="b99-f21-two-way",
                figure=f21_figure(cells),
                caption=(
                    f"{PAPER} F21: forward (Mb/s) and reverse (kb/s) throughput over the time "
                    "both transfers are active, Reno, ACC+SA and AF+SA with FIFO and with "
                    f"acks-first on the emulated dialup's queue, {runs}."
                ),
                alt="Two bar charts, forward and reverse throughput, a pair of bars (FIFO, "
                "acks-first) per protocol.",
            )
        )
    return out
