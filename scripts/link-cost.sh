#!/usr/bin/env bash
# What the link proxy costs (docs/distributed.md, "What the link proxy costs"):
# person.get over loopback without a link, with delay=1us (the proxy with a delay too
# small to matter) and with delay=500us, at 1 and 50 calls in flight, for grpc-proto and
# http-json. Server worker on CPU 0, client worker and its proxy on CPU 1 (the
# defaults). Takes about 2.5 minutes; hold the CPU lock:
#   flock /tmp/wirebench-cpu.lock bash scripts/link-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
wb=${WIREBENCH:-bin/wirebench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '| protocol, calls in flight | link | ops/s | p50 µs | client CPU µs/op | server CPU µs/op | link CPU µs/op |\n|---|---|---|---|---|---|---|\n'
for p in grpc-proto http-json; do
  for c in 1 50; do
    for l in none delay=1us delay=500us; do
      args=()
      [ "$l" != none ] && args=(--link "$l")
      "$wb" bench -p "$p" -c "$c" -d 1s -i 5 --warmup 1s -q "${args[@]}" --json "$out/r.json" >/dev/null
      python3 - "$out/r.json" "$p, $c" "$l" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]; s = b["summary"]
link = s.get("link_cpu_us_per_op")
print("| %s | %s | %s ± %s | %.0f | %.1f | %.1f | %s |" % (sys.argv[2], sys.argv[3],
    f"{s['throughput_ops_s']['mean']:,.0f}", f"{s['throughput_ops_s']['error']:,.0f}", s["latency_us"]["p50"],
    s["client_cpu_us_per_op"], s["server_cpu_us_per_op"], "%.1f" % link if link else "–"))
PY
    done
  done
done
