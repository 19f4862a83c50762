"""Start-up (issue 10, item 7): the command line's short paths load none of the heavy
modules, and a Ctrl-C while it loads is the one line of any other Ctrl-C.

Timing is benchmarks/startup.py's business; this checks the structure that the timing
rests on: ``lasthop --help`` and ``lasthop run`` (summaries only) never import numpy,
pyarrow, pandas, DuckDB, matplotlib or Dask, nor pydantic, which typer imports to
convert a value that lasthop.cli's own converter leaves to it. Each check runs in a fresh
interpreter, so a module that any other test imported cannot hide one that creeps back.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

import lasthop
from lasthop import _fast, cli

HEAVY = ("numpy", "pyarrow", "pandas", "duckdb", "matplotlib", "dask", "pydantic")

# Runs the command line in this process, its output thrown away, then prints which of
# the heavy packages (or their submodules) were loaded.
LOADED = """\
import contextlib, io, json, sys
heavy = json.loads(sys.argv[1])
def loaded():
    return sorted({m.split(".")[0] for m in sys.modules if m.split(".")[0] in heavy})
before = loaded()
code = None
if sys.argv[2] == "import":
    import importlib
    importlib.import_module(sys.argv[3])
else:
    from lasthop.cli import run_cli
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = run_cli(sys.argv[3:])
print(json.dumps({"before": before, "after": loaded(), "code": code}))
"""


def loaded_by(*how: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", LOADED, json.dumps(HEAVY), *how],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    found: dict[str, Any] = json.loads(proc.stdout)
    if found["before"]:
        pytest.skip(f"the interpreter loads {found['before']} before any lasthop code")
    return found


def test_the_cli_names_the_same_heavy_modules() -> None:
    assert set(HEAVY) <= set(cli.HEAVY_MODULES)


@pytest.mark.parametrize("module", ["lasthop", "lasthop.cli"])
def test_importing_loads_nothing_heavy(module: str) -> None:
    found = loaded_by("import", module)
    assert found["after"] == [], f"import {module} loads {found['after']}"


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["run", "--help"],
        ["run", "balakrishnan97/lan", "--format", "json"],
        ["run", "balakrishnan97/lan"],
        ["run", "balakrishnan97/lan", "--seeds", "2", "--seed", "1"],
        ["run", "balakrishnan97/lan", "--seeds", "2", "--format", "JSON"],
        ["run", "balakrishnan97/lan", "--seed", "7", "--set", "socket_buffer_bytes=8192"],
        ["run", "balakrishnan97/lan", "--set", "bogus=1"],
        ["run", "nosuch"],
        ["scenarios"],
        ["schema"],
    ],
    ids=" ".join,
)
def test_short_commands_load_nothing_heavy(args: list[str]) -> None:
    found = loaded_by("run", *args)
    assert found["code"] in (0, 2), found
    assert found["after"] == [], f"lasthop {' '.join(args)} loads {found['after']}"


def test_the_tables_of_a_run_load_numpy_and_pyarrow_when_asked_for() -> None:
    """The trace tables are Arrow tables: lasthop.run is cheap until one is read."""
    script = (
        "import sys, lasthop\n"
        "r = lasthop.run('balakrishnan97/lan', trace=False)\n"
        "print('numpy' in sys.modules, 'pyarrow' in sys.modules)\n"
        "r.window\n"
        "print('numpy' in sys.modules, 'pyarrow' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.split("\n")[:2] == ["False False", "True True"]


# -- lasthop.cli's converter agrees with typer's own -------------------------------------

VALUES: list[Any] = [
    "", "0", "1", "7", "007", "00", "-0", "-1", "+2", " 3", "3 ", "1_0", "2.0", "1e1",
    "0x10", "abc", "\uff15", "262144", "262145", "18446744073709551615",
    "18446744073709551616", "9" * 40, "json", "JSON", "Json", "table", "xml", "fig12",
    "balakrishnan97", "Balakrishnan97-Table3", "local", "DASK", "error-rate", "0.01",
    "0.001", "true", "no", "a=1", "sc\u00e9nario", "\udcff", 0, 1, 2**64, -1, 2.0, 0.001,
    True, False, ["a=1", "b=2"], ("x",), [], ["\udcff"], [1], Path("plan.toml"), Path(""),
    "/", ".", "-",
]  # fmt: skip


def outcome(convert: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        return "value", convert(value, param=param, ctx=ctx)
    except Exception as e:
        return type(e).__name__, str(e)


def test_plain_values_convert_as_typer_does() -> None:
    """Every parameter of every command, with values plain and odd: lasthop's converter
    gives what typer's gives, the same value or the same error."""
    command = typer.main.get_command(cli.app)
    cli._plain_values(command)
    checked = 0
    for cmd in [command, *command.commands.values()]:  # type: ignore[attr-defined]
        ctx = typer.Context(cmd)
        for param in cmd.get_params(ctx):
            plain = param.get_runtime_param()
            assert isinstance(plain, cli._PlainValue), (cmd.name, param.name)
            own = plain.typer_runtime_param()
            for value in [None, *VALUES]:
                ours = outcome(plain.coerce, value, param, ctx)
                theirs = outcome(own.coerce, value, param, ctx)
                assert ours == theirs, (cmd.name, param.name, value)
                checked += 1
    assert checked > 1000


