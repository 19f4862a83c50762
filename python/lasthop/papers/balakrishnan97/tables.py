"""The terminal tables of Balakrishnan et al. 1997 (``lasthop reproduce balakrishnan97``):
the peaks beside Table III's E2E, Tables II-IV in the paper's layout, and grids of the
cells with no published numbers (Table V, Fig. 12, the LL latency sweep)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lasthop.papers.balakrishnan97 import published
from lasthop.render import FittedTable, cell_text, fixed


def tables(cells: Sequence[Mapping[str, Any]], seeds: int) -> list[FittedTable]:
    """The tables of the parts of the paper that ``cells`` hold, in the paper's order."""
    present = {c["table"] for c in cells}
    out: list[FittedTable] = []
    if "peak" in present:
        out.append(balakrishnan_table(cells, seeds))
    for table_id in ("table2", "table3", "table4"):
        if table_id in present:
            out.append(paper_table(cells, table_id, seeds))
    if "table5" in present:
        title = f"Balakrishnan et al. 1997 Table V (burst losses, LAN 32 KB), mean of {seeds} seeds"
        out.append(grid_table(cells, "table5", title))
    if "fig12" in present:
        title = (
            f"Balakrishnan et al. 1997 Fig. 12 (one error every N KB, LAN 32 KB), "
            f"mean of {seeds} seeds"
        )
        out.append(grid_table(cells, "fig12", title))
    if "ll-latency" in present:
        title = (
            f"LL on the WAN (32 KB) by base-station processing latency (issue 10), "
            f"mean of {seeds} seeds"
        )
        out.append(grid_table(cells, "ll-latency", title))
    return out


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
            else cell_text(
                paper.throughput_mbps, paper.wireless_goodput_pct, paper.wired_goodput_pct
            )
        )
        table.add_row(
            setting,
            fixed(peak["throughput_mbps"], 3),
            fixed(peak["published"], 2),
            fixed(peak["ratio"], 2),
            fixed(lossy["throughput_mbps"], 3),
            fixed(lossy["wireless_goodput_pct"], 1),
            fixed(lossy["wired_goodput_pct"], 1),
            paper_text,
            fixed(lossy["ratio"], 2),
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
            measured = cell_text(
                cell["throughput_mbps"],
                cell["wireless_goodput_pct"],
                cell["wired_goodput_pct"],
                ",",
            )
            paper_text = cell_text(
                paper.throughput_mbps, paper.wireless_goodput_pct, paper.wired_goodput_pct, ","
            )
            row.append(f"{measured}\n{paper_text}\n×{fixed(cell['ratio'], 2)}")
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
                else cell_text(
                    cell["throughput_mbps"], cell["wireless_goodput_pct"], cell["wired_goodput_pct"]
                )
            )
        table.add_row(*row)
    return table
