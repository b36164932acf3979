#!/usr/bin/env bash
# Regenerates the wire code and fails if that changes anything committed, so the
# schemas and the generated code cannot drift apart. Skips, saying why, when a
# generator is not installed (`make tools` installs them); fails instead in CI
# (scripts/missing.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$(go env GOPATH)/bin:$PATH"
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  bash scripts/missing.sh "check-generate: skipped: not a git checkout, nothing to compare with"
  exit
fi
# The easyjson code needs only Go (go.mod pins the generator), so it is checked first,
# wherever this runs.
bash protocol/httpjson/generate.sh
if [ -n "$(git status --porcelain -- protocol/httpjson/stdjson_easyjson.go)" ]; then
  echo "check-generate: regenerating protocol/httpjson/stdjson_easyjson.go changed it; run 'make generate' and commit"
  git --no-pager diff --stat -- protocol/httpjson/stdjson_easyjson.go
  exit 1
fi
for tool in protoc protoc-gen-go protoc-gen-go-grpc protoc-gen-connect-go capnp capnpc-go thrift; do
  if ! command -v "$tool" >/dev/null; then
    bash scripts/missing.sh "check-generate: skipped: $tool is not installed (run 'make tools')"
    exit
  fi
done
bash contract/schema/generate-proto.sh
bash contract/schema/generate-capnp.sh
bash contract/schema/generate-thrift.sh
bash control/controlpb/generate.sh
changed=$(git status --porcelain -- contract/pb contract/capnpwire contract/thriftwire control/controlpb)
if [ -n "$changed" ]; then
  echo "check-generate: regenerating changed committed code; run 'make generate' and commit:"
  echo "$changed"
  git --no-pager diff --stat -- contract/pb contract/capnpwire contract/thriftwire control/controlpb
  exit 1
fi
# The Rust worker's generated code (workers/rust/codegen writes it with protoc and capnp,
# both checked above; the first run builds the generator).
cargo=$(command -v cargo || ls "$HOME/.cargo/bin/cargo" 2>/dev/null || true)
if [ -z "$cargo" ]; then
  bash scripts/missing.sh "check-generate: the Rust worker's generated code not checked: cargo is not installed (install Rust 1.95 with rustup)"
else
  "$cargo" run -q --release --locked --manifest-path workers/rust/Cargo.toml -p wirebench-codegen >/dev/null
  changed=$(git status --porcelain -- workers/rust/worker/src/gen)
  if [ -n "$changed" ]; then
    echo "check-generate: regenerating the Rust worker's code changed it; run 'make rust-generate' and commit:"
    echo "$changed"
    exit 1
  fi
fi
# The Python worker's generated code (workers/python/generate.sh, with the grpcio-tools
# its venv pins; make python makes the venv).
if [ ! -x workers/python/.venv/bin/python ]; then
  bash scripts/missing.sh "check-generate: the Python worker's generated code not checked: no workers/python/.venv (make python)"
else
  bash workers/python/generate.sh
  changed=$(git status --porcelain -- workers/python/wirebench_worker/gen)
  if [ -n "$changed" ]; then
    echo "check-generate: regenerating the Python worker's code changed it; run 'make python-generate' and commit:"
    echo "$changed"
    exit 1
  fi
fi
echo "check-generate: generated code matches the schemas"
