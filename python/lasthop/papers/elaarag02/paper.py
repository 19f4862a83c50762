"""ElAarag 2002 (seed 002): Table I, TCP Tahoe's throughput in packets per second at two
bit error rates (``elaarag02/table1``), beside the published values; Fig. 2, Tahoe on
the Table I path with the mobile host cut off periodically (``elaarag02/fig2``), read
from traced runs (:mod:`lasthop.papers.elaarag02.fig2`); and the survey's disconnection
mechanisms on Fig. 2's schedule (:mod:`lasthop.papers.elaarag02.x1`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.papers.elaarag02 import (
    blackout,
    compare,
    compare_claims,
    fig2,
    published,
    snoop_ho,
    transfer,
    wap,
    wap_claims,
    x1,
)
from lasthop.papers.elaarag02.claims import CLAIMS, DEVIATIONS, SENSITIVITIES
from lasthop.reproduction.claims import Claim
from lasthop.reproduction.deviations import Deviation, Sensitivity
from lasthop.reproduction.experiment import Experiment
from lasthop.reproduction.paper import Paper, Request
from lasthop.reproduction.throughput import ThroughputExperiment, throughput_cell

if TYPE_CHECKING:
    from rich.console import RenderableType

    from lasthop.report import ReportPart

BERS: Final = ("1e-5", "1e-6")
"""Table I's bit error rates (the ``ber`` parameter of ``elaarag02/table1``)."""

NS2_PKT: Final = ("1e-5-pkt", "1e-6-pkt")
"""Table I's error model by ns-2's literal rule for unit ``pkt`` (elaarag-002.md TABLE1-4:
the channel advances only when a packet crosses it)."""

TABLE: Final = "elaarag02:I"


def experiments() -> list[ThroughputExperiment]:
    """Table I's cells: TCP Tahoe at each bit error rate, without errors (the reference's
    TABLE1-3, no published value), and under ns-2's literal ``pkt`` reading (TABLE1-4)."""
    return [
        ThroughputExperiment(
            table=TABLE,
            setting=f"ber={ber}",
            scheme="tahoe",
            scenario="elaarag02/table1",
            # Quoted: the parameter and its cases are keyed by the string "1e-5".
            sets=(f'ber="{ber}"',),
            unit="pps",
            published=published.ELAARAG02_TABLE_I[ber].throughput_pps,
        )
        for ber in BERS
    ] + [
        ThroughputExperiment(
            table=TABLE,
            setting=f"ber={ber}",
            scheme="tahoe",
            scenario="elaarag02/table1",
            sets=(f'ber="{ber}"',),
            unit="pps",
            published=None,
        )
        for ber in ("none", *NS2_PKT)
    ]


FIG2_ROWS: Final = (
    ("3.0s", "acks_lost", "acks lost at 3.0 s", "10 (187-196)"),
    ("3.0s", "data_lost", "data packets lost at 3.0 s", "37 (197-233)"),
    ("3.0s", "first_rexmit_pkt", "first retransmission: packet", "187"),
    ("3.0s", "first_rexmit_s", "first retransmission: time (s)", "4.105"),
    ("3.0s", "by_timeout", "... by timeout (1 = yes)", "1"),
    ("3.0s", "ssthresh_after_pkts", "ssthresh after it (packets)", "25"),
    ("3.0s", "next_pkt", "next packets", "197"),
    ("3.0s", "next2_pkt", "", "198"),
    ("6.3s", "acks_lost", "acks lost at 6.3 s", "10 (304-313)"),
    ("6.3s", "data_lost", "data packets lost at 6.3 s", "16 (314-329)"),
    ("60s", "timeouts_per_outage_max", "60 s: most timeouts per outage", "1"),
    ("60s", "ssthresh_2_pkts", "60 s: ssthresh after timeout 2", "13 [M]"),
    ("60s", "ssthresh_5_pkts", "60 s: ssthresh after timeout 5", "6 [M]"),
    ("60s", "settled_peak_cwnd_pkts", "60 s: peak cwnd, last 5 periods", "12.8-13.5 [M]"),
)
"""Fig. 2's rows: (setting, key, label, the survey's figure; [M]: ns-2.35's, the
reference's)."""


