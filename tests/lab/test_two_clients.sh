#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Two load clients (issue 21): the routing lab split so that fws-lan is in fwsl-tester and
# fws-wan in fwsl-tester2, an agent in each (started by "ip netns exec NS fwstress agent",
# the host's command), the controller in the root namespace with no port and no EAL. The
# merged counts equal the router's interface counters; an agent killed mid-trial (in a
# run and a sweep, then resumed), stopped mid-search, a
# command that does not start and an agent of another protocol version each end the run
# with one clear line, a report kept, and no agent left running.
# Clock: all namespaces share this machine's TSC, so latencies need no offset here.
. "$(dirname "$0")/lab.sh"
lab_start ip conntrack nft
"$LAB" up routing >/dev/null && "$LAB" split >/dev/null || { bad "lab up, split"; finish; exit 1; }
sleep 3

# cfg DURATION [SED...]: the two-client config with this binary, its duration
cfg() {
	local d=$1
	shift
	sed -e "s#\"fwstress\", \"agent\"#\"$FWSTRESS\", \"agent\"#g; s/\"duration\": 3/\"duration\": $d/; s/\"frame_size\": \[128, 1518\]/\"frame_size\": 256/" \
		"$@" "$TOP/config/lab-two-clients.json"
}
agents() { pgrep -f "$FWSTRESS agent" | wc -l; }
# The control protocol's version, as this build speaks it.
PROTO=$(awk '/define FWS_WIRE_MAJOR/ {ma = $3} /define FWS_WIRE_MINOR/ {mi = $3} END {print ma "." mi}' "$TOP/lib/seam/fws_wire.h")

# The preflight (issue 34): hosts check reaches both agents as a run does and lists them,
# their ports (links up) and clock probes, with no traffic (the router's counters stay); an
# agent command that does not start is one line naming the host, exit 3, nothing left.
cfg 3 >"$WORK/check.json"
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
expect_rc 0 "hosts check" "$FWSTRESS" hosts check "$WORK/check.json"
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
grep -q "^host site1: $(hostname), Linux .*; fwstress .*; protocol $PROTO; TSC [0-9.]* MHz$" "$WORK/out" &&
	grep -q "^host site2: " "$WORK/out" && grep -q "^  reached by: ip netns exec fwsl-tester2 " "$WORK/out" &&
	[ "$(grep -c '^  clock probe: round trip [0-9.]* us' "$WORK/out")" -eq 2 ] &&
	grep -q "^port lan (net_af_packet.* on site1): driver net_af_packet, MAC .*, link up" "$WORK/out" &&
	grep -q "^port wan (net_af_packet.* on site2): driver net_af_packet, MAC .*, link up" "$WORK/out" &&
	ok "hosts check: each host, its ports up, its clock probe" || bad "hosts check: $(cat "$WORK/out" "$WORK/err" | head -12)"
[ $((wan_rx1 - wan_rx0)) -lt 20 ] && ok "hosts check: no test traffic through the router ($((wan_rx1 - wan_rx0)) frames: ARP/ND at most)" ||
	bad "hosts check sent $((wan_rx1 - wan_rx0)) frames"
[ "$(agents)" -eq 0 ] && ok "hosts check: no agent left" || bad "hosts check: $(agents) agents left"
sed 's#"'"$FWSTRESS"'", "agent"#"/nonexistent/fwstress", "agent"#' "$WORK/check.json" >"$WORK/check-bad.json"
expect_rc 3 "hosts check with an agent that does not start" "$FWSTRESS" hosts check "$WORK/check-bad.json"
# (the agent's own stderr is relayed, each line named "[site1] "; fwstress says one line)
[ "$(grep -vc '^EAL\|^TELEMETRY\|^\[' "$WORK/err")" -eq 1 ] && grep -q "^fwstress: host site1: " "$WORK/err" &&
	ok "hosts check: one line naming the host" || bad "hosts check bad: $(cat "$WORK/err")"

