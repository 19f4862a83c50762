"""Balakrishnan et al. 1997 as the reproduction framework drives it: :data:`PAPER`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.papers.balakrishnan97 import experiments
from lasthop.papers.balakrishnan97.claims import CLAIMS
from lasthop.papers.balakrishnan97.deviations import DEVIATIONS, SENSITIVITIES
from lasthop.reproduction.claims import Claim
from lasthop.reproduction.deviations import Deviation, Sensitivity
from lasthop.reproduction.experiment import Experiment
from lasthop.reproduction.paper import Paper, Request
from lasthop.reproduction.throughput import ThroughputExperiment, throughput_cell

if TYPE_CHECKING:
    from rich.console import RenderableType

    from lasthop.report import ReportPart
    from lasthop.reproduction.live import LiveExperiment


class Balakrishnan97(Paper):
    """The reproduction of Sec. IV: the selections ``balakrishnan97`` (with its parts),
    ``balakrishnan97-baseline`` and ``balakrishnan97-table3``."""

    claims: Sequence[Claim] = CLAIMS
    deviations: Sequence[Deviation] = DEVIATIONS
    sensitivities: Sequence[Sensitivity] = SENSITIVITIES

    def owns(self, table: str) -> bool:
        return table in experiments.TABLES

    def cell(self, experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        assert isinstance(experiment, ThroughputExperiment)
        return throughput_cell(experiment, runs)

    def experiments(self, request: Request) -> list[ThroughputExperiment]:
        return experiments.experiments(request.selection, request.only)

    def cells(
        self, request: Request, runs: Sequence[Sequence[Mapping[str, Any]]]
    ) -> list[dict[str, Any]]:
        planned = self.experiments(request)
        return [throughput_cell(e, r) for e, r in zip(planned, runs, strict=True)]

    @property
    def live_claims(self) -> Sequence[Claim]:
        from lasthop.papers.balakrishnan97.live import LIVE_CLAIMS

        return LIVE_CLAIMS

    def live_experiments(self, request: Request) -> Sequence[LiveExperiment]:
        """Table II's LAN 32 KB row on real packets, for the selection that is the paper's
        name (:mod:`lasthop.papers.balakrishnan97.live`)."""
        if request.selection != "balakrishnan97":
            return ()
        from lasthop.papers.balakrishnan97.live import live_experiments

        return live_experiments()

    def tables(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> list[RenderableType]:
        from lasthop.papers.balakrishnan97.tables import tables

        return list(tables(cells, request.seeds))

    def report(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> ReportPart:
        from lasthop.papers.balakrishnan97.report import report_part

        return report_part(
            request.selection,
            cells,
            request.seeds,
            trace_seed=request.trace_seed,
            workers=request.workers,
        )


PAPER: Final = Balakrishnan97()
