#!/usr/bin/env bash
# A local Kubernetes cluster of several nodes on this one machine, from the registries
# alone (docs/distributed.md, "A local cluster"):
#
#   deploy/k8s/cluster.sh build    build (or find in the cache) etcd, Kubernetes, CoreDNS, pause
#   deploy/k8s/cluster.sh up       build, then start the control plane and the nodes
#   deploy/k8s/cluster.sh down     stop everything it started and restore the machine
#   deploy/k8s/cluster.sh status   the recorded processes, the nodes
#
# `make k8s-up` / `make k8s-down` run it. Needs root, Linux with cgroup v1 (the v2 case
# is not tried), Go, gcc, and Debian's containerd, runc, CNI plugins and iptables (up
# installs them with apt-get when missing).
#
# What up makes, all of it recorded under $RUN (/run/wirebench-k8s) so down can undo it:
#   - a bridge wbk8s0 (10.201.0.1/24, and 10.201.0.2 for CoreDNS), on no other link: nothing
#     is routed or NATed out of it;
#   - etcd on 127.0.0.1, the API server on 10.201.0.1:16443 (self-signed certificates made
#     here), the controller manager and the scheduler, CoreDNS on 10.201.0.2:53;
#   - N nodes (WIREBENCH_K8S_NODES, 3 by default), node i being a network namespace
#     wbk8s-node<i> joined to the bridge by a veth (10.201.0.1<i>), in which run its own
#     containerd (own root, state, socket) and its kubelet; its pods on a bridge cbr0 of
#     their own, 10.244.<i>.0/24, routed between nodes over wbk8s0; ipMasq false;
#   - cgroups /wirebench-k8s in every v1 hierarchy: the kubelets' cgroupRoot
#     (/wirebench-k8s/node<i>) and, in the pids hierarchy, every process started here
#     (/wirebench-k8s/daemons), so down finds every process, shims and pods included.
# It records the sysctls the kubelet changes, and restores them on down.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
K8S_VERSION=v1.36.3
ETCD_VERSION=v3.6.8
COREDNS_VERSION=v1.14.7
PAUSE_VERSION=3.10.1
NODES=${WIREBENCH_K8S_NODES:-3}
RUN=${WIREBENCH_K8S_RUN:-/run/wirebench-k8s}
DATA=${WIREBENCH_K8S_DATA:-/var/lib/wirebench-k8s}
CACHE_ROOT=${WIREBENCH_K8S_CACHE:-/var/cache/wirebench-k8s}
BRIDGE=wbk8s0
HOST_IP=10.201.0.1
DNS_IP=10.201.0.2
API_PORT=16443
ETCD_PORT=12379
CG=wirebench-k8s
KUBELET_SYSCTLS="vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes"

say() { echo "k8s: $*" >&2; }
die() { echo "k8s: $*" >&2; exit 1; }
node_ip() { echo "10.201.0.$((10 + $1))"; }

gover=$(go env GOVERSION 2>/dev/null || echo nogo)
# The cache is keyed by every version that goes into the binaries: rebuilt only when one changes.
CACHE=$CACHE_ROOT/k8s-$K8S_VERSION-etcd-$ETCD_VERSION-coredns-$COREDNS_VERSION-pause-$PAUSE_VERSION-$gover
KUBE=$CACHE/kube
KUBECTL=$CACHE/kubectl

