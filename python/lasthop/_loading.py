"""Ctrl-C while the command line loads: one line and exit code 130, not a traceback.

:mod:`lasthop.cli` imports this module before typer, which takes most of the command
line's start-up; importing it makes SIGINT end the process at once with
``lasthop: error: interrupted`` (nothing has been done that needs undoing), and
:func:`done`, at the end of :mod:`lasthop.cli`, puts the previous handler back, so that
a program that imports the command line keeps its own. From then on
:func:`lasthop.cli.run_cli` handles SIGINT. Nothing changes where SIGINT is ignored (a
background job) or handled by someone else, or outside the main thread.
"""

from __future__ import annotations

import os
import signal
import threading

EXIT_INTERRUPTED = 130


def _on_sigint(signum: int, frame: object) -> None:
    os.write(2, b"lasthop: error: interrupted\n")
    os._exit(EXIT_INTERRUPTED)


_installed = (
    threading.current_thread() is threading.main_thread()
    and signal.getsignal(signal.SIGINT) is signal.default_int_handler
)
if _installed:
    signal.signal(signal.SIGINT, _on_sigint)


def done() -> None:
    """Put back the handler this module replaced (Python's, raising KeyboardInterrupt)."""
    global _installed
    if _installed and signal.getsignal(signal.SIGINT) is _on_sigint:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _installed = False
