#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# DUT telemetry (dut.telemetry) through the report path: a recorded OPNsense-like DUT
# (tests/data/telemetry/opnsense, answered by its replay script as the DUT's shell would) over a
# ring-pair run. Each figure against what the snapshots say, computed here in Python from the
# recorded files; the sessions that fail (a command that is not there, a DUT that says nothing
# or hangs, an unknown platform) are reported in the trial and never stop the measurement.
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$HERE/../data/telemetry" && pwd)

# conf OUT TELEMETRY-COMMAND [SECONDS [WARMUP]]: the loopback run, upload only, WARMUP (1) s
# of warm-up, SECONDS (3) measured.
conf() {
	python3 - "$HERE/loopback-test.json" "$1" "$2" "${3:-3}" "${4:-1}" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.update({"direction": "upload", "frame_size": [64], "duration": float(sys.argv[4]),
          "warmup": float(sys.argv[5]), "drain": 0.3,
          "dut": {"name": "fw-a", "telemetry": sys.argv[3]}})
json.dump(c, open(sys.argv[2], "w"))
PY
}

conf "$WORK/opn.json" "sh $DATA/replay $DATA/opnsense"
expect_rc 0 "run with a recorded OPNsense DUT" "$FWSTRESS" run -q -o "$WORK/report.json" -t "$WORK/report.txt" "$WORK/opn.json"
T='t[0]["dut_telemetry"]'
check "platform from uname, nothing missing, no error" \
	"$T[\"platform\"] == 'FreeBSD 14.1-RELEASE-p6' and $T[\"missing\"] == [] and 'error' not in $T"
check "seconds by phase: warm-up first, then 3 measured, then the drain" \
	"(lambda p: p[0] == 'warm-up' and p.count('measure') == 3 and p[-1] == 'drain' and p == sorted(p, key=['warm-up', 'measure', 'drain'].index))($T[\"seconds\"][\"phase\"])"
# The replay answers snapshot k at the k-th request; the measured seconds are snapshots i-1..i
# for each measured i: every figure from the recorded files, here.
python3 - "$DATA/opnsense" "$WORK/report.json" >"$WORK/expect.json" <<'PY'
import json, sys
d, r = sys.argv[1], json.load(open(sys.argv[2]))
tel = r["trials"][0]["dut_telemetry"]["seconds"]
snaps = [open(f"{d}/snap.{k:02d}").read() for k in range(12)]
def sec(text, name):
    return text.split(f"@fws {name}\n")[1].split("\n@fws ")[0]
def cores(text):
    v = list(map(int, sec(text, "cpu").split()))
    return [(sum(v[i:i + 4]), sum(v[i:i + 5])) for i in range(0, len(v), 5)]
def idrop(text):
    return sum(int(l.split()[-7]) + int(l.split()[-8]) + int(l.split()[-4]) + int(l.split()[-1])
               for l in sec(text, "drops").splitlines() if "<Link#" in l)
def states(text):
    return [int(l.split()[2]) for l in sec(text, "states").splitlines() if "current entries" in l][0]
idx = [i for i, p in enumerate(tel["phase"]) if p == "measure"]
pairs = [(snaps[i], snaps[i + 1]) for i in idx]
n = len(cores(snaps[0]))
core = [sum((cores(b)[c][0] - cores(a)[c][0]) / (cores(b)[c][1] - cores(a)[c][1]) * 100 * (tel["dt"][i])
            for (a, b), i in zip(pairs, idx)) / sum(tel["dt"][i] for i in idx) for c in range(n)]
print(json.dumps({"cores": core, "drops": sum(idrop(b) - idrop(a) for a, b in pairs),
                  "states_end": states(pairs[-1][1]), "growth": states(pairs[-1][1]) - states(pairs[0][0])}))
PY
E=$(cat "$WORK/expect.json")
M="$T[\"measured\"]"
check "per-core means equal the recorded kern.cp_times' (1e-6)" \
	"all(abs(a - b) < 1e-6 for a, b in zip($M[\"cpu\"][\"cores_mean_pct\"], $E[\"cores\"])) and len($E[\"cores\"]) == 4"
check "busiest core cpu2 near 98 %, the mean of the cores the total's" \
	"$M[\"cpu\"][\"busiest_core\"][\"core\"] == 2 and abs($M[\"cpu\"][\"busiest_core\"][\"mean_pct\"] - 12400 / 127) < 1e-3 and abs(sum($M[\"cpu\"][\"cores_mean_pct\"]) / 4 - $M[\"cpu\"][\"mean_pct\"]) < 1e-3"
check "the DUT's drops equal netstat -ibdn's growth in the measured seconds" \
	"$M[\"drops\"][\"total\"] == $E[\"drops\"] > 0 and $M[\"drops\"][\"where\"] == 'igb0 in drop %d' % $E[\"drops\"]"
