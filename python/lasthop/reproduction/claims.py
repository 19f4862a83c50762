"""A paper's checkable statements, evaluated on the cells of a reproduction, and the
deviations a reproduction owes an explanation for.

A :class:`Claim` is one statement of a paper (quoted, with its section) and a function of
the measured cells that says whether it holds and which measured figures it used. A
paper lists its claims in its package (``lasthop.papers.balakrishnan97.claims``), beside
its explanations: a mapping from a claim id or a cell key to the text that explains why
the claim fails or the cell is far from the published one. The explanations are data, to
be revised as the model changes; a deviation no entry matches says so.

- :func:`evaluate`: every claim whose cells the reproduction ran, as JSON-ready dicts
  (``holds`` / ``fails`` with the figures, or ``unchecked`` with the reason for
  statements the cells cannot decide).
- :func:`deviations`: every failed claim and every cell whose ratio to the published
  value is outside :data:`RATIO_BAND`, each with its explanation.

Cells are dicts as :func:`lasthop.reproduction.reproduce.reproduce` returns them: ``table``,
``setting``, ``scheme``, ``throughput_mbps``, ``wireless_goodput_pct``,
``wired_goodput_pct``, ``published``, ``ratio`` and, where measured, ``retransmits`` and
``timeouts`` (the source's, mean per run).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

RATIO_BAND: Final = (0.8, 1.25)
"""A cell whose measured / published ratio is outside this band is a deviation."""

UNEXPLAINED: Final = "Not yet explained."
"""The explanation of a deviation that no entry of the explanations matches."""


class MissingCell(LookupError):
    """A claim asked for a cell the reproduction did not run (``--only``, another
    ``which``): the claim is left out, not failed."""


@dataclass(frozen=True)
class Verdict:
    """What a claim's check found: whether the statement holds, and the measured figures
    it compared, by name (e.g. ``{"wan-32k LL-TCP-AWARE / LL": 1.2}``)."""

    holds: bool
    figures: Mapping[str, float | None]


class Cells:
    """The cells of a reproduction, looked up by (table, setting, scheme).

    Every lookup of a cell that is not there raises :class:`MissingCell`."""

    def __init__(self, cells: Sequence[Mapping[str, Any]]) -> None:
        self._by_key = {(str(c["table"]), str(c["setting"]), str(c["scheme"])): c for c in cells}

    def cell(self, table: str, setting: str, scheme: str) -> Mapping[str, Any]:
        found = self._by_key.get((table, setting, scheme))
        if found is None:
            raise MissingCell(f"{table}/{setting}/{scheme}")
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


Check = Callable[[Cells], Verdict]


@dataclass(frozen=True)
class Claim:
    """One checkable statement of a paper."""

    id: str
    """Short stable name, e.g. ``iii-newreno-wan``: the key of its explanation."""
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
    """What it is about (``table2``, ``fig12``, ...), for grouping."""


def evaluate(claims: Sequence[Claim], cells: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each claim as a dict: ``id``, ``section``, ``statement``, ``checked_as``,
    ``status`` (``holds``, ``fails`` or ``unchecked``), ``figures`` (name -> measured
    value, rounded to 4 digits) and, if unchecked, ``reason``. Claims whose cells the
    reproduction did not run are left out; an unchecked claim is listed only when some
    cells of its tags ran."""
    lookup = Cells(cells)
    tables = {str(c["table"]) for c in cells}
    out: list[dict[str, Any]] = []
    for claim in claims:
        entry: dict[str, Any] = {
            "id": claim.id,
            "section": claim.section,
            "statement": claim.statement,
            "checked_as": claim.checked_as,
        }
        if claim.check is None:
            if claim.tags and not tables.intersection(claim.tags):
                continue
            entry.update(status="unchecked", figures={}, reason=claim.unchecked)
            out.append(entry)
            continue
        try:
            verdict = claim.check(lookup)
        except MissingCell:
            continue
        entry.update(
            status="holds" if verdict.holds else "fails",
            figures={k: None if v is None else round(v, 4) for k, v in verdict.figures.items()},
        )
        out.append(entry)
    return out


def cell_key(cell: Mapping[str, Any]) -> str:
    """A cell's key in the explanations: ``table/setting/scheme``."""
    return f"{cell['table']}/{cell['setting']}/{cell['scheme']}"


def explain(key: str, explanations: Mapping[str, str]) -> str:
    """The explanation of ``key``: the first entry whose key matches it exactly or as a
    shell pattern (``table3/*/e2e-eln*``), else :data:`UNEXPLAINED`."""
    exact = explanations.get(key)
    if exact is not None:
        return exact
    for pattern, text in explanations.items():
        if fnmatch.fnmatchcase(key, pattern):
            return text
    return UNEXPLAINED


def deviations(
    claims: Sequence[Mapping[str, Any]],
    cells: Sequence[Mapping[str, Any]],
    explanations: Mapping[str, str],
    band: tuple[float, float] = RATIO_BAND,
) -> list[dict[str, Any]]:
    """Every failed claim (as :func:`evaluate` gives them) and every cell whose ratio to
    the published value is outside ``band``, in that order, each ``{"kind": "claim" |
    "cell", "key", "what", "explanation"}``; cells also carry ``measured``,
    ``published`` and ``ratio``."""
    out: list[dict[str, Any]] = []
    for claim in claims:
        if claim["status"] != "fails":
            continue
        figures = figures_text(claim["figures"])
        out.append(
            {
                "kind": "claim",
                "key": claim["id"],
                "what": f"{claim['section']}: {claim['checked_as']}; measured {figures}",
                "explanation": explain(claim["id"], explanations),
            }
        )
    for cell in cells:
        ratio = cell.get("ratio")
        if ratio is None or band[0] <= float(ratio) <= band[1]:
            continue
        key = cell_key(cell)
        unit, measured = (
            ("packets/s", cell.get("throughput_pps"))
            if "throughput_pps" in cell
            else ("Mb/s", cell.get("throughput_mbps"))
        )
        out.append(
            {
                "kind": "cell",
                "key": key,
                "what": (
                    f"measured {_number(measured)} {unit}, published {_number(cell['published'])}"
                    f", ratio {float(ratio):.2f} (outside {band[0]}-{band[1]})"
                ),
                "measured": measured,
                "published": cell["published"],
                "ratio": ratio,
                "explanation": explain(key, explanations),
            }
        )
    return out


def grouped(found: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """``deviations()`` grouped by explanation, in order of first appearance: each text
    once, with the deviations it explains."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for deviation in found:
        groups.setdefault(str(deviation["explanation"]), []).append(deviation)
    return list(groups.items())


def figures_text(figures: Mapping[str, Any]) -> str:
    """A claim's measured figures as one line: ``name value, name value``."""
    return ", ".join(f"{name} {_number(value)}" for name, value in figures.items())


def _number(value: Any) -> str:
    if value is None:
        return "-"
    # Four significant digits: a goodput of 99.99% must not print as 100.
    number = float(value)
    return f"{number:.4g}" if abs(number) < 100 else f"{number:.1f}"
