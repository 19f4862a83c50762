"""Balakrishnan, Padmanabhan, Katz 1999 (seed 001), the testbed half (Secs. 8 and 9.1):
the experiments E-T5, E-T6 and E-T7 of ``/work/shared/reference/asymmetry-001.md`` as the
cells of figures F19, F20 and F21 (the reference's numbering; the seed lost every digit,
so the claims are the check, :mod:`lasthop.papers.balakrishnan99.claims_testbed`).

The BSD/OS testbed: a 10 Mb/s Ethernet forward channel and a 28.8 kb/s dialup return
emulated in the kernel (Sec. 8.1, ``links.X.emulation``), SA's burst timer on the hosts'
10 ms kernel clock, ACC in its testbed form (Sec. 8.2). The scenarios
(``scenarios/balakrishnan99/testbed-*.toml``) give every lost value with where it comes
from.

- F19 (E-T5): forward throughput of a bulk transfer against SA's maxburst, ACC and AF,
  mean and standard deviation over the seeds (the paper's vertical bars).
- F20 (E-T6): the same against ACC's max_delack, for two maxburst values, with Reno as
  the reference.
- F21 (E-T7): a forward and a later reverse transfer, Reno, ACC and AF each with FIFO and
  with acks-first on the emulated dialup's queue: forward (Mb/s) and reverse (kb/s)
  throughput over the time both are active.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.papers.balakrishnan99.experiments import (
    SOURCE,
    _link,
    _mean,
    _mean_opt,
    _r,
    cell_head,
    protocol_name,
)
from lasthop.reproduction.experiment import Experiment

if TYPE_CHECKING:
    from lasthop.render import FittedTable

MAXBURST_SCENARIO: Final = "balakrishnan99/testbed-maxburst"
TWO_WAY_SCENARIO: Final = "balakrishnan99/testbed-two-way"

F19: Final = "b99-f19"
F20: Final = "b99-f20"
F21: Final = "b99-f21"
TABLES: Final = (F19, F20, F21)

INFINITY: Final = 1_000_000
"""The maxburst that stands for the paper's "infinity" (no limit): larger than any window."""

F19_MAXBURSTS: Final = (1, 2, 3, 4, 5, 6, 8, 10, 12, 16, INFINITY)
"""maxburst "ranging from 1 to [?]" and infinity [T; the upper end is lost, R: up to 16, past
the 11-segment burst the forward card's 10-packet buffer passes]."""
F19_PROTOCOLS: Final = ("acc", "af")

F20_MAX_DELACKS: Final = (1, 2, 3, 4, 6, 8, 12, 16)
F20_MAXBURSTS: Final = (4, 8)
"""F20's "two maxburst values" [T; values lost, R: the recommended 4 and twice it]."""

F21_PROTOCOLS: Final = ("reno", "acc", "af")
F21_SCHEDULING: Final = ("fifo", "acks-first")

MSS_BYTES: Final = 1460
"""The testbed's MSS [R: Ethernet's; testbed-maxburst.toml says why]."""
DATA_BYTES: Final = MSS_BYTES - 12
"""The data a full segment carries: the MSS less the 12-byte timestamp option (4.4BSD's
tcp_output sends ``t_maxseg - optlen``; the scenarios' ``mss_bytes``) [D]."""
TICK_S: Final = 0.010
SLOPE_MBPS: Final = DATA_BYTES * 8 / TICK_S / 1e6
"""F19's linear region: one burst of maxburst segments per 10 ms tick, 1.158 Mb/s of goodput
per unit of maxburst with 1448 bytes of data a segment [D]."""

REVERSE_BPS: Final = 28800
PACKET_BYTES: Final = DATA_BYTES + 52
"""A testbed data packet: 1448 bytes of data, 40 of header and the 12-byte timestamp option
(1500 bytes)."""
REVERSE_MAX_KBPS: Final = REVERSE_BPS * DATA_BYTES / PACKET_BYTES / 1e3
"""The reverse transfer's most goodput: 28.8 kb/s of 1500-byte packets carrying 1448 bytes
(27.8 kb/s)."""
REVERSE_PACKET_S: Final = PACKET_BYTES * 8 / REVERSE_BPS
"""Time a reverse data packet holds the emulated dialup: 417 ms."""
WINDOW_BYTES: Final = 65535
ACKS_FIRST_BOUND_MBPS: Final = WINDOW_BYTES * 8 / REVERSE_PACKET_S / 1e6
"""Sec. 9.1.3's "best possible forward throughput" with acks-first: one window (64 KB) per
reverse data packet's transmission time, 1.26 Mb/s [D]."""

STARVED_KBPS: Final = 1.0
"""A reverse transfer below this over the overlap counts as starved."""


def maxburst_name(maxburst: int) -> str:
    return "inf" if maxburst >= INFINITY else str(maxburst)


def f20_scheme(maxburst: int) -> str:
    return f"acc-mb{maxburst}"


def experiments() -> list[Experiment]:
    """The cells of F19, F20 and F21, in the paper's order."""
    out: list[Experiment] = []
    for protocol in F19_PROTOCOLS:
        for m in F19_MAXBURSTS:
            out.append(
                Experiment(
                    F19,
                    f"maxburst-{maxburst_name(m)}",
                    protocol,
                    MAXBURST_SCENARIO,
                    (f'protocol="{protocol}"', f"maxburst={m}"),
                )
            )
    for m in F20_MAXBURSTS:
        for d in F20_MAX_DELACKS:
            out.append(
                Experiment(
                    F20,
                    f"delack-{d}",
                    f20_scheme(m),
                    MAXBURST_SCENARIO,
                    ('protocol="acc"', f"maxburst={m}", f"max_delack={d}"),
                )
            )
    out.append(Experiment(F20, "reference", "reno", MAXBURST_SCENARIO, ('protocol="reno"',)))
    for scheduling in F21_SCHEDULING:
        for protocol in F21_PROTOCOLS:
            out.append(
                Experiment(
                    F21,
                    scheduling,
                    protocol,
                    TWO_WAY_SCENARIO,
                    (f'protocol="{protocol}"', f'scheduling="{scheduling}"'),
                )
            )
    return out


