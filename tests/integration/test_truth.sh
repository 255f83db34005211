#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# What the matrix publishes is true (issue 34), in every format (text, md, wiki, csv, html):
# a column is one direction's streams (a bidir run's cells are its two halves, never an
# unlabelled sum); a cell whose expectation failed, or whose campaign scenario was
# interrupted, is no result; a partial report says so at its top; a rate above the port's
# link speed is marked so, never "line rate reached"; a search's NDR is given in absolute
# figures inside its own interval.
. "$(dirname "$0")/lib.sh"

cfg() { # OUT KEY=JSON...: the loopback test config with keys replaced
	local out=$1
	shift
	python3 - "$HERE/loopback-test.json" "$@" >"$out" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["eal"] += ["--file-prefix", "truth"]
for kv in sys.argv[2:]:
    k, v = kv.split("=", 1)
    c[k] = json.loads(v)
print(json.dumps(c))
PY
}
formats() { # REPORT: every matrix format into $WORK/m.{md,wiki,csv,html}
	local f
	for f in md wiki csv html; do
		"$FWSTRESS" report --format $f -o "$WORK/m.$f" "$1" 2>"$WORK/rep.err" || bad "report --format $f: $(cat "$WORK/rep.err")"
	done
}

# 1. A bidir run: both directions at once, so its cells are bidir, each naming its half; the
# matrix has a column per half and none named as a lone direction.
cfg "$WORK/bidir.json" 'frame_size=[512]' 'duration=0.5' 'warmup=0.1' 'drain=0.2'
"$FWSTRESS" run -q -o "$WORK/bidir-r.json" "$WORK/bidir.json" 2>"$WORK/err" || bad "bidir run: $(tail -2 "$WORK/err")"
check "bidir run: cells bidir, one per half" \
	'sorted((c["direction"], c["stream_direction"], c["stream"]) for c in r["cells"]) == [("bidir", "download", "download"), ("bidir", "upload", "upload")]' \
	"$WORK/bidir-r.json"
formats "$WORK/bidir-r.json"
sed -n 3p "$WORK/m.md" | grep -q '| bidir upload Mbit/s (L1) |.*| bidir download Mbit/s (L1) |' && ! grep -q '| upload Mbit/s' "$WORK/m.md" \
	&& ok "md: columns 'bidir upload' and 'bidir download', no bare direction" || bad "md head: $(sed -n 3p "$WORK/m.md")"
grep -q '!! bidir upload Mbit/s (L1) !!' "$WORK/m.wiki" && ok "wiki: the bidir halves' columns" || bad "wiki: $(grep '!!' "$WORK/m.wiki" | head -2)"
grep -q '<th>bidir upload</th><th>bidir download</th>' "$WORK/m.html" && ok "html: the bidir halves' columns" || bad "html head"
python3 - "$WORK/m.csv" <<'PY' && ok "csv: direction bidir and stream_direction per row" || bad "csv: $(head -3 "$WORK/m.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert sorted((r["direction"], r["stream_direction"]) for r in rows) == [("bidir", "download"), ("bidir", "upload")], rows
PY

# 2. An expectation the DUT missed (NAT expected, the loopback translates nothing): exit 8,
# and the cell is no result in any format: its verdict where the figures were, never "line
# rate reached", no point in the HTML charts.
cfg "$WORK/nat.json" 'scenario="firewall"' 'direction="upload"' 'nat="masquerade"' 'frame_size=[512]' \
	'rate="line"' 'duration=0.5' 'warmup=0.1' 'drain=0.2'
expect_rc 8 "NAT expected, not done" "$FWSTRESS" run -o "$WORK/nat-r.json" "$WORK/nat.json"
grep -q "^  nat: upload: .*expected source translated: FAILED: 256 of 256 flows seen arrived with their own source" "$WORK/out" &&
	grep -q "^fwstress: expectation failed: stream upload: NAT: " "$WORK/err" &&
	ok "text: the NAT line says FAILED, stderr names the expectation" || bad "nat text: $(grep -i nat "$WORK/out" "$WORK/err" | head -3)"
check "its cell's verdict: expectation failed, naming the stream and NAT" \
	'[c["verdict"].startswith("expectation failed: stream upload: NAT: 256 of 256 flows") for c in r["cells"]] == [True]' "$WORK/nat-r.json"
formats "$WORK/nat-r.json"
grep -q '^| firewall | 512 | fixed rate | expectation failed | - | - |' "$WORK/m.md" && grep -q 'NOT A RESULT' "$WORK/m.md" \
	&& ok "md: 'expectation failed' in place of the figures, NOT A RESULT in the notes" || bad "md: $(grep firewall "$WORK/m.md")"
