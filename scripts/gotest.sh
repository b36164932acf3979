#!/usr/bin/env bash
# `go test -count=1 ./...` in two parts at once, for `make test`: the packages named as
# arguments, whose tests mostly wait (timers, fixed-length slices, processes starting)
# rather than compute, one at a time in a lane of their own; every other package as
# `go test` schedules them (-p: as many at once as there are CPUs). Run among the
# others, each of the waiting ones held one of the two slots of a 2-CPU machine while
# using a fraction of a CPU (docs/architecture.md, "The check"). The lane's output is
# printed when both parts have ended; the exit code is the first failed part's.
set -uo pipefail
GO=${GO:-go}
timeout=30m
if [ $# -eq 0 ]; then
  exec "$GO" test -count=1 -timeout "$timeout" ./...
fi
if ! waiting=$("$GO" list "$@"); then
  echo "gotest.sh: cannot list the waiting packages: $*" >&2
  exit 2
fi
others=$("$GO" list ./... | grep -vxF "$waiting") || true
lane=$(mktemp)
trap 'rm -f "$lane"' EXIT
"$GO" test -count=1 -timeout "$timeout" -p 1 "$@" >"$lane" 2>&1 &
lane_pid=$!
rc=0
# shellcheck disable=SC2086 # one import path per word
"$GO" test -count=1 -timeout "$timeout" $others || rc=$?
lane_rc=0
wait "$lane_pid" || lane_rc=$?
echo "--- the waiting packages' lane ($*):"
cat "$lane"
if [ "$rc" -ne 0 ]; then exit "$rc"; fi
exit "$lane_rc"
