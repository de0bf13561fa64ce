#!/usr/bin/env python3
"""Generates model/isa/testdata/golden_vop3.txt: LLVM 22's encodings of a representative set
of VOP3 instructions on every lanediff target, the independent oracle for model/isa.

For each target (the list mirrors AllTargets() in model/targets/targets.cc) and each
instruction it has, a set of assembly lines covering every operand kind (VGPR, SGPR, special
registers, inline integers and floats, literals), src0 neg/abs, clamp, byte selects, and
lines LLVM refuses (neg on src1, omod, two SGPRs on GFX9, ...). All lines of a target go to
ONE llvm-mc-22 -show-encoding process.

Output, one record per line, tab separated:
  ok      TARGET  INPUT   LLVM_TEXT   BYTES        (LLVM assembled INPUT; LLVM_TEXT is its print)
  refused TARGET  INPUT   LLVM_ERROR               (LLVM rejected INPUT)

Usage: scripts/gen_isa_golden.py [--llvm-mc PATH] [--out model/isa/testdata/golden_vop3.txt]
                                 [--rows model/instrs.def]
"""
import argparse
import os
import re
import subprocess
import sys

# Target -> (family, has FeatureFP8ConversionInsts). Mirrors AllTargets() in
# model/targets/targets.cc (docs/semantics.md §1); the instructions come from model/instrs.def.
TARGETS = [
    ("gfx908", "gfx9", False), ("gfx90a", "gfx9", False), ("gfx942", "gfx9", True),
    ("gfx950", "gfx9", True), ("gfx1010", "gfx10", False), ("gfx1030", "gfx10", False),
    ("gfx1100", "gfx11", False), ("gfx1150", "gfx11", False), ("gfx1200", "gfx12", True),
    ("gfx1201", "gfx12", True), ("gfx1250", "gfx1250", True), ("gfx1251", "gfx1250", True),
]
FAMILIES = ["gfx9", "gfx10", "gfx11", "gfx12", "gfx1250"]
# Targets with LLVM's FeatureFP8ConversionScaleInsts (TargetFeature::fp8_cvt_scale, the
# TargetTraits::fp8_cvt_scale field in model/targets/targets.cc).
FP8_CVT_SCALE_TARGETS = {"gfx950"}
# Targets with the instructions gfx950 adds to GFX9 beside the scaled ones (TargetFeature::
# gfx950_insts, the TargetTraits::gfx950_insts field; gfx1250/gfx1251 under their own opcodes).
GFX950_INSTS_TARGETS = {"gfx950", "gfx1250", "gfx1251"}


def read_rows(path):
    """The rows of model/instrs.def: mnemonic -> dict(opcode per family, feature, sources,
    op_sel syntax per family). A small reader of the X-macro, not a C++ parser."""
    text = open(path).read()
    rows = {}
    for m in re.finditer(r"^LANEDIFF_INSTR\((\w+), \d+,(.*?)\.fp8_slot = [\w:]+\)", text, re.M | re.S):
        name, body = m.group(1), m.group(2)
        opc = re.search(r"\.opcode = \{([^}]*)\}", body).group(1).split(",")
        src = re.search(r"\.src = \{([^}]*)\}", body).group(1)
        syn = re.search(r"\.opsel_syntax = \{([^}]*)\}", body).group(1)
        enc = re.search(r"\.encoding = Encoding::(\w+)", body).group(1)
        rows[name] = {
            "encoding": enc,
            "opcode": [o.strip() for o in opc],
            "feature": re.search(r"\.requires_feature = TargetFeature::(\w+)", body).group(1),
            "sources": 3 - [x.strip() for x in src.split(",")][::-1].index(
                next(x.strip() for x in src.split(",")[::-1] if x.strip() != "SrcRole::unused")),
            "opsel": [x.strip().split("::")[-1] for x in syn.split(",")],
            "dst_bits": int(re.search(r"\.dst_bits = (\d+)", body).group(1)),
            # An integer source (SrcRole::data_b32): its SDWA form has dst_sel/dst_unused and
            # sext (model/isa/vop3.cc SdwaHasDstSel): the destination lines below.
            "src0_b32": src.split(",")[0].strip() == "SrcRole::data_b32",
            "src0_tuple": src.split(",")[0].strip() == "SrcRole::fp6_x32",
            "f32_x16": src.split(",")[0].strip() == "SrcRole::f32_x16",
            # A seed S1 before the scale S2 (the SR encoders; SrcRole::sr_seed).
            "seed": src.split(",")[1].strip() == "SrcRole::sr_seed",
            "pk16_x16": src.split(",")[0].strip() in ("SrcRole::f16x2_x16", "SrcRole::bf16x2_x16"),
            "pk16_x8": src.split(",")[0].strip() in ("SrcRole::f16x2_x8", "SrcRole::bf16x2_x8"),
            "f32_x2": src.split(",")[0].strip() == "SrcRole::f32_x2",
            "f32_x32": src.split(",")[0].strip() == "SrcRole::f32_x32",
            # gfx1250's shapes U and V (SrcRole::fp8_x8 / fp4_x8 / fp6_x16 beside an E8M0 scale
            # register).
            "scale_pk8_src": src.split(",")[0].strip().split("::")[-1]
            if src.split(",")[0].strip() in ("SrcRole::fp8_x8", "SrcRole::fp4_x8", "SrcRole::fp6_x16")
            else None,
            # gfx1250's 8-wide encoders' S0: the tuple's dwords (8 f32, or 8 packed 16-bit floats).
            "pk8": {"SrcRole::f32_x8": 8, "SrcRole::f16x2_x4": 4, "SrcRole::bf16x2_x4": 4}.get(
                src.split(",")[0].strip(), 0),
            # Families whose SRC0 is a 16-bit operand (.src0_16bit = FamilyBit(Family::gfx12) | ...).
            "src0_16bit": re.findall(r"Family::(\w+)", re.search(r"\.src0_16bit = ([^\n]*),\n", body).group(1)),
        }
    return rows


