"""Balakrishnan, Padmanabhan, Katz 1999 as the reproduction framework drives it:
:data:`PAPER`. Its cells are the bandwidth- and latency-asymmetry experiments
(:mod:`~lasthop.papers.balakrishnan99.experiments`), then the testbed's
(:mod:`~lasthop.papers.balakrishnan99.testbed`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.papers.balakrishnan99 import experiments, testbed
from lasthop.papers.balakrishnan99.claims import CLAIMS, DEVIATIONS, SENSITIVITIES
from lasthop.reproduction.claims import Claim
from lasthop.reproduction.deviations import Deviation, Sensitivity
from lasthop.reproduction.experiment import Experiment
from lasthop.reproduction.paper import Paper, Request

if TYPE_CHECKING:
    from rich.console import RenderableType

    from lasthop.report import ReportPart


def all_experiments() -> list[Experiment]:
    """Every cell to measure, in the paper's order: the simulations', then the testbed's."""
    return experiments.experiments() + testbed.experiments()


def cell(experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The cell of ``experiment`` (one of :func:`all_experiments`) from its runs' summaries."""
    if experiment.table in testbed.TABLES:
        return testbed.cell(experiment, runs)
    return experiments.cell(experiment, runs)


class Balakrishnan99(Paper):
    """The reproduction of seed 001: the selection ``balakrishnan99``."""

    claims: Sequence[Claim] = CLAIMS
    deviations: Sequence[Deviation] = DEVIATIONS
    sensitivities: Sequence[Sensitivity] = SENSITIVITIES

    def owns(self, table: str) -> bool:
        return table.startswith("b99-")

    def cell(self, experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return cell(experiment, runs)

    def experiments(self, request: Request) -> list[Experiment]:
        return all_experiments()

    def cells(
        self, request: Request, runs: Sequence[Sequence[Mapping[str, Any]]]
    ) -> list[dict[str, Any]]:
        cells = [cell(e, r) for e, r in zip(all_experiments(), runs, strict=True)]
        # The gap figures of two two-way cells come from traced runs (AS-04, AS-20).
        experiments.add_trace_figures(cells)
        return cells

    def tables(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> list[RenderableType]:
        from lasthop.papers.balakrishnan99.tables import tables

        return list(tables(cells, request.seeds))

    def report(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> ReportPart:
        from lasthop.papers.balakrishnan99.report import report_part

        return report_part(cells, request.seeds, trace_seed=request.trace_seed)


PAPER: Final = Balakrishnan99()
