# SPDX-License-Identifier: BSD-3-Clause
# Shared by the VM lab tests: a load client in a QEMU guest (tools/vm) whose emulated PCI NICs
# are cabled to the lab's tester links; fwstress runs in the guest on DPDK's PCI drivers.
. "$(dirname "$0")/lab.sh"
VM="$TOP/tools/vm"
for t in qemu-system-x86_64 busybox tshark; do
	command -v "$t" >/dev/null || { echo "SKIP: $t missing: run tools/setup --vm"; exit 77; }
done
ls /lib/modules/*/kernel/fs/9p >/dev/null 2>&1 || { echo "SKIP: no Debian kernel with its modules: run tools/setup --vm"; exit 77; }
"$VM" down >/dev/null 2>&1
"$LAB" down >/dev/null 2>&1
trap '"$VM" down >/dev/null 2>&1; "$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT

# vm_up TOPOLOGY VM-ARGS...: the lab (TOPOLOGY) and the guest up, which accelerator runs it
# printed; the caller binds its NICs (tools/setup --bind in the guest: the user's path).
vm_up() {
	local topo=$1
	shift
	"$LAB" up "$topo" >/dev/null || { bad "lab up $topo"; finish; exit 1; }
	if "$VM" up "$@" >"$WORK/vm.out" 2>&1; then
		ok "$(tail -n 1 "$WORK/vm.out")"
		grep -v "^vm: up" "$WORK/vm.out" || true
	else
		bad "tools/vm up $*: $(cat "$WORK/vm.out")"
		finish
		exit 1
	fi
}

# vmrun NAME [ARGS...]: fwstress run of the guest's /tmp/NAME.cfg (vm_config) with ARGS, its
# stdout in $WORK/NAME.out, stderr in $WORK/NAME.err, its JSON and text reports copied to
# $WORK/NAME.json and $WORK/NAME.txt; returns its exit status.
vmrun() {
	local name=$1 rc
	shift
	"$VM" exec build/app/fwstress run -q -o "/tmp/$name.json" -t "/tmp/$name.txt" "$@" \
		"/tmp/$name.cfg" >"$WORK/$name.out" 2>"$WORK/$name.err"
	rc=$?
	"$VM" exec cat "/tmp/$name.json" >"$WORK/$name.json" 2>/dev/null
	"$VM" exec cat "/tmp/$name.txt" >"$WORK/$name.txt" 2>/dev/null
	return $rc
}

# measuring NAME: wait (60 s at most) until the run NAME's --stats - lines say it measures.
measuring() {
	local i
	for ((i = 0; i < 600; i++)); do
		grep -q '"measure"' "$WORK/$1.out" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# vm_config NAME JSON: config/vm-routing.json with JSON's keys over it (a key set to null
# removed), in the guest's /tmp/NAME.cfg (the guest's /tmp is its own: sent over ssh).
vm_config() {
	python3 - "$TOP/config/vm-routing.json" "$2" <<'PY' | "$VM" exec sh -c "cat >/tmp/$1.cfg"
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(json.loads(sys.argv[2]))
json.dump({k: v for k, v in c.items() if v is not None}, sys.stdout)
PY
}

# vm_gone: no QEMU of tools/vm and no tap of it in any namespace.
vm_gone() {
	local ns left
	left=$(pgrep -f "qemu-system-x86_64 -name fws-vm" || true)
	for ns in "" $(ip netns list | awk '{print $1}'); do
		left="$left$(${ns:+ip netns exec $ns} ip -o link show 2>/dev/null | awk -F': ' '$2 ~ /^fwsv[0-9]/ {print " tap " $2}')"
	done
	[ -z "$left" ] && [ ! -e /run/fwsv ] && ok "tools/vm down: no QEMU, no tap, no state left" ||
		bad "tools/vm down left: $left $(ls /run/fwsv 2>/dev/null)"
}

# rss_run MODEL: the guest with MODEL's NICs (2 queues, 3 vCPUs) up and bound; a run with two
# receive lcores (two queues a port) in $WORK/MODEL.*, its counts and per-queue figures checked.
rss_run() {
	vm_up routing --model "$1" --queues 2 --cpus 3
	"$VM" exec tools/setup --no-build --bind 0000:00:10.0 0000:00:11.0 >/dev/null ||
		bad "$1: tools/setup --bind"
	vm_config "$1" '{"eal": ["-l", "0-2", "-a", "0000:00:10.0", "-a", "0000:00:11.0"], "lcores": {"tx": [1], "rx": [1, 2]}, "frame_size": 256, "duration": 2, "warmup": 0.5, "drain": 0.5}'
	vmrun "$1" && ok "$1: run with two receive queues: exit 0" || bad "$1: run: $(grep -v '^EAL\|^TELEMETRY' "$WORK/$1.err" | head -3)"
	check "$1: every frame of the four streams counted" \
		'len(t[0]["streams"]) == 4 and all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 3000 for s in t[0]["streams"])' "$WORK/$1.json"
	check "$1: two receive queues, RSS set up; per queue our count equals the NIC's, and the queues add up to the port's frames" \
		'all(p["rx_queues"] == 2 and p["rss"] for p in r["ports"]) and all(len(q := p["rx_queues"]) == 2 and all(x["frames"] == x["nic_frames"] for x in q) and sum(x["frames"] for x in q) == p["rx"]["rx_frames"] == p["nic"]["ipackets"] for p in t[0]["ports"])' "$WORK/$1.json"
}
