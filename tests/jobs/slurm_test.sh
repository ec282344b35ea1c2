#!/usr/bin/env bash
# tests/jobs/slurm_test.sh — jobs/slurm/sweep.sbatch and jobs/pbs/sweep.pbs on a real
# single-node Slurm (slurmctld, slurmd, munged from Debian's slurmctld, slurmd,
# slurm-client and munge packages), started privately without systemd as in
# Debian's packages allow, and stopped by PID on exit.
#
#   tests/jobs/slurm_test.sh PARADISE_BIN REPO_ROOT WORK_DIR
#
# Private: its own slurm.conf (SLURM_CONF), munge socket, state, spool, logs and PID files
# under a fresh directory in WORK_DIR, and free TCP ports; nothing in /etc or /run is
# touched. Needs root and the packages: otherwise it FAILS (CI runs as root and installs
# them with .ci/install-deps).
#
# Checks: `sbatch --wait jobs/slurm/sweep.sbatch` on a small sweep exits 0, ran on 2 ranks
# through srun, and wrote an HDF5 file whose `status` has the grid's shape; the PBS script
# submitted with sbatch (which reads #PBS lines) does the same with mpiexec and got its job
# name and task count from the #PBS lines; a job whose sweep file is bad exits 2 and
# sbatch --wait returns 2; srun --mpi=none (independent one-rank copies) makes the job fail;
# a job stopped by SIGTERM (scancel --signal) checkpoints, exits 143 and resumes when resubmitted.
set -euo pipefail

