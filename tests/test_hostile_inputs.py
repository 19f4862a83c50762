"""Issue 10, item 9: inputs a new user tried that hung or crashed a run. Each now ends in
the one-line error with exit 2, or, where the input is legitimate, in a run that
finishes well within its bound."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from helpers import GENERAL_TOML, lasthop_cli
from test_cli_errors import assert_usage_error, write

BOUND_S = 20.0
"""A run of any of these inputs must end well before this (they hung past it)."""


def finishes(*args: str) -> dict[str, object]:
    """Run the CLI with ``--format json``; check it succeeds within the bound."""
    t0 = time.monotonic()
    proc = lasthop_cli(*args, "--format", "json")
    elapsed = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr
    assert elapsed < BOUND_S, elapsed
    summary: dict[str, object] = json.loads(proc.stdout)
    return summary


@pytest.mark.parametrize("value", ["1e-9", "1e-5"])
def test_a_bit_error_rate_typed_as_error_every_bytes(value: str) -> None:
    proc = lasthop_cli("run", "balakrishnan97/lan", "--set", f"error_every_bytes={value}")
    line = assert_usage_error(proc, "mean_bytes", "0.125")
    assert "not a rate" in line


def test_two_state_durations_of_a_picosecond(tmp_path: Path) -> None:
    text = GENERAL_TOML.replace(
        "delay_ms = 1.0\n",
        'delay_ms = 1.0\nerror = { model = "two_state", good_mean = 1e-12, bad_mean = 1e-12, '
        'unit = "seconds" }\n',
    )
    summary = finishes("run", write(tmp_path, "ps.toml", text))
    assert summary["events"]


def test_two_state_durations_of_1e_300_packet_times() -> None:
    args = ["run", "elaarag02/table1", "--set", "ber=1e-5"]
    for side in ("good_mean", "bad_mean"):
        args += ["--set", f"topology.wireless.ab.error.{side}=1e-300"]
    summary = finishes(*args)
    assert summary["events"]


@pytest.mark.parametrize("errors", ["0", "65536"])
@pytest.mark.parametrize("mode", ["rfc6298", "bsd"])
def test_a_minimum_rto_of_zero(mode: str, errors: str) -> None:
    summary = finishes(
        "run",
        "balakrishnan97/lan",
        "--set",
        f"flows.0.tcp.rto.mode={mode}",
        "--set",
        "flows.0.tcp.rto.min_ms=0",
        "--set",
        f"error_every_bytes={errors}",
    )
    flows = summary["flows"]
    assert isinstance(flows, list) and flows[0]["bytes_delivered"] == 8 * 2**20


def test_a_1e30_bps_link_with_zero_delay_and_a_large_transfer() -> None:
    summary = finishes(
        "run",
        "balakrishnan97/lan",
        "--set",
        "topology.wired.bandwidth_bps=1e30",
        "--set",
        "topology.wired.delay_ms=0",
        "--set",
        "error_every_bytes=0",
        "--set",
        "flows.0.bytes=200000000",
    )
    flows = summary["flows"]
    assert isinstance(flows, list) and flows[0]["bytes_delivered"] == 200_000_000


def test_a_20000_node_topology(tmp_path: Path) -> None:
    leaves = 19_999
    nodes = ", ".join(['{ name = "hub" }'] + [f'{{ name = "n{i}" }}' for i in range(leaves)])
    links = "".join(
        f'\n[[links]]\nname = "l{i}"\na = "hub"\nb = "n{i}"\nbandwidth_bps = 1e7\ndelay_ms = 1\n'
        for i in range(leaves)
    )
    text = (
        f'name = "star"\nnodes = [{nodes}]\n{links}\n[[flows]]\nname = "f"\nfrom = "n0"\n'
        'to = "n1"\nbytes = 1000000\n[flows.tcp]\nvariant = "reno"\n'
    )
    summary = finishes("run", write(tmp_path, "star.toml", text))
    flows = summary["flows"]
    assert isinstance(flows, list) and flows[0]["bytes_delivered"] == 1_000_000


@pytest.mark.parametrize("policy", ["delayed", "bsd_delayed"])
def test_an_ack_delay_of_a_nanosecond_and_below(policy: str) -> None:
    """1e-9 s (the input that panicked) is a legitimate, if odd, delay: the run
    finishes. Below the clock's nanosecond it is an error."""
    base = ["run", "balakrishnan97/lan", "--set", f"flows.0.tcp.ack.policy={policy}"]
    summary = finishes(*base, "--set", "flows.0.tcp.ack.delay_ms=1e-6")
    flows = summary["flows"]
    assert isinstance(flows, list) and flows[0]["bytes_delivered"] == 8 * 2**20
    proc = lasthop_cli(*base, "--set", "flows.0.tcp.ack.delay_ms=1e-9")
    assert_usage_error(proc, "delay_ms", "1 ns")


