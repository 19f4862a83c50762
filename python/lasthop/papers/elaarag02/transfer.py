"""ElAarag 2002 (seed 002), Table I's last row: the time TCP Tahoe takes to transfer 5000
packets (elaarag-002.md TABLE1-2 at BER 1e-6, TABLE1-3 without errors), read from traced
runs of ``elaarag02/table1``: the time the fixed host receives the ack that covers the
5000th packet (the sender's view of a transfer's end; the ack's trip back is 0.1 s of
about 58)."""

from __future__ import annotations

import math
from typing import Any, Final

from lasthop.papers.elaarag02.fig2 import traced_cell

TABLE: Final = "elaarag02:I-t5000"
SCENARIO: Final = "elaarag02/table1"
PACKETS: Final = 5000
PACKET: Final = 1024
RUN_S: Final = 400.0
"""Long enough for 5000 packets at the slowest rate (1e-5: about 200 s here)."""
BERS: Final = ("1e-5", "1e-6", "none")


def t5000_s(acks: Any) -> float:
    """When the cumulative ack first covers :data:`PACKETS` packets, in s (NaN: never)."""
    d = acks.to_pydict()
    goal = PACKETS * PACKET
    for t, flow, ack in zip(d["time_ns"], d["flow"], d["ack"], strict=True):
        if flow == 0 and ack >= goal:
            return float(t) / 1e9
    return math.nan


def cells(seeds: int) -> list[dict[str, Any]]:
    """A cell per bit error rate of :data:`BERS`: ``t5000_s``, the mean over ``seeds``
    traced runs, with its 95% interval."""
    import lasthop  # a traced run needs the package's run(), not only the engine

    out = []
    for ber in BERS:
        sets = [f'ber="{ber}"', f"flows.0.duration_s={RUN_S}"]
        runs = [lasthop.run(SCENARIO, seed=seed, set=sets) for seed in range(1, seeds + 1)]
        out.append(traced_cell(TABLE, f"ber={ber}", [{"t5000_s": t5000_s(r.acks)} for r in runs]))
    return out
