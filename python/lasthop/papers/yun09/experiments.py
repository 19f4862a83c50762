"""Yun 2009 (seed 004), link-layer-originated loss notification over 802.11b: the
experiments of ``/work/shared/reference/yun-004.md`` Sec. 4 (issues 13 and 30), as cells of
the reproduction.

- E1 (Fig. 6): one downlink flow, goodput against the uniform frame error rate, for every
  scheme the paper simulated (:data:`E1_SCHEMES`): Reno, NewReno, SACK, Snoop (at the
  access point, over NewReno, as Sec. 5.1 runs it), Westwood+, Veno, Jersey, JTCP, TIBET,
  TCP-DCR, LHP and LL-ELSN (the AP's ELSN agent with the ESACK sender).
- E2 (Fig. 7): the same schemes at 1 % FER against the wired delay d_off.
- E3 (Fig. 8): E1 uplink (Snoop at the station).
- E4 (Figs. 9, 10): n downlink flows to n stations at 1 % FER, aggregate goodput and
  Jain's index against n.
- E5 (Fig. 11): E4 with Sec. 5.2's Pareto background traffic along the TCP path.
- E6 (Fig. 12): ten flows, k of them running a variant instead of Reno, the mean goodput
  of the remaining Reno flows against k.
- E8 (Fig. 14): E4's cell with LL-ELSN and each of four senders (HACK, HACK-fixed, the LHP
  packet list, ESACK), Reno beside them.
- E9 (Fig. 15): ESACK's improvement over the LHP packet list under E5's background.
- E7 (Fig. 13): LL-ELSN with and without ERSN, retry limit 7 and a 100 ms link-level
  retransmission delay, goodput and spurious timeouts against FER.
- E10 (Fig. 16): the receiver disconnected at 10 s; ESACK's sending rate with and without
  ELN filtering (traced runs, 100 ms bins).
- E11 (Fig. 17): Reno, Snoop and LL-ELSN per retry limit l against FER.
- E12 (Fig. 18): ten flows to ten stations, each station's channel a two-state Markov
  chain (p_gb = 0.01) against p_bb, per retry limit.
- E13 (Fig. 3): the overhead analysis, Eqs. 2-4 (:mod:`lasthop.papers.yun09.analysis`).
- E14 (Table 1): the measured ELN delay of LL-ELSN, downlink and uplink, from E1's and
  E3's runs.

Cells that are the same runs (E2 at d_off = 10 ms is E1 at 1 %, E8's Reno, LHP and
ESACK are E4's, E9 is E5's LHP and LL-ELSN, E11 at l = 1 is E1) are given the same
overrides, and the framework runs them once.

Every cell is the mean over seeds 1..N (common random numbers across schemes: the same
seeds), with the 95 % interval of each of its numbers over the seeds that the framework
computes (``ci95``, Student's t: :func:`lasthop.reproduction.reproduce.with_intervals`).
Each run lasts the paper's 200 s (:data:`RUN_S`; Sec. 5.1: "Simulation is run for a period
of 200 seconds"); ``--quick`` runs :data:`QUICK_RUN_S` and the tables say so. The paper
averages 20 runs per point without LL-ARQ and 50 with it (yun-004.md Sec. 4.1); the
reproduction runs ``--seeds`` (10 by default): a departure that widens the intervals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from lasthop.reproduction.experiment import Experiment

SOURCE: Final = (
    "Yun, Link-layer-originated loss notification (LL-ELSN), EURASIP JWCN 2009 (seed 004); "
    "no plotted value is legible in the seed: the claims are the check"
)

RUN_S: Final = 200.0
"""Simulated seconds per run: the paper's (Sec. 5.1, "a period of 200 seconds")."""
QUICK_RUN_S: Final = 50.0
"""Simulated seconds per run with ``--quick`` (a quarter of the paper's; the tables say
so). At 44 ms of round-trip time 50 s are over a thousand round trips, but Snoop with
l >= 2 converges slowly: those cells move most between 50 and 200 s (defaults-audit
Sec. 1.5); the verdicts pinned in ``verdicts.toml`` are the 200 s runs'."""


