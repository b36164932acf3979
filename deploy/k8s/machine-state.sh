#!/usr/bin/env bash
# The machine's state that a local cluster could leave changed (deploy/k8s/cluster.sh),
# one fact a line, sorted, so two snapshots compare with diff:
#
#   deploy/k8s/machine-state.sh > before
#   make k8s-up && ... && make k8s-down
#   deploy/k8s/machine-state.sh > after
#   deploy/k8s/machine-state.sh --compare before after
#
# Facts: mount points, network namespaces, links, the host's routes, the sysctls the
# kubelet and the CNI bridge change, the cgroups at the top of every hierarchy, the
# host's iptables rules, the directories kubelets and containerd write outside their own
# (/var/log/containers, /var/lib/cni, /run/containerd), and the processes that name the
# cluster's directories. --compare prints the difference and fails when a line names
# the cluster's things (wbk8s, wirebench-k8s, kubepods, containerd, cni, a sysctl);
# other differences (other users' builds and tests on a shared machine) are printed as
# such and do not fail it. Needs root.
set -euo pipefail

ours='wbk8s|wirebench-k8s|kubepods|containerd|cni|^sysctl|^iptables|^proc|10\.201\.|10\.244\.'

snapshot() {
  awk '{print "mount " $5 " " $9}' /proc/self/mountinfo
  ls /run/netns 2>/dev/null | sed 's/^/netns /' || true
  ip -o link show | awk -F': ' '{print "link " $2}' | sed 's/@.*//'
  ip route show | sed 's/^/route /'
  for s in vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops \
      kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward \
      net.bridge.bridge-nf-call-iptables net.ipv4.conf.all.forwarding; do
    echo "sysctl $s=$(sysctl -n "$s" 2>/dev/null || echo absent)"
  done
  awk '$9 == "cgroup" || $9 == "cgroup2" {print $5}' /proc/self/mountinfo | while read -r root; do
    find "$root" -mindepth 1 -maxdepth 1 -type d | sed 's/^/cgroup /'
  done
  if command -v iptables-save >/dev/null; then
    iptables-save 2>/dev/null | grep -v '^#' | sed -E 's/\[[0-9]+:[0-9]+\]//' | sed 's/^/iptables /' || true
  fi
  for d in /var/log/containers /var/lib/cni /run/containerd /var/lib/kubelet /etc/cni; do
    [ -e "$d" ] && find "$d" -maxdepth 2 | sed 's/^/file /'
  done
  for p in /proc/[0-9]*; do
    c=$( { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null) || continue
    case $c in *wirebench-k8s*|*wbk8s*) echo "proc ${p#/proc/} $c" ;; esac
  done
}

case ${1:-} in
  --compare)
    [ $# = 3 ] || { echo "usage: $0 --compare BEFORE AFTER" >&2; exit 2; }
    d=$(diff <(sort "$2") <(sort "$3") | grep -E '^[<>]' || true)
    if [ -z "$d" ]; then echo "machine-state: left as found"; exit 0; fi
    theirs=$(echo "$d" | grep -Ev "$ours" || true)
    mine=$(echo "$d" | grep -E "$ours" || true)
    [ -n "$theirs" ] && { echo "machine-state: changed, not by the cluster (other users?):"; echo "$theirs"; }
    if [ -n "$mine" ]; then echo "machine-state: NOT left as found (< before, > after):"; echo "$mine"; exit 1; fi
    echo "machine-state: left as found (by the cluster's things)"
    ;;
  "") snapshot | sort ;;
  *) echo "usage: $0 [--compare BEFORE AFTER]" >&2; exit 2 ;;
esac
