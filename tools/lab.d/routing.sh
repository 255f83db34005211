# SPDX-License-Identifier: BSD-3-Clause
# Topology "routing": the DUT routes IPv4 and IPv6 between a LAN and a WAN segment, no NAT.
#
#   namespace fwsl-tester            namespace fwsl-dut
#   fws-lan  (no address) <-veth-> dut-lan 198.18.0.1/16  2001:2:0:1::1/64
#   fws-wan  (no address) <-veth-> dut-wan 198.19.0.1/16  2001:2:0:2::1/64
#
# fwstress drives fws-lan and fws-wan with net_af_packet (qdisc_bypass=0), inside
# fwsl-tester, and answers ARP/ND for its own addresses (198.18.0.2, 198.19.0.2, ...).

topo_doc="the DUT routes IPv4 and IPv6 between LAN and WAN, no NAT"

# The routed base every topology starts from.
routing_up() {
	namespaces
	veth fws-lan dut-lan
	veth fws-wan dut-wan
	tester_link fws-lan
	tester_link fws-wan
	dut_forwarding
	dut_link dut-lan
	dut_link dut-wan
	d ip -4 addr replace 198.18.0.1/16 dev dut-lan
	d ip -4 addr replace 198.19.0.1/16 dev dut-wan
	d ip -6 addr replace 2001:2:0:1::1/64 dev dut-lan nodad
	d ip -6 addr replace 2001:2:0:2::1/64 dev dut-wan nodad
}

topo_up() {
	routing_up
	dut_rules_clear
}
