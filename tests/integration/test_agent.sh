#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The agent trusts no request (issue 39, item 1): a controller of our own (this script's
# Python over the agent's stdin and stdout, as ssh would carry them) sets up a real agent on
# two ring ports, then sends requests a broken or hostile controller could: flow ranges
# whose end overflows, a plan with a frame size, streams or a rate the config does not have,
# stages, phases, masks and a PTP socket out of range, fields of the wrong type, a second
# setup. Each gets an error answer naming the field; the agent serves on (a valid request
# after them is answered in full) and ends with exit 0 on bye. Then its idle dead man and
# the controller's waits (item 2): Ctrl-C while an agent does not answer, a refused agent.
. "$(dirname "$0")/lib.sh"

cat >"$WORK/cfg.json" <<EOC
{
    "eal": ["-l", "0-1", "--no-pci", "--no-huge", "-m", "1024"],
    "hosts": [{"name": "a", "command": ["true"]}],
    "ports": [
        {"name": "lan", "device": "ringpair:ag:a", "host": "a"},
        {"name": "wan", "device": "ringpair:ag:b", "host": "a"}
    ],
    "flows": {"count": 256}, "frame_size": [64, 512], "rate": "20kpps"
}
EOC
"$FWSTRESS" validate "$WORK/cfg.json" >"$WORK/norm.json" 2>"$WORK/err" || bad "validate: $(cat "$WORK/err")"

python3 - "$FWSTRESS" "$WORK/norm.json" >"$WORK/answers" 2>"$WORK/agent-err" <<'PY'
import base64, json, math, struct, subprocess, sys

