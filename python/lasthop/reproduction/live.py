"""Live cells of a reproduction (issue 33, item 6): a paper's experiment run on real
packets by ``lasthop live`` (the kernel's TCP at both ends, lasthop's links, error models
and base-station agents between network namespaces), beside the same experiment
simulated and the published value, and the paper's claims read on the live cells.

A paper offers its live subset as :class:`LiveExperiment` s
(:meth:`lasthop.reproduction.paper.Paper.live_experiments`) and the claims they decide
(:attr:`~lasthop.reproduction.paper.Paper.live_claims`). :func:`run_live_part` runs each
experiment live over seeds 1..N, one run at a time (each run takes the machine's
namespaces and a real clock: running them side by side would make them compete for the
CPU), and simulated over the reproduction's seeds with the same scenario, overrides and
transfer; a live cell (table ``live``) is the mean over its runs with the same 95%
intervals as any other cell, so the claims use the one rule of
:mod:`lasthop.reproduction.compare` (with one live seed a figure has no interval and the
comparison is of the means).

Live runs need Linux, root, ``/dev/net/tun`` and the native ``lasthop`` command (the
Rust program of ``crates/lasthop-cli``, which holds ``live``; :mod:`lasthop.native` finds
it): :func:`unavailable` says which is missing.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from lasthop.errors import RunFailed
from lasthop.native import NativeFailed, missing_reason, native_command, output_of
from lasthop.reproduction.claims import as_json as claim_json
from lasthop.reproduction.claims import evaluate_all
from lasthop.reproduction.compare import cell_half_width
from lasthop.reproduction.experiment import Experiment

if TYPE_CHECKING:
    from lasthop.reproduction.paper import Paper, Request

TABLE: Final = "live"
"""The ``table`` of every live cell."""


@dataclass(frozen=True)
class LiveExperiment(Experiment):
    """One live cell: an embedded scenario with overrides, run by ``lasthop live``."""

    published: float | None
    """The paper's throughput for it, in Mb/s; ``None`` where it gives none."""
    cc: str | None = None
    """The kernel's congestion control at every source (``--cc``); ``None``: the
    scenario's."""


@dataclass(frozen=True)
class LiveRequest:
    """What ``lasthop reproduce --live`` asks: how many live seeds, and the transfer."""

    seeds: int = 1
    """Each live cell is the mean over live runs of seeds 1..``seeds``."""
    transfer_bytes: int | None = None
    """Every flow's transfer (``flows.0.bytes``) live and simulated; ``None``: the
    scenario's (the paper's)."""


@dataclass
class LivePart:
    """What :func:`run_live_part` measured: the live cells and the claims read on them,
    or why no live run could be made."""

    request: LiveRequest
    sim_seeds: int
    cells: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    skipped: str | None = None
    """Why live cells were not measured (not root, no TUN, no native command)."""

    def as_json(self) -> dict[str, Any]:
        """The ``live`` member of ``lasthop reproduce --live --format json``."""
        return {
            "skipped": self.skipped,
            "seeds": self.request.seeds,
            "sim_seeds": self.sim_seeds,
            "transfer_bytes": self.request.transfer_bytes,
            "cells": self.cells,
            "claims": self.claims,
        }


def unavailable() -> str | None:
    """Why live runs cannot be made here (one line), or ``None`` when they can."""
    if not sys.platform.startswith("linux"):
        return "live runs need Linux (network namespaces and TUN devices)"
    if os.geteuid() != 0:
        return "live runs need root (they make network namespaces and TUN devices)"
    if not os.path.exists("/dev/net/tun"):
        return "live runs need /dev/net/tun, which this machine lacks"
    if native_command() is None:
        return f"live runs {missing_reason()}"
    return None


