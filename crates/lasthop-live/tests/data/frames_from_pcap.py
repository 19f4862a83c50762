"""Turn a live run's pcap of one host (``lasthop live ... --pcap DIR``) into the frame
sequence ``tests/same_decisions.rs`` replays: one line per packet the host sent, ``t_ns
total_length hex(IP and TCP headers)``. The payload is not kept (the error models read a
frame's size and time, never its bytes); the test refills it with zeros.

Usage: python frames_from_pcap.py DIR/a.pcap 10.77.0.1 > frames-one-link-2mbps.txt
"""

from __future__ import annotations

import struct
import sys


def main() -> None:
    path, src = sys.argv[1], bytes(int(x) for x in sys.argv[2].split("."))
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    assert magic == 0xA1B23C4D, "a nanosecond pcap, as lasthop live writes"
    off = 24
    print("# t_ns total_length headers (from lasthop live --pcap; frames_from_pcap.py)")
    while off + 16 <= len(data):
        sec, nsec, incl, _orig = struct.unpack("<IIII", data[off : off + 16])
        pkt = data[off + 16 : off + 16 + incl]
        off += 16 + incl
        if len(pkt) < 40 or pkt[12:16] != src:
            continue
        ihl = (pkt[0] & 0x0F) * 4
        thl = (pkt[ihl + 12] >> 4) * 4
        total = struct.unpack(">H", pkt[2:4])[0]
        print(sec * 1_000_000_000 + nsec, total, pkt[: ihl + thl].hex())


if __name__ == "__main__":
    main()
