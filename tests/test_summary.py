"""The mean over seeds that ``lasthop run --seeds N`` prints (pure Python)."""

from __future__ import annotations

import json

import pytest

from lasthop.summary import mean_records, mean_summary


def run(seed: int, throughput: float, goodput: float | None) -> dict[str, object]:
    return {
        "seed": seed,
        "flows": [{"name": "f", "throughput_bps": throughput, "timeouts": seed, "completed": True}],
        "links": [{"name": "wireless", "direction": "bs->mh", "goodput": goodput}],
    }


def test_numbers_are_averaged_names_kept() -> None:
    mean = mean_summary([run(1, 1.0e6, 0.9), run(2, 2.0e6, 0.8), run(3, 3.0e6, 0.7)])
    assert mean["flows"] == [
        {"name": "f", "throughput_bps": 2.0e6, "timeouts": 2.0, "completed": True}
    ]
    assert mean["links"][0]["name"] == "wireless"
    assert mean["links"][0]["direction"] == "bs->mh"
    assert mean["links"][0]["goodput"] == pytest.approx(0.8)


def test_goodput_is_null_if_any_run_has_none() -> None:
    mean = mean_summary([run(1, 1.0, 0.9), run(2, 1.0, None)])
    assert mean["links"][0]["goodput"] is None


def test_booleans_hold_only_if_they_hold_in_every_run() -> None:
    assert mean_records([{"completed": True}, {"completed": False}]) == {"completed": False}


def test_disagreeing_names_are_an_error() -> None:
    with pytest.raises(ValueError, match="name"):
        mean_records([{"name": "a"}, {"name": "b"}])


def test_a_split_flows_nested_record_is_averaged() -> None:
    """``lasthop run --seeds 2 --set scheme=split`` ended in a traceback: the ``split``
    record of a split flow differs between seeds and was compared, not averaged."""
    a = {"name": "f", "split": {"wireless_flow_id": 1, "wireless_timeouts": 5}}
    b = {"name": "f", "split": {"wireless_flow_id": 1, "wireless_timeouts": 8}}
    assert mean_records([a, b]) == {
        "name": "f",
        "split": {"wireless_flow_id": 1.0, "wireless_timeouts": 6.5},
    }


def test_split_runs_over_seeds_through_the_cli() -> None:
    from helpers import lasthop_cli

    proc = lasthop_cli(
        "run", "balakrishnan97/lan", "--seeds", "2", "--set", "scheme=split", "--format", "json"
    )
    assert proc.returncode == 0, proc.stderr
    assert "split" in proc.stdout


def test_each_mediums_radios_are_averaged_over_seeds() -> None:
    """A radio chain's per-radio counters (seed 001 Sec. 5) were missing from the mean of
    ``--seeds N``: only flows and links were averaged."""

    def with_media(seed: int, rts: int) -> dict[str, object]:
        radios = [
            {"node": "gw", "rts_sent": rts, "backoff_s": seed / 2},
            {"node": "mh", "rts_sent": 1},
        ]
        return {**run(seed, 1.0, 0.9), "media": [{"name": "radio", "radios": radios}]}

    mean = mean_summary([with_media(1, 10), with_media(2, 20)])
    assert mean["media"] == [
        {
            "name": "radio",
            "radios": [
                {"node": "gw", "rts_sent": 15.0, "backoff_s": 0.75},
                {"node": "mh", "rts_sent": 1.0},
            ],
        }
    ]
    assert "media" not in mean_summary([run(1, 1.0, 0.9)])


def test_a_radio_chains_radios_table_over_seeds_through_the_cli() -> None:
    from helpers import lasthop_cli

    proc = lasthop_cli("run", "balakrishnan99/radio-chain", "--seeds", "2")
    assert proc.returncode == 0, proc.stderr
    assert "radios of radio" in proc.stdout
    assert "mean of seeds 1..2" in proc.stdout


def test_an_802_11_mediums_stations_are_averaged_and_shown() -> None:
    from helpers import lasthop_cli

    proc = lasthop_cli("run", "yun09/downlink", "--seeds", "2", "--set", "stop_s=5")
    assert proc.returncode == 0, proc.stderr
    # The table's title and columns fit the terminal (80 columns here): its words.
    assert "802.11" in proc.stdout and "retry" in proc.stdout
    document = json.loads(
        lasthop_cli(
            "run", "yun09/downlink", "--seeds", "2", "--set", "stop_s=5", "--format", "json"
        ).stdout
    )
    assert [s["node"] for s in document["mean"]["media"][0]["stations"]] == ["ap", "d"]
    station = {"node": "ap", "attempts": 10, "collisions": 1}
    runs = [
        {**run(s, 1.0, 0.9), "media": [{"name": "wlan", "stations": [station]}]} for s in (1, 2)
    ]
    assert mean_summary(runs)["media"] == [
        {"name": "wlan", "stations": [{**station, "attempts": 10.0, "collisions": 1.0}]}
    ]


def test_an_rlp_circuits_ends_are_averaged_and_shown() -> None:
    """``mac = "rlp"`` (seed 002 Sec. 5.1): the circuit's two ends were printed as an
    empty table of radios, and left out of the mean over seeds."""
    from helpers import lasthop_cli

    args = ("run", "elaarag02/rlp", "--seeds", "2", "--set", "duration_s=30")
    proc = lasthop_cli(*args)
    assert proc.returncode == 0, proc.stderr
    words = " ".join(proc.stdout.split())  # the title may wrap at 80 columns
    assert "RLP circuit ends of rlp" in words and "radios of" not in words
    document = json.loads(lasthop_cli(*args, "--format", "json").stdout)
    ends = document["mean"]["media"][0]["circuit"]
    assert [e["node"] for e in ends] == ["bs", "mh"]
    runs = [r["media"][0]["circuit"][0]["frames_sent"] for r in document["runs"]]
    assert ends[0]["frames_sent"] == sum(runs) / 2 and ends[0]["frames_sent"] > 0


def test_an_airmail_circuit_is_named_for_its_protocol() -> None:
    """``mac = "airmail"``: its ends' table said "RLP circuit", for one seed and the mean."""
    from helpers import lasthop_cli

    for seeds in ("1", "2"):
        args = ("run", "elaarag02/airmail", "--seeds", seeds, "--set", "duration_s=30")
        proc = lasthop_cli(*args)
        assert proc.returncode == 0, proc.stderr
        words = " ".join(proc.stdout.split())
        assert "AIRMAIL circuit ends of airmail" in words and "RLP circuit" not in words, seeds


def test_a_state_runs_end_in_is_counted_by_value_in_the_mean() -> None:
    """AIRMAIL's FEC level at the end of a run differs by seed: the mean over seeds
    crashed on it ("fec_level: differs between runs"); it now counts each level."""
    records = [
        {"node": "bs", "fec_level": level, "polls": n}
        for level, n in (("none", 1), ("byte", 3), ("none", 2))
    ]
    assert mean_records(records) == {"node": "bs", "fec_level": "byte x1, none x2", "polls": 2.0}
    with pytest.raises(ValueError, match="node: differs"):
        mean_records([{"node": "bs"}, {"node": "mh"}])
