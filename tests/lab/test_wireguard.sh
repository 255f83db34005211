#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Site-to-site WireGuard (tools/lab up wireguard: wireguard-go in a peer firewall and in
# the DUT, the tester behind each; issue 10, part 5):
#   - bidir, then upload and download alone, at frame sizes up to the largest the 1420-byte
#     tunnel carries (1438): every frame through, none lost;
#   - the bytes the report says the encrypted link carries per inner frame agree with the
#     WAN link's own counters (dut-tun in the DUT's namespace, bytes per packet; the kernel
#     leaves out the FCS) within 2 %, per frame size.
. "$(dirname "$0")/lab.sh"
lab_start wireguard-go wg
"$LAB" up wireguard >/dev/null || { bad "lab up wireguard"; finish; exit 1; }

# cfg NAME DIRECTION SIZES: the lab's WireGuard config.
cfg() {
	python3 - "$TOP/config/lab-wireguard.json" "$WORK/$1.json" "$2" "$3" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("output")
c.update(direction=sys.argv[3], frame_size=json.loads(sys.argv[4]), duration=1, drain=0.5)
json.dump(c, open(sys.argv[2], "w"))
PY
}
for dir in bidir upload download; do
	cfg "$dir" "$dir" '[128, 1024, 1438]'
	expect_rc 0 "$dir through the tunnel" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/$dir-r.json" "$WORK/$dir.json"
	check "$dir: every frame of every size through the tunnel, none lost" \
		'len(t) == 3 and all(s["lost"] == 0 and s["received"]["distinct_frames"] == s["offered"]["frames"] > 1500 for tr in t for s in tr["streams"])' "$WORK/$dir-r.json"
done

# The encrypted link's bytes per packet against the report's, one size at a time.
wan() { ip netns exec fwsl-dut ip -s -j link show dut-tun | python3 -c 'import json,sys; s=json.load(sys.stdin)[0]["stats64"]["rx"]; print(s["bytes"], s["packets"])'; }
for size in 128 1438; do
	cfg "o$size" upload "[$size]"
	python3 - "$WORK/o$size.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["path_check"] = False
json.dump(c, open(sys.argv[1], "w"))
PY
	read -r b0 p0 <<<"$(wan)"
	expect_rc 0 "$size bytes, upload, for the WAN counters" "$LAB" exec "$FWSTRESS" run -q -o "$WORK/o$size-r.json" "$WORK/o$size.json"
	read -r b1 p1 <<<"$(wan)"
	python3 - "$WORK/o$size-r.json" $((b1 - b0)) $((p1 - p0)) <<'PY' && ok "$size bytes: the link bytes per frame the report gives agree with the WAN counters within 2 %" || bad "$size bytes: report and WAN counters differ: $(cat "$WORK/o.txt")"
import json, sys
r = json.load(open(sys.argv[1]))
want = r["trials"][0]["streams"][0]["tunnel"]["link_frame_bytes"] - 4  # the kernel counts no FCS
got = int(sys.argv[2]) / max(int(sys.argv[3]), 1)
open(sys.argv[1].rsplit("/", 1)[0] + "/o.txt", "w").write(f"report {want} + FCS, WAN {got:.1f} over {sys.argv[3]} packets")
sys.exit(0 if int(sys.argv[3]) > 1500 and abs(got - want) / want < 0.02 else 1)
PY
done
finish
