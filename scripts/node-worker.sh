#!/usr/bin/env bash
# Usage: node-worker.sh
# Installs the Node worker's packages (workers/node/node_modules, docs/node-worker.md)
# with `npm ci` from its package-lock.json (every direct dependency pinned exactly in
# package.json), when Node.js 20 or later and npm are present. npm runs only when the
# lock file changed since the last install (its checksum is kept in node_modules).
# Without them the Node stacks are unavailable: this says so (scripts/missing.sh: fails
# with CI=true).
set -euo pipefail
cd "$(dirname "$0")/../workers/node"
if ! command -v node >/dev/null || ! command -v npm >/dev/null ||
  ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
  exec bash ../../scripts/missing.sh "node: no Node.js 20 or later with npm: the Node stacks are unavailable"
fi
sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -d node_modules/@grpc/grpc-js ] && [ "$(cat node_modules/.lock.sha256 2>/dev/null)" = "$sum" ]; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
echo "$sum" > node_modules/.lock.sha256
echo "node: workers/node/node_modules installed with npm ci ($(node --version))"
