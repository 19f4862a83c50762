"""ElAarag 2002 (seed 002), Sec. 6 and Table II: the survey's comparison of its categories
(link layer, end-to-end, split connection), measured. Every mechanism runs on one channel,
the Table I path (FH -1.5 Mb/s, 10 ms- BS -0.8 Mb/s, 100 ms- MH), under each of the
conditions Table II's rows name: no errors, a low and a high bit-error rate (Table I's
two-state channel at 1e-6 and 1e-5: "high BER", "bursty error"), a short and a long outage
("long disconnections"; "frequent disconnections" is Fig. 2's schedule, the reproduction's
X-1). Issue 34 item 6.

A cell is one (condition, mechanism): the mobile host's packet rate (ElAarag's unit,
1024-byte packets a second), the source's timeouts and retransmissions and the local
retransmissions below it, mean over the seeds; the table shows each beside plain Tahoe's
in the same condition (Table I's source). Where a mechanism has nothing to act on (fast-
retransmit handoff and Freeze-TCP without an outage) the cell is not run. The claims read
Table II's check marks as orderings against Tahoe (:mod:`lasthop.papers.elaarag02.claims`).

The rows run on ``elaarag02/compare`` (the plain link, the end-to-end and split schemes);
the link-layer ARQs, which run over a circuit instead of the link, on their own scenario
with the same channel and the same outages (:data:`ROWS` says which).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from lasthop.reproduction.throughput import ThroughputExperiment, throughput_cell

if TYPE_CHECKING:
    from rich.console import RenderableType

TABLE: Final = "elaarag02:compare"
SCENARIO: Final = "elaarag02/compare"
DURATION_S: Final = 120.0
"""``elaarag02/compare``'s ``duration_s``, given the link-layer rows too."""

CONDITIONS: Final = ("clean", "low-ber", "high-ber", "short-outage", "long-outage")
"""``elaarag02/compare``'s ``condition`` values, the table's columns."""
OUTAGES: Final = ("short-outage", "long-outage")
CONDITION_LABELS: Final = {
    "clean": "no errors",
    "low-ber": "BER 1e-6",
    "high-ber": "BER 1e-5",
    "short-outage": "0.3 s outage",
    "long-outage": "10 s outage",
}


@dataclass(frozen=True)
class Row:
    """One mechanism of the comparison."""

    key: str
    """The cell's scheme name."""
    label: str
    category: str
    """Table II's category: ``end-to-end``, ``link layer`` or ``split``."""
    scenario: str
    sets: tuple[str, ...]
    """``--set`` values choosing the mechanism (the condition is added per cell)."""
    conditions: tuple[str, ...] = CONDITIONS
    """The conditions it is run under (those it has something to act on)."""
    condition_sets: Mapping[str, tuple[str, ...]] | None = None
    """``--set`` values choosing each condition on the row's scenario; ``None``:
    ``elaarag02/compare``'s ``condition``."""

    def sets_for(self, condition: str) -> tuple[str, ...]:
        if self.condition_sets is None:
            return (*self.sets, f'condition="{condition}"')
        return (*self.sets, *self.condition_sets[condition])


def _on_link(key: str, label: str, category: str, conditions: tuple[str, ...] = CONDITIONS) -> Row:
    return Row(key, label, category, SCENARIO, (f'mechanism="{key}"',), conditions)


LINK_LAYER_SCENARIO: Final = "elaarag02/link-layer"
LINK_LAYER_SETS: Final = {
    "clean": ('ber="none"',),
    "low-ber": ('ber="1e-6"',),
    "high-ber": ('ber="1e-5"',),
    "short-outage": ('ber="none"', 'outage="short"'),
    "long-outage": ('ber="none"', 'outage="long"'),
}
"""``elaarag02/link-layer``'s ``ber`` and ``outage`` for each condition: Table I's channel
and the one flush outage of the wireless link at 20 s, as ``elaarag02/compare``'s (the
plain link there is ``elaarag02/table1``'s; the outage cuts the circuit's channel and
leaves the ARQ's state)."""


