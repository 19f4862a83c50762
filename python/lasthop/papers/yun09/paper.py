"""Yun 2009 as the reproduction framework drives it: :data:`PAPER`. Besides the measured
grids (:mod:`~lasthop.papers.yun09.experiments`), its cells are E10's traced runs, E13's
analysis and E14's figures read from E1's and E3's cells."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.papers.yun09 import experiments
from lasthop.papers.yun09.claims import CLAIMS, DEVIATIONS, SENSITIVITIES
from lasthop.reproduction.claims import Claim
from lasthop.reproduction.deviations import Deviation, Sensitivity
from lasthop.reproduction.experiment import Experiment
from lasthop.reproduction.paper import Paper, Request

if TYPE_CHECKING:
    from rich.console import RenderableType

    from lasthop.report import ReportPart


class Yun09(Paper):
    """The reproduction of seed 004: the selection ``yun09``."""

    claims: Sequence[Claim] = CLAIMS
    deviations: Sequence[Deviation] = DEVIATIONS
    sensitivities: Sequence[Sensitivity] = SENSITIVITIES

    def owns(self, table: str) -> bool:
        return table.startswith("y09-")

    def cell(self, experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return experiments.cell(experiment, runs)

    def experiments(self, request: Request) -> list[Experiment]:
        return experiments.experiments(request.quick)

    def cells(
        self, request: Request, runs: Sequence[Sequence[Mapping[str, Any]]]
    ) -> list[dict[str, Any]]:
        planned = experiments.experiments(request.quick)
        cells = [experiments.cell(e, r) for e, r in zip(planned, runs, strict=True)]
        cells += experiments.e10_cells(request.seeds)
        cells.append(experiments.e13_cell())
        cells += experiments.e14_cells(cells)
        return cells

    def scenarios(self, selection: str) -> Iterable[str]:
        # E10's traced runs are of the downlink scenario.
        return {e.scenario for e in experiments.experiments()} | {experiments.DOWN}

    def tables(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> list[RenderableType]:
        from lasthop.papers.yun09.tables import tables

        return list(tables(cells, request.seeds, request.quick))

    def report(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> ReportPart:
        from lasthop.papers.yun09.report import report_part

        return report_part(cells, request.seeds, request.quick)


PAPER: Final = Yun09()
