"""The result of one run: its summary and its trace tables as Arrow tables.

The core hands each numeric column over as one little-endian buffer with its numpy dtype;
here it becomes a numpy view (``numpy.frombuffer``, no copy, no per-row Python loop) and
then an Arrow array, so ``.to_pandas()`` and ``polars.from_arrow()`` work directly.
Tables are built on first access: a run read only for its summary never pays for them,
nor for importing numpy and pyarrow (``lasthop run`` prints summaries only, and starts
faster without them).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from lasthop import _core

if TYPE_CHECKING:
    import pyarrow as pa

_TABLE_COLUMNS: Final[dict[str, list[tuple[str, str]]]] = {
    # cwnd and ssthresh of each flow's sender, sampled whenever either changes.
    "window": [
        ("time_ns", "uint64"),
        ("flow", "uint32"),
        ("cwnd_bytes", "uint64"),
        ("ssthresh_bytes", "uint64"),
    ],
    # Every data segment a sender put on the wire (the time-sequence plot).
    "sent": [
        ("time_ns", "uint64"),
        ("flow", "uint32"),
        ("seq", "uint64"),
        ("len", "uint32"),
        ("retransmit", "bool_"),
    ],
    # Every cumulative ack a sender received.
    "acks": [
        ("time_ns", "uint64"),
        ("flow", "uint32"),
        ("ack", "uint64"),
    ],
    # Loss-recovery events: fast_retransmit, timeout, partial_ack, recovery_exit,
    # eln_retransmit; LL-ELSN senders (seed 004) also ersn_received, eln_received,
    # timeout_deferred (an ERSN held the timer off) and disconnection (ELN filtering);
    # move_reset (a sender reset on a move, seed 002).
    "events": [
        ("time_ns", "uint64"),
        ("flow", "uint32"),
        ("kind", "string"),
    ],
    # Packets lost on a link, by cause: error (corruption), queue (overflow), outage,
    # handoff, retry_limit, filtered. seq: a data segment's first byte; an ack's
    # cumulative ack (an LL-ELSN or EBSN notice's, the segment it names).
    "drops": [
        ("time_ns", "uint64"),
        ("link", "string"),
        ("flow", "uint32"),
        ("seq", "uint64"),
        ("is_data", "bool_"),
        ("cause", "string"),
    ],
    # Segments a base-station agent (snoop) sent again from its cache, at the node
    # named; timer: caused by its local timer (else by duplicate acks or a SMART gap).
    "local_rexmits": [
        ("time_ns", "uint64"),
        ("flow", "uint32"),
        ("seq", "uint64"),
        ("len", "uint32"),
        ("node", "string"),
        ("timer", "bool_"),
    ],
    # Sending rate (seed 004 Fig. 16): per flow and 100 ms bin (time_ns its start), the
    # data segments its sender sent and of those the retransmissions; a row per bin
    # from the flow's first segment to its last (0 where it sent nothing).
    "send_rate": [
        ("time_ns", "uint64"),
        ("flow", "uint32"),
        ("segments", "uint32"),
        ("retransmits", "uint32"),
    ],
}
"""The trace tables' columns, each with the name of its pyarrow type factory."""

TABLE_NAMES: Final[tuple[str, ...]] = tuple(_TABLE_COLUMNS)

if TYPE_CHECKING:
    TABLE_SCHEMAS: dict[str, list[tuple[str, Any]]]
    """The documented trace tables, their columns in order and their Arrow types."""

_schemas: dict[str, list[tuple[str, Any]]] = {}


def _table_schemas() -> dict[str, list[tuple[str, Any]]]:
    """:data:`TABLE_SCHEMAS`, built (and pyarrow imported) on first use."""
    if not _schemas:
        import pyarrow as pa

        for name, columns in _TABLE_COLUMNS.items():
            _schemas[name] = [(col, getattr(pa, typ)()) for col, typ in columns]
    return _schemas


def __getattr__(name: str) -> Any:
    # TABLE_SCHEMAS holds pyarrow types: built when first asked for (PEP 562).
    if name == "TABLE_SCHEMAS":
        return _table_schemas()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class TraceTables:
    """The trace tables by name, as properties over :meth:`table` (a simulated run's
    :class:`RunResult` and a live one's ``lasthop.live.LiveResult`` alike)."""

    def table(self, name: str) -> pa.Table:
        raise NotImplementedError

    @property
    def window(self) -> pa.Table:
        """cwnd and ssthresh over time: time_ns, flow, cwnd_bytes, ssthresh_bytes."""
        return self.table("window")

    @property
    def sent(self) -> pa.Table:
        """Data segments sent: time_ns, flow, seq, len, retransmit."""
        return self.table("sent")

    @property
    def acks(self) -> pa.Table:
        """Acks received by senders: time_ns, flow, ack."""
        return self.table("acks")

    @property
    def events(self) -> pa.Table:
        """Loss-recovery events: time_ns, flow, kind."""
        return self.table("events")

    @property
    def drops(self) -> pa.Table:
        """Packets dropped on links: time_ns, link, flow, seq, is_data, cause."""
        return self.table("drops")

    @property
    def local_rexmits(self) -> pa.Table:
        """Local retransmissions by a base-station agent: time_ns, flow, seq, len, node,
        timer."""
        return self.table("local_rexmits")

    @property
    def send_rate(self) -> pa.Table:
        """Sending rate per flow and 100 ms bin (seed 004 Fig. 16): time_ns (the bin's
        start), flow, segments, retransmits."""
        return self.table("send_rate")


