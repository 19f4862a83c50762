"""The ``lasthop`` command line: run, reproduce, bench, schema, scenarios, sweep, results,
plot, report, and live (the native command's, handed to it: :mod:`lasthop.native`).

Contract for bad input: an invalid scenario, a bad ``--set``, a missing file, a bad or
unknown option each give exactly one line on stderr, ``lasthop: error: <field or
option>: <reason>``, nothing on stdout, and exit code 2. Click's usage boxes are never
shown: the command runs with ``standalone_mode=False`` and :func:`main` formats what it
raises. Every command computes everything before it prints anything, so a failure never
leaves partial output. A run that fails inside the engine (its event budget spent, a
panic) is one line too, with exit code 1. Ctrl-C (SIGINT) stops any command at once, runs
inside the engine included: ``lasthop: error: interrupted`` and exit code 130.
"""

# No `from __future__ import annotations` here: typer would evaluate every parameter's
# annotation from its text, twice per command, at each start (about 7 ms more).

# First of all: a Ctrl-C while the rest loads is one line too (see lasthop._loading).
from lasthop import _loading

# isort: split
import contextlib
import gc
import json
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer

import lasthop
from lasthop import _core
from lasthop.errors import PlanError, RunFailed, StoreError, engine_failure
from lasthop.reproduction import registry
from lasthop.run_output import console as _console
from lasthop.run_output import print_json as _print_json
from lasthop.run_output import print_runs
from lasthop.scenario import ScenarioSource, check_set, embedded_names, load_scenario_text

# What only some commands need is imported inside them, not here: rich (tables, the
# progress bar), lasthop.render, the reproductions and their process pool, and the
# results store with DuckDB, pandas, numpy, pyarrow, matplotlib and Dask. `lasthop
# --help` and `lasthop run --format json` then start in a fraction of the time
# (benchmarks/startup.py measures it; tests/test_startup.py keeps them out).

HEAVY_MODULES = ("numpy", "pyarrow", "pandas", "duckdb", "matplotlib", "dask", "pydantic")
"""What ``lasthop --help`` and ``lasthop run`` with plain arguments never import (see
:func:`_plain_values`; tests/test_startup.py checks it)."""

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_RUN_FAILED = 1
BENCH_MAX_REPEATS = 1_000_000

# Typer runs on click, older releases on the click package and newer ones on a vendored
# copy (typer._click). The command raises that copy's exceptions, so take the classes
# from the module that defines typer.BadParameter (public in every release) rather than
# importing click.
_click_exceptions = sys.modules[typer.BadParameter.__module__]
ClickException: type[Exception] = _click_exceptions.ClickException
UsageError: type[Exception] = _click_exceptions.UsageError
BadParameter: type[Exception] = _click_exceptions.BadParameter
MissingParameter: type[Exception] = _click_exceptions.MissingParameter
NoSuchOption: type[Exception] = _click_exceptions.NoSuchOption
BadOptionUsage: type[Exception] = _click_exceptions.BadOptionUsage

app = typer.Typer(
    name="lasthop",
    help="Deterministic packet-level simulation of TCP over lossy wireless last hops.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    no_args_is_help=False,
)


def _print_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"lasthop {lasthop.__version__}\n")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_print_version, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    # The options that come before the command; --version acts in its callback.
    pass


class Format(StrEnum):
    """Output format: a table for people, JSON for programs."""

    table = "table"
    json = "json"


def _choices(name: str, values: Sequence[str]) -> type[StrEnum]:
    """A ``StrEnum`` whose members are ``values``, each named as its value: typer offers
    an enum's values as a parameter's choices."""
    # The functional API makes a class; typeshed reads the call as a member lookup.
    return cast("type[StrEnum]", StrEnum(name, [(value, value) for value in values]))


# The papers' selections and parts come from the registry, which reads each paper's
# paper.json (no paper's code). Typer needs them as an enum class in the annotation; to
# mypy each is a StrEnum.
if TYPE_CHECKING:
    Which = StrEnum
    Only = StrEnum
else:
    Which = _choices("Which", registry.selections())
    """What ``lasthop reproduce`` reproduces."""
    Only = _choices("Only", registry.only_parts())
    """What ``lasthop reproduce PAPER --only`` picks."""

_WHICH_ALL = Which.__members__[registry.ALL]


FormatOption = Annotated[
    Format, typer.Option("--format", help="Output format.", case_sensitive=False)
]


class RunFormat(StrEnum):
    """What ``lasthop run`` prints: tables for people; JSON, or one row per flow (and
    seed) as CSV or Parquet, for programs."""

    table = "table"
    json = "json"
    csv = "csv"
    parquet = "parquet"


