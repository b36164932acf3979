#!/usr/bin/env bash
# Installs, at the versions in ../shared/ENVIRONMENT.md, what wirebench's generate check
# and its outside-client tests use: protoc and capnp with their Go plugins, thrift, curl,
# grpcurl and ghz, chromium (a test renders the HTML report in it), a JDK 17 and Maven
# (`make java` builds the JVM worker, whose stacks the interop tests run), cargo with
# Rust 1.95 (`make rust`: the Rust worker; checked, installed only through rustup), and the
# Python clients pycapnp, grpcio, fastavro, thrift, aioquic and websockets (into the Python
# that python3 runs), the Python worker's venv (scripts/python-worker.sh) and the Node worker's packages
# (scripts/node-worker.sh). Tests that need a missing one skip with a message, so this is
# optional for `make test`; CI runs it to test everything, and with CI=true those tests
# fail instead of skipping. Exits 1 when something is still missing.
set -uo pipefail
gobin=$(go env GOPATH)/bin
status=0

missing=()
command -v protoc >/dev/null || missing+=(protobuf-compiler)
command -v capnp >/dev/null || missing+=(capnproto)
# The Thrift compiler 0.17 (bookworm's), whose Go code apache/thrift v0.25.0 builds.
command -v thrift >/dev/null || missing+=(thrift-compiler)
# pycapnp builds against it where pip has no wheel for this Python.
[ -e /usr/include/capnp/rpc.h ] || missing+=(libcapnp-dev)
command -v curl >/dev/null || missing+=(curl)
# Link loss between network namespaces (docs/distributed.md): iptables' statistic match.
command -v iptables >/dev/null || missing+=(iptables)
command -v chromium >/dev/null || missing+=(chromium)
# Debian bookworm's names; javac, not java, says a JDK is there.
command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
# The charts are laid out in Liberation Sans; without it a browser's wider fallback
# font pushes labels under the bars.
fc-list 2>/dev/null | grep -qi 'Liberation Sans' || missing+=(fonts-liberation)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
      >/tmp/wirebench-apt.log 2>&1 || { echo "install-tools: apt-get failed (see /tmp/wirebench-apt.log)"; status=1; }
  else
    echo "install-tools: not root or no apt-get: install ${missing[*]} yourself (Debian package names)"
    status=1
  fi
fi

goinstall() {
  local bin=$1 pkg=$2
  [ -x "$gobin/$bin" ] && return 0
  GOFLAGS= go install "$pkg" || { echo "install-tools: go install $pkg failed"; status=1; }
}
goinstall protoc-gen-go google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
goinstall protoc-gen-go-grpc google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
goinstall protoc-gen-connect-go connectrpc.com/connect/cmd/protoc-gen-connect-go@v1.21.1
goinstall capnpc-go capnproto.org/go/capnp/v3/capnpc-go@v3.1.0-alpha.2
goinstall grpcurl github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.4
goinstall ghz github.com/bojand/ghz/cmd/ghz@v0.121.0

# The Python clients of the capnp, grpc-avro, thrift, HTTP/3 and websocket tests, pinned; pip runs only when one is
# missing or at another version.
pypins=(pycapnp==2.2.4 grpcio==1.85.1 fastavro==1.13.1 thrift==0.25.0 aioquic==1.7.2 websockets==17.4)
if ! command -v python3 >/dev/null; then
  echo "install-tools: no python3: install Python 3, then ${pypins[*]}"
  status=1
elif ! python3 - "${pypins[@]}" <<'EOF'
import sys
from importlib.metadata import PackageNotFoundError, version
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    try:
        if version(name) != want:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
EOF
then
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet "${pypins[@]}" ||
    { echo "install-tools: python3 -m pip install ${pypins[*]} failed"; status=1; }
fi

# The Rust worker (make rust) needs cargo and rustc 1.95 (edition 2024). The machines
# come with them from rustup in ~/.cargo/bin, which the Makefile also looks in; where
# only rustup is there, it installs the pinned toolchain (when its server is reachable).
# Debian's cargo is too old for the worker (bookworm ships Rust 1.63), so it is not tried.
rust_version=1.95.0
cargo_bin=$(command -v cargo || ls "$HOME/.cargo/bin/cargo" 2>/dev/null)
rustup_bin=$(command -v rustup || ls "$HOME/.cargo/bin/rustup" 2>/dev/null)
if [ -z "$cargo_bin" ] && [ -n "$rustup_bin" ]; then
  "$rustup_bin" toolchain install "$rust_version" --profile minimal >/tmp/wirebench-rustup.log 2>&1 &&
    "$rustup_bin" default "$rust_version" >>/tmp/wirebench-rustup.log 2>&1 ||
    echo "install-tools: rustup could not install Rust $rust_version (see /tmp/wirebench-rustup.log)"
  cargo_bin=$(command -v cargo || ls "$HOME/.cargo/bin/cargo" 2>/dev/null)
fi
if [ -z "$cargo_bin" ]; then
  echo "install-tools: no cargo: install Rust $rust_version with rustup (https://rustup.rs); the Rust stacks need it"
  status=1
elif ! "$(dirname "$cargo_bin")/rustc" --version 2>/dev/null | grep -Eq '^rustc 1\.(9[5-9]|[1-9][0-9]{2,})\.'; then
  echo "install-tools: $("$(dirname "$cargo_bin")/rustc" --version 2>&1) is older than Rust $rust_version, which the Rust worker needs"
  status=1
fi

# The Python worker's venv (make python): Python 3.11+ and workers/python/requirements.txt.
bash "$(dirname "$0")/python-worker.sh" || status=1
# The Node worker's packages (make node): Node.js 20+, npm ci from package-lock.json.
bash "$(dirname "$0")/node-worker.sh" || status=1

# buf (for `buf curl` against the Connect server), pinned, from npm's package of its
# release binaries.
bufpin=1.75.0
if [ "$(buf --version 2>/dev/null)" != "$bufpin" ]; then
  if command -v npm >/dev/null; then
    npm install --global --no-audit --no-fund "@bufbuild/buf@$bufpin" >/tmp/wirebench-npm.log 2>&1 ||
      { echo "install-tools: npm install @bufbuild/buf@$bufpin failed (see /tmp/wirebench-npm.log)"; status=1; }
  else
    echo "install-tools: no npm: install buf $bufpin yourself"
    status=1
  fi
fi
exit $status
