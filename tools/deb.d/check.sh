# SPDX-License-Identifier: BSD-3-Clause
# tools/deb --check: the package as a lab installs it (sourced by tools/deb).

# Remarks lintian makes that are known and why: the maintainer's address is a placeholder
# (the project has no mail address; FWS_DEB_MAINTAINER sets a real one).
LINTIAN_KNOWN="bogus-mail-host,bogus-mail-host-in-debian-changelog"

# deb_check DEB VERSION WORK: lintian (where installed), install, use, purge. Exits 1 on the
# first thing wrong, naming it.
deb_check() {
	local deb=$1 ver=$2 work=$3 v rc
	fail() { echo "deb: check: $*" >&2; dpkg --purge fwstress >/dev/null 2>&1 || true; exit 1; }
	[ "$(id -u)" -eq 0 ] || { echo "deb: --check installs the package: run as root" >&2; exit 1; }
	if command -v lintian >/dev/null; then
		lintian --suppress-tags "$LINTIAN_KNOWN" --fail-on error,warning "$deb" 2>&1 |
			grep -v "running with root privileges" >"$work/lintian" || true
		[ ! -s "$work/lintian" ] || fail "lintian: $(tr '\n' ';' <"$work/lintian")"
		echo "deb: lintian: clean (known remarks, with their reason in tools/deb.d/check.sh: $LINTIAN_KNOWN)"
	else
		echo "deb: lintian not installed: not run"
	fi
	dpkg-query -W fwstress >/dev/null 2>&1 && fail "a fwstress package is installed already: dpkg --purge fwstress first"
	apt-get install -y -qq --no-install-recommends "$deb" >"$work/install" 2>&1 ||
		fail "apt-get install $deb: $(tail -3 "$work/install")"
	[ "$(dpkg-query -W -f '${Version}' fwstress)" = "$ver" ] || fail "installed version is not $ver"
	v=$(/usr/bin/fwstress --version) || fail "fwstress --version: exit $?"
	# Built with and running the same DPDK (the distribution's, the package's dependency).
	python3 - "$v" <<'PY' || fail "--version: built and running DPDK differ: $v"
import re, sys
m = re.search(r"built with DPDK (\d+\.\d+\.\d+), running DPDK (\d+\.\d+\.\d+)", sys.argv[1])
sys.exit(not m or m.group(1) != m.group(2))
PY
	echo "deb: installed: $v"
	mkdir -p "$work/run"
	(cd "$work/run" && timeout 120 /usr/bin/fwstress run -q >"$work/run.out" 2>&1)
	rc=$?
	[ $rc -eq 0 ] || fail "fwstress run (the embedded default): exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$work/run.out" | tail -3)"
	python3 - "$work/run/fwstress-report.json" <<'PY' || fail "the embedded default's report: no frame received, or not completed"
import json, sys
r = json.load(open(sys.argv[1]))
rx = sum(s["received"]["distinct_frames"] for t in r["trials"] for s in t["streams"])
sys.exit(r["status"] != "completed" or rx == 0)
PY
	echo "deb: the installed fwstress ran the embedded default: report ok"
	gzip -dc /usr/share/man/man1/fwstress.1.gz | grep -q '^\.TH FWSTRESS 1' || fail "no man page"
	[ -s /usr/share/bash-completion/completions/fwstress ] && [ -s /usr/share/fwstress/config/loopback.json ] &&
		[ -s /usr/share/doc/fwstress/copyright ] || fail "completion, configs or copyright missing"
	dpkg --purge fwstress >/dev/null || fail "dpkg --purge fwstress"
	[ ! -e /usr/bin/fwstress ] || fail "/usr/bin/fwstress left after purge"
	echo "deb: man page, completion, configs, docs there; purged"
}
