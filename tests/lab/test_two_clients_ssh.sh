#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Two load clients over OpenSSH (issue 21): as test_two_clients.sh, but site2's agent is
# reached by the default command, ssh, through a real sshd started in fwsl-tester2 (its
# own host key, a client key made here, the authorized_keys line that
# docs/guide/load-clients.md shows, restricted to the agent). The controller runs in
# fwsl-tester2 (no ports of its own, no EAL) and reaches sshd at 127.0.0.1:2222 there. ssh
# refusing the key or the host key is one line before any traffic; the control stream cut
# mid-trial (sshd's session killed) stops the agent (its stdin ends) and invalidates the
# trial.
. "$(dirname "$0")/lab.sh"
lab_start ip ssh ssh-keygen /usr/sbin/sshd
"$LAB" up routing >/dev/null && "$LAB" split >/dev/null || { bad "lab up, split"; finish; exit 1; }
S=$WORK/ssh
mkdir -p "$S" && chmod 700 "$S"
ssh-keygen -q -t ed25519 -N '' -f "$S/key" && ssh-keygen -q -t ed25519 -N '' -f "$S/other" &&
	ssh-keygen -q -t ed25519 -N '' -f "$S/admin" || { bad "ssh-keygen"; finish; exit 1; }
echo "restrict,command=\"$FWSTRESS agent\" $(cat "$S/key.pub")" >"$S/authorized_keys"
cat "$S/admin.pub" >>"$S/authorized_keys" # a key that may run commands: the campaign's setup
: >"$S/empty_known_hosts"
SSHD=
trap 'kill $SSHD 2>/dev/null; "$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
sshd_start "$S" || { bad "sshd in fwsl-tester2"; finish; exit 1; }
sleep 2

# cfg DURATION KEY KNOWN_HOSTS: site2 over ssh with this key and known_hosts
cfg() {
	python3 - "$TOP/config/lab-two-clients.json" "$FWSTRESS" "$1" "$S/$2" "$S/$3" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["hosts"][0]["command"][4] = sys.argv[2]
site2 = c["hosts"][1]
del site2["command"]
site2.update({"ssh": "root@127.0.0.1", "fwstress": sys.argv[2],
              "ssh_options": ["-p", "2222", "-i", sys.argv[4], "-o", "UserKnownHostsFile=" + sys.argv[5],
                              "-o", "StrictHostKeyChecking=yes", "-o", "IdentitiesOnly=yes"]})
c["duration"] = float(sys.argv[3])
# RFC 2544's 2 s drain: on this 2-core machine the frames between the router and site2's
# socket wait in the kernel's backlog for a softirq that competes with four polling lcores
# and sshd; the router counts them sent when they enter it, site2 reads them when it runs.
c["drain"] = 2
c["frame_size"] = 256
c.pop("output")
print(json.dumps(c))
PY
}
agents() { pgrep -f "$FWSTRESS agent" | wc -l; }
ctl() { ip netns exec fwsl-tester2 "$FWSTRESS" "$@"; }

cfg 3 key known_hosts >"$WORK/ssh.json"
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
ctl run -q -o "$WORK/report.json" "$WORK/ssh.json" 2>"$WORK/err"
rc=$?
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
[ $rc -eq 0 ] && ok "over ssh: exit 0" || bad "over ssh: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | head -5)"
grep -q 'Accepted publickey for root' "$S/sshd.log" && ok "sshd authenticated the agent's key" || bad "sshd log: $(tail -3 "$S/sshd.log")"
check "over ssh: every stream's frames received (but for the receiving port's own misses)" "$(ALL_THROUGH 25000)"
check "over ssh: router dut-wan sent == site2's wan received ($((wan_tx1 - wan_tx0)), with what it missed)" \
	"r['ports'][1]['rx_frames_total'] <= $((wan_tx1 - wan_tx0)) <= r['ports'][1]['rx_frames_total'] + t[0]['ports'][1]['nic']['imissed']"
check "over ssh: router dut-wan received == site2's wan sent ($((wan_rx1 - wan_rx0)))" "r['ports'][1]['tx_frames_total'] == $((wan_rx1 - wan_rx0))"
[ "$(agents)" -eq 0 ] && ok "over ssh: no agent left" || bad "over ssh: $(agents) agents left"

