#!/usr/bin/env bash
# `lanediff discriminate` prints a table (rule, readings, verdict, the questions that decide
# it), every line within 100 columns, and the next command to run.
# Expected verdicts come from the errata catalogue (device_harness/sim/errata.h):
#   sr_wrap  "SR add wraps as the literal pseudocode (model sr_rounding=literal)"
#   nan_sign "OCP NaN keeps its sign (model fp8_nan=sign_preserving)"; on gfx950 sign_preserving
#            and sign_7f compute the same (docs/semantics.md), so the rule stays undetermined
#            between the two.
# Usage: discriminate_table_test.sh PATH/TO/lanediff
set -u
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }

run() {  # name, args...
  local name="$1"; shift
  "$bin" discriminate "$@" >"$tmp/$name" 2>"$tmp/$name.err" ||
    say_fail "discriminate $*: exit $? ($(head -2 "$tmp/$name.err"))"
  awk -v f="$name" 'length > 100 { printf "FAIL: %s line %d has %d columns: %s\n", f, NR, length, $0; bad=1 }
                    END { exit bad }' "$tmp/$name" || fail=1
  grep -qE '^rule +readings \(\* default\) +verdict +decided by$' "$tmp/$name" ||
    say_fail "$name: no table header"
  [[ $(grep -c '^next: ' "$tmp/$name") -eq 1 ]] || say_fail "$name: no single next: line"
}
# The command under `next: WHY`, its continuation lines (` \`) joined.
next_command() {
  awk '/^next: / { on = 1; next } on && /^  / { sub(/^ +/, ""); cmd = cmd $0 } END { print cmd }' "$tmp/$1" |
    sed 's/ \\/ /g; s/  */ /g'
}
row() {  # file, rule, regex the verdict and decided-by columns must match
  grep -qE "^$2 +.*  $3" "$tmp/$1" || { say_fail "$1: row of $2 does not match '$3'"; grep "^$2 " "$tmp/$1"; }
}

run wrap --targets gfx950 --instrs v_cvt_sr_fp8_f32 --device=sim --inject sr_wrap
row wrap sr_rounding 'literal +Q[0-9]'
row wrap sr_seed 'high +Q[0-9]'
want='lanediff fuzz --targets gfx950 --instrs v_cvt_sr_fp8_f32 --device=sim --inject sr_wrap --hypothesis sr_rounding=literal --time 60 --corpus corpus'
[[ "$(next_command wrap)" == "$want" ]] ||
  say_fail "wrap: the next command must fuzz with the reading the device follows: '$(next_command wrap)'"
# ... and it runs: a short version of it exits 0 (no disagreement under that reading).
short="${want/--time 60/--execs 20 --quiet}"
(cd "$tmp" && eval "\"\$bin\" ${short#lanediff }") >/dev/null 2>&1 ||
  say_fail "wrap: the next command, with --execs 20, found disagreements or failed (exit $?)"

run nan --targets gfx950 --instrs v_cvt_sr_fp8_f32 --device=sim --inject nan_sign
row nan fp8_nan 'sign_preserving\|sign_7f +Q[0-9]'
row nan sr_rounding 'carry_truncate +Q[0-9]'

run questions --targets gfx942 --instrs v_cvt_sr_fp8_f32 --device=none
row questions sr_rounding '- +Q[0-9]'
[[ "$(next_command questions)" == 'lanediff discriminate --targets gfx942 --instrs v_cvt_sr_fp8_f32 --device=hip' ]] ||
  say_fail "questions: the next command must put the questions to a GPU: '$(next_command questions)'"
# Every question the table names is printed below it.
for q in $(grep -oE '\bQ[0-9]+\b' "$tmp/questions" | sort -u); do
  grep -qE "^$q " "$tmp/questions" || say_fail "questions: $q is in the table but not printed"
done

# A VGPR-pair row (dst_bits 64): each answer is the lane's two words, VDST VDST+1. The device
# is an external model (lanediff eval) told to follow one decode reading; discriminate names it.
# docs/semantics.md §10.3 and the hypothesis table: FNUZ NaN byte 0x80 decodes to 0xffc00000
# (sign_quiet) or 0x7f800001 (host_7f800001), both bytes of src0 0x80808080's word 0 alike.
run pair --targets gfx942 --instrs v_cvt_pk_f32_fp8 \
  --device='exec:lanediff eval --hypothesis fp8_to_f32_nan=host_7f800001'
row pair fp8_to_f32_nan 'host_7f800001 +Q[0-9]'
row pair fp8_denorm_input 'kept +Q[0-9]'
grep -qE '^  -> 0x7f800001 0x7f800001 fp8_to_f32_nan=host_7f800001$' "$tmp/pair" ||
  say_fail "pair: the device's answer must be both words of the pair"
grep -q 'each answer is the VGPR pair: VDST VDST+1' "$tmp/pair" ||
  say_fail "pair: the header must say an answer is the VGPR pair"

# A tuple row (32 FP6 fields to 16 VGPRs of f16 pairs): the header says which words an answer is.
run tuple --targets gfx950 --instrs v_cvt_scalef32_pk32_f16_fp6 --device=sim
tr -s ' \n' ' ' <"$tmp/tuple" | grep -q 'each answer is the VGPR tuple: VDST .. VDST+15' ||
  say_fail "tuple: the header must say an answer is the 16-word VGPR tuple"

[[ $fail -eq 0 ]] && echo "PASS: discriminate's table, 100 columns, next command"
exit $fail
