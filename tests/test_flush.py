"""``--flush-every`` (issue 29 item 11): a sweep killed with SIGKILL keeps every run that
finished more than ``--flush-every`` seconds before the kill, whether the next result is
long in coming (the parent stores on time, not when a result lands) or runs are short
(a finished run does not wait in its worker for a chunk of 16 to end).

Each sweep runs under a shim that writes, for every run that leaves the engine (in a
pool worker or in the sweep's own process), the moment it did on the system-wide
monotonic clock, so that the test knows which runs had finished, and when, at the kill.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import lasthop_cli

SHIM = """\
import os, sys, time
from lasthop import _core

engine_run = _core.run

def run(*args, **kwargs):
    out = engine_run(*args, **kwargs)
    fd = os.open(os.environ["LASTHOP_TEST_FINISHED"], os.O_WRONLY | os.O_APPEND)
    os.write(fd, f"{time.monotonic()}\\n".encode())
    os.close(fd)
    return out

_core.run = run
from lasthop.cli import main
main(sys.argv[1:])
"""

FLUSH_EVERY_S = 0.5
MARGIN_S = 1.0
"""Slack for a loaded two-core machine: a run counts as due once it finished this much
longer than ``FLUSH_EVERY_S`` before the kill."""


def start_sweep(tmp_path: Path, plan: str, workers: int) -> tuple[subprocess.Popen[str], Path]:
    (tmp_path / "plan.toml").write_text(plan, encoding="utf-8")
    finished = tmp_path / "finished"
    finished.touch()
    proc = subprocess.Popen(
        [sys.executable, "-c", SHIM, "sweep", str(tmp_path / "plan.toml")]
        + ["--store", str(tmp_path / "s" / "runs.duckdb"), "--workers", str(workers)]
        + ["--flush-every", str(FLUSH_EVERY_S), "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "LASTHOP_TEST_FINISHED": str(finished)},
    )
    return proc, finished


def finish_times(finished: Path) -> list[float]:
    return [float(line) for line in finished.read_text().split()]


def wait_for_finished(proc: subprocess.Popen[str], finished: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(finish_times(finished)) < count:
        if proc.poll() is not None:
            pytest.fail(f"sweep exited with {proc.returncode} first: {proc.communicate()[1]!r}")
        assert time.monotonic() < deadline, f"{count} runs did not finish within 120 s"
        time.sleep(0.01)


def kill(proc: subprocess.Popen[str]) -> float:
    """SIGKILL to the sweep and its workers; the moment it was sent."""
    assert proc.poll() is None, "the sweep ended before the kill"
    killed = time.monotonic()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    return killed


def stored_seeds(tmp_path: Path) -> list[int]:
    db = tmp_path / "s" / "runs.duckdb"
    listed = lasthop_cli("results", "--store", str(db), "--format", "json")
    assert listed.returncode == 0, listed.stderr
    return [int(row["seed"]) for row in json.loads(listed.stdout)]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_finished_run_is_stored_on_time_while_the_next_one_runs(
    tmp_path: Path, workers: int
) -> None:
    """A 256 KB run, then a 64 GiB one (half a minute): the first is stored within
    --flush-every, not when the second would have finished (before: lost at the kill)."""
    plan = (
        'name = "slow-second"\nscenario = "balakrishnan97/lan"\nseeds = 1\nseries = "none"\n'
        'set = ["stop_s=10000000"]\n[grid]\n"flows.0.bytes" = [262144, 68719476736]\n'
    )
    proc, finished = start_sweep(tmp_path, plan, workers)
    wait_for_finished(proc, finished, 1)
    time.sleep(FLUSH_EVERY_S + MARGIN_S)
    kill(proc)
    assert len(finish_times(finished)) == 1, "the long run ended before the kill"
    assert stored_seeds(tmp_path) == [1]


def test_runs_finished_in_workers_are_stored_within_flush_every(tmp_path: Path) -> None:
    """256 runs of 0.2-0.4 s on two workers, killed once 24 have finished (and 8 of them
    finished long enough before, waiting for up to 30 on a machine where they run fast):
    every run that finished more than --flush-every (plus a margin) before the kill is
    stored. Before, each worker held its runs until its chunk of 16 ended, and the store
    had none."""
    plan = (
        'name = "many"\nscenario = "balakrishnan97/lan"\nseeds = 128\nseries = "none"\n'
        'set = ["stop_s=10000000"]\n[grid]\n"flows.0.bytes" = [1073741824, 536870912]\n'
    )
    proc, finished = start_sweep(tmp_path, plan, 2)
    wait_for_finished(proc, finished, 24)
    # Fewer than 32, so that in the old code no worker had handed over its chunk of 16.
    while len(finish_times(finished)) < 30:
        horizon = time.monotonic() - FLUSH_EVERY_S - MARGIN_S
        if sum(t < horizon for t in finish_times(finished)) >= 8 or proc.poll() is not None:
            break
        time.sleep(0.01)
    killed = kill(proc)
    due = [t for t in finish_times(finished) if t < killed - FLUSH_EVERY_S - MARGIN_S]
    assert len(due) >= 8, f"too few runs finished early enough to judge: {len(due)}"
    stored = stored_seeds(tmp_path)
    assert len(stored) >= len(due), (
        f"{len(due)} runs finished over {FLUSH_EVERY_S + MARGIN_S} s before the kill, "
        f"{len(stored)} stored"
    )
    assert len(set(stored)) == len(stored)
