#!/usr/bin/env bash
# Set-up, build, run every test. What CI runs (.ci/run calls this).
#   scripts/test.sh            release build + tests, ASan+UBSan build + tests, g++ build + tests,
#                              the Slurm example on a private one-node cluster (sharded ==
#                              unsharded, scripts/slurm-smoke.sh) and the ClusterFuzzLite build
#                              as its image runs it (scripts/clusterfuzzlite-test.sh)
#   scripts/test.sh --quick    release build + tests only
#   scripts/test.sh --slow     also the `slow` label (exhaustive 2^32 sweeps; nightly)
# Tests labelled `gpu` run in every flavour and skip (CTest "Skipped", exit 77) with a printed
# reason when no AMD GPU is visible.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
quick=0; slow=0
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --slow) slow=1 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup.sh"
mkdir -p "$root/build"
label_args=(-LE slow)
[ "$slow" = 1 ] && label_args=()
run_flavour() {
  local flavour="$1" dir
  echo "=== $flavour: build"
  dir="$("$root/scripts/build.sh" "$flavour" | tail -n 1)"
  echo "=== $flavour: test"
  ctest --test-dir "$dir" "${label_args[@]}" --output-on-failure -j "$(nproc)"
}
run_flavour release
shot="$root/build/release/fuzz/report_artifacts/report_screenshot.png"
[ -f "$shot" ] && echo "=== CI artifact: report.html as headless Chromium renders it: $shot"
if [ "$quick" = 0 ]; then
  echo "=== scale-out: the Slurm example, sharded vs unsharded"
  LANEDIFF="$root/build/release/fuzz/lanediff" "$root/scripts/slurm-smoke.sh" --install
  run_flavour asan
  echo "=== scale-out: .clusterfuzzlite/build.sh in the OSS-Fuzz image's environment"
  "$root/scripts/clusterfuzzlite-test.sh"
  run_flavour gcc
fi
echo "test.sh: all flavours passed"
