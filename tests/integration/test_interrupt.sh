#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# (d) SIGINT mid-run: exit status 4 and a JSON report marked partial with what was measured.
. "$(dirname "$0")/lib.sh"

"$FWSTRESS" run -q -o "$WORK/report.json" -d 60 "$HERE/loopback-test.json" 2>"$WORK/int.err" &
pid=$!
sleep 4
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 4 ] && ok "exit status 4 (interrupted)" || bad "exit status $rc, want 4"
# The line says how to go on (issue 51, item 15).
grep -q "^fwstress: interrupted: the report is partial; fwstress run --resume -o $WORK/report.json $HERE/loopback-test.json (with the same options) continues it$" "$WORK/int.err" &&
	ok "the interrupted line names --resume" || bad "interrupted line: $(grep interrupted "$WORK/int.err")"
check "status interrupted, partial" 'r["status"] == "interrupted" and r["partial"] is True'
check "the trial is marked partial" 'len(t) == 1 and t[0]["partial"] is True'
check "it measured something" 't[0]["streams"][0]["offered"]["frames"] > 10000'
check "drained: received == sent" \
	't[0]["streams"][0]["received"]["distinct_frames"] == t[0]["streams"][0]["offered"]["frames"]'
check "duration is what ran, not what was asked" 't[0]["streams"][0]["offered"]["duration_s"] < 10'
ls "$WORK"/*.tmp >/dev/null 2>&1 && bad "temporary file left behind" || ok "no temporary file left"

# caught PID: wait (up to 5 s) until PID catches SIGINT (0x2 in its SigCgt). A job started
# with & by a script ignores SIGINT until then, and a sanitizer build takes 0.2 s to reach
# main: a signal sent by the clock alone could land before fwstress is there to take it.
caught() {
	local i
	for i in $(seq 500); do
		[ $((0x$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0) & 2)) -ne 0 ] && return 0
		sleep 0.01
	done
	return 1
}

# SIGHUP ends a run as SIGINT does; so does SIGINT during EAL setup (sent the moment the
# handler is in place, before EAL) or the path check.
for sig_at in "HUP 3" "INT 0" "INT 1.2"; do
	read -r sig at <<<"$sig_at"
	rm -f "$WORK/r.json"
	"$FWSTRESS" run -q -o "$WORK/r.json" -d 60 "$HERE/loopback-test.json" 2>"$WORK/err" &
	pid=$!
	caught $pid || bad "SIG$sig after $at s: fwstress never caught SIGINT"
	sleep "$at"
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq 4 ] && ok "SIG$sig after $at s: exit 4" || bad "SIG$sig after $at s: exit $rc ($(tail -2 "$WORK/err"))"
	check "SIG$sig after $at s: the report says interrupted, partial" \
		'r["status"] == "interrupted" and r["partial"] is True' "$WORK/r.json"
done

# Output paths are checked before any load; devices are written into, never replaced.
start=$(date +%s%N)
expect_rc 2 "report into a missing directory" "$FWSTRESS" run -q -o "$WORK/no/such/r.json" "$HERE/loopback-test.json"
[ $(( ($(date +%s%N) - start) / 1000000 )) -lt 3000 ] && ok "refused before any trial" || bad "missing directory found late"
grep -q "cannot write $WORK/no/such/r.json: No such file or directory" "$WORK/err" && ok "the path and reason named" || bad "$(cat "$WORK/err")"
expect_rc 2 "report onto a directory" "$FWSTRESS" run -q -o "$WORK" "$HERE/loopback-test.json"
expect_rc 2 "an output path longer than 255" "$FWSTRESS" run -q -o "$WORK/$(printf 'x%.0s' $(seq 300))" "$HERE/loopback-test.json"
mknod "$WORK/null" c 1 3
expect_rc 0 "report into a character device" "$FWSTRESS" run -q -o "$WORK/null" -d 0.2 "$HERE/loopback-test.json"
[ -c "$WORK/null" ] && ok "the device is still a device" || bad "the device was replaced by a file"
mkdir "$WORK/full"
if mount -t tmpfs -o size=8k tmpfs "$WORK/full" 2>/dev/null; then
	expect_rc 5 "a full disk" "$FWSTRESS" run -q -o "$WORK/full/r.json" -d 0.2 "$HERE/loopback-test.json"
	grep -q "cannot write $WORK/full/r.json: No space left on device" "$WORK/err" &&
		ok "a full disk says so" || bad "full disk: $(cat "$WORK/err")"
	umount "$WORK/full"
else
	bad "cannot mount a small tmpfs to fill"
fi
finish
