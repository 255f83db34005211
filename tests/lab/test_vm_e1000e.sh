#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A load client with PCI NICs (tools/vm): two emulated Intel 82574L (QEMU e1000e, DPDK's
# net_e1000_em) cabled to the routing lab. The user's path in the guest: a run before the
# NICs are bound is refused in one line naming what to run, as is one on the NIC the guest's
# kernel holds (which tools/setup will not bind: it has the default route); --bind binds them
# to vfio-pci (behind the guest's IOMMU); fwstress ports shows driver, address, queues,
# offloads and timestamps; too few hugepages give one line saying what to do; a run of IPv4
# and IPv6 streams through the router delivers every frame and its counts equal the router's
# interface counters; a capture on the router finds every IPv4 and UDP checksum the NIC
# computed correct; the report says the checksums were offloaded, what hardware timestamps
# the NIC offers (none for every frame: TSC stamps) and that the latency stamps follow the
# wire model at the link's 1000 Mbit/s. A link taken down mid-trial (QEMU's set_link: the
# emulated PHY loses its link) is reported as a link event. Nothing is left after tools/vm
# down. Under TCG (printed) the rates are low: counts, not speed.
. "$(dirname "$0")/vm.sh"
vm_up routing

expect_rc 2 "a run before the NICs are bound" "$VM" exec build/app/fwstress run -q config/vm-routing.json
grep -v "^EAL\|^TELEMETRY" "$WORK/err" >"$WORK/err1"
[ "$(grep -c . "$WORK/err1")" -eq 1 ] && grep -q "ports\[0\].device: PCI 0000:00:10.0 is bound to no driver, so DPDK cannot use it: tools/setup --bind 0000:00:10.0$" "$WORK/err1" &&
	ok "one line naming the unbound NIC and tools/setup --bind" || bad "unbound: $(cat "$WORK/err1")"
# The guest's management NIC (virtio-net at 0000:00:04.0, the kernel's, its default route):
# a config naming it is refused before EAL, naming the kernel driver; tools/setup will not
# bind it.
sed 's/0000:00:10.0/0000:00:04.0/g' "$TOP/config/vm-routing.json" | "$VM" exec sh -c 'cat >/tmp/kernel.cfg'
expect_rc 2 "a run on the NIC the kernel holds" "$VM" exec build/app/fwstress run -q /tmp/kernel.cfg
grep -v "^EAL\|^TELEMETRY" "$WORK/err" >"$WORK/err1"
[ "$(grep -c . "$WORK/err1")" -eq 1 ] && grep -q "ports\[0\].device: PCI 0000:00:04.0 is bound to the kernel driver virtio-pci: DPDK cannot use it while the kernel has it: tools/setup --bind 0000:00:04.0$" "$WORK/err1" &&
	ok "one line naming the kernel driver" || bad "kernel driver: $(cat "$WORK/err1")"
expect_rc 1 "tools/setup --bind of the management NIC" "$VM" exec tools/setup --no-build --bind 0000:00:04.0
grep -q "carries this machine's default route; binding it would cut the machine off. Nothing changed." "$WORK/err" &&
	ok "refused: it carries the guest's default route" || bad "mgmt bind: $(cat "$WORK/err")"
expect_rc 0 "tools/setup --bind in the guest" "$VM" exec tools/setup --no-build --bind 0000:00:10.0 0000:00:11.0
[ "$(grep -c "bound to vfio-pci (was -; tools/setup --unbind gives it back)" "$WORK/out")" -eq 2 ] &&
	ok "both NICs bound to vfio-pci" || bad "bind: $(cat "$WORK/out")"
expect_rc 0 "fwstress ports" "$VM" exec build/app/fwstress ports
[ "$(grep -c "driver net_e1000_em" "$WORK/out")" -eq 2 ] && grep -q "^port 0: 0000:00:10.0" "$WORK/out" &&
	grep -q "^port 1: 0000:00:11.0" "$WORK/out" && grep -q "offloads: TX IPv4 checksum yes, UDP checksum yes" "$WORK/out" &&
	ok "ports: both e1000e by PCI address, driver, queues and checksum offloads" || bad "ports: $(cat "$WORK/out")"
