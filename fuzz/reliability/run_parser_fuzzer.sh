#!/bin/bash
# Runs a parser libFuzzer target (fuzz/fuzzers/proto_parser_fuzzer.cc, run_record_fuzzer.cc;
# ASan+UBSan build) on a scratch copy of its seed corpus, so nothing in the source tree is
# written.
#   run_parser_fuzzer.sh FUZZER SEED_DIR DICT -runs=20000      (the default CTest run)
#   run_parser_fuzzer.sh FUZZER SEED_DIR DICT -max_total_time=600   (LABELS slow)
# Exit status is the fuzzer's: non-zero on a crash, leak, sanitizer report or timeout; the
# crashing input is kept in $LANEDIFF_FUZZ_ARTIFACTS (default /tmp) and its path printed.
set -euo pipefail
fuzzer=$1 seeds=$2 dict=$3
shift 3
name=$(basename "$fuzzer")
work=$(mktemp -d "/tmp/$name.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp -r "$seeds"/. "$work/corpus/"
artifacts=${LANEDIFF_FUZZ_ARTIFACTS:-/tmp}/$name-
echo "corpus: $(ls "$work/corpus" | wc -l) seed files; artifacts: ${artifacts}*"
"$fuzzer" -seed=1 -max_len=8192 -timeout=10 -rss_limit_mb=2048 -dict="$dict" \
  -artifact_prefix="$artifacts" -print_final_stats=1 "$@" "$work/corpus"
