"""Balakrishnan, Padmanabhan, Katz 1999 (seed 001), bandwidth asymmetry: the experiments
E-S1, E-S1b, E-S2, E-S3 and E-S4 of ``/work/shared/reference/asymmetry-001.md`` as the
cells of tables T1-T4, and the latency-asymmetry experiments as F14, T6, T7 and F15 (the
reference's numbering; the seed lost its table numbers and every digit, so there are no
published values to print beside them, only the paper's qualitative claims,
:mod:`lasthop.papers.balakrishnan99.claims`). The testbed's E-T5..E-T7 (figures F19-F21)
are :mod:`lasthop.papers.balakrishnan99.testbed`'s.

Protocols are the paper's (Sec. 7: "SA is implicitly bundled with ACC and AF unless
stated; with AR, SA is excluded"): ``reno``, ``acc`` (ACC + SA), ``af`` (AF + SA),
``af+ar`` (AF + AR, an unmodified sender), ``af-alone`` (AF without SA or AR), and in the
two-way experiment each with ``acks-first`` scheduling at the reverse bottleneck. The
scenarios (``scenarios/balakrishnan99/``) map a protocol to its settings through their
``protocol`` parameter; every parameter the paper lost is a commented default there.

Each cell is the mean over seeds 1..N of the runs' summaries. Besides the throughputs,
cells carry what the claims read: mean RTT, the time-averaged cwnd and its spread, the
reverse channel's utilisation and ack queue, Jain's index, and for the two-way runs the
fraction of runs in which the reverse transfer starved.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any, Final

from lasthop.reproduction.experiment import Experiment

SOURCE: Final = (
    "Balakrishnan, Padmanabhan, Katz, The effects of asymmetry on TCP performance, "
    "ACM MONET 1999 (seed 001); no numbers survive in the seed: the claims are the check"
)

T1_SETTINGS: Final = (
    # (setting, reverse rate in b/s, header compression)
    ("9.6k", 9600, "none"),
    ("9.6k-c", 9600, "ideal"),
    ("28.8k", 28800, "none"),
    ("28.8k-c", 28800, "ideal"),
)
"""E-S1 (Table T1): the reverse channels of Sec. 7.1, "C" = header compression (6-byte
acks). The digits are lost; 9.6 and 28.8 kb/s are the dialup rates of the testbed
(Sec. 3.1) and the reference's reading [R]."""

T1_PROTOCOLS: Final = ("reno", "acc", "af", "af+ar")
T1B_BUFFERS: Final = (10, 50, 100)
"""E-S1b: the reverse buffer of E-S1 (10 packets) against large ones (the size is lost;
the reference suggests 50 and 100)."""
T1B_PROTOCOLS: Final = ("reno", "acc", "af")
REVERSE_QUEUE_PACKETS: Final = 10
"""The reverse buffer of ``balakrishnan99/one-way`` as written (E-S1's)."""
T2_PROTOCOLS: Final = ("reno", "acc", "af", "af+ar", "af-alone", "acc-random")
LOSSY_FORWARD_QUEUE_PACKETS: Final = 10
"""E-S2's forward buffers (scenarios/balakrishnan99/one-way.toml says why)."""
T3_PROTOCOLS: Final = ("reno", "acc", "af")
T4_PROTOCOLS: Final = ("reno", "acc", "af", "af+ar")
T4_SCHEDULING: Final = ("fifo", "acks-first")

REVERSE: Final = "r2->r1"
"""The reverse channel of the wireless-cable template (the cable's b->a direction)."""
FORWARD: Final = "r1->r2"
"""The forward channel (the cable's a->b direction)."""
DATA_PATH: Final = ("server->r1", "r1->r2", "r2->client")
"""The link directions the forward transfer's data crosses."""

REVERSE_MAX_KBPS: Final = 28.8 * 960 / 1000
"""The reverse transfer's most goodput in E-S4: 28.8 kb/s of 1000-byte packets carrying
960 payload bytes each (the reverse data and the forward acks share the channel, so even
this is out of reach)."""

REVERSE_PACKET_S: Final = 1000 * 8 / 28800
"""Time a 1000-byte reverse data packet holds the 28.8 kb/s channel: 278 ms."""