# site2's EAL at debug level: lines on its stderr on every DPDK line (24.11 prints none at
# the default level), for the relay to pass on.
cfg 3 | sed 's/"--file-prefix", "fwsa2"/"--file-prefix", "fwsa2", "--log-level", "lib.eal:debug"/' >"$WORK/two.json"
read -r lan_rx0 lan_tx0 <<<"$(counters dut-lan)"
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
"$FWSTRESS" run -o "$WORK/report.json" "$WORK/two.json" >"$WORK/text" 2>"$WORK/err"
rc=$?
read -r lan_rx1 lan_tx1 <<<"$(counters dut-lan)"
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
[ $rc -eq 0 ] && ok "two agents: exit 0" || bad "two agents: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | head -5)"
grep -q "^\[site1\] \|^\[site2\] " "$WORK/err" && ok "agents' stderr passed on, named by host" || bad "no agent stderr"
check "status completed" 'r["status"] == "completed" and not r["partial"]'
check "each remote port's facts carry its host's NIC stamps (the nicstamps feature's port block over the wire)" \
	'len(r["ports"]) == 2 and all(p["timestamps"]["latency_method"] == "software TSC stamps" for p in r["ports"])'
check "the report names each agent: where it ran, its versions, what it owned" \
	'[(h["name"], h["ports"], h["sends"], h["receives"]) for h in r["hosts"]] == [("site1", ["lan"], ["upload", "upload6"], ["download", "download6"]), ("site2", ["wan"], ["download", "download6"], ["upload", "upload6"])] and all(h["protocol"] == "'"$PROTO"'" and h["fwstress"] == r["tool"]["version"] and h["dpdk"] == r["dpdk"] and h["hostname"] == "'"$(hostname)"'" and h["via"].startswith("ip netns exec fwsl-tester") and h["tsc_hz"] > 0 for h in r["hosts"])'
grep -q "^host site2    $(hostname) (Linux .*), fwstress .*, protocol $PROTO; ports wan; sends download, download6; receives upload, upload6$" "$WORK/text" &&
	ok "text report: one line per host" || bad "text report hosts: $(grep '^host' "$WORK/text")"
check "each port's facts from its own host" \
	'[p["name"] for p in r["ports"]] == ["lan", "wan"] and all(p["link_up"] and p["driver"] == "net_af_packet" for p in r["ports"])'
check "path check passed for all four streams, across the two hosts" \
	'all(p["ok"] and p["received"] == p["sent"] == 50 for p in r["path_check"])'
for s in 0 1 2 3; do
	S="t[0][\"streams\"][$s]"
	# (On a busy machine the receiving port's capture may miss frames: the report names them,
	# receiver_missed, and the loss they cannot explain, lost_dut_min, must be none.)
	check "stream $s: sent on one host, every frame received on the other (but the receiver's own misses)" \
		"$S[\"received\"][\"distinct_frames\"] == $S[\"received\"][\"total_frames\"] == $S[\"offered\"][\"frames\"] - $S[\"lost\"] and $S[\"offered\"][\"frames\"] > 25000 and $S[\"lost_dut_min\"] == 0 and $S[\"lost\"] <= $S[\"receiver_missed\"] and $S[\"latency_ns\"][\"count\"] == $S[\"received\"][\"distinct_frames\"]"
done
check "latency across hosts: clocks aligned by probes, bound given (one TSC here: offset within it)" \
	'all(s["latency_ns"]["clocks"] == "two hosts, aligned by probes over the control link" and 0 < s["latency_ns"]["clock_bound_ns"] < 1e6 and abs(s["latency_ns"]["clock_offset_ns"]) <= s["latency_ns"]["clock_bound_ns"] for s in t[0]["streams"])'
