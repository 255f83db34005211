#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# (a) Loopback run through a crossed ring pair: every frame arrives, in order, once.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "run" "$FWSTRESS" run -q -o "$WORK/report.json" -t "$WORK/report.txt" -d 1.5 "$HERE/loopback-test.json"
check "status completed, not partial" 'r["status"] == "completed" and not r["partial"]'
check "two trials (64 and imix)" 'len(t) == 2 and t[1]["frame_size"] == "imix"'
check "path check: exactly 50 probe frames per stream, all arrived" \
	'[(p["sent"], p["received"], p["ok"]) for p in r["path_check"]] == [(50, 50, True)] * len(r["path_check"]) and len(r["path_check"]) == 2'
# The TSC is measured against CLOCK_MONOTONIC_RAW, at setup and over each trial.
check "clock: TSC rate measured, every trial's within 100 ppm of it" \
	'r["clock"]["tsc_hz"] > 1e8 and all(abs(x["tsc_hz"] / r["clock"]["tsc_hz"] - 1) < 1e-4 for x in t)'
for i in 0 1; do
	for s in 0 1; do
		S="t[$i][\"streams\"][$s]"
		check "trial $i stream $s: sent > 0" "$S[\"offered\"][\"frames\"] > 25000"
		check "trial $i stream $s: received == sent" \
			"$S[\"received\"][\"distinct_frames\"] == $S[\"offered\"][\"frames\"] == $S[\"received\"][\"total_frames\"]"
		check "trial $i stream $s: no loss, reorder, dup" \
			"$S[\"lost\"] == 0 and $S[\"reordered\"] == 0 and $S[\"duplicated\"] == 0 and $S[\"late\"] == 0"
		check "trial $i stream $s: every flow seen" "$S[\"flows_seen\"] == $S[\"flows\"] == 256"
		check "trial $i stream $s: a latency sample per frame" \
			"$S[\"latency_ns\"][\"count\"] == $S[\"received\"][\"total_frames\"] and 0 < $S[\"latency_ns\"][\"p50\"] <= $S[\"latency_ns\"][\"max\"]"
	done
	# Port counters agree with the stream counts: what lan sent, wan received as test frames.
	check "trial $i: wan test frames == upload sent" \
		"t[$i][\"ports\"][1][\"rx\"][\"test_frames\"] == t[$i][\"streams\"][0][\"offered\"][\"frames\"]"
	check "trial $i: NIC counters cover the test frames" \
		"t[$i][\"ports\"][0][\"nic\"][\"opackets\"] >= t[$i][\"streams\"][0][\"offered\"][\"frames\"]"
	check "trial $i: rate 20 kpps per stream was kept (within 2 %)" \
		"abs(t[$i][\"streams\"][0][\"offered\"][\"pps\"] - 20000) < 400"
done
check "imix bytes: 7:4:1 of 64/570/1518" \
	'abs(t[1]["streams"][0]["offered"]["bytes"] / t[1]["streams"][0]["offered"]["frames"] - 4246/12) < 1'
check "normalised config embedded" 'r["config"]["streams"][0]["flows"]["count"] == 256'
grep -q "Trial 2: frame size imix" "$WORK/report.txt" && ok "text report written" || bad "text report"
# The default demo looks like the 10GbE measurement it stands for (issue 24): "line" on a
# virtual port that reports 10 Gbit/s is paced to it, so no stream offers more than its link
# (before: 307,174 Mbit/s at 1518 bytes on a "10,000 Mbit/s" port); "max" still asks for
# the generator's limit, and then the report says it went above the link.
expect_rc 0 "embedded default, shortened" "$FWSTRESS" run -q -o "$WORK/demo.json" -t "$WORK/demo.txt" -d 1
check "demo: every stream offers at most its 10 Gbit/s link (L1)" \
	'all(s["offered"]["l1_bps"] <= 10e9 * 1.002 for x in t for s in x["streams"]) and all(p["link_speed_mbps"] == 10000 for p in r["ports"])' \
	"$WORK/demo.json"
