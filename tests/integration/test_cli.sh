#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Command line: help, validate, exit statuses, one-line errors; bad setups fail cleanly.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "--help" "$FWSTRESS" --help
grep -q "Exit status" "$WORK/out" && ok "--help lists exit statuses" || bad "--help text"
expect_rc 0 "run --help" "$FWSTRESS" run --help
grep -q -- "--duration" "$WORK/out" && ok "run --help lists options" || bad "run --help text"
expect_rc 0 "validate --help" "$FWSTRESS" validate --help
"$FWSTRESS" validate --help | grep -q "^  frame_size  " && ok "validate --help lists the config keys" || bad "validate --help: no key list"
expect_rc 1 "no subcommand" "$FWSTRESS"
expect_rc 1 "unknown subcommand" "$FWSTRESS" frobnicate
expect_rc 1 "unknown run option" "$FWSTRESS" run --bogus
expect_rc 1 "bad --duration" "$FWSTRESS" run -d -5

expect_rc 0 "validate embedded default" "$FWSTRESS" validate
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); assert c["streams"][1]["name"] == "download" and c["drain"] == 1' "$WORK/out" \
	&& ok "validate prints the normalised default" || bad "validate output"
grep -Eq '^fwstress: estimate: run [0-9]+ trials?, [0-9]+ min [0-9]{2} s; search [0-9]+ to [0-9]+ trials, [0-9]+ min [0-9]{2} s to [0-9]+ min [0-9]{2} s; sweep [0-9]+ to [0-9]+ trials, .* to .*$' "$WORK/err" &&
	ok "validate says how long run, search and sweep would take (issue 51, item 14)" || bad "validate estimate: $(grep estimate "$WORK/err")"
"$FWSTRESS" validate >"$WORK/norm.json" && expect_rc 0 "normalised config validates again" "$FWSTRESS" validate "$WORK/norm.json"
# (A hardware template names PCI addresses this machine may not have: validate says so.)
expect_rc 0 "validate every shipped config" bash -c "for f in '$HERE'/../../config/*.json; do '$FWSTRESS' validate \"\$f\" >/dev/null 2>'$WORK/v.err' || grep -q 'no PCI device .* on this host' '$WORK/v.err' || exit 1; done"

# A campaign checks every scenario before the first runs: the second's command would refuse
# its config, so the first's setup never runs.
python3 - "$HERE/loopback-test.json" "$WORK" >"$WORK/plan.json" <<'PY'
import json, sys
cfg, work = sys.argv[1], sys.argv[2]
print(json.dumps({"scenarios": [
    {"name": "first", "command": "run", "config": cfg, "setup": "touch " + work + "/setup-ran"},
    {"name": "second", "command": "connections", "config": cfg}]}))
PY
expect_rc 2 "campaign with an invalid later scenario" "$FWSTRESS" campaign -o "$WORK/camp.json" "$WORK/plan.json"
grep -q '^fwstress: campaign: scenario second: config: connections: the config has no "connections" section' "$WORK/err" && [ ! -e "$WORK/setup-ran" ] \
	&& ok "campaign: refused at once, the scenario named, nothing run" || bad "campaign: $(cat "$WORK/err"; ls "$WORK")"

# Setup and teardown commands leave no orphans (issue 23): each runs in its own process group
# under a guard, ended with TERM then KILL; on SIGINT, on SIGTERM, and when the campaign is
# killed with SIGKILL (the guard dies with it and ends the group). A daemon the setup left
# running lives through its scenario and ends with it. The sleeps' odd lengths name them.
orphans() { pgrep -f "sleep $1" >/dev/null; }
gone_within() { # PATTERN SECONDS
	local i
	for i in $(seq 1 $(($2 * 10))); do orphans "$1" || return 0; sleep 0.1; done
	return 1
}
plan() { # SETUP [TEARDOWN]
	python3 - "$HERE/loopback-test.json" "$1" "${2:-}" >"$WORK/hang.json" <<'PY'
import json, sys
s = {"name": "hang", "command": "run", "config": sys.argv[1], "setup": sys.argv[2]}
if sys.argv[3]:
    s["teardown"] = sys.argv[3]
print(json.dumps({"scenarios": [s]}))
PY
}
for sig in INT TERM KILL; do
	tag=10005$(printf '%d' "'${sig:0:1}")
	plan "sleep ${tag}1 & sleep ${tag}2"
	"$FWSTRESS" campaign -o "$WORK/hang-r.json" "$WORK/hang.json" >/dev/null 2>"$WORK/hang.err" &
	pid=$!
	for i in $(seq 1 50); do orphans "${tag}2" && break; sleep 0.1; done
	orphans "${tag}1" && orphans "${tag}2" || bad "$sig: the setup's sleeps did not start"
	kill -$sig $pid
	wait $pid
	gone_within "${tag}[12]" 8 && ok "SIG$sig during a hanging setup: its children end too" ||
		{ bad "SIG$sig: orphans: $(pgrep -af "sleep ${tag}")"; pkill -f "sleep ${tag}"; }
