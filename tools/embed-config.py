#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Embed a config file as a C string: embed-config.py IN.json OUT.c SYMBOL"""
import sys

src, out, sym = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(src, "rb").read()
with open(out, "w") as f:
    f.write("/* Generated from %s by tools/embed-config.py. */\n" % src.split("/")[-1])
    f.write("const char %s[] =\n" % sym)
    for i in range(0, len(data), 16):
        chunk = data[i:i + 16]
        f.write('\t"' + "".join("\\x%02x" % b for b in chunk) + '"\n')
    f.write("\t;\n")
