"""The one rule by which every paper's claims compare measured figures (issue 28).

A figure measured over seeds is an :class:`Estimate`: the mean of the runs and the half
width of its 95% confidence interval, ``t(0.975, n-1) * s / sqrt(n)``. A value with no
spread (one run, or a figure printed in a paper) is an estimate whose interval is the
value itself. Claims compare estimates only through :class:`Judge`, whose words are the
papers' words:

- ``greater(x, y)``: "X > Y", "better", "higher", "faster", "more", "significantly",
  "much": the two intervals do not overlap and X's lies above.
- ``about_equal(x, y)``: "about the same", "comparable", "as well as": the intervals
  overlap. ``rel`` widens Y's interval by a tolerance the paper itself shows (e.g. it
  calls 0.60 and 0.70 Mb/s "about the same"), and the claim says where it comes from.
- ``not_below(x, y)``: "at least as good as", "the best of": Y is not greater than X.
- ``above(x, v)``, ``below(x, v)``: a one-sided bound the paper quotes ("more than a
  factor of two", "less than 50%"): X's whole interval beyond it, as "X > Y" with Y the
  bound.
- ``within(x, lo, hi)``: a range the paper quotes ("between 10% and 25%", "1.75-2
  times"): X's interval meets the range. "No timeouts" is ``within(x, hi=0)``.
- ``about(x, v)``: a number the paper gives as "about v", read to the precision it is
  written with, half a unit of its last significant figure either side ("about 10%":
  5-15%, "about 35%": 32.5-37.5%, "about 0.8 Mb/s": 0.75-0.85, "about nine times":
  8.5-9.5): then ``within``. ``about(x, v, unit)`` names the unit where the paper's
  rounding is coarser than its digits (a percentage stated to the nearest 5).

No other tolerance enters a verdict: a claim that needs one quotes it from the paper.

Derived figures carry their intervals: ``x / y``, ``x - y``, ``k * x`` and ``1 - x``
propagate the half widths to first order, the two means taken as independent. Every
scheme of a cell runs the same seeds, which correlates the means positively if at all,
so independence overstates the interval of a ratio or a difference: "greater" is then
harder to show and "about equal" easier, never the reverse.

Each comparison also says how far it is from holding, its *shortfall* (0 when it holds,
else the gap between the intervals relative to the figures' size). A deviation's check
varies a cause and asks whether a failed claim's shortfall shrinks (:mod:`deviations`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

# Student's t, 0.975 quantile, for 1..30 degrees of freedom (the standard table,
# Abramowitz and Stegun 26.7). Reproductions run 10 or 20 seeds; beyond 30 the normal
# 1.96 is within 4%. Tabulated rather than taken from scipy, which lasthop does not
# otherwise need and whose import alone costs more than a reproduction's rendering.
_T975: Final = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"df: at least 1, got {df}")
    return _T975[df - 1] if df <= len(_T975) else 1.96


def ci95(values: Iterable[float]) -> tuple[float, float]:
    """Mean and 95% half width of ``values`` (half width 0 for a single value)."""
    xs = [float(v) for v in values]
    if not xs:
        raise ValueError("ci95: no values")
    mean = math.fsum(xs) / len(xs)
    if len(xs) < 2:
        return mean, 0.0
    var = math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    return mean, t975(len(xs) - 1) * math.sqrt(var) / math.sqrt(len(xs))


def cell_half_width(values: Sequence[float], mean: float) -> float | None:
    """The 95% half width of a cell's figure over the seeds' ``values``, to 4 significant
    digits, as cells carry it in ``ci95``; ``None`` where every seed gives the figure alike
    and it varies only in its last bits (or there is one seed)."""
    half = float(f"{ci95(values)[1]:.4g}")
    return half if half > 1e-9 * max(1.0, abs(mean)) else None


@dataclass(frozen=True)
class Estimate:
    """A measured figure: ``mean`` with a 95% interval of half width ``half``."""

    mean: float
    half: float = 0.0

    @classmethod
    def of(cls, values: Iterable[float]) -> Estimate:
        mean, half = ci95(values)
        return cls(mean, half)

    @property
    def lo(self) -> float:
        return self.mean - self.half

    @property
    def hi(self) -> float:
        return self.mean + self.half

    def __truediv__(self, other: Estimate | float) -> Estimate:
        o = other if isinstance(other, Estimate) else Estimate(float(other))
        if o.mean == 0:
            raise ZeroDivisionError("ratio of estimates: the denominator's mean is 0")
        ratio = self.mean / o.mean
        rel = math.hypot(_rel(self), _rel(o))
        return Estimate(ratio, abs(ratio) * rel)

    def __sub__(self, other: Estimate | float) -> Estimate:
        o = other if isinstance(other, Estimate) else Estimate(float(other))
        return Estimate(self.mean - o.mean, math.hypot(self.half, o.half))

    def __rsub__(self, other: float) -> Estimate:
        return Estimate(float(other) - self.mean, self.half)

    def __add__(self, other: Estimate | float) -> Estimate:
        o = other if isinstance(other, Estimate) else Estimate(float(other))
        return Estimate(self.mean + o.mean, math.hypot(self.half, o.half))

    def __mul__(self, k: float) -> Estimate:
        return Estimate(self.mean * k, self.half * abs(k))

    __rmul__ = __mul__


def _rel(e: Estimate) -> float:
    if e.mean == 0:
        return 0.0 if e.half == 0 else math.inf
    return e.half / abs(e.mean)


def precision_band(value: float, unit: float | None = None) -> tuple[float, float]:
    """``value`` as a paper writes it, to half a unit of its last significant figure:
    10 -> 5..15, 35 -> 34.5..35.5 (pass ``unit=5`` for a percentage rounded to 5),
    0.8 -> 0.75..0.85, 9 -> 8.5..9.5, 1.75 -> 1.745..1.755."""
    if unit is None:
        unit = _last_unit(value)
    return value - unit / 2, value + unit / 2


def _last_unit(value: float) -> float:
    """The unit of ``value``'s last significant figure as written (``repr``)."""
    text = repr(abs(float(value)))
    if "e" in text:
        raise ValueError(f"about: write {value} without an exponent")
    whole, _, frac = text.partition(".")
    frac = frac.rstrip("0")
    if frac:
        return 10.0 ** -len(frac)
    digits = whole.rstrip("0")
    return 10.0 ** (len(whole) - len(digits)) if digits else 1.0


