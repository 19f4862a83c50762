"""The paper's figures (Balakrishnan et al. 1997 Figs. 3-12) drawn from real runs: what
each figure shows must be what the run's tables say, and saving must be deterministic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

import lasthop
from lasthop import plots
from lasthop.reproduction.jobs import Job, run_jobs
from lasthop.reproduction.reproduce import reproduce

# 1 MB transfers over the 1997 LAN: fast, with fast retransmits, timeouts and ELN.
SMALL = "flows.0.bytes=1048576"
LAN = "balakrishnan97/lan"


@pytest.fixture(scope="module")
def runs() -> dict[str, lasthop.RunResult]:
    # Seed 2: its E2E run has both marks Fig. 7 draws, fast retransmits and a timeout
    # (seed 1's has no timeout since issue 28 guarded header prediction).
    return {s: lasthop.run(LAN, seed=2, set=[SMALL, f"scheme={s}"]) for s in ("e2e", "e2e-eln")}


@pytest.fixture(scope="module")
def cells() -> list[dict[str, Any]]:
    # Fig. 6 reads the 1997 paper's peaks and Table III only.
    return reproduce("balakrishnan97", seeds=1, workers=1)


def _by_gid(fig: Figure, prefix: str) -> list[Any]:
    found = []
    for ax in fig.axes:
        found += [a for a in ax.get_children() if (a.get_gid() or "").startswith(prefix)]
    return found


def _one(fig: Figure, gid: str) -> Any:
    (artist,) = [a for ax in fig.axes for a in ax.get_children() if a.get_gid() == gid]
    return artist


def _line(fig: Figure, gid: str) -> Line2D:
    line = _one(fig, gid)
    assert isinstance(line, Line2D)
    return line


# --- Figs. 3, 6, 9 --------------------------------------------------------------------


def test_throughput_bars_fig6_one_bar_per_cell_labelled_with_percent_of_peak(
    cells: list[dict[str, Any]],
) -> None:
    peaks = {c["setting"]: c["throughput_mbps"] for c in cells if c["table"] == "peak"}
    iii = [c for c in cells if c["table"] == "table3"]
    fig = plots.throughput_bars(iii, peaks, title="Fig. 6")
    (ax,) = fig.axes

    bars = _by_gid(fig, "bar:")
    assert len(bars) == len(iii)
    for setting in peaks:
        schemes = {c["scheme"] for c in iii if c["setting"] == setting}
        assert len(_by_gid(fig, f"bar:{setting}:")) == len(schemes)  # E2E-SMART: LAN only
    for c in iii:
        bar = _one(fig, f"bar:{c['setting']}:{c['scheme']}")
        assert bar.get_height() == pytest.approx(c["throughput_mbps"])
        label = _one(fig, f"pct:{c['setting']}:{c['scheme']}")
        expected = round(100 * c["throughput_mbps"] / peaks[c["setting"]])
        assert label.get_text() == f"{expected}%"
    assert len(_by_gid(fig, "published:")) == sum(c["published"] is not None for c in iii)
    for setting, peak in peaks.items():
        line = _one(fig, f"peak:{setting}")
        assert line.get_segments()[0][0][1] == pytest.approx(peak)

    assert "(Mb/s)" in ax.get_ylabel()
    assert ax.get_title() == "Fig. 6"
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == [
        "E2E",
        "E2E-NEWRENO",
        "E2E-SMART",
        "E2E-IETF-SACK",
        "E2E-ELN",
        "E2E-ELN-RXMT",
        "error-free maximum",
        "published",
    ]
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks[0].startswith("LAN, 8 KB") and ticks[2].startswith("WAN, 32 KB")


def test_throughput_bars_takes_a_dataframe_and_needs_every_peak(
    cells: list[dict[str, Any]],
) -> None:
    iii = pd.DataFrame([c for c in cells if c["table"] == "table3"])
    fig = plots.throughput_bars(iii, {"lan-8k": 1.5, "lan-32k": 1.5, "wan-32k": 1.35})
    assert len(_by_gid(fig, "bar:")) == len(iii)
    with pytest.raises(ValueError, match="wan-32k"):
        plots.throughput_bars(iii, {"lan-8k": 1.5, "lan-32k": 1.5})


# --- Figs. 4, 8, 11 -------------------------------------------------------------------


def test_cwnd_vs_time_fig8_one_step_panel_per_run(runs: dict[str, lasthop.RunResult]) -> None:
    window = {plots.scheme_name(s): r.window for s, r in runs.items()}
    fig = plots.cwnd_vs_time(window, hlines_bytes={"socket buffer": 32768})
    assert len(fig.axes) == 2
    for ax, (label, r) in zip(fig.axes, window.items(), strict=True):
        assert ax.get_title(loc="left").endswith(label)
        assert ax.get_ylabel() == "congestion window (KB)"
        table = r.to_pandas()
        line = _line(fig, f"cwnd:{label}")
        assert line.get_drawstyle() == "steps-post"
        assert list(line.get_ydata()) == pytest.approx(list(table.cwnd_bytes / 1024))
        assert list(line.get_xdata()) == pytest.approx(list(table.time_ns / 1e9))
        assert _line(fig, f"ssthresh:{label}").get_linestyle() == "--"
    assert fig.axes[-1].get_xlabel() == "time (s)"
    assert len(_by_gid(fig, "hline:")) == 2  # the socket buffer, in each panel


def test_cwnd_vs_time_window_and_label_column(runs: dict[str, lasthop.RunResult]) -> None:
    frames = [r.window.to_pandas().assign(label=s) for s, r in runs.items()]
    fig = plots.cwnd_vs_time(pd.concat(frames), time_window_s=(1.0, 3.0))
    assert fig.axes[0].get_xlim() == (1.0, 3.0)
    t = _line(fig, "cwnd:e2e").get_xdata()
    assert min(t) == 1.0 and max(t) <= 3.0  # the sample in force at 1 s starts the step
    overlay = plots.cwnd_vs_time(pd.concat(frames), overlay=True, ssthresh=False)
    (ax,) = overlay.axes
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["e2e cwnd", "e2e-eln cwnd"]
    styles = {_line(overlay, f"cwnd:{s}").get_linestyle() for s in runs}
    assert len(styles) == 2  # not colour alone


# --- Figs. 5, 7, 10 -------------------------------------------------------------------


def test_time_sequence_fig7_marks_match_the_tables(runs: dict[str, lasthop.RunResult]) -> None:
    sent = {plots.scheme_name(s): r.sent for s, r in runs.items()}
    events = {plots.scheme_name(s): r.events for s, r in runs.items()}
    fig = plots.time_sequence(sent, events, title="Fig. 7")
    assert len(fig.axes) == 2
    for label, r in zip(sent, runs.values(), strict=True):
        table = r.sent.to_pandas()
        kinds = r.events.to_pandas().kind.value_counts()
        retransmits = int(table.retransmit.sum())
        assert retransmits > 0
        assert len(_line(fig, f"retransmit:{label}").get_xdata()) == retransmits
        assert len(_line(fig, f"sent:{label}").get_xdata()) == len(table) - retransmits
        for kind in ("fast_retransmit", "timeout"):
            line = _line(fig, f"{kind}:{label}")
            assert len(line.get_xdata()) == kinds.get(kind, 0)
            assert line.get_marker() == ("v" if kind == "fast_retransmit" else "^")
        # The rows sit at the top and bottom of the panel, in axes coordinates.
        assert set(_line(fig, f"fast_retransmit:{label}").get_ydata()) <= {0.96}
        assert set(_line(fig, f"timeout:{label}").get_ydata()) <= {0.035}
    assert kinds["eln_retransmit"] > 0  # the E2E-ELN run
    assert len(_line(fig, "eln_retransmit:E2E-ELN").get_xdata()) == kinds["eln_retransmit"]
    assert not [a for a in fig.axes[0].get_children() if a.get_gid() == "eln_retransmit:E2E"]

    e2e = runs["e2e"]
    assert e2e.flows[0]["timeouts"] > 0 and e2e.flows[0]["fast_retransmits"] > 0
    ax = fig.axes[0]
    assert ax.get_ylabel() == "sequence number (KB)"  # a 1 MB transfer
    assert fig.axes[-1].get_xlabel() == "time (s)"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:2] == ["segment sent", "retransmission"]
    assert legend[2] == f"fast retransmit ({e2e.flows[0]['fast_retransmits']}, top row)"
    assert legend[3] == f"coarse timeout ({e2e.flows[0]['timeouts']}, bottom row)"


def test_time_sequence_single_run_and_time_window(runs: dict[str, lasthop.RunResult]) -> None:
    r = runs["e2e"]
    fig = plots.time_sequence(r.sent, r.events, time_window_s=(0.0, 2.0), seq_unit="MB")
    (ax,) = fig.axes
    table = r.sent.to_pandas()
    early = table[table.time_ns <= 2_000_000_000]
    assert len(_line(fig, "retransmit:run").get_xdata()) == int(early.retransmit.sum())
    assert ax.get_xlim() == (0.0, 2.0)
    assert ax.get_ylabel() == "sequence number (MB)"


# --- Fig. 12 --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def error_rate_points() -> list[dict[str, Any]]:
    schemes, kbs, seeds = ("e2e", "e2e-smart"), (16, 64, 256), (1, 2)
    jobs = [
        Job(LAN, (SMALL, f"scheme={s}", f"error_every_bytes={kb * 1024}"), seed)
        for s in schemes
        for kb in kbs
        for seed in seeds
    ]
    return [
        {
            "scheme": job.sets[1].removeprefix("scheme="),
            "error_every_bytes": int(job.sets[2].removeprefix("error_every_bytes=")),
            "throughput_mbps": summary["flows"][0]["throughput_bps"] / 1e6,
        }
        for job, summary in zip(jobs, run_jobs(jobs, workers=1), strict=True)
    ]


def test_throughput_vs_error_rate_fig12_log_axis_one_line_per_scheme(
    error_rate_points: list[dict[str, Any]],
) -> None:
    fig = plots.throughput_vs_error_rate(error_rate_points, peak_mbps=1.5)
    (ax,) = fig.axes
    assert ax.get_xscale() == "log"
    assert "KB" in ax.get_xlabel() and "log" in ax.get_xlabel()
    assert ax.get_ylabel() == "throughput (Mb/s)"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["16", "64", "256"]
    lines = [_line(fig, f"scheme:{s}") for s in ("e2e", "e2e-smart")]
    for line, scheme in zip(lines, ("e2e", "e2e-smart"), strict=True):
        assert list(line.get_xdata()) == [16, 64, 256]
        for x, y in zip(line.get_xdata(), line.get_ydata(), strict=True):
            values = [
                p["throughput_mbps"]
                for p in error_rate_points
                if p["scheme"] == scheme and p["error_every_bytes"] == x * 1024
            ]
            assert y == pytest.approx(sum(values) / len(values))  # the mean of the seeds
    assert lines[0].get_marker() != lines[1].get_marker()
    assert lines[0].get_linestyle() != lines[1].get_linestyle()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:2] == ["E2E", "E2E-SMART"] and legend[2].startswith("error-free maximum")


def test_throughput_vs_error_rate_as_bit_error_rate(
    error_rate_points: list[dict[str, Any]],
) -> None:
    fig = plots.throughput_vs_error_rate(pd.DataFrame(error_rate_points), x="ber")
    (ax,) = fig.axes
    assert ax.get_xscale() == "log" and "bit-error rate" in ax.get_xlabel()
    assert min(_line(fig, "scheme:e2e").get_xdata()) == pytest.approx(1 / (8 * 256 * 1024))


# --- saving ---------------------------------------------------------------------------


def test_saved_png_and_svg_are_deterministic(
    runs: dict[str, lasthop.RunResult], tmp_path: Path
) -> None:
    def draw() -> Figure:
        r = runs["e2e"]
        return plots.time_sequence({"E2E": r.sent}, {"E2E": r.events})

    first = plots.save(draw(), tmp_path / "a" / "fig7")
    second = plots.save(draw(), tmp_path / "b" / "fig7")
    assert [p.name for p in first] == ["fig7.png", "fig7.svg"]
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    png, svg = (p.read_bytes() for p in first)
    assert png.startswith(b"\x89PNG") and b"Software" not in png
    assert b"<svg" in svg and b"<dc:date>" not in svg
    assert plots.to_bytes(draw(), "svg") == svg


def test_plots_never_import_pyplot() -> None:
    code = "import lasthop.plots, lasthop.report, sys; print('matplotlib.pyplot' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
