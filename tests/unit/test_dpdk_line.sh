#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The binary links one DPDK only: the one pkg-config chose at setup (LIBDIR, meson's), never a
# second one from the system's folders (Debian's DPDK installed beside a DPDK built in another
# prefix, as CI's DPDK 23.11 stage builds); --version's built and running DPDK agree. A DPDK
# outside the loader's folders runs with LD_LIBRARY_PATH=LIBDIR (its libraries find each other
# by it), as DPDK's own docs say.
FWSTRESS=$1
LIBDIR=$2
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

libs=$(ldd "$FWSTRESS" | awk '/librte_/ {print $1, $3}')
nf=$(awk '$2 == "not" {print $1}' <<<"$libs")
[ -z "$nf" ] && ok "every DPDK library found ($(wc -l <<<"$libs"))" ||
	bad "not found: $(echo $nf) (LD_LIBRARY_PATH=$LIBDIR)"
dirs=$(awk '$2 != "not" {print $2}' <<<"$libs" | xargs -r -n1 dirname | xargs -r -n1 readlink -f | sort -u)
[ "$dirs" = "$(readlink -f "$LIBDIR")" ] && ok "all from pkg-config's libdir $LIBDIR" ||
	bad "DPDK libraries from: $(echo $dirs) (pkg-config said $LIBDIR)"
v=$("$FWSTRESS" --version)
b=$(sed -n 's/.*built with DPDK \([0-9.]*\),.*/\1/p' <<<"$v")
r=$(sed -n 's/.*running DPDK \([0-9.]*\)$/\1/p' <<<"$v")
[ -n "$b" ] && [ "$b" = "$r" ] && ok "--version: built with and running DPDK $b" || bad "--version: $v"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
