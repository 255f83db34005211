#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Load clients prepared by Ansible (issue 21, part 8): tools/ansible/loadclients.yml, run by
# ansible-playbook (Debian's ansible-core) over a real sshd in fwsl-tester2 (site2) with an
# admin key, installs there the packages and hugepages (tools/setup --no-build, already
# satisfied here), their boot settings, the controller's binary and the controller's key
# restricted to the agent. A second run changes nothing. Then a two-client run reaches
# site2's agent over ssh with the installed key and binary: every frame through the
# router, as its counters say. The boot settings, the binary and the key go to files of
# this test (the playbook's variables), never to this machine's /etc. The key is passed as the
# guide writes it (fwstress_controller_key_file); a value that is not a key is refused. Last,
# the guide's way with the package (issue 48): tools/deb's .deb installed by the playbook
# (on this machine: site2 is a namespace of it) and site2's agent run from /usr/bin; purged at
# the end.
. "$(dirname "$0")/lab.sh"
lab_start ip ssh ssh-keygen /usr/sbin/sshd ansible-playbook
"$LAB" up routing >/dev/null && "$LAB" split >/dev/null || { bad "lab up, split"; finish; exit 1; }
S=$WORK/ssh
mkdir -p "$S" "$WORK/client" && chmod 700 "$S"
ssh-keygen -q -t ed25519 -N '' -f "$S/admin" && ssh-keygen -q -t ed25519 -N '' -f "$S/key" ||
	{ bad "ssh-keygen"; finish; exit 1; }
cp "$S/admin.pub" "$S/authorized_keys" # before the playbook: only the admin may log in
SSHD=
DEB_INSTALLED=0
trap 'kill $SSHD 2>/dev/null; [ $DEB_INSTALLED = 0 ] || dpkg --purge fwstress >/dev/null 2>&1; "$LAB" down >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
sshd_start "$S" || { bad "sshd in fwsl-tester2"; finish; exit 1; }

cat >"$WORK/inventory.ini" <<INV
[loadclients]
site2 ansible_host=127.0.0.1 ansible_port=2222 ansible_user=root ansible_ssh_private_key_file=$S/admin ansible_ssh_common_args='-o UserKnownHostsFile=$S/known_hosts -o IdentitiesOnly=yes' fwstress_ssh_key=$S/key fwstress_bin=$WORK/client/bin/fwstress
INV
C=$WORK/client
play() { # LOG [ARGS...]: the playbook against site2, from inside fwsl-tester2 (where its sshd
	# listens); pipelined (each module through ssh's stdin: no temporary file and no extra round
	# trip per task). The key as the guide passes it; ARGS after the test's own.
	local log=$1 inv=${INV:-$WORK/inventory.ini}
	shift
	ip netns exec fwsl-tester2 env ANSIBLE_LOCAL_TEMP="$WORK/ansible-local" ANSIBLE_REMOTE_TEMP="$WORK/ansible-remote" ANSIBLE_PIPELINING=1 \
		ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
		ansible-playbook -i "$inv" "$TOP/tools/ansible/loadclients.yml" \
		-e "fwstress_binary=$FWSTRESS" -e "fwstress_libexec=$C/lib" \
		-e "fwstress_hugepages=$(cat /proc/sys/vm/nr_hugepages)" -e "fwstress_authorized_keys=$S/authorized_keys" \
		-e "fwstress_sysctl_file=$C/sysctl.conf" -e "fwstress_fstab=$C/fstab" \
		-e fwstress_controller_key_file="$S/key.pub" "$@" >"$log" 2>&1
}
# A key value that is not one public key line (what ansible's k=v split of "$(cat KEY.pub)"
# leaves): refused before anything changes.
play "$WORK/play0.log" -e fwstress_controller_key=ssh-ed25519
rc=$?
[ $rc -ne 0 ] && grep -q "fwstress_controller_key is not an OpenSSH public key line" "$WORK/play0.log" && ! grep -q agent "$S/authorized_keys" && ok "a key value that is not a key: refused, nothing installed" ||
	bad "bad key: exit $rc: $(grep -m2 'FAILED\|msg' "$WORK/play0.log")"
recap() { grep -o "site2 *: ok=[0-9]* *changed=[0-9]* *unreachable=[0-9]* *failed=[0-9]*" "$1" | tr -s ' '; }
play "$WORK/play1.log"
rc=$?
[ $rc -eq 0 ] && ok "playbook: exit 0 ($(recap "$WORK/play1.log"))" || bad "playbook: exit $rc: $(tail -15 "$WORK/play1.log")"
cmp -s "$FWSTRESS" "$C/bin/fwstress" && ok "the controller's binary installed on the client" || bad "binary not installed"
grep -qx "restrict,command=\"$C/bin/fwstress agent\" $(cat "$S/key.pub")" "$S/authorized_keys" &&
	ok "the controller's key installed, restricted to the agent" || bad "authorized_keys: $(cat "$S/authorized_keys")"
