"""Rich tables for ``--format table``: what a person reads. ``--format json`` is what
programs read; the two carry the same numbers."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from lasthop.columns import param_columns
from lasthop.papers.balakrishnan97 import published
from lasthop.papers.elaarag02 import published as elaarag02_published


class FittedTable:
    """A table that fits the console's width without cutting anything short.

    Printed as one rich table when it fits; otherwise as several in a row, each with the
    leading ``labels`` columns (the row names) and as many of the other columns, in
    order, as fit, the parts as even as they can be. (Rich would instead shorten cells to
    ``lan-3…`` and wrap ``0.55 (97.0, 96.0)`` over three lines.) Cells never wrap; a
    header wraps where it has a line break.
    """

    def __init__(
        self,
        title: str,
        labels: Sequence[str],
        columns: Sequence[str],
        caption: str | None = None,
    ) -> None:
        self.title = title
        self.caption = caption
        self.headers = [*labels, *columns]
        self.labels = len(labels)
        self.rows: list[tuple[str, ...]] = []

    def add_row(self, *cells: str) -> None:
        if len(cells) != len(self.headers):
            raise ValueError(f"expected {len(self.headers)} cells, got {len(cells)}")
        self.rows.append(cells)

    def table(self, columns: Sequence[int] | None = None, part: int = 0, parts: int = 1) -> Table:
        """The rich table of the label columns and the data columns ``columns`` (indices
        among the data columns; default all), as part ``part`` of ``parts``."""
        chosen = range(len(self.headers) - self.labels) if columns is None else columns
        keep = [*range(self.labels), *(self.labels + c for c in chosen)]
        title = self.title if part == 0 else f"{self.title.splitlines()[0]} (continued)"
        table = Table(
            title=title,
            title_justify="left",
            caption=self.caption if part == parts - 1 else None,
            caption_justify="left",
        )
        for i in keep:
            table.add_column(
                self.headers[i], justify="left" if i < self.labels else "right", no_wrap=True
            )
        for row in self.rows:
            table.add_row(*(row[i] for i in keep))
        return table

    def parts(self, console: Console, options: ConsoleOptions) -> list[list[int]]:
        """The data columns of each part at the width ``options`` gives."""
        n = len(self.headers) - self.labels
        if n == 0:
            return [[]]

        # Measured without a limit: rich clamps a measurement to the width it is given.
        unlimited = options.update_width(1_000_000)

        def fits(columns: list[int]) -> bool:
            width = Measurement.get(console, unlimited, self.table(columns)).maximum
            return width <= options.max_width

        greedy: list[list[int]] = []
        for c in range(n):
            if greedy and fits([*greedy[-1], c]):
                greedy[-1].append(c)
            else:
                greedy.append([c])
        k = len(greedy)
        bounds = [-(-i * n // k) for i in range(k + 1)]  # ceilings: larger parts first
        even = [list(range(bounds[i], bounds[i + 1])) for i in range(k)]
        return even if all(fits(p) for p in even) else greedy

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        parts = self.parts(console, options)
        for i, columns in enumerate(parts):
            yield self.table(columns, i, len(parts))


def flows_table(flows: Sequence[Mapping[str, Any]], title: str) -> FittedTable:
    """Per-flow metrics: throughput, transfer time, retransmissions, timeouts."""
    table = FittedTable(
        title,
        ["flow"],
        [
            "throughput\nMb/s",
            "transfer\ntime s",
            "retrans-\nmits",
            "timeouts",
            "fast\nretrans-\nmits",
            "local\nretrans-\nmits",
        ],
    )
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


def published_table(cell: Mapping[str, Any], title: str) -> FittedTable:
    """The published cell beside the measured one, as the paper prints cells:
    throughput Mb/s (wireless goodput %, wired goodput %), and their ratio."""
    table = FittedTable(
        title, ["cell"], ["published", "measured", "ratio"], caption=str(cell.get("source", ""))
    )
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


def links_table(links: Sequence[Mapping[str, Any]], title: str) -> FittedTable:
    """Per-link-direction metrics: goodput and drops by cause."""
    table = FittedTable(title, ["link", "direction"], ["goodput %", "drops\nerror", "drops\nqueue"])
    for link in links:
        table.add_row(
            str(link.get("name", "")),
            str(link.get("direction", "")),
            _fixed(_scaled(link.get("goodput"), 100.0), 2),
            _count(link.get("drops_error")),
            _count(link.get("drops_queue")),
        )
    return table


def dcf_table(medium: Mapping[str, Any], title: str) -> FittedTable:
    """Per station of an 802.11 DCF medium (seed 004): data-frame attempts and their
    fates, and where its time went."""
    table = FittedTable(
        title,
        ["node"],
        [
            "frames\nin",
            "attempts",
            "retries",
            "colli-\nsions",
            "cor-\nrupted",
            "backoff\ns",
            "air s",
            "drops\nretry\nlimit",
            "drops\nqueue",
        ],
    )
    for s in medium.get("stations", []):
        table.add_row(
            str(s.get("node", "")),
            _count(s.get("frames_enqueued")),
            _count(s.get("attempts")),
            _count(s.get("retries")),
            _count(s.get("collisions")),
            _count(s.get("corrupted")),
            _fixed(s.get("backoff_s"), 2),
            _fixed(s.get("airtime_s"), 2),
            _count(s.get("drops_retry_limit")),
            _count(s.get("drops_queue")),
        )
    return table


def radios_table(medium: Mapping[str, Any], title: str) -> FittedTable:
    """Per radio of a shared medium (seed 001 Sec. 5): frames handed to it, data frames
    it sent (link retransmissions among them), and where its time went."""
    table = FittedTable(
        title,
        ["node"],
        [
            "frames\nin",
            "data\nsent",
            "link\nretrans-\nmits",
            "turn-\naround s",
            "RTS/CTS\ns",
            "backoff\ns",
            "air s",
            "drops\nqueue",
        ],
    )
    for r in medium.get("radios", []):
        table.add_row(
            str(r.get("node", "")),
            _count(r.get("frames_enqueued")),
            _count(r.get("data_frames_sent")),
            _count(r.get("link_retransmissions")),
            _fixed(r.get("turnaround_s"), 2),
            _fixed(r.get("rts_cts_s"), 2),
            _fixed(r.get("backoff_s"), 2),
            _fixed(r.get("airtime_s"), 2),
            _count(r.get("drops_queue")),
        )
    return table


def bench_table(cases: Sequence[Mapping[str, Any]]) -> FittedTable:
    """The benchmark's cases, one per row: median wall and CPU time per run (CPU time is
    what to compare across a loaded and a quiet machine), events per CPU second (best
    run or batch), simulated seconds per wall second (median), CPU ns per event and its
    ratio to the one-flow reference."""
    table = FittedTable(
        "lasthop bench (medians; events/s of the best)",
        ["case"],
        [
            "runs",
            "events\nper run",
            "load\nms",
            "wall ms\nper run",
            "CPU ms\nper run",
            "M events\nper CPU s",
            "sim s per\nwall s",
            "CPU ns\nper event",
            "ns/event\nratio",
        ],
    )
    for case in cases:
        ratio = _fixed(case.get("ns_per_event_ratio"), 2)
        table.add_row(
            str(case.get("case", "")),
            _count(case.get("runs")),
            _thousands(case.get("events_per_run")),
            _fixed(case.get("load_ms"), 1),
            _fixed(case.get("wall_ms_per_run_median"), 2),
            _fixed(case.get("cpu_ms_per_run_median"), 2),
            _fixed(_scaled(case.get("events_per_s"), 1e-6), 2),
            _fixed(case.get("sim_s_per_wall_s"), 1),
            _fixed(case.get("ns_per_event"), 1),
            ratio if ratio == "-" else f"{ratio} × {case.get('reference')}",
        )
    return table


def balakrishnan_table(cells: Sequence[Mapping[str, Any]], seeds: int) -> FittedTable:
    """The 1997 baseline: error-free peak and E2E (TCP Reno) at one error per 64 KB, per
    setting, beside the published figures."""
    table = FittedTable(
        f"Balakrishnan et al. 1997: peak and Table III E2E (TCP Reno), {seeds} seeds",
        ["setting"],
        [
            "error-free\nMb/s",
            "paper\npeak",
            "ratio",
            "E2E Mb/s\n1 err/64 KB",
            "wireless\ngoodput %",
            "wired\ngoodput %",
            "paper E2E\nMb/s (wl %, wd %)",
            "ratio",
        ],
        caption=published.BALAKRISHNAN97_SOURCE,
    )
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


def paper_table(cells: Sequence[Mapping[str, Any]], table_id: str, seeds: int) -> FittedTable:
    """Table II, III or IV in the paper's layout: a row per setting, a column per scheme;
    each cell measured Mb/s (wireless %, wired %), the paper's cell under it, and their
    ratio."""
    name, paper_cells = _PAPER_TABLES[table_id]
    schemes = list(paper_cells)
    table = FittedTable(
        f"Balakrishnan et al. 1997 {name}, mean of {seeds} seeds\n"
        "each cell: measured Mb/s (wireless %, wired %) / the paper's / their ratio",
        ["setting"],
        [
            scheme.upper().replace("E2E-", "E2E-\n").replace("-TCP-AWARE", "-\nTCP-AWARE")
            for scheme in schemes
        ],
        caption=published.BALAKRISHNAN97_SOURCE,
    )
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


def grid_table(cells: Sequence[Mapping[str, Any]], table_id: str, title: str) -> FittedTable:
    """Cells with no published numbers (Table V, Fig. 12): a row per scheme, a column per
    setting, each cell Mb/s (wireless %, wired %)."""
    chosen = [c for c in cells if c["table"] == table_id]
    settings = list(dict.fromkeys(str(c["setting"]) for c in chosen))
    schemes = list(dict.fromkeys(str(c["scheme"]) for c in chosen))
    table = FittedTable(title, ["scheme"], settings, caption=published.BALAKRISHNAN97_SOURCE)
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


_VERDICT_STYLE = {"holds": "green", "fails": "bold red", "unchecked": "yellow"}


def claims_table(claims: Sequence[Mapping[str, Any]], title: str) -> Table:
    """The papers' claims (as ``lasthop.reproduction.claims.evaluate`` gives them): the
    verdict, then the claim's id and section, the paper's words, how they are checked and
    the measured figures. The text column wraps to the terminal's width."""
    from lasthop.reproduction.claims import figures_text

    held = sum(1 for c in claims if c["status"] == "holds")
    failed = sum(1 for c in claims if c["status"] == "fails")
    table = Table(
        title=title,
        title_justify="left",
        caption=f"{held} hold, {failed} fail, {len(claims) - held - failed} not checked",
        caption_justify="left",
        show_lines=True,
    )
    table.add_column("verdict", no_wrap=True)
    table.add_column("claim", ratio=1, overflow="fold")
    for claim in claims:
        status = str(claim["status"])
        measured = (
            f"measured: {figures_text(claim['figures'])}"
            if claim["figures"]
            else f"not checked: {claim.get('reason', '')}"
        )
        text = Text()
        text.append(str(claim["id"]), style="bold")
        text.append(
            f" ({claim['section']}) {claim['statement']}\n"
            f"checked as: {claim['checked_as']}\n{measured}"
        )
        table.add_row(Text(status, style=_VERDICT_STYLE.get(status, "")), text)
    return table


