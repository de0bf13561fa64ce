#!/usr/bin/env python3
"""Every command's --json output against its schema in docs/json.md.

Reads the schema tables from docs/json.md (a `### COMMAND KIND` heading, then a table of
`| \\`key\\` | type[, optional] | meaning |` rows), runs every command that prints results with
--json on the simulator, parses every stdout line with json.loads, and checks each object has
exactly its kind's keys (optional ones may be missing) with the documented JSON types. Every
documented kind must be seen at least once, so no table describes output that never appears.
Usage: json_output_test.py PATH/TO/lanediff SOURCE_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

lanediff, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


# --- the schemas
schemas = {}  # (command, kind) -> {key: (type, optional)}
current = None
with open(os.path.join(src, "docs", "json.md"), encoding="utf-8") as f:
    for line in f:
        m = re.match(r"^### (\S+) (\S+)\s*$", line)
        if m:
            current = (m.group(1), m.group(2))
            schemas[current] = {}
            continue
        if current and line.startswith("| `"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            key = cells[0].strip("`")
            kind = [t.strip() for t in cells[1].split(",")]
            schemas[current][key] = (kind[0], "optional" in kind[1:])
        elif current and line.startswith("##") :
            current = None
if len(schemas) < 12:
    fail(f"docs/json.md: only {len(schemas)} schema tables found")

PY_TYPES = {"string": str, "number": (int, float), "bool": bool, "array": list, "object": dict}
seen = set()


def check(command, kind, obj, where):
    schema = schemas.get((command, kind))
    if schema is None:
        fail(f"{where}: no schema '### {command} {kind}' in docs/json.md for {obj}")
        return
    seen.add((command, kind))
    for key, (typ, optional) in schema.items():
        if key not in obj:
            if not optional:
                fail(f"{where}: {command} {kind} lacks '{key}': {json.dumps(obj)[:300]}")
            continue
        want = PY_TYPES[typ]
        value = obj[key]
        if typ == "number" and isinstance(value, bool) or not isinstance(value, want):
            fail(f"{where}: {command} {kind} '{key}' is {type(value).__name__}, docs say {typ}")
    extra = set(obj) - set(schema)
    if extra:
        fail(f"{where}: {command} {kind} has undocumented keys {sorted(extra)}")


def run_json(command, args, want_rc, kind_of, stdin=""):
    p = subprocess.run([lanediff, command, "--json", *args], input=stdin, capture_output=True,
                       text=True, cwd=work)
    where = f"lanediff {command} --json {' '.join(args)}"
    if p.returncode != want_rc:
        fail(f"{where}: exit {p.returncode}, want {want_rc}; stderr: {p.stderr[-500:]}")
    lines = p.stdout.splitlines()
    if not lines:
        fail(f"{where}: nothing on stdout")
    objs = []
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            fail(f"{where}: stdout line {n} is not JSON ({e}): {line[:200]!r}")
            continue
        if not isinstance(obj, dict):
            fail(f"{where}: stdout line {n} is not an object")
            continue
        check(command, kind_of(obj), obj, f"{where} line {n}")
        objs.append(obj)
    return objs


by_type = lambda obj: obj.get("type", "?")
work = tempfile.mkdtemp(prefix="lanediff-json-")
try:
    # eval: a row and an error row, aligned with the input.
    rows = run_json("eval", ["--targets", "gfx1201", "--instrs", "v_cvt_sr_fp8_f32"], 1,
                    lambda o: "error" if "error" in o else "row",
                    stdin="3fffffff fffff000 0 0\nnot hex\n3fffffff fffff000 0 0\n")
    # 0x40: README.md's tour, the same lane (model default sr_rounding=carry_truncate).
    if [r.get("line") for r in rows] != [1, 2, 3] or rows[0].get("vdst") != "0x00000040":
        fail(f"eval --json rows: {rows}")

    # fuzz with a planted erratum: findings, then the summary.
    objs = run_json("fuzz", ["--device=sim", "--inject", "sr_wrap", "--targets", "gfx950",
                             "--instrs", "v_cvt_sr_fp8_f32", "--execs", "40", "--quiet",
                             "--corpus", "c"], 1, by_type)
    if [o.get("type") for o in objs][-1:] != ["summary"] or len(objs) < 2:
        fail(f"fuzz --json: want findings then a summary: {[o.get('type') for o in objs]}")
    for o in objs[:-1]:
        if not os.path.isfile(os.path.join(work, o.get("path", ""))):
            fail(f"fuzz --json: finding path {o.get('path')} is not a file")
    # With two workers each streams its own findings: whole lines, one per signature.
    objs = run_json("fuzz", ["--device=sim", "--inject", "sr_wrap", "--instrs", "v_cvt_sr_fp8_f32",
                             "--execs", "80", "--jobs", "2", "--quiet", "--corpus", "c2"], 1,
                    by_type)
    sigs = [o.get("signature") for o in objs if o.get("type") == "finding"]
    summary = objs[-1] if objs else {}
    if not sigs or len(sigs) != len(set(sigs)) or summary.get("new_findings") != len(sigs):
        fail(f"fuzz --json --jobs 2: finding lines {sigs} vs summary {summary}")

    # replay: the findings, and one malformed file.
    with open(os.path.join(work, "broken.textproto"), "w") as f:
        f.write("testcase {\n")
    run_json("replay", ["--device=sim", "--inject", "sr_wrap", "c/findings", "broken.textproto"],
             1, by_type)
    run_json("triage", ["c"], 1, lambda o: "bucket")

    # sweeps: a pk_u8 range and one SR src0's seeds.
    run_json("sweep", ["--targets", "gfx942", "--instrs", "v_cvt_pk_u8_f32", "--device=sim",
                       "--first", "0", "--last", "4096"], 0, by_type)
    run_json("sweep", ["--targets", "gfx1201", "--instrs", "v_cvt_sr_fp8_f32", "--device=sim",
                       "--src0", "3f800001", "--last", "4096"], 0, by_type)

    # discriminate, with and without a device.
    objs = run_json("discriminate", ["--targets", "gfx950", "--instrs", "v_cvt_sr_fp8_f32",
                                     "--device=sim", "--inject", "nan_sign"], 0, by_type)
    if not objs or objs[-1].get("type") != "verdict" or not objs[-1].get("asked"):
        fail("discriminate --json: the last line must be the verdict of the device")
    run_json("discriminate", ["--targets", "gfx942", "--instrs", "v_cvt_sr_fp8_f32",
                              "--device=none"], 0, by_type)

    # fidelity: one row with a planted reading (fp8_to_f32_nan=negative_quiet), then the summary.
    objs = run_json("fidelity", ["--device=sim", "--inject", "nan_decode_negative", "--targets",
                                 "gfx1201", "--instrs", "v_cvt_f32_fp8"], 1, by_type)
    if not objs or objs[-1].get("type") != "summary" or objs[-1].get("deviations") != 1:
        fail(f"fidelity --json: want rule lines then a summary with one deviation: {objs[-1:]}")
    if [o.get("verdict") for o in objs if o.get("deviation")] != ["negative_quiet"]:
        fail(f"fidelity --json: the deviation must be negative_quiet: {objs}")

    run_json("targets", [], 0, lambda o: "targets")
    subprocess.run([lanediff, "record", "--device=sim", "--out", "rec/r.textproto",
                    os.path.join(src, "corpus", "seeds", "v_cvt_pk_u8_f32")], cwd=work,
                   capture_output=True)
    objs = run_json("devices", ["--selftest", "--device=sim", "--targets", "gfx942", "--out",
                                "st.textproto"], 0, lambda o: o.get("type", "?"))
    if not objs or objs[-1].get("type") != "selftest" or not objs[-1].get("ok"):
        fail(f"devices --selftest --json: the last line must be the passing verdict: {objs[-1:]}")
    objs = run_json("devices", ["--replay-dir", "rec"], 0, lambda o: "devices")
    if objs and len(objs[0].get("replay", [])) != 1:
        fail(f"devices --json --replay-dir: want the one recording, got {objs[0].get('replay')}")
finally:
    shutil.rmtree(work, ignore_errors=True)

for key in sorted(set(schemas) - seen):
    fail(f"docs/json.md documents '{key[0]} {key[1]}' but no run printed one")
print(f"{len(schemas)} schemas, {len(seen)} seen")
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("PASS")
