"""Seed 004's analysis (Yun 2009, Secs. 3.2-3.3): the wireless transfer time of Eq. (1),
the ELN delays of Table 1, and the wired-link overhead of ERSN and ELN messages of Eqs.
(2)-(4) that Fig. 3 plots. Pure arithmetic, no simulation: ``lasthop reproduce yun09``
draws Fig. 3 from :func:`fig3_curves` and checks statement A26 with :func:`check_a26`.

Notation (the paper's): ``p`` the frame error probability, ``l`` the retry limit (attempts
per frame, the first included), ``L/P`` the notification message's length over the data
frame's (0.2 in Fig. 3: a 40-byte message against a 200-byte frame, the paper's ratio).
Where the paper leaves a choice open the reading of ``../shared/reference/yun-004.md``
Sec. 2.7 is followed and named below.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, Literal

MESSAGE_TO_FRAME: Final = 0.2
"""L/P of Fig. 3 (Sec. 3.3)."""

RETRY_LIMITS: Final = (1, 2, 4, 7)
"""The retry limits Fig. 3 draws (yun-004.md ambiguity 8: the values used elsewhere)."""

OVERHEAD_BOUND: Final = 0.05
"""Sec. 3.3: R stays below 5 % of r "in the considered range of p"."""

OVERHEAD_RANGE: Final = 0.25
"""The largest p of A26's range: every curve of Fig. 3 is at or under the bound up to it
(the l = 1 ELN curve is R/r = (L/P) p, which reaches 5 % exactly at p = 0.25)."""

Scheme = Literal["balakrishnan", "hack", "lhp", "ll-elsn"]
Direction = Literal["down", "up"]


def wireless_time(t: float, loss: float) -> float:
    """Eq. (1): the mean time to get a frame of transmission time ``t`` across a link that
    loses it with probability ``loss``, retried until it passes: sum over k >= 0 of
    k t P^k (1 - P), plus t, which is t / (1 - P)."""
    if not 0.0 <= loss < 1.0:
        raise ValueError(f"loss probability must be in [0, 1), got {loss}")
    return t / (1.0 - loss)


def wireless_time_series(t: float, loss: float, terms: int = 10_000) -> float:
    """Eq. (1) summed term by term (to check the closed form of :func:`wireless_time`)."""
    return math.fsum(k * t * loss**k * (1.0 - loss) for k in range(terms)) + t


def expected_attempts(p: float, limit: int) -> float:
    """E[RT] of Eqs. (2)-(3): the mean number of attempts of a frame that gets through
    within ``limit`` (l) attempts, sum_{i=1..l} i p^(i-1) (1-p) / (1 - p^l)."""
    if limit < 1:
        raise ValueError(f"retry limit must be at least 1, got {limit}")
    if not 0.0 < p < 1.0:
        raise ValueError(f"frame error probability must be in (0, 1), got {p}")
    return math.fsum(i * p ** (i - 1) * (1.0 - p) for i in range(1, limit + 1)) / (1.0 - p**limit)


def ersn_interval(p: float, limit: int) -> float:
    """Eq. (2): slots between two ERSN messages, E[RT] (1 - p^(l-1)) + (l-1) p^(l-1) + 1/p.
    E[RT] is taken over l - 1 attempts (a frame announced by ERSN has at most l - 1
    retransmissions left; the reference's reading, under 3 % from the l-attempt one).
    ERSN needs a retransmission: none with l = 1."""
    if limit < 2:
        raise ValueError("ERSN needs a retry limit of at least 2 (a first retransmission)")
    tail = p ** (limit - 1)
    return expected_attempts(p, limit - 1) * (1.0 - tail) + (limit - 1) * tail + 1.0 / p


def eln_interval(p: float, limit: int) -> float:
    """Eq. (3): slots between two ELN messages, E[RT] (1/p^l - 1) + l."""
    return expected_attempts(p, limit) * (1.0 / p**limit - 1.0) + limit


def overhead(
    p: float, limit: int, kind: Literal["ersn", "eln"], ratio: float = MESSAGE_TO_FRAME
) -> float:
    """Eq. (4): the messages' rate on the wired link as a fraction of the data rate r,
    R / r = (L/P) / I."""
    interval = ersn_interval(p, limit) if kind == "ersn" else eln_interval(p, limit)
    return ratio / interval


def fig3_curves(
    ps: Sequence[float], limits: Sequence[int] = RETRY_LIMITS
) -> dict[str, list[float | None]]:
    """Fig. 3: R / r against p, one curve per message and retry limit (``eln l=1``,
    ``ersn l=2``, ...; ERSN has no l = 1 curve)."""
    curves: dict[str, list[float | None]] = {}
    for limit in limits:
        curves[f"eln l={limit}"] = [overhead(p, limit, "eln") for p in ps]
        if limit >= 2:
            curves[f"ersn l={limit}"] = [overhead(p, limit, "ersn") for p in ps]
    return curves


def eln_delay(
    scheme: Scheme,
    direction: Direction,
    t_data: float,
    t_ack: float,
    p_data: float,
    p_ack: float,
    t_wired: float,
) -> float:
    """Table 1: the time from a wireless loss to its notification reaching the TCP sender.
    ``t_wired`` is T_wrd, the one-way wired delay between the base station and the remote
    TCP end; the wireless times are Eq. (1)'s."""
    data, ack = wireless_time(t_data, p_data), wireless_time(t_ack, p_ack)
    hops = 1.0 if direction == "down" else 2.0
    if scheme == "balakrishnan":
        return data + ack + hops * t_wired
    if scheme in ("hack", "lhp"):
        return ack + hops * t_wired
    return t_wired if direction == "down" else 0.0


def check_a26(ps: Sequence[float]) -> tuple[bool, dict[str, float]]:
    """A26: Eq. (1)'s series equals its closed form, and no Fig. 3 curve exceeds 5 % of r
    for p <= 0.25. Returns the verdict and the figures it rests on."""
    series_gap = max(
        abs(wireless_time_series(1.0, loss) - wireless_time(1.0, loss)) for loss in (0.01, 0.1, 0.5)
    )
    in_range = [p for p in ps if p <= OVERHEAD_RANGE]
    worst = max(v for curve in fig3_curves(in_range).values() for v in curve if v is not None)
    measured = {"Eq. 1 series - closed form": series_gap, "largest R/r for p <= 0.25": worst}
    return series_gap < 1e-9 and worst <= OVERHEAD_BOUND + 1e-12, measured
