#!/usr/bin/env bash
# The sweep's output and side files (issue 35): a second sweep on the same -o is refused at
# once while the first writes a whole file; nothing is written through a symbolic link at a
# side path; a directory at a side path is refused before any work and kept; an HDF5 file
# that is no finished sweep output is kept and the run refused (also in a dry run); a
# leftover of a killed run (its OUT.h5.tmp, its lock file) blocks nobody.
# Usage: output_safety_test.sh PATH/TO/paradise
set -uo pipefail
paradise=$1
py=/usr/bin/python3
data=$(cd "$(dirname "$0")/../data" && pwd)
sweeps=$(cd "$(dirname "$0")/../../sweeps" && pwd)
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work" || exit 1
export UCX_TLS=self,sysv SOURCE_DATE_EPOCH=1700000000
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
quick=$sweeps/quickstart.ini
sides=(tmp tmp.canonical resume resume.tmp lock)

# --- 1. Two sweeps on one -o --------------------------------------------------------------
# A (12 million points, about 6 s on 2 ranks) holds the lock; B, the same sweep started once
# A holds OUT.h5.lock, is refused within 10 s (a generous bound: the refusal comes before
# any point is evaluated, about 0.1 s on an idle machine), exit 2,
# naming the holder; A's file is whole: complete, its own sweep_file, every status readable.
cp "$data/sweeps-12m.ini" a.ini
mpiexec -n 2 "$paradise" sweep a.ini -o same.h5 --quiet >a.out 2>&1 &
a=$!
for _ in $(seq 2000); do [ -e same.h5.lock ] && break; sleep 0.005; done
begun=$(date +%s%N)
rc=0
"$paradise" sweep a.ini -o same.h5 --quiet >b.out 2>&1 || rc=$?
took=$((($(date +%s%N) - begun) / 1000000))
[ "$rc" = 2 ] && [ "$took" -lt 10000 ] &&
  grep -q "error: -o same.h5: another sweep is writing it (same.h5.lock is held by pid [0-9]* on .* since [0-9T:Z-]*): wait for it to end, or write elsewhere" b.out &&
  ok || bad "second writer: exit $rc after $took ms: $(cat b.out)"
# the dry run (jobs/submit's check) says the same, and leaves nothing behind
rc=0
"$paradise" sweep a.ini -o same.h5 --dry-run >c.out 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "another sweep is writing it" c.out && ok || bad "dry run beside a writer: exit $rc: $(cat c.out)"
wait $a && ok || bad "first writer: $(cat a.out)"
[ ! -e same.h5.lock ] && [ ! -e same.h5.tmp ] && ok || bad "side files left by the first writer: $(ls)"
$py - <<'PY' && ok || bad "the first writer's file is not whole"
import h5py
with h5py.File("same.h5", "r") as f:
    assert f.attrs["complete"] == b"true", f.attrs["complete"]
    assert f.attrs["sweep_file"].decode() == open("a.ini").read()
    status = f["status"][...]  # every chunk inflates
    assert status.size == 12_000_000, status.size
PY

# --- 2. A link at each side path: refused, naming it; its target untouched ----------------
mkdir links && cd links || exit 1
echo "someone's data" >victim
for side in "${sides[@]}"; do
  for resume in "" --resume; do
    rm -f l.h5*
    ln -s victim "l.h5.$side"
    [ -n "$resume" ] && [ "$side" != resume ] && cp ../a.ini l.h5.resume  # something to resume
    rc=0
    "$paradise" sweep "$quick" -o l.h5 --quiet $resume >out 2>&1 || rc=$?
    [ "$rc" = 2 ] && grep -q "error: -o l.h5: l.h5.$side is in the way (a symbolic link, never followed): remove it" out &&
      [ "$(cat victim)" = "someone's data" ] && [ -L "l.h5.$side" ] && [ ! -e l.h5 ] &&
      ok || bad "a link at l.h5.$side $resume: exit $rc, $(cat out), victim: $(head -c 80 victim)"
  done
done
# a dangling link: its target is never created
rm -f l.h5*
ln -s absent l.h5.tmp
"$paradise" sweep "$quick" -o l.h5 --quiet >out 2>&1
[ ! -e absent ] && ok || bad "a dangling link's target was created"
# a hard link at OUT.h5.tmp (a leftover without a checkpoint is replaced): unlinked, never
# truncated, so the other name keeps its data
rm -f l.h5*
ln victim l.h5.tmp
"$paradise" sweep "$quick" -o l.h5 --quiet >out 2>&1 && [ "$(cat victim)" = "someone's data" ] && [ -e l.h5 ] &&
  ok || bad "a hard link at l.h5.tmp: $(cat out), victim: $(head -c 80 victim)"
cd .. || exit 1

# --- 3. A directory at each side path: refused at once, kept (even empty) ------------------
mkdir dirs && cd dirs || exit 1
for side in "${sides[@]}"; do
  for mode in "" --dry-run --resume; do
    rm -rf d.h5*
    mkdir "d.h5.$side"
    rc=0
    "$paradise" sweep "$quick" -o d.h5 --quiet $mode >out 2>&1 || rc=$?
    [ "$rc" = 2 ] && grep -q "error: -o d.h5: d.h5.$side is in the way (a directory): remove it, or write elsewhere" out &&
      [ -d "d.h5.$side" ] && [ "$(ls -A | grep -c '^d\.h5')" = 1 ] &&
      ok || bad "a directory at d.h5.$side $mode: exit $rc, $(cat out); $(ls -A)"
  done
