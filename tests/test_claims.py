"""Issue 10, item 5: the claims of Balakrishnan et al. 1997 checked on a reproduction's
cells, and the deviations it owes an explanation for."""

from __future__ import annotations

from typing import Any

from lasthop.papers.balakrishnan97 import published
from lasthop.papers.balakrishnan97.claims import CLAIMS, DEVIATIONS
from lasthop.reproduction import claims


def paper_cells() -> list[dict[str, Any]]:
    """The paper's own Tables II-IV and peaks as reproduction cells."""
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
    """The readings of "about", "up to" and the like are fair: the paper's own Tables
    II-IV satisfy every claim about them. Table V and Fig. 12 give no numbers, so their
    claims are left out; the one statement the cells cannot decide is listed unchecked."""
    found = claims.evaluate(CLAIMS, paper_cells())
    by_id = {c["id"]: c for c in found}
    assert {c["status"] for c in found} == {"holds", "unchecked"}, [
        (c["id"], c["figures"]) for c in found if c["status"] == "fails"
    ]
    assert by_id["ii-double-retransmissions"]["status"] == "unchecked"
    assert not [c for c in found if c["id"].startswith(("v-", "f12-"))]
    # The published cells carry no timeouts: that claim is left out, not failed.
    assert "ii-no-source-timeouts" not in by_id
    assert len(found) == len(CLAIMS) - 1 - 6  # Table V (2), Fig. 12 (4), timeouts (1)
    assert claims.deviations(found, paper_cells(), DEVIATIONS) == []


def test_claims_are_named_once_and_explanations_name_real_claims() -> None:
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    assert all(c.check is not None or c.unchecked for c in CLAIMS)
    for key, text in DEVIATIONS.items():
        assert key in ids or key.count("/") == 2, key
        assert len(text) > 80 and text != claims.UNEXPLAINED, key


def test_a_claim_needs_its_cells() -> None:
    """With only Table II run (``--only table2``) the Table III-IV claims are left out."""
    cells = [c for c in paper_cells() if c["table"] == "table2"]
    found = {c["id"] for c in claims.evaluate(CLAIMS, cells)}
    assert "ii-aware-beats-plain" in found and "ii-double-retransmissions" in found
    assert not [i for i in found if i.startswith(("iii-", "iv-", "vi-"))]


def test_a_reversed_table_fails_with_its_figures() -> None:
    cells = paper_cells()
    for cell in cells:  # LL now beats LL-TCP-AWARE on the WAN
        if cell["table"] == "table2" and cell["setting"] == "wan-32k" and cell["scheme"] == "ll":
            cell["throughput_mbps"] = 1.30
    found = {c["id"]: c for c in claims.evaluate(CLAIMS, cells)}
    verdict = found["ii-aware-beats-plain"]
    assert verdict["status"] == "fails"
    assert verdict["figures"]["wan-32k LL-TCP-AWARE/LL"] == round(1.19 / 1.30, 4)
    assert found["ii-wan-gain-30pct"]["status"] == "fails"


def test_deviations_explain_failed_claims_and_far_cells() -> None:
    evaluated = [
        {
            "id": "iii-newreno-wan",
            "section": "Sec. IV-C1",
            "checked_as": "E2E-NEWRENO/E2E between 1.6 and 2.5 on the WAN",
            "status": "fails",
            "figures": {"wan-32k E2E-NEWRENO/E2E": 1.09},
        },
        {"id": "x", "section": "", "checked_as": "", "status": "holds", "figures": {}},
    ]
    cells = [
        {"table": "table3", "setting": "lan-8k", "scheme": "e2e-eln-rxmt", "ratio": 1.49,
         "throughput_mbps": 1.28, "published": 0.86},
        {"table": "table3", "setting": "lan-8k", "scheme": "e2e", "ratio": 1.14,
         "throughput_mbps": 0.63, "published": 0.55},
        {"table": "table9", "setting": "s", "scheme": "k", "ratio": 0.5,
         "throughput_mbps": 0.5, "published": 1.0},
    ]  # fmt: skip
    found = claims.deviations(evaluated, cells, DEVIATIONS)
    assert [d["key"] for d in found] == [
        "iii-newreno-wan",
        "table3/lan-8k/e2e-eln-rxmt",  # by the pattern table3/*/e2e-eln*
        "table9/s/k",
    ]
    assert found[0]["explanation"] == DEVIATIONS["iii-newreno-wan"]
    assert "1.09" in found[0]["what"]
    assert found[1]["explanation"] == DEVIATIONS["table3/*/e2e-eln*"]
    assert "ratio 1.49" in found[1]["what"]
    assert found[2]["explanation"] == claims.UNEXPLAINED
    groups = claims.grouped(found)
    assert [len(g) for _, g in groups] == [1, 1, 1]
    assert claims.grouped(found + found)[0][1] == [found[0], found[0]]
