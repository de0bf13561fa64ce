#!/usr/bin/env bash
# The nightly job: build, replay the corpus as regressions, run the exhaustive sweeps and
# time-boxed campaigns for every target and instruction on the best device available, ask
# each chip the discrimination questions, merge new findings into the corpus, write reports.
#
#   scripts/nightly.sh [--out DIR] [--corpus DIR] [--device SPEC] [--inject E]...
#                      [--budget-minutes M | --campaign-seconds N | --campaign-execs N]
#                      [--seed S] [--jobs N] [--known FILE] [--targets LIST]
#                      [--sweep full|quick|smoke|none] [--erratum-budget S] [--shard i/n]
#                      [--lanediff PATH]
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
#   --device SPEC          auto (default: a HIP GPU if visible, else the simulator), hip, sim,
#                          replay:PATH, exec:CMD
#   --inject E             plant a simulator erratum (repeatable; `lanediff devices`; sim only)
#   --targets LIST         campaign only these targets (comma list; default all)
#   --budget-minutes M     the wall-clock limit the job runs under (Slurm --time, a CI timeout):
#                          campaigns share what the sweeps leave, less a reserve of
#                          max(2 min, M/10) for discrimination, triage and reports
#   --campaign-seconds N   per target x instruction campaign (default 15; how many pairs
#                          there are is counted from `lanediff targets`, printed below)
#   --campaign-execs N     per campaign, test cases in total over all shards: deterministic
#                          (with --seed, the same findings every run), no wall clock
#   --jobs N               worker processes per campaign (default 1); n shards of --jobs 1
#                          run exactly the cases of one unsharded --jobs n run
#   --sweep full|quick|smoke|none
#                          which rows are swept and asked is never typed here: every row of
#                          model/instrs.def the binary has (`lanediff targets --json`), on the
#                          sweep targets that have it. A src0 row ("sweep":"src0": no seed, or
#                          an SR row to 16-bit floats, its seed hashed), full: all 2^32 src0
#                          on gfx942 gfx950 gfx1030 gfx1100 gfx1201 gfx1250, every MODE setting
#                          (--all-modes) on the first of them when its op reads MODE[1:0] or
#                          MODE[4], plus every non-default hypothesis reading fast == oracle on
#                          its binades; quick: all 2^32 src0 at the default MODE on gfx942;
#                          smoke: 2^24 src0 from 0x42000000 on gfx942 (seconds). A row with a
#                          seed (SR to 8-bit floats): every seed for a boundary set of src0 on
#                          gfx942 gfx950 gfx1201 gfx1250, in all three. A row with a VGPR-tuple source: each
#                          element of a six-bit field tuple (every code x every scale), element
#                          0 of a dword tuple (full: 2^32 values; quick, smoke: its first 2^14;
#                          an element of 14 bits or fewer whole),
#                          on the same four targets. Discrimination questions: every row
#                          on those four. none: no sweeps and no discrimination questions
#   --erratum-budget S     seconds the erratum step may take: each simulator erratum found by a
#                          60 s campaign (fuzz_triage_erratum_buckets_test, one case at a time,
#                          host-side, shard 1 only). Default 1200 on a full night (its 16 cases
#                          fit), and the step does not run on a quick/smoke/none night unless
#                          this is given. Under --budget-minutes at most half of what the job
#                          has left. A case that no longer fits (the longest case so far, at
#                          least 60 s, against what is left) is skipped with a line naming it,
#                          and the summary and DIR/status count the skipped cases. Also
#                          NIGHTLY_ERRATUM_BUDGET=S. (LANEDIFF_ERRATUM_TEST=PATH: another binary
#                          for the cases, for tests.)
#   --shard i/n            this machine's share of every sweep and campaign (GPU fleets; merge
#                          the shards' --out directories with scripts/merge_shards.sh)
#   --lanediff PATH        use this binary (skips setup and build; also LANEDIFF=PATH)
#
# Numbers are read as decimal (--seed 08 is 8, 010 is 10) and anything else is refused.
# Works with no GPU (simulator and replay). Writes DIR/status: "running", then "complete ..."
# or "killed ... during STEP" (merge_shards.sh names a shard that never completed). Killed by
# SIGTERM or SIGINT, it stops the running step and still writes DIR/report/report.{xml,md,html}
# from what it has, each marked "INCOMPLETE: killed by SIGTERM after N s during step: STEP",
# within seconds, then ends by that signal. Exits 0 when nothing
# NEW or REGRESSED was found (known issues do not count), 1 otherwise, and 2 when the run
# itself broke. Erratum cases skipped for lack of budget do not change the exit code; the last
# line says INCOMPLETE and names them, and DIR/status counts them (erratum_skipped=K/N).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/out/nightly-$(date -u +%Y%m%d)"
corpus="$root/corpus"
device="auto"; campaign_seconds=15; campaign_execs=""; budget_minutes=""; sweep="full"; shard=""
seed=""; jobs=1; known=""; targets=""; lanediff="${LANEDIFF:-}"; corpus_given=0; inject=()
erratum_budget="${NIGHTLY_ERRATUM_BUDGET:-}"
usage() { echo "nightly.sh: $*" >&2; exit 2; }
# The binary's rows and pairs (`lanediff targets --json`, its "rows" and "targets": docs/json.md),
# the only place this script learns which instructions exist.
#   rows_of BIN:  "NAME SWEEP" per row (SWEEP: seed, src0 or element)
#   pairs_of BIN: "TARGET NAME SWEEP ALL_MODES BITS" per target x instruction it has (ALL_MODES:
#                 true when the row's op reads MODE[1:0] or MODE[4], which sweep --all-modes
#                 varies; BITS: a tuple row's element width, else 0)
targets_json() {
  "$1" targets --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
rows = {r["name"]: r for r in d["rows"]}
if sys.argv[1] == "rows":
    for r in d["rows"]:
        print(r["name"], r["sweep"])
else:
    for t in d["targets"]:
        for i in t["instructions"]:
            print(t["name"], i, rows[i]["sweep"], "true" if rows[i]["all_modes"] else "false",
                  rows[i].get("element_bits", 0))
' "$2"
}
rows_of() { targets_json "$1" rows; }
pairs_of() { targets_json "$1" pairs; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || case "$1" in -h|--help) ;; *) usage "$1 needs a value (see --help)" ;; esac
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --corpus) corpus="$2"; corpus_given=1; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --known) known="$2"; shift 2 ;;
    --inject) inject+=(--inject "$2"); shift 2 ;;
    --targets) targets="$2"; shift 2 ;;
    --lanediff) lanediff="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --budget-minutes) budget_minutes="$2"; campaign_execs=""; shift 2 ;;
    --campaign-seconds) campaign_seconds="$2"; budget_minutes=""; campaign_execs=""; shift 2 ;;
    --campaign-execs) campaign_execs="$2"; budget_minutes=""; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --sweep) sweep="$2"; shift 2 ;;
    --shard) shard="$2"; shift 2 ;;
    --erratum-budget) erratum_budget="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"
      # Counted, not typed: the rows and the target x instruction pairs the night runs.
      bin="${lanediff:-$root/build/release/fuzz/lanediff}"
      if [ -x "$bin" ]; then
        echo "#   the rows, from $bin (targets --json): name, then what it sweeps"
        rows_of "$bin" | awk '{ printf "#     %-22s %s\n", $1, $2 }'
        n=$("$bin" targets | awk 'NR > 1 { for (i = 2; i <= NF; i++) if ($i ~ /^v_/) n++ } END { print n + 0 }')
        echo "#   (with $bin: $n target x instruction pairs, so $((n * 15)) s of campaigns at the default)"
      else
        echo "#   the rows, from $root/model/instrs.def ($bin is not built, so neither what"
        echo "#   each sweeps nor the target x instruction pairs are known):"
        sed -n 's/^LANEDIFF_INSTR(\([a-z0-9_]*\),.*/#     \1/p' "$root/model/instrs.def"
      fi
      exit 0 ;;
    *) usage "unknown option $1 (see --help)" ;;
  esac
