#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Live statistics (--stats): one valid JSON object per line, once a second, time strictly
# increasing, counters that never decrease within a trial, a result line per trial whose
# totals equal the report's; "-" writes them to stdout; a path that cannot be written is
# refused before any load. The same figures through DPDK's telemetry socket, read with
# DPDK's own dpdk-telemetry.py while a run is in progress.
. "$(dirname "$0")/lib.sh"

sed -e 's/"duration": 1.5/"duration": 3.2/' "$HERE/loopback-test.json" >"$WORK/cfg.json"
"$FWSTRESS" run -q --stats "$WORK/stats.ndjson" -o "$WORK/report.json" "$WORK/cfg.json" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && ok "run with --stats: exit 0" || bad "run with --stats: exit $rc: $(tail -2 "$WORK/err")"
python3 - "$WORK/stats.ndjson" "$WORK/report.json" <<'PY' && ok "NDJSON: valid, per second, monotonic, result totals equal the report's" || bad "NDJSON check failed"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
r = json.load(open(sys.argv[2]))
live = [l for l in lines if l["phase"] != "result"]
results = [l for l in lines if l["phase"] == "result"]
assert len(results) == len(r["trials"]) == 2, (len(results), len(r["trials"]))
assert all(b["time"] > a["time"] for a, b in zip(lines, lines[1:])), "time not increasing"
for k in range(2):
    trial = [l for l in live if l["trial"] == k and l["phase"] == "measure"]
    assert len(trial) >= 3, f"trial {k}: {len(trial)} measure lines in 3.2 s"
    for a, b in zip(trial, trial[1:]):
        for x, y in zip(a["streams"], b["streams"]):
            assert y["tx_frames"] >= x["tx_frames"] and y["rx_frames"] >= x["rx_frames"], (x, y)
            assert y["tx_pps"] is not None and 15000 < y["tx_pps"] < 25000, y
    for s, rs in zip(results[k]["streams"], r["trials"][k]["streams"]):
        assert s["name"] == rs["name"]
        assert s["offered_frames"] == rs["offered"]["frames"], (s, rs["offered"])
        assert s["distinct_frames"] == rs["received"]["distinct_frames"]
        assert s["lost"] == rs["lost"]
        assert s["latency_ns"]["min"] == rs["latency_ns"]["min"]
        assert s["latency_ns"]["max"] == rs["latency_ns"]["max"]
    assert trial[-1]["streams"][0]["tx_frames"] <= results[k]["streams"][0]["offered_frames"]
PY
# Every key of every line is in docs/guide/live-stats.md; warm-up lines (a 2.2 s warm-up: two
# seconds with rates) carry their bit rate, and no frames "not yet received" (nothing is
# received until the measured phase).
sed -e 's/"warmup": 0.5/"warmup": 2.2/' "$WORK/cfg.json" >"$WORK/warm.json"
"$FWSTRESS" run -q --stats "$WORK/warm.ndjson" -o "" -d 0.5 "$WORK/warm.json" >/dev/null 2>&1
cat "$WORK/stats.ndjson" "$WORK/warm.ndjson" >"$WORK/all.ndjson"
python3 - "$WORK/all.ndjson" "$HERE/../../docs/guide/live-stats.md" <<'PY' && ok "NDJSON: every key documented; warm-up bit rates, not_yet_received null in warm-up" || bad "NDJSON keys"
import json, re, sys
doc = set(re.findall(r"^\| `([^`]+)` \|", open(sys.argv[2]).read(), re.M))
def paths(v, p=""):
    if isinstance(v, dict):
        for k, x in v.items():
            yield p + k
            yield from paths(x, p + k + ".")
    elif isinstance(v, list):
        for x in v:
            yield from paths(x, p[:-1] + "[]." if p else "[].")
lines = [json.loads(l) for l in open(sys.argv[1])]
missing = {k for l in lines for k in paths(l)} - doc
assert not missing, f"not in docs/guide/live-stats.md: {sorted(missing)}"
warm = [s for l in lines if l["phase"] == "warm-up" and l["streams"][0]["tx_pps"] for s in l["streams"]]
assert warm and all(s["tx_l2_bps"] > 0 and s["not_yet_received"] is None for s in warm), warm[:2]
PY
"$FWSTRESS" run -q --stats - -o "" -d 1.2 "$WORK/cfg.json" >"$WORK/stdout" 2>/dev/null
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$WORK/stdout" &&
	[ "$(grep -c '"phase":"result"' "$WORK/stdout")" -eq 2 ] &&
	ok "--stats -: only NDJSON on stdout" || bad "--stats -: $(head -c 200 "$WORK/stdout")"
expect_rc 2 "--stats into a missing directory: refused before any load" \
	"$FWSTRESS" run -q --stats /nonexistent/dir/s.ndjson "$WORK/cfg.json"
grep -q "^fwstress: --stats /nonexistent/dir/s.ndjson: No such file or directory$" "$WORK/err" &&
	ok "--stats: the error names the path" || bad "--stats error: $(cat "$WORK/err")"

# Telemetry: /fwstress/streams while a trial runs.
if command -v dpdk-telemetry.py >/dev/null; then
	"$FWSTRESS" run -l 0-1 --no-pci --file-prefix fws-tel -- -q -o "" -d 5 "$WORK/cfg.json" >/dev/null 2>&1 &
	pid=$!
	# Ask every half second until the first second of load is in (EAL and the path check
	# come first; slower under the sanitizers), for at most 12 s.
	got=0
	for _ in $(seq 24); do
		sleep 0.5
		echo /fwstress/streams | dpdk-telemetry.py -f fws-tel >"$WORK/tel" 2>&1
		if python3 - "$WORK/tel" 2>/dev/null <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
objs = [json.loads(m) for m in re.findall(r'^\{.*\}$', text, re.M)]
st = [o["/fwstress/streams"] for o in objs if "/fwstress/streams" in o][0]
assert st["phase"] in ("warm-up", "measure"), st
assert st["upload"]["tx_frames"] > 0 and st["download"]["tx_frames"] > 0, st
PY
		then
			got=1
			break
		fi
	done
	[ $got -eq 1 ] && kill -0 $pid 2>/dev/null && ok "telemetry: /fwstress/streams answered during the run" ||
		bad "telemetry: no answer with load while the run was in progress: $(head -c 300 "$WORK/tel")"
	wait $pid
else
	bad "dpdk-telemetry.py is missing (the dpdk package ships it)"
fi
finish
