"""Rich tables for ``--format table``: what a person reads. ``--format json`` is what
programs read; the two carry the same numbers.

:class:`FittedTable` and the formatting helpers (:func:`fixed`, :func:`cell_text`) serve the
papers' own tables too (``lasthop.papers.<paper>.tables``); the tables here know no paper."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from lasthop.columns import param_columns


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
        self._widths: list[int] | None = None
        self._measured = 0

    def add_row(self, *cells: str) -> None:
        if len(cells) != len(self.headers):
            raise ValueError(f"expected {len(self.headers)} cells, got {len(cells)}")
        self.rows.append(cells)

    def widths(self) -> list[int]:
        """Each column's width: its widest cell or header line, in terminal cells.

        Given to rich as the columns' widths, so that measuring a table costs a step per
        column, not one per cell: :meth:`parts` measures the table once per candidate
        part, and measuring each cell every time made a 20,000-flow run's table take 110 s
        to print (cells never wrap, so this is the width rich would measure)."""
        if self._widths is None or self._measured != len(self.rows):
            self._widths = [_lines_len(header) for header in self.headers]
            for row in self.rows:
                for i, cell in enumerate(row):
                    # cell_len counts wide characters twice.
                    width = _lines_len(cell) if "\n" in cell else cell_len(cell)
                    self._widths[i] = max(self._widths[i], width)
            self._measured = len(self.rows)
        return self._widths

    def table(self, columns: Sequence[int] | None = None, part: int = 0, parts: int = 1) -> Table:
        """The rich table of the label columns and the data columns ``columns`` (indices
        among the data columns; default all), as part ``part`` of ``parts``."""
        widths = self.widths()
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
                self.headers[i],
                justify="left" if i < self.labels else "right",
                no_wrap=True,
                width=widths[i],
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


def _lines_len(text: str) -> int:
    """The width of ``text``'s widest line, in terminal cells."""
    return max(cell_len(line) for line in text.split("\n"))


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
            fixed(_scaled(flow.get("throughput_bps"), 1e-6), 3),
            fixed(flow.get("transfer_time_s"), 3),
            _count(flow.get("retransmits")),
            _count(flow.get("timeouts")),
            _count(flow.get("fast_retransmits")),
            _count(flow.get("local_retransmits")),
        )
    return table


def cell_text(mbps: Any, wireless: Any, wired: Any, sep: str = ", ") -> str:
    """A cell as the 1997 paper prints it: Mb/s (wireless goodput %, wired goodput %)."""
    return f"{fixed(mbps, 2)} ({fixed(wireless, 1)}{sep}{fixed(wired, 1)})"


def published_table(cell: Mapping[str, Any], title: str) -> FittedTable:
    """The published cell beside the measured one, as the paper prints cells:
    throughput Mb/s (wireless goodput %, wired goodput %), and their ratio."""
    table = FittedTable(
        title, ["cell"], ["published", "measured", "ratio"], caption=str(cell.get("source", ""))
    )
    table.add_row(
        str(cell.get("cell", "")),
        cell_text(
            cell.get("throughput_mbps"),
            cell.get("wireless_goodput_pct"),
            cell.get("wired_goodput_pct"),
        ),
        cell_text(
            cell.get("measured_throughput_mbps"),
            cell.get("measured_wireless_goodput_pct"),
            cell.get("measured_wired_goodput_pct"),
        ),
        fixed(cell.get("ratio"), 2),
    )
    return table


def links_table(links: Sequence[Mapping[str, Any]], title: str) -> FittedTable:
    """Per-link-direction metrics: goodput and drops by cause (outages' drops where a
    link has outages or is a mobile host's link to a station)."""
    outages = any(link.get("drops_outage") is not None for link in links)
    columns = ["goodput %", "drops\nerror", "drops\nqueue"] + (["drops\noutage"] if outages else [])
    table = FittedTable(title, ["link", "direction"], columns)
    for link in links:
        cells = [
            str(link.get("name", "")),
            str(link.get("direction", "")),
            fixed(_scaled(link.get("goodput"), 100.0), 2),
            _count(link.get("drops_error")),
            _count(link.get("drops_queue")),
        ]
        if outages:
            drops = link.get("drops_outage")
            cells.append("-" if drops is None else _count(drops))
        table.add_row(*cells)
    return table


