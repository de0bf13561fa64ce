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
    """(command, expected exit) for each command of a block, continuations joined."""
    cmds, pending = [], ""
    for line in lines:
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line + "\n"  # bash sees the lines as the README shows them
            continue
        cmd = pending + line
        pending = ""
        m = EXIT.search(cmd)
        cmds.append((cmd, int(m.group(1)) if m else 0))
    return cmds


if not os.environ.get("LANEDIFF_TOUR_FIXTURE"):
    # The test can fail: on READMEs whose commands exit otherwise than they say (`false`, and
    # `true # exit 1`), and with an untagged block, it must report exactly those three.
    fixture = tempfile.mkdtemp(prefix="lanediff-tour-fixture-")
    os.makedirs(os.path.join(fixture, "device_harness"))
    with open(os.path.join(fixture, "README.md"), "w") as f:
        f.write("```sh\ntrue\nfalse\n```\n```sh\n# not run by the README test: a reason\nfalse\n"
                "```\n```\nuntagged\n```\n")
    with open(os.path.join(fixture, "device_harness", "README.md"), "w") as f:
        f.write("   ```sh\n   true   # exit 1: indented blocks count\n   ```\n")
    p = subprocess.run([sys.executable, __file__, lanediff, fixture], capture_output=True,
                       text=True, env=dict(os.environ, LANEDIFF_TOUR_FIXTURE="1"))
    shutil.rmtree(fixture, ignore_errors=True)
    if p.returncode != 1 or "3 failures" not in p.stdout or "SKIPPED" not in p.stdout:
        print("FAIL: the fixture READMEs were not caught as they must be:\n" + p.stdout)
        sys.exit(1)
    print("fixture: a failing line, a wrong exit code and an untagged block are caught")

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
        for cmd, want in commands_of(lines):
            ran += 1
            t0 = time.monotonic()
            try:
                p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True,
                                   text=True, errors="replace", timeout=TIMEOUT_S)
                rc, out, err = p.returncode, p.stdout, p.stderr
            except subprocess.TimeoutExpired as e:
                rc, out, err = "timeout", str(e.stdout or ""), str(e.stderr or "")
            took = time.monotonic() - t0
            status = "ok" if rc == want else "FAIL"
            print(f"{status} {where} [{took:.1f} s] exit {rc} (README: {want}): {cmd}")
            if rc != want:
                failures.append(f"{where}: `{cmd}` exited {rc}, README says {want}")
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
