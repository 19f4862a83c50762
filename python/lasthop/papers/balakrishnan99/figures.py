"""The figures of Balakrishnan, Padmanabhan, Katz 1999 (seed 001), bandwidth asymmetry, for
the HTML report, drawn as the paper drew them (the reference's numbering):

- F8: the congestion window against time of Reno, ACC+SA, AF+SA and AF+AR in the one-way
  transfer with forward losses (E-S2);
- F9: the forward transfer's sequence trace after the reverse transfer starts, AF+SA with
  FIFO at the reverse bottleneck (E-S4): its idle gaps behind reverse data (AS-04);
- F10: the acks the forward sender receives, ACC+SA with acks-first (E-S4): none while a
  reverse data packet holds the channel (278 ms), then a burst (AS-20).

Each comes from one traced run, seed :data:`lasthop.papers.balakrishnan99.experiments.TRACE_SEED`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import pyarrow as pa

from lasthop import plots
from lasthop.papers.balakrishnan99 import experiments as b99

if TYPE_CHECKING:
    from lasthop.report import ReportFigure

PAPER: Final = "Balakrishnan et al. 1999"
F8_PROTOCOLS: Final = ("reno", "acc", "af", "af+ar")


def _acks_as_sequence(acks: pa.Table, window_s: tuple[float, float]) -> pa.Table:
    """The forward sender's (flow 0's) rows of an ``acks`` trace table within
    ``window_s``, in the shape ``time_sequence`` draws: the cumulative ack counted from
    the first one in the window as the sequence number (its axis starts at 0, and the
    steps would be lost in a transfer's 10 MB), no length, no retransmissions."""
    import pyarrow.compute as pc

    t = acks["time_ns"]
    keep = pc.and_(
        pc.and_(
            pc.greater_equal(t, int(window_s[0] * 1e9)), pc.less_equal(t, int(window_s[1] * 1e9))
        ),
        pc.equal(acks["flow"], 0),
    )
    acks = acks.filter(keep)
    n = acks.num_rows
    return pa.table(
        {
            "time_ns": acks["time_ns"],
            "flow": acks["flow"],
            "seq": pc.subtract(acks["ack"], pc.min(acks["ack"])) if n else acks["ack"],
            "len": pa.array([0] * n, pa.uint32()),
            "retransmit": pa.array([False] * n),
        }
    )


def figures(seed: int = b99.TRACE_SEED) -> tuple[list[ReportFigure], list[tuple[str, str]]]:
    """F8, F9 and F10, and the provenance rows saying what was run."""
    import lasthop
    from lasthop.report import ReportFigure

    lossy_sets: Sequence[str] = (
        "reverse_bps=9600",
        'compression="ideal"',
        f"forward_queue_packets={b99.LOSSY_FORWARD_QUEUE_PACKETS}",
    )
    lossy = {
        b99.protocol_name(p): lasthop.run(
            "balakrishnan99/one-way", seed=seed, set=[f'protocol="{p}"', *lossy_sets]
        )
        for p in F8_PROTOCOLS
    }
    counts = "; ".join(
        f"{name}: {r.flows[0]['throughput_bps'] / 1e6:.2f} Mb/s, "
        f"mean cwnd {r.flows[0]['mean_cwnd_segments']:.1f} (sd "
        f"{r.flows[0]['cwnd_std_segments']:.1f}) segments"
        for name, r in lossy.items()
    )
    f8 = ReportFigure(
        stem="b99-f8-cwnd-lossy",
        figure=plots.cwnd_vs_time(
            {n: r.window for n, r in lossy.items()},
            share_y=True,
            end_s={n: float(r.summary["sim_time_s"]) for n, r in lossy.items()},
            title="Congestion window, one-way transfer with forward losses (E-S2)",
        ),
        caption=(
            f"{PAPER} F8: congestion window of the forward sender against time for Reno, "
            "ACC+SA, AF+SA and AF+AR, 9.6 kb/s header-compressed reverse channel, forward "
            f"buffers of {b99.LOSSY_FORWARD_QUEUE_PACKETS} packets, seed {seed}, ssthresh "
            f"dashed. The paper: ACC, AF+SA and AF+AR do not fluctuate as much as Reno. "
            f"({counts}.)"
        ),
        alt=(
            "Four stacked step plots of congestion window in KB against time in seconds, "
            "for Reno, ACC+SA, AF+SA and AF+AR, with ssthresh dashed."
        ),
    )
    af_fifo = lasthop.run(
        "balakrishnan99/two-way", seed=seed, set=list(b99.trace_sets("fifo", "af"))
    )
    start_s = float(af_fifo.flows[1]["start_s"])
    gaps = b99.two_way_gaps("fifo", "af")
    f9 = ReportFigure(
        stem="b99-f9-sequence-two-way",
        figure=plots.time_sequence(
            {"AF+SA, FIFO: forward transfer": af_fifo.sent},
            {"AF+SA, FIFO: forward transfer": af_fifo.events},
            time_window_s=(start_s, start_s + 20.0),
            title="Forward transfer after the reverse transfer starts (E-S4, AF+SA, FIFO)",
        ),
        caption=(
            f"{PAPER} F9: segments the forward sender sends during the 20 s after the "
            f"reverse transfer starts (at {start_s:.2f} s), AF+SA with FIFO scheduling at "
            f"the 28.8 kb/s reverse bottleneck, seed {seed}. The flat stretches are the idle "
            "times the paper describes: the forward acks wait behind 1 KB reverse data "
            "packets, 278 ms each. Longest pause of the forward sender while both run: "
            f"{gaps['idle_gap_max_s']} s. Forward {af_fifo.flows[0]['throughput_bps'] / 1e6:.2f} "
            f"Mb/s, reverse {af_fifo.flows[1]['throughput_bps'] / 1e3:.1f} kb/s over each "
            "transfer's own time."
        ),
        alt=(
            "Time-sequence plot, sequence number against time in seconds, of the forward "
            "transfer over 20 s, with long flat stretches where it sends nothing."
        ),
    )
    acc_first = lasthop.run(
        "balakrishnan99/two-way", seed=seed, set=list(b99.trace_sets("acks-first", "acc"))
    )
    start_s = float(acc_first.flows[1]["start_s"])
    window_s = (start_s + 5.0, start_s + 7.0)
    gaps = b99.two_way_gaps("acks-first", "acc")
    f10 = ReportFigure(
        stem="b99-f10-acks-two-way",
        figure=plots.time_sequence(
            {
                "ACC+SA, acks-first: acks at the forward sender": _acks_as_sequence(
                    acc_first.acks, window_s
                )
            },
            time_window_s=window_s,
            seq_unit="KB",
            title="Acks reaching the forward sender (E-S4, ACC+SA, acks-first)",
        ),
        caption=(
            f"{PAPER} F10: the cumulative acks the forward sender receives over 2 s (counted "
            "from the first ack of the window), 5 s "
            f"after the reverse transfer starts, ACC+SA with acks-first at the reverse "
            f"bottleneck, seed {seed}. The sender gets no ack while a reverse data packet "
            "holds the channel (278 ms at 28.8 kb/s), then the acks that queued meanwhile "
            "arrive together (each dot is an ack; the legend's words are the sequence "
            "trace's). Median of its ack gaps over "
            f"{1e3 * b99.LONG_ACK_GAP_S:.0f} ms while both run: {gaps['ack_gap_ms']} ms."
        ),
        alt=(
            "Plot of ack number in KB against time over 2 s: bursts of acks separated by "
            "gaps of about 280 ms."
        ),
    )
    provenance = [
        (
            f"traced runs ({PAPER} F8)",
            "balakrishnan99/one-way --set protocol=P "
            + " ".join(f"--set {s}" for s in lossy_sets)
            + f" for P in {', '.join(F8_PROTOCOLS)}; seed {seed}",
        ),
        (
            f"traced runs ({PAPER} F9, F10)",
            "balakrishnan99/two-way with protocol=af scheduling=fifo, and protocol=acc "
            f"scheduling=acks-first; seed {seed}",
        ),
        ("paper", b99.SOURCE),
    ]
    return [f8, f9, f10], provenance


def latency_figures(
    cells: Sequence[Mapping[str, Any]], seed: int = b99.TRACE_SEED
) -> tuple[list[ReportFigure], list[tuple[str, str]]]:
    """F14 (throughput against the socket buffer, E-T4), F11 (throughput against wireless
    hops), F12 (RTT against time, Reno and AF+SA over a 3-hop chain, traced), F13
    (fairness against connections) and F15 (web completion time against hosts), from the
    F14, T6, T7 and F15 cells; none if those cells did not run."""
    import lasthop
    from lasthop.report import ReportFigure

    by = {(str(c["table"]), str(c["setting"]), str(c["scheme"])): c for c in cells}
    if not any(t in ("b99-f14", "b99-t6", "b99-t7", "b99-f15") for t, _, _ in by):
        return [], []

    def points(
        table: str,
        settings: Sequence[int],
        suffix: str,
        scheme: str,
        key: str,
        sd: str | None = None,
    ) -> list[tuple[float, float, float | None]]:
        out: list[tuple[float, float, float | None]] = []
        for x in settings:
            c = by.get((table, f"{x}-{suffix}", scheme))
            if c is None or c.get(key) is None:
                continue
            out.append((float(x), float(c[key]), None if sd is None else c.get(sd)))
        return out

    out: list[ReportFigure] = []
    f14 = plots.series_vs_x(
        {
            "Reno (BSD/OS)": points(
                "b99-f14", b99.F14_BUFFERS_KB, "KB", "reno", "throughput_kbps", "throughput_sd_kbps"
            )
        },
        xlabel="client socket buffer (KB)",
        ylabel="throughput (kb/s)",
        title="1 MB over wireless cable, packet-radio return (E-T4)",
    )
    out.append(
        ReportFigure(
            stem="b99-f14-throughput-socket-buffer",
            figure=f14,
            caption=(
                f"{PAPER} F14: throughput of a 1 MB transfer over the wireless-cable downlink "
                "with one packet-radio hop carrying the acks, against the client's socket "
                "buffer; bars one standard deviation over the seeds. The paper measured large "
                "bars on the real Ricochet network, from its inherent variability; one "
                "isolated simulated hop without other stations has almost none (its only "
                "random draws are backoffs after colliding polls, and only acks cross it)."
            ),
            alt="Line plot of throughput in kb/s against the socket buffer in KB, with error bars.",
        )
    )
    f11 = plots.series_vs_x(
        {
            b99.protocol_name(p): points("b99-t6", b99.T6_HOPS, "hop", p, "throughput_kbps")
            for p in b99.T6_PROTOCOLS
        },
        xlabel="number of wireless hops",
        ylabel="throughput (kb/s)",
        title="Bulk transfer over a chain of packet radios (E-S5)",
    )
    out.append(
        ReportFigure(
            stem="b99-f11-throughput-hops",
            figure=f11,
            caption=(
                f"{PAPER} F11 (and T6): throughput of one 100 s bulk transfer from the fixed "
                "host to the mobile host against the number of packet-radio hops, Reno, "
                "ACC+SA and AF+SA, mean of the seeds. The paper: AF+SA > ACC+SA > Reno at "
                "every hop count (AS-23)."
            ),
            alt="Line plot of throughput in kb/s against 1 to 5 wireless hops, one line per "
            "protocol.",
        )
    )
    chain = {
        b99.protocol_name(p): lasthop.run(
            "balakrishnan99/radio-chain", seed=seed, set=[f'protocol="{p}"', "hops=3"]
        )
        for p in ("reno", "af")
    }
    samples = {name: b99.rtt_samples(r.sent, r.acks) for name, r in chain.items()}
    stats = "; ".join(
        f"{name}: mean {r.flows[0]['mean_rtt_ms'] / 1e3:.2f} s, "
        f"sd {r.flows[0]['rtt_std_ms'] / 1e3:.2f} s"
        for name, r in chain.items()
    )
    out.append(
        ReportFigure(
            stem="b99-f12-rtt-3-hops",
            figure=plots.rtt_vs_time(samples, title="Round-trip times over 3 radio hops (E-S5)"),
            caption=(
                f"{PAPER} F12: round-trip samples (Karn: segments sent once) against time "
                f"for Reno and AF+SA over a 3-hop chain, seed {seed}. The paper: AF reduces "
                f"both the mean and the deviation (AS-24). Timestamp samples: {stats}."
            ),
            alt="Two panels of round-trip time in seconds against time, Reno above AF+SA.",
        )
    )
    f13 = plots.series_vs_x(
        {
            b99.protocol_name(p): points("b99-t7", b99.T7_CONNECTIONS, "conn", p, "jain_index")
            for p in b99.T7_PROTOCOLS
        },
        xlabel="number of connections",
        ylabel="fairness index",
        title="Connections sharing one packet-radio hop (E-S6)",
    )
    out.append(
        ReportFigure(
            stem="b99-f13-fairness-connections",
            figure=f13,
            caption=(
                f"{PAPER} F13 (and T7): Jain's fairness index of n bulk transfers over one "
                "radio hop against n, Reno and AF+SA, mean of the seeds. The paper: Reno "
                "grossly unfair, AF+SA much fairer (AS-29)."
            ),
            alt="Line plot of fairness index against 1 to 8 connections, one line per protocol.",
        )
    )
    f15 = plots.series_vs_x(
        {
            b99.F15_PROTOCOL_NAMES[p]: points(
                "b99-f15", b99.F15_HOSTS, "hosts", p, "completion_mean_s", "completion_sd_s"
            )
            for p in b99.F15_PROTOCOLS
        },
        xlabel="number of hosts",
        ylabel="mean completion time (s)",
        title="Web micro-benchmark, packet-radio return (E-S7)",
    )
    out.append(
        ReportFigure(
            stem="b99-f15-web-completion",
            figure=f15,
            caption=(
                f"{PAPER} F15: mean time from a transaction's request SYN to its last reply's "
                "FIN being acknowledged (a 100-byte request, then 4 concurrent 10 KB replies "
                "over the wireless cable, acks over one packet-radio hop), against the "
                "number of hosts; bars one standard deviation across transactions. The "
                "paper: AF best, its advantage growing with hosts; ACC and SA change little "
                "(AS-31..AS-33)."
            ),
            alt="Line plot of completion time in seconds against 1 to 8 hosts, one line per "
            "scheme.",
        )
    )
    provenance = [
        (
            f"traced runs ({PAPER} F12)",
            "balakrishnan99/radio-chain --set hops=3 --set protocol=P for P in reno, af; "
            f"seed {seed}",
        )
    ]
    return out, provenance
