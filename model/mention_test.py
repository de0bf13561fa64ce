#!/usr/bin/env python3
"""An instruction is stated in its row and its op file, nowhere else.

For each row of model/instrs.def, lists the files of the repository (git ls-files) that mention
the mnemonic, leaving out tests, seeds, docs, test data and fuzzer corpora, and fails when a
file other than the row (model/instrs.def), the op file (model/ops/<mnemonic>.cc) and the
allowed wire-format/dictionary files mentions it.

LEGACY lists, per pre-existing instruction, the files that still mention it (help texts,
usage examples in comments, the hypotheses' descriptions, errata descriptions). It may only
shrink: a file mentioning an instruction that is not in its list fails, and so does a listed
file that no longer mentions it (take it off the list). Instructions added after this test
have no legacy entries.

  python3 model/mention_test.py [REPO]        # prints the table; exit 1 on a violation
"""
import os
import re
import subprocess
import sys

# Always allowed for every instruction: the wire format (proto enum value spelled as the
# mnemonic), the libFuzzer dictionaries (tokens the fuzzers splice into inputs) and the
# golden-encoding generators (test-data tools: they ask llvm-mc about each instruction), and
# the hypothesis registry, whose provenance text names the instructions a reading was read
# from (prose for `targets --hypotheses`; semantics never test a name there).
ALLOWED = [
    "model/instrs.def",
    "proto/lanediff.proto",
    "scripts/gen_isa_golden.py",
    "scripts/gen_fp8_family_forms.py",
    "model/targets/hypotheses.cc",
    "model/targets/hypotheses.h",
]
ALLOWED_RE = [re.compile(r"^fuzz/fuzzers/[a-z_]+\.dict$")]

# Not code: tests, seeds, docs, test data, corpora.
EXCLUDED_RE = [
    re.compile(r"(^|/)[^/]*_test\.[a-z]+$"),
    re.compile(r"(^|/)[^/]*_test_util\.h$"),
    re.compile(r"(^|/)testdata/"),
    re.compile(r"^corpus/"),
    re.compile(r"^docs/"),
    re.compile(r"\.md$"),
    re.compile(r"^fuzz/fuzzers/corpus/"),
]

LEGACY = {
    "v_cvt_pk_u8_f32": [
        "device_harness/batch.h", "device_harness/kernels/gfx10.s",
        "device_harness/kernels/gfx12.s",
        "device_harness/kernels/gfx1250.s", "device_harness/kernels/gfx9.s",
        "device_harness/runner.h", "device_harness/serve/example_adapter.py",
        "device_harness/sim/errata.cc", "fuzz/triage/classify.h", "fuzz/cli/asm_command.cc",
        "fuzz/cli/disasm_command.cc", "fuzz/cli/llvm_mc_format.h", "fuzz/cli/sweep_command.cc",
        "fuzz/report/html.cc", "fuzz/report/plots.cc", "fuzz/triage/attribution.h", "model/fp/u8.h",
        "model/isa/llvm_differences.cc", "model/isa/llvm_differences.h", "model/isa/tables.cc",
        "model/isa/vop3.h", "model/ops/input_class.h", "model/ops/ops.h",
        "model/targets/hypotheses.cc", "model/targets/hypotheses.h", "model/targets/targets.h",
        "scripts/nightly.sh",
    ],
    "v_cvt_sr_fp8_f32": [
        "device_harness/isolation/isolation_bench.cc",
        "device_harness/sim/errata.h", "fuzz/engine/campaign_record.h", "fuzz/triage/classify.h", "fuzz/cli/asm_command.cc",
        "fuzz/cli/discriminate_command.cc", "fuzz/cli/eval_command.cc",
        "fuzz/cli/llvm_mc_format.h", "fuzz/cli/sweep_command.cc", "fuzz/cli/triage_command.cc",
        "fuzz/triage/discriminate.h", "fuzz/selftest/selftest.h", "fuzz/triage/buckets.h", "model/isa/tables.h",
        "model/isa/testcase.h", "model/isa/vop3.h", "model/ops/ops.h", "model/ops/sr_common.h",
        "model/ops/v_cvt_sr_bf8_f32.cc", "model/targets/hypotheses.cc",
        "model/targets/hypotheses.h", "model/targets/targets.h", "proto/text_format.h",
        "scripts/nightly.sh", "scripts/run.sh",
    ],
    "v_cvt_sr_bf8_f32": [
        "model/isa/llvm_differences.cc", "model/isa/vop3.h", "model/ops/sr_common.h",
        "scripts/nightly.sh",
    ],
}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows = re.findall(r"^LANEDIFF_INSTR\((\w+),", open(os.path.join(root, "model/instrs.def")).read(), re.M)
    if not rows:
        print("mention_test: no LANEDIFF_INSTR rows in model/instrs.def")
        return 1
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=root, check=True, capture_output=True,
                           text=True).stdout.split()
    files = [f for f in files if not any(r.search(f) for r in EXCLUDED_RE)]
    texts = {}
    for f in files:
        try:
            with open(os.path.join(root, f), "rb") as fh:
                texts[f] = fh.read().decode("utf-8", "replace")
        except OSError:
            continue
    failed = False
    for m in rows:
        # Any mention, also inside a longer word ("\tv_cvt_..." in a C string, "..._oracle"),
        # but not a longer mnemonic (the next character is not a letter or digit).
        pat = re.compile(re.escape(m) + r"(?![0-9a-z])")
        mentions = sorted(f for f, t in texts.items() if pat.search(t))
        allowed = set(ALLOWED) | {f"model/ops/{m}.cc"}
        legacy = set(LEGACY.get(m, []))
        bad = [f for f in mentions if f not in allowed and f not in legacy
               and not any(r.search(f) for r in ALLOWED_RE)]
        stale = sorted(legacy - set(mentions))
        print(f"{m}: {len(mentions)} files ({len(legacy)} legacy)")
        for f in mentions:
            tag = "row/op" if f in allowed or any(r.search(f) for r in ALLOWED_RE) else (
                "legacy" if f in legacy else "NOT ALLOWED")
            print(f"  {tag:12s} {f}")
        for f in bad:
            print(f"mention_test: {f} mentions {m}: only model/instrs.def and "
                  f"model/ops/{m}.cc may (read the row instead: GetInstrInfo, GetOp)")
            failed = True
        for f in stale:
            print(f"mention_test: {f} no longer mentions {m}: take it off LEGACY in "
                  f"model/mention_test.py")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
