"""The cells of Balakrishnan et al. 1997 (seed 000, Sec. IV) to measure, by selection:

- ``balakrishnan97``: the error-free peaks, Table II (link-layer schemes), Table III
  (end-to-end), Table IV (split connections), Table V (burst losses, ``burst-2``/``-4``/
  ``-6``), Fig. 12 (``every-16k`` ... ``every-256k``) and LL's sensitivity on the WAN to
  the base station's processing latency (``ll-latency``: ``latency-0us`` ...
  ``latency-200us``, no published value); ``only`` picks one of :data:`PARTS`.
- ``balakrishnan97-baseline``: the 1997 testbeds (LAN 8 KB and 32 KB socket buffers,
  WAN 32 KB) without errors (the peak throughput the paper calibrates against, Sec. IV-A)
  and with one bit error per 64 KB under plain TCP Reno (Table III, "E2E").
- ``balakrishnan97-table3``: Table III, every end-to-end scheme (E2E, E2E-NEWRENO,
  E2E-SMART, E2E-IETF-SACK, E2E-ELN, E2E-ELN-RXMT) in each of its three settings.

Each is a :class:`~lasthop.reproduction.throughput.ThroughputExperiment`: throughput in
Mb/s beside the published cell, with the wireless and wired goodput.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from lasthop.papers.balakrishnan97 import published
from lasthop.reproduction.throughput import ThroughputExperiment

TABLE5_SCHEMES: Final = ("ll-tcp-aware", "ll-smart-tcp-aware")
TABLE5_BURSTS: Final = (2, 4, 6)
"""Seed 000 Sec. IV-E, Table V: bursts of 2, 4 and 6 packets, one burst per 64 KB on
average, for the two best TCP-aware link layers (LAN, 32 KB socket buffer)."""

FIG12_SCHEMES: Final = (
    "e2e",
    "ll-tcp-aware",
    "ll-smart-tcp-aware",
    "e2e-smart",
    "e2e-ietf-sack",
    "split-smart",
)
FIG12_ERROR_EVERY_KB: Final = (16, 32, 64, 128, 256)
"""Seed 000 Sec. IV-F, Fig. 12: six protocols, LAN, one error every 16 to 256 KB."""

TABLES: Final = ("peak", "table2", "table3", "table4", "table5", "fig12", "ll-latency")
"""The tables of the cells this paper makes."""

LL_LATENCY_US: Final = (0, 25, 50, 100, 200)
"""Issue 10: LL (plain snoop) on the WAN (32 KB) with the base station's processing latency
(``tcp.base_station_processing_us``) from 0 to 200 us. With snoop's second-duplicate rule
(Sec. IV-E) the local retransmission races the source's next segment at the base station,
so LL's WAN throughput hangs on a latency the paper does not give: this sweep shows how
much. No published value (Table II's LL WAN cell, 0.82 Mb/s, is one unknown latency)."""

_SETTINGS: Final = (
    # (setting, embedded scenario, testbed, socket buffer in bytes)
    ("lan-8k", "balakrishnan97/lan", "lan", 8192),
    ("lan-32k", "balakrishnan97/lan", "lan", 32768),
    ("wan-32k", "balakrishnan97/wan", "wan", 32768),
)


def _testbed_scenario(setting: str) -> tuple[str, int]:
    """The embedded scenario and socket buffer of a Tables II-IV setting."""
    for name, scenario, _testbed, buffer_bytes in _SETTINGS:
        if name == setting:
            return scenario, buffer_bytes
    raise KeyError(setting)


def _paper_table(table: str, cells: Mapping[str, Mapping[str, Any]]) -> list[ThroughputExperiment]:
    """A Table II-IV: every (setting, scheme) with a published cell, on the testbed
    scenarios at one error per 64 KB."""
    experiments = []
    for setting in published.SETTINGS:
        scenario, buffer_bytes = _testbed_scenario(setting)
        for scheme, by_setting in cells.items():
            cell = by_setting[setting]
            if cell is None:
                continue
            experiments.append(
                ThroughputExperiment(
                    table=table,
                    setting=setting,
                    scheme=scheme,
                    scenario=scenario,
                    sets=(f"scheme={scheme}", f"socket_buffer_bytes={buffer_bytes}"),
                    unit="mbps",
                    published=cell.throughput_mbps,
                )
            )
    return experiments


def _lan32(table: str, setting: str, scheme: str, *sets: str) -> ThroughputExperiment:
    return ThroughputExperiment(
        table=table,
        setting=setting,
        scheme=scheme,
        scenario="balakrishnan97/lan",
        sets=(f"scheme={scheme}", "socket_buffer_bytes=32768", *sets),
        unit="mbps",
        published=None,
    )


def _peak(setting: str, scenario: str, testbed: str, buffer_bytes: int) -> ThroughputExperiment:
    """Sec. IV-A: the error-free peak of a setting under TCP Reno."""
    return ThroughputExperiment(
        table="peak",
        setting=setting,
        scheme="e2e",
        scenario=scenario,
        sets=("scheme=e2e", f"socket_buffer_bytes={buffer_bytes}", "error_every_bytes=0"),
        unit="mbps",
        published=published.BALAKRISHNAN97_PEAK_MBPS[testbed],
    )


def _peaks() -> list[ThroughputExperiment]:
    return [_peak(*setting) for setting in _SETTINGS]


def _baseline() -> list[ThroughputExperiment]:
    """Each setting's peak and its E2E cell of Table III on the testbed scenario."""
    e2e = published.BALAKRISHNAN97_TABLE_III["e2e"]
    experiments = []
    for setting, scenario, testbed, buffer_bytes in _SETTINGS:
        experiments.append(_peak(setting, scenario, testbed, buffer_bytes))
        cell = e2e[setting]
        experiments.append(
            ThroughputExperiment(
                table="table3",
                setting=setting,
                scheme="e2e",
                scenario=scenario,
                sets=(
                    "scheme=e2e",
                    f"socket_buffer_bytes={buffer_bytes}",
                    f"error_every_bytes={published.BALAKRISHNAN97_ERROR_EVERY_BYTES}",
                ),
                unit="mbps",
                published=cell.throughput_mbps if cell else None,
            )
        )
    return experiments


def _table2() -> list[ThroughputExperiment]:
    return _paper_table("table2", published.BALAKRISHNAN97_TABLE_II)


def _table3() -> list[ThroughputExperiment]:
    """Table III on its own scenarios (``balakrishnan97/table3-SETTING``)."""
    experiments = []
    for setting in published.SETTINGS:
        for scheme, cells in published.BALAKRISHNAN97_TABLE_III.items():
            cell = cells[setting]
            if cell is None:
                continue  # E2E-SMART ran on the LAN only
            experiments.append(
                ThroughputExperiment(
                    table="table3",
                    setting=setting,
                    scheme=scheme,
                    scenario=f"balakrishnan97/table3-{setting}",
                    sets=(f"scheme={scheme}",),
                    unit="mbps",
                    published=cell.throughput_mbps,
                )
            )
    return experiments


def _table4() -> list[ThroughputExperiment]:
    return _paper_table("table4", published.BALAKRISHNAN97_TABLE_IV)


def _table5() -> list[ThroughputExperiment]:
    return [
        _lan32(
            "table5",
            f"burst-{burst}",
            scheme,
            'topology.wireless.error.model="burst"',
            f"topology.wireless.error.burst_packets={burst}",
        )
        for burst in TABLE5_BURSTS
        for scheme in TABLE5_SCHEMES
    ]


def _fig12() -> list[ThroughputExperiment]:
    return [
        _lan32("fig12", f"every-{kb}k", scheme, f"error_every_bytes={kb * 1024}")
        for kb in FIG12_ERROR_EVERY_KB
        for scheme in FIG12_SCHEMES
    ]


def _ll_latency() -> list[ThroughputExperiment]:
    return [
        ThroughputExperiment(
            table="ll-latency",
            setting=f"latency-{us}us",
            scheme="ll",
            scenario="balakrishnan97/wan",
            sets=(
                "scheme=ll",
                "socket_buffer_bytes=32768",
                f"flows.0.tcp.base_station_processing_us={us}",
            ),
            unit="mbps",
            published=None,
        )
        for us in LL_LATENCY_US
    ]


PARTS: Final[dict[str, Callable[[], list[ThroughputExperiment]]]] = {
    "table2": _table2,
    "table3": _table3,
    "table4": _table4,
    "table5": _table5,
    "fig12": _fig12,
    "ll-latency": _ll_latency,
}
"""The parts of ``balakrishnan97`` that ``--only`` picks (the cells' ``table`` field; the
registry reads their names from ``paper.json``)."""


def experiments(selection: str, only: str | None = None) -> list[ThroughputExperiment]:
    """The cells of ``selection`` (``only``: one of :data:`PARTS` of ``balakrishnan97``),
    in the order printed."""
    if only is not None:
        return PARTS[only]()
    if selection == "balakrishnan97-baseline":
        return _baseline()
    if selection == "balakrishnan97-table3":
        return _table3()
    return _peaks() + _table2() + _table3() + _table4() + _table5() + _fig12() + _ll_latency()
