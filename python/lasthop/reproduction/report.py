"""The HTML report of a reproduction (``lasthop reproduce --report DIR``): what was run,
the cells, the papers' claims checked on them with the deviations, and each selected
paper's part (:meth:`lasthop.reproduction.paper.Paper.report`: its figures, the runs
behind them, how its cells' tables read), paper after paper, written by
:func:`lasthop.report.write_report`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import matplotlib

import lasthop
from lasthop.report import write_report
from lasthop.reproduction import registry
from lasthop.reproduction.reproduce import (
    Reproduction,
    experiment_scenarios,
    run_reproduction,
)


def reproduction_report(
    directory: str | Path,
    which: str = "balakrishnan97-table3",
    seeds: int = 10,
    *,
    trace_seed: int = 1,
    workers: int | None = None,
    reproduction: Reproduction | None = None,
) -> Path:
    """Reproduce ``which`` (as ``lasthop reproduce WHICH --seeds SEEDS``) and write its
    report into ``directory``; return the path of its ``index.html``.

    The report holds what was run, the cells, the Claims table, the Deviations, then each
    selected paper's figures (:meth:`lasthop.reproduction.paper.Paper.report`; traced
    runs with seed ``trace_seed``, runs of its own on at most ``workers`` processes).

    ``reproduction``: what ``run_reproduction(which, seeds)`` measured when the caller has
    it already (``lasthop reproduce --report``), so that nothing runs twice.
    """
    if which not in registry.selections():
        raise ValueError(
            f"which: expected one of {', '.join(registry.selections())}, got {which!r}"
        )
    if seeds < 1:
        raise ValueError(f"seeds: must be at least 1, got {seeds}")
    if reproduction is None:
        reproduction = run_reproduction(which, seeds, workers)
    parts = [
        registry.load(part.paper).report(
            dataclasses.replace(part.request, workers=workers, trace_seed=trace_seed),
            part.cells,
        )
        for part in reproduction.parts
    ]
    seeds_text = f"seeds 1..{seeds}" if seeds > 1 else "seed 1"
    provenance: list[tuple[str, str]] = [
        ("lasthop version", lasthop.__version__),
        ("reproduction", f"lasthop reproduce {which} --seeds {seeds}"),
        ("seeds", f"{seeds_text}; every cell is the mean over them"),
        ("cell scenarios", ", ".join(experiment_scenarios(which))),
    ]
    for part in parts:
        provenance += part.provenance
    for part in parts:
        provenance += part.provenance_after
    provenance.append(("plotted with", f"matplotlib {matplotlib.__version__}"))
    for part in parts:
        provenance += part.sources
    cells = reproduction.cells
    return write_report(
        directory,
        title=f"lasthop reproduction: {which}",
        cells=cells,
        figures=[figure for part in parts for figure in part.figures],
        provenance=provenance,
        claims=reproduction.claims,
        deviations=reproduction.deviations,
        summary=reproduction.summary(),
        sensitivity=reproduction.sensitivity,
        cell_tables={table: how for part in parts for table, how in part.cell_tables.items()},
    )
