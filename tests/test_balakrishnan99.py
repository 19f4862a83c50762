"""Issues 11 and 28: ``lasthop reproduce balakrishnan99`` (seed 001, asymmetry).

The claims' expected verdicts are pinned in the paper's ``verdicts.toml``
(:mod:`lasthop.reproduction.verdicts`); here: the cells' figures and the mechanisms the
deviations name, a mutation check (ACK filtering off in the bandwidth-asymmetry cells must
flip some claim's verdict, and the same cells without it must give the pinned verdicts),
byte-identical JSON across two runs, and the one-line error for bad seed-001 settings."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from typing import Any

import pytest
from helpers import lasthop_cli
from test_cli_errors import assert_usage_error

import lasthop
from lasthop.papers.balakrishnan99 import experiments as balakrishnan99
from lasthop.papers.balakrishnan99 import testbed
from lasthop.papers.balakrishnan99.counts import positive
from lasthop.reproduction import verdicts
from lasthop.reproduction.compare import Estimate, Judge
from lasthop.reproduction.reproduce import reproduce, run_reproduction

SEEDS = 10


@pytest.fixture(scope="module")
def cells() -> list[dict[str, Any]]:
    return reproduce("balakrishnan99", SEEDS)


def _est(cell: Mapping[str, Any], key: str) -> Estimate:
    """A cell's figure with its 95% interval over the seeds."""
    return Estimate(float(cell[key]), float((cell.get("ci95") or {}).get(key, 0.0)))


BANDWIDTH_TABLES = ("b99-t1", "b99-t1b", "b99-t2", "b99-t3", "b99-t4")
LATENCY_TABLES = ("b99-t6", "b99-t7", "b99-f15")


def _statuses(tables: tuple[str, ...], extra: tuple[str, ...] = ()) -> dict[str, str]:
    """The claims ``tables``' cells decide, ``holds`` or ``fails``, over 10 seeds without
    the deviations' checks (every failure is then open: only holds / fails compare)."""
    found = run_reproduction(
        "balakrishnan99", SEEDS, checks=False, extra_sets=extra, tables=tables
    ).claims
    return {str(c["id"]): str(c["status"]) for c in found}


def _pinned(ids: list[str]) -> dict[str, str]:
    """The golden file's verdicts of ``ids``, as holds / fails / unchecked."""
    claims = verdicts.load("balakrishnan99")["claims"]
    return {i: claims[i].split()[0] for i in ids}


@pytest.mark.parametrize("tables", [BANDWIDTH_TABLES, LATENCY_TABLES], ids=["t1-t4", "t6-f15"])
def test_the_same_cells_give_the_pinned_verdicts(tables: tuple[str, ...]) -> None:
    got = _statuses(tables)
    assert got and got == _pinned(list(got))


@pytest.mark.parametrize(
    ("tables", "flips"),
    [(BANDWIDTH_TABLES, {"AS-15", "AS-19"}), (LATENCY_TABLES, {"AS-25", "AS-33"})],
    ids=["t1-t4", "t6-f15"],
)
def test_ack_filtering_off_flips_claims(tables: tuple[str, ...], flips: set[str]) -> None:
    """Issue 28 item 1: with every queue's ACK filter off (the scenario's ``mutations``),
    the claims about AF must notice. T1-T4: AF+SA's fairness no longer close to 1 (AS-15)
    and its forward transfer no longer below ACC+SA's with FIFO (AS-19); T6-F15: AF+SA's
    gain over Reno no longer varies with hops (AS-25), and AF+SA's completion times become
    those of an unfiltered sender (AS-33 flips to holding)."""
    got = _statuses(tables, ('mutations=["ack_filter_off"]',))
    pinned = _pinned(list(got))
    flipped = {k for k in got if got[k] != pinned[k]}
    assert flipped >= flips, (flipped, got)


def test_a_count_of_zero_falls_short() -> None:
    """The claims' test of a count above zero (:func:`counts.positive`): a count of exactly
    0 fails with a shortfall (so a deviation's variation that makes it positive moves it)."""
    j = Judge()
    assert not positive(j, "none", Estimate(0.0)) and j.shortfall == 1.0
    assert positive(Judge(), "some", Estimate(2.0, 1.5))
    assert not positive(Judge(), "maybe", Estimate(1.0, 1.5))


