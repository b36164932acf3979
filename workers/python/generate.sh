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
# Connect for Python's applications of the contract (protoc-gen-connectrpc, pinned too),
# for grpcio's generated messages (protobuf=google).
protoc -I ../../contract/schema --plugin=protoc-gen-connectrpc=.venv/bin/protoc-gen-connectrpc \
  --connectrpc_out=protobuf=google:"$out" wirebench.proto
sed -i -E 's/^from wirebench_pb2 import/from .wirebench_pb2 import/' "$out"/wirebench_connect.py
touch "$out/__init__.py"
