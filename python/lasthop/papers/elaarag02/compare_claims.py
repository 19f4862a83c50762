"""The claims of the survey's comparison (seed 002 Sec. 6, Table II; elaarag-002.md LL-1,
LL-3, X-2), checked on :mod:`lasthop.papers.elaarag02.compare`'s cells, and the
explanations of those that fail.

Table II marks which problems each mechanism "handles"; a mark is read here as an ordering
against plain Tahoe (Table I's source) on the same channel under the condition the row
names. "Handles long disconnections" is read as the time a mechanism loses beyond the
outage itself: a 120 s transfer loses the 10 s the link is down whatever runs on it, and
what differs is how long the transfer takes to resume. That time is the cell's shortfall
against the same mechanism without errors or outages:
``duration * (1 - pps / pps_clean) - down``.
"""

from __future__ import annotations

from typing import Final

from lasthop.papers.elaarag02 import compare
from lasthop.reproduction.claims import Cells, Check, Claim, Verdict
from lasthop.reproduction.compare import Estimate, Judge
from lasthop.reproduction.deviations import Cause, Deviation

T: Final = compare.TABLE
PPS: Final = "throughput_pps"
DURATION_S: Final = compare.DURATION_S
DOWN_S: Final = {"short-outage": 0.3, "long-outage": 10.0}
"""Its ``short_s`` and ``long_s``."""
ABOUT: Final = 0.10
"""X-2's "about equal" (its ≈), as X-1's: within 10% [R]; neither the survey nor the
reference gives a tolerance."""
LL_FACTOR: Final = 10.0
"""LL-1's "one or two orders of magnitude" (Sec. 6): at least 10x."""

LONG_MARKS: Final = ("i-tcp", "m-tcp")
"""Table II's "long disconnections" marks: I-TCP and M-TCP only."""
SERIAL_MARKS: Final = ("ebsn", "mtcp", "i-tcp", "m-tcp")
"""Table II's "serial timeouts" marks."""
SNOOP: Final = "snoop"
"""Seed 000's snoop (``ll-tcp-aware``), the survey's own description (Sec. 5.1)."""
SNOOP_NS2: Final = "snoop-ns2"
"""ns-2.35's snoop with a NewReno source (seed 004's scheme ``snoop``): the outage claims'
link layer. Seed 000's snoop cannot serve there: on this hop it resends every segment even
without errors (``ll-2-timers``), so a time lost to an outage measured against its own
clean run is not the outage's."""


def _pps(c: Cells, condition: str, mechanism: str) -> Estimate:
    return c.est(T, condition, mechanism, PPS)


def lost_s(c: Cells, condition: str, mechanism: str) -> Estimate:
    """Seconds the transfer lost beyond the outage (module docs): the outage's length as
    the cell ran it (a check may lengthen it), else the scenario's default."""
    x, clean = _pps(c, condition, mechanism), _pps(c, "clean", mechanism)
    down = c.optional(T, condition, mechanism, "down_s")
    return (1.0 - x / clean) * DURATION_S - (DOWN_S[condition] if down is None else down)


def _loss_rate(c: Cells, condition: str, mechanism: str) -> float:
    """The source's retransmissions per packet delivered: the loss rate TCP sees."""
    rexmits = c.value(T, condition, mechanism, "retransmits")
    packets = c.value(T, condition, mechanism, PPS) * DURATION_S
    return rexmits / packets


def _high_ber(c: Cells) -> Verdict:
    j = Judge()
    j.greater(
        "I-TCP / Tahoe, BER 1e-5 (pkts/s)",
        _pps(c, "high-ber", "i-tcp"),
        _pps(c, "high-ber", "tahoe"),
    )
    return Verdict.of(j)


def _above_tahoe(mechanism: str, label: str) -> Check:
    def check(c: Cells) -> Verdict:
        j = Judge()
        tahoe = _pps(c, "high-ber", "tahoe")
        j.greater(f"{label} / Tahoe, BER 1e-5 (pkts/s)", _pps(c, "high-ber", mechanism), tahoe)
        return Verdict.of(j)

    return check