def test_the_testbed_constants_are_the_scenarios() -> None:
    """The bounds the testbed claims use are the scenarios' segment: 1448 bytes of data."""
    for scenario in (testbed.MAXBURST_SCENARIO, testbed.TWO_WAY_SCENARIO):
        result = lasthop.run(scenario, seed=1, set=['protocol="af"'])
        assert {f["mss_bytes"] for f in result.flows} == {testbed.DATA_BYTES}, scenario


def test_every_table_has_its_cells(cells: list[dict[str, Any]]) -> None:
    tables = {c["table"] for c in cells}
    assert tables == {
        "b99-t1",
        "b99-t1b",
        "b99-t2",
        "b99-t3",
        "b99-t4",
        "b99-f14",
        "b99-t6",
        "b99-t7",
        "b99-f15",
        *testbed.TABLES,
    }
    # AS-01: k as the reference's table gives it (C_fwd 10 Mb/s, 1000-byte data).
    k = {c["setting"]: c["k"] for c in cells if c["table"] == "b99-t1" and c["scheme"] == "reno"}
    assert k == {"9.6k": 41.667, "9.6k-c": 6.25, "28.8k": 13.889, "28.8k-c": 2.083}


def test_two_way_fifo_shows_the_forward_transfers_idle_gaps(cells: list[dict[str, Any]]) -> None:
    """AS-04 (Fig. F9): with FIFO at the reverse bottleneck the forward sender pauses for
    over a second at a time while reverse data holds the channel."""
    cell = next(
        c for c in cells if (c["table"], c["setting"], c["scheme"]) == ("b99-t4", "fifo", "af")
    )
    assert cell["idle_gap_max_s"] >= 1.0, cell


