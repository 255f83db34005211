# SPDX-License-Identifier: BSD-3-Clause
# Helpers for the integration scripts: $1 is the fwstress binary, $2 this directory.
set -u
FWSTRESS=$1
HERE=$2
SCHEMA_DIR=$(cd "$HERE/../schema" && pwd)
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
UNJUDGED=0

ok() { PASSED=$((PASSED + 1)); echo "ok   $*"; }
bad() { FAILED=$((FAILED + 1)); echo "FAIL $*"; }
# unjudged CHECK: REASON: a check whose premise this machine did not give (other jobs
# loading its cores), measured and said, neither passed nor failed (issue 53, item 8).
unjudged() { UNJUDGED=$((UNJUDGED + 1)); echo "NOT JUDGED $*"; }

# check NAME PYTHON-EXPRESSION: evaluated with r = the JSON report.
check() {
	local name=$1 expr=$2 file=${3:-$WORK/report.json}
	if python3 - "$file" "$expr" "$WORK/.report-keys" "$SCHEMA_DIR" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r.get("trials")
v = eval(sys.argv[2])
if not v:
    print("   expression:", sys.argv[2])
    # Which clause failed, and the figures it weighed: a CI log must say why.
    import re
    for c in sys.argv[2].split(" and "):
        try:
            if eval(c):
                continue
            # each subscript chain the clause reads, with its value
            for ref in sorted(set(re.findall(r"\b(?:t|r)(?:\[[^\[\]]*\])+", c))):
                print("   %s = %r" % (ref, eval(ref)))
            print("   false:", c.strip())
        except Exception:
            pass
sys.path.insert(0, sys.argv[4])
import report_keys
with open(sys.argv[3], "a") as k:
    k.writelines(p + "\n" for p in report_keys.paths([sys.argv[1]]))
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

# Every key of every report checked above is in the schema document (FWS_REPORT_KEYS=FILE:
# also append them there, to write the document from).
report_keys_documented() {
	[ -s "$WORK/.report-keys" ] || return 0
	[ -z "${FWS_REPORT_KEYS:-}" ] || sort -u "$WORK/.report-keys" >>"$FWS_REPORT_KEYS"
	if python3 "$SCHEMA_DIR/report_keys.py" check "$SCHEMA_DIR/../../docs/reference/report-schema.md" \
		"$WORK/.report-keys" >"$WORK/.undocumented"; then
		ok "every report key is in docs/reference/report-schema.md"
	else
		bad "report keys missing from docs/reference/report-schema.md: $(tr '\n' ' ' <"$WORK/.undocumented" | head -c 400)"
	fi
}

finish() {
	local ran=$((PASSED + FAILED))
	report_keys_documented
	if [ "$UNJUDGED" -gt 0 ]; then
		echo "$PASSED passed, $FAILED failed, $UNJUDGED not judged (the reasons above)"
	else
		echo "$PASSED passed, $FAILED failed"
	fi
	# (a script that checked nothing proves nothing: it fails)
	[ "$ran" -gt 0 ] || { echo "not ok  no check ran"; return 1; }
	[ "$FAILED" -eq 0 ]
}

# Chromium for the HTML checks: CHROME (empty: none, or Ubuntu's chromium, a snap, which
# tools/setup does not install) and flags, its headless flags.
chrome_init() {
	CHROME=$(command -v chromium || command -v chromium-browser || true)
	case "$CHROME" in /snap/*) CHROME="" ;; esac
	flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
		--disable-background-networking --disable-component-update --disable-sync
		--user-data-dir=$WORK/chrome"
}

# No browser: on Ubuntu the browser checks skip, saying so; everywhere else that fails.
chrome_missing() {
	if grep -q '^ID=ubuntu' /etc/os-release 2>/dev/null; then
		echo "skip the browser checks: Ubuntu's chromium is a snap (tools/setup --tests installs no browser there)"
	else
		bad "chromium is not installed (tools/setup --tests installs it)"
	fi
}

# The page FILE laid out by Chromium at 1400 px, measured by a script added to a copy: a JSON
# object on stdout (win, page: the document's width, table: the matrix's, row: its tallest
# row, refs and lost: note references and those without a note, notes, lower: lower-bound
# points and their arrows, xticks: the histograms' tick labels).
chrome_layout() {
	local page=$1
	python3 - "$page" "$page.measure.html" <<'PY'
import sys
js = """<script>addEventListener("load", function () {
var t = document.getElementById("matrix"), h = 0, lost = 0, refs = t.querySelectorAll("sup.refs a");
t.querySelectorAll("tr").forEach(function (r) { h = Math.max(h, r.getBoundingClientRect().height); });
refs.forEach(function (a) { if (!document.getElementById(a.getAttribute("href").slice(1))) lost++; });
var ticks = []; document.querySelectorAll("svg.latency text.xtick").forEach(function (x) { ticks.push(x.textContent); });
document.body.setAttribute("data-layout", JSON.stringify({win: innerWidth, page: document.documentElement.scrollWidth,
  table: t.getBoundingClientRect().width, row: h, refs: refs.length, lost: lost,
  notes: document.querySelectorAll("ol.notes li").length,
  lower: document.querySelectorAll('[data-lower="1"]').length, arrows: document.querySelectorAll("path.lower").length,
  xticks: ticks})); });</script></body>"""
open(sys.argv[2], "w").write(open(sys.argv[1]).read().replace("</body>", js))
PY
	timeout 60 "$CHROME" $flags --window-size=1400,900 --virtual-time-budget=2000 --dump-dom "file://$page.measure.html" 2>>"$WORK/chrome.err" |
		python3 -c 'import html, re, sys; m = re.search(r"data-layout=\"([^\"]*)\"", sys.stdin.read()); print(html.unescape(m.group(1)) if m else "{}")'
}