check "states: pfctl's current entries at the end, growth over the phase" \
	"$M[\"states\"][\"end\"] == $E[\"states_end\"] and $M[\"states\"][\"growth\"] == $E[\"growth\"] > 0"
check "busiest interrupt source igb0:rxq2; temperature, memory, mbuf there" \
	"$M[\"interrupts\"][\"busiest\"][0][\"source\"] == 'irq258: igb0:rxq2' and $M[\"temperature_c_max\"] > 50 and 0 < $M[\"memory_used_pct_max\"] < 100 and $M[\"mbuf_denied\"] == 3 * 3"
check "notes derived: single-thread bound, the NIC's drops, mbuf denials, state growth" \
	"[n.split(':')[0].split(' (')[0] for n in $T[\"notes\"]] == ['one core', 'the DUT dropped %d frames in its NICs' % $E[\"drops\"], 'the DUT denied 9 mbuf requests', 'state table grew by %d to %d' % ($E[\"growth\"], $E[\"states_end\"])]"
check "cells: busiest core, states, drops; the CPU column from the telemetry" \
	"all(abs(c['dut_busiest_core_pct'] - 12400 / 127) < 1e-3 and c['dut_states'] == $E[\"states_end\"] and c['dut_drops'] == $E[\"drops\"] and abs(c['dut_cpu_pct'] - $M[\"cpu\"][\"mean_pct\"]) < 1e-6 for c in r['cells'])"
grep -q "note: DUT: one core (cpu2) at 98 % while the mean is 32 %: single-thread bound" "$WORK/report.txt" &&
	ok "text report: the note" || bad "text: $(grep -A8 'DUT telemetry' "$WORK/report.txt")"
"$FWSTRESS" report "$WORK/report.json" >"$WORK/matrix.txt"
grep -q "32 % (core 98 %)" "$WORK/matrix.txt" && grep -q "DUT: one core at 98 % while the mean is 32 %: single-thread bound" "$WORK/matrix.txt" &&
	grep -q "the DUT dropped $(python3 -c "import json; print(json.load(open('$WORK/expect.json'))['drops'])") frames in its NICs" "$WORK/matrix.txt" &&
	ok "matrix: CPU with the busiest core, its notes" || bad "matrix: $(cat "$WORK/matrix.txt")"
# The HTML page: the trial's timeline, a line per core and the total, the measured phase
# shaded where its seconds are, the load on its own scale (its highest second at the top).
"$FWSTRESS" report --format html -o "$WORK/report.html" "$WORK/report.json"
python3 - "$WORK/report.html" "$WORK/report.json" <<'PY' && ok "html: the DUT timeline, 4 cores and the total, measured phase and load as the report's" || bad "html timeline"
import json, re, sys
h, r = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
t = r["trials"][0]
d = t["dut_telemetry"]["seconds"]
svg = re.search(r'<svg class="timeline" id="timeline-0".*?</svg>', h, re.S).group(0)
cores = re.findall(r'<polyline fill="none" class="core" data-core="(\d)"[^>]*points="([^"]*)"', svg)
total = re.search(r'class="cpu"[^>]*points="([^"]*)"', svg).group(1).split()
m = re.search(r'class="measured"[^>]*data-from="([\d.]+)" data-to="([\d.]+)"', svg)
load = re.search(r'class="load"[^>]*data-max="([\d.]+)" points="([^"]*)"', svg)
first = d["phase"].index("measure")
last = len(d["phase"]) - 1 - d["phase"][::-1].index("measure")
assert [c for c, _ in cores] == ["0", "1", "2", "3"] and all(len(p.split()) == len(d["t"]) for _, p in cores)
assert len(total) == len(d["t"])
assert abs(float(m.group(1)) - d["t"][first]) < 1e-3 and abs(float(m.group(2)) - d["t"][last] - d["dt"][last]) < 1e-3
assert abs(float(load.group(1)) - max(t["seconds"]["rx_pps"])) < 0.1 and len(load.group(2).split()) == len(t["seconds"]["rx_pps"])
assert "<h3>DUT timeline: trial 1, frame size 64</h3>" in h
PY

# Sessions that fail: the trial is measured, the telemetry says why in one line (short trials).
fails() {
	local name=$1 cmd=$2 want=$3
	conf "$WORK/f.json" "$cmd" 1 0.2
	expect_rc 0 "$name: measured anyway" "$FWSTRESS" run -q -o "$WORK/f-report.json" "$WORK/f.json"
	check "$name: reported as expected" \
		"t[0]['streams'][0]['lost'] == 0 and t[0]['streams'][0]['received']['distinct_frames'] > 0 and $want" "$WORK/f-report.json"
}
fails "a command not there" "no-such-command-fws" \
	"t[0]['dut_telemetry']['error'].startswith('the DUT session ended: ') and 'not found' in t[0]['dut_telemetry']['error'] and t[0]['dut_telemetry']['measured']['n'] == 0"
