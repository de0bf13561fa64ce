#!/usr/bin/env bash
# scripts/nightly.sh twice in a row on the simulator with a planted erratum (sr_wrap) whose
# buckets are accepted as known: both nights exit 0, the second starts from the first's
# corpus; nights 1 and 2 run seeded, nights 3 and 4 pick fresh seeds, printed and different. Short
# budget: one target, 100 cases per campaign.
# Night 2 also runs the erratum step under a budget that fits two of its four cases (a stand-in
# for fuzz_triage_erratum_buckets_test that returns at once; each case is charged its 60 s):
# the other two are skipped, each with a line naming it, and the summary says so.
#   nightly_test.sh LANEDIFF_BINARY
set -uo pipefail
lanediff="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
fail() { echo "FAIL: $*"; echo "kept $tmp"; exit 1; }
corpus="$tmp/corpus"
mkdir -p "$corpus"
# The night's sweep records carry the run identity as its campaign records do: device kind and
# name, the driver / ISA string ("none (sim)": the simulator has no driver), injected errata.
"$lanediff" sweep --device sim --inject u8_truncate --targets gfx942 --instrs v_cvt_pk_u8_f32 \
  --last 4096 --out "$tmp/sweep.textproto" >/dev/null 2>&1 || fail "sweep on the simulator"
for want in 'device_kind: "sim"' 'driver: "none (sim)"' 'injected: "u8_truncate"' 'device_name: "sim '; do
  grep -qF "$want" "$tmp/sweep.textproto" || { cat "$tmp/sweep.textproto"; fail "sweep record identity lacks $want"; }
done
# sr_wrap is sr_rounding=literal (device_harness/sim/errata.h): on gfx950 it touches both SR
# instructions.
for i in v_cvt_sr_fp8_f32 v_cvt_sr_bf8_f32; do
  "$lanediff" triage "$corpus" --accept "$i.sr_rounding=literal" --reason "planted sr_wrap" \
    --link "device_harness/sim/errata.h" >/dev/null || fail "accept $i"
done
# night N [ERRATUM]: the night's erratum, sr_wrap unless given ("none": a fixed simulator).
# Nights 1 and 2 run with a given seed (NIGHT_SEED): with --campaign-execs a seeded night is
# exactly repeatable, and their exit codes depend on which buckets the campaigns find (a fresh
# seed can draw a batch the triage names by a class, a NEW bucket). Nights 3 and 4 pick fresh
# seeds, which must be printed and differ.
night() {
  local inject=(--inject "${2:-sr_wrap}"); [ "${2:-}" = none ] && inject=()
  local seed=(); [ -n "${NIGHT_SEED:-}" ] && seed=(--seed "$NIGHT_SEED")
  "$root/scripts/nightly.sh" --lanediff "$lanediff" --device sim "${inject[@]}" "${seed[@]}" \
    --targets gfx950 --campaign-execs 100 --sweep none --corpus "$corpus" --out "$tmp/out$1" \
    > "$tmp/night$1.log" 2>&1
}
NIGHT_SEED=101 night 1; rc1=$?
[ $rc1 = 0 ] || { cat "$tmp/night1.log"; fail "night 1 exited $rc1"; }
grep -q "KNOWN *v_cvt_sr_fp8_f32.sr_rounding=literal" "$tmp/night1.log" || { cat "$tmp/night1.log"; fail "night 1: no KNOWN bucket"; }
n1=$(find "$corpus/findings" -name '*.textproto' | wc -l)
[ "$n1" -gt 0 ] || fail "night 1 stored nothing"
grep -q "triage erratum" "$tmp/night1.log" && { cat "$tmp/night1.log"; fail "night 1 (--sweep none, no --erratum-budget) ran the erratum step"; }
grep -q "erratum_skipped=0/0 found=0 broken=0" "$tmp/out1/status" || { cat "$tmp/out1/status"; fail "night 1: status"; }
# The stand-in lists four cases as gtest does (a suite line, then its cases; parameterized ones
# with a comment) and records each case it is asked to run.
fake="$tmp/fake_erratum_test.sh"
cat > "$fake" <<'FAKE'
#!/usr/bin/env bash
case "$1" in
  --gtest_list_tests)
    printf 'Running main() from gtest_main.cc\nErratumBuckets.\n  CleanRunYieldsNone\n'
    printf 'Sim/ErratumBuckets.\n  Effect/sr_wrap  # GetParam() = 80-byte object <00>\n'
    printf '  Effect/u8_truncate  # GetParam() = 80-byte object <01>\n'
    printf '  Effect/nan_sign  # GetParam() = 80-byte object <02>\n' ;;
  --gtest_filter=*) echo "${1#--gtest_filter=} ${LANEDIFF_ERRATUM_SECONDS:-unset}" >> "${0%.sh}.ran" ;;
  *) exit 2 ;;
