"""The checkable statements of Balakrishnan, Padmanabhan, Katz 1999 (seed 001) about
latency and media-access asymmetry (Secs. 5, 7.2, 7.3): the packet-radio chain (E-S5,
T6, F11, F12), many connections over one radio hop (E-S6, T7, F13) and the web
micro-benchmark (E-S7, F15), on the cells of :mod:`lasthop.papers.balakrishnan99.experiments`.

The ids are the reference's (``/work/shared/reference/asymmetry-001.md`` Sec. 4,
AS-23..AS-33). Every comparison is the framework's one rule
(:mod:`lasthop.reproduction.compare`): "better", "more", "less" are non-overlapping 95%
intervals over the seeds, "little change", "about the same" overlapping ones, "best" not
below any rival (for a completion time, not above). No number survives in the seed.
"""

from __future__ import annotations

from typing import Final

from lasthop.papers.balakrishnan99.counts import positive
from lasthop.papers.balakrishnan99.experiments import (
    F15_HOSTS,
    F15_PROTOCOL_NAMES,
    T6_HOPS,
    T7_CONNECTIONS,
    protocol_name,
)
from lasthop.reproduction.claims import Cells, Claim, Verdict
from lasthop.reproduction.compare import Estimate, Judge

T6: Final = "b99-t6"
T7: Final = "b99-t7"
F15: Final = "b99-f15"
F12_HOPS: Final = 3
"""F12's chain: "[3] hops" [R]."""


def _kbps(c: Cells, hops: int, p: str) -> Estimate:
    return c.est(T6, f"{hops}-hop", p, "throughput_kbps")


def _as23(c: Cells) -> Verdict:
    j = Judge()
    for h in T6_HOPS:
        t = {p: _kbps(c, h, p) for p in ("reno", "acc", "af")}
        j.greater(f"{h} hop AF+SA/ACC+SA", t["af"], t["acc"])
        j.greater(f"{h} hop ACC+SA/Reno", t["acc"], t["reno"])
    return Verdict.of(j)


def _as24(c: Cells) -> Verdict:
    j = Judge()
    s = f"{F12_HOPS}-hop"
    for key, label in (
        ("mean_rtt_ms", "mean RTT"),
        ("rtt_std_ms", "RTT sd"),
        ("frames_per_radio", "frames per radio"),
    ):
        j.less(
            f"{F12_HOPS} hops {label} AF+SA/Reno",
            c.est(T6, s, "af", key),
            c.est(T6, s, "reno", key),
        )
    return Verdict.of(j)


def _as25(c: Cells) -> Verdict:
    """Some multi-hop gain greater than the one-hop gain: a disjunction of ``greater``
    tests, so a ``holds_if`` over them (the best candidate's figure and shortfall)."""
    j = Judge()
    gain = {h: _kbps(c, h, "af") / _kbps(c, h, "reno") - 1.0 for h in T6_HOPS}
    one = gain[1]
    j.note("1 hop AF+SA/Reno - 1", one)
    candidates = []
    for h in T6_HOPS[1:]:
        sub = Judge()
        sub.greater("", gain[h], one)
        candidates.append((sub.shortfall, h, sub.holds))
        j.note(f"{h} hop AF+SA/Reno - 1", gain[h])
    shortfall, best, holds = min(candidates)
    j.holds_if(
        f"some multi-hop gain > one-hop gain (best: {best} hops)",
        gain[best],
        any(h for _, _, h in candidates),
        shortfall,
    )
    return Verdict.of(j)


def _as26(c: Cells) -> Verdict:
    j = Judge()
    for p in ("reno", "acc", "af"):
        for a, b in zip(T6_HOPS, T6_HOPS[1:], strict=False):
            j.less(f"{protocol_name(p)} {b}/{a} hops", _kbps(c, b, p), _kbps(c, a, p))
    return Verdict.of(j)