def handoffs_table(handoffs: Sequence[Mapping[str, Any]], title: str) -> FittedTable:
    """Each handoff of the mobile hosts (seed 002): when it began and completed, the
    stations, and the packets queued on the old link, lost to it and stranded at the
    old station after the routes switched; with I-TCP's handoff, the bytes its state
    transfer moved and when it was installed at the new station; with snoop's
    multicast handoff, the segments the new station sent from its buffer."""
    itcp = any("state_bytes" in h for h in handoffs)
    multicast = any("replayed" in h for h in handoffs)
    table = FittedTable(
        title,
        ["mobile", "from", "to"],
        ["start s", "complete s", "queued", "lost", "stranded"]
        + (["state\nbytes", "installed\ns"] if itcp else [])
        + (["replayed"] if multicast else []),
    )
    for h in handoffs:
        cells = [
            str(h.get("mobile", "")),
            str(h.get("from", "")),
            str(h.get("to", "")),
            fixed(h.get("start_s"), 3),
            fixed(h.get("complete_s"), 3),
            _count(h.get("queued")),
            _count(h.get("lost")),
            _count(h.get("stranded")),
        ]
        if itcp:
            cells += [_count(h.get("state_bytes")), fixed(h.get("state_installed_s"), 3)]
        if multicast:
            cells.append(_count(h.get("replayed")))
        table.add_row(*cells)
    return table


def wap_table(sessions: Sequence[Mapping[str, Any]], title: str) -> FittedTable:
    """Each ``wap`` workload's page fetches (seed 002 Sec. 5.3): by WAP (WSP/WTP class 2
    to a gateway) or by HTTP over TCP, the pages fetched and aborted, the mean fetch time
    and frames on the bearer per page, and WSP's session counts."""
    table = FittedTable(
        title,
        ["flow", "protocol"],
        ["fetched", "aborted", "mean\nfetch s", "bearer\nframes", "connects", "resumes"],
    )
    for w in sessions:
        table.add_row(
            str(w.get("flow", "")),
            str(w.get("protocol", "")),
            _count(w.get("fetched")),
            _count(w.get("aborted")),
            fixed(w.get("mean_fetch_s"), 3),
            fixed(w.get("mean_bearer_frames"), 2),
            _count(w.get("connects")),
            _count(w.get("resumes")),
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
            fixed(s.get("backoff_s"), 2),
            fixed(s.get("airtime_s"), 2),
            _count(s.get("drops_retry_limit")),
            _count(s.get("drops_queue")),
        )
    return table


def circuit_table(medium: Mapping[str, Any], title: str) -> FittedTable:
    """Per end of an RLP circuit (seed 002 Sec. 5.1, ``mac = "rlp"``): packets handed
    to it, the frames it sent (RLP's retransmissions and status frames among them), the
    frames its error model corrupted, packets it handed up, and its drops."""
    table = FittedTable(
        title,
        ["node"],
        [
            "packets\nin",
            "frames\nsent",
            "frame\nretrans-\nmits",
            "status\nframes",
            "cor-\nrupted",
            "packets\nhanded\nup",
            "drops\nretry\nlimit",
            "drops\nqueue",
        ],
    )
    for c in medium.get("circuit", []):
        table.add_row(
            str(c.get("node", "")),
            _count(c.get("packets_enqueued")),
            _count(c.get("frames_sent")),
            _count(c.get("frame_retransmissions")),
            _count(c.get("status_frames")),
            _count(c.get("frames_corrupted")),
            _count(c.get("packets_delivered")),
            _count(c.get("drops_retry_limit")),
            _count(c.get("drops_queue")),
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
            fixed(r.get("turnaround_s"), 2),
            fixed(r.get("rts_cts_s"), 2),
            fixed(r.get("backoff_s"), 2),
            fixed(r.get("airtime_s"), 2),
            _count(r.get("drops_queue")),
        )
    return table


def bench_table(cases: Sequence[Mapping[str, Any]]) -> FittedTable:
    """The benchmark's cases, one per row: median wall and CPU time per run (CPU time is
    what to compare across a loaded and a quiet machine), events per CPU second (best
    run or batch), simulated seconds per wall second (median), CPU ns per event and its
    ratio to the one-flow reference; a sweep's median time to its first stored result,
    and each case's peak resident memory."""
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
            "first\nresult ms",
            "peak\nMiB",
        ],
    )
    for case in cases:
        ratio = fixed(case.get("ns_per_event_ratio"), 2)
        peak = case.get("peak_rss_bytes")
        table.add_row(
            str(case.get("case", "")),
            _count(case.get("runs")),
            _thousands(case.get("events_per_run")),
            fixed(case.get("load_ms"), 1),
            fixed(case.get("wall_ms_per_run_median"), 2),
            fixed(case.get("cpu_ms_per_run_median"), 2),
            fixed(_scaled(case.get("events_per_s"), 1e-6), 2),
            fixed(case.get("sim_s_per_wall_s"), 1),
            fixed(case.get("ns_per_event"), 1),
            ratio if ratio == "-" else f"{ratio} × {case.get('reference')}",
            fixed(case.get("first_result_ms_median"), 0),
            fixed(_scaled(peak, 2**-20), 1),
        )
    return table


