#!/usr/bin/env python3
"""No function body in the C++ sources is longer than 120 lines without a reason.

Scans every .cc/.h under model/, device_harness/, fuzz/, proto/ and corpus/ (generated
files, *.pb.cc/*.pb.h and build trees, are skipped) and finds function bodies: free and
member functions (also those defined inside a class), constructors with member initialiser
lists, TEST/TEST_F bodies, and lambdas defined outside any function. A lambda inside a
function is part of that function's length. Namespace, class, enum and initialiser braces
are not functions. Comments, string and character literals (raw strings too) and
preprocessor lines are blanked before braces are matched.

A body's length is the count of lines from its opening brace to its closing brace. A body
over LIMIT lines fails the test unless a comment line starting `// Long:` (saying why, e.g.
a data table or a switch over every enumerator) is in the comment block directly above the
function or opens its body.

Prints the five longest functions (name, file:line, lines) and every violation.

  python3 scripts/function_length_test.py [REPO_ROOT]
"""

import fnmatch
import os
import re
import sys

LIMIT = 120
ROOTS = ("model", "device_harness", "fuzz", "proto", "corpus")

SCOPE_KEYWORDS = re.compile(r"\b(namespace|class|struct|union|enum|extern)\b")
# A head (the text since the last ';', '{' or '}' at this level) that ends a function
# signature: ')' then qualifiers, or a trailing return type.
FUNCTION_END = re.compile(
    r"\)\s*(?:const|override|final|noexcept(?:\([^)]*\))?|mutable|constexpr|&&|&|\s)*"
    r"(?:->\s*[^;{}=]+)?$")
CTOR_INIT = re.compile(r"\)\s*(?:noexcept\s*)?:(?!:)")
CONTROL = re.compile(r"^(if|for|while|switch|catch|else|do|try|return)\b")


def blank(text):
    """`text` with comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = c == "\n"
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "R" and text.startswith('R"', i) and
                          (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            if c == "R":
                m = re.match(r'R"([^(\s]*)\(', text[i:])
                end = text.find(")" + m.group(1) + '"', i) if m else -1
                j = n if end < 0 else end + len(m.group(1)) + 2
            else:
                j = i + 1
                while j < n and text[j] != '"' and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                j = min(j + 1, n)
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + '"')
            i = j
        elif c == "'":
            if i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")  # digit separator: 1'000'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def name_of(head):
    """The function's name from its head: `Foo::Bar`, `TEST(Suite, Case)`, `lambda`."""
    h = " ".join(head.split())
    h = re.sub(r"^(?:public|private|protected)\s*:\s*", "", h)
    m = re.search(r"([~\w:]*operator\s*(?:\(\)|[^\s(]+))\s*\(", h)
    if m:
        return m.group(1)
    depth = 0
    for k, ch in enumerate(h):
        if ch == "<":
            depth += 1
        elif ch == ">" and depth > 0:
            depth -= 1
        elif ch == "(" and depth == 0:
            m = re.search(r"([~\w:]+|operator\s*\S+?)\s*$", h[:k])
            name = m.group(1) if m else h[:k].strip() or "lambda"
            if re.fullmatch(r"(?:TYPED_)?TEST(?:_F|_P)?|[A-Z]+_[A-Z0-9_]+", name):  # TEST(Suite, Case)
                close = h.find(")", k)
                return name + h[k:close + 1]
            return name
    return "lambda" if "[" in h else h[-40:]


def functions(text):
    """Yields (name, head_line, open_line, close_line) for every function body in `text`."""
    b = blank(text)
    line_of = []
    line = 1
    for ch in b:
        line_of.append(line)
        if ch == "\n":
            line += 1
    found = []
    # Stack of scopes: each entry is "scope" (namespace/class), "init" (a brace initialiser)
    # or ("function", name, head_line, open_line). Inside a function, braces only nest.
    stack = []
    head_start = 0
    i = 0
    n = len(b)
    init_depth = 0  # open initialiser braces at a scope level (part of the pending head)
    while i < n:
        c = b[i]
        in_function = any(isinstance(s, tuple) for s in stack)
        if in_function:
            if c == "{":
                stack.append("inner")
            elif c == "}":
                top = stack.pop()
                if isinstance(top, tuple):
                    found.append((top[1], top[2], top[3], line_of[i]))
                    head_start = i + 1
            i += 1
            continue
        if init_depth:
            if c == "{":
                init_depth += 1
            elif c == "}":
                init_depth -= 1
            i += 1
            continue
        if c == ";":
            head_start = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            head_start = i + 1
        elif c == "{":
            head = b[head_start:i]
            stripped = " ".join(head.split())
            collapsed = re.sub(r"\{[^{}]*\}", "{}", stripped)
            body = bool(FUNCTION_END.search(collapsed)) or stripped.endswith("]") or (
                collapsed.endswith(("}", ")")) and CTOR_INIT.search(collapsed) is not None)
            if body and not CONTROL.match(stripped) and not re.search(r"=\s*$", stripped):
                start = head_start + len(head) - len(head.lstrip())
                # Access specifiers before the signature are not part of it.
                m = re.match(r"(?:public|private|protected)\s*:\s*", b[start:i])
                if m:
                    start += m.end()
                stack.append(("function", name_of(head), line_of[start], line_of[i]))
            elif SCOPE_KEYWORDS.search(stripped) and "=" not in stripped and "(" not in stripped:
                stack.append("scope")
                head_start = i + 1
            else:
                init_depth = 1  # `= {`, `x{...}`, a base-class or member initialiser
        i += 1
    return found


