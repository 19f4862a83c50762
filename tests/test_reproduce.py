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
    settings = ["lan-8k", "lan-32k", "wan-32k"]
    table3 = [
        ("balakrishnan97:III", setting, scheme)
        for setting in settings
        for scheme, cells_by_setting in published.BALAKRISHNAN97_TABLE_III.items()
        if cells_by_setting[setting] is not None
    ]
    # The peaks, Table III (each published cell once: E2E-SMART was not run on
    # the WAN), ElAarag's Table I.
    assert [(c["table"], c["setting"], c["scheme"]) for c in cells] == [
        *[("balakrishnan97:peak", s, "e2e") for s in settings],
        *table3,
        ("elaarag02:I", "ber=1e-5", "tahoe"),
        ("elaarag02:I", "ber=1e-6", "tahoe"),
    ]
    assert len(table3) == 17
    for cell in cells:
        unit = "throughput_pps" if cell["table"] == "elaarag02:I" else "throughput_mbps"
        assert set(cell) == KEYS | {unit}
        assert cell[unit] > 0
        # The ratio is taken before the throughput is rounded for display.
        assert abs(cell["ratio"] - cell[unit] / cell["published"]) <= 1e-3
    for cell in (c for c in cells if c["table"] == "balakrishnan97:III"):
        paper = published.BALAKRISHNAN97_TABLE_III[cell["scheme"]][cell["setting"]]
        assert paper is not None and cell["published"] == paper.throughput_mbps
        # One error per 64 KB on the wireless link: its goodput is below 100%.
        assert cell["wireless_goodput_pct"] is not None
        assert 0 < cell["wireless_goodput_pct"] < 100


def test_reproduce_table_names_the_sources() -> None:
    proc = lasthop_cli("reproduce", "elaarag02", "--seeds", "1")
    assert proc.returncode == 0, proc.stderr
    assert "ElAarag" in proc.stdout
    assert "39.439" in proc.stdout
