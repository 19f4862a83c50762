"""Figures and reports drawn from stored runs (issue 5): ``lasthop plot`` for each kind of
the papers' figures, ``lasthop report`` and ``lasthop reproduce --report``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import lasthop_cli

PLAN = """
name = "figs"
scenario = "balakrishnan97/lan"
seeds = 2
set = ["flows.0.bytes=1048576"]

[grid]
scheme = ["e2e", "e2e-smart"]
error_every_bytes = [0, 16384, 65536]
"""

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("figs")
    plan = root / "plan.toml"
    plan.write_text(PLAN, encoding="utf-8")
    db = root / "store" / "lasthop.duckdb"
    result = lasthop_cli("sweep", str(plan), "--store", str(db))
    assert result.returncode == 0, result.stderr
    return db


@pytest.mark.parametrize(
    ("kind", "extra"),
    [
        ("throughput", ["--where", "error_every_bytes=65536"]),
        ("throughput", ["--group", "error_every_bytes"]),
        ("error-rate", []),
        ("cwnd", ["--time", "0:5"]),
        ("sequence", ["--where", "scheme=e2e", "--seed", "1"]),
    ],
)
def test_plot_draws_each_kind_from_stored_runs(
    stored: Path, tmp_path: Path, kind: str, extra: list[str]
) -> None:
    stem = tmp_path / kind
    result = lasthop_cli("plot", kind, "--store", str(stored), "--out", str(stem), *extra)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [f"{stem}.png", f"{stem}.svg"]
    assert Path(f"{stem}.png").read_bytes().startswith(PNG)
    svg = Path(f"{stem}.svg").read_text(encoding="utf-8")
    assert "<svg" in svg
    # Axes carry units, as the papers' figures do.
    assert re.search(r"\((Mb/s|KB|MB|s)\)", svg) or "Mb/s" in svg


def test_plot_and_report_reject_bad_selections(stored: Path, tmp_path: Path) -> None:
    cases = [
        (["plot", "cwnd", "--out", str(tmp_path / "x"), "--where", "scheme=nope"], "no stored ok"),
        (["plot", "throughput", "--out", str(tmp_path / "x"), "--by", "colour"], "--by: no column"),
        (["plot", "cwnd", "--out", str(tmp_path / "x"), "--time", "5:1"], "--time:"),
        (["plot", "cwnd", "--out", str(tmp_path / "no" / "x")], "--out: no directory"),
        # Series are kept for the first seed only (the plan's default).
        (["plot", "cwnd", "--out", str(tmp_path / "x"), "--seed", "2"], "no stored run with time"),
    ]
    for args, expected in cases:
        result = lasthop_cli(*args, "--store", str(stored))
        assert result.returncode == 2, (args, result.stderr)
        assert result.stderr.count("\n") == 1 and expected in result.stderr, result.stderr
        assert result.stdout == ""
    assert not list(tmp_path.iterdir())


def test_report_of_stored_runs_holds_tables_and_every_figure(stored: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = lasthop_cli("report", str(out), "--store", str(stored))
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    images = re.findall(r'<img src="data:image/png;base64,', html)
    # Bars, throughput against error rate, cwnd and time-sequence.
    assert len(images) == 4
    for stem in ("throughput", "error-rate", "cwnd", "sequence"):
        assert (out / f"{stem}.png").read_bytes().startswith(PNG)
    # One table row per (error rate, scheme) of the lossy runs.
    assert html.count("<td>E2E-SMART</td>") == 2
    assert "http://" not in html and "https://" not in html


def test_reproduce_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "repro"
    result = lasthop_cli(
        "reproduce", "balakrishnan97-table3", "--seeds", "1", "--report", str(out), "--format",
        "json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.lstrip().startswith('{\n  "cells": [')
    assert "report written to" in result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert html.count('<img src="data:image/png;base64,') == 4  # Figs. 6, 7, 8, 12


# Issue 9: two plans with different grids in one store. Each plan's bars are its own
# group; a parameter one plan does not sweep is not a group of its own ("nan").
MIXED_A = """
name = "rates"
scenario = "balakrishnan97/lan"
seeds = 1
set = ["flows.0.bytes=262144"]

[grid]
scheme = ["e2e", "e2e-smart"]
error_every_bytes = [0, 16384, 65536]
"""
MIXED_B = """
name = "buffers"
scenario = "balakrishnan97/lan"
seeds = 1
set = ["flows.0.bytes=262144"]

[grid]
scheme = ["e2e", "e2e-newreno"]
socket_buffer_bytes = [8192, 32768]
"""


def test_report_over_plans_with_different_grids_shows_each_plan(tmp_path: Path) -> None:
    db = tmp_path / "store" / "lasthop.duckdb"
    for name, text in (("a", MIXED_A), ("b", MIXED_B)):
        plan = tmp_path / f"{name}.toml"
        plan.write_text(text, encoding="utf-8")
        result = lasthop_cli("sweep", str(plan), "--store", str(db))
        assert result.returncode == 0, result.stderr
    out = tmp_path / "report"
    result = lasthop_cli("report", str(out), "--store", str(db))
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    bars = re.findall(r'id="bar:([^"]*)"', (out / "throughput.svg").read_text(encoding="utf-8"))
    # Plans by name, each in its grid's order.
    assert bars == [
        "buffers:e2e", "buffers:e2e-newreno", "rates, 16384:e2e", "rates, 16384:e2e-smart",
        "rates, 65536:e2e", "rates, 65536:e2e-smart",
    ]  # fmt: skip
    # No "nan" in the text or any figure (matplotlib writes each label into its SVG).
    nan = re.compile(r"\bnan\b", re.IGNORECASE)
    assert not nan.search(re.sub(r'"data:[^"]*"', "", html))
    for svg in out.glob("*.svg"):
        assert not nan.search(svg.read_text(encoding="utf-8")), svg.name
    # Every plan in the table, a row per bar; the header counts the same runs.
    table = html[html.index("<tbody>") : html.index("</tbody>")]
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td>", table)
    assert rows == [
        tuple(b.upper() if i else b for i, b in enumerate(bar.split(":"))) for bar in bars
    ]
    assert "<dd>buffers (4 ok runs), rates (6 ok runs)</dd>" in html
    assert "<dd>10 ok runs, seeds 1..1</dd>" in html
