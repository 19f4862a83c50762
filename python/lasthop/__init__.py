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
from typing import Any

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
    "load_scenario_text",
    "run",
    "run_source",
    "schema",
    "validate",
]

_SEED_MAX = 2**64 - 1


def run(
    scenario: ScenarioLike,
    seed: int = 1,
    set: SetLike = None,
    trace: bool = True,
) -> RunResult:
    """Run ``scenario`` once with ``seed``.

    ``set`` overrides parameters (``["socket_buffer_bytes=8192"]``) or any field
    (``["flows.0.tcp.variant=newreno"]``), as ``lasthop run --set`` does. With
    ``trace=False`` the engine records no time series and the tables are empty.
    """
    return run_source(load_scenario_text(scenario), seed, set, trace)


def run_source(
    source: ScenarioSource, seed: int = 1, set: SetLike = None, trace: bool = True
) -> RunResult:
    """:func:`run` for a scenario already found by :func:`load_scenario_text` (the CLI
    reads the file once and runs it for many seeds)."""
    sets = normalize_sets(set)
    output = _core.run(source.text, _check_seed(seed), sets, bool(trace), source.origin, source.fmt)
    return RunResult(output)


def validate(scenario: ScenarioLike, set: SetLike = None) -> None:
    """Check ``scenario`` with its overrides without running it; raises ``ScenarioError``."""
    source = load_scenario_text(scenario)
    _core.validate(source.text, normalize_sets(set), source.origin, source.fmt)


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
