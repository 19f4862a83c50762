"""Errors the command line reports as one line (``lasthop: error: FIELD: reason``, exit
code 2). They live apart from the modules that raise them so that the command line can
catch them without importing DuckDB, pandas or Dask on every start."""

from __future__ import annotations


class PlanError(ValueError):
    """An invalid sweep plan: one line ``FIELD: reason``."""


class StoreError(Exception):
    """The results store cannot be opened or read; one line naming the path."""


class RunFailed(Exception):
    """A run that failed inside the engine (its event budget spent, an internal error):
    not bad input, so one line and exit code 1."""


def engine_failure(e: BaseException) -> str | None:
    """The one-line message of a run's failure inside the engine, or ``None`` if ``e`` is
    not one: the engine's ``RuntimeError`` (``max_events``, an invariant) or a Rust panic
    (pyo3's ``PanicException``, a ``BaseException``)."""
    if isinstance(e, RuntimeError):
        return str(e)
    if type(e).__name__ == "PanicException":
        return f"internal error (a bug in lasthop): {e}"
    return None
