"""Issue 33, items 6 and 1: ``lasthop reproduce balakrishnan97 --live`` (Table II's LAN
row on real packets, beside the same runs simulated and the published cells) and
``lasthop live`` through the Python command (handed to the native one).

The live run needs root, /dev/net/tun and the native command; where it cannot run, its
test skips with the one line that ``lasthop.reproduction.live.unavailable`` gives, and
the command's own skip (one line, exit 0) is tested on every machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import lasthop_cli

from lasthop import native
from lasthop.reproduction import live

SCHEMES = ("e2e", "ll", "ll-tcp-aware")
DENSE = "lan-32k-err16k"
PUBLISHED = {"e2e": 0.70, "ll": 1.20, "ll-tcp-aware": 1.36}  # LAN 32 KB, Tables II-III


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lasthop", *args],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env={**os.environ, **(env or {})},
    )


def test_unavailable_names_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert "root" in (live.unavailable() or "")
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    real_exists = os.path.exists
    monkeypatch.setattr(os.path, "exists", lambda p: p != "/dev/net/tun" and real_exists(p))
    assert "/dev/net/tun" in (live.unavailable() or "")
    monkeypatch.setattr(os.path, "exists", real_exists)
    monkeypatch.setenv(native.NATIVE_ENV, "/nonexistent/lasthop")
    assert live.unavailable() == (
        f"live runs {native.NATIVE_ENV}=/nonexistent/lasthop is not the native lasthop command"
    )


def test_a_script_named_lasthop_is_not_the_native_command(tmp_path: Any) -> None:
    script = tmp_path / "lasthop"
    script.write_text('#!/bin/sh\nexec python3 -m lasthop "$@"\n')
    script.chmod(0o755)
    assert not native.is_native(script)


def test_live_cells_skipped_in_one_line_and_the_rest_unchanged() -> None:
    """Without a native command (or root, or TUN) --live says why in one line on stderr,
    exits 0, and prints the reproduction as without --live, plus the "live" member."""
    args = ("reproduce", "balakrishnan97", "--only", "table2", "--seeds", "2", "--format", "json")
    plain = cli(*args)
    assert plain.returncode == 0, plain.stderr
    skipped = cli(*args, "--live", env={native.NATIVE_ENV: "/nonexistent/lasthop"})
    assert skipped.returncode == 0, skipped.stderr
    lines = skipped.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lasthop: live cells skipped: live runs ")
    document = json.loads(skipped.stdout)
    assert document.pop("live") == {
        "skipped": lines[0].removeprefix("lasthop: live cells skipped: "),
        "seeds": 1,
        "sim_seeds": 2,
        "transfer_bytes": None,
        "cells": [],
        "claims": [],
    }
    assert document == json.loads(plain.stdout)
    # As a table: nothing of the live part on stdout, the same one line on stderr.
    table = cli(*args[:-2], "--live", env={native.NATIVE_ENV: "/nonexistent/lasthop"})
    assert table.returncode == 0 and table.stderr == skipped.stderr
    assert "Live:" not in table.stdout and "Table II" in table.stdout


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--live-seeds", "2"], "lasthop: error: --live-seeds: only with --live"),
        (["--live-bytes", "1000"], "lasthop: error: --live-bytes: only with --live"),
        (
            ["--live", "--live-bytes", "0"],
            "lasthop: error: --live-bytes: input should be greater than or equal to 1",
        ),
        (
            ["--live", "--report", "out"],
            "lasthop: error: --report: cannot be used together with --live (the report has "
            "no live cells)",
        ),
    ],
)
def test_bad_live_options_are_one_line(args: list[str], line: str) -> None:
    proc = lasthop_cli("reproduce", "balakrishnan97", *args)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", line + "\n")


def test_live_only_where_a_paper_has_live_cells() -> None:
    proc = lasthop_cli("reproduce", "balakrishnan97-table3", "--live")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "lasthop: error: --live: balakrishnan97-table3 has no live cells "
        "(live cells: balakrishnan97)\n"
    )


@pytest.mark.live
def test_reproduce_live_runs_table_ii_lan_row() -> None:
    """The three live cells of 1 MB each (about 20 s): kernel Reno without SACK through
    the 2 Mb/s hop with one error per 64 KB; beside them the same runs simulated; snoop
    (LL-TCP-AWARE) retransmits locally what E2E's source must retransmit itself; the
    live claims' verdicts reported with their figures."""
    reason = live.unavailable()
    if reason is not None:
        pytest.skip(reason)
    proc = cli(
        "reproduce",
        "balakrishnan97",
        "--only",
        "table2",
        "--seeds",
        "2",
        "--live",
        "--live-bytes",
        str(2**20),
        "--format",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    part = json.loads(proc.stdout)["live"]
    assert part["skipped"] is None and part["transfer_bytes"] == 2**20
    cells = {c["scheme"]: c for c in part["cells"] if c["setting"] == "lan-32k"}
    assert list(cells) == list(SCHEMES)
    # The cause check's row: one error per 16 KB, E2E and snoop.
    dense = {c["scheme"]: c for c in part["cells"] if c["setting"] == DENSE}
    assert list(dense) == ["e2e", "ll-tcp-aware"]
    assert all(c["completed"] and c["published"] is None for c in dense.values())
    for scheme, cell in cells.items():
        assert (cell["table"], cell["setting"], cell["scenario"]) == (
            "live",
            "lan-32k",
            "balakrishnan97/lan",
        )
        assert cell["completed"] and cell["live_seeds"] == 1 and cell["sim_seeds"] == 2
        assert 0.3 < cell["throughput_mbps"] < 2.0, cell  # a 2 Mb/s hop
        assert 0.3 < cell["sim_throughput_mbps"] < 2.0, cell
        assert cell["published"] == PUBLISHED[scheme]
        assert cell["ratio"] == round(cell["throughput_mbps"] / PUBLISHED[scheme], 3)
        assert cell["sim_ratio"] == round(cell["throughput_mbps"] / cell["sim_throughput_mbps"], 3)
        assert len(cell["runs"]) == 1
    # About 16 errors in 1 MB at one per 64 KB, in both directions of the hop.
    assert cells["e2e"]["retransmits"] > 0 and cells["e2e"]["local_retransmits"] == 0
    assert cells["ll-tcp-aware"]["local_retransmits"] > 0
    assert cells["ll-tcp-aware"]["retransmits"] < cells["e2e"]["retransmits"]
    claims = {c["id"]: c for c in part["claims"]}
    assert set(claims) == {
        "live-snoop-beats-e2e",
        "live-snoop-beats-e2e-dense-errors",
        "live-aware-beats-plain",
    }
    dense_ratio = dense["ll-tcp-aware"]["throughput_mbps"] / dense["e2e"]["throughput_mbps"]
    check = claims["live-snoop-beats-e2e-dense-errors"]
    assert (check["verdict"] == "holds") == (dense_ratio > 1)
    snoop = claims["live-snoop-beats-e2e"]
    assert snoop["verdict"] in ("holds", "fails") and snoop["paper"] == "balakrishnan97"
    ratio = cells["ll-tcp-aware"]["throughput_mbps"] / cells["e2e"]["throughput_mbps"]
    assert snoop["figures"] == {"live lan-32k LL-TCP-AWARE/E2E": round(ratio, 4)}
    assert (snoop["verdict"] == "holds") == (ratio > 1)

    # The table of those cells, as the command prints it.
    from rich.console import Console

    from lasthop import render

    console = Console(width=200, record=True)
    console.print(render.live_table(part))
    text = console.export_text()
    rows = [line.split("│") for line in text.splitlines() if "│" in line]
    shown = {(r[1].strip(), r[2].strip()) for r in rows if len(r) > 3}
    for scheme in SCHEMES:
        assert ("lan-32k", scheme.upper()) in shown, shown
    assert {(DENSE, "E2E"), (DENSE, "LL-TCP-AWARE")} <= shown


def test_live_goes_to_the_native_command() -> None:
    """``python -m lasthop live ...`` is the native command's (its one error line, its exit
    code); its help is Python's; without a native command, one line and exit code 2."""
    if native.native_command() is None:
        pytest.skip(native.missing_reason())
    proc = cli("live", "no/such-scenario")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "lasthop: error: SCENARIO: 'no/such-scenario' is neither a readable file nor an "
        "embedded scenario\n"
    )
    helped = cli("live", "--help", env={"COLUMNS": "80"})
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: lasthop live")
    gone = cli("live", "x", env={native.NATIVE_ENV: "/nonexistent/lasthop"})
    assert (gone.returncode, gone.stdout) == (2, "")
    assert gone.stderr == (
        f"lasthop: error: live: {native.NATIVE_ENV}=/nonexistent/lasthop is not the native "
        "lasthop command\n"
    )
    # A native command without live hands it back: said once, not handed on again.
    back = cli("live", "x", env={native.HANDED_ENV: "1"})
    assert (back.returncode, back.stdout) == (2, "")
    assert back.stderr == (
        "lasthop: error: live: the native lasthop command has no live (rebuild it: "
        "scripts/install.sh)\n"
    )