[ "$(grep -c "timestamps: RX offload no, PTP clock \(yes\|no\): latency from software TSC stamps" "$WORK/out")" -eq 2 ] &&
	ok "ports: the hardware timestamps probed, TSC stamps the method" || bad "ports timestamps: $(grep timestamps "$WORK/out")"
ptp=$(grep -m1 -o "PTP clock [a-z]*" "$WORK/out" | awk '{print $3}')

# The run, the router's counters around it and a capture on both of its sides meanwhile.
vm_config route '{"frame_size": 256, "duration": 2, "warmup": 0.5, "drain": 0.5}'
# First with too few hugepages in the guest (8 MB): one line saying what to do.
"$VM" exec sh -c 'echo 4 >/proc/sys/vm/nr_hugepages'
"$VM" exec build/app/fwstress run -q -o "" /tmp/route.cfg >/dev/null 2>"$WORK/err"
rc=$?
grep -v "^EAL\|^TELEMETRY" "$WORK/err" >"$WORK/err1"
[ $rc -ne 0 ] && [ "$(grep -c . "$WORK/err1")" -eq 1 ] && grep -q "reserve more hugepages" "$WORK/err1" &&
	ok "4 hugepages in the guest: exit $rc, one line: $(cat "$WORK/err1")" || bad "few hugepages: exit $rc: $(cat "$WORK/err1")"
"$VM" exec sh -c 'echo 256 >/proc/sys/vm/nr_hugepages'
read -r lan_rx0 lan_tx0 <<<"$(counters dut-lan)"
read -r wan_rx0 wan_tx0 <<<"$(counters dut-wan)"
for side in lan wan; do
	ip netns exec fwsl-dut tshark -q -i "dut-$side" -w "$WORK/$side.pcap" >/dev/null 2>&1 &
	eval "cap_$side=\$!"
done
sleep 2
vmrun route && ok "run through the router: exit 0" || bad "run: $(grep -v '^EAL\|^TELEMETRY' "$WORK/route.err" | head -3)"
sleep 1
kill -INT "$cap_lan" "$cap_wan"
wait "$cap_lan" "$cap_wan" 2>/dev/null
read -r lan_rx1 lan_tx1 <<<"$(counters dut-lan)"
read -r wan_rx1 wan_tx1 <<<"$(counters dut-wan)"
R=$WORK/route.json
check "every frame of the four streams delivered" \
	'len(t[0]["streams"]) == 4 and all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 3000 for s in t[0]["streams"])' "$R"
check "router dut-wan sent == fwstress wan received ($((wan_tx1 - wan_tx0)))" "r['ports'][1]['rx_frames_total'] == $((wan_tx1 - wan_tx0))" "$R"
check "router dut-lan sent == fwstress lan received ($((lan_tx1 - lan_tx0)))" "r['ports'][0]['rx_frames_total'] == $((lan_tx1 - lan_tx0))" "$R"
check "router dut-lan received == fwstress lan sent ($((lan_rx1 - lan_rx0)))" "r['ports'][0]['tx_frames_total'] == $((lan_rx1 - lan_rx0))" "$R"
check "router dut-wan received == fwstress wan sent ($((wan_rx1 - wan_rx0)))" "r['ports'][1]['tx_frames_total'] == $((wan_rx1 - wan_rx0))" "$R"
check "the report: e1000e by PCI address, link up at 1000 Mbit/s, checksums offloaded" \
	'[(p["device"], p["driver"], p["link_up"], p["link_speed_mbps"], p["checksum_offload"]) for p in r["ports"]] == [("0000:00:10.0", "net_e1000_em", True, 1000, True), ("0000:00:11.0", "net_e1000_em", True, 1000, True)]' "$R"
