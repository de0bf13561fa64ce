#!/usr/bin/env bash
# Set-up, build (Release: the lanediff binary only, not the tests), and run lanediff. With no
# arguments: the main job, a one-minute fuzzing campaign on every target and instruction against
# the best device available (a real AMD GPU through HIP, or else the ISA simulator, which says so).
#   scripts/run.sh                                 # lanediff fuzz --device=auto --time 60
#   scripts/run.sh eval --targets gfx942 --instrs MNEMONIC < lanes.txt  # a row: `lanediff targets`
#   scripts/run.sh --help                          # every command
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" >&2
dir="$("$root/scripts/build.sh" release lanediff_cli | tail -n 1)"
if [ $# -eq 0 ]; then
  set -- fuzz --device=auto --time 60 --corpus "$root/corpus"
fi
exec "$dir/fuzz/lanediff" "$@"
