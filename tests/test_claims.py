"""Issue 28: the one rule by which claims compare figures, claims checked on cells, and
deviations whose causes are runs (lasthop.reproduction.compare, claims, deviations)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from lasthop.papers.balakrishnan97 import published
from lasthop.papers.balakrishnan97.claims import CLAIMS
from lasthop.papers.balakrishnan97.deviations import DEVIATIONS
from lasthop.papers.elaarag02 import claims as elaarag
from lasthop.papers.elaarag02.published import ELAARAG02_TABLE_I
from lasthop.reproduction import claims, compare, deviations, verdicts
from lasthop.reproduction.compare import Estimate, Judge

# --- the rule ---------------------------------------------------------------------------


def test_intervals_are_students_t_over_the_seeds() -> None:
    mean, half = compare.ci95([1.0, 2.0, 3.0, 4.0])
    # sd 1.29099, t(0.975, 3) = 3.182
    assert mean == 2.5
    assert half == pytest.approx(3.182 * 1.2909944 / 2, rel=1e-6)
    assert compare.ci95([5.0]) == (5.0, 0.0)
    assert compare.t975(9) == 2.262 and compare.t975(200) == 1.96


def test_derived_figures_carry_their_intervals() -> None:
    x, y = Estimate(2.0, 0.2), Estimate(1.0, 0.1)
    ratio = x / y
    assert ratio.mean == 2.0
    assert ratio.half == pytest.approx(2.0 * math.hypot(0.1, 0.1))
    assert (x - y).half == pytest.approx(math.hypot(0.2, 0.1))
    assert (1 - y).mean == 0.0 and (1 - y).half == 0.1
    assert (y * 100).half == pytest.approx(10.0)


@pytest.mark.parametrize(
    ("value", "band"),
    [(10, (5, 15)), (30, (25, 35)), (0.8, (0.75, 0.85)), (9, (8.5, 9.5)), (90, (85, 95))],
)
def test_about_reads_a_number_to_its_printed_precision(
    value: float, band: tuple[float, float]
) -> None:
    lo, hi = compare.precision_band(value)
    assert (lo, hi) == pytest.approx(band)
    assert compare.precision_band(35, 5) == (32.5, 37.5)


def test_greater_needs_intervals_apart_and_about_equal_needs_them_to_meet() -> None:
    j = Judge()
    assert j.greater("apart", Estimate(1.10, 0.04), Estimate(1.00, 0.05))
    assert not j.greater("overlap", Estimate(1.06, 0.04), Estimate(1.00, 0.05))
    assert not j.greater("means only", Estimate(1.0006, 0.0), Estimate(1.0, 0.01))
    assert j.about_equal("meet", Estimate(1.06, 0.04), Estimate(1.00, 0.05))
    assert not j.about_equal("apart", Estimate(1.10, 0.01), Estimate(1.00, 0.01))
    assert j.about_equal("widened", Estimate(0.60, 0.0), Estimate(0.70, 0.0), rel=0.15)
    assert j.not_below("tie", Estimate(1.0, 0.0), Estimate(1.0, 0.0))
    assert not j.not_below("beaten", Estimate(1.0, 0.01), Estimate(1.1, 0.01))
    assert j.below("bound", Estimate(0.4, 0.05), 0.5)
    assert not j.below("reaches it", Estimate(0.48, 0.05), 0.5)
    assert j.within("meets", Estimate(16.0, 1.5), 5, 15)
    assert not j.within("apart", Estimate(2.0, 0.8), 5, 15)
    assert not j.holds


def test_a_shortfall_says_how_far_a_comparison_is_from_holding() -> None:
    j = Judge()
    j.greater("x", Estimate(1.0, 0.0), Estimate(1.1, 0.0))
    assert j.shortfall == pytest.approx(0.1 / 1.1)
    k = Judge()
    k.within("x", Estimate(2.0, 0.0), 5, 15)
    assert k.shortfall == pytest.approx(3 / 15)
    assert Judge().shortfall == 0


# --- claims on cells ----------------------------------------------------------------


def paper_cells() -> list[dict[str, Any]]:
    """The 1997 paper's own Tables II-IV and peaks as cells: every value exact."""
    cells: list[dict[str, Any]] = [
        {
            "table": "peak",
            "setting": s,
            "scheme": "e2e",
            "throughput_mbps": published.BALAKRISHNAN97_PEAK_MBPS[s[:3]],
        }
        for s in published.SETTINGS
    ]
    for table, schemes in (
        ("table2", published.BALAKRISHNAN97_TABLE_II),
        ("table3", published.BALAKRISHNAN97_TABLE_III),
        ("table4", published.BALAKRISHNAN97_TABLE_IV),
    ):
        for scheme, by_setting in schemes.items():
            for setting, cell in by_setting.items():
                if cell is None:
                    continue
                cells.append(
                    {
                        "table": table,
                        "setting": setting,
                        "scheme": scheme,
                        "throughput_mbps": cell.throughput_mbps,
                        "wireless_goodput_pct": cell.wireless_goodput_pct,
                        "wired_goodput_pct": cell.wired_goodput_pct,
                        "published": cell.throughput_mbps,
                        "ratio": 1.0,
                    }
                )
    return cells