done
plan "sleep 1000071 >/dev/null 2>&1 &" "pgrep -f 'sleep 1000071' >$WORK/daemon-seen"
expect_rc 0 "a setup that leaves a daemon" "$FWSTRESS" campaign -o "$WORK/hang-r.json" "$WORK/hang.json"
[ -s "$WORK/daemon-seen" ] && ok "the daemon lived through its scenario" || bad "the setup's daemon was gone before the teardown"
gone_within 1000071 8 && ok "the setup's daemon ended with its scenario" ||
	{ bad "the setup's daemon outlived the campaign"; pkill -f "sleep 1000071"; }
plan "true" "sleep 1000081 & sleep 1000082"
"$FWSTRESS" campaign -o "$WORK/hang-r.json" "$WORK/hang.json" >/dev/null 2>"$WORK/hang.err" &
pid=$!
for i in $(seq 1 200); do orphans 1000082 && break; sleep 0.1; done
kill -INT $pid
wait $pid
gone_within "100008[12]" 8 && ok "SIGINT during a hanging teardown: its children end too" ||
	{ bad "teardown orphans: $(pgrep -af "sleep 100008")"; pkill -f "sleep 100008"; }

# Write failures are never silent (issue 23): every output asked for that cannot be written
# gets one line naming it and the errno, and exit 9; the run's JSON report is still whole.
one_line() { # PATTERN: exactly one fwstress line on stderr, and it matches
	[ "$(grep -c '^fwstress:' "$WORK/err")" -eq 1 ] && grep -q "$1" "$WORK/err"
}
"$FWSTRESS" run -q -o "$WORK/r0.json" -d 0.2 "$HERE/loopback-test.json" 2>/dev/null
expect_rc 9 "report -o /dev/full" "$FWSTRESS" report -o /dev/full "$WORK/r0.json"
one_line "report /dev/full: cannot write: No space left on device" && ok "report -o /dev/full: said so" || bad "report -o: $(cat "$WORK/err")"
# A fwstress option before "--" (EAL's side) is named with where it goes, not handed to EAL
# for its 90-line usage (issue 51, item 15); EAL's own -d stays EAL's.
expect_rc 1 "run -q before --" "$FWSTRESS" run -q --no-pci -- "$HERE/loopback-test.json"
[ "$(wc -l <"$WORK/err")" -eq 1 ] && one_line '"-q" is an option of fwstress run: give it after "--"' &&
	ok "run -q before --: one line naming it and where it goes" || bad "-q before --: $(head -3 "$WORK/err")"
expect_rc 1 "connections --json before --" "$FWSTRESS" connections --json=x.json -- "$HERE/loopback-test.json"
one_line '"--json=x.json" is an option of fwstress connections' && ok "connections --json before --: named" || bad "--json before --: $(head -3 "$WORK/err")"
# (No EAL warning on every command: telemetry's "no legacy callbacks" is not printed.)
! grep -q '^TELEMETRY' "$WORK/err" && "$FWSTRESS" run -q -o "" -d 0.2 "$HERE/loopback-test.json" 2>"$WORK/err" &&
	! grep -q 'TELEMETRY' "$WORK/err" && ok "a run prints no TELEMETRY line" || bad "TELEMETRY: $(grep TELEMETRY "$WORK/err")"