def run_s(quick: bool = False) -> float:
    """Seconds per run: the paper's 200, or :data:`QUICK_RUN_S` with ``--quick``."""
    return QUICK_RUN_S if quick else RUN_S


DOWN: Final = "yun09/downlink"
UP: Final = "yun09/uplink"
CELL: Final = "yun09/cell"

E1_FER: Final = (0.0001, 0.001, 0.01, 0.03, 0.09)
"""E1/E3's frame error rates: 0.01 % to 9 % (Fig. 6's axis runs 0.001-9 %; the points
are the reference's suggestion, thinned to five for the time budget [R])."""
BASE_SCHEMES: Final = ("reno", "newreno", "sack", "snoop", "ll-elsn")
"""The schemes of issue 13: the ns-2 built-ins and the paper's proposal."""
VARIANT_SCHEMES: Final = ("westwood+", "veno", "jersey", "jtcp", "tibet", "dcr", "lhp")
"""The schemes of Sec. 5.1 added by issue 30: the senders of Sec. 2.2-2.3 (each lasthop's
congestion controller of that name, with its paper's defaults: Sec. 5.1, "with default
parameter settings mentioned in the corresponding papers") and LHP. Jersey runs with its
routers' congestion warning (every wired and access-point queue marks, yun-004.md
ambiguity 21) and ECN echoed by the receiver; JTCP with timestamps (its jitter needs the
receiver's times). LHP is the LHP packet list (Sec. 4.1) behind the AP's ELSN agent: [R]
lasthop's 802.11 has no header-fragment detection (the MAC drops a frame that fails its
check), so LHP's receiver-side loss detection is LL-ELSN's, the reference's alternative
reading (ambiguity 17); what differs from LL-ELSN is the sender alone, as in Fig. 14."""
E1_SCHEMES: Final = (*BASE_SCHEMES[:4], *VARIANT_SCHEMES, "ll-elsn")
"""The schemes of Figs. 6-11: every one Sec. 5.1 simulates (yun-004.md ambiguity 26: the
figures draw all of them)."""
E2_FER: Final = 0.01
"""Fig. 7's FER is not given: 1 % (yun-004.md ambiguity 7) [R]."""
E2_D_OFF_MS: Final = (1.0, 5.0, 10.0, 20.0, 50.0, 100.0)
"""Fig. 7's d_off is not legible: the reference's suggestion, 1 to 100 ms [R]; 10 ms is the
scenario's (Fig. 6's) and those cells are E1's at 1 %."""
E4_FER: Final = 0.01
"""Figs. 9-11 and 14-15's FER is not given: 1 % (yun-004.md ambiguity 7), the cell
scenario's default [R]."""
E4_FLOWS: Final = (1, 2, 5, 20)
"""Figs. 9-11's n runs from 1 to at least 20 (yun-004.md Sec. 4.2); thinned to four points
for the time budget [R] (a 200 s run of 20 flows costs seven of one flow): the few flows
where the schemes differ, and 20, beyond Fig. 14's crossover at 10."""
E6_FLOWS: Final = 10
"""Sec. 5.2: "10 connections using TCP Reno are replaced one by one"."""
E6_FER: Final = 0.0
"""Fig. 12's FER is not given: 0 % (yun-004.md ambiguity 7: "they behave just like SACK
without wireless losses"); collisions remain [R]."""
E6_REPLACED: Final = (0, 5, 9)
"""k, the connections replaced: Fig. 12 runs 0..10, thinned to three points for the time
budget [R]; at k = 10 no Reno connection is left to measure."""
E6_VARIANTS: Final = ("westwood+", "veno", "tibet", "ideal-bwe", "dcr", "sack", "ll-elsn", "hack")
"""Fig. 12's variants (Sec. 5.2; Snoop excluded, "independent of TCP variants"). The
ideal BWE is lasthop's oracle controller (yun-004.md ambiguity 20); HACK is LL-ELSN with
the HACK sender (ambiguity 19: HACK's own header-checksum detection has no 802.11 frame to
read)."""
E8_SCHEMES: Final = ("reno", "hack", "hack-fixed", "lhp", "ll-elsn")
"""Fig. 14: LL-ELSN with each of the four senders (ESACK is ``ll-elsn``), Reno beside
them; at E4's n and FER (its Reno, LHP and ESACK cells are E4's runs)."""
E9_SCHEMES: Final = ("lhp", "ll-elsn")
"""Fig. 15: ESACK against the LHP packet list, both behind LL-ELSN, under E5's background
(the cells are E5's runs); the congestion level is n (yun-004.md ambiguity 6) [R]."""
E7_FER: Final = (0.01, 0.03, 0.05, 0.09)
E7_RETRY_LIMIT: Final = 7
"""Fig. 13's retry limit is not given; 7 is the reference's suggestion (ambiguity 8) and
802.11's default."""
E7_LL_DELAY_MS: Final = 100.0
"""Sec. 5.2: "LL retransmission delay of 100 ms"."""
E7_SCHEMES: Final = ("ersn", "no-ersn")
E7_MODES: Final = ("deferred", "blocking")
"""How the link layer spends the 100 ms before a retry (yun-004.md ambiguity 9), both
run: ``blocking`` (the reference's reading: the MAC stops, stop-and-wait as Fig. 1(a)
draws it) and ``deferred`` (the frame waits while the station serves its queue, as a
UMTS-like selective-repeat link layer, Sec. 1's motivation). Under ``blocking`` every
stall enters the sender's RTT samples and its timer outgrows them: spurious timeouts stay
few and do not rise with FER, and ERSN changes no goodput. Fig. 13's rising spurious
timeouts exist only under ``deferred``: the claims read that one (A13, A14; their
deviation says what else it changes), and the report shows both."""
E10_RUN_S: Final = 20.0
E10_DISCONNECT_S: Final = 10.0
"""Sec. 5.3, Fig. 16: the receiver is disconnected at 10 s."""
E10_BIN_S: Final = 0.1
"""Sending rate in segments per 100 ms bin (the bin is ours [R])."""
E10_SCHEMES: Final = ("filter", "no-filter")
E11_FER: Final = (0.001, 0.01, 0.03, 0.09)
E11_RETRY_LIMITS: Final = (1, 2)
"""Fig. 17 shows l = 2 beside l = 1 (yun-004.md Sec. 5); the reference's 4 and 7 are
left out for the time budget [R]."""
E11_SCHEMES: Final = ("reno", "snoop", "ll-elsn")
E12_PBB: Final = (0.1, 0.3, 0.5)
E12_PGB: Final = 0.01
E12_FLOWS: Final = 10
E12_RETRY_LIMITS: Final = (1, 2, 4, 7)
"""Fig. 18's retry limits are not legible; the reference's set {1, 2, 4, 7} (ambiguity 8),
7 being 802.11's default."""
E12_SCHEMES: Final = ("reno", "snoop", "ll-elsn")

