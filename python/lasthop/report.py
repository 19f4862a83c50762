"""A self-contained HTML report, of a reproduction or of stored runs: what was run, the
measured cells beside the published ones, the papers' claims checked on them with the
deviations explained (:mod:`lasthop.reproduction.claims`), and the figures.

The report is one file, ``index.html``, with no external resources: its style is inline
and its figures are ``data:`` URIs. The figures' PNG and SVG files are written beside it
for people who want them. The same inputs give the same bytes: the report carries no
wall-clock time, and :mod:`lasthop.plots` saves deterministically.

- :func:`build_report` / :func:`write_report`: a report from cells and figures made
  elsewhere (e.g. a results store).
- :class:`ReportPart`: a paper's part of the report of a reproduction (its figures, what
  was run for them, how its cells' tables read), which
  :func:`lasthop.reproduction.report.reproduction_report` puts together.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from matplotlib.figure import Figure

from lasthop import plots
from lasthop.reproduction.claims import figures_text
from lasthop.reproduction.deviations import grouped

__all__ = [
    "CellTable",
    "HtmlTable",
    "ReportFigure",
    "ReportPart",
    "build_report",
    "write_report",
]

_STYLE: Final = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a;
  margin: 0; background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 0.5rem; }
h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
h3 { font-size: 1.05rem; margin: 1.6rem 0 0.4rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.4rem 0; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
th, td { border-bottom: 1px solid #e2e2e2; padding: 0.2rem 0.55rem; text-align: left;
  white-space: nowrap; }
th { background: #f4f4f4; white-space: normal; vertical-align: bottom; }
td.num, th.num { text-align: right; }
div.scroll { overflow-x: auto; }
figure { margin: 1.8rem 0; }
figure img { max-width: 100%; height: auto; display: block; border: 1px solid #eee; }
figcaption { font-size: 0.92rem; color: #333; margin-top: 0.4rem; }
p.files { font-size: 0.85rem; margin: 0.2rem 0 0; }
table.claims td { white-space: normal; vertical-align: top; min-width: 7rem; }
td.holds { color: #0b6e2e; font-weight: 600; }
td.fails { color: #b00020; font-weight: 600; }
td.unchecked { color: #8a6d00; font-weight: 600; }
div.deviation { border-left: 3px solid #b00020; padding: 0.1rem 0 0.1rem 0.8rem;
  margin: 1rem 0; }
div.deviation ul { margin: 0.2rem 0; padding-left: 1.2rem; }
""".strip()


@dataclass(frozen=True)
class ReportFigure:
    """A figure of the report: numbered in order, captioned "Fig. N: caption", or
    "Fig. N (as in PAPER Fig. M): caption" when it says which paper's figure it is."""

    stem: str
    """File name without suffix for its PNG and SVG, e.g. ``fig6-end-to-end``."""
    figure: Figure
    caption: str
    alt: str
    """Text alternative for the image: what it shows, for a reader who cannot see it."""
    paper_figure: int | None = None
    """The number of the figure of :attr:`paper` this one corresponds to, if any."""
    paper: str | None = None
    """The paper whose figure this one corresponds to (``Balakrishnan et al. 1997``)."""


@dataclass(frozen=True)
class HtmlTable:
    """A table of text: a caption, headers and rows of (text, is a number) cells."""

    caption: str
    headers: Sequence[tuple[str, bool]]
    rows: Sequence[Sequence[tuple[str, bool]]]


@dataclass(frozen=True)
class CellTable:
    """How the report shows the cells of one ``table``: its caption, and its columns when
    they are not the throughput beside the published value."""

    title: str
    columns: tuple[tuple[str, str, int], ...] = ()
    """(header, the cell's key, digits) after the setting and the protocol; none: the
    setting, the scheme, the throughput with the goodputs and the published value."""
    name: Callable[[str], str] = plots.scheme_name
    """How the protocol (or :attr:`series_header`) column names a cell's ``scheme``."""
    before: tuple[HtmlTable, ...] = ()
    """Tables shown just before this one (seed 001's T5 before its F14)."""
    setting: Callable[[str], str] = plots.setting_name
    """How the setting column names a cell's ``setting`` (without :attr:`columns`)."""
    setting_header: str = "setting"
    """The header of the setting column (without :attr:`columns`)."""
    series_header: str = "scheme"
    """The header of the column of the cells' ``scheme`` (without :attr:`columns`)."""
    published: bool = True
    """Whether the table has the published value and the ratio to it (without
    :attr:`columns`)."""