build() {
  mkdir -p "$CACHE"
  if [ ! -x "$KUBE" ]; then
    say "building etcd $ETCD_VERSION and Kubernetes $K8S_VERSION into $CACHE (minutes)"
    local t0=$SECONDS
    (cd "$here/kube" && CGO_ENABLED=1 go build -trimpath -ldflags "-s -w \
        -X k8s.io/component-base/version.gitVersion=$K8S_VERSION \
        -X k8s.io/component-base/version.gitMajor=${K8S_VERSION:1:1} \
        -X k8s.io/component-base/version.gitMinor=$(echo "$K8S_VERSION" | cut -d. -f2) \
        -X k8s.io/component-base/version.gitTreeState=clean" -o "$KUBE.tmp" .)
    mv "$KUBE.tmp" "$KUBE"
    say "built kube in $((SECONDS - t0)) s"
  fi
  ln -sf kube "$KUBECTL"
  if [ ! -x "$CACHE/coredns" ]; then
    say "building CoreDNS $COREDNS_VERSION"
    (cd "$here/coredns" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$CACHE/coredns.tmp" .)
    mv "$CACHE/coredns.tmp" "$CACHE/coredns"
  fi
  if [ ! -x "$CACHE/pause" ]; then
    local src
    src=$(cd "$here/kube" && go list -m -f '{{.Dir}}' k8s.io/kubernetes)/build/pause/linux/pause.c
    gcc -Os -static -Wall -Werror -DVERSION=v$PAUSE_VERSION-wirebench -o "$CACHE/pause.tmp" "$src"
    mv "$CACHE/pause.tmp" "$CACHE/pause"
  fi
  if [ ! -x "$CACHE/image" ]; then
    (cd "$here/image" && CGO_ENABLED=0 go build -trimpath -o "$CACHE/image.tmp" .)
    mv "$CACHE/image.tmp" "$CACHE/image"
  fi
}

install_packages() {
  local missing=()
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  [ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v conntrack >/dev/null || missing+=(conntrack)
  [ -x /bin/busybox ] && /bin/busybox --list | grep -qx nc || missing+=(busybox-static)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v gcc >/dev/null || missing+=(gcc libc6-dev)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (Debian)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
      >/tmp/wirebench-k8s-apt.log 2>&1 || die "apt-get failed: /tmp/wirebench-k8s-apt.log"
  fi
}

# start NAME [ip netns exec NS] CMD...: runs it in the background, its output in
# $RUN/log/NAME.log, its pid in $RUN/pids (NAME PID), inside the pids cgroup of ours.
start() {
  local name=$1; shift
  (echo $BASHPID > /sys/fs/cgroup/pids/$CG/daemons/cgroup.procs
   exec "$@" >"$RUN/log/$name.log" 2>&1 </dev/null) &
  echo "$name $!" >>"$RUN/pids"
}

# wait_for DESCRIPTION SECONDS CMD...
wait_for() {
  local what=$1 secs=$2; shift 2
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || die "$what: not ready in $secs s (logs in $RUN/log)"
    sleep 0.5
  done
}

cert() { # cert NAME SUBJECT [SAN]
  local name=$1 subj=$2 san=${3:-}
  openssl req -newkey rsa:2048 -nodes -subj "$subj" -keyout "$DATA/pki/$name.key" -out "$DATA/pki/$name.csr" 2>/dev/null
  local ext="extendedKeyUsage=clientAuth,serverAuth"
  [ -n "$san" ] && ext="$ext
subjectAltName=$san"
  openssl x509 -req -in "$DATA/pki/$name.csr" -CA "$DATA/pki/ca.crt" -CAkey "$DATA/pki/ca.key" -CAcreateserial \
    -days 7 -extfile <(echo "$ext") -out "$DATA/pki/$name.crt" 2>/dev/null
}

kubeconfig() { # kubeconfig NAME -> $DATA/NAME.kubeconfig with NAME's certificate
  local name=$1
  cat >"$DATA/$name.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: wirebench-local
  cluster:
    server: https://$HOST_IP:$API_PORT
    certificate-authority: $DATA/pki/ca.crt
users:
- name: $name
  user:
    client-certificate: $DATA/pki/$name.crt
    client-key: $DATA/pki/$name.key
contexts:
- name: wirebench-local
  context: {cluster: wirebench-local, user: $name}
current-context: wirebench-local
EOF
}

cgroup_dirs() { # every hierarchy's root, from mountinfo (up makes ours in the v1 ones;
  # the kubelets add theirs to the v2 one of a hybrid layout too)
  awk '$9 == "cgroup" || $9 == "cgroup2" {print $5}' /proc/self/mountinfo
}

up() {
  [ "$(id -u)" = 0 ] || die "up needs root"
  [ ! -e "$RUN/pids" ] || die "already up ($RUN/pids exists): run down first"
  install_packages
  build
  local t0=$SECONDS
  mkdir -p "$RUN/log" "$DATA/pki"
  : >"$RUN/pids"
  echo "$CACHE" >"$RUN/cache"
  # What down restores.
  for s in $KUBELET_SYSCTLS; do echo "$s $(sysctl -n "$s")"; done >"$RUN/sysctls"
  cgroup_dirs >"$RUN/cgroup-roots"
  # The kubelets write these whatever their root directory (the device plugins' socket,
  # the containers' log links): down removes them when up made them.
  for d in /var/lib/kubelet /var/log/containers /var/lib/cni /run/containerd; do
    [ -e "$d" ] || echo "$d" >>"$RUN/made-dirs"
  done
  grep -v unified "$RUN/cgroup-roots" | while read -r root; do
    mkdir -p "$root/$CG"
    for d in "$root/$CG" $(seq -f "$root/$CG/node%g" 1 "$NODES"); do
      mkdir -p "$d"
      # a cpuset cgroup takes no process until it has CPUs and memory nodes
      if [ -e "$d/cpuset.cpus" ]; then
        cat "$root/cpuset.cpus" >"$d/cpuset.cpus"
        cat "$root/cpuset.mems" >"$d/cpuset.mems"
      fi
    done
  done
  mkdir -p /sys/fs/cgroup/pids/$CG/daemons

  # The network: one bridge, a namespace per node.
  ip link add "$BRIDGE" type bridge
  echo "link $BRIDGE" >>"$RUN/made"
  ip addr add "$HOST_IP/24" dev "$BRIDGE"
  ip addr add "$DNS_IP/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for i in $(seq 1 "$NODES"); do
    local ns=wbk8s-node$i ip; ip=$(node_ip "$i")
    ip netns add "$ns"
    echo "netns $ns" >>"$RUN/made"
    ip link add "wbk8s-n$i" type veth peer name eth0 netns "$ns"
    ip link set "wbk8s-n$i" master "$BRIDGE" up
    ip -n "$ns" addr add "$ip/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1
    # The host reaches pods (CoreDNS answers them) through their node.
    ip route add "10.244.$i.0/24" via "$ip" dev "$BRIDGE"
    for j in $(seq 1 "$NODES"); do
      [ "$j" = "$i" ] || ip -n "$ns" route add "10.244.$j.0/24" via "$(node_ip "$j")" dev eth0
    done
  done

  # Certificates.
  openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=wirebench-local-ca \
    -keyout "$DATA/pki/ca.key" -out "$DATA/pki/ca.crt" 2>/dev/null
  openssl genrsa -out "$DATA/pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$DATA/pki/sa.key" -pubout -out "$DATA/pki/sa.pub" 2>/dev/null
  cert apiserver /CN=kube-apiserver "IP:$HOST_IP,IP:127.0.0.1,IP:10.96.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc"
  cert admin "/O=system:masters/CN=wirebench-admin"
  cert apiserver-kubelet "/O=system:masters/CN=kube-apiserver-kubelet-client"
  cert controller-manager /CN=system:kube-controller-manager
  cert scheduler /CN=system:kube-scheduler
  cert coredns /CN=wirebench-coredns
  for n in admin controller-manager scheduler coredns; do kubeconfig "$n"; done

  # etcd, then the API server.
  start etcd "$KUBE" etcd --name default --data-dir "$DATA/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls http://127.0.0.1:12380 --initial-advertise-peer-urls http://127.0.0.1:12380 \
    --initial-cluster default=http://127.0.0.1:12380 --listen-metrics-urls "" --log-level warn
  start kube-apiserver "$KUBE" kube-apiserver --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
    --bind-address "$HOST_IP" --advertise-address "$HOST_IP" --secure-port "$API_PORT" \
    --tls-cert-file "$DATA/pki/apiserver.crt" --tls-private-key-file "$DATA/pki/apiserver.key" \
    --client-ca-file "$DATA/pki/ca.crt" \
    --kubelet-client-certificate "$DATA/pki/apiserver-kubelet.crt" --kubelet-client-key "$DATA/pki/apiserver-kubelet.key" \
    --kubelet-preferred-address-types InternalIP \
    --service-account-key-file "$DATA/pki/sa.pub" --service-account-signing-key-file "$DATA/pki/sa.key" \
    --service-account-issuer https://kubernetes.default.svc \
    --service-cluster-ip-range 10.96.0.0/16 --authorization-mode Node,RBAC \
    --enable-priority-and-fairness=false --profiling=false
  wait_for "kube-apiserver" 120 "$KUBECTL" --kubeconfig "$DATA/admin.kubeconfig" get --raw /readyz
  start kube-controller-manager "$KUBE" kube-controller-manager --kubeconfig "$DATA/controller-manager.kubeconfig" \
    --authentication-kubeconfig "$DATA/controller-manager.kubeconfig" --authorization-kubeconfig "$DATA/controller-manager.kubeconfig" \
    --bind-address 127.0.0.1 --secure-port 20257 --leader-elect=false \
    --service-account-private-key-file "$DATA/pki/sa.key" --root-ca-file "$DATA/pki/ca.crt" \
    --use-service-account-credentials --node-monitor-grace-period 20s --profiling=false
  start kube-scheduler "$KUBE" kube-scheduler --kubeconfig "$DATA/scheduler.kubeconfig" \
    --authentication-kubeconfig "$DATA/scheduler.kubeconfig" --authorization-kubeconfig "$DATA/scheduler.kubeconfig" \
    --bind-address 127.0.0.1 --secure-port 20259 --leader-elect=false --profiling=false

  # CoreDNS reads the cluster with its own identity, allowed to read what it serves.
  "$KUBECTL" --kubeconfig "$DATA/admin.kubeconfig" apply -f - >/dev/null <<'EOF'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: wirebench-coredns}
rules:
- apiGroups: [""]
  resources: [endpoints, services, pods, namespaces]
  verbs: [list, watch]
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: wirebench-coredns}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: wirebench-coredns}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: wirebench-coredns}
EOF
  cat >"$DATA/Corefile" <<EOF
