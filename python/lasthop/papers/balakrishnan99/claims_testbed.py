"""The checkable statements of the testbed half of Balakrishnan, Padmanabhan, Katz 1999
(seed 001, Sec. 9.1; the reference's AS-34..AS-38) on the F19-F21 cells of
:mod:`lasthop.papers.balakrishnan99.testbed`. :mod:`lasthop.papers.balakrishnan99.claims`
lists them with the simulation claims.

Every comparison is the framework's one rule (:mod:`lasthop.reproduction.compare`). The seed
lost every number, so no claim compares with a published value; a bound that stands for a
lost number is derived [D] or the reference's reading [R], stated in each ``checked_as``.
"""

from __future__ import annotations

from typing import Final

from lasthop.papers.balakrishnan99.testbed import (
    ACKS_FIRST_BOUND_MBPS,
    F19,
    F19_MAXBURSTS,
    F19_PROTOCOLS,
    F20,
    F20_MAX_DELACKS,
    F20_MAXBURSTS,
    F21,
    F21_PROTOCOLS,
    INFINITY,
    REVERSE_MAX_KBPS,
    SLOPE_MBPS,
    f20_scheme,
    maxburst_name,
)
from lasthop.reproduction.claims import Cells, Claim, Verdict
from lasthop.reproduction.compare import Estimate, Judge

_NAMES: Final = {"reno": "Reno", "acc": "ACC+SA", "af": "AF+SA"}

LINEAR_MAXBURSTS: Final = (1, 2, 3)
"""F19's linear region [T: "as maxburst increases, the average throughput increases
linearly"; its extent is lost, R: the first three values, below the recommended 3 or 4]."""
PLATEAU_MAXBURSTS: Final = tuple(m for m in F19_MAXBURSTS if LINEAR_MAXBURSTS[-1] < m < INFINITY)
"""Where F19 may level off: the finite maxburst values past the linear region."""
NEAR_CAPACITY: Final = 0.9
"""The reverse throughputs "near the link speed" (Sec. 9.1.3): at least 90% of the channel's
most goodput [R: AS-18's "within 10% of the reverse maximum"]."""
RELATIVELY_WELL: Final = 0.7
"""ACC's reverse transfer with acks-first doing "relatively well": at least 70% of the most
goodput [R: AS-19's reading of "reasonably good"]."""
HALF: Final = 0.5
"""AS-38: "about half" of the window-per-packet bound: 0.45-0.55 by the framework's rule for
a number as written (:func:`lasthop.reproduction.compare.precision_band`)."""


def _f19(c: Cells, protocol: str, m: int, key: str = "throughput_mbps") -> Estimate:
    return c.est(F19, f"maxburst-{maxburst_name(m)}", protocol, key)


def _as34(c: Cells) -> Verdict:
    j = Judge()
    for p in F19_PROTOCOLS:
        n = _NAMES[p]
        # Linear: below one burst per tick, rising with maxburst.
        for m in LINEAR_MAXBURSTS:
            j.within(
                f"{n} maxburst {m} Mb/s (bound {m * SLOPE_MBPS:.3f})",
                _f19(c, p, m),
                hi=m * SLOPE_MBPS,
            )
            j.note(f"{n} maxburst {m} / bound", _f19(c, p, m) / (m * SLOPE_MBPS))
        for a, b in zip(LINEAR_MAXBURSTS, LINEAR_MAXBURSTS[1:], strict=False):
            j.greater(f"{n} maxburst {b}/{a}", _f19(c, p, b), _f19(c, p, a))
        # Levels off: the best mean past the linear region, and the next value about equal.
        t = {m: _f19(c, p, m) for m in PLATEAU_MAXBURSTS}
        best = max(PLATEAU_MAXBURSTS, key=lambda m: t[m].mean)
        first = _f19(c, p, LINEAR_MAXBURSTS[-1])
        j.greater(f"{n} best (maxburst {best})/maxburst {LINEAR_MAXBURSTS[-1]}", t[best], first)
        after = [m for m in PLATEAU_MAXBURSTS if m > best]
        if after:
            j.about_equal(f"{n} maxburst {after[0]}/{best} (levels off)", t[after[0]], t[best])
        else:
            j.holds_if(f"{n} levels off: a maxburst past the best ({best})", None, False, 1.0)
        # Then drops: infinity's mean below the best, its spread above the best cell's.
        j.less(f"{n} inf/best", _f19(c, p, INFINITY), t[best])
        j.greater(
            f"{n} sd inf/best",
            _f19(c, p, INFINITY, "throughput_sd_mbps"),
            _f19(c, p, best, "throughput_sd_mbps"),
        )
    return Verdict.of(j)