# ssh refuses: a key sshd does not know; a host key the controller does not know.
cfg 3 other known_hosts >"$WORK/badkey.json"
ctl run -q -o "$WORK/r2.json" "$WORK/badkey.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 3 ] && grep -v '^\[' "$WORK/err" | grep -q "^fwstress: host site2: agent lost: .*exit status 255: root@127.0.0.1: Permission denied (publickey)" \
	&& ok "key refused: exit 3, ssh's message in one line" || bad "key refused: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | tail -3)"
cfg 3 key empty_known_hosts >"$WORK/badhost.json"
ctl run -q -o "$WORK/r3.json" "$WORK/badhost.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 3 ] && grep -v '^\[' "$WORK/err" | grep -q "^fwstress: host site2: agent lost: .*exit status 255: Host key verification failed" \
	&& ok "host key unknown: exit 3, ssh's message in one line" || bad "host key: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | tail -3)"
[ "$(agents)" -eq 0 ] && ok "refusals: no agent left" || bad "refusals: $(agents) agents left"

# A campaign whose setup and teardown run on the load clients (issue 21, part 7): the setup
# on site2 through its "shell" (ssh with the admin key, to the sshd in fwsl-tester2), the
# teardown on site1 (reached by "ip netns exec", its shell the same). Each records the
# namespace it ran in. Over the agent's restricted key (site2's default shell) the setup
# fails in one line that says the key runs only the agent.
campaign_plan() { # PLAN SITE2-SHELL(JSON or "")
	python3 - "$WORK/ssh.json" "$1" "$2" "$WORK" "$S" <<'PY'
import json, sys
cfg, plan, shell, work, s = sys.argv[1:]
c = json.load(open(cfg))
c["hosts"][0]["shell"] = ["ip", "netns", "exec", "fwsl-tester", "sh", "-c"]
if shell:
    c["hosts"][1]["shell"] = json.loads(shell)
json.dump(c, open(work + "/campaign-cfg.json", "w"))
json.dump({"scenarios": [{"name": "routing", "command": "run", "config": work + "/campaign-cfg.json",
                          "overrides": {"duration": 1, "warmup": 0.2, "drain": 0.3},
                          "setup": {"host": "site2", "command": f"ip netns identify $$ >{work}/setup-ns"},
                          "teardown": {"host": "site1", "command": f"ip netns identify $$ >{work}/teardown-ns"}}]},
          open(plan, "w"))
PY
}
campaign_plan "$WORK/plan.json" '["ssh", "-T", "-o", "BatchMode=yes", "-p", "2222", "-i", "'"$S/admin"'", "-o", "UserKnownHostsFile='"$S/known_hosts"'", "-o", "IdentitiesOnly=yes", "--", "root@127.0.0.1"]'
ctl campaign -o "$WORK/campaign.json" "$WORK/plan.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && ok "campaign over two clients: exit 0" || bad "campaign: exit $rc: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | tail -3)"
[ "$(cat "$WORK/setup-ns" 2>/dev/null)" = fwsl-tester2 ] && [ "$(cat "$WORK/teardown-ns" 2>/dev/null)" = fwsl-tester ] &&
	ok "campaign: the setup ran on site2 (over ssh), the teardown on site1" ||
	bad "campaign: setup ran in '$(cat "$WORK/setup-ns" 2>/dev/null)', teardown in '$(cat "$WORK/teardown-ns" 2>/dev/null)'"
check "campaign: the scenario measured across the two clients" \
	'r["campaign"]["scenarios"][0]["status"] == "done" and len(r["cells"]) > 0' "$WORK/campaign.json"
rm -f "$WORK/setup-ns" "$WORK/teardown-ns"
campaign_plan "$WORK/plan2.json" ""
ctl campaign -o "$WORK/campaign2.json" "$WORK/plan2.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -ne 0 ] && grep -q "^fwstress: campaign: scenario routing: setup on site2 .* exited with status .*this ssh key runs only the agent" "$WORK/err" &&
	[ ! -e "$WORK/setup-ns" ] && ok "campaign over the agent's key: the setup refused in one line (exit $rc), nothing ran" ||
	bad "campaign over the agent's key: exit $rc: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | tail -3)"
