#!/usr/bin/env bash
# Input and output paths on every subcommand (fuzz/cli/output_path.h):
#  - a missing input path is a usage error, exit 2, and the message names the path; commands
#    that read no path (stdin or nothing) refuse one as an unexpected argument, exit 2, naming it;
#  - output files' parent directories are created; an output that cannot be written fails at
#    once with exit 3 naming the path, before any work (nothing on stdout).
# The table below must cover every command `lanediff --list-commands` prints.
# Usage: paths_test.sh PATH/TO/lanediff SOURCE_DIR
set -u
bin="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
missing="$tmp/no/such/input"
seed="$src/corpus/seeds/v_cvt_pk_u8_f32/denormal_flush.textproto"
[[ -f "$seed" ]] || { echo "FAIL: test input $seed is gone"; exit 1; }

declare -A covered
expect() {  # expected-exit, text stderr must contain, command words...
  local want="$1" needle="$2"; shift 2
  covered[$1]=1
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -ne $want ]] || ! grep -qF -- "$needle" "$tmp/err"; then
    echo "FAIL lanediff $*: exit $rc (want $want), stderr must name '$needle':"
    sed 's/^/  /' "$tmp/err" | head -5
    fail=1
  fi
}

# Missing inputs: exit 2 naming the path.
expect 2 "$missing" replay "$missing"
expect 2 "$missing" replay --device "replay:$missing" "$seed"
expect 2 "$missing" report --out "$tmp/rep" "$missing"
expect 2 "$missing" report --out "$tmp/rep" --corpus "$missing"
expect 2 "$missing" record --out "$tmp/rec.textproto" "$missing"
expect 2 "$missing" record --device "replay:$missing" --out "$tmp/rec.textproto" "$seed"
expect 2 "$missing" corpus check "$missing"
expect 2 "$missing" corpus merge "$missing" --out "$tmp/merged"
expect 2 "$missing" devices --replay-dir "$missing"
expect 2 "$missing" triage "$missing"
expect 2 "$missing" serve-device --device "replay:$missing"
expect 2 "$missing" sweep --targets gfx942 --instrs v_cvt_pk_u8_f32 --device "replay:$missing"
expect 2 "$missing" fuzz --targets gfx942 --execs 1 --device "replay:$missing"
expect 2 "$missing" discriminate --targets gfx942 --instrs v_cvt_sr_fp8_f32 --device "replay:$missing"
expect 2 "$missing" fidelity --targets gfx942 --instrs v_cvt_pk_u8_f32 --device "replay:$missing"
# Commands that read no path.
expect 2 "$missing" eval --targets gfx942 --instrs v_cvt_pk_u8_f32 "$missing"
expect 2 "$missing" asm --targets gfx942 "$missing"
expect 2 "$missing" disasm --targets gfx942 "$missing"
expect 2 "$missing" targets "$missing"
expect 2 "$missing" bench "$missing"

# Outputs: parents created.
out_ok() {  # file that must exist afterwards, command words...
  local file="$1"; shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -gt 1 || ! -e "$file" ]]; then
    echo "FAIL lanediff $*: exit $rc, $file not written"; sed 's/^/  /' "$tmp/err" | head -5; fail=1
  fi
}
out_ok "$tmp/s/w/sweep.textproto" sweep --targets gfx942 --instrs v_cvt_pk_u8_f32 --first 0 --last 4096 --out "$tmp/s/w/sweep.textproto"
out_ok "$tmp/f/u/sum.textproto" fuzz --device sim --targets gfx942 --execs 2 --out "$tmp/f/u/sum.textproto"
out_ok "$tmp/d/i/d.textproto" discriminate --targets gfx942 --instrs v_cvt_sr_fp8_f32 --device sim --out "$tmp/d/i/d.textproto"
# A row no rule reaches (gfx950 v_prng_b32) has no verdict: no file (an empty record is no run
# record for `lanediff report`), exit 0, and stderr says why.
"$bin" discriminate --targets gfx950 --instrs v_prng_b32 --device sim --out "$tmp/d/none.textproto" \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -ne 0 || -e "$tmp/d/none.textproto" ]] || ! grep -qF "no rule (hypothesis) reaches gfx950 v_prng_b32" "$tmp/err"; then
  echo "FAIL discriminate --out on a row no rule reaches: exit $rc, file $( [[ -e "$tmp/d/none.textproto" ]] && echo written || echo absent)"
  sed 's/^/  /' "$tmp/err" | head -5; fail=1
fi
out_ok "$tmp/r/e/report.html" report --out "$tmp/r/e" "$tmp/s/w/sweep.textproto"
out_ok "$tmp/fi/d/f.textproto" fidelity --targets gfx942 --instrs v_cvt_pk_u8_f32 --device sim --out "$tmp/fi/d/f.textproto"
out_ok "$tmp/r/f/report.html" report --out "$tmp/r/f" "$tmp/fi/d/f.textproto"  # a fidelity record alone
out_ok "$tmp/c/r/rec.textproto" record --device sim --out "$tmp/c/r/rec.textproto" "$seed"

# Outputs that cannot be written (a regular file where a directory must be; works as root):
# exit 3 naming the path, and no work done (nothing on stdout).
: >"$tmp/plain"
out_bad() {
  local path="$1"; shift
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -ne 3 || -s "$tmp/out" ]] || ! grep -qF -- "$path" "$tmp/err"; then
    echo "FAIL lanediff $*: exit $rc (want 3, nothing on stdout, stderr naming $path)"
    sed 's/^/  /' "$tmp/out" "$tmp/err" | head -5; fail=1
  fi
}
bad="$tmp/plain/sub/x.textproto"
out_bad "$bad" sweep --targets gfx942 --instrs v_cvt_pk_u8_f32 --out "$bad"  # the full 2^32 sweep
out_bad "$bad" fuzz --device sim --targets gfx942 --out "$bad"
out_bad "$bad" discriminate --targets gfx942 --instrs v_cvt_sr_fp8_f32 --device sim --out "$bad"
out_bad "$bad" record --device sim --out "$bad" "$seed"
out_bad "$bad" fidelity --targets gfx942 --device sim --out "$bad"
out_bad "$tmp/plain" report --out "$tmp/plain" "$tmp/s/w/sweep.textproto"
out_bad "$tmp/plain" corpus merge "$src/corpus/findings" --out "$tmp/plain"

# Every command is covered.
while IFS=$'\t' read -r name _; do
  [[ -n "${covered[$name]:-}" ]] || { echo "FAIL: command '$name' has no missing-path case here"; fail=1; }
done < <("$bin" --list-commands)
[[ $fail -eq 0 ]] && echo "PASS: input and output paths on every subcommand"
exit $fail