check "the report: no RX timestamp offload, PTP clock as fwstress ports said ($ptp), TSC stamps the method" \
	"all(p['timestamps'] == {'rx_offload': False, 'ptp': '$ptp' == 'yes', 'latency_method': 'software TSC stamps', 'why': p['timestamps']['why']} and p['timestamps']['why'] for p in r['ports'])" "$R"
check "tx_stamp auto: the wire model at 1000 Mbit/s on every stream" \
	'all(s["tx_stamp"]["model"] == "wire" and s["tx_stamp"]["wire_mbps"] == 1000 for s in t[0]["streams"])' "$R"
grep -q "stamps: upload: at the modelled departure (wire 1000 Mbit/s" "$WORK/route.txt" &&
	ok "text report: the stamps' wire model named" || bad "text: $(grep stamps "$WORK/route.txt" | head -2)"

# Every frame the guest's NICs sent, as the router received it: checksums computed by the
# (emulated) NIC, checked by tshark. The capture must hold every test frame the report counts.
for side in lan wan; do
	mac=52:54:00:f5:00:1$([ $side = lan ] && echo 0 || echo 1)
	tshark -r "$WORK/$side.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
		-Y "eth.src == $mac && udp" -T fields -e ip.version -e ip.checksum.status -e udp.checksum.status \
		2>/dev/null | sort | uniq -c >"$WORK/$side.ck"
done
python3 - "$R" "$WORK/lan.ck" "$WORK/wan.ck" >"$WORK/ck" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tx = {p["name"]: p["tx"]["tx_frames"] + p["tx"]["warmup_tx"] for p in r["trials"][0]["ports"]}
good = True
for side, f in (("lan", sys.argv[2]), ("wan", sys.argv[3])):
    rows = [l.split() for l in open(f) if l.strip()]
    # ip.version, ip.checksum.status (IPv4 only), udp.checksum.status: 1 good, 0 unverified, 2 bad
    v4 = sum(int(n) for n, *rest in rows if rest[0] == "4" and rest[1:] == ["1", "1"])
    v6 = sum(int(n) for n, *rest in rows if rest[0] == "6" and rest[1:] == ["1"])
    other = sum(int(n) for n, *rest in rows) - v4 - v6
    print(f"{side}: IPv4 {v4} good, IPv6 {v6} good, {other} other; test frames sent {tx[side]}")
    good &= other == 0 and v4 + v6 >= tx[side] and v4 > 1000 and v6 > 1000
sys.exit(0 if good else 1)
PY
[ $? -eq 0 ] && ok "every IPv4 header and UDP checksum (v4 and v6) correct in the capture ($(paste -sd ' ' "$WORK/ck"))" ||
	bad "checksums: $(cat "$WORK/ck" "$WORK/lan.ck")"

# A cable pulled mid-trial: the NIC's link goes down for about a second.
vm_config link '{"frame_size": 128, "duration": 5, "warmup": 0.5, "drain": 0.5, "direction": "upload", "path_check": false}'
vmrun link --stats - &
run=$!
# The first per-second line comes 1 s into the measured phase; the driver sees the link back
# up about 2 s after QEMU's (its PHY's autonegotiation): 5 s leave room for both.
measuring link || bad "the link run never measured: $(cat "$WORK/link.err")"
"$VM" link 0 down
sleep 1
"$VM" link 0 up
wait $run && ok "run with a link event: exit 0" || bad "link run: $(grep -v '^EAL\|^TELEMETRY' "$WORK/link.err" | head -3)"
check "one link event on lan, down about a second, the frames sent meanwhile lost" \
	'len(t[0].get("link_events", [])) == 1 and (e := t[0]["link_events"][0])["port"] == "lan" and 0.8 < e["down_for_s"] < 4 and 0 < t[0]["streams"][0]["lost"] <= e["frames_sent_while_down"]' "$WORK/link.json"
grep -q "LINK DOWN: port lan at .* up again after" "$WORK/link.txt" && ok "text report: LINK DOWN line" || bad "no LINK DOWN line"

"$VM" down >/dev/null
vm_gone
finish
