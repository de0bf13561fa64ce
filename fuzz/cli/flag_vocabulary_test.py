#!/usr/bin/env python3
"""One flag vocabulary across every lanediff subcommand.

Checks, on the built binary:
  - every flag of every subcommand (and of `corpus merge` / `corpus check`) is a row of the
    flag table (fuzz/cli/flag_table.cc, printed by hidden `lanediff --list-vocabulary`), with
    the table's metavar; no command declares a deprecated spelling;
  - no two spellings of one concept exist outside the deprecation list: no two table rows are
    the same word up to a plural `s`, and none is a known synonym of another (SYNONYMS below:
    spellings once found side by side);
  - every deprecated spelling still works, in every command that takes its new name, with
    exactly one `deprecated` line on stderr;
  - every value flag's --help line shows its default (or says it is required); --device
    defaults to auto everywhere; every --help line fits 100 columns;
  - `lanediff help COMMAND` prints COMMAND's --help; mistyped commands, verbs and flags get a
    did-you-mean.
Usage: flag_vocabulary_test.py PATH/TO/lanediff
"""
import subprocess
import sys

lanediff = sys.argv[1]
failures = []


def run(*args):
    p = subprocess.run([lanediff, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


# The spellings that once named one concept in two ways: each group may have at
# most one member in the table; the others must be deprecated spellings of it.
SYNONYMS = [
    {"target", "targets"},
    {"instr", "instrs", "instruction", "instructions"},
    {"time", "seconds", "duration"},
    {"campaign-time", "campaign-seconds"},
    {"out", "output", "summary-out", "into", "bundle", "dest"},
    {"timeout", "batch-timeout"},
]

rc, vocab, _ = run("--list-vocabulary")
table, deprecated = {}, {}
for line in vocab.splitlines():
    f = line.split("\t")
    if f[0] == "flag":
        table[f[1]] = {"kind": f[2], "metavar": f[3]}
    elif f[0] == "deprecated":
        deprecated[f[1]] = f[2]
if rc != 0 or len(table) < 20 or not deprecated:
    fail(f"--list-vocabulary: exit {rc}, {len(table)} flags, {len(deprecated)} deprecated")

# No two spellings of one concept in the table.
stems = {}
for name in table:
    stem = name[:-1] if name.endswith("s") else name
    if stem in stems:
        fail(f"--{name} and --{stems[stem]} differ only by a plural s")
    stems[stem] = name
for group in SYNONYMS:
    live = sorted(group & set(table))
    if len(live) > 1:
        fail(f"one concept, several table spellings: {live}")
    for old in group - set(table):
        if old in deprecated and deprecated[old] and deprecated[old] not in live:
            fail(f"--{old} is deprecated in favour of --{deprecated[old]}, not of {live}")
for old, new in deprecated.items():
    if old in table:
        fail(f"--{old} is both a table flag and a deprecated spelling")
    if new and new not in table:
        fail(f"--{old} maps to --{new}, which is not in the table")

# Every command's flags, from the command itself.
rc, cmds, _ = run("--list-commands")
commands = [line.split("\t")[0] for line in cmds.splitlines()]
if rc != 0 or len(commands) < 10:
    fail(f"--list-commands: exit {rc}: {commands}")
invocations = []
for c in commands:
    _, listed, _ = run(c, "--list-flags")
    verbs = [l.split("\t")[0] for l in listed.splitlines() if not l.startswith("--")]
    invocations += [[c, v] for v in verbs] or [[c]]

flags_of = {}
for inv in invocations:
    rc, listed, err = run(*inv, "--list-flags")
    name = " ".join(inv)
    if rc != 0:
        fail(f"{name} --list-flags: exit {rc}: {err.strip()}")
        continue
    flags = {}
    for line in listed.splitlines():
        flag, metavar, _ = line.split("\t", 2)
        flags[flag[2:]] = metavar
    flags.pop("help", None)
    flags_of[name] = flags
    for flag, metavar in flags.items():
        if flag not in table:
            fail(f"lanediff {name}: --{flag} is not in the flag table")
        elif table[flag]["metavar"] != metavar:
            fail(f"lanediff {name}: --{flag} {metavar}, table says {table[flag]['metavar']}")
        if flag in deprecated:
            fail(f"lanediff {name}: declares the deprecated --{flag}")

    # Every value flag's help shows its default, or says it is required.
    rc, help_text, _ = run(*inv, "--help")
    blocks, current = {}, None
    for line in help_text.splitlines():
        if line.startswith("  --"):
            current = line.split()[0][2:]
            blocks[current] = line
        elif current and line.startswith(" " * 20):
            blocks[current] += " " + line.strip()
        else:
            current = None
    for flag in flags:
        if table.get(flag, {}).get("kind") == "switch":
            continue
        text = blocks.get(flag, "").lower()
        if "default" not in text and "required" not in text:
            fail(f"lanediff {name} --help: --{flag} shows no default: {blocks.get(flag)!r}")

    # The help fits 100 columns.
    for line in help_text.splitlines():
        if len(line) > 100:
            fail(f"lanediff {name} --help: a line of {len(line)} columns: {line!r}")

    # --device defaults to auto in every command that takes it.
    if "device" in flags and "default: auto" not in blocks.get("device", ""):
        fail(f"lanediff {name} --help: --device does not default to auto: {blocks.get('device')!r}")

    # lanediff help COMMAND is COMMAND --help.
    if len(inv) == 1:
        rc2, via_help, _ = run("help", inv[0])
        if rc2 != 0 or via_help != help_text:
            fail(f"lanediff help {inv[0]} differs from lanediff {inv[0]} --help (exit {rc2})")

# Deprecated spellings keep working wherever the new name exists, with one line on stderr.
for old, new in deprecated.items():
    takers = [n for n, f in flags_of.items() if (new and new in f) or (not new and n == "asm")]
    if not takers:
        fail(f"--{old}: no command takes --{new}")
    for name in takers:
        kind = table[new]["kind"] if new else "switch"
        value = [] if kind == "switch" else ["1"] if kind in ("uint", "hex", "number") else ["x"]
        rc, _, err = run(*name.split(), f"--{old}", *value, "--help")
        lines = [l for l in err.splitlines() if "deprecated" in l]
        if rc != 0 or len(lines) != 1 or len(err.splitlines()) != 1:
            fail(f"lanediff {name} --{old}: exit {rc}, stderr {err!r}")

# Did you mean.
for args, want in [(["swep"], "did you mean 'sweep'?"),
                   (["corpus", "marge"], "did you mean 'merge'?"),
                   (["sweep", "--devcie", "sim"], "did you mean --device?"),
                   (["fuzz", "--taget", "gfx942"], "did you mean --targets?"),
                   (["help", "discrimnate"], "did you mean 'discriminate'?")]:
    rc, _, err = run(*args)
    if rc != 2 or want not in err:
        fail(f"lanediff {' '.join(args)}: exit {rc} (want 2), stderr lacks {want!r}: {err[:200]!r}")

rc, out, _ = run("help", "flags")
if rc != 0 or "--targets" not in out or "--summary-out" not in out:
    fail(f"lanediff help flags: exit {rc}")

print(f"{len(table)} flags, {len(deprecated)} deprecated spellings, {len(flags_of)} commands checked")
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("PASS")
