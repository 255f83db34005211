#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A search the generator cannot drive: 400 Mpps asked on an in-memory loopback that loses
# nothing. The result is the generator's ceiling, so every place it appears must say it is a
# lower bound: the search summary (JSON and text), the cells, every report format, compare.
. "$(dirname "$0")/lib.sh"

"$FWSTRESS" search -q -o "$WORK/report.json" --text "$WORK/report.txt" "$HERE/lower-bound.json" >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "search: exit 0" || bad "search: exit $rc: $(tail -3 "$WORK/out")"
check "every trial offered far less than asked and lost nothing" \
	'all(x["offered_load"] < 0.9 * x["load"] and x["lost"] == 0 for x in r["search"][0]["trials"])'
check "NDR and PDR: generator-limited, no upper end" \
	'all(r["search"][0][g]["generator_limited"] and r["search"][0][g]["upper"] is None and "lower bound" in r["search"][0][g]["note"] for g in ("ndr", "pdr"))'
check "cells: marked generator-limited" \
	'len(r["cells"]) >= 1 and all(c["generator_limited"] == 1 for c in r["cells"])'
grep -q "NDR: at least .* a LOWER BOUND, generator-limited" "$WORK/report.txt" &&
	ok "text report: NDR a lower bound" || bad "text report: $(grep NDR "$WORK/report.txt")"
for fmt in md wiki html; do
	"$FWSTRESS" report --format $fmt "$WORK/report.json" | grep -q "generator-limited, a lower bound" &&
		ok "report $fmt: lower bound noted" || bad "report $fmt: no lower-bound note"
done
"$FWSTRESS" report --format csv "$WORK/report.json" | head -1 | grep -q ",generator_limited," &&
	ok "report csv: generator_limited column" || bad "report csv"
"$FWSTRESS" compare "$WORK/report.json" "$WORK/report.json" >"$WORK/cmp"
# (on the loopback it is also above the link speed: either reason keeps it out of the verdict)
grep -q ">=" "$WORK/cmp" && grep -q "not compared: " "$WORK/cmp" && grep -q "^0 of 1 cells worse .* 1 not compared" "$WORK/cmp" &&
	ok "compare: lower bounds marked, not compared" || bad "compare: $(cat "$WORK/cmp")"
finish
