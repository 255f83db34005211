#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# TCP test traffic (engine "tcp", the host feature in lib/host/feat_tcp.c) through the in-memory loopback, both ways:
# every connection opens (SYN, SYN-ACK, ACK, the receiver's window), carries data segments
# counted by signature like UDP, is ACKed and closes with FIN answered by FIN; a mix moves
# the sequence numbers by segments of different sizes. Frame sizes a TCP segment with a
# signature cannot have are refused with the minimum. Then tshark dissects what the tester
# sends (a pcap port, no peer: the SYNs go unanswered and time out, the data is still sent):
# the SYN's options, valid TCP checksums, sequence numbers that advance by each payload.
. "$(dirname "$0")/lib.sh"

"$FWSTRESS" run -q -o "$WORK/report.json" "$HERE/tcp-loopback.json" >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "run: exit 0" || bad "run: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/out" | tail -3)"
check "every connection opened and closed with FIN, in every trial and both directions" \
	'len(t) == 3 and all(s["tcp"]["established"] == s["tcp"]["attempted"] == s["tcp"]["closed"] == 32 and s["tcp"]["failed"] == {"rst": 0, "timeout": 0} for tr in t for s in tr["streams"])'
check "every data segment delivered, none lost, none waiting for the window" \
	'all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 100000 and s["tcp"]["window_full"] == 0 for tr in t for s in tr["streams"])'
check "the receivers ACKed, the senders got them (and one window update each)" \
	'all(s["tcp"]["acks_sent"] > 32 and s["tcp"]["acks_received"] == s["tcp"]["acks_sent"] + 32 for tr in t for s in tr["streams"])'
check "the smallest TCP frame reported: 88 bytes" 'all(s["tcp"]["min_frame"] == 88 for s in t[0]["streams"])'
check "cells: the goodput column measured, the TCP payload rate (frame less 70 bytes of headers and FCS)" \
	'len(r["cells"]) == 6 and all(c["goodput_measured"] == 1 and abs(c["goodput_derived_bps"] - c["pps"] * (c["avg_frame"] - 70) * 8) < 1 for c in r["cells"])'
check "bidir: the download connections use the next server port" \
	'[s["flows"]["src_port"] for s in r["config"]["streams"] if s["name"] == "download"] == [5002]'

# IPv6 connections beside IPv4 ones: 108 bytes is the smallest IPv6 segment with a signature.
sed 's/"frame_size": .*,$/"frame_size": [108, 1518],/; s/"direction": "bidir",/"direction": "bidir", "flows6": {"count": 8},/' \
	"$HERE/tcp-loopback.json" >"$WORK/v6.json"
"$FWSTRESS" run -q -o "$WORK/v6-r.json" "$WORK/v6.json" >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "IPv6 beside IPv4: exit 0" || bad "v6: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/out" | tail -3)"
check "IPv6: every connection opened and closed, every segment delivered, 108-byte minimum" \
	'len(t[0]["streams"]) == 4 and all(s["tcp"]["established"] == s["tcp"]["closed"] == (8 if s["name"].endswith("6") else 32) and s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 50000 and s["tcp"]["min_frame"] == (108 if s["name"].endswith("6") else 88) for tr in t for s in tr["streams"])' "$WORK/v6-r.json"

# Sizes a TCP segment with a signature cannot have.
sed 's/"frame_size": .*,$/"frame_size": [87],/' "$HERE/tcp-loopback.json" >"$WORK/small.json"
"$FWSTRESS" validate "$WORK/small.json" >/dev/null 2>"$WORK/err"; rc=$?
[ $rc -eq 2 ] && grep -q "87 is below the 88-byte minimum of stream \"upload\" (Ethernet/IPv4/TCP with timestamps with the 18-byte signature)" "$WORK/err" &&
	ok "87 bytes refused, the 88-byte minimum named" || bad "small: $rc $(cat "$WORK/err")"
sed 's/"frame_size": .*,$/"frame_size": [1519],/' "$HERE/tcp-loopback.json" >"$WORK/big.json"
"$FWSTRESS" validate "$WORK/big.json" >/dev/null 2>"$WORK/err"; rc=$?
[ $rc -eq 2 ] && grep -q "1519 is above the 1518-byte largest TCP segment" "$WORK/err" &&
	ok "1519 bytes refused: above the MSS" || bad "big: $rc $(cat "$WORK/err")"

if ! command -v tshark >/dev/null; then
	bad "tshark is not installed (tools/setup installs it)"
	finish
	exit
fi
cat >"$WORK/pcap.json" <<EOC
{
    "eal": ["-l", "0-1", "--no-pci", "--file-prefix", "fws-tcp",
            "--vdev", "net_pcap0,tx_pcap=$WORK/tcp.pcap", "--vdev", "net_null1,no-rx=1"],
    "ports": [{"name": "lan", "device": "net_pcap0"}, {"name": "wan", "device": "net_null1"}],
    "l4": "tcp",
    "flows": {"count": 4},
    "frame_size": {"name": "tcp-imix", "mix": [[88, 7], [576, 4], [1518, 1]]},
    "rate": "20kpps",
    "duration": 0.2,
    "warmup": 0,
    "drain": 0,
    "path_check": false
}
EOC
"$FWSTRESS" run -q -o "$WORK/p.json" "$WORK/pcap.json" >"$WORK/out" 2>&1 || bad "pcap run: $(tail -2 "$WORK/out")"
check "no peer: every handshake timed out, counted with its reason" \
	'(c := t[0]["streams"][0]["tcp"])["failed"]["timeout"] == 4 and c["established"] == 0' "$WORK/p.json"
