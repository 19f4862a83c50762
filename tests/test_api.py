"""The Python API: lasthop.run and its Arrow-backed result tables (issue 2, item 8)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from helpers import GENERAL_DICT, GENERAL_TOML, lasthop_cli

import lasthop
from lasthop.result import TABLE_SCHEMAS


@pytest.fixture(scope="module")
def lan() -> lasthop.RunResult:
    return lasthop.run("balakrishnan97/lan", seed=1)


def test_summary(lan: lasthop.RunResult) -> None:
    assert lan.seed == 1
    assert lan.summary["seed"] == 1
    assert lan.flows and lan.links
    flow = lan.flows[0]
    for key in ("name", "mss_bytes", "throughput_bps", "transfer_time_s", "retransmits"):
        assert key in flow
    for key in ("timeouts", "fast_retransmits", "bytes_delivered", "completed"):
        assert key in flow
    for link in lan.links:
        for key in ("name", "direction", "goodput", "drops_error", "drops_queue"):
            assert key in link
        assert link["goodput"] is None or 0.0 <= link["goodput"] <= 1.0
    assert json.loads(lan.to_json()) == lan.summary


@pytest.mark.parametrize("name", list(TABLE_SCHEMAS))
def test_tables_are_arrow_with_documented_columns(lan: lasthop.RunResult, name: str) -> None:
    table = getattr(lan, name)
    assert isinstance(table, pa.Table)
    documented = TABLE_SCHEMAS[name]
    assert table.column_names[: len(documented)] == [col for col, _ in documented]
    for col, typ in documented:
        assert table.schema.field(col).type == typ, (name, col)
    frame = table.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert len(frame) == table.num_rows
    assert table is getattr(lan, name), "tables are built once"


def test_an_8mb_transfer_leaves_traces(lan: lasthop.RunResult) -> None:
    assert lan.sent.num_rows > 0
    assert lan.acks.num_rows > 0
    assert lan.window.num_rows > 0


def test_sent_time_stamps_never_go_back(lan: lasthop.RunResult) -> None:
    times = lan.sent.column("time_ns").to_numpy()
    assert np.all(np.diff(times.astype(np.int64)) >= 0)


def test_event_kinds_and_drop_causes(lan: lasthop.RunResult) -> None:
    kinds = set(lan.events.column("kind").to_pylist())
    assert kinds <= {"fast_retransmit", "timeout", "partial_ack", "recovery_exit"}
    causes = set(lan.drops.column("cause").to_pylist())
    assert causes <= {"error", "queue"}


def test_send_rate_bins_every_segment_sent(lan: lasthop.RunResult) -> None:
    rate = lan.send_rate.to_pandas()
    assert rate["segments"].sum() == lan.sent.num_rows
    assert rate["retransmits"].sum() == lan.flows[0]["retransmits"]
    # One flow from t = 0: a row per 100 ms bin up to its last segment.
    assert list(rate["time_ns"]) == [i * 100_000_000 for i in range(len(rate))]
    assert lan.flows[0]["spurious_timeouts"] <= lan.flows[0]["timeouts"]


def test_ll_elsn_summary_and_events() -> None:
    sets = ['protocol="ll-elsn"', "fer=0.09", "stop_s=5"]
    run = lasthop.run("yun09/downlink", seed=1, set=sets)
    notices = run.flows[0]["ll_elsn"]
    assert notices["elns_sent"] > 0 and notices["eln_bytes_sent"] == 40 * notices["elns_sent"]
    assert notices["eln_delay_ms_min"] == pytest.approx(20.064)
    kinds = run.events.to_pandas()["kind"].value_counts()
    assert kinds["eln_received"] == notices["elns_received"]
    assert kinds.get("disconnection", 0) == notices["disconnections"]


def test_trace_does_not_change_the_run(lan: lasthop.RunResult) -> None:
    quiet = lasthop.run("balakrishnan97/lan", seed=1, trace=False)
    assert quiet.summary == lan.summary
    for name in TABLE_SCHEMAS:
        assert isinstance(quiet.table(name), pa.Table)


def test_api_json_is_the_cli_json(lan: lasthop.RunResult) -> None:
    proc = lasthop_cli("run", "balakrishnan97/lan", "--seed", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == lan.to_json() + "\n"
    indented = lasthop_cli("run", "balakrishnan97/lan", "--format", "json", "--indent", "2")
    assert indented.stdout == lan.to_json(indent=2) + "\n"


def test_dict_scenario() -> None:
    result = lasthop.run(GENERAL_DICT, seed=3)
    flow = result.flow("f")
    assert flow["bytes_delivered"] == 100000
    assert flow["completed"] is True
    assert result.sent.num_rows > 0


def test_path_text_and_dict_agree(tmp_path: Path) -> None:
    path = tmp_path / "general.toml"
    path.write_text(GENERAL_TOML, encoding="utf-8")
    by_path = lasthop.run(path, seed=5, trace=False)
    by_str = lasthop.run(str(path), seed=5, trace=False)
    by_text = lasthop.run(GENERAL_TOML, seed=5, trace=False)
    by_dict = lasthop.run(GENERAL_DICT, seed=5, trace=False)
    for other in (by_str, by_text, by_dict):
        assert other.flows == by_path.flows
        assert other.links == by_path.links


def test_set_as_list_or_mapping() -> None:
    as_list = lasthop.run("balakrishnan97/lan", set=["socket_buffer_bytes=8192"], trace=False)
    as_map = lasthop.run("balakrishnan97/lan", set={"socket_buffer_bytes": 8192}, trace=False)
    assert as_list.summary == as_map.summary


def test_scenario_error_for_a_bad_dict() -> None:
    bad = json.loads(json.dumps(GENERAL_DICT))
    bad["links"][0]["b"] = "zz"
    with pytest.raises(lasthop.ScenarioError, match="zz"):
        lasthop.run(bad)
    with pytest.raises(lasthop.ScenarioError, match="zz"):
        lasthop.validate(bad)
    assert issubclass(lasthop.ScenarioError, ValueError)


def test_scenario_error_for_a_bad_set() -> None:
    with pytest.raises(lasthop.ScenarioError, match="PATH=VALUE"):
        lasthop.run("balakrishnan97/lan", set=["socket_buffer_bytes"])


def test_missing_scenario_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        lasthop.run(tmp_path / "nope.toml")
    with pytest.raises(FileNotFoundError):
        lasthop.run("no/such/scenario")


def test_version_schema_and_embedded_names() -> None:
    assert isinstance(lasthop.__version__, str) and lasthop.__version__
    assert isinstance(lasthop.schema(), dict)
    names = lasthop.embedded_names()
    assert {"balakrishnan97/lan", "balakrishnan97/wan", "elaarag02/table1"} <= set(names)


def test_bench_reports_its_figures() -> None:
    """`lasthop bench` runs the 8 MB LAN benchmark and reports what issues 2 and 9 ask
    for: events per second, and wall time beside CPU time per run (issue 9, finding 10)."""
    proc = lasthop_cli("bench", "--case", "lan", "--repeats", "10", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    (result,) = json.loads(proc.stdout)
    assert (result["case"], result["runs"]) == ("lan", 10)
    # The 8 MB transfer is some 6000 data packets and 3000 acks over two links.
    assert 30_000 < result["events_per_run"] < 60_000
    for key in (
        "events_per_s",
        "events_per_s_median",
        "cpu_ms_per_run",
        "wall_ms_per_run",
        "sim_s_per_wall_s",
    ):
        assert result[key] > 0
    assert result["events_per_s"] >= result["events_per_s_median"]
    assert result["reference"] is None


def test_bench_scale_case_compares_with_its_one_flow_reference() -> None:
    proc = lasthop_cli("bench", "--case", "path-1000", "--scale-runs", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    (result,) = json.loads(proc.stdout)
    assert (result["case"], result["reference"]) == ("path-1000", "path-1")
    assert result["ns_per_event_ratio"] > 0
    table = lasthop_cli("bench", "--case", "path-1000", "--scale-runs", "1")
    assert table.returncode == 0, table.stderr
    assert "× path-1" in table.stdout and "CPU ms" in table.stdout


def test_bench_wlan_case_reports_simulated_seconds_per_wall_second() -> None:
    """Issue 13's case: 10 downlink flows over 802.11 at 1 % FER, 200 s each run."""
    proc = lasthop_cli("bench", "--case", "wlan-10", "--scale-runs", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    (result,) = json.loads(proc.stdout)
    assert (result["case"], result["runs"]) == ("wlan-10", 1)
    assert "yun09/cell" in result["scenario"]
    # Each run simulates 200 s: simulated seconds per second is 200 over the run's time.
    run_s = result["wall_ms_per_run_median"] / 1e3
    assert result["sim_s_per_wall_s"] * run_s == pytest.approx(200.0, rel=1e-6)
    assert result["events_per_run"] > 500_000
    table = lasthop_cli("bench", "--case", "wlan-10", "--scale-runs", "1")
    assert table.returncode == 0, table.stderr
    assert "wlan-10" in table.stdout and "wall s" in table.stdout


def test_bench_process_cases_time_whole_processes() -> None:
    """Issue 31 item 4: a one-shot process and a sweep's first result, each with its
    peak memory; the first result comes before the sweep's end."""
    proc = lasthop_cli(
        "bench", "--case", "sweep-240", "--case", "oneshot", "--repeats", "3",
        "--scale-runs", "1", "--format", "json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    oneshot, sweep = json.loads(proc.stdout)
    assert (oneshot["case"], oneshot["runs"], sweep["case"], sweep["runs"]) == (
        "oneshot", 3, "sweep-240", 1,
    )  # fmt: skip
    assert 0 < oneshot["wall_ms_per_run"] <= oneshot["wall_ms_per_run_median"]
    assert 0 < sweep["first_result_ms"] < sweep["wall_ms_per_run"]
    # A process of a few MiB at least; a sweep holds DuckDB, pyarrow and numpy.
    assert 1 << 20 < oneshot["peak_rss_bytes"] < sweep["peak_rss_bytes"]
    table = lasthop_cli("bench", "--case", "oneshot", "--repeats", "1")
    assert table.returncode == 0 and "peak" in table.stdout and "oneshot" in table.stdout
