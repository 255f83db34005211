#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# What frames carry after the signature ("fill") and IPv4's don't-fragment bit ("df"), as
# tshark reads them from a pcap port: per stream, DF set where asked and clear elsewhere;
# a random fill that zlib cannot shrink and is the same in every frame of the run; zeros
# that shrink to almost nothing; a hex pattern repeated; the default counter; every IP and
# UDP checksum good. Frames with those fills still go through the loopback counted exactly.
. "$(dirname "$0")/lib.sh"

if ! command -v tshark >/dev/null; then
	bad "tshark is not installed (tools/setup installs it)"
	finish
	exit
fi
cat >"$WORK/fill.json" <<EOC
{
    "eal": ["-l", "0-1", "--no-pci", "--file-prefix", "fws-fill",
            "--vdev", "net_pcap0,tx_pcap=$WORK/fill.pcap", "--vdev", "net_null1,no-rx=1"],
    "ports": [{"name": "lan", "device": "net_pcap0"}, {"name": "wan", "device": "net_null1"}],
    "payload": {"fill": "random", "df": true},
    "streams": [
        {"name": "random", "tx_port": "lan", "rx_port": "wan", "flows": {"count": 2, "dst_port": 1001}},
        {"name": "zero", "tx_port": "lan", "rx_port": "wan", "fill": "zero", "df": false,
         "flows": {"count": 2, "dst_port": 1002}},
        {"name": "pattern", "tx_port": "lan", "rx_port": "wan", "fill": "0xc0ffee",
         "flows": {"count": 2, "dst_port": 1003}},
        {"name": "counter", "tx_port": "lan", "rx_port": "wan", "fill": "counter", "df": false,
         "flows": {"count": 2, "dst_port": 1004}}
    ],
    "frame_size": 1400, "rate": "2kpps", "duration": 0.2, "warmup": 0, "drain": 0,
    "path_check": false
}
EOC
expect_rc 0 "four fills on a pcap port" "$FWSTRESS" run -q -o "$WORK/r.json" "$WORK/fill.json"
tshark -r "$WORK/fill.pcap" -o udp.check_checksum:TRUE -o ip.check_checksum:TRUE -T fields \
	-e udp.dstport -e ip.flags.df -e ip.checksum.status -e udp.checksum.status -e data.data \
	>"$WORK/fill.txt" 2>/dev/null
python3 - "$WORK/fill.txt" <<'PY' && ok "tshark: DF per stream, checksums good; random incompressible and the same in every frame, zeros shrink, the pattern repeats, the counter counts" || bad "tshark: $(cut -c1-120 "$WORK/fill.txt" | head -4)"
import sys, zlib
# tshark 4.4 (Debian 13) prints a flag as True/False, 3.6 (Debian 12) as 1/0.
flag = {"True": "1", "False": "0"}
rows = [[flag.get(f, f) for f in l.rstrip("\n").split("\t")] for l in open(sys.argv[1]) if l.strip()]
by = {}
for port, df, ipc, udpc, data in rows:
    assert ipc == "1" and udpc == "1", (port, ipc, udpc)
    by.setdefault(port, []).append((df, bytes.fromhex(data)[18:]))  # after the signature
assert sorted(by) == ["1001", "1002", "1003", "1004"] and all(len(v) > 50 for v in by.values()), {k: len(v) for k, v in by.items()}
assert all(df == "1" for df, _ in by["1001"] + by["1003"]) and all(df == "0" for df, _ in by["1002"] + by["1004"])
rnd = {p for _, p in by["1001"]}
assert len(rnd) == 1, "random fill differs between frames"
r = rnd.pop()
assert len(zlib.compress(r, 9)) >= 0.98 * len(r), len(zlib.compress(r, 9))
z = by["1002"][0][1]
assert z == bytes(len(z)) and len(zlib.compress(z, 9)) < 0.05 * len(z)
pat = by["1003"][0][1]
assert all(pat[i] == pat[i % 3] for i in range(len(pat))) and set(pat[:3]) <= {0xc0, 0xff, 0xee}, pat[:6].hex()
cnt = by["1004"][0][1]
assert len({(cnt[i + 1] - cnt[i]) % 256 for i in range(len(cnt) - 1)}) == 1  # a counter
PY

# Through the loopback: every frame of every fill accounted.
sed -e 's|"eal": .*|"eal": ["-l", "0-1", "--no-pci"],|' -e '/--vdev/d' \
	-e 's|"ports": .*|"ports": [{"name": "lan", "device": "ringpair:fill:a"}, {"name": "wan", "device": "ringpair:fill:b"}],|' \
	"$WORK/fill.json" >"$WORK/loop.json"
expect_rc 0 "four fills through the loopback" "$FWSTRESS" run -q -o "$WORK/l.json" "$WORK/loop.json"
check "loopback: every frame of every fill received, none lost" \
	'len(t[0]["streams"]) == 4 and all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 300 for s in t[0]["streams"])' "$WORK/l.json"

# A tunnel scenario: its overhead per frame size on the report, worked out by hand.
sed -e 's|"payload": {"fill": "random", "df": true},|"scenario": "wireguard",|' \
	-e 's|"frame_size": 1400,|"frame_size": [64, 1438, 1446],|' "$WORK/loop.json" >"$WORK/wg.json"
expect_rc 0 "the wireguard scenario through the loopback" "$FWSTRESS" run -q -o "$WORK/wg-r.json" "$WORK/wg.json"
check "wireguard: 126, 1498 and 1518 bytes on the encrypted link per 64, 1438 and 1446-byte frame (60 + the packet padded to 16, not past the 1420 MTU, + 18)" \
	'[tr["streams"][0]["tunnel"]["link_frame_bytes"] for tr in t] == [126, 1498, 1518] and all(0 < tr["streams"][0]["tunnel"]["line_share"] < 0.1 for tr in t) and r["config"]["tunnel"] == {"kind": "wireguard", "overhead": 60, "mtu": 1420}' "$WORK/wg-r.json"
finish
