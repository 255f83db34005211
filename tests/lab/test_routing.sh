#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Through a Linux router in a network namespace (tools/lab up routing): fwstress resolves
# the router by ARP and ND, passes the path check, delivers every frame, answers pings, and
# its frame counts equal the router's own interface counters. A gateway that does not exist
# stops the run before any load.
. "$(dirname "$0")/lab.sh"

"$LAB" down >/dev/null 2>&1
"$LAB" up routing >/dev/null || { bad "lab up"; finish; exit 1; }
trap '"$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
sleep 3 # let the router's own link-up chatter (IPv6 MLD reports) pass before counting

read -r lan_rx0 lan_tx0 <<<"$(counters dut-lan)"
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
# The router pings at 4 s; its ARP entry for 198.18.0.2 was learned from our own request
# (stale), so Linux probes it again 5 s after the ping (unicast ARP, delay_first_probe_time).
# The run must still be polling then, or the router counts a frame fwstress never saw:
# a 6 s trial ends well after 9 s.
sed 's/"frame_size": \[128, 1518\]/"frame_size": 256/; s/"duration": 3/"duration": 6/' \
	"$TOP/config/lab-routing.json" >"$WORK/lab.json"
"$LAB" exec "$FWSTRESS" run -q -o "$WORK/report.json" "$WORK/lab.json" 2>"$WORK/err" &
pid=$!
# Ping fwstress's addresses from the router while the trial runs (after resolve + path check).
sleep 4
ip netns exec fwsl-dut ping -c 3 -i 0.3 -W 2 198.18.0.2 >"$WORK/ping4" 2>&1 && ok "router pings 198.18.0.2" || bad "ping 198.18.0.2: $(cat "$WORK/ping4")"
ip netns exec fwsl-dut ping -6 -c 3 -i 0.3 -W 2 2001:2:0:2::2 >"$WORK/ping6" 2>&1 && ok "router pings 2001:2:0:2::2" || bad "ping 2001:2:0:2::2: $(cat "$WORK/ping6")"
wait $pid
rc=$?
[ $rc -eq 0 ] && ok "exit status 0" || bad "exit status $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err")"
read -r lan_rx1 lan_tx1 <<<"$(counters dut-lan)"
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"

check "status completed" 'r["status"] == "completed"'
"$LAB" status 2>/dev/null | grep -qE "^dut-lan +$lan_rx1 +$lan_tx1 " &&
	ok "tools/lab status shows the router's counters" || bad "tools/lab status: no counters"
check "path check passed for all four streams" \
	'[p["ok"] for p in r["path_check"]] == [True] * 4 and all(p["received"] == p["sent"] == 50 for p in r["path_check"])'
check "gateways learned by ARP and ND (no static MACs in the config)" \
	'all(p["control"]["arp_replies"] >= 1 and p["control"]["nd_adverts"] >= 1 for p in r["ports"]) and "next_hop_mac" not in str(r["config"]["ports"])'
check "the router asked for our addresses and got answers" \
	'r["ports"][0]["control"]["arp_requests"] >= 1 and r["ports"][1]["control"]["nd_solicits"] >= 1'
check "pings answered (3 IPv4 on lan, 3 IPv6 on wan)" \
	'r["ports"][0]["control"]["echo_requests"] >= 3 and r["ports"][1]["control"]["echo_requests"] >= 3'
# Every frame delivered, but for what the tester's own receive rings dropped (its af_packet
# ring full while its lcore waited for one of this machine's 2 cores: the kernel counted
# them on the tester's interface, the report as receiver_missed), none of them the DUT's.
for s in 0 1 2 3; do
	S="t[0][\"streams\"][$s]"
	check "stream $s: every frame delivered (but for the tester's own misses)" \
		"$S[\"received\"][\"distinct_frames\"] == $S[\"received\"][\"total_frames\"] == $S[\"offered\"][\"frames\"] - $S[\"lost\"] > 30000 and $S[\"lost\"] <= $MISSED($S) and $S[\"lost_dut_min\"] == 0"
done
# Independent check: the router's kernel counted exactly the frames we did, both ways (what
# we received plus what our rings dropped, in the trial: RING(p)).
RING='(lambda p: sum(x["ports"][p]["nic"]["imissed"] for x in t))'
check "router dut-wan sent == fwstress wan received ($((wan_tx1 - wan_tx0)))" "r['ports'][1]['rx_frames_total'] + $RING(1) == $((wan_tx1 - wan_tx0))"
check "router dut-lan sent == fwstress lan received ($((lan_tx1 - lan_tx0)))" "r['ports'][0]['rx_frames_total'] + $RING(0) == $((lan_tx1 - lan_tx0))"
check "router dut-lan received == fwstress lan sent ($((lan_rx1 - lan_rx0)))" "r['ports'][0]['tx_frames_total'] == $((lan_rx1 - lan_rx0))"
check "router dut-wan received == fwstress wan sent ($((wan_rx1 - wan_rx0)))" "r['ports'][1]['tx_frames_total'] == $((wan_rx1 - wan_rx0))"
check "control frames counted apart from test frames, both ways, on both ports" \
	'all(0 < p["rx_control_total"] < p["rx_frames_total"] and 0 < p["tx_control_total"] < p["tx_frames_total"] and p["tx_control_total"] == p["control"]["sent"] - p["control"]["tx_drop"] for p in r["ports"])'

