"""The results store: one DuckDB database of runs and Parquet files of their time series.

Layout (default ``./lasthop-results/``; any ``*.duckdb`` path works, and several stores
may share a folder)::

    lasthop-results/
      lasthop.duckdb                 runs (one row per run, with its flows' aggregates),
                                     flows (one row per flow per run), links (one row per
                                     link direction per run), plan_runs (which plan asked
                                     for which run), batches (the series files it wrote)
                                     and meta (the schema version)
      lasthop.duckdb.series/         the store's own folder, named after its database
        writer.lock                  held by the one process writing (a sweep)
        gate.lock                    held by that writer during each of its transactions
        <table>/<batch>.parquet      time series of the runs stored in one batch, one file
                                     per trace table (window, sent, acks, events, drops)

A run is keyed by ``(scenario_hash, seed, version)``: the hash of the scenario text and its
overrides (:func:`scenario_hash`), the seed and the lasthop version that ran it. The same
key is never stored twice (primary key), and a sweep skips keys already stored, whichever
plan stored them: ``plan_runs`` records every run a plan asked for, so a plan sees its
runs whoever ran them first (``runs.plan`` is the plan that stored the run).

Crash safety (a sweep may be killed at any instant, even with SIGKILL):

1. a batch's id is recorded in ``batches`` before any of its files exists (the
   transaction that stores one batch records the id of the next);
2. the batch's Parquet files are written under temporary names and renamed into place;
3. then the batch's rows are inserted in one DuckDB transaction, which names the batch.

DuckDB's write-ahead log makes the transaction all or nothing. A kill between 1 and 3
leaves files of a batch that no run names: readers only ever read the batches that stored
runs name, and the next writer deletes those files when it opens the store. A store
deletes nothing else: only ``<table>/<batch>.parquet`` and ``<table>/.<batch>.parquet.tmp``
in its own folder, for batch ids its own ``batches`` table holds. So a run is either
stored with all of its series or not stored at all, and running the sweep again completes
it.

One process writes at a time (``writer.lock``); readers may read while it writes. The
writer opens the database only for its short transactions (a few tens of milliseconds
every ``--flush-every`` seconds) and readers open it read-only for their queries, each
waiting for the other (DuckDB lets one process at a time hold a database open for
writing, and none read while it does) up to :data:`LOCK_WAIT_SECONDS`. So that readers
polling in a loop cannot starve the writer, the writer holds ``gate.lock`` while it waits
and writes, and readers wait at the gate before they open the database. A reader sees the
runs committed so far, each with all of its series.

A run has one row per flow in ``flows`` (key, ``flow_index``, the flow's name, its group
and copy index: copies of a scenario flow ``bulk`` with ``copies = 10`` are ``bulk#0`` ..
``bulk#9``, group ``bulk``, copies 0..9; a flow without copies is its own group, copy 0)
and, on its ``runs`` row, the aggregates over them: ``flows`` (how many),
``throughput_sum_mbps``, ``throughput_mean_mbps``, ``jain_index`` (Jain's fairness index
as the engine computes it, over the flows' overlapping interval; null with one flow) and
``all_completed``. The ``runs`` row's other metric columns (``flow``, ``throughput_mbps``,
``retransmits``, ...) are the first flow's, as lasthop stored them before ``flows``
existed; :func:`load_results` never shows them as they are, but per flow (``flow=``) or
aggregated (``aggregate=``, the sum by default) and labelled so.

Schema versions (``meta.schema_version``): 1 (no ``meta`` table) is every store written
before ``flows``; 2 adds ``flows`` and the aggregates. A store of version 1 is read as it
is: its flows come from each run's stored summary JSON, which has always held every flow.
The first sweep into it upgrades it in place (adds the columns, fills ``flows`` and the
aggregates from the same JSON) in one transaction.

A store written before this layout (series under ``series/`` beside the database, no
``plan_runs``) is read as it is; the first sweep into it records its plans' runs from
``runs.plan``, writes new series into the store's own folder and never deletes anything
under the old ``series/``.
"""

from __future__ import annotations

import contextlib
import fcntl
import fnmatch
import hashlib
import json
import math
import os
import re
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from lasthop import arrowbuild
from lasthop.arrowbuild import dictionary, numeric, table_from_rows
from lasthop.errors import StoreError
from lasthop.result import TABLE_NAMES, build_table

if TYPE_CHECKING:
    # pandas (0.4 s to import here) only where stored runs are read or exported: a sweep
    # stores its first run without it (issue 31, item 2).
    import pandas as pd

DEFAULT_STORE: Final = Path("lasthop-results") / "lasthop.duckdb"
"""Where the store lives unless told otherwise (relative to the working directory)."""

KEY_COLUMNS: Final = ("scenario_hash", "seed", "version")

# A flow's metrics: a row of ``flows`` each, and the first flow's on its run's row (as
# stores of schema version 1 kept them).
_FLOW_METRICS: Final[tuple[tuple[str, str], ...]] = (
    ("bytes_delivered", "UBIGINT"),
    ("transfer_time_s", "DOUBLE"),
    ("retransmits", "UBIGINT"),
    ("timeouts", "UBIGINT"),
    ("spurious_timeouts", "UBIGINT"),
    ("fast_retransmits", "UBIGINT"),
    ("eln_retransmits", "UBIGINT"),
    ("local_retransmits", "UBIGINT"),
    ("completed", "BOOLEAN"),
)

