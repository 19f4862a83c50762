"""The figure of ElAarag 2002 (seed 002) for the HTML report, drawn as the survey drew it:
Fig. 2, the ns ``xgraph`` trace of TCP Tahoe on the Table I path with the mobile host cut
off 0.3 s every 3.3 s from 3.0 s (first 10 s; packet numbers modulo 100; squares the
packets sent, crosses the data and circles the acks lost), above the window it came from,
the outages shaded, the link's timeline under it. One traced run, seed ``trace_seed``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lasthop import plots
from lasthop.papers.elaarag02 import fig2

if TYPE_CHECKING:
    from lasthop.report import ReportFigure

PAPER = "ElAarag 2002"


def figures(trace_seed: int = fig2.TRACE_SEED) -> tuple[list[ReportFigure], list[tuple[str, str]]]:
    """Fig. 2, and the provenance row saying what was run."""
    from lasthop.report import ReportFigure

    r = fig2.run(trace_seed)
    starts = [fig2.FIRST_S + k * fig2.EVERY_S for k in range(int(10.0 / fig2.EVERY_S) + 1)]
    outages = [(s, s + fig2.DOWN_S) for s in starts if s < 10.0]
    got = fig2.figures_10s(r)["3.0s"]
    first = (
        f"first retransmission: packet {got['first_rexmit_pkt']:.0f} at "
        f"{got['first_rexmit_s']:.3f} s"
        if "first_rexmit_pkt" in got
        else "no retransmission"
    )
    drawn = plots.sequence_mod_with_outages(
        r.sent,
        r.drops,
        r.window,
        outages_s=outages,
        link=fig2.LINK,
        packet_bytes=fig2.PACKET,
        title="TCP Tahoe, the mobile host disconnected 0.3 s every 3.3 s",
    )
    figure = ReportFigure(
        stem="e02-fig2-disconnections",
        figure=plots.add_timeline(drawn, plots.timeline_rows(r.summary), (0.0, 10.0)),
        caption=(
            f"{PAPER} Fig. 2: packets the fixed host sends (squares), data packets (crosses) "
            "and acks (circles) lost on the wireless link, numbered modulo 100 as ns numbers "
            "them, over the first 10 s; below, cwnd and ssthresh in packets; outages shaded, and "
            "under both the wireless link's down times (the mobility timeline). "
            f"Seed {trace_seed} (the phase of the 100 ms timer tick). At 3.0 s the survey "
            "loses acks 187-196 and packets 197-233, and Tahoe waits for its timeout at "
            f"4.105 s to resend 187; here {got.get('acks_lost', 0):.0f} acks and "
            f"{got.get('data_lost', 0):.0f} data packets are lost, {first}."
        ),
        alt=(
            "Two panels against time over 10 s: packet numbers modulo 100 rising in "
            "sawteeth with gaps and loss marks at the shaded outages at 3.0 and 6.3 s; "
            "below, the congestion window growing to 50 packets, then falling to one at "
            "each timeout after an outage."
        ),
        paper_figure=2,
        paper=PAPER,
    )
    provenance = [(f"traced run ({PAPER} Fig. 2)", f"{fig2.SCENARIO}; seed {trace_seed}")]
    return [figure], provenance
