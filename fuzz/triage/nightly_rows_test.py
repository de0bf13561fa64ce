#!/usr/bin/env python3
"""Deleting a row of model/instrs.def takes it off every instruction list, with no other edit.

What would prove it is deleting a row and rebuilding; this test must not rebuild, so it proves
the claim in the two halves it rests on:

1. Nothing outside the rows states an instruction list. Every consumer that runs as C++ (the
   report's src0 figure, the simulator errata's reach, the struct defaults, erratum_buckets_test's
   per-erratum lists) iterates kAllInstrs, which the compiler expands from model/instrs.def, and
   names no instruction: model/mention_test.py checks the code (no mnemonic outside the row and
   its op file, no exceptions) and this test checks erratum_buckets_test.cc, which mention_test
   leaves out as a test. Scripts learn the rows from the built binary (`lanediff targets
   --json`), so the binary is where a deletion shows: its listing must equal the rows.
2. Every script list follows the binary's listing. scripts/nightly.sh runs, with --sweep full
   (src0 sweeps with --all-modes, seed sweeps, discrimination questions, campaigns), twice
   against a stand-in for the binary that records each command and answers `targets` from the
   real binary: once as is, once with two rows taken out of the listing (one seeded, one not),
   which is what the binary says once those rows are deleted. The second night must run exactly
   the first night's steps less every step of the two rows, and never name them. `nightly.sh
   --help` must list exactly the binary's rows, and, with no binary built, exactly the rows of
   an instrs.def copy that lacks one row (its fallback). The report's figure must have one band
   per row the listing marks src0_map, named by the row.

A deletion of a row also needs its proto::Instruction value gone (the wire format; the
static_assert in model/isa/testcase.cc checks the two agree): that is the row's other half, not
a list.

  nightly_rows_test.py LANEDIFF_BINARY SOURCE_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

lanediff, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
tmp = tempfile.mkdtemp(prefix="nightly_rows_")


def fail(msg):
    print(f"FAIL: {msg}\nkept {tmp}")
    sys.exit(1)


def def_rows(path):
    return re.findall(r"^LANEDIFF_INSTR\((\w+),", open(path).read(), re.M)


listing = json.loads(subprocess.run([lanediff, "targets", "--json"], check=True, capture_output=True,
                                    text=True).stdout)
rows = [r["name"] for r in listing["rows"]]
if rows != def_rows(os.path.join(src, "model/instrs.def")):
    fail(f"the binary's rows {rows} are not model/instrs.def's (rebuild lanediff)")
seeded = [r["name"] for r in listing["rows"] if r["sweep"] == "seed"]
unseeded = [r["name"] for r in listing["rows"] if r["sweep"] == "src0"]
if not seeded or not unseeded:
    fail("want a seeded and an unseeded row to take out")
victims = {seeded[-1], unseeded[-1]}
print(f"rows: {rows}\ntaken out: {sorted(victims)}")

# --- 1. No name in erratum_buckets_test.cc (mention_test covers the code).
buckets_test = open(os.path.join(src, "fuzz/triage/erratum_buckets_test.cc")).read()
for r in rows:
    if re.search(re.escape(r) + r"(?![0-9a-z])", buckets_test):
        fail(f"fuzz/triage/erratum_buckets_test.cc names {r}: its lists must come from the rows")
mention = subprocess.run([sys.executable, os.path.join(src, "model/mention_test.py"), src],
                         capture_output=True, text=True)
if mention.returncode != 0:
    fail("model/mention_test.py:\n" + mention.stdout[-3000:])

# --- 2. The stand-in binary: logs each command, answers `targets` as the real one does without
# the rows in $DROP. A shell script reading answers written here per DROP value (the night runs
# it once per step: a Python stand-in's start-up was most of this test's time).
fake_dir = os.path.join(tmp, "build", "fuzz")
os.makedirs(fake_dir)
answers = {}
for args in (["--version"], ["targets"], ["targets", "--json"]):
    answers[" ".join(args)] = subprocess.run([lanediff] + args, check=True, capture_output=True,
                                             text=True).stdout
answers_dir = os.path.join(tmp, "answers")


def write_answers(drop):
    """The stand-in's answers with the rows in `drop` taken out, in answers/drop-DROP/."""
    d = os.path.join(answers_dir, "drop-" + ",".join(sorted(drop)))
    os.makedirs(d)
    listing_less = json.loads(answers["targets --json"])
    listing_less["rows"] = [r for r in listing_less["rows"] if r["name"] not in drop]
    for t in listing_less["targets"]:
        t["instructions"] = [i for i in t["instructions"] if i not in drop]
    text = "\n".join(" ".join(w for w in line.split(" ") if re.sub(r"\(.*", "", w) not in drop)
                     for line in answers["targets"].split("\n"))
    for name, out in (("version", answers["--version"]), ("targets", text),
                      ("targets.json", json.dumps(listing_less) + "\n")):
        with open(os.path.join(d, name), "w") as f:
            f.write(out)


fake = os.path.join(fake_dir, "lanediff")
with open(fake, "w") as f:
    f.write(f"""#!/bin/sh
# Answers from {answers_dir}/drop-$DROP (no such directory: a DROP this test did not prepare).
a="{answers_dir}/drop-$DROP"
[ -d "$a" ] || {{ echo "stand-in: no answers for DROP=$DROP" >&2; exit 2; }}
printf '%s\\n' "$*" >> "$LOG"
case "$*" in
  --version) cat "$a/version" ;;
  targets) cat "$a/targets" ;;
  "targets --json") cat "$a/targets.json" ;;
  "devices --hip-count") echo 0 ;;
esac
exit 0
""")
os.chmod(fake, 0o755)
write_answers(set())
write_answers(victims)
erratum_fake = os.path.join(tmp, "erratum_test")
with open(erratum_fake, "w") as f:
    f.write("#!/bin/sh\n[ \"$1\" = --gtest_list_tests ] && printf 'Sim/ErratumBuckets.\\n  x/sr_wrap\\n'\nexit 0\n")
