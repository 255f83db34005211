#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Throughput under a SYN flood (RFC 3511 5.5) through the lab's NAT firewall, its packet
# budget limited to 20000/s in all (FWS_LAB_FWD_BUDGET: a small appliance's CPU): a benign
# UDP stream at 5 kpps beside SYNs from 60000 spoofed sources (config/lab-synflood.json).
#   - at 2000 SYNs/s: the benign stream loses nothing, every SYN passes (masqueraded), the
#     firewall's budget counter drops nothing;
#   - at 40000 SYNs/s: the benign stream loses frames, the report shows its loss and latency
#     beside the flood's rate and the SYNs that passed, and what the two streams lost
#     together is exactly what the firewall's over_budget counter dropped;
#   - the matrix cell of the benign stream carries the flood and says so in its notes.
. "$(dirname "$0")/lab.sh"
lab_start nft conntrack
FWS_LAB_FWD_BUDGET=20000 "$LAB" up firewall >/dev/null || { bad "lab up firewall"; finish; exit 1; }

# cfg NAME FLOOD-RATE: the lab's SYN flood config, no warm-up (every frame measured).
cfg() {
	python3 - "$TOP/config/lab-synflood.json" "$WORK/$1.json" "$2" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(warmup=0, duration=2, drain=0.5)
c["streams"][1]["rate"] = sys.argv[3]
json.dump(c, open(sys.argv[2], "w"))
PY
}
budget() {
	ip netns exec fwsl-dut nft -j list counter inet fws_fw over_budget | python3 -c 'import json,sys; print([x["counter"]["packets"] for x in json.load(sys.stdin)["nftables"] if "counter" in x][0])'
}

for rate in 2kpps 40kpps; do
	cfg "$rate" "$rate"
	b0=$(budget)
	expect_rc 0 "$rate SYN flood beside 5 kpps benign" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/$rate.r.json" "$WORK/$rate.json"
	eval "drops_$rate=\$((\$(budget) - b0))"
done
check "2 kpps flood: the benign stream lost nothing; every SYN passed, source-translated" \
	'(lambda s: s["benign"]["lost"] == 0 and s["benign"]["received"]["distinct_frames"] == s["benign"]["offered"]["frames"] > 9000 and s["flood"]["syn_flood"]["passed"] == s["flood"]["syn_flood"]["sent"] > 3900 and s["flood"]["nat"]["ok"])({x["name"]: x for x in t[0]["streams"]})' "$WORK/2kpps.r.json"
[ "$drops_2kpps" -eq 0 ] && ok "2 kpps flood: the firewall's budget dropped nothing" || bad "2 kpps flood: over_budget dropped $drops_2kpps"
check "40 kpps flood: the benign stream lost frames; the report gives its loss and latency beside the flood's rate and the SYNs that passed" \
	'(lambda s: s["benign"]["lost"] > 1000 and s["benign"]["loss_pct"] > 5 and s["benign"]["latency_ns"]["count"] > 0 and 39000 < s["flood"]["syn_flood"]["pps"] < 41000 and 0 < s["flood"]["syn_flood"]["passed"] < s["flood"]["syn_flood"]["sent"])({x["name"]: x for x in t[0]["streams"]})' "$WORK/40kpps.r.json"
python3 - "$WORK/40kpps.r.json" "$drops_40kpps" <<'PY' && ok "40 kpps flood: benign lost + SYNs blocked = the firewall's over_budget drops ($drops_40kpps)" || bad "40 kpps flood: over_budget $drops_40kpps differs from fwstress's losses"
import json, sys
s = json.load(open(sys.argv[1]))["trials"][0]["streams"]
sys.exit(0 if sum(x["lost"] for x in s) == int(sys.argv[2]) else 1)
PY
check "40 kpps flood: one matrix cell (benign), carrying the flood's rate and the SYNs that passed" \
	'len(r["cells"]) == 1 and r["cells"][0]["stream"] == "benign" and 39000 < r["cells"][0]["syn_flood_pps"] < 41000 and r["cells"][0]["syn_flood_passed"] == t[0]["streams"][1]["syn_flood"]["passed"]' "$WORK/40kpps.r.json"
"$FWSTRESS" report "$WORK/40kpps.r.json" >"$WORK/md" 2>&1
grep -Eq "under a SYN flood of (399[0-9][0-9]|40[0-9]{3})/s, [0-9]+ SYNs passed" "$WORK/md" && ok "the matrix notes the flood" || bad "matrix: $(head -c 400 "$WORK/md")"
finish
