#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A known delay through the routing lab: the router holds every upload UDP packet for a fixed
# time in userspace (NFQUEUE, tools/nfq-delay: this kernel has no netem), measuring each hold
# on CLOCK_MONOTONIC_RAW. Run at 1 ms and at 6 ms, fwstress's latency must show the holds:
# no frame faster than the inserted hold (a stamp taken late, or a clock running slow, would
# show one), the fastest frame at most the path's own small latency above it, and the
# difference between the two runs' fastest frames the 5 ms inserted, within 10 us (the old
# rounded TSC rate alone read 9.6 us short here). Percentiles come from the histogram (3.1 %
# buckets), so the exact min is compared.
. "$(dirname "$0")/../integration/lib.sh"
TOP=$(cd "$HERE/../.." && pwd)
LAB="$TOP/tools/lab"
NFQ_DELAY=${3:-}

if [ -z "$NFQ_DELAY" ] || [ ! -x "$NFQ_DELAY" ] || ! command -v iptables-nft >/dev/null; then
	echo "SKIP: fws-nfq-delay or iptables-nft missing (libnetfilter-queue-dev, iptables): run tools/setup"
	exit 77
fi
"$LAB" down >/dev/null 2>&1
"$LAB" up routing >/dev/null || { bad "lab up"; finish; exit 1; }
trap '"$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
ip netns exec fwsl-dut iptables-nft -A FORWARD -i dut-lan -p udp -j NFQUEUE --queue-num 7 ||
	{ bad "NFQUEUE rule"; finish; exit 1; }
python3 - "$TOP/config/lab-routing.json" "$WORK/delay.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("flows6"); c.pop("output")
c.update(direction="upload", frame_size=128, rate="2kpps", duration=3)
json.dump(c, open(sys.argv[2], "w"))
PY

# measure US: fwstress through a hold of US microseconds; "min_latency_ns min_hold_ns".
measure() {
	ip netns exec fwsl-dut "$NFQ_DELAY" 7 "$1" "$WORK/hold$1.json" 2>/dev/null &
	local hp=$!
	sleep 0.5
	"$LAB" exec "$FWSTRESS" run -q -o "$WORK/report$1.json" "$WORK/delay.json" >/dev/null 2>"$WORK/err" ||
		bad "run through $1 us: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | head -3)"
	kill "$hp"
	wait "$hp"
	python3 - "$WORK/report$1.json" "$WORK/hold$1.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["trials"][0]["streams"][0]
h = json.load(open(sys.argv[2]))
assert s["lost"] == 0 and s["latency_ns"]["count"] == s["offered"]["frames"] > 5000, s
assert h["overflow"] == 0 and h["packets"] >= s["offered"]["frames"], h
print(s["latency_ns"]["min"], h["hold_ns"]["min"])
PY
}

read -r lat1 hold1 <<<"$(measure 1000)"
read -r lat6 hold6 <<<"$(measure 6000)"
for x in "$lat1 $hold1 1" "$lat6 $hold6 6"; do
	set -- $x
	[ -n "$1" ] && [ -n "$2" ] || { bad "${3} ms: no result"; continue; }
	[ "$1" -ge "$2" ] && ok "$3 ms: no frame faster than the hold ($1 >= $2 ns)" ||
		bad "$3 ms: a frame measured $1 ns through a hold of at least $2 ns"
	[ $(($1 - $2)) -le 100000 ] && ok "$3 ms: fastest frame $(($1 - $2)) ns above the hold" ||
		bad "$3 ms: fastest frame $(($1 - $2)) ns above the hold"
done
if [ -n "$lat1" ] && [ -n "$lat6" ]; then
	d=$((lat6 - lat1 - (hold6 - hold1)))
	[ "${d#-}" -le 10000 ] && ok "5 ms inserted, $((lat6 - lat1)) ns measured (hold difference $((hold6 - hold1)) ns)" ||
		bad "5 ms inserted, $((lat6 - lat1)) ns measured (hold difference $((hold6 - hold1)) ns)"
fi
finish