# Phases armed for one instant in each agent's clock: both sites send over the same span.
check "phases armed for one instant on both hosts: the bound holds the workers' own lateness, under 50 ms" \
	'(p := t[0]["phase_sync"])["hosts"] == 2 and 0 <= p["late_ns"] < p["bound_ns"] < 5e7'
# (each agent measures its span with its own calibration of the TSC they share: 50 ppm)
check "both sites' measured phases last the same, within the bound, a poll and 50 ppm" \
	'abs((u := t[0]["streams"][0]["offered"]["duration_s"]) - t[0]["streams"][1]["offered"]["duration_s"]) * 1e9 <= t[0]["phase_sync"]["bound_ns"] + 2 * t[0]["rx_poll_period_ns"] + u * 50e3'
grep -q "^  phases: armed for one instant on 2 hosts, each in its own clock: they changed within [0-9.]* us of each other (the latest switch [0-9.]* us after its instant)$" "$WORK/text" &&
	ok "text report: the phases' arming and its bound" || bad "no phases line: $(grep 'phases' "$WORK/text")"
check "router dut-wan sent == site2's wan received + what it missed ($((wan_tx1 - wan_tx0)))" "r['ports'][1]['rx_frames_total'] + t[0]['ports'][1]['nic']['imissed'] == $((wan_tx1 - wan_tx0))"
check "router dut-lan sent == site1's lan received + what it missed ($((lan_tx1 - lan_tx0)))" "r['ports'][0]['rx_frames_total'] + t[0]['ports'][0]['nic']['imissed'] == $((lan_tx1 - lan_tx0))"
check "router dut-lan received == site1's lan sent ($((lan_rx1 - lan_rx0)))" "r['ports'][0]['tx_frames_total'] == $((lan_rx1 - lan_rx0))"
check "router dut-wan received == site2's wan sent ($((wan_rx1 - wan_rx0)))" "r['ports'][1]['tx_frames_total'] == $((wan_rx1 - wan_rx0))"
[ "$(agents)" -eq 0 ] && ok "no agent left after the run" || bad "$(agents) agents left running"

# kill -9 of site2's agent mid-trial: the trial is invalid, site1 stops, the report stays.
cfg 8 >"$WORK/long.json"
"$FWSTRESS" run -q -o "$WORK/killed.json" "$WORK/long.json" 2>"$WORK/err" &
pid=$!
sleep 5 # into the measured phase: agents up 1-2 s, clock probes 1.5 s, path check 1 s, warm-up 0.5 s
read -r lan_rxa lan_txa <<<"$(counters dut-lan)"
sleep 1
victim=
for p in $(pgrep -f "$FWSTRESS agent"); do
	[ "$(ip netns identify "$p")" = fwsl-tester2 ] && victim=$p
done
read -r lan_rx0 lan_tx0 <<<"$(counters dut-lan)"
kill -9 "$victim"
[ $((lan_rx0 - lan_rxa)) -gt 10000 ] && ok "agent killed: site1 was sending before ($((lan_rx0 - lan_rxa)) frames in the last second)" || bad "agent killed: site1 sent only $((lan_rx0 - lan_rxa)) frames before"
t0=$(date +%s.%N)
wait $pid
rc=$?
t1=$(date +%s.%N)
read -r lan_rxe lan_txe <<<"$(counters dut-lan)"
sleep 1
read -r lan_rx1 lan_tx1 <<<"$(counters dut-lan)"
[ $rc -eq 5 ] && ok "agent killed: exit 5 (fault)" || bad "agent killed: exit $rc"
grep -q "host site2: agent lost: .*killed by signal 9.*the trial is invalid" "$WORK/err" && ok "agent killed: one line names the host and the signal" || bad "agent killed: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | head -3)"
python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 3 else 1)" && ok "agent killed: the run ended within 3 s" || bad "agent killed: the run took $(python3 -c "print($t1 - $t0)") s to end"
check "agent killed: report kept, marked partial, no trial half merged" \
	'r["partial"] and r["status"] == "error" and "site2" in r["error"] and r["trials"] == []' "$WORK/killed.json"
