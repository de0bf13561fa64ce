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
"""
import argparse
import os
import re
import subprocess
import sys

# Target -> (family, instructions). Mirrors model/targets/targets.cc (SEMANTICS.md §1).
TARGETS = [
    ("gfx908", "gfx9", ["v_cvt_pk_u8_f32"]),
    ("gfx90a", "gfx9", ["v_cvt_pk_u8_f32"]),
    ("gfx942", "gfx9", ["v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"]),
    ("gfx950", "gfx9", ["v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"]),
    ("gfx1010", "gfx10", ["v_cvt_pk_u8_f32"]),
    ("gfx1030", "gfx10", ["v_cvt_pk_u8_f32"]),
    ("gfx1100", "gfx11", ["v_cvt_pk_u8_f32"]),
    ("gfx1150", "gfx11", ["v_cvt_pk_u8_f32"]),
    ("gfx1200", "gfx12", ["v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"]),
    ("gfx1201", "gfx12", ["v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"]),
    ("gfx1250", "gfx1250", ["v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"]),
    ("gfx1251", "gfx1250", ["v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"]),
]

SOURCES = [
    "v1", "v255", "v0", "s3", "s0", "s101", "vcc_lo", "vcc_hi", "ttmp0", "ttmp15", "m0", "null",
    "exec_lo", "exec_hi", "flat_scratch_lo", "xnack_mask_hi", "s102", "s105", "src_scc",
    "0", "1", "64", "-1", "-16", "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0",
    "0.15915494", "0x12345678", "0x41", "lit(0x3f800000)", "lit(0x5)", "-v1", "|v1|", "-|v1|",
    "-s3", "-|1.0|", "neg(1.0)", "|0x1234|",
]


def lines_for(instr, family):
    sr = instr != "v_cvt_pk_u8_f32"
    out = []
    tail = "" if sr else ", v3"
    for s in SOURCES:
        out.append(f"{instr} v5, {s}, v2{tail}")          # every operand kind in src0
        if not s.startswith(("-", "|", "neg")):
            out.append(f"{instr} v5, v1, {s}{tail}")      # ... in src1
            if not sr:
                out.append(f"{instr} v5, v1, v2, {s}")    # ... in src2
    out += [
        f"{instr} v5, v1, v2{tail} clamp",
        f"{instr} v5, -|v1|, s3{tail} clamp",
        f"{instr} v5, s1, s2{tail}",                      # two SGPRs: GFX10+ only
        f"{instr} v5, s1, s1{tail}",                      # same SGPR twice: one bus read
        f"{instr} v5, 0x1234, s1{tail}",                  # literal + SGPR
        f"{instr} v5, 0x1234, 0x1234{tail}",              # same literal twice
        f"{instr} v5, v1, -v2{tail}",                     # neg on src1: refused
        f"{instr} v5, v1, |v2|{tail}",                    # abs on src1: refused
        f"{instr} v5, v1, v2{tail} mul:2",                # omod: refused
        f"{instr} v5, v1, v2{tail} div:2",
    ]
    if not sr:
        out += [f"{instr} v5, v1, v2, -v3", f"{instr} v5, v1, v2, s3",
                f"{instr} v5, v1, v2, v3 op_sel:[1,0,0,0]", f"{instr} v255, v1, s2, 0x3"]
    else:
        for b in range(4):
            out.append(f"{instr} v1, v2, v3 byte_sel:{b}")
            out.append(f"{instr} v1, -|v2|, s3 byte_sel:{b} clamp")
        for sel in range(16):
            bits = ",".join(str((sel >> i) & 1) for i in range(4))
            out.append(f"{instr} v1, v2, v3 op_sel:[{bits}]")
        out.append(f"{instr} v1, v2, v3, v4")             # third source: refused
    return out


def run_target(llvm_mc, target, family, instrs):
    lines = []
    for instr in instrs:
        lines += lines_for(instr, family)
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
    args = ap.parse_args()
    version = subprocess.run([args.llvm_mc, "--version"], capture_output=True, text=True).stdout
    vline = next((l.strip() for l in version.splitlines() if "version" in l), "unknown")
    records = []
    for target, family, instrs in TARGETS:
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
