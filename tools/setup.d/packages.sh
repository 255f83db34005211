# SPDX-License-Identifier: BSD-3-Clause
# What tools/setup installs, by what a command needs (sourced by tools/setup and by its test,
# tests/unit/test_setup_packages.sh). Pure: no apt, no dpkg; the caller says which system it is
# and which clang "clang" brings.

# The main job: build fwstress and run it (DPDK's runtime and dpdk-devbind.py come with dpdk).
FWS_PKG_MAIN="build-essential meson ninja-build pkg-config python3 dpdk dpdk-dev libdpdk-dev
	libjansson-dev libbsd-dev"
# README's test command: Check, the namespace labs' routers and peers, captures, the
# two-load-client tests' sshd and Ansible, clang for the fuzzers (libFuzzer: by version, below),
# groff for the man page's check, a browser for the HTML report's, and HdrHistogram's own
# reader (Java) for the latency export's.
FWS_PKG_TESTS="check iproute2 iputils-ping procps groff-base clang tshark iptables nftables
	conntrack libnetfilter-queue-dev wireguard-go wireguard-tools openvpn openssl
	strongswan-charon strongswan-swanctl libcharon-extra-plugins libstrongswan-standard-plugins
	openssh-client openssh-server ansible-core linuxptp default-jre-headless
	libhdrhistogram-java"
# tools/vm: QEMU, busybox for the guest's initramfs, lspci for dpdk-devbind.py (the kernel is
# added by the caller: only where /boot has none with its modules).
FWS_PKG_VM="qemu-system-x86 busybox-static pciutils"

# fws_packages OS CLANG_N MAIN TESTS VM KERNEL: the names, one a line. OS is os-release's ID
# (debian, ubuntu); CLANG_N the N of the clang-N that "clang" depends on (empty: unknown);
# MAIN/TESTS/VM/KERNEL 1 or 0. Notes for the user go to stderr.
fws_packages() {
	local os=$1 clang=$2 main=$3 tests=$4 vm=$5 kernel=$6
	{
		if [ "$main" -eq 1 ]; then echo $FWS_PKG_MAIN; fi
		if [ "$tests" -eq 1 ]; then
			echo $FWS_PKG_TESTS
			fws_browser_pkg "$os"
			if [ -n "$clang" ]; then echo "libfuzzer-$clang-dev"; fi
		fi
		if [ "$vm" -eq 1 ]; then echo $FWS_PKG_VM; fi
		if [ "$kernel" -eq 1 ]; then fws_kernel_pkg "$os"; fi
	} | tr ' \t' '\n\n' | sed '/^$/d' | awk '!seen[$0]++'
}

# fws_browser_pkg OS: the headless browser the HTML report's test drives, as a .deb. Debian has
# chromium; Ubuntu's chromium (and firefox) are transitional packages that install a snap,
# which a container or a chroot cannot run: none there, and the test says why it skips.
fws_browser_pkg() {
	case "$1" in
	ubuntu) echo "setup: no browser package: Ubuntu's chromium is a snap (the HTML report's browser check skips)" >&2 ;;
	*) echo chromium ;;
	esac
}

# fws_kernel_pkg OS: the distribution's generic kernel, whose modules tools/vm's guest loads.
fws_kernel_pkg() {
	case "$1" in
	ubuntu) echo linux-image-generic ;;
	*) echo linux-image-amd64 ;;
	esac
}

# fws_clang_n DEPENDS: the N of "Depends: clang-N" in apt-cache depends clang's answer.
fws_clang_n() {
	sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p' <<<"$1" | head -n 1
}
