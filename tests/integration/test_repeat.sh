#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Repetitions (issue 36): run --repeat 5 on a ring loopback measures each cell five times;
# the report keeps each repetition's cell; read back (report --format csv) a cell is their
# median with their spread, which Python's statistics module gives the same from the
# report's own cells; compare weighs the spread: the report against itself is unchanged, a
# copy with every repetition 10 % lower is WORSE (exit 7, the cell named), a copy with
# noise of +-1 % is not, one whose repetitions spread wide around -5 % is INCONCLUSIVE (10).
. "$(dirname "$0")/lib.sh"

expect_rc 0 "run --repeat 5" "$FWSTRESS" run -q -o "$WORK/report.json" -t "$WORK/report.txt" \
	--repeat 5 -d 0.3 "$HERE/loopback-test.json"
grep -q "^Trial 7, repetition 2: frame size imix" "$WORK/report.txt" && ok "text: each trial says its repetition" || bad "text repetition"
check "5 trials per frame size, numbered by repetition" \
	'len(t) == 10 and [x["repetition"] for x in t] == [1, 2, 3, 4, 5] * 2 and [x.get("repetition") for x in r["cells"] if x["frame_size"] == "64" and x["stream"] == r["cells"][0]["stream"]] == [1, 2, 3, 4, 5]'
check "the config says repeat 5" 'r["config"]["repeat"] == 5'
"$FWSTRESS" report --format csv "$WORK/report.json" >"$WORK/cells.csv" || bad "report csv"
python3 - "$WORK/report.json" "$WORK/cells.csv" <<'PY' && ok "csv: one row per cell, its 5 values and spread as Python's statistics gives them" || bad "csv statistics"
import csv, json, math, statistics as st, sys
r = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
T975_4 = 2.7764  # Student's t, 0.975, 4 degrees of freedom
assert len(rows) == 4, rows  # 2 streams x 2 frame sizes
for row in rows:
    v = [c["pps"] for c in sorted((c for c in r["cells"] if c["stream"] == row["stream"] and c["frame_size"] == row["frame_size"]), key=lambda c: c["repetition"])]
    assert len(v) == 5 and row["repetitions"] == "5", (row, v)
    # Ten significant digits, no float noise (issue 51, item 15): the figures to 1e-9.
    close = lambda a, b: math.isclose(float(a), b, rel_tol=1e-9, abs_tol=1e-9)
    assert len(row["values"].split()) == 5 and all(close(x, y) for x, y in zip(row["values"].split(), v)), (row["values"], v)
    assert all(len(x.replace(".", "").replace("-", "").lstrip("0")) <= 10 for x in row["values"].split() + [row["mean"], row["ci95"]]), row
    assert close(row["median"], st.median(v)) and close(row["pps"], st.median(v)), row
    assert close(row["mean"], st.mean(v)), row
    assert close(row["ci95"], T975_4 * st.stdev(v) / math.sqrt(5)), row
    assert close(row["cov_pct"], 100 * st.stdev(v) / st.mean(v)), row
    assert close(row["min"], min(v)) and close(row["max"], max(v)), row
PY
"$FWSTRESS" report "$WORK/report.json" | grep -q "median of 5 repetitions, their spread" && ok "matrix: median of 5 with its spread" || bad "matrix spread note"
# From 20 repetitions on, the 1st and 99th percentiles (RFC 8219): a copy of the report with
# 23 repetitions of each cell (the 5 measured ones, scaled) against Python's quantiles.
python3 - "$WORK/report.json" "$WORK/r23.json" <<'PY'
import copy, json, sys
r = json.load(open(sys.argv[1]))
cells = []
for c in r["cells"]:
    if c["repetition"] != 1:
        continue
    for i in range(1, 24):
        x = copy.deepcopy(c)
        x["repetition"] = i
        x["pps"] = c["pps"] * (1 + ((i * 7) % 23 - 11) / 1000)
        cells.append(x)
r["cells"] = cells
r["sweep_done"] = [{"direction": "", "frame_size": z, "repetition": i} for z in ("64", "imix") for i in range(1, 24)]
json.dump(r, open(sys.argv[2], "w"))
PY
"$FWSTRESS" report --format csv "$WORK/r23.json" | python3 -c '
import csv, json, math, statistics as st, sys
rows = list(csv.DictReader(sys.stdin))
r = json.load(open(sys.argv[1]))
assert len(rows) == 4
for row in rows:
    v = [c["pps"] for c in r["cells"] if c["stream"] == row["stream"] and c["frame_size"] == row["frame_size"]]
    q = st.quantiles(v, n=100, method="inclusive")
    assert row["repetitions"] == "23" and math.isclose(float(row["p1"]), q[0], rel_tol=1e-9) and math.isclose(float(row["p99"]), q[98], rel_tol=1e-9), (row, q[0], q[98])
