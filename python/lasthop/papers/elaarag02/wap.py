"""ElAarag 2002 (seed 002), Sec. 5.3: WAP against HTTP over TCP for the same page fetches
(``elaarag02/wap``: a handset fetching pages through a gateway over a 9.6 kb/s, 250 ms
bearer), and WSP's suspend and resume across a 20 s bearer loss; the reference's WAP-1 and
WAP-3 (elaarag-002.md Sec. 4; WAP-2, a transaction's retransmissions and abort, is a
timeline: ``crates/lasthop-sim/tests/sim/wap.rs``). Issue 34 item 5.

A cell is one protocol's page fetches in one setting, mean over the seeds: the time from
asking for a page to having it, the frames on the bearer per page (both directions), pages
fetched and aborted, and WSP's connects and resumes. The bearer loses each frame with
probability 2% [I] (so the seeds differ).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from lasthop.reproduction.throughput import ThroughputExperiment

if TYPE_CHECKING:
    from rich.console import RenderableType

TABLE: Final = "elaarag02:WAP"
SCENARIO: Final = "elaarag02/wap"
PER: Final = 0.02
"""Frame error rate on the bearer [I]."""
PAGES: Final = (1000, 4000)
"""Response sizes from the server, bytes [I]."""
LOSS: Final = "loss-20s"
"""The setting with WAP-3's 20 s bearer loss, at 23.5 s, while a page is out."""
BEARER_RTT_S: Final = 0.5
"""The bearer's propagation round trip (250 ms each way): WAP-1's "round trip"."""
SCHEMES: Final = {
    "wap": ('protocol="wap"',),
    "http": ('protocol="http"',),
    "wap-no-suspend": ('protocol="wap"', "suspend=false"),
}
KEYS: Final = {
    "fetch_s": "mean_fetch_s",
    "bearer_frames": "mean_bearer_frames",
    "fetched": "fetched",
    "aborted": "aborted",
    "connects": "connects",
    "resumes": "resumes",
}
"""The cell's figures and the run summary's ``wap`` fields they average."""


def setting(page: int) -> str:
    return f"page={page}B"


def experiments() -> list[ThroughputExperiment]:
    """Each protocol at each page size; WAP with and without suspend across the loss."""
    errors = f"per={PER}"
    cells = [
        ThroughputExperiment(
            table=TABLE,
            setting=setting(page),
            scheme=scheme,
            scenario=SCENARIO,
            sets=(*SCHEMES[scheme], f"response_bytes={page}", errors),
            unit="pps",
            published=None,
        )
        for page in PAGES
        for scheme in ("wap", "http")
    ]
    return cells + [
        ThroughputExperiment(
            table=TABLE,
            setting=LOSS,
            scheme=scheme,
            scenario=SCENARIO,
            sets=(*SCHEMES[scheme], 'outage="on"', "outage_at_s=23.5", errors),
            unit="pps",
            published=None,
        )
        for scheme in ("wap", "wap-no-suspend")
    ]


def cell(experiment: ThroughputExperiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Mean over ``runs`` of each of :data:`KEYS` of the run's (one) wap workload."""
    out: dict[str, Any] = {
        "table": experiment.table,
        "setting": experiment.setting,
        "scheme": experiment.scheme,
    }
    for key, field in KEYS.items():
        values = [run["wap"][0][field] for run in runs]
        out[key] = None if any(v is None for v in values) else round(sum(values) / len(values), 4)
    return out


def table(cells: Sequence[Mapping[str, Any]], seeds: int) -> RenderableType:
    """WAP against HTTP: per page and protocol the fetch time and the bearer's frames."""
    from lasthop.render import FittedTable, fixed

    out = FittedTable(
        f"ElAarag 2002 Sec. 5.3: page fetches over a 9.6 kb/s bearer, 2% frame loss, "
        f"mean of {seeds} seeds",
        ["setting", "protocol"],
        ["fetch s", "bearer frames\nper page", "fetched", "aborted", "connects", "resumes"],
        caption="elaarag-002.md WAP-1, WAP-3; WSP/WTP class 2 to a gateway fetching over TCP",
    )
    for c in cells:
        if c["table"] != TABLE:
            continue
        out.add_row(
            str(c["setting"]),
            str(c["scheme"]),
            fixed(c["fetch_s"], 3),
            fixed(c["bearer_frames"], 2),
            fixed(c["fetched"], 1),
            fixed(c["aborted"], 1),
            fixed(c["connects"], 2),
            fixed(c["resumes"], 2),
        )
    return out
