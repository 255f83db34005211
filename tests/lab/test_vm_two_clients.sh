#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Two load clients, one of them the VM (tools/vm): site 1 an agent in the lab's tester
# namespace on fws-lan (af_packet), site 2 an agent in the guest reached over ssh (the guest's
# sshd, through QEMU's forward on this machine's loopback), its e1000e NIC at 0000:00:10.0
# bound with tools/setup --bind and cabled to fws-wan. The controller runs on this machine.
# Two clocks for real: the guest's TSC is QEMU's, not this machine's. The two-client checks
# hold: every frame of the four streams counted, the router's WAN counters equal site 2's, the
# phases armed across the hosts, latencies across the two clocks aligned by probes with their
# bound, and the report names site 2 as the guest (its host name and Debian kernel).
. "$(dirname "$0")/vm.sh"
vm_up routing fws-wan
"$VM" exec tools/setup --no-build --bind 0000:00:10.0 >/dev/null || bad "tools/setup --bind in the guest"
read -r -a SSH <<<"$("$VM" ssh)"
python3 - "$TOP/config/lab-two-clients.json" "$FWSTRESS" "${SSH[@]}" >"$WORK/two.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
fws, ssh = sys.argv[2], sys.argv[3:]
c["hosts"][0]["command"][4] = fws
site2 = c["hosts"][1]
del site2["command"]
# "ssh -q -i KEY -p PORT -o ... root@127.0.0.1": the options between ssh and the target
site2.update({"ssh": ssh[-1], "fwstress": fws, "ssh_options": ssh[1:-1],
              "eal": ["-l", "0-1", "-a", "0000:00:10.0"]})
c["ports"][1]["device"] = "0000:00:10.0"
c.update(frame_size=256, rate="2kpps", duration=3, warmup=0.5, drain=2)
c.pop("output")
print(json.dumps(c))
PY
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
"$FWSTRESS" run -q -o "$WORK/report.json" -t "$WORK/text" "$WORK/two.json" 2>"$WORK/err"
rc=$?
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
[ $rc -eq 0 ] && ok "site 2 in the VM: exit 0" || bad "exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | head -5)"
check "site 2 is the guest: its host name, its Debian kernel, its e1000e" \
	"[h['hostname'] for h in r['hosts']][1] == 'fws-vm' and '$(basename /boot/vmlinuz-* | sed 's/vmlinuz-//' | sort -V | tail -n 1)' in r['hosts'][1]['kernel'] and r['ports'][1]['driver'] == 'net_e1000_em'"
check "every stream's frames received (but for the receiving port's own misses)" "$(ALL_THROUGH 5000)"
check "router dut-wan sent == site 2's wan received ($((wan_tx1 - wan_tx0)), with what it missed)" \
	"r['ports'][1]['rx_frames_total'] <= $((wan_tx1 - wan_tx0)) <= r['ports'][1]['rx_frames_total'] + t[0]['ports'][1]['nic']['imissed']"
check "router dut-wan received == site 2's wan sent ($((wan_rx1 - wan_rx0)))" "r['ports'][1]['tx_frames_total'] == $((wan_rx1 - wan_rx0))"
check "latency across the two clocks: aligned by probes over the control link, with a bound" \
	'all(s["latency_ns"]["clocks"] == "two hosts, aligned by probes over the control link" and 0 < s["latency_ns"]["clock_bound_ns"] < 20e6 and s["latency_ns"]["count"] > 0 for s in t[0]["streams"])'
grep -q "^  phases: armed for one instant on 2 hosts, each in its own clock" "$WORK/text" &&
	ok "phases armed for one instant on the two hosts" || bad "phases: $(grep phases "$WORK/text")"
"$VM" down >/dev/null
vm_gone
finish
