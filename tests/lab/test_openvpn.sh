#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Site-to-site OpenVPN (tools/lab up openvpn: p2p, TLS, AES-256-GCM over UDP, tun-mtu 1400;
# issue 10, part 5):
#   - bidir, then upload and download alone, up to the largest frame the tunnel carries
#     (1418): every frame through, none lost;
#   - the report's link bytes per frame (52 of OpenVPN's + the packet + 18) agree with the
#     WAN link's counters within 2 %;
#   - 1518-byte frames into the 1400-byte tunnel (tunnel_df): DF set, refused with the path
#     MTU 1400 and the reason; DF clear, fragmented by the DUT and every packet reassembled once.
#   - with "--compress lzo", as labs run it: the default random fill leaves the WAN carrying
#     at least the inner bytes (nothing to compress; 53 with the compression byte, within
#     2 %), while a zero fill shows the compression: fewer bytes on the WAN than inside.
. "$(dirname "$0")/tunnel.sh"
CFG=$TOP/config/lab-openvpn.json
lab_start openvpn openssl
lab_topo openvpn || { bad "lab up openvpn"; finish; exit 1; }
tunnel_dirs '[128, 1024, 1418]'
tunnel_overhead 128
tunnel_overhead 1418
tunnel_df 1400

# (Compression is the DUT's setting, not the load clients': measured with one site only.)
[ "$SITES" = 1 ] || { finish; exit; }
"$LAB" down >/dev/null
FWS_LAB_OVPN_LZO=1 lab_topo openvpn || { bad "lab up openvpn (lzo)"; finish; exit 1; }
# Per packet, at the IP layer: the WAN's bytes less Ethernet's 14 against the inner 1000.
per_packet() { echo $((WAN_BYTES / (WAN_PACKETS > 0 ? WAN_PACKETS : 1) - 14)); }
# The random fill with 53 bytes of overhead (52 + the compression byte), within 2 %.
tunnel_overhead 1018 '{"path_check": false, "tunnel": {"kind": "openvpn", "overhead": 53}}' lzo-random
got=$(per_packet)
[ "$got" -ge 1000 ] && ok "lzo, random fill: $got bytes on the WAN per 1000-byte inner packet: nothing compressed" || bad "lzo, random fill: $got bytes per 1000-byte packet"
wan_run lzo-zero 1018 '{"path_check": false, "payload": {"fill": "zero"}}'
got=$(per_packet)
[ "$got" -lt 1000 ] && ok "lzo, zero fill: $got bytes on the WAN per 1000-byte inner packet: compressed" || bad "lzo, zero fill: $got bytes per 1000-byte packet"
finish
