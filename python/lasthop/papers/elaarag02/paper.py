"""ElAarag 2002 (seed 002), Table I: TCP Tahoe's throughput in packets per second at two
bit error rates (``elaarag02/table1``), beside the published values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.papers.elaarag02 import published
from lasthop.papers.elaarag02.claims import CLAIMS, DEVIATIONS, SENSITIVITIES
from lasthop.reproduction.claims import Claim
from lasthop.reproduction.deviations import Deviation, Sensitivity
from lasthop.reproduction.experiment import Experiment
from lasthop.reproduction.paper import Paper, Request
from lasthop.reproduction.throughput import ThroughputExperiment, throughput_cell

if TYPE_CHECKING:
    from rich.console import RenderableType

    from lasthop.report import ReportPart

BERS: Final = ("1e-5", "1e-6")
"""Table I's bit error rates (the ``ber`` parameter of ``elaarag02/table1``)."""

TABLE: Final = "elaarag02:I"


def experiments() -> list[ThroughputExperiment]:
    """Table I's cells: TCP Tahoe at each bit error rate."""
    return [
        ThroughputExperiment(
            table=TABLE,
            setting=f"ber={ber}",
            scheme="tahoe",
            scenario="elaarag02/table1",
            # Quoted: the parameter and its cases are keyed by the string "1e-5".
            sets=(f'ber="{ber}"',),
            unit="pps",
            published=published.ELAARAG02_TABLE_I[ber].throughput_pps,
        )
        for ber in BERS
    ]


def table(cells: Sequence[Mapping[str, Any]], seeds: int) -> RenderableType:
    """ElAarag's Table I: TCP Tahoe throughput in packets/s at two bit error rates."""
    from lasthop.render import FittedTable, fixed

    out = FittedTable(
        f"ElAarag 2002 Table I (TCP Tahoe), mean of {seeds} seeds",
        ["setting"],
        ["throughput\npkts/s", "paper", "ratio"],
        caption=published.ELAARAG02_SOURCE,
    )
    for cell in cells:
        if cell["table"] != TABLE:
            continue
        out.add_row(
            str(cell["setting"]),
            fixed(cell["throughput_pps"], 3),
            fixed(cell["published"], 3),
            fixed(cell["ratio"], 2),
        )
    return out


class ElAarag02(Paper):
    """The reproduction of ElAarag's Table I: the selection ``elaarag02``."""

    claims: Sequence[Claim] = CLAIMS
    deviations: Sequence[Deviation] = DEVIATIONS
    sensitivities: Sequence[Sensitivity] = SENSITIVITIES

    def owns(self, table: str) -> bool:
        return table == TABLE

    def experiments(self, request: Request) -> list[ThroughputExperiment]:
        return experiments()

    def cell(self, experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        assert isinstance(experiment, ThroughputExperiment)
        return throughput_cell(experiment, runs)

    def cells(
        self, request: Request, runs: Sequence[Sequence[Mapping[str, Any]]]
    ) -> list[dict[str, Any]]:
        return [throughput_cell(e, r) for e, r in zip(experiments(), runs, strict=True)]

    def tables(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> list[RenderableType]:
        return [table(cells, request.seeds)]

    def report(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> ReportPart:
        from lasthop.report import CellTable, ReportPart

        return ReportPart(
            sources=[("paper", published.ELAARAG02_SOURCE)],
            cell_tables={TABLE: CellTable("ElAarag 2002, Table I: TCP Tahoe by bit-error rate")},
        )


PAPER: Final = ElAarag02()
