#!/usr/bin/env bash
# Regenerates contract/thriftwire from contract/schema/wirebench.thrift with the Thrift
# compiler (Debian's thrift-compiler 0.17; make tools installs it). Its Go code builds
# against github.com/apache/thrift v0.25.0, the version go.mod pins. Run from the
# repository root (make generate). skip_remote: no command-line client program.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
thrift --gen go:skip_remote,package_prefix=github.com/wirebench/wirebench/contract/ \
  -out "$tmp" contract/schema/wirebench.thrift
rm -rf contract/thriftwire
mv "$tmp/thriftwire" contract/thriftwire
