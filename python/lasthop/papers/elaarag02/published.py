"""ElAarag 2002's Table I as data, with its source.

Numbers are copied from /work/shared/reference/published.md. Keys are the ``ber``
parameter of the ``elaarag02/table1`` scenario.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class ElAaragRow:
    """One column of ElAarag's Table I (one bit error rate), TCP Tahoe in ns."""

    throughput_pps: float
    """Packets per second received by the mobile host."""
    success_probability: float
    """Useful data received by the MH over data sent by the FH."""
    transfer_time_5000_s: float
    """Time to transfer 5000 packets, in seconds."""


ELAARAG02_SOURCE: Final = (
    "H. ElAarag, 'Improving TCP Performance over Mobile Networks', ACM Computing Surveys "
    "34(3):357-374, September 2002, Table I"
)

ELAARAG02_TABLE_I: Final[dict[str, ElAaragRow]] = {
    "1e-5": ElAaragRow(
        throughput_pps=39.439, success_probability=0.9892, transfer_time_5000_s=123.847
    ),
    "1e-6": ElAaragRow(
        throughput_pps=87.455, success_probability=0.999, transfer_time_5000_s=58.032
    ),
}
"""Table I by bit error rate (the ``ber`` parameter of ``elaarag02/table1``)."""
