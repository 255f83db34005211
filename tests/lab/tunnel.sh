# SPDX-License-Identifier: BSD-3-Clause
# Shared by the tunnel lab tests (tools/lab up wireguard / openvpn / ipsec): a site-to-site tunnel
# from a peer firewall to the DUT, the tester behind each; the WAN veth dut-tun carries the
# encrypted link. $CFG is the lab's config.
. "$(dirname "$0")/lab.sh"
[ -c /dev/net/tun ] || { echo "SKIP: /dev/net/tun is missing: no userspace tunnel peer can run here"; exit 77; }

# tcfg NAME DIRECTION SIZES [EXTRA-JSON]: the lab's config, short trials.
tcfg() {
	python3 - "$CFG" "$WORK/$1.json" "$2" "$3" "${4:-{\}}" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(direction=sys.argv[3], frame_size=json.loads(sys.argv[4]), duration=1, drain=0.5)
c.update(json.loads(sys.argv[5]))
json.dump(c, open(sys.argv[2], "w"))
PY
}

# wan: bytes and packets the DUT received on its WAN link so far.
wan() { ip netns exec fwsl-dut ip -s -j link show dut-tun | python3 -c 'import json,sys; s=json.load(sys.stdin)[0]["stats64"]["rx"]; print(s["bytes"], s["packets"])'; }

# tunnel_dirs SIZES: bidir, upload and download through the tunnel, none lost but for what the
# tester's receive port missed itself (receiver_missed; the DUT lost nothing: lost_dut_min 0),
# each stream's counts printed (with two sites bidir only: both directions cross the two agents).
tunnel_dirs() {
	local dir dirs="bidir upload download"
	[ "$SITES" = 1 ] || dirs=bidir
	for dir in $dirs; do
		tcfg "$dir" "$dir" "$1"
		expect_rc 0 "$dir through the tunnel" fws run -q -o "$WORK/$dir-r.json" "$WORK/$dir.json"
		if python3 - "$WORK/$dir-r.json" "$WORK/$dir.why" <<'PY'; then
import json, sys
why, good = [], True
for tr in json.load(open(sys.argv[1]))["trials"]:
    for s in tr["streams"]:
        sent, got, lost = s["offered"]["frames"], s["received"]["distinct_frames"], s["lost"]
        missed = s.get("receiver_missed") or 0
        this = got + lost == sent > 1500 and lost <= missed and s["lost_dut_min"] == 0
        good &= this
        why.append(f'{tr["frame_size"]} B {s["name"]}: sent {sent}, received {got}, lost {lost} (tester missed {missed})')
open(sys.argv[2], "w").write("; ".join(why))
sys.exit(0 if good else 1)
PY
			ok "$dir: every frame of every size through the tunnel, none lost but for the tester's own misses"
		else
			bad "$dir: frames lost in the tunnel: $(cat "$WORK/$dir.why")"
		fi
	done
}

# wan_run NAME SIZE [EXTRA-JSON]: one upload trial of SIZE; sets WAN_BYTES and WAN_PACKETS
# to what the WAN link carried meanwhile (no path check: only the trial's frames).
wan_run() {
	local b0 p0 b1 p1
	tcfg "$1" upload "[$2]" "${3:-{\"path_check\": false\}}"
	read -r b0 p0 <<<"$(wan)"
	expect_rc 0 "$1: $2 bytes, upload, for the WAN counters" fws run -q -o "$WORK/$1-r.json" "$WORK/$1.json"
	read -r b1 p1 <<<"$(wan)"
	WAN_BYTES=$((b1 - b0)) WAN_PACKETS=$((p1 - p0))
}

# tunnel_overhead SIZE [EXTRA-JSON [NAME]]: one upload trial (wan_run); the report's link
# bytes per frame against the WAN counters, 2 %.
tunnel_overhead() {
	local name=${3:-o$1}
	wan_run "$name" "$1" "${2:-}"
	if python3 - "$WORK/$name-r.json" "$WAN_BYTES" "$WAN_PACKETS" "$WORK/o.txt" <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
want = r["trials"][0]["streams"][0]["tunnel"]["link_frame_bytes"] - 4  # the kernel counts no FCS
got = int(sys.argv[2]) / max(int(sys.argv[3]), 1)
open(sys.argv[4], "w").write(f"report {want} + FCS, WAN {got:.1f} over {sys.argv[3]} packets")
sys.exit(0 if int(sys.argv[3]) > 1500 and abs(got - want) / want < 0.02 else 1)
PY
		ok "$1 bytes: the link bytes per frame the report gives agree with the WAN counters within 2 % ($(cat "$WORK/o.txt"))"
	else
		bad "$1 bytes: report and WAN counters differ: $(cat "$WORK/o.txt")"
	fi
}

