#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Through a stateful NAT firewall (tools/lab up firewall: nftables, masquerade on WAN, new
# WAN->LAN dropped). With "nat": "masquerade" fwstress learns each LAN flow's public address
# and port before every trial and sends the download there: upload, download and bidir
# deliver every frame, every flow is learned, and the translations fwstress saw equal the
# kernel's own (conntrack -L) flow for flow. The expectations can fail: "nat": "none" against
# this firewall exits 8 naming the translated flows, and a download without learning never
# passes the firewall (the path check stops it, the firewall's drop counter shows why).
. "$(dirname "$0")/lab.sh"
lab_start nft conntrack
"$LAB" up firewall >/dev/null || { bad "lab up firewall"; finish; exit 1; }

# cfg NAME DIRECTION NAT: the lab's firewall config, one short trial.
cfg() {
	python3 - "$TOP/config/lab-firewall.json" "$WORK/$1.json" "$2" "$3" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(direction=sys.argv[3], frame_size=128, duration=2, warmup=0.3, drain=0.5)
if sys.argv[4] == "-":
    c.pop("nat")
    c["scenario"] = "routing"  # "firewall" would preset the NAT learning back
else:
    c["nat"] = sys.argv[4]
json.dump(c, open(sys.argv[2], "w"))
PY
}
run() { # NAME: run it, exit status in $rc
	"$LAB" exec "$FWSTRESS" run -q -o "$WORK/$1-r.json" "$WORK/$1.json" >/dev/null 2>"$WORK/$1.err"
	rc=$?
}

for dir in bidir upload download; do
	cfg $dir $dir masquerade
	ip netns exec fwsl-dut conntrack -F >/dev/null 2>&1
	run $dir
	[ $rc -eq 0 ] && ok "$dir through NAT: exit 0" || bad "$dir: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/$dir.err" | head -3)"
	check "$dir: every measured stream delivered every frame, NAT as expected" \
		'all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 10000 and s["nat"]["ok"] and s["nat"]["flows_seen"] == 64 for s in t[0]["streams"] if "nat" in s) and len([s for s in t[0]["streams"] if "nat" in s]) == (2 if "'$dir'" == "bidir" else 1)' \
		"$WORK/$dir-r.json"
done
check "upload: every flow source-translated to the firewall's WAN address" \
	'(n := t[0]["streams"][0]["nat"])["src_translated"] == 64 and n["distinct_src_addresses"] == 1 and all(f[2].startswith("198.19.0.1:") for f in n["flows"])' \
	"$WORK/upload-r.json"
check "download alone: a learn-only stream taught all 64 flows" \
	'(s := [x for x in t[0]["streams"] if x["name"] == "download"][0])["nat"]["learned"] == 64 and s["nat"]["dst_translated"] == 64 and any(x["name"] == "learn-download" for x in r["config"]["streams"])' \
	"$WORK/download-r.json"

# Flow for flow: the kernel's translation of each LAN flow equals what fwstress saw arrive.
conntrack_matches "$WORK/download-r.json" && ok "conntrack -L: 64 translations, equal flow for flow to the learned ones" || bad "conntrack differs: $(head -c 300 "$WORK/cmp")"

# Expecting no NAT through a NAT: exit 8, and the reason names the translated flows.
cfg none upload none
run none
[ $rc -eq 8 ] && grep -q "expectation failed: stream upload: NAT: 64 of 64 flows seen arrived translated" "$WORK/none.err" &&
	ok "\"nat\": \"none\" through the NAT: exit 8 with the reason" ||
	bad "\"nat\": \"none\": exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/none.err" | head -2)"
check "\"nat\": \"none\": the report says why" \
	'(n := t[0]["streams"][0]["nat"])["ok"] is False and "arrived translated" in n["reason"]' "$WORK/none-r.json"

# Download with no learning: the firewall drops new WAN->LAN, the path check stops the run.
drop0=$(ip netns exec fwsl-dut nft -j list counter inet fws_fw wan_new_dropped | python3 -c 'import json,sys; print([x["counter"]["packets"] for x in json.load(sys.stdin)["nftables"] if "counter" in x][0])')
cfg nolearn download -
run nolearn
drop1=$(ip netns exec fwsl-dut nft -j list counter inet fws_fw wan_new_dropped | python3 -c 'import json,sys; print([x["counter"]["packets"] for x in json.load(sys.stdin)["nftables"] if "counter" in x][0])')
[ $rc -eq 6 ] && [ $((drop1 - drop0)) -eq 50 ] &&
	ok "download without NAT learning: path check failed, the firewall dropped the 50 probes" ||
	bad "download without learning: exit $rc, firewall dropped $((drop1 - drop0))"

# IPv6 beside IPv4 (no NAT66): the NAT map names IPv6 flows as [addr]:port, and they are
# conntrack's IPv6 entries, flow for flow.
python3 - "$TOP/config/lab-firewall.json" "$WORK/v6.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(flows6={"count": 16, "ip": 6}, frame_size=256)
json.dump(c, open(sys.argv[2], "w"))
PY
ip netns exec fwsl-dut conntrack -F >/dev/null 2>&1
run v6
[ $rc -eq 0 ] && ok "IPv6 beside IPv4 through the firewall: exit 0" || bad "v6: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/v6.err" | head -2)"
ip netns exec fwsl-dut conntrack -L -f ipv6 -p udp 2>/dev/null >"$WORK/conntrack6"
python3 - "$WORK/v6-r.json" "$WORK/conntrack6" <<'PY' && ok "NAT map: IPv6 flows as [addr]:port, equal to conntrack -L -f ipv6 (16 flows)" || bad "IPv6 NAT map differs from conntrack"
import json, re, sys
kernel = set()
for line in open(sys.argv[2]):
    m = re.findall(r"src=(\S+) dst=(\S+) sport=(\d+) dport=(\d+)", line)
    if len(m) == 2 and m[0][0].startswith("2001:2:0:1::"):
        kernel.add(("[%s]:%s" % (m[0][0], m[0][2]), "[%s]:%s" % (m[0][1], m[0][3])))
r = json.load(open(sys.argv[1]))
up6 = [s for s in r["trials"][0]["streams"] if s["name"] == "upload6"][0]["nat"]["flows"]
ours = {(f[0], f[1]) for f in up6}
print("   ", len(kernel), "in conntrack,", len(ours), "in the map, e.g.", sorted(ours)[:1])
sys.exit(0 if len(ours) == 16 and ours == kernel and all(f[0] == f[2] and f[1] == f[3] for f in up6) else 1)
PY
finish
