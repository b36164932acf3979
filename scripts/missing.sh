#!/usr/bin/env bash
# Usage: missing.sh MESSAGE
# Says that a check did not run because something it needs is missing. On a developer's
# machine that is a skip: it prints "MESSAGE" and exits 0. In CI (CI=true, as CI
# services set it) it prints "MESSAGE (CI=true requires it)" and exits 1: CI installs
# every tool (scripts/install-tools.sh), and a run that skipped a check must not go
# green. The Go tests apply the same rule through internal/testtool, whose CI() reads
# CI as strconv.ParseBool does.
case "${CI:-}" in
  1 | t | T | true | TRUE | True)
    echo "$* (CI=true requires it)" >&2
    exit 1
    ;;
esac
echo "$*"
