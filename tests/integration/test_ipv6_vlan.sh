#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# IPv4 and IPv6 streams together on 802.1Q-tagged ports: every frame accounted.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "run" "$FWSTRESS" run -q -o "$WORK/report.json" "$HERE/ipv6-vlan.json"
check "four streams: upload, download, upload6, download6" \
	'[s["name"] for s in t[0]["streams"]] == ["upload", "download", "upload6", "download6"]'
for i in 0 1; do
	for s in 0 1 2 3; do
		S="t[$i][\"streams\"][$s]"
		check "trial $i stream $s: received == sent > 0, nothing lost or reordered" \
			"$S[\"received\"][\"distinct_frames\"] == $S[\"offered\"][\"frames\"] > 10000 and $S[\"lost\"] == $S[\"reordered\"] == $S[\"duplicated\"] == 0"
	done
	check "trial $i: every flow seen (100 IPv4, 300 IPv6)" \
		"[s[\"flows_seen\"] for s in t[$i][\"streams\"]] == [100, 100, 300, 300]"
	check "trial $i: no frame classified as foreign or bad" \
		"all(p[\"rx\"][\"non_test\"] == p[\"rx\"][\"bad_signature\"] == p[\"rx\"][\"truncated\"] == 0 for p in t[$i][\"ports\"])"
done
check "IPv6 flows in the normalised config" 'r["config"]["streams"][2]["flows"]["src_ip"] == "2001:2:0:1::1:100-2001:2:0:1::1:4ff" and r["config"]["streams"][3]["flows"]["dst_ip"] == "2001:2:0:1::1:100-2001:2:0:1::1:4ff"'
check "mix of 88/1518 at 3:1 averages 445.5 bytes" \
	'abs(t[1]["streams"][2]["offered"]["bytes"] / t[1]["streams"][2]["offered"]["frames"] - 445.5) < 1'
finish