ACK_CLOCK_BOUND_MBPS: Final = 100 * 960 * 8 / REVERSE_PACKET_S / 1e6
"""AS-20's bound for ACC + acks-first (reference Sec. 3, T4: "100 KB / 278 ms = 2.9
Mb/s"): at most one window (100 packets of 960 payload bytes) per 278 ms, the time a
reverse data packet holds the channel while no ack crosses it: 2.76 Mb/s of goodput."""

STARVED_KBPS: Final = 1.0
"""A reverse transfer below this over the overlap counts as starved (AS-17, AS-21)."""

PROTOCOL_NAMES: Final = {
    "reno": "Reno",
    "acc": "ACC+SA",
    "af": "AF+SA",
    "af+ar": "AF+AR",
    "af-alone": "AF",
    "acc-random": "ACC+SA, random drop",
}


def protocol_name(protocol: str) -> str:
    return PROTOCOL_NAMES.get(protocol, protocol)


def experiments() -> list[Experiment]:
    """Every cell of the simulations (bandwidth, then latency asymmetry), in the paper's
    order."""
    out: list[Experiment] = []
    for setting, rate, compression in T1_SETTINGS:
        for protocol in T1_PROTOCOLS:
            out.append(
                Experiment(
                    "b99-t1",
                    setting,
                    protocol,
                    "balakrishnan99/one-way",
                    (
                        f'protocol="{protocol}"',
                        f"reverse_bps={rate}",
                        f'compression="{compression}"',
                    ),
                )
            )
    for buffer in T1B_BUFFERS:
        # The scenario's own buffer is E-S1's: those runs are T1's 9.6k-c, run once.
        own = () if buffer == REVERSE_QUEUE_PACKETS else (f"reverse_queue_packets={buffer}",)
        for protocol in T1B_PROTOCOLS:
            out.append(
                Experiment(
                    "b99-t1b",
                    f"rq-{buffer}",
                    protocol,
                    "balakrishnan99/one-way",
                    (f'protocol="{protocol}"', "reverse_bps=9600", 'compression="ideal"', *own),
                )
            )
    for protocol in T2_PROTOCOLS:
        out.append(
            Experiment(
                "b99-t2",
                "lossy",
                protocol,
                "balakrishnan99/one-way",
                (
                    f'protocol="{protocol}"',
                    "reverse_bps=9600",
                    'compression="ideal"',
                    f"forward_queue_packets={LOSSY_FORWARD_QUEUE_PACKETS}",
                ),
            )
        )
    for protocol in T3_PROTOCOLS:
        out.append(
            Experiment(
                "b99-t3",
                "two-forward",
                protocol,
                "balakrishnan99/two-forward",
                (f'protocol="{protocol}"',),
            )
        )
    for scheduling in T4_SCHEDULING:
        for protocol in T4_PROTOCOLS:
            out.append(
                Experiment(
                    "b99-t4",
                    scheduling,
                    protocol,
                    "balakrishnan99/two-way",
                    (f'protocol="{protocol}"', f'scheduling="{scheduling}"'),
                )
            )
    out += latency_experiments()
    return out


T6_HOPS: Final = (1, 2, 3, 4, 5)
"""E-S5 (Table T6, Fig. F11): wireless hops between the gateway and the mobile host (the
seed's hop counts are lost: "1 hop" and "more hops" [T])."""
T6_PROTOCOLS: Final = ("reno", "acc", "af")
T7_CONNECTIONS: Final = (1, 2, 4, 6, 8)
"""E-S6 (Table T7, Fig. F13): connections sharing one radio hop (the counts are lost [R])."""
T7_PROTOCOLS: Final = ("reno", "af")
F15_HOSTS: Final = (1, 2, 4, 6, 8)
"""E-S7 (Fig. F15): web hosts (the counts are lost [R])."""
F15_PROTOCOLS: Final = ("reno", "acc", "af", "af+sa")
F15_PROTOCOL_NAMES: Final = {"reno": "Reno", "acc": "ACC+SA", "af": "AF", "af+sa": "AF+SA"}
"""F15's legend (Sec. 7.3): AF there is ACK filtering with unmodified senders."""


F14_BUFFERS_KB: Final = (4, 8, 16, 24, 32, 48, 64)
"""E-T4 (Fig. F14): the client's socket buffer, in KB (the swept values are lost [R])."""


