#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: $CC, $CXX, $CFLAGS, $CXXFLAGS, $LIB_FUZZING_ENGINE and $OUT
# come from the environment. lanediff_fuzzer() links $LIB_FUZZING_ENGINE when it is set.
src="${SRC:-$(cd "$(dirname "$0")/.." && pwd)}/lanediff"
[ -d "$src" ] || src="$(cd "$(dirname "$0")/.." && pwd)"
build="${WORK:-/tmp}/lanediff-build"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DLANEDIFF_FUZZERS=ON
cmake --build "$build" -j "$(nproc)" --target lanediff_fuzzers
# Each fuzzer ships with <name>.options, <name>.dict and <name>_seed_corpus.zip beside it.
for bin in "$build"/fuzz/fuzzers/*_fuzzer; do
  name="$(basename "$bin")"
  cp "$bin" "$OUT/"
  dir="$src/fuzz/fuzzers"
  [ -f "$dir/$name.options" ] && cp "$dir/$name.options" "$OUT/"
  [ -f "$dir/$name.dict" ] && cp "$dir/$name.dict" "$OUT/"
  if [ -d "$dir/corpus/$name" ]; then
    (cd "$dir/corpus/$name" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  fi
done
