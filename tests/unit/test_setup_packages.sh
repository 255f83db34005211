#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# What tools/setup installs (tools/setup.d/packages.sh), against the package lists of the three
# systems it supports (tests/data/apt: Debian 12's generated from its apt, Debian 13's from the
# debootstrap root's, Ubuntu 24.04's written from its package pages): every name it asks for
# is one the system offers as a .deb, the main job asks for no test tool, Ubuntu gets no snap
# browser (and says so), libFuzzer is the clang's own; and tools/setup --dry-run prints the
# names without installing.
TOP=${1:-$(dirname "$0")/../..}
. "$TOP/tools/setup.d/packages.sh"
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# system OS CLANG_N LIST: every name for every command offered by LIST, no snap.
system() {
	local os=$1 n=$2 list=$TOP/tests/data/apt/$3 names missing snap
	names=$(fws_packages "$os" "$n" 1 1 1 1 2>/dev/null)
	missing=$(for p in $names; do grep -qx "$p" "$list" || echo "$p"; done)
	snap=$(for p in $names; do grep -qx "snap: $p" "$list" && echo "$p"; done)
	[ -z "$missing" ] && [ -z "$snap" ] && ok "$3: all $(wc -w <<<"$names") names offered as .debs" ||
		bad "$3: not offered: $(echo $missing) snap: $(echo $snap)"
	grep -qx "libfuzzer-$n-dev" <<<"$names" && ok "$3: libfuzzer-$n-dev for clang-$n" || bad "$3: libfuzzer"
}
system debian 14 debian12.txt
system debian 19 debian13.txt
system ubuntu 18 ubuntu2404.txt

main=$(fws_packages debian 14 1 0 0 0)
for t in check chromium tshark clang ansible-core qemu-system-x86 strongswan-charon; do
	grep -qx "$t" <<<"$main" && bad "the main job asks for $t"
done
grep -qx dpdk-dev <<<"$main" && grep -qx libjansson-dev <<<"$main" && [ "$(wc -l <<<"$main")" -le 12 ] &&
	ok "the main job: build dependencies only ($(echo $main))" || bad "main: $main"
note=$(fws_packages ubuntu 18 0 1 0 0 2>&1 >/dev/null)
names=$(fws_packages ubuntu 18 0 1 0 0 2>/dev/null)
! grep -q chromium <<<"$names" && grep -q "no browser package: Ubuntu's chromium is a snap" <<<"$note" &&
	ok "Ubuntu: no browser, said in one line" || bad "ubuntu browser: $names / $note"
grep -qx linux-image-generic <<<"$(fws_packages ubuntu 18 0 0 1 1)" && grep -qx linux-image-amd64 <<<"$(fws_packages debian 14 0 0 1 1)" &&
	ok "the VM's kernel: linux-image-generic on Ubuntu, linux-image-amd64 on Debian" || bad "kernel"
[ "$(fws_clang_n $'clang\n  Depends: clang-14\n  Breaks: <clang-3.2>')" = 14 ] && ok "clang-N read from apt-cache depends" || bad "clang_n"

# --dry-run: a line naming what it would install (here: what this machine lacks), exit 0,
# nothing installed; not root is fine.
before=$(dpkg-query -W -f='${Package}\n' 2>/dev/null | wc -l)
out=$("$TOP/tools/setup" --dry-run --tests 2>&1)
rc=$?
after=$(dpkg-query -W -f='${Package}\n' 2>/dev/null | wc -l)
[ $rc -eq 0 ] && grep -q "^setup: would install: " <<<"$out" && [ "$before" -eq "$after" ] &&
	ok "--dry-run: one line, nothing installed ($(grep 'would install' <<<"$out"))" || bad "dry run: rc $rc: $out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
