"""``lasthop run --pcap``: the files are libpcap that tshark reads without a complaint, and
tshark's own TCP analysis finds exactly the retransmissions lasthop counted.

The scenario is the lossy 1997 LAN (``balakrishnan97/lan``: one bit error per 64 KB on
the wireless link, seed 1), with Reno (``e2e``) and with SACK (``e2e-ietf-sack``), captured
on the wired link (every segment the source sends) and on the wireless one (every frame
the base station put on the air, the corrupted ones included).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import lasthop

LAN = "balakrishnan97/lan"

# tshark's TCP analysis calls a segment below the highest sequence number seen a
# retransmission, a fast retransmission (after duplicate acks), a spurious one (already
# acked; tshark 4.0 also marks these retransmissions) or, when it comes within 3 ms of
# the highest segment, out of order. lasthop's links are FIFO, so on one link no segment
# is reordered: each of these is a retransmission by the source.
RETRANSMITTED = (
    "tcp.analysis.retransmission || tcp.analysis.fast_retransmission"
    " || tcp.analysis.spurious_retransmission || tcp.analysis.out_of_order"
)


@pytest.fixture(scope="session")
def tshark() -> str:
    path = shutil.which("tshark")
    if path is None:
        message = "tshark is not installed (Debian: apt-get install tshark)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + "; CI must run these tests")
        pytest.skip(message)
    return path


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m lasthop ARGS`` run in ``cwd``."""
    return subprocess.run(
        [sys.executable, "-m", "lasthop", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
        check=False,
    )


def capture(tmp_path: Path, scheme: str, spec: str, *more: str) -> tuple[dict[str, Any], Path]:
    """Run the LAN with ``scheme``, capturing ``spec``; the summary and the file."""
    out = tmp_path / "capture.pcap"
    proc = cli(
        tmp_path,
        *("run", LAN, "--seed", "1", "--set", f"scheme={scheme}", "--format", "json"),
        *("--pcap", spec, "--pcap-file", str(out), *more),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout), out


def count_frames(tshark: str, path: Path, *filters: str) -> list[int]:
    """Frames of ``path`` matching each display filter, in one pass of tshark, with IP and
    TCP checksum validation on (a bad checksum is an expert error)."""
    stat = ",".join(["io,stat,0", *filters])
    proc = subprocess.run(
        [tshark, "-r", str(path), "-q", "-o", "ip.check_checksum:TRUE"]
        + ["-o", "tcp.check_checksum:TRUE", "-z", stat],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    # The last row of the table: "|  0.0 <> 90.5 |  137 | 191800 | ... |" (frames, bytes).
    rows = [line for line in proc.stdout.splitlines() if "<>" in line]
    assert len(rows) == 1, proc.stdout
    cells = [cell.strip() for cell in rows[0].strip().strip("|").split("|")]
    counts = [int(cell) for cell in cells[1::2]]
    assert len(counts) == len(filters), proc.stdout
    return counts


def link(summary: dict[str, Any], name: str, direction: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        lk for lk in summary["links"] if lk["name"] == name and lk["direction"] == direction
    )
    return found


@pytest.mark.parametrize(
    ("scheme", "spec"),
    [
        ("e2e", "wired:fh->bs"),
        ("e2e-ietf-sack", "wired:fh->bs"),
        ("e2e", "wireless:bs->mh"),
        ("e2e-ietf-sack", "wireless:bs->mh"),
        ("e2e-ietf-sack", "wired"),
        ("e2e-ietf-sack", "wireless"),
        ("e2e-smart", "wireless"),
    ],
)
def test_tshark_reads_it_and_counts_lasthops_retransmissions(
    tmp_path: Path, tshark: str, scheme: str, spec: str
) -> None:
    summary, path = capture(tmp_path, scheme, spec)
    frames, malformed, errors, retransmitted, sack, experimental = count_frames(
        tshark,
        path,
        "frame",
        "_ws.malformed",
        "_ws.expert.severity == error",
        RETRANSMITTED,
        "tcp.options.sack_le",
        "tcp.option_kind == 253",
    )
    name, _, direction = spec.partition(":")
    both = [lk["direction"] for lk in summary["links"] if lk["name"] == name]
    directions = [direction] if direction else both
    assert frames == sum(link(summary, name, d)["packets_sent"] for d in directions)
    assert (malformed, errors) == (0, 0)
    # A retransmission still upstream of the wireless link when the transfer completes
    # (issue 10: E2E-SMART's second retransmission of the last hole, seed 1) is counted
    # by the source but never crosses that link.
    retransmits = summary["flows"][0]["retransmits"]
    upstream = 0
    if name == "wireless":
        upstream = link(summary, "wired", "fh->bs")["packets_sent"]
        upstream -= link(summary, "wireless", "bs->mh")["packets_sent"]
    assert retransmits - upstream <= retransmitted <= retransmits
    assert retransmitted > 0
    with_acks = not direction
    assert (sack > 0) == (with_acks and scheme == "e2e-ietf-sack"), sack
    assert (experimental > 0) == (with_acks and scheme == "e2e-smart"), experimental
    if name == "wireless":
        # Frames corrupted on the air were transmitted, so they are in the capture.
        assert link(summary, "wireless", "bs->mh")["drops_error"] > 0


def test_checksums_verify_over_the_whole_segment(tmp_path: Path, tshark: str) -> None:
    """With the whole frame captured tshark checks the TCP checksum too, over the zero
    payload: every IP and TCP checksum is good."""
    _, path = capture(tmp_path, "e2e-ietf-sack", "wireless", "--snaplen", "1600")
    frames, ip_good, tcp_good = count_frames(
        tshark, path, "frame", "ip.checksum.status == 1", "tcp.checksum.status == 1"
    )
    assert frames > 0
    assert ip_good == tcp_good == frames


def test_capture_changes_nothing_and_is_deterministic(tmp_path: Path) -> None:
    plain = lasthop.run(LAN, seed=1, trace=False).summary
    runs = [lasthop.run(LAN, seed=1, trace=False, pcap=["wireless:bs", "wired"]) for _ in range(2)]
    assert runs[0].summary == plain
    assert runs[0].pcap_labels == ["wireless:bs->mh", "wired"]
    first = runs[0].pcap("wireless:bs")
    assert first == runs[0].pcap("wireless:bs->mh") == runs[1].pcap("wireless:bs")
    assert first[:4] == bytes.fromhex("4d3cb2a1"), "nanosecond libpcap, little-endian"
    assert runs[0].pcap("wired") == runs[1].pcap("wired")
    assert runs[0].pcap("wired") != lasthop.run(LAN, seed=2, pcap="wired").pcap()

    summary, path = capture(tmp_path, "e2e", "wireless:bs")
    assert summary == plain
    assert path.read_bytes() == first, "the CLI writes what the API returns"


def test_default_file_names(tmp_path: Path) -> None:
    proc = cli(tmp_path, "run", LAN, "--pcap", "wireless:bs", "--pcap", "wired", "--snaplen", "60")
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path)) == ["wired.pcap", "wireless-bs-mh.pcap"]
    assert (tmp_path / "wired.pcap").read_bytes()[16:20] == (60).to_bytes(4, "little")