cluster.local:53 in-addr.arpa:53 {
    bind $DNS_IP
    errors
    kubernetes cluster.local in-addr.arpa {
        kubeconfig $DATA/coredns.kubeconfig wirebench-local
        pods insecure
    }
    cache 5
}
.:53 {
    bind $DNS_IP
    errors
}
EOF
  start coredns "$CACHE/coredns" -conf "$DATA/Corefile"
  : >"$DATA/resolv.conf" # the pods' search path and nameserver come from the kubelet alone

  for i in $(seq 1 "$NODES"); do node_up "$i"; done
  bash "$here/images.sh" --no-import
  images_import
  for i in $(seq 1 "$NODES"); do
    wait_for "node wbk8s-node$i Ready" 120 "$KUBECTL" --kubeconfig "$DATA/admin.kubeconfig" wait --for=condition=Ready "node/wbk8s-node$i" --timeout=1s
  done
  mkdir -p "$RUN"
  cp "$DATA/admin.kubeconfig" "$RUN/kubeconfig"
  say "up in $((SECONDS - t0)) s (build not counted): $NODES nodes Ready"
  echo "export KUBECONFIG=$RUN/kubeconfig PATH=$CACHE:\$PATH"
}

node_up() {
  local i=$1 ns=wbk8s-node$i ip; ip=$(node_ip "$i")
  local d=$DATA/node$i r=$RUN/node$i
  mkdir -p "$d/cni/net.d" "$d/kubelet" "$d/logs" "$r"
  cat >"$d/containerd.toml" <<EOF
version = 2
root = "$d/containerd"
state = "$r/containerd"
[grpc]
  address = "$r/containerd.sock"
[ttrpc]
  address = "$r/containerd.sock.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$d/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:$PAUSE_VERSION"
  # No CAP_SYS_RESOURCE in this sandbox: a negative oom_score_adj is refused.
  restrict_oom_score_adj = true
  # Pod network namespaces under the state directory, not /run/netns.
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  disable_apparmor = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$r/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$d/cni/net.d"
EOF
  cat >"$d/cni/net.d/10-wbk8s.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "wbk8s",
  "plugins": [{
    "type": "bridge", "bridge": "cbr0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
    "ipam": {"type": "host-local", "dataDir": "$d/cni/ipam",
             "ranges": [[{"subnet": "10.244.$i.0/24"}]], "routes": [{"dst": "0.0.0.0/0"}]}
  }]
}
EOF
  cert "kubelet$i" "/O=system:nodes/CN=system:node:wbk8s-node$i" "IP:$ip,DNS:wbk8s-node$i"
  kubeconfig "kubelet$i"
  cat >"$d/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# cgroup v1 here: kubelets from 1.35 refuse it unless told.
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: /$CG/node$i
containerRuntimeEndpoint: unix://$r/containerd.sock
address: $ip
port: 10250
healthzBindAddress: 127.0.0.1
readOnlyPort: 0
tlsCertFile: $DATA/pki/kubelet$i.crt
tlsPrivateKeyFile: $DATA/pki/kubelet$i.key
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $DATA/pki/ca.crt}
authorization: {mode: Webhook}
clusterDomain: cluster.local
clusterDNS: [$DNS_IP]
resolvConf: $DATA/resolv.conf
podLogsDir: $d/logs
failSwapOn: false
evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1%}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
EOF
  # nsenter, not `ip netns exec`: that one also gives the process a mount namespace of
  # its own, and the kubelet's volume mounts must be seen by containerd and runc.
  start "containerd-node$i" nsenter --net="/run/netns/$ns" containerd --config "$d/containerd.toml"
  wait_for "containerd of node $i" 60 ctr --address "$r/containerd.sock" version
  start "kubelet-node$i" nsenter --net="/run/netns/$ns" "$KUBE" kubelet --config "$d/kubelet.yaml" \
    --kubeconfig "$DATA/kubelet$i.kubeconfig" --hostname-override "wbk8s-node$i" --node-ip "$ip" \
    --root-dir "$d/kubelet" --cert-dir "$d/kubelet/pki"
}