grep -q '^| firewall || 512 || fixed rate || expectation failed || - || -' "$WORK/m.wiki" && ok "wiki: the same" || bad "wiki: $(grep firewall "$WORK/m.wiki")"
grep -q '<td class="verdict">expectation failed <sup class="refs"><a href="#note-1">1</a></sup></td>' "$WORK/m.html" &&
	grep -q '<li id="note-1">expectation failed: stream upload: NAT: .*NOT A RESULT</li>' "$WORK/m.html" && ! grep -q 'class="pt"' "$WORK/m.html" \
	&& ok "html: the verdict in the table, why in its note, no point in the charts" || bad "html: verdict or a point"
grep -q ',expectation failed: stream upload: NAT: ' "$WORK/m.csv" && ok "csv: the verdict column" || bad "csv: $(tail -1 "$WORK/m.csv")"
grep -l 'line rate reached' "$WORK"/m.* && bad "a failed cell reads 'line rate reached'" || ok "no format says 'line rate reached' of it"

# 3. The same scenario in a campaign, beside one that passes and one interrupted after its
# first trial: the first's cells carry the failed expectation, the third's "interrupted",
# and the campaign report is partial (its banner in md, wiki and html, csv's column).
cfg "$WORK/long.json" 'frame_size=[64, 128, 256]' 'duration=2' 'warmup=0.1' 'drain=0.2' 'direction="upload"'
python3 - "$WORK" >"$WORK/plan.json" <<'PY'
import json, sys
w = sys.argv[1]
print(json.dumps({"dut": {"name": "box"}, "scenarios": [
    {"name": "fw", "command": "run", "config": w + "/nat.json"},
    {"name": "routing", "command": "run", "config": w + "/bidir.json"},
    {"name": "long", "command": "run", "config": w + "/long.json"}]}))
PY
"$FWSTRESS" campaign -o "$WORK/camp.json" "$WORK/plan.json" >/dev/null 2>"$WORK/camp.err" &
pid=$!
for i in $(seq 1 300); do # until the third scenario's report holds its first trial
	python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["cells"] else 1)' \
		"$WORK/camp.json.d/03-long.json" 2>/dev/null && break
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 4 ] && ok "campaign interrupted: exit 4" || bad "campaign: exit $rc: $(tail -3 "$WORK/camp.err")"
check "campaign cells: fw's expectation failed, routing's ok, long's interrupted; the report partial" \
	'r["partial"] is True and sorted((c["scenario"], c["verdict"].split(":")[0]) for c in r["cells"]) == [("fw", "expectation failed"), ("long", "interrupted"), ("routing", "ok"), ("routing", "ok")]' \
	"$WORK/camp.json"
formats "$WORK/camp.json"
for f in md wiki html; do
	grep -q 'PARTIAL REPORT: box ended before its end' "$WORK/m.$f" && ok "$f: the partial banner" || bad "$f: no banner"
done
grep -q '^| long | 64 | fixed rate | interrupted | - | - |' "$WORK/m.md" && ok "md: the interrupted scenario's cell is no result" || bad "md long: $(grep '^| long' "$WORK/m.md")"
python3 - "$WORK/m.csv" <<'PY' && ok "csv: partial 1 on every row, the verdicts" || bad "csv: $(cat "$WORK/m.csv" | cut -c1-200)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert all(r["partial"] == "1" for r in rows) and {r["verdict"].split(":")[0] for r in rows} == {"ok", "expectation failed", "interrupted"}, rows
PY

# 4. A run interrupted in its second trial: the text report marks that trial, and never calls
# its rate generator-limited; the report is partial.
"$FWSTRESS" run -o "$WORK/int-r.json" "$WORK/long.json" >"$WORK/int.txt" 2>"$WORK/int.err" &
pid=$!
for i in $(seq 1 300); do
	python3 -c 'import json,sys; sys.exit(0 if len(json.load(open(sys.argv[1]))["trials"]) >= 1 else 1)' \
		"$WORK/int-r.json" 2>/dev/null && break
	sleep 0.1
done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 4 ] && ok "run interrupted: exit 4" || bad "run: exit $rc"
# (the interrupted trial's own lines: from its header to the next trial's)
awk '/^Trial /{p = /PARTIAL: interrupted/} p' "$WORK/int.txt" >"$WORK/int-trial.txt"
[ -s "$WORK/int-trial.txt" ] && ! grep -q 'GENERATOR-LIMITED' "$WORK/int-trial.txt" \
	&& ok "text: the interrupted trial marked, not called generator-limited" || bad "text: $(grep -E 'PARTIAL|GENERATOR|INTERRUPTED' "$WORK/int.txt")"
