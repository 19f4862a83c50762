"""Rich tables for ``--format table``: what a person reads. ``--format json`` is what
programs read; the two carry the same numbers."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich.table import Table

from lasthop.columns import param_columns
from lasthop.papers import published


def flows_table(flows: Sequence[Mapping[str, Any]], title: str) -> Table:
    """Per-flow metrics: throughput, transfer time, retransmissions, timeouts."""
    table = Table(title=title, title_justify="left")
    table.add_column("flow")
    for header in (
        "throughput Mb/s",
        "transfer time s",
        "retransmits",
        "timeouts",
        "fast retransmits",
        "local retransmits",
    ):
        table.add_column(header, justify="right")
    for flow in flows:
        table.add_row(
            str(flow.get("name", "")),
            _fixed(_scaled(flow.get("throughput_bps"), 1e-6), 3),
            _fixed(flow.get("transfer_time_s"), 3),
            _count(flow.get("retransmits")),
            _count(flow.get("timeouts")),
            _count(flow.get("fast_retransmits")),
            _count(flow.get("local_retransmits")),
        )
    return table


def _cell_text(mbps: Any, wireless: Any, wired: Any, sep: str = ", ") -> str:
    """A cell as the 1997 paper prints it: Mb/s (wireless goodput %, wired goodput %)."""
    return f"{_fixed(mbps, 2)} ({_fixed(wireless, 1)}{sep}{_fixed(wired, 1)})"


def published_table(cell: Mapping[str, Any], title: str) -> Table:
    """The published cell beside the measured one, as the paper prints cells:
    throughput Mb/s (wireless goodput %, wired goodput %), and their ratio."""
    table = Table(title=title, title_justify="left", caption=str(cell.get("source", "")))
    table.add_column("cell")
    for header in ("published", "measured", "ratio"):
        table.add_column(header, justify="right")

    table.add_row(
        str(cell.get("cell", "")),
        _cell_text(
            cell.get("throughput_mbps"),
            cell.get("wireless_goodput_pct"),
            cell.get("wired_goodput_pct"),
        ),
        _cell_text(
            cell.get("measured_throughput_mbps"),
            cell.get("measured_wireless_goodput_pct"),
            cell.get("measured_wired_goodput_pct"),
        ),
        _fixed(cell.get("ratio"), 2),
    )
    return table


def links_table(links: Sequence[Mapping[str, Any]], title: str) -> Table:
    """Per-link-direction metrics: goodput and drops by cause."""
    table = Table(title=title, title_justify="left")
    table.add_column("link")
    table.add_column("direction")
    for header in ("goodput %", "drops error", "drops queue"):
        table.add_column(header, justify="right")
    for link in links:
        table.add_row(
            str(link.get("name", "")),
            str(link.get("direction", "")),
            _fixed(_scaled(link.get("goodput"), 100.0), 2),
            _count(link.get("drops_error")),
            _count(link.get("drops_queue")),
        )
    return table


def bench_table(result: Mapping[str, Any]) -> Table:
    """The benchmark's figures, one per row."""
    table = Table(title="lasthop bench", title_justify="left")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        if isinstance(value, float):
            text = f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3f}"
        elif isinstance(value, int):
            text = f"{value:,}"
        else:
            text = str(value)
        table.add_row(key, text)
    return table


def balakrishnan_table(cells: Sequence[Mapping[str, Any]], seeds: int) -> Table:
    """The 1997 baseline: error-free peak and E2E (TCP Reno) at one error per 64 KB, per
    setting, beside the published figures."""
    table = Table(
        title=f"Balakrishnan et al. 1997: peak and Table III E2E (TCP Reno), {seeds} seeds",
        title_justify="left",
        caption=published.BALAKRISHNAN97_SOURCE,
        caption_justify="left",
    )
    table.add_column("setting")
    for header in (
        "error-free\nMb/s",
        "paper\npeak",
        "ratio",
        "E2E Mb/s\n1 err/64 KB",
        "wireless\ngoodput %",
        "wired\ngoodput %",
        "paper E2E\nMb/s (wl %, wd %)",
        "ratio",
    ):
        table.add_column(header, justify="right")
    peaks = {c["setting"]: c for c in cells if c["table"] == "peak"}
    e2e = {c["setting"]: c for c in cells if c["table"] == "table3" and c["scheme"] == "e2e"}
    for setting in published.SETTINGS:
        peak, lossy = peaks.get(setting), e2e.get(setting)
        if peak is None or lossy is None:
            continue
        paper = published.BALAKRISHNAN97_TABLE_III["e2e"][setting]
        paper_text = (
            "-"
            if paper is None
            else _cell_text(
                paper.throughput_mbps, paper.wireless_goodput_pct, paper.wired_goodput_pct
            )
        )
        table.add_row(
            setting,
            _fixed(peak["throughput_mbps"], 3),
            _fixed(peak["published"], 2),
            _fixed(peak["ratio"], 2),
            _fixed(lossy["throughput_mbps"], 3),
            _fixed(lossy["wireless_goodput_pct"], 1),
            _fixed(lossy["wired_goodput_pct"], 1),
            paper_text,
            _fixed(lossy["ratio"], 2),
        )
    return table