done
# Numbers are decimal whatever their leading zeros ("08" is 8, "010" is 10; bash arithmetic
# would read them as octal) and have at most 18 digits (bash arithmetic is 64-bit): each is
# checked, then rewritten in plain decimal before any arithmetic sees it.
decimal() { [[ "$1" =~ ^[0-9]{1,18}$ || "$1" =~ ^0+[0-9]{1,18}$ ]] && echo $((10#$1)); }
is_uint() { local v; v=$(decimal "$1") && [ "$v" -gt 0 ]; }
[ -z "$budget_minutes" ] || is_uint "$budget_minutes" || usage "--budget-minutes '$budget_minutes' is not a whole number of minutes >= 1"
[ -z "$campaign_execs" ] || is_uint "$campaign_execs" || usage "--campaign-execs '$campaign_execs' is not a count >= 1"
is_uint "$campaign_seconds" || usage "--campaign-seconds '$campaign_seconds' is not a whole number >= 1"
is_uint "$jobs" || usage "--jobs '$jobs' is not a count >= 1"
case "$sweep" in full|quick|smoke|none) ;; *) usage "--sweep '$sweep' is not full, quick, smoke or none" ;; esac
[ -z "$shard" ] || { [[ "$shard" =~ ^[0-9]+/[0-9]+$ ]] && decimal "${shard%/*}" >/dev/null && decimal "${shard#*/}" >/dev/null; } || usage "--shard '$shard' is not i/n"
[ -z "$erratum_budget" ] || decimal "$erratum_budget" >/dev/null || usage "--erratum-budget '$erratum_budget' is not a whole number of seconds"
[ -z "$seed" ] || decimal "$seed" >/dev/null || usage "--seed '$seed' is not a decimal number (digits only, at most 18)"
[ -z "$budget_minutes" ] || budget_minutes=$(decimal "$budget_minutes")
[ -z "$campaign_execs" ] || campaign_execs=$(decimal "$campaign_execs")
[ -z "$erratum_budget" ] || erratum_budget=$(decimal "$erratum_budget")
[ -z "$seed" ] || seed=$(decimal "$seed")
[ -z "$shard" ] || shard="$(decimal "${shard%/*}")/$(decimal "${shard#*/}")"
campaign_seconds=$(decimal "$campaign_seconds"); jobs=$(decimal "$jobs")
started=$(date +%s)
started_iso=$(date -u +%Y-%m-%dT%H:%M:%SZ)
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
log() { printf '[nightly %4ds] %s\n' "$(( $(date +%s) - started ))" "$*"; }
broken=0; found=0
# The step running now (named when the night is killed) and its process: each long command runs
# in the background and is waited for, so a SIGTERM or SIGINT is handled at once (bash runs a
# trap only after a foreground command ends; `wait` returns at the signal).
current_step="setup"; child=""
run_child() { "$@" & child=$!; wait "$child"; local rc=$?; child=""; return $rc; }
# Runs a step; exit 1 means "found something", anything else non-zero means the step broke.
step() {
  local name="$1"; shift
  log "$name"
  current_step="$name"
  run_child "$@"
  local rc=$?
  case $rc in
    0) ;;
    1) found=1; log "$name: found something" ;;
    *) broken=1; log "$name: BROKEN (exit $rc)" ;;
  esac
  return 0
}

