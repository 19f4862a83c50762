"""The figures of Balakrishnan et al. 1997 (seed 000, Sec. IV-B..IV-F) drawn from runs.

- :func:`throughput_bars`: Figs. 3, 6 and 9, throughput of each scheme as a bar, grouped
  by setting, each bar labelled with its percentage of the error-free maximum.
- :func:`cwnd_vs_time`: Figs. 4, 8 and 11, the sender's congestion window against time.
- :func:`time_sequence`: Figs. 5, 7 and 10, sequence number of each segment sent against
  time, with a top row of marks at fast retransmissions and a bottom row at coarse
  timeouts (the convention of Fig. 7's caption), and, given a ``local_rexmits`` table, a
  row of the base station's local retransmissions (Fig. 5).
- :func:`throughput_vs_error_rate`: Fig. 12, throughput against the error rate on a log
  axis, one line per scheme.
- :func:`add_timeline`: under any time plot, seed 002's mobility timeline of a run
  (:func:`timeline_rows`: which base station serves each mobile host, when a link is
  down).

Where it departs from the paper: Fig. 3 shows the percentage as a second, thin bar on a
right-hand axis; here it is the bar's label (one right axis cannot serve settings with
different maxima). ELN retransmissions, which the paper does not mark, get their own row
just under the fast retransmissions.

The defaults of titles and labels (the settings' x label, schemes in capitals) are the
1997 paper's, which its reproduction draws; :mod:`lasthop.figures` passes the names of a
user's own plan and scenario instead. Up to 20 series get 20 distinct colours, hatches,
markers and line styles (:data:`PALETTE`). The trace figures draw a panel per run; many
runs are drawn as several figures, pages of :data:`PANELS_PER_PAGE` panels
(:func:`page_ranges`) saved as ``STEM-1``, ``STEM-2``, ... (:func:`save_pages`).

Inputs are trace tables with the columns of :data:`lasthop.result.TABLE_SCHEMAS` (a
pandas DataFrame or a pyarrow Table; ``RunResult.sent`` works as it is) and cell dicts as
:func:`lasthop.reproduction.reproduce.reproduce` returns them. A function that draws several
runs takes :data:`Labelled` data: either ``{label: table}`` (labels in the order given)
or one table with a ``label`` column (or whichever column ``by`` names, e.g. ``scheme``
or ``run``; labels in order of first appearance).

Figures are :class:`matplotlib.figure.Figure` objects made directly, never through
pyplot, so nothing here touches pyplot's global figure registry; rcParams are applied with
:func:`matplotlib.rc_context` only while a figure is built or saved. :func:`save` and
:func:`to_bytes` give the same bytes for the same inputs (no dates, no software version,
a fixed SVG hash salt). To that end a figure comes back already laid out, its layout
engine switched off: what is added to it afterwards is not laid out again.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FixedLocator, NullLocator

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = [
    "DPI",
    "TimelineRow",
    "PANELS_PER_PAGE",
    "Labelled",
    "Table",
    "add_timeline",
    "cwnd_vs_time",
    "page_ranges",
    "panel_letter",
    "page_stems",
    "save",
    "save_pages",
    "scheme_name",
    "setting_name",
    "throughput_bars",
    "throughput_vs_error_rate",
    "time_sequence",
    "timeline_rows",
    "to_bytes",
]

Table: TypeAlias = "pd.DataFrame | pa.Table"
"""A trace table: a pandas DataFrame or a pyarrow Table with the documented columns."""

Labelled: TypeAlias = "Mapping[str, pd.DataFrame | pa.Table] | pd.DataFrame | pa.Table"
"""Several runs: ``{label: table}``, or one table with a label column (see ``by``)."""

Records: TypeAlias = "Sequence[Mapping[str, Any]] | pd.DataFrame | pa.Table"
"""Rows as dicts (like ``reproduce()``'s cells) or a table with those columns."""

DPI: Final = 150
"""Resolution of saved PNGs, in dots per inch."""

PANELS_PER_PAGE: Final = 4
"""Panels of a trace figure (one run each) on one page: more go on further pages."""

# Okabe and Ito's colour-blind-safe palette, yellow swapped for grey (yellow lines vanish
# on white), then twelve more so that 20 series stay distinct: each added colour was
# picked, from ColorBrewer's and matplotlib's tab20 palettes, as the one farthest (CIE
# Lab distance) from those already chosen; the closest pair of the 20 is no closer
# (delta E 26) than the closest pair of Okabe and Ito's eight. Every series also gets
# its own marker and line style (bars: hatch): never colour alone. Past 20 series the
# styles repeat.
PALETTE: Final = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#E69F00",  # orange
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#000000",  # black
    "#7F7F7F",  # grey
    "#3F007D",  # deep purple
    "#DBDB8D",  # pale olive
    "#67001F",  # wine
    "#66A61E",  # leaf green
    "#F4A582",  # salmon
    "#E7298A",  # magenta
    "#00441B",  # forest green
    "#7F3B08",  # brown
    "#B2182B",  # crimson
    "#BCBD22",  # olive
    "#9467BD",  # lavender
    "#C5B0D5",  # lilac
)
MARKERS: Final = (
    *("o", "s", "^", "D", "v", "P", "X", "*"),
    *("<", ">", "p", "h", "d", "8", "H", "o", "s", "^", "D", "v"),
)
LINESTYLES: Final[tuple[str | tuple[int, tuple[int, ...]], ...]] = (
    "-",
    "--",
    "-.",
    ":",
    (0, (5, 1)),
    (0, (3, 1, 1, 1, 1, 1)),
    (0, (1, 1)),
    (0, (8, 2, 2, 2)),
    (0, (5, 2, 1, 2)),
    (0, (2, 2)),
    (0, (6, 1, 1, 1, 1, 1, 1, 1)),
    (0, (4, 1, 4, 1, 1, 1)),
    (0, (10, 3)),
    (0, (1, 2)),
    (0, (7, 2, 2, 2, 2, 2)),
    (0, (3, 3)),
    (0, (9, 1)),
    (0, (2, 1)),
    (0, (5, 1, 5, 3)),
    (0, (1, 3)),
)
# Bars carry a hatch as well as a colour, so schemes differ in grey-scale print too.
HATCHES: Final = (
    *("", "//", "..", "\\\\", "xx", "--", "", "oo"),
    *("++", "||", "**", "OO", "//..", "\\\\..", "xx..", "--..", "||..", "++..", "O.", "/|"),
)

# A scheme keeps its style from figure to figure (E2E is blue circles in Fig. 6 and in
# Fig. 12). The six schemes of Fig. 12 have six different styles.
_SCHEME_STYLE: Final[dict[str, int]] = {
    "e2e": 0,
    "e2e-newreno": 1,
    "e2e-smart": 2,
    "e2e-ietf-sack": 3,
    "e2e-eln": 4,
    "e2e-eln-rxmt": 5,
    "e2e-sack-eln": 7,
    "ll": 5,
    "ll-tcp-aware": 4,
    "ll-smart": 7,
    "ll-smart-tcp-aware": 1,
    "split": 7,
    "split-smart": 6,
}

