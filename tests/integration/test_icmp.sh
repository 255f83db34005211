#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ICMP errors matched to streams by what they quote, through the receive path and the main
# lcore: a pcap port plays 600 errors as FreeBSD sends them, quoting only 8
# bytes after the IP header (no signature): "fragmentation needed" with MTU 1280 about the
# stream's flows, "time exceeded" about another stream's, and "unreachable" about a
# packet of no stream, 100 times over. Each is counted once, by class, against the stream
# whose addresses and ports it quotes; the stranger as unmatched; the announced MTU reported.
. "$(dirname "$0")/lib.sh"

python3 - "$WORK/icmp.pcap" <<'PY'
import struct, sys

def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff

def ip4(src, dst, proto, payload):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0x4000, 64, proto, 0,
                    bytes(src), bytes(dst))
    return h[:10] + struct.pack("!H", csum(h)) + h[12:] + payload

def icmp_error(typ, code, mtu, src, dst, sport, dport):
    quoted = ip4(src, dst, 17, struct.pack("!HHHH", sport, dport, 1480, 0) + b"x" * 1472)
    body = struct.pack("!BBHHH", typ, code, 0, 0, mtu) + quoted[:28]  # 8 bytes after IP
    body = body[:2] + struct.pack("!H", csum(body)) + body[4:]
    eth = b"\x02\0\0\0\0\x01" + b"\x02\0\0\0\0\x02" + b"\x08\x00"
    return eth + ip4([198, 18, 0, 1], [198, 18, 1, 0], 1, body)

frames = [icmp_error(3, 4, 1280, [198, 18, 1, i], [198, 19, 1, 1], 1024, 5001) for i in range(4)]
frames.append(icmp_error(11, 0, 0, [198, 18, 2, 3], [198, 19, 2, 1], 1024, 6001))
frames.append(icmp_error(3, 1, 0, [10, 0, 0, 1], [10, 0, 0, 2], 1, 2))
frames = frames * 100
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for fr in frames:
        f.write(struct.pack("<IIII", 0, 0, len(fr), len(fr)) + fr)
PY
cat >"$WORK/icmp.json" <<EOC
{
    "eal": ["-l", "0-1", "--no-pci", "--file-prefix", "fws-icmp",
            "--vdev", "net_pcap0,rx_pcap=$WORK/icmp.pcap", "--vdev", "net_null1,no-rx=1"],
    "ports": [{"name": "lan", "device": "net_pcap0"}, {"name": "wan", "device": "net_null1"}],
    "streams": [
        {"name": "big", "tx_port": "wan", "rx_port": "lan",
         "flows": {"count": 8, "src_ip": "198.18.1.0-198.18.1.7", "dst_ip": "198.19.1.1", "dst_port": 5001}},
        {"name": "ttl", "tx_port": "wan", "rx_port": "lan",
         "flows": {"count": 8, "src_ip": "198.18.2.0-198.18.2.7", "dst_ip": "198.19.2.1", "dst_port": 6001}}
    ],
    "rate": "1kpps", "frame_size": 128, "duration": 0.5, "warmup": 0, "drain": 0, "path_check": false
}
EOC
expect_rc 0 "ICMP errors replayed at the receive port" "$FWSTRESS" run -q -o "$WORK/report.json" "$WORK/icmp.json"
check "too big (MTU 1280) matched to its stream by quoted addresses and ports: all 400" \
	'(lambda y: y["too_big"] == 400 and y["path_mtu"] == 1280 and y["time_exceeded"] == y["unreachable"] == 0)(t[0]["streams"][0]["icmp"])'
check "time exceeded matched to the other stream (100); the stranger unmatched (100)" \
	'(lambda b: b["time_exceeded"] == 100 and b["too_big"] == 0 and b["path_mtu"] is None)(t[0]["streams"][1]["icmp"]) and t[0]["icmp_unmatched"] == 100'
check "none dropped on the way to the main lcore" 'sum(p["rx"]["icmp_drop"] for p in t[0]["ports"]) == 0'
finish
