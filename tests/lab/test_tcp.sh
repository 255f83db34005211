#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# TCP through the stateful NAT firewall (tools/lab up firewall: strict tracking,
# nf_conntrack_tcp_loose=0 and nf_conntrack_tcp_be_liberal=0, invalid packets dropped and
# counted). Both directions at once, then each alone, then IPv6 beside IPv4 (routed): every
# connection opens through the
# masquerade, delivers every data segment, is ACKed past the firewall's window checks and
# closes with FIN (conntrack shows each in TIME_WAIT); the translations fwstress followed
# equal conntrack -L flow for flow. Then data segments with sequence numbers 2^30 beyond
# what the receiver allowed: the firewall drops every one as invalid, its counter equals
# the segments sent and the FINs (each sent twice), and fwstress counts them all lost.
. "$(dirname "$0")/lab.sh"
lab_start nft conntrack
lab_topo firewall || { bad "lab up firewall"; finish; exit 1; }

# cfg NAME DIRECTION WARMUP [SEQ_OFFSET]: the lab's firewall config with TCP, short trials.
cfg() {
	python3 - "$TOP/config/lab-firewall.json" "$WORK/$1.json" "$2" "$3" "${4:-0}" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(l4="tcp", direction=sys.argv[3], frame_size=[128, 1518], duration=2,
         warmup=float(sys.argv[4]), drain=0.5)
if int(sys.argv[5]):
    c.update(tcp={"seq_offset": int(sys.argv[5])}, frame_size=128, path_check=False)
json.dump(c, open(sys.argv[2], "w"))
PY
}
invalid() {
	ip netns exec fwsl-dut nft -j list counter inet fws_fw invalid | python3 -c 'import json,sys; print([x["counter"]["packets"] for x in json.load(sys.stdin)["nftables"] if "counter" in x][0])'
}

cfg bidir bidir 0.3
ip netns exec fwsl-dut conntrack -F >/dev/null 2>&1
inv0=$(invalid)
fws run -q -o "$WORK/report.json" "$WORK/bidir.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && ok "bidir TCP through the NAT firewall: exit 0" || bad "bidir: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | head -3)"
check "every connection opened and closed with FIN, both directions, both sizes" \
	'len(t) == 2 and all(s["tcp"]["established"] == s["tcp"]["closed"] == 64 for tr in t for s in tr["streams"])'
check "every data segment delivered, none lost" \
	'all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 15000 for tr in t for s in tr["streams"])'
check "NAT: upload source-translated, download delivered to the connections it answers" \
	'all(s["nat"]["ok"] and s["nat"]["flows_seen"] == 64 for tr in t for s in tr["streams"]) and t[0]["streams"][1]["nat"]["learned"] == 64'
[ "$(invalid)" = "$inv0" ] && ok "strict tracking: the firewall found no segment invalid" || bad "invalid segments: $(($(invalid) - inv0))"
ip netns exec fwsl-dut conntrack -L -p tcp 2>/dev/null >"$WORK/conntrack"
[ "$(grep -c 'TIME_WAIT .*\[ASSURED\]' "$WORK/conntrack")" -eq 128 ] &&
	ok "conntrack: the 128 connections closed (TIME_WAIT, ASSURED)" || bad "conntrack: $(head -3 "$WORK/conntrack")"
python3 - "$WORK/report.json" "$WORK/conntrack" <<'PY' && ok "conntrack -L: the translations equal fwstress's flow for flow, both directions" || bad "translations differ: $(cat "$WORK/cmp" 2>/dev/null | head -c 300)"
import json, re, sys
kernel = {}
for line in open(sys.argv[2]):
    m = re.findall(r"src=(\S+) dst=(\S+) sport=(\d+) dport=(\d+)", line)
    if len(m) == 2:
        (osrc, odst, osp, odp), (rsrc, rdst, rsp, rdp) = m
        kernel[(odp, f"{osrc}:{osp}")] = f"{rdst}:{rdp}"
