#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Sweep: a searched cell with latency at fractions of NDR and back-to-back bursts; then
# --resume keeps the measured cell and runs only the missing direction.
. "$(dirname "$0")/lib.sh"

"$FWSTRESS" sweep -q -o "$WORK/report.json" "$HERE/sweep.json" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && ok "sweep: exit 0" || bad "sweep: exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | tail -3)"
check "one cell searched: NDR at the full rate of a lossless path" \
	'len(r["search"]) == 1 and r["search"][0]["ndr"]["found"] and r["search"][0]["ndr"]["load"] == 1.0'
check "latency at 10 % and 90 % of NDR, at those rates" \
	'[(c["kind"], round(c["pps"] / 1000)) for c in r["cells"] if c["kind"].startswith("lat")] == [("lat10", 10), ("lat90", 90)]'
check "latency points carry percentiles" 'all(c["latency_p99_ns"] > 0 for c in r["cells"])'
check "back-to-back: 2 repetitions, the whole burst (0.02 s at 100 kfps) passes a lossless path" \
	'(lambda B: 1980 <= B["max_frames"] <= 2000 and B["bursts"] == [B["max_frames"]] * 2 and B["stddev"] == 0)(r["back_to_back"][0])'
check "only upload streams sent" 'all(c["direction"] == "upload" for c in r["cells"])'

# Resume with a second direction: the upload cells stay as measured, download is added.
sed 's/"directions": \["upload"\]/"directions": ["upload", "download"]/' "$HERE/sweep.json" >"$WORK/sweep2.json"
cp "$WORK/report.json" "$WORK/first.json"
"$FWSTRESS" sweep -q --resume -o "$WORK/report.json" "$WORK/sweep2.json" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && ok "resume: exit 0" || bad "resume: exit $rc"
grep -q "sweep: upload 128: done in the report, skipped" "$WORK/err" && ok "resume skipped the measured cell" || bad "resume: $(grep -v '^EAL' "$WORK/err" | head -3)"
check "resume: upload cells carried over unchanged, download measured" \
	'sorted((c["direction"], c["kind"], c.get("carried", False)) for c in r["cells"]) == [("download", "lat10", False), ("download", "lat90", False), ("download", "ndr", False), ("upload", "lat10", True), ("upload", "lat90", True), ("upload", "ndr", True)]'
"$FWSTRESS" compare "$WORK/first.json" "$WORK/report.json" >"$WORK/cmp"; rc=$?
[ $rc -eq 0 ] && grep -c " new$" "$WORK/cmp" | grep -q 3 && ok "compare: the carried cells are the same, 3 new" || bad "compare after resume: $rc $(cat "$WORK/cmp")"
finish
