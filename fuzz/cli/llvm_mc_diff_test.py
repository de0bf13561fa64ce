#!/usr/bin/env python3
"""`lanediff asm` / `lanediff disasm` against llvm-mc-22 itself, on every target's golden set
(model/isa/testdata/golden_vop3.txt, generated with llvm-mc-22 by scripts/gen_isa_golden.py).

For each target, all the golden inputs go through `llvm-mc-22 -arch=amdgcn -mcpu=T
-show-encoding` and `lanediff asm --targets T` (one process each); the outputs are aligned per
input line through the diagnostics' `<stdin>:LINE:` (each accepted line prints one line):
  - both accept: lanediff's line is byte-identical to llvm-mc's;
  - llvm-mc refuses, lanediff accepts: lanediff's line ends in `; llvm-mc-22 refuses: ...`;
  - both refuse: both diagnose the same line, lanediff in llvm-mc's 3-line form;
  - llvm-mc accepts, lanediff refuses: only the listed difference gfx9_asm_lit_without_dword
    (model/isa/llvm_differences.cc: lit(...) on GFX9, which has no VOP3 literal);
  - llvm-mc prints an invalid immediate for a constant in a VGPR-pair source: lanediff's line
    says llvm-mc refuses it (the listed difference asm_tuple_constant).
Then the bytes of every line lanediff accepted go through `llvm-mc-22 --disassemble` (with and
without -show-encoding) and `lanediff disasm` (same flags): a line without a `; llvm-mc-22`
comment is byte-identical to llvm-mc's, and a line with one differs from llvm-mc's.
Usage: llvm_mc_diff_test.py LANEDIFF LLVM_MC GOLDEN
"""
import re
import subprocess
import sys

DIAG = re.compile(r"^<stdin>:(\d+):(\d+): (error|warning): ")
GFX9 = {"gfx908", "gfx90a", "gfx942", "gfx950"}


