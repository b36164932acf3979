#!/usr/bin/env bash
# Regenerates control/controlpb from control.proto (protoc-gen-go v1.36.12 and
# protoc-gen-go-grpc v1.6.2, as for contract/pb). Run from the repository root
# (make generate).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$(go env GOPATH)/bin:$PATH"
protoc -I control/controlpb \
  --go_out=control/controlpb --go_opt=paths=source_relative \
  --go-grpc_out=control/controlpb --go-grpc_opt=paths=source_relative \
  control/controlpb/control.proto
