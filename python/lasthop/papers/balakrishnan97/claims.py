"""The checkable statements of Balakrishnan et al. 1997 (seed 000) and the explanations of
where the reproduction departs from them.

:data:`CLAIMS` holds every statement of Sec. IV (and the conclusions, Sec. VI) that the
cells of ``lasthop reproduce balakrishnan97`` can decide, in the paper's order, each with
how it is read (``checked_as``). Words like "about" get explicit bounds: "about N times"
is 0.8 N..1.25 N (the cells' own band), "about N%" a band of 5 to 10 points around N; a
range is widened where the paper's own cells fall outside it, and the claim says so.
Every claim holds on the paper's own cells (``tests/test_claims.py``).

:data:`DEVIATIONS` explains every failed claim and every cell outside 0.8-1.25 of the
published value: keys are claim ids or cell keys ``table/setting/scheme``, which may be
shell patterns (``table3/*/e2e-eln*``); the first match wins. These texts are the place
to edit when the model changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from lasthop.papers.balakrishnan97.experiments import FIG12_SCHEMES
from lasthop.reproduction.claims import Cells, Claim, Verdict
from lasthop.reproduction.deviations import Deviation, Sensitivity

LAN: Final = ("lan-8k", "lan-32k")
SETTINGS: Final = ("lan-8k", "lan-32k", "wan-32k")
BURSTS: Final = ("burst-2", "burst-4", "burst-6")
AWARE: Final = ("ll-tcp-aware", "ll-smart-tcp-aware")
TABLE2: Final = ("ll", "ll-tcp-aware", "ll-smart", "ll-smart-tcp-aware")
TABLE3: Final = ("e2e", "e2e-newreno", "e2e-smart", "e2e-ietf-sack", "e2e-eln", "e2e-eln-rxmt")
TABLE4: Final = ("split", "split-smart")


def _n(scheme: str) -> str:
    return scheme.upper()


def _all(figures: dict[str, float | None], test: Callable[[float], bool]) -> Verdict:
    """Holds when every figure passes ``test``."""
    return Verdict(all(v is not None and test(v) for v in figures.values()), figures)


def _ratios(
    c: Cells, table: str, settings: Sequence[str], top: str, bottom: str, bottom_table: str = ""
) -> dict[str, float | None]:
    """``top / bottom`` throughput per setting."""
    return {
        f"{s} {_n(top)}/{_n(bottom)}": c.mbps(table, s, top)
        / c.mbps(bottom_table or table, s, bottom)
        for s in settings
    }


def _shortfalls(
    c: Cells, settings: Sequence[str], scheme: str, table: str, best: str, best_table: str
) -> dict[str, float | None]:
    """How much worse ``scheme`` is than ``best``: 1 - scheme / best, per setting."""
    return {
        f"{s} 1-{_n(scheme)}/{_n(best)}": 1 - c.mbps(table, s, scheme) / c.mbps(best_table, s, best)
        for s in settings
    }


def _best(
    c: Cells, settings: Sequence[str], scheme: str, table: str, rivals: Sequence[tuple[str, str]]
) -> Verdict:
    """``scheme`` at least as fast as each (table, rival) present, in every setting;
    figures: its margin over the fastest rival, in Mb/s."""
    figures: dict[str, float | None] = {}
    for s in settings:
        own = c.mbps(table, s, scheme)
        others = [c.mbps(t, s, r) for t, r in rivals if c.has(t, s, r) and r != scheme]
        figures[f"{s} {_n(scheme)} - best other (Mb/s)"] = own - max(others)
    return _all(figures, lambda v: v >= 0)


def _between(lo: float, hi: float) -> Callable[[float], bool]:
    return lambda v: lo <= v <= hi


# --- Table II, Sec. IV-B ---------------------------------------------------------------


def _ii_aware_beats_plain(c: Cells) -> Verdict:
    figures = _ratios(c, "table2", SETTINGS, "ll-tcp-aware", "ll")
    figures |= _ratios(c, "table2", SETTINGS, "ll-smart-tcp-aware", "ll-smart")
    return _all(figures, lambda v: v > 1)


def _ii_smart_helps(c: Cells) -> Verdict:
    figures = _ratios(c, "table2", SETTINGS, "ll-smart", "ll")
    figures |= _ratios(c, "table2", SETTINGS, "ll-smart-tcp-aware", "ll-tcp-aware")
    return _all(figures, lambda v: v > 1)


def _ii_lan_gain(c: Cells) -> Verdict:
    return _all(_shortfalls(c, LAN, "ll", "table2", "ll-tcp-aware", "table2"), _between(0.05, 0.15))


def _ii_wan_gain(c: Cells) -> Verdict:
    figures = _shortfalls(c, ("wan-32k",), "ll", "table2", "ll-tcp-aware", "table2")
    return _all(figures, _between(0.20, 0.40))


def _ii_wan_gain_larger(c: Cells) -> Verdict:
    figures = _shortfalls(c, SETTINGS, "ll", "table2", "ll-tcp-aware", "table2")
    wan = figures.pop("wan-32k 1-LL/LL-TCP-AWARE")
    assert wan is not None
    holds = all(v is not None and wan > v for v in figures.values())
    return Verdict(holds, {**figures, "wan-32k 1-LL/LL-TCP-AWARE": wan})


def _ii_ll_wireless_goodput(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {
        f"{s} LL-TCP-AWARE - LL wireless goodput (points)": c.value(
            "table2", s, "ll-tcp-aware", "wireless_goodput_pct"
        )
        - c.value("table2", s, "ll", "wireless_goodput_pct")
        for s in LAN
    }
    return _all(figures, lambda v: v >= 1.0)


def _ii_aware_wired_goodput(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {
        f"{s} {_n(k)} wired goodput %": c.value("table2", s, k, "wired_goodput_pct")
        for s in SETTINGS
        for k in AWARE
    }
    return _all(figures, lambda v: v >= 99.95)


def _ii_smart_aware_best_ll(c: Cells) -> Verdict:
    return _best(c, SETTINGS, "ll-smart-tcp-aware", "table2", [("table2", k) for k in TABLE2])


def _ii_no_timeouts(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {
        f"{s} {_n(k)} source timeouts per run": c.value("table2", s, k, "timeouts")
        for s in SETTINGS
        for k in ("ll", "ll-tcp-aware")
    }
    return _all(figures, lambda v: v < 1.0)


def _vi_best_of_all(c: Cells) -> Verdict:
    for s in SETTINGS:  # "of the schemes we investigated": needs Tables III and IV too
        c.cell("table3", s, "e2e")
        c.cell("table4", s, "split-smart")
    rivals = [("table2", k) for k in TABLE2] + [("table3", k) for k in TABLE3]
    rivals += [("table4", k) for k in TABLE4]
    return _best(c, SETTINGS, "ll-smart-tcp-aware", "table2", rivals)


# --- Table III, Sec. IV-C ---------------------------------------------------------------


def _peak_fraction(c: Cells, setting: str) -> float:
    return c.mbps("table3", setting, "e2e") / c.mbps("peak", setting, "e2e")


def _iii_e2e_below_peak(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {f"{s} E2E/peak": _peak_fraction(c, s) for s in SETTINGS}
    holds = all((v or 0) < (0.25 if k.startswith("wan") else 0.5) for k, v in figures.items())
    return Verdict(holds, figures)


def _iii_goodputs(c: Cells) -> Verdict:
    worst: float | None = None
    for s in SETTINGS:
        for k in TABLE3:
            if not c.has("table3", s, k):
                continue
            for which in ("wireless_goodput_pct", "wired_goodput_pct"):
                off = abs(c.value("table3", s, k, which) - 97.7)
                worst = off if worst is None else max(worst, off)
    if worst is None:
        c.cell("table3", "lan-8k", "e2e")  # nothing ran: leave the claim out
    return _all({"largest distance from 97.7% (points)": worst}, lambda v: v <= 2.0)


def _iii_newreno_lan(c: Cells) -> Verdict:
    return _all(_ratios(c, "table3", LAN, "e2e-newreno", "e2e"), _between(1.10, 1.30))


def _iii_newreno_wan(c: Cells) -> Verdict:
    return _all(_ratios(c, "table3", ("wan-32k",), "e2e-newreno", "e2e"), _between(1.6, 2.5))


def _iii_newreno_buffer(c: Cells) -> Verdict:
    figures = _ratios(c, "table3", LAN, "e2e-newreno", "e2e")
    small, large = figures["lan-8k E2E-NEWRENO/E2E"], figures["lan-32k E2E-NEWRENO/E2E"]
    return Verdict(small is not None and large is not None and large > small, figures)


def _iii_eln_above_newreno(c: Cells) -> Verdict:
    figures = _ratios(c, "table3", SETTINGS, "e2e-eln", "e2e-newreno")
    figures |= _ratios(c, "table3", SETTINGS, "e2e-eln-rxmt", "e2e-newreno")
    return _all(figures, lambda v: v >= 1)


def _iii_eln_twice_e2e(c: Cells) -> Verdict:
    figures = _ratios(c, "table3", ("wan-32k",), "e2e-eln", "e2e")
    figures |= _ratios(c, "table3", ("wan-32k",), "e2e-eln-rxmt", "e2e")
    return _all(figures, lambda v: v > 2)


def _iii_rxmt_slight_32k(c: Cells) -> Verdict:
    figures = _ratios(c, "table3", ("lan-32k", "wan-32k"), "e2e-eln-rxmt", "e2e-eln")
    return _all(figures, _between(1.0, 1.15))


def _iii_rxmt_small_buffer(c: Cells) -> Verdict:
    figures = _ratios(c, "table3", LAN, "e2e-eln-rxmt", "e2e-eln")
    small, large = figures["lan-8k E2E-ELN-RXMT/E2E-ELN"], figures["lan-32k E2E-ELN-RXMT/E2E-ELN"]
    return Verdict(small is not None and large is not None and small > large, figures)


def _iii_smart_best_lan(c: Cells) -> Verdict:
    return _best(c, LAN, "e2e-smart", "table3", [("table3", k) for k in TABLE3])


def _iii_sack_wan(c: Cells) -> Verdict:
    return _all(_ratios(c, "table3", ("wan-32k",), "e2e-ietf-sack", "e2e"), lambda v: v >= 2)


def _iii_sack_wan_vs_ll(c: Cells) -> Verdict:
    figures = _shortfalls(
        c, ("wan-32k",), "e2e-ietf-sack", "table3", "ll-smart-tcp-aware", "table2"
    )
    return _all(figures, _between(0.25, 0.45))


def _iii_smart_lan_vs_ll(c: Cells) -> Verdict:
    figures = _shortfalls(c, LAN, "e2e-smart", "table3", "ll-smart-tcp-aware", "table2")
    return _all(figures, _between(0.05, 0.20))


# --- Table IV, Sec. IV-D ----------------------------------------------------------------


def _iv_split_like_e2e(c: Cells) -> Verdict:
    figures = _ratios(c, "table4", LAN, "split", "e2e", bottom_table="table3")
    return _all(figures, _between(0.8, 1.25))


def _iv_split_wired_clean(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {}
    for s in SETTINGS:
        for k in TABLE4:
            figures[f"{s} {_n(k)} wired goodput %"] = c.value("table4", s, k, "wired_goodput_pct")
            for what in ("retransmits", "timeouts"):
                value = c.optional("table4", s, k, what)
                if value is not None:  # the published cells have none
                    figures[f"{s} {_n(k)} source {what} per run"] = value
    holds = all(
        v is not None and (v >= 99.95 if "goodput" in k else v == 0) for k, v in figures.items()
    )
    return Verdict(holds, figures)


def _iv_split_wan_above_e2e(c: Cells) -> Verdict:
    figures = _ratios(c, "table4", ("wan-32k",), "split", "e2e", bottom_table="table3")
    return _all(figures, lambda v: v > 1)


def _iv_split_smart_much_higher(c: Cells) -> Verdict:
    return _all(_ratios(c, "table4", SETTINGS, "split-smart", "split"), lambda v: v >= 1.5)


def _iv_split_smart_below_ll(c: Cells) -> Verdict:
    figures = _ratios(c, "table4", SETTINGS, "split-smart", "ll-smart-tcp-aware", "table2")
    return _all(figures, lambda v: v < 1)


# --- Table V, Sec. IV-E -----------------------------------------------------------------


def _v_gains(c: Cells) -> dict[str, float | None]:
    return {
        f"{b} {_n('ll-smart-tcp-aware')}/{_n('ll-tcp-aware')}": c.mbps(
            "table5", b, "ll-smart-tcp-aware"
        )
        / c.mbps("table5", b, "ll-tcp-aware")
        for b in BURSTS
    }


def _v_smart_beats_aware(c: Cells) -> Verdict:
    return _all(_v_gains(c), lambda v: v > 1)


def _v_up_to_30pct(c: Cells) -> Verdict:
    figures = _v_gains(c)
    largest = max(v for v in figures.values() if v is not None)
    return Verdict(1.2 <= largest <= 1.4, {**figures, "largest gain": largest - 1})


# --- Fig. 12, Sec. IV-F -----------------------------------------------------------------


def _f12_low_rates(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {}
    for rate in ("every-128k", "every-256k"):
        values = [c.mbps("fig12", rate, k) for k in FIG12]
        figures[f"{rate} fastest/slowest"] = max(values) / min(values)
    return _all(figures, lambda v: v <= 1.2)


def _f12_ratio(c: Cells, bottom: str, lo: float, hi: float) -> Verdict:
    figures: dict[str, float | None] = {
        f"every-16k {_n(k)}/{_n(bottom)}": c.mbps("fig12", "every-16k", k)
        / c.mbps("fig12", "every-16k", bottom)
        for k in AWARE
    }
    return _all(figures, _between(lo, hi))


def _f12_smart_beats_ietf(c: Cells) -> Verdict:
    figures: dict[str, float | None] = {
        f"{r} E2E-SMART/E2E-IETF-SACK": c.mbps("fig12", r, "e2e-smart")
        / c.mbps("fig12", r, "e2e-ietf-sack")
        for r in ("every-16k", "every-32k")
    }
    return _all(figures, lambda v: v > 1)


FIG12: Final = FIG12_SCHEMES

CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        id="ii-aware-beats-plain",
        section="Sec. IV-B",
        statement=(
            '"An enhanced link-layer scheme that uses knowledge of TCP semantics to prevent '
            "duplicate acknowledgments caused by wireless losses from reaching the sender "
            'and locally retransmits packets achieves significantly better performance."'
        ),
        checked_as=(
            "LL-TCP-AWARE > LL and LL-SMART-TCP-AWARE > LL-SMART in every Table II setting"
        ),
        check=_ii_aware_beats_plain,
        tags=("table2",),
    ),
    Claim(
        id="ii-lan-gain-10pct",
        section="Sec. IV-B",
        statement=(
            '"In the LAN experiments, the throughput difference between LL and '
            'LL-TCP-AWARE is about 10%."'
        ),
        checked_as="1 - LL/LL-TCP-AWARE between 5% and 15% in both LAN settings",
        check=_ii_lan_gain,
        tags=("table2",),
    ),
    Claim(
        id="ii-wan-gain-30pct",
        section="Sec. IV-B",
        statement='"... in the wide-area experiments—the throughput difference is about 30%"',
        checked_as="1 - LL/LL-TCP-AWARE between 20% and 40% on the WAN",
        check=_ii_wan_gain,
        tags=("table2",),
    ),
    Claim(
        id="ii-wan-gain-larger",
        section="Sec. IV-B",
        statement=(
            '"The effects of this interaction are much more pronounced in the wide-area '
            'experiments"'
        ),
        checked_as="1 - LL/LL-TCP-AWARE larger on the WAN than in either LAN setting",
        check=_ii_wan_gain_larger,
        tags=("table2",),
    ),
    Claim(
        id="ii-ll-wireless-goodput",
        section="Sec. IV-B",
        statement=(
            "\"the LL wireless goodput is only 95.5%, significantly less than LL-TCP-AWARE's "
            'wireless goodput of 97.6%"'
        ),
        checked_as="LL's wireless goodput at least 1 point below LL-TCP-AWARE's, both LAN settings",
        check=_ii_ll_wireless_goodput,
        tags=("table2",),
    ),
    Claim(
        id="ii-aware-wired-goodput-100",
        section="Sec. IV-B, Table II",
        statement=(
            '"an optimal link-layer protocol that recovers from errors locally and does not '
            'compete with TCP retransmissions should have ... a wired goodput of 100%"; '
            "Table II gives 100% for both TCP-aware link layers"
        ),
        checked_as="LL-TCP-AWARE and LL-SMART-TCP-AWARE wired goodput at least 99.95% everywhere",
        check=_ii_aware_wired_goodput,
        tags=("table2",),
    ),
    Claim(
        id="ii-double-retransmissions",
        section="Sec. IV-B",
        statement=(
            '"about 90% of the lost packets are retransmitted by both the source and the '
            'base station" (LL, LAN)'
        ),
        checked_as="not checked",
        unchecked=(
            "needs each lost packet matched to the source's and the base station's "
            "retransmissions of it; the cells carry counts only"
        ),
        tags=("table2",),
    ),
    Claim(
        id="ii-no-source-timeouts",
        section="Sec. IV-B, Fig. 5 caption",
        statement=(
            '"LL successfully prevents coarse timeouts from happening at the source"; '
            '"No coarse timeouts occur in either case" (LL-TCP-AWARE and LL)'
        ),
        checked_as="LL and LL-TCP-AWARE: under 1 source timeout per 8 MB run, every setting",
        check=_ii_no_timeouts,
        tags=("table2",),
    ),
    Claim(
        id="ii-smart-helps-link-layer",
        section="Sec. III-B, Table II",
        statement=(
            '"a more sophisticated link-layer protocol (LL-SMART) that uses selective '
            'retransmissions to improve performance"; Table II orders every setting so'
        ),
        checked_as="LL-SMART > LL and LL-SMART-TCP-AWARE > LL-TCP-AWARE in every setting",
        check=_ii_smart_helps,
        tags=("table2",),
    ),
    Claim(
        id="ii-smart-aware-best-link-layer",
        section="Sec. III-B",
        statement='"LL-SMART-TCP-AWARE is the best link-layer protocol in our experiments"',
        checked_as="LL-SMART-TCP-AWARE at least as fast as every Table II scheme, every setting",
        check=_ii_smart_aware_best_ll,
        tags=("table2",),
    ),
    Claim(
        id="iii-e2e-below-half-peak",
        section="Sec. IV-C",
        statement=(
            '"the E2E protocol achieves a throughput of less than 50% of the maximum ... in '
            'the local-area and less than 25% of the maximum in the wide-area experiments"'
        ),
        checked_as="E2E / error-free peak < 0.5 on both LAN settings, < 0.25 on the WAN",
        check=_iii_e2e_below_peak,
        tags=("table3",),
    ),
    Claim(
        id="iii-goodputs-near-optimal",
        section="Sec. IV-C",
        statement=(
            '"all of the end-to-end protocols achieve goodputs close to the optimal value of 97.7%"'
        ),
        checked_as=(
            "every Table III wireless and wired goodput within 2 points of 97.7% (the "
            "paper's own cells reach 96.0%)"
        ),
        check=_iii_goodputs,
        tags=("table3",),
    ),
    Claim(
        id="iii-newreno-lan",
        section="Sec. IV-C1",
        statement='E2E-NEWRENO "performs between 10% and 25% better than E2E over a LAN"',
        checked_as=(
            "E2E-NEWRENO/E2E between 1.10 and 1.30 in both LAN settings (the paper's own "
            "LAN 32 KB cells give 1.27)"
        ),
        check=_iii_newreno_lan,
        tags=("table3",),
    ),
    Claim(
        id="iii-newreno-wan",
        section="Sec. IV-C1",
        statement='E2E-NEWRENO performs "about two times better than E2E in the WAN experiments"',
        checked_as="E2E-NEWRENO/E2E between 1.6 and 2.5 on the WAN",
        check=_iii_newreno_wan,
        tags=("table3",),
    ),
    Claim(
        id="iii-newreno-larger-buffer",
        section="Sec. IV-C1",
        statement=(
            '"The performance improvement is a function of the socket buffer size—the '
            'larger the buffer size, the better the relative performance."'
        ),
        checked_as="E2E-NEWRENO/E2E larger on LAN 32 KB than on LAN 8 KB",
        check=_iii_newreno_buffer,
        tags=("table3",),
    ),
    Claim(
        id="iii-eln-above-newreno",
        section="Sec. IV-C2",
        statement=(
            'E2E-ELN and E2E-ELN-RXMT: "Both of these schemes perform better than E2E-NEWRENO"'
        ),
        checked_as=(
            "E2E-ELN and E2E-ELN-RXMT at least as fast as E2E-NEWRENO in every setting "
            "(the paper's WAN cells tie at 0.64)"
        ),
        check=_iii_eln_above_newreno,
        tags=("table3",),
    ),
    Claim(
        id="iii-eln-twice-e2e",
        section="Sec. IV-C2, Sec. VI",
        statement=(
            'E2E-ELN and E2E-ELN-RXMT perform "over two times better than E2E"; "a '
            'throughput improvement of more than a factor of two over TCP-Reno"'
        ),
        checked_as=(
            "E2E-ELN/E2E and E2E-ELN-RXMT/E2E above 2 on the WAN (the paper's own LAN cells "
            "give 1.25-1.56, so the statement is read on the WAN)"
        ),
        check=_iii_eln_twice_e2e,
        tags=("table3",),
    ),
    Claim(
        id="iii-rxmt-slight-at-32k",
        section="Sec. IV-C2",
        statement=(
            '"The E2E-ELN-RXMT protocol performs only slightly better than E2E-ELN when '
            'the socket buffer size is 32 kbytes."'
        ),
        checked_as="E2E-ELN-RXMT/E2E-ELN between 1.00 and 1.15 on LAN 32 KB and WAN 32 KB",
        check=_iii_rxmt_slight_32k,
        tags=("table3",),
    ),
    Claim(
        id="iii-rxmt-small-buffer",
        section="Sec. IV-C2",
        statement=(
            '"The performance benefits of E2E-ELN-RXMT are more pronounced when the socket '
            'buffer size is smaller"'
        ),
        checked_as="E2E-ELN-RXMT/E2E-ELN larger on LAN 8 KB than on LAN 32 KB",
        check=_iii_rxmt_small_buffer,
        tags=("table3",),
    ),
    Claim(
        id="iii-smart-best-e2e-lan",
        section="Sec. IV-C3",
        statement=(
            '"In the LAN case, we used a simple SACK scheme based on a subset of the SMART '
            'proposal. This protocol was the best of the end-to-end protocols"'
        ),
        checked_as="E2E-SMART at least as fast as every Table III scheme on both LAN settings",
        check=_iii_smart_best_lan,
        tags=("table3",),
    ),
    Claim(
        id="iii-sack-wan-vs-e2e",
        section="Sec. IV-C3",
        statement=(
            'WAN, E2E-IETF-SACK: "the throughput was about 0.8 Mb/s, significantly higher '
            'than the 0.31 Mb/s throughput of TCP Reno"'
        ),
        checked_as="E2E-IETF-SACK/E2E at least 2 on the WAN (the paper's cells: 2.6)",
        check=_iii_sack_wan,
        tags=("table3",),
    ),
    Claim(
        id="iii-sack-wan-vs-ll-opt",
        section="Sec. IV-C3",
        statement='"However, this is still about 35% worse than LL-OPT."',
        checked_as="1 - E2E-IETF-SACK/LL-SMART-TCP-AWARE between 25% and 45% on the WAN",
        check=_iii_sack_wan_vs_ll,
        tags=("table3",),
    ),
    Claim(
        id="iii-smart-lan-vs-ll",
        section="Sec. IV-C (summary)",
        statement=(
            "\"SACK's ... perform about 10%-15% worse than the best link-layer schemes in "
            'the LAN experiments"'
        ),
        checked_as=(
            "1 - E2E-SMART/LL-SMART-TCP-AWARE between 5% and 20% in both LAN settings (the "
            "paper's own LAN 8 KB cells give 18%)"
        ),
        check=_iii_smart_lan_vs_ll,
        tags=("table3",),
    ),
    Claim(
        id="iv-split-like-e2e",
        section="Sec. IV-D",
        statement=(
            '"the throughput achieved by the SPLIT approach (0.6 Mb/s) is quite low, about '
            'the same as that for end-to-end TCP Reno"'
        ),
        checked_as="SPLIT/E2E between 0.8 and 1.25 in both LAN settings",
        check=_iv_split_like_e2e,
        tags=("table4",),
    ),
    Claim(
        id="iv-split-wired-clean",
        section="Sec. IV-D",
        statement=(
            '"the wired connection neither has any retransmissions nor any timeouts, '
            'resulting in a wired goodput of 100%"'
        ),
        checked_as=(
            "SPLIT and SPLIT-SMART: no source retransmission or timeout, wired goodput at "
            "least 99.95%, every setting"
        ),
        check=_iv_split_wired_clean,
        tags=("table4",),
    ),
    Claim(
        id="iv-split-wan-above-e2e",
        section="Sec. IV-D",
        statement=(
            '"In the WAN case, the throughput of the SPLIT approach is about 0.58 Mb/s, '
            'which is better than the 0.31 Mb/s that the E2E approach achieves"'
        ),
        checked_as="SPLIT > E2E on the WAN",
        check=_iv_split_wan_above_e2e,
        tags=("table4",),
    ),
    Claim(
        id="iv-split-smart-much-higher",
        section="Sec. IV-D",
        statement='"As expected, the throughput for the SPLIT-SMART scheme is much higher."',
        checked_as="SPLIT-SMART/SPLIT at least 1.5 in every setting (the paper's cells: 1.9-2.4)",
        check=_iv_split_smart_much_higher,
        tags=("table4",),
    ),
    Claim(
        id="iv-split-smart-below-ll",
        section="Sec. IV-D, Sec. VI",
        statement=(
            'SPLIT-SMART: "the throughput is still slightly less than that for a well-tuned '
            'link-layer scheme that does not split the connection"'
        ),
        checked_as="SPLIT-SMART < LL-SMART-TCP-AWARE in every setting",
        check=_iv_split_smart_below_ll,
        tags=("table4",),
    ),
    Claim(
        id="vi-smart-aware-best-overall",
        section="Sec. VI",
        statement=(
            '"Of the schemes we investigated, the TCP-aware link-layer protocol with '
            'selective acknowledgment performs the best."'
        ),
        checked_as="LL-SMART-TCP-AWARE at least as fast as every Table II-IV scheme, every setting",
        check=_vi_best_of_all,
        tags=("table2",),
    ),
    Claim(
        id="v-smart-beats-aware",
        section="Table V caption",
        statement="\"This illustrates the benefits of SACK's, even for a high-performance, "
        'TCP-aware link protocol"',
        checked_as="LL-SMART-TCP-AWARE > LL-TCP-AWARE at bursts of 2, 4 and 6 packets",
        check=_v_smart_beats_aware,
        tags=("table5",),
    ),
    Claim(
        id="v-smart-up-to-30pct",
        section="Sec. IV-E",
        statement=(
            '"Selective acknowledgments improve the performance of LL-SMART-TCP-AWARE over '
            'LL-TCP-AWARE by up to 30% in the presence of burst errors."'
        ),
        checked_as=(
            "the largest LL-SMART-TCP-AWARE/LL-TCP-AWARE gain of Table V between 20% and 40%"
        ),
        check=_v_up_to_30pct,
        tags=("table5",),
    ),
    Claim(
        id="f12-low-rates-equal",
        section="Sec. IV-F",
        statement=(
            '"At low error rates (128- and 256-kbyte points in the graph), all of the '
            'protocols shown perform almost equally well"'
        ),
        checked_as="fastest/slowest of the six schemes at most 1.2 at 128 KB and at 256 KB",
        check=_f12_low_rates,
        tags=("fig12",),
    ),
    Claim(
        id="f12-aware-vs-smart-16k",
        section="Sec. IV-F",
        statement=(
            '"At the 16-kbyte error rate, the performance of the TCP-aware link-layer '
            'schemes is about 1.75-2 times better than E2E-SMART"'
        ),
        checked_as="LL-TCP-AWARE/E2E-SMART and LL-SMART-TCP-AWARE/E2E-SMART between 1.4 and 2.5",
        check=lambda c: _f12_ratio(c, "e2e-smart", 1.4, 2.5),
        tags=("fig12",),
    ),
    Claim(
        id="f12-aware-vs-reno-16k",
        section="Sec. IV-F",
        statement='"... and about nine times better than TCP Reno" (at the 16-kbyte error rate)',
        checked_as="LL-TCP-AWARE/E2E and LL-SMART-TCP-AWARE/E2E between 7.2 and 11.25",
        check=lambda c: _f12_ratio(c, "e2e", 7.2, 11.25),
        tags=("fig12",),
    ),
    Claim(
        id="f12-smart-beats-ietf-sack",
        section="Sec. IV-F",
        statement=(
            "E2E-SMART against E2E-IETF-SACK at high error rates: retransmitting on the "
            'first duplicate with loss information "reduces the number of timeouts, and '
            'results in better end-to-end performance"'
        ),
        checked_as="E2E-SMART > E2E-IETF-SACK at one error per 16 KB and per 32 KB",
        check=_f12_smart_beats_ietf,
        tags=("fig12",),
    ),
)
"""The checkable statements of seed 000, in the paper's order of tables."""


