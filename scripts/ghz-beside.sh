#!/usr/bin/env bash
# Measures the client CPU per call of ghz and of wirebench against the same grpc-go
# helloworld server (docs/your-service.md): the server on CPU 0, each client on CPU 1,
# 50 calls in flight on one connection, closed loop, in a network namespace of its own
# (the example server listens on every address). Run as root, under the CPU lock:
#   flock /tmp/wirebench-cpu.lock unshare -n bash scripts/ghz-beside.sh BIN_DIR HELLO_PROTO
# BIN_DIR holds wirebench and greeter_server (grpc-go's examples, built as
# stack/outside's tests build them); ghz is found on PATH or in $(go env GOPATH)/bin.
set -euo pipefail
bin=$1 proto=$2
ghz=$(command -v ghz || echo "$(go env GOPATH)/bin/ghz")
secs=${SECS:-8}
ip link set lo up
taskset -c 0 "$bin/greeter_server" -port 50051 >/dev/null 2>&1 &
server=$!
trap 'kill $server' EXIT
sleep 0.5
tmp=$(mktemp -d)
# ghz: user+sys of its process over the whole run, divided by the calls it made.
/usr/bin/time -f '%U %S' -o "$tmp/ghz.time" taskset -c 1 "$ghz" --insecure --proto "$proto" \
  --call helloworld.Greeter.SayHello -d '{"name":"g"}' -c 50 --connections 1 -z "${secs}s" -O json 127.0.0.1:50051 >"$tmp/ghz.json"
python3 - "$tmp/ghz.json" "$tmp/ghz.time" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
u, s = map(float, open(sys.argv[2]).read().split()[-2:])
ok = r.get("statusCodeDistribution", {}).get("OK", 0)
print(f"ghz:       {r['count']} calls ({ok} OK) in {r['total']/1e9:.1f} s, {r['rps']:.0f} calls/s, "
      f"client CPU {(u+s)*1e6/r['count']:.1f} µs/call (user {u:.2f} s + sys {s:.2f} s)")
PY
# wirebench: the client worker's CPU per call, measured over the slices only.
"$bin/wirebench" bench --insecure --proto "$proto" --call helloworld.Greeter.SayHello --data '{"name":"g"}' \
  -c 50 --connections 1 --address grpc://127.0.0.1:50051 --server-cpus 0 --client-cpus 1 \
  --warmup 2s --rounds 4 --duration "$((secs / 4))s" --forks 1 -q --no-store --json "$tmp/wb.json" >/dev/null
python3 - "$tmp/wb.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]["summary"]
print(f"wirebench: {b['ops']} calls ({b['errors']} errors), {b['throughput_ops_s']['mean']:.0f} calls/s, "
      f"client CPU {b['client_cpu_us_per_op']:.1f} µs/call")
PY
rm -rf "$tmp"
