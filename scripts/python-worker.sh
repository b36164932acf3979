#!/usr/bin/env bash
# Usage: python-worker.sh
# Makes the Python worker's venv (workers/python/.venv, docs/python-worker.md) with
# Python 3.11 or later and installs workers/python/requirements.txt into it, every
# package pinned with ==. pip runs only when the requirements changed since the last
# install (their checksum is kept in the venv). Without a python3 of 3.11 or later the
# Python stacks are unavailable: this says so (scripts/missing.sh: fails with CI=true).
set -euo pipefail
cd "$(dirname "$0")/../workers/python"
py=$(command -v python3 || true)
if [ -z "$py" ] || ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  exec bash ../../scripts/missing.sh "python: no python3 of 3.11 or later: the Python stacks are unavailable"
fi
sum=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ -x .venv/bin/python ] && [ "$(cat .venv/.requirements.sha256 2>/dev/null)" = "$sum" ]; then
  exit 0
fi
"$py" -m venv .venv
PIP_DISABLE_PIP_VERSION_CHECK=1 .venv/bin/python -m pip install --quiet --no-input -r requirements.txt
echo "$sum" > .venv/.requirements.sha256
echo "python: workers/python/.venv has $(.venv/bin/python --version) and requirements.txt"
