#!/usr/bin/env bash
# Times a cold set-up of the local cluster, as docs/distributed.md publishes it: empty Go
# build and module caches and an empty cluster cache (new directories under $DIR, default
# /tmp/wirebench-k8s-cold, removed first), then `make k8s-up`, `wirebench kube quick --smoke`
# and `make k8s-down`, each timed. Needs root and what cluster.sh needs; run it alone (under
# the CPU lock on a shared machine): its figure is a measurement.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
DIR=${DIR:-/tmp/wirebench-k8s-cold}
RUN=${WIREBENCH_K8S_RUN:-/run/wirebench-k8s}
[ "$(id -u)" = 0 ] || { echo "time-cold: needs root" >&2; exit 1; }
[ -e "$RUN/pids" ] && { echo "time-cold: a cluster is up (make k8s-down first)" >&2; exit 1; }
export GOCACHE=$DIR/gocache GOMODCACHE=$DIR/gomod WIREBENCH_K8S_CACHE=$DIR/cache
rm -rf "$GOCACHE" "$GOMODCACHE" "$WIREBENCH_K8S_CACHE" "$DIR/results"
mkdir -p "$DIR"
cd "$repo"
echo "time-cold: start $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$SECONDS
make k8s-up || exit 1
t1=$SECONDS
echo "time-cold: make k8s-up (cold) $((t1 - t0)) s"
# The wirebench binary itself is built beside the cluster, with the same cold caches.
go build -o "$DIR/wirebench" ./cmd/wirebench || { make k8s-down; exit 1; }
t2=$SECONDS
echo "time-cold: go build ./cmd/wirebench (cold) $((t2 - t1)) s"
KUBECONFIG=$RUN/kubeconfig "$DIR/wirebench" kube quick --smoke --kubectl "$(cat "$RUN/cache")/kubectl" -o "$DIR/results"
rc=$?
t3=$SECONDS
echo "time-cold: wirebench kube quick --smoke exit $rc, $((t3 - t2)) s"
make k8s-down
echo "time-cold: make k8s-down $((SECONDS - t3)) s; total $((SECONDS - t0)) s; end $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
exit $rc
