#!/usr/bin/env bash
# Serves the benchmark service over every networked protocol, on TCP and on a Unix
# socket, and calls each with `wirebench call demo`: every operation once, a contract
# error, and every workload once with its answers verified. Prints one line per
# protocol and transport, and the full answers of the first pair.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${WIREBENCH:-bin/wirebench}
out=$(mktemp -d "${TMPDIR:-/tmp}/wirebench-demo.XXXXXX")
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

protocols=$("$bin" list | awk '/^PROTOCOL/{on=1; next} on && NF==0 {exit} on {print $1}' | grep -vx direct)
first=""
for p in $protocols; do
  for tr in tcp unix; do
    listen=tcp://127.0.0.1:0
    [ "$tr" = unix ] && listen="unix://$out/$p.sock"
    fifo="$out/$p-$tr.line"
    "$bin" serve --protocol "$p" --listen "$listen" >"$fifo" 2>"$out/$p-$tr.server.log" &
    pids+=($!)
    for _ in $(seq 100); do grep -q '^listening on ' "$fifo" && break; sleep 0.05; done
    addr=$(sed -n 's/^listening on //p' "$fifo")
    [ -n "$addr" ] || { echo "demo: $p server did not start:"; cat "$out/$p-$tr.server.log"; exit 1; }
    if "$bin" call --protocol "$p" --address "$addr" demo >"$out/$p-$tr.txt" 2>&1; then
      printf '%-11s over %-4s %-40s all operations answered, 9 workloads verified\n' "$p" "$tr" "$addr"
    else
      printf '%-11s over %-4s %-40s FAILED:\n' "$p" "$tr" "$addr"; tail -5 "$out/$p-$tr.txt"; exit 1
    fi
    [ -n "$first" ] || first="$out/$p-$tr.txt"
    kill "${pids[-1]}"
  done
done
echo
echo "Answers of the first demo ($first), abridged; all answers are in $out"
grep -A12 '^## person.get$' "$first"
grep -A12 '^## workloads' "$first"
