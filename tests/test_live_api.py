"""``lasthop.live`` (issue 33): a live run from Python, read back in a simulated run's
shapes. The run needs root, /dev/net/tun and the native command; where it cannot run,
the test skips with the one line ``lasthop.reproduction.live.unavailable`` gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lasthop
import lasthop.live
from lasthop.reproduction.live import unavailable
from lasthop.result import TABLE_SCHEMAS


@pytest.mark.live
def test_a_live_run_reads_back_as_a_simulated_runs_tables(tmp_path: Path) -> None:
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    # Seed 000's LAN with snoop, 300 KB: a few wireless losses, repaired locally.
    r = lasthop.live.run(
        "balakrishnan97/lan", set=["scheme=ll-tcp-aware", "flows.0.bytes=300000"], sample_ms=20
    )
    assert r.scenario == "balakrishnan97-lan"
    flow = r.flows[0]
    assert flow["bytes_delivered"] == 300000 and flow["completed"]
    for name in lasthop.TABLE_NAMES:
        table = r.table(name)
        assert [(f.name, f.type) for f in table.schema] == TABLE_SCHEMAS[name], name
    sent = r.sent.to_pandas()
    assert sent["len"].sum() >= 300000, "every byte was sent at least once"
    assert r.window.num_rows > 0 and r.acks.num_rows > 0
    drops = r.drops.to_pandas()
    rexmits = r.local_rexmits.to_pandas()
    assert len(rexmits) == flow["local_retransmits"]
    # Bytes the link destroyed (a lost segment is at most the 1400-byte MSS; a source
    # retransmission cut at other boundaries is cached, and resent, as it came).
    lost = drops.loc[drops["is_data"] & (drops["cause"] == "error"), "seq"].tolist()
    for seq, length in zip(rexmits["seq"], rexmits["len"], strict=True):
        assert any(d < seq + length and seq < d + 1400 for d in lost), seq
    assert r.info().num_rows > 0 and r.delivered().num_rows > 1
    # The report reads back from its JSON.
    path = tmp_path / "live.json"
    path.write_text(r.to_json())
    again = lasthop.live.read(path)
    assert again.flows == r.flows and again.sent.equals(r.sent)


def test_bad_input_is_one_line() -> None:
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    with pytest.raises(lasthop.live.LiveError, match=r"^--cc: the kernel has no 'vegas'"):
        lasthop.live.run("live/one-link", cc="vegas")
    with pytest.raises(lasthop.live.LiveError, match=r"^params\.nope: no parameter named"):
        lasthop.live.run("live/one-link", set=["params.nope=1"])


def test_a_report_that_is_not_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"flows": []}))
    with pytest.raises(ValueError, match="not a lasthop live report"):
        lasthop.live.read(path)


def _report() -> dict[str, object]:
    """A small live report as ``lasthop live --format json --tables`` writes one."""
    sent = {"time_ns": [0, 10_000_000, 20_000_000], "flow": [0, 0, 0]}
    sent |= {"seq": [0, 1400, 1400], "len": [1400, 1400, 1400], "retransmit": [False] * 2 + [True]}
    window = {"time_ns": [0, 10_000_000], "flow": [0, 0], "cwnd_bytes": [1400, 2800]}
    window["ssthresh_bytes"] = [2**32 - 1, 2**32 - 1]
    rexmit = {"time_ns": [15_000_000], "flow": [0], "seq": [1400], "len": [1400]}
    rexmit |= {"node": ["bs"], "timer": [False]}
    return {
        "run": "abc123",
        "scenario": "balakrishnan97-lan",
        "seed": 1,
        "flows": [{"name": "bulk", "samples": [], "delivered": []}],
        "links": [],
        "tables": {"sent": sent, "window": window, "local_rexmits": rexmit},
    }


def test_plot_draws_live_reports(tmp_path: Path) -> None:
    """``lasthop plot cwnd|sequence --live REPORT``: a simulated run's figures, from live
    reports; other kinds are refused in one line."""
    from helpers import lasthop_cli

    report = tmp_path / "live.json"
    report.write_text(json.dumps(_report()))
    r = lasthop.live.read(report)
    assert r.sent.num_rows == 3 and r.events.num_rows == 0
    assert r.window.column("cwnd_bytes").to_pylist() == [1400, 2800]
    for kind in ("cwnd", "sequence"):
        out = lasthop_cli("plot", kind, "--live", str(report), "--out", str(tmp_path / kind))
        assert out.returncode == 0, out.stderr
        assert (tmp_path / f"{kind}.png").stat().st_size > 1000
        assert (tmp_path / f"{kind}.svg").read_text().count("balakrishnan97-lan live abc123") >= 1
    bad = lasthop_cli("plot", "throughput", "--live", str(report), "--out", str(tmp_path / "x"))
    assert (bad.returncode, bad.stderr) == (
        2,
        "lasthop: error: --live: draws cwnd or sequence, not throughput\n",
    )
