# Shared by the e2e scripts (sourced): a scratch directory removed on exit, pass/fail
# counters, and expect_rc, which runs a command into $tmp/out and $tmp/err and checks its
# exit code. `finish NAME` prints the counts and fails if anything failed.
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
expect_rc() {  # expect_rc RC DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" -eq "$want" ]; then ok; else bad "$what: exit $rc, expected $want; stderr: $(cat "$tmp/err")"; fi
}
finish() {
  echo "$1: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
