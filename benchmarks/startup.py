"""Start-up time of the command line (issue 10, item 7): wall time of whole processes.

Launches each command RUNS times (default 30), the commands in turn (A B C A B C ...,
so that a change in the machine's speed during the call touches each alike), after
WARMUP unrecorded rounds, and prints the min, median and max wall milliseconds of each,
from just before the process is started until it has exited: interpreter, imports,
work and exit included. Targets, on the median:

- ``lasthop --help`` under 100 ms;
- ``lasthop run balakrishnan97/lan --format json`` under 150 ms (the run itself takes a
  few ms).

``lasthop`` is the console script installed beside this interpreter (as a user runs it),
or the one on PATH, or else ``python -m lasthop``; the first line says which. For
context, without targets: ``lasthop --version``, and two floors that are no part of
lasthop: the interpreter's own start-up (``python -c pass``: site and the .pth files of
its site-packages included) and that plus importing typer, which the command line is
built on.

Usage: python benchmarks/startup.py [--runs 30] [--warmup 2] [--check]
With --check the exit code is 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple


class Case(NamedTuple):
    label: str
    argv: list[str]
    target_ms: float | None


def lasthop_command() -> list[str]:
    """The ``lasthop`` console script of this interpreter's environment."""
    beside = Path(sys.executable).parent / "lasthop"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("lasthop")
    if found is not None:
        return [found]
    return [sys.executable, "-m", "lasthop"]


def cases(lasthop: list[str]) -> list[Case]:
    python = sys.executable
    return [
        Case("lasthop --help", [*lasthop, "--help"], 100.0),
        Case(
            "lasthop run balakrishnan97/lan --format json",
            [*lasthop, "run", "balakrishnan97/lan", "--format", "json"],
            150.0,
        ),
        Case("lasthop --version", [*lasthop, "--version"], None),
        Case("floor: python -c pass", [python, "-c", "pass"], None),
        Case("floor: python -c 'import typer'", [python, "-c", "import typer"], None),
    ]


def launch(argv: list[str]) -> float:
    """Milliseconds from starting ``argv`` until it exited; its output is discarded."""
    started = time.perf_counter()
    proc = subprocess.run(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    elapsed = (time.perf_counter() - started) * 1e3
    if proc.returncode != 0:
        err = proc.stderr.decode(errors="replace").strip()
        sys.exit(f"startup.py: {' '.join(argv)} exited with {proc.returncode}: {err}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="timed launches per command")
    parser.add_argument("--warmup", type=int, default=2, help="untimed rounds first")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")

    lasthop = lasthop_command()
    todo = cases(lasthop)
    print(
        f"lasthop: {' '.join(lasthop)}; python {sys.version.split()[0]}; {os.cpu_count()} "
        f"cores; {args.runs} runs each, in turn, after {args.warmup} warm-up rounds"
    )
    times: dict[str, list[float]] = {case.label: [] for case in todo}
    for round_ in range(args.warmup + args.runs):
        for case in todo:
            ms = launch(case.argv)
            if round_ >= args.warmup:
                times[case.label].append(ms)

    width = max(len(case.label) for case in todo)
    print(f"{'wall ms':<{width}}  {'min':>7} {'median':>7} {'max':>7}  target")
    missed = []
    for case in todo:
        values = times[case.label]
        median = statistics.median(values)
        verdict = ""
        if case.target_ms is not None:
            holds = median < case.target_ms
            verdict = f"< {case.target_ms:.0f}: {'holds' if holds else 'FAILS'}"
            if not holds:
                missed.append(case.label)
        print(
            f"{case.label:<{width}}  {min(values):7.1f} {median:7.1f} {max(values):7.1f}  "
            f"{verdict}".rstrip()
        )
    if missed and args.check:
        print(f"missed: {'; '.join(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