# Imports every image tarball of $DATA/images (images.sh writes them; the pause image
# here) into every node's containerd.
images_import() {
  mkdir -p "$DATA/images"
  local tmp; tmp=$(mktemp -d)
  mkdir -p "$tmp/bin"
  cp "$CACHE/pause" "$tmp/bin/pause"
  "$CACHE/image" -o "$DATA/images/pause.tar" -tag "registry.k8s.io/pause:$PAUSE_VERSION" \
    -entrypoint /pause -user 65535:65535 "$tmp/bin/pause=/pause"
  rm -rf "$tmp"
  for i in $(seq 1 "$NODES"); do
    for t in "$DATA"/images/*.tar; do
      ctr --address "$RUN/node$i/containerd.sock" -n k8s.io images import "$t" >/dev/null
    done
  done
}

down() {
  [ "$(id -u)" = 0 ] || die "down needs root"
  [ -d "$RUN" ] || { say "not up (no $RUN)"; return 0; }
  # The kubelets first, so they start nothing more; then everything else we started,
  # and whatever is still in our pids cgroup (shims, pods' processes).
  if [ -e "$RUN/pids" ]; then
    local name pid
    tac "$RUN/pids" | while read -r name pid; do
      case $name in kubelet-*) kill "$pid" 2>/dev/null || true ;; esac
    done
    sleep 1
    tac "$RUN/pids" | while read -r name pid; do kill "$pid" 2>/dev/null || true; done
  fi
  local pcg=/sys/fs/cgroup/pids/$CG
  for _ in $(seq 1 40); do
    local left; left=$(find "$pcg" -name cgroup.procs -exec cat {} + 2>/dev/null | sort -u || true)
    [ -z "$left" ] && break
    for p in $left; do kill -9 "$p" 2>/dev/null || true; done
    sleep 0.25
  done
  # Every mount under our directories (the kubelets' bind mount of their root, pods'
  # volumes, containers' root file systems, pod network namespaces), deepest first.
  awk -v a="$DATA/" -v b="$RUN/" 'index($5, a) == 1 || index($5, b) == 1 {print $5}' /proc/self/mountinfo \
    | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
  # Cgroups, deepest first, in every hierarchy (the kubelets' kubepods trees included).
  if [ -e "$RUN/cgroup-roots" ]; then
    while read -r root; do
      if [ -d "$root/$CG" ]; then
        find "$root/$CG" -depth -type d -exec rmdir {} \; 2>/dev/null || true
        if [ -d "$root/$CG" ]; then say "cgroup $root/$CG could not be removed"; fi
      fi
    done <"$RUN/cgroup-roots"
  fi
  # The network: deleting a namespace deletes its links, routes and iptables rules.
  if [ -e "$RUN/made" ]; then
    tac "$RUN/made" | while read -r kind what; do
      case $kind in
        netns) ip netns delete "$what" 2>/dev/null || true ;;
        link) ip link delete "$what" 2>/dev/null || true ;;
      esac
    done
  fi
  if [ -e "$RUN/sysctls" ]; then
    while read -r s v; do sysctl -qw "$s=$v" || say "could not restore $s=$v"; done <"$RUN/sysctls"
  fi
  if [ -e "$RUN/made-dirs" ]; then
    while read -r d; do rm -rf "$d"; done <"$RUN/made-dirs"
  fi
  rm -rf "$RUN" "$DATA"
  say "down"
}

status() {
  [ -e "$RUN/pids" ] || { say "not up"; return 0; }
  while read -r name pid; do
    if kill -0 "$pid" 2>/dev/null; then echo "$name $pid running"; else echo "$name $pid gone"; fi
  done <"$RUN/pids"
  "$(cat "$RUN/cache")/kubectl" --kubeconfig "$RUN/kubeconfig" get nodes -o wide || true
}

case ${1:-} in
  build) build ;;
  up) up ;;
  down) down ;;
  status) status ;;
  import) CACHE=$(cat "$RUN/cache"); KUBE=$CACHE/kube; images_import ;;
  *) echo "usage: $0 build|up|down|status|import" >&2; exit 2 ;;
esac