def live_args(experiment: LiveExperiment, seed: int, transfer_bytes: int | None) -> list[str]:
    """The arguments of ``lasthop live`` for one run of ``experiment``."""
    sets = [*experiment.sets]
    if transfer_bytes is not None:
        sets.append(f"flows.0.bytes={transfer_bytes}")
    args = ["live", experiment.scenario]
    for item in sets:
        args += ["--set", item]
    args += ["--seed", str(seed)]
    if experiment.cc is not None:
        args += ["--cc", experiment.cc]
    return [*args, "--format", "json"]


def run_native_live(args: Sequence[str], native: str | None = None) -> dict[str, Any]:
    """Run ``lasthop live ARGS`` (``ARGS`` ending in ``--format json``) and return its
    report. ``RunFailed`` with the command's one error line when it fails.

    On Ctrl-C the run is left to remove what it made: it got the same SIGINT from the
    terminal (it is sent again, in case only this process got it), and it is waited for,
    :data:`lasthop.native.INTERRUPT_GRACE_S` at most, before ``KeyboardInterrupt`` goes on."""
    command = native or native_command()
    if command is None:
        raise RunFailed(unavailable() or "no native lasthop command")
    try:
        out = output_of(command, args)
    except NativeFailed as e:
        why = e.line if e.line is not None else f"exit {e.returncode}"
        raise RunFailed(f"lasthop {' '.join(args[:2])}: {why}") from None
    try:
        report: dict[str, Any] = json.loads(out)
    except ValueError:
        raise RunFailed(f"lasthop {' '.join(args[:2])}: its report is not JSON") from None
    return report


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _goodput_pct(links: Sequence[Mapping[str, Any]], name: str, direction: str) -> float | None:
    """A link direction's goodput in percent, from a live report's or a summary's links
    (``link``/``dir`` live, ``name``/``direction`` simulated)."""
    for link in links:
        if (link.get("link", link.get("name")), link.get("dir", link.get("direction"))) == (
            name,
            direction,
        ):
            goodput = link.get("goodput")
            return None if goodput is None else 100.0 * float(goodput)
    return None


WIRELESS: Final = ("wireless", "bs->mh")
WIRED: Final = ("wired", "fh->bs")


def _figures(runs: Sequence[Mapping[str, Any]], live: bool) -> dict[str, list[float | None]]:
    """Each run's figures of the first flow, by the cell's name of the figure."""
    out: dict[str, list[float | None]] = {
        "throughput_mbps": [],
        "retransmits": [],
        "local_retransmits": [],
        "wireless_goodput_pct": [],
        "wired_goodput_pct": [],
    }
    for run in runs:
        flow = run["flows"][0]
        out["throughput_mbps"].append(float(flow["throughput_bps"]) / 1e6)
        # The source's retransmissions: live, counted from the packets (the kernel's own
        # count, TCP_INFO's, is `kernel_retransmits`); simulated, the sender's.
        source = flow["source_retransmits"] if live else flow["retransmits"]
        out["retransmits"].append(float(source))
        out["local_retransmits"].append(float(flow.get("local_retransmits", 0)))
        out["wireless_goodput_pct"].append(_goodput_pct(run["links"], *WIRELESS))
        out["wired_goodput_pct"].append(_goodput_pct(run["links"], *WIRED))
    if live:
        out["kernel_retransmits"] = [float(r["flows"][0]["retransmits"]) for r in runs]
    return out


def _summarise(
    figures: Mapping[str, Sequence[float | None]],
) -> tuple[dict[str, Any], dict[str, float]]:
    """Means (4 digits) and 95% half widths of the figures every run has."""
    means: dict[str, Any] = {}
    halves: dict[str, float] = {}
    for key, values in figures.items():
        if not values or any(v is None for v in values):
            means[key] = None
            continue
        numbers = [float(v) for v in values if v is not None]
        mean = _mean(numbers)
        means[key] = round(mean, 4)
        half = cell_half_width(numbers, mean) if len(numbers) > 1 else None
        if half is not None:
            halves[key] = half
    return means, halves


