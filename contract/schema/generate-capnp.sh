#!/usr/bin/env bash
# Regenerates contract/capnpwire from contract/schema/wirebench.capnp. Run from the
# repository root (make generate). Needs capnp (Debian: capnproto) and capnpc-go at
# v3.1.0-alpha.2, the version go.mod pins (make tools installs both).
#
# wirebench.capnp imports nothing, so that every Cap'n Proto implementation loads it as
# it is; capnpc-go needs the file-level $Go.package and $Go.import annotations, kept in
# wirebench.capnp.go-annotations and appended here to a copy of the schema under the
# same file name (the generated code names the file: "wirebench.capnp:Person").
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$(go env GOPATH)/bin:$PATH"
std="$(go list -m -f '{{.Dir}}' capnproto.org/go/capnp/v3)/std"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat contract/schema/wirebench.capnp contract/schema/wirebench.capnp.go-annotations >"$tmp/wirebench.capnp"
mkdir -p contract/capnpwire
capnp compile -I "$std" --src-prefix="$tmp" -ogo:contract/capnpwire "$tmp/wirebench.capnp"
