"""Live runs from Python (issue 33): a scenario on real packets between network
namespaces, with the kernel's TCP at the hosts, read back in the shapes of a simulated
run::

    import lasthop.live
    r = lasthop.live.run("balakrishnan97/lan", set=["scheme=ll-tcp-aware"])
    r.flows[0]["throughput_bps"], r.flows[0]["local_retransmits"]
    r.window.to_pandas()      # the kernel's cwnd over time (TCP_INFO), as a simulated run's
    r.drops.to_pandas()       # frames the error models destroyed, queues dropped

:func:`run` calls the native ``lasthop live`` (Linux, as root; see README "Live mode")
with ``--format json --tables`` and returns a :class:`LiveResult`; :func:`read` reads a
report that ``lasthop live --format json --tables`` printed. A live run's trace tables
have a simulated run's columns and Arrow types (:data:`lasthop.result.TABLE_SCHEMAS`),
so what reads a simulated run's ``window``, ``sent``, ``acks``, ``drops``,
``local_rexmits`` or ``send_rate`` reads a live one's; ``events`` is empty (the kernel's
recovery events are not in its packets). Two tables are live mode's own: :meth:`info`
(the sender's ``TCP_INFO`` samples) and :meth:`delivered` (the receiving application's
bytes over time).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lasthop.native import NativeFailed, missing_reason, native_command, output_of
from lasthop.result import TABLE_NAMES, TraceTables

if TYPE_CHECKING:
    import pyarrow as pa


class LiveError(Exception):
    """A live run that could not be made or run: the native command's one line."""


class LiveResult(TraceTables):
    """What a live run measured (the native command's JSON report)."""

    def __init__(self, report: dict[str, Any]) -> None:
        for key in ("run", "scenario", "seed", "flows", "links"):
            if key not in report:
                raise ValueError(f"not a lasthop live report: no {key!r}")
        self.report = report

    def __repr__(self) -> str:
        return f"LiveResult(run={self.run!r}, scenario={self.scenario!r}, seed={self.seed})"

    @property
    def run(self) -> str:
        """The run's id (its namespaces were ``lh-<run>-<host>``)."""
        return str(self.report["run"])

    @property
    def scenario(self) -> str:
        return str(self.report["scenario"])

    @property
    def seed(self) -> int:
        return int(self.report["seed"])

    @property
    def flows(self) -> list[dict[str, Any]]:
        """Per flow: bytes delivered, transfer time, throughput at the receiver, the
        kernel's retransmissions and those the packets show (source, local, a split
        proxy's), its ``TCP_INFO`` samples and delivery timeline."""
        return list(self.report["flows"])

    @property
    def links(self) -> list[dict[str, Any]]:
        """Per link direction: frames sent and delivered, corrupted, queue drops, goodput,
        utilisation."""
        return list(self.report["links"])

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.report, indent=indent)

    def table(self, name: str) -> pa.Table:
        """Trace table ``name`` (one of :data:`lasthop.TABLE_NAMES`), with a simulated
        run's columns and types; empty when the run recorded none."""
        import numpy as np
        import pyarrow as pa

        from lasthop.arrowbuild import numeric, strings
        from lasthop.result import TABLE_SCHEMAS

        if name not in TABLE_NAMES:
            raise KeyError(f"no table {name!r}; tables: {', '.join(TABLE_NAMES)}")
        columns = (self.report.get("tables") or {}).get(name) or {}
        arrays = []
        names = []
        for col, typ in TABLE_SCHEMAS[name]:
            values = columns.get(col, [])
            if pa.types.is_string(typ):
                arrays.append(strings([str(v) for v in values]))
            else:
                arrays.append(numeric(np.asarray(values, dtype=typ.to_pandas_dtype())))
            names.append(col)
        return pa.Table.from_arrays(arrays, names=names)

    def info(self) -> pa.Table:
        """The senders' ``TCP_INFO`` samples: one row per flow and sample."""
        import pyarrow as pa

        rows = [
            {"flow": k, **sample}
            for k, f in enumerate(self.report["flows"])
            for sample in f.get("samples", [])
        ]
        return pa.Table.from_pylist(rows)

    def delivered(self) -> pa.Table:
        """The receiving applications' bytes over time: flow, t_s, bytes."""
        import pyarrow as pa

        rows = [
            {"flow": k, "t_s": float(t), "bytes": int(b)}
            for k, f in enumerate(self.report["flows"])
            for t, b in f.get("delivered", [])
        ]
        return pa.Table.from_pylist(rows)


def read(path: str | os.PathLike[str]) -> LiveResult:
    """The report ``lasthop live --format json`` wrote to ``path``."""
    return LiveResult(json.loads(Path(path).read_text()))


def run(
    scenario: str,
    *,
    seed: int = 1,
    set: Sequence[str] = (),  # noqa: A002 - the command line's name, as lasthop.run's
    cc: str | None = None,
    duration_s: float | None = None,
    sysctl: Sequence[str] = (),
    pcap_dir: str | Path | None = None,
    sample_ms: int | None = None,
) -> LiveResult:
    """Run ``scenario`` (a scenario file or an embedded name) live and return what it
    measured, its trace tables included. Needs root, ``/dev/net/tun`` and the native
    ``lasthop``; an invalid scenario or option raises :class:`LiveError` with the native
    command's one line (``FIELD: reason``). A Ctrl-C reaches the run, which removes what
    it made before ``KeyboardInterrupt`` goes on."""
    native = native_command()
    if native is None:
        raise LiveError(missing_reason())
    args = ["live", scenario, "--seed", str(seed), "--format", "json", "--tables"]
    for s in set:
        args += ["--set", s]
    for s in sysctl:
        args += ["--sysctl", s]
    if cc is not None:
        args += ["--cc", cc]
    if duration_s is not None:
        args += ["--duration", repr(float(duration_s))]
    if sample_ms is not None:
        args += ["--sample-ms", str(sample_ms)]
    if pcap_dir is not None:
        args += ["--pcap", str(pcap_dir)]
    try:
        out = output_of(native, args)
    except NativeFailed as e:
        raise LiveError(str(e)) from None
    return LiveResult(json.loads(out))