# (A sanitizer build may not reach 10 Gbit/s: then it says it was generator-limited.)
check "demo: imix is paced to the link, not above it" \
	'all(s["requested"] == "rate" and (abs(s["offered"]["l1_bps"] / 10e9 - 1) < 0.01 or s["generator_limited"]) for s in t[1]["streams"])' "$WORK/demo.json"
! grep -q "sent above the reported link rate" "$WORK/demo.txt" && ok "demo: no note of sending above the link" || bad "demo: $(grep 'above' "$WORK/demo.txt" | head -1)"
"$FWSTRESS" validate | python3 -c '
import json, sys
c = json.load(sys.stdin)
c["frame_size"] = ["imix"]
for s in c["streams"]:
    s["rate"] = "max"
json.dump(c, sys.stdout)' >"$WORK/max.json"
expect_rc 0 "rate max" "$FWSTRESS" run -q -o "$WORK/max-r.json" -t "$WORK/max.txt" -d 1 "$WORK/max.json"
check "max: unpaced (above the link on a ring, where the build is fast enough)" \
	'all(s["requested"] == "line" for s in t[0]["streams"])' "$WORK/max-r.json"
if python3 -c 'import json,sys; sys.exit(not all(s["offered"]["l1_bps"] > 10.2e9 for s in json.load(open(sys.argv[1]))["trials"][0]["streams"]))' "$WORK/max-r.json"; then
	grep -q "sent above the reported link rate" "$WORK/max.txt" && ok "max: the report says it went above the link" || bad "max: no note"
fi
# The live line says which trial, frame size and layer (issue 24), also in the warm-up.
sed 's/"warmup": 0.5/"warmup": 1.5/' "$HERE/loopback-test.json" >"$WORK/warm.json"
"$FWSTRESS" run --progress -q -o "$WORK/p.json" -d 1.2 "$WORK/warm.json" 2>"$WORK/progress" >/dev/null
grep -Eq '^\[ +[0-9.]+/[0-9.]+ s\] trial 2 of ~2 \(imix\) measure TX +[0-9.]+ Mpps +[0-9.]+ Gbit/s L1 \| RX.* \| about [0-9]+ min [0-9]+ s left$' "$WORK/progress" &&
	ok "progress: trial of how many, frame size, phase, L1, the time left" || bad "progress: $(grep -v '^EAL\|^TELEM' "$WORK/progress" | head -3)"
awk '/trial 1 of ~2 \(64\) warm-up TX/ { if ($13 + 0 > 0) ok = 1 } END { exit !ok }' "$WORK/progress" &&
	ok "progress: the warm-up's Gbit/s is not 0" || bad "progress warm-up: $(grep warm-up "$WORK/progress" | head -1)"

# A rate above what the link carries (25 Gbit/s on the rings' 10 Gbit/s; issue 51, item 9):
# said before the run, per stream, and in the text report.
sed -e 's/"20kpps"/"25Gbit"/' "$HERE/loopback-test.json" >"$WORK/above.json"
"$FWSTRESS" run -o "$WORK/above.r.json" -t "$WORK/above.txt" -d 0.3 "$WORK/above.json" >/dev/null 2>"$WORK/above.err"
[ "$(grep -c '^fwstress: WARNING: stream [a-z]* asks 25 Gbit/s, 2.50 times what its link carries at 64-byte frames (14.8810 Mpps on port [a-z]*): no wire carries that' "$WORK/above.err")" -eq 2 ] &&
	[ "$(grep -c '^WARNING: stream .* asks 25 Gbit/s, 2.50 times' "$WORK/above.txt")" -eq 2 ] &&
	ok "a rate above the link: said before the run and in the text, per stream" || bad "above the link: $(grep -v '^EAL\|^TELEM' "$WORK/above.err" | head -3)"
grep -q WARNING "$WORK/report.txt" && bad "a rate within the link warned of" || ok "a rate within the link: no warning"
finish