@app.command("run")
def run_command(
    scenario: Annotated[
        str,
        typer.Argument(
            metavar="SCENARIO",
            help="A scenario file (TOML, or JSON by suffix) or an embedded scenario name.",
            show_default=False,
        ),
    ],
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, max=2**64 - 1, help="Run once with this seed [default: 1]."),
    ] = None,
    seeds: Annotated[
        int | None,
        typer.Option("--seeds", min=1, help="Run seeds 1..N and report each and their mean."),
    ] = None,
    sets: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="PATH=VALUE",
            help="Override a parameter (NAME=VALUE) or any field (a.b.c=VALUE); repeatable.",
        ),
    ] = None,
    fmt: Annotated[
        RunFormat,
        typer.Option(
            "--format",
            help=(
                "Output format: tables, the summary as JSON, or one row per flow (and seed) "
                "as CSV or Parquet (Parquet needs --out)."
            ),
            case_sensitive=False,
        ),
    ] = RunFormat.table,
    indent: Annotated[
        int | None,
        typer.Option(
            "--indent",
            min=0,
            max=16,
            help="Indent JSON by this many spaces [default: none, one compact line].",
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help=(
                "Write the JSON, CSV or Parquet to FILE instead of stdout, whole or not at "
                "all (made under a temporary name, then renamed)."
            ),
        ),
    ] = None,
    trace: Annotated[
        bool,
        # Accepted so that old command lines still work; nothing lasthop run prints reads
        # the time series, so none are recorded (lasthop.run in Python records them).
        typer.Option("--trace/--no-trace", hidden=True),
    ] = False,
    pcaps: Annotated[
        list[str] | None,
        typer.Option(
            "--pcap",
            metavar="LINK[:DIRECTION]",
            help=(
                "Write what crossed a link (DIRECTION: from->to or the sending node; "
                "without it both directions) as a libpcap file, default name "
                "LINK[-FROM-TO].pcap; repeatable. Frames are captured as they start "
                "transmission, corrupted ones included; Ethernet, IPv4 and TCP headers "
                "with real checksums and zero payload. Node i is 10.0.0.(i+1), its MAC "
                "02:00 and those 4 bytes; flow f runs from port 20000+f to port 5001; each "
                "side's ISN is fixed per flow; every segment has ACK (no SYN); SACK is "
                "option 5, the SMART echo and ELN marks are option 253 with ExID 0x4C48 "
                "and subtype 'S' or 'E'."
            ),
        ),
    ] = None,
    pcap_file: Annotated[
        str | None,
        typer.Option(
            "--pcap-file", metavar="PATH", help="Where to write the capture (one --pcap only)."
        ),
    ] = None,
    snaplen: Annotated[
        int | None,
        typer.Option(
            "--snaplen",
            metavar="BYTES",
            min=1,
            max=262144,
            help="Bytes kept of each captured frame [default: 128].",
        ),
    ] = None,
    series_dir: Annotated[
        str | None,
        typer.Option(
            "--series",
            metavar="DIR",
            help=(
                "Also write the run's time series as Parquet, DIR/TABLE.parquet for each "
                "table (window, sent, acks, events, drops, local_rexmits, send_rate), a "
                "seed column first, every seed of --seeds in one file; DIR is made if "
                "missing (not its parent)."
            ),
        ),
    ] = None,
) -> None:
    """Run a scenario and print its flow and link metrics."""
    if seed is not None and seeds is not None:
        raise typer.BadParameter("cannot be used together with --seed", param_hint="--seeds")
    if indent is not None and fmt is not RunFormat.json:
        raise typer.BadParameter("only with --format json", param_hint="--indent")
    if out is None and fmt is RunFormat.parquet:
        raise typer.BadParameter(
            "parquet is written to a file: give --out FILE", param_hint="--format"
        )
    if out is not None:
        if fmt is RunFormat.table:
            raise typer.BadParameter("only with --format json, csv or parquet", param_hint="--out")
        _check_output_file(out, "--out")
    overrides = list(sets or [])
    for item in overrides:
        reason = check_set(item)
        if reason is not None:
            raise typer.BadParameter(reason, param_hint="--set")
    specs = list(pcaps or [])
    if specs and seeds is not None:
        raise typer.BadParameter(
            "cannot be used with --seeds (it captures one run)", param_hint="--pcap"
        )
    if pcap_file is not None and len(specs) != 1:
        raise typer.BadParameter("needs exactly one --pcap", param_hint="--pcap-file")
    if snaplen is not None and not specs:
        raise typer.BadParameter("needs --pcap", param_hint="--snaplen")
    if series_dir is not None:
        _check_series_dir(series_dir)
    if pcap_file is not None:
        _check_output_file(pcap_file, "--pcap-file")
    source = load_scenario_text(scenario)
    seed_list = range(1, seeds + 1) if seeds is not None else [1 if seed is None else seed]
    # Every seed runs before anything is printed: a failure leaves no partial output.
    # Only the summaries are kept (and the one run's captures): nothing printed here reads
    # the time series, so the engine records none.
    runs: list[dict[str, Any]] = []
    captured: lasthop.RunResult | None = None
    traced: list[lasthop.RunResult] = []
    for run_seed in seed_list:
        result = _run_engine(
            source,
            run_seed,
            overrides,
            specs,
            128 if snaplen is None else snaplen,
            trace=series_dir is not None,
        )
        runs.append(result.summary)
        captured = result if specs else None
        if series_dir is not None:
            traced.append(result)

    if series_dir is not None:
        _write_series(traced, series_dir)
    if captured is not None:
        _write_captures(captured, pcap_file)

    print_runs(runs, source.origin, list(seed_list), seeds, fmt.value, indent=indent, out=out)


def _check_output_file(path: str, option: str) -> None:
    """Checked before the run, which may be long, rather than after it."""
    if os.path.isdir(path):
        raise typer.BadParameter(f"'{path}' is a directory", param_hint=option)
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise typer.BadParameter(f"no directory '{folder}'", param_hint=option)


def _write_captures(result: lasthop.RunResult, pcap_file: str | None) -> None:
    """Write the run's captures, each to ``pcap_file`` or its default name."""
    # Captures are written once the run succeeded, each to a temporary file beside its
    # destination, renamed into place only when all are written: a failure leaves none.
    moves: list[tuple[str, str]] = []
    try:
        for label in result.pcap_labels:
            name = re.sub(r"[^A-Za-z0-9._-]", "_", label.replace("->", "-").replace(":", "-"))
            final = pcap_file if pcap_file is not None else f"{name}.pcap"
            folder, base = os.path.split(final)
            temp = os.path.join(folder, f".{base}.{os.getpid()}.tmp")
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except OSError as e:
                raise OSError(e.errno, e.strerror, final) from None
            moves.append((temp, final))
            with os.fdopen(fd, "wb") as out:
                out.write(result.pcap(label))
        for temp, final in moves:
            os.replace(temp, final)
    except BaseException:
        for temp, _ in moves:
            try:
                os.unlink(temp)
            except OSError:
                pass
        raise


def _check_series_dir(directory: str) -> None:
    """``run --series DIR``, checked before the run: DIR is a directory or can be made."""
    if not directory:
        raise typer.BadParameter("must name a directory", param_hint="--series")
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise typer.BadParameter(
            f"'{directory}' exists and is not a directory", param_hint="--series"
        )
    parent = os.path.dirname(os.path.normpath(directory)) or "."
    if not os.path.isdir(parent):
        raise typer.BadParameter(f"no directory '{parent}'", param_hint="--series")


