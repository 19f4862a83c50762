"""Seed 002's Fig. 2 in the reproduction (lasthop.papers.elaarag02.fig2): the figures read
from traced runs, the claims TAHOE-1..3 on them, a mutation that flips them, and the
figure drawn in the survey's style."""

from __future__ import annotations

import pytest

import lasthop
from lasthop.papers.elaarag02 import claims, fig2
from lasthop.papers.elaarag02.figures import figures
from lasthop.reproduction import claims as framework


def test_the_first_outage_loses_what_the_survey_names() -> None:
    """Seed 1: acks 187-196 and data 197-236 lost at 3.0 s (the survey: 187-196 and
    197-233; ns-2.35 loses through 236, elaarag-002.md Sec. 3.3); the timeout resends 187,
    ssthresh 25, then 197 and 198 one round trip later; no fast retransmit."""
    got = fig2.figures_10s(fig2.run(1))["3.0s"]
    assert (got["first_ack_lost"], got["last_ack_lost"], got["acks_lost"]) == (187, 196, 10)
    assert (got["first_data_lost"], got["last_data_lost"], got["data_lost"]) == (197, 236, 40)
    assert (got["first_rexmit_pkt"], got["by_timeout"], got["fast_retransmits"]) == (187, 1, 0)
    assert got["ssthresh_after_pkts"] == 25
    assert (got["next_pkt"], got["next2_pkt"]) == (197, 198)
    assert 0.2 < got["next_after_s"] < 0.26  # one loaded round trip of the Table I path


def test_the_tahoe_claims_hold_on_ten_traced_seeds_and_the_hold_mode_breaks_them() -> None:
    cells = framework.Cells(fig2.cells(10))
    verdicts = {c.id: c.check(cells) for c in claims.CLAIMS if c.id.startswith("tahoe") and c.check}
    assert all(v.holds for v in verdicts.values()), verdicts
    # The same schedule with the base station holding its queue through each outage
    # (`hold`): the queued packets survive, duplicate acks follow, and fewer are lost.
    held = fig2.figures_10s(lasthop.run(fig2.SCENARIO, seed=1, set=['semantics="hold"']))
    assert held["3.0s"]["data_lost"] < 37, held


def test_the_long_run_loses_one_timeout_per_outage_and_the_window_decays() -> None:
    got = fig2.figures_long(fig2.run(1, fig2.LONG_S))
    assert got["timeouts_per_outage_min"] == got["timeouts_per_outage_max"] == 1
    assert got["ssthresh_1_pkts"] == 25
    assert got["ssthresh_1_pkts"] > got["ssthresh_2_pkts"] > got["ssthresh_3_pkts"]
    assert got["peak_cwnd_after_first_pkts"] < 50


def test_fig2_is_drawn_with_its_marks_and_outages() -> None:
    shown, provenance = figures(1)
    (fig,) = shown
    assert fig.paper_figure == 2 and fig.stem == "e02-fig2-disconnections"
    gids = {
        a.get_gid() for ax in fig.figure.axes for a in [*ax.collections, *ax.lines, *ax.patches]
    }
    assert {"sent", "data_lost", "acks_lost", "cwnd", "ssthresh", "outage"} <= gids
    assert "187 at" in fig.caption or "packet 187" in fig.caption
    assert provenance == [("traced run (ElAarag 2002 Fig. 2)", "elaarag02/fig2; seed 1")]


def test_5000_packets_take_52_s_without_errors_and_longer_with() -> None:
    """TABLE1-3's loss-free transfer (ns-2.35: 52 s), and 1e-6 slower (TABLE1-2: the paper's
    58.032 s within 15%), seed 1."""
    from lasthop.papers.elaarag02 import transfer

    def t(ber: str) -> float:
        sets = [f'ber="{ber}"', "flows.0.duration_s=120"]
        return transfer.t5000_s(lasthop.run(transfer.SCENARIO, seed=1, set=sets).acks)

    clean, lossy = t("none"), t("1e-6")
    assert 51 < clean < 53, clean
    assert clean < lossy < 58.032 * 1.15, lossy


