#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Checksum offload on a PCI NIC for TCP and VLAN-tagged traffic (tools/vm, two emulated
# e1000e: net_e1000_em offers IPv4, UDP and TCP checksum offload). This machine's kernel has
# no 802.1Q (no vlan link type, no tc vlan action): no router here forwards tagged frames, so
# the guest's two NICs are cabled to each other through a veth pair of the tester's namespace
# (vl-a, vl-b; each port's next hop the other's MAC, no path probe), and the capture is on
# that wire. Three runs, IPv4 and IPv6 both ways: TCP streams ("l4": "tcp": handshakes, data
# segments, ACKs, FINs) untagged, then UDP and TCP with both ports on VLAN 10. Every frame is
# delivered; the capture holds every frame the guest sent, tagged as its run asked, and tshark
# finds every IPv4 header, TCP and UDP checksum correct. The report says both checksums were
# offloaded.
. "$(dirname "$0")/vm.sh"
"$LAB" up routing >/dev/null || { bad "lab up routing"; finish; exit 1; }
ip netns exec fwsl-tester ip link add vl-a type veth peer name vl-b
for l in vl-a vl-b; do
	ip netns exec fwsl-tester sysctl -qw "net.ipv6.conf.$l.disable_ipv6=1"
	ip netns exec fwsl-tester ip link set "$l" up
done
vm_up routing vl-a vl-b
"$VM" exec tools/setup --no-build --bind 0000:00:10.0 0000:00:11.0 >/dev/null || bad "tools/setup --bind in the guest"

# cable_config NAME L4 VLAN: the VM config on the cable (each port's next hop the other),
# L4 its test traffic, VLAN the ports' tag (0: none).
cable_config() {
	vm_config "$1" "$(python3 - "$TOP/config/vm-routing.json" "$2" "$3" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
for p, peer in zip(c["ports"], ("52:54:00:f5:00:11", "52:54:00:f5:00:10")):
    for k in ("gateway", "gateway6"):
        p.pop(k)
    p["next_hop_mac"] = peer
    if int(sys.argv[3]):
        p["vlan"] = int(sys.argv[3])
print(json.dumps({"ports": c["ports"], "l4": sys.argv[2], "frame_size": 256, "duration": 2,
                  "warmup": 0.5, "drain": 0.5, "path_check": False}))
PY
)"
}
RUNS="tcp udp-vlan tcp-vlan"
cable_config tcp tcp 0
cable_config udp-vlan udp 10
cable_config tcp-vlan tcp 10

# check_capture RUN VLAN L4: in RUN's capture every frame from each of the guest's NICs
# carries VLAN (empty: none), every IPv4 header and L4 checksum good (tshark: 1 good, 2 bad,
# empty: not that protocol; a TCP checksum of 0xffff where the sum is 0x0000, the other zero
# of ones' complement that RFC 1624 says receivers accept, reads 0 and counts as good: the
# emulated NIC writes it about once in 65536 segments), more than 1000 of L4 over IPv4 and
# over IPv6 from each, and no fewer than the test frames the report says the port sent.
check_capture() {
	tshark -r "$WORK/$1.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE \
		-Y "tcp || udp" -T fields -E separator=, -e eth.src -e vlan.id -e ip.version \
		-e ip.checksum.status -e tcp.checksum.status -e udp.checksum.status -e tcp.checksum 2>/dev/null |
		sort | uniq -c >"$WORK/$1.ck"
	python3 - "$WORK/$1.json" "$WORK/$1.ck" "$2" "$3" >"$WORK/$1.ckr" <<'PY'
import json, sys
rep, ck, vlan, l4 = sys.argv[1:]
mac = {"52:54:00:f5:00:10": "lan", "52:54:00:f5:00:11": "wan"}
sent = {p["name"]: p["tx"]["tx_frames"] + p["tx"]["warmup_tx"] for p in json.load(open(rep))["trials"][0]["ports"]}
n = {"lan": {}, "wan": {}}
for line in open(ck):
    count, row = line.split(None, 1)
    src, v, ver, ip, tcp, udp, tcpsum = row.strip().split(",")
    if tcp == "0" and tcpsum == "0xffff":
        tcp = "1"  # RFC 1624's other zero: valid
    if src not in mac:
        print(f"{count} frames from {src}, not the guest's")
        continue
    good = v == vlan and (ver == "6" or ip == "1") and (tcp or udp) and tcp in ("", "1") and udp in ("", "1")
    key = ("" if good else "BAD ") + ("tcp" if tcp else "udp") + ver
    n[mac[src]][key] = n[mac[src]].get(key, 0) + int(count)
    if not good:
        print(f"{mac[src]}: {count} frames vlan '{v}' ipv{ver} ip {ip} tcp {tcp} udp {udp}")
ok = True
for side in ("lan", "wan"):
    print(f"{side}: {json.dumps(n[side], sort_keys=True)}, sent {sent[side]}")
    ok &= all(not k.startswith("BAD") for k in n[side]) and sum(n[side].values()) >= sent[side]
    ok &= n[side].get(l4 + "4", 0) > 1000 and n[side].get(l4 + "6", 0) > 1000
sys.exit(0 if ok else 1)
PY
}

for run in $RUNS; do
	l4=${run%-vlan}
	vlan=$([ "$run" = "$l4" ] && echo "" || echo 10)
	ip netns exec fwsl-tester tshark -q -i vl-a -w "$WORK/$run.pcap" >/dev/null 2>&1 &
	cap=$!
	sleep 2
	vmrun "$run" && ok "$run: on the cable: exit 0" || bad "$run: run: $(grep -v '^EAL\|^TELEMETRY' "$WORK/$run.err" | head -3)"
	sleep 1
	kill -INT "$cap"
	wait "$cap" 2>/dev/null
	check "$run: every frame of the four streams delivered" \
		'len(t[0]["streams"]) == 4 and all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 2000 for s in t[0]["streams"])' "$WORK/$run.json"
	check "$run: the report says IPv4, UDP and TCP checksums offloaded on both ports" \
		'all(p["checksum_offload"] and p["tcp_checksum_offload"] for p in r["ports"])' "$WORK/$run.json"
	check_capture "$run" "$vlan" "$l4" &&
		ok "$run: ${vlan:+every frame on VLAN $vlan, }every IPv4 header and $l4 checksum correct on the wire ($(paste -sd ' ' "$WORK/$run.ckr"))" ||
		bad "$run: capture: $(paste -sd ' ' "$WORK/$run.ckr")"
done
"$VM" down >/dev/null
vm_gone
finish
