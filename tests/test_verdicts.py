"""Issue 28: every claim of every reproduced paper has its expected verdict pinned in the
paper's golden file (``python/lasthop/papers/<paper>/verdicts.toml``), and the whole
reproduction (every paper, every cell, every deviation's check, on seed 1) is the same
bytes twice.

A failure here means a change flipped a verdict (a claim that held fails, a failure lost
or gained its explanation, a cell left or joined the far ones). If the change is right,
update the golden file in the same commit and say why in the commit message:
``python -m lasthop.reproduction.verdicts --write PAPER`` writes it from a reproduction
on the defaults; review the diff line by line.
"""

from __future__ import annotations

import json

import pytest
from helpers import lasthop_cli

from lasthop.reproduction import registry, verdicts

# Every test that reads the whole reproduction (the reproduce_all fixture) lives in this
# file: CI gives each file to one pytest-xdist worker (scripts/test.sh), so it runs once.

PAPERS = [p.name for p in registry.papers()]


@pytest.mark.parametrize("paper", PAPERS)
def test_verdicts_are_the_pinned_ones(paper: str, reproduce_all: str) -> None:
    measured = verdicts.from_json(json.loads(reproduce_all)).get(paper, {"claims": {}, "cells": {}})
    pinned = verdicts.load(paper)
    assert pinned["claims"], f"{paper}: no golden file ({verdicts.path(paper)})"
    flips = verdicts.differences(pinned, measured)
    assert not flips, f"{paper}: " + "; ".join(flips)


def test_every_claim_of_every_paper_is_pinned() -> None:
    for paper in PAPERS:
        ids = {c.id for c in registry.load(paper).claims}
        assert set(verdicts.load(paper)["claims"]) == ids, paper


def test_the_whole_reproduction_is_the_same_bytes_twice(reproduce_one_seed: str) -> None:
    """On seed 1 and --quick: every scenario and code path of the 10-seed run, at a small
    part of its cost."""
    again = lasthop_cli("reproduce", "--seeds", "1", "--quick", "--format", "json", timeout=1800)
    assert again.returncode == 0, again.stderr
    assert again.stdout == reproduce_one_seed


def test_the_summary_counts_each_papers_verdicts(reproduce_all: str) -> None:
    """A report line per paper: holds / fails explained / fails open (and the far cells)."""
    document = json.loads(reproduce_all)
    for row in document["summary"]:
        pinned = verdicts.load(str(row["paper"]))["claims"].values()
        assert row["holds"] == sum(1 for v in pinned if v == "holds")
        assert row["fails_explained"] == sum(1 for v in pinned if v == "fails explained")
        assert row["fails_open"] == sum(1 for v in pinned if v == "fails open")
    for deviation in document["deviations"]:
        assert deviation["status"] in ("explained", "open")
        assert deviation["cause"]
        if deviation["status"] == "explained":
            assert deviation["check"]["moves_toward_paper"], deviation["key"]
