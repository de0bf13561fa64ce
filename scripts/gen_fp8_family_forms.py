#!/usr/bin/env python3
"""Generates model/isa/testdata/fp8_family_forms.txt: which forms of the six fp8 conversion
instructions LLVM 22's assembler accepts on each target, with the encoding and opcode of each
accepted form (docs/semantics.md §10.6 is the human-readable summary).

For every target in TARGETS and every mnemonic, a fixed list of probe lines (one per form:
e32, e64, sdwa, dpp, every byte/word/half select, clamp, neg/abs per source, inline constants,
literals, SGPRs, omod) goes through ONE llvm-mc-22 -show-encoding process per target.

Output, one record per line, tab separated (lines starting with '#' are comments):
  ok       TARGET  MNEMONIC  FORM  ENCODING  OPCODE  INPUT  LLVM_TEXT  BYTES
  refused  TARGET  MNEMONIC  FORM  -         -       INPUT  LLVM_ERROR
ENCODING is vop1 (e32), vop3 (e64), sdwa or dpp, read from the bytes; OPCODE is the opcode
field of that encoding in hex (VOP1 bits [16:9], VOP3 bits [25:16] of dword 0).

Usage: scripts/gen_fp8_family_forms.py [--llvm-mc PATH] [--out PATH]
"""
import argparse
import os
import re
import subprocess
import sys

TARGETS = ["gfx942", "gfx950", "gfx1200", "gfx1201", "gfx1250", "gfx1251"]

PK_TO_FP8 = ["v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32"]
TO_F32 = ["v_cvt_f32_fp8", "v_cvt_f32_bf8"]
PK_TO_F32 = ["v_cvt_pk_f32_fp8", "v_cvt_pk_f32_bf8"]

# (form label, operand text) per instruction kind. The label names what the line probes.
PK_TO_FP8_FORMS = [
    ("e64", "v1, v2, v3"),
    ("e64_suffix", "_e64 v1, v2, v3"),
    ("e32", "_e32 v1, v2, v3"),
    ("sdwa", "_sdwa v1, v2, v3"),
    ("dpp", "_dpp v1, v2, v3 quad_perm:[0,1,2,3]"),
    ("clamp", "v1, v2, v3 clamp"),
    ("neg_src0", "v1, -v2, v3"),
    ("abs_src0", "v1, |v2|, v3"),
    ("neg_src1", "v1, v2, -v3"),
    ("abs_src1", "v1, v2, |v3|"),
    ("neg_abs_both", "v1, -|v2|, -|v3|"),
    ("op_sel_0001", "v1, v2, v3 op_sel:[0,0,0,1]"),
    ("op_sel_001", "v1, v2, v3 op_sel:[0,0,1]"),
    ("op_sel_100", "v1, v2, v3 op_sel:[1,0,0]"),
    ("op_sel_010", "v1, v2, v3 op_sel:[0,1,0]"),
    ("op_sel_0010", "v1, v2, v3 op_sel:[0,0,1,0]"),
    ("op_sel_0011", "v1, v2, v3 op_sel:[0,0,1,1]"),
    ("op_sel_001_clamp", "v1, v2, v3 op_sel:[0,0,1] clamp"),
    ("inline_float", "v1, 1.0, -0.5"),
    ("inline_int", "v1, 64, -16"),
    ("literal_src0", "v1, 0x12345678, v3"),
    ("literal_src1", "v1, v2, 0x12345678"),
    ("literal_same_twice", "v1, 0x12345678, 0x12345678"),
    ("literal_two_different", "v1, 0x12345678, 0x87654321"),
    ("sgpr_src0", "v1, s2, v3"),
    ("sgpr_two_same", "v1, s2, s2"),
    ("sgpr_two_different", "v1, s2, s3"),
    ("omod_mul2", "v1, v2, v3 mul:2"),
    ("omod_div2", "v1, v2, v3 div:2"),
]

