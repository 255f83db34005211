#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# (c) 1,000,000 flows per direction, within 512 x 2 MB hugepages (-m 1024 caps EAL memory);
# 3 s, so that even the sanitizer build sends each flow more than twice.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "run" "$FWSTRESS" run -q -o "$WORK/report.json" "$HERE/million-flows.json"
for s in 0 1; do
	S="t[0][\"streams\"][$s]"
	check "stream $s: 1,000,000 flows, every one seen" "$S[\"flows\"] == $S[\"flows_seen\"] == 1000000"
	check "stream $s: received == sent, no loss" \
		"$S[\"received\"][\"distinct_frames\"] == $S[\"offered\"][\"frames\"] > 2000000 and $S[\"lost\"] == 0"
	check "stream $s: no reorder or duplicates" "$S[\"reordered\"] == 0 and $S[\"duplicated\"] == 0"
done
check "hugepage memory within 1 GiB" '0 < r["hugepage_bytes_peak"] <= 1024 * 2**20'
finish