def _write_series(results: Sequence[lasthop.RunResult], directory: str) -> None:
    """Write every trace table of ``results`` to ``DIRECTORY/TABLE.parquet``: the runs one
    after the other, each row with its run's ``seed`` in front (uint64).

    The same runs give the same bytes (pyarrow's writer with fixed settings and no
    timestamps). The files are written into a new temporary folder beside ``directory``
    and moved into place once all are written: a failure leaves nothing behind, and a
    ``directory`` that did not exist appears whole or not at all.
    """
    # pyarrow only here: a run without --series never loads it.
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    from lasthop.result import TABLE_NAMES

    target = os.path.normpath(directory)
    parent, name = os.path.split(target)
    temporary = os.path.join(parent, f".{name}.{os.getpid()}.tmp")
    os.mkdir(temporary)
    try:
        for table in TABLE_NAMES:
            parts = []
            for result in results:
                rows = result.table(table)
                seeds = pa.array([result.seed] * rows.num_rows, type=pa.uint64())
                parts.append(rows.add_column(0, "seed", seeds))
            pq.write_table(
                pa.concat_tables(parts),
                os.path.join(temporary, f"{table}.parquet"),
                compression="zstd",
                write_statistics=True,
            )
        if not os.path.exists(target):
            os.rename(temporary, target)
            return
        for table in TABLE_NAMES:
            file = f"{table}.parquet"
            os.replace(os.path.join(temporary, file), os.path.join(target, file))
        os.rmdir(temporary)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def _run_engine(
    source: ScenarioSource,
    seed: int,
    sets: list[str],
    pcaps: list[str],
    snaplen: int,
    *,
    trace: bool = False,
) -> lasthop.RunResult:
    try:
        return lasthop.run_source(source, seed, sets, trace, pcaps, snaplen)
    except BaseException as e:
        message = engine_failure(e)
        if message is None:
            raise
        raise RunFailed(message) from None


@app.command("reproduce")
def reproduce_command(
    which: Annotated[
        Which, typer.Argument(help="Which experiments to reproduce.", case_sensitive=False)
    ] = _WHICH_ALL,
    seeds: Annotated[int, typer.Option("--seeds", min=1, help="Seeds 1..N per cell.")] = 10,
    fmt: FormatOption = Format.table,
    only: Annotated[
        Only | None,
        typer.Option(
            "--only",
            help=" ".join(f"{p.name}: {p.only_help}." for p in registry.papers() if p.only),
            case_sensitive=False,
        ),
    ] = None,
    report_dir: Annotated[
        Path | None,
        typer.Option(
            "--report",
            metavar="DIR",
            help="Also write an HTML report with the tables and the papers' figures into DIR.",
        ),
    ] = None,
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help=(
                "Shorter runs where a paper's are long (yun09: 50 s instead of the paper's "
                "200 s), marked as such; the verdicts pinned in the tests are those of the "
                "full runs."
            ),
        ),
    ] = False,
    live: Annotated[
        bool,
        typer.Option(
            "--live",
            help=(
                "Also run the paper's live subset with lasthop live (balakrishnan97: Table "
                "II's LAN 32 KB row, kernel Reno without SACK, lasthop's snoop at the base "
                "station), one run at a time, beside the same runs simulated, with the "
                "claims on them; needs root, /dev/net/tun and the native lasthop command, "
                "else one line says why the live cells are skipped."
            ),
        ),
    ] = False,
    live_seeds: Annotated[
        int | None,
        typer.Option(
            "--live-seeds", min=1, help="Live runs of seeds 1..N per live cell [default: 1]."
        ),
    ] = None,
    live_bytes: Annotated[
        int | None,
        typer.Option(
            "--live-bytes",
            metavar="BYTES",
            min=1,
            help="The live cells' transfer, live and simulated [default: the paper's].",
        ),
    ] = None,
) -> None:
    """Reproduce the source documents' headline tables beside the published numbers, and
    check the papers' claims on them: each holds or fails by the 95% intervals over the
    seeds, with the measured figures; each failure names its cause, and a run that varies
    the cause shows whether it moves the figure toward the paper (explained) or not
    (open). With --format json: "cells", "claims", "deviations", "summary" (per paper)
    and "sensitivity" (the defaults no source decides, run at other values)."""
    if report_dir is not None and report_dir.exists() and not report_dir.is_dir():
        raise typer.BadParameter(
            f"{report_dir} exists and is not a directory", param_hint="--report"
        )
    if only is not None and not registry.takes_only(which.value, only.value):
        raise typer.BadParameter(
            f"only with {' or '.join(registry.only_selections())}", param_hint="--only"
        )
    if only is not None and report_dir is not None:
        raise typer.BadParameter("cannot be used together with --only", param_hint="--report")
    live_papers = _live_papers(which.value, only, seeds, live, live_seeds, live_bytes, report_dir)
    from lasthop import render
    from lasthop.reproduction.reproduce import run_reproduction

    reproduction = run_reproduction(
        which.value, seeds, only=only.value if only else None, quick=quick
    )
    live_part = None
    if live_papers is not None:
        from lasthop.reproduction.live import LiveRequest, run_live_part

        live_part = run_live_part(
            live_papers,
            LiveRequest(1 if live_seeds is None else live_seeds, live_bytes),
            seeds,
            progress=_live_progress(),
        )
        if live_part.skipped is not None:
            sys.stderr.write(f"lasthop: live cells skipped: {live_part.skipped}\n")
    if report_dir is not None:
        # Before anything is printed: a report that cannot be written leaves no output.
        from lasthop.reproduction.report import reproduction_report

        index = reproduction_report(report_dir, which.value, seeds, reproduction=reproduction)
        sys.stderr.write(f"lasthop: report written to {index}\n")
    if fmt is Format.json:
        document = reproduction.as_json()
        if live_part is not None:
            document["live"] = live_part.as_json()
        _print_json(document)
        return
    console = _console()
    for part in reproduction.parts:
        for table in registry.load(part.paper).tables(part.request, part.cells):
            console.print(table)
    claims = reproduction.claims
    if claims:
        console.print(
            render.claims_table(
                claims,
                f"Checks of the papers' claims, mean of {seeds} seeds per cell, 95% intervals",
            )
        )
    deviations = reproduction.deviations
    if deviations:
        console.print(
            render.deviations_table(
                deviations,
                "Deviations: failed claims and cells outside 0.8-1.25 of the papers, "
                "each with its cause and the run that varies it",
            )
        )
    for sensitivity in reproduction.sensitivity:
        console.print(render.sensitivity_table(sensitivity))
    summary = reproduction.summary()
    if summary:
        console.print(render.summary_table(summary))
    if live_part is not None and live_part.skipped is None:
        console.print(render.live_table(live_part.as_json()))
        if live_part.claims:
            console.print(
                render.claims_table(
                    live_part.claims,
                    "Checks of the papers' claims on the live cells, "
                    + (
                        "1 live seed per cell (no interval: the means compared)"
                        if live_part.request.seeds == 1
                        else f"mean of {live_part.request.seeds} live seeds per cell, 95% intervals"
                    ),
                )
            )


