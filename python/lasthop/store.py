"""The results store: one DuckDB database of runs and Parquet files of their time series.

Layout (default ``./lasthop-results/``; any ``*.duckdb`` path works)::

    lasthop-results/
      lasthop.duckdb                 runs (one row per run) and links (one row per link
                                     direction per run)
      series/<table>/<batch>.parquet time series of the runs stored in one batch, one file
                                     per trace table (window, sent, acks, events, drops)

A run is keyed by ``(scenario_hash, seed, version)``: the hash of the scenario text and its
overrides (:func:`scenario_hash`), the seed and the lasthop version that ran it. The same
key is never stored twice (primary key), and a sweep skips keys already stored.

Crash safety (a sweep may be killed at any instant, even with SIGKILL):

1. a batch's Parquet files are written under temporary names and renamed into place;
2. then the batch's rows are inserted in one DuckDB transaction, which names the batch.

DuckDB's write-ahead log makes the transaction all or nothing. A kill between 1 and 2
leaves Parquet files that no run names: readers only ever read the batches that stored
runs name, and the next writer deletes the orphans when it opens the store. So a run is
either stored with all of its series or not stored at all, and running the sweep again
completes it.

Only one process may write at a time (DuckDB locks the database file); readers open it
read-only.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from lasthop.errors import StoreError
from lasthop.result import TABLE_NAMES, build_table

DEFAULT_STORE: Final = Path("lasthop-results") / "lasthop.duckdb"
"""Where the store lives unless told otherwise (relative to the working directory)."""

KEY_COLUMNS: Final = ("scenario_hash", "seed", "version")

# Flow metrics of the first flow, kept as columns (the summary JSON has every flow).
_FLOW_METRICS: Final[tuple[tuple[str, str], ...]] = (
    ("bytes_delivered", "UBIGINT"),
    ("transfer_time_s", "DOUBLE"),
    ("retransmits", "UBIGINT"),
    ("timeouts", "UBIGINT"),
    ("fast_retransmits", "UBIGINT"),
    ("eln_retransmits", "UBIGINT"),
    ("local_retransmits", "UBIGINT"),
    ("completed", "BOOLEAN"),
)

# Each table's columns, once: (name, DuckDB type, nullable). The DDL and the Arrow
# schema that batches are inserted with are both derived from them.
_RUN_COLUMNS: Final[tuple[tuple[str, str, bool], ...]] = (
    ("scenario_hash", "VARCHAR", False),
    ("seed", "UBIGINT", False),
    ("version", "VARCHAR", False),
    ("plan", "VARCHAR", True),
    ("scenario", "VARCHAR", False),
    ("params", "VARCHAR", False),
    ("sets", "VARCHAR", False),
    ("status", "VARCHAR", False),
    ("error", "VARCHAR", True),
    ("flow", "VARCHAR", True),
    ("throughput_mbps", "DOUBLE", True),
    *((name, kind, True) for name, kind in _FLOW_METRICS),
    ("sim_time_s", "DOUBLE", True),
    ("events", "UBIGINT", True),
    ("summary", "VARCHAR", True),
    ("series_batch", "VARCHAR", True),
)
_LINK_METRICS: Final = ("goodput", "drops_error", "drops_queue", "packets_sent", "bytes_sent")
_LINK_COLUMNS: Final[tuple[tuple[str, str, bool], ...]] = (
    ("scenario_hash", "VARCHAR", False),
    ("seed", "UBIGINT", False),
    ("version", "VARCHAR", False),
    ("link", "VARCHAR", False),
    ("direction", "VARCHAR", False),
    ("goodput", "DOUBLE", True),
    *((name, "UBIGINT", True) for name in _LINK_METRICS[1:]),
)
_ARROW_TYPES: Final = {
    "VARCHAR": pa.string(),
    "UBIGINT": pa.uint64(),
    "DOUBLE": pa.float64(),
    "BOOLEAN": pa.bool_(),
}


def _ddl(table: str, columns: Sequence[tuple[str, str, bool]], key: Sequence[str]) -> str:
    lines = [f"{name} {kind}{'' if nullable else ' NOT NULL'}" for name, kind, nullable in columns]
    lines.append(f"PRIMARY KEY ({', '.join(key)})")
    return f"CREATE TABLE IF NOT EXISTS {table} (\n    " + ",\n    ".join(lines) + "\n)"


def _arrow(columns: Sequence[tuple[str, str, bool]]) -> pa.Schema:
    return pa.schema([(name, _ARROW_TYPES[kind]) for name, kind, _ in columns])


_RUNS_DDL: Final = _ddl("runs", _RUN_COLUMNS, KEY_COLUMNS)
_LINKS_DDL: Final = _ddl("links", _LINK_COLUMNS, (*KEY_COLUMNS, "link", "direction"))
_RUNS_ARROW: Final = _arrow(_RUN_COLUMNS)
_LINKS_ARROW: Final = _arrow(_LINK_COLUMNS)


def scenario_hash(text: str, fmt: str, sets: Sequence[str]) -> str:
    """The key of a scenario as run: SHA-256 of its text, format and overrides in order
    (order matters: a later override wins). Any change to the scenario file or to the
    overrides gives a new key; the lasthop version is a separate part of a run's key."""
    canonical = json.dumps({"format": fmt, "text": text, "set": list(sets)}, sort_keys=True)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


