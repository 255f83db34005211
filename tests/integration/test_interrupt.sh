#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# (d) SIGINT mid-run: exit status 4 and a JSON report marked partial with what was measured.
. "$(dirname "$0")/lib.sh"

"$FWSTRESS" run -q -o "$WORK/report.json" -d 60 "$HERE/loopback-test.json" &
pid=$!
sleep 4
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 4 ] && ok "exit status 4 (interrupted)" || bad "exit status $rc, want 4"
check "status interrupted, partial" 'r["status"] == "interrupted" and r["partial"] is True'
check "the trial is marked partial" 'len(t) == 1 and t[0]["partial"] is True'
check "it measured something" 't[0]["streams"][0]["offered"]["frames"] > 10000'
check "drained: received == sent" \
	't[0]["streams"][0]["received"]["distinct_frames"] == t[0]["streams"][0]["offered"]["frames"]'
check "duration is what ran, not what was asked" 't[0]["streams"][0]["offered"]["duration_s"] < 10'
ls "$WORK"/*.tmp >/dev/null 2>&1 && bad "temporary file left behind" || ok "no temporary file left"
finish
