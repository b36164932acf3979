#!/usr/bin/env bash
# Regenerates contract/pb from contract/schema/wirebench.proto: the protobuf messages
# (protoc-gen-go v1.36.12), the gRPC service stubs (protoc-gen-go-grpc v1.6.2) and the
# Connect ones (protoc-gen-connect-go v1.21.1, into contract/pb/pbconnect), the
# versions go.mod pins (make tools installs them; protoc is Debian's protobuf-compiler).
# Run from the repository root (make generate). Output paths follow the .proto's
# location (paths=source_relative), so the files land in contract/pb, the go_package.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$(go env GOPATH)/bin:$PATH"
mkdir -p contract/pb
protoc -I contract/schema \
  --go_out=contract/pb --go_opt=paths=source_relative \
  --go-grpc_out=contract/pb --go-grpc_opt=paths=source_relative \
  --connect-go_out=contract/pb --connect-go_opt=paths=source_relative,package_suffix=connect \
  contract/schema/wirebench.proto