esac
FAKE
chmod +x "$fake"
# 150 s: the first case leaves 90 s, the second 30 s, less than a 60 s case.
NIGHT_SEED=202 NIGHTLY_ERRATUM_BUDGET=150 LANEDIFF_ERRATUM_TEST="$fake" night 2; rc2=$?
[ $rc2 = 0 ] || { cat "$tmp/night2.log"; fail "night 2 exited $rc2"; }
printf 'ErratumBuckets.CleanRunYieldsNone 60\nSim/ErratumBuckets.Effect/sr_wrap 60\n' > "$tmp/want.ran"
diff "$tmp/want.ran" "$tmp/fake_erratum_test.ran" || fail "night 2 ran other erratum cases than the two that fit"
for c in u8_truncate:30 nan_sign:30; do
  grep -qF "triage erratum Sim/ErratumBuckets.Effect/${c%:*}: SKIPPED: needs about 60 s, ${c#*:} s left of the 150 s erratum budget (--erratum-budget)" "$tmp/night2.log" ||
    { cat "$tmp/night2.log"; fail "night 2: no line naming the skipped case ${c%:*}"; }
done
grep -qF "found=0 broken=0 (found = NEW or REGRESSED buckets); INCOMPLETE: 2 of 4 erratum cases skipped for lack of budget (Sim/ErratumBuckets.Effect/u8_truncate Sim/ErratumBuckets.Effect/nan_sign)" "$tmp/night2.log" ||
  { cat "$tmp/night2.log"; fail "night 2: the summary does not say which erratum cases were skipped"; }
grep -q "erratum_skipped=2/4 found=0 broken=0" "$tmp/out2/status" || { cat "$tmp/out2/status"; fail "night 2: status does not count the skipped cases"; }
grep -q "corpus $corpus: $n1 findings" "$tmp/night2.log" || { cat "$tmp/night2.log"; fail "night 2 did not start from night 1's $n1 findings"; }
s1=$(sed -n 's/.*\] seed \([0-9]*\) (rerun.*/\1/p' "$tmp/night1.log")
s2=$(sed -n 's/.*\] seed \([0-9]*\) (rerun.*/\1/p' "$tmp/night2.log")
[ "$s1" = 101 ] && [ "$s2" = 202 ] || fail "--seed not printed as given (101/202: $s1/$s2)"
[ "$(cat "$tmp/out1/seed.txt")" = "$s1" ] || fail "seed.txt does not record $s1"
# The night's report agrees with its triage: the known buckets are skipped with their reason,
# nothing fails, and the header names the simulator as not silicon.
xml="$tmp/out1/report/report.xml"
xmllint --noout "$xml" || fail "report.xml is not well-formed"
grep -q 'skipped message="KNOWN: planted sr_wrap' "$xml" || fail "report.xml: no KNOWN bucket skipped"
grep -q '<testsuites name="lanediff" tests="[0-9]*" failures="0">' "$xml" || fail "report.xml: failures on a green night"
grep -q 'simulator (not silicon)' "$tmp/out1/report/report.html" || fail "report.html: simulator not labelled"
# The erratum gone (a fixed simulator): its accepted buckets are FIXED, the night green.
night 4 none; rc4=$?
[ $rc4 = 0 ] || { cat "$tmp/night4.log"; fail "night 4 (erratum fixed) exited $rc4, expected 0"; }
grep -q "FIXED *v_cvt_sr_fp8_f32.sr_rounding=literal" "$tmp/night4.log" || { cat "$tmp/night4.log"; fail "night 4: the known bucket is not FIXED"; }
# The same night with the erratum no longer accepted is red.
rm "$corpus/known_issues.textproto"
night 3; rc3=$?
s3=$(sed -n 's/.*\] seed \([0-9]*\) (rerun.*/\1/p' "$tmp/night3.log")
s4=$(sed -n 's/.*\] seed \([0-9]*\) (rerun.*/\1/p' "$tmp/night4.log")
[ -n "$s3" ] && [ -n "$s4" ] || fail "fresh seed not printed ($s3/$s4)"
[ "$s3" != "$s4" ] || fail "both fresh nights used seed $s3"
[ $rc3 = 1 ] || { cat "$tmp/night3.log"; fail "night 3 (nothing known) exited $rc3, expected 1"; }
grep -q '<failure message="NEW: cause sr_rounding=literal' "$tmp/out3/report/report.xml" || fail "night 3: report.xml has no NEW failure"
# Numbers are decimal: --seed 08 is seed 8 (bash arithmetic refused it as octal), 010 is 10 (it
# was 8); what is not a number is refused before the night starts.
for bad in 8x -3 0x10 1234567890123456789; do
  "$root/scripts/nightly.sh" --lanediff "$lanediff" --seed "$bad" --out "$tmp/bad" > "$tmp/bad.log" 2>&1; rc=$?
  [ $rc = 2 ] && grep -q "is not a decimal number" "$tmp/bad.log" || { cat "$tmp/bad.log"; fail "--seed '$bad' not refused (exit $rc)"; }
