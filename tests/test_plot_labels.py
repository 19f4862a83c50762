"""Figures and reports of a user's own runs (issue 29 item 7): labels from the plan and the
scenario, no paper attribution, 20 distinct series styles, trace panels paginated instead
of dropped, ``--flow`` picking the flow drawn, and the report's goodput columns from the
runs' own links in a table that fits a 1400 px window."""

from __future__ import annotations

import html
import itertools
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import lasthop_cli
from matplotlib import colors
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from test_report import _browser, _chromium

from lasthop import figures, plots, store
from lasthop.report import CellTable, build_report

SCHEMES = ("e2e", "e2e-newreno", "e2e-smart", "e2e-ietf-sack", "e2e-eln", "e2e-sack-eln")
PLAN = f"""
name = "my-buffers"
scenario = "balakrishnan97/lan"
seeds = 1
set = ["flows.0.bytes=262144"]

[grid]
scheme = {json.dumps(list(SCHEMES))}
socket_buffer_bytes = [8192, 32768]
"""
# Two flows, on links named neither wireless nor wired.
TWO_WAY = """
name = "two-way"
scenario = "balakrishnan99/two-way"
seeds = 1

[grid]
protocol = ["reno", "acc"]
"""


def _sweep(root: Path, text: str, name: str) -> Path:
    plan = root / f"{name}.toml"
    plan.write_text(text, encoding="utf-8")
    db = root / f"{name}-store" / "lasthop.duckdb"
    result = lasthop_cli("sweep", str(plan), "--store", str(db))
    assert result.returncode == 0, result.stderr
    return db


@pytest.fixture(scope="module")
def buffers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _sweep(tmp_path_factory.mktemp("buffers"), PLAN, "buffers")


