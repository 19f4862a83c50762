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
    "embedded_scenarios",
    "run",
    "schema",
    "validate",
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
        """Trace tables by name (``window``, ``sent``, ``acks``, ``events``, ``drops``).

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

def schema() -> str:
    """The JSON Schema of scenarios, as JSON text."""

def embedded_scenarios() -> dict[str, str]:
    """The scenarios compiled into the module, by name (``"balakrishnan97/lan"``) -> TOML."""

def bench(repeats: int) -> str:
    """Time ``repeats`` runs (whole batches of 10) of the benchmark scenario; JSON text with
    ``events_per_s`` and ``ms_per_run`` of the fastest batch, ``events_per_s_median`` and
    ``ms_per_run_median`` of the median batch, ``events_per_run``, ``runs`` and ``scenario``."""
