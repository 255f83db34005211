#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Steadiness within a trial (issue 36 item 3), against the routing lab's router: the
# measured phase's seconds (trials[].seconds, what the live line shows) and their band.
#  - As it is, at 10 kpps: every second within +/-5 % of the mean, the cell steady, and the
#    seconds' receive rates add up to the frames nftables counted at the router's egress.
#  - The router halved late in an 8-second trial (nftables numgen inc mod 2 drop at its
#    egress, added when the live statistics show the fifth second of the measured phase):
#    the cell UNSTEADY, its worst second after the rule, the seconds after it received half
#    of what they sent, the frames the seconds lost add up to nftables' drop counter (within
#    5 %: each second is a rate over the host's own second) and the trial's loss equals it.
#  - Asked for more than the tester sends (3 Mpps through af_packet): every second is
#    generator-limited, none counts as the DUT's unsteadiness.
. "$(dirname "$0")/lab.sh"

routing_upload "$WORK/lab.json" '{"duration": 6}'
egress fwsl_steady "counter"
expect_rc 0 "steady: 6 s at 10 kpps through the router" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/steady.json" -t "$WORK/steady.txt" "$WORK/lab.json"
fwd=$(egress_count fwsl_steady)
ip netns exec fwsl-dut nft delete table netdev fwsl_steady
check "steady: 6 seconds kept, each within the 5 % band, the cell steady" \
	'len(t[0]["seconds"]["rx_pps"]) == 6 and not t[0]["seconds"]["unsteady"] and t[0]["seconds"]["outside_band"] == 0 and r["cells"][0]["unsteady"] == 0 and r["cells"][0]["worst_second_pct"] < 5' "$WORK/steady.json"
check "steady: the seconds' receive rates add up to the $fwd frames the router forwarded (within 1 %)" \
	"abs(sum(t[0]['seconds']['rx_pps']) - $fwd) <= 0.01 * $fwd and $fwd > 50000" "$WORK/steady.json"
grep -q "seconds: 6 measured, .* steady within +/-5 %" "$WORK/steady.txt" &&
	ok "steady: the text report says so" || bad "steady text: $(grep seconds: "$WORK/steady.txt")"

# Halved late: the rule goes in when the live line shows 4.5 s of the measured phase.
sed 's/"duration": 6/"duration": 8/' "$WORK/lab.json" >"$WORK/dip-cfg.json"
"$LAB" exec "$FWSTRESS" run -q -o "$WORK/dip.json" -t "$WORK/dip.txt" --stats "$WORK/dip.ndjson" "$WORK/dip-cfg.json" 2>"$WORK/dip.err" &
pid=$!
measured_for "$WORK/dip.ndjson" 4.5
egress fwsl_steady "numgen inc mod 2 == 0 counter drop"
wait $pid
rc=$?
dropped=$(egress_count fwsl_steady)
ip netns exec fwsl-dut nft delete table netdev fwsl_steady
[ $rc -eq 0 ] && ok "dip: exit 0" || bad "dip: exit $rc: $(tail -3 "$WORK/dip.err")"
check "dip: UNSTEADY, its worst second after the rule (sixth or later), the cell says so" \
	't[0]["seconds"]["unsteady"] and t[0]["seconds"]["worst"]["second"] >= 6 and t[0]["seconds"]["worst"]["deviation_pct"] < -20 and r["cells"][0]["unsteady"] == 1' "$WORK/dip.json"
check "dip: the seconds after the rule's received half of what they sent (within 3 %)" \
	'all(abs(rx / tx - 0.5) < 0.03 for tx, rx in list(zip(t[0]["seconds"]["tx_pps"], t[0]["seconds"]["rx_pps"]))[6:]) and len(t[0]["seconds"]["rx_pps"]) == 8' "$WORK/dip.json"
check "dip: the seconds' lost frames add up to nftables' $dropped drops (within 5 %), the trial lost exactly those" \
	"abs(sum(a - b for a, b in zip(t[0]['seconds']['tx_pps'], t[0]['seconds']['rx_pps'])) - $dropped) <= 0.05 * $dropped and $dropped > 10000 and t[0]['streams'][0]['lost'] == $dropped" "$WORK/dip.json"
grep -q "seconds: 8 measured, .*UNSTEADY: [0-9]* seconds\? outside +/-5 %" "$WORK/dip.txt" &&
	ok "dip: the text report names it UNSTEADY" || bad "dip text: $(grep seconds: "$WORK/dip.txt")"
"$FWSTRESS" report "$WORK/dip.json" | grep -q "UNSTEADY within a trial: a second [0-9.]* % off its mean" &&
	ok "dip: the matrix notes it" || bad "dip matrix: $("$FWSTRESS" report "$WORK/dip.json" | tail -3)"

# More than the tester can send: the generator's seconds, not the DUT's.
python3 - "$WORK/lab.json" >"$WORK/fast.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.update({"rate": "3Mpps", "duration": 3, "frame_size": 64})
json.dump(c, sys.stdout)
PY
expect_rc 0 "asked 3 Mpps" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/fast.json.out" "$WORK/fast.json"
check "3 Mpps: every second generator-limited (under 99 % of the rate sent), none counted unsteady" \
	'(lambda x: len(x["tx_pps"]) == 3 and x["generator_limited"] == 3 and all(v < 0.99 * 3e6 for v in x["tx_pps"]) and not x["unsteady"])(t[0]["seconds"])' "$WORK/fast.json.out"
finish
