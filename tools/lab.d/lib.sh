# SPDX-License-Identifier: BSD-3-Clause
# Shared by tools/lab and its topologies: namespace names and the helpers that wire them.
# Only 198.18.0.0/15 and 2001:2::/48 are used; nothing outside the namespaces is touched.

TESTER=fwsl-tester
TESTER2=fwsl-tester2  # with "tools/lab split": the second load client, holding fws-wan
DUT=fwsl-dut
PEER=fwsl-peer        # the tunnel topologies' far site (site 1); the DUT is site 2
PIDS=/run/fwsl-lab.pids # daemons a topology started (tunnel peers), one PID a line

die() {
	echo "lab: $*" >&2
	exit 1
}

t() { ip netns exec "$TESTER" "$@"; }
d() { ip netns exec "$DUT" "$@"; }
p() { ip netns exec "$PEER" "$@"; }

# A process's start time (clock ticks since boot, /proc/PID/stat field 22): with the PID it
# names one process, not whichever later gets the same number.
start_time() {
	local s
	s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	s=${s##*) }
	set -- $s
	echo "${20}"
}

# Record a daemon a topology started (PID and start time), for stop_daemons.
record_daemon() {
	echo "$1 $(start_time "$1")" >>"$PIDS"
}

# Stop every daemon a topology started, by what it recorded. A PID whose start time differs
# (the file outlived a reboot: /run on disk) is another process now, and left alone.
stop_daemons() {
	local pid st live=()
	[ -f "$PIDS" ] || return 0
	while read -r pid st; do
		[ -n "$st" ] && [ "$(start_time "$pid")" = "$st" ] && live+=("$pid")
	done <"$PIDS"
	rm -f "$PIDS"
	[ ${#live[@]} -gt 0 ] || return 0
	kill "${live[@]}" 2>/dev/null || true
	sleep 0.2
	kill -9 "${live[@]}" 2>/dev/null || true
}

has_ns() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }

# NAME: a network namespace by that name, made when missing. A name whose file is no
# namespace (a plain file: /run on disk kept it over a reboot, or the mount namespace that
# held its mount has ended) is removed and made again; entering it would fail with
# "Invalid argument" and every veth into it with "Peer netns reference is invalid".
ensure_ns() {
	if has_ns "$1" && ! ip netns exec "$1" true 2>/dev/null; then
		echo "lab: $1: stale namespace file (no namespace behind it), made again" >&2
		ip netns del "$1" 2>/dev/null || rm -f "/run/netns/$1"
	fi
	has_ns "$1" || ip netns add "$1"
}

namespaces() {
	ensure_ns "$TESTER"
	ensure_ns "$DUT"
	t ip link set lo up
	d ip link set lo up
}

veth() { # tester-side DUT-side
	if ! t ip link show "$1" >/dev/null 2>&1; then
		ip link add "$1" netns "$TESTER" type veth peer name "$2" netns "$DUT"
	fi
}

# A tester link: up, and the tester kernel silent on it (fwstress is the host there).
tester_link() {
	t sysctl -qw "net.ipv6.conf.$1.disable_ipv6=1"
	t ip link set "$1" up
}

# A DUT link: up, no reverse-path filter, no DAD, no router solicitations.
dut_link() {
	d sysctl -qw "net.ipv4.conf.$1.rp_filter=0"
	d sysctl -qw "net.ipv6.conf.$1.accept_dad=0"
	d sysctl -qw "net.ipv6.conf.$1.keep_addr_on_down=1" # a link flap keeps the router's addresses
	d sysctl -qw "net.ipv6.conf.$1.accept_ra=0"
	d sysctl -qw "net.ipv6.conf.$1.router_solicitations=0"
	d ip link set "$1" up
}

# Remove every nftables (and iptables-nft) rule of the DUT: each topology starts clean.
dut_rules_clear() {
	if command -v nft >/dev/null; then d nft flush ruleset; fi
}

dut_forwarding() {
	d sysctl -qw net.ipv4.ip_forward=1
	d sysctl -qw net.ipv6.conf.all.forwarding=1
	d sysctl -qw net.ipv4.conf.all.rp_filter=0
	d sysctl -qw net.ipv4.conf.default.rp_filter=0
}

# The tunnel topologies' two sites (wireguard, openvpn, ipsec): a peer firewall (site 1)
# and the DUT (site 2), the tester's ports behind each, the WAN veth between them:
#   fws-lan <-veth-> peer-lan 198.18.0.1/17 (fwsl-peer)   dut-wan 198.19.0.1/16 <-veth-> fws-wan
#   peer-tun 198.18.128.1/30 <-veth (WAN)-> dut-tun 198.18.128.2/30 (fwsl-dut)
# The tunnel itself is each topology's.
sites_up() {
	namespaces
	ensure_ns "$PEER"
	p ip link set lo up
	if ! t ip link show fws-lan >/dev/null 2>&1; then
		ip link add fws-lan netns "$TESTER" type veth peer name peer-lan netns "$PEER"
	fi
	veth fws-wan dut-wan
	if ! p ip link show peer-tun >/dev/null 2>&1; then
		ip link add peer-tun netns "$PEER" type veth peer name dut-tun netns "$DUT"
	fi
	tester_link fws-lan
	tester_link fws-wan
	dut_forwarding
	p sysctl -qw net.ipv4.ip_forward=1
	p sysctl -qw net.ipv4.conf.all.rp_filter=0
	p sysctl -qw net.ipv4.conf.default.rp_filter=0
	for l in peer-lan peer-tun; do
		p sysctl -qw "net.ipv4.conf.$l.rp_filter=0"
		p ip link set "$l" up
	done
	dut_link dut-wan
	dut_link dut-tun
	dut_rules_clear
	p ip -4 addr replace 198.18.0.1/17 dev peer-lan
	p ip -4 addr replace 198.18.128.1/30 dev peer-tun
	d ip -4 addr replace 198.19.0.1/16 dev dut-wan
	d ip -4 addr replace 198.18.128.2/30 dev dut-tun
}
