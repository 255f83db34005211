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

# A search whose configured maximum passes (20 kpps, which the loopback carries whole): the
# NDR is the config's cap, not the DUT's (issue 51, item 1). Every format says so, and a
# compare of two caps (18 against 20 kpps) is no regression: not compared, the configs'
# difference named.
for k in 20 18; do
	sed -e "s/\"400Mpps\"/\"${k}kpps\"/" "$HERE/lower-bound.json" >"$WORK/cap$k.json"
	"$FWSTRESS" search -q -o "$WORK/cap$k.report.json" --text "$WORK/cap$k.txt" "$WORK/cap$k.json" >"$WORK/out" 2>&1 ||
		bad "search at ${k} kpps: $(tail -3 "$WORK/out")"
done
REPORT=$WORK/cap20.report.json
check "capped: the generator reached every load, no trial lost a frame" \
	'all(x["offered_load"] > 0.98 * x["load"] and x["lost"] == 0 for x in r["search"][0]["trials"])' "$REPORT"
check "capped: cells flagged capped_by_config, not generator-limited" \
	'len(r["cells"]) >= 1 and all(c["capped_by_config"] == 1 and c["generator_limited"] == 0 for c in r["cells"])' "$REPORT"
grep -q "the configured maximum passed" "$WORK/cap20.txt" && ok "capped: text says the maximum passed" || bad "capped: text"
for fmt in md wiki html; do
	"$FWSTRESS" report --format $fmt "$REPORT" >"$WORK/cap.$fmt"
	grep -q "CAPPED BY THE CONFIG" "$WORK/cap.$fmt" && grep -q "&ge; \|>= " "$WORK/cap.$fmt" &&
		ok "capped: report $fmt marks a lower bound and says why" || bad "capped: report $fmt: $(grep -m2 "ndr" "$WORK/cap.$fmt")"
done
"$FWSTRESS" report --format csv "$REPORT" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
sys.exit(0 if rows and all(x["capped_by_config"] == "1" for x in rows) else 1)' &&
	ok "capped: csv column capped_by_config = 1" || bad "capped: csv"
"$FWSTRESS" compare "$REPORT" "$WORK/cap18.report.json" >"$WORK/cmp"
rc=$?
grep -q 'WARNING: the configs differ in "streams\[0\].rate' "$WORK/cmp" &&
	grep -q "not compared: capped by the config" "$WORK/cmp" && ! grep -q "WORSE" "$WORK/cmp" && [ $rc -ne 11 ] && [ $rc -ne 7 ] &&
	ok "capped: compare of two caps: no verdict (exit $rc), the rate's difference named" || bad "capped: compare (exit $rc): $(cat "$WORK/cmp")"
"$FWSTRESS" compare "$REPORT" "$REPORT" >"$WORK/cmp"
! grep -q "WARNING" "$WORK/cmp" && ok "compare: the same config, no warning" || bad "compare same: $(cat "$WORK/cmp")"
finish
