# SPDX-License-Identifier: BSD-3-Clause
# Topology "firewall": the routing lab plus a stateful nftables firewall with NAT, as a
# small appliance is set up. In fwsl-dut:
#   - forward policy drop; established and related accepted; invalid dropped (strict TCP
#     tracking: nf_conntrack_tcp_loose=0, nf_conntrack_tcp_be_liberal=0)
#   - new connections LAN -> WAN accepted unless the destination is in the blocklist set
#     (loaded from config/drop-lab.txt, Spamhaus DROP text format); new WAN -> LAN dropped
#   - IPv4 leaving dut-wan masqueraded to 198.19.0.1 (IPv6 routed, not translated)
# Counters: nft list ruleset in fwsl-dut; conntrack -L in fwsl-dut shows the translations.
# Limits, for tests with a known answer (environment of tools/lab up firewall):
#   FWS_LAB_CT_LIMIT=N      a state table of N: a new connection beyond N tracked ones is
#                           dropped (ct count; counter state_full). conntrack -C in fwsl-dut
#                           reads the namespace's own count.
#   FWS_LAB_NEW_RATE=R      at most R new connections per second (burst 64: a scheduling
#                           stall of the tester on a busy machine is not a failed rate; counter
#                           new_limited): a known connection rate
#   FWS_LAB_FWD_BUDGET=P    at most P packets per second forwarded in all, every kind
#                           (burst 256, a NIC ring; counter over_budget): a small appliance's CPU, which a
#                           SYN flood takes from the other traffic

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
	local cidrs budget="" ctlimit="" newrate=""
	cidrs=$(drop_cidrs "$HERE/../config/drop-lab.txt")
	# Each limit is a number or absent: nothing else reaches the ruleset.
	[ -z "${FWS_LAB_FWD_BUDGET:-}" ] || [[ "$FWS_LAB_FWD_BUDGET" =~ ^[0-9]+$ ]] || die "FWS_LAB_FWD_BUDGET: a number"
	[ -z "${FWS_LAB_CT_LIMIT:-}" ] || [[ "$FWS_LAB_CT_LIMIT" =~ ^[0-9]+$ ]] || die "FWS_LAB_CT_LIMIT: a number"
	[ -z "${FWS_LAB_NEW_RATE:-}" ] || [[ "$FWS_LAB_NEW_RATE" =~ ^[0-9]+$ ]] || die "FWS_LAB_NEW_RATE: a number"
	[ -z "${FWS_LAB_FWD_BUDGET:-}" ] || budget="limit rate over $FWS_LAB_FWD_BUDGET/second burst 256 packets counter name over_budget drop"
	[ -z "${FWS_LAB_CT_LIMIT:-}" ] || ctlimit="ct state new ct count over $FWS_LAB_CT_LIMIT counter name state_full drop"
	[ -z "${FWS_LAB_NEW_RATE:-}" ] || newrate="ct state new limit rate over $FWS_LAB_NEW_RATE/second burst 64 packets counter name new_limited drop"
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
	counter over_budget {}
	counter state_full {}
	counter new_limited {}
	chain forward {
		type filter hook forward priority filter; policy drop;
		$budget
		ct state established,related accept
		ct state invalid counter name invalid drop
		$ctlimit
		$newrate
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