def deviations_table(deviations: Sequence[Mapping[str, Any]], title: str) -> Table:
    """Failed claims and cells outside 0.8-1.25 of the published value, grouped by their
    explanation (each text once)."""
    from lasthop.reproduction.claims import grouped

    table = Table(
        title=title,
        title_justify="left",
        caption="Explanations: DEVIATIONS in python/lasthop/papers/claims_<paper>.py",
        caption_justify="left",
        show_lines=True,
    )
    table.add_column("deviations and their cause", ratio=1, overflow="fold")
    for explanation, found in grouped(deviations):
        text = Text()
        for d in found:
            text.append(str(d["key"]), style="bold")
            text.append(f" ({d['kind']}): {d['what']}\n")
        text.append("cause: ", style="italic")
        text.append(explanation)
        table.add_row(text)
    return table


def elaarag_table(cells: Sequence[Mapping[str, Any]], seeds: int) -> FittedTable:
    """ElAarag's Table I: TCP Tahoe throughput in packets/s at two bit error rates."""
    table = FittedTable(
        f"ElAarag 2002 Table I (TCP Tahoe), mean of {seeds} seeds",
        ["setting"],
        ["throughput\npkts/s", "paper", "ratio"],
        caption=elaarag02_published.ELAARAG02_SOURCE,
    )
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


