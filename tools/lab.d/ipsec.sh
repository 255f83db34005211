# SPDX-License-Identifier: BSD-3-Clause
# Topology "ipsec": a site-to-site IPsec tunnel (strongSwan, IKEv2, PSK, AES-GCM-256; ESP in
# userspace by the kernel-libipsec plugin: this kernel has no ESP) between a peer firewall
# (site 1) and the DUT (site 2), the tester's ports behind each; routed, no NAT.
#
#   fwsl-tester          fwsl-peer (site 1)                      fwsl-dut (site 2)
#   fws-lan <-veth-> peer-lan 198.18.0.1/17                      dut-wan 198.19.0.1/16 <-veth-> fws-wan
#                    peer-tun 198.18.128.1/30 <-veth (WAN)-> dut-tun 198.18.128.2/30
#                    ipsec0 (TUN, MTU 1400) ==== ESP in UDP 4500 ==== ipsec0 (TUN, MTU 1400)
#
# Each charon runs in its own mount namespace with its own directory bound over /run (its
# PID file path is fixed): /run/fwsl-ipsec/SITE holds that charon's strongswan.conf
# (STRONGSWAN_CONF), log, PID file and vici socket; swanctl loads the site's connection
# through that socket. The peer starts the child SA (start_action=start: trap policies do
# not work with kernel-libipsec); libipsec always puts ESP in UDP 4500. The PSK is made per
# run. The WAN segment's interface counters (dut-tun) show what the encrypted link carries.
topo_doc="site-to-site IPsec (strongSwan IKEv2 PSK, aes256gcm16, kernel-libipsec)"
IPSEC_DIR=/run/fwsl-ipsec
CHARON=/usr/lib/ipsec/charon

# strongswan.conf of a site's charon (paths as it sees them). Only the plugins it needs; it
# refuses to start without ESP, its sockets and vici (!); kernel-netlink gives it routes
# (its own ESP part cannot load here). openssl gives it X25519.
ipsec_conf() {
	cat <<CONF
charon {
	load_modular = no
	load = random nonce openssl aes gcm sha1 sha2 hmac kdf kernel-libipsec! kernel-netlink socket-default! vici!
	install_routes = yes
	retransmit_tries = 3
	plugins {
		vici { socket = unix:///run/charon.vici }
		kernel-libipsec { allow_peer_ts = no }
	}
	filelog {
		lab { path = /run/charon.log
			time_format = %T
			default = 1
			flush_line = yes }
	}
	syslog { daemon { default = -1 } }
}
CONF
}

swanctl_conf() { # LOCAL REMOTE LOCAL_TS REMOTE_TS ME THEM START
	cat <<CONF
connections {
	site {
		version = 2
		local_addrs = $1
		remote_addrs = $2
		proposals = aes256gcm16-prfsha256-curve25519
		encap = yes
		local { auth = psk
			id = $5 }
		remote { auth = psk
			id = $6 }
		children {
			net { local_ts = $3
				remote_ts = $4
				esp_proposals = aes256gcm16
				start_action = $7 }
		}
	}
}
secrets {
	ike-site { id-a = $5
		id-b = $6
		secret = "$(cat "$IPSEC_DIR/psk")" }
}
CONF
}

charon_up() { # NS SITE
	local run=$IPSEC_DIR/$2
	mkdir -p "$run"
	rm -f "$run/charon.vici" "$run/charon.pid" # a stale socket stops a restart
	ipsec_conf >"$run/strongswan.conf"
	ip netns exec "$1" env STRONGSWAN_CONF=/run/strongswan.conf unshare -m --propagation private \
		sh -c 'mount --bind "$0" /run && exec '"$CHARON" "$run" >/dev/null 2>&1 &
	record_daemon $!
	for _ in $(seq 50); do
		ip netns exec "$1" swanctl --stats --uri "unix://$run/charon.vici" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	die "charon in $1 did not start ($(tail -3 "$run/charon.log" 2>/dev/null))"
}

swanctl_up() { # NS SITE LOCAL REMOTE LOCAL_TS REMOTE_TS ME THEM START
	local run=$IPSEC_DIR/$2
	swanctl_conf "${@:3}" >"$run/swanctl.conf"
	ip netns exec "$1" swanctl --load-all --noprompt --file "$run/swanctl.conf" \
		--uri "unix://$run/charon.vici" >"$run/swanctl.out" 2>&1 ||
		die "swanctl could not load $2's connection ($(tail -2 "$run/swanctl.out"))"
}

topo_up() {
	[ -x "$CHARON" ] && command -v swanctl >/dev/null ||
		die "strongSwan's charon and swanctl are missing: tools/setup installs them"
	[ -f /usr/lib/ipsec/plugins/libstrongswan-kernel-libipsec.so ] ||
		die "strongSwan's kernel-libipsec plugin is missing (libcharon-extra-plugins): tools/setup installs it"
	stop_daemons
	sites_up
	rm -rf "$IPSEC_DIR"
	mkdir -p -m 700 "$IPSEC_DIR"
	head -c 32 /dev/urandom | base64 >"$IPSEC_DIR/psk"
	charon_up "$DUT" dut
	charon_up "$PEER" peer
	swanctl_up "$DUT" dut 198.18.128.2 198.18.128.1 198.19.0.0/16 198.18.0.0/17 dut peer none
	swanctl_up "$PEER" peer 198.18.128.1 198.18.128.2 198.18.0.0/17 198.19.0.0/16 peer dut start
	for _ in $(seq 50); do # the tunnel passes traffic: IKE and the child SA are up
		p ping -c 1 -W 1 -I 198.18.0.1 198.19.0.1 >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	die "the IPsec tunnel passes no traffic ($(tail -3 "$IPSEC_DIR/peer/charon.log" 2>/dev/null))"
}