def _f20(c: Cells, m: int, d: int) -> Estimate:
    return c.est(F20, f"delack-{d}", f20_scheme(m), "throughput_mbps")


def _as35(c: Cells) -> Verdict:
    j = Judge()
    d = F20_MAX_DELACKS
    for m in F20_MAXBURSTS:
        j.greater(f"maxburst {m}: max_delack {d[1]}/{d[0]}", _f20(c, m, d[1]), _f20(c, m, d[0]))
        for a, b in zip(d[1:-1], d[2:-1], strict=False):
            j.not_below(f"maxburst {m}: max_delack {b}/{a}", _f20(c, m, b), _f20(c, m, a))
        j.about_equal(
            f"maxburst {m}: max_delack {d[-1]}/{d[-2]}", _f20(c, m, d[-1]), _f20(c, m, d[-2])
        )
    j.note("Reno Mb/s", c.est(F20, "reference", "reno", "throughput_mbps"))
    return Verdict.of(j)


def _fwd(c: Cells, scheduling: str, p: str) -> Estimate:
    return c.est(F21, scheduling, p, "forward_mbps")


def _rev(c: Cells, scheduling: str, p: str) -> Estimate:
    return c.est(F21, scheduling, p, "reverse_kbps")


def _as36(c: Cells) -> Verdict:
    j = Judge()
    for p in ("acc", "af"):
        j.greater(f"FIFO forward Reno/{_NAMES[p]}", _fwd(c, "fifo", "reno"), _fwd(c, "fifo", p))
    for p in ("acc", "af"):
        j.within(
            f"{_NAMES[p]} FIFO reverse / max",
            _rev(c, "fifo", p) / REVERSE_MAX_KBPS,
            lo=NEAR_CAPACITY,
        )
    return Verdict.of(j)


def _as37(c: Cells) -> Verdict:
    j = Judge()
    for p in F21_PROTOCOLS:
        j.greater(
            f"{_NAMES[p]} forward acks-first/FIFO", _fwd(c, "acks-first", p), _fwd(c, "fifo", p)
        )
    j.less("Reno reverse acks-first/FIFO", _rev(c, "acks-first", "reno"), _rev(c, "fifo", "reno"))
    j.within("AF+SA acks-first reverse kb/s", _rev(c, "acks-first", "af"), hi=0.0)
    j.about_equal(
        "AF+SA acks-first forward / one-way (F19, maxburst 4)",
        _fwd(c, "acks-first", "af"),
        _f19(c, "af", 4),
    )
    j.within(
        "ACC+SA acks-first reverse / max",
        _rev(c, "acks-first", "acc") / REVERSE_MAX_KBPS,
        lo=RELATIVELY_WELL,
    )
    return Verdict.of(j)


def _as38(c: Cells) -> Verdict:
    j = Judge()
    j.about(
        "ACC+SA acks-first forward / bound",
        _fwd(c, "acks-first", "acc") / ACKS_FIRST_BOUND_MBPS,
        HALF,
    )
    return Verdict.of(j)