@dataclass(frozen=True)
class ReportPart:
    """A paper's part of the report of a reproduction (what its
    :meth:`~lasthop.reproduction.paper.Paper.report` gives).

    The report shows the framework's rows on what was run, then every paper's
    :attr:`provenance`, every paper's :attr:`provenance_after`, the plotting library's
    version and every paper's :attr:`sources`; its figures paper after paper."""

    figures: Sequence[ReportFigure] = ()
    """The paper's figures, in the order shown."""
    provenance: Sequence[tuple[str, str]] = ()
    """Rows (what, value) saying what was run for the figures."""
    provenance_after: Sequence[tuple[str, str]] = ()
    """Rows shown after every paper's :attr:`provenance` (the 1997 paper's Fig. 12 runs)."""
    sources: Sequence[tuple[str, str]] = ()
    """Rows citing the paper, shown last."""
    cell_tables: Mapping[str, CellTable] = field(default_factory=dict)
    """How the tables of the paper's cells read, by ``table``; a table not here is
    captioned with its name and shows the throughput columns."""


def build_report(
    *,
    title: str,
    cells: Sequence[Mapping[str, Any]],
    figures: Sequence[ReportFigure],
    provenance: Sequence[tuple[str, str]] = (),
    embed: Literal["png", "svg"] = "png",
    file_links: bool = False,
    claims: Sequence[Mapping[str, Any]] = (),
    deviations: Sequence[Mapping[str, Any]] = (),
    cell_tables: Mapping[str, CellTable] | None = None,
    summary: Sequence[Mapping[str, Any]] = (),
    sensitivity: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The report as one HTML document (a string): ``title``; ``provenance``, rows of
    (what, value) saying what was run; the ``cells`` (as ``reproduce()`` returns them)
    as one table per ``table`` field, each as ``cell_tables`` says; and the ``figures``
    embedded as ``embed`` data URIs. ``file_links`` adds links to ``STEM.png`` and
    ``STEM.svg`` beside the file (as :func:`write_report` writes them). ``claims`` and
    ``deviations`` (as a :class:`~lasthop.reproduction.reproduce.Reproduction` has them)
    make the Claims table and the Deviations section; ``summary`` the count of verdicts
    per paper, ``sensitivity`` the tables of the defaults no source decides."""
    images = [plots.to_bytes(f.figure, embed) for f in figures]
    return _html(
        title,
        cells,
        figures,
        images,
        embed,
        provenance,
        file_links,
        claims,
        deviations,
        cell_tables,
        summary,
        sensitivity,
    )


def write_report(
    directory: str | Path,
    *,
    title: str,
    cells: Sequence[Mapping[str, Any]],
    figures: Sequence[ReportFigure],
    provenance: Sequence[tuple[str, str]] = (),
    embed: Literal["png", "svg"] = "png",
    claims: Sequence[Mapping[str, Any]] = (),
    deviations: Sequence[Mapping[str, Any]] = (),
    cell_tables: Mapping[str, CellTable] | None = None,
    summary: Sequence[Mapping[str, Any]] = (),
    sensitivity: Sequence[Mapping[str, Any]] = (),
) -> Path:
    """Write ``DIRECTORY/index.html`` (see :func:`build_report`) and each figure's
    ``STEM.png`` and ``STEM.svg`` beside it; return the path of ``index.html``."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    images = []
    for f in figures:
        rendered = {fmt: plots.to_bytes(f.figure, fmt) for fmt in ("png", "svg")}
        for fmt, data in rendered.items():
            (out / f"{f.stem}.{fmt}").write_bytes(data)
        images.append(rendered[embed])
    index = out / "index.html"
    text = _html(
        title,
        cells,
        figures,
        images,
        embed,
        provenance,
        True,
        claims,
        deviations,
        cell_tables,
        summary,
        sensitivity,
    )
    index.write_text(text, encoding="utf-8")
    return index


# --- HTML -----------------------------------------------------------------------------


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _html(
    title: str,
    cells: Sequence[Mapping[str, Any]],
    figures: Sequence[ReportFigure],
    images: Sequence[bytes],
    embed: Literal["png", "svg"],
    provenance: Sequence[tuple[str, str]],
    file_links: bool,
    claims: Sequence[Mapping[str, Any]],
    deviations: Sequence[Mapping[str, Any]],
    cell_tables: Mapping[str, CellTable] | None,
    summary: Sequence[Mapping[str, Any]] = (),
    sensitivity: Sequence[Mapping[str, Any]] = (),
) -> str:
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>\n{_STYLE}\n</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<h1>{_e(title)}</h1>",
    ]
    if provenance:
        out += ['<section id="run">', "<h2>What was run</h2>", "<dl>"]
        for key, value in provenance:
            out.append(f"<dt>{_e(key)}</dt><dd>{_e(value)}</dd>")
        out += ["</dl>", "</section>"]
    if cells:
        heading = "Measured beside published" if _any_published(cells) else "Measured"
        out += ['<section id="cells">', f"<h2>{heading}</h2>"]
        for table in dict.fromkeys(str(c.get("table", "")) for c in cells):
            how = (cell_tables or {}).get(table) or CellTable(table)
            for before in how.before:
                out += _html_table(before.caption, before.headers, before.rows)
            out += _cells_table(how, [c for c in cells if str(c.get("table", "")) == table])
        out.append("</section>")
    if summary:
        out += _summary_section(summary)
    if claims:
        out += _claims_section(claims)
    if claims or deviations:
        out += _deviations_section(deviations)
    if sensitivity:
        out += _sensitivity_section(sensitivity)
    if figures:
        out += ['<section id="figures">', "<h2>Figures</h2>"]
        mime = "image/png" if embed == "png" else "image/svg+xml"
        for n, (fig, data) in enumerate(zip(figures, images, strict=True), start=1):
            width, height = (round(v * 100) for v in fig.figure.get_size_inches())
            src = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
            as_in = (
                f" (as in {fig.paper} Fig. {fig.paper_figure})"
                if fig.paper and fig.paper_figure
                else ""
            )
            out += [
                f'<figure id="{_e(fig.stem)}">',
                f'<img src="{src}" alt="{_e(fig.alt)}" width="{width}" height="{height}">',
                f"<figcaption><strong>Fig. {n}{_e(as_in)}:</strong> {_e(fig.caption)}</figcaption>",
            ]
            if file_links:
                out.append(
                    f'<p class="files">Files: <a href="{_e(fig.stem)}.png">PNG</a>, '
                    f'<a href="{_e(fig.stem)}.svg">SVG</a></p>'
                )
            out.append("</figure>")
        out.append("</section>")
    out += ["</main>", "</body>", "</html>", ""]
    return "\n".join(out)


