"""The native ``lasthop`` command (crates/lasthop-cli, issue 31 item 1): what it answers
itself is byte for byte what ``python -m lasthop`` answers (stdout, stderr, exit code),
and it hands everything else to Python unchanged.

``scripts/install.sh`` installs it as the venv's ``lasthop``; the tests run it from
there (beside this interpreter), so a checkout installed without it fails here.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import GENERAL_TOML, LONG_LAN_RUN, lasthop_cli

NATIVE = Path(sys.executable).parent / "lasthop"


def native(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(NATIVE), *args], capture_output=True, text=True, timeout=600, check=False, env=env
    )


def test_the_installed_command_is_native() -> None:
    assert NATIVE.read_bytes()[:4] == b"\x7fELF", f"{NATIVE} is not the native command"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("native")
    # A name outside ASCII (json.dumps writes \\u escapes) and floats of every notation.
    (d / "odd.toml").write_text(
        GENERAL_TOML.replace('name = "general"', 'name = "ünï €😀 \\u007f"').replace(
            "delay_ms = 1.0", "delay_ms = 0.00001"
        ),
        encoding="utf-8",
    )
    (d / "g.JSON").write_text(
        '{"name":"j","nodes":[{"name":"a"},{"name":"b"}],"links":[{"name":"l","a":"a",'
        '"b":"b","bandwidth_bps":1e6,"delay_ms":1}],"flows":[{"name":"f","from":"a",'
        '"to":"b","bytes":100000,"tcp":{"variant":"reno"}}]}'
    )
    (d / "bad.toml").write_text(GENERAL_TOML.replace('to = "b"', 'to = "zz"'))
    (d / "latin1.toml").write_bytes(b'name = "\xe9"\n')
    return d


# Every command line the native command reads itself, and many it hands on.
COMMAND_LINES = [
    ["--version"],
    ["scenarios"],
    ["schema"],
    ["--help"],
    [],
    ["run", "balakrishnan97/lan", "--format", "json"],
    ["run", "balakrishnan97/lan.toml", "--format=JSON", "--seed", "7"],
    ["run", "balakrishnan97/lan", "--seed=0", "--format", "json", "--set", "flows.0.bytes=100000"],
    ["run", "--format", "json", "yun09/cell", "--set", "stop_s=1", "--set", "fer=0.05"],
    ["run", "balakrishnan97/lan", "--seeds", "3", "--format", "json"],
    ["run", "balakrishnan97/lan", "--seeds", "2"],
    ["run", "balakrishnan97/lan"],
    ["run", "balakrishnan99/radio-chain", "--set", "stop_s=20"],
    ["run", "yun09/cell", "--set", "stop_s=1", "--format", "table"],
    ["run", "{d}/odd.toml", "--format", "json"],
    ["run", "{d}/odd.toml"],
    ["run", "{d}/g.JSON", "--format", "json"],
    ["run", "{d}//g.JSON", "--format", "json"],
    ["run", "balakrishnan97/lan", "--format", "json", "--indent", "2"],
    ["run", "balakrishnan97/lan", "--format=json", "--indent=0"],
    ["run", "yun09/cell", "--set", "stop_s=1", "--format", "csv"],
    ["run", "yun09/cell", "--set", "stop_s=1", "--format", "CSV", "--seeds", "2"],
    ["run", "balakrishnan97/lan", "--seeds", "2", "--format", "json", "--indent", "3"],
    ["run", "balakrishnan97/lan", "--indent", "2"],
    ["run", "balakrishnan97/lan", "--format", "json", "--indent", "17"],
    ["run", "balakrishnan97/lan", "--format", "parquet"],
    ["run", "balakrishnan97/lan", "--format", "csv", "--out", "{d}/no/such.csv"],
    ["run", "balakrishnan97/lan", "--format", "csv", "--out", "{d}"],
    ["run", "balakrishnan97/lan", "--out", "{d}/t.txt"],
    # Errors and what only Python reads.
    ["run", "{d}/bad.toml"],
    ["run", "{d}/latin1.toml"],
    ["run", "{d}"],
    ["run", "nope"],
    ["run"],
    ["run", "--help"],
    ["run", "balakrishnan97/lan", "--seed", "-1"],
    ["run", "balakrishnan97/lan", "--seed", "+3", "--format", "json"],
    ["run", "balakrishnan97/lan", "--seed", str(2**64)],
    ["run", "balakrishnan97/lan", "--seed", "1", "--seeds", "2"],
    ["run", "balakrishnan97/lan", "--seeds", "0"],
    ["run", "balakrishnan97/lan", "--set", "x"],
    ["run", "balakrishnan97/lan", "--set", " =1"],
    ["run", "balakrishnan97/lan", "--set", "nosuch=1"],
    ["run", "balakrishnan97/lan", "--set", "flows.0.bytes=-5"],
    ["run", "balakrishnan97/lan", "--format", "xml"],
    ["run", "balakrishnan97/lan", "--format"],
    ["run", "balakrishnan97/lan", "extra"],
    ["run", "balakrishnan97/lan", "--no-such-option"],
    ["run", "balakrishnan97/lan", "--pcap", "nosuch"],
    ["run", "balakrishnan97/lan", "--set", "stop_s=0.001", "--set", "max_events=10"],
    ["scenarios", "extra"],
    ["bench", "--case", "nope"],
    # live is the native command's, through Python too (lasthop.native); its help is
    # Python's, through the native command too.
    ["live", "--help"],
    ["live", "no/such-scenario"],
    ["live", "balakrishnan97/lan", "--no-such-option"],
    ["live"],
]


@pytest.mark.parametrize("args", COMMAND_LINES, ids=lambda a: " ".join(a) or "(none)")
def test_native_answers_as_python_does(files: Path, args: list[str]) -> None:
    args = [a.replace("{d}", str(files)) for a in args]
    py, nat = lasthop_cli(*args), native(*args)
    assert (nat.stdout, nat.stderr, nat.returncode) == (py.stdout, py.stderr, py.returncode)


def test_a_run_prints_json_without_python(tmp_path: Path) -> None:
    """The one-shot JSON run, --version, scenarios and schema start no interpreter: with
    no Python to be found they still answer, and what needs Python says it is missing."""
    lonely = tmp_path / "bin"
    lonely.mkdir()
    (lonely / "lasthop").write_bytes(NATIVE.read_bytes())
    (lonely / "lasthop").chmod(0o755)
    env = {"PATH": str(tmp_path), "LASTHOP_PYTHON": str(tmp_path / "no-python")}

    def alone(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(lonely / "lasthop"), *args], capture_output=True, text=True, env=env, check=False
        )

    out = alone("run", "balakrishnan97/lan", "--format", "json")
    assert out.returncode == 0 and out.stdout == lasthop_cli(*out.args[1:]).stdout
    for args in (["--version"], ["scenarios"], ["schema"]):
        assert alone(*args).returncode == 0
    missing = alone("run", "balakrishnan97/lan")  # tables are Python's
    assert missing.returncode == 2 and "no-python" in missing.stderr


def test_ctrl_c_stops_a_native_run_inside_the_engine() -> None:
    """As tests/test_interrupt.py for the Python command: one line, exit 130, at once."""
    proc = subprocess.Popen(
        [str(NATIVE), *LONG_LAN_RUN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # As in a terminal's foreground: a test run in the background inherits it ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Inside the engine: a quarter of a second of CPU time spent.
    deadline = time.monotonic() + 30
    while True:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        if int(fields[11]) + int(fields[12]) >= 0.25 * os.sysconf("SC_CLK_TCK"):
            break
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.02)
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert (out, err, proc.returncode) == ("", "lasthop: error: interrupted\n", 130)
    assert time.monotonic() - sent < 1.0


@pytest.mark.parametrize("fmt", ["json", "csv", "parquet"])
def test_native_writes_files_as_python_does(tmp_path: Path, fmt: str) -> None:
    """``--out``: the same file, made whole under a temporary name (nothing else is left
    in its folder), nothing on stdout."""
    files = {}
    for who, call in (("py", lasthop_cli), ("native", native)):
        folder = tmp_path / who
        folder.mkdir()
        args = ["run", "yun09/cell", "--set", "stop_s=1", "--seeds", "2", "--format", fmt]
        done = call(*args, "--out", str(folder / f"out.{fmt}"))
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
        assert [p.name for p in folder.iterdir()] == [f"out.{fmt}"]
        files[who] = (folder / f"out.{fmt}").read_bytes()
    assert files["py"] == files["native"] and len(files["py"]) > 100
