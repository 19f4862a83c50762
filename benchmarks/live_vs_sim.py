"""Sim against live on one scenario (issue 33, acceptance): throughput and retransmissions
of kernel Reno, CUBIC and BBR through one emulated link, beside the simulator's Reno,
CUBIC and BBR on the same scenario and seeds, with the ratio live / sim.

The scenario is ``live/one-link`` (two hosts, one link; SACK and timestamps on, Linux's
initial window of 10), at 10 Mb/s with 10 ms one-way delay by default, changed by
``--set`` alone: a Bernoulli error model on the link (``links.0.error``, both
directions, each frame lost with probability ``--loss``), so that the congestion
controls differ in how they meet loss rather than all filling the link; and 256 KB
socket buffers (``--buffer-bytes``) instead of the scenario's 16 MB. With 16 MB the
sender's application, which writes for ``--seconds``, leaves up to 32 MB (the kernel
doubles the size asked for) to drain after it stops, 27 s at 10 Mb/s, and the window
fills the link's 2000-packet queue until it overflows; 256 KB is ten times this
path's bandwidth-delay product and about 175 packets, so only the error model loses
packets. Each cc runs ``--seeds`` seeds (1..N) for ``--seconds`` of bulk
transfer live (``lasthop live --cc CC``, needs root; one run at a time) and simulated
(``lasthop run --set cc=CC``); the error model draws the same losses for the same seed
and the same sequence of frames in both.

Live retransmissions are the source's, counted from the packets (``source_retransmits``;
the kernel's own TCP_INFO count is shown beside it); simulated ones are the sender's.

``lasthop`` is the native command beside this interpreter, else the one on PATH.

Usage: python benchmarks/live_vs_sim.py [--ccs reno,cubic,bbr] [--rate-mbps 10]
       [--delay-ms 10] [--loss 0.01] [--seconds 10] [--buffer-bytes 262144]
       [--seeds 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from typing import Any

SCENARIO = "live/one-link"


def lasthop_command() -> str:
    """The native ``lasthop`` (live runs are its alone): ``lasthop.native`` finds it."""
    from lasthop.native import missing_reason, native_command

    found = native_command()
    if found is None:
        sys.exit(f"live_vs_sim.py: {missing_reason()}")
    return found


def sets(a: argparse.Namespace) -> list[str]:
    items = [
        f"rate_bps={a.rate_mbps * 1e6}",
        f"delay_ms={a.delay_ms}",
        f"seconds={a.seconds}",
        f'links.0.error={{model="bernoulli", p={a.loss}}}',
        f"flows.0.tcp.socket_buffer_bytes={a.buffer_bytes}",
    ]
    return [arg for item in items for arg in ("--set", item)]


def run(args: list[str]) -> dict[str, Any]:
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"live_vs_sim.py: {' '.join(args)}: {out.stderr.strip()}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def measure(lasthop: str, a: argparse.Namespace, cc: str) -> dict[str, Any]:
    live, sim = [], []
    for seed in range(1, a.seeds + 1):
        common = [SCENARIO, *sets(a), "--seed", str(seed), "--format", "json"]
        report = run([lasthop, "live", *common, "--cc", cc])
        flow = report["flows"][0]
        if flow.get("error"):
            sys.exit(f"live_vs_sim.py: live {cc} seed {seed}: {flow['error']}")
        live.append(flow)
        summary = run([lasthop, "run", *common, "--set", f"cc={cc}"])
        sim.append(summary["flows"][0])
    live_mbps = mean([f["throughput_bps"] / 1e6 for f in live])
    sim_mbps = mean([f["throughput_bps"] / 1e6 for f in sim])
    live_retx = mean([float(f["source_retransmits"]) for f in live])
    sim_retx = mean([float(f["retransmits"]) for f in sim])
    return {
        "cc": cc,
        "seeds": a.seeds,
        "live_mbps": live_mbps,
        "sim_mbps": sim_mbps,
        "throughput_ratio": live_mbps / sim_mbps if sim_mbps else None,
        "live_retransmits": live_retx,
        "live_kernel_retransmits": mean([float(f["retransmits"]) for f in live]),
        "sim_retransmits": sim_retx,
        "retransmits_ratio": live_retx / sim_retx if sim_retx else None,
        "sim_timeouts": mean([float(f["timeouts"]) for f in sim]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--ccs", default="reno,cubic,bbr", help="comma-separated")
    ap.add_argument("--rate-mbps", type=float, default=10.0)
    ap.add_argument("--delay-ms", type=float, default=10.0, help="one way")
    ap.add_argument("--loss", type=float, default=0.01, help="per frame, both directions")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--buffer-bytes", type=int, default=262144, help="socket buffers")
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.seeds < 1:
        sys.exit("live_vs_sim.py: --seeds: at least 1")
    if not 0 <= a.loss <= 1:
        sys.exit("live_vs_sim.py: --loss: a probability in [0, 1]")
    if os.geteuid() != 0 or not os.path.exists("/dev/net/tun"):
        sys.exit("live_vs_sim.py: live runs need root and /dev/net/tun")
    lasthop = lasthop_command()
    rows = [measure(lasthop, a, cc) for cc in a.ccs.split(",")]
    if a.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{SCENARIO}: {a.rate_mbps:g} Mb/s, {a.delay_ms:g} ms one way, Bernoulli loss "
        f"{a.loss:g} per frame both ways, {a.seconds:g} s, mean of {a.seeds} seed(s)"
    )
    print(
        f"{'cc':>6} {'live Mb/s':>10} {'sim Mb/s':>9} {'live/sim':>8} "
        f"{'live retx':>9} {'(kernel)':>8} {'sim retx':>8} {'live/sim':>8}"
    )

    def ratio(x: float | None) -> str:
        return "-" if x is None else f"{x:.3f}"

    for r in rows:
        print(
            f"{r['cc']:>6} {r['live_mbps']:>10.3f} {r['sim_mbps']:>9.3f} "
            f"{ratio(r['throughput_ratio']):>8} {r['live_retransmits']:>9.1f} "
            f"{r['live_kernel_retransmits']:>8.1f} {r['sim_retransmits']:>8.1f} "
            f"{ratio(r['retransmits_ratio']):>8}"
        )


if __name__ == "__main__":
    main()
