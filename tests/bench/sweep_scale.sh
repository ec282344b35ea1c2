#!/usr/bin/env bash
# Scale benchmark of `paradise sweep` (issue 4, "Performance"); prints, does not assert.
#   1. the disk's raw write rate in the output directory (dd, with and without fdatasync);
#   2. a 1.0e8-point grid with maps storage on 1 and 2 ranks, without and with output
#      (best of two runs each):
#      seconds, points/s per rank, parallel efficiency t1 / (2 t2), peak RSS per rank,
#      output size and the output write rate (file size / time in writes) beside dd's;
#   3. with --huge: sweeps/huge.ini (1.26e9 points, ~11 GB) on 2 ranks with output.
# Usage: tests/bench/sweep_scale.sh [--huge] [PARADISE] [OUTDIR]
#   (defaults: build/release/src/app/paradise, a fresh directory under ./bench-out)
set -euo pipefail
huge=0
if [ "${1:-}" = --huge ]; then huge=1; shift; fi
root=$(cd "$(dirname "$0")/../.." && pwd)
paradise=${1:-$root/build/release/src/app/paradise}
out=${2:-$(mkdir -p bench-out && mktemp -d bench-out/scale.XXXX)}
mkdir -p "$out"
[ -x "$paradise" ] || { echo "sweep_scale: no paradise binary at $paradise (cmake --build --preset release)" >&2; exit 2; }
echo "sweep_scale: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), output in $out"

# 1. raw disk write rate: 1 GiB of zeros, to the page cache and through to the disk
dd_rate() { dd if=/dev/zero of="$out/dd.bin" bs=4M count=256 "$@" 2>&1 | tail -n 1 | awk -F, '{print $NF}' | xargs; rm -f "$out/dd.bin"; }
echo "disk raw write rate (dd, 1 GiB): $(dd_rate) to the page cache, $(dd_rate conv=fdatasync) with fdatasync"

# 2. 2 models x 2 systems x 6 strategies x 4096 GPU counts x 1024 batches = 100,663,296 points
cat >"$out/e8.ini" <<'EOF'
[sweep]
model = resnet50, vgg16
dataset = imagenet
system = abci, dgx-a100
strategy = data, filter, channel, spatial, data+filter, data+spatial
gpus = 1..4096 +1
batch = 32..32768 +32
[output]
storage = maps
max_bytes = 2e9
[memlimit]
batch = none
EOF
# run RANKS [-o FILE]: the summary's first lines (points, seconds, rate, peak memory,
# writes); the best of two runs, as the machine may be shared
run() {
  local ranks=$1 best=""; shift
  for _ in 1 2; do
    mpiexec -n "$ranks" "$paradise" sweep "$out/e8.ini" --quiet "$@" >"$out/run.txt"
    local s
    s=$(grep -o ' in [0-9.]* s' "$out/run.txt" | head -n 1 | awk '{print $2}')
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$s
      sed -n 1,2p "$out/run.txt" | grep . >"$out/best.txt"
    fi
  done
  cat "$out/best.txt"
  echo "$best" >"$out/seconds.txt"
}
declare -A t
for ranks in 1 2; do
  echo "--- 1.0e8 points, $ranks rank(s), no output"
  run "$ranks"; t[$ranks]=$(cat "$out/seconds.txt")
  echo "--- 1.0e8 points, $ranks rank(s), maps to $out/e8.h5"
  run "$ranks" -o "$out/e8.h5"; t[o$ranks]=$(cat "$out/seconds.txt")
  rm -f "$out/e8.h5"
done
awk -v a="${t[1]}" -v b="${t[2]}" -v c="${t[o1]}" -v d="${t[o2]}" 'BEGIN {
  printf "parallel efficiency 1 -> 2 ranks: %.1f%% without output (%.2f s -> %.2f s), %.1f%% with output (%.2f s -> %.2f s)\n",
         100 * a / (2 * b), a, b, 100 * c / (2 * d), c, d }'

# 3. a billion points on 2 ranks
if [ "$huge" = 1 ]; then
  echo "--- sweeps/huge.ini on 2 ranks, maps to $out/huge.h5"
  /usr/bin/time -f "mpiexec: %e s wall, %M KB max RSS of one process" \
    mpiexec -n 2 "$paradise" sweep "$root/sweeps/huge.ini" --quiet -o "$out/huge.h5" >"$out/huge.txt"
  sed -n 1,2p "$out/huge.txt"
  ls -l "$out/huge.h5"
fi
