"""The whole-process cases of ``lasthop bench`` (issue 31, item 4): what a user waits for,
start-up included, where the engine's own cases (``lasthop._core.bench``) time runs
inside one process.

- ``oneshot``: one process of ``lasthop run balakrishnan97/lan --format json``, from just
  before it starts until it has exited; the ``lasthop`` command beside this interpreter
  (the native one scripts/install.sh installs), else ``python -m lasthop``.
- ``sweep-240``: ``lasthop sweep`` of 240 runs of the same scenario (seeds 1..240, the
  first seed's series kept) into an empty store: the time from the command's start until
  its first run is committed to the store (``first_result_ms``) and until it has
  exited. The process runs the command line as ``python -m lasthop`` does, with
  ``Store.add`` noting when its first transaction returned (``SWEEP_SHIM``), and
  nothing else changed.

Each reports its wall milliseconds, best and median over its runs, and its peak resident
memory (``peak_rss_bytes``: GNU time's ``%M`` of one more run, where ``time`` is
installed: a process forked from this interpreter would count this interpreter's pages
as its own; for the sweep, its largest process, the parent or a worker).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

CASES = ("oneshot", "sweep-240")
SWEEP_RUNS = 240

SWEEP_SHIM = """\
import sys, time
from lasthop import store
add = store.Store.add
def first_add(self, records):
    add(self, records)
    if records and not getattr(store, "_bench_first", None):
        store._bench_first = True
        with open(sys.argv[1], "w") as out:
            out.write(repr(time.monotonic()))
store.Store.add = first_add
from lasthop.cli import main
main(sys.argv[2:])
"""


def _lasthop() -> list[str]:
    beside = Path(sys.executable).parent / "lasthop"
    if beside.is_file():
        with beside.open("rb") as f:  # its ELF magic, not the whole 5 MB binary
            if f.read(4) == b"\x7fELF":
                return [str(beside)]
    return [sys.executable, "-m", "lasthop"]


def _peak_rss(argv: Sequence[str], cwd: str) -> int | None:
    gnu_time = shutil.which("time") or "/usr/bin/time"
    if not os.path.exists(gnu_time):
        return None
    done = subprocess.run(
        [gnu_time, "-f", "%M", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        check=False,
    )
    last = done.stderr.strip().splitlines()[-1:] if done.returncode == 0 else []
    return int(last[0]) * 1024 if last and last[0].isdigit() else None


def _wall(argv: Sequence[str], cwd: str) -> float:
    started = time.monotonic()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit code {done.returncode}: {done.stderr!r}")
    return time.monotonic() - started


def _result(case: str, scenario: str, walls: list[float], peak: int | None) -> dict[str, Any]:
    return {
        "case": case,
        "scenario": scenario,
        "runs": len(walls),
        "wall_ms_per_run": min(walls) * 1e3,
        "wall_ms_per_run_median": statistics.median(walls) * 1e3,
        "peak_rss_bytes": peak,
    }


def oneshot(runs: int) -> dict[str, Any]:
    argv = [*_lasthop(), "run", "balakrishnan97/lan", "--format", "json"]
    with tempfile.TemporaryDirectory(prefix="lasthop-bench-") as cwd:
        _wall(argv, cwd)  # warm-up
        walls = [_wall(argv, cwd) for _ in range(runs)]
        peak = _peak_rss(argv, cwd)
    how = "python -m lasthop" if argv[0] == sys.executable else "native"
    return _result(
        "oneshot", f"one process ({how}): lasthop run balakrishnan97/lan --format json", walls, peak
    )


def sweep_first(runs: int) -> dict[str, Any]:
    firsts: list[float] = []
    walls: list[float] = []
    peak: int | None = None
    with tempfile.TemporaryDirectory(prefix="lasthop-bench-") as cwd:
        plan = Path(cwd) / "plan.toml"
        plan.write_text(
            f'name = "lan{SWEEP_RUNS}"\nscenario = "balakrishnan97/lan"\nseeds = {SWEEP_RUNS}\n',
            encoding="utf-8",
        )
        for i in range(runs + 1):  # the first is a warm-up
            mark = Path(cwd) / f"first-{i}"
            store = Path(cwd) / f"store-{i}" / "lasthop.duckdb"
            argv = [sys.executable, "-c", SWEEP_SHIM, str(mark), "sweep", str(plan)]
            argv += ["--store", str(store), "--format", "json", "--no-progress"]
            started = time.monotonic()
            wall = _wall(argv, cwd)
            if i:
                firsts.append(float(mark.read_text()) - started)
                walls.append(wall)
        store = Path(cwd) / "store-peak" / "lasthop.duckdb"
        peak = _peak_rss(
            [*_lasthop(), "sweep", str(plan), "--store", str(store), "--no-progress"], cwd
        )
    result = _result(
        "sweep-240",
        f"lasthop sweep: {SWEEP_RUNS} runs of balakrishnan97/lan into an empty store "
        "(first result: until its first run is committed)",
        walls,
        peak,
    )
    result["first_result_ms"] = min(firsts) * 1e3
    result["first_result_ms_median"] = statistics.median(firsts) * 1e3
    return result


def bench(cases: Sequence[str], oneshot_runs: int, sweep_runs: int) -> list[dict[str, Any]]:
    """The process cases among ``cases``, in :data:`CASES` order."""
    out = []
    if "oneshot" in cases:
        out.append(oneshot(oneshot_runs))
    if "sweep-240" in cases:
        out.append(sweep_first(sweep_runs))
    return out
