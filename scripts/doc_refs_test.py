#!/usr/bin/env python3
"""Docs and comments say true things about the repository: every reference they make resolves.

Over every tracked text file (git ls-files), this fails on:
  1. a citation of a tracker issue (the word issue or issues, then a number, "#" optional;
     ISSUE_RE): the tracker is not in the repository, so a comment says what the code does or
     guards instead. An upstream report is cited by what it is (its repository and number or
     URL, e.g. "llvm-project #151411"), which this pattern does not match;
  2. the semantics notes or a design file named as a project file by a name the repository
     does not have (the upper-case SEMANTICS/DESIGN spellings); the notes are docs/semantics.md;
  3. a repository-relative path in a doc or a comment - a word starting with a tracked
     top-level directory, such as fuzz/cli/flag_table.cc or docs/json.md - that is neither a
     tracked file nor a directory holding one; so is a word starting with a subdirectory of
     the citing file's folder (hip/launch_pipeline.h in device_harness/README.md), and a path
     counts as resolved from the repository root or from that folder. Docs are the .md and
     .txt files (whole text); comments are // and /* */ text in C++, assembler, .proto and
     .def files, and # text in shell, CMake, Python (and its docstrings), textproto and YAML.
     A path in double quotes is a string value (an example argument or message such as
     "corpus/findings/x.textproto"), not a reference, and is not checked; nor is one in <>
     below a folder (<hip/hip_runtime.h>, a system header); nor is code (the compiler checks
     #include). Where the path goes on as a pattern (model/ops/<mnemonic>.cc, model/ops/*.cc,
     {a,b}), the part before the pattern must resolve;
  4. a section of docs/semantics.md with no such heading, cited in a doc or a comment as
     "docs/semantics.md §N[.M]" (also "§3, §5", "§4-5"), or as a bare "§N[.M]" inside
     docs/semantics.md itself.

The only allowance: files generated in the build tree - protoc's outputs (X.pb.h, X.pb.cc) and
configure_file's (X from X.in) - resolve when their tracked source (X.proto, X.in) exists.
This file is left out of checks 1 and 2 only because it spells the patterns it looks for.

  python3 scripts/doc_refs_test.py [REPO]     # lists every violation; exit 1 if any
"""
import os
import re
import subprocess
import sys

ISSUE_RE = re.compile(r"\b[Ii]ssues? #?[0-9]+")
WRONG_NAME_RE = re.compile(r"(?<![\w/.-])(?:SEMANTICS|DESIGN)\.md\b")
SEMANTICS = "docs/semantics.md"
# A section list after the notes' path: "§3", "§3, §5", "§4-5", "§2 and §6", "§10.2".
SECTIONS_RE = re.compile(r"(?:'s)?\s*(§\s?[0-9]+(?:\.[0-9]+)?"
                         r"(?:\s*(?:,|and|/)\s*§\s?[0-9]+(?:\.[0-9]+)?|-[0-9]+(?:\.[0-9]+)?)*)")
SECTION_NUM_RE = re.compile(r"[0-9]+(?:\.[0-9]+)?")
BARE_SECTION_RE = re.compile(r"§\s?([0-9]+(?:\.[0-9]+)?)")
HEADING_RE = re.compile(r"^#+\s+([0-9]+(?:\.[0-9]+)*)\.?\s", re.M)
SELF = "scripts/doc_refs_test.py"


C_LIKE = (".h", ".cc", ".cpp", ".c", ".s", ".proto", ".def")
HASH = (".sh", ".cmake", ".textproto", ".yml", ".yaml", ".sbatch", ".options", ".dict")
DOCS = (".md", ".txt")


