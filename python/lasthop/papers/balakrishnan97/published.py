"""The published figures of Balakrishnan et al. 1997 (Tables II-IV, the peaks), as data,
with their source.

Numbers are copied from /work/shared/reference/published.md (the 1997 tables' cells are
from the published paper; our text copy of seed 000 lost them). Keys are lasthop's
names: settings ``lan-8k``, ``lan-32k``, ``wan-32k`` (testbed and socket buffer) and
schemes as the ``scheme`` parameter of the balakrishnan97 scenarios spells them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Cell:
    """One cell of Balakrishnan et al.'s Tables II-IV: "throughput (wireless, wired)"."""

    throughput_mbps: float
    """TCP throughput at the receiver, in Mb/s."""
    wireless_goodput_pct: float
    """Goodput of the wireless link (useful bytes / bytes sent on it), in percent."""
    wired_goodput_pct: float
    """Goodput of the wired link, in percent."""


BALAKRISHNAN97_SOURCE: Final = (
    "H. Balakrishnan, V. N. Padmanabhan, S. Seshan, R. H. Katz, 'A Comparison of "
    "Mechanisms for Improving TCP Performance over Wireless Links', IEEE/ACM Transactions "
    "on Networking 5(6):756-769, December 1997, Tables II-IV"
)

SETTINGS: Final = ("lan-8k", "lan-32k", "wan-32k")
"""The rows of Tables II-IV: LAN with 8 KB and 32 KB socket buffers, WAN with 32 KB."""

BALAKRISHNAN97_PEAK_MBPS: Final[dict[str, float]] = {"lan": 1.5, "wan": 1.35}
"""Peak TCP throughput without errors (Sec. IV-A), in Mb/s, by testbed."""

BALAKRISHNAN97_ERROR_EVERY_BYTES: Final = 65536
"""Mean distance between bit errors in Tables II-IV: one error every 64 KB."""

BALAKRISHNAN97_TABLE_II: Final[dict[str, dict[str, Cell | None]]] = {
    # Link-layer schemes.
    "ll": {
        "lan-8k": Cell(1.20, 95.6, 97.9),
        "lan-32k": Cell(1.20, 95.5, 97.9),
        "wan-32k": Cell(0.82, 95.5, 98.4),
    },
    "ll-tcp-aware": {
        "lan-8k": Cell(1.29, 97.6, 100.0),
        "lan-32k": Cell(1.36, 97.6, 100.0),
        "wan-32k": Cell(1.19, 97.6, 100.0),
    },
    "ll-smart": {
        "lan-8k": Cell(1.29, 96.1, 98.9),
        "lan-32k": Cell(1.29, 95.5, 98.3),
        "wan-32k": Cell(0.93, 95.3, 99.4),
    },
    "ll-smart-tcp-aware": {
        "lan-8k": Cell(1.37, 97.6, 100.0),
        "lan-32k": Cell(1.39, 97.7, 100.0),
        "wan-32k": Cell(1.22, 97.6, 100.0),
    },
}
"""Table II, link-layer schemes: scheme -> setting -> cell."""

BALAKRISHNAN97_TABLE_III: Final[dict[str, dict[str, Cell | None]]] = {
    # End-to-end schemes; "e2e" is plain TCP Reno.
    "e2e": {
        "lan-8k": Cell(0.55, 97.0, 96.0),
        "lan-32k": Cell(0.70, 97.5, 97.5),
        "wan-32k": Cell(0.31, 97.3, 97.3),
    },
    "e2e-newreno": {
        "lan-8k": Cell(0.66, 97.3, 97.3),
        "lan-32k": Cell(0.89, 97.7, 97.3),
        "wan-32k": Cell(0.64, 97.5, 97.5),
    },
    "e2e-smart": {
        "lan-8k": Cell(1.12, 97.6, 97.6),
        "lan-32k": Cell(1.25, 97.2, 97.2),
        "wan-32k": None,  # "not run" in the paper
    },
    "e2e-ietf-sack": {
        "lan-8k": Cell(0.68, 97.3, 97.3),
        "lan-32k": Cell(1.12, 97.5, 97.5),
        "wan-32k": Cell(0.80, 97.5, 97.5),
    },
    "e2e-eln": {
        "lan-8k": Cell(0.69, 97.3, 97.2),
        "lan-32k": Cell(0.93, 97.5, 97.5),
        "wan-32k": Cell(0.64, 97.6, 97.6),
    },
    "e2e-eln-rxmt": {
        "lan-8k": Cell(0.86, 97.4, 97.3),
        "lan-32k": Cell(0.95, 97.5, 97.5),
        "wan-32k": Cell(0.72, 97.4, 97.4),
    },
}
"""Table III, end-to-end schemes: scheme -> setting -> cell (``None``: not run)."""

BALAKRISHNAN97_TABLE_IV: Final[dict[str, dict[str, Cell | None]]] = {
    # Split-connection schemes (64 KB buffer at the base station).
    "split": {
        "lan-8k": Cell(0.54, 97.4, 100.0),
        "lan-32k": Cell(0.60, 97.3, 100.0),
        "wan-32k": Cell(0.58, 97.2, 100.0),
    },
    "split-smart": {
        "lan-8k": Cell(1.30, 97.6, 100.0),
        "lan-32k": Cell(1.30, 97.2, 100.0),
        "wan-32k": Cell(1.10, 97.6, 100.0),
    },
}
"""Table IV, split-connection schemes: scheme -> setting -> cell."""

BALAKRISHNAN97_TABLES: Final[dict[str, dict[str, dict[str, Cell | None]]]] = {
    "II": BALAKRISHNAN97_TABLE_II,
    "III": BALAKRISHNAN97_TABLE_III,
    "IV": BALAKRISHNAN97_TABLE_IV,
}