formats "$WORK/int-r.json"
grep -q 'PARTIAL REPORT' "$WORK/m.md" && ok "md of the interrupted run: the banner" || bad "md: $(head -2 "$WORK/m.md")"

# 5. "rate": "max" on the loopback sends far above the ports' 10 Gbit/s: every format says
# so, none says "line rate reached"; the NDR is given in Mpps and Mbit/s with its share of
# the line, and its trial's offered rate is what the summary says.
cfg "$WORK/max.json" 'rate="max"' 'frame_size=[1518]' 'direction="upload"' 'search={"short": 0.3, "final": 0.3, "max_trials": 4}' \
	'warmup=0.1' 'drain=0.2'
"$FWSTRESS" search -o "$WORK/max-r.json" "$WORK/max.json" >"$WORK/max.txt" 2>"$WORK/err" || bad "search max: $(tail -2 "$WORK/err")"
check "the cell: above_link 1, pps above line_pps" \
	'[(c["kind"], c["above_link"], c["pps"] > 1.01 * c["line_pps"] > 0) for c in r["cells"]] == [("ndr", 1, True)]' "$WORK/max-r.json"
check "search's NDR in absolute figures: its trial's offered rate, its share of the line above 100" \
	'abs(r["search"][0]["ndr"]["pps"] - t[r["search"][0]["ndr"]["trial"]]["streams"][0]["offered"]["pps"]) < 1 and r["search"][0]["ndr"]["line_pct"] > 100 and r["search"][0]["ndr"]["upper_pps"] is None' \
	"$WORK/max-r.json"
grep -q '^  NDR: [0-9.]* Mpps, [0-9.]* Mbit/s L1 ([0-9.]* % of line rate: ABOVE LINK SPEED' "$WORK/max.txt" \
	&& ok "text: NDR in Mpps and Mbit/s, ABOVE LINK SPEED" || bad "text: $(grep NDR "$WORK/max.txt")"
formats "$WORK/max-r.json"
for f in md wiki html; do
	grep -q 'ABOVE LINK SPEED' "$WORK/m.$f" && grep -q '(above link)' "$WORK/m.$f" && ! grep -q 'line rate reached' "$WORK/m.$f" \
		&& ok "$f: above link speed, never line rate reached" || bad "$f: $(grep -o 'Notes.*\|line rate reached\|above link' "$WORK/m.$f" | head -3)"
done
python3 -c 'import csv,sys; r = list(csv.DictReader(open(sys.argv[1]))); sys.exit(0 if r[0]["above_link"] == "1" else 1)' "$WORK/m.csv" \
	&& ok "csv: above_link 1" || bad "csv above_link"

# 5b. compare weighs each kind by its own figure and names both sides: a latency point whose
# p99 rose by half is worse (exit 7); a new generator-limited cell at half the rate is not
# compared, and says why; neither counts a cell that is no result.
python3 - "$WORK/bidir-r.json" "$WORK/old.json" "$WORK/new.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["config"]["dut"] = {"name": "box", "firmware": "24.7"}
for c in r["cells"]:
    c["kind"] = "lat50" if c["stream"] == "upload" else "ndr"
    c["latency_p99_ns"] = 10000.0
json.dump(r, open(sys.argv[2], "w"))
r["config"]["dut"]["firmware"] = "25.1"
for c in r["cells"]:
    if c["stream"] == "upload":
        c["latency_p99_ns"] = 15000.0
    else:
        c["pps"] /= 2; c["generator_limited"] = 1
json.dump(r, open(sys.argv[3], "w"))
PY
expect_rc 11 "compare: a latency point 50 % slower (measured once a side: unconfirmed)" "$FWSTRESS" compare "$WORK/old.json" "$WORK/new.json"
grep -q '^old: .*old.json: box, firmware 24.7, started ' "$WORK/out" && grep -q '^new: .*new.json: box, firmware 25.1, started ' "$WORK/out" \
	&& ok "compare names both sides: DUT and firmware" || bad "compare head: $(head -2 "$WORK/out")"
grep -q 'routing/lat50/bidir/upload/512 .* 10.0 us .* 15.0 us  *+50.00%  WORSE' "$WORK/out" \
	&& ok "the latency point weighed by its p99, in us" || bad "latency row: $(grep lat50 "$WORK/out")"