def fig2_table(cells: Sequence[Mapping[str, Any]], seeds: int) -> RenderableType:
    """Fig. 2's narrative, measured (mean over the traced runs) beside the survey's."""
    from lasthop.render import FittedTable, fixed

    by = {str(c["setting"]): c for c in cells if c["table"] == fig2.TABLE}
    out = FittedTable(
        f"ElAarag 2002 Fig. 2 (Tahoe, 0.3 s outages every 3.3 s), mean of {seeds} traced runs",
        ["figure"],
        ["measured", "paper"],
        caption=published.ELAARAG02_SOURCE,
    )
    for setting, key, label, paper in FIG2_ROWS:
        value = by.get(setting, {}).get(key)
        out.add_row(label, "-" if value is None else fixed(float(value), 3), paper)
    return out


def table(cells: Sequence[Mapping[str, Any]], seeds: int) -> RenderableType:
    """ElAarag's Table I: TCP Tahoe throughput in packets/s at two bit error rates."""
    from lasthop.render import FittedTable, fixed

    out = FittedTable(
        f"ElAarag 2002 Table I (TCP Tahoe), mean of {seeds} seeds",
        ["setting"],
        ["throughput\npkts/s", "paper", "ratio", "5000 pkts\n(s)", "paper"],
        caption=published.ELAARAG02_SOURCE,
    )
    t5000 = {str(c["setting"]): c.get("t5000_s") for c in cells if c["table"] == transfer.TABLE}
    for cell in cells:
        if cell["table"] != TABLE:
            continue
        setting = str(cell["setting"])
        row = published.ELAARAG02_TABLE_I.get(setting.removeprefix("ber="))
        out.add_row(
            setting,
            fixed(cell["throughput_pps"], 3),
            fixed(cell["published"], 3),
            fixed(cell["ratio"], 2),
            fixed(t5000.get(setting), 2),
            fixed(row.transfer_time_5000_s if row else None, 3),
        )
    return out