def test_every_claim_holds_on_the_papers_own_cells() -> None:
    """The readings are fair: the paper's own Tables II-IV, taken as exact, satisfy every
    claim about them. Table V and Fig. 12 give no numbers, and the counts of double
    retransmissions and of timeouts are not in the tables: those claims are left out."""
    found = claims.evaluate(CLAIMS, paper_cells())
    assert {c["status"] for c in found} == {"holds"}, [
        (c["id"], c["figures"]) for c in found if c["status"] != "holds"
    ]
    left_out = {c.id for c in CLAIMS} - {c["id"] for c in found}
    assert left_out == {
        "ii-double-retransmissions",
        "ii-no-source-timeouts",
        "v-smart-beats-aware",
        "v-smart-up-to-30pct",
        "f12-low-rates-equal",
        "f12-aware-vs-smart-16k",
        "f12-aware-vs-reno-16k",
        "f12-smart-beats-ietf-sack",
    }


def test_elaarag_claims_hold_on_table_one() -> None:
    cells = [
        {
            "table": elaarag.TABLE,
            "setting": f"ber={ber}",
            "scheme": "tahoe",
            "throughput_pps": row.throughput_pps,
            "wired_goodput_pct": 100 * row.success_probability,
        }
        for ber, row in ELAARAG02_TABLE_I.items()
    ]
    found = claims.evaluate(elaarag.CLAIMS, cells)
    assert [c["status"] for c in found] == ["holds"] * 3, found


def test_a_reversed_table_fails_with_its_figures_and_intervals() -> None:
    cells = paper_cells()
    for cell in cells:  # LL now beats LL-TCP-AWARE on the WAN
        if (cell["table"], cell["setting"], cell["scheme"]) == ("table2", "wan-32k", "ll"):
            cell["throughput_mbps"] = 1.30
            cell["ci95"] = {"throughput_mbps": 0.02}
    found = {c["id"]: c for c in claims.evaluate(CLAIMS, cells)}
    verdict = found["ii-aware-beats-plain"]
    assert verdict["status"] == "fails"
    assert verdict["figures"]["wan-32k LL-TCP-AWARE/LL"] == round(1.19 / 1.30, 4)
    assert verdict["ci95"]["wan-32k LL-TCP-AWARE/LL"] == round(1.19 / 1.30 * 0.02 / 1.30, 4)
    assert found["ii-wan-gain-30pct"]["status"] == "fails"


