#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# IDS, IPS and blocklist through the firewall lab (tools/lab up ids | ips): beside a benign
# stream, an attack stream carries "uid=0(root)" after the signature and a third stream goes
# to networks of the DROP-format blocklist (config/drop-lab.txt). The lab's own counters are
# the oracle: the iptables string match counts exactly the attack frames fwstress sent, the
# nft blocklist counter exactly the blocklisted ones. IDS: the attack is delivered in full;
# IPS: blocked in full, no frame leaked. The same over TCP connections (the pattern in
# their data segments). Expecting an IPS from the IDS lab exits 8 and counts every leaked
# frame.
. "$(dirname "$0")/lab.sh"
lab_start nft iptables-nft

# cfg NAME LAB: the lab's config, one short trial, no warm-up or path check: every frame
# the lab counts is a measured one.
cfg() {
	python3 - "$TOP/config/lab-$2.json" "$WORK/$1.json" "$TOP" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(frame_size=128, duration=2, warmup=0, drain=0.5, path_check=False,
         blocklist=sys.argv[3] + "/config/" + c["blocklist"])
json.dump(c, open(sys.argv[2], "w"))
PY
}
ipt() { ip netns exec fwsl-dut iptables-nft -L FORWARD -v -x -n | awk '/fws-pattern/ {print $1}'; }
nftc() { ip netns exec fwsl-dut nft -j list counter inet fws_fw blocked | python3 -c 'import json,sys; print([x["counter"]["packets"] for x in json.load(sys.stdin)["nftables"] if "counter" in x][0])'; }
# run NAME: exit status in rc
run() {
	fws run -q -o "$WORK/$1-r.json" "$WORK/$1.json" >/dev/null 2>"$WORK/$1.err"
	rc=$?
}
S='{s["name"]: s for s in t[0]["streams"]}'
offered() { # REPORT STREAM: frames the stream sent in the measured phase
	python3 -c 'import json,sys; print([s for s in json.load(open(sys.argv[1]))["trials"][0]["streams"] if s["name"] == sys.argv[2]][0]["offered"]["frames"])' "$1" "$2"
}

for lab in ids ips; do
	"$LAB" down >/dev/null 2>&1
	lab_topo $lab || { bad "lab up $lab"; continue; }
	cfg $lab $lab
	run $lab
	[ $rc -eq 0 ] && ok "$lab: exit 0" || bad "$lab: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/$lab.err" | head -2)"
	check "$lab: benign stream delivered in full beside the attack" \
		"(b := $S[\"benign\"])[\"lost\"] == 0 and b[\"received\"][\"distinct_frames\"] == b[\"offered\"][\"frames\"] > 10000" "$WORK/$lab-r.json"
	check "$lab: benign download through NAT delivered in full too (both directions, as the labs publish)" \
		"(b := $S[\"benign-down\"])[\"lost\"] == 0 and b[\"received\"][\"distinct_frames\"] == b[\"offered\"][\"frames\"] > 10000 and b[\"nat\"][\"ok\"]" "$WORK/$lab-r.json"
	check "$lab: blocklisted stream 100 % blocked, nothing leaked, not counted as loss" \
		"(b := $S[\"blocklisted\"])[\"expected_blocked\"][\"leaked\"] == 0 and b[\"expected_blocked\"][\"blocked_pct\"] == 100 and b[\"expected_blocked\"][\"sent\"] == b[\"offered\"][\"frames\"] > 1000 and b[\"lost\"] == 0" "$WORK/$lab-r.json"
	sent=$(offered "$WORK/$lab-r.json" attack)
	blk=$(offered "$WORK/$lab-r.json" blocklisted)
	[ "$(ipt)" = "$sent" ] && ok "$lab: the lab's string match counted the $sent attack frames sent" ||
		bad "$lab: the string match counted $(ipt), fwstress sent $sent"
	[ "$(nftc)" = "$blk" ] && ok "$lab: the blocklist counter equals the $blk frames sent to it" ||
		bad "$lab: the blocklist counter is $(nftc), fwstress sent $blk"
done
check "ids: the attack stream delivered in full (detect only)" \
	"(a := $S[\"attack\"])[\"lost\"] == 0 and a[\"received\"][\"distinct_frames\"] == a[\"offered\"][\"frames\"] > 1000 and \"expected_blocked\" not in a" "$WORK/ids-r.json"
check "ips: the attack stream 100 % blocked, no frame leaked" \
	"(a := $S[\"attack\"])[\"expected_blocked\"][\"leaked\"] == 0 and a[\"expected_blocked\"][\"ok\"] and a[\"expected_blocked\"][\"sent\"] > 1000" "$WORK/ips-r.json"

# The same with TCP streams: connections through the firewall, the pattern in their data
# (with two sites each connection's client on site1, its server on site2).
for lab in ids ips; do
	"$LAB" down >/dev/null 2>&1
	lab_topo $lab || { bad "lab up $lab"; continue; }
	cfg $lab-tcp $lab
	python3 - "$WORK/$lab-tcp.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["l4"] = "tcp"