if [ -n "$lanediff" ]; then
  [ -x "$lanediff" ] || usage "lanediff binary '$lanediff' is not an executable"
  build="$(cd "$(dirname "$lanediff")/.." && pwd)"  # its build tree (build/<flavour>/fuzz/lanediff)
else
  "$root/scripts/setup.sh" >/dev/null || { echo "nightly.sh: setup failed" >&2; exit 2; }
  build="$("$root/scripts/build.sh" release | tail -n 1)" || { echo "nightly.sh: build failed" >&2; exit 2; }
  lanediff="$build/fuzz/lanediff"
fi
mkdir -p "$out/runs" "$out/logs" || { echo "nightly.sh: cannot create $out" >&2; exit 2; }
# DIR/status says whether this run completed: a shard killed by its time limit or a dead node
# leaves "running" or "killed", and merge_shards.sh names it (its partial output still merges).
echo "running since $(date -u +%Y-%m-%dT%H:%M:%SZ) shard=${shard:-1/1} host=$(hostname)" > "$out/status"
# The report inputs: the run records so far and the corpus's buckets, as this night sees them.
report_args() {
  report_inputs=()
  [ -d "$corpus/findings" ] && report_inputs+=(--corpus "$corpus/findings" --known "$known" --since "$started_iso")
  [ -d "$corpus/findings" ] && [ -n "${covered:-}" ] && report_inputs+=(--instrs "$covered")
}
# Killed (a CI timeout, Slurm, ^C): stop the running step, then write the reports from what
# there is, marked INCOMPLETE with the step the night was in, and end by the same signal.
on_signal() {
  trap '' TERM INT
  local took=$(( $(date +%s) - started ))
  if [ -n "$child" ]; then
    kill -TERM "$child" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$child" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$child" 2>/dev/null
    wait "$child" 2>/dev/null
  fi
  echo "killed by SIG$1 after $took s during $current_step" > "$out/status"
  log "killed by SIG$1 during $current_step: writing the reports from what there is (INCOMPLETE)"
  report_args
  timeout 30 "$lanediff" report --out "$out/report" \
    --incomplete "killed by SIG$1 after $took s during step: $current_step" \
    "${report_inputs[@]}" "$out/runs" > "$out/logs/report-incomplete.txt" 2>&1
  log "reports (INCOMPLETE): $out/report/report.{xml,md,html}; partial output left in $out"
  trap - "$1"; kill -s "$1" $$
}
trap 'on_signal TERM' TERM
trap 'on_signal INT' INT
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