# --- Deviations -------------------------------------------------------------------------
# Explanations of failed claims and of cells outside 0.8-1.25 of the published value.
# Keys: claim ids, or cell keys table/setting/scheme (shell patterns allowed; the first
# match wins). Written against the model of issue 10 (4.4BSD-Lite Reno in the 1997
# scenarios, snoop's second-duplicate rule, bursts as channel events); revise as the
# model moves. Figures are means of 10 seeds.

_LL_RACE: Final = (
    "Snoop follows Sec. IV-E and ns-2.35: it forwards the first duplicate ack and "
    "retransmits on the second. The base station's processing latency is 0 by default, "
    "as no source gives one. With none, the local retransmission gets onto the wireless "
    "link ahead of the segment that would make the third duplicate (by about 65 us on the "
    "WAN's calibration), so under LL few losses reach the source as fast retransmissions "
    "and LL runs nearly as fast as LL-TCP-AWARE: the TCP-aware gain, LL's lower wireless "
    "goodput and LL-SMART-TCP-AWARE's lead shrink to noise. The ll-latency sweep shows "
    "the dependence: LL on the WAN makes 1.24 Mb/s at 0-50 us and 1.02 Mb/s at 100-200 us; "
    "with 4.4BSD's header prediction off as well, 0.92 Mb/s at 100 us, 30% below "
    "LL-TCP-AWARE (1.32), the paper's WAN gap. The paper's 0.82 Mb/s and its 'about 90% "
    "retransmitted by both' point to a base station slower than that race; the paper does "
    "not say how slow, so the default stays 0 and these claims stay failed."
)

