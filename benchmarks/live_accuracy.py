"""Live mode's emulator accuracy (issue 33): kernel CUBIC through one emulated link.

For each rate (10, 50, 100, 200 Mb/s) and one-way delay (0 and 20 ms) it runs
``lasthop live live/one-link`` (a 10 s bulk transfer, needs root) and compares the
receiving application's goodput with what the link can carry: rate x payload / packet
(1448 / 1500 bytes with timestamps). Then, per delay, ``ping`` through the same link
(100 echoes 10 ms apart, run as the scenario's command in host ``a``) gives the round
trip the emulator adds: its median against twice the delay plus the two 84-byte
packets' serialization. Targets (issue 33): goodput within 1 % of the capacity with no
delay, at least 97 % of it with 20 ms; median RTT within 1 ms of the configured one.

``lasthop`` is the command installed beside this interpreter, else the one on PATH.

Usage: python benchmarks/live_accuracy.py [--rates 10,50,100,200] [--delays 0,20]
       [--seconds 10] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

PAYLOAD, PACKET = 1448, 1500
PING_BYTES = 84  # 56 data + 8 ICMP + 20 IP


def lasthop_command() -> str:
    """The native ``lasthop`` (live runs are its alone): ``lasthop.native`` finds it."""
    from lasthop.native import missing_reason, native_command

    found = native_command()
    if found is None:
        sys.exit(f"live_accuracy.py: {missing_reason()}")
    return found


def live(lasthop: str, rate: float, delay: float, seconds: float, command: list[str]) -> dict:
    args = [
        lasthop,
        "live",
        "live/one-link",
        "--set",
        f"rate_bps={rate}",
        "--set",
        f"delay_ms={delay}",
        "--set",
        f"seconds={seconds}",
        "--format",
        "json",
    ]
    if command:
        args += ["--", *command]
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"live_accuracy.py: {' '.join(args)}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def ensure_ping() -> None:
    if shutil.which("ping") is None:
        # Debian's iputils-ping, as root or through sudo.
        root = Path(__file__).resolve().parents[1]
        subprocess.run(
            ["bash", str(root / "scripts" / "apt-install.sh"), "iputils-ping"], check=True
        )


def ping_median_ms(lasthop: str, rate: float, delay: float) -> float:
    # The command's output goes to the terminal of `lasthop live`; run ping
    # through sh so that its replies land in a file we read back.
    log = Path(f"/tmp/lasthop-live-ping-{rate:.0f}-{delay:.0f}.txt")
    live(
        lasthop, rate, delay, 60.0, ["sh", "-c", f"ping -n -c 100 -i 0.01 $LASTHOP_ADDR_B > {log}"]
    )
    times = [float(m) for m in re.findall(r"time=([0-9.]+) ms", log.read_text())]
    log.unlink()
    if len(times) < 50:
        sys.exit(f"live_accuracy.py: only {len(times)} ping replies at {rate} b/s, {delay} ms")
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rates", default="10,50,100,200", help="Mb/s, comma-separated")
    ap.add_argument("--delays", default="0,20", help="one-way ms, comma-separated")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    lasthop = lasthop_command()
    ensure_ping()
    rows = []
    for delay in [float(d) for d in a.delays.split(",")]:
        for mbps in [float(r) for r in a.rates.split(",")]:
            rate = mbps * 1e6
            r = live(lasthop, rate, delay, a.seconds, [])
            f = r["flows"][0]
            capacity = rate * PAYLOAD / PACKET
            ratio = f["throughput_bps"] / capacity
            rtt_ms = ping_median_ms(lasthop, rate, delay)
            expected_rtt = 2 * delay + 2 * PING_BYTES * 8 / rate * 1e3
            target = ratio >= 0.99 if delay == 0 else ratio >= 0.97
            rows.append(
                {
                    "rate_mbps": mbps,
                    "delay_ms": delay,
                    "goodput_mbps": f["throughput_bps"] / 1e6,
                    "capacity_mbps": capacity / 1e6,
                    "ratio": ratio,
                    "retransmits": f["retransmits"],
                    "max_late_us": r["wakeups"]["max_late_us"],
                    "late_over_1ms": r["wakeups"]["late_over_1ms"],
                    "rtt_median_ms": rtt_ms,
                    "rtt_expected_ms": expected_rtt,
                    "goodput_holds": target and (delay != 0 or ratio <= 1.01),
                    "rtt_holds": abs(rtt_ms - expected_rtt) <= 1.0,
                }
            )
    if a.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{'rate':>6} {'delay':>6} {'goodput':>9} {'capacity':>9} {'ratio':>7} {'retx':>5} "
        f"{'late>1ms':>8} {'rtt med':>8} {'rtt exp':>8}  verdict"
    )
    for r in rows:
        verdict = "holds" if r["goodput_holds"] and r["rtt_holds"] else "fails"
        print(
            f"{r['rate_mbps']:>6.0f} {r['delay_ms']:>6.0f} {r['goodput_mbps']:>9.3f} "
            f"{r['capacity_mbps']:>9.3f} {r['ratio']:>7.4f} {r['retransmits']:>5} "
            f"{r['late_over_1ms']:>8} {r['rtt_median_ms']:>8.3f} "
            f"{r['rtt_expected_ms']:>8.3f}  {verdict}"
        )


if __name__ == "__main__":
    main()
