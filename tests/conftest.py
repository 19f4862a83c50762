"""Fixtures shared by the tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def lan_text() -> str:
    """The embedded 1997 LAN scenario, the base the error tests edit."""
    from lasthop import _core

    return _core.embedded_scenarios()["balakrishnan97/lan"]


@pytest.fixture(scope="session")
def reproduce_all() -> str:
    """``lasthop reproduce --format json`` on its defaults (every paper, 10 seeds, every
    deviation's check): the document the golden verdicts are pinned on. Run once per
    session."""
    from helpers import lasthop_cli

    proc = lasthop_cli("reproduce", "--format", "json", timeout=1800)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="session")
def reproduce_one_seed() -> str:
    """``lasthop reproduce --seeds 1 --quick --format json``: every paper's every cell and
    every deviation's check on seed 1, seed 004's runs at 50 s. tests/test_verdicts.py runs
    it again to compare the bytes (one seed and --quick run every scenario and code path
    the whole reproduction runs, at a small part of its cost)."""
    from helpers import lasthop_cli

    proc = lasthop_cli("reproduce", "--seeds", "1", "--quick", "--format", "json", timeout=1800)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout
