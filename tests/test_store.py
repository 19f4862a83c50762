"""The results store (issue 9): it deletes only files it wrote and can prove are its own,
says in one line when stored series are missing, lists every run a plan asked for
whoever stored it, and lets readers read while a sweep writes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from helpers import lasthop_cli

from lasthop import figures, store, sweep
from lasthop.errors import StoreError

# 256 KB transfers: runs of a few milliseconds.
PLAN = """
name = "{name}"
scenario = "balakrishnan97/lan"
seeds = {seeds}
set = ["flows.0.bytes=262144"]
series = "all"

[grid]
scheme = {schemes}
"""


def _plan(tmp_path: Path, name: str, schemes: list[str], seeds: int = 2) -> Path:
    path = tmp_path / f"{name}.toml"
    text = PLAN.format(name=name, seeds=seeds, schemes=json.dumps(schemes))
    path.write_text(text, encoding="utf-8")
    return path


def _sweep(plan: Path, db: Path) -> sweep.SweepReport:
    return sweep.sweep(sweep.load_plan(plan), db, workers=1)


# --- finding 1: a store deletes only what it wrote ---------------------------------------


def test_two_stores_in_one_folder_keep_their_series(tmp_path: Path) -> None:
    p1 = _plan(tmp_path, "p1", ["e2e"])
    p2 = _plan(tmp_path, "p2", ["e2e-newreno"])
    exp1, exp2 = tmp_path / "two" / "exp1.duckdb", tmp_path / "two" / "exp2.duckdb"
    _sweep(p1, exp1)
    before = store.load_series("window", exp1)
    assert set(before["seed"]) == {1, 2}
    # Each store opened for writing again, after the other wrote: neither touches the
    # other's series.
    _sweep(p2, exp2)
    _sweep(p1, exp1)
    _sweep(p2, exp2)
    pd.testing.assert_frame_equal(store.load_series("window", exp1), before)
    assert set(store.load_series("window", exp2)["seed"]) == {1, 2}
    assert store.series_dir(exp1) != store.series_dir(exp2)


def test_foreign_files_under_the_store_folder_survive(tmp_path: Path) -> None:
    db = tmp_path / "victim" / "my-results.duckdb"
    foreign = [
        tmp_path / "victim" / "series" / "2023" / "experiment-1.parquet",
        tmp_path / "victim" / "series" / "2023" / "notes.txt.tmp",
        tmp_path / "victim" / "series" / "window" / "experiment-1.parquet",
        tmp_path / "victim" / "my-results.duckdb.series" / "window" / "notes.parquet",
        tmp_path / "victim" / "my-results.duckdb.series" / "window" / ".notes.parquet.tmp",
    ]
    for i, path in enumerate(foreign):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(f"not lasthop's {i}".encode())
    plan = _plan(tmp_path, "p", ["e2e"])
    _sweep(plan, db)
    _sweep(plan, db)  # a second open cleans up after the first
    for i, path in enumerate(foreign):
        assert path.read_bytes() == f"not lasthop's {i}".encode(), path
    assert len(store.load_series("window", db)) > 0


def test_a_batch_that_never_committed_is_removed_and_nothing_else(tmp_path: Path) -> None:
    db = tmp_path / "s" / "lasthop.duckdb"
    plan = sweep.load_plan(_plan(tmp_path, "p", ["e2e"], seeds=1))
    record = sweep.execute(sweep.plan_jobs(plan)[0])
    foreign = store.series_dir(db) / "window" / "keep-me.parquet"
    foreign.parent.mkdir(parents=True)
    foreign.write_bytes(b"mine")
    # A writer killed between writing a batch's files and committing its rows.
    writer = store.Store(db)
    batch = writer._write_series([record])
    writer.close()
    assert batch is not None
    written = [store.series_dir(db) / t / f"{batch}.parquet" for t in store.TABLE_NAMES]
    assert all(f.is_file() for f in written)
    store.Store(db).close()
    assert not any(f.exists() for f in written)
    assert foreign.read_bytes() == b"mine"


def test_missing_series_are_one_line(tmp_path: Path) -> None:
    db = tmp_path / "s" / "lasthop.duckdb"
    _sweep(_plan(tmp_path, "p", ["e2e"]), db)
    shutil.rmtree(store.series_dir(db))
    with pytest.raises(StoreError, match="time series of 2 stored runs are missing"):
        store.load_series("window", db)
    result = lasthop_cli("plot", "cwnd", "--store", str(db), "--out", str(tmp_path / "x"))
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lasthop: error: "), result.stderr
    assert "missing" in lines[0] and str(db) in lines[0]
    assert result.stdout == ""


def test_a_store_of_the_old_layout_is_read_and_extended(tmp_path: Path) -> None:
    db = tmp_path / "old" / "lasthop.duckdb"
    _sweep(_plan(tmp_path, "p", ["e2e"]), db)
    # Lay it out as lasthop did before: series under series/, no plan_runs or batches.
    store.series_dir(db).rename(db.parent / "series")
    for lock in (db.parent / "series").glob("*.lock"):
        lock.unlink()
    with duckdb.connect(str(db)) as con:
        con.execute("DROP TABLE plan_runs")
        con.execute("DROP TABLE batches")
    old = sorted((db.parent / "series").rglob("*"))
    assert len(store.load_series("window", db)) > 0
    assert len(store.load_results(db, plan="p")) == 2

    grown = _sweep(_plan(tmp_path, "p", ["e2e"], seeds=3), db)
    assert (grown.ran, grown.skipped) == (1, 2)
    assert sorted((db.parent / "series").rglob("*")) == old  # the old folder untouched
    assert set(store.load_series("window", db)["seed"]) == {1, 2, 3}
    assert list(store.load_results(db, plan="p")["seed"]) == [1, 2, 3]


# --- finding 4: a plan sees every run it asked for ----------------------------------------


def test_a_plan_lists_the_runs_another_plan_stored(tmp_path: Path) -> None:
    db = tmp_path / "s" / "lasthop.duckdb"
    a = _plan(tmp_path, "A", ["e2e", "e2e-newreno"], seeds=3)
    b = _plan(tmp_path, "B", ["e2e-newreno", "e2e-ietf-sack"], seeds=3)
    assert _sweep(a, db).ran == 6
    report = _sweep(b, db)
    assert (report.ran, report.skipped) == (3, 3)

    listed = lasthop_cli("results", "--store", str(db), "--plan", "B", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert [(r["plan"], r["scheme"], r["seed"]) for r in rows] == [
        ("B", scheme, seed) for scheme in ("e2e-newreno", "e2e-ietf-sack") for seed in (1, 2, 3)
    ]
    # plot and report select the same runs.
    assert len(figures.select(db, "B")) == 6
    # Every run is still stored once, by the plan that ran it first.
    everything = store.load_results(db)
    assert len(everything) == 9
    assert set(everything.loc[everything["scheme"] == "e2e-newreno", "plan"]) == {"A"}

    # A plan whose runs are all stored runs nothing, so it needs no scheduler (none
    # listens on port 9 here), and lists them all.
    c = _plan(tmp_path, "C", ["e2e"], seeds=2)
    done = lasthop_cli(
        "sweep", str(c), "--store", str(db), "--executor", "dask",
        "--scheduler", "tcp://127.0.0.1:9", "--format", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (json.loads(done.stdout)["ran"], json.loads(done.stdout)["skipped"]) == (0, 2)
    assert list(store.load_results(db, plan="C")["seed"]) == [1, 2]


# --- finding 6: readers read while a sweep writes -----------------------------------------


def test_results_can_be_read_while_a_sweep_writes(tmp_path: Path) -> None:
    # Long enough to outlast the reads: it is stopped once they are done.
    plan = _plan(tmp_path, "long", ["e2e", "e2e-newreno"], seeds=30000)
    db = tmp_path / "s" / "lasthop.duckdb"
    writer = subprocess.Popen(
        [sys.executable, "-m", "lasthop", "sweep", str(plan), "--store", str(db)]
        + ["--workers", "1", "--flush-every", "0.05"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        counts: list[int] = []
        cli_reads = 0
        other_writer: StoreError | None = None
        deadline = time.monotonic() + 120
        # Read until a handful of reads (in this process and by `lasthop results`) have
        # each returned while the sweep was still running, and seen it store more.
        while len(counts) < 5 or counts[-1] == counts[0] or not cli_reads or not other_writer:
            assert writer.poll() is None, f"the sweep ended first: {writer.stderr}"
            assert time.monotonic() < deadline, f"reads during the sweep: {counts}"
            if not db.is_file():
                time.sleep(0.02)
                continue
            frame = store.load_results(db)
            if len(frame) and writer.poll() is None:
                # Whatever is stored is whole: every stored run's series can be read.
                assert len(store.load_series("window", db)) > 0
                counts.append(len(frame))
            if counts and cli_reads < 1:
                listed = lasthop_cli("results", "--store", str(db), "--format", "json")
                assert listed.returncode == 0, listed.stderr
                assert len(json.loads(listed.stdout)) >= counts[-1]
                cli_reads += writer.poll() is None
            if counts and other_writer is None:
                with pytest.raises(StoreError) as refused:
                    store.Store(db)
                other_writer = refused.value
            time.sleep(0.05)
        assert counts == sorted(counts), counts
        # A second writer stops at once, naming the first.
        assert str(other_writer) == (
            f"{db}: another process (pid {writer.pid}) is writing to this store; one sweep "
            "at a time writes to a store (results, plot and report can read meanwhile)"
        )
    finally:
        writer.kill()
        writer.wait(timeout=30)
