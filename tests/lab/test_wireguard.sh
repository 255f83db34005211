#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Site-to-site WireGuard (tools/lab up wireguard: wireguard-go in a peer firewall and in
# the DUT, the tester behind each; issue 10, part 5):
#   - bidir, then upload and download alone, at frame sizes up to the largest the 1420-byte
#     tunnel carries (1438): every frame through, none lost;
#   - the bytes the report says the encrypted link carries per inner frame agree with the
#     WAN link's own counters (dut-tun in the DUT's namespace, bytes per packet; the kernel
#     leaves out the FCS) within 2 %, per frame size.
#   - 1518-byte frames into the 1420-byte tunnel (tunnel_df): DF set, refused with the path
#     MTU 1420 and the reason; DF clear, fragmented by the DUT and every packet reassembled once.
. "$(dirname "$0")/tunnel.sh"
CFG=$TOP/config/lab-wireguard.json
lab_start wireguard-go wg
lab_topo wireguard || { bad "lab up wireguard"; finish; exit 1; }
tunnel_dirs '[128, 1024, 1438]'
tunnel_overhead 128
tunnel_overhead 1438
tunnel_df 1420
finish
