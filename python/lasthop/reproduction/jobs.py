"""Runs of embedded scenarios for a reproduction: :class:`Job` (a scenario, its overrides
and a seed) and :func:`run_jobs`, which runs them on a process pool over all cores and
returns their summaries in job order, so that nothing depends on scheduling."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lasthop import _core
from lasthop.errors import RunFailed, engine_failure
from lasthop.workers import process_pool


@dataclass(frozen=True)
class Job:
    """One run: an embedded scenario, its overrides and a seed."""

    scenario: str
    sets: tuple[str, ...]
    seed: int


def run_job(job: Job) -> tuple[str, str]:
    """Run ``job`` without traces: ``("ok", summary JSON)``, ``("invalid", message)`` for a
    scenario error, or ``("failed", message)`` for a failure inside the engine (a spent
    event budget, a Rust panic).

    Errors travel back as text, not as exceptions, so nothing depends on pickling the
    extension module's exception types across processes (a panic cannot be pickled).
    """
    try:
        text = _core.embedded_scenarios()[job.scenario]
        output = _core.run(text, job.seed, list(job.sets), False, job.scenario, "toml")
    except _core.ScenarioError as e:
        return "invalid", str(e)
    except KeyError:
        return "invalid", f"{job.scenario}: no such embedded scenario"
    except BaseException as e:
        message = engine_failure(e)
        if message is None:  # KeyboardInterrupt, SystemExit, a bug: not a run's failure
            raise
        return "failed", f"{job.scenario} seed {job.seed}: {message}"
    return "ok", output.summary_json


def run_jobs(jobs: Sequence[Job], workers: int | None = None) -> list[dict[str, Any]]:
    """The summaries of ``jobs``, in job order; ``ScenarioError`` if a scenario is invalid,
    ``RunFailed`` if a run failed inside the engine."""
    if not jobs:
        return []
    workers = max(1, min(len(jobs), workers or os.cpu_count() or 1))
    if workers == 1:
        results = [run_job(job) for job in jobs]
    else:
        # Small chunks: runs differ in cost by four orders of magnitude (a 1997 LAN run
        # takes milliseconds, a 200 s 802.11 run seconds), and a chunk of costly runs
        # last in the queue keeps one worker busy while the others idle. Four runs a
        # chunk keep the queue's overhead small against the cheapest runs.
        chunksize = max(1, min(len(jobs) // (4 * workers), 4))
        # Workers ignore Ctrl-C and die with this process (lasthop.workers).
        with process_pool(workers) as pool:
            results = list(pool.map(run_job, jobs, chunksize=chunksize))
    summaries = []
    for status, payload in results:
        if status == "invalid":
            raise _core.ScenarioError(payload)
        if status == "failed":
            raise RunFailed(payload)
        summaries.append(json.loads(payload))
    return summaries
