#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Two TX and two RX lcores, two queues a port: flows split over transmitters (one writer of
# each flow's sequence numbers), per-lcore receive tables merged, counts still exact.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "run" "$FWSTRESS" run -q -o "$WORK/report.json" "$HERE/multicore.json"
for s in 0 1; do
	S="t[0][\"streams\"][$s]"
	check "stream $s: received == sent > 0" \
		"$S[\"received\"][\"distinct_frames\"] == $S[\"received\"][\"total_frames\"] == $S[\"offered\"][\"frames\"] > 60000"
	check "stream $s: no loss, reorder, duplicate" "$S[\"lost\"] == $S[\"reordered\"] == $S[\"duplicated\"] == 0"
	check "stream $s: all 1001 flows seen, none split over queues" \
		"$S[\"flows_seen\"] == 1001 and $S[\"flows_split\"] == 0"
	check "stream $s: the two transmitters together keep 40 kpps (2 %)" \
		"abs($S[\"offered\"][\"pps\"] - 40000) < 800"
done
# The rxq feature's per-port blocks (lib/feat/fd_rxq.h): each queue's lcore count equals the
# ring PMD's own per-queue count (q_ipackets), and they add up to the port's receive count.
check "rx queues: per queue, the lcore's frames == the PMD's own count; their sum == the port's" \
	'all(len(p["rx_queues"]) == 2 and all(q["frames"] == q["nic_frames"] > 0 for q in p["rx_queues"]) and sum(q["frames"] for q in p["rx_queues"]) == p["rx"]["rx_frames"] == p["nic"]["ipackets"] for p in t[0]["ports"])'
check "port counters: wan received what lan sent" \
	't[0]["ports"][1]["rx"]["test_frames"] == t[0]["streams"][0]["offered"]["frames"]'
finish
