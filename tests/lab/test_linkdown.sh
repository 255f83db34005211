#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A link that goes down and comes back during a trial (tools/lab up routing): the router's
# LAN side is set down for about a second while fwstress sends upload traffic. The run must
# finish with its report, say when the link went down and for how long, and count the frames
# sent meanwhile; the stream's loss must equal the frames the tester's kernel dropped on the
# dead veth (its tx_dropped counter, give or take a retried frame), and the frames sent while
# down must match it within the 5 ms the link watch needs to notice.
. "$(dirname "$0")/../integration/lib.sh"
TOP=$(cd "$HERE/../.." && pwd)
LAB="$TOP/tools/lab"

"$LAB" down >/dev/null 2>&1
"$LAB" up routing >/dev/null || { bad "lab up"; finish; exit 1; }
trap '"$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
python3 - "$TOP/config/lab-routing.json" "$WORK/link.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("flows6"); c.pop("output")
c.update(direction="upload", frame_size=128, rate="10kpps", duration=5, warmup=0.5)
json.dump(c, open(sys.argv[2], "w"))
PY

dropped() {
	ip netns exec fwsl-tester ip -s -j link show dev fws-lan |
		python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["tx"]["dropped"])'
}
drop0=$(dropped)
"$LAB" exec "$FWSTRESS" run -q -o "$WORK/report.json" --text "$WORK/report.txt" "$WORK/link.json" \
	>/dev/null 2>"$WORK/err" &
pid=$!
sleep 3
ip netns exec fwsl-dut ip link set dut-lan down
sleep 1
ip netns exec fwsl-dut ip link set dut-lan up
wait $pid
rc=$?
drop1=$(dropped)
[ $rc -eq 0 ] && ok "exit status 0" || bad "exit status $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | head -3)"
check "report completed" 'r["status"] == "completed" and not t[0]["partial"]'
check "one link event, on lan, down for about a second" \
	'len(t[0]["link_events"]) == 1 and (e := t[0]["link_events"][0])["port"] == "lan" and 0.8 < e["down_for_s"] < 1.5 and e["up_s"] > e["down_s"] > 1'
lost=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trials"][0]["streams"][0]["lost"])' "$WORK/report.json")
sent=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trials"][0]["link_events"][0]["frames_sent_while_down"])' "$WORK/report.json" 2>/dev/null)
# The kernel's count can exceed ours a little (6 of 10100 seen): a frame whose send from
# af_packet's TX ring failed is left in the ring and tried again, each failed try counted
# as dropped. Never fewer than ours, at most 1 % more.
extra=$((drop1 - drop0 - lost))
[ "$lost" -gt 5000 ] && [ "$extra" -ge 0 ] && [ "$extra" -le $((lost / 100)) ] &&
	ok "lost $lost, the kernel dropped $((drop1 - drop0)) on the dead link" ||
	bad "lost $lost, the kernel dropped $((drop1 - drop0)) on fws-lan"
d=$((${sent:-0} - lost))
[ "${d#-}" -le 200 ] && ok "frames sent while down $sent, lost $lost (within 200: 5 ms watch, 10 kpps)" ||
	bad "frames sent while down ${sent:-none}, lost $lost"
grep -q "LINK DOWN: port lan at .* up again after" "$WORK/report.txt" &&
	ok "text report: LINK DOWN line" || bad "text report: no LINK DOWN line"
finish
