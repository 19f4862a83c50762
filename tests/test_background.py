"""Background traffic: a Pareto on/off source of datagrams beside a TCP transfer."""

from __future__ import annotations

from pathlib import Path

import lasthop

SCENARIO = """
name = "bg"
stop_s = 20.0
[topology]
template = "two_link_path"
[topology.first]
bandwidth_bps = 10e6
delay_ms = 10.0
[topology.second]
bandwidth_bps = 10e6
delay_ms = 10.0
[[flows]]
name = "bg"
from = "src"
to = "dst"
pareto = { rate_bps = 8e6, shape = 2.0, packet_bytes = 1000 }
[[flows]]
name = "tcp"
from = "src"
to = "dst"
duration_s = 20.0
"""


def test_a_pareto_source_reports_its_datagrams_and_shares_the_path(tmp_path: Path) -> None:
    path = tmp_path / "bg.toml"
    path.write_text(SCENARIO)
    summary = lasthop.run(str(path), seed=2).summary
    bg, tcp = summary["flows"]
    datagrams = bg["datagrams"]
    assert 0 < datagrams["received"] <= datagrams["sent"]
    assert bg["bytes_delivered"] == 1000 * datagrams["received"]
    assert bg["retransmits"] == 0 and "datagrams" not in tcp
    assert tcp["bytes_delivered"] > 0
    # Both crossed the first link: its packets are the datagrams and the segments.
    assert summary["links"][0]["packets_sent"] > datagrams["sent"]
