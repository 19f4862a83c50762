"""Type stub of ``lasthop._core``, the PyO3 module built from crates/lasthop-py.

The public API lives in ``lasthop`` (``python/lasthop/__init__.py``); this module is the
thin boundary to the Rust engine. Scenario text goes in, JSON summaries and raw columnar
trace buffers come out.
"""

from typing import final

__all__ = [
    "__version__",
    "RunOutput",
    "ScenarioError",
    "bench",
    "bench_cases",
    "cc_names",
    "embedded_scenarios",
    "run",
    "schema",
    "validate",
    "variant_names",
]

__version__: str

class ScenarioError(ValueError):
    """An invalid scenario or override; the message is one line ``FIELD.PATH: reason``."""

@final
class RunOutput:
    """What one simulation run produced."""

    summary_json: str
    """JSON text of the run's summary: seed, scenario, sim_time_s, events, flows, links."""

    def tables(self) -> dict[str, dict[str, tuple[str, bytes] | list[str]]]:
        """Trace tables by name (``window``, ``sent``, ``acks``, ``events``, ``drops``,
        ``local_rexmits``, ``send_rate``).

        Each table maps a column name to either ``(numpy dtype string, little-endian raw
        bytes)`` for numeric and boolean columns, or a ``list[str]`` for string columns.
        """

    captures: list[tuple[str, str]]
    """Each capture the run was asked for, in order: ``(spec as given, canonical label)``,
    the label being ``link`` or ``link:from->to``."""

    def pcap(self, index: int) -> bytes:
        """The libpcap file (nanosecond timestamps, Ethernet) of capture ``index``;
        ``IndexError`` if there is none."""

def run(
    text: str,
    seed: int,
    sets: list[str],
    trace: bool,
    origin: str,
    fmt: str,
    *,
    pcap: list[str] = ...,
    snaplen: int = ...,
) -> RunOutput:
    """Run the scenario ``text`` (``fmt`` is ``"toml"`` or ``"json"``) with ``seed``.

    ``sets`` holds ``"name=value"`` / ``"a.b.c=value"`` overrides; ``origin`` is the file
    name used in messages. ``pcap`` names link directions to capture, each
    ``LINK[:DIRECTION]`` (default none); ``snaplen`` is the bytes kept per frame (default
    128). Raises ``ScenarioError`` for an invalid scenario, override or capture spec.
    """

def validate(text: str, sets: list[str], origin: str, fmt: str) -> None:
    """Check a scenario and its overrides without running it; raises ``ScenarioError``."""

def cc_names() -> list[str]:
    """The congestion controllers' names (``tcp.cc``)."""

def variant_names() -> list[str]:
    """The variants' names (``tcp.variant``)."""

def schema() -> str:
    """The JSON Schema of scenarios, as JSON text."""

def embedded_scenarios() -> dict[str, str]:
    """The scenarios compiled into the module, by name (``"balakrishnan97/lan"``) -> TOML."""

def bench_cases() -> list[str]:
    """The engine's benchmark cases (see :func:`bench`), in the order they run."""
    ...

def bench(repeats: int, cases: list[str] = ..., scale_runs: int = ...) -> str:
    """Time the benchmark ``cases`` (all when empty: ``lan``, ``path-1``, ``path-1000``,
    ``bdp-17k``, ``dumbbell-1``, ``dumbbell-5000``), on one core with tracing off: ``lan``
    about ``repeats`` runs (whole batches of 10), each scale case ``scale_runs`` runs
    (default 3). JSON text: a list with one object per case, in that order: ``case``,
    ``scenario``, ``runs``, ``events_per_run``, ``load_ms``, wall and CPU ms per run
    (``wall_ms_per_run``, ``cpu_ms_per_run``, best, and ``..._median``), ``events_per_s``
    (per CPU second, best and ``_median``), ``ns_per_event`` (CPU, median),
    ``sim_s_per_s``, ``reference`` (the one-flow case compared with, or null) and
    ``ns_per_event_ratio``. ``ValueError`` names an unknown case before anything runs."""
