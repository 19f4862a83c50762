"""What ``lasthop run`` prints once its runs are done: one run's summary or the mean over
``--seeds``, as JSON or as tables.

Shared by the Python command (:func:`lasthop.cli.run_command`) and the native one
(``crates/lasthop-cli``), which runs the engine itself and hands the summaries here for
what only Python renders: ``python -m lasthop.run_output`` reads them as one JSON
document on stdin. Nothing here is imported before a run: rich and
:mod:`lasthop.render` load only to draw tables.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lasthop.summary import mean_summary

if TYPE_CHECKING:
    from rich.console import Console


def print_json(document: object) -> None:
    """``document`` as ``lasthop`` prints JSON: indent=2, keys in the core's order, floats
    as Python prints them (the same inputs give the same bytes)."""
    sys.stdout.write(json.dumps(document, indent=2, sort_keys=False) + "\n")


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
    as_json: bool,
) -> None:
    """Print the summaries ``runs`` of ``lasthop run``: of the one seed ``seed_list[0]``
    when ``seeds`` is ``None``, else of seeds 1..``seeds`` with their mean. ``origin``
    names the scenario where its file gives no name."""
    if seeds is None:
        document: dict[str, Any] = runs[0]
    else:
        document = {"runs": list(runs), "mean": mean_summary(runs)}
    if as_json:
        print_json(document)
        return
    if seeds is None:
        title = f"{runs[0].get('scenario') or origin}, seed {seed_list[0]}"
        summary = runs[0]
    else:
        title = f"{runs[0].get('scenario') or origin}, mean of seeds 1..{seeds}"
        summary = document["mean"]
    from lasthop import render

    out = console()
    out.print(render.flows_table(summary["flows"], f"{title}: flows"))
    out.print(render.links_table(summary["links"], f"{title}: links"))
    for medium in summary.get("media") or []:
        if "stations" in medium:
            out.print(render.dcf_table(medium, f"{title}: 802.11 stations of {medium['name']}"))
        else:
            out.print(render.radios_table(medium, f"{title}: radios of {medium['name']}"))
    published = summary.get("published")
    if published is not None:
        out.print(render.published_table(published, f"{title}: against the paper"))


def main() -> int:
    """``python -m lasthop.run_output``: print what the native ``lasthop run`` sends on
    stdin, ``{"origin", "seeds", "seed_list", "format", "runs"}``."""
    document = json.load(sys.stdin)
    try:
        print_runs(
            document["runs"],
            document["origin"],
            document["seed_list"],
            document["seeds"],
            document["format"] == "json",
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
