#!/usr/bin/env bash
# Regenerates contract/capnpwire from contract/schema/wirebench.capnp. Run from the
# repository root (make generate). Needs capnp (Debian: capnproto) and capnpc-go at
# v3.1.0-alpha.2, the version go.mod pins (make tools installs both).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$(go env GOPATH)/bin:$PATH"
std="$(go list -m -f '{{.Dir}}' capnproto.org/go/capnp/v3)/std"
mkdir -p contract/capnpwire
capnp compile -I "$std" --src-prefix=contract/schema -ogo:contract/capnpwire contract/schema/wirebench.capnp
