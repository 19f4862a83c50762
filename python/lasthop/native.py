"""The native ``lasthop`` command (the Rust program of ``crates/lasthop-cli``) as Python
finds and calls it: ``lasthop live`` is the native program's alone (issue 33), so the
Python command hands it every ``live`` command line but a request for help.

The native command is ``$LASTHOP_NATIVE`` when set, else the ``lasthop`` beside this
interpreter (where ``scripts/install.sh`` puts it), else the one on PATH, and only if it
is the native program: a Python entry-point script named ``lasthop`` would hand ``live``
back to Python. Imports nothing but the standard library's basics: ``lasthop live``
through ``python -m lasthop`` starts no more of lasthop than this.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final, NoReturn

NATIVE_ENV: Final = "LASTHOP_NATIVE"
"""The environment variable that names the native ``lasthop`` command."""

HANDED_ENV: Final = "LASTHOP_LIVE_FROM_PYTHON"
"""Set on the native command Python hands ``live`` to: a native command that has no
``live`` (built for another system, or before it had one) hands the command line back to
Python, which then says so instead of handing it on again."""

INTERRUPT_GRACE_S: Final = 30.0
"""How long a live run stopped by Ctrl-C may take to remove its namespaces and devices
before it is killed."""

EXIT_USAGE: Final = 2


def is_native(path: str | Path) -> bool:
    """Whether ``path`` is an executable ELF program (the native command, not a script)."""
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError:
        return False
    return magic == b"\x7fELF" and os.access(path, os.X_OK)


def native_command() -> str | None:
    """The native ``lasthop`` command, or ``None`` (see the module's header)."""
    named = os.environ.get(NATIVE_ENV)
    if named:
        return named if is_native(named) else None
    beside = Path(sys.executable).parent / "lasthop"
    if is_native(beside):
        return str(beside)
    found = shutil.which("lasthop")
    return found if found is not None and is_native(found) else None


def missing_reason() -> str:
    """Why :func:`native_command` found none, in a line."""
    named = os.environ.get(NATIVE_ENV)
    if named:
        return f"{NATIVE_ENV}={named} is not the native lasthop command"
    return (
        "needs the native lasthop command (crates/lasthop-cli), beside the interpreter or "
        "on PATH; scripts/install.sh builds it"
    )


def asks_help(args: Sequence[str]) -> bool:
    """Whether ``lasthop live ARGS`` asks for help (``--help`` before any ``--``): Python's
    to answer, the rest is the native command's."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--help":
            return True
    return False


def _live_command(args: Sequence[str]) -> list[str] | str:
    """The native ``live`` command line for ``args``, or why there is none."""
    if os.environ.get(HANDED_ENV):
        return "the native lasthop command has no live (rebuild it: scripts/install.sh)"
    native = native_command()
    if native is None:
        return missing_reason()
    return [native, "live", *args]


def _refuse(why: str) -> int:
    sys.stderr.write(f"lasthop: error: live: {why}\n")
    sys.stderr.flush()
    return EXIT_USAGE


def exec_live(args: Sequence[str]) -> NoReturn:
    """Become the native ``lasthop live ARGS`` (the ``lasthop`` script's way: no Python
    stays around a run of minutes); exit code 2 with one line when there is none."""
    command = _live_command(args)
    if isinstance(command, str):
        sys.exit(_refuse(command))
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(command[0], command, {**os.environ, HANDED_ENV: "1"})


def call_live(args: Sequence[str]) -> int:
    """Run the native ``lasthop live ARGS`` and return its exit code (for
    :func:`lasthop.cli.run_cli` called from Python, which must return).

    A Ctrl-C is the run's to handle (it removes what it made): it gets the signal too,
    and it is waited for, :data:`INTERRUPT_GRACE_S` at most, before ``KeyboardInterrupt``
    goes on."""
    command = _live_command(args)
    if isinstance(command, str):
        return _refuse(command)
    proc = subprocess.Popen(command, env={**os.environ, HANDED_ENV: "1"})
    return wait(proc)


def wait(proc: subprocess.Popen[str] | subprocess.Popen[bytes]) -> int:
    """Wait for a live run; on Ctrl-C (or any exception) send it SIGINT and give it
    :data:`INTERRUPT_GRACE_S` to clean up before it is killed, then re-raise."""
    try:
        return proc.wait()
    except BaseException:
        stop(proc)
        raise


def stop(proc: subprocess.Popen[str] | subprocess.Popen[bytes]) -> None:
    """Ask a live run to stop (SIGINT: it removes every namespace and device it made)
    and wait for it; kill it after :data:`INTERRUPT_GRACE_S`."""
    try:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=INTERRUPT_GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class NativeFailed(Exception):
    """The native command exited non-zero: its last error line (without the
    ``lasthop: error:`` prefix; ``None`` when it wrote none) and its exit code."""

    def __init__(self, line: str | None, returncode: int) -> None:
        super().__init__(line or f"exit code {returncode}")
        self.line = line
        self.returncode = returncode


def output_of(command: str, args: Sequence[str]) -> str:
    """Run the native ``command ARGS`` (a live run) and return what it printed; a Ctrl-C
    reaches the run, which is waited for (:func:`stop`) before ``KeyboardInterrupt`` goes
    on. :class:`NativeFailed` when it fails."""
    proc = subprocess.Popen(
        [command, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, HANDED_ENV: "1"},
    )
    try:
        out, err = proc.communicate()
    except BaseException:
        stop(proc)
        raise
    if proc.returncode != 0:
        lines = [line for line in err.splitlines() if line.strip()]
        line = lines[-1].strip().removeprefix("lasthop: error: ") if lines else None
        raise NativeFailed(line, proc.returncode)
    return out