# Marks of the time-sequence plot, in axes coordinates (0 bottom, 1 top): data stays
# between _DATA_BOTTOM and _DATA_TOP so the rows of event marks never cover it.
_DATA_BOTTOM: Final = 0.08
_DATA_TOP: Final = 0.86
_ROW_FAST_RETRANSMIT: Final = 0.96
_ROW_ELN_RETRANSMIT: Final = 0.91
_ROW_TIMEOUT: Final = 0.035
# With a row of the base station's local retransmissions (Fig. 5) above the timeouts.
_ROW_LOCAL_RETRANSMIT: Final = 0.085
_DATA_BOTTOM_LOCAL: Final = 0.13

# ssthresh starts "infinite" (the core reports 2**32 - 1): nothing to draw until the
# first loss sets it.
_SSTHRESH_UNSET_BYTES: Final = 2**30


@contextmanager
def _style() -> Iterator[None]:
    """The rcParams of every lasthop figure, in force only inside the block."""
    with matplotlib.rc_context(
        {
            "font.family": "DejaVu Sans",  # ships with matplotlib: the same glyphs everywhere
            "font.size": 10.0,
            "axes.titlesize": 11.0,
            "axes.labelsize": 10.0,
            "legend.fontsize": 8.5,
            "legend.framealpha": 0.9,
            "xtick.labelsize": 9.0,
            "ytick.labelsize": 9.0,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "grid.linewidth": 0.6,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "figure.dpi": 100.0,
            "savefig.dpi": float(DPI),
            "svg.hashsalt": "lasthop",  # fixed ids in the SVG: the same bytes every time
            "svg.fonttype": "path",  # glyphs as paths: the SVG needs no fonts to show
            "path.simplify": True,
        }
    ):
        yield


# --- saving ---------------------------------------------------------------------------


def _frozen(fig: Figure) -> Figure:
    """Lay ``fig`` out once, at its own dpi, and keep that layout.

    Constrained layout runs again at every draw, starting from the positions of the
    previous one and measuring text at the output's dpi: an SVG saved after a PNG would
    differ in its last digits from one saved first. Fixed positions make every save of a
    figure depend on the figure alone.
    """
    with _style():
        fig.draw_without_rendering()
    fig.set_layout_engine("none")
    return fig


def to_bytes(fig: Figure, fmt: Literal["png", "svg"], dpi: int = DPI) -> bytes:
    """``fig`` as PNG or SVG bytes, the same bytes for the same figure: no creation date,
    no software version, a fixed SVG hash salt."""
    buf = io.BytesIO()
    with _style():
        if fmt == "png":
            fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
        elif fmt == "svg":
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
        else:
            raise ValueError(f"fmt: expected png or svg, got {fmt!r}")
    return buf.getvalue()


