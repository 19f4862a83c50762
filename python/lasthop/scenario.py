"""Where a scenario comes from: a file, an embedded name, TOML text or a dict.

The Rust core owns the scenario schema and all of its checks; this module only finds the
text, says which format it is in and which name to use for it in messages, and checks the
shape of ``--set`` overrides (``PATH=VALUE``) before they reach the core.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeAlias

from lasthop import _core

ScenarioLike: TypeAlias = "str | os.PathLike[str] | Mapping[str, Any]"
"""What :func:`lasthop.run` accepts as a scenario."""

SetLike: TypeAlias = "Sequence[str] | Mapping[str, object] | None"
"""Overrides: ``["name=value", "a.b.c=value"]`` or ``{"a.b.c": value}``."""


class ScenarioSource(NamedTuple):
    """A scenario's text, its format (``"toml"`` or ``"json"``) and its name in messages."""

    text: str
    fmt: str
    origin: str


def embedded_names() -> list[str]:
    """Names of the scenarios compiled into the engine, sorted."""
    return sorted(_core.embedded_scenarios())


def load_scenario_text(scenario: ScenarioLike) -> ScenarioSource:
    """Find the text of ``scenario``.

    - a ``Mapping`` is sent to the core as JSON;
    - a ``pathlib.Path`` (any ``os.PathLike``) is read as a file, JSON when its suffix is
      ``.json`` and TOML otherwise;
    - a ``str`` that holds a line break is TOML text;
    - any other ``str`` names an existing file, or else an embedded scenario
      (``"balakrishnan97/lan"``).

    Raises ``FileNotFoundError`` (an ``OSError``) when a name is neither, and
    ``ScenarioError`` when a file is not UTF-8 text.
    """
    if isinstance(scenario, Mapping):
        return ScenarioSource(json.dumps(scenario), "json", "<dict>")
    if isinstance(scenario, os.PathLike):
        return _read_file(Path(scenario))
    if not isinstance(scenario, str):
        raise TypeError(
            f"scenario must be a path, a name, TOML text or a dict, not {type(scenario).__name__}"
        )
    if "\n" in scenario:
        return ScenarioSource(scenario, "toml", "<string>")
    path = Path(scenario)
    if path.is_file():
        return _read_file(path)
    embedded = _core.embedded_scenarios()
    name = scenario.removesuffix(".toml")
    if name in embedded:
        return ScenarioSource(embedded[name], "toml", name)
    if path.exists():
        # A directory, a fifo, ...: let the OS say what is wrong with it.
        return _read_file(path)
    raise FileNotFoundError(errno.ENOENT, "no such file or embedded scenario", scenario)


MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest scenario or plan file read: 64 MiB. The largest shipped scenario is a
few kB and a 20,000-node topology about 2 MB; no source decides the cap, it only has to
stop a read of ``/dev/zero`` or a mistyped multi-GB file before memory runs out."""


def read_text_file(path: Path, error: type[Exception]) -> str:
    """The UTF-8 text of ``path``, read in 1 MiB pieces (a Ctrl-C stops it between
    two) and at most :data:`MAX_FILE_BYTES` of it; ``error`` (one line naming the file)
    for a larger file or one that is not UTF-8."""
    pieces = []
    size = 0
    with path.open("rb") as f:
        while size <= MAX_FILE_BYTES:
            piece = f.read(min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not piece:
                break
            pieces.append(piece)
            size += len(piece)
    if size > MAX_FILE_BYTES:
        raise error(f"{path}: larger than the {MAX_FILE_BYTES >> 20} MiB a file may be")
    data = b"".join(pieces)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{path}: not UTF-8 text (byte {e.start})") from None


def _read_file(path: Path) -> ScenarioSource:
    fmt = "json" if path.suffix.lower() == ".json" else "toml"
    return ScenarioSource(read_text_file(path, _core.ScenarioError), fmt, str(path))


def check_set(item: str) -> str | None:
    """Why the override ``item`` is not of the form ``PATH=VALUE``, or ``None`` if it is."""
    path, sep, _value = item.partition("=")
    if not sep:
        return f"expected PATH=VALUE, got {item!r}"
    if not path.strip():
        return f"empty PATH in {item!r}"
    return None


def normalize_sets(sets: SetLike) -> list[str]:
    """Overrides as the core takes them: a list of ``"PATH=VALUE"`` strings.

    A mapping's values are written as TOML literals (booleans as ``true``/``false``,
    numbers as Python prints them); strings go through unchanged, as on the command line,
    so the core parses them as TOML values and falls back to a plain string.
    """
    if sets is None:
        return []
    if isinstance(sets, str):
        raise TypeError("set must be a list of 'PATH=VALUE' strings or a mapping, not a str")
    if isinstance(sets, Mapping):
        items = [f"{path}={_toml_literal(value)}" for path, value in sets.items()]
    else:
        items = list(sets)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"set items must be 'PATH=VALUE' strings, not {type(item).__name__}")
        reason = check_set(item)
        if reason is not None:
            raise _core.ScenarioError(f"set: {reason}")
    return items


def _toml_literal(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return str(value)
