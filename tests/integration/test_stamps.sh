#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Departure stamps (fws_tx), read back from the frames themselves: a pcap port writes what
# the tester sent, tshark dissects it, and the signature's timestamp of each frame is
# compared with the one before it. With the wire model the frames of a burst are stamped one
# serialization time apart at the port's link speed (10 Gbit/s on net_pcap: 67.2 ns for 64
# bytes, 1230.4 ns for 1518); stamped at the hand-over, a burst shares one stamp. And in
# loopback the burst's build time no longer shows as latency.
. "$(dirname "$0")/lib.sh"

if ! command -v tshark >/dev/null; then
	echo "SKIP: tshark is not installed: run tools/setup"
	exit 77
fi

# run_pcap MODE SIZE: a short line-rate run into $WORK/MODE.pcap; the report in MODE.json.
run_pcap() {
	local mode=$1 size=$2
	cat >"$WORK/$mode.json" <<EOC
{
    "eal": ["-l", "0-1", "--no-pci", "--file-prefix", "fws-stamps",
            "--vdev", "net_pcap0,tx_pcap=$WORK/$mode.pcap", "--vdev", "net_null1,no-rx=1"],
    "ports": [
        {"name": "lan", "device": "net_pcap0", "tx_stamp": "$mode"},
        {"name": "wan", "device": "net_null1"}
    ],
    "flows": {"count": 16},
    "frame_size": [$size],
    "rate": "line",
    "burst": 32,
    "duration": 0.02,
    "warmup": 0,
    "drain": 0,
    "path_check": false
}
EOC
	"$FWSTRESS" run -q -o "$WORK/$mode-report.json" "$WORK/$mode.json" >"$WORK/out" 2>&1 ||
		bad "$mode: run failed: $(tail -2 "$WORK/out")"
}

# steps MODE: "within BURSTPAIRS" — the share of consecutive frames whose stamps differ by
# the wire model's time for the first of them (within one 4-tick unit), and the share that
# differ by 0.
steps() {
	local mode=$1
	tshark -r "$WORK/$mode.pcap" -T fields -e frame.len -e udp.payload 2>/dev/null |
		python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
hz = r["trials"][0]["tsc_hz"]
mbps = r["trials"][0]["streams"][0]["tx_stamp"]["wire_mbps"] or 10000
prev = None
pairs = wire = zero = 0
for line in sys.stdin:
    length, payload = line.split()
    ts = int.from_bytes(bytes.fromhex(payload)[12:16], "little")
    if prev is not None:
        want = (prev[0] + 4 + 20) * 8 / (mbps * 1e6) * hz / 4
        d = (ts - prev[1]) % 2**32
        pairs += 1
        wire += abs(d - want) <= 1.01
        zero += d == 0
    prev = (int(length), ts)
print(f"{pairs} {wire / max(pairs, 1):.3f} {zero / max(pairs, 1):.3f}")
' "$WORK/$mode-report.json"
}

for size in 64 1518; do
	run_pcap wire $size
	check "wire $size: report says the wire model at 10 Gbit/s" \
		't[0]["streams"][0]["tx_stamp"]["model"] == "wire" and t[0]["streams"][0]["tx_stamp"]["wire_mbps"] == 10000' \
		"$WORK/wire-report.json"
	read -r pairs wire zero <<<"$(steps wire)"
	python3 -c "import sys; sys.exit(not ($pairs > 1000 and $wire >= 0.9))" &&
		ok "wire $size: $wire of $pairs consecutive stamps one serialization time apart" ||
		bad "wire $size: only $wire of $pairs consecutive stamps one serialization time apart"
	run_pcap handover $size
	read -r pairs wire zero <<<"$(steps handover)"
	python3 -c "import sys; sys.exit(not ($pairs > 1000 and $zero >= 0.9))" &&
		ok "handover $size: $zero of $pairs consecutive stamps equal (one per burst)" ||
		bad "handover $size: only $zero of $pairs consecutive stamps equal"
done
check "handover: the report says so, with the build time taken off" \
	'(s := t[0]["streams"][0]["tx_stamp"])["model"] == "handover" and s["wire_mbps"] == 0 and s["build_ns_per_frame"] > 0 and s["handover_lag_max_ns"] >= s["handover_lag_avg_ns"] > 0' \
	"$WORK/handover-report.json"
check "handover: the receive poll period is reported" \
	't[0]["rx_poll_period_ns"] > 0' "$WORK/handover-report.json"

# A virtual port gets no wire model unless asked (auto), so loopback stamps never run ahead
# of the frames: no clock skew, and the report says how the frames were stamped.
sed -e 's/"tx_stamp": "handover"/"tx_stamp": "auto"/' "$WORK/handover.json" >"$WORK/auto.json"
"$FWSTRESS" run -q -o "$WORK/auto-report.json" "$WORK/auto.json" >"$WORK/out" 2>&1
check "auto on a virtual port: stamped at the hand-over" \
	't[0]["streams"][0]["tx_stamp"]["model"] == "handover"' "$WORK/auto-report.json"
"$FWSTRESS" validate "$WORK/wire.json" | grep -q '"tx_stamp": "wire"' &&
	ok "validate keeps tx_stamp" || bad "validate drops tx_stamp"
sed -e 's/"tx_stamp": "wire"/"tx_stamp": "late"/' "$WORK/wire.json" >"$WORK/badstamp.json"
expect_rc 2 "tx_stamp \"late\" refused" "$FWSTRESS" validate "$WORK/badstamp.json"
grep -q 'tx_stamp.*expected "auto", "wire" or "handover"' "$WORK/err" &&
	ok "tx_stamp: the error names the choices" || bad "tx_stamp error: $(cat "$WORK/err")"
finish
