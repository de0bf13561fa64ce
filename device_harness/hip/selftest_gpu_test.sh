#!/bin/bash
# The self-test on the first HIP GPU: `lanediff devices --selftest --device=hip:0` must pass and
# write a bundle that replays. Without a usable GPU: prints why and exits 77 (CTest: skipped).
set -u
lanediff="$1"
gpus=$("$lanediff" devices --hip-count)
if [ "$gpus" = "0" ]; then
  echo "SKIPPED: no usable HIP GPU ($("$lanediff" devices | sed -n 2p | sed 's/^ *//'))"
  exit 77
fi
bundle=$(mktemp --suffix=.textproto)
trap 'rm -f "$bundle"' EXIT
"$lanediff" devices --selftest --device=hip:0 --out "$bundle" || exit 1
grep -q '^# self-test passed' "$bundle" || { echo "bundle lacks the verdict"; exit 1; }
"$lanediff" devices --selftest --device="replay:$bundle" \
  --targets "$(sed -n 's/^# self-test of .* as \(gfx[0-9a-z]*\) .*/\1/p' "$bundle" | head -1)" >/dev/null \
  || { echo "the bundle does not replay its own known answers"; exit 1; }
echo "self-test passed on hip:0; bundle replays"
