#!/usr/bin/env bash
# Every command that opens a --device does it through fuzz/cli/open_device.h, so they answer
# alike: a malformed spec (`hip:x`, an unknown kind) is a usage error, exit 2, and a device that
# cannot be opened (an exec: command that does not exist) is an environment error, exit 3; both
# print `lanediff COMMAND: --device=SPEC: ...` naming the spec, and nothing on stdout.
# Usage: open_device_test.sh PATH/TO/lanediff SOURCE_DIR
set -u
bin=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
seed="$src/corpus/seeds/v_cvt_pk_u8_f32/denormal_flush.textproto"
finding="$tmp/f.textproto"
# A finding to replay: a campaign with a planted erratum stores some.
"$bin" fuzz --device=sim --inject sr_wrap --targets gfx950 --instrs v_cvt_sr_fp8_f32 --execs 40 \
  --quiet --corpus "$tmp/c" >/dev/null 2>&1
finding=$(find "$tmp/c/findings" -name '*.textproto' | head -1)
[[ -n "$finding" ]] || { echo "FAIL: the campaign stored no finding to replay"; exit 1; }

check() {  # want-exit spec command words... (the spec goes in as --device=SPEC)
  local want="$1" spec="$2"; shift 2
  "$bin" "$@" "--device=$spec" </dev/null >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local name="$1"; [[ "$1" == devices ]] && name="devices --selftest"
  if [[ $rc -ne $want || -s "$tmp/out" ]] || ! grep -qF -- "lanediff $name: --device=$spec:" "$tmp/err"; then
    echo "FAIL lanediff $* --device=$spec: exit $rc (want $want), stdout $(wc -c <"$tmp/out") bytes"
    sed 's/^/  /' "$tmp/err" | head -3
    fail=1
  fi
}
missing_cmd="exec:$tmp/no-such-device-program"
for spec_want in "hip:x 2" "bogus 2" "$missing_cmd 3"; do
  spec="${spec_want% *}" want="${spec_want##* }"
  check "$want" "$spec" replay "$finding"
  check "$want" "$spec" discriminate --targets gfx942 --instrs v_cvt_sr_fp8_f32
  check "$want" "$spec" sweep --targets gfx942 --instrs v_cvt_pk_u8_f32 --last 4096
  check "$want" "$spec" devices --selftest --targets gfx942
  check "$want" "$spec" record --out "$tmp/rec.textproto" "$seed"
  check "$want" "$spec" serve-device
done

# The same device flags everywhere (DeviceFlags in open_device.h): every command that opens a
# device takes --timeout and --start-timeout, and --timeout reaches the runner: an exec device
# that never answers is killed after 0.5 s and named as a hang, not waited on for the default 30.
hang="$tmp/hang.sh"
printf '#!/bin/sh\nexec sleep 100000\n' >"$hang"
chmod +x "$hang"
timed_out() {  # command words... (an exec device that hangs, --timeout 0.5)
  "$bin" "$@" "--device=exec:$hang" --timeout 0.5 --start-timeout 5 </dev/null >"$tmp/out" 2>&1
  if ! grep -q "hang: no complete answer within 500ms" "$tmp/out"; then
    echo "FAIL lanediff $* --timeout 0.5 with a hanging exec device: no 500ms hang reported"
    sed 's/^/  /' "$tmp/out" | head -3
    fail=1
  fi
}
timed_out sweep --targets gfx942 --instrs v_cvt_pk_u8_f32 --last 4096 --jobs 1
timed_out discriminate --targets gfx942 --instrs v_cvt_sr_fp8_f32
timed_out record --out "$tmp/rec.textproto" "$seed"
timed_out replay "$finding"
[[ $fail -eq 0 ]] && echo "PASS: every command opens --device through one helper (exit 2 malformed, 3 unavailable) and honours --timeout"
exit $fail
