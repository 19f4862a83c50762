"""Summaries of runs: the mean over seeds that ``lasthop run --seeds N`` prints."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

END_STATES: Final = frozenset({"fec_level"})
"""Fields that are a state a run ends in, not an identity: they may differ by seed."""


def mean_records(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The field-by-field mean of records describing the same thing in different runs.

    Numbers are averaged (as floats, summed in run order so the result does not depend on
    anything but the inputs); a field that is ``None`` in any run is ``None`` (a link no
    data crossed has no goodput); booleans are true only if true in every run; nested
    records (a split flow's ``split``) are averaged the same way; a state a run ends in
    (:data:`END_STATES`: AIRMAIL's FEC level) that differs between runs is each value with
    its count of runs (``"byte x1, none x1"``); other fields (``name``, ``direction``) are
    kept and must agree across runs.
    """
    if not records:
        raise ValueError("no records to average")
    mean: dict[str, Any] = {}
    for key, first in records[0].items():
        values = [record.get(key) for record in records]
        if isinstance(first, bool):
            mean[key] = all(bool(v) for v in values)
        elif any(v is None for v in values):
            mean[key] = None
        elif all(_is_number(v) for v in values):
            mean[key] = math.fsum(cast(list[float], values)) / len(values)
        elif all(isinstance(v, Mapping) for v in values):
            mean[key] = mean_records(cast(list[Mapping[str, Any]], values))
        elif all(v == first for v in values):
            mean[key] = first
        elif key in END_STATES:
            counts = Counter(str(v) for v in values)
            mean[key] = ", ".join(f"{v} x{n}" for v, n in sorted(counts.items()))
        else:
            raise ValueError(f"{key}: differs between runs ({first!r} and others)")
    return mean


def mean_summary(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"flows": [...], "links": [...], "published": ..., "media": [...]}``: each flow
    and link direction averaged over ``runs`` (summaries of the same scenario with
    different seeds); the published comparison, when the scenario has one, with the
    measured values averaged and the ratio taken of the mean throughput; each shared
    medium's radios averaged, when the scenario has media; each ``wap`` workload's counts
    and means, without its pages, when it has one."""
    mean: dict[str, Any] = {}
    for section in ("flows", "links"):
        lists = [run[section] for run in runs]
        counts = {len(items) for items in lists}
        if len(counts) != 1:
            raise ValueError(f"{section}: runs disagree on the number of entries")
        mean[section] = [mean_records(entries) for entries in zip(*lists, strict=True)]
    published = [run.get("published") for run in runs]
    if all(p is not None for p in published):
        cell = mean_records(cast(list[Mapping[str, Any]], published))
        cell["ratio"] = cell["measured_throughput_mbps"] / cell["throughput_mbps"]
        mean["published"] = cell
    else:
        mean["published"] = None
    media = [run.get("media") for run in runs]
    if all(m is not None for m in media):
        mean["media"] = [
            {"name": same[0]["name"]}
            | {
                # A packet radio's radios, an 802.11 medium's stations, an RLP
                # circuit's two ends.
                key: [mean_records(r) for r in zip(*(m[key] for m in same), strict=True)]
                for key in ("radios", "stations", "circuit")
                if key in same[0]
            }
            for same in zip(*cast(list[list[Mapping[str, Any]]], media), strict=True)
        ]
    wap = [run.get("wap") for run in runs]
    if all(w is not None for w in wap):
        # Each wap workload's counts and means; its pages differ run to run.
        mean["wap"] = [
            mean_records([{k: v for k, v in w.items() if k != "pages"} for w in same])
            for same in zip(*cast(list[list[Mapping[str, Any]]], wap), strict=True)
        ]
    return mean


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