grep -q 'routing/ndr/bidir/download/512 .*not compared: tester-limited in the new report' "$WORK/out" \
	&& ok "the generator-limited cell not compared, and why" || bad "limited row: $(grep ndr "$WORK/out")"
grep -q '^1 of 2 cells worse than -3.0 % (latency: +10.0 %; loss at a fixed rate: +0.01 points); 1 of them measured once on each side (unconfirmed); 1 not compared' "$WORK/out" && ok "compare's summary" || bad "summary: $(tail -1 "$WORK/out")"
expect_rc 12 "compare: the failed NAT cell against itself is no result, not worse: not weighed, exit 12" "$FWSTRESS" compare "$WORK/nat-r.json" "$WORK/nat-r.json"
grep -q 'not compared: no result' "$WORK/out" && ok "a cell that is no result is not compared" || bad "nat compare: $(cat "$WORK/out")"

# 6. A paced search at line rate: the NDR lies inside its own interval, in the same units.
cfg "$WORK/line.json" 'rate="line"' 'frame_size=[1518]' 'direction="upload"' 'search={"short": 0.3, "final": 0.3, "max_trials": 6}' \
	'warmup=0.1' 'drain=0.2'
"$FWSTRESS" search --progress -o "$WORK/line-r.json" "$WORK/line.json" >"$WORK/line.txt" 2>"$WORK/err" || bad "search line: $(tail -2 "$WORK/err")"
# Progress (item 7): the search says its estimate first; a progress line's clock never passes
# its phase's length, names the trial of how many and the time left; the text report's trial
# numbers are the progress lines' and the search log's.
grep -q "^fwstress search: 1 cell, [0-9]* to [0-9]* trials, [0-9]* min [0-9]* s to [0-9]* min [0-9]* s (an estimate; once a cell is measured, from its time)" "$WORK/err" &&
	ok "search: its estimate first" || bad "no estimate: $(head -3 "$WORK/err")"
"$FWSTRESS" run --progress -o "" -d 2.2 "$WORK/bidir.json" >/dev/null 2>"$WORK/prog.err"
python3 - "$WORK/err" "$WORK/line.txt" "$WORK/prog.err" <<'PY' && ok "progress lines: never past the phase, trial N of ~M, the time left; trial numbers as the report's" || bad "progress: $(grep '^\[' "$WORK/prog.err" | head -3)"
import re, sys
err, txt, prog = (open(f).read() for f in sys.argv[1:4])
lines = re.findall(r"^\[ *([0-9.]+)/([0-9.]+) s\] trial (\d+) of ~(\d+) .* \| about \d+ min \d+ s left$", prog, re.M)
assert len(lines) >= 2, "no progress lines"
assert all(float(a) <= float(b) for a, b, _, _ in lines), lines
logged = {int(n) for n in re.findall(r"^search \S+: trial (\d+), asked", err, re.M)}
reported = {int(n) for n in re.findall(r"^Trial (\d+), search result", txt, re.M)}
assert reported and reported <= logged, (logged, reported)
PY
check "paced NDR: at most what it asked for (1 %), under 100.1 % of the line, asked within [min, upper]" \
	'(lambda n: n["pps"] <= 1.01 * n["asked_pps"] and n["line_pct"] < 100.1 and (n["upper_pps"] is None or n["asked_pps"] < n["upper_pps"]) and n["asked_pps"] <= r["search"][0]["max_pps"] * 1.0001)(r["search"][0]["ndr"])' \
	"$WORK/line-r.json"
# (On a busy machine the generator may not reach the line: the summary then says so.)
if python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["search"][0]["ndr"]["generator_limited"] else 1)' "$WORK/line-r.json"; then
	grep -q '^  NDR: at least 0\.[0-9]* Mpps, [0-9.]* Mbit/s L1 ([0-9.]* % of line rate): a LOWER BOUND, generator-limited' "$WORK/line.txt" \
		&& ok "text: the generator did not reach the line here: a lower bound, said so" || bad "text: $(grep NDR "$WORK/line.txt")"
else
	# At the line exactly (the configured maximum passed) the L1 rate reads 10000.00.
	grep -q '^  NDR: 0\.8[0-9]* Mpps, \(9[0-9]*\.[0-9]*\|10000\.00\) Mbit/s L1 (\(99\.[0-9]\|100\.0\) % of line rate), loss 0.0000 %: asked 0\.8[0-9]* Mpps' "$WORK/line.txt" \
		&& ok "text: NDR 0.8 Mpps, 9.9 Gbit/s L1, 99.x % of line" || bad "text: $(grep NDR "$WORK/line.txt")"
fi
finish