_VERDICT_STYLE = {
    "holds": "green",
    "fails": "bold red",
    "fails explained": "red",
    "fails open": "bold red",
    "unchecked": "yellow",
}


def claims_table(claims: Sequence[Mapping[str, Any]], title: str) -> Table:
    """The papers' claims (as a reproduction's ``claims``): the verdict (holds, fails
    explained, fails open, unchecked), then the claim's id and section, the paper's words,
    how they are checked and the measured figures with their 95% intervals. The text
    column wraps to the terminal's width."""
    from lasthop.reproduction.claims import figures_text

    counts: dict[str, int] = {}
    for claim in claims:
        verdict = str(claim.get("verdict", claim["status"]))
        counts[verdict] = counts.get(verdict, 0) + 1
    table = Table(
        title=title,
        title_justify="left",
        caption=", ".join(f"{n} {v}" for v, n in counts.items()),
        caption_justify="left",
        show_lines=True,
    )
    table.add_column("verdict", no_wrap=True)
    table.add_column("claim", ratio=1, overflow="fold")
    for claim in claims:
        verdict = str(claim.get("verdict", claim["status"]))
        measured = (
            f"measured: {figures_text(claim['figures'], claim.get('ci95'))}"
            if claim["figures"]
            else f"not checked: {claim.get('reason', '')}"
        )
        text = Text()
        text.append(str(claim["id"]), style="bold")
        text.append(
            f" ({claim['section']}) {claim['statement']}\n"
            f"checked as: {claim['checked_as']}\n{measured}"
        )
        table.add_row(Text(verdict.replace(" ", "\n"), style=_VERDICT_STYLE.get(verdict, "")), text)
    return table


def check_text(check: Mapping[str, Any]) -> str:
    """A variation's outcome in a line: what was varied, the figures after, and whether
    it moved them toward the paper."""
    from lasthop.reproduction.claims import figures_text, number

    after = check.get("shortfall_after")
    moved = "moves toward the paper" if check.get("moves_toward_paper") else "does not move it"
    if after is None:
        return f"{check['what']} ({' '.join(check['varied'])}): no cell of it could be re-run"
    figures = figures_text(check.get("figures", {}), check.get("ci95"))
    held = " (holds)" if check.get("holds_after") else ""
    return (
        f"{check['what']} ({' '.join(check['varied'])}): {figures}{held}; shortfall "
        f"{number(check['shortfall_before'])} -> {number(after)}: {moved}"
    )


def deviations_table(deviations: Sequence[Mapping[str, Any]], title: str) -> Table:
    """Failed claims and far cells, grouped by their explanation (each text once), with
    the cause, the run that varies it, the causes ruled out, and the status."""
    from lasthop.reproduction.deviations import grouped

    table = Table(
        title=title,
        title_justify="left",
        caption="Explanations: DEVIATIONS in python/lasthop/papers/<paper>/claims*.py",
        caption_justify="left",
        show_lines=True,
    )
    table.add_column("status", no_wrap=True)
    table.add_column("deviations and their cause", ratio=1, overflow="fold")
    for explanation, found in grouped(deviations):
        text = Text()
        for d in found:
            text.append(str(d["key"]), style="bold")
            text.append(f" ({d['kind']}): {d['what']}\n")
        text.append("cause: ", style="italic")
        text.append(f"{found[0].get('cause', '')}. {explanation}")
        checks = {check_text(d["check"]) for d in found if d.get("check")}
        for line in sorted(checks):
            text.append("\ncheck: ", style="italic")
            text.append(line)
        ruled = {check_text(r) for d in found for r in d.get("ruled_out", [])}
        for line in sorted(ruled):
            text.append("\nruled out: ", style="italic")
            text.append(line)
        statuses = sorted({str(d.get("status", "open")) for d in found})
        status = "/".join(statuses)
        style = "red" if statuses == ["explained"] else "bold red"
        table.add_row(Text(status, style=style), text)
    return table


