"""ElAarag 2002 (seed 002), Sec. 6 and Table II's "long/frequent disconnections" row: the
survey's disconnection mechanisms side by side on Fig. 2's schedule (the Table I path, the
mobile host cut off 0.3 s every 3.3 s; ``elaarag02/fig2`` with its ``mechanism``
parameter), over 60 s: the reference's X-1 (elaarag-002.md Sec. 4, "expected, to be
confirmed").

Each cell is one mechanism's packet rate at the mobile host (ElAarag's unit: 1024-byte
packets a second) and the fixed host's timeouts, fast retransmits and the base station's
local retransmissions, mean over the seeds (the seed draws only the phase of the source's
100 ms timer tick, ``rto.mode = "ns2_legacy"``). Not here: RLP (the link-layer ARQ
family, issue 34), which the survey's ordering also names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.papers.elaarag02 import fig2
from lasthop.reproduction.throughput import ThroughputExperiment, throughput_cell

if TYPE_CHECKING:
    from rich.console import RenderableType

TABLE: Final = "elaarag02:X-1"
SETTING: Final = "fig2-60s"
MECHANISMS: Final = ("none", "frho", "freeze", "i-tcp", "m-tcp", "snoop")
"""``elaarag02/fig2``'s ``mechanism`` values; ``none`` is the plain Tahoe of Fig. 2, whose
cell is named ``tahoe``."""
LABELS: Final = {
    "none": "Tahoe (Fig. 2)",
    "frho": "fast-retransmit handoff",
    "freeze": "Freeze-TCP",
    "i-tcp": "I-TCP (split)",
    "m-tcp": "M-TCP",
    "snoop": "snoop",
}
COUNTS: Final = ("timeouts", "fast_retransmits", "local_retransmits")
"""The source's counts a cell adds, mean per run."""


def scheme(mechanism: str) -> str:
    """The cell's scheme name: the mechanism's, ``tahoe`` for ``none``."""
    return "tahoe" if mechanism == "none" else mechanism


def experiments() -> list[ThroughputExperiment]:
    """A cell per mechanism, each 60 s of Fig. 2's schedule (:data:`fig2.LONG_S`)."""
    return [
        ThroughputExperiment(
            table=TABLE,
            setting=SETTING,
            scheme=scheme(m),
            scenario=fig2.SCENARIO,
            sets=(f'mechanism="{m}"', f"flows.0.duration_s={fig2.LONG_S}"),
            unit="pps",
            published=None,
        )
        for m in MECHANISMS
    ]


def cell(experiment: ThroughputExperiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The throughput cell, with the source's :data:`COUNTS` (mean per run)."""
    out = throughput_cell(experiment, runs)
    for key in COUNTS:
        out[key] = round(sum(float(r["flows"][0][key]) for r in runs) / len(runs), 2)
    return out


def table(cells: Sequence[Mapping[str, Any]], seeds: int) -> RenderableType:
    """X-1: every mechanism on Fig. 2's schedule."""
    from lasthop.render import FittedTable, fixed

    out = FittedTable(
        f"ElAarag 2002 X-1: mechanisms on Fig. 2's schedule, 60 s, mean of {seeds} seeds",
        ["mechanism"],
        ["pkts/s", "FH timeouts", "fast rexmits", "BS local rexmits"],
        caption="elaarag-002.md X-1, from Sec. 6 and Table II ('long/frequent disconnections')",
    )
    by = {str(c["scheme"]): c for c in cells if c["table"] == TABLE}
    for m in MECHANISMS:
        c = by.get(scheme(m))
        if c is None:
            continue
        out.add_row(
            LABELS[m],
            fixed(c["throughput_pps"], 2),
            fixed(c["timeouts"], 1),
            fixed(c["fast_retransmits"], 1),
            fixed(c["local_retransmits"], 1),
        )
    return out
