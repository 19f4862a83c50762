"""Where the reproduction of seed 001 departs from the paper's claims, and the defaults of
its scenarios that no source decides (issue 28 items 2 and 6). None yet: every failed
claim is open."""

from __future__ import annotations

from typing import Final

from lasthop.reproduction.deviations import Deviation, Sensitivity

DEVIATIONS: Final[tuple[Deviation, ...]] = ()
SENSITIVITIES: Final[tuple[Sensitivity, ...]] = ()
