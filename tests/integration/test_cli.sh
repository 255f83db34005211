#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Command line: help, validate, exit statuses, one-line errors; bad setups fail cleanly.
. "$(dirname "$0")/lib.sh"

expect_rc() {
	local want=$1 name=$2
	shift 2
	"$@" >"$WORK/out" 2>"$WORK/err"
	local rc=$?
	[ $rc -eq "$want" ] && ok "$name: exit $want" || bad "$name: exit $rc, want $want ($(head -c 300 "$WORK/err"))"
}

expect_rc 0 "--help" "$FWSTRESS" --help
grep -q "Exit status" "$WORK/out" && ok "--help lists exit statuses" || bad "--help text"
expect_rc 0 "run --help" "$FWSTRESS" run --help
grep -q -- "--duration" "$WORK/out" && ok "run --help lists options" || bad "run --help text"
expect_rc 0 "validate --help" "$FWSTRESS" validate --help
expect_rc 1 "no subcommand" "$FWSTRESS"
expect_rc 1 "unknown subcommand" "$FWSTRESS" frobnicate
expect_rc 1 "unknown run option" "$FWSTRESS" run --bogus
expect_rc 1 "bad --duration" "$FWSTRESS" run -d -5

expect_rc 0 "validate embedded default" "$FWSTRESS" validate
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); assert c["streams"][1]["name"] == "download" and c["drain"] == 1' "$WORK/out" \
	&& ok "validate prints the normalised default" || bad "validate output"
"$FWSTRESS" validate >"$WORK/norm.json" && expect_rc 0 "normalised config validates again" "$FWSTRESS" validate "$WORK/norm.json"
expect_rc 0 "validate every shipped config" bash -c "for f in '$HERE'/../../config/*.json; do '$FWSTRESS' validate \"\$f\" >/dev/null || exit 1; done"

printf '{"ports": [{"name": "lan", "device": "x"}],\n "flows": {"src_port": "70000-80000"}}\n' >"$WORK/bad.json"
expect_rc 2 "bad config" "$FWSTRESS" validate "$WORK/bad.json"
[ "$(cat "$WORK/err")" = 'fwstress: config: flows.src_port: range "70000-80000" is outside 0-65535 (line 2)' ] \
	&& ok "one-line error with path, value and line" || bad "error text: $(cat "$WORK/err")"
expect_rc 2 "run with a bad config" "$FWSTRESS" run "$WORK/bad.json"
expect_rc 2 "missing config file" "$FWSTRESS" validate "$WORK/nope.json"
grep -q "No such file" "$WORK/err" && ok "missing file named" || bad "missing file message"

# Setup errors: exit 3, one line, no report.
cat >"$WORK/nodev.json" <<'J'
{"eal": ["-l", "0-1", "--no-pci"], "ports": [{"name": "lan", "device": "net_nosuchdriver0"},
 {"name": "wan", "device": "ringpair:x:b"}], "duration": 0.1}
J
expect_rc 3 "unknown device" "$FWSTRESS" run -q -o "$WORK/r.json" "$WORK/nodev.json"
grep -q 'device "net_nosuchdriver0": probe failed' "$WORK/err" && ok "device named in the error" || bad "device error: $(cat "$WORK/err")"
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
 "output": {"json": ""}}
J
expect_rc 0 "percent rate on a vdev with a link speed" "$FWSTRESS" run -q "$WORK/pct.json"
finish