TABLES: Final = (
    "y09-e1",
    "y09-e2",
    "y09-e3",
    "y09-e4",
    "y09-e5",
    "y09-e6",
    "y09-e7",
    "y09-e8",
    "y09-e9",
    "y09-e10",
    "y09-e11",
    "y09-e12",
    "y09-e14",
)

SCHEME_NAMES: Final = {
    "reno": "Reno",
    "newreno": "NewReno",
    "sack": "SACK",
    "snoop": "Snoop",
    "ll-elsn": "LL-ELSN",
    "westwood+": "Westwood+",
    "veno": "Veno",
    "jersey": "Jersey",
    "jtcp": "JTCP",
    "tibet": "TIBET",
    "dcr": "TCP-DCR",
    "lhp": "LHP",
    "ideal-bwe": "ideal BWE",
    "hack": "HACK",
    "hack-fixed": "HACK-fixed",
    "ersn": "LL-ELSN with ERSN",
    "no-ersn": "LL-ELSN without ERSN",
    "filter": "ESACK, ELN filtering",
    "no-filter": "ESACK, no filtering",
}


def scheme_name(scheme: str) -> str:
    return SCHEME_NAMES.get(scheme, scheme)


def fer_setting(fer: float) -> str:
    """``fer-1%``, ``fer-0.01%``: a cell's setting from its frame error rate."""
    return f"fer-{fer * 100:g}%"