_AWARE_WIRED_GOODPUT: Final = (
    "Snoop lets the first duplicate ack of a loss through (Sec. IV-E; ns-2.35 does the "
    "same). Under 4.4BSD Reno a few of these join later duplicates and reach the "
    "fast-retransmit threshold (3 fast retransmissions in the seed-1 WAN run of Fig. 5), "
    "so LL-TCP-AWARE's wired goodput is 99.8-99.98% rather than the 100% of Table II."
)

_BSD_RENO: Final = (
    "The 1997 scenarios run 4.4BSD-Lite's Reno, the stack BSD/OS 2.1 derives from "
    "(tcp_input.c 8.5: maxseg/8 growth in congestion avoidance, ssthresh from "
    "min(window, cwnd)/2, its exit from fast recovery, and header prediction, whose pure-ack "
    "fast path keeps a window inflated by fast recovery when cwnd >= snd_wnd). The RFC 5681 "
    "growth that had made E2E match Table III was a calibration knob and is gone. E2E is "
    "now 0.59/0.85/0.44 Mb/s (LAN 8 KB, LAN 32 KB, WAN) against 0.55/0.70/0.31, above half "
    "the peak on LAN 32 KB and a quarter on the WAN. NewReno and SACK rise too (WAN 0.51 "
    "and 0.53 against 0.64 and 0.80), so their ratios to E2E (1.16 and 1.21 on the WAN) "
    "stay far from the paper's 2.1 and 2.6. A sender that halves its window on every loss "
    "at the WAN's 2.2% packet loss with delayed acks is bounded near 5.8 segments (about "
    "0.49 Mb/s over 135 ms); the published NewReno and SACK cells need 8-10, and the "
    "paper's SACK was another implementation ([4]). Checked against 4.4BSD and not the "
    "cause: t_dupacks handling, go-back-N after a timeout; tried and not kept for want of a "
    "source: other turn-taking on the half-duplex WaveLAN. BSD/OS 2.1's own source was not "
    "available, so whether it had header prediction's later fix is unverified. No "
    "parameter is tuned to close the gap."
)

