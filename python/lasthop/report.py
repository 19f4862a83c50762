"""A self-contained HTML report of a reproduction: what was run, the measured cells beside
the published ones, the paper's claims checked on them with the deviations explained
(:mod:`lasthop.reproduction.claims`), and the figures of Balakrishnan et al. 1997 (seed 000,
Sec. IV): Figs. 3-12, every figure of the paper but its two diagrams.

The report is one file, ``index.html``, with no external resources: its style is inline
and its figures are ``data:`` URIs. The figures' PNG and SVG files are written beside it
for people who want them. The same inputs give the same bytes: the report carries no
wall-clock time, and :mod:`lasthop.plots` saves deterministically.

- :func:`build_report` / :func:`write_report`: a report from cells and figures made
  elsewhere (e.g. a results store).
- :func:`reproduction_report`: run a reproduction (``lasthop.papers.reproduce``) and the
  runs its figures need, and write its report.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

import matplotlib
from matplotlib.figure import Figure

import lasthop
from lasthop import plots
from lasthop.papers import reproduce as reproduce_module
from lasthop.papers.balakrishnan97 import published
from lasthop.papers.elaarag02 import published as elaarag02_published
from lasthop.papers.reproduce import reproduce
from lasthop.reproduction.claims import figures_text, grouped
from lasthop.reproduction.jobs import Job, run_jobs

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = [
    "FIG12_ERROR_EVERY_KB",
    "FIG12_SCHEMES",
    "ReportFigure",
    "build_report",
    "reproduction_report",
    "write_report",
]

PAPER: Final = "Balakrishnan et al. 1997"

FIG12_SCHEMES: Final = reproduce_module.FIG12_SCHEMES
"""The six schemes of Fig. 12."""

FIG12_ERROR_EVERY_KB: Final = reproduce_module.FIG12_ERROR_EVERY_KB
"""Fig. 12's error rates: one bit error every N KB, in increasing powers of 2."""

TRACE_SCHEMES: Final = ("e2e", "e2e-eln")
"""The two schemes Figs. 7 and 8 compare: TCP Reno and Reno with ELN."""

LINK_TRACE_SCHEMES: Final = ("ll-tcp-aware", "ll")
"""The two schemes Figs. 4 and 5 compare, in the order of Fig. 5's caption."""


WAN_BDP_BYTES: Final = 23000
"""The WAN bandwidth-delay product Fig. 4 draws: 1.35 Mb/s x 135 ms (Sec. IV-B)."""

_LINK_TRACE_SCENARIO: Final = "balakrishnan97/wan"
_SPLIT_TRACE_SCENARIO: Final = "balakrishnan97/lan"  # 32 KB socket buffers by default
_TRACE_SCENARIO: Final = "balakrishnan97/table3-lan-32k"
_FIG12_SCENARIO: Final = "balakrishnan97/lan"
_FIG12_SETTING: Final = "lan-32k"  # balakrishnan97/lan's default socket buffer is 32 KB
_SOCKET_BUFFER_BYTES: Final = 32768

# What each table of cells is, in the paper's words.
_TABLE_TITLES: Final[dict[str, str]] = {
    "peak": f"{PAPER}, Sec. IV-A: error-free peak throughput (TCP Reno)",
    "table2": f"{PAPER}, Table II: link-layer schemes, one bit error per 64 KB on average",
    "table3": f"{PAPER}, Table III: end-to-end schemes, one bit error per 64 KB on average",
    "table4": f"{PAPER}, Table IV: split-connection schemes, one bit error per 64 KB",
    "table5": f"{PAPER}, Table V: bursts of 2, 4 and 6 packets, one burst per 64 KB (LAN)",
    "fig12": f"{PAPER}, Fig. 12: one bit error every 16 to 256 KB (LAN)",
    "ll-latency": "LL on the WAN (32 KB) by the base station's processing latency "
    "(not in the paper; issue 10)",
    "elaarag02:I": "ElAarag 2002, Table I: TCP Tahoe by bit-error rate",
    "b99-t1": "Balakrishnan et al. 1999, T1: one-way lossless transfers (E-S1), reverse "
    "channels with and without header compression (-c)",
    "b99-t1b": "Balakrishnan et al. 1999, E-S1b: 9.6 kb/s compressed, by reverse buffer",
    "b99-t2": "Balakrishnan et al. 1999, T2: one-way transfer with forward losses (E-S2)",
    "b99-t3": "Balakrishnan et al. 1999, T3: two simultaneous forward transfers (E-S3)",
    "b99-f19": "Balakrishnan et al. 1999, F19: testbed throughput against SA's maxburst (E-T5)",
    "b99-f20": "Balakrishnan et al. 1999, F20: testbed throughput against ACC's max_delack (E-T6)",
    "b99-f21": "Balakrishnan et al. 1999, F21: testbed two-way transfers (E-T7)",
    "b99-t4": "Balakrishnan et al. 1999, T4: two-way transfers (E-S4), over the time both "
    "are active",
    "b99-f14": "Balakrishnan et al. 1999, F14: 1 MB transfers over wireless cable with a "
    "packet-radio return (E-T4), by the client's socket buffer",
    "b99-t6": "Balakrishnan et al. 1999, T6: one bulk transfer over a chain of packet-radio "
    "hops (E-S5)",
    "b99-t7": "Balakrishnan et al. 1999, T7: connections sharing one packet-radio hop (E-S6), "
    "over the time all are active",
    "b99-f15": "Balakrishnan et al. 1999, F15: web micro-benchmark over wireless cable with a "
    "packet-radio return (E-S7)",
    "y09-e1": "Yun 2009, Fig. 6 (E1): downlink goodput against FER, one flow, l = 1",
    "y09-e3": "Yun 2009, Fig. 8 (E3): uplink goodput against FER, one flow, l = 1",
    "y09-e7": "Yun 2009, Fig. 13 (E7): LL-ELSN with and without ERSN, l = 7, 100 ms delay",
    "y09-e10": "Yun 2009, Fig. 16 (E10): sending rate, receiver disconnected at 10 s",
    "y09-e11": "Yun 2009, Fig. 17 (E11): goodput per retry limit against FER",
    "y09-e12": "Yun 2009, Fig. 18 (E12): 10 flows, Markov channel p_gb = 0.01",
    "y09-e13": "Yun 2009, Fig. 3 (E13): notification overhead, analysis",
    "y09-e14": "Yun 2009, Table 1 (E14): ELN delay",
}