_SUMMARY_COLUMNS: Final = (
    ("holds", "holds"),
    ("fails_explained", "fails, explained"),
    ("fails_open", "fails, open"),
    ("unchecked", "not checked"),
    ("far_cells_explained", "far cells, explained"),
    ("far_cells_open", "far cells, open"),
)


def _summary_section(summary: Sequence[Mapping[str, Any]]) -> list[str]:
    headers = [("paper", False), *((label, True) for _, label in _SUMMARY_COLUMNS)]
    rows = [
        [(str(r["paper"]), False), *((str(r[key]), True) for key, _ in _SUMMARY_COLUMNS)]
        for r in summary
    ]
    return [
        '<section id="summary">',
        "<h2>Claims and deviations per paper</h2>",
        "<p>A claim fails <em>explained</em> when its deviation names a cause and a run that "
        "varies the cause moves the claim's figures toward the paper; <em>open</em> when the "
        "cause is not identified or its run does not move them.</p>",
        *_html_table("", headers, rows),
        "</section>",
    ]


def _claims_section(claims: Sequence[Mapping[str, Any]]) -> list[str]:
    counts: dict[str, int] = {}
    for claim in claims:
        verdict = str(claim.get("verdict", claim["status"]))
        counts[verdict] = counts.get(verdict, 0) + 1
    papers = ", ".join(dict.fromkeys(str(c.get("paper", "")) for c in claims if c.get("paper")))
    out = [
        '<section id="claims">',
        "<h2>Claims</h2>",
        f"<p>Every checkable statement of the papers ({_e(papers)}), evaluated on the cells "
        "above by one rule: a figure is the mean over the seeds with its 95% interval, "
        '"X &gt; Y" holds when the intervals do not overlap, "about equal" when they '
        "overlap, any other tolerance is quoted from the paper. "
        + _e(", ".join(f"{n} {v}" for v, n in counts.items()))
        + ". The Deviations section explains each failure.</p>",
        '<div class="scroll"><table class="claims">',
        "<thead><tr>"
        + "".join(
            f'<th scope="col">{h}</th>'
            for h in ("verdict", "claim", "the paper says", "checked as", "measured")
        )
        + "</tr></thead>",
        "<tbody>",
    ]
    for claim in claims:
        status = str(claim["status"])
        verdict = str(claim.get("verdict", status))
        measured = (
            figures_text(claim["figures"], claim.get("ci95"))
            if claim["figures"]
            else f"not checked: {claim.get('reason', '')}"
        )
        out.append(
            f'<tr id="claim-{_e(claim["id"])}">'
            f'<td class="{_e(status)}">{_e(verdict)}</td>'
            f"<td><code>{_e(claim['id'])}</code><br>{_e(claim['section'])}</td>"
            f"<td>{_e(claim['statement'])}</td>"
            f"<td>{_e(claim['checked_as'])}</td>"
            f"<td>{_e(measured)}</td></tr>"
        )
    out += ["</tbody>", "</table></div>", "</section>"]
    return out


