"""The mobility timeline under time plots (issue 32 item 6; seed 002): which base station
serves each mobile host and when a link is down, from a run's summary
(:func:`lasthop.plots.timeline_rows`), drawn as a strip under a figure's panels
(:func:`lasthop.plots.add_timeline`), in ``lasthop plot`` and in the reproduction's Fig. 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import lasthop_cli

import lasthop
from lasthop import plots
from lasthop.papers.elaarag02 import figures as e02_figures


@pytest.fixture(scope="module")
def handoff() -> lasthop.RunResult:
    return lasthop.run("elaarag02/handoff", seed=1)


def test_timeline_rows_follow_the_handoffs(handoff: lasthop.RunResult) -> None:
    """A lane per mobile host: bs1 from 0, then each handoff's gap, then the new station,
    up to the run's end, the segments touching end to end."""
    rows = plots.timeline_rows(handoff.summary)
    assert [name for name, _ in rows] == ["mh: served by"]
    segs = rows[0][1]
    hs = handoff.summary["handoffs"]
    assert segs[0][0] == 0.0 and segs[0][2] == "bs1"
    assert segs[-1][1] == pytest.approx(handoff.summary["sim_time_s"])
    assert all(a[1] == b[0] for a, b in zip(segs, segs[1:], strict=False)), segs
    gaps = [(a, b) for a, b, what in segs if not what]
    assert gaps == [(h["start_s"], h["complete_s"]) for h in hs]
    served = [what for _, _, what in segs if what]
    assert served == ["bs1"] + [h["to"] for h in hs]


def test_timeline_rows_of_outages_and_of_none() -> None:
    """Fig. 2's run (10 s): the wireless link down 3.0-3.3, 6.3-6.6 and 9.6-9.9 s. A run
    without mobility or outages has no timeline."""
    r = lasthop.run("elaarag02/fig2", seed=1)
    rows = plots.timeline_rows(r.summary)
    assert [name for name, _ in rows] == ["wireless: down"]
    got = [(round(a, 9), round(b, 9), what) for a, b, what in rows[0][1]]
    assert got == [(3.0, 3.3, ""), (6.3, 6.6, ""), (9.6, 9.9, "")]
    plain = lasthop.run("balakrishnan97/lan", seed=1, set=["flows.0.bytes=100000"])
    assert plots.timeline_rows(plain.summary) == []


def test_add_timeline_puts_a_strip_under_the_panels(handoff: lasthop.RunResult) -> None:
    """The figure grows by the strip; the panels above keep their size in inches; the
    strip's bars are on the same time axis, under the lowest panel."""
    fig = plots.cwnd_vs_time({"run": handoff.window}, time_window_s=(0.0, 30.0))
    w, h = fig.get_size_inches()
    panel = fig.axes[0]
    panel_in = panel.get_position().height * h
    rows = plots.timeline_rows(handoff.summary)
    assert plots.add_timeline(fig, [], (0.0, 30.0)) is fig
    assert tuple(fig.get_size_inches()) == (w, h), "no rows: nothing added"
    plots.add_timeline(fig, rows, (0.0, 30.0))
    assert fig.get_size_inches()[1] > h
    assert panel.get_position().height * fig.get_size_inches()[1] == pytest.approx(panel_in)
    strip = fig.axes[-1]
    assert strip.get_position().y1 < panel.get_position().y0
    assert strip.get_xlim() == (0.0, 30.0)
    bars = [c for c in strip.collections if c.get_gid() == "timeline:0"]
    assert len(bars) == 1
    texts = {t.get_text() for t in strip.texts}
    assert {"bs1", "bs2", "mh: served by"} <= texts
    # Deterministic, as every figure.
    assert plots.to_bytes(fig, "svg") == plots.to_bytes(fig, "svg")


def test_the_reproductions_fig2_has_the_links_timeline() -> None:
    figs, _ = e02_figures.figures()
    strip = figs[0].figure.axes[-1]
    assert any(c.get_gid() == "timeline:0" for c in strip.collections)
    assert "wireless: down" in {t.get_text() for t in strip.texts}


def test_plot_of_stored_handoff_runs_draws_the_timeline(tmp_path: Path) -> None:
    """``lasthop plot cwnd`` of stored runs with handoffs: the strip under the panels (the
    two runs share their schedule: one lane)."""
    plan = tmp_path / "plan.toml"
    plan.write_text(
        'name = "roam"\nscenario = "elaarag02/handoff"\nseeds = 1\n[grid]\nfrho = [false, true]\n',
        encoding="utf-8",
    )
    db = tmp_path / "s" / "lasthop.duckdb"
    result = lasthop_cli("sweep", str(plan), "--store", str(db))
    assert result.returncode == 0, result.stderr
    stem = tmp_path / "cwnd"
    result = lasthop_cli("plot", "cwnd", "--store", str(db), "--out", str(stem))
    assert result.returncode == 0, result.stderr
    svg = Path(f"{stem}.svg").read_text(encoding="utf-8")
    assert 'id="timeline:0"' in svg
    assert 'id="timeline:1"' not in svg, "one shared schedule, one lane"