def test_plain_values_take_the_plain_cases_without_typer() -> None:
    """The common values are converted without typer's converter (and pydantic)."""
    command = typer.main.get_command(cli.app)
    cli._plain_values(command)
    run = command.commands["run"]  # type: ignore[attr-defined]
    ctx = typer.Context(run)
    params = {p.name: p.get_runtime_param() for p in run.get_params(ctx)}
    plain = [
        ("scenario", "balakrishnan97/lan", "balakrishnan97/lan"),
        ("seed", "18446744073709551615", 2**64 - 1),
        ("seeds", "10", 10),
        ("sets", ("a=1", "b=2"), ["a=1", "b=2"]),
        ("fmt", "JSON", cli.RunFormat.json),
        ("fmt", "csv", cli.RunFormat.csv),
        ("fmt", cli.RunFormat.table, cli.RunFormat.table),
        ("indent", "2", 2),
        ("out", "flows.csv", "flows.csv"),
        ("snaplen", "128", 128),
        ("trace", False, False),
    ]
    for name, value, expected in plain:
        assert params[name].plain(value, ctx) == expected, name
    for name, value in [("seed", "-1"), ("seed", "1_0"), ("fmt", "xml"), ("snaplen", "0")]:
        assert params[name].plain(value, ctx) is cli._NOT_PLAIN, (name, value)
    # A sweep's plan and store are paths: converted without typer's pydantic adapter.
    sweep = command.commands["sweep"]  # type: ignore[attr-defined]
    ctx = typer.Context(sweep)
    params = {p.name: p.get_runtime_param() for p in sweep.get_params(ctx)}
    for name in ("plan_file", "store"):
        assert params[name].plain("a/b.toml", ctx) == Path("a/b.toml"), name


# -- Ctrl-C while the command line loads ------------------------------------------------

# As a terminal's foreground process (a test run in the background may inherit SIGINT
# ignored), then SIGINT to itself at a chosen point of the start-up: as typer is about to
# be imported, or as the command is about to be built.
SHIM = """\
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
where = sys.argv.pop(1)

class InterruptOnImport:
    def find_spec(self, name, path=None, target=None):
        if where == "import" and name == "typer":
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, InterruptOnImport())
import lasthop.cli
if where == "build":
    import typer.main
    get_command = typer.main.get_command
    def interrupted_get_command(app):
        os.kill(os.getpid(), signal.SIGINT)
        return get_command(app)
    typer.main.get_command = interrupted_get_command
lasthop.cli.main(sys.argv[1:])
"""


@pytest.mark.parametrize("where", ["import", "build"])
def test_ctrl_c_while_loading_is_one_line(where: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SHIM, where, "run", "balakrishnan97/lan", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        start_new_session=True,
    )
    assert proc.stderr == "lasthop: error: interrupted\n"
    assert proc.stdout == ""
    assert proc.returncode == 130


def test_importing_the_cli_leaves_sigint_alone() -> None:
    """The start-up's handler is put back once lasthop.cli is loaded: a program that
    imports the command line keeps Python's KeyboardInterrupt."""
    script = (
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import lasthop.cli\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert proc.stdout == "True\n"


def _script(*args: str, columns: str) -> subprocess.CompletedProcess[str]:
    """``python -m lasthop ARGS`` (the fast entry point) at a terminal width."""
    return _python("-m", "lasthop", *args, columns=columns)


def _typer(*args: str, columns: str) -> str:
    """What the typer command line itself prints for ``ARGS`` at a terminal width."""
    code = f"from lasthop.cli import run_cli; run_cli({list(args)!r})"
    proc = _python("-c", code, columns=columns)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _python(*argv: str, columns: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": columns},
    )


def test_the_fast_help_is_typers_help() -> None:
    """``lasthop --help`` is answered without typer from lasthop._fast.HELP: it must be
    exactly what typer renders at 80 columns (regenerate HELP from the printed text
    when a command's help changes)."""
    text = _typer("--help", columns="80")
    assert _fast.HELP == text, f"lasthop._fast.HELP is stale; typer renders:\n{text}"
    # Wider terminals get the same text from typer, and from the fast path.
    for columns in ("80", "200"):
        assert _typer("--help", columns=columns) == text
        fast = _script("--help", columns=columns)
        assert (fast.returncode, fast.stdout, fast.stderr) == (0, text, "")


def test_help_in_a_narrow_terminal_and_version_as_typer_gives_them() -> None:
    narrow = _script("--help", columns="50")
    assert narrow.returncode == 0 and narrow.stdout != _fast.HELP
    assert max(map(len, narrow.stdout.splitlines())) <= 50
    version = _script("--version", columns="80")
    assert (version.returncode, version.stdout) == (0, _typer("--version", columns="80"))
    assert version.stdout == f"lasthop {lasthop.__version__}\n"


def test_the_fast_paths_load_no_typer() -> None:
    code = (
        "import sys; sys.argv = ['lasthop', sys.argv[1]]\n"
        "import contextlib, io\n"
        "from lasthop import _fast\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    _fast.main()\n"
        "print('typer' in sys.modules, 'rich' in sys.modules)\n"
    )
    for arg in ("--help", "--version"):
        proc = _python("-c", code, arg, columns="100")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == "False False", (arg, proc.stdout)