_PAPER_TABLES: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    "table2": ("Table II (link-layer schemes)", published.BALAKRISHNAN97_TABLE_II),
    "table3": ("Table III (end-to-end schemes)", published.BALAKRISHNAN97_TABLE_III),
    "table4": ("Table IV (split-connection schemes)", published.BALAKRISHNAN97_TABLE_IV),
}


def table3(cells: Sequence[Mapping[str, Any]], seeds: int) -> Table:
    """Table III in the paper's layout (see :func:`paper_table`)."""
    return paper_table(cells, "table3", seeds)


def paper_table(cells: Sequence[Mapping[str, Any]], table_id: str, seeds: int) -> Table:
    """Table II, III or IV in the paper's layout: a row per setting, a column per scheme;
    each cell measured Mb/s (wireless %, wired %), the paper's cell under it, and their
    ratio."""
    name, paper_cells = _PAPER_TABLES[table_id]
    schemes = list(paper_cells)
    table = Table(
        title=f"Balakrishnan et al. 1997 {name}, mean of {seeds} seeds\n"
        "each cell: measured Mb/s (wireless %, wired %) / the paper's / their ratio",
        title_justify="left",
        caption=published.BALAKRISHNAN97_SOURCE,
        caption_justify="left",
    )
    table.add_column("setting", no_wrap=True)
    for scheme in schemes:
        header = scheme.upper().replace("E2E-", "E2E-\n").replace("-TCP-AWARE", "-\nTCP-AWARE")
        table.add_column(header, justify="right", no_wrap=True)
    by_key = {(c["setting"], c["scheme"]): c for c in cells if c["table"] == table_id}
    for setting in published.SETTINGS:
        row = [setting]
        for scheme in schemes:
            cell, paper = by_key.get((setting, scheme)), paper_cells[scheme][setting]
            if cell is None or paper is None:
                row.append("not run")
                continue
            measured = _cell_text(
                cell["throughput_mbps"],
                cell["wireless_goodput_pct"],
                cell["wired_goodput_pct"],
                ",",
            )
            paper_text = _cell_text(
                paper.throughput_mbps, paper.wireless_goodput_pct, paper.wired_goodput_pct, ","
            )
            row.append(f"{measured}\n{paper_text}\n×{_fixed(cell['ratio'], 2)}")
        table.add_row(*row)
    return table


def grid_table(cells: Sequence[Mapping[str, Any]], table_id: str, title: str) -> Table:
    """Cells with no published numbers (Table V, Fig. 12): a row per scheme, a column per
    setting, each cell Mb/s (wireless %, wired %)."""
    chosen = [c for c in cells if c["table"] == table_id]
    settings = list(dict.fromkeys(str(c["setting"]) for c in chosen))
    schemes = list(dict.fromkeys(str(c["scheme"]) for c in chosen))
    table = Table(title=title, title_justify="left", caption=published.BALAKRISHNAN97_SOURCE)
    table.add_column("scheme", no_wrap=True)
    for setting in settings:
        table.add_column(setting, justify="right", no_wrap=True)
    by_key = {(str(c["setting"]), str(c["scheme"])): c for c in chosen}
    for scheme in schemes:
        row = [scheme.upper()]
        for setting in settings:
            cell = by_key.get((setting, scheme))
            row.append(
                "-"
                if cell is None
                else _cell_text(
                    cell["throughput_mbps"], cell["wireless_goodput_pct"], cell["wired_goodput_pct"]
                )
            )
        table.add_row(*row)
    return table


