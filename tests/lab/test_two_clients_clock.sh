#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# One-way latency across two load clients whose clocks disagree (issue 21 part 5). The
# namespaces share one TSC, so the offset is injected: site2's agent runs with the test-only
# FWS_TEST_CLOCK="3000000,50" (its clock 3 ms ahead and 50 ppm fast, in everything it
# stamps, reads and answers to the clock probes). The router holds every upload packet for
# 6 ms (NFQUEUE, tools/nfq-delay, each hold measured on CLOCK_MONOTONIC_RAW); download
# is not held. The oracle per direction: the fastest frame can be no faster than the path's
# hold (less the stated bound), and no more than 1 ms above it (the path's own latency on
# this busy 2-core machine: 15-250 us seen). Unaligned, upload would read 3 ms long and
# download 3 ms negative (every frame "received before it was sent"), failing both.
. "$(dirname "$0")/lab.sh"
NFQ_DELAY=${3:-}
if [ -z "$NFQ_DELAY" ] || [ ! -x "$NFQ_DELAY" ] || ! command -v iptables-nft >/dev/null; then
	echo "SKIP: fws-nfq-delay or iptables-nft missing (libnetfilter-queue-dev, iptables): run tools/setup"
	exit 77
fi
lab_start ip
"$LAB" up routing >/dev/null && "$LAB" split >/dev/null || { bad "lab up, split"; finish; exit 1; }
ip netns exec fwsl-dut iptables-nft -A FORWARD -i dut-lan -p udp -j NFQUEUE --queue-num 7 ||
	{ bad "NFQUEUE rule"; finish; exit 1; }
python3 - "$TOP/config/lab-two-clients.json" "$FWSTRESS" "$WORK/clock.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["hosts"][0]["command"][4] = sys.argv[2]
c["hosts"][1]["command"] = ["env", "FWS_TEST_CLOCK=3000000,50"] + c["hosts"][1]["command"]
c["hosts"][1]["command"][-2] = sys.argv[2]
c.pop("flows6"); c.pop("output")
c.update(frame_size=128, rate="2kpps", duration=3)
json.dump(c, open(sys.argv[3], "w"))
PY
sleep 2
ip netns exec fwsl-dut "$NFQ_DELAY" 7 6000 "$WORK/hold.json" 2>/dev/null &
hp=$!
sleep 0.5
"$FWSTRESS" run -o "$WORK/report.json" "$WORK/clock.json" >"$WORK/out" 2>"$WORK/err"
rc=$?
kill "$hp"
wait "$hp"
[ $rc -eq 0 ] && ok "two clocks: exit 0" || bad "two clocks: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | head -5)"
grep -q "FWS_TEST_CLOCK=3000000,50: this host's clock is offset on purpose" "$WORK/err" && ok "the test clock is announced" || bad "no test-clock warning"
grep -q "^  clocks: upload: sender's stamps mapped into the receiver's clock" "$WORK/out" && ok "text report: how the clocks were aligned" || bad "text: $(grep clocks "$WORK/out")"
python3 - "$WORK/report.json" "$WORK/hold.json" <<'PY' >"$WORK/verdict"
import json, sys
r = json.load(open(sys.argv[1]))
h = json.load(open(sys.argv[2]))
hold = h["hold_ns"]["min"]
for s in r["trials"][0]["streams"]:
    l = s["latency_ns"]
    b = l["clock_bound_ns"]
    lo = hold if s["name"] == "upload" else 0
    want_off = 3e6 if s["name"] == "upload" else -3e6
    print(s["name"], "count", l["count"] == s["offered"]["frames"] > 4000 and s["lost"] == 0,
          "min", lo - b <= l["min"] <= lo + 1000000 + b,
          "offset", abs(l["clock_offset_ns"] - want_off) < 1.2e6,
          "bound", 0 < b < 100000, "|", l["min"], lo, round(b), round(l["clock_offset_ns"]))
PY
for d in upload download; do
	v=$(grep "^$d " "$WORK/verdict")
	[ "$(echo "$v" | awk '{print $3}')" = True ] && ok "$d: every frame's latency measured, none lost" || bad "$d: $v"
	[ "$(echo "$v" | awk '{print $5}')" = True ] && ok "$d: fastest frame within its bound of the path's hold ($(echo "$v" | cut -d'|' -f2))" || bad "$d: min: $v"
	[ "$(echo "$v" | awk '{print $7}')" = True ] && ok "$d: the injected 3 ms offset found (with the drift since the agent started)" || bad "$d: offset: $v"
	[ "$(echo "$v" | awk '{print $9}')" = True ] && ok "$d: a bound under 0.1 ms stated" || bad "$d: bound: $v"
done
finish
