#!/usr/bin/env python3
"""Compares two campaign golden files block by block (fuzz/engine/campaign_golden_test.cc).

For each block: identical, or (campaigns) its counters and the causes its findings name
(every cause the old block found must still be found; exit 1 otherwise):
the part of a signature after target.instruction (the planted erratum's hypothesis or shape).
"""
import re, sys

def blocks(path):
    out, name = {}, None
    for line in open(path):
        if line.startswith("== "):
            name = line.strip()
            out[name] = []
        elif name:
            out[name].append(line.rstrip("\n"))
    return out

def summary(lines):
    execs = next((l for l in lines if l.startswith("execs ")), "")
    sigs = [l.split(" ", 1)[1] for l in lines if l.startswith("signature ")]
    causes = sorted({s.split(".", 2)[2] for s in sigs if s.count(".") >= 2})
    return execs, len(sigs), causes

old, new = blocks(sys.argv[1]), blocks(sys.argv[2])
bad = 0
for name in old:
    if name not in new:
        print("MISSING", name); bad = 1; continue
    if old[name] == new[name]:
        print("identical ", name); continue
    eo, no, co = summary(old[name]); en, nn, cn = summary(new[name])
    print("changed   ", name)
    print("   old:", eo, "|", no, "signatures, causes", co)
    print("   new:", en, "|", nn, "signatures, causes", cn)
    if not set(co) <= set(cn): print("   A CAUSE IS NO LONGER FOUND:", sorted(set(co) - set(cn))); bad = 1
sys.exit(bad)
