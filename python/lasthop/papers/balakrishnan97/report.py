"""The 1997 paper's part of the HTML report: Figs. 3-12 of Balakrishnan et al. 1997 (seed
000, Sec. IV), every figure of the paper but its two diagrams, and how the tables of its
cells read.

For every selection of the paper: the error-free maximum of each setting (the ``peak``
cells, or error-free runs), Fig. 6 (the throughput bars); for ``balakrishnan97`` and
``balakrishnan97-table3`` also Figs. 7 and 8 (traces of E2E and E2E-ELN, LAN 32 KB, seed
``trace_seed``) and Fig. 12 (``fig12_schemes`` at ``fig12_error_every_kb``, mean of seeds
1..``seeds``); for ``balakrishnan97`` also Figs. 3 and 9 (the Table II and IV bars), Figs. 4
and 5 (LL-TCP-AWARE and LL on the WAN, with the base station's local retransmissions where
the engine records them) and Figs. 10 and 11 (both connections of SPLIT, LAN 32 KB). The
figures come in the paper's order.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import lasthop
from lasthop import plots
from lasthop.papers.balakrishnan97 import published
from lasthop.papers.balakrishnan97.experiments import FIG12_ERROR_EVERY_KB, FIG12_SCHEMES
from lasthop.report import CellTable, ReportFigure, ReportPart
from lasthop.reproduction.jobs import Job, run_jobs

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

PAPER: Final = "Balakrishnan et al. 1997"

_figure: Final = functools.partial(ReportFigure, paper=PAPER)
"""A figure of the paper's: its caption says which of the paper's figures it is."""

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

TABLE_TITLES: Final[dict[str, str]] = {
    "peak": f"{PAPER}, Sec. IV-A: error-free peak throughput (TCP Reno)",
    "table2": f"{PAPER}, Table II: link-layer schemes, one bit error per 64 KB on average",
    "table3": f"{PAPER}, Table III: end-to-end schemes, one bit error per 64 KB on average",
    "table4": f"{PAPER}, Table IV: split-connection schemes, one bit error per 64 KB",
    "table5": f"{PAPER}, Table V: bursts of 2, 4 and 6 packets, one burst per 64 KB (LAN)",
    "fig12": f"{PAPER}, Fig. 12: one bit error every 16 to 256 KB (LAN)",
    "ll-latency": "LL on the WAN (32 KB) by the base station's processing latency "
    "(not in the paper; issue 10)",
}
"""What each table of cells is, in the paper's words."""


def report_part(
    selection: str,
    cells: Sequence[Mapping[str, Any]],
    seeds: int,
    *,
    trace_seed: int = 1,
    fig12_schemes: Sequence[str] = FIG12_SCHEMES,
    fig12_error_every_kb: Sequence[int] = FIG12_ERROR_EVERY_KB,
    workers: int | None = None,
) -> ReportPart:
    """The paper's part of the report of ``cells`` (the cells of ``selection``, one of the
    paper's selections, over seeds 1..``seeds``): the figures the module docs list, and the
    runs they took besides the cells (error-free maxima, Fig. 12's points, traced runs of
    seed ``trace_seed``), which run here on at most ``workers`` processes."""
    with_traces = selection in ("balakrishnan97", "balakrishnan97-table3")
    seed_list = list(range(1, seeds + 1))

    # Independent runs without traces, in one pool: error-free maxima (unless the
    # reproduction measured them) and the points of Fig. 12.
    peak_cells = {c["setting"]: c for c in cells if c["table"] == "peak"}
    settings = list(dict.fromkeys(c["setting"] for c in cells if c["table"] == "table3"))
    if with_traces and _FIG12_SETTING not in settings:
        settings.append(_FIG12_SETTING)
    peak_runs = [s for s in settings if s not in peak_cells]
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
    if iii:
        figures.append(
            _figure(
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
        if not chosen or not all(c["setting"] in peaks for c in chosen):
            continue
        figures.append(
            _figure(
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
    provenance: list[tuple[str, str]] = []
    if peaks:
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
            _figure(
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
            _figure(
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
    if selection == "balakrishnan97":
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
    provenance_after: list[tuple[str, str]] = []
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
            _figure(
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
        provenance_after.append(
            (
                "Fig. 12 runs",
                f"{_FIG12_SCENARIO} --set scheme=S --set error_every_bytes=N*1024 for S in "
                f"{', '.join(fig12_schemes)} and N in {kb_text}, {seeds_text}",
            )
        )
    figures.sort(key=lambda f: f.paper_figure or 0)  # in the paper's order
    return ReportPart(
        figures=figures,
        provenance=provenance,
        provenance_after=provenance_after,
        sources=[("paper", published.BALAKRISHNAN97_SOURCE)],
        cell_tables={table: CellTable(title) for table, title in TABLE_TITLES.items()},
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
    fig4 = _figure(
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
    fig5 = _figure(
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
    fig10 = _figure(
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
    fig11 = _figure(
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
