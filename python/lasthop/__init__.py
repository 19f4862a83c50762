"""lasthop: a deterministic packet-level simulator of TCP over lossy wireless last hops.

The engine is Rust (``lasthop._core``); this package is its Python front::

    import lasthop
    result = lasthop.run("balakrishnan97/lan", seed=1, set=["socket_buffer_bytes=8192"])
    result.flows[0]["throughput_bps"]
    result.window.to_pandas()        # cwnd/ssthresh over time, as a DataFrame

A scenario is a file path, an embedded scenario name, TOML text or a dict. An invalid
scenario or override raises :class:`ScenarioError`, whose message is one line
``FIELD.PATH: reason``.
"""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lasthop import _core
from lasthop._core import ScenarioError, __version__
from lasthop.result import TABLE_NAMES, RunResult
from lasthop.scenario import (
    ScenarioLike,
    ScenarioSource,
    SetLike,
    embedded_names,
    load_scenario_text,
    normalize_sets,
)

__all__ = [
    "TABLE_NAMES",
    "RunResult",
    "ScenarioError",
    "ScenarioLike",
    "ScenarioSource",
    "SetLike",
    "__version__",
    "embedded_names",
    "load_results",
    "load_scenario_text",
    "load_series",
    "run",
    "run_source",
    "schema",
    "validate",
]

if TYPE_CHECKING:
    import pandas as pd

_SEED_MAX = 2**64 - 1


def run(
    scenario: ScenarioLike,
    seed: int = 1,
    set: SetLike = None,
    trace: bool = True,
    pcap: str | Sequence[str] | None = None,
    snaplen: int = 128,
) -> RunResult:
    """Run ``scenario`` once with ``seed``.

    ``set`` overrides parameters (``["socket_buffer_bytes=8192"]``) or any field
    (``["flows.0.tcp.variant=newreno"]``), as ``lasthop run --set`` does. With
    ``trace=False`` the engine records no time series and the tables are empty.

    ``pcap`` names link directions to capture as libpcap files, each ``LINK[:DIRECTION]``
    (``"wireless:bs->mh"``, ``"wireless:bs"``, or ``"wireless"`` for both directions);
    ``snaplen`` is the bytes kept of each frame. Read them with :meth:`RunResult.pcap`.
    """
    return run_source(load_scenario_text(scenario), seed, set, trace, pcap, snaplen)


def run_source(
    source: ScenarioSource,
    seed: int = 1,
    set: SetLike = None,
    trace: bool = True,
    pcap: str | Sequence[str] | None = None,
    snaplen: int = 128,
) -> RunResult:
    """:func:`run` for a scenario already found by :func:`load_scenario_text` (the CLI
    reads the file once and runs it for many seeds)."""
    sets = normalize_sets(set)
    specs = [pcap] if isinstance(pcap, str) else [str(spec) for spec in pcap or ()]
    output = _core.run(
        source.text,
        _check_seed(seed),
        sets,
        bool(trace),
        source.origin,
        source.fmt,
        pcap=specs,
        snaplen=operator.index(snaplen),
    )
    return RunResult(output)


def validate(scenario: ScenarioLike, set: SetLike = None) -> None:
    """Check ``scenario`` with its overrides without running it; raises ``ScenarioError``."""
    source = load_scenario_text(scenario)
    _core.validate(source.text, normalize_sets(set), source.origin, source.fmt)


def load_results(path: str | os.PathLike[str] | None = None, **filters: Any) -> pd.DataFrame:
    """The runs in the results store at ``path`` (default
    ``lasthop-results/lasthop.duckdb``) as a DataFrame, one row per run (a run of several
    flows as the sum over its flows); ``filters`` are those of
    :func:`lasthop.store.load_results` (``plan``, ``status``, ``where``, and ``flow`` or
    ``aggregate`` for one flow's rows or the mean or Jain's index over them)."""
    from lasthop import store  # DuckDB and pandas load only when results are read

    return store.load_results(path, **filters)


def load_series(table: str, path: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """One time-series table (``window``, ``sent``, ...) of the stored runs, with the run
    key in front (see :func:`lasthop.store.load_series`)."""
    from lasthop import store

    return store.load_series(table, path)


def schema() -> dict[str, Any]:
    """The JSON Schema of scenarios."""
    parsed: dict[str, Any] = json.loads(_core.schema())
    return parsed


def _check_seed(seed: int) -> int:
    try:
        value = operator.index(seed)
    except TypeError:
        raise TypeError(f"seed must be an integer, not {type(seed).__name__}") from None
    if not 0 <= value <= _SEED_MAX:
        raise ValueError(f"seed must be in 0..{_SEED_MAX}, got {value}")
    return value
