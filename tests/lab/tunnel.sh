# SPDX-License-Identifier: BSD-3-Clause
# Shared by the tunnel lab tests (tools/lab up wireguard / openvpn): a site-to-site tunnel
# from a peer firewall to the DUT, the tester behind each; the WAN veth dut-tun carries the
# encrypted link. $CFG is the lab's config.
. "$(dirname "$0")/lab.sh"

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

# tunnel_dirs SIZES: bidir, upload and download through the tunnel, none lost.
tunnel_dirs() {
	local dir
	for dir in bidir upload download; do
		tcfg "$dir" "$dir" "$1"
		expect_rc 0 "$dir through the tunnel" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/$dir-r.json" "$WORK/$dir.json"
		check "$dir: every frame of every size through the tunnel, none lost" \
			'all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 1500 for tr in t for s in tr["streams"])' "$WORK/$dir-r.json"
	done
}

# wan_run NAME SIZE [EXTRA-JSON]: one upload trial of SIZE; sets WAN_BYTES and WAN_PACKETS
# to what the WAN link carried meanwhile (no path check: only the trial's frames).
wan_run() {
	local b0 p0 b1 p1
	tcfg "$1" upload "[$2]" "${3:-{\"path_check\": false\}}"
	read -r b0 p0 <<<"$(wan)"
	expect_rc 0 "$1: $2 bytes, upload, for the WAN counters" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/$1-r.json" "$WORK/$1.json"
	read -r b1 p1 <<<"$(wan)"
	WAN_BYTES=$((b1 - b0)) WAN_PACKETS=$((p1 - p0))
}

# tunnel_overhead SIZE: the report's link bytes per frame against the WAN counters, 2 %.
tunnel_overhead() {
	wan_run "o$1" "$1"
	python3 - "$WORK/o$1-r.json" "$WAN_BYTES" "$WAN_PACKETS" "$WORK/o.txt" <<'PY' && ok "$1 bytes: the link bytes per frame the report gives agree with the WAN counters within 2 %" || bad "$1 bytes: report and WAN counters differ: $(cat "$WORK/o.txt")"
import json, sys
r = json.load(open(sys.argv[1]))
want = r["trials"][0]["streams"][0]["tunnel"]["link_frame_bytes"] - 4  # the kernel counts no FCS
got = int(sys.argv[2]) / max(int(sys.argv[3]), 1)
open(sys.argv[4], "w").write(f"report {want} + FCS, WAN {got:.1f} over {sys.argv[3]} packets")
sys.exit(0 if int(sys.argv[3]) > 1500 and abs(got - want) / want < 0.02 else 1)
PY
}