TO_F32_FORMS = [
    ("e32", "v1, v2"),
    ("e32_suffix", "_e32 v1, v2"),
    ("e32_sgpr", "_e32 v1, s2"),
    ("e32_inline", "_e32 v1, 64"),
    ("e32_literal", "_e32 v1, 0x12345678"),
    ("e64", "_e64 v1, v2"),
    ("e64_sgpr", "_e64 v1, s2"),
    ("e64_literal", "_e64 v1, 0x12345678"),
    ("e64_clamp", "_e64 v1, v2 clamp"),
    ("e64_neg", "_e64 v1, -v2"),
    ("e64_abs", "_e64 v1, |v2|"),
    ("e64_omod_mul2", "_e64 v1, v2 mul:2"),
    ("e64_byte_sel_1", "_e64 v1, v2 byte_sel:1"),
    ("e64_byte_sel_2", "_e64 v1, v2 byte_sel:2"),
    ("e64_byte_sel_3", "_e64 v1, v2 byte_sel:3"),
    ("e64_byte_sel_3_clamp", "_e64 v1, v2 byte_sel:3 clamp"),
    ("e64_op_sel_10", "_e64 v1, v2 op_sel:[1,0]"),
    ("sdwa_byte_0", "_sdwa v1, v2 src0_sel:BYTE_0"),
    ("sdwa_byte_1", "_sdwa v1, v2 src0_sel:BYTE_1"),
    ("sdwa_byte_2", "_sdwa v1, v2 src0_sel:BYTE_2"),
    ("sdwa_byte_3", "_sdwa v1, v2 src0_sel:BYTE_3"),
    ("sdwa_word_0", "_sdwa v1, v2 src0_sel:WORD_0"),
    ("sdwa_word_1", "_sdwa v1, v2 src0_sel:WORD_1"),
    ("sdwa_dword", "_sdwa v1, v2 src0_sel:DWORD"),
    ("sdwa_sext", "_sdwa v1, sext(v2) src0_sel:BYTE_1"),
    ("sdwa_neg", "_sdwa v1, -v2 src0_sel:BYTE_1"),
    ("sdwa_abs", "_sdwa v1, |v2| src0_sel:BYTE_1"),
    ("sdwa_clamp", "_sdwa v1, v2 clamp src0_sel:BYTE_1"),
    ("sdwa_omod_mul2", "_sdwa v1, v2 mul:2 src0_sel:BYTE_1"),
    ("sdwa_sgpr", "_sdwa v1, s2 src0_sel:BYTE_1"),
    ("sdwa_dst_sel_word_1", "_sdwa v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1"),
    ("sdwa_dst_sel_byte_0_sext", "_sdwa v1, v2 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_1"),
    ("dpp", "_dpp v1, v2 quad_perm:[0,1,2,3]"),
]

PK_TO_F32_FORMS = [
    ("e32", "v[2:3], v1"),
    ("e32_suffix", "_e32 v[2:3], v1"),
    ("e32_sgpr", "_e32 v[2:3], s1"),
    ("e32_literal", "_e32 v[2:3], 0x12345678"),
    ("e64", "_e64 v[2:3], v1"),
    ("e64_sgpr", "_e64 v[2:3], s1"),
    ("e64_literal", "_e64 v[2:3], 0x12345678"),
    ("e64_clamp", "_e64 v[2:3], v1 clamp"),
    ("e64_neg", "_e64 v[2:3], -v1"),
    ("e64_abs", "_e64 v[2:3], |v1|"),
    ("e64_omod_mul2", "_e64 v[2:3], v1 mul:2"),
    ("e64_op_sel_10", "_e64 v[2:3], v1 op_sel:[1,0]"),
    ("e64_op_sel_01", "_e64 v[2:3], v1 op_sel:[0,1]"),
    ("e64_op_sel_1", "_e64 v[2:3], v1 op_sel:[1]"),
    ("e64_op_sel_10_clamp", "_e64 v[2:3], v1 op_sel:[1,0] clamp"),
    ("e64_odd_vdst", "_e64 v[3:4], v1"),
    ("e32_odd_vdst", "_e32 v[3:4], v1"),
    ("sdwa_word_0", "_sdwa v[2:3], v1 src0_sel:WORD_0"),
    ("sdwa_word_1", "_sdwa v[2:3], v1 src0_sel:WORD_1"),
    ("sdwa_byte_1", "_sdwa v[2:3], v1 src0_sel:BYTE_1"),
    ("sdwa_byte_3", "_sdwa v[2:3], v1 src0_sel:BYTE_3"),
    ("sdwa_dword", "_sdwa v[2:3], v1 src0_sel:DWORD"),
    ("sdwa_neg", "_sdwa v[2:3], -v1 src0_sel:WORD_1"),
    ("sdwa_clamp", "_sdwa v[2:3], v1 clamp src0_sel:WORD_1"),
    ("sdwa_sext", "_sdwa v[2:3], sext(v1) src0_sel:WORD_1"),
    ("sdwa_sgpr", "_sdwa v[2:3], s1 src0_sel:WORD_1"),
    ("dpp", "_dpp v[2:3], v1 quad_perm:[0,1,2,3]"),
]


