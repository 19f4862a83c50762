"""The checkable statements of Balakrishnan, Padmanabhan, Katz 1999 (seed 001), bandwidth
asymmetry (Secs. 4.2, 7.1), on the cells of :mod:`lasthop.papers.balakrishnan99.experiments`;
with the latency-asymmetry claims (:mod:`~lasthop.papers.balakrishnan99.claims_latency`) and
the testbed's (:mod:`~lasthop.papers.balakrishnan99.claims_testbed`) they are the paper's
:data:`CLAIMS`. Where the reproduction departs from them, and the defaults no source decides,
are :mod:`lasthop.papers.balakrishnan99.deviations`.

The ids are the reference's (``/work/shared/reference/asymmetry-001.md`` Sec. 4, AS-04..AS-21),
with its readings of the seed's garbled sentences. Every comparison is the framework's one
rule (:mod:`lasthop.reproduction.compare`): "better", "worse", "more", "less" are
non-overlapping 95% intervals over the seeds, "about the same" overlapping ones, "best" not
below any rival. The seed lost every digit, so no claim compares with a published value; a
bound that stands for a lost number is the reference's reading of it, marked [R] with the
reference's section in ``checked_as`` (or [D] where arithmetic gives it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from lasthop.papers.balakrishnan99.counts import positive
from lasthop.papers.balakrishnan99.experiments import (
    ACK_CLOCK_BOUND_MBPS,
    REVERSE_MAX_KBPS,
    protocol_name,
)
from lasthop.reproduction.claims import Cells, Claim, Verdict
from lasthop.reproduction.compare import Estimate, Judge

T1: Final = "b99-t1"
T1B: Final = "b99-t1b"
T2: Final = "b99-t2"
T3: Final = "b99-t3"
T4: Final = "b99-t4"
RATES: Final = ("9.6k", "28.8k")
T1_PROTOCOLS: Final = ("reno", "acc", "af", "af+ar")


IDLE_S: Final = 1.0
"""AS-04: the forward transfer's "large idle times [of ...] seconds" (Sec. 4.2, seed l. 179:
the unit survives, the number is lost), read as pauses of at least 1 s [R: AS-04]."""
FULL_QUEUE_DELAY_MS: Final = (35.0, 55.0)
"""AS-08: the delay a full reverse queue of acks adds to Reno's round trip, "[50] ms" in the
seed (digits lost): 10 acks of 6 bytes at 9.6 kb/s is 50 ms [D: reference Sec. 1.2 item 4];
the round trip of AF+SA, which keeps about one ack queued, is the baseline; the range is the
reference's reading [R: AS-08]."""
NEAR_CAPACITY: Final = 0.9
"""The reverse transfer "close to the channel's capacity" / "near the link speed": at least
90% of the channel's most goodput [R: AS-18 "within 10% of the reverse maximum"]."""
REASONABLY_GOOD: Final = 0.7
"""ACC's reverse transfer "reasonably good" [T, with its kb/s lost]: at least 70% of the
channel's most goodput [R: AS-19]."""
ACK_CLOCK_FLOOR: Final = 0.8
"""AS-20: ACC with acks-first reaches at least 80% of its ack-clock bound [R: AS-20, from the
1997 slide's 2.67 Mb/s against the 2.9 Mb/s bound, X]."""
ACK_GAP_MS: Final = 280.0
"""AS-20: the forward sender's acks stop while a 1 KB reverse data packet is on the 28.8 kb/s
wire, "about 280 ms" [D: 278 ms; X: the 1997 slide's "280 ms"]."""
ONE_ACK: Final = 1.0
"""AS-09: AF "ensures [one] ack [per] connection [in the] queue" (seed l. 352; the word is
lost), read as about one packet in the reverse queue [R: AS-09]."""


def _n(protocol: str) -> str:
    return protocol_name(protocol)


def _mbps(c: Cells, table: str, setting: str, protocol: str) -> Estimate:
    return c.est(table, setting, protocol, "throughput_mbps")