SOURCES = [
    "v1", "v255", "v0", "s3", "s0", "s101", "vcc_lo", "vcc_hi", "ttmp0", "ttmp15", "m0", "null",
    "exec_lo", "exec_hi", "flat_scratch_lo", "xnack_mask_hi", "s102", "s105", "src_scc",
    "0", "1", "64", "-1", "-16", "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0",
    "0.15915494", "0x12345678", "0x41", "lit(0x3f800000)", "lit(0x5)", "-v1", "|v1|", "-|v1|",
    "-s3", "-|1.0|", "neg(1.0)", "|0x1234|",
]


# A 16-bit SRC0 (the row's src0_16bit families): the f16 patterns of the inline constants, 16-bit
# integers, 16-bit literals, values LLVM refuses there (above 0xffff, below -32768) and the op_sel
# word select.
SOURCES_16 = [
    "0x3800", "0xb800", "0x3c00", "0xbc00", "0x4000", "0xc000", "0x4400", "0xc400", "0x3118",
    "0xffff", "0xfff0", "0xffef", "-17", "65", "0x1234", "0x8000", "-0x8000", "-32768", "-32769",
    "0x12345", "0xffffffff", "0x3f800000", "lit(0x3c00)", "lit(0xffff)", "lit(0x0)", "lit(0x13c00)",
]


def src16_lines_for(instr):
    out = []
    for s in SOURCES_16:
        out.append(f"{instr}_e32 v[4:5], {s}")
        out.append(f"{instr}_e64 v[4:5], {s}")
    for s in ["v1", "s3", "1.0", "-1", "0x1234", "lit(0x3c00)", "0.15915494"]:
        for sel in ["[1,0]", "[0,1]", "[1,1]", "[0,0]", "[1]", "[1,0,0]"]:
            out.append(f"{instr}_e64 v[4:5], {s} op_sel:{sel}")
    out += [f"{instr}_e64 v[4:5], v1.h", f"{instr}_e32 v[4:5], v1.l", f"{instr}_e64 v[4:5], -1.0",
            f"{instr}_e64 v[4:5], v1 op_sel:[1,0] clamp", f"{instr}_e64 v[4:5], v1 op_sel:[1,0] mul:2"]
    return out


SDWA_SELS = ["BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"]