def latency_experiments() -> list[Experiment]:
    """The latency-asymmetry cells of Secs. 5.2, 7.2 and 7.3: F14, T6, T7 and F15."""
    out: list[Experiment] = []
    for kb in F14_BUFFERS_KB:
        out.append(
            Experiment(
                "b99-f14",
                f"{kb}-KB",
                "reno",
                "balakrishnan99/cable-radio",
                (f"socket_buffer_bytes={min(kb * 1024, 65535)}",),
            )
        )
    # (table, scenario, the swept parameter, its values, the setting's suffix, protocols)
    grids = (
        ("b99-t6", "balakrishnan99/radio-chain", "hops", T6_HOPS, "hop", T6_PROTOCOLS),
        (
            "b99-t7",
            "balakrishnan99/radio-many",
            "connections",
            T7_CONNECTIONS,
            "conn",
            T7_PROTOCOLS,
        ),
        ("b99-f15", "balakrishnan99/web", "hosts", F15_HOSTS, "hosts", F15_PROTOCOLS),
    )
    for table, scenario, param, values, suffix, protocols in grids:
        for value in values:
            for protocol in protocols:
                sets = (f'protocol="{protocol}"', f"{param}={value}")
                out.append(Experiment(table, f"{value}-{suffix}", protocol, scenario, sets))
    return out


def _radio_frames_per_radio(run: Mapping[str, Any]) -> float:
    """Frames (TCP data and acks) handed to each radio, mean over the medium's radios
    (AS-24: "the number of packets traversing each node drops")."""
    radios = run["media"][0]["radios"]
    return _mean([float(r["frames_enqueued"]) for r in radios])


def web_completion_times(run: Mapping[str, Any]) -> list[float | None]:
    """Per web transaction of ``run`` (host ``h``'s flows ``request#h``, ``reply1#h``..;
    without ``#h`` for one host): from its request's SYN to its last reply's FIN being
    acknowledged, in s; ``None`` for a transaction that did not complete."""
    flows = {f["name"]: f for f in run["flows"]}
    hosts = sorted(
        {n.partition("#")[2] for n in flows if n.startswith("request")},
        key=lambda h: int(h) if h else -1,
    )
    out: list[float | None] = []
    for h in hosts:
        suffix = f"#{h}" if h else ""
        request = flows[f"request{suffix}"].get("connection") or {}
        replies = [
            f for n, f in flows.items() if n.startswith("reply") and n.partition("#")[2] == h
        ]
        ends = [(f.get("connection") or {}).get("last_byte_acked_s") for f in replies]
        start = request.get("syn_sent_s")
        done = [float(e) for e in ends if e is not None]
        if start is None or not done or len(done) < len(ends):
            out.append(None)
        else:
            out.append(max(done) - float(start))
    return out


def _latency_cell(
    experiment: Experiment, runs: Sequence[Mapping[str, Any]], out: dict[str, Any]
) -> None:
    if experiment.table == "b99-f14":
        rates = [run["flows"][0]["throughput_bps"] / 1e3 for run in runs]
        out["throughput_kbps"] = _r(_mean(rates), 3)
        out["throughput_sd_kbps"] = _r(_pstdev(rates), 3)
        out["timeouts"] = _r(_mean([float(run["flows"][0]["timeouts"]) for run in runs]), 2)
    elif experiment.table == "b99-t6":
        first = [run["flows"][0] for run in runs]
        out["throughput_kbps"] = _r(_mean([f["throughput_bps"] / 1e3 for f in first]), 3)
        out["mean_rtt_ms"] = _r(_mean_opt([f.get("mean_rtt_ms") for f in first]), 1)
        out["rtt_std_ms"] = _r(_mean_opt([f.get("rtt_std_ms") for f in first]), 1)
        out["timeouts"] = _r(_mean([float(f["timeouts"]) for f in first]), 2)
        out["frames_per_radio"] = _r(_mean([_radio_frames_per_radio(run) for run in runs]), 1)
        radios = [r for run in runs for r in run["media"][0]["radios"]]
        out["turnaround_s_per_radio"] = _r(_mean([r["turnaround_s"] for r in radios]), 3)
        out["rts_cts_s_per_radio"] = _r(_mean([r["rts_cts_s"] for r in radios]), 3)
        out["backoff_s_per_radio"] = _r(_mean([r["backoff_s"] for r in radios]), 3)
    elif experiment.table == "b99-t7":
        rates = [
            [(f.get("overlap_throughput_bps") or f["throughput_bps"]) / 1e3 for f in run["flows"]]
            for run in runs
        ]
        out["aggregate_kbps"] = _r(_mean([sum(x) for x in rates]), 3)
        out["per_connection_sd_kbps"] = _r(_mean([_pstdev(x) for x in rates]), 3)
        jain = [run.get("jain_index") for run in runs]
        out["jain_index"] = _r(_mean([1.0 if j is None else float(j) for j in jain]), 4)
    elif experiment.table == "b99-f15":
        times = [t for run in runs for t in web_completion_times(run)]
        done = [t for t in times if t is not None]
        out["completion_mean_s"] = _r(_mean(done), 3) if done else None
        out["completion_sd_s"] = _r(_pstdev(done), 3) if done else None
        out["completed_fraction"] = _r(len(done) / len(times), 3) if times else None


