#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Checksum offload as DPDK's contract asks it (IPv4 checksum 0, the pseudo-header sum in the
# L4 checksum, the L4 flag naming the protocol), on a driver that completes it in software
# where the flags say: net_tap offers IPv4, UDP and TCP checksum offload. A wrong flag or a
# wrong starting sum reads as a bad checksum on the wire. Two persistent taps in a namespace
# of this test, the kernel routing between them (lan 198.18.0.1/16, wan 198.19.0.1/16);
# fwstress drives them with net_tap. UDP and TCP streams ("l4": "tcp": handshakes, data
# segments, ACKs, FINs), IPv4 and IPv6, both ways: every frame arrives, the report says the
# checksums were offloaded, and a capture on both taps finds every IPv4 header, UDP and TCP
# checksum correct.
. "$(dirname "$0")/lab.sh"
lab_start tshark
NS=fwsl-tap
ip netns del "$NS" 2>/dev/null
trap 'ip netns del "$NS" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
n() { ip netns exec "$NS" "$@"; }
ip netns add "$NS"
n ip link set lo up
n sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
for i in 0 1; do
	# A multi-queue tap, as net_tap opens it: it attaches to this one and leaves it at exit.
	n ip tuntap add dev "fwt$i" mode tap multi_queue
	# net_tap sets it down at exit: the gateway keeps its IPv6 address for the next run.
	n sysctl -qw "net.ipv6.conf.fwt$i.accept_dad=0" "net.ipv6.conf.fwt$i.keep_addr_on_down=1"
done
n ip addr add 198.18.0.1/16 dev fwt0
n ip addr add 198.19.0.1/16 dev fwt1
n ip addr add 2001:2:0:1::1/64 dev fwt0 nodad
n ip addr add 2001:2:0:2::1/64 dev fwt1 nodad
n ip link set fwt0 up
n ip link set fwt1 up

# tapdrops: the frames the kernel dropped on the way to fwstress on both taps (their queue
# full: TX from the kernel's side), from sysfs in the namespace.
tapdrops() { n sh -c 'echo $(($(cat /sys/class/net/fwt0/statistics/tx_dropped) + $(cat /sys/class/net/fwt1/statistics/tx_dropped)))'; }

# tap_config NAME L4: two ports on the taps, IPv4 and IPv6 flows both ways, L4 the traffic.
tap_config() {
	python3 - "$TOP/config/vm-routing.json" "$2" >"$WORK/$1.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c["eal"] = ["-l", "0-1", "--no-huge", "-m", "512", "--no-pci", "--file-prefix", "fws-tap",
            "--vdev", "net_tap0,iface=fwt0", "--vdev", "net_tap1,iface=fwt1"]
for p, d in zip(c["ports"], ("net_tap0", "net_tap1")):
    p["device"] = d
c.update({"l4": sys.argv[2], "flows": dict(c["flows"], count=8), "flows6": {"count": 8, "ip": 6},
          "frame_size": 256, "rate": "1kpps", "duration": 1, "warmup": 0.3, "drain": 0.3})
json.dump(c, sys.stdout)
PY
}

for l4 in udp tcp; do
	tap_config "$l4" "$l4"
	caps=
	for i in 0 1; do
		n ip link set "fwt$i" up # net_tap leaves it down at exit: no capture on a down link
		ip netns exec "$NS" tshark -q -i "fwt$i" -w "$WORK/$l4-$i.pcap" >/dev/null 2>&1 &
		caps="$caps $!"
	done
	sleep 2
	drops0=$(tapdrops)
	expect_rc 0 "$l4 over net_tap through the kernel" n "$FWSTRESS" run -q -o "$WORK/$l4-r.json" "$WORK/$l4.json"
	drops=$(($(tapdrops) - drops0))
	sleep 0.5
	kill -INT $caps
	wait $caps 2>/dev/null
	# Every frame arrived, but for those the kernel dropped at the taps' queues towards
	# fwstress (net_tap counts no such miss; a busy machine starves its receive lcore): the
	# loss the checksums are judged by is none. About 1000 frames a stream (1 kpps, 1 s; a
	# TCP stream's first after its handshake: 999 seen in CI).
	check "$l4: net_tap ports, checksums offloaded (IPv4, UDP, TCP); every frame of the four streams arrived (but for the taps' $drops queue drops)" \
		'all(p["driver"] == "net_tap" and p["checksum_offload"] and p["tcp_checksum_offload"] for p in r["ports"]) and len(t[0]["streams"]) == 4 and all(s["received"]["distinct_frames"] + s["lost"] == s["offered"]["frames"] > 900 for s in t[0]["streams"]) and sum(s["lost"] for s in t[0]["streams"]) <= '"$drops" "$WORK/$l4-r.json"
	# What fwstress wrote (its MACs: the report's): IP version and each checksum's status
	# (1 good, 0 bad, empty: not that protocol). A TCP checksum of 0xffff where the sum is
	# 0x0000 (RFC 1624's other zero of ones' complement, which receivers accept) reads bad in
	# tshark and counts as good: DPDK's software completion (net_tap's, rte_ipv6_udptcp_cksum)
	# writes UDP's rule for TCP too, a few frames a run here.
	macs=$(python3 -c 'import json, sys; print(" || ".join("eth.src == " + p["mac"].lower() for p in json.load(open(sys.argv[1]))["ports"]))' "$WORK/$l4-r.json")
	for i in 0 1; do tshark -r "$WORK/$l4-$i.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE \
		-Y "($macs) && $l4 && !icmp && !icmpv6" -T fields -E separator=, -e ip.version -e ip.checksum.status \
		-e "$l4.checksum.status" -e "$l4.checksum" 2>/dev/null; done | sort | uniq -c >"$WORK/$l4.ck"
	python3 - "$WORK/$l4-r.json" "$WORK/$l4.ck" "$l4" >"$WORK/$l4.ckr" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sent = sum(p["tx"]["tx_frames"] + p["tx"]["warmup_tx"] for p in r["trials"][0]["ports"])
n = {}
for line in open(sys.argv[2]):
    count, row = line.split(None, 1)
    ver, ip, l4, sum16 = row.strip().split(",")
    if l4 == "0" and sum16 == "0xffff" and sys.argv[3] == "tcp":
        l4 = "1"  # RFC 1624's other zero: valid
    key = f"v{ver} ip {ip or '-'} l4 {l4}"
    n[key] = n.get(key, 0) + int(count)
good = {k: v for k, v in n.items() if k in ("v4 ip 1 l4 1", "v6 ip - l4 1")}
print(f"{json.dumps(n, sort_keys=True)}; test frames sent {sent}")
sys.exit(0 if good == n and len(good) == 2 and sum(good.values()) >= sent else 1)
PY
	[ $? -eq 0 ] && ok "$l4: every IPv4 header and $l4 checksum the driver wrote correct ($(cat "$WORK/$l4.ckr"))" ||
		bad "$l4: checksums: $(cat "$WORK/$l4.ckr")"
done
finish
