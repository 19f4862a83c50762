"""The cell most papers print: the receiver's throughput beside the published value, and
the goodput of the wireless and the wired link (Balakrishnan et al. 1997, ElAarag 2002).

:func:`throughput_cell` makes it from a :class:`ThroughputExperiment`'s runs: the mean over
the seeds of the first flow's throughput (Mb/s) or packet rate (packets/s), its ratio to
the published value, and the mean goodput of the link directions :data:`WIRELESS` and
:data:`WIRED`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from lasthop.reproduction.experiment import Experiment

WIRELESS: Final = ("wireless", "bs->mh")
"""(link, direction) whose goodput the papers call wireless goodput: data into the MH."""
WIRED: Final = ("wired", "fh->bs")
"""(link, direction) of the wired goodput: data from the fixed host to the base station."""


@dataclass(frozen=True)
class ThroughputExperiment(Experiment):
    """A cell measured as throughput beside a published value."""

    unit: str
    """``mbps`` (throughput in Mb/s) or ``pps`` (packets per second, as ElAarag counts)."""
    published: float | None
    """The paper's value in that unit; ``None`` where it gives none."""


def throughput_cell(
    experiment: ThroughputExperiment, runs: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The cell of ``experiment`` from its runs' summaries: ``{"table", "setting",
    "scheme", "throughput_mbps" | "throughput_pps", "published", "ratio",
    "wireless_goodput_pct", "wired_goodput_pct"}``, and for cells in Mb/s
    ``published_mbps`` (the same value as ``published``, the field the paper-wide JSON of
    issue 4 names; ``None`` where the paper gives no number), the source's
    ``retransmits`` and ``timeouts``, the data frames lost on the wireless hop
    (``wireless_losses``) and, where a snoop-family agent runs, the segments it and the
    source both retransmitted (``double_retransmits``), mean per run."""
    if experiment.unit == "mbps":
        key, digits = "throughput_mbps", 4
        throughput = _mean([run["flows"][0]["throughput_bps"] / 1e6 for run in runs])
    else:
        key, digits = "throughput_pps", 3
        throughput = _mean([_packets_per_s(run) for run in runs])
    ratio = throughput / experiment.published if experiment.published else None
    cell = {
        "table": experiment.table,
        "setting": experiment.setting,
        "scheme": experiment.scheme,
        key: _round(throughput, digits),
        "published": experiment.published,
        "ratio": _round(ratio, 3),
        "wireless_goodput_pct": _round(_mean_goodput_pct(runs, WIRELESS), 2),
        "wired_goodput_pct": _round(_mean_goodput_pct(runs, WIRED), 2),
    }
    if experiment.unit == "mbps":
        cell["published_mbps"] = experiment.published
        # The source's retransmissions and coarse timeouts, mean per run (claims such as
        # Sec. IV-D's "the wired connection neither has any retransmissions nor any
        # timeouts" read them).
        cell["retransmits"] = _round(_mean([float(r["flows"][0]["retransmits"]) for r in runs]), 2)
        cell["timeouts"] = _round(_mean([float(r["flows"][0]["timeouts"]) for r in runs]), 2)
        # Data lost on the wireless hop, and the segments a snoop-family agent and the
        # source both retransmitted (Sec. IV-B: "about 90% of the lost packets are
        # retransmitted by both the source and the base station"), mean per run.
        losses = [_link(r, WIRELESS) for r in runs]
        if all(link is not None for link in losses):
            cell["wireless_losses"] = _round(
                _mean([float(link["drops_error"]) for link in losses if link is not None]), 2
            )
        both = [r["flows"][0].get("double_retransmits") for r in runs]
        if all(b is not None for b in both):
            cell["double_retransmits"] = _round(_mean([float(b) for b in both if b is not None]), 2)
    return cell


def _link(run: Mapping[str, Any], which: tuple[str, str]) -> Mapping[str, Any] | None:
    name, direction = which
    for link in run["links"]:
        if link.get("name") == name and link.get("direction") == direction:
            return link  # type: ignore[no-any-return]
    return None


def _packets_per_s(run: Mapping[str, Any]) -> float:
    """Packets per second at the receiver, as ElAarag counts throughput."""
    flow = run["flows"][0]
    sim_time_s = float(run["sim_time_s"])
    if sim_time_s <= 0:
        return 0.0
    return float(flow["bytes_delivered"]) / sim_time_s / float(flow["mss_bytes"])


def _mean_goodput_pct(runs: Sequence[Mapping[str, Any]], which: tuple[str, str]) -> float | None:
    """Mean goodput of one link direction in percent; ``None`` if it is missing or
    undefined (no data crossed it) in any run."""
    name, direction = which
    values = []
    for run in runs:
        goodput = next(
            (
                link.get("goodput")
                for link in run["links"]
                if link.get("name") == name and link.get("direction") == direction
            ),
            None,
        )
        if goodput is None:
            return None
        values.append(100.0 * float(goodput))
    return _mean(values)


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