' "$WORK/r23.json" && python3 -c 'import csv,sys; rows=list(csv.DictReader(open(sys.argv[1]))); sys.exit(0 if all(r["p1"] == r["p99"] == "" for r in rows) else 1)' "$WORK/cells.csv" &&
	ok "csv: p1 and p99 from 20 repetitions as Python's quantiles give them, none below" || bad "csv p1/p99"
# The HTML chart: each cell's marker at its median, an error bar over its repetitions' range.
"$FWSTRESS" report --format html "$WORK/report.json" >"$WORK/m.html" || bad "report html"
python3 - "$WORK/report.json" "$WORK/m.html" <<'PY' && ok "html: an error bar per cell from its repetitions' lowest to highest pps" || bad "html error bars"
import json, re, sys
r = json.load(open(sys.argv[1]))
html = open(sys.argv[2]).read()
chart = html[html.index('<svg id="throughput"'):]
chart = chart[:chart.index("</svg>")]
bars = sorted((float(a), float(b)) for a, b in re.findall(r'<g class="err" data-min="([0-9.]+)" data-max="([0-9.]+)"', chart))
want = {}
for c in r["cells"]:
    want.setdefault((c["stream"], c["frame_size"]), []).append(c["pps"])
want = sorted((round(min(v), 1), round(max(v), 1)) for v in want.values())
assert len(bars) == 4 and all(abs(a - x) <= 0.06 and abs(b - y) <= 0.06 for (a, b), (x, y) in zip(bars, want)), (bars, want)
assert "(median of 5 repetitions, their spread +/-" in chart
PY

# Copies of the report with each repetition's figures set: the statistics are the point, so
# the copies do not depend on what this machine's load made of the loopback (issue 53, item 8:
# a busy machine makes loopback cells generator-limited, "not compared"). The base: every
# cell at 1 Mpps x [1.000, 1.004, 0.996, 1.002, 0.998] by repetition, no tester limit; each
# variant scales the first stream's 64-byte cell by f(i).
variant() { # NAME PYTHON-EXPRESSION-OF-i
	python3 - "$WORK/report.json" "$WORK/$1.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["cells"]:
    i = c["repetition"]
    f = [1.000, 1.004, 0.996, 1.002, 0.998][i - 1]
    if c["frame_size"] == "64" and c["stream"] == r["cells"][0]["stream"]:
        f *= eval(sys.argv[3])
    scale = 1e6 * f / c["pps"] if c["pps"] else 0
    for k in ("pps", "l1_bps", "l2_bps", "goodput_derived_bps"):
        c[k] *= scale
    c["pps"] = 1e6 * f
    c["generator_limited"] = c["receiver_missed"] = c["above_link"] = 0
json.dump(r, open(sys.argv[2], "w"))
PY
}
variant base '1'
variant drop '0.9'
variant noise '[1.01, 0.99, 1.005, 0.995, 1.0][i - 1]'
variant vague '[1.02, 0.88, 0.95, 0.90, 1.00][i - 1]'
expect_rc 0 "compare: against itself, unchanged" "$FWSTRESS" compare "$WORK/base.json" "$WORK/base.json"
"$FWSTRESS" compare "$WORK/base.json" "$WORK/drop.json" >"$WORK/drop.txt"
rc=$?
[ $rc -eq 7 ] && grep -q "/64 .*WORSE (5 and 5 measurements" "$WORK/drop.txt" &&
	ok "compare: 10 % lower in every repetition: WORSE, exit 7, the cell named" ||
	bad "compare drop: exit $rc: $(grep -c WORSE "$WORK/drop.txt") WORSE: $(grep /64 "$WORK/drop.txt")"
expect_rc 0 "compare: +-1 % noise: not a verdict" "$FWSTRESS" compare "$WORK/base.json" "$WORK/noise.json"
"$FWSTRESS" compare "$WORK/base.json" "$WORK/vague.json" >"$WORK/vague.txt"
rc=$?
[ $rc -eq 10 ] && grep -q "INCONCLUSIVE: about [0-9]* repetitions on each side would resolve it" "$WORK/vague.txt" &&
	ok "compare: -5 % in a wide spread: INCONCLUSIVE, exit 10, the repetitions that would tell" ||
	bad "compare vague: exit $rc: $(grep /64 "$WORK/vague.txt")"
# One measurement (the base's first repetition, as a report of a run without repeat writes
# it) against five: the five's noise stands for both, and the output says so.
python3 - "$WORK/base.json" "$WORK/one.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["cells"] = [c for c in r["cells"] if c.pop("repetition") == 1]
r.pop("sweep_done", None)
json.dump(r, open(sys.argv[2], "w"))
PY
"$FWSTRESS" compare "$WORK/one.json" "$WORK/base.json" >"$WORK/one.txt" 2>&1
grep -q "(1 and 5 measurements" "$WORK/one.txt" &&
	ok "compare: one measurement against five is weighed by the five's noise" || bad "one against five: $(cat "$WORK/one.txt")"