class ElAarag02(Paper):
    """The reproduction of ElAarag's Table I: the selection ``elaarag02``."""

    claims: Sequence[Claim] = (*CLAIMS, *compare_claims.CLAIMS, *wap_claims.CLAIMS)
    deviations: Sequence[Deviation] = (*DEVIATIONS, *compare_claims.DEVIATIONS)
    sensitivities: Sequence[Sensitivity] = SENSITIVITIES

    def owns(self, table: str) -> bool:
        owned = (
            TABLE,
            fig2.TABLE,
            transfer.TABLE,
            x1.TABLE,
            blackout.TABLE,
            snoop_ho.TABLE,
            compare.TABLE,
            wap.TABLE,
        )
        return table in owned

    def experiments(self, request: Request) -> list[ThroughputExperiment]:
        return (
            experiments()
            + x1.experiments()
            + snoop_ho.experiments()
            + compare.experiments()
            + wap.experiments()
        )

    def cell(self, experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        assert isinstance(experiment, ThroughputExperiment)
        if experiment.table == x1.TABLE:
            return x1.cell(experiment, runs)
        if experiment.table == compare.TABLE:
            return compare.cell(experiment, runs)
        if experiment.table == wap.TABLE:
            return wap.cell(experiment, runs)
        return throughput_cell(experiment, runs)

    def cells(
        self, request: Request, runs: Sequence[Sequence[Mapping[str, Any]]]
    ) -> list[dict[str, Any]]:
        planned = self.experiments(request)
        pooled = [self.cell(e, r) for e, r in zip(planned, runs, strict=True)]
        table1 = [c for c in pooled if c["table"] == TABLE]
        rest = [c for c in pooled if c["table"] != TABLE]
        traced = transfer.cells(request.seeds) + fig2.cells(request.seeds)
        return table1 + traced + rest + blackout.cells()

    def tables(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> list[RenderableType]:
        return [
            table(cells, request.seeds),
            fig2_table(cells, request.seeds),
            x1.table(cells, request.seeds),
            snoop_ho.table(cells, request.seeds),
            blackout.table(cells),
            compare.table(cells, request.seeds),
            wap.table(cells, request.seeds),
        ]

    def report(self, request: Request, cells: Sequence[Mapping[str, Any]]) -> ReportPart:
        from lasthop.papers.elaarag02.figures import figures
        from lasthop.report import CellTable, ReportPart

        shown, provenance = figures(request.trace_seed)
        provenance.append(("traced runs (blackout study)", f"{blackout.SCENARIO}; seed 1"))
        return ReportPart(
            figures=[*shown, blackout.figure(cells)],
            provenance=provenance,
            sources=[("paper", published.ELAARAG02_SOURCE), ("snoop's handoff", snoop_ho.SOURCE)],
            cell_tables={
                TABLE: CellTable("ElAarag 2002, Table I: TCP Tahoe by bit-error rate"),
                transfer.TABLE: CellTable(
                    "ElAarag 2002, Table I: time to transfer 5000 packets (traced runs)",
                    columns=(("5000 packets (s)", "t5000_s", 2),),
                ),
                blackout.TABLE: CellTable(
                    "The blackout study: one blackout of the mobile host's link at 10 s "
                    "(traced runs)",
                    columns=(
                        ("stall (s)", "stall_s", 3),
                        ("FH timeouts", "timeouts", 0),
                        ("goodput (kb/s)", "goodput_kbps", 1),
                    ),
                ),
                x1.TABLE: CellTable(
                    "ElAarag 2002, X-1: every mechanism on Fig. 2's schedule (60 s)",
                    columns=(
                        ("pkts/s", "throughput_pps", 2),
                        ("FH timeouts", "timeouts", 1),
                        ("fast rexmits", "fast_retransmits", 1),
                        ("BS local rexmits", "local_retransmits", 1),
                    ),
                ),
                compare.TABLE: CellTable(
                    "ElAarag 2002, Sec. 6: the mechanisms on the Table I path, by condition",
                    columns=(
                        ("pkts/s", "throughput_pps", 2),
                        ("FH timeouts", "timeouts", 1),
                        ("FH rexmits", "retransmits", 1),
                        ("local rexmits", "local_retransmits", 1),
                    ),
                ),
                wap.TABLE: CellTable(
                    "ElAarag 2002, Sec. 5.3: page fetches by WAP and by HTTP over TCP",
                    columns=(
                        ("fetch s", "fetch_s", 3),
                        ("bearer frames", "bearer_frames", 2),
                        ("connects", "connects", 2),
                        ("resumes", "resumes", 2),
                    ),
                ),
                snoop_ho.TABLE: CellTable(
                    "The snoop paper's Table 1: handoffs every N s (Mb/s)",
                    columns=(
                        ("FH rexmits", "retransmits", 1),
                        ("FH timeouts", "timeouts", 1),
                    ),
                ),
                fig2.TABLE: CellTable(
                    "ElAarag 2002, Fig. 2: what each outage cost TCP Tahoe (traced runs)",
                    columns=(
                        ("acks lost", "acks_lost", 1),
                        ("data lost", "data_lost", 1),
                        ("1st rexmit", "first_rexmit_pkt", 0),
                        ("at (s)", "first_rexmit_s", 3),
                        ("ssthresh", "ssthresh_after_pkts", 1),
                        ("RTOs/outage", "timeouts_per_outage_max", 0),
                        ("peak cwnd", "settled_peak_cwnd_pkts", 1),
                    ),
                ),
            },
        )


PAPER: Final = ElAarag02()
