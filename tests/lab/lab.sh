# SPDX-License-Identifier: BSD-3-Clause
# Shared by the lab tests: the integration helpers ($1 the fwstress binary, $2 this
# directory), the repository and tools/lab.
. "$(dirname "$0")/../integration/lib.sh"
TOP=$(cd "$HERE/../.." && pwd)
LAB="$TOP/tools/lab"

# lab_start TOOL...: skip (77) without the tools; no lab now, and none when the test ends.
lab_start() {
	local tool
	for tool; do
		command -v "$tool" >/dev/null || { echo "SKIP: $tool missing: run tools/setup"; exit 77; }
	done
	"$LAB" down >/dev/null 2>&1
	trap '"$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
}
