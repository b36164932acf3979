#!/usr/bin/env bash
# The images the manifests name, written without a Docker engine (deploy/k8s/image,
# github.com/google/go-containerregistry) into $DATA/images, then imported into every
# node's containerd of the local cluster (cluster.sh import):
#
#   wirebench:dev       the static wirebench binary (CGO_ENABLED=0, -trimpath, as the
#                       Dockerfile builds it) at /usr/local/bin/wirebench, user 65532,
#                       ENTRYPOINT ["wirebench"], /etc/passwd with nonroot, /tmp: the files
#                       of the Dockerfile's default image that wirebench uses
#   wirebench-jvm:dev   the same, plus a Java runtime made by jlink from the local JDK 17
#                       (/opt/java, with the C libraries it links) and the JVM worker's
#                       jars (`make java`) at /opt/wirebench, WIREBENCH_JAVA_WORKER set;
#                       skipped, saying so, when the jars are not built (--jvm requires them)
#   busybox:1.37.0      Debian's busybox-static with its applets linked in /bin, for the
#                       manifests' wait-for-workers and fetch-results containers
#
#   deploy/k8s/images.sh [--jvm] [--no-import] [-o DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
DATA=${WIREBENCH_K8S_DATA:-/var/lib/wirebench-k8s}
out=$DATA/images
jvm=auto
import=yes
while [ $# -gt 0 ]; do
  case $1 in
    --jvm) jvm=yes ;;
    --no-jvm) jvm=no ;;
    --no-import) import=no ;;
    -o) out=$2; shift ;;
    *) echo "usage: $0 [--jvm|--no-jvm] [--no-import] [-o DIR]" >&2; exit 2 ;;
  esac
  shift
done
say() { echo "images: $*" >&2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The image writer, from the cluster's cache when it is built, else built here.
img=$work/image
(cd "$here/image" && CGO_ENABLED=0 go build -trimpath -o "$img" .)

version=$(git -C "$repo" describe --tags --always --dirty 2>/dev/null || echo devel)
say "wirebench $version, static"
(cd "$repo" && CGO_ENABLED=0 go build -trimpath -ldflags "-X main.version=$version" -o "$work/wirebench" ./cmd/wirebench)

base=(-user 65532:65532 -entrypoint wirebench -passwd -dir /tmp:1777
      "$work/wirebench=/usr/local/bin/wirebench")
[ -e /etc/ssl/certs/ca-certificates.crt ] && base+=(/etc/ssl/certs/ca-certificates.crt=/etc/ssl/certs/ca-certificates.crt)
"$img" -o "$out/wirebench.tar" -tag wirebench:dev \
  -env PATH=/usr/local/bin:/usr/bin:/bin -env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt "${base[@]}"

if [ -x /bin/busybox ]; then
  say "busybox:1.37.0 from $(/bin/busybox 2>&1 | head -1)"
  links=()
  for a in $(/bin/busybox --list); do links+=(-symlink "/bin/$a=busybox"); done
  "$img" -o "$out/busybox.tar" -tag busybox:1.37.0 -dir /tmp:1777 -passwd -entrypoint sh \
    -env PATH=/bin "${links[@]}" /bin/busybox=/bin/busybox
else
  say "busybox:1.37.0 skipped: no /bin/busybox (cluster.sh up installs busybox-static)"
fi

jars=("$repo/workers/java/target/wirebench-worker.jar" "$repo/workers/java/target/wirebench-worker-originals-2.12.jar")
if [ "$jvm" != no ]; then
  if [ ! -e "${jars[0]}" ]; then
    [ "$jvm" = yes ] && { say "no ${jars[0]}: run make java first"; exit 1; }
    say "wirebench-jvm:dev skipped: the JVM worker is not built (make java)"
  else
    say "wirebench-jvm:dev: jlink from $(readlink -f "$(command -v jlink)")"
    # The modules the JVM worker's stacks use (Netty, gRPC, Akka/Pekko, http4s, Thrift):
    # the Java SE set, sun.misc.Unsafe, the elliptic curves of TLS, JFR and JMX.
    jlink --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.management,jdk.jfr,jdk.net,jdk.zipfs \
      --strip-debug --no-header-files --no-man-pages --output "$work/java"
    # The C libraries the runtime links, at the paths it looks for them.
    libs=()
    while read -r lib; do
      libs+=("$(readlink -f "$lib")=$lib")
    done < <(find "$work/java" -type f \( -name '*.so' -o -perm -u+x \) -exec ldd {} + 2>/dev/null \
              | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' | sort -u)
    # And the C libraries the jars' native code (Netty's epoll, extracted to /tmp at run
    # time) links that the runtime itself does not: libdl, libpthread, librt, libgcc_s.
    for lib in libdl.so.2 libpthread.so.0 librt.so.1 libm.so.6 libgcc_s.so.1 libz.so.1; do
      f=/lib/x86_64-linux-gnu/$lib
      [ -e "$f" ] && libs+=("$(readlink -f "$f")=$f")
    done
    jvmfiles=("$work/java=/opt/java")
    for j in "${jars[@]}"; do [ -e "$j" ] && jvmfiles+=("$j=/opt/wirebench/$(basename "$j")"); done
    "$img" -o "$out/wirebench-jvm.tar" -tag wirebench-jvm:dev \
      -env PATH=/opt/java/bin:/usr/local/bin:/usr/bin:/bin -env JAVA_HOME=/opt/java \
      -env WIREBENCH_JAVA_WORKER=/opt/wirebench/wirebench-worker.jar \
      "${base[@]}" "${jvmfiles[@]}" "${libs[@]}"
  fi
fi
ls -la "$out" >&2
if [ "$import" = yes ]; then
  bash "$here/cluster.sh" import
fi
