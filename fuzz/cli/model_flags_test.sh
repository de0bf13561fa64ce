#!/usr/bin/env bash
# The model flags read through fuzz/cli/model_flags.h: every command that takes one --targets,
# one --instrs or repeated --hypothesis gives the same error for a bad value: exit 2 and
# "lanediff COMMAND: FLAG: MESSAGE" naming the value (and, from FindTarget / ParseInstr /
# SetHypothesis, the valid ones).
# Usage: model_flags_test.sh PATH/TO/lanediff SOURCE_DIR
set -u
bin="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
seed="$src/corpus/seeds/v_cvt_pk_u8_f32/denormal_flush.textproto"
[[ -f "$seed" ]] || { echo "FAIL: test input $seed is gone"; exit 1; }

expect() {  # text stderr must contain, command words... (stdin: empty; exit 2 wanted)
  local needle="$1"; shift
  "$bin" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -ne 2 ]] || ! grep -qF -- "$needle" "$tmp/err"; then
    echo "FAIL lanediff $*: exit $rc (want 2), stderr must contain '$needle':"
    sed 's/^/  /' "$tmp/err" | head -5
    fail=1
  fi
}

t=gfx942
i=v_cvt_pk_u8_f32
for cmd in asm disasm; do
  expect "lanediff $cmd: --targets: unknown target 'gfx999'; valid: gfx908" $cmd --targets gfx999
  expect "lanediff $cmd: --targets takes one item here, got 'gfx942,gfx950'" $cmd --targets gfx942,gfx950
done
for cmd in eval sweep discriminate; do
  expect "lanediff $cmd: --targets: unknown target 'gfx999'" $cmd --targets gfx999 --instrs $i
  expect "lanediff $cmd: --instrs: unknown instruction 'nope'; valid: v_cvt_pk_u8_f32" \
    $cmd --targets $t --instrs nope
  expect "lanediff $cmd: --instrs takes one item here" $cmd --targets $t --instrs $i,$i
done
for cmd in eval sweep; do
  expect "lanediff $cmd: --hypothesis: unknown hypothesis 'nope'" \
    $cmd --targets $t --instrs $i --hypothesis nope=1
  expect "lanediff $cmd: --hypothesis:" $cmd --targets $t --instrs $i --hypothesis pk_u8_nan=nope
done
expect "lanediff fuzz: --hypothesis: unknown hypothesis 'nope'" \
  fuzz --targets $t --instrs $i --device=sim --execs 1 --corpus "$tmp/c" --hypothesis nope=1
expect "lanediff replay: --hypothesis: unknown hypothesis 'nope'" \
  replay --device=sim --hypothesis nope=1 "$seed"

[[ $fail -eq 0 ]] && echo "PASS: model flags' errors"
exit $fail