# The default report of an earlier run is kept under a dated name, not overwritten (issue 51,
# item 15); -o and --resume write where they are told.
mkdir -p "$WORK/rot"
(cd "$WORK/rot" && "$FWSTRESS" run -q -d 0.2 "$HERE/loopback-test.json" 2>/dev/null &&
	cp fwstress-report.json first.json && "$FWSTRESS" run -q -d 0.2 "$HERE/loopback-test.json" 2>"$WORK/rot.err" &&
	"$FWSTRESS" run -q -d 0.2 -o fwstress-report.json "$HERE/loopback-test.json" 2>"$WORK/rot2.err")
kept=$(ls "$WORK/rot" | grep -E '^fwstress-report\.[0-9]{8}-[0-9]{6}\.json$')
[ "$(echo "$kept" | grep -c .)" -eq 1 ] && cmp -s "$WORK/rot/$kept" "$WORK/rot/first.json" &&
	grep -q "^fwstress: note: fwstress-report.json of an earlier run kept as $kept (-o FILE chooses this run's report)$" "$WORK/rot.err" &&
	! grep -q "kept as" "$WORK/rot2.err" &&
	ok "the earlier default report kept as $kept, said; -o overwrites as told" || bad "report kept: $(ls "$WORK/rot"; cat "$WORK/rot.err")"
expect_rc 9 "report onto a full stdout" sh -c '"$0" report "$1" >/dev/full' "$FWSTRESS" "$WORK/r0.json"
one_line "standard output: cannot write: No space left on device" && ok "report >/dev/full: said so" || bad "report >full: $(cat "$WORK/err")"
expect_rc 9 "validate onto a full stdout" sh -c '"$0" validate >/dev/full' "$FWSTRESS"
one_line "standard output: cannot write: No space left on device" && ok "validate >/dev/full: said so" || bad "validate >full: $(cat "$WORK/err")"
expect_rc 9 "validate --doc onto a full stdout" sh -c '"$0" validate --doc >/dev/full' "$FWSTRESS"
one_line "standard output: cannot write: No space left on device" && ok "validate --doc >/dev/full: said so" || bad "validate --doc >full: $(cat "$WORK/err")"
for f in /dev/full /proc/version; do
	expect_rc 9 "run --stats $f" "$FWSTRESS" run -q -d 0.2 --stats $f -o "$WORK/rs.json" "$HERE/loopback-test.json"
	grep -q "^fwstress: --stats $f: cannot write: " "$WORK/err" && ok "--stats $f: said so, at the end" || bad "--stats $f: $(cat "$WORK/err")"
	check "--stats $f: the measurement is still saved" 'r["partial"] is False and len(t) == 2' "$WORK/rs.json"
done
expect_rc 9 "run's text report onto a full stdout" sh -c '"$0" run -d 0.2 -o "$1" "$2" >/dev/full' "$FWSTRESS" "$WORK/rt.json" "$HERE/loopback-test.json"
one_line "standard output: cannot write: No space left on device" && ok "run >/dev/full: said so" || bad "run >full: $(grep fwstress "$WORK/err")"
check "run >/dev/full: the JSON report is whole" 'r["partial"] is False and len(t) == 2' "$WORK/rt.json"

# Help per command (issue 24): each names itself in its usage and lists its own options and
# the config sections it reads.
for c in run search sweep connections campaign report compare validate ports agent hosts; do
	"$FWSTRESS" $c --help >"$WORK/help" 2>&1
	head -1 "$WORK/help" | grep -q "^Usage: fwstress $c\b" && ok "$c --help names $c" || bad "$c --help: $(head -1 "$WORK/help")"
done
"$FWSTRESS" sweep --help >"$WORK/help"
grep -q "sweep.directions" "$WORK/help" && grep -q "sweep.mode" "$WORK/help" && grep -q "sweep.latency_at" "$WORK/help" &&
	grep -q "sweep.back_to_back" "$WORK/help" && grep -q -- "--resume" "$WORK/help" &&
	ok "sweep --help explains its keys and --resume" || bad "sweep --help: $(cat "$WORK/help")"
