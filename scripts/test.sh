#!/usr/bin/env bash
# Set-up, build, run every test. What CI runs (.ci/run calls this).
#   scripts/test.sh            release build + tests, ASan+UBSan build + tests, g++ build (in the
#                              background from the start, at nice 19) + tests, the Slurm example
#                              on a private one-node cluster (sharded == unsharded,
#                              scripts/slurm-smoke.sh; it runs beside the ASan+UBSan build) and
#                              the ClusterFuzzLite build as its image runs it
#                              (scripts/clusterfuzzlite-test.sh)
#   scripts/test.sh --quick    release build + tests only
#   scripts/test.sh --slow     also the `slow` label (exhaustive 2^32 sweeps; nightly)
# Which tests run where (CTest labels, cmake/lanediff.cmake):
#   release  every test but `slow`.
#   asan     every test but `slow` and `once`, plus the libFuzzer parser runs (reliability_*_fuzz).
#   gcc      the tests labelled `compiler` (LANEDIFF_COMPILER_TESTS in cmake/lanediff.cmake says
#            which and why): g++ 12 builds everything but the fuzzers, and the tests whose result
#            depends on the code the compiler generated run (the model's numerics and encodings,
#            the simulator and kernel interpreter, seeded generation and the golden campaign, the
#            triage's decisions from model values).
#   `once`   script tests that read sources (mention, layering, doc references) or check the
#            CLI's text, files and exit codes (README tour, flag vocabulary, --json schemas, paths,
#            asm/disasm and llvm-mc byte diffs, discriminate's table, --shard split, nightly.sh,
#            the Chromium render of report.html, the .deb install). What they check is the same
#            under any compiler or sanitizer; the code computing their output is held by the
#            GoogleTest binaries in every flavour.
# Tests labelled `gpu` run in every flavour (they are `compiler` tests) and skip (CTest "Skipped", exit 77) with a printed
# reason when no AMD GPU is visible. Long GoogleTest binaries run as several CTest entries
# (NAME/1of4 ...) and the longest tests start first (their measured COST), so both cores stay
# busy to the end (LANEDIFF_TEST_SHARDS, LANEDIFF_TEST_COSTS in cmake/lanediff.cmake).
# At the end it prints each flavour's build time and ten slowest tests; CTest's measurements are
# kept in build/test-artifacts/<flavour>/ (ctest-junit.xml: every test's time and output;
# CTestCostData.txt: CTest's running averages, which order the next run; build-seconds.txt).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
quick=0; slow=0
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --slow) slow=1; export LANEDIFF_FUZZ_COVERAGE=ON ;;  # the 10-minute fuzz runs want guidance
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup.sh"
mkdir -p "$root/build"
artifacts="$root/build/test-artifacts"
rm -rf "$artifacts"
mkdir -p "$artifacts"
start_all=$(date +%s)
flavours_run=()
step_times=()

# Sum of the build's edge durations in build/<flavour>/.ninja_log after line $2 (seconds of
# compiler and linker wall time, one core each: on a shared machine this moves less than the
# build's own wall time). Entries of the .ninja_log v5 format: start end mtime output hash (ms).
ninja_seconds() {
  awk -v from="$2" 'NR > from && $1 ~ /^[0-9]+$/ { s += $2 - $1 } END { printf "%.0f", s / 1000 }' \
    "$1/.ninja_log" 2>/dev/null || echo "?"
}

slurm_pid=""
gcc_pid=""
summary() {
  local rc=$?
  # A failure before the g++ build is joined leaves it running: stop its process group.
  if [ -n "$gcc_pid" ] && kill -0 "$gcc_pid" 2>/dev/null; then
    kill -TERM -- "-$gcc_pid" 2>/dev/null || true
  fi
  # A failed build leaves the background Slurm example running: SIGTERM makes it stop its
  # daemons and remove its cluster (scripts/slurm-smoke.sh's cleanup).
  if [ -n "$slurm_pid" ] && kill -0 "$slurm_pid" 2>/dev/null; then
    kill -TERM "$slurm_pid" 2>/dev/null || true
    wait "$slurm_pid" 2>/dev/null || true
  fi
  echo
  echo "=== test.sh summary (total $(( $(date +%s) - start_all )) s wall; artifacts: $artifacts)"
  local s f
  for s in ${step_times[@]+"${step_times[@]}"}; do echo "  $s"; done
  for f in ${flavours_run[@]+"${flavours_run[@]}"}; do
    [ -f "$artifacts/$f/ctest-junit.xml" ] || continue
    echo "--- $f: ten slowest tests (seconds, CTest)"
    python3 - "$artifacts/$f/ctest-junit.xml" <<'EOF' || true
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
rows = sorted(((float(c.get("time", 0)), c.get("name"), c.get("status", "")) for c in cases),
              reverse=True)
for t, name, status in rows[:10]:
    print(f"  {t:8.1f}  {name}{'' if status in ('run', '') else '  (' + status + ')'}")
print(f"  {sum(r[0] for r in rows):8.1f}  all {len(rows)} tests together (one core each)")
EOF
  done
  echo "=== artifacts (CTest timings and cost data per flavour): $artifacts"
  return $rc
}
trap summary EXIT

