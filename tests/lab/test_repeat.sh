#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Repetitions against a DUT whose behaviour is known (issue 36): the routing lab's router,
# upload at 10 kpps, each cell measured 5 times. Measured twice as it is, the two reports
# differ by the lab's own noise only: compare calls no cell worse. Then nftables drops a
# fixed tenth of the test frames at the router's egress (numgen inc mod 10, with a counter):
# compare calls the cell WORSE (exit 7) and names it; the frames lost over the five
# repetitions are exactly the ones nftables counted, and the drop report's median is 90 %
# of the first's. Between them, a drop rate that changes from repetition to repetition.
. "$(dirname "$0")/lab.sh"

routing_upload "$WORK/lab.json" '{"duration": 1, "repeat": 5}'
for n in base1 base2; do
	expect_rc 0 "$n: 5 repetitions through the router" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/$n.json" "$WORK/lab.json"
done
check "5 cells of one key, numbered 1-5, none lost" \
	'[c["repetition"] for c in r["cells"]] == [1, 2, 3, 4, 5] and all(x["streams"][0]["lost"] == 0 for x in t)' "$WORK/base1.json"
"$FWSTRESS" compare "$WORK/base1.json" "$WORK/base2.json" >"$WORK/noise.txt"
rc=$?
# (12: a cell not compared, for the tester's own limit only: a busy machine)
{ [ $rc -eq 0 ] || [ $rc -eq 10 ] || { [ $rc -eq 12 ] && ! grep "not compared" "$WORK/noise.txt" | grep -qv "tester-limited"; }; } &&
	ok "the same router measured twice: no cell worse (exit $rc)" ||
	bad "noise: exit $rc: $(grep -E 'WORSE|INCONCL' "$WORK/noise.txt")"

# Noise: a drop rate that changes between the repetitions (0, 8, 4, 6 and 0 % of each
# repetition's frames, by numgen's count of them: a repetition sends about 10,000, and
# each dropped range starts 500 frames into its ten-thousand): the median is 4 % lower,
# beyond the 3 % tolerance, but the repetitions
# spread over the old ones' level: INCONCLUSIVE (exit 10), not WORSE, for the throughput
# (weighed alone with --loss-tolerance 5%); the loss rose for sure (0 in every base
# repetition): WORSE for its loss at the default 0.01 points (issue 52, item 3).
egress fwsl_noise "numgen inc mod 50000 { 10500-11299, 20500-20899, 30500-31099 } counter drop"
expect_rc 0 "noise: drops of 0, 8, 4, 6 and 0 % in the repetitions" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/noise.json" "$WORK/lab.json"
nnoise=$(egress_count fwsl_noise)
ip netns exec fwsl-dut nft delete table netdev fwsl_noise
check "noise: each repetition lost its share (0, 800, 400, 600, 0), $nnoise in all as nftables counted" \
	"[x['streams'][0]['lost'] for x in t] == [0, 800, 400, 600, 0] and $nnoise == 1800" "$WORK/noise.json"
"$FWSTRESS" compare --loss-tolerance 5% "$WORK/base1.json" "$WORK/noise.json" >"$WORK/noise-cmp.txt"
rc=$?
[ $rc -eq 10 ] && grep -q "INCONCLUSIVE: about [0-9]* repetitions" "$WORK/noise-cmp.txt" &&
	ok "noise: the throughput INCONCLUSIVE (exit 10), not WORSE" || bad "noise compare: exit $rc: $(cat "$WORK/noise-cmp.txt")"
"$FWSTRESS" compare "$WORK/base1.json" "$WORK/noise.json" >"$WORK/noise-cmp.txt"
rc=$?
[ $rc -eq 7 ] && grep -q "WORSE: loss +3.6000 points" "$WORK/noise-cmp.txt" &&
	ok "noise: the loss rose (mean 3.6 points, as nftables dropped): WORSE, exit 7" || bad "noise loss: exit $rc: $(cat "$WORK/noise-cmp.txt")"

egress fwsl_repeat "numgen inc mod 10 == 0 counter drop"
expect_rc 0 "drop: a tenth of the frames dropped by the router" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/drop.json" "$WORK/lab.json"
ndrop=$(egress_count fwsl_repeat)
ip netns exec fwsl-dut nft delete table netdev fwsl_repeat
check "the frames lost over the 5 repetitions are those nftables dropped ($ndrop)" \
	"sum(x['streams'][0]['lost'] for x in t) == $ndrop > 0 and len(t) == 5" "$WORK/drop.json"
python3 - "$WORK/base1.json" "$WORK/drop.json" <<'PY' && ok "the drop's median is 90 % of the first's (within 1 %)" || bad "median ratio"
import json, statistics, sys
med = lambda p: statistics.median(c["pps"] for c in json.load(open(p))["cells"])
ratio = med(sys.argv[2]) / med(sys.argv[1])
print("   median ratio %.4f" % ratio)
sys.exit(0 if abs(ratio - 0.9) < 0.01 else 1)
PY
"$FWSTRESS" compare "$WORK/base1.json" "$WORK/drop.json" >"$WORK/drop.txt"
rc=$?
[ $rc -eq 7 ] && grep -q "/upload/upload/256 .*WORSE (5 and 5 measurements" "$WORK/drop.txt" &&
	ok "a tenth dropped: WORSE, exit 7, the cell named" || bad "drop: exit $rc: $(cat "$WORK/drop.txt")"
finish
