#!/usr/bin/env bash
# Joins the output directories of several `scripts/nightly.sh --shard i/n --out DIR` runs (one
# per GPU or machine) into one corpus and one report: findings are merged without duplicates
# (counts summed, first/last seen kept), sweep shards are added up into the unsharded result.
#
#   scripts/merge_shards.sh --into out/merged out/shard-*/
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
into=""
shards=()
while [ $# -gt 0 ]; do
  case "$1" in
    --into) into="$2"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) shards+=("$1"); shift ;;
  esac
done
[ -n "$into" ] && [ ${#shards[@]} -gt 0 ] || { echo "usage: merge_shards.sh --into DIR SHARD_DIR..." >&2; exit 2; }
lanediff="${LANEDIFF:-$("$root/scripts/build.sh" release | tail -n 1)/fuzz/lanediff}"
mkdir -p "$into/corpus/findings"
finding_dirs=(); run_dirs=()
for s in "${shards[@]}"; do
  [ -d "$s/corpus/findings" ] && finding_dirs+=("$s/corpus/findings")
  [ -d "$s/runs" ] && run_dirs+=("$s/runs")
done
if [ ${#finding_dirs[@]} -gt 0 ]; then
  "$lanediff" corpus merge "${finding_dirs[@]}" --into "$into/corpus/findings"
fi
"$lanediff" report --out "$into/report" --corpus "$into/corpus/findings" "${run_dirs[@]}"
