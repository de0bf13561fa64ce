#!/usr/bin/env bash
# `lanediff fuzz --shard i/n` is worker i-1 of `lanediff fuzz --jobs n`: its seed, its PRNG
# stream, its share of --execs. So three shards, each into its own corpus, merged with
# `lanediff corpus merge`, store exactly the findings (signature and count) that one
# `--jobs 3` run stores into one corpus. (Before: shard i used seed + (i-1)*65536 and the whole
# --execs each, so the shards ran other cases, three times as many.) Deterministic: simulator
# with a planted erratum, fixed seed, a test-case budget.
# Usage: fuzz_shard_test.sh PATH/TO/lanediff
set -u
bin="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
run() {  # corpus dir, extra flags...
  local corpus="$1"; shift
  "$bin" fuzz --device sim --inject u8_truncate --targets gfx942 --instrs v_cvt_pk_u8_f32 \
    --seed 11 --execs 301 --quiet --corpus "$corpus" "$@" > "$corpus.log" 2>&1
  local rc=$?
  [ "$rc" = 1 ] || { echo "FAIL: fuzz $* exited $rc, expected 1 (findings stored):"; cat "$corpus.log"; exit 1; }
}
listing() {  # signature file and count, one line each
  (cd "$1" && find . -name '*.textproto' | sort | while read -r f; do echo "$f $(grep -m1 '^count:' "$f")"; done)
}
run "$tmp/one" --jobs 3
for i in 1 2 3; do run "$tmp/shard$i" --shard "$i/3"; done
# 301 cases split as --jobs splits them: 101 + 100 + 100.
for i in 1 2 3; do
  want=$([ "$i" = 1 ] && echo 101 || echo 100)
  grep -q "ran  *$want cases" "$tmp/shard$i.log" || { echo "FAIL: shard $i/3 did not run $want cases:"; cat "$tmp/shard$i.log"; exit 1; }
done
"$bin" corpus merge "$tmp"/shard{1,2,3}/findings --out "$tmp/merged" > "$tmp/merge.log" 2>&1 ||
  { echo "FAIL: corpus merge:"; cat "$tmp/merge.log"; exit 1; }
listing "$tmp/one/findings" > "$tmp/one.txt"
listing "$tmp/merged" > "$tmp/merged.txt"
[ -s "$tmp/one.txt" ] || { echo "FAIL: the --jobs 3 run stored no finding"; exit 1; }
diff -u "$tmp/one.txt" "$tmp/merged.txt" || { echo "FAIL: 3 merged shards != one --jobs 3 run (above)"; exit 1; }
echo "PASS: 3 shards merged == one --jobs 3 run: $(wc -l < "$tmp/one.txt") findings, same counts"
