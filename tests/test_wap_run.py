"""The ``wap`` workload's summary (seed 002 Sec. 5.3, issue 34 item 5): what ``lasthop
run`` prints and writes for a page-fetch run, by WAP and by HTTP over TCP, one seed and
the mean of several (the mechanism's own checks are the Rust tests, tests/sim/wap.rs)."""

from __future__ import annotations

import json

from helpers import lasthop_cli


def _wap(*sets: str, seeds: int | None = None) -> dict:
    args = ["run", "elaarag02/wap", "--format", "json"]
    for s in sets:
        args += ["--set", s]
    if seeds:
        args += ["--seeds", str(seeds)]
    done = lasthop_cli(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_summary_has_each_page_and_wap_takes_fewer_frames_and_less_time() -> None:
    wap = _wap()["wap"][0]
    http = _wap('protocol="http"')["wap"][0]
    assert (wap["protocol"], http["protocol"]) == ("wap", "http")
    for w in (wap, http):
        assert (w["fetched"], w["aborted"], w["unfinished"]) == (5, 0, 0)
        assert len(w["pages"]) == 5 and all(p["outcome"] == "fetched" for p in w["pages"])
        fetch = [p["end_s"] - p["start_s"] for p in w["pages"]]
        assert abs(sum(fetch) / len(fetch) - w["mean_fetch_s"]) < 1e-9
    # WAP-1 on the 9.6 kb/s, 250 ms bearer: Invoke, Result and the handset's Ack; HTTP's
    # handshake, request and response cost more frames and at least one more round trip.
    assert wap["mean_bearer_frames"] == 3.0 and wap["connects"] == 1
    assert http["mean_bearer_frames"] > wap["mean_bearer_frames"]
    assert http["mean_fetch_s"] - wap["mean_fetch_s"] >= 0.5
    assert http["connects"] == 0


def test_a_bearer_loss_is_ridden_out_by_suspend_and_resume_and_the_mean_keeps_counts() -> None:
    one = _wap('outage="on"', "outage_at_s=23.5", "per=0.02")["wap"][0]
    assert (one["connects"], one["resumes"]) == (1, 1)
    mean = _wap('outage="on"', "outage_at_s=23.5", "per=0.02", seeds=3)["mean"]["wap"][0]
    assert mean["connects"] == 1.0 and mean["resumes"] == 1.0 and "pages" not in mean


def test_the_table_names_the_page_fetches() -> None:
    done = lasthop_cli("run", "elaarag02/wap")
    assert done.returncode == 0, done.stderr
    assert "page fetches" in done.stdout and "wap" in done.stdout
