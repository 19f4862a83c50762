"""Issue 30 item 6: ``lasthop reproduce yun09`` completes Yun 2009 (seed 004) with the
senders of Secs. 2.2-2.3: experiments E2, E4, E5, E6, E8 and E9, the new schemes in E1 and
E3, and claims A6, A7, A9-A12, A17-A19 and A28.

Their expected verdicts at the defaults (200 s, 10 seeds) are pinned in
``lasthop/papers/yun09/verdicts.toml`` (tests/test_verdicts.py). Here each claim's check
holds on made-up cells that satisfy its reading and fails on cells that break one part of
it (the one rule: intervals apart or overlapping); the experiments that are the same runs
as others' have the same overrides (the framework runs them once); E6's measure, a
remaining Reno flow's goodput, is read from the flows' names on a short run.
"""

from __future__ import annotations

from typing import Any

from test_yun09 import _cell, _verdict

from lasthop.papers.yun09 import experiments as yun09
from lasthop.reproduction.jobs import Job, run_jobs

NINE = yun09.fer_setting(max(yun09.E1_FER))


# ---- E1 at 9 % and from 1 %: A6 and A28 ---------------------------------------------------


def _e1(goodput: dict[str, float], fers: tuple[float, ...] = yun09.E1_FER) -> list[Any]:
    """E1 cells: each scheme's goodput (default 1.0) ± 0.02 at every FER."""
    return [
        _cell("y09-e1", yun09.fer_setting(f), s, throughput_mbps=(goodput.get(s, 1.0), 0.02))
        for f in fers
        for s in yun09.E1_SCHEMES
    ]


def test_a6_every_other_scheme_better_than_reno_from_1_percent() -> None:
    better = {"reno": 0.5, "snoop": 1.5, "ll-elsn": 2.0}
    assert _verdict("A6", _e1(better))
    # A scheme level with Reno (intervals overlapping) is not "better".
    assert not _verdict("A6", _e1({**better, "tibet": 0.52}))
    # Below 1 % nothing is read: Reno ahead there changes nothing.
    low = [c for c in _e1(better) if c["setting"] == yun09.fer_setting(0.0001)]
    for c in low:
        c["throughput_mbps"] = 3.0 if c["scheme"] == "reno" else 1.0
    rest = [c for c in _e1(better) if c["setting"] != yun09.fer_setting(0.0001)]
    assert _verdict("A6", rest + low)


def test_a28_ll_elsn_then_snoop_then_the_middle_then_reno_at_9_percent() -> None:
    order = {"ll-elsn": 2.0, "snoop": 1.5, "reno": 0.5}
    assert _verdict("A28", _e1(order, (0.09,)))
    assert not _verdict("A28", _e1({**order, "lhp": 1.6}, (0.09,)))
    assert not _verdict("A28", _e1({**order, "sack": 0.5}, (0.09,)))
    assert not _verdict("A28", _e1({**order, "snoop": 2.0}, (0.09,)))


# ---- E2: A7 -------------------------------------------------------------------------------


def _e2(base: dict[str, float], rising: str | None = None) -> list[Any]:
    """E2 cells: base / (1 + d_off / 10 ms) ± 0.01 (default base 2.0); ``rising``'s
    goodput grows with d_off instead."""
    out = []
    for d in yun09.E2_D_OFF_MS:
        for s in yun09.E1_SCHEMES:
            g = base.get(s, 2.0) / (1 + d / 10)
            if s == rising:
                g = base.get(s, 2.0) * d / 100
            out.append(_cell("y09-e2", yun09.d_off_setting(d), s, throughput_mbps=(g, 0.01)))
    return out


def test_a7_all_fall_with_d_off_bwe_below_reno_at_the_least_ll_elsn_best() -> None:
    base = {"reno": 2.0, "tibet": 1.5, "westwood+": 1.5, "ll-elsn": 5.0}
    assert _verdict("A7", _e2(base))
    assert not _verdict("A7", _e2(base, rising="veno"))
    assert not _verdict("A7", _e2({**base, "tibet": 2.0}))
    assert not _verdict("A7", _e2({**base, "snoop": 6.0}))


# ---- E4, E5: A9, A10, A11 -----------------------------------------------------------------


def _sweep(
    table: str, goodput: Any, jain: Any = None, schemes: tuple[str, ...] = yun09.E1_SCHEMES
) -> list[Any]:
    """Cells of ``table`` at E4's n: ``goodput(scheme, n)`` ± 0.02 Mb/s and, for n > 1,
    ``jain(scheme, n)`` ± 0.002."""
    out = []
    for n in yun09.E4_FLOWS:
        for s in schemes:
            values: dict[str, Any] = {"throughput_mbps": (goodput(s, n), 0.02)}
            if jain is not None and n > 1:
                values["jain_index"] = (jain(s, n), 0.002)
            out.append(_cell(table, yun09.flows_setting(n), s, **values))
    return out