def test_json_is_byte_identical_across_two_runs() -> None:
    args = ("reproduce", "balakrishnan99", "--seeds", "2", "--format", "json")
    first, second = lasthop_cli(*args), lasthop_cli(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert json.loads(first.stdout)["claims"]


@pytest.mark.parametrize(
    ("sets", "field"),
    [
        (['topology.cable.ba.queue.discipline="lifo"'], "topology.cable.ba.queue.discipline"),
        (
            [
                "topology.cable.ba.queue.red.min_packets=6",
                "topology.cable.ba.queue.red.max_packets=2",
            ],
            "topology.cable.ba.queue.red.min_packets",
        ),
        (["flows.0.tcp.sender_adaptation.maxburst=-1"], "flows[0].tcp.sender_adaptation.maxburst"),
        (
            ['flows.0.tcp.acc.mode="testbed"', 'flows.0.tcp.ack.policy="delayed"'],
            "flows[0].tcp.acc",
        ),
        (["topology.cable.ab.ack_reconstruction.delta_a_segments=2"], "topology.cable.ab"),
    ],
    ids=[
        "unknown-discipline",
        "red-out-of-order",
        "negative-maxburst",
        "acc-without-window",
        "ar-no-peer",
    ],
)
def test_bad_seed001_settings_get_one_line_and_exit_2(sets: list[str], field: str) -> None:
    args = ["run", "balakrishnan99/one-way", "--format", "json"]
    for s in sets:
        args += ["--set", s]
    proc: subprocess.CompletedProcess[str] = lasthop_cli(*args)
    assert_usage_error(proc, field)


def _es2_episodes(protocol: str) -> tuple[list[list[int]], list[dict[str, Any]]]:
    """Seed 1 of E-S2 (T2's settings) for ``protocol``: its forward loss episodes (data
    drops less than 50 ms apart, as drop times in ns) and its sender events."""
    import lasthop

    experiment = next(
        e for e in balakrishnan99.experiments() if (e.table, e.scheme) == ("b99-t2", protocol)
    )
    result = lasthop.run(experiment.scenario, seed=1, set=list(experiment.sets))
    drops = sorted(d["time_ns"] for d in result.drops.to_pylist() if d["is_data"])
    episodes: list[list[int]] = []
    for t in drops:
        if episodes and t - episodes[-1][-1] < 50_000_000:
            episodes[-1].append(t)
        else:
            episodes.append([t])
    return episodes, result.events.to_pylist()


def _count(events: list[dict[str, Any]], kind: str) -> int:
    return sum(1 for e in events if e["kind"] == kind)


def test_es2_reno_is_held_below_its_pipe_and_loses_nothing() -> None:
    """The deviation of AS-06, AS-12, AS-14: with asym.tcl's 100-packet window and compressed
    acks at 9.6 kb/s, Reno's full ack queue keeps it below the forward pipe: no forward
    loss."""
    episodes, events = _es2_episodes("reno")
    assert episodes == [] and _count(events, "timeout") == 0


def test_es2_af_with_sa_loses_single_segments_and_recovers_without_timeouts() -> None:
    episodes, events = _es2_episodes("af")
    later = episodes[1:]  # the first is the end of the initial slow start
    assert later and all(len(e) == 1 for e in later), [len(e) for e in episodes]
    assert _count(events, "timeout") <= 1 and _count(events, "fast_retransmit") >= len(later)


def test_es2_acc_timeouts_follow_episodes_of_several_consecutive_drops() -> None:
    """ACC + SA: an episode of 2-3 drops (one maxburst reaching a full queue) ends in a
    timeout after Reno's fast recovery repairs the first; single drops do not."""
    episodes, events = _es2_episodes("acc")
    multi = [e for e in episodes if len(e) >= 2]
    assert multi and all(len(e) <= 3 for e in episodes[1:]), [len(e) for e in episodes]
    timeouts = [e["time_ns"] for e in events if e["kind"] == "timeout"]
    for episode in multi:
        assert any(0 < t - episode[0] < 1_000_000_000 for t in timeouts), episode


@pytest.mark.parametrize("protocol", ["af+ar", "af-alone"])
def test_es2_unpaced_senders_burst_at_the_end_of_recovery_then_time_out(protocol: str) -> None:
    """AF+AR and AF alone: the ack ending a fast recovery opens tens of segments at once
    (the reverse buffer dropped most duplicates), and a timeout follows each such burst."""
    episodes, events = _es2_episodes(protocol)
    exits = [e["time_ns"] for e in events if e["kind"] == "recovery_exit"]
    timeouts = [e["time_ns"] for e in events if e["kind"] == "timeout"]
    bursts = [
        e for e in episodes if len(e) >= 20 and any(0 <= e[0] - x < 20_000_000 for x in exits)
    ]
    assert len(bursts) >= 2, [len(e) for e in episodes]
    stop_ns = 49_000_000_000  # a burst in the run's last second has no time to time out
    for burst in (b for b in bursts if b[0] < stop_ns):
        assert any(0 < t - burst[0] < 1_000_000_000 for t in timeouts), burst


def test_one_radio_hop_alternates_and_leaves_af_nothing_to_filter() -> None:
    """The deviation of AS-23, AS-28, AS-29 (balakrishnan99.claims_latency): over one radio
    hop the two radios alternate, every frame polled for (AS-44) and carrying the link ack of
    the frame before it, and the mobile host's radio never holds two acks, so ACK filtering
    purges nothing."""
    for scenario, sets in (
        ("balakrishnan99/radio-chain", ['protocol="af"']),
        ("balakrishnan99/radio-many", ['protocol="af"', "connections=8"]),
    ):
        result = lasthop.run(scenario, seed=1, set=sets)
        radios = result.summary["media"][0]["radios"]
        assert sum(r["drops_filtered"] for r in radios) == 0, scenario
        mh = next(r for r in radios if r["node"] == "mh")
        assert mh["rts_sent"] >= mh["frames_enqueued"], "every frame is polled for"
        assert mh["link_acks_piggybacked"] >= 0.99 * mh["frames_enqueued"]


def test_af_filters_acks_at_the_relays_of_a_longer_chain() -> None:
    """Beyond one hop acks do wait behind data at the relays, and AF purges them (the
    saving of frames per radio AS-24 reads at 3 hops)."""
    runs = {
        p: lasthop.run("balakrishnan99/radio-chain", seed=1, set=[f'protocol="{p}"', "hops=3"])
        for p in ("reno", "af")
    }
    radios = {p: r.summary["media"][0]["radios"] for p, r in runs.items()}
    assert sum(r["drops_filtered"] for r in radios["af"]) > 0
    assert sum(r["drops_filtered"] for r in radios["reno"]) == 0


def test_web_handshakes_lost_at_the_radio_cost_the_initial_rto() -> None:
    """The deviation of AS-31 and AS-32: with 8 hosts, SYNs or SYN-ACKs are lost at the
    client radio's 10-packet queue (here Reno's), each costing the initial RTO."""
    result = lasthop.run("balakrishnan99/web", seed=1, set=['protocol="reno"', "hosts=8"])
    retries = sum((f.get("connection") or {}).get("syn_retransmits", 0) for f in result.flows)
    assert retries >= 10
    assert result.summary["media"][0]["radios"][0]["drops_queue"] > 0


# The testbed half (issue 12, Secs. 8-9.1: E-T5..E-T7, F19-F21).


def _testbed(cells: list[dict[str, Any]], table: str, setting: str, scheme: str) -> dict[str, Any]:
    return next(
        c for c in cells if (c["table"], c["setting"], c["scheme"]) == (table, setting, scheme)
    )


def test_f19_linear_region_is_one_burst_per_kernel_tick(cells: list[dict[str, Any]]) -> None:
    """F19 (AS-34's first part): for small maxburst the throughput rises with it and stays
    within one burst per 10 ms tick, the kernel clock limiting SA."""
    for p in testbed.F19_PROTOCOLS:
        t = [
            _est(_testbed(cells, testbed.F19, f"maxburst-{m}", p), "throughput_mbps")
            for m in (1, 2, 3)
        ]
        j = Judge()
        for m, x in zip((1, 2, 3), t, strict=True):
            j.within(f"maxburst {m}", x, hi=m * testbed.SLOPE_MBPS)
        j.greater("2/1", t[1], t[0])
        j.greater("3/2", t[2], t[1])
        assert j.holds, (p, j.tests)


def test_f19_no_burst_limit_overflows_the_forward_card(cells: list[dict[str, Any]]) -> None:
    """F19's drop (the mechanism behind AS-34's deviation): without a burst limit every run
    overflows the forward card's buffer and ends below the best maxburst."""
    for p in testbed.F19_PROTOCOLS:
        inf = _testbed(cells, testbed.F19, "maxburst-inf", p)
        best = max(
            (_testbed(cells, testbed.F19, f"maxburst-{m}", p) for m in (3, 4, 5)),
            key=lambda c: float(c["throughput_mbps"]),
        )
        assert inf["runs_with_loss"] == 1.0, inf
        assert Judge().less("inf/best", _est(inf, "throughput_mbps"), _est(best, "throughput_mbps"))


def test_f20_fewer_acks_relieve_the_reverse_channel(cells: list[dict[str, Any]]) -> None:
    """F20 (AS-35's first part): from max_delack 1 to 6 ACC's throughput rises as its round
    trip loses the reverse queue of acks; Reno stays below ACC at max_delack 16."""
    j = Judge()
    for m in testbed.F20_MAXBURSTS:
        one = _testbed(cells, testbed.F20, "delack-1", testbed.f20_scheme(m))
        six = _testbed(cells, testbed.F20, "delack-6", testbed.f20_scheme(m))
        j.greater(
            f"{m}: throughput 6/1", _est(six, "throughput_mbps"), _est(one, "throughput_mbps")
        )
        j.less(f"{m}: RTT 6/1", _est(six, "mean_rtt_ms"), _est(one, "mean_rtt_ms"))
    reno = _testbed(cells, testbed.F20, "reference", "reno")
    best = _testbed(cells, testbed.F20, "delack-16", testbed.f20_scheme(4))
    j.less("Reno/ACC", _est(reno, "throughput_mbps"), _est(best, "throughput_mbps"))
    assert j.holds, j.tests


@pytest.mark.parametrize("protocol", ["reno", "acc", "af"])
def test_f21_acks_first_raises_forward_throughput(
    protocol: str, cells: list[dict[str, Any]]
) -> None:
    """F21 (AS-37): acks-first lifts every scheme's forward transfer; with AF (and here
    Reno) the reverse transfer starves."""
    fifo = _testbed(cells, testbed.F21, "fifo", protocol)
    first = _testbed(cells, testbed.F21, "acks-first", protocol)
    assert Judge().greater(
        "acks-first/FIFO", _est(first, "forward_mbps"), _est(fifo, "forward_mbps")
    )
    if protocol in ("reno", "af"):
        assert first["reverse_starved_fraction"] == 1.0, first


@pytest.mark.parametrize(
    ("sets", "field"),
    [
        (["tick_ms=0"], "links[0].ba.emulation.tick_ms"),
        (["tick_ms=-10"], "links[0].ba.emulation.tick_ms"),
        (['links.0.duplex="half"'], "links[0].ba.emulation"),
        (
            ['protocol="acc"', "flows.0.tcp.sender_adaptation.timer_tick_ms=0"],
            "flows[0].tcp.sender_adaptation.timer_tick_ms",
        ),
    ],
    ids=["zero-tick", "negative-tick", "half-duplex-emulator", "zero-burst-timer-tick"],
)
def test_bad_testbed_settings_get_one_line_and_exit_2(sets: list[str], field: str) -> None:
    args = ["run", testbed.MAXBURST_SCENARIO, "--format", "json"]
    for s in sets:
        args += ["--set", s]
    proc: subprocess.CompletedProcess[str] = lasthop_cli(*args)
    assert_usage_error(proc, field)


@pytest.mark.parametrize(
    ("scenario", "sets", "field"),
    [
        ("balakrishnan99/radio-chain", ["hops=0"], "topology.hops"),
        (
            "balakrishnan99/radio-chain",
            ["topology.radio.rx_tx_ms=-13.25"],
            "topology.radio.rx_tx_ms",
        ),
        (
            "balakrishnan99/web",
            ['media.0.stations=["r2", "client"]'],
            "topology.cable.ba.medium",
        ),
        ("balakrishnan99/web", ['media.0.hops=[["r2", "server"]]'], "media[0].hops[0]"),
        ("balakrishnan99/web", ["hosts=0"], "flows[0].copies"),
    ],
    ids=[
        "zero-hop-chain",
        "negative-turnaround",
        "direction-on-a-node-without-radio",
        "hop-to-a-node-without-radio",
        "web-zero-hosts",
    ],
)
def test_bad_radio_settings_get_one_line_and_exit_2(
    scenario: str, sets: list[str], field: str
) -> None:
    args = ["run", scenario, "--format", "json"]
    for s in sets:
        args += ["--set", s]
    proc: subprocess.CompletedProcess[str] = lasthop_cli(*args)
    assert_usage_error(proc, field)


def test_a_radio_run_prints_where_each_radios_time_went() -> None:
    proc = lasthop_cli("run", "balakrishnan99/radio-chain", "--set", "hops=2")
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.split())
    assert "radios of" in out and "turn-" in out and "backoff" in out, proc.stdout
    rows = [line for line in proc.stdout.splitlines() if line.startswith("│ pt1 ")]
    assert rows, proc.stdout


def test_a_radio_hop_can_be_captured(tmp_path: Any) -> None:
    """A medium's hop is a link like any other for --pcap (its name has no colon)."""
    out = tmp_path / "hop.pcap"
    proc = lasthop_cli(
        "run",
        "balakrishnan99/radio-chain",
        "--set",
        "hops=2",
        "--pcap",
        "radio/gw-pt1:gw",
        "--pcap-file",
        str(out),
        "--format",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    frames, offset = 0, 24
    while offset + 16 <= len(data):
        frames += 1
        offset += 16 + int.from_bytes(data[offset + 8 : offset + 12], "little")
    summary = json.loads(proc.stdout)
    hop = next(link for link in summary["links"] if link["direction"] == "gw->pt1")
    assert frames == hop["packets_sent"] > 0
