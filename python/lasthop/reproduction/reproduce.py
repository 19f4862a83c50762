"""``lasthop reproduce``: a selection of the papers' experiments run over seeds 1..N, as
cells beside the published numbers, and the papers' claims checked on them.

A selection is ``all`` (every paper, in the registry's order), a paper's name, or a
further selection of one paper (:mod:`lasthop.reproduction.registry`); ``only`` picks
one part of a paper. Every cell is the mean over seeds 1..N. The runs of every selected
paper go to one process pool over all cores, each distinct run once; the results are put
back in job order, so the output never depends on scheduling.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lasthop.reproduction import claims, registry
from lasthop.reproduction.jobs import Job, run_jobs
from lasthop.reproduction.paper import Request


@dataclass(frozen=True)
class Part:
    """One paper's share of a reproduction."""

    paper: str
    """The paper's name (its package under ``lasthop.papers``)."""
    request: Request
    """What ran of it: its selection (its name for ``all``), part and seeds."""
    cells: list[dict[str, Any]]
    """Its cells, in the paper's order."""


@dataclass(frozen=True)
class Reproduction:
    """What :func:`run_reproduction` measured: each selected paper's cells."""

    which: str
    seeds: int
    only: str | None
    parts: tuple[Part, ...]

    @property
    def cells(self) -> list[dict[str, Any]]:
        """Every cell, paper after paper (what :func:`reproduce` returns)."""
        return [cell for part in self.parts for cell in part.cells]


def run_reproduction(
    which: str = registry.ALL,
    seeds: int = 10,
    workers: int | None = None,
    only: str | None = None,
) -> Reproduction:
    """Run ``which`` (``only`` one part of a paper) over seeds 1..``seeds``: the cells of
    each paper it selects (see :func:`reproduce`)."""
    if seeds < 1:
        raise ValueError(f"seeds: must be at least 1, got {seeds}")
    chosen = registry.selected(which)
    registry.check_only(which, only)
    papers = [
        (about.name, Request(selection, only, seeds, workers), registry.load(about.name))
        for about, selection in chosen
    ]
    planned = [paper.experiments(request) for _, request, paper in papers]
    jobs = [
        [Job(e.scenario, e.sets, seed) for seed in range(1, seeds + 1)]
        for experiments in planned
        for e in experiments
    ]
    # Cells that share runs (seed 001's E-S1b row at E-S1's buffer) run them once.
    unique = list(dict.fromkeys(job for runs in jobs for job in runs))
    by_job = dict(zip(unique, run_jobs(unique, workers), strict=True))
    parts = []
    first = 0
    for (name, request, paper), experiments in zip(papers, planned, strict=True):
        runs = [[by_job[job] for job in runs] for runs in jobs[first : first + len(experiments)]]
        first += len(experiments)
        parts.append(Part(name, request, paper.cells(request, runs)))
    return Reproduction(which, seeds, only, tuple(parts))


def reproduce(
    which: str = registry.ALL,
    seeds: int = 10,
    workers: int | None = None,
    only: str | None = None,
) -> list[dict[str, Any]]:
    """Run ``which`` (``only`` one part of a paper) over seeds 1..``seeds`` and return its
    cells, paper after paper, each paper's in its own order. Every cell has ``table``,
    ``setting``, ``scheme``, ``published`` and ``ratio``; the rest is the paper's: e.g.
    :func:`lasthop.reproduction.throughput.throughput_cell` for the 1997 paper and
    ElAarag's."""
    return run_reproduction(which, seeds, workers, only).cells


def experiment_scenarios(which: str) -> list[str]:
    """The embedded scenarios the cells of ``which`` run, sorted."""
    scenarios: set[str] = set()
    for about, selection in registry.selected(which):
        scenarios.update(registry.load(about.name).scenarios(selection))
    return sorted(scenarios)


def check_claims(
    cells: Sequence[Mapping[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every paper's claims evaluated on ``cells`` (those whose cells ran) and the
    deviations: failed claims and cells outside 0.8-1.25 of the published value, each
    with its explanation (:mod:`lasthop.reproduction.claims`). The claims are the papers',
    in the registry's order; an explanation is looked up among every paper's."""
    papers = [registry.load(about.name) for about in registry.papers()]
    evaluated = claims.evaluate([claim for paper in papers for claim in paper.claims], cells)
    explanations: dict[str, str] = {}
    for paper in papers:
        explanations |= paper.deviations
    return evaluated, claims.deviations(evaluated, cells, explanations)