def _as04(c: Cells) -> Verdict:
    j = Judge()
    gap = c.est(T4, "fifo", "af", "idle_gap_max_s")
    j.within("AF+SA FIFO longest forward pause (s)", gap, lo=IDLE_S)
    return Verdict.of(j)


def _as05(c: Cells) -> Verdict:
    j = Judge()
    for rate in RATES:
        for p in T1_PROTOCOLS:
            compressed, plain = _mbps(c, T1, f"{rate}-c", p), _mbps(c, T1, rate, p)
            j.greater(f"{rate} {_n(p)} compressed/plain", compressed, plain)
    return Verdict.of(j)


def _as06(c: Cells) -> Verdict:
    j = Judge()
    for rate in RATES:
        reno = _mbps(c, T1, rate, "reno")
        for p in ("acc", "af", "af+ar"):
            j.greater(f"{rate} {_n(p)}/Reno", _mbps(c, T1, rate, p), reno)
        drops = c.est(T1, rate, "reno", "forward_drops")
        positive(j, f"{rate} Reno forward data drops per run", drops)
    return Verdict.of(j)


def _as08(c: Cells) -> Verdict:
    j = Judge()
    s = "9.6k-c"
    reno = _mbps(c, T1, s, "reno")
    for p in ("acc", "af", "af+ar"):
        j.less(f"Reno/{_n(p)}", reno, _mbps(c, T1, s, p))
    gap = c.est(T1, s, "reno", "mean_rtt_ms") - c.est(T1, s, "af", "mean_rtt_ms")
    j.within("RTT Reno - AF+SA (ms)", gap, *FULL_QUEUE_DELAY_MS)
    return Verdict.of(j)


def _as09(c: Cells) -> Verdict:
    j = Judge()
    for s in ("9.6k-c", "28.8k-c"):
        acc = _mbps(c, T1, s, "acc")
        for p in ("af", "af+ar"):
            j.less(f"{s} ACC+SA/{_n(p)}", acc, _mbps(c, T1, s, p))
    queue = c.est(T1, "9.6k-c", "af", "reverse_queue_packets")
    j.about("9.6k-c AF+SA mean reverse queue (pkts)", queue, ONE_ACK)
    return Verdict.of(j)


def _as11(c: Cells) -> Verdict:
    j = Judge()
    for p in ("reno", "acc"):
        large, small = _mbps(c, T1B, "rq-100", p), _mbps(c, T1B, "rq-10", p)
        j.less(f"{_n(p)} rq-100/rq-10", large, small)
    return Verdict.of(j)


T2_FIVE: Final = ("reno", "acc", "af", "af+ar", "af-alone")


def _as12(c: Cells) -> Verdict:
    j = Judge()
    t = {p: _mbps(c, T2, "lossy", p) for p in T2_FIVE}
    for best in ("af", "af+ar"):
        for p in T2_FIVE:
            if p != best:
                j.not_below(f"{_n(best)}/{_n(p)}", t[best], t[p])
    j.greater("ACC+SA/Reno", t["acc"], t["reno"])
    for p in ("af", "af+ar"):
        j.less(f"AF/{_n(p)}", t["af-alone"], t[p])
    return Verdict.of(j)


def _as13(c: Cells) -> Verdict:
    j = Judge()
    rtt = {p: c.est(T2, "lossy", p, "mean_rtt_ms") for p in T2_FIVE}
    mbps = {p: _mbps(c, T2, "lossy", p) for p in T2_FIVE}
    for p in T2_FIVE:
        if p != "af+ar":
            j.not_below(f"RTT AF+AR/{_n(p)}", rtt["af+ar"], rtt[p])
    for p in T2_FIVE:
        if p != "af+ar":
            j.not_below(f"throughput AF+AR/{_n(p)}", mbps["af+ar"], mbps[p])
    return Verdict.of(j)


