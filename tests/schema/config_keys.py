#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The configuration reference lists, for each key whose value is an object, exactly the keys
its parser accepts: each such section is fed an unknown key, and the parser's one-line error
(which lists the keys it takes) is compared with the reference's rows.

    config_keys.py FWSTRESS docs/reference/configuration.md
"""
import json, re, subprocess, sys, tempfile, os
fws, doc = sys.argv[1], sys.argv[2]
text = open(doc).read()
sections = {}
for m in re.finditer(r"^## (\w+)\n(.*?)(?=^## |\Z)", text, re.S | re.M):
    rows = re.findall(r"^\| `(\w+)` \|", m.group(2), re.M)
    if rows:
        sections[m.group(1)] = rows
base = [{"name": "lan", "device": "net_null0"}, {"name": "wan", "device": "net_null1"}]
bad = []
for sec, documented in sections.items():
    if sec == "ports":
        cfg = {"ports": [dict(base[0], zz_not_a_key=1), base[1]]}
    else:
        val = {"zz_not_a_key": 1}
        cfg = {"ports": base, sec: [val] if sec in ("hosts", "streams") else val}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cfg, f)
    r = subprocess.run([fws, "validate", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    m = re.search(r"unknown key.*\(keys: ([^)]*)\)", r.stderr)
    if not m:
        bad.append(f"{sec}: no key list in: {r.stderr.strip()[:200]}")
        continue
    accepted = [k.strip() for k in m.group(1).split(",")]
    if sorted(accepted) != sorted(documented):
        bad.append(f"{sec}: the parser takes {sorted(accepted)}, the reference documents {sorted(documented)}")
for b in bad:
    print("FAIL", b)
print(f"{len(sections)} sections with keys checked")
sys.exit(1 if bad else 0)
