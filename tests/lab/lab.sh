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

# routing_upload OUT JSON: the routing lab up (down when the test ends), and in OUT its
# config as an upload of 256-byte frames without warm-up or path check (every test frame the
# router sees is a measured one, so its counters are the trial's to the frame), JSON's keys
# over it.
routing_upload() {
	"$LAB" down >/dev/null 2>&1
	"$LAB" up routing >/dev/null || { bad "lab up"; finish; exit 1; }
	trap '"$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
	sleep 3
	python3 - "$TOP/config/lab-routing.json" "$2" >"$1" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.update({"direction": "upload", "frame_size": 256, "warmup": 0, "drain": 0.5,
          "path_check": False})
c.update(json.loads(sys.argv[2]))
c.pop("flows6", None)
json.dump(c, sys.stdout)
PY
}

# egress TABLE RULE: a chain of netdev table TABLE at the router's egress (dut-wan) with RULE
# for the test frames (to 198.19.1.1); egress_count TABLE: the packets its counters counted.
egress() {
	ip netns exec fwsl-dut nft -f - <<NFT
table netdev $1 {
	chain egress {
		type filter hook egress device "dut-wan" priority 0;
		ip daddr 198.19.1.1 $2
	}
}
NFT
}
egress_count() {
	ip netns exec fwsl-dut nft -j list chain netdev "$1" egress | python3 -c '
import json, sys
print(sum(e["counter"]["packets"] for r in json.load(sys.stdin)["nftables"] if "rule" in r for e in r["rule"]["expr"] if "counter" in e))'
}

# measured_for NDJSON SECONDS: wait (up to 10 s) until a run's --stats NDJSON shows its
# measured phase SECONDS old: what a test does to the DUT then happens inside that phase.
measured_for() {
	for _ in $(seq 200); do
		python3 - "$1" "$2" <<'PY' 2>/dev/null && return 0
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if any(l.get("phase") == "measure" and l.get("elapsed_s", 0) >= float(sys.argv[2]) for l in lines) else 1)
PY
		sleep 0.05
	done
	return 1
}

# A python expression for check: MISSED(s) is what the receive port of stream s missed itself
# (its af_packet ring full, when the agents' spinning lcores crowd these 2 cores), as the
# report gives it: the tester's loss, not the DUT's (receiver_missed).
MISSED='(lambda s: s["receiver_missed"])'
# ALL_THROUGH(N): every stream of trial 0 sent more than N frames and received each one,
# but for its receive port's own misses (the report's lost_dut_min: what they cannot explain).
ALL_THROUGH() {
	echo "all(s['received']['distinct_frames'] + s['lost'] == s['offered']['frames'] > $1 and s['lost'] <= $MISSED(s) and s['lost_dut_min'] == 0 for s in t[0]['streams'])"
}

# counters IF: "rx_packets tx_packets" of the router's interface IF, from its kernel (its
# 64-bit counters in sysfs, which ip netns exec mounts for the namespace; read in one process,
# so the two are taken within microseconds of each other).
counters() {
	ip netns exec fwsl-dut cat "/sys/class/net/$1/statistics/rx_packets" "/sys/class/net/$1/statistics/tx_packets" | paste -sd ' '
}