def _t7(c: Cells, n: int, p: str, key: str) -> Estimate:
    return c.est(T7, f"{n}-conn", p, key)


def _as27(c: Cells) -> Verdict:
    j = Judge()
    for p in ("reno", "af"):
        agg = {n: _t7(c, n, p, "aggregate_kbps") for n in T7_CONNECTIONS}
        top = max(T7_CONNECTIONS, key=lambda n: agg[n].mean)
        low = min(T7_CONNECTIONS, key=lambda n: agg[n].mean)
        j.about_equal(f"{protocol_name(p)} aggregate {top}/{low} conn", agg[top], agg[low])
    for n in T7_CONNECTIONS:
        j.not_below(
            f"{n} conn aggregate AF+SA/Reno",
            _t7(c, n, "af", "aggregate_kbps"),
            _t7(c, n, "reno", "aggregate_kbps"),
        )
    return Verdict.of(j)


def _as28(c: Cells) -> Verdict:
    j = Judge()
    for n in (n for n in T7_CONNECTIONS if n > 1):
        j.greater(
            f"{n} conn per-connection sd Reno/AF+SA",
            _t7(c, n, "reno", "per_connection_sd_kbps"),
            _t7(c, n, "af", "per_connection_sd_kbps"),
        )
    return Verdict.of(j)


def _as29(c: Cells) -> Verdict:
    j = Judge()
    for n in (n for n in T7_CONNECTIONS if n > 1):
        j.greater(
            f"{n} conn fairness AF+SA/Reno",
            _t7(c, n, "af", "jain_index"),
            _t7(c, n, "reno", "jain_index"),
        )
    return Verdict.of(j)


def _as30(c: Cells) -> Verdict:
    j = Judge()
    positive(j, "1 hop Reno timeouts per run", c.est(T6, "1-hop", "reno", "timeouts"))
    j.note(
        "1 hop Reno RTT sd / mean",
        c.est(T6, "1-hop", "reno", "rtt_std_ms") / c.est(T6, "1-hop", "reno", "mean_rtt_ms"),
    )
    return Verdict.of(j)


def _web(c: Cells, hosts: int, p: str) -> Estimate:
    return c.est(F15, f"{hosts}-hosts", p, "completion_mean_s")


def _as31(c: Cells) -> Verdict:
    j = Judge()
    for p in F15_PROTOCOL_NAMES:
        for a, b in zip(F15_HOSTS, F15_HOSTS[1:], strict=False):
            j.greater(f"{F15_PROTOCOL_NAMES[p]} {b}/{a} hosts", _web(c, b, p), _web(c, a, p))
    largest, fewest = F15_HOSTS[-1], F15_HOSTS[0]
    for af in ("af", "af+sa"):
        for rival in ("reno", "acc"):
            # Best = lowest completion time: the rival's time not below AF's.
            j.not_below(
                f"{largest} hosts {F15_PROTOCOL_NAMES[rival]}/{F15_PROTOCOL_NAMES[af]}",
                _web(c, largest, rival),
                _web(c, largest, af),
            )
        j.greater(
            f"Reno - {F15_PROTOCOL_NAMES[af]} (s), {largest}/{fewest} hosts",
            _web(c, largest, "reno") - _web(c, largest, af),
            _web(c, fewest, "reno") - _web(c, fewest, af),
        )
    return Verdict.of(j)


def _as32(c: Cells) -> Verdict:
    j = Judge()
    for h in F15_HOSTS:
        j.about_equal(f"{h} hosts ACC+SA/Reno", _web(c, h, "acc"), _web(c, h, "reno"))
    return Verdict.of(j)


def _as33(c: Cells) -> Verdict:
    j = Judge()
    for h in F15_HOSTS:
        j.about_equal(f"{h} hosts AF+SA/AF", _web(c, h, "af+sa"), _web(c, h, "af"))
    return Verdict.of(j)


