"""The checkable statements of Balakrishnan, Padmanabhan, Katz 1999 (seed 001), bandwidth
asymmetry (Sec. 7.1), on the cells of :mod:`lasthop.papers.balakrishnan99.experiments`, and the
explanations of where the reproduction departs from them.

The ids are the reference's (``/work/shared/reference/asymmetry-001.md`` Sec. 4,
AS-05..AS-21), with its readings of the seed's garbled sentences; the bounds are its
suggested tolerances. "Better" is a higher mean over the seeds. The seed lost every
number, so no claim compares with a published value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lasthop.papers.balakrishnan99.claims_testbed import TESTBED_CLAIMS, TESTBED_DEVIATIONS
from lasthop.papers.balakrishnan99.experiments import (
    ACK_CLOCK_BOUND_MBPS,
    REVERSE_MAX_KBPS,
    protocol_name,
)
from lasthop.reproduction.claims import Cells, Claim, Verdict
from lasthop.reproduction.deviations import Deviation, Sensitivity

T1: Final = "b99-t1"
T1B: Final = "b99-t1b"
T2: Final = "b99-t2"
T3: Final = "b99-t3"
T4: Final = "b99-t4"
RATES: Final = ("9.6k", "28.8k")


def _n(protocol: str) -> str:
    return protocol_name(protocol)


def _as05(c: Cells) -> Verdict:
    """The paper's words are "in all cases without forward loss" (reference ambiguity 2):
    a pair whose compressed cell lost data in the forward direction is listed, not
    judged."""
    figures: dict[str, float | None] = {}
    ok = True
    for rate in RATES:
        for p in ("reno", "acc", "af", "af+ar"):
            plain, compressed = c.mbps(T1, rate, p), c.mbps(T1, f"{rate}-c", p)
            lossy = c.value(T1, f"{rate}-c", p, "forward_drops") > 0
            name = f"{rate} {_n(p)} C/plain" + (" (forward loss: not judged)" if lossy else "")
            figures[name] = compressed / plain if plain else None
            ok = ok and (lossy or compressed >= 0.98 * plain)
    return Verdict(ok, figures)


def _as06(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {}
    ok = True
    for rate in RATES:
        reno = c.mbps(T1, rate, "reno")
        for p in ("acc", "af", "af+ar"):
            x = c.mbps(T1, rate, p) / reno if reno else None
            figures[f"{rate} {_n(p)}/Reno"] = x
            ok = ok and x is not None and x >= 1.5
    return Verdict(ok, figures)


def _as08(c: Cells) -> Verdict:
    s = "9.6k-c"
    reno = c.mbps(T1, s, "reno")
    others = {p: c.mbps(T1, s, p) for p in ("acc", "af", "af+ar")}
    gap = c.value(T1, s, "reno", "mean_rtt_ms") - c.value(T1, s, "af", "mean_rtt_ms")
    figures: dict[str, float | None] = {f"{_n(p)} Mb/s": v for p, v in others.items()}
    figures["Reno Mb/s"] = reno
    figures["RTT Reno - AF+SA (ms)"] = gap
    return Verdict(all(reno < v for v in others.values()) and 35 <= gap <= 55, figures)


def _as09(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {}
    ok = True
    for rate in ("9.6k-c", "28.8k-c"):
        acc = c.mbps(T1, rate, "acc")
        for p in ("af", "af+ar"):
            x = acc / c.mbps(T1, rate, p)
            figures[f"{rate} ACC+SA/{_n(p)}"] = x
            ok = ok and x <= 1.0
    queue = c.optional(T1, "9.6k-c", "af", "reverse_queue_packets")
    figures["9.6k-c AF+SA mean reverse queue (pkts)"] = queue
    return Verdict(ok and queue is not None and queue <= 2.0, figures)


def _as11(c: Cells) -> Verdict:
    reno_small, reno_large = c.mbps(T1B, "rq-10", "reno"), c.mbps(T1B, "rq-100", "reno")
    acc_small, acc_large = c.mbps(T1B, "rq-10", "acc"), c.mbps(T1B, "rq-100", "acc")
    figures: dict[str, float | None] = {
        "Reno rq-100/rq-10": reno_large / reno_small,
        "ACC+SA rq-100/rq-10": acc_large / acc_small,
    }
    return Verdict(reno_large <= 0.8 * reno_small and acc_large < acc_small, figures)


def _as12(c: Cells) -> Verdict:
    t = {p: c.mbps(T2, "lossy", p) for p in ("reno", "acc", "af", "af+ar", "af-alone")}
    best = max(t["af"], t["af+ar"])
    figures: dict[str, float | None] = {f"{_n(p)} Mb/s": v for p, v in t.items()}
    ok = (
        min(t["af"], t["af+ar"]) >= 0.9 * best
        and t["acc"] < min(t["af"], t["af+ar"])
        and t["reno"] < t["acc"]
        and t["af-alone"] < min(t["af"], t["af+ar"])
    )
    return Verdict(ok, figures)


def _as13(c: Cells) -> Verdict:
    five = ("reno", "acc", "af", "af+ar", "af-alone")
    rtt = {p: c.value(T2, "lossy", p, "mean_rtt_ms") for p in five}
    mbps = {p: c.mbps(T2, "lossy", p) for p in five}
    figures: dict[str, float | None] = {f"{_n(p)} RTT ms": v for p, v in rtt.items()}
    figures["AF+AR / best Mb/s"] = mbps["af+ar"] / max(mbps.values())
    ok = rtt["af+ar"] >= max(rtt.values()) and mbps["af+ar"] >= 0.98 * max(mbps.values())
    return Verdict(ok, figures)


def _as14(c: Cells) -> Verdict:
    std = {p: c.value(T2, "lossy", p, "cwnd_std_segments") for p in ("reno", "acc", "af", "af+ar")}
    figures: dict[str, float | None] = {f"{_n(p)} cwnd sd (pkts)": v for p, v in std.items()}
    tail, random = c.mbps(T2, "lossy", "acc"), c.mbps(T2, "lossy", "acc-random")
    figures["ACC random/tail drop Mb/s"] = random / tail
    ok = all(std[p] < std["reno"] for p in ("acc", "af", "af+ar")) and random >= tail
    return Verdict(ok, figures)


def _as15(c: Cells) -> Verdict:
    j = {p: c.value(T3, "two-forward", p, "jain_index") for p in ("reno", "acc", "af")}
    figures: dict[str, float | None] = {f"{_n(p)} fairness": v for p, v in j.items()}
    ok = j["acc"] >= 0.95 and j["af"] >= 0.95 and j["reno"] <= min(j["acc"], j["af"]) - 0.1
    return Verdict(ok, figures)


def _as16(c: Cells) -> Verdict:
    agg = {p: c.value(T3, "two-forward", p, "aggregate_mbps") for p in ("reno", "acc", "af")}
    figures: dict[str, float | None] = {f"{_n(p)} aggregate Mb/s": v for p, v in agg.items()}
    return Verdict(agg["reno"] >= 0.98 * max(agg["acc"], agg["af"]), figures)


def _as04(c: Cells) -> Verdict:
    gap = c.optional(T4, "fifo", "af", "idle_gap_max_s")
    return Verdict(gap is not None and gap >= 1.0, {"AF+SA FIFO longest forward pause (s)": gap})


def _fwd(c: Cells, scheduling: str, p: str) -> float:
    return c.value(T4, scheduling, p, "forward_mbps")


def _rev(c: Cells, scheduling: str, p: str) -> float:
    return c.value(T4, scheduling, p, "reverse_kbps")


def _as18(c: Cells) -> Verdict:
    rev, fwd, acc = _rev(c, "fifo", "af"), _fwd(c, "fifo", "af"), _fwd(c, "fifo", "acc")
    figures: dict[str, float | None] = {
        "AF+SA reverse / max": rev / REVERSE_MAX_KBPS,
        "AF+SA forward Mb/s": fwd,
        "ACC+SA forward Mb/s": acc,
    }
    return Verdict(rev >= 0.9 * REVERSE_MAX_KBPS and fwd < acc, figures)


def _as19(c: Cells) -> Verdict:
    rev = _rev(c, "fifo", "acc")
    figures: dict[str, float | None] = {
        "ACC+SA forward Mb/s": _fwd(c, "fifo", "acc"),
        "AF+SA forward Mb/s": _fwd(c, "fifo", "af"),
        "ACC+SA reverse / max": rev / REVERSE_MAX_KBPS,
    }
    ok = _fwd(c, "fifo", "acc") > _fwd(c, "fifo", "af") and rev >= 0.7 * REVERSE_MAX_KBPS
    return Verdict(ok, figures)


def _as20(c: Cells) -> Verdict:
    fwd, rev = _fwd(c, "acks-first", "acc"), _rev(c, "acks-first", "acc")
    gap = c.optional(T4, "acks-first", "acc", "ack_gap_ms")
    figures: dict[str, float | None] = {
        "forward / bound": fwd / ACK_CLOCK_BOUND_MBPS,
        "reverse / max": rev / REVERSE_MAX_KBPS,
        "long ack gaps, median (ms)": gap,
    }
    ok = (
        0.8 * ACK_CLOCK_BOUND_MBPS <= fwd <= 1.02 * ACK_CLOCK_BOUND_MBPS
        and rev >= 0.9 * REVERSE_MAX_KBPS
        and gap is not None
        and 240 <= gap <= 320
    )
    return Verdict(ok, figures)


def _as21(c: Cells) -> Verdict:
    rev, acc_rev = _rev(c, "acks-first", "af"), _rev(c, "acks-first", "acc")
    fwd, fwd_fifo = _fwd(c, "acks-first", "af"), _fwd(c, "fifo", "af")
    figures: dict[str, float | None] = {
        "AF+SA acks-first reverse kb/s": rev,
        "ACC+SA acks-first reverse kb/s": acc_rev,
        "AF+SA forward, acks-first / FIFO": fwd / fwd_fifo if fwd_fifo else None,
    }
    return Verdict(rev <= 0.2 * acc_rev and fwd >= fwd_fifo, figures)


def _claim(
    id: str, section: str, statement: str, checked_as: str, check: object, tags: Sequence[str]
) -> Claim:
    return Claim(id, section, statement, checked_as, check, tags=tuple(tags))  # type: ignore[arg-type]


CLAIMS: Final[tuple[Claim, ...]] = (
    _claim(
        "AS-04",
        "Sec. 4.2, F3, F9",
        "In two-way transfers the forward connection's acks wait behind reverse data "
        "packets of hundreds of ms each, so the forward transfer idles for long periods.",
        "two-way FIFO, AF+SA, seed 1's trace: the forward sender's longest pause between "
        "two segments while both transfers run >= 1 s (the coincidence of its rate jumps "
        "with reverse retransmissions is drawn in F9, not checked)",
        _as04,
        [T4],
    ),
    _claim(
        "AS-05",
        "Sec. 7.1, T1",
        "SLIP header compression is a big win in all cases without forward loss.",
        "for each protocol at 9.6 and 28.8 kb/s whose compressed cell lost no data in the "
        "forward direction: compressed >= 0.98 x uncompressed",
        _as05,
        [T1],
    ),
    _claim(
        "AS-06",
        "Sec. 7.1, T1",
        "k exceeds the forward buffer without header compression, so Reno's bursts are "
        "larger than the forward buffers; SA and AR with ACC or AF break them up.",
        "uncompressed 9.6 and 28.8 kb/s (k 41.7, 13.9 > 10): ACC+SA, AF+SA, AF+AR each "
        ">= 1.5 x Reno",
        _as06,
        [T1],
    ),
    _claim(
        "AS-08",
        "Sec. 7.1, T1",
        "At 9.6 kb/s with header compression Reno is worse than the other schemes: the "
        "reverse buffer fills with acks, which adds significant delay (50 ms) to the RTT.",
        "9.6k-c: Reno below ACC+SA, AF+SA and AF+AR; mean RTT of Reno minus AF+SA in "
        "35-55 ms (10 x 6-byte acks at 9.6 kb/s = 50 ms)",
        _as08,
        [T1],
    ),
    _claim(
        "AS-09",
        "Sec. 7.1, T1",
        "ACC is somewhat worse than AF at 9.6 and 28.8 kb/s: AF keeps about one ack of "
        "the connection in the reverse queue, which minimises its queueing delay.",
        "compressed 9.6 and 28.8 kb/s: ACC+SA <= AF+SA and <= AF+AR; AF+SA's mean "
        "reverse queue <= 2 packets at 9.6k-c",
        _as09,
        [T1],
    ),
    _claim(
        "AS-11",
        "Sec. 7.1, key results",
        "Large reverse buffers severely degrade Reno, and ACC performs poorer: it kicks "
        "in only when the reverse acks are a large fraction of the reverse queue.",
        "9.6k-c: Reno with a 100-packet reverse buffer <= 0.8 x with 10; ACC+SA with 100 "
        "below ACC+SA with 10",
        _as11,
        [T1B],
    ),
    _claim(
        "AS-12",
        "Sec. 7.1, T2",
        "AF+AR and AF+SA perform best; ACC+SA performs better than Reno; AF alone worse "
        "(SA or AR is needed).",
        "lossy: AF+SA and AF+AR within 10% of each other, ACC+SA below both, Reno below "
        "ACC+SA, AF alone below AF+SA and AF+AR",
        _as12,
        [T2],
    ),
    _claim(
        "AS-13",
        "Sec. 7.1, T2",
        "AF+AR has the largest average RTT, yet the best throughput.",
        "lossy: AF+AR's mean RTT is the largest of the five; its throughput >= 0.98 x the best",
        _as13,
        [T2],
    ),
    _claim(
        "AS-14",
        "Sec. 7.1, F8",
        "The windows of ACC, AF+SA and AF+AR do not fluctuate as much as Reno's; the "
        "random drop policy is superior to dropping the tail ack.",
        "lossy: time-weighted sd of cwnd of ACC+SA, AF+SA, AF+AR below Reno's; ACC+SA "
        "with random victim >= with tail drop",
        _as14,
        [T2],
    ),
    _claim(
        "AS-15",
        "Sec. 7.1, T3",
        "ACC and AF give fairness indices close to 1; Reno's is worse.",
        "two forward transfers: Jain's index of ACC+SA and AF+SA >= 0.95, Reno's at "
        "least 0.1 below both",
        _as15,
        [T3],
    ),
    _claim(
        "AS-16",
        "Sec. 7.1, T3",
        "Unmodified Reno yields the best aggregate throughput.",
        "two forward transfers: Reno's aggregate >= 0.98 x the better of ACC+SA and AF+SA",
        _as16,
        [T3],
    ),
    _claim(
        "AS-18",
        "Sec. 7.1, T4",
        "With AF the reverse transfer gets close to the reverse channel's capacity, and "
        "the forward transfer is relatively poor.",
        f"two-way FIFO: AF+SA reverse >= 0.9 x {REVERSE_MAX_KBPS:.1f} kb/s; AF+SA forward "
        "below ACC+SA's",
        _as18,
        [T4],
    ),
    _claim(
        "AS-19",
        "Sec. 7.1, T4",
        "ACC gives a better forward throughput than AF, and a reasonably good reverse one.",
        f"two-way FIFO: ACC+SA forward > AF+SA forward; ACC+SA reverse >= 0.7 x "
        f"{REVERSE_MAX_KBPS:.1f} kb/s",
        _as19,
        [T4],
    ),
    _claim(
        "AS-20",
        "Sec. 7.1, T4, F10",
        "ACC with acks-first: the forward connection gets no acks while a reverse data "
        "packet is on the wire (about 280 ms), so it is bounded by a window per 280 ms; "
        "the reverse transfer is close to optimal.",
        f"two-way acks-first: ACC+SA forward within 0.8-1.02 x {ACK_CLOCK_BOUND_MBPS:.2f} "
        f"Mb/s; reverse >= 0.9 x {REVERSE_MAX_KBPS:.1f} kb/s; median of the sender's ack "
        "gaps over 100 ms in 240-320 ms (seed 1's trace)",
        _as20,
        [T4],
    ),
    _claim(
        "AS-21",
        "Sec. 7.1, T4",
        "AF with acks-first: acks arrive faster than they drain, an ack is always waiting "
        "and the reverse data starves, while the forward transfer does well.",
        "two-way acks-first: AF+SA reverse <= 0.2 x ACC+SA's; AF+SA forward >= its FIFO value",
        _as21,
        [T4],
    ),
    # The testbed half (Sec. 9.1, F19-F21): AS-34..AS-38.
    *TESTBED_CLAIMS,
)

_FORWARD_LOSS: Final = (
    "The 100-packet window [N: asym.tcl window 100] is larger than the forward pipe (about "
    "80 packets: 10 Mb/s over a 64 ms round trip) plus the forward buffer once ACC, AF or "
    "AR remove the reverse queueing delay, so these senders overflow their own interface "
    "queue in congestion avoidance; how each loss episode ends decides the table (seed 1 of"
    " E-S2, checked by tests/test_balakrishnan99.py). AF+SA loses one segment at a time and"
    " repairs it by fast retransmit (15 fast retransmits, 1 timeout, after the first slow "
    "start). ACC+SA loses 2 or 3 consecutive segments, one maxburst of SA's pacing arriving"
    " at a full queue; Reno's fast recovery repairs the first, ends on the partial ack, and"
    " the others wait for a timeout (4 such episodes, 4 timeouts). AF+AR and AF alone lose "
    "one segment, and then 36-38 at the end of its recovery: the reverse buffer tail-drops "
    "most of the duplicate acks (AF purges only older acks, never duplicates, as the seed "
    "and ns-2's semantic queue both specify), so window inflation sent little, and the "
    "cumulative ack that ends recovery opens about 40 segments at once. AR forwards that "
    "first new ack after duplicates unchanged (ns-2's ack-recons.cc rule; the paper's "
    "spacing would spread a 100-segment jump over one inter-ack interval, about 5 ms, still"
    " 8 segments per ms into a 1.25-per-ms link), and the unmodified sender sends them back"
    " to back; a timeout follows. Reno with compressed acks never fills the forward pipe: "
    "its full queue of 10 acks adds 40-50 ms to the round trip, which holds it to a window "
    "per 115 ms (6.7 Mb/s), so it loses nothing, while the paper's Reno fluctuates (F8). "
    "The paper's maximum window and queue sizes for E-S2 are lost; with a window below the "
    "pipe of AF's round trip (e.g. 64 packets and 5-packet buffers) the paper's order AF+SA"
    " > AF+AR > AF > ACC+SA > Reno appears, but nothing in the seed or ns-2 gives those "
    "values, so the table keeps asym.tcl's."
)

DEVIATIONS: Final[dict[str, str]] = {
    "AS-09": "Only AF+AR at 28.8 kb/s compressed is below ACC+SA: its forward buffer (20 "
    "packets) still overflows when AF removes the reverse queueing delay, and each loss ends "
    "in a burst of 29 drops after recovery and a timeout, as in E-S2: " + _FORWARD_LOSS,
    "AS-12": "E-S2's forward buffers (10 packets) make the forward losses the experiment is "
    "about. " + _FORWARD_LOSS,
    "AS-13": "AF+AR's round trip is not the largest: AR holds each real ack about one "
    "inter-ack interval (5-30 ms here), less than the 40-50 ms a full ack queue adds to "
    "Reno's. Its throughput is below the best because of its post-recovery bursts: "
    + _FORWARD_LOSS,
    "AS-14": "Reno's window stays near the 100-packet cap because Reno loses nothing "
    "(see AS-12), so its spread is the smallest; the others' windows are cut by forward "
    "losses. " + _FORWARD_LOSS,
    "AS-18": "AF+SA's reverse transfer reaches 83% of the channel's payload rate, not 90%. "
    "It loses packets at its own 10-packet reverse buffer: its 100-packet window is far "
    "beyond a pipe of about one packet (28.8 kb/s over a 0.35 s round trip), so each "
    "congestion-avoidance cycle ends in an overflow, and a timeout's go-back-N resends "
    "packets the client already holds; its retransmissions (reverse_retransmits in the T4 "
    "cells, about 21 per run) take about 14% of the channel over the overlap (21 x 278 ms "
    "of about 42 s). The forward transfer's 6-byte acks take about 1% more.",
    **TESTBED_DEVIATIONS,
}
"""Explanations by claim id: measured facts and the mechanism seen, where analysed."""


# The latency-asymmetry claims (Secs. 7.2, 7.3) live beside these; the reproduction
# evaluates both as one paper's.
from lasthop.papers.balakrishnan99 import claims_latency as _latency  # noqa: E402

CLAIMS = CLAIMS + _latency.CLAIMS  # type: ignore[misc]
DEVIATIONS = DEVIATIONS | _latency.DEVIATIONS  # type: ignore[misc]


# Transitional (issue 28): every explanation as an entry without a measured cause.
_TEXTS: Final = DEVIATIONS
DEVIATIONS: Final = tuple(Deviation((k,), v) for k, v in _TEXTS.items())  # type: ignore[misc]
SENSITIVITIES: Final[tuple[Sensitivity, ...]] = ()
