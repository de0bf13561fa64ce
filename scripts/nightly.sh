#!/usr/bin/env bash
# The nightly job: build, replay the corpus as regressions, run the exhaustive sweeps and
# time-boxed campaigns for every target and instruction on the best device available, ask
# each chip the discrimination questions, merge new findings into the corpus, write reports.
#
#   scripts/nightly.sh [--out DIR] [--corpus DIR] [--device SPEC] [--campaign-seconds N]
#                      [--sweep full|quick|none] [--shard i/n] [--seed S] [--known FILE]
#                      [--inject E]... [--targets LIST] [--lanediff PATH]
#
#   --out DIR              reports and run records (default out/nightly-YYYYMMDD)
#   --corpus DIR           the persistent corpus the campaigns start from and add to: its
#                          seeds/ feed the mutator, its findings/ keep every bucket (default
#                          corpus/ on silicon; out/sim-corpus on the simulator, seeded from
#                          corpus/seeds, so simulated answers never mix with silicon's)
#   --seed S               rerun a night exactly (default: a fresh seed, printed and written
#                          to OUT/seed.txt)
#   --known FILE           known-issues file (default CORPUS/known_issues.textproto). The night
#                          is green unless `lanediff triage` finds a NEW or REGRESSED bucket
#   --inject E             plant a simulator erratum (repeatable; with --device sim)
#   --targets LIST         campaign only these targets (comma list; default all)
#   --lanediff PATH        use this binary (skips setup and build)
#   --device SPEC          auto (default: a HIP GPU if visible, else the simulator), hip, sim,
#                          replay:PATH, exec:CMD
#   --campaign-seconds N   per target x instruction campaign (default 15; 27 pairs)
#   --sweep full|quick|none  full: all 2^32 src0 for every MODE setting on one target per
#                          family; quick: all 2^32 src0 at the default MODE on one target;
#                          none: no sweeps and no discrimination questions (default full)
#   --shard i/n            this machine's share of every sweep and campaign (GPU fleets; merge
#                          the shards' --out directories with scripts/merge_shards.sh)
#
# Works with no GPU (simulator and replay). Exits 0 when nothing NEW or REGRESSED was found
# (known issues do not count), 1 otherwise, and 2 when the run itself broke.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/out/nightly-$(date -u +%Y%m%d)"
corpus="$root/corpus"
device="auto"; campaign_seconds=15; sweep="full"; shard=""; seed=""; known=""; targets=""
lanediff=""; corpus_given=0; inject=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --corpus) corpus="$2"; corpus_given=1; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --known) known="$2"; shift 2 ;;
    --inject) inject+=(--inject "$2"); shift 2 ;;
    --targets) targets="$2"; shift 2 ;;
    --lanediff) lanediff="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --campaign-seconds) campaign_seconds="$2"; shift 2 ;;
    --sweep) sweep="$2"; shift 2 ;;
    --shard) shard="$2"; shift 2 ;;
    -h|--help) sed -n '2,37p' "$0"; exit 0 ;;
    *) echo "nightly.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
started=$(date +%s)
started_iso=$(date -u +%Y-%m-%dT%H:%M:%SZ)
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
case "$seed" in ''|*[!0-9]*) echo "nightly.sh: --seed must be a number, got '$seed'" >&2; exit 2 ;; esac
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

if [ -z "$lanediff" ]; then
  "$root/scripts/setup.sh" >/dev/null || { echo "nightly.sh: setup failed" >&2; exit 2; }
  build="$("$root/scripts/build.sh" release | tail -n 1)" || { echo "nightly.sh: build failed" >&2; exit 2; }
  lanediff="$build/fuzz/lanediff"
fi
mkdir -p "$out/runs" "$out/logs"
echo "$seed" > "$out/seed.txt"
log "seed $seed (rerun this night: scripts/nightly.sh --seed $seed)"
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

# The persistent corpus: simulated answers never go into the silicon corpus.
if [ "$corpus_given" = 0 ] && [ "$device" = sim ]; then corpus="$root/out/sim-corpus"; fi
mkdir -p "$corpus"
if [ ! -d "$corpus/seeds" ] && [ -d "$root/corpus/seeds" ] && [ "$corpus" != "$root/corpus" ]; then
  cp -r "$root/corpus/seeds" "$corpus/seeds"
fi
[ -n "$known" ] || known="$corpus/known_issues.textproto"
log "corpus $corpus: $(find "$corpus/findings" -name '*.textproto' 2>/dev/null | wc -l) findings, $(find "$corpus/seeds" -name '*.textproto' 2>/dev/null | wc -l) seeds at start; known issues $known"

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
if [ "$sweep" = none ]; then
  pk_targets=()
