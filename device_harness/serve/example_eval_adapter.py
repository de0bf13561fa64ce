#!/usr/bin/env python3
"""example_adapter.py's model over the per-batch `exec:` contract (lanediff eval's), for
comparison: one process per batch, flags on the command line, lanes as hex text on stdin.
It cannot say "unsupported": cases it does not implement get the nearest-even answer anyway.
  lanediff fuzz --device='exec:python3 device_harness/serve/example_eval_adapter.py' ...
"""
import math
import struct
import sys


def f32_to_u8(bits):
    x = struct.unpack("<f", struct.pack("<I", bits))[0]
    if math.isnan(x) or x <= 0:
        return 0
    return 255 if math.isinf(x) else min(255, round(x))


out = []
for line in sys.stdin:
    s0, s1, s2, _old = (int(w, 16) for w in line.split())
    shift = (s1 & 3) * 8
    out.append("%08x" % ((s2 & ~(0xFF << shift) & 0xFFFFFFFF) | (f32_to_u8(s0) << shift)))
sys.stdout.write("\n".join(out) + "\n")
