#!/usr/bin/env bash
# Configures and builds one flavour of lanediff into build/<flavour>. Used by run.sh, test.sh
# and nightly.sh; prints the build directory on its last line.
#   scripts/build.sh release   clang-22, Release (-O3, the default)
#   scripts/build.sh asan      clang-22, ASan+UBSan at -O2 with line tables (what a sanitizer
#                              report needs to name file and line), libFuzzer targets; coverage
#                              instrumentation on the fuzz targets only unless
#                              LANEDIFF_FUZZ_COVERAGE=ON is in the environment (test.sh --slow)
#   scripts/build.sh gcc       g++ 12 at -O1 (test units at LANEDIFF_TEST_OPTIMIZE, -O0),
#                              everything but the fuzzers. The flavour checks that g++ builds the
#                              project warning-free and computes the same bits (the `compiler`
#                              tests); -O3 is clang-22's job (release). Measured on a cold build
#                              (2 cores, user+sys of every compile logged by a /usr/bin/time
#                              launcher, a loaded machine): 719 s at -O3, 521 s at -O1 (library
#                              units 432 -> 265 s); -O2 saved nothing on the unit tried (9.1 s
#                              both) and draws -Warray-bounds/-Wstringop-* false positives inside
#                              libstdc++'s std::string copy in 7 units; -O1 draws none.
#   scripts/build.sh FLAVOUR TARGET...   only those targets (run.sh: lanediff_cli, the binary)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
flavour="${1:-release}"
if [ $# -gt 0 ]; then shift; fi
targets=("$@")
dir="$root/build/$flavour"
case "$flavour" in
  release) flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan) flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DLANEDIFF_SANITIZE=ON -DLANEDIFF_FUZZERS=ON
               "-DLANEDIFF_FUZZ_COVERAGE=${LANEDIFF_FUZZ_COVERAGE:-OFF}"
               "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
               "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG") ;;
  gcc) flags=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DCMAKE_C_COMPILER=gcc
              "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG") ;;
  *) echo "build.sh: unknown flavour '$flavour' (release, asan, gcc)" >&2; exit 2 ;;
esac
mkdir -p "$root/build"   # the configure log below lives beside build/<flavour>
cmake -S "$root" -B "$dir" -G Ninja "${flags[@]}" >"$dir.configure.log" 2>&1 || {
  cat "$dir.configure.log" >&2; echo "build.sh: configure failed ($flavour)" >&2; exit 1; }
cmake --build "$dir" -j "$(nproc)" ${targets[@]+--target "${targets[@]}"} >&2
echo "$dir"