def _thousands(value: Any) -> str:
    return "-" if _missing(value) else f"{float(value):,.0f}"


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


def balakrishnan99_tables(cells: Sequence[Mapping[str, Any]], seeds: int) -> list[FittedTable]:
    """Tables T1-T4 of Balakrishnan, Padmanabhan, Katz 1999 (bandwidth asymmetry) in the
    paper's layout, from the ``b99-*`` cells; the seed lost every number, so there is no
    published row."""
    from lasthop.papers.balakrishnan99 import experiments as b99

    by = {(str(c["table"]), str(c["setting"]), str(c["scheme"])): c for c in cells}
    caption = b99.SOURCE
    out: list[FittedTable] = []

    def get(table: str, setting: str, scheme: str, key: str) -> Any:
        c = by.get((table, setting, scheme))
        return None if c is None else c.get(key)

    if any(t == "b99-t1" for t, _, _ in by):
        settings = [s for s, _, _ in b99.T1_SETTINGS]
        heads = [
            f"{s.replace('-c', ' C')}\nk={_fixed(get('b99-t1', s, 'reno', 'k'), 1)}"
            for s in settings
        ]
        t1 = FittedTable(
            f"Balakrishnan et al. 1999 T1: one-way lossless (E-S1), throughput Mb/s, mean of "
            f"{seeds} seeds (C: header compression, 6-byte acks)",
            ["protocol"],
            heads,
            caption=caption,
        )
        for p in b99.T1_PROTOCOLS:
            t1.add_row(
                b99.protocol_name(p),
                *(_fixed(get("b99-t1", s, p, "throughput_mbps"), 3) for s in settings),
            )
        out.append(t1)
    if any(t == "b99-t1b" for t, _, _ in by):
        settings = [f"rq-{b}" for b in b99.T1B_BUFFERS]
        t1b = FittedTable(
            f"E-S1b: 9.6 kb/s C by reverse buffer (packets), throughput Mb/s, mean of {seeds} "
            "seeds",
            ["protocol"],
            [f"{b} pkts" for b in b99.T1B_BUFFERS],
            caption=caption,
        )
        for p in b99.T1B_PROTOCOLS:
            t1b.add_row(
                b99.protocol_name(p),
                *(_fixed(get("b99-t1b", s, p, "throughput_mbps"), 3) for s in settings),
            )
        out.append(t1b)
    if any(t == "b99-t2" for t, _, _ in by):
        protocols = list(b99.T2_PROTOCOLS)
        t2 = FittedTable(
            f"Balakrishnan et al. 1999 T2: one-way with forward losses (E-S2), mean of {seeds} "
            "seeds",
            ["metric"],
            [b99.protocol_name(p).replace(", ", ",\n") for p in protocols],
            caption=caption,
        )
        for label, key, digits in (
            ("throughput (Mb/s)", "throughput_mbps", 3),
            ("average cwnd (pkts)", "mean_cwnd_segments", 1),
            ("cwnd sd (pkts)", "cwnd_std_segments", 1),
            ("average RTT (ms)", "mean_rtt_ms", 0),
        ):
            t2.add_row(label, *(_fixed(get("b99-t2", "lossy", p, key), digits) for p in protocols))
        out.append(t2)
    if any(t == "b99-t3" for t, _, _ in by):
        t3 = FittedTable(
            f"Balakrishnan et al. 1999 T3: two simultaneous forward transfers (E-S3), mean of "
            f"{seeds} seeds",
            ["protocol"],
            ["aggregate (Mb/s)", "fairness index"],
            caption=caption,
        )
        for p in b99.T3_PROTOCOLS:
            t3.add_row(
                b99.protocol_name(p),
                _fixed(get("b99-t3", "two-forward", p, "aggregate_mbps"), 3),
                _fixed(get("b99-t3", "two-forward", p, "jain_index"), 3),
            )
        out.append(t3)
    if any(t == "b99-t4" for t, _, _ in by):
        t4 = FittedTable(
            f"Balakrishnan et al. 1999 T4: two-way transfers (E-S4), over the time both are "
            f"active, mean of {seeds} seeds",
            ["protocol"],
            ["forward (Mb/s)", "reverse (kb/s)"],
            caption=caption,
        )
        for p in b99.T4_PROTOCOLS:
            for scheduling in b99.T4_SCHEDULING:
                name = b99.protocol_name(p) + (" + acks-first" if scheduling != "fifo" else "")
                t4.add_row(
                    name,
                    _fixed(get("b99-t4", scheduling, p, "forward_mbps"), 3),
                    _fixed(get("b99-t4", scheduling, p, "reverse_kbps"), 2),
                )
        out.append(t4)
    out += _latency_tables(get, {t for t, _, _ in by}, seeds, caption)
    # The testbed half: figures F19-F21 as tables.
    from lasthop.papers.balakrishnan99 import testbed as balakrishnan99_testbed

    out += balakrishnan99_testbed.tables(cells, seeds)
    return out


