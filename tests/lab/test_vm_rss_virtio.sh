#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Receive-side scaling on an emulated virtio-net with 2 queue pairs and QEMU's own RSS
# (rss=on; tools/vm, a guest of 3 vCPUs): DPDK's net_virtio sets RSS up for two receive lcores;
# 64 IPv4 and 64 IPv6 flows each way through the routing lab reach both queues of each port, no
# flow arrives on both, every frame is counted, and per queue what its lcore took equals the
# NIC's own q_ipackets. Then the same device without RSS (tools/vm --no-rss: QEMU offers no
# VIRTIO_NET_F_RSS, the driver no RSS hash types): the one-line warning per port at setup, the
# report's ports say rss false with their two queues, the text says "(no RSS)", and every
# frame is still counted (on whichever queue the tap handed it to), per queue equal to the
# NIC's count.
. "$(dirname "$0")/vm.sh"

rss_run virtio-net-pci
check "virtio-net: both queues of each port received frames, no flow on both" \
	'all(min(x["frames"] for x in p["rx_queues"]) > 1000 for p in t[0]["ports"]) and all(s["flows_split"] == 0 for s in t[0]["streams"])' "$WORK/virtio-net-pci.json"
grep -E "port lan +rx queues \(RSS\): 0: [0-9]+ \(nic [0-9]+\) 1: [0-9]+ \(nic [0-9]+\)$" "$WORK/virtio-net-pci.txt" >/dev/null &&
	ok "virtio-net: the text report gives each queue's frames and the NIC's" || bad "virtio text: $(grep 'rx queues' "$WORK/virtio-net-pci.txt")"
"$VM" down >/dev/null

# Without RSS.
vm_up routing --model virtio-net-pci --queues 2 --no-rss --cpus 3
"$VM" exec tools/setup --no-build --bind 0000:00:10.0 0000:00:11.0 >/dev/null || bad "no rss: tools/setup --bind"
vm_config norss '{"eal": ["-l", "0-2", "-a", "0000:00:10.0", "-a", "0000:00:11.0"], "lcores": {"tx": [1], "rx": [1, 2]}, "frame_size": 256, "duration": 2, "warmup": 0.5, "drain": 0.5}'
vmrun norss && ok "no rss: run with two receive queues: exit 0" || bad "no rss: run: $(grep -v '^EAL\|^TELEMETRY' "$WORK/norss.err" | head -3)"
grep "no RSS" "$WORK/norss.err" >"$WORK/norss.warn"
[ "$(grep -c . "$WORK/norss.warn")" -eq 2 ] && grep -q "^fwstress: port 0000:00:10.0: no RSS, 2 receive queues will not share the load$" "$WORK/norss.warn" &&
	grep -q "^fwstress: port 0000:00:11.0: no RSS, 2 receive queues will not share the load$" "$WORK/norss.warn" &&
	ok "no rss: one warning line per port: $(head -1 "$WORK/norss.warn")" || bad "no rss warning: $(cat "$WORK/norss.warn")"
check "no rss: the report's ports: two receive queues, rss false; every frame of the four streams counted, per queue equal to the NIC's" \
	'all(p["rx_queues"] == 2 and not p["rss"] for p in r["ports"]) and len(t[0]["streams"]) == 4 and all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 3000 for s in t[0]["streams"]) and all(all(x["frames"] == x["nic_frames"] for x in p["rx_queues"]) and sum(x["frames"] for x in p["rx_queues"]) == p["rx"]["rx_frames"] for p in t[0]["ports"])' "$WORK/norss.json"
grep -q "^port lan .*, 2 rx queues (no RSS)" "$WORK/norss.txt" && ok "no rss: the text report's port line says so" ||
	bad "no rss text: $(grep '^port lan' "$WORK/norss.txt")"
"$VM" down >/dev/null
vm_gone
finish