def vop1_lines_for(instr, row, family):
    """A VOP1 instruction (one source): its e32, e64 and (GFX9) SDWA forms. A VGPR-pair
    destination (dst_bits 64) is written v[4:5] / v[254:255], plus odd pairs (refused where
    VGPR tuples must be aligned)."""
    out = []
    if row["dst_bits"] == 64:
        lines = vop1_lines_for(instr, dict(row, dst_bits=32), family)
        lines = [l.replace(" v5,", " v[4:5],").replace(" v255,", " v[254:255],") for l in lines]
        lines += [f"{instr}_e32 v[5:6], v1", f"{instr}_e64 v[3:4], s3", f"{instr} v[4:5], v1",
                  f"{instr}_e64 v4, v1", f"{instr}_e64 v[4:6], v1"]
        if family == "gfx9":
            lines.append(f"{instr}_sdwa v[7:8], v1 src0_sel:WORD_1")
        if family in row["src0_16bit"]:
            lines += src16_lines_for(instr)
        return lines
    for s in SOURCES:
        if not s.startswith(("-", "|", "neg")) and not (family == "gfx9" and "lit(" in s):
            out.append(f"{instr}_e32 v5, {s}")            # every operand kind, e32
        out.append(f"{instr}_e64 v5, {s}")                # ... e64 (modifiers: refused)
    out += [
        f"{instr} v5, v1", f"{instr} v255, v0", f"{instr}_e32 v5, v1 clamp",
        f"{instr}_e64 v5, v1, v2",                        # a second source: refused
        f"{instr}_e64 v255, s3",
    ]
    for mods in ["clamp", "mul:2", "mul:4", "div:2", "clamp mul:4", "clamp div:2"]:
        out.append(f"{instr}_e64 v5, v1 {mods}")
    for b in range(4):
        out.append(f"{instr}_e64 v5, v1 byte_sel:{b}")
        out.append(f"{instr}_e64 v5, s3 byte_sel:{b} clamp")
    sels = ["[1,0]", "[0,1]", "[1,1]", "[1]", "[1,0,0,0]", "[0,0,1,0]"]
    if row["opsel"][FAMILIES.index(family)] == "op_sel_dst_byte_sel":
        # op_sel:[x,d] then byte_sel:N (gfx1250's f16 decodes): llvm-mc-22 encodes only d and
        # echoes x as typed (`op_sel:[1,0]` echoed, encoded 0): those spellings are left out
        # (docs/semantics.md §13.4).
        sels = ["[0,1]", "[0,0]"]
        for d in range(2):
            for n in range(4):
                out.append(f"{instr}_e64 v5, v1 op_sel:[0,{d}] byte_sel:{n}")
        out += [f"{instr}_e64 v5, v1 byte_sel:2 op_sel:[0,1]",   # refused: the order
                f"{instr}_e32 v128, v1", f"{instr}_e32 v127, v200", f"{instr}_e64 v128, v1"]
    for sel in sels:
        out.append(f"{instr}_e64 v5, v1 op_sel:{sel}")
    if family == "gfx9" and row["src0_b32"]:
        for dsel in SDWA_SELS:
            for unused in ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"]:
                out.append(f"{instr}_sdwa v5, v1 dst_sel:{dsel} dst_unused:{unused} src0_sel:BYTE_1")
            out.append(f"{instr}_sdwa v5, sext(v1) clamp dst_sel:{dsel} src0_sel:WORD_1")
        out += [
            f"{instr}_sdwa v5, v1 dst_sel:BYTE_0",            # dst_unused: UNUSED_PRESERVE
            f"{instr}_sdwa v5, v1 clamp",
        ]  # (no dst_sel:SEL_7 / dst_unused:UNUSED_3 line: their words crash or differ in
           # llvm-mc-22's disassembler, fuzz/cli/llvm_mc_diff_test.py feeds it every word)
    if family == "gfx9":
        for sel in SDWA_SELS:
            out.append(f"{instr}_sdwa v5, v1 src0_sel:{sel}")
            out.append(f"{instr}_sdwa v255, s3 clamp src0_sel:{sel}")
        for s in ["v0", "v255", "s0", "s101", "vcc_lo", "m0", "0", "64", "-16", "1.0", "-4.0",
                  "0.15915494", "0x12345678"]:
            out.append(f"{instr}_sdwa v5, {s} src0_sel:BYTE_2")
        out += [
            f"{instr}_sdwa v5, v1", f"{instr}_sdwa v5, v1 mul:2 src0_sel:WORD_1",
            f"{instr}_sdwa v5, v1 clamp div:2 src0_sel:BYTE_3",
            f"{instr}_sdwa v5, v1 mul:4 src0_sel:BYTE_0",
            f"{instr}_sdwa v5, sext(v1) src0_sel:BYTE_1", f"{instr}_sdwa v5, -v1 src0_sel:BYTE_1",
            f"{instr}_sdwa v5, |v1| src0_sel:BYTE_1",
            f"{instr}_sdwa v5, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1",
        ]
    elif family != "gfx9":
        out.append(f"{instr}_sdwa v5, v1 src0_sel:BYTE_1")  # no SDWA after GFX10: refused
    return out


# A tuple source (SrcRole::fp6_x32: 6 dwords) and a destination tuple wider than a pair (the
# gfx950 FP6/BF6 decodes): aligned, odd and last tuples, every operand kind in the scale, SGPR
# ranges and constants in the tuple source, and the modifiers LLVM refuses there.
TUPLE_SOURCES = ["v[36:41]", "v[0:5]", "v[250:255]", "v[37:42]", "s[4:9]", "s[2:7]", "v1", "s3",
                 "1.0", "0", "lit(0x3f800000)", "lit(0x5)", "-v[36:41]", "|v[36:41]|"]


def tuple_lines_for(instr, row):
    words = row["dst_bits"] // 32
    dst = f"v[4:{3 + words}]"
    out = [f"{instr} {dst}, {s}, v2" for s in TUPLE_SOURCES]
    out += [f"{instr} {dst}, v[36:41], {s}" for s in SOURCES if s != "v1"]
    out += [f"{instr} v[0:{words - 1}], v[36:41], v2", f"{instr} v[{256 - words}:255], v[36:41], v2",
            f"{instr} v[5:{4 + words}], v[36:41], v2", f"{instr} v4, v[36:41], v2",
            f"{instr} {dst}, v[36:41], v2 clamp", f"{instr} {dst}, v[36:41], v2 mul:2",
            f"{instr} {dst}, v[36:41], v2 op_sel:[0,0,0]", f"{instr} {dst}, v[36:41], v2 op_sel:[1,0,0]",
            f"{instr} {dst}, v[36:41], v2, v3"]
    return out


