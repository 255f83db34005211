# SPDX-License-Identifier: BSD-3-Clause
# Helpers for the integration scripts: $1 is the fwstress binary, $2 this directory.
set -u
FWSTRESS=$1
HERE=$2
# Every script here starts EAL: without hugepages it is skipped (exit 77), as DPDK's own tests
# are; .ci/run fails on a skip unless the test is on its list of known reasons.
if [ "$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)" -lt 64 ] || [ ! -w /dev/hugepages ]; then
	echo "SKIP: no free hugepages or /dev/hugepages not writable: run tools/setup as root"
	exit 77
fi
WORK=$(mktemp -d /tmp/fws-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0

ok() { PASSED=$((PASSED + 1)); echo "ok   $*"; }
bad() { FAILED=$((FAILED + 1)); echo "FAIL $*"; }

# check NAME PYTHON-EXPRESSION: evaluated with r = the JSON report.
check() {
	local name=$1 expr=$2 file=${3:-$WORK/report.json}
	if python3 - "$file" "$expr" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r.get("trials")
v = eval(sys.argv[2])
if not v:
    print("   expression:", sys.argv[2])
sys.exit(0 if v else 1)
PY
	then ok "$name"; else bad "$name"; fi
}

# expect_rc WANT NAME CMD...: run CMD (stdout to $WORK/out, stderr to $WORK/err) and check
# its exit status.
expect_rc() {
	local want=$1 name=$2
	shift 2
	"$@" >"$WORK/out" 2>"$WORK/err"
	local rc=$?
	[ $rc -eq "$want" ] && ok "$name: exit $want" || bad "$name: exit $rc, want $want ($(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | head -c 300))"
}

finish() {
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}