@pytest.fixture(scope="module")
def two_way(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _sweep(tmp_path_factory.mktemp("two-way"), TWO_WAY, "two-way")


def _texts(fig: Figure) -> str:
    """Every title, label, tick label and legend text of ``fig``, one per line."""
    found = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    return "\n".join(str(t) for t in found if t)


# --- labels from the plan and the scenario --------------------------------------------


def test_throughput_of_a_plan_is_labelled_by_its_parameters_not_the_paper(buffers: Path) -> None:
    (fig,) = figures.figure("throughput", buffers, group="socket_buffer_bytes")
    (ax,) = fig.axes
    assert ax.get_xlabel().startswith("socket_buffer_bytes; bar labels: % of the")
    assert "testbed" not in _texts(fig)
    assert ax.get_title() == "Mean throughput per scheme: balakrishnan97/lan, plan my-buffers"
    legend = fig.legends[0]
    assert isinstance(legend, Legend)
    assert legend.get_title().get_text() == "scheme"
    # The plan's values as it spells them, not the paper's capitals.
    assert [t.get_text() for t in legend.get_texts()][: len(SCHEMES)] == list(SCHEMES)
    assert [t.get_text().split("\n")[0] for t in ax.get_xticklabels()] == ["8192", "32768"]
    # No error-free run in the selection: the dashed line is the best bar, and says so.
    assert "no error-free run" in ax.get_xlabel()
    assert [t.get_text() for t in legend.get_texts()][len(SCHEMES)] == "best bar"
    # The reproduction keeps the paper's label (its figures' default).
    paper = plots.throughput_bars(
        [{"setting": "lan-32k", "scheme": "e2e", "throughput_mbps": 1.0}], {"lan-32k": 1.5}
    )
    assert paper.axes[0].get_xlabel() == plots.PAPER_SETTINGS_XLABEL
    assert "LAN, 32 KB" in _texts(paper)


def test_error_rate_of_another_parameter_is_labelled_by_its_name(buffers: Path) -> None:
    (fig,) = figures.figure("error-rate", buffers, x="socket_buffer_bytes")
    (ax,) = fig.axes
    assert ax.get_xlabel() == "socket_buffer_bytes (log scale)"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["8192", "32768"]
    assert "error" not in ax.get_xlabel()
    legend = ax.get_legend()
    assert legend is not None and legend.get_title().get_text() == "scheme"


def test_report_of_a_plan_cites_no_paper(buffers: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = lasthop_cli("report", str(out), "--store", str(buffers))
    assert result.returncode == 0, result.stderr
    text = (out / "index.html").read_text(encoding="utf-8")
    assert "Balakrishnan" not in text and "as in" not in text
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", text)
    assert captions and all("balakrishnan97/lan, plan my-buffers" in c for c in captions)


# --- 20 distinct series ---------------------------------------------------------------


def _lab(colour: str) -> Any:
    """CIE L*a*b* (D65) of an sRGB colour."""
    rgb = np.array(colors.to_rgb(colour))
    linear = np.where(rgb > 0.04045, ((rgb + 0.055) / 1.055) ** 2.4, rgb / 12.92)
    xyz = (
        np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
        @ linear
        / np.array([0.95047, 1.0, 1.08883])
    )
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_the_palette_keeps_20_colours_apart() -> None:
    palette = plots.PALETTE[:20]
    assert len(set(palette)) == 20
    closest = min(np.linalg.norm(_lab(a) - _lab(b)) for a, b in itertools.combinations(palette, 2))
    # No closer than the closest two of Okabe and Ito's eight (delta E 26.4).
    assert closest >= 26.0


def test_twenty_bars_get_twenty_distinct_colour_and_hatch_pairs() -> None:
    names = [f"series-{i}" for i in range(20)]
    cells = [
        {"setting": "s", "scheme": n, "throughput_mbps": 1.0 + i / 40} for i, n in enumerate(names)
    ]
    fig = plots.throughput_bars(cells, {"s": 2.0})
    bars = [
        a
        for a in fig.axes[0].get_children()
        if isinstance(a, Rectangle) and (a.get_gid() or "").startswith("bar:")
    ]
    assert len(bars) == 20
    pairs = {(colors.to_hex(b.get_facecolor()), b.get_hatch() or "") for b in bars}
    assert len(pairs) == 20
    # The legend shows each bar's own style.
    handles = fig.legends[0].legend_handles[:20]
    assert {(colors.to_hex(h.get_facecolor()), h.get_hatch() or "") for h in handles} == pairs


def test_twenty_lines_get_twenty_distinct_styles() -> None:
    points = [
        {"scheme": f"series-{i}", "error_every_bytes": e, "throughput_mbps": 1.0 + i / 40}
        for i in range(20)
        for e in (16384, 65536)
    ]
    fig = plots.throughput_vs_error_rate(points)
    lines = [
        a
        for a in fig.axes[0].get_children()
        if isinstance(a, Line2D) and (a.get_gid() or "").startswith("scheme:")
    ]
    assert len(lines) == 20
    assert len({colors.to_hex(line.get_color()) for line in lines}) == 20
    assert len({(line.get_marker(), str(line.get_linestyle())) for line in lines}) >= 12


# --- trace figures: pages and flows ---------------------------------------------------


def test_cwnd_of_more_runs_than_a_page_holds_is_drawn_on_pages(
    buffers: Path, tmp_path: Path
) -> None:
    stem = tmp_path / "cwnd"
    # One run per scheme at 32 KB: six panels, four to a page.
    result = lasthop_cli(
        "plot", "cwnd", "--store", str(buffers), "--out", str(stem),
        "--where", "socket_buffer_bytes=32768",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        f"{tmp_path}/cwnd-1.png", f"{tmp_path}/cwnd-1.svg",
        f"{tmp_path}/cwnd-2.png", f"{tmp_path}/cwnd-2.svg",
    ]  # fmt: skip
    assert not (tmp_path / "cwnd.png").exists()
    frame = figures.select(buffers, where={"socket_buffer_bytes": "32768"})
    pages = figures.trace_figures("cwnd", frame, buffers)
    titles = [[ax.get_title(loc="left") for ax in fig.axes] for fig in pages]
    assert titles == [
        [f"({letter}) scheme={s}, seed 1" for letter, s in zip("abcd", SCHEMES[:4], strict=True)],
        [f"({letter}) scheme={s}, seed 1" for letter, s in zip("ef", SCHEMES[4:], strict=True)],
    ]
    assert [fig.get_suptitle().endswith(f"(page {n} of 2)") for n, fig in enumerate(pages, 1)] == [
        True,
        True,
    ]
    # Every run is drawn: none is dropped.
    drawn = [a.get_gid() for fig in pages for ax in fig.axes for a in ax.get_lines()]
    assert [g for g in drawn if g.startswith("cwnd:")] == [
        f"cwnd:scheme={s}, seed 1" for s in SCHEMES
    ]


def test_a_single_page_keeps_its_stem(buffers: Path, tmp_path: Path) -> None:
    stem = tmp_path / "seq"
    result = lasthop_cli(
        "plot", "sequence", "--store", str(buffers), "--out", str(stem),
        "--where", "socket_buffer_bytes=32768", "--where", "scheme=e2e",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [f"{stem}.png", f"{stem}.svg"]


def _sent_points(fig: Figure, label: str) -> int:
    (line,) = [a for ax in fig.axes for a in ax.get_lines() if a.get_gid() == f"sent:{label}"]
    return len(line.get_xdata())


def test_flow_picks_the_flow_the_traces_show(two_way: Path) -> None:
    frame = figures.select(two_way, where={"protocol": "reno"})
    key = tuple(frame.loc[0, list(store.KEY_COLUMNS)])
    sent = store.load_series("sent", two_way, keys=[key])
    first = sent[~sent["retransmit"].astype(bool)]
    label = "protocol=reno, seed 1"
    for name, index in (("forward", 0), ("reverse", 1)):
        (fig,) = figures.trace_figures("sequence", frame, two_way, "protocol", flow=name)
        expected = int((first["flow"] == index).sum())
        assert expected > 0
        assert _sent_points(fig, label) == expected
        assert f"flow {name}" in fig.get_suptitle()
    # Without --flow: each run's first flow.
    (fig,) = figures.trace_figures("sequence", frame, two_way, "protocol")
    assert _sent_points(fig, label) == int((first["flow"] == 0).sum())
    assert "flow forward" in fig.get_suptitle()


def test_flow_through_the_command_line(two_way: Path, tmp_path: Path) -> None:
    stem = tmp_path / "cwnd"
    ok = lasthop_cli(
        "plot", "cwnd", "--store", str(two_way), "--out", str(stem), "--flow", "reverse"
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.split() == [f"{stem}.png", f"{stem}.svg"]
    cases = [
        (
            ["cwnd", "--flow", "sideways"],
            "--flow sideways: no stored flow matches (flows: forward, reverse)",
        ),
    ]
    for args, expected in cases:
        out = tmp_path / "bad"
        result = lasthop_cli("plot", *args, "--store", str(two_way), "--out", str(out))
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and expected in result.stderr, result.stderr
        assert result.stdout == "" and not list(tmp_path.glob("bad*"))


# --- the report's table ---------------------------------------------------------------


def test_report_goodput_columns_are_the_runs_own_links(two_way: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = lasthop_cli("report", str(out), "--store", str(two_way))
    assert result.returncode == 0, result.stderr
    text = (out / "index.html").read_text(encoding="utf-8")
    start = text.index('<section id="cells">')
    table = text[start : text.index("</section>", start)]
    headers = [html.unescape(h) for h in re.findall(r"<th[^>]*>([^<]*)</th>", table)]
    frame = store.load_results(two_way)
    links = [
        c.removeprefix("goodput:").replace(":", " ", 1)
        for c in frame.columns
        if c.startswith("goodput:")
    ]
    assert {"cable r1->r2", "lan r2->client", "wired server->r1"} <= set(links)
    assert headers == ["plan", "protocol", "measured Mb/s", *(f"goodput % {n}" for n in links)]
    rows = re.findall(r"<tr>(.*?)</tr>", table[table.index("<tbody>") :])
    assert len(rows) == 2
    for row, protocol in zip(rows, ("reno", "acc"), strict=True):
        shown = re.findall(r'<td class="num">([^<]*)</td>', row)[1:]
        stored = frame[frame["protocol"] == protocol]
        expected = []
        for name in links:
            value = stored["goodput:" + name.replace(" ", ":", 1)].mean()
            # A dash only where the run's direction carried no data.
            expected.append("\u2014" if np.isnan(value) else f"{100 * value:.1f}")
        assert shown == expected
    assert "\u2014" not in re.findall(r'<td class="num">([^<]*)</td>', rows[1])


# Appended to a copy of a report: its layout at the window's width, once loaded.
LAYOUT = """
<script>
window.addEventListener("load", function () {
  var out = document.createElement("pre");
  out.id = "lasthop-layout";
  out.textContent = JSON.stringify({
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
    tables: Array.from(document.querySelectorAll("table")).map(function (t) {
      var box = t.parentElement;
      return {right: t.getBoundingClientRect().right, box: box.clientWidth,
              scroll: box.scrollWidth, style: getComputedStyle(box).overflowX};
    })
  });
  document.body.appendChild(out);
});
</script>
"""


def _layout(index: Path, tmp: Path) -> dict[str, Any]:
    probe = index.with_name("layout.html")
    text = index.read_text(encoding="utf-8")
    probe.write_text(text.replace("</body>", LAYOUT + "</body>"), encoding="utf-8")
    done: subprocess.CompletedProcess[str] = _browser(
        _chromium(), tmp / "profile", "--window-size=1400,900", "--dump-dom", probe.as_uri()
    )
    found = re.search(r'<pre id="lasthop-layout">(.*?)</pre>', done.stdout, re.S)
    assert found, f"no layout; chromium said: {done.stderr[-2000:]}"
    layout: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return layout


def test_report_table_fits_a_1400_px_window(two_way: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = lasthop_cli("report", str(out), "--store", str(two_way))
    assert result.returncode == 0, result.stderr
    layout = _layout(out / "index.html", tmp_path)
    assert layout["window"] == 1400
    assert layout["page"] <= 1400
    (table,) = layout["tables"]
    # The whole table in view: no scrolling, sideways or in its box.
    assert table["right"] <= 1400 and table["scroll"] <= table["box"], table


def test_a_table_too_wide_for_the_window_scrolls_in_its_box(tmp_path: Path) -> None:
    # A cell (yun09's) with 21 link directions: wider than any window; the page stays put.
    links = {f"wlan/ap-d{i} ap->d{i}": 90.0 + i / 10 for i in range(1, 22)}
    cells = [
        {"table": "t", "setting": "p", "scheme": s, "throughput_mbps": 1.0, "goodput_pct": links}
        for s in ("reno", "sack")
    ]
    text = build_report(
        title="wide",
        cells=cells,
        figures=[],
        cell_tables={"t": CellTable("t", name=str, setting=str, published=False)},
    )
    index = tmp_path / "index.html"
    index.write_text(text, encoding="utf-8")
    layout = _layout(index, tmp_path)
    assert layout["page"] <= 1400
    (table,) = layout["tables"]
    assert table["style"] == "auto" and table["scroll"] > table["box"], table


def test_goodput_per_link_in_a_cell_table() -> None:
    cells = [
        {
            "table": "t",
            "setting": "p",
            "scheme": "reno",
            "throughput_mbps": 1.0,
            "goodput_pct": {"radio gw->mh": 91.25, "wired fh->gw": 99.5},
        }
    ]
    text = build_report(
        title="t", cells=cells, figures=[], cell_tables={"t": CellTable("t", published=False)}
    )
    assert "goodput % radio gw-&gt;mh" in text and "goodput % wired fh-&gt;gw" in text
    assert "wireless goodput" not in text and "published" not in text
    assert re.findall(r'<td class="num">([^<]*)</td>', text) == ["1.000", "91.2", "99.5"]