# Two 16-dword tuple sources (SrcRole::f32_x16) and a 6-dword destination tuple (the gfx950
# interleaved FP6/BF6 encoders): aligned, odd and last tuples in each, SGPR ranges and constants
# there, every operand kind in the scale, and the modifiers LLVM refuses.
TUPLE16_SOURCES = ["v[0:15]", "v[240:255]", "v[37:52]", "v[36:52]", "s[4:19]", "s[2:17]", "v1",
                   "s3", "1.0", "0", "lit(0x5)", "-v[36:51]", "|v[36:51]|"]


def tuple16_lines_for(instr, row):
    words = row["dst_bits"] // 32
    dst = f"v[4:{3 + words}]"
    a, b = "v[36:51]", "v[68:83]"
    out = [f"{instr} {dst}, {s}, {b}, v2" for s in TUPLE16_SOURCES]
    out += [f"{instr} {dst}, {a}, {s}, v2" for s in TUPLE16_SOURCES]
    out += [f"{instr} {dst}, {a}, {b}, {s}" for s in SOURCES if s != "v1"]
    out += [f"{instr} v[0:{words - 1}], {a}, {b}, v2", f"{instr} v[{256 - words}:255], {a}, {b}, v2",
            f"{instr} v[5:{4 + words}], {a}, {b}, v2", f"{instr} v4, {a}, {b}, v2",
            f"{instr} {dst}, {a}, {a}, v2", f"{instr} {dst}, {a}, {b}, v2 clamp",
            f"{instr} {dst}, {a}, {b}, v2 mul:2", f"{instr} {dst}, {a}, {b}, v2 op_sel:[0,0,0,0]",
            f"{instr} {dst}, {a}, {b}, v2 op_sel:[1,0,0,0]", f"{instr} {dst}, {a}, {b}"]
    return out


# A 16-dword tuple of packed 16-bit floats as S0 (SrcRole::f16x2_x16 / bf16x2_x16), the scale
# last (S1; S2 after a seed S1), a 6-dword destination tuple (the gfx950 FP6/BF6 encoders from
# 16-bit floats): the tuple16 sources in S0, every operand kind in the scale (and the seed),
# wrong destination tuples, the modifiers LLVM refuses.
def pk16_tuple_lines_for(instr, row):
    words = row["dst_bits"] // 32
    dst = f"v[4:{3 + words}]"
    a = "v[36:51]"
    seed = ", v3" if row["sources"] == 3 else ""
    ops = f"{a}{seed}, v2"
    out = [f"{instr} {dst}, {s}{seed}, v2" for s in TUPLE16_SOURCES]
    out += [f"{instr} {dst}, {a}{seed}, {s}" for s in SOURCES if s != "v1"]
    if seed:
        out += [f"{instr} {dst}, {a}, {s}, v2" for s in SOURCES if s != "v1"]
    out += [f"{instr} v[0:{words - 1}], {ops}", f"{instr} v[{256 - words}:255], {ops}",
            f"{instr} v[5:{4 + words}], {ops}", f"{instr} v4, {ops}",
            f"{instr} {dst}, {ops} clamp", f"{instr} {dst}, {ops} mul:2",
            f"{instr} {dst}, {ops} div:2", f"{instr} {dst}, {ops} op_sel:[0,0,0]",
            f"{instr} {dst}, {ops} op_sel:[1,0,0]", f"{instr} {dst}, {ops}, v5"]
    return out


# The seed lines of gfx1250's SR tuple encoders (a seed S1 before the scale S2): every operand
# kind in the seed, two literals (different, then the same), and a VGPR pair as the seed.
def seed_lines_for(instr, dst, a):
    out = [f"{instr} {dst}, {a}, {s}, v2" for s in SOURCES if s != "v1"]
    return out + [f"{instr} {dst}, {a}, 0x12345, 0x3fc00000", f"{instr} {dst}, {a}, 0x12345, 0x12345",
                  f"{instr} {dst}, {a}, v[2:3], v2"]


