"""A paper's checkable statements, evaluated on the cells of a reproduction.

A :class:`Claim` is one statement of a paper (quoted, with its section) and a function of
the measured cells that says whether it holds and which measured figures it used. Every
check compares figures by the one rule of :mod:`lasthop.reproduction.compare`: a figure
is an :class:`~lasthop.reproduction.compare.Estimate` over the seeds, "X > Y" holds when
the 95% intervals do not overlap, "about equal" when they overlap, and any other
tolerance is quoted from the paper. A paper lists its claims in its package
(``lasthop.papers.<paper>.claims``) with its deviations
(:mod:`lasthop.reproduction.deviations`), and pins each claim's expected verdict in a
golden file (:mod:`lasthop.reproduction.verdicts`).

- :func:`evaluate`: every claim whose cells the reproduction ran, as JSON-ready dicts
  (``holds`` / ``fails`` with the figures and their intervals, or ``unchecked`` with the
  reason for statements the cells cannot decide), each with the cells it read.

Cells are dicts as the papers make them (:meth:`lasthop.reproduction.paper.Paper.cell`):
``table``, ``setting``, ``scheme``, the measured means, ``published`` and ``ratio``, and
``ci95``: the 95% half width of each mean over the seeds
(:func:`lasthop.reproduction.reproduce.with_intervals`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from lasthop.reproduction.compare import Estimate, Judge

RATIO_BAND: Final = (0.8, 1.25)
"""A cell whose measured interval, over the published value, lies wholly outside this band
is a deviation (a published number's own tolerance, where the paper gives none)."""


class MissingCell(LookupError):
    """A claim asked for a cell the reproduction did not run (``--only``, another
    selection): the claim is left out, not failed."""


@dataclass(frozen=True)
class Verdict:
    """What a claim's check found: whether the statement holds, the measured figures it
    compared, by name (e.g. ``{"wan-32k LL-TCP-AWARE/LL": Estimate(1.2, 0.03)}``), and
    how far it is from holding (its shortfall, 0 when it holds;
    :mod:`lasthop.reproduction.compare`)."""

    holds: bool
    figures: Mapping[str, Estimate | float | None]
    shortfall: float = 0.0

    @classmethod
    def of(cls, judge: Judge) -> Verdict:
        """The verdict of ``judge``'s comparisons: all must hold."""
        return cls(judge.holds, judge.figures(), judge.shortfall)


def cell_key(cell: Mapping[str, Any]) -> str:
    """A cell's key: ``table/setting/scheme``."""
    return f"{cell['table']}/{cell['setting']}/{cell['scheme']}"


class Cells:
    """The cells of a reproduction, looked up by (table, setting, scheme).

    Every lookup of a cell that is not there raises :class:`MissingCell`. The keys of the
    cells looked up are kept (:attr:`used`): a deviation's check re-runs them."""

    def __init__(self, cells: Sequence[Mapping[str, Any]]) -> None:
        self._by_key = {(str(c["table"]), str(c["setting"]), str(c["scheme"])): c for c in cells}
        self.used: dict[str, None] = {}

    def cell(self, table: str, setting: str, scheme: str) -> Mapping[str, Any]:
        found = self._by_key.get((table, setting, scheme))
        if found is None:
            raise MissingCell(f"{table}/{setting}/{scheme}")
        self.used[f"{table}/{setting}/{scheme}"] = None
        return found

    def has(self, table: str, setting: str, scheme: str) -> bool:
        return (table, setting, scheme) in self._by_key

    def value(self, table: str, setting: str, scheme: str, key: str) -> float:
        value = self.cell(table, setting, scheme).get(key)
        if value is None:
            raise MissingCell(f"{table}/{setting}/{scheme}: {key}")
        return float(value)

    def optional(self, table: str, setting: str, scheme: str, key: str) -> float | None:
        """``key`` of the cell, or ``None`` if the cell does not carry it (the cell itself
        must be there)."""
        value = self.cell(table, setting, scheme).get(key)
        return None if value is None else float(value)

    def mbps(self, table: str, setting: str, scheme: str) -> float:
        return self.value(table, setting, scheme, "throughput_mbps")

    def est(self, table: str, setting: str, scheme: str, key: str = "throughput_mbps") -> Estimate:
        """``key`` of the cell with its 95% interval over the seeds (none for a figure
        that has no spread: one traced run, a published value)."""
        cell = self.cell(table, setting, scheme)
        value = cell.get(key)
        if value is None:
            raise MissingCell(f"{table}/{setting}/{scheme}: {key}")
        half = (cell.get("ci95") or {}).get(key)
        return Estimate(float(value), 0.0 if half is None else float(half))


Check = Callable[[Cells], Verdict]


@dataclass(frozen=True)
class Claim:
    """One checkable statement of a paper."""

    id: str
    """Short stable name, e.g. ``iii-newreno-wan``: the key of its verdict and deviation."""
    section: str
    """Where the paper says it, e.g. ``Sec. IV-C`` or ``Table V caption``."""
    statement: str
    """The paper's words (quoted) or a close paraphrase."""
    checked_as: str
    """How the statement is read as a test of the cells: the comparison and its bounds."""
    check: Check | None = None
    """The test; ``None`` for a statement the cells cannot decide (see ``unchecked``)."""
    unchecked: str = ""
    """Why a statement without a check is not checked."""
    tags: tuple[str, ...] = field(default=())
    """The tables it reads (``table2``, ``y09-e7``, ...): an unchecked claim is listed
    when some of them ran."""


@dataclass(frozen=True)
class Evaluated:
    """A claim's verdict on some cells, and the cells it read (for its deviation's check)."""

    claim: Claim
    verdict: Verdict | None
    """``None``: unchecked."""
    used: tuple[str, ...]
    """Keys of the cells the check read."""

    @property
    def status(self) -> str:
        if self.verdict is None:
            return "unchecked"
        return "holds" if self.verdict.holds else "fails"


def judge(claim: Claim, cells: Sequence[Mapping[str, Any]] | Cells) -> Evaluated | None:
    """``claim`` on ``cells``; ``None`` if it needs cells that did not run."""
    lookup = cells if isinstance(cells, Cells) else Cells(cells)
    if claim.check is None:
        return Evaluated(claim, None, ())
    lookup.used = {}
    try:
        verdict = claim.check(lookup)
    except MissingCell:
        return None
    return Evaluated(claim, verdict, tuple(lookup.used))


def evaluate_all(claims: Sequence[Claim], cells: Sequence[Mapping[str, Any]]) -> list[Evaluated]:
    """Every claim the cells decide (an unchecked claim when some cells of its tags ran)."""
    lookup = Cells(cells)
    tables = {str(c["table"]) for c in cells}
    out = []
    for claim in claims:
        if claim.check is None and claim.tags and not tables.intersection(claim.tags):
            continue
        found = judge(claim, lookup)
        if found is not None:
            out.append(found)
    return out


def as_json(found: Evaluated) -> dict[str, Any]:
    """A claim's verdict as JSON: ``id``, ``section``, ``statement``, ``checked_as``,
    ``status`` (``holds``, ``fails`` or ``unchecked``), ``figures`` (name -> measured
    value, 4 digits), ``ci95`` (name -> its 95% half width, where it has one) and, if
    unchecked, ``reason``."""
    claim = found.claim
    entry: dict[str, Any] = {
        "id": claim.id,
        "section": claim.section,
        "statement": claim.statement,
        "checked_as": claim.checked_as,
        "status": found.status,
    }
    if found.verdict is None:
        entry.update(figures={}, reason=claim.unchecked)
        return entry
    means, halves = figures_json(found.verdict.figures)
    entry["figures"] = means
    if halves:
        entry["ci95"] = halves
    return entry


def evaluate(claims: Sequence[Claim], cells: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each claim the cells decide, as :func:`as_json` gives it, in the claims' order."""
    return [as_json(found) for found in evaluate_all(claims, cells)]


def figures_json(
    figures: Mapping[str, Estimate | float | None], digits: int = 4
) -> tuple[dict[str, float | None], dict[str, float]]:
    """The figures' means, and the half widths of those that have one, rounded."""
    means: dict[str, float | None] = {}
    halves: dict[str, float] = {}
    for name, value in figures.items():
        if value is None or (isinstance(value, float) and not math.isfinite(value)):
            means[name] = None
        elif isinstance(value, Estimate):
            means[name] = round(value.mean, digits) if math.isfinite(value.mean) else None
            if value.half > 0 and math.isfinite(value.half):
                halves[name] = round(value.half, digits)
        else:
            means[name] = round(float(value), digits)
    return means, halves


def figures_text(figures: Mapping[str, Any], ci95: Mapping[str, Any] | None = None) -> str:
    """A claim's measured figures as one line: ``name value±half, name value``."""
    halves = ci95 or {}
    parts = []
    for name, value in figures.items():
        half = halves.get(name)
        text = number(value) if half is None else f"{number(value)}±{number(half)}"
        parts.append(f"{name} {text}")
    return ", ".join(parts)


def number(value: Any) -> str:
    """A figure as the reports print it: four significant digits (a goodput of 99.99%
    must not print as 100), one decimal from 100 up."""
    if value is None:
        return "-"
    n = float(value)
    return f"{n:.4g}" if abs(n) < 100 else f"{n:.1f}"
