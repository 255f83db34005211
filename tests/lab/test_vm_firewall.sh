#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Through the lab's stateful NAT firewall (tools/lab up firewall) from a VM load client whose
# NICs are virtio-net (tools/vm, DPDK's net_virtio behind the guest's IOMMU): bidir with
# "nat": "masquerade" delivers every frame both ways, every flow learned and source-
# translated to the firewall's WAN address, and the translations fwstress saw equal the
# kernel's own (conntrack -L) flow for flow.
. "$(dirname "$0")/vm.sh"
command -v conntrack >/dev/null || { echo "SKIP: conntrack missing: run tools/setup"; exit 77; }
vm_up firewall --model virtio-net-pci
"$VM" exec tools/setup --no-build --bind 0000:00:10.0 0000:00:11.0 >/dev/null || bad "tools/setup --bind in the guest"
vm_config fw '{"scenario": "firewall", "nat": "masquerade", "flows6": null, "frame_size": 128, "duration": 2, "warmup": 0.3, "drain": 0.5}'
ip netns exec fwsl-dut conntrack -F >/dev/null 2>&1
vmrun fw && ok "bidir through NAT from the VM: exit 0" || bad "run: $(grep -v '^EAL\|^TELEMETRY' "$WORK/fw.err" | head -3)"
check "virtio-net ports; every frame both ways, NAT as expected, 64 flows each" \
	'all(p["driver"] == "net_virtio" for p in r["ports"]) and len(t[0]["streams"]) == 2 and all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 3000 and s["nat"]["ok"] and s["nat"]["flows_seen"] == 64 for s in t[0]["streams"])' "$WORK/fw.json"
check "upload: every flow source-translated to the firewall's WAN address" \
	'(n := t[0]["streams"][0]["nat"])["src_translated"] == 64 and n["distinct_src_addresses"] == 1 and all(f[2].startswith("198.19.0.1:") for f in n["flows"])' "$WORK/fw.json"
conntrack_matches "$WORK/fw.json" && ok "conntrack -L: 64 translations, equal flow for flow to the learned ones" ||
	bad "conntrack differs: $(head -c 300 "$WORK/cmp")"
"$VM" down >/dev/null
vm_gone
finish
