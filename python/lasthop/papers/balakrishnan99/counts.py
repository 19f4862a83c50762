"""A count that a claim of seed 001 needs above zero (forward drops, timeouts)."""

from __future__ import annotations

from lasthop.reproduction.compare import Estimate, Judge


def positive(j: Judge, name: str, count: Estimate) -> bool:
    """A count per run greater than zero: its 95% interval wholly above 0.

    Not :meth:`~lasthop.reproduction.compare.Judge.greater` against an exact 0: when the
    count is exactly 0 too, that test fails with a shortfall of 0 (the gap is relative to
    the figures' size, here none), which a deviation's check would read as a move toward
    the paper. Here a count of 0 falls short by 1, and a variation that makes it positive
    shows as one."""
    holds = count.lo > 0
    return j.holds_if(name, count, holds, 0.0 if holds else 1.0)
