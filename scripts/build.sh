#!/usr/bin/env bash
# Configures and builds one flavour of lanediff into build/<flavour>. Used by run.sh, test.sh
# and nightly.sh; prints the build directory on its last line.
#   scripts/build.sh release   clang-22, Release (the default)
#   scripts/build.sh asan      clang-22, ASan+UBSan, libFuzzer targets
#   scripts/build.sh gcc       g++ 12, Release, everything but the fuzzers
#   scripts/build.sh FLAVOUR TARGET...   only those targets (run.sh: lanediff_cli, the binary)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
flavour="${1:-release}"
if [ $# -gt 0 ]; then shift; fi
targets=("$@")
dir="$root/build/$flavour"
case "$flavour" in
  release) flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan) flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DLANEDIFF_SANITIZE=ON -DLANEDIFF_FUZZERS=ON) ;;
  gcc) flags=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DCMAKE_C_COMPILER=gcc) ;;
  *) echo "build.sh: unknown flavour '$flavour' (release, asan, gcc)" >&2; exit 2 ;;
esac
mkdir -p "$root/build"   # the configure log below lives beside build/<flavour>
cmake -S "$root" -B "$dir" -G Ninja "${flags[@]}" >"$dir.configure.log" 2>&1 || {
  cat "$dir.configure.log" >&2; echo "build.sh: configure failed ($flavour)" >&2; exit 1; }
cmake --build "$dir" -j "$(nproc)" ${targets[@]+--target "${targets[@]}"} >&2
echo "$dir"