class RunResult(TraceTables):
    """One run of a scenario: ``summary`` (a dict, as ``lasthop run --format json`` prints
    it) and the trace tables ``window``, ``sent``, ``acks``, ``events`` and ``drops`` as
    ``pyarrow.Table`` (empty when the run was made with ``trace=False``)."""

    def __init__(self, output: _core.RunOutput) -> None:
        self._output = output
        self.summary: dict[str, Any] = json.loads(output.summary_json)
        self._raw: dict[str, dict[str, tuple[str, bytes] | list[str]]] | None = None
        self._built: dict[str, pa.Table] = {}

    def __repr__(self) -> str:
        return (
            f"RunResult(scenario={self.scenario!r}, seed={self.seed}, "
            f"flows={len(self.flows)}, links={len(self.links)})"
        )

    @property
    def seed(self) -> int:
        """The run's seed."""
        seed: int = self.summary["seed"]
        return seed

    @property
    def scenario(self) -> str:
        """The scenario's name as the core reports it."""
        return str(self.summary.get("scenario", ""))

    @property
    def flows(self) -> list[dict[str, Any]]:
        """Per-flow metrics: throughput_bps, transfer_time_s, retransmits, timeouts, ..."""
        flows: list[dict[str, Any]] = self.summary["flows"]
        return flows

    @property
    def links(self) -> list[dict[str, Any]]:
        """Per-link-direction metrics: goodput (0..1 or None), drops_error, drops_queue, ..."""
        links: list[dict[str, Any]] = self.summary["links"]
        return links

    def flow(self, name: str) -> dict[str, Any]:
        """The metrics of the flow called ``name``; ``KeyError`` if there is none."""
        for flow in self.flows:
            if flow["name"] == name:
                return flow
        raise KeyError(name)

    def link(self, name: str, direction: str) -> dict[str, Any]:
        """The metrics of link ``name`` in ``direction`` (like ``"bs->mh"``); ``KeyError``
        if there is none."""
        for link in self.links:
            if link["name"] == name and link["direction"] == direction:
                return link
        raise KeyError(f"{name} {direction}")

    def to_json(self, indent: int | None = None) -> str:
        """The summary as ``lasthop run --format json`` prints it (without the newline):
        one compact line, or indented by ``indent`` spaces as ``--indent`` does."""
        if indent is None:
            return json.dumps(self.summary, separators=(",", ":"))
        return json.dumps(self.summary, indent=indent)

    def table(self, name: str) -> pa.Table:
        """The trace table ``name`` (one of :data:`TABLE_NAMES`), built on first access."""
        if name not in _TABLE_COLUMNS:
            raise KeyError(f"no table {name!r}; tables are {', '.join(TABLE_NAMES)}")
        table = self._built.get(name)
        if table is None:
            if self._raw is None:
                self._raw = self._output.tables()
            table = build_table(name, self._raw.get(name))
            self._built[name] = table
        return table

    @property
    def pcap_labels(self) -> list[str]:
        """The captures the run made, in the order asked, by canonical name: ``link``
        (both directions) or ``link:from->to``."""
        return [label for _, label in self._output.captures]

    def pcap(self, spec: str | None = None) -> bytes:
        """The libpcap file of the capture ``spec``, written as it was given to
        :func:`lasthop.run` (``"wireless:bs"``) or canonically (``"wireless:bs->mh"``);
        with no ``spec``, the only capture. ``KeyError`` if the run made no such capture."""
        captures = self._output.captures
        if spec is None and len(captures) == 1:
            return self._output.pcap(0)
        for index, (given, label) in enumerate(captures):
            if spec in (given, label):
                return self._output.pcap(index)
        made = ", ".join(label for _, label in captures)
        if spec is None:
            raise KeyError(
                f"name one of the captures: {made}" if made else "the run made no captures"
            )
        raise KeyError(f"no capture {spec!r}; captures: {made or 'none'}")


def build_table(name: str, columns: dict[str, tuple[str, bytes] | list[str]] | None) -> pa.Table:
    """An Arrow table from the core's raw columns: the documented columns first, in their
    documented order, then any others the core added. A missing table is an empty one."""
    import pyarrow as pa

    schema = _table_schemas()[name]
    if not columns:
        return pa.table({col: pa.nulls(0, typ) for col, typ in schema})
    documented = [col for col, _ in schema]
    missing = [col for col in documented if col not in columns]
    if missing:
        raise RuntimeError(f"lasthop._core table {name!r} lacks columns {missing}")
    order = documented + [col for col in columns if col not in documented]
    arrays = [_column(columns[col]) for col in order]
    return pa.Table.from_arrays(arrays, names=order)


def _column(data: tuple[str, bytes] | list[str]) -> pa.Array:
    # Built from buffers, not with pa.array, which imports pandas (lasthop.arrowbuild).
    import numpy as np

    from lasthop.arrowbuild import numeric, strings

    if isinstance(data, tuple):
        dtype, raw = data
        values = np.frombuffer(raw, dtype=np.dtype(dtype))
        if not values.dtype.isnative:
            # Arrow holds native byte order only; the core sends little-endian.
            values = values.astype(values.dtype.newbyteorder("="))
        return numeric(values)
    return strings(data)