def _x2_mtcp(c: Cells) -> Verdict:
    j = Judge()
    mtcp, tahoe = _pps(c, "high-ber", "m-tcp"), _pps(c, "high-ber", "tahoe")
    j.about_equal("M-TCP / Tahoe, BER 1e-5 (pkts/s)", mtcp, tahoe, rel=ABOUT)
    return Verdict.of(j)


def _long(c: Cells) -> Verdict:
    j = Judge()
    tahoe = lost_s(c, "long-outage", "tahoe")
    j.note("Tahoe: s lost beyond the 10 s outage", tahoe)
    for m in LONG_MARKS:
        j.less(f"{m} / Tahoe, s lost beyond the outage", lost_s(c, "long-outage", m), tahoe)
    return Verdict.of(j)


def _ll_long(c: Cells) -> Verdict:
    j = Judge()
    tahoe = lost_s(c, "long-outage", "tahoe")
    snoop = lost_s(c, "long-outage", SNOOP_NS2)
    j.not_below("snoop (ns-2.35) / Tahoe, s lost beyond the outage", snoop, tahoe)
    return Verdict.of(j)


ARQS: Final = (("rlp", "RLP"), ("airmail", "AIRMAIL"))
"""The link-layer ARQs, each over a circuit (``elaarag02/link-layer``)."""


def _ll_long_arq(c: Cells) -> Verdict:
    j = Judge()
    tahoe = lost_s(c, "long-outage", "tahoe")
    j.note("Tahoe: s lost beyond the 10 s outage", tahoe)
    for m, label in ARQS:
        arq = lost_s(c, "long-outage", m)
        j.not_below(f"{label} / Tahoe, s lost beyond the outage", arq, tahoe)
    return Verdict.of(j)


def _timers(c: Cells) -> Verdict:
    j = Judge()
    snoop, tahoe = _pps(c, "clean", SNOOP), _pps(c, "clean", "tahoe")
    j.less("snoop / Tahoe, no errors (pkts/s)", snoop, tahoe)
    local = c.est(T, "clean", SNOOP, "local_retransmits")
    source = c.est(T, "clean", SNOOP, "retransmits")
    j.above("snoop's local retransmissions, no errors", local, 0.0)
    j.above("the source's retransmissions under snoop, no errors", source, 0.0)
    return Verdict.of(j)


def _serial(c: Cells) -> Verdict:
    j = Judge()
    tahoe = c.est(T, "long-outage", "tahoe", "timeouts")
    for m in SERIAL_MARKS:
        timeouts = c.est(T, "long-outage", m, "timeouts")
        j.less(f"{m} / Tahoe, source timeouts (10 s outage)", timeouts, tahoe)
    return Verdict.of(j)


def _ll_1(mechanisms: tuple[str, ...]) -> Check:
    def check(c: Cells) -> Verdict:
        j = Judge()
        tahoe = _loss_rate(c, "high-ber", "tahoe")
        j.note("Tahoe: loss rate seen by TCP, BER 1e-5", Estimate(tahoe))
        for m in mechanisms:
            rate = _loss_rate(c, "high-ber", m)
            j.note(f"{m}: loss rate seen by TCP, BER 1e-5", Estimate(rate))
            factor = tahoe / rate if rate else float("inf")
            j.holds_if(
                f"Tahoe / {m}, loss rate seen by TCP (at least {LL_FACTOR:g})",
                None if factor == float("inf") else Estimate(factor),
                factor >= LL_FACTOR,
                (LL_FACTOR - factor) / LL_FACTOR,
            )
        return Verdict.of(j)

    return check


CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        "t2-high-ber",
        "Sec. 6, Table II (high BER)",
        "I-TCP handles a high bit-error rate (Table II marks RLP, AIRMAIL, snoop, EBSN, MTCP "
        "and I-TCP; the others are X-2's)",
        "on the Table I path at BER 1e-5, I-TCP delivers more packets/s than plain Tahoe "
        "(intervals apart)",
        _high_ber,
        tags=(T,),
    ),
    Claim(
        "x-2-snoop",
        "Sec. 6, Table II",
        '"link layer protocols perform real well in environments with high bit error rates"',
        "elaarag-002.md X-2 for snoop (seed 000's) on the Table I path at BER 1e-5: above "
        "plain Tahoe (intervals apart)",
        _above_tahoe(SNOOP, "snoop"),
        tags=(T,),
    ),
    Claim(
        "x-2-rlp",
        "Sec. 5.1, Sec. 6, Table II (high BER)",
        "RLP handles a high bit-error rate",
        "elaarag-002.md X-2 for RLP on the Table I path at BER 1e-5 (the hop a circuit of "
        "516-byte frames carried by RLP, elaarag02/link-layer): above plain Tahoe",
        _above_tahoe("rlp", "RLP"),
        tags=(T,),
    ),
    Claim(
        "x-2-airmail",
        "Sec. 5.1, Sec. 6, Table II (high BER, bursty error)",
        "AIRMAIL handles high bit-error rates and bursty errors",
        "elaarag-002.md X-2 for AIRMAIL on the Table I path at BER 1e-5 (the hop an AIRMAIL "
        "circuit, adaptive FEC, elaarag02/link-layer): above plain Tahoe",
        _above_tahoe("airmail", "AIRMAIL"),
        tags=(T,),
    ),
    Claim(
        "t2-high-ber-mtcp",
        "Sec. 5.3, Table II (high BER, bursty error)",
        "MTCP handles high bit-error rates and bursty errors",
        "on the Table I path at BER 1e-5, MTCP (MHP's split with SRP on the wireless side) "
        "above plain Tahoe",
        _above_tahoe("mtcp", "MTCP"),
        tags=(T,),
    ),
    Claim(
        "ll-1-arq",
        "Sec. 6",
        'link-layer protocols "increase the reliability of the wireless link by reducing '
        'the bit error rate by one or two orders of magnitude"',
        "elaarag-002.md LL-1 for RLP and AIRMAIL on the Table I path at BER 1e-5: the "
        "source's retransmissions per packet delivered at least 10x below plain Tahoe's "
        "(none at all counts as infinitely below)",
        _ll_1(("rlp", "airmail")),
        tags=(T,),
    ),
    Claim(
        "x-2-ebsn",
        "Sec. 5.2, Table II (high BER, bursty error)",
        "EBSN handles high bit-error rates and bursty errors",
        "elaarag-002.md X-2 for EBSN on the Table I path at BER 1e-5: above plain Tahoe "
        "(intervals apart); the base station recovers with seed 000's LL agent without a "
        "retry limit and sends an EBSN on each local timeout (elaarag02/ebsn-ll's scheme)",
        _above_tahoe("ebsn", "EBSN"),
        tags=(T,),
    ),
    Claim(
        "x-2-m-tcp",
        "Sec. 5.3, Table II",
        'M-TCP "is best used in environments with low bit error rate"',
        "elaarag-002.md X-2 for M-TCP, with no local recovery below it, on the Table I path "
        "at BER 1e-5: about plain Tahoe (within 10% [R])",
        _x2_mtcp,
        tags=(T,),
    ),
    Claim(
        "ll-1-snoop",
        "Sec. 6",
        'link-layer protocols "increase the reliability of the wireless link by reducing '
        'the bit error rate by one or two orders of magnitude"',
        "elaarag-002.md LL-1 for snoop on the Table I path at BER 1e-5: the source's "
        "retransmissions per packet delivered at least 10x below plain Tahoe's",
        _ll_1((SNOOP,)),
        tags=(T,),
    ),
    Claim(
        "t2-long-disconnections",
        "Sec. 6, Table II (long disconnections)",
        "I-TCP and M-TCP handle long disconnections",
        "one 10 s outage of the mobile host's link in a 120 s transfer: I-TCP and M-TCP "
        "each lose less time beyond the outage than plain Tahoe (module docs)",
        _long,
        tags=(T,),
    ),
    Claim(
        "ll-3-long",
        "Sec. 6",
        '"link layer protocols do not help in the case of long or frequent disconnections"',
        "elaarag-002.md LL-3's long case: with ns-2.35's snoop the transfer loses no less "
        "time beyond a 10 s outage than plain Tahoe (the frequent case is X-1's)",
        _ll_long,
        tags=(T,),
    ),
    Claim(
        "ll-3-long-arq",
        "Sec. 6",
        '"link layer protocols do not help in the case of long or frequent disconnections"',
        "elaarag-002.md LL-3's long case for the ARQs: with RLP and with AIRMAIL (the hop a "
        "circuit, elaarag02/link-layer; the outage cuts its channel and leaves the ARQ's "
        "state) the transfer loses no less time beyond a 10 s outage than plain Tahoe",
        _ll_long_arq,
        tags=(T,),
    ),
    Claim(
        "ll-2-timers",
        "Sec. 6, citing Balakrishnan et al. 1996",
        "simple link-layer protocols can harm TCP through the incompatible setting of the "
        "timers at the two layers",
        "elaarag-002.md LL-2's timer half, on the Table I path without errors: seed 000's "
        "snoop, whose first local timeout (200 ms) is below the hop's 211 ms round trip, "
        "retransmits locally and makes the source retransmit, with nothing lost, and "
        "delivers less than plain Tahoe. How: the spurious timeout resends the oldest "
        "segment; the burst rule, which lasthop also applies after a timer retransmission "
        "[I], then reads each original's new ack as naming the next loss, and every "
        "segment is resent (seed 000 states the rule after duplicate acks only; ns-2 has "
        "none)",
        _timers,
        tags=(T,),
    ),
    Claim(
        "t2-serial-timeouts",
        "Sec. 6, Table II (serial timeouts)",
        "EBSN, MTCP, I-TCP and M-TCP handle serial timeouts",
        "the 10 s outage: the sources of EBSN, MTCP, I-TCP and M-TCP time out less often "
        "than plain Tahoe's (intervals apart)",
        _serial,
        tags=(T,),
    ),
)