[ "$(cat "$C/sysctl.conf")" = "vm.nr_hugepages = $(cat /proc/sys/vm/nr_hugepages)" ] && grep -qx "nodev /dev/hugepages hugetlbfs defaults 0 0" "$C/fstab" &&
	ok "hugepages and hugetlbfs kept for the next boot" || bad "boot settings: $(cat "$C/sysctl.conf" "$C/fstab")"
play "$WORK/play2.log"
rc=$?
recap "$WORK/play2.log" | grep -q "changed=0 unreachable=0 failed=0" && [ $rc -eq 0 ] &&
	ok "playbook again: nothing changed ($(recap "$WORK/play2.log"))" || bad "playbook again: exit $rc, $(recap "$WORK/play2.log")"
[ "$(grep -c "agent\" " "$S/authorized_keys")" -eq 1 ] && ok "the key line is there once" || bad "key lines: $(grep -c agent "$S/authorized_keys")"

# The prepared client in use: site2 named by the same inventory (its ssh destination,
# options, the agent's key and the installed binary from there).
python3 - "$TOP/config/lab-two-clients.json" "$FWSTRESS" "$WORK/inventory.ini" >"$WORK/two.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["hosts"][0]["command"][4] = sys.argv[2]
c["hosts"][1] = {"name": "site2", "inventory": sys.argv[3], "eal": c["hosts"][1]["eal"]}
c.update(duration=2, frame_size=256)
c.pop("output")
print(json.dumps(c))
PY
sed 's/"name": "site2"/"name": "site3"/; s/"host": "site2"/"host": "site3"/' "$WORK/two.json" >"$WORK/nohost.json"
expect_rc 2 "a host the inventory does not have" "$FWSTRESS" validate "$WORK/nohost.json"
grep -q "^fwstress: config: .*hosts\[1\].inventory: .*inventory.ini: host \"site3\": ansible-inventory found no such host in it" "$WORK/err" &&
	[ "$(grep -vc '^$' "$WORK/err")" -eq 1 ] && ok "  ... refused in one line naming the inventory and the host" || bad "no such host: $(cat "$WORK/err")"
# Inventories that are not one (issue 39, item 6): each refused in one line before or after
# ansible-inventory, never a hang, a cut value or an EAL usage text.
inv_case() { # NAME INVENTORY WANT: validate refuses site2 from INVENTORY (its eal from there) with WANT
	local name=$1 inv=$2 want=$3
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["hosts"][1]["inventory"]=sys.argv[2]; c["hosts"][1].pop("eal"); print(json.dumps(c))' \
		"$WORK/two.json" "$inv" >"$WORK/inv-case.json"
	timeout 60 "$FWSTRESS" validate "$WORK/inv-case.json" >/dev/null 2>"$WORK/err"
	local rc=$?
	[ $rc -eq 2 ] && [ "$(grep -vc '^$' "$WORK/err")" -eq 1 ] && grep -q -- "$want" "$WORK/err" &&
		ok "inventory $name: exit 2, one line" || bad "inventory $name: exit $rc: $(head -3 "$WORK/err")"
}
inv_case "missing" "$WORK/none.ini" "none.ini: no such file"
inv_case "/dev/zero" /dev/zero "/dev/zero: not a file"
mkfifo "$WORK/fifo.ini"
inv_case "a FIFO" "$WORK/fifo.ini" "fifo.ini: not a file"
printf 'site2 fwstress_eal="--help"\n' >"$WORK/inv-eal.ini"
inv_case "fwstress_eal a string" "$WORK/inv-eal.ini" "fwstress_eal is not a list of strings"
printf 'site2 fwstress_eal=\x27["--help"]\x27\n' >"$WORK/inv-help.ini"
inv_case "fwstress_eal --help" "$WORK/inv-help.ini" 'host "site2": fwstress_eal\[0\]: "--help": EAL would print its usage'
# An answer over 1 MiB is said so (issue 53, item 5), not "no such host".
printf 'site2 fwstress_pad=%s\n' "$(head -c 1100000 /dev/zero | tr '\0' x)" >"$WORK/inv-big.ini"
inv_case "an answer over 1 MiB" "$WORK/inv-big.ini" "answer for it is larger than 1 MiB"
printf 'site2 ansible_ssh_common_args=\x27-o "ProxyCommand=ssh -W %%h:%%p jump\x27\n' >"$WORK/inv-quote.ini"
inv_case "an unclosed quote" "$WORK/inv-quote.ini" "unclosed quote"
printf 'site2 ansible_host=%s\n' "$(head -c 300 /dev/zero | tr '\0' h)" >"$WORK/inv-long.ini"
inv_case "a 300-character host" "$WORK/inv-long.ini" "longer than 255 characters"
# A quoted ProxyCommand is one ssh option, as Ansible passes it.
printf 'site2 ansible_host=jump.example ansible_ssh_common_args=\x27-o "ProxyCommand=ssh -W %%h:%%p jump" -o IdentitiesOnly=yes\x27\n' >"$WORK/inv-proxy.ini"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["hosts"][1]["inventory"]=sys.argv[2]; print(json.dumps(c))' \
	"$WORK/two.json" "$WORK/inv-proxy.ini" >"$WORK/inv-proxy.json"