_STYLE: Final = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a;
  margin: 0; background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 0.5rem; }
h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
h3 { font-size: 1.05rem; margin: 1.6rem 0 0.4rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.4rem 0; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
th, td { border-bottom: 1px solid #e2e2e2; padding: 0.2rem 0.55rem; text-align: left;
  white-space: nowrap; }
th { background: #f4f4f4; }
td.num, th.num { text-align: right; }
div.scroll { overflow-x: auto; }
figure { margin: 1.8rem 0; }
figure img { max-width: 100%; height: auto; display: block; border: 1px solid #eee; }
figcaption { font-size: 0.92rem; color: #333; margin-top: 0.4rem; }
p.files { font-size: 0.85rem; margin: 0.2rem 0 0; }
table.claims td { white-space: normal; vertical-align: top; min-width: 7rem; }
td.holds { color: #0b6e2e; font-weight: 600; }
td.fails { color: #b00020; font-weight: 600; }
td.unchecked { color: #8a6d00; font-weight: 600; }
div.deviation { border-left: 3px solid #b00020; padding: 0.1rem 0 0.1rem 0.8rem;
  margin: 1rem 0; }
div.deviation ul { margin: 0.2rem 0; padding-left: 1.2rem; }
""".strip()


@dataclass(frozen=True)
class ReportFigure:
    """A figure of the report: numbered in order, captioned
    "Fig. N (as in Balakrishnan et al. 1997 Fig. M): caption"."""

    stem: str
    """File name without suffix for its PNG and SVG, e.g. ``fig6-end-to-end``."""
    figure: Figure
    caption: str
    alt: str
    """Text alternative for the image: what it shows, for a reader who cannot see it."""
    paper_figure: int | None = None
    """The figure of Balakrishnan et al. 1997 this one corresponds to, if any."""


def build_report(
    *,
    title: str,
    cells: Sequence[Mapping[str, Any]],
    figures: Sequence[ReportFigure],
    provenance: Sequence[tuple[str, str]] = (),
    embed: Literal["png", "svg"] = "png",
    file_links: bool = False,
    claims: Sequence[Mapping[str, Any]] = (),
    deviations: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The report as one HTML document (a string): ``title``; ``provenance``, rows of
    (what, value) saying what was run; the ``cells`` (as ``reproduce()`` returns them)
    as one table per ``table`` field; and the ``figures`` embedded as ``embed`` data
    URIs. ``file_links`` adds links to ``STEM.png`` and ``STEM.svg`` beside the file (as
    :func:`write_report` writes them). ``claims`` and ``deviations`` (as
    :func:`lasthop.papers.reproduce.check_claims` gives them) make the Claims table and
    the Deviations section."""
    images = [plots.to_bytes(f.figure, embed) for f in figures]
    return _html(title, cells, figures, images, embed, provenance, file_links, claims, deviations)


def write_report(
    directory: str | Path,
    *,
    title: str,
    cells: Sequence[Mapping[str, Any]],
    figures: Sequence[ReportFigure],
    provenance: Sequence[tuple[str, str]] = (),
    embed: Literal["png", "svg"] = "png",
    claims: Sequence[Mapping[str, Any]] = (),
    deviations: Sequence[Mapping[str, Any]] = (),
) -> Path:
    """Write ``DIRECTORY/index.html`` (see :func:`build_report`) and each figure's
    ``STEM.png`` and ``STEM.svg`` beside it; return the path of ``index.html``."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    images = []
    for f in figures:
        rendered = {fmt: plots.to_bytes(f.figure, fmt) for fmt in ("png", "svg")}
        for fmt, data in rendered.items():
            (out / f"{f.stem}.{fmt}").write_bytes(data)
        images.append(rendered[embed])
    index = out / "index.html"
    text = _html(title, cells, figures, images, embed, provenance, True, claims, deviations)
    index.write_text(text, encoding="utf-8")
    return index


def reproduction_report(
    directory: str | Path,
    which: str = "balakrishnan97-table3",
    seeds: int = 10,
    *,
    trace_seed: int = 1,
    fig12_schemes: Sequence[str] = FIG12_SCHEMES,
    fig12_error_every_kb: Sequence[int] = FIG12_ERROR_EVERY_KB,
    workers: int | None = None,
    cells: Sequence[Mapping[str, Any]] | None = None,
) -> Path:
    """Reproduce ``which`` (as ``lasthop reproduce WHICH --seeds SEEDS``) and write its
    report into ``directory``; return the path of its ``index.html``.

    Besides the cells, for the Balakrishnan reproductions: the error-free maximum of
    each setting (the ``peak`` cells, or error-free runs), Fig. 6 (the
    throughput bars); for ``all`` and ``balakrishnan97-table3`` also Figs. 7 and 8 (traces
    of E2E and E2E-ELN, LAN 32 KB, seed ``trace_seed``) and Fig. 12 (``fig12_schemes``
    at ``fig12_error_every_kb``, mean of seeds 1..``seeds``); for ``all`` and
    ``balakrishnan97`` also Figs. 3 and 9 (the Table II and IV bars), Figs. 4 and 5
    (LL-TCP-AWARE and LL on the WAN, with the base station's local retransmissions where
    the engine records them) and Figs. 10 and 11 (both connections of SPLIT, LAN 32 KB).
    The report holds the cells, the Claims table, the Deviations, then the figures in the
    paper's order.

    ``cells``: the cells of ``reproduce(which, seeds)`` when the caller has them already
    (``lasthop reproduce --report``), so they are not run twice.
    """
    if which not in reproduce_module.WHICH:
        raise ValueError(
            f"which: expected one of {', '.join(reproduce_module.WHICH)}, got {which!r}"
        )
    if seeds < 1:
        raise ValueError(f"seeds: must be at least 1, got {seeds}")
    if cells is None:
        cells = reproduce(which, seeds, workers)
    balakrishnan = which not in ("elaarag02", "balakrishnan99", "yun09")
    asymmetry = which in ("all", "balakrishnan99")
    with_traces = which in ("all", "balakrishnan97", "balakrishnan97-table3")
    seed_list = list(range(1, seeds + 1))

    # Independent runs without traces, in one pool: error-free maxima (unless the
    # reproduction measured them) and the points of Fig. 12.
    peak_cells = {c["setting"]: c for c in cells if c["table"] == "peak"}
    settings = list(dict.fromkeys(c["setting"] for c in cells if c["table"] == "table3"))
    if with_traces and _FIG12_SETTING not in settings:
        settings.append(_FIG12_SETTING)
    peak_runs = [s for s in settings if s not in peak_cells] if balakrishnan else []
    jobs = [
        Job(f"balakrishnan97/table3-{s}", ("scheme=e2e", "error_every_bytes=0"), seed)
        for s in peak_runs
        for seed in seed_list
    ]
    fig12_keys = (
        [(scheme, kb) for scheme in fig12_schemes for kb in fig12_error_every_kb]
        if with_traces
        else []
    )
    jobs += [
        Job(_FIG12_SCENARIO, (f"scheme={scheme}", f"error_every_bytes={kb * 1024}"), seed)
        for scheme, kb in fig12_keys
        for seed in seed_list
    ]
    summaries = run_jobs(jobs, workers)

    peaks: dict[str, float] = {s: float(c["throughput_mbps"]) for s, c in peak_cells.items()}
    for i, setting in enumerate(peak_runs):
        runs = summaries[i * seeds : (i + 1) * seeds]
        peaks[setting] = _mean_mbps(runs)
    fig12_points = [
        {
            "scheme": job.sets[0].removeprefix("scheme="),
            "error_every_bytes": int(job.sets[1].removeprefix("error_every_bytes=")),
            "seed": job.seed,
            "throughput_mbps": _mean_mbps([summary]),
        }
        for job, summary in zip(
            jobs[len(peak_runs) * seeds :], summaries[len(peak_runs) * seeds :], strict=True
        )
    ]

    seeds_text = f"seeds 1..{seeds}" if seeds > 1 else "seed 1"
    figures: list[ReportFigure] = []
    iii = [c for c in cells if c["table"] == "table3"]
    if balakrishnan and iii:
        figures.append(
            ReportFigure(
                stem="fig6-end-to-end-throughput",
                paper_figure=6,
                figure=plots.throughput_bars(
                    iii,
                    peaks,
                    title="End-to-end schemes: 1 bit error per 64 KB on average",
                ),
                caption=(
                    "Throughput of the end-to-end schemes with one bit error per 64 KB on "
                    f"average, mean of {seeds_text}. Each bar is labelled with its percentage "
                    "of the setting's error-free maximum (measured here, dashed line); black "
                    "diamonds are the values published in Table III."
                ),
                alt=(
                    "Bar chart of throughput in Mb/s, one bar per end-to-end scheme, grouped "
                    f"by setting ({', '.join(_settings_text(iii))}), each labelled with its "
                    "percentage of the error-free maximum (a dashed line per setting), "
                    "with diamonds at the published values."
                ),
            )
        )
    for table_id, paper_figure, stem, what in (
        ("table2", 3, "fig3-link-layer-throughput", "link-layer schemes"),
        ("table4", 9, "fig9-split-connection-throughput", "split-connection schemes"),
    ):
        chosen = [c for c in cells if c["table"] == table_id]
        if not balakrishnan or not chosen or not all(c["setting"] in peaks for c in chosen):
            continue
        figures.append(
            ReportFigure(
                stem=stem,
                paper_figure=paper_figure,
                figure=plots.throughput_bars(
                    chosen, peaks, title=f"{what.capitalize()}: 1 bit error per 64 KB on average"
                ),
                caption=(
                    f"Throughput of the {what} with one bit error per 64 KB on average, mean "
                    f"of {seeds_text}, labelled with the percentage of the error-free maximum; "
                    "black diamonds are the published values."
                ),
                alt=f"Bar chart of throughput in Mb/s, one bar per {what[:-1]}, by setting.",
            )
        )
    provenance: list[tuple[str, str]] = [
        ("lasthop version", lasthop.__version__),
        ("reproduction", f"lasthop reproduce {which} --seeds {seeds}"),
        ("seeds", f"{seeds_text}; every cell is the mean over them"),
        ("cell scenarios", ", ".join(reproduce_module.experiment_scenarios(which))),
    ]
    if balakrishnan and peaks:
        source = "the peak cells" if peak_cells else f"error-free runs, {seeds_text}"
        provenance.append(
            (
                "error-free maxima",
                ", ".join(f"{plots.setting_name(s)} {peaks[s]:.3f} Mb/s" for s in peaks)
                + f" ({source})",
            )
        )
    if with_traces:
        traced = {
            scheme: lasthop.run(_TRACE_SCENARIO, seed=trace_seed, set=[f"scheme={scheme}"])
            for scheme in TRACE_SCHEMES
        }
        names = {scheme: plots.scheme_name(scheme) for scheme in TRACE_SCHEMES}
        sent = {names[s]: r.sent for s, r in traced.items()}
        events = {names[s]: r.events for s, r in traced.items()}
        window = {names[s]: r.window for s, r in traced.items()}
        counts = "; ".join(
            f"{names[s]}: {r.flows[0]['fast_retransmits']} fast retransmits, "
            f"{r.flows[0]['eln_retransmits']} ELN retransmits, {r.flows[0]['timeouts']} "
            f"coarse timeouts, {r.flows[0]['throughput_bps'] / 1e6:.2f} Mb/s"
            for s, r in traced.items()
        )
        figures.append(
            ReportFigure(
                stem="fig7-sequence-e2e-eln",
                paper_figure=7,
                figure=plots.time_sequence(
                    sent,
                    events,
                    title="Packet sequence traces, LAN, 32 KB socket buffers",
                ),
                caption=(
                    "Packet sequence traces for E2E (TCP Reno) and E2E-ELN, LAN with 32 KB "
                    f"socket buffers, one error per 64 KB, seed {trace_seed}. The top row of "
                    "marks shows the times of fast retransmissions (ELN retransmissions in "
                    "the row just under it), the bottom row the coarse timeouts. "
                    f"({counts}.)"
                ),
                alt=(
                    "Two stacked time-sequence plots, sequence number in MB against time in "
                    "seconds, for E2E and E2E-ELN, with retransmissions as crosses and rows "
                    "of marks for fast retransmissions (top) and coarse timeouts (bottom)."
                ),
            )
        )
        figures.append(
            ReportFigure(
                stem="fig8-cwnd-e2e-eln",
                paper_figure=8,
                figure=plots.cwnd_vs_time(
                    window,
                    time_window_s=(0.0, 20.0),
                    share_y=False,
                    hlines_bytes={"socket buffer": _SOCKET_BUFFER_BYTES},
                    title="Congestion window, first 20 s, LAN, 32 KB socket buffers",
                ),
                caption=(
                    "Congestion window against time for E2E (TCP Reno) and E2E-ELN over the "
                    "first 20 s of the runs traced in the figure as in the paper's Fig. 7, "
                    "with ssthresh dashed. "
                    "The data in flight is bounded by the smaller of cwnd and the 32 KB "
                    "socket buffer (dotted). Each panel has its own vertical scale."
                ),
                alt=(
                    "Two stacked step plots of congestion window in KB against time in "
                    "seconds, 0 to 20 s, for E2E and E2E-ELN, with ssthresh dashed and the "
                    "32 KB socket buffer dotted."
                ),
            )
        )
        provenance.append(
            (
                "traced runs (Figs. 7, 8)",
                f"{_TRACE_SCENARIO}, seed {trace_seed}, "
                + " and ".join(f"--set scheme={s}" for s in TRACE_SCHEMES),
            )
        )
    if which in ("all", "balakrishnan97"):
        figures += _link_layer_trace_figures(trace_seed)
        figures += _split_trace_figures(trace_seed)
        provenance.append(
            (
                "traced runs (Figs. 4, 5, 10, 11)",
                f"{_LINK_TRACE_SCENARIO} --set scheme=S --set socket_buffer_bytes=32768 for S in "
                f"{', '.join(LINK_TRACE_SCHEMES)}; {_SPLIT_TRACE_SCENARIO} --set scheme=split; "
                f"seed {trace_seed}",
            )
        )
    asymmetry_figures: list[ReportFigure] = []
    if asymmetry:
        from lasthop.papers.balakrishnan99 import figures as figures_balakrishnan99

        asymmetry_figures, rows = figures_balakrishnan99.figures(trace_seed)
        provenance += rows
        latency, rows = figures_balakrishnan99.latency_figures(cells, trace_seed)
        asymmetry_figures += latency
        provenance += rows
        from lasthop.papers.balakrishnan99 import figures_testbed as figures_balakrishnan99_testbed

        asymmetry_figures += figures_balakrishnan99_testbed.figures(cells, seeds)
    if fig12_points:
        schemes_text = ", ".join(plots.scheme_name(s) for s in fig12_schemes)
        kb_text = ", ".join(str(kb) for kb in fig12_error_every_kb)
        # Say which of the paper's schemes the figure leaves out (none by default).
        left_out = [plots.scheme_name(s) for s in FIG12_SCHEMES if s not in fig12_schemes]
        coverage = (
            f" The paper's Fig. 12 also has {', '.join(left_out)}, not drawn here."
            if left_out
            else f" These are the {len(FIG12_SCHEMES)} schemes of the paper's Fig. 12."
        )
        figures.append(
            ReportFigure(
                stem="fig12-throughput-vs-error-rate",
                paper_figure=12,
                figure=plots.throughput_vs_error_rate(
                    fig12_points,
                    peak_mbps=peaks.get(_FIG12_SETTING),
                    title="Throughput across error rates, LAN, 32 KB socket buffers",
                ),
                caption=(
                    f"Throughput of {schemes_text} across error rates from one bit error "
                    f"every {fig12_error_every_kb[0]} KB to one every "
                    f"{fig12_error_every_kb[-1]} KB (log scale), LAN with 32 KB socket "
                    f"buffers, 8 MB transfers, mean of {seeds_text} (bars: minimum to "
                    f"maximum).{coverage}"
                ),
                alt=(
                    f"Line chart of throughput in Mb/s against error rate (one error every "
                    f"{kb_text} KB, log axis), one line with markers per scheme: "
                    f"{schemes_text}; dashed line at the error-free maximum."
                ),
            )
        )
        provenance.append(
            (
                "Fig. 12 runs",
                f"{_FIG12_SCENARIO} --set scheme=S --set error_every_bytes=N*1024 for S in "
                f"{', '.join(fig12_schemes)} and N in {kb_text}, {seeds_text}",
            )
        )
    provenance.append(("plotted with", f"matplotlib {matplotlib.__version__}"))
    if balakrishnan:
        provenance.append(("paper", published.BALAKRISHNAN97_SOURCE))
    if which in ("all", "elaarag02"):
        provenance.append(("paper", elaarag02_published.ELAARAG02_SOURCE))
    figures.sort(key=lambda f: f.paper_figure or 0)  # in the paper's order
    figures += asymmetry_figures  # the 1999 paper's, after the 1997 paper's
    if which in ("all", "yun09"):
        from lasthop.papers.yun09 import experiments as yun09
        from lasthop.papers.yun09 import figures as figures_yun09

        figures += figures_yun09.figures(cells, seeds)
        provenance.append(("paper", yun09.SOURCE))
    claims, deviations = reproduce_module.check_claims(cells)
    return write_report(
        directory,
        title=f"lasthop reproduction: {which}",
        cells=cells,
        figures=figures,
        provenance=provenance,
        claims=claims,
        deviations=deviations,
    )


def _flow_rows(table: pa.Table, flow: int) -> pd.DataFrame:
    """The rows of one connection (``flow`` column) of a trace table."""
    frame = table.to_pandas()
    rows: pd.DataFrame = frame[frame["flow"] == flow].reset_index(drop=True)
    return rows


def _link_layer_trace_figures(seed: int) -> list[ReportFigure]:
    """Figs. 4 and 5: LL-TCP-AWARE and LL on the WAN, 32 KB socket buffers."""
    runs = {
        plots.scheme_name(scheme): lasthop.run(
            _LINK_TRACE_SCENARIO, seed=seed, set=[f"scheme={scheme}", "socket_buffer_bytes=32768"]
        )
        for scheme in LINK_TRACE_SCHEMES
    }
    local = {name: r.local_rexmits for name, r in runs.items()}
    counts = "; ".join(
        f"{name}: {r.flows[0]['local_retransmits']} local retransmissions, "
        f"{r.flows[0]['retransmits']} source retransmissions "
        f"({r.flows[0]['fast_retransmits']} fast), {r.flows[0]['timeouts']} coarse timeouts, "
        f"{r.flows[0]['throughput_bps'] / 1e6:.2f} Mb/s"
        for name, r in runs.items()
    )
    local_text = (
        "The lower row of marks shows the base station's local retransmissions "
        "(circles: on a duplicate ack; squares: on snoop's local timer), from the "
        "run's local_rexmits trace."
    )
    setting = "WAN, 32 KB socket buffers, one error per 64 KB"
    short = "WAN, 32 KB, 1 error per 64 KB"
    fig4 = ReportFigure(
        stem="fig4-cwnd-link-layer",
        paper_figure=4,
        figure=plots.cwnd_vs_time(
            {n: r.window for n, r in runs.items()},
            share_y=True,
            hlines_bytes={"WAN bandwidth-delay product": WAN_BDP_BYTES},
            end_s={n: float(r.summary["sim_time_s"]) for n, r in runs.items()},
            title=f"Congestion window, link-layer schemes, {short}",
        ),
        caption=(
            f"Congestion window of the source against time for LL-TCP-AWARE and LL, {setting}, "
            f"seed {seed}, with ssthresh dashed; the dotted line is the 23,000-byte WAN "
            "bandwidth-delay product (1.35 Mb/s x 135 ms), which the paper draws in the LL "
            "graph. Data in flight is bounded by the smaller of cwnd and the 32 KB socket "
            f"buffer. ({counts}.)"
        ),
        alt=(
            "Two stacked step plots of congestion window in KB against time in seconds, for "
            "LL-TCP-AWARE and LL on the WAN, with ssthresh dashed and a dotted line at the "
            "23,000-byte bandwidth-delay product."
        ),
    )
    fig5 = ReportFigure(
        stem="fig5-sequence-link-layer",
        paper_figure=5,
        figure=plots.time_sequence(
            {n: r.sent for n, r in runs.items()},
            {n: r.events for n, r in runs.items()},
            local_rexmits=local,
            title=f"Packet sequence traces, link-layer schemes, {short}",
        ),
        caption=(
            f"Packet sequence traces for LL-TCP-AWARE and LL, {setting}, seed {seed} (the runs "
            "of the figure as in the paper's Fig. 4). Dots are segments the source sent, "
            "crosses its retransmissions; the top row marks the source's fast "
            f"retransmissions, the bottom row its coarse timeouts. {local_text} "
            f"({counts}.)"
        ),
        alt=(
            "Two stacked time-sequence plots, sequence number in MB against time in seconds, "
            "for LL-TCP-AWARE and LL on the WAN, with rows of marks for the source's fast "
            "retransmissions (top), the base station's local retransmissions and the coarse "
            "timeouts (bottom)."
        ),
    )
    return [fig4, fig5]


def _split_trace_figures(seed: int) -> list[ReportFigure]:
    """Figs. 10 and 11: both connections of SPLIT (LAN, 32 KB socket buffers)."""
    run = lasthop.run(_SPLIT_TRACE_SCENARIO, seed=seed, set=["scheme=split"])
    flow = run.flows[0]
    wireless = int(flow["split"]["wireless_flow_id"])
    legs = {"wired connection (source to base station)": 0}
    legs[f"wireless connection (base station to mobile host, flow {wireless})"] = wireless
    split = flow["split"]
    counts = (
        f"wired sender: {flow['retransmits']} retransmissions, {flow['timeouts']} timeouts; "
        f"wireless sender: {split['wireless_retransmits']} retransmissions "
        f"({split['wireless_fast_retransmits']} fast), {split['wireless_timeouts']} timeouts; "
        f"relay buffer {split['relay_buffer_bytes'] // 1024} KB, at most "
        f"{split['relay_max_occupancy_bytes'] // 1024} KB used; "
        f"{flow['throughput_bps'] / 1e6:.2f} Mb/s"
    )
    setting = "LAN, 32 KB socket buffers, one error per 64 KB"
    short = "LAN, 32 KB, 1 error per 64 KB"
    fig10 = ReportFigure(
        stem="fig10-sequence-split",
        paper_figure=10,
        figure=plots.time_sequence(
            {name: _flow_rows(run.sent, f) for name, f in legs.items()},
            {name: _flow_rows(run.events, f) for name, f in legs.items()},
            flow=None,
            title=f"Packet sequence traces of SPLIT's two connections, {short}",
        ),
        caption=(
            f"Packet sequence traces of the wired and the wireless connection of SPLIT, "
            f"{setting}, seed {seed}. As in the paper, the wireless part has two rows of "
            "marks: the top one the times of fast retransmissions, the bottom one those of "
            "timeouts; the wired part has neither, and stalls while the base station's "
            f"relay buffer is full. ({counts}.)"
        ),
        alt=(
            "Two stacked time-sequence plots, sequence number in MB against time in seconds, "
            "for the wired and the wireless connection of SPLIT, with rows of marks for the "
            "wireless sender's fast retransmissions (top) and timeouts (bottom)."
        ),
    )
    fig11 = ReportFigure(
        stem="fig11-cwnd-split",
        paper_figure=11,
        figure=plots.cwnd_vs_time(
            {name: _flow_rows(run.window, f) for name, f in legs.items()},
            flow=None,
            share_y=False,
            end_s=float(run.summary["sim_time_s"]),
            title=f"Congestion window of SPLIT's two connections, {short}",
        ),
        caption=(
            "Congestion window against time for the wired and the wireless part of the split "
            f"connection (SPLIT, {setting}, seed {seed}; the runs of the figure as in the "
            "paper's Fig. 10), with ssthresh dashed. The paper: the wired sender never "
            "sees a loss and keeps a large window, while the wireless connection's window "
            f"fluctuates rapidly. Each panel has its own vertical scale. ({counts}.)"
        ),
        alt=(
            "Two stacked step plots of congestion window in KB against time in seconds, for "
            "the wired and the wireless connection of SPLIT, with ssthresh dashed."
        ),
    )
    return [fig10, fig11]


def _settings_text(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    return [plots.setting_name(s) for s in dict.fromkeys(str(c["setting"]) for c in cells)]


def _mean_mbps(summaries: Sequence[Mapping[str, Any]]) -> float:
    values = [float(s["flows"][0]["throughput_bps"]) / 1e6 for s in summaries]
    return math.fsum(values) / len(values)


# --- HTML -----------------------------------------------------------------------------


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _html(
    title: str,
    cells: Sequence[Mapping[str, Any]],
    figures: Sequence[ReportFigure],
    images: Sequence[bytes],
    embed: Literal["png", "svg"],
    provenance: Sequence[tuple[str, str]],
    file_links: bool,
    claims: Sequence[Mapping[str, Any]] = (),
    deviations: Sequence[Mapping[str, Any]] = (),
) -> str:
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>\n{_STYLE}\n</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<h1>{_e(title)}</h1>",
    ]
    if provenance:
        out += ['<section id="run">', "<h2>What was run</h2>", "<dl>"]
        for key, value in provenance:
            out.append(f"<dt>{_e(key)}</dt><dd>{_e(value)}</dd>")
        out += ["</dl>", "</section>"]
    if cells:
        heading = "Measured beside published" if _any_published(cells) else "Measured"
        out += ['<section id="cells">', f"<h2>{heading}</h2>"]
        for table in dict.fromkeys(str(c.get("table", "")) for c in cells):
            if table == "b99-f14":
                out += _t5_table()
            out += _cells_table(table, [c for c in cells if str(c.get("table", "")) == table])
        out.append("</section>")
    if claims:
        out += _claims_section(claims)
    if claims or deviations:
        out += _deviations_section(deviations)
    if figures:
        out += ['<section id="figures">', "<h2>Figures</h2>"]
        mime = "image/png" if embed == "png" else "image/svg+xml"
        for n, (fig, data) in enumerate(zip(figures, images, strict=True), start=1):
            width, height = (round(v * 100) for v in fig.figure.get_size_inches())
            src = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
            as_in = f" (as in {PAPER} Fig. {fig.paper_figure})" if fig.paper_figure else ""
            out += [
                f'<figure id="{_e(fig.stem)}">',
                f'<img src="{src}" alt="{_e(fig.alt)}" width="{width}" height="{height}">',
                f"<figcaption><strong>Fig. {n}{_e(as_in)}:</strong> {_e(fig.caption)}</figcaption>",
            ]
            if file_links:
                out.append(
                    f'<p class="files">Files: <a href="{_e(fig.stem)}.png">PNG</a>, '
                    f'<a href="{_e(fig.stem)}.svg">SVG</a></p>'
                )
            out.append("</figure>")
        out.append("</section>")
    out += ["</main>", "</body>", "</html>", ""]
    return "\n".join(out)


def _claims_section(claims: Sequence[Mapping[str, Any]]) -> list[str]:
    held = sum(1 for c in claims if c["status"] == "holds")
    failed = sum(1 for c in claims if c["status"] == "fails")
    out = [
        '<section id="claims">',
        "<h2>Claims</h2>",
        f"<p>Every checkable statement of {PAPER}, evaluated on the cells above: {held} "
        f"hold, {failed} fail, {len(claims) - held - failed} not checked. "
        "The Deviations section explains each failure.</p>",
        '<div class="scroll"><table class="claims">',
        "<thead><tr>"
        + "".join(
            f'<th scope="col">{h}</th>'
            for h in ("verdict", "claim", "the paper says", "checked as", "measured")
        )
        + "</tr></thead>",
        "<tbody>",
    ]
    for claim in claims:
        status = str(claim["status"])
        measured = (
            figures_text(claim["figures"])
            if claim["figures"]
            else f"not checked: {claim.get('reason', '')}"
        )
        out.append(
            f'<tr id="claim-{_e(claim["id"])}">'
            f'<td class="{_e(status)}">{_e(status)}</td>'
            f"<td><code>{_e(claim['id'])}</code><br>{_e(claim['section'])}</td>"
            f"<td>{_e(claim['statement'])}</td>"
            f"<td>{_e(claim['checked_as'])}</td>"
            f"<td>{_e(measured)}</td></tr>"
        )
    out += ["</tbody>", "</table></div>", "</section>"]
    return out


def _deviations_section(deviations: Sequence[Mapping[str, Any]]) -> list[str]:
    out = [
        '<section id="deviations">',
        "<h2>Deviations</h2>",
        "<p>Every failed claim and every cell whose ratio to the published value is outside "
        "0.8-1.25, grouped by cause. The explanations are kept in DEVIATIONS of "
        "<code>python/lasthop/papers/claims_balakrishnan97.py</code> (and "
        "<code>claims_elaarag02.py</code>).</p>",
    ]
    if not deviations:
        out += ["<p>None: every claim holds and every cell is within 0.8-1.25.</p>"]
    for n, (explanation, found) in enumerate(grouped(deviations), start=1):
        out += [f'<div class="deviation" id="deviation-{n}">', "<ul>"]
        for d in found:
            out.append(f"<li><code>{_e(d['key'])}</code> ({_e(d['kind'])}): {_e(d['what'])}</li>")
        out += ["</ul>", f"<p><strong>Cause:</strong> {_e(explanation)}</p>", "</div>"]
    out.append("</section>")
    return out


def _any_published(cells: Sequence[Mapping[str, Any]]) -> bool:
    return any(c.get("published") is not None for c in cells)


_NUM: Final = ' class="num"'


_ASYMMETRY_COLUMNS: Final[dict[str, tuple[tuple[str, str, int], ...]]] = {
    "b99-t1": (
        ("Mb/s", "throughput_mbps", 3),
        ("k", "k", 2),
        ("mean RTT ms", "mean_rtt_ms", 0),
        ("mean cwnd pkts", "mean_cwnd_segments", 1),
        ("reverse queue pkts", "reverse_queue_packets", 2),
        ("reverse use", "reverse_utilisation", 3),
        ("acks dropped", "reverse_ack_drops", 0),
        ("data per ack", "data_per_ack", 2),
    ),
    "b99-t2": (
        ("Mb/s", "throughput_mbps", 3),
        ("mean cwnd pkts", "mean_cwnd_segments", 1),
        ("cwnd sd pkts", "cwnd_std_segments", 1),
        ("mean RTT ms", "mean_rtt_ms", 0),
        ("timeouts", "timeouts", 1),
        ("forward drops", "forward_drops", 1),
    ),
    "b99-t3": (
        ("aggregate Mb/s", "aggregate_mbps", 3),
        ("fairness", "jain_index", 3),
        ("first Mb/s", "first_mbps", 3),
        ("second Mb/s", "second_mbps", 3),
        ("second's timeouts", "second_timeouts", 1),
    ),
    "b99-t4": (
        ("forward Mb/s", "forward_mbps", 3),
        ("reverse kb/s", "reverse_kbps", 2),
        ("reverse starved", "reverse_starved_fraction", 2),
        ("ack gap ms (seed 1)", "ack_gap_ms", 0),
        ("longest pause s (seed 1)", "idle_gap_max_s", 2),
    ),
}
_ASYMMETRY_COLUMNS["b99-t1b"] = _ASYMMETRY_COLUMNS["b99-t1"]
_ASYMMETRY_COLUMNS["b99-f14"] = (
    ("kb/s", "throughput_kbps", 1),
    ("sd kb/s", "throughput_sd_kbps", 2),
    ("timeouts", "timeouts", 2),
)
_ASYMMETRY_COLUMNS["b99-t6"] = (
    ("kb/s", "throughput_kbps", 2),
    ("mean RTT ms", "mean_rtt_ms", 0),
    ("RTT sd ms", "rtt_std_ms", 0),
    ("timeouts", "timeouts", 1),
    ("frames per radio", "frames_per_radio", 0),
    ("turnaround s/radio", "turnaround_s_per_radio", 1),
    ("RTS/CTS s/radio", "rts_cts_s_per_radio", 1),
    ("backoff s/radio", "backoff_s_per_radio", 1),
)
_ASYMMETRY_COLUMNS["b99-t7"] = (
    ("aggregate kb/s", "aggregate_kbps", 2),
    ("per-connection sd kb/s", "per_connection_sd_kbps", 2),
    ("fairness", "jain_index", 3),
)
_ASYMMETRY_COLUMNS["b99-f15"] = (
    ("completion s", "completion_mean_s", 2),
    ("sd s", "completion_sd_s", 2),
    ("completed", "completed_fraction", 2),
)
# The testbed half (Secs. 8, 9.1): the data of figures F19-F21.
_ASYMMETRY_COLUMNS["b99-f19"] = (
    ("Mb/s", "throughput_mbps", 3),
    ("sd Mb/s", "throughput_sd_mbps", 3),
    ("runs with loss", "runs_with_loss", 1),
    ("timeouts", "timeouts", 1),
    ("mean RTT ms", "mean_rtt_ms", 0),
)
_ASYMMETRY_COLUMNS["b99-f20"] = _ASYMMETRY_COLUMNS["b99-f19"]
_ASYMMETRY_COLUMNS["b99-f21"] = (
    ("forward Mb/s", "forward_mbps", 3),
    ("sd", "forward_sd_mbps", 3),
    ("reverse kb/s", "reverse_kbps", 2),
    ("sd", "reverse_sd_kbps", 2),
    ("reverse starved", "reverse_starved_fraction", 2),
)


_GOODPUT: Final = (("Mb/s", "throughput_mbps", 3), ("95 % ±", "ci95_mbps", 3))
# Seed 004 (Yun 2009): no plotted value is legible, so again the measures the claims read.
_ASYMMETRY_COLUMNS["y09-e1"] = (
    *_GOODPUT,
    ("timeouts", "timeouts", 1),
    ("spurious timeouts", "spurious_timeouts", 1),
    ("local retransmits", "local_retransmits", 0),
    ("ELNs", "elns", 0),
    ("ELN delay ms", "eln_delay_ms", 3),
    ("notice bytes / data bytes", "notice_overhead", 5),
)
_ASYMMETRY_COLUMNS["y09-e3"] = _ASYMMETRY_COLUMNS["y09-e1"]
_ASYMMETRY_COLUMNS["y09-e11"] = _ASYMMETRY_COLUMNS["y09-e1"]
_ASYMMETRY_COLUMNS["y09-e7"] = (
    *_GOODPUT,
    ("timeouts", "timeouts", 1),
    ("spurious timeouts", "spurious_timeouts", 1),
    ("ERSNs", "ersns", 0),
    ("ELNs", "elns", 0),
    ("notice bytes / data bytes", "notice_overhead", 5),
)
_ASYMMETRY_COLUMNS["y09-e12"] = (
    *_GOODPUT,
    ("better half Mb/s", "top_half_mbps", 3),
    ("fairness", "jain_index", 3),
    ("timeouts", "timeouts", 1),
)
_ASYMMETRY_COLUMNS["y09-e10"] = (
    ("segments/s before", "rate_before_seg_s", 1),
    ("0.5-1.5 s after", "rate_soon_after_seg_s", 1),
    ("last 5 s", "rate_late_seg_s", 1),
)
_ASYMMETRY_COLUMNS["y09-e13"] = (
    ("Eq. 1 series gap", "series_gap", 12),
    ("largest R/r, p <= 0.25", "worst_overhead", 4),
)
_ASYMMETRY_COLUMNS["y09-e14"] = (
    ("ELN delay ms", "eln_delay_ms", 3),
    ("T_wrd ms", "t_wrd_ms", 3),
)


def _asymmetry_cells_table(table: str, cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """A table of seed 001's or seed 004's cells: no published values survive, so the
    columns are the measures the claims read."""
    from lasthop.papers.balakrishnan99.experiments import protocol_name
    from lasthop.papers.yun09.experiments import scheme_name

    name = scheme_name if table.startswith("y09-") else protocol_name
    columns = _ASYMMETRY_COLUMNS[table]
    headers = [("setting", False), ("protocol", False), *((h, True) for h, _, _ in columns)]
    rows = [
        [
            (str(c.get("setting", "")), False),
            (name(str(c.get("scheme", ""))), False),
            *((_fixed(c.get(key), digits), True) for _, key, digits in columns),
        ]
        for c in cells
    ]
    return _html_table(_TABLE_TITLES.get(table, table), headers, rows)


def _html_table(
    caption: str, headers: Sequence[tuple[str, bool]], rows: Sequence[Sequence[tuple[str, bool]]]
) -> list[str]:
    """An HTML table: a caption, headers and rows of (text, is a number) cells."""
    out = [
        '<div class="scroll"><table>',
        f"<caption>{_e(caption)}</caption>",
        "<thead><tr>"
        + "".join(f'<th scope="col"{_NUM if num else ""}>{_e(h)}</th>' for h, num in headers)
        + "</tr></thead>",
        "<tbody>",
    ]
    for values in rows:
        out.append(
            "<tr>"
            + "".join(f"<td{_NUM if num else ''}>{_e(v)}</td>" for v, num in values)
            + "</tr>"
        )
    out += ["</tbody>", "</table></div>"]
    return out


def _t5_table() -> list[str]:
    """Seed 001's T5: the packet radio's parameters, with where each comes from."""
    from lasthop.papers.balakrishnan99.experiments import t5_rows

    headers = [("parameter", False), ("value", True), ("unit", False), ("source", False)]
    rows = [[(n, False), (v, True), (u, False), (src, False)] for n, v, u, src in t5_rows()]
    caption = (
        "Balakrishnan et al. 1999, T5: multi-hop packet-radio parameters (the seed lost "
        "every value; [N] ns-2.35, [R] the reference's reconstruction)"
    )
    return _html_table(caption, headers, rows)


def _cells_table(table: str, cells: Sequence[Mapping[str, Any]]) -> list[str]:
    if table in _ASYMMETRY_COLUMNS:
        return _asymmetry_cells_table(table, cells)
    pps = any("throughput_pps" in c for c in cells)
    unit = "packets/s" if pps else "Mb/s"
    key = "throughput_pps" if pps else "throughput_mbps"
    digits = 2 if pps else 3
    headers = [
        ("setting", False),
        ("scheme", False),
        (f"measured {unit}", True),
        ("wireless goodput %", True),
        ("wired goodput %", True),
        (f"published {unit}", True),
        ("measured / published", True),
    ]
    rows = [
        [
            (plots.setting_name(str(c.get("setting", ""))), False),
            (plots.scheme_name(str(c.get("scheme", ""))), False),
            (_fixed(c.get(key), digits), True),
            (_fixed(c.get("wireless_goodput_pct"), 1), True),
            (_fixed(c.get("wired_goodput_pct"), 1), True),
            (_fixed(c.get("published"), 3 if pps else 2), True),  # the paper's precision
            (_fixed(c.get("ratio"), 3), True),
        ]
        for c in cells
    ]
    return _html_table(_TABLE_TITLES.get(table, table), headers, rows)


def _fixed(value: Any, digits: int) -> str:
    if value is None:
        return "\u2014"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(number):
        return "\u2014"
    return f"{number:.{digits}f}"
