"""ElAarag 2002 (seed 002), Sec. 4, Fig. 2: TCP Tahoe on the Table I path, the mobile host
cut off 0.3 s every 3.3 s from 3.0 s (``elaarag02/fig2``), read from traced runs.

The survey narrates its figure with numbers (elaarag-002.md Sec. 3.3): slow start to 50,
then at the 3.0 s disconnection "ACKs 187-196 and packets 197-233" lost, no sending until
the timeout at 4.105 s, ssthresh 25, the retransmission of 187, then 197 and 198; at 6.3 s
"ACKs 304-313 and packets 314-329" lost; no duplicate acks, so no fast retransmit. And
over a longer run "the TCP sender never recovers its big congestion window" (Sec. 4).

Each figure here is per traced run, one per seed (the seed draws only the phase of the
sender's 100 ms timer tick; nothing else is random), and a cell holds their mean and 95%
interval. Packets are numbered as ns-2 numbers them: a data packet by its first byte over
1024, an ack by the packet it acknowledges (the cumulative ack over 1024, less one).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.reproduction.compare import cell_half_width

if TYPE_CHECKING:
    from lasthop.result import RunResult

TABLE: Final = "elaarag02:fig2"
SCENARIO: Final = "elaarag02/fig2"
PACKET: Final = 1024
"""Bytes per packet: the whole ns packet (Sec. 4)."""
FIRST_S: Final = 3.0
EVERY_S: Final = 3.3
DOWN_S: Final = 0.3
LINK: Final = "wireless"
LONG_S: Final = 60.0
"""The long run of the same schedule (elaarag-002.md Sec. 3.3 [M]: 60 s)."""
TRACE_SEED: Final = 1
"""The seed of the figure's run."""


def _rows(table: Any) -> list[dict[str, Any]]:
    d = table.to_pydict()
    keys = list(d)
    return [dict(zip(keys, values, strict=True)) for values in zip(*d.values(), strict=True)]


def _s(ns: int) -> float:
    return ns / 1e9