def test_x1_each_mechanism_meets_the_outages_its_own_way() -> None:
    """X-1's cells on seed 1 (60 s of Fig. 2's schedule, 18 outages): plain Tahoe times out
    once per outage; fast-retransmit handoff replaces every timeout by a fast retransmit;
    Freeze-TCP, I-TCP and M-TCP spare the source every timeout; snoop retransmits locally.
    Freeze-TCP, which empties the pipe before each outage, carries the most; the order the
    claims read follows."""
    from lasthop.papers.elaarag02 import x1

    got = {}
    for e in x1.experiments():
        summary = lasthop.run(e.scenario, seed=1, set=list(e.sets), trace=False).summary
        got[e.scheme] = x1.cell(e, [summary])
    assert got["tahoe"]["timeouts"] == 18 and got["tahoe"]["fast_retransmits"] == 0
    assert got["frho"]["timeouts"] == 0 and got["frho"]["fast_retransmits"] == 18
    for m in ("freeze", "i-tcp", "m-tcp"):
        assert got[m]["timeouts"] == 0, (m, got[m])
    assert got["snoop"]["local_retransmits"] > 100
    rate = {m: c["throughput_pps"] for m, c in got.items()}
    assert rate["freeze"] > rate["m-tcp"] > rate["i-tcp"] > rate["frho"] > rate["snoop"], rate
    cells = framework.Cells(list(got.values()))
    verdicts = {
        c.id: c.check(cells).holds for c in claims.CLAIMS if c.id.startswith("x-1") and c.check
    }
    assert verdicts == {"x-1-top": False, "x-1-middle": True, "x-1-bottom": False}, verdicts


def test_the_blackout_study_reports_stall_timeouts_and_goodput_and_draws_them() -> None:
    """Issue 32 item 5 in the reproduction: after a 5 s blackout plain Reno waits 2.01 s for
    its third, backed-off timeout; fast-retransmit handoff and Freeze-TCP send again within
    one round trip (0.24 s), Freeze-TCP, M-TCP and I-TCP with no timeout; every scheme's
    goodput falls as the blackout lengthens. The figure draws every scheme in both panels."""
    from lasthop.papers.elaarag02 import blackout

    cells = blackout.cells()
    by = {(c["setting"], c["scheme"]): c for c in cells}
    five = {s: by[(blackout.setting(5.0), s)] for s, _, _ in blackout.ROWS}
    assert abs(five["reno"]["stall_s"] - 2.01) < 0.01 and five["reno"]["timeouts"] == 3
    for s in ("frho", "freeze", "m-tcp"):
        assert five[s]["stall_s"] < 0.24, (s, five[s])
    for s in ("freeze", "m-tcp", "i-tcp"):
        assert five[s]["timeouts"] == 0, (s, five[s])
    for s, _, _ in blackout.ROWS:
        short = by[(blackout.setting(0.1), s)]["goodput_kbps"]
        assert five[s]["goodput_kbps"] < short, s
    fig = blackout.figure(cells)
    gids = {line.get_gid() for ax in fig.figure.axes for line in ax.lines}
    for label in blackout.LABELS.values():
        assert {f"series:{label}", f"series:{label}:1"} <= gids, label


def test_snoop_handoff_cells_read_as_the_snoop_papers_table_1() -> None:
    """The snoop paper's Table 1 on seed 1 (elaarag02/snoop-handoff): the multicast
    handoff keeps at least 97% of the throughput without handoffs at every period with no
    fixed-host timeout (SNOOP-HO-1 holds), yet the fixed host resends segments (its 'no
    data loss' fails: the 64 KB window outruns the 12-packet buffer); the hard handoff
    times out and carries less. The claims read the cells so."""
    from lasthop.papers.elaarag02 import snoop_ho
    from lasthop.reproduction.throughput import throughput_cell

    got = {}
    for e in snoop_ho.experiments():
        summary = lasthop.run(e.scenario, seed=1, set=list(e.sets), trace=False).summary
        got[(e.setting, e.scheme)] = throughput_cell(e, [summary])
    none = got[("none", "snoop-multicast")]
    assert none["throughput_mbps"] == pytest.approx(1.45, abs=0.01)
    for period in snoop_ho.PERIODS:
        m = got[(snoop_ho.setting(period), "snoop-multicast")]
        h = got[(snoop_ho.setting(period), "snoop-hard")]
        assert m["throughput_mbps"] / none["throughput_mbps"] >= 0.97, (period, m)
        assert m["timeouts"] == 0 and m["retransmits"] > 0, (period, m)
        assert h["throughput_mbps"] < 0.9 * m["throughput_mbps"] and h["published"] is None
    cells = framework.Cells(list(got.values()))
    verdicts = {
        c.id: c.check(cells).holds for c in claims.CLAIMS if c.id.startswith("snoop-ho") and c.check
    }
    assert verdicts == {"snoop-ho-1": True, "snoop-ho-1-loss": False}, verdicts