def sensitivity_table(sensitivity: Mapping[str, Any]) -> FittedTable:
    """One unsourced default: its cells at each value (mean ± 95% half width)."""
    values = [str(v) for v in sensitivity["values"]]
    out = FittedTable(
        f"Sensitivity ({sensitivity['paper']}): {sensitivity['what']}",
        ["cell"],
        values,
    )
    for row in sensitivity["cells"]:
        texts = []
        for v in values:
            figure = row["values"].get(v) or {}
            mean, half = figure.get("mean"), figure.get("ci95")
            texts.append(
                "-"
                if mean is None
                else f"{fixed(mean, 3)}" + ("" if half is None else f"±{fixed(half, 3)}")
            )
        out.add_row(str(row["cell"]), *texts)
    return out


def live_table(live: Mapping[str, Any]) -> FittedTable:
    """``lasthop reproduce --live``'s cells (:mod:`lasthop.reproduction.live`): per cell
    the live throughput (mean ± 95% half width over the live seeds), the same scenario
    and transfer simulated, the published value, their ratios, and the retransmissions of
    the source and of the base station's agent, live / simulated."""
    cells = live["cells"]
    transfer = live.get("transfer_bytes")
    size = "the paper's transfer" if transfer is None else f"{transfer:,} bytes"
    table = FittedTable(
        f"Live: kernel TCP through lasthop's links and agents, {_seeds(live['seeds'])} live; "
        f"simulated: the same scenario, {size}, {_seeds(live['sim_seeds'])}",
        ["setting", "scheme"],
        [
            "live\nMb/s",
            "simulated\nMb/s",
            "live/\nsim",
            "paper\nMb/s",
            "live/\npaper",
            "source retx\nlive / sim",
            "local retx\nlive / sim",
            "wireless goodput %\nlive / sim",
        ],
        caption=(
            ""
            if all(c.get("completed", True) for c in cells)
            else f"{INCOMPLETE} a live transfer did not complete; "
        )
        + "retx: retransmitted segments per run, the source's (live: counted from the "
        "packets) and the base station agent's (local)",
    )
    for cell in cells:
        half = (cell.get("ci95") or {}).get("throughput_mbps")
        sim_half = (cell.get("sim_ci95") or {}).get("sim_throughput_mbps")
        mark = "" if cell.get("completed", True) else INCOMPLETE
        table.add_row(
            str(cell["setting"]),
            str(cell["scheme"]).upper(),
            interval(cell["throughput_mbps"], half, 3) + mark,
            interval(cell["sim_throughput_mbps"], sim_half, 3),
            fixed(cell["sim_ratio"], 2),
            fixed(cell["published"], 2),
            fixed(cell["ratio"], 2),
            f"{_count(cell['retransmits'])} / {_count(cell['sim_retransmits'])}",
            f"{_count(cell['local_retransmits'])} / {_count(cell['sim_local_retransmits'])}",
            f"{fixed(cell['wireless_goodput_pct'], 1)} / "
            f"{fixed(cell['sim_wireless_goodput_pct'], 1)}",
        )
    return table


def _seeds(n: int) -> str:
    return "1 seed" if n == 1 else f"mean of {n} seeds"


def summary_table(summary: Sequence[Mapping[str, Any]]) -> Table:
    """Per paper: claims that hold, fail explained, fail open, are not checked; far cells
    explained and open."""
    table = Table(title="Claims and deviations per paper", title_justify="left")
    for name in (
        "paper",
        "holds",
        "fails\nexplained",
        "fails\nopen",
        "not\nchecked",
        "far cells\nexplained",
        "far cells\nopen",
    ):
        table.add_column(name, justify="left" if name == "paper" else "right", no_wrap=True)
    for row in summary:
        table.add_row(
            str(row["paper"]),
            *(
                str(row[k])
                for k in (
                    "holds",
                    "fails_explained",
                    "fails_open",
                    "unchecked",
                    "far_cells_explained",
                    "far_cells_open",
                )
            ),
        )
    return table


