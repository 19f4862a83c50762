"""The blackout study (lasthop issue 32 item 5; seed 002 Secs. 5.2-5.3 and Table II's
"long/frequent disconnections" row): one blackout of the mobile host's link on the Table
I path at 10 s, of 0.1, 0.8, 2 and 5 s (``elaarag02/blackout``), under plain Reno and
NewReno and under each of the survey's mechanisms built here (fast-retransmit handoff,
Freeze-TCP, M-TCP, I-TCP, snoop), read from traced runs:

- ``stall_s``: from the reconnection to the first segment the fixed host sends after it
  (the figure the survey's mechanisms are about: a timeout's backed-off wait, or a
  reconnection ack's trip);
- ``timeouts``: the fixed host's retransmission timeouts over the run;
- ``goodput_kbps``: what the mobile host received, over the 40 s run.

Under I-TCP the fixed host's stall is its connection to the base station's, which waits
for the base station's buffer, not for the mobile host: its goodput is the figure to read.
The scenario has nothing random (RFC 6298 timers, no bit errors), so each cell is one
run, seed 1. ``lasthop sweep plans/blackout.toml`` runs the same grid into a store.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from rich.console import RenderableType

    from lasthop.report import ReportFigure
    from lasthop.result import RunResult

TABLE: Final = "elaarag02:blackout"
SCENARIO: Final = "elaarag02/blackout"
DOWN_AT_S: Final = 10.0
"""When the blackout begins (the scenario's ``outages``)."""
BLACKOUTS_S: Final = (0.1, 0.8, 2.0, 5.0)
"""The issue's blackouts."""
ROWS: Final = (
    ("reno", "reno", "none"),
    ("newreno", "newreno", "none"),
    ("frho", "reno", "frho"),
    ("freeze", "reno", "freeze"),
    ("m-tcp", "reno", "m-tcp"),
    ("i-tcp", "reno", "i-tcp"),
    ("snoop", "reno", "snoop"),
)
"""(the cell's scheme, ``variant``, ``mechanism``): the plain TCPs, then the mechanisms
(on Reno; M-TCP, I-TCP and snoop are schemes whose source is Reno)."""
LABELS: Final = {
    "reno": "Reno",
    "newreno": "NewReno",
    "frho": "fast-retransmit handoff",
    "freeze": "Freeze-TCP",
    "m-tcp": "M-TCP",
    "i-tcp": "I-TCP (split)",
    "snoop": "snoop",
}


def setting(blackout_s: float) -> str:
    return f"blackout={blackout_s:g}s"


def run(variant: str, mechanism: str, blackout_s: float) -> RunResult:
    """A traced run of the study (seed 1: nothing is random)."""
    import lasthop  # a traced run needs the package's run(), not only the engine

    sets = [f'variant="{variant}"', f'mechanism="{mechanism}"', f"blackout_s={blackout_s}"]
    return lasthop.run(SCENARIO, seed=1, set=sets)


def figures_of(result: RunResult, blackout_s: float) -> dict[str, float]:
    """The stall after the reconnection, the fixed host's timeouts and the goodput."""
    up_ns = round((DOWN_AT_S + blackout_s) * 1e9)
    sent = result.sent.to_pydict()
    after = [
        t for t, flow in zip(sent["time_ns"], sent["flow"], strict=True) if flow == 0 and t >= up_ns
    ]
    flow = result.flows[0]
    return {
        "stall_s": round((min(after) - up_ns) / 1e9, 4) if after else math.nan,
        "timeouts": float(flow["timeouts"]),
        "goodput_kbps": round(float(flow["throughput_bps"]) / 1e3, 2),
    }


def cells() -> list[dict[str, Any]]:
    """A cell per blackout and row of :data:`ROWS`."""
    out = []
    for b in BLACKOUTS_S:
        for scheme, variant, mechanism in ROWS:
            cell: dict[str, Any] = {"table": TABLE, "setting": setting(b), "scheme": scheme}
            cell.update(figures_of(run(variant, mechanism, b), b))
            out.append(cell)
    return out


def table(cells: Sequence[Mapping[str, Any]]) -> RenderableType:
    """The study as a table: a row per scheme, stall and timeouts per blackout."""
    from lasthop.render import FittedTable, fixed

    by = {(str(c["setting"]), str(c["scheme"])): c for c in cells if c["table"] == TABLE}
    columns = [f"{b:g} s\nstall / RTOs / kb/s" for b in BLACKOUTS_S]
    out = FittedTable(
        "Blackout study (elaarag02/blackout): one blackout at 10 s; stall after the "
        "reconnection (s) / the source's timeouts / goodput",
        ["scheme"],
        columns,
        caption="lasthop issue 32 item 5; ElAarag 2002 Secs. 5.2-5.3, Table II",
    )
    for scheme, _, _ in ROWS:
        row = []
        for b in BLACKOUTS_S:
            c = by.get((setting(b), scheme))
            if c is None:
                row.append("-")
                continue
            stall, rate = fixed(c["stall_s"], 3), fixed(c["goodput_kbps"], 1)
            row.append(f"{stall} / {c['timeouts']:.0f} / {rate}")
        out.add_row(LABELS[scheme], *row)
    return out


def figure(cells: Sequence[Mapping[str, Any]]) -> ReportFigure:
    """The study drawn as one figure: stall after the reconnection and goodput against the
    blackout's length, a line per scheme."""
    from lasthop import plots
    from lasthop.report import ReportFigure

    by = {(str(c["setting"]), str(c["scheme"])): c for c in cells if c["table"] == TABLE}

    def series(key: str) -> dict[str, list[tuple[float, float, float | None]]]:
        return {
            LABELS[scheme]: [
                (b, float(by[(setting(b), scheme)][key]), None)
                for b in BLACKOUTS_S
                if (setting(b), scheme) in by
            ]
            for scheme, _, _ in ROWS
        }

    fig = plots.panels_vs_x(
        [
            ("stall after reconnection (s)", series("stall_s")),
            ("goodput (kb/s)", series("goodput_kbps")),
        ],
        xlabel="blackout (s)",
        title="One blackout of the mobile host's link, at 10 s",
    )
    stall = {s: by.get((setting(5.0), s), {}).get("stall_s") for s, _, _ in ROWS}
    return ReportFigure(
        stem="e02-blackout-study",
        figure=fig,
        caption=(
            "The blackout study (lasthop issue 32 item 5) on the Table I path: the stall from "
            "the reconnection to the fixed host's next segment, and the mobile host's "
            "goodput over 40 s, against the blackout's length. After 5 s, plain Reno waits "
            f"{stall['reno']:.2f} s for its backed-off timeout; fast-retransmit handoff "
            f"{stall['frho']:.2f} s, Freeze-TCP {stall['freeze']:.2f} s and M-TCP "
            f"{stall['m-tcp']:.2f} s."
        ),
        alt=(
            "Two panels against the blackout's length (0.1 to 5 s), a line per scheme: "
            "above, the stall after reconnection, up to 2 s for plain Reno and NewReno (a "
            "backed-off timeout) and over 1 s for snoop and I-TCP, but about 0.1 s for "
            "fast-retransmit handoff and Freeze-TCP and 0.01 s for M-TCP at every length; "
            "below, goodput falling as the blackout lengthens, snoop lowest."
        ),
        paper=None,
    )
