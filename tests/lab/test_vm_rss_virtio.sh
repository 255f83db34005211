#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Receive-side scaling on an emulated virtio-net with 2 queue pairs and QEMU's own RSS
# (rss=on; tools/vm, a guest of 3 vCPUs): DPDK's net_virtio sets RSS up for two receive lcores;
# 64 IPv4 and 64 IPv6 flows each way through the routing lab reach both queues of each port, no
# flow arrives on both, every frame is counted, and per queue what its lcore took equals the
# NIC's own q_ipackets.
. "$(dirname "$0")/vm.sh"

rss_run virtio-net-pci
check "virtio-net: both queues of each port received frames, no flow on both" \
	'all(min(x["frames"] for x in p["rx_queues"]) > 1000 for p in t[0]["ports"]) and all(s["flows_split"] == 0 for s in t[0]["streams"])' "$WORK/virtio-net-pci.json"
grep -E "port lan +rx queues \(RSS\): 0: [0-9]+ \(nic [0-9]+\) 1: [0-9]+ \(nic [0-9]+\)$" "$WORK/virtio-net-pci.txt" >/dev/null &&
	ok "virtio-net: the text report gives each queue's frames and the NIC's" || bad "virtio text: $(grep 'rx queues' "$WORK/virtio-net-pci.txt")"
"$VM" down >/dev/null
vm_gone
finish
