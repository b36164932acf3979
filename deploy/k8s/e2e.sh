#!/usr/bin/env bash
# make k8s-e2e: the local cluster end to end (docs/distributed.md, "A local cluster").
#
#   1. a snapshot of the machine (machine-state.sh), then cluster.sh up (3 nodes)
#   2. deploy/kubernetes applied as docs/distributed.md's steps say (through the
#      deploy/k8s/local overlay): token Secret, workers, driver Job, results fetched
#      with fetch-results.yaml; the server worker's node is none of the clients'
#   3. a wrong token refused by a worker of that deployment
#   4. `wirebench kube quick --smoke`: the results copied back and checked; then a run
#      interrupted (SIGINT, as Ctrl-C sends) deletes its namespace and exits non-zero; and a
#      suite file of the user's runs (carried into the driver pod in a ConfigMap)
#   5. a client worker pod deleted mid-run: the run fails saying so, its finished forks
#      are kept, `wirebench kube --resume` finishes it on new pods (the failed forks again)
#   6. a node gone (its kubelet stopped) under a run: reported, not waited on
#   7. cluster.sh down, and the machine compared with the snapshot
# The last line printed is the results directory of step 4 (under $OUT, default
# /tmp/wirebench-k8s-e2e). Needs root. Each step prints its time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
OUT=${OUT:-/tmp/wirebench-k8s-e2e}
RUN=${WIREBENCH_K8S_RUN:-/run/wirebench-k8s}
DATA=${WIREBENCH_K8S_DATA:-/var/lib/wirebench-k8s}
t0=$SECONDS
step() { echo "e2e [$((SECONDS - t0)) s]: $*" >&2; }
fail() { echo "e2e FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root"
mkdir -p "$OUT"
rm -rf "${OUT:?}"/*
"$here/machine-state.sh" >"$OUT/machine-before.txt"
cleanup() {
  local rc=$?
  set +e
  step "down"
  bash "$here/cluster.sh" down
  "$here/machine-state.sh" >"$OUT/machine-after.txt"
  if ! "$here/machine-state.sh" --compare "$OUT/machine-before.txt" "$OUT/machine-after.txt" >&2; then
    echo "e2e FAILED: the machine was not left as found" >&2
    rc=1
  fi
  step "done, exit $rc"
  [ $rc = 0 ] && [ -n "${results:-}" ] && echo "$results"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "up"
bash "$here/cluster.sh" up
export KUBECONFIG=$RUN/kubeconfig
cache=$(cat "$RUN/cache")
k() { "$cache/kubectl" "$@"; }
(cd "$repo" && go build -o "$OUT/wirebench" ./cmd/wirebench)
wb=$OUT/wirebench
k get nodes -o wide >&2
[ "$(k get nodes --no-headers | grep -c ' Ready ')" -ge 3 ] || fail "fewer than 3 nodes Ready"

step "2. deploy/kubernetes as docs/distributed.md says (overlay deploy/k8s/local)"
k apply -f "$repo/deploy/kubernetes/namespace.yaml"
k -n wirebench create secret generic wirebench-token --from-literal=token="$(openssl rand -hex 32)"
mkdir -p "$DATA/results" && chown 65532:65532 "$DATA/results"
k apply -k "$here/local"
if ! k -n wirebench wait --for=condition=complete job/wirebench-driver --timeout=10m; then
  k -n wirebench get pods -o wide >&2
  k -n wirebench logs job/wirebench-driver -c driver >&2 || true
  fail "the driver Job did not complete"
fi
k -n wirebench get pods -o wide >&2
server_node=$(k -n wirebench get pod wirebench-server-0 -o jsonpath='{.spec.nodeName}')
for c in wirebench-client-0 wirebench-client-1; do
  n=$(k -n wirebench get pod "$c" -o jsonpath='{.spec.nodeName}')
  [ "$n" != "$server_node" ] || fail "$c on the server worker's node $n"
done
step "server worker on $server_node; the clients elsewhere"
k apply -f "$repo/deploy/kubernetes/fetch-results.yaml"
k -n wirebench wait --for=condition=Ready pod/wirebench-fetch-results --timeout=2m
k -n wirebench cp wirebench-fetch-results:/wirebench/runs "$OUT/docs-results"
k -n wirebench delete pod wirebench-fetch-results --grace-period=1
docs_run=$(ls -d "$OUT"/docs-results/*/ | head -1)
[ -s "$docs_run/results.json" ] || fail "no results.json in $docs_run"
step "docs' run: $docs_run"

step "3. a wrong token"
server_ip=$(k -n wirebench get pod wirebench-server-0 -o jsonpath='{.status.podIP}')
client_ip=$(k -n wirebench get pod wirebench-client-0 -o jsonpath='{.status.podIP}')
openssl rand -hex 32 >"$OUT/wrong-token"
if "$wb" bench -p grpc-proto --server-worker "tcp://$server_ip:7070" --client-worker "tcp://$client_ip:7070" \
    --token-file "$OUT/wrong-token" >"$OUT/wrong-token.out" 2>&1; then
  fail "a run with a wrong token succeeded"
fi
cat "$OUT/wrong-token.out" >&2
grep -qi 'token\|Unauthenticated' "$OUT/wrong-token.out" || fail "the wrong token's error does not say so"
k -n wirebench logs wirebench-server-0 | grep 'a wrong token' >&2 || fail "the server worker did not log the refusal"
k delete -k "$here/local" --wait=true --timeout=2m

