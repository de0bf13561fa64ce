#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh the way ClusterFuzzLite / OSS-Fuzz's base-builder image runs
# it (its compile step's environment for an ASan build: CC=clang, CXX=clang++, the image's
# CFLAGS and CXXFLAGS including -stdlib=libc++, LIB_FUZZING_ENGINE=-fsanitize=fuzzer, SRC with
# the project at $SRC/lanediff, WORK, OUT), with clang-22 standing in for the image's clang,
# then checks that $OUT holds every fuzz target of fuzz/fuzzers/ (each <name>_fuzzer.cc,
# found by name, none listed here) with <name>.options, <name>.dict and
# <name>_seed_corpus.zip, and runs each target for a few seconds on its seed corpus with its
# options and dictionary, as the fuzzing infrastructure would.
#
#   scripts/clusterfuzzlite-test.sh [--seconds N] [--keep]
#
#   --seconds N   run time of each target (default 5)
#   --keep        keep the temporary SRC/WORK/OUT tree and print its path
#
# Exit: 0 every target built, shipped and ran clean; 1 one did not (named); 2 usage;
# 3 environment (clang-22, zip or unzip missing: scripts/setup.sh installs them).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=5; keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "clusterfuzzlite-test: --seconds needs a count >= 1" >&2; exit 2; }
               seconds="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "clusterfuzzlite-test: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
t0=$(date +%s)
for tool in clang-22 clang++-22 zip unzip; do
  command -v "$tool" >/dev/null || { echo "clusterfuzzlite-test: $tool missing (scripts/setup.sh)" >&2; exit 3; }
done
tmp="$(mktemp -d /tmp/lanediff-cfl.XXXXXX)" || exit 3
cleanup() { if [ "$keep" = 1 ]; then echo "clusterfuzzlite-test: kept $tmp"; else rm -rf "$tmp"; fi; }
trap cleanup EXIT
fail() { echo "clusterfuzzlite-test: FAIL: $*"; exit 1; }

# The image's layout and compiler names: $SRC/lanediff is the project (the Dockerfile copies
# it there), $SRC/build.sh the build script; clang and clang++ on PATH.
mkdir -p "$tmp/src" "$tmp/work" "$tmp/out" "$tmp/bin"
ln -s "$root" "$tmp/src/lanediff"
cp "$root/.clusterfuzzlite/build.sh" "$tmp/src/build.sh"
ln -s "$(command -v clang-22)" "$tmp/bin/clang"
ln -s "$(command -v clang++-22)" "$tmp/bin/clang++"
# base-clang's CFLAGS, plus what the compile step adds for SANITIZER=address and libFuzzer.
cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
cflags+=" -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
(
  cd "$tmp/src/lanediff" || exit 1
  env -i HOME="$HOME" PATH="$tmp/bin:$PATH" \
    CC=clang CXX=clang++ CFLAGS="$cflags" CXXFLAGS="$cflags -stdlib=libc++" \
    LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address FUZZING_ENGINE=libfuzzer \
    FUZZING_LANGUAGE=c++ ARCHITECTURE=x86_64 \
    SRC="$tmp/src" WORK="$tmp/work" OUT="$tmp/out" \
    CMAKE_C_COMPILER_LAUNCHER="${CMAKE_C_COMPILER_LAUNCHER:-}" \
    CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-}" \
    CCACHE_BASEDIR="${CCACHE_BASEDIR:-}" CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}" \
    bash -eu "$tmp/src/build.sh"
) > "$tmp/build.log" 2>&1 || { tail -n 30 "$tmp/build.log"; fail ".clusterfuzzlite/build.sh failed (log above)"; }
echo "clusterfuzzlite-test: build.sh done in $(( $(date +%s) - t0 )) s"

# Every target the sources define, found by name.
targets=()
for f in "$root"/fuzz/fuzzers/*_fuzzer.cc; do targets+=("$(basename "$f" .cc)"); done
[ ${#targets[@]} -gt 0 ] || fail "no fuzz/fuzzers/*_fuzzer.cc found"
for t in "${targets[@]}"; do
  for f in "$t" "$t.options" "$t.dict" "${t}_seed_corpus.zip"; do
    [ -s "$tmp/out/$f" ] || fail "\$OUT/$f missing: build.sh must ship every target with its options, dictionary and seed corpus"
  done
  [ -x "$tmp/out/$t" ] || fail "\$OUT/$t is not executable"
done

# Each target for a few seconds, as ClusterFuzzLite runs it: from $OUT, the [libfuzzer] options
# of <name>.options as -key=value flags (they name the dictionary), the unpacked seed corpus.
for t in "${targets[@]}"; do
  corpus="$tmp/run/$t/corpus"; mkdir -p "$corpus"
  unzip -q "$tmp/out/${t}_seed_corpus.zip" -d "$corpus" || fail "${t}_seed_corpus.zip does not unpack"
  seeds=$(find "$corpus" -type f | wc -l)
  [ "$seeds" -gt 0 ] || fail "${t}_seed_corpus.zip holds no seed"
  opts=()
  while IFS='=' read -r k v; do
    k="$(echo "$k" | tr -d '[:space:]')"; v="$(echo "$v" | tr -d '[:space:]')"
    [ -n "$k" ] && [ -n "$v" ] && opts+=("-$k=$v")
  done < <(awk '/^\[/ { on = ($0 ~ /^\[libfuzzer\]/); next } on && /=/' "$tmp/out/$t.options")
  printf '%s\n' "${opts[@]}" | grep -q '^-dict=' || opts+=("-dict=$t.dict")
  (cd "$tmp/out" && "./$t" "${opts[@]}" -artifact_prefix="$tmp/run/$t/" \
     -max_total_time="$seconds" -print_final_stats=1 "$corpus") > "$tmp/run/$t.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || { tail -n 40 "$tmp/run/$t.log"; fail "$t exited $rc (log above)"; }
  grep -q "Dictionary: [1-9]" "$tmp/run/$t.log" || { tail -n 20 "$tmp/run/$t.log"; fail "$t loaded no dictionary entry"; }
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/run/$t.log")"
  echo "clusterfuzzlite-test: $t: $seeds seed(s), ${opts[*]:-no options}, ran ${seconds} s, ${execs:-?} executions, clean"
done
echo "clusterfuzzlite-test: PASS: ${#targets[@]} target(s) built by .clusterfuzzlite/build.sh, shipped with options, dictionary and seed corpus, each ran ${seconds} s clean (total $(( $(date +%s) - t0 )) s)"
