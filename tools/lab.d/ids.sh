# SPDX-License-Identifier: BSD-3-Clause
# Topology "ids": the firewall lab plus a passive detector: every forwarded packet carrying
# the attack pattern (default "uid=0(root)", FWS_LAB_PATTERN) is counted by an iptables-nft
# string match (xt_string, Boyer-Moore) and forwarded. The count:
#   ip netns exec fwsl-dut iptables-nft -L FORWARD -v -x -n

. "$HERE/lab.d/firewall.sh"
topo_doc="the firewall plus a string match that counts the attack pattern and forwards"

# The pattern rule, with a target or none (count only).
pattern_rule() {
	command -v iptables-nft >/dev/null || die "iptables-nft is missing: tools/setup installs it"
	d iptables-nft -A FORWARD -m string --string "${FWS_LAB_PATTERN:-uid=0(root)}" --algo bm \
		-m comment --comment fws-pattern "$@"
}

topo_up() {
	firewall_up
	pattern_rule
}
