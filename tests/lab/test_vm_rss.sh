#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Receive-side scaling on an emulated vmxnet3 (tools/vm, a guest of 3 vCPUs): two receive
# lcores, so two receive queues per port, 64 IPv4 and 64 IPv6 flows each way through the
# routing lab. DPDK's net_vmxnet3 offers RSS and sets it up, but QEMU's emulation delivers
# every frame on queue 0 whatever the guest asks: the report shows exactly that (queue 1: 0
# frames, the NIC agreeing), every frame counted, and the text says the device did not spread
# the flows. (test_vm_rss_virtio.sh: a device that spreads them.)
. "$(dirname "$0")/vm.sh"

rss_run vmxnet3
check "vmxnet3: QEMU delivered every frame on queue 0 (queue 1: 0, the NIC agrees)" \
	'all(p["rx_queues"][1]["frames"] == p["rx_queues"][1]["nic_frames"] == 0 < p["rx_queues"][0]["frames"] for p in t[0]["ports"])' "$WORK/vmxnet3.json"
grep -Eq "port lan +rx queues \(RSS\): 0: [0-9]+ \(nic [0-9]+\) 1: 0 \(nic 0\); one queue received every frame: the device did not spread the flows" "$WORK/vmxnet3.txt" &&
	ok "vmxnet3: the text says the device did not spread the flows" || bad "vmxnet3 text: $(grep 'rx queues' "$WORK/vmxnet3.txt")"
"$VM" down >/dev/null
vm_gone
finish
