#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Connection tests (fwstress connections) against the lab's NAT firewall with known limits:
#   - capacity with a state table of 20000 (FWS_LAB_CT_LIMIT): fwstress holds 20000, names
#     the first failure (SYN timeout), and while it holds them conntrack -C in the firewall
#     namespace equals what the report says is held; the firewall's state_full counter
#     equals the SYNs of the failed connections, every try of each;
#   - rate with at most 2000 new connections per second (FWS_LAB_NEW_RATE): the search finds
#     a rate whose trial has no connection failed, not above 2000; a trial at twice it has
#     failures, and as many as the firewall's new_limited counter dropped SYNs;
#   - capacity over UDP (RFC 9693) with a table of 5000: 5000 held, as conntrack -C says;
#   - teardown without limits: every connection opens, is held, and closes, and none is
#     left established in the firewall's table; the firewall's CPU load (vmstat) beside it.
# With two sites (FWS_LAB_SITES=2) the clients are site1's agent and the servers site2's,
# the controller here with no port: the same figures against the same counters.
. "$(dirname "$0")/lab.sh"
lab_start nft conntrack

# cfg NAME TEST COUNT EXTRA-JSON: the lab's connection config.
cfg() {
	python3 - "$TOP/config/lab-connections.json" "$WORK/$1.json" "$2" "$3" "$4" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c["flows"]["count"] = int(sys.argv[4])
c["connections"].update(test=sys.argv[3], **json.loads(sys.argv[5]))
c["search"] = {"width": "5%", "max_trials": 20}
json.dump(c, open(sys.argv[2], "w"))
PY
}
counter() {
	ip netns exec fwsl-dut nft -j list counter inet fws_fw "$1" | python3 -c 'import json,sys; print([x["counter"]["packets"] for x in json.load(sys.stdin)["nftables"] if "counter" in x][0])'
}
# held_while_holding PID ERRFILE: wait until capacity says what it held (the report is
# saved then, before the hold), then conntrack -C in the firewall namespace.
held_while_holding() {
	for _ in $(seq 120); do
		grep -q "held when the first failed" "$2" && break
		kill -0 "$1" 2>/dev/null || break
		sleep 0.5
	done
	sleep 1
	ip netns exec fwsl-dut conntrack -C
}
# bg ARGS... CONFIG: fwstress in the background, its PID in pid (a signal reaches it).
bg() {
	if [ "$SITES" = 1 ]; then
		"$LAB" exec "$FWSTRESS" "$@" &
	else
		two_sites "${!#}"
		"$FWSTRESS" "$@" &
	fi
	pid=$!
}
lab_up() { # ENV... : the firewall lab with these limits, an empty state table
	"$LAB" down >/dev/null 2>&1
	env "$@" "$LAB" up firewall >/dev/null || { bad "lab up firewall $*"; finish; exit 1; }
	[ "$SITES" = 1 ] || "$LAB" split >/dev/null || { bad "lab split"; finish; exit 1; }
	ip netns exec fwsl-dut conntrack -F >/dev/null 2>&1
}

# --- capacity: a state table of 20000 ---
lab_up FWS_LAB_CT_LIMIT=20000
cfg capacity capacity 24000 '{"rate": 5000, "hold": 6, "aging": 1}'
bg connections -q -o "$WORK/cap.json" "$WORK/capacity.json" >/dev/null 2>"$WORK/cap.err"
held_kernel=$(held_while_holding $pid "$WORK/cap.err")
python3 - "$WORK/cap.json" "$held_kernel" <<'PY' && ok "capacity: conntrack -C during the hold ($held_kernel) equals the report's held" || bad "capacity: conntrack -C $held_kernel, report: $(grep -o '"held": [0-9]*' "$WORK/cap.json" | head -1)"
import json, sys
t = json.load(open(sys.argv[1]))["connections"]["trials"][0]
sys.exit(0 if t["held"] == int(sys.argv[2]) else 1)
PY
wait $pid
rc=$?
[ $rc -eq 0 ] && ok "capacity: exit 0" || bad "capacity: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/cap.err" | head -3)"
check "capacity: 20000 held (the namespace holds none of its own), first failure a SYN timeout" \
	'r["connections"]["result"]["value"] == 20000 and r["connections"]["result"]["first_failure"] == "syn_timeout" and r["connections"]["trials"][0]["held_at_first_failure"] == 20000 and r["status"] == "completed"' "$WORK/cap.json"
