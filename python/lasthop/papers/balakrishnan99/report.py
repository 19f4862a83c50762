"""The 1999 paper's part of the HTML report (seed 001): its figures
(:mod:`lasthop.papers.balakrishnan99.figures` and
:mod:`~lasthop.papers.balakrishnan99.figures_testbed`), the runs traced for them, and the
tables of its cells: no published values survive, so their columns are the measures the
claims read, and the packet radio's parameters (T5) come before F14's cells."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from lasthop.papers.balakrishnan99 import experiments as b99
from lasthop.papers.balakrishnan99 import figures, figures_testbed
from lasthop.report import CellTable, HtmlTable, ReportPart

TITLES: Final[dict[str, str]] = {
    "b99-t1": "Balakrishnan et al. 1999, T1: one-way lossless transfers (E-S1), reverse "
    "channels with and without header compression (-c)",
    "b99-t1b": "Balakrishnan et al. 1999, E-S1b: 9.6 kb/s compressed, by reverse buffer",
    "b99-t2": "Balakrishnan et al. 1999, T2: one-way transfer with forward losses (E-S2)",
    "b99-t3": "Balakrishnan et al. 1999, T3: two simultaneous forward transfers (E-S3)",
    "b99-f19": "Balakrishnan et al. 1999, F19: testbed throughput against SA's maxburst (E-T5)",
    "b99-f20": "Balakrishnan et al. 1999, F20: testbed throughput against ACC's max_delack (E-T6)",
    "b99-f21": "Balakrishnan et al. 1999, F21: testbed two-way transfers (E-T7)",
    "b99-t4": "Balakrishnan et al. 1999, T4: two-way transfers (E-S4), over the time both "
    "are active",
    "b99-f14": "Balakrishnan et al. 1999, F14: 1 MB transfers over wireless cable with a "
    "packet-radio return (E-T4), by the client's socket buffer",
    "b99-t6": "Balakrishnan et al. 1999, T6: one bulk transfer over a chain of packet-radio "
    "hops (E-S5)",
    "b99-t7": "Balakrishnan et al. 1999, T7: connections sharing one packet-radio hop (E-S6), "
    "over the time all are active",
    "b99-f15": "Balakrishnan et al. 1999, F15: web micro-benchmark over wireless cable with a "
    "packet-radio return (E-S7)",
}
"""What each table of cells is, in the paper's words."""

COLUMNS: Final[dict[str, tuple[tuple[str, str, int], ...]]] = {
    "b99-t1": (
        ("Mb/s", "throughput_mbps", 3),
        ("k", "k", 2),
        ("mean RTT ms", "mean_rtt_ms", 0),
        ("mean cwnd pkts", "mean_cwnd_segments", 1),
        ("reverse queue pkts", "reverse_queue_packets", 2),
        ("reverse use", "reverse_utilisation", 3),
        ("acks dropped", "reverse_ack_drops", 0),
        ("data per ack", "data_per_ack", 2),
    ),
    "b99-t2": (
        ("Mb/s", "throughput_mbps", 3),
        ("mean cwnd pkts", "mean_cwnd_segments", 1),
        ("cwnd sd pkts", "cwnd_std_segments", 1),
        ("mean RTT ms", "mean_rtt_ms", 0),
        ("timeouts", "timeouts", 1),
        ("forward drops", "forward_drops", 1),
    ),
    "b99-t3": (
        ("aggregate Mb/s", "aggregate_mbps", 3),
        ("fairness", "jain_index", 3),
        ("first Mb/s", "first_mbps", 3),
        ("second Mb/s", "second_mbps", 3),
        ("second's timeouts", "second_timeouts", 1),
    ),
    "b99-t4": (
        ("forward Mb/s", "forward_mbps", 3),
        ("reverse kb/s", "reverse_kbps", 2),
        ("reverse starved", "reverse_starved_fraction", 2),
        ("ack gap ms (seed 1)", "ack_gap_ms", 0),
        ("longest pause s (seed 1)", "idle_gap_max_s", 2),
    ),
}
COLUMNS["b99-t1b"] = COLUMNS["b99-t1"]
COLUMNS["b99-f14"] = (
    ("kb/s", "throughput_kbps", 1),
    ("sd kb/s", "throughput_sd_kbps", 2),
    ("timeouts", "timeouts", 2),
)
COLUMNS["b99-t6"] = (
    ("kb/s", "throughput_kbps", 2),
    ("mean RTT ms", "mean_rtt_ms", 0),
    ("RTT sd ms", "rtt_std_ms", 0),
    ("timeouts", "timeouts", 1),
    ("frames per radio", "frames_per_radio", 0),
    ("turnaround s/radio", "turnaround_s_per_radio", 1),
    ("RTS/CTS s/radio", "rts_cts_s_per_radio", 1),
    ("backoff s/radio", "backoff_s_per_radio", 1),
)
COLUMNS["b99-t7"] = (
    ("aggregate kb/s", "aggregate_kbps", 2),
    ("per-connection sd kb/s", "per_connection_sd_kbps", 2),
    ("fairness", "jain_index", 3),
)
COLUMNS["b99-f15"] = (
    ("completion s", "completion_mean_s", 2),
    ("sd s", "completion_sd_s", 2),
    ("completed", "completed_fraction", 2),
)
# The testbed half (Secs. 8, 9.1): the data of figures F19-F21.
COLUMNS["b99-f19"] = (
    ("Mb/s", "throughput_mbps", 3),
    ("sd Mb/s", "throughput_sd_mbps", 3),
    ("runs with loss", "runs_with_loss", 1),
    ("timeouts", "timeouts", 1),
    ("mean RTT ms", "mean_rtt_ms", 0),
)
COLUMNS["b99-f20"] = COLUMNS["b99-f19"]
COLUMNS["b99-f21"] = (
    ("forward Mb/s", "forward_mbps", 3),
    ("sd", "forward_sd_mbps", 3),
    ("reverse kb/s", "reverse_kbps", 2),
    ("sd", "reverse_sd_kbps", 2),
    ("reverse starved", "reverse_starved_fraction", 2),
)


def t5_table() -> HtmlTable:
    """Seed 001's T5: the packet radio's parameters, with where each comes from."""
    return HtmlTable(
        "Balakrishnan et al. 1999, T5: multi-hop packet-radio parameters (the seed lost "
        "every value; [N] ns-2.35, [R] the reference's reconstruction)",
        [("parameter", False), ("value", True), ("unit", False), ("source", False)],
        [[(n, False), (v, True), (u, False), (src, False)] for n, v, u, src in b99.t5_rows()],
    )


def report_part(
    cells: Sequence[Mapping[str, Any]], seeds: int, *, trace_seed: int = b99.TRACE_SEED
) -> ReportPart:
    """The paper's figures (traced runs of seed ``trace_seed``; those of the latency and
    testbed cells only where ``cells`` hold them), the rows saying what ran for them, and
    the tables of ``cells``."""
    found, provenance = figures.figures(trace_seed)
    latency, rows = figures.latency_figures(cells, trace_seed)
    found += latency
    provenance += rows
    found += figures_testbed.figures(cells, seeds)
    tables = {
        table: CellTable(TITLES[table], columns, b99.protocol_name)
        for table, columns in COLUMNS.items()
    }
    tables["b99-f14"] = CellTable(
        TITLES["b99-f14"], COLUMNS["b99-f14"], b99.protocol_name, before=(t5_table(),)
    )
    return ReportPart(figures=found, provenance=provenance, cell_tables=tables)