def _pstdev(values: Sequence[float]) -> float:
    """Population standard deviation (0 for no values)."""
    return statistics.pstdev(values) if values else 0.0


def cell_head(experiment: Experiment) -> dict[str, Any]:
    """What every cell of the paper starts with: its keys, and no published value."""
    return {
        "table": experiment.table,
        "setting": experiment.setting,
        "scheme": experiment.scheme,
        "published": None,
        "ratio": None,
    }


def cell(experiment: Experiment, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The measured cell of ``experiment`` (one of :func:`experiments`) from its runs'
    summaries."""
    out = cell_head(experiment)
    first = [run["flows"][0] for run in runs]
    if experiment.table in ("b99-t1", "b99-t1b", "b99-t2"):
        reverse = [_link(run, REVERSE) for run in runs]
        out["throughput_mbps"] = _r(_mean([f["throughput_bps"] / 1e6 for f in first]), 4)
        out["k"] = _r(first[0]["k"], 3)
        out["mean_rtt_ms"] = _r(_mean_opt([f.get("mean_rtt_ms") for f in first]), 2)
        out["mean_cwnd_segments"] = _r(_mean([f["mean_cwnd_segments"] for f in first]), 3)
        out["cwnd_std_segments"] = _r(_mean([f["cwnd_std_segments"] for f in first]), 3)
        out["timeouts"] = _r(_mean([float(f["timeouts"]) for f in first]), 2)
        out["fast_retransmits"] = _r(_mean([float(f["fast_retransmits"]) for f in first]), 2)
        out["forward_drops"] = _r(
            _mean([sum(float(_link(run, d)["drops_queue"]) for d in DATA_PATH) for run in runs]),
            2,
        )
        out["reverse_ack_drops"] = _r(_mean([float(r["drops_queue"]) for r in reverse]), 2)
        queues = [r.get("queue") or {} for r in reverse]
        out["reverse_utilisation"] = _r(_mean_opt([q.get("utilisation") for q in queues]), 4)
        out["reverse_queue_packets"] = _r(
            _mean_opt([q.get("mean_queue_packets") for q in queues]), 3
        )
        # Data packets the sender put on the forward channel per ack that crossed the
        # reverse one (AS-07: between 2 and k when the reverse queue drops acks).
        out["data_per_ack"] = _r(
            _mean([_ratio(_link(run, FORWARD)["packets_sent"], _acks_out(run)) for run in runs]),
            3,
        )
    elif experiment.table == "b99-t3":
        overlap = [[f.get("overlap_throughput_bps") or 0.0 for f in run["flows"]] for run in runs]
        out["aggregate_mbps"] = _r(_mean([sum(x) / 1e6 for x in overlap]), 4)
        out["jain_index"] = _r(_mean_opt([run.get("jain_index") for run in runs]), 4)
        out["first_mbps"] = _r(_mean([x[0] / 1e6 for x in overlap]), 4)
        out["second_mbps"] = _r(_mean([x[1] / 1e6 for x in overlap]), 4)
        out["second_timeouts"] = _r(_mean([float(run["flows"][1]["timeouts"]) for run in runs]), 2)
    elif experiment.table == "b99-t4":
        forward = [run["flows"][0].get("overlap_throughput_bps") or 0.0 for run in runs]
        backward = [run["flows"][1].get("overlap_throughput_bps") or 0.0 for run in runs]
        out["forward_mbps"] = _r(_mean([x / 1e6 for x in forward]), 4)
        out["reverse_kbps"] = _r(_mean([x / 1e3 for x in backward]), 3)
        # The reverse transfer's own losses at the 10-packet reverse buffer (AS-18, AS-20).
        out["reverse_retransmits"] = _r(
            _mean([float(run["flows"][1]["retransmits"]) for run in runs]), 2
        )
        out["reverse_timeouts"] = _r(_mean([float(run["flows"][1]["timeouts"]) for run in runs]), 2)
        out["reverse_starved_fraction"] = _r(
            _mean([1.0 if x / 1e3 < STARVED_KBPS else 0.0 for x in backward]), 3
        )
    else:
        _latency_cell(experiment, runs, out)
    return out


def _acks_out(run: Mapping[str, Any]) -> float:
    """Acks that left the reverse bottleneck intact (sent minus those its far end lost)."""
    r = _link(run, REVERSE)
    return float(r["packets_sent"]) - float(r["drops_error"])


def _link(run: Mapping[str, Any], direction: str) -> Mapping[str, Any]:
    for link in run["links"]:
        if link["direction"] == direction:
            return link  # type: ignore[no-any-return]
    raise KeyError(direction)


def _ratio(a: float, b: float) -> float:
    return float(a) / float(b) if b else 0.0


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def _mean_opt(values: Sequence[Any]) -> float | None:
    present = [float(v) for v in values if v is not None]
    return _mean(present) if len(present) == len(values) and present else None


def _r(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


TRACE_SEED: Final = 1
"""The seed of the traced runs that the gap figures (AS-04, AS-20) and F9/F10 read."""

LONG_ACK_GAP_S: Final = 0.1
"""AS-20: an interval between acks at the forward sender longer than this counts as a gap
(a 6-byte ack takes 1.7 ms at 28.8 kb/s; a 1 KB data packet 278 ms)."""


def trace_sets(scheduling: str, protocol: str) -> tuple[str, ...]:
    """The overrides of the two-way cell (``scheduling``, ``protocol``)."""
    return (f'protocol="{protocol}"', f'scheduling="{scheduling}"')


def gaps_s(times_ns: Sequence[int], start_s: float) -> list[float]:
    """Intervals, in s, between successive times after ``start_s``."""
    t = sorted(x / 1e9 for x in times_ns if x / 1e9 >= start_s)
    return [b - a for a, b in zip(t, t[1:], strict=False)]


def _median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    v = sorted(values)
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2


def two_way_gaps(scheduling: str, protocol: str) -> dict[str, float | None]:
    """From the traced two-way run (seed :data:`TRACE_SEED`) of (``scheduling``,
    ``protocol``), over the time both transfers are active: the median of the forward
    sender's long ack gaps (over :data:`LONG_ACK_GAP_S`), in ms, and the longest pause of
    the forward sender between two segments, in s."""
    import lasthop  # the traced run needs the package's run(), not only the engine

    result = lasthop.run(
        "balakrishnan99/two-way", seed=TRACE_SEED, set=list(trace_sets(scheduling, protocol))
    )
    start_s = float(result.flows[1]["start_s"])
    acks = result.acks.to_pydict()
    sent = result.sent.to_pydict()
    ack_times = [t for t, f in zip(acks["time_ns"], acks["flow"], strict=True) if f == 0]
    sent_times = [t for t, f in zip(sent["time_ns"], sent["flow"], strict=True) if f == 0]
    long_gaps = [g for g in gaps_s(ack_times, start_s) if g > LONG_ACK_GAP_S]
    median = _median(long_gaps)
    idle = gaps_s(sent_times, start_s)
    return {
        "ack_gap_ms": None if median is None else round(1e3 * median, 1),
        "idle_gap_max_s": round(max(idle), 3) if idle else None,
    }


def add_trace_figures(cells: list[dict[str, Any]]) -> None:
    """Put the traced runs' gap figures into the two-way cells that the claims read: the
    ack gaps of ACC + acks-first (AS-20) and the forward idle gaps of AF with FIFO
    (AS-04)."""
    for c in cells:
        if c["table"] != "b99-t4":
            continue
        if (c["setting"], c["scheme"]) in (("acks-first", "acc"), ("fifo", "af")):
            c.update(two_way_gaps(str(c["setting"]), str(c["scheme"])))


def rtt_samples(sent: Any, acks: Any, flow: int = 0) -> tuple[list[float], list[float]]:
    """Round-trip samples of ``flow`` from a traced run's ``sent`` and ``acks`` tables
    (seed 001's F12): for each segment sent once (Karn: never a retransmitted one), the
    time from its sending to the first ack that covers it, in s, at the time of that ack."""
    s, a = sent.to_pydict(), acks.to_pydict()
    retransmitted = {
        q for q, f, r in zip(s["seq"], s["flow"], s["retransmit"], strict=True) if f == flow and r
    }
    pending = [
        (q + n, t)
        for t, f, q, n, r in zip(
            s["time_ns"], s["flow"], s["seq"], s["len"], s["retransmit"], strict=True
        )
        if f == flow and not r and q not in retransmitted
    ]
    pending.sort(key=lambda x: x[1])
    times: list[float] = []
    rtts: list[float] = []
    i = 0
    for t, f, ack in zip(a["time_ns"], a["flow"], a["ack"], strict=True):
        if f != flow:
            continue
        while i < len(pending) and pending[i][0] <= ack and pending[i][1] <= t:
            times.append(t / 1e9)
            rtts.append((t - pending[i][1]) / 1e9)
            i += 1
    return times, rtts


T5_ROWS: Final = (
    # (parameter, RadioSpec field or None, unit, source)
    ("link bandwidth", "bandwidth_bps", "kb/s", "[N] Mac/Multihop bandwidth_ 100Kb; [T] 100 kb/s"),
    ("fixed link latency", "hand_up_latency_ms", "ms", "[N] Mac/Multihop delay_ 10ms"),
    ("T_TR (transmit to receive)", "tx_rx_ms", "ms", "[N] Mac/Multihop tx_rx_ 11.125ms"),
    ("T_RT (receive to transmit)", "rx_tx_ms", "ms", "[N] Mac/Multihop rx_tx_ 13.25ms"),
    ("backoff base", "backoff_base_ms", "ms", "[N] Mac/Multihop backoffBase_ 20ms"),
    ("RTS, CTS, link ack", "rts_bytes", "bytes", "[N] MAC_POLLSIZE, MAC_POLLACKSIZE 40"),
    ("MAC header", "mac_header_bytes", "bytes", "[N] Mac/Multihop hlen_ 16"),
    ("radio queue size", "queue_packets", "packets", "[R] the reference's suggested default"),
    ("link acks piggybacked", "piggyback_acks", "", "[T] Sec. 7.2, the simulations assume it"),
    ("data frames polled first", "poll_before_piggyback", "", "[T] Sec. 5 MAC: an RTS before data"),
)
"""Table T5 (Sec. 7.2, the multi-hop simulation's parameters; every digit lost): the
packet radio's defaults, read from the scenario schema (the ``radio`` table's defaults,
so the table cannot drift from what runs), with where each comes from."""

T5_RECEIVER_BUFFER: Final = ("receiver buffer", "19.2", "KB", "[N] Agent/TCP window_ 20 x 960 B")


def t5_rows() -> list[tuple[str, str, str, str]]:
    """T5 as (parameter, value, unit, source): the radio table's defaults in the scenario
    schema, and E-S5's receiver buffer (scenarios/balakrishnan99/radio-chain.toml)."""
    import json

    from lasthop import _core

    schema = json.loads(_core.schema())
    defs = schema.get("definitions") or schema.get("$defs") or {}
    props = defs["RadioSpec"]["properties"]
    out: list[tuple[str, str, str, str]] = []
    for name, field_name, unit, source in T5_ROWS:
        value = props[field_name]["default"]
        if isinstance(value, bool):
            shown = "yes" if value else "no"
        else:
            shown = f"{value / 1e3:g}" if unit == "kb/s" else f"{value:g}"
        out.append((name, shown, unit, source))
    out.append(T5_RECEIVER_BUFFER)
    return out