check "capacity: every other connection failed by SYN timeout, none reset; the cell says sessions" \
	'(lambda t: t["failed"]["syn_timeout"] == t["attempted"] - 20000 > 0 and t["failed_total"] == t["failed"]["syn_timeout"] and t["segments"]["rst_received"] == 0)(r["connections"]["trials"][0]) and r["cells"][0]["kind"] == "sessions" and r["cells"][0]["connections"] == 20000' "$WORK/cap.json"
full=$(counter state_full)
python3 - "$WORK/cap.json" "$full" <<'PY' && ok "capacity: the firewall dropped $full SYNs at the limit: every try of every failed connection" || bad "capacity: state_full $full"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["connections"]["trials"][0]
sys.exit(0 if t["failed"]["syn_timeout"] * r["connections"]["tries"] == int(sys.argv[2]) else 1)
PY

# --- capacity over UDP (RFC 9693: a request and its response): a table of 5000 ---
lab_up FWS_LAB_CT_LIMIT=5000
cfg udp capacity 6000 '{"rate": 5000, "hold": 20, "aging": 0}'
sed -i 's/"l4": "tcp"/"l4": "udp"/' "$WORK/udp.json"
bg connections -q -o "$WORK/udp-r.json" "$WORK/udp.json" >/dev/null 2>"$WORK/udp.err"
held_kernel=$(held_while_holding $pid "$WORK/udp.err")
kill -INT $pid 2>/dev/null # the hold is long enough: interrupted, the report keeps the trial
wait $pid
check "udp capacity: 5000 held (= conntrack -C $held_kernel), the first failure a lost response, no RST sent" \
	"(lambda t: t['held'] == 5000 == $held_kernel and t['first_failure'] == 'data_lost' and t['failed']['data_lost'] == t['attempted'] - 5000 and t['segments']['reset_sent'] == 0)(r['connections']['trials'][0])" "$WORK/udp-r.json"

# --- rate: at most 2000 new connections per second; one try each, so a lost SYN fails ---
lab_up FWS_LAB_NEW_RATE=2000
cfg rate rate 3000 '{"rate": 8000, "tries": 1, "aging": 0.5}'
expect_rc 0 "rate search through a 2000/s limit" fws connections -q -o "$WORK/rate-r.json" "$WORK/rate.json"
# The limit's bucket holds 64 SYNs: a trial of 3000 connections (1.5 s) may pass up to
# 2000 + 64 / 1.5 per second, 2043/s.
check "rate: the search found a rate, not above the limit (and its bucket), whose trial failed no connection" \
	'(lambda c: 1000 <= c["result"]["value"] <= 2043 and c["trials"][c["result"]["trial"]]["failed_total"] == 0 and c["trials"][c["result"]["trial"]]["criteria_met"])(r["connections"]) and r["cells"][0]["kind"] == "cps"' "$WORK/rate-r.json"
found=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["connections"]["result"]["value"]))' "$WORK/rate-r.json")
lim0=$(counter new_limited)
expect_rc 0 "rate: one trial at twice the found rate ($((2 * found))/s)" fws connections -q --at $((2 * found)) -o "$WORK/twice.json" "$WORK/rate.json"
lim=$(($(counter new_limited) - lim0))
check "rate: at twice the rate connections fail (SYN timeout), exactly the $lim SYNs the firewall's limit dropped" \
	"(lambda t: t['failed']['syn_timeout'] == $lim > 0 and not t['criteria_met'])(r['connections']['trials'][0])" "$WORK/twice.json"

