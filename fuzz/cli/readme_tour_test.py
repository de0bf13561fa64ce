#!/usr/bin/env python3
"""The READMEs' commands, executed.

Every fenced ```sh block of README.md and device_harness/README.md is a command block. The
convention, stated in README.md ("The README's commands are run by a test"):
  - each block runs in a fresh temporary directory that holds a symbolic link to each of the
    checkout's top-level entries (so `corpus/seeds` and `device_harness/serve/...` resolve;
    `corpus` itself is a fresh directory holding a link to the seeds, so everything written
    lands in the temporary directory), with the built lanediff first on
    PATH; a block's lines run one after another in that directory, each in its own
    `bash -c` (a line ending in `\\` continues on the next);
  - a line's expected exit status is 0 unless its comment starts with `# exit N`;
  - a comment line `#=> TEXT` right after a command (or after another such line) is output the
    command must print: some line of its stdout, stripped of surrounding white space, equals
    TEXT;
  - a block whose first line is `# not run by the README test: REASON` is not run, and this
    test prints it as SKIPPED with the reason (a GPU, root, Slurm, a whole build);
  - a fenced block with no language, or `bash`/`shell`/`console`, is an error here: a command
    block is `sh`, anything else says what it is (python, text).
Fails if any command exits otherwise than its line says, or a block breaks the convention.
Usage: readme_tour_test.py PATH/TO/lanediff SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

lanediff, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
READMES = ["README.md", "device_harness/README.md"]
SKIP = re.compile(r"^#\s*not run by the README test:\s*(.+)$")
EXIT = re.compile(r"#\s*exit\s+(\d+)\b")
EXPECT = re.compile(r"^\s*#=>\s?(.*)$")
TIMEOUT_S = 600  # per command; a hang fails instead of blocking CTest

failures = []
skipped = 0
ran = 0


def blocks_of(path):
    """(line number of the fence, info string, [lines]) for each fenced block."""
    out, current = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            fence = re.match(r"^(\s*)```(.*)$", line.rstrip("\n"))
            if fence and current is None:
                current = (n, fence.group(2).strip(), [], len(fence.group(1)))
            elif fence and current is not None:
                out.append(current[:3])
                current = None
            elif current is not None:
                current[2].append(line.rstrip("\n")[current[3]:])
    return out


def commands_of(lines):
    """(command, expected exit, [expected stdout lines]) for each command of a block,
    continuations joined."""
    cmds, pending, last = [], "", None
    for line in lines:
        expect = EXPECT.match(line)
        if not pending and expect:
            if last is None:
                raise ValueError(f"'{line.strip()}' follows no command")
            last[2].append(expect.group(1).strip())
            continue
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            last = None
            continue
        if line.endswith("\\"):
            pending += line + "\n"  # bash sees the lines as the README shows them
            continue
        cmd = pending + line
        pending = ""
        m = EXIT.search(cmd)
        last = (cmd, int(m.group(1)) if m else 0, [])
        cmds.append(last)
    return cmds


if not os.environ.get("LANEDIFF_TOUR_FIXTURE"):
    # The test can fail: on READMEs whose commands exit otherwise than they say (`false`, and
    # `true # exit 1`), an untagged block and a command that does not print its `#=>` line
    # (`echo hi` / `#=> bye`; `#=> ok` matches the stripped line), it must report exactly
    # those four.
    fixture = tempfile.mkdtemp(prefix="lanediff-tour-fixture-")
    os.makedirs(os.path.join(fixture, "device_harness"))
    with open(os.path.join(fixture, "README.md"), "w") as f:
        f.write("```sh\ntrue\nfalse\n```\n```sh\n# not run by the README test: a reason\nfalse\n"
                "```\n```\nuntagged\n```\n```sh\necho '  ok  '\n#=> ok\necho hi\n#=> bye\n```\n")
    with open(os.path.join(fixture, "device_harness", "README.md"), "w") as f:
        f.write("   ```sh\n   true   # exit 1: indented blocks count\n   ```\n")
    p = subprocess.run([sys.executable, __file__, lanediff, fixture], capture_output=True,
                       text=True, env=dict(os.environ, LANEDIFF_TOUR_FIXTURE="1"))
    shutil.rmtree(fixture, ignore_errors=True)
    if p.returncode != 1 or "4 failures" not in p.stdout or "SKIPPED" not in p.stdout:
        print("FAIL: the fixture READMEs were not caught as they must be:\n" + p.stdout)
        sys.exit(1)
    print("fixture: a failing line, a wrong exit code, an untagged block and a missing "
          "output line are caught")

bindir = tempfile.mkdtemp(prefix="lanediff-tour-bin-")
os.symlink(os.path.abspath(lanediff), os.path.join(bindir, "lanediff"))
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
entries = [e for e in os.listdir(src) if e not in (".git", "build")]

for readme in READMES:
    for start, info, lines in blocks_of(os.path.join(src, readme)):
        where = f"{readme}:{start}"
        if info in ("", "bash", "shell", "console"):
            failures.append(f"{where}: a fenced block needs a language: sh for commands, "
                            f"or what it is (python, text)")
            print(f"FAIL {where}: fenced block with info string {info!r}")
            continue
        if info != "sh":
            continue
        first = next((l for l in lines if l.strip()), "")
        skip = SKIP.match(first.strip())
        if skip:
            skipped += 1
            print(f"SKIPPED {where}: {skip.group(1)}")
            continue
        work = tempfile.mkdtemp(prefix="lanediff-tour-")
        for e in entries:
            if e == "corpus":
                # A real directory, so that a command writing corpus/findings writes here, not
                # into the checkout; its seeds are the checkout's.
                os.mkdir(os.path.join(work, e))
                os.symlink(os.path.join(src, e, "seeds"), os.path.join(work, e, "seeds"))
                continue
            os.symlink(os.path.join(src, e), os.path.join(work, e))
        try:
            cmds = commands_of(lines)
        except ValueError as e:
            failures.append(f"{where}: {e}")
            print(f"FAIL {where}: {e}")
            continue
        for cmd, want, expected in cmds:
            ran += 1
            t0 = time.monotonic()
            try:
                p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True,
                                   text=True, errors="replace", timeout=TIMEOUT_S)
                rc, out, err = p.returncode, p.stdout, p.stderr
            except subprocess.TimeoutExpired as e:
                rc, out, err = "timeout", str(e.stdout or ""), str(e.stderr or "")
            took = time.monotonic() - t0
            printed = {l.strip() for l in out.splitlines()}
            missing = [e for e in expected if e not in printed]
            status = "ok" if rc == want and not missing else "FAIL"
            print(f"{status} {where} [{took:.1f} s] exit {rc} (README: {want}): {cmd}")
            for e in expected:
                print(f"    {'missing' if e in missing else 'printed'}: {e}")
            if rc != want:
                failures.append(f"{where}: `{cmd}` exited {rc}, README says {want}")
            if missing:
                failures.append(f"{where}: `{cmd}` did not print the line(s) the README shows: "
                                + "; ".join(missing))
            if status == "FAIL":
                for stream in (out, err):
                    for l in stream.splitlines()[-15:]:
                        print("    " + l)
        shutil.rmtree(work, ignore_errors=True)

shutil.rmtree(bindir, ignore_errors=True)
print(f"{ran} commands run, {skipped} blocks skipped, {len(failures)} failures")
if ran == 0:
    failures.append("no command was run: the READMEs have no sh block")
if failures:
    for f in failures:
        print("FAIL:", f)
    sys.exit(1)
print("PASS")
