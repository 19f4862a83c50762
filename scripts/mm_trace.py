"""Rate traces in Mahimahi's ``mm-link`` format for lasthop (issue 33, item 4).

A trace is one whole number of milliseconds per line, each a delivery opportunity
of 1504 bytes; the trace loops with its last line's time as its period (Netravali
et al., "Mahimahi: Accurate Record-and-Replay for HTTP", USENIX ATC 2015; see
``crates/lasthop-net/src/rate_trace.rs``).

Two commands, standard library only:

- ``generate``: the synthetic cellular-like trace shipped with the tests,
  ``tests/data/traces/synthetic-cellular-60s.mm`` (deterministic: its own
  splitmix64 stream, so no Python version changes it). Mahimahi's recorded
  traces are not copied here; this one only looks like them: a rate that
  changes every 2 to 6 s between 0.5 and 10 Mb/s, opportunities delivered in
  clumps of the same millisecond, and a quarter of the changes opening with an
  idle gap of 50 to 300 ms.
- ``toml FILE``: print a trace file as the ``rate_trace_ms = [...]`` line a
  scenario takes (the scenario holds its trace inline: a file it named would be
  outside a stored run's hash, and an embedded scenario has no folder).

    python3 scripts/mm_trace.py generate > tests/data/traces/synthetic-cellular-60s.mm
    python3 scripts/mm_trace.py toml tests/data/traces/synthetic-cellular-60s.mm
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

OPPORTUNITY_BITS = 1504 * 8
MASK = (1 << 64) - 1


class SplitMix64:
    """Steele, Lea and Flood's splitmix64: a fixed, documented stream."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self, lo: float, hi: float) -> float:
        return lo + (hi - lo) * (self.next_u64() >> 11) / float(1 << 53)


def cellular(seed: int = 33, length_ms: int = 60_000) -> Iterator[int]:
    """The opportunity times of a cellular-like trace of ``length_ms`` ms."""
    rng = SplitMix64(seed)
    t = 0
    credit = 0.0
    while t < length_ms:
        segment_end = min(length_ms, t + int(rng.uniform(2_000, 6_000)))
        rate_bps = rng.uniform(0.5e6, 10e6)
        if rng.uniform(0, 1) < 0.25:
            t += int(rng.uniform(50, 300))  # idle: no opportunity
        per_ms = rate_bps / 1000 / OPPORTUNITY_BITS
        while t < segment_end:
            t += 1
            credit += per_ms
            # Opportunities come in clumps: the scheduler grants several at once.
            if rng.uniform(0, 1) < 0.4:
                n = int(credit)
                credit -= n
                yield from [t] * n
    # The last line is the period: the trace lasts exactly length_ms.
    yield length_ms


def main(argv: list[str]) -> int:
    if argv[:1] == ["generate"] and len(argv) == 1:
        sys.stdout.write("".join(f"{ms}\n" for ms in cellular()))
        return 0
    if argv[:1] == ["toml"] and len(argv) == 2:
        with open(argv[1], encoding="utf-8") as f:
            times = [line.strip() for line in f.read().splitlines()]
        rows = [", ".join(times[i : i + 16]) for i in range(0, len(times), 16)]
        sys.stdout.write("rate_trace_ms = [\n" + "".join(f"    {r},\n" for r in rows) + "]\n")
        return 0
    sys.stderr.write("usage: mm_trace.py generate | mm_trace.py toml FILE\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
