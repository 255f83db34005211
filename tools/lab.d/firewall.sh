# SPDX-License-Identifier: BSD-3-Clause
# Topology "firewall": the routing lab plus a stateful nftables firewall with NAT, as a
# small appliance is set up. In fwsl-dut:
#   - forward policy drop; established and related accepted; invalid dropped (strict TCP
#     tracking: nf_conntrack_tcp_loose=0, nf_conntrack_tcp_be_liberal=0)
#   - new connections LAN -> WAN accepted unless the destination is in the blocklist set
#     (loaded from config/drop-lab.txt, Spamhaus DROP text format); new WAN -> LAN dropped
#   - IPv4 leaving dut-wan masqueraded to 198.19.0.1 (IPv6 routed, not translated)
# Counters: nft list ruleset in fwsl-dut; conntrack -L in fwsl-dut shows the translations.

. "$HERE/lab.d/routing.sh"
topo_doc="stateful nftables firewall: masquerade on WAN, blocklist, new WAN->LAN dropped"

# The CIDRs of a DROP-format text file, comma-separated (comments and SBL ids stripped).
drop_cidrs() {
	sed -e 's/;.*//' -e 's/[[:space:]]//g' "$1" | grep -v '^$' | paste -sd, -
}

firewall_up() {
	command -v nft >/dev/null || die "nft (nftables) is missing: tools/setup installs it"
	routing_up
	dut_rules_clear
	d sysctl -qw net.netfilter.nf_conntrack_tcp_loose=0
	d sysctl -qw net.netfilter.nf_conntrack_tcp_be_liberal=0
	local cidrs
	cidrs=$(drop_cidrs "$HERE/../config/drop-lab.txt")
	d nft -f - <<NFT
table inet fws_fw {
	set blocklist4 {
		type ipv4_addr
		flags interval
		elements = { $cidrs }
	}
	counter blocked {}
	counter wan_new_dropped {}
	counter invalid {}
	chain forward {
		type filter hook forward priority filter; policy drop;
		ct state established,related accept
		ct state invalid counter name invalid drop
		iifname "dut-lan" oifname "dut-wan" ip daddr @blocklist4 counter name blocked drop
		iifname "dut-lan" oifname "dut-wan" accept
		iifname "dut-wan" counter name wan_new_dropped drop
	}
}
table ip fws_nat {
	chain postrouting {
		type nat hook postrouting priority srcnat;
		oifname "dut-wan" masquerade
	}
}
NFT
}

topo_up() {
	firewall_up
}