def test_a_claim_needs_its_cells_and_records_them() -> None:
    """With only Table II run (``--only table2``) the Table III-IV claims are left out;
    a claim's evaluation lists the cells it read (its deviation's check re-runs them)."""
    cells = [c for c in paper_cells() if c["table"] == "table2"]
    found = claims.evaluate_all(CLAIMS, cells)
    ids = {f.claim.id for f in found}
    assert "ii-aware-beats-plain" in ids
    assert not [i for i in ids if i.startswith(("iii-", "iv-", "vi-"))]
    wan = next(f for f in found if f.claim.id == "ii-wan-gain-30pct")
    assert wan.used == ("table2/wan-32k/ll", "table2/wan-32k/ll-tcp-aware")


# --- deviations ---------------------------------------------------------------------


def test_every_deviation_entry_names_real_claims_or_cell_patterns() -> None:
    ids = {c.id for c in CLAIMS}
    for entry in DEVIATIONS:
        for key in entry.keys:
            assert key in ids or key.count("/") == 2, key
        assert entry.text and all(c.sets for c in (entry.cause, *entry.ruled_out) if c), entry.keys


def _item(shortfall: float, entry: deviations.Deviation | None) -> deviations.Item:
    claim = claims.Claim("x", "", "", "")
    verdict = claims.Verdict(False, {}, shortfall)
    return deviations.Item("claim", "x", entry, found=claims.Evaluated(claim, verdict, ()))


def test_a_deviation_is_explained_only_when_its_cause_moves_the_claim() -> None:
    cause = deviations.Cause("c", ("k=1",))
    entry = deviations.Deviation(("x",), "text", cause)
    moved = deviations.Outcome(cause, 0.4, 0.1)
    halfway = deviations.Outcome(cause, 0.4, 0.25)
    hair = deviations.Outcome(cause, 0.008, 0.0)
    assert moved.moved and not halfway.moved and not hair.moved
    assert deviations.status(_item(0.4, entry), moved, []) == "explained"
    assert deviations.status(_item(0.4, entry), halfway, []) == "open"
    # A cause ruled out that moves it as much leaves it open.
    assert deviations.status(_item(0.4, entry), moved, [moved]) == "open"
    # No cause named, or no entry: open.
    assert deviations.status(_item(0.4, deviations.Deviation(("x",), "t")), None, []) == "open"
    assert deviations.status(_item(0.4, None), None, []) == "open"


def test_entries_match_keys_exactly_before_patterns() -> None:
    a = deviations.Deviation(("table3/*/*",), "a")
    b = deviations.Deviation(("table3/lan-8k/e2e",), "b")
    assert deviations.entry_for("table3/lan-8k/e2e", (a, b)) is b
    assert deviations.entry_for("table3/wan-32k/e2e", (a, b)) is a
    assert deviations.entry_for("table2/wan-32k/ll", (a, b)) is None


def test_a_cell_is_far_only_when_its_interval_misses_the_band() -> None:
    near = {"throughput_mbps": 1.3, "published": 1.0, "ci95": {"throughput_mbps": 0.1}}
    far = {"throughput_mbps": 1.4, "published": 1.0, "ci95": {"throughput_mbps": 0.1}}
    assert deviations.band_shortfall(near) == 0
    assert deviations.band_shortfall(far) == pytest.approx(math.log(1.3 / 1.25))


def test_golden_differences_name_every_flip() -> None:
    pinned: verdicts.Pinned = {
        "claims": {"a": "holds", "b": "fails open"},
        "cells": {"t/s/x": "open"},
    }
    got: verdicts.Pinned = {"claims": {"a": "fails open", "c": "holds"}, "cells": {}}
    assert verdicts.differences(pinned, got) == [
        "claims a: pinned holds, measured fails open",
        "claims b: pinned fails open, measured (not measured)",
        "claims c: pinned (not pinned), measured holds",
        "cells t/s/x: pinned open, measured (within the band)",
    ]
    assert verdicts.differences(pinned, pinned) == []