def _as14(c: Cells) -> Verdict:
    j = Judge()
    reno = c.est(T2, "lossy", "reno", "cwnd_std_segments")
    for p in ("acc", "af", "af+ar"):
        j.less(f"cwnd sd {_n(p)}/Reno", c.est(T2, "lossy", p, "cwnd_std_segments"), reno)
    j.greater(
        "ACC+SA random/tail drop Mb/s",
        _mbps(c, T2, "lossy", "acc-random"),
        _mbps(c, T2, "lossy", "acc"),
    )
    return Verdict.of(j)


CLOSE_TO_ONE: Final = (0.95, 1.0)
"""AS-15: fairness indices "close [to the] maximum value" (seed l. 392), read as at least 0.95
[R: AS-15]."""


def _as15(c: Cells) -> Verdict:
    j = Judge()
    idx = {p: c.est(T3, "two-forward", p, "jain_index") for p in ("reno", "acc", "af")}
    for p in ("acc", "af"):
        j.within(f"{_n(p)} fairness", idx[p], *CLOSE_TO_ONE)
        j.less(f"fairness Reno/{_n(p)}", idx["reno"], idx[p])
    return Verdict.of(j)


def _as16(c: Cells) -> Verdict:
    j = Judge()
    agg = {p: c.est(T3, "two-forward", p, "aggregate_mbps") for p in ("reno", "acc", "af")}
    for p in ("acc", "af"):
        j.not_below(f"aggregate Reno/{_n(p)}", agg["reno"], agg[p])
    return Verdict.of(j)


def _fwd(c: Cells, scheduling: str, p: str) -> Estimate:
    return c.est(T4, scheduling, p, "forward_mbps")


def _rev(c: Cells, scheduling: str, p: str) -> Estimate:
    return c.est(T4, scheduling, p, "reverse_kbps")


def _as18(c: Cells) -> Verdict:
    j = Judge()
    j.within("AF+SA reverse / max", _rev(c, "fifo", "af") / REVERSE_MAX_KBPS, lo=NEAR_CAPACITY)
    j.less("forward AF+SA/ACC+SA", _fwd(c, "fifo", "af"), _fwd(c, "fifo", "acc"))
    return Verdict.of(j)


def _as19(c: Cells) -> Verdict:
    j = Judge()
    j.greater("forward ACC+SA/AF+SA", _fwd(c, "fifo", "acc"), _fwd(c, "fifo", "af"))
    j.within("ACC+SA reverse / max", _rev(c, "fifo", "acc") / REVERSE_MAX_KBPS, lo=REASONABLY_GOOD)
    return Verdict.of(j)


def _as20(c: Cells) -> Verdict:
    j = Judge()
    fwd = _fwd(c, "acks-first", "acc") / ACK_CLOCK_BOUND_MBPS
    j.within("ACC+SA forward / bound", fwd, ACK_CLOCK_FLOOR, 1.0)
    j.within(
        "ACC+SA reverse / max", _rev(c, "acks-first", "acc") / REVERSE_MAX_KBPS, lo=NEAR_CAPACITY
    )
    j.about("long ack gaps, median (ms)", c.est(T4, "acks-first", "acc", "ack_gap_ms"), ACK_GAP_MS)
    return Verdict.of(j)


def _as21(c: Cells) -> Verdict:
    j = Judge()
    af_rev = _rev(c, "acks-first", "af")
    j.within("AF+SA acks-first reverse kb/s", af_rev, hi=0.0)
    j.less("acks-first reverse AF+SA/ACC+SA", af_rev, _rev(c, "acks-first", "acc"))
    j.greater("AF+SA forward acks-first/FIFO", _fwd(c, "acks-first", "af"), _fwd(c, "fifo", "af"))
    return Verdict.of(j)


def _claim(
    id: str,
    section: str,
    statement: str,
    checked_as: str,
    check: Callable[[Cells], Verdict],
    tags: Sequence[str],
) -> Claim:
    return Claim(id, section, statement, checked_as, check, tags=tuple(tags))


