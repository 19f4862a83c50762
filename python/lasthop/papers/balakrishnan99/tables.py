"""The terminal tables of Balakrishnan, Padmanabhan, Katz 1999 (seed 001): T1-T4 of the
bandwidth-asymmetry experiments, F14, T5-T7 and F15 of the latency asymmetry, and the
testbed's F19-F21 (:func:`lasthop.papers.balakrishnan99.testbed.tables`), in the paper's
layout; the seed lost every number, so there is no published row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lasthop.papers.balakrishnan99 import experiments as b99
from lasthop.papers.balakrishnan99 import testbed
from lasthop.render import FittedTable, fixed


def tables(cells: Sequence[Mapping[str, Any]], seeds: int) -> list[FittedTable]:
    """Tables T1-T4 of Balakrishnan, Padmanabhan, Katz 1999 (bandwidth asymmetry) in the
    paper's layout, from the ``b99-*`` cells; the seed lost every number, so there is no
    published row."""
    by = {(str(c["table"]), str(c["setting"]), str(c["scheme"])): c for c in cells}
    caption = b99.SOURCE
    out: list[FittedTable] = []

    def get(table: str, setting: str, scheme: str, key: str) -> Any:
        c = by.get((table, setting, scheme))
        return None if c is None else c.get(key)

    if any(t == "b99-t1" for t, _, _ in by):
        settings = [s for s, _, _ in b99.T1_SETTINGS]
        heads = [
            f"{s.replace('-c', ' C')}\nk={fixed(get('b99-t1', s, 'reno', 'k'), 1)}"
            for s in settings
        ]
        t1 = FittedTable(
            f"Balakrishnan et al. 1999 T1: one-way lossless (E-S1), throughput Mb/s, mean of "
            f"{seeds} seeds (C: header compression, 6-byte acks)",
            ["protocol"],
            heads,
            caption=caption,
        )
        for p in b99.T1_PROTOCOLS:
            t1.add_row(
                b99.protocol_name(p),
                *(fixed(get("b99-t1", s, p, "throughput_mbps"), 3) for s in settings),
            )
        out.append(t1)
    if any(t == "b99-t1b" for t, _, _ in by):
        settings = [f"rq-{b}" for b in b99.T1B_BUFFERS]
        t1b = FittedTable(
            f"E-S1b: 9.6 kb/s C by reverse buffer (packets), throughput Mb/s, mean of {seeds} "
            "seeds",
            ["protocol"],
            [f"{b} pkts" for b in b99.T1B_BUFFERS],
            caption=caption,
        )
        for p in b99.T1B_PROTOCOLS:
            t1b.add_row(
                b99.protocol_name(p),
                *(fixed(get("b99-t1b", s, p, "throughput_mbps"), 3) for s in settings),
            )
        out.append(t1b)
    if any(t == "b99-t2" for t, _, _ in by):
        protocols = list(b99.T2_PROTOCOLS)
        t2 = FittedTable(
            f"Balakrishnan et al. 1999 T2: one-way with forward losses (E-S2), mean of {seeds} "
            "seeds",
            ["metric"],
            [b99.protocol_name(p).replace(", ", ",\n") for p in protocols],
            caption=caption,
        )
        for label, key, digits in (
            ("throughput (Mb/s)", "throughput_mbps", 3),
            ("average cwnd (pkts)", "mean_cwnd_segments", 1),
            ("cwnd sd (pkts)", "cwnd_std_segments", 1),
            ("average RTT (ms)", "mean_rtt_ms", 0),
        ):
            t2.add_row(label, *(fixed(get("b99-t2", "lossy", p, key), digits) for p in protocols))
        out.append(t2)
    if any(t == "b99-t3" for t, _, _ in by):
        t3 = FittedTable(
            f"Balakrishnan et al. 1999 T3: two simultaneous forward transfers (E-S3), mean of "
            f"{seeds} seeds",
            ["protocol"],
            ["aggregate (Mb/s)", "fairness index"],
            caption=caption,
        )
        for p in b99.T3_PROTOCOLS:
            t3.add_row(
                b99.protocol_name(p),
                fixed(get("b99-t3", "two-forward", p, "aggregate_mbps"), 3),
                fixed(get("b99-t3", "two-forward", p, "jain_index"), 3),
            )
        out.append(t3)
    if any(t == "b99-t4" for t, _, _ in by):
        t4 = FittedTable(
            f"Balakrishnan et al. 1999 T4: two-way transfers (E-S4), over the time both are "
            f"active, mean of {seeds} seeds",
            ["protocol"],
            ["forward (Mb/s)", "reverse (kb/s)"],
            caption=caption,
        )
        for p in b99.T4_PROTOCOLS:
            for scheduling in b99.T4_SCHEDULING:
                name = b99.protocol_name(p) + (" + acks-first" if scheduling != "fifo" else "")
                t4.add_row(
                    name,
                    fixed(get("b99-t4", scheduling, p, "forward_mbps"), 3),
                    fixed(get("b99-t4", scheduling, p, "reverse_kbps"), 2),
                )
        out.append(t4)
    out += _latency_tables(get, {t for t, _, _ in by}, seeds, caption)
    # The testbed half: figures F19-F21 as tables.
    out += testbed.tables(cells, seeds)
    return out


def _latency_tables(get: Any, tables: set[str], seeds: int, caption: str) -> list[FittedTable]:
    """Seed 001's latency-asymmetry tables: T6 (hops), T7 (connections), F15 (hosts)."""
    out: list[FittedTable] = []
    if "b99-f14" in tables:
        f14 = FittedTable(
            f"Balakrishnan et al. 1999 F14: 1 MB over wireless cable, packet-radio return "
            f"(E-T4), kb/s (sd over {seeds} seeds)",
            ["socket buffer"],
            ["Reno (BSD/OS)"],
            caption=caption,
        )
        for kb in b99.F14_BUFFERS_KB:
            s = f"{kb}-KB"
            f14.add_row(
                f"{kb} KB",
                f"{fixed(get('b99-f14', s, 'reno', 'throughput_kbps'), 1)} "
                f"({fixed(get('b99-f14', s, 'reno', 'throughput_sd_kbps'), 2)})",
            )
        out.append(f14)
    if "b99-t6" in tables:
        t5 = FittedTable(
            "Balakrishnan et al. 1999 T5: multi-hop packet-radio parameters (E-S5..E-S7; "
            "the seed lost every value)",
            ["parameter"],
            ["value", "unit", "source"],
            caption=caption,
        )
        for name, value, unit, source in b99.t5_rows():
            t5.add_row(name, value, unit, source)
        out.append(t5)
        t6 = FittedTable(
            f"Balakrishnan et al. 1999 T6: bulk transfer over a packet-radio chain (E-S5), "
            f"kb/s (mean RTT s, RTT sd s), mean of {seeds} seeds",
            ["hops"],
            [b99.protocol_name(p) for p in b99.T6_PROTOCOLS],
            caption=caption,
        )
        for h in b99.T6_HOPS:
            cells = []
            for p in b99.T6_PROTOCOLS:
                kbps = get("b99-t6", f"{h}-hop", p, "throughput_kbps")
                rtt = get("b99-t6", f"{h}-hop", p, "mean_rtt_ms")
                sd = get("b99-t6", f"{h}-hop", p, "rtt_std_ms")
                cells.append(
                    f"{fixed(kbps, 1)} ({fixed(None if rtt is None else rtt / 1e3, 2)}, "
                    f"{fixed(None if sd is None else sd / 1e3, 2)})"
                )
            t6.add_row(str(h), *cells)
        out.append(t6)
    if "b99-t7" in tables:
        t7 = FittedTable(
            f"Balakrishnan et al. 1999 T7, F13: connections over one radio hop (E-S6), "
            f"aggregate kb/s (per-connection sd) and fairness, mean of {seeds} seeds",
            ["connections"],
            [b99.protocol_name(p) for p in b99.T7_PROTOCOLS]
            + [f"{b99.protocol_name(p)} fairness" for p in b99.T7_PROTOCOLS],
            caption=caption,
        )
        for n in b99.T7_CONNECTIONS:
            s = f"{n}-conn"
            t7.add_row(
                str(n),
                *(
                    f"{fixed(get('b99-t7', s, p, 'aggregate_kbps'), 1)} "
                    f"({fixed(get('b99-t7', s, p, 'per_connection_sd_kbps'), 1)})"
                    for p in b99.T7_PROTOCOLS
                ),
                *(fixed(get("b99-t7", s, p, "jain_index"), 3) for p in b99.T7_PROTOCOLS),
            )
        out.append(t7)
    if "b99-f15" in tables:
        f15 = FittedTable(
            f"Balakrishnan et al. 1999 F15: web transactions over wireless cable with a "
            f"packet-radio return (E-S7), mean completion time s (sd), {seeds} seeds",
            ["hosts"],
            [b99.F15_PROTOCOL_NAMES[p] for p in b99.F15_PROTOCOLS],
            caption=caption,
        )
        for h in b99.F15_HOSTS:
            s = f"{h}-hosts"
            f15.add_row(
                str(h),
                *(
                    f"{fixed(get('b99-f15', s, p, 'completion_mean_s'), 2)} "
                    f"({fixed(get('b99-f15', s, p, 'completion_sd_s'), 2)})"
                    for p in b99.F15_PROTOCOLS
                ),
            )
        out.append(f15)
    return out