TESTBED_CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        "AS-34",
        "Sec. 9.1.1, F19",
        "The throughput increases steadily with maxburst, levels off, and then drops: at "
        "first it is limited by the 10 ms granularity of the software timer that schedules "
        "bursts (maxburst 1: one 1460-byte segment per 10 ms, 1.17 Mb/s), so it increases "
        "linearly; large bursts overflow the Ethernet card's buffer at times, and the runs "
        "with losses pull the average down and raise the variability.",
        f"ACC+SA and AF+SA each: at maxburst {', '.join(map(str, LINEAR_MAXBURSTS))} not "
        f"above maxburst x {SLOPE_MBPS:.3f} Mb/s (one burst of 1448-byte segments per 10 ms "
        "tick [D]) and each greater than the one before (how close to the bound is shown, "
        "not judged: 'linearly' has no tolerance); the best mean over the finite maxburst "
        f"values past {LINEAR_MAXBURSTS[-1]} greater than maxburst {LINEAR_MAXBURSTS[-1]}'s, and "
        "the next value past the best about equal to it (levels off); at infinity the mean "
        "less than the best and the sd over the seeds greater than the best cell's",
        _as34,
        tags=(F19,),
    ),
    Claim(
        "AS-35",
        "Sec. 9.1.2, F20",
        "As max_delack increases, the throughput increases initially (fewer acks relieve "
        "the reverse channel's congestion), then there is little increase.",
        f"ACC+SA at maxburst {' and '.join(map(str, F20_MAXBURSTS))} each, max_delack over "
        f"{', '.join(map(str, F20_MAX_DELACKS))}: the second greater than the first "
        "(increases initially), each later one not below the one before, the last about equal "
        "to the one before it (then little increase; where the rise ends is lost)",
        _as35,
        tags=(F20,),
    ),
    Claim(
        "AS-36",
        "Sec. 9.1.3, F21",
        "With FIFO scheduling the reverse transfer's large data packets starve the forward "
        "transfer's acks: forward throughput is poor, worse with ACC and AF than with Reno "
        "(fewer acks, more stalls); the reverse throughputs show the opposite trend, near "
        "the link speed with ACC and AF.",
        "two-way FIFO: Reno's forward throughput greater than ACC+SA's and than AF+SA's; "
        f"ACC+SA's and AF+SA's reverse at least {NEAR_CAPACITY:g} x {REVERSE_MAX_KBPS:.2f} "
        'kb/s (the dialup\'s goodput [D]; "near" [R: AS-18])',
        _as36,
        tags=(F21,),
    ),
    Claim(
        "AS-37",
        "Sec. 9.1.3, F21",
        "Acks-first scheduling improves forward throughput substantially; with Reno it hurts "
        "the reverse throughput significantly; with AF the reverse transfer is shut out "
        "completely while the forward transfer gets about its one-way throughput; with ACC "
        "both do relatively well.",
        "two-way: forward throughput with acks-first greater than with FIFO for Reno, ACC+SA "
        "and AF+SA; Reno's reverse with acks-first less than with FIFO; AF+SA's reverse with "
        "acks-first 0, and its forward about equal to its one-way F19 cell at maxburst 4; "
        f"ACC+SA's reverse with acks-first at least {RELATIVELY_WELL:g} x "
        f'{REVERSE_MAX_KBPS:.2f} kb/s ("relatively well" [R: AS-19])',
        _as37,
        tags=(F21,),
    ),
    Claim(
        "AS-38",
        "Sec. 9.1.3",
        "With acks-first, ACC's forward throughput is about half the best possible: one "
        "window of 64 KB per reverse data packet's transmission time.",
        f"two-way acks-first: ACC+SA's forward throughput over {ACKS_FIRST_BOUND_MBPS:.3f} "
        "Mb/s (65535 bytes per 417 ms, a 1500-byte packet's time on 28.8 kb/s [D]) about "
        f"{HALF:g} (0.45-0.55)",
        _as38,
        tags=(F21,),
    ),
)