def live_cell(
    experiment: LiveExperiment,
    reports: Sequence[Mapping[str, Any]],
    sims: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The live cell of ``experiment`` from its live ``reports`` and the summaries of
    the same experiment simulated (``sims``): the live means with their intervals
    (``ci95``), the simulated ones as ``sim_*`` (with ``sim_ci95``), the published value,
    and the ratios live/published (``ratio``) and live/simulated (``sim_ratio``)."""
    live, live_half = _summarise(_figures(reports, live=True))
    sim, sim_half = _summarise(_figures(sims, live=False))
    throughput = live["throughput_mbps"]
    published = experiment.published
    cell: dict[str, Any] = {
        "table": TABLE,
        "setting": experiment.setting,
        "scheme": experiment.scheme,
        "scenario": experiment.scenario,
        "sets": list(experiment.sets),
        "cc": experiment.cc,
        **live,
        "published": published,
        "ratio": None if not published else round(throughput / published, 3),
        "sim_ratio": (
            None if not sim["throughput_mbps"] else round(throughput / sim["throughput_mbps"], 3)
        ),
        "completed": all(bool(r["flows"][0]["completed"]) for r in reports),
        "live_seeds": len(reports),
        "sim_seeds": len(sims),
        "runs": [str(r["run"]) for r in reports],
    }
    for key, value in sim.items():
        cell[f"sim_{key}"] = value
    if live_half:
        cell["ci95"] = live_half
    if sim_half:
        cell["sim_ci95"] = {f"sim_{k}": v for k, v in sim_half.items()}
    return cell


Progress = Callable[[str], None]


def run_live_part(
    papers: Sequence[tuple[str, Paper, Request]],
    live: LiveRequest,
    sim_seeds: int,
    workers: int | None = None,
    progress: Progress | None = None,
) -> LivePart:
    """Every selected paper's live experiments, live over seeds 1..``live.seeds`` and
    simulated over seeds 1..``sim_seeds``, as cells, with the papers' live claims read
    on them. A :class:`LivePart` with ``skipped`` set when live runs cannot be made here
    (nothing is run then)."""
    from lasthop.reproduction.jobs import Job, run_jobs

    part = LivePart(live, sim_seeds)
    planned = [e for _, paper, request in papers for e in paper.live_experiments(request)]
    reason = unavailable()
    if reason is not None:
        part.skipped = reason
        return part
    extra = () if live.transfer_bytes is None else (f"flows.0.bytes={live.transfer_bytes}",)
    # The simulated runs first: they are fast, and an invalid override shows before the
    # long live runs.
    jobs = [
        [Job(e.scenario, (*e.sets, *extra), seed) for seed in range(1, sim_seeds + 1)]
        for e in planned
    ]
    flat = run_jobs([job for these in jobs for job in these], workers)
    native = native_command()
    for i, experiment in enumerate(planned):
        reports = []
        for seed in range(1, live.seeds + 1):
            started = time.monotonic()
            report = run_native_live(live_args(experiment, seed, live.transfer_bytes), native)
            flow = report["flows"][0]
            if flow.get("error"):
                raise RunFailed(
                    f"lasthop live {experiment.scenario} ({experiment.scheme}, seed {seed}): "
                    f"{flow['error']}"
                )
            reports.append(report)
            if progress is not None:
                progress(
                    f"live {experiment.setting} {experiment.scheme} seed {seed}: "
                    f"{float(flow['throughput_bps']) / 1e6:.3f} Mb/s "
                    f"({time.monotonic() - started:.0f} s)"
                )
        sims = flat[i * sim_seeds : (i + 1) * sim_seeds]
        part.cells.append(live_cell(experiment, reports, sims))
    for name, paper, _ in papers:
        for found in evaluate_all(paper.live_claims, part.cells):
            claim = claim_json(found)
            claim["paper"] = name
            claim["verdict"] = claim["status"]
            part.claims.append(claim)
    return part