def _missing(value: Any) -> bool:
    """``None``, or NaN (what a DataFrame holds where a failed run has no value)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _scaled(value: Any, factor: float) -> float | None:
    return None if _missing(value) else float(value) * factor


def fixed(value: Any, digits: int) -> str:
    """``value`` with ``digits`` decimals; ``-`` for a missing one (``None``, NaN)."""
    return "-" if _missing(value) else f"{float(value):.{digits}f}"


def _thousands(value: Any) -> str:
    return "-" if _missing(value) else f"{float(value):,.0f}"


def _count(value: Any) -> str:
    if _missing(value):
        return "-"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}"  # a mean over seeds
    return str(int(value))


MAX_GOODPUT_COLUMNS = 4
"""Tables show each link direction's goodput up to this many directions; a scenario with
more (yun09/cell has 42) says so in the caption: ``--format json`` and ``--export`` have
them all."""

MAX_FLOW_ROWS = 16
"""The sweep table shows a row per flow for scenarios of up to this many flows."""

INCOMPLETE = "*"
"""Marks a throughput whose transfer did not complete (the caption says so)."""


def interval(mean: Any, half: Any, digits: int) -> str:
    """``mean ± half`` (a 95% interval), or the mean alone where there is no half width
    (one run)."""
    if _missing(mean):
        return "-"
    return fixed(mean, digits) + ("" if _missing(half) else f" ± {fixed(half, digits)}")


def _goodput_columns(names: Sequence[str]) -> tuple[list[str], str | None]:
    """The link directions a table shows, and the caption line for those it does not."""
    if len(names) <= MAX_GOODPUT_COLUMNS:
        return list(names), None
    return [], (
        f"goodput of {len(names)} link directions not shown: --format json and --export have them"
    )


def _incomplete_note(what: str) -> str:
    return f"{INCOMPLETE} {what} did not complete (its throughput is over the time it ran)"


def sweep_table(document: Mapping[str, Any]) -> FittedTable:
    """A sweep's grid points: parameters, runs ok/failed, and over the ok runs the mean
    throughput with its 95% interval (Student's t over seeds), retransmissions and
    timeouts; for a scenario of several flows, the sum over its flows with Jain's index,
    then a row per flow (up to :data:`MAX_FLOW_ROWS` flows)."""
    points: Sequence[Mapping[str, Any]] = document.get("points", [])
    params = list(points[0]["params"]) if points else []
    several = any((p.get("flows") or 0) > 1 for p in points)
    goodputs, goodput_note = _goodput_columns(
        list(dict.fromkeys(name for p in points for name in p["goodput_pct"]))
    )
    columns = ["runs\nok", "failed", "throughput Mb/s\nmean ± 95%"]
    if several:
        columns.append("Jain's index\nmean ± 95%")
    columns += ["retrans-\nmits", "timeouts", *(f"goodput %\n{name}" for name in goodputs)]
    notes = [
        f"{document.get('runs')} runs: {document.get('ran')} ran, "
        f"{document.get('skipped')} already stored, {document.get('failed')} failed; "
        f"{document.get('seconds')} s; store {document.get('store')}"
    ]
    table = FittedTable(
        f"sweep {document.get('plan')}", [*params, *(["flow"] if several else [])], columns
    )
    marked = hidden = False
    for point in points:
        names = [str(point["params"][name]) for name in params]
        n = point.get("flows") or 0
        mark = INCOMPLETE if point.get("incomplete_runs") else ""
        marked = marked or bool(mark)
        row = [
            f"{point['ok']}/{point['runs']}",
            _count(point.get("failed")),
            interval(point.get("throughput_mbps"), point.get("throughput_ci95_mbps"), 3) + mark,
        ]
        if several:
            row.append(interval(point.get("jain_index"), point.get("jain_ci95"), 3))
        row += [
            fixed(point.get("retransmits"), 1),
            fixed(point.get("timeouts"), 1),
            *(fixed(point["goodput_pct"].get(name), 2) for name in goodputs),
        ]
        label = [f"sum of {n} flows" if n > 1 else "-"] if several else []
        table.add_row(*names, *label, *row)
        flows = point.get("per_flow") or []
        if len(flows) > MAX_FLOW_ROWS:
            hidden = True
            continue
        for flow in flows:
            mark = INCOMPLETE if flow.get("incomplete_runs") else ""
            cells = [
                "", "",
                interval(flow.get("throughput_mbps"), flow.get("throughput_ci95_mbps"), 3) + mark,
                *([""] if several else []),
                fixed(flow.get("retransmits"), 1),
                fixed(flow.get("timeouts"), 1),
                *("" for _ in goodputs),
            ]  # fmt: skip
            table.add_row(*names, str(flow.get("name", "")), *cells)
    if several:
        notes.append(
            "a run of several flows: its throughput, retransmits and timeouts are the sums "
            "over its flows, then a row per flow"
            + (f" (up to {MAX_FLOW_ROWS} flows: lasthop results --flow NAME)" if hidden else "")
        )
    notes.append("± 95% interval of the mean over seeds (Student's t); none with one run")
    if marked:
        notes.append(_incomplete_note("a transfer of some of the point's runs"))
    if goodput_note:
        notes.append(goodput_note)
    table.caption = "\n".join(notes)
    return table


_RESULT_COLUMNS = ("retransmits", "timeouts", "fast_retransmits")


def results_tables(frame: Any, limit: int) -> list[FittedTable]:
    """Stored runs (a DataFrame from ``lasthop.load_results``), the first ``limit``, and
    the mean of each plan's grid point (and flow) over its seeds, with its 95% interval
    (Student's t), when some point has several runs."""
    params = param_columns(frame)
    goodputs, goodput_note = _goodput_columns(
        [c for c in frame.columns if c.startswith("goodput:")]
    )
    several = "flows" in frame.columns and bool((frame["flows"].fillna(0) > 1).any())
    jain = several and "flow_index" not in frame.columns
    shown = min(limit, len(frame))
    notes = [f"{len(frame)} rows" + (f", first {shown} shown" if shown < len(frame) else "")]
    columns = ["status", "throughput\nMb/s", *(["Jain's\nindex"] if jain else [])]
    columns += ["retrans-\nmits", "timeouts", "fast\nretrans-\nmits"]
    columns += [c.replace("goodput:", "goodput %\n") for c in goodputs]
    table = FittedTable("stored runs", ["plan", *params, "seed", "flow"], columns)
    errors: dict[str, int] = {}
    marked = False
    for row in frame.head(shown).to_dict("records"):
        if row["status"] == "ok":
            status = "ok"
        else:
            number = errors.setdefault(str(row.get("error")), len(errors) + 1)
            status = f"failed [{number}]"
        completed = row.get("completed")
        mark = INCOMPLETE if not _missing(completed) and not bool(completed) else ""
        marked = marked or bool(mark)
        table.add_row(
            str(row.get("plan") or ""),
            *(_text(row.get(c)) for c in params),
            str(row["seed"]),
            _text(row.get("flow")),
            status,
            fixed(row.get("throughput_mbps"), 3) + mark,
            *([fixed(row.get("jain_index"), 3)] if jain else []),
            *(_count(row.get(c)) for c in _RESULT_COLUMNS),
            *(fixed(_scaled(row.get(c), 100.0), 2) for c in goodputs),
        )
    if several and not jain:
        notes.append("a row per flow of each run")
    elif several:
        notes.append("runs of several flows: the flow column says how their flows combine")
    if marked:
        notes.append(_incomplete_note("the transfer (or one of the run's)"))
    notes += [f"[{n}] {error}" for error, n in errors.items()]
    if goodput_note:
        notes.append(goodput_note)
    table.caption = "\n".join(notes)
    tables = [table]
    means = _means_table(frame, params, jain)
    if means is not None:
        tables.append(means)
    return tables


def _means_table(frame: Any, params: Sequence[str], jain: bool) -> FittedTable | None:
    """Per plan, grid point and flow: ok runs, mean throughput (and Jain's index) with
    the 95% interval over the seeds; ``None`` when no point has two ok runs."""
    from lasthop.reproduction.compare import ci95

    ok = frame[frame["status"] == "ok"]
    keys = ["plan", *params, "flow"]
    groups = list(ok.groupby(keys, sort=False, dropna=False)) if len(ok) else []
    if not any(len(rows) > 1 for _, rows in groups):
        return None
    columns = ["ok\nruns", "throughput Mb/s\nmean ± 95%"]
    if jain:
        columns.append("Jain's index\nmean ± 95%")
    table = FittedTable("means over seeds", keys, columns)
    for values, rows in groups:
        cells = []
        for column in ("throughput_mbps", *(["jain_index"] if jain else [])):
            xs = [float(v) for v in rows[column] if not _missing(v)]
            mean, half = ci95(xs) if xs else (None, None)
            cells.append(interval(mean, half if len(xs) > 1 else None, 3))
        table.add_row(*(_text(v) for v in values), str(len(rows)), *cells)
    table.caption = "± 95% interval of the mean over seeds (Student's t); none with one run"
    return table


def _text(value: Any) -> str:
    """A parameter's value as text; ``-`` where a run's plan does not sweep it."""
    if _missing(value):
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
