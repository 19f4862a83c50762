"""A one-shot run against ns-2 (issue 31): ``lasthop run balakrishnan97/lan --format json``
paired with ns-2.35 running the same path and transfer (benchmarks/peers/ns2-lan.tcl),
whole processes timed alike.

The two commands run in turn (A B A B ..., so that a change in the machine's speed during
the call touches both alike) after WARMUP unrecorded rounds; for each it prints the min
and median wall milliseconds, from just before the process starts until it has exited
(start-up, work and exit included), and its peak resident memory, from one more run under
GNU time (``%M``; a child forked from this interpreter would count the interpreter's
pages as its own). Target: lasthop's min and median at most half of ns-2's.

ns-2 is Debian's ``ns2`` package (``ns``); when missing it is installed first, as root
or through sudo (scripts/apt-install.sh). ``lasthop`` is the command installed beside
this interpreter (the native one scripts/install.sh puts there), else the one on PATH.

Usage: python benchmarks/oneshot_ns2.py [--runs 30] [--warmup 3] [--check] [--json]
With --check the exit code is 1 when the target is missed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TCL = ROOT / "benchmarks" / "peers" / "ns2-lan.tcl"
TARGET_RATIO = 0.5


def lasthop_command() -> str:
    beside = Path(sys.executable).parent / "lasthop"
    found = str(beside) if beside.is_file() else shutil.which("lasthop")
    if found is None:
        sys.exit("oneshot_ns2.py: no lasthop command (run scripts/install.sh)")
    return found


def ns2_command() -> str:
    found = shutil.which("ns")
    if found is None:
        subprocess.run(["bash", str(ROOT / "scripts" / "apt-install.sh"), "ns2"], check=True)
        found = shutil.which("ns")
    if found is None:
        sys.exit("oneshot_ns2.py: Debian's ns2 installed no `ns` command")
    return found


def timed(argv: list[str]) -> float:
    """Wall seconds of one run of ``argv``, its output discarded."""
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd="/")
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"oneshot_ns2.py: {argv} exited with {done.returncode}: {done.stderr!r}")
    return wall


def peak_rss(argv: list[str]) -> int:
    """Peak resident bytes of one run of ``argv`` (GNU time's %M, in KiB)."""
    gnu_time = shutil.which("time") or "/usr/bin/time"
    done = subprocess.run(
        [gnu_time, "-f", "%M", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd="/",
        check=True,
    )
    return int(done.stderr.strip().splitlines()[-1]) * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cases = {
        "lasthop": [lasthop_command(), "run", "balakrishnan97/lan", "--format", "json"],
        "ns-2": [ns2_command(), str(TCL)],
    }
    walls: dict[str, list[float]] = {name: [] for name in cases}
    for i in range(args.warmup + args.runs):
        for name, argv in cases.items():
            wall = timed(argv)
            if i >= args.warmup:
                walls[name].append(wall)
    peaks = {name: peak_rss(argv) for name, argv in cases.items()}
    report = {
        name: {
            "argv": " ".join(cases[name]),
            "min_ms": min(w) * 1e3,
            "median_ms": statistics.median(w) * 1e3,
            "peak_rss_mib": peaks[name] / 2**20,
        }
        for name, w in walls.items()
    }
    ratio = {key: report["lasthop"][key] / report["ns-2"][key] for key in ("min_ms", "median_ms")}
    held = all(r <= TARGET_RATIO for r in ratio.values())
    if args.json:
        print(json.dumps({"runs": args.runs, "cases": report, "ratio": ratio, "held": held}))
    else:
        print(f"{args.runs} runs each, interleaved, after {args.warmup} warm-up rounds")
        for name, r in report.items():
            print(
                f"{name:8} min {r['min_ms']:7.1f} ms  median {r['median_ms']:7.1f} ms  "
                f"peak {r['peak_rss_mib']:5.1f} MiB  ({r['argv']})"
            )
        print(
            f"lasthop / ns-2: min {ratio['min_ms']:.3f}, median {ratio['median_ms']:.3f} "
            f"(target <= {TARGET_RATIO}): {'holds' if held else 'fails'}"
        )
    return 1 if args.check and not held else 0


if __name__ == "__main__":
    sys.exit(main())