[ "$(agents)" -eq 0 ] && ok "agent killed: site1's agent stopped too" || bad "agent killed: $(agents) agents left"
# site1 stops with the run: nothing but what its ring and the veth's queue still held is
# sent once the run has ended (with the check above: within 3 s of the kill).
[ $((lan_rx1 - lan_rxe)) -lt 1000 ] && ok "agent killed: site1 stopped sending when the run ended ($((lan_rx1 - lan_rxe)) frames after)" ||
	bad "agent killed: site1 sent $((lan_rx1 - lan_rxe)) frames after the run ended"

# search and sweep under the faults a run meets (issue 39, item 9; connections: the lab's
# connections test kills its servers' agent). Each waits in its stats file (--stats) for the
# trials it needs (a result line each), then hits one agent 1.5 s into the next trial.
# agent_of NS: the pid of the agent in namespace NS
agent_of() {
	local p
	for p in $(pgrep -f "$FWSTRESS agent"); do
		[ "$(ip netns identify "$p")" = "$1" ] && echo "$p"
	done
}
# hit_after PATTERN N SIGNAL NS: once N lines of $WORK/st match PATTERN, SIGNAL to NS's
# agent 1.5 s later; then wait for the command started last (pid) and set rc and took
# (seconds from the signal).
hit_after() {
	local i t0 t1
	for i in $(seq 600); do
		[ "$(grep -c "$1" "$WORK/st" 2>/dev/null)" -ge "$2" ] && break
		sleep 0.1
	done
	shift
	sleep 1.5
	t0=$(date +%s.%N)
	kill "-$2" "$(agent_of "$3")"
	wait $pid
	rc=$?
	t1=$(date +%s.%N)
	took=$(python3 -c "print(round($t1 - $t0, 1))")
}
cfg 2 -e 's/"frame_size": 256/"frame_size": [256, 512]/' |
	python3 -c 'import json, sys; c = json.load(sys.stdin); c["search"] = {"short": 1, "final": 2}; c["sweep"] = {"mode": "fixed", "directions": ["upload", "download"]}; json.dump(c, sys.stdout)' >"$WORK/sz.json"

# A search whose site2 agent stops (SIGSTOP: alive, silent) in the second frame size's search
# (its first line of stats, 1.5 s on): the first size's search stands, however many trials a
# busy machine made it take; the second is marked unfinished (not "not found").
rm -f "$WORK/st"
"$FWSTRESS" search --no-progress --stats "$WORK/st" -o "$WORK/stopped.json" "$WORK/sz.json" >"$WORK/text" 2>"$WORK/err" &
pid=$!
hit_after '"frame_size":"512"' 1 STOP fwsl-tester2
[ $rc -eq 5 ] && grep -q "^fwstress: host site2: agent lost: no answer in time waiting for its answer to [a-z_]*; the trial is invalid" "$WORK/err" &&
	ok "search, agent stopped: exit 5, one line naming the silent host (no stale stderr line)" ||
	bad "search, agent stopped: exit $rc: $(grep -v '^EAL\|^TELEMETRY\|^\[' "$WORK/err" | head -3)"
python3 -c "import sys; sys.exit(0 if $took < 8 else 1)" && ok "search, agent stopped: given up in $took s" || bad "search, agent stopped: $took s to end"
check "search, agent stopped: report partial, the first size's search complete, the second marked unfinished" \
	'r["partial"] and r["status"] == "error" and "site2" in r["error"] and [(s["frame_size"], s["complete"]) for s in r["search"]] == [("256", True), ("512", False)] and r["search"][0]["ndr"]["found"] and "note" in r["search"][1] and len(r["search"][0]["trials"]) >= 2' "$WORK/stopped.json"