# 2. Exhaustive sweeps: every row the binary has (pairs_of) on the sweep targets that have it;
# --sweep in the header says which targets and ranges. Nothing here names an instruction.
pairs_of "$lanediff" > "$out/logs/rows.txt" && [ -s "$out/logs/rows.txt" ] ||
  { broken=1; log "sweeps: BROKEN: $lanediff targets --json gave no target x instruction pair"; }
src0_range=(); src0_what="2^32 src0"; src0_targets=(); all_modes=0
seed_targets=(gfx942 gfx950 gfx1201 gfx1250)
case "$sweep" in
  full) src0_targets=(gfx942 gfx950 gfx1030 gfx1100 gfx1201 gfx1250); all_modes=1 ;;
  quick) src0_targets=(gfx942) ;;
  smoke) src0_targets=(gfx942)
         src0_range=(--first $((0x42000000)) --last $((0x42000000 + (1 << 24)))); src0_what="2^24 src0" ;;
  none) seed_targets=() ;;
esac
declare -A modes_done=()  # rows already swept over every MODE setting (on their first target)
for t in "${src0_targets[@]}"; do
  while read -r pt i kind reads_modes _; do
    [ "$pt" = "$t" ] && [ "$kind" = src0 ] || continue
    modes=(); what="$src0_what"
    if [ "$all_modes" = 1 ] && [ "$reads_modes" = true ] && [ -z "${modes_done[$i]:-}" ]; then
      modes=(--all-modes); what="$src0_what, every MODE setting"; modes_done[$i]=1
    fi
    step "sweep $t $i ($what)" "$lanediff" sweep --targets "$t" --instrs "$i" \
      --device "$device" "${inject[@]}" "${modes[@]}" "${src0_range[@]}" "${shard_flag[@]}" \
      --out "$out/runs/sweep-$t-$i.textproto"
  done < "$out/logs/rows.txt"
done
for t in "${seed_targets[@]}"; do
  while read -r pt i kind _; do
    [ "$pt" = "$t" ] && [ "$kind" = seed ] || continue
    step "sweep $t $i (all seeds, boundary src0)" "$lanediff" sweep --targets "$t" --instrs "$i" \
      --device "$device" "${inject[@]}" "${shard_flag[@]}" --out "$out/runs/sweep-$t-$i.textproto"
  done < "$out/logs/rows.txt"
done

element_range=(--last 16384); [ "$sweep" = full ] && element_range=()
for t in "${seed_targets[@]}"; do
  while read -r pt i kind _ bits; do
    [ "$pt" = "$t" ] && [ "$kind" = element ] || continue
    # An element of 14 bits or fewer (a six-bit field) is swept whole on every night.
    range=("${element_range[@]}"); [ "${bits:-32}" -le 14 ] && range=()
    step "sweep $t $i (one element of its tuple source)" "$lanediff" sweep --targets "$t" \
      --instrs "$i" --device "$device" "${inject[@]}" "${range[@]}" "${shard_flag[@]}" \
      --out "$out/runs/sweep-$t-$i.textproto"
  done < "$out/logs/rows.txt"
