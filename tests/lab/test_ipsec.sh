#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Site-to-site IPsec (tools/lab up ipsec: strongSwan IKEv2 PSK, AES-GCM-256, ESP in UDP 4500
# by the kernel-libipsec plugin in a peer firewall and in the DUT; issue 10, part 5):
#   - bidir, then upload and download alone, up to the largest frame the 1400-byte ipsec0
#     carries (1418): every frame through, none lost;
#   - the report's link bytes per frame (60 of ESP in UDP + the packet and its 2-byte
#     trailer padded to 4 + 18) agree with the WAN link's counters within 2 %;
#   - 1518-byte frames into the tunnel: DF set, refused with the path MTU 1400; DF clear,
#     fragmented by the DUT and every packet reassembled once.
. "$(dirname "$0")/tunnel.sh"
CFG=$TOP/config/lab-ipsec.json
lab_start swanctl /usr/lib/ipsec/charon
lab_topo ipsec || { bad "lab up ipsec"; finish; exit 1; }
tunnel_dirs '[128, 1024, 1418]'
tunnel_overhead 128
tunnel_overhead 1418
tunnel_overhead 1017
tunnel_df 1400
finish