fail() {
  echo "slurm_test: FAIL: $*" >&2
  exit 1
}
[ $# -eq 3 ] || fail "usage: slurm_test.sh PARADISE_BIN REPO_ROOT WORK_DIR"
bin=$(realpath "$1")
root=$(realpath "$2")
mkdir -p "$3"
[ -x "$bin" ] || fail "PARADISE_BIN '$1' is not executable"
[ "$(id -u)" -eq 0 ] || fail "must run as root to start slurmctld, slurmd and munged (uid $(id -u)); CI runs as root"
for tool in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged sbatch srun sinfo scontrol mpiexec; do
  command -v "$tool" >/dev/null ||
    fail "'$tool' not found: install the Debian packages slurmctld slurmd slurm-client munge (bash .ci/install-deps)"
done
[ -r /etc/munge/munge.key ] || fail "/etc/munge/munge.key missing (created when the munge package is installed)"
id munge >/dev/null 2>&1 || fail "user 'munge' missing (created when the munge package is installed)"
/usr/bin/python3 -c 'import h5py' 2>/dev/null || fail "/usr/bin/python3 cannot import h5py (Debian package python3-h5py)"

t0=$SECONDS
dir=$(mktemp -d "$(realpath "$3")/slurm.XXXXXX")
chmod 0755 "$dir"
munge_dir=$dir/munge
install -d -o munge -g munge -m 0755 "$munge_dir"   # munged: the socket dir must be a+x
mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/out"

cleanup() {
  local rc=$? pid f
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$munge_dir/munged.pid"; do
    if [ -s "$f" ]; then
      pid=$(cat "$f")
      kill "$pid" 2>/dev/null && echo "slurm_test: stopped $(basename "$f" .pid) (pid $pid)"
    fi
  done
  for _ in $(seq 1 50); do
    local alive=0
    for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$munge_dir/munged.pid"; do
      [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && alive=1
    done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  if [ "$rc" -ne 0 ]; then
    echo "--- slurmctld log (tail)"; tail -n 20 "$dir/log/slurmctld.log" 2>/dev/null || true
    echo "--- slurmd log (tail)"; tail -n 20 "$dir/log/slurmd.log" 2>/dev/null || true
    echo "--- job outputs"; tail -n 30 "$dir"/out/*.out 2>/dev/null || true
    echo "slurm_test: state kept in $dir"
  else
    rm -rf "$dir"
  fi
  exit "$rc"
}
trap cleanup EXIT

# two free ports: nothing answers on them
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  fail "no free TCP port found"
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$slurmd_port" != "$ctld_port" ] || slurmd_port=$((ctld_port + 1))

ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || ncpu=2
export SLURM_CONF=$dir/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=paradise-test
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$munge_dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=pmi2
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$ncpu RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

runuser -u munge -- /usr/sbin/munged --socket="$munge_dir/munge.socket" \
  --pid-file="$munge_dir/munged.pid" --log-file="$munge_dir/munged.log" \
  --seed-file="$munge_dir/munged.seed" ||
  fail "munged did not start (log: $munge_dir/munged.log)"
/usr/sbin/slurmctld || fail "slurmctld did not start"
/usr/sbin/slurmd -N localhost || fail "slurmd did not start"
for _ in $(seq 1 100); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 0.2
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || { sinfo -R >&2 || true; fail "the slurm node did not become idle"; }
echo "slurm_test: slurm up in $((SECONDS - t0)) s (ports $ctld_port, $slurmd_port; state $dir)"

cat >"$dir/small.ini" <<'INI'
[sweep]
model = resnet50, cosmoflow
dataset = imagenet, cosmoflow
system = abci
strategy = data, spatial, data+spatial
gpus = 1..64 *2
batch = 32, 256
INI
shape=(2 2 1 3 7 2)

check_h5() { # FILE
  /usr/bin/python3 - "$1" "${shape[@]}" <<'PY' || fail "HDF5 check of $1"
import sys, h5py
path, want = sys.argv[1], tuple(int(x) for x in sys.argv[2:])
with h5py.File(path, "r") as f:
    if "status" not in f:
        sys.exit(f"{path}: no variable 'status' (has {sorted(f)})")
    got = f["status"].shape
    if got != want:
        sys.exit(f"{path}: status has shape {got}, expected {want}")
    print(f"slurm_test: {path}: status {got}")
PY
}

export PARADISE_BIN=$bin PARADISE_ROOT=$root
cd "$dir"

# 1. the Slurm script, srun
rc=0
sbatch --wait --ntasks=2 --output="$dir/out/slurm-%j.out" "$root/jobs/slurm/sweep.sbatch" \
  "$dir/small.ini" "$dir/out/slurm.h5" || rc=$?
[ "$rc" -eq 0 ] || fail "sbatch --wait jobs/slurm/sweep.sbatch exited $rc"
grep -q ' points on 2 ranks in ' "$dir"/out/slurm-*.out || fail "the Slurm job did not run on 2 ranks"
grep -q 'run-sweep: .*srun -n 2' "$dir"/out/slurm-*.out || fail "the Slurm job did not launch with srun -n 2"
check_h5 "$dir/out/slurm.h5"
echo "slurm_test: Slurm job ok at $((SECONDS - t0)) s"

# 1b. an array job for a parameter study (issue 39): jobs/submit --array's line (its sizing
# taken as printed, run here with one task each), each task its entry of the list
printf '%s %s\n' "$dir/small.ini" "$dir/out/array0.h5" "$dir/small.ini" "$dir/out/array1.h5" >"$dir/study.txt"
line=$("$root/jobs/submit" --print --array "$dir/study.txt" --output="$dir/out/array-%A_%a.out" --wait) ||
  fail "jobs/submit --array: $line"
grep -q -- "--array=0-1 " <<<"$line" && grep -q "PARADISE_LIST=$dir/study.txt" <<<"$line" || fail "jobs/submit --array printed: $line"
rc=0
eval "$line" || rc=$?
[ "$rc" -eq 0 ] || fail "the array job exited $rc: $(cat "$dir"/out/array-*.out)"
check_h5 "$dir/out/array0.h5"
check_h5 "$dir/out/array1.h5"
grep -q "sweep.sbatch: array job .* task 1 of $dir/study.txt" "$dir"/out/array-*_1.out || fail "task 1: $(cat "$dir"/out/array-*_1.out)"
echo "slurm_test: array job ok at $((SECONDS - t0)) s"

# 2. the PBS script through sbatch's #PBS support (no Debian PBS server); mpiexec inside
rc=0
job=$(PARADISE_SWEEP=$dir/small.ini PARADISE_OUT=$dir/out/pbs.h5 \
  sbatch --parsable --wait --output="$dir/out/pbs-%j.out" "$root/jobs/pbs/sweep.pbs") || rc=$?
[ "$rc" -eq 0 ] || fail "sbatch --wait jobs/pbs/sweep.pbs exited $rc"
info=$(scontrol show job "${job%%;*}")
grep -q 'JobName=paradise-sweep' <<<"$info" || fail "sbatch did not take the job name from '#PBS -N': $info"
grep -q 'NumTasks=2' <<<"$info" || fail "sbatch did not take 2 tasks from '#PBS -l nodes=1:ppn=2': $info"
grep -q 'TimeLimit=00:30:00' <<<"$info" || fail "sbatch did not take '#PBS -l walltime=00:30:00': $info"
grep -q 'run-sweep: .*mpiexec -n 2' "$dir"/out/pbs-*.out || fail "the PBS job did not launch with mpiexec -n 2"
grep -q ' points on 2 ranks in ' "$dir"/out/pbs-*.out || fail "the PBS job did not run on 2 ranks"
check_h5 "$dir/out/pbs.h5"
echo "slurm_test: PBS job (via sbatch) ok at $((SECONDS - t0)) s"

# 3. a bad sweep file: the job's exit code is paradise's (2), and sbatch --wait returns it
printf '[sweep]\nmodel = resnet50\n' >"$dir/bad.ini"
rc=0
sbatch --wait --ntasks=2 --output="$dir/out/bad-%j.out" "$root/jobs/slurm/sweep.sbatch" \
  "$dir/bad.ini" "$dir/out/bad.h5" || rc=$?
[ "$rc" -eq 2 ] || fail "a job with a bad sweep file: sbatch --wait returned $rc, expected 2"
grep -q "bad.ini" "$dir"/out/bad-*.out || fail "the bad job's output does not name bad.ini"
[ ! -e "$dir/out/bad.h5" ] || fail "a failed sweep left $dir/out/bad.h5"
echo "slurm_test: failing job returned 2 at $((SECONDS - t0)) s"
# 4. srun without a PMI plugin starts independent one-rank copies: the runner must fail
rc=0
PARADISE_SRUN_MPI=none sbatch --wait --ntasks=2 --output="$dir/out/nopmi-%j.out" \
  "$root/jobs/slurm/sweep.sbatch" "$dir/small.ini" "$dir/out/nopmi.h5" || rc=$?
[ "$rc" -ne 0 ] || fail "srun --mpi=none (two singletons) was not caught: sbatch --wait returned 0"
# the copies race on OUT.h5.tmp: one may fail first, else the rank-count check fails the job
grep -Eq "ran on '1 ?' rank\(s\), not 2|paradise sweep exited with" "$dir"/out/nopmi-*.out ||
  fail "srun --mpi=none: neither a rank-count error nor a failed sweep in the job output"
echo "slurm_test: singleton launch caught (exit $rc) at $((SECONDS - t0)) s"
# 5. scancel --signal=TERM (as --signal=TERM@120 before the time limit): the ranks
# checkpoint and stop, the job exits 143; the same job submitted again resumes and finishes.
# 12 M points, about 4 s on 2 ranks (tests/data/sweeps-12m.ini).
cp "$root/tests/data/sweeps-12m.ini" "$dir/long.ini"
job=$(sbatch --parsable --ntasks=2 --output="$dir/out/stop-%j.out" "$root/jobs/slurm/sweep.sbatch" \
  "$dir/long.ini" "$dir/out/stop.h5" -- --checkpoint 100)
job=${job%%;*}
for _ in $(seq 1 600); do [ -e "$dir/out/stop.h5.tmp" ] && break; sleep 0.1; done
[ -e "$dir/out/stop.h5.tmp" ] || fail "the long job never opened its output: $(cat "$dir"/out/stop-*.out)"
scancel --signal=TERM "$job"
state=
for _ in $(seq 1 600); do
  state=$(scontrol show job "$job" | grep -o 'JobState=[A-Z]*' || true)
  case $state in *RUNNING* | *PENDING* | *COMPLETING* | "") sleep 0.1 ;; *) break ;; esac
done
code=$(scontrol show job "$job" | grep -o ' ExitCode=[0-9]*:[0-9]*' || true)
[ "$code" = " ExitCode=143:0" ] || fail "the stopped job: $state$code, expected exit 143: $(cat "$dir"/out/stop-*.out)"
grep -q 'stopped by SIGTERM after .* run the same command with --resume' "$dir"/out/stop-"$job".out ||
  fail "the stopped job did not say how to go on: $(cat "$dir"/out/stop-"$job".out)"
[ -e "$dir/out/stop.h5.resume" ] || fail "the stopped job left no checkpoint"
rc=0
sbatch --wait --ntasks=2 --output="$dir/out/stop-again-%j.out" "$root/jobs/slurm/sweep.sbatch" \
  "$dir/long.ini" "$dir/out/stop.h5" -- --checkpoint 100 || rc=$?
[ "$rc" -eq 0 ] || fail "the resubmitted job exited $rc: $(cat "$dir"/out/stop-again-*.out)"
grep -q 'continuing the interrupted sweep (--resume)' "$dir"/out/stop-again-*.out ||
  fail "the resubmitted job did not resume"
[ -e "$dir/out/stop.h5" ] && [ ! -e "$dir/out/stop.h5.resume" ] || fail "the resumed job did not finish the file"
echo "slurm_test: a job stopped by SIGTERM resumed when resubmitted at $((SECONDS - t0)) s"
echo "slurm_test: PASS in $((SECONDS - t0)) s"
