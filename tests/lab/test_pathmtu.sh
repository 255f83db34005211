#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ICMP errors from the path (issue 10, part 2): the routing lab with its WAN link's MTU
# lowered to 1400, IPv4 streams with DF set ("payload": {"df": true}) and IPv6 streams.
#   - 1414-byte frames (1396-byte packets) pass: no loss, no ICMP error;
#   - 1518-byte frames cannot: every one is lost, each drew a "fragmentation needed"
#     (IPv4) or "packet too big" (IPv6) that fwstress matched to its stream, as many as the
#     router's own counters say it sent (/proc/net/snmp OutDestUnreachs, snmp6
#     Icmp6OutPktTooBigs), and the path MTU they announced is 1400;
#   - DF clear: the router fragments the IPv4 packets, fwstress reassembles each (counted
#     once, as received and reassembled), its fragment counts equal the router's FragOKs
#     and FragCreates;
#   - DF clear with every tenth later fragment dropped (nftables, dut-wan's egress): as many
#     packets lost and counted given up as nftables dropped.
. "$(dirname "$0")/lab.sh"
lab_start
"$LAB" up routing >/dev/null || { bad "lab up routing"; finish; exit 1; }
ip netns exec fwsl-dut ip link set dut-wan mtu 1400

python3 - "$TOP/config/lab-routing.json" "$WORK/mtu.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(direction="upload", payload={"df": True}, frame_size=[1414, 1518], rate="2kpps",
         duration=1, warmup=0, drain=0.5, path_check=False)
json.dump(c, open(sys.argv[2], "w"))
PY
v4() { snmp fwsl-dut Icmp OutDestUnreachs; }
v6() { snmp6 fwsl-dut Icmp6OutPktTooBigs; }
a4=$(v4) a6=$(v6)
expect_rc 0 "DF set, IPv4 and IPv6, 1414 and 1518 bytes through a 1400-byte link" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/report.json" "$WORK/mtu.json"
d4=$(($(v4) - a4)) d6=$(($(v6) - a6))
check "1414 bytes: every frame through, no ICMP error" \
	'all(s["lost"] == 0 and s["offered"]["frames"] > 1900 and sum(v for k, v in s["icmp"].items() if k != "path_mtu" and v) == 0 for s in t[0]["streams"])'
check "1518 bytes: every frame lost, the path MTU announced 1400 for IPv4 and IPv6" \
	'all(s["lost"] == s["offered"]["frames"] > 1900 and s["icmp"]["path_mtu"] == 1400 for s in t[1]["streams"]) and t[1]["icmp_unmatched"] == 0'
check "1518 bytes: fragmentation needed matched to the IPv4 stream, as many as the router sent ($d4)" \
	"[s['icmp']['too_big'] for s in t[1]['streams'] if s['name'] == 'upload'] == [$d4] and $d4 > 0"
check "1518 bytes: packet too big matched to the IPv6 stream, as many as the router sent ($d6)" \
	"[s['icmp']['too_big'] for s in t[1]['streams'] if s['name'] == 'upload6'] == [$d6] and $d6 > 0"
check "1518 bytes: the report says why the path carried none" \
	'all(s["path_reason"].startswith("the path cannot carry this size") and "path MTU 1400" in s["path_reason"] for s in t[1]["streams"]) and all("path_reason" not in s for s in t[0]["streams"])'
check "the frames were sent with DF (IPv4) and the report says so per stream" \
	'[s["df"] for s in r["config"]["streams"] if s["name"] == "upload"] == [True]'

# DF clear: the router fragments IPv4 (IPv6 it cannot: too big again). The tester's WAN port
# is a pcap live capture here, since af_packet asks the kernel to defragment
# (PACKET_FANOUT_FLAG_DEFRAG) and would hide the fragments.
python3 - "$WORK/mtu.json" "$WORK/frag.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["payload"] = {"df": False}
c["ports"][1]["device"] = "net_pcap1,iface=fws-wan"
c["frame_size"] = [1518]
json.dump(c, open(sys.argv[2], "w"))
PY
ipf() { snmp fwsl-dut Ip "$1"; }
ok0=$(ipf FragOKs) cr0=$(ipf FragCreates)
expect_rc 0 "DF clear, 1518 bytes through a 1400-byte link" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/frag-r.json" "$WORK/frag.json"
fok=$(($(ipf FragOKs) - ok0)) fcr=$(($(ipf FragCreates) - cr0))
check "IPv4: every packet received once and counted reassembled, as many as the router fragmented ($fok)" \
	"(lambda s: s['lost'] == 0 and s['received']['distinct_frames'] == s['received']['reassembled'] == s['offered']['frames'] == $fok > 1900 and s['received']['reassembly_given_up'] == 0)([x for x in t[0]['streams'] if x['name'] == 'upload'][0])" "$WORK/frag-r.json"
check "the WAN port counted the router's $fcr fragments, reassembled them all, gave up none" \
	"(lambda p: p['rx']['fragments'] == $fcr and p['rx']['reassembled'] == $fok and p['rx']['frag_dropped'] == 0)(t[0]['ports'][1])" "$WORK/frag-r.json"
check "IPv6: not fragmented by routers: lost, too big" \
	"(lambda s: s['lost'] == s['offered']['frames'] and s['icmp']['too_big'] > 0)([x for x in t[0]['streams'] if x['name'] == 'upload6'][0])" "$WORK/frag-r.json"

# DF clear again, every tenth later fragment dropped on its way out of the router (nftables
# at dut-wan's egress, after the router cut the packets): each such packet is lost, and the
# stream counts it given up by its first fragment; as many as nftables dropped.
ip netns exec fwsl-dut nft -f - <<'NFT'
table netdev fwsl_frag {
	chain egress {
		type filter hook egress device "dut-wan" priority 0;
		ip frag-off & 0x1fff != 0 numgen inc mod 10 == 0 counter drop
	}
}
NFT
expect_rc 0 "DF clear, a tenth of the later fragments dropped" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/fdrop-r.json" "$WORK/frag.json"
ndrop=$(ip netns exec fwsl-dut nft -j list chain netdev fwsl_frag egress | python3 -c 'import json,sys; print([e["counter"]["packets"] for r in json.load(sys.stdin)["nftables"] if "rule" in r for e in r["rule"]["expr"] if "counter" in e][0])')
check "fragments dropped: every packet that lost one is lost and given up, as many as nftables dropped ($ndrop)" \
	"(lambda s: s['lost'] == s['received']['reassembly_given_up'] == $ndrop > 100 and s['received']['reassembly_refused'] == 0 and s['received']['distinct_frames'] == s['offered']['frames'] - $ndrop)([x for x in t[0]['streams'] if x['name'] == 'upload'][0])" "$WORK/fdrop-r.json"
finish
