# SPDX-License-Identifier: BSD-3-Clause
# Topology "openvpn": a site-to-site OpenVPN tunnel (peer-to-peer, TLS, AES-256-GCM, UDP)
# between a peer firewall (site 1) and the DUT (site 2), the tester's ports behind each;
# routed, no NAT. FWS_LAB_OVPN_LZO=1 adds "--compress lzo" (and "--allow-compression
# yes", which OpenVPN 2.6 needs for it) on both ends, as labs run it.
#
#   fwsl-tester          fwsl-peer (site 1)                      fwsl-dut (site 2)
#   fws-lan <-veth-> peer-lan 198.18.0.1/17                      dut-wan 198.19.0.1/16 <-veth-> fws-wan
#                    peer-tun 198.18.128.1/30 <-veth (WAN)-> dut-tun 198.18.128.2/30
#                    ovpeer 198.18.129.1 ==== OpenVPN (UDP 1194) ==== ovdut 198.18.129.2
#
# Certificates (a CA and one per site) are made per run with openssl. tun-mtu 1400.
topo_doc="site-to-site OpenVPN (p2p, AES-256-GCM, UDP; FWS_LAB_OVPN_LZO=1: --compress lzo)"

ovpn_certs() { # DIR
	(
		umask 077
		cd "$1"
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
			-subj /CN=fwsl-ca -keyout ca.key -out ca.crt
		for n in peer dut; do
			openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
				-subj "/CN=fwsl-$n" -keyout "$n.key" -out "$n.csr"
			openssl x509 -req -in "$n.csr" -CA ca.crt -CAkey ca.key -CAcreateserial \
				-days 2 -out "$n.crt"
		done
	) >/dev/null 2>&1 || die "openssl could not make the lab's certificates"
}

ovpn_up() { # NS DEV LOCAL REMOTE IFLOCAL IFREMOTE ROLE NAME DIR
	local lzo=()
	[ -z "${FWS_LAB_OVPN_LZO:-}" ] || lzo=(--compress lzo --allow-compression yes)
	ip netns exec "$1" openvpn --dev "$2" --dev-type tun --proto udp --local "$3" \
		--lport 1194 --remote "$4" 1194 --ifconfig "$5" "$6" --"$7" --dh none \
		--ca "$9/ca.crt" --cert "$9/$8.crt" --key "$9/$8.key" \
		--data-ciphers AES-256-GCM --tun-mtu 1400 "${lzo[@]}" \
		--script-security 0 --verb 1 --log "$9/$8.log" &
	record_daemon $!
}

topo_up() {
	command -v openvpn >/dev/null && command -v openssl >/dev/null ||
		die "openvpn and openssl are missing: tools/setup installs them"
	stop_daemons
	sites_up
	local dir=/run/fwsl-ovpn
	rm -rf "$dir"
	mkdir -p "$dir"
	ovpn_certs "$dir"
	ovpn_up "$DUT" ovdut 198.18.128.2 198.18.128.1 198.18.129.2 198.18.129.1 tls-server dut "$dir"
	ovpn_up "$PEER" ovpeer 198.18.128.1 198.18.128.2 198.18.129.1 198.18.129.2 tls-client peer "$dir"
	for _ in $(seq 50); do # the tunnel passes traffic: TLS and the data channel are up
		if p ip link show ovpeer >/dev/null 2>&1 && d ip link show ovdut >/dev/null 2>&1 &&
			p ping -c 1 -W 1 198.18.129.2 >/dev/null 2>&1; then
			p ip route replace 198.19.0.0/16 dev ovpeer
			d ip route replace 198.18.0.0/17 dev ovdut
			return 0
		fi
		sleep 0.2
	done
	die "the OpenVPN tunnel passes no traffic ($(tail -3 "$dir/peer.log" 2>/dev/null))"
}