def _live_papers(
    which: str,
    only: Any,
    seeds: int,
    live: bool,
    live_seeds: int | None,
    live_bytes: int | None,
    report_dir: Path | None,
) -> "list[tuple[str, Any, Any]] | None":
    """``reproduce``'s live options, checked before anything runs: the selected papers
    that have live cells, each with its request, or ``None`` without ``--live``."""
    if not live:
        for value, option in ((live_seeds, "--live-seeds"), (live_bytes, "--live-bytes")):
            if value is not None:
                raise typer.BadParameter("only with --live", param_hint=option)
        return None
    if report_dir is not None:
        raise typer.BadParameter(
            "cannot be used together with --live (the report has no live cells)",
            param_hint="--report",
        )
    from lasthop.reproduction.paper import Request

    papers = [
        (
            about.name,
            registry.load(about.name),
            Request(selection, only.value if only else None, seeds),
        )
        for about, selection in registry.selected(which)
    ]
    chosen = [
        (name, paper, request) for name, paper, request in papers if paper.live_experiments(request)
    ]
    if not chosen:
        having = [
            about.name
            for about in registry.papers()
            if registry.load(about.name).live_experiments(Request(about.name))
        ]
        raise typer.BadParameter(
            f"{which} has no live cells (live cells: {', '.join(having) or 'none'})",
            param_hint="--live",
        )
    return chosen


def _live_progress() -> Callable[[str], None] | None:
    """A line on stderr per live run, on a terminal: a live cell of the paper's transfer
    takes about a minute."""
    if not sys.stderr.isatty():
        return None

    def say(line: str) -> None:
        sys.stderr.write(f"lasthop: {line}\n")
        sys.stderr.flush()

    return say


@app.command("bench")
def bench_command(
    cases: Annotated[
        list[str] | None,
        typer.Option(
            "--case",
            metavar="NAME",
            help=(
                "Only this case; repeatable [default: all]. lan: 8 MB over the 1997 LAN "
                "shape, one error per 64 KB. path-1000: 1000 flows on one path; bdp-17k: "
                "1 Gb/s x 100 ms, 17,000 packets in flight; dumbbell-5000: 10,002 nodes, "
                "5,000 flows, loading included; dumbbell-100k: 200,002 nodes, 100,000 flows "
                "of 20 KB; each beside its one-flow reference (path-1, dumbbell-1). "
                "topology-1m: a tree of 1,000,000 nodes (999 edge routers of 1,000 hosts), "
                "100,000 flows of 10 KB, 3 s, JSON scenario text, its load time apart. "
                "asym-af: seed 001's E-S1, 50 s at 9.6 kb/s reverse with AF + SA. radio-4x8: "
                "seed 001's E-S6 over 4 packet-radio hops, 8 transfers of 200 s. wlan-10: "
                "seed 004's cell, 10 downlink flows of 200 s over 802.11 at 1 % FER. "
                "roaming-100: 100 mobile hosts on random walks over 16 cells for 600 s. "
                "oneshot: one process of lasthop run balakrishnan97/lan --format json, "
                "start-up included (--repeats of them). sweep-240: lasthop sweep of 240 LAN "
                "runs into an empty store, until its first result is stored and until it "
                "exits (--scale-runs of them). Each with its peak memory."
            ),
        ),
    ] = None,
    repeats: Annotated[
        int,
        typer.Option(
            "--repeats",
            min=1,
            max=BENCH_MAX_REPEATS,
            help=(
                "lan: timed runs, in batches of 10 (best and median batch); oneshot: timed "
                "processes."
            ),
        ),
    ] = 100,
    scale_runs: Annotated[
        int,
        typer.Option(
            "--scale-runs",
            min=1,
            max=BENCH_MAX_REPEATS,
            help="The other cases: timed runs each (best and median run).",
        ),
    ] = 3,
    fmt: FormatOption = Format.table,
) -> None:
    """Time the engine, on one core without traces: wall and CPU time per run, events
    per CPU second, simulated seconds per wall second, CPU ns per event and its ratio
    to the one-flow case of the same shape; and whole processes, start-up included."""
    from lasthop import bench_process

    engine_cases = _core.bench_cases()
    known = [*engine_cases, *bench_process.CASES]
    asked = list(cases or known)
    for case in asked:
        if case not in known:
            raise typer.BadParameter(
                f"unknown case '{case}' (known: {', '.join(known)})", param_hint="--case"
            )
    engine = [case for case in asked if case in engine_cases]
    result = json.loads(_core.bench(repeats, engine, scale_runs)) if engine else []
    result += bench_process.bench(asked, repeats, scale_runs)
    if fmt is Format.json:
        _print_json(result)
    else:
        from lasthop import render

        _console().print(render.bench_table(result))