def _deviations_section(deviations: Sequence[Mapping[str, Any]]) -> list[str]:
    from lasthop.render import check_text

    out = [
        '<section id="deviations">',
        "<h2>Deviations</h2>",
        "<p>Every failed claim and every cell whose 95% interval over the published value "
        "lies outside 0.8-1.25, grouped by explanation, each with its cause, the run that "
        "varies the cause and what it did, and the causes ruled out by runs of their own. "
        "The explanations are the DEVIATIONS of each paper's package "
        "(<code>python/lasthop/papers/&lt;paper&gt;/</code>).</p>",
    ]
    if not deviations:
        out += ["<p>None: every claim holds and every cell is within 0.8-1.25.</p>"]
    for n, (explanation, found) in enumerate(grouped(deviations), start=1):
        statuses = "/".join(sorted({str(d.get("status", "open")) for d in found}))
        out += [f'<div class="deviation" id="deviation-{n}">', "<ul>"]
        for d in found:
            out.append(f"<li><code>{_e(d['key'])}</code> ({_e(d['kind'])}): {_e(d['what'])}</li>")
        out += [
            "</ul>",
            f"<p><strong>{_e(statuses)}. Cause:</strong> {_e(found[0].get('cause', ''))}. "
            f"{_e(explanation)}</p>",
        ]
        for line in sorted({check_text(d["check"]) for d in found if d.get("check")}):
            out.append(f"<p><strong>Check:</strong> {_e(line)}</p>")
        for line in sorted({check_text(r) for d in found for r in d.get("ruled_out", [])}):
            out.append(f"<p><strong>Ruled out:</strong> {_e(line)}</p>")
        out.append("</div>")
    out.append("</section>")
    return out


