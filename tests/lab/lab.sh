# SPDX-License-Identifier: BSD-3-Clause
# Shared by the lab tests: the integration helpers ($1 the fwstress binary, $2 this
# directory), the repository and tools/lab.
. "$(dirname "$0")/../integration/lib.sh"
TOP=$(cd "$HERE/../.." && pwd)
LAB="$TOP/tools/lab"

# lab_start TOOL...: skip (77) without the tools; no lab now, and none when the test ends.
lab_start() {
	local tool
	for tool; do
		command -v "$tool" >/dev/null || { echo "SKIP: $tool missing: run tools/setup"; exit 77; }
	done
	"$LAB" down >/dev/null 2>&1
	trap '"$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
}

# snmp NS GROUP KEY: the kernel's counter KEY of GROUP (Ip, Icmp, ...) in /proc/net/snmp of NS.
snmp() {
	ip netns exec "$1" awk -v g="$2:" -v k="$3" '$1 == g && $2 !~ /^[0-9]/ { for (i = 2; i <= NF; i++) n[$i] = i; next }
		$1 == g { print $n[k] }' /proc/net/snmp
}

# snmp6 NS KEY: the kernel's IPv6 counter KEY in /proc/net/snmp6 of NS.
snmp6() { ip netns exec "$1" awk -v k="$2" '$1 == k { print $2 }' /proc/net/snmp6; }
