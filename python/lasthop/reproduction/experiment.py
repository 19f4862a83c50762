"""One cell of a reproduction to measure: an embedded scenario with overrides, averaged
over seeds (the papers whose cells carry their own measures: seeds 001 and 004)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Experiment:
    """One cell: an embedded scenario with overrides, averaged over seeds."""

    table: str
    setting: str
    scheme: str
    scenario: str
    sets: tuple[str, ...]