DEVIATIONS: Final[tuple[Deviation, ...]] = (
    Deviation(
        ("x-2-ebsn",),
        "EBSN does what it is for and no more on this channel: against seed 000's LL agent "
        "alone (the same retries, no EBSN) it cuts the source's timeouts about in half and "
        "leaves the packet rate where it is (4 seeds: 27.7, 28.6, 16.9, 18.9 pkts/s for LL; "
        "29.0, 28.6, 15.6, 18.6 for EBSN). The bad periods here last 8 packet times (82 ms), "
        "far below the source's timeout, so what limits the rate is the LL agent's recovery "
        "of 8-packet bursts, which EBSN does not change: seed 000's LL forwards every "
        "duplicate and resends a burst's losses one at a time (on the second duplicate or "
        "its timer), where snoop, TCP-aware, suppresses the duplicates its resends answer "
        "and resends the next loss of a burst on the first new ack below its expectation "
        "(Sec. IV-E's burst rule). The check runs EBSN over snoop "
        "(`tcp.base_station_tcp_aware`: 4 seeds, 22.9 pkts/s with LL, 36.8 over snoop, "
        "Tahoe 27.6). The source's fast retransmits on the LL agent's forwarded duplicates "
        "are ruled out.",
        Cause(
            "the base station's recovery of a burst: seed 000's LL, not TCP-aware, against "
            "snoop's duplicate suppression and burst rule (EBSN over snoop)",
            ("flows.0.tcp.base_station_tcp_aware=true",),
            (f"{T}/high-ber/ebsn",),
        ),
        (
            Cause(
                "the source's fast retransmits on the duplicates the LL agent forwards "
                "(a duplicate-ack threshold of 1000)",
                ("flows.0.tcp.dupack_threshold=1000",),
                (f"{T}/high-ber/ebsn",),
            ),
        ),
    ),
    Deviation(
        ("ll-3-long",),
        "Snoop shortens the stall after a 10 s outage: its local timer does not back off "
        "(seed 000, ns-2.35), so within one local timeout of the reconnection a cached "
        "segment reaches the mobile host and its ack restarts the source, whose own timer "
        "has backed off to seconds. Snoop gives up after ten local retransmissions of a "
        "segment (ns-2.35's SNOOP_MAX_RXMIT); an outage longer than those leaves the "
        "source to its backed-off timer as without snoop. The check makes the outage 30 s.",
        Cause(
            "the outage's length against the span of snoop's ten unbacked-off local "
            "retransmissions (30 s, not 10 s)",
            ("long_s=30.0",),
            (f"{T}/long-outage/{SNOOP_NS2}", f"{T}/long-outage/tahoe"),
        ),
    ),
    Deviation(
        ("ll-3-long-arq",),
        "RLP and AIRMAIL keep their window across the outage (the flush loses the "
        "station's IP queue and the frames in the air, not the ARQ's state) and keep "
        "resending at a fixed period while the link is down: RLP's enhanced form resends "
        "its unresolved frames in every idle slot (5.2 ms), AIRMAIL's base station its "
        "oldest frame on its 400 ms poll timer. Neither backs off, so within one period of "
        "the reconnection a held frame reaches the mobile host, the window's packets are "
        "delivered and their acks restart the source, whose own timer has backed off to "
        "seconds (it times out 3 times in the outage, Tahoe 4): snoop's unbacked-off local "
        "timer (ll-3-long) again. Unlike snoop, both are persistent (no retry limit), so a "
        "longer outage does not hand the source back to its timer (ruled out below: with 30 "
        "s they lose about 1 s beyond it, Tahoe 22 s). The resumption follows the ARQ's "
        "timer: AIRMAIL with a 2 or 5 s poll timer, which fires just after the link's return "
        "(20 s plus a multiple of it), loses 0.96 s beyond the outage as with 400 ms; with 7 "
        "s (firing at 34 s) 4.9 s. The check takes the prompt resending away: RLP's basic "
        "form (an idle slot stays idle) and its stall timer, and AIRMAIL's poll timer, at "
        "15 s, longer than the outage.",
        Cause(
            "the ARQs' resending across the outage at a fixed period (RLP's idle-slot "
            "resends and 400 ms stall timer, AIRMAIL's 400 ms poll timer): RLP's basic form "
            "and both timers at 15 s",
            (
                'media.0.rlp.form="basic"',
                "media.0.rlp.stall_ms=15000.0",
                "media.0.airmail.poll_ms=15000.0",
            ),
            (f"{T}/*/rlp", f"{T}/*/airmail"),
        ),
        (
            Cause(
                "the outage's length against a limit on the link layer's retransmissions, "
                "snoop's cause (30 s, not 10 s: RLP and AIRMAIL are persistent here)",
                ("long_s=30.0",),
                (f"{T}/long-outage/*",),
            ),
        ),
    ),
    Deviation(
        ("t2-high-ber",),
        "I-TCP's split does not help on the Table I path: the wireless hop holds 200 of the "
        "path's 220 ms of propagation delay, so the wireless connection's round trip is "
        "nearly the end-to-end one, and its Reno meets the same losses the source would "
        "(the wired leg only waits for it). A split shields the source from wireless losses "
        "by recovering them over a shorter loop; here the loop is not shorter. The check "
        "puts the delay on the wired hop instead (100 ms wired, 10 ms wireless).",
        Cause(
            "the wireless hop's share of the round trip (10 ms wireless and 100 ms wired, "
            "not 100 ms and 10 ms)",
            ("topology.wired.delay_ms=100.0", "topology.wireless.delay_ms=10.0"),
            (f"{T}/high-ber/i-tcp", f"{T}/high-ber/tahoe"),
        ),
    ),
)