def comments(name, text):
    """Per line, the part that is a doc or a comment ("" for code and data)."""
    lines = text.splitlines()
    base = os.path.basename(name)
    if name.endswith(DOCS) and base != "CMakeLists.txt":
        return lines
    out = []
    if name.endswith(C_LIKE):
        in_block = False
        for line in lines:
            part = ""
            if in_block:
                end = line.find("*/")
                part, in_block = (line, True) if end < 0 else (line[:end], False)
            else:
                m = re.search(r"(?<![:\\])//|/\*", line)
                if m and m.group(0) == "//":
                    part = line[m.end():]
                elif m:
                    rest = line[m.end():]
                    end = rest.find("*/")
                    part, in_block = (rest, True) if end < 0 else (rest[:end], False)
            out.append(part)
        return out
    if name.endswith(".py"):
        in_doc = False
        for line in lines:
            quotes = line.count('\"\"\"')
            if in_doc or quotes:
                out.append(line)
                in_doc = in_doc != (quotes % 2 == 1)
                continue
            m = re.search(r"(?:^|\s)#", line)
            out.append(line[m.end():] if m else "")
        return out
    if name.endswith(HASH) or base in ("CMakeLists.txt", "Dockerfile") or \
            (lines and lines[0].startswith("#!")):
        for line in lines:
            m = re.search(r"(?:^|\s)#", line)
            out.append(line[m.end():] if m else "")
        return out
    return [""] * len(lines)  # data: golden words, corpora in binary form, assembler input


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    files = subprocess.run(["git", "-C", repo, "ls-files", "-z"], check=True,
                           capture_output=True).stdout.decode().split("\0")
    files = [f for f in files if f]
    tracked = set(files)
    dirs = set()
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts)):
            dirs.add("/".join(parts[:i]))
    top = sorted({f.split("/")[0] for f in files if "/" in f}, key=len, reverse=True)
    path_re = re.compile(r"(?<![\w/.$@\"-])((?:" + "|".join(map(re.escape, top)) +
                         r")/[\w./+-]*)")

    with open(os.path.join(repo, SEMANTICS), encoding="utf-8") as fh:
        headings = set(HEADING_RE.findall(fh.read()))
    if not headings:
        print(f"{SEMANTICS}: no numbered headings found; the section check would be vacuous")
        return 1

    def resolves(path, base):
        path = path.rstrip("/")
        for p in (path, os.path.normpath(os.path.join(base, path))):
            if p in tracked or p in dirs:
                return True
            m = re.fullmatch(r"(.*)\.pb\.(?:h|cc)", p)  # generated, see the docstring
            if (m and m.group(1) + ".proto" in tracked) or p + ".in" in tracked:
                return True
        return False

    errors = []
    checked_paths = checked_sections = 0
    for f in files:
        try:
            with open(os.path.join(repo, f), "rb") as fh:
                data = fh.read()
        except OSError as e:  # a tracked file deleted in the worktree
            errors.append(f"{f}: cannot read: {e}")
            continue
        if b"\0" in data:
            continue  # binary
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue  # not text
        base = os.path.dirname(f)
        # Paths relative to the citing file's folder: a word starting with one of its tracked
        # subdirectories and going on below it (hip/launch_pipeline.h in device_harness/).
        subs = sorted({d[len(base) + 1:].split("/")[0] for d in dirs
                       if base and d.startswith(base + "/")}, key=len, reverse=True)
        rel_re = re.compile(r"(?<![\w/.$@\"<-])((?:" + "|".join(map(re.escape, subs)) +
                            r")/[\w.+-][\w./+-]*)") if subs else None
        prose = comments(f, text)
        for n, line in enumerate(text.splitlines(), 1):
            where = f"{f}:{n}"
            if f != SELF:
                for m in ISSUE_RE.finditer(line):
                    errors.append(f"{where}: cites a tracker issue ({m.group(0)!r}): "
                                  f"{line.strip()}")
                for m in WRONG_NAME_RE.finditer(line):
                    errors.append(f"{where}: {m.group(0)} is not a file of this repository "
                                  f"(the notes are {SEMANTICS}): {line.strip()}")
            line = prose[n - 1]
            for m in [*path_re.finditer(line), *(rel_re.finditer(line) if rel_re else [])]:
                path = m.group(1).rstrip(".,:;")
                nxt = line[m.end():m.end() + 1]
                if nxt and nxt in "*<{$[":  # a pattern: its fixed prefix must resolve
                    path = path[:path.rfind("/") + 1] if not path.endswith("/") else path
                checked_paths += 1
                if not resolves(path, base):
                    errors.append(f"{where}: {path} is not a tracked file or directory: "
                                  f"{line.strip()}")
            cites = []
            for m in re.finditer(re.escape(SEMANTICS), line):
                s = SECTIONS_RE.match(line, m.end())
                if s and s.group(1):
                    cites += SECTION_NUM_RE.findall(s.group(1))
            if f == SEMANTICS:
                cites += BARE_SECTION_RE.findall(line)
            for sec in cites:
                checked_sections += 1
                if sec not in headings:
                    errors.append(f"{where}: {SEMANTICS} has no section {sec}: {line.strip()}")

    for e in errors:
        print(e)
    print(f"{len(files)} files, {checked_paths} paths and {checked_sections} sections of "
          f"{SEMANTICS} checked; {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