# tunnel_df MTU: 1518-byte frames (1500-byte packets, IPv4) downloaded through the tunnel,
# whose inner MTU is MTU: the DUT (site 2) must fragment them or refuse them.
#   - DF set: every frame lost; each "fragmentation needed" the DUT sent (its Icmp
#     OutDestUnreachs) matched to the stream, the path MTU it announced is MTU, and the
#     report gives the size rate 0 with the reason;
#   - DF clear: every packet received once, after reassembly, as many as the DUT fragmented
#     (Ip FragOKs), the fragments as many as it made (FragCreates). The receiving port is a
#     pcap live capture: af_packet has the kernel defragment (PACKET_FANOUT_FLAG_DEFRAG).
tunnel_df() {
	local u0 du ok0 cr0 fok fcr
	tcfg df-set download '[1518]' '{"path_check": false, "warmup": 0, "payload": {"df": true}}'
	u0=$(snmp fwsl-dut Icmp OutDestUnreachs)
	expect_rc 0 "DF set, 1518 bytes into the $1-byte tunnel" fws run -q -o "$WORK/df-set-r.json" "$WORK/df-set.json"
	du=$(($(snmp fwsl-dut Icmp OutDestUnreachs) - u0))
	check "DF set: every frame lost, the DUT's $du \"fragmentation needed\" matched to the stream, path MTU $1" \
		"(lambda s: s['lost'] == s['offered']['frames'] > 900 and s['icmp']['too_big'] == $du > 0 and s['icmp']['path_mtu'] == $1)(t[0]['streams'][0]) and t[0]['icmp_unmatched'] == 0" "$WORK/df-set-r.json"
	check "DF set: rate 0 for 1518 bytes, and the report says why" \
		"(lambda s: s['received']['distinct_frames'] == 0 and s['path_reason'].startswith('the path cannot carry this size') and 'path MTU $1' in s['path_reason'])(t[0]['streams'][0])" "$WORK/df-set-r.json"

	tcfg df-clear download '[1518]' '{"path_check": false, "warmup": 0, "payload": {"df": false}}'
	python3 - "$WORK/df-clear.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["ports"][0]["device"] = "net_pcap0,iface=fws-lan"
json.dump(c, open(sys.argv[1], "w"))
PY
	ok0=$(snmp fwsl-dut Ip FragOKs) cr0=$(snmp fwsl-dut Ip FragCreates)
	expect_rc 0 "DF clear, 1518 bytes into the $1-byte tunnel" fws run -q -o "$WORK/df-clear-r.json" "$WORK/df-clear.json"
	fok=$(($(snmp fwsl-dut Ip FragOKs) - ok0)) fcr=$(($(snmp fwsl-dut Ip FragCreates) - cr0))
	# (A fragment the tester's own capture missed, nic.imissed, is the tester's loss, not the
	# DUT's: the accounting below holds with it; on this 2-core machine two sites' agents
	# contend with the capture.)
	check "DF clear: every packet received once and counted reassembled, as many as the DUT fragmented ($fok), but for the tester's own misses" \
		"(lambda s, m: s['lost'] <= m and s['received']['distinct_frames'] + s['lost'] == s['received']['reassembled'] + s['lost'] == s['offered']['frames'] == $fok > 900 and s['received']['reassembly_given_up'] <= m and s['received']['reassembly_refused'] == 0)(t[0]['streams'][0], t[0]['ports'][0]['nic']['imissed'])" "$WORK/df-clear-r.json"
	check "DF clear: the LAN port counted the DUT's $fcr fragments (with those it missed), gave up none it had whole" \
		"(lambda p: p['rx']['fragments'] + p['nic']['imissed'] == $fcr and p['rx']['reassembled'] + t[0]['streams'][0]['lost'] == $fok and p['rx']['frag_dropped'] <= p['nic']['imissed'])(t[0]['ports'][0])" "$WORK/df-clear-r.json"
}
