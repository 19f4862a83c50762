"""The command line's contract for bad input (issue 2, item 8): exactly one stderr line
``lasthop: error: <field or option>: <reason>`` naming what is wrong, nothing on
stdout, exit code 2."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import GENERAL_TOML, lasthop_cli


def assert_usage_error(proc: subprocess.CompletedProcess[str], *names: str) -> str:
    """Check the one-line error contract; return the line."""
    assert proc.stdout == "", f"stdout must stay empty, got {proc.stdout!r}"
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, f"expected one stderr line, got {proc.stderr!r}"
    assert proc.stderr.endswith("\n")
    line = lines[0]
    assert line.startswith("lasthop: error: "), line
    assert proc.returncode == 2, (proc.returncode, line)
    for name in names:
        assert name in line, f"{name!r} not named in {line!r}"
    return line


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_unedited_scenarios_are_valid(tmp_path: Path) -> None:
    """The bases the tests below edit run cleanly, so each error is the edit's doing."""
    general = lasthop_cli("run", write(tmp_path, "general.toml", GENERAL_TOML), "--format", "json")
    assert general.returncode == 0, general.stderr
    assert general.stderr == ""


def test_malformed_toml(tmp_path: Path, lan_text: str) -> None:
    path = write(tmp_path, "broken.toml", lan_text + "\n[[flows\nname = \n")
    line = assert_usage_error(lasthop_cli("run", path))
    # No field to name in text that does not parse: the line says where instead.
    assert re.search(r"broken\.toml|line \d+", line), line


def test_unknown_field(tmp_path: Path, lan_text: str) -> None:
    path = write(tmp_path, "unknown.toml", "bogus_field = 1\n" + lan_text)
    assert_usage_error(lasthop_cli("run", path), "bogus_field")


def test_negative_bandwidth_in_text(tmp_path: Path) -> None:
    text = GENERAL_TOML.replace("bandwidth_bps = 1e6", "bandwidth_bps = -1e6")
    assert_usage_error(lasthop_cli("run", write(tmp_path, "neg.toml", text)), "bandwidth_bps")


def test_negative_bandwidth_by_set(tmp_path: Path) -> None:
    path = write(tmp_path, "general.toml", GENERAL_TOML)
    proc = lasthop_cli("run", path, "--set", "links.0.bandwidth_bps=-1e6")
    assert_usage_error(proc, "bandwidth_bps")


def test_negative_bandwidth_in_the_lan_scenario(tmp_path: Path, lan_text: str) -> None:
    edited, count = re.subn(
        r"(?m)^(\s*bandwidth_bps\s*=\s*)[^\s#]+", r"\g<1>-2e6", lan_text, count=1
    )
    if count == 0:
        pytest.skip("the LAN scenario sets no bandwidth_bps literally")
    assert_usage_error(lasthop_cli("run", write(tmp_path, "lan.toml", edited)), "bandwidth_bps")


def test_unknown_tcp_variant_by_set(tmp_path: Path, lan_text: str) -> None:
    path = write(tmp_path, "lan.toml", lan_text)
    proc = lasthop_cli("run", path, "--set", "flows.0.tcp.variant=vegas-9000")
    assert_usage_error(proc, "variant")


def test_unknown_tcp_variant_in_text(tmp_path: Path) -> None:
    text = GENERAL_TOML.replace('variant = "reno"', 'variant = "vegas-9000"')
    assert_usage_error(lasthop_cli("run", write(tmp_path, "v.toml", text)), "variant")


def test_unknown_congestion_control_lists_the_known_ones(tmp_path: Path, lan_text: str) -> None:
    """Issue 30: an unknown ``tcp.cc`` names the field and every valid controller."""
    from lasthop import _core

    path = write(tmp_path, "lan.toml", lan_text)
    proc = lasthop_cli("run", path, "--set", "flows.0.tcp.cc=nope")
    line = assert_usage_error(proc, "tcp.cc", "'nope'")
    for name in _core.cc_names():
        assert name in line, (name, line)


def test_a_controller_parameter_it_does_not_take(tmp_path: Path, lan_text: str) -> None:
    path = write(tmp_path, "lan.toml", lan_text)
    proc = lasthop_cli("run", path, "--set", "flows.0.tcp.cc_params.nonsense=3")
    assert_usage_error(proc, "tcp.cc_params.nonsense")


def test_sack_recovery_without_the_receivers_sack(tmp_path: Path) -> None:
    """Issue 30: a recovery that needs an option the receiver lacks is refused by name."""
    text = GENERAL_TOML.replace('variant = "reno"', 'variant = "sack"\nsack = false')
    assert_usage_error(lasthop_cli("run", write(tmp_path, "s.toml", text)), "tcp.sack", "'sack'")