"$FWSTRESS" run --help >"$WORK/help"
! grep -q -- "--final\|search.pdr" "$WORK/help" && ok "run --help lists only run's options" || bad "run --help lists search/sweep options"
"$FWSTRESS" search --help | grep -q "search.pdr" && ok "search --help explains PDR" || bad "search --help"
expect_rc 1 "run --final" "$FWSTRESS" run --final 3
grep -q "^fwstress run: --final is an option of search and sweep" "$WORK/err" && ok "run --final: says whose option it is" || bad "run --final: $(head -2 "$WORK/err")"

# A scenario that is no preset's name is a label, and validate says so; one that is a
# preset's up to case or white space is refused (unit suite config: the messages).
printf '{"ports": [{"name": "lan", "device": "net_null0"}, {"name": "wan", "device": "net_null1"}], "scenario": "lab 7"}\n' >"$WORK/label.json"
expect_rc 0 "a free scenario label" "$FWSTRESS" validate "$WORK/label.json"
grep -q '^fwstress: note: scenario "lab 7" is a label only: no preset applies' "$WORK/err" && ok "validate says a label is only a label" || bad "label note: $(cat "$WORK/err")"
sed 's/"lab 7"/"IPS"/' "$WORK/label.json" >"$WORK/ips.json"
expect_rc 2 "scenario IPS refused" "$FWSTRESS" validate "$WORK/ips.json"

printf '{"ports": [{"name": "lan", "device": "net_null0"}],\n "flows": {"src_port": "70000-80000"}}\n' >"$WORK/bad.json"
expect_rc 2 "bad config" "$FWSTRESS" validate "$WORK/bad.json"
[ "$(cat "$WORK/err")" = "fwstress: config: $WORK/bad.json: flows.src_port: range \"70000-80000\" is outside 0-65535 (line 2)" ] \
	&& ok "one-line error with path, value and line" || bad "error text: $(cat "$WORK/err")"
expect_rc 2 "run with a bad config" "$FWSTRESS" run "$WORK/bad.json"
expect_rc 2 "missing config file" "$FWSTRESS" validate "$WORK/nope.json"
grep -q "No such file" "$WORK/err" && ok "missing file named" || bad "missing file message"

# validate refuses what run would (issue 24): a driver DPDK does not have; both say it in the
# same line, before EAL (exit 2). A PCI address this host does not have is the host's
# business (issue 34: a config is checked on a laptop): validate notes it and exits 0, run
# refuses it in one line naming the device.
for dev in net_nosuchdriver0 ringpar:loop:b 0000:ff:1f.7; do
	printf '{"eal": ["-l", "0-1", "--no-pci"], "ports": [{"name": "lan", "device": "%s"}, {"name": "wan", "device": "ringpair:x:b"}], "duration": 0.1}\n' "$dev" >"$WORK/nodev.json"
	want=2
	[ "$dev" = 0000:ff:1f.7 ] && want=0
	expect_rc $want "validate $dev" "$FWSTRESS" validate "$WORK/nodev.json"
	cp "$WORK/err" "$WORK/v.err"
	expect_rc 2 "run $dev" "$FWSTRESS" run -q -o "$WORK/r.json" "$WORK/nodev.json"
	if [ $want = 2 ]; then
		grep -q "device \"$dev\": " "$WORK/err" && cmp -s "$WORK/err" "$WORK/v.err" &&
			ok "$dev: validate and run say the same" || bad "$dev: $(cat "$WORK/v.err" "$WORK/err")"
	else
		grep -q "^fwstress: note: .*: valid, but ports\[0\].device: device \"$dev\": no PCI device" "$WORK/v.err" &&
			[ "$(grep -c . "$WORK/err")" -eq 1 ] && grep -q "device \"$dev\": no PCI device" "$WORK/err" &&
			ok "$dev: validate notes it, run refuses it in one line" || bad "$dev: $(cat "$WORK/v.err" "$WORK/err")"
	fi
done