# --resume keeps finished repetitions (issue 36): Ctrl-C during the third repetition of the
# first frame size, then run --resume: the two finished ones are kept (carried, not run
# again), the rest measured; each repetition once in the end.
"$FWSTRESS" run -q --repeat 5 -d 1 -o "$WORK/res.json" --stats "$WORK/res.ndjson" "$HERE/loopback-test.json" 2>"$WORK/res.err" &
pid=$!
for _ in $(seq 300); do
	# --stats numbers trials from 0: trial 1's result is the second repetition's
	python3 -c 'import json,sys; sys.exit(0 if any(json.loads(l).get("phase") == "result" and json.loads(l).get("trial") == 1 for l in open(sys.argv[1]) if l.strip()) else 1)' "$WORK/res.ndjson" 2>/dev/null && break
	sleep 0.05
done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 4 ] && ok "interrupted in the third repetition: exit 4" || bad "interrupt: exit $rc"
check "interrupted: repetitions 1 and 2 of 64 done, the report partial" \
	'r["partial"] and [(d["frame_size"], d["repetition"]) for d in r["sweep_done"]] == [("64", 1), ("64", 2)]' "$WORK/res.json"
"$FWSTRESS" run -q --repeat 5 -d 1 --resume -o "$WORK/res.json" "$HERE/loopback-test.json" 2>"$WORK/res2.err" &&
	ok "run --resume: exit 0" || bad "run --resume: $(grep -v '^EAL\|^TELEMETRY' "$WORK/res2.err" | tail -2)"
grep -q "^64: repetition 2: done in the report, skipped" "$WORK/res2.err" && ! grep -q "^64: repetition 3: done" "$WORK/res2.err" &&
	ok "resume: the finished repetitions skipped, the interrupted one run again" || bad "resume log: $(grep -i 'done in' "$WORK/res2.err")"
check "resume: every cell's repetitions 1-5 once, 1 and 2 of 64 carried, all ten repetitions done, completed" \
	'all(sorted(c["repetition"] for c in r["cells"] if (c["stream"], c["frame_size"]) == k) == [1, 2, 3, 4, 5] for k in {(c["stream"], c["frame_size"]) for c in r["cells"]}) and sorted((c["frame_size"], c["repetition"]) for c in r["cells"] if c.get("carried")) == [("64", 1), ("64", 1), ("64", 2), ("64", 2)] and len(r["sweep_done"]) == 10 and r["status"] == "completed" and not r["partial"] and len(t) == 10 and sum(1 for x in t if x.get("carried")) == 2' "$WORK/res.json"
"$FWSTRESS" report "$WORK/res.json" | grep -q "median of 5" && ok "resume: read back, medians of 5" || bad "resume: report"
# Another command's report is not continued (its cells would mix with these): one line.
cp "$WORK/res.json" "$WORK/other.json"
expect_rc 2 "search --resume of a run's report" "$FWSTRESS" search -q --resume -o "$WORK/other.json" "$HERE/loopback-test.json"
grep -q "^fwstress: search --resume: .*other.json: its cells are a run's, not a search's; remove it or give another -o$" "$WORK/err" &&
	ok "  ... says whose report it is" || bad "search --resume: $(cat "$WORK/err")"
expect_rc 2 "sweep --resume of a run's report" "$FWSTRESS" sweep -q --resume -o "$WORK/other.json" "$HERE/loopback-test.json"
cmp -s "$WORK/res.json" "$WORK/other.json" && ok "  ... and leaves it as it was" || bad "a refused resume changed the report"
# A changed config is not continued either (issue 51, item 7): repetitions of 1 s and one of
# 0.4 s would be one median. One line naming the key and both values; more repetitions may
# be added (above), a measurement changed may not.
expect_rc 2 "run --resume with another duration" "$FWSTRESS" run -q --repeat 6 -d 0.4 --resume -o "$WORK/other.json" "$HERE/loopback-test.json"
grep -q '^fwstress: run --resume: .*other.json: it was measured with "duration": 1.0, this config has 0.4: resume with the config it was measured with; remove it or give another -o$' "$WORK/err" &&
	cmp -s "$WORK/res.json" "$WORK/other.json" && ok "  ... names the duration, the report left as it was" || bad "changed resume: $(cat "$WORK/err")"
expect_rc 1 "--repeat 0 refused" "$FWSTRESS" run --repeat 0 "$HERE/loopback-test.json"
expect_rc 1 "--repeat 1001 refused" "$FWSTRESS" sweep --repeat 1001 "$HERE/loopback-test.json"
# One measured second is no steadiness (issue 51, item 9): the text does not say "steady
# within" a band it could not measure.
"$FWSTRESS" run -q -d 1.5 -o "$WORK/one-s.json" -t "$WORK/one-s.txt" "$HERE/loopback-test.json" 2>/dev/null
grep -q "seconds: 1 measured, .*steadiness not judged (one second)" "$WORK/one-s.txt" && ! grep -q "within +/-" "$WORK/one-s.txt" &&
	ok "one measured second: steadiness not judged, said" || bad "one second: $(grep 'seconds:' "$WORK/one-s.txt")"
finish