def _sensitivity_section(sensitivity: Sequence[Mapping[str, Any]]) -> list[str]:
    out = [
        '<section id="sensitivity">',
        "<h2>Sensitivity to defaults without a source</h2>",
        "<p>Each default of a reproduced scenario that no source decides, with the sentence "
        "that chose it, and the cells it reaches at other values (mean and 95% half width "
        "over the seeds).</p>",
    ]
    for s in sensitivity:
        values = [str(v) for v in s["values"]]
        headers = [("cell", False), *((v, True) for v in values)]
        rows = []
        for row in s["cells"]:
            texts = []
            for v in values:
                figure = row["values"].get(v) or {}
                mean, half = figure.get("mean"), figure.get("ci95")
                text = "-" if mean is None else _fixed(mean, 3)
                if half is not None and mean is not None:
                    text += f" ± {_fixed(half, 3)}"
                texts.append((text, True))
            rows.append([(str(row["cell"]), False), *texts])
        out += _html_table(f"{s['paper']}: {s['what']}", headers, rows)
    out.append("</section>")
    return out


def _any_published(cells: Sequence[Mapping[str, Any]]) -> bool:
    return any(c.get("published") is not None for c in cells)


_NUM: Final = ' class="num"'


def _cells_table(how: CellTable, cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """The table of ``cells`` (of one ``table``) as ``how`` says."""
    if how.columns:
        headers = [("setting", False), ("protocol", False), *((h, True) for h, _, _ in how.columns)]
        rows = [
            [
                (str(c.get("setting", "")), False),
                (how.name(str(c.get("scheme", ""))), False),
                *((_fixed(c.get(key), digits), True) for _, key, digits in how.columns),
            ]
            for c in cells
        ]
        return _html_table(how.title, headers, rows)
    pps = any("throughput_pps" in c for c in cells)
    unit = "packets/s" if pps else "Mb/s"
    key = "throughput_pps" if pps else "throughput_mbps"
    digits = 2 if pps else 3
    # A cell's goodput per link direction (``goodput_pct``, named by the run's own links),
    # else the 1997 paper's two columns.
    links = list(dict.fromkeys(name for c in cells for name in c.get("goodput_pct") or {}))
    if links or any("goodput_pct" in c for c in cells):
        goodputs = [(f"goodput % {name}", ("goodput_pct", name)) for name in links]
    else:
        goodputs = [
            ("wireless goodput %", ("wireless_goodput_pct", None)),
            ("wired goodput %", ("wired_goodput_pct", None)),
        ]
    headers = [
        (how.setting_header, False),
        (how.series_header, False),
        (f"measured {unit}", True),
        *((header, True) for header, _ in goodputs),
    ]
    if how.published:
        headers += [(f"published {unit}", True), ("measured / published", True)]
    rows = []
    for c in cells:
        row = [
            (how.setting(str(c.get("setting", ""))), False),
            (how.name(str(c.get("scheme", ""))), False),
            (_fixed(c.get(key), digits), True),
            *((_fixed(_goodput(c, field, link), 1), True) for _, (field, link) in goodputs),
        ]
        if how.published:
            row += [
                (_fixed(c.get("published"), 3 if pps else 2), True),  # the paper's precision
                (_fixed(c.get("ratio"), 3), True),
            ]
        rows.append(row)
    return _html_table(how.title, headers, rows)


def _goodput(cell: Mapping[str, Any], field: str, link: str | None) -> Any:
    """A cell's goodput: ``cell[field]``, or with ``link`` that link's in ``cell[field]``."""
    value = cell.get(field)
    if link is None:
        return value
    return (value or {}).get(link)


def _html_table(
    caption: str, headers: Sequence[tuple[str, bool]], rows: Sequence[Sequence[tuple[str, bool]]]
) -> list[str]:
    """An HTML table: a caption, headers and rows of (text, is a number) cells."""
    out = [
        '<div class="scroll"><table>',
        f"<caption>{_e(caption)}</caption>",
        "<thead><tr>"
        + "".join(f'<th scope="col"{_NUM if num else ""}>{_e(h)}</th>' for h, num in headers)
        + "</tr></thead>",
        "<tbody>",
    ]
    for values in rows:
        out.append(
            "<tr>"
            + "".join(f"<td{_NUM if num else ''}>{_e(v)}</td>" for v, num in values)
            + "</tr>"
        )
    out += ["</tbody>", "</table></div>"]
    return out


def _fixed(value: Any, digits: int) -> str:
    if value is None:
        return "\u2014"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(number):
        return "\u2014"
    return f"{number:.{digits}f}"