def elaarag_table(cells: Sequence[Mapping[str, Any]], seeds: int) -> Table:
    """ElAarag's Table I: TCP Tahoe throughput in packets/s at two bit error rates."""
    table = Table(
        title=f"ElAarag 2002 Table I (TCP Tahoe), mean of {seeds} seeds",
        title_justify="left",
        caption=published.ELAARAG02_SOURCE,
        caption_justify="left",
    )
    table.add_column("setting")
    for header in ("throughput pkts/s", "paper", "ratio"):
        table.add_column(header, justify="right")
    for cell in cells:
        if cell["table"] != "elaarag02:I":
            continue
        table.add_row(
            str(cell["setting"]),
            _fixed(cell["throughput_pps"], 3),
            _fixed(cell["published"], 3),
            _fixed(cell["ratio"], 2),
        )
    return table


def _missing(value: Any) -> bool:
    """``None``, or NaN (what a DataFrame holds where a failed run has no value)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _scaled(value: Any, factor: float) -> float | None:
    return None if _missing(value) else float(value) * factor


def _fixed(value: Any, digits: int) -> str:
    return "-" if _missing(value) else f"{float(value):.{digits}f}"


def _count(value: Any) -> str:
    if _missing(value):
        return "-"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}"  # a mean over seeds
    return str(int(value))


def sweep_table(document: Mapping[str, Any]) -> Table:
    """A sweep's grid points: parameters, runs ok/failed and the means over seeds."""
    points: Sequence[Mapping[str, Any]] = document.get("points", [])
    caption = (
        f"{document.get('runs')} runs: {document.get('ran')} ran, "
        f"{document.get('skipped')} already stored, {document.get('failed')} failed; "
        f"{document.get('seconds')} s; store {document.get('store')}"
    )
    table = Table(title=f"sweep {document.get('plan')}", title_justify="left", caption=caption)
    params = list(points[0]["params"]) if points else []
    goodputs = list(dict.fromkeys(name for p in points for name in p["goodput_pct"]))
    for name in params:
        table.add_column(name)
    for header in ("ok", "failed", "throughput Mb/s", "retransmits", "timeouts"):
        table.add_column(header, justify="right")
    for name in goodputs:
        table.add_column(f"goodput % {name}", justify="right")
    for point in points:
        table.add_row(
            *(str(point["params"][name]) for name in params),
            f"{point['ok']}/{point['runs']}",
            _count(point.get("failed")),
            _fixed(point.get("throughput_mbps"), 3),
            _fixed(point.get("retransmits"), 1),
            _fixed(point.get("timeouts"), 1),
            *(_fixed(point["goodput_pct"].get(name), 2) for name in goodputs),
        )
    return table


_RESULT_COLUMNS = ("throughput_mbps", "retransmits", "timeouts", "fast_retransmits")


def results_table(frame: Any, limit: int) -> Table:
    """Stored runs (a DataFrame from ``lasthop.load_results``), the first ``limit``."""
    params = param_columns(frame)
    goodputs = [c for c in frame.columns if c.startswith("goodput:")]
    shown = min(limit, len(frame))
    caption = f"{len(frame)} runs" + (f", first {shown} shown" if shown < len(frame) else "")
    table = Table(title="stored runs", title_justify="left", caption=caption)
    for header in ("plan", *params, "seed", "status"):
        table.add_column(header)
    for header in ("throughput Mb/s", "retransmits", "timeouts", "fast rxmt"):
        table.add_column(header, justify="right")
    for column in goodputs:
        table.add_column(column.replace("goodput:", "goodput % "), justify="right")
    for row in frame.head(shown).to_dict("records"):
        status = str(row["status"]) if row["status"] == "ok" else f"failed: {row['error']}"
        table.add_row(
            str(row.get("plan") or ""),
            *(str(row.get(c)) for c in params),
            str(row["seed"]),
            status,
            _fixed(row.get("throughput_mbps"), 3),
            *(_count(row.get(c)) for c in _RESULT_COLUMNS[1:]),
            *(_fixed(_scaled(row.get(c), 100.0), 2) for c in goodputs),
        )
    return table
