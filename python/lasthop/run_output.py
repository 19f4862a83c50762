"""What ``lasthop run`` prints once its runs are done: one run's summary or the mean over
``--seeds``, as JSON or as tables, or one row per flow and seed as CSV or Parquet.

Shared by the Python command (:func:`lasthop.cli.run_command`) and the native one
(``crates/lasthop-cli``), which runs the engine itself and hands the summaries here for
what only Python renders: ``python -m lasthop.run_output`` reads them as one JSON
document on stdin. Nothing here is imported before a run: rich and
:mod:`lasthop.render` load only to draw tables.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

from lasthop.summary import mean_summary

if TYPE_CHECKING:
    from rich.console import Console


def print_json(document: object, indent: int | None = 2) -> None:
    """``document`` as ``lasthop`` prints JSON: keys in the core's order, floats as Python
    prints them (the same inputs give the same bytes); indented by ``indent`` spaces, or
    one compact line for ``None`` (``lasthop run``'s default: a summary of many flows is
    smaller and quicker so, issue 31 item 5)."""
    _dump(document, indent, sys.stdout)


def console() -> Console:
    """The console tables print on. A terminal gets its own width; a pipe or file gets
    140 columns (rich would assume 80 and wrap the reproduction table) unless COLUMNS
    says otherwise."""
    from rich.console import Console

    piped = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    return Console(
        highlight=False, soft_wrap=False, emoji=False, markup=False, width=140 if piped else None
    )


def print_runs(
    runs: Sequence[dict[str, Any]],
    origin: str,
    seed_list: Sequence[int],
    seeds: int | None,
    fmt: str,
    *,
    indent: int | None = None,
    out: str | None = None,
) -> None:
    """Print (or write to the file ``out``) the summaries ``runs`` of ``lasthop run``:
    of the one seed ``seed_list[0]`` when ``seeds`` is ``None``, else of seeds
    1..``seeds`` with their mean. ``fmt`` is ``table``, ``json`` (one compact line
    unless ``indent``), ``csv`` or ``parquet`` (one row per flow and seed). ``origin``
    names the scenario where its file gives no name."""
    if fmt == "csv":
        _write(out, lambda f: _flows_csv(runs, seed_list, f), binary=False)
        return
    if fmt == "parquet":
        if out is None:
            raise ValueError("parquet needs a file")
        _write(out, lambda f: _flows_parquet(runs, seed_list, f), binary=True)
        return
    if seeds is None:
        document: dict[str, Any] = runs[0]
    else:
        document = {"runs": list(runs), "mean": mean_summary(runs)}
    if fmt == "json":
        _write(out, lambda f: _dump(document, indent, f), binary=False)
        return
    if seeds is None:
        title = f"{runs[0].get('scenario') or origin}, seed {seed_list[0]}"
        summary = runs[0]
    else:
        title = f"{runs[0].get('scenario') or origin}, mean of seeds 1..{seeds}"
        summary = document["mean"]
    from lasthop import render

    console_ = console()
    console_.print(render.flows_table(summary["flows"], f"{title}: flows"))
    console_.print(render.links_table(summary["links"], f"{title}: links"))
    for medium in summary.get("media") or []:
        if "stations" in medium:
            console_.print(
                render.dcf_table(medium, f"{title}: 802.11 stations of {medium['name']}")
            )
        elif "circuit" in medium:
            # An AIRMAIL circuit's ends carry AIRMAIL's own counters.
            arq = "AIRMAIL" if any("airmail" in c for c in medium["circuit"]) else "RLP"
            console_.print(
                render.circuit_table(medium, f"{title}: {arq} circuit ends of {medium['name']}")
            )
        else:
            console_.print(render.radios_table(medium, f"{title}: radios of {medium['name']}"))
    handoffs = summary.get("handoffs")
    if handoffs:
        console_.print(render.handoffs_table(handoffs, f"{title}: handoffs"))
    wap = summary.get("wap")
    if wap:
        console_.print(render.wap_table(wap, f"{title}: page fetches"))
    published = summary.get("published")
    if published is not None:
        console_.print(render.published_table(published, f"{title}: against the paper"))


def _dump(document: object, indent: int | None, f: IO[str]) -> None:
    # Compact JSON is encoded in one go by CPython's C encoder, which it uses only then
    # (json.dumps without indent): a third of the time of the indented form. Indented
    # JSON is encoded in Python either way, so it is written as it is encoded.
    if indent is None:
        f.write(json.dumps(document, separators=(",", ":")) + "\n")
    else:
        json.dump(document, f, indent=indent)
        f.write("\n")


def _write(path: str | None, write: Callable[[Any], None], *, binary: bool) -> None:
    """``write`` to stdout, or to the file ``path``: made under a temporary name in its
    folder and renamed into place once whole, so that a failure leaves no partial file."""
    if path is None:
        write(sys.stdout.buffer if binary else sys.stdout)
        return
    folder = os.path.dirname(path) or "."
    fd, temporary = tempfile.mkstemp(prefix=".lasthop-", suffix=".tmp", dir=folder)
    try:
        with open(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            write(f)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def flow_rows(runs: Sequence[Mapping[str, Any]], seed_list: Sequence[int]) -> list[dict[str, Any]]:
    """One row per flow of each run: ``seed`` first, then the flow's fields in the order
    the core gives them, a nested record's as ``record.field`` (a split flow's
    ``split``)."""
    rows = []
    for seed, run in zip(seed_list, runs, strict=True):
        for flow in run["flows"]:
            row: dict[str, Any] = {"seed": seed}
            _flatten(flow, "", row)
            rows.append(row)
    return rows


def _flatten(record: Mapping[str, Any], prefix: str, row: dict[str, Any]) -> None:
    for key, value in record.items():
        if isinstance(value, Mapping):
            _flatten(value, f"{prefix}{key}.", row)
        else:
            row[f"{prefix}{key}"] = value


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every field of any row, in the order first met (a field only some flows have
    is empty in the others)."""
    return list(dict.fromkeys(key for row in rows for key in row))


def _csv_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | dict):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def _flows_csv(runs: Sequence[Mapping[str, Any]], seed_list: Sequence[int], f: IO[str]) -> None:
    import csv

    rows = flow_rows(runs, seed_list)
    columns = _columns(rows)
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_csv_text(row.get(column)) for column in columns])


def _flows_parquet(
    runs: Sequence[Mapping[str, Any]], seed_list: Sequence[int], f: IO[bytes]
) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from lasthop.arrowbuild import column

    rows = flow_rows(runs, seed_list)
    columns = _columns(rows)
    arrays = []
    for name in columns:
        values = [row.get(name) for row in rows]
        present = [v for v in values if v is not None]
        if all(isinstance(v, bool) for v in present):
            typ = pa.bool_()
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            typ = pa.uint64() if any(v >= 2**63 for v in present) else pa.int64()
        elif all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
            typ = pa.float64()
        else:
            typ = pa.string()
            values = [None if v is None else _csv_text(v) for v in values]
        arrays.append(column(values, typ))
    pq.write_table(pa.Table.from_arrays(arrays, names=columns), f, compression="snappy")


def main() -> int:
    """``python -m lasthop.run_output``: print what the native ``lasthop run`` sends on
    stdin, ``{"origin", "seeds", "seed_list", "format", "indent", "out", "runs"}``."""
    document = json.load(sys.stdin)
    try:
        print_runs(
            document["runs"],
            document["origin"],
            document["seed_list"],
            document["seeds"],
            document["format"],
            indent=document["indent"],
            out=document["out"],
        )
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`lasthop run x | head -1`); say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
