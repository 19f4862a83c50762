"""``lasthop run``'s outputs for programs (issue 31 item 5): JSON compact unless
``--indent`` asks otherwise, one row per flow and seed as CSV or Parquet, and ``--out``
files that are whole or absent."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyarrow.parquet as pq
from helpers import lasthop_cli

CELL = ["run", "yun09/cell", "--set", "stop_s=1"]


def test_json_is_one_compact_line_unless_indented() -> None:
    compact = lasthop_cli(*CELL, "--format", "json")
    indented = lasthop_cli(*CELL, "--format", "json", "--indent", "2")
    assert compact.returncode == indented.returncode == 0
    assert compact.stdout.count("\n") == 1 and ", " not in compact.stdout
    assert indented.stdout.startswith('{\n  "seed": 1,\n')
    assert json.loads(compact.stdout) == json.loads(indented.stdout)
    assert len(compact.stdout) < 0.75 * len(indented.stdout)


def test_csv_and_parquet_hold_one_row_per_flow_and_seed(tmp_path: Path) -> None:
    summary = json.loads(lasthop_cli(*CELL, "--seeds", "2", "--format", "json").stdout)
    flows = [(run["seed"], flow) for run in summary["runs"] for flow in run["flows"]]
    assert len(flows) == 20  # ten flows, two seeds
    text = lasthop_cli(*CELL, "--seeds", "2", "--format", "csv")
    assert text.returncode == 0, text.stderr
    rows = list(csv.DictReader(io.StringIO(text.stdout)))
    assert list(rows[0])[:2] == ["seed", "name"]
    for row, (seed, flow) in zip(rows, flows, strict=True):
        assert (int(row["seed"]), row["name"]) == (seed, flow["name"])
        assert float(row["throughput_bps"]) == flow["throughput_bps"]
        assert row["completed"] == ("true" if flow["completed"] else "false")
    out = tmp_path / "flows.parquet"
    done = lasthop_cli(*CELL, "--seeds", "2", "--format", "parquet", "--out", str(out))
    assert (done.returncode, done.stdout) == (0, "")
    table = pq.read_table(out).to_pylist()
    assert [(r["seed"], r["name"], r["throughput_bps"]) for r in table] == [
        (seed, flow["name"], flow["throughput_bps"]) for seed, flow in flows
    ]


def test_a_failed_run_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    failed = lasthop_cli(*CELL, "--set", "max_events=1000", "--format", "json", "--out", str(out))
    assert failed.returncode != 0 and failed.stdout == ""
    assert list(tmp_path.iterdir()) == []
