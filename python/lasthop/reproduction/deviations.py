"""Where a reproduction departs from its paper, why, and the runs that check the why.

A deviation is a failed claim, or a cell whose measured interval over the published value
lies wholly outside :data:`~lasthop.reproduction.claims.RATIO_BAND`. A paper explains its
deviations with :class:`Deviation` entries, each naming its **cause** as a
:class:`Cause`: something a run can vary (``--set`` overrides applied to the cells the
claim read, or to the far cell). The framework runs the variation and asks whether the
claim's shortfall (:mod:`lasthop.reproduction.compare`) or the cell's distance from the
band shrinks by at least :data:`TOWARD` of itself (at least half the way to the paper) and
by at least :data:`MIN_MOVE`:

- **explained**: it does;
- **open**: the entry says "cause not identified" (no :class:`Cause`), or its variation
  does not move the figure toward the paper, or a cause the entry lists as ruled out
  does, or no entry matches.

Causes an entry has checked and found not to be the cause are :attr:`Deviation.ruled_out`
and are run the same way: a "checked, not the cause" is a measurement, never prose.

:class:`Sensitivity` is the same machinery for a default no source decides: its values
are run on the cells it reaches, and the report shows how far they move.
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from lasthop.reproduction.claims import RATIO_BAND, Cells, Evaluated, cell_key, judge
from lasthop.reproduction.compare import Estimate

TOWARD: Final = 0.5
"""A variation moves a figure toward the paper when it removes at least this fraction of
its shortfall (or all of it). A shortfall is a gap between 95% intervals, itself a
random quantity: a smaller share can be the seeds' noise (a 1% move of one cell takes a
tenth off a small gap), and a cause that takes less than half the way explains less than
half of the deviation."""

MIN_MOVE: Final = 0.01
"""...and by at least this much: a shortfall is relative to the figures it compares, and a
claim that fails by a hair moves by a hair with any run."""

UNEXPLAINED: Final = "Not yet explained."
"""The explanation of a deviation that no entry matches."""

NOT_IDENTIFIED: Final = "cause not identified"


@dataclass(frozen=True)
class Cause:
    """A cause, as a variation of runs: ``sets`` (``--set`` overrides) remove or vary it
    in the cells that match ``cells`` (shell patterns of ``table/setting/scheme``) among
    those the claim read, or in the far cell."""

    what: str
    """What is varied, in a phrase (``the base station's processing latency``)."""
    sets: tuple[str, ...]
    """The overrides that remove or vary it."""
    cells: tuple[str, ...] = ("*",)
    """Which cells take them (default: every cell the claim read)."""


@dataclass(frozen=True)
class Deviation:
    """The explanation of some failed claims or far cells."""

    keys: tuple[str, ...]
    """Claim ids, or cell keys ``table/setting/scheme`` (shell patterns allowed); the
    first entry whose keys match a deviation explains it."""
    text: str
    """What the reproduction measured and why it departs; figures that the checks print
    need not be repeated."""
    cause: Cause | None = None
    """The cause, as a variation; ``None``: cause not identified (the deviation is open)."""
    ruled_out: tuple[Cause, ...] = ()
    """Causes checked and found not to move it."""


@dataclass(frozen=True)
class Sensitivity:
    """A default no source decides, and its values run on the cells it reaches."""

    what: str
    """The parameter and the sentence that chose its default (``no source; chosen because
    ...``)."""
    values: tuple[tuple[str, tuple[str, ...]], ...]
    """(label, overrides) per value; empty overrides: the default, the reproduction's own
    cells."""
    cells: tuple[str, ...]
    """Shell patterns of the cells it reaches."""


def matches(key: str, patterns: Sequence[str]) -> bool:
    return any(key == p or fnmatch.fnmatchcase(key, p) for p in patterns)


def entry_for(key: str, entries: Sequence[Deviation]) -> Deviation | None:
    """The first entry that explains ``key``: an exact key first, then a pattern."""
    for entry in entries:
        if key in entry.keys:
            return entry
    for entry in entries:
        if matches(key, entry.keys):
            return entry
    return None


def cell_interval(cell: Mapping[str, Any]) -> Estimate | None:
    """The cell's measured figure with its interval, over the published value; ``None``
    for a cell without a published value."""
    published = cell.get("published")
    if not published:
        return None
    key = "throughput_pps" if "throughput_pps" in cell else "throughput_mbps"
    value = cell.get(key)
    if value is None:
        return None
    half = (cell.get("ci95") or {}).get(key) or 0.0
    return Estimate(float(value), float(half)) / float(published)


def band_shortfall(cell: Mapping[str, Any], band: tuple[float, float] = RATIO_BAND) -> float:
    """How far the cell's interval over the published value is from ``band``, as a log
    ratio (0 when they meet)."""
    ratio = cell_interval(cell)
    if ratio is None:
        return 0.0
    lo, hi = band
    if ratio.lo > hi:
        return math.log(ratio.lo / hi)
    if 0 < ratio.hi < lo:
        return math.log(lo / ratio.hi)
    return 0.0


def far_cells(cells: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The cells whose interval lies wholly outside the band."""
    return [c for c in cells if band_shortfall(c) > 0]


@dataclass(frozen=True)
class Item:
    """One deviation: a failed claim or a far cell, with its entry."""

    kind: str
    """``claim`` or ``cell``."""
    key: str
    entry: Deviation | None
    found: Evaluated | None = None
    """The claim's evaluation (kind ``claim``)."""
    cell: Mapping[str, Any] | None = None
    """The far cell (kind ``cell``)."""

    def varied_keys(self, cause: Cause) -> list[str]:
        """The cells a variation of ``cause`` re-runs."""
        keys = list(self.found.used) if self.found is not None else [self.key]
        return [k for k in keys if matches(k, cause.cells)]


def items(
    found: Sequence[Evaluated], cells: Sequence[Mapping[str, Any]], entries: Sequence[Deviation]
) -> list[Item]:
    """Every failed claim, then every far cell, each with the entry that explains it."""
    out = [Item("claim", f.claim.id, entry_for(f.claim.id, entries), found=f) for f in found]
    out = [i for i in out if i.found is not None and i.found.status == "fails"]
    for cell in far_cells(cells):
        key = cell_key(cell)
        out.append(Item("cell", key, entry_for(key, entries), cell=cell))
    return out


@dataclass
class Outcome:
    """A variation's effect on one deviation."""

    cause: Cause
    shortfall_before: float
    shortfall_after: float | None
    """``None``: no cell of the claim could be re-run."""
    figures: Mapping[str, Any] = field(default_factory=dict)
    holds: bool = False

    @property
    def moved(self) -> bool:
        after = self.shortfall_after
        if after is None:
            return False
        gain = self.shortfall_before - after
        return gain >= max(TOWARD * self.shortfall_before, MIN_MOVE)

    def as_json(self) -> dict[str, Any]:
        from lasthop.reproduction.claims import figures_json

        means, halves = figures_json(self.figures)
        out: dict[str, Any] = {
            "what": self.cause.what,
            "varied": list(self.cause.sets),
            "cells": list(self.cause.cells),
            "shortfall_before": round(self.shortfall_before, 4),
            "shortfall_after": None
            if self.shortfall_after is None
            else round(self.shortfall_after, 4),
            "moves_toward_paper": self.moved,
        }
        if means:
            out["figures"] = means
            if halves:
                out["ci95"] = halves
            out["holds_after"] = self.holds
        return out


def shortfall(item: Item) -> float:
    if item.found is not None and item.found.verdict is not None:
        return item.found.verdict.shortfall
    return band_shortfall(item.cell or {})


def outcome(
    item: Item,
    cause: Cause,
    cells: Sequence[Mapping[str, Any]],
    varied: Mapping[str, Mapping[str, Any]],
) -> Outcome:
    """The effect of ``cause`` on ``item``: ``varied`` holds the re-run cells by key."""
    keys = [k for k in item.varied_keys(cause) if k in varied]
    before = shortfall(item)
    if not keys:
        return Outcome(cause, before, None)
    if item.kind == "cell":
        cell = varied[keys[0]]
        ratio = cell_interval(cell)
        figures: dict[str, Any] = {"measured / published": ratio}
        return Outcome(cause, before, band_shortfall(cell), figures, band_shortfall(cell) == 0)
    assert item.found is not None
    swapped = [varied.get(cell_key(c), c) for c in cells]
    again = judge(item.found.claim, Cells(swapped))
    if again is None or again.verdict is None:
        return Outcome(cause, before, None)
    return Outcome(
        cause, before, again.verdict.shortfall, again.verdict.figures, again.verdict.holds
    )


def status(item: Item, checked: Outcome | None, ruled: Sequence[Outcome]) -> str:
    """``explained`` or ``open`` (module docs)."""
    if item.entry is None or item.entry.cause is None or checked is None:
        return "open"
    if not checked.moved or any(o.moved for o in ruled):
        return "open"
    return "explained"


def as_json(
    item: Item, paper: str, checked: Outcome | None, ruled: Sequence[Outcome]
) -> dict[str, Any]:
    """A deviation as JSON: ``paper``, ``kind``, ``key``, ``what``, ``explanation``,
    ``cause``, ``status`` (``explained`` / ``open``), ``check`` (the variation's outcome)
    and ``ruled_out`` (theirs)."""
    from lasthop.reproduction.claims import figures_text

    entry = item.entry
    if item.kind == "claim":
        assert item.found is not None and item.found.verdict is not None
        from lasthop.reproduction.claims import figures_json

        means, halves = figures_json(item.found.verdict.figures)
        claim = item.found.claim
        what = f"{claim.section}: {claim.checked_as}; measured {figures_text(means, halves)}"
        extra: dict[str, Any] = {}
    else:
        cell = item.cell or {}
        unit, measured = (
            ("packets/s", cell.get("throughput_pps"))
            if "throughput_pps" in cell
            else ("Mb/s", cell.get("throughput_mbps"))
        )
        ratio = cell_interval(cell)
        from lasthop.reproduction.claims import number

        what = (
            f"measured {number(measured)} {unit}, published {number(cell['published'])}, ratio "
            f"{number(ratio.mean if ratio else None)}±{number(ratio.half if ratio else None)} "
            f"(outside {RATIO_BAND[0]}-{RATIO_BAND[1]})"
        )
        extra = {"measured": measured, "published": cell["published"], "ratio": cell.get("ratio")}
    out: dict[str, Any] = {
        "paper": paper,
        "kind": item.kind,
        "key": item.key,
        "what": what,
        **extra,
        "explanation": entry.text if entry is not None else UNEXPLAINED,
        "cause": entry.cause.what
        if entry is not None and entry.cause is not None
        else NOT_IDENTIFIED,
        "status": status(item, checked, ruled),
    }
    if checked is not None:
        out["check"] = checked.as_json()
    if ruled:
        out["ruled_out"] = [o.as_json() for o in ruled]
    return out


def grouped(found: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """Deviations grouped by explanation, in order of first appearance: each text once,
    with the deviations it explains."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for deviation in found:
        groups.setdefault(str(deviation["explanation"]), []).append(deviation)
    return list(groups.items())
