#!/usr/bin/env python3
"""A complete exec-serve device in Python: the f32 -> u8 byte packer (pk_u8) with
round-to-nearest-even. It announces the instruction by the name of the row that writes an
unsigned byte (`.output = OutputKind::u8_int` in model/instrs.def, read at start), so no
mnemonic is typed here.

Run by lanediff as --device='exec-serve:python3 example_adapter.py' (one process per
campaign). Protocol: device_harness/README.md, "The protocol". Cases outside what it implements
(a MODE round field other than nearest-even, NEG/ABS on src0) are answered "unsupported".
"""
import math
import os
import re
import struct
import sys

IN, OUT = sys.stdin.buffer, sys.stdout.buffer


def u8_row():
    """The mnemonic of the row of model/instrs.def whose output is an unsigned byte."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "model", "instrs.def")
    rows = re.split(r"^LANEDIFF_INSTR\(", open(path).read(), flags=re.M)[1:]
    names = [row.split(",", 1)[0] for row in rows if ".output = OutputKind::u8_int" in row]
    if len(names) != 1:
        sys.exit(f"example_adapter.py: {path}: want one row with an unsigned-byte output, found {names}")
    return names[0]


U8_ROW = u8_row()


def read_frame():
    head = IN.read(4)
    if len(head) < 4:
        return None  # stdin closed: the campaign is over
    (n,) = struct.unpack("<I", head)
    return IN.read(n)


def write_frame(payload):
    OUT.write(struct.pack("<I", len(payload)) + payload)
    OUT.flush()


def string(s):
    b = s.encode()
    return struct.pack("<I", len(b)) + b


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def u32s(self, count):
        v = struct.unpack_from("<%dI" % count, self.data, self.pos)
        self.pos += 4 * count
        return v

    def u32(self):
        return self.u32s(1)[0]

    def string(self):
        n = self.u32()
        self.pos += n
        return self.data[self.pos - n:self.pos].decode()


def f32_to_u8(bits):
    x = struct.unpack("<f", struct.pack("<I", bits))[0]
    if math.isnan(x) or x <= 0:
        return 0
    if math.isinf(x):
        return 255
    return min(255, round(x))  # Python rounds halfway cases to even


hello = b"LDH1" + struct.pack("<I", 1) + string("example_adapter.py (pk_u8, RNE only)")
hello += struct.pack("<I", 0)  # targets: any
hello += struct.pack("<I", 1) + string(U8_ROW)  # the one instruction
write_frame(hello)

while (payload := read_frame()) is not None:
    r = Reader(payload)
    assert r.data[:4] == b"LDQ1"
    r.pos = 4
    case_id = r.u32()
    target, instr = r.string(), r.string()
    opsel, neg, abs_, clamp, omod, mode = r.u32s(6)
    n = r.u32()
    src0, src1, src2, _vdst_old = (r.u32s(n) for _ in range(4))  # then the raw batch: unused
    answer = b"LDA1" + struct.pack("<I", case_id)
    if mode & 3 != 0 or (neg | abs_) & 1:
        answer += struct.pack("<I", 1) + string("round mode %d, neg %d, abs %d" % (mode & 3, neg, abs_))
    else:
        out = []
        for s0, s1, s2 in zip(src0, src1, src2):
            shift = (s1 & 3) * 8
            out.append((s2 & ~(0xFF << shift) & 0xFFFFFFFF) | (f32_to_u8(s0) << shift))
        answer += struct.pack("<II", 0, n) + struct.pack("<%dI" % n, *out) + string("")
    write_frame(answer)
