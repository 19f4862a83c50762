"""Fixtures shared by the tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def lan_text() -> str:
    """The embedded 1997 LAN scenario, the base the error tests edit."""
    from lasthop import _core

    return _core.embedded_scenarios()["balakrishnan97/lan"]
