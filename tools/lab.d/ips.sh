# SPDX-License-Identifier: BSD-3-Clause
# Topology "ips": the firewall lab plus an inline blocker: every forwarded packet carrying
# the attack pattern (default "uid=0(root)", FWS_LAB_PATTERN) is dropped by an iptables-nft
# string match and counted. The count:
#   ip netns exec fwsl-dut iptables-nft -L FORWARD -v -x -n

. "$HERE/lab.d/ids.sh"
topo_doc="the firewall plus a string match that drops the attack pattern"

topo_up() {
	firewall_up
	pattern_rule -j DROP
}
