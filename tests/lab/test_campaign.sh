#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A campaign over the namespace lab: its setup commands switch the topology (routing, then
# the NAT firewall), each scenario measured by a fwstress child inside the lab's tester
# namespace ("wrap": tools/lab exec). One report, a MediaWiki row per scenario and frame
# size. Killed (SIGKILL) during the second scenario and resumed, it ends with the same cells
# as the uninterrupted campaign and none twice. A failing setup stops the campaign with the
# scenario named, and the cells measured before stay.
. "$(dirname "$0")/lab.sh"
lab_start nft iptables-nft

# plan FILE SETUP2: routing at 128 bytes, then the firewall (NAT, both directions) at 128
# and 512 bytes; SETUP2 is the second scenario's setup.
plan() {
	python3 - "$1" "$TOP" "$2" <<'PY'
import json, sys
top, setup2 = sys.argv[2], sys.argv[3]
lab = top + "/tools/lab"
short = {"duration": 1, "warmup": 0.2, "drain": 0.3}
json.dump({
    "dut": {"name": "netns lab", "firmware": "Linux"},
    "wrap": [lab, "exec"],
    "scenarios": [
        {"name": "routing", "command": "run", "config": top + "/config/lab-routing.json",
         "overrides": dict(short, frame_size=[128]),
         "setup": lab + " down; " + lab + " up routing", "teardown": lab + " down"},
        {"name": "firewall", "command": "run", "config": top + "/config/lab-firewall.json",
         "overrides": dict(short, frame_size=[128, 512]),
         "setup": setup2, "teardown": lab + " down"},
    ]}, open(sys.argv[1], "w"))
PY
}
keys() { # REPORT: the sorted cell keys, one a line
	python3 -c 'import json,sys; [print(k) for k in sorted("/".join((c["scenario"], c["kind"], c["direction"], c["stream"], c["frame_size"])) for c in json.load(open(sys.argv[1]))["cells"])]' "$1"
}

plan "$WORK/plan.json" "$LAB down; $LAB up firewall"
"$FWSTRESS" campaign -o "$WORK/full.json" "$WORK/plan.json" >"$WORK/full.out" 2>"$WORK/full.err"
rc=$?
[ $rc -eq 0 ] && ok "campaign: exit 0" || bad "campaign: exit $rc: $(tail -3 "$WORK/full.err")"
grep -q "^campaign 2/2 firewall: trial [0-9]* of ~[0-9]*.*about [0-9]* min [0-9]* s left" "$WORK/full.err" &&
	ok "progress: scenario, trial and the time left" || bad "progress: $(head -3 "$WORK/full.err")"
check "one report: every scenario done, cells named by scenario, the lab's DUT" \
	'[s["status"] for s in r["campaign"]["scenarios"]] == ["done", "done"] and r["partial"] is False and {c["scenario"] for c in r["cells"]} == {"routing", "firewall"} and r["config"]["dut"]["name"] == "netns lab" and all(c["loss_pct"] == 0 for c in r["cells"])' "$WORK/full.json"
"$FWSTRESS" report --format wiki "$WORK/full.json" >"$WORK/full.wiki"
[ "$(grep -c '^| routing || 128 ||' "$WORK/full.wiki")" -eq 1 ] && [ "$(grep -c '^| firewall || ' "$WORK/full.wiki")" -eq 2 ] &&
	ok "MediaWiki: a row per scenario and frame size" || bad "wiki: $(cat "$WORK/full.wiki")"

# Killed during the second scenario, then resumed.
"$FWSTRESS" campaign -o "$WORK/cut.json" "$WORK/plan.json" >"$WORK/cut.out" 2>"$WORK/cut.err" &
pid=$!
for _ in $(seq 1 300); do grep -q "^campaign 2/2 firewall: trial 2" "$WORK/cut.err" && break; sleep 0.1; done
kill -9 $pid
wait $pid 2>/dev/null
check "killed: the report holds the first scenario, partial, the second's row not run" \
	'r["partial"] is True and [s["status"] for s in r["campaign"]["scenarios"]][0] == "done" and {c["scenario"] for c in r["cells"] if c["verdict"] == "ok"} == {"routing"} and [c["verdict"] for c in r["cells"] if c["scenario"] == "firewall"] in (["not run"], ["interrupted"]) and r["status"] == "interrupted"' "$WORK/cut.json"
"$FWSTRESS" campaign --resume -o "$WORK/cut.json" "$WORK/plan.json" >"$WORK/resume.out" 2>"$WORK/resume.err"
rc=$?
[ $rc -eq 0 ] && ! grep -q "campaign 1/2" "$WORK/resume.err" && ok "resumed: exit 0, the first scenario not measured again" ||
	bad "resume: exit $rc: $(tail -3 "$WORK/resume.err")"
