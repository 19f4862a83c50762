"""The terminal tables of Yun 2009 (seed 004): the figures' data as grids (E1-E9, E11,
E12: goodput, or E4's fairness index or E6's Reno goodput, with the half width of its
95 % interval over the seeds, the framework's ``ci95``), E10's sending rates and E14's ELN
delays. With ``--quick`` every title says the runs are 50 s long (the paper's are
200 s)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from lasthop.papers.yun09.experiments import (
    E4_FLOWS,
    E6_REPLACED,
    E10_DISCONNECT_S,
    E10_RUN_S,
    QUICK_RUN_S,
    RUN_S,
    SOURCE,
    scheme_name,
)
from lasthop.render import FittedTable, fixed

_GRIDS: Final = (
    # (table, title, the cell field shown)
    ("y09-e1", "Fig. 6 (E1): downlink goodput (Mb/s) against FER, one flow", "throughput_mbps"),
    (
        "y09-e2",
        "Fig. 7 (E2): downlink goodput (Mb/s) against d_off, one flow, 1 % FER",
        "throughput_mbps",
    ),
    ("y09-e3", "Fig. 8 (E3): uplink goodput (Mb/s) against FER, one flow", "throughput_mbps"),
    (
        "y09-e4",
        f"Fig. 9 (E4): aggregate goodput (Mb/s) of n flows, 1 % FER (n thinned to {len(E4_FLOWS)} "
        "points [R])",
        "throughput_mbps",
    ),
    ("y09-e4", "Fig. 10 (E4): Jain's fairness index of n flows, 1 % FER", "jain_index"),
    (
        "y09-e5",
        "Fig. 11 (E5): aggregate goodput (Mb/s) of n flows, 1 % FER, 8 Mb/s Pareto background",
        "throughput_mbps",
    ),
    (
        "y09-e6",
        "Fig. 12 (E6): mean goodput (Mb/s) of a remaining Reno flow, k of 10 flows replaced by "
        f"the variant, 0 % FER (k thinned to {len(E6_REPLACED)} points [R])",
        "reno_mbps",
    ),
    (
        "y09-e8",
        "Fig. 14 (E8): aggregate goodput (Mb/s) of n flows, LL-ELSN with each sender, 1 % FER",
        "throughput_mbps",
    ),
    (
        "y09-e9",
        "Fig. 15 (E9): aggregate goodput (Mb/s), ESACK and the LHP list under E5's background",
        "throughput_mbps",
    ),
    (
        "y09-e7",
        "Fig. 13 (E7): goodput (Mb/s) and spurious timeouts per run, l = 7, 100 ms LL "
        "retransmission delay",
        "throughput_mbps",
    ),
    ("y09-e11", "Fig. 17 (E11): goodput (Mb/s) per retry limit l against FER", "throughput_mbps"),
    (
        "y09-e12",
        "Fig. 18 (E12): aggregate goodput (Mb/s) of 10 flows, Markov channel p_gb = 0.01",
        "throughput_mbps",
    ),
)


def quick_note(quick: bool) -> str:
    """What a title says of the run length: nothing at the paper's 200 s."""
    return f"; --quick: {QUICK_RUN_S:g} s runs (the paper: {RUN_S:g} s)" if quick else ""


def half(cell: Mapping[str, Any], key: str) -> Any:
    """The half width of the 95 % interval of the cell's ``key`` (``None`` without one)."""
    return (cell.get("ci95") or {}).get(key)


def grid_rows(
    cells: Sequence[Mapping[str, Any]], table_id: str, key: str
) -> tuple[list[str], list[list[str]]]:
    """A grid's schemes and rows (setting, then ``mean ± half`` per scheme)."""
    chosen = [c for c in cells if c["table"] == table_id]
    settings = list(dict.fromkeys(str(c["setting"]) for c in chosen))
    schemes = list(dict.fromkeys(str(c["scheme"]) for c in chosen))
    by = {(str(c["setting"]), str(c["scheme"])): c for c in chosen}
    rows = []
    for setting in settings:
        row = [setting]
        for scheme in schemes:
            c = by.get((setting, scheme))
            if c is None:
                row.append("-")
                continue
            text = f"{fixed(c.get(key), 3)} ± {fixed(half(c, key), 3)}"
            if table_id == "y09-e7":
                text += f" ({fixed(c.get('spurious_timeouts'), 1)} sp.)"
            row.append(text)
        rows.append(row)
    return schemes, rows


def tables(
    cells: Sequence[Mapping[str, Any]], seeds: int, quick: bool = False
) -> list[FittedTable]:
    """The reproduction's tables (the figures' data), from its cells."""
    note = quick_note(quick)
    out: list[FittedTable] = []
    for table_id, title, key in _GRIDS:
        schemes, rows = grid_rows(cells, table_id, key)
        if not rows:
            continue
        grid = FittedTable(
            f"Yun 2009 {title}, mean ± 95 % of {seeds} seeds{note}",
            ["setting"],
            [scheme_name(s) for s in schemes],
            caption=SOURCE,
        )
        for row in rows:
            grid.add_row(*row)
        out.append(grid)
    e10 = [c for c in cells if c["table"] == "y09-e10"]
    if e10:
        t = FittedTable(
            f"Yun 2009 Fig. 16 (E10): sending rate (segments/s), receiver disconnected at "
            f"{E10_DISCONNECT_S:g} s, mean of {seeds} seeds ({E10_RUN_S:g} s runs)",
            ["sender"],
            ["5-10 s", "10.5-11.5 s", f"{E10_RUN_S - 5:g}-{E10_RUN_S:g} s"],
            caption=SOURCE,
        )
        for c in e10:
            t.add_row(
                scheme_name(str(c["scheme"])),
                fixed(c["rate_before_seg_s"], 1),
                fixed(c["rate_soon_after_seg_s"], 1),
                fixed(c["rate_late_seg_s"], 1),
            )
        out.append(t)
    e14 = [c for c in cells if c["table"] == "y09-e14"]
    if e14:
        t = FittedTable(
            "Yun 2009 Table 1 (E14): ELN delay (ms), LL-ELSN measured (largest cell mean over "
            f"E1/E3's FERs), HACK by Table 1's formula{note}",
            ["direction"],
            ["LL-ELSN", "T_wrd", "HACK-style"],
            caption=SOURCE,
        )
        by14 = {(str(c["setting"]), str(c["scheme"])): c for c in e14}
        for direction in ("down", "up"):
            ll, hack = by14.get((direction, "ll-elsn")), by14.get((direction, "hack"))
            if ll is None or hack is None:
                continue
            t.add_row(
                direction,
                fixed(ll["eln_delay_ms"], 3),
                fixed(ll["t_wrd_ms"], 3),
                fixed(hack["eln_delay_ms"], 3),
            )
        out.append(t)
    return out