done
cd .. || exit 1

# --- 4. A file at -o that is no finished output: kept byte for byte, refused ---------------
$py -c '
import h5py, numpy as np
with h5py.File("foreign.h5", "w") as f:
    f["experiment"] = np.arange(100_000.0)
    f.attrs["complete"] = "true"  # even with this, no "ParaDiSE sweep" title
'
before=$(md5sum <foreign.h5)
for mode in "" --dry-run; do
  rc=0
  "$paradise" sweep "$quick" -o foreign.h5 --quiet $mode >out 2>&1 || rc=$?
  [ "$rc" = 2 ] && grep -q "error: -o foreign.h5: exists and is no finished output of paradise sweep (an HDF5 file without the root attributes complete = \"true\" and title \"ParaDiSE sweep ...\"; it would be replaced): remove it first, or write elsewhere" out &&
    [ "$(md5sum <foreign.h5)" = "$before" ] && [ "$(ls | grep -c '^foreign')" = 1 ] &&
    ok || bad "a foreign HDF5 file at -o $mode: exit $rc, $(cat out)"
done
# a finished output is replaced (a rerun), in a dry run too
"$paradise" sweep "$quick" -o same.h5 --quiet --dry-run >out 2>&1 && ok || bad "dry run over a finished output: $(cat out)"

# --- 5. Leftovers of a killed run: the lock file blocks nobody ------------------------------
mkdir killed && cd killed || exit 1
"$paradise" sweep ../a.ini -o k.h5 --quiet >out 2>&1 &
runner=$!
for _ in $(seq 2000); do [ -e k.h5.tmp ] && break; sleep 0.005; done
kill -KILL $runner
{ wait $runner; } 2>/dev/null
[ -e k.h5.lock ] && ok || bad "a killed run left no lock file (nothing tested below)"
"$paradise" sweep "$quick" -o k.h5 --quiet >out 2>&1 && [ ! -e k.h5.lock ] && [ ! -e k.h5.tmp ] && ok ||
  bad "a run after a killed one: $(cat out); $(ls)"
# the files of a checkpointed run are not replaced without --resume
cp k.h5 k.h5.tmp && echo checkpoint >k.h5.resume
rc=0
"$paradise" sweep "$quick" -o k.h5 --quiet >out 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "error: -o k.h5: k.h5.tmp holds an interrupted sweep, checkpointed in k.h5.resume: add --resume to go on, or remove both files to start over" out &&
  cmp -s k.h5 k.h5.tmp && ok || bad "an interrupted sweep's files without --resume: exit $rc, $(cat out)"
cd .. || exit 1

# --- 6. Work bounded before it is done ------------------------------------------------------
# max_workload_bytes = 1e308 and 10^7 system variants (4,000 bandwidths x 2,500 latencies)
# built every variant, 2.4 GB, then "internal error: std::bad_alloc". The grid's sizes are
# checked from its axes first: its 10^7 memory-limit searches (one per point without the batch
# axis) are refused before any workload is built (10 s: a generous bound, 0.13 s idle; it
# took 42 s and 10 GB when the check came after the workloads).
printf '%s\n' '[sweep]' 'model = resnet50' 'dataset = imagenet' 'system = dgx-a100' 'strategy = data' \
  'gpus = 8' 'batch = 256' 'network_bandwidth_gbps = 1..4000 +1' 'network_latency_us = 1..2500 +1' \
  'max_workload_bytes = 1e308' >huge.ini
begun=$(date +%s%N)
rc=0
"$paradise" sweep huge.ini --dry-run >out 2>&1 || rc=$?
took=$((($(date +%s%N) - begun) / 1000000))
[ "$rc" = 2 ] && [ "$took" -lt 10000 ] &&
  grep -q "error: huge.ini: the memory-limit searches have 10,000,000 entries, more than max_searches = 1,000,000" out &&
  ok || bad "a huge dry run's searches: exit $rc after $took ms: $(cat out)"
# Without the searches, the workloads' estimate (9.2 GB: about 916 B per variant, a System
# with its GPU and input profiles and a ResolutionFamily, whose sizes set the last digits; as
# with max_workload_bytes = 1e9 below) is held against the memory the process may use, here
# 6 GB (ulimit -v), and refused at once.
printf '%s\n' '[memlimit]' 'batch = none' >>huge.ini
begun=$(date +%s%N)
rc=0
(ulimit -v 6000000 && exec "$paradise" sweep huge.ini --dry-run) >out 2>&1 || rc=$?
took=$((($(date +%s%N) - begun) / 1000000))
[ "$rc" = 2 ] && [ "$took" -lt 10000 ] &&
  grep -q "error: huge.ini: the sweep's 1 workload .* in 10,000,000 system variants .* need about 9\.[0-9][0-9] GB per rank .*, more than the memory this process may use, [0-9.]* GB (max_workload_bytes is larger): give those axes fewer values" out &&
  ok || bad "a huge dry run: exit $rc after $took ms: $(cat out)"
sed 's/1e308/1e9/' huge.ini >huge9.ini
"$paradise" sweep huge9.ini --dry-run >out 2>&1
grep -q "need about 9\.[0-9][0-9] GB per rank .* more than max_workload_bytes = 1.00 GB" out && ok ||
  bad "the estimate under max_workload_bytes = 1e9: $(cat out)"

echo "output_safety_test: $passed passed, $failed failed"
[ "$failed" = 0 ]
