"""``lasthop run --series DIR`` (issue 29 item 8): a single run's time series as Parquet,
one file per trace table, so that it can be plotted without Python."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers import lasthop_cli

import lasthop
from lasthop.result import TABLE_NAMES

SCENARIO = "balakrishnan97/lan"
SMALL = "flows.0.bytes=262144"


def _run(*args: str) -> tuple[int, str, str]:
    result = lasthop_cli("run", SCENARIO, "--set", SMALL, *args)
    return result.returncode, result.stdout, result.stderr


def test_series_writes_every_trace_table_with_its_seed(tmp_path: Path) -> None:
    out = tmp_path / "series"
    code, stdout, stderr = _run("--seed", "3", "--series", str(out), "--format", "json")
    assert code == 0, stderr
    assert stdout.startswith("{")  # the summary is printed as without --series
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{t}.parquet" for t in TABLE_NAMES)
    run = lasthop.run(SCENARIO, seed=3, set=[SMALL])
    for table in TABLE_NAMES:
        stored = pq.read_table(out / f"{table}.parquet")
        expected = run.table(table)
        assert stored.column_names == ["seed", *expected.column_names]
        assert stored.schema.field("seed").type == pa.uint64()
        assert stored.drop_columns(["seed"]).equals(expected), table
        assert set(stored.column("seed").to_pylist()) <= {3}
    # The traces are there: segments, acks, window changes, losses.
    for table in ("window", "sent", "acks", "events", "drops"):
        assert pq.read_metadata(out / f"{table}.parquet").num_rows > 0, table


def test_series_bytes_are_the_same_for_the_same_seed(tmp_path: Path) -> None:
    for name, seed in (("a", "1"), ("b", "1"), ("c", "2")):
        code, _, stderr = _run("--seed", seed, "--series", str(tmp_path / name))
        assert code == 0, stderr
    for table in TABLE_NAMES:
        a, b = ((tmp_path / d / f"{table}.parquet").read_bytes() for d in ("a", "b"))
        assert a == b, table
    assert (tmp_path / "a" / "sent.parquet").read_bytes() != (
        tmp_path / "c" / "sent.parquet"
    ).read_bytes()


def test_series_of_several_seeds_go_in_one_file_each(tmp_path: Path) -> None:
    out = tmp_path / "seeds"
    code, _, stderr = _run("--seeds", "2", "--series", str(out))
    assert code == 0, stderr
    for table in ("window", "sent", "events"):
        stored = pq.read_table(out / f"{table}.parquet")
        seeds = stored.column("seed").to_pylist()
        assert seeds == sorted(seeds) and set(seeds) == {1, 2}
        for seed in (1, 2):
            rows = stored.filter(pa.compute.equal(stored.column("seed"), seed))
            expected = lasthop.run(SCENARIO, seed=seed, set=[SMALL]).table(table)
            assert rows.drop_columns(["seed"]).equals(expected), (table, seed)


def test_series_into_an_existing_directory_replaces_only_the_tables(tmp_path: Path) -> None:
    out = tmp_path / "there"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "sent.parquet").write_bytes(b"old")
    code, _, stderr = _run("--series", str(out))
    assert code == 0, stderr
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert pq.read_metadata(out / "sent.parquet").num_rows > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["there"]  # no temporary left


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("file", "--series: '{dir}/file' exists and is not a directory"),
        ("missing/series", "--series: no directory '{dir}/missing'"),
        ("", "--series: must name a directory"),
    ],
)
def test_series_refuses_what_cannot_hold_it(tmp_path: Path, target: str, expected: str) -> None:
    (tmp_path / "file").write_text("keep", encoding="utf-8")
    code, stdout, stderr = _run("--series", str(tmp_path / target) if target else "")
    assert code == 2
    assert stdout == ""
    assert stderr == f"lasthop: error: {expected.format(dir=tmp_path)}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
    assert (tmp_path / "file").read_text(encoding="utf-8") == "keep"


def test_a_failed_run_writes_no_series(tmp_path: Path) -> None:
    out = tmp_path / "series"
    # Seeds 1 and 2 take 1201 and 1182 events, seed 3 1303: the third run spends its
    # budget, after two ran; nothing at all is written.
    code, stdout, stderr = _run("--seeds", "3", "--set", "max_events=1250", "--series", str(out))
    assert code == 1, stderr
    assert stdout == "" and stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
