"""Errors the command line reports as one line (``lasthop: error: FIELD: reason``, exit
code 2). They live apart from the modules that raise them so that the command line can
catch them without importing DuckDB, pandas or Dask on every start."""

from __future__ import annotations


class PlanError(ValueError):
    """An invalid sweep plan: one line ``FIELD: reason``."""


class StoreError(Exception):
    """The results store cannot be opened or read; one line naming the path."""