# A gateway nobody has: a clear error, a non-zero exit, and no load on the wire.
sed 's/"gateway": "198.18.0.1"/"gateway": "198.18.0.99"/' "$WORK/lab.json" >"$WORK/badgw.json"
read -r lan_rx0 lan_tx0 <<<"$(counters dut-lan)"
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
"$LAB" exec "$FWSTRESS" run -q -o "$WORK/bad.json" "$WORK/badgw.json" >/dev/null 2>"$WORK/err"
rc=$?
read -r lan_rx1 lan_tx1 <<<"$(counters dut-lan)"
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
[ $rc -eq 3 ] && ok "bad gateway: exit status 3" || bad "bad gateway: exit status $rc"
grep -q "setup: port lan: gateway 198.18.0.99 did not answer 5 ARP requests" "$WORK/err" \
	&& ok "bad gateway: the message names port and gateway" || bad "bad gateway message: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err")"
# wan resolved its own gateway: the router's ARP and ND answers, nothing forwarded.
[ $((wan_tx1 - wan_tx0)) -le 4 ] && ok "bad gateway: nothing forwarded to wan ($((wan_tx1 - wan_tx0)) control answers)" || bad "bad gateway: router sent $((wan_tx1 - wan_tx0)) frames on wan"
[ $((lan_rx1 - lan_rx0)) -le 12 ] && ok "bad gateway: only ARP/ND on lan ($((lan_rx1 - lan_rx0)) frames)" || bad "bad gateway: $((lan_rx1 - lan_rx0)) frames reached the router"

# The tester's own limit, said: a receive ring of 16 frames (framecnt=16) while a busy loop at
# nice -10 shares the receive lcore's cpu: the ring overflows. net_af_packet counts no such
# drop; fwstress takes it from the kernel's count of the interface: the frames lost are the
# receiver's misses (lost_dut_min 0: none charged to the router), and what it counts never
# exceeds what the router sent beyond what fwstress received (its dut-lan counter).
sed 's/qdisc_bypass=0"/qdisc_bypass=0,framecnt=16"/' "$WORK/lab.json" >"$WORK/ring.json"
read -r lan_rx0 lan_tx0 <<<"$(counters dut-lan)"
taskset -c 1 nice -n -10 sh -c 'while :; do :; done' &
busy=$!
"$LAB" exec "$FWSTRESS" run -q -o "$WORK/ring-r.json" "$WORK/ring.json" >/dev/null 2>"$WORK/err"
rc=$?
kill $busy
read -r lan_rx1 lan_tx1 <<<"$(counters dut-lan)"
[ $rc -eq 0 ] && ok "a ring of 16 frames beside a busy loop: exit 0" || bad "small ring: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | head -3)"
check "  ... the frames its rings dropped are the receiver's misses, none charged to the DUT" \
	"$RING(0) + $RING(1) > 0 and all(s['lost'] <= $MISSED(s) and s['lost_dut_min'] == 0 for s in t[0]['streams'])" "$WORK/ring-r.json"
check "  ... and no more than the router sent beyond what fwstress received ($((lan_tx1 - lan_tx0)))" \
	"r['ports'][0]['rx_frames_total'] + $RING(0) <= $((lan_tx1 - lan_tx0))" "$WORK/ring-r.json"
echo "     ring misses: lan $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([x["ports"][0]["nic"]["imissed"] for x in r["trials"]], "wan", [x["ports"][1]["nic"]["imissed"] for x in r["trials"]])' "$WORK/ring-r.json")"

# Namespace files without a namespace behind them (left by a reboot with /run on disk, or by a
# mount namespace that ended): in a mount namespace of its own with such files, the lab is
# made again, not taken for up. (A private tmpfs on /run/netns: this machine's lab is untouched.)
unshare -m bash -c 'mount --make-rprivate / && mount -t tmpfs stale /run/netns &&
	touch /run/netns/fwsl-tester /run/netns/fwsl-dut &&
	"$1" up routing >/dev/null 2>"$2/stale" && ip netns exec fwsl-dut ip -br link show dut-lan' \
	bash "$LAB" "$WORK" >"$WORK/stale.out" 2>&1 && grep -q "^dut-lan" "$WORK/stale.out" &&
	grep -q "fwsl-tester: stale namespace file" "$WORK/stale" &&
	ok "stale namespace files: the lab is made again" ||
	bad "stale namespace files: $(cat "$WORK/stale.out" "$WORK/stale" 2>/dev/null | head -3)"
# A daemons file that outlived its processes (a reboot with /run on disk): the PID it names is
# another process now, and `lab down` leaves it alone; a daemon recorded now is stopped. (A
# private tmpfs on /run: this machine's lab and its file are untouched.)
sleep 300 & other=$!
unshare -m bash -c 'set -e; mount --make-rprivate /; mount -t tmpfs pids /run; mkdir /run/netns
	mine=$(sh -c "sleep 300 >/dev/null 2>&1 & echo \$!") # not our child: no zombie to wait for
	. "$(dirname "$1")/lab.d/lib.sh"
	echo "$2 1" >"$PIDS"
	record_daemon "$mine"
	"$1" down >/dev/null
	for _ in $(seq 20); do # (a zombie is gone: whether it is reaped yet is its init'"'"'s business)
		grep -q "^$mine ([^)]*) [^Z]" /proc/$mine/stat 2>/dev/null || exit 0; sleep 0.1
	done
	echo "the recorded daemon $mine lives: $(cat /proc/$mine/stat)"; kill -9 "$mine"; exit 1' bash "$LAB" "$other" >"$WORK/pids.out" 2>&1 &&
	kill -0 "$other" 2>/dev/null &&
	ok "daemons file from before a reboot: the unrelated process lives, the recorded daemon is stopped" ||
	bad "daemons file: $(head -3 "$WORK/pids.out") $(kill -0 "$other" 2>/dev/null || echo "the unrelated process $other was killed")"
kill "$other" 2>/dev/null
finish
