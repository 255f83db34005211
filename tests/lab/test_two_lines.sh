#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Two load clients on two DPDK lines (issue 33): the two-client routing lab with site1's agent
# this build (Debian 12, DPDK 22.11) and site2's agent the Debian 13 build (DPDK 24.11) in
# the root tools/debian-root keeps (FWS_DEBIAN13_ROOT, default /var/cache/fwstress/trixie;
# .ci/run builds it there first). The agent protocol carries fwstress's own structures, so
# the two must work together: every frame through, the report naming each agent's DPDK, the
# counts equal the router's interface counters.
# Clock: all namespaces share this machine's TSC (the root is a chroot, not a VM).
. "$(dirname "$0")/lab.sh"
ROOT=${FWS_DEBIAN13_ROOT:-/var/cache/fwstress/trixie}
OTHER=$ROOT/root/fwstress/build/app/fwstress
[ -x "$OTHER" ] || {
	echo "SKIP: no Debian 13 build at $OTHER: tools/debian-root -- bash -c 'tools/setup' makes one"
	exit 77
}
lab_start ip unshare chroot
"$LAB" up routing >/dev/null && "$LAB" split >/dev/null || { bad "lab up, split"; finish; exit 1; }
sleep 3

# site1: this binary; site2: the Debian 13 build, in its root (--no-copy: the build there).
python3 - "$TOP/config/lab-two-clients.json" "$FWSTRESS" "$TOP/tools/debian-root" "$ROOT" >"$WORK/two.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["hosts"][0]["command"] = ["ip", "netns", "exec", "fwsl-tester", sys.argv[2], "agent"]
c["hosts"][1]["command"] = ["ip", "netns", "exec", "fwsl-tester2", sys.argv[3], "--root", sys.argv[4],
                            "--no-copy", "--", "build/app/fwstress", "agent"]
c["frame_size"] = 256
json.dump(c, sys.stdout)
PY
read -r lan_rx0 lan_tx0 <<<"$(counters dut-lan)"
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
"$FWSTRESS" run -o "$WORK/report.json" "$WORK/two.json" >"$WORK/text" 2>"$WORK/err"
rc=$?
read -r lan_rx1 lan_tx1 <<<"$(counters dut-lan)"
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
[ $rc -eq 0 ] && ok "agents of two DPDK lines: exit 0" || bad "two lines: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | head -5)"
check "the report names each agent's DPDK line: this build's 22.11 or 23.11 and the root's 24.11" \
	'[h["name"] for h in r["hosts"]] == ["site1", "site2"] and r["hosts"][0]["dpdk"] == r["dpdk"] and r["hosts"][1]["dpdk"].startswith("DPDK 24.11") and r["hosts"][0]["dpdk"] != r["hosts"][1]["dpdk"] and all(h["fwstress"] == r["tool"]["version"] for h in r["hosts"])'
for s in 0 1 2 3; do
	S="t[0][\"streams\"][$s]"
	check "stream $s: sent on one line's agent, every frame received on the other's" \
		"$S[\"received\"][\"distinct_frames\"] + $S[\"lost\"] == $S[\"offered\"][\"frames\"] > 25000 and $S[\"lost\"] <= $MISSED($S) and $S[\"received\"][\"total_frames\"] == $S[\"received\"][\"distinct_frames\"]"
done
check "router dut-lan received == site1's lan sent ($((lan_rx1 - lan_rx0)))" "r['ports'][0]['tx_frames_total'] == $((lan_rx1 - lan_rx0))"
check "router dut-wan received == site2's wan sent, from the 24.11 agent ($((wan_rx1 - wan_rx0)))" "r['ports'][1]['tx_frames_total'] == $((wan_rx1 - wan_rx0))"
sleep 1
n=$(pgrep -fc "fwstress agent" || true)
[ "$n" -eq 0 ] && ok "no agent left running (this build's nor the root's)" || bad "$n agents left: $(pgrep -fa 'fwstress agent')"
finish
