#!/bin/bash
# The self-test on the first HIP GPU: `lanediff devices --selftest --device=hip:0` must pass and
# write a bundle that replays (on an RDNA GPU it runs both wave sizes: a second bundle
# FILE-wave64.textproto, checked the same way). Without a usable GPU: prints why and exits 77 (CTest: skipped).
set -u
lanediff="$1"
gpus=$("$lanediff" devices --hip-count)
if [ "$gpus" = "0" ]; then
  echo "SKIPPED: no usable HIP GPU ($("$lanediff" devices | sed -n 2p | sed 's/^ *//'))"
  exit 77
fi
bundle=$(mktemp --suffix=.textproto)
bundle64="${bundle%.textproto}-wave64.textproto"
trap 'rm -f "$bundle" "$bundle64"' EXIT
"$lanediff" devices --selftest --device=hip:0 --out "$bundle" || exit 1
for b in "$bundle" "$bundle64"; do
  [ "$b" = "$bundle" ] || [ -e "$b" ] || continue
  grep -q '^# self-test passed' "$b" || { echo "bundle $b lacks the verdict"; exit 1; }
  "$lanediff" devices --selftest --device="replay:$b" \
    --targets "$(sed -n 's/^# self-test of .* as \(gfx[0-9a-z]*\) .*/\1/p' "$b" | head -1)" >/dev/null \
    || { echo "the bundle $b does not replay its own known answers"; exit 1; }
done
echo "self-test passed on hip:0; bundle replays"