r = json.load(open(sys.argv[1]))
s = {x["name"]: x for x in r["trials"][-1]["streams"]}
# Upload: [sent src, sent dst, arrived src (translated), arrived dst]. Download: sent to the
# translation, arrived at the client's own address.
ours = {("5001", f[0]): f[2] for f in s["upload"]["nat"]["flows"]}
ours.update({("5002", f[3]): f[1] for f in s["download"]["nat"]["flows"]})
mine = {k: v for k, v in kernel.items() if k in ours}
diff = {k: (kernel.get(k), ours[k]) for k in ours if kernel.get(k) != ours[k]}
open(sys.argv[2] + ".cmp", "w").write(repr(diff))
sys.exit(0 if len(ours) == 128 and not diff else 1)
PY
cp "$WORK/conntrack.cmp" "$WORK/cmp" 2>/dev/null

# Each direction alone: upload, and download (its connections opened from the LAN, the
# data sent back to where each SYN came from).
for dir in upload download; do
	cfg $dir $dir 0.3
	fws run -q -o "$WORK/$dir-r.json" "$WORK/$dir.json" >/dev/null 2>"$WORK/err"
	rc=$?
	[ $rc -eq 0 ] && ok "$dir alone: exit 0" || bad "$dir alone: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | head -2)"
	check "$dir alone: 64 connections opened and closed, every segment delivered, NAT as expected" \
		'len(t[0]["streams"]) == 1 and all(s["tcp"]["established"] == s["tcp"]["closed"] == 64 and s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 15000 and s["nat"]["ok"] for tr in t for s in tr["streams"])' "$WORK/$dir-r.json"
done

# IPv6 beside IPv4 (routed, not translated), both directions.
cfg v6 bidir 0.3
python3 - "$WORK/v6.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.update(flows6={"count": 16}, frame_size=[128, 1518])
json.dump(c, open(sys.argv[1], "w"))
PY
inv0=$(invalid)
fws run -q -o "$WORK/v6-r.json" "$WORK/v6.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && ok "IPv4 and IPv6 TCP both ways: exit 0" || bad "v6: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | head -2)"
check "IPv6 TCP: every connection opened and closed, every segment delivered, as IPv4 beside it" \
	'sorted(s["name"] for s in t[0]["streams"]) == ["download", "download6", "upload", "upload6"] and all(s["tcp"]["established"] == s["tcp"]["closed"] == (16 if s["name"].endswith("6") else 64) and s["tcp"]["min_frame"] == (108 if s["name"].endswith("6") else 88) and s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 15000 for tr in t for s in tr["streams"])' "$WORK/v6-r.json"
[ "$(invalid)" = "$inv0" ] && ok "IPv6 TCP: the firewall found no segment invalid" || bad "v6 invalid segments: $(($(invalid) - inv0))"

# Wrong sequence numbers: the firewall must drop them, and fwstress must see it.
cfg wrong upload 0 $((1 << 30))
inv0=$(invalid)
fws run -q -o "$WORK/wrong.json" "$WORK/wrong.json" >/dev/null 2>"$WORK/err"
rc=$?
inv1=$(invalid)
[ $rc -eq 0 ] && ok "wrong sequence numbers: the run completes (exit 0)" || bad "wrong seq: exit $rc"
check "wrong sequence numbers: every segment lost, no connection closed" \
	'(s := t[0]["streams"][0])["received"]["distinct_frames"] == 0 and s["lost"] == s["offered"]["frames"] > 15000 and s["tcp"]["established"] == 64 and s["tcp"]["closed"] == 0' "$WORK/wrong.json"
sent=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trials"][0]["streams"][0]["offered"]["frames"])' "$WORK/wrong.json")
# Each FIN goes twice: unanswered, it is sent once more after 0.5 s.
[ $((inv1 - inv0)) -eq $((sent + 128)) ] &&
	ok "the firewall's invalid counter: the $sent segments sent and the 64 FINs twice" ||
	bad "invalid counter rose by $((inv1 - inv0)), fwstress sent $sent segments and 64 FINs twice"
finish