def _rising(s: str, n: int) -> float:
    return 3.7 if s == "ll-elsn" else 1.0 + 0.1 * n


def test_a9_ll_elsn_flat_in_n_the_others_rise() -> None:
    assert _verdict("A9", _sweep("y09-e4", _rising))
    dip = _sweep("y09-e4", lambda s, n: 2.8 if (s, n) == ("ll-elsn", 1) else _rising(s, n))
    assert not _verdict("A9", dip)
    flat = _sweep("y09-e4", lambda s, n: 3.0 if s == "sack" else _rising(s, n))
    assert not _verdict("A9", flat)


def _fair(s: str, n: int) -> float:
    if s in ("jersey", "jtcp"):
        return 0.996 - 0.0005 * n
    if s in ("westwood+", "tibet"):
        return 0.95
    return 0.995


def test_a10_most_above_098_jersey_jtcp_worsen_westwood_tibet_poor() -> None:
    assert _verdict("A10", _sweep("y09-e4", _rising, _fair))
    # Westwood+ as fair as the rest: not "poor".
    assert not _verdict("A10", _sweep("y09-e4", _rising, lambda s, n: 0.995))
    # Jersey's index not falling with n.
    steady = _sweep("y09-e4", _rising, lambda s, n: 0.99 if s == "jersey" else _fair(s, n))
    assert not _verdict("A10", steady)
    # Most schemes below 0.98.
    unfair = _sweep("y09-e4", _rising, lambda s, n: 0.97 if s < "s" else _fair(s, n))
    assert not _verdict("A10", unfair)


def _with_background(s: str, n: int) -> float:
    kept = 0.5 if s == "lhp" else 0.8
    return 3.0 if s == "ll-elsn" else kept * _rising(s, n)


def test_a11_ll_elsn_best_with_background_and_lhp_drops_most() -> None:
    e4 = _sweep("y09-e4", _rising)
    assert _verdict("A11", e4 + _sweep("y09-e5", _with_background))
    # LHP keeping more of its goodput than another scheme: not the largest drop.
    kept = _sweep(
        "y09-e5", lambda s, n: 0.9 * _rising(s, n) if s == "lhp" else _with_background(s, n)
    )
    assert not _verdict("A11", e4 + kept)
    beaten = _sweep("y09-e5", lambda s, n: 3.5 if s == "snoop" else _with_background(s, n))
    assert not _verdict("A11", e4 + beaten)


# ---- E6: A12 ------------------------------------------------------------------------------


def _e6(slope: dict[str, float]) -> list[Any]:
    """E6 cells: a Reno flow's goodput 0.37 - slope * k ± 0.005 (slope 0.01 by default)."""
    return [
        _cell(
            "y09-e6",
            yun09.replaced_setting(k),
            v,
            reno_mbps=(0.37 - slope.get(v, 0.01) * k, 0.005),
        )
        for k in yun09.E6_REPLACED
        for v in yun09.E6_VARIANTS
    ]


def test_a12_bwe_aggressive_ll_elsn_and_hack_like_sack_dcr_between() -> None:
    slopes = {"westwood+": 0.02, "veno": 0.02, "tibet": 0.02, "ideal-bwe": 0.02, "dcr": 0.015}
    assert _verdict("A12", _e6(slopes))
    assert not _verdict("A12", _e6({**slopes, "veno": 0.01}))
    assert not _verdict("A12", _e6({**slopes, "ll-elsn": 0.015}))
    assert not _verdict("A12", _e6({**slopes, "dcr": 0.025}))


# ---- E8, E9: A17, A18, A19 ----------------------------------------------------------------

_SENDERS = {"ll-elsn": 3.7, "hack-fixed": 3.5, "lhp": 3.4, "hack": 3.0, "reno": 2.5}


def _e8(override: dict[tuple[str, int], float] | None = None) -> list[Any]:
    over = override or {}

    def goodput(s: str, n: int) -> float:
        if (s, n) in over:
            return over[(s, n)]
        if s == "hack-fixed" and n > 10:
            return 3.3  # below LHP beyond 10 connections (A18)
        return _SENDERS[s]

    return _sweep("y09-e8", goodput, schemes=yun09.E8_SCHEMES)


def test_a17_esack_best_hack_above_reno_and_below_the_rest() -> None:
    assert _verdict("A17", _e8())
    assert not _verdict("A17", _e8({("hack", 5): 2.4}))
    assert not _verdict("A17", _e8({("hack", 20): 3.45}))
    assert not _verdict("A17", _e8({("lhp", 2): 3.9}))


def test_a18_hack_fixed_above_lhp_below_10_flows_and_below_beyond() -> None:
    assert _verdict("A18", _e8())
    assert not _verdict("A18", _e8({("hack-fixed", 20): 3.5}))
    assert not _verdict("A18", _e8({("hack-fixed", 2): 3.4}))


