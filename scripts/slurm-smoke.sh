#!/usr/bin/env bash
# Runs the Slurm example for real on this machine and proves a sharded fleet run finds what
# one machine finds. Starts a private single-node cluster (munged, slurmctld, slurmd; its own
# key, sockets, ports on 127.0.0.1, spool and logs in a temporary directory; a generated
# slurm.conf with this machine's CPU count), submits
# scripts/examples/slurm-nightly.sbatch unchanged (only a budget is passed in: the simulator
# with a planted erratum, a fixed seed and a test-case budget, not wall time) as an array of N
# shards, waits, merges them with scripts/merge_shards.sh, runs the same nightly job unsharded
# in one process, and compares:
#   - findings: the same signatures with the same counts;
#   - sweeps: the same rows (target, instruction, setting, lanes, mismatches);
#   - the merged report is rendered (xml, md, html), and a shard that died is named by
#     merge_shards.sh while its partial output still merges.
# Whatever happens, it cancels its jobs, stops the daemons it started (by pid) and removes its
# directory: nothing of it is left running or on disk (/etc/slurm and /etc/munge untouched).
# Its last line says whether sharded == unsharded.
#
#   scripts/slurm-smoke.sh [--install] [--shards N] [--execs N] [--keep]
#
#   --install    apt-get install slurm-wlm and munge from Debian if missing (CI asks; they
#                stay installed, their system services are never started)
#   --shards N   array size (default 3)
#   --execs N    test cases per campaign, in total over the shards (default 60)
#   --keep       keep the work directory (logs, shards, reports) and print its path
#
# Needs root (slurmd launches the jobs). Exit: 0 sharded == unsharded; 1 they differ or a step
# failed (the reason is printed); 2 usage; 3 environment (not root, Slurm missing without
# --install, a daemon that does not come up).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
install=0; shards=3; execs=60; keep=0
usage() { echo "slurm-smoke: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --install) install=1; shift ;;
    --shards) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || usage "--shards needs a count >= 1"; shards="$2"; shift 2 ;;
    --execs) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || usage "--execs needs a count >= 1"; execs="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) usage "unknown option $1 (see --help)" ;;
  esac
done
t0=$(date +%s)
say() { printf '[slurm-smoke %3ds] %s\n' "$(( $(date +%s) - t0 ))" "$*"; }
final=""  # the verdict; printed by cleanup as the very last line
fail() { final="slurm-smoke: FAIL: sharded == unsharded not shown: $*"; exit 1; }
envfail() {  # before the cluster's directory exists there is no cleanup to print the verdict
  final="slurm-smoke: FAIL (environment): $*"
  [ -n "${work:-}" ] || echo "$final"
  exit 3
}


[ "$(id -u)" = 0 ] || envfail "needs root (slurmd runs the jobs); run as root or with sudo"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  [ "$install" = 1 ] || envfail "slurmctld, slurmd or munged missing: pass --install (apt-get install slurm-wlm munge)"
  say "installing slurm-wlm and munge from Debian"
  # The packages' postinst may try to start their services: policy-rc.d 101 forbids it, so the
  # only daemons running are the ones this script starts (and stops).
  policy=/usr/sbin/policy-rc.d; had_policy=0; [ -e "$policy" ] && had_policy=1
  [ "$had_policy" = 1 ] || { printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy"; }
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null; }
  apt_install || { DEBIAN_FRONTEND=noninteractive apt-get update -qq && apt_install; }
  rc=$?
  [ "$had_policy" = 1 ] || rm -f "$policy"
  [ "$rc" = 0 ] ||
    envfail "apt-get install slurm-wlm munge failed"
fi

lanediff="${LANEDIFF:-$("$root/scripts/build.sh" release | tail -n 1)/fuzz/lanediff}"
[ -x "$lanediff" ] || envfail "no lanediff binary at $lanediff"