[ "$(agents)" -eq 0 ] && ok "campaigns: no agent left" || bad "campaigns: $(agents) agents left"

# The control stream cut mid-trial: sshd's session for the agent killed. The agent's stdin
# ends: it stops sending at once; the controller loses it: the trial is invalid.
cfg 10 key known_hosts >"$WORK/long.json"
ctl run -q -o "$WORK/cut.json" "$WORK/long.json" 2>"$WORK/err" &
pid=$!
sleep 7 # into the measured phase (ssh, clock probes 1.5 s, path check, warm-up)
read -r wan_rxa wan_txa <<<"$(counters dut-wan)"
sleep 1
# Every process of the agent's session, the privileged monitor and its child (OpenSSH 10,
# Debian 13, names them sshd-session; 9.2 sshd): killing the monitor alone leaves 10's
# child holding the stream.
session=$(pgrep -f "sshd(-session)?: root" || true)
[ -n "$session" ] && kill -9 $session
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
[ $((wan_rx0 - wan_rxa)) -gt 10000 ] && ok "stream cut: site2 was sending before ($((wan_rx0 - wan_rxa)) frames in the last second)" || bad "stream cut: site2 sent only $((wan_rx0 - wan_rxa)) frames before the cut"
wait $pid
rc=$?
sleep 1.5
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
[ $rc -eq 5 ] && grep -q "host site2: agent lost: .*the trial is invalid" "$WORK/err" \
	&& ok "stream cut: exit 5, the host named" || bad "stream cut: exit $rc: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | head -3)"
check "stream cut: report kept, partial" 'r["partial"] and r["status"] == "error" and r["trials"] == []' "$WORK/cut.json"
sleep 1
[ "$(agents)" -eq 0 ] && ok "stream cut: site2's agent stopped and exited (its stdin ended)" || bad "stream cut: $(agents) agents left"
# site2 sends 20 kpps into dut-wan; once the agent stopped the router sees none of it.
[ $((wan_rx1 - wan_rx0)) -lt 20000 ] && ok "stream cut: site2 stopped sending within 1 s ($((wan_rx1 - wan_rx0)) frames)" || bad "stream cut: $((wan_rx1 - wan_rx0)) frames after the cut"

# The link cut, not closed: every packet of the ssh connection dropped in fwsl-tester2
# (controller and sshd meet on its loopback). Nothing ends the stream: the controller's
# poll goes unanswered (lost within 2 s), and site2's agent, hearing nothing while it
# sends, stops by itself (its dead-man switch, 3 s) and exits.
if command -v iptables-nft >/dev/null; then
	cfg 12 key known_hosts >"$WORK/cutlink.json"
	ctl run -q -o "$WORK/cutlink-r.json" "$WORK/cutlink.json" 2>"$WORK/err" &
	pid=$!
	sleep 8
	ip netns exec fwsl-tester2 iptables-nft -I INPUT -p tcp --dport 2222 -j DROP
	ip netns exec fwsl-tester2 iptables-nft -I INPUT -p tcp --sport 2222 -j DROP
	t0=$(date +%s.%N)
	wait $pid
	rc=$?
	t1=$(date +%s.%N)
	sleep 4 # past the dead man's 3 s
	read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
	sleep 1
	read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
	[ $rc -eq 5 ] && grep -q "host site2: agent lost: no answer in time" "$WORK/err" \
		&& ok "link cut: exit 5, the silent host named" || bad "link cut: exit $rc: $(grep -v 'EAL\|TELEMETRY\|^\[' "$WORK/err" | head -3)"
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 6 else 1)" && ok "link cut: the run ended within 6 s" || bad "link cut: $(python3 -c "print($t1 - $t0)") s to end"
	[ $((wan_rx1 - wan_rx0)) -lt 100 ] && ok "link cut: site2 stopped sending by itself ($((wan_rx1 - wan_rx0)) frames in the last second)" || bad "link cut: site2 still sends ($((wan_rx1 - wan_rx0)) frames a second)"
	[ "$(agents)" -eq 0 ] && ok "link cut: site2's agent exited (dead man)" || bad "link cut: $(agents) agents left"
	ip netns exec fwsl-tester2 iptables-nft -F INPUT
fi
finish