def _e9(gains: dict[int, float]) -> list[Any]:
    """E9 cells: LHP 3.0 ± 0.01, ESACK 3.0 * (1 + gain) ± 0.01."""
    return _sweep(
        "y09-e9",
        lambda s, n: 3.0 * (1 + gains[n]) if s == "ll-elsn" else 3.0,
        schemes=yun09.E9_SCHEMES,
    )


def test_a19_no_difference_at_low_congestion_and_a_gain_that_grows() -> None:
    rising = dict(zip(yun09.E4_FLOWS, (0.0, 0.05, 0.1, 0.3), strict=True))
    assert _verdict("A19", _e9(rising))
    assert not _verdict("A19", _e9({**rising, 1: 0.1}))
    assert not _verdict("A19", _e9({**rising, 20: 0.0}))
    assert not _verdict("A19", _e9({**rising, 5: 0.01}))


# ---- the experiments ----------------------------------------------------------------------


def test_every_new_claim_is_listed() -> None:
    from lasthop.papers.yun09 import claims

    ids = {c.id for c in claims.CLAIMS}
    assert {"A6", "A7", "A9", "A10", "A11", "A12", "A17", "A18", "A19", "A28"} <= ids


def test_cells_that_are_the_same_runs_have_the_same_overrides() -> None:
    """E2 at 10 ms is E1 at 1 %; E8's Reno, LHP and ESACK are E4's; E9 is E5's; E6 at k = 0
    is every variant's: the framework runs each once."""
    by = {(e.table, e.setting, e.scheme): e for e in yun09.experiments()}
    ten, one = yun09.d_off_setting(10.0), yun09.fer_setting(0.01)
    for s in yun09.E1_SCHEMES:
        assert by[("y09-e2", ten, s)].sets == by[("y09-e1", one, s)].sets
    for n in map(yun09.flows_setting, yun09.E4_FLOWS):
        for s in ("reno", "lhp", "ll-elsn"):
            assert by[("y09-e8", n, s)].sets == by[("y09-e4", n, s)].sets
        for s in yun09.E9_SCHEMES:
            assert by[("y09-e9", n, s)].sets == by[("y09-e5", n, s)].sets
            assert by[("y09-e9", n, s)].sets != by[("y09-e4", n, s)].sets
    zero = {by[("y09-e6", yun09.replaced_setting(0), v)].sets for v in yun09.E6_VARIANTS}
    assert len(zero) == 1
    # Every scheme of Figs. 6-11, and the paper's run length.
    assert set(yun09.E1_SCHEMES) >= {"westwood+", "veno", "jersey", "jtcp", "tibet", "dcr"}
    assert all("stop_s=200.0" in e.sets for e in by.values())


def test_e6_reads_the_remaining_reno_flows_and_the_replacing_ones() -> None:
    """Ten flows, the last k SACK (a variant every build has), 5 s: the cell's Reno figure
    is the mean of the flows still running Reno, the variant's that of those replacing
    them."""
    k = yun09.E6_REPLACED[1]
    e = next(
        e
        for e in yun09.experiments(quick=True)
        if (e.table, e.setting, e.scheme) == ("y09-e6", yun09.replaced_setting(k), "sack")
    )
    sets = (*e.sets[:-2], "stop_s=5.0", "flows.0.duration_s=5.0")
    runs = run_jobs([Job(e.scenario, sets, 1)], workers=1)
    flows = runs[0]["flows"]
    replaced = [f for f in flows if "-replaced" in f["name"]]
    assert len(flows) == yun09.E6_FLOWS and len(replaced) == k, [f["name"] for f in flows]
    cell = yun09.cell(e, runs)
    reno = [f["throughput_bps"] / 1e6 for f in flows if f not in replaced]
    assert cell["reno_mbps"] == round(sum(reno) / len(reno), 4)
    assert cell["variant_mbps"] == round(sum(f["throughput_bps"] / 1e6 for f in replaced) / k, 4)


def test_every_protocol_case_runs() -> None:
    """Each scheme the experiments name is a case of its scenario that loads and runs (a
    tenth of a second of it), downlink, uplink and in the cell, and each of Fig. 12's
    replacements."""
    jobs = [
        Job(scenario, (f'protocol="{s}"', "stop_s=0.1"), 1)
        for scenario in (yun09.DOWN, yun09.UP, yun09.CELL)
        for s in yun09.E1_SCHEMES
    ]
    jobs += [Job(yun09.CELL, (f'protocol="{s}"', "stop_s=0.1"), 1) for s in yun09.E8_SCHEMES]
    jobs += [
        Job(yun09.CELL, ("replaced=2", f'replacement="{v}"', "stop_s=0.1"), 1)
        for v in yun09.E6_VARIANTS
    ]
    assert all(run["flows"] for run in run_jobs(jobs, workers=1))