def test_pcap_accessor_names_what_was_captured() -> None:
    result = lasthop.run(LAN, trace=False, pcap=["wireless"])
    assert result.pcap() == result.pcap("wireless")
    with pytest.raises(KeyError, match="no capture 'wired'; captures: wireless"):
        result.pcap("wired")
    with pytest.raises(lasthop.ScenarioError, match="^--pcap: no link named 'wirless'"):
        lasthop.run(LAN, pcap=["wirless"])
    with pytest.raises(lasthop.ScenarioError, match="^--snaplen: must be in 1..=262144, got -1"):
        lasthop.run(LAN, pcap=["wireless"], snaplen=-1)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--pcap", "wirless"],
            "--pcap: no link named 'wirless' (links: wired, wireless)",
        ),
        (
            ["--pcap", "wireless:mh->fh"],
            "--pcap: link 'wireless' has no direction 'mh->fh' (directions: bs->mh, mh->bs)",
        ),
        (
            ["--pcap", "wired", "--pcap", "wired:fh", "--pcap", "wireless:fh"],
            "--pcap: link 'wireless' has no direction 'fh' (directions: bs->mh, mh->bs)",
        ),
        (
            ["--pcap", "wired:fh", "--pcap", "wired:fh->bs"],
            "--pcap: 'wired:fh' and 'wired:fh->bs' name the same capture",
        ),
        (["--pcap", "wired", "--seeds", "2"], "--pcap: cannot be used with --seeds"),
        (["--pcap-file", "x.pcap"], "--pcap-file: needs exactly one --pcap"),
        (
            ["--pcap", "wired", "--pcap", "wireless", "--pcap-file", "x.pcap"],
            "--pcap-file: needs exactly one --pcap",
        ),
        (["--pcap", "wired", "--pcap-file", "no/such/x.pcap"], "--pcap-file: no directory"),
        (["--pcap", "wired", "--pcap-file", "."], "--pcap-file: '.' is a directory"),
        (["--snaplen", "100"], "--snaplen: needs --pcap"),
        (["--pcap", "wired", "--snaplen", "0"], "--snaplen: "),
    ],
)
def test_bad_options_give_one_line_and_no_file(tmp_path: Path, args: list[str], line: str) -> None:
    proc = cli(tmp_path, "run", LAN, *args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"lasthop: error: {line}"), proc.stderr
    assert os.listdir(tmp_path) == []


