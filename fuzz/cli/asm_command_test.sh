#!/usr/bin/env bash
# Round-trips the seed pages' examples through the built `lanediff asm` and `lanediff disasm`
# on every target that has them. Expected bytes: docs/semantics.md §2 (the seed pages and LLVM 22).
# Usage: asm_command_test.sh PATH/TO/lanediff
set -u
bin="$1"
fail=0
check() {  # target, text, expected bytes
  local target="$1" text="$2" want="$3" got back
  got=$(printf '%s\n' "$text" | "$bin" asm --bytes-only --targets "$target") || { echo "FAIL asm $target: $text"; fail=1; return; }
  [[ "$got" == "$want" ]] || { echo "FAIL asm $target '$text': got $got want $want"; fail=1; }
  back=$(printf '%s\n' "$want" | "$bin" disasm --targets "$target") || { echo "FAIL disasm $target: $want"; fail=1; return; }
  # llvm-mc --disassemble indents the text with one tab.
  [[ "$back" == $'\t'"$text" ]] || { echo "FAIL disasm $target $want: got '$back' want '$text'"; fail=1; }
}
pk='v_cvt_pk_u8_f32 v5, v1, v2, s3'
for t in gfx908 gfx90a gfx942 gfx950; do check "$t" "$pk" '[0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]'; done
for t in gfx1010 gfx1030; do check "$t" "$pk" '[0x05,0x00,0x5e,0xd5,0x01,0x05,0x0e,0x00]'; done
for t in gfx1100 gfx1150 gfx1200 gfx1201 gfx1250 gfx1251; do
  check "$t" "$pk" '[0x05,0x00,0x26,0xd6,0x01,0x05,0x0e,0x00]'
done
sr='v_cvt_sr_fp8_f32 v1, v2, v3'
for t in gfx942 gfx950; do check "$t" "$sr" '[0x01,0x00,0xa4,0xd2,0x02,0x07,0x02,0x00]'; done
for t in gfx1200 gfx1201 gfx1250 gfx1251; do check "$t" "$sr" '[0x01,0x00,0x6b,0xd7,0x02,0x07,0x02,0x00]'; done
# 32-bit word input: the gfx942 pk_u8 word pair.
got=$(echo '0xd1dd0005 0x000e0501' | "$bin" disasm --targets gfx942)
[[ "$got" == $'\t'"$pk" ]] || { echo "FAIL disasm words: '$got'"; fail=1; }
# A bad line is reported as llvm-mc reports one (`<stdin>:LINE:COL: error: ...`, the line, a
# caret under the operand: column 21 is where `bogus` starts), the others still processed,
# exit 1.
out=$(printf '%s\nv_cvt_pk_u8_f32 v5, bogus, v2, v3\n%s\n' "$pk" "$pk" | "$bin" asm --bytes-only --targets gfx942 2>/tmp/lanediff_asm_test.$$)
rc=$?
[[ $rc -eq 1 ]] || { echo "FAIL asm bad line: exit $rc"; fail=1; }
[[ $(echo "$out" | wc -l) -eq 2 ]] || { echo "FAIL asm bad line: output '$out'"; fail=1; }
caret="                    ^"
[[ "$(sed -n 1p /tmp/lanediff_asm_test.$$)" == "<stdin>:2:21: error: 'bogus' "* &&
   "$(sed -n 2p /tmp/lanediff_asm_test.$$)" == "v_cvt_pk_u8_f32 v5, bogus, v2, v3" &&
   "$(sed -n 3p /tmp/lanediff_asm_test.$$)" == "$caret" ]] ||
  { echo "FAIL asm bad line: stderr"; cat /tmp/lanediff_asm_test.$$; fail=1; }
# v_cvt_sr_fp8_f32 does not exist on gfx1100: llvm-mc's warning, our reason as a note, nothing
# on stdout, exit 1.
out=$(echo '[0x01,0x00,0x6b,0xd7,0x02,0x07,0x02,0x00]' | "$bin" disasm --targets gfx1100 2>/tmp/lanediff_asm_test.$$)
rc=$?
[[ $rc -eq 1 && -z "$out" ]] || { echo "FAIL disasm invalid: exit $rc '$out'"; fail=1; }
grep -q '^<stdin>:1:2: warning: invalid instruction encoding$' /tmp/lanediff_asm_test.$$ &&
  grep -q '^<stdin>:1:2: note: opcode 875 ' /tmp/lanediff_asm_test.$$ ||
  { echo "FAIL disasm invalid stderr"; cat /tmp/lanediff_asm_test.$$; fail=1; }
rm -f /tmp/lanediff_asm_test.$$
[[ $fail -eq 0 ]] && echo "PASS: lanediff asm/disasm seed examples on every target"
exit $fail