def forms_for(mnemonic):
    if mnemonic in PK_TO_FP8:
        return PK_TO_FP8_FORMS
    if mnemonic in TO_F32:
        return TO_F32_FORMS
    return PK_TO_F32_FORMS


def line_for(mnemonic, operands):
    # A suffix (_e32, _e64, _sdwa, _dpp) is glued to the mnemonic; plain operands follow a space.
    return mnemonic + operands if operands.startswith("_") else mnemonic + " " + operands


def classify(data):
    """(encoding, opcode) from the bytes LLVM printed."""
    d0 = int.from_bytes(bytes(data[:4]), "little")
    if len(data) >= 8 and d0 & 0xff == 0xf9 and (d0 >> 25) == 0x3f:
        return "sdwa", (d0 >> 9) & 0xff
    if len(data) >= 8 and d0 & 0x1ff == 0xfa and (d0 >> 25) == 0x3f:
        return "dpp", (d0 >> 9) & 0xff
    if (d0 >> 25) == 0x3f:
        return "vop1", (d0 >> 9) & 0xff
    if (d0 >> 26) in (0x34, 0x35):  # 110100 (GFX9), 110101 (GFX10+)
        return "vop3", (d0 >> 16) & 0x3ff
    return "unknown", 0


def run_target(llvm_mc, target):
    probes = []
    for mnemonic in PK_TO_FP8 + TO_F32 + PK_TO_F32:
        for label, operands in forms_for(mnemonic):
            probes.append((mnemonic, label, line_for(mnemonic, operands)))
    text = "".join(p[2] + "\n" for p in probes)
    proc = subprocess.run([llvm_mc, "-triple=amdgcn", "-mcpu=" + target, "-show-encoding"],
                          input=text, capture_output=True, text=True)
    errors = {}
    for m in re.finditer(r"<stdin>:(\d+):\d+: error: (.*)", proc.stderr):
        errors.setdefault(int(m.group(1)), m.group(2).strip())
    outputs = [l.strip() for l in proc.stdout.splitlines()
               if "; encoding:" in l]
    records = []
    out_i = 0
    for i, (mnemonic, label, line) in enumerate(probes, start=1):
        if i in errors:
            records.append("\t".join(["refused", target, mnemonic, label, "-", "-", line,
                                      errors[i]]))
            continue
        printed = outputs[out_i]
        out_i += 1
        asm, enc = printed.split("; encoding:")
        data = [int(b, 16) for b in re.findall(r"0x([0-9a-fA-F]{2})", enc)]
        encoding, opcode = classify(data)
        records.append("\t".join(["ok", target, mnemonic, label, encoding, "0x%03x" % opcode,
                                  line, asm.strip(),
                                  ",".join("0x%02x" % b for b in data)]))
    if out_i != len(outputs):
        sys.exit("%s: %d encodings printed, %d matched to probes" % (target, len(outputs), out_i))
    return records


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llvm-mc", default="llvm-mc-22")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "model", "isa",
                                                  "testdata", "fp8_family_forms.txt"))
    args = ap.parse_args()
    version = subprocess.run([args.llvm_mc, "--version"], capture_output=True,
                             text=True).stdout
    vline = next((l.strip() for l in version.splitlines() if "version" in l), "unknown")
    lines = ["# fp8 conversion family: forms LLVM accepts per target. Generated by",
             "# scripts/gen_fp8_family_forms.py with " + vline + "; do not edit by hand.",
             "# ok TARGET MNEMONIC FORM ENCODING OPCODE INPUT LLVM_TEXT BYTES",
             "# refused TARGET MNEMONIC FORM - - INPUT LLVM_ERROR"]
    for target in TARGETS:
        lines.extend(run_target(args.llvm_mc, target))
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %d records to %s" % (len(lines) - 4, args.out))


if __name__ == "__main__":
    main()