"$FWSTRESS" validate "$WORK/inv-proxy.json" 2>"$WORK/err" | python3 -c '
import json, sys
h = json.load(sys.stdin)["hosts"][1]
sys.exit(h["ssh_options"] != ["-o", "ProxyCommand=ssh -W %h:%p jump", "-o", "IdentitiesOnly=yes"])' &&
	ok "a quoted ProxyCommand is one ssh option" || bad "ProxyCommand: $(cat "$WORK/err")"
wan() { ip netns exec fwsl-dut ip -s -j link show dev dut-wan | python3 -c 'import json,sys; s=json.load(sys.stdin)[0]["stats64"]; print(s["rx"]["packets"], s["tx"]["packets"])'; }
read -r rx0 tx0 <<<"$(wan)"
ip netns exec fwsl-tester2 "$FWSTRESS" run -q -o "$WORK/report.json" "$WORK/two.json" 2>"$WORK/err"
rc=$?
read -r rx1 tx1 <<<"$(wan)"
[ $rc -eq 0 ] && ok "two clients, site2 as the playbook left it: exit 0" || bad "run: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | tail -3)"
check "every frame through, site2's agent the installed binary over ssh" \
	"$(ALL_THROUGH 15000) and r['hosts'][1]['via'].endswith('$C/bin/fwstress agent')"
check "the report's config holds what the inventory said, written out" \
	'(h := r["config"]["hosts"][1])["ssh"] == "root@127.0.0.1" and h["ssh_options"][:4] == ["-p", "2222", "-i", "'"$S/key"'"] and h["fwstress"] == "'"$C/bin/fwstress"'" and "inventory" not in h'
check "router dut-wan: sent == site2 received ($((tx1 - tx0)), with what it missed), received == site2 sent ($((rx1 - rx0)))" \
	"r['ports'][1]['rx_frames_total'] <= $((tx1 - tx0)) <= r['ports'][1]['rx_frames_total'] + t[0]['ports'][1]['nic']['imissed'] and r['ports'][1]['tx_frames_total'] == $((rx1 - rx0))"

# The package (docs/guide/two-load-clients.md): tools/deb on the controller, the playbook with
# fwstress_deb; site2's inventory names no fwstress_bin (the package's /usr/bin/fwstress).
if dpkg-query -W fwstress >/dev/null 2>&1; then
	bad "a fwstress package is installed on this machine already: the package's part cannot run (dpkg --purge fwstress)"
elif ! command -v dpkg-shlibdeps >/dev/null; then
	bad "dpkg-shlibdeps missing (dpkg-dev): tools/deb cannot build the package"
else
	deb=$("$TOP/tools/deb" --out "$WORK/deb" 2>"$WORK/deb.err") || bad "tools/deb: $(tail -3 "$WORK/deb.err")"
	sed 's/ fwstress_bin=[^ ]*$//' "$WORK/inventory.ini" >"$WORK/inventory-deb.ini"
	# A client prepared afresh: only the admin may log in, so that the controller's key can
	# only run what the package's line restricts it to (sshd takes a key's first line).
	cp "$S/admin.pub" "$S/authorized_keys"
	DEB_INSTALLED=1
	INV=$WORK/inventory-deb.ini play "$WORK/play-deb.log" -e "fwstress_deb=$deb"
	rc=$?
	[ $rc -eq 0 ] && [ "$(dpkg-query -W -f '${Status}' fwstress 2>/dev/null)" = "install ok installed" ] &&
		[ -x /usr/bin/fwstress ] && ok "playbook with the package: exit 0, fwstress $(dpkg-query -W -f '${Version}' fwstress) installed ($(recap "$WORK/play-deb.log"))" ||
		bad "playbook with the package: exit $rc: $(grep -A3 'FAILED\|fatal' "$WORK/play-deb.log" | head -8)"
	grep -qx "restrict,command=\"/usr/bin/fwstress agent\" $(cat "$S/key.pub")" "$S/authorized_keys" &&
		[ "$(grep -c agent "$S/authorized_keys")" -eq 1 ] && ok "the key restricted to the package's agent, its only line" || bad "authorized_keys: $(cat "$S/authorized_keys")"
	sed "s|$WORK/inventory.ini|$WORK/inventory-deb.ini|" "$WORK/two.json" >"$WORK/two-deb.json"
	ip netns exec fwsl-tester2 "$FWSTRESS" run -q -o "$WORK/report.json" "$WORK/two-deb.json" 2>"$WORK/err"
	rc=$?
	[ $rc -eq 0 ] && ok "two clients, site2 running the package: exit 0" || bad "run with the package: exit $rc: $(grep -v 'EAL\|TELEMETRY' "$WORK/err" | tail -3)"
	check "every frame through, site2's agent the package's (the key's only command)" \
		"$(ALL_THROUGH 15000) and r['hosts'][1]['via'].endswith(' fwstress agent')"
	dpkg --purge fwstress >/dev/null && DEB_INSTALLED=0 && ok "the package purged" || bad "dpkg --purge fwstress"
fi
finish
