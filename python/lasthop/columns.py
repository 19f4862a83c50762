"""The columns of a stored run that are not swept parameters (``lasthop.load_results``
puts a plan's grid paths as columns beside these). Kept apart from the store so that the
command line can tell parameters from metrics without importing DuckDB."""

from __future__ import annotations

from typing import Any, Final

RUN_COLUMNS: Final = frozenset(
    {
        "scenario_hash", "seed", "version", "plan", "scenario", "sets", "status", "error",
        "flow", "throughput_mbps", "bytes_delivered", "transfer_time_s", "retransmits",
        "timeouts", "spurious_timeouts", "fast_retransmits", "eln_retransmits",
        "local_retransmits", "completed", "sim_time_s", "events", "series_batch",
        "aggregate", "flows", "flow_index", "flow_group", "flow_copy", "jain_index",
        "throughput_sum_mbps", "throughput_mean_mbps", "all_completed",
    }
)  # fmt: skip
"""Key, status and metric columns of the store's ``runs`` table as loaded."""


def param_columns(frame: Any) -> list[str]:
    """The swept parameters among ``frame``'s columns, in the order the store gives them:
    neither a run column nor a ``goodput:<link>:<direction>`` column."""
    return [c for c in frame.columns if c not in RUN_COLUMNS and not str(c).startswith("goodput:")]
