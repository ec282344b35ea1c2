#!/usr/bin/env bash
# tests/sweeps/dry_run_test.sh — every ready sweep still parses and sizes (none rots).
#
#   tests/sweeps/dry_run_test.sh PARADISE_BIN SWEEPS_DIR
#
# For each SWEEPS_DIR/*.ini: a leading comment block that names the file and says its
# size and time; `paradise sweep FILE --dry-run` exits 0 and prints "points: N" and
# "estimated time: X s on one rank". huge.ini must have at least 10^9 points.
set -euo pipefail

fail() {
  echo "dry_run_test: FAIL: $*" >&2
  exit 1
}
[ $# -eq 2 ] || fail "usage: dry_run_test.sh PARADISE_BIN SWEEPS_DIR"
bin=$1
sweeps=$2
[ -x "$bin" ] || fail "PARADISE_BIN '$bin' is not executable"
shopt -s nullglob
files=("$sweeps"/*.ini)
[ ${#files[@]} -gt 0 ] || fail "no *.ini in '$sweeps'"
for name in quickstart paradl-abci cosmoflow-memlimit unet3d-memlimit precision-3d imagenet-scaling network-codesign huge; do
  [ -f "$sweeps/$name.ini" ] || fail "$sweeps/$name.ini is missing"
done
for f in "${files[@]}"; do
  base=$(basename "$f")
  head -n 1 "$f" | grep -q "^# $base " || fail "$f: the first line should be '# $base — what it answers'"
  grep -Eqi '^#.*(time|second| s )' "$f" || fail "$f: the comment block says nothing about its run time"
  rc=0
  out=$("$bin" sweep "$f" --dry-run 2>&1) || rc=$?
  [ "$rc" -eq 0 ] || fail "$f: --dry-run exited $rc: $out"
  points=$(sed -n 's/^points: \([0-9,]*\)$/\1/p' <<<"$out" | tr -d ,)
  [ -n "$points" ] || fail "$f: no 'points: N' line in: $out"
  grep -Eq '^estimated time: [0-9.]+ s on one rank' <<<"$out" || fail "$f: no 'estimated time: X s on one rank' line in: $out"
  echo "dry_run_test: $base: $points points, $(sed -n 's/^estimated time: \([0-9.]*\) s.*/\1/p' <<<"$out") s estimated"
  if [ "$base" = huge.ini ] && [ "${#points}" -lt 10 ]; then
    fail "$f: $points points, fewer than 10^9"
  fi
done
echo "dry_run_test: PASS (${#files[@]} files)"
