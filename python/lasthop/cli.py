"""The ``lasthop`` command line: run, reproduce, bench, schema, scenarios.

Contract for bad input: an invalid scenario, a bad ``--set``, a missing file, a bad or
unknown option each give exactly one line on stderr, ``lasthop: error: <field or
option>: <reason>``, nothing on stdout, and exit code 2. Click's usage boxes are never
shown: the command runs with ``standalone_mode=False`` and :func:`main` formats what it
raises. Every command computes everything before it prints anything, so a failure never
leaves partial output.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

import lasthop
from lasthop import _core, render
from lasthop.papers.reproduce import reproduce
from lasthop.scenario import check_set, embedded_names, load_scenario_text
from lasthop.summary import mean_summary

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

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


class Format(StrEnum):
    """Output format: a table for people, JSON for programs."""

    table = "table"
    json = "json"


class Which(StrEnum):
    """What ``lasthop reproduce`` reproduces."""

    all = "all"
    balakrishnan97_baseline = "balakrishnan97-baseline"
    balakrishnan97_table3 = "balakrishnan97-table3"
    elaarag02 = "elaarag02"


FormatOption = Annotated[
    Format, typer.Option("--format", help="Output format.", case_sensitive=False)
]


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
    fmt: FormatOption = Format.table,
    trace: Annotated[
        bool, typer.Option("--trace/--no-trace", help="Record the time-series traces.")
    ] = True,
) -> None:
    """Run a scenario and print its flow and link metrics."""
    if seed is not None and seeds is not None:
        raise typer.BadParameter("cannot be used together with --seed", param_hint="--seeds")
    overrides = list(sets or [])
    for item in overrides:
        reason = check_set(item)
        if reason is not None:
            raise typer.BadParameter(reason, param_hint="--set")
    source = load_scenario_text(scenario)
    seed_list = list(range(1, seeds + 1)) if seeds is not None else [1 if seed is None else seed]
    # Every seed runs before anything is printed: a failure leaves no partial output.
    runs = [lasthop.run_source(source, s, overrides, trace).summary for s in seed_list]

    if seeds is None:
        document: dict[str, Any] = runs[0]
    else:
        document = {"runs": runs, "mean": mean_summary(runs)}
    if fmt is Format.json:
        _print_json(document)
        return
    if seeds is None:
        title = f"{runs[0].get('scenario') or source.origin}, seed {seed_list[0]}"
        flows, links = runs[0]["flows"], runs[0]["links"]
        published = runs[0].get("published")
    else:
        title = f"{runs[0].get('scenario') or source.origin}, mean of seeds 1..{seeds}"
        flows, links = document["mean"]["flows"], document["mean"]["links"]
        published = document["mean"].get("published")
    console = _console()
    console.print(render.flows_table(flows, f"{title}: flows"))
    console.print(render.links_table(links, f"{title}: links"))
    if published is not None:
        console.print(render.published_table(published, f"{title}: against the paper"))


@app.command("reproduce")
def reproduce_command(
    which: Annotated[
        Which, typer.Argument(help="Which experiments to reproduce.", case_sensitive=False)
    ] = Which.all,
    seeds: Annotated[int, typer.Option("--seeds", min=1, help="Seeds 1..N per cell.")] = 10,
    fmt: FormatOption = Format.table,
) -> None:
    """Reproduce the source documents' headline tables beside the published numbers."""
    cells = reproduce(which.value, seeds)
    if fmt is Format.json:
        _print_json(cells)
        return
    console = _console()
    if which in (Which.all, Which.balakrishnan97_baseline):
        console.print(render.balakrishnan_table(cells, seeds))
    if which in (Which.all, Which.balakrishnan97_table3):
        console.print(render.table3(cells, seeds))
    if which in (Which.all, Which.elaarag02):
        console.print(render.elaarag_table(cells, seeds))


@app.command("bench")
def bench_command(
    repeats: Annotated[
        int,
        typer.Option(
            "--repeats", min=1, help="Timed runs, in batches of 10 (best and median batch)."
        ),
    ] = 100,
    fmt: FormatOption = Format.table,
) -> None:
    """Time 8 MB transfers over the 1997 LAN shape with one error per 64 KB."""
    result = json.loads(_core.bench(repeats))
    if fmt is Format.json:
        _print_json(result)
    else:
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


def _print_json(document: object) -> None:
    # indent=2, keys in the core's order, floats as Python prints them: the same inputs
    # give the same bytes.
    sys.stdout.write(json.dumps(document, indent=2, sort_keys=False) + "\n")


def _console() -> Console:
    # A terminal gets its own width; a pipe or file gets 140 columns (rich would assume
    # 80 and wrap the reproduction table) unless COLUMNS says otherwise.
    piped = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    return Console(
        highlight=False, soft_wrap=False, emoji=False, markup=False, width=140 if piped else None
    )


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the ``lasthop`` script and of ``python -m lasthop``."""
    sys.exit(run_cli(argv))


def run_cli(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = typer.main.get_command(app)
    try:
        result = command.main(args=args, prog_name="lasthop", standalone_mode=False)
    except (typer.Abort, KeyboardInterrupt):
        _error("interrupted")
        return EXIT_INTERRUPTED
    except ClickException as e:
        _error(describe_click_error(e))
        return EXIT_USAGE
    except _core.ScenarioError as e:
        _error(str(e))
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (`lasthop scenarios | head -1`); say nothing more.
        _silence_stdout()
        return 1
    except OSError as e:
        _error(_describe_os_error(e))
        return EXIT_USAGE
    return result if isinstance(result, int) else 0


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
            return "COMMAND: missing command (one of: run, reproduce, bench, schema, scenarios)"
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
