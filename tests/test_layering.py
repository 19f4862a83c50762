"""Issue 28, item 7: papers are plug-ins of one reproduction framework. The framework
(every module of ``lasthop`` outside ``lasthop.papers``: jobs, claims, deviations, the
registry, rendering, the report, the command line) imports no paper; a paper imports the
framework. Each framework module is imported alone in a fresh interpreter, so that a
module another test imported cannot hide a paper's module it loads. The registry finds
the papers by name, and a paper's package loads none of the heavy libraries until its
report is drawn."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from lasthop.reproduction import registry

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "lasthop"
PAPERS = "lasthop.papers"
HEAVY = ("numpy", "pandas", "pyarrow", "matplotlib", "duckdb")


def _modules(folder: Path, prefix: str) -> list[str]:
    """The dotted names of the modules under ``folder`` (packages by their ``__init__``)."""
    names = []
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join([prefix, *parts]))
    return names


FRAMEWORK = [
    name
    for name in _modules(PACKAGE, "lasthop")
    # __main__ runs the command line when imported.
    if not name.startswith(f"{PAPERS}.") and name != "lasthop.__main__"
]
PAPER_MODULES = [name for name in _modules(PACKAGE, "lasthop") if name.startswith(f"{PAPERS}.")]

# Imports one module and says which modules of lasthop.papers and which heavy libraries
# were loaded.
LOADED = """\
import importlib, json, sys
importlib.import_module(sys.argv[1])
if len(sys.argv) > 2:
    exec(sys.argv[2])
papers = sorted(m for m in sys.modules if m.startswith("lasthop.papers."))
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(sys.argv[3])))
print(json.dumps({"papers": papers, "heavy": heavy}))
"""


def loaded(module: str, then: str = "") -> dict[str, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", LOADED, module, then, json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    found: dict[str, list[str]] = json.loads(proc.stdout)
    return found


def test_the_framework_and_the_papers_are_found() -> None:
    assert "lasthop.reproduction.registry" in FRAMEWORK and "lasthop.report" in FRAMEWORK
    assert "lasthop.cli" in FRAMEWORK and "lasthop.render" in FRAMEWORK
    assert f"{PAPERS}.balakrishnan97.claims" in PAPER_MODULES


@pytest.mark.parametrize("module", FRAMEWORK)
def test_a_framework_module_loads_no_paper(module: str) -> None:
    found = loaded(module)
    assert found["papers"] == [], f"import {module} loads {found['papers']}"


@pytest.mark.parametrize("module", FRAMEWORK)
def test_a_framework_module_names_no_paper_in_an_import(module: str) -> None:
    """Nor inside a function, where importing the module alone would not run it: the
    framework reaches a paper only through the registry, by name."""
    parts = module.split(".")[1:]
    path = PACKAGE.joinpath(*parts)
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    named = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            named += [f"{node.module}.{alias.name}" for alias in node.names]
    assert [n for n in named if n.startswith(f"{PAPERS}.")] == []


def test_the_registry_reads_the_papers_without_loading_them() -> None:
    """The command line's choices come from the registry at every start."""
    found = loaded(
        "lasthop.cli",
        "from lasthop.reproduction import registry; registry.selections(); registry.only_parts()",
    )
    assert found["papers"] == []


def test_the_registry_finds_every_paper_in_order() -> None:
    """Today's papers and selections keep their order; a paper added later takes its
    place by its position without this test changing."""
    folders = sorted(p.parent.name for p in (PACKAGE / "papers").glob(f"*/{registry.DESCRIPTION}"))
    names = [paper.name for paper in registry.papers()]
    assert sorted(names) == folders
    known = ["balakrishnan97", "elaarag02", "balakrishnan99", "yun09"]
    assert [name for name in names if name in known] == known
    today = [
        "all",
        "balakrishnan97",
        "balakrishnan97-baseline",
        "balakrishnan97-table3",
        "elaarag02",
        "balakrishnan99",
        "yun09",
    ]
    assert [name for name in registry.selections() if name in today] == today


def test_the_parts_of_balakrishnan97_are_its_experiments_parts() -> None:
    from lasthop.papers.balakrishnan97.experiments import PARTS

    (paper,) = [p for p in registry.papers() if p.name == "balakrishnan97"]
    assert paper.only == tuple(PARTS)
    assert registry.only_selections()[0] == "balakrishnan97"


@pytest.mark.parametrize("paper", [p.name for p in registry.papers()])
def test_a_paper_loads_light_until_its_report(paper: str) -> None:
    """A paper's package and its ``paper`` module (what ``lasthop reproduce --format json``
    loads of it) import no heavy library: those come with its tables and figures."""
    found = loaded(f"{PAPERS}.{paper}.{registry.MODULE}")
    assert found["heavy"] == [], f"{paper} loads {found['heavy']}"
    assert registry.load(paper).claims is not None