def test_a_small_event_budget_is_one_line() -> None:
    proc = lasthop_cli("run", "balakrishnan97/lan", "--set", "max_events=1000")
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr.startswith("lasthop: error: max_events: ")
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("setting", "named", "says"),
    [
        ("topology.wireless.ab.bandwidth_bps=-1", "topology.wireless.ab.bandwidth_bps", "-1"),
        ("topology.wireless.ab.bandwidth_bps=1e-300", "wireless.ab.bandwidth_bps", "1 b/s"),
        ("topology.wireless.ba.queue_packets=0", "topology.wireless.ba.queue_packets", "1"),
        ("topology.wireless.ab.delay_ms=1e300", "topology.wireless.ab.delay_ms", "got 1e300"),
        ("topology.wireless.ab.frame_overhead_us=-5", "wireless.ab.frame_overhead_us", "got -5"),
        ("topology.wireless.delay_ms=-2", "topology.wireless.delay_ms", "got -2"),
        ("flows.0.tcp.rto.min_ms=1e20", "tcp.rto.min_ms", "ms (the longest run), got 1e20"),
    ],
)
def test_link_directions_and_units_in_range_errors(setting: str, named: str, says: str) -> None:
    """A per-direction value is named where it was written (``ab``/``ba``), and the
    value is given back in the field's own unit, in a readable form."""
    line = assert_usage_error(lasthop_cli("run", "balakrishnan97/lan", "--set", setting), named)
    assert says in line and len(line) < 200, line


# ---- issue 29 items 12 and 13: three tracebacks and an unbounded read ----------------------


def test_a_plan_nested_5000_deep_is_one_line(tmp_path: Path) -> None:
    plan = write(
        tmp_path, "deep.toml", 'scenario = "balakrishnan97/lan"\nset = ' + "[" * 5000 + "]" * 5000
    )
    assert_usage_error(lasthop_cli("sweep", plan), "deep.toml", "nested too deeply")


def test_executor_dask_without_distributed_is_one_line(tmp_path: Path) -> None:
    """The package missing (a None in sys.modules makes its import fail, as when it is not
    installed): one line before anything runs, no traceback, nothing stored."""
    import subprocess
    import sys

    plan = write(tmp_path, "p.toml", 'scenario = "balakrishnan97/lan"\n')
    store = tmp_path / "s.duckdb"
    code = (
        "import sys, runpy; sys.modules['distributed'] = None; sys.argv = ['lasthop', 'sweep', "
        f"{plan!r}, '--store', {str(store)!r}, '--executor', 'dask', '--scheduler', "
        "'tcp://127.0.0.1:1']; runpy.run_module('lasthop', run_name='__main__')"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert_usage_error(proc, "executor", "distributed")
    assert not store.exists()


@pytest.mark.parametrize(
    "command", [["sweep", "PLAN"], ["results"], ["plot", "throughput"], ["report", "DIR"]]
)
def test_an_empty_or_directory_store_is_one_line(tmp_path: Path, command: list[str]) -> None:
    plan = write(tmp_path, "p.toml", 'scenario = "balakrishnan97/lan"\n')
    args = [{"PLAN": plan, "DIR": str(tmp_path / "r")}.get(a, a) for a in command]
    for store in ("", str(tmp_path)):
        assert_usage_error(lasthop_cli(*args, "--store", store), "--store")


@pytest.mark.parametrize("command", ["run", "sweep"])
def test_dev_zero_is_one_line_naming_the_cap(command: str) -> None:
    t0 = time.monotonic()
    proc = lasthop_cli(command, "/dev/zero", timeout=BOUND_S)
    assert time.monotonic() - t0 < BOUND_S
    assert_usage_error(proc, "/dev/zero", "64 MiB")