work="$(mktemp -d /tmp/lanediff-slurm-smoke.XXXXXX)" || envfail "mktemp failed"
chmod 711 "$work"  # munged wants its socket directory searchable
pids=(); job=""; one_pid=""
export SLURM_CONF="$work/slurm.conf"
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$one_pid" ]; then kill -TERM "$one_pid" 2>/dev/null; wait "$one_pid" 2>/dev/null; fi
  if [ -n "$job" ]; then
    scancel "$job" 2>/dev/null
    for _ in $(seq 100); do [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break; sleep 0.1; done
  fi
  # Daemons in reverse order of start, each by the pid this script got when it started it.
  for ((k = ${#pids[@]} - 1; k >= 0; k--)); do
    local p="${pids[$k]}"
    kill -TERM "$p" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  if [ "$rc" != 0 ]; then
    for log in "$work"/slurmctld.log "$work"/slurmd.log "$work"/munged.log "$work"/lanediff-*.log; do
      [ -f "$log" ] && { echo "--- last lines of $log"; tail -n 15 "$log"; }
    done
  fi
  if [ "$keep" = 1 ]; then echo "slurm-smoke: work directory kept: $work"; else rm -rf "$work"; fi
  case "$rc" in
    130|143) final="slurm-smoke: FAIL: interrupted (exit $rc); everything it started is stopped" ;;
  esac
  [ -n "$final" ] && echo "$final"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits up to $1 deciseconds for the command after it to succeed (polling state, never a guess).
wait_for() {
  local tenths="$1"; shift
  for _ in $(seq "$tenths"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}
free_port() {  # a TCP port nobody listens on, from a range Slurm does not use by default
  local p
  for p in $(seq 16817 16899); do
    ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return 0; }
  done
  return 1
}

# 1. munge, with its own key and socket.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged -F --force --key-file="$work/munge.key" --socket="$work/munge.socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed" \
  >"$work/munged.out" 2>&1 &
pids+=($!)
wait_for 100 test -S "$work/munge.socket" || envfail "munged did not create its socket (see $work/munged.log)"

# 2. slurm.conf: this machine's CPUs; no GPU (the shards run the simulator).
cpus="$(nproc)"
ctl_port="$(free_port)" || envfail "no free port for slurmctld"
d_port=$((ctl_port + 1))
ss -Htln "sport = :$d_port" | grep -q . && envfail "port $d_port is in use"
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<EOF
ClusterName=lanediff-smoke
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
NodeName=lanediff-smoke NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$cpus State=UNKNOWN
PartitionName=smoke Nodes=lanediff-smoke Default=YES MaxTime=30 State=UP
EOF

# 3. slurmctld and slurmd in the foreground of this script (so their pids are ours).
slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
wait_for 300 scontrol ping || envfail "slurmctld did not answer (see $work/slurmctld.log)"
slurmd -D -N lanediff-smoke -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { sinfo -h -n lanediff-smoke -o %t | grep -qx idle; }
wait_for 300 node_idle || envfail "node lanediff-smoke did not become idle (sinfo: $(sinfo -h -o '%t %E' 2>&1))"
say "cluster up: slurmctld :$ctl_port, slurmd :$d_port on 127.0.0.1, $cpus CPU(s), munge at $work/munge.socket"

# 4. The array: the example as it ships, a budget passed in. The smoke's budget: the simulator
# with u8_truncate planted, seed 7, $execs test cases per campaign over all shards, the smoke
# sweep. --gpus/--cpus-per-task/--time on the command line fit the example to this machine
# (no GPU: the shards simulate; 1 CPU each so they run side by side on this node).
budget=(--device sim --inject u8_truncate --seed 7 --campaign-execs "$execs" --sweep smoke)
export LANEDIFF="$lanediff" LANEDIFF_REPO="$root" LANEDIFF_OUT="$work/fleet"
job="$(cd "$root" && sbatch --parsable --array="1-$shards" --gpus=0 --cpus-per-task=1 --time=15 \
  --output="$work/lanediff-%A_%a.log" scripts/examples/slurm-nightly.sbatch "${budget[@]}")" ||
  fail "sbatch refused the example"
job="${job%%;*}"
say "submitted array job $job ($shards shards: ${budget[*]})"

# 5. The same job unsharded in one process meanwhile: --jobs $shards runs the same workers.
# In the background and waited for, so a signal to this script is handled at once (cleanup
# stops it too).
"$root/scripts/nightly.sh" "${budget[@]}" --jobs "$shards" --out "$work/one" --corpus "$work/one/corpus" \
  > "$work/one.log" 2>&1 &
one_pid=$!
wait "$one_pid"
one_rc=$?
one_pid=""
[ "$one_rc" = 1 ] || fail "unsharded nightly exited $one_rc, expected 1 (the planted erratum found); see $work/one.log"
say "unsharded run done"

array_done() { [ -z "$(squeue -h -j "$job" 2>/dev/null)" ]; }
wait_for 2400 array_done || fail "array $job still running after 240 s: $(squeue -h -j "$job" -o '%i %t %r')"
job_done="$job"; job=""
for i in $(seq "$shards"); do
  st="$(cat "$work/fleet/shard-$i/status" 2>/dev/null || echo 'no status')"
  case "$st" in
    "complete"*"broken=0") ;;
    *) fail "shard $i of job $job_done did not complete cleanly ($st); see $work/lanediff-${job_done}_$i.log" ;;
  esac
done
say "array $job_done done: $shards shards complete"

# 6. Merge, compare.
LANEDIFF="$lanediff" "$root/scripts/merge_shards.sh" --into "$work/merged" "$work"/fleet/shard-* \
  > "$work/merge.log" 2>&1 || fail "merge_shards.sh exited $? (see $work/merge.log)"
findings() {  # path under findings/ and count, one line per finding
  (cd "$1" && find . -name '*.textproto' | sort | while read -r f; do
     echo "$f $(grep -m1 '^count:' "$f")"; done)
}
sweeps() {  # the report's sweep rows without the seconds column
  awk '/^## Sweeps/ { on = 1; next } on && /^## / { on = 0 } on && /^\| gfx/' "$1/report.md" |
    awk -F'|' 'BEGIN { OFS = "|" } { NF = NF - 2; print }' | sort
}
findings "$work/one/corpus/findings" > "$work/one.findings"
findings "$work/merged/corpus/findings" > "$work/merged.findings"
sweeps "$work/one/report" > "$work/one.sweeps"
sweeps "$work/merged/report" > "$work/merged.sweeps"
nf=$(wc -l < "$work/one.findings"); ns=$(wc -l < "$work/one.sweeps")
[ "$nf" -gt 0 ] || fail "the unsharded run stored no finding: the planted erratum was not found"
grep -q 'pk_u8_rounding=truncate' "$work/one.findings" || fail "no finding explained by the planted erratum (pk_u8_rounding=truncate)"
[ "$ns" -gt 0 ] || fail "no sweep rows in $work/one/report/report.md"
awk -F'|' '$3 ~ /pk.*u8/ && $8 + 0 > 0 { found = 1 } END { exit !found }' "$work/one.sweeps" ||
  fail "the pk_u8 sweep saw no mismatch: the planted erratum was not swept"
diff -u "$work/one.findings" "$work/merged.findings" > "$work/findings.diff" ||
  { head -n 20 "$work/findings.diff"; fail "findings differ (above: - unsharded, + merged shards)"; }
diff -u "$work/one.sweeps" "$work/merged.sweeps" > "$work/sweeps.diff" ||
  { head -n 20 "$work/sweeps.diff"; fail "sweep rows differ (above: - unsharded, + merged shards)"; }
for f in report.xml report.md report.html; do
  [ -s "$work/merged/report/$f" ] || fail "merged report $f not rendered"
done

# 7. A shard that dies: a copy of shard 1 as its time limit leaves it (status "killed", the
# later run records never written) is named by merge_shards.sh, and what it wrote still merges.
dead="$work/dead/shard-1"; mkdir -p "$work/dead"
cp -a "$work/fleet/shard-1" "$dead"
echo "killed by SIGTERM after 3 s" > "$dead/status"
find "$dead/runs" -name 'verdicts-*' -delete
others=(); for i in $(seq 2 "$shards"); do others+=("$work/fleet/shard-$i"); done
LANEDIFF="$lanediff" "$root/scripts/merge_shards.sh" --into "$work/dead-merged" "$dead" "${others[@]}" \
  > "$work/dead-merge.log" 2>&1
dead_rc=$?
[ "$dead_rc" = 2 ] || fail "merge_shards.sh with a dead shard exited $dead_rc, expected 2"
grep -q "INCOMPLETE shard $dead" "$work/dead-merge.log" || fail "merge_shards.sh did not name the dead shard"
findings "$work/dead-merged/corpus/findings" > "$work/dead.findings"
diff -q "$work/merged.findings" "$work/dead.findings" >/dev/null ||
  fail "the dead shard's findings did not merge like the complete shard's"

say "findings: $nf signatures, same counts; sweeps: $ns rows, same lanes and mismatches; report rendered; dead shard named and merged"
final="slurm-smoke: PASS: sharded == unsharded ($shards Slurm shards merged vs one process: $nf findings with equal counts, $ns sweep rows equal) in $(( $(date +%s) - t0 )) s"
