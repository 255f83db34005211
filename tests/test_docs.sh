#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The generated documents are current: docs/reference/configuration.md is what `fwstress validate
# --doc` prints from the config's section table. After changing a key's documentation:
#   build/app/fwstress validate --doc > docs/reference/configuration.md
set -u
FWSTRESS=$1
TOP=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
passed=0
fail() {
	echo "FAIL $*"
	echo "$passed passed, 1 failed"
	exit 1
}
# A generated page is what its command prints now, with at least min entries (lines
# matching pattern): current "docs/reference/PAGE" "COMMAND..." MIN PATTERN WHAT
current() {
	local page=$1 cmd=$2 min=$3 pattern=$4 what=$5 n
	# shellcheck disable=SC2086
	"$FWSTRESS" $cmd >"$out" || fail "fwstress $cmd exited non-zero"
	diff -u "$TOP/$page" "$out" || fail "$page is stale: $FWSTRESS $cmd > $page"
	n=$(grep -c "$pattern" "$out")
	[ "$n" -ge "$min" ] || fail "only $n $what in $page"
	echo "ok   $page is current ($n $what)"
}
# Every top-level key the parser knows is documented, a section each; its nested keys are
# the parser's, no more, no fewer.
current docs/reference/configuration.md "validate --doc" 25 '^## ' keys
python3 "$TOP/tests/schema/config_keys.py" "$FWSTRESS" "$TOP/docs/reference/configuration.md" ||
	fail "docs/reference/configuration.md: nested keys differ from the parser's (lib/config/cfg_sections.c)"
passed=1
# The agent protocol's reference is its table (lib/seam/fws_agent_ops.h), every operation.
current docs/reference/agent-protocol.md "agent --doc" 20 '^| `[a-z_]*` | \(yes\)\? |' operations
passed=2
# Every relative link of README.md and docs/ leads to a file that is there (and an anchor
# to a heading of it); README stays the short entry it is (6 KB at most).
if ! python3 - "$TOP" <<'PY'; then
import os, re, sys
top = sys.argv[1]
def anchors(path):
    out = set()
    for line in open(path):
        m = re.match(r"#+ (.*)", line)
        if m:
            a = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            out.add(a)
    return out
pages = [os.path.join(top, "README.md")]
for d, _, files in os.walk(os.path.join(top, "docs")):
    pages += [os.path.join(d, f) for f in files if f.endswith(".md")]
bad = []
for page in pages:
    text = re.sub(r"```.*?```", "", open(page).read(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"(https?|mailto):", target):
            continue
        path, _, frag = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(dest):
            bad.append(f"{os.path.relpath(page, top)}: {target}: no such file")
        elif frag and dest.endswith(".md") and frag not in anchors(dest):
            bad.append(f"{os.path.relpath(page, top)}: {target}: no such heading")
for b in bad:
    print("FAIL", b)
size = os.path.getsize(os.path.join(top, "README.md"))
if size > 6144:
    print(f"FAIL README.md is {size} bytes: more than 6 KB (the rest goes to docs/, by reader)")
sys.exit(1 if bad or size > 6144 else 0)
PY
	fail "links or README's size (above)"
fi
echo "ok   every relative link in README.md and docs/ resolves; README.md under 6 KB"
# The recipe's files are there, and its test-only feature is named by nothing in fwstress but
# the tables' slots: the feature reached the report through its hooks alone.
for f in lib/feat/fws_feat.c lib/feat/meson.build lib/host/fws_hostfeat.c lib/host/meson.build \
	lib/ctrl/fws_feature.c docs/reference/report-schema.md tests/integration/feat_probe.c; do
	grep -q "$f" "$TOP/docs/dev/adding-a-feature.md" || fail "adding-a-feature.md does not name $f"
	[ -e "$TOP/$f" ] || fail "adding-a-feature.md names $f: not there"
done
named=$(grep -rl 'fws_feature_test\|fws_fd_test' "$TOP/lib" "$TOP/app" | sed "s|$TOP/||" | sort | tr '\n' ' ')
[ "$named" = "lib/feat/fws_feat.c lib/host/fws_hostfeat.c " ] ||
	fail "the test-only feature is named outside its table slot: $named"
echo "ok   adding-a-feature.md: its files are there; feat_probe.c is named by its slots only"
# One area table (docs/dev/layout.md): a row for every folder of lib/, none for another.
rows=$(sed -n 's/^| `\([a-z]*\)` |.*/\1/p' "$TOP/docs/dev/layout.md" | sort | tr '\n' ' ')
dirs=$(cd "$TOP/lib" && ls -d */ | tr -d / | sort | tr '\n' ' ')
[ "$rows" = "$dirs" ] || fail "docs/dev/layout.md's area table names: $rows; lib/ has: $dirs"
echo "ok   docs/dev/layout.md's area table names every folder of lib/"
echo "5 passed, 0 failed"
