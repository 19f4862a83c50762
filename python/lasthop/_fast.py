"""The ``lasthop`` script's entry point: the two answers that need no command line
machinery, then the command line.

``lasthop --help`` and ``lasthop --version`` are what a user types first and most
often, and importing typer alone takes about as long as the 100 ms start-up budget of
issue 10 (item 7). So they are answered here, without typer: the version from the core,
the help from :data:`HELP`, typer's own rendering of it at 80 columns (click never wraps
help wider), used only where the terminal has at least 80 columns. A test renders the
help through typer and checks it against :data:`HELP`, so a change to the commands that
leaves it stale fails the tests. ``lasthop live`` (but its help) is the native command's:
this process becomes it (:mod:`lasthop.native`). Everything else goes to
:func:`lasthop.cli.main`.
"""

from __future__ import annotations

import shutil
import sys

HELP = """\
Usage: lasthop [OPTIONS] COMMAND [ARGS]...

  Deterministic packet-level simulation of TCP over lossy wireless last hops.

Options:
  --version  Print the version and exit.
  --help     Show this message and exit.

Commands:
  run        Run a scenario and print its flow and link metrics.
  reproduce  Reproduce the source documents' headline tables beside the...
  bench      Time the engine, on one core without traces: wall and CPU...
  schema     Print the JSON Schema of scenarios (the text...
  scenarios  List the embedded scenarios (usable by name wherever a...
  sweep      Run a plan's runs not yet stored (a grid of overrides times...
  results    List, filter and export the stored runs (one row per run).
  plot       Draw one of the papers' figures from stored runs (lasthop...
  report     Write a self-contained HTML report (tables and the papers'...
  live       Run a scenario on real packets: a network namespace per...
"""
"""``lasthop --help`` as typer renders it at 80 columns (see tests/test_startup.py)."""


def main() -> None:
    """Entry point of the ``lasthop`` script and of ``python -m lasthop``."""
    args = sys.argv[1:]
    if args == ["--version"]:
        from lasthop._core import __version__

        sys.stdout.write(f"lasthop {__version__}\n")
        return
    if args == ["--help"] and shutil.get_terminal_size().columns >= 80:
        sys.stdout.write(HELP)
        return
    if args[:1] == ["live"]:
        from lasthop import native

        if not native.asks_help(args[1:]):
            native.exec_live(args[1:])
    from lasthop.cli import main as cli_main

    cli_main()
