"""Issue 13: ``lasthop reproduce yun09`` (seed 004, LL-ELSN over 802.11b).

Each of the paper's checkable statements that the reproduction decides is a named test,
over 10 seeds: it passes when the claim holds, or when it fails with its deviation
explained in :data:`lasthop.papers.yun09.claims.DEVIATIONS` (a claim that fails without
an explanation, or that the cells no longer decide, fails the test). The reproduction's
JSON is byte-identical across two runs, and issue 13's bad inputs get the one-line error.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import assert_claim_holds_or_is_explained, lasthop_cli
from test_cli_errors import assert_usage_error

from lasthop.papers.yun09 import claims as claims_yun09
from lasthop.papers.yun09 import experiments as yun09
from lasthop.reproduction.reproduce import check_claims, reproduce

SEEDS = 10


@pytest.fixture(scope="module")
def cells() -> list[dict[str, Any]]:
    return reproduce("yun09", SEEDS)


@pytest.fixture(scope="module")
def evaluated(cells: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    found, _ = check_claims(cells)
    return {c["id"]: c for c in found}


@pytest.mark.parametrize("claim_id", [c.id for c in claims_yun09.CLAIMS])
def test_claim_holds_or_its_deviation_is_explained(
    claim_id: str, evaluated: dict[str, dict[str, Any]]
) -> None:
    assert_claim_holds_or_is_explained(claim_id, evaluated, claims_yun09.DEVIATIONS)


def test_the_acceptance_list_of_claims_is_covered() -> None:
    ids = {c.id for c in claims_yun09.CLAIMS}
    wanted = {"A2", "A3", "A4", "A5", "A8", "A13", "A14", "A20", "A22", "A23", "A24", "A25"}
    assert wanted | {"A26", "A27"} <= ids


def test_every_experiment_has_its_cells(cells: list[dict[str, Any]]) -> None:
    tables = {c["table"] for c in cells}
    assert tables == set(yun09.TABLES) | {"y09-e13"}
    e1 = [c for c in cells if c["table"] == "y09-e1"]
    assert len(e1) == len(yun09.E1_FER) * len(yun09.E1_SCHEMES)
    # Every cell measured something: goodput is positive wherever a flow could send.
    assert all(c["throughput_mbps"] > 0 for c in e1), e1


def test_the_disconnection_silences_the_filtering_sender(cells: list[dict[str, Any]]) -> None:
    """E10's series: before 10 s the sender sends hundreds of segments per second; the
    bins of the last 5 s with filtering average under a tenth of that."""
    by = {c["scheme"]: c for c in cells if c["table"] == "y09-e10"}
    series = by["filter"]["rate_series_seg_s"]
    assert len(series) == round(yun09.E10_RUN_S / yun09.E10_BIN_S)
    before = sum(series[50:100]) / 50
    assert before > 100, before
    assert sum(series[-50:]) / 50 < 0.1 * before, series[-50:]


def test_eln_delay_is_the_wired_way_downlink_and_zero_uplink(
    cells: list[dict[str, Any]],
) -> None:
    """E14 (Table 1): every downlink LL-ELSN cell's mean ELN delay is T_wrd (two 10 ms
    wired hops and two 32 us serializations of the 40-byte notice, 20.064 ms) give or take
    one serialization; uplink, the station's link layer calls its own TCP: 0."""
    for c in cells:
        if c["scheme"] != "ll-elsn" or "eln_delay_ms" not in c:
            continue
        if c["table"] == "y09-e1":
            assert c["eln_delay_ms"] == pytest.approx(20.064, abs=0.032), c
        if c["table"] == "y09-e3":
            assert c["eln_delay_ms"] == 0.0, c


def test_json_is_byte_identical_across_two_runs() -> None:
    args = ("reproduce", "yun09", "--seeds", "2", "--format", "json")
    first = lasthop_cli(*args)
    second = lasthop_cli(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    document = json.loads(first.stdout)
    assert {c["id"] for c in document["claims"]} >= {"A2", "A26"}


@pytest.mark.parametrize(
    ("sets", "field"),
    [
        (("retry_limit=0",), "media[0].dcf.retry_limit"),
        (("media.0.dcf.cw_min=2000",), "media[0].dcf.cw_min"),
        (('media.0.error={model="markov",p_gb=0.01,p_bb=1.5}',), "media[0].error.p_bb"),
        (
            (
                'nodes=[{name="s"},{name="r"},{name="ap"},{name="d"},{name="e"}]',
                'media.0.stations=["ap","d","e"]',
                'media.0.hops=[["ap","d"]]',
            ),
            "media[0].stations[2]",
        ),
        (('flows.0.tcp.variant="sack"', "flows.0.tcp.ll_elsn={}"), "flows[0].tcp.ll_elsn"),
    ],
)
def test_bad_802_11_settings_get_one_line(sets: tuple[str, ...], field: str) -> None:
    args = ["run", yun09.DOWN]
    for s in sets:
        args += ["--set", s]
    result = lasthop_cli(*args)
    assert_usage_error(result, field)