def _namespaces() -> set[str]:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True)
    return {line.split()[0] for line in listed.stdout.splitlines() if line.strip()}


def _runs_of(parent: int) -> set[str]:
    """The live runs whose native process is a child of ``parent`` (each registers its
    pid in /run/lasthop-live/<run>/pid before it makes anything): other tests' runs,
    beside this one under pytest-xdist, are not this test's."""
    runs = set()
    registry = Path("/run/lasthop-live")
    for entry in registry.iterdir() if registry.is_dir() else []:
        try:
            pid = int((entry / "pid").read_text())
            stat = Path(f"/proc/{pid}/stat").read_text()
        except (OSError, ValueError):
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            runs.add(entry.name)
    return runs


@pytest.mark.live
@pytest.mark.parametrize("whom", ["group", "python"])
def test_ctrl_c_during_a_live_cell_removes_its_namespaces(whom: str) -> None:
    """Ctrl-C while a live cell runs: one line, exit code 130, and the namespaces the run
    made are gone, whether the terminal's SIGINT reached both processes (the group) or
    Python alone (which hands it on)."""
    reason = live.unavailable()
    if reason is not None:
        pytest.skip(reason)
    import signal
    import time

    before = _namespaces()
    proc = subprocess.Popen(
        [sys.executable, "-m", "lasthop", "reproduce", "balakrishnan97", "--only", "table2"]
        + ["--seeds", "2", "--live", "--live-bytes", str(2**20)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    made: set[str] = set()
    deadline = time.monotonic() + 60
    while not made and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        runs = _runs_of(proc.pid)
        made = {n for n in _namespaces() - before if any(n.startswith(f"lh-{r}-") for r in runs)}
    assert made, "the live run made no namespace within 60 s"
    time.sleep(1.0)  # into the transfer
    if whom == "group":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (130, "", "lasthop: error: interrupted\n")
    assert not made & _namespaces()
