"""One cell of a reproduction to measure: an embedded scenario with overrides, averaged
over seeds. The framework runs its scenario once per seed (:mod:`lasthop.reproduction.jobs`);
its paper makes the cell of the runs' summaries, with the measures it reads."""

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
