"""Size bounds (issue 29 item 14): what a scenario or a plan may ask for is bounded by
default, the bound said in the one-line error with the field and the value, and lifted
by the file's own ``limits`` (a scenario's ``limits.flows``, a plan's ``[limits]``);
nothing large is built before the check. A run's table prints in time linear in its
rows.

The refusals run in a subprocess whose address space is capped at 1.5 GB and with a time
limit, so that the code before the bounds (5.7 GB for a million copies, 3.7 GB and
minutes for a 2,000 x 2,000 grid) fails them instead of taking the machine.
"""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from lasthop import _core, render, sweep
from lasthop.errors import PlanError

LAN = _core.embedded_scenarios()["balakrishnan97/lan"]
ADDRESS_SPACE = 1536 * 2**20


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def lasthop_capped(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "lasthop", *args],
            capture_output=True,
            text=True,
            timeout=60,
            preexec_fn=_capped,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"lasthop {' '.join(args)[:80]} ran for over 60 s")
    return proc, time.monotonic() - started


def test_a_million_copies_are_refused_at_once_naming_the_limit() -> None:
    proc, seconds = lasthop_capped(
        "run", "balakrishnan97/lan", "--set", "flows.0.copies=1000000", "--format", "json"
    )
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-500:]
    assert proc.stderr == (
        "lasthop: error: flows[0].copies: 1000000 copies make 1000000 flows, too many (the "
        "default limit is 100000, about 5.7 KB of memory each; set limits.flows (at most "
        "1048576) to allow more)\n"
    )
    assert seconds < 10


def test_limits_flows_lifts_and_lowers_the_bound() -> None:
    _core.validate(LAN, ["flows.0.copies=100001", "limits.flows=100001"], "lan", "toml")
    with pytest.raises(_core.ScenarioError) as lowered:
        _core.validate(LAN, ["flows.0.copies=11", "limits.flows=10"], "lan", "toml")
    assert str(lowered.value) == (
        "flows[0].copies: 11 copies make 11 flows, too many (limits.flows is 10)"
    )
    with pytest.raises(_core.ScenarioError) as beyond:
        _core.validate(LAN, ["limits.flows=2000000"], "lan", "toml")
    assert str(beyond.value) == "limits.flows: must be in 1..=1048576, got 2000000"


def test_a_hundred_thousand_nodes_load() -> None:
    """Issue 31 item 3: node ids are 32 bits. 100,002 nodes were refused while they were
    16 bits (``nodes: too many nodes: 100002 (at most 65534)``); the limit is now 2^24 - 2
    (each node keeps a 10.0.0.0/8 address in captures), far beyond what a 64 MiB scenario
    file can name, so only the engine's own tests reach it."""
    nodes = [{"name": f"n{i}"} for i in range(100_002)]
    links = [
        {"name": f"l{i}", "a": "n0", "b": f"n{i}", "bandwidth_bps": 1e6, "delay_ms": 1}
        for i in range(1, 100_002)
    ]
    flows = [{"name": "f", "from": "n1", "to": "n100001", "bytes": 1000}]
    doc = {"name": "big", "nodes": nodes, "links": links, "flows": flows}
    _core.validate(json.dumps(doc), [], "big.json", "json")


def _plan_text(grid: dict[str, list[Any]], extra: str = "") -> str:
    lines = ['scenario = "balakrishnan97/lan"', extra, "[grid]"]
    lines += [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in grid.items()]
    return "\n".join(lines) + "\n"


def test_a_grid_of_four_million_points_is_refused_before_it_is_built(tmp_path: Path) -> None:
    plan = tmp_path / "big.toml"
    grid = {"flows.0.bytes": list(range(10**5, 10**5 + 2000)), "stop_s": list(range(1, 2001))}
    plan.write_text(_plan_text(grid), encoding="utf-8")
    proc, seconds = lasthop_capped("sweep", str(plan), "--store", str(tmp_path / "s.duckdb"))
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-500:]
    assert proc.stderr == (
        "lasthop: error: grid: 2000 x 2000 make 4000000 points, too many (the default limit "
        "is 100000; set limits.points in the plan to allow more)\n"
    )
    assert seconds < 10
    assert not (tmp_path / "s.duckdb").exists()


def test_a_plan_s_limits_lift_and_lower_its_bounds() -> None:
    grid = {"scheme": ["e2e", "snoop", "e2e-newreno"], "stop_s": [5, 10]}

    def load(limits: dict[str, Any], seeds: int = 1) -> sweep.Plan:
        return sweep.plan_from_dict(
            {"scenario": "balakrishnan97/lan", "seeds": seeds, "grid": grid, "limits": limits}
        )

    assert len(load({"points": 6}).points()) == 6
    with pytest.raises(PlanError, match=r"^grid: 3 x 2 make 6 points, too many \(limits\.points"):
        load({"points": 5})
    assert len(load({"runs": 60}, seeds=10).seeds) == 10
    with pytest.raises(PlanError) as runs:
        load({"runs": 59}, seeds=10)
    assert str(runs.value) == (
        "seeds: 6 grid points x 10 seeds make 60 runs, too many (limits.runs is 59)"
    )
    with pytest.raises(PlanError, match=r"^limits\.flows: unknown limit \(expected one of"):
        load({"flows": 10})
    with pytest.raises(PlanError, match=r"^limits\.points: must be a positive integer, got 0$"):
        load({"points": 0})


def _measures(rows: int) -> int:
    """Cell measurements rich makes printing a flows table of ``rows`` rows into a
    console too narrow for it (so that it is split into parts)."""
    calls = 0
    measure = Text.__rich_measure__

    def counting(self: Text, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        return measure(self, *args)

    flows = [
        {"name": f"f#{i}", "throughput_bps": 1e6 + i, "transfer_time_s": 1.5, "retransmits": i}
        for i in range(rows)
    ]
    console = Console(file=io.StringIO(), width=50, markup=False, emoji=False, highlight=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Text, "__rich_measure__", counting)
        console.print(render.flows_table(flows, "flows"))
    return calls


def test_a_long_table_is_measured_once_not_once_per_part() -> None:
    """Fitting a table to the terminal measured every cell once per candidate part (a
    20,000-flow run's table took 110 s to print, its JSON 3.4 s): the work to fit it no
    longer grows with its rows."""
    assert _measures(2000) == _measures(10)
