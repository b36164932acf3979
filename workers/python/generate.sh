#!/usr/bin/env bash
# Regenerates the Python worker's committed protobuf and gRPC code (wirebench_worker/gen)
# from the control API and the contract's schema, with the venv's grpcio-tools (pinned in
# requirements.txt). Run from
# anywhere (make python-generate). grpcio-tools writes absolute imports; they are made
# relative so the code lives inside the package.
set -euo pipefail
cd "$(dirname "$0")"
out=wirebench_worker/gen
mkdir -p "$out"
.venv/bin/python -m grpc_tools.protoc -I ../../control/controlpb -I ../../contract/schema \
  --python_out="$out" --grpc_python_out="$out" \
  control.proto wirebench.proto
sed -i -E 's/^import (control_pb2|wirebench_pb2) as/from . import \1 as/' "$out"/*_pb2_grpc.py
touch "$out/__init__.py"