# The aggregates over a run's flows, on its run row (schema version 2).
_RUN_AGGREGATES: Final[tuple[tuple[str, str], ...]] = (
    ("flows", "UBIGINT"),
    ("throughput_sum_mbps", "DOUBLE"),
    ("throughput_mean_mbps", "DOUBLE"),
    ("jain_index", "DOUBLE"),
    ("all_completed", "BOOLEAN"),
)
SCHEMA_VERSION: Final = 2
"""The store schema this lasthop writes (see the module doc)."""

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
    *((name, kind, True) for name, kind in _RUN_AGGREGATES),
)
# One row per flow of each run (schema version 2).
_FLOW_COLUMNS: Final[tuple[tuple[str, str, bool], ...]] = (
    ("scenario_hash", "VARCHAR", False),
    ("seed", "UBIGINT", False),
    ("version", "VARCHAR", False),
    ("flow_index", "UBIGINT", False),
    ("flow", "VARCHAR", False),
    ("flow_group", "VARCHAR", False),
    ("flow_copy", "UBIGINT", False),
    ("throughput_mbps", "DOUBLE", True),
    *((name, kind, True) for name, kind in _FLOW_METRICS),
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
# Which plan asked for which run, with the plan's parameters of it: a run that several
# plans share is stored once (by the first) and listed by each.
_PLAN_RUN_COLUMNS: Final[tuple[tuple[str, str, bool], ...]] = (
    ("plan", "VARCHAR", False),
    ("scenario_hash", "VARCHAR", False),
    ("seed", "UBIGINT", False),
    ("version", "VARCHAR", False),
    ("params", "VARCHAR", False),
    ("position", "UBIGINT", True),
)
# The series batches this store began (see the module doc): the files it may delete.
_BATCH_COLUMNS: Final[tuple[tuple[str, str, bool], ...]] = (("batch", "VARCHAR", False),)
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
_PLAN_RUNS_DDL: Final = _ddl("plan_runs", _PLAN_RUN_COLUMNS, ("plan", *KEY_COLUMNS))
_BATCHES_DDL: Final = _ddl("batches", _BATCH_COLUMNS, ("batch",))
_FLOWS_DDL: Final = _ddl("flows", _FLOW_COLUMNS, (*KEY_COLUMNS, "flow_index"))
_META_DDL: Final = "CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)"
_FLOWS_ARROW: Final = _arrow(_FLOW_COLUMNS)
_RUNS_ARROW: Final = _arrow(_RUN_COLUMNS)
_LINKS_ARROW: Final = _arrow(_LINK_COLUMNS)
_PLAN_RUNS_ARROW: Final = _arrow(_PLAN_RUN_COLUMNS)

LOCK_WAIT_SECONDS: Final = 30.0
"""How long a reader waits for a writer's transaction to end, and a writer for readers'
queries, before giving up with a one-line error."""

_BATCH_ID: Final = re.compile(r"[0-9a-f]{32}")


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
    """The folder of the store at ``db_path``: its Parquet time series and its writer lock,
    named after the database file (``lasthop.duckdb`` -> ``lasthop.duckdb.series``), so
    that stores in one folder never share it."""
    return db_path.with_name(f"{db_path.name}.series")


def legacy_series_dir(db_path: Path) -> Path:
    """Where stores written before :func:`series_dir` kept their series (read, never
    written or cleaned)."""
    return db_path.parent / "series"


def _batch_files(directory: Path, batch: str) -> Iterator[Path]:
    """Every file a writer may have made for ``batch`` in the store folder ``directory``."""
    for name in TABLE_NAMES:
        yield directory / name / f"{batch}.parquet"
        yield directory / name / f".{batch}.parquet.tmp"


class Store:
    """The results store, open for writing by this process (one at a time).

    Holds ``writer.lock`` from open to :meth:`close`; the database itself only during
    each method's transaction, so that readers can read between them.
    """

    def __init__(self, path: str | os.PathLike[str] = DEFAULT_STORE) -> None:
        self.path = Path(path)
        self.series = series_dir(self.path)
        try:
            self.series.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"{self.path}: cannot open the results store: {_first_line(e)}") from e
        self._lock = _writer_lock(self.path, self.series / "writer.lock")
        try:
            self._gate = os.open(_gate_path(self.path), os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as e:
            os.close(self._lock)
            raise StoreError(f"{self.path}: cannot open the results store: {_first_line(e)}") from e
        try:
            self._batch = self._open()
        except BaseException:
            self.close()
            raise

    def _open(self) -> str:
        """Create or upgrade the tables, delete the files of batches that never committed
        (or whose runs were all forgotten), and reserve the id of the next batch."""
        with self._connect() as db, _transaction(db):
            had_plan_runs = _has_table(db, "plan_runs")
            new = not _has_table(db, "runs")
            version = SCHEMA_VERSION if new else _schema_version(db)
            for ddl in (_RUNS_DDL, _LINKS_DDL, _PLAN_RUNS_DDL, _BATCHES_DDL, _FLOWS_DDL, _META_DDL):
                db.execute(ddl)
            # A store written by an older lasthop gains the metric columns added since,
            # and its plans' runs as it recorded them (a new one has them: fourteen
            # statements fewer before a sweep's first result).
            if version < SCHEMA_VERSION:
                for name, kind in (*_FLOW_METRICS, *_RUN_AGGREGATES):
                    db.execute(f"ALTER TABLE runs ADD COLUMN IF NOT EXISTS {name} {kind}")
                _upgrade_flows(db)
            if new or version < SCHEMA_VERSION:
                db.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)",
                    [str(SCHEMA_VERSION)],
                )
            if not had_plan_runs and not new:
                db.execute(
                    "INSERT OR IGNORE INTO plan_runs BY NAME "
                    "SELECT plan, scenario_hash, seed, version, params FROM runs "
                    "WHERE plan IS NOT NULL"
                )
            orphans = [
                b
                for (b,) in db.execute(
                    "SELECT batch FROM batches WHERE batch NOT IN "
                    "(SELECT series_batch FROM runs WHERE series_batch IS NOT NULL)"
                ).fetchall()
            ]
            # Files first, then their ids: a kill before the commit leaves ids whose files
            # are gone, which the next open forgets.
            for batch in orphans:
                if _BATCH_ID.fullmatch(batch):
                    for f in _batch_files(self.series, batch):
                        f.unlink(missing_ok=True)
            reserved = uuid.uuid4().hex
            db.execute("DELETE FROM batches WHERE list_contains(?::VARCHAR[], batch)", [orphans])
            db.execute("INSERT INTO batches VALUES (?)", [reserved])
        return reserved

    @contextlib.contextmanager
    def _connect(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The database, for one transaction. Holding the gate keeps new readers out
        meanwhile: the writer waits only for the queries already running, never for a
        stream of readers."""
        fcntl.flock(self._gate, fcntl.LOCK_EX)
        try:
            db = _connect_waiting(self.path, read_only=False)
            try:
                yield db
            finally:
                db.close()
        finally:
            # A Ctrl-C inside may have closed the store already (closing released it).
            if self._gate >= 0:
                fcntl.flock(self._gate, fcntl.LOCK_UN)

    def close(self) -> None:
        for fd in (self._gate, self._lock):  # closing releases their locks
            if fd >= 0:
                os.close(fd)
        self._gate = self._lock = -1

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stored(self, keys: Iterable[RunKey]) -> dict[RunKey, str]:
        """Status (``ok`` / ``failed``) of those of ``keys`` already stored."""
        wanted = _keys_table([list(keys)])
        if wanted.num_rows == 0:
            return {}
        with self._connect() as db:
            return _stored(db, wanted)

    def add_to_plan(
        self, plan: str, runs: Iterable[tuple[RunKey, Mapping[str, Any]]]
    ) -> dict[RunKey, str]:
        """Record that ``plan`` asks for these runs, in this order (key and the plan's
        parameters of it), stored or not: :func:`load_results` with ``plan`` lists every
        one stored, in this order. The plan's latest record of a run wins. Returns
        :meth:`stored` of their keys, read in the same transaction (a sweep's start
        opens the database once less)."""
        items = list(runs)
        rows = [
            {"plan": plan, "scenario_hash": h, "seed": s, "version": v,
             "params": json.dumps(dict(params), sort_keys=False), "position": i}
            for i, ((h, s, v), params) in enumerate(items)
        ]  # fmt: skip
        if not rows:
            return {}
        table = table_from_rows(rows, schema=_PLAN_RUNS_ARROW)
        wanted = _keys_table([[key for key, _ in items]])
        with self._connect() as db, _transaction(db):
            db.register("new_plan_runs", table)
            db.execute("INSERT OR REPLACE INTO plan_runs BY NAME SELECT * FROM new_plan_runs")
            return _stored(db, wanted)

    def forget(self, keys: Iterable[RunKey]) -> None:
        """Delete runs (used to run failed runs again); files of a batch none of whose
        runs is left are deleted when the store is next opened for writing."""
        keys = list(keys)
        if not keys:
            return
        with self._connect() as db, _transaction(db):
            for table in ("runs", "links", "flows"):
                db.executemany(
                    f"DELETE FROM {table} WHERE scenario_hash = ? AND seed = ? AND version = ?",
                    keys,
                )

    def add(self, records: Sequence[RunRecord]) -> None:
        """Store ``records`` atomically: their series first, then all their rows in one
        transaction. Records whose key is already stored are left as they are."""
        if not records:
            return
        batch = self._write_series(records)
        runs = table_from_rows(
            [_run_row(r, batch if r.series else None) for r in records], schema=_RUNS_ARROW
        )
        links = table_from_rows(
            [row for r in records for row in _link_rows(r)], schema=_LINKS_ARROW
        )
        flows = table_from_rows(
            [row for r in records for row in _flow_rows(r.key, r.summary if r.ok else None)],
            schema=_FLOWS_ARROW,
        )
        following = uuid.uuid4().hex if batch is not None else None
        # Arrow tables in, one statement per table: DuckDB's executemany goes row by row
        # and costs milliseconds a row.
        with self._connect() as db, _transaction(db):
            db.register("new_runs", runs)
            db.register("new_links", links)
            db.register("new_flows", flows)
            db.execute("INSERT OR IGNORE INTO runs BY NAME SELECT * FROM new_runs")
            db.execute("INSERT OR IGNORE INTO links BY NAME SELECT * FROM new_links")
            db.execute("INSERT OR IGNORE INTO flows BY NAME SELECT * FROM new_flows")
            if following is not None:
                db.execute("INSERT INTO batches VALUES (?)", [following])
        if following is not None:
            self._batch = following

    def _write_series(self, records: Sequence[RunRecord]) -> str | None:
        """Write the series of ``records`` as the reserved batch; its id, or ``None``."""
        with_series = [r for r in records if r.series]
        if not with_series:
            return None
        batch = self._batch
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


def _writer_lock(db_path: Path, lock_path: Path) -> int:
    """An exclusive ``flock`` on ``lock_path`` (released when the process ends, however it
    ends), as an open file descriptor; ``StoreError`` if another process holds it."""
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as e:
        raise StoreError(f"{db_path}: cannot open the results store: {_first_line(e)}") from e
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        by = f" (pid {holder})" if holder.isdigit() else ""
        raise StoreError(
            f"{db_path}: another process{by} is writing to this store; one sweep at a "
            "time writes to a store (results, plot and report can read meanwhile)"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return fd


def _stored(db: duckdb.DuckDBPyConnection, wanted: pa.Table) -> dict[RunKey, str]:
    """Status of the runs stored among the keys ``wanted`` (see :func:`_keys_table`)."""
    db.register("wanted", wanted)
    rows = db.execute(
        "SELECT r.scenario_hash, r.seed, r.version, r.status FROM runs r "
        "JOIN wanted w USING (scenario_hash, seed, version)"
    ).fetchall()
    return {(h, int(s), v): status for h, s, v, status in rows}


@contextlib.contextmanager
def _transaction(db: duckdb.DuckDBPyConnection) -> Iterator[None]:
    db.execute("BEGIN TRANSACTION")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _gate_path(db_path: Path) -> Path:
    """The file a writer locks for each of its transactions, and readers pass through."""
    return series_dir(db_path) / "gate.lock"


def _connect_waiting(db_path: Path, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    """A connection to the database at ``db_path``, waiting while another process holds
    it (DuckDB: one process may have a database open for writing, and then none may read
    it) up to :data:`LOCK_WAIT_SECONDS`. A reader first waits for the writer's
    transaction, if any, to end (see :meth:`Store._connect`)."""
    what = "read" if read_only else "write to"
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    pause = 0.002
    while True:
        if read_only:
            _pass_gate(db_path, deadline)
        try:
            return duckdb.connect(str(db_path), read_only=read_only)
        except duckdb.Error as e:
            if "Could not set lock" not in str(e):
                raise StoreError(
                    f"{db_path}: cannot {what} the results store: {_first_line(e)}"
                ) from e
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"{db_path}: cannot {what} the results store: another process held it "
                    f"for more than {LOCK_WAIT_SECONDS:g} s"
                ) from e
        time.sleep(pause)
        pause = min(0.02, pause * 2)


def _pass_gate(db_path: Path, deadline: float) -> None:
    """Wait until no writer is in a transaction (a shared lock on the gate, let go at
    once); nothing to wait for in a store no writer of this layout opened."""
    try:
        fd = os.open(_gate_path(db_path), os.O_RDONLY)
    except OSError:
        return
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise StoreError(
                        f"{db_path}: cannot read the results store: a writer held it for "
                        f"more than {LOCK_WAIT_SECONDS:g} s"
                    ) from None
                time.sleep(0.002)
    finally:
        os.close(fd)  # releases the shared lock


def _has_table(db: duckdb.DuckDBPyConnection, name: str) -> bool:
    found = db.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]
    ).fetchone()
    return bool(found and found[0])


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
        dictionary(run_index, [r.scenario_hash for r in records]),
        numeric(np.repeat(np.array([r.seed for r in records], dtype=np.uint64), counts)),
        dictionary(run_index, [r.version for r in records]),
        numeric((np.arange(int(counts.sum()), dtype=np.int64) - starts).astype(np.uint32)),
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
    row.update(_aggregates(summary if r.ok else None))
    return row


_COPY_NAME: Final = re.compile(r"(.+)#(\d+)")


def flow_group_copy(flow: Mapping[str, Any]) -> tuple[str, int]:
    """A flow's group and copy index: the summary's ``group`` and ``copy`` when it gives
    them, else read from the engine's naming of copies, ``NAME#COPY`` (a flow with
    ``copies = N`` runs as ``NAME#0`` .. ``NAME#N-1``); a flow without copies is its own
    group, copy 0. (The engine does not forbid ``#`` in a flow's own name: a lone flow
    named ``a#1`` reads as copy 1 of ``a``.)"""
    name = str(flow.get("name", ""))
    if isinstance(flow.get("group"), str) and isinstance(flow.get("copy"), int):
        return str(flow["group"]), int(flow["copy"])
    m = _COPY_NAME.fullmatch(name)
    return (m.group(1), int(m.group(2))) if m else (name, 0)


def _flow_rows(key: RunKey, summary: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The ``flows`` rows of a run from its summary (none for a failed run)."""
    rows = []
    for i, flow in enumerate((summary or {}).get("flows") or []):
        group, copy = flow_group_copy(flow)
        throughput = flow.get("throughput_bps")
        row: dict[str, Any] = {
            "scenario_hash": key[0], "seed": key[1], "version": key[2], "flow_index": i,
            "flow": str(flow.get("name", "")), "flow_group": group, "flow_copy": copy,
            "throughput_mbps": None if throughput is None else float(throughput) / 1e6,
        }  # fmt: skip
        row.update({name: flow.get(name) for name, _ in _FLOW_METRICS})
        rows.append(row)
    return rows


def _aggregates(summary: Mapping[str, Any] | None) -> dict[str, Any]:
    """A run's aggregates over its flows (see the module doc); all null for a failed run."""
    flows = (summary or {}).get("flows") or []
    rates = [float(f["throughput_bps"]) / 1e6 for f in flows if f.get("throughput_bps") is not None]
    whole = bool(flows) and len(rates) == len(flows)
    jain = (summary or {}).get("jain_index")
    return {
        "flows": len(flows) if flows else None,
        "throughput_sum_mbps": math.fsum(rates) if whole else None,
        "throughput_mean_mbps": math.fsum(rates) / len(rates) if whole else None,
        "jain_index": None if jain is None else float(jain),
        "all_completed": all(bool(f.get("completed")) for f in flows) if flows else None,
    }


def _schema_version(db: duckdb.DuckDBPyConnection) -> int:
    """The store's schema version: 1 for a store without ``meta`` (or a new, empty one)."""
    if not _has_table(db, "meta"):
        return 1
    found = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(found[0]) if found and str(found[0]).isdigit() else 1


def _upgrade_flows(db: duckdb.DuckDBPyConnection) -> None:
    """Fill ``flows`` and the runs' aggregates from the summaries of runs stored without
    them (a store of schema version 1), in the caller's transaction."""
    stored = db.execute(
        "SELECT scenario_hash, seed, version, summary FROM runs r WHERE status = 'ok' "
        "AND summary IS NOT NULL AND NOT EXISTS (SELECT 1 FROM flows f WHERE "
        "f.scenario_hash = r.scenario_hash AND f.seed = r.seed AND f.version = r.version)"
    ).fetchall()
    if not stored:
        return
    flow_rows, aggregate_rows = [], []
    for h, seed, v, text in stored:
        summary = json.loads(text)
        flow_rows += _flow_rows((h, int(seed), v), summary)
        aggregate_rows.append(
            {"scenario_hash": h, "seed": seed, "version": v} | _aggregates(summary)
        )
    db.register("old_flows", table_from_rows(flow_rows, schema=_FLOWS_ARROW))
    db.execute("INSERT OR IGNORE INTO flows BY NAME SELECT * FROM old_flows")
    schema = _arrow([*_RUN_COLUMNS[:3], *((name, kind, True) for name, kind in _RUN_AGGREGATES)])
    db.register("old_aggregates", table_from_rows(aggregate_rows, schema=schema))
    names = [name for name, _ in _RUN_AGGREGATES]
    db.execute(
        f"UPDATE runs SET {', '.join(f'{n} = a.{n}' for n in names)} FROM old_aggregates a "
        "WHERE runs.scenario_hash = a.scenario_hash AND runs.seed = a.seed "
        "AND runs.version = a.version"
    )


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


@contextlib.contextmanager
def _reading(
    path: str | os.PathLike[str] | None,
) -> Iterator[tuple[duckdb.DuckDBPyConnection, Path]]:
    """The store at ``path`` open read-only, for as short a time as the caller needs (a
    sweep writing to it waits meanwhile)."""
    db_path = Path(path) if path is not None else DEFAULT_STORE
    if not db_path.is_file():
        raise StoreError(f"{db_path}: no results store here (run `lasthop sweep` first)")
    db = _connect_waiting(db_path, read_only=True)
    try:
        db.execute("SET enable_progress_bar = false")
        yield db, db_path
    finally:
        db.close()


def load_results(
    path: str | os.PathLike[str] | None = None,
    *,
    plan: str | None = None,
    status: str | None = None,
    where: Mapping[str, Any] | None = None,
    goodput: bool = True,
    each_plan: bool = False,
    flow: str | None = None,
    aggregate: str | None = None,
) -> pd.DataFrame:
    """The stored runs as a DataFrame, one row per run (or per flow and run, with
    ``flow``), ordered by plan, then in the plan's order (grid points in order, each for
    every seed) or else by overrides and seed.

    Columns: the key (``scenario_hash``, ``seed``, ``version``), ``plan``, ``scenario``,
    one column per swept parameter (the plan's grid paths, e.g. ``scheme``), ``status``,
    ``error``, ``flow`` (what the metrics are of: a flow's name, or ``sum of 10 flows``),
    ``aggregate``, ``flows`` (the run's number of flows), the metrics
    (``throughput_mbps``, ``retransmits``, ..., ``completed``), ``jain_index``,
    ``sim_time_s``, ``events`` and, with ``goodput``, one ``goodput:<link>:<from->to>``
    column per link direction.

    The metrics of a run of several flows are, by default, the sum over its flows
    (throughput, bytes and counts summed, ``transfer_time_s`` the longest, ``completed``
    only if every flow completed); ``aggregate="mean"`` averages them over the flows
    instead, and ``aggregate="jain"`` is the sum with ``jain_index`` the figure of
    interest (plots draw it instead of throughput). ``flow`` selects one flow by name
    (``bulk#3``) or several by a glob pattern (``bulk#*``, ``*``), one row per flow and
    run with ``flow_index``, ``flow_group`` and ``flow_copy``; ``StoreError`` names the
    stored flows if none matches. A run of one flow is the same either way.

    ``plan`` keeps the runs that plan asked for, whichever plan stored them, with that
    plan's name and parameters (``StoreError`` naming the store's plans if it has no plan
    of that name); without it ``plan`` is the plan
    that stored the run, or with ``each_plan`` every plan that asked for it (one row per
    plan and run). ``status`` filters; ``where`` keeps the rows whose columns equal the
    given values (compared as text, so ``{"seed": 3}`` and ``{"socket_buffer_bytes":
    "8192"}`` both work).
    """
    import pandas as pd

    if flow is not None and aggregate is not None:
        raise StoreError("--flow and --aggregate: give one of them (a flow's rows or an aggregate)")
    if aggregate is not None and aggregate not in AGGREGATES:
        raise StoreError(f"--aggregate: expected one of {', '.join(AGGREGATES)}, got {aggregate!r}")
    conditions, args = [], []
    if status is not None:
        conditions.append("r.status = ?")
        args.append(status)
    with _reading(path) as (db, _db_path):
        if plan is not None:
            _check_plan(db, plan)
        if not _has_table(db, "plan_runs"):  # a store older than plan_runs
            source = "SELECT r.*, NULL AS _position FROM runs r"
            if plan is not None:
                conditions.append("r.plan = ?")
                args.append(plan)
        elif plan is not None or each_plan:
            # A run stored by no plan (the API's) has no plan_runs row: the left join
            # keeps it with its own columns.
            source = (
                "SELECT r.* REPLACE (coalesce(m.plan, r.plan) AS plan, "
                "coalesce(m.params, r.params) AS params), m.position AS _position "
                "FROM runs r LEFT JOIN plan_runs m USING (scenario_hash, seed, version)"
            )
            if plan is not None:
                conditions.append("m.plan = ?")
                args.append(plan)
        else:  # one row per run, in the order of the plan that stored it
            source = (
                "SELECT r.*, m.position AS _position FROM runs r LEFT JOIN plan_runs m "
                "ON m.plan = r.plan AND m.scenario_hash = r.scenario_hash "
                "AND m.seed = r.seed AND m.version = r.version"
            )
        if conditions:
            source += " WHERE " + " AND ".join(conditions)
        order = "plan, _position NULLS LAST, sets, seed, version"
        runs = db.execute(f"{source} ORDER BY {order}", args).df()
        links = db.execute(
            "SELECT scenario_hash, seed, version, link, direction, goodput FROM links"
        ).df()
        flows = _stored_flows(db, runs)
    params = pd.DataFrame(
        [json.loads(p) for p in runs["params"]], index=runs.index, dtype=object
    ).reindex(index=runs.index)
    front = [c for c in ("scenario_hash", "seed", "version", "plan", "scenario") if c in runs]
    hidden = ("params", "summary", "_position")
    rest = [c for c in runs.columns if c not in front and c not in hidden]
    params = params[[c for c in params.columns if c not in runs.columns]]
    frame = pd.concat([runs[front], params, runs[rest]], axis=1)
    frame = _flow_metrics(frame, _jain(runs), flows, flow, aggregate or "sum")
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


AGGREGATES: Final = ("sum", "mean", "jain")
"""How :func:`load_results` combines a run's flows (``aggregate=``); ``sum`` by default."""

# Summed (or averaged, with aggregate="mean") over a run's flows.
_ADDITIVE: Final = (
    "throughput_mbps", "bytes_delivered", "retransmits", "timeouts", "spurious_timeouts",
    "fast_retransmits", "eln_retransmits", "local_retransmits",
)  # fmt: skip
# The run row's first-flow and aggregate columns: load_results shows them selected.
_RUN_FLOW_COLUMNS: Final = (
    "flow", "throughput_mbps", *(n for n, _ in _FLOW_METRICS), *(n for n, _ in _RUN_AGGREGATES)
)  # fmt: skip
_METRICS_SHOWN: Final = (*_ADDITIVE, "transfer_time_s", "completed")


def _check_plan(db: duckdb.DuckDBPyConnection, plan: str) -> None:
    """``StoreError`` naming the plans the store has when it has none called ``plan``."""
    tables = ["SELECT plan FROM runs WHERE plan IS NOT NULL"]
    if _has_table(db, "plan_runs"):
        tables.append("SELECT plan FROM plan_runs")
    known = [p for (p,) in db.execute(f"{' UNION '.join(tables)} ORDER BY plan").fetchall()]
    if plan not in known:
        names = ", ".join(known) if known else "none (runs stored by no plan only)"
        raise StoreError(f"--plan {plan}: no such plan in this store (plans: {names})")


def _stored_flows(db: duckdb.DuckDBPyConnection, runs: pd.DataFrame) -> pd.DataFrame:
    """The ``flows`` rows of ``runs``; from their summaries in a store of schema version 1."""
    import pandas as pd

    columns = [name for name, _, _ in _FLOW_COLUMNS]
    if _has_table(db, "flows"):
        keys = zip(runs["scenario_hash"], runs["seed"], runs["version"], strict=True)
        # A cursor of its own: the caller's results may still be open on ``db``.
        cursor = db.cursor()
        cursor.register("selected", _keys_table([[(h, int(seed), v) for h, seed, v in keys]]))
        return cursor.execute(
            "SELECT * FROM flows SEMI JOIN selected USING (scenario_hash, seed, version) "
            "ORDER BY scenario_hash, seed, version, flow_index"
        ).df()
    rows = []
    for h, seed, v, status, text in runs[[*KEY_COLUMNS, "status", "summary"]].itertuples(
        index=False
    ):
        if status == "ok" and isinstance(text, str):
            rows += _flow_rows((h, int(seed), v), json.loads(text))
    return pd.DataFrame(rows, columns=columns)


def _jain(runs: pd.DataFrame) -> pd.Series:
    """Each run's Jain index: stored (schema 2) or from its summary (schema 1)."""
    import pandas as pd

    if "jain_index" in runs.columns:
        return pd.to_numeric(runs["jain_index"], errors="coerce")
    return pd.Series(
        [
            json.loads(t).get("jain_index") if isinstance(t, str) else None
            for t in runs.get("summary", pd.Series(None, index=runs.index))
        ],
        index=runs.index,
        dtype="float64",
    )


def _flow_metrics(
    frame: pd.DataFrame, jain: pd.Series, flows: pd.DataFrame, flow: str | None, aggregate: str
) -> pd.DataFrame:
    """``frame`` (runs) with its metric columns those of ``flow`` (one row per matching
    flow and run) or of ``aggregate`` over each run's flows (see :func:`load_results`)."""
    import pandas as pd

    keys = list(KEY_COLUMNS)
    base = frame.drop(columns=[c for c in (*_RUN_FLOW_COLUMNS, "summary") if c in frame])
    at = list(base.columns).index("error") + 1 if "error" in base.columns else len(base.columns)
    front, back = list(base.columns[:at]), list(base.columns[at:])
    base = base.assign(_run=range(len(base)), jain_index=jain.to_numpy())
    counts = flows.groupby(keys, sort=False).size().rename("flows").reset_index()
    if flow is not None:
        names = list(dict.fromkeys(flows["flow"]))
        chosen = (
            flows[flows["flow"] == flow]
            if flow in names
            else flows[[fnmatch.fnmatchcase(n, flow) for n in flows["flow"]]]
        )
        if chosen.empty:
            shown = ", ".join(names[:12]) + (
                f", ... ({len(names)} in all)" if len(names) > 12 else ""
            )
            raise StoreError(f"--flow {flow}: no stored flow matches (flows: {shown or 'none'})")
        out = base.merge(chosen, on=keys, how="inner")
        out = pd.concat([out, base[base["status"] != "ok"]], ignore_index=True)
        out = out.sort_values(["_run", "flow_index"], kind="stable")
        out["aggregate"] = None
        out = out.astype({"flow_index": "Int64", "flow_copy": "Int64"})
        labels = ["flow", "flow_index", "flow_group", "flow_copy", "aggregate"]
    else:
        grouped = flows.groupby(keys, sort=False)
        mean = aggregate == "mean"
        agg = grouped[list(_ADDITIVE)].agg("mean" if mean else "sum")
        agg["transfer_time_s"] = grouped["transfer_time_s"].agg("mean" if mean else "max")
        agg["completed"] = grouped["completed"].agg(lambda c: bool(c.fillna(False).all()))
        n = grouped.size()
        first = grouped["flow"].first()
        how = "mean" if mean else "sum"
        agg["flow"] = [
            name if k == 1 else f"{how} of {k} flows" for name, k in zip(first, n, strict=True)
        ]
        out = base.merge(agg.reset_index(), on=keys, how="left")
        out["aggregate"] = aggregate
        labels = ["flow", "aggregate"]
    out = out.merge(counts, on=keys, how="left")
    metrics = [*labels, "flows", *_METRICS_SHOWN, "jain_index"]
    return out[[*front, *metrics, *back]].reset_index(drop=True)


def _keys_table(groups: Sequence[Sequence[RunKey]]) -> pa.Table:
    """Run keys as an Arrow table to join with, each with the index of its group."""
    keys = [k for ks in groups for k in ks]
    return pa.Table.from_arrays(
        [
            arrowbuild.column([k[0] for k in keys], pa.string()),
            arrowbuild.column([k[1] for k in keys], pa.uint64()),
            arrowbuild.column([k[2] for k in keys], pa.string()),
            arrowbuild.column([i for i, ks in enumerate(groups) for _ in ks], pa.int64()),
        ],
        names=["scenario_hash", "seed", "version", "point"],
    )


def point_summaries(
    path: str | os.PathLike[str], points: Sequence[Sequence[RunKey]]
) -> list[dict[str, Any]]:
    """For each group of run keys (a sweep's grid point and its seeds): runs stored ok and
    failed, the distinct errors of its failed runs, and over its ok runs: each run's
    throughput summed over its flows (Mb/s, a list in seed order), retransmissions and
    timeouts summed over its flows (means), Jain's index (a list; runs of several flows),
    how many runs had a flow that did not complete, the flows per run, each link
    direction's goodput (mean, 0..1), and per flow (by index): its name, group and copy,
    its throughputs (a list), mean retransmissions and timeouts and runs in which it did
    not complete. Aggregate queries in DuckDB, however many runs the store holds."""
    wanted = _keys_table(points)
    with _reading(path) as (db, _db_path):
        db.register("wanted", wanted)
        runs = db.execute(
            """
            WITH counts AS (
                SELECT scenario_hash, seed, version, sum(retransmits) AS retransmits,
                       sum(timeouts) AS timeouts
                FROM flows SEMI JOIN wanted USING (scenario_hash, seed, version)
                GROUP BY ALL
            )
            SELECT w.point,
                   count(*) FILTER (WHERE r.status = 'ok') AS ok,
                   count(*) FILTER (WHERE r.status = 'failed') AS failed,
                   list(r.throughput_sum_mbps ORDER BY r.seed)
                       FILTER (WHERE r.status = 'ok' AND r.throughput_sum_mbps IS NOT NULL),
                   avg(c.retransmits) FILTER (WHERE r.status = 'ok') AS retransmits,
                   avg(c.timeouts) FILTER (WHERE r.status = 'ok') AS timeouts,
                   list(r.jain_index ORDER BY r.seed)
                       FILTER (WHERE r.status = 'ok' AND r.jain_index IS NOT NULL),
                   count(*) FILTER (WHERE r.status = 'ok' AND NOT r.all_completed),
                   max(r.flows),
                   list(DISTINCT r.error ORDER BY r.error) FILTER (WHERE r.error IS NOT NULL)
                       AS errors
            FROM wanted w JOIN runs r USING (scenario_hash, seed, version)
            LEFT JOIN counts c USING (scenario_hash, seed, version)
            GROUP BY w.point
            """
        ).fetchall()
        flows = db.execute(
            """
            SELECT w.point, f.flow_index, any_value(f.flow), any_value(f.flow_group),
                   any_value(f.flow_copy), list(f.throughput_mbps ORDER BY f.seed)
                       FILTER (WHERE f.throughput_mbps IS NOT NULL),
                   avg(f.retransmits), avg(f.timeouts), count(*) FILTER (WHERE NOT f.completed)
            FROM wanted w JOIN flows f USING (scenario_hash, seed, version)
            GROUP BY w.point, f.flow_index ORDER BY w.point, f.flow_index
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
    out: list[dict[str, Any]] = [
        {"ok": 0, "failed": 0, "throughput_mbps": [], "retransmits": None, "timeouts": None,
         "jain_index": [], "incomplete": 0, "flows": None, "per_flow": [], "goodput": {},
         "errors": []}
        for _ in points
    ]  # fmt: skip
    for point, ok, failed, mbps, rxmt, timeouts, jain, incomplete, n, errors in runs:
        out[point].update(
            ok=ok,
            failed=failed,
            throughput_mbps=list(mbps or []),
            retransmits=rxmt,
            timeouts=timeouts,
            jain_index=list(jain or []),
            incomplete=incomplete,
            flows=n,
            errors=list(errors or []),
        )
    for point, index, name, group, copy, mbps, rxmt, timeouts, incomplete in flows:
        out[point]["per_flow"].append(
            {"index": index, "name": name, "group": group, "copy": copy,
             "throughput_mbps": list(mbps or []), "retransmits": rxmt, "timeouts": timeouts,
             "incomplete": incomplete}
        )  # fmt: skip
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
    row's index within its run) in front, in run and row order. ``StoreError`` names the
    first series file that stored runs name and that is missing."""
    import pandas as pd

    if table not in TABLE_NAMES:
        raise StoreError(f"{table}: no such series (one of {', '.join(TABLE_NAMES)})")
    wanted = None if keys is None else _keys_table([list(keys)])
    # Only the runs asked for, joined in DuckDB: a store may hold millions of rows.
    only = "" if wanted is None else " SEMI JOIN wanted USING (scenario_hash, seed, version)"
    with _reading(path) as (db, db_path):
        if wanted is not None:
            db.register("wanted", wanted)
        batches = db.execute(
            f"SELECT series_batch, count(*) FROM runs{only} "
            "WHERE series_batch IS NOT NULL GROUP BY series_batch ORDER BY series_batch"
        ).fetchall()
    # The database is closed again: the files of stored runs never change, and a sweep
    # may write meanwhile.
    files = _series_files(db_path, table, batches)
    if not files:
        return pd.DataFrame(columns=list(KEY_COLUMNS))
    with duckdb.connect() as reader:
        reader.execute("SET enable_progress_bar = false")
        if wanted is not None:
            reader.register("wanted", wanted)
        return reader.execute(
            f"SELECT * FROM read_parquet(?){only} ORDER BY scenario_hash, seed, version, row",
            [[str(f) for f in files]],
        ).df()


def run_summaries(
    path: str | os.PathLike[str] | None, keys: Iterable[RunKey]
) -> dict[RunKey, dict[str, Any]]:
    """The stored summary of each run of ``keys`` (``{}`` for a failed run's)."""
    wanted = _keys_table([list(keys)])
    with _reading(path) as (db, _db_path):
        db.register("wanted", wanted)
        rows = db.execute(
            "SELECT scenario_hash, seed, version, summary FROM runs "
            "SEMI JOIN wanted USING (scenario_hash, seed, version)"
        ).fetchall()
    return {(str(h), int(s), str(v)): json.loads(summary or "{}") for h, s, v, summary in rows}


def flow_names(
    path: str | os.PathLike[str] | None, keys: Iterable[RunKey]
) -> dict[RunKey, list[str]]:
    """The names of the flows of each stored run of ``keys``, in the scenario's order: the
    ``flow`` column of its time series counts them from 0 in that order."""
    return {
        key: [str(f["name"]) for f in summary.get("flows", [])]
        for key, summary in run_summaries(path, keys).items()
    }


def _series_files(db_path: Path, table: str, batches: Sequence[tuple[str, int]]) -> list[Path]:
    """The files of ``table`` of ``batches`` (id, runs stored with it): in the store's
    folder, or where a store of the old layout kept them; ``StoreError`` naming the runs
    whose files are missing, and the first such file, if any is."""
    found: list[Path] = []
    missing: list[tuple[Path, int]] = []
    for batch, runs in batches:
        for directory in (series_dir(db_path), legacy_series_dir(db_path)):
            candidate = directory / table / f"{batch}.parquet"
            if candidate.is_file():
                found.append(candidate)
                break
        else:
            missing.append((series_dir(db_path) / table / f"{batch}.parquet", runs))
    if missing:
        raise StoreError(
            f"{db_path}: the time series of {sum(runs for _, runs in missing)} stored runs "
            f"are missing: no {missing[0][0]}"
            f"{f' nor {len(missing) - 1} more files' if len(missing) > 1 else ''} (was the "
            "store's folder moved or deleted?)"
        )
    return found


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