step "4. wirebench kube quick --smoke"
results=$("$wb" kube quick --smoke --kubectl "$cache/kubectl" -o "$OUT/results" --ready 3m --timeout 10m)
[ -s "$results/results.json" ] || fail "no results.json in $results"
python3 - "$results/results.json" <<'EOF' || fail "the results do not show workers on different hosts"
import json, sys
r = json.load(open(sys.argv[1]))
ws = r["environment"]["workers"]
hosts = {w["role"]: w.get("hostname") for w in ws}
print("e2e: workers", hosts, file=sys.stderr)
server = hosts.get("server")
assert server and server.startswith("wirebench-server-"), hosts
assert all(h != server for role, h in hosts.items() if role != "server"), hosts
EOF

step "4b. a suite file of the user's, carried in a ConfigMap"
cat >"$OUT/my-suite.yaml" <<'YAML'
name: my-suite
baseline: http-json
defaults: {forks: 2, rounds: 2, duration: 100ms, warmup: 100ms}
targets: [http-json, grpc-proto]
workloads: [{name: person.get}]
YAML
mine=$("$wb" kube "$OUT/my-suite.yaml" --kubectl "$cache/kubectl" -o "$OUT/my-suite" --ready 3m --timeout 10m)
[ -s "$mine/results.json" ] || fail "no results.json in $mine"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["suite"]["name"] == "my-suite"' "$mine/results.json" \
  || fail "the results of $mine are not the suite file's"
cmp -s "$OUT/my-suite.yaml" "$mine/kube-suite/my-suite.yaml" || fail "the suite file was not kept beside its results"
step "suite file run: $mine"

# kube_bg NAME ARGS...: `wirebench kube quick --filter /tcp/ ARGS` in the background, its
# results under $OUT/NAME and its output in $OUT/NAME.out and .err; kpid is its PID.
# started NAME TEXT: waits up to 2 min for TEXT in its progress.
kube_bg() {
  local name=$1; shift
  "$wb" kube quick --filter '/tcp/' --kubectl "$cache/kubectl" -o "$OUT/$name" --ready 3m --timeout 10m "$@" \
    >"$OUT/$name.out" 2>"$OUT/$name.err" &
  kpid=$!
}
started() {
  for _ in $(seq 1 240); do grep -q "$2" "$OUT/$1.err" 2>/dev/null && return 0; sleep 0.5; done
  cat "$OUT/$1.err" >&2
  fail "the $1 run never reached '$2'"
}

step "4c. Ctrl-C under a run: the namespace deleted, exit non-zero"
kube_bg interrupt
started interrupt 'fork 1 of'
kill -INT "$kpid"
start=$SECONDS
if wait "$kpid"; then fail "an interrupted kube run exited 0"; fi
tail -3 "$OUT/interrupt.err" >&2
grep -q 'interrupted; the namespace wirebench was deleted' "$OUT/interrupt.err" || fail "the interrupted run does not say it deleted the namespace"
if k get namespace wirebench >/dev/null 2>&1; then fail "namespace wirebench still there after Ctrl-C"; fi
step "cleaned up in $((SECONDS - start)) s after Ctrl-C"

step "5. a client worker pod deleted mid-run"
kube_bg fault --driver-memory 2Gi
started fault 'fork 3 of'
k -n wirebench delete pod wirebench-client-1 --wait=false
if wait "$kpid"; then cat "$OUT/fault.err" >&2; fail "the run went on with a client worker pod deleted"; fi
cat "$OUT/fault.err" | tail -15 >&2
grep -q 'client worker' "$OUT/fault.err" || fail "the failure does not name the client worker"
faultdir=$(ls -d "$OUT"/fault/*/ | head -1)
[ -n "$faultdir" ] || fail "no results kept from the failed run"
step "resume $faultdir on new pods"
"$wb" kube --resume "${faultdir%/}" --kubectl "$cache/kubectl" -o "$OUT/fault" --ready 3m --timeout 10m --driver-memory 2Gi \
  >"$OUT/resume.out" 2>"$OUT/resume.err" || { cat "$OUT/resume.err" >&2; fail "the resume on new pods failed"; }
[ -s "$faultdir/results.json" ] || fail "the resumed run wrote no results.json"
grep -q 'copied .* into the driver pod' "$OUT/resume.err" || fail "the resume did not copy the run into a new driver pod"
# The resume measures again what failed (runner: a journal's failed forks and failed
# summaries are retried), on the new pods: no benchmark is left failed.
if grep -Eq '"kind": *"failed"' "$faultdir/results.json"; then
  cat "$OUT/resume.err" >&2
  fail "the resumed run still holds a failed benchmark"
fi
step "resumed on new pods; the failed forks measured again"

step "6. a node gone (kubelet stopped) under a run"
kube_bg node
started node 'fork 1 of'
node=$(k -n wirebench get pod wirebench-client-0 -o jsonpath='{.spec.nodeName}')
kill "$(awk -v n="kubelet-${node#wbk8s-}" '$1 == n {print $2}' "$RUN/pids")"
step "stopped the kubelet of $node"
start=$SECONDS
if wait "$kpid"; then fail "the run did not notice its node going away"; fi
tail -5 "$OUT/node.err" >&2
grep -q "node $node" "$OUT/node.err" || fail "the failure does not name node $node"
step "reported in $((SECONDS - start)) s"