_ELN_SLOTS: Final = (
    "lasthop's ELN receiver remembers every segment its link layer reported corrupted. "
    "The single-slot receiver (eln_slots = 1), a literal reading of the paper's ELN that "
    "'does not convey information about multiple wireless-related losses to the sender', "
    "is an option and not the default, as no source decides it. With every slot E2E-ELN "
    "and E2E-ELN-RXMT avoid timeouts the paper's did not and are about 1.5x the paper at "
    "LAN 8 KB; with one slot they fall (WAN E2E-ELN-RXMT 0.84 to 0.59 Mb/s, measured "
    "before the 4.4BSD change). Against NewReno and E2E the ELN ratios also move with the "
    "higher 4.4BSD E2E and NewReno cells (see the Reno deviation)."
)

_SPLIT_BSD: Final = (
    "SPLIT's wired leg never loses, and its wireless leg is a 4.4BSD Reno over one lossy "
    "hop. Each 4.4BSD rule of the 1997 scenarios raises that leg: SPLIT on the WAN makes "
    "1.00 Mb/s with all of them, 0.88 with RFC 5681's growth instead of maxseg/8, 0.89 "
    "with RFC 5681's exit from fast recovery, 0.91 with ssthresh from the data "
    "outstanding, and 0.70 with none (the model before issue 10); header prediction is "
    "not the cause (1.11 without it). So SPLIT is well above the paper's 0.58 and 0.60 "
    "(LAN 32 KB: 0.88), and SPLIT-SMART's lead over it shrinks (1.5x and 1.25x against "
    "the paper's 2.2x and 1.9x). The paper's SPLIT ran the same BSD/OS Reno; why its "
    "wireless leg did worse is not identified."
)

