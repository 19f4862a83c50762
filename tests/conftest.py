"""Fixtures shared by the tests."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable

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
def reproduce_one_seed(tmp_path_factory: pytest.TempPathFactory) -> str:
    """``lasthop reproduce --seeds 1 --quick --format json``: every paper's every cell and
    every deviation's check on seed 1, seed 004's runs at 50 s. tests/test_verdicts.py runs
    it again to compare the bytes (one seed and --quick run every scenario and code path
    the whole reproduction runs, at a small part of its cost).

    Made once per test session, not once per pytest-xdist worker: the first worker to ask
    runs it under a lock in the session's shared temporary directory, the others read its
    bytes (pytest-xdist's recipe for a session fixture run once)."""
    from helpers import lasthop_cli

    def made() -> str:
        proc = lasthop_cli("reproduce", "--seeds", "1", "--quick", "--format", "json", timeout=1800)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    return _once(tmp_path_factory, "reproduce_one_seed.json", made)


def _once(factory: pytest.TempPathFactory, name: str, make: Callable[[], str]) -> str:
    """``make()``'s text, made by one worker of the session and read by the others."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return make()  # one process: the fixture's scope is enough
    # A worker's base is <session>/popen-gwN: its parent is this session's alone (without
    # xdist the parent would be the directory of every session, older ones included).
    shared = factory.getbasetemp().parent
    path = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.is_file():
            return path.read_text()
        text = make()
        tmp = path.with_suffix(".partial")
        tmp.write_text(text)
        tmp.replace(path)
        return text
