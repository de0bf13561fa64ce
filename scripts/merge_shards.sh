#!/usr/bin/env bash
# Joins the output directories of several `scripts/nightly.sh --shard i/n --out DIR` runs (one
# per GPU or machine) into one corpus and one report: findings are merged without duplicates
# (counts summed, first/last seen kept), sweep shards are added up into the unsharded result.
# A shard that did not complete (its DIR/status is not "complete ...": killed by a time limit,
# a dead node, still running) is named, and its partial output is merged all the same.
#
#   scripts/merge_shards.sh --into out/merged out/shard-*/
#
# Exit: 0 every shard complete and merged; 1 a shard held a bad finding file (named, skipped);
# 2 usage, or a shard did not complete (everything else still merged and reported);
# 3 the merge or report could not be written.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
into=""
shards=()
while [ $# -gt 0 ]; do
  case "$1" in
    --into) [ $# -ge 2 ] || { echo "merge_shards.sh: --into needs a directory" >&2; exit 2; }
            into="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) shards+=("$1"); shift ;;
  esac
done
[ -n "$into" ] && [ ${#shards[@]} -gt 0 ] || { echo "usage: merge_shards.sh --into DIR SHARD_DIR..." >&2; exit 2; }
lanediff="${LANEDIFF:-$("$root/scripts/build.sh" release | tail -n 1)/fuzz/lanediff}"
mkdir -p "$into/corpus/findings" || exit 3
finding_dirs=(); run_dirs=(); incomplete=0; rc=0
for s in "${shards[@]}"; do
  [ -d "$s" ] || { echo "merge_shards.sh: $s: not a directory" >&2; exit 2; }
  status="$(head -n 1 "$s/status" 2>/dev/null || echo "no status file")"
  case "$status" in
    complete*) ;;
    *) incomplete=$((incomplete + 1))
       echo "merge_shards.sh: INCOMPLETE shard $s ($status): its partial output is merged" >&2 ;;
  esac
  [ -d "$s/corpus/findings" ] && finding_dirs+=("$s/corpus/findings")
  [ -d "$s/runs" ] && run_dirs+=("$s/runs")
done
if [ ${#finding_dirs[@]} -gt 0 ]; then
  "$lanediff" corpus merge "${finding_dirs[@]}" --out "$into/corpus/findings"
  case $? in 0) ;; 1) rc=1 ;; *) exit 3 ;; esac
fi
"$lanediff" report --out "$into/report" --corpus "$into/corpus/findings" "${run_dirs[@]}" || exit 3
if [ "$incomplete" -gt 0 ]; then
  echo "merge_shards.sh: $incomplete of ${#shards[@]} shard(s) did not complete (named above); the report covers what they wrote" >&2
  exit 2
fi
exit "$rc"
