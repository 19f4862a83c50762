"""``lasthop reproduce``: a selection of the papers' experiments run over seeds 1..N, as
cells beside the published numbers, and the papers' claims checked on them, with every
deviation's cause checked by a run that varies it.

A selection is ``all`` (every paper, in the registry's order), a paper's name, or a
further selection of one paper (:mod:`lasthop.reproduction.registry`); ``only`` picks
one part of a paper. Every cell is the mean over seeds 1..N, with the 95% half width of
each of its means (:func:`with_intervals`). The runs go to one process pool over all
cores, each distinct run once, in two rounds: the cells; then the variations that check
the deviations' causes and the sensitivities of unsourced defaults
(:mod:`lasthop.reproduction.deviations`). Results are put back in job order, so the
output never depends on scheduling.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lasthop.reproduction import deviations as dev
from lasthop.reproduction import registry
from lasthop.reproduction.claims import Evaluated, as_json, cell_key, evaluate_all
from lasthop.reproduction.compare import cell_half_width
from lasthop.reproduction.experiment import Experiment
from lasthop.reproduction.jobs import Job, run_jobs
from lasthop.reproduction.paper import Paper, Request

VERDICTS = ("holds", "fails explained", "fails open", "unchecked")
"""A claim's verdict as the golden files pin it (:mod:`lasthop.reproduction.verdicts`)."""


@dataclass
class Part:
    """One paper's share of a reproduction."""

    paper: str
    """The paper's name (its package under ``lasthop.papers``)."""
    request: Request
    """What ran of it: its selection (its name for ``all``), part and seeds."""
    cells: list[dict[str, Any]]
    """Its cells, in the paper's order."""
    claims: list[dict[str, Any]] = field(default_factory=list)
    """Its claims' verdicts (:func:`lasthop.reproduction.claims.as_json`, with ``paper``
    and ``verdict``)."""
    deviations: list[dict[str, Any]] = field(default_factory=list)
    """Its failed claims and far cells (:func:`lasthop.reproduction.deviations.as_json`)."""
    sensitivity: list[dict[str, Any]] = field(default_factory=list)
    """Its unsourced defaults, each with the cells at every value."""

    def summary(self) -> dict[str, Any]:
        """How many claims hold, fail explained, fail open, are not checked."""
        counts = dict.fromkeys(VERDICTS, 0)
        for claim in self.claims:
            counts[claim["verdict"]] += 1
        far = [d for d in self.deviations if d["kind"] == "cell"]
        return {
            "paper": self.paper,
            "holds": counts["holds"],
            "fails_explained": counts["fails explained"],
            "fails_open": counts["fails open"],
            "unchecked": counts["unchecked"],
            "far_cells_explained": sum(1 for d in far if d["status"] == "explained"),
            "far_cells_open": sum(1 for d in far if d["status"] == "open"),
        }


@dataclass(frozen=True)
class Reproduction:
    """What :func:`run_reproduction` measured: each selected paper's cells and checks."""

    which: str
    seeds: int
    only: str | None
    parts: tuple[Part, ...]

    @property
    def cells(self) -> list[dict[str, Any]]:
        """Every cell, paper after paper (what :func:`reproduce` returns)."""
        return [cell for part in self.parts for cell in part.cells]

    @property
    def claims(self) -> list[dict[str, Any]]:
        return [claim for part in self.parts for claim in part.claims]

    @property
    def deviations(self) -> list[dict[str, Any]]:
        return [d for part in self.parts for d in part.deviations]

    @property
    def sensitivity(self) -> list[dict[str, Any]]:
        return [s for part in self.parts for s in part.sensitivity]

    def summary(self) -> list[dict[str, Any]]:
        return [part.summary() for part in self.parts if part.claims or part.deviations]

    def as_json(self) -> dict[str, Any]:
        """The document ``lasthop reproduce --format json`` prints."""
        return {
            "cells": self.cells,
            "claims": self.claims,
            "deviations": self.deviations,
            "summary": self.summary(),
            "sensitivity": self.sensitivity,
        }


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def with_intervals(
    paper: Paper,
    planned: Sequence[Experiment],
    runs: Sequence[Sequence[Mapping[str, Any]]],
    cells: Sequence[dict[str, Any]],
) -> None:
    """Give each cell made from an experiment its ``ci95``: for every number of the cell,
    the 95% half width over the seeds of that number in the cell of each seed's run alone
    (:meth:`Paper.cell` of one run). A mean over the runs is the mean of those, so this is
    its interval; for a figure a cell computes otherwise (pooled over the runs), it is
    the spread of its per-run value. Numbers no single run gives, and cells of one seed,
    get none."""
    by_key = {cell_key(c): c for c in cells}
    for experiment, these in zip(planned, runs, strict=True):
        cell = by_key.get(f"{experiment.table}/{experiment.setting}/{experiment.scheme}")
        if cell is None or len(these) < 2:
            continue
        singles = [paper.cell(experiment, [run]) for run in these]
        halves: dict[str, float] = {}
        for key, value in cell.items():
            if key in ("published", "ci95") or not _numeric(value):
                continue
            values = [s.get(key) for s in singles]
            if all(_numeric(v) for v in values):
                half = cell_half_width([float(v) for v in values], float(value))  # type: ignore[arg-type]
                if half is not None:
                    halves[key] = half
        if halves:
            cell["ci95"] = halves