fails "a DUT that says nothing and ends" "true" \
	"t[0]['dut_telemetry']['error'] == 'the DUT session ended: without a word'"
fails "a DUT that hangs" "sleep 30" \
	"t[0]['dut_telemetry']['late'] >= 1 and t[0]['dut_telemetry']['measured']['n'] == 0 and t[0]['dut_telemetry']['platform'] == '' and t[0]['dut_telemetry']['error'] == 'the DUT session gave no answer (a hung session? nothing in the whole trial)'"
# Garbage (binary, NULs included) in every section: each metric named missing with why, the
# session's answers still found after it (how many seconds they cut the 1 s phase into, and
# whether one came late, is the busy machine's: a CI run saw it differ).
cat >"$WORK/garbage.sh" <<'SH'
while IFS= read -r line; do
	case $line in
	*"@fws uname"*) echo "@fws uname FreeBSD 14.1-RELEASE" ;;
	*"@fws begin "*)
		n=${line#*@fws begin }
		n=${n%%\'*}
		echo "@fws begin $n"
		for s in cpu interrupts states drops mbuf temperature memory; do
			echo "@fws $s"
			head -c 2000 /dev/urandom | tr -d '@'
			echo
		done
		echo "@fws end $n"
		;;
	esac
done
SH
fails "a DUT that prints garbage" "sh $WORK/garbage.sh" \
	"(lambda d: 'error' not in d and d['measured']['n'] >= 1 and sorted(m['metric'] for m in d['missing']) == sorted(['cpu', 'interrupts', 'states', 'drops', 'mbuf', 'temperature', 'memory']) and all(m['why'] and '\\n' not in m['why'] for m in d['missing']))(t[0]['dut_telemetry'])"
# A DUT that goes away in the measured phase: what it answered is kept, then the error.
fails "a DUT that ends mid-trial" "timeout 0.9 sh $DATA/replay $DATA/opnsense" \
	"(lambda d: d['error'].startswith('the DUT session ended') and d['platform'].startswith('FreeBSD') and 1 <= len(d['seconds']['t']) <= 2)(t[0]['dut_telemetry'])"
# A session over a pty (ssh -t: every line ends CRLF): read as any other (issue 53, item 6).
printf '%s\n' 'sh "$@" | sed -u "s/\$/$(printf "\\r")/"' >"$WORK/crlf.sh"
fails "a DUT whose lines end CRLF (a pty)" "sh $WORK/crlf.sh $DATA/replay $DATA/opnsense" \
	"(lambda d: d['platform'] == 'FreeBSD 14.1-RELEASE-p6' and d['missing'] == [] and 'error' not in d and d['measured']['n'] >= 1 and len(d['measured']['cpu']['cores_mean_pct']) == 4)(t[0]['dut_telemetry'])"
mkdir -p "$WORK/darwin" && echo "Darwin 23.1.0" >"$WORK/darwin/uname"
fails "an unknown platform" "sh $DATA/replay $WORK/darwin" \
	"t[0]['dut_telemetry']['error'] == 'the DUT answers uname \"Darwin 23.1.0\": neither FreeBSD nor Linux, no telemetry'"
# A DUT whose uname sets the terminal's title (issue 53, item 1): read as '?', never raw.
mkdir -p "$WORK/esc" && printf 'Darwin\033]0;t\007 23.1.0\n' >"$WORK/esc/uname"
fails "an uname with escape sequences" "sh $DATA/replay $WORK/esc" \
	"t[0]['dut_telemetry']['error'] == 'the DUT answers uname \"Darwin?]0;t? 23.1.0\": neither FreeBSD nor Linux, no telemetry'"
# This machine as a Linux DUT: /bin/sh here (no temperature sensor in a VM: named once).
conf "$WORK/lx.json" "sh" 2 0.2
expect_rc 0 "run with this machine as a Linux DUT" "$FWSTRESS" run -q -o "$WORK/lx-report.json" "$WORK/lx.json"
check "Linux: cores, interrupts, states, drops, memory; a missing metric named with its reason" \
	"(lambda d: d['platform'].startswith('Linux') and len(d['measured']['cpu']['cores_mean_pct']) == $(nproc) and d['measured']['interrupts']['mean_per_s'] > 0 and 'drops' in d['measured'] and all(m['metric'] in ('temperature', 'states') and m['why'] for m in d['missing']))(t[0]['dut_telemetry'])" "$WORK/lx-report.json"
finish
