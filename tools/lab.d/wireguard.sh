# SPDX-License-Identifier: BSD-3-Clause
# Topology "wireguard": a site-to-site WireGuard tunnel (wireguard-go, userspace: this
# kernel has no WireGuard module) between a peer firewall (site 1) and the DUT (site 2),
# the tester's ports behind each; test traffic crosses the tunnel, routed, no NAT.
#
#   fwsl-tester          fwsl-peer (site 1)                      fwsl-dut (site 2)
#   fws-lan <-veth-> peer-lan 198.18.0.1/17                      dut-wan 198.19.0.1/16 <-veth-> fws-wan
#                    peer-tun 198.18.128.1/30 <-veth (WAN)-> dut-tun 198.18.128.2/30
#                    wgpeer 198.18.129.1/30 ==== WireGuard ==== wgdut 198.18.129.2/30
#
# The WAN segment's interface counters (dut-tun) show what the encrypted link carries.
# Each namespace's wireguard-go has its own interface name: its control socket lives in
# /var/run/wireguard/IFNAME.sock, which the namespaces share.
topo_doc="site-to-site WireGuard (wireguard-go) from a peer firewall to the DUT"

wg_up() { # NS IFNAME ADDR KEYFILE LISTEN PEERPUB ENDPOINT ALLOWED
	local ns=$1 ifn=$2
	ip netns exec "$ns" wireguard-go -f "$ifn" >/dev/null 2>&1 &
	record_daemon $!
	for _ in $(seq 50); do
		ip netns exec "$ns" ip link show "$ifn" >/dev/null 2>&1 && break
		sleep 0.1
	done
	ip netns exec "$ns" wg set "$ifn" private-key "$4" listen-port "$5" \
		peer "$6" endpoint "$7" allowed-ips "$8" persistent-keepalive 0 ||
		die "wg set $ifn failed"
	ip netns exec "$ns" ip addr replace "$3" dev "$ifn"
	ip netns exec "$ns" ip link set "$ifn" mtu 1420 up
}

topo_up() {
	command -v wireguard-go >/dev/null && command -v wg >/dev/null ||
		die "wireguard-go and wg (wireguard-tools) are missing: tools/setup installs them"
	stop_daemons
	sites_up
	local dir
	dir=$(mktemp -d /tmp/fwsl-wg.XXXXXX)
	(umask 077 && wg genkey >"$dir/peer.key" && wg genkey >"$dir/dut.key")
	wg_up "$PEER" wgpeer 198.18.129.1/30 "$dir/peer.key" 51820 "$(wg pubkey <"$dir/dut.key")" \
		198.18.128.2:51821 198.19.0.0/16,198.18.129.2/32
	wg_up "$DUT" wgdut 198.18.129.2/30 "$dir/dut.key" 51821 "$(wg pubkey <"$dir/peer.key")" \
		198.18.128.1:51820 198.18.0.0/17,198.18.129.1/32
	rm -rf "$dir"
	p ip route replace 198.19.0.0/16 dev wgpeer
	d ip route replace 198.18.0.0/17 dev wgdut
	for _ in $(seq 20); do # the tunnel passes traffic: the handshake is done
		p ping -c 1 -W 1 198.18.129.2 >/dev/null 2>&1 && return 0
	done
	die "the WireGuard tunnel passes no traffic"
}
