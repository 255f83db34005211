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

# conntrack_matches REPORT: the firewall's conntrack -L holds exactly the 64 translations the
# report's download stream was sent to, flow for flow (the difference in $WORK/cmp).
conntrack_matches() {
	ip netns exec fwsl-dut conntrack -L -p udp 2>/dev/null >"$WORK/conntrack"
	python3 - "$1" "$WORK/conntrack" "$WORK/cmp" <<'PY'
import json, re, sys
kernel = {}
for line in open(sys.argv[2]):
    m = re.findall(r"src=(\S+) dst=(\S+) sport=(\d+) dport=(\d+)", line)
    if len(m) == 2 and m[0][0].startswith("198.18.1."):
        (osrc, odst, osp, odp), (rsrc, rdst, rsp, rdp) = m
        kernel[f"{osrc}:{osp}"] = f"{rdst}:{rdp}"
r = json.load(open(sys.argv[1]))
learn = [s for s in r["trials"][0]["streams"] if s["name"] == "download"][0]["nat"]["flows"]
# Download flows were sent to the learned address: [src, dst (learned), arrived src, arrived dst].
ours = {f[3]: f[1] for f in learn}
diff = {k: (kernel.get(k), ours.get(k)) for k in set(kernel) | set(ours) if kernel.get(k) != ours.get(k)}
open(sys.argv[3], "w").write(repr(diff))
sys.exit(0 if len(kernel) == len(ours) == 64 and not diff else 1)
PY
}