LATENCY_CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        "AS-23",
        "Sec. 7.2, T6, F11",
        "AF+SA performs better than ACC+SA, which performs better than Reno, at every "
        "number of wireless hops.",
        f"radio chain, {T6_HOPS[0]}-{T6_HOPS[-1]} hops: at each, AF+SA's throughput greater "
        "than ACC+SA's and ACC+SA's greater than Reno's",
        _as23,
        tags=(T6,),
    ),
    Claim(
        "AS-24",
        "Sec. 7.2, F12",
        "AF reduces the mean round-trip time and its standard deviation: the number of "
        "packets traversing each node drops, reducing contention.",
        f"{F12_HOPS}-hop chain: AF+SA's mean RTT, RTT sd and frames per radio each less than "
        "Reno's",
        _as24,
        tags=(T6,),
    ),
    Claim(
        "AS-25",
        "Sec. 7.2, T6",
        "The degree of improvement of AF+SA over Reno varies from one hop to more hops.",
        "AF+SA's throughput over Reno's, less 1, at some hop count above 1 greater than at "
        "one hop (the direction is lost [R: AS-25, 'expect larger with more hops'])",
        _as25,
        tags=(T6,),
    ),
    Claim(
        "AS-26",
        "Sec. 7.2, F11 (implied)",
        "Throughput decreases as the number of hops grows (half-duplex relays).",
        "each protocol: throughput at each hop count less than at one hop fewer",
        _as26,
        tags=(T6,),
    ),
    Claim(
        "AS-27",
        "Sec. 7.2, T7",
        "The aggregate throughput varies little with the number of connections, for Reno "
        "and AF+SA; AF+SA's is at least Reno's.",
        "one radio hop, Reno and AF+SA each: the largest and the smallest aggregate over the "
        "connection counts about equal (the seed's range is lost); at every count AF+SA's "
        "aggregate not below Reno's",
        _as27,
        tags=(T7,),
    ),
    Claim(
        "AS-28",
        "Sec. 7.2, T7",
        "The throughput of individual connections varies more with Reno than with AF+SA.",
        "one radio hop, every count > 1: Reno's per-connection sd greater than AF+SA's",
        _as28,
        tags=(T7,),
    ),
    Claim(
        "AS-29",
        "Sec. 7.2, F13",
        "Reno is grossly unfair to connections sharing the radios; AF+SA is much fairer.",
        "one radio hop, every count > 1: AF+SA's fairness index greater than Reno's",
        _as29,
        tags=(T7,),
    ),
    Claim(
        "AS-30",
        "Sec. 5.2, F5, F6",
        "A bulk transfer over one packet-radio hop sees coarse timeouts and round-trip "
        "samples of high variation.",
        "one hop, Reno: timeouts per run greater than 0; the RTT samples' sd over their mean is "
        "shown, not judged (the seed's mean and sd of F6 are lost and the reference gives no "
        "bound for 'high')",
        _as30,
        tags=(T6,),
    ),
    Claim(
        "AS-31",
        "Sec. 7.3, F15",
        "Completion time grows with the number of hosts; AF performs best, its advantage "
        "growing with the hosts.",
        "web: every scheme's mean completion time greater at each host count than at the one "
        "before; at the most hosts AF's and AF+SA's not above Reno's nor ACC+SA's (best = "
        "lowest), and Reno's minus each greater at the most hosts than at one host",
        _as31,
        tags=(F15,),
    ),
    Claim(
        "AS-32",
        "Sec. 7.3, F15",
        "ACC gives little benefit: the transfers are short, the window never gets large.",
        "web, every host count: ACC+SA's mean completion time about equal to Reno's",
        _as32,
        tags=(F15,),
    ),
    Claim(
        "AS-33",
        "Sec. 7.3, F15",
        "Sender adaptation changes little with AF: slow start limits the bursts.",
        "web, every host count: AF+SA's mean completion time about equal to AF's",
        _as33,
        tags=(F15,),
    ),
)