def save(
    fig: Figure,
    path_stem: str | Path,
    formats: Sequence[Literal["png", "svg"]] = ("png", "svg"),
    dpi: int = DPI,
) -> list[Path]:
    """Write ``fig`` to ``path_stem.png`` and ``path_stem.svg`` (or ``formats``) and return
    the paths written. The bytes are :func:`to_bytes`'s: deterministic."""
    stem = Path(path_stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = stem.with_name(f"{stem.name}.{fmt}")
        path.write_bytes(to_bytes(fig, fmt, dpi))
        paths.append(path)
    return paths


def page_ranges(n: int, per_page: int = PANELS_PER_PAGE) -> list[range]:
    """The panels of each page when ``n`` panels are drawn ``per_page`` to a figure: the
    trace figures paginate rather than drop panels (``lasthop plot cwnd`` of 14 schemes
    is four figures of 4, 4, 4 and 2 panels, lettered (a) to (n) through them)."""
    if per_page < 1:
        raise ValueError(f"per_page: expected at least 1, got {per_page}")
    return [range(start, min(start + per_page, n)) for start in range(0, n, per_page)] or [range(0)]


def page_stems(path_stem: str | Path, pages: int) -> list[Path]:
    """Where :func:`save_pages` writes ``pages`` figures: ``STEM`` for one, else
    ``STEM-1``, ``STEM-2``, ..."""
    stem = Path(path_stem)
    if pages == 1:
        return [stem]
    return [stem.with_name(f"{stem.name}-{page}") for page in range(1, pages + 1)]


def save_pages(
    figs: Sequence[Figure],
    path_stem: str | Path,
    formats: Sequence[Literal["png", "svg"]] = ("png", "svg"),
    dpi: int = DPI,
) -> list[Path]:
    """Write the pages of a figure, each as :func:`save` does, to the stems
    :func:`page_stems` names (``STEM.png`` for a single page, else ``STEM-1.png``,
    ``STEM-2.png``, ...); return the paths written, page after page. Every page is
    rendered before any file is written."""
    rendered = [[to_bytes(fig, fmt, dpi) for fmt in formats] for fig in figs]
    stems = page_stems(path_stem, len(figs))
    paths = []
    for stem, data in zip(stems, rendered, strict=True):
        stem.parent.mkdir(parents=True, exist_ok=True)
        for fmt, payload in zip(formats, data, strict=True):
            path = stem.with_name(f"{stem.name}.{fmt}")
            path.write_bytes(payload)
            paths.append(path)
    return paths


# --- names and styles -----------------------------------------------------------------

PAPER_SETTINGS_XLABEL: Final = (
    "setting (testbed, socket buffer); bar labels: % of the error-free maximum"
)
"""The x label of Figs. 3, 6 and 9: the 1997 paper's settings (its reproduction's)."""


def scheme_name(scheme: str) -> str:
    """A scheme as the paper prints it: ``e2e-ietf-sack`` -> ``E2E-IETF-SACK``."""
    return scheme.upper()


def setting_name(setting: str) -> str:
    """A setting as the paper prints it: ``lan-32k`` -> ``LAN, 32 KB``."""
    m = re.fullmatch(r"(lan|wan)-(\d+)k", setting)
    if m:
        return f"{m.group(1).upper()}, {m.group(2)} KB"
    return setting


def _styles(labels: Sequence[str]) -> dict[str, int]:
    """A style index per label, distinct within the figure (up to ``len(PALETTE)``, 20
    labels; past that they repeat): a known scheme takes its own style unless an earlier
    label took it."""
    taken: set[int] = set()
    styles: dict[str, int] = {}
    for label in labels:
        want = _SCHEME_STYLE.get(label.lower())
        if want is None or want in taken:
            free = [i for i in range(len(PALETTE)) if i not in taken]
            want = free[0] if free else len(styles) % len(PALETTE)
        taken.add(want)
        styles[label] = want
    return styles


# --- inputs ---------------------------------------------------------------------------


def _columns(table: Any) -> dict[str, np.ndarray[Any, Any]]:
    """A table's columns as numpy arrays, whether it is pandas or pyarrow."""
    names = getattr(table, "column_names", None)
    if names is not None:  # pyarrow.Table
        return {str(n): np.asarray(table.column(n).to_numpy(zero_copy_only=False)) for n in names}
    if hasattr(table, "columns") and hasattr(table, "iloc"):  # pandas.DataFrame
        return {str(c): np.asarray(table[c].to_numpy()) for c in table.columns}
    raise TypeError(f"expected a pandas DataFrame or a pyarrow Table, got {type(table).__name__}")


def _split(data: Any, by: str) -> list[tuple[str, dict[str, np.ndarray[Any, Any]]]]:
    """``(label, columns)`` per run of :data:`Labelled` data, in order."""
    if isinstance(data, Mapping):
        return [(str(label), _columns(table)) for label, table in data.items()]
    cols = _columns(data)
    if by not in cols:
        return [("", cols)]
    keys = cols[by]
    out = []
    for label in dict.fromkeys(keys.tolist()):
        mask = keys == label
        out.append((str(label), {name: values[mask] for name, values in cols.items()}))
    return out


def _records(rows: Any) -> list[dict[str, Any]]:
    if isinstance(rows, Sequence):
        return [dict(row) for row in rows]
    cols = _columns(rows)
    n = len(next(iter(cols.values()))) if cols else 0
    return [{name: _scalar(values[i]) for name, values in cols.items()} for i in range(n)]


def _scalar(value: Any) -> Any:
    item = getattr(value, "item", None)
    return item() if callable(item) else value


def _flow_mask(cols: Mapping[str, np.ndarray[Any, Any]], flow: int | None) -> Any:
    if flow is None or "flow" not in cols:
        return slice(None)
    return cols["flow"] == flow


def _seconds(time_ns: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.asarray(time_ns, dtype=np.float64) / 1e9


def _in_window(t_s: np.ndarray[Any, Any], window_s: tuple[float, float] | None) -> Any:
    if window_s is None:
        return np.ones(t_s.shape, dtype=bool)
    return (t_s >= window_s[0]) & (t_s <= window_s[1])


def _panels(
    n: int, title: str, width_in: float = 8.0, height_in: float = 2.7, share_y: bool = True
) -> tuple[Figure, list[Axes]]:
    fig = Figure(figsize=(width_in, 0.6 + height_in * max(n, 1)), layout="constrained")
    axes = fig.subplots(max(n, 1), 1, sharex=True, sharey=share_y, squeeze=False)
    fig.suptitle(title, fontsize=12)
    return fig, [ax for row in axes for ax in row]


def _panel_title(ax: Axes, index: int, label: str, n: int, first: int = 0) -> None:
    """Title panel ``index`` of ``n``: ``(a) label``, ``(b) label``, ..., lettered from the
    ``first`` panel on (a figure that continues another one's panels, a later page)."""
    if n > 1 or first > 0:
        ax.set_title(f"({panel_letter(first + index)}) {label}", loc="left")
    elif label:
        ax.set_title(label, loc="left")


def panel_letter(index: int) -> str:
    """a, b, ..., z, aa, ab, ...: the letter of the panel ``index`` (from 0)."""
    letters = ""
    index += 1
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


# --- Figs. 3, 6, 9 --------------------------------------------------------------------


def throughput_bars(
    cells: Records,
    peaks_mbps: Mapping[str, float],
    *,
    title: str = "Throughput of each scheme",
    show_published: bool = True,
    scheme_label: Callable[[str], str] = scheme_name,
    xlabel: str = PAPER_SETTINGS_XLABEL,
    legend_title: str | None = None,
    setting_label: Callable[[str], str] = setting_name,
    value_label: str = "throughput (Mb/s)",
    unit: str = "Mb/s",
    peak_label: str = "error-free maximum",
) -> Figure:
    """Figs. 3, 6 and 9: one bar per (setting, scheme) cell, grouped by setting.

    A cell whose ``ci95`` (name -> the half width of the 95% interval of its mean, as
    ``reproduce()`` gives it) has ``throughput_mbps`` gets an error bar of that half
    width each way (gid ``ci95:SETTING:SCHEME``). ``value_label``,
    ``unit`` and ``peak_label`` name what the bars and the dashed line are (throughput in
    Mb/s and the error-free maximum unless told).

    ``cells`` have ``setting``, ``scheme``, ``throughput_mbps`` and (optional)
    ``published`` (Mb/s, or ``None``). ``peaks_mbps`` maps each setting to its
    error-free maximum throughput: each bar is labelled with ``throughput / peak`` as a
    percentage and the peak is drawn as a dashed line over its group. Published values
    are black diamonds (legend "published"). Settings and schemes keep the order in
    which the cells give them. Artist gids: ``bar:SETTING:SCHEME``, ``pct:SETTING:SCHEME``
    (the label), ``published:SETTING:SCHEME``, ``peak:SETTING``.

    ``xlabel`` says what a setting is (by default the 1997 paper's: a testbed and a socket
    buffer), ``setting_label`` how its tick reads, ``legend_title`` heads the legend
    (what a bar is, e.g. the swept parameter's name), ``peak_label`` names the dashed
    line in the legend (what ``peaks_mbps`` are).
    """
    rows = [r for r in _records(cells) if r.get("throughput_mbps") is not None]
    settings = list(dict.fromkeys(str(r["setting"]) for r in rows))
    schemes = list(dict.fromkeys(str(r["scheme"]) for r in rows))
    missing = [s for s in settings if s not in peaks_mbps]
    if missing:
        raise ValueError(f"peaks_mbps: no error-free maximum for settings {missing}")
    styles = _styles(schemes)
    per_group = max(
        (sum(1 for r in rows if r["setting"] == s) for s in settings),
        default=1,
    )
    width = min(0.84 / per_group, 0.3)  # one scheme alone: not a slab

    with _style():
        fig = Figure(
            figsize=(max(6.5, 1.1 + 0.48 * len(rows) + 0.3 * len(settings)), 4.8),
            layout="constrained",
        )
        ax = fig.subplots()
        top = max(
            [*peaks_mbps.values()]
            + [float(r["throughput_mbps"]) + _half_width(r) for r in rows]
            + [float(r["published"]) for r in rows if r.get("published") is not None],
            default=1.0,
        )
        label_pad = 0.015 * top
        published_drawn = False
        for g, setting in enumerate(settings):
            group = [r for r in rows if r["setting"] == setting]
            peak = float(peaks_mbps[setting])
            x0 = g - width * (len(group) - 1) / 2
            for i, row in enumerate(group):
                scheme = str(row["scheme"])
                style = styles[scheme]
                x = x0 + i * width
                mbps = float(row["throughput_mbps"])
                ax.bar(
                    x,
                    mbps,
                    width * 0.92,
                    color=PALETTE[style],
                    edgecolor="black",
                    linewidth=0.5,
                    hatch=HATCHES[style],
                    zorder=2,
                    gid=f"bar:{setting}:{scheme}",
                )
                half = _half_width(row)
                if half > 0:
                    ax.errorbar(
                        x,
                        mbps,
                        yerr=half,
                        fmt="none",
                        ecolor="black",
                        elinewidth=0.9,
                        capsize=3.0,
                        zorder=4,
                        gid=f"ci95:{setting}:{scheme}",
                    )
                pub = row.get("published") if show_published else None
                if pub is not None:
                    ax.plot(
                        [x],
                        [float(pub)],
                        linestyle="none",
                        marker="D",
                        markersize=5.5,
                        markerfacecolor="black",
                        markeredgecolor="white",
                        markeredgewidth=0.8,
                        zorder=4,
                        gid=f"published:{setting}:{scheme}",
                    )
                    published_drawn = True
                pct = 100.0 * mbps / peak if peak > 0 else math.nan
                top_of_bar = mbps + half
                text_y = max(top_of_bar, float(pub) if pub is not None else 0.0) + label_pad
                ax.text(
                    x,
                    text_y,
                    f"{pct:.0f}%",
                    ha="center",
                    va="bottom",
                    fontsize=7.5,
                    # A white box breaks the dashed maximum line where they cross.
                    bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none"},
                    zorder=5,
                    gid=f"pct:{setting}:{scheme}",
                )
            half = width * len(group) / 2 + 0.04
            ax.hlines(
                peak,
                g - half,
                g + half,
                colors="black",
                linestyles="--",
                linewidth=1.0,
                zorder=3,
                gid=f"peak:{setting}",
            )

        ax.set_xticks(range(len(settings)))
        ax.set_xticklabels(
            [
                f"{setting_label(s)}\n(max {float(peaks_mbps[s]):.2f}{' ' + unit if unit else ''})"
                for s in settings
            ]  # fmt: skip
        )
        ax.set_xlim(-0.6, len(settings) - 0.4)
        ax.set_ylim(0, top * 1.12)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(value_label)
        ax.set_title(title)
        ax.grid(axis="x", visible=False)
        ax.set_axisbelow(True)
        handles: list[Any] = [
            Patch(
                facecolor=PALETTE[styles[s]],
                edgecolor="black",
                linewidth=0.5,
                hatch=HATCHES[styles[s]],
                label=scheme_label(s),
            )
            for s in schemes
        ]
        handles.append(Line2D([], [], color="black", linestyle="--", label=peak_label))
        if published_drawn:
            handles.append(
                Line2D(
                    [],
                    [],
                    linestyle="none",
                    marker="D",
                    markerfacecolor="black",
                    markeredgecolor="white",
                    label="published",
                )
            )
        fig.legend(
            handles=handles,
            loc="outside lower center",
            ncols=min(len(handles), 5),
            title=legend_title,
        )
    return _frozen(fig)


def _half_width(cell: Mapping[str, Any]) -> float:
    """The 95% half width of a cell's throughput (``ci95``, as ``reproduce()`` gives it),
    0 where it has none."""
    half = (cell.get("ci95") or {}).get("throughput_mbps")
    return 0.0 if half is None else float(half)


# --- Figs. 4, 8, 11 -------------------------------------------------------------------


def cwnd_vs_time(
    window: Labelled,
    *,
    by: str = "label",
    flow: int | None = 0,
    time_window_s: tuple[float, float] | None = None,
    ssthresh: bool = True,
    overlay: bool = False,
    share_y: bool = True,
    hlines_bytes: Mapping[str, float] | None = None,
    title: str = "Congestion window against time",
    end_s: float | Mapping[str, float] | None = None,
    first_panel: int = 0,
) -> Figure:
    """Figs. 4, 8 and 11: the congestion window (KB) of ``flow`` against time (s), as a
    step plot, one panel per labelled run (``overlay=True``: all on one axes).

    ``window`` holds ``window`` trace tables (time_ns, flow, cwnd_bytes,
    ssthresh_bytes). ``ssthresh`` draws the slow-start threshold dashed (from its first
    finite value). ``time_window_s`` limits the time axis, e.g. ``(0, 20)`` for the first
    20 s. ``share_y=False`` scales each panel to its own run. ``hlines_bytes`` draws
    labelled horizontal dotted lines, e.g. ``{"WAN bandwidth-delay product": 23000}`` as
    in Fig. 4. ``end_s`` (seconds, one for all runs or one per label) carries each run's
    last sample on to that time: the trace holds changes only, so a window that stays put
    (SPLIT's wired sender in Fig. 11) would otherwise end at its last change.
    ``first_panel`` letters the panels on from another figure's (a later page: see
    :func:`page_ranges`). Line gids: ``cwnd:LABEL``, ``ssthresh:LABEL``.
    """
    runs = _split(window, by)
    labels = [label for label, _ in runs]
    styles = _styles(labels)
    n_panels = 1 if overlay else len(runs)
    with _style():
        fig, axes = _panels(n_panels, title, share_y=share_y)
        for i, (label, cols) in enumerate(runs):
            ax = axes[0 if overlay else i]
            sel = _flow_mask(cols, flow)
            t = _seconds(cols["time_ns"][sel])
            cwnd_kb = np.asarray(cols["cwnd_bytes"][sel], dtype=np.float64) / 1024
            ssth = np.asarray(cols["ssthresh_bytes"][sel], dtype=np.float64)
            keep = _in_window(t, time_window_s)
            # Keep the sample in force at the window's start, so the step starts there.
            if time_window_s is not None:
                before = np.flatnonzero(t < time_window_s[0])
                if before.size:
                    keep[before[-1]] = True
            t, cwnd_kb, ssth = t[keep], cwnd_kb[keep], ssth[keep]
            end = end_s.get(label) if isinstance(end_s, Mapping) else end_s
            if time_window_s is not None and end is not None:
                end = min(end, time_window_s[1])
            if end is not None and t.size and t[-1] < end:
                t = np.append(t, end)
                cwnd_kb = np.append(cwnd_kb, cwnd_kb[-1])
                ssth = np.append(ssth, ssth[-1])
            if time_window_s is not None and t.size:
                t = np.clip(t, time_window_s[0], None)
            style = styles[label]
            color = PALETTE[style] if overlay else PALETTE[0]
            name = label or "cwnd"
            ax.step(
                t,
                cwnd_kb,
                where="post",
                color=color,
                linewidth=1.1,
                linestyle=LINESTYLES[style] if overlay else "-",
                label=f"{label} cwnd" if overlay and label else "cwnd",
                gid=f"cwnd:{name}",
            )
            if ssthresh:
                ssth_kb = np.where(ssth >= _SSTHRESH_UNSET_BYTES, np.nan, ssth / 1024)
                ax.step(
                    t,
                    ssth_kb,
                    where="post",
                    color=PALETTE[1] if not overlay else color,
                    linewidth=1.0,
                    linestyle="--",
                    alpha=0.85,
                    label=f"{label} ssthresh" if overlay and label else "ssthresh",
                    gid=f"ssthresh:{name}",
                )
            if not overlay:
                _panel_title(ax, i, label, n_panels, first_panel)
        for i, ax in enumerate(axes):
            for j, (name, value) in enumerate((hlines_bytes or {}).items()):
                ax.axhline(
                    value / 1024,
                    color=PALETTE[6],
                    linestyle=":",
                    linewidth=1.2,
                    label=f"{name} ({value / 1024:.1f} KB)",
                    gid=f"hline:{i}:{j}",
                )
            ax.set_ylabel("congestion window (KB)")
            if ax is axes[0] or not share_y:
                ax.set_ylim(0, ax.get_ylim()[1] * 1.05)
            # Above the panel, right of its title: nothing of the data under it.
            ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncols=4, borderaxespad=0.2)
        _time_axis(axes[-1], time_window_s)
    return _frozen(fig)


def _time_axis(ax: Axes, time_window_s: tuple[float, float] | None) -> None:
    """The shared time axis of the trace figures: the window asked for, else from 0."""
    if time_window_s is not None:
        ax.set_xlim(*time_window_s)
    else:
        ax.set_xlim(left=0)
    ax.set_xlabel("time (s)")


# --- Figs. 5, 7, 10 -------------------------------------------------------------------


def time_sequence(
    sent: Labelled,
    events: Labelled | None = None,
    *,
    by: str = "label",
    flow: int | None = 0,
    time_window_s: tuple[float, float] | None = None,
    seq_unit: Literal["auto", "KB", "MB"] = "auto",
    title: str = "Packet sequence trace",
    local_rexmits: Labelled | None = None,
    first_panel: int = 0,
) -> Figure:
    """Figs. 5, 7 and 10: the sequence number of every segment ``flow`` sent against
    time, one panel per labelled run (sharing both axes, so runs compare directly).

    ``sent`` holds ``sent`` trace tables (time_ns, flow, seq, len, retransmit): first
    transmissions are small blue dots, retransmissions vermillion crosses. ``events``
    holds the runs' ``events`` tables, labelled like ``sent``: as in Fig. 7 a top row of
    marks shows the fast retransmissions and a bottom row the coarse timeouts; ELN
    retransmissions get a row under the top one. Artist gids: ``sent:LABEL``,
    ``retransmit:LABEL``, ``fast_retransmit:LABEL``, ``timeout:LABEL``,
    ``eln_retransmit:LABEL``.

    ``local_rexmits`` holds ``local_rexmits`` trace tables (time_ns, flow, seq, len,
    node, timer), labelled like ``sent``: as in Fig. 5 a row of marks, just above the
    timeouts, shows the base station's local retransmissions (circles on a duplicate
    ack, squares on the local timer). Gids ``local_dupack:LABEL``,
    ``local_timer:LABEL``. ``first_panel`` letters the panels on from another figure's
    (a later page: see :func:`page_ranges`).
    """
    runs = _split(sent, by)
    local_runs = dict(_split(local_rexmits, by)) if local_rexmits is not None else {}
    if local_rexmits is not None and len(runs) == 1 and len(local_runs) == 1:
        local_runs = {runs[0][0]: next(iter(local_runs.values()))}
    # A row of local retransmissions needs room under the data.
    data_bottom = _DATA_BOTTOM_LOCAL if local_runs else _DATA_BOTTOM
    event_runs = dict(_split(events, by)) if events is not None else {}
    if events is not None and len(runs) == 1 and len(event_runs) == 1:
        # One run each: pair them whatever their labels.
        event_runs = {runs[0][0]: next(iter(event_runs.values()))}
    max_seq = 0.0
    for _, cols in runs:
        sel = _flow_mask(cols, flow)
        seq = np.asarray(cols["seq"][sel], dtype=np.float64)
        if seq.size:
            max_seq = max(max_seq, float(seq.max()))
    unit = seq_unit if seq_unit != "auto" else ("MB" if max_seq >= 2 * 1024 * 1024 else "KB")
    scale = 1024.0 * 1024.0 if unit == "MB" else 1024.0

    with _style():
        fig, axes = _panels(len(runs), title, height_in=3.0)
        for i, (label, cols) in enumerate(runs):
            ax = axes[i]
            name = label or "run"
            sel = _flow_mask(cols, flow)
            t = _seconds(cols["time_ns"][sel])
            seq = np.asarray(cols["seq"][sel], dtype=np.float64) / scale
            rexmit = np.asarray(cols["retransmit"][sel], dtype=bool)
            keep = _in_window(t, time_window_s)
            first, again = keep & ~rexmit, keep & rexmit
            ax.plot(
                t[first],
                seq[first],
                linestyle="none",
                marker=".",
                markersize=2.2,
                color=PALETTE[0],
                label="segment sent",
                rasterized=False,
                gid=f"sent:{name}",
            )
            ax.plot(
                t[again],
                seq[again],
                linestyle="none",
                marker="x",
                markersize=4,
                markeredgewidth=0.9,
                color=PALETTE[1],
                label="retransmission",
                gid=f"retransmit:{name}",
            )
            ev = event_runs.get(label)
            if ev is not None:
                esel = _flow_mask(ev, flow)
                et = _seconds(ev["time_ns"][esel])
                kinds = np.asarray(ev["kind"][esel]).astype(str)
                ekeep = _in_window(et, time_window_s)
                rows = (
                    ("fast_retransmit", _ROW_FAST_RETRANSMIT, "v", PALETTE[2], "fast retransmit"),
                    ("eln_retransmit", _ROW_ELN_RETRANSMIT, "d", PALETTE[4], "ELN retransmit"),
                    ("timeout", _ROW_TIMEOUT, "^", PALETTE[6], "coarse timeout"),
                )
                for kind, row_y, marker, color, text in rows:
                    at = et[ekeep & (kinds == kind)]
                    if kind == "eln_retransmit" and at.size == 0:
                        continue  # a row only for schemes that have ELN
                    where = "top row" if row_y > 0.5 else "bottom row"
                    ax.plot(
                        at,
                        np.full(at.shape, row_y),
                        transform=ax.get_xaxis_transform(),
                        linestyle="none",
                        marker=marker,
                        markersize=4.5,
                        markeredgewidth=0.5,
                        markeredgecolor="white",
                        color=color,
                        label=f"{text} ({at.size}, {where})",
                        gid=f"{kind}:{name}",
                    )
            local = local_runs.get(label)
            if local is not None:
                lsel = _flow_mask(local, flow)
                lt = _seconds(local["time_ns"][lsel])
                timer = np.asarray(local["timer"][lsel], dtype=bool)
                lkeep = _in_window(lt, time_window_s)
                for kind, chosen, marker, color, text in (
                    ("local_dupack", ~timer, "o", PALETTE[3], "local retransmit, duplicate ack"),
                    ("local_timer", timer, "s", PALETTE[4], "local retransmit, local timer"),
                ):
                    at = lt[lkeep & chosen]
                    ax.plot(
                        at,
                        np.full(at.shape, _ROW_LOCAL_RETRANSMIT),
                        transform=ax.get_xaxis_transform(),
                        linestyle="none",
                        marker=marker,
                        markersize=3.5,
                        markeredgewidth=0.4,
                        markeredgecolor="black",
                        color=color,
                        label=f"{text} ({at.size}, lower row)",
                        gid=f"{kind}:{name}",
                    )
            _panel_title(ax, i, label, len(runs), first_panel)
            ax.set_ylabel(f"sequence number ({unit})")
            # Upper left is empty: a transfer climbs from bottom left to top right.
            ax.legend(loc="upper left", bbox_to_anchor=(0.0, 0.89), markerscale=1.4)
        # Data between _DATA_BOTTOM and _DATA_TOP of each panel; the rows of marks
        # above and below it.
        span = max(max_seq / scale, 1e-9)
        lo = -span * data_bottom / (_DATA_TOP - data_bottom)
        hi = span + span * (1 - _DATA_TOP) / (_DATA_TOP - data_bottom)
        axes[0].set_ylim(lo, hi)
        _time_axis(axes[-1], time_window_s)
    return _frozen(fig)


# --- Fig. 12 --------------------------------------------------------------------------


def _marked_line(ax: Axes, xs: Any, ys: Any, style: int, label: str, gid: str) -> Line2D:
    """One series of a line plot with markers, in its own colour, marker and line style."""
    (line,) = ax.plot(
        xs,
        ys,
        color=PALETTE[style],
        marker=MARKERS[style],
        linestyle=LINESTYLES[style],
        linewidth=1.6,
        markersize=6.5,
        markeredgecolor="black",
        markeredgewidth=0.5,
        label=label,
        gid=gid,
        zorder=3,
    )
    return line


def throughput_vs_error_rate(
    points: Records,
    *,
    x: Literal["error_every_kb", "ber", "value"] = "error_every_kb",
    by: str = "scheme",
    peak_mbps: float | None = None,
    title: str = "Throughput across error rates",
    scheme_label: Callable[[str], str] = scheme_name,
    xlabel: str | None = None,
    legend_title: str | None = None,
) -> Figure:
    """Fig. 12: throughput (Mb/s) against the error rate, log x axis, one line with
    markers per scheme (each its own colour, marker and line style).

    ``points`` have ``by`` (the scheme), ``throughput_mbps`` and ``error_every_bytes``
    (mean bytes between bit errors). Several points at one (scheme, error rate), e.g.
    one per seed, are drawn as their mean with a bar from their minimum to their
    maximum. ``x="error_every_kb"`` puts "1 error every N KB" on a log2 axis (16, 32, ...
    256 KB in the paper); ``x="ber"`` puts the bit-error rate 1 / (8 N) on a log10 axis;
    ``x="value"`` puts ``error_every_bytes`` as it is (whatever the points' x parameter
    is) on a log10 axis. ``xlabel`` replaces the axis label its ``x`` implies,
    ``legend_title`` heads the legend. ``peak_mbps`` draws the error-free maximum dashed.
    Line gids: ``scheme:SCHEME``.
    """
    rows = _records(points)
    schemes = list(dict.fromkeys(str(r[by]) for r in rows))
    styles = _styles(schemes)
    xs_all: set[float] = set()
    with _style():
        fig = Figure(figsize=(7.5, 4.8), layout="constrained")
        ax = fig.subplots()
        for scheme in schemes:
            by_x: dict[float, list[float]] = {}
            for r in rows:
                if str(r[by]) != scheme:
                    continue
                every = float(r["error_every_bytes"])
                if every <= 0:
                    continue  # error-free: no place on a log axis; that is peak_mbps
                if x == "error_every_kb":
                    xv = every / 1024
                elif x == "ber":
                    xv = 1.0 / (8.0 * every)
                else:
                    xv = every
                by_x.setdefault(xv, []).append(float(r["throughput_mbps"]))
            xv_sorted = sorted(by_x)
            xs_all.update(xv_sorted)
            means = np.array([math.fsum(by_x[v]) / len(by_x[v]) for v in xv_sorted])
            line = _marked_line(
                ax, xv_sorted, means, styles[scheme], scheme_label(scheme), f"scheme:{scheme}"
            )
            if any(len(by_x[v]) > 1 for v in xv_sorted):
                lo = means - np.array([min(by_x[v]) for v in xv_sorted])
                hi = np.array([max(by_x[v]) for v in xv_sorted]) - means
                ax.errorbar(
                    xv_sorted,
                    means,
                    yerr=np.vstack([lo, hi]),
                    fmt="none",
                    ecolor=line.get_color(),
                    elinewidth=0.9,
                    capsize=2.5,
                    zorder=2,
                )
        if peak_mbps is not None:
            ax.axhline(
                peak_mbps,
                color="black",
                linestyle=(0, (4, 3)),
                linewidth=1.0,
                label=f"error-free maximum ({peak_mbps:.2f} Mb/s)",
                gid="peak",
            )
        ticks = sorted(xs_all)
        if x == "error_every_kb":
            ax.set_xscale("log", base=2)
            ax.set_xlabel(xlabel or "error rate: one bit error every N KB (log scale)")
            ax.xaxis.set_major_locator(FixedLocator(ticks))
            ax.set_xticklabels([f"{v:g}" for v in ticks])
        else:
            ax.set_xscale("log", base=10)
            ax.set_xlabel(xlabel or ("bit-error rate (log scale)" if x == "ber" else "(log scale)"))
            ax.xaxis.set_major_locator(FixedLocator(ticks))
            ax.set_xticklabels([f"{v:.1e}" if x == "ber" else f"{v:g}" for v in ticks])
        ax.xaxis.set_minor_locator(NullLocator())
        if ticks:
            ax.set_xlim(ticks[0] / 1.25, ticks[-1] * 1.25)
        ax.set_ylim(bottom=0)
        ax.set_ylabel("throughput (Mb/s)")
        ax.set_title(title)
        ax.legend(loc="lower right" if x == "error_every_kb" else "lower left", title=legend_title)
    return _frozen(fig)


def series_vs_x(
    series: Mapping[str, Sequence[tuple[float, float, float | None]]],
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    y_from_zero: bool = True,
    integer_x: bool = True,
) -> Figure:
    """A measure against a parameter, one line with markers per series (each its own
    colour, marker and line style), as seed 001's F11, F13 and F15 draw them: ``series``
    maps a label to its points ``(x, y, sd)``; a point with an ``sd`` gets a bar of one
    standard deviation each way. Line gids: ``series:LABEL``."""
    with _style():
        fig = Figure(figsize=(7.0, 4.4), layout="constrained")
        ax = fig.subplots()
        _series_on(ax, series, _styles(list(series)), y_from_zero, integer_x)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(loc="best")
    return _frozen(fig)


def panels_vs_x(
    panels: Sequence[tuple[str, Mapping[str, Sequence[tuple[float, float, float | None]]]]],
    *,
    xlabel: str,
    title: str,
    y_from_zero: bool = True,
    integer_x: bool = True,
) -> Figure:
    """Several measures against one parameter, a panel each (``(ylabel, series)``, the
    series as :func:`series_vs_x` takes them) stacked over a shared x axis, each label
    drawn alike in every panel; the legend once, in the first. Line gids:
    ``series:LABEL`` in the first panel, ``series:LABEL:K`` in panel K after it."""
    labels = list(dict.fromkeys(label for _, series in panels for label in series))
    styles = _styles(labels)
    with _style():
        fig = Figure(figsize=(7.0, 2.6 + 2.2 * len(panels)), layout="constrained")
        axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
        for k, (ax, (ylabel, series)) in enumerate(zip(axes, panels, strict=True)):
            _series_on(ax, series, styles, y_from_zero, integer_x, suffix="" if k == 0 else f":{k}")
            ax.set_ylabel(ylabel)
        axes[-1].set_xlabel(xlabel)
        axes[0].set_title(title)
        axes[0].legend(loc="best", fontsize="small")
    return _frozen(fig)


def _series_on(
    ax: Axes,
    series: Mapping[str, Sequence[tuple[float, float, float | None]]],
    styles: Mapping[str, int],
    y_from_zero: bool,
    integer_x: bool,
    suffix: str = "",
) -> None:
    """Draw ``series`` on ``ax`` (see :func:`series_vs_x`)."""
    xs_all: set[float] = set()
    for label, unsorted in series.items():
        points = sorted(unsorted)
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        xs_all.update(xs)
        line = _marked_line(ax, xs, ys, styles[label], label, f"series:{label}{suffix}")
        if any(p[2] is not None for p in points):
            err = [p[2] or 0.0 for p in points]
            ax.errorbar(
                xs,
                ys,
                yerr=err,
                fmt="none",
                ecolor=line.get_color(),
                elinewidth=0.9,
                capsize=2.5,
                zorder=2,
            )
    if integer_x:
        ticks = sorted(xs_all)
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.set_xticklabels([f"{v:g}" for v in ticks])
    if y_from_zero:
        ax.set_ylim(bottom=0)


def rtt_vs_time(
    samples: Mapping[str, tuple[Sequence[float], Sequence[float]]],
    *,
    title: str,
) -> Figure:
    """Round-trip samples against time, one panel per label sharing the y axis (seed
    001's F12): ``samples`` maps a label to (times in s, RTTs in s)."""
    labels = list(samples)
    styles = _styles(labels)
    with _style():
        fig = Figure(figsize=(7.5, 2.3 * len(labels) + 0.6), layout="constrained")
        axes = fig.subplots(len(labels), 1, sharex=True, sharey=True, squeeze=False)[:, 0]
        for ax, label in zip(axes, labels, strict=True):
            t, rtt = samples[label]
            ax.plot(
                t,
                rtt,
                linestyle="none",
                marker=MARKERS[styles[label]],
                markersize=2.5,
                color=PALETTE[styles[label]],
                gid=f"series:{label}",
            )
            ax.set_ylabel("RTT (s)")
            ax.set_ylim(bottom=0)
            ax.set_title(label, fontsize="medium", loc="left")
        axes[-1].set_xlabel("time (s)")
        fig.suptitle(title)
    return _frozen(fig)


# --- seed 002 Fig. 2 ------------------------------------------------------------------


def sequence_mod_with_outages(
    sent: Any,
    drops: Any,
    window: Any,
    *,
    outages_s: Sequence[tuple[float, float]],
    link: str,
    packet_bytes: int,
    modulo: int = 100,
    flow: int = 0,
    time_window_s: tuple[float, float] = (0.0, 10.0),
    title: str = "Packet trace with disconnections",
) -> Figure:
    """Seed 002's Fig. 2, an ns ``xgraph`` time-sequence trace, above the window it came
    from: (a) packet number modulo ``modulo`` against time, squares the packets the
    sender sends (enqueued at the fixed host), crosses the data packets and circles the
    acks lost on ``link`` (an ack numbered by the packet it acknowledges, as ns numbers
    it); (b) cwnd and ssthresh in packets. The ``outages_s`` (start, end) are shaded in
    both. Tables are one run's ``sent``, ``drops`` and ``window`` traces. Artist gids:
    ``sent``, ``data_lost``, ``acks_lost``, ``cwnd``, ``ssthresh``, ``outage``."""
    s, d, w = _columns(sent), _columns(drops), _columns(window)
    with _style():
        fig, (ax, axw) = _panels(2, title, share_y=False)
        for a in (ax, axw):
            for i, (lo, hi) in enumerate(outages_s):
                if hi >= time_window_s[0] and lo <= time_window_s[1]:
                    a.axvspan(
                        lo, hi, color="0.85", lw=0, zorder=0, gid="outage" if i == 0 else None
                    )
        sel = s["flow"] == flow
        t = _seconds(s["time_ns"][sel])
        keep = _in_window(t, time_window_s)
        pkt = np.asarray(s["seq"][sel], dtype=np.int64)[keep] // packet_bytes
        ax.scatter(
            t[keep],
            pkt % modulo,
            marker="s",
            s=9,
            facecolors="none",
            edgecolors=PALETTE[0],
            linewidths=0.7,
            label="sent",
            gid="sent",
        )
        on_link = (
            np.array([str(x).startswith(link) for x in d["link"]], dtype=bool)
            if len(d["link"])
            else np.zeros(0, bool)
        )
        dsel = (d["flow"] == flow) & on_link
        dt = _seconds(d["time_ns"][dsel])
        dkeep = _in_window(dt, time_window_s)
        is_data = np.asarray(d["is_data"][dsel], dtype=bool)[dkeep]
        dseq = np.asarray(d["seq"][dsel], dtype=np.int64)[dkeep]
        dtt = dt[dkeep]
        ax.scatter(
            dtt[is_data],
            (dseq[is_data] // packet_bytes) % modulo,
            marker="x",
            s=22,
            color=PALETTE[1],
            linewidths=0.9,
            label="data lost",
            gid="data_lost",
        )
        acks = dseq[~is_data] // packet_bytes - 1
        ax.scatter(
            dtt[~is_data],
            acks % modulo,
            marker="o",
            s=18,
            facecolors="none",
            edgecolors=PALETTE[2],
            linewidths=0.9,
            label="ack lost",
            gid="acks_lost",
        )
        ax.set_ylabel(f"packet number mod {modulo}")
        ax.set_ylim(-2, modulo + 1)
        ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=3, frameon=False)
        _panel_title(ax, 0, "sequence", 2)
        wsel = w["flow"] == flow
        wt = _seconds(w["time_ns"][wsel])
        cw = np.asarray(w["cwnd_bytes"][wsel], dtype=np.float64) / packet_bytes
        ss = np.asarray(w["ssthresh_bytes"][wsel], dtype=np.float64)
        ss = np.where(ss >= _SSTHRESH_UNSET_BYTES, np.nan, ss / packet_bytes)
        wkeep = _in_window(wt, time_window_s)
        # The trace holds changes only: the last value lasts to the window's end.
        wt = np.append(wt[wkeep], time_window_s[1])
        cw = np.append(cw[wkeep], cw[wkeep][-1:])
        ss = np.append(ss[wkeep], ss[wkeep][-1:])
        wkeep = slice(0, min(len(wt), len(cw), len(ss)))
        axw.step(
            wt[wkeep], cw[wkeep], where="post", color=PALETTE[0], lw=1.1, label="cwnd", gid="cwnd"
        )
        axw.step(
            wt[wkeep],
            ss[wkeep],
            where="post",
            color=PALETTE[3],
            lw=1.0,
            ls="--",
            label="ssthresh",
            gid="ssthresh",
        )
        axw.set_ylabel("packets")
        axw.legend(loc="upper right")
        _panel_title(axw, 1, "congestion window", 2)
        _time_axis(axw, time_window_s)
    return _frozen(fig)


# --- the mobility timeline (seed 002) --------------------------------------------------

TimelineRow: TypeAlias = "tuple[str, list[tuple[float, float, str]]]"
"""One lane of a mobility timeline: its name and its segments (start s, end s, what),
``what`` a base station's name (it serves the mobile host) or ``""`` (down: a handoff
in progress, or an outage of the link)."""


def timeline_rows(summary: Mapping[str, Any]) -> list[TimelineRow]:
    """A run's mobility timeline from its summary: a lane per mobile host that handed off
    (which base station serves it, from the start to the run's end, and the gaps while a
    handoff is in progress) and a lane per link with scheduled outages (its down windows).
    Empty when the run has neither."""
    end = float(summary.get("sim_time_s") or 0.0)
    rows: list[TimelineRow] = []
    by_mobile: dict[str, list[Mapping[str, Any]]] = {}
    for h in summary.get("handoffs") or []:
        by_mobile.setdefault(str(h["mobile"]), []).append(h)
    for mobile, hs in by_mobile.items():
        segments: list[tuple[float, float, str]] = []
        t, station = 0.0, str(hs[0]["from"])
        for h in hs:
            segments.append((t, float(h["start_s"]), station))
            segments.append((float(h["start_s"]), float(h["complete_s"]), ""))
            t, station = float(h["complete_s"]), str(h["to"])
        segments.append((t, max(t, end), station))
        rows.append((f"{mobile}: served by", [s for s in segments if s[1] > s[0]]))
    by_link: dict[str, list[tuple[float, float, str]]] = {}
    for o in summary.get("outages") or []:
        by_link.setdefault(str(o["link"]), []).append(
            (float(o["start_s"]), min(float(o["end_s"]), end), "")
        )
    rows.extend((f"{link}: down", segs) for link, segs in by_link.items())
    return rows


def add_timeline(
    fig: Figure, rows: Sequence[TimelineRow], time_window_s: tuple[float, float] | None = None
) -> Figure:
    """``fig`` (a time plot, as this module returns them) with the mobility timeline
    ``rows`` (:func:`timeline_rows`) as a strip under its lowest axes, on the same time
    axis: each base station's service a bar in its own colour, named on it where it fits;
    handoffs in progress and outages grey hatched bars. The figure grows by the strip's
    height; the axes above keep their size. No rows: ``fig`` as it was. Artist gids:
    ``timeline:N`` for lane N's bars."""
    if not rows:
        return fig
    with _style():
        w, h = (float(x) for x in fig.get_size_inches())
        lane_in, margin_in = 0.42, 0.55
        strip_in = margin_in + lane_in * len(rows) + 0.15
        new_h = h + strip_in
        moved = list(fig.axes)
        for ax in moved:
            x0, y0, aw, ah = ax.get_position().bounds
            ax.set_position((x0, (y0 * h + strip_in) / new_h, aw, ah * h / new_h))
        for text in fig.texts:  # the suptitle among them
            x, y = text.get_position()
            text.set_position((x, (float(y) * h + strip_in) / new_h))
        fig.set_size_inches(w, new_h)
        bottom = min(moved, key=lambda a: a.get_position().y0)
        x0, _, aw, _ = bottom.get_position().bounds
        tax = fig.add_axes((x0, margin_in / new_h, aw, lane_in * len(rows) / new_h))
        stations = sorted({s for _, segs in rows for (_, _, s) in segs if s})
        colour = {s: PALETTE[(i + 2) % len(PALETTE)] for i, s in enumerate(stations)}
        lo, hi = time_window_s if time_window_s is not None else (0.0, bottom.get_xlim()[1])
        for lane, (name, segs) in enumerate(rows):
            for k, (a, b, what) in enumerate(segs):
                tax.broken_barh(
                    [(a, b - a)],
                    (lane - 0.02, 0.5),
                    facecolors=colour[what] if what else "0.8",
                    edgecolor="0.35" if not what else "none",
                    hatch="////" if not what else None,
                    linewidth=0.4,
                    alpha=0.85 if what else 1.0,
                    gid=f"timeline:{lane}" if k == 0 else None,
                )
                mid, shown = (max(a, lo) + min(b, hi)) / 2, min(b, hi) - max(a, lo)
                if what and shown > 0.06 * (hi - lo):
                    tax.text(mid, lane + 0.23, what, ha="center", va="center", fontsize=7.5)
            # The lane's name over its bars, inside the axes (a tick label would need
            # a margin the panels above do not leave).
            tax.text(lo, lane - 0.06, name, ha="left", va="bottom", fontsize=8.0)
        tax.set_ylim(len(rows) - 0.5, -0.5)
        tax.yaxis.set_major_locator(NullLocator())
        tax.grid(False)
        tax.set_xlim(lo, hi)
        tax.set_xlabel("time (s)")
        bottom.set_xlabel("")
    return fig