# One tuple S0 of n dwords and the scale S1 (gfx1250's 16-element FP6/BF6 encoders: 16 f32,
# SrcRole::f32_x16, or 16 packed 16-bit floats, f16x2_x8 / bf16x2_x8; a 3-dword destination
# tuple): aligned, odd and last tuples, SGPR ranges, constants and a tuple of the other width in
# S0, every operand kind in the scale, wrong destination tuples, the modifiers and selects LLVM
# refuses. The SR forms (v_cvt_scalef32_sr_pk16_*) take a seed S1 before the scale S2: every
# operand kind in either, a literal in both, a pair as the seed, and one operand too many.
def one_tuple_lines_for(instr, row, n):
    words = row["dst_bits"] // 32
    dst = f"v[4:{3 + words}]"
    a = f"v[36:{35 + n}]"
    seed = ", v3" if row["seed"] else ""
    ops = f"{a}{seed}, v2"
    other = "v[36:43]" if n == 16 else "v[36:51]"
    srcs = [f"v[0:{n - 1}]", f"v[{256 - n}:255]", f"v[37:{36 + n}]", f"v[36:{36 + n}]",
            f"s[4:{3 + n}]", f"s[2:{1 + n}]", "v1", "s3", "1.0", "0", "lit(0x5)", f"-{a}",
            f"|{a}|", other]
    out = [f"{instr} {dst}, {s}{seed}, v2" for s in srcs]
    out += [f"{instr} {dst}, {a}{seed}, {s}" for s in SOURCES if s != "v1"]
    if seed:
        out += seed_lines_for(instr, dst, a)
    out += [f"{instr} v[0:{words - 1}], {ops}", f"{instr} v[{256 - words}:255], {ops}",
            f"{instr} v[252:254], {ops}", f"{instr} v[5:{4 + words}], {ops}",
            f"{instr} v4, {ops}", f"{instr} v[4:9], {ops}", f"{instr} {dst}, {ops} clamp",
            f"{instr} {dst}, {ops} mul:2", f"{instr} {dst}, {ops} div:2",
            f"{instr} {dst}, {ops} op_sel:[0,0,0]", f"{instr} {dst}, {ops} op_sel:[1,0,0]",
            f"{instr} {dst}, {ops} scale_sel:1", f"{instr} {dst}, {ops} byte_sel:1",
            f"{instr} {dst}, {ops}, {'v5' if seed else 'v3'}"]
    return out


# An f32 VGPR pair as S0 with a seed and a scale (SrcRole::f32_x2: the gfx950 SR FP4 encoder):
# aligned, odd and last pairs, SGPR pairs and constants there, the modifiers on the pair, every
# operand kind in the seed and the scale, op_sel and the modifiers LLVM refuses.
PAIR_SOURCES = ["v[0:1]", "v[254:255]", "v[37:38]", "s[4:5]", "s[3:4]", "v1", "s3", "1.0", "0",
                "lit(0x5)", "-v[36:37]", "|v[36:37]|", "-|v[36:37]|"]


def pair_lines_for(instr, row):
    a = "v[36:37]"
    out = [f"{instr} v5, {s}, v2, v3" for s in PAIR_SOURCES]
    out += [f"{instr} v5, {a}, {s}, v3" for s in SOURCES if s != "v1"]
    out += [f"{instr} v5, {a}, v2, {s}" for s in SOURCES if s != "v1"]
    for sel in range(16):
        bits = ",".join(str((sel >> i) & 1) for i in range(4))
        out.append(f"{instr} v1, {a}, v3, v4 op_sel:[{bits}]")
    out += [f"{instr} v5, {a}, v2, v3 clamp", f"{instr} v5, {a}, v2, v3 mul:2",
            f"{instr} v5, {a}, v2, v3 div:2", f"{instr} v5, {a}, v2", f"{instr} v255, {a}, s2, 0x3",
            f"{instr} v[4:5], {a}, v2, v3"]
    return out


# A 32-dword f32 tuple as S0 with a seed and a scale, a 6-dword destination tuple
# (SrcRole::f32_x32: the gfx950 SR FP6/BF6 encoders): aligned, odd and last tuples, SGPR ranges
# and constants there, every operand kind in the seed and the scale, and the modifiers LLVM
# refuses.
TUPLE32_SOURCES = ["v[0:31]", "v[224:255]", "v[37:68]", "v[36:68]", "s[4:35]", "v1", "s3", "1.0",
                   "0", "lit(0x5)", "-v[36:67]", "|v[36:67]|"]


def tuple32_lines_for(instr, row):
    words = row["dst_bits"] // 32
    dst = f"v[4:{3 + words}]"
    a = "v[36:67]"
    out = [f"{instr} {dst}, {s}, v2, v3" for s in TUPLE32_SOURCES]
    out += [f"{instr} {dst}, {a}, {s}, v3" for s in SOURCES if s != "v1"]
    out += [f"{instr} {dst}, {a}, v2, {s}" for s in SOURCES if s != "v1"]
    out += [f"{instr} v[0:{words - 1}], {a}, v2, v3", f"{instr} v[{256 - words}:255], {a}, v2, v3",
            f"{instr} v[5:{4 + words}], {a}, v2, v3", f"{instr} v4, {a}, v2, v3",
            f"{instr} {dst}, {a}, v2, v3 clamp", f"{instr} {dst}, {a}, v2, v3 mul:2",
            f"{instr} {dst}, {a}, v2, v3 op_sel:[0,0,0,0]",
            f"{instr} {dst}, {a}, v2, v3 op_sel:[0,0,1,1]", f"{instr} {dst}, {a}, v2"]
    return out


