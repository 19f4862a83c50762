"""Shared test helpers: scenarios to edit, and the command line run as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A general-form scenario (nodes and links rather than a named template): the smallest
# valid scenario, edited by the error tests into invalid ones.
GENERAL_TOML = """\
name = "general"

[[nodes]]
name = "a"

[[nodes]]
name = "b"

[[links]]
name = "l"
a = "a"
b = "b"
bandwidth_bps = 1e6
delay_ms = 1.0

[[flows]]
name = "f"
from = "a"
to = "b"
bytes = 100000

[flows.tcp]
variant = "reno"
"""

GENERAL_DICT = {
    "name": "general",
    "nodes": [{"name": "a"}, {"name": "b"}],
    "links": [{"name": "l", "a": "a", "b": "b", "bandwidth_bps": 1e6, "delay_ms": 1.0}],
    "flows": [{"name": "f", "from": "a", "to": "b", "bytes": 100000, "tcp": {"variant": "reno"}}],
}


# A run of the 1997 LAN that lasts half a minute or more (64 GiB): one to interrupt.
LONG_LAN_RUN = (
    "run",
    "balakrishnan97/lan",
    "--set",
    f"flows.0.bytes={64 * 2**30}",
    "--set",
    "stop_s=10000000",
    "--format",
    "json",
)


def lasthop_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python -m lasthop ARGS`` with its stdout, stderr and exit code."""
    return subprocess.run(
        [sys.executable, "-m", "lasthop", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