os.chmod(erratum_fake, 0o755)


def night(name, drop):
    log = os.path.join(tmp, f"{name}.log")
    env = dict(os.environ, LOG=log, DROP=",".join(sorted(drop)), LANEDIFF_ERRATUM_TEST=erratum_fake)
    env.pop("LANEDIFF", None)
    p = subprocess.run([os.path.join(src, "scripts/nightly.sh"), "--lanediff", fake, "--device", "sim",
                        "--sweep", "full", "--campaign-seconds", "1", "--seed", "1",
                        "--corpus", os.path.join(tmp, f"corpus-{name}"), "--out", os.path.join(tmp, f"out-{name}")],
                       env=env, capture_output=True, text=True)
    if p.returncode not in (0, 1, 2):
        fail(f"nightly.sh ({name}) exit {p.returncode}:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    steps = set()
    for line in open(log):
        w = line.split()
        if w and w[0] in ("sweep", "discriminate", "fuzz") and "--instrs" in w:
            instr = w[w.index("--instrs") + 1]
            target = w[w.index("--targets") + 1]
            steps.add((w[0], target, instr, "--all-modes" in w))
    return steps, open(log).read()


full, _ = night("all", set())
less, less_log = night("less", victims)
for kind in ("sweep", "discriminate", "fuzz"):
    have = {s[2] for s in full if s[0] == kind}
    # Every row a sweep walks (targets --json "sweep": src0, seed, or element for a row with a
    # VGPR-tuple source: every row).
    swept = {r["name"] for r in listing["rows"] if r["sweep"] in ("src0", "seed", "element")}
    if kind == "sweep" and have != swept:
        fail(f"the full night swept {sorted(have)}, not every sweepable row {sorted(swept)}")
    if kind == "fuzz" and have != set(rows):
        fail(f"the full night fuzzed {sorted(have)}, not every row {rows}")
    if kind == "discriminate" and not victims <= have:
        fail(f"the full night asked no questions of {sorted(victims - have)}")
if not any(s[3] for s in full):
    fail("no src0 sweep ran with --all-modes")
want = {s for s in full if s[2] not in victims}
if less != want:
    fail(f"with {sorted(victims)} taken out the night ran {sorted(less ^ want)} differently")
for v in victims:
    if re.search(re.escape(v) + r"(?![0-9a-z])", less_log):
        fail(f"the night without {v} still named it:\n{less_log}")
print(f"nightly: {len(full)} sweep/question/campaign steps with every row, {len(less)} without "
      f"{sorted(victims)}")

# --- nightly.sh --help: the binary's rows, or instrs.def's when no binary is built.
env = dict(os.environ, LANEDIFF=fake, DROP=",".join(sorted(victims)), LOG=os.path.join(tmp, "help.log"))
help_text = subprocess.run([os.path.join(src, "scripts/nightly.sh"), "--help"], env=env, check=True,
                           capture_output=True, text=True).stdout
listed = re.findall(r"^#     (\w+) +(seed|src0|element)$", help_text, re.M)
if [n for n, _ in listed] != [r for r in rows if r not in victims]:
    fail(f"nightly.sh --help lists {listed}, not the binary's rows less {sorted(victims)}:\n{help_text}")
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "scripts"))
os.makedirs(os.path.join(tree, "model"))
shutil.copy(os.path.join(src, "scripts/nightly.sh"), os.path.join(tree, "scripts"))
victim = sorted(victims)[0]
text = open(os.path.join(src, "model/instrs.def")).read()
# The row's line and its designated fields, up to the closing parenthesis.
text = re.sub(r"^LANEDIFF_INSTR\(" + victim + r",.*?\)\n", "", text, flags=re.M | re.S)
open(os.path.join(tree, "model/instrs.def"), "w").write(text)
env = dict(os.environ, LANEDIFF=os.path.join(tmp, "not-built"))
help_text = subprocess.run([os.path.join(tree, "scripts/nightly.sh"), "--help"], env=env, check=True,
                           capture_output=True, text=True).stdout
listed = re.findall(r"^#     (\w+)$", help_text, re.M)
if "is not built" not in help_text or listed != [r for r in rows if r != victim]:
    fail(f"nightly.sh --help without a binary lists {listed}, not instrs.def's rows less {victim}:\n"
         f"{help_text}")

# --- The report's figure: one band pair per row the listing marks src0_map, named by it.
p = subprocess.run([lanediff, "report", "--out", os.path.join(tmp, "report"),
                    os.path.join(src, "fuzz/report/testdata/run.textproto")], capture_output=True, text=True)
if p.returncode != 0:
    fail(f"lanediff report: {p.stdout}{p.stderr}")
html = open(os.path.join(tmp, "report", "report.html")).read()
banded = list(dict.fromkeys(re.findall(r"<title>(\w+), exponent 0, positive", html)))
mapped = [r["name"] for r in listing["rows"] if r["src0_map"]]
if not mapped or banded != mapped:
    fail(f"the report's src0 figure has bands for {banded}, the listing marks {mapped}")
print(f"report: src0 bands for {banded}")
shutil.rmtree(tmp)
print("PASS")