def d_off_setting(d_off_ms: float) -> str:
    """``d_off=10ms``: an E2 cell's setting."""
    return f"d_off={d_off_ms:g}ms"


def flows_setting(n: int) -> str:
    """``n=10``: an E4, E5, E8 or E9 cell's setting."""
    return f"n={n}"


def replaced_setting(k: int) -> str:
    """``k=3``: an E6 cell's setting, k connections of ten replaced."""
    return f"k={k}"


def _timed(seconds: float) -> tuple[str, ...]:
    """A run of ``seconds``: the scenarios' one TCP flow entry (with its copies)."""
    return (f"stop_s={seconds}", f"flows.0.duration_s={seconds}")


def _protocol(scheme: str) -> str:
    return f'protocol="{scheme}"'


def _cell_sets(scheme: str, n: int, timed: tuple[str, ...], background: bool) -> tuple[str, ...]:
    """E4's overrides (``background``: E5's), shared by E8 and E9 so that their common
    cells are the same runs."""
    return (_protocol(scheme), f"n={n}", *(('background="pareto"',) if background else ()), *timed)


def _e6_sets(variant: str, k: int, timed: tuple[str, ...]) -> tuple[str, ...]:
    """E6's overrides: ten connections at :data:`E6_FER`, the last ``k`` running
    ``variant`` (none at k = 0: those runs are every variant's, run once)."""
    replaced = (f"replaced={k}", f'replacement="{variant}"') if k else ()
    return (_protocol("reno"), f"n={E6_FLOWS}", f"fer={E6_FER}", *replaced, *timed)