def run(cmd, text):
    p = subprocess.run(cmd, input=text, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def per_line(n_inputs, out, err, tool):
    """Input line number (1-based) -> ('ok', stdout line) or ('diag', [3 diagnostic lines])."""
    diags = {}
    err_lines = err.split("\n")
    for i, l in enumerate(err_lines):
        m = DIAG.match(l)
        if m:
            diags[int(m.group(1))] = err_lines[i:i + 3]
    outs = out.split("\n")
    assert outs[-1] == "", f"{tool}: output does not end in a newline"
    outs = outs[:-1]
    accepted = [n for n in range(1, n_inputs + 1) if n not in diags]
    if len(outs) != len(accepted):
        raise AssertionError(f"{tool}: {len(outs)} output lines for {len(accepted)} accepted inputs")
    result = {n: ("diag", d) for n, d in diags.items()}
    result.update({n: ("ok", o) for n, o in zip(accepted, outs)})
    return result


def main():
    lanediff, llvm_mc, golden = sys.argv[1:4]
    by_target = {}
    for line in open(golden):
        if line.startswith("#") or not line.strip():
            continue
        c = line.rstrip("\n").split("\t")
        by_target.setdefault(c[1], []).append(c[2])
    fails = []
    counts = dict(same=0, flagged=0, both_refuse=0, lit=0, tuple_constant=0, dis_same=0, dis_flagged=0, dis_bus=0)

    def fail(msg):
        fails.append(msg)
        if len(fails) <= 30:
            print("FAIL", msg)

    for target, inputs in sorted(by_target.items()):
        text = "".join(i + "\n" for i in inputs)
        rc_l, out_l, err_l = run([llvm_mc, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"], text)
        rc_d, out_d, err_d = run([lanediff, "asm", "--targets", target], text)
        L = per_line(len(inputs), out_l, err_l, f"llvm-mc {target}")
        D = per_line(len(inputs), out_d, err_d, f"lanediff asm {target}")
        if (rc_l != 0) != (rc_d != 0) and not any(v[0] == "diag" for v in D.values()):
            fail(f"{target}: exit codes llvm-mc {rc_l}, lanediff {rc_d}")
        words = []  # byte lists lanediff produced, for the disassembler round
        for n, src in enumerate(inputs, 1):
            (lk, lv), (dk, dv) = L[n], D[n]
            where = f"{target} line {n} '{src}'"
            if dk == "ok":
                words.append((dv.split("; encoding: ")[1].split(" ; ")[0], dv))
            if lk == "ok" and dk == "ok" and "/*Invalid immediate*/" in lv:
                # asm_tuple_constant (model/isa/llvm_differences.cc): llvm-mc assembles a constant
                # as a VGPR-pair source and prints an invalid immediate; lanediff flags it.
                counts["tuple_constant"] += 1
                if " ; llvm-mc-22 refuses: " not in dv:
                    fail(f"{where}: llvm-mc's invalid immediate, lanediff's line says nothing: {dv!r}")
            elif lk == "ok" and dk == "ok":
                counts["same"] += 1
                if dv != lv:
                    fail(f"{where}:\n  lanediff {dv!r}\n  llvm-mc  {lv!r}")
            elif lk == "diag" and dk == "ok":
                counts["flagged"] += 1
                if " ; llvm-mc-22 refuses: " not in dv:
                    fail(f"{where}: llvm-mc refuses ({lv[0]}) but lanediff's line says nothing: {dv!r}")
            elif lk == "diag" and dk == "diag":
                counts["both_refuse"] += 1
                head, echo, caret = (dv + ["", "", ""])[:3]
                if not head.startswith(f"<stdin>:{n}:") or ": error: " not in head:
                    fail(f"{where}: diagnostic {head!r}")
                if echo != src.expandtabs(8) or not re.fullmatch(r" *\^", caret):
                    fail(f"{where}: diagnostic body {echo!r} / {caret!r}")
            else:
                if target in GFX9 and "lit(" in src:
                    counts["lit"] += 1  # gfx9_asm_lit_without_dword
                else:
                    fail(f"{where}: llvm-mc accepts ({lv!r}) but lanediff refuses: {dv[0]!r}")
        # The disassembler, both forms.
        dtext = "".join(w + "\n" for w, _ in words)
        for extra in ([], ["-show-encoding"]):
            _, out_l, err_l = run([llvm_mc, "-arch=amdgcn", f"-mcpu={target}", "--disassemble"] + extra, dtext)
            _, out_d, err_d = run([lanediff, "disasm", "--targets", target] +
                                  (["--show-encoding"] if extra else []), dtext)
            L = per_line(len(words), out_l, err_l, f"llvm-mc --disassemble {target}")
            D = per_line(len(words), out_d, err_d, f"lanediff disasm {target}")
            for n, (w, asm_line) in enumerate(words, 1):
                (lk, lv), (dk, dv) = L[n], D[n]
                where = f"{target} disasm{' -show-encoding' if extra else ''} line {n} {w}"
                if dk != "ok":
                    # The encoder writes what the fuzzer must run; the decoder calls a word
                    # over the constant bus invalid (llvm_differences: constant_bus_not_checked).
                    if "refuses: constant bus" in asm_line:
                        counts["dis_bus"] += 1
                    else:
                        fail(f"{where}: lanediff refuses its own encoding: {dv[0]!r}")
                elif " ; llvm-mc-22 " in dv:
                    counts["dis_flagged"] += 1
                    # A line flagged only for the assembler (`refuses to assemble`) may print as
                    # llvm-mc does: LLVM's disassembler prints texts its assembler refuses (a 16-bit
                    # operand's lit(0x3f800000): disasm_truncates_literal16).
                    if (lk == "ok" and lv == dv.split(" ; llvm-mc-22 ")[0] and
                            "llvm-mc-22 --disassemble" in dv):
                        fail(f"{where}: flagged as different but llvm-mc prints the same: {dv!r}")
                else:
                    counts["dis_same"] += 1
                    if lk != "ok" or lv != dv:
                        fail(f"{where}:\n  lanediff {dv!r}\n  llvm-mc  {lv!r}")
    print(f"{len(by_target)} targets: {counts['same']} asm lines byte-identical, "
          f"{counts['flagged']} accepted only by lanediff (flagged), {counts['both_refuse']} refused "
          f"by both, {counts['lit']} gfx9 lit() lines and {counts['tuple_constant']} constant pair "
          f"lines (listed differences); disasm: "
          f"{counts['dis_same']} identical, {counts['dis_flagged']} flagged, {counts['dis_bus']} over the "
          f"constant bus (invalid to our decoder)")
    if len(by_target) != 12 or counts["same"] < 2000:
        fail("the golden set is smaller than expected (12 targets, > 2000 shared lines)")
    if fails:
        print(f"FAIL: {len(fails)} differences")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