RunKey = tuple[str, int, str]
RawTable = dict[str, tuple[str, bytes] | list[str]]


@dataclass
class RunRecord:
    """One finished run, as the store keeps it."""

    scenario_hash: str
    seed: int
    version: str
    plan: str | None
    scenario: str
    params: Mapping[str, Any]
    sets: Sequence[str]
    ok: bool
    summary: Mapping[str, Any] | None = None
    error: str | None = None
    # Trace tables by name, as the core hands them over (column -> (numpy dtype, raw
    # little-endian bytes) or list of strings); empty when series were not kept. Raw
    # columns cross the process boundary at the cost of a memcpy; the store joins a
    # batch's runs column by column and builds Arrow arrays once per batch.
    series: Mapping[str, RawTable] = field(default_factory=dict)

    @property
    def key(self) -> RunKey:
        return (self.scenario_hash, self.seed, self.version)


def series_dir(db_path: Path) -> Path:
    """Where the Parquet time series of the store at ``db_path`` live."""
    return db_path.parent / "series"


class Store:
    """The results store, open for writing (one process at a time)."""

    def __init__(self, path: str | os.PathLike[str] = DEFAULT_STORE) -> None:
        self.path = Path(path)
        self.series = series_dir(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = duckdb.connect(str(self.path))
        except (OSError, duckdb.Error) as e:
            raise StoreError(f"{self.path}: cannot open the results store: {_first_line(e)}") from e
        self._db.execute(_RUNS_DDL)
        self._db.execute(_LINKS_DDL)
        # A store written by an older lasthop gains the metric columns added since.
        for name, kind in _FLOW_METRICS:
            self._db.execute(f"ALTER TABLE runs ADD COLUMN IF NOT EXISTS {name} {kind}")
        self._remove_orphans()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stored(self, keys: Iterable[RunKey]) -> dict[RunKey, str]:
        """Status (``ok`` / ``failed``) of those of ``keys`` already stored."""
        wanted = _keys_table([list(keys)])
        if wanted.num_rows == 0:
            return {}
        self._db.register("wanted", wanted)
        try:
            rows = self._db.execute(
                "SELECT r.scenario_hash, r.seed, r.version, r.status FROM runs r "
                "JOIN wanted w USING (scenario_hash, seed, version)"
            ).fetchall()
        finally:
            self._db.unregister("wanted")
        return {(h, int(s), v): status for h, s, v, status in rows}

    def forget(self, keys: Iterable[RunKey]) -> None:
        """Delete runs (used to run failed runs again); their series files stay until no
        run names their batch, then the next open removes them."""
        keys = list(keys)
        if not keys:
            return
        self._db.execute("BEGIN TRANSACTION")
        try:
            for table in ("runs", "links"):
                self._db.executemany(
                    f"DELETE FROM {table} WHERE scenario_hash = ? AND seed = ? AND version = ?",
                    keys,
                )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def add(self, records: Sequence[RunRecord]) -> None:
        """Store ``records`` atomically: their series first, then all their rows in one
        transaction. Records whose key is already stored are left as they are."""
        if not records:
            return
        batch = self._write_series(records)
        runs = pa.Table.from_pylist(
            [_run_row(r, batch if r.series else None) for r in records], schema=_RUNS_ARROW
        )
        links = pa.Table.from_pylist(
            [row for r in records for row in _link_rows(r)], schema=_LINKS_ARROW
        )
        # Arrow tables in, one statement per table: DuckDB's executemany goes row by row
        # and costs milliseconds a row.
        self._db.execute("BEGIN TRANSACTION")
        try:
            self._db.register("new_runs", runs)
            self._db.register("new_links", links)
            self._db.execute("INSERT OR IGNORE INTO runs BY NAME SELECT * FROM new_runs")
            self._db.execute("INSERT OR IGNORE INTO links BY NAME SELECT * FROM new_links")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        finally:
            self._db.unregister("new_runs")
            self._db.unregister("new_links")

    def _write_series(self, records: Sequence[RunRecord]) -> str | None:
        with_series = [r for r in records if r.series]
        if not with_series:
            return None
        batch = uuid.uuid4().hex
        for name in TABLE_NAMES:
            table = _keyed_batch(name, with_series)
            directory = self.series / name
            directory.mkdir(parents=True, exist_ok=True)
            temporary = directory / f".{batch}.parquet.tmp"
            pq.write_table(
                table,
                temporary,
                compression="snappy",
                use_dictionary=[
                    c
                    for c in table.column_names
                    if pa.types.is_dictionary(table.schema.field(c).type)
                    or pa.types.is_string(table.schema.field(c).type)
                ],
            )
            os.replace(temporary, directory / f"{batch}.parquet")
        return batch

    def _remove_orphans(self) -> None:
        """Delete series files that no stored run names (a batch whose transaction never
        committed, or whose runs were forgotten) and temporary files of a killed writer."""
        if not self.series.is_dir():
            return
        named = {
            b for (b,) in self._db.execute("SELECT DISTINCT series_batch FROM runs").fetchall()
        }
        for directory in self.series.iterdir():
            if not directory.is_dir():
                continue
            for f in directory.iterdir():
                if f.name.endswith(".tmp") or (f.suffix == ".parquet" and f.stem not in named):
                    f.unlink(missing_ok=True)


def _keyed_batch(name: str, records: Sequence[RunRecord]) -> pa.Table:
    """Trace table ``name`` of every run in ``records``, one after the other, with the run
    key and the row's index within its run in front."""
    raws = [r.series[name] for r in records]
    merged: RawTable = {}
    for column, first in raws[0].items():
        parts = [raw[column] for raw in raws]
        if isinstance(first, tuple):
            merged[column] = (first[0], b"".join(p[1] for p in parts if isinstance(p, tuple)))
        else:
            merged[column] = [v for p in parts if isinstance(p, list) for v in p]
    table = build_table(name, merged)
    counts = np.array([_raw_rows(raw) for raw in raws], dtype=np.int64)
    run_index = np.repeat(np.arange(len(records), dtype=np.int32), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    keys = [
        pa.DictionaryArray.from_arrays(
            pa.array(run_index), pa.array([r.scenario_hash for r in records], pa.string())
        ),
        pa.array(np.repeat(np.array([r.seed for r in records], dtype=np.uint64), counts)),
        pa.DictionaryArray.from_arrays(
            pa.array(run_index), pa.array([r.version for r in records], pa.string())
        ),
        pa.array((np.arange(int(counts.sum()), dtype=np.int64) - starts).astype(np.uint32)),
    ]
    names = [*KEY_COLUMNS, "row", *table.column_names]
    return pa.Table.from_arrays([*keys, *table.columns], names=names)


def _raw_rows(raw: RawTable) -> int:
    """Rows of a raw table: the length of its ``time_ns`` column (every table has one)."""
    column = raw["time_ns"]
    if not isinstance(column, tuple):
        raise TypeError("time_ns must be a numeric column")
    dtype, data = column
    return len(data) // np.dtype(dtype).itemsize


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _run_row(r: RunRecord, batch: str | None) -> dict[str, Any]:
    flow: Mapping[str, Any] = {}
    summary = r.summary or {}
    if r.ok and summary.get("flows"):
        flow = summary["flows"][0]
    throughput = flow.get("throughput_bps")
    row: dict[str, Any] = {
        "scenario_hash": r.scenario_hash,
        "seed": r.seed,
        "version": r.version,
        "plan": r.plan,
        "scenario": r.scenario,
        "params": json.dumps(dict(r.params), sort_keys=False),
        "sets": json.dumps(list(r.sets)),
        "status": "ok" if r.ok else "failed",
        "error": r.error,
        "flow": flow.get("name"),
        "throughput_mbps": None if throughput is None else float(throughput) / 1e6,
    }
    row.update({name: flow.get(name) for name, _ in _FLOW_METRICS})
    row["sim_time_s"] = summary.get("sim_time_s")
    row["events"] = summary.get("events")
    row["summary"] = json.dumps(summary) if r.ok else None
    row["series_batch"] = batch
    return row


def _link_rows(r: RunRecord) -> list[dict[str, Any]]:
    if not r.ok or not r.summary:
        return []
    rows = []
    for link in r.summary.get("links", []):
        row = {"scenario_hash": r.scenario_hash, "seed": r.seed, "version": r.version}
        row["link"], row["direction"] = link["name"], link["direction"]
        row.update({c: link.get(c) for c in _LINK_METRICS})
        rows.append(row)
    return rows


# --- reading -----------------------------------------------------------------------------


def _connect_read(path: str | os.PathLike[str] | None) -> tuple[duckdb.DuckDBPyConnection, Path]:
    db_path = Path(path) if path is not None else DEFAULT_STORE
    if not db_path.is_file():
        raise StoreError(f"{db_path}: no results store here (run `lasthop sweep` first)")
    try:
        db = duckdb.connect(str(db_path), read_only=True)
        db.execute("SET enable_progress_bar = false")
        return db, db_path
    except duckdb.Error as e:
        raise StoreError(f"{db_path}: cannot read the results store: {_first_line(e)}") from e


def load_results(
    path: str | os.PathLike[str] | None = None,
    *,
    plan: str | None = None,
    status: str | None = None,
    where: Mapping[str, Any] | None = None,
    goodput: bool = True,
) -> pd.DataFrame:
    """The stored runs as a DataFrame, one row per run, ordered by plan, overrides (the
    grid's order for the values of one parameter) and seed.

    Columns: the key (``scenario_hash``, ``seed``, ``version``), ``plan``, ``scenario``,
    one column per swept parameter (the plan's grid paths, e.g. ``scheme``), ``status``,
    ``error``, the first flow's metrics (``throughput_mbps``, ``retransmits``, ...),
    ``sim_time_s``, ``events`` and, with ``goodput``, one ``goodput:<link>:<from->to>``
    column per link direction. ``plan`` and ``status`` filter; ``where`` keeps the rows
    whose columns equal the given values (compared as text, so ``{"seed": 3}`` and
    ``{"socket_buffer_bytes": "8192"}`` both work).
    """
    db, _db_path = _connect_read(path)
    try:
        runs = db.execute("SELECT * FROM runs ORDER BY plan, sets, seed, version").df()
        links = db.execute(
            "SELECT scenario_hash, seed, version, link, direction, goodput FROM links"
        ).df()
    finally:
        db.close()
    if plan is not None:
        runs = runs[runs["plan"] == plan]
    if status is not None:
        runs = runs[runs["status"] == status]
    params = pd.DataFrame(
        [json.loads(p) for p in runs["params"]], index=runs.index, dtype=object
    ).reindex(index=runs.index)
    front = [c for c in ("scenario_hash", "seed", "version", "plan", "scenario") if c in runs]
    rest = [c for c in runs.columns if c not in front and c not in ("params", "summary")]
    params = params[[c for c in params.columns if c not in runs.columns]]
    frame = pd.concat([runs[front], params, runs[rest]], axis=1)
    if goodput and not links.empty and not frame.empty:
        links["column"] = "goodput:" + links["link"] + ":" + links["direction"]
        wide = links.pivot_table(
            index=list(KEY_COLUMNS), columns="column", values="goodput", aggfunc="first"
        )
        wide.columns.name = None
        frame = frame.merge(wide.reset_index(), on=list(KEY_COLUMNS), how="left")
    for column, value in (where or {}).items():
        if column not in frame.columns:
            known = ", ".join(str(c) for c in frame.columns)
            raise StoreError(f"{column}: no such column (columns: {known})")
        frame = frame[frame[column].astype(str) == str(value)]
    return frame.reset_index(drop=True)


def _keys_table(groups: Sequence[Sequence[RunKey]]) -> pa.Table:
    """Run keys as an Arrow table to join with, each with the index of its group."""
    return pa.table(
        {
            "scenario_hash": [k[0] for ks in groups for k in ks],
            "seed": pa.array([k[1] for ks in groups for k in ks], pa.uint64()),
            "version": [k[2] for ks in groups for k in ks],
            "point": pa.array([i for i, ks in enumerate(groups) for _ in ks], pa.int64()),
        }
    )


def point_summaries(
    path: str | os.PathLike[str], points: Sequence[Sequence[RunKey]]
) -> list[dict[str, Any]]:
    """For each group of run keys (a sweep's grid point and its seeds): runs stored ok and
    failed, the means over its ok runs of the first flow's throughput (Mb/s),
    retransmissions and timeouts and of each link direction's goodput (0..1), and the
    distinct errors of its failed runs. One aggregate query in DuckDB, however many runs
    the store holds."""
    wanted = _keys_table(points)
    db, _ = _connect_read(path)
    try:
        db.register("wanted", wanted)
        runs = db.execute(
            """
            SELECT w.point,
                   count(*) FILTER (WHERE r.status = 'ok') AS ok,
                   count(*) FILTER (WHERE r.status = 'failed') AS failed,
                   avg(r.throughput_mbps) FILTER (WHERE r.status = 'ok') AS throughput_mbps,
                   avg(r.retransmits) FILTER (WHERE r.status = 'ok') AS retransmits,
                   avg(r.timeouts) FILTER (WHERE r.status = 'ok') AS timeouts,
                   list(DISTINCT r.error ORDER BY r.error) FILTER (WHERE r.error IS NOT NULL)
                       AS errors
            FROM wanted w JOIN runs r USING (scenario_hash, seed, version)
            GROUP BY w.point
            """
        ).fetchall()
        links = db.execute(
            """
            SELECT w.point, l.link || ':' || l.direction AS name,
                   CASE WHEN count(*) = count(l.goodput) THEN avg(l.goodput) END AS goodput
            FROM wanted w JOIN links l USING (scenario_hash, seed, version)
            GROUP BY w.point, name ORDER BY name
            """
        ).fetchall()
    finally:
        db.close()
    out: list[dict[str, Any]] = [
        {"ok": 0, "failed": 0, "throughput_mbps": None, "retransmits": None, "timeouts": None,
         "goodput": {}, "errors": []}
        for _ in points
    ]  # fmt: skip
    for point, ok, failed, mbps, rxmt, timeouts, errors in runs:
        out[point].update(
            ok=ok,
            failed=failed,
            throughput_mbps=mbps,
            retransmits=rxmt,
            timeouts=timeouts,
            errors=list(errors or []),
        )
    for point, name, goodput in links:
        out[point]["goodput"][name] = goodput
    return out


def load_series(
    table: str,
    path: str | os.PathLike[str] | None = None,
    *,
    keys: Iterable[RunKey] | None = None,
) -> pd.DataFrame:
    """One time-series table (``window``, ``sent``, ``acks``, ``events``, ``drops``) of
    the stored runs (all, or those of ``keys``), with the run key columns and ``row`` (the
    row's index within its run) in front, in run and row order."""
    if table not in TABLE_NAMES:
        raise StoreError(f"{table}: no such series (one of {', '.join(TABLE_NAMES)})")
    db, db_path = _connect_read(path)
    # Only the runs asked for, joined in DuckDB: a store may hold millions of rows.
    only = ""
    if keys is not None:
        db.register("wanted", _keys_table([list(keys)]))
        only = " SEMI JOIN wanted USING (scenario_hash, seed, version)"
    try:
        batches = [
            b
            for (b,) in db.execute(
                f"SELECT DISTINCT series_batch FROM runs{only} "
                "WHERE series_batch IS NOT NULL ORDER BY series_batch"
            ).fetchall()
        ]
        files = [series_dir(db_path) / table / f"{b}.parquet" for b in batches]
        files = [f for f in files if f.is_file()]
        if not files:
            return pd.DataFrame(columns=list(KEY_COLUMNS))
        frame = db.execute(
            f"SELECT * FROM read_parquet(?){only} ORDER BY scenario_hash, seed, version, row",
            [[str(f) for f in files]],
        ).df()
    finally:
        db.close()
    return frame


def write_export(frame: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write ``frame`` to ``path`` as CSV or Parquet (by suffix), atomically: a temporary
    file in the same directory renamed into place, so a failure leaves no partial file."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise StoreError(f"{target}: export format by suffix: .csv or .parquet")
    temporary = target.with_name(f".{target.name}.tmp")
    try:
        if suffix == ".csv":
            frame.to_csv(temporary, index=False)
        else:
            pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), temporary)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
