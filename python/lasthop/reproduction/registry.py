"""The papers that ``lasthop reproduce`` knows, found by name: the registry.

A paper is a package ``lasthop.papers.<name>`` (a folder ``python/lasthop/papers/<name>/``)
holding a file ``paper.json`` that describes it and a module ``paper`` whose ``PAPER``
implements :class:`lasthop.reproduction.paper.Paper`. The registry lists the folders and
reads their ``paper.json``; it imports a paper's code only when that paper is asked for
(:func:`load`), by name, never statically. Adding a paper is adding its folder.

Why the description is a data file and not the package's ``__init__``: the command line
builds its choices (``lasthop reproduce WHICH --only PART``) when it is imported, so the
registry is read at every start of ``lasthop``. Reading four small JSON files loads no
paper's module at all (tests/test_layering.py checks that no framework module does), and
costs less than importing four packages.

``paper.json`` holds an object with:

- ``position`` (integer): where the paper comes in ``all``, in the cells and in the list
  of selections: ascending;
- ``selections`` (list of strings, optional): further selections of the paper's own,
  parts of it (``balakrishnan97-table3``); the paper's name is always one, and ``all``
  runs each paper as its name selects it;
- ``only`` (list of strings, optional): the parts ``--only`` picks with the selection
  that is the paper's name, and ``only_help``, what ``--only`` says of them.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import os
from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:
    from lasthop.reproduction.paper import Paper

PACKAGE: Final = "lasthop.papers"
"""The package whose sub-packages are the papers."""

DESCRIPTION: Final = "paper.json"
"""The file of a paper's package that describes it to the registry."""

MODULE: Final = "paper"
"""The module of a paper's package whose ``PAPER`` is its :class:`Paper`."""

ALL: Final = "all"
"""The selection of every paper, each as its name selects it."""


class About(NamedTuple):
    """What the registry knows of a paper without loading its code (its ``paper.json``).

    A named tuple, not a dataclass: the registry is read at every start of ``lasthop``, and
    making a dataclass costs a few milliseconds there."""

    name: str
    """The paper's package under ``lasthop.papers``, and its selection in ``lasthop
    reproduce`` (what ``all`` runs of it)."""
    position: int
    """Where it comes in ``all`` and among the selections: ascending."""
    selections: tuple[str, ...] = ()
    """Further selections of its own: parts of the paper (``balakrishnan97-table3``)."""
    only: tuple[str, ...] = ()
    """The parts ``--only`` picks with the selection :attr:`name`."""
    only_help: str = ""
    """What ``--only`` says of those parts (``only this table or figure``)."""

    @property
    def names(self) -> tuple[str, ...]:
        """Every selection of the paper: its name, then its own further ones."""
        return (self.name, *self.selections)


@functools.cache
def papers() -> tuple[About, ...]:
    """Every paper, by :attr:`About.position` (then name)."""
    spec = importlib.util.find_spec(PACKAGE)  # imports lasthop, not lasthop.papers
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"{PACKAGE}: no such package")
    found: list[About] = []
    for folder in spec.submodule_search_locations:
        with os.scandir(folder) as entries:
            for entry in entries:
                path = os.path.join(entry.path, DESCRIPTION)
                if entry.is_dir() and os.path.isfile(path):
                    found.append(_about(entry.name, path))
    found.sort(key=lambda p: (p.position, p.name))
    # Selections, and parts, are each one namespace over the papers.
    for names in ([p.names for p in found], [p.only for p in found]):
        taken: list[str] = [ALL]
        for paper, own in zip(found, names, strict=True):
            for name in own:
                if name in taken:
                    raise RuntimeError(f"{PACKAGE}.{paper.name}: {name!r} is taken")
                taken.append(name)
    return tuple(found)


def _about(name: str, path: str) -> About:
    """The :class:`About` of the paper ``name`` from its ``paper.json`` at ``path``."""
    with open(path, encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)

    def strings(key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RuntimeError(f"{path}: {key}: expected a list of strings")
        return tuple(value)

    position = data.get("position")
    if not isinstance(position, int):
        raise RuntimeError(f"{path}: position: expected an integer")
    return About(
        name=name,
        position=position,
        selections=strings("selections"),
        only=strings("only"),
        only_help=str(data.get("only_help", "")),
    )


def selections() -> tuple[str, ...]:
    """What ``lasthop reproduce`` reproduces: ``all``, then each paper's selections."""
    return (ALL, *(name for paper in papers() for name in paper.names))


def only_parts() -> tuple[str, ...]:
    """What ``--only`` picks, over every paper that has parts."""
    return tuple(part for paper in papers() for part in paper.only)


def only_selections() -> tuple[str, ...]:
    """The selections that take ``--only``: the papers with parts."""
    return tuple(paper.name for paper in papers() if paper.only)


def selected(which: str) -> list[tuple[About, str]]:
    """The papers ``which`` runs, each with the selection it runs of the paper: for
    ``all`` every paper as its name selects it; ``ValueError`` for an unknown ``which``."""
    if which == ALL:
        return [(paper, paper.name) for paper in papers()]
    for paper in papers():
        if which in paper.names:
            return [(paper, which)]
    raise ValueError(f"which: expected one of {', '.join(selections())}, got {which!r}")


def takes_only(which: str, only: str) -> bool:
    """Whether ``only`` is a part of the paper that ``which`` names."""
    return any(which == paper.name and only in paper.only for paper in papers())


def check_only(which: str, only: str | None) -> None:
    """``ValueError`` unless ``only`` is ``None`` or a part of the paper ``which`` names."""
    if only is not None and not takes_only(which, only):
        raise ValueError(
            f"only: expected one of {', '.join(only_parts())} with {' or '.join(only_selections())}"
        )


def load(name: str) -> Paper:
    """The paper ``name``'s :class:`Paper` (its module ``paper`` is imported now)."""
    if name not in {paper.name for paper in papers()}:
        raise KeyError(name)
    module = importlib.import_module(f"{PACKAGE}.{name}.{MODULE}")
    paper: Paper = module.PAPER
    return paper