def _jobs(experiments: Iterable[Experiment], seeds: int) -> list[list[Job]]:
    return [[Job(e.scenario, e.sets, seed) for seed in range(1, seeds + 1)] for e in experiments]


def run_reproduction(
    which: str = registry.ALL,
    seeds: int = 10,
    workers: int | None = None,
    only: str | None = None,
    *,
    checks: bool = True,
    extra_sets: tuple[str, ...] = (),
    tables: Sequence[str] | None = None,
    quick: bool = False,
) -> Reproduction:
    """Run ``which`` (``only`` one part of a paper) over seeds 1..``seeds``: the cells of
    each paper it selects with their intervals, the papers' claims, and their deviations.

    ``checks``: also run the variations that check the deviations' causes and the
    sensitivities (the second round); without them every failed claim is "fails open".
    ``extra_sets``: overrides added to every run (the mutation tests break a mechanism
    this way). ``tables``: only the experiments of these tables (and the claims they
    decide). ``quick``: the papers' shorter runs (:attr:`Request.quick`)."""
    if seeds < 1:
        raise ValueError(f"seeds: must be at least 1, got {seeds}")
    chosen = registry.selected(which)
    registry.check_only(which, only)
    papers = [
        (
            about.name,
            Request(selection, only, seeds, workers, quick=quick),
            registry.load(about.name),
        )
        for about, selection in chosen
    ]
    planned = [
        [
            _with(e, extra_sets)
            for e in paper.experiments(request)
            if tables is None or e.table in tables
        ]
        for _, request, paper in papers
    ]
    jobs = [runs for experiments in planned for runs in _jobs(experiments, seeds)]
    by_job = _run(jobs, workers)
    parts = []
    first = 0
    for (name, request, paper), experiments in zip(papers, planned, strict=True):
        runs = [[by_job[job] for job in these] for these in jobs[first : first + len(experiments)]]
        first += len(experiments)
        cells = (
            paper.cells(request, runs)
            if tables is None
            else [paper.cell(e, r) for e, r in zip(experiments, runs, strict=True)]
        )
        with_intervals(paper, experiments, runs, cells)
        parts.append(Part(name, request, cells))
    found = [
        evaluate_all(paper.claims, part.cells)
        for part, (_, _, paper) in zip(parts, papers, strict=True)
    ]
    items = [
        dev.items(f, part.cells, paper.deviations)
        for f, part, (_, _, paper) in zip(found, parts, papers, strict=True)
    ]
    varied: list[Varied] = [{} for _ in parts]
    if checks:
        varied = _second_round(papers, planned, items, seeds, workers, extra_sets)
    for i, (part, (_, _, paper)) in enumerate(zip(parts, papers, strict=True)):
        _finish(part, paper, found[i], items[i], varied[i], checks)
    return Reproduction(which, seeds, only, tuple(parts))


def _with(e: Experiment, extra: tuple[str, ...]) -> Experiment:
    if not extra:
        return e
    from dataclasses import replace

    return replace(e, sets=(*e.sets, *extra))


def _run(jobs: Sequence[Sequence[Job]], workers: int | None) -> dict[Job, dict[str, Any]]:
    # Cells that share runs (seed 001's E-S1b row at E-S1's buffer) run them once.
    unique = list(dict.fromkeys(job for runs in jobs for job in runs))
    return dict(zip(unique, run_jobs(unique, workers), strict=True))


Varied = dict[tuple[tuple[str, ...], str], dict[str, Any]]
"""Cells re-run with overrides, by (overrides, cell key)."""


def _second_round(
    papers: Sequence[tuple[str, Request, Paper]],
    planned: Sequence[Sequence[Experiment]],
    items: Sequence[Sequence[dev.Item]],
    seeds: int,
    workers: int | None,
    extra_sets: tuple[str, ...],
) -> list[Varied]:
    """Run every variation the deviations' causes and the sensitivities ask for; return,
    per paper, the varied cells by (variation, cell key)."""
    wanted: list[list[tuple[tuple[tuple[str, ...], str], Experiment]]] = []
    for (_, _, paper), experiments, these in zip(papers, planned, items, strict=True):
        by_key = {f"{e.table}/{e.setting}/{e.scheme}": e for e in experiments}
        todo: dict[tuple[tuple[str, ...], str], Experiment] = {}
        for item in these:
            if item.entry is None:
                continue
            causes = ([item.entry.cause] if item.entry.cause else []) + list(item.entry.ruled_out)
            for cause in causes:
                for key in item.varied_keys(cause):
                    if key in by_key:
                        e = by_key[key]
                        todo[(cause.sets, key)] = _with(e, cause.sets)
        for s in paper.sensitivities:
            for _, sets in s.values:
                if not sets:
                    continue
                for key, e in by_key.items():
                    if dev.matches(key, s.cells):
                        todo[(sets, key)] = _with(e, sets)
        wanted.append(list(todo.items()))
    jobs = [_jobs([e for _, e in pairs], seeds) for pairs in wanted]
    by_job = _run([runs for paper_jobs in jobs for runs in paper_jobs], workers)
    out = []
    for (_, _, paper), pairs, paper_jobs in zip(papers, wanted, jobs, strict=True):
        cells: Varied = {}
        for (vkey, experiment), seeds_jobs in zip(pairs, paper_jobs, strict=True):
            runs = [by_job[j] for j in seeds_jobs]
            cell = paper.cell(experiment, runs)
            with_intervals(paper, [experiment], [runs], [cell])
            cells[vkey] = cell
        out.append(cells)
    return out


