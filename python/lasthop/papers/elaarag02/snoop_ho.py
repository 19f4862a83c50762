"""ElAarag 2002 (seed 002), Sec. 5.1: snoop's handoff, as the snoop paper measured it
(Balakrishnan, Seshan, Katz, ACM Wireless Networks 1(4) 1995, Table 1; elaarag-002.md
Sec. 1.7, SNOOP-HO-1): a bulk transfer to a mobile host handed off between two WaveLAN
cells every 1, 2, 3, 5, 8 or 10 s, or never (``elaarag02/snoop-handoff``).

Each cell is the throughput at the mobile host in Mb/s beside the paper's, with the fixed
host's retransmissions and timeouts, mean over the seeds (the seed draws only the phase of
the BSD timers' 500 ms tick). The paper's multicast handoff (buffering stations, the new
one sending what the host lacks) is the scheme ``snoop-multicast``; ``snoop-hard``, each
station with its own cache and the new one's empty, is the contrast (SNOOP-HO-4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.reproduction.throughput import ThroughputExperiment

if TYPE_CHECKING:
    from rich.console import RenderableType

TABLE: Final = "elaarag02:snoop-ho"
SCENARIO: Final = "elaarag02/snoop-handoff"
SOURCE: Final = (
    "H. Balakrishnan, S. Seshan, R. H. Katz, 'Improving reliable transport and handoff "
    "performance in cellular wireless networks', ACM Wireless Networks 1(4), 1995, Table 1 "
    "(as elaarag-002.md Sec. 1.7 reads it; seed 002 Sec. 5.1 cites the scheme)"
)
PERIODS: Final = (1, 2, 3, 5, 8, 10)
"""Table 1's handoff periods, in seconds."""
PAPER_MBPS: Final = {
    "1": 1.42,
    "2": 1.43,
    "3": 1.43,
    "5": 1.43,
    "8": 1.44,
    "10": 1.43,
    "none": 1.45,
}
"""Table 1's throughput by handoff period (``none``: no handoff), Mb/s."""
NONE: Final = "none"
MULTICAST: Final = "snoop-multicast"
HARD: Final = "snoop-hard"
NO_HANDOFF_EVERY_S: Final = 1000
"""``every_s`` past the run's end: no handoff."""


def setting(period: int | None) -> str:
    """The cell's setting: ``every=Ns``, or ``none``."""
    return NONE if period is None else f"every={period}s"


def experiments() -> list[ThroughputExperiment]:
    """A cell per handoff period and handoff kind, and the run without handoffs."""
    out = []
    for period in (*PERIODS, None):
        every = NO_HANDOFF_EVERY_S if period is None else period
        kinds = (MULTICAST,) if period is None else (MULTICAST, HARD)
        for kind in kinds:
            out.append(
                ThroughputExperiment(
                    table=TABLE,
                    setting=setting(period),
                    scheme=kind,
                    scenario=SCENARIO,
                    sets=(f"every_s={every}", f'snoop_handoff="{kind.removeprefix("snoop-")}"'),
                    unit="mbps",
                    # The hard handoff is the contrast: the paper measured the multicast.
                    published=PAPER_MBPS[NONE if period is None else str(period)]
                    if kind == MULTICAST
                    else None,
                )
            )
    return out


def table(cells: Sequence[Mapping[str, Any]], seeds: int) -> RenderableType:
    """Table 1 of the snoop paper: throughput with handoffs every N s."""
    from lasthop.render import FittedTable, fixed

    out = FittedTable(
        f"Snoop's handoff (the snoop paper's Table 1), mean of {seeds} seeds",
        ["handoffs"],
        [
            "paper\nMb/s",
            "multicast\nMb/s",
            "of none",
            "FH\nrexmits",
            "FH\ntimeouts",
            "hard\nMb/s",
            "hard FH\ntimeouts",
        ],
        caption="elaarag-002.md SNOOP-HO-1, from " + SOURCE,
    )
    by = {(str(c["setting"]), str(c["scheme"])): c for c in cells if c["table"] == TABLE}
    base = by.get((NONE, MULTICAST), {}).get("throughput_mbps")
    for period in (*PERIODS, None):
        s = setting(period)
        m, h = by.get((s, MULTICAST)), by.get((s, HARD), {})
        if m is None:
            continue
        mbps = m.get("throughput_mbps")
        out.add_row(
            "none" if period is None else f"every {period} s",
            fixed(m.get("published"), 2),
            fixed(mbps, 3),
            fixed(mbps / base if mbps is not None and base else None, 3),
            fixed(m.get("retransmits"), 1),
            fixed(m.get("timeouts"), 1),
            fixed(h.get("throughput_mbps"), 3),
            fixed(h.get("timeouts"), 1),
        )
    return out