# --- teardown: every connection opened, held, closed ---
lab_up
cfg teardown teardown 2000 '{"rate": 4000, "open_rate": 2000, "aging": 0.5}'
python3 - "$WORK/teardown.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["dut"]["load_command"] = "ip netns exec fwsl-dut vmstat {seconds} 2"
json.dump(c, open(sys.argv[1], "w"))
PY
expect_rc 0 "teardown at 4000 closes/s" fws connections -q --at 4000 -o "$WORK/td.json" "$WORK/teardown.json"
check "teardown: 2000 opened, held and closed with FIN, none failed" \
	'(lambda t: t["attempted"] == t["established"] == t["closed"] == 2000 and t["failed_total"] == 0 and t["impaired"] == 0)(r["connections"]["trials"][0]) and r["cells"][0]["kind"] == "teardown-fixed" and r["cells"][0]["connections"] > 3000' "$WORK/td.json"
check "teardown: the firewall's CPU load over the closes (vmstat in its namespace), in the trial and the cell" \
	'0 <= r["connections"]["trials"][0]["dut_cpu_pct"] <= 100 and r["cells"][0]["dut_cpu_pct"] == r["connections"]["trials"][0]["dut_cpu_pct"]' "$WORK/td.json"
ip netns exec fwsl-dut conntrack -L -p tcp 2>/dev/null >"$WORK/ct"
[ "$(grep -c 'dport=80 ' "$WORK/ct")" -eq 2000 ] && ! grep -q ESTABLISHED "$WORK/ct" &&
	ok "teardown: conntrack holds the 2000 connections, none established" ||
	bad "teardown: conntrack: $(grep -c 'dport=80 ' "$WORK/ct") entries, $(grep -c ESTABLISHED "$WORK/ct") established"

# --- two sites: the servers' agent killed, or stopped, mid-iteration ---
# The clients' iteration goes on (its SYNs now unanswered), but its counts are the lost
# agent's doing, not the DUT's: the iteration is invalid and not kept, the report (with the
# iteration before it) stays, no agent is left running. Killed (kill -9: its end of stream)
# or stopped (SIGSTOP: alive and silent, given up after its missed heartbeats), alike: the
# controller watches the other agents while one runs the iteration, and stops that one.
if [ "$SITES" = 2 ]; then
	for sig in KILL STOP; do
		lab_up
		cfg killed capacity 16000 '{"rate": 2000, "hold": 0, "aging": 0, "iterations": 3}'
		bg connections -q -o "$WORK/killed-r.json" "$WORK/killed.json" >/dev/null 2>"$WORK/killed.err"
		for _ in $(seq 100); do # into the second iteration (the first, at 2000/s, takes 8 s)
			grep -q "capacity trial 1:" "$WORK/killed.err" && break
			sleep 0.2
		done
		sleep 2
		kill -$sig $(pgrep -f "$FWSTRESS agent" | while read -r p; do [ "$(ip netns identify "$p")" = fwsl-tester2 ] && echo "$p"; done)
		t0=$(date +%s)
		wait $pid
		rc=$?
		took=$(($(date +%s) - t0))
		[ $rc -eq 5 ] && grep -q "host site2: agent lost: .*the iteration is invalid" "$WORK/killed.err" &&
			ok "servers' agent $sig: exit 5 in $took s, the iteration invalid, the host named" ||
			bad "servers' agent $sig: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/killed.err" | tail -2)"
		# (killed: its stream ends at once; stopped: given up after its heartbeat's silence)
		lim=2
		[ $sig = STOP ] && lim=8
		[ $took -le $lim ] || bad "servers' agent $sig: $took s to end, more than $lim"
		check "servers' agent $sig: the report keeps the first iteration only, partial" \
			'len(r["connections"]["trials"]) == 1 and r["partial"] and "agent lost" in r["error"]' "$WORK/killed-r.json"
		sleep 0.5
		[ "$(pgrep -fc "$FWSTRESS agent")" -eq 0 ] && ok "servers' agent $sig: no agent left" ||
			bad "servers' agent $sig: $(pgrep -fc "$FWSTRESS agent") agents left"
	done
fi
finish