def has_long_reason(lines, head_line, open_line):
    """A `// Long:` line in the comment block directly above the head, or opening the body."""
    k = head_line - 2
    while k >= 0 and lines[k].strip().startswith("//"):
        if lines[k].strip().startswith("// Long:"):
            return True
        k -= 1
    k = open_line
    while k < len(lines) and lines[k].strip().startswith("//"):
        if lines[k].strip().startswith("// Long:"):
            return True
        k += 1
    return False


def generated(path):
    return path.endswith((".pb.cc", ".pb.h")) or "/build" in path


def scan(root):
    results = []  # (lines, rel, head_line, name, has_reason)
    for top in ROOTS:
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if not x.startswith(("build", ".")))
            for f in sorted(files):
                if not f.endswith((".cc", ".h")):
                    continue
                p = os.path.join(d, f)
                rel = os.path.relpath(p, root)
                if generated(rel):
                    continue
                with open(p, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                lines = text.split("\n")
                for name, head_line, open_line, close_line in functions(text):
                    length = close_line - open_line + 1
                    results.append((length, rel, head_line, name,
                                    has_long_reason(lines, head_line, open_line)))
    return results


def self_check():
    """The detector on hand-written snippets of this codebase's style (a test that can fail)."""
    body = "\n".join("  x += %d;" % k for k in range(130))
    sample = (
        "namespace lanediff {\nnamespace {\n"
        "struct Row { int a; };\n"
        "constexpr Row kRows[] = {\n  {1},\n  {2},\n};\n"
        "class Foo : public Bar {\n public:\n  Foo(int a) : a_(a), b_{a} {\n  }\n"
        "  int Get() const { return a_; }\n"
        "  friend bool operator<(const Foo& a, const Foo& b) { return a.a_ < b.a_; }\n"
        "  int Long() const {\n" + body + "\n    return 0;\n  }\n"
        " private:\n  int a_, b_;\n};\n"
        "}  // namespace\n"
        "// Long: a table.\n"
        "absl::StatusOr<std::vector<int>> Table(const std::string& s) {\n" + body + "\n"
        "  auto f = [&](int v) {\n    return v;\n  };\n  const char* t = \"{\";\n  return {};\n}\n"
        "TEST(Suite, Case) {\n  EXPECT_EQ(R\"({)\", '{');\n}\n"
        "const auto kInit = [] {\n  return 1;\n}();\n"
        "}  // namespace lanediff\n")
    got = [(name, o, c) for name, _, o, c in functions(sample)]
    names = [g[0] for g in got]
    want = ["Foo", "Get", "operator<", "Long", "Table", "TEST(Suite, Case)", "lambda"]
    assert names == want, f"self-check: found {names}, want {want}"
    lines = sample.split("\n")
    by_name = {name: (h, o, c) for name, h, o, c in functions(sample)}
    assert by_name["Long"][2] - by_name["Long"][1] + 1 == 133, by_name["Long"]
    assert not has_long_reason(lines, by_name["Long"][0], by_name["Long"][1])
    assert has_long_reason(lines, by_name["Table"][0], by_name["Table"][1])


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    self_check()
    results = scan(root)
    if not results:
        print(f"no functions found under {root}: wrong root?")
        return 1
    results.sort(key=lambda r: (-r[0], r[1], r[2]))
    print(f"{len(results)} functions; the five longest:")
    for length, rel, line, name, reason in results[:5]:
        print(f"  {length:4d} lines  {rel}:{line}  {name}{'  (// Long:)' if reason else ''}")
    bad = [r for r in results if r[0] > LIMIT and not r[4]]
    for length, rel, line, name, _ in bad:
        print(f"FAIL {rel}:{line} {name}: body of {length} lines > {LIMIT}; split it into named "
              f"steps, or say why it must stay long in a `// Long:` comment line at its top")
    if bad:
        print(f"{len(bad)} function(s) over {LIMIT} lines without a `// Long:` reason")
        return 1
    print(f"ok: no function over {LIMIT} lines without a `// Long:` reason")
    return 0


if __name__ == "__main__":
    sys.exit(main())
