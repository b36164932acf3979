// Package testtool decides what a test does when something from outside Go that it
// needs is missing (a command such as curl, grpcurl, ghz, chromium or java; a Python
// module; the JVM worker's jar). On a developer's machine the test skips, saying how to
// install the tool. In CI (the CI environment variable set to true, as CI services
// set it) the test fails instead: CI installs every tool (scripts/install-tools.sh),
// so a missing one means a check did not run, and a run that skipped it must not go
// green. scripts/missing.sh applies the same rule to the Makefile's and scripts'
// checks.
package testtool

import (
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// CI reports whether the tests run in CI, where every outside tool is required: the
// CI environment variable parses as true (true, 1, TRUE, ...).
func CI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

// Missing ends the test because something it needs is missing: it skips with the
// message, or fails with it in CI.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if !failInCI(t, format, args...) {
		t.Skipf(format, args...)
	}
}

// Partial says that the test goes on without some of its checks because something
// they need is missing: it logs the message, or fails the test with it in CI.
func Partial(t testing.TB, format string, args ...any) {
	t.Helper()
	if !failInCI(t, format, args...) {
		t.Logf(format, args...)
	}
}

// failInCI fails the test with the message in CI, and reports whether it did.
func failInCI(t testing.TB, format string, args ...any) bool {
	t.Helper()
	if !CI() {
		return false
	}
	t.Fatalf("CI=true requires it: "+format, args...)
	return true
}

// Command returns the path of an outside command, from PATH or from GOPATH/bin where
// `go install` puts it; when it is in neither it calls Missing, saying how to install
// it.
func Command(t testing.TB, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	gopath := build.Default.GOPATH
	if first, _, ok := strings.Cut(gopath, string(os.PathListSeparator)); ok {
		gopath = first
	}
	if p := filepath.Join(gopath, "bin", name); gopath != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	Missing(t, "%s is not installed (in PATH or GOPATH/bin); run 'make tools' (scripts/install-tools.sh)", name)
	return ""
}