# The path around a run (issue 34): one line for a bad option or subcommand, with the one
# meant; --version names the commit and both DPDKs; EAL arguments on the command line add to
# the config's (one of a kind replaced) and the report records the list EAL ran with;
# "{time}" and "{command}" make a result folder per run; a campaign plan is checked by
# validate and campaign --dry-run, which run nothing and write nothing.
expect_rc 1 "an unknown option" "$FWSTRESS" run --jsn x.json
[ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q '^fwstress run: unknown option "--jsn"; did you mean "--json"?' "$WORK/err" &&
	ok "unknown option: one line, the option meant" || bad "unknown option: $(head -3 "$WORK/err")"
expect_rc 1 "an option without its value" "$FWSTRESS" compare --tolerance
grep -q '^fwstress compare: option "--tolerance" needs a value' "$WORK/err" && ok "a missing value said" || bad "missing value: $(cat "$WORK/err")"
expect_rc 1 "a mistyped subcommand" "$FWSTRESS" sweeep
grep -q '^fwstress: unknown subcommand "sweeep"; did you mean "sweep"?' "$WORK/err" && ok "subcommand: the one meant" || bad "subcommand: $(cat "$WORK/err")"
"$FWSTRESS" --version >"$WORK/out"
grep -Eq '^fwstress [0-9.]+ \(commit [^ ,)]+\), built with DPDK [0-9]+\.[0-9]+\.[0-9]+, running DPDK [0-9.]+' "$WORK/out" &&
	ok "--version: commit, the DPDK built with and the one running" || bad "--version: $(cat "$WORK/out")"
"$FWSTRESS" run -l 0-1 --no-pci --file-prefix clieal -- -q -d 0.2 -o "$WORK/res/{time}-{command}/r.json" "$HERE/loopback-test.json" 2>"$WORK/err" ||
	bad "EAL arguments on the command line: $(tail -2 "$WORK/err")"
# EAL keeps a file prefix's hugepage files after a clean exit unless told to unlink them;
# fwstress tells it (no secondary process attaches), and a user's --huge-unlink=never wins.
[ -z "$(ls /dev/hugepages 2>/dev/null | grep '^clieal')" ] && ok "--file-prefix: no hugepage files left behind" ||
	bad "hugepage files left: $(ls /dev/hugepages | grep '^clieal' | head -3)"
if grep -q hugetlbfs /proc/mounts; then
	"$FWSTRESS" run -l 0-1 --no-pci --file-prefix clikeep --huge-unlink=never -- -q -d 0.2 -o "" "$HERE/loopback-test.json" >/dev/null 2>&1
	[ -n "$(ls /dev/hugepages | grep '^clikeep')" ] && ok "--huge-unlink=never: the user's choice kept" || bad "--huge-unlink=never not passed on"
	rm -f /dev/hugepages/clikeep*
fi
ls "$WORK"/res/*-run/r.json >/dev/null 2>&1 && ok "{time}-{command}: the run's own folder" || bad "result folder: $(ls -R "$WORK/res")"
check "the report's config.eal: the config's, the command line's -l and --no-pci in their place, --file-prefix added" \
	'r["config"]["eal"] == ["-l", "0-1", "--no-pci", "--file-prefix", "clieal"]' "$(ls "$WORK"/res/*-run/r.json | head -1)"
# A port's "mac" is the one its frames carry, and the report says that one, not the driver's.
python3 -c 'import json,sys; c = json.load(open(sys.argv[1])); c["ports"][0]["mac"] = "02:11:22:33:44:55"; print(json.dumps(c))' \
	"$HERE/loopback-test.json" >"$WORK/mac.json"
"$FWSTRESS" run -q -d 0.2 -o "$WORK/mac-r.json" "$WORK/mac.json" 2>/dev/null
check "a configured MAC: the report's port names it" 'r["ports"][0]["mac"] == "02:11:22:33:44:55" and r["ports"][1]["mac"] != r["ports"][0]["mac"]' "$WORK/mac-r.json"
python3 - "$HERE/loopback-test.json" "$WORK" >"$WORK/plan.json" <<'PY'
import json, sys
print(json.dumps({"output": sys.argv[2] + "/dry.json", "scenarios": [
    {"name": "one", "command": "run", "config": sys.argv[1], "setup": "touch " + sys.argv[2] + "/ran"},
    {"name": "two", "command": "search", "config": sys.argv[1], "overrides": {"frame_size": [128]}}]}))
PY
expect_rc 0 "campaign --dry-run" "$FWSTRESS" campaign --dry-run "$WORK/plan.json"
grep -q "^campaign: 2 scenarios, [0-9]* min [0-9]* s to [0-9]* min [0-9]* s (an estimate)" "$WORK/out" && grep -q "^ 2. two .*fwstress search .*(with overrides): [0-9]* to [0-9]* trials, [0-9]* min [0-9]* s to [0-9]* min [0-9]* s$" "$WORK/out" &&
	[ ! -e "$WORK/ran" ] && [ ! -e "$WORK/dry.json" ] && [ ! -e "$WORK/dry.json.d" ] &&
	ok "dry run: every scenario, its command and time; nothing run or written" || bad "dry run: $(cat "$WORK/out"; ls "$WORK")"
expect_rc 0 "validate of a plan" "$FWSTRESS" validate "$WORK/plan.json"
sed 's/"frame_size": \[128\]/"frame_size": [12]/' "$WORK/plan.json" >"$WORK/bad-plan.json"
expect_rc 2 "validate of a plan with a bad scenario" "$FWSTRESS" validate "$WORK/bad-plan.json"
grep -q '^fwstress: campaign: scenario two .*frame_size' "$WORK/err" && ok "the bad scenario named" || bad "bad plan: $(cat "$WORK/err")"
expect_rc 0 "the shipped example plan, dry" "$FWSTRESS" campaign --dry-run "$HERE/../../config/campaign-lab.json"

# A man page and a bash completion made from the same tables as the command line: every
# subcommand of --help in both, the page renders without a groff warning, the completion
# completes subcommands, each command's options and report's formats.
"$FWSTRESS" --help | awk '/^Subcommands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}' >"$WORK/subs"
"$FWSTRESS" help --man >"$WORK/fwstress.1"
groff -man -Tutf8 -ww -P-cbou "$WORK/fwstress.1" >"$WORK/man.txt" 2>"$WORK/groff.err"
every() { # PATTERN FILE: every subcommand (%s in PATTERN) matches in FILE
	local c
	while read -r c; do grep -q "$(printf "$1" "$c")" "$2" || return 1; done <"$WORK/subs"
}
[ -s "$WORK/man.txt" ] && [ ! -s "$WORK/groff.err" ] && [ "$(wc -l <"$WORK/subs")" -ge 12 ] &&
	every "fwstress %s" "$WORK/man.txt" &&
	ok "man page: renders clean, every subcommand in it" || bad "man page: $(head -3 "$WORK/groff.err")"
"$FWSTRESS" help --bash-completion >"$WORK/comp.sh"
# ... and every option each subcommand takes is described there (its help's Options block,
# issue 51, item 15): a line with the option and text after it, in that subcommand's part.
python3 - "$WORK/comp.sh" "$WORK/man.txt" <<'PY' && ok "man page: every option of every subcommand with its description" || bad "man page options: $(cat "$WORK/man-missing")"
import re, sys
comp, man = open(sys.argv[1]).read(), open(sys.argv[2]).read()
parts = re.split(r"\n {7}fwstress +", man)
missing = []
for name, opts in re.findall(r'^\t([a-z]+)\) opts="([^"]*)"', comp, re.M):
    part = next((p for p in parts if p.startswith(name + " ") or p.startswith(name + "\n")), "")
    for o in opts.split():
        if not re.search(r"(^|[ ,])" + re.escape(o) + r"( [A-Z]+)?\s+\S", part, re.M):
            missing.append(name + " " + o)
open(sys.argv[2].replace("man.txt", "man-missing"), "w").write(" ".join(missing))
sys.exit(1 if missing or not parts else 0)
PY
comp() { bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _fwstress; echo "${COMPREPLY[*]}"' bash "$WORK/comp.sh" "$@"; }
[ "$(comp fwstress sw)" = sweep ] && [ "$(comp fwstress run --js)" = --json ] && [ "$(comp fwstress compare --lat)" = --latency-tolerance ] &&
	[ "$(comp fwstress report --format h)" = "html hdr" ] && [ "$(comp fwstress report --only la)" = lat ] && [ "$(comp fwstress campaign --dry)" = --dry-run ] &&
	every "^	%s) opts=" "$WORK/comp.sh" &&
	ok "bash completion: subcommands, each command's options, formats" || bad "completion: $(comp fwstress sw) $(comp fwstress run --js)"
# Setup errors: exit 3, one line, no report.
cat >"$WORK/nodev.json" <<J
{"eal": ["-l", "0-1", "--no-pci"], "ports": [{"name": "lan", "device": "net_pcap0,rx_pcap=$WORK/none.pcap,tx_pcap=$WORK/o.pcap"},
 {"name": "wan", "device": "ringpair:x:b"}], "duration": 0.1}
J
expect_rc 3 "a device that fails its probe" "$FWSTRESS" run -q -o "$WORK/r.json" "$WORK/nodev.json"
grep -q 'device "net_pcap0,.*": probe failed' "$WORK/err" && ok "device named in the error" || bad "device error: $(cat "$WORK/err")"
[ ! -e "$WORK/r.json" ] && ok "no report for a run that never started" || bad "report written"
cat >"$WORK/onecore.json" <<'J'
{"eal": ["-l", "0", "--no-pci"], "ports": [{"name": "lan", "device": "ringpair:y:a"},
 {"name": "wan", "device": "ringpair:y:b"}], "duration": 0.1}
J
expect_rc 3 "no worker lcore" "$FWSTRESS" run -q "$WORK/onecore.json"
grep -q "no worker lcore" "$WORK/err" && ok "lcore error explained" || bad "lcore error: $(cat "$WORK/err")"
cat >"$WORK/lcore.json" <<'J'
{"eal": ["-l", "0-1", "--no-pci"], "ports": [{"name": "lan", "device": "ringpair:z:a"},
 {"name": "wan", "device": "ringpair:z:b"}], "duration": 0.1, "lcores": {"tx": [5], "rx": [1]}}
J
expect_rc 2 "lcore not enabled" "$FWSTRESS" run -q "$WORK/lcore.json"
grep -q "lcores.tx: lcore 5 is not a worker lcore" "$WORK/err" && ok "lcore named" || bad "lcore message: $(cat "$WORK/err")"
cat >"$WORK/pct.json" <<'J'
{"eal": ["-l", "0-1", "--no-pci", "--vdev=net_null0,no-rx=1"], "ports": [{"name": "lan", "device": "net_null0"},
 {"name": "wan", "device": "ringpair:p:b"}], "duration": 0.2, "warmup": 0, "drain": 0, "rate": "10%",
 "output": {"json": ""}, "path_check": false}
J
expect_rc 0 "percent rate on a vdev with a link speed" "$FWSTRESS" run -q "$WORK/pct.json"

# Path check: a sink swallows the probe; a stream expected back on its own port gets it on
# the other. Both stop before any load, naming the stream and what was seen.
sed 's/"path_check": false/"path_check": true/' "$WORK/pct.json" >"$WORK/sink.json"
expect_rc 6 "path check: nothing arrives" "$FWSTRESS" run -q -o "$WORK/pc.json" "$WORK/sink.json"
grep -Eq 'path check: stream upload \(lan -> wan\): 0 of [0-9]+ probe frames arrived at wan within 0.5 s; no load was sent' "$WORK/err" \
	&& ok "path check names the stream" || bad "path check message: $(cat "$WORK/err")"
check "path check failure in the report, no trials" \
	'r["status"] == "path-check-failed" and r["trials"] == [] and r["path_check"][0]["ok"] is False' "$WORK/pc.json"
cat >"$WORK/wrong.json" <<'J'
{"eal": ["-l", "0-1", "--no-pci"], "ports": [{"name": "lan", "device": "ringpair:w:a"},
 {"name": "wan", "device": "ringpair:w:b"}], "streams": [{"name": "back", "tx_port": "lan", "rx_port": "lan"}],
 "duration": 0.2}
J
expect_rc 6 "path check: wrong port" "$FWSTRESS" run -q -o "" "$WORK/wrong.json"
grep -Eq 'path check: stream back \(lan -> lan\): 0 of ([0-9]+) probe frames arrived at lan; \1 arrived on port wan instead' "$WORK/err" \
	&& ok "wrong port named" || bad "wrong port message: $(cat "$WORK/err")"
expect_rc 0 "ports lists the config's ports" "$FWSTRESS" ports "$HERE/loopback-test.json"
grep -q 'config port "wan" (ringpair:lt:b)' "$WORK/out" && grep -q "driver net_ring" "$WORK/out" \
	&& ok "ports names driver and config port" || bad "ports output: $(head -c 300 "$WORK/out")"
expect_rc 0 "ports with EAL arguments only" "$FWSTRESS" ports -l 0 --no-pci --vdev=net_null0 --
grep -q "port 0: net_null0" "$WORK/out" && ok "ports shows a vdev" || bad "ports vdev: $(head -c 300 "$WORK/out")"
expect_rc 0 "ports --help" "$FWSTRESS" ports --help

# Inputs that are not config files: refused at once, naming the file, one line each.
expect_rc 2 "validate /dev/zero" timeout 10 "$FWSTRESS" validate /dev/zero
grep -q "config: /dev/zero: not a regular file" "$WORK/err" && ok "/dev/zero named" || bad "/dev/zero: $(cat "$WORK/err")"
mkfifo "$WORK/fifo"
expect_rc 2 "validate a FIFO (no writer: must not block)" timeout 10 "$FWSTRESS" validate "$WORK/fifo"
expect_rc 2 "validate a directory" "$FWSTRESS" validate "$WORK"
grep -q "config: $WORK: Is a directory" "$WORK/err" && ok "directory named" || bad "directory: $(cat "$WORK/err")"
printf '{"ports": [{"name": "a", "device": "net_null0"}],\n "ra\\nte": "1Mpps"}' >"$WORK/nl.json"
expect_rc 2 "a key with a line break" "$FWSTRESS" validate "$WORK/nl.json"
[ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "config: $WORK/nl.json: ra?te: unknown key" "$WORK/err" &&
	ok "the error is one line naming the file" || bad "line-break key: $(cat -A "$WORK/err")"
printf '{"eal": ["--help"], "ports": [{"name": "a", "device": "net_null0"}]}' >"$WORK/help.json"
expect_rc 2 "EAL --help in the config is refused" "$FWSTRESS" run -q -o "" "$WORK/help.json"
expect_rc 3 "EAL --proc-type=secondary on the command line" \
	"$FWSTRESS" run --proc-type=secondary -- -q -o "" "$HERE/loopback-test.json"
grep -q "fwstress runs as a primary process" "$WORK/err" && ok "secondary refused with the reason" || bad "secondary: $(cat "$WORK/err")"

# compare and report read fwstress reports only, and compare needs cells to line up.
"$FWSTRESS" run -q -o "$WORK/r1.json" "$HERE/loopback-test.json" >/dev/null 2>&1
expect_rc 1 "compare --tolerance %" "$FWSTRESS" compare --tolerance % "$WORK/r1.json" "$WORK/r1.json"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["schema"]="other/9"; json.dump(r, open(sys.argv[2],"w"))' "$WORK/r1.json" "$WORK/other.json"
expect_rc 2 "report of another schema" "$FWSTRESS" report "$WORK/other.json"
grep -q 'schema "other/9"' "$WORK/err" && ok "schema named" || bad "schema: $(cat "$WORK/err")"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); [c.update(scenario="ipsec") for c in r["cells"]]; json.dump(r, open(sys.argv[2],"w"))' "$WORK/r1.json" "$WORK/ipsec.json"
expect_rc 2 "compare with no cell in common" "$FWSTRESS" compare "$WORK/r1.json" "$WORK/ipsec.json"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["cells"][0]["avg_frame"]=2147483647; r["cells"][0]["latency_histogram"]=[[0,1,0]]; json.dump(r, open(sys.argv[2],"w"))' "$WORK/r1.json" "$WORK/huge.json"
expect_rc 2 "report with an impossible frame size" timeout 20 "$FWSTRESS" report --format html "$WORK/huge.json"
finish