# gfx1250's decodes with an E8M0 scale register (shape U: SrcRole::fp8_x8, a VGPR pair, or
# fp4_x8, one VGPR; shape V: fp6_x16, a 3-VGPR tuple; the scale SrcRole::scale_e8m0_x4): aligned, odd and last sources, SGPRs and
# constants there, every operand kind in the scale, every scale_sel and the first refused one,
# wrong destination tuples, and the modifiers LLVM refuses.
SCALE_PK8_SOURCES = {
    "fp8_x8": ["v[20:21]", "v[0:1]", "v[254:255]", "v[21:22]", "s[4:5]", "v1", "s3", "1.0", "0",
               "lit(0x5)", "-v[20:21]", "|v[20:21]|"],
    "fp4_x8": ["v20", "v0", "v255", "s3", "1.0", "0", "0x12345678", "lit(0x5)", "-v20", "|v20|",
               "v[20:21]"],
    "fp6_x16": ["v[20:22]", "v[0:2]", "v[252:254]", "v[21:23]", "v[253:255]", "s[4:6]",
                "v[20:21]", "v[20:23]", "v20", "s3", "1.0", "0", "lit(0x5)", "-v[20:22]",
                "|v[20:22]|"],
}


def scale_pk8_lines_for(instr, row):
    words = row["dst_bits"] // 32
    dst = f"v[4:{3 + words}]"
    a = SCALE_PK8_SOURCES[row["scale_pk8_src"]][0]
    out = [f"{instr} {dst}, {s}, v2" for s in SCALE_PK8_SOURCES[row["scale_pk8_src"]]]
    out += [f"{instr} {dst}, {a}, {s}" for s in SOURCES if s != "v1"]
    out += [f"{instr} {dst}, {a}, v2 scale_sel:{n}" for n in range(17)]
    out += [f"{instr} {dst}, {a}, s2 scale_sel:-1", f"{instr} v[0:{words - 1}], {a}, v2",
            f"{instr} v[{256 - words}:255], {a}, v2", f"{instr} v[5:{4 + words}], {a}, v2",
            f"{instr} v4, {a}, v2", f"{instr} {dst}, {a}, v2 clamp",
            f"{instr} {dst}, {a}, v2 mul:2", f"{instr} {dst}, {a}, v2 op_sel:[0,0,0]",
            f"{instr} {dst}, {a}, v2 op_sel:[1,0,0]", f"{instr} {dst}, {a}, v2 byte_sel:1",
            f"{instr} {dst}, {a}, v2, v3"]
    return out


# An 8-wide tuple as S0 (SrcRole::f32_x8: 8 dwords; f16x2_x4 / bf16x2_x4: 4) and the scale S1,
# a VGPR pair (fp8/bf8 bytes) or one VGPR (FP4 codes) as VDST (gfx1250's 8-wide encoders):
# aligned, odd and last tuples, SGPR ranges and constants in S0, every operand kind in the
# scale, wrong destinations, and the modifiers and selects LLVM refuses.
# The SR forms (v_cvt_scalef32_sr_pk8_*) take a seed S1 before the scale S2: every operand kind
# in either, a literal in both, and one operand too many.
def pk8_lines_for(instr, row):
    n, words = row["pk8"], row["dst_bits"] // 32
    dst = "v5" if words == 1 else "v[4:5]"
    a = f"v[36:{35 + n}]"
    seed = ", v3" if row["sources"] == 3 else ""
    ops = f"{a}{seed}, v2"
    sources = [f"v[0:{n - 1}]", f"v[{256 - n}:255]", f"v[37:{36 + n}]", f"v[36:{36 + n}]",
               f"s[4:{3 + n}]", f"s[2:{1 + n}]", "v1", "s3", "1.0", "0", "lit(0x5)", f"-{a}",
               f"|{a}|"]
    out = [f"{instr} {dst}, {s}{seed}, v2" for s in sources]
    out += [f"{instr} {dst}, {a}{seed}, {s}" for s in SOURCES if s != "v1"]
    if seed:
        out += seed_lines_for(instr, dst, a)
    out += [f"{instr} v[0:1], {ops}", f"{instr} v[254:255], {ops}", f"{instr} v[5:6], {ops}",
            f"{instr} v4, {ops}", f"{instr} v255, {ops}", f"{instr} v[4:6], {ops}",
            f"{instr} {dst}, {ops} clamp", f"{instr} {dst}, {ops} mul:2",
            f"{instr} {dst}, {ops} div:2", f"{instr} {dst}, {ops} op_sel:[0,0,0]",
            f"{instr} {dst}, {ops} op_sel:[1,0,0]", f"{instr} {dst}, {ops} op_sel:[0,0,1]",
            f"{instr} {dst}, {ops} byte_sel:1", f"{instr} {dst}, {ops} scale_sel:1",
            f"{instr} {dst}, {ops}, {'v5' if seed else 'v3'}"]
    return out