def _arq(link: str, label: str) -> Row:
    return Row(
        link,
        label,
        "link layer",
        LINK_LAYER_SCENARIO,
        (f'link="{link}"', f"duration_s={DURATION_S}"),
        CONDITIONS,
        LINK_LAYER_SETS,
    )


ROWS: Final = (
    _on_link("tahoe", "Tahoe (Table I)", "end-to-end"),
    _on_link("reno", "Reno", "end-to-end"),
    _on_link("newreno", "NewReno", "end-to-end"),
    _on_link("sack", "SACK", "end-to-end"),
    _on_link("frho", "fast-retransmit handoff", "end-to-end", OUTAGES),
    _on_link("freeze", "Freeze-TCP", "end-to-end", OUTAGES),
    _on_link("ebsn", "EBSN", "end-to-end"),
    _on_link("wtcp", "WTCP", "end-to-end"),
    _arq("rlp", "RLP (circuit)"),
    _arq("airmail", "AIRMAIL (circuit)"),
    _on_link("snoop", "snoop (seed 000's)", "link layer"),
    _on_link("snoop-ns2", "snoop (ns-2.35's, NewReno)", "link layer"),
    _on_link("i-tcp", "I-TCP", "split"),
    _on_link("mtcp", "MTCP (MHP/SRP)", "split"),
    _on_link("m-tcp", "M-TCP", "split"),
)
"""The rows, in the table's order."""

BASELINE: Final = "tahoe"
COUNTS: Final = ("timeouts", "retransmits", "local_retransmits")
"""The source's counts and the retransmissions below it a cell adds, mean per run."""


def experiments() -> list[ThroughputExperiment]:
    """A cell per row and condition it runs under."""
    return [
        ThroughputExperiment(
            table=TABLE,
            setting=condition,
            scheme=row.key,
            scenario=row.scenario,
            sets=row.sets_for(condition),
            unit="pps",
            published=None,
        )
        for row in ROWS
        for condition in row.conditions
    ]


def cell(experiment: ThroughputExperiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The throughput cell, with :data:`COUNTS` (mean per run; 0 where a run's flow has
    no such count) and ``down_s``, the seconds the run's outages kept the link down."""
    out = throughput_cell(experiment, runs)
    for key in COUNTS:
        out[key] = round(sum(float(r["flows"][0].get(key, 0)) for r in runs) / len(runs), 2)
    # The time the outages kept the link down within the run (the same in every run).
    end = DURATION_S
    outages = runs[0].get("outages") or []
    out["down_s"] = round(sum(min(o["end_s"], end) - o["start_s"] for o in outages), 6)
    return out


def table(cells: Sequence[Mapping[str, Any]], seeds: int) -> RenderableType:
    """The comparison: packets/s by condition, each with its ratio to Tahoe's."""
    from lasthop.render import FittedTable, fixed

    by = {(str(c["setting"]), str(c["scheme"])): c for c in cells if c["table"] == TABLE}
    if not by:
        return FittedTable("", ["mechanism"], [])
    out = FittedTable(
        f"ElAarag 2002 Sec. 6: the mechanisms on the Table I path, pkts/s (x Tahoe), "
        f"mean of {seeds} seeds",
        ["mechanism", "category"],
        [CONDITION_LABELS[c] for c in CONDITIONS],
        caption="elaarag-002.md Sec. 4 (LL-*, X-2), seed 002 Table II; '-': not run "
        "(fast-retransmit handoff and Freeze-TCP have nothing to act on without an outage)",
    )
    for row in ROWS:
        values = []
        for condition in CONDITIONS:
            c, base = by.get((condition, row.key)), by.get((condition, BASELINE))
            if c is None:
                values.append("-")
                continue
            pps = float(c["throughput_pps"])
            ratio = (
                f" ({pps / float(base['throughput_pps']):.2f})"
                if base and row.key != BASELINE and base["throughput_pps"]
                else ""
            )
            values.append(f"{fixed(pps, 1)}{ratio}")
        out.add_row(row.label, row.category, *values)
    return out
