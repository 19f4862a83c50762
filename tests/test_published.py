"""The published figures (../shared/reference/published.md) are complete and as printed."""

from __future__ import annotations

from lasthop.papers.balakrishnan97 import published
from lasthop.papers.elaarag02 import published as elaarag02_published


def test_tables_ii_to_iv_cover_every_setting() -> None:
    for table in published.BALAKRISHNAN97_TABLES.values():
        for cells in table.values():
            assert set(cells) == set(published.SETTINGS)
    assert len(published.BALAKRISHNAN97_TABLE_II) == 4
    assert len(published.BALAKRISHNAN97_TABLE_III) == 6
    assert len(published.BALAKRISHNAN97_TABLE_IV) == 2


def test_e2e_cells_the_baseline_compares_against() -> None:
    e2e = published.BALAKRISHNAN97_TABLE_III["e2e"]
    assert e2e["lan-8k"] == published.Cell(0.55, 97.0, 96.0)
    assert e2e["lan-32k"] == published.Cell(0.70, 97.5, 97.5)
    assert e2e["wan-32k"] == published.Cell(0.31, 97.3, 97.3)
    assert published.BALAKRISHNAN97_TABLE_III["e2e-smart"]["wan-32k"] is None  # not run
    assert published.BALAKRISHNAN97_PEAK_MBPS == {"lan": 1.5, "wan": 1.35}


def test_elaarag_table_i() -> None:
    assert elaarag02_published.ELAARAG02_TABLE_I["1e-5"].throughput_pps == 39.439
    assert elaarag02_published.ELAARAG02_TABLE_I["1e-6"].throughput_pps == 87.455