@app.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of scenarios (the text schemas/scenario.schema.json holds)."""
    sys.stdout.write(_core.schema().rstrip("\n") + "\n")


@app.command("scenarios")
def scenarios_command() -> None:
    """List the embedded scenarios (usable by name wherever a SCENARIO is asked for)."""
    names = embedded_names()
    sys.stdout.write("".join(f"{name}\n" for name in names))


class Executor(StrEnum):
    """Where ``lasthop sweep`` runs its runs."""

    local = "local"
    dask = "dask"


def _check_store(value: Path | None) -> Path | None:
    """``--store`` names a database file: not empty, not a directory."""
    if value is not None and (value.name == "" or value.is_dir()):
        raise typer.BadParameter(
            f"must name the results database file, not a directory or nothing, got {str(value)!r}",
            param_hint="--store",
        )
    return value


StoreOption = Annotated[
    Path | None,
    typer.Option(
        "--store",
        metavar="PATH",
        help="The results database; its time series go in a folder beside it named after "
        "it, PATH.series [default: lasthop-results/lasthop.duckdb].",
        show_default=False,
        callback=_check_store,
    ),
]
PlanOption = Annotated[str | None, typer.Option("--plan", help="Only this plan's runs.")]
WhereOption = Annotated[
    list[str] | None,
    typer.Option(
        "--where",
        metavar="COLUMN=VALUE",
        help="Keep runs where COLUMN equals VALUE; repeatable.",
    ),
]
FlowOption = Annotated[
    str | None,
    typer.Option(
        "--flow",
        metavar="NAME",
        help="One flow's numbers (bulk#3), or a row per flow matching a pattern (bulk#*, *) "
        "[default: the sum over a run's flows]; cwnd, sequence: the flow drawn [default: "
        "the first].",
    ),
]


class Aggregate(StrEnum):
    """How ``results`` and ``plot`` combine the flows of a run."""

    sum = "sum"
    mean = "mean"
    jain = "jain"


AggregateOption = Annotated[
    Aggregate | None,
    typer.Option(
        "--aggregate",
        help="Combine a run's flows: their sum (the default), mean, or Jain's fairness index.",
        case_sensitive=False,
    ),
]


def _flow_choice(flow: str | None, aggregate: "Aggregate | None") -> str | None:
    """``--flow`` and ``--aggregate`` exclude each other; the aggregate asked for."""
    if flow is not None and aggregate is not None:
        raise typer.BadParameter("cannot be used together with --flow", param_hint="--aggregate")
    if flow is not None and not flow:
        raise typer.BadParameter("expected a flow's name or a pattern, got ''", param_hint="--flow")
    return None if aggregate is None else aggregate.value


@app.command("sweep")
def sweep_command(
    plan_file: Annotated[
        Path,
        typer.Argument(
            metavar="PLAN", help="The plan (TOML): scenario, grid, seeds.", show_default=False
        ),
    ],
    store: StoreOption = None,
    executor: Annotated[
        Executor, typer.Option("--executor", help="Where to run.", case_sensitive=False)
    ] = Executor.local,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", metavar="ADDRESS", help="Dask scheduler (tcp://host:8786)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, help="Local worker processes [default: all cores]."),
    ] = None,
    retry_failed: Annotated[
        bool, typer.Option("--retry-failed", help="Run again the runs stored as failed.")
    ] = False,
    progress: Annotated[
        bool | None,
        typer.Option("--progress/--no-progress", help="Progress bar [default: on a terminal]."),
    ] = None,
    flush_every: Annotated[
        float,
        typer.Option(
            "--flush-every",
            metavar="SECONDS",
            min=0.01,
            help="Store finished runs at least this often (what a killed sweep may lose).",
        ),
    ] = 2.0,
    fmt: FormatOption = Format.table,
) -> int:
    """Run a plan's runs not yet stored (a grid of overrides times seeds) and store them.

    Exit code 0 when every run of the plan is stored and ran, 1 when some failed (they
    are stored with their error), 2 for an invalid plan (nothing runs).
    """
    if executor is Executor.dask and not scheduler:
        raise typer.BadParameter(
            "a scheduler address is needed with --executor dask", param_hint="--scheduler"
        )
    if executor is Executor.local and scheduler:
        raise typer.BadParameter("only used with --executor dask", param_hint="--scheduler")
    # DuckDB and Dask load only for the commands that use them; rich only to draw (the
    # first result of a sweep is stored within half a second of its start, issue 31).
    from lasthop.store import DEFAULT_STORE
    from lasthop.sweep import load_plan, plan_points, sweep

    store = store or DEFAULT_STORE
    plan = load_plan(plan_file)  # every grid point is validated before anything runs
    with _sweep_progress(plan.name, progress) as on_progress:
        report = sweep(
            plan,
            store,
            executor=executor.value,
            workers=workers,
            scheduler=scheduler,
            retry_failed=retry_failed,
            progress=on_progress,
            flush_seconds=flush_every,
        )
    points = plan_points(store, plan)
    document = {
        "plan": report.plan,
        "store": str(store),
        "runs": report.total,
        "ran": report.ran,
        "skipped": report.skipped,
        "failed": report.failed,
        "seconds": round(report.seconds, 3),
        "points": points,
    }
    if fmt is Format.json:
        _print_json(document)
    else:
        from lasthop import render

        _console().print(render.sweep_table(document))
    return 1 if report.failed else 0


_RICH_TERMINAL_VARS = ("FORCE_COLOR", "TTY_COMPATIBLE")
"""What can make rich's ``Console.is_terminal`` true without a terminal."""