elif [ "$sweep" = full ]; then
  pk_targets=(gfx942 gfx1030 gfx1100 gfx1201 gfx1250); pk_modes=(--all-modes)
else
  pk_targets=(gfx942); pk_modes=()
fi
for t in "${pk_targets[@]}"; do
  step "sweep $t v_cvt_pk_u8_f32 (2^32 src0)" "$lanediff" sweep --target "$t" --instr v_cvt_pk_u8_f32 \
    --device "$device" "${pk_modes[@]}" "${shard_flag[@]}" --out "$out/runs/sweep-$t-pk_u8.textproto"
  pk_modes=()  # every MODE setting on the first target; the default MODE elsewhere
done
sr_sweep_targets=(gfx942 gfx950 gfx1201 gfx1250); [ "$sweep" = none ] && sr_sweep_targets=()
for t in "${sr_sweep_targets[@]}"; do
  for i in v_cvt_sr_fp8_f32 v_cvt_sr_bf8_f32; do
    step "sweep $t $i (all seeds, boundary src0)" "$lanediff" sweep --target "$t" --instr "$i" \
      --device "$device" "${shard_flag[@]}" --out "$out/runs/sweep-$t-$i.textproto"
  done
done

# 2b. Every non-default hypothesis reading, fast model vs exact oracle on every word of the
# binades where it acts (docs/semantics.md §9; the `slow` CTest label).
step "readings: fast == oracle on each reading's binades" \
  ctest --test-dir "$build" -R '^model_readings_exhaustive_test$' --output-on-failure

# 3. Campaigns: every target x instruction it has, time-boxed, one summary each (the matrix).
"$lanediff" targets | awk 'NR > 1 { for (i = 2; i <= NF; i++) if ($i ~ /^v_/) { sub(/\(.*/, "", $i); print $1, $i } }' \
  | { if [ -n "$targets" ]; then grep -E "^(${targets//,/|}) "; else cat; fi; } > "$out/logs/pairs.txt"
# A campaign's exit 1 only says "stored something new to this corpus": the triage below
# decides whether the night is red.
k=0
while read -r t i; do
  k=$((k + 1))
  log "fuzz $t $i ($campaign_seconds s, seed $((seed + k)))"
  "$lanediff" fuzz --device "$device" "${inject[@]}" --targets "$t" --instrs "$i" \
    --time "$campaign_seconds" --seed $((seed + k)) --corpus "$corpus" --quiet "${shard_flag[@]}" \
    --summary-out "$out/runs/campaign-$t-$i.textproto" > "$out/logs/fuzz-$t-$i.txt" 2>&1
  rc=$?
  [ $rc -gt 1 ] && { broken=1; log "fuzz $t $i: BROKEN (exit $rc), see $out/logs/fuzz-$t-$i.txt"; }
done < "$out/logs/pairs.txt"
covered=$(awk '{print $2}' "$out/logs/pairs.txt" | sort -u | paste -sd, -)

# 4. The discrimination questions, for the chips with open hypotheses.
disc_targets=(gfx942 gfx950 gfx1201 gfx1250); [ "$sweep" = none ] && disc_targets=()
for t in "${disc_targets[@]}"; do
  for i in v_cvt_pk_u8_f32 v_cvt_sr_fp8_f32 v_cvt_sr_bf8_f32; do
    step "discriminate $t $i" "$lanediff" discriminate --target "$t" --instr "$i" --device "$device" \
      --out "$out/runs/verdicts-$t-$i.textproto"
  done
done

# 5. Triage: one line per root cause; only NEW or REGRESSED buckets make the night red.
log "triage (buckets seen since $started_iso)"
"$lanediff" triage "$corpus" --known "$known" --since "$started_iso" --instrs "$covered" \
  --record-fixed > "$out/triage.txt"
rc=$?
"$lanediff" triage "$corpus" --known "$known" --since "$started_iso" --instrs "$covered" --json \
  > "$out/triage.jsonl" 2>/dev/null
cat "$out/triage.txt"
case $rc in 0) ;; 1) found=1 ;; *) broken=1; log "triage: BROKEN (exit $rc)" ;; esac

# 6. Reports.
report_inputs=()
[ -d "$corpus/findings" ] && report_inputs+=(--corpus "$corpus/findings")
"$lanediff" report --out "$out/report" "${report_inputs[@]}" "$out/runs" || broken=1
log "reports: $out/report/report.{xml,md,html}"
log "done: seed $seed, found=$found broken=$broken (found = NEW or REGRESSED buckets)"
[ "$broken" = 1 ] && exit 2
[ "$found" = 1 ] && exit 1
exit 0
