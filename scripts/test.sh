#!/usr/bin/env bash
# The tests of `make test` but the fuzz targets, scheduled for a 2-CPU machine
# (docs/architecture.md, "The check"): the machine is CPU-bound through them, so what
# this saves is the time a CPU stood idle.
#
# - A lane of its own, from the start, one step at a time: the Go packages named in
#   WAITING_TESTS, whose tests mostly wait (timers, fixed-length slices, processes
#   starting) rather than compute, then the deploy checks and the Rust, Python and Node
#   workers' own tests. Among the others, each waiting package held one of `go test`'s
#   two slots while using a fraction of a CPU; beside the JVM worker's build and JUnit
#   tests they use the CPU those leave.
# - Meanwhile: the JVM worker's jars and JUnit tests (make java-tested), then every
#   other Go package, the ones named in LONG_TESTS first (the longest: started last,
#   one of them ran alone at the end).
#
# The lane's output is printed when both parts have ended. The exit code is the first
# failed part's; a failed JUnit test stops the Go tests, as before.
set -uo pipefail
GO=${GO:-go}
MAKE=${MAKE:-make}
WAITING_TESTS=${WAITING_TESTS:-}
LONG_TESTS=${LONG_TESTS:-}
timeout=30m

lane() {
  local rc=0
  if [ -n "$WAITING_TESTS" ]; then
    # shellcheck disable=SC2086 # one package per word
    "$GO" test -count=1 -timeout "$timeout" -p 1 $WAITING_TESTS || rc=1
  fi
  for target in deploy-check test-rust-unit test-python-unit test-node-unit; do
    "$MAKE" --no-print-directory "$target" || rc=1
  done
  return "$rc"
}

# The import paths of the packages named (none for none).
list() { [ $# -eq 0 ] || "$GO" list "$@"; }
# shellcheck disable=SC2086
if ! waiting=$(list $WAITING_TESTS) || ! long=$(list $LONG_TESTS); then
  echo "test.sh: cannot list WAITING_TESTS ($WAITING_TESTS) or LONG_TESTS ($LONG_TESTS)" >&2
  exit 2
fi
others=$("$GO" list ./... | grep -vxF "$(printf '%s\n%s\n' "$waiting" "$long" | grep .)") || true

out=$(mktemp)
trap 'rm -f "$out"' EXIT
lane >"$out" 2>&1 &
lane_pid=$!
rc=0
"$MAKE" --no-print-directory java-tested || rc=$?
if [ "$rc" -eq 0 ]; then
  # shellcheck disable=SC2086
  "$GO" test -count=1 -timeout "$timeout" $long $others || rc=$?
fi
lane_rc=0
wait "$lane_pid" || lane_rc=$?
echo "--- the lane beside ($WAITING_TESTS, deploy-check, the workers' own tests):"
cat "$out"
if [ "$rc" -ne 0 ]; then exit "$rc"; fi
exit "$lane_rc"