@contextlib.contextmanager
def _sweep_progress(name: str, progress: bool | None) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr (runs done, rate, time left), or nothing: as ``progress``
    says, or where rich sees a terminal. rich loads only to answer that where it may
    (stderr a terminal, or one of the variables that make rich see one), and to draw."""
    maybe = sys.stderr.isatty() or any(var in os.environ for var in _RICH_TERMINAL_VARS)
    show = progress if progress is not None else maybe
    if show:
        from rich.console import Console

        console = Console(stderr=True, highlight=False)
        show = progress if progress is not None else console.is_terminal
    if not show:
        yield lambda done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as RichProgress

    bar = RichProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )
    task = bar.add_task(f"sweep {name}", total=None, rate="")
    started = time.monotonic()

    def update(done: int, total: int) -> None:
        elapsed = time.monotonic() - started
        rate = f"{done / elapsed:.0f} runs/s" if done and elapsed > 0 else ""
        bar.update(task, completed=done, total=total, rate=rate)

    with bar:
        yield update


@app.command("results")
def results_command(
    store: StoreOption = None,
    plan: PlanOption = None,
    status: Annotated[
        str | None,
        typer.Option("--status", metavar="ok|failed", help="Only runs with this status."),
    ] = None,
    where: WhereOption = None,
    export: Annotated[
        Path | None,
        typer.Option("--export", metavar="FILE", help="Write the rows to FILE (.csv or .parquet)."),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Rows shown as a table.")] = 50,
    flow: FlowOption = None,
    aggregate: AggregateOption = None,
    fmt: FormatOption = Format.table,
) -> None:
    """List, filter and export the stored runs (one row per run).

    A run of several flows counts as the sum over its flows unless --aggregate or --flow
    says otherwise (--flow with a pattern: one row per flow of each run).
    """
    if status is not None and status not in ("ok", "failed"):
        raise typer.BadParameter(f"expected ok or failed, got {status!r}", param_hint="--status")
    if export is not None and export.suffix.lower() not in (".csv", ".parquet"):
        raise typer.BadParameter("FILE must end in .csv or .parquet", param_hint="--export")
    how = _flow_choice(flow, aggregate)
    from lasthop import render
    from lasthop.store import load_results, write_export

    frame = load_results(
        store, plan=plan, status=status, where=_where(where), flow=flow, aggregate=how
    )
    if export is not None:
        write_export(frame, export)
        what = "rows (a row per flow)" if "flow_index" in frame.columns else "runs"
        sys.stderr.write(f"lasthop: {len(frame)} {what} written to {export}\n")
        return
    if fmt is Format.json:
        _print_json(json.loads(frame.to_json(orient="records")))
        return
    console = _console()
    for table in render.results_tables(frame, limit):
        console.print(table)


class PlotKind(StrEnum):
    """What ``lasthop plot`` draws (the papers' figure kinds)."""

    throughput = "throughput"
    error_rate = "error-rate"
    cwnd = "cwnd"
    sequence = "sequence"


ByOption = Annotated[
    str | None,
    typer.Option(
        "--by", metavar="PARAM", help="One bar, line or panel per value [default: scheme]."
    ),
]
GroupOption = Annotated[
    str | None,
    typer.Option("--group", metavar="PARAM", help="Group the bars by this parameter's values."),
]


def _where(items: list[str] | None) -> dict[str, str]:
    filters: dict[str, str] = {}
    for item in items or []:
        column, sep, value = item.partition("=")
        if not sep or not column:
            raise typer.BadParameter(f"expected COLUMN=VALUE, got {item!r}", param_hint="--where")
        filters[column] = value
    return filters


def _live_flow(flow: str) -> int:
    """``--flow`` of a live run: its index (a live report names flows by index)."""
    if not flow.isdigit():
        raise typer.BadParameter(
            f"a live run's flow is its index, not {flow!r}", param_hint="--flow"
        )
    return int(flow)


@app.command("plot")
def plot_command(
    kind: Annotated[PlotKind, typer.Argument(help="Which figure.", case_sensitive=False)],
    out: Annotated[
        Path,
        typer.Option("--out", metavar="STEM", help="Write STEM.png and STEM.svg."),
    ],
    store: StoreOption = None,
    plan: PlanOption = None,
    where: WhereOption = None,
    by: ByOption = None,
    group: GroupOption = None,
    x: Annotated[
        str | None,
        typer.Option(
            "--x", metavar="PARAM", help="error-rate: the x parameter [default: error_every_bytes]."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="cwnd, sequence: the run's seed.")
    ] = None,
    peak: Annotated[
        float | None,
        typer.Option("--peak-mbps", min=0.0, help="throughput: the error-free maximum, Mb/s."),
    ] = None,
    time_window: Annotated[
        str | None,
        typer.Option("--time", metavar="START:END", help="cwnd, sequence: seconds shown."),
    ] = None,
    flow: FlowOption = None,
    aggregate: AggregateOption = None,
    live_reports: Annotated[
        list[Path] | None,
        typer.Option(
            "--live",
            metavar="REPORT",
            help=(
                "cwnd, sequence: draw live runs instead, from reports `lasthop live "
                "--format json --tables` wrote (repeatable)."
            ),
        ),
    ] = None,
) -> None:
    """Draw one of the papers' figures from stored runs (``lasthop sweep`` stores them).
    cwnd and sequence draw a panel per run, four to a page: more runs than four are
    written as STEM-1.png, STEM-2.png, ... (and .svg)."""
    how = _flow_choice(flow, aggregate)
    from lasthop import figures, plots

    try:
        window = figures.parse_time_window(time_window)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--time") from None
    if out.parent != Path("") and not out.parent.is_dir():
        raise typer.BadParameter(f"no directory {out.parent}", param_hint="--out")
    if live_reports:
        index = 0 if flow is None else _live_flow(flow)
        figs = figures.live_figures(kind.value, live_reports, time_window_s=window, flow=index)
    else:
        figs = figures.figure(
            kind.value,
            store,
            plan=plan,
            where=_where(where),
            by=by,
            group=group,
            x=x,
            seed=seed,
            peak_mbps=peak,
            time_window_s=window,
            flow=flow,
            aggregate=how,
        )
    for path in plots.save_pages(figs, out):
        sys.stdout.write(f"{path}\n")


@app.command("report")
def report_command(
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", help="Where to write index.html and the figures.")
    ],
    store: StoreOption = None,
    plan: PlanOption = None,
    where: WhereOption = None,
    by: ByOption = None,
    group: GroupOption = None,
) -> None:
    """Write a self-contained HTML report (tables and the papers' figures) of stored runs."""
    from lasthop import figures

    if directory.exists() and not directory.is_dir():
        raise typer.BadParameter(f"{directory} exists and is not a directory", param_hint="DIR")
    index = figures.stored_report(
        directory, store, plan=plan, where=_where(where), by=by, group=group
    )
    sys.stdout.write(f"{index}\n")


