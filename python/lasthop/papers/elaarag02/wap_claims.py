"""The claims of :mod:`lasthop.papers.elaarag02.wap`: the reference's WAP-1 and WAP-3
(elaarag-002.md Sec. 4, both [K]: the WAP specifications were not read; WTP's timers are
Kannel's)."""

from __future__ import annotations

from typing import Final

from lasthop.papers.elaarag02 import wap
from lasthop.reproduction.claims import Cells, Claim, Verdict
from lasthop.reproduction.compare import Judge

T: Final = wap.TABLE


def _wap_1(c: Cells) -> Verdict:
    j = Judge()
    for page in wap.PAGES:
        s = wap.setting(page)
        j.less(
            f"{page} B: bearer frames per page, WAP / HTTP",
            c.est(T, s, "wap", "bearer_frames"),
            c.est(T, s, "http", "bearer_frames"),
        )
        saved = c.est(T, s, "http", "fetch_s") - c.est(T, s, "wap", "fetch_s")
        j.above(f"{page} B: HTTP's fetch less WAP's, s (a bearer round trip: 0.5)", saved, 0.5)
        j.note(f"{page} B: WAP's bearer frames per page", c.est(T, s, "wap", "bearer_frames"))
    return Verdict.of(j)


def _wap_3(c: Cells) -> Verdict:
    j = Judge()
    connects = c.est(T, wap.LOSS, "wap", "connects")
    resumes = c.est(T, wap.LOSS, "wap", "resumes")
    j.within("WSP connects with suspend/resume (every run: 1)", connects, 1.0, 1.0)
    j.within("WSP resumes (every run: 1)", resumes, 1.0, 1.0)
    j.note(
        "WSP connects without suspend, a new address",
        c.est(T, wap.LOSS, "wap-no-suspend", "connects"),
    )
    return Verdict.of(j)


CLAIMS: Final[tuple[Claim, ...]] = (
    Claim(
        "wap-1",
        "Sec. 5.3",
        "WAP extends the web to the handset with a stack of its own: a page fetch by a WTP "
        "class 2 transaction uses two wireless PDUs and one wireless round trip, where HTTP "
        "over TCP needs a handshake, a request, a response and a close",
        "elaarag-002.md WAP-1 on elaarag02/wap, 2% frame loss: at 1000 and 4000 B pages WAP "
        "puts fewer frames on the bearer per page than HTTP (intervals apart) and fetches at "
        "least one bearer round trip (0.5 s) sooner; WAP's frames are the Invoke, the Result "
        "and the handset's Ack of it (3, not the statement's 2: class 2 acknowledges the "
        "Result)",
        _wap_1,
        tags=(T,),
    ),
    Claim(
        "wap-3",
        "Sec. 5.3",
        "WSP's suspend and resume keep a session across a loss of the bearer",
        "elaarag-002.md WAP-3 on elaarag02/wap: a 20 s bearer loss while a page is out; with "
        "suspend/resume every run has one Connect and one Resume (no new session); without "
        "suspend and with a new address after the loss, the handset connects again (shown)",
        _wap_3,
        tags=(T,),
    ),
)
