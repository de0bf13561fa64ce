#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: $CC, $CXX, $CFLAGS, $CXXFLAGS, $LIB_FUZZING_ENGINE, $SRC,
# $WORK and $OUT come from the base-builder image. lanediff_fuzzer() links $LIB_FUZZING_ENGINE.
# Every target CMake builds from fuzz/fuzzers/ is shipped, none listed here, each with the
# <name>.options, <name>.dict and <name>_seed_corpus.zip (from fuzz/fuzzers/corpus/<name>/) the
# infrastructure expects; a target missing one of them fails the build, by name.
# Tested as the image runs it: scripts/clusterfuzzlite-test.sh (scripts/test.sh runs it).
src="${SRC:-$(cd "$(dirname "$0")/.." && pwd)}/lanediff"
[ -d "$src" ] || src="$(cd "$(dirname "$0")/.." && pwd)"
build="${WORK:-/tmp}/lanediff-build"
# The image's CXXFLAGS ask for libc++; lanediff links the distribution's Abseil and protobuf,
# built against libstdc++, so C++ code must use libstdc++ too (libFuzzer's own runtime is
# unaffected).
CXXFLAGS="${CXXFLAGS//-stdlib=libc++/}"
export CXXFLAGS
# No build type: the image's flags (-O1 -gline-tables-only, the sanitizer and coverage flags)
# are the whole compile line, as OSS-Fuzz intends; RelWithDebInfo appended -O2 -g after them.
# Measured (scripts/clusterfuzzlite-test.sh with a /usr/bin/time compiler launcher, 108 units,
# loaded 2-core machine): 245 s of compile CPU with RelWithDebInfo, 210 s without.
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DLANEDIFF_FUZZERS=ON
cmake --build "$build" -j "$(nproc)" --target lanediff_fuzzers
dir="$src/fuzz/fuzzers"
shipped=0
for bin in "$build"/fuzz/fuzzers/*_fuzzer; do
  [ -x "$bin" ] || continue
  name="$(basename "$bin")"
  for need in "$dir/$name.options" "$dir/$name.dict" "$dir/corpus/$name"; do
    [ -e "$need" ] || { echo "build.sh: $name has no $need (OSS-Fuzz ships options, dictionary and seed corpus)" >&2; exit 1; }
  done
  cp "$bin" "$dir/$name.options" "$dir/$name.dict" "$OUT/"
  rm -f "$OUT/${name}_seed_corpus.zip"
  (cd "$dir/corpus/$name" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  shipped=$((shipped + 1))
done
[ "$shipped" -gt 0 ] || { echo "build.sh: no fuzz target built under $build/fuzz/fuzzers" >&2; exit 1; }
echo "build.sh: $shipped fuzz target(s) in $OUT"