BANDWIDTH_CLAIMS: Final[tuple[Claim, ...]] = (
    _claim(
        "AS-04",
        "Sec. 4.2, F3, F9",
        "In two-way transfers the forward connection's acks wait behind reverse data "
        "packets of hundreds of ms each, so the forward transfer idles for long periods.",
        "two-way FIFO, AF+SA, seed 1's trace: the forward sender's longest pause between two "
        f'segments while both transfers run is at least {IDLE_S:g} s ("large idle times [of] '
        'seconds", the number lost [R: AS-04]); the coincidence of its rate jumps with reverse '
        "retransmissions is drawn in F9, not checked",
        _as04,
        [T4],
    ),
    _claim(
        "AS-05",
        "Sec. 7.1, T1",
        "SLIP header compression is a big win in all cases without forward loss.",
        "every protocol (Reno, ACC+SA, AF+SA, AF+AR) at 9.6 and 28.8 kb/s: throughput with "
        "compressed (6-byte) acks greater than with 40-byte acks; every cell is judged (E-S1 "
        "is the set the seed calls free of forward loss)",
        _as05,
        [T1],
    ),
    _claim(
        "AS-06",
        "Sec. 7.1, T1",
        "k exceeds the forward buffer without header compression, so Reno's bursts are "
        "larger than the forward buffers; SA and AR with ACC or AF break them up.",
        "uncompressed 9.6 and 28.8 kb/s (k 41.7, 13.9 > 10): ACC+SA, AF+SA and AF+AR each "
        "greater than Reno, and Reno loses data in the forward direction (its bursts overflow "
        "the forward buffers: forward data drops per run greater than 0)",
        _as06,
        [T1],
    ),
    _claim(
        "AS-08",
        "Sec. 7.1, T1",
        "At 9.6 kb/s with header compression Reno is worse than the other schemes: the "
        "reverse buffer fills with acks, which adds significant delay (50 ms) to the RTT.",
        "9.6k-c: Reno less than ACC+SA, AF+SA and AF+AR; Reno's mean RTT minus AF+SA's within "
        f"{FULL_QUEUE_DELAY_MS[0]:g}-{FULL_QUEUE_DELAY_MS[1]:g} ms (a full queue of 10 "
        "6-byte acks at 9.6 kb/s is 50 ms [D]; the range [R: AS-08])",
        _as08,
        [T1],
    ),
    _claim(
        "AS-09",
        "Sec. 7.1, T1",
        "ACC is somewhat worse than AF at 9.6 and 28.8 kb/s: AF keeps about one ack of "
        "the connection in the reverse queue, which minimises its queueing delay.",
        "compressed 9.6 and 28.8 kb/s: ACC+SA less than AF+SA and less than AF+AR; AF+SA's "
        'mean reverse queue at 9.6k-c about 1 packet (0.5-1.5; "[one] ack" [R: AS-09])',
        _as09,
        [T1],
    ),
    _claim(
        "AS-11",
        "Sec. 7.1, key results",
        "Large reverse buffers severely degrade Reno, and ACC performs poorer: it kicks "
        "in only when the reverse acks are a large fraction of the reverse queue.",
        "9.6k-c: Reno with a 100-packet reverse buffer less than with 10; ACC+SA with 100 "
        "less than with 10",
        _as11,
        [T1B],
    ),
    _claim(
        "AS-12",
        "Sec. 7.1, T2",
        "AF+AR and AF+SA perform best; ACC+SA performs better than Reno; AF alone worse "
        "(SA or AR is needed).",
        "lossy: AF+SA and AF+AR each not below any of the five (Reno, ACC+SA, AF+SA, AF+AR, "
        "AF), each other included; ACC+SA greater than Reno; AF alone less than AF+SA and "
        "less than AF+AR",
        _as12,
        [T2],
    ),
    _claim(
        "AS-13",
        "Sec. 7.1, T2",
        "AF+AR has the largest average RTT, yet the best throughput.",
        "lossy: AF+AR's mean RTT not below any other of the five's; its throughput not below "
        "any other's",
        _as13,
        [T2],
    ),
    _claim(
        "AS-14",
        "Sec. 7.1, F8",
        "The windows of ACC, AF+SA and AF+AR do not fluctuate as much as Reno's; the "
        "random drop policy is superior to dropping the tail ack.",
        "lossy: the time-weighted sd of cwnd of ACC+SA, AF+SA and AF+AR each less than Reno's; "
        "ACC+SA with a random victim at the full reverse buffer greater than with tail drop",
        _as14,
        [T2],
    ),
    _claim(
        "AS-15",
        "Sec. 7.1, T3",
        "ACC and AF give fairness indices close to 1; Reno's is worse.",
        "two forward transfers: Jain's index of ACC+SA and of AF+SA within "
        f'{CLOSE_TO_ONE[0]:g}-1 ("close [to the] maximum value" [R: AS-15]); Reno\'s less '
        "than each",
        _as15,
        [T3],
    ),
    _claim(
        "AS-16",
        "Sec. 7.1, T3",
        "Unmodified Reno yields the best aggregate throughput.",
        "two forward transfers: Reno's aggregate throughput not below ACC+SA's nor AF+SA's",
        _as16,
        [T3],
    ),
    _claim(
        "AS-18",
        "Sec. 7.1, T4",
        "With AF the reverse transfer gets close to the reverse channel's capacity, and "
        "the forward transfer is relatively poor.",
        f"two-way FIFO: AF+SA's reverse throughput at least {NEAR_CAPACITY:g} x "
        f'{REVERSE_MAX_KBPS:.2f} kb/s (the channel\'s goodput [D]; "close to" [R: AS-18]); '
        "AF+SA's forward throughput less than ACC+SA's",
        _as18,
        [T4],
    ),
    _claim(
        "AS-19",
        "Sec. 7.1, T4",
        "ACC gives a better forward throughput than AF, and a reasonably good reverse one.",
        f"two-way FIFO: ACC+SA's forward throughput greater than AF+SA's; ACC+SA's reverse at "
        f'least {REASONABLY_GOOD:g} x {REVERSE_MAX_KBPS:.2f} kb/s ("reasonably good" [R: '
        "AS-19])",
        _as19,
        [T4],
    ),
    _claim(
        "AS-20",
        "Sec. 7.1, T4, F10",
        "ACC with acks-first: the forward connection gets no acks while a reverse data "
        "packet is on the wire (about 280 ms), so it is bounded by a window per 280 ms; "
        "the reverse transfer is close to optimal.",
        f"two-way acks-first: ACC+SA forward within {ACK_CLOCK_FLOOR:g}-1 x "
        f"{ACK_CLOCK_BOUND_MBPS:.2f} Mb/s (100 packets of 960 bytes per 278 ms [D]; the floor "
        f"[R: AS-20]); reverse at least {NEAR_CAPACITY:g} x {REVERSE_MAX_KBPS:.2f} kb/s [R: "
        f"AS-18's reading of \"close to\"]; median of the sender's ack gaps over 100 ms about "
        f"{ACK_GAP_MS:g} ms (275-285, seed 1's trace)",
        _as20,
        [T4],
    ),
    _claim(
        "AS-21",
        "Sec. 7.1, T4",
        "AF with acks-first: acks arrive faster than they drain, an ack is always waiting "
        "and the reverse data starves, while the forward transfer does well.",
        "two-way acks-first: AF+SA's reverse throughput 0 (starved) and less than ACC+SA's; "
        "AF+SA's forward throughput greater than with FIFO",
        _as21,
        [T4],
    ),
)


# The latency-asymmetry claims (Secs. 5, 7.2, 7.3) and the testbed's (Sec. 9.1) live beside
# these; the reproduction evaluates them all as one paper's.
from lasthop.papers.balakrishnan99.claims_latency import LATENCY_CLAIMS  # noqa: E402
from lasthop.papers.balakrishnan99.claims_testbed import TESTBED_CLAIMS  # noqa: E402

CLAIMS: Final[tuple[Claim, ...]] = BANDWIDTH_CLAIMS + TESTBED_CLAIMS + LATENCY_CLAIMS

from lasthop.papers.balakrishnan99.deviations import DEVIATIONS, SENSITIVITIES  # noqa: E402

__all__ = ["CLAIMS", "DEVIATIONS", "SENSITIVITIES"]
