"""The command line as a person meets it (issue 9, findings 9 and 12): ``--version``, help
text without reStructuredText, tables that fit an 80-column terminal without cutting
anything short, and ``lasthop run`` holding no time series it does not print."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import lasthop_cli
from rich.console import Console

import lasthop
from lasthop import render
from lasthop.cli import app, run_cli


def test_version() -> None:
    proc = lasthop_cli("--version")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == f"lasthop {lasthop.__version__}\n"


def commands() -> list[list[str]]:
    import typer

    group = typer.main.get_command(app)
    return [[], *([name] for name in getattr(group, "commands", {}))]


@pytest.mark.parametrize("command", commands(), ids=lambda c: " ".join(c) or "lasthop")
def test_help_is_plain_text(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9, finding 12: no ``literal`` or :role:`x` markup from the docstrings."""
    assert run_cli([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: lasthop")
    assert "``" not in out and ":func:" not in out, out


def narrow(*args: str) -> str:
    """The command's table output on an 80-column terminal."""
    proc = subprocess.run(
        [sys.executable, "-m", "lasthop", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert proc.returncode == 0, proc.stderr
    for line in proc.stdout.splitlines():
        assert len(line) <= 80, line
    assert "…" not in proc.stdout, proc.stdout
    return proc.stdout


def test_reproduce_tables_fit_80_columns() -> None:
    """Issue 9, finding 12: at 80 columns every table is whole (they were cut to
    ``setti…``, ``lan-3…``, ``not r…``): too wide ones are split into parts that each
    repeat the row names. ``--quick`` shortens only yun09's runs, not its tables."""
    out = narrow("reproduce", "--seeds", "1", "--quick")
    for text in ("setting", "lan-32k", "wan-32k", "not run", "SPLIT-SMART", "every-256k"):
        assert text in out
    assert "(continued)" in out


GOODPUTS = ("wireless_goodput_pct", "wired_goodput_pct")


def test_table3_cells_are_all_shown_at_80_columns() -> None:
    cells = json.loads(
        lasthop_cli("reproduce", "balakrishnan97-table3", "--seeds", "1", "--format", "json").stdout
    )["cells"]
    out = narrow("reproduce", "balakrishnan97-table3", "--seeds", "1")
    for cell in cells:
        mbps, wl, wd = (
            cell[k] for k in ("throughput_mbps", "wireless_goodput_pct", "wired_goodput_pct")
        )
        assert f"{mbps:.2f} ({wl:.1f},{wd:.1f})" in out, cell


def test_run_tables_fit_80_columns() -> None:
    out = narrow("run", "balakrishnan97/table3-lan-8k", "--seeds", "2")
    for text in ("throughput", "retrans-", "timeouts", "bs->mh", "drops", "scheme=e2e"):
        assert text in out


def test_a_mobile_run_shows_its_handoffs_and_outage_drops() -> None:
    out = narrow("run", "elaarag02/handoff", "--set", "frho=true")
    for text in ("handoffs", "stranded", "complete s", "bs1", "bs2", "5.152", "outage"):
        assert text in out, text
    summary = json.loads(lasthop_cli("run", "elaarag02/handoff", "--format", "json").stdout)
    assert [h["start_s"] for h in summary["handoffs"]] == [5.0, 10.0, 15.0, 20.0, 25.0]
    assert {h["from"] for h in summary["handoffs"]} == {"bs1", "bs2"}
    cells = [link for link in summary["links"] if link["name"].startswith("cell")]
    assert all(link["drops_outage"] is not None for link in cells)
    assert all("state_bytes" not in h for h in summary["handoffs"])


def test_an_itcp_run_shows_each_state_transfer() -> None:
    """I-TCP's handoff (issue 32): each handoff's state transfer, its bytes and when it
    was installed, in the table and the JSON."""
    args = ("run", "elaarag02/handoff", "--set", 'mechanism="i-tcp"')
    out = narrow(*args)
    for text in ("state", "installed", "97820", "8.978"):
        assert text in out, text
    summary = json.loads(lasthop_cli(*args, "--format", "json").stdout)
    for h in summary["handoffs"]:
        assert h["state_bytes"] > 0
        assert h["state_installed_s"] - h["complete_s"] >= 0.265


def test_a_multicast_snoop_handoff_shows_what_the_new_station_sent() -> None:
    """Snoop's multicast handoff (issue 32, SNOOP-HO): each handoff's segments the new
    station sent from its buffer, in the table and the JSON; none with a hard handoff."""
    args = ("run", "elaarag02/snoop-handoff", "--set", "every_s=10")
    assert "replayed" in narrow(*args)
    summary = json.loads(lasthop_cli(*args, "--format", "json").stdout)
    assert [h["replayed"] for h in summary["handoffs"]] == [12] * 5
    hard = json.loads(
        lasthop_cli(*args, "--set", 'snoop_handoff="hard"', "--format", "json").stdout
    )
    assert all("replayed" not in h for h in hard["handoffs"])
    assert "replayed" not in narrow(*args, "--set", 'snoop_handoff="hard"')


def test_a_fitted_table_splits_only_when_too_wide() -> None:
    table = render.FittedTable("wide", ["row"], [f"column {i}" for i in range(10)])
    table.add_row("only", *(f"value-{i:07d}" for i in range(10)))

    def lines(width: int) -> list[str]:
        console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        console.print(table)
        return console.export_text().splitlines()

    wide, narrow_lines = lines(200), lines(80)
    assert sum("┏" in line for line in wide) == 1
    parts = sum("┏" in line for line in narrow_lines)
    assert parts >= 2
    assert all(len(line) <= 80 for line in narrow_lines)
    text = "\n".join(narrow_lines)
    assert text.count("only") == parts  # each part repeats the row names
    for i in range(10):
        assert f"value-{i:07d}" in text


def peak_rss_kb(*args: str) -> int:
    """The peak resident set of ``lasthop ARGS``, in KiB (its own, from wait4)."""
    with open(os.devnull, "w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "lasthop", *args], stdout=sink)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0
    return usage.ru_maxrss


@pytest.mark.skipif(not hasattr(os, "wait4"), reason="needs wait4 for a child's own peak")
@pytest.mark.parametrize(
    "args",
    [
        ["--set", "flows.0.bytes=1073741824", "--format", "json"],
        ["--set", "flows.0.bytes=268435456", "--seeds", "4"],
    ],
    ids=["1-GiB-json", "4-seeds-of-256-MiB-table"],
)
def test_run_keeps_no_time_series(args: list[str]) -> None:
    """Issue 9, finding 9: ``lasthop run`` prints no time series, so it records none and
    its peak memory does not grow with the transfer (a 1 GiB run's series took ~40 MB,
    and ``--seeds`` held every seed's until the end)."""
    base = ["run", "balakrishnan97/lan", "--set", "stop_s=1000000"]
    small = peak_rss_kb(*base, "--set", "flows.0.bytes=100000", "--format", "json")
    large = peak_rss_kb(*base, *args)
    assert large - small < 20_000, (small, large)


def test_pcap_still_written_without_series(tmp_path: Path) -> None:
    """The captures of the one run are kept while its series are not."""
    out = tmp_path / "w.pcap"
    proc = lasthop_cli(
        "run",
        "balakrishnan97/lan",
        "--set",
        "flows.0.bytes=100000",
        "--pcap",
        "wireless:bs",
        "--pcap-file",
        str(out),
        "--format",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 24  # the pcap header and frames
