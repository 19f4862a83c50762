"""Yun 2009's part of the HTML report (seed 004): its figures
(:mod:`lasthop.papers.yun09.figures`) and the tables of its cells. No plotted value is
legible in the seed, so the tables' columns are the measures the claims read; each
goodput table is preceded by its grid of means with their 95 % intervals (the
framework's ``ci95``, which the cell tables' columns cannot reach)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from lasthop.papers.yun09 import figures
from lasthop.papers.yun09.experiments import QUICK_RUN_S, RUN_S, SOURCE, TABLES, scheme_name
from lasthop.papers.yun09.tables import grid_rows, quick_note
from lasthop.report import CellTable, HtmlTable, ReportPart

TITLES: Final[dict[str, str]] = {
    "y09-e1": "Yun 2009, Fig. 6 (E1): downlink goodput against FER, one flow, l = 1",
    "y09-e2": "Yun 2009, Fig. 7 (E2): downlink goodput against d_off, one flow, 1 % FER",
    "y09-e3": "Yun 2009, Fig. 8 (E3): uplink goodput against FER, one flow, l = 1",
    "y09-e4": "Yun 2009, Figs. 9 and 10 (E4): n flows, 1 % FER",
    "y09-e5": "Yun 2009, Fig. 11 (E5): n flows, 1 % FER, 8 Mb/s Pareto background",
    "y09-e6": "Yun 2009, Fig. 12 (E6): 10 flows, k of them replaced by the variant, 0 % FER",
    "y09-e7": "Yun 2009, Fig. 13 (E7): LL-ELSN with and without ERSN, l = 7, 100 ms delay",
    "y09-e8": "Yun 2009, Fig. 14 (E8): n flows, LL-ELSN with each sender, 1 % FER",
    "y09-e9": "Yun 2009, Fig. 15 (E9): ESACK and the LHP list under E5's background",
    "y09-e10": "Yun 2009, Fig. 16 (E10): sending rate, receiver disconnected at 10 s",
    "y09-e11": "Yun 2009, Fig. 17 (E11): goodput per retry limit against FER",
    "y09-e12": "Yun 2009, Fig. 18 (E12): 10 flows, Markov channel p_gb = 0.01",
    "y09-e13": "Yun 2009, Fig. 3 (E13): notification overhead, analysis",
    "y09-e14": "Yun 2009, Table 1 (E14): ELN delay",
}
"""What each table of cells is, in the paper's words."""

COLUMNS: Final[dict[str, tuple[tuple[str, str, int], ...]]] = {}
"""The columns of each table of cells: (header, the cell's key, digits)."""
_GOODPUT: Final = (("Mb/s", "throughput_mbps", 3),)
# Seed 004 (Yun 2009): no plotted value is legible, so again the measures the claims read.
COLUMNS["y09-e1"] = (
    *_GOODPUT,
    ("timeouts", "timeouts", 1),
    ("spurious timeouts", "spurious_timeouts", 1),
    ("local retransmits", "local_retransmits", 0),
    ("ELNs", "elns", 0),
    ("ELN delay ms", "eln_delay_ms", 3),
    ("notice bytes / data bytes", "notice_overhead", 5),
)
COLUMNS["y09-e3"] = COLUMNS["y09-e1"]
COLUMNS["y09-e2"] = COLUMNS["y09-e1"]
COLUMNS["y09-e4"] = (
    *_GOODPUT,
    ("fairness", "jain_index", 4),
    ("timeouts", "timeouts", 1),
    ("local retransmits", "local_retransmits", 0),
    ("ELNs", "elns", 0),
)
COLUMNS["y09-e5"] = COLUMNS["y09-e4"]
COLUMNS["y09-e8"] = COLUMNS["y09-e4"]
COLUMNS["y09-e9"] = COLUMNS["y09-e4"]
COLUMNS["y09-e6"] = (
    ("Reno flow Mb/s", "reno_mbps", 3),
    ("variant flow Mb/s", "variant_mbps", 3),
    *_GOODPUT,
    ("fairness", "jain_index", 3),
    ("timeouts", "timeouts", 1),
)
COLUMNS["y09-e11"] = COLUMNS["y09-e1"]
COLUMNS["y09-e7"] = (
    *_GOODPUT,
    ("timeouts", "timeouts", 1),
    ("spurious timeouts", "spurious_timeouts", 1),
    ("ERSNs", "ersns", 0),
    ("ELNs", "elns", 0),
    ("notice bytes / data bytes", "notice_overhead", 5),
)
COLUMNS["y09-e12"] = (
    *_GOODPUT,
    ("better half Mb/s", "top_half_mbps", 3),
    ("fairness", "jain_index", 3),
    ("timeouts", "timeouts", 1),
)
COLUMNS["y09-e10"] = (
    ("segments/s before", "rate_before_seg_s", 1),
    ("0.5-1.5 s after", "rate_soon_after_seg_s", 1),
    ("last 5 s", "rate_late_seg_s", 1),
)
COLUMNS["y09-e13"] = (
    ("Eq. 1 series gap", "series_gap", 12),
    ("largest R/r, p <= 0.25", "worst_overhead", 4),
)
COLUMNS["y09-e14"] = (
    ("ELN delay ms", "eln_delay_ms", 3),
    ("T_wrd ms", "t_wrd_ms", 3),
)


GRIDS: Final = tuple(t for t in TABLES if t not in ("y09-e10", "y09-e14"))
"""The tables whose goodput grid (mean ± 95 %) precedes the cells' table: all but E10's
(a rate over time around a disconnection) and E14's (delays), which have no goodput."""

GRID_KEYS: Final[dict[str, tuple[str, str]]] = {
    "y09-e6": ("reno_mbps", "a remaining Reno flow's goodput (Mb/s)"),
}
"""The grids that show another figure than the aggregate goodput: (key, what)."""


def _grid(
    cells: Sequence[Mapping[str, Any]], table: str, seeds: int, note: str
) -> tuple[HtmlTable, ...]:
    key, what = GRID_KEYS.get(table, ("throughput_mbps", "goodput (Mb/s)"))
    schemes, rows = grid_rows(cells, table, key)
    if not rows:
        return ()
    caption = f"{TITLES[table]}: {what}, mean ± 95 % of {seeds} seeds{note}"
    headers = [("setting", False), *((scheme_name(s), True) for s in schemes)]
    return (
        HtmlTable(caption, headers, [[(r[0], False), *((x, True) for x in r[1:])] for r in rows]),
    )


def report_part(cells: Sequence[Mapping[str, Any]], seeds: int, quick: bool = False) -> ReportPart:
    """The paper's figures of ``cells`` (over seeds 1..``seeds``; ``quick``: 50 s runs) and
    how their tables read."""
    note = quick_note(quick)
    length = (
        f"{QUICK_RUN_S:g} s (--quick; the paper: {RUN_S:g} s)"
        if quick
        else f"{RUN_S:g} s, the paper's (Sec. 5.1)"
    )
    return ReportPart(
        figures=figures.figures(cells, seeds, quick),
        provenance=[("Yun 2009 run length", f"{length}; E10's traced runs 20 s")],
        sources=[("paper", SOURCE)],
        cell_tables={
            table: CellTable(
                TITLES[table] + note,
                columns,
                scheme_name,
                before=_grid(cells, table, seeds, note) if table in GRIDS else (),
            )
            for table, columns in COLUMNS.items()
        },
    )
