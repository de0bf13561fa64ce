#!/usr/bin/env bash
# The nightly job: build, replay the corpus as regressions, run the exhaustive sweeps and
# time-boxed campaigns for every target and instruction on the best device available, ask
# each chip the discrimination questions, merge new findings into the corpus, write reports.
#
#   scripts/nightly.sh [--out DIR] [--corpus DIR] [--device SPEC] [--campaign-seconds N]
#                      [--sweep full|quick] [--shard i/n]
#
#   --out DIR              reports and run records (default out/nightly-YYYYMMDD)
#   --corpus DIR           the persistent corpus new findings are merged into (default corpus/)
#   --device SPEC          auto (default: a HIP GPU if visible, else the simulator), hip, sim,
#                          replay:PATH, exec:CMD
#   --campaign-seconds N   per target x instruction campaign (default 15; 27 pairs)
#   --sweep full|quick     full: all 2^32 src0 for every MODE setting on one target per family;
#                          quick: all 2^32 src0 at the default MODE on one target (default full)
#   --shard i/n            this machine's share of every sweep and campaign (GPU fleets; merge
#                          the shards' --out directories with scripts/merge_shards.sh)
#
# Works with no GPU (simulator and replay). Exits 0 when nothing new was found, 1 on a new
# finding (a disagreement or device fault) and 2 when the run itself broke.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/out/nightly-$(date -u +%Y%m%d)"
corpus="$root/corpus"
device="auto"; campaign_seconds=15; sweep="full"; shard=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --campaign-seconds) campaign_seconds="$2"; shift 2 ;;
    --sweep) sweep="$2"; shift 2 ;;
    --shard) shard="$2"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "nightly.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
started=$(date +%s)
log() { printf '[nightly %4ds] %s\n' "$(( $(date +%s) - started ))" "$*"; }
broken=0; found=0
# Runs a step; exit 1 means "found something", anything else non-zero means the step broke.
step() {
  local name="$1"; shift
  log "$name"
  "$@"
  local rc=$?
  case $rc in
    0) ;;
    1) found=1; log "$name: found something" ;;
    *) broken=1; log "$name: BROKEN (exit $rc)" ;;
  esac
  return 0
}

"$root/scripts/setup.sh" >/dev/null || { echo "nightly.sh: setup failed" >&2; exit 2; }
build="$("$root/scripts/build.sh" release | tail -n 1)" || { echo "nightly.sh: build failed" >&2; exit 2; }
lanediff="$build/fuzz/lanediff"
mkdir -p "$out/runs" "$out/corpus" "$out/logs"
shard_flag=(); [ -n "$shard" ] && shard_flag=(--shard "$shard")
log "lanediff $("$lanediff" --version), output in $out"
"$lanediff" devices | tee "$out/logs/devices.txt"

# Resolve auto once, so every step uses the same device.
if [ "$device" = auto ]; then
  if [ "$("$lanediff" devices --hip-count 2>/dev/null || echo 0)" -gt 0 ]; then
    device=hip
  else
    device=sim
    log "no AMD GPU visible: the simulator stands in (a simulation, not silicon)"
  fi
fi

# 1. Regressions: every stored finding must still reproduce on silicon. Findings are
# silicon's answers, so the simulator cannot reproduce them: without a GPU, replay against
# recordings when there are any.
if [ -z "$(find "$corpus/findings" -type f \( -name '*.textproto' -o -name '*.txtpb' -o -name '*.binpb' -o -name '*.pb' \) -print -quit 2>/dev/null)" ]; then
  log "replay: skipped: $corpus/findings holds no findings yet (replay of nothing is a failure)"
elif [ "$device" = hip ]; then
  step "replay corpus on hip" "$lanediff" replay --device hip "$corpus/findings"
elif [ -d "$corpus/recordings" ]; then
  step "replay corpus on recordings" "$lanediff" replay --device "replay:$corpus/recordings" "$corpus/findings"
else
  log "replay: skipped: no GPU and no $corpus/recordings (findings are silicon answers)"
fi

# 2. Exhaustive sweeps.
if [ "$sweep" = full ]; then
  pk_targets=(gfx942 gfx1030 gfx1100 gfx1201 gfx1250); pk_modes=(--all-modes)
else
  pk_targets=(gfx942); pk_modes=()
fi
for t in "${pk_targets[@]}"; do
  step "sweep $t v_cvt_pk_u8_f32 (2^32 src0)" "$lanediff" sweep --target "$t" --instr v_cvt_pk_u8_f32 \
    --device "$device" "${pk_modes[@]}" "${shard_flag[@]}" --out "$out/runs/sweep-$t-pk_u8.textproto"
  pk_modes=()  # every MODE setting on the first target; the default MODE elsewhere
done
for t in gfx942 gfx950 gfx1201 gfx1250; do
  for i in v_cvt_sr_fp8_f32 v_cvt_sr_bf8_f32; do
    step "sweep $t $i (all seeds, boundary src0)" "$lanediff" sweep --target "$t" --instr "$i" \
      --device "$device" "${shard_flag[@]}" --out "$out/runs/sweep-$t-$i.textproto"
  done
done

# 3. Campaigns: every target x instruction it has, time-boxed, one summary each (the matrix).
"$lanediff" targets | awk 'NR > 1 { for (i = 2; i <= NF; i++) if ($i ~ /^v_/) { sub(/\(.*/, "", $i); print $1, $i } }' \
  > "$out/logs/pairs.txt"
while read -r t i; do
  step "fuzz $t $i ($campaign_seconds s)" "$lanediff" fuzz --device "$device" --targets "$t" --instrs "$i" \
    --time "$campaign_seconds" --corpus "$out/corpus" --quiet "${shard_flag[@]}" \
    --summary-out "$out/runs/campaign-$t-$i.textproto"
done < "$out/logs/pairs.txt"

# 4. The discrimination questions, for the chips with open hypotheses.
for t in gfx942 gfx950 gfx1201 gfx1250; do
  for i in v_cvt_pk_u8_f32 v_cvt_sr_fp8_f32 v_cvt_sr_bf8_f32; do
    step "discriminate $t $i" "$lanediff" discriminate --target "$t" --instr "$i" --device "$device" \
      --out "$out/runs/verdicts-$t-$i.textproto"
  done
done

# 5. New findings join the persistent corpus (on the simulator there are none to keep).
if [ -d "$out/corpus/findings" ] && [ "$device" != sim ]; then
  step "merge findings into $corpus" "$lanediff" corpus merge "$out/corpus/findings" --into "$corpus/findings"
fi

# 6. Reports.
report_inputs=(--corpus "$out/corpus/findings")
[ -d "$corpus/findings" ] && report_inputs+=(--corpus "$corpus/findings")
"$lanediff" report --out "$out/report" "${report_inputs[@]}" "$out/runs" || broken=1
log "reports: $out/report/report.{xml,md,html}"
log "done: found=$found broken=$broken"
[ "$broken" = 1 ] && exit 2
[ "$found" = 1 ] && exit 1
exit 0