# gfx1250's packed f16 -> fp8/bf8 encoders (one source, op_sel:[a,d], clamp; targets.h
# Src0NoInline: every constant a literal). lit(...) spellings are left out: llvm-mc-22 echoes
# them as typed (`lit(0x5)`) while its disassembler prints the same word plainly (`5`), the text
# our LlvmAsmText gives (docs/semantics.md §13.8).
def pk_f16_enc_lines_for(instr):
    out = [f"{instr} v5, {s}" for s in SOURCES if not s.startswith("lit(")]
    out += [f"{instr} v5, v1, v2", f"{instr} v255, v0 clamp", f"{instr} v5, -|v1| clamp",
            f"{instr} v5, v1 mul:2", f"{instr} v5, v1 byte_sel:1", f"{instr}_e32 v5, v1",
            f"{instr}_e64 v5, v1", f"{instr} v5, -|1.0| op_sel:[1,1] clamp",
            f"{instr} v5, 0x3c00 op_sel:[0,1]"]
    for sel in ["[1,0]", "[0,1]", "[1,1]", "[0,0]", "[1]", "[1,0,0]", "[0,0,0,1]"]:
        out.append(f"{instr} v5, v1 op_sel:{sel}")
        out.append(f"{instr} v5, s3 op_sel:{sel} clamp")
    return out


def lines_for(instr, row, family):
    if row["encoding"] == "vop1":
        return vop1_lines_for(instr, row, family)
    if row["opsel"][FAMILIES.index("gfx1250")] == "op_sel_word_src":
        return pk_f16_enc_lines_for(instr)
    if row["src0_tuple"]:
        return tuple_lines_for(instr, row)
    if row["f32_x16"] and (row["sources"] == 2 or row["seed"]):
        return one_tuple_lines_for(instr, row, 16)
    if row["pk16_x8"]:
        return one_tuple_lines_for(instr, row, 8)
    if row["f32_x16"]:
        return tuple16_lines_for(instr, row)
    if row["pk16_x16"]:
        return pk16_tuple_lines_for(instr, row)
    if row["f32_x2"]:
        return pair_lines_for(instr, row)
    if row["scale_pk8_src"]:
        return scale_pk8_lines_for(instr, row)
    if row["f32_x32"]:
        return tuple32_lines_for(instr, row)
    if row["pk8"]:
        return pk8_lines_for(instr, row)
    two = row["sources"] == 2  # SRC2 carries no data: LLVM's syntax has two sources
    opsel = row["opsel"][FAMILIES.index(family)]
    out = []
    tail = "" if two else ", v3"
    for s in SOURCES:
        out.append(f"{instr} v5, {s}, v2{tail}")          # every operand kind in src0
        if not s.startswith(("-", "|", "neg")):
            out.append(f"{instr} v5, v1, {s}{tail}")      # ... in src1
            if not two:
                out.append(f"{instr} v5, v1, v2, {s}")    # ... in src2
    out += [
        f"{instr} v5, v1, v2{tail} clamp",
        f"{instr} v5, -|v1|, s3{tail} clamp",
        f"{instr} v5, s1, s2{tail}",                      # two SGPRs: GFX10+ only
        f"{instr} v5, s1, s1{tail}",                      # same SGPR twice: one bus read
        f"{instr} v5, 0x1234, s1{tail}",                  # literal + SGPR
        f"{instr} v5, 0x1234, 0x1234{tail}",              # same literal twice
        f"{instr} v5, v1, -v2{tail}",                     # neg on src1: refused unless a data source
        f"{instr} v5, v1, |v2|{tail}",                    # abs on src1
        f"{instr} v5, v1, v2{tail} mul:2",                # omod: refused
        f"{instr} v5, v1, v2{tail} div:2",
    ]
    if not two:
        out += [f"{instr} v5, v1, v2, -v3", f"{instr} v5, v1, v2, s3",
                f"{instr} v5, v1, v2, v3 op_sel:[1,0,0,0]", f"{instr} v255, v1, s2, 0x3"]
        if opsel == "op_sel_4":                           # op_sel:[a,b,c,d] = OPSEL[0..3]
            for sel in range(16):
                bits = ",".join(str((sel >> i) & 1) for i in range(4))
                out.append(f"{instr} v1, v2, v3, v4 op_sel:[{bits}]")
            out += [f"{instr} v1, -|v2|, |v3|, -v4 op_sel:[0,0,0,1]",
                    f"{instr} v1, v2, v3, 1.0", f"{instr} v1, v2, v3, s4"]
    else:
        for b in range(4):
            out.append(f"{instr} v1, v2, v3 byte_sel:{b}")
            out.append(f"{instr} v1, -|v2|, s3 byte_sel:{b} clamp")
        for sel in range(16):
            # op_sel:[a,b,c,d] beside byte_sel: llvm-mc-22 encodes only a and b, but its
            # assembler echoes c as typed (`op_sel:[0,0,1]` echoed, encoded 0): those spellings
            # are left out (docs/semantics.md §13.5).
            if opsel == "op_sel_byte_sel" and sel >= 4:
                continue
            bits = ",".join(str((sel >> i) & 1) for i in range(4))
            out.append(f"{instr} v1, v2, v3 op_sel:[{bits}]")
        if opsel == "op_sel_byte_sel":                    # op_sel:[a,b,0] then byte_sel:N
            for sel in range(16):
                a, b, n = sel & 1, (sel >> 1) & 1, sel >> 2
                out.append(f"{instr} v1, v2, v3 op_sel:[{a},{b},0] byte_sel:{n}")
            out += [f"{instr} v1, v2, v3 byte_sel:1 op_sel:[1,0,0]",   # refused: the order
                    f"{instr} v1, -v2, s3 op_sel:[1,0,0] byte_sel:3",
                    f"{instr} v1, 0x3c00, v3 op_sel:[1,0,0]", f"{instr} v1, 0x12345, v3"]
        if opsel == "op_sel_dst3":                        # op_sel:[a,b,d]: d = OPSEL[3]
            for sel in range(8):
                bits = ",".join(str((sel >> i) & 1) for i in range(3))
                out.append(f"{instr} v1, v2, v3 op_sel:[{bits}]")
                out.append(f"{instr} v1, -v2, |s3| op_sel:[{bits}]")
            out.append(f"{instr} v1, -|v2|, -|v3| clamp")
        out.append(f"{instr} v1, v2, v3, v4")             # third source: refused
    if row["dst_bits"] == 64:  # a VGPR-pair destination: the same lines on pairs, odd pairs
        pair = {"v5": "v[4:5]", "v1": "v[0:1]", "v255": "v[254:255]"}
        out = [re.sub(r"^(\S+) (v\d+),", lambda m: f"{m.group(1)} {pair[m.group(2)]},", l)
               for l in out]
        out += [f"{instr} v[5:6], v1, v2", f"{instr} v4, v1, v2", f"{instr} v[4:6], v1, v2"]
    return out