[ "$(keys "$WORK/cut.json")" = "$(keys "$WORK/full.json")" ] && [ "$(keys "$WORK/cut.json" | uniq -d)" = "" ] &&
	ok "resumed: the same $(keys "$WORK/full.json" | wc -l) cells as the uninterrupted campaign, none twice" ||
	bad "resumed cells: $(keys "$WORK/cut.json" | tr '\n' ' ') against $(keys "$WORK/full.json" | tr '\n' ' ')"

# With --repeat 3 (issue 36) every scenario measures each cell three times: the campaign's
# matrix gives each cell's median of 3 with its spread; killed during the second scenario's
# runs and resumed, the finished repetitions are kept (its child resumed: "done in the
# report, skipped") and every cell still has its three.
"$FWSTRESS" campaign --repeat 3 -o "$WORK/rep.json" "$WORK/plan.json" >"$WORK/rep.out" 2>"$WORK/rep.err" &
pid=$!
for _ in $(seq 1 600); do grep -q "^campaign 2/2 firewall: trial 3" "$WORK/rep.err" && break; sleep 0.1; done
kill -9 $pid
wait $pid 2>/dev/null
sleep 1
"$FWSTRESS" campaign --resume --repeat 3 -o "$WORK/rep.json" "$WORK/plan.json" >"$WORK/rep2.out" 2>"$WORK/rep2.err"
rc=$?
[ $rc -eq 0 ] && ok "repeat 3, killed and resumed: exit 0" || bad "repeat campaign: exit $rc: $(tail -3 "$WORK/rep2.err")"
grep -q "repetition [12]: done in the report, skipped" "$WORK/rep.json.d/"*firewall.log &&
	ok "resumed: the second scenario kept its finished repetitions" || bad "resumed repetitions: $(grep -h 'done in' "$WORK/rep.json.d/"*.log)"
check "repeat 3: every cell (8: routing 4 streams, firewall 2 x 2 sizes) measured three times (repetitions 1-3 once each)" \
	'(lambda g: len(g) == 8 and all(sorted(v) == [1, 2, 3] for v in g.values()))({k: [c["repetition"] for c in r["cells"] if "/".join((c["scenario"], c["kind"], c["direction"], c["stream"], c["frame_size"])) == k] for k in {"/".join((c["scenario"], c["kind"], c["direction"], c["stream"], c["frame_size"])) for c in r["cells"]}})' "$WORK/rep.json"
"$FWSTRESS" report "$WORK/rep.json" >"$WORK/rep.md"
[ "$(grep -c 'median of 3 repetitions, their spread' "$WORK/rep.md")" -ge 3 ] && ok "the campaign's matrix: each cell the median of 3 with its spread" ||
	bad "repeat matrix: $(cat "$WORK/rep.md")"

# A failing setup: the campaign stops, names the scenario, keeps the first one's cells.
plan "$WORK/bad.json" "echo no route to the firewall >&2; exit 3"
"$FWSTRESS" campaign -o "$WORK/bad-r.json" "$WORK/bad.json" >/dev/null 2>"$WORK/bad.err"
rc=$?
[ $rc -eq 3 ] && grep -q 'campaign: scenario firewall: setup ".*" exited with status 3: no route to the firewall' "$WORK/bad.err" &&
	ok "failed setup: exit 3, the scenario and the reason named" || bad "failed setup: exit $rc: $(cat "$WORK/bad.err")"
check "failed setup: the first scenario's cells stay, the second marked" \
	'{c["scenario"] for c in r["cells"] if c["verdict"] == "ok"} == {"routing"} and r["campaign"]["scenarios"][1]["status"] == "setup failed" and r["partial"] is True' "$WORK/bad-r.json"
# ... and keeps its row, the banner naming what happened, every format the build (issue 51,
# item 3).
check "failed setup: its row (one cell, no figures, its verdict the reason), the status, the build" \
	'[c["verdict"] for c in r["cells"] if c["scenario"] == "firewall"] == ["setup failed: " + r["campaign"]["scenarios"][1]["reason"]] and r["status"].startswith("1 of 2 scenarios failed: firewall (setup failed: ") and r["tool"]["name"] == "fwstress" and r["dpdk"]' "$WORK/bad-r.json"
"$FWSTRESS" report "$WORK/bad-r.json" >"$WORK/bad.md"
grep -q "^| firewall | - | fixed rate | setup failed |" "$WORK/bad.md" && grep -q "PARTIAL REPORT: .*1 of 2 scenarios failed: firewall" "$WORK/bad.md" &&
	grep -q "measured by fwstress $(awk -F"'" '/version:/ {print $2; exit}' "$TOP/meson.build") (commit" "$WORK/bad.md" &&
	ok "failed setup: the matrix keeps its row, says why and names the build" || bad "failed setup matrix: $(cat "$WORK/bad.md")"
"$FWSTRESS" report --format html "$WORK/bad-r.json" | grep -q '<span class="tool">fwstress .*(commit' &&
	ok "failed setup: the html names the build" || bad "failed setup: html names no build"
finish