grep -q "^Search, frame size 512: .*NOT FINISHED: the run ended" "$WORK/text" && grep -q "^  NDR: not found before the run ended" "$WORK/text" &&
	ok "search, agent stopped: the text says the second search did not finish" || bad "search, agent stopped: $(grep -A2 '^Search' "$WORK/text")"
sleep 0.5
[ "$(agents)" -eq 0 ] && ok "search, agent stopped: no agent left (the stopped one killed)" || bad "search, agent stopped: $(agents) agents left"

# A sweep whose site1 agent is killed in its third trial: the two cells done stay; --resume
# measures the rest (the cells done skipped) and the report completes.
rm -f "$WORK/st"
"$FWSTRESS" sweep -q --no-progress --stats "$WORK/st" -o "$WORK/sweep.json" "$WORK/sz.json" 2>"$WORK/err" &
pid=$!
hit_after '"phase":"result"' 2 KILL fwsl-tester
[ $rc -eq 5 ] && grep -q "^fwstress: host site1: agent lost: .*killed by signal 9; the trial is invalid" "$WORK/err" &&
	ok "sweep, agent killed: exit 5, one line naming the host and the signal" ||
	bad "sweep, agent killed: exit $rc: $(grep -v '^EAL\|^TELEMETRY\|^\[' "$WORK/err" | head -3)"
python3 -c "import sys; sys.exit(0 if $took < 3 else 1)" && ok "sweep, agent killed: ended in $took s" || bad "sweep, agent killed: $took s to end"
check "sweep, agent killed: report partial, the 256 cells kept" \
	'r["partial"] and "site1" in r["error"] and sorted({(c["frame_size"], c["direction"]) for c in r["cells"]}) == [("256", "download"), ("256", "upload")] and len(t) == 2' "$WORK/sweep.json"
[ "$(agents)" -eq 0 ] && ok "sweep, agent killed: site2's agent stopped too" || bad "sweep, agent killed: $(agents) agents left"
expect_rc 0 "sweep --resume after the fault" "$FWSTRESS" sweep --resume -q --no-progress -o "$WORK/sweep.json" "$WORK/sz.json"
grep -q "sweep: upload 256: done in the report, skipped" "$WORK/err" && ok "resume: the cells done skipped" || bad "resume: $(grep '^sweep' "$WORK/err")"
check "resume: complete, 256 carried, 512 measured" \
	'not r["partial"] and sorted({(c["frame_size"], c["direction"], bool(c.get("carried"))) for c in r["cells"]}) == [("256", "download", True), ("256", "upload", True), ("512", "download", False), ("512", "upload", False)]' "$WORK/sweep.json"
[ "$(agents)" -eq 0 ] && ok "resume: no agent left" || bad "resume: $(agents) agents left"

# A command that does not start: one line before any traffic.
cfg 3 "-e" 's#"ip", "netns", "exec", "fwsl-tester2", "[^"]*", "agent"#"/nonexistent/fwstress", "agent"#' >"$WORK/nocmd.json"
"$FWSTRESS" run -q -o "$WORK/nocmd-r.json" "$WORK/nocmd.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 3 ] && grep -q "host site2: agent lost: .*exit status 127: cannot run /nonexistent/fwstress" "$WORK/err" \
	&& ok "missing binary: exit 3, one line" || bad "missing binary: exit $rc: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | head -3)"
[ "$(agents)" -eq 0 ] && ok "missing binary: site1's agent stopped" || bad "missing binary: $(agents) agents left"

# An agent of another protocol major version: refused, both versions named.
cat >"$WORK/agent2.py" <<'PY'
import json, sys
for line in sys.stdin:
    q = json.loads(line)
    print(json.dumps({"id": q["id"], "rc": 0, "proto": [3, 0], "fwstress": "9.0.0", "dpdk": "DPDK 99.11", "layout": "x"}), flush=True)