# kernel_drops: the frames this machine's kernel counted as dropped anywhere in the lab: the
# backlog drops of /proc/net/softnet_stat (every cpu, column 2, hex) and every interface's
# rx_dropped and tx_dropped in the lab's namespaces. On a busy machine the namespace DUT is
# starved too and drops what it cannot forward: its loss, counted by it, not a miscount.
kernel_drops() {
	local n=0 ns a b rest
	while read -r a b rest; do n=$((n + 0x$b)); done </proc/net/softnet_stat
	for ns in fwsl-dut fwsl-tester fwsl-tester2; do
		ip netns exec "$ns" true 2>/dev/null || continue
		n=$((n + $(ip netns exec "$ns" sh -c 'cat /sys/class/net/*/statistics/rx_dropped /sys/class/net/*/statistics/tx_dropped' 2>/dev/null | awk '{ n += $1 } END { print n + 0 }')))
	done
	echo "$n"
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

# Two sites (FWS_LAB_SITES=2: the "two sites" variants of the lab tests, issue 21): each
# load client is its own namespace, fws-lan in fwsl-tester (site1: behind the peer firewall
# in the tunnel labs, the LAN side otherwise), fws-wan in fwsl-tester2 (site2: behind the
# DUT). fws runs the controller in the root namespace, one agent per site started by
# "ip netns exec"; the oracles (the DUT's counters, conntrack, string matches) are the same.
SITES=${FWS_LAB_SITES:-1}
[ "$SITES" = 1 ] || [ "$SITES" = 2 ] || { echo "FWS_LAB_SITES must be 1 or 2"; exit 1; }

# lab_topo TOPOLOGY: the lab up, and split into two load clients with two sites.
lab_topo() {
	"$LAB" up "$1" >/dev/null || return 1
	[ "$SITES" = 1 ] || "$LAB" split >/dev/null
}

# two_sites CONFIG: rewrite CONFIG in place for two agents (once): a host per site, each
# port on the site its interface is in, the config's EAL arguments each agent's.
two_sites() {
	python3 - "$1" "$FWSTRESS" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
if "hosts" not in c:
    eal = c.pop("eal", ["-l", "0-1", "--no-pci"])
    # Each site's worker on a core of its own, as on two machines: site2's main lcore is 1.
    c["hosts"] = [{"name": f"site{k}", "command": ["ip", "netns", "exec", ns, sys.argv[2], "agent"],
                   "eal": eal + ["--file-prefix", f"fwsl-site{k}"] + (["--main-lcore", "1"] if k == 2 and eal[:2] == ["-l", "0-1"] else [])}
                  for k, ns in ((1, "fwsl-tester"), (2, "fwsl-tester2"))]
    for p in c["ports"]:
        p["host"] = "site1" if "iface=fws-lan" in p["device"] else "site2"
    json.dump(c, open(sys.argv[1], "w"))
PY
}

# sites_seen REPORT: with two sites, the report names both agents, each with its own port,
# on fd 3 (the test's output, whatever the caller redirected).
sites_seen() {
	python3 - "$1" <<'PY' && return 0
import json, sys
h = json.load(open(sys.argv[1])).get("hosts", [])
sys.exit(0 if [(x["name"], x["ports"]) for x in h] == [("site1", ["lan"]), ("site2", ["wan"])]
         and all(x["protocol"] != "in process" and x["hostname"] for x in h) else 1)
PY
	bad "two sites: $1 does not name the two agents as its hosts" >&3
}

# fws COMMAND ARGS... CONFIG: fwstress COMMAND in the tester namespace, or with two sites
# the controller here and CONFIG rewritten for the two agents (and the report, -o, checked
# to come from both).
fws() {
	local rc a out=
	if [ "$SITES" = 1 ]; then
		"$LAB" exec "$FWSTRESS" "$@"
		return
	fi
	two_sites "${!#}" || return 1
	"$FWSTRESS" "$@"
	rc=$?
	for a; do
		[ "$a" = -o ] && out=next || { [ "$out" = next ] && out=$a; }
	done
	[ -z "$out" ] || [ ! -s "$out" ] || sites_seen "$out"
	return $rc
}
exec 3>&1

# sshd_start DIR: a real OpenSSH server in fwsl-tester2 (site2) on 127.0.0.1:2222, its host
# key made here ($DIR/host), authorized_keys $DIR/authorized_keys, its log $DIR/sshd.log;
# $DIR/known_hosts knows it. Sets SSHD (its PID) and waits until it accepts connections.
sshd_start() {
	local d=$1
	mkdir -p "$d" /run/sshd && chmod 700 "$d"
	[ -f "$d/host" ] || ssh-keygen -q -t ed25519 -N '' -f "$d/host" || return 1
	echo "[127.0.0.1]:2222 $(cut -d' ' -f1,2 "$d/host.pub")" >"$d/known_hosts"
	cat >"$d/sshd_config" <<CFG
Port 2222
ListenAddress 127.0.0.1
HostKey $d/host
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
CFG
	ip netns exec fwsl-tester2 /usr/sbin/sshd -D -f "$d/sshd_config" -E "$d/sshd.log" &
	SSHD=$!
	for _ in $(seq 1 50); do
		ip netns exec fwsl-tester2 bash -c 'echo >/dev/tcp/127.0.0.1/2222' 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
