"""Figures and reports drawn from stored runs (issue 5): ``lasthop plot`` for each kind of
the papers' figures, ``lasthop report`` and ``lasthop reproduce --report``."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pytest
from helpers import lasthop_cli
from matplotlib.lines import Line2D

import lasthop
from lasthop import plots
from lasthop.papers.balakrishnan97 import report

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
    # One table row per (error rate, scheme) of the lossy runs, named as the plan names it.
    assert html.count("<td>e2e-smart</td>") == 2
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
# group; a parameter one plan does not sweep is not a group of its own ("nan"). (The
# buffers plan sets one socket buffer: two would be averaged within its bars, which a
# figure refuses since issue 29 item 5; tests/test_flows.py checks that.)
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
socket_buffer_bytes = [32768]
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
    assert rows == [tuple(bar.split(":")) for bar in bars]
    assert "<dd>buffers (2 ok runs), rates (6 ok runs)</dd>" in html
    assert "<dd>8 ok runs, seeds 1..1</dd>" in html


# Issue 10, item 6: Figs. 4 and 5 draw the base station's local retransmissions from the
# run's `local_rexmits` table (time_ns, flow, seq, len, node, timer) when the engine
# records it, and say so in the caption when it does not.


def _local_rexmits(times_s: list[float], timer: list[bool], flow: int = 0) -> pa.Table:
    n = len(times_s)
    return pa.table(
        {
            "time_ns": pa.array([int(t * 1e9) for t in times_s], type=pa.uint64()),
            "flow": pa.array([flow] * n, type=pa.uint32()),
            "seq": pa.array([1400 * i for i in range(n)], type=pa.uint64()),
            "len": pa.array([1400] * n, type=pa.uint32()),
            "node": pa.array([1] * n, type=pa.uint16()),
            "timer": pa.array(timer, type=pa.bool_()),
        }
    )


@pytest.fixture(scope="module")
def short_run() -> lasthop.RunResult:
    return lasthop.run(
        "balakrishnan97/lan", seed=1, set=["scheme=ll-tcp-aware", "flows.0.bytes=524288"]
    )


def test_fig5_draws_a_row_of_local_retransmissions(short_run: lasthop.RunResult) -> None:
    local = _local_rexmits([0.5, 1.0, 1.5, 2.0], [False, True, False, False])
    other_flow = _local_rexmits([0.7], [True], flow=3)  # another connection: not drawn
    fig = plots.time_sequence(
        {"LL-TCP-AWARE": short_run.sent},
        {"LL-TCP-AWARE": short_run.events},
        local_rexmits={"LL-TCP-AWARE": pa.concat_tables([local, other_flow])},
    )
    ax = fig.axes[0]
    lines = {line.get_gid(): line for line in ax.get_lines()}
    dupack, timer = lines["local_dupack:LL-TCP-AWARE"], lines["local_timer:LL-TCP-AWARE"]
    assert list(dupack.get_xdata()) == [0.5, 1.5, 2.0]
    assert list(timer.get_xdata()) == [1.0]
    # A row of its own, under the data and above the timeouts.
    row = float(dupack.get_ydata()[0])
    assert row == float(timer.get_ydata()[0])
    assert lines["timeout:LL-TCP-AWARE"] is not None
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "local retransmit, duplicate ack (3, lower row)" in labels
    assert "local retransmit, local timer (1, lower row)" in labels
    svg = plots.to_bytes(fig, "svg").decode()
    assert 'id="local_dupack:LL-TCP-AWARE"' in svg and 'id="local_timer:LL-TCP-AWARE"' in svg
    # Without the table the figure has no such row.
    plain = plots.time_sequence({"LL-TCP-AWARE": short_run.sent})
    assert not [g for g in map(Line2D.get_gid, plain.axes[0].get_lines()) if "local" in str(g)]


def test_figs_4_5_draw_the_base_stations_local_retransmissions() -> None:
    fig4, fig5 = report._link_layer_trace_figures(1)
    assert (fig4.paper_figure, fig5.paper_figure) == (4, 5)
    assert "lower row of marks shows the base station's local retransmissions" in fig5.caption
    # The runs' own local_rexmits traces: snoop retransmits on duplicate acks in both.
    gids = {line.get_gid(): line for ax in fig5.figure.axes for line in ax.get_lines()}
    for name in ("LL-TCP-AWARE", "LL"):
        assert len(gids[f"local_dupack:{name}"].get_xdata()) > 0


def test_figs_10_11_draw_both_connections_of_split() -> None:
    fig10, fig11 = report._split_trace_figures(1)
    assert (fig10.paper_figure, fig11.paper_figure) == (10, 11)
    wired, wireless = fig11.figure.axes[:2]
    assert "wired connection" in wired.get_title(loc="left")
    assert "wireless connection" in wireless.get_title(loc="left")
    # The wired sender never sees a loss: its window only grows; the wireless one's falls.
    wired_cwnd = [line for line in wired.get_lines() if str(line.get_gid()).startswith("cwnd")]
    values = list(wired_cwnd[0].get_ydata())
    assert values == sorted(values)
    seq_wired, seq_wireless = fig10.figure.axes[:2]
    gids = {str(line.get_gid()): line for line in seq_wireless.get_lines()}
    timeouts = [g for g in gids if g.startswith("timeout:")]
    assert timeouts and len(gids[timeouts[0]].get_xdata()) > 0
    wired_gids = {str(line.get_gid()): line for line in seq_wired.get_lines()}
    assert all(
        len(line.get_xdata()) == 0
        for g, line in wired_gids.items()
        if g.startswith(("timeout:", "fast_retransmit:", "retransmit:"))
    )
