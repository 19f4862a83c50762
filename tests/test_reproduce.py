"""``lasthop reproduce``: the cells it reports and their published counterparts."""

from __future__ import annotations

import json

from helpers import lasthop_cli

from lasthop.papers import published

KEYS = {"table", "setting", "scheme", "published", "ratio"}
KEYS |= {"wireless_goodput_pct", "wired_goodput_pct"}


def test_reproduce_json_cells() -> None:
    proc = lasthop_cli("reproduce", "--seeds", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    cells = json.loads(proc.stdout)
    assert [(c["table"], c["setting"]) for c in cells] == [
        ("balakrishnan97:peak", "lan-8k"),
        ("balakrishnan97:III", "lan-8k"),
        ("balakrishnan97:peak", "lan-32k"),
        ("balakrishnan97:III", "lan-32k"),
        ("balakrishnan97:peak", "wan-32k"),
        ("balakrishnan97:III", "wan-32k"),
        ("elaarag02:I", "ber=1e-5"),
        ("elaarag02:I", "ber=1e-6"),
    ]
    for cell in cells:
        unit = "throughput_pps" if cell["table"] == "elaarag02:I" else "throughput_mbps"
        assert set(cell) == KEYS | {unit}
        assert cell[unit] > 0
        assert cell["ratio"] == round(cell[unit] / cell["published"], 3)
    e2e = {c["setting"]: c for c in cells if c["table"] == "balakrishnan97:III"}
    for setting, cell in e2e.items():
        paper = published.BALAKRISHNAN97_TABLE_III["e2e"][setting]
        assert paper is not None and cell["published"] == paper.throughput_mbps
        # One error per 64 KB on the wireless link: its goodput is below 100%.
        assert cell["wireless_goodput_pct"] is not None
        assert 0 < cell["wireless_goodput_pct"] < 100


def test_reproduce_table_names_the_sources() -> None:
    proc = lasthop_cli("reproduce", "elaarag02", "--seeds", "1")
    assert proc.returncode == 0, proc.stderr
    assert "ElAarag" in proc.stdout
    assert "39.439" in proc.stdout