def _latency_tables(get: Any, tables: set[str], seeds: int, caption: str) -> list[FittedTable]:
    """Seed 001's latency-asymmetry tables: T6 (hops), T7 (connections), F15 (hosts)."""
    from lasthop.papers.balakrishnan99 import experiments as b99

    out: list[FittedTable] = []
    if "b99-f14" in tables:
        f14 = FittedTable(
            f"Balakrishnan et al. 1999 F14: 1 MB over wireless cable, packet-radio return "
            f"(E-T4), kb/s (sd over {seeds} seeds)",
            ["socket buffer"],
            ["Reno (BSD/OS)"],
            caption=caption,
        )
        for kb in b99.F14_BUFFERS_KB:
            s = f"{kb}-KB"
            f14.add_row(
                f"{kb} KB",
                f"{_fixed(get('b99-f14', s, 'reno', 'throughput_kbps'), 1)} "
                f"({_fixed(get('b99-f14', s, 'reno', 'throughput_sd_kbps'), 2)})",
            )
        out.append(f14)
    if "b99-t6" in tables:
        t5 = FittedTable(
            "Balakrishnan et al. 1999 T5: multi-hop packet-radio parameters (E-S5..E-S7; "
            "the seed lost every value)",
            ["parameter"],
            ["value", "unit", "source"],
            caption=caption,
        )
        for name, value, unit, source in b99.t5_rows():
            t5.add_row(name, value, unit, source)
        out.append(t5)
        t6 = FittedTable(
            f"Balakrishnan et al. 1999 T6: bulk transfer over a packet-radio chain (E-S5), "
            f"kb/s (mean RTT s, RTT sd s), mean of {seeds} seeds",
            ["hops"],
            [b99.protocol_name(p) for p in b99.T6_PROTOCOLS],
            caption=caption,
        )
        for h in b99.T6_HOPS:
            cells = []
            for p in b99.T6_PROTOCOLS:
                kbps = get("b99-t6", f"{h}-hop", p, "throughput_kbps")
                rtt = get("b99-t6", f"{h}-hop", p, "mean_rtt_ms")
                sd = get("b99-t6", f"{h}-hop", p, "rtt_std_ms")
                cells.append(
                    f"{_fixed(kbps, 1)} ({_fixed(None if rtt is None else rtt / 1e3, 2)}, "
                    f"{_fixed(None if sd is None else sd / 1e3, 2)})"
                )
            t6.add_row(str(h), *cells)
        out.append(t6)
    if "b99-t7" in tables:
        t7 = FittedTable(
            f"Balakrishnan et al. 1999 T7, F13: connections over one radio hop (E-S6), "
            f"aggregate kb/s (per-connection sd) and fairness, mean of {seeds} seeds",
            ["connections"],
            [b99.protocol_name(p) for p in b99.T7_PROTOCOLS]
            + [f"{b99.protocol_name(p)} fairness" for p in b99.T7_PROTOCOLS],
            caption=caption,
        )
        for n in b99.T7_CONNECTIONS:
            s = f"{n}-conn"
            t7.add_row(
                str(n),
                *(
                    f"{_fixed(get('b99-t7', s, p, 'aggregate_kbps'), 1)} "
                    f"({_fixed(get('b99-t7', s, p, 'per_connection_sd_kbps'), 1)})"
                    for p in b99.T7_PROTOCOLS
                ),
                *(_fixed(get("b99-t7", s, p, "jain_index"), 3) for p in b99.T7_PROTOCOLS),
            )
        out.append(t7)
    if "b99-f15" in tables:
        f15 = FittedTable(
            f"Balakrishnan et al. 1999 F15: web transactions over wireless cable with a "
            f"packet-radio return (E-S7), mean completion time s (sd), {seeds} seeds",
            ["hosts"],
            [b99.F15_PROTOCOL_NAMES[p] for p in b99.F15_PROTOCOLS],
            caption=caption,
        )
        for h in b99.F15_HOSTS:
            s = f"{h}-hosts"
            f15.add_row(
                str(h),
                *(
                    f"{_fixed(get('b99-f15', s, p, 'completion_mean_s'), 2)} "
                    f"({_fixed(get('b99-f15', s, p, 'completion_sd_s'), 2)})"
                    for p in b99.F15_PROTOCOLS
                ),
            )
        out.append(f15)
    return out