PY
cfg 3 "-e" "s#\"ip\", \"netns\", \"exec\", \"fwsl-tester2\", \"[^\"]*\", \"agent\"#\"python3\", \"$WORK/agent2.py\"#" >"$WORK/v2.json"
"$FWSTRESS" run -q -o "$WORK/v2-r.json" "$WORK/v2.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 3 ] && grep -q "host site2: its agent speaks protocol 3.0 of fwstress 9.0.0, this controller $PROTO of fwstress" "$WORK/err" \
	&& ok "other major version: exit 3, both versions named" || bad "other version: exit $rc: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | head -3)"
[ "$(agents)" -eq 0 ] && ok "other major version: no agent left" || bad "other version: $(agents) agents left"

# A command that is not an agent but answers (cat echoes every request back).
cfg 3 "-e" 's#"ip", "netns", "exec", "fwsl-tester2", "[^"]*", "agent"#"cat"#' >"$WORK/cat.json"
"$FWSTRESS" run -q -o "$WORK/cat-r.json" "$WORK/cat.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 3 ] && grep -q "host site2: its command answered, but not as fwstress agent does" "$WORK/err" \
	&& ok "an echo is not an agent: exit 3" || bad "echo: exit $rc: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | head -3)"

# The firewall with NAT both ways, its two sides on two hosts: site2 sees the upload's
# translations, the controller aims site2's download at them; the kernel's conntrack
# table holds exactly those translations, flow for flow.
"$LAB" down >/dev/null 2>&1
"$LAB" up firewall >/dev/null && "$LAB" split >/dev/null || { bad "lab up firewall, split"; finish; exit 1; }
python3 - "$TOP/config/lab-firewall.json" "$TOP/config/lab-two-clients.json" "$FWSTRESS" "$WORK/fw.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["hosts"] = json.load(open(sys.argv[2]))["hosts"]
for h in c["hosts"]:
    h["command"][4] = sys.argv[3]
c["ports"][0]["host"], c["ports"][1]["host"] = "site1", "site2"
c.pop("output")
c["frame_size"] = 256
json.dump(c, open(sys.argv[4], "w"))
PY
sleep 2
ip netns exec fwsl-dut conntrack -F >/dev/null 2>&1
kd0=$(kernel_drops)
"$FWSTRESS" run -q -o "$WORK/fw-r.json" "$WORK/fw.json" 2>"$WORK/err"
rc=$?
kd=$(($(kernel_drops) - kd0))
[ $rc -eq 0 ] && ok "firewall, two hosts: exit 0" || bad "firewall, two hosts: exit $rc: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | head -3)"
# Every frame, but for the tester's own misses and what this machine's kernel counted as
# dropped (a busy machine starves the namespace firewall too: its loss, counted by it).
check "firewall, two hosts: both ways through NAT, every frame (but for $kd the kernel counted dropped), translations as expected" \
	'all(s["received"]["distinct_frames"] + s["lost"] == s["offered"]["frames"] > 10000 and s["lost"] <= '"$MISSED"'(s) + '"$kd"' and s["nat"]["ok"] and s["nat"]["flows_seen"] == 64 for s in t[0]["streams"]) and [s["name"] for s in t[0]["streams"]] == ["upload", "download"]' "$WORK/fw-r.json"
python3 -c 'import json, sys
for s in json.load(open(sys.argv[1]))["trials"][0]["streams"]:
    print("   ", s["name"], "sent", s["offered"]["frames"], "distinct", s["received"]["distinct_frames"], "lost", s["lost"], "receiver missed", s["receiver_missed"], "nat", s["nat"]["ok"], s["nat"]["flows_seen"], s["nat"].get("reason", ""))' "$WORK/fw-r.json"
conntrack_matches "$WORK/fw-r.json" && ok "firewall, two hosts: conntrack -L holds the 64 translations the download was aimed at" || bad "firewall, two hosts: conntrack differs: $(head -c 300 "$WORK/cmp")"
[ "$(agents)" -eq 0 ] && ok "firewall, two hosts: no agent left" || bad "firewall: $(agents) agents left"
finish
