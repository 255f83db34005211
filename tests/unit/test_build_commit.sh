#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Which commit a build says it is of (tools/build-commit, meson's vcs_tag): git describe in a
# checkout; in a copy without .git (a fresh Debian 13 root had no git) the .fws-commit the copy
# carries; a git archive's placeholder never read as a commit; nothing known: exit 1, and the
# build then names no commit (--version "no commit recorded", never "unknown").
TOP=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
FWSTRESS=${2:-}
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

if command -v git >/dev/null && [ -d "$TOP/.git" ]; then
	[ "$("$TOP/tools/build-commit" "$TOP")" = "$(git -C "$TOP" describe --always --dirty --abbrev=12)" ] &&
		ok "a checkout: git describe" || bad "checkout: $("$TOP/tools/build-commit" "$TOP")"
fi
mkdir -p "$W/copy/tools"
cp "$TOP/tools/build-commit" "$W/copy/tools/"
echo "0123456789ab" >"$W/copy/.fws-commit"
[ "$("$W/copy/tools/build-commit" "$W/copy")" = 0123456789ab ] && ok "a copy: its .fws-commit" || bad "copy"
# Without git on PATH at all (the Debian 13 root's case), the same.
[ "$(PATH=/nonexistent /bin/sh "$W/copy/tools/build-commit" "$W/copy")" = 0123456789ab ] &&
	ok "no git installed: .fws-commit" || bad "no git"
printf '$Format:%%h$\n' >"$W/copy/.fws-commit"
"$W/copy/tools/build-commit" "$W/copy" >/dev/null && bad "the placeholder read as a commit" ||
	ok "git archive's unfilled placeholder: no commit (exit 1)"
rm "$W/copy/.fws-commit"
"$W/copy/tools/build-commit" "$W/copy" >/dev/null && bad "nothing known, yet a commit" || ok "nothing known: exit 1"
# A checkout's own .fws-commit is the placeholder git archive fills in; a copy without .git
# (tools/debian-root's) carries the commit it was copied at, which the build names.
if [ -d "$TOP/.git" ]; then
	[ "$(cat "$TOP/.fws-commit")" = '$Format:%h$' ] && grep -qx ".fws-commit export-subst" "$TOP/.gitattributes" &&
		ok ".fws-commit is filled in by git archive (export-subst)" || bad ".fws-commit / .gitattributes"
else
	c=$(cat "$TOP/.fws-commit" 2>/dev/null)
	[ -n "$c" ] && [ "$c" != '$Format:%h$' ] && [ "$("$TOP/tools/build-commit" "$TOP")" = "$c" ] &&
		ok "a copy without .git: its .fws-commit ($c)" || bad "copy's .fws-commit: \"$c\""
	if [ -n "$FWSTRESS" ]; then
		grep -qF "(commit $c)" <<<"$("$FWSTRESS" --version)" && ok "  ... which --version names" ||
			bad "  ... --version: $("$FWSTRESS" --version)"
	fi
fi
if [ -n "$FWSTRESS" ]; then
	v=$("$FWSTRESS" --version)
	grep -Eq '^fwstress [0-9.]+ \((commit [^)]+|no commit recorded)\), built with DPDK' <<<"$v" &&
		! grep -q unknown <<<"$v" && ok "--version: $v" || bad "--version: $v"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
