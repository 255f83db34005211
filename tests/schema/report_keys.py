#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The report schema's keys against its document (docs/reference/report-schema.md).

  report_keys.py paths REPORT...   every key path of the reports, one a line ("a.b[].c")
  report_keys.py check DOC PATHS   each path of the file PATHS that DOC does not document;
                                   exit 1 when there is one
A path is documented when a table row of DOC starts with it in backticks, or with a prefix
of it ending in ".*" (the config echoed, documented in docs/reference/configuration.md).
"""
import json
import re
import sys

# Objects whose keys are data, not schema: the map's path (with its "{name}" placeholder).
MAPS = ()


def walk(o, path, out):
    if isinstance(o, dict):
        if path in MAPS:
            for v in o.values():
                walk(v, path + ".{name}", out)
            out.add(path)
            return
        for k, v in o.items():
            walk(v, f"{path}.{k}" if path else k, out)
        if path:
            out.add(path)
    elif isinstance(o, list):
        for v in o:
            walk(v, path + "[]", out)
        out.add(path)
    else:
        out.add(path)


def paths(files):
    out = set()
    for f in files:
        try:
            r = json.load(open(f))
        except (OSError, ValueError):
            continue
        if isinstance(r, dict) and str(r.get("schema", "")).startswith("fwstress-"):
            walk(r, "", out)
    return out


def documented(doc):
    rows = set()
    for line in open(doc):
        m = re.match(r"\|\s*`([^`]+)`", line)
        if m:
            rows.add(m.group(1))
    return rows


def main(argv):
    if len(argv) >= 2 and argv[0] == "paths":
        for p in sorted(paths(argv[1:])):
            print(p)
        return 0
    if len(argv) == 3 and argv[0] == "check":
        doc = documented(argv[1])
        wild = tuple(d[:-1] for d in doc if d.endswith(".*"))
        missing = sorted(p for p in {l.strip() for l in open(argv[2]) if l.strip()} - doc
                         if not p.startswith(wild))
        for p in missing:
            print(p)
        return 1 if missing else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