@app.command(
    "live",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def live_command(ctx: typer.Context) -> int:
    """Run a scenario on real packets: a network namespace per host, the kernel's TCP at
    both ends, lasthop's links, error models and base-station agents between them (the
    native lasthop command's; Linux, as root).

    lasthop live SCENARIO [--set PATH=VALUE]... [--seed N] [--cc reno|cubic|bbr]
    [--duration S] [--sample-ms MS] [--format table|json] [--tables]
    [--sysctl net.ipv4.tcp_KEY=VALUE]... [--rto-min-ms MS] [--pcap DIR] [--on HOST]
    [-- COMMAND ARGS...]: the built-in bulk transfer (or COMMAND in host HOST, by
    default the first flow's source), then its report: per flow the throughput, the
    source's retransmissions counted from the packets and the base station's local
    ones, the kernel's TCP_INFO over time (JSON); per link direction packets, errors,
    drops, goodput; with --tables the trace tables of a simulated run (lasthop plot
    cwnd|sequence --live REPORT draws them). lasthop live --cleanup removes what ended
    runs left behind.
    """
    from lasthop import native

    # run_cli hands every live command line to the native command before typer parses
    # it; only a caller of this function itself gets here.
    return native.call_live(list(ctx.args))


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the ``lasthop`` script and of ``python -m lasthop``."""
    code = run_cli(argv)
    if code == EXIT_INTERRUPTED:
        # Leave at once. A Ctrl-C can strike inside a process pool's thread machinery
        # and leave one of its locks taken for good; the interpreter's exit would then
        # wait forever for the pool's thread. What must last is already kept: the
        # exception unwound through every `with`, which closed the stores' transactions
        # and files, and the pool's workers are killed.
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
    if not any(name in sys.modules for name in HEAVY_MODULES):
        # A short command (help, run, bench, schema, an error) ends here, and the
        # interpreter's exit would spend 10-20 ms, a tenth of its wall time, collecting
        # garbage among objects that go with the process anyway. Frozen
        # objects are left out of that; the rest of the exit (flushing, closing, atexit)
        # happens as usual. Not after the data stack was loaded: DuckDB's bindings
        # (nanobind) report as leaks, at exit, the objects left uncollected.
        gc.freeze()
    sys.exit(code)


def run_cli(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["live"]:
        from lasthop import native

        if not native.asks_help(args[1:]):
            # The native command's, byte for byte (click would eat a `--`); its Ctrl-C
            # is its own (lasthop.native.call_live).
            return native.call_live(args[1:])
    with _catch_sigint() as interrupted:
        try:
            command = typer.main.get_command(app)
            _plain_help(command)
            _plain_values(command)
            result = command.main(args=args, prog_name="lasthop", standalone_mode=False)
        except BaseException as e:
            # A Ctrl-C may surface as another exception: DuckDB, for one, stops the query it
            # is in and raises its own error.
            if interrupted or isinstance(e, typer.Abort | KeyboardInterrupt):
                interrupted.append(True)
            else:
                code = _exit_code(e)
                if code is None:
                    raise
                return code
    if interrupted:
        _error("interrupted")
        return EXIT_INTERRUPTED
    return result if isinstance(result, int) else 0


def _exit_code(e: BaseException) -> int | None:
    """Say what went wrong in one line and return the exit code; ``None`` for an
    exception that is not a known failure (a bug: its traceback is shown)."""
    if isinstance(e, ClickException):
        _error(describe_click_error(e))
        return EXIT_USAGE
    if isinstance(e, _core.ScenarioError | PlanError | StoreError):
        _error(str(e))
        return EXIT_USAGE
    if isinstance(e, RunFailed):
        _error(str(e))
        return EXIT_RUN_FAILED
    if isinstance(e, BrokenPipeError):
        # The reader went away (`lasthop scenarios | head -1`); say nothing more.
        _silence_stdout()
        return 1
    if isinstance(e, OSError):
        _error(_describe_os_error(e))
        return EXIT_USAGE
    return None


@contextlib.contextmanager
def _catch_sigint() -> Iterator[list[bool]]:
    """Note a Ctrl-C (SIGINT) in the list yielded, then raise ``KeyboardInterrupt`` as
    Python does. Typer turns a ``KeyboardInterrupt`` into a silent exit code 130; this is
    how :func:`run_cli` knows to say why. Nothing changes where SIGINT is ignored (a
    background job) or handled by someone else, or outside the main thread."""
    seen: list[bool] = []

    def on_sigint(signum: int, frame: object) -> None:
        seen.append(True)
        raise KeyboardInterrupt

    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield seen
        return
    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


_RST_MARKUP = re.compile(r"(?::[a-z]+:)?``?([^`]+)``?")


def _plain_help(command: Any) -> None:
    """Help text without the reStructuredText of the docstrings it comes from:
    ``lasthop sweep`` and :func:`x` become lasthop sweep and x."""
    commands = [command, *getattr(command, "commands", {}).values()]
    for cmd in commands:
        for owner in (cmd, *cmd.params):
            for attr in ("help", "short_help"):
                text = getattr(owner, attr, None)
                if isinstance(text, str):
                    setattr(owner, attr, _RST_MARKUP.sub(r"\1", text))


_NOT_PLAIN: Any = object()
_DIGITS = re.compile(r"0|[1-9][0-9]{0,29}")


def _plain_values(command: Any) -> None:
    """Convert plain option and argument values without pydantic.

    Typer (0.2x) converts every value given to a command, a default or ``None`` included,
    with a pydantic ``TypeAdapter`` built on first use; importing pydantic and building
    the adapters takes longer (about 0.2 s here) than all else a ``lasthop run`` does. Each
    parameter's converter is therefore :class:`_PlainValue`, which returns what typer's
    own would for the values a command line mostly holds (``None``, a string, a list of
    strings, a decimal integer in range, a float default, a choice as spelled) and hands
    anything else, and every value it would reject, to typer's own converter, so that
    what typer accepts and every message it gives stay typer's. tests/test_startup.py
    checks the two agree. A typer without ``get_runtime_param`` (before 0.2x, no
    pydantic) is left alone.
    """
    commands = [command, *getattr(command, "commands", {}).values()]
    for cmd in commands:
        # get_params: the parameters and the --help option, which click makes on demand.
        for param in cmd.get_params(typer.Context(cmd)):
            if callable(getattr(type(param), "get_runtime_param", None)) and hasattr(
                param, "type_descriptor"
            ):
                param.get_runtime_param = _PlainValue(param).runtime_param


class _PlainValue:
    """A typer parameter's converter for plain values (see :func:`_plain_values`)."""

    def __init__(self, param: Any) -> None:
        self.param = param
        descriptor = param.type_descriptor
        info = descriptor.parameter_info
        self.annotation = descriptor.annotation
        self.simple = info.parser is None and not info.clamp
        self.min, self.max = info.min, info.max
        self.case_sensitive = bool(info.case_sensitive)
        # A Path with none of click's path checks but readability (the options' default).
        self.plain_path = (
            not info.exists
            and info.file_okay
            and info.dir_okay
            and not info.writable
            and not info.resolve_path
            and info.path_type is None
        )

    def runtime_param(self) -> "_PlainValue":
        return self

    def typer_runtime_param(self) -> Any:
        """Typer's own converter (built, and pydantic imported, on first call)."""
        return type(self.param).get_runtime_param(self.param)

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if value is None:  # what typer's converter returns for None, without building it
            return () if param.multiple or param.nargs == -1 else None
        plain = self.plain(value, ctx) if self.simple else _NOT_PLAIN
        if plain is _NOT_PLAIN:
            return self.typer_runtime_param().coerce(value, param=param, ctx=ctx)
        return plain

    def plain(self, value: Any, ctx: Any) -> Any:
        """``value`` converted as typer converts it, or ``_NOT_PLAIN``."""
        annotation = self.annotation
        if annotation is str:
            return value if _is_text(value) else _NOT_PLAIN
        if annotation == list[str]:
            if isinstance(value, list | tuple) and all(_is_text(item) for item in value):
                return list(value)
            return _NOT_PLAIN
        if annotation is bool:
            return value if type(value) is bool else _NOT_PLAIN
        if annotation is int or annotation is float:
            if type(value) is annotation:
                number = value
            elif annotation is int and type(value) is str and _DIGITS.fullmatch(value):
                number = int(value)
            else:
                return _NOT_PLAIN
            low, high = self.min, self.max
            in_range = (low is None or number >= low) and (high is None or number <= high)
            return number if in_range else _NOT_PLAIN
        if annotation is Path and self.plain_path:
            # typer: pydantic's Path(value) for text, then, the file being there, an
            # error unless it is readable (left to typer, as any other error).
            if isinstance(value, Path):
                path = value
            elif _is_text(value) and value:
                path = Path(value)
            else:
                return _NOT_PLAIN
            if os.path.exists(path) and not os.access(path, os.R_OK):
                return _NOT_PLAIN
            return path
        if isinstance(annotation, type) and issubclass(annotation, StrEnum):
            if isinstance(value, annotation):
                return value
            if type(value) is not str or getattr(ctx, "token_normalize_func", None):
                return _NOT_PLAIN
            for choice in annotation:
                if value == choice.value or (
                    not self.case_sensitive and value.casefold() == choice.value.casefold()
                ):
                    return choice
        return _NOT_PLAIN


def _is_text(value: object) -> bool:
    """A ``str`` that is valid Unicode (no lone surrogates from undecodable arguments)."""
    if type(value) is not str:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _error(message: str) -> None:
    line = " ".join(message.split())
    sys.stderr.write(f"lasthop: error: {line}\n")
    sys.stderr.flush()


def describe_click_error(e: Exception) -> str:
    """``<field or option>: <reason>`` for what click raised while parsing the command."""
    err: Any = e  # a click exception; its attributes depend on its class
    if isinstance(e, NoSuchOption):
        reason = "no such option"
        if err.possibilities:
            reason += f" (did you mean {', '.join(sorted(err.possibilities))}?)"
        return f"{err.option_name}: {reason}"
    if isinstance(e, MissingParameter):
        subject = _param_subject(err.param, err.param_hint)
        kind = err.param_type or getattr(err.param, "param_type_name", None) or "parameter"
        return f"{subject}: missing {kind}"
    if isinstance(e, BadParameter):
        subject = _param_subject(err.param, err.param_hint)
        return f"{subject}: {_reason(err.message)}"
    if isinstance(e, BadOptionUsage):
        reason = re.sub(r"^Option '[^']*' ", "", err.message)
        return f"{err.option_name}: {_reason(reason)}"
    message = str(err.format_message())
    if isinstance(e, UsageError):
        match = re.match(r"No such command '([^']*)'", message)
        if match:
            return f"{match.group(1)}: no such command"
        if message.startswith("Missing command"):
            return (
                "COMMAND: missing command (one of: run, reproduce, sweep, results, plot, report, "
                "bench, schema, scenarios, live)"
            )
        if message.startswith("Got unexpected extra argument"):
            return f"arguments: {_reason(message)}"
    return f"usage: {_reason(message)}"


def _param_subject(param: Any, hint: object) -> str:
    """An option's longest flag (``--seed``) or an argument's name (``SCENARIO``)."""
    opts = getattr(param, "opts", None)
    if opts and str(opts[0]).startswith("-"):
        return str(max(opts, key=len))
    if param is not None:
        metavar = getattr(param, "metavar", None)
        if isinstance(metavar, str) and metavar:
            return metavar
        name = getattr(param, "name", None)
        if name:
            return str(name).upper()
    if isinstance(hint, str) and hint:
        return hint
    if isinstance(hint, Sequence) and hint:
        return " / ".join(str(h) for h in hint)
    return "option"


def _reason(message: str) -> str:
    """Click's sentence as a reason: no trailing period, lower-case first word."""
    text = " ".join(message.split()).rstrip(".")
    text = text.removeprefix("Value error, ")  # typer's pydantic-based coercion
    if len(text) >= 2 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text


def _describe_os_error(e: OSError) -> str:
    subject = e.filename if e.filename is not None else "file"
    reason = e.strerror or str(e)
    return f"{subject}: {_reason(reason)}"


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


_loading.done()  # the last line: from here on run_cli handles a Ctrl-C
