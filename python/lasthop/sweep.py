"""Sweeps: a plan of many runs, run on all local cores or on a Dask cluster, kept in the
results store (:mod:`lasthop.store`).

A plan is a TOML file::

    name = "lan-buffers"                 # optional; default: the file's stem
    scenario = "balakrishnan97/lan"      # an embedded name, or a path relative to the plan
    seeds = 10                           # seeds 1..N, or a list such as [1, 2, 7]
    set = ["error_every_bytes=32768"]    # optional overrides applied to every run
    series = "first-seed"                # optional: whose time series to keep: "all",
                                         # "first-seed" (default) or "none"
    limits = { points = 200000 }         # optional: raise the bounds of LIMITS

    [grid]                               # every combination of these values is run
    scheme = ["e2e", "e2e-newreno"]
    socket_buffer_bytes = [8192, 32768]
    "flows.0.tcp.mss_bytes" = [536, 1400]

Grid keys are the paths ``--set`` takes (a parameter name or a field path); values are
TOML scalars. The runs are the grid's combinations, in the order the grid lists its keys
and values, times the seeds. Every combination is checked against the scenario before any
run starts: an invalid plan changes nothing.

Time series (cwnd, segments sent, acks, events, drops: about 13,000 rows per 8 MB run)
are kept by default for the first seed of each grid combination: the papers draw their
trace figures from one run, and keeping every seed's would multiply the store's size and
cost the sweep about as much time as the runs themselves. ``series = "all"`` keeps them
all. Every run's summary metrics are always kept.

A run's result does not depend on where it ran: the engine is deterministic, so the local
pool and a Dask cluster store the same values.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import os
import threading
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from lasthop import _core
from lasthop.errors import PlanError
from lasthop.reproduction.compare import ci95
from lasthop.result import TABLE_NAMES
from lasthop.scenario import ScenarioSource, check_set, load_scenario_text, read_text_file
from lasthop.store import RunKey, RunRecord, Store, point_summaries, scenario_hash
from lasthop.workers import process_pool

PLAN_FIELDS: Final = ("name", "scenario", "seeds", "set", "series", "grid", "limits")
LIMITS: Final = {"points": 100_000, "runs": 1_000_000}
"""What a plan may ask for unless its ``[limits]`` table says more: every grid point is
checked by the core before anything runs (about 80 us each: 100,000 take 8 s), and every
run is held in this process as a job and a row of the plan's record (about 0.7 KB each,
measured: 1,000,000 runs take 0.7 GB and 10 s before the first starts). A 2,000 x 2,000
grid took 3.7 GB before these bounds."""
SERIES_MODES: Final = ("all", "first-seed", "none")
_SEED_MAX: Final = 2**64 - 1
_FLUSH_RUNS: Final = 1024
"""Store finished runs at least every this many runs ..."""
FLUSH_SECONDS: Final = 2.0
"""... and by default at least this often: a killed sweep loses at most this much work.
A store transaction costs about 40 ms whatever its size, so flushing much more often
than this slows a fast sweep down measurably."""
_HELD_IN_WORKER: Final = 0.25
"""The share of ``flush_seconds`` a finished run may wait in its worker for the rest of
its chunk (the local pool sizes chunks by the runs' measured cost); the parent stores
what arrived within the rest."""
_CHUNK_RUNS: Final = 16


@dataclass(frozen=True)
class Plan:
    """A validated plan."""

    name: str
    scenario: str
    source: ScenarioSource
    seeds: tuple[int, ...]
    sets: tuple[str, ...]
    grid: tuple[tuple[str, tuple[Any, ...]], ...]
    series: str
    """Whose time series to keep: ``all``, ``first-seed`` or ``none``."""

    def keeps_series(self, seed: int) -> bool:
        """Whether the run with ``seed`` keeps its time series."""
        return self.series == "all" or (self.series == "first-seed" and seed == self.seeds[0])

    def points(self) -> list[tuple[tuple[str, Any], ...]]:
        """The grid's combinations, each as ``((path, value), ...)`` in grid order."""
        keys = [k for k, _ in self.grid]
        return [tuple(zip(keys, values, strict=True)) for values in _product(self.grid)]


def _product(grid: Sequence[tuple[str, Sequence[Any]]]) -> Iterator[tuple[Any, ...]]:
    return itertools.product(*(values for _, values in grid))


@dataclass(frozen=True)
class SweepJob:
    """One run of a sweep; everything a worker needs, nothing it must look up."""

    text: str
    fmt: str
    origin: str
    sets: tuple[str, ...]
    params: tuple[tuple[str, Any], ...]
    seed: int
    series: bool
    plan: str
    scenario_hash: str
    version: str

    @property
    def key(self) -> RunKey:
        return (self.scenario_hash, self.seed, self.version)


def set_literal(path: str, value: Any) -> str:
    """``PATH=VALUE`` with ``value`` written as a TOML literal: strings quoted (so that
    ``"1e-5"`` stays a string), booleans as ``true``/``false``, numbers as Python writes
    them (valid TOML)."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int | float):
        text = repr(value)
    else:
        text = json.dumps(str(value), ensure_ascii=False)
    return f"{path}={text}"


def load_plan(path: str | os.PathLike[str]) -> Plan:
    """Read and check the plan at ``path``; ``PlanError`` names the first bad field.

    Checks the plan's own fields, then loads the scenario and validates every grid
    combination with the core, so that nothing starts unless every run can.
    """
    plan_path = Path(path)
    text = read_text_file(plan_path, PlanError)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PlanError(f"{plan_path}: invalid TOML: {e}") from None
    except RecursionError:
        # tomllib parses nested arrays and tables recursively.
        raise PlanError(f"{plan_path}: invalid TOML: arrays or tables nested too deeply") from None
    return plan_from_dict(raw, base_dir=plan_path.parent, default_name=plan_path.stem)


def plan_from_dict(
    raw: Mapping[str, Any], base_dir: Path = Path("."), default_name: str = "plan"
) -> Plan:
    """A :class:`Plan` from its parsed TOML (see :func:`load_plan`)."""
    for key in raw:
        if key not in PLAN_FIELDS:
            raise PlanError(f"{key}: unknown field (expected one of {', '.join(PLAN_FIELDS)})")
    name = raw.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        raise PlanError("name: must be a non-empty string")
    scenario = raw.get("scenario")
    if scenario is None:
        raise PlanError("scenario: missing field (an embedded scenario name or a file path)")
    if not isinstance(scenario, str) or not scenario:
        raise PlanError("scenario: must be a non-empty string")
    seeds = _plan_seeds(raw.get("seeds", 1))
    sets = raw.get("set", [])
    if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
        raise PlanError("set: must be a list of 'PATH=VALUE' strings")
    for i, item in enumerate(sets):
        reason = check_set(item)
        if reason is not None:
            raise PlanError(f"set[{i}]: {reason}")
    series = raw.get("series", "first-seed")
    if isinstance(series, bool):
        series = "all" if series else "none"
    if series not in SERIES_MODES:
        raise PlanError(f"series: expected one of {', '.join(SERIES_MODES)}, got {series!r}")
    grid_raw = raw.get("grid", {})
    if not isinstance(grid_raw, dict):
        raise PlanError("grid: must be a table of PATH = [values]")
    grid: list[tuple[str, tuple[Any, ...]]] = []
    for key, values in grid_raw.items():
        if not key.strip() or "=" in key:
            raise PlanError(f"grid.{key}: not a parameter name or field path")
        if not isinstance(values, list) or not values:
            raise PlanError(f"grid.{key}: must be a non-empty list of values")
        for i, value in enumerate(values):
            if isinstance(value, dict | list) or not _is_scalar(value):
                raise PlanError(f"grid.{key}[{i}]: must be a string, number or boolean")
        if len({json.dumps(v) for v in values}) != len(values):
            raise PlanError(f"grid.{key}: values repeat")
        grid.append((key, tuple(values)))
    _check_size(grid, len(seeds), raw.get("limits", {}))

    candidate = base_dir / scenario
    try:
        source = load_scenario_text(candidate if candidate.is_file() else scenario)
    except OSError as e:
        raise PlanError(f"scenario: {scenario}: {e.strerror or e}") from None
    except _core.ScenarioError as e:
        raise PlanError(f"scenario: {e}") from None
    plan = Plan(name, scenario, source, seeds, tuple(sets), tuple(grid), series)
    for point in plan.points():
        overrides = [*plan.sets, *(set_literal(k, v) for k, v in point)]
        try:
            _core.validate(source.text, overrides, source.origin, source.fmt)
        except _core.ScenarioError as e:
            where = ", ".join(f"{k}={json.dumps(v)}" for k, v in point) or "set"
            raise PlanError(f"grid ({where}): {e}") from None
    return plan


def _check_size(grid: Sequence[tuple[str, Sequence[Any]]], seeds: int, raw: object) -> None:
    """Refuse a plan larger than its limits (:data:`LIMITS`, raised by the plan's
    ``[limits]``) from the grid's dimensions, before any point is made."""
    if not isinstance(raw, dict):
        raise PlanError("limits: must be a table such as { points = 200000, runs = 2000000 }")
    limits = dict(LIMITS)
    for key, value in raw.items():
        if key not in LIMITS:
            raise PlanError(f"limits.{key}: unknown limit (expected one of {', '.join(LIMITS)})")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise PlanError(f"limits.{key}: must be a positive integer, got {value!r}")
        limits[key] = value

    def limit(key: str) -> str:
        if key in raw:
            return f"limits.{key} is {limits[key]}"
        return f"the default limit is {limits[key]}; set limits.{key} in the plan to allow more"

    points = math.prod(len(values) for _, values in grid)
    if points > limits["points"]:
        sizes = " x ".join(str(len(values)) for _, values in grid)
        raise PlanError(f"grid: {sizes} make {points} points, too many ({limit('points')})")
    if points * seeds > limits["runs"]:
        raise PlanError(
            f"seeds: {points} grid points x {seeds} seeds make {points * seeds} runs, too many "
            f"({limit('runs')})"
        )


def _is_scalar(value: object) -> bool:
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return isinstance(value, str | int | float | bool)


def _plan_seeds(value: object) -> tuple[int, ...]:
    if isinstance(value, bool):
        raise PlanError("seeds: must be a count N (seeds 1..N) or a list of seeds")
    if isinstance(value, int):
        if not 1 <= value <= 1_000_000:
            raise PlanError(f"seeds: a count must be in 1..1000000, got {value}")
        return tuple(range(1, value + 1))
    if isinstance(value, list) and value:
        for i, s in enumerate(value):
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= _SEED_MAX:
                raise PlanError(f"seeds[{i}]: must be an integer in 0..{_SEED_MAX}")
        if len(set(value)) != len(value):
            raise PlanError("seeds: seeds repeat")
        return tuple(value)
    raise PlanError("seeds: must be a count N (seeds 1..N) or a non-empty list of seeds")


def plan_jobs(plan: Plan) -> list[SweepJob]:
    """Every run of ``plan``: grid combinations in order, each for every seed."""
    version = _core.__version__
    jobs = []
    for point in plan.points():
        sets = (*plan.sets, *(set_literal(k, v) for k, v in point))
        digest = scenario_hash(plan.source.text, plan.source.fmt, sets)
        for seed in plan.seeds:
            jobs.append(
                SweepJob(
                    text=plan.source.text,
                    fmt=plan.source.fmt,
                    origin=plan.source.origin,
                    sets=sets,
                    params=point,
                    seed=seed,
                    series=plan.keeps_series(seed),
                    plan=plan.name,
                    scenario_hash=digest,
                    version=version,
                )
            )
    return jobs


def execute(job: SweepJob) -> RunRecord:
    """Run one job (in a worker). A failure inside the core becomes a failed record with
    its message, a Rust panic included; it never raises (but for ``KeyboardInterrupt``
    and ``SystemExit``, which stop the sweep), so one bad run cannot stop a sweep."""
    record = RunRecord(
        scenario_hash=job.scenario_hash,
        seed=job.seed,
        version=job.version,
        plan=job.plan,
        scenario=job.origin,
        params=dict(job.params),
        sets=job.sets,
        ok=False,
    )
    try:
        output = _core.run(job.text, job.seed, list(job.sets), job.series, job.origin, job.fmt)
        summary = json.loads(output.summary_json)
        raw = output.tables() if job.series else {}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - stored, not raised (see below)
        # pyo3 raises a Rust panic as PanicException, a BaseException: caught here, and
        # kept as text, since it cannot be pickled back from a pool or Dask worker.
        record.error = " ".join(f"{type(e).__name__}: {e}".split())
        return record
    record.ok = True
    record.summary = summary
    if job.series:
        record.series = {name: raw.get(name, {}) for name in TABLE_NAMES}
    return record


@dataclass
class SweepReport:
    """What a sweep did."""

    plan: str
    total: int
    skipped: int = 0
    ran: int = 0
    failed: int = 0
    """Runs of this plan stored as failed (now or by an earlier sweep)."""
    seconds: float = 0.0
    keys: list[RunKey] = field(default_factory=list)


Progress = Callable[[int, int], None]
"""Called with (runs done, runs to do) as runs finish."""


def sweep(
    plan: Plan,
    store: str | os.PathLike[str],
    *,
    executor: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    retry_failed: bool = False,
    progress: Progress | None = None,
    flush_seconds: float = FLUSH_SECONDS,
) -> SweepReport:
    """Run the runs of ``plan`` not yet in ``store`` and store them.

    ``executor`` is ``"local"`` (a process pool of ``workers`` processes, default all
    cores; 1 runs in this process) or ``"dask"`` (the Dask distributed cluster whose
    scheduler is at ``scheduler``). Stored failed runs are skipped too unless
    ``retry_failed``. A run is stored within about ``flush_seconds`` of finishing
    (a quarter of it in its worker, the rest in this process's :class:`_Flusher`).
    """
    if not flush_seconds > 0:
        raise ValueError(f"flush_seconds: must be positive, got {flush_seconds}")
    if executor not in ("local", "dask"):
        raise ValueError(f"executor: expected local or dask, got {executor!r}")
    if executor == "dask" and not scheduler:
        raise ValueError("scheduler: a Dask scheduler address is needed with executor dask")
    if executor == "dask" and importlib.util.find_spec("distributed") is None:
        # Said before anything runs or is stored, as one line (issue 29 item 12).
        raise PlanError("executor: dask needs the distributed package: pip install 'lasthop[dask]'")
    started = time.perf_counter()
    jobs = plan_jobs(plan)
    report = SweepReport(plan=plan.name, total=len(jobs), keys=[j.key for j in jobs])
    with Store(store) as db:
        # The plan asks for all of its runs, those another plan stored included: it lists
        # them as its own (lasthop.load_results(plan=...)).
        stored = db.add_to_plan(plan.name, ((j.key, dict(j.params)) for j in jobs))
        if retry_failed:
            db.forget(k for k, status in stored.items() if status == "failed")
            stored = {k: s for k, s in stored.items() if s == "ok"}
        pending = [j for j in jobs if j.key not in stored]
        report.skipped = len(jobs) - len(pending)
        if progress is not None:
            progress(0, len(pending))
        results = (
            _run_dask(pending, scheduler or "")
            if executor == "dask"
            else _run_local(pending, workers, flush_seconds * _HELD_IN_WORKER)
        )
        # Stored on time by a thread of its own, whether or not further runs arrive
        # meanwhile; what finished is kept even when interrupted.
        with _Flusher(db, flush_seconds * (1 - _HELD_IN_WORKER)) as flusher:
            for record in results:
                flusher.put(record)
                report.ran += 1
                if progress is not None:
                    progress(report.ran, len(pending))
        final = db.stored(report.keys)
    report.failed = sum(1 for status in final.values() if status == "failed")
    report.seconds = time.perf_counter() - started
    return report


class _Flusher:
    """Stores the runs :meth:`put` hands it, from a thread of its own: the first at once,
    each later one at most ``interval`` seconds after it arrived (``_FLUSH_RUNS`` at
    once), however long the next run takes to arrive, with at most one transaction per
    ``interval`` (a run that arrives longer than that after the last one is stored at
    once). Between two
    transactions the store is left free at least as long as the first took, so that
    readers get in when ``interval`` is shorter than a transaction (the bound then
    stretches to twice a transaction). Leaving the ``with`` stores the rest in the
    calling thread, interrupted or not. A failure to store is raised in the calling
    thread, at the next :meth:`put` or on leaving.

    The store's crash safety is its own (:meth:`Store.add`: the batch's id recorded, its
    Parquet files renamed into place, one transaction); this thread only decides when.
    One thread writes at a time: this one until the ``with`` ends, then the caller.
    """

    def __init__(self, db: Store, interval: float) -> None:
        self._db = db
        self._interval = interval
        self._pending: list[RunRecord] = []
        self._wake = threading.Condition()
        self._stop = False
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._loop, name="lasthop-store", daemon=True)

    def __enter__(self) -> _Flusher:
        self._thread.start()
        return self

    def put(self, record: RunRecord) -> None:
        if self._error is not None:
            raise self._error
        with self._wake:
            self._pending.append(record)
            if len(self._pending) in (1, _FLUSH_RUNS):
                self._wake.notify()

    def _loop(self) -> None:
        began = ended = time.monotonic()
        first = True
        while True:
            with self._wake:
                while not self._stop:
                    due: float | None = None
                    if self._pending and first:
                        # The first run is stored as soon as it arrives: a sweep's first
                        # result is there to read within half a second of its start
                        # (issue 31, item 2); the interval counts from that transaction.
                        break
                    if self._pending:
                        free = 2 * ended - began  # as long again as the last one took
                        due = free if len(self._pending) >= _FLUSH_RUNS else began + self._interval
                        due = max(due, free)
                        if due <= time.monotonic():
                            break
                    self._wake.wait(None if due is None else due - time.monotonic())
                if self._stop:
                    return
                batch, self._pending = self._pending, []
            began = time.monotonic()
            try:
                self._db.add(batch)
            except BaseException as e:  # noqa: BLE001 - raised in the sweep's thread
                self._error = e
                return
            ended = time.monotonic()
            first = False

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join()
        rest, self._pending = self._pending, []
        if self._error is not None:
            if exc is None:
                raise self._error
            return
        self._db.add(rest)