done

# 2b. Every non-default hypothesis reading, fast model vs exact oracle on every word of the
# binades where it acts (docs/semantics.md §9; the `slow` CTest label).
# Host-side (no device): once per fleet (shard 1), and only in a full night.
shard_index="${shard%%/*}"; [ -n "$shard" ] || shard_index=1
if [ "$sweep" = full ] && [ "$shard_index" = 1 ]; then
  step "readings: fast == oracle on each reading's binades" \
    ctest --test-dir "$build" -R '^model_readings_exhaustive_test$' --output-on-failure
fi
# 2c. Bucketing: each simulator erratum, 60 s over every target and instruction, gives at most
# two buckets per instruction it touches, named by its effect (the default test run has the
# short fixed-seed version of the same test). Host-side: the simulator, whatever --device; once
# per fleet (shard 1). Its cases (one per erratum, a clean run, two errata together: counted
# from the test, not typed) run one at a time within --erratum-budget; a case the budget can no
# longer fit is skipped with a line naming it, and the summary says how many were.
erratum_cases=(); erratum_skipped=()
[ -z "$erratum_budget" ] && [ "$sweep" = full ] && erratum_budget=1200
if [ -n "$erratum_budget" ] && [ "$shard_index" = 1 ]; then
  erratum_test="${LANEDIFF_ERRATUM_TEST:-$build/fuzz/triage/fuzz_triage_erratum_buckets_test}"
  erratum_case_seconds=60
  mapfile -t erratum_cases < <("$erratum_test" --gtest_list_tests |
    awk '/^[^ ].*\.$/ { suite = $1; next } /^  [^ ]/ { print suite $1 }')
  [ ${#erratum_cases[@]} -gt 0 ] || { broken=1; log "triage erratum: BROKEN: $erratum_test lists no case"; }
  e_budget=$erratum_budget; e_why="--erratum-budget"
  if [ -n "$budget_minutes" ]; then
    job_left=$(( budget_minutes * 60 - ($(date +%s) - started) ))
    if [ $(( job_left / 2 )) -lt "$e_budget" ]; then
      e_budget=$(( job_left / 2 > 0 ? job_left / 2 : 0 ))
      e_why="half of the $job_left s --budget-minutes $budget_minutes leaves"
    fi
  fi
  log "triage: each simulator erratum for ${erratum_case_seconds} s: ${#erratum_cases[@]} cases within $e_budget s ($e_why)"
  e_spent=0; e_need=$erratum_case_seconds  # the longest case so far, at least one campaign
  for c in "${erratum_cases[@]}"; do
    e_left=$(( e_budget - e_spent ))
    if [ "$e_need" -gt "$e_left" ]; then
      erratum_skipped+=("$c")
      log "triage erratum $c: SKIPPED: needs about $e_need s, $e_left s left of the $e_budget s erratum budget ($e_why)"
      continue
    fi
    e_start=$(date +%s)
    step "triage erratum $c: at most two buckets per instruction" \
      env LANEDIFF_ERRATUM_SECONDS=$erratum_case_seconds "$erratum_test" --gtest_filter="$c"
    # A case is charged at least its campaign's time: the budget plans by it.
    e_took=$(( $(date +%s) - e_start )); [ "$e_took" -ge "$erratum_case_seconds" ] || e_took=$erratum_case_seconds
    e_spent=$(( e_spent + e_took )); [ "$e_took" -le "$e_need" ] || e_need=$e_took
  done
fi
erratum_summary=""
if [ ${#erratum_skipped[@]} -gt 0 ]; then
  erratum_summary="; INCOMPLETE: ${#erratum_skipped[@]} of ${#erratum_cases[@]} erratum cases skipped for lack of budget (${erratum_skipped[*]})"
fi

# 3. Campaigns: every target x instruction it has, time-boxed, one summary each (the matrix).
"$lanediff" targets | awk 'NR > 1 { for (i = 2; i <= NF; i++) if ($i ~ /^v_/) { sub(/\(.*/, "", $i); print $1, $i } }' \
  | { if [ -n "$targets" ]; then grep -E "^(${targets//,/|}) "; else cat; fi; } > "$out/logs/pairs.txt"
pairs=$(wc -l < "$out/logs/pairs.txt")
# Bounded by test cases (--campaign-execs: deterministic), by time per campaign
# (--campaign-seconds), or by what the job's wall-clock limit leaves after the sweeps
# (--budget-minutes).
if [ -n "$budget_minutes" ] && [ "$pairs" -gt 0 ]; then
  reserve=$(( budget_minutes * 6 > 120 ? budget_minutes * 6 : 120 ))  # max(2 min, M/10), in s
  left=$(( budget_minutes * 60 - reserve - ($(date +%s) - started) ))
  campaign_seconds=$(( left / pairs > 1 ? left / pairs : 1 ))
  log "budget ${budget_minutes} min: $left s left for $pairs campaigns after the sweeps, ${reserve} s kept for discrimination, triage and reports"
fi
if [ -n "$campaign_execs" ]; then
  bound=(--execs "$campaign_execs"); bound_what="$campaign_execs cases in all shards"
else
  bound=(--time "$campaign_seconds"); bound_what="$campaign_seconds s"
fi
# A campaign's exit 1 only says "stored something new to this corpus": the triage below
# decides whether the night is red.
k=0
while read -r t i; do
  k=$((k + 1))
  log "fuzz $t $i ($bound_what, seed $((seed + k)))"
  current_step="fuzz $t $i"
  run_child "$lanediff" fuzz --device "$device" "${inject[@]}" --targets "$t" --instrs "$i" \
    "${bound[@]}" --seed $((seed + k)) --jobs "$jobs" --corpus "$corpus" --quiet "${shard_flag[@]}" \
    --out "$out/runs/campaign-$t-$i.textproto" > "$out/logs/fuzz-$t-$i.txt" 2>&1
  rc=$?
  [ $rc -gt 1 ] && { broken=1; log "fuzz $t $i: BROKEN (exit $rc), see $out/logs/fuzz-$t-$i.txt"; }
done < "$out/logs/pairs.txt"
covered=$(awk '{print $2}' "$out/logs/pairs.txt" | sort -u | paste -sd, -)

# 4. The discrimination questions, for the chips with open hypotheses: every row each has
# (pairs_of, as the sweeps).
disc_targets=(gfx942 gfx950 gfx1201 gfx1250); [ "$sweep" = none ] && disc_targets=()
for t in "${disc_targets[@]}"; do
  for i in $(awk -v t="$t" '$1 == t { print $2 }' "$out/logs/rows.txt"); do
    step "discriminate $t $i" "$lanediff" discriminate --targets "$t" --instrs "$i" --device "$device" \
      "${inject[@]}" --out "$out/runs/verdicts-$t-$i.textproto"
  done
done

# 5. Triage: one line per root cause; only NEW or REGRESSED buckets make the night red.
log "triage (buckets seen since $started_iso)"
current_step="triage"
run_child "$lanediff" triage "$corpus" --known "$known" --since "$started_iso" --instrs "$covered" \
  --record-fixed > "$out/triage.txt"
rc=$?
"$lanediff" triage "$corpus" --known "$known" --since "$started_iso" --instrs "$covered" --json \
  > "$out/triage.jsonl" 2>/dev/null
cat "$out/triage.txt"
case $rc in 0) ;; 1) found=1 ;; *) broken=1; log "triage: BROKEN (exit $rc)" ;; esac

# 6. Reports.
# The same bucket statuses as the triage above (known-issues file, this night's start, the
# instructions it covered): the JUnit fails once per NEW or REGRESSED bucket.
current_step="reports"
report_args
run_child "$lanediff" report --out "$out/report" "${report_inputs[@]}" "$out/runs" || broken=1
log "reports: $out/report/report.{xml,md,html}"
log "done: seed $seed, found=$found broken=$broken (found = NEW or REGRESSED buckets)$erratum_summary"
# broken=N stays last (scripts/slurm-smoke.sh reads it there).
echo "complete in $(( $(date +%s) - started )) s erratum_skipped=${#erratum_skipped[@]}/${#erratum_cases[@]} found=$found broken=$broken" > "$out/status"
[ "$broken" = 1 ] && exit 2
[ "$found" = 1 ] && exit 1
exit 0
