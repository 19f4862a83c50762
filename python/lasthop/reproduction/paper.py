"""The interface between the reproduction framework and a paper: :class:`Paper`, asked
with a :class:`Request`.

A paper's package (``lasthop.papers.<name>``, found by :mod:`lasthop.reproduction.registry`)
has a module ``paper`` whose ``PAPER`` implements :class:`Paper`. The framework asks it, for
one of the paper's selections (its name in ``all``, or a further one such as
``balakrishnan97-table3``) and perhaps one ``--only`` part:

1. :meth:`Paper.experiments`: the cells to measure, each an embedded scenario with
   overrides. The framework runs them over seeds 1..N with every other selected paper's,
   in one process pool, each distinct run once (:mod:`lasthop.reproduction.jobs`);
2. :meth:`Paper.cells`: the paper's cells from those runs, and from whatever else it
   measures itself (traced runs, analysis);
3. :meth:`Paper.tables`: its terminal tables of those cells; :meth:`Paper.report`: its
   part of the HTML report (figures, what was run for them, how its cells' tables read);
4. :attr:`Paper.claims`, :attr:`Paper.deviations` and :attr:`Paper.sensitivities`: its
   checkable statements, the explanations of where the reproduction departs from them,
   each naming a cause a run can vary, and the defaults no source decides, which the
   framework evaluates on the cells and checks with runs of its own
   (:mod:`lasthop.reproduction.claims`, :mod:`lasthop.reproduction.deviations`); the
   expected verdict of every claim is pinned in the package's ``verdicts.toml``
   (:mod:`lasthop.reproduction.verdicts`).

5. :meth:`Paper.live_experiments` and :attr:`Paper.live_claims` (optional, for
   ``lasthop reproduce --live``): the cells it can measure on real packets with
   ``lasthop live``, and the claims read on those (:mod:`lasthop.reproduction.live`).

:meth:`Paper.cell` makes the cell of one experiment from its runs: the framework calls it
for each seed's run alone to give every mean its interval, and for the runs that vary a
deviation's cause.

A cell is a JSON-ready dict with at least ``table``, ``setting``, ``scheme``,
``published`` and ``ratio``. Explicit subclasses of :class:`Paper` inherit the defaults
of :meth:`~Paper.scenarios`, :meth:`~Paper.tables` and :meth:`~Paper.report`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rich.console import RenderableType

    from lasthop.report import ReportPart
    from lasthop.reproduction.claims import Claim
    from lasthop.reproduction.deviations import Deviation, Sensitivity
    from lasthop.reproduction.experiment import Experiment
    from lasthop.reproduction.live import LiveExperiment


@dataclass(frozen=True)
class Request:
    """What the framework asks of a paper: which part of it, over which seeds."""

    selection: str
    """One of the paper's selections (its name when ``all`` runs it)."""
    only: str | None = None
    """One of its parts (``--only``), with the selection that is its name; else ``None``.
    The framework checks both before it asks."""
    seeds: int = 10
    """Every cell is the mean over seeds 1..``seeds``."""
    workers: int | None = None
    """The most processes the paper's own runs may take (``None``: one per core)."""
    trace_seed: int = 1
    """The seed of the traced runs of the report's figures."""
    quick: bool = False
    """Shorter runs where a paper's own runs are long (``--quick``); a paper that shortens
    them says so in its tables."""


class Paper(Protocol):
    """One paper's reproduction, as the framework drives it."""

    @property
    def claims(self) -> Sequence[Claim]:
        """The paper's checkable statements, in its order."""
        ...

    @property
    def deviations(self) -> Sequence[Deviation]:
        """The explanations of the failed claims and of the cells far from the published
        values, each with its cause."""
        ...

    @property
    def sensitivities(self) -> Sequence[Sensitivity]:
        """The defaults of its scenarios that no source decides, with the values to run."""
        ...

    @property
    def live_claims(self) -> Sequence[Claim]:
        """The statements its live cells (table ``live``) decide; none by default."""
        return ()

    def owns(self, table: str) -> bool:
        """Whether cells of ``table`` are the paper's."""
        ...

    def cell(self, experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The cell of one of its experiments from that experiment's runs (one or more)."""
        ...

    def experiments(self, request: Request) -> Sequence[Experiment]:
        """The cells to measure from runs of embedded scenarios, in the paper's order."""
        ...

    def cells(
        self, request: Request, runs: Sequence[Sequence[Mapping[str, Any]]]
    ) -> list[dict[str, Any]]:
        """The paper's cells, in its order: from ``runs`` (``runs[i]``: the summaries of
        seeds 1..``request.seeds`` of ``experiments(request)[i]``) and from whatever the
        paper measures itself."""
        ...

    def scenarios(self, selection: str) -> Iterable[str]:
        """The embedded scenarios the selection's cells run (the report names them)."""
        return {e.scenario for e in self.experiments(Request(selection))}

    def live_experiments(self, request: Request) -> Sequence[LiveExperiment]:
        """The cells of the selection it can run live (``lasthop reproduce --live``);
        none by default."""
        return ()

    def tables(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> list[RenderableType]:
        """The terminal tables of the paper's ``cells`` (``lasthop reproduce``)."""
        return []

    def report(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> ReportPart:
        """The paper's part of the HTML report of its ``cells``: its figures, what was run
        for them, how its cells' tables read."""
        from lasthop.report import ReportPart

        return ReportPart()