def execute_chunk(jobs: Sequence[SweepJob]) -> list[RunRecord]:
    """:func:`execute` for several jobs: one round trip to a worker for all of them."""
    return [execute(job) for job in jobs]


def _chunk_cap(jobs: int, workers: int) -> int:
    """The most runs a chunk holds: about 8 chunks per worker over the sweep, at most 16
    runs each. One job per round trip costs as much as a tenth of a fast run in pickling
    and pipe traffic."""
    return max(1, min(_CHUNK_RUNS, jobs // (8 * workers)))


def _chunks(jobs: Sequence[SweepJob], workers: int) -> list[list[SweepJob]]:
    """Jobs in chunks of :func:`_chunk_cap` runs (Dask's: a chunk is the unit of loss when
    a sweep is killed, and of progress)."""
    size = _chunk_cap(len(jobs), workers)
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def _chunk_size(cap: int, workers: int, done: int, seconds: float, held: float) -> int:
    """Runs in the next chunk: as many as ``workers`` workers, having finished ``done``
    runs in ``seconds``, finish in ``held`` seconds each, so that a finished run waits
    in its worker no longer than that for the rest of its chunk; one until every worker
    has finished a run (nothing measured yet), at most ``cap``."""
    if done < workers:
        return 1
    per_run = seconds * workers / done
    return max(1, min(cap, int(held / per_run) if per_run > 0 else cap))


def _run_local(jobs: Sequence[SweepJob], workers: int | None, held: float) -> Iterator[RunRecord]:
    """The runs of ``jobs`` as they finish, on ``workers`` processes (1: in this one), in
    chunks a worker finishes in about ``held`` seconds."""
    if not jobs:
        return
    workers = max(1, min(len(jobs), workers or os.cpu_count() or 1))
    if workers == 1:
        for job in jobs:
            yield execute(job)
        return
    # A bounded window of chunks in flight: memory stays flat however long the plan is,
    # and workers stay busy while this process stores results.
    window = 4 * workers
    cap = _chunk_cap(len(jobs), workers)
    position = done = 0
    # Workers ignore Ctrl-C and die with this process; an interrupted sweep kills them
    # at once instead of waiting for their runs (lasthop.workers).
    with process_pool(workers) as pool:
        started = time.monotonic()
        running: set[Future[list[RunRecord]]] = set()

        def submit() -> None:
            nonlocal position
            size = _chunk_size(cap, workers, done, time.monotonic() - started, held)
            running.add(pool.submit(execute_chunk, jobs[position : position + size]))
            position += size

        try:
            while position < len(jobs) and len(running) < window:
                submit()
            while running:
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    records = future.result()
                    done += len(records)
                    yield from records
                while position < len(jobs) and len(running) < window:
                    submit()
        finally:
            for future in running:
                future.cancel()


def _run_dask(jobs: Sequence[SweepJob], scheduler: str) -> Iterator[RunRecord]:
    if not jobs:
        return
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError(
            "executor dask needs the distributed package: pip install 'lasthop[dask]'"
        ) from None
    # distributed ships without type hints.
    with Client(scheduler, set_as_default=False) as client:  # type: ignore[no-untyped-call]
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        futures = client.map(execute_chunk, _chunks(jobs, workers), pure=False)
        for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
            records: list[RunRecord] = future.result()
            future.release()
            yield from records


def plan_keys(jobs: Iterable[SweepJob]) -> list[RunKey]:
    """The store keys of ``jobs``."""
    return [j.key for j in jobs]


def plan_points(store: str | os.PathLike[str], plan: Plan) -> list[dict[str, Any]]:
    """Per grid combination of ``plan``, what the store holds: its parameters, runs ok and
    failed, and over its ok runs the mean and 95% interval half width (Student's t over
    the seeds; ``None`` with one run) of the throughput summed over each run's flows
    (Mb/s; ``aggregate`` says so) and of Jain's index (runs of several flows), the means
    of retransmissions and timeouts summed over the flows, the runs in which a transfer
    did not complete (``incomplete_runs``), every link direction's mean goodput
    (percent) and, for a scenario of several flows, the same per flow (``per_flow``);
    the errors of its failed runs, if any."""
    jobs = plan_jobs(plan)
    n_seeds = len(plan.seeds)
    groups = [[j.key for j in jobs[i : i + n_seeds]] for i in range(0, len(jobs), n_seeds)]
    summaries = point_summaries(store, groups)
    points: list[dict[str, Any]] = []
    for point, summary in zip(plan.points(), summaries, strict=True):
        mbps, mbps_half = _interval(summary["throughput_mbps"], 4)
        jain, jain_half = _interval(summary["jain_index"], 3)
        entry: dict[str, Any] = {
            "params": dict(point),
            "runs": n_seeds,
            "ok": summary["ok"],
            "failed": summary["failed"],
            "flows": summary["flows"],
            "aggregate": "sum",
            "throughput_mbps": mbps,
            "throughput_ci95_mbps": mbps_half,
            "jain_index": jain,
            "jain_ci95": jain_half,
            "retransmits": _round(summary["retransmits"], 2),
            "timeouts": _round(summary["timeouts"], 2),
            "incomplete_runs": summary["incomplete"],
            "goodput_pct": {
                name: _round(None if g is None else 100.0 * g, 2)
                for name, g in summary["goodput"].items()
            },
        }
        if (summary["flows"] or 0) > 1:
            entry["per_flow"] = [_flow_point(f) for f in summary["per_flow"]]
        if summary["errors"]:
            entry["errors"] = summary["errors"]
        points.append(entry)
    return points


def _flow_point(flow: Mapping[str, Any]) -> dict[str, Any]:
    mbps, half = _interval(flow["throughput_mbps"], 4)
    return {
        "name": flow["name"],
        "group": flow["group"],
        "copy": flow["copy"],
        "throughput_mbps": mbps,
        "throughput_ci95_mbps": half,
        "retransmits": _round(flow["retransmits"], 2),
        "timeouts": _round(flow["timeouts"], 2),
        "incomplete_runs": flow["incomplete"],
    }


def _interval(values: Sequence[float], digits: int) -> tuple[float | None, float | None]:
    """Mean and 95% half width of ``values`` (the reproductions' rule,
    :func:`lasthop.reproduction.compare.ci95`), rounded; no half width for one value."""
    if not values:
        return None, None
    mean, half = ci95(values)
    return _round(mean, digits), _round(half, digits) if len(values) > 1 else None


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(float(value), digits)
