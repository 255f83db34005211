# SPDX-License-Identifier: BSD-3-Clause
# Topology "appcontrol": the firewall lab plus application control by string match, as a
# DPI engine blocks an application by the name its first bytes carry (a TLS ClientHello's
# SNI, an HTTP Host). A forwarded TCP packet carrying the blocked name (default
# "blocked.fwstress.test", FWS_LAB_BLOCKED_APP) marks its connection; every packet of a
# marked connection is dropped, the one that carried the name included. The counts:
#   ip netns exec fwsl-dut iptables-nft -L FORWARD -v -x -n   (fws-app-match, fws-app-drop)

. "$HERE/lab.d/firewall.sh"
topo_doc="the firewall plus application control: connections naming a blocked app dropped"

topo_up() {
	firewall_up
	command -v iptables-nft >/dev/null || die "iptables-nft is missing: tools/setup installs it"
	d iptables-nft -A FORWARD -p tcp -m string --string "${FWS_LAB_BLOCKED_APP:-blocked.fwstress.test}" \
		--algo bm -m comment --comment fws-app-match -j CONNMARK --set-mark 0x42
	d iptables-nft -A FORWARD -m connmark --mark 0x42 -m comment --comment fws-app-drop -j DROP
}
