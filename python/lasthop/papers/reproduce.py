"""Reproductions of the source documents' headline tables, beside the published numbers.

- ``balakrishnan97``: all of Balakrishnan et al. 1997: the error-free peaks, Table II
  (link-layer schemes), Table III (end-to-end), Table IV (split connections), Table V
  (burst losses, ``burst-2``/``-4``/``-6``), Fig. 12 (``every-16k`` ... ``every-256k``)
  and LL's sensitivity on the WAN to the base station's processing latency
  (``ll-latency``: ``latency-0us`` ... ``latency-200us``, no published value);
  ``only`` picks one of ``table2``, ``table3``, ``table4``, ``table5``, ``fig12``,
  ``ll-latency``.
- ``balakrishnan97-baseline``: the 1997 testbeds (LAN 8 KB and 32 KB socket buffers,
  WAN 32 KB) without errors (the peak throughput the paper calibrates against, Sec. IV-A)
  and with one bit error per 64 KB under plain TCP Reno (Table III, "E2E").
- ``balakrishnan97-table3``: Table III, every end-to-end scheme (E2E, E2E-NEWRENO,
  E2E-SMART, E2E-IETF-SACK, E2E-ELN, E2E-ELN-RXMT) in each of its three settings.
- ``elaarag02``: ElAarag's Table I, TCP Tahoe at BER 1e-5 and 1e-6.
- ``balakrishnan99``: Balakrishnan, Padmanabhan, Katz 1999, bandwidth asymmetry: tables
  T1-T4 of experiments E-S1, E-S1b, E-S2, E-S3 and E-S4
  (:mod:`lasthop.papers.balakrishnan99.experiments`).
- ``yun09``: Yun 2009, LL-ELSN over 802.11b: E1, E3, E7, E10, E11, E12, E13 and E14
  (:mod:`lasthop.papers.yun09.experiments`).

Every cell is the mean over seeds 1..N. Runs go to a process pool over all cores
(:mod:`lasthop.reproduction.jobs`); the results are put back in job order, so the output
never depends on scheduling.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from lasthop.papers.balakrishnan97 import published
from lasthop.papers.balakrishnan99 import experiments as balakrishnan99
from lasthop.papers.elaarag02 import published as elaarag02_published
from lasthop.papers.yun09 import experiments as yun09
from lasthop.reproduction.jobs import Job, run_jobs

ONLY: Final = ("table2", "table3", "table4", "table5", "fig12", "ll-latency")
"""The parts of ``balakrishnan97`` that ``--only`` picks (the cells' ``table`` field)."""

TABLE5_SCHEMES: Final = ("ll-tcp-aware", "ll-smart-tcp-aware")
TABLE5_BURSTS: Final = (2, 4, 6)
"""Seed 000 Sec. IV-E, Table V: bursts of 2, 4 and 6 packets, one burst per 64 KB on
average, for the two best TCP-aware link layers (LAN, 32 KB socket buffer)."""

FIG12_SCHEMES: Final = (
    "e2e",
    "ll-tcp-aware",
    "ll-smart-tcp-aware",
    "e2e-smart",
    "e2e-ietf-sack",
    "split-smart",
)
FIG12_ERROR_EVERY_KB: Final = (16, 32, 64, 128, 256)
"""Seed 000 Sec. IV-F, Fig. 12: six protocols, LAN, one error every 16 to 256 KB."""

LL_LATENCY_US: Final = (0, 25, 50, 100, 200)
"""Issue 10: LL (plain snoop) on the WAN (32 KB) with the base station's processing latency
(``tcp.base_station_processing_us``) from 0 to 200 us. With snoop's second-duplicate rule
(Sec. IV-E) the local retransmission races the source's next segment at the base station,
so LL's WAN throughput hangs on a latency the paper does not give: this sweep shows how
much. No published value (Table II's LL WAN cell, 0.82 Mb/s, is one unknown latency)."""

WHICH: Final = (
    "all",
    "balakrishnan97",
    "balakrishnan97-baseline",
    "balakrishnan97-table3",
    "elaarag02",
    "balakrishnan99",
    "yun09",
)
"""What ``lasthop reproduce`` can reproduce."""

WIRELESS: Final = ("wireless", "bs->mh")
"""(link, direction) whose goodput the papers call wireless goodput: data into the MH."""
WIRED: Final = ("wired", "fh->bs")
"""(link, direction) of the wired goodput: data from the fixed host to the base station."""

_BALAKRISHNAN_SETTINGS: Final = (
    # (setting, embedded scenario, testbed, socket buffer in bytes)
    ("lan-8k", "balakrishnan97/lan", "lan", 8192),
    ("lan-32k", "balakrishnan97/lan", "lan", 32768),
    ("wan-32k", "balakrishnan97/wan", "wan", 32768),
)
_ELAARAG_BERS: Final = ("1e-5", "1e-6")


@dataclass(frozen=True)
class _Experiment:
    """One cell to measure: a scenario with overrides, averaged over seeds."""

    table: str
    setting: str
    scheme: str
    scenario: str
    sets: tuple[str, ...]
    unit: str  # "mbps" or "pps"
    published: float | None


def _testbed_scenario(setting: str) -> tuple[str, int]:
    """The embedded scenario and socket buffer of a Tables II-IV setting."""
    for name, scenario, _testbed, buffer_bytes in _BALAKRISHNAN_SETTINGS:
        if name == setting:
            return scenario, buffer_bytes
    raise KeyError(setting)


def _paper_table(table: str, cells: Mapping[str, Mapping[str, Any]]) -> list[_Experiment]:
    """A Table II-IV: every (setting, scheme) with a published cell, on the testbed
    scenarios at one error per 64 KB."""
    experiments = []
    for setting in published.SETTINGS:
        scenario, buffer_bytes = _testbed_scenario(setting)
        for scheme, by_setting in cells.items():
            cell = by_setting[setting]
            if cell is None:
                continue
            experiments.append(
                _Experiment(
                    table=table,
                    setting=setting,
                    scheme=scheme,
                    scenario=scenario,
                    sets=(f"scheme={scheme}", f"socket_buffer_bytes={buffer_bytes}"),
                    unit="mbps",
                    published=cell.throughput_mbps,
                )
            )
    return experiments


def _lan32(table: str, setting: str, scheme: str, *sets: str) -> _Experiment:
    return _Experiment(
        table=table,
        setting=setting,
        scheme=scheme,
        scenario="balakrishnan97/lan",
        sets=(f"scheme={scheme}", "socket_buffer_bytes=32768", *sets),
        unit="mbps",
        published=None,
    )


def _experiments(which: str, only: str | None = None) -> list[_Experiment]:
    if which not in WHICH:
        raise ValueError(f"which: expected one of {', '.join(WHICH)}, got {which!r}")
    if only is not None and (which != "balakrishnan97" or only not in ONLY):
        raise ValueError(f"only: expected one of {', '.join(ONLY)} with balakrishnan97")
    experiments: list[_Experiment] = []
    if which == "balakrishnan97" and only not in (None, "table3"):
        parts = {
            "table2": lambda: _paper_table("table2", published.BALAKRISHNAN97_TABLE_II),
            "table4": lambda: _paper_table("table4", published.BALAKRISHNAN97_TABLE_IV),
            "table5": _table5,
            "fig12": _fig12,
            "ll-latency": _ll_latency,
        }
        return parts[only]() if only is not None else []
    if which in ("all", "balakrishnan97", "balakrishnan97-baseline") and only is None:
        e2e = published.BALAKRISHNAN97_TABLE_III["e2e"]
        for setting, scenario, testbed, buffer_bytes in _BALAKRISHNAN_SETTINGS:
            base = ("scheme=e2e", f"socket_buffer_bytes={buffer_bytes}")
            experiments.append(
                _Experiment(
                    table="peak",
                    setting=setting,
                    scheme="e2e",
                    scenario=scenario,
                    sets=(*base, "error_every_bytes=0"),
                    unit="mbps",
                    published=published.BALAKRISHNAN97_PEAK_MBPS[testbed],
                )
            )
            if which in ("all", "balakrishnan97"):
                continue  # the E2E cell comes with the rest of Table III below
            cell = e2e[setting]
            experiments.append(
                _Experiment(
                    table="table3",
                    setting=setting,
                    scheme="e2e",
                    scenario=scenario,
                    sets=(*base, f"error_every_bytes={published.BALAKRISHNAN97_ERROR_EVERY_BYTES}"),
                    unit="mbps",
                    published=cell.throughput_mbps if cell else None,
                )
            )
    if which in ("all", "balakrishnan97") and only is None:
        experiments += _paper_table("table2", published.BALAKRISHNAN97_TABLE_II)
    if which in ("all", "balakrishnan97", "balakrishnan97-table3"):
        for setting in published.SETTINGS:
            for scheme, cells in published.BALAKRISHNAN97_TABLE_III.items():
                cell = cells[setting]
                if cell is None:
                    continue  # E2E-SMART ran on the LAN only
                experiments.append(
                    _Experiment(
                        table="table3",
                        setting=setting,
                        scheme=scheme,
                        scenario=f"balakrishnan97/table3-{setting}",
                        sets=(f"scheme={scheme}",),
                        unit="mbps",
                        published=cell.throughput_mbps,
                    )
                )
    if which in ("all", "balakrishnan97") and only is None:
        experiments += _paper_table("table4", published.BALAKRISHNAN97_TABLE_IV)
        experiments += _table5() + _fig12() + _ll_latency()
    if which in ("all", "elaarag02"):
        for ber in _ELAARAG_BERS:
            experiments.append(
                _Experiment(
                    table="elaarag02:I",
                    setting=f"ber={ber}",
                    scheme="tahoe",
                    scenario="elaarag02/table1",
                    # Quoted: the parameter and its cases are keyed by the string "1e-5".
                    sets=(f'ber="{ber}"',),
                    unit="pps",
                    published=elaarag02_published.ELAARAG02_TABLE_I[ber].throughput_pps,
                )
            )
    return experiments


def _table5() -> list[_Experiment]:
    return [
        _lan32(
            "table5",
            f"burst-{burst}",
            scheme,
            'topology.wireless.error.model="burst"',
            f"topology.wireless.error.burst_packets={burst}",
        )
        for burst in TABLE5_BURSTS
        for scheme in TABLE5_SCHEMES
    ]


def _fig12() -> list[_Experiment]:
    return [
        _lan32("fig12", f"every-{kb}k", scheme, f"error_every_bytes={kb * 1024}")
        for kb in FIG12_ERROR_EVERY_KB
        for scheme in FIG12_SCHEMES
    ]


def _ll_latency() -> list[_Experiment]:
    return [
        _Experiment(
            table="ll-latency",
            setting=f"latency-{us}us",
            scheme="ll",
            scenario="balakrishnan97/wan",
            sets=(
                "scheme=ll",
                "socket_buffer_bytes=32768",
                f"flows.0.tcp.base_station_processing_us={us}",
            ),
            unit="mbps",
            published=None,
        )
        for us in LL_LATENCY_US
    ]


def experiment_scenarios(which: str) -> list[str]:
    """The embedded scenarios the cells of ``which`` run, sorted."""
    scenarios = {e.scenario for e in _experiments(which)}
    if which in ("all", "balakrishnan99"):
        scenarios |= {e.scenario for e in balakrishnan99.experiments()}
    if which in ("all", "yun09"):
        scenarios |= {e.scenario for e in yun09.experiments()} | {yun09.DOWN}
    return sorted(scenarios)


def reproduce(
    which: str = "all", seeds: int = 10, workers: int | None = None, only: str | None = None
) -> list[dict[str, Any]]:
    """Run ``which`` (``only`` one part of ``balakrishnan97``) over seeds 1..``seeds`` and
    return its cells, in a fixed order: ``{"table", "setting", "scheme",
    "throughput_mbps" | "throughput_pps", "published", "ratio", "wireless_goodput_pct",
    "wired_goodput_pct"}``, and for cells in Mb/s ``published_mbps`` (the same value as
    ``published``, the field the paper-wide JSON of issue 4 names; ``None`` where the
    paper gives no number) and the source's ``retransmits`` and ``timeouts``, mean per
    run."""
    if seeds < 1:
        raise ValueError(f"seeds: must be at least 1, got {seeds}")
    experiments = _experiments(which, only) if which not in ("balakrishnan99", "yun09") else []
    asym = balakrishnan99.experiments() if which in ("all", "balakrishnan99") else []
    jobs = [Job(e.scenario, e.sets, seed) for e in experiments for seed in range(1, seeds + 1)]
    jobs += [Job(e.scenario, e.sets, seed) for e in asym for seed in range(1, seeds + 1)]
    # Cells that share runs (seed 001's E-S1b row at E-S1's buffer) run them once.
    unique = list(dict.fromkeys(jobs))
    by_job = dict(zip(unique, run_jobs(unique, workers), strict=True))
    summaries = [by_job[job] for job in jobs]
    cells = []
    for i, experiment in enumerate(experiments):
        runs = summaries[i * seeds : (i + 1) * seeds]
        cells.append(_cell(experiment, runs))
    offset = len(experiments) * seeds
    for i, asym_experiment in enumerate(asym):
        runs = summaries[offset + i * seeds : offset + (i + 1) * seeds]
        cells.append(balakrishnan99.cell(asym_experiment, runs))
    if asym:
        balakrishnan99.add_trace_figures(cells)
    if which in ("all", "yun09"):
        cells += yun09.reproduce_cells(seeds, run_jobs, workers)
    return cells


def _cell(experiment: _Experiment, runs: list[dict[str, Any]]) -> dict[str, Any]:
    if experiment.unit == "mbps":
        key, digits = "throughput_mbps", 4
        throughput = _mean([run["flows"][0]["throughput_bps"] / 1e6 for run in runs])
    else:
        key, digits = "throughput_pps", 3
        throughput = _mean([_packets_per_s(run) for run in runs])
    ratio = throughput / experiment.published if experiment.published else None
    cell = {
        "table": experiment.table,
        "setting": experiment.setting,
        "scheme": experiment.scheme,
        key: _round(throughput, digits),
        "published": experiment.published,
        "ratio": _round(ratio, 3),
        "wireless_goodput_pct": _round(_mean_goodput_pct(runs, WIRELESS), 2),
        "wired_goodput_pct": _round(_mean_goodput_pct(runs, WIRED), 2),
    }
    if experiment.unit == "mbps":
        cell["published_mbps"] = experiment.published
        # The source's retransmissions and coarse timeouts, mean per run (claims such as
        # Sec. IV-D's "the wired connection neither has any retransmissions nor any
        # timeouts" read them).
        cell["retransmits"] = _round(_mean([float(r["flows"][0]["retransmits"]) for r in runs]), 2)
        cell["timeouts"] = _round(_mean([float(r["flows"][0]["timeouts"]) for r in runs]), 2)
    return cell


def _packets_per_s(run: dict[str, Any]) -> float:
    """Packets per second at the receiver, as ElAarag counts throughput."""
    flow = run["flows"][0]
    sim_time_s = float(run["sim_time_s"])
    if sim_time_s <= 0:
        return 0.0
    return float(flow["bytes_delivered"]) / sim_time_s / float(flow["mss_bytes"])


def _mean_goodput_pct(runs: list[dict[str, Any]], which: tuple[str, str]) -> float | None:
    """Mean goodput of one link direction in percent; ``None`` if it is missing or
    undefined (no data crossed it) in any run."""
    name, direction = which
    values = []
    for run in runs:
        goodput = next(
            (
                link.get("goodput")
                for link in run["links"]
                if link.get("name") == name and link.get("direction") == direction
            ),
            None,
        )
        if goodput is None:
            return None
        values.append(100.0 * float(goodput))
    return _mean(values)


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def check_claims(
    cells: Sequence[Mapping[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The papers' claims evaluated on ``cells`` (those whose cells ran) and the
    deviations: failed claims and cells outside 0.8-1.25 of the published value, each with
    its explanation (:mod:`lasthop.reproduction.claims`). Each paper keeps its claims and
    explanations in a module ``claims_<paper>``."""
    from lasthop.papers.balakrishnan97 import claims as claims_balakrishnan97
    from lasthop.papers.balakrishnan99 import claims as claims_balakrishnan99
    from lasthop.papers.elaarag02 import claims as claims_elaarag02
    from lasthop.papers.yun09 import claims as claims_yun09
    from lasthop.reproduction import claims

    evaluated = claims.evaluate(
        claims_balakrishnan97.CLAIMS
        + claims_elaarag02.CLAIMS
        + claims_balakrishnan99.CLAIMS
        + claims_yun09.CLAIMS,
        cells,
    )
    explanations = (
        claims_balakrishnan97.DEVIATIONS
        | claims_elaarag02.DEVIATIONS
        | claims_balakrishnan99.DEVIATIONS
        | claims_yun09.DEVIATIONS
    )
    return evaluated, claims.deviations(evaluated, cells, explanations)
