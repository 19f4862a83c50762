"""The expected verdict of every claim, pinned per paper in a reviewed golden file.

Each paper's package holds ``verdicts.toml``::

    [claims]            # every claim: "holds", "fails explained", "fails open", "unchecked"
    "ii-aware-beats-plain" = "holds"
    [cells]             # every cell far from its published value: "explained" or "open"
    "table3/lan-8k/e2e" = "explained"

The verdicts are those of ``lasthop reproduce`` on its defaults (10 seeds, every
deviation's check run). ``tests/test_verdicts.py`` runs that reproduction and compares: a
change that flips a verdict fails CI until the file is updated in the same commit, with
the reason in the commit message. ``python -m lasthop.reproduction.verdicts`` prints the
files a reproduction gives (``--write`` writes them) for that review.
"""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

FILE: Final = "verdicts.toml"

HEADER: Final = """\
# The expected verdicts of this paper's claims and far cells on `lasthop reproduce`'s
# defaults (lasthop.reproduction.verdicts). tests/test_verdicts.py fails when a change
# flips one: update this file in the same commit and say why in its message.
"""

Pinned = dict[str, dict[str, str]]
"""``{"claims": {id: verdict}, "cells": {key: status}}``."""


def path(paper: str) -> Path:
    """The golden file of ``paper`` (a package under ``lasthop.papers``)."""
    spec = importlib.util.find_spec(f"lasthop.papers.{paper}")
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"lasthop.papers.{paper}: no such paper")
    return Path(next(iter(spec.submodule_search_locations))) / FILE


def load(paper: str) -> Pinned:
    """The pinned verdicts of ``paper`` (empty sections when it has no file)."""
    file = path(paper)
    data: dict[str, Any] = tomllib.loads(file.read_text()) if file.exists() else {}
    return {
        "claims": {str(k): str(v) for k, v in data.get("claims", {}).items()},
        "cells": {str(k): str(v) for k, v in data.get("cells", {}).items()},
    }


def measured(part: Any) -> Pinned:
    """What one paper's part of a reproduction (:class:`~lasthop.reproduction.reproduce.Part`)
    gives: its claims' verdicts and its far cells' statuses."""
    return {
        "claims": {str(c["id"]): str(c["verdict"]) for c in part.claims},
        "cells": {str(d["key"]): str(d["status"]) for d in part.deviations if d["kind"] == "cell"},
    }


def from_json(document: Mapping[str, Any]) -> dict[str, Pinned]:
    """Per paper, what ``lasthop reproduce --format json`` printed: its claims' verdicts
    and its far cells' statuses."""
    out: dict[str, Pinned] = {}
    for claim in document["claims"]:
        out.setdefault(str(claim["paper"]), {"claims": {}, "cells": {}})["claims"][
            str(claim["id"])
        ] = str(claim["verdict"])
    for d in document["deviations"]:
        if d["kind"] == "cell":
            out.setdefault(str(d["paper"]), {"claims": {}, "cells": {}})["cells"][str(d["key"])] = (
                str(d["status"])
            )
    return out


def decided(pinned: Pinned, tables: Sequence[str] | None = None) -> tuple[dict[str, str], set[str]]:
    """What a run without the deviations' checks can compare with ``pinned``: each claim's
    ``holds`` / ``fails`` / ``unchecked`` and the set of far cells (of ``tables`` only)."""
    claims = {k: v.split()[0] for k, v in pinned["claims"].items()}
    far = {k for k in pinned["cells"] if tables is None or k.split("/")[0] in tables}
    return claims, far


def differences(expected: Pinned, got: Pinned) -> list[str]:
    """One line per verdict that differs, is new, or is gone."""
    out = []
    for section in ("claims", "cells"):
        want, have = expected.get(section, {}), got.get(section, {})
        for key in [*want, *(k for k in have if k not in want)]:
            a, b = want.get(key, "(not pinned)"), have.get(key, "(not measured)")
            if section == "cells":
                a = a if key in want else "(within the band)"
                b = b if key in have else "(within the band)"
            if a != b:
                out.append(f"{section} {key}: pinned {a}, measured {b}")
    return out


def text(got: Pinned, notes: Mapping[str, str] | None = None) -> str:
    """``got`` as a golden file."""
    lines = [HEADER, "[claims]"]
    lines += [f'"{k}" = "{v}"' for k, v in got["claims"].items()]
    lines += ["", "[cells]"]
    lines += [f'"{k}" = "{v}"' for k, v in got["cells"].items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """``python -m lasthop.reproduction.verdicts [--write] [PAPER ...]``: reproduce the
    papers on the defaults and print (or write) their golden files."""
    from lasthop.reproduction import registry
    from lasthop.reproduction.reproduce import run_reproduction

    write = "--write" in argv
    names = [a for a in argv if a != "--write"] or [p.name for p in registry.papers()]
    for name in names:
        reproduction = run_reproduction(name)
        for part in reproduction.parts:
            got = measured(part)
            if write:
                path(part.paper).write_text(text(got))
                print(f"wrote {path(part.paper)}")
            else:
                print(f"# {part.paper}\n{text(got)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