fws, norm = sys.argv[1], json.load(open(sys.argv[2]))
p = subprocess.Popen([fws, "agent"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
ids = iter(range(1, 1000))

def call(op, **args):
    n = next(ids)
    p.stdin.write((json.dumps(dict(args, id=n, op=op)) + "\n").encode())
    p.stdin.flush()
    while True:
        line = p.stdout.readline()
        if not line:
            print(f"FAIL {op}: the agent ended (exit {p.wait()})")
            sys.exit(0)
        m = json.loads(line)
        att = p.stdout.read(m["bin"]) if "bin" in m else b""
        if m.get("id") == n:
            return m, att

def refused(name, want, op, **args):
    m, _ = call(op, **args)
    msg = m.get("err", {}).get("msg", "")
    ok = m["rc"] < 0 and want in msg
    print(("ok   " if ok else "FAIL ") + f"{name}: {msg if ok else m}")

hello, _ = call("hello")
layout = dict(kv.split("=") for kv in hello["layout"].split()[1:])
refused("before setup", "not set up", "rx_flows", s=0, lo=0, n=1)
refused("setup: host 0", "\"host\" is not an integer from 1", "setup", config=norm, host=0,
        n_ports=2, n_streams=1)
refused("setup: ports as text", "\"n_ports\" is not an integer", "setup", config=norm, host=1,
        n_ports="2", n_streams=1)
n_streams = len(norm["streams"])
m, _ = call("setup", config=norm, host=1, n_ports=2, n_streams=n_streams)
print(("ok   " if m["rc"] == 0 else "FAIL ") + f"setup after refused ones: {m.get('err', 'rc 0')}")
refused("a second setup", "set up already", "setup", config=norm, host=1, n_ports=2,
        n_streams=n_streams)
big = 2**63 - 100
refused("rx_flows: lo near INT64_MAX", "\"lo\" is not an integer from 0 to 255", "rx_flows",
        s=0, lo=big, n=200)
refused("tx_flows: n past the stream's end", "flows 250 to 259 of stream 0: it has 256",
        "tx_flows", s=0, lo=250, n=10)
refused("rx_flows: no stream 99", "\"s\" is not an integer from 0 to", "rx_flows", s=99, lo=0, n=1)
refused("rx_flows: n as a float", "\"n\" is not an integer", "rx_flows", s=0, lo=0, n=1.5)
refused("aim: lo negative", "\"lo\" is not an integer", "aim", s=0, lo=-1, n=1, b="")

size = int(layout["plan"])
def plan(size_idx=0, active=1, pps=20000.0, limit=0):
    b = bytearray(size)
    struct.pack_into("<IIIBxxxI", b, 0, size_idx, 7, 8, 0, active)
    struct.pack_into("<d", b, 20 + 4, pps)   # pps[0] (8-aligned after active)
    struct.pack_into("<Q", b, 24 + 16 * 8, limit)  # limit[0]
    return base64.b64encode(bytes(b)).decode()
refused("arm: frame size 5 of 2", "arm: frame size 5 of a config with 2", "arm", b=plan(size_idx=5))
refused("arm: a stream the config lacks", "streams 0x10000 active", "arm", b=plan(active=1 << 16))
refused("arm: a NaN rate", "frames/s (0 to 1e10)", "arm", b=plan(pps=math.nan))
refused("arm: an infinite rate", "frames/s (0 to 1e10)", "arm", b=plan(pps=math.inf))
refused("arm: a negative rate", "frames/s (0 to 1e10)", "arm", b=plan(pps=-1.0))
refused("arm: a limit of 2^63", "at most 2^54", "arm", b=plan(limit=2**63))
refused("arm: a short plan", "a plan that does not fit", "arm", b="AAAA")
refused("prepare: no stage 9", "\"stage\" is not an integer from 0", "prepare", stage=9, mask=0)
refused("prepare: a mask past the streams", "\"mask\" is not an integer from 0 to", "prepare",
        stage=0, mask=2**40)
refused("launch: quit as a phase", "\"phase\" is not an integer from 0 to 2", "launch", phase=4)
refused("phase: no phase 99", "\"phase\" is not an integer", "phase", phase=99, at=0)
refused("phase: at as text", "\"at\" is not an integer", "phase", phase=3, at="soon")
refused("ptp: a socket path of 200 bytes", "\"socket\" is not an absolute path under 108", "ptp",
        socket="/" + "a" * 200, domain=0)
refused("ptp: domain 300", "\"domain\" is not an integer from 0 to 255", "ptp",
        socket="/var/run/ptp4l", domain=300)
refused("conn_trial: a rate of 1e300", "\"rate\" is not a number above 0", "conn_trial",
        rate=1e300, nonce=1)
refused("conn_trial: nonce 2^40", "\"nonce\" is not an integer from 0 to 4294967295",
        "conn_trial", rate=10, nonce=2**40)
refused("live: warm as text", "\"warm\" is not true or false", "live", warm="yes")
refused("op not a string", "unknown operation", 5)
refused("an unknown op", "unknown operation \"format\"", "format")

m, att = call("tx_flows", s=0, lo=0, n=16)
print(("ok   " if m["rc"] == 0 and len(att) == 16 * int(layout["txflow"]) else "FAIL ") +
      f"a valid request after them all: answered in full ({len(att)} bytes)")
m, att = call("arm", b=plan(size_idx=1))
print(("ok   " if m["rc"] == 0 else "FAIL ") + f"a valid plan armed: {m.get('err', 'rc 0')}")
m, _ = call("bye")
p.stdin.close()
rc = p.wait(timeout=30)
print(("ok   " if rc == 0 else "FAIL ") + f"bye: the agent exits {rc}")
PY
# The idle dead man (issue 39, item 2): an agent set up and idle that hears nothing (a
# controller gone, a link cut without a FIN) stops and exits, its EAL and ports released;
# a controller's pings (a line without an id) keep it. FWS_TEST_AGENT_IDLE_MS=1500 here
# (10 s otherwise).
FWS_TEST_AGENT_IDLE_MS=1500 python3 - "$FWSTRESS" "$WORK/norm.json" >>"$WORK/answers" 2>"$WORK/agent-err2" <<'PY'
import json, subprocess, sys, time

fws, norm = sys.argv[1], json.load(open(sys.argv[2]))
p = subprocess.Popen([fws, "agent"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(m):
    p.stdin.write((json.dumps(m) + "\n").encode())
    p.stdin.flush()
def answer(n):
    while True:
        line = p.stdout.readline()
        if not line:
            return None
        m = json.loads(line)
        if "bin" in m:
            p.stdout.read(m["bin"])
        if m.get("id") == n:
            return m
time.sleep(2.5)  # before setup: no dead man (a person may be typing)
send({"id": 1, "op": "setup", "config": norm, "host": 1, "n_ports": 2,
      "n_streams": len(norm["streams"])})
m = answer(1)
print(("ok   " if m and m["rc"] == 0 else "FAIL ") + "idle: silent 2.5 s before setup, then set up")
for _ in range(6):  # 3 s of pings, each 0.5 s
    time.sleep(0.5)
    send({"op": "ping"})
send({"id": 2, "op": "tsc"})
m = answer(2)
print(("ok   " if m and m["rc"] == 0 else "FAIL ") + "idle: pings for 3 s keep it (tsc answered)")
t0 = time.time()
try:
    rc = p.wait(timeout=10)  # silent now, the stream open
except subprocess.TimeoutExpired:
    p.kill()
    rc = "still running after 10 s"
print(("ok   " if rc == 5 and time.time() - t0 < 4 else "FAIL ") +
      f"idle: silent while set up, it exits by itself (exit {rc} after {time.time() - t0:.1f} s)")
PY
grep -q "^fwstress agent: control stream: no word from the controller while set up (idle dead man" "$WORK/agent-err2" &&
	ok "idle: it says why it stopped" || bad "idle: $(grep 'fwstress agent' "$WORK/agent-err2")"

# The controller's waits: a host whose command never answers (its group: a shell and two
# sleeps) and a user's Ctrl-C while it waits for hello: exit 4 at once, one line, nothing of
# the command's group left running.
python3 - "$WORK/cfg.json" "$WORK" >"$WORK/hang.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["hosts"][0]["command"] = ["sh", "-c", "sleep 97 & sleep 98; echo never"]
print(json.dumps(c))
PY
# ctrl_c NAME WANT CMD...: CMD waiting for the silent host (or its inventory), Ctrl-C after
# 1.5 s: exit 4 within 3 s, one line matching WANT, nothing of the command's group left running.
ctrl_c() {
	local name=$1 want=$2 pid rc t0 ms
	shift 2
	"$@" >/dev/null 2>"$WORK/err" &
	pid=$!
	sleep 1.5
	t0=$(date +%s%N)
	kill -INT $pid
	wait $pid
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ $rc -eq 4 ] && [ $ms -lt 3000 ] && ok "$name, Ctrl-C while waiting: exit 4 in $ms ms" ||
		bad "$name, Ctrl-C while waiting: exit $rc after $ms ms: $(tail -2 "$WORK/err")"
	grep -q "$want" "$WORK/err" && [ "$(grep -c '^fwstress' "$WORK/err")" -eq 1 ] &&
		ok "  ... one line: $(head -c 150 "$WORK/err")" || bad "  ... said: $(cat "$WORK/err")"
	sleep 0.2
	pgrep -f "sleep 9[78]" >/dev/null && bad "  ... the command's group left running: $(pgrep -af 'sleep 9[78]')" ||
		ok "  ... nothing of the command's group left running"
}
lost="^fwstress: host a: agent lost: interrupted waiting for its answer to hello"
ctrl_c run "$lost" "$FWSTRESS" run -q -o "$WORK/hang-r.json" "$WORK/hang.json"
# The same wait in hosts check (issue 53, item 3).
ctrl_c "hosts check" "$lost" "$FWSTRESS" hosts check "$WORK/hang.json"
# Every other command that waits (issue 53, item 3): validate, ports, hosts check and run
# reading a host's inventory whose ansible-inventory (this test's fake, first on PATH) never
# answers: its group ended, one line, exit 4.
mkdir -p "$WORK/bin"
printf '#!/bin/sh\nsleep 97 &\nsleep 98\n' >"$WORK/bin/ansible-inventory"
chmod +x "$WORK/bin/ansible-inventory"
echo "a" >"$WORK/inv.ini"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["hosts"][0]={"name": "a", "inventory": sys.argv[2]}; print(json.dumps(c))' \
	"$WORK/cfg.json" "$WORK/inv.ini" >"$WORK/inv.json"
inv="^fwstress: interrupted while the config was read: .*hosts\[0\].inventory: .*inv.ini: host \"a\": interrupted while ansible-inventory was read"
for cmd in validate ports "hosts check" run; do
	# shellcheck disable=SC2086 # "hosts check" is two words
	ctrl_c "$cmd of an inventory" "$inv" env PATH="$WORK/bin:$PATH" "$FWSTRESS" $cmd "$WORK/inv.json"
done
# An agent started by hand, waiting for its first request (stdin a FIFO that stays open, as
# a terminal would): Ctrl-C ends it, exit 4, one line.
mkfifo "$WORK/agent-in"
exec 7<>"$WORK/agent-in"
ctrl_c "agent by hand" "^fwstress agent: interrupted by a signal (Ctrl-C, TERM or HUP): stopped sending, ports released$" \
	sh -c 'exec "$0" agent <"$1"' "$FWSTRESS" "$WORK/agent-in"
exec 7>&-
# ... and set up (its ports started): the same.
python3 - "$FWSTRESS" "$WORK/norm.json" >>"$WORK/answers" 2>"$WORK/agent-err3" <<'PY'
import json, signal, subprocess, sys, time

fws, norm = sys.argv[1], json.load(open(sys.argv[2]))
p = subprocess.Popen([fws, "agent"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
p.stdin.write((json.dumps({"id": 1, "op": "setup", "config": norm, "host": 1, "n_ports": 2,
                           "n_streams": len(norm["streams"])}) + "\n").encode())
p.stdin.flush()
m = json.loads(p.stdout.readline())
time.sleep(0.5)
t0 = time.time()
p.send_signal(signal.SIGINT)
try:
    rc = p.wait(timeout=10)
except subprocess.TimeoutExpired:
    p.kill()
    rc = "still running after 10 s"
err = p.stderr.read().decode()
sys.stderr.write(err)
said = [l for l in err.splitlines() if l.startswith("fwstress")]
good = (m["rc"] == 0 and rc == 4 and time.time() - t0 < 3 and len(said) == 1 and
        "interrupted by a signal" in said[0])
print(("ok   " if good else "FAIL ") + f"agent set up, Ctrl-C: exit {rc} in "
      f"{time.time() - t0:.1f} s, said {said}")
PY

# An agent of another protocol version that stays when refused (no bye, its stdin's end
# ignored): refused in one line at once, not after a wait for its bye, and ended.
cat >"$WORK/old-agent" <<'PY'
#!/usr/bin/env python3
import json, signal, sys, time
signal.signal(signal.SIGHUP, signal.SIG_IGN)
req = json.loads(sys.stdin.readline())
# Its version hostile (issue 53, item 1): an escape, a newline faking a report line, and
# 1,000 characters that would push the advice out of the message.
print(json.dumps({"id": req["id"], "rc": 0, "proto": [1, 0], "dpdk": "21.11.0",
                  "fwstress": "0.0.1\x1b[31m\nWORSE 99 %" + "x" * 1000,
                  "layout": "0.0.1 plan=1"}), flush=True)
time.sleep(96)
PY
chmod +x "$WORK/old-agent"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["hosts"][0]["command"]=[sys.argv[2]]; print(json.dumps(c))' \
	"$WORK/cfg.json" "$WORK/old-agent" >"$WORK/old.json"
t0=$(date +%s%N)
expect_rc 3 "an agent of protocol 1" "$FWSTRESS" run -q -o "$WORK/old-r.json" "$WORK/old.json"
ms=$((($(date +%s%N) - t0) / 1000000))
grep -q "^fwstress: host a: its agent speaks protocol 1.0 of fwstress 0.0.1" "$WORK/err" && [ $ms -lt 4000 ] &&
	ok "  ... refused in one line in $ms ms" || bad "  ... after $ms ms: $(cat "$WORK/err")"
pgrep -f "$WORK/old-agent" >/dev/null && bad "  ... the refused agent left running" || ok "  ... the refused agent ended"
[ "$(grep -c . "$WORK/err")" -eq 1 ] && ! grep -q $'\x1b' "$WORK/err" &&
	grep -q '0\.0\.1\\x1b\[31m\\x0aWORSE 99 %x*\.\.\., this controller .*: install the same fwstress on both$' "$WORK/err" &&
	[ "$(wc -c <"$WORK/err")" -lt 300 ] && ok "  ... its hostile version escaped and cut, the advice kept ($(wc -c <"$WORK/err") bytes)" ||
	bad "  ... hostile version: $(head -c 400 "$WORK/err" | od -c | head -5)"
# An agent's command that dies with an escape sequence on its stderr: the lost line escapes it.
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["hosts"][0]["command"]=["sh", "-c", "printf \"\\033[2Jboom\\n\" >&2; exit 1"]; print(json.dumps(c))' \
	"$WORK/cfg.json" >"$WORK/esc.json"
expect_rc 3 "a host's command that dies with an escape on its stderr" "$FWSTRESS" hosts check "$WORK/esc.json"
grep -q '^fwstress: host a: agent lost: .*exit status 1: \\x1b\[2Jboom' "$WORK/err" && ! grep -q $'\x1b' "$WORK/err" &&
	ok "  ... its last words escaped in the lost line and the relayed one" || bad "  ... $(od -c "$WORK/err" | head -5)"

# An agent killed mid-trial (issue 53, item 4), once the measured phase has kept two seconds
# (the --stats lines say when): exit 5, one line naming the host and the signal, the report
# kept and partial. On the sanitizer build a leak of what the invalid trial had gathered
# would end the run with LeakSanitizer's status (23), not 5.
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["hosts"][0]["command"]=[sys.argv[2], "agent"]; c.update(duration=30, frame_size=[64]); print(json.dumps(c))' \
	"$WORK/cfg.json" "$FWSTRESS" >"$WORK/kill.json"
"$FWSTRESS" run -q --no-progress --stats "$WORK/kill-st" -o "$WORK/kill-r.json" "$WORK/kill.json" >/dev/null 2>"$WORK/err" &
pid=$!
for _ in $(seq 300); do
	[ "$(grep -c '"phase":"measure"' "$WORK/kill-st" 2>/dev/null)" -ge 2 ] && break
	sleep 0.1
done
agent=$(pgrep -P $pid -f "agent")
[ -n "$agent" ] && kill -9 "$agent"
wait $pid
rc=$?
[ -n "$agent" ] && [ $rc -eq 5 ] && grep -q "^fwstress: host a: agent lost: .*killed by signal 9.*the trial is invalid" "$WORK/err" &&
	ok "an agent killed in the measured phase: exit 5, one line naming the host and the signal" ||
	bad "agent killed: agent ${agent:-not found}, exit $rc: $(grep -v '^EAL\|^TELEMETRY' "$WORK/err" | head -5)"
check "  ... the report kept, partial, no trial in it" 'r["partial"] and "host a" in r["error"] and not t' "$WORK/kill-r.json"

while read -r line; do
	case $line in
	ok*) ok "${line#ok   }" ;;
	*) bad "${line#FAIL }" ;;
	esac
done <"$WORK/answers"
[ -s "$WORK/answers" ] || bad "no answers: $(tail -3 "$WORK/agent-err")"
cat "$WORK/agent-err2" "$WORK/agent-err3" >>"$WORK/agent-err"
grep -q "runtime error\|AddressSanitizer" "$WORK/agent-err" && bad "sanitizer: $(grep -m2 'runtime error\|Sanitizer' "$WORK/agent-err")"
finish