done
[ ! -e "$tmp/bad" ] || fail "a refused --seed still created the output directory"
# Killed (SIGTERM, as a CI timeout does) during its first 30 s campaign, with seed 010: the night
# ends within seconds and still writes its three reports, marked INCOMPLETE with the step.
"$root/scripts/nightly.sh" --lanediff "$lanediff" --device sim --targets gfx942 --sweep none \
  --campaign-seconds 30 --seed 010 --corpus "$tmp/kcorpus" --out "$tmp/killed" > "$tmp/killed.log" 2>&1 &
npid=$!
for _ in $(seq 600); do grep -q "\] fuzz gfx942 " "$tmp/killed.log" && break; sleep 0.1; done
grep -q "\] fuzz gfx942 [a-z0-9_]* (30 s, seed 11)" "$tmp/killed.log" || { cat "$tmp/killed.log"; kill $npid; fail "seed 010 is not 10 (first campaign seed 11)"; }
grep -q "\] seed 10 (rerun" "$tmp/killed.log" || { cat "$tmp/killed.log"; fail "seed 010 not printed as 10"; }
t0=$(date +%s)
kill -TERM $npid
wait $npid; krc=$?
took=$(( $(date +%s) - t0 ))
[ $krc = 143 ] || { cat "$tmp/killed.log"; fail "killed night exited $krc, expected 143 (SIGTERM)"; }
[ $took -le 15 ] || fail "killed night took $took s to end"
for f in report.xml report.md report.html; do
  grep -q "INCOMPLETE: killed by SIGTERM after [0-9]* s during step: fuzz gfx942 " "$tmp/killed/report/$f" ||
    { cat "$tmp/killed.log"; fail "killed night: $f missing or not marked INCOMPLETE with the step"; }
done
xmllint --noout "$tmp/killed/report/report.xml" || fail "killed night: report.xml is not well-formed"
grep -q "killed by SIGTERM after [0-9]* s during fuzz gfx942 " "$tmp/killed/status" || { cat "$tmp/killed/status"; fail "killed night: status"; }
echo "PASS: nights exit $rc1 $rc2 (known), $rc4 (erratum gone: FIXED) and $rc3 (not known); seeds $s1 $s2 (given), $s4 $s3 (fresh); night 2 started from $n1 findings; a killed night wrote INCOMPLETE reports in $took s"
rm -rf "$tmp"