tshark -r "$WORK/tcp.pcap" -o tcp.check_checksum:TRUE -o tcp.relative_sequence_numbers:FALSE -T fields \
	-e tcp.flags.syn -e tcp.options.mss_val -e tcp.options.wscale.shift -e tcp.options.timestamp.tsval \
	-e tcp.checksum.status -e tcp.seq -e tcp.len -e tcp.stream -E separator=, >"$WORK/tcp.txt" 2>"$WORK/tshark.err"
python3 - "$WORK/tcp.txt" <<'PY' && ok "tshark: 3 SYNs per unanswered connection, with MSS 1460, window scale 8, timestamps; every checksum good; sequence numbers advance by each payload" || bad "tshark: $(head -5 "$WORK/tcp.txt")"
import sys
# tshark 4.4 (Debian 13) prints a flag as True/False, 3.6 (Debian 12) as 1/0.
flag = {"True": "1", "False": "0"}
rows = [[flag.get(f, f) for f in l.rstrip("\n").split(",")] for l in open(sys.argv[1]) if l.strip()]
syn = [r for r in rows if r[0] == "1"]
data = [r for r in rows if r[0] == "0"]
assert len(syn) == 12 and all(r[1] == "1460" and r[2] == "8" and r[3] for r in syn), syn[:3]
assert all(r[4] == "1" for r in rows), [r for r in rows if r[4] != "1"][:3]  # 1: good
nxt = {}
for r in data:
    s, seq, ln = r[7], int(r[5]), int(r[6])
    assert ln > 0
    if s in nxt:
        assert seq == nxt[s], (s, seq, nxt[s])
    nxt[s] = (seq + ln) % (1 << 32)
assert len(data) > 1000 and len(nxt) == 4, (len(data), len(nxt))
PY

# Application preambles: a ClientHello naming the SNI, an HTTP request naming the Host,
# each a connection's first data segment, read back by tshark's TLS and HTTP dissectors.
cat >"$WORK/app.json" <<EOC
{
    "eal": ["-l", "0-1", "--no-pci", "--file-prefix", "fws-tcp-app",
            "--vdev", "net_pcap0,tx_pcap=$WORK/app.pcap", "--vdev", "net_null1,no-rx=1"],
    "ports": [{"name": "lan", "device": "net_pcap0"}, {"name": "wan", "device": "net_null1"}],
    "l4": "tcp",
    "streams": [
        {"name": "tls", "tx_port": "lan", "rx_port": "wan", "app": {"tls_sni": "video.fwstress.test"},
         "flows": {"count": 3, "dst_port": 443}},
        {"name": "web", "tx_port": "lan", "rx_port": "wan", "app": {"http_host": "www.fwstress.test"},
         "flows": {"count": 2, "src_ip": "198.18.9.1-198.18.9.2", "dst_port": 80}}
    ],
    "frame_size": 128, "rate": "1kpps", "duration": 0.1, "warmup": 0, "drain": 0,
    "path_check": false
}
EOC
"$FWSTRESS" run -q -o "$WORK/a.json" "$WORK/app.json" >"$WORK/out" 2>&1 || bad "app run: $(tail -2 "$WORK/out")"
check "every connection sent its preamble" \
	'[s["tcp"]["preambles"]["sent"] for s in t[0]["streams"]] == [3, 2]' "$WORK/a.json"
sni=$(tshark -r "$WORK/app.pcap" -d tcp.port==443,tls -Y tls.handshake.type==1 -T fields \
	-e tls.handshake.extensions_server_name -e tls.handshake.version 2>/dev/null | sort | uniq -c | awk '{$1=$1; print}')
host=$(tshark -r "$WORK/app.pcap" -Y http.request -T fields -e http.host -e http.request.method 2>/dev/null | sort | uniq -c | awk '{$1=$1; print}')
[ "$sni" = "3 video.fwstress.test 0x0303" ] && ok "tshark: 3 ClientHellos, SNI video.fwstress.test" || bad "tshark TLS: $sni"
[ "$host" = "2 www.fwstress.test GET" ] && ok "tshark: 2 HTTP GET requests, Host www.fwstress.test" || bad "tshark HTTP: $host"
echo '{"ports": [{"name": "a", "device": "net_null0"}], "streams": [{"name": "s", "tx_port": "a", "rx_port": "a", "app": {"tls_sni": "x"}}]}' >"$WORK/udpapp.json"
"$FWSTRESS" validate "$WORK/udpapp.json" >/dev/null 2>"$WORK/err"
grep -q '"app" opens TCP connections: it needs "l4": "tcp"' "$WORK/err" && ok "an app on a UDP stream: refused" || bad "app on udp: $(cat "$WORK/err")"
finish