def cell(experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The measured cell of ``experiment`` (one of :func:`experiments`) from its runs'
    summaries."""
    table = experiment.table
    out = cell_head(experiment)
    if table in (F19, F20):
        flows = [run["flows"][0] for run in runs]
        mbps = [f["throughput_bps"] / 1e6 for f in flows]
        out["throughput_mbps"] = _r(_mean(mbps), 4)
        out["throughput_sd_mbps"] = _r(_sd(mbps), 4)
        out["timeouts"] = _r(_mean([float(f["timeouts"]) for f in flows]), 2)
        drops = [float(_link(run, "server->client")["drops_queue"]) for run in runs]
        out["forward_drops"] = _r(_mean(drops), 2)
        out["runs_with_loss"] = _r(_mean([1.0 if d > 0 else 0.0 for d in drops]), 3)
        out["mean_rtt_ms"] = _r(_mean_opt([f.get("mean_rtt_ms") for f in flows]), 2)
    elif table == F21:
        forward = [(run["flows"][0].get("overlap_throughput_bps") or 0.0) / 1e6 for run in runs]
        backward = [(run["flows"][1].get("overlap_throughput_bps") or 0.0) / 1e3 for run in runs]
        out["forward_mbps"] = _r(_mean(forward), 4)
        out["forward_sd_mbps"] = _r(_sd(forward), 4)
        out["reverse_kbps"] = _r(_mean(backward), 3)
        out["reverse_sd_kbps"] = _r(_sd(backward), 3)
        out["reverse_starved_fraction"] = _r(
            _mean([1.0 if x < STARVED_KBPS else 0.0 for x in backward]), 3
        )
    return out


def _sd(values: Sequence[float]) -> float:
    """Sample standard deviation (0 for fewer than two values)."""
    return statistics.stdev(values) if len(values) >= 2 else 0.0


def tables(cells: Sequence[Mapping[str, Any]], seeds: int) -> list[FittedTable]:
    """F19, F20 and F21 as terminal tables (the figures' data), from the testbed cells."""
    from lasthop.render import FittedTable, fixed

    by = {(str(c["table"]), str(c["setting"]), str(c["scheme"])): c for c in cells}

    def get(table: str, setting: str, scheme: str, key: str) -> Any:
        c = by.get((table, setting, scheme))
        return None if c is None else c.get(key)

    def mean_sd(table: str, setting: str, scheme: str, mean: str, sd: str, digits: int) -> str:
        m = get(table, setting, scheme, mean)
        if m is None:
            return fixed(None, digits)
        return f"{fixed(m, digits)} ± {fixed(get(table, setting, scheme, sd), digits)}"

    out: list[FittedTable] = []
    if any(t == F19 for t, _, _ in by):
        f19 = FittedTable(
            f"Balakrishnan et al. 1999 F19: testbed throughput (Mb/s) against maxburst, "
            f"mean ± sd of {seeds} seeds (E-T5; bound {SLOPE_MBPS:.2f} Mb/s per unit of "
            "maxburst)",
            ["maxburst"],
            [protocol_name(p) for p in F19_PROTOCOLS],
            caption=SOURCE,
        )
        for m in F19_MAXBURSTS:
            s = f"maxburst-{maxburst_name(m)}"
            f19.add_row(
                maxburst_name(m),
                *(
                    mean_sd(F19, s, p, "throughput_mbps", "throughput_sd_mbps", 3)
                    for p in F19_PROTOCOLS
                ),
            )
        out.append(f19)
    if any(t == F20 for t, _, _ in by):
        f20 = FittedTable(
            f"Balakrishnan et al. 1999 F20: testbed throughput (Mb/s) against ACC's "
            f"max_delack, mean ± sd of {seeds} seeds (E-T6)",
            ["max_delack"],
            [f"ACC+SA, maxburst {m}" for m in F20_MAXBURSTS],
            caption=SOURCE,
        )
        for d in F20_MAX_DELACKS:
            f20.add_row(
                str(d),
                *(
                    mean_sd(F20, f"delack-{d}", f20_scheme(m), "throughput_mbps",
                            "throughput_sd_mbps", 3)
                    for m in F20_MAXBURSTS
                ),
            )  # fmt: skip
        reno = mean_sd(F20, "reference", "reno", "throughput_mbps", "throughput_sd_mbps", 3)
        f20.add_row("Reno", *([reno] * len(F20_MAXBURSTS)))
        out.append(f20)
    if any(t == F21 for t, _, _ in by):
        f21 = FittedTable(
            f"Balakrishnan et al. 1999 F21: testbed two-way transfers (E-T7), over the time "
            f"both are active, mean ± sd of {seeds} seeds",
            ["protocol"],
            ["forward (Mb/s)", "reverse (kb/s)"],
            caption=SOURCE,
        )
        for p in F21_PROTOCOLS:
            for scheduling in F21_SCHEDULING:
                name = protocol_name(p) + (" + acks-first" if scheduling != "fifo" else "")
                f21.add_row(
                    name,
                    mean_sd(F21, scheduling, p, "forward_mbps", "forward_sd_mbps", 3),
                    mean_sd(F21, scheduling, p, "reverse_kbps", "reverse_sd_kbps", 2),
                )
        out.append(f21)
    return out
