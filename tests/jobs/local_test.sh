#!/usr/bin/env bash
# shellcheck disable=SC2015  # "CHECK && CHECK || fail ...": fail exits, so this is if-then-else
# tests/jobs/local_test.sh — the local runner, jobs/run-sweep's logic and jobs/suggest.
#
#   tests/jobs/local_test.sh PARADISE_BIN REPO_ROOT WORK_DIR
#
# Real: jobs/local/sweep -n 2 on a small sweep writes the file and exits 0; a bad sweep file
# exits 2; jobs/suggest reads the dry-run of every sweeps/*.ini. With a stub binary (which
# prints its arguments): --resume is added only when OUT.h5.tmp and OUT.h5.resume both
# exist, the stub's exit code comes back, a run on fewer ranks than asked (independent
# copies) is an error, and a dry-run text without "points:" makes jobs/suggest fail.
set -euo pipefail

fail() {
  echo "local_test: FAIL: $*" >&2
  exit 1
}
[ $# -eq 3 ] || fail "usage: local_test.sh PARADISE_BIN REPO_ROOT WORK_DIR"
bin=$(realpath "$1")
root=$(realpath "$2")
mkdir -p "$3"
dir=$(mktemp -d "$(realpath "$3")/local.XXXXXX")
trap 'rc=$?; [ "$rc" -eq 0 ] && rm -rf "$dir"; exit "$rc"' EXIT
cd "$dir"

# 1. a real run on two ranks
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = abci\nstrategy = data, filter\ngpus = 1..16 *2\nbatch = 64, 256\n' >small.ini
PARADISE_BIN=$bin "$root/jobs/local/sweep" -n 2 small.ini out.h5 >run.log 2>&1 || { cat run.log; fail "jobs/local/sweep -n 2 exited $?"; }
grep -q ' points on 2 ranks in ' run.log || { cat run.log; fail "the local run did not report 2 ranks"; }
/usr/bin/python3 -c 'import h5py,sys; s=h5py.File("out.h5")["status"].shape; sys.exit(0 if s==(1,1,1,2,5,2) else f"status shape {s}")' ||
  fail "out.h5 has not the grid's shape"

# a one-point sweep ("1 point on 1 rank"; the runner's check once wanted "points")
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 8\nbatch = 64\n' >one.ini
PARADISE_BIN=$bin "$root/jobs/local/sweep" -n 1 one.ini one.h5 >one.log 2>&1 && [ -e one.h5 ] ||
  fail "a one-point sweep: $(cat one.log)"
grep -q ' 1 point on 1 rank in ' one.log || fail "the one-point summary changed: $(cat one.log)"

# the site's environment (issue 39): PARADISE_ENV is sourced before the binary is looked for
# (here it names the binary), a failing one stops the job with exit 2 naming it, a missing
# one is refused
printf 'export PARADISE_BIN=%q\ntouch sourced.flag\n' "$bin" >site.env
PARADISE_ENV=$dir/site.env "$root/jobs/local/sweep" -n 1 one.ini env.h5 >env.log 2>&1 && [ -e sourced.flag ] && [ -e env.h5 ] &&
  grep -q "^run-sweep: sourcing the site environment $dir/site.env" env.log || fail "the site environment: $(cat env.log)"
printf 'false\n' >failing.env
rc=0; PARADISE_ENV=$dir/failing.env PARADISE_BIN=$bin "$root/jobs/local/sweep" -n 1 one.ini f.h5 >fenv.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "the site environment '$dir/failing.env' failed (exit 1)" fenv.log && [ ! -e f.h5 ] ||
  fail "a failing site environment: exit $rc, $(cat fenv.log)"
rc=0; PARADISE_ENV=$dir/nope.env PARADISE_BIN=$bin "$root/jobs/local/sweep" -n 1 one.ini f.h5 >menv.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PARADISE_ENV '$dir/nope.env' is not a readable file" menv.log || fail "a missing site environment: exit $rc, $(cat menv.log)"

# 2. bad input: exit code 2 from paradise, and from the runner's own checks
printf '[sweep]\nmodel = resnet50\n' >bad.ini
rc=0; PARADISE_BIN=$bin "$root/jobs/local/sweep" -n 2 bad.ini bad.h5 >bad.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { cat bad.log; fail "bad sweep file: exit $rc, expected 2"; }
rc=0; PARADISE_BIN=$bin "$root/jobs/local/sweep" -n 2 missing.ini x.h5 >missing.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "missing.ini" missing.log || fail "missing sweep file: exit $rc, message: $(cat missing.log)"
rc=0; PARADISE_BIN=$dir/nope "$root/jobs/local/sweep" small.ini x.h5 >nobin.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PARADISE_BIN" nobin.log || fail "missing binary: exit $rc, message: $(cat nobin.log)"
rc=0; "$root/jobs/local/sweep" -n zero small.ini x.h5 >ranks.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "'zero'" ranks.log || fail "bad rank count: exit $rc, message: $(cat ranks.log)"

# 3. a stub binary: arguments, resume, exit code, rank count
cat >stub <<'STUB'
#!/usr/bin/env bash
echo "stub args: $*"
echo "sweep $2: 10 points on ${STUB_RANKS:-1} rank${STUB_PLURAL:-} in 0.00 s; 100.0% feasible"
exit "${STUB_RC:-0}"
STUB
chmod +x stub
run() { PARADISE_BIN=$dir/stub "$root/jobs/run-sweep" --launcher none "$@"; }
run small.ini o.h5 >s1.log || fail "stub run failed: $(cat s1.log)"
grep -q 'stub args: sweep small.ini -o o.h5$' s1.log || fail "unexpected arguments: $(cat s1.log)"
touch o.h5.tmp
run small.ini o.h5 >s2.log || fail "stub run failed: $(cat s2.log)"
grep -q 'stub args: sweep small.ini -o o.h5$' s2.log || fail "--resume without a checkpoint: $(cat s2.log)"
touch o.h5.resume
run small.ini o.h5 -- --checkpoint 5 >s3.log || fail "stub run failed: $(cat s3.log)"
grep -q 'stub args: sweep small.ini -o o.h5 --resume --checkpoint 5$' s3.log || fail "no --resume with OUT.h5.tmp and OUT.h5.resume: $(cat s3.log)"
# a dry run writes nothing, and the runner does not say it did
PARADISE_BIN=$bin "$root/jobs/local/sweep" -n 1 small.ini dry.h5 --dry-run >dry.log 2>&1 || fail "dry run: $(cat dry.log)"
[ ! -e dry.h5 ] && grep -q "dry run: nothing evaluated, dry.h5 not written" dry.log && ! grep -q "wrote dry.h5" dry.log ||
  fail "dry run said: $(cat dry.log)"
rc=0; STUB_RC=3 run small.ini o.h5 >s4.log 2>&1 || rc=$?
[ "$rc" -eq 3 ] || fail "the binary's exit code 3 came back as $rc"
cat >fake-mpiexec <<'FAKE'
#!/usr/bin/env bash
shift 2   # -n R: start one independent copy, as srun without a PMI plugin would per rank
exec "$@"
FAKE
chmod +x fake-mpiexec
rc=0; PARADISE_MPIEXEC=$dir/fake-mpiexec PARADISE_BIN=$dir/stub "$root/jobs/run-sweep" --ranks 2 small.ini o.h5 >s5.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "not 2" s5.log || fail "a one-rank run asked for 2 ranks was not caught (exit $rc): $(cat s5.log)"
rc=0; STUB_RANKS=2 STUB_PLURAL=s PARADISE_MPIEXEC=$dir/fake-mpiexec PARADISE_BIN=$dir/stub "$root/jobs/run-sweep" --ranks 2 small.ini o.h5 >s6.log 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "a 2-rank run was rejected (exit $rc): $(cat s6.log)"

# 4. jobs/suggest: every ready sweep, and a changed dry-run format fails clearly
for f in "$root"/sweeps/*.ini; do
  PARADISE_BIN=$bin "$root/jobs/suggest" --shell "$f" >suggest.log 2>&1 || fail "jobs/suggest $f: $(cat suggest.log)"
  grep -Eq '^PARADISE_RANKS=[1-9][0-9]*$' suggest.log && grep -Eq '^PARADISE_WALLTIME=[0-9]+:[0-5][0-9]:00$' suggest.log ||
    fail "jobs/suggest $f printed: $(cat suggest.log)"
done
printf '#!/usr/bin/env bash\necho "grid: 10 cells"\necho "estimated time: 1.0 s on one rank"\n' >oldbin
chmod +x oldbin
rc=0; PARADISE_BIN=$dir/oldbin "$root/jobs/suggest" small.ini >old.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "format changed" old.log || fail "jobs/suggest on an unknown dry-run format: exit $rc, $(cat old.log)"
# the memory-limit searches count in the walltime (issue 39): a stub whose dry run says 100 s
# of points and 500 s of searches, at 100 s per rank, gets ceil(600 / 100) = 6 ranks and
# 3 x 600 / 6 + 120 = 420 s, 7 minutes
printf '#!/usr/bin/env bash\necho "points: 1,000,000"\necho "estimated time: 100.0 s on one rank (x)"\necho "estimated search time: 500.0 s on one rank (y)"\n' >searchbin
chmod +x searchbin
PARADISE_TARGET_S=100 PARADISE_BIN=$dir/searchbin "$root/jobs/suggest" --shell small.ini >search.log 2>&1 || fail "suggest with searches: $(cat search.log)"
grep -qx "PARADISE_RANKS=6" search.log && grep -qx "PARADISE_WALLTIME=00:07:00" search.log ||
  fail "suggest leaves the searches out: $(cat search.log)"
# ranks per node from the scheduler: a sinfo on PATH saying 48 CPUs per node (the smallest
# of the partition's node kinds); without one, 64 and said to be assumed
mkdir -p fakebin
printf '#!/usr/bin/env bash\necho 96\necho 48+\n' >fakebin/sinfo
chmod +x fakebin/sinfo
PATH=$dir/fakebin:$PATH PARADISE_RANKS=100 PARADISE_BIN=$dir/searchbin "$root/jobs/suggest" small.ini >sinfo.log 2>&1 || fail "suggest with sinfo: $(cat sinfo.log)"
grep -q "on 3 node(s) (48 ranks per node: sinfo: CPUs per node)" sinfo.log || fail "suggest ignores sinfo: $(cat sinfo.log)"
PARADISE_BIN=$dir/searchbin "$root/jobs/suggest" small.ini >nosinfo.log 2>&1 || fail "suggest without sinfo: $(cat nosinfo.log)"
if ! command -v sinfo >/dev/null 2>&1; then
  grep -q "(64 ranks per node: assumed: no scheduler to ask; set PARADISE_RANKS_PER_NODE)" nosinfo.log ||
    fail "suggest does not say 64 is assumed: $(cat nosinfo.log)"
fi
# array jobs (issue 39): jobs/run-sweep --list runs the entry of the task's index (the
# scheduler's variable, or --index); a malformed line and a missing index are named;
# jobs/submit --array sizes one job for all entries (Slurm --array, PBS Pro -J), refuses one
printf '# a study\none.ini a0.h5\n\nsmall.ini a1.h5  # the second\n' >study.txt
SLURM_ARRAY_TASK_ID=1 PARADISE_BIN=$bin "$root/jobs/run-sweep" --launcher none --list study.txt >task.log 2>&1 &&
  [ -e a1.h5 ] && [ ! -e a0.h5 ] || fail "array task 1: $(cat task.log)"
rc=0; PARADISE_BIN=$bin "$root/jobs/run-sweep" --launcher none --list study.txt >task.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "no --index and no array task id" task.log || fail "a task without an index: exit $rc, $(cat task.log)"
printf 'one.ini a0.h5\none.ini a1.h5 extra\n' >badstudy.txt
rc=0; PARADISE_BIN=$bin "$root/jobs/run-sweep" --launcher none --list badstudy.txt --index 1 >task.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "badstudy.txt:2: expected 'SWEEP.ini OUT.h5', got 3 field(s)" task.log || fail "a malformed list: exit $rc, $(cat task.log)"
rm -f a1.h5
PARADISE_RANKS_PER_NODE=64 PARADISE_BIN=$bin "$root/jobs/submit" --print --array study.txt --qos=normal >array.log 2>&1 || fail "submit --array: $(cat array.log)"
grep -qF "sbatch --array=0-1 -N 1 -n 1 " array.log && grep -qF "PARADISE_LIST=$dir/study.txt --qos=normal " array.log || fail "submit --array for Slurm: $(cat array.log)"
PARADISE_RANKS_PER_NODE=64 PARADISE_BIN=$bin "$root/jobs/submit" --print --scheduler pbs --array study.txt >parray.log 2>&1 || fail "submit --array for PBS: $(cat parray.log)"
grep -q "^qsub -J 0-1 " parray.log && grep -qF "PARADISE_LIST=$dir/study.txt" parray.log || fail "submit --array for PBS: $(cat parray.log)"
# an entry whose sweep is bad ends the submission with its dry run's error, and only that
printf '[sweep]\nmodel = resnet50\n' >badsweep.ini
printf 'one.ini a0.h5\nbadsweep.ini a1.h5\n' >badentry.txt
rc=0; PARADISE_BIN=$bin "$root/jobs/submit" --print --array badentry.txt >badentry.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "badsweep.ini: sweep.batch '': missing" badentry.log && ! grep -q "^submit: error" badentry.log ||
  fail "submit --array with a bad sweep: exit $rc, $(cat badentry.log)"
printf 'one.ini a0.h5\n' >single.txt
rc=0; PARADISE_BIN=$bin "$root/jobs/submit" --print --array single.txt >single.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "holds 1 entry: submit one sweep" single.log || fail "submit --array of one entry: exit $rc, $(cat single.log)"
# 5. paths the scheduler lines must carry whole: a space (quoted for pasting), a comma
# (qsub -v splits its list there: refused by name)
cp small.ini "with space.ini"
PARADISE_BIN=$bin "$root/jobs/suggest" "with space.ini" >space.log 2>&1 || fail "suggest with a space: $(cat space.log)"
grep -qF 'jobs/slurm/sweep.sbatch with\ space.ini OUT.h5' space.log || fail "suggest does not quote the path: $(cat space.log)"
cp small.ini "a,b.ini"
PARADISE_BIN=$bin "$root/jobs/suggest" "a,b.ini" >suggest_comma.log 2>&1 || fail "suggest with a comma: $(cat suggest_comma.log)"
grep -q "qsub: 'a,b.ini' holds a comma" suggest_comma.log && ! grep -q "^  qsub -l" suggest_comma.log ||
  fail "suggest printed a qsub line qsub would cut: $(cat suggest_comma.log)"
rc=0; "$root/jobs/submit" --print --scheduler pbs "a,b.ini" out.h5 >comma.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "'a,b.ini' holds a comma, which qsub -v cannot pass" comma.log ||
  fail "submit with a comma for PBS: exit $rc, $(cat comma.log)"
# 6. a rank count set by the user: nodes for it (64 ranks per node: 130 on 3), and no more
# nodes than ranks
PARADISE_RANKS=130 PARADISE_RANKS_PER_NODE=64 PARADISE_BIN=$bin "$root/jobs/submit" --print small.ini out.h5 >ranks.log 2>&1 ||
  fail "submit with PARADISE_RANKS: $(cat ranks.log)"
grep -q "^sbatch -N 3 -n 130 " ranks.log || fail "submit with PARADISE_RANKS=130: $(cat ranks.log)"
# memory per node and cores per rank (issue 39): Slurm's --mem and --cpus-per-task; PBS's
# -l mem in its lower-case units and ppn = ranks per node x cores per rank (130 on 3: 44 x 4)
PARADISE_MEM=64G PARADISE_CPUS_PER_TASK=4 PARADISE_RANKS=130 PARADISE_RANKS_PER_NODE=64 PARADISE_BIN=$bin \
  "$root/jobs/submit" --print small.ini out.h5 >mem.log 2>&1 || fail "submit with PARADISE_MEM: $(cat mem.log)"
grep -q "^sbatch --mem=64G --cpus-per-task=4 -N 3 -n 130 " mem.log || fail "submit's memory and cores for Slurm: $(cat mem.log)"
PARADISE_MEM=64G PARADISE_CPUS_PER_TASK=4 PARADISE_RANKS=130 PARADISE_RANKS_PER_NODE=64 PARADISE_BIN=$bin \
  "$root/jobs/submit" --print --scheduler pbs small.ini out.h5 >pmem.log 2>&1 || fail "submit with PARADISE_MEM for PBS: $(cat pmem.log)"
grep -q "^qsub -l mem=64gb -l nodes=3:ppn=176 " pmem.log || fail "submit's memory and cores for PBS: $(cat pmem.log)"
for bad in PARADISE_MEM=lots PARADISE_CPUS_PER_TASK=0; do
  rc=0; env "$bad" PARADISE_BIN=$bin "$root/jobs/submit" --print small.ini out.h5 >badmem.log 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "${bad%%=*} = '${bad#*=}' is not" badmem.log || fail "submit with $bad: exit $rc, $(cat badmem.log)"
done
# the job finds jobs/run-sweep whatever the submit directory; a missing output directory is
# refused before the queue wait
grep -qF "PARADISE_ROOT=$root " ranks.log || fail "submit does not pass PARADISE_ROOT to sbatch: $(cat ranks.log)"
rc=0; PARADISE_BIN=$bin "$root/jobs/submit" --print small.ini nowhere/out.h5 >nodir.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "output directory 'nowhere' (of OUT.h5 = 'nowhere/out.h5') does not exist" nodir.log ||
  fail "submit to a missing directory: exit $rc, $(cat nodir.log)"
# Hydra's mpiexec can exit 0 after passing a SIGTERM on: a checkpoint and no summary is a stop
cat >stopped <<'STUB'
#!/usr/bin/env bash
touch "$4.tmp" "$4.resume"
echo "paradise sweep: stopped by SIGTERM after 5 of 10 points" >&2
STUB
chmod +x stopped
rc=0; PARADISE_BIN=$dir/stopped "$root/jobs/run-sweep" --launcher none small.ini st.h5 >st.log 2>&1 || rc=$?
[ "$rc" -eq 143 ] && grep -q "stopped by a signal .*run the same job again" st.log || fail "a stop with launcher exit 0: exit $rc, $(cat st.log)"
# an old checkpoint and no summary is not this run's stop: the missing summary is the error
cat >nosummary <<'STUB'
#!/usr/bin/env bash
exit 0
STUB
chmod +x nosummary
touch -d '-1 hour' st.h5.resume
rc=0; PARADISE_BIN=$dir/nosummary "$root/jobs/run-sweep" --launcher none small.ini st.h5 >ns.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "printed no 'N points on R ranks' summary line" ns.log || fail "an old checkpoint taken for a stop: exit $rc, $(cat ns.log)"
rc=0; PARADISE_NODES=200 PARADISE_RANKS=100 PARADISE_BIN=$bin "$root/jobs/submit" --print small.ini out.h5 >nodes.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PARADISE_NODES = 200 is more nodes than PARADISE_RANKS = 100 ranks" nodes.log ||
  fail "submit with more nodes than ranks: exit $rc, $(cat nodes.log)"
# absurd settings are refused, not printed as 2147483647 ranks (awk's printf %d of 10^23)
rc=0; PARADISE_RANKS=99999999999999999999999 PARADISE_BIN=$bin "$root/jobs/suggest" small.ini >huge.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PARADISE_RANKS = '99999999999999999999999' is more than 10000000" huge.log ||
  fail "suggest with 10^23 ranks: exit $rc, $(cat huge.log)"
rc=0; PARADISE_SAFETY=1000 PARADISE_BIN=$bin "$root/jobs/suggest" small.ini >huge.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PARADISE_SAFETY = '1000' is more than 100" huge.log || fail "suggest with safety 1000: exit $rc, $(cat huge.log)"
# sbatch --export splits at commas: a PARADISE_ROOT holding one is refused before the queue
rc=0; PARADISE_ROOT=/tmp/a,b PARADISE_BIN=$bin "$root/jobs/submit" --print small.ini out.h5 >rootcomma.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PARADISE_ROOT '/tmp/a,b' holds a comma, which sbatch --export cannot pass" rootcomma.log ||
  fail "submit with a comma in PARADISE_ROOT: exit $rc, $(cat rootcomma.log)"
# PBS's node file: empty is named as the source of the 0 ranks; unreadable is an error (it
# ran on 1 rank silently)
: >empty_nodes
rc=0; env -u SLURM_NTASKS -u PARADISE_RANKS PBS_NODEFILE=$dir/empty_nodes PARADISE_BIN=$dir/stub "$root/jobs/run-sweep" --launcher none small.ini o.h5 >pbs.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "rank count '0' (the lines of PBS_NODEFILE '$dir/empty_nodes') is not a whole number from 1 to 1,048,576" pbs.log ||
  fail "empty PBS_NODEFILE: exit $rc, $(cat pbs.log)"
rc=0; env -u SLURM_NTASKS -u PARADISE_RANKS PBS_NODEFILE=$dir/no_nodes PARADISE_BIN=$dir/stub "$root/jobs/run-sweep" --launcher none small.ini o.h5 >pbs.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PBS_NODEFILE '$dir/no_nodes' is not readable: give --ranks" pbs.log ||
  fail "missing PBS_NODEFILE: exit $rc, $(cat pbs.log)"
# found by a probe: an output the sweep would refuse is refused at submit (its dry run
# checks it), not after the queue wait: the sweep file itself, a directory, a file that is
# not an earlier output; a zero walltime (Slurm: no limit) too
mkdir -p adir
echo text >notes.txt
for o in small.ini adir notes.txt; do
  rc=0; PARADISE_BIN=$bin "$root/jobs/submit" --print small.ini "$o" >out.log 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "paradise sweep: error: -o $o: " out.log && ! grep -q "^sbatch" out.log ||
    fail "submit to '$o': exit $rc, $(cat out.log)"
done
rc=0; PARADISE_WALLTIME=0:00:00 PARADISE_BIN=$bin "$root/jobs/submit" --print small.ini out.h5 >out.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PARADISE_WALLTIME = '0:00:00' is no time" out.log || fail "submit with walltime 0: exit $rc, $(cat out.log)"
# a rank count past int64 is refused before the run (it ran 1 rank, wrote the file, then
# failed); a folder as the binary, a missing launcher and an empty --ranks are named
rc=0; PARADISE_BIN=$bin "$root/jobs/local/sweep" -n 99999999999999999999 small.ini many.h5 >out.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && [ ! -e many.h5 ] && grep -q "rank count '99999999999999999999' (--ranks / PARADISE_RANKS) is not a whole number" out.log ||
  fail "local/sweep -n 10^20: exit $rc, $(cat out.log)"
rc=0; PARADISE_BIN=$dir/adir "$root/jobs/run-sweep" small.ini o.h5 >out.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "PARADISE_BIN='$dir/adir' is not an executable file" out.log || fail "a folder as PARADISE_BIN: exit $rc, $(cat out.log)"
rc=0; PARADISE_MPIEXEC=$dir/no-mpiexec PARADISE_BIN=$bin "$root/jobs/run-sweep" small.ini o.h5 >out.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "launcher '$dir/no-mpiexec' not found" out.log || fail "a missing launcher: exit $rc, $(cat out.log)"
rc=0; PARADISE_BIN=$bin "$root/jobs/run-sweep" --ranks '' small.ini o.h5 >out.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--ranks needs a value" out.log || fail "an empty --ranks: exit $rc, $(cat out.log)"
# a target or safety of 0 (the walltime: the overhead alone), PARADISE_RANKS=0 (unset to
# suggest, refused by submit), an unknown option of submit (taken for the sweep file)
for setting in PARADISE_TARGET_S=0 PARADISE_SAFETY=0 PARADISE_RANKS=0; do
  rc=0; env "$setting" PARADISE_BIN="$bin" "$root/jobs/suggest" small.ini >out.log 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "suggest: error: ${setting%=*} = '0' " out.log || fail "suggest with $setting: exit $rc, $(cat out.log)"
done
rc=0; PARADISE_BIN=$bin "$root/jobs/submit" --print --bogus small.ini out.h5 >out.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "submit: error: unknown option '--bogus'" out.log || fail "submit --bogus: exit $rc, $(cat out.log)"
echo "local_test: PASS"