json.dump(c, open(sys.argv[1], "w"))
PY
	run $lab-tcp
	[ $rc -eq 0 ] && ok "$lab over TCP: exit 0" || bad "$lab over TCP: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/$lab-tcp.err" | head -2)"
	check "$lab over TCP: every connection opened (the blocklisted ones' SYNs dropped), the benign stream delivered in full" \
		'all(s["tcp"]["established"] == (0 if s["name"] == "blocklisted" else s["tcp"]["attempted"]) for s in t[0]["streams"]) and (b := '"$S"'["benign"])["lost"] == 0 and b["received"]["distinct_frames"] == b["offered"]["frames"] > 10000' "$WORK/$lab-tcp-r.json"
	sent=$(offered "$WORK/$lab-tcp-r.json" attack)
	[ "$(ipt)" = "$sent" ] && ok "$lab over TCP: the string match counted the $sent attack segments sent" ||
		bad "$lab over TCP: the string match counted $(ipt), fwstress sent $sent"
done
check "ids over TCP: the attack delivered in full" \
	'(a := '"$S"'["attack"])["lost"] == 0 and a["received"]["distinct_frames"] == a["offered"]["frames"] > 1000' "$WORK/ids-tcp-r.json"
check "ips over TCP: the attack 100 % blocked, no segment leaked" \
	'(a := '"$S"'["attack"])["expected_blocked"]["leaked"] == 0 and a["expected_blocked"]["sent"] > 1000' "$WORK/ips-tcp-r.json"

# The IPS expectation against the IDS: every attack frame leaks, exit 8 says so.
"$LAB" down >/dev/null 2>&1
lab_topo ids
cfg leak ips
run leak
[ $rc -eq 8 ] && grep -q "expectation failed: stream attack: .* frames to 16 flows expected blocked leaked" "$WORK/leak.err" &&
	ok "IPS expected, IDS found: exit 8 with the leak" || bad "IPS against IDS: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/leak.err" | head -2)"
check "IPS against IDS: every attack frame counted as leaked" \
	"(a := $S[\"attack\"])[\"expected_blocked\"][\"leaked\"] == a[\"expected_blocked\"][\"sent\"] > 1000 and a[\"expected_blocked\"][\"ok\"] is False" "$WORK/leak-r.json"

# The matrix cells carry the proof, and the matrix's notes follow it.
check "cells: the IPS trial's attack frames sent, none leaked" \
	'all(c["attack_frames"] == [s for s in t[0]["streams"] if s["name"] == "attack"][0]["offered"]["frames"] and c["attack_leaked"] == 0 and c["blocked_leaked"] == 0 for c in r["cells"])' "$WORK/ips-r.json"
check "cells: the IDS trial's attack frames sent, leaks not applicable" \
	'all(c["attack_frames"] > 1000 and c["attack_leaked"] is None for c in r["cells"])' "$WORK/ids-r.json"
leaked=$(python3 -c 'import json,sys; print([s for s in json.load(open(sys.argv[1]))["trials"][0]["streams"] if s["name"] == "attack"][0]["expected_blocked"]["leaked"])' "$WORK/leak-r.json")
# (With no loss or latency column, a fixed-load cell's notes start with its loss and
# latency; a trial sent both ways names its halves "bidir upload" and "bidir download".)
LL='loss [0-9.e+-]+ %(, latency p50 [0-9.]+ / p99 [0-9.]+ us)?'
# (An IPS that leaked its attack frames failed its expectation: no result, the leak named.)
"$FWSTRESS" report --columns l1,mpps,iperf,cpu "$WORK/leak-r.json" | grep -Eq "\| ips \| 128 \| fixed rate \| expectation failed \| - \| - \| .* \| (bidir )?upload: expectation failed: stream attack: $leaked of $leaked frames to 16 flows expected blocked leaked: NOT A RESULT[;|]" &&
	"$FWSTRESS" report --columns l1,mpps,iperf,cpu "$WORK/ids-r.json" | grep -Eq "\| ids \| 128 \| fixed rate \| .* \| (bidir )?upload: $LL, inspection not proven \(attack frames pass by design" &&
	"$FWSTRESS" report --columns l1,mpps,iperf,cpu "$WORK/ips-r.json" | grep -Eq "\| ips \| 128 \| fixed rate \| [^a-z]* \| (bidir )?(upload|download): $LL(; (bidir )?(upload|download): $LL)* \|\$" &&
	ok "matrix notes: the IPS that leaked no result, its leak counted; the IDS not proven; the tight IPS none" ||
	bad "matrix notes: $("$FWSTRESS" report "$WORK/leak-r.json" "$WORK/ids-r.json" "$WORK/ips-r.json")"
finish
