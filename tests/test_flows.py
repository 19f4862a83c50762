"""Runs of several flows in the store, intervals and whole tables (issue 29 items 4, 5, 6
and 9): a yun09/cell run is stored as a row per flow beside its aggregates (sum, mean,
Jain's index), `results` and `plot` pick a flow or an aggregate, a figure refuses to
average a grid dimension it does not name, the sweep summary, `results` and bar plots
show 95% intervals over seeds, tables never cut a cell short and mark transfers that did
not complete, and a store written by the previous lasthop is read as it is."""

from __future__ import annotations

import gzip
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from helpers import lasthop_cli

from lasthop import figures, plots, store, sweep
from lasthop.reproduction.compare import ci95

DATA = Path(__file__).resolve().parent / "data"

# yun09/cell: ten flows bulk#0..bulk#9 (one flow with copies = 10), 2 s instead of 200 s.
CELL = """
name = "cell"
scenario = "yun09/cell"
seeds = {seeds}
set = ["stop_s=2"]
series = "none"

[grid]
protocol = ["reno", "sack"]
"""

# Two grid dimensions, two flows each run.
GRID2 = """
name = "g2"
scenario = "yun09/cell"
seeds = 2
set = ["stop_s=1", "n=2"]
series = "none"

[grid]
protocol = ["reno", "sack"]
fer = [0.01, 0.03]
"""


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cell(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with a sweep of yun09/cell: 2 protocols x 3 seeds, 10 flows a run."""
    tmp = tmp_path_factory.mktemp("cell")
    db = tmp / "lasthop.duckdb"
    sweep.sweep(sweep.load_plan(_write(tmp / "cell.toml", CELL.format(seeds=3))), db, workers=1)
    return db


def _summaries(db: Path) -> dict[tuple[str, int], dict]:
    """Each stored run's summary JSON, by (protocol, seed)."""
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT params, seed, summary FROM runs").fetchall()
    return {(json.loads(p)["protocol"], int(s)): json.loads(t) for p, s, t in rows}


def _mbps(flow: dict) -> float:
    return float(flow["throughput_bps"]) / 1e6


# --- item 4: a row per flow beside the run's aggregates ----------------------------------


def test_a_cell_run_is_stored_as_ten_flows_and_their_aggregates(cell: Path) -> None:
    with duckdb.connect(str(cell), read_only=True) as con:
        per_run = con.execute(
            "SELECT count(*), min(flow_index), max(flow_index), list(DISTINCT flow_group), "
            "list(flow_copy ORDER BY flow_index) FROM flows GROUP BY scenario_hash, seed"
        ).fetchall()
        runs = con.execute(
            "SELECT params, seed, flows, throughput_sum_mbps, throughput_mean_mbps, "
            "jain_index, all_completed FROM runs"
        ).fetchall()
        version = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert version == (str(store.SCHEMA_VERSION),)
    assert len(per_run) == 6
    assert all(r[:4] == (10, 0, 9, ["bulk"]) and r[4] == list(range(10)) for r in per_run)
    summaries = _summaries(cell)
    for params, seed, n, total, mean, jain, completed in runs:
        summary = summaries[(json.loads(params)["protocol"], int(seed))]
        rates = [_mbps(f) for f in summary["flows"]]
        assert n == 10
        assert total == pytest.approx(math.fsum(rates), rel=1e-12)
        assert mean == pytest.approx(math.fsum(rates) / 10, rel=1e-12)
        assert jain == pytest.approx(summary["jain_index"], rel=1e-12)
        assert completed is False  # 2 s of 200 s transfers


def test_results_pick_a_flow_or_an_aggregate_and_export_them(cell: Path, tmp_path: Path) -> None:
    summaries = _summaries(cell)
    one = lasthop_cli("results", "--store", str(cell), "--flow", "bulk#3", "--format", "json")
    assert one.returncode == 0, one.stderr
    rows = json.loads(one.stdout)
    assert len(rows) == 6
    for row in rows:
        flow = summaries[(row["protocol"], row["seed"])]["flows"][3]
        assert (row["flow"], row["flow_group"], row["flow_copy"]) == ("bulk#3", "bulk", 3)
        assert row["throughput_mbps"] == pytest.approx(_mbps(flow), rel=1e-9)
        assert row["retransmits"] == flow["retransmits"]

    total = lasthop_cli("results", "--store", str(cell), "--aggregate", "sum", "--format", "json")
    assert total.returncode == 0, total.stderr
    for row in json.loads(total.stdout):
        summary = summaries[(row["protocol"], row["seed"])]
        assert row["flow"] == "sum of 10 flows" and row["flows"] == 10
        assert row["throughput_mbps"] == pytest.approx(
            math.fsum(_mbps(f) for f in summary["flows"]), rel=1e-9
        )
        assert row["retransmits"] == sum(f["retransmits"] for f in summary["flows"])
        assert row["jain_index"] == pytest.approx(summary["jain_index"], rel=1e-9)
    # The default is the sum, and says so.
    default = json.loads(lasthop_cli("results", "--store", str(cell), "--format", "json").stdout)
    assert default == json.loads(total.stdout)

    out = tmp_path / "runs.csv"
    assert lasthop_cli("results", "--store", str(cell), "--export", str(out)).returncode == 0
    exported = pd.read_csv(out)
    assert list(exported["flow"]) == ["sum of 10 flows"] * 6
    assert exported["throughput_mbps"].tolist() == pytest.approx(
        [r["throughput_mbps"] for r in json.loads(total.stdout)]
    )
    assert {"flows", "jain_index", "aggregate"} <= set(exported.columns)
    every = tmp_path / "flows.parquet"
    exported_all = lasthop_cli(
        "results", "--store", str(cell), "--flow", "*", "--export", str(every)
    )
    assert exported_all.returncode == 0, exported_all.stderr
    flows = pd.read_parquet(every)
    assert len(flows) == 60 and flows.groupby(["protocol", "seed"]).size().eq(10).all()

    bad = lasthop_cli("results", "--store", str(cell), "--flow", "bulk#99")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "bulk#0, bulk#1" in bad.stderr
    both = lasthop_cli("results", "--store", str(cell), "--flow", "bulk#1", "--aggregate", "sum")
    assert both.returncode == 2 and both.stderr.count("\n") == 1


def _bar_heights(fig) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return {
        p.get_gid().split(":")[-1]: p.get_height()
        for ax in fig.axes
        for p in ax.patches
        if (p.get_gid() or "").startswith("bar:")
    }


def test_plot_draws_one_flow_or_the_aggregate(cell: Path, tmp_path: Path) -> None:
    summaries = _summaries(cell)

    def mean(protocol: str, value) -> float:  # type: ignore[no-untyped-def]
        return math.fsum(value(s) for (p, _), s in summaries.items() if p == protocol) / 3

    total = _bar_heights(figures.figure("throughput", cell, aggregate="sum")[0])
    flow = _bar_heights(figures.figure("throughput", cell, flow="bulk#7")[0])
    jain = _bar_heights(figures.figure("throughput", cell, aggregate="jain")[0])
    for protocol in ("reno", "sack"):
        assert total[protocol] == pytest.approx(
            mean(protocol, lambda s: math.fsum(_mbps(f) for f in s["flows"])), rel=1e-3
        )
        assert flow[protocol] == pytest.approx(
            mean(protocol, lambda s: _mbps(s["flows"][7])), rel=1e-3
        )
        assert jain[protocol] == pytest.approx(mean(protocol, lambda s: s["jain_index"]), rel=1e-3)
    for option in (["--aggregate", "sum"], ["--flow", "bulk#7"]):
        stem = tmp_path / option[1].replace("#", "")
        drawn = lasthop_cli("plot", "throughput", "--store", str(cell), "--out", str(stem), *option)
        assert drawn.returncode == 0, drawn.stderr
        assert stem.with_suffix(".png").stat().st_size > 10_000


# --- item 5: no silent averaging of a dimension the figure does not name ------------------


def test_by_refuses_to_average_a_grid_dimension_it_does_not_name(tmp_path: Path) -> None:
    db = tmp_path / "g2.duckdb"
    sweep.sweep(sweep.load_plan(_write(tmp_path / "g2.toml", GRID2)), db, workers=1)
    out = str(tmp_path / "fig")
    refused = lasthop_cli(
        "plot", "throughput", "--store", str(db), "--by", "protocol", "--out", out
    )
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert "--by protocol: the selection also varies fer (0.01, 0.03)" in refused.stderr
    assert not Path(f"{out}.png").exists()
    # Named, it is drawn: one group of bars per FER, or one FER.
    grouped = lasthop_cli(
        "plot", "throughput", "--store", str(db), "--by", "protocol", "--group", "fer", "--out", out
    )
    assert grouped.returncode == 0, grouped.stderr
    one = lasthop_cli(
        "plot", "throughput", "--store", str(db), "--by", "protocol", "--where", "fer=0.03",
        "--out", out,
    )  # fmt: skip
    assert one.returncode == 0, one.stderr
    # A pattern of flows is a dimension too.
    flows = lasthop_cli(
        "plot", "throughput", "--store", str(db), "--by", "protocol", "--group", "fer",
        "--flow", "bulk#*", "--out", out,
    )  # fmt: skip
    assert flows.returncode == 2 and "also varies flow (bulk#0, bulk#1)" in flows.stderr
    report = lasthop_cli("report", str(tmp_path / "rep"), "--store", str(db), "--by", "protocol")
    assert report.returncode == 2 and "also varies fer" in report.stderr
    # Asked for nothing, lasthop picks both: bars by protocol, a group per FER (the one
    # other dimension), nothing averaged.
    (fig,) = figures.figure("throughput", db)
    assert fig.axes[0].get_xlabel().startswith("fer"), fig.axes[0].get_xlabel()
    auto = lasthop_cli("report", str(tmp_path / "auto"), "--store", str(db))
    assert auto.returncode == 0, auto.stderr


# --- item 6: 95% intervals ---------------------------------------------------------------


def test_sweep_results_and_bars_show_95_percent_intervals(cell: Path, tmp_path: Path) -> None:
    summaries = _summaries(cell)
    plan = sweep.load_plan(_write(tmp_path / "cell.toml", CELL.format(seeds=3)))
    points = sweep.plan_points(cell, plan)
    for point in points:
        protocol = point["params"]["protocol"]
        sums = [
            math.fsum(_mbps(f) for f in summaries[(protocol, seed)]["flows"]) for seed in (1, 2, 3)
        ]
        mean, half = ci95(sums)
        assert half > 0
        assert point["throughput_mbps"] == pytest.approx(mean, abs=1e-4)
        assert point["throughput_ci95_mbps"] == pytest.approx(half, abs=1e-4)
        third = [_mbps(summaries[(protocol, seed)]["flows"][3]) for seed in (1, 2, 3)]
        assert point["per_flow"][3]["throughput_ci95_mbps"] == pytest.approx(
            ci95(third)[1], abs=1e-4
        )
    table = lasthop_cli("sweep", str(tmp_path / "cell.toml"), "--store", str(cell))
    assert table.returncode == 0, table.stderr
    first = points[0]
    assert f"{first['throughput_mbps']:.3f} ± {first['throughput_ci95_mbps']:.3f}" in table.stdout
    assert "mean ± 95%" in table.stdout
    listed = lasthop_cli("results", "--store", str(cell))
    assert "means over seeds" in listed.stdout
    assert f"{first['throughput_mbps']:.3f} ± {first['throughput_ci95_mbps']:.3f}" in listed.stdout

    # One seed: a mean and no interval.
    single = _write(tmp_path / "one.toml", CELL.format(seeds=1).replace('"cell"', '"one"'))
    lone = sweep.plan_points(cell, sweep.load_plan(single))
    assert all(p["throughput_ci95_mbps"] is None for p in lone)

    (fig,) = figures.figure("throughput", cell, aggregate="sum")
    bars = {
        c.get_gid(): c
        for ax in fig.axes
        for c in ax.collections
        if (c.get_gid() or "").startswith("ci95:")
    }
    assert set(bars) == {"ci95:cell:reno", "ci95:cell:sack"}
    for point in points:
        (segment,) = bars[f"ci95:cell:{point['params']['protocol']}"].get_segments()
        low, high = segment[0][1], segment[1][1]
        assert (high - low) / 2 == pytest.approx(point["throughput_ci95_mbps"], abs=2e-4)


# --- item 9: whole tables ----------------------------------------------------------------


def _cli(*args: str, columns: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lasthop", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "COLUMNS": str(columns)},
    )


@pytest.mark.parametrize("columns", [80, 140])
def test_cell_tables_fit_whole_and_mark_unfinished_transfers(
    cell: Path, tmp_path: Path, columns: int
) -> None:
    plan = _write(tmp_path / "cell.toml", CELL.format(seeds=3))
    for args in (
        ("sweep", str(plan), "--store", str(cell)),
        ("results", "--store", str(cell)),
        ("results", "--store", str(cell), "--flow", "bulk#*", "--limit", "60"),
    ):
        shown = _cli(*args, columns=columns)
        assert shown.returncode == 0, shown.stderr
        lines = shown.stdout.splitlines()
        assert max(len(line) for line in lines) <= columns
        assert "…" not in shown.stdout  # no cell cut short
        assert "did not complete" in shown.stdout  # the legend of the mark
        text = shown.stdout
        if args[0] == "sweep":
            assert "sum of 10 flows" in text and "bulk#9" in text
            assert text.count("*") >= 22  # every row of the 2 s runs is marked
        elif "--flow" in args:
            assert all(f"bulk#{i}" in text for i in range(10))
            # Six runs and two means over seeds, in every part of a table cut in parts.
            assert text.count("bulk#3") >= 6 + 2
        else:
            assert text.count("sum of 10 flows") >= 6 + 2
        assert "goodput of 42 link directions not shown" in text or "goodput of 21" in text


def test_results_of_an_unknown_plan_names_the_plans(cell: Path) -> None:
    unknown = lasthop_cli("results", "--store", str(cell), "--plan", "nope")
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert unknown.stderr == (
        "lasthop: error: --plan nope: no such plan in this store (plans: cell)\n"
    )
    plotted = lasthop_cli(
        "plot", "throughput", "--store", str(cell), "--plan", "nope", "--out", "x"
    )
    assert plotted.returncode == 2 and "(plans: cell)" in plotted.stderr


# --- a store written by the previous lasthop ---------------------------------------------


def test_a_store_written_before_flows_is_read_as_it_is_and_upgraded(tmp_path: Path) -> None:
    # Written by lasthop before this change (schema version 1): `lasthop sweep` of CELL
    # with 2 seeds and stop_s=1, runs table with the first flow's metrics only.
    db = tmp_path / "old" / "lasthop.duckdb"
    db.parent.mkdir()
    with gzip.open(DATA / "store-v1-yun09-cell.duckdb.gz") as src, db.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    with duckdb.connect(str(db), read_only=True) as con:
        tables = {
            t for (t,) in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        }
        old = con.execute("SELECT scenario_hash, seed, params, summary FROM runs").fetchall()
    assert "flows" not in tables and "meta" not in tables and len(old) == 4
    summaries = {(json.loads(p)["protocol"], int(s)): json.loads(t) for _, s, p, t in old}

    before = db.read_bytes()
    third = store.load_results(db, flow="bulk#3")
    total = store.load_results(db)
    assert db.read_bytes() == before  # read as it is
    for frame, value in ((third, lambda s: _mbps(s["flows"][3])),
                         (total, lambda s: math.fsum(_mbps(f) for f in s["flows"]))):  # fmt: skip
        assert len(frame) == 4
        for row in frame.to_dict("records"):
            summary = summaries[(row["protocol"], row["seed"])]
            assert row["throughput_mbps"] == pytest.approx(value(summary), rel=1e-12)
            assert row["jain_index"] == pytest.approx(summary["jain_index"], rel=1e-12)
    assert set(total["flow"]) == {"sum of 10 flows"}

    # A sweep into it upgrades it: the old runs get their flows and aggregates.
    plan = _write(tmp_path / "cell.toml", CELL.format(seeds=3).replace("stop_s=2", "stop_s=1"))
    sweep.sweep(sweep.load_plan(plan), db, workers=1)
    with duckdb.connect(str(db), read_only=True) as con:
        flows = con.execute(
            "SELECT r.seed, count(*), any_value(r.throughput_sum_mbps), sum(f.throughput_mbps) "
            "FROM runs r JOIN flows f USING (scenario_hash, seed, version) "
            "GROUP BY r.scenario_hash, r.seed"
        ).fetchall()
        version = con.execute("SELECT value FROM meta").fetchone()
    assert version == ("2",)
    assert len(flows) >= 6 and all(n == 10 for _, n, _, _ in flows)
    assert all(stored == pytest.approx(summed, rel=1e-12) for _, _, stored, summed in flows)
    # The old runs, upgraded, give the numbers they gave before. (The sweep's own runs
    # are new ones whenever the embedded scenario's text changed since the old store
    # was written: its hash keys a run.)
    again = store.load_results(db, flow="bulk#3", where={"seed": 1})
    again = again[again["scenario_hash"].isin({h for h, _, _, _ in old})]
    assert list(again["throughput_mbps"]) == pytest.approx(
        list(third[third["seed"] == 1]["throughput_mbps"]), rel=1e-12
    )


def test_reproduction_bars_carry_their_intervals() -> None:
    # Cells as reproduce() gives them: ci95 maps each figure to its half width.
    cells = [
        {"setting": "lan-32k", "scheme": "e2e", "throughput_mbps": 1.2,
         "ci95": {"throughput_mbps": 0.1, "wireless_goodput_pct": 2.0}},
        {"setting": "lan-32k", "scheme": "ll", "throughput_mbps": 1.5},
    ]  # fmt: skip
    fig = plots.throughput_bars(cells, {"lan-32k": 1.6})
    drawn = {
        c.get_gid(): c.get_segments()
        for ax in fig.axes
        for c in ax.collections
        if (c.get_gid() or "").startswith("ci95:")
    }
    assert list(drawn) == ["ci95:lan-32k:e2e"]
    ((_, low), (_, high)) = drawn["ci95:lan-32k:e2e"][0]
    assert (low, high) == pytest.approx((1.1, 1.3))