def _finish(
    part: Part,
    paper: Paper,
    found: Sequence[Evaluated],
    items: Sequence[dev.Item],
    varied: Varied,
    checks: bool,
) -> None:
    """The part's claims, deviations and sensitivity tables, from the varied cells."""
    devs = []
    statuses: dict[str, str] = {}
    for item in items:
        checked = None
        ruled: list[dev.Outcome] = []
        if checks and item.entry is not None:
            if item.entry.cause is not None:
                checked = dev.outcome(
                    item, item.entry.cause, part.cells, _of(varied, item.entry.cause)
                )
            ruled = [dev.outcome(item, c, part.cells, _of(varied, c)) for c in item.entry.ruled_out]
        entry = dev.as_json(item, part.paper, checked, ruled)
        devs.append(entry)
        if item.kind == "claim":
            statuses[item.key] = entry["status"]
    part.deviations = devs
    part.claims = []
    for f in found:
        claim = as_json(f)
        claim["paper"] = part.paper
        claim["verdict"] = (
            f"fails {statuses.get(f.claim.id, 'open')}" if f.status == "fails" else f.status
        )
        part.claims.append(claim)
    if checks:
        part.sensitivity = _sensitivity(part, paper, varied)


def _of(varied: Varied, cause: dev.Cause) -> dict[str, Mapping[str, Any]]:
    """The cells varied by ``cause``, by cell key."""
    return {key: cell for (sets, key), cell in varied.items() if sets == cause.sets}


def _sensitivity(part: Part, paper: Paper, varied: Varied) -> list[dict[str, Any]]:
    out = []
    for s in paper.sensitivities:
        keys = [cell_key(c) for c in part.cells if dev.matches(cell_key(c), s.cells)]
        rows = []
        for key in keys:
            row: dict[str, Any] = {"cell": key, "values": {}}
            own = next(c for c in part.cells if cell_key(c) == key)
            for label, sets in s.values:
                cell = own if not sets else varied.get((sets, key))
                row["values"][label] = None if cell is None else _headline(cell)
            rows.append(row)
        if rows:
            out.append(
                {
                    "paper": part.paper,
                    "what": s.what,
                    "values": [v for v, _ in s.values],
                    "cells": rows,
                }
            )
    return out


def _headline(cell: Mapping[str, Any]) -> dict[str, Any]:
    """A cell's headline figure and its interval, for a sensitivity table."""
    for key in (
        "throughput_mbps",
        "throughput_pps",
        "throughput_kbps",
        "aggregate_mbps",
        "forward_mbps",
        "aggregate_kbps",
        "completion_mean_s",
    ):
        if cell.get(key) is not None:
            return {"key": key, "mean": cell[key], "ci95": (cell.get("ci95") or {}).get(key)}
    return {}


def reproduce(
    which: str = registry.ALL,
    seeds: int = 10,
    workers: int | None = None,
    only: str | None = None,
) -> list[dict[str, Any]]:
    """Run ``which`` (``only`` one part of a paper) over seeds 1..``seeds`` and return its
    cells, paper after paper, each paper's in its own order. Every cell has ``table``,
    ``setting``, ``scheme``, ``published``, ``ratio`` and ``ci95``; the rest is the
    paper's: e.g. :func:`lasthop.reproduction.throughput.throughput_cell` for the 1997
    paper and ElAarag's."""
    return run_reproduction(which, seeds, workers, only, checks=False).cells


def experiment_scenarios(which: str) -> list[str]:
    """The embedded scenarios the cells of ``which`` run, sorted."""
    scenarios: set[str] = set()
    for about, selection in registry.selected(which):
        scenarios.update(registry.load(about.name).scenarios(selection))
    return sorted(scenarios)


def check_claims(
    cells: Sequence[Mapping[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every paper's claims evaluated on ``cells`` (those whose cells ran) and their
    deviations, without the runs that check causes (every failed claim is then open):
    for tests and for cells made elsewhere."""
    claims_out: list[dict[str, Any]] = []
    devs_out: list[dict[str, Any]] = []
    for about in registry.papers():
        paper = registry.load(about.name)
        found = evaluate_all(paper.claims, cells)
        owned = [c for c in cells if paper.owns(str(c["table"]))]
        items = dev.items(found, owned, paper.deviations)
        part = Part(about.name, Request(about.name), [dict(c) for c in cells])
        _finish(part, paper, found, items, {}, checks=False)
        claims_out += part.claims
        devs_out += part.deviations
    return claims_out, devs_out