_F12_RENO: Final = (
    "Fig. 12's E2E is 4.4BSD Reno: at one error per 16 KB it makes 0.14 Mb/s, so the "
    "TCP-aware link layers are 6.5x and 9.0x faster (the paper: about 9x); at 128 and 256 "
    "KB it stays well below the others (0.89 and 1.05 Mb/s against 1.43-1.47), because "
    "header prediction keeps a window inflated by fast recovery once windows reach the 32 "
    "KB buffer, and the next loss then ends in a timeout. The paper gives no Fig. 12 "
    "numbers, only these ratios."
)

DEVIATIONS: Final[dict[str, str]] = {
    # Claims that fail (10 seeds). A claim that starts failing later shows
    # "Not yet explained." until an entry is written for it.
    "ii-aware-beats-plain": _LL_RACE,
    "ii-lan-gain-10pct": _LL_RACE,
    "ii-wan-gain-30pct": _LL_RACE,
    "ii-ll-wireless-goodput": _LL_RACE,
    "ii-smart-aware-best-link-layer": _LL_RACE,
    "vi-smart-aware-best-overall": _LL_RACE,
    "ii-aware-wired-goodput-100": _AWARE_WIRED_GOODPUT,
    "iii-e2e-below-half-peak": _BSD_RENO,
    "iii-newreno-lan": _BSD_RENO,
    "iii-newreno-wan": _BSD_RENO,
    "iii-newreno-larger-buffer": _BSD_RENO,
    "iii-sack-wan-vs-e2e": _BSD_RENO,
    "iii-sack-wan-vs-ll-opt": _BSD_RENO,
    "iii-smart-best-e2e-lan": _ELN_SLOTS,
    "iii-eln-above-newreno": _ELN_SLOTS,
    "iii-eln-twice-e2e": _ELN_SLOTS,
    "iii-rxmt-slight-at-32k": _ELN_SLOTS,
    "iv-split-smart-much-higher": _SPLIT_BSD,
    "f12-low-rates-equal": _F12_RENO,
    "f12-aware-vs-reno-16k": _F12_RENO,
    "f12-aware-vs-smart-16k": _F12_RENO,
    # Cells outside 0.8-1.25 of the published value.
    "table2/*/ll": _LL_RACE,
    "table2/*/ll-smart": _LL_RACE,
    "table3/*/e2e-eln*": _ELN_SLOTS,
    "table3/*/*": _BSD_RENO,
    "table4/*/split": _SPLIT_BSD,
}
"""Explanations by claim id or cell key (patterns allowed): the texts to revise."""


# Transitional (issue 28): every explanation as an entry without a measured cause.
_TEXTS: Final = DEVIATIONS
DEVIATIONS: Final = tuple(Deviation((k,), v) for k, v in _TEXTS.items())  # type: ignore[misc]
SENSITIVITIES: Final[tuple[Sensitivity, ...]] = ()