build_flavour() {  # prints nothing on stdout; the build directory is build/<flavour>
  local flavour="$1" t0 t1 log_from
  flavours_run+=("$flavour")
  mkdir -p "$artifacts/$flavour"
  echo "=== $flavour: build"
  log_from=$( { wc -l < "$root/build/$flavour/.ninja_log"; } 2>/dev/null || echo 0)
  t0=$(date +%s)
  "$root/scripts/build.sh" "$flavour" >/dev/null
  t1=$(date +%s)
  local edges; edges=$(ninja_seconds "$root/build/$flavour" "$log_from")
  echo "$flavour build: $(( t1 - t0 )) s wall, ${edges} s summed over ninja's edges" |
    tee "$artifacts/$flavour/build-seconds.txt"
  step_times+=("$flavour build: $(( t1 - t0 )) s wall (${edges} s summed over ninja's edges)")
}
test_flavour() {
  local flavour="$1" dir="$root/build/$1" t0 t1 label_args
  echo "=== $flavour: test"
  # release runs the `once` tests; the other flavours leave them out, and gcc runs the
  # `compiler` tests only (see the header).
  local excluded=()
  if [ "$slow" = 0 ]; then excluded+=(slow); fi
  if [ "$flavour" != release ]; then excluded+=(once); fi
  label_args=()
  if [ ${#excluded[@]} -gt 0 ]; then label_args=(-LE "^($(IFS='|'; echo "${excluded[*]}"))\$"); fi
  if [ "$flavour" = gcc ]; then label_args+=(-L '^compiler$'); fi
  t0=$(date +%s)
  local rc=0
  ctest --test-dir "$dir" ${label_args[@]+"${label_args[@]}"} --output-on-failure -j "$(nproc)" \
    --output-junit "$artifacts/$flavour/ctest-junit.xml" || rc=$?
  t1=$(date +%s)
  cp "$dir/Testing/Temporary/CTestCostData.txt" "$artifacts/$flavour/" 2>/dev/null || true
  cp "$dir/Testing/Temporary/LastTest.log" "$artifacts/$flavour/" 2>/dev/null || true
  step_times+=("$flavour tests: $(( t1 - t0 )) s wall${label_args[@]+ (ctest ${label_args[*]})}")
  return $rc
}
timed() {  # label, command...: runs it and records its wall time for the summary
  local label="$1" t0; shift
  t0=$(date +%s)
  "$@"
  step_times+=("$label: $(( $(date +%s) - t0 )) s wall")
}

# The g++ flavour builds in the background from the start, at the lowest CPU priority: it takes
# the CPU time the other steps leave idle (a test phase waiting on time-boxed runs and child
# processes, a build's serial link and configure steps, the Slurm example's package install)
# and yields it whenever they want it. Its output is build/test-artifacts/gcc/build.log; its
# warnings and, if it fails, its end are shown when it is joined before the g++ tests.
if [ "$quick" = 0 ]; then
  mkdir -p "$artifacts/gcc"
  gcc_t0=$(date +%s)
  # setsid puts it in a session of its own (its process group is stopped as one on failure);
  # the kernel's autogroup scheduling then weighs that session against the others by the
  # autogroup's nice (/proc/PID/autogroup, sched(7)), not the processes', so both are set.
  setsid sh -c 'echo 19 > /proc/self/autogroup 2>/dev/null || true; exec nice -n 19 "$0" gcc' \
    "$root/scripts/build.sh" >"$artifacts/gcc/build.log" 2>&1 &
  gcc_pid=$!
fi
build_flavour release
test_flavour release
shot="$root/build/release/fuzz/report_artifacts/report_screenshot.png"
if [ -f "$shot" ]; then
  cp "$shot" "$artifacts/release/"
  echo "=== CI artifact: report.html as headless Chromium renders it: $artifacts/release/$(basename "$shot")"
fi
if [ "$quick" = 0 ]; then
  # The Slurm example runs while the ASan+UBSan flavour builds: it is mostly package installation
  # and daemons starting, and it needs only the release binary. Its output is shown when it ends.
  echo "=== scale-out: the Slurm example, sharded vs unsharded (in the background: $artifacts/slurm-smoke.log)"
  slurm_t0=$(date +%s)
  env LANEDIFF="$root/build/release/fuzz/lanediff" "$root/scripts/slurm-smoke.sh" --install \
    >"$artifacts/slurm-smoke.log" 2>&1 &
  slurm_pid=$!
  build_flavour asan
  slurm_rc=0
  wait "$slurm_pid" || slurm_rc=$?
  step_times+=("slurm-smoke: $(( $(date +%s) - slurm_t0 )) s wall (beside the asan build)")
  echo "=== scale-out: the Slurm example's output"
  cat "$artifacts/slurm-smoke.log"
  if [ "$slurm_rc" != 0 ]; then echo "test.sh: the Slurm example failed (exit $slurm_rc)" >&2; exit 1; fi
  test_flavour asan
  echo "=== scale-out: .clusterfuzzlite/build.sh in the OSS-Fuzz image's environment"
  timed "clusterfuzzlite-test" "$root/scripts/clusterfuzzlite-test.sh"
  echo "=== gcc: build (started in the background at the start, nice 19)"
  flavours_run+=(gcc)
  gcc_rc=0
  wait "$gcc_pid" || gcc_rc=$?
  gcc_pid=""
  echo "gcc build: $(( $(date +%s) - gcc_t0 )) s wall from the start of test.sh, beside the other steps" |
    tee "$artifacts/gcc/build-seconds.txt"
  step_times+=("gcc build: $(( $(date +%s) - gcc_t0 )) s wall (in the background from the start, nice 19)")
  grep -E 'warning:' "$artifacts/gcc/build.log" || true
  if [ "$gcc_rc" != 0 ]; then
    tail -n 60 "$artifacts/gcc/build.log"
    echo "test.sh: the g++ build failed (exit $gcc_rc; whole log: $artifacts/gcc/build.log)" >&2
    exit 1
  fi
  test_flavour gcc
fi
echo "test.sh: all flavours passed"
