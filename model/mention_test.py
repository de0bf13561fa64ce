#!/usr/bin/env python3
"""An instruction is stated in its row and its op file, nowhere else.

For each row of model/instrs.def, lists the files of the repository (git ls-files) that mention
the mnemonic, leaving out tests, seeds, docs, test data and fuzzer corpora, and fails when a
file other than the row (model/instrs.def), the op file the row names (model/ops/<op>.cc, the
third LANEDIFF_INSTR argument; rows that differ only in format share it) and the allowed
wire-format/dictionary files mentions it. There are no exceptions: help texts, examples in
comments and scripts take the instruction from the rows (`lanediff targets`) or say it
generically.

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

def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows = re.findall(r"^LANEDIFF_INSTR\((\w+), *\d+, *(\w+),", open(os.path.join(root, "model/instrs.def")).read(), re.M)
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
    for m, op in rows:
        # Any mention, also inside a longer word ("\tv_cvt_..." in a C string, "..._oracle"),
        # but not a longer mnemonic (the next character is not a letter or digit).
        pat = re.compile(re.escape(m) + r"(?![0-9a-z])")
        mentions = sorted(f for f, t in texts.items() if pat.search(t))
        allowed = set(ALLOWED) | {f"model/ops/{op}.cc"}
        bad = [f for f in mentions if f not in allowed and not any(r.search(f) for r in ALLOWED_RE)]
        print(f"{m} (op {op}): {len(mentions)} files")
        for f in mentions:
            tag = "row/op" if f in allowed or any(r.search(f) for r in ALLOWED_RE) else "NOT ALLOWED"
            print(f"  {tag:12s} {f}")
        for f in bad:
            print(f"mention_test: {f} mentions {m}: only model/instrs.def and "
                  f"model/ops/{op}.cc may (read the row instead: GetInstrInfo, GetOp, "
                  f"`lanediff targets --json`)")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