def test_link_to_missing_node(tmp_path: Path) -> None:
    text = GENERAL_TOML.replace('b = "b"\n', 'b = "zz"\n')
    assert 'b = "zz"' in text
    assert_usage_error(lasthop_cli("run", write(tmp_path, "zz.toml", text)), "zz")


def test_unknown_parameter_by_set(tmp_path: Path, lan_text: str) -> None:
    path = write(tmp_path, "lan.toml", lan_text)
    proc = lasthop_cli("run", path, "--set", "no_such_param=1")
    assert_usage_error(proc, "no_such_param")


@pytest.mark.parametrize("item", ["socket_buffer_bytes", "=8192"])
def test_bad_set_syntax(tmp_path: Path, lan_text: str, item: str) -> None:
    path = write(tmp_path, "lan.toml", lan_text)
    assert_usage_error(lasthop_cli("run", path, "--set", item), "--set")


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    assert_usage_error(lasthop_cli("run", str(missing)), "nope.toml")


def test_seed_with_seeds() -> None:
    proc = lasthop_cli("run", "balakrishnan97/lan", "--seed", "3", "--seeds", "2")
    assert_usage_error(proc, "--seed")


def test_invalid_scenario_with_seeds_prints_nothing(tmp_path: Path) -> None:
    """With --seeds every run happens before anything is printed."""
    text = GENERAL_TOML.replace('b = "b"\n', 'b = "zz"\n')
    proc = lasthop_cli("run", write(tmp_path, "zz.toml", text), "--seeds", "3")
    assert_usage_error(proc, "zz")


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["run", "balakrishnan97/lan", "--seed", "abc"], "--seed"),
        (["run", "balakrishnan97/lan", "--seed", "-1"], "--seed"),
        (["run", "balakrishnan97/lan", "--seed"], "--seed"),
        (["run", "balakrishnan97/lan", "--seeds", "0"], "--seeds"),
        (["run", "balakrishnan97/lan", "--format", "xml"], "--format"),
        (["run", "balakrishnan97/lan", "--bogus"], "--bogus"),
        (["run"], "SCENARIO"),
        (["run", "balakrishnan97/lan", "extra"], "extra"),
        (["frobnicate"], "frobnicate"),
        ([], "COMMAND"),
        (["bench", "--repeats", "0"], "--repeats"),
        # Issue 9, finding 12: once an OverflowError traceback.
        (["bench", "--repeats", "4294967296"], "--repeats"),
        (["bench", "--case", "nope"], "--case"),
        (["reproduce", "table9"], "table9"),
        (["reproduce", "--seeds", "0"], "--seeds"),
    ],
)
def test_bad_options(args: list[str], name: str) -> None:
    assert_usage_error(lasthop_cli(*args), name)


def test_a_flow_starting_after_the_stop_time() -> None:
    """Issue 9, finding 12: it ran silently with throughput 0."""
    proc = lasthop_cli(
        "run", "balakrishnan97/lan", "--set", "stop_s=5", "--set", "flows.0.start_s=6"
    )
    assert_usage_error(proc, "start_s", "stop_s")


def test_a_run_that_fails_inside_the_engine() -> None:
    """A run that spends its event budget is not bad input but a failed run: one line
    that names the budget, nothing on stdout, exit code 1 (as a sweep's failed runs)."""
    proc = lasthop_cli("run", "balakrishnan97/lan", "--set", "max_events=1000", "--seeds", "2")
    assert proc.stdout == ""
    assert proc.returncode == 1
    assert proc.stderr.startswith("lasthop: error: max_events: ")
    assert len(proc.stderr.splitlines()) == 1, proc.stderr


def test_a_panic_inside_a_reproduce_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A panic in one of reproduce's pool workers comes back as text (a PanicException
    cannot be pickled) and ends the command in one line, exit 1."""
    monkeypatch.setenv("LASTHOP_TEST_PANIC_SEED", "2")
    proc = lasthop_cli("reproduce", "balakrishnan97-table3", "--seeds", "3")
    assert (proc.returncode, proc.stdout) == (1, "")
    assert "Traceback" not in proc.stderr and "PicklingError" not in proc.stderr
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("lasthop: error: balakrishnan97/table3-"), last
    assert "seed 2: internal error (a bug in lasthop): injected panic" in last, last


def test_a_panic_inside_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug that panics in Rust ends in one line of lasthop's, not a Python traceback
    (the fault-injection point LASTHOP_TEST_PANIC_SEED panics the run with that seed).
    Rust's panic hook prints its own report before it."""
    monkeypatch.setenv("LASTHOP_TEST_PANIC_SEED", "2")
    proc = lasthop_cli("run", "balakrishnan97/lan", "--seeds", "3")
    assert proc.stdout == ""
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("lasthop: error: internal error (a bug in lasthop): "), last