def test_seed001_ecn_bits_and_options_decode_in_tshark(tmp_path: Path, tshark: str) -> None:
    """Issue 11, item 10: ACC's ECN-capable segments and acks, RED's CE marks on the
    reverse channel's acks, the echo (ECE on data), timestamps and the sender-window
    option are on the wire, and tshark decodes each."""
    out = tmp_path / "cable.pcap"
    proc = cli(
        tmp_path,
        *("run", "balakrishnan99/one-way", "--seed", "1", "--format", "json"),
        *("--set", 'protocol="acc"', "--set", "reverse_bps=9600", "--set", "stop_s=10"),
        *("--pcap", "cable", "--pcap-file", str(out)),
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    marks = link(summary, "cable", "r2->r1")["queue"]["marks"]
    assert marks > 0, "RED marked no ack in 10 s"
    counts = count_frames(
        tshark,
        out,
        "frame",
        "ip.dsfield.ecn == 2",  # ECT(0)
        "ip.dsfield.ecn == 3 && tcp.len == 0",  # CE on an ack
        "tcp.flags.ece == 1 && tcp.len > 0",  # a marked ack echoed on data
        "tcp.options.timestamp.tsval",
        "tcp.option_kind == 253 && tcp.len > 0",  # the sender-window option on data
    )
    frames, ect, ce_acks, echoes, stamped, window_option = counts
    assert frames > 0 and stamped == frames, counts
    assert ect > 0 and window_option > 0, counts
    # The capture sees the reverse channel's acks as they start their transmission, after
    # RED marked them on arrival; a marked ack can still be lost at a full buffer.
    assert 0 < ce_acks <= marks, (counts, marks)
    assert echoes > 0, counts


@pytest.mark.parametrize("handshake", [False, True])
def test_tshark_reads_the_scaled_window_the_run_advertised(
    tmp_path: Path, tshark: str, handshake: bool
) -> None:
    """Issue 29 item 3: a 1 MiB socket buffer is advertised as 1,048,576 bytes, not
    65535. The SYN and SYN-ACK carry window-scale shift 5 (RFC 7323; the model's own
    handshake, or, for a flow that starts established, the opening written before its
    first frame), and tshark's calculated window of every later ack is the run's."""
    out = tmp_path / "satellite.pcap"
    args = ["--set", "stop_s=5", "--set", "flows.0.duration_s=5", "--set", "loss=0"]
    if handshake:
        args += ["--set", "flows.0.tcp.handshake=true"]
    proc = cli(
        tmp_path,
        *("run", "examples/satellite", "--seed", "1", "--format", "json", *args),
        *("--pcap", "wired", "--pcap-file", str(out)),
    )
    assert proc.returncode == 0, proc.stderr
    fields = subprocess.run(
        [tshark, "-r", str(out), "-T", "fields", "-e", "tcp.flags.syn", "-e", "tcp.len"]
        + ["-e", "tcp.options.wscale.shift", "-e", "tcp.window_size"]
        + ["-e", "tcp.window_size_scalefactor"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    ).stdout.splitlines()
    rows = [line.split("\t") for line in fields]
    syns = [r for r in rows if r[0] == "1"]
    assert [r[2] for r in syns] == ["5", "5"], syns
    acks = [r for r in rows if r[0] == "0" and r[1] == "0"]
    assert len(acks) > 100
    assert {r[4] for r in acks} == {"32"}, "tshark applies the scale the SYNs asked for"
    assert {int(r[3]) for r in acks} == {1_048_576}, "the receiver's whole 1 MiB buffer"
