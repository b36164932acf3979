#!/usr/bin/env bash
# Fuzzes one target for a while: scripts/fuzz.sh TARGET PACKAGE SECONDS
#
# Why not a bare `go test -fuzz -fuzztime`: Go 1.26's fuzz coordinator has a race at the
# end of a timed run (golang/go#75804, fixed in Go 1.27). When -fuzztime's deadline
# fires, a worker's cancelled context can escape the check that should swallow it, and
# the run fails with a bare "context deadline exceeded" after the whole budget, with no
# failing input written. It failed CI once (FuzzLimitReader, 2026-11-29, 20.12 s, 484,307
# execs, no input written). A count budget (-fuzztime Nx) has no deadline to race, but
# its time depends on the machine and on how long minimising new inputs takes.
#
# So the run keeps its time budget, and a failure counts as the Go race only when all of
# these hold: go test printed "context deadline exceeded" as the failure, wrote no
# failing input (no "Failing input written to", no new file under testdata/fuzz), and
# the target's seed corpus plus its kept inputs then pass as plain tests. Any other
# failure fails, with go test's output.
set -uo pipefail

if [ $# -ne 3 ]; then
	echo "usage: scripts/fuzz.sh TARGET PACKAGE SECONDS (e.g. FuzzLimitReader ./protocol/netrpcgob/ 20)" >&2
	exit 2
fi
target=$1 pkg=$2 secs=$3
GO=${GO:-go}

# Each new interesting input is minimised for up to 60 s by default, while the target
# is not fuzzed: FuzzReadJournal spent 7 s of a 10 s run minimising (2026-11-29). 2 s
# keeps the time for mutation.
minimize=${FUZZ_MINIMIZE:-2s}

dir=$($GO list -f '{{.Dir}}' "$pkg") || exit 2
corpus="$dir/testdata/fuzz/$target"
before=$(ls "$corpus" 2>/dev/null | wc -l)

out=$(mktemp)
trap 'rm -f "$out"' EXIT
$GO test -run '^$' -fuzz "^${target}\$" -fuzztime "${secs}s" -fuzzminimizetime "$minimize" "$pkg" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] && exit 0

after=$(ls "$corpus" 2>/dev/null | wc -l)
if grep -q "Failing input written to" "$out" || [ "$after" -ne "$before" ]; then
	exit "$rc"
fi
# The failure's lines: what follows "--- FAIL: target" up to the next FAIL line.
reason=$(awk -v t="--- FAIL: $target " 'index($0, t) == 1 {on = 1; next} on && /^(FAIL|exit status)/ {on = 0} on' "$out" | sed 's/^[[:space:]]*//' | grep -v '^$')
if [ "$reason" != "context deadline exceeded" ]; then
	exit "$rc"
fi
echo "fuzz.sh: $target stopped with a bare \"context deadline exceeded\" and wrote no failing input:"
echo "fuzz.sh: Go 1.26's end-of-fuzztime race (golang/go#75804). Re-running its corpus as tests to be sure."
if ! $GO test -count=1 -run "^${target}\$" "$pkg"; then
	echo "fuzz.sh: $target's corpus fails as a plain test: that is a real failure." >&2
	exit 1
fi
echo "fuzz.sh: $target's corpus passes: not a finding."
