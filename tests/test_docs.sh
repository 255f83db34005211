#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The generated documents are current: docs/configuration.md is what `fwstress validate
# --doc` prints from the config's section table. After changing a key's documentation:
#   build/app/fwstress validate --doc > docs/configuration.md
set -u
FWSTRESS=$1
TOP=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! "$FWSTRESS" validate --doc >"$out"; then
	echo "FAIL fwstress validate --doc exited non-zero"
	echo "0 passed, 1 failed"
	exit 1
fi
if ! diff -u "$TOP/docs/configuration.md" "$out"; then
	echo "FAIL docs/configuration.md is stale: $FWSTRESS validate --doc > docs/configuration.md"
	echo "0 passed, 1 failed"
	exit 1
fi
# Every top-level key the parser knows is documented there, with its text.
n=$(grep -c '^| `' "$out")
if [ "$n" -lt 25 ]; then
	echo "FAIL only $n keys in the generated reference"
	echo "1 passed, 1 failed"
	exit 1
fi
echo "ok   docs/configuration.md is current ($n keys)"
echo "1 passed, 0 failed"