def run_target(llvm_mc, target, family, instrs):
    lines = []
    for instr, row in instrs:
        lines += lines_for(instr, row, family)
    proc = subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    errors = {}
    for m in re.finditer(r"<stdin>:(\d+):\d+: error: (.*)", proc.stderr):
        errors.setdefault(int(m.group(1)) - 1, m.group(2).strip())
    outs = [l for l in proc.stdout.splitlines() if "encoding:" in l]
    records = []
    k = 0
    for i, line in enumerate(lines):
        if i in errors:
            records.append(("refused", target, line, errors[i]))
            continue
        text, enc = outs[k].split("; encoding:")
        k += 1
        records.append(("ok", target, line, text.strip(), enc.strip()))
    if k != len(outs):
        sys.exit(f"{target}: {len(outs)} encodings for {k} accepted lines")
    return records


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llvm-mc", default="/usr/lib/llvm-22/bin/llvm-mc")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "model", "isa", "testdata",
                                                  "golden_vop3.txt"))
    ap.add_argument("--rows", default=os.path.join(here, "..", "model", "instrs.def"),
                    help="the instruction table to read (default: model/instrs.def)")
    args = ap.parse_args()
    version = subprocess.run([args.llvm_mc, "--version"], capture_output=True, text=True).stdout
    vline = next((l.strip() for l in version.splitlines() if "version" in l), "unknown")
    rows = read_rows(args.rows)
    records = []
    for target, family, fp8 in TARGETS:
        has = {"none": True, "fp8_conversion": fp8, "fp8_cvt_scale": target in FP8_CVT_SCALE_TARGETS,
               "gfx950_insts": target in GFX950_INSTS_TARGETS}
        instrs = [(name, row) for name, row in rows.items()
                  if row["opcode"][FAMILIES.index(family)] != "kNoOpcode" and has[row["feature"]]]
        records += run_target(args.llvm_mc, target, family, instrs)
    with open(args.out, "w") as f:
        f.write(f"# Generated by scripts/gen_isa_golden.py with {vline}. Do not edit.\n")
        f.write("# ok<TAB>target<TAB>input<TAB>llvm text<TAB>bytes | refused<TAB>target<TAB>input<TAB>error\n")
        for r in records:
            f.write("\t".join(r) + "\n")
    ok = sum(1 for r in records if r[0] == "ok")
    print(f"wrote {args.out}: {ok} encodings, {len(records) - ok} refusals")


if __name__ == "__main__":
    main()