@dataclass(frozen=True)
class Test:
    """One comparison: its figure (the estimate a reader looks at), whether it holds,
    and its shortfall (0 when it holds)."""

    name: str
    figure: Estimate | None
    holds: bool
    shortfall: float


def _scale(*xs: float) -> float:
    return max([abs(x) for x in xs if math.isfinite(x)] + [1e-12])


@dataclass
class Judge:
    """Collects a claim's comparisons; :meth:`verdict` is their conjunction."""

    tests: list[Test] = field(default_factory=list)
    notes: dict[str, Estimate | None] = field(default_factory=dict)

    def greater(self, name: str, x: Estimate, y: Estimate, *, factor: float = 1.0) -> bool:
        """X > factor * Y: X's interval wholly above Y's (scaled). Figure: X / Y."""
        yy = y * factor
        holds = x.lo > yy.hi
        gap = 0.0 if holds else (yy.hi - x.lo) / _scale(x.mean, yy.mean)
        return self._add(name, _ratio(x, y), holds, gap)

    def less(self, name: str, x: Estimate, y: Estimate, *, factor: float = 1.0) -> bool:
        """X < factor * Y. Figure: X / Y."""
        yy = y * factor
        holds = x.hi < yy.lo
        gap = 0.0 if holds else (x.hi - yy.lo) / _scale(x.mean, yy.mean)
        return self._add(name, _ratio(x, y), holds, gap)

    def not_below(self, name: str, x: Estimate, y: Estimate) -> bool:
        """X at least Y: Y not greater than X. Figure: X / Y."""
        holds = not y.lo > x.hi
        gap = 0.0 if holds else (y.lo - x.hi) / _scale(x.mean, y.mean)
        return self._add(name, _ratio(x, y), holds, gap)

    def about_equal(self, name: str, x: Estimate, y: Estimate, *, rel: float = 0.0) -> bool:
        """X about Y: the intervals overlap (Y's widened by ``rel`` of its mean, a
        tolerance the claim quotes from the paper). Figure: X / Y."""
        lo, hi = y.lo - rel * abs(y.mean), y.hi + rel * abs(y.mean)
        holds = x.hi >= lo and x.lo <= hi
        gap = 0.0 if holds else max(lo - x.hi, x.lo - hi) / _scale(x.mean, y.mean)
        return self._add(name, _ratio(x, y), holds, gap)

    def above(self, name: str, x: Estimate, bound: float) -> bool:
        """X above a quoted bound: its whole interval. Figure: X."""
        holds = x.lo > bound
        gap = 0.0 if holds else (bound - x.lo) / _scale(bound, x.mean)
        return self._add(name, x, holds, gap)

    def below(self, name: str, x: Estimate, bound: float) -> bool:
        """X below a quoted bound: its whole interval. Figure: X."""
        holds = x.hi < bound
        gap = 0.0 if holds else (x.hi - bound) / _scale(bound, x.mean)
        return self._add(name, x, holds, gap)

    def within(self, name: str, x: Estimate, lo: float = -math.inf, hi: float = math.inf) -> bool:
        """X's interval meets [lo, hi]. Figure: X."""
        holds = x.hi >= lo and x.lo <= hi
        gap = 0.0 if holds else max(lo - x.hi, x.lo - hi) / _scale(lo, hi, x.mean)
        return self._add(name, x, holds, gap)

    def about(self, name: str, x: Estimate, value: float, unit: float | None = None) -> bool:
        """X about ``value`` as the paper writes it (:func:`precision_band`)."""
        lo, hi = precision_band(value, unit)
        return self.within(name, x, lo, hi)

    def holds_if(
        self, name: str, figure: Estimate | None, holds: bool, shortfall: float = 0.0
    ) -> bool:
        """A test of another shape (an order of several figures, a count): the claim
        computes it and says why it is not one of the above."""
        return self._add(name, figure, holds, 0.0 if holds else max(shortfall, 1e-9))

    def note(self, name: str, figure: Estimate | None) -> None:
        """A figure shown with the verdict that no test reads."""
        self.notes[name] = figure

    def _add(self, name: str, figure: Estimate | None, holds: bool, gap: float) -> bool:
        # A comparison that fails is never 0 away from holding (two equal exact figures
        # fail "greater" with no gap between them).
        self.tests.append(Test(name, figure, holds, 0.0 if holds else max(gap, 1e-9)))
        return holds

    @property
    def holds(self) -> bool:
        return all(t.holds for t in self.tests)

    @property
    def shortfall(self) -> float:
        return math.fsum(t.shortfall for t in self.tests)

    def figures(self) -> dict[str, Estimate | None]:
        out: dict[str, Estimate | None] = {t.name: t.figure for t in self.tests}
        out.update(self.notes)
        return out


def _ratio(x: Estimate, y: Estimate) -> Estimate | None:
    return None if y.mean == 0 else x / y


def figures_json(
    figures: Mapping[str, Estimate | None], digits: int = 4
) -> tuple[dict[str, float | None], dict[str, float | None]]:
    """Means and half widths, rounded, for the JSON of a claim."""
    means = {k: None if v is None else round(v.mean, digits) for k, v in figures.items()}
    halves = {k: None if v is None else round(v.half, digits) for k, v in figures.items()}
    return means, halves