def experiments(quick: bool = False) -> list[Experiment]:
    """Every measured cell of the reproduction, in the paper's order (E10's traced runs
    are separate: :func:`e10_cells`), of :func:`run_s` seconds each."""
    timed = _timed(run_s(quick))
    out: list[Experiment] = []

    def fer_sweep(table: str, scenario: str) -> None:
        for fer in E1_FER:
            for scheme in E1_SCHEMES:
                sets = (_protocol(scheme), f"fer={fer}", *timed)
                out.append(Experiment(table, fer_setting(fer), scheme, scenario, sets))

    fer_sweep("y09-e1", DOWN)
    for d_off in E2_D_OFF_MS:
        for scheme in E1_SCHEMES:
            sets = (_protocol(scheme), f"fer={E2_FER}", *timed)
            if d_off != D_OFF_MS:  # the scenario's d_off: those runs are E1's, run once
                sets = (*sets[:2], f"d_off_ms={d_off}", *timed)
            out.append(Experiment("y09-e2", d_off_setting(d_off), scheme, DOWN, sets))
    fer_sweep("y09-e3", UP)
    for table, background in (("y09-e4", False), ("y09-e5", True)):
        for n in E4_FLOWS:
            for scheme in E1_SCHEMES:
                sets = _cell_sets(scheme, n, timed, background)
                out.append(Experiment(table, flows_setting(n), scheme, CELL, sets))
    for variant in E6_VARIANTS:
        for k in E6_REPLACED:
            sets = _e6_sets(variant, k, timed)
            out.append(Experiment("y09-e6", replaced_setting(k), variant, CELL, sets))
    for mode in E7_MODES:
        for fer in E7_FER:
            for scheme in E7_SCHEMES:
                sets = (
                    _protocol("ll-elsn"),
                    f"fer={fer}",
                    f"retry_limit={E7_RETRY_LIMIT}",
                    f"media.0.dcf.ll_retransmission_delay_ms={E7_LL_DELAY_MS}",
                    f'media.0.dcf.ll_retransmission="{mode}"',
                    *(("flows.0.tcp.ll_elsn.ersn_max_deferrals=0",) if scheme == "no-ersn" else ()),
                    *timed,
                )
                out.append(Experiment("y09-e7", f"{fer_setting(fer)} {mode}", scheme, DOWN, sets))
    for table, schemes, background in (
        ("y09-e8", E8_SCHEMES, False),
        ("y09-e9", E9_SCHEMES, True),
    ):
        for n in E4_FLOWS:
            for scheme in schemes:
                sets = _cell_sets(scheme, n, timed, background)
                out.append(Experiment(table, flows_setting(n), scheme, CELL, sets))
    for fer in E11_FER:
        for limit in E11_RETRY_LIMITS:
            for scheme in E11_SCHEMES:
                sets = (_protocol(scheme), f"fer={fer}", *timed)
                if limit != 1:  # l = 1 is the scenario's: those runs are E1's, run once
                    sets = (*sets, f"retry_limit={limit}")
                out.append(
                    Experiment("y09-e11", f"{fer_setting(fer)} l={limit}", scheme, DOWN, sets)
                )
    for pbb in E12_PBB:
        for limit in E12_RETRY_LIMITS:
            for scheme in E12_SCHEMES:
                sets = (
                    _protocol(scheme),
                    f"n={E12_FLOWS}",
                    'channel="markov"',
                    f"p_gb={E12_PGB}",
                    f"p_bb={pbb}",
                    f"retry_limit={limit}",
                    *timed,
                )
                out.append(Experiment("y09-e12", f"p_bb={pbb:g} l={limit}", scheme, CELL, sets))
    return out


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def _r(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _jain(rates: Sequence[float]) -> float:
    """Jain's fairness index, Sec. 5.3 Eq. 5: (sum x)^2 / (n sum x^2); 1 for all zero."""
    square = math.fsum(x * x for x in rates)
    return 1.0 if square == 0 else math.fsum(rates) ** 2 / (len(rates) * square)


def _tcp_flows(run: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The run's TCP flows (a background source's flow carries ``datagrams``)."""
    return [f for f in run["flows"] if "datagrams" not in f]


def _ll(flow: Mapping[str, Any], key: str) -> float:
    return float((flow.get("ll_elsn") or {}).get(key) or 0.0)


def cell(experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The measured cell of ``experiment`` from its runs' summaries: aggregate goodput in
    Mb/s (the sum over the TCP flows: unique in-order bytes delivered over the run,
    Sec. 5.1) and what the claims read. The framework gives every number its 95 %
    interval over the seeds (``ci95``) from the cells of each run alone."""
    per_run = [[f["throughput_bps"] / 1e6 for f in _tcp_flows(run)] for run in runs]
    goodput = [math.fsum(rates) for rates in per_run]
    flows = [f for run in runs for f in _tcp_flows(run)]
    n_runs = len(runs)
    out: dict[str, Any] = {
        "table": experiment.table,
        "setting": experiment.setting,
        "scheme": experiment.scheme,
        "published": None,
        "ratio": None,
        "throughput_mbps": _r(_mean(goodput), 4),
        "timeouts": _r(math.fsum(float(f["timeouts"]) for f in flows) / n_runs, 2),
        "spurious_timeouts": _r(
            math.fsum(float(f.get("spurious_timeouts", 0)) for f in flows) / n_runs, 2
        ),
        "local_retransmits": _r(
            math.fsum(float(f["local_retransmits"]) for f in flows) / n_runs, 2
        ),
        "elns": _r(math.fsum(_ll(f, "elns_received") for f in flows) / n_runs, 2),
        "ersns": _r(math.fsum(_ll(f, "ersns_received") for f in flows) / n_runs, 2),
    }
    notices = math.fsum(_ll(f, "ersn_bytes_sent") + _ll(f, "eln_bytes_sent") for f in flows)
    data = math.fsum(_ll(f, "data_bytes_sent") for f in flows)
    if data > 0:
        # Eqs. 2-4's R/r as measured: notice bytes over the data bytes the senders sent.
        out["notice_overhead"] = _r(notices / data, 6)
    delays = [
        float(f["ll_elsn"]["eln_delay_ms_mean"])
        for f in flows
        if (f.get("ll_elsn") or {}).get("eln_delay_ms_mean") is not None
    ]
    if delays:
        out["eln_delay_ms"] = _r(_mean(delays), 4)
        out["eln_delay_ms_max"] = _r(
            max(float(f["ll_elsn"].get("eln_delay_ms_max") or 0.0) for f in flows), 4
        )
    if experiment.table == "y09-e6":
        # Fig. 12: the mean goodput of a connection still running Reno, and of one running
        # the variant (flows `bulk-replaced#i`, the loader's name for the replacing copies).
        for key, replaced in (("reno_mbps", False), ("variant_mbps", True)):
            means = [
                _mean(
                    [
                        f["throughput_bps"] / 1e6
                        for f in _tcp_flows(run)
                        if ("-replaced" in str(f["name"])) == replaced
                    ]
                )
                for run in runs
            ]
            if any(("-replaced" in str(f["name"])) == replaced for f in _tcp_flows(runs[0])):
                out[key] = _r(_mean(means), 4)
    if len(per_run[0]) > 1:
        out["jain_index"] = _r(_mean([_jain(rates) for rates in per_run]), 4)
        # A25: the flows that fared best in each run (the upper half by goodput: their
        # stations spent the most time in the good state) and the AP's queueing.
        top = []
        for rates in per_run:
            ranked = sorted(rates, reverse=True)
            top.append(_mean(ranked[: max(1, len(ranked) // 2)]))
        out["top_half_mbps"] = _r(_mean(top), 4)
    return out


def e10_sets(scheme: str) -> tuple[str, ...]:
    """E10's overrides: LL-ELSN + ESACK, the station's link lost from 10 s on (both
    directions of its hop: yun-004.md Sec. 1.4 "the receiver's link loses every frame"),
    with ELN filtering (N = 2, Sec. 4.2's example) or without (``eln_filter = 0``)."""
    return (
        _protocol("ll-elsn"),
        f'media.0.error={{model="outage",from_s={E10_DISCONNECT_S}}}',
        *(("flows.0.tcp.ll_elsn.eln_filter=0",) if scheme == "no-filter" else ()),
        *_timed(E10_RUN_S),
    )


def _rate(times_s: Sequence[float], start: float, end: float) -> float:
    """Segments sent per second in [start, end)."""
    return sum(1 for t in times_s if start <= t < end) / (end - start)


def e10_cells(seeds: int) -> list[dict[str, Any]]:
    """E10 (Fig. 16) from traced runs, seeds 1..``seeds``: the sender's segments
    (retransmissions included) per second before the disconnection (5-10 s), just after
    it (10.5-11.5 s) and over the last 5 s, each with its 95 % interval over the seeds
    (``ci95``, as the framework gives the other cells), and the mean sending rate per
    100 ms bin."""
    import lasthop  # the traced run needs the package's run(), not only the engine
    from lasthop.reproduction.compare import ci95

    bins = round(E10_RUN_S / E10_BIN_S)
    cells: list[dict[str, Any]] = []
    for scheme in E10_SCHEMES:
        before: list[float] = []
        soon: list[float] = []
        late: list[float] = []
        series = [0.0] * bins
        for seed in range(1, seeds + 1):
            result = lasthop.run(DOWN, seed=seed, set=list(e10_sets(scheme)))
            times = [t / 1e9 for t in result.sent.to_pydict()["time_ns"]]
            before.append(_rate(times, E10_DISCONNECT_S - 5, E10_DISCONNECT_S))
            soon.append(_rate(times, E10_DISCONNECT_S + 0.5, E10_DISCONNECT_S + 1.5))
            late.append(_rate(times, E10_RUN_S - 5, E10_RUN_S))
            for t in times:
                i = min(bins - 1, int(t / E10_BIN_S))
                series[i] += 1.0 / E10_BIN_S / seeds
        cells.append(
            {
                "table": "y09-e10",
                "setting": "rate",
                "scheme": scheme,
                "published": None,
                "ratio": None,
                "rate_before_seg_s": _r(_mean(before), 2),
                "rate_soon_after_seg_s": _r(_mean(soon), 2),
                "rate_late_seg_s": _r(_mean(late), 2),
                "rate_series_seg_s": [round(x, 2) for x in series],
            }
        )
        if seeds > 1:
            cells[-1]["ci95"] = {
                key: float(f"{ci95(values)[1]:.4g}")
                for key, values in (
                    ("rate_before_seg_s", before),
                    ("rate_soon_after_seg_s", soon),
                    ("rate_late_seg_s", late),
                )
            }
    return cells


def e13_cell() -> dict[str, Any]:
    """E13 (Fig. 3): Eq. 1's series against its closed form, and the largest overhead
    R/r of Eqs. 2-4 over p <= 0.25 (:mod:`lasthop.papers.yun09.analysis`)."""
    from lasthop.papers.yun09 import analysis

    ps = [i / 100 for i in range(1, 51)]
    _, figures = analysis.check_a26(ps)
    return {
        "table": "y09-e13",
        "setting": "fig3",
        "scheme": "analysis",
        "published": None,
        "ratio": None,
        "series_gap": figures["Eq. 1 series - closed form"],
        "worst_overhead": _r(figures["largest R/r for p <= 0.25"], 6),
        "curves": {k: [_r(v, 6) for v in vs] for k, vs in analysis.fig3_curves(ps).items()},
        "p": ps,
    }


WIRED_BPS: Final = 10e6
NOTICE_BYTES: Final = 40
D_OFF_MS: Final = 10.0
"""The scenarios' wired hops (Sec. 5.1): two of 10 Mb/s and d_off = 10 ms between the AP
and the wired host."""


def e14_cells(cells: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """E14 (Table 1) from E1's and E3's LL-ELSN cells: the measured ELN delay, downlink
    and uplink, beside T_wrd (the notice's way from the AP to the sender: two wired hops'
    delay and serialization) and HACK's delay by Table 1's formula (the receiver's ack
    must first cross the radio: T_ack^wls + T_wrd, with T_ack^wls one error-free ack's
    exchange on the 802.11b channel, DIFS + PLCP + 74-byte MPDU + SIFS + MAC ack: a lower
    bound, measured channels only add to it)."""
    serialization_ms = NOTICE_BYTES * 8 / WIRED_BPS * 1e3
    t_wrd = 2 * D_OFF_MS + 2 * serialization_ms
    plcp_us, difs_us, sifs_us = 192.0, 50.0, 10.0
    ack_mpdu_us = (NOTICE_BYTES + 34) * 8 / 11.0
    mac_ack_us = 14 * 8 / 11.0
    t_ack_wls = (difs_us + plcp_us + ack_mpdu_us + sifs_us + plcp_us + mac_ack_us) / 1e3
    out = []
    for direction, table in (("down", "y09-e1"), ("up", "y09-e3")):
        delays = [
            float(c["eln_delay_ms"])
            for c in cells
            if c["table"] == table and c["scheme"] == "ll-elsn" and "eln_delay_ms" in c
        ]
        if not delays:
            continue
        out.append(
            {
                "table": "y09-e14",
                "setting": direction,
                "scheme": "ll-elsn",
                "published": None,
                "ratio": None,
                "eln_delay_ms": _r(max(delays), 4),
                "t_wrd_ms": _r(t_wrd if direction == "down" else 0.0, 4),
                "notice_serialization_ms": _r(serialization_ms, 4),
            }
        )
        out.append(
            {
                "table": "y09-e14",
                "setting": direction,
                "scheme": "hack",
                "published": None,
                "ratio": None,
                "eln_delay_ms": _r(t_ack_wls + t_wrd * (1 if direction == "down" else 2), 4),
            }
        )
    return out