def _outage_drops(result: RunResult, start_s: float, end_s: float) -> dict[str, Any]:
    """The acks and data packets lost to the outage that starts at ``start_s`` (those
    dropped from then until ``end_s``): counts and the first and last packet number."""
    acks, data = [], []
    for r in _rows(result.drops):
        t = _s(r["time_ns"])
        if (
            r["cause"] != "outage"
            or not str(r["link"]).startswith(LINK)
            or not start_s <= t < end_s
        ):
            continue
        if r["is_data"]:
            data.append(r["seq"] // PACKET)
        else:
            acks.append(r["seq"] // PACKET - 1)
    return {
        "acks_lost": float(len(acks)),
        "first_ack_lost": float(min(acks)) if acks else math.nan,
        "last_ack_lost": float(max(acks)) if acks else math.nan,
        "data_lost": float(len(data)),
        "first_data_lost": float(min(data)) if data else math.nan,
        "last_data_lost": float(max(data)) if data else math.nan,
    }


def figures_10s(result: RunResult) -> dict[str, dict[str, float]]:
    """Per outage of the 10 s run (``"3.0s"``, ``"6.3s"``): what was lost; for the first,
    the retransmission that followed."""
    sent = _rows(result.sent)
    events = _rows(result.events)
    window = _rows(result.window)
    second = FIRST_S + EVERY_S
    out: dict[str, dict[str, float]] = {
        "3.0s": _outage_drops(result, FIRST_S, second),
        "6.3s": _outage_drops(result, second, second + EVERY_S),
    }
    first = out["3.0s"]
    after = [r for r in sent if _s(r["time_ns"]) >= FIRST_S]
    rexmit = next((i for i, r in enumerate(after) if r["retransmit"]), None)
    if rexmit is None:
        return out
    r0 = after[rexmit]
    t0 = _s(r0["time_ns"])
    timeouts = {e["time_ns"] for e in events if e["kind"] == "timeout"}
    first["first_rexmit_pkt"] = float(r0["seq"] // PACKET)
    first["first_rexmit_s"] = round(t0, 4)
    first["by_timeout"] = 1.0 if r0["time_ns"] in timeouts else 0.0
    first["fast_retransmits"] = float(
        sum(
            1
            for e in events
            if e["kind"] == "fast_retransmit" and FIRST_S <= _s(e["time_ns"]) < second
        )
    )
    ss = next((w["ssthresh_bytes"] for w in window if w["time_ns"] >= r0["time_ns"]), None)
    if ss is not None:
        first["ssthresh_after_pkts"] = round(ss / PACKET, 2)
    later = [r for r in after[rexmit + 1 :] if r["time_ns"] > r0["time_ns"]]
    if len(later) >= 2:
        first["next_pkt"] = float(later[0]["seq"] // PACKET)
        first["next2_pkt"] = float(later[1]["seq"] // PACKET)
        first["next_after_s"] = round(_s(later[0]["time_ns"]) - t0, 4)
    return out


def figures_long(result: RunResult) -> dict[str, float]:
    """The 60 s run: timeouts per outage (least and most), ssthresh after each of the first
    five timeouts, the highest cwnd after the first outage and the mean of the last five
    up periods' peaks, in packets."""
    starts = [FIRST_S + k * EVERY_S for k in range(int((LONG_S - FIRST_S) / EVERY_S) + 1)]
    starts = [s for s in starts if s < LONG_S]
    events = _rows(result.events)
    window = _rows(result.window)
    per_outage = []
    for k, s in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else LONG_S
        per_outage.append(
            sum(1 for e in events if e["kind"] == "timeout" and s <= _s(e["time_ns"]) < end)
        )
    # The last outage may not have reached its timeout before the run ends.
    complete = per_outage[:-1]
    timeouts = [e["time_ns"] for e in events if e["kind"] == "timeout"]
    ssthresh = []
    for t in timeouts[:5]:
        ss = next((w["ssthresh_bytes"] for w in window if w["time_ns"] >= t), None)
        ssthresh.append(math.nan if ss is None else ss / PACKET)
    peaks = []
    for k, s in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else LONG_S
        up = [w["cwnd_bytes"] / PACKET for w in window if s + DOWN_S <= _s(w["time_ns"]) < end]
        if up:
            peaks.append(max(up))
    out = {
        "outages": float(len(complete)),
        "timeouts_per_outage_min": float(min(complete)),
        "timeouts_per_outage_max": float(max(complete)),
        "peak_cwnd_after_first_pkts": round(max(peaks), 2) if peaks else math.nan,
        "settled_peak_cwnd_pkts": round(sum(peaks[-5:]) / len(peaks[-5:]), 2)
        if peaks
        else math.nan,
    }
    for i, ss in enumerate(ssthresh, start=1):
        out[f"ssthresh_{i}_pkts"] = round(ss, 2)
    return out


def traced_cell(
    table: str, setting: str, per_seed: Sequence[Mapping[str, float]]
) -> dict[str, Any]:
    """A cell of TCP Tahoe's traced runs: the mean of each figure the runs all give, with
    its 95% interval over them (as the framework gives a cell of summaries)."""
    keys = [k for k in per_seed[0] if all(k in s and not math.isnan(s[k]) for s in per_seed)]
    cell: dict[str, Any] = {"table": table, "setting": setting, "scheme": "tahoe"}
    halves: dict[str, float] = {}
    for k in keys:
        values = [float(s[k]) for s in per_seed]
        cell[k] = round(math.fsum(values) / len(values), 4)
        half = cell_half_width(values, cell[k])
        if half is not None:
            halves[k] = half
    if halves:
        cell["ci95"] = halves
    return cell


def run(seed: int, duration_s: float | None = None) -> RunResult:
    """A traced run of the Fig. 2 scenario (``duration_s``: the flow's, else 10 s)."""
    import lasthop  # a traced run needs the package's run(), not only the engine

    sets = [] if duration_s is None else [f"flows.0.duration_s={duration_s}"]
    return lasthop.run(SCENARIO, seed=seed, set=sets)


def cells(seeds: int) -> list[dict[str, Any]]:
    """Fig. 2's cells over ``seeds`` traced runs of 10 s and of 60 s: ``3.0s`` and ``6.3s``
    (what each outage cost, and the first retransmission), ``60s`` (the long run)."""
    short = [figures_10s(run(seed)) for seed in range(1, seeds + 1)]
    long = [figures_long(run(seed, LONG_S)) for seed in range(1, seeds + 1)]
    return [
        traced_cell(TABLE, "3.0s", [s["3.0s"] for s in short]),
        traced_cell(TABLE, "6.3s", [s["6.3s"] for s in short]),
        traced_cell(TABLE, "60s", long),
    ]
